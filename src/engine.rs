//! The engine facade: owns the game (board and rule), the options set by the manager, and
//! chooses moves. The protocol layer talks only to this type; the search never sees protocol
//! text.
//!
//! [`Engine::think`] runs the alpha-beta search ([`crate::search::Searcher`], whose
//! transposition table lives here across the moves of a game, sized from `hash_size` and
//! `max_memory`). [`simple_move`], the simple mover of the rules/protocol milestone, stays as
//! the fallback: [`Engine::choose`] wraps `think` so that the protocol's reply is always legal.

use crate::rules::{self, tables, Board, BoardError};
use crate::search::{self, time::TimeControl, Limits, Searcher};
use crate::types::{Color, Pos, Rule};
use std::fmt;
use std::sync::atomic::AtomicBool;

/// Settings the manager sends with `INFO`, kept across `START`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Time limit per move in ms; 0 = move as fast as possible.
    pub timeout_turn_ms: i64,
    /// Time limit for the whole game in ms; 0 = no limit.
    pub timeout_match_ms: i64,
    /// Match time left in ms (may be negative; `i32::MAX` = unlimited).
    pub time_left_ms: i64,
    /// Memory limit in bytes for the whole process; 0 = no limit.
    pub max_memory: u64,
    /// 0 human opponent, 1 brain, 2 tournament, 3 network tournament.
    pub game_type: i64,
    /// The rule in force.
    pub rule: Rule,
    /// Folder for persistent files, if the manager gave one.
    pub folder: Option<String>,
    /// Number of search threads.
    pub threads: usize,
    /// Transposition table size in KiB, if set with `INFO hash_size`.
    pub hash_kb: Option<u64>,
    /// The point under the manager's mouse (`INFO evaluate x,y`); unused by the search.
    pub evaluate: Option<(i64, i64)>,
    /// Node limit per search (`INFO max_node`); 0 = none.
    pub max_nodes: u64,
    /// Deepest iteration per search (`INFO max_depth`); 0 = none.
    pub max_depth: i32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout_turn_ms: 5_000,
            timeout_match_ms: 0,
            time_left_ms: i32::MAX as i64,
            max_memory: 0,
            game_type: 1,
            rule: Rule::Freestyle,
            folder: None,
            threads: 1,
            hash_kb: None,
            evaluate: None,
            max_nodes: 0,
            max_depth: 0,
        }
    }
}

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
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::NoGame => f.write_str("no game started: send START first"),
            EngineError::Board(e) => e.fmt(f),
            EngineError::NoMove => f.write_str("no move possible: the board is full"),
            EngineError::NotLastMove => f.write_str("that point is not the last stone played"),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<BoardError> for EngineError {
    fn from(e: BoardError) -> Self {
        EngineError::Board(e)
    }
}

/// Progress of a search, reported once per completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThinkReport {
    /// Completed depth.
    pub depth: u32,
    /// Score from the side to move's view (centipawn-like units).
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Principal variation.
    pub pv: Vec<Pos>,
}

/// The engine: one game, its options and the move chooser.
pub struct Engine {
    board: Option<Board>,
    /// Manager settings; public so the protocol can set them field by field.
    pub options: Options,
    /// The search and its transposition table, created on first use.
    searcher: Option<Searcher>,
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
        }
    }

    /// Starts a new game on an empty `width` x `height` board. On error the previous game
    /// (if any) stays as it was.
    pub fn start(&mut self, width: usize, height: usize) -> Result<(), EngineError> {
        self.board = Some(Board::new(width, height)?);
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

    /// Chooses a move for the side to move without playing it. `stop` may be set from another
    /// thread to ask for the best move found so far; `report` receives progress.
    pub fn think(
        &mut self,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&ThinkReport),
    ) -> Result<Pos, EngineError> {
        let rule = self.options.rule;
        let b = self.board.as_ref().ok_or(EngineError::NoGame)?;
        let bytes = search::tt_bytes(self.options.hash_kb, self.options.max_memory);
        let searcher = self.searcher.get_or_insert_with(|| Searcher::new(bytes));
        searcher.resize(bytes);
        let limits = Limits {
            time: Some(TimeControl {
                turn_ms: self.options.timeout_turn_ms,
                match_ms: self.options.timeout_match_ms,
                time_left_ms: self.options.time_left_ms,
            }),
            threads: self.options.threads.max(1),
            max_nodes: self.options.max_nodes,
            max_depth: if self.options.max_depth > 0 {
                self.options.max_depth
            } else {
                Limits::default().max_depth
            },
            exclude: Vec::new(),
        };
        let result = searcher.think(b, rule, &limits, stop, &mut |r| {
            report(&ThinkReport {
                depth: r.depth,
                score: r.score,
                nodes: r.nodes,
                time_ms: r.time_ms,
                pv: r.pv.clone(),
            })
        });
        result.map(|r| r.best).ok_or(EngineError::NoMove)
    }

    /// Builds the pattern tables of the current rule and forgets the search's memory of the
    /// previous game; called on `START`/`RESTART` so that no move pays for it.
    fn prepare(&mut self) {
        tables::init(self.options.rule);
        let bytes = search::tt_bytes(self.options.hash_kb, self.options.max_memory);
        match self.searcher.as_mut() {
            Some(s) => {
                s.resize(bytes);
                s.clear();
            }
            None => self.searcher = Some(Searcher::new(bytes)),
        }
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

    /// [`Engine::think`], checked: a move that is not legal for the side to move (a search
    /// bug) is replaced by the simple mover's choice, so the reply is always legal.
    pub fn choose(
        &mut self,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&ThinkReport),
    ) -> Result<Pos, EngineError> {
        let p = self.think(stop, report)?;
        if self.is_legal_move(p) {
            return Ok(p);
        }
        log::error!("think returned the illegal move {p:?}; using the simple mover");
        let b = self.board.as_ref().ok_or(EngineError::NoGame)?;
        simple_move(b, self.options.rule).ok_or(EngineError::NoMove)
    }
}

/// The simple mover: an immediate win, else a block of the opponent's five, else a block of
/// the opponent's open three (a point where the opponent would get two winning points, such
/// as an open four), else the legal point with the most stones within two cells. Ties: most
/// stones around, then nearest the centre, then lowest point.
pub fn simple_move(board: &Board, rule: Rule) -> Option<Pos> {
    let me = board.side_to_move();
    let opp = me.opponent();
    let legal = |p: Pos| rules::is_legal(board, p, me, rule);
    let empties: Vec<Pos> = board.empty_points().collect();
    if let Some(&p) = empties
        .iter()
        .find(|&&p| rules::is_five(board, p, me, rule) && legal(p))
    {
        return Some(p);
    }
    if let Some(&p) = empties
        .iter()
        .find(|&&p| rules::is_five(board, p, opp, rule) && legal(p))
    {
        return Some(p);
    }
    let center = board.center();
    let density = |p: Pos| {
        let mut near = 0i64;
        for q in board.points().filter(|q| q.distance(p) <= 2) {
            if !board.is_empty(q) {
                near += 3 - q.distance(p) as i64;
            }
        }
        (near, -(p.distance(center) as i64), std::cmp::Reverse(p))
    };
    let mut scratch = board.clone();
    let blocks: Vec<Pos> = empties
        .iter()
        .copied()
        .filter(|&p| board.has_neighbour(p, 4) && makes_two_wins(&mut scratch, p, opp, rule))
        .filter(|&p| rules::is_legal(board, p, opp, rule) && legal(p))
        .collect();
    if let Some(p) = blocks.into_iter().max_by_key(|&p| density(p)) {
        return Some(p);
    }
    empties
        .iter()
        .copied()
        .filter(|&p| legal(p))
        .max_by_key(|&p| density(p))
}

/// True if a stone of `color` at the empty point `p` would give `color` at least two
/// different points that each complete a winning line (an open four or a double four).
/// `scratch` is a copy of the board; it is returned unchanged.
fn makes_two_wins(scratch: &mut Board, p: Pos, color: Color, rule: Rule) -> bool {
    scratch.place(p, color);
    let mut wins: Vec<Pos> = Vec::new();
    for dir in Board::directions() {
        for step in -4..=4isize {
            let q = p.offset(dir, step);
            if scratch.is_empty(q) && !wins.contains(&q) && rules::is_five(scratch, q, color, rule)
            {
                wins.push(q);
            }
        }
    }
    let _ = scratch.undo();
    wins.len() >= 2
}
