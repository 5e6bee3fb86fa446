//! The forced-wins file (`../shared/data/forced-wins.txt`): positions where the side to move
//! has a forced win (`win`) or can still avoid letting one in (`save`), with Rapfi's verdict.
//!
//! One position a line, tab-separated (any run of blanks is accepted): kind (`win`/`save`),
//! rule (`freestyle`, `standard`, `renju`), the moves in the common notation (`h8i9...`, black
//! first), the side to move (`black`/`white`), Rapfi's eval (`+M17` = mate in 17 plies for the
//! side to move, `-M17` = mated, else a score such as `-349`) and a move (`c10`: Rapfi's
//! winning move for `win`, the move that let the win in for `save`). Lines starting with `#`
//! and blank lines are skipped. Boards are 15x15.
//!
//! Invariant: every parsed line is a playable position (on the board, no point twice, no five,
//! no renju foul), its side to move agrees with the number of stones, and its move is an
//! empty point.

use super::openings::check_playable;
use crate::notation::{format_pos, parse_moves, parse_pos};
use crate::types::{Color, Pos, Rule};
use std::collections::BTreeSet;
use std::fmt;

/// The board side of every position in the file.
pub const FORCED_SIZE: usize = 15;

/// An engine's evaluation as Rapfi prints it, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// A score (`-227`, `390`).
    Score(i32),
    /// A mate in this many plies: positive = the side to move wins (`+M17`), negative = it
    /// is mated (`-M16`).
    Mate(i32),
}

impl Eval {
    /// Reads `+M17`, `-M16`, `M5` (a win), `-227`, `+12` or `390`.
    pub fn parse(text: &str) -> Option<Eval> {
        let t = text.trim();
        let (sign, rest) = match t.as_bytes().first()? {
            b'+' => (1, &t[1..]),
            b'-' => (-1, &t[1..]),
            _ => (1, t),
        };
        if let Some(plies) = rest.strip_prefix(['M', 'm']) {
            let n: i32 = plies.parse().ok()?;
            return (n >= 0).then_some(Eval::Mate(sign * n));
        }
        if !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(Eval::Score(sign * rest.parse::<i32>().ok()?))
    }

    /// True for a forced win of the side to move (`+M`).
    pub fn is_win(self) -> bool {
        matches!(self, Eval::Mate(n) if n > 0)
    }

    /// True for a forced loss of the side to move (`-M`).
    pub fn is_loss(self) -> bool {
        matches!(self, Eval::Mate(n) if n < 0)
    }
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Eval::Score(s) => write!(f, "{s}"),
            Eval::Mate(n) if n < 0 => write!(f, "-M{}", -n),
            Eval::Mate(n) => write!(f, "+M{n}"),
        }
    }
}

/// What a position asks of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// It has a forced win: find a move that keeps it.
    Win,
    /// It is not lost: find a move after which the opponent has no forced win.
    Save,
}

impl Kind {
    /// `win` or `save`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Win => "win",
            Kind::Save => "save",
        }
    }
}

/// One position of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcedLine {
    /// 1-based line number in the file.
    pub line: usize,
    /// Win or save.
    pub kind: Kind,
    /// The rule.
    pub rule: Rule,
    /// The stones in move order, black first.
    pub moves: Vec<Pos>,
    /// The side to move (follows from the number of stones).
    pub to_move: Color,
    /// Rapfi's eval of the position when the file was made.
    pub eval: Eval,
    /// Rapfi's winning move (`win`) or the move that let the win in (`save`).
    pub best: Pos,
}

/// Reads a forced-wins file; an error names the line and what is wrong with it.
pub fn parse_forced_wins(text: &str) -> Result<Vec<ForcedLine>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let row = raw.trim();
        if row.is_empty() || row.starts_with('#') {
            continue;
        }
        let line = parse_line(row, i + 1).map_err(|e| format!("line {}: {e}", i + 1))?;
        out.push(line);
    }
    Ok(out)
}

/// The file lines of the positions that failed in an earlier run's records (`--out`: one
/// tab-separated record a position, its file line first and `ok` or `fail` last), so that a
/// run can score those alone; an error names the record that is not of that form.
pub fn failed_lines(records: &str) -> Result<BTreeSet<usize>, String> {
    let mut out = BTreeSet::new();
    for (i, row) in records.lines().enumerate() {
        if row.trim().is_empty() {
            continue;
        }
        // A split always has a first and a last field (the row itself when it has no tab).
        let first = row.split('\t').next().unwrap_or_default();
        let last = row.rsplit('\t').next().unwrap_or_default();
        let line: usize = first
            .trim()
            .parse()
            .map_err(|_| format!("record {}: no line number in {row:?}", i + 1))?;
        match last.trim() {
            "fail" => {
                out.insert(line);
            }
            "ok" => {}
            other => {
                return Err(format!(
                    "record {}: ends in {other:?}, not ok or fail",
                    i + 1
                ))
            }
        }
    }
    Ok(out)
}

fn parse_line(row: &str, line: usize) -> Result<ForcedLine, String> {
    let fields: Vec<&str> = row.split_whitespace().collect();
    let [kind, rule, moves, side, eval, best] = fields[..] else {
        return Err(format!("{} fields, want 6: {row:?}", fields.len()));
    };
    let kind = match kind {
        "win" => Kind::Win,
        "save" => Kind::Save,
        other => return Err(format!("kind {other:?} is neither win nor save")),
    };
    let rule = Rule::from_name(rule).ok_or_else(|| format!("unknown rule {rule:?}"))?;
    let moves = parse_moves(moves).map_err(|e| e.to_string())?;
    check_playable(&moves, FORCED_SIZE, rule)?;
    let to_move = match side {
        "black" => Color::Black,
        "white" => Color::White,
        other => return Err(format!("side {other:?} is neither black nor white")),
    };
    let expected = if moves.len() % 2 == 0 {
        Color::Black
    } else {
        Color::White
    };
    if to_move != expected {
        return Err(format!(
            "{side} to move after {} stones (want {})",
            moves.len(),
            if expected == Color::Black {
                "black"
            } else {
                "white"
            }
        ));
    }
    let eval = Eval::parse(eval).ok_or_else(|| format!("bad eval {eval:?}"))?;
    let best = parse_pos(best).map_err(|e| e.to_string())?;
    let name = format_pos(best);
    if best.x() >= FORCED_SIZE || best.y() >= FORCED_SIZE {
        return Err(format!("move {name} is off the board"));
    }
    if moves.contains(&best) {
        return Err(format!("move {name} is occupied"));
    }
    Ok(ForcedLine {
        line,
        kind,
        rule,
        moves,
        to_move,
        eval,
        best,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evals_in_every_form() {
        assert_eq!(Eval::parse("+M17"), Some(Eval::Mate(17)));
        assert_eq!(Eval::parse("-M16"), Some(Eval::Mate(-16)));
        assert_eq!(Eval::parse("M5"), Some(Eval::Mate(5)));
        assert_eq!(Eval::parse("-227"), Some(Eval::Score(-227)));
        assert_eq!(Eval::parse("390"), Some(Eval::Score(390)));
        assert_eq!(Eval::parse("+12"), Some(Eval::Score(12)));
        assert_eq!(Eval::parse("0"), Some(Eval::Score(0)));
        for bad in ["", "+", "-M", "M-3", "12ms", "--3", "Mx", "1 2"] {
            assert_eq!(Eval::parse(bad), None, "{bad:?}");
        }
        assert!(Eval::Mate(3).is_win() && !Eval::Mate(3).is_loss());
        assert!(Eval::Mate(-3).is_loss() && !Eval::Mate(-3).is_win());
        assert!(!Eval::Score(20000).is_win() && !Eval::Score(-20000).is_loss());
        for text in ["+M17", "-M16", "-227", "390"] {
            assert_eq!(Eval::parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn reads_lines_and_skips_comments() {
        let text = "# header\n\nwin\tfreestyle\tb14b10g9e10e15\twhite\t+M17\tc10\n\
                    save\trenju\th8i9\tblack\t-6\tj10\n";
        let lines = parse_forced_wins(text).unwrap();
        assert_eq!(lines.len(), 2);
        let w = &lines[0];
        assert_eq!((w.line, w.kind, w.rule), (3, Kind::Win, Rule::Freestyle));
        assert_eq!(w.moves.len(), 5);
        assert_eq!(w.moves[0], Pos::new(1, 13));
        assert_eq!((w.to_move, w.eval), (Color::White, Eval::Mate(17)));
        assert_eq!(w.best, Pos::new(2, 9));
        let s = &lines[1];
        assert_eq!((s.line, s.kind, s.rule), (4, Kind::Save, Rule::Renju));
        assert_eq!((s.to_move, s.eval), (Color::Black, Eval::Score(-6)));
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        let cases = [
            ("win\tfreestyle\th8i9\tblack\t+M3", "5 fields"),
            ("draw\tfreestyle\th8i9\tblack\t+M3\tj10", "kind"),
            ("win\tgo\th8i9\tblack\t+M3\tj10", "rule"),
            ("win\tfreestyle\th8h8\tblack\t+M3\tj10", "twice"),
            ("win\tfreestyle\th8i9\twhite\t+M3\tj10", "white to move"),
            ("win\tfreestyle\th8i9\tblack\tbig\tj10", "eval"),
            ("win\tfreestyle\th8i9\tblack\t+M3\ti9", "occupied"),
            ("win\tfreestyle\th8i9\tblack\t+M3\tp1", "off the board"),
        ];
        for (row, what) in cases {
            let e = parse_forced_wins(&format!("# c\n{row}\n")).unwrap_err();
            assert!(e.starts_with("line 2: "), "{e}");
            assert!(e.contains(what), "{row}: {e}");
        }
    }

    #[test]
    fn failed_records_give_their_lines() {
        let records = "10\twin\tfreestyle\tb14b10\twhite\td10\t940\t-M16\tok\n\
                       12\tsave\trenju\th8i9\tblack\tj10\t939\t+M17\tfail\n\n\
                       20\tsave\tfreestyle\th8i9\tblack\t\t0\tlate\tfail\n";
        let lines = failed_lines(records).unwrap();
        assert_eq!(lines.into_iter().collect::<Vec<_>>(), vec![12, 20]);
        let e = failed_lines("x\twin\tfail\n").unwrap_err();
        assert!(e.contains("record 1: no line number"), "{e}");
        let e = failed_lines("3\twin\tfreestyle\n").unwrap_err();
        assert!(e.contains("record 1: ends in \"freestyle\""), "{e}");
    }

    #[test]
    fn the_shared_file_parses() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/data/forced-wins.txt"
        );
        let Ok(text) = std::fs::read_to_string(path) else {
            return; // the shared data is not in every checkout
        };
        let lines = parse_forced_wins(&text).unwrap();
        assert!(lines.len() > 50, "{}", lines.len());
        for l in &lines {
            match l.kind {
                Kind::Win => assert!(l.eval.is_win(), "line {}", l.line),
                Kind::Save => assert!(!l.eval.is_loss(), "line {}", l.line),
            }
        }
    }
}
