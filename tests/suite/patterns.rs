//! Pattern tables and incremental pattern state against independent references.
//!
//! - Every realizable table entry, for every rule and colour, equals a slow classifier that
//!   places stones on a real `Board` and asks the rules layer (`wins_along`) what wins; the
//!   two-and-one levels, which cost 100x more, are checked on a fixed sample of keys.
//! - Random games under every rule compare all incremental `EvalBoard` state with a rebuild
//!   at every node, and (renju) the pattern foul flags with the exact foul check.

use crate::common;

use crate::common::{data, Rng, RULES};
use lianzhu::eval::EvalBoard;
use lianzhu::rules::pattern::{self, CellThreat, LinePattern, CENTER, EMPTY, WALL};
use lianzhu::rules::{self, tables, Board};
use lianzhu::types::{Color, Pos, Rule};

/// A line laid out on row 0 of a real board: the board and the centre point.
fn lay_out(key: u32) -> Option<(Board, Pos)> {
    let line = pattern::decode(key);
    let wl = (0..CENTER).take_while(|&i| line[i] == WALL).count();
    let wr = (CENTER + 1..11)
        .rev()
        .take_while(|&i| line[i] == WALL)
        .count();
    let cx = if wl > 0 { 5 - wl } else { 10 };
    let width = if wr > 0 { cx + 6 - wr } else { 32 };
    let mut board = Board::new(width, 5).ok()?;
    for (i, &c) in line.iter().enumerate() {
        if i == CENTER || c == EMPTY || c == WALL {
            continue;
        }
        let color = if c == 1 { Color::Black } else { Color::White };
        board.place(Pos::new(cx + i - 5, 0), color);
    }
    Some((board, Pos::new(cx, 0)))
}

struct Reference {
    rule: Rule,
    color: Color,
    xs: Vec<Pos>,
}

impl Reference {
    fn wins(&self, b: &Board, c: Pos) -> bool {
        rules::wins_along(b, c, 1, self.color, self.rule)
    }

    fn win_points(&self, b: &mut Board, c: Pos) -> Vec<Pos> {
        let mut out = Vec::new();
        for &q in &self.xs {
            if b.is_empty(q) {
                b.place(q, self.color);
                if self.wins(b, c) {
                    out.push(q);
                }
                b.undo().unwrap();
            }
        }
        out
    }

    /// The pattern at `c` (own stone already on `c`), down to `levels` levels below four.
    fn classify(&self, b: &mut Board, c: Pos, levels: u32) -> LinePattern {
        if self.wins(b, c) {
            return LinePattern::Five;
        }
        let exact = matches!(
            (self.rule, self.color),
            (Rule::Standard, _) | (Rule::CaroExact, _) | (Rule::Renju, Color::Black)
        );
        if exact && b.run_through(c, 1, self.color).0 >= 6 {
            return LinePattern::Overline;
        }
        let wins = self.win_points(b, c);
        if wins.len() >= 2 {
            let robust = wins.iter().all(|&w| {
                b.place(w, self.color.opponent());
                let left = self.win_points(b, c).len();
                b.undo().unwrap();
                left > 0
            });
            if !robust {
                return LinePattern::Block4;
            }
            let straight = wins.len() == 2 && wins[1].x() - wins[0].x() == 5;
            return if straight {
                LinePattern::Flex4
            } else {
                LinePattern::DoubleFour
            };
        }
        if wins.len() == 1 {
            return LinePattern::Block4;
        }
        if levels == 0 {
            return LinePattern::Dead;
        }
        let renju_black = self.rule == Rule::Renju && self.color == Color::Black;
        let mut best = LinePattern::Dead;
        for &q in &self.xs {
            if !b.is_empty(q) {
                continue;
            }
            b.place(q, self.color);
            let next = self.classify(b, c, levels - 1);
            b.undo().unwrap();
            best = best.max(next.one_stone_less(renju_black));
        }
        best
    }
}

#[test]
fn every_table_entry_matches_the_reference() {
    for rule in RULES {
        let table = tables::table(rule);
        let mut checked = 0u32;
        let mut index = 0u32;
        tables::for_each_realizable(|key| {
            index += 1;
            let Some((mut board, c)) = lay_out(key) else {
                return;
            };
            let xs: Vec<Pos> = (0..11)
                .filter(|&i| i != CENTER)
                .filter_map(|i| {
                    let x = c.x() as isize + i as isize - 5;
                    (x >= 0 && (x as usize) < board.width()).then(|| Pos::new(x as usize, 0))
                })
                .collect();
            let deep = index.is_multiple_of(61);
            for color in [Color::Black, Color::White] {
                let r = Reference {
                    rule,
                    color,
                    xs: xs.clone(),
                };
                let got = table.pattern(key, color);
                board.place(c, color);
                let levels = if deep { 3 } else { 1 };
                let want = r.classify(&mut board, c, levels);
                board.undo().unwrap();
                if deep || want >= LinePattern::Block3 || got >= LinePattern::Block3 {
                    assert_eq!(got, want, "{rule} {color:?} key {key:05x} {board:?}");
                }
                checked += 1;
            }
        });
        assert!(checked > 200_000, "{rule}: only {checked} entries checked");
    }
}

fn random_move(eb: &EvalBoard, rng: &mut Rng) -> Option<Pos> {
    let empties: Vec<Pos> = eb
        .playable()
        .iter()
        .copied()
        .filter(|&p| eb.board().is_empty(p))
        .collect();
    if empties.is_empty() {
        return None;
    }
    // Mostly near the stones (where patterns are rich), sometimes anywhere.
    let near: Vec<Pos> = empties
        .iter()
        .copied()
        .filter(|&p| eb.near(p) > 0)
        .collect();
    let pool = if near.is_empty() || rng.below(8) == 0 {
        &empties
    } else {
        &near
    };
    Some(pool[rng.below(pool.len())])
}

#[test]
fn incremental_state_matches_rebuild_in_random_games() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut nodes: u32 = 0;
    for rule in RULES {
        for (size, games) in [(15, 6), (20, 3), (32, 1)] {
            for _ in 0..games {
                let board = Board::square(size).unwrap();
                let mut eb = EvalBoard::new(&board, rule);
                let length = 20 + rng.below(60);
                for _ in 0..length {
                    if eb.board().stone_count() > 0 && rng.below(5) == 0 {
                        eb.undo();
                    } else if let Some(p) = random_move(&eb, &mut rng) {
                        eb.make(p);
                    }
                    nodes += 1;
                    if let Err(e) = eb.check_consistency() {
                        panic!("{rule} {size}: {e}\n{:?}", eb.board());
                    }
                    // The row masks name exactly the empty points with a stone within 2.
                    let scanned: Vec<Pos> = eb
                        .board()
                        .points()
                        .filter(|&p| eb.board().is_empty(p) && eb.near(p) > 0)
                        .collect();
                    assert_eq!(eb.near_empties().collect::<Vec<_>>(), scanned);
                    if rules::winner_after_last(eb.board(), rule).is_some() {
                        eb.undo();
                    }
                    if rule == Rule::Renju && nodes.is_multiple_of(3) {
                        check_fouls(&eb);
                    }
                }
                while eb.board().stone_count() > 0 {
                    eb.undo();
                }
                eb.check_consistency().unwrap();
            }
        }
    }
    assert!(nodes > 2_000);
}

#[test]
fn shape_values_hold_after_threat_only_makes() {
    // The horizon's VCF probe plays `make_threats` on top of the search's full makes and
    // orders its fours by `shape_value`, which must then equal what a rebuilt board stores.
    let mut rng = Rng(0x51_7c_c1_b7_27_22_0a_95);
    let mut checked = 0;
    for rule in RULES {
        for _ in 0..6 {
            let mut eb = EvalBoard::new(&Board::square(15).unwrap(), rule);
            let (full, threats) = (4 + rng.below(30), 1 + rng.below(8));
            for i in 0..full + threats {
                let Some(p) = random_move(&eb, &mut rng) else {
                    break;
                };
                if i < full {
                    eb.make(p);
                } else {
                    eb.make_threats(p);
                }
                if rules::winner_after_last(eb.board(), rule).is_some() {
                    eb.undo();
                }
            }
            let fresh = EvalBoard::with_tables(eb.board(), rule, eb.tables().clone());
            for &q in eb.playable().iter().filter(|&&q| eb.board().is_empty(q)) {
                for c in [Color::Black, Color::White] {
                    assert_eq!(
                        eb.shape_value(q, c),
                        fresh.cell_value(q, c),
                        "{rule}: {q:?} {c:?}"
                    );
                    checked += 1;
                }
            }
            while eb.board().stone_count() > 0 {
                eb.undo();
            }
            eb.check_consistency().unwrap();
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn undo_past_the_start_matches_rebuild() {
    // `EvalBoard` takes back its own stones from a log, and stones placed before it was
    // built by recomputing; mix both, checking against a rebuild at every step.
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for rule in RULES {
        for _ in 0..4 {
            let mut board = Board::square(15).unwrap();
            let mut eb = EvalBoard::new(&board, rule);
            for _ in 0..20 + rng.below(30) {
                let Some(p) = random_move(&eb, &mut rng) else {
                    break;
                };
                eb.make(p);
                if rules::winner_after_last(eb.board(), rule).is_some() {
                    eb.undo();
                    continue;
                }
                board.make(p);
            }
            let mut eb = EvalBoard::new(&board, rule);
            while eb.board().stone_count() > 0 {
                if rng.below(3) == 0 {
                    if let Some(p) = random_move(&eb, &mut rng) {
                        eb.make(p);
                        eb.check_consistency()
                            .unwrap_or_else(|e| panic!("{rule} make: {e}\n{:?}", eb.board()));
                    }
                }
                eb.undo();
                eb.check_consistency()
                    .unwrap_or_else(|e| panic!("{rule} undo: {e}\n{:?}", eb.board()));
            }
        }
    }
}

/// Renju: a proven `Forbidden` class is a foul, every foul is flagged, and `is_forbidden`
/// agrees with the rules layer everywhere.
fn check_fouls(eb: &EvalBoard) {
    for &p in eb.playable() {
        if !eb.board().is_empty(p) {
            continue;
        }
        let exact = rules::forbidden(eb.board(), p).is_some();
        let byte = eb.threat_byte(p, Color::Black);
        let class = CellThreat::from_u8(byte);
        if class == CellThreat::Forbidden {
            assert!(exact, "pattern foul at {p:?} is legal\n{:?}", eb.board());
        }
        if exact {
            assert!(
                class == CellThreat::Forbidden || byte & pattern::MAYBE_FOUL != 0,
                "foul at {p:?} not flagged\n{:?}",
                eb.board()
            );
        }
        assert_eq!(eb.is_forbidden(p), exact, "{p:?}\n{:?}", eb.board());
    }
}

#[test]
fn five_points_match_the_rules_layer() {
    let mut rng = Rng(12345);
    for rule in RULES {
        let board = Board::square(15).unwrap();
        let mut eb = EvalBoard::new(&board, rule);
        for _ in 0..120 {
            let Some(p) = random_move(&eb, &mut rng) else {
                break;
            };
            eb.make(p);
            if rules::winner_after_last(eb.board(), rule).is_some() {
                eb.undo();
                continue;
            }
            for &q in eb.playable() {
                if !eb.board().is_empty(q) {
                    continue;
                }
                for color in [Color::Black, Color::White] {
                    let table_five = eb.threat(q, color) == CellThreat::Five;
                    let rules_five = rules::is_five(eb.board(), q, color, rule);
                    assert_eq!(
                        table_five,
                        rules_five,
                        "{rule} {color:?} {q:?}\n{:?}",
                        eb.board()
                    );
                }
            }
        }
    }
}

#[test]
fn renju_fouls_match_the_fixtures() {
    // The constructed positions of tests/fixtures/renju-fouls.txt: the pattern tables' foul
    // marks must give each complete set (strict reading).
    let text = common::fixture("renju-fouls.txt");
    let mut cases = 0;
    for block in text.split("\n[case ").skip(1) {
        let id = block.split(']').next().unwrap();
        let field = |name: &str| {
            block
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name}:")))
                .unwrap_or_else(|| panic!("{id}: no {name}"))
                .trim()
        };
        let spec = format!("B {} | W {} | black", field("black"), field("white"));
        let pos = lianzhu::notation::parse_position(&spec).expect("position");
        let board = black_to_move(&pos);
        let want = forbidden_list(field("forbidden"));
        let eb = EvalBoard::new(&board, Rule::Renju);
        check_fouls(&eb);
        let mut got: Vec<Pos> = eb
            .playable()
            .iter()
            .copied()
            .filter(|&p| board.is_empty(p) && eb.is_forbidden(p))
            .collect();
        got.sort();
        assert_eq!(got, want, "{id}");
        cases += 1;
    }
    assert!(cases >= 19, "only {cases} cases");
}

/// The stones of `pos` on a 15x15 board, black to move.
fn black_to_move(pos: &lianzhu::notation::Position) -> Board {
    let mut board = Board::square(15).unwrap();
    for &(p, c) in &pos.stones {
        board.place(p, c);
    }
    board.set_side_to_move(Color::Black);
    board
}

/// A sorted list of forbidden points, `-` for none; `h8=33`-style kind suffixes are ignored.
fn forbidden_list(text: &str) -> Vec<Pos> {
    let mut points: Vec<Pos> = text
        .split_whitespace()
        .filter(|&f| f != "-")
        .map(|f| lianzhu::notation::parse_pos(f.split('=').next().unwrap()).unwrap())
        .collect();
    points.sort();
    points
}

#[test]
fn renju_fouls_match_the_shared_data() {
    if !common::have_shared_data() {
        return;
    }
    let text = data("renju-forbidden-random.txt");
    let mut cases = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let spec = format!("{} | {} | black", fields[1], fields[2]);
        let pos = lianzhu::notation::parse_position(&spec).expect("position");
        let board = black_to_move(&pos);
        let want = forbidden_list(fields[3].trim_start_matches('F'));
        let eb = EvalBoard::new(&board, Rule::Renju);
        check_fouls(&eb);
        let got: Vec<Pos> = eb
            .playable()
            .iter()
            .copied()
            .filter(|&p| board.is_empty(p) && eb.is_forbidden(p))
            .collect();
        assert_eq!(got, want, "{line}");
        cases += 1;
    }
    assert!(cases >= 700, "only {cases} cases");
}
