//! A built-in sparring brain: `lianzhu-match --sparring` speaks the Gomocup protocol on
//! stdin/stdout and plays [`crate::engine::Engine`]'s current move chooser at once.
//!
//! It exists so the runner can be checked end to end (full games under every rule, openings,
//! keep-alive) without any other engine, and as a weak, fast opponent for smoke runs. It is
//! not the real brain (`pbrain-lianzhu`): it answers only what a match needs (START, RESTART,
//! INFO rule, BEGIN, TURN, BOARD, ABOUT, END) and writes to the writer it is given.
//!
//! Invariant: exactly one reply line per command that needs one, none for INFO and END.

use crate::engine::Engine;
use crate::types::{Color, Pos, Rule};
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;

fn reply(out: &mut dyn Write, line: &str) -> io::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()
}

/// Chooses, plays and formats a move, or an `ERROR` line.
fn move_line(engine: &mut Engine) -> String {
    let stop = AtomicBool::new(false);
    match engine.think(&stop, &mut |_| {}) {
        Ok(p) => match engine.play(p) {
            Ok(()) => format!("{},{}", p.x(), p.y()),
            Err(e) => format!("ERROR {e}"),
        },
        Err(e) => format!("ERROR {e}"),
    }
}

fn parse_xy(text: &str) -> Option<(i64, i64)> {
    let (a, b) = text.trim().split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// Serves one manager until `END` or end of input.
pub fn serve(input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<()> {
    let mut engine = Engine::new();
    // Move "as fast as possible" (timeout_turn 0: a few ms of search): a fast sparring partner.
    engine.options.timeout_turn_ms = 0;
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let cmd = line.trim();
        let upper = cmd.to_ascii_uppercase();
        let (word, rest) = upper.split_once(' ').unwrap_or((&upper, ""));
        match word {
            "START" => match rest.trim().parse::<usize>() {
                Ok(n) => match engine.start(n, n) {
                    Ok(()) => reply(out, "OK")?,
                    Err(e) => reply(out, &format!("ERROR {e}"))?,
                },
                Err(_) => reply(out, "ERROR bad START parameter")?,
            },
            "RESTART" => match engine.restart() {
                Ok(()) => reply(out, "OK")?,
                Err(e) => reply(out, &format!("ERROR {e}"))?,
            },
            "INFO" => {
                if let Some(v) = rest.strip_prefix("RULE ") {
                    if let Some(rule) = v.trim().parse().ok().and_then(Rule::from_gomocup) {
                        engine.options.rule = rule;
                    }
                }
            }
            "BEGIN" => reply(out, &move_line(&mut engine))?,
            "TURN" => {
                let played = parse_xy(rest)
                    .ok_or_else(|| "bad coordinates".to_string())
                    .and_then(|(x, y)| engine.pos(x, y).map_err(|e| e.to_string()))
                    .and_then(|p| engine.play(p).map_err(|e| e.to_string()));
                match played {
                    Ok(()) => reply(out, &move_line(&mut engine))?,
                    Err(e) => reply(out, &format!("ERROR {e}"))?,
                }
            }
            "BOARD" => {
                let mut stones: Vec<(Pos, u8)> = Vec::new();
                let mut bad = None;
                loop {
                    line.clear();
                    if input.read_line(&mut line)? == 0 {
                        return Ok(());
                    }
                    let row = line.trim();
                    if row.eq_ignore_ascii_case("DONE") {
                        break;
                    }
                    let fields: Vec<i64> = row
                        .split(',')
                        .filter_map(|t| t.trim().parse().ok())
                        .collect();
                    match fields[..] {
                        [x, y, f] => match engine.pos(x, y) {
                            Ok(p) => stones.push((p, f as u8)),
                            Err(e) => bad = Some(e.to_string()),
                        },
                        _ => bad = Some(format!("bad BOARD line '{row}'")),
                    }
                }
                // Field 1 marks the side to move; stones alternate from black.
                let me = if stones.len().is_multiple_of(2) {
                    Color::Black
                } else {
                    Color::White
                };
                let placed: Vec<(Pos, Color)> = stones
                    .iter()
                    .map(|&(p, f)| (p, if f == 1 { me } else { me.opponent() }))
                    .collect();
                let result = match bad {
                    Some(e) => Err(e),
                    None => engine.set_position(&placed, me).map_err(|e| e.to_string()),
                };
                match result {
                    Ok(()) => reply(out, &move_line(&mut engine))?,
                    Err(e) => reply(out, &format!("ERROR {e}"))?,
                }
            }
            "ABOUT" => reply(out, "name=\"lianzhu-sparring\", version=\"0.1\"")?,
            "END" => return Ok(()),
            "" => {}
            _ => reply(out, &format!("UNKNOWN {cmd}"))?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &str) -> Vec<String> {
        let mut out = Vec::new();
        serve(&mut input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn answers_a_match_session() {
        let lines = session("START 15\nINFO rule 1\nBEGIN\nTURN 0,0\nEND\nTURN 1,1\n");
        assert_eq!(lines[0], "OK");
        assert_eq!(lines.len(), 3, "{lines:?}");
        let first = parse_xy(&lines[1]).unwrap();
        let second = parse_xy(&lines[2]).unwrap();
        assert_ne!(first, second);
        assert_ne!(second, (0, 0));
    }

    #[test]
    fn board_completes_a_five() {
        // Own stones (1) on row 3 from x=0..3: the move must be 4,3.
        let input =
            "START 15\nBOARD\n0,3,1\n0,9,2\n1,3,1\n1,9,2\n2,3,1\n2,9,2\n3,3,1\n9,9,2\nDONE\n";
        assert_eq!(session(input), ["OK", "4,3"]);
        let lines = session("START 15\nTURN 99,1\nSTART 2\nFOO\n");
        assert_eq!(lines[0], "OK");
        assert!(lines[1].starts_with("ERROR"));
        assert!(lines[2].starts_with("ERROR"));
        assert!(lines[3].starts_with("UNKNOWN"));
    }
}
