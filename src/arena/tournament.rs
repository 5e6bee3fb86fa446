//! Scheduling a match: game pairs over the openings, worker threads, results and records.
//!
//! Engine 0 is the engine under test; it plays every other engine (a gauntlet when there are
//! more than two) `games` times. Game `g` against an opponent uses opening `(g / 2) % count`,
//! and engine 0 has black in even games, so every opening is played twice with colours
//! swapped (a game pair). `concurrency` worker threads each own their engine processes and
//! take games from a job channel that the calling thread feeds one game per finished game;
//! results come back over a channel to the calling thread, which alone writes progress
//! lines, game records and statistics.
//!
//! Invariants: an engine that forfeited (crash, late, illegal, garbage, failed start) is killed
//! and started afresh before its next game, so stale output never reaches another game; with
//! `restart_per_game` every game gets fresh processes. When an SPRT bound is crossed no new
//! game starts; games already running finish and are counted in the table, and the SPRT
//! reading stays the one that crossed the bound.

use super::engine_proc::EngineProc;
use super::openings::Opening;
use super::referee::{play_game_timed, GameResult, GameSettings, Reason};
use super::stats::{Pentanomial, SprtDecision, SprtParams, SprtReport, Wld};
use crate::notation::format_moves;
use crate::types::Color;
use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::{mpsc, Mutex};
use std::thread;

/// An engine taking part.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Label in tables and records.
    pub name: String,
    /// Shell command that starts it.
    pub command: String,
    /// Its per-move limit in ms (`INFO timeout_turn`, and the lateness limit with the
    /// tolerance); engines may differ (time odds).
    pub turn_ms: u64,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Engine 0 is under test; the others are its opponents.
    pub engines: Vec<EngineSpec>,
    /// Rule, board and clocks; `settings.turn_ms` is engine 0's, each engine's own is in
    /// [`EngineSpec::turn_ms`].
    pub settings: GameSettings,
    /// At least one opening (the empty board if no file was given).
    pub openings: Vec<Opening>,
    /// Games against each opponent.
    pub games: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Stop early when the LLR crosses a bound (two engines only).
    pub sprt: Option<SprtParams>,
    /// A fresh process per game instead of `START` between games.
    pub restart_per_game: bool,
}

/// One scheduled game.
#[derive(Clone, Copy, Debug)]
pub struct GameJob {
    /// 0-based number over the whole match.
    pub number: usize,
    /// Opponent engine index (1..).
    pub opponent: usize,
    /// Pair number within this opponent's games.
    pub pair: usize,
    /// Index into the openings.
    pub opening: usize,
    /// True if engine 0 has black.
    pub first_is_black: bool,
}

impl GameJob {
    /// Engine indices as `[black, white]`.
    pub fn colours(&self) -> [usize; 2] {
        if self.first_is_black {
            [0, self.opponent]
        } else {
            [self.opponent, 0]
        }
    }
}

/// The full schedule for a config.
pub fn schedule(config: &MatchConfig) -> Vec<GameJob> {
    let mut jobs = Vec::new();
    for opponent in 1..config.engines.len() {
        for g in 0..config.games {
            jobs.push(GameJob {
                number: jobs.len(),
                opponent,
                pair: g / 2,
                opening: (g / 2) % config.openings.len(),
                first_is_black: g % 2 == 0,
            });
        }
    }
    jobs
}

/// Misbehaviour and timing counts for one engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineCounts {
    /// Games lost by crash (exit or closed pipe).
    pub crashes: u32,
    /// Games lost by an off-board or occupied point.
    pub illegal: u32,
    /// Games lost by a late reply.
    pub late: u32,
    /// Games lost by a non-move line.
    pub garbage: u32,
    /// Games lost by a failed `START`.
    pub start_failed: u32,
    /// Games lost by a renju foul (a loss by play, not a forfeit).
    pub fouls: u32,
    /// Moves played (opening stones excluded).
    pub moves: u64,
    /// Thinking time over those moves, ms.
    pub time_ms: u64,
    /// Slowest move, ms.
    pub max_move_ms: u64,
}

impl EngineCounts {
    /// Games this engine forfeited.
    pub fn forfeits(&self) -> u32 {
        self.crashes + self.illegal + self.late + self.garbage + self.start_failed
    }
}

/// Engine 0's record against one opponent.
#[derive(Clone, Debug, Default)]
pub struct Standing {
    /// Wins, losses, draws of engine 0.
    pub wld: Wld,
    /// Finished pairs.
    pub pairs: Pentanomial,
}

/// What a whole match produced.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Engine 0 against each opponent, indexed by opponent (index 0 unused).
    pub standings: Vec<Standing>,
    /// Per-engine counts.
    pub counts: Vec<EngineCounts>,
    /// Games finished.
    pub games: usize,
    /// The last SPRT reading, if an SPRT was asked for.
    pub sprt: Option<SprtReport>,
}

impl Summary {
    /// Engine 0's total over all opponents.
    pub fn total(&self) -> Wld {
        let mut t = Wld::default();
        for s in &self.standings {
            t.wins += s.wld.wins;
            t.losses += s.wld.losses;
            t.draws += s.wld.draws;
        }
        t
    }

    /// Games lost by any engine to misbehaviour.
    pub fn forfeits(&self) -> u32 {
        self.counts.iter().map(EngineCounts::forfeits).sum()
    }

    /// The last line of a run: `Result: W-L-D forfeits F`.
    pub fn result_line(&self) -> String {
        let t = self.total();
        format!(
            "Result: {}-{}-{} forfeits {}",
            t.wins,
            t.losses,
            t.draws,
            self.forfeits()
        )
    }
}

/// `1-0`, `0-1` or `1/2-1/2` from black's side.
pub fn result_text(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::Black) => "1-0",
        Some(Color::White) => "0-1",
        None => "1/2-1/2",
    }
}

/// A game record line: `<moves|-> <result> <reason> game=N black=NAME white=NAME opening=L`.
/// The first token is the full move list, so a games file can be read back as openings.
pub fn record_line(config: &MatchConfig, job: &GameJob, r: &GameResult) -> String {
    let moves = if r.moves.is_empty() {
        "-".to_string()
    } else {
        format_moves(&r.moves)
    };
    let [b, w] = job.colours();
    format!(
        "{moves} {} {} game={} black={} white={} opening={}",
        result_text(r.winner),
        r.reason.token(),
        job.number + 1,
        config.engines[b].name,
        config.engines[w].name,
        config.openings[job.opening].line
    )
}

/// Runs the match. Progress lines go to `progress`, one record per game to `records`.
pub fn run(
    config: &MatchConfig,
    progress: &mut dyn Write,
    mut records: Option<&mut dyn Write>,
) -> io::Result<Summary> {
    let jobs = schedule(config);
    let n = config.engines.len();
    let mut summary = Summary {
        standings: vec![Standing::default(); n],
        counts: vec![EngineCounts::default(); n],
        ..Summary::default()
    };
    let mut half_pairs: HashMap<(usize, usize), u8> = HashMap::new();
    let (result_tx, result_rx) = mpsc::channel::<(GameJob, GameResult)>();
    let (job_tx, job_rx) = mpsc::channel::<GameJob>();
    let job_rx = Mutex::new(job_rx);
    thread::scope(|scope| -> io::Result<()> {
        // Moved in, so an early return closes the job channel and the workers end.
        let job_tx = job_tx;
        for w in 0..config.concurrency.max(1) {
            let tx = result_tx.clone();
            let job_rx = &job_rx;
            scope.spawn(move || worker(w, config, job_rx, tx));
        }
        drop(result_tx);
        // The calling thread hands out the games one at a time, so a stop decision takes
        // effect before the next game starts, whatever the concurrency.
        let mut queue = jobs.iter();
        let mut running = 0usize;
        for job in queue.by_ref().take(config.concurrency.max(1)) {
            let _ = job_tx.send(*job);
            running += 1;
        }
        let mut stopped = false;
        while running > 0 {
            let Ok((job, result)) = result_rx.recv() else {
                break;
            };
            running -= 1;
            summary.games += 1;
            let points = account(&mut summary, &job, &result);
            if let Some(first) = half_pairs.remove(&(job.opponent, job.pair)) {
                summary.standings[job.opponent].pairs.add(first, points);
                // After a decision the reading stays as it was when the bound was crossed;
                // games still running are counted in the table but do not undo it.
                if let (Some(sprt), false) = (&config.sprt, stopped) {
                    let report = sprt.report(&summary.standings[job.opponent].pairs);
                    stopped = report.decision != SprtDecision::Continue;
                    summary.sprt = Some(report);
                }
            } else {
                half_pairs.insert((job.opponent, job.pair), points);
            }
            if !stopped {
                if let Some(next) = queue.next() {
                    let _ = job_tx.send(*next);
                    running += 1;
                }
            }
            write_progress(progress, config, &summary, &job, &result, jobs.len())?;
            if let Some(out) = records.as_deref_mut() {
                writeln!(out, "{}", record_line(config, &job, &result))?;
                out.flush()?;
            }
        }
        Ok(())
    })?;
    if let (Some(sprt), None) = (&config.sprt, &summary.sprt) {
        summary.sprt = Some(sprt.report(&summary.standings[1].pairs));
    }
    Ok(summary)
}

/// Adds a game to the summary; returns engine 0's points doubled (0, 1 or 2).
fn account(summary: &mut Summary, job: &GameJob, r: &GameResult) -> u8 {
    let colours = job.colours();
    let first_colour = if job.first_is_black {
        Color::Black
    } else {
        Color::White
    };
    let wld = &mut summary.standings[job.opponent].wld;
    let points = match r.winner {
        None => {
            wld.draws += 1;
            1
        }
        Some(c) if c == first_colour => {
            wld.wins += 1;
            2
        }
        Some(_) => {
            wld.losses += 1;
            0
        }
    };
    for colour in [Color::Black, Color::White] {
        let c = &mut summary.counts[colours[colour.index()]];
        c.moves += r
            .moves
            .iter()
            .enumerate()
            .skip(r.opening_len)
            .filter(|(i, _)| (i % 2 == 0) == (colour == Color::Black))
            .count() as u64;
        c.time_ms += r.time_ms[colour.index()];
        c.max_move_ms = c.max_move_ms.max(r.max_move_ms[colour.index()]);
    }
    if let Some(w) = r.winner {
        let c = &mut summary.counts[colours[w.opponent().index()]];
        match r.reason {
            Reason::Crash => c.crashes += 1,
            Reason::Illegal(_) => c.illegal += 1,
            Reason::Late(_) => c.late += 1,
            Reason::Garbage(_) => c.garbage += 1,
            Reason::StartFailed(_) => c.start_failed += 1,
            Reason::Foul(_) => c.fouls += 1,
            Reason::Five | Reason::BoardFull | Reason::MoveLimit => {}
        }
    }
    points
}

fn write_progress(
    out: &mut dyn Write,
    config: &MatchConfig,
    summary: &Summary,
    job: &GameJob,
    r: &GameResult,
    total: usize,
) -> io::Result<()> {
    let [b, w] = job.colours();
    let t = summary.standings[job.opponent].wld;
    writeln!(
        out,
        "Game {}/{}: {} (black) - {} (white): {} {}, {} stones, opening line {}, \
         time {}+{} ms (slowest {}+{}) | {} vs {}: {}-{}-{}",
        job.number + 1,
        total,
        config.engines[b].name,
        config.engines[w].name,
        result_text(r.winner),
        r.reason.describe(),
        r.moves.len(),
        config.openings[job.opening].line,
        r.time_ms[0],
        r.time_ms[1],
        r.max_move_ms[0],
        r.max_move_ms[1],
        config.engines[0].name,
        config.engines[job.opponent].name,
        t.wins,
        t.losses,
        t.draws
    )?;
    if r.reason.is_forfeit() {
        if let Some(loser) = r.winner.map(Color::opponent) {
            let name = &config.engines[job.colours()[loser.index()]].name;
            writeln!(out, "  {name}'s last output lines:")?;
            for line in &r.loser_tail {
                writeln!(out, "  | {line}")?;
            }
        }
    }
    out.flush()
}

fn worker(
    id: usize,
    config: &MatchConfig,
    jobs: &Mutex<mpsc::Receiver<GameJob>>,
    results: mpsc::Sender<(GameJob, GameResult)>,
) {
    let mut slots: Vec<Option<EngineProc>> = (0..config.engines.len()).map(|_| None).collect();
    loop {
        let next = jobs.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok(job) = next else {
            break;
        };
        let colours = job.colours();
        let result = match ensure_running(&mut slots, config, id, &job) {
            Ok(()) => {
                let (low, high) = slots.split_at_mut(job.opponent);
                let first = low[0].as_mut().expect("engine 0 running");
                let other = high[0].as_mut().expect("opponent running");
                let opening = &config.openings[job.opening].moves;
                let turns = colours.map(|i| config.engines[i].turn_ms);
                if job.first_is_black {
                    play_game_timed(first, other, &config.settings, opening, turns)
                } else {
                    play_game_timed(other, first, &config.settings, opening, turns)
                }
            }
            Err(result) => *result,
        };
        if let Some(w) = result.winner {
            if result.reason.is_forfeit() {
                slots[colours[w.opponent().index()]] = None;
            }
        }
        if config.restart_per_game {
            for i in colours {
                if let Some(e) = slots[i].take() {
                    e.quit();
                }
            }
        }
        if results.send((job, result)).is_err() {
            break;
        }
    }
    for e in slots.into_iter().flatten() {
        e.quit();
    }
}

/// Starts whichever of the two engines is not running; on a spawn failure returns the game
/// as lost by that engine.
fn ensure_running(
    slots: &mut [Option<EngineProc>],
    config: &MatchConfig,
    worker: usize,
    job: &GameJob,
) -> Result<(), Box<GameResult>> {
    let colours = job.colours();
    let opening = &config.openings[job.opening].moves;
    for (ci, &i) in colours.iter().enumerate() {
        if slots[i].as_mut().is_some_and(|e| !e.is_alive()) {
            slots[i] = None;
        }
        if slots[i].is_some() {
            continue;
        }
        let spec = &config.engines[i];
        match EngineProc::spawn(&format!("{}@w{worker}", spec.name), &spec.command) {
            Ok(e) => slots[i] = Some(e),
            Err(e) => {
                let loser = if ci == 0 { Color::Black } else { Color::White };
                return Err(Box::new(GameResult {
                    moves: opening.to_vec(),
                    opening_len: opening.len(),
                    winner: Some(loser.opponent()),
                    reason: Reason::StartFailed(format!("cannot run '{}': {e}", spec.command)),
                    loser_tail: Vec::new(),
                    time_ms: [0, 0],
                    max_move_ms: [0, 0],
                }));
            }
        }
    }
    Ok(())
}
