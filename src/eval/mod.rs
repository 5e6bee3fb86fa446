//! Static evaluation from line patterns.
//!
//! [`EvalBoard`] keeps per-cell pattern codes, threat classes and scores incrementally on
//! make/undo, so evaluation and "does either side have a five / four / live three" are O(1).
//! The scores come from [`weights::Weights`], a plain struct (no global state).
//!
//! Invariant: evaluation has no side effects and is from the side to move's view.

#![forbid(unsafe_code)]

mod board;
pub mod weights;

pub use board::EvalBoard;
pub use weights::Weights;
