//! Root-move exclusion (`Limits::exclude`, the base of YXBLOCK and multi-move analysis): an
//! excluded move is never returned while another legal move exists, including an immediate
//! win, a proven VCF and the opening stone.

use lianzhu::notation::parse_moves;
use lianzhu::rules::{self, Board};
use lianzhu::search::{Limits, Searcher};
use lianzhu::types::{Pos, Rule};
use std::sync::atomic::AtomicBool;

fn board(moves: &str) -> Board {
    let mut b = Board::square(15).unwrap();
    for p in parse_moves(moves).unwrap() {
        b.make(p);
    }
    b
}

fn best(b: &Board, exclude: &[Pos]) -> Pos {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        exclude: exclude.to_vec(),
        ..Limits::depth(4)
    };
    rules::tables::init(Rule::Freestyle);
    let r = Searcher::new(1 << 20)
        .think(b, Rule::Freestyle, &limits, &stop, &mut |_| {})
        .expect("a move");
    assert!(rules::is_legal(
        b,
        r.best,
        b.side_to_move(),
        Rule::Freestyle
    ));
    r.best
}

#[test]
fn the_centre_opening_can_be_excluded() {
    let b = Board::square(15).unwrap();
    let centre = b.center();
    assert_eq!(best(&b, &[]), centre);
    assert_ne!(best(&b, &[centre]), centre);
}

#[test]
fn excluded_wins_and_their_successors_are_skipped() {
    // Black h8 i8 j8 k8 (white scattered far away): black to move has two fives, g8 and l8.
    let b = board("h8a1i8a3j8a5k8a7");
    let first = best(&b, &[]);
    let fives: Vec<Pos> = parse_moves("g8l8").unwrap();
    assert!(fives.contains(&first), "{first:?}");
    let second = best(&b, &[first]);
    assert!(fives.contains(&second) && second != first, "{second:?}");
    let third = best(&b, &fives);
    assert!(!fives.contains(&third), "{third:?}");
}

#[test]
fn excluding_every_move_but_one_leaves_that_one() {
    let b = board("h8i9");
    let keep = parse_moves("g7").unwrap()[0];
    let all: Vec<Pos> = b.empty_points().filter(|&p| p != keep).collect();
    assert_eq!(best(&b, &all), keep);
}
