//! Helpers shared by the integration tests (each test module says `use crate::common;`):
//! - `RULES`: every rule;
//! - `have_shared_data()`: whether `../shared/data` is here (the skip-or-fail policy of
//!   `shared.rs`); every test that reads it starts with `if !have_shared_data() { return; }`;
//! - `data(name)`: a file of `../shared/data`, read in place (never copied into the repo);
//! - `fixture(name)`: a file of `tests/fixtures`, the repository's own small test data, which
//!   runs everywhere (a fresh clone included);
//! - `Rng`: the seeded xorshift64* generator of the property tests, so every run replays the
//!   same cases;
//! - `Brain`: the real `pbrain-lianzhu` binary driven over pipes, every read bounded by a
//!   timeout so a hung engine fails a test instead of hanging it;
//! - `rule_checks()`: the Gomocup admission checks of `gomocup-rule-checks.txt`;
//! - `puzzles()`: the records of `vcf-puzzles.txt`;
//! - `random_board(..)`: a random position of the property tests;
//! - `run_piped(..)`: the binary fed a whole input at once, as `printf ... | pbrain-lianzhu`
//!   does, its output, exit status and run time collected.
//!
//! Not every test file uses every item, hence `dead_code` is allowed here.
#![allow(dead_code)]

mod piped;
mod shared;

#[allow(unused_imports)]
pub use piped::{run_paced, run_piped, Piped, StdinEnd};
pub use shared::shared_dir;

use lianzhu::notation::{parse_moves, parse_pos};
use lianzhu::rules::{self, Board};
use lianzhu::types::{Color, Pos, Rule};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// Every rule, in Gomocup order.
pub const RULES: [Rule; 5] = [
    Rule::Freestyle,
    Rule::Standard,
    Rule::Renju,
    Rule::Caro,
    Rule::CaroExact,
];

/// Runs `pbrain-lianzhu <subcommand> <args>` on `input`; asserts it exits 0 and returns its
/// output lines.
pub fn run_subcommand(subcommand: &str, args: &[&str], input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-lianzhu"))
        .arg(subcommand)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("start pbrain-lianzhu {subcommand}: {e}"));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().expect("the subcommand runs");
    assert!(
        out.status.success(),
        "{subcommand} exited with {}",
        out.status
    );
    String::from_utf8(out.stdout)
        .expect("UTF-8 output")
        .lines()
        .map(str::to_string)
        .collect()
}

/// True when the environment variable `CI` is set and non-empty (tests that must not skip
/// in CI ask this).
pub fn ci() -> bool {
    shared::ci()
}

/// True if `../shared/data` is here. If not: panics under CI, otherwise prints
/// `skipping: ../shared/data not found (...)` with the test's name and returns false, and the
/// test returns (see `shared.rs`).
pub fn have_shared_data() -> bool {
    // libtest runs every test on a thread named after it.
    let current = std::thread::current();
    shared::shared_data_or_skip(current.name().unwrap_or("a test"))
}

/// The path of `name` in `../shared/data`.
pub fn data_path(name: &str) -> String {
    shared_dir().join(name).display().to_string()
}

/// The text of `name` in `../shared/data`; panics with the path if it cannot be read (a test
/// calls `have_shared_data()` first).
pub fn data(name: &str) -> String {
    let path = data_path(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// The text of `name` in `tests/fixtures` (always present).
pub fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// xorshift64*: a small, seeded generator so every run plays the same cases.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// How the reader thread treats the brain's output lines.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum LineCheck {
    /// As `BufRead::lines`: LF or CR LF ends a line, output ends at bad UTF-8.
    Lenient,
    /// Every line must be UTF-8 and end in LF alone (the reader thread panics otherwise, so
    /// the next read fails).
    Strict,
}

/// Sends every output line of `stdout` on the returned channel, from a thread of its own.
pub fn read_lines(stdout: impl Read + Send + 'static, check: LineCheck) -> Receiver<String> {
    let mut stdout = BufReader::new(stdout);
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || loop {
        let mut raw = Vec::new();
        match stdout.read_until(b'\n', &mut raw) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = match check {
            LineCheck::Strict => {
                let line = String::from_utf8(raw).expect("replies are UTF-8");
                assert!(line.ends_with('\n'), "line without LF: {line:?}");
                let line = line.strip_suffix('\n').unwrap().to_string();
                assert!(!line.contains('\r'), "reply with CR: {line:?}");
                line
            }
            LineCheck::Lenient => {
                let Ok(mut line) = String::from_utf8(raw) else {
                    break;
                };
                if line.ends_with('\n') {
                    line.pop();
                    if line.ends_with('\r') {
                        line.pop();
                    }
                }
                line
            }
        };
        if tx.send(line).is_err() {
            break;
        }
    });
    lines
}

/// The running `pbrain-lianzhu` binary, its output lines arriving on a channel. Killed on drop.
pub struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    timeout: Duration,
}

impl Brain {
    /// Starts the binary; every read waits at most `timeout`.
    pub fn start(timeout: Duration, check: LineCheck) -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-lianzhu"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start pbrain-lianzhu");
        let stdin = child.stdin.take();
        let lines = read_lines(child.stdout.take().unwrap(), check);
        Brain {
            child,
            stdin,
            lines,
            timeout,
        }
    }

    /// The process id (for `/proc/<pid>/status`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes `bytes` as they are and flushes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to the brain");
        stdin.flush().expect("flush");
    }

    /// Writes `text` as it is (with its own line ends).
    pub fn send_raw(&mut self, text: &str) {
        self.send_bytes(text.as_bytes());
    }

    /// Writes one command line, ended by LF.
    pub fn send(&mut self, line: &str) {
        self.send_raw(&format!("{line}\n"));
    }

    /// The next line, whatever it is, or a panic after the timeout.
    pub fn line(&self) -> String {
        self.lines
            .recv_timeout(self.timeout)
            .unwrap_or_else(|_| panic!("no reply within {:?}", self.timeout))
    }

    /// Sends `line` and returns the next line.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.line()
    }

    /// The next line that starts with none of `skip` (e.g. `["MESSAGE "]`).
    pub fn reply_skipping(&self, skip: &[&str]) -> String {
        loop {
            let line = self.line();
            if !skip.iter().any(|s| line.starts_with(s)) {
                return line;
            }
        }
    }

    /// The next line that is not a `MESSAGE`.
    pub fn reply(&self) -> String {
        self.reply_skipping(&["MESSAGE "])
    }

    /// Closes the brain's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The exit status once the process has exited, or `None` if it still runs after `limit`.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let t = Instant::now();
        while t.elapsed() < limit {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        None
    }

    /// The remaining output after the process has exited.
    pub fn rest(&self) -> Vec<String> {
        let mut out = Vec::new();
        while let Ok(l) = self.lines.recv_timeout(Duration::from_millis(200)) {
            out.push(l);
        }
        out
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One line of `../shared/data/gomocup-rule-checks.txt`.
pub struct RuleCheck {
    /// The check's name, e.g. `ALL-1-F20`.
    pub id: String,
    /// The Gomocup rule number.
    pub rule: i64,
    /// The board size.
    pub size: usize,
    /// The moves played, black first.
    pub moves: Vec<Pos>,
    /// The side to move, as the file states it.
    pub to_move: Color,
    /// The listed moves: the accepted ones, or with `except` the only refused ones.
    pub accepted: Vec<Pos>,
    /// `anything except` the listed moves.
    pub except: bool,
}

impl RuleCheck {
    /// Whether `p` is an accepted answer.
    pub fn accepts(&self, p: Pos) -> bool {
        self.accepted.contains(&p) != self.except
    }
}

/// The Gomocup admission checks of `gomocup-rule-checks.txt`.
pub fn rule_checks() -> Vec<RuleCheck> {
    data("gomocup-rule-checks.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert!(f.len() >= 6, "bad line {l}");
            let rule = f[1].split_whitespace().next().unwrap();
            let (except, accepted) = match f[5].strip_prefix("anything except") {
                Some(rest) => (true, rest),
                None => (false, f[5]),
            };
            RuleCheck {
                id: f[0].to_string(),
                rule: rule.parse().unwrap_or_else(|_| panic!("bad rule {rule}")),
                size: f[2].parse().unwrap(),
                moves: parse_moves(f[3]).unwrap(),
                to_move: match f[4] {
                    "black" => Color::Black,
                    "white" => Color::White,
                    other => panic!("bad side {other}"),
                },
                accepted: parse_moves(accepted).unwrap(),
                except,
            }
        })
        .collect()
}

/// One record of `vcf-puzzles.txt`: its id and the fields the tests use (first value of a
/// repeated field).
#[derive(Debug, Default)]
pub struct Puzzle {
    pub id: String,
    pub rule: String,
    pub to_move: String,
    pub black: String,
    pub white: String,
    pub vcf: Option<bool>,
    pub min_fours: Option<u32>,
    pub vct: bool,
    pub renju_contrast: bool,
}

impl Puzzle {
    /// The position (15x15), its rule and the side to move (the attacker of the record).
    pub fn setup(&self) -> (Board, Rule, Color) {
        let rule = Rule::from_name(&self.rule).expect("known rule");
        let mut b = Board::square(15).unwrap();
        for (list, color) in [(&self.black, Color::Black), (&self.white, Color::White)] {
            for w in list.split_whitespace() {
                b.place(parse_pos(w).unwrap(), color);
            }
        }
        let to_move = if self.to_move == "black" {
            Color::Black
        } else {
            Color::White
        };
        b.set_side_to_move(to_move);
        (b, rule, to_move)
    }
}

/// Every record of `vcf-puzzles.txt`, in file order.
pub fn puzzles() -> Vec<Puzzle> {
    let text = data("vcf-puzzles.txt");
    let mut out: Vec<Puzzle> = Vec::new();
    for line in text.lines() {
        if let Some(id) = line.strip_prefix("[puzzle ") {
            out.push(Puzzle {
                id: id.trim_end_matches(']').to_string(),
                ..Puzzle::default()
            });
            continue;
        }
        let (Some(p), Some((key, value))) = (out.last_mut(), line.split_once(':')) else {
            continue;
        };
        let value = value.trim();
        match key {
            "rule" => p.rule = value.to_string(),
            "to_move" => p.to_move = value.to_string(),
            "black" => p.black = value.to_string(),
            "white" => p.white = value.to_string(),
            // A record may repeat a field; the first value is the checked one.
            "vcf" if p.vcf.is_none() => p.vcf = Some(value == "yes"),
            "min_fours" if p.min_fours.is_none() => p.min_fours = value.parse().ok(),
            "vct" => p.vct = value.starts_with("yes"),
            "renju_contrast" => p.renju_contrast = value.contains("IS a white VCF"),
            _ => {}
        }
    }
    out
}

/// A random position: `stones` stones alternating colours in a `span`-wide square around the
/// centre, none of them completing a five, so the game is still on.
pub fn random_board(rng: &mut Rng, rule: Rule, size: usize, stones: usize, span: usize) -> Board {
    let mut b = Board::square(size).unwrap();
    let lo = (size - span) / 2;
    let mut color = Color::Black;
    let mut tries = 0;
    while b.stone_count() < stones && tries < 10_000 {
        tries += 1;
        let p = Pos::new(lo + rng.below(span), lo + rng.below(span));
        if !b.is_empty(p) || rules::is_five(&b, p, color, rule) {
            continue;
        }
        b.place(p, color);
        color = color.opponent();
    }
    b
}

/// Writes to the real stderr: libtest captures `eprintln!`, but a skip must be visible.
pub fn notice(text: &str) {
    let _ = writeln!(std::io::stderr(), "\n{text}");
}

/// `path` if it is a file. If not: panics under CI (`CI` set), otherwise prints
/// `SKIPPED <test>: <path> is missing (<how to get it>)` and returns `None`, and the test
/// returns. For the outside clients the tests drive (pygomo-lib, c-gomoku-cli).
pub fn tool_or_skip(test: &str, path: &std::path::Path, how: &str) -> Option<std::path::PathBuf> {
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    let why = format!("{} is missing ({how})", path.display());
    if ci() {
        panic!("{test}: {why}; CI is set, so this is a failure");
    }
    notice(&format!("SKIPPED {test}: {why}"));
    None
}

/// What a finished child process wrote.
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// Runs `cmd` with stdin closed, collecting stdout and stderr; kills it and panics if it has
/// not exited within `limit`.
pub fn run_with_deadline(mut cmd: Command, limit: Duration) -> Finished {
    let started = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let collect = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut r) = r {
                let mut bytes = Vec::new();
                let _ = r.read_to_end(&mut bytes);
                text = String::from_utf8_lossy(&bytes).into_owned();
            }
            text
        })
    };
    let out = collect(
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let err = collect(
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the child") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let (stdout, stderr) = (out.join().unwrap(), err.join().unwrap());
            panic!("{cmd:?} ran over {limit:?}\nstdout:\n{stdout}\nstderr:\n{stderr}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Finished {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        elapsed: started.elapsed(),
    }
}
