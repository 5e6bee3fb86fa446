//! The search at the root refutes the opponent's VCF: with the defender of a VCF puzzle to
//! move, the engine's reply must leave the attacker without a VCF whenever some reply does.

use lianzhu::engine::{Engine, Request};
use lianzhu::eval::EvalBoard;
use lianzhu::notation::parse_pos;
use lianzhu::threat::vcf::{self, VcfLimits, VcfOutcome};
use lianzhu::types::{Color, Pos, Rule};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::common;

/// (rule, attacker, black stones, white stones) of every `vcf: yes` puzzle with at least
/// `min_fours` fours, so the search's own depth cannot see the attack.
fn long_vcf_puzzles(min_fours: u32) -> Vec<(Rule, Color, Vec<Pos>, Vec<Pos>)> {
    let text = common::data("vcf-puzzles.txt");
    let mut out = Vec::new();
    for record in text.split("\n[puzzle ").skip(1) {
        let field = |name: &str| {
            record
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name}:")))
                .map(str::trim)
        };
        let points = |s: &str| -> Vec<Pos> {
            s.split_whitespace()
                .filter(|w| *w != "-")
                .map(|w| parse_pos(w).unwrap())
                .collect()
        };
        let fours: u32 = field("min_fours").and_then(|v| v.parse().ok()).unwrap_or(0);
        if field("vcf") != Some("yes") || fours < min_fours {
            continue;
        }
        let rule = Rule::from_name(field("rule").unwrap()).unwrap();
        let attacker = if field("to_move") == Some("black") {
            Color::Black
        } else {
            Color::White
        };
        out.push((
            rule,
            attacker,
            points(field("black").unwrap()),
            points(field("white").unwrap()),
        ));
    }
    out
}

/// The turn limit of every reply.
const TURN_MS: i64 = 300;

#[test]
fn root_move_refutes_the_opponents_vcf_when_it_can() {
    if !common::have_shared_data() {
        return;
    }
    let cases = long_vcf_puzzles(4);
    assert!(cases.len() >= 50, "only {} puzzles", cases.len());
    let full = VcfLimits {
        max_nodes: 200_000,
        ..VcfLimits::default()
    };
    let (mut checked, mut lost) = (0, Vec::new());
    let mut slowest = (Duration::ZERO, 0);
    for (i, (rule, attacker, black, white)) in cases.iter().enumerate() {
        let mut engine = Engine::new();
        engine.options.rule = *rule;
        engine.options.timeout_turn_ms = TURN_MS;
        engine.start(15, 15).unwrap();
        let stones: Vec<(Pos, Color)> = black
            .iter()
            .map(|&p| (p, Color::Black))
            .chain(white.iter().map(|&p| (p, Color::White)))
            .collect();
        engine.set_position(&stones, attacker.opponent()).unwrap();
        let board = engine.board().unwrap().clone();
        // Only positions where a refutation exists and the defender is not winning itself.
        let mut pos = EvalBoard::new(&board, *rule);
        let Some(defences) = vcf::defences(&mut pos, full, full, None) else {
            continue;
        };
        if defences.is_empty()
            || vcf::solve(&board, *rule, attacker.opponent(), full)
                .first_move()
                .is_some()
        {
            continue;
        }
        let stop = AtomicBool::new(false);
        let asked = Instant::now();
        let answer = engine.run(Request::Move, &stop, &mut |_, _| {}).unwrap();
        let reply = answer.best().unwrap();
        slowest = slowest.max((asked.elapsed(), i));
        checked += 1;
        let mut after = board.clone();
        after.make(reply);
        if matches!(
            vcf::solve(&after, *rule, *attacker, full).outcome,
            VcfOutcome::Win(_)
        ) {
            lost.push(format!(
                "case {i} ({rule}): reply {reply:?}, defences {defences:?}"
            ));
        }
    }
    assert!(checked >= 20, "only {checked} positions checked");
    // The turn is 300 ms; the time manager aims to answer 68 ms before it.
    assert!(
        slowest.0 < Duration::from_millis(TURN_MS as u64),
        "slowest reply {:?} (case {}) at a {TURN_MS} ms turn",
        slowest.0,
        slowest.1
    );
    println!("slowest reply {:?} (case {})", slowest.0, slowest.1);
    assert!(
        lost.is_empty(),
        "{} of {checked} replies lose to a VCF:\n{}",
        lost.len(),
        lost.join("\n")
    );
}
