//! `lianzhu-board`: a local web board for Lianzhu, or any Gomocup engine.
//!
//! It serves one page on 127.0.0.1 (by default port 8515) and plays or analyses through the
//! engine's Gomocup protocol: `pbrain-lianzhu` beside this executable unless `--engine CMD`
//! names another command line. Logs go to stderr (`RUST_LOG=info`).

mod engine;
mod engine_line;
mod game;
mod http;
mod json;
mod session;
mod vcf;

use clap::Parser;
use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::thread;
use std::time::Duration;

/// A local web board: play and analyse with a Gomocup engine in the browser.
#[derive(Parser, Debug)]
#[command(name = "lianzhu-board", version)]
struct Args {
    /// Port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8515)]
    port: u16,
    /// Address to listen on; anything but a loopback address shares the board with the network.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Engine command line (split on spaces, no shell); default: pbrain-lianzhu beside this program.
    #[arg(long)]
    engine: Option<String>,
}

/// `pbrain-lianzhu` in this executable's folder.
fn default_engine() -> PathBuf {
    let name = format!("pbrain-lianzhu{}", std::env::consts::EXE_SUFFIX);
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(&name)))
        .unwrap_or_else(|| PathBuf::from(name))
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args = Args::parse();
    let engine: Vec<String> = match &args.engine {
        Some(cmd) => cmd.split_whitespace().map(str::to_string).collect(),
        None => vec![default_engine().to_string_lossy().into_owned()],
    };
    if engine.is_empty() {
        eprintln!("lianzhu-board: --engine is empty");
        return ExitCode::from(2);
    }
    let server = match tiny_http::Server::http((args.host, args.port)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!(
                "lianzhu-board: cannot listen on {}:{}: {e}",
                args.host, args.port
            );
            return ExitCode::FAILURE;
        }
    };
    let addr = server
        .server_addr()
        .to_ip()
        .map_or_else(|| format!("{}:{}", args.host, args.port), |a| a.to_string());
    // The one line on stdout: where the board is (tests read the port from it).
    println!(
        "lianzhu-board: open http://{addr}/ (engine: {})",
        engine.join(" ")
    );
    if !args.host.is_loopback() {
        log::warn!(
            "listening on {}: anyone who can reach it can use the board",
            args.host
        );
    }
    let shared = session::Session::new(engine);
    // Start the engine now, so a command that cannot run is on the page at once.
    if let Ok(mut s) = shared.lock() {
        let _ = s.new_game(lianzhu::types::Rule::Renju, 15);
    }
    let watched = shared.clone();
    let watchdog = thread::Builder::new()
        .name("watchdog".into())
        .spawn(move || loop {
            thread::sleep(Duration::from_millis(250));
            match watched.lock() {
                Ok(mut s) => s.tick(),
                Err(_) => return,
            }
        });
    if let Err(e) = watchdog {
        eprintln!("lianzhu-board: {e}");
        return ExitCode::FAILURE;
    }
    http::serve(&server, &shared, args.host.is_loopback());
    ExitCode::SUCCESS
}
