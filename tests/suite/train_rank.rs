//! The sibling-ranking term of the trainer (`lianzhu::train::rank`).

use crate::common::Rng;
use crate::train::{random_tables, small_config};
use lianzhu::eval::{EvalBoard, EvalSet};
use lianzhu::rules::Board;
use lianzhu::search::Searcher;
use lianzhu::train::data::{Game, GameMove, Score};
use lianzhu::train::fit::{self, Dataset, FitOptions};
use lianzhu::train::rank::{self, RankSet};
use lianzhu::train::selfplay::play_game;
use lianzhu::types::{Pos, Rule};
use std::sync::Arc;

/// A game of `plies` random legal moves near the stones (the first at the centre), every
/// move marked as searched.
fn random_game(rule: Rule, rng: &mut Rng, plies: usize) -> Game {
    let board = Board::square(15).unwrap();
    let mut eb = EvalBoard::new(&board, rule);
    let mut moves = Vec::new();
    for ply in 0..plies {
        let legal: Vec<Pos> = if ply == 0 {
            vec![Pos::new(7, 7)]
        } else {
            eb.candidates()
                .filter(|&p| eb.near(p) > 0 && eb.is_legal(p))
                .collect()
        };
        if legal.is_empty() {
            break;
        }
        let p = legal[rng.below(legal.len())];
        let five = eb.threat(p, eb.side_to_move()) == lianzhu::rules::pattern::CellThreat::Five;
        moves.push(GameMove {
            pos: p,
            score: Some(Score::Eval(0)),
        });
        if five {
            break;
        }
        eb.make(p);
    }
    Game {
        rule,
        size: 15,
        winner: None,
        moves,
    }
}

#[test]
fn a_candidates_delta_is_its_childs_value_less_a_common_part() {
    let mut rng = Rng(0x5eed_0f4a_2c17);
    let mut checked = 0;
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let tables = Arc::new(random_tables(rule, &mut rng, 2000));
        let w = fit::params_of(&tables);
        for _ in 0..6 {
            let game = random_game(rule, &mut rng, 40);
            let mut eb = EvalBoard::with_tables(&Board::square(15).unwrap(), rule, tables.clone());
            for (n, m) in game.moves.iter().enumerate() {
                // The set of this one position (if it is quiet).
                let mut set = RankSet::default();
                set.add_game(&game, &tables, 6, &|ply, _, _| ply == n);
                if set.len() == 1 {
                    let (points, chosen) = set.position(0);
                    assert_eq!(points[chosen], m.pos, "the move played is a candidate");
                    assert!(points.len() <= 6);
                    let deltas = set.deltas(&w, 0);
                    let child = |eb: &mut EvalBoard, p: Pos| {
                        eb.make(p);
                        let v = -eb.evaluate();
                        eb.undo();
                        v as f32
                    };
                    let v0 = child(&mut eb, points[0]);
                    for (j, &p) in points.iter().enumerate().skip(1) {
                        let (want, got) = (child(&mut eb, p) - v0, deltas[j] - deltas[0]);
                        assert!(
                            (want - got).abs() <= 2.0,
                            "{rule} ply {n} candidate {j}: child values differ by {want}, deltas by {got}"
                        );
                        checked += 1;
                    }
                }
                eb.make(m.pos);
            }
        }
    }
    assert!(checked > 500, "{checked} candidates checked");
}

#[test]
fn the_ranking_term_raises_the_played_moves_share() {
    let config = small_config(Rule::Freestyle, 1000);
    let mut searcher = Searcher::new(1 << 20);
    let start = EvalSet::hand().get(Rule::Freestyle);
    let (mut data, mut set) = (Dataset::default(), RankSet::default());
    let searched = |_: usize, _, m: &GameMove| matches!(m.score, Some(Score::Eval(_)));
    for n in 0..16 {
        let game = play_game(&config, &mut searcher, n);
        data.add_game(&game, &start);
        set.add_game(&game, &start, 12, &searched);
    }
    assert!(set.len() > 100, "{} ranked positions", set.len());
    let w0 = fit::params_of(&start);
    let temp = 300.0;
    let (before, top_before) = rank::rank_loss(&set, &w0, temp);
    let opt = FitOptions {
        epochs: 60,
        lr: 2.0,
        l2: 0.0,
        lambda: 1.0,
        scale: 500.0,
    };
    let factor = 10.0 * data.len() as f32 / set.len() as f32;
    let grad = |w: &[f32], g: &mut [f32]| {
        let r = rank::rank_gradient(&set, w, temp, fit::PARAMS);
        g.iter_mut().zip(&r).for_each(|(x, y)| *x += factor * y);
    };
    let w = fit::fit_with(
        &data,
        &Dataset::default(),
        &w0,
        &opt,
        Some(&grad),
        0,
        &mut |_, _| {},
    );
    let (after, top_after) = rank::rank_loss(&set, &w, temp);
    assert!(after < before - 0.05, "ranking loss {before} -> {after}");
    assert!(top_after > top_before, "top-1 {top_before} -> {top_after}");
    // Without the term the same fit leaves the ranking loss where the results put it.
    let plain = fit::fit(&data, &Dataset::default(), &w0, &opt, 0, &mut |_| {});
    assert!(rank::rank_loss(&set, &plain, temp).0 > after);
}
