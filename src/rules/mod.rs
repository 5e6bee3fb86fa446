//! The rules layer: the board, what wins under each rule, and renju fouls.
//!
//! This layer knows nothing of evaluation, search or the protocol, and never prints.

#![forbid(unsafe_code)]

mod board;
pub mod opening;
pub mod pattern;
pub mod renju;
pub mod tables;
pub mod zobrist;

pub use board::{Board, BoardError, Cell};
pub use renju::{forbidden, forbidden_points, Foul, ThreeReading};

use crate::types::{Color, Pos, Rule, DIRECTIONS};

/// True if the run of `color` through `p` along `dir` (with `p` counted as `color`) is a
/// winning line under `rule`.
#[inline]
pub fn wins_along(board: &Board, p: Pos, dir: isize, color: Color, rule: Rule) -> bool {
    let (len, before, after) = board.run_through(p, dir, color);
    let blocked_both = || {
        let opp = Cell::Stone(color.opponent());
        before == opp && after == opp
    };
    match rule {
        Rule::Freestyle => len >= 5,
        Rule::Standard => len == 5,
        Rule::Renju => match color {
            Color::Black => len == 5,
            Color::White => len >= 5,
        },
        Rule::Caro => len > 5 || (len == 5 && !blocked_both()),
        Rule::CaroExact => len == 5 && !blocked_both(),
    }
}

/// True if a stone of `color` at `p` makes (or, if already there, forms) a winning line.
#[inline]
pub fn is_five(board: &Board, p: Pos, color: Color, rule: Rule) -> bool {
    DIRECTIONS
        .iter()
        .any(|&d| wins_along(board, p, d, color, rule))
}

/// What a move does to the game, judged before it is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveOutcome {
    /// The move makes a winning line.
    Win,
    /// Renju: black plays a forbidden point and loses.
    Foul(Foul),
    /// The game goes on (or is drawn if the board is now full).
    Continue,
}

/// Judges `color` playing at the empty point `p` under `rule`.
pub fn judge(board: &Board, p: Pos, color: Color, rule: Rule) -> MoveOutcome {
    if is_five(board, p, color, rule) {
        return MoveOutcome::Win;
    }
    if rule.has_fouls(color) {
        if let Some(f) = forbidden(board, p) {
            return MoveOutcome::Foul(f);
        }
    }
    MoveOutcome::Continue
}

/// True if `color` may play at `p`: the point is empty and, under renju, not forbidden for
/// black. (A five is never forbidden.)
pub fn is_legal(board: &Board, p: Pos, color: Color, rule: Rule) -> bool {
    board.is_empty(p) && !matches!(judge(board, p, color, rule), MoveOutcome::Foul(_))
}

/// The colour that has a winning line through the last stone placed, if any.
pub fn winner_after_last(board: &Board, rule: Rule) -> Option<Color> {
    let &(p, color) = board.history().last()?;
    is_five(board, p, color, rule).then_some(color)
}

/// Every point where `color` would complete a winning line at once, row by row.
pub fn winning_points(board: &Board, color: Color, rule: Rule) -> Vec<Pos> {
    board
        .empty_points()
        .filter(|&p| is_five(board, p, color, rule))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(board: &mut Board, y: usize, xs: &[usize], color: Color) {
        for &x in xs {
            board.place(Pos::new(x, y), color);
        }
    }

    #[test]
    fn five_and_overline_per_rule() {
        let mut b = Board::square(15).unwrap();
        row(&mut b, 7, &[2, 3, 4, 6, 7], Color::Black);
        // x=5 makes six in a row.
        let p = Pos::new(5, 7);
        assert!(is_five(&b, p, Color::Black, Rule::Freestyle));
        assert!(!is_five(&b, p, Color::Black, Rule::Standard));
        assert!(!is_five(&b, p, Color::Black, Rule::Renju));
        assert!(is_five(&b, p, Color::Black, Rule::Caro));
        assert!(!is_five(&b, p, Color::Black, Rule::CaroExact));
        assert_eq!(
            judge(&b, p, Color::Black, Rule::Renju),
            MoveOutcome::Foul(Foul::Overline)
        );
        // The same shape in white wins in renju.
        let mut w = Board::square(15).unwrap();
        row(&mut w, 7, &[2, 3, 4, 6, 7], Color::White);
        assert!(is_five(&w, p, Color::White, Rule::Renju));
    }

    #[test]
    fn caro_blocked_five() {
        let mut b = Board::square(15).unwrap();
        row(&mut b, 3, &[1, 2, 3, 4], Color::Black);
        row(&mut b, 3, &[0, 6], Color::White);
        let p = Pos::new(5, 3);
        assert!(!is_five(&b, p, Color::Black, Rule::Caro));
        assert!(is_five(&b, p, Color::Black, Rule::Freestyle));
        // The board edge is no block.
        let mut e = Board::square(15).unwrap();
        row(&mut e, 3, &[0, 1, 2, 3], Color::Black);
        row(&mut e, 3, &[5], Color::White);
        assert!(is_five(&e, Pos::new(4, 3), Color::Black, Rule::Caro));
        assert!(is_five(&e, Pos::new(4, 3), Color::Black, Rule::CaroExact));
    }

    #[test]
    fn five_beats_foul() {
        // Black makes an exact five on row 7 and an overline-free double four elsewhere.
        let mut b = Board::square(15).unwrap();
        row(&mut b, 7, &[3, 4, 5, 6], Color::Black);
        b.place(Pos::new(7, 4), Color::Black);
        b.place(Pos::new(7, 5), Color::Black);
        b.place(Pos::new(7, 6), Color::Black);
        assert_eq!(
            judge(&b, Pos::new(7, 7), Color::Black, Rule::Renju),
            MoveOutcome::Win
        );
    }
}
