//! Move-ordering memory: a butterfly history per colour and point, and two killer moves per ply.
//!
//! Invariant: values stay within `[-HISTORY_MAX, HISTORY_MAX]` (gravity update).

use crate::types::{Color, Pos, CELLS};

/// Bound of a history value.
pub const HISTORY_MAX: i32 = 16_384;

/// History scores per colour and grid point.
#[derive(Clone)]
pub struct History {
    table: Vec<[i32; 2]>,
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

    /// Halves every value (between searches).
    pub fn age(&mut self) {
        for e in &mut self.table {
            e[0] /= 2;
            e[1] /= 2;
        }
    }
}
