//! Ranking siblings: a training term that asks the evaluation to prefer, among a position's
//! candidate moves, the position after the move that was played (by our deeper search, or by
//! a stronger engine in a match record).
//!
//! The evaluation is linear in the trainer's parameters, so the value of the position after
//! a candidate `m`, from the mover's view (minus the child's evaluation), is a part common
//! to every candidate plus a sparse delta: the cells on `m`'s four lines (within 5) and `m`
//! itself change their pcodes and swap roles, and the child's tempo entry is the other
//! side's. Only the deltas are kept; the softmax of `delta / temp` over the candidates is
//! compared with the move played by cross-entropy. Candidates are the mover's `top` best by
//! the tables' static move order ([`movegen::static_score`]), plus the move played.
//!
//! Positions used: quiet ones, where neither side has a five point, the opponent no live-four
//! point and the mover no winning four (the search settles the rest by its threat logic).
//!
//! Invariants: a candidate's delta plus the common part equals minus the child's evaluation
//! by the tables the set was read with (checked in tests); no global state.

use super::data::{Game, GameMove};
use super::fit::{drain_features, replay, VALUES};
use super::policy::softmax;
use super::sum_gradients;
use crate::eval::tables::{EvalTables, PCODES, THREAT_MASKS};
use crate::eval::EvalBoard;
use crate::rules::pattern::CellThreat;
use crate::rules::Cell;
use crate::search::movegen::{self, NodeKind};
use crate::types::{Color, Pos, DIRECTIONS};
use rayon::prelude::*;
use std::sync::Arc;

/// Positions with their candidates' sparse value deltas.
#[derive(Clone, Debug, Default)]
pub struct RankSet {
    /// Per position, the start of its candidates in `cand_offsets`, plus one end.
    pos_offsets: Vec<u32>,
    /// Per candidate, the start of its features in `index`/`count`, plus one end.
    cand_offsets: Vec<u32>,
    /// Parameter index of each feature.
    index: Vec<u32>,
    /// Signed count of each feature.
    count: Vec<f32>,
    /// Per position, the index among its candidates of the move played.
    chosen: Vec<u32>,
    /// Per candidate, its point (for checks).
    points: Vec<Pos>,
}

impl RankSet {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.chosen.len()
    }

    /// True if there is no position.
    pub fn is_empty(&self) -> bool {
        self.chosen.is_empty()
    }

    /// Number of candidates of all positions.
    pub fn candidates(&self) -> usize {
        self.points.len()
    }

    /// The candidates of position `i`: their points and the index of the move played.
    pub fn position(&self, i: usize) -> (&[Pos], usize) {
        let (a, b) = self.cands(i);
        (&self.points[a..b], self.chosen[i] as usize)
    }

    fn cands(&self, i: usize) -> (usize, usize) {
        (
            self.pos_offsets[i] as usize,
            self.pos_offsets[i + 1] as usize,
        )
    }

    /// The value delta of candidate `j` (a global candidate index) under parameters `w`.
    fn delta(&self, w: &[f32], j: usize) -> f32 {
        let (a, b) = (
            self.cand_offsets[j] as usize,
            self.cand_offsets[j + 1] as usize,
        );
        self.index[a..b]
            .iter()
            .zip(&self.count[a..b])
            .map(|(&k, &c)| w[k as usize] * c)
            .sum()
    }

    /// The value deltas of position `i`'s candidates under `w` (see the module comment).
    pub fn deltas(&self, w: &[f32], i: usize) -> Vec<f32> {
        let (a, b) = self.cands(i);
        (a..b).map(|j| self.delta(w, j)).collect()
    }

    /// The softmax of position `i`'s deltas under `w` at temperature `temp`.
    fn probabilities(&self, w: &[f32], i: usize, temp: f32) -> Vec<f32> {
        let mut z = self.deltas(w, i);
        z.iter_mut().for_each(|v| *v /= temp);
        softmax(&mut z);
        z
    }

    /// Adds the quiet positions of `game` before the moves `use_move(ply, mover, move)`
    /// accepts, read with `tables`, each with its `top` best candidates by the static move
    /// order plus the move played.
    pub fn add_game(
        &mut self,
        game: &Game,
        tables: &Arc<EvalTables>,
        top: usize,
        use_move: &dyn Fn(usize, Color, &GameMove) -> bool,
    ) {
        if self.pos_offsets.is_empty() {
            self.pos_offsets.push(0);
            self.cand_offsets.push(0);
        }
        let mut scratch = vec![0i32; VALUES + 2 * THREAT_MASKS];
        let mut touched = Vec::new();
        replay(game, tables, &mut |eb, ply, m| {
            if use_move(ply, eb.side_to_move(), m) && quiet(eb) {
                self.add_position(eb, m.pos, top, &mut scratch, &mut touched);
            }
        });
    }

    fn add_position(
        &mut self,
        eb: &mut EvalBoard,
        played: Pos,
        top: usize,
        scratch: &mut [i32],
        touched: &mut Vec<usize>,
    ) {
        let me = eb.side_to_move();
        let opp = me.opponent();
        let mut cands: Vec<(i32, Pos)> = eb
            .candidates()
            .filter(|&p| eb.near(p) > 0 && eb.is_legal(p))
            .map(|p| {
                let (mine, theirs) = (eb.threat(p, me), eb.threat(p, opp));
                (movegen::static_score(eb, p, me, mine, theirs), p)
            })
            .collect();
        cands.sort_by_key(|&(s, p)| (std::cmp::Reverse(s), p));
        let Some(mut chosen) = cands.iter().position(|&(_, p)| p == played) else {
            return;
        };
        // The move played takes the last place when it is not among the best `top`.
        let top = top.max(1);
        if chosen >= top {
            cands.swap(top - 1, chosen);
            chosen = top - 1;
        }
        cands.truncate(top);
        for &(_, p) in &cands {
            delta_features(eb, p, me, opp, scratch, touched);
            drain_features(scratch, touched, &mut self.index, &mut self.count);
            self.cand_offsets.push(self.index.len() as u32);
            self.points.push(p);
        }
        self.pos_offsets.push(self.points.len() as u32);
        self.chosen.push(chosen as u32);
    }
}

/// True if the move generator sees a quiet node ([`NodeKind::All`]: no five point for either
/// side, no live-four point for the opponent) and the side to move has no winning four.
fn quiet(eb: &EvalBoard) -> bool {
    movegen::node_kind(eb) == NodeKind::All
        && eb.count_at_least(eb.side_to_move(), CellThreat::Block4x2) == 0
}

/// Accumulates in `scratch` (the parameters it touches listed in `touched`) the mover's-view
/// value of the position after `me` plays `p`, less the common part: the cells on `p`'s
/// lines before and after the move (role 1 for `me`, who no longer moves, role 0 for `opp`)
/// and minus the child's tempo entry.
fn delta_features(
    eb: &mut EvalBoard,
    p: Pos,
    me: Color,
    opp: Color,
    scratch: &mut [i32],
    touched: &mut Vec<usize>,
) {
    let mut cells = vec![p];
    for &d in DIRECTIONS.iter() {
        for sign in [-1isize, 1] {
            for k in 1..=5isize {
                let q = p.offset(d, sign * k);
                if eb.board().cell(q) == Cell::Wall {
                    break;
                }
                cells.push(q);
            }
        }
    }
    let mut add = |k: usize, v: i32| {
        if scratch[k] == 0 {
            touched.push(k);
        }
        scratch[k] += v;
    };
    let side = |eb: &EvalBoard, sign: i32, add: &mut dyn FnMut(usize, i32)| {
        for &q in &cells {
            if eb.board().is_empty(q) {
                add((me.index() * 2 + 1) * PCODES + eb.pcode(q, me), sign);
                add(opp.index() * 2 * PCODES + eb.pcode(q, opp), -sign);
            }
        }
    };
    side(eb, -1, &mut add);
    eb.make(p);
    side(eb, 1, &mut add);
    add(VALUES + opp.index() * THREAT_MASKS + eb.threat_mask(), -1);
    eb.undo();
}

/// The mean cross-entropy of the moves played under `w` at temperature `temp` (evaluation
/// units per nat), and the share of positions whose played move has the highest value (ties
/// counted as misses).
pub fn rank_loss(set: &RankSet, w: &[f32], temp: f32) -> (f64, f64) {
    if set.is_empty() {
        return (0.0, 0.0);
    }
    let (loss, hits) = (0..set.len())
        .into_par_iter()
        .map(|i| {
            let z = set.probabilities(w, i, temp);
            let c = set.chosen[i] as usize;
            let hit = z.iter().enumerate().all(|(j, &v)| j == c || v < z[c]);
            (-f64::from(z[c].max(1e-12)).ln(), u32::from(hit))
        })
        .reduce(|| (0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let n = set.len() as f64;
    (loss / n, f64::from(hits) / n)
}

/// The gradient of the summed cross-entropy over `set` under `w` at `temp`, `params` long.
pub fn rank_gradient(set: &RankSet, w: &[f32], temp: f32, params: usize) -> Vec<f32> {
    sum_gradients(set.len(), params, |i, g| {
        let z = set.probabilities(w, i, temp);
        let c = set.chosen[i] as usize;
        let (a, _) = set.cands(i);
        for (j, &p) in z.iter().enumerate() {
            let err = (p - if j == c { 1.0 } else { 0.0 }) / temp;
            let (fa, fb) = (
                set.cand_offsets[a + j] as usize,
                set.cand_offsets[a + j + 1] as usize,
            );
            for f in fa..fb {
                g[set.index[f] as usize] += err * set.count[f];
            }
        }
    })
}
