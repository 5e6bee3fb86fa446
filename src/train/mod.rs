//! Learning the evaluation: the training-data format ([`data`]), the self-play games that
//! produce it ([`selfplay`]) and the trainer that fits evaluation tables ([`fit`]) and
//! move-ordering scores ([`policy`]) to it.
//!
//! A tools-level module: it drives the search and the evaluation, nothing below imports it.

pub mod data;
pub mod fit;
pub mod policy;
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
