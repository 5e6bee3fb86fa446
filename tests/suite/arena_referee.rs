//! The match referee against scripted fake engines (`tests/fake-engines/scripted.sh`): wins,
//! draws, fouls, illegal moves, late replies, crashes, garbage and failed starts are scored as
//! the rules and the protocol say.

use lianzhu::arena::engine_proc::EngineProc;
use lianzhu::arena::referee::{play_game, GameResult, GameSettings, Reason};
use lianzhu::rules::{forbidden, Board, Foul};
use lianzhu::types::{Color, Pos, Rule};
use std::time::{Duration, Instant};

fn fake(actions: &str) -> EngineProc {
    fake_env(actions, "")
}

/// A scripted engine; `env` is a prefix such as `FAKE_START=ERROR ` (may be empty).
fn fake_env(actions: &str, env: &str) -> EngineProc {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fake-engines/scripted.sh"
    );
    EngineProc::spawn("fake", &format!("{env} exec sh {script} {actions}")).unwrap()
}

fn settings(rule: Rule, size: usize) -> GameSettings {
    GameSettings {
        rule,
        size,
        turn_ms: 2000,
        match_ms: 0,
        max_memory: 0,
        tolerance_ms: 500,
        start_ms: 3000,
        max_moves: 0,
    }
}

fn play(black: &str, white: &str, s: &GameSettings, opening: &[Pos]) -> GameResult {
    play_game(&mut fake(black), &mut fake(white), s, opening)
}

#[test]
fn black_five_wins_and_is_recorded() {
    let s = settings(Rule::Freestyle, 15);
    let r = play("0,0 1,0 2,0 3,0 4,0", "0,1 1,1 2,1 3,1", &s, &[]);
    assert_eq!(r.winner, Some(Color::Black), "{r:?}");
    assert_eq!(r.reason, Reason::Five);
    assert_eq!(r.moves.len(), 9);
    assert_eq!(r.moves[8], Pos::new(4, 0));
    assert!(!r.reason.is_forfeit());
}

#[test]
fn white_wins_after_an_opening_and_the_protocol_is_followed() {
    let dir = std::env::temp_dir().join(format!("lianzhu-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("white.log");
    let _ = std::fs::remove_file(&log);
    let s = GameSettings {
        match_ms: 60_000,
        ..settings(Rule::Renju, 15)
    };
    // Opening: black 7,7 and 13,13, white 0,14; white to move. White makes five on row 14.
    let opening = [Pos::new(7, 7), Pos::new(0, 14), Pos::new(13, 13)];
    let mut black = fake("9,9 11,9 9,11 11,11");
    let mut white = fake_env(
        "msg:1,14 crlf:2,14 3,14 4,14",
        &format!("FAKE_LOG={}", log.display()),
    );
    let r = play_game(&mut black, &mut white, &s, &opening);
    assert_eq!(r.winner, Some(Color::White), "{r:?}");
    assert_eq!(r.reason, Reason::Five);
    assert_eq!(r.opening_len, 3);
    assert_eq!(r.moves.len(), 3 + 7);
    drop(white);
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    // START, the INFOs, then BOARD with the opening from white's side, then TURNs.
    assert_eq!(lines[0], "START 15");
    assert!(lines.contains(&"INFO timeout_turn 2000"));
    assert!(lines.contains(&"INFO timeout_match 60000"));
    assert!(lines.contains(&"INFO rule 4"));
    let board_at = lines.iter().position(|l| *l == "BOARD").unwrap();
    assert!(lines[board_at - 1].starts_with("INFO time_left "));
    assert_eq!(
        &lines[board_at..board_at + 5],
        ["BOARD", "7,7,2", "0,14,1", "13,13,2", "DONE"]
    );
    // Black's first reply 9,9 reaches white as a TURN after a time_left update.
    assert_eq!(lines[board_at + 6], "TURN 9,9");
    assert!(lines[board_at + 5].starts_with("INFO time_left "));
    assert_eq!(lines.iter().filter(|l| l.starts_with("TURN")).count(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn renju_foul_loses_for_black_only() {
    // Black 5,7 6,7 (row) and 7,5 7,6 (column); 7,7 makes two open threes.
    let black = "5,7 7,5 6,7 7,6 7,7";
    let white = "0,0 2,0 4,0 14,14";
    let mut b = Board::square(15).unwrap();
    for (x, y) in [(5, 7), (7, 5), (6, 7), (7, 6)] {
        b.place(Pos::new(x, y), Color::Black);
    }
    assert_eq!(forbidden(&b, Pos::new(7, 7)), Some(Foul::DoubleThree));

    let r = play(black, white, &settings(Rule::Renju, 15), &[]);
    assert_eq!(r.winner, Some(Color::White), "{r:?}");
    assert_eq!(r.reason, Reason::Foul(Foul::DoubleThree));
    assert!(!r.reason.is_forfeit());
    assert_eq!(r.moves.last(), Some(&Pos::new(7, 7)));
    // The same moves are fine in freestyle: black just runs out of script (garbage).
    let r = play(black, white, &settings(Rule::Freestyle, 15), &[]);
    assert_eq!(r.moves.len(), 9);
    assert!(matches!(r.reason, Reason::Garbage(_)), "{r:?}");
}

#[test]
fn occupied_and_off_board_points_are_illegal() {
    let s = settings(Rule::Standard, 15);
    let r = play("7,7 8,8", "7,7", &s, &[]);
    assert_eq!(r.winner, Some(Color::Black));
    assert!(
        matches!(&r.reason, Reason::Illegal(t) if t.contains("occupied")),
        "{r:?}"
    );
    assert!(r.reason.is_forfeit());
    let r = play("15,3", "0,0", &s, &[]);
    assert_eq!(r.winner, Some(Color::White));
    assert!(matches!(r.reason, Reason::Illegal(_)), "{r:?}");
    let r = play("7,7 -1,0", "0,0", &s, &[]);
    assert_eq!(r.winner, Some(Color::White));
    assert!(matches!(r.reason, Reason::Illegal(_)), "{r:?}");
    // An occupied point of the opening counts too.
    let r = play("0,0", "7,7", &s, &[Pos::new(7, 7)]);
    assert_eq!(r.winner, Some(Color::Black), "{r:?}");
}

#[test]
fn late_reply_loses_on_the_turn_limit() {
    let s = GameSettings {
        turn_ms: 300,
        tolerance_ms: 700,
        ..settings(Rule::Freestyle, 15)
    };
    let t0 = Instant::now();
    let r = play("7,7 8,8", "hang", &s, &[]);
    assert_eq!(r.winner, Some(Color::Black), "{r:?}");
    assert!(matches!(r.reason, Reason::Late(_)), "{r:?}");
    assert!(r.reason.is_forfeit());
    // The referee stops waiting at turn + tolerance, it does not wait for the engine.
    assert!(t0.elapsed() < Duration::from_secs(5));
    // A slow reply inside the tolerance is accepted.
    let r = play("0,0 1,0 2,0 3,0 4,0", "sleep:0.4:0,1 0,2 0,3 0,4", &s, &[]);
    assert_eq!(r.reason, Reason::Five, "{r:?}");
    assert!(r.max_move_ms[Color::White.index()] >= 400);
}

#[test]
fn late_reply_loses_on_the_match_clock() {
    // Each white move takes ~0.7 s: within the 2 s turn limit, but the 1 s match clock
    // (+0.2 s tolerance) runs out on the second move.
    let s = GameSettings {
        turn_ms: 2000,
        match_ms: 1000,
        tolerance_ms: 200,
        ..settings(Rule::Freestyle, 15)
    };
    let r = play(
        "0,0 1,0 2,0 3,0 4,0",
        "sleep:0.7:0,1 sleep:0.7:1,1 sleep:0.7:2,1",
        &s,
        &[],
    );
    assert_eq!(r.winner, Some(Color::Black), "{r:?}");
    assert!(matches!(r.reason, Reason::Late(_)), "{r:?}");
    assert_eq!(
        r.moves.len(),
        3,
        "white's first move counts, the second is late"
    );
}

#[test]
fn crash_and_garbage_lose_and_messages_do_not() {
    let s = settings(Rule::Freestyle, 15);
    let r = play("7,7 exit", "msg:8,8", &s, &[]);
    assert_eq!(r.winner, Some(Color::White), "{r:?}");
    assert_eq!(r.reason, Reason::Crash);
    let r = play("7,7", "junk", &s, &[]);
    assert_eq!(r.winner, Some(Color::Black), "{r:?}");
    assert_eq!(r.reason, Reason::Garbage("hello, referee".into()));
    assert!(r.loser_tail.iter().any(|l| l == "hello, referee"));
    let r = play("exit", "0,0", &s, &[]);
    assert_eq!(r.winner, Some(Color::White));
    assert_eq!(r.reason, Reason::Crash);
}

#[test]
fn start_must_be_answered_ok() {
    let s = settings(Rule::Freestyle, 15);
    let mut bad = fake_env("7,7", "FAKE_START='ERROR no such size'");
    let r = play_game(&mut fake("7,7"), &mut bad, &s, &[]);
    assert_eq!(r.winner, Some(Color::Black), "{r:?}");
    assert_eq!(r.reason, Reason::StartFailed("ERROR no such size".into()));
    assert!(r.reason.is_forfeit());
    let mut dead = EngineProc::spawn("dead", "exit 3").unwrap();
    let r = play_game(&mut dead, &mut fake("7,7"), &s, &[]);
    assert_eq!(r.winner, Some(Color::White), "{r:?}");
    assert_eq!(r.reason, Reason::Crash);
}

#[test]
fn full_board_and_stone_cap_are_draws() {
    // 5x5 filled without a five:  B B W W B / W W B B W / B B W W B / W W B B W / B B W W B.
    let mut black = Vec::new();
    let mut white = Vec::new();
    for y in 0..5 {
        for x in 0..5 {
            let is_black = if y % 2 == 0 {
                x < 2 || x == 4
            } else {
                x == 2 || x == 3
            };
            let m = format!("{x},{y}");
            if is_black {
                black.push(m)
            } else {
                white.push(m)
            }
        }
    }
    assert_eq!((black.len(), white.len()), (13, 12));
    let r = play(
        &black.join(" "),
        &white.join(" "),
        &settings(Rule::Freestyle, 5),
        &[],
    );
    assert_eq!(r.winner, None, "{r:?}");
    assert_eq!(r.reason, Reason::BoardFull);
    assert_eq!(r.moves.len(), 25);

    let s = GameSettings {
        max_moves: 6,
        ..settings(Rule::Freestyle, 15)
    };
    let r = play(
        "0,0 1,0 2,0 3,0 4,0",
        "0,1 1,1 2,1 3,1",
        &s,
        &[Pos::new(7, 7), Pos::new(8, 8)],
    );
    assert_eq!(r.winner, None, "{r:?}");
    assert_eq!(r.reason, Reason::MoveLimit);
    assert_eq!(r.moves.len(), 6);
}
