//! Renju's designated opening (指定开局): the 26 named openings, the board's symmetries and
//! the placement rules of the opening protocols RIF, Yamaguchi, Soosõrv-8 and Taraguchi-10
//! (see [`game`]). Rules only: no search, no printing.
//!
//! Black 1 stands on the centre, white 2 next to it, straight (direct, 直指) or diagonally
//! (indirect, 斜指), and black 3 inside the central 5x5. Up to the 8 symmetries of the board
//! there are 13 direct and 13 indirect openings, listed in [`OPENINGS`] in the order and
//! orientation of `../shared/data/openings/renju26.txt`: black h8, white h9 (offset (0, +1))
//! or i9 ((+1, +1)), offsets counted as the notation counts them (`h9` is y + 1).

pub mod error;
pub mod game;
pub mod symmetry;

use crate::rules::Board;
use crate::types::Pos;
pub use symmetry::Symmetry;

/// One of the 26 openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `D1`..`D13` (direct) or `I1`..`I13` (indirect).
    pub code: &'static str,
    /// The romanised Japanese name, `Kansei`.
    pub name: &'static str,
    /// The Japanese name, `寒星`.
    pub japanese: &'static str,
    /// The Chinese name (simplified), `寒星`.
    pub chinese: &'static str,
    /// The Chinese name in traditional characters, `寒星`.
    pub traditional: &'static str,
    /// White 2's offset from the centre: (0, 1) direct, (1, 1) indirect.
    pub white: (i32, i32),
    /// Black 3's offset from the centre.
    pub third: (i32, i32),
}

impl Opening {
    /// True for the 13 direct openings (white 2 straight next to black 1).
    pub fn is_direct(&self) -> bool {
        self.white == (0, 1)
    }

    /// Its three stones (black, white, black) on `board` in the listed orientation, or `None`
    /// when the board is too small for the central 5x5.
    pub fn stones(&self, board: &Board) -> Option<[Pos; 3]> {
        self.stones_turned(board, Symmetry::Identity)
    }

    /// Its three stones turned by `s`.
    pub fn stones_turned(&self, board: &Board, s: Symmetry) -> Option<[Pos; 3]> {
        let at = |o| symmetry::from_offset(board, s.apply_offset(o));
        Some([at((0, 0))?, at(self.white)?, at(self.third)?])
    }
}

const fn direct(
    code: &'static str,
    name: &'static str,
    japanese: &'static str,
    chinese: &'static str,
    traditional: &'static str,
    third: (i32, i32),
) -> Opening {
    Opening {
        code,
        name,
        japanese,
        chinese,
        traditional,
        white: (0, 1),
        third,
    }
}

const fn indirect(
    code: &'static str,
    name: &'static str,
    japanese: &'static str,
    chinese: &'static str,
    traditional: &'static str,
    third: (i32, i32),
) -> Opening {
    Opening {
        code,
        name,
        japanese,
        chinese,
        traditional,
        white: (1, 1),
        third,
    }
}

/// The 26 openings: the 13 direct ones, then the 13 indirect ones.
pub const OPENINGS: [Opening; 26] = [
    direct("D1", "Kansei", "寒星", "寒星", "寒星", (0, 2)),
    direct("D2", "Keigetsu", "渓月", "溪月", "溪月", (1, 2)),
    direct("D3", "Sosei", "疎星", "疏星", "疏星", (2, 2)),
    direct("D4", "Kagetsu", "花月", "花月", "花月", (1, 1)),
    direct("D5", "Zangetsu", "残月", "残月", "殘月", (2, 1)),
    direct("D6", "Ugetsu", "雨月", "雨月", "雨月", (1, 0)),
    direct("D7", "Kinsei", "金星", "金星", "金星", (2, 0)),
    direct("D8", "Shogetsu", "松月", "松月", "松月", (0, -1)),
    direct("D9", "Kyugetsu", "丘月", "丘月", "丘月", (1, -1)),
    direct("D10", "Shingetsu", "新月", "新月", "新月", (2, -1)),
    direct("D11", "Zuisei", "瑞星", "瑞星", "瑞星", (0, -2)),
    direct("D12", "Sangetsu", "山月", "山月", "山月", (1, -2)),
    direct("D13", "Yusei", "遊星", "游星", "游星", (2, -2)),
    indirect("I1", "Chosei", "長星", "长星", "長星", (2, 2)),
    indirect("I2", "Kyogetsu", "峡月", "峡月", "峽月", (2, 1)),
    indirect("I3", "Kosei", "恒星", "恒星", "恆星", (2, 0)),
    indirect("I4", "Suigetsu", "水月", "水月", "水月", (2, -1)),
    indirect("I5", "Ryusei", "流星", "流星", "流星", (2, -2)),
    indirect("I6", "Ungetsu", "雲月", "云月", "雲月", (1, 0)),
    indirect("I7", "Hogetsu", "浦月", "浦月", "浦月", (1, -1)),
    indirect("I8", "Rangetsu", "嵐月", "岚月", "嵐月", (1, -2)),
    indirect("I9", "Gingetsu", "銀月", "银月", "銀月", (0, -1)),
    indirect("I10", "Myojo", "明星", "明星", "明星", (0, -2)),
    indirect("I11", "Shagetsu", "斜月", "斜月", "斜月", (-1, -1)),
    indirect("I12", "Meigetsu", "名月", "名月", "名月", (-1, -2)),
    indirect("I13", "Suisei", "彗星", "彗星", "彗星", (-2, -2)),
];

/// Reads a name the way players write it: a letter for a long vowel (`Kyōgetsu`, `Kyogetsu`,
/// `Kyougetsu`) and case do not matter.
fn romanised_key(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        match c {
            'ō' | 'ô' | 'ö' => s.push('o'),
            'ū' | 'û' | 'ü' => s.push('u'),
            c if c.is_ascii_alphabetic() => s.push(c),
            _ => {}
        }
    }
    // A long vowel spelled out: `ou` and `uu` become `o` and `u`.
    s.replace("ou", "o").replace("uu", "u")
}

/// The opening called `name`: its code (`D1`, `i13`), its number in [`OPENINGS`] (`1`..`26`),
/// its romanised name (`Kansei`, `Kyōgetsu`) or its name in characters (Japanese, simplified
/// or traditional Chinese).
pub fn by_name(name: &str) -> Option<&'static Opening> {
    let name = name.trim();
    if let Ok(n) = name.parse::<usize>() {
        return n.checked_sub(1).and_then(|i| OPENINGS.get(i));
    }
    let key = romanised_key(name);
    OPENINGS.iter().find(|o| {
        o.code.eq_ignore_ascii_case(name)
            || [o.japanese, o.chinese, o.traditional].contains(&name)
            || (!key.is_empty() && romanised_key(o.name) == key)
    })
}

/// The opening the first three stones of `stones` (black, white, black) make on `board`, and
/// the symmetry that turns the listed orientation into them; `None` unless black 1 is on the
/// centre, white 2 in the central 3x3 and black 3 in the central 5x5 (on other points).
pub fn identify(board: &Board, stones: &[Pos]) -> Option<(&'static Opening, Symmetry)> {
    let [b1, w2, b3] = stones.get(..3)? else {
        return None;
    };
    let (o1, o2, o3) = (
        symmetry::offset(board, *b1),
        symmetry::offset(board, *w2),
        symmetry::offset(board, *b3),
    );
    if o1 != (0, 0) || o2 == o1 || o3 == o1 || o3 == o2 {
        return None;
    }
    if o2.0.abs() > 1 || o2.1.abs() > 1 || o3.0.abs() > 2 || o3.1.abs() > 2 {
        return None;
    }
    for o in OPENINGS.iter() {
        for s in Symmetry::ALL {
            if s.apply_offset(o.white) == o2 && s.apply_offset(o.third) == o3 {
                return Some((o, s));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_moves;

    #[test]
    fn the_table_matches_the_data_file() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/data/openings/renju26.txt"
        );
        let Ok(text) = std::fs::read_to_string(path) else {
            return; // the shared data is not in every checkout
        };
        let b = Board::square(15).unwrap();
        let mut n = 0;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let mut words = line.split_whitespace();
            let moves = parse_moves(words.next().unwrap()).unwrap();
            let name = words.next().unwrap();
            let o = &OPENINGS[n];
            assert_eq!(o.name, name);
            assert_eq!(o.stones(&b).unwrap().to_vec(), moves, "{name}");
            assert_eq!(o.is_direct(), line.contains("(direct)"), "{name}");
            n += 1;
        }
        assert_eq!(n, 26);
    }

    #[test]
    fn names_in_every_script_find_the_opening() {
        assert_eq!(by_name("kansei").unwrap().code, "D1");
        assert_eq!(by_name("Kyōgetsu").unwrap().code, "I2");
        assert_eq!(by_name("Kyougetsu").unwrap().code, "I2");
        assert_eq!(by_name("Kyugetsu").unwrap().code, "D9");
        assert_eq!(by_name("Myōjō").unwrap().code, "I10");
        assert_eq!(by_name("長星").unwrap().code, "I1");
        assert_eq!(by_name("峽月").unwrap().code, "I2");
        assert_eq!(by_name("峡月").unwrap().code, "I2");
        assert_eq!(by_name("恒星").unwrap().code, "I3");
        assert_eq!(by_name("游星").unwrap().code, "D13");
        assert_eq!(by_name("遊星").unwrap().code, "D13");
        assert_eq!(by_name("i13").unwrap().name, "Suisei");
        assert_eq!(by_name("14").unwrap().name, "Chosei");
        assert!(by_name("27").is_none());
        assert!(by_name("0").is_none());
        assert!(by_name("Nothing").is_none());
        assert!(by_name("").is_none());
    }

    #[test]
    fn every_opening_is_found_in_all_eight_orientations() {
        let b = Board::square(15).unwrap();
        for o in OPENINGS.iter() {
            for s in Symmetry::ALL {
                let stones = o.stones_turned(&b, s).unwrap();
                let (found, t) = identify(&b, &stones).unwrap();
                assert_eq!(found.code, o.code, "{} turned {s:?}", o.name);
                assert_eq!(o.stones_turned(&b, t).unwrap(), stones);
            }
        }
    }

    #[test]
    fn every_legal_third_stone_is_one_of_the_26() {
        let b = Board::square(15).unwrap();
        let c = b.center();
        let mut seen = std::collections::HashSet::new();
        for w in [
            (0, 1),
            (1, 0),
            (0, -1),
            (-1, 0),
            (1, 1),
            (-1, 1),
            (1, -1),
            (-1, -1),
        ] {
            for dx in -2..=2 {
                for dy in -2..=2 {
                    let w2 = symmetry::from_offset(&b, w).unwrap();
                    let b3 = symmetry::from_offset(&b, (dx, dy)).unwrap();
                    let found = identify(&b, &[c, w2, b3]);
                    if (dx, dy) == (0, 0) || (dx, dy) == w {
                        assert!(found.is_none());
                    } else {
                        seen.insert(found.expect("an opening").0.code);
                    }
                }
            }
        }
        assert_eq!(seen.len(), 26);
    }

    #[test]
    fn stones_outside_the_central_squares_are_no_opening() {
        let b = Board::square(15).unwrap();
        let m = |s: &str| parse_moves(s).unwrap();
        assert!(identify(&b, &m("h8h9h11")).is_none()); // black 3 outside the 5x5
        assert!(identify(&b, &m("h8h10h9")).is_none()); // white 2 outside the 3x3
        assert!(identify(&b, &m("i8h9h10")).is_none()); // black 1 off the centre
        assert!(identify(&b, &m("h8h9")).is_none());
        assert_eq!(identify(&b, &m("h8g7f6")).unwrap().0.name, "Chosei");
        assert_eq!(identify(&b, &m("h8g8g6")).unwrap().0.name, "Zangetsu");
    }
}
