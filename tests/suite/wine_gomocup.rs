//! The Windows build under Wine: `dist/pbrain-lianzhu64.exe`, the exe that
//! `scripts/package-gomocup.sh` puts into `dist/lianzhu-gomocup.zip`, is started as
//! `wine pbrain-lianzhu64.exe` and driven through its stdin/stdout pipes the way Piskvork and
//! GomocupJudge drive it: CR LF commands, one reply line per command, every reply waited for
//! with a deadline so a hung engine fails the test instead of hanging it.
//!
//! Invariants of this file:
//! - Each session runs a fresh copy of the exe from its own folder under
//!   `target/wine-run/<session>/bin`, with an empty working directory
//!   `target/wine-run/<session>/cwd`; after the session both must hold exactly what they held
//!   before (the engine writes no files next to itself or in the manager's folder).
//! - Wine runs with `WINEDEBUG=-all` in the private prefix `target/wine-prefix`, which
//!   `scripts/ci-setup-windows.sh` creates as a fresh Wine makes it: the exe must run with no
//!   extra DLL, so a prefix holding a `bcryptprimitives.dll` (the `ProcessPrng` stub that older
//!   exes needed under Debian's Wine 8, which has no such DLL) fails the test.
//! - Expected answers come from the library (`lianzhu::rules`), never from hard-coded moves:
//!   every move must be on the board and on an empty point, and forbidden points must equal
//!   `forbidden_points` of the same position.
//! - The engine is treated as a tournament treats it: its process is frozen (SIGSTOP/SIGCONT,
//!   what GomocupJudge's suspend does) between moves, its peak memory must stay under the
//!   `max_memory` sent, it must print nothing on stderr and exit with status 0 after `END`.
//! - Policy when Wine, the prefix or the exe is missing: with the environment variable `CI` set
//!   (non-empty) the test FAILS; otherwise it prints `SKIPPED ...` with the reason to stderr
//!   and passes, so `cargo test --release` works on a machine without Wine.
//! - Every session's transcript (`>` sent, `<` received) is written to
//!   `target/wine-run/<session>/transcript.txt` and printed on failure.

use crate::common;

use crate::common::{ci, read_lines, rule_checks, LineCheck};
use lianzhu::notation::parse_moves;
use lianzhu::rules::{forbidden_points, is_legal, Board};
use lianzhu::types::{Color, Pos, Rule};
use std::collections::BTreeSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Deadline for the first reply: it includes starting Wine (and its wineserver).
const FIRST_REPLY: Duration = Duration::from_secs(60);
/// Deadline for any later reply that is not a move.
const REPLY: Duration = Duration::from_secs(20);
/// Turn time sent with `INFO timeout_turn`; a move must come within it plus `SLACK`.
const TURN_MS: u64 = 3000;
/// Slack on top of the turn time for Wine and a loaded 2-core CI machine. This is a hang
/// detector, not a speed measurement.
const SLACK: Duration = Duration::from_secs(15);
/// Gomocup's memory limit, sent as `INFO max_memory` (350 MB).
const MAX_MEMORY: u64 = 350 * 1024 * 1024;
/// Deadline for the process to be gone after END or end of input.
const EXIT: Duration = Duration::from_secs(15);

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// What a Wine session needs: the `wine` launcher, the exe and the prepared prefix.
struct WineSetup {
    wine: PathBuf,
    exe: PathBuf,
    prefix: PathBuf,
}

/// Writes to the real stderr: libtest captures `eprintln!`, but a skip must be visible.
fn notice(text: &str) {
    let _ = writeln!(std::io::stderr(), "\n{text}");
}

fn find_in_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The setup, or `None` after a skip notice (outside CI); panics in CI when anything is missing.
fn wine_setup(test: &str) -> Option<WineSetup> {
    let root = manifest_dir();
    let exe = root.join("dist/pbrain-lianzhu64.exe");
    let prefix = root.join("target/wine-prefix");
    let system32 = prefix.join("drive_c/windows/system32");
    let stub = system32.join("bcryptprimitives.dll");
    let problem = match find_in_path("wine") {
        None => Some("`wine` is not on PATH (run scripts/ci-setup-windows.sh)".to_string()),
        Some(_) if !prefix.join("system.reg").is_file() || !system32.is_dir() => Some(format!(
            "the Wine prefix {} is not made (run scripts/ci-setup-windows.sh)",
            prefix.display()
        )),
        Some(_) if !exe.is_file() => Some(format!(
            "{} does not exist (run scripts/package-gomocup.sh)",
            exe.display()
        )),
        Some(_) => None,
    };
    if let Some(problem) = problem {
        if ci() {
            panic!("wine_gomocup::{test}: {problem}; CI is set, so this is a failure");
        }
        notice(&format!("SKIPPED wine_gomocup::{test}: {problem}"));
        return None;
    }
    assert!(
        !stub.exists(),
        "wine_gomocup::{test}: {} holds a bcryptprimitives.dll; the exe must run without a stub \
         (run scripts/ci-setup-windows.sh, which makes the prefix again)",
        prefix.display()
    );
    warn_if_stale(&exe, &root.join("src"));
    Some(WineSetup {
        wine: find_in_path("wine").expect("checked above"),
        exe,
        prefix,
    })
}

/// The test runs the exe that the package script built; say so when a source file is newer.
fn warn_if_stale(exe: &Path, src: &Path) {
    let built = fs::metadata(exe).and_then(|m| m.modified()).ok();
    let mut newest = None;
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if let Ok(t) = entry.metadata().and_then(|m| m.modified()) {
                newest = newest.max(Some(t));
            }
        }
    }
    if let (Some(built), Some(newest)) = (built, newest) {
        if newest > built {
            notice(&format!(
                "NOTE wine_gomocup: {} is older than src/; rerun scripts/package-gomocup.sh",
                exe.display()
            ));
        }
    }
}

/// One running `wine pbrain-lianzhu64.exe` with its pipes and the transcript so far.
struct Brain {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    transcript: Vec<String>,
    run_dir: PathBuf,
    first_reply: bool,
}

impl Brain {
    fn start(setup: &WineSetup, name: &str) -> Brain {
        let run_dir = manifest_dir().join("target/wine-run").join(name);
        let _ = fs::remove_dir_all(&run_dir);
        fs::create_dir_all(run_dir.join("bin")).unwrap();
        fs::create_dir_all(run_dir.join("cwd")).unwrap();
        let exe = run_dir.join("bin/pbrain-lianzhu64.exe");
        fs::copy(&setup.exe, &exe).unwrap();
        let stderr = fs::File::create(run_dir.join("stderr.txt")).unwrap();
        let mut child = Command::new(&setup.wine)
            .arg(&exe)
            .current_dir(run_dir.join("cwd"))
            .env("WINEPREFIX", &setup.prefix)
            .env("WINEARCH", "win64")
            .env("WINEDEBUG", "-all")
            .env("WINEDLLOVERRIDES", "mscoree,mshtml=")
            .env_remove("DISPLAY")
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(stderr))
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", setup.wine.display()));
        // Strict: a reply that ends in CR LF (or is not UTF-8) stops the reader thread.
        let lines = read_lines(child.stdout.take().unwrap(), LineCheck::Strict);
        Brain {
            name: name.to_string(),
            stdin: child.stdin.take(),
            child,
            lines,
            transcript: Vec::new(),
            run_dir,
            first_reply: true,
        }
    }

    /// Panics with the transcript and the engine's stderr.
    fn fail(&mut self, msg: &str) -> ! {
        let _ = self.child.kill();
        let stderr = fs::read_to_string(self.run_dir.join("stderr.txt")).unwrap_or_default();
        panic!(
            "wine_gomocup::{}: {msg}\n--- transcript ---\n{}\n--- stderr ---\n{stderr}",
            self.name,
            self.transcript.join("\n")
        );
    }

    /// Sends raw bytes (one or more lines, with their own line ends).
    fn send_raw(&mut self, bytes: &str) {
        for line in bytes.split_inclusive('\n') {
            self.transcript.push(format!("> {}", line.escape_debug()));
        }
        let ok = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(bytes.as_bytes())
                .and_then(|()| stdin.flush())
                .is_ok(),
            None => false,
        };
        if !ok {
            self.fail("cannot write to the engine's stdin (has it exited?)");
        }
    }

    /// Sends one command the way Piskvork does: CR LF at the end.
    fn send(&mut self, line: &str) {
        self.send_raw(&format!("{line}\r\n"));
    }

    /// The next line, whatever it is.
    fn recv_line(&mut self, timeout: Duration) -> String {
        let timeout = if self.first_reply {
            timeout.max(FIRST_REPLY)
        } else {
            timeout
        };
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.first_reply = false;
                self.transcript.push(format!("< {line}"));
                line
            }
            Err(RecvTimeoutError::Timeout) => {
                self.fail(&format!("no reply within {} s", timeout.as_secs()))
            }
            Err(RecvTimeoutError::Disconnected) => self.fail(
                "the engine closed stdout (exited?), or a reply was not UTF-8 ending in LF alone",
            ),
        }
    }

    /// The next line that is not a `MESSAGE` / `DEBUG` line (those may come at any time).
    fn reply(&mut self, timeout: Duration) -> String {
        loop {
            let line = self.recv_line(timeout);
            let upper = line.to_ascii_uppercase();
            if upper.starts_with("MESSAGE ") || upper.starts_with("DEBUG ") {
                continue;
            }
            return line;
        }
    }

    fn ask(&mut self, command: &str) -> String {
        self.send(command);
        self.reply(REPLY)
    }

    fn expect(&mut self, command: &str, want: &str) {
        let got = self.ask(command);
        if got != want {
            self.fail(&format!("`{command}` answered `{got}`, expected `{want}`"));
        }
    }

    fn expect_error(&mut self, command: &str) {
        let got = self.ask(command);
        if !got.starts_with("ERROR") {
            self.fail(&format!(
                "`{command}` answered `{got}`, expected `ERROR <why>`"
            ));
        }
    }

    /// Freezes every thread of the engine for `pause`, as GomocupJudge and Piskvork do while
    /// the opponent thinks (under Wine the child's pid is the Windows process itself).
    fn suspend(&mut self, pause: Duration) {
        let pid = self.child.id().to_string();
        self.transcript.push(format!(
            "  (process suspended for {} ms)",
            pause.as_millis()
        ));
        for (signal, wait) in [("-STOP", pause), ("-CONT", Duration::ZERO)] {
            let ok = Command::new("kill")
                .args([signal, pid.as_str()])
                .status()
                .is_ok_and(|s| s.success());
            if !ok {
                self.fail(&format!("kill {signal} {pid} failed"));
            }
            std::thread::sleep(wait);
        }
    }

    /// Reads the engine's move, checks it is an empty point of `board` and legal for the side
    /// to move under `rule`, and plays it there.
    fn expect_move(&mut self, board: &mut Board, rule: Rule) -> Pos {
        let line = self.reply(Duration::from_millis(TURN_MS) + SLACK);
        let parsed = line.split_once(',').and_then(|(x, y)| {
            Some((x.trim().parse::<i64>().ok()?, y.trim().parse::<i64>().ok()?))
        });
        let Some((x, y)) = parsed else {
            self.fail(&format!("expected a move `x,y`, got `{line}`"))
        };
        let Ok(p) = board.pos(x, y) else {
            self.fail(&format!("move {x},{y} is off the board"))
        };
        if !board.is_empty(p) {
            self.fail(&format!("move {x},{y} is on an occupied point"));
        }
        if !is_legal(board, p, board.side_to_move(), rule) {
            self.fail(&format!("move {x},{y} is not legal under {}", rule.name()));
        }
        board.make(p);
        p
    }

    /// Sends END (or closes stdin when `command` is `None`) and checks that the process is
    /// gone within `EXIT` with status 0 and left no files behind; returns the transcript.
    fn finish(mut self, command: Option<&str>) -> Vec<String> {
        self.check_peak_memory();
        match command {
            Some(c) => self.send(c),
            None => self.transcript.push("> (end of input)".to_string()),
        }
        drop(self.stdin.take());
        let started = Instant::now();
        let status: ExitStatus = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if started.elapsed() < EXIT => {
                    std::thread::sleep(Duration::from_millis(20))
                }
                Ok(None) => self.fail(&format!("still running {} s after END", EXIT.as_secs())),
                Err(e) => self.fail(&format!("wait failed: {e}")),
            }
        };
        self.transcript.push(format!(
            "  (exited with {status} {} ms after the command)",
            started.elapsed().as_millis()
        ));
        if !status.success() {
            self.fail(&format!("exit status {status}"));
        }
        if let Ok(line) = self.lines.try_recv() {
            self.transcript.push(format!("< {line}"));
            self.fail("output after END");
        }
        self.check_no_files_written();
        self.check_stderr_silent();
        let text = self.transcript.join("\n") + "\n";
        fs::write(self.run_dir.join("transcript.txt"), &text).unwrap();
        eprintln!("--- wine_gomocup::{} transcript ---\n{text}", self.name);
        std::mem::take(&mut self.transcript)
    }

    /// The peak resident memory of the process (Wine's own libraries included, so this
    /// over-states what Windows would count) must stay under the `max_memory` we send.
    fn check_peak_memory(&mut self) {
        let status = fs::read_to_string(format!("/proc/{}/status", self.child.id()));
        let peak_kb = status.ok().and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        });
        let Some(peak_kb) = peak_kb else {
            self.fail("cannot read VmHWM of the engine (has it exited?)")
        };
        self.transcript
            .push(format!("  (peak resident memory under Wine: {peak_kb} kB)"));
        if peak_kb * 1024 > MAX_MEMORY {
            self.fail(&format!(
                "peak memory {peak_kb} kB is over max_memory {MAX_MEMORY}"
            ));
        }
    }

    fn check_no_files_written(&mut self) {
        let cwd: Vec<_> = list(&self.run_dir.join("cwd"));
        let bin: Vec<_> = list(&self.run_dir.join("bin"));
        if !cwd.is_empty() || bin != ["pbrain-lianzhu64.exe"] {
            self.fail(&format!(
                "the engine wrote files: working dir {cwd:?}, exe dir {bin:?}"
            ));
        }
    }

    /// Piskvork passes stderr to the same pipe as stdout, so the engine must stay silent
    /// there. Wine's own launcher notes (e.g. about a missing wine32) are not the engine's.
    fn check_stderr_silent(&mut self) {
        let stderr = fs::read_to_string(self.run_dir.join("stderr.txt")).unwrap_or_default();
        let engine_lines: Vec<&str> = stderr
            .lines()
            .filter(|l| !l.trim().is_empty())
            .filter(|l| {
                !(l.starts_with("wine:")
                    || l.contains("wine32")
                    || l.contains("multiarch")
                    || l.contains("dpkg --add-architecture"))
            })
            .collect();
        if !engine_lines.is_empty() {
            self.fail(&format!("the engine wrote to stderr: {engine_lines:?}"));
        }
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn list(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Parses `key="value", key="value"` (the ABOUT reply).
fn about_fields(line: &str) -> Vec<(String, String)> {
    let mut fields = Vec::new();
    let mut rest = line;
    while let Some(eq) = rest.find("=\"") {
        let key = rest[..eq].trim_start_matches([',', ' ']).trim().to_string();
        let after = &rest[eq + 2..];
        let Some(end) = after.find('"') else { break };
        fields.push((key, after[..end].to_string()));
        rest = &after[end + 1..];
    }
    fields
}

/// Plays a move list (colours alternate from black) on a fresh square board.
fn board_from(size: usize, moves: &[Pos]) -> Board {
    let mut board = Board::square(size).unwrap();
    for &p in moves {
        board.make(p);
    }
    board
}

/// A BOARD / YXBOARD block for `moves` (played from black on), seen from `own`:
/// own stones field 1, the opponent's field 2, in the order played.
fn board_block(head: &str, moves: &[Pos], own: Color, line_end: &str) -> String {
    let mut text = format!("{head}{line_end}");
    let mut color = Color::Black;
    for p in moves {
        let field = if color == own { 1 } else { 2 };
        text += &format!("{},{},{field}{line_end}", p.x(), p.y());
        color = color.opponent();
    }
    text + "DONE" + line_end
}

/// The Yixin `FORBID xxyy....` reply as a set of points; panics on a malformed reply.
fn parse_forbid(line: &str) -> Option<BTreeSet<(usize, usize)>> {
    let body = line.strip_prefix("FORBID ")?.strip_suffix('.')?;
    if !body.len().is_multiple_of(4) || !body.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let points = body.as_bytes().chunks(4).map(|c| {
        let n = |s: &[u8]| std::str::from_utf8(s).unwrap().parse::<usize>().unwrap();
        (n(&c[..2]), n(&c[2..]))
    });
    Some(points.collect())
}

const RENJU_2: &str = "h8h9i7i9h10i6i11i12"; // black to move; g9 is a double-three foul

#[test]
fn session_through_pipes() {
    let Some(setup) = wine_setup("session_through_pipes") else {
        return;
    };
    let mut brain = Brain::start(&setup, "session");

    // ABOUT first (c-gomoku-cli reads it before anything else).
    let about = brain.ask("ABOUT");
    let fields = about_fields(&about);
    let field = |k: &str| {
        fields
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    if field("name").as_deref() != Some("Lianzhu")
        || field("version").as_deref() != Some(env!("CARGO_PKG_VERSION"))
        || field("author").is_none()
        || fields.len() != 3
    {
        brain.fail(&format!(
            "ABOUT must give exactly name=\"Lianzhu\", version=\"{}\" and author",
            env!("CARGO_PKG_VERSION")
        ));
    }

    // A move before START, an unknown command: the engine answers and stays usable.
    brain.expect_error("TURN 7,7");
    let unknown = brain.ask("FROBNICATE 1 2");
    if !unknown.starts_with("UNKNOWN") {
        brain.fail(&format!(
            "an unknown command got `{unknown}`, expected UNKNOWN"
        ));
    }

    // START 15, then every INFO key (never answered but with MESSAGE), then START 20: the
    // first non-MESSAGE line after the INFOs must be START's OK.
    brain.expect("START 15", "OK");
    for info in [
        format!("INFO timeout_turn {TURN_MS}"),
        "INFO timeout_match 100000".to_string(),
        "INFO time_left 100000".to_string(),
        format!("INFO max_memory {MAX_MEMORY}"),
        "INFO game_type 1".to_string(),
        "INFO rule 0".to_string(),
        "INFO evaluate 7,7".to_string(),
        "INFO folder C:\\Gomocup Client\\match\\folder\\0123abcd".to_string(),
        "INFO thread_num 1".to_string(),
        "INFO hash_size 65536".to_string(),
        "INFO rule 99".to_string(), // unsupported: at most a MESSAGE line
        "INFO no_such_key 5".to_string(),
    ] {
        brain.send(&info);
    }
    brain.expect("START 20", "OK");

    // BEGIN on 20x20, then TURNs; bad moves are refused and change nothing.
    let rule = Rule::Freestyle;
    let mut board = Board::square(20).unwrap();
    brain.send("BEGIN");
    let ours = brain.expect_move(&mut board, rule);
    brain.suspend(Duration::from_millis(500));
    brain.expect_error(&format!("TURN {},{}", ours.x(), ours.y())); // occupied
    brain.expect_error("TURN 20,3"); // off the 20x20 board
    brain.expect_error("TURN 3"); // malformed
    let theirs = board
        .empty_points()
        .find(|&p| board.has_neighbour(p, 1))
        .unwrap();
    board.make(theirs);
    brain.send(&format!("TURN {},{}", theirs.x(), theirs.y()));
    brain.expect_move(&mut board, rule);

    // BOARD on 15x15 in Yixin style: lower case, LF only, mixed case DONE.
    brain.expect("START 15", "OK");
    let moves = parse_moves("h8i9h9h10").unwrap();
    let mut board = board_from(15, &moves);
    let block = board_block("board", &moves, Color::Black, "\n").replace("DONE", "Done");
    brain.send_raw(&block);
    brain.expect_move(&mut board, rule);

    // YXSHOWFORBID: black's fouls in a renju position set by YXBOARD (no move in reply),
    // equal to the library's forbidden_points; `FORBID .` under another rule.
    brain.send("INFO rule 4");
    brain.expect("START 15", "OK");
    let moves = parse_moves(RENJU_2).unwrap();
    let board = board_from(15, &moves);
    brain.send_raw(&board_block("YXBOARD", &moves, Color::Black, "\r\n"));
    let want: BTreeSet<(usize, usize)> = forbidden_points(&board)
        .iter()
        .map(|(p, _)| (p.x(), p.y()))
        .collect();
    assert!(want.contains(&(6, 8)), "library: g9 must be forbidden here");
    let forbid = brain.ask("YXSHOWFORBID");
    match parse_forbid(&forbid) {
        Some(got) if got == want => {}
        _ => brain.fail(&format!(
            "YXSHOWFORBID: expected the points {want:?} as FORBID xxyy..."
        )),
    }
    brain.send("INFO rule 1");
    brain.expect("YXSHOWFORBID", "FORBID .");

    // The same renju position by BOARD, black (the engine) to move: never the foul g9.
    brain.send("INFO rule 4");
    brain.expect("START 15", "OK");
    let mut board = board_from(15, &moves);
    brain.send_raw(&board_block("BOARD", &moves, Color::Black, "\r\n"));
    brain.expect_move(&mut board, Rule::Renju);

    brain.finish(Some("END"));
}

#[test]
fn exits_on_end_of_input() {
    let Some(setup) = wine_setup("exits_on_end_of_input") else {
        return;
    };
    let mut brain = Brain::start(&setup, "eof");
    brain.expect("START 15", "OK");
    brain.finish(None);
}

/// The admission checks of the official Gomocup tester, each in a fresh engine as the tester
/// does it: START, INFO (turn time lowered to `TURN_MS`), BOARD with the engine's stones as 1.
#[test]
fn gomocup_admission_checks() {
    if !common::have_shared_data() {
        return;
    }
    let checks = rule_checks();
    assert_eq!(
        checks.len(),
        8,
        "gomocup-rule-checks.txt changed: update this test"
    );
    for check in &checks {
        let to_move = if check.moves.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(check.to_move, to_move, "{}: side to move", check.id);
    }
    let Some(setup) = wine_setup("gomocup_admission_checks") else {
        return;
    };
    let mut wrong = Vec::new();
    for check in &checks {
        let mut brain = Brain::start(&setup, &format!("check-{}", check.id));
        brain.expect(&format!("START {}", check.size), "OK");
        for info in [
            format!("INFO timeout_turn {TURN_MS}"),
            "INFO timeout_match 100000".to_string(),
            format!("INFO max_memory {MAX_MEMORY}"),
            "INFO game_type 1".to_string(),
            format!("INFO rule {}", check.rule),
            "INFO time_left 100000".to_string(),
        ] {
            brain.send(&info);
        }
        let mut board = board_from(check.size, &check.moves);
        let own = board.side_to_move();
        brain.send_raw(&board_block("BOARD", &check.moves, own, "\r\n"));
        let rule = Rule::from_gomocup(check.rule).unwrap();
        let answer = brain.expect_move(&mut board, rule);
        let ok = check.accepts(answer);
        let name = lianzhu::notation::format_pos(answer);
        if !ok {
            wrong.push(format!("{}: answered {name}", check.id));
        }
        brain.finish(Some("END"));
    }
    assert!(
        wrong.is_empty(),
        "admission checks failed (transcripts in target/wine-run/check-*): {wrong:?}"
    );
}
