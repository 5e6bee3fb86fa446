//! Pattern scores: every number the static evaluation uses, in one plain struct.
//!
//! Invariant: scores are "potential" values of an empty cell for one side, so a stronger
//! pattern never scores below a weaker one; no global mutable state (a search owns a copy).

use crate::rules::pattern::{CellThreat, LinePattern};

/// Scores of line patterns and cell threats for one side's view of an empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Score per [`LinePattern`], indexed by discriminant (entries past `Five` unused).
    pub line: [i32; 16],
    /// Bonus per [`CellThreat`], indexed by discriminant (entries past `Five` unused).
    pub threat: [i32; 32],
    /// Weight (in 1/16) of the side to move's sum in [`crate::eval::EvalBoard::evaluate`].
    pub own_scale: i32,
    /// Weight (in 1/16) of the opponent's sum.
    pub opp_scale: i32,
}

impl Weights {
    /// The default weights.
    pub const DEFAULT: Weights = Weights {
        // Dead, Overline, B1, F1, B2, F2, B3, F3, B4, F4, DoubleFour, Five
        line: [0, 0, 1, 2, 4, 10, 12, 30, 24, 120, 120, 600, 0, 0, 0, 0],
        // None, Forbidden, F2, B3, F2x2, B3+, F3, F3+, F3x2, B4, B4+, B4F3, B4x2, F4, Five
        threat: [
            0, 0, 0, 0, 10, 12, 0, 20, 80, 0, 30, 160, 300, 300, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0,
        ],
        own_scale: 20,
        opp_scale: 16,
    };

    /// The score of one cell from its four line patterns and its threat byte (a
    /// [`CellThreat`] discriminant plus flag bits).
    #[inline]
    pub fn cell(&self, pats: [u8; 4], threat: u8) -> i32 {
        let t = (threat & crate::rules::pattern::THREAT_MASK) as usize;
        if t == CellThreat::Forbidden as usize {
            return 0;
        }
        self.line[pats[0] as usize & 15]
            + self.line[pats[1] as usize & 15]
            + self.line[pats[2] as usize & 15]
            + self.line[pats[3] as usize & 15]
            + self.threat[t]
    }

    /// The score of one line pattern.
    #[inline]
    pub fn line_score(&self, p: LinePattern) -> i32 {
        self.line[p as usize]
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}
