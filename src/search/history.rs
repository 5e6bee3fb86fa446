//! Move-ordering memory: a butterfly history per colour and point and a counter-move per
//! colour and opponent move (the killer moves live in the search's frames).
//!
//! Invariant: values stay within `[-HISTORY_MAX, HISTORY_MAX]` (gravity update).

use crate::types::{Color, Pos, CELLS};

/// Bound of a history value.
pub const HISTORY_MAX: i32 = 16_384;

/// History scores per colour and grid point.
#[derive(Clone)]
pub struct History {
    table: Vec<[i32; 2]>,
    /// The last reply of each colour that refuted an opponent move at each point.
    counter: Vec<[Pos; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

impl History {
    /// An empty history.
    pub fn new() -> History {
        History {
            table: vec![[0; 2]; CELLS],
            counter: vec![[Pos::NONE; 2]; CELLS],
        }
    }

    /// The score of `color` playing at `p`.
    #[inline]
    pub fn get(&self, color: Color, p: Pos) -> i32 {
        self.table[p.index()][color.index()]
    }

    /// Adds `bonus` (may be negative) with gravity towards zero.
    #[inline]
    pub fn update(&mut self, color: Color, p: Pos, bonus: i32) {
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let h = &mut self.table[p.index()][color.index()];
        *h += b - *h * b.abs() / HISTORY_MAX;
    }

    /// The reply of `color` that last refuted the opponent's move at `prev`
    /// ([`Pos::NONE`] if none, or if `prev` is none).
    #[inline]
    pub fn counter(&self, color: Color, prev: Option<Pos>) -> Pos {
        prev.map_or(Pos::NONE, |q| self.counter[q.index()][color.index()])
    }

    /// Remembers `reply` as `color`'s refutation of the opponent's move at `prev`.
    #[inline]
    pub fn set_counter(&mut self, color: Color, prev: Option<Pos>, reply: Pos) {
        if let Some(q) = prev {
            self.counter[q.index()][color.index()] = reply;
        }
    }

    /// Halves every value (between searches).
    pub fn age(&mut self) {
        for e in &mut self.table {
            e[0] /= 2;
            e[1] /= 2;
        }
    }
}
