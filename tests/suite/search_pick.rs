//! The search's lazy move order: `movegen::pick` called for 0, 1, 2... over
//! `generate_unordered`'s moves gives `generate`'s sorted order.

use crate::common::{random_board, Rng, RULES};
use lianzhu::eval::EvalBoard;
use lianzhu::search::history::History;
use lianzhu::search::movegen::{self, Hints};
use lianzhu::types::Pos;

#[test]
fn picking_one_at_a_time_gives_the_generated_order() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let history = History::new();
    let mut lengths = Vec::new();
    for rule in RULES {
        for _ in 0..40 {
            let stones = 2 + rng.below(30);
            let board = random_board(&mut rng, rule, 15, stones, 9);
            let eb = EvalBoard::new(&board, rule);
            let hints = Hints {
                tt_move: Pos::NONE,
                killers: [Pos::NONE; 2],
                history: &history,
                counter: Pos::NONE,
            };
            let (mut sorted, mut picked) = (Vec::new(), Vec::new());
            let kind = movegen::generate(&eb, &hints, &mut sorted);
            movegen::generate_unordered(&eb, &hints, kind, &mut picked);
            // Shuffled, so the order cannot come from the generation's own scan.
            for k in (1..picked.len()).rev() {
                picked.swap(k, rng.below(k + 1));
            }
            for i in 0..picked.len() {
                movegen::pick(&mut picked, i);
            }
            assert_eq!(picked, sorted, "{rule}: {board:?}");
            lengths.push(sorted.len());
        }
    }
    // Lists shorter and longer than the selection limit both occur.
    assert!(lengths.iter().any(|&n| n < 6) && lengths.iter().any(|&n| n > 20));
}
