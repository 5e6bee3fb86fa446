//! Shapes: the evaluation's finer line patterns.
//!
//! A [`LinePattern`] says what a stone makes along one line. A *shape* says the same and also
//! tells live twos apart by how many points of the line make them a live three, and live
//! threes by how many points make them a live four: a connected live three (`..XXX..`) has two
//! such points, a split one (`.X.XX.`) one. Only the evaluation reads shapes (its tables are
//! indexed by shape combinations); threats, move generation and the proofs read line
//! patterns, and a shape maps back to its pattern with [`base`].
//!
//! Codes: 0 to 11 are the [`LinePattern`] codes; [`FLEX2_TWO_WAYS`] and [`FLEX2_MANY_WAYS`]
//! are live twos with two and with three or more ways to a live three (a plain `Flex2` has
//! one); [`FLEX3_TWO_FOURS`] is a live three with two or more live-four points (a plain
//! `Flex3` has one).
//!
//! Invariants: for every line key and colour, the base of the shape is the rule's pattern
//! ([`crate::rules::tables`]), so the threat classes a shape combination gives are the
//! pattern combination's; the tables are built once per rule, lazily, and never change.

use crate::rules::pattern::{shift_of, LinePattern, WALL};
use crate::rules::tables::{self, KEYS};
use crate::types::{Color, Rule};
use std::sync::LazyLock;

/// Number of shape codes.
pub const SHAPES: usize = 15;
/// A live two with two ways to a live three.
pub const FLEX2_TWO_WAYS: u8 = 12;
/// A live two with three or more ways to a live three.
pub const FLEX2_MANY_WAYS: u8 = 13;
/// A live three with two or more live-four points.
pub const FLEX3_TWO_FOURS: u8 = 14;

/// Number of shape combination keys: four shapes of [`SHAPES`] codes each.
pub const SHAPE_KEYS: usize = SHAPES * SHAPES * SHAPES * SHAPES;
/// Size of the padded per-key tables: a power of two above every key, so a masked index
/// never changes a key.
pub const SHAPE_SLOTS: usize = 1 << 16;
/// The weight of direction `d`'s shape in a combination key.
pub const SHAPE_WEIGHTS: [usize; 4] = [1, SHAPES, SHAPES * SHAPES, SHAPES * SHAPES * SHAPES];

/// Guard: every key fits the padded tables and a `u16`.
const _: () = assert!(SHAPE_KEYS <= SHAPE_SLOTS && SHAPE_SLOTS <= 1 << 16);

/// The line pattern code of the shape code `shape`.
#[inline]
pub const fn base(shape: u8) -> u8 {
    match shape {
        FLEX2_TWO_WAYS | FLEX2_MANY_WAYS => LinePattern::Flex2 as u8,
        FLEX3_TWO_FOURS => LinePattern::Flex3 as u8,
        s => s,
    }
}

/// The shape of colour index `color` (0 black, 1 white) in a line entry of
/// [`ShapeTable::get_byte`]: the rules' nibble layout.
pub use crate::rules::tables::of_color;

/// The combination key of four shape codes (base [`SHAPES`], direction 0 lowest).
#[inline]
pub fn shape_key(shapes: [u8; 4]) -> usize {
    shapes
        .iter()
        .zip(SHAPE_WEIGHTS)
        .map(|(&s, w)| usize::from(s) * w)
        .sum()
}

/// The four shape codes of a combination key (the inverse of [`shape_key`]).
#[inline]
pub fn key_shapes(key: usize) -> [u8; 4] {
    SHAPE_WEIGHTS.map(|w| (key / w % SHAPES) as u8)
}

/// The line pattern combination key ([`tables::combine_key`]) of a shape combination key.
#[inline]
pub fn pattern_key(key: usize) -> usize {
    tables::combine_key(key_shapes(key).map(base))
}

/// The per-rule shape table: the shape of each colour per line key, and the threat byte per
/// shape combination.
pub struct ShapeTable {
    /// Black's shape in the low nibble, white's in the high nibble, per line index (the
    /// key's bits that the rule reads, see [`ShapeTable::get_byte`]).
    entries: Box<[u8; KEYS]>,
    /// The line index is `(key >> shift) & mask`: every bit of the key, or under freestyle
    /// the 16 bits of offsets -4..4 (a freestyle stone's pattern depends on no cell five
    /// away), so that the table the search reads is 64 KB and stays in cache.
    shift: u32,
    mask: u32,
    /// Per colour, the threat byte of every shape combination key, padded with zeros.
    combine: [Box<[u8; SHAPE_SLOTS]>; 2],
}

impl ShapeTable {
    /// The raw entry of an absolute line key: black's shape in the low nibble, white's in
    /// the high nibble.
    #[inline]
    pub fn get_byte(&self, key: u32) -> u8 {
        self.entries[((key >> self.shift) & self.mask) as usize & (KEYS - 1)]
    }

    /// The threat byte (a [`crate::rules::pattern::CellThreat`] plus flag bits) of colour
    /// index `color` for a shape combination key: that of its line patterns.
    #[inline]
    pub fn combine_keyed(&self, key: usize, color: usize) -> u8 {
        self.combine[color & 1][key & (SHAPE_SLOTS - 1)]
    }

    fn build(rule: Rule) -> ShapeTable {
        let patterns = tables::table(rule);
        let mut entries: Box<[u8; KEYS]> = vec![0u8; KEYS]
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("KEYS entries"));
        let (shift, mask) = if rule == Rule::Freestyle {
            (shift_of(-4), (1 << 16) - 1)
        } else {
            (0, KEYS as u32 - 1)
        };
        for index in 0..=mask {
            let key = if shift == 0 { index } else { widen(index) };
            let entry = patterns.get_byte(key);
            let mut out = entry;
            for c in 0..2 {
                let pattern = of_color(entry, c);
                let grown = |target: LinePattern| {
                    let own = tables::color_code([Color::Black, Color::White][c]);
                    (0..10)
                        .filter(|i| (key >> (2 * i)) & 3 == 0)
                        .filter(|i| {
                            let next = key | (own << (2 * i));
                            of_color(patterns.get_byte(next), c) == target as u8
                        })
                        .count()
                };
                let shape = if pattern == LinePattern::Flex2 as u8 {
                    match grown(LinePattern::Flex3) {
                        0 | 1 => pattern,
                        2 => FLEX2_TWO_WAYS,
                        _ => FLEX2_MANY_WAYS,
                    }
                } else if pattern == LinePattern::Flex3 as u8 && grown(LinePattern::Flex4) >= 2 {
                    FLEX3_TWO_FOURS
                } else {
                    pattern
                };
                out = tables::with_color(out, c, shape);
            }
            entries[index as usize] = out;
        }
        let combine = [0, 1].map(|c| {
            (0..SHAPE_SLOTS)
                .map(|key| {
                    if key < SHAPE_KEYS {
                        patterns.combine_keyed(pattern_key(key), c)
                    } else {
                        0
                    }
                })
                .collect::<Vec<u8>>()
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("SHAPE_SLOTS entries"))
        });
        ShapeTable {
            entries,
            shift,
            mask,
            combine,
        }
    }
}

/// The realizable 20-bit key of a freestyle line index (offsets -4..4): the cells five away
/// empty, or walls where the line already ends at four.
fn widen(index: u32) -> u32 {
    let mut key = index << shift_of(-4);
    for (near, far) in [(-4, -5), (4, 5)] {
        if (key >> shift_of(near)) & 3 == u32::from(WALL) {
            key |= u32::from(WALL) << shift_of(far);
        }
    }
    key
}

/// One table per rule, in the order of [`Rule`]'s variants.
static TABLES: [LazyLock<ShapeTable>; 5] = [
    LazyLock::new(|| ShapeTable::build(Rule::Freestyle)),
    LazyLock::new(|| ShapeTable::build(Rule::Standard)),
    LazyLock::new(|| ShapeTable::build(Rule::Renju)),
    LazyLock::new(|| ShapeTable::build(Rule::Caro)),
    LazyLock::new(|| ShapeTable::build(Rule::CaroExact)),
];

/// The shape table of `rule` (built on first use, with the rule's pattern table).
#[inline]
pub fn table(rule: Rule) -> &'static ShapeTable {
    &TABLES[rule as usize]
}

/// A short name of a shape code (for reports): the pattern's (`F2`, `B3`, ...), with `F2b`
/// and `F2c` for live twos with two and three or more ways, `F3s` for a live three with two
/// live-four points.
pub fn name(shape: u8) -> &'static str {
    const NAMES: [&str; SHAPES] = [
        "-", "L", "B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4", "44", "5", "F2b", "F2c", "F3s",
    ];
    NAMES.get(usize::from(shape)).copied().unwrap_or("?")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::pattern::{self, EMPTY, WALL};

    /// The shape a stone of `color` makes for an absolute line key.
    fn shape_of(table: &ShapeTable, key: u32, color: Color) -> u8 {
        of_color(table.get_byte(key), color.index())
    }

    /// The shape black makes at the centre of `line` (11 cells: `.` empty, `X` black, `O`
    /// white, `#` wall; the centre must be `.`).
    fn black_shape(rule: Rule, line: &str) -> u8 {
        let cells: Vec<u8> = line
            .chars()
            .map(|ch| match ch {
                'X' => tables::color_code(Color::Black) as u8,
                'O' => tables::color_code(Color::White) as u8,
                '#' => WALL,
                _ => EMPTY,
            })
            .collect();
        let line: [u8; 11] = cells.try_into().expect("11 cells");
        shape_of(table(rule), pattern::encode(&line), Color::Black)
    }

    #[test]
    fn live_threes_are_told_apart_by_their_live_four_points() {
        let r = Rule::Freestyle;
        assert_eq!(black_shape(r, "...XX......"), FLEX3_TWO_FOURS);
        assert_eq!(black_shape(r, "...X..X...."), LinePattern::Flex3 as u8);
        assert_eq!(black_shape(r, "...XX..O..."), LinePattern::Flex3 as u8);
        assert_eq!(black_shape(r, "..OXX......"), LinePattern::Block3 as u8);
    }

    #[test]
    fn live_twos_are_told_apart_by_their_ways_to_a_live_three() {
        let r = Rule::Freestyle;
        assert_eq!(black_shape(r, "....X......"), FLEX2_MANY_WAYS);
        assert_eq!(black_shape(r, "..O.X......"), FLEX2_TWO_WAYS);
        assert_eq!(black_shape(r, "..O.X...O.."), LinePattern::Block2 as u8);
    }

    /// The key with the cells five away from the centre made empty (walls kept where the line
    /// ends at four), as the freestyle table reads it.
    fn narrowed(key: u32) -> u32 {
        widen((key >> pattern::shift_of(-4)) & 0xFFFF)
    }

    #[test]
    fn freestyle_patterns_do_not_read_the_cells_five_away() {
        let (free, exact) = (
            tables::table(Rule::Freestyle),
            tables::table(Rule::Standard),
        );
        let mut differ = 0;
        tables::for_each_realizable(|key| {
            assert_eq!(free.get_byte(key), free.get_byte(narrowed(key)), "{key:#x}");
            differ += usize::from(exact.get_byte(key) != exact.get_byte(narrowed(key)));
        });
        // Under an exact-five rule they do (an overline is no five), so the check can fail.
        assert!(
            differ > 1_000,
            "{differ} standard keys read the cells five away"
        );
    }

    #[test]
    fn every_shape_maps_back_to_its_pattern_and_threat() {
        for rule in [Rule::Freestyle, Rule::Renju, Rule::CaroExact] {
            let (shapes, patterns) = (table(rule), tables::table(rule));
            for key in (0..KEYS as u32)
                .step_by(7)
                .filter(|&k| pattern::is_realizable(&pattern::decode(k)))
            {
                for color in [Color::Black, Color::White] {
                    let (s, p) = (shape_of(shapes, key, color), patterns.pattern(key, color));
                    assert_eq!(base(s), p as u8, "{rule} key {key:#x}");
                }
            }
            for key in (0..SHAPE_KEYS).step_by(5) {
                for c in 0..2 {
                    let want = patterns.combine_keyed(pattern_key(key), c);
                    assert_eq!(shapes.combine_keyed(key, c), want);
                }
            }
        }
    }

    #[test]
    fn shape_keys_round_trip() {
        for key in [0, 1, 14, 15, 3374, SHAPE_KEYS - 1] {
            assert_eq!(shape_key(key_shapes(key)), key);
        }
        assert_eq!(
            pattern_key(shape_key([14, 12, 13, 7])),
            tables::combine_key([7, 5, 5, 7])
        );
    }
}
