//! Pipe semantics (protocol.md, "Pipe semantics"), through the real binary fed a whole input
//! at once as `printf ... | pbrain-lianzhu` does: answers in arrival order, `END` only after
//! every command before it is answered, a search stopped at once by `END`/`YXSTOP`, end of
//! input that still searches with the normal limits, and echoed input cut short.

use crate::common::{run_piped, Brain, LineCheck, Piped, StdinEnd};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(20);

fn piped(input: &str, end: StdinEnd) -> Piped {
    let run = run_piped(&[], input.as_bytes(), end, LIMIT);
    assert!(run.exited_ok(), "{input:?}: {run:?}");
    assert_eq!(run.stderr, "", "{input:?}: logs must be off by default");
    run
}

fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (x, y) = line.split_once(',')?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

/// The lines that are not `MESSAGE` progress.
fn replies(run: &Piped) -> Vec<String> {
    run.lines()
        .into_iter()
        .filter(|l| !l.starts_with("MESSAGE "))
        .collect()
}

#[test]
fn end_answers_every_command_before_it() {
    // stdin stays open: END alone must end the process, after its answers.
    let run = piped("START 15\nEND\n", StdinEnd::KeepOpen);
    assert_eq!(run.lines(), ["OK"]);
    let run = piped("ABOUT\nEND\n", StdinEnd::KeepOpen);
    let lines = run.lines();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("name=\"Lianzhu\", version=\""),
        "{lines:?}"
    );
    let run = piped("START 15\nBEGIN\nEND\n", StdinEnd::KeepOpen);
    assert_eq!(replies(&run), ["OK", "7,7"]);
    // The same with CR LF, lower case, and END closing the pipe as Piskvork does.
    let run = piped("start 15\r\nbegin\r\nend\r\n", StdinEnd::Close);
    assert_eq!(replies(&run), ["OK", "7,7"]);
}

#[test]
fn answers_come_in_arrival_order() {
    let input = "ABOUT\nTURN 1,1\nSTART 15\nINFO timeout_turn 100\nBEGIN\nFOO bar\nTURN 7,7\n\
                 TAKEBACK 0,0\nINFO rule 4\nYXSHOWFORBID\nRESTART\nSTOP\nPLAY 3,4\nTAKEBACK 3,4\n\
                 BOARD\n7,7,2\n7,8,1\nDONE\nEND\nABOUT\n";
    let run = piped(input, StdinEnd::KeepOpen);
    let got = replies(&run);
    let kinds: Vec<&str> = got
        .iter()
        .map(|l| {
            if l.starts_with("name=") {
                "about"
            } else if parse_move(l).is_some() {
                "move"
            } else {
                l.split(' ').next().unwrap()
            }
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "about", "ERROR", "OK", "move", "UNKNOWN", "ERROR", "ERROR", "FORBID", "OK", "move",
            "OK", "move"
        ],
        "{got:?}"
    );
    assert_eq!(got[3], "7,7");
    assert_eq!(got[9], "3,4");
}

/// A brain on a `size` board searching the position of the `BOARD` block `stones` with a
/// 600 s turn; its first progress line has been read.
fn searching_brain(size: usize, stones: &str) -> Brain {
    let mut b = Brain::start(LIMIT, LineCheck::Strict);
    b.send(&format!("START {size}"));
    assert_eq!(b.line(), "OK");
    b.send("INFO timeout_turn 600000");
    b.send_raw(&format!("BOARD\n{stones}DONE\n"));
    let first = b.line();
    assert!(first.starts_with("MESSAGE depth "), "{first}");
    b
}

#[test]
fn end_during_a_search_stops_it_at_once() {
    let mut b = searching_brain(20, "10,10,2\n11,11,1\n9,11,2\n");
    let t = Instant::now();
    b.send("END");
    let status = b.wait_exit(Duration::from_secs(10));
    let elapsed = t.elapsed();
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    assert!(elapsed < Duration::from_secs(1), "END took {elapsed:?}");
    // The stopped search still answers the BOARD before it (the protocol would allow none).
    let rest = b.rest();
    let moves: Vec<&String> = rest.iter().filter(|l| parse_move(l).is_some()).collect();
    assert_eq!(moves.len(), 1, "{rest:?}");
}

#[test]
fn end_stops_the_searches_queued_before_it() {
    let input =
        "START 15\nINFO timeout_turn 600000\nBOARD\n7,7,2\nDONE\nTURN 9,9\nYXNBEST 3\nEND\n";
    let run = piped(input, StdinEnd::KeepOpen);
    assert!(run.elapsed < Duration::from_secs(3), "{:?}", run.elapsed);
    let got = replies(&run);
    assert_eq!(got.len(), 4, "{got:?}");
    assert_eq!(got[0], "OK");
    assert!(got[1..].iter().all(|l| parse_move(l).is_some()), "{got:?}");
}

#[test]
fn yxstop_during_a_search_answers_at_once_and_the_game_goes_on() {
    let mut b = searching_brain(15, "7,7,2\n8,8,1\n7,8,2\n");
    let t = Instant::now();
    b.send("YXSTOP");
    let m = parse_move(&b.reply()).expect("a move");
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
    assert!(![(7, 7), (8, 8), (7, 8)].contains(&m), "{m:?}");
    // Idle again: STOP is silent, and the next commands are answered as usual.
    b.send("STOP");
    b.send("INFO timeout_turn 100");
    b.send("ABOUT");
    assert!(b.line().starts_with("name=\"Lianzhu\""));
}

#[test]
fn end_of_input_searches_within_the_normal_limits() {
    let input = "START 15\nINFO timeout_turn 1000\nBOARD\n7,7,1\nDONE\n";
    let run = piped(input, StdinEnd::Close);
    let lines = run.lines();
    let got = replies(&run);
    assert_eq!(got.len(), 2, "{lines:?}");
    assert_eq!(got[0], "OK");
    let m = parse_move(&got[1]).expect("a move");
    assert_ne!(m, (7, 7));
    // A real search: iterations beyond the first, and most of the turn used (not a move at
    // once), but within the turn and a grace.
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("MESSAGE depth "))
        .filter_map(|r| r.split(['-', ' ']).next()?.parse().ok())
        .collect();
    let deepest = depths.last().copied().unwrap_or(0);
    assert!(deepest >= 4, "no real search: {lines:?}");
    // One progress line per finished iteration, in order (a 1 s search stays within the
    // burst of the line budget).
    assert!(deepest <= lianzhu::protocol::REPORT_BURST, "{lines:?}");
    assert_eq!(depths, (1..=deepest).collect::<Vec<_>>(), "{lines:?}");
    assert!(
        run.elapsed >= Duration::from_millis(300) && run.elapsed < Duration::from_millis(1500),
        "{:?}",
        run.elapsed
    );
}

#[test]
fn end_of_input_answers_a_backlog_in_order_then_exits() {
    let mut input = String::from("START 15\nINFO timeout_turn 60\n");
    for i in 0..6 {
        input.push_str(&format!("BOARD\n{i},0,2\nDONE\n"));
    }
    input.push_str("ABOUT");
    let run = piped(&input, StdinEnd::Close);
    let got = replies(&run);
    assert_eq!(got.len(), 8, "{got:?}");
    assert_eq!(got[0], "OK");
    for (i, l) in got[1..7].iter().enumerate() {
        let m = parse_move(l).unwrap_or_else(|| panic!("{l}"));
        assert_ne!(m, (i as i64, 0));
    }
    assert!(
        got[7].starts_with("name=\"Lianzhu\""),
        "ABOUT without LF is read too"
    );
}

#[test]
fn nothing_after_end_is_read_or_written() {
    let run = piped("START 15\nEND\nABOUT\nBEGIN\n", StdinEnd::Close);
    assert_eq!(run.lines(), ["OK"]);
}

#[test]
fn echoed_input_is_cut_to_80_characters() {
    let long = "X".repeat(100_000);
    let input = format!(
        "{long}\nSTART {long}\nSTART 15\nINFO rule 1{long}\nTURN 1,{long}\nBOARD\n1,1,{long}\nDONE\n\
         Ä{}\nEND\n",
        "é".repeat(200)
    );
    let run = piped(&input, StdinEnd::KeepOpen);
    let lines = run.lines();
    assert_eq!(
        lines.len(),
        7,
        "{:?}",
        lines.iter().map(|l| l.len()).collect::<Vec<_>>()
    );
    for l in &lines {
        assert!(
            l.chars().count() <= 200,
            "{} chars: {}...",
            l.len(),
            &l[..60]
        );
    }
    assert!(
        lines[0].starts_with("UNKNOWN XXXX") && lines[0].contains("..."),
        "{}",
        lines[0]
    );
    let xs = lines[0].chars().filter(|&c| c == 'X').count();
    assert_eq!(xs, 80, "{}", lines[0]);
    assert!(lines[1].starts_with("ERROR ") && lines[1].contains("..."));
    assert_eq!(lines[2], "OK");
    assert!(lines[3].starts_with("MESSAGE ") && lines[3].contains("..."));
    assert!(lines[4].starts_with("ERROR ") && lines[4].contains("..."));
    assert!(lines[5].starts_with("ERROR ") && lines[5].contains("..."));
    // Cut on a character boundary: 1 + 79 two-byte characters, then "...".
    assert!(
        lines[6].starts_with("UNKNOWN Äéé") && lines[6].contains("é..."),
        "{}",
        lines[6]
    );
}
