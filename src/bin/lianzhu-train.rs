//! `lianzhu-train`: fits evaluation tables to recorded games (see `lianzhu::train::fit`).
//!
//! `lianzhu-train --rule freestyle --data games.txt [--data more.txt] --out freestyle.lzev`
//! reads the games of that rule, keeps one game in `--held-out-every` for the held-out set,
//! finds the logistic scale of the starting tables, fits, and prints the losses of the
//! starting and the learned tables on both sets; the tables go to `--out`. With `--hidden N`
//! it first fits the tables plus an N-unit hidden layer for the same steps and reports that
//! model's losses (`lianzhu::train::hidden`; the layer is not written).

use clap::Parser;
use lianzhu::eval::{shape, EvalTables};
use lianzhu::search::movegen;
use lianzhu::train::data::{parse_games, parse_match_record, GameMove, Score};
use lianzhu::train::fit::{self, Dataset, FitOptions, FitReport};
use lianzhu::train::hidden::{self, HiddenOptions};
use lianzhu::train::policy::{self, PolicyOptions};
use lianzhu::train::rank::{self, RankSet};
use lianzhu::types::{Color, Rule};
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
    #[arg(long)]
    data: Vec<PathBuf>,
    /// `lianzhu-match --games-out` records of this rule (15x15 unless `--size`): every
    /// position after the opening, with the game's result as the target (and, with
    /// `--policy`, the move played as the chosen one). Repeatable.
    #[arg(long)]
    match_games: Vec<PathBuf>,
    /// Board side of the `--match-games` records.
    #[arg(long, default_value_t = 15)]
    size: usize,
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
    #[arg(long, default_value_t = 2e-9)]
    l2: f32,
    /// Share of the target that is the game result (the rest: the recorded search score).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Logistic scale; default: the one that fits the starting tables best.
    #[arg(long)]
    scale: Option<f32>,
    /// Multiply the starting tables' values and tempo values by the factor that makes their
    /// logistic scale on the training positions this K (the search's margins were tuned at the
    /// freestyle tables' scale); with `--epochs 0` and `--out`, writes the rescaled tables.
    #[arg(long)]
    rescale_to: Option<f32>,
    /// Print the N most frequent value entries and tempo entries, start against learned.
    #[arg(long, default_value_t = 0)]
    show: usize,
    /// Also fit the move-ordering scores (starting from the hand-set ordering, or those of
    /// `--init`) to the moves the search chose.
    #[arg(long)]
    policy: bool,
    /// Adam step size of the move-score fit, in ordering units.
    #[arg(long, default_value_t = 20.0)]
    policy_lr: f32,
    /// Weight of the squared distance of each move score from its start.
    #[arg(long, default_value_t = 1e-9)]
    policy_l2: f32,
    /// Before the tables' fit, fit the tables plus a hidden layer of N units over the same
    /// features for as many steps and report its losses (a measurement: nothing is written).
    #[arg(long, default_value_t = 0)]
    hidden: usize,
    /// Adam step size of the hidden layer's input weights and biases.
    #[arg(long, default_value_t = 0.01)]
    hidden_lr: f32,
    /// Adam step size of the hidden layer's output weights, in evaluation units.
    #[arg(long, default_value_t = 2.0)]
    hidden_out_lr: f32,
    /// Weight of the sibling-ranking term (`lianzhu::train::rank`) against the results'
    /// loss; 0 leaves it out.
    #[arg(long, default_value_t = 0.0)]
    rank_weight: f32,
    /// Temperature of the ranking softmax, in evaluation units per nat (at 100 the shipped
    /// freestyle tables' ranking loss is above a uniform guess's; see docs/strength.md).
    #[arg(long, default_value_t = 300.0)]
    rank_temp: f32,
    /// Candidates per ranked position: the best by the static move order, plus the move played.
    #[arg(long, default_value_t = 16)]
    rank_top: usize,
    /// In `--match-games` records, rank only the moves of the engines of these names (`black=`
    /// or `white=` in the record; repeatable); without it, every move after the opening.
    #[arg(long)]
    teacher: Vec<String>,
    /// Rank only the `--match-games` moves, not the searched moves of `--data`.
    #[arg(long)]
    rank_teacher_only: bool,
    /// Report every N steps.
    #[arg(long, default_value_t = 50)]
    report_every: usize,
}

/// A value fit's progress line: its step, both losses and the time since `t0`.
fn step_line(r: &FitReport, t0: std::time::Instant) -> String {
    format!(
        "step {:4}: train loss {:.5}, held-out loss {:.5} ({:.1} s)",
        r.epoch,
        r.train,
        r.held_out,
        t0.elapsed().as_secs_f64()
    )
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
    let (mut rank_train, mut rank_held) = (RankSet::default(), RankSet::default());
    let ranked = args.rank_weight > 0.0;
    let searched = |_: usize, _: Color, m: &GameMove| matches!(m.score, Some(Score::Eval(_)));
    let mut games = 0usize;
    for path in &args.data {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let parsed = parse_games(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        for g in parsed.iter().filter(|g| g.rule == rule) {
            games += 1;
            let held = games.is_multiple_of(args.held_out_every.max(2));
            if held {
                held_out.add_game(g, &start);
            } else {
                train.add_game(g, &start);
            }
            if ranked && !args.rank_teacher_only {
                let set = if held {
                    &mut rank_held
                } else {
                    &mut rank_train
                };
                set.add_game(g, &start, args.rank_top, &searched);
            }
        }
    }
    for path in &args.match_games {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        for (i, line) in text.lines().enumerate() {
            let record = parse_match_record(line, rule, args.size)
                .map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
            let Some(g) = record else { continue };
            games += 1;
            let held = games.is_multiple_of(args.held_out_every.max(2));
            if held {
                held_out.add_game_with(&g, &start, true);
            } else {
                train.add_game_with(&g, &start, true);
            }
            if ranked {
                let tag = |c: &str| {
                    let mut names = line.split_whitespace().filter_map(|t| t.strip_prefix(c));
                    args.teacher.is_empty() || names.any(|n| args.teacher.iter().any(|t| t == n))
                };
                let teacher = [tag("black="), tag("white=")];
                let use_move = |ply: usize, c: Color, _: &GameMove| {
                    ply >= fit::UNSCORED_SKIP && teacher[c.index()]
                };
                let set = if held {
                    &mut rank_held
                } else {
                    &mut rank_train
                };
                set.add_game(&g, &start, args.rank_top, &use_move);
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
    if ranked {
        println!(
            "ranking: {} training positions ({} candidates), {} held out",
            rank_train.len(),
            rank_train.candidates(),
            rank_held.len()
        );
    }
    let mut w0 = fit::params_of(&start);
    let mut scale = args.scale.unwrap_or_else(|| fit::best_scale(&train, &w0));
    println!("logistic scale K = {scale:.1}");
    if let Some(k) = args.rescale_to {
        let factor = fit::rescale(&mut w0, scale, k);
        scale = fit::best_scale(&train, &w0);
        println!("values and tempo times {factor:.4}: logistic scale K = {scale:.1}");
    }
    let opt = FitOptions {
        epochs: args.epochs,
        lr: args.lr,
        l2: args.l2,
        lambda: args.lambda,
        scale,
    };
    if args.hidden > 0 {
        let options = HiddenOptions {
            units: args.hidden,
            lr: args.hidden_lr,
            out_lr: args.hidden_out_lr,
            seed: 1,
        };
        let t0 = std::time::Instant::now();
        let mut last = None;
        hidden::fit(
            &train,
            &held_out,
            &w0,
            &opt,
            &options,
            args.report_every,
            &mut |r| {
                println!("hidden {}", step_line(&r, t0));
                last = Some(r);
            },
        );
        if let Some(r) = last {
            println!(
                "tables + hidden layer of {} units: train loss {:.5}, held-out loss {:.5}",
                args.hidden, r.train, r.held_out
            );
        }
    }
    let t0 = std::time::Instant::now();
    let temp = args.rank_temp;
    // The ranking term's gradient, scaled so that its weight compares its mean loss with the
    // results' mean loss.
    let factor = args.rank_weight * train.len() as f32 / rank_train.len().max(1) as f32;
    let rank_grad = |w: &[f32], g: &mut [f32]| {
        let r = rank::rank_gradient(&rank_train, w, temp, fit::PARAMS);
        g.iter_mut().zip(&r).for_each(|(x, y)| *x += factor * y);
    };
    let rank_line = |w: &[f32]| {
        let (t, h) = (
            rank::rank_loss(&rank_train, w, temp),
            rank::rank_loss(&rank_held, w, temp),
        );
        format!(
            "; ranking train {:.4} top-1 {:.3}, held-out {:.4} top-1 {:.3}",
            t.0, t.1, h.0, h.1
        )
    };
    let extra: Option<&fit::ExtraGradient<'_>> = if ranked { Some(&rank_grad) } else { None };
    let w = fit::fit_with(
        &train,
        &held_out,
        &w0,
        &opt,
        extra,
        args.report_every,
        &mut |r, w| {
            let rank = if ranked { rank_line(w) } else { String::new() };
            println!("{}{rank}", step_line(&r, t0));
        },
    );
    let policy = if args.policy {
        let p0 = if start.has_policy() {
            policy::params_of(start.policies())
        } else {
            policy::params_of(&movegen::hand_policy(rule))
        };
        let opt = PolicyOptions {
            epochs: args.epochs,
            lr: args.policy_lr,
            l2: args.policy_l2,
        };
        let t0 = std::time::Instant::now();
        let p = policy::fit_policy(
            &train,
            &held_out,
            &p0,
            &opt,
            args.report_every,
            &mut |e, t, h| {
                println!(
                "policy step {e:4}: train loss {:.4} top-1 {:.3}, held-out loss {:.4} top-1 {:.3} ({:.1} s)",
                t.0,
                t.1,
                h.0,
                h.1,
                t0.elapsed().as_secs_f64()
            );
            },
        );
        let rounded = policy::policy_of(&p);
        for (name, params) in [("start", p0), ("learned", policy::params_of(&rounded))] {
            let (t, h) = (
                policy::policy_loss(&train, &params),
                policy::policy_loss(&held_out, &params),
            );
            println!(
                "{name} move scores: train loss {:.4} top-1 {:.3}, held-out loss {:.4} top-1 {:.3}",
                t.0, t.1, h.0, h.1
            );
        }
        rounded
    } else {
        Box::new(*start.policies())
    };
    let learned = fit::tables_of(rule, &w, &policy);
    let rounded = fit::params_of(&learned);
    for (name, params) in [("start", &w0), ("learned", &rounded)] {
        println!(
            "{name} tables: train loss {:.5}, held-out loss {:.5} (lambda {}, K {scale:.1}); \
             against the results alone: train {:.5}, held-out {:.5}",
            fit::loss(&train, params, scale, args.lambda),
            fit::loss(&held_out, params, scale, args.lambda),
            args.lambda,
            fit::loss(&train, params, scale, 1.0),
            fit::loss(&held_out, params, scale, 1.0),
        );
    }
    if args.show > 0 {
        show(&train, &w0, &rounded, args.show);
    }
    if let Some(out) = &args.out {
        std::fs::write(out, learned.to_bytes())
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        println!("wrote {}", out.display());
    }
    Ok(())
}

/// The `n` most frequent parameters of each kind, with their start and learned values.
fn show(train: &Dataset, w0: &[f32], w: &[f32], n: usize) {
    use lianzhu::eval::tables::{pcode_shapes, PCODES, THREAT_MASKS};
    let seen = train.occurrences();
    let names = pcode_shapes();
    let mut order: Vec<usize> = (0..fit::PARAMS).filter(|&k| seen[k] > 0).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(seen[k]));
    for (kind, range) in [
        ("value", 0..fit::VALUES),
        ("tempo", fit::VALUES..fit::PARAMS),
    ] {
        println!("most frequent {kind} entries: positions, start, learned");
        for &k in order.iter().filter(|k| range.contains(k)).take(n) {
            let what = if kind == "value" {
                let (cr, pcode) = (k / PCODES, k % PCODES);
                let pats: Vec<&str> = names[pcode].iter().map(|&p| shape::name(p)).collect();
                let colour = if cr / 2 == 0 { "black" } else { "white" };
                let role = if cr % 2 == 0 { "to move" } else { "waiting" };
                format!("{colour} {role} {}", pats.join(" "))
            } else {
                let (s, mask) = (
                    (k - fit::VALUES) / THREAT_MASKS,
                    (k - fit::VALUES) % THREAT_MASKS,
                );
                let side = if s == 0 { "black" } else { "white" };
                format!("{side} to move, mask {mask:011b}")
            };
            println!("  {what:36} {:8} {:8.1} {:8.1}", seen[k], w0[k], w[k]);
        }
    }
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
