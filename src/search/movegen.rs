//! Threat-aware move generation and ordering.
//!
//! Given the side to move `me` and the opponent `opp`:
//! 1. `me` has a five point: the node is won ([`NodeKind::Win`]), nothing else is generated.
//! 2. `opp` has a five point: only the blocks ([`NodeKind::Forced`]).
//! 3. `opp` has a live-four point (a live three on the board) or a double-four point: only real
//!    defences ([`NodeKind::Defend`]): every point where `me` makes a four (counter-attack)
//!    and every point where `opp` would make a four (the three's own points, which include all
//!    blocks of connected and split threes).
//! 4. Otherwise every empty point within distance 2 of a stone ([`NodeKind::All`]).
//!
//! Invariants: no generated move is occupied or, for black under renju, a foul; the order is a
//! total order (score, then [`Pos`]), so it is deterministic.

use super::history::History;
use crate::eval::shape::{self, SHAPE_KEYS};
use crate::eval::tables::{hand_cell, pcode_of, PCODES};
use crate::eval::EvalBoard;
use crate::rules::pattern::{CellThreat, MAYBE_FOUL, THREAT_MASK};
pub use crate::threat::{has_winning_point, has_winning_threat, line_points};
use crate::types::{Color, Pos, Rule};

/// A candidate move with its ordering score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The point.
    pub pos: Pos,
    /// Ordering score (higher first).
    pub score: i32,
    /// The mover's threat class at the point.
    pub threat: CellThreat,
    /// The opponent's threat class at the point (what playing here blocks).
    pub blocks: CellThreat,
}

/// What kind of node the generator found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// The side to move wins at once at this point.
    Win(Pos),
    /// The opponent threatens a five: only blocks were generated.
    Forced,
    /// The opponent threatens a live four or double four: only defences were generated.
    Defend,
    /// A quiet node: all nearby points were generated.
    All,
}

/// Ordering bonus of the mover's own threat class.
const ATTACK: [i32; CellThreat::COUNT] = [
    0, -100_000, 40, 60, 120, 160, 500, 700, 3_000, 300, 400, 6_000, 9_000, 20_000, 100_000,
];
/// Ordering bonus of the opponent's threat class at the same point (blocking it).
const DEFEND: [i32; CellThreat::COUNT] = [
    0, 0, 30, 40, 90, 120, 400, 500, 2_000, 250, 300, 4_000, 7_000, 15_000, 50_000,
];

/// Ordering bonus of the counter-move of the opponent's last move (below the killers).
const COUNTER_BONUS: i32 = 3_000;
/// Ordering bonus of the transposition-table move: above any other score, so it comes first.
const TT_MOVE_BONUS: i32 = 1_000_000;

/// The ordering score of `me` playing at the empty point `p` before the search's hints,
/// `mine` and `theirs` being both sides' threat classes there: the learned move scores of
/// the cell's two pcodes if the tables have them (own part for `me`, blocking part for the
/// opponent), else the hand-set class bonuses plus the cell values (the opponent's at half).
#[inline]
pub fn static_score(
    eb: &EvalBoard,
    p: Pos,
    me: Color,
    mine: CellThreat,
    theirs: CellThreat,
) -> i32 {
    let opp = me.opponent();
    if eb.tables().has_policy() {
        eb.move_score(p, me, 0) + eb.move_score(p, opp, 1)
    } else {
        ATTACK[mine as usize]
            + DEFEND[theirs as usize]
            + eb.cell_value(p, me)
            + eb.cell_value(p, opp) / 2
    }
}

/// The hand-set ordering as move-score tables (`[colour][part][pcode]`, part 0 the mover's
/// own score, part 1 the blocking score of the other colour's pcode), the starting point of
/// a learned policy: each pcode's class bonus plus its cell value (half for blocking),
/// clamped to the file's range.
pub fn hand_policy(rule: Rule) -> Box<[[[i16; PCODES]; 2]; 2]> {
    let table = shape::table(rule);
    let weights = crate::eval::Weights::DEFAULT;
    let mut out = Box::new([[[0i16; PCODES]; 2]; 2]);
    let clamp = |x: i32| x.clamp(-30_000, 30_000) as i16;
    for key in 0..SHAPE_KEYS {
        for (c, parts) in out.iter_mut().enumerate() {
            let class = table.combine_keyed(key, c) & THREAT_MASK;
            let cell = hand_cell(rule, &weights, key, c);
            let k = pcode_of(key);
            parts[0][k] = clamp(ATTACK[usize::from(class) % CellThreat::COUNT] + cell);
            parts[1][k] = clamp(DEFEND[usize::from(class) % CellThreat::COUNT] + cell / 2);
        }
    }
    out
}

/// Ordering hints from the search.
pub struct Hints<'a> {
    /// The transposition-table move.
    pub tt_move: Pos,
    /// Killer moves of this ply.
    pub killers: [Pos; 2],
    /// History scores.
    pub history: &'a History,
    /// The counter-move of the opponent's last move.
    pub counter: Pos,
}

/// True if `me` may play at the empty point `p` (renju fouls excluded).
#[inline]
fn allowed(eb: &EvalBoard, me: Color, p: Pos) -> bool {
    !eb.rule().has_fouls(me) || !foulish(eb, p) || !eb.is_forbidden(p)
}

/// True if the patterns say black at `p` is or may be a foul.
#[inline]
fn foulish(eb: &EvalBoard, p: Pos) -> bool {
    let t = eb.threat_byte(p, Color::Black);
    t & MAYBE_FOUL != 0 || CellThreat::from_u8(t) == CellThreat::Forbidden
}

/// The four (threat class `least` or better) `me` makes at `p`, if `p` is empty and `me` may
/// play there, scored for ordering.
#[inline]
fn four_at(eb: &EvalBoard, me: Color, least: CellThreat, p: Pos) -> Option<ScoredMove> {
    if !eb.board().is_empty(p) {
        return None;
    }
    let mine = eb.threat(p, me);
    (mine >= least && allowed(eb, me, p)).then(|| ScoredMove {
        pos: p,
        score: ATTACK[mine as usize] + eb.cell_value(p, me),
        threat: mine,
        blocks: eb.threat(p, me.opponent()),
    })
}

/// Fills `out` with the points where `me` makes a threat of class `least` or better (a four
/// or better) and may play, strongest threat first (then by cell value, then [`Pos`]).
pub fn fours(eb: &EvalBoard, me: Color, least: CellThreat, out: &mut Vec<ScoredMove>) {
    debug_assert!(least.is_four_or_better());
    out.clear();
    // A four point lies next to or one off a stone of its line, so within the candidates.
    out.extend(eb.near_empties().filter_map(|p| four_at(eb, me, least, p)));
    order(out);
}

/// Fills `out` with the points on the four lines through `p` (within 4 cells) where `me`
/// makes a threat of class `least` or better (a four or better) and may play, strongest
/// threat first: the fours that a stone at `p` can have created.
pub fn fours_through(
    eb: &EvalBoard,
    me: Color,
    p: Pos,
    least: CellThreat,
    out: &mut Vec<ScoredMove>,
) {
    debug_assert!(least.is_four_or_better());
    out.clear();
    out.extend(
        line_points(p)
            .into_iter()
            .filter_map(|q| four_at(eb, me, least, q)),
    );
    order(out);
}

/// What kind of node the side to move faces (the first step of [`generate`]).
pub fn node_kind(eb: &EvalBoard) -> NodeKind {
    let me = eb.side_to_move();
    let opp = me.opponent();
    if eb.count(me, CellThreat::Five) > 0 {
        let p = eb
            .near_empties()
            .find(|&p| eb.threat(p, me) == CellThreat::Five)
            .expect("counted five point");
        NodeKind::Win(p)
    } else if eb.count(opp, CellThreat::Five) > 0 {
        NodeKind::Forced
    } else if eb.count(opp, CellThreat::Flex4) + eb.count(opp, CellThreat::Block4x2) > 0 {
        NodeKind::Defend
    } else {
        NodeKind::All
    }
}

/// The point `p` as a move of a node of kind `kind` (not [`NodeKind::Win`]), scored with the
/// search's hints; `None` if [`generate`] would not generate it (occupied or off the board,
/// far from every stone, no answer to the threat the kind names, or a renju foul).
#[inline]
pub fn scored_move(
    eb: &EvalBoard,
    hints: &Hints<'_>,
    kind: NodeKind,
    p: Pos,
) -> Option<ScoredMove> {
    if !eb.board().is_empty(p) || eb.near(p) == 0 {
        return None;
    }
    score_candidate(eb, hints, kind, p)
}

/// [`scored_move`] for an empty point near a stone.
#[inline(always)]
fn score_candidate(
    eb: &EvalBoard,
    hints: &Hints<'_>,
    kind: NodeKind,
    p: Pos,
) -> Option<ScoredMove> {
    let me = eb.side_to_move();
    let opp = me.opponent();
    let [mine, theirs] = {
        let t = eb.threats(p);
        [t[me.index()], t[opp.index()]]
    };
    let keep = match kind {
        NodeKind::Forced => theirs == CellThreat::Five,
        NodeKind::Defend => {
            mine.is_four_or_better()
                || (theirs.is_four_or_better() && theirs != CellThreat::Forbidden)
        }
        _ => true,
    };
    if !keep || !allowed(eb, me, p) {
        return None;
    }
    let mut score = static_score(eb, p, me, mine, theirs) + hints.history.get(me, p) / 64;
    if p == hints.tt_move {
        score += TT_MOVE_BONUS;
    } else if p == hints.killers[0] {
        score += 5_000;
    } else if p == hints.killers[1] {
        score += 4_000;
    } else if p == hints.counter {
        score += COUNTER_BONUS;
    }
    Some(ScoredMove {
        pos: p,
        score,
        threat: mine,
        blocks: theirs,
    })
}

/// Fills `out` with the moves of the side to move, ordered best first (score, then [`Pos`]),
/// and says which kind of node this is (a won node generates nothing).
pub fn generate(eb: &EvalBoard, hints: &Hints<'_>, out: &mut Vec<ScoredMove>) -> NodeKind {
    let kind = node_kind(eb);
    generate_of_kind(eb, hints, kind, out);
    kind
}

/// The moves of [`generate`] for a node whose kind ([`node_kind`]) is known.
pub fn generate_of_kind(
    eb: &EvalBoard,
    hints: &Hints<'_>,
    kind: NodeKind,
    out: &mut Vec<ScoredMove>,
) {
    generate_unordered(eb, hints, kind, out);
    order(out);
}

/// The moves of [`generate_of_kind`] in no particular order: [`pick`] takes them best first.
pub fn generate_unordered(
    eb: &EvalBoard,
    hints: &Hints<'_>,
    kind: NodeKind,
    out: &mut Vec<ScoredMove>,
) {
    out.clear();
    if matches!(kind, NodeKind::Win(_)) {
        return;
    }
    for p in eb.near_empties() {
        if let Some(m) = score_candidate(eb, hints, kind, p) {
            out.push(m);
        }
    }
}

/// Moves picked one at a time by [`pick`] before the rest are sorted at once: most nodes
/// search only their first few moves (a cut, or move-count pruning), and a selection of a
/// few is cheaper than a sort of all.
const PICKED: usize = 6;

/// Makes `moves[i]` the best of `moves[i..]` in [`generate`]'s order (score, then [`Pos`]),
/// given that `moves[..i]` were picked before: called for `i` = 0, 1, 2... in turn, it
/// leaves `moves[..=i]` in the order [`generate`] gives.
#[inline]
pub fn pick(moves: &mut [ScoredMove], i: usize) {
    if i < PICKED {
        let Some(first) = moves.get(i) else {
            return;
        };
        let (mut best, mut best_rank) = (i, rank(first));
        for (j, m) in moves.iter().enumerate().skip(i + 1) {
            let r = rank(m);
            if r > best_rank {
                (best, best_rank) = (j, r);
            }
        }
        moves.swap(i, best);
    } else if i == PICKED && i < moves.len() {
        order(&mut moves[i..]);
    }
}

/// [`generate`]'s order as one number, higher first: the score, then the lower [`Pos`]
/// (whose index fits 16 bits).
#[inline(always)]
fn rank(m: &ScoredMove) -> u64 {
    let score = (m.score as u32) ^ (1 << 31);
    (u64::from(score) << 32) | u64::from(u16::MAX - m.pos.index() as u16)
}

// Every point's index fits the 16 bits `rank` gives it.
const _: () = assert!(crate::types::CELLS <= 1 << 16);

/// Orders `moves` best first: score, highest first, then [`Pos`] (a total order, [`rank`]).
fn order(moves: &mut [ScoredMove]) {
    moves.sort_unstable_by_key(|m| std::cmp::Reverse(rank(m)));
}
