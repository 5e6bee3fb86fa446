//! Pattern-layer speed (`cargo bench --bench patterns`): table build time, make+undo with
//! pattern updates, static evaluation and move generation, on positions from real play.

use lianzhu::eval::EvalBoard;
use lianzhu::notation::parse_moves;
use lianzhu::rules::{tables, Board};
use lianzhu::search::history::History;
use lianzhu::search::movegen::{self, Hints};
use lianzhu::tools::bench::POSITIONS;
use lianzhu::types::{Pos, Rule};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let t = Instant::now();
        tables::init(rule);
        println!(
            "table build {rule}: {:.1} ms",
            t.elapsed().as_secs_f64() * 1e3
        );
    }
    let boards: Vec<EvalBoard> = POSITIONS
        .iter()
        .map(|&(size, rule, moves)| {
            let mut b = Board::square(size).unwrap();
            for p in parse_moves(moves).unwrap() {
                b.make(p);
            }
            EvalBoard::new(&b, rule)
        })
        .collect();

    // make + undo of every candidate move of every position.
    let reps = std::env::var("PATTERNS_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let t = Instant::now();
    let ops = make_undo(&boards, reps);
    let s = t.elapsed().as_secs_f64();
    println!(
        "make+undo: {:.2} M/s ({ops} in {s:.2} s)",
        ops as f64 / s / 1e6
    );
    if std::env::var_os("PATTERNS_ONLY_MAKE_UNDO").is_some() {
        return;
    }

    let t = Instant::now();
    let mut n = 0u64;
    for _ in 0..2_000_000 / boards.len() {
        for eb in &boards {
            black_box(black_box(eb).evaluate());
            n += 1;
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!("evaluate: {:.1} M/s", n as f64 / s / 1e6);

    let history = History::new();
    let hints = Hints {
        tt_move: Pos::NONE,
        killers: [Pos::NONE; 2],
        history: &history,
        counter: Pos::NONE,
    };
    let mut out = Vec::new();
    let t = Instant::now();
    let mut n = 0u64;
    for _ in 0..20_000 {
        for eb in &boards {
            black_box(movegen::generate(eb, &hints, &mut out));
            n += 1;
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!("movegen: {:.2} M/s", n as f64 / s / 1e6);
}

/// `reps` rounds of make + evaluate + undo of every empty point near a stone of every board;
/// returns the number of make+undo pairs. Each board is copied and its moves listed once,
/// outside the rounds (make+undo leaves the board as it was), so the loop times only
/// make, evaluate and undo. Not inlined, so that
/// `valgrind --tool=callgrind --toggle-collect='*make_undo*'` counts just this loop.
#[inline(never)]
fn make_undo(boards: &[EvalBoard], reps: usize) -> u64 {
    let mut work: Vec<(EvalBoard, Vec<Pos>)> = boards
        .iter()
        .map(|eb| {
            let moves = eb
                .playable()
                .iter()
                .copied()
                .filter(|&p| eb.board().is_empty(p) && eb.near(p) > 0)
                .collect();
            (eb.clone(), moves)
        })
        .collect();
    let mut ops = 0u64;
    for _ in 0..reps {
        for (eb, moves) in &mut work {
            for &p in moves.iter() {
                eb.make(p);
                black_box(eb.evaluate());
                eb.undo();
                ops += 1;
            }
        }
    }
    ops
}
