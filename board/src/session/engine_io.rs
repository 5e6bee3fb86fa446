//! The engine side of the session: starting the process, writing to it, and what each line
//! it writes does (answers are matched to the queue of expected ones, in order).

use super::view::parse_ev;
use super::{EngineInfo, Expect, Line, Session, NBEST, NO_MATCH_CLOCK};
use crate::engine::EngineProc;
use crate::engine_line::{self, EngineLine, Progress, Realtime};
use crate::game::{Pt, Refused};
use std::time::Instant;

impl Session {
    /// Starts the engine if it is not running (and sends `START` when the board size
    /// changed). False, with the reason on the page, when it cannot run.
    pub(super) fn ensure_engine(&mut self) -> bool {
        if self.engine.is_none() {
            if self.info.error.is_some() {
                return false;
            }
            self.generation += 1;
            let (generation, me) = (self.generation, self.me.clone());
            let on_line = move |line: Option<String>| {
                if let Some(shared) = me.upgrade() {
                    if let Ok(mut s) = shared.lock() {
                        s.engine_said(generation, line);
                    }
                }
            };
            match EngineProc::spawn(&self.engine_cmd, on_line) {
                Ok(proc) => {
                    log::info!("engine started: {}", self.engine_cmd.join(" "));
                    self.engine = Some(proc);
                    self.info = EngineInfo::default();
                    self.engine_size = None;
                    self.queue.clear();
                    self.send(&["ABOUT".to_string()], Some(Expect::About));
                }
                Err(e) => {
                    self.engine_failed(format!(
                        "the engine could not be started ({}): {e}",
                        self.engine_cmd.join(" ")
                    ));
                    return false;
                }
            }
        }
        if self.engine_size != Some(self.game.size()) {
            self.engine_size = Some(self.game.size());
            let lines = [
                format!("START {}", self.game.size()),
                format!("INFO rule {}", self.game.rule().gomocup_id()),
                "INFO timeout_match 0".to_string(),
                format!("INFO time_left {NO_MATCH_CLOCK}"),
                "INFO show_detail 3".to_string(),
            ];
            self.send(&lines, Some(Expect::Start));
            if self.info.yx.is_none() {
                self.send(&["YXSHOWFORBID".to_string()], Some(Expect::Probe));
            }
        } else {
            let line = format!("INFO rule {}", self.game.rule().gomocup_id());
            self.send(&[line], None);
        }
        self.engine.is_some()
    }

    /// Writes to the engine; on a broken pipe the engine is given up.
    pub(super) fn send(&mut self, lines: &[String], expect: Option<Expect>) -> bool {
        let Some(engine) = self.engine.as_mut() else {
            return false;
        };
        match engine.send(lines) {
            Ok(()) => {
                if let Some(e) = expect {
                    self.queue.push_back((e, Instant::now()));
                }
                true
            }
            Err(e) => {
                self.engine_failed(format!("the engine stopped reading its input: {e}"));
                false
            }
        }
    }

    pub(super) fn engine_failed(&mut self, why: String) {
        log::warn!("{why}");
        self.engine = None;
        self.engine_size = None;
        self.queue.clear();
        self.thinking = None;
        self.info.error = Some(why.clone());
        self.say(format!("{why} (New game tries again)"));
    }

    /// Drops expected answers up to the first one `fits`, which is taken.
    pub(super) fn take(&mut self, fits: impl Fn(Expect) -> bool) -> Option<Expect> {
        let i = self.queue.iter().position(|&(e, _)| fits(e))?;
        let skipped: Vec<Expect> = self.queue.drain(..i).map(|(e, _)| e).collect();
        for e in skipped {
            log::info!("the engine did not answer {e:?}");
            if e == Expect::Probe {
                self.info.yx = Some(false);
            }
        }
        self.queue.pop_front().map(|(e, _)| e)
    }

    pub(super) fn current_search(&self) -> bool {
        matches!(self.queue.front(), Some(&(Expect::Move(v) | Expect::Analysis(v), _)) if v == self.version)
            && self.thinking.is_some()
    }

    /// One line from the engine (`None`: its output ended).
    pub(super) fn engine_said(&mut self, generation: u64, line: Option<String>) {
        if generation != self.generation {
            return;
        }
        let Some(line) = line else {
            if self.engine.is_some() {
                self.engine_failed("the engine exited".into());
            }
            return;
        };
        log::debug!("< {line}");
        match engine_line::parse(&line) {
            EngineLine::Ok => {
                self.take(|e| e == Expect::Start);
            }
            EngineLine::About { name, version } => self.about(&name, &version),
            EngineLine::Forbid(points) => {
                match self.take(|e| matches!(e, Expect::Probe | Expect::Forbid(_))) {
                    Some(Expect::Probe) => self.info.yx = Some(true),
                    Some(Expect::Forbid(v)) if v == self.version => {
                        let size = self.game.size();
                        let pts = points.iter().filter_map(|&(x, y)| Pt::on_board(x, y, size));
                        self.forbid = Some(pts.collect());
                    }
                    _ => {}
                }
            }
            EngineLine::Move(x, y) => {
                match self.take(|e| matches!(e, Expect::Move(_) | Expect::Analysis(_))) {
                    Some(Expect::Move(v)) if v == self.version && self.thinking.is_some() => {
                        self.thinking = None;
                        self.engine_moved(x, y);
                    }
                    Some(Expect::Analysis(v)) if v == self.version => {
                        self.thinking = None;
                        self.realtime_pos = None;
                        self.analysis_answer(x, y);
                    }
                    _ => {}
                }
            }
            EngineLine::Error(why) | EngineLine::Unknown(why) => self.engine_refused(why),
            EngineLine::Progress(p) if self.current_search() => self.progress(p),
            EngineLine::Realtime(r) if self.current_search() => self.realtime(r),
            EngineLine::Info(key, value) if self.current_search() => self.detail(&key, &value),
            _ => {}
        }
    }

    /// An engine that writes no progress lines still names its move: the only line shown.
    fn analysis_answer(&mut self, x: usize, y: usize) {
        if !self.lines.is_empty() {
            return;
        }
        if let Some(pt) = Pt::on_board(x, y, self.game.size()) {
            self.lines.push(Line {
                depth: "?".into(),
                ev: "?".into(),
                pv: vec![pt.to_string()],
                ..Line::default()
            });
        }
    }

    /// The answer to `ABOUT`: Lianzhu's own program also proves VCFs (`solve`).
    pub(super) fn about(&mut self, name: &str, version: &str) {
        if self.take(|e| e == Expect::About).is_none() {
            return;
        }
        if name == "Lianzhu" {
            self.info.solver = self.engine_cmd.first().cloned();
        }
        self.info.name = Some(format!("{name} {version}").trim().to_string());
    }

    pub(super) fn engine_refused(&mut self, why: String) {
        match self.queue.pop_front() {
            Some((Expect::Probe, _)) => self.info.yx = Some(false),
            Some((Expect::Start, _)) => self.say(format!("the engine refused the game: {why}")),
            Some((Expect::Move(v) | Expect::Analysis(v), _)) if v == self.version => {
                self.thinking = None;
                self.say(format!("the engine answered: ERROR {why}"));
            }
            Some((Expect::Forbid(_), _)) => {}
            other => log::warn!("engine: {why} (while waiting for {other:?})"),
        }
    }

    pub(super) fn engine_moved(&mut self, x: usize, y: usize) {
        let Some(pt) = Pt::on_board(x, y, self.game.size()) else {
            self.say(format!("the engine played {x},{y}, off the board"));
            return;
        };
        if self.settings.mode.engine_color() != Some(self.game.to_move()) {
            return;
        }
        match self.game.play_judged(pt) {
            Ok(()) => self.position_changed_keep_lines(),
            Err(Refused(why)) => self.say(format!("the engine played {pt}: {why}")),
        }
    }

    /// After the engine's move: the new position, but the search's lines stay on show.
    pub(super) fn position_changed_keep_lines(&mut self) {
        let lines = std::mem::take(&mut self.lines);
        self.position_changed();
        self.lines = lines;
        self.realtime_pos = None;
        self.realtime_best = None;
    }

    pub(super) fn progress(&mut self, p: Progress) {
        let i = p.multipv.min(NBEST.end() + 1) - 1;
        if self.lines.len() <= i {
            self.lines.resize(i + 1, Line::default());
        }
        let winrate = self.lines[i].winrate;
        self.lines[i] = Line {
            depth: p.depth,
            winrate: parse_ev(&p.ev).or(winrate),
            ev: p.ev,
            nodes: p.nodes,
            ms: p.ms,
            pv: p.pv,
        };
    }

    pub(super) fn realtime(&mut self, r: Realtime) {
        let pt = |x, y| Pt::on_board(x, y, self.game.size());
        match r {
            Realtime::Pos(x, y) => self.realtime_pos = pt(x, y),
            Realtime::Best(x, y) => self.realtime_best = pt(x, y),
            Realtime::Done(..) | Realtime::Lost(..) | Realtime::Refresh => {}
        }
    }

    pub(super) fn detail(&mut self, key: &str, value: &str) {
        match key {
            "PV" => self.record = value.parse().ok(),
            "WINRATE" => {
                if let (Some(i), Ok(w)) = (self.record, value.parse::<f64>()) {
                    if let Some(line) = self.lines.get_mut(i) {
                        line.winrate = Some(w);
                    }
                }
            }
            _ => {}
        }
    }
}
