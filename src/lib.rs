//! Lianzhu (连珠): a Gomoku/Renju engine for the Gomocup (Piskvork) protocol.
//!
//! Layers point one way: `types` <- `rules` <- `eval`/`threat` <- `search` <- `engine` <-
//! `protocol` <- the binaries. Only `protocol::output` writes to stdout.

#![deny(clippy::print_stdout, clippy::print_stderr)]
#![warn(missing_docs)]

pub mod arena;
pub mod engine;
pub mod eval;
pub mod notation;
pub mod opening;
pub mod protocol;
pub mod rules;
pub mod score;
pub mod search;
pub mod swap2;
pub mod threat;
pub mod tools;
pub mod train;
pub mod types;
