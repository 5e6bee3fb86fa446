//! The `analyze` command: reads positions, one a line, and prints for each what the engine
//! thinks of it: the best move with its score and win rate, the principal variation, the `n`
//! best moves (`--multipv`), black's forbidden points (renju) and whether either side has a
//! VCF.
//!
//! Input lines are the two forms `solve` reads ([`crate::notation::parse_position`]): a move
//! list (`h8i9h10`, colours alternate from black, the side to move follows) or an explicit
//! position (`B h8 i9 | W j10 | black`); blank lines and lines starting with `#` are skipped.
//!
//! How a position is analysed:
//! 1. The VCF prover runs for the side to move and for the opponent (each with
//!    `--vcf-nodes` nodes): `win` with the line, `none` (proven: no VCF) or `unknown`.
//! 2. If the side to move has a VCF, it is the first of the best moves (a mate score, its
//!    line as the variation, depth 0).
//! 3. The other best moves come from the engine's front door, `Request::Best` (what the GUI's
//!    `YXNBEST` asks): successive searches (the table kept between them), each leaving out the
//!    moves already reported (the VCF's move is blocked as `YXBLOCK` would block it). The
//!    budget (`--time-ms` or `--nodes`) is split evenly between these searches. The table is
//!    cleared before each position, so a position's answer does not depend on the lines
//!    before it; with `--nodes` and one thread the output (but for `ms`) is deterministic.
//!    Fewer than `n` lines come out when fewer legal moves exist. A move the search plays
//!    without searching (a single forced reply) is scored by a search of the position after
//!    it (with the same share again), negated, and its depth counts that extra ply.
//!
//! Scores are from the side to move's view. The win rate is the logistic
//! `1 / (1 + exp(-score / WINRATE_SCALE))` of [`crate::score::win_rate`] (the same figure the
//! protocol's progress lines show); a mate score (a proven win or loss in
//! `k` plies, the final five included) gives 100% or 0% and `mate` = `k` or `-k`.
//!
//! Text output, one line per position, sections separated by ` | `:
//! `best h9 score 35 winrate 54.4% depth 9 nodes 51234 ms 480 pv h9i10g8 | 2 i9 score 20
//! winrate 52.5% depth 8 pv i9h10 | forbidden h7=33 j9=44 | vcf black none white win g6h7g7`
//! (mate scores are written `M5` / `-M4`; `forbidden` only under renju). With `--json`, one
//! object per line:
//! `{"to_move":"black","best":"h9","score":35,"mate":null,"winrate":0.5437,"depth":9,
//! "nodes":51234,"ms":480,"pv":["h9","i10"],"lines":[{"move":"h9","score":35,"mate":null,
//! "winrate":0.5437,"depth":9,"nodes":51234,"pv":["h9","i10"]},...],"forbidden":[{"point":
//! "h7","kind":"33"}],"vcf":{"black":{"result":"none","nodes":12},"white":{"result":"win",
//! "line":["g6","h7","g7"],"nodes":40}}}` (`lines[0]` is the best move again; the top-level
//! `nodes` is the sum over `lines`, the VCF checks count their own; `forbidden` is `[]`
//! outside renju; `--` in a VCF line is a defender that cannot block).
//! A line that cannot be read, a position that already holds a five and a full board give
//! `error <why>` (json: `{"error":"..."}`), and the next line is read.
//!
//! This module reads and writes only the streams it is given; `main` wires it to stdin and
//! stdout. It stands beside `solve` on the search, threat and rules layers, never on the
//! protocol.

use crate::engine::{Answer, Engine, Options, Request};
use crate::notation::{format_line, format_point, json_string};
use crate::rules::{self, Board, Foul};
use crate::score::{mate_plies, win_rate, MATE};
use crate::search::time::TimeControl;
use crate::threat::vcf::{self, VcfLimits, VcfOutcome, VcfResult};
use crate::types::{Color, Pos, Rule};
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Search time per position when neither `--time-ms` nor `--nodes` is given.
pub const DEFAULT_TIME_MS: u64 = 1_000;

/// Command-line options of `analyze`.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct AnalyzeArgs {
    /// Rule: freestyle, standard, renju, caro (rule 8) or caro5 (rule 9).
    #[arg(long, value_parser = parse_rule)]
    pub rule: Rule,
    /// Board side.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Search time per position in milliseconds, split between the best-move searches
    /// (default 1000 when --nodes is not given).
    #[arg(long, conflicts_with = "nodes")]
    pub time_ms: Option<u64>,
    /// Search nodes per position, split between the best-move searches (deterministic with
    /// one thread).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Number of best moves to report.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub multipv: u32,
    /// VCF-prover node limit for each side.
    #[arg(long, default_value_t = 200_000)]
    pub vcf_nodes: u64,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash_mb: usize,
    /// One JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
}

impl AnalyzeArgs {
    /// Options for `rule` with every other setting at its default.
    pub fn new(rule: Rule) -> AnalyzeArgs {
        AnalyzeArgs {
            rule,
            size: 15,
            time_ms: None,
            nodes: None,
            multipv: 1,
            vcf_nodes: 200_000,
            hash_mb: 16,
            json: false,
        }
    }
}

fn parse_rule(name: &str) -> Result<Rule, String> {
    Rule::from_name(name)
        .ok_or_else(|| format!("unknown rule '{name}' (freestyle, standard, renju, caro, caro5)"))
}

/// One of the best moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The move.
    pub mv: Pos,
    /// Its score from the side to move's view.
    pub score: i32,
    /// Completed search depth (0 for a proven VCF or a move chosen without search).
    pub depth: i32,
    /// Nodes this line's search (or proof) cost.
    pub nodes: u64,
    /// The variation, starting with the move ([`Pos::NONE`] = a defender that cannot block).
    pub pv: Vec<Pos>,
}

/// Everything `analyze` says about one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The side to move.
    pub to_move: Color,
    /// The best moves, best first (at least one).
    pub lines: Vec<Line>,
    /// Black's forbidden points (renju only; empty otherwise).
    pub forbidden: Vec<(Pos, Foul)>,
    /// The VCF prover's answer for black.
    pub vcf_black: VcfResult,
    /// The VCF prover's answer for white.
    pub vcf_white: VcfResult,
}

pub use super::solve::read_position;

/// Analyses one position (see the module docs). `None` when the side to move has no legal
/// move.
pub fn analyze_position(
    args: &AnalyzeArgs,
    engine: &mut Engine,
    board: &Board,
) -> Option<Analysis> {
    let rule = args.rule;
    rules::tables::init(rule);
    let me = board.side_to_move();
    let vcf_limits = VcfLimits {
        max_nodes: args.vcf_nodes,
        ..VcfLimits::default()
    }
    .shortest_line();
    let vcf_black = vcf::solve(board, rule, Color::Black, vcf_limits);
    let vcf_white = vcf::solve(board, rule, Color::White, vcf_limits);
    let own = if me == Color::Black {
        &vcf_black
    } else {
        &vcf_white
    };

    let n = args.multipv.max(1) as usize;
    let mut lines: Vec<Line> = Vec::with_capacity(n);
    if let (VcfOutcome::Win(line), Some(plies)) = (&own.outcome, own.mate_plies()) {
        if let Some(&first) = line.first() {
            if rules::is_legal(board, first, me, rule) {
                lines.push(Line {
                    mv: first,
                    score: MATE - plies as i32,
                    depth: 0,
                    nodes: own.nodes,
                    pv: line.clone(),
                });
            }
        }
    }
    // The other lines: the engine's n-best (successive searches, each excluding the lines
    // found), each search with an even share of the budget.
    let searches = (n - lines.len()).max(1) as u64;
    let share = match (args.nodes, args.time_ms) {
        (Some(k), _) => Share::Nodes((k / searches).max(1)),
        (None, t) => {
            Share::Turn(TimeControl::with_maximum(t.unwrap_or(DEFAULT_TIME_MS) / searches).turn_ms)
        }
    };
    engine.options.rule = rule;
    share.set(&mut engine.options, searches);
    engine.set_board(board.clone()).ok()?;
    engine.clear_hash();
    engine.reset_blocks();
    engine.block(&lines.iter().map(|l| l.mv).collect::<Vec<_>>());
    let stop = AtomicBool::new(false);
    let wanted = n - lines.len();
    let found = match wanted {
        0 => Vec::new(),
        _ => match engine.run(Request::Best(wanted), &stop, &mut |_, _| {}) {
            Ok(Answer::Lines(found)) => found,
            _ => Vec::new(),
        },
    };
    for r in found {
        let pv = if r.pv.first() == Some(&r.mv) {
            r.pv
        } else {
            vec![r.mv]
        };
        let mut line = Line {
            mv: r.mv,
            score: r.score,
            depth: r.depth,
            nodes: r.nodes,
            pv,
        };
        if line.depth == 0 && mate_plies(line.score).is_none() {
            // Chosen without search (a single forced reply): score the position after it.
            judge_after(&mut line, engine, board, share, &stop);
        }
        lines.push(line);
    }
    engine.reset_blocks();
    if lines.is_empty() {
        return None;
    }
    let forbidden = if rule.has_fouls(Color::Black) {
        rules::forbidden_points(board)
    } else {
        Vec::new()
    };
    Some(Analysis {
        to_move: me,
        lines,
        forbidden,
        vcf_black,
        vcf_white,
    })
}

/// One search's share of an analysis's budget.
#[derive(Clone, Copy)]
enum Share {
    /// `--nodes`: this many nodes, no clock.
    Nodes(u64),
    /// `--time-ms`: a turn of this many ms (whose maximum is the share of the time).
    Turn(i64),
}

impl Share {
    /// Sets the engine's limits to `searches` of these shares (`Request::Best` splits them
    /// again between its searches).
    fn set(self, o: &mut Options, searches: u64) {
        match self {
            Share::Nodes(k) => (o.max_nodes, o.untimed) = (k * searches, true),
            Share::Turn(ms) => {
                (o.max_nodes, o.untimed) = (0, false);
                (o.timeout_turn_ms, o.timeout_match_ms) = (ms * searches as i64, 0);
            }
        }
    }
}

/// Replaces the unsearched score of `line` (a move the search played without searching) by
/// the negated score of a search of the position after it (with one `share` of the budget),
/// and extends the variation.
fn judge_after(
    line: &mut Line,
    engine: &mut Engine,
    board: &Board,
    share: Share,
    stop: &AtomicBool,
) {
    let rule = engine.options.rule;
    let me = board.side_to_move();
    if rules::is_five(board, line.mv, me, rule) {
        return;
    }
    let mut after = board.clone();
    after.place(line.mv, me);
    after.set_side_to_move(me.opponent());
    let whole = engine.options.clone();
    share.set(&mut engine.options, 1);
    let blocked = engine.blocked().to_vec();
    engine.reset_blocks();
    if engine.set_board(after).is_ok() {
        if let Ok(Answer::Lines(found)) = engine.run(Request::Move, stop, &mut |_, _| {}) {
            let r = &found[0];
            line.score = -r.score;
            line.depth = r.depth + 1;
            line.nodes += r.nodes;
            line.pv.truncate(1);
            line.pv.extend(r.pv.iter().copied());
        }
    }
    engine.block(&blocked);
    engine.options = whole;
}

/// Analyses every position of `input` and writes one result line each to `output`, with
/// `threads` search threads.
pub fn run(
    args: &AnalyzeArgs,
    threads: usize,
    eval: &crate::eval::EvalSet,
    input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut engine = Engine::new();
    engine.set_eval(eval.clone());
    engine.options.threads = threads.max(1);
    engine.options.hash_kb = Some(args.hash_mb.max(1) as u64 * 1024);
    for line in input.lines() {
        let line = line?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let start = Instant::now();
        let reply = match read_position(text, args.size, args.rule) {
            Ok(board) => match analyze_position(args, &mut engine, &board) {
                Some(a) => format_analysis(args.json, &a, start.elapsed().as_millis()),
                None => format_error(args.json, "no legal move (the board is full)"),
            },
            Err(why) => format_error(args.json, &why),
        };
        writeln!(output, "{reply}")?;
        output.flush()?;
    }
    output.flush()
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn text_score(score: i32) -> String {
    match mate_plies(score) {
        Some(k) if k > 0 => format!("M{k}"),
        Some(k) => format!("-M{}", -k),
        None => score.to_string(),
    }
}

fn json_points(points: &[Pos]) -> String {
    let items: Vec<String> = points
        .iter()
        .map(|&p| format!("\"{}\"", format_point(p)))
        .collect();
    format!("[{}]", items.join(","))
}

fn json_mate(score: i32) -> String {
    mate_plies(score).map_or("null".to_string(), |k| k.to_string())
}

fn vcf_word(r: &VcfResult) -> &'static str {
    match r.outcome {
        VcfOutcome::Win(_) => "win",
        VcfOutcome::NoWin => "none",
        VcfOutcome::Unknown => "unknown",
    }
}

fn format_analysis(json: bool, a: &Analysis, ms: u128) -> String {
    let best = &a.lines[0];
    let total_nodes: u64 = a.lines.iter().map(|l| l.nodes).sum();
    if json {
        let lines: Vec<String> = a
            .lines
            .iter()
            .map(|l| {
                format!(
                    "{{\"move\":\"{}\",\"score\":{},\"mate\":{},\"winrate\":{:.4},\"depth\":{},\"nodes\":{},\"pv\":{}}}",
                    format_point(l.mv),
                    l.score,
                    json_mate(l.score),
                    win_rate(l.score),
                    l.depth,
                    l.nodes,
                    json_points(&l.pv)
                )
            })
            .collect();
        let forbidden: Vec<String> = a
            .forbidden
            .iter()
            .map(|&(p, f)| {
                format!(
                    "{{\"point\":\"{}\",\"kind\":\"{}\"}}",
                    format_point(p),
                    f.label()
                )
            })
            .collect();
        let vcf = |r: &VcfResult| {
            let line = match &r.outcome {
                VcfOutcome::Win(l) => format!(",\"line\":{}", json_points(l)),
                _ => String::new(),
            };
            format!(
                "{{\"result\":\"{}\"{line},\"nodes\":{}}}",
                vcf_word(r),
                r.nodes
            )
        };
        format!(
            "{{\"to_move\":\"{}\",\"best\":\"{}\",\"score\":{},\"mate\":{},\"winrate\":{:.4},\"depth\":{},\"nodes\":{total_nodes},\"ms\":{ms},\"pv\":{},\"lines\":[{}],\"forbidden\":[{}],\"vcf\":{{\"black\":{},\"white\":{}}}}}",
            color_name(a.to_move),
            format_point(best.mv),
            best.score,
            json_mate(best.score),
            win_rate(best.score),
            best.depth,
            json_points(&best.pv),
            lines.join(","),
            forbidden.join(","),
            vcf(&a.vcf_black),
            vcf(&a.vcf_white),
        )
    } else {
        let mut out = format!(
            "best {} score {} winrate {:.1}% depth {} nodes {total_nodes} ms {ms} pv {}",
            format_point(best.mv),
            text_score(best.score),
            win_rate(best.score) * 100.0,
            best.depth,
            format_line(&best.pv)
        );
        for (i, l) in a.lines.iter().enumerate().skip(1) {
            out.push_str(&format!(
                " | {} {} score {} winrate {:.1}% depth {} pv {}",
                i + 1,
                format_point(l.mv),
                text_score(l.score),
                win_rate(l.score) * 100.0,
                l.depth,
                format_line(&l.pv)
            ));
        }
        if !a.forbidden.is_empty() {
            let points: Vec<String> = a
                .forbidden
                .iter()
                .map(|&(p, f)| format!("{}={}", format_point(p), f.label()))
                .collect();
            out.push_str(&format!(" | forbidden {}", points.join(" ")));
        }
        let vcf = |r: &VcfResult| match &r.outcome {
            VcfOutcome::Win(l) => format!("win {}", format_line(l)),
            _ => vcf_word(r).to_string(),
        };
        out.push_str(&format!(
            " | vcf black {} white {}",
            vcf(&a.vcf_black),
            vcf(&a.vcf_white)
        ));
        out
    }
}

fn format_error(json: bool, why: &str) -> String {
    if json {
        format!("{{\"error\":{}}}", json_string(why))
    } else {
        format!("error {why}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::WINRATE_SCALE;

    #[test]
    fn win_rate_is_a_logistic_and_mates_are_certain() {
        assert!((win_rate(0) - 0.5).abs() < 1e-9);
        let scale = WINRATE_SCALE as i32;
        assert!((win_rate(scale) - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-9);
        assert!((win_rate(-150) + win_rate(150) - 1.0).abs() < 1e-9);
        assert_eq!(win_rate(MATE - 5), 1.0);
        assert_eq!(win_rate(-MATE + 4), 0.0);
        assert_eq!(mate_plies(MATE - 5), Some(5));
        assert_eq!(mate_plies(-MATE + 4), Some(-4));
        assert_eq!(mate_plies(300), None);
        assert_eq!(text_score(MATE - 3), "M3");
        assert_eq!(text_score(-MATE + 2), "-M2");
    }
}
