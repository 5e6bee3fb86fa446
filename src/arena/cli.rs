//! The `lianzhu-match` command line: arguments, the match, and the final report.
//!
//! Everything is written to a caller-supplied writer (the binary passes stdout), so the
//! library never prints. The last line of a completed run is exactly
//! `Result: W-L-D forfeits F` (see [`Summary::result_line`]).

use super::forced::{failed_lines, parse_forced_wins, Kind, FORCED_SIZE};
use super::openings::{parse_openings, Opening};
use super::referee::GameSettings;
use super::scoring::{self, ScoringConfig, Totals};
use super::stats::{SprtDecision, SprtParams};
use super::tournament::{self, EngineSpec, MatchConfig, Summary};
use crate::types::{Rule, MAX_SIZE, MIN_SIZE};
use clap::Parser;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

/// Plays Gomocup-protocol engines against each other and measures the Elo difference.
#[derive(Parser, Debug, Clone)]
#[command(
    name = "lianzhu-match",
    version,
    after_help = "The last line of a run is `Result: W-L-D forfeits F` (first engine's wins, \
                  losses, draws; F = games lost by any engine to a crash, illegal move, late \
                  reply, garbage or failed START).\nTime odds: `--engine A --turn-ms 1200 \
                  --engine B --turn-ms 300`.\nForced wins: `--forced-wins FILE --engine CMD \
                  --judge CMD --turn-ms 1000 --judge-ms 3000 [--out FILE]`; its last line is \
                  `Result: wins found X/N saves Y/M`.\n`lianzhu-match --sparring` instead \
                  runs a built-in fast brain on stdin/stdout. See docs/strength.md."
)]
pub struct Args {
    /// Engine command (run through `sh -c`); give it twice or more (once with
    /// --forced-wins). The first engine is the one under test; it plays every other one.
    #[arg(long = "engine", required = true, num_args = 1)]
    pub engines: Vec<String>,
    /// Engine names, in the order of --engine (default: the command's file name).
    #[arg(long = "name")]
    pub names: Vec<String>,
    /// Rule: freestyle, standard, renju, caro (rule 8) or caro5 (rule 9).
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Board side.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Games against each opponent (every opening is played twice, colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Time per move in milliseconds (INFO timeout_turn) [default: 1000]. Once: every
    /// engine. Once per --engine (in the order of --engine, like --name): each engine its own
    /// turn and lateness limit, for time odds, e.g. `--engine A --turn-ms 1200 --engine B
    /// --turn-ms 300`.
    #[arg(long = "turn-ms")]
    pub turn_ms: Vec<u64>,
    /// Time per game in milliseconds (INFO timeout_match); 0 = no match clock.
    #[arg(long = "match-ms", default_value_t = 0)]
    pub match_ms: u64,
    /// Grace before a reply counts as late, in milliseconds.
    #[arg(long = "tolerance-ms", default_value_t = 1000)]
    pub tolerance_ms: u64,
    /// How long an engine may take to answer START, in milliseconds.
    #[arg(long = "start-ms", default_value_t = 5000)]
    pub start_ms: u64,
    /// INFO max_memory in bytes (sent, not enforced).
    #[arg(long = "max-memory", default_value_t = 367_001_600)]
    pub max_memory: u64,
    /// Openings file: one move list a line in the `h8i9h10` notation; `#` lines are comments.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// File for the game records (one game a line).
    #[arg(long = "games-out")]
    pub games_out: Option<PathBuf>,
    /// Sequential test `elo0,elo1,alpha,beta` (two engines only); stops at a bound.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Draw when the board holds this many stones (0 = only a full board; renju also draws
    /// at size²-25).
    #[arg(long = "max-moves", default_value_t = 0)]
    pub max_moves: usize,
    /// Start fresh engine processes for every game (default: keep them, START between games);
    /// with --forced-wins, for every position.
    #[arg(long = "restart-per-game")]
    pub restart_per_game: bool,
    /// Forced-wins scoring instead of a match: the one --engine is asked for a move in every
    /// position of FILE (kind, rule, moves, side, eval, move; 15x15) at --turn-ms, and --judge
    /// evaluates the position after it at --judge-ms. A win is found when the judge reports
    /// itself mated (-M), a save holds when it reports no forced win (+M) for itself.
    #[arg(
        long = "forced-wins",
        value_name = "FILE",
        requires = "judge",
        conflicts_with_all = ["openings", "sprt", "games_out"],
        help_heading = "Forced-wins scoring"
    )]
    pub forced_wins: Option<PathBuf>,
    /// The judge engine command for --forced-wins (the sparring Rapfi, whose
    /// `MESSAGE ... | Eval X |` lines are read).
    #[arg(long, requires = "forced_wins", help_heading = "Forced-wins scoring")]
    pub judge: Option<String>,
    /// The judge's time a position in milliseconds.
    #[arg(
        long = "judge-ms",
        default_value_t = 3000,
        help_heading = "Forced-wins scoring"
    )]
    pub judge_ms: u64,
    /// File for one tab-separated record a position: line, kind, rule, moves, side, engine
    /// move, engine ms, judge eval, ok/fail.
    #[arg(
        long,
        value_name = "FILE",
        requires = "forced_wins",
        help_heading = "Forced-wins scoring"
    )]
    pub out: Option<PathBuf>,
    /// Score only the positions that failed in FILE, the --out records of an earlier run
    /// (for example, to see whether a longer --turn-ms saves them).
    #[arg(
        long = "failed-in",
        value_name = "FILE",
        requires = "forced_wins",
        help_heading = "Forced-wins scoring"
    )]
    pub failed_in: Option<PathBuf>,
}

/// Turns the arguments into a match configuration (reads the openings file).
pub fn config_from_args(args: &Args) -> Result<MatchConfig, String> {
    if args.engines.len() < 2 {
        return Err("give at least two --engine commands".into());
    }
    let rule = Rule::from_name(&args.rule).ok_or_else(|| {
        format!(
            "unknown rule '{}' (freestyle, standard, renju, caro, caro5)",
            args.rule
        )
    })?;
    if !(MIN_SIZE..=MAX_SIZE).contains(&args.size) {
        return Err(format!(
            "--size must be {MIN_SIZE}..={MAX_SIZE}, got {}",
            args.size
        ));
    }
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if args.concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    if args.names.len() > args.engines.len() {
        return Err("more --name than --engine".into());
    }
    let turns = turn_times(&args.turn_ms, args.engines.len())?;
    let sprt = match &args.sprt {
        Some(text) => {
            if args.engines.len() != 2 {
                return Err("--sprt needs exactly two engines".into());
            }
            Some(SprtParams::parse(text)?)
        }
        None => None,
    };
    let openings = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let list = parse_openings(&text, args.size, rule)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if list.is_empty() {
                return Err(format!("{} holds no opening", path.display()));
            }
            list
        }
        None => vec![Opening::empty()],
    };
    Ok(MatchConfig {
        engines: engine_specs(&args.engines, &args.names, &turns),
        settings: GameSettings {
            rule,
            size: args.size,
            turn_ms: turns[0],
            match_ms: args.match_ms,
            max_memory: args.max_memory,
            tolerance_ms: args.tolerance_ms,
            start_ms: args.start_ms,
            max_moves: args.max_moves,
        },
        openings,
        games: args.games,
        concurrency: args.concurrency,
        sprt,
        restart_per_game: args.restart_per_game,
    })
}

/// The default `--turn-ms`.
pub const DEFAULT_TURN_MS: u64 = 1000;

/// Each of `engines` engines' turn time from the `--turn-ms` values: none gives
/// [`DEFAULT_TURN_MS`] to all, one value applies to all, else there must be one per engine.
pub fn turn_times(values: &[u64], engines: usize) -> Result<Vec<u64>, String> {
    match values {
        [] => Ok(vec![DEFAULT_TURN_MS; engines]),
        [one] => Ok(vec![*one; engines]),
        many if many.len() == engines => Ok(many.to_vec()),
        many => Err(format!(
            "--turn-ms given {} times for {engines} engines: give it once (every engine) or \
             once per --engine",
            many.len()
        )),
    }
}

/// Words skipped when a name is taken from a command (`sh ./engine.sh` is `engine.sh`).
const LAUNCHERS: [&str; 9] = [
    "sh", "bash", "exec", "env", "nice", "python", "python3", "wine", "timeout",
];

/// Names engines: the given `--name`s first, else the command's file name (skipping
/// launchers such as `sh` or `nice`, their options and numbers, and `VAR=value` words); duplicates get `#1`, `#2`, ... in order.
/// `turns` holds each engine's turn time (see [`turn_times`]).
pub fn engine_specs(commands: &[String], names: &[String], turns: &[u64]) -> Vec<EngineSpec> {
    let base: Vec<String> = commands
        .iter()
        .enumerate()
        .map(|(i, c)| match names.get(i) {
            Some(n) => n.clone(),
            None => {
                let word = c
                    .split_whitespace()
                    .find(|w| {
                        !w.contains('=')
                            && !w.starts_with('-')
                            && !w.bytes().all(|b| b.is_ascii_digit())
                            && !LAUNCHERS.contains(w)
                    })
                    .unwrap_or("engine");
                word.rsplit(['/', '\\']).next().unwrap_or(word).to_string()
            }
        })
        .collect();
    let mut seen = std::collections::HashMap::<&str, usize>::new();
    base.iter()
        .zip(commands)
        .zip(turns)
        .map(|((b, c), &turn_ms)| {
            let dup = base.iter().filter(|x| *x == b).count() > 1;
            let k = seen.entry(b.as_str()).or_insert(0);
            *k += 1;
            EngineSpec {
                name: if dup { format!("{b}#{k}") } else { b.clone() },
                command: c.clone(),
                turn_ms,
            }
        })
        .collect()
}

/// Turns the arguments of a `--forced-wins` run into its configuration (reads the file).
pub fn scoring_from_args(args: &Args) -> Result<ScoringConfig, String> {
    let (Some(path), Some(judge)) = (&args.forced_wins, &args.judge) else {
        return Err("--forced-wins needs a FILE and --judge".into());
    };
    if args.engines.len() != 1 {
        return Err("--forced-wins scores one --engine".into());
    }
    if args.turn_ms.len() > 1 {
        return Err("--forced-wins takes one --turn-ms (the engine's)".into());
    }
    if args.names.len() > 1 {
        return Err("more --name than --engine".into());
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut lines = parse_forced_wins(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(records) = &args.failed_in {
        let text = std::fs::read_to_string(records)
            .map_err(|e| format!("cannot read {}: {e}", records.display()))?;
        let failed = failed_lines(&text).map_err(|e| format!("{}: {e}", records.display()))?;
        lines.retain(|l| failed.contains(&l.line));
        if lines.is_empty() {
            return Err(format!(
                "{} names no failed position of {}",
                records.display(),
                path.display()
            ));
        }
    }
    if lines.is_empty() {
        return Err(format!("{} holds no position", path.display()));
    }
    let turn = turn_times(&args.turn_ms, 1)?[0];
    let engine = engine_specs(&args.engines, &args.names, &[turn]).remove(0);
    let judge = engine_specs(std::slice::from_ref(judge), &[], &[args.judge_ms]).remove(0);
    Ok(ScoringConfig {
        lines,
        engine,
        judge,
        settings: GameSettings {
            rule: Rule::Freestyle,
            size: FORCED_SIZE,
            turn_ms: turn,
            match_ms: 0,
            max_memory: args.max_memory,
            tolerance_ms: args.tolerance_ms,
            start_ms: args.start_ms,
            max_moves: 0,
        },
        restart: args.restart_per_game,
    })
}

/// Runs a `--forced-wins` scoring: a header, one line a position, the totals and the
/// `Result: wins found X/N saves Y/M` line go to `out`.
pub fn run_forced(args: &Args, out: &mut dyn Write) -> Result<Totals, String> {
    let config = scoring_from_args(args)?;
    let mut records = match &args.out {
        Some(path) => {
            Some(BufWriter::new(File::create(path).map_err(|e| {
                format!("cannot create {}: {e}", path.display())
            })?))
        }
        None => None,
    };
    let io_err = |e: io::Error| format!("output error: {e}");
    let count = |k| config.lines.iter().filter(|l| l.kind == k).count();
    writeln!(
        out,
        "Forced wins: {} win + {} save position(s); engine {} at {} ms, judge {} at {} ms, \
         tolerance {} ms",
        count(Kind::Win),
        count(Kind::Save),
        config.engine.name,
        config.engine.turn_ms,
        config.judge.name,
        config.judge.turn_ms,
        config.settings.tolerance_ms
    )
    .map_err(io_err)?;
    let totals = scoring::run(&config, out, records.as_mut().map(|w| w as &mut dyn Write))
        .map_err(io_err)?;
    if let Some(mut w) = records {
        w.flush().map_err(io_err)?;
    }
    Ok(totals)
}

/// Runs a whole match and writes progress, the final table and the `Result:` line to `out`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<Summary, String> {
    let config = config_from_args(args)?;
    let mut records = match &args.games_out {
        Some(path) => {
            Some(BufWriter::new(File::create(path).map_err(|e| {
                format!("cannot create {}: {e}", path.display())
            })?))
        }
        None => None,
    };
    let s = &config.settings;
    let io_err = |e: io::Error| format!("output error: {e}");
    writeln!(
        out,
        "Match: {} {}x{}, turn {}, match {} ms, tolerance {} ms, {} opening(s), {} game(s) \
         per opponent, concurrency {}",
        s.rule,
        s.size,
        s.size,
        turn_text(&config.engines),
        s.match_ms,
        s.tolerance_ms,
        config.openings.len(),
        config.games,
        config.concurrency
    )
    .map_err(io_err)?;
    let summary = tournament::run(&config, out, records.as_mut().map(|w| w as &mut dyn Write))
        .map_err(io_err)?;
    if let Some(mut w) = records {
        w.flush().map_err(io_err)?;
    }
    write_report(out, &config, &summary).map_err(io_err)?;
    Ok(summary)
}

/// `1000 ms` when every engine has the same turn, else `1200 ms (new), 300 ms (base)`.
fn turn_text(engines: &[EngineSpec]) -> String {
    if engines.iter().all(|e| e.turn_ms == engines[0].turn_ms) {
        format!("{} ms", engines[0].turn_ms)
    } else {
        let each: Vec<String> = engines
            .iter()
            .map(|e| format!("{} ms ({})", e.turn_ms, e.name))
            .collect();
        each.join(", ")
    }
}

fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        // `+ 0.0` turns -0.0 into 0.0.
        format!("{:+.1}", x + 0.0)
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

/// Writes the final table, the per-engine counts, the SPRT reading and the `Result:` line.
pub fn write_report(
    out: &mut dyn Write,
    config: &MatchConfig,
    summary: &Summary,
) -> io::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "{:<20} {:<20} {:>6} {:>5} {:>5} {:>5} {:>7} {:>8}  {:<18} Pairs [0 1/4 1/2 3/4 1]",
        "Engine", "Opponent", "Games", "W", "L", "D", "Score", "Elo", "95% interval",
    )?;
    for (i, st) in summary.standings.iter().enumerate().skip(1) {
        let wld = st.wld;
        let (elo, interval) = match wld.elo() {
            Some(e) => (
                fmt_elo(e.elo),
                format!("[{}, {}]", fmt_elo(e.low), fmt_elo(e.high)),
            ),
            None => ("-".into(), "-".into()),
        };
        writeln!(
            out,
            "{:<20} {:<20} {:>6} {:>5} {:>5} {:>5} {:>6.1}% {:>8}  {:<18} {:?}",
            config.engines[0].name,
            config.engines[i].name,
            wld.games(),
            wld.wins,
            wld.losses,
            wld.draws,
            100.0 * wld.score(),
            elo,
            interval,
            st.pairs.0
        )?;
    }
    writeln!(out)?;
    for (spec, c) in config.engines.iter().zip(&summary.counts) {
        let avg = if c.moves > 0 {
            c.time_ms as f64 / c.moves as f64
        } else {
            0.0
        };
        writeln!(
            out,
            "{:<20} forfeits {} (crash {}, illegal {}, late {}, garbage {}, start {}), fouls {}, \
             {} moves, {avg:.0} ms/move, slowest {} ms",
            spec.name,
            c.forfeits(),
            c.crashes,
            c.illegal,
            c.late,
            c.garbage,
            c.start_failed,
            c.fouls,
            c.moves,
            c.max_move_ms
        )?;
    }
    if let (Some(p), Some(r)) = (&config.sprt, &summary.sprt) {
        let verdict = match r.decision {
            SprtDecision::H1 => "H1 accepted (elo1)",
            SprtDecision::H0 => "H0 accepted (elo0)",
            SprtDecision::Continue => "no decision",
        };
        writeln!(
            out,
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} bounds [{:.3}, {:.3}]: {verdict}",
            p.elo0, p.elo1, p.alpha, p.beta, r.llr, r.lower, r.upper
        )?;
    }
    writeln!(out, "{}", summary.result_line())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_commands() {
        let cmds = vec![
            "./target/release/pbrain-lianzhu".to_string(),
            "./target/release/pbrain-lianzhu --x".to_string(),
            "FOO=1 exec sh ./engines/other.sh 3".to_string(),
            "nice -n 19 ~/bin/rapfi --x".to_string(),
        ];
        let specs = engine_specs(&cmds, &[], &[1000; 4]);
        let names: Vec<_> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            ["pbrain-lianzhu#1", "pbrain-lianzhu#2", "other.sh", "rapfi"]
        );
        let specs = engine_specs(&cmds[..2], &["new".to_string()], &[1000; 2]);
        assert_eq!(specs[0].name, "new");
        assert_eq!(specs[1].name, "pbrain-lianzhu");
    }

    #[test]
    fn bad_arguments_are_refused() {
        let base = ["lianzhu-match", "--engine", "a", "--engine", "b"];
        let parse = |extra: &[&str]| {
            let v: Vec<&str> = base.iter().chain(extra).copied().collect();
            config_from_args(&Args::parse_from(v))
        };
        assert!(parse(&[]).is_ok());
        assert!(parse(&["--rule", "go"]).is_err());
        assert!(parse(&["--size", "4"]).is_err());
        assert!(parse(&["--games", "0"]).is_err());
        assert!(parse(&["--sprt", "0,5"]).is_err());
        assert!(parse(&["--sprt", "0,5,0.05,0.05"]).is_ok());
        assert!(parse(&["--openings", "/nonexistent/file"]).is_err());
        let one = config_from_args(&Args::parse_from(["m", "--engine", "a"]));
        assert!(one.is_err());
        let c = parse(&["--rule", "caro5", "--size", "20", "--games", "7"]).unwrap();
        assert_eq!(c.settings.rule, Rule::CaroExact);
        assert_eq!(tournament::schedule(&c).len(), 7);
    }

    #[test]
    fn turn_times_one_for_all_or_one_per_engine() {
        let parse = |argv: &[&str]| config_from_args(&Args::parse_from(argv));
        let turns = |c: MatchConfig| c.engines.iter().map(|e| e.turn_ms).collect::<Vec<_>>();
        let c = parse(&["m", "--engine", "a", "--engine", "b"]).unwrap();
        assert_eq!(
            (turns(c.clone()), c.settings.turn_ms),
            (vec![1000, 1000], 1000)
        );
        let c = parse(&["m", "--turn-ms", "300", "--engine", "a", "--engine", "b"]).unwrap();
        assert_eq!(turns(c), [300, 300]);
        let argv = [
            "m",
            "--engine",
            "a",
            "--turn-ms",
            "1200",
            "--engine",
            "b",
            "--turn-ms",
            "300",
        ];
        let c = parse(&argv).unwrap();
        assert_eq!(
            (turns(c.clone()), c.settings.turn_ms),
            (vec![1200, 300], 1200)
        );
        assert_eq!(turn_text(&c.engines), "1200 ms (a), 300 ms (b)");
        // Three engines: one value for all, or three.
        let three = ["m", "--engine", "a", "--engine", "b", "--engine", "c"];
        let with = |extra: &[&str]| parse(&[&three[..], extra].concat());
        assert!(with(&["--turn-ms", "1", "--turn-ms", "2"]).is_err());
        let c = with(&["--turn-ms", "1", "--turn-ms", "2", "--turn-ms", "3"]).unwrap();
        assert_eq!(turns(c), [1, 2, 3]);
    }
}
