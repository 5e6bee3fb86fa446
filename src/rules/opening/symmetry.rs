//! The 8 symmetries of a square board around its centre, and positions compared up to them.
//!
//! Offers of fifth moves must not be symmetric to each other: two offers are duplicates when
//! some symmetry maps the position after one onto the position after the other. Comparing
//! [`canonical`] keys says exactly that.

use crate::rules::Board;
use crate::types::{Color, Pos};

/// One of the 8 symmetries of the square, acting on offsets from the board's centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves every point in place.
    Identity,
    /// A quarter turn: (dx, dy) to (-dy, dx).
    Rotate90,
    /// A half turn: (dx, dy) to (-dx, -dy).
    Rotate180,
    /// Three quarter turns: (dx, dy) to (dy, -dx).
    Rotate270,
    /// Mirror left-right: (dx, dy) to (-dx, dy).
    MirrorX,
    /// Mirror top-bottom: (dx, dy) to (dx, -dy).
    MirrorY,
    /// Mirror in the main diagonal: (dx, dy) to (dy, dx).
    Transpose,
    /// Mirror in the other diagonal: (dx, dy) to (-dy, -dx).
    AntiTranspose,
}

impl Symmetry {
    /// All 8, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::MirrorX,
        Symmetry::MirrorY,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The image of the offset `(dx, dy)`.
    pub const fn apply_offset(self, (dx, dy): (i32, i32)) -> (i32, i32) {
        match self {
            Symmetry::Identity => (dx, dy),
            Symmetry::Rotate90 => (-dy, dx),
            Symmetry::Rotate180 => (-dx, -dy),
            Symmetry::Rotate270 => (dy, -dx),
            Symmetry::MirrorX => (-dx, dy),
            Symmetry::MirrorY => (dx, -dy),
            Symmetry::Transpose => (dy, dx),
            Symmetry::AntiTranspose => (-dy, -dx),
        }
    }

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// The image of `p` on `board` (around its centre), or `None` when it falls off the board
    /// (only possible on boards that are not square with an odd side).
    pub fn apply(self, board: &Board, p: Pos) -> Option<Pos> {
        let (dx, dy) = self.apply_offset(offset(board, p));
        from_offset(board, (dx, dy))
    }
}

/// The offset `(dx, dy)` of `p` from the centre of `board`.
pub fn offset(board: &Board, p: Pos) -> (i32, i32) {
    let c = board.center();
    (p.x() as i32 - c.x() as i32, p.y() as i32 - c.y() as i32)
}

/// The point at offset `(dx, dy)` from the centre of `board`, if it is on the board.
pub fn from_offset(board: &Board, (dx, dy): (i32, i32)) -> Option<Pos> {
    let c = board.center();
    board
        .pos(c.x() as i64 + i64::from(dx), c.y() as i64 + i64::from(dy))
        .ok()
}

/// A position's stones as offsets and colour indices, sorted: see [`canonical`].
pub type PositionKey = Vec<(i32, i32, u8)>;

/// A key of the stones of `board` (colours included, move order ignored) that is equal for
/// two boards exactly when a symmetry maps one onto the other.
pub fn canonical(board: &Board) -> PositionKey {
    canonical_of(board, board.history().iter().copied())
}

/// [`canonical`] of `board`'s stones with `extra` (a stone not on it) added.
pub fn canonical_with(board: &Board, extra: (Pos, Color)) -> PositionKey {
    canonical_of(board, board.history().iter().copied().chain([extra]))
}

fn canonical_of(board: &Board, stones: impl Iterator<Item = (Pos, Color)> + Clone) -> PositionKey {
    let square_odd = board.width() == board.height() && !board.width().is_multiple_of(2);
    let mut best: Option<PositionKey> = None;
    for s in Symmetry::ALL {
        let mut key = Vec::new();
        let mut fits = true;
        for (p, c) in stones.clone() {
            let (dx, dy) = s.apply_offset(offset(board, p));
            if !square_odd && from_offset(board, (dx, dy)).is_none() {
                fits = false;
                break;
            }
            key.push((dx, dy, c.index() as u8));
        }
        if !fits {
            continue;
        }
        key.sort_unstable();
        if best.as_ref().is_none_or(|b| key < *b) {
            best = Some(key);
        }
    }
    best.unwrap_or_default()
}

/// True if `a` and `b` (two points empty on `board`) give positions that a symmetry of the
/// board maps onto each other when `color` plays there: the same point, or symmetric offers.
pub fn symmetric_moves(board: &Board, a: Pos, b: Pos, color: Color) -> bool {
    a == b || canonical_with(board, (a, color)) == canonical_with(board, (b, color))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(moves: &[(usize, usize)]) -> Board {
        let mut b = Board::square(15).unwrap();
        for &(x, y) in moves {
            b.make(Pos::new(x, y));
        }
        b
    }

    #[test]
    fn the_eight_symmetries_are_distinct_and_invert() {
        let o = (1, 2);
        let images: std::collections::HashSet<(i32, i32)> =
            Symmetry::ALL.iter().map(|s| s.apply_offset(o)).collect();
        assert_eq!(images.len(), 8);
        for s in Symmetry::ALL {
            assert_eq!(s.inverse().apply_offset(s.apply_offset(o)), o, "{s:?}");
        }
    }

    #[test]
    fn points_map_around_the_centre() {
        let b = Board::square(15).unwrap();
        let p = Pos::new(9, 8); // offset (2, 1)
        assert_eq!(Symmetry::Rotate180.apply(&b, p), Some(Pos::new(5, 6)));
        assert_eq!(Symmetry::MirrorX.apply(&b, p), Some(Pos::new(5, 8)));
        assert_eq!(Symmetry::Transpose.apply(&b, p), Some(Pos::new(8, 9)));
        assert_eq!(Symmetry::Identity.apply(&b, b.center()), Some(b.center()));
        // The corner maps to a corner.
        assert_eq!(
            Symmetry::Rotate90.apply(&b, Pos::new(0, 0)),
            Some(Pos::new(14, 0))
        );
    }

    #[test]
    fn symmetric_positions_share_a_key() {
        // h8 h9 (direct): the mirror left-right keeps it, so i10 and g10 are the same offer.
        let b = board(&[(7, 7), (7, 8)]);
        assert!(symmetric_moves(
            &b,
            Pos::new(8, 9),
            Pos::new(6, 9),
            Color::Black
        ));
        assert!(!symmetric_moves(
            &b,
            Pos::new(8, 9),
            Pos::new(8, 5),
            Color::Black
        ));
        // A colour matters: the same shape with the colours swapped is a different position.
        let w = board(&[(7, 7), (7, 8)]);
        assert_ne!(
            canonical_with(&w, (Pos::new(7, 9), Color::Black)),
            canonical_with(&w, (Pos::new(7, 9), Color::White))
        );
        // Two whole boards related by a rotation have one key.
        let a = board(&[(7, 7), (8, 8), (9, 7)]);
        let r = board(&[(7, 7), (6, 8), (7, 9)]);
        assert_eq!(canonical(&a), canonical(&r));
        assert_ne!(canonical(&a), canonical(&board(&[(7, 7), (8, 8), (9, 6)])));
    }

    #[test]
    fn even_boards_only_use_symmetries_that_fit() {
        let mut b = Board::square(16).unwrap();
        b.make(Pos::new(0, 0));
        // Only the identity and the transpose keep a corner stone on a 16x16 board around
        // (8, 8); the key is still defined and equal for the transposed position.
        let mut t = Board::square(16).unwrap();
        t.make(Pos::new(0, 0));
        assert_eq!(canonical(&b), canonical(&t));
        assert!(!canonical(&b).is_empty());
    }
}
