//! VCF (victory by continuous fours): an exact prover for either side under every rule, and
//! the same search bounded for the search's leaves.
//!
//! The attacker plays only moves that make a four (or a five); the defender's replies are the
//! moves that stop every five (outside caro: the single block; in caro also the far-end blocks,
//! all of which must be refuted). When a block makes a four for the defender, the attacker's
//! next move must stand on that five point (and still make a four); a defender with two five
//! points wins. Under renju, black's fours may not be forbidden points, and a black defender
//! whose only block is forbidden loses (the line shows `--`, then white's five).
//!
//! The search runs on the search's own position ([`EvalBoard`]) with make/undo: four points
//! are the cells whose threat class is at least [`CellThreat::Block4`], five points the cells
//! of class [`CellThreat::Five`], and the position is restored exactly after every call.
//!
//! Two ways to call the one search:
//! - *Exact* ([`prove`], [`solve`], [`VcfProver::prove`]): one depth-first pass within
//!   `max_fours` (any winning line), or, with [`VcfLimits::shortest`], iterative deepening on
//!   the number of attacker fours (one at a time up to 12, then unbounded), so that short
//!   lines come out shortest; fours are tried nearest the attacker's last four first, then
//!   by the fours and threes they build; a transposition table (keyed by the board hash,
//!   attacker to move) remembers "no VCF within d fours", with `u32::MAX` meaning "none at
//!   any length". The table only ever prunes, so a hash collision can hide a win but never
//!   invent one; on top of that [`solve`] replays every line with
//!   [`super::verify_vcf_line`] before it reports a win.
//! - *Leaf* ([`VcfProver::leaf`]), for the search's horizon: one pass of at most
//!   `max_fours` fours in a line and `max_nodes` fours tried in all, no table, no line kept.
//!   It tries only fours that build more than a bare four (class [`CellThreat::Block4Plus`]
//!   or better: after the block of a bare four the line is dead), at the first four anywhere
//!   and after it only on the lines of the previous four, strongest class first, then by the
//!   cell's ordering value. It also stops at the static wins ([`super::has_winning_point`]:
//!   a live or double four point; [`super::has_winning_threat`]: a four-three or double three
//!   against a defender that cannot make a four). Caro is never searched there.
//!
//! Invariants of the recursion: at an attacker node the attacker has no five point (it would
//! have won at the parent) and the defender has at most one, passed down as `threat`; at a
//! defender node the defender has no five point (the attacker's stone only removes them). A
//! leaf answer `Some(plies)` is a real forced win (every defender reply in it was forced).

use super::{
    defences as blocks, finish, five_points, five_points_on, five_points_through, four_dirs,
    has_winning_point, has_winning_threat, line_points, verify_vcf_line, windows_through, Points,
    Table,
};
use crate::eval::EvalBoard;
use crate::rules::pattern::CellThreat;
use crate::rules::{zobrist, Board};
use crate::types::{Color, Pos, Rule};
use std::time::Instant;

/// Limits for one VCF search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VcfLimits {
    /// Attacker nodes to visit at most (in a leaf call: attacker fours tried); reaching it
    /// gives [`VcfOutcome::Unknown`].
    pub max_nodes: u64,
    /// Most attacker fours in a line (the final unstoppable four counts, the five does not).
    pub max_fours: u32,
    /// Exact calls: deepen one four at a time, so that the line found is a shortest one.
    /// Otherwise one depth-first pass within `max_fours` decides win or no win (on the puzzle
    /// set a median of 22 nodes against 192, at the price of longer lines). Leaf calls
    /// ignore it.
    pub shortest: bool,
}

impl VcfLimits {
    /// The limits of a leaf call ([`VcfProver::leaf`]): `fours_tried` fours in all, at most
    /// `fours` in a line.
    pub const fn leaf(fours_tried: u32, fours: u32) -> VcfLimits {
        VcfLimits {
            max_nodes: fours_tried as u64,
            max_fours: fours,
            shortest: false,
        }
    }

    /// The same limits, asking exact calls for a shortest line.
    pub const fn shortest_line(self) -> VcfLimits {
        VcfLimits {
            shortest: true,
            ..self
        }
    }
}

impl Default for VcfLimits {
    fn default() -> Self {
        VcfLimits {
            max_nodes: 1_000_000,
            max_fours: 120,
            shortest: false,
        }
    }
}

/// What the prover found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VcfOutcome {
    /// A winning line: attacker and defender moves alternating, ending with the attacker's
    /// five; [`Pos::NONE`] marks a defender that cannot block (renju forbidden point).
    Win(Vec<Pos>),
    /// Proven: the attacker has no VCF of any length.
    NoWin,
    /// A node or length limit stopped the search before an answer.
    Unknown,
}

/// The prover's answer and its cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VcfResult {
    /// The answer.
    pub outcome: VcfOutcome,
    /// Attacker nodes visited.
    pub nodes: u64,
}

impl VcfResult {
    /// Plies until the five for a win (the line length, the five included), so a search can
    /// turn it into a mate score; `None` otherwise.
    pub fn mate_plies(&self) -> Option<usize> {
        match &self.outcome {
            VcfOutcome::Win(line) => Some(line.len()),
            _ => None,
        }
    }

    /// The first move of a winning line.
    pub fn first_move(&self) -> Option<Pos> {
        match &self.outcome {
            VcfOutcome::Win(line) => line.first().copied(),
            _ => None,
        }
    }
}

/// Searches a VCF for `attacker` (who is to move, whatever `board.side_to_move()` says) on
/// a position built from `board` under `rule`.
///
/// A returned win has been replayed and checked by [`super::verify_vcf_line`]; should that
/// check ever fail, the answer is [`VcfOutcome::Unknown`] instead.
pub fn solve(board: &Board, rule: Rule, attacker: Color, limits: VcfLimits) -> VcfResult {
    VcfProver::new().solve(board, rule, attacker, limits)
}

/// Searches a VCF for `attacker` on `pos` (restored on return), without the replay check of
/// [`solve`]: for the search and for callers that replay lines themselves.
pub fn prove(pos: &mut EvalBoard, attacker: Color, limits: VcfLimits) -> VcfResult {
    VcfProver::new().prove(pos, attacker, limits)
}

/// For the side to move on `pos` (restored on return), whose opponent may have a VCF: `None`
/// if the opponent has no VCF found within `detect`; otherwise `Some` of every legal move of
/// the side to move after which the opponent's VCF is no longer found within `per_move` (a
/// five of our own included), in [`Pos`] order. An empty list means every move loses to a
/// VCF. A move after which the search only reaches its limit counts as a defence, so the list
/// never drops a real one; the search can safely restrict the root to it.
///
/// Cost: at most [`DEFENCE_BUDGET`] times `detect.max_nodes` prover nodes in all. The moves
/// most likely to refute are checked first: the points of the opponent's winning line, then
/// our fours (counter-attacks), then the points next to the line, then the rest; a move still
/// unchecked when the budget is spent or `deadline` has passed counts as a defence.
pub fn defences(
    pos: &mut EvalBoard,
    detect: VcfLimits,
    per_move: VcfLimits,
    deadline: Option<Instant>,
) -> Option<Vec<Pos>> {
    let us = pos.side_to_move();
    let them = us.opponent();
    let mut prover = VcfProver::with_deadline(deadline);
    let first = prover.prove(pos, them, detect);
    let VcfOutcome::Win(line) = first.outcome else {
        return None;
    };
    let mut moves: Vec<(u8, Pos)> = pos
        .board()
        .empty_points()
        .filter(|&m| !pos.is_foul(m, us))
        .map(|m| {
            let near_line = line
                .iter()
                .map(|&q| q.distance(m))
                .min()
                .unwrap_or(usize::MAX);
            let tier = match near_line {
                0 => 0,
                _ if pos.threat(m, us).is_four_or_better() => 1,
                1 => 2,
                _ => 3,
            };
            (tier, m)
        })
        .collect();
    moves.sort_unstable();
    let mut budget = detect.max_nodes.saturating_mul(DEFENCE_BUDGET);
    let mut out = Vec::new();
    for (_, m) in moves {
        let late = deadline.is_some_and(|d| Instant::now() >= d);
        if budget == 0 || late || pos.threat(m, us) == CellThreat::Five {
            out.push(m);
            continue;
        }
        pos.make_threats(m);
        let limits = VcfLimits {
            max_nodes: per_move.max_nodes.min(budget),
            ..per_move
        };
        let r = prover.prove(pos, them, limits);
        budget = budget.saturating_sub(r.nodes);
        if !matches!(r.outcome, VcfOutcome::Win(_)) {
            out.push(m);
        }
        pos.undo();
    }
    out.sort_unstable();
    Some(out)
}

/// Prover nodes [`defences`] may spend in all, as a multiple of its `detect` limit.
pub const DEFENCE_BUDGET: u64 = 2;

/// An exact call reads the clock for its deadline once every this many nodes.
const DEADLINE_EVERY: u64 = 64;

/// Entries kept in a [`VcfProver`]'s table before it is cleared.
const TABLE_LIMIT: usize = 1 << 20;

/// A prover that keeps its buffers and its table of proven fails between calls, for callers
/// that probe many positions (one per search thread). Its answers are the same as the free
/// functions' (up to node counts, which a warm table lowers); the table is cleared when the
/// rule changes or it holds more than 2^20 entries.
#[derive(Default)]
pub struct VcfProver {
    tt: Table<u32>,
    rule: Option<Rule>,
    /// Move lists, one per four of the line, kept so that a call does not allocate.
    lists: Vec<Vec<(i32, Pos)>>,
    /// Exact calls give up ([`VcfOutcome::Unknown`]) at this instant, whatever their node
    /// limit: a node's cost varies (under caro it was 10-20 times the other rules' until the
    /// defence and line checks stopped trying every point), so a node limit alone does not
    /// bound a move's time.
    deadline: Option<Instant>,
}

impl VcfProver {
    /// A prover with empty buffers.
    pub fn new() -> VcfProver {
        VcfProver::default()
    }

    /// A prover whose exact calls stop at `deadline` (none: only the node limits bound them).
    pub fn with_deadline(deadline: Option<Instant>) -> VcfProver {
        VcfProver {
            deadline,
            ..VcfProver::default()
        }
    }

    /// As the free [`solve`]: the line of a win is replayed before it is reported.
    pub fn solve(
        &mut self,
        board: &Board,
        rule: Rule,
        attacker: Color,
        limits: VcfLimits,
    ) -> VcfResult {
        self.solve_on(&mut EvalBoard::new(board, rule), attacker, limits)
    }

    /// [`VcfProver::solve`] on a position the caller already has (restored on return).
    pub fn solve_on(
        &mut self,
        pos: &mut EvalBoard,
        attacker: Color,
        limits: VcfLimits,
    ) -> VcfResult {
        let result = self.prove(pos, attacker, limits);
        if let VcfOutcome::Win(line) = &result.outcome {
            if let Err(why) = verify_vcf_line(pos.board(), pos.rule(), attacker, line) {
                log::error!("vcf: rejected a line that does not replay: {why}");
                return VcfResult {
                    outcome: VcfOutcome::Unknown,
                    nodes: result.nodes,
                };
            }
        }
        result
    }

    /// As the free [`prove`]: the exact search on `pos`, which comes back as it was.
    pub fn prove(&mut self, pos: &mut EvalBoard, attacker: Color, limits: VcfLimits) -> VcfResult {
        if self.rule != Some(pos.rule()) || self.tt.len() > TABLE_LIMIT {
            self.tt.clear();
            self.rule = Some(pos.rule());
        }
        let passed = pos.side_to_move() != attacker;
        if passed {
            pos.pass();
        }
        let mut s = Solver::<false> {
            pos,
            attacker,
            nodes: 0,
            max_nodes: limits.max_nodes,
            deadline: self.deadline,
            tt: &mut self.tt,
            lists: &mut self.lists,
            plies: 0,
        };
        let outcome = s.root(limits.max_fours, limits.shortest);
        let nodes = s.nodes;
        if passed {
            pos.pass();
        }
        VcfResult { outcome, nodes }
    }

    /// The bounded search of the search's leaves (see the module notes): plies until
    /// `attacker`'s five (the five included) if a line is found within `limits`, where
    /// `limits.max_nodes` counts the fours tried. `None` means "not found", never "no VCF".
    /// When `attacker` is not to move the defender passes, and a five point of the defender
    /// then means `None`. Under caro: always `None`. `pos` comes back as it was.
    pub fn leaf(&mut self, pos: &mut EvalBoard, attacker: Color, limits: VcfLimits) -> Option<u32> {
        if pos.rule().five_blockable() || pos.count_at_least(attacker, CellThreat::Block4Plus) == 0
        {
            return None;
        }
        let passed = pos.side_to_move() != attacker;
        if passed {
            if pos.count(attacker.opponent(), CellThreat::Five) > 0 {
                return None;
            }
            pos.pass();
        }
        let mut s = Solver::<true> {
            pos,
            attacker,
            nodes: 0,
            max_nodes: limits.max_nodes,
            deadline: None,
            tt: &mut self.tt,
            lists: &mut self.lists,
            plies: 0,
        };
        let found = match s.root(limits.max_fours, false) {
            VcfOutcome::Win(_) => Some(s.plies),
            _ => None,
        };
        if passed {
            pos.pass();
        }
        found
    }
}

/// The node limit was reached.
struct Abort;

/// The answer at one node.
enum Res {
    /// A win in `plies` plies from this node (the five included), with its line stored last
    /// move first (exact calls only; a leaf call keeps no line).
    Win(u32, Vec<Pos>),
    /// No win; `true` if none exists at any depth (no depth cut-off below).
    Fail(bool),
}

const EXACT: u32 = u32::MAX;

/// The search; `LEAF` selects the leaf call's moves, statics and limits (module notes).
struct Solver<'a, const LEAF: bool> {
    pos: &'a mut EvalBoard,
    attacker: Color,
    nodes: u64,
    max_nodes: u64,
    /// Exact calls: give up at this instant (checked every [`DEADLINE_EVERY`] nodes).
    deadline: Option<Instant>,
    /// Attacker node hash -> fours within which there is no VCF (`EXACT`: none at all).
    /// Exact calls only.
    tt: &'a mut Table<u32>,
    lists: &'a mut Vec<Vec<(i32, Pos)>>,
    /// The plies of the win found (the five included).
    plies: u32,
}

impl<const LEAF: bool> Solver<'_, LEAF> {
    /// The root: a five at once, the defender's five points, then the search (iterative
    /// deepening for exact calls that ask for a `shortest` line, one pass otherwise).
    fn root(&mut self, max_fours: u32, shortest: bool) -> VcfOutcome {
        let attacker = self.attacker;
        if LEAF && self.pos.count(attacker, CellThreat::Five) > 0 {
            // A leaf call needs no line: the count alone answers (no scan of a cold board).
            self.plies = 1;
            return VcfOutcome::Win(Vec::new());
        }
        if let Some(&f) = five_points(self.pos, attacker).first() {
            self.plies = 1;
            return VcfOutcome::Win(vec![f]);
        }
        let defender = attacker.opponent();
        let threat = match self.pos.count(defender, CellThreat::Five) {
            0 => None,
            // Most often the last stone made it: its lines first, then the whole area.
            1 => self
                .pos
                .board()
                .last_move()
                .and_then(|q| five_points_through(self.pos, q, defender).first().copied())
                .or_else(|| five_points(self.pos, defender).first().copied()),
            _ => return VcfOutcome::NoWin,
        };
        let mut depth = if shortest { 1 } else { max_fours };
        loop {
            match self.attack(depth, threat, Pos::NONE, 0) {
                Err(Abort) => return VcfOutcome::Unknown,
                Ok(Res::Win(plies, mut line)) => {
                    self.plies = plies;
                    line.reverse();
                    return VcfOutcome::Win(line);
                }
                Ok(Res::Fail(true)) => return VcfOutcome::NoWin,
                Ok(Res::Fail(false)) if depth >= max_fours => return VcfOutcome::Unknown,
                Ok(Res::Fail(false)) => {}
            }
            depth = next_depth(depth).min(max_fours);
        }
    }

    /// Attacker to move with `depth` fours left; `threat` is the defender's five point, `last`
    /// the attacker's previous four, `level` the index of this node's move list.
    fn attack(
        &mut self,
        depth: u32,
        threat: Option<Pos>,
        last: Pos,
        level: usize,
    ) -> Result<Res, Abort> {
        let attacker = self.attacker;
        let hash = self.pos.board().hash();
        if LEAF {
            if threat.is_none() {
                if has_winning_point(self.pos, attacker) {
                    return Ok(Res::Win(3, Vec::new()));
                }
                if has_winning_threat(self.pos, attacker) {
                    return Ok(Res::Win(5, Vec::new()));
                }
            }
            if depth == 0 {
                return Ok(Res::Fail(false));
            }
            if self.nodes >= self.max_nodes {
                return Err(Abort);
            }
        } else {
            self.nodes += 1;
            if self.nodes > self.max_nodes {
                return Err(Abort);
            }
            if self.nodes.is_multiple_of(DEADLINE_EVERY)
                && self.deadline.is_some_and(|d| Instant::now() >= d)
            {
                return Err(Abort);
            }
            if let Some(&d) = self.tt.get(&hash) {
                if d >= depth {
                    return Ok(Res::Fail(d == EXACT));
                }
            }
            if threat.is_none() && depth > 0 {
                if let Some(win) = self.winning_point() {
                    return Ok(win);
                }
                // With one four left only a four without a defence wins: outside caro and
                // renju white (whose plain four wins when black's block is forbidden) that is
                // a live or double four point, and there is none.
                let rule = self.pos.rule();
                if depth == 1 && !rule.five_blockable() && !rule.has_fouls(attacker.opponent()) {
                    let fours = self.pos.count_at_least(attacker, CellThreat::Block4);
                    return Ok(Res::Fail(fours == 0));
                }
            }
        }
        if self.lists.len() <= level {
            self.lists.resize_with(level + 1, Vec::new);
        }
        let mut cands = std::mem::take(&mut self.lists[level]);
        self.candidates(threat, last, &mut cands);
        let res = if cands.is_empty() {
            Ok(Res::Fail(true))
        } else if depth == 0 {
            self.lists[level] = cands;
            return Ok(Res::Fail(false));
        } else {
            self.try_fours(depth, &cands, level)
        };
        self.lists[level] = cands;
        let exact = match res? {
            Res::Fail(exact) => exact,
            win => return Ok(win),
        };
        if !LEAF {
            self.tt.insert(hash, if exact { EXACT } else { depth });
        }
        Ok(Res::Fail(exact))
    }

    /// The attacker's fours `cands` in turn, each against every defence.
    fn try_fours(&mut self, depth: u32, cands: &[(i32, Pos)], level: usize) -> Result<Res, Abort> {
        let attacker = self.attacker;
        let mut exact = true;
        for &(_, q) in cands {
            if self.pos.is_foul(q, attacker) {
                continue;
            }
            if LEAF {
                if self.nodes >= self.max_nodes {
                    return Err(Abort);
                }
                self.nodes += 1;
            }
            let dirs = four_dirs(self.pos, q, attacker);
            self.pos.make_threats(q);
            let fives = five_points_on(self.pos, q, attacker, dirs);
            if fives.is_empty() {
                // A four always has a five point; a missing one means a table disagreement,
                // so claim nothing.
                self.pos.undo();
                continue;
            }
            let r = self.defend(depth, &fives, q, level);
            self.pos.undo();
            match r? {
                Res::Win(plies, mut line) => {
                    if !LEAF {
                        line.push(q);
                    }
                    return Ok(Res::Win(plies + 1, line));
                }
                Res::Fail(e) => exact &= e,
            }
        }
        Ok(Res::Fail(exact))
    }

    /// Defender to move against the attacker's five points `fives` (made by the four `q`);
    /// every defence must lose.
    fn defend(&mut self, depth: u32, fives: &Points, q: Pos, level: usize) -> Result<Res, Abort> {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        let replies = blocks(self.pos, attacker, fives);
        if replies.is_empty() {
            if LEAF {
                return Ok(Res::Win(2, Vec::new()));
            }
            let (reply, five) = finish(self.pos, attacker, fives);
            return Ok(Res::Win(2, vec![five, reply]));
        }
        let mut main: Option<(u32, Vec<Pos>)> = None;
        for r in replies {
            if !LEAF {
                // The table's answer for the position after the block, without playing it.
                let child = self.pos.board().hash() ^ zobrist::stone(defender, r) ^ zobrist::SIDE;
                if let Some(&d) = self.tt.get(&child) {
                    if d >= depth - 1 {
                        return Ok(Res::Fail(d == EXACT));
                    }
                }
            }
            self.pos.make_threats(r);
            let counter = five_points_through(self.pos, r, defender);
            let res = if counter.len() >= 2 {
                Ok(Res::Fail(true))
            } else {
                self.attack(depth - 1, counter.first().copied(), q, level + 1)
            };
            self.pos.undo();
            match res? {
                Res::Win(plies, mut line) => {
                    if main.is_none() {
                        if !LEAF {
                            line.push(r);
                        }
                        main = Some((plies + 1, line));
                    }
                }
                fail => return Ok(fail),
            }
        }
        let (plies, line) = main.expect("at least one defence");
        Ok(Res::Win(plies, line))
    }

    /// A win through a four with no defence (a live four or double four point the attacker
    /// may play), with its line, if there is one.
    fn winning_point(&mut self) -> Option<Res> {
        let attacker = self.attacker;
        if !has_winning_point(self.pos, attacker) {
            return None;
        }
        let w = self.pos.near_empties().find(|&q| {
            self.pos.threat(q, attacker).is_winning() && !self.pos.is_foul(q, attacker)
        })?;
        self.pos.make_threats(w);
        let fives = five_points_through(self.pos, w, attacker);
        let won = !fives.is_empty() && blocks(self.pos, attacker, &fives).is_empty();
        let res = won.then(|| {
            let (reply, five) = finish(self.pos, attacker, &fives);
            Res::Win(3, vec![five, reply, w])
        });
        self.pos.undo();
        res
    }

    /// Fills `out` with the attacker's four points (fouls are skipped later), best first:
    /// `threat` alone when the defender has a five point (if the attacker makes a four
    /// there); else, for exact calls, every four, nearest `last` first, then by the fours and
    /// threes it builds; for leaf calls, the fours of class [`CellThreat::Block4Plus`] or
    /// better (anywhere at the first four, on the lines of `last` after it), strongest class
    /// first, then by the cell's ordering value. Ties go by [`Pos`].
    fn candidates(&self, threat: Option<Pos>, last: Pos, out: &mut Vec<(i32, Pos)>) {
        out.clear();
        let pos = &*self.pos;
        let attacker = self.attacker;
        if let Some(t) = threat {
            if pos.threat(t, attacker).is_four_or_better() {
                out.push((0, t));
            }
            return;
        }
        // The scans stop once they have every cell of the class counted on the board.
        if LEAF {
            let score = |q: Pos| {
                let t = pos.threat(q, attacker);
                (pos.board().is_empty(q) && t >= CellThreat::Block4Plus)
                    .then(|| (-((t as i32) << 16) - pos.shape_value(q, attacker), q))
            };
            if last.is_none() {
                let all = pos.count_at_least(attacker, CellThreat::Block4Plus) as usize;
                out.extend(pos.near_empties().filter_map(score).take(all));
            } else {
                out.extend(line_points(last).into_iter().filter_map(score));
            }
        } else {
            let all = pos.count_at_least(attacker, CellThreat::Block4) as usize;
            out.extend(
                pos.near_empties()
                    .filter(|&q| pos.threat(q, attacker).is_four_or_better())
                    .take(all)
                    .map(|q| (0, q)),
            );
            if out.len() > 1 {
                for (score, q) in out.iter_mut() {
                    let near = if last.is_none() {
                        0
                    } else {
                        8 - last.distance(*q).min(8) as i32
                    };
                    let (fours, threes) = windows_through(pos, *q, attacker);
                    *score = -(near * 4 + fours as i32 * 3 + threes as i32);
                }
            }
        }
        out.sort_unstable();
    }
}

/// The next length limit of the iterative deepening for a shortest line: one more four at a
/// time up to 12 fours (so short VCFs come out shortest), then no limit but `max_fours`: on
/// the puzzle set a plain depth-first search finds 30-80-four VCFs in 5-20x fewer nodes than
/// further deepening.
fn next_depth(depth: u32) -> u32 {
    if depth < 12 {
        depth + 1
    } else {
        u32::MAX
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_pos;

    fn board(black: &str, white: &str) -> Board {
        let mut b = Board::square(15).unwrap();
        for w in black.split_whitespace() {
            b.place(parse_pos(w).unwrap(), Color::Black);
        }
        for w in white.split_whitespace() {
            b.place(parse_pos(w).unwrap(), Color::White);
        }
        b
    }

    #[test]
    fn open_three_plus_four_is_found_and_short() {
        // Black h8 i8 j8 (open three on row 8): a four at k8 or g8 ends it in two fours at most.
        let b = board("h8 i8 j8", "a1 a3");
        let r = solve(&b, Rule::Freestyle, Color::Black, VcfLimits::default());
        let VcfOutcome::Win(line) = r.outcome else {
            panic!("expected a win, got {r:?}")
        };
        assert_eq!(line.len(), 3, "open four in one move: four, reply, five");
    }

    #[test]
    fn nothing_to_attack_with_is_no_win() {
        let b = board("h8", "a1");
        let r = solve(&b, Rule::Standard, Color::Black, VcfLimits::default());
        assert_eq!(r.outcome, VcfOutcome::NoWin);
    }

    #[test]
    fn a_passed_deadline_stops_an_exact_call() {
        // A caro position from the soak (rule 9) whose shortest VCF takes hundreds of nodes.
        let moves = "m4o4o7k5i5j7j6l8g7l6h6j4m7m5f6k7i9h8j8g6f7n4o3f4g5i3h2k10";
        let mut b = Board::square(15).unwrap();
        for p in crate::notation::parse_moves(moves).unwrap() {
            b.make(p);
        }
        let me = b.side_to_move();
        let limits = VcfLimits::default().shortest_line();
        let free = VcfProver::new().solve(&b, Rule::CaroExact, me, limits);
        assert!(matches!(free.outcome, VcfOutcome::Win(_)), "{free:?}");
        assert!(free.nodes > DEADLINE_EVERY, "{free:?}");
        let late =
            VcfProver::with_deadline(Some(Instant::now())).solve(&b, Rule::CaroExact, me, limits);
        assert_eq!(late.outcome, VcfOutcome::Unknown);
        assert!(late.nodes <= DEADLINE_EVERY, "{late:?}");
        // The root's defence check: past its deadline every move counts as a defence.
        let mut them = b.clone();
        them.set_side_to_move(me.opponent());
        let mut them = EvalBoard::new(&them, Rule::CaroExact);
        let all = defences(&mut them, limits, limits, Some(Instant::now()));
        assert_eq!(
            all, None,
            "the detection itself gives up, so no VCF is reported"
        );
    }

    #[test]
    fn existing_five_point_wins_at_once() {
        let b = board("h8 i8 j8 k8", "g8 a1 a2");
        let r = solve(&b, Rule::Freestyle, Color::Black, VcfLimits::default());
        assert_eq!(r.outcome, VcfOutcome::Win(vec![parse_pos("l8").unwrap()]));
        assert_eq!(r.mate_plies(), Some(1));
    }

    #[test]
    fn defences_against_an_open_three_are_its_ends() {
        // White to move; black's open three h8 i8 j8 wins by VCF unless white blocks.
        let mut b = board("h8 i8 j8", "a1 c3");
        b.set_side_to_move(Color::White);
        let limits = VcfLimits::default();
        let mut pos = EvalBoard::new(&b, Rule::Freestyle);
        let d = defences(&mut pos, limits, limits, None).expect("black has a VCF");
        assert_eq!(
            pos.board().hash(),
            b.hash(),
            "the position comes back as it was"
        );
        // Against fours only, just the two ends stop it (f8 still allows k8, an open four).
        assert_eq!(d, vec![parse_pos("g8").unwrap(), parse_pos("k8").unwrap()]);
        // Every listed move leaves black without a VCF.
        for &m in &d {
            let mut after = b.clone();
            after.make(m);
            let r = solve(&after, Rule::Freestyle, Color::Black, limits);
            assert_eq!(r.outcome, VcfOutcome::NoWin);
        }
        // With nothing to fear there is no restriction.
        let quiet = board("h8", "a1");
        assert_eq!(
            defences(
                &mut EvalBoard::new(&quiet, Rule::Freestyle),
                limits,
                limits,
                None
            ),
            None
        );
    }

    #[test]
    fn defender_double_five_point_means_no_win() {
        // White has an open four; black's three cannot save it with fours.
        let b = board("h8 i8 j8 a1", "c3 d3 e3 f3 a5");
        let r = solve(&b, Rule::Freestyle, Color::Black, VcfLimits::default());
        assert_eq!(r.outcome, VcfOutcome::NoWin);
    }
}
