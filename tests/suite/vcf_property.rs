//! Property test: on random positions under every rule, whenever the VCF prover claims a win,
//! the line replays to a five with every defender reply forced (checked by the independent
//! `verify_vcf_line`, not by the prover's own replay). The raw `search` is used so the prover's
//! built-in check cannot hide a bad line.

use crate::common::{random_board, Rng};
use lianzhu::eval::EvalBoard;
use lianzhu::notation::format_line;
use lianzhu::rules::{self, Board};
use lianzhu::threat::vcf::{self, VcfLimits, VcfOutcome};
use lianzhu::threat::verify_vcf_line;
use lianzhu::types::{Color, Pos, Rule};

/// A 32x32 or 20x11 board with the stones packed into a corner, to exercise the edges.
fn corner_board(rng: &mut Rng, rule: Rule, stones: usize) -> Board {
    let (w, h) = if rng.below(2) == 0 {
        (32, 32)
    } else {
        (20, 11)
    };
    let mut b = Board::new(w, h).unwrap();
    let mut color = Color::Black;
    let mut tries = 0;
    while b.stone_count() < stones && tries < 10_000 {
        tries += 1;
        let p = Pos::new(w - 1 - rng.below(9), h - 1 - rng.below(9));
        if !b.is_empty(p) || rules::is_five(&b, p, color, rule) {
            continue;
        }
        b.place(p, color);
        color = color.opponent();
    }
    b
}

#[test]
fn every_claimed_win_replays() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let rules = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];
    let limits = VcfLimits {
        max_nodes: 20_000,
        max_fours: 60,
        shortest: false,
    };
    let (mut wins, mut nowins, mut unknown) = (0, 0, 0);
    for i in 0..3000 {
        let rule = rules[i % rules.len()];
        let stones = 12 + rng.below(50);
        let span = 7 + rng.below(8);
        let b = random_board(&mut rng, rule, 15, stones, span);
        let b = if i % 7 == 6 {
            // Now and then a big or non-square board, with the stones against an edge.
            let big = corner_board(&mut rng, rule, stones);
            assert!(big.stone_count() > 0);
            big
        } else {
            b
        };
        let attacker = if rng.below(2) == 0 {
            Color::Black
        } else {
            Color::White
        };
        // Both modes: one depth-first pass, and (every other case) the shortest line.
        let limits = VcfLimits {
            shortest: i % 2 == 1,
            ..limits
        };
        let r = vcf::prove(&mut EvalBoard::new(&b, rule), attacker, limits);
        match r.outcome {
            VcfOutcome::Win(line) => {
                if let Err(e) = verify_vcf_line(&b, rule, attacker, &line) {
                    panic!(
                        "case {i} ({rule}, {attacker:?} to move) false win {}: {e}\n{b:?}",
                        format_line(&line)
                    );
                }
                wins += 1;
            }
            VcfOutcome::NoWin => nowins += 1,
            VcfOutcome::Unknown => unknown += 1,
        }
    }
    eprintln!("random positions: {wins} wins, {nowins} no-wins, {unknown} unknown");
    // The sample must exercise both answers, or the test proves nothing.
    assert!(wins >= 100, "only {wins} wins");
    assert!(nowins >= 100, "only {nowins} no-wins");
}

/// A slow, plain VCF reference written only with the rules functions: true if `attacker` (to
/// move) wins with at most `depth` fours.
fn reference_vcf(b: &mut Board, rule: Rule, attacker: Color, depth: u32) -> bool {
    let defender = attacker.opponent();
    if !rules::winning_points(b, attacker, rule).is_empty() {
        return true;
    }
    let threats = rules::winning_points(b, defender, rule);
    if threats.len() >= 2 || depth == 0 {
        return false;
    }
    let cands: Vec<Pos> = if threats.is_empty() {
        b.empty_points().collect()
    } else {
        threats
    };
    for q in cands {
        if !rules::is_legal(b, q, attacker, rule) {
            continue;
        }
        b.place(q, attacker);
        let fives = rules::winning_points(b, attacker, rule);
        let mut won = !fives.is_empty();
        if won {
            let empties: Vec<Pos> = b.empty_points().collect();
            for r in empties {
                if !rules::is_legal(b, r, defender, rule) {
                    continue;
                }
                b.place(r, defender);
                let stops = rules::winning_points(b, attacker, rule).is_empty();
                let holds = stops && !reference_vcf(b, rule, attacker, depth - 1);
                b.undo().unwrap();
                if holds {
                    won = false;
                    break;
                }
            }
        }
        b.undo().unwrap();
        if won {
            return true;
        }
    }
    false
}

#[test]
fn shortest_vcf_matches_a_brute_force_reference() {
    // 9x9 boards keep the brute force affordable; up to 3 fours.
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let rules = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];
    let (mut agreed_wins, mut agreed_none) = (0, 0);
    for i in 0..600 {
        let rule = rules[i % rules.len()];
        let stones = 10 + rng.below(25);
        let mut b = random_board(&mut rng, rule, 9, stones, 9);
        let attacker = b.side_to_move();
        let r = vcf::prove(
            &mut EvalBoard::new(&b, rule),
            attacker,
            VcfLimits::default().shortest_line(),
        );
        let found = match &r.outcome {
            VcfOutcome::Win(line) => Some((line.len() / 2) as u32),
            VcfOutcome::NoWin => None,
            VcfOutcome::Unknown => panic!("case {i}: unknown on a 9x9 board"),
        };
        let reference = (0..=3).find(|&d| reference_vcf(&mut b, rule, attacker, d));
        match (found, reference) {
            (Some(f), Some(m)) => {
                assert_eq!(f, m, "case {i} ({rule}): shortest VCF length\n{b:?}");
                agreed_wins += 1;
            }
            (Some(f), None) => assert!(
                f > 3,
                "case {i} ({rule}): reference finds no {f}-four VCF\n{b:?}"
            ),
            (None, Some(m)) => panic!("case {i} ({rule}): missed a {m}-four VCF\n{b:?}"),
            (None, None) => agreed_none += 1,
        }
    }
    eprintln!("reference agreement: {agreed_wins} wins, {agreed_none} none");
    assert!(
        agreed_wins >= 40 && agreed_none >= 40,
        "{agreed_wins} / {agreed_none}"
    );
}
