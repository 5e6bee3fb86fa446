//! The real `pbrain-lianzhu` fed a whole input at once, as a shell pipe (`printf ... |
//! pbrain-lianzhu`) or a script does: everything is written before any answer is read.

use std::io::{BufRead, BufReader, Read, Write};
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
    /// When each stdout line (each LF) arrived, from the start of the process.
    pub line_times: Vec<Duration>,
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
    run_paced(args, &[(input.to_vec(), Duration::ZERO)], end, limit)
}

/// [`run_piped`] with the input written in chunks, each followed by its pause (so commands
/// arrive while the brain thinks).
pub fn run_paced(
    args: &[&str],
    chunks: &[(Vec<u8>, Duration)],
    end: StdinEnd,
    limit: Duration,
) -> Piped {
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
    let chunks = chunks.to_vec();
    // The brain may exit (END) before it has read everything: a write error is expected then.
    let writer = std::thread::spawn(move || {
        for (bytes, pause) in chunks {
            if stdin
                .write_all(&bytes)
                .and_then(|()| stdin.flush())
                .is_err()
            {
                break;
            }
            std::thread::sleep(pause);
        }
        match end {
            StdinEnd::Close => None,
            StdinEnd::KeepOpen => Some(stdin),
        }
    });
    let out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let (mut all, mut times) = (Vec::new(), Vec::new());
        let mut out = BufReader::new(out);
        loop {
            let mut line = Vec::new();
            match out.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if line.ends_with(b"\n") {
                times.push(started.elapsed());
            }
            all.extend_from_slice(&line);
        }
        (all, times)
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let mut exited = false;
    while started.elapsed() < limit {
        if child.try_wait().expect("try_wait").is_some() {
            exited = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let elapsed = started.elapsed();
    if !exited {
        let _ = child.kill();
    }
    let status = child.wait().expect("wait");
    let status = exited.then_some(status);
    let kept = writer.join().expect("writer thread");
    drop(kept);
    let (stdout, line_times) = out_reader.join().expect("stdout reader");
    Piped {
        stdout,
        line_times,
        stderr: String::from_utf8_lossy(&err_reader.join().expect("stderr reader")).into_owned(),
        status,
        elapsed,
    }
}
