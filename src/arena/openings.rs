//! Opening suites in the common notation.
//!
//! One opening a line: the first whitespace-separated token is the move list (`h8i9h10`,
//! black first, see [`crate::notation`]); the rest of the line is a comment, and so are empty
//! lines and lines starting with `#`. A lone `-` is the empty opening. A games file written by
//! the runner starts each line with the game's moves, so it can be read back as openings.
//!
//! Invariant: every [`Opening`] returned by [`parse_openings`] fits the board, has no point
//! twice, contains no finished game (no five, no renju foul), and so can be played as given.

use crate::notation::parse_moves;
use crate::rules::{judge, Board, MoveOutcome};
use crate::types::{Pos, Rule};
use std::fmt;

/// One opening: the stones in playing order, black first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Moves in order, black first.
    pub moves: Vec<Pos>,
    /// The rest of the line (may be empty).
    pub comment: String,
    /// 1-based line number in its file (0 for the built-in empty opening).
    pub line: usize,
}

impl Opening {
    /// The empty board.
    pub fn empty() -> Opening {
        Opening {
            moves: Vec::new(),
            comment: String::new(),
            line: 0,
        }
    }
}

/// A line that is not a playable opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for OpeningError {}

/// Parses a whole openings file for a `size` x `size` board under `rule`.
pub fn parse_openings(text: &str, size: usize, rule: Rule) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (token, comment) = match trimmed.split_once(char::is_whitespace) {
            Some((t, c)) => (t, c.trim()),
            None => (trimmed, ""),
        };
        let moves = if token == "-" {
            Vec::new()
        } else {
            parse_moves(token).map_err(|e| OpeningError { line, message: e.0 })?
        };
        check_playable(&moves, size, rule).map_err(|message| OpeningError { line, message })?;
        out.push(Opening {
            moves,
            comment: comment.to_string(),
            line,
        });
    }
    Ok(out)
}

/// Checks that `moves` can be played from the empty board without the game ending.
pub fn check_playable(moves: &[Pos], size: usize, rule: Rule) -> Result<(), String> {
    let mut board = Board::square(size).map_err(|e| format!("{e:?}"))?;
    for &p in moves {
        let name = crate::notation::format_pos(p);
        if p.x() >= size || p.y() >= size {
            return Err(format!("{name} is off the {size}x{size} board"));
        }
        if !board.is_empty(p) {
            return Err(format!("{name} is played twice"));
        }
        let color = board.side_to_move();
        match judge(&board, p, color, rule) {
            MoveOutcome::Win => return Err(format!("{name} ends the game with a five")),
            MoveOutcome::Foul(f) => return Err(format!("{name} is a renju foul ({f:?})")),
            MoveOutcome::Continue => board.make(p),
        }
    }
    if board.is_full() {
        return Err("the opening fills the board".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_token_and_comments() {
        let text = "# header\n\nh8i9h10 Kansei (direct)\n  h8 \n-\n";
        let o = parse_openings(text, 15, Rule::Renju).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(
            o[0].moves,
            vec![Pos::new(7, 7), Pos::new(8, 8), Pos::new(7, 9)]
        );
        assert_eq!(o[0].comment, "Kansei (direct)");
        assert_eq!(o[0].line, 3);
        assert_eq!(o[1].moves, vec![Pos::new(7, 7)]);
        assert!(o[2].moves.is_empty());
    }

    #[test]
    fn bad_openings_name_their_line() {
        let e = parse_openings("h8\nh8h8\n", 15, Rule::Freestyle).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("twice"), "{e}");
        let e = parse_openings("t1\n", 15, Rule::Freestyle).unwrap_err();
        assert!(e.message.contains("off the 15x15"), "{e}");
        assert!(parse_openings("t1\n", 20, Rule::Freestyle).is_ok());
        let e = parse_openings("x\n", 15, Rule::Freestyle).unwrap_err();
        assert_eq!(e.line, 1);
        // Black five on row 1 with white answers elsewhere: the game is over.
        let five = "a1a3b1b3c1c3d1d3e1";
        let e = parse_openings(five, 15, Rule::Freestyle).unwrap_err();
        assert!(e.message.contains("five"), "{e}");
    }
}
