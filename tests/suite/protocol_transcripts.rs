//! Protocol transcripts: the real `pbrain-lianzhu` binary, driven over pipes. Every reply is
//! read with a timeout, so a hung engine fails a test instead of hanging it.
//!
//! "No reply" is checked without sleeping: the next command is `ABOUT`, and its answer must be
//! the very next line.

use crate::common;

use crate::common::{data, Brain, LineCheck};
use lianzhu::notation::parse_pos;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(10);

/// The transcript checks on top of the shared driver.
trait Transcript {
    /// Sends `line` and expects a move (MESSAGE lines skipped); returns it.
    fn ask_move(&mut self, line: &str) -> (i64, i64);
    /// The next move (MESSAGE lines skipped).
    fn read_move(&self) -> (i64, i64);
    /// Sends `line` and expects `ERROR <why>`.
    fn expect_error(&mut self, line: &str);
    /// Asserts that nothing was written since the last reply: the answer to ABOUT comes next.
    fn assert_quiet(&mut self);
    /// Sends a block: `header`, the stone lines, `DONE`.
    fn send_block(&mut self, header: &str, stones: &[(i64, i64, u8)]);
}

impl Transcript for Brain {
    fn ask_move(&mut self, line: &str) -> (i64, i64) {
        self.send(line);
        self.read_move()
    }

    fn read_move(&self) -> (i64, i64) {
        let reply = self.reply();
        parse_move(&reply).unwrap_or_else(|| panic!("expected a move, got {reply}"))
    }

    fn expect_error(&mut self, line: &str) {
        let reply = self.ask(line);
        assert!(
            reply.starts_with("ERROR ") && reply.len() > 6,
            "{line:?} should give ERROR <why>, got {reply}"
        );
    }

    fn assert_quiet(&mut self) {
        let reply = self.ask("ABOUT");
        assert!(
            reply.starts_with("name=\"Lianzhu\""),
            "expected no reply before ABOUT, got {reply}"
        );
    }

    fn send_block(&mut self, header: &str, stones: &[(i64, i64, u8)]) {
        let mut text = format!("{header}\n");
        for (x, y, f) in stones {
            text.push_str(&format!("{x},{y},{f}\n"));
        }
        text.push_str("DONE\n");
        self.send_raw(&text);
    }
}

/// Starts the binary with every output line checked (UTF-8, LF only).
fn start() -> Brain {
    Brain::start(TIMEOUT, LineCheck::Strict)
}

fn parse_move(reply: &str) -> Option<(i64, i64)> {
    let (x, y) = reply.split_once(',')?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

fn started(size: usize) -> Brain {
    let mut b = start();
    assert_eq!(b.ask(&format!("START {size}")), "OK");
    b
}

#[test]
fn about_is_the_first_line_and_well_formed() {
    let mut b = start();
    let line = b.ask("ABOUT");
    let fields: Vec<(&str, &str)> = line
        .split(", ")
        .map(|kv| {
            let (k, v) = kv.split_once('=').expect("key=value");
            let v = v.strip_prefix('"').and_then(|v| v.strip_suffix('"'));
            let v = v.expect("quoted value");
            assert!(!v.contains([',', '=', '"']), "bad value {v}");
            (k, v)
        })
        .collect();
    let keys: Vec<&str> = fields.iter().map(|f| f.0).collect();
    assert_eq!(
        keys,
        ["name", "version", "author"],
        "only fields with a real value (no placeholder country, www, email)"
    );
    assert_eq!(fields[0].1, "Lianzhu");
    assert_eq!(fields[1].1, env!("CARGO_PKG_VERSION"));
    assert_eq!(fields[2].1, "Lianzhu developers");
}

#[test]
fn start_sizes_and_failed_start_keeps_the_game() {
    let mut b = started(5);
    let m = b.ask_move("TURN 0,0");
    for bad in [
        "START 4",
        "START 33",
        "START 0",
        "START",
        "START x",
        "START 15 16",
    ] {
        b.expect_error(bad);
    }
    // The 5x5 game is still there: both stones are in place.
    b.expect_error("TURN 0,0");
    b.expect_error(&format!("TURN {},{}", m.0, m.1));
    b.expect_error("TURN 5,0");
    assert_eq!(b.ask("START 32"), "OK");
    let reply = b.ask_move("TURN 31,31");
    assert!(reply.0 < 32 && reply.1 < 32 && reply != (31, 31));
    assert_eq!(b.ask("START 15"), "OK");
    b.expect_error("TURN 15,15");
}

#[test]
fn rectstart() {
    let mut b = start();
    assert_eq!(b.ask("RECTSTART 20,10"), "OK");
    let m = b.ask_move("TURN 19,9");
    assert!(m.0 < 20 && m.1 < 10 && m != (19, 9), "{m:?}");
    b.expect_error("TURN 10,10");
    for bad in [
        "RECTSTART 4,10",
        "RECTSTART 10,33",
        "RECTSTART 10",
        "RECTSTART a,b",
    ] {
        b.expect_error(bad);
    }
    b.expect_error("TURN 19,9"); // still the 20x10 game with its stones
    assert_eq!(b.ask(&format!("TAKEBACK {},{}", m.0, m.1)), "OK");
    assert_eq!(b.ask("TAKEBACK 19,9"), "OK");
    assert_eq!(b.ask("RECTSTART 32,5"), "OK");
    let m = b.ask_move("TURN 31,4");
    assert!(m.0 < 32 && m.1 < 5, "{m:?}");
}

#[test]
fn game_commands_before_start_are_errors() {
    let mut b = start();
    for bad in ["BEGIN", "TURN 7,7", "RESTART", "TAKEBACK 1,1", "PLAY 1,1"] {
        b.expect_error(bad);
    }
    b.send_block("BOARD", &[]);
    assert!(b.line().starts_with("ERROR "));
    b.send_block("YXBOARD", &[(1, 1, 1)]);
    assert!(b.line().starts_with("ERROR "));
    assert_eq!(b.ask("YXSHOWFORBID"), "FORBID .");
    assert_eq!(b.ask("START 15"), "OK");
    assert_eq!(b.ask_move("BEGIN"), (7, 7));
}

#[test]
fn begin_turn_and_bad_turns_leave_the_game_unchanged() {
    let mut b = started(15);
    let first = b.ask_move("BEGIN");
    assert_eq!(first, (7, 7));
    for bad in [
        "TURN 7,7",
        "TURN 15,0",
        "TURN 0,15",
        "TURN -1,0",
        "TURN a,b",
        "TURN 7",
        "TURN 1,2,3",
    ] {
        b.expect_error(bad);
    }
    let reply = b.ask_move("TURN 8,8");
    assert!(reply != (7, 7) && reply != (8, 8));
    // Exactly three stones: ours, theirs, ours. Take them back newest first.
    assert_eq!(b.ask(&format!("TAKEBACK {},{}", reply.0, reply.1)), "OK");
    b.expect_error("TAKEBACK 7,7"); // not the last stone
    assert_eq!(b.ask("TAKEBACK 8,8"), "OK");
    assert_eq!(b.ask("TAKEBACK 7,7"), "OK");
    b.expect_error("TAKEBACK 7,7"); // the board is empty
    b.expect_error("TAKEBACK 20,20");
}

#[test]
fn restart_clears_the_board_and_keeps_the_size() {
    let mut b = started(10);
    b.ask_move("BEGIN");
    assert_eq!(b.ask("RESTART"), "OK");
    assert_eq!(b.ask_move("BEGIN"), (5, 5)); // the same first move on an empty board
    b.expect_error("TURN 10,0");
    b.ask_move("TURN 9,9");
}

#[test]
fn play_forces_our_move() {
    let mut b = started(15);
    assert_eq!(b.ask("PLAY 3,4"), "3,4");
    b.expect_error("PLAY 3,4");
    b.expect_error("PLAY 15,4");
    b.expect_error("TURN 3,4");
    assert_eq!(b.ask("TAKEBACK 3,4"), "OK");
    assert_eq!(b.ask("PLAY 3,4"), "3,4");
}

/// A renju position for telling the colours apart: the "own" stones x = 0,1,2,3,5 on row 0
/// make 4,0 an overline point, forbidden for black and a win for white.
fn overline_position(own_first: bool, opponent_count: usize) -> Vec<(i64, i64, u8)> {
    let own: Vec<(i64, i64, u8)> = [0, 1, 2, 3, 5].iter().map(|&x| (x, 0, 1)).collect();
    let far = [(0, 10), (3, 12), (6, 10), (9, 12), (12, 10), (14, 14)];
    let opp: Vec<(i64, i64, u8)> = far[..opponent_count]
        .iter()
        .map(|&(x, y)| (x, y, 2))
        .collect();
    let (a, b) = if own_first { (own, opp) } else { (opp, own) };
    let mut out = Vec::new();
    for i in 0..a.len().max(b.len()) {
        out.extend(a.get(i));
        out.extend(b.get(i));
    }
    out
}

#[test]
fn board_side_to_move_follows_the_stone_counts() {
    let mut b = started(15);
    b.send("INFO rule 4");
    // (own stones listed first?, opponent stones, are we black?)
    let cases = [
        (true, 5, true),   // equal counts: we are black
        (false, 6, false), // the opponent has one more: it is black
        (true, 3, true),   // otherwise the first stone's side is black: ours
        (false, 3, false), // ... the opponent's
    ];
    for (own_first, opp, we_are_black) in cases {
        b.send_block("BOARD", &overline_position(own_first, opp));
        let m = b.read_move();
        if we_are_black {
            assert_ne!(m, (4, 0), "black must not play the overline point");
        } else {
            assert_eq!(m, (4, 0), "white wins with the overline");
        }
    }
}

#[test]
fn board_errors_leave_the_position_unchanged() {
    let mut b = started(15);
    b.send_block("BOARD", &[]);
    assert_eq!(b.read_move(), (7, 7), "empty BOARD: we move first");
    b.send_block("BOARD", &[(7, 7, 2), (8, 8, 1), (7, 8, 2)]);
    let m = b.read_move();
    assert!(![(7, 7), (8, 8), (7, 8)].contains(&m));
    let bad_blocks: [&[(i64, i64, u8)]; 4] = [
        &[(1, 1, 1), (1, 1, 2)],  // overlapping stones
        &[(1, 1, 1), (15, 1, 2)], // off the board
        &[(1, 1, 3)],             // continuous-game stone
        &[(1, 1, 4)],             // bad field
    ];
    for stones in bad_blocks {
        b.send_block("BOARD", stones);
        let reply = b.line();
        assert!(reply.starts_with("ERROR "), "{stones:?}: {reply}");
    }
    b.send_raw("BOARD\n1,1\n2,2,1\nDONE\n");
    assert!(b.line().starts_with("ERROR "));
    // The last good position is intact: our move is still the last stone.
    assert_eq!(b.ask(&format!("TAKEBACK {},{}", m.0, m.1)), "OK");
    assert_eq!(b.ask("TAKEBACK 7,8"), "OK");
    b.expect_error("TURN 8,8");
}

#[test]
fn yxboard_sets_the_position_without_a_reply() {
    let mut b = started(15);
    b.send_block("YXBOARD", &[(7, 7, 2), (8, 8, 1), (9, 9, 2)]);
    b.assert_quiet();
    b.expect_error("TURN 8,8");
    assert_eq!(b.ask("TAKEBACK 9,9"), "OK");
    b.send_block("YXBOARD", &[(1, 1, 1), (1, 1, 2)]);
    assert!(b.line().starts_with("ERROR "));
    // Unchanged: 7,7 and 8,8 are still there, and it is the side of 9,9 to move again.
    b.expect_error("TURN 7,7");
    let m = b.ask_move("TURN 9,9");
    assert!(![(7, 7), (8, 8), (9, 9)].contains(&m));
}

struct RenjuCase {
    id: String,
    black: Vec<(i64, i64)>,
    white: Vec<(i64, i64)>,
    forbidden: BTreeSet<(i64, i64)>,
}

fn renju_cases() -> Vec<RenjuCase> {
    let text = data("renju-forbidden.txt");
    let points = |list: &str| -> Vec<(i64, i64)> {
        list.split_whitespace()
            .filter(|w| *w != "-")
            .map(|w| {
                let p = parse_pos(w.split('=').next().unwrap()).unwrap();
                (p.x() as i64, p.y() as i64)
            })
            .collect()
    };
    let mut cases: Vec<RenjuCase> = Vec::new();
    for line in text.lines() {
        if let Some(id) = line.strip_prefix("[case ") {
            cases.push(RenjuCase {
                id: id.trim_end_matches(']').to_string(),
                black: vec![],
                white: vec![],
                forbidden: BTreeSet::new(),
            });
        } else if let Some(c) = cases.last_mut() {
            if let Some(v) = line.strip_prefix("black:") {
                c.black = points(v);
            } else if let Some(v) = line.strip_prefix("white:") {
                c.white = points(v);
            } else if let Some(v) = line.strip_prefix("forbidden:") {
                c.forbidden = points(v).into_iter().collect();
            }
        }
    }
    cases
}

/// The YXBOARD stones for black and white stones: black first, with the field that makes
/// the side-to-move rule read them as black.
fn colour_block(black: &[(i64, i64)], white: &[(i64, i64)]) -> Vec<(i64, i64, u8)> {
    let (bf, wf) = if black.len() == white.len() {
        (1, 2)
    } else {
        (2, 1)
    };
    let mut out: Vec<(i64, i64, u8)> = black.iter().map(|&(x, y)| (x, y, bf)).collect();
    out.extend(white.iter().map(|&(x, y)| (x, y, wf)));
    out
}

fn parse_forbid(reply: &str) -> BTreeSet<(i64, i64)> {
    let list = reply
        .strip_prefix("FORBID ")
        .and_then(|r| r.strip_suffix('.'))
        .unwrap_or_else(|| panic!("bad FORBID line {reply}"));
    assert_eq!(list.len() % 4, 0, "{reply}");
    (0..list.len() / 4)
        .map(|i| {
            let q = &list[4 * i..4 * i + 4];
            (q[..2].parse().unwrap(), q[2..].parse().unwrap())
        })
        .collect()
}

#[test]
fn yxshowforbid_matches_the_renju_data() {
    if !common::have_shared_data() {
        return;
    }
    let cases = renju_cases();
    assert!(cases.len() >= 50, "only {} renju cases read", cases.len());
    let mut b = start();
    b.send("INFO rule 4");
    assert_eq!(b.ask("START 15"), "OK");
    let mut with_points = 0;
    for c in &cases {
        b.send_block("YXBOARD", &colour_block(&c.black, &c.white));
        let got = parse_forbid(&b.ask("YXSHOWFORBID"));
        assert_eq!(got, c.forbidden, "case {}", c.id);
        with_points += usize::from(!got.is_empty());
    }
    assert!(with_points >= 20);
    // Not renju: no forbidden points, whatever the position.
    let c = cases.iter().find(|c| !c.forbidden.is_empty()).unwrap();
    for (rule, expect_empty) in [("0", true), ("1", true), ("8", true), ("2", false)] {
        b.send(&format!("INFO rule {rule}"));
        b.send_block("YXBOARD", &colour_block(&c.black, &c.white));
        let reply = b.ask("yxshowforbid");
        assert_eq!(reply == "FORBID .", expect_empty, "rule {rule}: {reply}");
    }
}

#[test]
fn info_is_silent_and_kept_across_start() {
    let mut b = start();
    // Black (own, equal counts) g8 h7 h9 i8: h8 (7,7) is a double-three point.
    let pos = [
        (6, 7, 1),
        (0, 0, 2),
        (7, 6, 1),
        (14, 0, 2),
        (7, 8, 1),
        (0, 14, 2),
        (8, 7, 1),
        (14, 14, 2),
    ];
    b.send("INFO rule 4");
    for info in [
        "INFO timeout_turn 5000",
        "INFO timeout_match 180000",
        "INFO time_left -5",
        "INFO max_memory 367001600",
        "INFO game_type 3",
        "INFO evaluate 3,4",
        "INFO folder C:\\My AIs\\data dir",
        "INFO thread_num 2",
        "INFO hash_size 1024",
        "INFO caution_factor 1",
        "INFO TIMEOUT_TURN 1000",
        "INFO",
    ] {
        b.send(info);
    }
    b.assert_quiet();
    for _ in 0..2 {
        assert_eq!(b.ask("START 15"), "OK");
        b.send_block("YXBOARD", &pos);
        assert_eq!(b.ask("YXSHOWFORBID"), "FORBID 0707.");
    }
    // A rule we do not play: at most a MESSAGE, and renju stays.
    for bad in [
        "INFO rule 7",
        "INFO rule 3",
        "INFO rule abc",
        "INFO thread_num 0",
    ] {
        let reply = b.ask(bad);
        assert!(reply.starts_with("MESSAGE "), "{bad}: {reply}");
    }
    assert_eq!(b.ask("YXSHOWFORBID"), "FORBID 0707.");
    // Piskvork's stop request while idle does not stop the next search before it starts.
    b.send("INFO timeout_turn 0");
    b.assert_quiet();
    let m = b.ask_move("BEGIN");
    assert_ne!(m, (7, 7), "black to move must not play the double three");
}

#[test]
fn stop_when_idle_is_silent() {
    let mut b = started(15);
    b.send("STOP");
    b.send("YXSTOP");
    b.send("yxstop");
    b.assert_quiet();
    assert_eq!(b.ask_move("BEGIN"), (7, 7));
}

#[test]
fn unknown_and_malformed_lines() {
    let mut b = started(15);
    let reply = b.ask("FOO bar");
    assert!(reply.starts_with("UNKNOWN FOO"), "{reply}");
    b.send_raw("SWAP2BOARD\n7,7\n8,8\nDONE\n");
    assert!(
        b.line().starts_with("ERROR "),
        "two stones are no Swap2 stage"
    );
    b.assert_quiet();
    b.expect_error("DONE");
    b.expect_error("7,7,1");
    b.expect_error("BEGIN now");
    // A BOARD that loses its DONE is ended by the next command.
    b.send_raw("BOARD\n7,7,2\nSTART 15\n");
    assert!(b.line().starts_with("ERROR "));
    assert_eq!(b.line(), "OK");
    b.send_raw("\n   \n\t\n");
    b.assert_quiet();
}

#[test]
fn crlf_lower_case_and_mixed_input() {
    let mut b = start();
    b.send_raw("\r\nstart 15\r\n");
    assert_eq!(b.line(), "OK");
    b.send_raw("  info rule 4 \r\n\r\nbegin\r\n");
    assert_eq!(b.read_move(), (7, 7));
    b.send_raw("Turn 8,8\r\n");
    let m = b.read_move();
    b.send_raw("board\r\n7,7,2\n8,8,1\r\n  7,8,2  \r\nDone\n");
    let m2 = b.read_move();
    assert!(![(7, 7), (8, 8), (7, 8)].contains(&m2), "{m2:?} {m:?}");
    b.send_raw(
        "yxboard\r\n7,7,1\r\n8,7,1\r\n9,7,1\r\n10,7,1\r\n0,0,2\r\n1,5,2\r\n3,0,2\r\ndone\r\n",
    );
    b.send_raw("TaKeBaCk 3,0\r\n");
    assert_eq!(b.line(), "OK");
    // Black (own) now has four in a row and is to move: it wins.
    b.send_raw("yxboard\r\n7,7,1\r\n0,0,2\r\n8,7,1\r\n1,5,2\r\n9,7,1\r\n3,0,2\r\n10,7,1\r\n5,0,2\r\ndone\r\nbegin\r\n");
    let win = b.read_move();
    assert!(win == (6, 7) || win == (11, 7), "{win:?}");
}

#[test]
fn end_exits_at_once_and_prints_nothing_more() {
    let mut b = started(15);
    let t = Instant::now();
    b.send_raw("END\nABOUT\nBEGIN\n");
    let status = b.wait_exit(Duration::from_secs(5));
    let elapsed = t.elapsed();
    assert!(status.is_some(), "still running 5 s after END");
    assert!(elapsed < Duration::from_secs(1), "END took {elapsed:?}");
    assert!(b.rest().is_empty(), "output after END");
}

#[test]
fn end_during_a_search_exits_at_once() {
    let mut b = started(32);
    b.send("INFO rule 4");
    b.send("INFO timeout_turn 1000000");
    // A crowded 32x32 renju position, then END straight after it.
    let mut stones = Vec::new();
    for i in 0..120i64 {
        let (x, y) = ((i * 7) % 32, (i * 11 + i / 32) % 32);
        if !stones.iter().any(|&(a, c, _)| (a, c) == (x, y)) {
            stones.push((x, y, if stones.len() % 2 == 0 { 1 } else { 2 }));
        }
    }
    b.send_block("BOARD", &stones);
    let t = Instant::now();
    b.send("END");
    let status = b.wait_exit(Duration::from_secs(5));
    let elapsed = t.elapsed();
    assert!(status.is_some(), "still running 5 s after END");
    assert!(elapsed < Duration::from_secs(1), "END took {elapsed:?}");
}

#[test]
fn end_of_input_answers_what_was_sent_and_exits() {
    let mut b = start();
    b.send_raw("START 15\nBEGIN\n");
    b.close_stdin();
    assert_eq!(b.line(), "OK");
    assert_eq!(b.read_move(), (7, 7));
    let t = Instant::now();
    let status = b.wait_exit(Duration::from_secs(5));
    assert!(status.is_some(), "still running after end of input");
    assert!(t.elapsed() < Duration::from_secs(1));
    assert!(status.unwrap().success());
}

#[test]
fn full_board_has_no_move() {
    let mut b = started(5);
    let stones: Vec<(i64, i64, u8)> = (0..25)
        .map(|i| (i % 5, i / 5, if i % 2 == 0 { 2 } else { 1 }))
        .collect();
    b.send_block("BOARD", &stones);
    let reply = b.line();
    assert!(reply.starts_with("ERROR "), "{reply}");
    b.assert_quiet();
}

/// True for a line of one of the shapes we may write.
fn is_protocol_line(line: &str) -> bool {
    line == "OK"
        || parse_move(line).is_some()
        || ["ERROR ", "UNKNOWN ", "MESSAGE "]
            .iter()
            .any(|k| line.len() > k.len() && line.starts_with(k))
        || (line.starts_with("FORBID ") && line.ends_with('.'))
        || line.starts_with("name=\"Lianzhu\"")
}

#[test]
fn survives_random_input() {
    let words = [
        "START",
        "start",
        "RECTSTART",
        "RESTART",
        "BEGIN",
        "TURN",
        "BOARD",
        "YXBOARD",
        "DONE",
        "INFO",
        "TAKEBACK",
        "PLAY",
        "STOP",
        "YXSTOP",
        "YXSHOWFORBID",
        "SWAP2BOARD",
        "YXBLOCK",
        "yxblockundo",
        "YXBLOCKRESET",
        "YXHASHCLEAR",
        "YXSHOWINFO",
        "pondering",
        "rule",
        "timeout_turn",
        "0",
        "1",
        "2",
        "3",
        "4",
        "7",
        "9",
        "15",
        "32",
        "-1",
        "99999",
        "7,7",
        "0,0",
        "31,31",
        "7,7,1",
        "8,8,2",
        "1,1,3",
        ",",
        ",,",
        "x",
        "\t",
        "é",
        "",
    ];
    let mut state = 0x1234_5678_9abc_def1u64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut text = Vec::new();
    for _ in 0..3000 {
        let len = next(4);
        let line: Vec<&str> = (0..len).map(|_| words[next(words.len())]).collect();
        let sep = [" ", "", ",", "  "][next(4)];
        text.extend_from_slice(line.join(sep).as_bytes());
        text.extend_from_slice([&b"\n"[..], b"\r\n", b"\r\r\n"][next(3)]);
    }
    text.extend_from_slice(b"\xff\xfe bad utf-8 \xc3\n");
    text.extend(std::iter::repeat_n(b'7', 100_000));
    text.extend_from_slice(b"\n");
    let mut b = start();
    // ABOUT is not among the words: its answer marks the end of the replies to the noise.
    b.send_bytes(&text);
    // Still alive and in a sane state: a fresh game works.
    b.send("DONE");
    b.send("START 15");
    b.send("INFO rule 0");
    b.send("YXBLOCKRESET");
    b.send("ABOUT");
    let mut seen = 0;
    loop {
        let line = b.line();
        assert!(is_protocol_line(&line), "not a protocol line: {line:?}");
        seen += 1;
        if line.starts_with("name=") {
            break;
        }
    }
    assert!(seen > 100, "only {seen} replies to 3000 lines");
    assert_eq!(b.ask_move("BEGIN"), (7, 7));
}

/// Points of a Swap2 answer line (`x,y x,y ...`), or `None` for `SWAP`.
fn swap2_points(reply: &str) -> Option<Vec<(i64, i64)>> {
    if reply == "SWAP" {
        return None;
    }
    Some(
        reply
            .split(' ')
            .map(|w| parse_move(w).unwrap_or_else(|| panic!("bad Swap2 answer {reply:?}")))
            .collect(),
    )
}

#[test]
fn swap2_stages_answer_in_their_forms_within_the_turn() {
    let mut b = started(15);
    b.send("INFO timeout_turn 1000");
    let timed = |b: &mut Brain, block: &str| {
        let asked = Instant::now();
        b.send_raw(block);
        let reply = b.reply_skipping(&["MESSAGE"]);
        assert!(
            asked.elapsed() < Duration::from_millis(1000),
            "{block:?}: {:?}",
            asked.elapsed()
        );
        reply
    };
    // Stage 0: three distinct stones on the board.
    let proposal = swap2_points(&timed(&mut b, "SWAP2BOARD\nDONE\n")).expect("three stones");
    assert_eq!(proposal.len(), 3, "{proposal:?}");
    let distinct: BTreeSet<_> = proposal.iter().collect();
    assert_eq!(distinct.len(), 3);
    assert!(proposal
        .iter()
        .all(|&(x, y)| (0..15).contains(&x) && (0..15).contains(&y)));
    // Stage 1: SWAP, one stone or two, all on empty points; x,y,f lines are read too.
    let stage1 = timed(&mut b, "swap2board\n7,7\n8,7,2\n9,9\ndone\n");
    if let Some(points) = swap2_points(&stage1) {
        assert!(matches!(points.len(), 1 | 2), "{stage1}");
        for p in &points {
            assert!(![(7, 7), (8, 7), (9, 9)].contains(p), "{stage1}");
        }
    }
    // Stage 2: SWAP or one stone.
    let stage2 = timed(&mut b, "SWAP2BOARD\n7,7\n8,7\n9,9\n6,6\n10,10\nDONE\n");
    if let Some(points) = swap2_points(&stage2) {
        assert_eq!(points.len(), 1, "{stage2}");
    }
    // White's lopsided gift: black already holds an open three, so white takes black.
    assert_eq!(
        timed(&mut b, "SWAP2BOARD\n7,7\n0,0\n8,8\n0,14\n9,9\nDONE\n"),
        "SWAP"
    );
    // A bad stone is an ERROR and the game is unchanged.
    b.expect_error("SWAP2BOARD\n7,7\n7,7\n9,9\nDONE");
    assert_eq!(b.ask_move("BEGIN"), (7, 7));
}
