//! The engine as a child process: its stdin for our commands, a thread reading its stdout.
//!
//! The process is started from a command line split on whitespace (no shell). Each stdout
//! line is handed to a callback on the reader thread, then `None` at the end of output. When
//! the [`EngineProc`] is dropped the engine gets `END`, and is killed if it is still running a
//! second later (on a thread of its own, so the caller does not wait).

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Longest engine output line kept; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;

/// A running engine.
pub struct EngineProc {
    child: Option<Child>,
    stdin: ChildStdin,
}

impl EngineProc {
    /// Starts `program args...` and a thread that calls `on_line` for every line it writes
    /// (without the line end), then `on_line(None)` when its output ends.
    pub fn spawn(
        command: &[String],
        mut on_line: impl FnMut(Option<String>) + Send + 'static,
    ) -> io::Result<EngineProc> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty engine command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            // The board's own RUST_LOG is not the engine's (its debug log is every line).
            .env_remove("RUST_LOG")
            .spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(io::Error::other("the engine's pipes could not be opened"));
        };
        thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader
                        .by_ref()
                        .take(MAX_LINE as u64)
                        .read_until(b'\n', &mut buf)
                    {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            if buf.last() != Some(&b'\n') && buf.len() >= MAX_LINE {
                                // Skip the rest of an overlong line.
                                let mut rest = Vec::new();
                                let _ = reader.read_until(b'\n', &mut rest);
                            }
                            let line = String::from_utf8_lossy(&buf);
                            on_line(Some(line.trim_end_matches(['\r', '\n']).to_string()));
                        }
                    }
                }
                on_line(None);
            })?;
        Ok(EngineProc {
            child: Some(child),
            stdin,
        })
    }

    /// Writes the lines, each ended by a newline, and flushes.
    pub fn send(&mut self, lines: &[String]) -> io::Result<()> {
        let mut text = String::new();
        for line in lines {
            log::debug!("> {line}");
            text.push_str(line);
            text.push('\n');
        }
        self.stdin.write_all(text.as_bytes())?;
        self.stdin.flush()
    }
}

impl Drop for EngineProc {
    fn drop(&mut self) {
        let _ = self.send(&["END".to_string()]);
        if let Some(mut child) = self.child.take() {
            let _ = thread::Builder::new()
                .name("engine-end".into())
                .spawn(move || {
                    let deadline = Instant::now() + Duration::from_secs(1);
                    while Instant::now() < deadline {
                        if let Ok(Some(_)) = child.try_wait() {
                            return;
                        }
                        thread::sleep(Duration::from_millis(20));
                    }
                    let _ = child.kill();
                    let _ = child.wait();
                });
        }
    }
}
