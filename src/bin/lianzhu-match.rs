//! `lianzhu-match`: plays Gomocup-protocol engines against each other (see
//! `lianzhu::arena`). The last line of a completed run is `Result: W-L-D forfeits F`.
//! `lianzhu-match --sparring` instead runs the built-in sparring brain on stdin/stdout;
//! `lianzhu-match --summarize FILE NAME [elo0,elo1,alpha,beta]` prints the figures of a
//! games file (`--games-out`) from NAME's side; `lianzhu-match --forced-wins FILE --engine CMD
//! --judge CMD` scores one engine on a forced-wins file (see `lianzhu::arena::scoring`).

use clap::Parser;
use lianzhu::arena::cli::{run, run_forced, Args};
use lianzhu::arena::stats::SprtParams;
use lianzhu::arena::{sparring, summary};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::init();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if std::env::args().nth(1).as_deref() == Some("--sparring") {
        let stdin = std::io::stdin();
        return match sparring::serve(&mut stdin.lock(), &mut out) {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::FAILURE,
        };
    }
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
