//! A seeded, repeatable protocol fuzzer: the real `pbrain-lianzhu`, fed generated command
//! streams through its pipes (each stream written at once, so most commands arrive while a
//! search runs), over every rule and board sizes 5..=32.
//!
//! Each stream is a valid session (START/RECTSTART, INFO, BEGIN, TURN, BOARD, YXBOARD,
//! TAKEBACK, PLAY, RESTART, YXNBEST, YXSEARCHDEFEND, YXBLOCK..., SWAP2BOARD, YXSHOWFORBID,
//! STOP, ABOUT, unknown words) with random mutations: dropped, duplicated, swapped and moved
//! lines, wrong case, CR LF / LF / CR CR LF mixes and stray whitespace, random, huge and
//! negative numbers, off-board and occupied points, BOARD without DONE, nested
//! BOARD/YXBOARD, TAKEBACK of the wrong stone, RECTSTART of odd sizes, INFO with every key
//! and bad values, binary bytes and invalid UTF-8, very long lines, interrupts. A standard
//! session follows every stream; half the streams end with `END`, the others with end of
//! input. Most streams are written at once; some are paced (short pauses after some lines),
//! so that commands also arrive while a search is running.
//!
//! After each stream, checked against a model of the session (the library's own line parser
//! and board, the protocol's rules from protocol.md):
//! - the process exited by itself with status 0, within the stream's limit, stderr empty
//!   (no panic, no abort, no log);
//! - every stdout line ends in LF alone, is UTF-8 and is a well-formed protocol line;
//! - the answers are, in order, exactly the ones protocol.md gives each command (`OK`,
//!   `ERROR`, `UNKNOWN`, a move, `FORBID`, the `ABOUT` line, a Swap2 answer), with `MESSAGE`
//!   lines anywhere and `INFO` records only under `show_detail` 2 or 3;
//! - every move is on the board, on an empty point, legal under the rule (renju fouls), not
//!   a blocked point unless every legal point is, and arrives within its turn time plus a
//!   grace after the answer before it;
//! - `YXSHOWFORBID` lists exactly black's forbidden points (renju), else none;
//! - the standard session at the end plays legal moves (the state was not corrupted).
//!
//! `LIANZHU_FUZZ_STREAMS=n` runs n streams (default [`STREAMS`]) from stream
//! `LIANZHU_FUZZ_FIRST` (default 0), `LIANZHU_FUZZ_ONLY=i` only stream i; a failing stream's
//! input and output are written to the test's temporary directory (every stream's input with
//! `LIANZHU_FUZZ_DUMP` set).

use crate::common::{run_paced, Piped, Rng, StdinEnd};
use lianzhu::protocol::command::{is_end, Command, Field, Info, Parser, StoneLine};
use lianzhu::rules::{self, Board};
use lianzhu::types::{Color, Pos, Rule};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Streams per run.
const STREAMS: usize = 1000;
/// Seed of stream 0 (stream i uses `SEED + i`, mixed).
const SEED: u64 = 0x6c69_616e_7a68_7530;
/// Streams run at once (the machine has 2 cores).
const PARALLEL: usize = 2;
/// Percentage of streams written in paced chunks rather than at once.
const PACED_PERCENT: usize = 15;
/// Slack on top of a move's turn time (a loaded machine, a 32x32 board's set-up).
const GRACE: Duration = Duration::from_millis(600);
/// The search time of `timeout_turn` 0 or less ("move at once") that the grace is added to.
const INSTANT: Duration = Duration::from_millis(15);
/// Longest an `ERROR`/`UNKNOWN` line may be (quoted input is cut to 80 characters).
const MAX_ERROR_LEN: usize = 300;

/// Turn times the fuzzer sends (ms): short, so that thousands of searches fit in a minute;
/// `timeout_turn` values are never mutated into long ones.
const TURNS: [&str; 6] = ["0", "35", "40", "45", "60", "-7"];

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

fn chance(rng: &mut Rng, percent: usize) -> bool {
    rng.below(100) < percent
}

/// Numbers that test the parser and the engine's limits.
const WEIRD_NUMBERS: [&str; 22] = [
    "-1",
    "-0",
    "+3",
    "0",
    "1",
    "4",
    "5",
    "31",
    "32",
    "33",
    "100",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999999",
    "1e3",
    "0x10",
    "7.5",
    "",
];

/// Values for an INFO key: mostly good ones, sometimes bad; never a long turn time or a huge
/// hash (the fuzzer's time and memory budget).
fn info_value(rng: &mut Rng, key: &str) -> String {
    let bad = [
        "abc",
        "",
        "-",
        "1,2",
        "99999999999999999999999",
        "\u{e9}",
        "-1",
    ];
    if chance(rng, 25) {
        return pick(rng, &bad).to_string();
    }
    match key {
        "timeout_turn" => pick(rng, &TURNS).to_string(),
        "timeout_match" => pick(
            rng,
            &["0", "1", "5000", "100000000", "-5", "9223372036854775807"],
        )
        .to_string(),
        "time_left" => pick(
            rng,
            &[
                "2147483647",
                "0",
                "-100",
                "50",
                "1000",
                "9223372036854775807",
                "-9223372036854775808",
            ],
        )
        .to_string(),
        "max_memory" => pick(rng, &["0", "1", "1048576", "67108864", "367001600"]).to_string(),
        "hash_size" => pick(rng, &["0", "1", "64", "1024", "4096"]).to_string(),
        "game_type" => pick(rng, &["0", "1", "2", "3", "7", "-1"]).to_string(),
        "rule" => pick(
            rng,
            &["0", "1", "2", "4", "8", "9", "3", "5", "7", "16", "-1"],
        )
        .to_string(),
        "evaluate" => pick(rng, &["7,7", "0,0", "-1,40", "x,y", "3"]).to_string(),
        "folder" => pick(rng, &["C:\\My AIs\\data", "/tmp/x y", "."]).to_string(),
        "thread_num" => pick(rng, &["1", "2", "0", "64", "65", "100000", "4294967297"]).to_string(),
        "max_node" => pick(rng, &["0", "-1", "1", "1000", "18446744073709551615"]).to_string(),
        "max_depth" => pick(rng, &["0", "-1", "1", "3", "2147483648", "225"]).to_string(),
        "show_detail" => pick(rng, &["0", "1", "2", "3", "4"]).to_string(),
        "pondering" => pick(rng, &["0", "1", "2"]).to_string(),
        _ => pick(rng, &["1", "0", "abc"]).to_string(),
    }
}

const INFO_KEYS: [&str; 16] = [
    "timeout_turn",
    "timeout_match",
    "time_left",
    "max_memory",
    "hash_size",
    "game_type",
    "rule",
    "evaluate",
    "folder",
    "thread_num",
    "max_node",
    "max_depth",
    "show_detail",
    "pondering",
    "caution_factor",
    "time_increment",
];

/// A point near the middle of a w x h board (sometimes anywhere).
fn point(rng: &mut Rng, w: usize, h: usize) -> (usize, usize) {
    if chance(rng, 30) {
        return (rng.below(w), rng.below(h));
    }
    let (cx, cy) = (w / 2, h / 2);
    let x = (cx + rng.below(7)).saturating_sub(3).min(w - 1);
    let y = (cy + rng.below(7)).saturating_sub(3).min(h - 1);
    (x, y)
}

/// Distinct random points, near the middle.
fn points(rng: &mut Rng, w: usize, h: usize, n: usize) -> Vec<(usize, usize)> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for _ in 0..n * 4 {
        if out.len() == n {
            break;
        }
        let p = if chance(rng, 50) {
            point(rng, w, h)
        } else {
            (rng.below(w), rng.below(h))
        };
        if seen.insert(p) {
            out.push(p);
        }
    }
    out
}

/// A valid session (before mutation): lines without line ends.
fn session(rng: &mut Rng) -> Vec<String> {
    let mut out = Vec::new();
    let (mut w, mut h) = (5 + rng.below(28), 0);
    h = if chance(rng, 20) {
        5 + rng.below(28)
    } else {
        h.max(w)
    };
    if chance(rng, 10) {
        out.push("ABOUT".to_string());
    }
    if chance(rng, 20) {
        let key = pick(rng, &INFO_KEYS);
        out.push(format!("INFO {key} {}", info_value(rng, key)));
    }
    out.push(if w == h {
        format!("START {w}")
    } else {
        format!("RECTSTART {w},{h}")
    });
    out.push(format!(
        "INFO rule {}",
        pick(rng, &["0", "1", "4", "2", "8", "9"])
    ));
    for _ in 0..rng.below(3) {
        let key = pick(rng, &INFO_KEYS);
        out.push(format!("INFO {key} {}", info_value(rng, key)));
    }
    let actions = 3 + rng.below(10);
    let mut last_turn: Option<(usize, usize)> = None;
    for _ in 0..actions {
        match rng.below(24) {
            0 | 1 => out.push("BEGIN".into()),
            2..=5 => {
                let (x, y) = point(rng, w, h);
                out.push(format!("TURN {x},{y}"));
                last_turn = Some((x, y));
            }
            6..=8 => {
                let n = rng.below((w * h / 3).min(24) + 1);
                out.push(pick(rng, &["BOARD", "board"]).into());
                let stones = points(rng, w, h, n);
                let own_first = chance(rng, 50);
                for (i, (x, y)) in stones.iter().enumerate() {
                    let f = if chance(rng, 3) {
                        3
                    } else if (i % 2 == 0) == own_first {
                        1
                    } else {
                        2
                    };
                    out.push(format!("{x},{y},{f}"));
                }
                out.push("DONE".into());
                last_turn = stones.last().copied();
            }
            9 => {
                let n = rng.below(12);
                let stones = points(rng, w, h, n);
                out.push("YXBOARD".into());
                for (i, (x, y)) in stones.iter().enumerate() {
                    out.push(format!("{x},{y},{}", 1 + i % 2));
                }
                out.push("DONE".into());
                if chance(rng, 50) {
                    out.push("YXSHOWFORBID".into());
                }
                if let (Some((x, y)), true) = (stones.last(), chance(rng, 50)) {
                    // The last listed stone: a good TAKEBACK.
                    out.push(format!("TAKEBACK {x},{y}"));
                }
            }
            10 => {
                // The opponent's last stone is not the last one played after our answer:
                // TAKEBACK of the wrong stone.
                let (x, y) = last_turn.unwrap_or_else(|| point(rng, w, h));
                out.push(format!("TAKEBACK {x},{y}"));
            }
            11 => out.push("RESTART".into()),
            12 => {
                let (x, y) = point(rng, w, h);
                out.push(format!("PLAY {x},{y}"));
            }
            13 => out.push(format!("YXNBEST {}", 1 + rng.below(4))),
            14 => out.push("YXSEARCHDEFEND".into()),
            15 => {
                let kind = pick(rng, &["YXBLOCK", "YXBLOCKUNDO", "yxblock"]);
                out.push(kind.into());
                let n = rng.below(4);
                for (x, y) in points(rng, w, h, n) {
                    out.push(format!("{x},{y}"));
                }
                out.push("DONE".into());
            }
            16 => out.push("YXBLOCKRESET".into()),
            17 => {
                let n = pick(rng, &["0", "3", "5", "0", "3", "2"]).parse().unwrap();
                out.push("SWAP2BOARD".into());
                for (x, y) in points(rng, w, h, n) {
                    out.push(format!("{x},{y}"));
                }
                out.push("DONE".into());
            }
            18 => {
                let key = pick(rng, &INFO_KEYS);
                out.push(format!("INFO {key} {}", info_value(rng, key)));
            }
            19 => {
                out.push(pick(rng, &["STOP", "YXSTOP", "INFO timeout_turn 0"]).into());
                out.push(format!("INFO timeout_turn {}", pick(rng, &TURNS)));
            }
            20 => out.push(
                pick(
                    rng,
                    &[
                        "YXHASHCLEAR",
                        "YXSHOWINFO",
                        "ABOUT",
                        "YXSHOWFORBID",
                        "yxshowforbid",
                    ],
                )
                .into(),
            ),
            21 => out.push(
                pick(
                    rng,
                    &[
                        "SUGGEST 1,1",
                        "yxbalanceone 3",
                        "FOO",
                        "X",
                        "?",
                        "yxprintfeature",
                    ],
                )
                .into(),
            ),
            22 => {
                // A new game, maybe of another size.
                if chance(rng, 50) {
                    w = 5 + rng.below(28);
                    h = w;
                }
                out.push(format!("START {w}"));
            }
            _ => {
                let (x, y) = (rng.below(w + 2), rng.below(h + 2));
                out.push(format!("TURN {x}, {y}"));
            }
        }
    }
    out
}

/// Replaces the `k`-th run of digits (with its sign) in `line` by `with`.
fn replace_number(line: &[u8], rng: &mut Rng, with: &str) -> Vec<u8> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < line.len() {
        if line[i].is_ascii_digit() {
            let start = if i > 0 && line[i - 1] == b'-' {
                i - 1
            } else {
                i
            };
            let mut end = i;
            while end < line.len() && line[end].is_ascii_digit() {
                end += 1;
            }
            runs.push((start, end));
            i = end;
        } else {
            i += 1;
        }
    }
    if runs.is_empty() {
        return line.to_vec();
    }
    let (a, b) = runs[rng.below(runs.len())];
    let mut out = line[..a].to_vec();
    out.extend_from_slice(with.as_bytes());
    out.extend_from_slice(&line[b..]);
    out
}

/// The INFO key of a line, lower case, if it is one.
fn info_key(line: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(line).to_ascii_lowercase();
    let mut words = text.split_whitespace();
    (words.next()? == "info").then(|| words.next().unwrap_or("").to_string())
}

/// The kinds of mutation, counted in the report.
const MUTATIONS: [&str; 17] = [
    "drop",
    "duplicate",
    "swap",
    "move",
    "case",
    "number",
    "off-board",
    "no-done",
    "nested",
    "rectstart",
    "bad-info",
    "binary",
    "long-line",
    "interrupt",
    "whitespace",
    "blank",
    "cr",
];

/// Applies mutation `kind` to `lines`.
fn mutate(lines: &mut Vec<Vec<u8>>, rng: &mut Rng, kind: usize) {
    if lines.is_empty() {
        return;
    }
    let n = lines.len();
    let i = rng.below(n);
    match MUTATIONS[kind] {
        "drop" => {
            lines.remove(i);
        }
        "duplicate" => {
            let l = lines[i].clone();
            lines.insert(i, l);
        }
        "swap" => {
            if i + 1 < n {
                lines.swap(i, i + 1);
            }
        }
        "move" => {
            let l = lines.remove(i);
            let j = rng.below(lines.len() + 1);
            lines.insert(j, l);
        }
        "case" => {
            for b in &mut lines[i] {
                if chance(rng, 50) {
                    *b = if b.is_ascii_uppercase() {
                        b.to_ascii_lowercase()
                    } else {
                        b.to_ascii_uppercase()
                    };
                }
            }
        }
        "number" => {
            let with = match info_key(&lines[i]).as_deref() {
                Some("timeout_turn") => pick(rng, &TURNS),
                Some("hash_size" | "max_memory") => pick(rng, &["0", "-1", "x", "1"]),
                _ => pick(rng, &WEIRD_NUMBERS),
            };
            lines[i] = replace_number(&lines[i], rng, with);
        }
        "off-board" => {
            let with = pick(rng, &["-1", "32", "33", "1000", "-2147483648", "15"]);
            lines[i] = replace_number(&lines[i], rng, with);
        }
        "no-done" => {
            if let Some(j) = lines.iter().position(|l| l.eq_ignore_ascii_case(b"DONE")) {
                lines.remove(j);
            }
        }
        "nested" => {
            let opener = pick(rng, &["BOARD", "YXBOARD", "SWAP2BOARD", "YXBLOCK", "DONE"]);
            let at = lines
                .iter()
                .position(|l| l.first().is_some_and(u8::is_ascii_digit))
                .unwrap_or(i);
            lines.insert(at, opener.as_bytes().to_vec());
        }
        "rectstart" => {
            let sizes = [
                "0", "1", "4", "5", "6", "17", "31", "32", "33", "-5", "x", "",
            ];
            let (a, b) = (pick(rng, &sizes), pick(rng, &sizes));
            let line = match rng.below(4) {
                0 => format!("RECTSTART {a}"),
                1 => format!("RECTSTART {a},{b},{a}"),
                _ => format!("RECTSTART {a},{b}"),
            };
            lines.insert(i, line.into_bytes());
        }
        "bad-info" => {
            let key = pick(rng, &INFO_KEYS);
            let bad = pick(
                rng,
                &[
                    "abc",
                    "",
                    "-",
                    "1,2",
                    "\u{1}",
                    "7 7",
                    "9999999999999999999999",
                ],
            );
            lines.insert(i, format!("INFO {key} {bad}").into_bytes());
        }
        "binary" => {
            let mut junk: Vec<u8> = (0..1 + rng.below(12)).map(|_| rng.next() as u8).collect();
            junk.retain(|&b| b != b'\n');
            if chance(rng, 50) {
                junk.extend_from_slice(b"\xff\xfe\xc3");
            }
            let at = rng.below(lines[i].len() + 1);
            lines[i].splice(at..at, junk);
        }
        "long-line" => {
            let len = 1_000 + rng.below(200_000);
            let line = match rng.below(5) {
                0 => vec![b'X'; len],
                1 => [b"TURN 1,".to_vec(), vec![b'9'; len]].concat(),
                2 => [b"INFO folder ".to_vec(), vec![b'a'; len]].concat(),
                3 => [vec![b'7'; len], b",7,1".to_vec()].concat(),
                _ => (0..len).map(|_| b'!' + (rng.next() % 90) as u8).collect(),
            };
            lines.insert(i, line);
        }
        "interrupt" => {
            let stop = pick(rng, &["STOP", "YXSTOP", "yxstop", "INFO timeout_turn 0"]);
            lines.insert(i, stop.as_bytes().to_vec());
        }
        "whitespace" => {
            let mut l = b"  \t".to_vec();
            l.extend_from_slice(&lines[i]);
            l.extend_from_slice(b" \t ");
            lines[i] = l;
        }
        "blank" => lines.insert(i, pick(rng, &["", " ", "\t", "\r"]).as_bytes().to_vec()),
        _ => {
            // A CR inside a line.
            let at = rng.below(lines[i].len() + 1);
            lines[i].insert(at, b'\r');
        }
    }
}

/// A line end, mostly as managers send them.
fn line_end(rng: &mut Rng) -> &'static [u8] {
    match rng.below(20) {
        0..=9 => b"\n",
        10..=17 => b"\r\n",
        18 => b"\r\r\n",
        _ => b" \n",
    }
}

/// The session every stream ends with; the model checks that it plays legal moves.
fn standard_session(rng: &mut Rng) -> (Vec<String>, usize) {
    let size = pick(rng, &["15", "20"]);
    let rule = pick(rng, &["0", "1", "4", "8"]);
    let mut s: Vec<String> = [
        format!("START {size}"),
        format!("INFO rule {rule}"),
        "INFO timeout_turn 40".into(),
        "INFO show_detail 0".into(),
        "INFO pondering 0".into(),
        "INFO max_node 0".into(),
        "INFO max_depth 0".into(),
        "INFO thread_num 1".into(),
        "YXBLOCKRESET".into(),
        "BEGIN".into(),
    ]
    .into();
    // Far from the centre, where the engine does not play this early.
    for (x, y) in [(0, 0), (13, 1), (1, 13)] {
        s.push(format!("TURN {x},{y}"));
    }
    (s, 4)
}

/// One generated stream.
struct Stream {
    input: Vec<u8>,
    /// The input as written: chunks and the pause after each (one chunk for most streams;
    /// a paced stream pauses after some lines, so commands arrive while a search runs).
    chunks: Vec<(Vec<u8>, Duration)>,
    /// Lines sent (one per line end).
    lines: usize,
    /// The stream ends with END (else with end of input).
    ends_with_end: bool,
    /// Mutations applied, by kind.
    mutations: Vec<usize>,
    /// How many moves the standard session must answer.
    standard_moves: usize,
    /// The input line (0-based, split at LF) where the standard session starts.
    standard_first_line: usize,
}

fn generate(index: usize) -> Stream {
    let mut rng = Rng((SEED ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1);
    for _ in 0..4 {
        rng.next();
    }
    let mut body: Vec<Vec<u8>> = session(&mut rng)
        .into_iter()
        .map(String::into_bytes)
        .collect();
    let mut mutations = Vec::new();
    for _ in 0..rng.below(6) {
        let kind = rng.below(MUTATIONS.len());
        mutate(&mut body, &mut rng, kind);
        mutations.push(kind);
    }
    // Unmutated: short turns and a small hash, so a stream costs little time and memory.
    let mut input = format!(
        "INFO timeout_turn {}\nINFO hash_size 1024\n",
        pick(&mut rng, &TURNS)
    )
    .into_bytes();
    let mut lines = 2;
    let paced = chance(&mut rng, PACED_PERCENT);
    let mut chunks = Vec::new();
    for l in &body {
        input.extend_from_slice(l);
        input.extend_from_slice(line_end(&mut rng));
        lines += 1;
        if paced && chance(&mut rng, 30) {
            let pause = Duration::from_millis(rng.below(25) as u64);
            chunks.push((std::mem::take(&mut input), pause));
        }
    }
    // Ends a line the body left open.
    input.push(b'\n');
    let standard_first_line = 2 + body.len() + 1;
    let (standard, standard_moves) = standard_session(&mut rng);
    for l in &standard {
        input.extend_from_slice(l.as_bytes());
        input.extend_from_slice(line_end(&mut rng));
        lines += 1;
    }
    let ends_with_end = chance(&mut rng, 50);
    if ends_with_end {
        input.extend_from_slice(pick(&mut rng, &["END\n", "end\r\n", " End \n"]).as_bytes());
        // Never read.
        input.extend_from_slice(b"ABOUT\nBEGIN\n");
        lines += 1;
    }
    chunks.push((input, Duration::ZERO));
    let input = chunks.iter().flat_map(|(c, _)| c.iter().copied()).collect();
    Stream {
        input,
        chunks,
        lines,
        ends_with_end,
        mutations,
        standard_moves,
        standard_first_line,
    }
}

/// What one command must be answered with.
#[derive(Clone, Debug, PartialEq)]
enum Expect {
    Ok,
    Error,
    Unknown,
    /// A move, or `ERROR` when there is no legal point; `turn` is its time limit.
    Move {
        turn: Duration,
    },
    /// Exactly this point (`PLAY`).
    Echo(usize, usize),
    About,
    Forbid(BTreeSet<(usize, usize)>),
    /// A Swap2 answer to these stones (`SWAP` or new stones), or `ERROR` (a five among
    /// them, no legal point).
    Swap2 {
        turn: Duration,
        stones: Vec<(usize, usize)>,
    },
}

/// The session as protocol.md says the brain keeps it.
struct Model {
    board: Option<Board>,
    rule: Rule,
    turn_ms: i64,
    show_detail: u8,
    blocked: Vec<Pos>,
}

impl Model {
    fn new() -> Model {
        Model {
            board: None,
            rule: Rule::Freestyle,
            turn_ms: 5000,
            show_detail: 0,
            blocked: Vec::new(),
        }
    }

    fn turn(&self) -> Duration {
        if self.turn_ms <= 0 {
            INSTANT
        } else {
            Duration::from_millis(self.turn_ms as u64)
        }
    }

    fn pos(&self, x: i64, y: i64) -> Option<Pos> {
        self.board.as_ref()?.pos(x, y).ok()
    }

    fn start(&mut self, w: usize, h: usize) -> Expect {
        match Board::new(w, h) {
            Ok(b) if (5..=32).contains(&w) && (5..=32).contains(&h) => {
                if self
                    .board
                    .as_ref()
                    .is_none_or(|old| (old.width(), old.height()) != (w, h))
                {
                    self.blocked.clear();
                }
                self.board = Some(b);
                Expect::Ok
            }
            _ => Expect::Error,
        }
    }

    /// The position of a BOARD/YXBOARD block, or `None` if the block is refused.
    fn position(&self, stones: &[StoneLine]) -> Option<Board> {
        let old = self.board.as_ref()?;
        if stones.iter().any(|s| s.field == Field::Continuous) {
            return None;
        }
        let own = stones.iter().filter(|s| s.field == Field::Own).count();
        let opp = stones.len() - own;
        let own_black = own == opp || (opp != own + 1 && stones[0].field == Field::Own);
        let to_move = if own_black {
            Color::Black
        } else {
            Color::White
        };
        let mut b = Board::new(old.width(), old.height()).ok()?;
        for s in stones {
            let p = b.pos(s.x, s.y).ok()?;
            b.check_empty(p).ok()?;
            let c = if s.field == Field::Own {
                to_move
            } else {
                to_move.opponent()
            };
            b.place(p, c);
        }
        b.set_side_to_move(to_move);
        Some(b)
    }

    /// `YXBLOCK` (`add`) or `YXBLOCKUNDO`: nothing, or `ERROR` (then nothing changes).
    fn block(&mut self, points: &[(i64, i64)], add: bool) -> Option<Expect> {
        if self.board.is_none() {
            return Some(Expect::Error);
        }
        let ps: Option<Vec<Pos>> = points.iter().map(|&(x, y)| self.pos(x, y)).collect();
        let Some(ps) = ps else {
            return Some(Expect::Error);
        };
        if add {
            for p in ps {
                if !self.blocked.contains(&p) {
                    self.blocked.push(p);
                }
            }
        } else {
            self.blocked.retain(|p| !ps.contains(p));
        }
        None
    }

    fn move_expected(&self) -> Expect {
        Expect::Move { turn: self.turn() }
    }

    /// The expected answer to `cmd`, with the model updated as the brain updates its state
    /// (a move answer is applied when it is checked).
    fn apply(&mut self, cmd: Command) -> Option<Expect> {
        let started = self.board.is_some();
        let fail = Some(Expect::Error);
        match cmd {
            Command::Start(n) => Some(self.start(n, n)),
            Command::RectStart(w, h) => Some(self.start(w, h)),
            Command::Restart => {
                let Some(b) = self.board.as_ref() else {
                    return fail;
                };
                self.board = Some(Board::new(b.width(), b.height()).unwrap());
                Some(Expect::Ok)
            }
            Command::Begin | Command::YxNbest(_) | Command::YxSearchDefend => {
                started.then(|| self.move_expected()).or(fail)
            }
            Command::Turn(x, y) => {
                let Some(p) = self.pos(x, y) else { return fail };
                let b = self.board.as_mut().unwrap();
                if b.try_make(p).is_err() {
                    return fail;
                }
                Some(self.move_expected())
            }
            Command::Board(stones) => match self.position(&stones) {
                Some(b) => {
                    self.board = Some(b);
                    Some(self.move_expected())
                }
                None => fail,
            },
            Command::YxBoard(stones) => match self.position(&stones) {
                Some(b) => {
                    self.board = Some(b);
                    None
                }
                None => fail,
            },
            Command::Swap2Board(points) => {
                let ps: Option<Vec<Pos>> = points.iter().map(|&(x, y)| self.pos(x, y)).collect();
                let (true, Some(ps)) = (started, ps) else {
                    return fail;
                };
                let distinct: BTreeSet<Pos> = ps.iter().copied().collect();
                if !matches!(ps.len(), 0 | 3 | 5) || distinct.len() != ps.len() {
                    return fail;
                }
                Some(Expect::Swap2 {
                    turn: self.turn(),
                    stones: ps.iter().map(|p| (p.x(), p.y())).collect(),
                })
            }
            Command::Info(info) => {
                match info {
                    Info::TimeoutTurn(t) => self.turn_ms = t,
                    Info::Rule(r) => {
                        if let Some(rule) = Rule::from_gomocup(r) {
                            self.rule = rule;
                        }
                    }
                    Info::ShowDetail(d) => self.show_detail = d,
                    _ => {}
                }
                None
            }
            Command::About => Some(Expect::About),
            Command::Takeback(x, y) => {
                let Some(p) = self.pos(x, y) else { return fail };
                let b = self.board.as_mut().unwrap();
                if b.last_move() != Some(p) {
                    return fail;
                }
                b.undo().unwrap();
                Some(Expect::Ok)
            }
            Command::Play(x, y) => {
                let Some(p) = self.pos(x, y) else { return fail };
                let b = self.board.as_mut().unwrap();
                if b.try_make(p).is_err() {
                    return fail;
                }
                Some(Expect::Echo(p.x(), p.y()))
            }
            Command::Stop | Command::End | Command::YxHashClear | Command::YxShowInfo => None,
            Command::YxShowForbid => {
                let list = match (&self.board, self.rule) {
                    (Some(b), Rule::Renju) => rules::forbidden_points(b)
                        .into_iter()
                        .map(|(p, _)| (p.x(), p.y()))
                        .collect(),
                    _ => BTreeSet::new(),
                };
                Some(Expect::Forbid(list))
            }
            Command::YxBlock(points) => self.block(&points, true),
            Command::YxBlockUndo(points) => self.block(&points, false),
            Command::YxBlockReset => {
                if !started {
                    return fail;
                }
                self.blocked.clear();
                None
            }
            Command::Unknown(_) => Some(Expect::Unknown),
            // Not generated here (their replies are MESSAGE lines the model does not keep):
            // tests/suite/yixin_opening.rs covers Yixin-Board's opening steps.
            Command::YxSwap2Step(_) | Command::YxSoosorvStep { .. } => {
                unreachable!("the fuzzer does not send yxswap2step / yxsoosorvstep")
            }
        }
    }
}

/// The input as the brain's reader splits it: at LF, lossily decoded.
fn input_lines(input: &[u8]) -> Vec<String> {
    input
        .split_inclusive(|&b| b == b'\n')
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .collect()
}

/// A move `x,y` (decimal digits only).
fn parse_move(line: &str) -> Option<(usize, usize)> {
    let (x, y) = line.split_once(',')?;
    let digits = |t: &str| !t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(x) || !digits(y) {
        return None;
    }
    Some((x.parse().ok()?, y.parse().ok()?))
}

fn parse_forbid(line: &str) -> Option<BTreeSet<(usize, usize)>> {
    let list = line.strip_prefix("FORBID ")?.strip_suffix('.')?;
    if list.len() % 4 != 0 || !list.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(
        (0..list.len() / 4)
            .map(|i| {
                let q = &list[i * 4..i * 4 + 4];
                (q[..2].parse().unwrap(), q[2..].parse().unwrap())
            })
            .collect(),
    )
}

/// A text line `KEYWORD text`: non-empty text without control characters.
fn is_text_line(line: &str, keyword: &str, max: usize) -> bool {
    line.strip_prefix(keyword)
        .and_then(|t| t.strip_prefix(' '))
        .is_some_and(|t| !t.trim().is_empty() && !t.chars().any(char::is_control))
        && line.len() <= max
}

/// The brain's output lines with their arrival times; fails on a line that does not end in
/// LF alone or is not UTF-8.
fn output_lines(run: &Piped) -> Result<Vec<(String, Duration)>, String> {
    let mut out = Vec::new();
    let mut raw = run.stdout.split_inclusive(|&b| b == b'\n');
    for (i, chunk) in raw.by_ref().enumerate() {
        let Some(line) = chunk.strip_suffix(b"\n") else {
            return Err(format!(
                "output ends without LF: {:?}",
                String::from_utf8_lossy(chunk)
            ));
        };
        let line = String::from_utf8(line.to_vec()).map_err(|e| format!("not UTF-8: {e}"))?;
        if line.contains('\r') {
            return Err(format!("CR in {line:?}"));
        }
        out.push((line, run.line_times[i]));
    }
    Ok(out)
}

/// Figures of a run, for the report.
#[derive(Default, Debug)]
struct Tally {
    streams: usize,
    lines: usize,
    bytes: usize,
    commands: usize,
    moves: usize,
    errors: usize,
    ended: usize,
    mutations: [usize; MUTATIONS.len()],
    /// The slowest search answer: how long over its turn time, and which stream.
    slowest: (Duration, usize),
}

/// What [`check`] counted in a stream that passed.
struct Counts {
    commands: usize,
    moves: usize,
    errors: usize,
    /// The longest a search answer took beyond its turn time.
    overrun: Duration,
}

/// Checks one stream's run against the model.
fn check(stream: &Stream, run: &Piped) -> Result<Counts, String> {
    if run.status.is_none() {
        return Err(format!("hang: still running after {:?}", run.elapsed));
    }
    if !run.exited_ok() {
        return Err(format!("exit status {:?}", run.status));
    }
    if !run.stderr.is_empty() {
        return Err(format!("stderr: {}", run.stderr));
    }
    let out = output_lines(run)?;
    let mut cursor = 0usize;
    let mut last_reply = Duration::ZERO;
    let mut model = Model::new();
    let mut parser = Parser::new();
    let (mut commands, mut moves, mut errors, mut standard_moves) = (0, 0, 0, 0);
    let mut overrun = Duration::ZERO;
    for (index, line) in input_lines(&stream.input).iter().enumerate() {
        let end = is_end(line);
        for result in parser.feed(line) {
            commands += 1;
            let expect = match result {
                Err(_) => Some(Expect::Error),
                Ok(Command::End) => None,
                Ok(cmd) => model.apply(cmd),
            };
            let Some(expect) = expect else { continue };
            // The next answer, past progress lines.
            let (reply, at) = loop {
                let Some((l, t)) = out.get(cursor) else {
                    return Err(format!(
                        "line {index} {line:?}: no answer, expected {expect:?}"
                    ));
                };
                cursor += 1;
                if l.starts_with("MESSAGE") {
                    if !is_text_line(l, "MESSAGE", 2000) {
                        return Err(format!("bad MESSAGE line {l:?}"));
                    }
                    continue;
                }
                if l.starts_with("INFO ") && model.show_detail & 2 != 0 {
                    continue;
                }
                break (l.clone(), *t);
            };
            let bad = |why: &str| {
                Err(format!(
                    "line {index} {line:?}: expected {expect:?}, got {reply:?} ({why})"
                ))
            };
            let waited = at.saturating_sub(last_reply);
            last_reply = at;
            match &expect {
                Expect::Ok if reply == "OK" => {}
                Expect::Error | Expect::Unknown => {
                    let keyword = if expect == Expect::Error {
                        "ERROR"
                    } else {
                        "UNKNOWN"
                    };
                    if !is_text_line(&reply, keyword, MAX_ERROR_LEN) {
                        return bad("not a short text line of that keyword");
                    }
                    errors += 1;
                }
                Expect::About if reply.starts_with("name=\"Lianzhu\", version=\"") => {}
                Expect::Forbid(want) => match parse_forbid(&reply) {
                    Some(got) if &got == want => {}
                    _ => return bad("not black's forbidden points"),
                },
                Expect::Echo(x, y) if reply == format!("{x},{y}") => {}
                Expect::Move { turn } | Expect::Swap2 { turn, .. } => {
                    if waited > *turn + GRACE {
                        return bad(&format!("answered after {waited:?}, turn {turn:?}"));
                    }
                    overrun = overrun.max(waited.saturating_sub(*turn));
                    if let Expect::Swap2 { stones, .. } = &expect {
                        let b = model.board.as_ref().unwrap();
                        if reply.starts_with("ERROR ") {
                            if !is_text_line(&reply, "ERROR", MAX_ERROR_LEN) {
                                return bad("a bad ERROR line");
                            }
                            errors += 1;
                            continue;
                        }
                        let new: Option<Vec<(usize, usize)>> = if reply == "SWAP" {
                            Some(Vec::new())
                        } else {
                            reply.split(' ').map(parse_move).collect()
                        };
                        let Some(new) = new else {
                            return bad("not a Swap2 answer");
                        };
                        let counts: &[usize] = match stones.len() {
                            0 => &[3],
                            3 => &[0, 1, 2],
                            _ => &[0, 1],
                        };
                        let distinct: BTreeSet<_> = new.iter().chain(stones).collect();
                        if !counts.contains(&new.len())
                            || distinct.len() != new.len() + stones.len()
                            || new.iter().any(|&(x, y)| x >= b.width() || y >= b.height())
                        {
                            return bad("not a Swap2 answer to these stones");
                        }
                        continue;
                    }
                    let rule = model.rule;
                    let b = model.board.as_mut().unwrap();
                    let me = b.side_to_move();
                    let legal: Vec<Pos> = b
                        .empty_points()
                        .filter(|&p| rules::is_legal(b, p, me, rule))
                        .collect();
                    if legal.is_empty() {
                        if !is_text_line(&reply, "ERROR", MAX_ERROR_LEN) {
                            return bad("no legal point: ERROR expected");
                        }
                        errors += 1;
                        continue;
                    }
                    let Some((x, y)) = parse_move(&reply) else {
                        return bad("not a move");
                    };
                    let Ok(p) = b.pos(x as i64, y as i64) else {
                        return bad("off the board");
                    };
                    if !legal.contains(&p) {
                        return bad("occupied or a foul");
                    }
                    if model.blocked.contains(&p)
                        && !legal.iter().all(|q| model.blocked.contains(q))
                    {
                        return bad("a blocked point");
                    }
                    b.make(p);
                    moves += 1;
                    if index >= stream.standard_first_line {
                        standard_moves += 1;
                    }
                }
                _ => return bad("wrong kind of answer"),
            }
        }
        if end {
            break;
        }
    }
    if let Some((extra, _)) = out[cursor..].iter().find(|(l, _)| {
        !(l.starts_with("MESSAGE ") || l.starts_with("INFO ") && model.show_detail & 2 != 0)
    }) {
        return Err(format!(
            "unexpected answer after the last command: {extra:?}"
        ));
    }
    if standard_moves != stream.standard_moves {
        return Err(format!(
            "the standard session played {standard_moves} moves, not {}",
            stream.standard_moves
        ));
    }
    Ok(Counts {
        commands,
        moves,
        errors,
        overrun,
    })
}

/// The time a stream may take at most: its move commands' turns and graces, and a start-up.
fn stream_limit(stream: &Stream) -> Duration {
    let mut parser = Parser::new();
    let searches = input_lines(&stream.input)
        .iter()
        .flat_map(|l| parser.feed(l))
        .filter(|c| {
            matches!(
                c,
                Ok(Command::Begin
                    | Command::Turn(..)
                    | Command::Board(_)
                    | Command::YxNbest(_)
                    | Command::YxSearchDefend
                    | Command::Swap2Board(_))
            )
        })
        .count();
    let pauses: Duration = stream.chunks.iter().map(|(_, p)| *p).sum();
    Duration::from_secs(3) + pauses + (Duration::from_millis(60) + GRACE) * searches as u32
}

fn env_number(name: &str) -> Option<usize> {
    std::env::var(name).ok()?.trim().parse().ok()
}

#[test]
fn generated_streams_never_break_the_brain() {
    let t0 = Instant::now();
    let (first, count) = match env_number("LIANZHU_FUZZ_ONLY") {
        Some(i) => (i, 1),
        None => (
            env_number("LIANZHU_FUZZ_FIRST").unwrap_or(0),
            env_number("LIANZHU_FUZZ_STREAMS").unwrap_or(STREAMS),
        ),
    };
    let next = AtomicUsize::new(first);
    let tally = Mutex::new(Tally::default());
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..PARALLEL {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= first + count {
                    break;
                }
                let stream = generate(i);
                let run = run_paced(&[], &stream.chunks, StdinEnd::Close, stream_limit(&stream));
                if std::env::var_os("LIANZHU_FUZZ_DUMP").is_some() {
                    let path = format!("{}/fuzz-stream-{i}.txt", env!("CARGO_TARGET_TMPDIR"));
                    let _ = std::fs::write(&path, &stream.input);
                }
                match check(&stream, &run) {
                    Ok(c) => {
                        let mut t = tally.lock().unwrap();
                        if c.overrun >= t.slowest.0 {
                            t.slowest = (c.overrun, i);
                        }
                        let Counts {
                            commands,
                            moves,
                            errors,
                            ..
                        } = c;
                        t.streams += 1;
                        t.lines += stream.lines;
                        t.bytes += stream.input.len();
                        t.commands += commands;
                        t.moves += moves;
                        t.errors += errors;
                        t.ended += usize::from(stream.ends_with_end);
                        for &k in &stream.mutations {
                            t.mutations[k] += 1;
                        }
                    }
                    Err(why) => {
                        let dir = env!("CARGO_TARGET_TMPDIR");
                        let path = format!("{dir}/fuzz-stream-{i}.txt");
                        let _ = std::fs::write(&path, &stream.input);
                        let _ = std::fs::write(format!("{path}.out"), &run.stdout);
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("stream {i} (input in {path}): {why}"));
                    }
                }
            });
        }
    });
    let t = tally.into_inner().unwrap();
    let failures = failures.into_inner().unwrap();
    let kinds: Vec<String> = MUTATIONS
        .iter()
        .zip(t.mutations)
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    eprintln!(
        "protocol fuzz: {} streams passed ({} ended by END), {} lines ({} bytes), {} commands, \
         {} moves, {} ERROR/UNKNOWN answers, in {:.1?}; slowest search answer {:?} over its \
         turn (stream {}); mutations: {}",
        t.streams,
        t.ended,
        t.lines,
        t.bytes,
        t.commands,
        t.moves,
        t.errors,
        t0.elapsed(),
        t.slowest.0,
        t.slowest.1,
        kinds.join(", ")
    );
    assert!(
        failures.is_empty(),
        "{} of {count} streams failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(t.streams, count);
}
