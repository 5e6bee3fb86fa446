//! The cheap VCF probe of the search's leaves: a bounded depth-first search of one side's
//! continuous fours, played on the search's own [`EvalBoard`] with make/undo (the full prover
//! in `threat::vcf` copies the board into its own state, which is too slow per leaf).
//!
//! The attacker plays a point where it makes a four (or better); the defender's reply is the
//! single block of the five point; a block that makes a four for the defender must be answered
//! on its five point, and that answer must again be a four. The attacker wins at a five point,
//! a live-four or double-four point, a four-three while the defender has no four
//! ([`movegen::has_winning_threat`]), or when a black defender's only block is a renju foul.
//! Caro (a five can be stopped at either end) is never probed.
//!
//! Invariants: a `Some` answer is a real forced win (every defender reply in the line was
//! forced, so no defence was skipped); `None` means "not found within the budget", never "no
//! VCF". The board is restored exactly, including the side to move.

use super::movegen::{self, ScoredMove};
use crate::eval::EvalBoard;
use crate::rules::pattern::CellThreat;
use crate::types::{Color, Pos, Rule};

/// How much one probe may look at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeLimits {
    /// Attacker fours tried in all (the probe's node count).
    pub nodes: u32,
    /// Attacker fours in one line, the winning four not counted.
    pub fours: u32,
}

/// Scratch space for the probe's move lists, one per four of the line, kept between calls
/// so that a probe does not allocate.
#[derive(Clone, Default)]
pub struct Probe {
    lists: Vec<Vec<ScoredMove>>,
}

impl Probe {
    /// Plies until `attacker` makes five by continuous fours, if the probe finds a line
    /// within `limits`. `attacker` may be either side; when it is not to move the defender is
    /// treated as passing (the defender's own five points then mean no VCF).
    pub fn vcf(&mut self, eb: &mut EvalBoard, attacker: Color, limits: ProbeLimits) -> Option<u32> {
        if matches!(eb.rule(), Rule::Caro | Rule::CaroExact)
            || eb.count_at_least(attacker, CellThreat::Block4Plus) == 0
        {
            return None;
        }
        let passed = eb.side_to_move() != attacker;
        if passed {
            if eb.count(attacker.opponent(), CellThreat::Five) > 0 {
                return None;
            }
            eb.pass();
        }
        if self.lists.len() < limits.fours as usize + 1 {
            self.lists.resize_with(limits.fours as usize + 1, Vec::new);
        }
        let mut budget = limits.nodes;
        let found = self.attack(eb, Pos::NONE, limits.fours, 0, &mut budget);
        if passed {
            eb.pass();
        }
        found
    }

    /// The attacker (to move) looks for a line; `last` is its previous four, `left` the fours
    /// it may still play, `level` the index of this node's move list.
    fn attack(
        &mut self,
        eb: &mut EvalBoard,
        last: Pos,
        left: u32,
        level: usize,
        budget: &mut u32,
    ) -> Option<u32> {
        let me = eb.side_to_move();
        let opp = me.opponent();
        if eb.count(me, CellThreat::Five) > 0 {
            return Some(1);
        }
        let opp_fives = eb.count(opp, CellThreat::Five);
        if opp_fives == 0 {
            if movegen::has_winning_point(eb, me) {
                return Some(3);
            }
            if movegen::has_winning_threat(eb, me) {
                return Some(5);
            }
        } else if opp_fives > 1 {
            return None;
        }
        if left == 0 || *budget == 0 {
            return None;
        }
        let mut moves = std::mem::take(&mut self.lists[level]);
        if opp_fives == 1 {
            // The defender's last block made a four: only its five point, if that is a four.
            moves.clear();
            if let Some(p) = eb
                .board()
                .last_move()
                .and_then(|q| five_point_near(eb, q, opp))
            {
                let t = eb.threat(p, me);
                if t.is_four_or_better() && eb.is_legal(p) {
                    moves.push(ScoredMove {
                        pos: p,
                        score: 0,
                        threat: t,
                        blocks: CellThreat::Five,
                    });
                }
            }
        } else {
            // A plain four (nothing but a two beside it) builds no new four, so after its
            // block the line is dead: only fours with more are tried. Fours elsewhere were
            // already there at the first level, so a line goes on with the fours its previous
            // four made.
            if last == Pos::NONE {
                movegen::fours(eb, me, CellThreat::Block4Plus, &mut moves);
            } else {
                movegen::fours_through(eb, me, last, CellThreat::Block4Plus, &mut moves);
            }
        }
        let mut found = None;
        for m in moves.iter() {
            if *budget == 0 {
                break;
            }
            *budget -= 1;
            eb.make(m.pos);
            let block = five_point_near(eb, m.pos, me);
            let result = match block {
                // A four always has a five point; a missing one means a table disagreement, so
                // claim nothing.
                None => None,
                Some(b) if !eb.is_legal(b) => Some(3),
                Some(b) => {
                    eb.make(b);
                    let r = self.attack(eb, m.pos, left - 1, level + 1, budget);
                    eb.undo();
                    r.map(|n| n + 2)
                }
            };
            eb.undo();
            if result.is_some() {
                found = result;
                break;
            }
        }
        self.lists[level] = moves;
        found
    }
}

/// The empty point on one of the four lines through `p` (within 4 cells) where `color` makes
/// five, if any.
fn five_point_near(eb: &EvalBoard, p: Pos, color: Color) -> Option<Pos> {
    movegen::line_points(p)
        .into_iter()
        .find(|&q| eb.board().is_empty(q) && eb.threat(q, color) == CellThreat::Five)
}
