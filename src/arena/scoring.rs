//! Forced-wins scoring (`lianzhu-match --forced-wins FILE`): an engine under test is asked
//! for a move in every position of a forced-wins file (see [`super::forced`]) and a judge
//! engine (the sparring Rapfi) evaluates the position after that move.
//!
//! Per position: `START 15`, the `INFO` lines (rule, `timeout_turn` = the engine's turn,
//! `timeout_match 0`), `BOARD` with the stones in move order (`1` = own) and `DONE`. The reply
//! is judged with the referee's code: late, garbage, a crash, a point off the board or on a
//! stone, or a renju foul fails the line. A five ends it at once (found, and saved). Otherwise
//! the judge gets the position after the move, the opponent to move, at the judge's time, and
//! its last `Eval` (from `MESSAGE ... | Eval -M16 | ...` lines, Rapfi's form) decides:
//! - `win`: found when the judge reports a forced loss for itself (`-M`);
//! - `save`: saved when the judge does not report a forced win for itself (`+M`).
//!
//! A judge that fails (no eval, late, crash) fails the line too, and is counted apart.
//!
//! Invariants: no state carries over between positions: every position starts with `START`
//! (or fresh processes with `restart`), and an engine that forfeited is started afresh.

use super::engine_proc::EngineProc;
use super::forced::{Eval, ForcedLine, Kind, FORCED_SIZE};
use super::referee::{ask_position, place, start_engine, GameSettings, Reason};
use super::tournament::EngineSpec;
use crate::notation::{format_moves, format_pos};
use crate::rules::{judge, Board, MoveOutcome};
use crate::types::{Color, Pos, Rule};
use std::io::{self, Write};

/// Everything a forced-wins run needs.
#[derive(Clone, Debug)]
pub struct ScoringConfig {
    /// The positions.
    pub lines: Vec<ForcedLine>,
    /// The engine under test (its `turn_ms` is its time a position).
    pub engine: EngineSpec,
    /// The judge (its `turn_ms` is the judge time).
    pub judge: EngineSpec,
    /// Tolerance, START timeout and memory; the rule and turn are set per position.
    pub settings: GameSettings,
    /// Fresh processes for every position instead of `START`.
    pub restart: bool,
}

/// How one position went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judged {
    /// The engine's move made five.
    Five,
    /// The judge's last eval of the position after the move, from its own side.
    Eval(Eval),
    /// The engine's reply failed (late, illegal, foul, crash, garbage, failed start).
    EngineFailed(Reason),
    /// The judge gave no eval (the text says why).
    JudgeFailed(String),
}

impl Judged {
    /// Text for progress lines: `five`, `judge -M16`, the engine's failure (`late reply:
    /// ...`) or `judge failed: ...`.
    pub fn describe(&self) -> String {
        match self {
            Judged::Five => "five".into(),
            Judged::Eval(e) => format!("judge {e}"),
            Judged::EngineFailed(r) => r.describe(),
            Judged::JudgeFailed(why) => format!("judge failed: {why}"),
        }
    }

    /// One word for records: `five`, the eval (`-M16`, `-227`), the engine's failure as a
    /// game record names it (`late`, `illegal`, `foul-33`, ...) or `judge-failed`.
    pub fn token(&self) -> String {
        match self {
            Judged::Five => "five".into(),
            Judged::Eval(e) => e.to_string(),
            Judged::EngineFailed(r) => r.token(),
            Judged::JudgeFailed(_) => "judge-failed".into(),
        }
    }
}

/// The scoring rule: does `judged` solve a position of this kind?
pub fn solved(kind: Kind, judged: &Judged) -> bool {
    match judged {
        Judged::Five => true,
        Judged::Eval(e) => match kind {
            Kind::Win => e.is_loss(),
            Kind::Save => !e.is_win(),
        },
        Judged::EngineFailed(_) | Judged::JudgeFailed(_) => false,
    }
}

/// The last `Eval X` field of the `MESSAGE` lines, as Rapfi prints them
/// (`MESSAGE Depth 19-38 | Eval -227 | Time 974ms | ...`).
pub fn last_eval(messages: &[String]) -> Option<Eval> {
    messages.iter().rev().find_map(|m| {
        let body = m
            .get(8..)
            .filter(|_| m[..8].eq_ignore_ascii_case("message "))?;
        body.split('|')
            .find_map(|f| f.trim().strip_prefix("Eval "))
            .and_then(Eval::parse)
    })
}

/// One position's result.
#[derive(Clone, Debug)]
pub struct LineResult {
    /// The engine's move, if it gave one on the board.
    pub engine_move: Option<Pos>,
    /// The engine's time, ms.
    pub engine_ms: u64,
    /// What the judge (or the referee) made of it.
    pub judged: Judged,
    /// Found (`win`) or saved (`save`).
    pub ok: bool,
}

/// Counts for one kind: solved of total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Positions solved.
    pub ok: u32,
    /// Positions tried.
    pub total: u32,
}

impl Tally {
    fn add(&mut self, ok: bool) {
        self.total += 1;
        self.ok += u32::from(ok);
    }

    fn text(self) -> String {
        if self.total == 0 {
            return "-".into();
        }
        format!(
            "{}/{} ({:.0}%)",
            self.ok,
            self.total,
            100.0 * f64::from(self.ok) / f64::from(self.total)
        )
    }
}

/// The totals of a run.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    /// Per rule (in the order first met): wins found, saves.
    pub rules: Vec<(Rule, Tally, Tally)>,
    /// Over all rules.
    pub wins: Tally,
    /// Over all rules.
    pub saves: Tally,
    /// Lines the engine failed (late, illegal, ...).
    pub engine_failures: u32,
    /// Lines the judge failed.
    pub judge_failures: u32,
}

impl Totals {
    /// Adds one position.
    pub fn add(&mut self, line: &ForcedLine, r: &LineResult) {
        let i = match self.rules.iter().position(|(rule, ..)| *rule == line.rule) {
            Some(i) => i,
            None => {
                self.rules
                    .push((line.rule, Tally::default(), Tally::default()));
                self.rules.len() - 1
            }
        };
        let (_, wins, saves) = &mut self.rules[i];
        match line.kind {
            Kind::Win => {
                wins.add(r.ok);
                self.wins.add(r.ok);
            }
            Kind::Save => {
                saves.add(r.ok);
                self.saves.add(r.ok);
            }
        }
        match r.judged {
            Judged::EngineFailed(_) => self.engine_failures += 1,
            Judged::JudgeFailed(_) => self.judge_failures += 1,
            _ => {}
        }
    }

    /// The last line of a run: `Result: wins found X/N saves Y/M`.
    pub fn result_line(&self) -> String {
        format!(
            "Result: wins found {}/{} saves {}/{}",
            self.wins.ok, self.wins.total, self.saves.ok, self.saves.total
        )
    }
}

/// A process slot: started on demand, dropped (killed) after a failure.
struct Slot<'a> {
    spec: &'a EngineSpec,
    proc: Option<EngineProc>,
}

impl Slot<'_> {
    /// START on a running (or freshly started) engine.
    fn start(&mut self, settings: &GameSettings) -> Result<&mut EngineProc, Reason> {
        if self.proc.as_mut().is_some_and(|e| !e.is_alive()) {
            self.proc = None;
        }
        if self.proc.is_none() {
            let e = EngineProc::spawn(&self.spec.name, &self.spec.command).map_err(|e| {
                Reason::StartFailed(format!("cannot run '{}': {e}", self.spec.command))
            })?;
            self.proc = Some(e);
        }
        let e = self.proc.as_mut().expect("just started");
        match start_engine(e, settings, self.spec.turn_ms) {
            Ok(()) => Ok(self.proc.as_mut().expect("running")),
            Err(r) => {
                self.proc = None;
                Err(r)
            }
        }
    }

    /// Asks for a move in `board`; the process is dropped if it forfeited.
    fn ask(
        &mut self,
        board: &Board,
        settings: &GameSettings,
        messages: &mut Vec<String>,
    ) -> Result<((i64, i64), u64), Reason> {
        let turn = self.spec.turn_ms;
        let e = self.start(settings)?;
        let asked = ask_position(e, board, settings, turn, &mut |m| messages.push(m.into()));
        match asked {
            Ok((xy, took)) => Ok((xy, took.as_millis() as u64)),
            Err(r) => {
                self.proc = None;
                Err(r)
            }
        }
    }

    fn finish(&mut self) {
        if let Some(e) = self.proc.take() {
            e.quit();
        }
    }
}

fn board_of(moves: &[Pos]) -> Board {
    let mut board = Board::square(FORCED_SIZE).expect("15x15 is a valid board");
    for &p in moves {
        board.make(p);
    }
    board
}

/// Plays one position: the engine's move, then the judge's eval.
fn score_line(
    engine: &mut Slot,
    judge_slot: &mut Slot,
    line: &ForcedLine,
    base: &GameSettings,
) -> LineResult {
    let settings = GameSettings {
        rule: line.rule,
        size: FORCED_SIZE,
        match_ms: 0,
        max_moves: 0,
        ..base.clone()
    };
    let mut board = board_of(&line.moves);
    let mut result = LineResult {
        engine_move: None,
        engine_ms: 0,
        judged: Judged::Five,
        ok: false,
    };
    let mut ignored = Vec::new();
    let reply = engine
        .ask(&board, &settings, &mut ignored)
        .and_then(|(xy, ms)| {
            result.engine_ms = ms;
            place(&board, xy)
        });
    let p = match reply {
        Ok(p) => p,
        Err(r) => {
            // Whatever went wrong, the next position gets a fresh process.
            engine.proc = None;
            result.judged = Judged::EngineFailed(r);
            return result;
        }
    };
    result.engine_move = Some(p);
    result.judged = match judge(&board, p, line.to_move, line.rule) {
        MoveOutcome::Win => Judged::Five,
        MoveOutcome::Foul(f) => Judged::EngineFailed(Reason::Foul(f)),
        MoveOutcome::Continue => {
            board.make(p);
            let mut messages = Vec::new();
            match judge_slot.ask(&board, &settings, &mut messages) {
                Ok(_) => match last_eval(&messages) {
                    Some(e) => Judged::Eval(e),
                    None => Judged::JudgeFailed("no Eval in its MESSAGE lines".into()),
                },
                Err(r) => Judged::JudgeFailed(r.describe()),
            }
        }
    };
    result.ok = solved(line.kind, &result.judged);
    result
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Runs every position; one progress line each goes to `out`, one tab-separated record each
/// to `records` (`line kind rule moves side engine_move engine_ms judge ok`), then the
/// totals per rule and overall and the `Result:` line.
pub fn run(
    config: &ScoringConfig,
    out: &mut dyn Write,
    mut records: Option<&mut dyn Write>,
) -> io::Result<Totals> {
    let mut engine = Slot {
        spec: &config.engine,
        proc: None,
    };
    let mut judge_slot = Slot {
        spec: &config.judge,
        proc: None,
    };
    let mut totals = Totals::default();
    let n = config.lines.len();
    for (i, line) in config.lines.iter().enumerate() {
        let r = score_line(&mut engine, &mut judge_slot, line, &config.settings);
        totals.add(line, &r);
        let mv = r.engine_move.map_or("-".to_string(), format_pos);
        let verdict = match (line.kind, r.ok) {
            (Kind::Win, true) => "found",
            (Kind::Win, false) => "not found",
            (Kind::Save, true) => "saved",
            (Kind::Save, false) => "not saved",
        };
        writeln!(
            out,
            "{}/{n} line {}: {} {} {} to move: engine{} {}: {verdict}",
            i + 1,
            line.line,
            line.kind.name(),
            line.rule,
            colour_name(line.to_move),
            match r.engine_move {
                Some(_) => format!(" {mv} ({} ms),", r.engine_ms),
                None => ":".into(),
            },
            r.judged.describe()
        )?;
        out.flush()?;
        if let Some(w) = records.as_deref_mut() {
            writeln!(
                w,
                "{}\t{}\t{}\t{}\t{}\t{mv}\t{}\t{}\t{}",
                line.line,
                line.kind.name(),
                line.rule,
                format_moves(&line.moves),
                colour_name(line.to_move),
                r.engine_ms,
                r.judged.token(),
                if r.ok { "ok" } else { "fail" }
            )?;
            w.flush()?;
        }
        if config.restart {
            engine.finish();
            judge_slot.finish();
        }
    }
    engine.finish();
    judge_slot.finish();
    write_totals(out, &totals)?;
    Ok(totals)
}

/// The totals table and the `Result:` line.
pub fn write_totals(out: &mut dyn Write, t: &Totals) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "{:<12} {:<16} Saves", "Rule", "Wins found")?;
    let rows = t
        .rules
        .iter()
        .map(|(rule, w, s)| (rule.to_string(), *w, *s));
    for (rule, wins, saves) in rows.chain([("all".to_string(), t.wins, t.saves)]) {
        writeln!(out, "{rule:<12} {:<16} {}", wins.text(), saves.text())?;
    }
    writeln!(
        out,
        "Engine failures (late, illegal, foul, crash, garbage) {}, judge failures {}",
        t.engine_failures, t.judge_failures
    )?;
    writeln!(out, "{}", t.result_line())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rapfi_message_lines_give_the_last_eval() {
        let lines: Vec<String> = [
            "MESSAGE Depth 18-20 | Eval -M16 | Time 323ms | D10 D9 C9",
            "MESSAGE Depth 19-38 | Eval -227 | Time 974ms | D10",
            "DEBUG Eval +M3",
            "MESSAGE Speed 546K | Depth 23-12 | Eval +M17 | Node 231K | Time 423ms",
            "MESSAGE realtime best 3,9",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(last_eval(&lines), Some(Eval::Mate(17)));
        assert_eq!(last_eval(&lines[..3]), Some(Eval::Score(-227)));
        assert_eq!(last_eval(&lines[..1]), Some(Eval::Mate(-16)));
        assert_eq!(last_eval(&lines[2..3]), None);
        assert_eq!(last_eval(&[]), None);
        let odd = vec!["message Depth 3 | Eval 12".to_string()];
        assert_eq!(last_eval(&odd), Some(Eval::Score(12)));
    }

    #[test]
    fn scoring_rule() {
        let eval = |e| Judged::Eval(e);
        // A win is found only when the judge, to move, is mated.
        assert!(solved(Kind::Win, &eval(Eval::Mate(-9))));
        assert!(!solved(Kind::Win, &eval(Eval::Score(-20000))));
        assert!(!solved(Kind::Win, &eval(Eval::Mate(5))));
        // A save holds unless the judge, to move, has a forced win.
        assert!(solved(Kind::Save, &eval(Eval::Score(900))));
        assert!(solved(Kind::Save, &eval(Eval::Mate(-4))));
        assert!(!solved(Kind::Save, &eval(Eval::Mate(7))));
        for kind in [Kind::Win, Kind::Save] {
            assert!(solved(kind, &Judged::Five));
            let late = Judged::EngineFailed(Reason::Late("x".into()));
            assert!(!solved(kind, &late));
            assert!(!solved(kind, &Judged::JudgeFailed("no eval".into())));
        }
    }

    #[test]
    fn totals_per_rule() {
        let line = |kind, rule| ForcedLine {
            line: 1,
            kind,
            rule,
            moves: vec![],
            to_move: Color::Black,
            eval: Eval::Mate(3),
            best: Pos::new(7, 7),
        };
        let res = |ok, judged| LineResult {
            engine_move: None,
            engine_ms: 0,
            judged,
            ok,
        };
        let mut t = Totals::default();
        t.add(&line(Kind::Win, Rule::Renju), &res(true, Judged::Five));
        t.add(
            &line(Kind::Win, Rule::Freestyle),
            &res(false, Judged::JudgeFailed("x".into())),
        );
        t.add(
            &line(Kind::Save, Rule::Renju),
            &res(false, Judged::EngineFailed(Reason::Crash)),
        );
        t.add(
            &line(Kind::Win, Rule::Renju),
            &res(false, Judged::Eval(Eval::Score(1))),
        );
        assert_eq!(t.rules.len(), 2);
        assert_eq!(t.rules[0].0, Rule::Renju);
        assert_eq!(t.rules[0].1, Tally { ok: 1, total: 2 });
        assert_eq!(t.rules[0].2, Tally { ok: 0, total: 1 });
        assert_eq!(t.rules[1].1, Tally { ok: 0, total: 1 });
        assert_eq!((t.engine_failures, t.judge_failures), (1, 1));
        assert_eq!(t.result_line(), "Result: wins found 1/3 saves 0/1");
        let mut text = Vec::new();
        write_totals(&mut text, &t).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.contains("renju        1/2 (50%)        0/1 (0%)"),
            "{text}"
        );
        assert!(
            text.contains("all          1/3 (33%)        0/1 (0%)"),
            "{text}"
        );
    }
}
