//! Renju forbidden points against complete sets: the repository's constructed positions
//! (`tests/fixtures/renju-fouls.txt`, every foul kind and every exception, run everywhere) and
//! the larger sets in ../shared/data, which three independent implementations agree on.

use crate::common;

use crate::common::{data, fixture};
use lianzhu::notation::parse_pos;
use lianzhu::rules::{
    forbidden_points, judge, renju::forbidden_with, Board, Foul, MoveOutcome, ThreeReading,
};
use lianzhu::types::Rule;
use lianzhu::types::{Color, Pos};
use std::collections::BTreeMap;

fn foul_from(label: &str) -> Foul {
    match label {
        "6" => Foul::Overline,
        "44" => Foul::DoubleFour,
        "33" => Foul::DoubleThree,
        other => panic!("unknown foul label {other}"),
    }
}

fn points(list: &str) -> Vec<Pos> {
    list.split_whitespace()
        .filter(|w| *w != "-")
        .map(|w| parse_pos(w).unwrap())
        .collect()
}

fn expected(list: &str) -> BTreeMap<Pos, Foul> {
    list.split_whitespace()
        .filter(|w| *w != "-")
        .map(|w| {
            let (p, k) = w.split_once('=').expect("point=kind");
            (parse_pos(p).unwrap(), foul_from(k))
        })
        .collect()
}

fn actual(black: &[Pos], white: &[Pos], reading: ThreeReading) -> BTreeMap<Pos, Foul> {
    let mut b = Board::square(15).unwrap();
    for &p in black {
        b.place(p, Color::Black);
    }
    for &p in white {
        b.place(p, Color::White);
    }
    b.empty_points()
        .filter_map(|p| forbidden_with(&b, p, reading).map(|f| (p, f)))
        .collect()
}

struct Case {
    id: String,
    black: Vec<Pos>,
    white: Vec<Pos>,
    forbidden: BTreeMap<Pos, Foul>,
    jrf: Option<BTreeMap<Pos, Foul>>,
}

/// The `[case ID]` records of a forbidden-point file (../shared/data/renju-forbidden.txt and
/// tests/fixtures/renju-fouls.txt share the format).
fn cases(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for block in text.split("\n[case ").skip(1) {
        let id = block.split(']').next().unwrap().to_string();
        let field = |name: &str| {
            block
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name}:")))
                .map(str::trim)
        };
        cases.push(Case {
            black: points(field("black").unwrap()),
            white: points(field("white").unwrap()),
            forbidden: expected(field("forbidden").unwrap()),
            jrf: field("forbidden_jrf").map(expected),
            id,
        });
    }
    cases
}

fn curated() -> Vec<Case> {
    cases(&data("renju-forbidden.txt"))
}

fn board(c: &Case) -> Board {
    let mut b = Board::square(15).unwrap();
    for &p in &c.black {
        b.place(p, Color::Black);
    }
    for &p in &c.white {
        b.place(p, Color::White);
    }
    b
}

#[test]
fn fixture_positions_match_exactly() {
    let cases = cases(&fixture("renju-fouls.txt"));
    assert!(cases.len() >= 19, "only {} fixture cases read", cases.len());
    let mut failures = Vec::new();
    for c in &cases {
        let strict = actual(&c.black, &c.white, ThreeReading::Strict);
        if strict != c.forbidden {
            failures.push(format!(
                "{}: expected {:?}, got {strict:?}",
                c.id, c.forbidden
            ));
        }
        // The JRF reading differs only where the fixture says so.
        let want_jrf = c.jrf.as_ref().unwrap_or(&c.forbidden);
        let jrf = actual(&c.black, &c.white, ThreeReading::Jrf);
        if &jrf != want_jrf {
            failures.push(format!(
                "{} (JRF): expected {want_jrf:?}, got {jrf:?}",
                c.id
            ));
        }
        // The whole-board scan and the referee's judgement say the same.
        let b = board(c);
        let scan: BTreeMap<Pos, Foul> = forbidden_points(&b).into_iter().collect();
        if scan != c.forbidden {
            failures.push(format!("{} (forbidden_points): got {scan:?}", c.id));
        }
        for p in b.empty_points() {
            let outcome = judge(&b, p, Color::Black, Rule::Renju);
            let foul = match outcome {
                MoveOutcome::Foul(f) => Some(f),
                _ => None,
            };
            if foul != c.forbidden.get(&p).copied() {
                failures.push(format!("{} (judge): {p:?} is {outcome:?}", c.id));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The fixture covers every foul kind and a reading that differs.
    let kinds: Vec<Foul> = cases
        .iter()
        .flat_map(|c| c.forbidden.values().copied())
        .collect();
    for kind in [Foul::Overline, Foul::DoubleFour, Foul::DoubleThree] {
        assert!(kinds.contains(&kind), "no {kind:?} in the fixture");
    }
    assert!(cases.iter().any(|c| c.jrf.is_some()));
}

/// The exceptions of the fixture, point by point: the legal points that look like fouls and
/// the fouls that look legal (the complete sets above cover them; this says which is which).
#[test]
fn fixture_exceptions_are_judged_as_the_rules_say() {
    let all = cases(&fixture("renju-fouls.txt"));
    let case = |id: &str| {
        all.iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("{id}"))
    };
    let at = |id: &str, point: &str| {
        let b = board(case(id));
        judge(&b, parse_pos(point).unwrap(), Color::Black, Rule::Renju)
    };
    let legal = MoveOutcome::Continue;
    // False threes: the edge, an own stone that makes the completion six.
    assert_eq!(at("F02a", "c5"), legal);
    assert_eq!(at("F02b", "d5"), MoveOutcome::Foul(Foul::DoubleThree));
    assert_eq!(at("F03a", "g9"), legal);
    assert_eq!(at("F03b", "g9"), MoveOutcome::Foul(Foul::DoubleThree));
    // Two fours in one line, in all three shapes.
    for (id, p) in [("F05", "f4"), ("F06", "f14"), ("F06b", "k6")] {
        assert_eq!(at(id, p), MoveOutcome::Foul(Foul::DoubleFour), "{id}");
    }
    // Overline, labelled before the four it also makes.
    assert_eq!(at("F07", "g6"), MoveOutcome::Foul(Foul::Overline));
    // A five beats a double three and an overline.
    assert_eq!(at("F08", "f10"), MoveOutcome::Win);
    assert_eq!(at("F09", "f2"), MoveOutcome::Win);
    // Recursion: a three through a forbidden point is false (one and two levels deep).
    assert_eq!(at("F10", "f8"), MoveOutcome::Foul(Foul::Overline));
    assert_eq!(at("F10", "h8"), legal);
    assert_eq!(at("F11", "h8"), legal);
    assert_eq!(at("F12", "f9"), MoveOutcome::Foul(Foul::Overline));
    assert_eq!(at("F12", "h8"), MoveOutcome::Foul(Foul::DoubleThree));
    // Four-three is legal, four-three-three is not; an old four elsewhere does not count.
    assert_eq!(at("F13a", "f3"), legal);
    assert_eq!(at("F13b", "f3"), MoveOutcome::Foul(Foul::DoubleThree));
    assert_eq!(at("F14", "k5"), legal);
    // The five-point three: legal under the referee's reading, a double three under JRF's.
    let b = board(case("F10b"));
    let h8 = parse_pos("h8").unwrap();
    assert_eq!(forbidden_with(&b, h8, ThreeReading::Strict), None);
    assert_eq!(
        forbidden_with(&b, h8, ThreeReading::Jrf),
        Some(Foul::DoubleThree)
    );
}

#[test]
fn curated_positions_match_exactly() {
    if !common::have_shared_data() {
        return;
    }
    let cases = curated();
    assert!(cases.len() >= 80, "only {} cases read", cases.len());
    let mut failures = Vec::new();
    for c in &cases {
        let got = actual(&c.black, &c.white, ThreeReading::Strict);
        if got != c.forbidden {
            failures.push(format!(
                "{}: expected {:?}, got {:?}",
                c.id, c.forbidden, got
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn jrf_reading_differs_where_listed() {
    if !common::have_shared_data() {
        return;
    }
    let cases = curated();
    let with_jrf: Vec<&Case> = cases.iter().filter(|c| c.jrf.is_some()).collect();
    assert!(!with_jrf.is_empty());
    for c in with_jrf {
        let got = actual(&c.black, &c.white, ThreeReading::Jrf);
        assert_eq!(&got, c.jrf.as_ref().unwrap(), "{}", c.id);
    }
}

#[test]
fn random_positions_match_exactly() {
    if !common::have_shared_data() {
        return;
    }
    let text = data("renju-forbidden-random.txt");
    let mut n = 0;
    let mut failures = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains('|'))
    {
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        assert!(parts.len() == 4 || parts.len() == 5, "{line}");
        let black = points(parts[1].strip_prefix('B').unwrap());
        let white = points(parts[2].strip_prefix('W').unwrap());
        let want = expected(parts[3].strip_prefix('F').unwrap());
        let got = actual(&black, &white, ThreeReading::Strict);
        if got != want {
            failures.push(format!("{}: expected {want:?}, got {got:?}", parts[0]));
        }
        if let Some(jrf) = parts.get(4) {
            let want_jrf = expected(jrf.strip_prefix("FJRF").unwrap());
            let got_jrf = actual(&black, &white, ThreeReading::Jrf);
            if got_jrf != want_jrf {
                failures.push(format!(
                    "{} (JRF): expected {want_jrf:?}, got {got_jrf:?}",
                    parts[0]
                ));
            }
        }
        n += 1;
    }
    assert!(n >= 700, "only {n} random positions read");
    assert!(
        failures.is_empty(),
        "{} of {n} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
