//! VCF (and VCT) solve time over ../shared/data/vcf-puzzles.txt.
//!
//! `cargo bench --bench vcf` prints, for the VCF records (vcf: yes / no), how many positions
//! were answered correctly, the median and worst nodes and time per position (the default
//! single pass, per rule, then all records again asking for the shortest line), and the same
//! for the VCT records with `--vct`-style search, and the cost per call of a small exact
//! search (`VcfProver::prove` with 1 and 64 nodes) and of the search's leaf probe (the
//! bounded call `VcfProver::leaf` with the search's limits) on positions built beforehand.
//! Each position is solved `RUNS` times and the fastest time is kept, so the figures measure
//! the solver rather than machine noise. A `vcf split` line per rule gives where a `solve`'s
//! time goes: building the position from the plain board, the proof on a built position with
//! a new prover, and the replay of a won line on the plain board (medians of each part).
//! Without `../shared/data` it prints the skip notice of `tests/suite/common/shared.rs` and
//! measures nothing (under `CI` it fails).

#[path = "../tests/suite/common/shared.rs"]
mod shared;

use lianzhu::eval::EvalBoard;
use lianzhu::notation::parse_pos;
use lianzhu::rules::Board;
use lianzhu::search::params::{PROBE_FOURS, PROBE_NODES};
use lianzhu::threat::vcf::{self, VcfLimits, VcfOutcome};
use lianzhu::threat::vct;
use lianzhu::threat::verify_vcf_line;
use lianzhu::types::{Color, Rule};
use std::time::{Duration, Instant};

const RUNS: usize = 3;

struct Record {
    id: String,
    rule: Rule,
    board: Board,
    attacker: Color,
    vcf: Option<bool>,
    vct: bool,
    /// A freestyle/standard "no VCF" record that is a white VCF under renju.
    renju_contrast: bool,
}

fn records() -> Vec<Record> {
    let path = shared::shared_dir().join("vcf-puzzles.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = Vec::new();
    for rec in text.split("\n[puzzle ").skip(1) {
        let id = rec.split(']').next().unwrap().to_string();
        let field = |key: &str| {
            rec.lines()
                .find_map(|l| l.strip_prefix(key).map(|v| v.trim().to_string()))
                .unwrap_or_default()
        };
        let rule = Rule::from_name(&field("rule:")).expect("rule");
        let mut board = Board::square(15).unwrap();
        for (key, color) in [("black:", Color::Black), ("white:", Color::White)] {
            for w in field(key).split_whitespace() {
                board.place(parse_pos(w).unwrap(), color);
            }
        }
        let attacker = if field("to_move:") == "black" {
            Color::Black
        } else {
            Color::White
        };
        let vcf = match field("vcf:").as_str() {
            "yes" => Some(true),
            "no" => Some(false),
            _ => None,
        };
        let vct = field("vct:").starts_with("yes");
        let renju_contrast = field("renju_contrast:").contains("IS a white VCF");
        out.push(Record {
            id,
            rule,
            board,
            attacker,
            vcf,
            vct,
            renju_contrast,
        });
    }
    out
}

fn median<T: Copy + Ord>(v: &mut [T]) -> T {
    v.sort_unstable();
    v[v.len() / 2]
}

fn report(label: &str, nodes: &mut [u64], times: &mut [Duration], solved: usize, total: usize) {
    let sum: Duration = times.iter().sum();
    println!(
        "{label}: {solved}/{total} solved; median {} nodes, {:.3} ms; max {} nodes, {:.3} ms; total {:.1} ms",
        median(nodes),
        median(times).as_secs_f64() * 1e3,
        nodes.iter().max().unwrap(),
        times.iter().max().unwrap().as_secs_f64() * 1e3,
        sum.as_secs_f64() * 1e3,
    );
}

fn main() {
    // Without ../shared/data: a one-line notice and nothing measured (a failure under CI).
    if !shared::shared_data_or_skip("benches/vcf") {
        return;
    }
    let all = records();
    let limits = VcfLimits {
        max_nodes: 2_000_000,
        ..VcfLimits::default()
    };
    // The default single pass, then the shortest-line deepening, on the same records.
    for (subset, limits) in [
        ("all", limits),
        ("freestyle", limits),
        ("standard", limits),
        ("renju", limits),
        ("all, shortest", limits.shortest_line()),
    ] {
        let (mut nodes, mut times, mut solved, mut total) = (Vec::new(), Vec::new(), 0, 0);
        for r in all.iter().filter(|r| r.vcf.is_some()) {
            if !subset.starts_with("all") && r.rule.name() != subset {
                continue;
            }
            total += 1;
            let mut best = Duration::MAX;
            let mut result = None;
            for _ in 0..RUNS {
                let start = Instant::now();
                let res = vcf::solve(&r.board, r.rule, r.attacker, limits);
                best = best.min(start.elapsed());
                result = Some(res);
            }
            let res = result.unwrap();
            let correct = match (&res.outcome, r.vcf) {
                (VcfOutcome::Win(_), Some(true)) | (VcfOutcome::NoWin, Some(false)) => true,
                _ => {
                    println!("  {}: {:?} ({} nodes)", r.id, res.outcome, res.nodes);
                    false
                }
            };
            solved += correct as usize;
            nodes.push(res.nodes);
            times.push(best);
        }
        report(
            &format!("vcf {subset}"),
            &mut nodes,
            &mut times,
            solved,
            total,
        );
    }
    // Where a solve's time goes: build, prove, verify (each the fastest of RUNS).
    for subset in ["freestyle", "standard", "renju"] {
        let (mut build, mut prove, mut verify) = (Vec::new(), Vec::new(), Vec::new());
        for r in all
            .iter()
            .filter(|r| r.vcf.is_some() && r.rule.name() == subset)
        {
            let (mut b, mut p, mut v) = (Duration::MAX, Duration::MAX, Duration::MAX);
            for _ in 0..RUNS {
                let start = Instant::now();
                let mut pos = EvalBoard::new(&r.board, r.rule);
                b = b.min(start.elapsed());
                let start = Instant::now();
                let res = vcf::VcfProver::new().prove(&mut pos, r.attacker, limits);
                p = p.min(start.elapsed());
                if let VcfOutcome::Win(line) = &res.outcome {
                    let start = Instant::now();
                    let ok = verify_vcf_line(&r.board, r.rule, r.attacker, line).is_ok();
                    v = v.min(start.elapsed());
                    assert!(ok, "{}: the proved line does not replay", r.id);
                }
            }
            build.push(b);
            prove.push(p);
            if v != Duration::MAX {
                verify.push(v);
            }
        }
        let us = |v: &mut Vec<Duration>| {
            if v.is_empty() {
                0.0
            } else {
                median(v).as_secs_f64() * 1e6
            }
        };
        println!(
            "vcf split {subset}: median build {:.1} us, prove {:.1} us, verify {:.1} us ({} positions, {} wins)",
            us(&mut build),
            us(&mut prove),
            us(&mut verify),
            build.len(),
            verify.len()
        );
    }
    // The renju-contrast records solved as renju: each is a white VCF there.
    let (mut nodes, mut times, mut solved, mut total) = (Vec::new(), Vec::new(), 0, 0);
    for r in all.iter().filter(|r| r.renju_contrast) {
        total += 1;
        let start = Instant::now();
        let res = vcf::solve(&r.board, Rule::Renju, r.attacker, limits);
        times.push(start.elapsed());
        nodes.push(res.nodes);
        solved += matches!(res.outcome, VcfOutcome::Win(_)) as usize;
    }
    report(
        "vcf renju-contrast (as renju)",
        &mut nodes,
        &mut times,
        solved,
        total,
    );
    // Random middle-game positions (20-50 stones, seeded xorshift) for the per-call costs.
    let mut state: u64 = 88_172_645_463_325_252;
    let mut below = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut boards = Vec::new();
    for _ in 0..2000 {
        let mut b = Board::square(15).unwrap();
        let mut color = Color::Black;
        let n = 20 + below(30);
        while b.stone_count() < n {
            let p = lianzhu::types::Pos::new(3 + below(9), 3 + below(9));
            if b.is_empty(p) && !lianzhu::rules::is_five(&b, p, color, Rule::Freestyle) {
                b.place(p, color);
                color = color.opponent();
            }
        }
        boards.push(b);
    }
    // Positions built beforehand (the search keeps its position; building it is not part of
    // a call).
    let mut ebs: Vec<EvalBoard> = boards
        .iter()
        .map(|b| EvalBoard::new(b, Rule::Freestyle))
        .collect();
    let mut prover = vcf::VcfProver::new();
    for budget in [1u64, 64] {
        let limits = VcfLimits {
            max_nodes: budget,
            max_fours: 60,
            shortest: false,
        };
        let start = Instant::now();
        let mut found = 0;
        for eb in &mut ebs {
            let me = eb.side_to_move();
            found += matches!(prover.prove(eb, me, limits).outcome, VcfOutcome::Win(_)) as usize;
        }
        println!(
            "VcfProver::prove({budget} nodes), random positions: {:.1} us per call ({found} of {} found)",
            start.elapsed().as_secs_f64() * 1e6 / ebs.len() as f64,
            ebs.len()
        );
    }
    // The search's leaf call (VcfProver::leaf with the search's limits) on the same positions.
    for eb in &mut ebs {
        // Warm-up pass (caches, the prover's move lists), not timed.
        let me = eb.side_to_move();
        prover.leaf(eb, me, VcfLimits::leaf(64, PROBE_FOURS));
    }
    for nodes in [PROBE_NODES, 64] {
        let limits = VcfLimits::leaf(nodes, PROBE_FOURS);
        let start = Instant::now();
        let mut found = 0;
        for eb in &mut ebs {
            let me = eb.side_to_move();
            found += prover.leaf(eb, me, limits).is_some() as usize;
        }
        println!(
            "leaf VCF ({nodes} fours), random positions: {:.1} us per call ({found} of {} found)",
            start.elapsed().as_secs_f64() * 1e6 / ebs.len() as f64,
            ebs.len()
        );
    }
    let vct_limits = VcfLimits {
        max_nodes: 20_000,
        max_fours: 12,
        shortest: false,
    };
    let (mut nodes, mut times, mut solved, mut total) = (Vec::new(), Vec::new(), 0, 0);
    for r in all.iter().filter(|r| r.vct) {
        total += 1;
        let start = Instant::now();
        let res = vct::solve(&r.board, r.rule, r.attacker, vct_limits);
        times.push(start.elapsed());
        nodes.push(res.nodes);
        if matches!(res.outcome, VcfOutcome::Win(_)) {
            solved += 1;
        } else {
            println!("  {}: {:?} ({} nodes)", r.id, res.outcome, res.nodes);
        }
    }
    report("vct (20k nodes)", &mut nodes, &mut times, solved, total);
}
