//! The trainer: fits evaluation tables to the results (and optionally the search scores) of
//! recorded games, Texel style.
//!
//! The evaluation is linear in its table entries: from the side to move's view it is the sum
//! over empty cells of the mover's value for the cell's pcode (role 0) minus the opponent's
//! value for its pcode (role 1), plus the tempo value of the position's threat mask (see
//! [`crate::eval::tables`]). So a position is a sparse vector of signed pcode counts plus one
//! tempo index, and the fit is a regularised logistic regression: minimise the cross-entropy
//! between `sigmoid(eval / K)` and the target, `lambda * result + (1 - lambda) *
//! sigmoid(score / K)`, plus `l2` times the squared distance of every value from its start
//! (the hand-set table, or `--init`), with Adam on full batches. `K` is the scale that fits the
//! starting tables best on the training positions, so the learned values keep the search's
//! units (its margins were tuned on that scale).
//!
//! Positions used: every position before a searched move whose score is not a proven result
//! and where neither side already has a five point or the mover a winning four (the search
//! never evaluates those). Games are split into training and held-out sets by game number.
//!
//! Invariants: the starting parameters reproduce the starting tables' evaluation of every
//! position (up to rounding); training never increases the regularised training loss by
//! more than Adam's step noise; no global state.

use super::data::{Game, GameMove, Score};
use super::{sum_gradients, Adam};
use crate::eval::tables::{EvalTables, PCODES, THREAT_MASKS, VALUE_UNIT};
use crate::eval::EvalBoard;
use crate::rules::pattern::CellThreat;
use crate::rules::Board;
use crate::types::{Color, Pos, Rule};
use rayon::prelude::*;
use std::sync::Arc;

/// Plies of an unscored game (a match record) not used: its opening.
pub const UNSCORED_SKIP: usize = 6;

/// Value parameters: `[colour][role][pcode]`.
pub const VALUES: usize = 2 * 2 * PCODES;
/// All parameters: the values, then the tempo table `[side to move][mask]`.
pub const PARAMS: usize = VALUES + 2 * THREAT_MASKS;

/// Training positions as sparse feature vectors.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Start of each position's features in `index`/`count`, plus one end.
    offsets: Vec<u32>,
    /// Parameter index of each feature.
    index: Vec<u32>,
    /// Signed count of each feature (+ for the mover's cells and the tempo entry).
    count: Vec<f32>,
    /// The game result from the mover's view (1 win, 0.5 draw, 0 loss).
    result: Vec<f32>,
    /// The search's score (mover's view).
    score: Vec<f32>,
    /// The evaluation of the tables the positions were read with.
    start_eval: Vec<i32>,
    /// Per position, the start of its candidate moves in `own`/`block`, plus one end.
    pub(crate) cand_offsets: Vec<u32>,
    /// Per candidate move, the policy index of the mover's pcode there (`[colour][0][pcode]`).
    pub(crate) own: Vec<u32>,
    /// Per candidate move, the policy index of the opponent's pcode (`[colour][1][pcode]`).
    pub(crate) block: Vec<u32>,
    /// Per position, the index among its candidates of the move the search chose.
    pub(crate) chosen: Vec<u32>,
}

impl Dataset {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.result.len()
    }

    /// True if there is no position.
    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    /// The evaluation of position `i` by the tables it was read with (for checks).
    pub fn start_eval(&self, i: usize) -> i32 {
        self.start_eval[i]
    }

    /// The evaluation of position `i` under trainer parameters `w`.
    pub fn eval_of(&self, w: &[f32], i: usize) -> f32 {
        eval(self, w, i)
    }

    /// How many positions each parameter appears in.
    pub fn occurrences(&self) -> Vec<u32> {
        let mut n = vec![0u32; PARAMS];
        for &k in &self.index {
            n[k as usize] += 1;
        }
        n
    }

    /// The features of position `i`: parameter index and signed count.
    pub(crate) fn features(&self, i: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        self.index[a..b]
            .iter()
            .zip(&self.count[a..b])
            .map(|(&k, &c)| (k as usize, c))
    }

    /// Adds the usable positions of `game` before its searched moves, read with `tables`.
    pub fn add_game(&mut self, game: &Game, tables: &Arc<EvalTables>) {
        self.add_game_with(game, tables, false);
    }

    /// [`Dataset::add_game`]; with `unscored`, also the positions before unscored moves
    /// (a match record's), whose target is then the result alone, except the first
    /// `UNSCORED_SKIP` plies (the opening).
    pub fn add_game_with(&mut self, game: &Game, tables: &Arc<EvalTables>, unscored: bool) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
            self.cand_offsets.push(0);
        }
        let mut scratch = vec![0i32; VALUES];
        let mut touched: Vec<usize> = Vec::new();
        replay(game, tables, &mut |eb, ply, m| {
            let score = match m.score {
                Some(Score::Eval(score)) => Some(score as f32),
                None if unscored && ply >= UNSCORED_SKIP => Some(f32::NAN),
                _ => None,
            };
            if let Some(score) = score {
                self.add_position(eb, game.winner, score, m.pos, &mut scratch, &mut touched);
            }
        });
    }

    fn add_position(
        &mut self,
        eb: &EvalBoard,
        winner: Option<Color>,
        score: f32,
        best: Pos,
        scratch: &mut [i32],
        touched: &mut Vec<usize>,
    ) {
        let me = eb.side_to_move();
        let opp = me.opponent();
        if eb.count(me, CellThreat::Five) > 0
            || eb.count(opp, CellThreat::Five) > 0
            || eb.count_at_least(me, CellThreat::Block4x2) > 0
        {
            return;
        }
        let board = eb.board();
        // The candidate moves as the move generator sees them, the chosen one among them.
        let start = self.own.len();
        let mut chosen = None;
        for p in eb.candidates() {
            if eb.near(p) == 0 || !eb.is_legal(p) {
                continue;
            }
            if p == best {
                chosen = Some(self.own.len() - start);
            }
            self.own
                .push((me.index() * 2 * PCODES + eb.pcode(p, me)) as u32);
            self.block
                .push(((opp.index() * 2 + 1) * PCODES + eb.pcode(p, opp)) as u32);
        }
        let Some(chosen) = chosen else {
            self.own.truncate(start);
            self.block.truncate(start);
            return;
        };
        self.cand_offsets.push(self.own.len() as u32);
        self.chosen.push(chosen as u32);
        for &p in eb.playable() {
            if !board.is_empty(p) {
                continue;
            }
            for c in [Color::Black, Color::White] {
                let role = usize::from(c != me);
                let k = (c.index() * 2 + role) * PCODES + eb.pcode(p, c);
                if scratch[k] == 0 {
                    touched.push(k);
                }
                scratch[k] += if role == 0 { 1 } else { -1 };
            }
        }
        drain_features(scratch, touched, &mut self.index, &mut self.count);
        self.index
            .push((VALUES + me.index() * THREAT_MASKS + eb.threat_mask()) as u32);
        self.count.push(1.0);
        self.offsets.push(self.index.len() as u32);
        self.result.push(match winner {
            None => 0.5,
            Some(c) if c == me => 1.0,
            Some(_) => 0.0,
        });
        self.score.push(score);
        self.start_eval.push(eb.evaluate());
    }
}

/// Moves the nonzero counts of `scratch` at the indices `touched` lists to `index`/`count`,
/// leaving `scratch` all zero and `touched` empty.
pub(crate) fn drain_features(
    scratch: &mut [i32],
    touched: &mut Vec<usize>,
    index: &mut Vec<u32>,
    count: &mut Vec<f32>,
) {
    for k in touched.drain(..) {
        if scratch[k] != 0 {
            index.push(k as u32);
            count.push(scratch[k] as f32);
        }
        scratch[k] = 0;
    }
}

/// Plays `game` on a board read with `tables`, calling `at(board, ply, move)` before each
/// move; stops at the first illegal move (or an unsupported size).
pub(crate) fn replay(
    game: &Game,
    tables: &Arc<EvalTables>,
    at: &mut dyn FnMut(&mut EvalBoard, usize, &GameMove),
) {
    let Ok(board) = Board::square(game.size) else {
        return;
    };
    let mut eb = EvalBoard::with_tables(&board, game.rule, tables.clone());
    for (ply, m) in game.moves.iter().enumerate() {
        if !eb.is_legal(m.pos) {
            return;
        }
        at(&mut eb, ply, m);
        eb.make(m.pos);
    }
}

/// The parameters of `tables` in evaluation units, in the trainer's layout.
pub fn params_of(tables: &EvalTables) -> Vec<f32> {
    let mut w = vec![0f32; PARAMS];
    for c in 0..2 {
        for k in 0..PCODES {
            let v = tables.value(c, k);
            for r in 0..2 {
                w[(c * 2 + r) * PCODES + k] = v[r] as f32 / VALUE_UNIT as f32;
            }
        }
    }
    for s in 0..2 {
        for m in 0..THREAT_MASKS {
            w[VALUES + s * THREAT_MASKS + m] = tables.tempo(s, m) as f32;
        }
    }
    w
}

/// Tables for `rule` from trainer parameters (the values rounded to 1/[`VALUE_UNIT`] units, the
/// tempo values to whole evaluation units), with the move-ordering scores `policy`.
pub fn tables_of(rule: Rule, w: &[f32], policy: &[[[i16; PCODES]; 2]; 2]) -> EvalTables {
    // `x` in 1/`unit` units, within the file's +-8000 evaluation units.
    let round = |x: f32, unit: f32| (x * unit).round().clamp(-8000.0 * unit, 8000.0 * unit) as i16;
    let quarters = VALUE_UNIT as f32;
    let mut value = Box::new([[[0i16; PCODES]; 2]; 2]);
    for c in 0..2 {
        for r in 0..2 {
            for k in 0..PCODES {
                value[c][r][k] = round(w[(c * 2 + r) * PCODES + k], quarters);
            }
        }
    }
    let mut tempo = Box::new([[0i16; THREAT_MASKS]; 2]);
    for s in 0..2 {
        for m in 0..THREAT_MASKS {
            tempo[s][m] = round(w[VALUES + s * THREAT_MASKS + m], 1.0);
        }
    }
    EvalTables::from_values(rule, &value, &tempo, policy)
}

pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The evaluation of position `i` under parameters `w`.
pub(crate) fn eval(data: &Dataset, w: &[f32], i: usize) -> f32 {
    data.features(i).map(|(k, c)| w[k] * c).sum()
}

/// The target of position `i` (the result alone for a position without a score).
pub(crate) fn target(data: &Dataset, i: usize, k: f32, lambda: f32) -> f32 {
    let score = data.score[i];
    if score.is_nan() {
        data.result[i]
    } else {
        lambda * data.result[i] + (1.0 - lambda) * sigmoid(score / k)
    }
}

/// The mean cross-entropy of `w` on `data` at scale `k` (without the regulariser).
pub fn loss(data: &Dataset, w: &[f32], k: f32, lambda: f32) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let sum: f64 = (0..data.len())
        .into_par_iter()
        .map(|i| cross_entropy(eval(data, w, i), target(data, i, k, lambda), k))
        .sum();
    sum / data.len() as f64
}

/// The cross-entropy of an evaluation `eval` at scale `k` against the target `t`.
pub(crate) fn cross_entropy(eval: f32, t: f32, k: f32) -> f64 {
    let p = sigmoid(eval / k).clamp(1e-6, 1.0 - 1e-6);
    -(f64::from(t) * f64::from(p).ln() + f64::from(1.0 - t) * f64::from(1.0 - p).ln())
}

/// Multiplies the values and tempo values `w` (a linear evaluation) by `target / scale`, so
/// that tables whose logistic scale is `scale` get the scale `target`; returns the factor.
/// A scale that is not positive leaves `w` as it is (factor 1).
pub fn rescale(w: &mut [f32], scale: f32, target: f32) -> f32 {
    let factor = if scale > 0.0 && target > 0.0 {
        target / scale
    } else {
        1.0
    };
    w.iter_mut().for_each(|x| *x *= factor);
    factor
}

/// The scale `K` (in evaluation units) that minimises the loss of `w` on `data` against the
/// results, by golden-section search over 50..5000.
pub fn best_scale(data: &Dataset, w: &[f32]) -> f32 {
    let (mut a, mut b) = (50f32.ln(), 5000f32.ln());
    let g = 0.618_034f32;
    let f = |x: f32| loss(data, w, x.exp(), 1.0);
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..30 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// Fitting options.
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    /// Full-batch Adam steps.
    pub epochs: usize,
    /// Adam's step size, in evaluation units.
    pub lr: f32,
    /// Weight of the squared distance from the starting values (per position).
    pub l2: f32,
    /// Share of the target that is the game result (the rest is the search score).
    pub lambda: f32,
    /// The logistic scale.
    pub scale: f32,
}

/// One line of the fit's progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitReport {
    /// Steps done.
    pub epoch: usize,
    /// Training loss (without the regulariser).
    pub train: f64,
    /// Held-out loss.
    pub held_out: f64,
}

/// Fits `w` (starting at `w0`) to `train`, reporting the losses on `train` and `held_out`
/// to `on` every `every` steps and at the end.
pub fn fit(
    train: &Dataset,
    held_out: &Dataset,
    w0: &[f32],
    opt: &FitOptions,
    every: usize,
    on: &mut dyn FnMut(FitReport),
) -> Vec<f32> {
    fit_with(train, held_out, w0, opt, None, every, &mut |r, _| on(r))
}

/// A further term's gradient: adds into its second argument at the parameters of the first.
pub type ExtraGradient<'a> = dyn Fn(&[f32], &mut [f32]) + Sync + 'a;

/// [`fit`] with a further term: `extra(w, g)` adds its gradient, already scaled to the
/// results' (whose gradient is a sum over `train`'s positions), into `g`. `on` also gets the
/// parameters of the report.
pub fn fit_with(
    train: &Dataset,
    held_out: &Dataset,
    w0: &[f32],
    opt: &FitOptions,
    extra: Option<&ExtraGradient<'_>>,
    every: usize,
    on: &mut dyn FnMut(FitReport, &[f32]),
) -> Vec<f32> {
    let mut w = w0.to_vec();
    let mut adam = Adam::new(PARAMS);
    let k = opt.scale;
    let report = |w: &[f32], epoch| FitReport {
        epoch,
        train: loss(train, w, k, opt.lambda),
        held_out: loss(held_out, w, k, opt.lambda),
    };
    for epoch in 0..opt.epochs {
        if every > 0 && epoch % every == 0 {
            on(report(&w, epoch), &w);
        }
        let mut grad = sum_gradients(train.len(), PARAMS, |i, g| {
            let err = (sigmoid(eval(train, &w, i) / k) - target(train, i, k, opt.lambda)) / k;
            for (j, c) in train.features(i) {
                g[j] += err * c;
            }
        });
        if let Some(extra) = extra {
            extra(&w, &mut grad);
        }
        let n = train.len().max(1) as f32;
        adam.step(&mut w, &grad, n, w0, opt.l2, opt.lr);
    }
    on(report(&w, opt.epochs), &w);
    w
}
