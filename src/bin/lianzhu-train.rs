//! `lianzhu-train`: fits evaluation tables to recorded games (see `lianzhu::train::fit`).
//!
//! `lianzhu-train --rule freestyle --data games.txt [--data more.txt] --out freestyle.lzev`
//! reads the games of that rule, keeps one game in `--held-out-every` for the held-out set,
//! finds the logistic scale of the starting tables, fits, and prints the losses of the
//! starting and the learned tables on both sets; the tables go to `--out`.

use clap::Parser;
use lianzhu::eval::EvalTables;
use lianzhu::train::data::parse_games;
use lianzhu::train::fit::{self, Dataset, FitOptions};
use lianzhu::types::Rule;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Parser, Debug)]
#[command(
    name = "lianzhu-train",
    about = "Fit Lianzhu's evaluation tables to game records"
)]
struct Args {
    /// Rule whose games are used and whose tables are written.
    #[arg(long, default_value = "freestyle")]
    rule: String,
    /// Game files (`pbrain-lianzhu selfplay` output). Repeatable.
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Where to write the learned tables.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Starting tables (default: the hand-set weights).
    #[arg(long)]
    init: Option<PathBuf>,
    /// Every N-th game goes to the held-out set.
    #[arg(long, default_value_t = 10)]
    held_out_every: usize,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 300)]
    epochs: usize,
    /// Adam step size in evaluation units.
    #[arg(long, default_value_t = 1.0)]
    lr: f32,
    /// Weight of the squared distance of each value from its start.
    #[arg(long, default_value_t = 1e-6)]
    l2: f32,
    /// Share of the target that is the game result (the rest: the recorded search score).
    #[arg(long, default_value_t = 1.0)]
    lambda: f32,
    /// Logistic scale; default: the one that fits the starting tables best.
    #[arg(long)]
    scale: Option<f32>,
    /// Report every N steps.
    #[arg(long, default_value_t = 50)]
    report_every: usize,
}

fn run(args: &Args) -> Result<(), String> {
    let rule =
        Rule::from_name(&args.rule).ok_or_else(|| format!("unknown rule '{}'", args.rule))?;
    let start = match &args.init {
        None => lianzhu::eval::EvalSet::hand().get(rule),
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            Arc::new(
                EvalTables::from_bytes_for(rule, &bytes)
                    .map_err(|e| format!("{}: {e}", path.display()))?,
            )
        }
    };
    let (mut train, mut held_out) = (Dataset::default(), Dataset::default());
    let mut games = 0usize;
    for path in &args.data {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let parsed = parse_games(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        for g in parsed.iter().filter(|g| g.rule == rule) {
            games += 1;
            if games.is_multiple_of(args.held_out_every.max(2)) {
                held_out.add_game(g, &start);
            } else {
                train.add_game(g, &start);
            }
        }
    }
    println!(
        "{games} {rule} games: {} training positions, {} held out",
        train.len(),
        held_out.len()
    );
    if train.is_empty() {
        return Err("no training positions".into());
    }
    let w0 = fit::params_of(&start);
    let scale = args.scale.unwrap_or_else(|| fit::best_scale(&train, &w0));
    println!("logistic scale K = {scale:.1}");
    let opt = FitOptions {
        epochs: args.epochs,
        lr: args.lr,
        l2: args.l2,
        lambda: args.lambda,
        scale,
    };
    let t0 = std::time::Instant::now();
    let w = fit::fit(&train, &held_out, &w0, &opt, args.report_every, &mut |r| {
        println!(
            "step {:4}: train loss {:.5}, held-out loss {:.5} ({:.1} s)",
            r.epoch,
            r.train,
            r.held_out,
            t0.elapsed().as_secs_f64()
        );
    });
    let learned = fit::tables_of(rule, &w, &start);
    let rounded = fit::params_of(&learned);
    for (name, params) in [("start", &w0), ("learned", &rounded)] {
        println!(
            "{name} tables: train loss {:.5}, held-out loss {:.5} (lambda {}, K {scale:.1})",
            fit::loss(&train, params, scale, args.lambda),
            fit::loss(&held_out, params, scale, args.lambda),
            args.lambda
        );
    }
    if let Some(out) = &args.out {
        std::fs::write(out, learned.to_bytes())
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        println!("wrote {}", out.display());
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lianzhu-train: {e}");
            ExitCode::FAILURE
        }
    }
}
