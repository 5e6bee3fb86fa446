//! Line patterns and cell threats: the vocabulary of the evaluation.
//!
//! Glossary (one side's view of one empty cell, "if I played here"):
//! - A *line* is the 11 cells centred on the cell along one direction: 5 before, the cell, 5
//!   after. Eleven cells are enough to see every five through the cell and to tell a five from
//!   an overline under exact-five rules.
//! - [`LinePattern`] is what a stone at the centre makes along one line: `Five` wins;
//!   `Flex4` (live four) has two winning points that use the same four stones (`.XXXX.`);
//!   `DoubleFour` has two winning points using different stones (`X.XXX.X`), a foul for black
//!   under renju; `Block4` (dead four) has one winning point; `Flex3` (live three, connected or
//!   split) can become a `Flex4`/`DoubleFour` in one more move; `Block3` can become a `Block4`;
//!   `Flex2`/`Block2` can become `Flex3`/`Block3`; `Flex1`/`Block1` likewise one level lower;
//!   `Overline` is a run of six or more that does not win (exact-five rules); `Dead` is nothing.
//!   Every winning point counted must make a five that contains the centre stone.
//! - [`CellThreat`] combines the four lines of a cell (e.g. `Block4Flex3` is a four-three,
//!   `Flex3x2` a double three). `Forbidden` marks a renju foul for black that the patterns
//!   alone prove (overline, double four); a double three needs the exact check of
//!   [`crate::rules::forbidden`] and is flagged with [`MAYBE_FOUL`] instead.
//!
//! Invariants: both enums are ordered by strength, so comparisons are plain `>=`; the
//! classifier here is the definition, and the tables in [`super::tables`] are built from it.

use crate::types::{Color, Rule};

/// What a stone at a cell makes along one line, ordered by strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum LinePattern {
    /// Nothing that can become a five in this line.
    Dead = 0,
    /// Six or more in a row that does not win.
    Overline,
    /// Can become a `Block2` in one move.
    Block1,
    /// Can become a `Flex2` in one move.
    Flex1,
    /// Can become a `Block3` in one move (dead two).
    Block2,
    /// Can become a `Flex3` in one move (live two).
    Flex2,
    /// Can become a `Block4` in one move (dead three).
    Block3,
    /// Can become a `Flex4` in one move (live three).
    Flex3,
    /// Exactly one winning point (dead four).
    Block4,
    /// Two winning points with the same four stones (live four).
    Flex4,
    /// Two fours on this one line (`X.XXX.X`).
    DoubleFour,
    /// A winning line.
    Five,
}

impl LinePattern {
    /// The pattern of a line one stone short of `self`: what a line is when its best next
    /// stone makes `self` (a `Flex4` one stone short is a `Flex3`, and so on). A single-line
    /// double four is a foul for renju black, so one stone short of it is no three there.
    pub fn one_stone_less(self, renju_black: bool) -> LinePattern {
        match self {
            LinePattern::Flex4 => LinePattern::Flex3,
            LinePattern::DoubleFour if !renju_black => LinePattern::Flex3,
            LinePattern::Block4 => LinePattern::Block3,
            LinePattern::Flex3 => LinePattern::Flex2,
            LinePattern::Block3 => LinePattern::Block2,
            LinePattern::Flex2 => LinePattern::Flex1,
            LinePattern::Block2 => LinePattern::Block1,
            _ => LinePattern::Dead,
        }
    }

    /// Every pattern in order; `ALL[p as usize] == p`.
    pub const ALL: [LinePattern; 12] = [
        LinePattern::Dead,
        LinePattern::Overline,
        LinePattern::Block1,
        LinePattern::Flex1,
        LinePattern::Block2,
        LinePattern::Flex2,
        LinePattern::Block3,
        LinePattern::Flex3,
        LinePattern::Block4,
        LinePattern::Flex4,
        LinePattern::DoubleFour,
        LinePattern::Five,
    ];

    /// The pattern with the given discriminant (values above 11 map to `Dead`).
    #[inline]
    pub fn from_u8(v: u8) -> LinePattern {
        *LinePattern::ALL
            .get(v as usize)
            .unwrap_or(&LinePattern::Dead)
    }

    /// True for `Block4`, `Flex4` and `DoubleFour`.
    #[inline]
    pub fn is_four(self) -> bool {
        matches!(
            self,
            LinePattern::Block4 | LinePattern::Flex4 | LinePattern::DoubleFour
        )
    }
}

/// The four lines of a cell combined, one side's view, ordered by strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum CellThreat {
    /// Nothing above a single two.
    None = 0,
    /// Renju, black: a proven foul (overline or double four without a five).
    Forbidden,
    /// One live two.
    Flex2,
    /// One dead three.
    Block3,
    /// Two or more live twos.
    Flex2x2,
    /// A dead three plus another two or three.
    Block3Plus,
    /// One live three.
    Flex3,
    /// A live three plus a two or dead three.
    Flex3Plus,
    /// Two or more live threes (a double three).
    Flex3x2,
    /// One dead four.
    Block4,
    /// A dead four plus a two or dead three.
    Block4Plus,
    /// A dead four plus a live three (four-three).
    Block4Flex3,
    /// Fours in two or more lines (double four).
    Block4x2,
    /// A live four or two fours on one line.
    Flex4,
    /// A five.
    Five,
}

impl CellThreat {
    /// Number of variants.
    pub const COUNT: usize = 15;

    /// Every threat in order; `ALL[t as usize] == t`.
    pub const ALL: [CellThreat; 15] = [
        CellThreat::None,
        CellThreat::Forbidden,
        CellThreat::Flex2,
        CellThreat::Block3,
        CellThreat::Flex2x2,
        CellThreat::Block3Plus,
        CellThreat::Flex3,
        CellThreat::Flex3Plus,
        CellThreat::Flex3x2,
        CellThreat::Block4,
        CellThreat::Block4Plus,
        CellThreat::Block4Flex3,
        CellThreat::Block4x2,
        CellThreat::Flex4,
        CellThreat::Five,
    ];

    /// The threat with the given discriminant (flag bits masked off).
    #[inline]
    pub fn from_u8(v: u8) -> CellThreat {
        // Indexed by the masked byte, so neither a bound check nor a division is needed;
        // codes above the last class (never stored) read as `None`.
        const BY_CODE: [CellThreat; THREAT_MASK as usize + 1] = {
            let mut t = [CellThreat::None; THREAT_MASK as usize + 1];
            let mut i = 0;
            while i < CellThreat::COUNT {
                t[i] = CellThreat::ALL[i];
                i += 1;
            }
            t
        };
        BY_CODE[usize::from(v & THREAT_MASK)]
    }

    /// True if playing here makes a four or better (a move the opponent must answer).
    #[inline]
    pub fn is_four_or_better(self) -> bool {
        self >= CellThreat::Block4
    }

    /// True if playing here wins by force without regard to the opponent's fours: a five, a
    /// live four or a double four.
    #[inline]
    pub fn is_winning(self) -> bool {
        self >= CellThreat::Block4x2
    }
}

/// Bit set in a combined threat byte when the cell may be a renju double-three foul for black
/// (the patterns show two live threes); confirm with [`crate::rules::forbidden`].
pub const MAYBE_FOUL: u8 = 0x80;
/// Mask of the [`CellThreat`] part of a combined threat byte.
pub const THREAT_MASK: u8 = 0x1f;

/// How a line wins: the predicate on the run through the move and its two end cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinKind {
    /// Five or more.
    Freestyle,
    /// Exactly five.
    Exact,
    /// Exactly five, and a line that would hold two fours counts as a foul, not a threat
    /// (renju black).
    RenjuBlack,
    /// Six or more, or five not blocked at both ends by the opponent (rule 8).
    Caro,
    /// Exactly five not blocked at both ends (rule 9).
    CaroExact,
}

impl WinKind {
    /// The win predicate for `color` under `rule`.
    pub fn of(rule: Rule, color: Color) -> WinKind {
        match (rule, color) {
            (Rule::Freestyle, _) | (Rule::Renju, Color::White) => WinKind::Freestyle,
            (Rule::Standard, _) => WinKind::Exact,
            (Rule::Renju, Color::Black) => WinKind::RenjuBlack,
            (Rule::Caro, _) => WinKind::Caro,
            (Rule::CaroExact, _) => WinKind::CaroExact,
        }
    }

    /// True if a five-or-longer run wins: `len` stones, with `blocked_both` when opponent
    /// stones close both ends.
    #[inline]
    pub fn wins(self, len: usize, blocked_both: bool) -> bool {
        match self {
            WinKind::Freestyle => len >= 5,
            WinKind::Exact | WinKind::RenjuBlack => len == 5,
            WinKind::Caro => len > 5 || (len == 5 && !blocked_both),
            WinKind::CaroExact => len == 5 && !blocked_both,
        }
    }

    /// True if a run of six or more is a dead overline rather than a win.
    #[inline]
    pub fn overline_loses(self) -> bool {
        matches!(
            self,
            WinKind::Exact | WinKind::RenjuBlack | WinKind::CaroExact
        )
    }
}

/// Relative cell code in a line: empty.
pub const EMPTY: u8 = 0;
/// Relative cell code in a line: a stone of the side being classified.
pub const OWN: u8 = 1;
/// Relative cell code in a line: an opponent stone.
pub const OPP: u8 = 2;
/// Relative cell code in a line: off the board.
pub const WALL: u8 = 3;

/// Index of the centre cell in a [`Line`].
pub const CENTER: usize = 5;

/// Eleven relative cell codes, the centre at index [`CENTER`] (its own code is ignored: the
/// classifier treats it as [`OWN`]).
pub type Line = [u8; 11];

/// The 20-bit key of a line: offsets -5..-1 in bit pairs 0..4, +1..+5 in pairs 5..9.
#[inline]
pub fn encode(line: &Line) -> u32 {
    let mut key = 0u32;
    let mut slot = 0;
    for (i, &c) in line.iter().enumerate() {
        if i != CENTER {
            key |= u32::from(c) << (2 * slot);
            slot += 1;
        }
    }
    key
}

/// The line of a 20-bit key (centre set to [`OWN`]).
#[inline]
pub fn decode(key: u32) -> Line {
    let mut line = [OWN; 11];
    let mut slot = 0;
    for (i, c) in line.iter_mut().enumerate() {
        if i != CENTER {
            *c = ((key >> (2 * slot)) & 3) as u8;
            slot += 1;
        }
    }
    line
}

/// The bit shift of the cell `offset` steps from the centre (offset in -5..=5, not 0).
#[inline]
pub const fn shift_of(offset: isize) -> u32 {
    let slot = if offset < 0 { offset + 5 } else { offset + 4 };
    2 * slot as u32
}

/// True if walls in the line only extend outwards from the first wall on each side (every
/// line read from a real board has this shape).
pub fn is_realizable(line: &Line) -> bool {
    let left_ok = (0..CENTER).all(|i| line[i] != WALL || (0..i).all(|j| line[j] == WALL));
    let right_ok =
        (CENTER + 1..11).all(|i| line[i] != WALL || (i + 1..11).all(|j| line[j] == WALL));
    left_ok && right_ok
}

/// The run of own stones through `i` (counting `i`): its length and whether opponent stones
/// close both ends (a wall is no block).
fn run(line: &Line, i: usize) -> (usize, bool) {
    let mut lo = i;
    while lo > 0 && line[lo - 1] == OWN {
        lo -= 1;
    }
    let mut hi = i;
    while hi < 10 && line[hi + 1] == OWN {
        hi += 1;
    }
    let before = if lo > 0 { line[lo - 1] } else { EMPTY };
    let after = if hi < 10 { line[hi + 1] } else { EMPTY };
    (hi - lo + 1, before == OPP && after == OPP)
}

/// Number of empty cells that make a five containing the centre.
fn win_points(line: &mut Line, kind: WinKind) -> usize {
    let mut n = 0;
    for q in 1..10 {
        if q == CENTER || line[q] != EMPTY {
            continue;
        }
        line[q] = OWN;
        let (len, blocked) = run(line, CENTER);
        line[q] = EMPTY;
        n += usize::from(kind.wins(len, blocked));
    }
    n
}

/// Classifies the centre of `line` under `kind`. `deeper` classifies a line with one more own
/// stone (the recursion; the table builder memoises it, the reference calls itself).
pub fn classify_with(
    line: &Line,
    kind: WinKind,
    deeper: &mut dyn FnMut(&Line) -> LinePattern,
) -> LinePattern {
    let mut line = *line;
    line[CENTER] = OWN;
    let (len, blocked) = run(&line, CENTER);
    if kind.wins(len, blocked) {
        return LinePattern::Five;
    }
    if len >= 6 && kind.overline_loses() {
        return LinePattern::Overline;
    }
    // Winning points: empty cells that make a five containing the centre.
    let mut wins = [0usize; 2];
    let mut n_wins = 0;
    for q in 1..10 {
        if q == CENTER || line[q] != EMPTY {
            continue;
        }
        line[q] = OWN;
        let (len, blocked) = run(&line, CENTER);
        line[q] = EMPTY;
        if kind.wins(len, blocked) {
            if n_wins < 2 {
                wins[n_wins] = q;
            }
            n_wins += 1;
        }
    }
    if n_wins >= 2 {
        // Two winning points only count as such if no single block at one of them kills
        // the other (it can under caro, where a block closes the other five's end).
        let robust = (1..10).all(|w| {
            if line[w] != EMPTY {
                return true;
            }
            line[w] = OWN;
            let (len, blocked) = run(&line, CENTER);
            let is_win = kind.wins(len, blocked);
            line[w] = OPP;
            let survives = !is_win || win_points(&mut line, kind) > 0;
            line[w] = EMPTY;
            survives
        });
        if !robust {
            return LinePattern::Block4;
        }
        return if n_wins == 2 && wins[1] - wins[0] == 5 {
            LinePattern::Flex4
        } else {
            LinePattern::DoubleFour
        };
    }
    if n_wins == 1 {
        return LinePattern::Block4;
    }
    // One level lower: the best pattern one more own stone can make.
    let mut best = LinePattern::Dead;
    for q in 1..10 {
        if q == CENTER || line[q] != EMPTY {
            continue;
        }
        line[q] = OWN;
        let next = deeper(&line);
        line[q] = EMPTY;
        best = best.max(next.one_stone_less(kind == WinKind::RenjuBlack));
    }
    best
}

/// Combines the four line patterns of a cell into its threat byte (a [`CellThreat`], plus
/// [`MAYBE_FOUL`] when `renju_black` and a double three might be a foul).
pub fn combine(patterns: [LinePattern; 4], renju_black: bool) -> u8 {
    let mut n = [0u8; 12];
    for p in patterns {
        n[p as usize] += 1;
    }
    let count = |p: LinePattern| n[p as usize];
    if count(LinePattern::Five) > 0 {
        return CellThreat::Five as u8;
    }
    let flex4 = count(LinePattern::Flex4);
    let double4 = count(LinePattern::DoubleFour);
    let block4 = count(LinePattern::Block4);
    let flex3 = count(LinePattern::Flex3);
    let block3 = count(LinePattern::Block3);
    let flex2 = count(LinePattern::Flex2);
    if renju_black {
        let fours = flex4 + block4 + 2 * double4;
        if count(LinePattern::Overline) > 0 || fours >= 2 {
            return CellThreat::Forbidden as u8;
        }
    }
    let flag = if renju_black && flex3 >= 2 {
        MAYBE_FOUL
    } else {
        0
    };
    let threat = if flex4 + double4 > 0 {
        CellThreat::Flex4
    } else if block4 >= 2 {
        CellThreat::Block4x2
    } else if block4 == 1 {
        if flex3 > 0 {
            CellThreat::Block4Flex3
        } else if block3 + flex2 > 0 {
            CellThreat::Block4Plus
        } else {
            CellThreat::Block4
        }
    } else if flex3 >= 2 {
        CellThreat::Flex3x2
    } else if flex3 == 1 {
        if block3 + flex2 > 0 {
            CellThreat::Flex3Plus
        } else {
            CellThreat::Flex3
        }
    } else if block3 > 0 {
        if block3 >= 2 || flex2 > 0 {
            CellThreat::Block3Plus
        } else {
            CellThreat::Block3
        }
    } else if flex2 >= 2 {
        CellThreat::Flex2x2
    } else if flex2 == 1 {
        CellThreat::Flex2
    } else {
        CellThreat::None
    };
    threat as u8 | flag
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> Line {
        assert_eq!(s.len(), 11);
        let mut l = [EMPTY; 11];
        for (i, ch) in s.chars().enumerate() {
            l[i] = match ch {
                'x' | 'X' | '*' => OWN,
                'o' => OPP,
                '#' => WALL,
                _ => EMPTY,
            };
        }
        l
    }

    fn slow(l: &Line, kind: WinKind) -> LinePattern {
        classify_with(l, kind, &mut |n| slow(n, kind))
    }

    #[test]
    fn named_shapes() {
        let k = WinKind::Freestyle;
        assert_eq!(slow(&line("...xx*xx..."), k), LinePattern::Five);
        assert_eq!(slow(&line("....x*xx..."), k), LinePattern::Flex4);
        assert_eq!(slow(&line("...ox*xx..."), k), LinePattern::Block4);
        assert_eq!(slow(&line("..x.x*x.x.."), k), LinePattern::DoubleFour);
        assert_eq!(slow(&line(".....*xx..."), k), LinePattern::Flex3);
        assert_eq!(slow(&line("....x*.x..."), k), LinePattern::Flex3);
        assert_eq!(slow(&line("....o*xx..."), k), LinePattern::Block3);
        assert_eq!(slow(&line(".....*x...."), k), LinePattern::Flex2);
        assert_eq!(slow(&line(".....*....."), k), LinePattern::Flex1);
        assert_eq!(slow(&line("##o..*.o..."), k), LinePattern::Dead);
        let e = WinKind::Exact;
        assert_eq!(slow(&line("..xxx*xx..."), e), LinePattern::Overline);
        assert_eq!(slow(&line("..xxx*xx..."), k), LinePattern::Five);
        // `x.xx*.` with a stone beyond: the gap makes six, so only one side is a win point.
        assert_eq!(slow(&line("...xx*x.x.."), e), LinePattern::Block4);
        assert_eq!(
            slow(&line("..x.x*x.x.."), WinKind::RenjuBlack),
            LinePattern::DoubleFour
        );
        assert_eq!(
            slow(&line("..x.x*..x.."), WinKind::RenjuBlack),
            LinePattern::Flex3
        );
        // Caro: a five closed at both ends by the opponent does not win.
        assert_eq!(slow(&line("..oxx*xxo.."), WinKind::Caro), LinePattern::Dead);
        assert_eq!(slow(&line("#####*xxxxo"), WinKind::Caro), LinePattern::Five);
    }

    #[test]
    fn combine_orders_threats() {
        use LinePattern as L;
        let c = |p: [L; 4], rb| CellThreat::from_u8(combine(p, rb));
        assert_eq!(
            c([L::Block4, L::Flex3, L::Dead, L::Dead], false),
            CellThreat::Block4Flex3
        );
        assert_eq!(
            c([L::Block4, L::Block4, L::Dead, L::Dead], false),
            CellThreat::Block4x2
        );
        assert_eq!(
            c([L::Block4, L::Block4, L::Dead, L::Dead], true),
            CellThreat::Forbidden
        );
        assert_eq!(
            c([L::DoubleFour, L::Dead, L::Dead, L::Dead], true),
            CellThreat::Forbidden
        );
        assert_eq!(
            c([L::Overline, L::Five, L::Dead, L::Dead], true),
            CellThreat::Five
        );
        assert_eq!(
            combine([L::Flex3, L::Flex3, L::Dead, L::Dead], true) & MAYBE_FOUL,
            MAYBE_FOUL
        );
        assert_eq!(
            c([L::Flex2, L::Flex2, L::Dead, L::Dead], false),
            CellThreat::Flex2x2
        );
        assert_eq!(
            c([L::Flex1, L::Block2, L::Dead, L::Dead], false),
            CellThreat::None
        );
    }

    #[test]
    fn key_round_trip() {
        for key in [0u32, 1, 0xfffff, 0x12345, 0xabcde] {
            assert_eq!(encode(&decode(key)), key);
        }
        assert_eq!(shift_of(-5), 0);
        assert_eq!(shift_of(-1), 8);
        assert_eq!(shift_of(1), 10);
        assert_eq!(shift_of(5), 18);
    }
}
