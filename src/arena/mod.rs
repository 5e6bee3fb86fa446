//! The strength lab behind `lianzhu-match`: a Gomocup-protocol match runner.
//!
//! - [`engine_proc`]: one engine process over pipes, replies awaited with a deadline;
//! - [`referee`]: one game, every reply judged with the project's own rules code;
//! - [`openings`]: opening suites in the `h8i9h10` notation;
//! - [`stats`]: W/L/D, Elo with a 95% interval, pentanomial SPRT;
//! - [`tournament`]: game pairs over the openings, worker threads, game records;
//! - [`cli`]: the command line and the final report;
//! - [`summary`]: the same figures from a games file (`lianzhu-match --summarize`);
//! - [`sparring`]: a built-in fast brain (`lianzhu-match --sparring`) for end-to-end checks;
//! - [`forced`]: the forced-wins file (positions with a forced win or a save, Rapfi's eval);
//! - [`scoring`]: an engine scored on that file, a judge engine evaluating its moves
//!   (`lianzhu-match --forced-wins`);
//! - [`label`]: training data relabelled with a judge engine's evals (`lianzhu-match --label`).
//!
//! This layer sits beside the protocol, above `rules` and `notation`; nothing in the engine
//! depends on it. It never prints: output goes to writers handed in by the binary.

pub mod cli;
pub mod engine_proc;
pub mod forced;
pub mod label;
pub mod openings;
pub mod referee;
pub mod scoring;
pub mod sparring;
pub mod stats;
pub mod summary;
pub mod tournament;
