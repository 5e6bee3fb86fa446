//! Lianzhu (连珠): a Gomoku/Renju engine for the Gomocup (Piskvork) protocol.
//!
//! Layers point one way (`tests/layers.rs` checks every `crate::` path against them):
//!
//! - `types`, `score`: colours, points, rules; what a score means (mates, win rate, text);
//! - `notation`: points and positions as text;
//! - `rules`: the board, fives, renju fouls, the opening protocols' rules;
//! - `eval`, `threat`: the incremental position and its evaluation; the VCF/VCT provers;
//! - `search`: the alpha-beta search;
//! - `engine`: the facade that decides moves, with the Swap2 and renju-opening decisions;
//! - `protocol` (the Gomocup loop), and beside it `tools` (the other `pbrain-lianzhu`
//!   commands), `train` and `arena` (the trainer and the match runner);
//! - the binaries.
//!
//! Each imports only what is listed before it, and its neighbours on its own line (never in a
//! circle). Only `protocol::output` writes to stdout.

#![deny(clippy::print_stdout, clippy::print_stderr)]
#![warn(missing_docs)]

pub mod arena;
pub mod engine;
pub mod eval;
pub mod notation;
pub mod protocol;
pub mod rules;
pub mod score;
pub mod search;
pub mod threat;
pub mod tools;
pub mod train;
pub mod types;
