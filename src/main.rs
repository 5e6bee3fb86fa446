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
    /// Evaluation tables to use instead of the built-in ones for their rule (at every board
    /// size): a file written by `lianzhu-train`, or `hand` for the hand-set weights of every
    /// rule. Repeatable; a missing or malformed file is reported on stderr and the built-in
    /// tables stay in use.
    #[arg(long = "eval", global = true, value_name = "FILE")]
    eval: Vec<String>,
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
        #[arg(default_value_t = lianzhu::tools::bench::DEFAULT_DEPTH)]
        depth: i32,
    },
    /// Prove VCF (or VCT) wins for positions read from stdin, one a line.
    Solve(lianzhu::tools::solve::SolveArgs),
    /// Analyse positions read from stdin, one a line: best moves with scores, win rates and
    /// lines, renju forbidden points and both sides' VCFs.
    Analyze(lianzhu::tools::analyze::AnalyzeArgs),
    /// Renju opening decisions (RIF, Yamaguchi, Soosõrv-8, Taraguchi-10) for positions read
    /// from stdin, one a line, as JSON lines; `--list` gives the 26 openings.
    Opening(lianzhu::tools::opening::OpeningArgs),
    /// Play games against itself at a fixed node count per move and write them as training
    /// data (see `lianzhu::train::data` for the format).
    Selfplay(SelfplayArgs),
}

#[derive(clap::Args, Debug)]
struct SelfplayArgs {
    /// Rule: freestyle, standard, renju, caro, caroexact.
    #[arg(long, default_value = "freestyle")]
    rule: String,
    /// Board side.
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Average nodes per move (each move varies by up to a quarter).
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Openings file (one opening a line, as `lianzhu-match --openings` reads); games use
    /// them in turn. Without it games start from the empty board.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Most random stones after the opening (each game draws 0 to this many).
    #[arg(long, default_value_t = 2)]
    random_moves: usize,
    /// Longest game in plies.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Seed of the random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file (default stdout).
    #[arg(long)]
    out: Option<std::path::PathBuf>,
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
    let eval = lianzhu::train::eval_set(&cli.eval, &mut |e| {
        #[allow(clippy::print_stderr)]
        {
            eprintln!("pbrain-lianzhu: {e}; the built-in tables stay in use");
        }
    });
    engine.set_eval(eval.clone());
    match cli.command {
        None | Some(Cmd::Protocol) => lianzhu::protocol::run(engine),
        Some(Cmd::Bench { depth }) => {
            let mut out = std::io::stdout().lock();
            if let Err(e) = lianzhu::tools::bench::run_with(depth, &eval, &mut out) {
                log::error!("bench: {e}");
                std::process::exit(1);
            }
        }
        Some(Cmd::Solve(args)) => {
            let stdout = std::io::stdout();
            if let Err(e) =
                lianzhu::tools::solve::run(&args, std::io::stdin().lock(), stdout.lock())
            {
                log::error!("solve: {e}");
                std::process::exit(1);
            }
        }
        Some(Cmd::Selfplay(args)) => {
            if let Err(e) = selfplay(&args, cli.threads.unwrap_or(1), eval) {
                log::error!("selfplay: {e}");
                #[allow(clippy::print_stderr)]
                {
                    eprintln!("selfplay: {e}");
                }
                std::process::exit(1);
            }
        }
        Some(Cmd::Opening(args)) => {
            let stdout = std::io::stdout();
            let threads = cli.threads.unwrap_or(1).max(1);
            if let Err(e) = lianzhu::tools::opening::run(
                &args,
                threads,
                &eval,
                std::io::stdin().lock(),
                stdout.lock(),
            ) {
                log::error!("opening: {e}");
                std::process::exit(1);
            }
        }
        Some(Cmd::Analyze(args)) => {
            let stdout = std::io::stdout();
            let threads = cli.threads.unwrap_or(1).max(1);
            if let Err(e) = lianzhu::tools::analyze::run(
                &args,
                threads,
                &eval,
                std::io::stdin().lock(),
                stdout.lock(),
            ) {
                log::error!("analyze: {e}");
                std::process::exit(1);
            }
        }
    }
}

fn selfplay(
    args: &SelfplayArgs,
    threads: usize,
    eval: lianzhu::eval::EvalSet,
) -> Result<(), String> {
    use lianzhu::train::selfplay::{run, SelfplayConfig};
    let rule = lianzhu::types::Rule::from_name(&args.rule)
        .ok_or_else(|| format!("unknown rule '{}'", args.rule))?;
    let openings = match &args.openings {
        None => Vec::new(),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            lianzhu::arena::openings::parse_openings(&text, args.size, rule)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .into_iter()
                .map(|o| o.moves)
                .collect()
        }
    };
    let config = SelfplayConfig {
        rule,
        size: args.size,
        games: args.games,
        nodes: args.nodes,
        openings,
        random_moves: args.random_moves,
        max_plies: args.max_plies,
        threads: threads.max(1),
        seed: args.seed,
        eval,
    };
    let mut progress = std::io::stderr();
    let result = match &args.out {
        Some(path) => {
            let file = std::fs::File::create(path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
            run(
                &config,
                &mut std::io::BufWriter::new(file),
                &mut progress,
                100,
            )
        }
        None => run(&config, &mut std::io::stdout(), &mut progress, 100),
    };
    result.map(|_| ()).map_err(|e| format!("output error: {e}"))
}
