//! The VCF prover against the repository's constructed positions (tests/fixtures/vcf.txt, VCF
//! and no-VCF pairs under every rule, run everywhere), ../shared/data/vcf-puzzles.txt
//! (freestyle, standard and renju; VCF and no-VCF cases, checked by an independent reference
//! search) and hand-built renju cases.
//!
//! Every claimed line is replayed by `verify_vcf_line` (every attacker move legal and a four or
//! the final five, every defender move the forced block, the defender never holding a five).

use crate::common;

use crate::common::{data, fixture, puzzles};
use lianzhu::eval::EvalBoard;
use lianzhu::notation::parse_pos;
use lianzhu::rules::{self, Board};
use lianzhu::threat::vcf::{self, VcfLimits, VcfOutcome};
use lianzhu::threat::verify_vcf_line;
use lianzhu::types::{Color, Pos, Rule};

/// Node limit within which every known VCF of the data set must be found.
const PUZZLE_NODES: u64 = 2_000_000;

/// Attacker fours in a line (the five excluded).
fn fours(line: &[Pos]) -> u32 {
    (line.len() / 2) as u32
}

#[test]
fn every_puzzle_answered_correctly() {
    if !common::have_shared_data() {
        return;
    }
    let all = puzzles();
    assert!(all.len() >= 200, "data file read: {} records", all.len());
    let limits = VcfLimits {
        max_nodes: PUZZLE_NODES,
        ..VcfLimits::default()
    };
    let (mut wins, mut nowins, mut shortest) = (0, 0, 0);
    let mut failures = Vec::new();
    for p in all.iter().filter(|p| p.vcf.is_some()) {
        let (b, rule, attacker) = p.setup();
        let r = vcf::solve(&b, rule, attacker, limits);
        match (&r.outcome, p.vcf) {
            (VcfOutcome::Win(line), Some(true)) => {
                verify_vcf_line(&b, rule, attacker, line)
                    .unwrap_or_else(|e| panic!("{}: bad line: {e}", p.id));
                if let Some(min) = p.min_fours {
                    assert!(fours(line) >= min, "{}: shorter than the minimum", p.id);
                    if fours(line) == min {
                        shortest += 1;
                    }
                }
                wins += 1;
            }
            (VcfOutcome::NoWin, Some(false)) => nowins += 1,
            (VcfOutcome::Win(line), Some(false)) => {
                panic!(
                    "{}: false win {:?}",
                    p.id,
                    lianzhu::notation::format_line(line)
                )
            }
            (other, _) => failures.push(format!("{}: {:?} after {} nodes", p.id, other, r.nodes)),
        }
    }
    eprintln!("puzzles: {wins} wins ({shortest} of minimal length), {nowins} no-wins");
    assert!(failures.is_empty(), "wrong or unknown: {failures:#?}");
    assert_eq!(wins, 159);
    assert_eq!(nowins, 57);
}

/// One record of tests/fixtures/vcf.txt.
struct FixtureVcf {
    id: String,
    rule: Rule,
    attacker: Color,
    board: Board,
    vcf: bool,
    /// The record's winning line ([`Pos::NONE`] for `--`).
    line: Vec<Pos>,
}

fn fixture_vcfs() -> Vec<FixtureVcf> {
    let text = fixture("vcf.txt");
    let mut out = Vec::new();
    for rec in text.split("\n[vcf ").skip(1) {
        let id = rec.split(']').next().unwrap().to_string();
        let field = |name: &str| {
            rec.lines()
                .find_map(|l| l.strip_prefix(&format!("{name}:")))
                .map(str::trim)
        };
        let get = |name: &str| field(name).unwrap_or_else(|| panic!("{id}: no {name}"));
        let attacker = match get("to_move") {
            "black" => Color::Black,
            "white" => Color::White,
            other => panic!("{id}: side {other}"),
        };
        let line = field("line")
            .unwrap_or("")
            .split_whitespace()
            .map(|w| {
                if w == "--" {
                    Pos::NONE
                } else {
                    parse_pos(w).unwrap()
                }
            })
            .collect();
        out.push(FixtureVcf {
            rule: Rule::from_name(get("rule")).unwrap_or_else(|| panic!("{id}: rule")),
            board: board(get("black"), get("white"), attacker),
            vcf: get("vcf") == "yes",
            line,
            attacker,
            id,
        });
    }
    out
}

/// A VCF found by the exact search on the position within `max_nodes` nodes and 60 fours.
fn quick(b: &Board, rule: Rule, attacker: Color, max_nodes: u64) -> bool {
    let limits = VcfLimits {
        max_nodes,
        max_fours: 60,
        shortest: false,
    };
    let r = vcf::prove(&mut EvalBoard::new(b, rule), attacker, limits);
    matches!(r.outcome, VcfOutcome::Win(_))
}

#[test]
fn fixture_lines_replay_and_the_prover_agrees() {
    let all = fixture_vcfs();
    assert!(all.len() >= 11, "only {} fixture records", all.len());
    for f in &all {
        let (b, rule, attacker) = (&f.board, f.rule, f.attacker);
        let r = vcf::solve(b, rule, attacker, VcfLimits::default());
        let quick = quick(b, rule, attacker, 100_000);
        if f.vcf {
            // The record's own line is a proof...
            verify_vcf_line(b, rule, attacker, &f.line)
                .unwrap_or_else(|e| panic!("{}: the fixture's line: {e}", f.id));
            // ... and is no proof without its last move or with a wrong last move.
            let cut = &f.line[..f.line.len() - 1];
            assert!(
                cut.is_empty() || verify_vcf_line(b, rule, attacker, cut).is_err(),
                "{}",
                f.id
            );
            let VcfOutcome::Win(line) = &r.outcome else {
                panic!("{}: prover says {:?}", f.id, r.outcome)
            };
            verify_vcf_line(b, rule, attacker, line)
                .unwrap_or_else(|e| panic!("{}: the prover's line: {e}", f.id));
            // Iterative deepening on fours: never longer than the record's line.
            assert!(
                fours(line) <= fours(&f.line),
                "{}: {} is longer than {}",
                f.id,
                lianzhu::notation::format_line(line),
                lianzhu::notation::format_line(&f.line)
            );
            assert!(quick, "{}: quick probe missed it", f.id);
        } else {
            assert!(f.line.is_empty(), "{}: a no-VCF record with a line", f.id);
            assert_eq!(r.outcome, VcfOutcome::NoWin, "{}", f.id);
            assert!(!quick, "{}: quick probe claims a win", f.id);
        }
    }
    // Both answers under freestyle, standard and renju (and caro's no-win), and a renju line
    // through a forbidden block.
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        for answer in [true, false] {
            let any = all.iter().any(|f| f.rule == rule && f.vcf == answer);
            assert!(any || (rule == Rule::Standard && answer), "{rule} {answer}");
        }
    }
    assert!(all.iter().any(|f| f.rule == Rule::Caro && !f.vcf));
    assert!(all
        .iter()
        .any(|f| f.rule == Rule::Renju && f.line.contains(&Pos::NONE)));
}

#[test]
fn fixture_pairs_differ_only_by_the_rule() {
    // Records with the same stones and attacker under two rules: the answers the records give
    // differ, so the rule (not the position) decides.
    let all = fixture_vcfs();
    let mut pairs = 0;
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            if a.board.hash() == b.board.hash() && a.attacker == b.attacker {
                assert_ne!(a.rule, b.rule, "{} {}", a.id, b.id);
                assert_ne!(a.vcf, b.vcf, "{} {}", a.id, b.id);
                pairs += 1;
            }
        }
    }
    assert!(pairs >= 4, "only {pairs} pairs");
}

fn board(black: &str, white: &str, to_move: Color) -> Board {
    let mut b = Board::square(15).unwrap();
    for (list, color) in [(black, Color::Black), (white, Color::White)] {
        for w in list.split_whitespace().filter(|&w| w != "-") {
            b.place(parse_pos(w).unwrap(), color);
        }
    }
    b.set_side_to_move(to_move);
    b
}

#[test]
fn renju_black_four_on_a_forbidden_point_is_not_played() {
    // Row 8: white g8, black h8 i8 j8; column k: white k4, black k5 k6 k7. k8 makes two
    // fours at once (completions l8 and k9): a double four, forbidden for black in renju.
    // The other fours (l8, k9) are both answered at k8 and leave nothing.
    let b = board("h8 i8 j8 k5 k6 k7", "g8 k4", Color::Black);
    let k8 = parse_pos("k8").unwrap();
    assert!(rules::forbidden(&b, k8).is_some(), "k8 is a 44 point");
    let renju = vcf::solve(&b, Rule::Renju, Color::Black, VcfLimits::default());
    assert_eq!(renju.outcome, VcfOutcome::NoWin);
    // Under freestyle and standard the double four wins at once.
    for rule in [Rule::Freestyle, Rule::Standard] {
        let r = vcf::solve(&b, rule, Color::Black, VcfLimits::default());
        let VcfOutcome::Win(line) = r.outcome else {
            panic!("{rule}: {r:?}")
        };
        assert_eq!(line[0], k8, "{rule}");
        assert_eq!(line.len(), 3, "{rule}");
        verify_vcf_line(&b, rule, Color::Black, &line).unwrap();
    }
}

#[test]
fn renju_white_wins_on_a_forbidden_block() {
    // White d10 e10 f10 (black c10 closes the left end); g10 makes a four whose only block
    // h10 is a double-three point for black (diagonal f8 g9 + h10, column h11 h12 + h10).
    let mut b = board("c10 f8 g9 h11 h12", "d10 e10 f10", Color::White);
    let (g10, h10) = (parse_pos("g10").unwrap(), parse_pos("h10").unwrap());
    let r = vcf::solve(&b, Rule::Renju, Color::White, VcfLimits::default());
    assert_eq!(r.outcome, VcfOutcome::Win(vec![g10, Pos::NONE, h10]));
    b.place(g10, Color::White);
    assert!(rules::forbidden(&b, h10).is_some(), "h10 is forbidden");
    b.undo().unwrap();
    verify_vcf_line(&b, Rule::Renju, Color::White, &[g10, Pos::NONE, h10]).unwrap();
    // Without forbidden points black simply blocks, and white has nothing more.
    let std = vcf::solve(&b, Rule::Standard, Color::White, VcfLimits::default());
    assert_eq!(std.outcome, VcfOutcome::NoWin);
    // The verifier refuses a pass when the block is legal.
    assert!(verify_vcf_line(&b, Rule::Standard, Color::White, &[g10, Pos::NONE, h10]).is_err());
}

#[test]
fn data_lines_with_forbidden_blocks_are_found() {
    if !common::have_shared_data() {
        return;
    }
    // The renju puzzles whose reference line ends on a forbidden block ("--").
    let text = data("vcf-puzzles.txt");
    let ids: Vec<&str> = text
        .split("[puzzle ")
        .filter(|rec| {
            rec.lines()
                .any(|l| l.starts_with("line:") && l.contains(" -- "))
        })
        .map(|rec| rec.split(']').next().unwrap())
        .collect();
    assert!(ids.len() >= 4, "{ids:?}");
    let all = puzzles();
    let mut with_pass = 0;
    for id in ids {
        let p = all.iter().find(|p| p.id == id).unwrap();
        let (b, rule, attacker) = p.setup();
        assert_eq!(rule, Rule::Renju);
        let r = vcf::solve(&b, rule, attacker, VcfLimits::default());
        let VcfOutcome::Win(line) = r.outcome else {
            panic!("{id}: {r:?}")
        };
        verify_vcf_line(&b, rule, attacker, &line).unwrap();
        with_pass += line.contains(&Pos::NONE) as usize;
        eprintln!("{id}: {}", lianzhu::notation::format_line(&line));
    }
    assert!(with_pass >= 1, "some found line ends on a forbidden block");
}

#[test]
fn caro_five_blocked_at_both_ends_is_no_win() {
    // Row 3: white a4? Built on row y=3 ("4"): white b4 and h4, black c4 d4 e4 f4 -> the only
    // five point g4 makes a five blocked at both ends: no win in caro, a win in freestyle.
    let b = board("c4 d4 e4 f4", "b4 h4", Color::Black);
    let free = vcf::solve(&b, Rule::Freestyle, Color::Black, VcfLimits::default());
    assert_eq!(
        free.outcome,
        VcfOutcome::Win(vec![parse_pos("g4").unwrap()])
    );
    for rule in [Rule::Caro, Rule::CaroExact] {
        let r = vcf::solve(&b, rule, Color::Black, VcfLimits::default());
        assert_eq!(r.outcome, VcfOutcome::NoWin, "{rule}");
    }
}

#[test]
fn caro_four_with_two_defences_needs_both_refuted() {
    // Black d8 e8 f8 with white c8... black g8 would make c8(W) d8 e8 f8 g8 -> h8 five point,
    // blocked at one end; white may answer at h8 or at i8 (blocking the far end).
    let b = board("d8 e8 f8 h6", "c8 a1", Color::Black);
    let r = vcf::solve(&b, Rule::Caro, Color::Black, VcfLimits::default());
    if let VcfOutcome::Win(line) = &r.outcome {
        verify_vcf_line(&b, Rule::Caro, Color::Black, line).unwrap();
    }
    let mut pos = EvalBoard::new(&b, Rule::Caro);
    let g8 = parse_pos("g8").unwrap();
    pos.make(g8);
    let fives = lianzhu::threat::five_points_through(&pos, g8, Color::Black);
    assert_eq!(fives.as_slice(), &[parse_pos("h8").unwrap()]);
    let defences = lianzhu::threat::defences(&mut pos, Color::Black, &fives);
    assert_eq!(
        defences.as_slice(),
        &[parse_pos("h8").unwrap(), parse_pos("i8").unwrap()]
    );
}

/// Replays a VCT principal variation: every move legal, every attacker move a forced block,
/// a four or a move that leaves a four the defender cannot stop (a three), every defender move
/// stops the attacker's fives when there are any, and the line ends with the attacker's five.
fn check_vct_line(b: &Board, rule: Rule, attacker: Color, line: &[Pos]) -> Result<(), String> {
    let defender = attacker.opponent();
    let mut b = b.clone();
    for (i, &m) in line.iter().enumerate() {
        let last = i + 1 == line.len();
        if i % 2 == 0 {
            if !rules::is_legal(&b, m, attacker, rule) {
                return Err(format!("attacker move {i} illegal"));
            }
            if rules::is_five(&b, m, attacker, rule) {
                return if last {
                    Ok(())
                } else {
                    Err("moves after the five".into())
                };
            }
            let threats = rules::winning_points(&b, defender, rule);
            if threats.iter().any(|&t| t != m) {
                return Err(format!("attacker move {i} ignores a five"));
            }
            b.place(m, attacker);
            let four = !rules::winning_points(&b, attacker, rule).is_empty();
            let three = b.empty_points().collect::<Vec<_>>().into_iter().any(|w| {
                if !rules::is_legal(&b, w, attacker, rule) {
                    return false;
                }
                b.place(w, attacker);
                let fives = rules::winning_points(&b, attacker, rule);
                b.undo().unwrap();
                fives.len() >= 2
            });
            if !(four || three || !threats.is_empty()) {
                return Err(format!("attacker move {i} is no threat"));
            }
        } else {
            if !rules::winning_points(&b, defender, rule).is_empty() {
                return Err(format!("defender has a five before move {i}"));
            }
            let fives = rules::winning_points(&b, attacker, rule);
            if m.is_none() {
                b.set_side_to_move(attacker);
                continue;
            }
            if !rules::is_legal(&b, m, defender, rule) {
                return Err(format!("defender move {i} illegal"));
            }
            b.place(m, defender);
            if !fives.is_empty() && !rules::winning_points(&b, attacker, rule).is_empty() {
                // A defender that cannot stop every five: the next move must be the five.
                if i + 2 != line.len() {
                    return Err(format!("defender move {i} leaves a five unplayed"));
                }
            }
        }
    }
    Err("line does not end with a five".into())
}

#[test]
fn vct_puzzles_are_won_with_replayable_lines() {
    if !common::have_shared_data() {
        return;
    }
    let limits = VcfLimits {
        max_nodes: 20_000,
        max_fours: 12,
        shortest: false,
    };
    let (mut won, mut unknown) = (0, Vec::new());
    for p in puzzles().iter().filter(|p| p.vct) {
        let (b, rule, attacker) = p.setup();
        let r = lianzhu::threat::vct::solve(&b, rule, attacker, limits);
        match &r.outcome {
            VcfOutcome::Win(line) => {
                check_vct_line(&b, rule, attacker, line)
                    .unwrap_or_else(|e| panic!("{}: {e}", p.id));
                eprintln!(
                    "{}: {} ({} nodes)",
                    p.id,
                    lianzhu::notation::format_line(line),
                    r.nodes
                );
                won += 1;
            }
            VcfOutcome::NoWin => panic!("{}: VCT puzzle answered no-win", p.id),
            VcfOutcome::Unknown => unknown.push(p.id.clone()),
        }
    }
    eprintln!("vct: {won} won, unknown: {unknown:?}");
    assert!(won >= 5, "only {won} VCT puzzles won; unknown {unknown:?}");
}

#[test]
fn vct_claims_on_random_positions_replay() {
    // xorshift64*, fixed seed.
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut below = |n: usize| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    };
    let rules = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro];
    let limits = VcfLimits {
        max_nodes: 3_000,
        max_fours: 6,
        shortest: false,
    };
    let (mut wins, mut vcf_wins) = (0, 0);
    for i in 0..200 {
        let rule = rules[i % rules.len()];
        let mut b = Board::square(15).unwrap();
        let stones = 8 + below(30);
        let mut color = Color::Black;
        while b.stone_count() < stones {
            let p = Pos::new(4 + below(7), 4 + below(7));
            if b.is_empty(p) && !rules::is_five(&b, p, color, rule) {
                b.place(p, color);
                color = color.opponent();
            }
        }
        let attacker = b.side_to_move();
        let r = lianzhu::threat::vct::solve(&b, rule, attacker, limits);
        if let VcfOutcome::Win(line) = &r.outcome {
            check_vct_line(&b, rule, attacker, line)
                .unwrap_or_else(|e| panic!("case {i} ({rule}): {e}\n{b:?}"));
            wins += 1;
            let vcf = vcf::solve(&b, rule, attacker, VcfLimits::default());
            vcf_wins += matches!(vcf.outcome, VcfOutcome::Win(_)) as usize;
        }
    }
    eprintln!("random VCT: {wins} wins, {vcf_wins} of them also VCF");
    assert!(wins >= 20, "only {wins} VCT wins");
    assert!(wins > vcf_wins, "some VCT wins need threes");
}

#[test]
fn renju_contrast_positions_are_white_vcfs_in_renju() {
    if !common::have_shared_data() {
        return;
    }
    // Freestyle/standard "no VCF" records whose note says that under renju the same position
    // is a white VCF: black's forbidden points make the difference.
    let mut checked = 0;
    for p in puzzles().iter().filter(|p| p.renju_contrast) {
        let (b, _, attacker) = p.setup();
        assert_eq!(attacker, Color::White, "{}", p.id);
        let r = vcf::solve(&b, Rule::Renju, attacker, VcfLimits::default());
        let VcfOutcome::Win(line) = r.outcome else {
            panic!("{}: renju white VCF not found: {r:?}", p.id)
        };
        verify_vcf_line(&b, Rule::Renju, attacker, &line).unwrap();
        checked += 1;
    }
    assert!(checked >= 50, "{checked} contrast records");
}

#[test]
fn a_reused_prover_answers_like_fresh_ones() {
    if !common::have_shared_data() {
        return;
    }
    // One prover across every record (rules change along the file, the table stays warm
    // within a rule), twice over: the answers must not depend on what was solved before.
    let mut prover = vcf::VcfProver::new();
    let limits = VcfLimits {
        max_nodes: PUZZLE_NODES,
        ..VcfLimits::default()
    };
    let all = puzzles();
    for round in 0..2 {
        for p in all.iter().filter(|p| p.vcf.is_some()) {
            let (b, rule, attacker) = p.setup();
            let r = prover.solve(&b, rule, attacker, limits);
            match (&r.outcome, p.vcf) {
                (VcfOutcome::Win(line), Some(true)) => {
                    verify_vcf_line(&b, rule, attacker, line).unwrap();
                }
                (VcfOutcome::NoWin, Some(false)) => {}
                (other, _) => panic!("round {round}, {}: {other:?}", p.id),
            }
            // The quick probe stops at 60 fours, so it may miss the longest lines, never more.
            let quick_limits = VcfLimits {
                max_nodes: PUZZLE_NODES,
                max_fours: 60,
                shortest: false,
            };
            let quick = matches!(
                prover
                    .prove(&mut EvalBoard::new(&b, rule), attacker, quick_limits)
                    .outcome,
                VcfOutcome::Win(_)
            );
            let short = p.min_fours.is_some_and(|m| m <= 20);
            assert!(!quick || p.vcf == Some(true), "{}: false quick win", p.id);
            assert!(quick || !short, "{}: quick probe missed a short VCF", p.id);
        }
    }
}
