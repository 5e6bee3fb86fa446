//! `pbrain-lianzhu`: the Gomocup brain. With no subcommand it speaks the Gomocup protocol on
//! stdin/stdout (see `protocol.md`). Logs go to stderr through `env_logger` and are off unless
//! `RUST_LOG` is set (Piskvork reads stderr as protocol lines).

use clap::{Parser, Subcommand};
use lianzhu::engine::Engine;

#[derive(Parser, Debug)]
#[command(
    name = "pbrain-lianzhu",
    version,
    about = "Lianzhu Gomoku/Renju engine"
)]
struct Cli {
    /// Number of search threads (INFO thread_num overrides it).
    #[arg(long, global = true)]
    threads: Option<usize>,
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Speak the Gomocup protocol on stdin/stdout (the default).
    Protocol,
    /// Search the fixed bench positions (1 thread, fixed depth and hash); the last lines give
    /// the node count, the speed and a signature of the results.
    Bench {
        /// Search depth.
        #[arg(default_value_t = lianzhu::bench::DEFAULT_DEPTH)]
        depth: i32,
    },
    /// Prove VCF (or VCT) wins for positions read from stdin, one a line.
    Solve(lianzhu::solve::SolveArgs),
    /// Analyse positions read from stdin, one a line: best moves with scores, win rates and
    /// lines, renju forbidden points and both sides' VCFs.
    Analyze(lianzhu::analyze::AnalyzeArgs),
}

fn main() {
    env_logger::Builder::new()
        .filter_level(log::LevelFilter::Off)
        .parse_env("RUST_LOG")
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let mut engine = Engine::new();
    if let Some(n) = cli.threads {
        engine.options.threads = n.max(1);
    }
    match cli.command {
        None | Some(Cmd::Protocol) => lianzhu::protocol::run(engine),
        Some(Cmd::Bench { depth }) => {
            let mut out = std::io::stdout().lock();
            if let Err(e) = lianzhu::bench::run(depth, &mut out) {
                log::error!("bench: {e}");
                std::process::exit(1);
            }
        }
        Some(Cmd::Solve(args)) => {
            let stdout = std::io::stdout();
            if let Err(e) = lianzhu::solve::run(&args, std::io::stdin().lock(), stdout.lock()) {
                log::error!("solve: {e}");
                std::process::exit(1);
            }
        }
        Some(Cmd::Analyze(args)) => {
            let stdout = std::io::stdout();
            let threads = cli.threads.unwrap_or(1).max(1);
            if let Err(e) =
                lianzhu::analyze::run(&args, threads, std::io::stdin().lock(), stdout.lock())
            {
                log::error!("analyze: {e}");
                std::process::exit(1);
            }
        }
    }
}
