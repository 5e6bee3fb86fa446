//! Learning the evaluation: the training-data format ([`data`]), the self-play games that
//! produce it ([`selfplay`]) and the trainer that fits evaluation tables ([`fit`]) and
//! move-ordering scores ([`policy`]) to it, a term that ranks sibling positions like the
//! moves played ([`rank`]), and a measurement of a hidden layer on the same features
//! ([`hidden`]).
//!
//! A tools-level module: it drives the search and the evaluation, nothing below imports it.

pub mod data;
pub mod fit;
pub mod hidden;
pub mod policy;
pub mod rank;
pub mod selfplay;

use crate::eval::{EvalSet, EvalTables};

/// The evaluation set of `--eval` arguments, starting from the built-in tables: `hand`
/// selects the hand-set weights of every rule, anything else is a table file for its rule.
/// A file that cannot be read or is malformed is passed to `on_error` and skipped.
pub fn eval_set(specs: &[String], on_error: &mut dyn FnMut(String)) -> EvalSet {
    let mut set = EvalSet::builtin();
    for spec in specs {
        if spec == "hand" {
            set = EvalSet::hand();
            continue;
        }
        match std::fs::read(spec) {
            Err(e) => on_error(format!("cannot read eval file {spec}: {e}")),
            Ok(bytes) => match EvalTables::from_bytes(&bytes) {
                Err(e) => on_error(format!("{spec}: {e}")),
                Ok(t) => set.set(t),
            },
        }
    }
    set
}

/// Adam's moment estimates for full-batch steps on a parameter vector.
pub(crate) struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    /// Fresh estimates for `n` parameters.
    pub(crate) fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// One step of size `lr` on `w` down the gradient `grad / n` plus `2 * l2 * (w - w0)`.
    pub(crate) fn step(
        &mut self,
        w: &mut [f32],
        grad: &[f32],
        n: f32,
        w0: &[f32],
        l2: f32,
        lr: f32,
    ) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        self.t += 1;
        let (c1, c2) = (1.0 - b1.powi(self.t), 1.0 - b2.powi(self.t));
        for j in 0..w.len() {
            let g = grad[j] / n + 2.0 * l2 * (w[j] - w0[j]);
            self.m[j] = b1 * self.m[j] + (1.0 - b1) * g;
            self.v[j] = b2 * self.v[j] + (1.0 - b2) * g * g;
            w[j] -= lr * (self.m[j] / c1) / ((self.v[j] / c2).sqrt() + eps);
        }
    }
}

/// The sum over items `0..n` of the gradients that `add(i, g)` adds into `g` (`params`
/// long), computed in 8 parallel chunks.
pub(crate) fn sum_gradients(
    n: usize,
    params: usize,
    add: impl Fn(usize, &mut [f32]) + Sync,
) -> Vec<f32> {
    use rayon::prelude::*;
    (0..n)
        .into_par_iter()
        .chunks(n.div_ceil(8).max(1))
        .map(|ids| {
            let mut g = vec![0f32; params];
            for i in ids {
                add(i, &mut g);
            }
            g
        })
        .reduce(
            || vec![0f32; params],
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

/// A small deterministic random generator (SplitMix64) for the self-play choices.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }
}
