//! Every tunable constant of the search in one place.
//!
//! Invariant: plain constants, no global mutable state; changing one is a functional change
//! (new bench signature).

use crate::rules::pattern::CellThreat;

/// Static evaluations are clamped inside this magnitude (well inside
/// [`crate::score::MATE_BOUND`], so that no evaluation reads as a mate).
pub const EVAL_LIMIT: i32 = 20_000;
/// Deepest ply the search stack supports.
pub const MAX_PLY: usize = 128;
/// Deepest iteration of iterative deepening.
pub const MAX_DEPTH: i32 = 60;

/// Aspiration window half-width at the first try.
pub const ASPIRATION_DELTA: i32 = 40;
/// First depth that uses an aspiration window.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;

/// Reverse futility: deepest depth (every depth) and margin per depth.
pub const RFP_DEPTH: i32 = MAX_DEPTH;
/// Reverse futility margin per ply of depth.
pub const RFP_MARGIN: i32 = 60;
/// Fail-high reduction: in an expected cut node whose estimate stands this much per ply of
/// depth (less [`FHR_BASE`]) above beta, every move but a four loses one more ply.
pub const FHR_MARGIN: i32 = 30;
/// Fail-high reduction: the margin's constant part.
pub const FHR_BASE: i32 = 18;

/// Late-move reductions: first depth and first move index reduced.
pub const LMR_MIN_DEPTH: i32 = 2;
/// First move index (0-based) that may be reduced.
pub const LMR_MIN_MOVE: usize = 2;
/// The history bonus of a move that cuts at `depth` (the malus of the moves searched before
/// it): grows about as `40 d^2`, bounded below the history's bound so that one cut never
/// saturates an entry.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (40 * depth * depth + 160 * depth - 200).clamp(16, 13_000)
}

/// A history score of this much lowers a late move's reduction by one ply.
pub const LMR_HISTORY_DIVISOR: i32 = 8_192;

/// History pruning: deepest depth at which a quiet move with a low history is skipped.
pub const HISTORY_PRUNE_DEPTH: i32 = 3;
/// History pruning: a quiet move whose history is below minus this per ply of depth is
/// skipped.
pub const HISTORY_PRUNE_MARGIN: i32 = 512;

/// Internal iterative reduction: least depth of a PV or cut node without a TT move that is
/// searched one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Singular extension: least depth of a node whose TT move is tested for being singular
/// (the only good move), by a reduced search of the other moves.
pub const SE_MIN_DEPTH: i32 = 7;
/// Singular extension: the TT entry must come from a search at least `depth` minus this.
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// Singular extension: the other moves must stay this much per ply of depth below the TT
/// score for the TT move to be singular (our logistic scale is about 500 units per e-fold).
pub const SE_MARGIN_PER_DEPTH: i32 = 2;
/// Singular extension: outside the PV, a verification result this far below the margin
/// extends the TT move by two plies instead of one.
pub const SE_DOUBLE_MARGIN: i32 = 50;
/// Singular extension: most double extensions on one path from the root.
pub const SE_DOUBLE_MAX: u8 = 6;
// The verification search runs at `(depth - 1) / 2`, which must stay above the horizon (its
// excluded move is not honoured by the horizon's TT stores).
const _: () = assert!((SE_MIN_DEPTH - 1) / 2 >= 1);

/// Most fours of the side to move in the quiescence search at the horizon (after the VCF
/// probe; a call of the full VCF prover there lost a third of the speed).
pub const QS_FOURS: u32 = 4;
/// The least threat class of a four the quiescence search plays (a four-three or better).
pub const QS_MIN_THREAT: CellThreat = CellThreat::Block4Flex3;

/// Attacker fours the leaf VCF probe ([`crate::threat::vcf::VcfProver::leaf`]) tries in all.
pub const PROBE_NODES: u32 = 32;
/// Most attacker fours in one line of the leaf probe.
pub const PROBE_FOURS: u32 = 16;

/// A principal-variation horizon node whose opponent has a VCF is searched one ply deeper
/// while its ply is less than the iteration's depth plus this.
pub const THREAT_EXTENSION_PLIES: i32 = 4;

/// Distraction pruning: below this depth, a node facing a live three skips own fours that
/// block no opponent four point and lie farther than [`DISTRACT_DISTANCE`] from both last
/// moves.
pub const DISTRACT_DEPTH: i32 = 4;
/// Distraction pruning: Chebyshev distance beyond which a four counts as far.
pub const DISTRACT_DISTANCE: usize = 4;

/// Nodes between time checks on the main thread.
pub const TIME_CHECK_NODES: u64 = 256;

/// Arguments below this take their logarithm from [`LmrTable`]'s list.
const LMR_LOGS: usize = 256;

/// The late-move reduction's logarithms, computed once per search thread (two `ln` calls
/// per reduced move were nearly 1% of the search's time); larger arguments, rare, are
/// computed when asked, so every reduction is the formula's own.
pub struct LmrTable {
    ln: Box<[f64; LMR_LOGS]>,
}

impl LmrTable {
    /// The table.
    pub fn new() -> LmrTable {
        let mut ln = Box::new([0.0; LMR_LOGS]);
        for (x, v) in ln.iter_mut().enumerate().skip(1) {
            *v = (x as f64).ln();
        }
        LmrTable { ln }
    }

    #[inline]
    fn ln(&self, x: usize) -> f64 {
        match self.ln.get(x) {
            Some(&v) => v,
            None => (x as f64).ln(),
        }
    }

    /// Base reduction in plies for a late move at `depth` with (0-based) index `index`,
    /// before the node's and the move's own terms: `0.3 + 0.75 ln(depth) ln(index + 1)`,
    /// rounded down.
    #[inline]
    pub fn reduction(&self, depth: i32, index: usize) -> i32 {
        let d = self.ln(depth.max(1) as usize);
        let m = self.ln(index + 1);
        (0.3 + d * m * 0.75) as i32
    }
}

impl Default for LmrTable {
    fn default() -> Self {
        LmrTable::new()
    }
}

/// Depths the move-count table covers (deeper nodes use its last entry).
pub const LMP_DEPTHS: usize = MAX_PLY;

/// Move-count pruning: at depth `d` (index), quiet moves from this (0-based) index on are
/// skipped: `3 + d^1.3` when the static evaluation is improving (`[d][1]`), half as many when
/// not (`[d][0]`). Built once per search thread, so that no node pays for the power.
pub fn lmp_table() -> [[usize; 2]; LMP_DEPTHS] {
    let mut t = [[0; 2]; LMP_DEPTHS];
    for (depth, row) in t.iter_mut().enumerate() {
        let full = 3.0 + (depth.max(1) as f64).powf(1.3);
        *row = [(full / 2.0) as usize, full as usize];
    }
    t
}
