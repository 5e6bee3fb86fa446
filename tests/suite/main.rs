//! The integration tests, one module per area, in one test binary: built and linked once,
//! and their tests share the harness's threads (both cores stay busy while a long test such
//! as the protocol fuzz runs), where 36 binaries ran one after another. `layers` stays its
//! own binary so `.ci/run` can run it first. `common` holds the shared helpers.
//!
//! One module: `cargo test --release --test suite protocol_fuzz::`.

mod common;

mod analyze_cli;
mod arena_cli;
mod arena_forced;
mod arena_openings;
mod arena_referee;
mod arena_selfplay;
mod bench_determinism;
mod command_property;
mod gomocup_checks;
mod gomoku_cli_match;
mod memory;
mod opening;
mod opening_cli;
mod opening_rules;
mod patterns;
mod pipe;
mod protocol_fuzz;
mod protocol_transcripts;
mod pygomo_client;
mod renju_forbidden;
mod rules_property;
mod search_exclude;
mod search_nbest;
mod search_pick;
mod search_probe;
mod search_selfplay;
mod search_time;
mod search_vcf_defence;
mod solve_cli;
mod swap2;
mod tactics;
mod train;
mod train_rank;
mod vcf_property;
mod vcf_suite;
mod wine_gomocup;
mod yixin_opening;
mod yixin_transcripts;
