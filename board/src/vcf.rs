//! VCFs for both sides, from Lianzhu's `solve` command.
//!
//! The Gomocup protocol (and its Yixin-Board extensions) has no command that asks for a VCF:
//! a search's mate score (`ev +M7`) says a win is forced, not that it is a VCF, and only for
//! the side to move. So when the engine is Lianzhu, the board runs the same program's
//! `solve --rule R --size N --json` on the position, once with black to move and once with
//! white to move (`B h8 i9 | W j10 | white`), and shows each side's line, or that none exists.
//! For other engines the page says that VCFs are not available.

use crate::game::{color_name, Game, Pt};
use lianzhu::types::Color;
use std::io::{self, Write};
use std::process::{Command, Stdio};

/// Node limit of each proof (the prover answers in milliseconds at this size).
pub const MAX_NODES: u64 = 200_000;

/// What the prover said for one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VcfAnswer {
    /// A VCF: the moves, the defender's too (`--` for a defender that cannot block).
    Win(Vec<String>),
    /// Proven: no VCF.
    None,
    /// The node limit stopped the proof.
    Unknown,
    /// The prover refused the position or failed.
    Error(String),
}

/// The position with `to_move` to move, in `solve`'s explicit form.
pub fn explicit_position(game: &Game, to_move: Color) -> String {
    let stones = |c: Color| {
        let words: Vec<String> = game
            .moves()
            .iter()
            .enumerate()
            .filter(|(i, _)| (i % 2 == 0) == (c == Color::Black))
            .map(|(_, p): (usize, &Pt)| p.to_string())
            .collect();
        if words.is_empty() {
            "-".to_string()
        } else {
            words.join(" ")
        }
    };
    format!(
        "B {} | W {} | {}",
        stones(Color::Black),
        stones(Color::White),
        color_name(to_move)
    )
}

/// Runs `solver` (the engine's program) on the position for black and for white.
pub fn solve_both(solver: &str, game: &Game) -> [VcfAnswer; 2] {
    match run(solver, game) {
        Ok(lines) => {
            let mut answers = lines.lines().map(parse_answer);
            let mut next = || {
                answers
                    .next()
                    .unwrap_or_else(|| VcfAnswer::Error("the prover gave no answer".into()))
            };
            [next(), next()]
        }
        Err(e) => {
            let why = format!("the prover did not run: {e}");
            [VcfAnswer::Error(why.clone()), VcfAnswer::Error(why)]
        }
    }
}

fn run(solver: &str, game: &Game) -> io::Result<String> {
    let mut child = Command::new(solver)
        .args(["solve", "--json", "--rule", game.rule().name()])
        .args(["--size", &game.size().to_string()])
        .args(["--max-nodes", &MAX_NODES.to_string()])
        // A line shown to a player: the shortest one.
        .arg("--shortest")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let input = format!(
        "{}\n{}\n",
        explicit_position(game, Color::Black),
        explicit_position(game, Color::White)
    );
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input.as_bytes())?;
    }
    let out = child.wait_with_output()?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Reads one of `solve --json`'s lines: `{"result":"win","line":["g6","h7"],...}`,
/// `{"result":"none",...}`, `{"result":"unknown",...}` or `{"error":"..."}`.
pub fn parse_answer(line: &str) -> VcfAnswer {
    let field = |key: &str| -> Option<&str> {
        let start = line.find(&format!("\"{key}\":"))? + key.len() + 3;
        Some(&line[start..])
    };
    let string_at = |rest: &str| -> Option<String> {
        let rest = rest.strip_prefix('"')?;
        Some(rest[..rest.find('"')?].to_string())
    };
    if let Some(why) = field("error").and_then(string_at) {
        return VcfAnswer::Error(why);
    }
    match field("result").and_then(string_at).as_deref() {
        Some("win") => {
            let list = field("line").and_then(|rest| {
                let rest = rest.strip_prefix('[')?;
                Some(&rest[..rest.find(']')?])
            });
            let moves = list
                .unwrap_or("")
                .split(',')
                .map(|w| w.trim().trim_matches('"').to_string())
                .filter(|w| !w.is_empty())
                .collect();
            VcfAnswer::Win(moves)
        }
        Some("none") => VcfAnswer::None,
        Some("unknown") => VcfAnswer::Unknown,
        _ => VcfAnswer::Error(format!("unreadable prover answer: {line}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lianzhu::types::Rule;

    #[test]
    fn positions_are_written_in_solves_form() {
        let g = Game::from_text(Rule::Renju, 15, "h8 i9 j10").unwrap();
        assert_eq!(
            explicit_position(&g, Color::Black),
            "B h8 j10 | W i9 | black"
        );
        let g = Game::new(Rule::Renju, 15).unwrap();
        assert_eq!(explicit_position(&g, Color::White), "B - | W - | white");
    }

    #[test]
    fn answers_are_read() {
        assert_eq!(
            parse_answer(r#"{"result":"win","line":["g6","h7","--"],"nodes":12,"ms":0}"#),
            VcfAnswer::Win(vec!["g6".into(), "h7".into(), "--".into()])
        );
        assert_eq!(
            parse_answer(r#"{"result":"none","nodes":3,"ms":0}"#),
            VcfAnswer::None
        );
        assert_eq!(
            parse_answer(r#"{"result":"unknown","nodes":3}"#),
            VcfAnswer::Unknown
        );
        assert_eq!(
            parse_answer(r#"{"error":"the position holds a five"}"#),
            VcfAnswer::Error("the position holds a five".into())
        );
        assert!(matches!(parse_answer("garbage"), VcfAnswer::Error(_)));
    }
}
