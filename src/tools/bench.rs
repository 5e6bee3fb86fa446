//! `bench`: a fixed-depth search of fixed positions under every main rule and both board
//! sizes, one thread, a fixed TT size; the node count and signature identify the search.
//! Each search is a [`Request::Move`] through [`Engine::run`], the door every other caller
//! uses, with the options untimed and limited by depth (then by nodes).
//!
//! Invariants: no clock is read during the searches (depth-limited), the TT is cleared before
//! every position, so the same binary prints the same `Nodes searched` and `Signature` every
//! run. The last three lines are `Nodes searched: N`, `Nodes/second: N`, `Signature: HEX`.

use crate::engine::{Engine, Line, Request};
use crate::eval::EvalSet;
use crate::notation::parse_moves;
use crate::rules::Board;
use crate::search::params::MAX_DEPTH;
use crate::types::Rule;
use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Default bench depth.
pub const DEFAULT_DEPTH: i32 = 8;
/// Node budget of the bench's second pass, which reports the depth each position reaches.
pub const DEPTH_PASS_NODES: u64 = 200_000;
/// TT size used by the bench.
pub const BENCH_HASH_BYTES: usize = 16 << 20;

/// The bench positions: board size, rule, moves from an empty board.
pub const POSITIONS: &[(usize, Rule, &str)] = &[
    (15, Rule::Freestyle, "h8i9i8g8j10h9"),
    (15, Rule::Freestyle, "h8h9i9g7i7i8j8"),
    (15, Rule::Freestyle, "h8i8j9g7i10h9g9h10"),
    (20, Rule::Freestyle, "k10l11l10j10m9k11"),
    (20, Rule::Freestyle, "k10k11l11j9l9l10m10n11j11"),
    (15, Rule::Standard, "h8i9i8g8j10h9h10"),
    (15, Rule::Standard, "h8g9i7i9j6k5g8h9"),
    (15, Rule::Renju, "h8i9h10j10g9i8i10"),
    (15, Rule::Renju, "h8h9i10g8i8i9g10j7"),
    (15, Rule::Renju, "h8i7j8i9i8g8k8l8j9"),
];

/// Runs the bench at `depth` with the built-in evaluation and writes one line per position,
/// then the totals.
pub fn run(depth: i32, out: &mut dyn Write) -> io::Result<u64> {
    run_with(depth, &EvalSet::builtin(), out)
}

/// [`run`] with the evaluation `eval`.
pub fn run_with(depth: i32, eval: &EvalSet, out: &mut dyn Write) -> io::Result<u64> {
    let mut engine = Engine::new();
    engine.set_eval(eval.clone());
    engine.options.threads = 1;
    engine.options.hash_kb = Some((BENCH_HASH_BYTES / 1024) as u64);
    engine.options.untimed = true;
    let start = Instant::now();
    let mut total = 0u64;
    let mut signature: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, &(size, rule, moves)) in POSITIONS.iter().enumerate() {
        let mut board = Board::square(size).expect("bench board size");
        for p in parse_moves(moves).expect("bench position") {
            board.try_make(p).expect("bench move");
        }
        let r = search(&mut engine, board, rule, depth, 0);
        total += r.nodes;
        // The move's coordinates, not its padded-grid index: a change of the grid's padding
        // leaves the signature as it is.
        let mv = ((r.mv.x() as u64) << 8) | r.mv.y() as u64;
        for v in [r.nodes, mv, r.score as u64, r.depth as u64] {
            signature = (signature ^ v).wrapping_mul(0x0100_0000_01b3);
        }
        writeln!(
            out,
            "Position {:>2} ({rule} {size}): best {} score {} depth {} nodes {}",
            i + 1,
            crate::notation::format_pos(r.mv),
            r.score,
            r.depth,
            r.nodes
        )?;
    }
    let secs = start.elapsed().as_secs_f64().max(1e-6);
    // Second pass: how deep a fixed node budget gets, and the branching factor that implies.
    let mut depths = 0.0;
    let mut log_branching = 0.0;
    for &(size, rule, moves) in POSITIONS {
        let mut board = Board::square(size).expect("bench board size");
        for p in parse_moves(moves).expect("bench position") {
            board.try_make(p).expect("bench move");
        }
        let r = search(&mut engine, board, rule, MAX_DEPTH, DEPTH_PASS_NODES);
        let depth = f64::from(r.depth.max(1));
        depths += depth;
        log_branching += (r.nodes.max(2) as f64).ln() / depth;
    }
    let n = POSITIONS.len() as f64;
    writeln!(
        out,
        "Depth at {DEPTH_PASS_NODES} nodes: mean {:.2}, branching factor {:.2}",
        depths / n,
        (log_branching / n).exp()
    )?;
    writeln!(out, "Nodes searched: {total}")?;
    writeln!(out, "Nodes/second: {}", (total as f64 / secs) as u64)?;
    writeln!(out, "Signature: {signature:016x}")?;
    Ok(total)
}

/// One bench search of `board` under `rule` from a cleared TT, to `depth` and at most
/// `max_nodes` nodes (0: no node limit).
fn search(engine: &mut Engine, board: Board, rule: Rule, depth: i32, max_nodes: u64) -> Line {
    engine.options.rule = rule;
    engine.options.max_depth = depth;
    engine.options.max_nodes = max_nodes;
    engine.set_board(board).expect("bench board size");
    engine.clear_hash();
    let stop = AtomicBool::new(false);
    let answer = engine.run(Request::Move, &stop, &mut |_, _| {});
    let line = answer.ok().and_then(|a| a.lines().first().cloned());
    line.expect("bench positions have moves")
}
