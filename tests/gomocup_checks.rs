//! The Gomocup admission checks (`../shared/data/gomocup-rule-checks.txt`), each sent as a
//! `BOARD` to the real `pbrain-lianzhu` binary over pipes, as the Gomocup tester does: the
//! reply must be one of the accepted moves.

use lianzhu::notation::{format_pos, parse_moves};
use lianzhu::types::{Color, Pos};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// The running binary, with its output lines arriving on a channel.
struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Brain {
    fn start() -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-lianzhu"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start pbrain-lianzhu");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Brain {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to the brain");
    }

    /// The next reply line that is not a MESSAGE, or a panic after 30 s (the tester's limit).
    fn reply(&self) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .expect("no reply within 30 s");
            if !line.starts_with("MESSAGE ") {
                return line;
            }
        }
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Check {
    id: String,
    rule: String,
    size: usize,
    moves: Vec<Pos>,
    to_move: Color,
    accepted: Vec<Pos>,
    except: bool,
}

fn checks() -> Vec<Check> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/gomocup-rule-checks.txt"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert!(f.len() >= 6, "bad line {l}");
            let rule = f[1].split_whitespace().next().unwrap().to_string();
            let (except, accepted) = match f[5].strip_prefix("anything except") {
                Some(rest) => (true, rest),
                None => (false, f[5]),
            };
            Check {
                id: f[0].to_string(),
                rule,
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

#[test]
fn every_gomocup_rule_check_passes_through_the_binary() {
    let all = checks();
    assert!(
        all.len() >= 8,
        "expected at least 8 checks, got {}",
        all.len()
    );
    let mut brain = Brain::start();
    let mut failures = Vec::new();
    for c in &all {
        brain.send(&format!("START {}", c.size));
        assert_eq!(brain.reply(), "OK", "{}", c.id);
        // The admission tester sends 30 s; 2 s keeps the suite short and the answers must not depend on it.
        brain.send("INFO timeout_turn 2000");
        brain.send(&format!("INFO rule {}", c.rule));
        brain.send("BOARD");
        for (i, p) in c.moves.iter().enumerate() {
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let field = if color == c.to_move { 1 } else { 2 };
            brain.send(&format!("{},{},{field}", p.x(), p.y()));
        }
        brain.send("DONE");
        let reply = brain.reply();
        let (x, y) = reply
            .split_once(',')
            .unwrap_or_else(|| panic!("{}: not a move: {reply}", c.id));
        let p = Pos::new(x.parse().unwrap(), y.parse().unwrap());
        assert!(!c.moves.contains(&p), "{}: {reply} is occupied", c.id);
        let listed = c.accepted.contains(&p);
        if listed == c.except {
            failures.push(format!(
                "{}: answered {} ({reply}), accepted {}{:?}",
                c.id,
                format_pos(p),
                if c.except { "anything except " } else { "" },
                c.accepted
                    .iter()
                    .map(|&q| format_pos(q))
                    .collect::<Vec<_>>()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "failed checks:\n{}",
        failures.join("\n")
    );
}
