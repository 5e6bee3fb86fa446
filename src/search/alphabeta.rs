//! The per-thread searcher: iterative deepening, aspiration windows, principal variation
//! search over an [`EvalBoard`] with a VCF probe and a quiescence search over fours at the
//! horizon, laid out as `Step N.` blocks.
//!
//! Invariants: the board is restored exactly after every call (make/undo in stack order);
//! scores are from the side to move's view, mate scores count plies from the root
//! ([`mate_in`]/[`mated_in`]) and are stored in the TT relative to the node; once the abort or
//! stop flag is seen every call returns at once and its score is ignored. Only the main worker
//! (id 0) reads the clock; helpers only read the flags.

use super::history::History;
use super::movegen::{self, Hints, NodeKind, ScoredMove};
use super::params::*;
use super::time::Clock;
use super::tt::{Bound, Tt, TtEntry};
use crate::eval::EvalBoard;
use crate::rules::pattern::CellThreat;
use crate::score::{mate_in, mated_in, MATE, MATE_BOUND};
use crate::threat::vcf::{VcfLimits, VcfProver};
use crate::types::Pos;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// State shared by all workers of one search.
pub(crate) struct Shared<'a> {
    pub tt: &'a Tt,
    pub stop: &'a AtomicBool,
    pub abort: AtomicBool,
    pub nodes: AtomicU64,
    pub clock: Clock,
    pub max_nodes: u64,
}

impl Shared<'_> {
    #[inline]
    fn aborted(&self) -> bool {
        self.abort.load(Relaxed) || self.stop.load(Relaxed)
    }
}

/// A root move and what the last iterations said about it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub pos: Pos,
    pub score: i32,
    pub pv: Vec<Pos>,
}

/// What the root search does with one root move, for a GUI's live display. Only the main
/// worker reports them; each carries the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootEvent {
    /// The search of this root move starts.
    Enter(Pos),
    /// The search of this root move is finished (not sent when the search was stopped).
    Leave(Pos),
    /// This root move is the new best of the iteration so far.
    Best(Pos),
    /// This root move is proven lost (a mate score against the side to move).
    Lost(Pos),
    /// An iteration has completed with this best move.
    Completed(Pos),
}

/// One completed iteration.
#[derive(Clone, Debug)]
pub(crate) struct Iteration {
    pub depth: i32,
    /// The deepest ply a node of the iteration's search reached (quiescence included).
    pub seldepth: i32,
    pub score: i32,
    pub pv: Vec<Pos>,
}

#[derive(Clone, Default)]
struct Frame {
    killers: [Pos; 2],
    moves: Vec<ScoredMove>,
    pv: Vec<Pos>,
    /// Static evaluation of the node at this ply ([`NO_EVAL`] at the horizon or before it is
    /// known), for the improving test two plies later.
    eval: i32,
    /// The move a singular-extension verification search of the node at this ply leaves out
    /// (`Pos::NONE` in every other search); set and cleared around that call by Step 6b.
    excluded: Pos,
    /// Double singular extensions on the path from the root to this ply's node.
    double_extensions: u8,
}

/// One search thread.
pub(crate) struct Worker<'a> {
    pub eb: EvalBoard,
    shared: &'a Shared<'a>,
    id: usize,
    unflushed: u64,
    history: History,
    frames: Vec<Frame>,
    probe: VcfProver,
    /// Depth of the iteration being searched.
    root_depth: i32,
    /// The deepest ply a node of the iteration being searched has reached.
    seldepth: usize,
    pub root_moves: Vec<RootMove>,
    /// Share of the optimum time this position deserves (below 1 when the root only has
    /// defences to choose from).
    pub time_scale: f64,
    /// [`lmp_table`]: quiet moves kept per depth, not improving and improving.
    lmp: [[usize; 2]; LMP_DEPTHS],
    /// [`LmrTable`]: the late-move reduction's logarithms.
    lmr: LmrTable,
}

const INF: i32 = MATE + 1;
/// A frame's evaluation before the node has one.
const NO_EVAL: i32 = i32::MIN;

impl<'a> Worker<'a> {
    pub fn new(eb: EvalBoard, shared: &'a Shared<'a>, id: usize, roots: &[Pos]) -> Worker<'a> {
        Worker {
            eb,
            shared,
            id,
            unflushed: 0,
            history: History::new(),
            frames: vec![
                Frame {
                    eval: NO_EVAL,
                    ..Frame::default()
                };
                MAX_PLY + 2
            ],
            probe: VcfProver::default(),
            root_depth: 0,
            seldepth: 0,
            root_moves: roots
                .iter()
                .map(|&pos| RootMove {
                    pos,
                    score: -INF,
                    pv: vec![pos],
                })
                .collect(),
            time_scale: 1.0,
            lmp: lmp_table(),
            lmr: LmrTable::new(),
        }
    }

    /// Iterative deepening up to `max_depth`; `on_iteration` sees every completed depth
    /// (main worker), `on_root` what happens to each root move (see [`RootEvent`]). Returns
    /// the last completed iteration, or the best root move proven so far in an interrupted
    /// one.
    pub fn iterate(
        &mut self,
        max_depth: i32,
        on_iteration: &mut dyn FnMut(&Iteration, u64),
        on_root: &mut dyn FnMut(RootEvent, i32),
    ) -> Option<Iteration> {
        let mut last: Option<Iteration> = None;
        let mut prev_score: i32 = 0;
        let mut stable = 0;
        let first = 1 + (self.id % 2) as i32;
        for depth in first..=max_depth {
            self.root_depth = depth;
            self.seldepth = 0;
            // Step 1. Aspiration window around the previous score.
            let mut delta = ASPIRATION_DELTA;
            let (mut alpha, mut beta) =
                if depth >= ASPIRATION_MIN_DEPTH && prev_score.abs() < MATE_BOUND {
                    (prev_score - delta, prev_score + delta)
                } else {
                    (-INF, INF)
                };
            let mut partial = None;
            let mut partial_fails_high = false;
            let score = loop {
                let (s, best) = self.root_search(alpha, beta, depth, on_root);
                if best.is_some() {
                    partial = best;
                    partial_fails_high = s >= beta;
                }
                if self.shared.aborted() {
                    break None;
                }
                if s <= alpha && alpha > -INF {
                    beta = (alpha + beta) / 2;
                    alpha = (s - delta).max(-INF);
                } else if s >= beta && beta < INF {
                    beta = (s + delta).min(INF);
                } else {
                    break Some(s);
                }
                delta *= 2;
            };
            // Step 2. Keep the result of a completed iteration.
            // An interrupted iteration gives its best move so far, unless that is only the
            // previous best failing high: a fail-high proves a bound (often one the finished
            // iteration would not confirm), so the last completed value stands.
            let Some(score) = score else {
                let same_best =
                    |p: &Iteration| last.as_ref().is_some_and(|l| l.pv.first() == p.pv.first());
                if let Some(p) = partial.filter(|p| !(partial_fails_high && same_best(p))) {
                    last = Some(p);
                }
                break;
            };
            self.root_moves.sort_by_key(|r| std::cmp::Reverse(r.score));
            let same_best =
                last.as_ref().and_then(|l| l.pv.first()) == Some(&self.root_moves[0].pos);
            stable = if same_best { stable + 1 } else { 0 };
            let dropped = score < prev_score - 2 * ASPIRATION_DELTA;
            prev_score = score;
            let it = Iteration {
                depth,
                seldepth: self.seldepth as i32,
                score,
                pv: self.root_moves[0].pv.clone(),
            };
            self.flush_nodes();
            on_root(RootEvent::Completed(self.root_moves[0].pos), depth);
            on_iteration(&it, self.shared.nodes.load(Relaxed));
            last = Some(it);
            // Step 3. Stop when a mate is proven within the depth or time is short.
            if score.abs() >= MATE_BOUND && MATE - score.abs() <= depth {
                break;
            }
            // A best move that keeps changing or a falling score earns more time, a stable
            // one less (the clock's maximum still bounds everything).
            let factor = self.time_scale
                * if dropped || stable == 0 {
                    1.4
                } else if stable >= 4 {
                    0.85
                } else {
                    1.0
                };
            if self.id == 0 && self.shared.clock.past_optimum(factor) {
                break;
            }
        }
        self.flush_nodes();
        last
    }

    /// Searches every root move; returns the best score and, if some move was fully searched
    /// and raised alpha, the iteration it proves.
    fn root_search(
        &mut self,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        on_root: &mut dyn FnMut(RootEvent, i32),
    ) -> (i32, Option<Iteration>) {
        let mut best = -INF;
        let mut proven = None;
        for i in 0..self.root_moves.len() {
            let m = self.root_moves[i].pos;
            on_root(RootEvent::Enter(m), depth);
            self.shared.tt.prefetch(self.eb.board().hash_after(m));
            self.eb.make(m);
            let s = if i == 0 {
                -self.search(-beta, -alpha, depth - 1, 1, true, false)
            } else {
                let mut s = -self.search(-alpha - 1, -alpha, depth - 1, 1, false, true);
                if s > alpha && s < beta && !self.shared.aborted() {
                    s = -self.search(-beta, -alpha, depth - 1, 1, true, false);
                }
                s
            };
            self.eb.undo();
            if self.shared.aborted() {
                break;
            }
            on_root(RootEvent::Leave(m), depth);
            if s <= -MATE_BOUND {
                on_root(RootEvent::Lost(m), depth);
            } else if s > alpha {
                on_root(RootEvent::Best(m), depth);
            }
            let rm = &mut self.root_moves[i];
            if s > alpha || i == 0 {
                rm.score = s;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.frames[1].pv);
            } else {
                rm.score = -INF;
            }
            best = best.max(s);
            if s > alpha {
                alpha = s;
                proven = Some(Iteration {
                    depth,
                    seldepth: self.seldepth as i32,
                    score: s,
                    pv: rm.pv.clone(),
                });
                if s >= beta {
                    break;
                }
            }
        }
        (best, proven)
    }

    #[inline]
    fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.unflushed, Relaxed);
        self.unflushed = 0;
    }

    /// Counts a node; every [`TIME_CHECK_NODES`] flushes the count and (main worker) checks
    /// the clock and node limit.
    #[inline]
    fn count_node(&mut self) {
        self.unflushed += 1;
        if self.unflushed >= TIME_CHECK_NODES {
            self.flush_nodes();
            if self.id == 0 {
                let nodes = self.shared.nodes.load(Relaxed);
                if self.shared.clock.out_of_time()
                    || (self.shared.max_nodes > 0 && nodes >= self.shared.max_nodes)
                {
                    self.shared.abort.store(true, Relaxed);
                }
            }
        }
    }

    /// The move generator's ordering hints at `ply`.
    fn hints(&self, ply: usize, tt_move: Pos) -> Hints<'_> {
        Hints {
            tt_move,
            killers: self.frames[ply].killers,
            history: &self.history,
            counter: self
                .history
                .counter(self.eb.side_to_move(), self.eb.board().last_move()),
        }
    }

    /// The static evaluation at the horizon, clamped inside the mate range.
    #[inline]
    fn leaf(&self) -> i32 {
        self.eb.evaluate().clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// Quiescence over fours: the side to move may stand on the static evaluation or play a
    /// four (at most `fours` more of its own), after which the opponent's block is forced; a
    /// block that makes a four forces the attacker's block in turn. Mate scores come out of it
    /// when the fours lead to a five, a live four or a four-three the opponent cannot meet.
    /// Under caro (where a five can be stopped at either end) it is the static evaluation.
    fn quiescence(&mut self, alpha: i32, beta: i32, ply: usize, fours: u32) -> i32 {
        self.count_node();
        self.seldepth = self.seldepth.max(ply);
        if self.shared.aborted() {
            return 0;
        }
        let me = self.eb.side_to_move();
        let opp = me.opponent();
        if self.eb.count(me, CellThreat::Five) > 0 {
            return mate_in(ply + 1);
        }
        let caro = self.eb.rule().five_blockable();
        let opp_fives = self.eb.count(opp, CellThreat::Five);
        if opp_fives > 0 && !caro {
            // Step 1. The opponent threatens a five: block it (two fives cannot be blocked).
            if opp_fives >= 2 || ply >= MAX_PLY {
                return mated_in(ply + 2);
            }
            let Some(block) = self
                .eb
                .near_empties()
                .find(|&p| self.eb.threat(p, opp) == CellThreat::Five)
            else {
                return mated_in(ply + 2);
            };
            if !self.eb.is_legal(block) {
                return mated_in(ply + 2);
            }
            self.eb.make(block);
            let s = -self.quiescence(-beta, -alpha, ply + 1, fours);
            self.eb.undo();
            return s;
        }
        if opp_fives == 0 {
            if movegen::has_winning_point(&self.eb, me) {
                return mate_in(ply + 3);
            }
            if movegen::has_winning_threat(&self.eb, me) {
                return mate_in(ply + 5);
            }
        }
        let stand = self.leaf();
        self.stand_pat_or_fours(alpha, beta, ply, fours, stand)
    }

    /// Steps 2 and 3 of the quiescence search, for a node whose immediate results are settled
    /// (no five to play or to stop, no winning four or four-three) and whose clamped static
    /// evaluation is `stand`: the search's horizon enters here with the evaluation it has.
    fn stand_pat_or_fours(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        fours: u32,
        stand: i32,
    ) -> i32 {
        let me = self.eb.side_to_move();
        // Step 2. Stand pat.
        if stand >= beta
            || fours == 0
            || self.eb.rule().five_blockable()
            || ply >= MAX_PLY
            || self.eb.count_at_least(me, QS_MIN_THREAT) == 0
        {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        // Step 3. Our fours, strongest first (four-threes before plain fours).
        let mut moves = std::mem::take(&mut self.frames[ply].moves);
        movegen::fours(&self.eb, me, QS_MIN_THREAT, &mut moves);
        for m in moves.iter().copied() {
            self.eb.make(m.pos);
            let s = -self.quiescence(-beta, -alpha, ply + 1, fours - 1);
            self.eb.undo();
            if self.shared.aborted() {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.frames[ply].moves = moves;
        best
    }

    /// The main search. `cut_node`: a null-window node expected to fail high (the first
    /// child of an expected all-node, or a later move searched with a null window).
    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        self.count_node();
        self.seldepth = self.seldepth.max(ply);
        self.frames[ply].pv.clear();
        self.frames[ply].eval = NO_EVAL;
        if self.shared.aborted() {
            return 0;
        }
        // A verification search (Step 6b) of this same position without this move: it takes
        // no TT cutoff, stores nothing and prunes nothing by the static evaluation, so its
        // result speaks only of the other moves.
        let excluded = self.frames[ply].excluded;
        let me = self.eb.side_to_move();
        let opp = me.opponent();

        // Step 1. Immediate results: a five to play, two fives to stop, a winning four.
        if self.eb.count(me, CellThreat::Five) > 0 {
            return mate_in(ply + 1);
        }
        let opp_fives = self.eb.count(opp, CellThreat::Five);
        // (Under caro a block can close the other five's end, so two fives are not proof.)
        if opp_fives >= 2 && !self.eb.rule().five_blockable() {
            return mated_in(ply + 2);
        }
        if opp_fives == 0 && movegen::has_winning_point(&self.eb, me) {
            return mate_in(ply + 3);
        }
        if opp_fives == 0 && movegen::has_winning_threat(&self.eb, me) {
            return mate_in(ply + 5);
        }
        if self.eb.board().is_full() {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.leaf();
        }

        // Step 2. Mate-distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 3. Horizon (unless a five threat forces the reply): off the PV an evaluation
        // at or above beta stands pat at once; else a VCF the probe finds is a win. On the
        // principal variation, a node whose opponent has a VCF cannot stand pat, so it gets
        // one more ply (a few plies beyond the iteration at most; probing the opponent at
        // every horizon node doubled the bench time). Otherwise the four-move quiescence
        // search. The horizon's results are kept in the TT at depth 0.
        let key = self.eb.board().hash();
        let entry = self.shared.tt.probe(key);
        // On the principal variation now or when this node was stored.
        let tt_pv = pv_node || entry.is_some_and(|e| e.pv);
        let mut depth = depth;
        if depth <= 0 && opp_fives == 0 {
            debug_assert!(
                excluded.is_none(),
                "verification searches stay above the horizon"
            );
            if let Some(e) = entry.filter(|_| !pv_node) {
                let s = score_from_tt(e.score, ply);
                if cuts(e.bound, s, alpha, beta) {
                    return s;
                }
            }
            // Off the PV, an evaluation at or above beta settles the node before the probe (as
            // the quiescence search would stand pat): a VCF found there would only cut the same
            // way, with a mate score the parent does not need to refute this move. The node
            // stands on its static evaluation as the TT refines it (Step 5's estimate).
            let eval = entry.map_or_else(|| self.eb.evaluate(), |e| e.eval);
            let stand = refined_eval(entry, eval, ply).clamp(-EVAL_LIMIT, EVAL_LIMIT);
            if !pv_node && stand >= beta {
                let tt = &self.shared.tt;
                tt.store(key, Pos::NONE, stand, eval, 0, Bound::Lower, tt_pv);
                return stand;
            }
            const LIMITS: VcfLimits = VcfLimits::leaf(PROBE_NODES, PROBE_FOURS);
            if let Some(n) = self.probe.leaf(&mut self.eb, me, LIMITS) {
                let s = mate_in(ply + n as usize);
                let tt = &self.shared.tt;
                tt.store(
                    key,
                    Pos::NONE,
                    score_to_tt(s, ply),
                    eval,
                    0,
                    Bound::Exact,
                    tt_pv,
                );
                return s;
            }
            if !(pv_node
                && (ply as i32) < self.root_depth + THREAT_EXTENSION_PLIES
                && self.probe.leaf(&mut self.eb, opp, LIMITS).is_some())
            {
                // The quiescence search's Step 1 is this node's Step 1, done; its node is
                // still counted, as when it was entered from the top.
                self.count_node();
                let s = self.stand_pat_or_fours(alpha, beta, ply, QS_FOURS, stand);
                if !self.shared.aborted() {
                    let bound = bound_of(s, alpha, beta);
                    let tt = &self.shared.tt;
                    tt.store(key, Pos::NONE, score_to_tt(s, ply), eval, 0, bound, tt_pv);
                }
                return s;
            }
            depth = 1;
        }

        // Step 4. Transposition table.
        let mut tt_move = Pos::NONE;
        if let Some(e) = entry {
            tt_move = e.mv;
            let s = score_from_tt(e.score, ply);
            if !pv_node && excluded.is_none() && e.depth >= depth && cuts(e.bound, s, alpha, beta) {
                return s;
            }
        }

        // Step 5. Static evaluation; "improving" when it is above the one two plies earlier
        // (the same side to move). Reverse futility pruning in quiet positions, not at a node
        // that is or was on the principal variation. Pruning reads the estimate
        // [`refined_eval`] gives; the TT keeps and "improving" compares the static evaluation.
        let static_eval = entry.map_or_else(|| self.eb.evaluate(), |e| e.eval);
        let eval = refined_eval(entry, static_eval, ply);
        let opp_threat = opp_fives > 0
            || self.eb.count(opp, CellThreat::Flex4) + self.eb.count(opp, CellThreat::Block4x2) > 0;
        self.frames[ply].eval = if opp_threat { NO_EVAL } else { static_eval };
        let improving = !opp_threat
            && ply >= 2
            && (self.frames[ply - 2].eval == NO_EVAL || static_eval > self.frames[ply - 2].eval);
        if !tt_pv
            && excluded.is_none()
            && !opp_threat
            && depth <= RFP_DEPTH
            && beta.abs() < MATE_BOUND
            && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
        {
            return eval;
        }

        // Step 5b. Internal iterative reduction: a node without a TT move at some depth is
        // searched one ply shallower (its ordering is poor anyway; the next visit has a move).
        // Never in a verification search, which must keep the depth it was given.
        if tt_move == Pos::NONE
            && excluded.is_none()
            && (pv_node || cut_node)
            && depth >= IIR_MIN_DEPTH
        {
            depth -= 1;
        }

        // Step 6. The node's kind (threat-aware), then its moves. The TT move, if the node
        // would generate it, is searched before the others are generated (a cut saves them);
        // a verification search generates every move but its excluded one.
        let kind = movegen::node_kind(&self.eb);
        if let NodeKind::Win(_) = kind {
            return mate_in(ply + 1);
        }
        let mut moves = std::mem::take(&mut self.frames[ply].moves);
        moves.clear();
        let tt_first = excluded
            .is_none()
            .then(|| movegen::scored_move(&self.eb, &self.hints(ply, tt_move), kind, tt_move))
            .flatten();
        let mut generated = tt_first.is_none();
        if let Some(m) = tt_first {
            moves.push(m);
        } else {
            movegen::generate_unordered(&self.eb, &self.hints(ply, tt_move), kind, &mut moves);
            moves.retain(|m| m.pos != excluded);
            if moves.is_empty() {
                self.frames[ply].moves = moves;
                return if !excluded.is_none() {
                    // The excluded move was the only one: no other move reaches alpha.
                    alpha
                } else if opp_fives > 0 {
                    // No legal defence of a five (renju: the block is a foul).
                    mated_in(ply + 2)
                } else {
                    eval
                };
            }
        }

        // Step 6b. Singular extension. The TT move (generated alone, before the others) with a
        // lower bound from a search nearly as deep is verified: the other moves are searched
        // at half the depth with a null window a margin below its score. If they all fail
        // low, the TT move is singular (the only good one) and is searched one ply deeper
        // (two outside the PV when they fall far short, at most `SE_DOUBLE_MAX` times on a
        // path); if they fail high and the lowered bound still reaches beta, several moves beat
        // beta and the node is cut (multi-cut). Not at a forced node (its only move is a
        // block), not for mate scores, not within another verification of this node, and only
        // within twice the iteration's depth so that chains of extensions end.
        let mut extension = 0;
        let singular = entry.filter(|e| {
            excluded.is_none()
                && kind != NodeKind::Forced
                && depth >= SE_MIN_DEPTH
                && (ply as i32) < 2 * self.root_depth
                && tt_first.is_some()
                && matches!(e.bound, Bound::Lower | Bound::Exact)
                && e.depth >= depth - SE_TT_DEPTH_MARGIN
                && e.score.abs() < MATE_BOUND
        });
        if let Some(e) = singular {
            let singular_beta = score_from_tt(e.score, ply) - SE_MARGIN_PER_DEPTH * depth;
            let singular_depth = (depth - 1) / 2;
            self.frames[ply].excluded = tt_move;
            let s = self.search(
                singular_beta - 1,
                singular_beta,
                singular_depth,
                ply,
                false,
                cut_node,
            );
            self.frames[ply].excluded = Pos::NONE;
            if self.shared.aborted() {
                self.frames[ply].moves = moves;
                return 0;
            }
            if s < singular_beta {
                // Far below the margin outside the PV: a lone good move, two plies more
                // (a few times on a path at most).
                extension = if !pv_node
                    && s < singular_beta - SE_DOUBLE_MARGIN
                    && self.frames[ply].double_extensions < SE_DOUBLE_MAX
                {
                    2
                } else {
                    1
                };
            } else if singular_beta >= beta {
                self.frames[ply].moves = moves;
                return singular_beta;
            }
        }

        // Step 7. Search the moves: PVS with late-move reductions and move-count pruning.
        // Moves that make a four with more (a two, a three, a second four) are never reduced; a
        // plain four, which mostly spends the four for nothing, is reduced like a three where
        // there is no threat to answer. A node on the PV, or off it but on it when its TT entry
        // was stored, reduces one ply less. Fours are pruned only as distractions from a live
        // three; quiet moves (no live three made, no double three blocked) are pruned by
        // count at every depth. A singular TT move (first) gets its extension.
        let forced = kind == NodeKind::Forced;
        let new_depth = if forced { depth } else { depth - 1 };
        // Fail-high reduction: an expected cut node well above beta needs no full depth for
        // its quiet moves to show it.
        let fail_high = cut_node
            && !forced
            && !opp_threat
            && excluded.is_none()
            && depth >= 2
            && beta.abs() < MATE_BOUND
            && eval >= beta + FHR_MARGIN * depth - FHR_BASE;
        let lmp_limit =
            self.lmp[(depth.max(1) as usize).min(LMP_DEPTHS - 1)][usize::from(improving)];
        let killers = self.frames[ply].killers;
        // Distraction pruning: facing a live three at a shallow depth, an own four that blocks
        // none of the opponent's four points and lies far from both last moves only delays
        // the threat (the horizon's VCF probe still sees a counter-attack that wins).
        let distract = kind == NodeKind::Defend && depth < DISTRACT_DEPTH;
        let recent = if distract {
            let h = self.eb.board().history();
            [h.len().checked_sub(1), h.len().checked_sub(2)].map(|i| i.map(|i| h[i].0))
        } else {
            [None; 2]
        };
        let far = |p: Pos| {
            recent
                .iter()
                .all(|r| r.is_none_or(|q| q.distance(p) > DISTRACT_DISTANCE))
        };
        let mut best = -INF;
        let mut best_move = Pos::NONE;
        let original_alpha = alpha;
        for i in 0.. {
            if i > 0 && !generated {
                // The TT move did not cut: the other moves now (the TT move first again).
                let hints = self.hints(ply, tt_move);
                movegen::generate_unordered(&self.eb, &hints, kind, &mut moves);
                movegen::pick(&mut moves, 0);
                debug_assert_eq!(moves[0].pos, tt_move);
                generated = true;
            }
            if i >= moves.len() {
                break;
            }
            // Best first, picked as they are needed.
            movegen::pick(&mut moves, i);
            let m = moves[i];
            let quiet = kind == NodeKind::All
                && m.threat < CellThreat::Flex3
                && m.blocks < CellThreat::Flex3x2;
            // Quiet moves outside the PV, once a move that does not lose is in hand: pruned by
            // count, and at a shallow depth when they have often failed here lately (history).
            if !pv_node && quiet && best > -MATE_BOUND {
                if i >= lmp_limit {
                    break;
                }
                if depth <= HISTORY_PRUNE_DEPTH
                    && self.history.get(me, m.pos) < -HISTORY_PRUNE_MARGIN * depth
                {
                    continue;
                }
            }
            if distract && best > -MATE_BOUND && m.blocks < CellThreat::Block4 && far(m.pos) {
                continue;
            }
            let new_depth = new_depth - i32::from(fail_high && m.threat < CellThreat::Block4);
            self.frames[ply + 1].double_extensions =
                self.frames[ply].double_extensions + u8::from(i == 0 && extension == 2);
            self.shared.tt.prefetch(self.eb.board().hash_after(m.pos));
            self.eb.make(m.pos);
            let s = if i == 0 {
                -self.search(
                    -beta,
                    -alpha,
                    new_depth + extension,
                    ply + 1,
                    pv_node,
                    !pv_node && !cut_node,
                )
            } else {
                let r = if kind != NodeKind::Forced
                    && depth >= LMR_MIN_DEPTH
                    && i >= LMR_MIN_MOVE
                    && (m.threat < CellThreat::Block4
                        || (m.threat == CellThreat::Block4 && kind == NodeKind::All))
                {
                    let mut r = self.lmr.reduction(depth, i);
                    r += i32::from(!pv_node && !improving) + i32::from(cut_node);
                    r -= i32::from(tt_pv) + i32::from(!quiet);
                    r -= i32::from(killers.contains(&m.pos));
                    r -= self.history.get(me, m.pos) / LMR_HISTORY_DIVISOR;
                    r.clamp(0, (new_depth - 1).max(0))
                } else {
                    0
                };
                let mut s = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true);
                if s > alpha && r > 0 {
                    s = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
                }
                if pv_node && s > alpha && s < beta {
                    s = -self.search(-beta, -alpha, new_depth, ply + 1, true, false);
                }
                s
            };
            self.eb.undo();
            if self.shared.aborted() {
                self.frames[ply].moves = moves;
                return 0;
            }
            if s > best {
                best = s;
                best_move = m.pos;
                if s > alpha {
                    alpha = s;
                    if pv_node {
                        let (head, tail) = self.frames.split_at_mut(ply + 1);
                        let pv = &mut head[ply].pv;
                        pv.clear();
                        pv.push(m.pos);
                        pv.extend_from_slice(&tail[0].pv);
                    }
                    if s >= beta {
                        // Step 8. A cut: remember the move.
                        if kind == NodeKind::All {
                            let k = &mut self.frames[ply].killers;
                            if k[0] != m.pos {
                                k[1] = k[0];
                                k[0] = m.pos;
                            }
                            let bonus = history_bonus(depth);
                            self.history.update(me, m.pos, bonus);
                            let prev = self.eb.board().last_move();
                            self.history.set_counter(me, prev, m.pos);
                            for q in moves[..i].iter() {
                                self.history.update(me, q.pos, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.frames[ply].moves = moves;

        // Step 9. Store the result (not of a verification search: its key is the node's, its
        // result only the other moves').
        if excluded.is_none() {
            let bound = bound_of(best, original_alpha, beta);
            self.shared.tt.store(
                key,
                best_move,
                score_to_tt(best, ply),
                static_eval,
                depth,
                bound,
                tt_pv,
            );
        }
        best
    }
}

/// The static evaluation `static_eval` of a node refined by its TT entry (read at `ply`): a
/// TT score whose bound points away from the static evaluation (an exact score, a lower bound
/// above it, an upper bound below it) is the better estimate for pruning and standing pat;
/// mate scores are not.
#[inline]
fn refined_eval(entry: Option<TtEntry>, static_eval: i32, ply: usize) -> i32 {
    entry.map_or(static_eval, |e| {
        let s = score_from_tt(e.score, ply);
        let better = match e.bound {
            Bound::Exact => true,
            Bound::Lower => s > static_eval,
            Bound::Upper => s < static_eval,
            Bound::None => false,
        };
        if better && s.abs() < MATE_BOUND {
            s
        } else {
            static_eval
        }
    })
}

/// The bound a search result `s` of the window (`alpha`, `beta`) proves.
#[inline]
fn bound_of(s: i32, alpha: i32, beta: i32) -> Bound {
    if s >= beta {
        Bound::Lower
    } else if s > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// True if a TT score `s` with `bound` settles the window (`alpha`, `beta`).
#[inline]
fn cuts(bound: Bound, s: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
        Bound::None => false,
    }
}

/// A score as stored in the TT: mate distances counted from the node, not the root.
#[inline]
fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// A TT score converted back to root-relative mate distances.
#[inline]
fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}
