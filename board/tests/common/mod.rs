//! Starting `lianzhu-board` for a test: on a free port, its engine `pbrain-lianzhu` from the
//! same target folder (built by `cargo test --workspace`) or the one `--engine` names.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// A running board server, killed when dropped.
pub struct Board {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
}

impl Drop for Board {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `pbrain-lianzhu` beside the board binary.
pub fn engine_path() -> PathBuf {
    let board = PathBuf::from(env!("CARGO_BIN_EXE_lianzhu-board"));
    board.with_file_name(format!("pbrain-lianzhu{}", std::env::consts::EXE_SUFFIX))
}

/// Whether `pbrain-lianzhu` is built beside the board; if not, skips (or fails under CI) with
/// the reason.
pub fn engine_built() -> bool {
    let built = engine_path().exists();
    if !built {
        skip_or_fail(&format!(
            "{} not built (cargo test --workspace builds it)",
            engine_path().display()
        ));
    }
    built
}

/// Starts the board with these extra arguments and waits for its address line.
pub fn start(args: &[&str]) -> Board {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lianzhu-board"))
        .args(["--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("lianzhu-board starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the address line");
    let start = line.find("http://").expect("an address in the first line") + 7;
    let end = start + line[start..].find('/').expect("a path");
    Board {
        child,
        url: format!("http://{}", &line[start..end]),
    }
}

/// The test is due to run (CI set) or may skip with this reason.
pub fn skip_or_fail(why: &str) {
    if std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0") {
        panic!("{why} (CI is set, so this is a failure)");
    }
    println!("SKIPPED: {why}");
}
