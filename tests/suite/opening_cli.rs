//! `pbrain-lianzhu opening` through the real binary: every stage of every protocol answers
//! with a JSON line whose decision the rules accept; `--list` gives the 26 openings with their
//! names; bad positions (a stone outside its square, symmetric offers, a missing N, a stage
//! out of range or out of order) get `{"error":...}` and reading goes on.

use crate::common::run_subcommand;
use lianzhu::notation::{parse_moves, parse_pos};
use lianzhu::rules::opening::game::{OpeningGame, Protocol, Step};
use lianzhu::rules::opening::symmetry::symmetric_moves;
use lianzhu::types::{Color, Pos};
use std::process::{Command, Stdio};

/// Runs `pbrain-lianzhu opening <args>` on `input` and returns its output lines.
fn opening(args: &[&str], input: &str) -> Vec<String> {
    run_subcommand("opening", args, input)
}

fn stage(protocol: &str, stage: u32, input: &str) -> Vec<String> {
    opening(
        &[
            "--protocol",
            protocol,
            "--stage",
            &stage.to_string(),
            "--nodes",
            "8000",
        ],
        input,
    )
}

/// The raw JSON value of `key` in a flat object line (strings keep their quotes).
fn raw<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!("\"{key}\":");
    let start = line.find(&pat)? + pat.len();
    let rest = &line[start..];
    let end = if rest.starts_with('[') {
        rest.find(']')? + 1
    } else if let Some(inner) = rest.strip_prefix('"') {
        inner.find('"')? + 2
    } else {
        rest.find([',', '}'])?
    };
    Some(&rest[..end])
}

fn text(line: &str, key: &str) -> String {
    raw(line, key)
        .unwrap_or_else(|| panic!("no {key} in {line}"))
        .trim_matches('"')
        .to_string()
}

fn points(line: &str, key: &str) -> Vec<Pos> {
    let r = raw(line, key).unwrap_or_else(|| panic!("no {key} in {line}"));
    parse_moves(&r.replace(['[', ']', '"'], "")).unwrap()
}

fn m(s: &str) -> Vec<Pos> {
    parse_moves(s).unwrap()
}

#[test]
fn list_gives_the_26_openings_with_their_names() {
    let lines = opening(&["--list"], "");
    assert_eq!(lines.len(), 26);
    assert!(lines[0].contains("\"code\":\"D1\"") && lines[0].contains("\"name\":\"Kansei\""));
    assert!(
        lines[0].contains("\"stones\":[\"h8\",\"h9\",\"h10\"]"),
        "{}",
        lines[0]
    );
    assert!(
        lines[13].contains("\"traditional\":\"長星\""),
        "{}",
        lines[13]
    );
    assert!(
        lines[14].contains("\"traditional\":\"峽月\""),
        "{}",
        lines[14]
    );
    assert!(lines[12].contains("\"chinese\":\"游星\""), "{}", lines[12]);
    assert!(lines[25].contains("\"kind\":\"indirect\""));
}

#[test]
fn rif_answers_every_stage() {
    let l = stage("rif", 1, "-\n");
    assert_eq!(text(&l[0], "step"), "opening");
    let stones = points(&l[0], "stones");
    let mut g = OpeningGame::new(Protocol::Rif, 15).unwrap();
    let o = g.place_opening(&stones, None).unwrap();
    assert!(
        l[0].contains(&format!("\"name\":\"{}\"", o.name)),
        "{}",
        l[0]
    );
    assert!(raw(&l[0], "time_ms").is_some());
    // Names stand for stones: Kansei is h8h9h10.
    let l = stage("rif", 2, "Kansei\nh8h9h10\n");
    assert_eq!(l.len(), 2);
    assert!(
        ["true", "false"].contains(&text(&l[0], "swap").as_str()),
        "{}",
        l[0]
    );
    assert!(raw(&l[1], "swap").is_some(), "{}", l[1]);
    let l = stage("rif", 3, "寒星\n");
    let fourth = parse_pos(&text(&l[0], "move")).unwrap();
    let mut g =
        OpeningGame::replay(Protocol::Rif, 15, &m("h8h9h10"), None, &[], Step::Fourth).unwrap();
    g.place_fourth(fourth, None).unwrap();
    let l = stage("rif", 4, "kansei+g9\n");
    let offers = points(&l[0], "offers");
    assert_eq!(offers.len(), 2);
    let mut g =
        OpeningGame::replay(Protocol::Rif, 15, &m("h8h9h10g9"), None, &[], Step::Offers).unwrap();
    g.offer_fifths(&offers).unwrap();
    let l = stage("rif", 5, "h8h9h10g9 offers=i10j8\n");
    let fifth = parse_pos(&text(&l[0], "fifth")).unwrap();
    let sixth = parse_pos(&text(&l[0], "sixth")).unwrap();
    assert!(m("i10j8").contains(&fifth));
    assert!(!m("h8h9h10g9").contains(&sixth) && sixth != fifth);
}

#[test]
fn yamaguchi_declares_n_with_the_opening_and_offers_n() {
    let l = stage("yamaguchi", 1, "-\n");
    let n: usize = text(&l[0], "offers").parse().unwrap();
    assert!((1..=12).contains(&n), "{}", l[0]);
    let l = stage("yamaguchi", 4, "h8h9h10g9 n=3\n");
    let offers = points(&l[0], "offers");
    assert_eq!(offers.len(), 3);
    let g = OpeningGame::replay(
        Protocol::Yamaguchi,
        15,
        &m("h8h9h10g9"),
        Some(3),
        &offers,
        Step::Pick,
    );
    assert!(g.is_ok(), "{:?}", g.err());
    let l = stage("yamaguchi", 2, "h8h9h10 n=3\n");
    assert!(raw(&l[0], "swap").is_some(), "{}", l[0]);
}

#[test]
fn soosorv_answers_its_six_stages() {
    let l = stage("soosorv8", 1, "-\n");
    assert_eq!(points(&l[0], "stones").len(), 3);
    assert!(raw(&l[0], "offers").is_none(), "{}", l[0]);
    let l = stage("soosorv8", 2, "h8i9j8\n");
    assert!(raw(&l[0], "swap").is_some());
    let l = stage("soosorv8", 3, "h8i9j8\n");
    let n: usize = text(&l[0], "offers").parse().unwrap();
    assert!((1..=8).contains(&n), "{}", l[0]);
    let fourth = parse_pos(&text(&l[0], "move")).unwrap();
    assert!(!m("h8i9j8").contains(&fourth));
    let l = stage("soosorv8", 4, "h8i9j8g9 n=4\n");
    assert!(raw(&l[0], "swap").is_some());
    let l = stage("soosorv8", 5, "h8i9j8g9 n=4\n");
    let offers = points(&l[0], "offers");
    assert_eq!(offers.len(), 4);
    let mut b = lianzhu::rules::Board::square(15).unwrap();
    for p in m("h8i9j8g9") {
        b.make(p);
    }
    for (i, &a) in offers.iter().enumerate() {
        for &c in &offers[i + 1..] {
            assert!(!symmetric_moves(&b, a, c, Color::Black), "{a:?} {c:?}");
        }
    }
    let l = stage("soosorv8", 6, "h8i9j8g9 n=2 offers=i10k8\n");
    assert!(m("i10k8").contains(&parse_pos(&text(&l[0], "fifth")).unwrap()));
}

#[test]
fn taraguchi_places_stones_in_their_squares_or_offers_ten() {
    let l = stage("taraguchi10", 1, "-\nh8\nh8i9\nh8i9j8\nh8i9j8k11\n");
    assert_eq!(l.len(), 5);
    for (k, line) in l.iter().enumerate() {
        let p = parse_pos(&text(line, "move")).unwrap();
        let r = k as i32;
        let (dx, dy) = (p.x() as i32 - 7, p.y() as i32 - 7);
        assert!(dx.abs() <= r && dy.abs() <= r, "stone {} at {p:?}", k + 1);
    }
    let l = stage("taraguchi10", 2, "h8i9j8\n");
    assert!(raw(&l[0], "swap").is_some());
    let l = stage("taraguchi10", 3, "h8i9j8k11\n");
    assert_eq!(points(&l[0], "offers").len(), 10);
    let l = stage(
        "taraguchi10",
        4,
        "h8i9j8k11 offers=a1o15a15o1h1h15a8o8g8f6\n",
    );
    assert!(raw(&l[0], "fifth").is_some() && raw(&l[0], "sixth").is_some());
}

#[test]
fn bad_positions_get_an_error_and_reading_goes_on() {
    let input = "h8h9h11\n\
                 h8h9\n\
                 h8h9h10g9\n\
                 nonsense\n\
                 h8h9h10 n=x\n\
                 Kansei\n";
    let l = stage("rif", 2, input);
    assert_eq!(l.len(), 6, "{l:?}");
    assert!(
        l[0].contains("\"error\":") && l[0].contains("outside the central 5x5"),
        "{}",
        l[0]
    );
    assert!(l[1].contains("\"error\":"), "{}", l[1]);
    assert!(l[2].contains("\"error\":"), "{}", l[2]);
    assert!(l[3].contains("\"error\":"), "{}", l[3]);
    assert!(l[4].contains("\"error\":"), "{}", l[4]);
    assert!(raw(&l[5], "swap").is_some(), "{}", l[5]);
    // Symmetric offers, a missing N, a stage out of range.
    let l = stage("rif", 5, "h8h9h10h11 offers=g9i9\n");
    assert!(l[0].contains("symmetric"), "{}", l[0]);
    let l = stage("soosorv8", 4, "h8i9j8g9\n");
    assert!(
        l[0].contains("needs the number of fifth-move offers"),
        "{}",
        l[0]
    );
    let l = stage("soosorv8", 7, "h8i9j8g9\n");
    assert!(l[0].contains("stages 1 to 6"), "{}", l[0]);
    // An unknown protocol is a usage error.
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-lianzhu"))
        .args(["opening", "--protocol", "swap9", "--stage", "1"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
}
