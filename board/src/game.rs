//! The game on the board: rule, size, the moves in order, and what they lead to.
//!
//! Points are the protocol's `x,y` (x the column from the left, y the row, both 0-based) and
//! are written as Lianzhu's notation writes them: a column letter and `y + 1`, so `7,7` is
//! `h8`. The page draws row `y + 1` counted from the bottom (columns A-O and rows 1-15 on
//! 15x15, `H8` the centre, as the rule texts draw them); every rule is symmetric under that
//! flip, so the engine's answers are the same.
//!
//! Fives and renju fouls are judged by Lianzhu's own rules code (as `lianzhu-match` referees),
//! so the board agrees with the engine about what ends a game.

use lianzhu::notation;
use lianzhu::rules::{self, Board, Foul, MoveOutcome};
use lianzhu::types::{Color, Pos, Rule, DIRECTIONS};
use std::fmt;

/// Board sides the page offers.
pub const SIZES: [usize; 2] = [15, 20];

/// A point of the board in protocol coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pt {
    /// Column, 0 = left (`a`).
    pub x: usize,
    /// Row, 0 = row 1 (drawn at the bottom).
    pub y: usize,
}

impl Pt {
    /// Reads one point written as `h8` (any case), checked against the board side.
    pub fn parse(text: &str, size: usize) -> Result<Pt, String> {
        let p = notation::parse_pos(text.trim()).map_err(|e| format!("'{text}': {e}"))?;
        Pt::on_board(p.x(), p.y(), size)
            .ok_or_else(|| format!("{} is off the {size}x{size} board", notation::format_pos(p)))
    }

    /// The point `x,y` if it lies on a `size` x `size` board.
    pub fn on_board(x: usize, y: usize, size: usize) -> Option<Pt> {
        (x < size && y < size).then_some(Pt { x, y })
    }

    fn pos(self) -> Pos {
        Pos::new(self.x, self.y)
    }
}

impl fmt::Display for Pt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&notation::format_pos(self.pos()))
    }
}

/// How the game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Play goes on.
    Ongoing,
    /// `winner` made the five (or longer line) `line`.
    Five { winner: Color, line: Vec<Pt> },
    /// Black played a forbidden point (only an engine can: the board refuses a click there).
    Foul { at: Pt, foul: Foul },
    /// The board is full.
    Draw,
}

/// A move the board refuses, with the reason shown on the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused(pub String);

/// The game: the rule, the board side and the moves from an empty board, black first.
#[derive(Clone, Debug)]
pub struct Game {
    rule: Rule,
    size: usize,
    board: Board,
    moves: Vec<Pt>,
    outcome: Outcome,
}

/// The name of a foul as a player says it.
pub fn foul_name(foul: Foul) -> &'static str {
    match foul {
        Foul::Overline => "overline",
        Foul::DoubleFour => "double four",
        Foul::DoubleThree => "double three",
    }
}

/// The colour's name in lower case.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

impl Game {
    /// An empty board; `size` must be one of [`SIZES`].
    pub fn new(rule: Rule, size: usize) -> Result<Game, Refused> {
        if !SIZES.contains(&size) {
            return Err(Refused(format!(
                "board size {size} is not offered (15 or 20)"
            )));
        }
        let board = Board::square(size).map_err(|e| Refused(e.to_string()))?;
        Ok(Game {
            rule,
            size,
            board,
            moves: Vec::new(),
            outcome: Outcome::Ongoing,
        })
    }

    /// The game after the moves of a pasted move list (`h8 i9 h10` or `h8i9h10`), each checked
    /// as a click is; the first refused move names its number.
    pub fn from_text(rule: Rule, size: usize, text: &str) -> Result<Game, Refused> {
        let mut game = Game::new(rule, size)?;
        if text.contains('|') {
            return Err(Refused(
                "paste a move list such as h8 i9 h10 (the moves in order, black first)".into(),
            ));
        }
        let points = notation::parse_moves(text).map_err(|e| Refused(e.to_string()))?;
        for (i, p) in points.into_iter().enumerate() {
            let n = i + 1;
            let pt = Pt::on_board(p.x(), p.y(), size).ok_or_else(|| {
                Refused(format!(
                    "move {n} ({}) is off the {size}x{size} board",
                    notation::format_pos(p)
                ))
            })?;
            game.play(pt)
                .map_err(|Refused(why)| Refused(format!("move {n}: {why}")))?;
        }
        Ok(game)
    }

    /// The rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The board side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The moves in order.
    pub fn moves(&self) -> &[Pt] {
        &self.moves
    }

    /// How the game stands.
    pub fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    /// True while moves can be played.
    pub fn is_ongoing(&self) -> bool {
        self.outcome == Outcome::Ongoing
    }

    /// The colour to move.
    pub fn to_move(&self) -> Color {
        if self.moves.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The colour of the stone at `pt`, if any.
    pub fn stone(&self, pt: Pt) -> Option<Color> {
        self.board
            .history()
            .iter()
            .find(|(p, _)| *p == pt.pos())
            .map(|&(_, c)| c)
    }

    /// Why black may not play at the empty point `pt`, under renju.
    pub fn foul_at(&self, pt: Pt) -> Option<Foul> {
        if self.rule.has_fouls(Color::Black) && self.board.is_empty(pt.pos()) {
            rules::forbidden(&self.board, pt.pos())
        } else {
            None
        }
    }

    /// Plays `pt` for the side to move. Refused: after the end, on a stone, or black on a
    /// renju forbidden point. A move by an engine that breaks the rules is played with
    /// [`Game::play_judged`] instead, so the foul ends the game.
    pub fn play(&mut self, pt: Pt) -> Result<(), Refused> {
        self.check(pt)?;
        if let Some(foul) = self.foul_at(pt) {
            if self.to_move() == Color::Black {
                return Err(Refused(format!(
                    "{pt} is forbidden for black ({})",
                    foul_name(foul)
                )));
            }
        }
        self.play_judged(pt)
    }

    /// Plays `pt` for the side to move and judges it: a five wins, a renju foul loses.
    pub fn play_judged(&mut self, pt: Pt) -> Result<(), Refused> {
        self.check(pt)?;
        let color = self.to_move();
        let outcome = rules::judge(&self.board, pt.pos(), color, self.rule);
        self.board.make(pt.pos());
        self.moves.push(pt);
        self.outcome = match outcome {
            MoveOutcome::Win => Outcome::Five {
                winner: color,
                line: self.five_through(pt, color),
            },
            MoveOutcome::Foul(foul) => Outcome::Foul { at: pt, foul },
            MoveOutcome::Continue if self.board.is_full() => Outcome::Draw,
            MoveOutcome::Continue => Outcome::Ongoing,
        };
        Ok(())
    }

    fn check(&self, pt: Pt) -> Result<(), Refused> {
        if !self.is_ongoing() {
            return Err(Refused(
                "the game is over: undo, or start a new game".into(),
            ));
        }
        if pt.x >= self.size || pt.y >= self.size {
            return Err(Refused(format!("{pt} is off the board")));
        }
        if self.stone(pt).is_some() {
            return Err(Refused(format!("{pt} is already taken")));
        }
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Pt> {
        let pt = self.moves.pop()?;
        self.board.undo().ok()?;
        self.outcome = Outcome::Ongoing;
        Some(pt)
    }

    /// The stones of the winning line through `pt` (which holds `color`), sorted.
    fn five_through(&self, pt: Pt, color: Color) -> Vec<Pt> {
        // The steps of lianzhu's DIRECTIONS: horizontal, vertical, diagonal, anti-diagonal.
        const STEPS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];
        let at = |x: isize, y: isize| -> Option<Pt> {
            let pt = Pt::on_board(
                usize::try_from(x).ok()?,
                usize::try_from(y).ok()?,
                self.size,
            )?;
            (self.stone(pt) == Some(color)).then_some(pt)
        };
        for (&dir, (dx, dy)) in DIRECTIONS.iter().zip(STEPS) {
            if !rules::wins_along(&self.board, pt.pos(), dir, color, self.rule) {
                continue;
            }
            let (x0, y0) = (pt.x as isize, pt.y as isize);
            let mut line = vec![pt];
            for sign in [1, -1] {
                let mut k = 1;
                while let Some(p) = at(x0 + sign * k * dx, y0 + sign * k * dy) {
                    line.push(p);
                    k += 1;
                }
            }
            line.sort_by_key(|p| (p.x, p.y));
            return line;
        }
        vec![pt]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(rule: Rule, text: &str) -> Game {
        Game::from_text(rule, 15, text).expect("a legal move list")
    }

    fn pt(text: &str) -> Pt {
        Pt::parse(text, 15).expect("a point")
    }

    #[test]
    fn notation_is_the_engines() {
        assert_eq!(pt("h8"), Pt { x: 7, y: 7 });
        assert_eq!(pt("A1"), Pt { x: 0, y: 0 });
        assert_eq!(pt("o15").to_string(), "o15");
        assert!(Pt::parse("p1", 15)
            .unwrap_err()
            .contains("off the 15x15 board"));
        assert_eq!(Pt::parse("p1", 20), Ok(Pt { x: 15, y: 0 }));
        assert!(Pt::parse("8h", 15).is_err());
    }

    #[test]
    fn a_five_ends_the_game_and_is_reported() {
        let g = game(Rule::Freestyle, "h8 h9 i8 i9 j8 j9 k8 k9 l8");
        match g.outcome() {
            Outcome::Five { winner, line } => {
                assert_eq!(*winner, Color::Black);
                let words: Vec<String> = line.iter().map(Pt::to_string).collect();
                assert_eq!(words, ["h8", "i8", "j8", "k8", "l8"]);
            }
            other => panic!("expected a five, got {other:?}"),
        }
        let mut g = g;
        assert!(g.play(pt("a1")).unwrap_err().0.contains("game is over"));
        assert_eq!(g.undo(), Some(pt("l8")));
        assert!(g.is_ongoing());
        assert_eq!(g.to_move(), Color::Black);
    }

    #[test]
    fn a_diagonal_five_going_down_is_found() {
        // Black a5 b4 c3 d2 e1: the anti-diagonal.
        let g = game(Rule::Freestyle, "a5 a15 b4 b15 c3 c15 d2 d15 e1");
        let Outcome::Five { line, .. } = g.outcome() else {
            panic!("expected a five, got {:?}", g.outcome());
        };
        assert_eq!(line.len(), 5);
        assert!(line.contains(&pt("a5")) && line.contains(&pt("e1")));
    }

    #[test]
    fn standard_overline_does_not_win() {
        // Black h8 i8 j8 k8 m8, then l8 makes six.
        let g = game(Rule::Standard, "h8 h9 i8 i9 j8 j9 k8 k10 m8 m10 l8");
        assert!(g.is_ongoing(), "{:?}", g.outcome());
    }

    #[test]
    fn renju_fouls_are_refused_for_black_only() {
        // Black g8 h7 h9 i8 (the protocol.md example): h8 is a double three.
        let mut g = game(Rule::Renju, "g8 a1 h7 a15 h9 o1 i8 o15");
        assert_eq!(g.foul_at(pt("h8")), Some(Foul::DoubleThree));
        let why = g.play(pt("h8")).unwrap_err().0;
        assert_eq!(why, "h8 is forbidden for black (double three)");
        g.play(pt("a2")).unwrap();
        g.play(pt("h8")).expect("white may play there");
        assert_eq!(
            game(Rule::Freestyle, "g8 a1 h7 a15 h9 o1 i8 o15").foul_at(pt("h8")),
            None
        );
    }

    #[test]
    fn an_engine_foul_loses() {
        let mut g = game(Rule::Renju, "g8 a1 h7 a15 h9 o1 i8 o15");
        g.play_judged(pt("h8")).unwrap();
        assert_eq!(
            g.outcome(),
            &Outcome::Foul {
                at: pt("h8"),
                foul: Foul::DoubleThree
            }
        );
    }

    #[test]
    fn pasted_lists_are_checked_move_by_move() {
        let err = |text: &str| Game::from_text(Rule::Renju, 15, text).unwrap_err().0;
        assert_eq!(err("h8 i9 h8"), "move 3: h8 is already taken");
        assert_eq!(err("h8 p1"), "move 2 (p1) is off the 15x15 board");
        assert!(
            err("h8 zz").contains("zz") || err("h8 zz").contains("z"),
            "{}",
            err("h8 zz")
        );
        assert!(err("B h8 | W - | black").contains("move list"));
        assert_eq!(
            err("g8 a1 h7 a15 h9 o1 i8 o15 h8"),
            "move 9: h8 is forbidden for black (double three)"
        );
        let g = game(Rule::Renju, "h8i9H10");
        let words: Vec<String> = g.moves().iter().map(Pt::to_string).collect();
        assert_eq!(words, ["h8", "i9", "h10"]);
        assert_eq!(g.to_move(), Color::White);
        assert!(Game::new(Rule::Renju, 19).is_err());
    }
}
