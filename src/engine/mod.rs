//! The engine: everything that decides a move, above the search and below the protocol. The
//! protocol talks only to this folder; the search never sees protocol text.
//!
//! - This file, the facade [`Engine`]: owns the game (board and rule), the options set by the
//!   manager ([`Options`], `options.rs`), and has one front door, [`Engine::run`]: every
//!   kind of request ([`Request`]: a move, the n best moves, the defences, pondering, a Swap2
//!   or renju opening decision) goes through it, with one answer type ([`Answer`]), one
//!   progress event type ([`ThinkEvent`], `report.rs`) and one error type ([`EngineError`]).
//!   The searches run on [`crate::search::Searcher`], whose transposition table lives here
//!   across the moves of a game, sized from `hash_size` and `max_memory`. [`simple_move`]
//!   (`simple_move.rs`), the simple mover of the rules/protocol milestone, stays as the
//!   fallback that keeps the answer's first move legal.
//! - [`swap2`]: the Swap2 decisions ([`Request::Swap2`]).
//! - [`opening`]: the decisions in renju's opening protocols ([`Request::Opening`]).
//!
//! The decisions are pure APIs on a [`Searcher`]: no protocol text in, none out.

pub mod opening;
mod options;
mod report;
mod simple_move;
pub mod swap2;

pub use options::{thread_limit, Options, MAX_THREADS};
pub use report::{Line, ThinkEvent, ThinkReport};
pub use simple_move::simple_move;
// The root events are part of what an analysis reports (`ThinkEvent::Root`); the protocol
// reads them from here, not from the search.
pub use crate::search::{RootEvent, RootReport};

use crate::eval::EvalSet;
use crate::rules::{self, tables, Board, BoardError};
use crate::search::{self, time::TimeControl, Limits, Progress, Searcher};
use crate::types::{Color, Pos, Rule};
use opening::{Decision, OpeningGame, Step};
use report::to_line;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use swap2::{Swap2Answer, Swap2Error};

pub use crate::rules::opening::game::OpeningError;

/// Why a game command could not be carried out. The game state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// No game has been started.
    NoGame,
    /// The board rejected the request.
    Board(BoardError),
    /// The game is already over, or the board is full, so there is no move to make.
    NoMove,
    /// TAKEBACK named a point that is not the last stone played.
    NotLastMove,
    /// A Swap2 decision could not be made for these stones.
    Swap2(Swap2Error),
    /// The renju opening decision broke the opening's rules (e.g. asked out of order).
    Opening(OpeningError),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::NoGame => f.write_str("no game started: send START first"),
            EngineError::Board(e) => e.fmt(f),
            EngineError::NoMove => f.write_str("no move possible: the board is full"),
            EngineError::NotLastMove => f.write_str("that point is not the last stone played"),
            EngineError::Swap2(e) => e.fmt(f),
            EngineError::Opening(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<BoardError> for EngineError {
    fn from(e: BoardError) -> Self {
        EngineError::Board(e)
    }
}

/// What the engine is asked to do ([`Engine::run`]), on the current game.
#[derive(Clone, Copy, Debug)]
pub enum Request<'a> {
    /// The move to play: one line (`BEGIN`, `TURN`, `BOARD`).
    Move,
    /// The `n` best moves, best first (`YXNBEST`, `analyze --multipv`).
    Best(usize),
    /// One line per answer the search would consider (`YXSEARCHDEFEND`).
    Defend,
    /// Think on the opponent's time until stopped; answers nothing.
    Ponder,
    /// The Swap2 decision for these stones (0, 3 or 5, black first) on the current board
    /// size, rule and clock ([`swap2::answer`]).
    Swap2(&'a [Pos]),
    /// The decision in a renju opening protocol at a step ([`opening::decide_step`]).
    Opening(&'a OpeningGame, Step),
}

/// What [`Engine::run`] gives back, by request.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// For `Move`, `Best` and `Defend`: the lines, best first, at least one; the first
    /// line's move is legal for the side to move.
    Lines(Vec<Line>),
    /// For `Ponder`.
    Pondered,
    /// For `Swap2`.
    Swap2(Swap2Answer),
    /// For `Opening`.
    Opening(Decision),
}

impl Answer {
    /// The lines of a search request (empty for the other answers).
    pub fn lines(&self) -> &[Line] {
        match self {
            Answer::Lines(l) => l,
            _ => &[],
        }
    }

    /// The move to play: the first line's move, if this answer has lines.
    pub fn best(&self) -> Option<Pos> {
        self.lines().first().map(|l| l.mv)
    }
}

/// The engine: one game, its options and the move chooser.
pub struct Engine {
    board: Option<Board>,
    /// Manager settings; public so the protocol can set them field by field.
    pub options: Options,
    /// The search and its transposition table, created on first use.
    searcher: Option<Searcher>,
    /// Root moves kept out of every search (Yixin-Board's `YXBLOCK`), in the order added.
    blocked: Vec<Pos>,
    /// The evaluation tables the searcher gets.
    eval: EvalSet,
    /// What the request being answered spent before its search (creating or resizing the
    /// transposition table); [`Engine::limits`] takes it off the turn. Zero between requests.
    setup: Duration,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine with default options and no game.
    pub fn new() -> Engine {
        Engine {
            board: None,
            options: Options::default(),
            searcher: None,
            blocked: Vec::new(),
            eval: EvalSet::builtin(),
            setup: Duration::ZERO,
        }
    }

    /// Evaluates with `eval` from the next search on (e.g. tables from `--eval FILE`).
    pub fn set_eval(&mut self, eval: EvalSet) {
        if let Some(s) = self.searcher.as_mut() {
            s.set_eval(eval.clone());
        }
        self.eval = eval;
    }

    /// Plays by `rule` from the next search on and builds its pattern and evaluation tables
    /// now: managers may send `INFO rule` after `START`, and `INFO` is not timed, so the first
    /// move under the new rule does not pay for the tables.
    pub fn set_rule(&mut self, rule: Rule) {
        self.options.rule = rule;
        self.prepare_tables();
    }

    /// Starts a new game on an empty `width` x `height` board. On error the previous game
    /// (if any) stays as it was. The blocked moves are kept unless the board size changes
    /// (Yixin-Board sends `START` before every position it analyses).
    pub fn start(&mut self, width: usize, height: usize) -> Result<(), EngineError> {
        let board = Board::new(width, height)?;
        let same_size = self
            .board
            .as_ref()
            .is_some_and(|b| b.width() == width && b.height() == height);
        if !same_size {
            self.blocked.clear();
        }
        self.board = Some(board);
        self.prepare();
        Ok(())
    }

    /// Clears the board, keeping its size.
    pub fn restart(&mut self) -> Result<(), EngineError> {
        let b = self.board.as_ref().ok_or(EngineError::NoGame)?;
        self.board = Some(Board::new(b.width(), b.height())?);
        self.prepare();
        Ok(())
    }

    /// The current board, if a game was started.
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    fn board_mut(&mut self) -> Result<&mut Board, EngineError> {
        self.board.as_mut().ok_or(EngineError::NoGame)
    }

    /// The point at protocol coordinates, checked against the board.
    pub fn pos(&self, x: i64, y: i64) -> Result<Pos, EngineError> {
        let b = self.board.as_ref().ok_or(EngineError::NoGame)?;
        Ok(b.pos(x, y)?)
    }

    /// Plays a stone for the side to move at `p` (an opponent's move, or a forced `PLAY`).
    pub fn play(&mut self, p: Pos) -> Result<(), EngineError> {
        Ok(self.board_mut()?.try_make(p)?)
    }

    /// Takes back the last stone, which must stand at `p`.
    pub fn takeback(&mut self, p: Pos) -> Result<(), EngineError> {
        let b = self.board_mut()?;
        match b.last_move() {
            Some(last) if last == p => {
                b.undo()?;
                Ok(())
            }
            _ => Err(EngineError::NotLastMove),
        }
    }

    /// Replaces the position by `stones` placed in the given order, with `to_move` to move.
    /// On error (a stone off the board or on an occupied point) nothing changes.
    pub fn set_position(
        &mut self,
        stones: &[(Pos, Color)],
        to_move: Color,
    ) -> Result<(), EngineError> {
        let b = self.board.as_ref().ok_or(EngineError::NoGame)?;
        let mut nb = Board::new(b.width(), b.height())?;
        for &(p, c) in stones {
            nb.check_empty(p)?;
            nb.place(p, c);
        }
        nb.set_side_to_move(to_move);
        self.board = Some(nb);
        Ok(())
    }

    /// Replaces the position by `board` (its stones, their order and the side to move). A
    /// board of another size than the game's (or with no game yet) starts a game of its size
    /// first, as `START` would.
    pub fn set_board(&mut self, board: Board) -> Result<(), EngineError> {
        let (width, height) = (board.width(), board.height());
        let same_size = self
            .board
            .as_ref()
            .is_some_and(|b| (b.width(), b.height()) == (width, height));
        if !same_size {
            self.start(width, height)?;
        }
        self.board = Some(board);
        Ok(())
    }

    /// Black's forbidden points in the current position (empty unless the rule is renju).
    pub fn forbidden_points(&self) -> Vec<Pos> {
        match (&self.board, self.options.rule) {
            (Some(b), Rule::Renju) => rules::forbidden_points(b)
                .into_iter()
                .map(|(p, _)| p)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The limits of one search from the options, with the blocked moves excluded.
    fn limits(&self) -> Limits {
        Limits {
            time: (!self.options.untimed).then_some(
                TimeControl {
                    turn_ms: self.options.timeout_turn_ms,
                    match_ms: self.options.timeout_match_ms,
                    time_left_ms: self.options.time_left_ms,
                }
                .after(self.setup),
            ),
            threads: self.options.threads.clamp(1, thread_limit()),
            max_nodes: self.options.max_nodes,
            max_depth: if self.options.max_depth > 0 {
                self.options.max_depth
            } else {
                Limits::default().max_depth
            },
            exclude: self.blocked.clone(),
        }
    }

    /// The searcher, sized for the current options. On a manager's clock a new table is
    /// made on another thread ([`Searcher::resize_in_background`]); untimed (`bench`,
    /// analysis to a depth or node count) before the search, so that it sees the same table.
    fn searcher(&mut self) -> &mut Searcher {
        let bytes = search::tt_bytes(self.options.hash_kb, self.options.max_memory);
        let eval = &self.eval;
        // The smallest table, replaced at once by one of the asked size.
        let searcher = self.searcher.get_or_insert_with(|| {
            let mut s = Searcher::new(0);
            s.set_eval(eval.clone());
            s
        });
        if self.options.untimed {
            searcher.resize(bytes);
        } else {
            searcher.resize_in_background(bytes);
        }
        searcher
    }

    /// The one front door of the engine: carries out `request` on the current game within the
    /// options' limits, without changing the game. `stop` may be set from another thread: a
    /// search then ends with the best it has (a pondering search ends, nothing else is
    /// started). `on` sees a search's progress with the index of its line: every completed
    /// iteration, every root move, every finished line (the Swap2 and opening decisions run
    /// several searches of their own and report none of them).
    ///
    /// - [`Request::Move`] and [`Request::Best`] give [`Answer::Lines`]: the best moves, best
    ///   first, each a different legal root move that is not blocked (unless every legal move
    ///   is); `Move` is `Best(1)`. The time and node limits are shared between the lines; a
    ///   line that ends after the whole turn's time raises `stop` itself, so the analysis
    ///   answers within the turn even when its lines overrun their shares. A move that the
    ///   search got wrong (not legal) is dropped and, if none is left, the simple mover's
    ///   choice stands, so the first line is always a legal move.
    /// - [`Request::Defend`]: `Best` with one line per root move the search would consider
    ///   ([`Engine::line_count`]).
    /// - [`Request::Ponder`] gives [`Answer::Pondered`]: a search without a time limit until
    ///   `stop`, keeping only what the transposition table learns (nothing when the board is
    ///   full or the last move made five).
    /// - [`Request::Swap2`] and [`Request::Opening`] give their decisions.
    ///
    /// What a request spends before its search (the first one of a process makes a small
    /// stand-in table and starts the real one on another thread; a new size waits for a table
    /// still being made and frees the old one) counts against its turn, as the manager's
    /// clock counts it.
    pub fn run(
        &mut self,
        request: Request<'_>,
        stop: &AtomicBool,
        on: &mut dyn FnMut(usize, ThinkEvent<'_>),
    ) -> Result<Answer, EngineError> {
        let started = Instant::now();
        self.searcher();
        self.setup = started.elapsed();
        let answer = self.answer(request, stop, on);
        self.setup = Duration::ZERO;
        answer
    }

    /// [`Engine::run`] once the searcher is ready.
    fn answer(
        &mut self,
        request: Request<'_>,
        stop: &AtomicBool,
        on: &mut dyn FnMut(usize, ThinkEvent<'_>),
    ) -> Result<Answer, EngineError> {
        match request {
            Request::Move | Request::Best(_) | Request::Defend => {
                let board = self.board.clone().ok_or(EngineError::NoGame)?;
                let n = self.line_count(&request)?;
                self.best_lines(&board, n, stop, on).map(Answer::Lines)
            }
            Request::Ponder => {
                let board = self.board.clone().ok_or(EngineError::NoGame)?;
                self.ponder(&board, stop);
                Ok(Answer::Pondered)
            }
            Request::Swap2(stones) => {
                let b = self.board.as_ref().ok_or(EngineError::NoGame)?;
                let (width, height, rule) = (b.width(), b.height(), self.options.rule);
                let limits = self.decision_limits();
                swap2::answer(self.searcher(), width, height, stones, rule, &limits, stop)
                    .map(Answer::Swap2)
                    .map_err(EngineError::Swap2)
            }
            // The opening decision needs no game: the opening game it is given is its board.
            Request::Opening(game, step) => {
                let limits = self.decision_limits();
                opening::decide_step(self.searcher(), game, step, &limits, stop)
                    .map(Answer::Opening)
                    .map_err(EngineError::Opening)
            }
        }
    }

    /// The limits of a Swap2 or opening decision: the options' limits with no move blocked
    /// (the blocks are the current game's, not the decision's positions').
    fn decision_limits(&self) -> Limits {
        Limits {
            exclude: Vec::new(),
            ..self.limits()
        }
    }

    /// How many lines [`Engine::run`] gives for a search request: 1 for a move; for `Best(n)`,
    /// `n` but no more than the legal moves that are not blocked (at least 1); for `Defend`,
    /// the root moves the search would consider (only the answers to the opponent's threat
    /// when there is one), at most [`search::DEFEND_MAX_LINES`], at least 1. Other requests
    /// give no lines (0).
    pub fn line_count(&mut self, request: &Request<'_>) -> Result<usize, EngineError> {
        let b = self.board.as_ref().ok_or(EngineError::NoGame)?;
        Ok(match request {
            Request::Move => 1,
            Request::Best(n) => {
                let legal = b
                    .empty_points()
                    .filter(|&p| self.is_legal_move(p) && !self.blocked.contains(&p))
                    .count();
                (*n).clamp(1, legal.max(1))
            }
            Request::Defend => {
                let (b, rule, limits) = (b.clone(), self.options.rule, self.limits());
                let n = self.searcher().root_candidates(&b, rule, &limits).len();
                n.clamp(1, search::DEFEND_MAX_LINES)
            }
            Request::Ponder | Request::Swap2(_) | Request::Opening(..) => 0,
        })
    }

    /// The `n` best lines of `b` ([`Searcher::think_nbest`]), checked as [`Engine::run`] says.
    fn best_lines(
        &mut self,
        b: &Board,
        n: usize,
        stop: &AtomicBool,
        on: &mut dyn FnMut(usize, ThinkEvent<'_>),
    ) -> Result<Vec<Line>, EngineError> {
        let rule = self.options.rule;
        let limits = self.limits();
        let started = Instant::now();
        let turn = limits
            .time
            .map(|tc| tc.budget(b.width() * b.height() - b.stone_count()).maximum);
        let results = self
            .searcher()
            .think_nbest(b, rule, &limits, n, stop, &mut |i, p| match p {
                Progress::Iteration(r) => on(i, ThinkEvent::Iteration(r)),
                Progress::Root(r) => on(i, ThinkEvent::Root(r)),
                Progress::Line(r) => {
                    on(i, ThinkEvent::Line(&to_line(r)));
                    if turn.is_some_and(|t| started.elapsed() >= t) {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            });
        let mut lines: Vec<Line> = results
            .iter()
            .map(to_line)
            .filter(|l| self.is_legal_move(l.mv))
            .collect();
        if lines.len() < results.len() {
            log::error!("the search returned an illegal move; dropping it");
        }
        if lines.is_empty() {
            let p = simple_move(b, rule).ok_or(EngineError::NoMove)?;
            lines.push(Line {
                mv: p,
                score: 0,
                depth: 0,
                seldepth: 0,
                nodes: 0,
                time_ms: 0,
                pv: vec![p],
            });
        }
        Ok(lines)
    }

    /// [`Request::Ponder`]: searches `b` without a time limit until `stop`.
    fn ponder(&mut self, b: &Board, stop: &AtomicBool) {
        if b.is_full() || self.last_move_won() {
            return;
        }
        let rule = self.options.rule;
        let limits = Limits {
            time: None,
            exclude: Vec::new(),
            ..self.limits()
        };
        let _ = self.searcher().think(b, rule, &limits, stop, &mut |_| {});
    }

    /// True if the last stone played completed a winning line under the current rule.
    fn last_move_won(&self) -> bool {
        let Some(b) = &self.board else {
            return false;
        };
        let Some(last) = b.last_move() else {
            return false;
        };
        let mut before = b.clone();
        let mover = b.side_to_move().opponent();
        before.undo().is_ok() && rules::is_five(&before, last, mover, self.options.rule)
    }

    /// Forgets everything the search has learnt (`YXHASHCLEAR`).
    pub fn clear_hash(&mut self) {
        self.searcher().clear();
    }

    /// The blocked moves, in the order added.
    pub fn blocked(&self) -> &[Pos] {
        &self.blocked
    }

    /// Adds `points` to the blocked moves (duplicates are ignored).
    pub fn block(&mut self, points: &[Pos]) {
        for &p in points {
            if !self.blocked.contains(&p) {
                self.blocked.push(p);
            }
        }
    }

    /// Removes `points` from the blocked moves (points not blocked are ignored).
    pub fn unblock(&mut self, points: &[Pos]) {
        self.blocked.retain(|p| !points.contains(p));
    }

    /// Clears the blocked moves.
    pub fn reset_blocks(&mut self) {
        self.blocked.clear();
    }

    /// Builds the pattern tables of the current rule and forgets the search's memory of the
    /// previous game; called on `START`/`RESTART` so that no move pays for it. The first
    /// `START` allocates no TT: managers send `INFO max_memory` after it, and a table sized
    /// for the default budget would already be over a smaller limit. The first search
    /// allocates it ([`Engine::searcher`]).
    fn prepare(&mut self) {
        self.prepare_tables();
        let bytes = search::tt_bytes(self.options.hash_kb, self.options.max_memory);
        if let Some(s) = self.searcher.as_mut() {
            s.resize(bytes);
            s.clear();
        }
    }

    /// Builds the pattern tables of the current rule (once per rule and process).
    fn prepare_tables(&mut self) {
        tables::init(self.options.rule);
        let _ = self.eval.get(self.options.rule);
    }
}

impl Engine {
    /// True if the side to move may play `p` under the current rule (empty, on the board and,
    /// for black under renju, not forbidden).
    pub fn is_legal_move(&self, p: Pos) -> bool {
        self.board.as_ref().is_some_and(|b| {
            b.check_empty(p).is_ok() && rules::is_legal(b, p, b.side_to_move(), self.options.rule)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_analysis_starts_no_line_after_the_turn() {
        let mut e = Engine::new();
        e.start(15, 15).unwrap();
        for (i, (x, y)) in [
            (7, 7),
            (8, 8),
            (7, 8),
            (6, 7),
            (8, 6),
            (9, 9),
            (5, 5),
            (6, 9),
        ]
        .into_iter()
        .enumerate()
        {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            e.board.as_mut().unwrap().place(Pos::new(x, y), c);
        }
        // The reserve plus 1 ms: a maximum of 1 ms for the whole turn, far less than 10
        // searches take.
        e.options.timeout_turn_ms = search::time::TURN_RESERVE_MS + 1;
        let stop = AtomicBool::new(false);
        let answer = e.run(Request::Best(10), &stop, &mut |_, _| {}).unwrap();
        let lines = answer.lines();
        assert!(!lines.is_empty());
        let before_last: u64 = lines[..lines.len() - 1].iter().map(|l| l.time_ms).sum();
        assert!(
            before_last <= 1,
            "a line started {before_last} ms into a 1 ms turn: {:?}",
            lines.iter().map(|l| l.time_ms).collect::<Vec<_>>()
        );
    }

    #[test]
    fn every_request_goes_through_run() {
        let mut e = Engine::new();
        let stop = AtomicBool::new(false);
        let none = &mut |_: usize, _: ThinkEvent<'_>| {};
        assert_eq!(e.run(Request::Move, &stop, none), Err(EngineError::NoGame));
        e.start(15, 15).unwrap();
        e.options.max_nodes = 2_000;
        let one = [Pos::new(7, 7)];
        assert_eq!(
            e.run(Request::Swap2(&one), &stop, none),
            Err(EngineError::Swap2(Swap2Error::StoneCount(1)))
        );
        e.block(&[Pos::new(0, 0), Pos::new(1, 1)]);
        assert_eq!(e.line_count(&Request::Best(1_000)), Ok(223));
        assert_eq!(e.line_count(&Request::Move), Ok(1));
        let mut finished = Vec::new();
        let answer = e
            .run(Request::Best(3), &stop, &mut |i, ev| {
                if let ThinkEvent::Line(l) = ev {
                    finished.push((i, l.mv));
                }
            })
            .unwrap();
        let moves: Vec<Pos> = answer.lines().iter().map(|l| l.mv).collect();
        assert_eq!(moves.len(), 3);
        assert_eq!(answer.best(), Some(moves[0]));
        assert_eq!(finished, vec![(0, moves[0]), (1, moves[1]), (2, moves[2])]);
        for (i, &p) in moves.iter().enumerate() {
            assert!(e.is_legal_move(p) && !e.blocked().contains(&p) && !moves[..i].contains(&p));
        }
        assert_eq!(e.board().unwrap().stone_count(), 0, "run does not play");
        stop.store(true, Ordering::SeqCst);
        assert_eq!(e.run(Request::Ponder, &stop, none), Ok(Answer::Pondered));
    }

    #[test]
    fn a_search_runs_at_most_max_threads() {
        let mut e = Engine::new();
        e.options.threads = 100_000;
        assert_eq!(e.limits().threads, thread_limit());
        assert!(thread_limit() <= MAX_THREADS);
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        e.options.threads = cpus + 1;
        assert_eq!(e.limits().threads, cpus.min(MAX_THREADS));
        e.options.threads = 0;
        assert_eq!(e.limits().threads, 1);
    }

    #[test]
    fn a_rule_set_after_start_rules_the_game_in_progress() {
        let mut e = Engine::new();
        e.start(15, 15).unwrap();
        let black = [(7, 5), (7, 6), (5, 7), (6, 7)];
        let white = [(0, 0), (0, 2), (0, 4), (14, 14)];
        for ((bx, by), (wx, wy)) in black.into_iter().zip(white) {
            e.play(Pos::new(bx, by)).unwrap();
            e.play(Pos::new(wx, wy)).unwrap();
        }
        let double_three = Pos::new(7, 7);
        assert!(e.is_legal_move(double_three));
        assert!(e.forbidden_points().is_empty());
        e.set_rule(Rule::Renju);
        assert_eq!(e.options.rule, Rule::Renju);
        assert!(!e.is_legal_move(double_three));
        assert_eq!(e.forbidden_points(), vec![double_three]);
        e.set_rule(Rule::Freestyle);
        assert!(e.is_legal_move(double_three));
    }

    #[test]
    fn blocks_are_kept_across_start_of_the_same_size() {
        let mut e = Engine::new();
        e.start(15, 15).unwrap();
        let (a, b) = (Pos::new(7, 7), Pos::new(3, 4));
        e.block(&[a, b, a]);
        assert_eq!(e.blocked(), &[a, b]);
        e.start(15, 15).unwrap();
        e.restart().unwrap();
        assert_eq!(e.blocked(), &[a, b]);
        e.unblock(&[a, Pos::new(1, 1)]);
        assert_eq!(e.blocked(), &[b]);
        e.start(20, 20).unwrap();
        assert!(e.blocked().is_empty());
        e.block(&[a]);
        e.reset_blocks();
        assert!(e.blocked().is_empty());
    }

    #[test]
    fn a_blocked_opening_move_is_not_played() {
        let mut e = Engine::new();
        e.start(15, 15).unwrap();
        let stop = AtomicBool::new(false);
        let centre = Pos::new(7, 7);
        let best = |e: &mut Engine| e.run(Request::Move, &stop, &mut |_, _| {}).unwrap().best();
        assert_eq!(best(&mut e), Some(centre));
        e.block(&[centre]);
        let p = best(&mut e).unwrap();
        assert_ne!(p, centre);
        assert!(e.is_legal_move(p));
    }
}
