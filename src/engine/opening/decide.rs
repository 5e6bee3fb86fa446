//! The searches behind each opening decision (see the module docs of [`super`]).

use super::Decision;
use crate::engine::swap2::{nearest_legal, Stage, StageBudget};
use crate::rules::opening::game::{in_square, OpeningError, OpeningGame, Protocol, Step};
use crate::rules::opening::symmetry::symmetric_moves;
use crate::rules::opening::{Opening, OPENINGS};
use crate::rules::{self, Board};
use crate::search::{Limits, Searcher};
use crate::types::{Color, Pos, Rule};
use std::sync::atomic::AtomicBool;

/// Openings searched again, deeper and with their offers, after the first round.
pub const OPENING_FINALISTS: usize = 3;
/// White's best moves tried as a Soosõrv-8 4th move.
pub const FOURTH_CANDIDATES: usize = 2;
/// The mover's best moves tried for a Taraguchi-10 stone.
pub const PLACE_CANDIDATES: usize = 3;

const RULE: Rule = Rule::Renju;

/// The decision at `game`'s current step, from the search of `searcher` within `limits`
/// (the whole stage's budget: see [`crate::engine::swap2::answer`] for how it is shared). A game
/// that is over ([`Step::Done`]) has nothing to decide: `OutOfOrder`.
pub fn decide(
    searcher: &mut Searcher,
    game: &OpeningGame,
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<Decision, OpeningError> {
    decide_step(searcher, game, game.step(), limits, stop)
}

/// [`decide`] for a `step` the game allows now: its current step, or under Taraguchi-10
/// [`Step::Offers`] in place of stone 5. Any other step: `OutOfOrder`.
pub fn decide_step(
    searcher: &mut Searcher,
    game: &OpeningGame,
    step: Step,
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<Decision, OpeningError> {
    let allowed = step == game.step() || (step == Step::Offers && game.step() == Step::Place(5));
    if !allowed || step == Step::Done {
        return Err(OpeningError::OutOfOrder {
            expected: game.step(),
            got: step,
        });
    }
    rules::tables::init(RULE);
    let board = game.board();
    let empties = board.width() * board.height() - board.stone_count();
    let mut stage = Stage {
        searcher,
        rule: RULE,
        budget: StageBudget::new(limits, empties),
        stop,
    };
    let decision = match step {
        Step::Opening => propose_opening(&mut stage, game),
        Step::Place(k) => Decision::Place(place(&mut stage, board, k)),
        Step::Swap(k) => Decision::Swap(swap(&mut stage, game, k)),
        Step::Fourth => fourth(&mut stage, game),
        Step::Offers => {
            let n = game.offer_count().unwrap_or(1);
            Decision::Offers(offers(&mut stage, board, n))
        }
        Step::Pick => pick(&mut stage, board, game.offers()),
        Step::Done => {
            return Err(OpeningError::OutOfOrder {
                expected: game.step(),
                got: step,
            })
        }
    };
    Ok(decision)
}

/// Black's best fifth moves on `board` (black to move), none symmetric to another, as
/// (point, black's score) sorted best first: at most `k`, fewer when the budget or the stop
/// flag ends the searches. `after` more searches of the stage follow these.
fn fifth_lines(stage: &mut Stage, board: &Board, k: usize, after: usize) -> Vec<(Pos, i32)> {
    let mut lines: Vec<(Pos, i32)> = Vec::new();
    let mut excluded: Vec<Pos> = Vec::new();
    for i in 0..k {
        if stage.stopped() {
            break;
        }
        let Some(limits) = stage.budget.next(k - i + after) else {
            break;
        };
        let limits = Limits {
            exclude: excluded.clone(),
            ..limits
        };
        let Some(r) = stage.search(board, &limits) else {
            break;
        };
        if excluded.contains(&r.best) || (stage.stopped() && r.depth == 0) {
            break;
        }
        if !rules::is_legal(board, r.best, Color::Black, stage.rule) {
            break;
        }
        excluded.extend(
            board
                .empty_points()
                .filter(|&q| symmetric_moves(board, r.best, q, Color::Black)),
        );
        lines.push((r.best, r.score));
    }
    lines.sort_by_key(|&(p, s)| (-s, p));
    lines
}

/// Black's value with `n` offers: its `n`-th best fifth (the worst offer, which white takes),
/// or the last one found when fewer were.
fn value_with(lines: &[(Pos, i32)], n: usize) -> Option<i32> {
    lines.get(n.min(lines.len()).checked_sub(1)?).map(|l| l.1)
}

/// The N in 1..=`max` whose value is closest to 0, with that value.
fn balancing_n(lines: &[(Pos, i32)], max: usize) -> Option<(usize, i32)> {
    (1..=max.min(lines.len()))
        .filter_map(|n| value_with(lines, n).map(|v| (n, v)))
        .min_by_key(|&(n, v)| (v.abs(), n))
}

fn with_stone(board: &Board, p: Pos) -> Board {
    let mut b = board.clone();
    b.make(p);
    b
}

/// `n` non-symmetric offers on `board`: black's best fifths, filled up with the points
/// nearest the centre.
fn offers(stage: &mut Stage, board: &Board, n: usize) -> Vec<Pos> {
    let mut chosen: Vec<Pos> = fifth_lines(stage, board, n, 0)
        .into_iter()
        .map(|l| l.0)
        .collect();
    let c = board.center();
    let mut points: Vec<Pos> = board
        .empty_points()
        .filter(|&p| rules::is_legal(board, p, Color::Black, stage.rule))
        .collect();
    points.sort_by_key(|&p| (p.distance(c), p));
    for p in points {
        if chosen.len() >= n {
            break;
        }
        if !chosen
            .iter()
            .any(|&q| symmetric_moves(board, p, q, Color::Black))
        {
            chosen.push(p);
        }
    }
    chosen
}

/// The offer best for white and white's 6th move after it.
fn pick(stage: &mut Stage, board: &Board, offers: &[Pos]) -> Decision {
    let mut best: Option<(i32, Pos, Pos)> = None;
    for (i, &o) in offers.iter().enumerate() {
        let after = with_stone(board, o);
        let Some(j) = stage.judge(&after, offers.len() - i) else {
            break;
        };
        log::debug!("opening pick {o:?}: white scores {}", j.score);
        if best.is_none_or(|(s, _, _)| j.score > s) {
            best = Some((j.score, o, j.best));
        }
    }
    let (fifth, sixth) = match best {
        Some((_, f, s)) => (f, s),
        None => {
            let f = offers[0];
            let s = nearest_legal(&with_stone(board, f), stage.rule).unwrap_or(Pos::NONE);
            (f, s)
        }
    };
    Decision::Pick { fifth, sixth }
}

/// Whether the player asked after stone `k` swaps.
fn swap(stage: &mut Stage, game: &OpeningGame, k: usize) -> bool {
    let board = game.board();
    let n = game.offer_count();
    match (game.protocol(), k, n) {
        (Protocol::Rif | Protocol::Yamaguchi, 3, Some(n)) => {
            // White asked: its value is minus black's n-th best fifth after its best 4th.
            let Some(j) = stage.judge(board, 1 + n) else {
                return false;
            };
            let lines = fifth_lines(stage, &with_stone(board, j.best), n, 0);
            let white = value_with(&lines, n).map_or(j.score, |v| -v);
            log::debug!("opening swap after 3: white's value {white}");
            white < 0
        }
        (Protocol::Soosorv8, 4, Some(n)) => {
            // Black asked, and it would offer n fifths: its n-th best is its value.
            let lines = fifth_lines(stage, board, n, 0);
            value_with(&lines, n).is_some_and(|v| v < 0)
        }
        _ => stage.judge(board, 1).is_some_and(|j| j.score < 0),
    }
}

/// White's 4th move (and N under Soosõrv-8).
fn fourth(stage: &mut Stage, game: &OpeningGame) -> Decision {
    let board = game.board();
    if game.protocol() != Protocol::Soosorv8 {
        let stone = match stage.judge(board, 1) {
            Some(j) => j.best,
            None => nearest_legal(board, stage.rule).unwrap_or(Pos::NONE),
        };
        return Decision::Fourth {
            stone,
            offers: None,
        };
    }
    let max = crate::rules::opening::game::SOOSORV_MAX_OFFERS;
    let per = 1 + max;
    let mut candidates: Vec<Pos> = Vec::new();
    let mut best: Option<(i32, Pos, usize)> = None;
    for i in 0..FOURTH_CANDIDATES {
        if stage.stopped() {
            break;
        }
        let Some(limits) = stage.budget.next(per * (FOURTH_CANDIDATES - i)) else {
            break;
        };
        let limits = Limits {
            exclude: candidates.clone(),
            ..limits
        };
        let Some(r) = stage.search(board, &limits) else {
            break;
        };
        if candidates.contains(&r.best) || !board.is_empty(r.best) {
            break;
        }
        candidates.push(r.best);
        let after = with_stone(board, r.best);
        let lines = fifth_lines(stage, &after, max, per * (FOURTH_CANDIDATES - i - 1));
        if let Some((n, v)) = balancing_n(&lines, max) {
            log::debug!("opening 4th {:?}: N {n} leaves black {v}", r.best);
            if best.is_none_or(|(b, _, _)| v.abs() < b) {
                best = Some((v.abs(), r.best, n));
            }
        }
    }
    let (stone, n) = match best {
        Some((_, p, n)) => (p, n),
        None => (
            candidates
                .first()
                .copied()
                .or_else(|| nearest_legal(board, stage.rule))
                .unwrap_or(Pos::NONE),
            1,
        ),
    };
    Decision::Fourth {
        stone,
        offers: Some(n),
    }
}

/// Taraguchi-10: stone `k` inside its square, the mover's candidate closest to balance.
fn place(stage: &mut Stage, board: &Board, k: usize) -> Pos {
    let me = board.side_to_move();
    let inside: Vec<Pos> = board
        .empty_points()
        .filter(|&p| in_square(board, k, p) && rules::is_legal(board, p, me, stage.rule))
        .collect();
    let c = board.center();
    let fallback = inside
        .iter()
        .copied()
        .min_by_key(|&p| (p.distance(c), p))
        .unwrap_or(Pos::NONE);
    if inside.len() <= 1 {
        return fallback;
    }
    let outside: Vec<Pos> = board
        .empty_points()
        .filter(|p| !inside.contains(p))
        .collect();
    let mut tried: Vec<Pos> = Vec::new();
    let mut best: Option<(i32, Pos)> = None;
    for i in 0..PLACE_CANDIDATES.min(inside.len()) {
        if stage.stopped() {
            break;
        }
        let Some(limits) = stage.budget.next(PLACE_CANDIDATES - i) else {
            break;
        };
        let mut exclude = outside.clone();
        exclude.extend(&tried);
        let limits = Limits { exclude, ..limits };
        let Some(r) = stage.search(board, &limits) else {
            break;
        };
        if !inside.contains(&r.best) || tried.contains(&r.best) {
            break;
        }
        tried.push(r.best);
        log::debug!(
            "taraguchi stone {k} at {:?}: mover scores {}",
            r.best,
            r.score
        );
        if best.is_none_or(|(s, _)| r.score.abs() < s) {
            best = Some((r.score.abs(), r.best));
        }
    }
    best.map_or(fallback, |b| b.1)
}

/// The 26 openings on `board` in the listed orientation (white to move).
fn opening_boards(board: &Board) -> Vec<(&'static Opening, [Pos; 3], Board)> {
    OPENINGS
        .iter()
        .filter_map(|o| {
            let stones = o.stones(board)?;
            let mut b = board.clone();
            for p in stones {
                b.make(p);
            }
            Some((o, stones, b))
        })
        .collect()
}

/// The opening (and N under Yamaguchi) the engine judges balanced.
fn propose_opening(stage: &mut Stage, game: &OpeningGame) -> Decision {
    let protocol = game.protocol();
    let candidates = opening_boards(game.board());
    let n = candidates.len();
    let max_n = match protocol {
        Protocol::Yamaguchi => crate::rules::opening::game::YAMAGUCHI_MAX_OFFERS,
        _ => 2,
    };
    // The finals: per finalist one search and (but under Soosõrv-8) the fifth lines.
    let per_final = match protocol {
        Protocol::Soosorv8 => 1,
        _ => 1 + max_n,
    };
    let finals_searches = OPENING_FINALISTS * per_final;
    let mut scores: Vec<(i32, usize)> = Vec::with_capacity(n);
    for (i, (_, _, b)) in candidates.iter().enumerate() {
        // Round 1 takes about half the budget.
        let Some(j) = stage.judge(b, (n - i) + finals_searches.max(n - i)) else {
            break;
        };
        log::debug!("opening {}: white scores {}", candidates[i].0.name, j.score);
        scores.push((j.score.abs(), i));
    }
    scores.sort_by_key(|&(s, i)| (s, i));
    scores.truncate(OPENING_FINALISTS);
    let mut best: Option<(i32, usize, Option<usize>)> = None;
    for (f, &(_, i)) in scores.iter().enumerate() {
        let left = per_final * (scores.len() - f);
        let b = &candidates[i].2;
        let Some(j) = stage.judge(b, left) else {
            break;
        };
        let (value, offers) = match protocol {
            Protocol::Soosorv8 | Protocol::Taraguchi10 => (j.score.abs(), None),
            _ => {
                let lines = fifth_lines(stage, &with_stone(b, j.best), max_n, left - per_final);
                match protocol {
                    Protocol::Yamaguchi => match balancing_n(&lines, max_n) {
                        Some((n, v)) => (v.abs(), Some(n)),
                        None => (j.score.abs(), Some(1)),
                    },
                    _ => (value_with(&lines, 2).unwrap_or(-j.score).abs(), None),
                }
            }
        };
        log::debug!("opening {} final: value {value}", candidates[i].0.name);
        if best.is_none_or(|(v, _, _)| value < v) {
            best = Some((value, i, offers));
        }
    }
    let yamaguchi_default = (protocol == Protocol::Yamaguchi).then_some(1);
    let (i, offers) = match best {
        Some((_, i, o)) => (i, o),
        None => (scores.first().map_or(0, |s| s.1), yamaguchi_default),
    };
    let (opening, stones, _) = candidates[i];
    Decision::Opening {
        opening,
        stones,
        offers,
    }
}
