//! Yixin-Board transcripts: the real `pbrain-lianzhu` binary over pipes, fed the command
//! sequences Yixin-Board sends (lower case, LF, `yxboard`, `info show_detail`, `yxnbest`,
//! `yxsearchdefend`, `yxblock`, `yxstop`, `yxhashclear`, pondering). Every reply line is
//! checked against the formats of protocol.md, and the replies' meaning is checked too.
//!
//! Timings are never asserted tightly: the machine is shared, so only generous upper bounds
//! ("answers within seconds, not at the end of a 30 s turn") are used.

use crate::common::{read_lines, Brain, LineCheck};
use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(15);

/// A quiet middle game on 15x15: white (field 1, to move) i9 i7, black h8 h9 g10.
const MIDGAME: [(i64, i64, u8); 5] = [(7, 7, 2), (8, 8, 1), (7, 8, 2), (8, 6, 1), (6, 9, 2)];

fn start() -> Brain {
    Brain::start(TIMEOUT, LineCheck::Strict)
}

fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (x, y) = line.split_once(',')?;
    if x.is_empty() || y.is_empty() || !(x.bytes().chain(y.bytes())).all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some((x.parse().ok()?, y.parse().ok()?))
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit())
}

/// `-?\d+`, `+M\d+` or `-M\d+`.
fn is_eval(s: &str) -> bool {
    if let Some(n) = s.strip_prefix("+M").or_else(|| s.strip_prefix("-M")) {
        return is_number(n);
    }
    is_number(s.strip_prefix('-').unwrap_or(s))
}

/// `x,y( x,y)*`.
fn is_move_list(s: &str) -> bool {
    !s.is_empty() && s.split(' ').all(|m| parse_move(m).is_some())
}

/// The realtime line formats: `MESSAGE REALTIME (POS|DONE|BEST|LOST) x,y` or `... REFRESH`.
fn is_realtime(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("MESSAGE REALTIME ") else {
        return false;
    };
    if rest == "REFRESH" {
        return true;
    }
    match rest.split_once(' ') {
        Some((kind, m)) => {
            ["POS", "DONE", "BEST", "LOST"].contains(&kind) && parse_move(m).is_some()
        }
        None => false,
    }
}

/// The detail record line formats.
fn is_info(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("INFO ") else {
        return false;
    };
    let Some((key, value)) = rest.split_once(' ') else {
        return false;
    };
    match key {
        "PV" => value == "DONE" || is_number(value),
        "NUMPV" | "DEPTH" | "SELDEPTH" | "NODES" | "TOTALNODES" | "TOTALTIME" | "SPEED" => {
            is_number(value)
        }
        "EVAL" => is_eval(value),
        "WINRATE" => {
            value.len() == 6
                && (value.starts_with("0.") || value == "1.0000")
                && is_number(&value[2..])
        }
        "BESTLINE" => is_move_list(value),
        _ => false,
    }
}

/// A search-progress MESSAGE, field by field as Rapfi writes it and clients read it:
/// `MESSAGE depth D-S [multipv i] ev V n N n/ms R tm T pv m1 m2 ...` (PV moves as `h8`).
#[derive(Debug)]
struct Progress {
    depth: u64,
    multipv: Option<usize>,
    pv: Vec<(i64, i64)>,
}

/// `h8` -> `(7, 7)`.
fn parse_algebraic(m: &str) -> Option<(i64, i64)> {
    let col = m.bytes().next().filter(u8::is_ascii_lowercase)?;
    let row: i64 = m.get(1..).filter(|r| is_number(r))?.parse().ok()?;
    (row >= 1).then(|| (i64::from(col - b'a'), row - 1))
}

fn parse_progress(line: &str) -> Option<Progress> {
    let mut w = line.strip_prefix("MESSAGE depth ")?.split(' ');
    let (d, s) = w.next()?.split_once('-')?;
    let (depth, seldepth): (u64, u64) = (d.parse().ok()?, s.parse().ok()?);
    let mut key = w.next()?;
    let mut multipv = None;
    if key == "multipv" {
        multipv = Some(w.next()?.parse().ok()?);
        key = w.next()?;
    }
    let ev = w.next().filter(|v| key == "ev" && is_eval(v));
    for k in ["n", "n/ms", "tm"] {
        (w.next() == Some(k)).then_some(())?;
        w.next().filter(|v| is_number(v))?;
    }
    (ev.is_some() && w.next() == Some("pv") && seldepth >= depth).then_some(())?;
    let pv: Option<Vec<_>> = w.map(parse_algebraic).collect();
    Some(Progress {
        depth,
        multipv,
        pv: pv.filter(|pv| !pv.is_empty())?,
    })
}

fn is_progress(line: &str) -> bool {
    parse_progress(line).is_some()
}

/// Everything up to and including the move; every line is checked against the formats
/// allowed by `show_detail` (`realtime`, `info`).
fn until_move(b: &Brain, realtime: bool, info: bool) -> (Vec<String>, (i64, i64)) {
    let mut lines = Vec::new();
    loop {
        let line = b.line();
        if let Some(m) = parse_move(&line) {
            return (lines, m);
        }
        let ok = if line.starts_with("MESSAGE REALTIME") {
            realtime && is_realtime(&line)
        } else if line.starts_with("INFO") {
            info && is_info(&line)
        } else {
            is_progress(&line)
        };
        assert!(
            ok,
            "unexpected line {line:?} (realtime {realtime}, info {info})"
        );
        lines.push(line);
    }
}

/// One detail record.
#[derive(Debug, Default, Clone)]
struct Record {
    pv: usize,
    numpv: usize,
    depth: u64,
    nodes: u64,
    total_nodes: u64,
    eval: String,
    winrate: f64,
    bestline: Vec<(i64, i64)>,
}

/// The records among `lines`, checking that each is complete and in Rapfi's key order.
fn records(lines: &[String]) -> Vec<Record> {
    const ORDER: [&str; 12] = [
        "PV",
        "NUMPV",
        "DEPTH",
        "SELDEPTH",
        "NODES",
        "TOTALNODES",
        "TOTALTIME",
        "SPEED",
        "EVAL",
        "WINRATE",
        "BESTLINE",
        "PV",
    ];
    let info: Vec<(&str, &str)> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("INFO "))
        .map(|l| l.split_once(' ').unwrap())
        .collect();
    assert_eq!(info.len() % ORDER.len(), 0, "incomplete record in {info:?}");
    info.chunks(ORDER.len())
        .map(|rec| {
            let keys: Vec<&str> = rec.iter().map(|(k, _)| *k).collect();
            assert_eq!(keys, ORDER, "{rec:?}");
            assert_eq!(rec[11].1, "DONE");
            Record {
                pv: rec[0].1.parse().unwrap(),
                numpv: rec[1].1.parse().unwrap(),
                depth: rec[2].1.parse().unwrap(),
                nodes: rec[4].1.parse().unwrap(),
                total_nodes: rec[5].1.parse().unwrap(),
                eval: rec[8].1.to_string(),
                winrate: rec[9].1.parse().unwrap(),
                bestline: rec[10]
                    .1
                    .split(' ')
                    .map(|m| parse_move(m).unwrap())
                    .collect(),
            }
        })
        .collect()
}

fn send_block(b: &mut Brain, header: &str, stones: &[(i64, i64, u8)]) {
    let mut text = format!("{header}\n");
    for (x, y, f) in stones {
        text.push_str(&format!("{x},{y},{f}\n"));
    }
    text.push_str("done\n");
    b.send_raw(&text);
}

fn send_points(b: &mut Brain, header: &str, points: &[(i64, i64)]) {
    let mut text = format!("{header}\n");
    for (x, y) in points {
        text.push_str(&format!("{x},{y}\n"));
    }
    text.push_str("done\n");
    b.send_raw(&text);
}

fn assert_quiet(b: &mut Brain) {
    let reply = b.ask("about");
    assert!(
        reply.starts_with("name=\"Lianzhu\""),
        "expected nothing before ABOUT's answer, got {reply}"
    );
}

fn occupied(stones: &[(i64, i64, u8)]) -> BTreeSet<(i64, i64)> {
    stones.iter().map(|&(x, y, _)| (x, y)).collect()
}

/// Yixin-Board's start-up: INFOs (some before `start`), then `start 15`.
fn yixin(show_detail: u8, turn_ms: u32) -> Brain {
    let mut b = start();
    b.send(&format!("info show_detail {show_detail}"));
    b.send("yxshowinfo");
    assert!(b.line().starts_with("MESSAGE Lianzhu "));
    let threads = b.line();
    let n: usize = threads
        .strip_prefix("MESSAGE INFO MAX_THREAD_NUM ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{threads}"));
    assert!(n >= 1);
    let hash = b.line();
    let log2: u32 = hash
        .strip_prefix("MESSAGE INFO MAX_HASH_SIZE ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{hash}"));
    assert!((10..=40).contains(&log2));
    assert_eq!(b.ask("start 15"), "OK");
    for info in [
        format!("info timeout_turn {turn_ms}"),
        "info timeout_match 100000000".to_string(),
        "info time_left 100000000".to_string(),
        "info max_node -1".to_string(),
        "info max_depth 225".to_string(),
        "info time_increment 0".to_string(),
        "info caution_factor 1".to_string(),
        "info thread_num 1".to_string(),
        "info hash_size 65536".to_string(),
        "info pondering 0".to_string(),
        "info vcthread 0".to_string(),
        "info rule 0".to_string(),
    ] {
        b.send(&info);
    }
    assert_quiet(&mut b);
    b
}

#[test]
fn yxnbest_reports_n_distinct_lines_and_plays_the_first() {
    let mut b = yixin(3, 900);
    send_block(&mut b, "yxboard", &MIDGAME);
    assert_quiet(&mut b);
    b.send("yxnbest 3");
    let (lines, m) = until_move(&b, true, true);
    let taken = occupied(&MIDGAME);
    let recs = records(&lines);
    assert!(!recs.is_empty());
    // The last record of each line.
    let mut last: Vec<Option<Record>> = vec![None; 3];
    for r in &recs {
        assert_eq!(r.numpv, 3, "{r:?}");
        assert!(r.pv < 3);
        assert!(r.total_nodes >= r.nodes);
        assert!((0.0..=1.0).contains(&r.winrate));
        if r.eval.starts_with("+M") {
            assert_eq!(r.winrate, 1.0);
        }
        last[r.pv] = Some(r.clone());
    }
    let firsts: Vec<(i64, i64)> = last
        .iter()
        .map(|r| r.as_ref().expect("a record for every line").bestline[0])
        .collect();
    let distinct: BTreeSet<_> = firsts.iter().copied().collect();
    assert_eq!(distinct.len(), 3, "{firsts:?}");
    assert!(last.iter().flatten().all(|r| r.depth >= 1), "{last:?}");
    for f in &firsts {
        assert!(!taken.contains(f) && f.0 < 15 && f.1 < 15, "{f:?}");
    }
    assert_eq!(m, firsts[0], "the answer is the first line's move");
    // Progress lines come line by line (multipv 1, 2, 3), and the last of each line is its
    // result: the move of its last record.
    let progress: Vec<Progress> = lines.iter().filter_map(|l| parse_progress(l)).collect();
    let order: Vec<usize> = progress.iter().map(|p| p.multipv.unwrap()).collect();
    assert!(order.windows(2).all(|w| w[0] <= w[1]), "{order:?}");
    for (i, first) in firsts.iter().enumerate() {
        let result = progress.iter().rfind(|p| p.multipv == Some(i + 1));
        let result = result.expect("a progress line for every line");
        assert_eq!(result.pv[0], *first, "{result:?}");
        assert!(result.depth >= 1, "{result:?}");
    }
    // Realtime lines name empty points.
    for l in lines.iter().filter(|l| l.starts_with("MESSAGE REALTIME ")) {
        if let Some(p) = l.rsplit(' ').next().and_then(parse_move) {
            assert!(!taken.contains(&p), "{l}");
        }
    }
    // The answer was played on our board, like Rapfi does.
    let reply = b.ask(&format!("turn {},{}", m.0, m.1));
    assert!(reply.starts_with("ERROR "), "{reply}");
}

#[test]
fn realtime_lines_during_a_longer_search() {
    let mut b = yixin(1, 1500);
    send_block(&mut b, "board", &MIDGAME);
    let (lines, m) = until_move(&b, true, false);
    assert!(!occupied(&MIDGAME).contains(&m));
    let count = |prefix: &str| lines.iter().filter(|l| l.starts_with(prefix)).count();
    assert!(count("MESSAGE REALTIME REFRESH") >= 1, "{lines:?}");
    assert!(count("MESSAGE REALTIME POS ") >= 1, "{lines:?}");
    assert!(count("MESSAGE REALTIME BEST ") >= 1, "{lines:?}");
    // Every REFRESH is followed by the iteration's best move.
    for (i, l) in lines.iter().enumerate() {
        if l == "MESSAGE REALTIME REFRESH" {
            assert!(
                lines[i + 1].starts_with("MESSAGE REALTIME BEST "),
                "{lines:?}"
            );
        }
    }
}

#[test]
fn show_detail_0_writes_only_messages_and_the_move() {
    let mut b = yixin(0, 600);
    send_block(&mut b, "yxboard", &MIDGAME);
    b.send("yxnbest 2");
    let (lines, _) = until_move(&b, false, false);
    assert!(lines.iter().all(|l| l.starts_with("MESSAGE ")), "{lines:?}");
    send_block(&mut b, "board", &MIDGAME);
    until_move(&b, false, false);
    b.send("yxsearchdefend");
    until_move(&b, false, false);
    // Bad values are refused with a MESSAGE and change nothing.
    for bad in [
        "info show_detail 7",
        "info show_detail x",
        "info pondering 2",
    ] {
        let reply = b.ask(bad);
        assert!(reply.starts_with("MESSAGE "), "{bad}: {reply}");
    }
    send_block(&mut b, "board", &MIDGAME);
    until_move(&b, false, false);
}

#[test]
fn yxnbest_is_capped_by_the_legal_moves() {
    let mut b = start();
    b.send("info show_detail 2");
    assert_eq!(b.ask("start 5"), "OK");
    b.send("info timeout_turn 500");
    // Rows 0-3 full without a possible five; row 4 (five points) empty.
    let rows = ["11221", "22112", "11221", "22112"];
    let mut stones = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.bytes().enumerate() {
            stones.push((x as i64, y as i64, c - b'0'));
        }
    }
    send_block(&mut b, "yxboard", &stones);
    b.send("yxnbest 9");
    let (lines, m) = until_move(&b, false, true);
    let recs = records(&lines);
    let firsts: BTreeSet<(i64, i64)> = recs.iter().map(|r| r.bestline[0]).collect();
    assert!(recs.iter().all(|r| r.numpv == 5), "{recs:?}");
    assert_eq!(firsts, (0..5).map(|x| (x, 4)).collect(), "{recs:?}");
    assert_eq!(m.1, 4);
    // A blocked point is one line less, and never a line.
    send_points(&mut b, "yxblock", &[(2, 4)]);
    send_block(&mut b, "yxboard", &stones);
    b.send("yxnbest 9");
    let (lines, m) = until_move(&b, false, true);
    let recs = records(&lines);
    let firsts: BTreeSet<(i64, i64)> = recs.iter().map(|r| r.bestline[0]).collect();
    assert!(recs.iter().all(|r| r.numpv == 4), "{recs:?}");
    assert_eq!(firsts, [0, 1, 3, 4].map(|x| (x, 4)).into_iter().collect());
    assert!(m.1 == 4 && m != (2, 4));
}

#[test]
fn yxsearchdefend_reports_only_blocks_of_an_open_three() {
    let mut b = yixin(2, 900);
    // White (2) f8 g8 h8 open; black (1, to move) has three corner stones.
    let stones = [
        (0, 0, 1),
        (5, 7, 2),
        (14, 0, 1),
        (6, 7, 2),
        (0, 14, 1),
        (7, 7, 2),
    ];
    send_block(&mut b, "yxboard", &stones);
    b.send("yxsearchdefend");
    let (lines, m) = until_move(&b, false, true);
    let blocks: BTreeSet<(i64, i64)> = [(3, 7), (4, 7), (8, 7), (9, 7)].into_iter().collect();
    let recs = records(&lines);
    assert!(!recs.is_empty());
    let numpv = recs[0].numpv;
    assert!((1..=4).contains(&numpv), "{recs:?}");
    for r in &recs {
        assert_eq!(r.numpv, numpv);
        assert!(blocks.contains(&r.bestline[0]), "{r:?}");
    }
    assert!(blocks.contains(&m), "{m:?}");
}

#[test]
fn blocked_moves_are_never_played() {
    let mut b = start();
    send_points(&mut b, "yxblock", &[(7, 7)]);
    assert!(b.line().starts_with("ERROR "), "YXBLOCK before START");
    assert_eq!(b.ask("start 15"), "OK");
    b.send("info timeout_turn 300");
    assert_eq!(parse_move(&b.ask("begin")), Some((7, 7)));
    send_points(&mut b, "yxblock", &[(7, 7)]);
    assert_quiet(&mut b);
    // Yixin-Board sends START before every position: the block stays.
    for _ in 0..2 {
        assert_eq!(b.ask("start 15"), "OK");
        b.send("begin");
        let (_, m) = until_move(&b, false, false);
        assert_ne!(m, (7, 7));
    }
    send_points(&mut b, "yxblockundo", &[(7, 7), (1, 1)]);
    assert_eq!(b.ask("start 15"), "OK");
    assert_eq!(parse_move(&b.ask("begin")), Some((7, 7)));
    // A block with a point off the board is refused whole.
    send_points(&mut b, "yxblock", &[(7, 7), (15, 3)]);
    assert!(b.line().starts_with("ERROR "));
    assert_eq!(b.ask("start 15"), "OK");
    assert_eq!(parse_move(&b.ask("begin")), Some((7, 7)));
    // Own four on row 0 (3..=6): two winning points, 2,0 and 7,0.
    let four = [
        (3, 0, 1),
        (3, 9, 2),
        (4, 0, 1),
        (5, 9, 2),
        (5, 0, 1),
        (7, 9, 2),
        (6, 0, 1),
        (11, 12, 2),
    ];
    send_points(&mut b, "yxblock", &[(2, 0)]);
    send_block(&mut b, "board", &four);
    let (_, m) = until_move(&b, false, false);
    assert_eq!(m, (7, 0), "the unblocked win");
    send_points(&mut b, "yxblock", &[(7, 0)]);
    send_block(&mut b, "board", &four);
    let (_, m) = until_move(&b, false, false);
    assert!(m != (7, 0) && m != (2, 0), "{m:?}");
    b.send("yxnbest 3");
    let (_, m) = until_move(&b, false, false);
    assert!(m != (7, 0) && m != (2, 0), "{m:?}");
    // yxblockreset clears every block.
    b.send("yxblockreset");
    send_block(&mut b, "board", &four);
    let (_, m) = until_move(&b, false, false);
    assert!(m == (7, 0) || m == (2, 0), "{m:?}");
}

#[test]
fn yxstop_ends_yxnbest_with_the_first_line() {
    let mut b = yixin(0, 30_000);
    send_block(&mut b, "yxboard", &MIDGAME);
    b.send("yxnbest 3");
    std::thread::sleep(Duration::from_millis(400));
    let t = Instant::now();
    b.send("yxstop");
    let (lines, m) = until_move(&b, false, false);
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "answered {:?} after yxstop",
        t.elapsed()
    );
    assert!(!occupied(&MIDGAME).contains(&m));
    // The analysis ends after the stopped line: only multipv 1, ending with its result.
    let progress: Vec<Progress> = lines.iter().filter_map(|l| parse_progress(l)).collect();
    assert!(
        progress.iter().all(|p| p.multipv == Some(1)),
        "the analysis ends after the stopped line: {lines:?}"
    );
    assert_eq!(progress.last().map(|p| p.pv[0]), Some(m), "{lines:?}");
    assert_quiet(&mut b);
}

#[test]
fn yxhashclear_answers_one_message() {
    let mut b = yixin(3, 300);
    let reply = b.ask("yxhashclear");
    assert!(reply.starts_with("MESSAGE "), "{reply}");
    assert_quiet(&mut b);
    let reply = b.ask("yxhashclear now");
    assert!(reply.starts_with("ERROR "), "{reply}");
}

/// CPU time (user + system) of process `pid` in milliseconds, from /proc.
fn cpu_ms(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    // USER_HZ is 100 on Linux.
    Some(ticks * 10)
}

/// Pondering: after the move the engine thinks (CPU is used) and prints nothing; the next
/// line of any kind stops it at once (CPU use stops) and a following TURN is answered at the
/// normal speed. Without `info pondering 1` it stays idle.
#[test]
fn pondering_thinks_silently_and_stops_on_the_next_command() {
    if !std::path::Path::new("/proc/self/stat").exists() {
        return;
    }
    for ponder in [true, false] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-lianzhu"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let pid = child.id();
        let mut stdin = child.stdin.take().unwrap();
        let lines = read_lines(child.stdout.take().unwrap(), LineCheck::Strict);
        let mut send = |s: &str| {
            stdin.write_all(format!("{s}\n").as_bytes()).unwrap();
            stdin.flush().unwrap();
        };
        let next = || lines.recv_timeout(TIMEOUT).expect("a reply");
        let next_move = || loop {
            let l = next();
            if let Some(m) = parse_move(&l) {
                return m;
            }
            assert!(l.starts_with("MESSAGE ") || l.starts_with("INFO "), "{l}");
        };
        send(&format!("info pondering {}", u8::from(ponder)));
        send("info show_detail 3");
        send("start 15");
        assert_eq!(next(), "OK");
        send("info timeout_turn 300");
        send("board\n7,7,2\n8,8,1\n7,8,2\n8,6,1\n6,9,2\ndone");
        let ours = next_move();
        std::thread::sleep(Duration::from_millis(100));
        let before = cpu_ms(pid).unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        let idle = cpu_ms(pid).unwrap() - before;
        if ponder {
            assert!(idle >= 50, "pondering used only {idle} ms of CPU in 1.5 s");
        } else {
            assert!(idle <= 40, "idle without pondering used {idle} ms of CPU");
        }
        // Nothing was written while pondering: ABOUT's answer is the next line.
        send("about");
        assert!(next().starts_with("name=\"Lianzhu\""));
        std::thread::sleep(Duration::from_millis(100));
        let before = cpu_ms(pid).unwrap();
        std::thread::sleep(Duration::from_millis(700));
        let after_stop = cpu_ms(pid).unwrap() - before;
        assert!(
            after_stop <= 40,
            "still thinking after a command: {after_stop} ms"
        );
        // The next TURN gets a prompt, legal answer.
        let free = [(0, 0), (14, 14), (0, 14)]
            .into_iter()
            .find(|&p| p != ours)
            .unwrap();
        send("info time_left 100000000");
        let t = Instant::now();
        send(&format!("turn {},{}", free.0, free.1));
        let m = next_move();
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        assert!(m != ours && m != free && !occupied(&MIDGAME).contains(&m));
        send("end");
        let _ = child.wait();
    }
}
