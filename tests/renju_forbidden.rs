//! Renju forbidden points against the complete sets in ../shared/data, which three independent
//! implementations agree on.

mod common;

use common::data;
use lianzhu::notation::parse_pos;
use lianzhu::rules::{renju::forbidden_with, Board, Foul, ThreeReading};
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

fn curated() -> Vec<Case> {
    let text = data("renju-forbidden.txt");
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
