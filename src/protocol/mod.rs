//! The Gomocup (Piskvork) protocol loop of `pbrain-lianzhu`; `protocol.md` at the top of the
//! repository describes every command and reply.
//!
//! Threads: a reader thread owns the input and forwards every line over an mpsc channel; the
//! calling thread owns the [`Engine`], runs the commands in order and thinks in place. While it
//! thinks, the reader itself reacts to `STOP`, `YXSTOP`, `END` and `INFO timeout_turn 0` by
//! setting the one shared stop flag, so a long search answers at once.
//!
//! Invariants:
//! - Commands are carried out and answered in the order received; a command that fails
//!   leaves the game as it was and is answered `ERROR <why>` (unknown ones `UNKNOWN <what>`).
//!   `INFO` is never answered except, for a value we refuse, by one `MESSAGE` line.
//! - Our reply move is legal ([`Engine::run`] checks every line it returns) and is played on our
//!   board before it is sent.
//! - `END` ends the session only after every command before it has been answered. From the
//!   moment the reader reads `END` (it reads nothing after it) every running or coming search
//!   stops at once, its move still sent; the main thread then reaches `END` and returns, and
//!   nothing more is written. If the main thread makes no progress for [`END_GRACE`] after
//!   `END` (stuck), the reader ends the process.
//! - At end of input the commands already received are carried out as usual, searches within
//!   their own time limits, and answered; then the loop ends (the process exits 0). There is
//!   no pondering after end of input.
//! - Nothing is written before the first command.
//! - Stop-flag handshake: the reader forwards a line *before* it sets the stop flag; the main
//!   thread clears the flag *before* it drains the channel at the start of a search, so an
//!   interrupt that arrives around that moment is never lost.
//! - Pondering (`INFO pondering 1`, off by default): after a move is sent the main thread
//!   searches on; any line stops it (same handshake, with the `pondering` flag that exactly
//!   one of the two threads takes back, see `Session::ponder`). Pondering writes nothing.
//! - Yixin-Board's `INFO ...` records and `MESSAGE REALTIME ...` lines appear only with
//!   `INFO show_detail` set (the writer enforces it); by default a move command writes only
//!   `MESSAGE` progress lines and the move.

pub mod command;
pub mod output;
mod yixin_opening;

use crate::engine::swap2::Swap2Answer;
use crate::engine::{
    Answer, Engine, EngineError, Line, Request, RootEvent, RootReport, ThinkEvent,
};
use crate::types::{Color, Pos, Rule};
use command::{Command, Field, Info, Parser, StoneLine};
use output::{Output, Realtime, Record};
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Progress `MESSAGE` lines a command may send at once: one per finished iteration of an
/// ordinary search (a 1 s search finishes about 12 to 16), so the budget only bites when
/// iterations come faster than a reader can follow (e.g. cheap iterations after a found win).
pub const REPORT_BURST: u32 = 20;
/// Progress lines the budget regains per second: any window of t seconds holds at most
/// `REPORT_BURST + REPORT_PER_SECOND * t` lines, so a long search never floods a log.
pub const REPORT_PER_SECOND: u32 = 4;
/// After `END`, the reader ends the process if the main thread has finished no input line
/// for this long: every search stops at once after `END`, so only a stuck thread (or a
/// machine too loaded to run it) takes longer; managers kill a brain 0.5 to 0.7 s after `END`.
pub const END_GRACE: Duration = Duration::from_secs(1);
/// Most search threads we offer Yixin-Board (`YXSHOWINFO`).
pub const GUI_MAX_THREADS: usize = crate::engine::MAX_THREADS;
/// log2 of the largest hash size in KiB we offer Yixin-Board (`YXSHOWINFO`): 2^18 KiB =
/// 256 MiB, what fits the default memory budget (`search::tt_bytes` caps `hash_size` at the
/// budget minus the overhead unless `max_memory` allows more).
pub const GUI_MAX_HASH_LOG2_KB: u32 = 18;
/// Realtime root-move lines (`show_detail` bit 1) start at this depth...
pub const REALTIME_MIN_DEPTH: u32 = 6;
/// ... and this many milliseconds into the search (as Rapfi does, to keep the output small).
pub const REALTIME_MIN_MS: u64 = 200;

/// What the reader thread forwards.
#[derive(Debug)]
enum Event {
    Line(String),
    Eof,
}

/// Flags shared by the reader and the main thread.
#[derive(Debug, Default)]
struct Signals {
    /// Asks a running search to return its best move now.
    stop: AtomicBool,
    /// Input has ended: no pondering any more (searches keep their own limits).
    closed: AtomicBool,
    /// The reader has read `END`: every search from now on stops at once; no pondering.
    end_read: AtomicBool,
    /// The main thread has carried out `END`: write nothing more.
    ended: Arc<AtomicBool>,
    /// Input lines the main thread has finished with (the `END` watchdog checks it moves).
    progress: AtomicU64,
    /// The main thread is pondering: the next line of any kind claims this flag (swaps it
    /// to false) and raises `stop`.
    pondering: AtomicBool,
}

/// What a move search is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// `BEGIN`, `TURN`, `BOARD`: one move.
    Move,
    /// `YXNBEST n`: the n best moves, then the best.
    Nbest(usize),
    /// `YXSEARCHDEFEND`: every answer to the opponent's threat, then the best.
    Defend,
}

/// Runs the protocol on stdin/stdout until `END` or end of input.
pub fn run(engine: Engine) {
    let signals = Arc::new(Signals::default());
    let (tx, rx) = mpsc::channel();
    let sig = Arc::clone(&signals);
    let spawned = thread::Builder::new()
        .name("stdin-reader".into())
        .spawn(move || read_input(io::stdin().lock(), &tx, &sig, true));
    if let Err(e) = spawned {
        log::error!("cannot start the reader thread: {e}");
        return;
    }
    let out = Output::stdout(Arc::clone(&signals.ended));
    Session::new(engine, out, rx, signals).run();
}

/// Runs the protocol on `input` and returns what was written to `sink` (for tests; no
/// process-ending watchdog).
pub fn run_with<R, W>(input: R, sink: W, engine: Engine) -> W
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let signals = Arc::new(Signals::default());
    let (tx, rx) = mpsc::channel();
    let sig = Arc::clone(&signals);
    let reader = thread::spawn(move || read_input(input, &tx, &sig, false));
    let out = Output::new(sink, Arc::clone(&signals.ended));
    let mut session = Session::new(engine, out, rx, signals);
    session.run();
    let _ = reader.join();
    session.out.into_inner()
}

/// The reader thread: forwards lines, raises the stop flag for interrupts, and (with
/// `watchdog`) ends the process if the main thread stops making progress after `END`.
fn read_input<R: BufRead>(mut input: R, tx: &Sender<Event>, sig: &Signals, watchdog: bool) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                log::warn!("cannot read input: {e}");
                break;
            }
        }
        let line = String::from_utf8_lossy(&buf).into_owned();
        if command::is_end(&line) {
            // Before the line is forwarded, so a search armed after it sees the flag.
            sig.end_read.store(true, SeqCst);
            let _ = tx.send(Event::Line(line));
            sig.pondering.store(false, SeqCst);
            sig.stop.store(true, SeqCst);
            if watchdog {
                end_watchdog(sig);
            }
            return;
        }
        let interrupt = command::is_interrupt(&line);
        if tx.send(Event::Line(line)).is_err() {
            return;
        }
        // Forward first, then claim a running ponder search (see Session::ponder).
        let ponder_hit = sig.pondering.swap(false, SeqCst);
        if interrupt || ponder_hit {
            sig.stop.store(true, SeqCst);
        }
    }
    let _ = tx.send(Event::Eof);
    sig.closed.store(true, SeqCst);
    // End of input stops pondering, not the searches of the commands already received.
    if sig.pondering.swap(false, SeqCst) {
        sig.stop.store(true, SeqCst);
    }
}

/// After `END`: ends the process once the main thread has finished no line for
/// [`END_GRACE`] (it returns, and the process exits, as soon as it reaches `END`).
fn end_watchdog(sig: &Signals) {
    let mut seen = sig.progress.load(SeqCst);
    loop {
        thread::sleep(END_GRACE);
        let now = sig.progress.load(SeqCst);
        if now == seen {
            log::warn!("main thread made no progress for {END_GRACE:?} after END; exiting");
            std::process::exit(0);
        }
        seen = now;
    }
}

/// The main-thread side: the engine, the parser and the output.
struct Session<W: Write> {
    engine: Engine,
    out: Output<W>,
    parser: Parser,
    rx: Receiver<Event>,
    pending: VecDeque<Event>,
    sig: Arc<Signals>,
}

impl<W: Write> Session<W> {
    fn new(engine: Engine, out: Output<W>, rx: Receiver<Event>, sig: Arc<Signals>) -> Self {
        Session {
            engine,
            out,
            parser: Parser::new(),
            rx,
            pending: VecDeque::new(),
            sig,
        }
    }

    fn run(&mut self) {
        loop {
            let event = match self.pending.pop_front() {
                Some(e) => e,
                None => match self.rx.recv() {
                    Ok(e) => e,
                    Err(_) => return,
                },
            };
            let Event::Line(line) = event else {
                return;
            };
            log::debug!("< {}", line.trim_end());
            for result in self.parser.feed(&line) {
                match result {
                    Ok(Command::End) => {
                        self.sig.ended.store(true, SeqCst);
                        return;
                    }
                    Ok(cmd) => self.execute(cmd),
                    Err(e) => self.out.error(&e.0),
                }
            }
            self.sig.progress.fetch_add(1, SeqCst);
        }
    }

    fn execute(&mut self, cmd: Command) {
        let result = match cmd {
            Command::Start(n) => self.engine.start(n, n).map(|()| self.out.ok()),
            Command::RectStart(w, h) => self.engine.start(w, h).map(|()| self.out.ok()),
            Command::Restart => self.engine.restart().map(|()| self.out.ok()),
            Command::Begin => self.engine_ready().map(|()| self.think_and_reply()),
            Command::Turn(x, y) => self
                .engine
                .pos(x, y)
                .and_then(|p| self.engine.play(p))
                .map(|()| self.think_and_reply()),
            Command::Board(stones) => {
                match self.set_board(&stones) {
                    Ok(()) => self.think_and_reply(),
                    Err(why) => self.out.error(&why),
                }
                Ok(())
            }
            Command::YxNbest(n) => self
                .engine_ready()
                .map(|()| self.search_and_reply(Mode::Nbest(n))),
            Command::YxSearchDefend => self
                .engine_ready()
                .map(|()| self.search_and_reply(Mode::Defend)),
            Command::YxShowInfo => {
                self.out.show_info(GUI_MAX_THREADS, GUI_MAX_HASH_LOG2_KB);
                Ok(())
            }
            Command::YxHashClear => {
                self.engine.clear_hash();
                self.out.message("hash table cleared");
                Ok(())
            }
            Command::YxBlock(points) => self.block_points(&points).map(|ps| self.engine.block(&ps)),
            Command::YxBlockUndo(points) => self
                .block_points(&points)
                .map(|ps| self.engine.unblock(&ps)),
            Command::YxBlockReset => self.engine_ready().map(|()| self.engine.reset_blocks()),
            Command::YxBoard(stones) => {
                if let Err(why) = self.set_board(&stones) {
                    self.out.error(&why);
                }
                Ok(())
            }
            Command::Swap2Board(points) => {
                self.swap2_reply(&points);
                Ok(())
            }
            Command::YxSwap2Step(step) => self.engine_ready().map(|()| self.yx_swap2_step(step)),
            Command::YxSoosorvStep { step, n, points } => self
                .engine_ready()
                .map(|()| self.yx_soosorv_step(step, n, &points)),
            Command::Info(info) => {
                self.apply_info(info);
                Ok(())
            }
            Command::About => {
                self.out.about();
                Ok(())
            }
            Command::Takeback(x, y) => self
                .engine
                .pos(x, y)
                .and_then(|p| self.engine.takeback(p))
                .map(|()| self.out.ok()),
            Command::Play(x, y) => self
                .engine
                .pos(x, y)
                .and_then(|p| self.engine.play(p).map(|()| p))
                .map(|p| self.out.mv(p)),
            // Idle: nothing to stop, nothing to answer. (END never gets here.)
            Command::Stop | Command::End => Ok(()),
            Command::YxShowForbid => {
                self.out.forbid(&self.engine.forbidden_points());
                Ok(())
            }
            Command::Unknown(word) => {
                let word = command::echo(&word);
                self.out
                    .unknown(&format!("{word} is not a supported command"));
                Ok(())
            }
        };
        if let Err(e) = result {
            self.out.error(&e.to_string());
        }
    }

    fn apply_info(&mut self, info: Info) {
        let mut new_rule = None;
        let o = &mut self.engine.options;
        match info {
            Info::TimeoutTurn(v) => o.timeout_turn_ms = v,
            Info::TimeoutMatch(v) => o.timeout_match_ms = v,
            Info::TimeLeft(v) => o.time_left_ms = v,
            Info::MaxMemory(v) => o.max_memory = v,
            Info::GameType(v) => o.game_type = v,
            Info::Rule(v) => match Rule::from_gomocup(v) {
                Some(rule) => new_rule = Some(rule),
                None => {
                    let why = format!("rule {v} is not supported; keeping rule {}", o.rule);
                    self.out.message(&why);
                }
            },
            Info::Evaluate(x, y) => o.evaluate = Some((x, y)),
            Info::Folder(f) => o.folder = Some(f),
            Info::ThreadNum(n) if n > crate::engine::MAX_THREADS => {
                o.threads = crate::engine::MAX_THREADS;
                self.out.message(&format!(
                    "thread_num {n} is more than {}; using {}",
                    o.threads, o.threads
                ));
            }
            Info::ThreadNum(n) => o.threads = n,
            Info::HashSize(kb) => o.hash_kb = Some(kb),
            Info::MaxNode(n) => o.max_nodes = n,
            Info::MaxDepth(d) => o.max_depth = d,
            Info::ShowDetail(bits) => self.out.set_show_detail(bits),
            Info::Pondering(on) => o.pondering = on,
            Info::Ignored(_) => {}
            Info::Invalid { key, why } => self.out.message(&format!(
                "INFO {key} ignored: {why}; keeping the previous value"
            )),
        }
        if let Some(rule) = new_rule {
            self.engine.set_rule(rule);
        }
    }

    /// Sets the position of a `BOARD`/`YXBOARD` block; the game is unchanged on error.
    fn set_board(&mut self, lines: &[StoneLine]) -> Result<(), String> {
        if self.engine.board().is_none() {
            return Err(EngineError::NoGame.to_string());
        }
        let (stones, to_move) = board_position(&self.engine, lines)?;
        self.engine
            .set_position(&stones, to_move)
            .map_err(|e| e.to_string())
    }

    /// `Ok` if a game is started.
    fn engine_ready(&self) -> Result<(), EngineError> {
        self.engine.board().map(|_| ()).ok_or(EngineError::NoGame)
    }

    /// The points of a `YXBLOCK`/`YXBLOCKUNDO` block, checked against the board (an error
    /// before `START`, even for an empty block).
    fn block_points(&self, points: &[(i64, i64)]) -> Result<Vec<Pos>, EngineError> {
        self.engine_ready()?;
        points.iter().map(|&(x, y)| self.engine.pos(x, y)).collect()
    }

    /// Chooses a move, plays it on our board and sends it (or `ERROR` if there is none).
    fn think_and_reply(&mut self) {
        self.search_and_reply(Mode::Move);
    }

    /// Clears the stop flag (unless `END` has been read), then looks at what is already
    /// queued (see module docs): a queued interrupt stops the coming search at once.
    fn arm_stop(&mut self) {
        let sig = &self.sig;
        sig.stop.store(sig.end_read.load(SeqCst), SeqCst);
        self.pending.extend(self.rx.try_iter());
        let queued_interrupt = self.pending.iter().any(|e| match e {
            Event::Line(l) => command::is_interrupt(l),
            Event::Eof => false,
        });
        if queued_interrupt {
            sig.stop.store(true, SeqCst);
        }
    }

    /// Answers a `SWAP2BOARD` block: `SWAP`, or the stones to add as `x,y` pairs on one line,
    /// decided by the search within the move's time; `ERROR` for bad stones. The game is not
    /// changed (the manager sends the opening with `BOARD` next).
    fn swap2_reply(&mut self, points: &[(i64, i64)]) {
        let stones: Result<Vec<Pos>, EngineError> =
            points.iter().map(|&(x, y)| self.engine.pos(x, y)).collect();
        let stones = match stones {
            Ok(s) => s,
            Err(e) => return self.out.error(&e.to_string()),
        };
        if let Some(a) = self.swap2_decision(&stones) {
            self.out.swap2(&a.protocol_text());
        }
    }

    /// The engine's Swap2 decision for `stones` (`SWAP2BOARD`, `yxswap2stepK`), or `None`
    /// after an `ERROR` line.
    fn swap2_decision(&mut self, stones: &[Pos]) -> Option<Swap2Answer> {
        self.arm_stop();
        match self
            .engine
            .run(Request::Swap2(stones), &self.sig.stop, &mut |_, _| {})
        {
            Ok(Answer::Swap2(a)) => Some(a),
            Ok(_) => {
                self.out.error("the engine gave no Swap2 answer");
                None
            }
            Err(e) => {
                self.out.error(&e.to_string());
                None
            }
        }
    }

    /// Searches as `mode` asks, reports as `show_detail` asks, plays the (first) move on our
    /// board and sends it; then ponders if `INFO pondering 1` asked for it.
    fn search_and_reply(&mut self, mode: Mode) {
        self.arm_stop();
        let result = match mode {
            Mode::Move => self.search_one(),
            Mode::Nbest(n) => self.search_lines(Request::Best(n)),
            Mode::Defend => self.search_lines(Request::Defend),
        };
        match result.and_then(|p| self.engine.play(p).map(|()| p)) {
            Ok(p) => {
                self.out.mv(p);
                self.ponder();
            }
            Err(e) => self.out.error(&e.to_string()),
        }
    }

    /// One move: a progress `MESSAGE` line per finished iteration within the
    /// [`LineBudget`], then one for the search's result unless the last line shown already
    /// was it (same depth and PV), so the last line always names the move played (and, if
    /// asked, a detail record with each line and realtime lines).
    fn search_one(&mut self) -> Result<Pos, EngineError> {
        let (out, sig) = (&mut self.out, &self.sig);
        let started = Instant::now();
        let mut budget = LineBudget::new(REPORT_BURST, REPORT_PER_SECOND, started);
        let mut shown: Option<(u32, Vec<Pos>)> = None;
        let mut last: Option<Line> = None;
        let answer = self
            .engine
            .run(Request::Move, &sig.stop, &mut |_, event| match event {
                ThinkEvent::Iteration(r) => {
                    if budget.take(Instant::now()) {
                        shown = Some((r.depth, r.pv.clone()));
                        out.report(r, None);
                        out.record(&Record {
                            index: 0,
                            count: 1,
                            depth: r.depth,
                            seldepth: r.seldepth,
                            score: r.score,
                            nodes: r.nodes,
                            total_nodes: r.nodes,
                            total_ms: started.elapsed().as_millis() as u64,
                            pv: &r.pv,
                        });
                    }
                }
                ThinkEvent::Root(r) => realtime(out, r),
                ThinkEvent::Line(l) => {
                    // A line decided before the search (depth 0) has no progress line.
                    let depth = l.depth.max(0) as u32;
                    if depth > 0 && shown.as_ref() != Some(&(depth, l.pv.clone())) {
                        out.line_result(l, None);
                    }
                    last = Some(l.clone());
                }
            });
        if let Some(l) = &last {
            self.out.record(&Record {
                index: 0,
                count: 1,
                depth: l.depth.max(0) as u32,
                seldepth: l.seldepth.max(0) as u32,
                score: l.score,
                nodes: l.nodes,
                total_nodes: l.nodes,
                total_ms: started.elapsed().as_millis() as u64,
                pv: &l.pv,
            });
        }
        answer.and_then(|a| a.best().ok_or(EngineError::NoMove))
    }

    /// The best moves (`Best` or `Defend`): per line, progress `MESSAGE` lines with `multipv`
    /// (one per iteration within one [`LineBudget`] for the whole command), one more for the
    /// line's result, and (if asked) detail records and, for the first line, realtime lines.
    fn search_lines(&mut self, request: Request<'_>) -> Result<Pos, EngineError> {
        // Asked as `Best(count)`: the engine would count a `Defend` request's lines again.
        let count = self.engine.line_count(&request)?;
        let (out, sig) = (&mut self.out, &self.sig);
        let started = Instant::now();
        let mut budget = LineBudget::new(REPORT_BURST, REPORT_PER_SECOND, started);
        let mut done_nodes = 0u64;
        let answer = self.engine.run(
            Request::Best(count),
            &sig.stop,
            &mut |i, event| match event {
                ThinkEvent::Iteration(r) => {
                    if budget.take(Instant::now()) {
                        out.report(r, Some(i + 1));
                        out.record(&Record {
                            index: i,
                            count,
                            depth: r.depth,
                            seldepth: r.seldepth,
                            score: r.score,
                            nodes: r.nodes,
                            total_nodes: done_nodes + r.nodes,
                            total_ms: started.elapsed().as_millis() as u64,
                            pv: &r.pv,
                        });
                    }
                }
                ThinkEvent::Root(r) if i == 0 => realtime(out, r),
                ThinkEvent::Root(_) => {}
                ThinkEvent::Line(l) => {
                    done_nodes += l.nodes;
                    out.line_result(l, Some(i + 1));
                    out.record(&Record {
                        index: i,
                        count,
                        depth: l.depth.max(0) as u32,
                        seldepth: l.seldepth.max(0) as u32,
                        score: l.score,
                        nodes: l.nodes,
                        total_nodes: done_nodes,
                        total_ms: started.elapsed().as_millis() as u64,
                        pv: &l.pv,
                    });
                }
            },
        );
        answer.and_then(|a| a.best().ok_or(EngineError::NoMove))
    }

    /// Thinks on the opponent's time if `INFO pondering 1` asked for it, until the next line
    /// arrives (any line stops it), then returns; writes nothing.
    ///
    /// Handshake with the reader: `pondering` is raised before the channel is drained, and
    /// the reader forwards a line before it swaps `pondering` to false and raises `stop`. So
    /// a line either is seen in the drain (no pondering) or stops the search. Exactly one of
    /// the two threads takes `pondering` back; if the reader did, its `stop` store follows at
    /// once and is awaited here, so it cannot land in the next search.
    fn ponder(&mut self) {
        let sig = Arc::clone(&self.sig);
        if !self.engine.options.pondering || sig.closed.load(SeqCst) || sig.end_read.load(SeqCst) {
            return;
        }
        sig.stop.store(false, SeqCst);
        sig.pondering.store(true, SeqCst);
        self.pending.extend(self.rx.try_iter());
        if self.pending.is_empty() && !sig.stop.load(SeqCst) {
            log::debug!("pondering");
            let _ = self.engine.run(Request::Ponder, &sig.stop, &mut |_, _| {});
        }
        if !sig.pondering.swap(false, SeqCst) {
            while !sig.stop.load(SeqCst) {
                thread::yield_now();
            }
        }
    }
}

/// Sends the realtime line for a root event, from [`REALTIME_MIN_DEPTH`] and
/// [`REALTIME_MIN_MS`] on (the `REFRESH`/`BEST` pair after an iteration needs only the depth).
fn realtime<W: Write>(out: &mut Output<W>, r: &RootReport) {
    if r.depth < REALTIME_MIN_DEPTH {
        return;
    }
    let in_loop = r.time_ms >= REALTIME_MIN_MS;
    match r.event {
        RootEvent::Enter(p) if in_loop => out.realtime(Realtime::Pos(p)),
        RootEvent::Leave(p) if in_loop => out.realtime(Realtime::Done(p)),
        RootEvent::Best(p) if in_loop => out.realtime(Realtime::Best(p)),
        RootEvent::Lost(p) if in_loop => out.realtime(Realtime::Lost(p)),
        RootEvent::Completed(p) => {
            out.realtime(Realtime::Refresh);
            out.realtime(Realtime::Best(p));
        }
        _ => {}
    }
}

/// A token bucket for output lines: it starts with `burst` lines and regains `per_second`
/// lines a second up to `burst`, so any window of t seconds lets at most
/// `burst + per_second * t` lines through.
#[derive(Debug)]
pub struct LineBudget {
    burst: f64,
    per_second: f64,
    tokens: f64,
    last: Instant,
}

impl LineBudget {
    /// A full bucket at `now`.
    pub fn new(burst: u32, per_second: u32, now: Instant) -> Self {
        LineBudget {
            burst: f64::from(burst),
            per_second: f64::from(per_second),
            tokens: f64::from(burst),
            last: now,
        }
    }

    /// True (and one line is spent) if a line fits the budget at `now`.
    pub fn take(&mut self, now: Instant) -> bool {
        let gained = now.saturating_duration_since(self.last).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + gained).min(self.burst);
        self.last = self.last.max(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// The stones and side to move of a `BOARD`/`YXBOARD` block.
///
/// Field 1 is the side to move, 2 its opponent. Black is the side to move when both have as
/// many stones, the opponent when it has one stone more, and otherwise the side of the first
/// stone listed. Stones keep the order given. Field 3 (continuous-game stones) is refused: we
/// do not play the continuous game, and treating such a stone as either colour would be wrong.
pub fn board_position(
    engine: &Engine,
    lines: &[StoneLine],
) -> Result<(Vec<(Pos, Color)>, Color), String> {
    if lines.iter().any(|s| s.field == Field::Continuous) {
        return Err("field 3 (continuous-game stone) is not supported".into());
    }
    let own = lines.iter().filter(|s| s.field == Field::Own).count();
    let opp = lines.len() - own;
    let own_is_black = if own == opp {
        true
    } else if opp == own + 1 {
        false
    } else {
        lines[0].field == Field::Own
    };
    let to_move = if own_is_black {
        Color::Black
    } else {
        Color::White
    };
    let stones = lines
        .iter()
        .map(|s| {
            let p = engine.pos(s.x, s.y).map_err(|e| e.to_string())?;
            let c = match s.field {
                Field::Own => to_move,
                _ => to_move.opponent(),
            };
            Ok((p, c))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok((stones, to_move))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn session(input: &str) -> String {
        let out = run_with(Cursor::new(input.to_string()), Vec::new(), Engine::new());
        String::from_utf8(out).unwrap()
    }

    fn stones(list: &[(i64, i64, Field)]) -> Vec<StoneLine> {
        list.iter()
            .map(|&(x, y, field)| StoneLine { x, y, field })
            .collect()
    }

    #[test]
    fn side_to_move_from_counts() {
        let mut e = Engine::new();
        e.start(15, 15).unwrap();
        let (own, opp) = (Field::Own, Field::Opponent);
        let cases = [
            (stones(&[]), Color::Black),
            (stones(&[(1, 1, own), (2, 2, opp)]), Color::Black),
            (stones(&[(1, 1, opp)]), Color::White),
            (
                stones(&[(1, 1, opp), (2, 2, own), (3, 3, opp)]),
                Color::White,
            ),
            (
                stones(&[(1, 1, own), (2, 2, own), (3, 3, own)]),
                Color::Black,
            ),
            (
                stones(&[(1, 1, opp), (2, 2, own), (3, 3, own)]),
                Color::White,
            ),
            (
                stones(&[(1, 1, own), (2, 2, opp), (3, 3, opp), (4, 4, opp)]),
                Color::Black,
            ),
        ];
        for (lines, want) in cases {
            let (placed, to_move) = board_position(&e, &lines).unwrap();
            assert_eq!(to_move, want, "{lines:?}");
            for (s, (p, c)) in lines.iter().zip(&placed) {
                assert_eq!((p.x() as i64, p.y() as i64), (s.x, s.y));
                assert_eq!(*c == to_move, s.field == Field::Own);
            }
        }
        assert!(board_position(&e, &stones(&[(1, 1, Field::Continuous)])).is_err());
        assert!(board_position(&e, &stones(&[(15, 1, Field::Own)])).is_err());
    }

    #[test]
    fn in_process_session() {
        // End of input: the search still runs with its own limit (100 ms) and answers.
        let text =
            session("ABOUT\nSTART 15\r\nINFO rule 4\nINFO timeout_turn 100\nBOARD\n7,7,2\nDONE\n");
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with("MESSAGE "))
            .collect();
        assert!(lines[0].starts_with("name=\"Lianzhu\""));
        assert_eq!(lines[1], "OK");
        assert_eq!(lines.len(), 3, "{text}");
        let (x, y) = lines[2].split_once(',').unwrap();
        let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
        assert!(x < 15 && y < 15 && (x, y) != (7, 7));
    }

    #[test]
    fn a_huge_thread_num_is_capped() {
        let t = Instant::now();
        let text = session("INFO thread_num 100000\nSTART 9\nINFO timeout_turn 50\nTURN 4,4\n");
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with("MESSAGE depth"))
            .collect();
        assert_eq!(
            lines[0],
            "MESSAGE thread_num 100000 is more than 64; using 64"
        );
        assert_eq!(lines[1], "OK");
        assert!(lines[2].contains(','), "{text}");
        assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    }

    #[test]
    fn empty_block_commands_before_start_are_errors() {
        let text =
            session("YXBLOCK\nDONE\nYXBLOCKUNDO\nDONE\nYXBLOCKRESET\nSTART 9\nYXBLOCK\nDONE\n");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(
            lines[..3]
                .iter()
                .all(|l| l.starts_with("ERROR no game started")),
            "{text}"
        );
        assert_eq!(lines[3], "OK");
    }

    #[test]
    fn extreme_time_values_still_give_moves() {
        // The clock's arithmetic overflowed on these (a panic where overflow is checked).
        let text = session(
            "START 15\nINFO timeout_match 5000\nINFO time_left -9223372036854775808\n\
             INFO timeout_turn 100\nBEGIN\nTURN 8,8\nINFO time_left 9223372036854775807\n\
             INFO timeout_turn 9223372036854775807\nINFO max_depth 2\nTURN 9,9\n",
        );
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with("MESSAGE "))
            .collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert_eq!(lines[..2], ["OK", "7,7"]);
        assert!(lines[2..].iter().all(|l| l.contains(',')), "{text}");
    }

    #[test]
    fn line_budget_lets_a_burst_then_a_few_lines_a_second_through() {
        let t0 = Instant::now();
        let ms = |m: u64| t0 + Duration::from_millis(m);
        let mut budget = LineBudget::new(20, 4, t0);
        // A burst at once: exactly 20 lines.
        assert_eq!((0..100).filter(|_| budget.take(t0)).count(), 20);
        // Then one line per 250 ms: attempts every millisecond for 1.1 s give 4.
        assert_eq!((1..=1100).filter(|&i| budget.take(ms(i))).count(), 4);
        // A quiet minute refills the bucket to the burst, not beyond.
        let later = 61_000;
        assert_eq!((0..100).filter(|_| budget.take(ms(later))).count(), 20);
        // One line every 300 ms (slower than the refill) always passes.
        assert!((1..=50).all(|i| budget.take(ms(later + 300 * i))));
    }

    fn wait_for(flag: &AtomicBool) -> bool {
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(5) {
            if flag.load(SeqCst) {
                return true;
            }
            thread::sleep(Duration::from_millis(1));
        }
        false
    }

    #[test]
    fn reader_raises_the_stop_flag_for_interrupts() {
        let (pipe_out, mut pipe_in) = io::pipe().unwrap();
        let sig = Arc::new(Signals::default());
        let (tx, rx) = mpsc::channel();
        let s = Arc::clone(&sig);
        let reader =
            thread::spawn(move || read_input(io::BufReader::new(pipe_out), &tx, &s, false));
        let line = |rx: &Receiver<Event>| match rx.recv_timeout(Duration::from_secs(5)) {
            Ok(Event::Line(l)) => l,
            other => panic!("expected a line, got {other:?}"),
        };
        pipe_in.write_all(b"TURN 1,1\r\n").unwrap();
        assert_eq!(line(&rx), "TURN 1,1\r\n");
        assert!(!sig.stop.load(SeqCst));
        for interrupt in ["yxstop\n", "STOP\n", "INFO timeout_turn 0\n"] {
            sig.stop.store(false, SeqCst);
            pipe_in.write_all(interrupt.as_bytes()).unwrap();
            assert!(wait_for(&sig.stop), "{interrupt}");
            assert_eq!(line(&rx), interrupt);
        }
        sig.stop.store(false, SeqCst);
        pipe_in.write_all(b"INFO timeout_turn 5000\nEND\n").unwrap();
        assert_eq!(line(&rx), "INFO timeout_turn 5000\n");
        assert!(wait_for(&sig.end_read));
        assert!(sig.stop.load(SeqCst));
        reader.join().unwrap();
        assert!(!sig.closed.load(SeqCst), "END is not end of input");
    }

    #[test]
    fn reader_reports_end_of_input() {
        let (pipe_out, pipe_in) = io::pipe().unwrap();
        let sig = Arc::new(Signals::default());
        let (tx, rx) = mpsc::channel();
        let s = Arc::clone(&sig);
        let reader =
            thread::spawn(move || read_input(io::BufReader::new(pipe_out), &tx, &s, false));
        drop(pipe_in);
        reader.join().unwrap();
        assert!(matches!(rx.recv().unwrap(), Event::Eof));
        assert!(sig.closed.load(SeqCst));
        assert!(
            !sig.stop.load(SeqCst),
            "end of input does not stop the searches of the commands received"
        );
        assert!(!sig.end_read.load(SeqCst));
    }

    #[test]
    fn nothing_after_end() {
        let text = session("END\nSTART 15\nABOUT\n");
        assert_eq!(text, "");
    }

    #[test]
    fn eof_answers_what_was_received() {
        let text = session("START 9\nBEGIN");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines, ["OK", "4,4"]);
    }
}
