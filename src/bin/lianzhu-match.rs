//! `lianzhu-match`: plays Gomocup-protocol engines against each other (see
//! `lianzhu::arena`). The last line of a completed run is `Result: W-L-D forfeits F`.
//! `lianzhu-match --sparring` instead runs the built-in sparring brain on stdin/stdout;
//! `lianzhu-match --summarize FILE NAME [elo0,elo1,alpha,beta]` prints the figures of a
//! games file (`--games-out`) from NAME's side; `lianzhu-match --forced-wins FILE --engine CMD
//! --judge CMD` scores one engine on a forced-wins file (see `lianzhu::arena::scoring`);
//! `lianzhu-match --label IN OUT --judge CMD [--nodes N] [--scale S] [--workers W]` replaces
//! the search scores of a training-data file by a judge engine's evals (see
//! `lianzhu::arena::label`).

use clap::Parser;
use lianzhu::arena::cli::{run, run_forced, Args};
use lianzhu::arena::label::{label_games, LabelConfig};
use lianzhu::arena::stats::SprtParams;
use lianzhu::arena::{sparring, summary};
use lianzhu::train::data::{parse_games, write_game, HEADER};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::init();
    if std::env::args().nth(1).as_deref() == Some("--sparring") {
        sparring::serve();
        return ExitCode::SUCCESS;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let argv: Vec<String> = std::env::args().collect();
    if argv.get(1).map(String::as_str) == Some("--summarize") {
        let (Some(file), Some(name)) = (argv.get(2), argv.get(3)) else {
            eprintln!("lianzhu-match: usage: --summarize FILE NAME [elo0,elo1,alpha,beta]");
            return ExitCode::from(2);
        };
        let report = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {file}: {e}"))
            .and_then(|text| {
                let sprt = argv.get(4).map(|s| SprtParams::parse(s)).transpose()?;
                summary::summarize(&text, name, sprt)
            });
        return match report {
            Ok(text) => {
                let _ = out.write_all(text.as_bytes());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("lianzhu-match: {e}");
                ExitCode::from(2)
            }
        };
    }
    if argv.get(1).map(String::as_str) == Some("--label") {
        return match run_label(&argv[2..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("lianzhu-match: {e}");
                ExitCode::from(2)
            }
        };
    }
    let args = Args::parse();
    let done = if args.forced_wins.is_some() {
        run_forced(&args, &mut out).map(|_| ())
    } else {
        run(&args, &mut out).map(|_| ())
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = out.flush();
            eprintln!("lianzhu-match: {e}");
            ExitCode::from(2)
        }
    }
}

/// `--label IN OUT --judge CMD [--nodes N] [--scale S] [--workers W]`: the games of IN with
/// every searched move's score replaced by the judge's eval at N nodes (default 30000) times S
/// (default 2.0, our units per judge unit), written to OUT; progress and totals on stderr.
fn run_label(args: &[String]) -> Result<(), String> {
    const USAGE: &str = "usage: --label IN OUT --judge CMD [--nodes N] [--scale S] [--workers W]";
    let (Some(input), Some(output)) = (args.first(), args.get(1)) else {
        return Err(USAGE.into());
    };
    let mut cfg = LabelConfig {
        judge: String::new(),
        nodes: 30_000,
        scale: 2.0,
        workers: 2,
    };
    let mut rest = args[2..].iter();
    while let Some(flag) = rest.next() {
        let value = rest
            .next()
            .ok_or_else(|| format!("{flag} needs a value; {USAGE}"))?;
        match flag.as_str() {
            "--judge" => cfg.judge = value.clone(),
            "--nodes" => cfg.nodes = parse_value(flag, value)?,
            "--scale" => cfg.scale = parse_value(flag, value)?,
            "--workers" => cfg.workers = parse_value(flag, value)?,
            _ => return Err(format!("unknown option '{flag}'; {USAGE}")),
        }
    }
    if cfg.judge.is_empty() {
        return Err(USAGE.into());
    }
    let text = std::fs::read_to_string(input).map_err(|e| format!("cannot read {input}: {e}"))?;
    let mut games = parse_games(&text).map_err(|e| format!("{input}: {e}"))?;
    let total = games.len();
    let counts = label_games(&mut games, &cfg, &|done| {
        if done % 50 == 0 || done == total {
            eprintln!("labelled {done}/{total} games");
        }
    });
    let mut out = String::from(HEADER);
    out.push('\n');
    out.push_str(&format!(
        "# scores: {} at {} nodes x {}\n",
        cfg.judge, cfg.nodes, cfg.scale
    ));
    for g in &games {
        out.push_str(&write_game(g));
        out.push('\n');
    }
    std::fs::write(output, out).map_err(|e| format!("cannot write {output}: {e}"))?;
    eprintln!(
        "Result: {} scores, {} mates, {} failures",
        counts.scores, counts.mates, counts.failures
    );
    Ok(())
}

/// The value of a command-line option, or an error naming the option.
fn parse_value<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    value
        .parse()
        .map_err(|e| format!("bad value '{value}' for {flag}: {e}"))
}
