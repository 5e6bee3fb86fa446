//! One engine process driven over pipes.
//!
//! The command is run through the platform shell (`sh -c` on Unix, `cmd /C` on Windows), so a
//! command line with arguments, redirections or `exec` works as typed. Each engine gets one
//! reader thread for stdout, which sends whole lines (CR/LF stripped, invalid UTF-8 replaced)
//! through a channel, so the referee can wait for a reply with a deadline; a second thread
//! drains stderr. The last few lines of both streams are kept for error reports.
//!
//! Invariants: the process and, on Unix, its whole process group (the shell and whatever it
//! started) are killed when the [`EngineProc`] is dropped, so no engine outlives its handle.
//! The reader threads are detached: they end when the pipes close.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How many output lines (stdout and stderr together) are kept for reports.
const TAIL_LINES: usize = 12;

/// How long an engine may take to exit after `END` before it is killed.
const END_GRACE: Duration = Duration::from_millis(500);

/// What waiting for a line gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// One line of stdout, without its line ending.
    Line(String),
    /// The deadline passed first.
    Timeout,
    /// Stdout was closed: the engine exited or crashed.
    Eof,
}

type Tail = Arc<Mutex<VecDeque<String>>>;

fn push_tail(tail: &Tail, line: String) {
    // A poisoned lock only means another reader panicked; the buffer is still usable.
    let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
    if t.len() == TAIL_LINES {
        t.pop_front();
    }
    t.push_back(line);
}

/// A running engine.
pub struct EngineProc {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    tail: Tail,
}

impl EngineProc {
    /// Starts `command` through the shell. `name` labels the engine in logs.
    pub fn spawn(name: &str, command: &str) -> io::Result<EngineProc> {
        let mut cmd = shell_command(command);
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Own process group, so dropping the handle can kill the shell and its children.
            cmd.process_group(0);
        }
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no stdout pipe"))?;
        let stderr = child
            .stderr
            .take()
            .ok_or_else(|| io::Error::other("no stderr pipe"))?;
        let tail: Tail = Arc::new(Mutex::new(VecDeque::new()));
        let (tx, rx) = mpsc::channel();
        {
            let tail = Arc::clone(&tail);
            let label = name.to_string();
            thread::Builder::new()
                .name(format!("{name}-stdout"))
                .spawn(move || {
                    read_lines(stdout, |line| {
                        log::debug!("{label} > {line}");
                        push_tail(&tail, line.clone());
                        tx.send(line).is_ok()
                    })
                })?;
        }
        {
            let tail = Arc::clone(&tail);
            thread::Builder::new()
                .name(format!("{name}-stderr"))
                .spawn(move || {
                    read_lines(stderr, |line| {
                        push_tail(&tail, format!("[stderr] {line}"));
                        true
                    })
                })?;
        }
        Ok(EngineProc {
            name: name.to_string(),
            child,
            stdin,
            lines: rx,
            tail,
        })
    }

    /// The engine's label.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Writes one command line (a `\n` is added) and flushes. An error means the engine's
    /// stdin is closed, i.e. it has exited.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        log::debug!("{} < {line}", self.name);
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "stdin closed"))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// Waits for the next stdout line until `deadline`.
    pub fn recv(&self, deadline: Instant) -> Reply {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Reply::Line(line),
            Err(RecvTimeoutError::Timeout) => Reply::Timeout,
            Err(RecvTimeoutError::Disconnected) => Reply::Eof,
        }
    }

    /// Throws away every line already received (stale output from an earlier game).
    pub fn drain(&self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// The last lines the engine wrote (stderr lines are marked `[stderr]`).
    pub fn tail(&self) -> Vec<String> {
        let t = self.tail.lock().unwrap_or_else(|e| e.into_inner());
        t.iter().cloned().collect()
    }

    /// True while the process has not exited.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends `END`, closes stdin and gives the engine `END_GRACE` to exit before the drop
    /// kills it.
    pub fn quit(mut self) {
        let _ = self.send("END");
        self.stdin = None;
        let until = Instant::now() + END_GRACE;
        while Instant::now() < until {
            if !self.is_alive() {
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for EngineProc {
    fn drop(&mut self) {
        self.stdin = None;
        #[cfg(unix)]
        {
            // The group id is the shell's pid (see `process_group(0)`). Killing the group also
            // ends the engine if the shell forked it instead of exec-ing it.
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", self.child.id())])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn shell_command(command: &str) -> Command {
    if cfg!(windows) {
        let mut c = Command::new("cmd");
        c.args(["/C", command]);
        c
    } else {
        let mut c = Command::new("sh");
        c.args(["-c", command]);
        c
    }
}

/// Reads `stream` line by line and hands each line to `sink` until EOF, an error, or `sink`
/// returns false.
fn read_lines(stream: impl Read, mut sink: impl FnMut(String) -> bool) {
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                while matches!(buf.last(), Some(b'\n' | b'\r')) {
                    buf.pop();
                }
                if !sink(String::from_utf8_lossy(&buf).into_owned()) {
                    return;
                }
            }
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn echo_round_trip_and_eof() {
        let mut e = EngineProc::spawn("cat", "cat").unwrap();
        e.send("hello").unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        assert_eq!(e.recv(deadline), Reply::Line("hello".into()));
        assert_eq!(
            e.recv(Instant::now() + Duration::from_millis(50)),
            Reply::Timeout
        );
        e.stdin = None; // cat exits at EOF on stdin
        assert_eq!(e.recv(deadline), Reply::Eof);
        assert_eq!(e.tail(), vec!["hello".to_string()]);
    }

    #[test]
    fn crlf_is_stripped_and_stderr_kept() {
        let e = EngineProc::spawn("p", "printf 'a\\r\\n'; echo oops >&2; sleep 5").unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        assert_eq!(e.recv(deadline), Reply::Line("a".into()));
        // Drop kills the sleeping shell at once.
        let t0 = Instant::now();
        thread::sleep(Duration::from_millis(100));
        assert!(e.tail().iter().any(|l| l == "[stderr] oops"));
        drop(e);
        assert!(t0.elapsed() < Duration::from_secs(4));
    }
}
