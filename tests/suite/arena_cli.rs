//! `lianzhu-match` end to end with scripted fake engines: game pairs, keep-alive and restart
//! modes, game records, forfeits, SPRT early stop, per-engine turn times (time odds), and the
//! final `Result:` line.

use lianzhu::notation::parse_moves;
use std::path::{Path, PathBuf};
use std::process::Command;

const SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fake-engines/scripted.sh"
);

/// An engine command that plays down column `x` from the top: five moves, five in a row.
fn column_player(x: usize) -> String {
    let moves: Vec<String> = (0..5).map(|y| format!("{x},{y}")).collect();
    format!("sh {SCRIPT} {}", moves.join(" "))
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lianzhu-cli-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lianzhu-match"))
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn pairs_swap_colours_and_records_replay() {
    let dir = temp_dir("pairs");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "# two openings\nh8i9 first\n\nh8 second\n").unwrap();
    let games = dir.join("games.txt");
    let (a, b) = (column_player(0), column_player(14));
    for mode in [
        &["--concurrency", "1"][..],
        &["--restart-per-game", "--concurrency", "2"],
    ] {
        let mut args = vec![
            "--engine",
            &a,
            "--engine",
            &b,
            "--name",
            "left",
            "--name",
            "right",
            "--games",
            "4",
            "--turn-ms",
            "2000",
            "--match-ms",
            "20000",
            "--openings",
            openings.to_str().unwrap(),
            "--games-out",
            games.to_str().unwrap(),
        ];
        args.extend_from_slice(mode);
        let (code, out) = run(&args);
        assert_eq!(code, 0, "{out}");
        // Whoever moves first after the opening completes its column first, so each engine
        // wins exactly the game of each pair in which it moves first.
        assert_eq!(
            out.lines().last(),
            Some("Result: 2-2-0 forfeits 0"),
            "{out}"
        );
        assert_eq!(
            out.lines().filter(|l| l.starts_with("Game ")).count(),
            4,
            "{out}"
        );
        let text = std::fs::read_to_string(&games).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        lines.sort_by_key(|l| {
            l.split(" game=")
                .nth(1)
                .map(|g| g.split(' ').next().unwrap().parse::<u32>().unwrap())
        });
        assert_eq!(lines.len(), 4, "{text}");
        for (i, line) in lines.iter().enumerate() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let moves = parse_moves(words[0]).unwrap();
            // Opening line 2 (h8i9, black to move) for the first pair, line 4 (h8) after.
            let (opening, result) = if i < 2 { (2, "1-0") } else { (4, "0-1") };
            assert_eq!(words[1], result, "{line}");
            assert_eq!(words[2], "five", "{line}");
            assert!(line.contains(&format!("opening={opening}")), "{line}");
            let black = if i % 2 == 0 { "left" } else { "right" };
            assert!(line.contains(&format!("black={black}")), "{line}");
            assert_eq!(moves.len(), if i < 2 { 2 + 9 } else { 1 + 9 }, "{line}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn forfeits_count_and_sprt_stops_at_a_bound() {
    let a = column_player(0);
    let crash = format!("sh {SCRIPT} exit");
    let (code, out) = run(&[
        "--engine",
        &a,
        "--engine",
        &crash,
        "--games",
        "40",
        "--sprt",
        "0,400,0.05,0.05",
        "--turn-ms",
        "2000",
    ]);
    assert_eq!(code, 0, "{out}");
    // Five pairs of crash wins give LLR 2.989 > ln(0.95/0.05) = 2.944 for elo 0 vs 400, four
    // give less (see stats.rs), so the match stops after ten games.
    assert!(out.contains("H1 accepted"), "{out}");
    assert!(out.contains("last output lines"), "{out}");
    assert_eq!(
        out.lines().last(),
        Some("Result: 10-0-0 forfeits 10"),
        "{out}"
    );
}

#[test]
fn garbage_and_late_engines_forfeit_in_a_gauntlet() {
    let a = column_player(0);
    let junk = format!("sh {SCRIPT} junk");
    let slow = format!("sh {SCRIPT} hang");
    let (code, out) = run(&[
        "--engine",
        &a,
        "--engine",
        &junk,
        "--engine",
        &slow,
        "--games",
        "2",
        "--turn-ms",
        "1000",
        "--tolerance-ms",
        "500",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("not a move: \"hello, referee\""), "{out}");
    assert!(out.contains("late reply"), "{out}");
    assert_eq!(
        out.lines().last(),
        Some("Result: 4-0-0 forfeits 4"),
        "{out}"
    );
}

#[test]
fn bad_arguments_exit_2_without_a_result() {
    let (code, out) = run(&["--engine", "x", "--engine", "y", "--rule", "chess"]);
    assert_eq!(code, 2);
    assert!(!out.contains("Result:"));
}

#[test]
fn a_late_engine_is_restarted_before_its_next_game() {
    // The slow engine answers after 1.2 s, long past 300 + 200 ms. Were it kept alive, its
    // stale move would be read as the answer to the next START ("START failed").
    let a = column_player(0);
    let slow = format!("sh {SCRIPT} sleep:1.2:7,7");
    let (code, out) = run(&[
        "--engine",
        &a,
        "--engine",
        &slow,
        "--games",
        "2",
        "--turn-ms",
        "300",
        "--tolerance-ms",
        "200",
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.matches("late reply").count(), 2, "{out}");
    assert!(!out.contains("START failed"), "{out}");
    assert_eq!(
        out.lines().last(),
        Some("Result: 2-0-0 forfeits 2"),
        "{out}"
    );
}

#[test]
fn each_engine_gets_its_own_turn_time_and_lateness_limit() {
    let dir = temp_dir("odds");
    // Both engines think 0.6 s over the first move of each game, then play down a column.
    let slow = |x: usize, log: &Path| {
        let moves: Vec<String> = (1..5).map(|y| format!("{x},{y}")).collect();
        format!(
            "FAKE_LOG={} sh {SCRIPT} sleep:0.6:{x},0 {}",
            log.display(),
            moves.join(" ")
        )
    };
    let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
    let (a, b) = (slow(0, &log_a), slow(14, &log_b));
    for (turn_a, turn_b, result) in [
        ("1500", "100", "Result: 2-0-0 forfeits 2"),
        ("100", "1500", "Result: 0-2-0 forfeits 2"),
    ] {
        let _ = std::fs::remove_file(&log_a);
        let _ = std::fs::remove_file(&log_b);
        // 0.6 s is inside 1500 + 300 ms and past 100 + 300 ms: only the engine with the
        // short turn is late, in both games of the pair (it is restarted after the first).
        let (code, out) = run(&[
            "--engine",
            &a,
            "--name",
            "a",
            "--turn-ms",
            turn_a,
            "--engine",
            &b,
            "--name",
            "b",
            "--turn-ms",
            turn_b,
            "--tolerance-ms",
            "300",
            "--games",
            "2",
        ]);
        assert_eq!(code, 0, "{out}");
        assert!(
            out.starts_with(&format!(
                "Match: freestyle 15x15, turn {turn_a} ms (a), {turn_b} ms (b),"
            )),
            "{out}"
        );
        assert_eq!(out.matches("late reply").count(), 2, "{out}");
        assert_eq!(out.matches("(turn 100 ms,").count(), 2, "{out}");
        assert_eq!(out.lines().last(), Some(result), "{out}");
        for (log, turn) in [(&log_a, turn_a), (&log_b, turn_b)] {
            let text = std::fs::read_to_string(log).unwrap();
            let sent: Vec<&str> = text
                .lines()
                .filter(|l| l.starts_with("INFO timeout_turn"))
                .collect();
            assert!(!sent.is_empty(), "{text}");
            assert!(
                sent.iter()
                    .all(|l| *l == format!("INFO timeout_turn {turn}")),
                "{text}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
