//! Basic value types shared by every layer: colours, board points and rules.
//!
//! A [`Pos`] is an index into a fixed, padded 42x42 grid (32 playable columns and rows plus a
//! wall of 5 cells on each side), so a point means the same index whatever the board size and
//! the four line directions are constant offsets. Conversion to and from protocol coordinates
//! (`x` = column from the left, `y` = row from the top, both 0-based) happens only through
//! [`Pos::new`], [`Pos::x`] and [`Pos::y`].

use std::fmt;

/// Largest supported board side.
pub const MAX_SIZE: usize = 32;
/// Smallest supported board side.
pub const MIN_SIZE: usize = 5;
/// Wall cells kept around the playable area on each side; wide enough for any line window
/// (a five plus the cell that would make it an overline) to stop at a wall.
pub const PAD: usize = 5;
/// Row stride of the padded grid.
pub const STRIDE: usize = MAX_SIZE + 2 * PAD;
/// Number of cells in the padded grid.
pub const CELLS: usize = STRIDE * STRIDE;
/// Index offsets of the four line directions: horizontal, vertical, diagonal, anti-diagonal.
pub const DIRECTIONS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

/// A player's colour. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player.
    Black = 0,
    /// The second player.
    White = 1,
}

impl Color {
    /// The other colour.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: an index into per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A point of the padded grid. Ordering follows the index (row-major), which gives every sort
/// a total, platform-independent tie-break.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos(u16);

impl Pos {
    /// "No point": index 0 lies in the wall, so it is never a playable point.
    pub const NONE: Pos = Pos(0);

    /// The point at column `x` and row `y` (0-based); both must be below [`MAX_SIZE`].
    #[inline]
    pub const fn new(x: usize, y: usize) -> Pos {
        debug_assert!(x < MAX_SIZE && y < MAX_SIZE);
        Pos(((y + PAD) * STRIDE + x + PAD) as u16)
    }

    /// The point from a raw grid index.
    #[inline]
    pub const fn from_index(index: usize) -> Pos {
        Pos(index as u16)
    }

    /// The raw grid index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column, 0-based from the left. Meaningless for points in the wall.
    #[inline]
    pub const fn x(self) -> usize {
        (self.0 as usize % STRIDE).wrapping_sub(PAD)
    }

    /// Row, 0-based from the top. Meaningless for points in the wall.
    #[inline]
    pub const fn y(self) -> usize {
        (self.0 as usize / STRIDE).wrapping_sub(PAD)
    }

    /// True for [`Pos::NONE`].
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The point `steps` cells away along a direction offset (see [`DIRECTIONS`]). The caller
    /// keeps the result inside the padded grid (at most [`PAD`] cells beyond the edge).
    #[inline]
    pub const fn offset(self, dir: isize, steps: isize) -> Pos {
        Pos((self.0 as isize + dir * steps) as u16)
    }

    /// Chebyshev distance between two points.
    pub fn distance(self, other: Pos) -> usize {
        let dx = self.x().abs_diff(other.x());
        let dy = self.y().abs_diff(other.y());
        dx.max(dy)
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            write!(f, "Pos(none)")
        } else {
            write!(f, "Pos({},{})", self.x(), self.y())
        }
    }
}

/// The game rule. See `../shared/docs/rules.md` for the exact definitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rule {
    /// Five or more in a row wins for both sides (Gomocup rule 0).
    #[default]
    Freestyle,
    /// Exactly five wins for both sides; an overline does not win (rule 1).
    Standard,
    /// Renju (rule 4): black wins only with exactly five and may not play overline,
    /// double-four or double-three points; white wins with five or more.
    Renju,
    /// Caro as the Gomocup referee judges rule 8: six or more wins, and exactly five wins
    /// unless opponent stones block both ends (the board edge is no block).
    Caro,
    /// Caro with exact five (rule 9): exactly five not blocked at both ends; overlines do not win.
    CaroExact,
}

impl Rule {
    /// True if a five can be stopped at either end (caro: a five blocked at both ends by the
    /// opponent does not win), so a four may have more than one defence.
    #[inline]
    pub fn five_blockable(self) -> bool {
        matches!(self, Rule::Caro | Rule::CaroExact)
    }

    /// True if `color` has forbidden points (renju black).
    #[inline]
    pub fn has_fouls(self, color: Color) -> bool {
        self == Rule::Renju && color == Color::Black
    }

    /// The rule for an `INFO rule` value, or `None` for a value we do not play.
    ///
    /// Accepted: 0, 1, 4, 8, 9, and a bare 2, which Yixin-Board sends for renju. The
    /// continuous-game bit together with anything else is not supported.
    pub fn from_gomocup(value: i64) -> Option<Rule> {
        match value {
            0 => Some(Rule::Freestyle),
            1 => Some(Rule::Standard),
            2 | 4 => Some(Rule::Renju),
            8 => Some(Rule::Caro),
            9 => Some(Rule::CaroExact),
            _ => None,
        }
    }

    /// The `INFO rule` value that selects this rule.
    pub fn gomocup_id(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    /// The rule for a name as used on command lines: `freestyle`, `standard`, `renju`, `caro`
    /// (rule 8) or `caro5` (rule 9); case-insensitive.
    pub fn from_name(name: &str) -> Option<Rule> {
        match name.to_ascii_lowercase().as_str() {
            "freestyle" | "gomoku" => Some(Rule::Freestyle),
            "standard" | "exact" => Some(Rule::Standard),
            "renju" => Some(Rule::Renju),
            "caro" => Some(Rule::Caro),
            "caro5" | "caro-exact" => Some(Rule::CaroExact),
            _ => None,
        }
    }

    /// The command-line name of the rule.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro5",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pos_round_trips_every_point() {
        for y in 0..MAX_SIZE {
            for x in 0..MAX_SIZE {
                let p = Pos::new(x, y);
                assert_eq!((p.x(), p.y()), (x, y));
                assert!(!p.is_none());
                // Every line window of 6 cells in any direction stays inside the grid.
                for d in DIRECTIONS {
                    let far = p.index() as isize + d * PAD as isize;
                    let near = p.index() as isize - d * PAD as isize;
                    assert!(far >= 0 && (far as usize) < CELLS);
                    assert!(near >= 0 && (near as usize) < CELLS);
                }
            }
        }
    }

    #[test]
    fn rule_ids() {
        assert_eq!(Rule::from_gomocup(2), Some(Rule::Renju));
        assert_eq!(Rule::from_gomocup(3), None);
        assert_eq!(Rule::from_gomocup(-1), None);
        for r in [
            Rule::Freestyle,
            Rule::Standard,
            Rule::Renju,
            Rule::Caro,
            Rule::CaroExact,
        ] {
            assert_eq!(Rule::from_gomocup(r.gomocup_id() as i64), Some(r));
            assert_eq!(Rule::from_name(r.name()), Some(r));
        }
    }
}
