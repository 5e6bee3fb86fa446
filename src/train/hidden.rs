//! A first step towards a network evaluation: the tables of [`super::fit`] plus one hidden
//! layer over the same sparse features, fitted together with the same loss, to measure
//! whether a non-linear function of a position's pcode counts predicts the targets better
//! than the tables alone (the held-out loss says). The engine cannot use the layer, so the
//! trainer only reports its losses.
//!
//! Model, from the side to move's view: `eval = tables(w) + sum_j out_j * clamp(h_j, 0, 1)`
//! with `h_j = bias_j + sum_k c_k * weight_kj` over the value features `k` (the signed pcode
//! counts; not the tempo entry). The output weights start at 0, so the model starts as the
//! tables; the input weights start small and random (seeded), the biases at 0.5 (inside the
//! clamp, where the gradient flows). The tables' part is regularised towards its start as in
//! [`super::fit::fit`]; the layer is not regularised.
//!
//! Invariant: before the first step the model's evaluation is the tables'.

use super::fit::{self, cross_entropy, sigmoid, target, Dataset, FitOptions, FitReport, VALUES};
use super::{sum_gradients, Adam, Rng};
use rayon::prelude::*;

/// The hidden layer's shape and step sizes.
#[derive(Clone, Copy, Debug)]
pub struct HiddenOptions {
    /// Hidden units.
    pub units: usize,
    /// Adam step size of the input weights and biases.
    pub lr: f32,
    /// Adam step size of the output weights, in evaluation units.
    pub out_lr: f32,
    /// Seed of the input weights' start.
    pub seed: u64,
}

/// One hidden layer of clipped-ReLU units.
#[derive(Clone, Debug)]
pub struct HiddenLayer {
    units: usize,
    /// The input weights `[feature][unit]` (value features only), then the biases `[unit]`:
    /// the part one Adam step moves together.
    inner: Vec<f32>,
    out: Vec<f32>,
}

impl HiddenLayer {
    /// A layer whose output is 0 (input weights uniform in +-0.01, seeded).
    pub fn new(units: usize, seed: u64) -> HiddenLayer {
        let mut rng = Rng::new(seed);
        let weights = (0..VALUES * units).map(|_| (rng.below(2001) as f32 / 1000.0 - 1.0) * 0.01);
        HiddenLayer {
            units,
            inner: weights.chain(std::iter::repeat_n(0.5, units)).collect(),
            out: vec![0.0; units],
        }
    }

    /// Parameters in all (input weights, biases, output weights).
    pub fn len(&self) -> usize {
        self.inner.len() + self.units
    }

    /// True if the layer has no unit.
    pub fn is_empty(&self) -> bool {
        self.units == 0
    }

    /// The units' pre-activations for position `i` into `h`.
    fn hidden(&self, data: &Dataset, i: usize, h: &mut [f32]) {
        h.copy_from_slice(&self.inner[VALUES * self.units..]);
        for (k, c) in data.features(i).filter(|&(k, _)| k < VALUES) {
            let row = &self.inner[k * self.units..(k + 1) * self.units];
            h.iter_mut().zip(row).for_each(|(x, y)| *x += c * y);
        }
    }

    /// The layer's output for pre-activations `h`.
    fn output(&self, h: &[f32]) -> f32 {
        h.iter()
            .zip(&self.out)
            .map(|(x, v)| x.clamp(0.0, 1.0) * v)
            .sum()
    }
}

/// The evaluation of position `i` under tables `w` and `layer` (`h`: scratch of the layer's
/// width, left holding the pre-activations).
fn eval(data: &Dataset, w: &[f32], layer: &HiddenLayer, i: usize, h: &mut [f32]) -> f32 {
    layer.hidden(data, i, h);
    fit::eval(data, w, i) + layer.output(h)
}

/// The mean cross-entropy of tables `w` with `layer` on `data` (as [`super::fit::loss`]).
pub fn loss(data: &Dataset, w: &[f32], layer: &HiddenLayer, k: f32, lambda: f32) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let sum: f64 = (0..data.len())
        .into_par_iter()
        .map_init(
            || vec![0f32; layer.units],
            |h, i| cross_entropy(eval(data, w, layer, i, h), target(data, i, k, lambda), k),
        )
        .sum();
    sum / data.len() as f64
}

/// Fits tables `w` (starting at `w0`) and a fresh hidden layer to `train` with full-batch
/// Adam, reporting both sets' losses every `every` steps and at the end.
pub fn fit(
    train: &Dataset,
    held_out: &Dataset,
    w0: &[f32],
    opt: &FitOptions,
    hidden: &HiddenOptions,
    every: usize,
    on: &mut dyn FnMut(FitReport),
) -> (Vec<f32>, HiddenLayer) {
    let mut w = w0.to_vec();
    let mut layer = HiddenLayer::new(hidden.units, hidden.seed);
    let (tables, inner, units) = (w0.len(), layer.inner.len(), hidden.units);
    let inputs = inner - units;
    let mut adam_tables = Adam::new(tables);
    let mut adam_inner = Adam::new(inner);
    let mut adam_out = Adam::new(units);
    let zeros = vec![0f32; inner];
    let k = opt.scale;
    let report = |w: &[f32], layer: &HiddenLayer, epoch| FitReport {
        epoch,
        train: loss(train, w, layer, k, opt.lambda),
        held_out: loss(held_out, w, layer, k, opt.lambda),
    };
    for epoch in 0..opt.epochs {
        if every > 0 && epoch % every == 0 {
            on(report(&w, &layer, epoch));
        }
        // Gradient layout: the tables, the input weights, the biases, the output weights.
        let grad = sum_gradients(train.len(), tables + layer.len(), |i, g| {
            // `h` holds the pre-activations, then the loss's gradient at each of them.
            let mut h = vec![0f32; units];
            let err = (sigmoid(eval(train, &w, &layer, i, &mut h) / k)
                - target(train, i, k, opt.lambda))
                / k;
            for (j, c) in train.features(i) {
                g[j] += err * c;
            }
            let (g_in, rest) = g[tables..].split_at_mut(inputs);
            let (g_bias, g_out) = rest.split_at_mut(units);
            for j in 0..units {
                g_out[j] += err * h[j].clamp(0.0, 1.0);
                h[j] = if h[j] > 0.0 && h[j] < 1.0 {
                    err * layer.out[j]
                } else {
                    0.0
                };
                g_bias[j] += h[j];
            }
            for (f, c) in train.features(i).filter(|&(f, _)| f < VALUES) {
                let row = &mut g_in[f * units..(f + 1) * units];
                row.iter_mut().zip(&h).for_each(|(x, y)| *x += c * y);
            }
        });
        let n = train.len().max(1) as f32;
        let (g_tables, rest) = grad.split_at(tables);
        let (g_inner, g_out) = rest.split_at(inner);
        adam_tables.step(&mut w, g_tables, n, w0, opt.l2, opt.lr);
        adam_inner.step(&mut layer.inner, g_inner, n, &zeros, 0.0, hidden.lr);
        let out_lr = hidden.out_lr;
        adam_out.step(&mut layer.out, g_out, n, &zeros[..units], 0.0, out_lr);
    }
    on(report(&w, &layer, opt.epochs));
    (w, layer)
}
