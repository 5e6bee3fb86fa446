//! The `solve` command: reads positions, one a line, and prints whether the side to move has a
//! VCF (or, with `--vct`, a VCT).
//!
//! Input lines are a move list (`h8i9h10`, colours alternate from black, the side to move
//! follows) or an explicit position (`B h8 i9 | W j10 k11 | black`); blank lines and lines
//! starting with `#` are skipped. Output, one line per position:
//! `win <line> nodes <n> ms <t>`, `none nodes <n> ms <t>` or `unknown nodes <n> ms <t>`
//! (`none` = proven that no VCF exists; `unknown` = a limit stopped the search), where
//! `<line>` is the winning line in `h8i9` notation with `--` for a defender that cannot block;
//! with `--json`, `{"result":"win","line":["g6","h7"],"nodes":1234,"ms":5}`. A line that
//! cannot be read, or a position that already holds a five, gives `error <why>` (json: `{"error":"..."}`) and the next line is read.
//!
//! This module reads and writes only the streams it is given; `main` wires it to stdin and
//! stdout.

use crate::notation::{self, format_line, format_point};
use crate::rules::Board;
use crate::threat::vcf::{self, VcfLimits, VcfOutcome, VcfResult};
use crate::threat::vct;
use crate::types::Rule;
use std::io::{self, BufRead, Write};
use std::time::Instant;

/// Command-line options of `solve`.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct SolveArgs {
    /// Rule: freestyle, standard, renju, caro (rule 8) or caro5 (rule 9).
    #[arg(long, value_parser = parse_rule)]
    pub rule: Rule,
    /// Board side.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Search continuous threats (fours and threes) instead of fours only.
    #[arg(long)]
    pub vct: bool,
    /// Node limit per position.
    #[arg(long, default_value_t = 2_000_000)]
    pub max_nodes: u64,
    /// VCF: find a shortest line (iterative deepening on the fours; slower than the default
    /// single pass, which finds some winning line).
    #[arg(long)]
    pub shortest: bool,
    /// One JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
}

impl SolveArgs {
    /// Options for `rule` with every other setting at its default.
    pub fn new(rule: Rule) -> SolveArgs {
        SolveArgs {
            rule,
            size: 15,
            vct: false,
            max_nodes: 2_000_000,
            shortest: false,
            json: false,
        }
    }
}

fn parse_rule(name: &str) -> Result<Rule, String> {
    Rule::from_name(name)
        .ok_or_else(|| format!("unknown rule '{name}' (freestyle, standard, renju, caro, caro5)"))
}

/// Solves every position of `input` and writes one result line each to `output`.
pub fn run(args: &SolveArgs, input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    for line in input.lines() {
        let line = line?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let reply = match read_position(text, args.size, args.rule) {
            Ok(board) => {
                let start = Instant::now();
                let result = solve_one(args, &board);
                format_result(args.json, &result, start.elapsed().as_millis())
            }
            Err(why) => format_error(args.json, &why),
        };
        writeln!(output, "{reply}")?;
    }
    output.flush()
}

/// The board of one input line, with its side to move, on a `size` x `size` board; an error
/// for unreadable text, stones off the board or on each other, and a position that already
/// holds a five under `rule`.
pub fn read_position(text: &str, size: usize, rule: Rule) -> Result<Board, String> {
    let position = notation::parse_position(text).map_err(|e| e.to_string())?;
    let mut board = Board::square(size).map_err(|e| e.to_string())?;
    for &(p, color) in &position.stones {
        if p.x() >= board.width() || p.y() >= board.height() {
            return Err(format!(
                "point {} is outside the board",
                notation::format_pos(p)
            ));
        }
        if !board.is_empty(p) {
            return Err(format!("point {} is occupied", notation::format_pos(p)));
        }
        board.place(p, color);
    }
    board.set_side_to_move(position.to_move);
    if let Some(&(p, _)) = board
        .history()
        .iter()
        .find(|&&(p, c)| crate::rules::is_five(&board, p, c, rule))
    {
        return Err(format!(
            "the game is already over (a five through {})",
            notation::format_pos(p)
        ));
    }
    Ok(board)
}

fn solve_one(args: &SolveArgs, board: &Board) -> VcfResult {
    let attacker = board.side_to_move();
    let limits = VcfLimits {
        max_nodes: args.max_nodes,
        shortest: args.shortest,
        ..VcfLimits::default()
    };
    if args.vct {
        vct::solve(board, args.rule, attacker, limits)
    } else {
        vcf::solve(board, args.rule, attacker, limits)
    }
}

fn format_result(json: bool, r: &VcfResult, ms: u128) -> String {
    let (word, line) = match &r.outcome {
        VcfOutcome::Win(line) => ("win", Some(line)),
        VcfOutcome::NoWin => ("none", None),
        VcfOutcome::Unknown => ("unknown", None),
    };
    if json {
        let line = line.map_or(String::new(), |l| {
            let points: Vec<String> = l
                .iter()
                .map(|&p| format!("\"{}\"", format_point(p)))
                .collect();
            format!(",\"line\":[{}]", points.join(","))
        });
        format!(
            "{{\"result\":\"{word}\"{line},\"nodes\":{},\"ms\":{ms}}}",
            r.nodes
        )
    } else {
        let line = line.map_or(String::new(), |l| format!(" {}", format_line(l)));
        format!("{word}{line} nodes {} ms {ms}", r.nodes)
    }
}

fn format_error(json: bool, why: &str) -> String {
    if json {
        format!("{{\"error\":{}}}", notation::json_string(why))
    } else {
        format!("error {why}")
    }
}
