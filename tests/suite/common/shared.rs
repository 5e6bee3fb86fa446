//! Whether the shared reference data (`../shared/data`, beside the repository) is here: the one
//! place that decides it, for the tests (through `common`) and `benches/vcf.rs` (which
//! includes this file by path).
//!
//! - Present: the caller reads it and runs as before.
//! - Absent, `CI` unset or empty: one line `skipping: ../shared/data not found (...)` on the
//!   real stderr (libtest captures `eprintln!`, a skip must be visible), and the caller
//!   returns; a fresh clone on its own still passes, on the repository's own fixtures.
//! - Absent under CI (`CI` set, non-empty): a panic, so CI never goes green without the data.
//!
//! `LIANZHU_SHARED_DATA` replaces the directory (point it at a missing one to see what a
//! fresh clone does).

use std::io::Write;
use std::path::PathBuf;

/// The environment variable that replaces the data directory.
pub const DIR_VAR: &str = "LIANZHU_SHARED_DATA";

/// The shared data directory: `$LIANZHU_SHARED_DATA` if set and non-empty, else
/// `$CARGO_MANIFEST_DIR/../shared/data`.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os(DIR_VAR) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data")),
    }
}

/// True when the environment variable `CI` is set and non-empty.
pub fn ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// True if the shared data directory exists. If not: panics under CI, otherwise prints the
/// one-line skip notice naming `what` (the test or bench) and returns false.
pub fn shared_data_or_skip(what: &str) -> bool {
    let dir = shared_dir();
    if dir.is_dir() {
        return true;
    }
    if ci() {
        panic!(
            "{what}: ../shared/data not found ({}); CI is set, so this is a failure",
            dir.display()
        );
    }
    // One write, so the line does not interleave with libtest's output.
    let line = format!(
        "skipping: ../shared/data not found ({}), {what} needs it\n",
        dir.display()
    );
    let _ = std::io::stderr().write_all(line.as_bytes());
    false
}
