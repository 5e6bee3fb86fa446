//! `pbrain-lianzhu opening`: the renju opening decisions for scripts. One position a line on
//! stdin, one JSON object a line on stdout.
//!
//! A line is the stones in move order in the common notation (`h8h9h10g9`; `-` for none;
//! an opening's name may stand for its three stones: `Kagetsu`, `花月`, `D4`, `kagetsu+g9`),
//! then optionally `n=N` (Yamaguchi: declared with the opening; Soosõrv-8: with move 4) and
//! `offers=i10j8` (the fifth-move offers, for the pick stage). Blank lines and `#` comments
//! are skipped. The stage's rules are checked on the way (see
//! [`crate::rules::opening::game`]); a position that breaks them, or that does not lead to
//! the stage asked, gets `{"error":"..."}` (points in errors are protocol `x,y`).
//!
//! `--list` writes the 26 openings instead, one a line.

use crate::engine::opening::{decide_step, Decision};
use crate::notation::{format_pos, json_string, parse_moves};
use crate::rules::opening::game::{OpeningGame, Protocol, Step};
use crate::rules::opening::{by_name, Opening, OPENINGS};
use crate::search::time::TimeControl;
use crate::search::{Limits, Searcher};
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The options of `opening`.
#[derive(clap::Args, Debug, Clone)]
pub struct OpeningArgs {
    /// Protocol: rif, yamaguchi, soosorv8, taraguchi10.
    #[arg(long, value_parser = parse_protocol, required_unless_present = "list")]
    pub protocol: Option<Protocol>,
    /// Stage (1-based): RIF and Yamaguchi 1 opening, 2 swap, 3 4th move, 4 offers, 5 pick;
    /// Soosõrv-8 1 opening, 2 swap, 3 4th move and N, 4 second swap, 5 offers, 6 pick;
    /// Taraguchi-10 1 next stone, 2 swap, 3 ten offers (instead of stone 5), 4 pick.
    #[arg(long, required_unless_present = "list")]
    pub stage: Option<usize>,
    /// Search time per position in milliseconds (default 1000 when --nodes is not given).
    #[arg(long, conflicts_with = "nodes")]
    pub time_ms: Option<u64>,
    /// Search nodes per position (deterministic with one thread).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Board side (odd, 9 or more).
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash_mb: usize,
    /// Write the 26 openings (code, names, stones) and exit.
    #[arg(long)]
    pub list: bool,
}

fn parse_protocol(name: &str) -> Result<Protocol, String> {
    Protocol::from_name(name)
        .ok_or_else(|| format!("unknown protocol '{name}' (rif, yamaguchi, soosorv8, taraguchi10)"))
}

/// One input line, read.
struct Input {
    stones: Vec<crate::types::Pos>,
    n: Option<usize>,
    offers: Vec<crate::types::Pos>,
}

fn read_stones(text: &str, size: usize) -> Result<Vec<crate::types::Pos>, String> {
    if text == "-" {
        return Ok(Vec::new());
    }
    let (head, tail) = text.split_once('+').unwrap_or((text, ""));
    let mut stones = match parse_moves(head) {
        Ok(m) => m,
        Err(e) => {
            let o = by_name(head)
                .ok_or_else(|| format!("'{head}' is no move list ({e}) nor an opening's name"))?;
            let board = crate::rules::Board::square(size).map_err(|e| e.to_string())?;
            o.stones(&board)
                .ok_or_else(|| "the board is too small".to_string())?
                .to_vec()
        }
    };
    stones.extend(parse_moves(tail).map_err(|e| e.to_string())?);
    Ok(stones)
}

fn read_input(line: &str, size: usize) -> Result<Input, String> {
    let mut words = line.split_whitespace();
    let stones = read_stones(words.next().unwrap_or("-"), size)?;
    let mut input = Input {
        stones,
        n: None,
        offers: Vec::new(),
    };
    for w in words {
        if let Some(n) = w.strip_prefix("n=") {
            input.n = Some(
                n.parse()
                    .map_err(|_| format!("bad number of offers '{n}'"))?,
            );
        } else if let Some(o) = w.strip_prefix("offers=") {
            input.offers = parse_moves(o).map_err(|e| e.to_string())?;
        } else {
            return Err(format!("unknown field '{w}' (n=N, offers=MOVES)"));
        }
    }
    Ok(input)
}

fn json_points(points: &[crate::types::Pos]) -> String {
    let items: Vec<String> = points
        .iter()
        .map(|&p| json_string(&format_pos(p)))
        .collect();
    format!("[{}]", items.join(","))
}

fn json_opening(o: &Opening) -> String {
    format!(
        "{{\"code\":{},\"name\":{},\"japanese\":{},\"chinese\":{},\"traditional\":{},\"kind\":{}}}",
        json_string(o.code),
        json_string(o.name),
        json_string(o.japanese),
        json_string(o.chinese),
        json_string(o.traditional),
        json_string(if o.is_direct() { "direct" } else { "indirect" }),
    )
}

fn step_name(step: Step) -> &'static str {
    match step {
        Step::Opening => "opening",
        Step::Place(_) => "place",
        Step::Swap(_) => "swap",
        Step::Fourth => "fourth",
        Step::Offers => "offers",
        Step::Pick => "pick",
        Step::Done => "done",
    }
}

/// The JSON fields of a decision (without braces).
fn json_decision(d: &Decision) -> String {
    match d {
        Decision::Opening {
            opening,
            stones,
            offers,
        } => {
            let mut s = format!(
                "\"opening\":{},\"stones\":{}",
                json_opening(opening),
                json_points(stones)
            );
            if let Some(n) = offers {
                s.push_str(&format!(",\"offers\":{n}"));
            }
            s
        }
        Decision::Place(p) => format!("\"move\":{}", json_string(&format_pos(*p))),
        Decision::Swap(s) => format!("\"swap\":{s}"),
        Decision::Fourth { stone, offers } => {
            let mut s = format!("\"move\":{}", json_string(&format_pos(*stone)));
            if let Some(n) = offers {
                s.push_str(&format!(",\"offers\":{n}"));
            }
            s
        }
        Decision::Offers(o) => format!("\"offers\":{}", json_points(o)),
        Decision::Pick { fifth, sixth } => format!(
            "\"fifth\":{},\"sixth\":{}",
            json_string(&format_pos(*fifth)),
            json_string(&format_pos(*sixth))
        ),
    }
}

fn error(why: &str) -> String {
    format!("{{\"error\":{}}}", json_string(why))
}

/// Answers every line of `input` on `output` (see the module docs), with `threads` search
/// threads and the evaluation `eval`.
pub fn run(
    args: &OpeningArgs,
    threads: usize,
    eval: &crate::eval::EvalSet,
    input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    if args.list {
        for o in OPENINGS.iter() {
            let board = crate::rules::Board::square(15).expect("15x15");
            let stones = o.stones(&board).expect("fits");
            let mut j = json_opening(o);
            j.pop();
            writeln!(output, "{j},\"stones\":{}}}", json_points(&stones))?;
        }
        return output.flush();
    }
    let (Some(protocol), Some(stage)) = (args.protocol, args.stage) else {
        writeln!(output, "{}", error("--protocol and --stage are needed"))?;
        return output.flush();
    };
    let mut searcher = Searcher::new(args.hash_mb.max(1) << 20);
    searcher.set_eval(eval.clone());
    let limits = Limits {
        time: match args.nodes {
            Some(_) => None,
            None => Some(TimeControl::with_maximum(args.time_ms.unwrap_or(1000))),
        },
        max_nodes: args.nodes.unwrap_or(0),
        threads: threads.max(1),
        ..Limits::default()
    };
    let stages = protocol.stages();
    for line in input.lines() {
        let line = line?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let start = Instant::now();
        let reply = match stage.checked_sub(1).and_then(|i| stages.get(i)) {
            None => error(&format!(
                "{protocol} has stages 1 to {}, not {stage}",
                stages.len()
            )),
            Some(&step) => answer(&mut searcher, protocol, args.size, step, text, &limits)
                .map(|d| {
                    format!(
                        "{{\"protocol\":{},\"stage\":{stage},\"step\":{},{},\"time_ms\":{}}}",
                        json_string(protocol.name()),
                        json_string(step_name(step)),
                        json_decision(&d),
                        start.elapsed().as_millis()
                    )
                })
                .unwrap_or_else(|e| error(&e)),
        };
        writeln!(output, "{reply}")?;
        output.flush()?;
    }
    output.flush()
}

fn answer(
    searcher: &mut Searcher,
    protocol: Protocol,
    size: usize,
    step: Step,
    text: &str,
    limits: &Limits,
) -> Result<Decision, String> {
    let input = read_input(text, size)?;
    let game = OpeningGame::replay(protocol, size, &input.stones, input.n, &input.offers, step)
        .map_err(|e| e.to_string())?;
    let step = match step {
        Step::Place(0) => game.step(),
        Step::Swap(0) => game.step(),
        s => s,
    };
    let stop = AtomicBool::new(false);
    decide_step(searcher, &game, step, limits, &stop).map_err(|e| e.to_string())
}
