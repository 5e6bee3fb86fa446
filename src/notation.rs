//! The common text notation for points, move lists and positions.
//!
//! A point is a column letter (`a` = x 0) followed by a row number (`1` = y 0), so `h8` is the
//! protocol point `7,7`. This is GomocupJudge's mapping and the one Rapfi uses in its PV lines;
//! every rule is symmetric under a vertical flip, so reading the numbers as rows counted from
//! the bottom (as the data files in `../shared/data` draw them) gives the same answers.
//!
//! Two position forms are read:
//! - a move list such as `h8i9h10`: colours alternate from black; the side to move follows;
//! - an explicit position `B h8 i9 | W j10 k11 | black` (`-` for no stones).

use crate::types::{Color, Pos, MAX_SIZE};
use std::fmt;

/// A text that is not valid notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError(pub String);

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotationError {}

fn err<T>(msg: impl Into<String>) -> Result<T, NotationError> {
    Err(NotationError(msg.into()))
}

/// Formats a point as `h8`.
pub fn format_pos(p: Pos) -> String {
    let x = p.x();
    let letter = if x < 26 {
        (b'a' + x as u8) as char
    } else {
        '?'
    };
    format!("{letter}{}", p.y() + 1)
}

/// Formats a move list as `h8i9h10`.
pub fn format_moves(moves: &[Pos]) -> String {
    moves.iter().map(|&p| format_pos(p)).collect()
}

/// Formats a threat line (a VCF or VCT: attacker and defender moves) as `h8i9--h10`, `--`
/// standing for [`Pos::NONE`], a defender that cannot stop the five.
pub fn format_line(line: &[Pos]) -> String {
    line.iter().map(|&p| format_point(p)).collect()
}

/// Formats one point of a threat line: `h8`, or `--` for [`Pos::NONE`].
pub fn format_point(p: Pos) -> String {
    if p.is_none() {
        "--".to_string()
    } else {
        format_pos(p)
    }
}

/// Parses one point such as `h8` or `H8`.
pub fn parse_pos(text: &str) -> Result<Pos, NotationError> {
    let moves = parse_moves(text)?;
    match moves.as_slice() {
        [p] => Ok(*p),
        _ => err(format!("expected one point, got '{text}'")),
    }
}

/// Parses a concatenated move list such as `h8i9h10` (case-insensitive, no separators
/// needed; spaces and commas between points are allowed).
pub fn parse_moves(text: &str) -> Result<Vec<Pos>, NotationError> {
    let bytes = text.as_bytes();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i].to_ascii_lowercase();
        if c == b' ' || c == b',' || c == b'\t' {
            i += 1;
            continue;
        }
        if !c.is_ascii_lowercase() {
            return err(format!("expected a column letter at '{}'", &text[i..]));
        }
        let x = (c - b'a') as usize;
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if start == i {
            return err(format!("column '{}' has no row number", c as char));
        }
        let row: usize = text[start..i]
            .parse()
            .map_err(|_| NotationError(format!("bad row number in '{text}'")))?;
        if row == 0 || row > MAX_SIZE || x >= MAX_SIZE {
            return err(format!("point '{}' is out of range", &text[start - 1..i]));
        }
        moves.push(Pos::new(x, row - 1));
    }
    Ok(moves)
}

/// A position read from text: the stones in placing order and the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Stones in the order they are to be placed.
    pub stones: Vec<(Pos, Color)>,
    /// The side to move.
    pub to_move: Color,
}

/// Parses either position form (see the module docs).
pub fn parse_position(text: &str) -> Result<Position, NotationError> {
    let text = text.trim();
    if text.contains('|') {
        return parse_explicit(text);
    }
    let moves = parse_moves(text)?;
    let stones: Vec<(Pos, Color)> = moves
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            (
                p,
                if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
            )
        })
        .collect();
    let to_move = if moves.len() % 2 == 0 {
        Color::Black
    } else {
        Color::White
    };
    Ok(Position { stones, to_move })
}

fn parse_color(word: &str) -> Option<Color> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" | "x" => Some(Color::Black),
        "w" | "white" | "o" => Some(Color::White),
        _ => None,
    }
}

fn parse_explicit(text: &str) -> Result<Position, NotationError> {
    let parts: Vec<&str> = text.split('|').map(str::trim).collect();
    if parts.len() != 3 {
        return err("expected 'B <points> | W <points> | <side to move>'");
    }
    let mut stones = Vec::new();
    for (part, expected) in parts[..2].iter().zip([Color::Black, Color::White]) {
        let mut words = part.split_whitespace();
        let tag = words.next().unwrap_or("");
        if parse_color(tag) != Some(expected) {
            return err(format!(
                "expected '{}' group, got '{part}'",
                if expected == Color::Black { "B" } else { "W" }
            ));
        }
        for w in words {
            if w == "-" {
                continue;
            }
            stones.push((parse_pos(w)?, expected));
        }
    }
    let to_move = parse_color(parts[2]).ok_or_else(|| {
        NotationError(format!("side to move '{}' is not black or white", parts[2]))
    })?;
    Ok(Position { stones, to_move })
}

/// `s` as a JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_round_trip() {
        assert_eq!(parse_pos("h8").unwrap(), Pos::new(7, 7));
        assert_eq!(parse_pos("A1").unwrap(), Pos::new(0, 0));
        assert_eq!(format_pos(Pos::new(14, 14)), "o15");
        assert!(parse_pos("h").is_err());
        assert!(parse_pos("h0").is_err());
        assert!(parse_pos("8h").is_err());
        assert_eq!(parse_moves("h8i9h10").unwrap().len(), 3);
    }

    #[test]
    fn both_position_forms() {
        let p = parse_position("h8i9h10").unwrap();
        assert_eq!(p.to_move, Color::White);
        assert_eq!(p.stones[1], (Pos::new(8, 8), Color::White));
        let q = parse_position("B h8 h10 | W i9 | white").unwrap();
        assert_eq!(q.stones.len(), 3);
        assert_eq!(q.to_move, Color::White);
        let e = parse_position("B - | W - | black").unwrap();
        assert!(e.stones.is_empty());
        assert!(parse_position("B h8 | W i9").is_err());
        assert!(parse_position("B h8 | W i9 | red").is_err());
    }
}
