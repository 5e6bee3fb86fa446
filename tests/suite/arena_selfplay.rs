//! End to end: `lianzhu-match` plays the built-in sparring brain against itself under every
//! rule from the shared opening suites, and every recorded game is replayed with the rules code
//! to check the referee's bookkeeping (move order, colours, the winner and the reason).

use crate::common;

use crate::common::data_path;
use lianzhu::notation::parse_moves;
use lianzhu::rules::{judge, Board, MoveOutcome};
use lianzhu::types::{Color, Rule};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_lianzhu-match");

fn replay(line: &str, rule: Rule) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (moves, result, reason) = (parse_moves(words[0]).unwrap(), words[1], words[2]);
    let mut board = Board::square(15).unwrap();
    let last = moves.len() - 1;
    for (i, &p) in moves.iter().enumerate() {
        let colour = board.side_to_move();
        let outcome = judge(&board, p, colour, rule);
        if i < last {
            assert_eq!(outcome, MoveOutcome::Continue, "move {i} of {line}");
            board.make(p);
            continue;
        }
        match reason {
            "five" => {
                assert_eq!(outcome, MoveOutcome::Win, "{line}");
                let expected = if colour == Color::Black { "1-0" } else { "0-1" };
                assert_eq!(result, expected, "{line}");
            }
            "board-full" | "move-limit" => {
                assert_eq!(outcome, MoveOutcome::Continue, "{line}");
                board.make(p);
                assert_eq!(result, "1/2-1/2", "{line}");
                if reason == "board-full" {
                    assert!(board.is_full(), "{line}");
                } else {
                    assert_eq!((rule, moves.len()), (Rule::Renju, 200), "{line}");
                }
            }
            other => panic!("the sparring brain should not {other}: {line}"),
        }
    }
}

#[test]
fn sparring_self_play_under_every_rule() {
    if !common::have_shared_data() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("lianzhu-selfplay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engine = format!("{BIN} --sparring");
    let data = data_path("openings");
    for (rule, book) in [
        ("freestyle", "freestyle15"),
        ("standard", "standard15"),
        ("renju", "renju15"),
        ("caro", "freestyle15"),
        ("caro5", "freestyle15"),
    ] {
        let games = dir.join(format!("{rule}.txt"));
        let out = Command::new(BIN)
            .args(["--engine", &engine, "--engine", &engine, "--rule", rule])
            .args(["--games", "12", "--concurrency", "2", "--turn-ms", "5000"])
            .args([
                "--match-ms",
                "60000",
                "--openings",
                &format!("{data}/{book}.txt"),
            ])
            .arg("--games-out")
            .arg(&games)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{rule}: {text}");
        let result = text.lines().last().unwrap();
        assert!(result.starts_with("Result: "), "{rule}: {text}");
        assert!(result.ends_with(" forfeits 0"), "{rule}: {text}");
        assert_eq!(text.matches(", fouls 0,").count(), 2, "{rule}: {text}");
        let rule = Rule::from_name(rule).unwrap();
        let records = std::fs::read_to_string(&games).unwrap();
        assert_eq!(records.lines().count(), 12);
        for line in records.lines() {
            replay(line, rule);
        }
        // W + L + D adds up to the games played.
        let wld: Vec<u32> = result["Result: ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .split('-')
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(wld.iter().sum::<u32>(), 12, "{result}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
