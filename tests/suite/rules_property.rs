//! Property test over random games (seeded, reproducible): under every rule and on square and
//! rectangular boards, the library `Engine` only ever returns legal moves, takes an immediate
//! win, blocks the opponent's five, keeps the incremental hash equal to a recomputed one, and
//! undoing every move restores the initial hash.

use crate::common::{Rng, RULES};
use lianzhu::engine::{Engine, Request};
use lianzhu::rules::{self, Board};
use lianzhu::types::{Color, Pos, Rule};
use std::sync::atomic::AtomicBool;

const SIZES: [(usize, usize); 6] = [(5, 5), (9, 6), (12, 15), (15, 15), (20, 20), (32, 8)];
const GAMES_PER_CASE: u64 = 4;
const MAX_PLIES: usize = 90;

/// Who the engine plays in a game.
#[derive(Clone, Copy, Debug)]
enum Seat {
    Only(Color),
    Both,
}

/// A random legal move, mostly next to the stones already played (so games get tactical).
fn random_move(board: &Board, rule: Rule, rng: &mut Rng) -> Option<Pos> {
    let me = board.side_to_move();
    let legal: Vec<Pos> = board
        .empty_points()
        .filter(|&p| rules::is_legal(board, p, me, rule))
        .collect();
    let near: Vec<Pos> = legal
        .iter()
        .copied()
        .filter(|&p| board.has_neighbour(p, 1))
        .collect();
    let pool = if !near.is_empty() && rng.below(5) != 0 {
        near
    } else {
        legal
    };
    (!pool.is_empty()).then(|| pool[rng.below(pool.len())])
}

/// Checks the engine's reply in the current position.
fn check_reply(board: &Board, rule: Rule, p: Pos, label: &str) {
    let me = board.side_to_move();
    assert!(
        rules::is_legal(board, p, me, rule),
        "{label}: illegal reply {p:?}\n{board:?}"
    );
    let my_wins = rules::winning_points(board, me, rule);
    if !my_wins.is_empty() {
        assert!(
            rules::is_five(board, p, me, rule),
            "{label}: missed the win at {my_wins:?}, played {p:?}\n{board:?}"
        );
        return;
    }
    let their_wins: Vec<Pos> = rules::winning_points(board, me.opponent(), rule)
        .into_iter()
        .filter(|&q| rules::is_legal(board, q, me, rule))
        .collect();
    if !their_wins.is_empty() {
        assert!(
            their_wins.contains(&p),
            "{label}: did not block {their_wins:?}, played {p:?}\n{board:?}"
        );
    }
}

fn play_game(rule: Rule, (w, h): (usize, usize), seed: u64) -> usize {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let seat = match rng.below(3) {
        0 => Seat::Only(Color::Black),
        1 => Seat::Only(Color::White),
        _ => Seat::Both,
    };
    let label = format!("{rule} {w}x{h} seed {seed} engine {seat:?}");
    let mut engine = Engine::new();
    engine.options.rule = rule;
    // The search moves "as fast as possible" (a few ms), so the test measures legality, not time.
    engine.options.timeout_turn_ms = 0;
    engine.start(w, h).unwrap();
    let initial = engine.board().unwrap().hash();
    let stop = AtomicBool::new(false);
    let mut played = Vec::new();
    while played.len() < MAX_PLIES {
        let board = engine.board().unwrap();
        if board.is_full() || rules::winner_after_last(board, rule).is_some() {
            break;
        }
        let side = board.side_to_move();
        let engine_moves = match seat {
            Seat::Only(c) => c == side,
            Seat::Both => true,
        };
        let p = if engine_moves {
            let p = engine
                .run(Request::Move, &stop, &mut |_, _| {})
                .unwrap_or_else(|e| panic!("{label}: no move: {e}"))
                .best()
                .unwrap_or_else(|| panic!("{label}: an answer without a move"));
            check_reply(engine.board().unwrap(), rule, p, &label);
            p
        } else {
            match random_move(board, rule, &mut rng) {
                Some(p) => p,
                None => break, // only forbidden points left for black
            }
        };
        engine.play(p).unwrap();
        played.push(p);
        let board = engine.board().unwrap();
        assert_eq!(board.hash(), board.compute_hash(), "{label}: hash drifted");
    }
    let plies = played.len();
    while let Some(p) = played.pop() {
        engine.takeback(p).unwrap();
    }
    let board = engine.board().unwrap();
    assert_eq!(board.stone_count(), 0, "{label}");
    assert_eq!(
        board.hash(),
        initial,
        "{label}: undo did not restore the hash"
    );
    plies
}

#[test]
fn random_games_get_legal_replies_and_undo_restores_the_hash() {
    let mut games = 0;
    let mut plies = 0;
    for (ri, &rule) in RULES.iter().enumerate() {
        for (si, &size) in SIZES.iter().enumerate() {
            for g in 0..GAMES_PER_CASE {
                let seed = 1 + (ri as u64) * 1000 + (si as u64) * 100 + g;
                plies += play_game(rule, size, seed);
                games += 1;
            }
        }
    }
    assert_eq!(games, RULES.len() * SIZES.len() * GAMES_PER_CASE as usize);
    assert!(
        plies > games * 10,
        "games too short: {plies} plies in {games} games"
    );
}
