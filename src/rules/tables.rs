//! Precomputed pattern tables: for every 20-bit line key, the [`LinePattern`] a black and a
//! white stone at the centre would make, and the combination table from four patterns to a
//! [`CellThreat`] byte.
//!
//! A line key here uses absolute codes: 0 empty, 1 black, 2 white, 3 wall (offsets -5..-1 in
//! bit pairs 0..4, +1..+5 in pairs 5..9, as [`pattern::encode`]). Only realizable keys (walls
//! grow inwards from the ends) are filled; every other key reads as `Dead`.
//!
//! Invariants: tables are built once per rule, lazily, from [`pattern::classify_with`] (the
//! definition), and never change afterwards; call [`init`] at engine start so that no search
//! pays for the build. An exhaustive test compares every realizable entry with an independent
//! classifier that works on a real [`crate::rules::Board`].

use super::pattern::{self, CellThreat, LinePattern, WinKind, EMPTY, OPP, OWN, WALL};
use crate::types::{Color, Rule};
use std::sync::LazyLock;

/// Number of line keys (2^20).
pub const KEYS: usize = 1 << 20;

/// The per-rule line table: `[black, white]` pattern per absolute key.
pub struct PatternTable {
    /// Black's pattern in the low nibble, white's in the high nibble (1 MB per rule).
    entries: Box<[u8; KEYS]>,
    /// Per colour, the threat byte per combination key, padded with zeros to
    /// [`COMBINE_SLOTS`] so that a masked index needs no bounds check.
    combine: [Box<[u8; COMBINE_SLOTS]>; 2],
}

/// The code of colour index `color` (0 black, 1 white) in a line entry: black's code sits
/// in the low nibble, white's in the high one (the layout of [`PatternTable::get_byte`] and
/// of the evaluation's shape table).
#[inline]
pub const fn of_color(entry: u8, color: usize) -> u8 {
    (entry >> (4 * (color & 1))) & 15
}

/// `entry` with colour index `color`'s code replaced by `code` (the inverse of
/// [`of_color`]).
#[inline]
pub const fn with_color(entry: u8, color: usize, code: u8) -> u8 {
    let shift = 4 * (color & 1);
    (entry & !(15 << shift)) | ((code & 15) << shift)
}

impl PatternTable {
    /// The patterns `[black, white]` for an absolute key.
    #[inline]
    pub fn get(&self, key: u32) -> [u8; 2] {
        let e = self.entries[key as usize & (KEYS - 1)];
        [of_color(e, 0), of_color(e, 1)]
    }

    /// The raw entry of an absolute key: black's pattern code in the low nibble, white's in
    /// the high nibble.
    #[inline]
    pub fn get_byte(&self, key: u32) -> u8 {
        self.entries[key as usize & (KEYS - 1)]
    }

    /// The pattern a stone of `color` makes for an absolute key.
    #[inline]
    pub fn pattern(&self, key: u32, color: Color) -> LinePattern {
        LinePattern::from_u8(self.get(key)[color.index()])
    }

    /// The threat byte (a [`CellThreat`] plus flag bits) of `color` for the four pattern
    /// codes of a cell (see [`combine_key`]).
    #[inline]
    pub fn combine(&self, pats: [u8; 4], color: Color) -> u8 {
        self.combine_keyed(combine_key(pats), color.index())
    }

    /// [`PatternTable::combine`] from the combination key (see [`combine_key`]) and the
    /// colour index (0 black, 1 white).
    #[inline]
    pub fn combine_keyed(&self, key: usize, color: usize) -> u8 {
        self.combine[color & 1][key & (COMBINE_SLOTS - 1)]
    }

    fn build(rule: Rule) -> PatternTable {
        let kinds = [
            WinKind::of(rule, Color::Black),
            WinKind::of(rule, Color::White),
        ];
        let black = RelativeTable::build(kinds[0]);
        let white = if kinds[1] == kinds[0] {
            None
        } else {
            Some(RelativeTable::build(kinds[1]))
        };
        let white_ref = white.as_ref().unwrap_or(&black);
        let mut entries: Box<[u8; KEYS]> = vec![0u8; KEYS]
            .into_boxed_slice()
            .try_into()
            .expect("KEYS entries");
        for_each_realizable(|key| {
            entries[key as usize] = black.get(key) | white_ref.get(swap_colors(key)) << 4;
        });
        let renju = rule.has_fouls(Color::Black);
        let combine = [renju, false].map(|renju_black| {
            (0..COMBINE_SLOTS)
                .map(|key| {
                    if key >= COMBINE_KEYS {
                        return 0;
                    }
                    let pats =
                        [1, 12, 144, 1728].map(|d| LinePattern::from_u8((key / d % 12) as u8));
                    pattern::combine(pats, renju_black)
                })
                .collect::<Vec<u8>>()
                .into_boxed_slice()
                .try_into()
                .expect("COMBINE_SLOTS entries")
        });
        PatternTable { entries, combine }
    }
}

/// Number of combination keys: four patterns of 12 values each.
pub const COMBINE_KEYS: usize = 12 * 12 * 12 * 12;

/// Size of the padded combination tables: a power of two above every key of four codes
/// of up to 15 (`15 * (1 + 12 + 144 + 1728)`), so masking a key never changes it.
pub const COMBINE_SLOTS: usize = 1 << 15;

/// The weight of direction `d`'s pattern in a combination key.
pub const COMBINE_WEIGHTS: [usize; 4] = [1, 12, 144, 1728];

/// The combination key of four pattern codes (base 12, direction 0 lowest).
#[inline]
pub fn combine_key(pats: [u8; 4]) -> usize {
    pats[0] as usize + 12 * pats[1] as usize + 144 * pats[2] as usize + 1728 * pats[3] as usize
}

/// The four pattern codes of a combination key (the inverse of [`combine_key`]).
#[inline]
pub fn combo_patterns(key: usize) -> [u8; 4] {
    [key % 12, key / 12 % 12, key / 144 % 12, key / 1728 % 12].map(|v| v as u8)
}

/// Swaps black and white codes in an absolute key (empty and wall stay).
#[inline]
pub fn swap_colors(key: u32) -> u32 {
    let differ = (key ^ (key >> 1)) & 0x55555;
    key ^ (differ | (differ << 1))
}

/// Calls `f` on every realizable key: `wl` walls at the left end, `wr` at the right end, and
/// every empty/own/opponent assignment of the cells between.
pub fn for_each_realizable(mut f: impl FnMut(u32)) {
    for wl in 0..=5usize {
        for wr in 0..=5usize {
            let free = 10 - wl - wr;
            let combos = 3usize.pow(free as u32);
            for mut n in 0..combos {
                let mut line = [EMPTY; 11];
                let cells = (0..11).filter(|&i| i != pattern::CENTER);
                for (slot, i) in cells.enumerate() {
                    line[i] = if slot < wl || slot >= 10 - wr {
                        WALL
                    } else {
                        let c = (n % 3) as u8;
                        n /= 3;
                        c
                    };
                }
                f(pattern::encode(&line));
            }
        }
    }
}

/// Patterns for the "own = code 1" view of a key, memoised over the recursion.
struct RelativeTable {
    memo: Vec<u8>,
}

const UNKNOWN: u8 = 0xff;

impl RelativeTable {
    fn build(kind: WinKind) -> RelativeTable {
        let mut t = RelativeTable {
            memo: vec![UNKNOWN; KEYS],
        };
        for_each_realizable(|key| {
            t.classify(key, kind);
        });
        t
    }

    fn get(&self, key: u32) -> u8 {
        let v = self.memo[key as usize];
        if v == UNKNOWN {
            LinePattern::Dead as u8
        } else {
            v
        }
    }

    fn classify(&mut self, key: u32, kind: WinKind) -> LinePattern {
        let v = self.memo[key as usize];
        if v != UNKNOWN {
            return LinePattern::from_u8(v);
        }
        let line = pattern::decode(key);
        let p = pattern::classify_with(&line, kind, &mut |next| {
            self.classify(pattern::encode(next), kind)
        });
        self.memo[key as usize] = p as u8;
        p
    }
}

static FREESTYLE: LazyLock<PatternTable> = LazyLock::new(|| PatternTable::build(Rule::Freestyle));
static STANDARD: LazyLock<PatternTable> = LazyLock::new(|| PatternTable::build(Rule::Standard));
static RENJU: LazyLock<PatternTable> = LazyLock::new(|| PatternTable::build(Rule::Renju));
static CARO: LazyLock<PatternTable> = LazyLock::new(|| PatternTable::build(Rule::Caro));
static CARO_EXACT: LazyLock<PatternTable> = LazyLock::new(|| PatternTable::build(Rule::CaroExact));

/// The table for `rule` (built on first use).
#[inline]
pub fn table(rule: Rule) -> &'static PatternTable {
    match rule {
        Rule::Freestyle => &FREESTYLE,
        Rule::Standard => &STANDARD,
        Rule::Renju => &RENJU,
        Rule::Caro => &CARO,
        Rule::CaroExact => &CARO_EXACT,
    }
}

/// Builds the table of `rule` now if it is not built yet.
pub fn init(rule: Rule) {
    LazyLock::force(match rule {
        Rule::Freestyle => &FREESTYLE,
        Rule::Standard => &STANDARD,
        Rule::Renju => &RENJU,
        Rule::Caro => &CARO,
        Rule::CaroExact => &CARO_EXACT,
    });
}

/// The code of `color` in an absolute key.
#[inline]
pub const fn color_code(color: Color) -> u32 {
    match color {
        Color::Black => OWN as u32,
        Color::White => OPP as u32,
    }
}

/// Guard: the combination key holds 12 pattern values, the threat byte 31 classes.
const _: () = assert!(LinePattern::Five as usize == 11 && CellThreat::COUNT <= 31);
/// Guard: every key of four nibble-sized codes fits the padded combination table.
const _: () = assert!(15 * (1 + 12 + 144 + 1728) < COMBINE_SLOTS && COMBINE_KEYS <= COMBINE_SLOTS);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap_is_an_involution() {
        for key in [0u32, 0x12345, 0xfffff, 0x5a5a5] {
            assert_eq!(swap_colors(swap_colors(key)), key);
        }
        assert_eq!(swap_colors(0b01), 0b10);
        assert_eq!(swap_colors(0b11), 0b11);
    }

    #[test]
    fn realizable_count() {
        let mut n = 0;
        for_each_realizable(|k| {
            assert!(pattern::is_realizable(&pattern::decode(k)));
            n += 1;
        });
        let expected: usize = (0..=5)
            .flat_map(|l| (0..=5).map(move |r| 3usize.pow(10 - l - r)))
            .sum();
        assert_eq!(n, expected);
    }
}
