//! Fitting the move-ordering scores ("policy") to the moves the search chose.
//!
//! A candidate move's static ordering score is the mover's own-part score of its pcode at the
//! point plus the opponent's blocking-part score of the opponent's pcode there
//! ([`crate::search::movegen::static_score`]). Read as logits (`score / POLICY_T`), the
//! scores of a position's candidates give a softmax, and the fit minimises its cross-entropy
//! against the move the search played, plus `l2` times the squared distance of every score
//! from its start (the hand-set ordering), with full-batch Adam.
//!
//! Invariants: the parameter layout is the file's, `[colour][part][pcode]`; no global state.

use super::fit::Dataset;
use super::{sum_gradients, Adam};
use crate::eval::tables::PCODES;
use rayon::prelude::*;

/// Ordering units per nat of the softmax.
pub const POLICY_T: f32 = 100.0;
/// Number of policy parameters.
pub const POLICY_PARAMS: usize = 2 * 2 * PCODES;

/// Fitting options.
#[derive(Clone, Copy, Debug)]
pub struct PolicyOptions {
    /// Full-batch Adam steps.
    pub epochs: usize,
    /// Step size in ordering units.
    pub lr: f32,
    /// Weight of the squared distance from the start.
    pub l2: f32,
}

/// Scores `[colour][part][pcode]` as trainer parameters.
pub fn params_of(policy: &[[[i16; PCODES]; 2]; 2]) -> Vec<f32> {
    policy
        .iter()
        .flatten()
        .flatten()
        .map(|&v| f32::from(v))
        .collect()
}

/// Trainer parameters as scores (rounded, clamped to the file's range).
pub fn policy_of(w: &[f32]) -> Box<[[[i16; PCODES]; 2]; 2]> {
    let mut out = Box::new([[[0i16; PCODES]; 2]; 2]);
    for (slot, &x) in out.iter_mut().flatten().flatten().zip(w) {
        *slot = x.round().clamp(-30_000.0, 30_000.0) as i16;
    }
    out
}

/// The logits of position `i`'s candidates.
fn logits(data: &Dataset, w: &[f32], i: usize, out: &mut Vec<f32>) {
    let (a, b) = (
        data.cand_offsets[i] as usize,
        data.cand_offsets[i + 1] as usize,
    );
    out.clear();
    out.extend((a..b).map(|j| (w[data.own[j] as usize] + w[data.block[j] as usize]) / POLICY_T));
}

/// Softmax of `z` in place; returns the log of its normaliser.
pub(crate) fn softmax(z: &mut [f32]) -> f32 {
    let max = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = z
        .iter_mut()
        .map(|x| {
            *x = (*x - max).exp();
            *x
        })
        .sum();
    z.iter_mut().for_each(|x| *x /= sum);
    max + sum.ln()
}

/// The mean cross-entropy of the chosen moves and the share of positions whose chosen move
/// has the highest score (ties counted as misses).
pub fn policy_loss(data: &Dataset, w: &[f32]) -> (f64, f64) {
    let n = data.chosen.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let (ce, hits) = (0..n)
        .into_par_iter()
        .map_init(Vec::new, |z, i| {
            logits(data, w, i, z);
            let c = data.chosen[i] as usize;
            let chosen = z[c];
            let top = z.iter().enumerate().all(|(j, &x)| j == c || x < chosen);
            let log_norm = softmax(z);
            (f64::from(log_norm - chosen), f64::from(u8::from(top)))
        })
        .reduce(|| (0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    (ce / n as f64, hits / n as f64)
}

/// Fits the scores (starting at `w0`) to `train`, reporting `(step, train loss and top-1,
/// held-out loss and top-1)` to `on` every `every` steps and at the end.
pub fn fit_policy(
    train: &Dataset,
    held_out: &Dataset,
    w0: &[f32],
    opt: &PolicyOptions,
    every: usize,
    on: &mut dyn FnMut(usize, (f64, f64), (f64, f64)),
) -> Vec<f32> {
    let mut w = w0.to_vec();
    let mut adam = Adam::new(POLICY_PARAMS);
    let n = train.chosen.len();
    for epoch in 0..opt.epochs {
        if every > 0 && epoch % every == 0 {
            on(epoch, policy_loss(train, &w), policy_loss(held_out, &w));
        }
        let grad = sum_gradients(n, POLICY_PARAMS, |i, g| {
            let mut z = Vec::new();
            logits(train, &w, i, &mut z);
            softmax(&mut z);
            z[train.chosen[i] as usize] -= 1.0;
            let a = train.cand_offsets[i] as usize;
            for (j, &d) in z.iter().enumerate() {
                g[train.own[a + j] as usize] += d / POLICY_T;
                g[train.block[a + j] as usize] += d / POLICY_T;
            }
        });
        adam.step(&mut w, &grad, n.max(1) as f32, w0, opt.l2, opt.lr);
    }
    on(
        opt.epochs,
        policy_loss(train, &w),
        policy_loss(held_out, &w),
    );
    w
}
