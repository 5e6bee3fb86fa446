//! Protocol text to typed commands: a pure, I/O-free parser.
//!
//! [`parse`] turns one line into a [`Command`]. [`Parser`] adds the only state the protocol
//! has, the multi-line blocks (`BOARD`, `YXBOARD`, `SWAP2BOARD` ... `DONE`); it is fed the
//! lines one by one and hands back finished commands.
//!
//! Invariants:
//! - Keywords, INFO keys and `DONE` are compared case-insensitively; values keep their case.
//! - A trailing CR, leading/trailing whitespace and empty lines never matter.
//! - Nothing here touches the board: coordinates are checked against the board by the engine,
//!   so "off the board" is an engine error, "not a number" a [`ParseError`].
//! - An unknown keyword is `Ok(Command::Unknown)`, not an error (the protocol answers
//!   `UNKNOWN`); a known command with bad arguments is an `Err` (answered `ERROR`).
//! - `INFO` never fails to parse: a bad value becomes [`Info::Invalid`], an unknown key
//!   [`Info::Ignored`] (the protocol must never answer `ERROR` to `INFO`).
//! - Input quoted in an error text goes through [`echo`]: at most [`ECHO_MAX_CHARS`]
//!   characters of it, then `...`.

use std::borrow::Cow;
use std::fmt;

/// The most characters of the input an `ERROR`/`UNKNOWN`/`MESSAGE` text quotes.
pub const ECHO_MAX_CHARS: usize = 80;

/// `text` as quoted in a reply: whole if it has at most [`ECHO_MAX_CHARS`] characters, else
/// its first [`ECHO_MAX_CHARS`] characters and `...`.
pub fn echo(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(ECHO_MAX_CHARS) {
        None => Cow::Borrowed(text),
        Some((cut, _)) => Cow::Owned(format!("{}...", &text[..cut])),
    }
}

/// A stone line of `BOARD`/`YXBOARD`: protocol coordinates and the field number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoneLine {
    /// Column (0 = left).
    pub x: i64,
    /// Row (0 = top).
    pub y: i64,
    /// Whose stone it is.
    pub field: Field,
}

/// The third number of a `BOARD` stone line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// `1`: a stone of the side to move (the brain receiving the command).
    Own,
    /// `2`: an opponent's stone.
    Opponent,
    /// `3`: a continuous-game stone (part of a finished line, or a renju foul stone).
    Continuous,
}

/// One `INFO` setting, with its value already read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn` in ms (0 = move at once; Piskvork's stop request while thinking).
    TimeoutTurn(i64),
    /// `timeout_match` in ms (0 = no limit).
    TimeoutMatch(i64),
    /// `time_left` in ms (may be negative).
    TimeLeft(i64),
    /// `max_memory` in bytes (0 = no limit).
    MaxMemory(u64),
    /// `game_type`: 0 human, 1 brain, 2 tournament, 3 network tournament.
    GameType(i64),
    /// `rule`: the raw Gomocup bitmask; the engine decides whether it plays it.
    Rule(i64),
    /// `evaluate x,y`: the point under the user's mouse.
    Evaluate(i64, i64),
    /// `folder`: the rest of the line, spaces included.
    Folder(String),
    /// `thread_num` (at least 1).
    ThreadNum(usize),
    /// `hash_size` in KiB.
    HashSize(u64),
    /// `max_node`: stop each search after this many nodes (0, or a negative value such as
    /// Yixin-Board's `-1`, = no limit).
    MaxNode(u64),
    /// `max_depth`: deepest iteration of each search (0 or negative = no limit).
    MaxDepth(i32),
    /// `show_detail`: Yixin-Board's output bits, 0..=3 (1 realtime `MESSAGE REALTIME` lines,
    /// 2 detailed `INFO` records).
    ShowDetail(u8),
    /// `pondering`: 1 = think on the opponent's time, 0 = do not.
    Pondering(bool),
    /// A key we do not use (ignored silently); holds the key in lower case.
    Ignored(String),
    /// A key we use with a value we cannot read; the previous setting stays.
    Invalid {
        /// The key, lower case.
        key: String,
        /// Why the value was refused.
        why: String,
    },
}

/// A command from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n`: a new empty n x n game.
    Start(usize),
    /// `RECTSTART w,h`: a new empty w x h game.
    RectStart(usize, usize),
    /// `RESTART`: clear the board, keep its size.
    Restart,
    /// `BEGIN`: move first.
    Begin,
    /// `TURN x,y`: the opponent played x,y; answer with a move.
    Turn(i64, i64),
    /// `BOARD` ... `DONE`: set the position and answer with a move.
    Board(Vec<StoneLine>),
    /// `YXBOARD` ... `DONE`: set the position, no answer.
    YxBoard(Vec<StoneLine>),
    /// `SWAP2BOARD` ... `DONE`: the Swap2 opening stones so far (0, 3 or 5), black first;
    /// `x,y` lines (and `x,y,f`, as some GUIs send them).
    Swap2Board(Vec<(i64, i64)>),
    /// `yxswap2stepK` (K = 1..3): Yixin-Board's Swap2 flow on the position set by `YXBOARD`.
    YxSwap2Step(u8),
    /// `yxsoosorvstepK [N]` (K = 1..6): Yixin-Board's Soosõrv-8 flow; steps 2..6 are blocks
    /// of `x,y` lines up to `DONE` (the moves so far), steps 4 and 5 carry N.
    YxSoosorvStep {
        /// K.
        step: u8,
        /// N (steps 4 and 5).
        n: Option<usize>,
        /// The moves so far, in order.
        points: Vec<(i64, i64)>,
    },
    /// `INFO key value`.
    Info(Info),
    /// `END`: exit at once, print nothing more.
    End,
    /// `ABOUT`: identify the brain.
    About,
    /// `TAKEBACK x,y`: take back the last stone, which stands at x,y.
    Takeback(i64, i64),
    /// `PLAY x,y`: play x,y as our move and echo it.
    Play(i64, i64),
    /// `STOP` or `YXSTOP`: stop thinking and answer now.
    Stop,
    /// `YXSHOWFORBID`: list black's forbidden points.
    YxShowForbid,
    /// `YXNBEST n`: report the n best moves, then answer with the best.
    YxNbest(usize),
    /// `YXSEARCHDEFEND`: report every answer to the opponent's threat, then move.
    YxSearchDefend,
    /// `YXHASHCLEAR`: clear the transposition table.
    YxHashClear,
    /// `YXSHOWINFO`: Yixin-Board asks for the engine's name and limits.
    YxShowInfo,
    /// `YXBLOCK` ... `DONE`: keep these points out of every following search.
    YxBlock(Vec<(i64, i64)>),
    /// `YXBLOCKUNDO` ... `DONE`: take these points out of the blocked set.
    YxBlockUndo(Vec<(i64, i64)>),
    /// `YXBLOCKRESET`: clear the blocked set.
    YxBlockReset,
    /// A command we do not know; holds its keyword as received.
    Unknown(String),
}

/// Why a line could not be read as the command it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

fn fail<T>(why: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(why.into()))
}

/// Splits a trimmed line into its keyword and the (trimmed) rest.
fn split_keyword(line: &str) -> (&str, &str) {
    let line = line.trim();
    match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    }
}

fn int(text: &str, what: &str) -> Result<i64, ParseError> {
    text.trim().parse::<i64>().or_else(|_| {
        fail(format!(
            "{what} '{}' is not a whole number",
            echo(text.trim())
        ))
    })
}

fn size(text: &str, what: &str) -> Result<usize, ParseError> {
    let v = int(text, what)?;
    usize::try_from(v).or_else(|_| fail(format!("{what} {v} is negative")))
}

/// Reads `x,y` (spaces around the numbers allowed).
fn coords(args: &str, cmd: &str) -> Result<(i64, i64), ParseError> {
    let parts: Vec<&str> = args.split(',').collect();
    match parts.as_slice() {
        [x, y] => Ok((int(x, "x")?, int(y, "y")?)),
        _ => fail(format!("{cmd} expects x,y, got '{}'", echo(args))),
    }
}

fn no_args(args: &str, cmd: &str, c: Command) -> Result<Command, ParseError> {
    if args.is_empty() {
        Ok(c)
    } else {
        fail(format!("{cmd} takes no arguments, got '{}'", echo(args)))
    }
}

/// Parses a one-line command. Block openers (`BOARD`, `YXBOARD`, `SWAP2BOARD`, `YXBLOCK`,
/// `YXBLOCKUNDO`) come back as empty blocks; [`Parser`] collects their lines.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let (word, args) = split_keyword(line);
    let upper = word.to_ascii_uppercase();
    match upper.as_str() {
        "START" => {
            if args.is_empty() {
                return fail("START needs a board size, e.g. START 15");
            }
            Ok(Command::Start(size(args, "board size")?))
        }
        "RECTSTART" => {
            let parts: Vec<&str> = args.split(',').collect();
            match parts.as_slice() {
                [w, h] => Ok(Command::RectStart(size(w, "width")?, size(h, "height")?)),
                _ => fail(format!(
                    "RECTSTART expects width,height, got '{}'",
                    echo(args)
                )),
            }
        }
        "RESTART" => no_args(args, "RESTART", Command::Restart),
        "BEGIN" => no_args(args, "BEGIN", Command::Begin),
        "TURN" => coords(args, "TURN").map(|(x, y)| Command::Turn(x, y)),
        "TAKEBACK" => coords(args, "TAKEBACK").map(|(x, y)| Command::Takeback(x, y)),
        "PLAY" => coords(args, "PLAY").map(|(x, y)| Command::Play(x, y)),
        "BOARD" => no_args(args, "BOARD", Command::Board(Vec::new())),
        "YXBOARD" => no_args(args, "YXBOARD", Command::YxBoard(Vec::new())),
        "SWAP2BOARD" => no_args(args, "SWAP2BOARD", Command::Swap2Board(Vec::new())),
        "INFO" => Ok(Command::Info(parse_info(args))),
        "END" => Ok(Command::End),
        "ABOUT" => Ok(Command::About),
        "STOP" | "YXSTOP" => Ok(Command::Stop),
        "YXSHOWFORBID" => Ok(Command::YxShowForbid),
        "YXNBEST" => {
            if args.is_empty() {
                return fail("YXNBEST needs a number of moves, e.g. YXNBEST 3");
            }
            let n = size(args, "number of moves")?;
            Ok(Command::YxNbest(n.max(1)))
        }
        "YXSEARCHDEFEND" => no_args(args, "YXSEARCHDEFEND", Command::YxSearchDefend),
        "YXHASHCLEAR" => no_args(args, "YXHASHCLEAR", Command::YxHashClear),
        "YXSHOWINFO" => Ok(Command::YxShowInfo),
        "YXBLOCK" => no_args(args, "YXBLOCK", Command::YxBlock(Vec::new())),
        "YXBLOCKUNDO" => no_args(args, "YXBLOCKUNDO", Command::YxBlockUndo(Vec::new())),
        "YXBLOCKRESET" => no_args(args, "YXBLOCKRESET", Command::YxBlockReset),
        "YXSWAP2STEP1" | "YXSWAP2STEP2" | "YXSWAP2STEP3" => {
            let step = upper.as_bytes()[11] - b'0';
            no_args(args, &upper, Command::YxSwap2Step(step))
        }
        "YXSOOSORVSTEP1" | "YXSOOSORVSTEP2" | "YXSOOSORVSTEP3" | "YXSOOSORVSTEP4"
        | "YXSOOSORVSTEP5" | "YXSOOSORVSTEP6" => {
            let step = upper.as_bytes()[13] - b'0';
            let c = |n| Command::YxSoosorvStep {
                step,
                n,
                points: Vec::new(),
            };
            if step == 4 || step == 5 {
                if args.is_empty() {
                    return fail(format!(
                        "{upper} needs the number of fifth moves, e.g. {upper} 3"
                    ));
                }
                Ok(c(Some(size(args, "number of fifth moves")?)))
            } else {
                no_args(args, &upper, c(None))
            }
        }
        "DONE" => fail("DONE without BOARD or YXBOARD"),
        _ if word.starts_with(|c: char| c.is_ascii_digit() || c == '-') => fail(format!(
            "stone line '{}' outside BOARD or YXBOARD",
            echo(word)
        )),
        _ => Ok(Command::Unknown(word.to_string())),
    }
}

/// The largest time an `INFO` time value (`timeout_turn`, `timeout_match`, `time_left`) keeps,
/// in ms, either sign (2^40 ms, about 35 years): larger ones are clamped to it, so the clock's
/// arithmetic cannot overflow (`time_left -9223372036854775808` did).
pub const MAX_TIME_MS: i64 = 1 << 40;

/// Reads `INFO`'s arguments: a key and the rest of the line as its value.
pub fn parse_info(args: &str) -> Info {
    let (key, value) = split_keyword(args);
    let key = key.to_ascii_lowercase();
    let invalid = |why: String| Info::Invalid {
        key: key.clone(),
        why,
    };
    let number = |what: &str| int(value, what).map_err(|e| e.0);
    let ms = |what: &str| number(what).map(|v| v.clamp(-MAX_TIME_MS, MAX_TIME_MS));
    let result: Result<Info, String> = match key.as_str() {
        "timeout_turn" => ms("timeout_turn").map(Info::TimeoutTurn),
        "timeout_match" => ms("timeout_match").map(Info::TimeoutMatch),
        "time_left" => ms("time_left").map(Info::TimeLeft),
        "game_type" => number("game_type").map(Info::GameType),
        "rule" => number("rule").map(Info::Rule),
        "max_memory" => number("max_memory").and_then(|v| {
            u64::try_from(v)
                .map(Info::MaxMemory)
                .map_err(|_| format!("max_memory {v} is negative"))
        }),
        "hash_size" => number("hash_size").and_then(|v| {
            u64::try_from(v)
                .map(Info::HashSize)
                .map_err(|_| format!("hash_size {v} is negative"))
        }),
        "thread_num" => number("thread_num").and_then(|v| match usize::try_from(v) {
            Ok(n) if n >= 1 => Ok(Info::ThreadNum(n)),
            _ => Err(format!("thread_num {v} is not at least 1")),
        }),
        "evaluate" => coords(value, "evaluate")
            .map(|(x, y)| Info::Evaluate(x, y))
            .map_err(|e| e.0),
        "folder" if value.is_empty() => Err("folder is empty".to_string()),
        "max_node" => number("max_node").map(|v| Info::MaxNode(u64::try_from(v).unwrap_or(0))),
        "max_depth" => {
            number("max_depth").map(|v| Info::MaxDepth(i32::try_from(v.max(0)).unwrap_or(i32::MAX)))
        }
        "folder" => Ok(Info::Folder(value.to_string())),
        "show_detail" => number("show_detail").and_then(|v| match u8::try_from(v) {
            Ok(bits) if bits <= 3 => Ok(Info::ShowDetail(bits)),
            _ => Err(format!("show_detail {v} is not 0, 1, 2 or 3")),
        }),
        "pondering" => number("pondering").and_then(|v| match v {
            0 => Ok(Info::Pondering(false)),
            1 => Ok(Info::Pondering(true)),
            _ => Err(format!("pondering {v} is not 0 or 1")),
        }),
        _ => Ok(Info::Ignored(key.clone())),
    };
    result.unwrap_or_else(invalid)
}

/// Reads a stone line `x,y,field` of a `BOARD`/`YXBOARD` block.
pub fn parse_stone_line(line: &str) -> Result<StoneLine, ParseError> {
    let parts: Vec<&str> = line.trim().split(',').collect();
    let [x, y, f] = parts.as_slice() else {
        return fail(format!(
            "expected x,y,field or DONE, got '{}'",
            echo(line.trim())
        ));
    };
    let field = match int(f, "field")? {
        1 => Field::Own,
        2 => Field::Opponent,
        3 => Field::Continuous,
        other => return fail(format!("field {other} is not 1, 2 or 3")),
    };
    Ok(StoneLine {
        x: int(x, "x")?,
        y: int(y, "y")?,
        field,
    })
}

/// Reads a point line `x,y` of a `YXBLOCK`/`YXBLOCKUNDO` block (a third number, as in a
/// stone line, is allowed and ignored).
pub fn parse_point_line(line: &str) -> Result<(i64, i64), ParseError> {
    let parts: Vec<&str> = line.trim().split(',').collect();
    match parts.as_slice() {
        [x, y] => Ok((int(x, "x")?, int(y, "y")?)),
        [x, y, f] => {
            int(f, "field")?;
            Ok((int(x, "x")?, int(y, "y")?))
        }
        _ => fail(format!("expected x,y or DONE, got '{}'", echo(line.trim()))),
    }
}

/// The kind of block being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    Board,
    YxBoard,
    Swap2Board,
    YxBlock,
    YxBlockUndo,
    YxSoosorv(u8, Option<usize>),
}

impl BlockKind {
    fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2Board => "SWAP2BOARD",
            BlockKind::YxBlock => "YXBLOCK",
            BlockKind::YxBlockUndo => "YXBLOCKUNDO",
            BlockKind::YxSoosorv(..) => "YXSOOSORVSTEP",
        }
    }
}

#[derive(Debug)]
struct Block {
    kind: BlockKind,
    stones: Vec<StoneLine>,
    points: Vec<(i64, i64)>,
    lines: usize,
    error: Option<ParseError>,
}

/// Line-by-line reader of the whole protocol, blocks included.
///
/// Inside a block: empty lines are skipped; `x,y,field` lines are collected; a bad stone line
/// marks the block as failed (it is still read up to `DONE`, then answered with one `ERROR`);
/// a line that starts with a letter other than `DONE` ends the block with an `ERROR` and is
/// then read as a command of its own, so a lost `DONE` cannot swallow the session.
#[derive(Debug, Default)]
pub struct Parser {
    block: Option<Block>,
}

impl Parser {
    /// A parser outside any block.
    pub fn new() -> Parser {
        Parser::default()
    }

    /// True while a `BOARD`-like block is open.
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    /// Feeds one line; returns the commands (or errors) it completes, in order: none for an
    /// empty line or a stone line, one normally, two when a command line cuts a block short.
    pub fn feed(&mut self, line: &str) -> Vec<Result<Command, ParseError>> {
        let line = line.trim();
        if line.is_empty() {
            return Vec::new();
        }
        let Some(block) = self.block.as_mut() else {
            return self.start(line).into_iter().collect();
        };
        if line.eq_ignore_ascii_case("DONE") {
            let block = self.block.take().expect("block is open");
            return vec![finish(block)];
        }
        if line.starts_with(|c: char| c.is_ascii_alphabetic()) {
            let block = self.block.take().expect("block is open");
            let why = format!("{} ended without DONE", block.kind.name());
            let mut out = vec![fail(why)];
            out.extend(self.start(line));
            return out;
        }
        block.lines += 1;
        if block.error.is_none() {
            let read = match block.kind {
                BlockKind::Swap2Board
                | BlockKind::YxBlock
                | BlockKind::YxBlockUndo
                | BlockKind::YxSoosorv(..) => parse_point_line(line).map(|p| block.points.push(p)),
                BlockKind::Board | BlockKind::YxBoard => {
                    parse_stone_line(line).map(|stone| block.stones.push(stone))
                }
            };
            if let Err(e) = read {
                block.error = Some(e);
            }
        }
        Vec::new()
    }

    /// Reads a line outside a block; `None` when it opens a block (its command comes out at
    /// `DONE`).
    fn start(&mut self, line: &str) -> Option<Result<Command, ParseError>> {
        let kind = match parse(line) {
            Ok(Command::Board(_)) => BlockKind::Board,
            Ok(Command::YxBoard(_)) => BlockKind::YxBoard,
            Ok(Command::Swap2Board(_)) => BlockKind::Swap2Board,
            Ok(Command::YxBlock(_)) => BlockKind::YxBlock,
            Ok(Command::YxBlockUndo(_)) => BlockKind::YxBlockUndo,
            Ok(Command::YxSoosorvStep { step, n, .. }) if step >= 2 => {
                BlockKind::YxSoosorv(step, n)
            }
            other => return Some(other),
        };
        self.block = Some(Block {
            kind,
            stones: Vec::new(),
            points: Vec::new(),
            lines: 0,
            error: None,
        });
        None
    }
}

fn finish(block: Block) -> Result<Command, ParseError> {
    if let Some(e) = block.error {
        return fail(format!("{}: {e}", block.kind.name()));
    }
    Ok(match block.kind {
        BlockKind::Board => Command::Board(block.stones),
        BlockKind::YxBoard => Command::YxBoard(block.stones),
        BlockKind::Swap2Board => Command::Swap2Board(block.points),
        BlockKind::YxBlock => Command::YxBlock(block.points),
        BlockKind::YxBlockUndo => Command::YxBlockUndo(block.points),
        BlockKind::YxSoosorv(step, n) => Command::YxSoosorvStep {
            step,
            n,
            points: block.points,
        },
    })
}

/// True if `line`, read while the engine thinks, asks it to stop: `STOP`, `YXSTOP`, `END`
/// or `INFO timeout_turn 0` (Piskvork's "move now").
pub fn is_interrupt(line: &str) -> bool {
    match parse(line) {
        Ok(Command::Stop | Command::End) => true,
        Ok(Command::Info(Info::TimeoutTurn(t))) => t <= 0,
        _ => false,
    }
}

/// True if `line` is `END` (any case, any surrounding whitespace).
pub fn is_end(line: &str) -> bool {
    matches!(parse(line), Ok(Command::End))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed_all(lines: &[&str]) -> Vec<Result<Command, ParseError>> {
        let mut p = Parser::new();
        lines.iter().flat_map(|l| p.feed(l)).collect()
    }

    #[test]
    fn simple_commands_any_case_and_whitespace() {
        assert_eq!(parse("START 15"), Ok(Command::Start(15)));
        assert_eq!(parse("  start   20 \r"), Ok(Command::Start(20)));
        assert_eq!(parse("RectStart 20,10"), Ok(Command::RectStart(20, 10)));
        assert_eq!(parse("turn 7, 8"), Ok(Command::Turn(7, 8)));
        assert_eq!(parse("TURN -1,3"), Ok(Command::Turn(-1, 3)));
        assert_eq!(parse("yxstop"), Ok(Command::Stop));
        assert_eq!(parse("Stop"), Ok(Command::Stop));
        assert_eq!(parse("end"), Ok(Command::End));
        assert_eq!(parse("TAKEBACK 3,4"), Ok(Command::Takeback(3, 4)));
        assert_eq!(parse("play 3,4"), Ok(Command::Play(3, 4)));
        assert_eq!(parse("YxShowForbid"), Ok(Command::YxShowForbid));
        assert_eq!(parse("FOO bar"), Ok(Command::Unknown("FOO".into())));
    }

    #[test]
    fn malformed_commands_are_errors() {
        for line in [
            "START",
            "START x",
            "START -3",
            "RECTSTART 10",
            "TURN 7",
            "TURN a,b",
            "TURN 1,2,3",
            "BEGIN now",
            "DONE",
            "7,7,1",
            "START 99999999999999999999999",
        ] {
            assert!(parse(line).is_err(), "{line} should be malformed");
        }
    }

    #[test]
    fn info_values_are_the_rest_of_the_line() {
        assert_eq!(
            parse_info("folder C:\\My AIs\\data "),
            Info::Folder("C:\\My AIs\\data".into())
        );
        assert_eq!(parse_info("TIMEOUT_TURN 0"), Info::TimeoutTurn(0));
        assert_eq!(parse_info("time_left -20"), Info::TimeLeft(-20));
        assert_eq!(
            parse_info("time_left -9223372036854775808"),
            Info::TimeLeft(-MAX_TIME_MS)
        );
        assert_eq!(
            parse_info("timeout_turn 9223372036854775807"),
            Info::TimeoutTurn(MAX_TIME_MS)
        );
        assert_eq!(
            parse_info("timeout_match 2147483647"),
            Info::TimeoutMatch(2_147_483_647)
        );
        assert_eq!(
            parse_info("max_memory 367001600"),
            Info::MaxMemory(367_001_600)
        );
        assert_eq!(parse_info("evaluate 3,4"), Info::Evaluate(3, 4));
        assert_eq!(parse_info("show_detail 3"), Info::ShowDetail(3));
        assert_eq!(parse_info("SHOW_DETAIL 0"), Info::ShowDetail(0));
        assert!(matches!(parse_info("show_detail 4"), Info::Invalid { .. }));
        assert!(matches!(parse_info("show_detail -1"), Info::Invalid { .. }));
        assert_eq!(parse_info("pondering 1"), Info::Pondering(true));
        assert_eq!(parse_info("pondering 0"), Info::Pondering(false));
        assert!(matches!(parse_info("pondering 2"), Info::Invalid { .. }));
        assert_eq!(parse_info("vcthread 1"), Info::Ignored("vcthread".into()));
        assert_eq!(parse_info("max_node -1"), Info::MaxNode(0));
        assert_eq!(parse_info("max_node 50000"), Info::MaxNode(50_000));
        assert_eq!(parse_info("max_depth 225"), Info::MaxDepth(225));
        assert_eq!(parse_info("max_depth -3"), Info::MaxDepth(0));
        assert!(matches!(parse_info("max_node x"), Info::Invalid { .. }));
        assert!(matches!(parse_info("rule abc"), Info::Invalid { .. }));
        assert!(matches!(parse_info("thread_num 0"), Info::Invalid { .. }));
        assert!(matches!(parse_info("max_memory -1"), Info::Invalid { .. }));
        assert_eq!(parse_info(""), Info::Ignored(String::new()));
    }

    #[test]
    fn board_block_collects_stones() {
        let out = feed_all(&["BOARD", "7,7,1", "", "8,8,2\r", "9,9,3", "done"]);
        let stone = |x, y, field| StoneLine { x, y, field };
        assert_eq!(
            out,
            vec![Ok(Command::Board(vec![
                stone(7, 7, Field::Own),
                stone(8, 8, Field::Opponent),
                stone(9, 9, Field::Continuous),
            ]))]
        );
        assert_eq!(
            feed_all(&["yxboard", "DONE"]),
            vec![Ok(Command::YxBoard(vec![]))]
        );
    }

    #[test]
    fn bad_stone_line_fails_the_block_once() {
        let out = feed_all(&["BOARD", "7,7", "8,8,4", "DONE", "ABOUT"]);
        assert_eq!(out.len(), 2);
        assert!(out[0].is_err());
        assert_eq!(out[1], Ok(Command::About));
    }

    #[test]
    fn command_line_cuts_a_block_short() {
        let out = feed_all(&["BOARD", "7,7,1", "START 15"]);
        assert_eq!(out.len(), 2);
        assert!(out[0].is_err());
        assert_eq!(out[1], Ok(Command::Start(15)));
    }

    #[test]
    fn swap2board_is_read_whole() {
        let out = feed_all(&["SWAP2BOARD", "7,7", "8,8", "9,9,1", "DONE"]);
        assert_eq!(
            out,
            vec![Ok(Command::Swap2Board(vec![(7, 7), (8, 8), (9, 9)]))]
        );
        assert_eq!(
            feed_all(&["swap2board", "done"]),
            vec![Ok(Command::Swap2Board(Vec::new()))]
        );
        assert!(feed_all(&["SWAP2BOARD", "7;7", "DONE"])[0].is_err());
    }

    #[test]
    fn yixin_commands() {
        assert_eq!(parse("yxnbest 3"), Ok(Command::YxNbest(3)));
        assert_eq!(parse("YXNBEST 0"), Ok(Command::YxNbest(1)));
        assert!(parse("YXNBEST").is_err());
        assert!(parse("YXNBEST -2").is_err());
        assert!(parse("YXNBEST x").is_err());
        assert_eq!(parse("yxsearchdefend"), Ok(Command::YxSearchDefend));
        assert_eq!(parse("YxHashClear"), Ok(Command::YxHashClear));
        assert_eq!(parse("yxshowinfo"), Ok(Command::YxShowInfo));
        assert_eq!(parse("yxblockreset"), Ok(Command::YxBlockReset));
        assert!(parse("YXHASHCLEAR now").is_err());
        assert_eq!(
            feed_all(&["yxblock", "7,7", "8, 9,1", "done"]),
            vec![Ok(Command::YxBlock(vec![(7, 7), (8, 9)]))]
        );
        assert_eq!(
            feed_all(&["YXBLOCKUNDO", "7,7", "DONE"]),
            vec![Ok(Command::YxBlockUndo(vec![(7, 7)]))]
        );
        let bad = feed_all(&["YXBLOCK", "7", "DONE", "ABOUT"]);
        assert!(bad[0].is_err());
        assert_eq!(bad[1], Ok(Command::About));
    }

    #[test]
    fn echo_cuts_long_input_on_a_character_boundary() {
        assert_eq!(echo("short"), "short");
        let exact = "x".repeat(ECHO_MAX_CHARS);
        assert_eq!(echo(&exact), exact.as_str());
        let long = format!("{exact}yz");
        assert_eq!(echo(&long), format!("{exact}..."));
        let wide = "é".repeat(ECHO_MAX_CHARS + 1);
        assert_eq!(echo(&wide), format!("{}...", "é".repeat(ECHO_MAX_CHARS)));
        let ParseError(why) = parse(&format!("START {}", "9".repeat(1000))).unwrap_err();
        assert!(
            why.len() < 200 && why.ends_with("...' is not a whole number"),
            "{why}"
        );
    }

    #[test]
    fn interrupts() {
        assert!(is_interrupt("STOP"));
        assert!(is_interrupt("yxstop\r"));
        assert!(is_interrupt(" END "));
        assert!(is_interrupt("INFO timeout_turn 0"));
        assert!(!is_interrupt("INFO timeout_turn 1000"));
        assert!(!is_interrupt("TURN 1,1"));
        assert!(is_end("end"));
        assert!(!is_end("ENDX"));
    }
}
