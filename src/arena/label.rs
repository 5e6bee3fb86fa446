//! Relabelling training data with a judge engine's evaluations (`lianzhu-match --label`).
//!
//! Every searched move of a training-data file (see [`crate::train::data`]) carries the
//! score of the position before it. Here a judge engine (the sparring Rapfi) is asked for its
//! own evaluation of each of those positions at a fixed node count (`INFO max_node`, so the
//! labels do not depend on how busy the machine is), and the score is replaced by the
//! judge's, converted to our evaluation units: a judge score `v` becomes `v * scale`
//! (rounded), a judge mate `+M`/`-M` a proven win or loss. The trainer then fits our tables to
//! the judge's view of our own positions (a teacher's scores carry far more information per
//! position than a game result).
//!
//! Invariants: the games, their moves, results and unscored stones are unchanged; only the
//! scores of searched moves are replaced; a position the judge gives no eval for keeps its
//! old score and is counted as a failure.

use super::engine_proc::EngineProc;
use super::forced::Eval;
use super::referee::{ask_position, start_engine, GameSettings};
use super::scoring::last_eval;
use crate::rules::Board;
use crate::train::data::{Game, Score};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// How to relabel.
#[derive(Clone, Debug)]
pub struct LabelConfig {
    /// The judge's shell command.
    pub judge: String,
    /// Nodes per position (`INFO max_node`).
    pub nodes: u64,
    /// Our evaluation units per judge unit.
    pub scale: f64,
    /// Judge processes run at once (one game at a time each).
    pub workers: usize,
}

/// What a relabelling did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LabelCounts {
    /// Scores replaced by a judge score.
    pub scores: usize,
    /// Scores replaced by a judge mate.
    pub mates: usize,
    /// Positions the judge gave no eval for (old score kept).
    pub failures: usize,
}

impl std::ops::AddAssign for LabelCounts {
    fn add_assign(&mut self, c: LabelCounts) {
        self.scores += c.scores;
        self.mates += c.mates;
        self.failures += c.failures;
    }
}

/// The judge's eval `e` in our units.
pub fn convert(e: Eval, scale: f64) -> Score {
    match e {
        Eval::Score(v) => Score::Eval((f64::from(v) * scale).round() as i32),
        Eval::Mate(n) => Score::Mate(n > 0),
    }
}

/// Time a judge may take for one position before it counts as failed (it stops at its node
/// limit long before).
const JUDGE_TURN_MS: u64 = 30_000;

fn settings_of(game: &Game) -> GameSettings {
    GameSettings {
        rule: game.rule,
        size: game.size,
        turn_ms: JUDGE_TURN_MS,
        match_ms: 0,
        max_memory: 64 << 20,
        tolerance_ms: 1_000,
        start_ms: 10_000,
        max_moves: 0,
    }
}

/// Relabels one game with `judge` (restarted through `spawn` after a failure).
fn label_game(
    game: &mut Game,
    judge: &mut Option<EngineProc>,
    spawn: &dyn Fn() -> Option<EngineProc>,
    cfg: &LabelConfig,
) -> LabelCounts {
    let mut counts = LabelCounts::default();
    let settings = settings_of(game);
    let Ok(mut board) = Board::square(game.size) else {
        return counts;
    };
    for m in game.moves.iter_mut() {
        if matches!(m.score, Some(Score::Eval(_))) {
            let mut messages = Vec::new();
            let eval = (|| {
                if judge.is_none() {
                    *judge = spawn();
                }
                let e = judge.as_mut()?;
                start_engine(e, &settings, JUDGE_TURN_MS).ok()?;
                e.send(&format!("INFO max_node {}", cfg.nodes)).ok()?;
                ask_position(e, &board, &settings, JUDGE_TURN_MS, &mut |l| {
                    messages.push(l.to_string())
                })
                .ok()?;
                last_eval(&messages)
            })();
            match eval {
                Some(e) => {
                    let s = convert(e, cfg.scale);
                    if matches!(s, Score::Mate(_)) {
                        counts.mates += 1;
                    } else {
                        counts.scores += 1;
                    }
                    m.score = Some(s);
                }
                None => {
                    counts.failures += 1;
                    *judge = None;
                }
            }
        }
        if !board.is_empty(m.pos) {
            break;
        }
        board.make(m.pos);
    }
    counts
}

/// Relabels every game with `cfg.workers` judge processes; `progress` sees the number of
/// games done after each game.
pub fn label_games(
    games: &mut [Game],
    cfg: &LabelConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> LabelCounts {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let total = Mutex::new(LabelCounts::default());
    let slots: Vec<Mutex<&mut Game>> = games.iter_mut().map(Mutex::new).collect();
    std::thread::scope(|scope| {
        for w in 0..cfg.workers.max(1) {
            let (next, done, total, slots) = (&next, &done, &total, &slots);
            scope.spawn(move || {
                let spawn = || EngineProc::spawn(&format!("judge{w}"), &cfg.judge).ok();
                let mut judge = None;
                loop {
                    let i = next.fetch_add(1, Relaxed);
                    let Some(slot) = slots.get(i) else { break };
                    let mut game = slot.lock().expect("one worker per game");
                    let c = label_game(&mut game, &mut judge, &spawn, cfg);
                    *total.lock().expect("counts") += c;
                    progress(done.fetch_add(1, Relaxed) + 1);
                }
                if let Some(j) = judge {
                    j.quit();
                }
            });
        }
    });
    total.into_inner().expect("counts")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judge_evals_convert_to_our_units() {
        assert_eq!(convert(Eval::Score(250), 2.0), Score::Eval(500));
        assert_eq!(convert(Eval::Score(-101), 1.5), Score::Eval(-152));
        assert_eq!(convert(Eval::Mate(17), 2.0), Score::Mate(true));
        assert_eq!(convert(Eval::Mate(-4), 2.0), Score::Mate(false));
    }
}
