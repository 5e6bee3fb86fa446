//! Swap2 opening decisions (`SWAP2BOARD`, protocol reference section 3.12), as a pure API on
//! the search: no protocol text in, none out.
//!
//! Swap2: the first player places three stones (black, white, black); the second player then
//! takes black (`SWAP`), or places the 4th stone (white) and plays white, or places the 4th and
//! 5th stones (white, black) and lets the first player choose; in that last case the first
//! player takes black (`SWAP`) or plays the 6th stone as white. The player asked is white by
//! default in both choices: `SWAP` always means "I take black".
//!
//! [`answer`] covers the three stages by the number of stones given:
//! - **0 stones**: proposes three stones. A short search scores each of
//!   [`opening_candidates`] (white to move) with half the budget; the [`OPENING_FINALISTS`]
//!   closest to 0 are searched again with the other half, and the one whose two scores (the
//!   second counting twice) average closest to 0 is chosen (ties: list order).
//! - **3 stones**: one search with white to move gives `s` and white's best 4th stone. With
//!   `s < -BALANCE_MARGIN` black is better: `SWAP`. With `s > BALANCE_MARGIN` white is better:
//!   the 4th stone. In between the engine cannot tell the sides apart, so it hands the choice
//!   back: the 4th stone plus the black 5th stone (among black's best few replies) that leaves
//!   the position closest to 0, if that is within the margin; otherwise the side of `s`'s sign
//!   (`s >= 0`: the 4th stone).
//! - **5 stones**: one search with white to move: `s < 0` gives `SWAP`, otherwise white's 6th
//!   stone.
//!
//! Scores are the search's, from white's view, settled over its last few completed iterations
//! (see [`SETTLED_ITERATIONS`]); a move chosen without search (a single forced reply) is judged
//! by searching the position after it. The stage's time (the maximum of
//! `limits.time`'s budget) and node limit (`limits.max_nodes`) are split between its searches;
//! each search gets an even share of what is left, so the stage never runs past its limit by
//! more than one search's overshoot. Setting `stop` ends the stage at once with the best answer
//! found so far (stage 0: the best candidate of the first round so far, or the first one; stage
//! 3/5: from the searches
//! done, or the 4th / 6th stone nearest the centre if none finished).

//!
//! Wiring it to `SWAP2BOARD` (the protocol layer owns the text; the engine owns the searcher):
//!
//! ```text
//! let limits = Limits { time: Some(TimeControl { turn_ms, match_ms, time_left_ms }),
//!                       threads, max_nodes, max_depth, exclude: Vec::new() };
//! match swap2::answer(&mut searcher, width, height, &stones, rule, &limits, &stop) {
//!     Ok(a) => reply(a.protocol_text()),      // "SWAP", "7,7 8,7 9,9", "8,8" or "8,8 8,6"
//!     Err(e) => reply(format!("ERROR {e}")),
//! }
//! ```

use crate::rules::{self, Board};
use crate::score::MATE_BOUND;
use crate::search::time::TimeControl;
use crate::search::{Limits, SearchResult, Searcher};
use crate::types::{Color, Pos, Rule};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What the player asked answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Answer {
    /// Take black (after three or five stones).
    Swap,
    /// Stones to place, in move order: three (black, white, black) on the empty board; one
    /// (white, stay white) or two (white, black, the opponent chooses) after three stones; one
    /// (white's 6th move) after five.
    Moves(Vec<Pos>),
}

impl Swap2Answer {
    /// The reply line of `SWAP2BOARD`: `SWAP`, or the moves as protocol coordinates
    /// `x,y` separated by spaces (`7,7 8,7 9,9`).
    pub fn protocol_text(&self) -> String {
        match self {
            Swap2Answer::Swap => "SWAP".to_string(),
            Swap2Answer::Moves(moves) => moves
                .iter()
                .map(|p| format!("{},{}", p.x(), p.y()))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// Why [`answer`] could not decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Error {
    /// Swap2 asks only with 0, 3 or 5 stones.
    StoneCount(usize),
    /// A stone is off the board or on another stone.
    BadStone(Pos),
    /// The board cannot be made (size out of range).
    Board(String),
    /// The stones already hold a five.
    GameOver,
    /// There is no legal move to offer.
    NoMove,
}

impl fmt::Display for Swap2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Swap2Error::StoneCount(n) => write!(f, "swap2 needs 0, 3 or 5 stones, not {n}"),
            Swap2Error::BadStone(p) => {
                write!(f, "stone {},{} is off the board or occupied", p.x(), p.y())
            }
            Swap2Error::Board(e) => f.write_str(e),
            Swap2Error::GameOver => f.write_str("the stones already hold a five"),
            Swap2Error::NoMove => f.write_str("no legal move"),
        }
    }
}

impl std::error::Error for Swap2Error {}

/// Within this score (white's view) the engine calls a position balanced.
pub const BALANCE_MARGIN: i32 = 60;

/// Openings searched again, deeper, in the second round of the empty-board proposal.
pub const OPENING_FINALISTS: usize = 2;

/// Black replies (5th stone) tried when handing the choice back after three stones.
pub const FIFTH_STONE_CANDIDATES: usize = 3;

/// A three-stone opening: white's stone and black's second stone as offsets `(dx, dy)` from
/// the centre (black's first stone).
pub type OpeningCandidate = ((i32, i32), (i32, i32));

/// The three-stone openings proposed on the empty board, as offsets `(dx, dy)` from the
/// centre of white's stone and of black's second stone (black's first is the centre). To the
/// engine a close second black stone is a clear black advantage; these stand 4 points away,
/// where the scores of the learned freestyle and standard tables (white to move, four
/// iterations of a second's search each) stayed within about 100 of 0, on both sides. All fit
/// on boards of 11 and more.
pub const OPENING_CANDIDATES: [OpeningCandidate; 8] = [
    ((0, 1), (-3, -4)),
    ((0, 1), (-2, -4)),
    ((0, 1), (-1, -4)),
    ((0, 1), (4, -2)),
    ((1, 1), (-4, 1)),
    ((1, 1), (-2, -4)),
    ((1, 1), (1, -4)),
    ((1, 1), (-4, -2)),
];

/// Renju's three-stone openings, as [`OPENING_CANDIDATES`]. Renju's learned evaluation judges
/// a black stone 4 or 5 points away a clear white advantage (about +150 to +570 for white at
/// a second of search), so black's second stone stands 2 or 3 points away here, where its
/// scores (600 ms, white to move) lie between -21 and +36.
pub const RENJU_OPENING_CANDIDATES: [OpeningCandidate; 8] = [
    ((0, 1), (0, -2)),
    ((1, 1), (0, -2)),
    ((1, 1), (2, 0)),
    ((0, 1), (2, -1)),
    ((1, 1), (3, 0)),
    ((0, 1), (3, 0)),
    ((1, 1), (-2, -1)),
    ((0, 1), (-2, -1)),
];

/// The empty-board proposal's candidates under `rule`.
pub fn opening_candidates(rule: Rule) -> &'static [OpeningCandidate] {
    if rule == Rule::Renju {
        &RENJU_OPENING_CANDIDATES
    } else {
        &OPENING_CANDIDATES
    }
}

/// Shares a stage's time and nodes between its searches (also used by `opening`).
pub(crate) struct StageBudget {
    deadline: Option<Instant>,
    nodes_left: Option<u64>,
    base: Limits,
}

impl StageBudget {
    pub(crate) fn new(limits: &Limits, empty_cells: usize) -> StageBudget {
        let now = Instant::now();
        StageBudget {
            deadline: limits
                .time
                .map(|tc| now + tc.budget(empty_cells).maximum * 15 / 16),
            nodes_left: (limits.max_nodes > 0).then_some(limits.max_nodes),
            base: Limits {
                time: None,
                exclude: Vec::new(),
                ..limits.clone()
            },
        }
    }

    /// Limits for the next search when `searches` (this one included) remain; `None` when the
    /// time or nodes are used up.
    pub(crate) fn next(&self, searches: usize) -> Option<Limits> {
        let searches = searches.max(1) as u64;
        let mut l = self.base.clone();
        if let Some(deadline) = self.deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            if left < Duration::from_millis(2) {
                return None;
            }
            l.time = Some(TimeControl::with_maximum(
                (left.as_millis() as u64 / searches).max(1),
            ));
        }
        if let Some(nodes) = self.nodes_left {
            if nodes == 0 {
                return None;
            }
            l.max_nodes = (nodes / searches).max(1);
        }
        Some(l)
    }

    pub(crate) fn spent(&mut self, nodes: u64) {
        if let Some(n) = self.nodes_left.as_mut() {
            *n = n.saturating_sub(nodes.max(1));
        }
    }
}

/// A search's judgement of a position: the best move and its score for the side to move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Judgement {
    pub(crate) best: Pos,
    pub(crate) score: i32,
}

pub(crate) struct Stage<'a> {
    pub(crate) searcher: &'a mut Searcher,
    pub(crate) rule: Rule,
    pub(crate) budget: StageBudget,
    pub(crate) stop: &'a AtomicBool,
}

impl Stage<'_> {
    pub(crate) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// One search of `board` within `limits`, its nodes charged to the budget, its score
    /// settled (see [`settled_score`]).
    pub(crate) fn search(&mut self, board: &Board, limits: &Limits) -> Option<SearchResult> {
        let mut iterations: Vec<i32> = Vec::new();
        let mut r = self
            .searcher
            .think(board, self.rule, limits, self.stop, &mut |it| {
                iterations.push(it.score)
            })?;
        self.budget.spent(r.nodes);
        r.score = settled_score(&iterations, r.score);
        Some(r)
    }

    /// Searches `board` (side to move as set) with a share of the budget for `searches`
    /// searches left. A move chosen without search is judged by the position after it.
    pub(crate) fn judge(&mut self, board: &Board, searches: usize) -> Option<Judgement> {
        self.judge_at(board, searches, 0)
    }

    fn judge_at(&mut self, board: &Board, searches: usize, level: u32) -> Option<Judgement> {
        if self.stopped() {
            return None;
        }
        let limits = self.budget.next(searches)?;
        let r = self.search(board, &limits)?;
        if self.stopped() && r.depth == 0 {
            // Stopped before the first iteration: the move is unjudged.
            return None;
        }
        let mut score = r.score;
        if r.depth == 0 && score.abs() <= MATE_BOUND && level < 2 {
            let mut after = board.clone();
            after.place(r.best, board.side_to_move());
            after.set_side_to_move(board.side_to_move().opponent());
            if !rules::is_five(&after, r.best, board.side_to_move(), self.rule) {
                if let Some(j) = self.judge_at(&after, searches, level + 1) {
                    score = -j.score;
                }
            }
        }
        Some(Judgement {
            best: r.best,
            score,
        })
    }
}

/// Iterations whose scores are averaged into a judgement.
pub const SETTLED_ITERATIONS: usize = 3;

/// The score a balance decision uses: the mean of the last [`SETTLED_ITERATIONS`] completed
/// iterations' scores, since one iteration's score swings by about 100 with the depth's parity
/// and the extensions, and the score of an unfinished iteration may be a bound (a fail-high
/// against the aspiration window) rather than a value. The final score when no iteration
/// completed or any of them is a mate score.
pub fn settled_score(iterations: &[i32], score: i32) -> i32 {
    let last = &iterations[iterations.len().saturating_sub(SETTLED_ITERATIONS)..];
    if last.is_empty() || last.iter().any(|s| s.abs() > MATE_BOUND) {
        return score;
    }
    last.iter().sum::<i32>() / last.len() as i32
}

/// The Swap2 decision for `stones` (in move order: black, white, black, ...) on a `width` x
/// `height` board under `rule`, from the search of `searcher` (its table is reused, not
/// cleared). `limits` is the budget of the whole stage: its time control's maximum and its
/// node limit are split between the stage's searches (`threads` and `max_depth` apply to
/// each; `exclude` is ignored). See the module docs for the decisions.
pub fn answer(
    searcher: &mut Searcher,
    width: usize,
    height: usize,
    stones: &[Pos],
    rule: Rule,
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<Swap2Answer, Swap2Error> {
    let mut board = Board::new(width, height).map_err(|e| Swap2Error::Board(e.to_string()))?;
    if !matches!(stones.len(), 0 | 3 | 5) {
        return Err(Swap2Error::StoneCount(stones.len()));
    }
    for &p in stones {
        if p.is_none() || p.x() >= width || p.y() >= height || !board.is_empty(p) {
            return Err(Swap2Error::BadStone(p));
        }
        board.make(p);
    }
    if rules::winner_after_last(&board, rule).is_some()
        || board
            .history()
            .iter()
            .any(|&(p, c)| rules::is_five(&board, p, c, rule))
    {
        return Err(Swap2Error::GameOver);
    }
    rules::tables::init(rule);
    let empties = width * height - stones.len();
    let mut stage = Stage {
        searcher,
        rule,
        budget: StageBudget::new(limits, empties),
        stop,
    };
    match stones.len() {
        0 => propose_opening(&mut stage, &board),
        3 => after_three(&mut stage, &board),
        _ => after_five(&mut stage, &board),
    }
}

/// The candidate openings that fit on `board`, as boards with white to move.
fn opening_boards(board: &Board, rule: Rule) -> Vec<Board> {
    let c = board.center();
    let at = |(dx, dy): (i32, i32)| -> Option<Pos> {
        let x = c.x() as i64 + i64::from(dx);
        let y = c.y() as i64 + i64::from(dy);
        board.pos(x, y).ok()
    };
    opening_candidates(rule)
        .iter()
        .filter_map(|&(w, b)| {
            let (w, b) = (at(w)?, at(b)?);
            let mut o = board.clone();
            for p in [c, w, b] {
                if !o.is_empty(p) {
                    return None;
                }
                o.make(p);
            }
            Some(o)
        })
        .collect()
}

fn stones_after(board: &Board, from: usize) -> Vec<Pos> {
    board.history()[from..].iter().map(|&(p, _)| p).collect()
}

fn propose_opening(stage: &mut Stage, board: &Board) -> Result<Swap2Answer, Swap2Error> {
    let candidates = opening_boards(board, stage.rule);
    if candidates.is_empty() {
        // A board too small for the list: the first three empty points near the centre.
        let c = board.center();
        let mut points: Vec<Pos> = board.empty_points().collect();
        points.sort_by_key(|&p| (p.distance(c), p));
        if points.len() < 3 {
            return Err(Swap2Error::NoMove);
        }
        return Ok(Swap2Answer::Moves(points[..3].to_vec()));
    }
    // Round 1: every candidate with half the stage's budget (as if `n` more searches of the
    // same share followed); round 2: the closest few again with the other half, deeper.
    let n = candidates.len();
    let mut scores: Vec<(i32, usize)> = Vec::with_capacity(n);
    for (i, o) in candidates.iter().enumerate() {
        let Some(j) = stage.judge(o, 2 * n - i) else {
            break;
        };
        log::debug!(
            "swap2 opening {}: white scores {}",
            crate::notation::format_moves(&stones_after(o, 0)),
            j.score
        );
        scores.push((j.score, i));
    }
    // Stable: equal distances from 0 keep the list order.
    scores.sort_by_key(|&(s, _)| s.abs());
    scores.truncate(OPENING_FINALISTS);
    // A finalist is judged by both of its scores, the deeper one counting twice: one
    // search's score swings by about 100 from depth to depth, and the smallest of several
    // noisy scores is the one most likely to have swung towards 0.
    let mut finals: Vec<(i32, usize)> = Vec::with_capacity(scores.len());
    for (k, &(first, i)) in scores.iter().enumerate() {
        let Some(j) = stage.judge(&candidates[i], scores.len() - k) else {
            break;
        };
        log::debug!("swap2 opening {i} again: white scores {}", j.score);
        finals.push(((first + 2 * j.score).abs() / 3, i));
    }
    let chosen = if finals.len() == scores.len() {
        finals.iter().min_by_key(|&&(s, i)| (s, i)).map(|&(_, i)| i)
    } else {
        scores.first().map(|&(_, i)| i)
    };
    Ok(Swap2Answer::Moves(stones_after(
        &candidates[chosen.unwrap_or(0)],
        0,
    )))
}

/// The legal point nearest the centre for the side to move (a fallback when no search ran).
pub(crate) fn nearest_legal(board: &Board, rule: Rule) -> Option<Pos> {
    let c = board.center();
    let me = board.side_to_move();
    board
        .empty_points()
        .filter(|&p| rules::is_legal(board, p, me, rule))
        .min_by_key(|&p| (p.distance(c), p))
}

fn after_three(stage: &mut Stage, board: &Board) -> Result<Swap2Answer, Swap2Error> {
    let searches = 1 + FIFTH_STONE_CANDIDATES;
    let Some(j) = stage.judge(board, searches) else {
        let p = nearest_legal(board, stage.rule).ok_or(Swap2Error::NoMove)?;
        return Ok(Swap2Answer::Moves(vec![p]));
    };
    log::debug!("swap2 after three: white scores {}", j.score);
    if j.score < -BALANCE_MARGIN {
        return Ok(Swap2Answer::Swap);
    }
    if j.score > BALANCE_MARGIN {
        return Ok(Swap2Answer::Moves(vec![j.best]));
    }
    // Balanced to the engine's eye: offer the choice with a 5th stone that keeps it so.
    let mut four = board.clone();
    four.make(j.best);
    let mut tried: Vec<Pos> = Vec::new();
    let mut balanced: Option<(i32, Pos)> = None;
    for k in 0..FIFTH_STONE_CANDIDATES {
        if stage.stopped() {
            break;
        }
        let Some(limits) = stage.budget.next(FIFTH_STONE_CANDIDATES - k) else {
            break;
        };
        let limits = Limits {
            exclude: tried.clone(),
            ..limits
        };
        let Some(r) = stage.search(&four, &limits) else {
            break;
        };
        if tried.contains(&r.best) || (stage.stopped() && r.depth == 0) {
            break;
        }
        tried.push(r.best);
        // The score is black's (to move); the position after it is as good for white as
        // `-score`, balanced when that is near 0.
        let mut five = four.clone();
        five.make(r.best);
        let five_made = rules::is_five(&five, r.best, Color::Black, stage.rule);
        if !five_made && balanced.is_none_or(|(s, _)| r.score.abs() < s) {
            balanced = Some((r.score.abs(), r.best));
        }
    }
    match balanced {
        Some((s, fifth)) if s <= BALANCE_MARGIN => Ok(Swap2Answer::Moves(vec![j.best, fifth])),
        _ if j.score >= 0 => Ok(Swap2Answer::Moves(vec![j.best])),
        _ => Ok(Swap2Answer::Swap),
    }
}

fn after_five(stage: &mut Stage, board: &Board) -> Result<Swap2Answer, Swap2Error> {
    let Some(j) = stage.judge(board, 1) else {
        let p = nearest_legal(board, stage.rule).ok_or(Swap2Error::NoMove)?;
        return Ok(Swap2Answer::Moves(vec![p]));
    };
    log::debug!("swap2 after five: white scores {}", j.score);
    if j.score < 0 {
        Ok(Swap2Answer::Swap)
    } else {
        Ok(Swap2Answer::Moves(vec![j.best]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_text_forms() {
        assert_eq!(Swap2Answer::Swap.protocol_text(), "SWAP");
        let m = Swap2Answer::Moves(vec![Pos::new(7, 7), Pos::new(8, 7), Pos::new(9, 9)]);
        assert_eq!(m.protocol_text(), "7,7 8,7 9,9");
    }

    #[test]
    fn every_candidate_fits_on_small_boards() {
        for size in [11, 15, 20] {
            let b = Board::square(size).unwrap();
            for rule in [Rule::Freestyle, Rule::Renju] {
                let n = opening_candidates(rule).len();
                assert_eq!(opening_boards(&b, rule).len(), n, "{size} {rule}");
            }
        }
    }

    #[test]
    fn a_settled_score_is_the_mean_of_the_last_completed_iterations() {
        // The last three of four iterations; the final score (a bound) does not count.
        assert_eq!(settled_score(&[10, -20, 40, 100], 172), 40);
        assert_eq!(settled_score(&[30, -10], 5), 10);
        // No completed iteration, or a mate among the last three: the final score.
        assert_eq!(settled_score(&[], 55), 55);
        assert_eq!(
            settled_score(&[0, 20, MATE_BOUND + 5], MATE_BOUND + 5),
            MATE_BOUND + 5
        );
        // A mate further back no longer counts.
        assert_eq!(settled_score(&[-MATE_BOUND - 9, 3, 6, 9], 9), 6);
    }

    #[test]
    fn wrong_stone_counts_are_refused() {
        let mut s = Searcher::new(1 << 20);
        let stop = AtomicBool::new(false);
        let stones = [Pos::new(7, 7), Pos::new(8, 8)];
        assert_eq!(
            answer(
                &mut s,
                15,
                15,
                &stones,
                Rule::Freestyle,
                &Limits::depth(2),
                &stop
            ),
            Err(Swap2Error::StoneCount(2))
        );
        let dup = [Pos::new(7, 7), Pos::new(8, 8), Pos::new(7, 7)];
        assert_eq!(
            answer(
                &mut s,
                15,
                15,
                &dup,
                Rule::Freestyle,
                &Limits::depth(2),
                &stop
            ),
            Err(Swap2Error::BadStone(Pos::new(7, 7)))
        );
    }
}
