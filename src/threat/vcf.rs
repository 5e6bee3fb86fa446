//! VCF (victory by continuous fours): an exact prover for either side under every rule.
//!
//! The attacker plays only moves that make a four (or a five); the defender's replies are the
//! moves that stop every five (outside caro: the single block; in caro also the far-end blocks,
//! all of which must be refuted). When a block makes a four for the defender, the attacker's
//! next move must stand on that five point (and still make a four); a defender with two five
//! points wins. Under renju, black's fours may not be forbidden points, and a black defender
//! whose only block is forbidden loses (the line shows `--`, then white's five).
//!
//! Search: depth-first with iterative deepening on the number of attacker fours (one at a time
//! up to 12, then unbounded), so short lines come out shortest; fours are tried nearest the
//! attacker's last four first, then by how many fours and threes they build; a transposition table (keyed by the board hash, attacker to move) remembers
//! "no VCF within d fours", with `u32::MAX` meaning "none at any length". The table only ever
//! prunes, so a hash collision can hide a win but never invent one; on top of that every line
//! is replayed by [`super::verify_vcf_line`] before [`solve`] reports a win.
//!
//! Invariants of the recursion: at an attacker node the attacker has no five point (it would
//! have won at the parent) and the defender has at most one, passed down as `threat`; at a
//! defender node the defender has no five point (the attacker's stone only removes them).

use super::{verify_vcf_line, Points, Table, ThreatBoard};
use crate::rules::Board;
use crate::types::{Color, Pos, Rule};

/// Limits for one VCF search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VcfLimits {
    /// Attacker nodes to visit at most; reaching it gives [`VcfOutcome::Unknown`].
    pub max_nodes: u64,
    /// Most attacker fours in a line (the final unstoppable four counts, the five does not).
    pub max_fours: u32,
}

impl Default for VcfLimits {
    fn default() -> Self {
        VcfLimits {
            max_nodes: 1_000_000,
            max_fours: 120,
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

/// Searches a VCF for `attacker` (who is to move, whatever `board.side_to_move()` says).
///
/// A returned win has been replayed and checked by [`super::verify_vcf_line`]; should that
/// check ever fail, the answer is [`VcfOutcome::Unknown`] instead.
pub fn solve(board: &Board, rule: Rule, attacker: Color, limits: VcfLimits) -> VcfResult {
    VcfProver::new().solve(board, rule, attacker, limits)
}

/// True if the prover finds a VCF for `attacker` within `max_nodes` nodes. Cheap enough for
/// search leaves; "false" means "none found", not "none exists". Wins are not replayed.
/// [`VcfProver::has_vcf_quick`] does the same without allocating.
pub fn has_vcf_quick(board: &Board, rule: Rule, attacker: Color, max_nodes: u64) -> bool {
    VcfProver::new().has_vcf_quick(board, rule, attacker, max_nodes)
}

/// For the side to move, whose opponent may have a VCF: `None` if the opponent has no VCF
/// found within `detect`; otherwise `Some` of every legal move of the side to move after which
/// the opponent's VCF is no longer found within `per_move` (a five of our own included), in
/// [`Pos`] order. An empty list means every move loses to a VCF. A move after which the
/// search only reaches its limit counts as a defence, so the list never drops a real one; the
/// search can safely restrict the root to it.
///
/// Cost: at most [`DEFENCE_BUDGET`] times `detect.max_nodes` prover nodes in all. The moves
/// most likely to refute are checked first: the points of the opponent's winning line, then
/// our fours (counter-attacks), then the points next to the line, then the rest; a move still
/// unchecked when the budget is spent counts as a defence.
pub fn defences(
    board: &Board,
    rule: Rule,
    detect: VcfLimits,
    per_move: VcfLimits,
) -> Option<Vec<Pos>> {
    let us = board.side_to_move();
    let them = us.opponent();
    let mut prover = VcfProver::new();
    let first = prover.search(board, rule, them, detect);
    let VcfOutcome::Win(line) = first.outcome else {
        return None;
    };
    let mut b = board.clone();
    let mut moves: Vec<(u8, Pos)> = board
        .empty_points()
        .filter(|&m| crate::rules::is_legal(board, m, us, rule))
        .map(|m| {
            let near_line = line
                .iter()
                .map(|&q| q.distance(m))
                .min()
                .unwrap_or(usize::MAX);
            let tier = match near_line {
                0 => 0,
                _ if makes_four(&mut b, m, us, rule) => 1,
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
        if budget == 0 || crate::rules::is_five(&b, m, us, rule) {
            out.push(m);
            continue;
        }
        b.place(m, us);
        let limits = VcfLimits {
            max_nodes: per_move.max_nodes.min(budget),
            ..per_move
        };
        let r = prover.search(&b, rule, them, limits);
        budget = budget.saturating_sub(r.nodes);
        if !matches!(r.outcome, VcfOutcome::Win(_)) {
            out.push(m);
        }
        b.undo().expect("the stone just placed");
    }
    out.sort_unstable();
    Some(out)
}

/// Prover nodes [`defences`] may spend in all, as a multiple of its `detect` limit.
pub const DEFENCE_BUDGET: u64 = 2;

/// True if `color` at the empty point `m` makes a four (a point that then completes a five).
fn makes_four(b: &mut Board, m: Pos, color: Color, rule: Rule) -> bool {
    b.place(m, color);
    let four = crate::types::DIRECTIONS.iter().any(|&d| {
        (-4..=4isize).any(|k| {
            let q = m.offset(d, k);
            k != 0 && b.is_empty(q) && crate::rules::is_five(b, q, color, rule)
        })
    });
    b.undo().expect("the stone just placed");
    four
}

/// [`solve`] without the final replay check: for callers that only need the answer's kind
/// (as [`has_vcf_quick`] does) or replay lines themselves.
pub fn search(board: &Board, rule: Rule, attacker: Color, limits: VcfLimits) -> VcfResult {
    VcfProver::new().search(board, rule, attacker, limits)
}

/// Entries kept in a [`VcfProver`]'s table before it is cleared.
const TABLE_LIMIT: usize = 1 << 20;

/// A prover that keeps its buffers and its table of proven fails between calls, for callers
/// that probe many positions (one per search thread). Its answers are the same as the free
/// functions' (up to node counts, which a warm table lowers); the table is cleared when the
/// rule changes or it holds more than 2^20 entries.
#[derive(Default)]
pub struct VcfProver {
    tb: Option<ThreatBoard>,
    tt: Table<u32>,
    rule: Option<Rule>,
}

impl VcfProver {
    /// A prover with empty buffers.
    pub fn new() -> VcfProver {
        VcfProver::default()
    }

    /// As the free [`solve`]: the line of a win is replayed before it is reported.
    pub fn solve(
        &mut self,
        board: &Board,
        rule: Rule,
        attacker: Color,
        limits: VcfLimits,
    ) -> VcfResult {
        let result = self.search(board, rule, attacker, limits);
        if let VcfOutcome::Win(line) = &result.outcome {
            if let Err(why) = verify_vcf_line(board, rule, attacker, line) {
                log::error!("vcf: rejected a line that does not replay: {why}");
                return VcfResult {
                    outcome: VcfOutcome::Unknown,
                    nodes: result.nodes,
                };
            }
        }
        result
    }

    /// As the free [`has_vcf_quick`].
    pub fn has_vcf_quick(
        &mut self,
        board: &Board,
        rule: Rule,
        attacker: Color,
        max_nodes: u64,
    ) -> bool {
        let limits = VcfLimits {
            max_nodes,
            max_fours: 60,
        };
        matches!(
            self.search(board, rule, attacker, limits).outcome,
            VcfOutcome::Win(_)
        )
    }

    /// As the free [`search`].
    pub fn search(
        &mut self,
        board: &Board,
        rule: Rule,
        attacker: Color,
        limits: VcfLimits,
    ) -> VcfResult {
        if self.rule != Some(rule) || self.tt.len() > TABLE_LIMIT {
            self.tt.clear();
            self.rule = Some(rule);
        }
        let tb = match self.tb.take() {
            Some(mut tb) => {
                tb.reset(board, rule, attacker);
                tb
            }
            None => ThreatBoard::new(board, rule, attacker),
        };
        let mut s = Solver {
            tb,
            attacker,
            nodes: 0,
            max_nodes: limits.max_nodes,
            tt: std::mem::take(&mut self.tt),
            recent: Vec::new(),
        };
        let outcome = s.root(limits.max_fours);
        self.tb = Some(s.tb);
        self.tt = s.tt;
        VcfResult {
            outcome,
            nodes: s.nodes,
        }
    }
}

/// The node limit was reached.
struct Abort;

/// The answer at one attacker node.
enum Res {
    /// A winning line from this node, stored last move first.
    Win(Vec<Pos>),
    /// No win; `true` if none exists at any depth (no depth cut-off below).
    Fail(bool),
}

const EXACT: u32 = u32::MAX;

struct Solver {
    tb: ThreatBoard,
    attacker: Color,
    nodes: u64,
    max_nodes: u64,
    /// Attacker node hash -> fours within which there is no VCF (`EXACT`: none at all).
    tt: Table<u32>,
    /// The attacker's moves on the current path, for move ordering.
    recent: Vec<Pos>,
}

impl Solver {
    fn root(&mut self, max_fours: u32) -> VcfOutcome {
        let attacker = self.attacker;
        if let Some(&f) = self.tb.five_points(attacker).first() {
            return VcfOutcome::Win(vec![f]);
        }
        let threats = self.tb.five_points(attacker.opponent());
        if threats.len() >= 2 {
            return VcfOutcome::NoWin;
        }
        let threat = threats.first().copied();
        let mut depth = 1;
        loop {
            match self.attack(depth, threat) {
                Err(Abort) => return VcfOutcome::Unknown,
                Ok(Res::Win(mut line)) => {
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

    /// Attacker to move with `depth` fours left; `threat` is the defender's five point.
    fn attack(&mut self, depth: u32, threat: Option<Pos>) -> Result<Res, Abort> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(Abort);
        }
        let hash = self.tb.board().hash();
        if let Some(&d) = self.tt.get(&hash) {
            if d >= depth {
                return Ok(Res::Fail(d == EXACT));
            }
        }
        let cands = match threat {
            Some(t) => vec![t],
            None => self.four_candidates(),
        };
        if cands.is_empty() {
            self.tt.insert(hash, EXACT);
            return Ok(Res::Fail(true));
        }
        if depth == 0 {
            return Ok(Res::Fail(false));
        }
        let attacker = self.attacker;
        let mut exact = true;
        for q in cands {
            if self.tb.is_foul(q, attacker) {
                continue;
            }
            self.tb.place(q, attacker);
            let fives = self.tb.five_points_through(q, attacker);
            if fives.is_empty() {
                self.tb.undo();
                continue;
            }
            self.recent.push(q);
            let r = self.defend(depth, &fives);
            self.recent.pop();
            self.tb.undo();
            match r? {
                Res::Win(mut line) => {
                    line.push(q);
                    return Ok(Res::Win(line));
                }
                Res::Fail(e) => exact &= e,
            }
        }
        self.tt.insert(hash, if exact { EXACT } else { depth });
        Ok(Res::Fail(exact))
    }

    /// Defender to move against the attacker's five points `fives`; every defence must lose.
    fn defend(&mut self, depth: u32, fives: &Points) -> Result<Res, Abort> {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        let replies = self.tb.defences(attacker, fives);
        if replies.is_empty() {
            let (reply, five) = self.tb.finish(attacker, fives);
            return Ok(Res::Win(vec![five, reply]));
        }
        let mut main: Option<Vec<Pos>> = None;
        for r in replies {
            self.tb.place(r, defender);
            let counter = self.tb.five_points_through(r, defender);
            let res = if counter.len() >= 2 {
                Ok(Res::Fail(true))
            } else {
                self.attack(depth - 1, counter.first().copied())
            };
            self.tb.undo();
            match res? {
                Res::Win(mut line) => {
                    if main.is_none() {
                        line.push(r);
                        main = Some(line);
                    }
                }
                fail => return Ok(fail),
            }
        }
        Ok(Res::Win(main.expect("at least one defence")))
    }

    /// The attacker's four-making points (legality checked later), best first.
    fn four_candidates(&mut self) -> Vec<Pos> {
        let attacker = self.attacker;
        let mut cands = Vec::new();
        self.tb.window_points(attacker, 3, &mut cands);
        let last = self.recent.last().copied();
        let mut scored: Vec<(i32, Pos)> = cands
            .into_iter()
            .map(|q| {
                let fours = self.tb.windows_through(q, attacker, 3) as i32;
                let threes = self.tb.windows_through(q, attacker, 2) as i32;
                let near = last.map_or(0, |l| 8 - l.distance(q).min(8) as i32);
                (-(near * 4 + fours * 3 + threes), q)
            })
            .collect();
        scored.sort_unstable();
        scored.into_iter().map(|(_, q)| q).collect()
    }
}

/// The next length limit of the iterative deepening: one more four at a time up to 12 fours
/// (so short VCFs come out shortest), then no limit but `max_fours`: on the puzzle set a plain
/// depth-first search finds 30-80-four VCFs in 5-20x fewer nodes than further deepening.
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
        let d = defences(&b, Rule::Freestyle, limits, limits).expect("black has a VCF");
        // Against fours only, just the two ends stop it (f8 still allows k8, an open four).
        assert_eq!(d, vec![parse_pos("g8").unwrap(), parse_pos("k8").unwrap()]);
        // Every listed move leaves black without a VCF.
        for &m in &d {
            let mut after = b.clone();
            after.make(m);
            assert!(!has_vcf_quick(
                &after,
                Rule::Freestyle,
                Color::Black,
                100_000
            ));
        }
        // With nothing to fear there is no restriction.
        let quiet = board("h8", "a1");
        assert_eq!(defences(&quiet, Rule::Freestyle, limits, limits), None);
    }

    #[test]
    fn defender_double_five_point_means_no_win() {
        // White has an open four; black's three cannot save it with fours.
        let b = board("h8 i8 j8 a1", "c3 d3 e3 f3 a5");
        let r = solve(&b, Rule::Freestyle, Color::Black, VcfLimits::default());
        assert_eq!(r.outcome, VcfOutcome::NoWin);
    }
}
