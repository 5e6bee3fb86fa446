//! The last check of a move chosen against the opponent's VCF.
//!
//! At the root the search keeps only the moves after which the opponent's VCF is not found
//! within a small per-move budget; a move whose check only ran out of nodes stays in, so a
//! long VCF can survive the move the search likes best. [`confirm`] gives the chosen move a
//! larger budget and, if the VCF is still there, takes the first other root move that
//! refutes it (a move whose check runs out of nodes counts as a refutation).
//!
//! Invariant: the answer is always one of `best` and `roots` (so it is legal whenever they
//! are); it differs from `best` only when the opponent's VCF after `best` is proven (a
//! replayed line) and after the answer it is not found.

use crate::eval::EvalBoard;
use crate::threat::vcf::{VcfLimits, VcfOutcome, VcfProver};
use crate::types::Pos;
use std::time::Instant;

/// Root moves tried in turn when the chosen one loses to a VCF.
pub const CONFIRM_TRIES: usize = 12;

/// `best`, unless the opponent has a VCF after it; then the first move of `roots` (at most
/// [`CONFIRM_TRIES`] of them) after which no VCF is found, else `best`. All the checks
/// together spend at most `limits.max_nodes` prover nodes, the first at most half of them,
/// and stop at `deadline` (a check cut short finds no VCF). `pos` (the root, side to move
/// defending) comes back as it was.
pub fn confirm(
    pos: &mut EvalBoard,
    best: Pos,
    roots: &[Pos],
    limits: VcfLimits,
    deadline: Option<Instant>,
) -> Pos {
    let them = pos.side_to_move().opponent();
    let mut prover = VcfProver::with_deadline(deadline);
    let mut budget = limits.max_nodes;
    let mut loses = |p: Pos, share: u64| {
        let max_nodes = share.min(budget);
        if max_nodes == 0 || deadline.is_some_and(|d| Instant::now() >= d) {
            return false;
        }
        pos.make_threats(p);
        let r = prover.solve_on(
            pos,
            them,
            VcfLimits {
                max_nodes,
                ..limits
            },
        );
        pos.undo();
        budget = budget.saturating_sub(r.nodes);
        matches!(r.outcome, VcfOutcome::Win(_))
    };
    if !loses(best, limits.max_nodes / 2) {
        return best;
    }
    log::debug!("defence {best:?} loses to a VCF; trying other root moves");
    let share = (limits.max_nodes / 2 / CONFIRM_TRIES as u64).max(1);
    roots
        .iter()
        .copied()
        .filter(|&p| p != best)
        .take(CONFIRM_TRIES)
        .find(|&p| !loses(p, share))
        .unwrap_or(best)
}
