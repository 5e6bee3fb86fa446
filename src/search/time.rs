//! The time manager: turns the manager's `timeout_turn`, `timeout_match` and `time_left` into
//! an optimum (do not start another iteration after it) and a maximum (abort the search).
//!
//! Invariants: the maximum is never above the turn limit or the time left minus a safety
//! margin for process and pipe overhead; 0 for the turn limit means "move as fast as
//! possible"; 0 for the match limit or a `time_left` of `i32::MAX` means no match limit.

use std::time::{Duration, Instant};

/// The manager's clock settings, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Limit per move; 0 = move as fast as possible.
    pub turn_ms: i64,
    /// Limit for the whole game; 0 = none.
    pub match_ms: i64,
    /// Time left for the game (`i32::MAX` = unlimited).
    pub time_left_ms: i64,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            turn_ms: 5_000,
            match_ms: 0,
            time_left_ms: i64::from(i32::MAX),
        }
    }
}

/// Fixed reserve kept from every turn limit for process and pipe overhead (ms); a further
/// 1/[`TURN_RESERVE_DIVISOR`] of the turn, at most [`TURN_RESERVE_MAX_MS`], is kept as well.
/// The last check of a VCF defence after the search has its own share of the maximum
/// (`CONFIRM_RESERVE_SHARE` in the search). Measured with two games on two cores, the
/// slowest reply came 6 ms after the maximum at a 300 ms turn (282 against 276 ms) and 16 ms
/// after it at 100 ms (95 against 79 ms): short turns have the thinnest margin.
pub const TURN_RESERVE_MS: i64 = 20;
/// The proportional part of the turn reserve is the turn divided by this.
pub const TURN_RESERVE_DIVISOR: i64 = 64;
/// Cap of the proportional part of the turn reserve (ms).
pub const TURN_RESERVE_MAX_MS: i64 = 250;
/// The optimum is this share of the maximum (per mille) when the turn alone limits the move:
/// iterations grow about threefold, so most moves end in an iteration cut at the maximum,
/// whose fully searched best root move is kept.
pub const OPTIMUM_PER_MILLE: i64 = 900;
/// Fixed reserve kept from the match time left (ms).
pub const MATCH_RESERVE_MS: i64 = 100;
/// Hard limit used when the turn limit is 0 ("as fast as possible").
pub const INSTANT_MS: u64 = 15;

/// How long this move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub optimum: Duration,
    /// Abort the search at this point.
    pub maximum: Duration,
}

impl TimeControl {
    /// True when the match clock is in force.
    pub fn match_limited(&self) -> bool {
        self.match_ms > 0 && self.time_left_ms != i64::from(i32::MAX)
    }

    /// A turn limit whose search maximum ([`TimeControl::budget`]) is about `ms`: for a
    /// caller that has a time per search (`analyze --time-ms`, the Swap2 and opening stages'
    /// shares) rather than a manager's clock.
    pub fn with_maximum(ms: u64) -> TimeControl {
        let ms = ms.max(1);
        let mut tc = TimeControl {
            turn_ms: ms as i64 + TURN_RESERVE_MS,
            ..TimeControl::default()
        };
        // The maximum is the turn less a reserve that grows with the turn; a few steps
        // converge.
        for _ in 0..8 {
            let max = tc.budget(0).maximum.as_millis() as u64;
            if max >= ms {
                break;
            }
            tc.turn_ms += (ms - max) as i64;
        }
        tc
    }

    /// The same clock after `spent` of the turn has gone before the search starts (creating
    /// the transposition table at a process's first search): taken off the turn limit and off a
    /// limited match clock. A turn used up this way leaves a limit of at most 0, "move at once".
    pub fn after(self, spent: Duration) -> TimeControl {
        let ms = i64::try_from(spent.as_millis()).unwrap_or(i64::MAX);
        if ms == 0 {
            return self;
        }
        TimeControl {
            turn_ms: if self.turn_ms > 0 {
                self.turn_ms.saturating_sub(ms)
            } else {
                self.turn_ms
            },
            time_left_ms: if self.match_limited() {
                self.time_left_ms.saturating_sub(ms)
            } else {
                self.time_left_ms
            },
            ..self
        }
    }

    /// The budget for a move with about `empty_cells` free points left.
    pub fn budget(&self, empty_cells: usize) -> Budget {
        if self.turn_ms <= 0 {
            let t = Duration::from_millis(INSTANT_MS);
            return Budget {
                optimum: t / 4,
                maximum: t,
            };
        }
        let mut maximum = self.turn_ms
            - TURN_RESERVE_MS
            - (self.turn_ms / TURN_RESERVE_DIVISOR).min(TURN_RESERVE_MAX_MS);
        let mut optimum = maximum * OPTIMUM_PER_MILLE / 1000;
        if self.match_limited() {
            let left = (self.time_left_ms - MATCH_RESERVE_MS - self.time_left_ms / 30).max(0);
            // Our remaining moves: about half the free cells, at least 15, at most 40.
            let moves_left = (empty_cells as i64 / 2).clamp(15, 40);
            let share = left / moves_left;
            maximum = maximum.min(left / 4).min(share * 3);
            optimum = optimum.min(share);
        }
        let maximum = maximum.max(1) as u64;
        let optimum = (optimum.max(1) as u64).min(maximum);
        Budget {
            optimum: Duration::from_millis(optimum),
            maximum: Duration::from_millis(maximum),
        }
    }
}

/// A started clock with its budget.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    start: Instant,
    budget: Option<Budget>,
}

impl Clock {
    /// Starts the clock; `None` means no time limit (depth- or node-limited search).
    pub fn start(budget: Option<Budget>) -> Clock {
        Clock {
            start: Instant::now(),
            budget,
        }
    }

    /// The same clock with `share` of its maximum (and of its optimum) taken off, for work
    /// that follows the search on the move's time.
    pub fn with_reserve(self, share: f64) -> Clock {
        let keep = (1.0 - share).clamp(0.0, 1.0);
        Clock {
            start: self.start,
            budget: self.budget.map(|b| Budget {
                optimum: b.optimum.mul_f64(keep),
                maximum: b.maximum.mul_f64(keep),
            }),
        }
    }

    /// The instant `share` of the maximum after the start, for work that is bounded by nodes
    /// but whose node cost varies (the root's VCF checks); `None` without a time limit.
    pub fn deadline(&self, share: f64) -> Option<Instant> {
        self.budget
            .map(|b| self.start + b.maximum.mul_f64(share.clamp(0.0, 1.0)))
    }

    /// Time since the start.
    #[inline]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True once the maximum has passed.
    #[inline]
    pub fn out_of_time(&self) -> bool {
        self.budget.is_some_and(|b| self.elapsed() >= b.maximum)
    }

    /// True once a new iteration should not be started (the optimum has passed, scaled by
    /// `factor` for unstable or forced positions).
    pub fn past_optimum(&self, factor: f64) -> bool {
        self.budget
            .is_some_and(|b| self.elapsed().as_secs_f64() >= b.optimum.as_secs_f64() * factor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_per_search_gives_about_that_maximum() {
        for ms in [1u64, 10, 100, 333, 1_000, 4_000, 10_000, 60_000] {
            let max = TimeControl::with_maximum(ms)
                .budget(200)
                .maximum
                .as_millis() as u64;
            assert!(max >= ms && max <= ms + 2, "{ms} -> {max}");
        }
    }

    #[test]
    fn budgets_stay_under_limits() {
        let tc = TimeControl {
            turn_ms: 200,
            match_ms: 0,
            time_left_ms: i64::from(i32::MAX),
        };
        let b = tc.budget(200);
        assert!(b.maximum <= Duration::from_millis((200 - TURN_RESERVE_MS) as u64));
        assert!(b.optimum <= b.maximum);
        let tc = TimeControl {
            turn_ms: 30_000,
            match_ms: 180_000,
            time_left_ms: 2_000,
        };
        let b = tc.budget(200);
        assert!(b.maximum <= Duration::from_millis(2_000 / 4));
        let tc = TimeControl {
            turn_ms: 0,
            match_ms: 0,
            time_left_ms: i64::from(i32::MAX),
        };
        assert_eq!(tc.budget(200).maximum, Duration::from_millis(INSTANT_MS));
        let tc = TimeControl {
            turn_ms: 5_000,
            match_ms: 100_000,
            time_left_ms: 50,
        };
        assert!(tc.budget(100).maximum <= Duration::from_millis(1));
    }

    #[test]
    fn time_spent_before_the_search_comes_off_the_turn_and_the_match_clock() {
        let tc = TimeControl {
            turn_ms: 300,
            match_ms: 60_000,
            time_left_ms: 10_000,
        };
        let after = tc.after(Duration::from_millis(120));
        assert_eq!((after.turn_ms, after.time_left_ms), (180, 9_880));
        assert!(after.budget(200).maximum < tc.budget(200).maximum);
        // A turn used up moves at once; "move at once" and an unlimited match stay so.
        let gone = tc.after(Duration::from_millis(400));
        assert_eq!(gone.budget(200).maximum, Duration::from_millis(INSTANT_MS));
        let open = TimeControl {
            turn_ms: 0,
            match_ms: 0,
            time_left_ms: i64::from(i32::MAX),
        };
        assert_eq!(open.after(Duration::from_millis(50)), open);
        assert_eq!(tc.after(Duration::ZERO), tc);
    }
}
