//! Pattern-layer speed (`cargo bench --bench patterns`): table build time, make+undo with
//! pattern updates, static evaluation and move generation, on positions from real play.

use lianzhu::bench::POSITIONS;
use lianzhu::eval::EvalBoard;
use lianzhu::notation::parse_moves;
use lianzhu::rules::{tables, Board};
use lianzhu::search::history::History;
use lianzhu::search::movegen::{self, Hints};
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
    let mut ops = 0u64;
    let t = Instant::now();
    for _ in 0..200 {
        for eb in &boards {
            let mut eb = eb.clone();
            let moves: Vec<Pos> = eb
                .playable()
                .iter()
                .copied()
                .filter(|&p| eb.board().is_empty(p) && eb.near(p) > 0)
                .collect();
            for p in moves {
                eb.make(p);
                black_box(eb.evaluate());
                eb.undo();
                ops += 1;
            }
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "make+undo: {:.2} M/s ({ops} in {s:.2} s)",
        ops as f64 / s / 1e6
    );

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
