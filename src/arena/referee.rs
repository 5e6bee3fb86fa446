//! The referee: plays one game between two engine processes and judges every reply.
//!
//! Protocol, as c-gomoku-cli and Piskvork drive brains: `START size` (the reply must be `OK`
//! within the start timeout), then `INFO timeout_turn`, `timeout_match`, `max_memory`,
//! `game_type 1` and `rule`. Each engine's first move of the game is asked with `BOARD` (the
//! stones so far in move order, `1` = own, `2` = opponent) or `BEGIN` on an empty board; later
//! moves with `TURN x,y`. `INFO time_left` precedes every move request.
//!
//! Judging, with the project's own rules code so fouls and fives are exactly the engine's:
//! - a line starting with `MESSAGE ` or `DEBUG ` (any case, space included) is skipped;
//! - any other line that is not `X,Y` loses (garbage), as in Piskvork;
//! - stdout closed or stdin broken loses (crash);
//! - no move within `min(turn, match time left) + tolerance` loses (late), where the turn is
//!   the engine's own (the same for both in [`play_game`], one each in [`play_game_timed`]);
//! - a point off the board or occupied loses (illegal);
//! - [`judge`] decides a five (win) or a renju foul by black (loss);
//! - the game is drawn when the board is full, when it holds `--max-moves` stones, and under
//!   renju at `size² - 25` stones (200 on 15x15), as the Gomocup judge does.
//!
//! Time is measured per move from the moment the request is written until the reply line is
//! read; the match clock is the sum of an engine's move times (START is not counted).

use super::engine_proc::{EngineProc, Reply};
use crate::notation::format_pos;
use crate::rules::{judge, Board, Foul, MoveOutcome};
use crate::types::{Color, Pos, Rule};
use std::time::{Duration, Instant};

/// `INFO time_left` value that means "no match limit".
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;

/// The fixed conditions of every game in a match.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The rule.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// Per-move limit in ms (sent as `INFO timeout_turn`) for both sides in [`play_game`];
    /// [`play_game_timed`] takes one per side instead (time-odds matches).
    pub turn_ms: u64,
    /// Per-game limit in ms (sent as `INFO timeout_match`); 0 = none.
    pub match_ms: u64,
    /// Sent as `INFO max_memory` (bytes; not enforced).
    pub max_memory: u64,
    /// Grace added to every time limit before a reply counts as late.
    pub tolerance_ms: u64,
    /// How long an engine may take to answer `START` with `OK`.
    pub start_ms: u64,
    /// Draw when the board holds this many stones (opening included); 0 = no cap.
    pub max_moves: usize,
}

impl GameSettings {
    /// The stone count at which the game is drawn, if any (the smaller of `max_moves` and, under
    /// renju, `size² - 25`).
    pub fn stone_cap(&self) -> Option<usize> {
        let renju = (self.rule == Rule::Renju).then(|| (self.size * self.size).saturating_sub(25));
        let user = (self.max_moves > 0).then_some(self.max_moves);
        match (renju, user) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The winner made five (as the rule counts it).
    Five,
    /// Black played a renju forbidden point.
    Foul(Foul),
    /// A move off the board or on a stone (the text says which).
    Illegal(String),
    /// No reply within the limit plus tolerance.
    Late(String),
    /// The engine exited or closed its pipes.
    Crash,
    /// A line that is neither a move nor `MESSAGE`/`DEBUG` (the line itself).
    Garbage(String),
    /// `START` was not answered with `OK` in time (the text says what came instead).
    StartFailed(String),
    /// Draw: no empty point left.
    BoardFull,
    /// Draw: the stone cap was reached.
    MoveLimit,
}

impl Reason {
    /// True for a loss by engine misbehaviour rather than by play: crash, illegal move, late
    /// reply, garbage or a failed start. A renju foul is a loss by play.
    pub fn is_forfeit(&self) -> bool {
        matches!(
            self,
            Reason::Illegal(_)
                | Reason::Late(_)
                | Reason::Crash
                | Reason::Garbage(_)
                | Reason::StartFailed(_)
        )
    }

    /// One word for game records: `five`, `foul-33`, `illegal`, `late`, `crash`, `garbage`,
    /// `start-failed`, `board-full`, `move-limit`.
    pub fn token(&self) -> String {
        match self {
            Reason::Five => "five".into(),
            Reason::Foul(f) => format!("foul-{}", f.label()),
            Reason::Illegal(_) => "illegal".into(),
            Reason::Late(_) => "late".into(),
            Reason::Crash => "crash".into(),
            Reason::Garbage(_) => "garbage".into(),
            Reason::StartFailed(_) => "start-failed".into(),
            Reason::BoardFull => "board-full".into(),
            Reason::MoveLimit => "move-limit".into(),
        }
    }

    /// A human-readable explanation.
    pub fn describe(&self) -> String {
        match self {
            Reason::Five => "five in a row".into(),
            Reason::Foul(f) => format!("renju foul {}", f.label()),
            Reason::Illegal(s) => format!("illegal move: {s}"),
            Reason::Late(s) => format!("late reply: {s}"),
            Reason::Crash => "engine exited".into(),
            Reason::Garbage(l) => format!("not a move: {l:?}"),
            Reason::StartFailed(s) => format!("START failed: {s}"),
            Reason::BoardFull => "board full".into(),
            Reason::MoveLimit => "stone cap reached".into(),
        }
    }
}

/// The outcome of one game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Every stone in order, opening included.
    pub moves: Vec<Pos>,
    /// How many of `moves` came from the opening.
    pub opening_len: usize,
    /// The winning colour, `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
    /// The losing engine's last output lines (empty unless it forfeited).
    pub loser_tail: Vec<String>,
    /// Milliseconds each colour spent, indexed by [`Color::index`].
    pub time_ms: [u64; 2],
    /// Each colour's slowest move in milliseconds.
    pub max_move_ms: [u64; 2],
}

/// Per-engine state during a game.
struct Side<'a> {
    engine: &'a mut EngineProc,
    /// This engine's per-move limit (its `INFO timeout_turn`), ms.
    turn_ms: u64,
    used: Duration,
    slowest: Duration,
    asked_before: bool,
}

/// Plays one game: `black` moves first from the `opening` (which must be playable, see
/// [`super::openings::check_playable`]); both sides get `settings.turn_ms` a move.
pub fn play_game(
    black: &mut EngineProc,
    white: &mut EngineProc,
    settings: &GameSettings,
    opening: &[Pos],
) -> GameResult {
    let turn = settings.turn_ms;
    play_game_timed(black, white, settings, opening, [turn, turn])
}

/// [`play_game`] with a per-move limit for each side, indexed by [`Color::index`]: each engine
/// is sent its own `INFO timeout_turn` and is late past its own limit plus the tolerance.
pub fn play_game_timed(
    black: &mut EngineProc,
    white: &mut EngineProc,
    settings: &GameSettings,
    opening: &[Pos],
    turn_ms: [u64; 2],
) -> GameResult {
    let mut board = Board::square(settings.size).expect("board size checked by the caller");
    for &p in opening {
        board.make(p);
    }
    let mut sides = [
        Side {
            engine: black,
            turn_ms: turn_ms[0],
            used: Duration::ZERO,
            slowest: Duration::ZERO,
            asked_before: false,
        },
        Side {
            engine: white,
            turn_ms: turn_ms[1],
            used: Duration::ZERO,
            slowest: Duration::ZERO,
            asked_before: false,
        },
    ];
    let mut result = GameResult {
        moves: opening.to_vec(),
        opening_len: opening.len(),
        winner: None,
        reason: Reason::MoveLimit,
        loser_tail: Vec::new(),
        time_ms: [0, 0],
        max_move_ms: [0, 0],
    };
    let end = |result: &mut GameResult, sides: &[Side; 2], loser: Option<Color>, reason| {
        result.winner = loser.map(Color::opponent);
        if let (Some(l), true) = (loser, Reason::is_forfeit(&reason)) {
            result.loser_tail = sides[l.index()].engine.tail();
        }
        result.reason = reason;
        for (i, s) in sides.iter().enumerate() {
            result.time_ms[i] = s.used.as_millis() as u64;
            result.max_move_ms[i] = s.slowest.as_millis() as u64;
        }
    };

    for color in [Color::Black, Color::White] {
        let side = &mut sides[color.index()];
        if let Err(reason) = start_engine(side.engine, settings, side.turn_ms) {
            end(&mut result, &sides, Some(color), reason);
            return result;
        }
    }

    loop {
        if board.is_full() {
            end(&mut result, &sides, None, Reason::BoardFull);
            return result;
        }
        if settings
            .stone_cap()
            .is_some_and(|cap| board.stone_count() >= cap)
        {
            end(&mut result, &sides, None, Reason::MoveLimit);
            return result;
        }
        let color = board.side_to_move();
        let side = &mut sides[color.index()];
        let p = match ask_move(side, &board, settings, &mut |_| {}).and_then(|xy| place(&board, xy))
        {
            Ok(p) => p,
            Err(reason) => {
                end(&mut result, &sides, Some(color), reason);
                return result;
            }
        };
        result.moves.push(p);
        match judge(&board, p, color, settings.rule) {
            MoveOutcome::Win => {
                end(&mut result, &sides, Some(color.opponent()), Reason::Five);
                return result;
            }
            MoveOutcome::Foul(f) => {
                end(&mut result, &sides, Some(color), Reason::Foul(f));
                return result;
            }
            MoveOutcome::Continue => board.make(p),
        }
    }
}

fn is_message(line: &str) -> bool {
    let lower = line.get(..8).unwrap_or(line).to_ascii_lowercase();
    lower.starts_with("message ") || lower.starts_with("debug ")
}

/// Reads `X,Y` (two integers and one comma; spaces around the numbers are tolerated).
pub fn parse_reply_move(line: &str) -> Option<(i64, i64)> {
    let (a, b) = line.trim().split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// The point of a reply `X,Y` on `board`: an error ([`Reason::Illegal`]) if it is off the board
/// or occupied. Renju fouls are [`judge`]'s to find.
pub fn place(board: &Board, (x, y): (i64, i64)) -> Result<Pos, Reason> {
    match board.pos(x, y) {
        Ok(p) if board.is_empty(p) => Ok(p),
        Ok(p) => Err(Reason::Illegal(format!(
            "{x},{y} ({}) is occupied",
            format_pos(p)
        ))),
        Err(e) => Err(Reason::Illegal(e.to_string())),
    }
}

/// Starts a game on `engine`: `START` (answered `OK` within `settings.start_ms`), then the
/// `INFO` lines, `timeout_turn` being `turn_ms`.
pub fn start_engine(
    engine: &mut EngineProc,
    settings: &GameSettings,
    turn_ms: u64,
) -> Result<(), Reason> {
    engine.drain();
    if engine.send(&format!("START {}", settings.size)).is_err() {
        return Err(Reason::Crash);
    }
    let deadline = Instant::now() + Duration::from_millis(settings.start_ms);
    loop {
        match engine.recv(deadline) {
            Reply::Line(l) if is_message(&l) => continue,
            Reply::Line(l) if l.trim().eq_ignore_ascii_case("ok") => break,
            Reply::Line(l) => return Err(Reason::StartFailed(l)),
            Reply::Timeout => {
                return Err(Reason::StartFailed(format!(
                    "no OK within {} ms",
                    settings.start_ms
                )))
            }
            Reply::Eof => return Err(Reason::Crash),
        }
    }
    let infos = [
        format!("INFO timeout_turn {turn_ms}"),
        format!("INFO timeout_match {}", settings.match_ms),
        format!("INFO max_memory {}", settings.max_memory),
        "INFO game_type 1".to_string(),
        format!("INFO rule {}", settings.rule.gomocup_id()),
    ];
    for line in &infos {
        engine.send(line).map_err(|_| Reason::Crash)?;
    }
    Ok(())
}

/// Asks a started engine (see [`start_engine`]) for a move in `board` with `BOARD ... DONE`
/// (`1` = the side to move's stones; `BEGIN` on the empty board), as the first request of a
/// game, and waits for a reply
/// that is `X,Y` within `turn_ms` plus the tolerance (or the match clock). Every `MESSAGE`
/// and `DEBUG` line received before the move is handed to `on_message`. Returns the reply and
/// the time it took; the point is not checked (see [`place`]).
pub fn ask_position(
    engine: &mut EngineProc,
    board: &Board,
    settings: &GameSettings,
    turn_ms: u64,
    on_message: &mut dyn FnMut(&str),
) -> Result<((i64, i64), Duration), Reason> {
    let mut side = Side {
        engine,
        turn_ms,
        used: Duration::ZERO,
        slowest: Duration::ZERO,
        asked_before: false,
    };
    let xy = ask_move(&mut side, board, settings, on_message)?;
    Ok((xy, side.used))
}

/// Sends the move request for the side to move and waits for a legal-looking reply.
fn ask_move(
    side: &mut Side,
    board: &Board,
    s: &GameSettings,
    on_message: &mut dyn FnMut(&str),
) -> Result<(i64, i64), Reason> {
    let turn = Duration::from_millis(side.turn_ms);
    let tol = Duration::from_millis(s.tolerance_ms);
    let matched = s.match_ms > 0;
    let match_limit = Duration::from_millis(s.match_ms);
    let time_left = if matched {
        s.match_ms as i64 - side.used.as_millis() as i64
    } else {
        UNLIMITED_TIME_LEFT
    };
    let mut lines = vec![format!("INFO time_left {time_left}")];
    let me = board.side_to_move();
    if !side.asked_before {
        if board.stone_count() == 0 {
            lines.push("BEGIN".into());
        } else {
            lines.push("BOARD".into());
            for &(p, c) in board.history() {
                let field = if c == me { 1 } else { 2 };
                lines.push(format!("{},{},{field}", p.x(), p.y()));
            }
            lines.push("DONE".into());
        }
        side.asked_before = true;
    } else {
        let last = board.last_move().expect("the opponent has moved");
        lines.push(format!("TURN {},{}", last.x(), last.y()));
    }
    let sent = Instant::now();
    for line in &lines {
        side.engine.send(line).map_err(|_| Reason::Crash)?;
    }
    let mut deadline = sent + turn + tol;
    if matched {
        let left = (match_limit + tol).saturating_sub(side.used);
        deadline = deadline.min(sent + left);
    }
    let reply = loop {
        match side.engine.recv(deadline) {
            Reply::Line(l) if is_message(&l) => on_message(&l),
            Reply::Line(l) => match parse_reply_move(&l) {
                Some(xy) => break xy,
                None => return Err(Reason::Garbage(l)),
            },
            Reply::Timeout => {
                let waited = sent.elapsed();
                side.used += waited;
                side.slowest = side.slowest.max(waited);
                let left = if matched {
                    format!("{time_left} ms")
                } else {
                    "unlimited".into()
                };
                return Err(Reason::Late(format!(
                    "no move after {} ms (turn {} ms, time left {left}, tolerance {} ms)",
                    waited.as_millis(),
                    side.turn_ms,
                    s.tolerance_ms
                )));
            }
            Reply::Eof => return Err(Reason::Crash),
        }
    };
    let elapsed = sent.elapsed();
    side.used += elapsed;
    side.slowest = side.slowest.max(elapsed);
    if elapsed > turn + tol {
        return Err(Reason::Late(format!(
            "move took {} ms (turn {} ms + tolerance {} ms)",
            elapsed.as_millis(),
            side.turn_ms,
            s.tolerance_ms
        )));
    }
    if matched && side.used > match_limit + tol {
        return Err(Reason::Late(format!(
            "match clock {} ms over {} ms + tolerance {} ms",
            side.used.as_millis(),
            s.match_ms,
            s.tolerance_ms
        )));
    }
    Ok(reply)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reply_lines() {
        assert_eq!(parse_reply_move("7,7"), Some((7, 7)));
        assert_eq!(parse_reply_move(" 7, 8 "), Some((7, 8)));
        assert_eq!(parse_reply_move("-1,3"), Some((-1, 3)));
        assert_eq!(parse_reply_move("7,7,1"), None);
        assert_eq!(parse_reply_move("OK"), None);
        assert_eq!(parse_reply_move("7 7"), None);
        assert!(is_message("MESSAGE depth 3"));
        assert!(is_message("debug x"));
        assert!(!is_message("MESSAGE"));
        assert!(!is_message("MESSAGES x"));
    }

    #[test]
    fn stone_caps() {
        let mut s = GameSettings {
            rule: Rule::Renju,
            size: 15,
            turn_ms: 1000,
            match_ms: 0,
            max_memory: 0,
            tolerance_ms: 0,
            start_ms: 1000,
            max_moves: 0,
        };
        assert_eq!(s.stone_cap(), Some(200));
        s.max_moves = 50;
        assert_eq!(s.stone_cap(), Some(50));
        s.rule = Rule::Freestyle;
        assert_eq!(s.stone_cap(), Some(50));
        s.max_moves = 0;
        assert_eq!(s.stone_cap(), None);
    }
}
