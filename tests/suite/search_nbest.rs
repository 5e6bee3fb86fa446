//! Multi-move analysis in the search layer (`Searcher::think_nbest`, the base of YXNBEST and
//! YXSEARCHDEFEND) and the defence candidates (`Searcher::root_candidates`).

use lianzhu::notation::parse_moves;
use lianzhu::rules::{self, Board};
use lianzhu::search::{Limits, Progress, RootEvent, Searcher};
use lianzhu::types::{Pos, Rule};
use std::sync::atomic::AtomicBool;

fn board(moves: &str) -> Board {
    let mut b = Board::square(15).unwrap();
    for p in parse_moves(moves).unwrap() {
        b.make(p);
    }
    b
}

const MIDGAME: &str = "h8i9h9i7g10";

#[test]
fn nbest_lines_are_distinct_legal_and_the_first_is_the_single_best() {
    rules::tables::init(Rule::Freestyle);
    let b = board(MIDGAME);
    let stop = AtomicBool::new(false);
    let limits = Limits::depth(5);
    let single = Searcher::new(1 << 20)
        .think(&b, Rule::Freestyle, &limits, &stop, &mut |_| {})
        .unwrap();
    let mut finished = Vec::new();
    let mut entered = 0;
    let lines =
        Searcher::new(1 << 20).think_nbest(&b, Rule::Freestyle, &limits, 3, &stop, &mut |i, p| {
            match p {
                Progress::Line(r) => finished.push((i, r.best)),
                Progress::Root(r) => {
                    if let RootEvent::Enter(m) = r.event {
                        assert!(b.is_empty(m));
                        entered += 1;
                    }
                }
                Progress::Iteration(_) => {}
            }
        });
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0].best, single.best,
        "the first line is the normal choice"
    );
    for (i, r) in lines.iter().enumerate() {
        assert!(rules::is_legal(
            &b,
            r.best,
            b.side_to_move(),
            Rule::Freestyle
        ));
        assert_eq!(r.pv.first(), Some(&r.best));
        assert!(lines[..i].iter().all(|o| o.best != r.best), "{lines:?}");
        assert!(r.depth >= 1);
    }
    let order: Vec<(usize, Pos)> = lines.iter().map(|r| r.best).enumerate().collect();
    assert_eq!(finished, order, "one Line event per line, in order");
    assert!(entered > 0, "root events reach the caller");
}

#[test]
fn nbest_respects_exclusions_and_the_number_of_legal_moves() {
    rules::tables::init(Rule::Freestyle);
    // 5x5, rows 0-3 full with no five possible, row 4 empty: five legal moves.
    let mut b = Board::square(5).unwrap();
    let rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO"];
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let color = if c == 'X' {
                lianzhu::types::Color::Black
            } else {
                lianzhu::types::Color::White
            };
            b.place(b.pos(x as i64, y as i64).unwrap(), color);
        }
    }
    b.set_side_to_move(lianzhu::types::Color::Black);
    let stop = AtomicBool::new(false);
    let blocked = b.pos(2, 4).unwrap();
    let limits = Limits {
        exclude: vec![blocked],
        ..Limits::depth(3)
    };
    let lines =
        Searcher::new(1 << 20).think_nbest(&b, Rule::Freestyle, &limits, 9, &stop, &mut |_, _| {});
    let mut moves: Vec<Pos> = lines.iter().map(|r| r.best).collect();
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), 4, "{lines:?}");
    assert!(!moves.contains(&blocked));
    assert!(moves.iter().all(|&p| p.y() == 4));
}

#[test]
fn a_raised_stop_flag_gives_one_line() {
    rules::tables::init(Rule::Freestyle);
    let b = board(MIDGAME);
    let stop = AtomicBool::new(true);
    let lines = Searcher::new(1 << 20).think_nbest(
        &b,
        Rule::Freestyle,
        &Limits::depth(8),
        4,
        &stop,
        &mut |_, _| {},
    );
    assert_eq!(lines.len(), 1);
    assert!(b.is_empty(lines[0].best));
}

#[test]
fn defence_candidates_answer_an_open_three() {
    rules::tables::init(Rule::Freestyle);
    // White f8 g8 h8 is an open three; black's stones are in the corners, so black has
    // nothing to counter with: only blocks of the three can be candidates.
    let b = board("a1f8o1g8a15h8");
    let cands = Searcher::new(1 << 20).root_candidates(&b, Rule::Freestyle, &Limits::depth(4));
    let blocks = parse_moves("d8e8i8j8").unwrap();
    assert!(!cands.is_empty());
    assert!(cands.iter().all(|p| blocks.contains(p)), "{cands:?}");
    let quiet = board("h8i9");
    let many = Searcher::new(1 << 20).root_candidates(&quiet, Rule::Freestyle, &Limits::depth(4));
    assert!(many.len() > 4, "{many:?}");
}
