//! A smoke match of the search against the simple mover: every move legal, no crash, and the
//! search wins the large majority of games under every main rule.

use lianzhu::engine::simple_move;
use lianzhu::notation::parse_moves;
use lianzhu::rules::{self, Board};
use lianzhu::search::{Limits, Searcher};
use lianzhu::types::{Color, Rule};
use std::sync::atomic::AtomicBool;

const OPENINGS: [&str; 3] = ["h8i9", "h8h9i9", "h8j8"];

/// Plays one game; returns the winner, if any.
fn play(rule: Rule, opening: &str, search_side: Color) -> Option<Color> {
    let mut board = Board::square(15).unwrap();
    for p in parse_moves(opening).unwrap() {
        board.make(p);
    }
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(4 << 20);
    while !board.is_full() {
        let me = board.side_to_move();
        let p = if me == search_side {
            searcher
                .think(&board, rule, &Limits::depth(4), &stop, &mut |_| {})
                .expect("a move")
                .best
        } else {
            simple_move(&board, rule).expect("a move")
        };
        assert!(
            rules::is_legal(&board, p, me, rule),
            "{rule}: illegal {p:?}\n{board:?}"
        );
        board.make(p);
        if rules::winner_after_last(&board, rule).is_some() {
            return Some(me);
        }
    }
    None
}

#[test]
fn search_beats_the_simple_mover() {
    let mut wins = 0;
    let mut games = 0;
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        for opening in OPENINGS {
            for side in [Color::Black, Color::White] {
                games += 1;
                if play(rule, opening, side) == Some(side) {
                    wins += 1;
                }
            }
        }
    }
    eprintln!("search won {wins} of {games}");
    assert!(wins * 10 >= games * 8, "search won only {wins} of {games}");
}
