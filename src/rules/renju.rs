//! Renju forbidden points for black: overline, double-four and double-three, with the
//! recursive rule that a three only counts when it can become a straight four through a point
//! that is itself not forbidden.
//!
//! Written from the definitions in `../shared/docs/rules.md` section 3:
//! - a move that makes an exact five is never forbidden (five has priority);
//! - only lines through the move count; a four is a distinct set of four stones, including the
//!   move, that one more stone turns into an exact five; a straight four (`.XXXX.` with both
//!   completions exact) counts as one four; two fours on one line (`X.XXX.X`) count as two;
//! - a direction holding a four is not also a three;
//! - three: an empty point q on the line such that black at q makes a straight four containing
//!   the move, and q is not forbidden. Under the strict (Gomocup referee) reading a q that also
//!   makes a five on another line does not count; under the JRF reading it does.
//!
//! Every check here works on a scratch copy of the board and places and removes stones in
//! strict stack order, so the caller's board is never touched.

use super::board::{Board, Cell};
use crate::types::{Color, Pos, DIRECTIONS};

const BLACK: Cell = Cell::Stone(Color::Black);

/// The kind of a forbidden point, in the label priority overline > double-four > double-three.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Foul {
    /// Six or more in a row.
    Overline,
    /// Two or more fours made at once.
    DoubleFour,
    /// Two or more threes made at once.
    DoubleThree,
}

impl Foul {
    /// The short label used in test data and diagrams: `6`, `44` or `33`.
    pub fn label(self) -> &'static str {
        match self {
            Foul::Overline => "6",
            Foul::DoubleFour => "44",
            Foul::DoubleThree => "33",
        }
    }
}

/// How to judge a three whose straight-four point also makes a five elsewhere
/// (`../shared/docs/rules.md` section 3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ThreeReading {
    /// Gomocup referee and Rapfi: such a three does not count.
    #[default]
    Strict,
    /// Japanese Renju Federation: it counts.
    Jrf,
}

/// Whether black playing at the empty point `p` is forbidden, under the strict reading.
pub fn forbidden(board: &Board, p: Pos) -> Option<Foul> {
    forbidden_with(board, p, ThreeReading::Strict)
}

/// Whether black playing at the empty point `p` is forbidden, under the given reading.
pub fn forbidden_with(board: &Board, p: Pos, reading: ThreeReading) -> Option<Foul> {
    if !board.is_empty(p) || !could_be_forbidden(board, p) {
        return None;
    }
    let mut scratch = board.clone();
    check(&mut scratch, p, reading)
}

/// Every forbidden point of the board for black, row by row.
pub fn forbidden_points(board: &Board) -> Vec<(Pos, Foul)> {
    let mut scratch = board.clone();
    let points: Vec<Pos> = board.empty_points().collect();
    points
        .into_iter()
        .filter(|&p| could_be_forbidden(board, p))
        .filter_map(|p| check(&mut scratch, p, ThreeReading::Strict).map(|f| (p, f)))
        .collect()
}

/// A cheap necessary condition: a foul needs at least two black stones near `p` on its lines
/// (an overline needs five, a double-three four, a double-four six).
fn could_be_forbidden(board: &Board, p: Pos) -> bool {
    let mut near = 0;
    for d in DIRECTIONS {
        for k in 1..=4 {
            if board.cell(p.offset(d, k)) == BLACK {
                near += 1;
            }
            if board.cell(p.offset(d, -k)) == BLACK {
                near += 1;
            }
        }
    }
    near >= 4
}

/// The foul check proper, with `p` empty on `board`.
fn check(board: &mut Board, p: Pos, reading: ThreeReading) -> Option<Foul> {
    board.place(p, Color::Black);
    let result = check_placed(board, p, reading);
    board.undo().expect("the stone just placed");
    result
}

/// The foul check with black already standing on `p`.
fn check_placed(board: &mut Board, p: Pos, reading: ThreeReading) -> Option<Foul> {
    let runs = DIRECTIONS.map(|d| board.run_through(p, d, Color::Black).0);
    if runs.contains(&5) {
        return None;
    }
    if runs.iter().any(|&len| len >= 6) {
        return Some(Foul::Overline);
    }
    let fours = DIRECTIONS.map(|d| fours_in_direction(board, p, d));
    if fours.iter().sum::<usize>() >= 2 {
        return Some(Foul::DoubleFour);
    }
    let mut threes = 0;
    for (i, d) in DIRECTIONS.into_iter().enumerate() {
        if fours[i] == 0 && is_three(board, p, d, reading) {
            threes += 1;
            if threes >= 2 {
                return Some(Foul::DoubleThree);
            }
        }
    }
    None
}

/// Number of stones of black's unbroken run from `q` (exclusive) towards `dir`.
fn stones_from(board: &Board, q: Pos, dir: isize) -> isize {
    let mut n = 0;
    while board.cell(q.offset(dir, n + 1)) == BLACK {
        n += 1;
    }
    n
}

/// If black at the empty point `q` makes an exact five along `dir`, the offset (relative to
/// `q`, in steps of `dir`) of the run's first stone; the five spans `start..start + 5`.
fn exact_five_start(board: &Board, q: Pos, dir: isize) -> Option<isize> {
    let back = stones_from(board, q, -dir);
    let fwd = stones_from(board, q, dir);
    (back + fwd + 1 == 5).then_some(-back)
}

/// The number of distinct fours through the black stone at `p` along `dir`: completion points
/// whose exact five contains `p`, with the two ends of one straight four counted once.
fn fours_in_direction(board: &Board, p: Pos, dir: isize) -> usize {
    let mut completions = [false; 9];
    let mut count = 0;
    for k in -4..=4isize {
        let q = p.offset(dir, k);
        if k == 0 || !board.is_empty(q) {
            continue;
        }
        if let Some(start) = exact_five_start(board, q, dir) {
            // p lies at offset -k from q; it must be inside start..start+5.
            if (start..start + 5).contains(&-k) {
                completions[(k + 4) as usize] = true;
                count += 1;
            }
        }
    }
    // A straight four: completions at k and k + 5 share the same four stones.
    for k in 0..4 {
        if completions[k] && completions[k + 5] {
            count -= 1;
        }
    }
    count
}

/// True if black at `p` (already placed) has a three along `dir`: some empty q on the line
/// makes a straight four with `p`, and q is a valid move under the chosen reading.
fn is_three(board: &mut Board, p: Pos, dir: isize, reading: ThreeReading) -> bool {
    for k in -3..=3isize {
        let q = p.offset(dir, k);
        if k == 0 || !board.is_empty(q) {
            continue;
        }
        board.place(q, Color::Black);
        let straight = makes_straight_four(board, p, q, dir);
        let valid = straight && {
            let five_elsewhere = DIRECTIONS
                .iter()
                .any(|&d| board.run_through(q, d, Color::Black).0 == 5);
            match (five_elsewhere, reading) {
                (true, ThreeReading::Strict) => false,
                (true, ThreeReading::Jrf) => true,
                (false, _) => check_placed(board, q, reading).is_none(),
            }
        };
        board.undo().expect("the stone just placed");
        if valid {
            return true;
        }
    }
    false
}

/// True if, with black on `p` and `q`, some window `s+1..=s+4` along `dir` holds four black
/// stones including both, with `s` and `s+5` empty and each completing an exact five.
fn makes_straight_four(board: &Board, p: Pos, q: Pos, dir: isize) -> bool {
    // Offsets are relative to p; q sits at offset kq.
    let kq = (-3..=3)
        .find(|&k| p.offset(dir, k) == q)
        .expect("q lies on the line within 3 of p");
    let lo = kq.min(0);
    let hi = kq.max(0);
    // Four consecutive cells s+1..=s+4 must cover lo..=hi.
    for s in (hi - 4)..=(lo - 1) {
        let all_black = (s + 1..=s + 4).all(|k| board.cell(p.offset(dir, k)) == BLACK);
        if !all_black {
            continue;
        }
        let left = p.offset(dir, s);
        let right = p.offset(dir, s + 5);
        if board.is_empty(left)
            && board.is_empty(right)
            && board.cell(p.offset(dir, s - 1)) != BLACK
            && board.cell(p.offset(dir, s + 6)) != BLACK
        {
            return true;
        }
    }
    false
}
