//! The board's one session: the game, the settings, the engine process and what it said.
//!
//! The engine is told the whole position for every request (`BOARD` for a move, `YXBOARD`
//! before `YXSHOWFORBID` and `YXNBEST`), so undo, new games and pasted positions need no
//! engine state. Every change of the position bumps `version`; each request records the
//! version it was for in a queue of expected answers (the engine answers in order), and an
//! answer for an older version is dropped. A search for an old version is stopped with
//! `YXSTOP` (engines that know the Yixin-Board commands) or left to finish.
//!
//! The page polls `GET /api/state`; each poll is a heartbeat. If no page has polled for
//! [`HEARTBEAT`], or the page says goodbye (`/api/bye` when the tab closes), a running search
//! is stopped.
//!
//! `engine_io` starts the engine and handles each line it writes; `view` is the page's JSON.

mod engine_io;
mod view;

use crate::engine::EngineProc;
use crate::game::{Game, Pt, Refused};
use crate::vcf::{self, VcfAnswer};
use lianzhu::types::{Color, Rule};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, Weak};
use std::thread;
use std::time::{Duration, Instant};

/// A search is stopped when no page has asked for the state for this long.
pub const HEARTBEAT: Duration = Duration::from_secs(3);
/// How long the engine may take to answer `ABOUT` and `START`.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);
/// An engine that has not answered the first `YXSHOWFORBID` by then does not know the
/// Yixin-Board commands (it may ignore unknown commands rather than answer `UNKNOWN`).
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(2);
/// `INFO time_left` meaning "no match clock".
const NO_MATCH_CLOCK: &str = "2147483647";

/// The session shared by the HTTP loop, the engine's reader thread and the watchdog.
pub type Shared = Arc<Mutex<Session>>;

/// Who plays what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The user plays black, the engine white.
    Black,
    /// The user plays white, the engine black.
    White,
    /// The user places stones for both sides and the engine analyses every position.
    Analysis,
}

impl Mode {
    /// Reads `black`, `white` or `analysis`.
    pub fn parse(text: &str) -> Option<Mode> {
        match text {
            "black" => Some(Mode::Black),
            "white" => Some(Mode::White),
            "analysis" => Some(Mode::Analysis),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Mode::Black => "black",
            Mode::White => "white",
            Mode::Analysis => "analysis",
        }
    }

    /// The engine's colour in a game against the user.
    fn engine_color(self) -> Option<Color> {
        match self {
            Mode::Black => Some(Color::White),
            Mode::White => Some(Color::Black),
            Mode::Analysis => None,
        }
    }
}

/// The user's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Who plays what.
    pub mode: Mode,
    /// The engine's time per move in a game (ms).
    pub move_ms: u64,
    /// The time of one analysis (ms), shared by its n lines.
    pub analysis_ms: u64,
    /// The number of best moves an analysis lists.
    pub nbest: usize,
}

/// Limits the page may set.
pub const MOVE_MS: std::ops::RangeInclusive<u64> = 50..=600_000;
/// Limits of the n-best count.
pub const NBEST: std::ops::RangeInclusive<usize> = 1..=10;

/// An answer the engine owes, and the position version it is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    About,
    Start,
    /// The first `YXSHOWFORBID`: does the engine speak the Yixin-Board commands?
    Probe,
    Forbid(u64),
    Move(u64),
    Analysis(u64),
}

/// One line of the search's output (one per `multipv`).
#[derive(Clone, Debug, Default)]
struct Line {
    depth: String,
    ev: String,
    winrate: Option<f64>,
    nodes: u64,
    ms: u64,
    pv: Vec<String>,
}

/// What the engine is doing for the current position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Thinking {
    Move,
    Analysis,
}

/// Static facts about the engine.
#[derive(Clone, Debug, Default)]
struct EngineInfo {
    name: Option<String>,
    /// `Some(true)` once the engine answered `YXSHOWFORBID`, `Some(false)` if it refused it.
    yx: Option<bool>,
    /// The engine's program, when it is Lianzhu (for `solve`).
    solver: Option<String>,
    error: Option<String>,
}

/// The session.
pub struct Session {
    me: Weak<Mutex<Session>>,
    engine_cmd: Vec<String>,
    engine: Option<EngineProc>,
    /// Counts engine processes, so a dead one's last lines are told apart.
    generation: u64,
    info: EngineInfo,
    engine_size: Option<usize>,
    queue: VecDeque<(Expect, Instant)>,
    game: Game,
    version: u64,
    settings: Settings,
    thinking: Option<Thinking>,
    /// `YXSTOP` was sent for the current search.
    stop_sent: bool,
    lines: Vec<Line>,
    /// The detail record being read (`INFO PV k`).
    record: Option<usize>,
    realtime_pos: Option<Pt>,
    realtime_best: Option<Pt>,
    forbid: Option<Vec<Pt>>,
    vcf: Option<[VcfAnswer; 2]>,
    message: (u64, String),
    last_seen: Instant,
}

impl Session {
    /// A session with an empty renju board, the user playing black; the engine starts with
    /// the first game.
    pub fn new(engine_cmd: Vec<String>) -> Shared {
        Arc::new_cyclic(|me| {
            Mutex::new(Session {
                me: me.clone(),
                engine_cmd,
                engine: None,
                generation: 0,
                info: EngineInfo::default(),
                engine_size: None,
                queue: VecDeque::new(),
                game: Game::new(Rule::Renju, 15).expect("15 is an offered size"),
                version: 0,
                settings: Settings {
                    mode: Mode::Black,
                    move_ms: 1000,
                    analysis_ms: 5000,
                    nbest: 3,
                },
                thinking: None,
                stop_sent: false,
                lines: Vec::new(),
                record: None,
                realtime_pos: None,
                realtime_best: None,
                forbid: None,
                vcf: None,
                message: (0, String::new()),
                last_seen: Instant::now(),
            })
        })
    }

    /// The board side of the game.
    pub fn board_size(&self) -> usize {
        self.game.size()
    }

    /// The settings.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    fn say(&mut self, text: impl Into<String>) {
        let text = text.into();
        log::info!("{text}");
        self.message = (self.message.0 + 1, text);
    }

    // ----- requests from the page -----

    /// A heartbeat: a page is open.
    pub fn seen(&mut self) {
        self.last_seen = Instant::now();
    }

    /// The page was closed: stop searching.
    pub fn bye(&mut self) {
        self.last_seen = Instant::now() - HEARTBEAT * 2;
        if self.move_now() {
            self.say("search stopped: the page was closed");
        }
    }

    /// A new game (same engine; it is started if it is not running).
    pub fn new_game(&mut self, rule: Rule, size: usize) -> Result<(), Refused> {
        let game = Game::new(rule, size)?;
        self.abandon_search();
        self.game = game;
        if self.engine.is_none() {
            self.info.error = None;
        }
        // Started (or restarted) now, so an engine that cannot run is reported at once.
        self.ensure_engine();
        self.position_changed();
        Ok(())
    }

    /// Changes the settings; a new mode takes effect at once (the engine moves if it is now
    /// its turn, an analysis starts or stops).
    pub fn set(&mut self, settings: Settings) {
        let mode_changed = settings.mode != self.settings.mode;
        self.settings = settings;
        if mode_changed {
            self.abandon_search();
            self.position_changed();
        }
    }

    /// The user clicked `pt`.
    pub fn play(&mut self, pt: Pt) -> Result<(), Refused> {
        if self.engine_to_move() {
            return Err(Refused(if self.thinking == Some(Thinking::Move) {
                "wait: the engine is thinking".into()
            } else {
                "it is the engine's turn".into()
            }));
        }
        self.game.play(pt)?;
        self.abandon_search();
        self.position_changed();
        Ok(())
    }

    /// Takes back the last move, and in a game also the engine's answer before it, so it is
    /// the user's turn again.
    pub fn undo(&mut self) -> Result<(), Refused> {
        if self.game.moves().is_empty() {
            return Err(Refused("there is no move to take back".into()));
        }
        self.abandon_search();
        self.game.undo();
        if let Some(engine) = self.settings.mode.engine_color() {
            if self.game.to_move() == engine && !self.game.moves().is_empty() {
                self.game.undo();
            }
        }
        self.position_changed();
        Ok(())
    }

    /// Replaces the game by a pasted move list (same rule and size).
    pub fn set_position(&mut self, text: &str) -> Result<(), Refused> {
        let game = Game::from_text(self.game.rule(), self.game.size(), text)?;
        self.abandon_search();
        self.game = game;
        self.position_changed();
        Ok(())
    }

    /// Starts an analysis of the current position (also outside analysis mode).
    pub fn analyze(&mut self) -> Result<(), Refused> {
        if !self.game.is_ongoing() {
            return Err(Refused("the game is over: nothing to analyse".into()));
        }
        if self.engine_to_move() {
            return Err(Refused("wait for the engine's move (or press Stop)".into()));
        }
        self.abandon_search();
        self.new_search_state();
        self.request_analysis();
        self.request_vcf();
        Ok(())
    }

    /// Stops the search: the engine answers at once (in a game, its move is played).
    pub fn stop(&mut self) {
        self.move_now();
    }

    // ----- what a change of position sets off -----

    fn engine_to_move(&self) -> bool {
        self.game.is_ongoing() && self.settings.mode.engine_color() == Some(self.game.to_move())
    }

    fn new_search_state(&mut self) {
        self.lines.clear();
        self.record = None;
        self.realtime_pos = None;
        self.realtime_best = None;
    }

    fn position_changed(&mut self) {
        self.version += 1;
        self.new_search_state();
        self.forbid = None;
        self.vcf = None;
        if !self.game.is_ongoing() {
            return;
        }
        if self.game.rule() == Rule::Renju {
            self.request_forbid();
        }
        if self.settings.mode == Mode::Analysis {
            self.request_analysis();
            self.request_vcf();
        } else if self.engine_to_move() {
            self.request_move();
        }
    }

    /// The position as `BOARD`/`YXBOARD` lines: 1 = the side to move, 2 = the other.
    fn position_lines(&self, opener: &str) -> Vec<String> {
        let to_move = self.game.to_move();
        let mut lines = vec![opener.to_string()];
        for (i, p) in self.game.moves().iter().enumerate() {
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let field = if color == to_move { 1 } else { 2 };
            lines.push(format!("{},{},{field}", p.x, p.y));
        }
        lines.push("DONE".into());
        lines
    }

    fn request_forbid(&mut self) {
        if !self.ensure_engine() || self.info.yx == Some(false) {
            return;
        }
        let mut lines = self.position_lines("YXBOARD");
        lines.push("YXSHOWFORBID".into());
        self.send(&lines, Some(Expect::Forbid(self.version)));
    }

    fn request_move(&mut self) {
        if !self.ensure_engine() {
            return;
        }
        let mut lines = vec![format!("INFO timeout_turn {}", self.settings.move_ms)];
        lines.extend(self.position_lines("BOARD"));
        if self.send(&lines, Some(Expect::Move(self.version))) {
            self.thinking = Some(Thinking::Move);
            self.stop_sent = false;
        }
    }

    fn request_analysis(&mut self) {
        if !self.ensure_engine() {
            return;
        }
        let mut lines = vec![format!("INFO timeout_turn {}", self.settings.analysis_ms)];
        if self.info.yx != Some(true) {
            // No YXNBEST: a plain search, whose move is not played.
            lines.extend(self.position_lines("BOARD"));
        } else {
            lines.extend(self.position_lines("YXBOARD"));
            lines.push(format!("YXNBEST {}", self.settings.nbest));
        }
        if self.send(&lines, Some(Expect::Analysis(self.version))) {
            self.thinking = Some(Thinking::Analysis);
            self.stop_sent = false;
        }
    }

    fn request_vcf(&mut self) {
        let Some(solver) = self.info.solver.clone() else {
            return;
        };
        let (game, version, me) = (self.game.clone(), self.version, self.me.clone());
        let spawned = thread::Builder::new().name("vcf".into()).spawn(move || {
            let answers = vcf::solve_both(&solver, &game);
            if let Some(shared) = me.upgrade() {
                if let Ok(mut s) = shared.lock() {
                    if s.version == version {
                        s.vcf = Some(answers);
                    }
                }
            }
        });
        if let Err(e) = spawned {
            log::warn!("no VCF thread: {e}");
        }
    }

    /// Leaves the current search (the position changed): its answer will be dropped.
    fn abandon_search(&mut self) {
        if self.thinking.take().is_some() {
            self.send_stop();
        }
    }

    /// Asks for the answer now: a game's move is played, an analysis ends with its lines.
    fn move_now(&mut self) -> bool {
        self.thinking.is_some() && self.send_stop()
    }

    /// `YXSTOP`, once per search, to engines that know it.
    fn send_stop(&mut self) -> bool {
        if self.stop_sent || self.info.yx == Some(false) {
            return false;
        }
        self.stop_sent = true;
        self.send(&["YXSTOP".to_string()], None)
    }

    /// Called every few hundred ms: stops a search nobody watches, gives up an engine that
    /// does not answer `START`.
    pub fn tick(&mut self) {
        if self.last_seen.elapsed() > HEARTBEAT && self.move_now() {
            self.say("search stopped: the page stopped asking (closed or hidden)");
        }
        match self.queue.front() {
            Some(&(Expect::Probe, sent)) if sent.elapsed() > PROBE_TIMEOUT => {
                // Silence: an engine that ignores the commands it does not know.
                self.queue.pop_front();
                self.info.yx = Some(false);
            }
            Some(&(e @ (Expect::About | Expect::Start), sent))
                if sent.elapsed() > START_TIMEOUT =>
            {
                let command = if e == Expect::About { "ABOUT" } else { "START" };
                self.engine_failed(format!(
                    "the engine did not answer {command} within {} s",
                    START_TIMEOUT.as_secs()
                ));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_engine() -> Shared {
        Session::new(vec!["/nonexistent/pbrain-engine".into()])
    }

    #[test]
    fn an_engine_that_cannot_start_is_reported_and_play_goes_on() {
        let shared = no_engine();
        let mut s = shared.lock().unwrap();
        s.new_game(Rule::Renju, 15).unwrap();
        let state = s.state_json().to_string();
        assert!(state.contains(r#""state":"failed""#), "{state}");
        assert!(
            state.contains("the engine could not be started (/nonexistent/pbrain-engine)"),
            "{state}"
        );
        // Analysis mode needs no engine to place stones.
        let mut settings = s.settings();
        settings.mode = Mode::Analysis;
        s.set(settings);
        s.play(Pt { x: 7, y: 7 }).unwrap();
        s.play(Pt { x: 8, y: 8 }).unwrap();
        assert!(s
            .state_json()
            .to_string()
            .contains(r#""moves":["h8","i9"]"#));
        s.undo().unwrap();
        assert!(s.state_json().to_string().contains(r#""moves":["h8"]"#));
    }

    #[test]
    fn undo_in_a_game_goes_back_to_the_users_turn() {
        let shared = no_engine();
        let mut s = shared.lock().unwrap();
        s.set_position("h8 i9 h10").unwrap();
        // The user plays black: after h8 i9 h10 it is white's (the engine's) turn.
        assert!(s
            .play(Pt { x: 0, y: 0 })
            .unwrap_err()
            .0
            .contains("engine's turn"));
        s.undo().unwrap();
        assert_eq!(s.game.moves().len(), 2);
        s.undo().unwrap();
        assert_eq!(s.game.moves().len(), 0);
        assert!(s.undo().is_err());
    }

    /// A brain that answers `ABOUT`, `START` and `YXSHOWFORBID` at once and "thinks" about a
    /// `BOARD` until `YXSTOP`, then plays `n,0` (n = 0, 1, ...).
    const FAKE_ENGINE: &str = r#"n=0; block=""; waiting=0
while IFS= read -r line; do
  case "$line" in
    ABOUT) echo 'name="Fake", version="1"' ;;
    START*) echo OK ;;
    YXSHOWFORBID) echo 'FORBID .' ;;
    BOARD) block=board ;;
    YXBOARD) block=yx ;;
    DONE) if [ "$block" = board ]; then waiting=1; fi; block="" ;;
    YXSTOP) if [ "$waiting" = 1 ]; then echo "$n,0"; n=$((n+1)); waiting=0; fi ;;
    END) exit 0 ;;
  esac
done"#;

    fn wait_until(shared: &Shared, what: &str, ok: impl Fn(&Session) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if ok(&shared.lock().unwrap()) {
                return;
            }
            assert!(Instant::now() < deadline, "waited 5 s for {what}");
            thread::sleep(Duration::from_millis(10));
        }
    }

    fn moves(s: &Session) -> Vec<String> {
        s.game.moves().iter().map(Pt::to_string).collect()
    }

    #[test]
    fn stop_plays_the_move_and_answers_for_a_left_position_are_dropped() {
        let shared = Session::new(vec!["sh".into(), "-c".into(), FAKE_ENGINE.into()]);
        shared
            .lock()
            .unwrap()
            .new_game(Rule::Freestyle, 15)
            .unwrap();
        wait_until(&shared, "the engine's YXSHOWFORBID answer", |s| {
            s.info.yx == Some(true)
        });
        {
            let mut s = shared.lock().unwrap();
            assert_eq!(s.info.name.as_deref(), Some("Fake 1"));
            assert_eq!(s.info.solver, None, "only Lianzhu proves VCFs");
            s.play(Pt { x: 7, y: 7 }).unwrap();
            assert_eq!(s.thinking, Some(Thinking::Move));
            let busy = s.play(Pt { x: 8, y: 8 }).unwrap_err().0;
            assert_eq!(busy, "wait: the engine is thinking");
            s.stop();
        }
        wait_until(&shared, "the engine's move a1", |s| {
            moves(s) == ["h8", "a1"]
        });
        {
            let mut s = shared.lock().unwrap();
            assert_eq!(s.thinking, None);
            s.play(Pt { x: 8, y: 8 }).unwrap();
            s.undo().unwrap();
            assert_eq!(moves(&s), ["h8", "a1"]);
        }
        // The fake answered the abandoned search with b1, which must not be played.
        wait_until(&shared, "the stale answer", |s| s.queue.is_empty());
        assert_eq!(moves(&shared.lock().unwrap()), ["h8", "a1"]);
        // A page that stops polling: the heartbeat asks for the move.
        {
            let mut s = shared.lock().unwrap();
            s.play(Pt { x: 8, y: 8 }).unwrap();
            s.last_seen = Instant::now() - HEARTBEAT * 2;
            s.tick();
            assert!(
                s.message.1.contains("the page stopped asking"),
                "{}",
                s.message.1
            );
        }
        wait_until(&shared, "the engine's move c1", |s| {
            moves(s) == ["h8", "a1", "i9", "c1"]
        });
    }

    /// A brain that ignores every command it does not know (no `UNKNOWN`) and answers a
    /// `BOARD` at once with `0,0`.
    const SILENT_ENGINE: &str = r#"block=""
while IFS= read -r line; do
  case "$line" in
    ABOUT) echo 'name="Silent", version="2"' ;;
    START*) echo OK ;;
    BOARD) block=board ;;
    DONE) if [ "$block" = board ]; then echo 0,0; fi; block="" ;;
    END) exit 0 ;;
  esac
done"#;

    #[test]
    fn an_engine_without_the_yixin_commands_still_analyses() {
        let shared = Session::new(vec!["sh".into(), "-c".into(), SILENT_ENGINE.into()]);
        shared
            .lock()
            .unwrap()
            .new_game(Rule::Freestyle, 15)
            .unwrap();
        wait_until(&shared, "ABOUT and START answered", |s| {
            s.info.name.is_some() && s.queue.len() == 1
        });
        {
            let mut s = shared.lock().unwrap();
            assert_eq!(s.queue.front().map(|q| q.0), Some(Expect::Probe));
            assert_eq!(s.info.yx, None);
            // The probe goes unanswered: no Yixin-Board commands, and no failure either.
            s.queue[0].1 = Instant::now() - PROBE_TIMEOUT * 2;
            s.tick();
            assert_eq!(s.info.yx, Some(false));
            assert!(s.info.error.is_none());
            let mut settings = s.settings();
            settings.mode = Mode::Analysis;
            s.set(settings);
            assert_eq!(s.thinking, Some(Thinking::Analysis));
        }
        wait_until(&shared, "the BOARD answer", |s| s.thinking.is_none());
        let s = shared.lock().unwrap();
        assert!(s.game.moves().is_empty(), "an analysis plays no move");
        assert_eq!(s.lines.len(), 1, "the engine's move is the one line");
        assert_eq!(s.lines[0].pv, ["a1"]);
        let state = s.state_json().to_string();
        assert!(state.contains(r#""vcf":"unavailable""#), "{state}");
        assert!(state.contains(r#""name":"Silent 2""#), "{state}");
    }
}
