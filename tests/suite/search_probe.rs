//! The search's leaf VCF probe (the prover's bounded call, `VcfProver::leaf`): every win it
//! claims is one the full provers confirm; it never claims a win under caro; it restores the
//! board (stones, side to move, hash, pattern state); where the bounded call's model holds,
//! it agrees with the exact search on the same position.

use crate::common;

use crate::common::{puzzles, random_board, Rng};
use lianzhu::eval::EvalBoard;
use lianzhu::rules::pattern::CellThreat;
use lianzhu::rules::Board;
use lianzhu::search::params::{PROBE_FOURS, PROBE_NODES};
use lianzhu::threat::vcf::{self, VcfLimits, VcfOutcome, VcfProver};
use lianzhu::threat::vct;
use lianzhu::types::{Color, Rule};

/// The limits the search uses, and a larger budget that reaches more lines.
const LIMITS: [VcfLimits; 2] = [
    VcfLimits::leaf(PROBE_NODES, PROBE_FOURS),
    VcfLimits::leaf(2_000, 10),
];

/// Checks a probe's claim of a win for `attacker`: the VCF prover finds one, or (the probe's
/// four-three and double-three shortcuts against a defender without fours are wins by
/// threats, not only fours) the VCT prover does.
fn confirm(b: &Board, rule: Rule, attacker: Color, plies: u32, what: &str) {
    let limits = VcfLimits {
        max_nodes: 2_000_000,
        max_fours: 60,
        shortest: false,
    };
    if let VcfOutcome::Win(_) = vcf::solve(b, rule, attacker, limits).outcome {
        return;
    }
    let r = vct::solve(b, rule, attacker, limits);
    assert!(
        matches!(r.outcome, VcfOutcome::Win(_)),
        "{what}: probe claims a win in {plies} plies, the VCF prover finds none and the VCT \
         prover says {:?}\n{b:?}",
        r.outcome
    );
}

/// Runs the probe for `attacker` and checks that the board came back as it was.
fn probe(p: &mut VcfProver, eb: &mut EvalBoard, attacker: Color, limits: VcfLimits) -> Option<u32> {
    let (hash, side, stones) = (
        eb.board().hash(),
        eb.side_to_move(),
        eb.board().stone_count(),
    );
    let r = p.leaf(eb, attacker, limits);
    assert_eq!(eb.board().hash(), hash, "hash restored");
    assert_eq!(eb.side_to_move(), side, "side to move restored");
    assert_eq!(eb.board().stone_count(), stones, "stones restored");
    r
}

#[test]
fn claimed_wins_are_real_on_random_positions() {
    let mut rng = Rng(0x5EED_F0C5);
    let rules = [Rule::Freestyle, Rule::Standard, Rule::Renju];
    let mut p = VcfProver::default();
    let (mut claims, mut passed_claims, mut tries) = (0, 0, 0);
    for i in 0..1500 {
        let rule = rules[i % rules.len()];
        let stones = 10 + rng.below(40);
        let span = 7 + rng.below(8);
        let b = random_board(&mut rng, rule, 15, stones, span);
        let mut eb = EvalBoard::new(&b, rule);
        // The defender must not hold a five point, as at the search's horizon.
        for attacker in [Color::Black, Color::White] {
            if eb.count(attacker.opponent(), CellThreat::Five) > 0
                || eb.count(attacker, CellThreat::Five) > 0
            {
                continue;
            }
            for limits in LIMITS {
                tries += 1;
                if let Some(n) = probe(&mut p, &mut eb, attacker, limits) {
                    claims += 1;
                    if attacker != eb.side_to_move() {
                        passed_claims += 1;
                    }
                    confirm(
                        &b,
                        rule,
                        attacker,
                        n,
                        &format!("case {i} ({rule}, {attacker:?})"),
                    );
                }
            }
        }
        if i % 100 == 0 {
            eb.check_consistency().expect("pattern state restored");
        }
    }
    eprintln!("random positions: {claims} claims ({passed_claims} for the side not to move) in {tries} probes");
    // The sample must contain claims of both kinds, or it proves nothing.
    assert!(claims >= 200, "only {claims} claims");
    assert!(
        passed_claims >= 50,
        "only {passed_claims} claims for the side not to move"
    );
}

#[test]
fn puzzles_no_false_wins_and_a_share_found() {
    if !common::have_shared_data() {
        return;
    }
    let mut p = VcfProver::default();
    let (mut found, mut wins, mut nones, mut threat_wins) = (0, 0, 0, 0);
    for z in puzzles() {
        let (b, rule, attacker) = z.setup();
        let mut eb = EvalBoard::new(&b, rule);
        let r = probe(&mut p, &mut eb, attacker, LIMITS[1]);
        match z.vcf {
            Some(false) => {
                // No VCF, but the shortcuts may still see a win by threats (a double three
                // against a defender without fours), which the VCT prover must confirm.
                nones += 1;
                if let Some(n) = r {
                    threat_wins += 1;
                    confirm(&b, rule, attacker, n, &z.id);
                }
            }
            Some(true) => {
                wins += 1;
                if let Some(n) = r {
                    found += 1;
                    confirm(&b, rule, attacker, n, &z.id);
                }
            }
            None => {}
        }
    }
    eprintln!(
        "puzzles: probe found {found} of {wins} VCFs; {threat_wins} of {nones} no-VCF cases \
         are wins by threats the VCT prover confirms"
    );
    assert!(nones > 0 && wins > 0, "the data file has both kinds");
    // The probe gives up lines a full prover finds (plain fours, fours away from the last
    // one), but it must find a share of the real ones or it probes nothing.
    assert!(found * 4 >= wins, "probe found only {found} of {wins}");
}

#[test]
fn caro_is_never_probed() {
    let mut rng = Rng(0xCA20);
    let mut p = VcfProver::default();
    for rule in [Rule::Caro, Rule::CaroExact] {
        for _ in 0..100 {
            let stones = 20 + rng.below(30);
            let b = random_board(&mut rng, rule, 15, stones, 9);
            let mut eb = EvalBoard::new(&b, rule);
            for attacker in [Color::Black, Color::White] {
                assert_eq!(probe(&mut p, &mut eb, attacker, LIMITS[1]), None);
            }
        }
    }
}

#[test]
fn bounded_and_exact_calls_agree_on_one_position() {
    // The leaf call and the exact search are one search run on the same position: a leaf
    // win is an exact win no shorter than the exact one (or, for the double-three shortcut,
    // a VCT), a win the exact search finds in 1 or 3 plies outside renju is seen by the leaf
    // call in as many plies (the five and the undefendable-four point are its statics), and
    // both calls leave the position as they found it.
    let mut rng = Rng(0xA9_2EE5);
    let rules = [Rule::Freestyle, Rule::Standard, Rule::Renju];
    let mut prover = VcfProver::default();
    // Shortest lines: a leaf's win is compared with the shortest VCF's length.
    let exact = VcfLimits {
        max_nodes: 200_000,
        max_fours: 60,
        shortest: true,
    };
    let (mut leaf_wins, mut short_wins) = (0, 0);
    for i in 0..900 {
        let rule = rules[i % rules.len()];
        let stones = 10 + rng.below(40);
        let span = 7 + rng.below(8);
        let b = random_board(&mut rng, rule, 15, stones, span);
        let mut eb = EvalBoard::new(&b, rule);
        for attacker in [Color::Black, Color::White] {
            if eb.count(attacker.opponent(), CellThreat::Five) > 0 {
                continue;
            }
            let hash = eb.board().hash();
            let leaf = prover.leaf(&mut eb, attacker, LIMITS[1]);
            let full = vcf::prove(&mut eb, attacker, exact);
            assert_eq!(eb.board().hash(), hash, "case {i}: position restored");
            let what = format!("case {i} ({rule}, {attacker:?})");
            if let Some(n) = leaf {
                leaf_wins += 1;
                match full.mate_plies() {
                    Some(m) if m <= n as usize => {}
                    // Shorter than any VCF: the double-three shortcut, a win by threats
                    // (the VCT prover's line need not be its shortest).
                    _ => {
                        let moves = VcfLimits {
                            max_nodes: 200_000,
                            max_fours: (n - 1) / 2,
                            shortest: false,
                        };
                        let r = vct::solve(&b, rule, attacker, moves);
                        assert!(
                            r.mate_plies().is_some(),
                            "{what}: leaf {n} plies, exact {:?}, VCT {:?}",
                            full.mate_plies(),
                            r.outcome
                        );
                    }
                }
            }
            if let Some(m @ (1 | 3)) = full.mate_plies() {
                if rule != Rule::Renju {
                    short_wins += 1;
                    assert_eq!(leaf, Some(m as u32), "{what}: exact wins in {m} plies");
                }
            }
        }
        eb.check_consistency().expect("pattern state restored");
    }
    eprintln!("{leaf_wins} leaf wins, {short_wins} short exact wins");
    assert!(
        leaf_wins >= 100 && short_wins >= 50,
        "{leaf_wins} / {short_wins}"
    );
}
