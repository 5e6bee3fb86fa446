//! The clock and the stop flag: replies within `timeout_turn` and within a small `time_left`,
//! and a prompt return when the stop flag is set.

use lianzhu::notation::parse_moves;
use lianzhu::rules::{self, Board};
use lianzhu::search::time::TimeControl;
use lianzhu::search::{Limits, Searcher};
use lianzhu::types::Rule;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const OPENINGS: [&str; 4] = [
    "h8i9i8g8j10h9",
    "h8h9i9g7i7i8j8",
    "h8i8j9g7i10h9g9h10",
    "h8g9i7i9j6k5g8h9",
];

fn limits(turn: i64, match_ms: i64, left: i64) -> Limits {
    Limits {
        time: Some(TimeControl {
            turn_ms: turn,
            match_ms,
            time_left_ms: left,
        }),
        ..Limits::default()
    }
}

/// Plays `moves` plies of self-play from each opening under `limits`; returns the slowest
/// reply.
fn slowest_reply(rule: Rule, limits: &Limits, moves: usize) -> Duration {
    let stop = AtomicBool::new(false);
    let mut worst = Duration::ZERO;
    // The engine builds the tables at start-up, not on the clock of a move.
    lianzhu::rules::tables::init(rule);
    for opening in OPENINGS {
        let mut board = Board::square(15).unwrap();
        for p in parse_moves(opening).unwrap() {
            board.make(p);
        }
        let mut searcher = Searcher::new(8 << 20);
        for _ in 0..moves {
            let t = Instant::now();
            let r = searcher.think(&board, rule, limits, &stop, &mut |_| {});
            worst = worst.max(t.elapsed());
            let Some(r) = r else { break };
            assert!(rules::is_legal(&board, r.best, board.side_to_move(), rule));
            board.make(r.best);
            if rules::winner_after_last(&board, rule).is_some() || board.is_full() {
                break;
            }
        }
    }
    worst
}

#[test]
fn replies_within_the_turn_limit() {
    let worst = slowest_reply(Rule::Freestyle, &limits(200, 0, i64::from(i32::MAX)), 10);
    eprintln!("timeout_turn 200: slowest reply {worst:?}");
    assert!(worst < Duration::from_millis(200), "{worst:?}");
}

#[test]
fn replies_within_a_small_time_left() {
    let worst = slowest_reply(Rule::Renju, &limits(5_000, 60_000, 1_500), 8);
    eprintln!("time_left 1500: slowest reply {worst:?}");
    assert!(worst < Duration::from_millis(1_500 / 4 + 60), "{worst:?}");
}

#[test]
fn zero_turn_time_moves_at_once() {
    let worst = slowest_reply(Rule::Standard, &limits(0, 0, i64::from(i32::MAX)), 6);
    eprintln!("timeout_turn 0: slowest reply {worst:?}");
    assert!(worst < Duration::from_millis(100), "{worst:?}");
}

#[test]
fn stop_flag_returns_the_best_move_so_far() {
    let mut board = Board::square(20).unwrap();
    for p in parse_moves(OPENINGS[2]).unwrap() {
        board.make(p);
    }
    let stop = AtomicBool::new(false);
    let unlimited = Limits {
        time: None,
        ..Limits::default()
    };
    let mut searcher = Searcher::new(8 << 20);
    lianzhu::rules::tables::init(Rule::Freestyle);
    let start = Instant::now();
    let (r, returned) = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(150));
            stop.store(true, Ordering::Relaxed);
        });
        let r = searcher.think(&board, Rule::Freestyle, &unlimited, &stop, &mut |_| {});
        (r, start.elapsed())
    });
    let r = r.expect("a move");
    assert!(board.is_empty(r.best));
    eprintln!("stop after 150 ms: returned after {returned:?}");
    assert!(returned < Duration::from_millis(400), "{returned:?}");
}
