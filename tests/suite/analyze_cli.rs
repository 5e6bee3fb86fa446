//! The `analyze` command through the real binary: JSON output parses and its fields are
//! present and legal, `--multipv` gives distinct moves, `--nodes` is deterministic, the VCF
//! answers agree with `solve` on ../shared/data/vcf-puzzles.txt (and a side to move with a VCF
//! gets a winning best move whose line replays), the renju forbidden sets match
//! ../shared/data/renju-forbidden.txt, and a malformed line gets an error while reading goes on.

use crate::common;

use crate::common::{data, puzzles, run_subcommand, Puzzle};
use lianzhu::notation::{parse_pos, parse_position};
use lianzhu::rules::{self, Board};
use lianzhu::threat::verify_vcf_line;
use lianzhu::tools::solve::{self, SolveArgs};
use lianzhu::types::{Color, Pos, Rule};
use std::collections::BTreeMap;
use std::process::{Command, Stdio};

/// Runs `pbrain-lianzhu analyze <args>` on `input` and returns its output lines.
fn analyze(args: &[&str], input: &str) -> Vec<String> {
    run_subcommand("analyze", args, input)
}

// ---- A small strict JSON reader (enough to check the output is valid JSON) ----

#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(fields) => fields
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
                .unwrap_or_else(|| panic!("no field {key} in {self:?}")),
            _ => panic!("not an object: {self:?}"),
        }
    }
    fn has(&self, key: &str) -> bool {
        matches!(self, Json::Obj(f) if f.iter().any(|(k, _)| k == key))
    }
    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }
    fn num(&self) -> f64 {
        match self {
            Json::Num(n) => *n,
            _ => panic!("not a number: {self:?}"),
        }
    }
    fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(a) => a,
            _ => panic!("not an array: {self:?}"),
        }
    }
    fn points(&self) -> Vec<String> {
        self.arr().iter().map(|p| p.str().to_string()).collect()
    }
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && b" \t\r\n".contains(&self.s[self.i]) {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> Result<(), String> {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("expected '{}' at {}", c as char, self.i))
        }
    }
    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.s.get(self.i).copied() {
            Some(b'{') => {
                self.i += 1;
                let mut fields = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Json::Obj(fields));
                }
                loop {
                    self.ws();
                    let Json::Str(k) = self.value()? else {
                        return Err(format!("object key is not a string at {}", self.i));
                    };
                    self.eat(b':')?;
                    fields.push((k, self.value()?));
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Json::Obj(fields));
                        }
                        _ => return Err(format!("bad object at {}", self.i)),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value()?);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Json::Arr(items));
                        }
                        _ => return Err(format!("bad array at {}", self.i)),
                    }
                }
            }
            Some(b'"') => {
                self.i += 1;
                let mut out = String::new();
                loop {
                    let c = *self.s.get(self.i).ok_or("unterminated string")?;
                    self.i += 1;
                    match c {
                        b'"' => return Ok(Json::Str(out)),
                        b'\\' => {
                            let e = *self.s.get(self.i).ok_or("bad escape")?;
                            self.i += 1;
                            match e {
                                b'"' => out.push('"'),
                                b'\\' => out.push('\\'),
                                b'/' => out.push('/'),
                                b'n' => out.push('\n'),
                                b't' => out.push('\t'),
                                b'r' => out.push('\r'),
                                b'b' => out.push('\u{8}'),
                                b'f' => out.push('\u{c}'),
                                b'u' => {
                                    let hex = std::str::from_utf8(
                                        self.s.get(self.i..self.i + 4).ok_or("bad \\u")?,
                                    )
                                    .map_err(|e| e.to_string())?;
                                    let v =
                                        u32::from_str_radix(hex, 16).map_err(|e| e.to_string())?;
                                    out.push(char::from_u32(v).ok_or("bad \\u value")?);
                                    self.i += 4;
                                }
                                _ => return Err(format!("bad escape at {}", self.i)),
                            }
                        }
                        c if c < 0x20 => return Err("control character in string".into()),
                        _ => {
                            // Copy one UTF-8 character.
                            let start = self.i - 1;
                            let mut end = self.i;
                            while end < self.s.len() && (self.s[end] & 0xc0) == 0x80 {
                                end += 1;
                            }
                            out.push_str(
                                std::str::from_utf8(&self.s[start..end])
                                    .map_err(|e| e.to_string())?,
                            );
                            self.i = end;
                        }
                    }
                }
            }
            Some(b't') if self.s[self.i..].starts_with(b"true") => {
                self.i += 4;
                Ok(Json::Bool(true))
            }
            Some(b'f') if self.s[self.i..].starts_with(b"false") => {
                self.i += 5;
                Ok(Json::Bool(false))
            }
            Some(b'n') if self.s[self.i..].starts_with(b"null") => {
                self.i += 4;
                Ok(Json::Null)
            }
            Some(c) if c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                self.i += 1;
                while self.i < self.s.len() && b"0123456789.eE+-".contains(&self.s[self.i]) {
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).unwrap();
                let leading_zero =
                    text.trim_start_matches('-').starts_with('0') && text.len() > 1 && {
                        let t = text.trim_start_matches('-');
                        t.len() > 1 && t.as_bytes()[1].is_ascii_digit()
                    };
                if leading_zero {
                    return Err(format!("leading zero in {text}"));
                }
                text.parse::<f64>()
                    .map(Json::Num)
                    .map_err(|_| format!("bad number {text}"))
            }
            _ => Err(format!("unexpected input at {}", self.i)),
        }
    }
}

fn parse_json(text: &str) -> Result<Json, String> {
    let mut r = Reader {
        s: text.as_bytes(),
        i: 0,
    };
    let v = r.value()?;
    r.ws();
    if r.i != text.len() {
        return Err(format!("trailing text at {}", r.i));
    }
    Ok(v)
}

#[test]
fn the_json_reader_rejects_broken_json() {
    assert!(parse_json(r#"{"a":[1,-2.5,"x\"y",null,true],"b":{}}"#).is_ok());
    for bad in [
        r#"{"a":1"#,
        r#"{"a" 1}"#,
        r#"{"a":1,}"#,
        r#"[1 2]"#,
        r#""tab	in""#,
        r#"{"a":01}"#,
        r#"{"a":1}x"#,
        r#"{a:1}"#,
    ] {
        assert!(parse_json(bad).is_err(), "{bad}");
    }
}

// ---- Positions ----

fn board_of(text: &str) -> Board {
    let p = parse_position(text).unwrap();
    let mut b = Board::square(15).unwrap();
    for &(q, c) in &p.stones {
        b.place(q, c);
    }
    b.set_side_to_move(p.to_move);
    b
}

fn winrate_of(score: f64) -> f64 {
    1.0 / (1.0 + (-score / lianzhu::score::WINRATE_SCALE).exp())
}

/// Checks one analysis object against its position: every field present, points legal.
fn check_analysis(text: &str, rule: Rule, a: &Json, multipv: usize) {
    let b = board_of(text);
    let me = b.side_to_move();
    let color = if me == Color::Black { "black" } else { "white" };
    assert_eq!(a.get("to_move").str(), color, "{text}");
    let best = parse_pos(a.get("best").str()).unwrap();
    assert!(rules::is_legal(&b, best, me, rule), "{text}: best {best:?}");
    for key in ["score", "depth", "nodes", "ms"] {
        let v = a.get(key).num();
        assert_eq!(v, v.trunc(), "{key} is an integer");
        if key != "score" {
            assert!(v >= 0.0);
        }
    }
    let lines = a.get("lines").arr();
    assert!(!lines.is_empty() && lines.len() <= multipv, "{text}");
    assert_eq!(lines[0].get("move").str(), a.get("best").str());
    assert_eq!(lines[0].get("pv"), a.get("pv"));
    let mut seen = Vec::new();
    for l in lines {
        let mv = parse_pos(l.get("move").str()).unwrap();
        assert!(
            rules::is_legal(&b, mv, me, rule),
            "{text}: line move {mv:?}"
        );
        assert!(!seen.contains(&mv), "{text}: {mv:?} twice");
        seen.push(mv);
        let pv = l.get("pv").points();
        assert_eq!(pv.first().map(String::as_str), Some(l.get("move").str()));
        let score = l.get("score").num();
        let w = l.get("winrate").num();
        match l.get("mate") {
            Json::Null => {
                assert!(score.abs() < 29_000.0);
                assert!(
                    (w - winrate_of(score)).abs() < 1e-3,
                    "{text}: {w} for {score}"
                );
            }
            Json::Num(k) => {
                assert_eq!(30_000.0 - score.abs(), k.abs(), "{text}");
                assert_eq!(w, if *k > 0.0 { 1.0 } else { 0.0 });
            }
            other => panic!("mate is {other:?}"),
        }
    }
    let forbidden = a.get("forbidden").arr();
    if rule != Rule::Renju {
        assert!(forbidden.is_empty());
    }
    for f in forbidden {
        let p = parse_pos(f.get("point").str()).unwrap();
        assert!(b.is_empty(p));
        assert!(["33", "44", "6"].contains(&f.get("kind").str()));
        if me == Color::Black {
            assert!(!seen.contains(&p), "{text}: forbidden {p:?} proposed");
        }
    }
    for side in ["black", "white"] {
        let v = a.get("vcf").get(side);
        let result = v.get("result").str();
        assert!(["win", "none", "unknown"].contains(&result), "{result}");
        assert_eq!(v.has("line"), result == "win");
        v.get("nodes").num();
    }
}

#[test]
fn json_output_parses_with_every_field_legal_and_distinct_best_moves() {
    let cases: [(Rule, &[&str]); 3] = [
        (
            Rule::Freestyle,
            &["h8i9", "h8i9h10", "B h8 i8 j8 | W a1 a2 | black"],
        ),
        (
            Rule::Renju,
            &["h8h9i9g9", "B g8 h7 h9 i8 | W - | black", "h8i9h10"],
        ),
        (Rule::Caro, &["h8i9h10i10"]),
    ];
    for (rule, positions) in cases {
        let out = analyze(
            &[
                "--rule",
                rule.name(),
                "--nodes",
                "30000",
                "--multipv",
                "3",
                "--json",
            ],
            &positions.join("\n"),
        );
        assert_eq!(out.len(), positions.len(), "{out:?}");
        for (text, line) in positions.iter().zip(&out) {
            let a = parse_json(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            check_analysis(text, rule, &a, 3);
            assert_eq!(a.get("lines").arr().len(), 3, "{line}");
        }
    }
}

#[test]
fn multipv_stops_when_every_legal_move_is_reported() {
    // 5x5, no five anywhere, three empty points c5 d5 e5: five lines asked, three given.
    let text = "B a1 b1 e1 c2 d2 a3 b3 e3 c4 d4 a5 b5 | W c1 d1 a2 b2 e2 c3 d3 a4 b4 e4 | white";
    let out = analyze(
        &[
            "--rule",
            "freestyle",
            "--size",
            "5",
            "--nodes",
            "2000",
            "--multipv",
            "5",
            "--json",
        ],
        text,
    );
    let a = parse_json(&out[0]).unwrap_or_else(|e| panic!("{e}: {}", out[0]));
    let mut moves: Vec<String> = a
        .get("lines")
        .arr()
        .iter()
        .map(|l| l.get("move").str().to_string())
        .collect();
    moves.sort();
    assert_eq!(moves, ["c5", "d5", "e5"], "{}", out[0]);
}

#[test]
fn node_limited_analysis_is_deterministic() {
    let input = "h8i9\nh8i9h10j7\n";
    let args = ["--rule", "standard", "--nodes", "20000", "--multipv", "2"];
    let strip_ms = |lines: Vec<String>| -> Vec<String> {
        lines
            .iter()
            .map(|l| {
                let words: Vec<&str> = l.split(' ').collect();
                let mut keep = Vec::new();
                let mut skip = false;
                for w in words {
                    if skip {
                        skip = false;
                        continue;
                    }
                    if w == "ms" {
                        skip = true;
                        continue;
                    }
                    keep.push(w);
                }
                keep.join(" ")
            })
            .collect()
    };
    let a = strip_ms(analyze(&args, input));
    let b = strip_ms(analyze(&args, input));
    assert_eq!(a.len(), 2);
    assert_eq!(a, b);
}

#[test]
fn text_output_has_one_line_per_position_in_sections() {
    let out = analyze(
        &["--rule", "renju", "--nodes", "5000", "--multipv", "2"],
        "B g8 h7 h9 i8 | W - | black\n",
    );
    assert_eq!(out.len(), 1, "{out:?}");
    let l = &out[0];
    assert!(l.starts_with("best "), "{l}");
    let sections: Vec<&str> = l.split(" | ").collect();
    assert!(sections[0].contains(" score ") && sections[0].contains(" winrate "));
    assert!(sections[1].starts_with("2 "), "{l}");
    assert!(sections.contains(&"forbidden h8=33"), "{l}");
    assert!(sections.last().unwrap().starts_with("vcf black "), "{l}");
}

#[test]
fn a_single_forced_reply_is_scored_by_a_search_after_it() {
    // Black's four h8-k8 is blocked at g8: white's only move is l8, which the search plays
    // without searching; analyze must still search the position after it.
    let text = "B h8 i8 j8 k8 h10 | W g8 a1 a2 a15 | white";
    let out = analyze(&["--rule", "freestyle", "--nodes", "20000", "--json"], text);
    let a = parse_json(&out[0]).unwrap();
    check_analysis(text, Rule::Freestyle, &a, 1);
    assert_eq!(a.get("best").str(), "l8", "{}", out[0]);
    assert!(a.get("depth").num() >= 2.0, "{}", out[0]);
    assert!(a.get("pv").arr().len() >= 2, "{}", out[0]);
}

#[test]
fn malformed_lines_get_an_error_and_reading_goes_on() {
    let five = "B h8 i8 j8 k8 l8 | W a1 | white";
    let input = format!("h8h8\nzz9\nB h8 | W i9\nh16\n{five}\n\n# comment\nh8i9\n");
    let out = analyze(&["--rule", "renju", "--nodes", "2000"], &input);
    assert_eq!(out.len(), 6, "{out:?}");
    for l in &out[..5] {
        assert!(l.starts_with("error "), "{l}");
    }
    assert!(out[4].contains("already over"), "{out:?}");
    assert!(out[5].starts_with("best "), "{out:?}");
    let out = analyze(
        &["--rule", "renju", "--nodes", "2000", "--json"],
        "B h8 | W \"x\nh8i9\n",
    );
    assert_eq!(out.len(), 2, "{out:?}");
    let e = parse_json(&out[0]).unwrap();
    assert!(!e.get("error").str().is_empty());
    check_analysis("h8i9", Rule::Renju, &parse_json(&out[1]).unwrap(), 1);
}

#[test]
fn bad_options_are_refused() {
    for args in [
        &["--rule", "chess"][..],
        &["--rule", "renju", "--multipv", "0"],
        &["--rule", "renju", "--nodes", "10", "--time-ms", "10"],
    ] {
        let status = Command::new(env!("CARGO_BIN_EXE_pbrain-lianzhu"))
            .arg("analyze")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(!status.success(), "{args:?}");
    }
}

// ---- Agreement with the data sets ----

/// VCF-prover nodes for both `analyze` and `solve` in the agreement test.
const PUZZLE_VCF_NODES: u64 = 300_000;

#[test]
fn vcf_answers_agree_with_solve_on_the_puzzles() {
    if !common::have_shared_data() {
        return;
    }
    let all = puzzles();
    let mut checked_wins = 0;
    let mut checked = 0;
    for rule_name in ["freestyle", "standard", "renju"] {
        let rule = Rule::from_name(rule_name).unwrap();
        // Short known cases: every VCF with at most 8 fours and the no-VCF cases, at most 14
        // per rule so the test stays short.
        let chosen: Vec<&Puzzle> = all
            .iter()
            .filter(|p| p.rule == rule_name && !p.black.is_empty())
            .filter(|p| match p.vcf {
                Some(true) => p.min_fours.is_some_and(|m| m <= 8),
                Some(false) => true,
                None => false,
            })
            .take(14)
            .collect();
        assert!(chosen.len() >= 4, "{rule_name}: {} puzzles", chosen.len());
        let texts: Vec<String> = chosen
            .iter()
            .map(|p| {
                let list = |s: &str| {
                    if s.is_empty() {
                        "-".to_string()
                    } else {
                        s.to_string()
                    }
                };
                format!(
                    "B {} | W {} | {}",
                    list(&p.black),
                    list(&p.white),
                    p.to_move
                )
            })
            .collect();
        let input = texts.join("\n");
        let vcf_nodes = PUZZLE_VCF_NODES.to_string();
        let out = analyze(
            &[
                "--rule",
                rule_name,
                "--nodes",
                "3000",
                "--vcf-nodes",
                &vcf_nodes,
                "--json",
            ],
            &input,
        );
        let solved = {
            let args = SolveArgs {
                max_nodes: PUZZLE_VCF_NODES,
                ..SolveArgs::new(rule)
            };
            let mut buf = Vec::new();
            solve::run(&args, input.as_bytes(), &mut buf).unwrap();
            String::from_utf8(buf)
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(out.len(), chosen.len());
        assert_eq!(solved.len(), chosen.len());
        for ((p, text), (line, solve_line)) in
            chosen.iter().zip(&texts).zip(out.iter().zip(&solved))
        {
            let a = parse_json(line).unwrap_or_else(|e| panic!("{}: {e}: {line}", p.id));
            check_analysis(text, rule, &a, 1);
            let mine = a.get("vcf").get(&p.to_move);
            let word = solve_line.split_whitespace().next().unwrap();
            assert_eq!(
                mine.get("result").str(),
                word,
                "{}: solve says {solve_line}",
                p.id
            );
            if p.vcf == Some(false) {
                assert_ne!(word, "win", "{}", p.id);
            }
            checked += 1;
            if word != "win" {
                continue;
            }
            // A proven VCF for the side to move: the best move starts it, with a mate score,
            // and the reported line replays.
            let b = board_of(text);
            let attacker = b.side_to_move();
            let vcf_line: Vec<Pos> = mine
                .get("line")
                .points()
                .iter()
                .map(|w| {
                    if w == "--" {
                        Pos::NONE
                    } else {
                        parse_pos(w).unwrap()
                    }
                })
                .collect();
            verify_vcf_line(&b, rule, attacker, &vcf_line)
                .unwrap_or_else(|e| panic!("{}: {e:?}", p.id));
            assert_eq!(
                a.get("best").str(),
                mine.get("line").points()[0],
                "{}",
                p.id
            );
            assert_eq!(a.get("pv"), mine.get("line"), "{}", p.id);
            assert_eq!(a.get("mate").num() as usize, vcf_line.len(), "{}", p.id);
            checked_wins += 1;
        }
    }
    assert!(checked >= 20, "only {checked} puzzles checked");
    assert!(checked_wins >= 10, "only {checked_wins} VCF wins checked");
}

fn forbidden_field(block: &str, name: &str) -> Option<String> {
    block
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name}:")))
        .map(|s| s.trim().to_string())
}

#[test]
fn forbidden_points_match_the_curated_renju_sets() {
    if !common::have_shared_data() {
        return;
    }
    let text = data("renju-forbidden.txt");
    let mut ids = Vec::new();
    let mut inputs = Vec::new();
    let mut wanted: Vec<BTreeMap<String, String>> = Vec::new();
    for block in text.split("\n[case ").skip(1) {
        ids.push(block.split(']').next().unwrap().to_string());
        let black = forbidden_field(block, "black").unwrap();
        let white = forbidden_field(block, "white").unwrap();
        inputs.push(format!("B {black} | W {white} | black"));
        wanted.push(
            forbidden_field(block, "forbidden")
                .unwrap()
                .split_whitespace()
                .filter(|w| *w != "-")
                .map(|w| {
                    let (p, k) = w.split_once('=').expect("point=kind");
                    (p.to_string(), k.to_string())
                })
                .collect(),
        );
    }
    assert!(inputs.len() >= 80, "only {} cases", inputs.len());
    let out = analyze(
        &[
            "--rule",
            "renju",
            "--nodes",
            "300",
            "--vcf-nodes",
            "2000",
            "--json",
        ],
        &inputs.join("\n"),
    );
    assert_eq!(out.len(), inputs.len());
    let mut matched = 0;
    let mut failures = Vec::new();
    for ((id, line), want) in ids.iter().zip(&out).zip(&wanted) {
        let a = parse_json(line).unwrap_or_else(|e| panic!("{id}: {e}: {line}"));
        if a.has("error") {
            // Only a position that already holds a five may be refused.
            assert!(
                a.get("error").str().contains("already over"),
                "{id}: {line}"
            );
            continue;
        }
        let got: BTreeMap<String, String> = a
            .get("forbidden")
            .arr()
            .iter()
            .map(|f| {
                (
                    f.get("point").str().to_string(),
                    f.get("kind").str().to_string(),
                )
            })
            .collect();
        if &got == want {
            matched += 1;
        } else {
            failures.push(format!("{id}: expected {want:?}, got {got:?}"));
        }
        // Black is to move: no proposed move may be forbidden.
        let best = a.get("best").str().to_string();
        assert!(!got.contains_key(&best), "{id}: best {best} is forbidden");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(matched >= 80, "only {matched} cases matched");
}
