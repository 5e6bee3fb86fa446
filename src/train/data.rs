//! The training-data file: one game a line, with its result and, per searched move, the
//! search's score of the position before it.
//!
//! Format, version 1 (text, LF): a first line `# lianzhu-games v1`, then comment lines
//! starting with `#` (ignored) and one line per game:
//!
//! ```text
//! <rule> <size> <result> <move> <move> ...
//! freestyle 15 B h8 i9 j10 i10=-35 i8=+12 ... h12=+M
//! ```
//!
//! `<rule>` is a rule name (`freestyle`, `standard`, `renju`, `caro`, `caroexact`), `<size>`
//! the board's side, `<result>` `B` (black won), `W` (white won) or `D` (draw or unfinished).
//! A move is a point (`h8`, columns from `a`, rows from 1 at the bottom) for a stone that was
//! placed without a search (an opening or random move), or `point=score` for a move the
//! search chose, `score` being the search's score of the position before the move from the
//! mover's view: a signed integer in evaluation units, or `+M` / `-M` for a proven win or
//! loss. The moves replay from an empty board, black first.
//!
//! Invariants: [`write_game`] then [`parse_game`] gives the same game; the moves of a parsed
//! game are points on its board (legality is the replayer's business).

use crate::notation::{format_pos, parse_pos};
use crate::types::{Color, Pos, Rule};
use std::fmt::Write as _;

/// The first line of a version-1 file.
pub const HEADER: &str = "# lianzhu-games v1";

/// A search score as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// A score in evaluation units.
    Eval(i32),
    /// A proven win (`true`) or loss for the mover.
    Mate(bool),
}

/// One move of a game: the point and, for a searched move, its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameMove {
    /// The point played.
    pub pos: Pos,
    /// The search's score of the position before the move (mover's view), or `None` for a
    /// stone placed without a search.
    pub score: Option<Score>,
}

/// One game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Its rule.
    pub rule: Rule,
    /// Its board's side.
    pub size: usize,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// The moves, black first.
    pub moves: Vec<GameMove>,
}

/// The line of `game` (without the LF).
pub fn write_game(game: &Game) -> String {
    let result = match game.winner {
        Some(Color::Black) => "B",
        Some(Color::White) => "W",
        None => "D",
    };
    let mut line = format!("{} {} {result}", game.rule.name(), game.size);
    for m in &game.moves {
        line.push(' ');
        line.push_str(&format_pos(m.pos));
        match m.score {
            None => {}
            Some(Score::Eval(v)) => {
                let _ = write!(line, "={v:+}");
            }
            Some(Score::Mate(win)) => line.push_str(if win { "=+M" } else { "=-M" }),
        }
    }
    line
}

/// The game of one line; `Ok(None)` for a comment or blank line; `Err` says what is wrong.
pub fn parse_game(line: &str) -> Result<Option<Game>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut fields = line.split_ascii_whitespace();
    let rule_text = fields.next().unwrap_or_default();
    let rule = Rule::from_name(rule_text).ok_or_else(|| format!("unknown rule '{rule_text}'"))?;
    let size_text = fields.next().ok_or("missing board size")?;
    let size: usize = size_text
        .parse()
        .ok()
        .filter(|s| (5..=32).contains(s))
        .ok_or_else(|| format!("bad board size '{size_text}'"))?;
    let winner = match fields.next() {
        Some("B") => Some(Color::Black),
        Some("W") => Some(Color::White),
        Some("D") => None,
        other => return Err(format!("bad result '{}'", other.unwrap_or_default())),
    };
    let mut moves = Vec::new();
    for field in fields {
        let (point, score) = match field.split_once('=') {
            None => (field, None),
            Some((p, "+M")) => (p, Some(Score::Mate(true))),
            Some((p, "-M")) => (p, Some(Score::Mate(false))),
            Some((p, v)) => {
                let v: i32 = v.parse().map_err(|_| format!("bad score in '{field}'"))?;
                (p, Some(Score::Eval(v)))
            }
        };
        let pos = parse_pos(point).map_err(|e| format!("bad move '{field}': {e}"))?;
        if pos.x() >= size || pos.y() >= size {
            return Err(format!("move '{field}' is off the {size}x{size} board"));
        }
        moves.push(GameMove { pos, score });
    }
    Ok(Some(Game {
        rule,
        size,
        winner,
        moves,
    }))
}

/// Every game of a file's text, with the line number of the first malformed line as `Err`.
pub fn parse_games(text: &str) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 && line.trim() != HEADER {
            return Err(format!("line 1: expected '{HEADER}'"));
        }
        if let Some(g) = parse_game(line).map_err(|e| format!("line {}: {e}", i + 1))? {
            games.push(g);
        }
    }
    Ok(games)
}

/// The game of one `lianzhu-match --games-out` record (`<moves> <result> <reason> ...`), for
/// `rule` on a `size` board, every move unscored; `Ok(None)` for a game that did not end by
/// play (a forfeit, a foul or a move limit), a comment or a blank line.
pub fn parse_match_record(line: &str, rule: Rule, size: usize) -> Result<Option<Game>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut fields = line.split_ascii_whitespace();
    let moves_text = fields.next().unwrap_or_default();
    let winner = match fields.next() {
        Some("1-0") => Some(Color::Black),
        Some("0-1") => Some(Color::White),
        Some("1/2-1/2") => None,
        other => return Err(format!("bad result '{}'", other.unwrap_or_default())),
    };
    if !matches!(fields.next(), Some("five" | "board-full")) {
        return Ok(None);
    }
    let moves = if moves_text == "-" {
        Vec::new()
    } else {
        crate::notation::parse_moves(moves_text).map_err(|e| format!("bad moves: {e}"))?
    };
    if moves.iter().any(|p| p.x() >= size || p.y() >= size) {
        return Err(format!("a move is off the {size}x{size} board"));
    }
    Ok(Some(Game {
        rule,
        size,
        winner,
        moves: moves
            .into_iter()
            .map(|pos| GameMove { pos, score: None })
            .collect(),
    }))
}
