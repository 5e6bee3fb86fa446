//! Tactics through the library search and through the real binary (`BOARD` over pipes, with a
//! 300 ms turn limit that every reply must meet): immediate wins, forced blocks, live-three defence,
//! short forced wins from the shared VCF suite (and no win claims where neither a VCF nor,
//! by Rapfi's search, any forced win exists),
//! and never a renju foul for black.

use crate::common;

use crate::common::{data, Brain, LineCheck, RULES};
use lianzhu::eval::EvalBoard;
use lianzhu::notation::{parse_pos, parse_position};
use lianzhu::rules::{self, pattern::CellThreat, Board};
use lianzhu::score::MATE_BOUND;
use lianzhu::search::{Limits, SearchResult, Searcher};
use lianzhu::types::{Color, Pos, Rule};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn board_with(size: usize, stones: &[(usize, usize, Color)], to_move: Color) -> Board {
    let mut b = Board::square(size).unwrap();
    for &(x, y, c) in stones {
        b.place(Pos::new(x, y), c);
    }
    b.set_side_to_move(to_move);
    b
}

fn search(board: &Board, rule: Rule, depth: i32) -> SearchResult {
    let stop = AtomicBool::new(false);
    let mut s = Searcher::new(4 << 20);
    let r = s
        .think(board, rule, &Limits::depth(depth), &stop, &mut |_| {})
        .expect("a move");
    assert!(
        rules::is_legal(board, r.best, board.side_to_move(), rule),
        "illegal {:?}\n{board:?}",
        r.best
    );
    r
}

/// Offsets a shape so it sits in different places of the board.
fn spots(size: usize) -> Vec<(usize, usize)> {
    vec![(1, 2), (size / 2 - 3, size / 2 - 2), (size - 9, size - 7)]
}

#[test]
fn takes_every_immediate_win() {
    for rule in RULES {
        for size in [15, 20] {
            for (ox, oy) in spots(size) {
                for me in [Color::Black, Color::White] {
                    let opp = me.opponent();
                    // Me: a split four x x . x x on row oy; opponent: a live four elsewhere.
                    let stones = [
                        (ox, oy, me),
                        (ox + 1, oy, me),
                        (ox + 3, oy, me),
                        (ox + 4, oy, me),
                        (ox + 1, oy + 2, opp),
                        (ox + 2, oy + 2, opp),
                        (ox + 3, oy + 2, opp),
                        (ox + 4, oy + 2, opp),
                    ];
                    let b = board_with(size, &stones, me);
                    let r = search(&b, rule, 3);
                    assert_eq!(r.best, Pos::new(ox + 2, oy), "{rule} {size} {me:?}\n{b:?}");
                    assert!(r.score >= MATE_BOUND);
                }
            }
        }
    }
}

#[test]
fn blocks_every_single_five_threat() {
    for rule in RULES {
        for size in [15, 20] {
            for (ox, oy) in spots(size) {
                for me in [Color::Black, Color::White] {
                    let opp = me.opponent();
                    // Opponent: a dead four (blocked on the left) on a diagonal; me: a live three.
                    let mut stones = vec![(ox, oy, me)];
                    for k in 1..5 {
                        stones.push((ox + k, oy + k, opp));
                    }
                    stones.extend([(ox + 5, oy, me), (ox + 6, oy, me), (ox + 7, oy, me)]);
                    let b = board_with(size, &stones, me);
                    let r = search(&b, rule, 4);
                    assert_eq!(
                        r.best,
                        Pos::new(ox + 5, oy + 5),
                        "{rule} {size} {me:?}\n{b:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn answers_a_live_three() {
    for rule in RULES {
        for size in [15, 20] {
            for (ox, oy) in spots(size) {
                for me in [Color::Black, Color::White] {
                    let opp = me.opponent();
                    // Opponent: a live three; me: scattered stones without threats.
                    let stones = [
                        (ox + 2, oy + 1, opp),
                        (ox + 3, oy + 1, opp),
                        (ox + 4, oy + 1, opp),
                        (ox + 2, oy + 3, me),
                        (ox + 5, oy + 3, me),
                    ];
                    let b = board_with(size, &stones, me);
                    let r = search(&b, rule, 5);
                    let mut eb = EvalBoard::new(&b, rule);
                    let made_four = eb.threat(r.best, me) >= CellThreat::Block4;
                    eb.make(r.best);
                    let live =
                        eb.count(opp, CellThreat::Flex4) + eb.count(opp, CellThreat::Block4x2);
                    assert!(
                        made_four || live == 0,
                        "{rule} {size} {me:?}: {:?} leaves the three\n{b:?}",
                        r.best
                    );
                }
            }
        }
    }
}

struct Puzzle {
    id: String,
    rule: Rule,
    board: Board,
    vcf: bool,
    min_fours: u32,
    /// Rapfi found a forced win (a VCT) for the side to move.
    rapfi_wins: bool,
}

fn puzzles() -> Vec<Puzzle> {
    let text = data("vcf-puzzles.txt");
    let mut out = Vec::new();
    for record in text.split("\n\n") {
        let field = |name: &str| {
            record
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name}:")).map(str::trim))
        };
        let (Some(rule), Some(to_move), Some(black), Some(white), Some(vcf)) = (
            field("rule"),
            field("to_move"),
            field("black"),
            field("white"),
            field("vcf"),
        ) else {
            continue;
        };
        let pos = parse_position(&format!("B {black} | W {white} | {to_move}")).unwrap();
        let mut board = Board::square(15).unwrap();
        for &(p, c) in &pos.stones {
            board.place(p, c);
        }
        board.set_side_to_move(pos.to_move);
        out.push(Puzzle {
            id: record
                .lines()
                .find(|l| l.starts_with('['))
                .unwrap_or("?")
                .to_string(),
            rule: Rule::from_name(rule).unwrap(),
            board,
            vcf: vcf == "yes",
            rapfi_wins: field("rapfi").is_some_and(|r| r.starts_with("+M")),
            min_fours: field("min_fours")
                .and_then(|m| m.parse().ok())
                .unwrap_or(99),
        });
    }
    out
}

#[test]
fn finds_short_forced_wins_and_claims_no_false_ones() {
    if !common::have_shared_data() {
        return;
    }
    let all = puzzles();
    assert!(all.len() > 100);
    let mut wins = 0;
    let mut negatives = 0;
    for (i, p) in all.iter().enumerate() {
        if p.vcf && p.min_fours <= 2 {
            let r = search(&p.board, p.rule, 7);
            assert!(
                r.score >= MATE_BOUND,
                "puzzle {i} {}: not won {r:?}\n{:?}",
                p.id,
                p.board
            );
            wins += 1;
        } else if !p.vcf && !p.rapfi_wins {
            let r = search(&p.board, p.rule, 5);
            assert!(
                r.score < MATE_BOUND,
                "puzzle {i} {}: false win {r:?}\n{:?}",
                p.id,
                p.board
            );
            negatives += 1;
        }
    }
    assert!(
        wins >= 10 && negatives >= 10,
        "{wins} wins, {negatives} negatives"
    );
}

#[test]
fn never_plays_a_renju_foul() {
    if !common::have_shared_data() {
        return;
    }
    let text = data("renju-forbidden-random.txt");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')).step_by(12) {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        if f.len() < 4 || f[3] == "F -" {
            continue;
        }
        let pos = parse_position(&format!("{} | {} | black", f[1], f[2])).unwrap();
        let mut b = Board::square(15).unwrap();
        for &(p, c) in &pos.stones {
            b.place(p, c);
        }
        b.set_side_to_move(Color::Black);
        if rules::winner_after_last(&b, Rule::Renju).is_some()
            || b.empty_points()
                .any(|p| rules::is_five(&b, p, Color::White, Rule::Renju))
        {
            continue;
        }
        let r = search(&b, Rule::Renju, 3);
        assert!(
            rules::forbidden(&b, r.best).is_none(),
            "{line}: {:?}",
            r.best
        );
        checked += 1;
    }
    let _ = parse_pos("h8");
    assert!(checked >= 20, "only {checked}");
}

/// The reply limit for the binary.
const REPLY_TIMEOUT: Duration = Duration::from_secs(10);

/// Sends `board` to the binary with the side to move as its colour; returns the move and the
/// time the reply took.
fn ask(brain: &mut Brain, board: &Board, rule: Rule) -> (Pos, Duration) {
    brain.send(&format!("START {}", board.width()));
    assert_eq!(reply(brain), "OK");
    brain.send(&format!("INFO rule {}", rule.gomocup_id()));
    brain.send("INFO timeout_turn 300");
    brain.send("BOARD");
    let me = board.side_to_move();
    for &(p, c) in board.history() {
        let field = if c == me { 1 } else { 2 };
        brain.send(&format!("{},{},{field}", p.x(), p.y()));
    }
    let t = Instant::now();
    brain.send("DONE");
    let answer = reply(brain);
    let took = t.elapsed();
    let (x, y) = answer.split_once(',').expect("a move");
    (Pos::new(x.parse().unwrap(), y.parse().unwrap()), took)
}

/// The next reply that is neither a `MESSAGE` nor a `DEBUG` line.
fn reply(brain: &Brain) -> String {
    brain.reply_skipping(&["MESSAGE ", "DEBUG "])
}

#[test]
fn binary_wins_blocks_defends_and_stays_in_time() {
    let mut brain = Brain::start(REPLY_TIMEOUT, LineCheck::Lenient);
    let mut slowest = Duration::ZERO;
    let mut asked = 0;
    for rule in RULES {
        for size in [15, 20] {
            let (ox, oy) = spots(size)[1];
            // Black to move in every case: the colour the protocol infers from BOARD must
            // agree with the stone counts, so shapes keep black and white counts consistent.
            for (me, opp) in [(Color::Black, Color::White), (Color::White, Color::Black)] {
                let filler = |stones: &mut Vec<(usize, usize, Color)>| {
                    // Balance the counts far from the action so `me` is to move.
                    let nb = stones.iter().filter(|s| s.2 == Color::Black).count();
                    let nw = stones.len() - nb;
                    let (mut nb, mut nw) = (nb, nw);
                    let mut x = 0;
                    while !(if me == Color::Black {
                        nb == nw
                    } else {
                        nb == nw + 1
                    }) {
                        let c = if (me == Color::Black && nb < nw)
                            || (me == Color::White && nb <= nw)
                        {
                            nb += 1;
                            Color::Black
                        } else {
                            nw += 1;
                            Color::White
                        };
                        stones.push((x, size - 1 - (x % 2), c));
                        x += 3;
                    }
                };
                // 1. An immediate win.
                let mut win = vec![
                    (ox, oy, me),
                    (ox + 1, oy, me),
                    (ox + 3, oy, me),
                    (ox + 4, oy, me),
                    (ox + 1, oy + 2, opp),
                    (ox + 2, oy + 2, opp),
                    (ox + 3, oy + 2, opp),
                    (ox + 4, oy + 2, opp),
                ];
                filler(&mut win);
                let b = board_with(size, &win, me);
                let (p, took) = ask(&mut brain, &b, rule);
                assert_eq!(p, Pos::new(ox + 2, oy), "{rule} {size} {me:?} win\n{b:?}");
                slowest = slowest.max(took);
                // 2. A single five threat to block.
                let mut block = vec![(ox, oy, me)];
                for k in 1..5 {
                    block.push((ox + k, oy + k, opp));
                }
                block.extend([(ox + 5, oy, me), (ox + 6, oy, me), (ox + 7, oy, me)]);
                filler(&mut block);
                let b = board_with(size, &block, me);
                let (p, took) = ask(&mut brain, &b, rule);
                assert_eq!(
                    p,
                    Pos::new(ox + 5, oy + 5),
                    "{rule} {size} {me:?} block\n{b:?}"
                );
                slowest = slowest.max(took);
                // 3. A live three to answer.
                let mut three = vec![
                    (ox + 2, oy + 1, opp),
                    (ox + 3, oy + 1, opp),
                    (ox + 4, oy + 1, opp),
                    (ox + 2, oy + 3, me),
                    (ox + 5, oy + 3, me),
                ];
                filler(&mut three);
                let b = board_with(size, &three, me);
                let (p, took) = ask(&mut brain, &b, rule);
                let mut eb = EvalBoard::new(&b, rule);
                let made_four = eb.threat(p, me) >= CellThreat::Block4;
                eb.make(p);
                let live = eb.count(opp, CellThreat::Flex4) + eb.count(opp, CellThreat::Block4x2);
                assert!(
                    made_four || live == 0,
                    "{rule} {size} {me:?}: {p:?} ignores the three\n{b:?}"
                );
                slowest = slowest.max(took);
                asked += 3;
            }
        }
    }
    eprintln!("{asked} positions through the binary, slowest reply {slowest:?}");
    assert!(slowest < Duration::from_millis(300), "{slowest:?}");
}

#[test]
fn two_threads_find_the_short_wins_too() {
    if !common::have_shared_data() {
        return;
    }
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(8 << 20);
    let mut won = 0;
    for p in puzzles().iter().filter(|p| p.vcf && p.min_fours <= 2) {
        let limits = Limits {
            threads: 2,
            ..Limits::depth(7)
        };
        searcher.clear();
        let r = searcher
            .think(&p.board, p.rule, &limits, &stop, &mut |_| {})
            .expect("a move");
        assert!(rules::is_legal(
            &p.board,
            r.best,
            p.board.side_to_move(),
            p.rule
        ));
        assert!(r.score >= MATE_BOUND, "{}: {r:?}", p.id);
        won += 1;
    }
    assert!(won >= 10);
}
