//! The real `pbrain-lianzhu` fed a whole input at once, as a shell pipe (`printf ... |
//! pbrain-lianzhu`) or a script does: everything is written before any answer is read.

use std::io::{Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// What happens to the brain's stdin once the input is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StdinEnd {
    /// Closed: end of input, as at the end of `printf ... |`.
    Close,
    /// Kept open until the process exits (only `END` can end it).
    KeepOpen,
}

/// The outcome of one piped run.
#[derive(Debug)]
pub struct Piped {
    /// Everything written on stdout.
    pub stdout: Vec<u8>,
    /// Everything written on stderr, lossily decoded.
    pub stderr: String,
    /// The exit status, or `None` if the process was still running at the limit (then killed).
    pub status: Option<ExitStatus>,
    /// From the start of the process to its exit (or the kill).
    pub elapsed: Duration,
}

impl Piped {
    /// Stdout as text lines (split at LF; the bytes must be UTF-8).
    pub fn lines(&self) -> Vec<String> {
        let text = String::from_utf8(self.stdout.clone()).expect("stdout is UTF-8");
        text.lines().map(str::to_string).collect()
    }

    /// True if the process exited by itself with status 0.
    pub fn exited_ok(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }
}

/// Runs the binary (with `args`, logging off: no `RUST_LOG`), writes `input`, then closes or
/// keeps stdin as `end` says; waits at most `limit` for the exit, then kills it.
pub fn run_piped(args: &[&str], input: &[u8], end: StdinEnd, limit: Duration) -> Piped {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-lianzhu"))
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pbrain-lianzhu");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    // The brain may exit (END) before it has read everything: a write error is expected then.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
        let _ = stdin.flush();
        match end {
            StdinEnd::Close => None,
            StdinEnd::KeepOpen => Some(stdin),
        }
    });
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let mut status = None;
    while started.elapsed() < limit {
        if let Some(s) = child.try_wait().expect("try_wait") {
            status = Some(s);
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let elapsed = started.elapsed();
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let kept = writer.join().expect("writer thread");
    drop(kept);
    Piped {
        stdout: out_reader.join().expect("stdout reader"),
        stderr: String::from_utf8_lossy(&err_reader.join().expect("stderr reader")).into_owned(),
        status,
        elapsed,
    }
}
