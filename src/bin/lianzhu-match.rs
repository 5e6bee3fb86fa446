//! `lianzhu-match`: plays Gomocup-protocol engines against each other (see
//! `lianzhu::arena`). The last line of a completed run is `Result: W-L-D forfeits F`.

use clap::Parser;
use lianzhu::arena::cli::{run, Args};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::init();
    let args = Args::parse();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match run(&args, &mut out) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = out.flush();
            eprintln!("lianzhu-match: {e}");
            ExitCode::from(2)
        }
    }
}
