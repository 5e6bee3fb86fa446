//! Static evaluation from line patterns.
//!
//! [`EvalBoard`] keeps per-cell pattern codes, threat classes and scores incrementally on
//! make/undo, so evaluation and "does either side have a five / four / live three" are O(1).
//! The scores come from [`tables::EvalTables`]: the hand-set [`weights::Weights`] or learned
//! tables (one value per pattern combination, colour and role, plus a tempo table).
//!
//! Invariant: evaluation has no side effects and is from the side to move's view.

#![forbid(unsafe_code)]

mod board;
pub mod shape;
pub mod tables;
pub mod weights;

pub use board::{EvalBoard, NearEmpties};
pub use tables::{EvalSet, EvalTables};
pub use weights::Weights;
