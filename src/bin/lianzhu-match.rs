//! `lianzhu-match`: plays Gomocup-protocol engines against each other (see
//! `lianzhu::arena`). The last line of a completed run is `Result: W-L-D forfeits F`.
//! `lianzhu-match --sparring` instead runs the built-in sparring brain on stdin/stdout.

use clap::Parser;
use lianzhu::arena::cli::{run, Args};
use lianzhu::arena::sparring;
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
    let args = Args::parse();
    match run(&args, &mut out) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = out.flush();
            eprintln!("lianzhu-match: {e}");
            ExitCode::from(2)
        }
    }
}
