//! Threat-space solvers: an exact VCF prover ([`vcf`]) and a node-bounded VCT prover
//! ([`vct`]), plus the shared machinery they stand on.
//!
//! Both provers run on the search's incremental position, [`EvalBoard`], with make/undo: its
//! per-cell threat classes say where a colour makes a five ([`CellThreat::Five`]) or a four
//! (a class of at least [`CellThreat::Block4`]), so five and four points are read, not
//! searched for. The helpers here are the prover's whole view of the position.
//!
//! Invariants:
//! - Every claim ("this is a five", "this is a four") comes from the position's pattern
//!   tables, which are built from the rules layer's classifier and checked against it in
//!   tests; overlines (standard, renju) and caro's blocked fives are handled there, never
//!   re-implemented here. A claimed VCF line is replayed on a plain [`Board`] by
//!   [`verify_vcf_line`], which shares no code with the prover.
//! - Every helper leaves the position as it found it (stones, side to move, hash). The
//!   provers play with [`EvalBoard::make_threats`] (the threat state only; the scores are
//!   stale until the stone is taken back), except the leaf call, whose move order reads the
//!   cells' ordering values and so plays full makes.
//! - No result depends on hash-map iteration order: candidate lists are sorted with
//!   [`Pos`] order as the final tie-break.
//!
//! The API (all pure functions of the position; no global state):
//! - [`vcf::prove`]`(pos, attacker, VcfLimits) -> VcfResult { outcome, nodes }` on a
//!   position with `outcome` = `Win(line)`, `NoWin` (proven: no VCF at any length) or
//!   `Unknown` (node or length limit). [`vcf::VcfResult::mate_plies`] is the line length
//!   (the five included) for a mate score; [`vcf::VcfResult::first_move`] the move to play.
//! - [`vcf::solve`]`(board, rule, attacker, VcfLimits)`: the same from a plain board, with
//!   the line of a win replayed and checked.
//! - [`vcf::VcfProver::leaf`]: the same search bounded for the search's leaves (a few dozen
//!   fours, fours that build on the previous one), on the search's own position.
//! - [`vcf::defences`]`(board, rule, limits) -> Option<Vec<Pos>>`: at the root, when the
//!   opponent has a VCF, the moves after which it is gone (a superset: limit hits count).
//! - [`vcf::VcfProver`]: these calls on a reusable object (one per search thread) that
//!   keeps its buffers and its table of proven fails between calls.
//! - [`vct::solve`], same shape as [`vcf::solve`], for continuous threats (fours and threes).
//!
//! The attacker need not be the side to move: the prover treats `attacker` as to move.
//!
//! A winning line is a `Vec<Pos>` of alternating attacker and defender moves that ends with
//! the attacker's five. [`Pos::NONE`] stands for a defender move that cannot stop the five
//! (renju: black's only block is a forbidden point); it is written `--` in text
//! ([`crate::notation::format_line`]).

pub mod vcf;
pub mod vct;

use crate::eval::EvalBoard;
use crate::rules::pattern::{shift_of, CellThreat, LinePattern};
use crate::rules::{self, Board};
use crate::types::{Color, Pos, Rule, DIRECTIONS};
use smallvec::SmallVec;

/// A short list of points (five points, defences): rarely more than four.
pub type Points = SmallVec<[Pos; 4]>;

/// The points on the four lines through `p` within 4 cells, `p` excluded, line by line
/// (off-board points included: they read as walls).
#[inline]
pub fn line_points(p: Pos) -> [Pos; 32] {
    let mut out = [p; 32];
    for (i, q) in out.iter_mut().enumerate() {
        let step = (i % 8) as isize - 4;
        *q = p.offset(DIRECTIONS[i / 8], if step >= 0 { step + 1 } else { step });
    }
    out
}

/// The points where `color` makes five on the lines through the stone `p` (within 4 cells),
/// in [`Pos`] order. After a stone of `color` at `p` these are all the five points it made.
pub fn five_points_through(pos: &EvalBoard, p: Pos, color: Color) -> Points {
    five_points_on(pos, p, color, 0b1111)
}

/// [`five_points_through`] on the lines through `p` whose bit is set in `dirs` (bit `d` for
/// direction `d`).
pub fn five_points_on(pos: &EvalBoard, p: Pos, color: Color, dirs: u8) -> Points {
    let mut out = Points::new();
    // The scan stops once it has every five point of `color` on the board.
    let all = pos.count(color, CellThreat::Five) as usize;
    if all == 0 {
        return out;
    }
    let points = line_points(p);
    for (d, line) in points.chunks_exact(8).enumerate() {
        if dirs & (1 << d) == 0 {
            continue;
        }
        for &q in line {
            if pos.threat(q, color) == CellThreat::Five && pos.board().is_empty(q) {
                out.push(q);
                if out.len() == all {
                    out.sort_unstable();
                    return out;
                }
            }
        }
    }
    out.sort_unstable();
    out
}

/// The directions (bit `d` for direction `d`) along which `color` at the empty point `p`
/// makes a four or a five: the lines that hold the five points the stone will make.
#[inline]
pub fn four_dirs(pos: &EvalBoard, p: Pos, color: Color) -> u8 {
    (0..4)
        .filter(|&d| pos.pattern(p, color, d) >= LinePattern::Block4)
        .fold(0, |m, d| m | 1 << d)
}

/// Every point where `color` makes five, in [`Pos`] order.
pub fn five_points(pos: &EvalBoard, color: Color) -> Points {
    let all = pos.count(color, CellThreat::Five) as usize;
    if all == 0 {
        return Points::new();
    }
    pos.candidates()
        .filter(|&q| pos.board().is_empty(q) && pos.threat(q, color) == CellThreat::Five)
        .take(all)
        .collect()
}

/// How many five-cell windows through the empty point `p` hold exactly three, and exactly
/// two, stones of `color` and none of the opponent (nor the edge): a cheap measure of the
/// fours and threes `p` builds for `color`. Read from the position's line keys.
pub fn windows_through(pos: &EvalBoard, p: Pos, color: Color) -> (u32, u32) {
    let me = crate::rules::tables::color_code(color);
    let (mut threes, mut twos) = (0, 0);
    for dir in 0..4 {
        let key = pos.line_key(p, dir);
        // Bit i is the cell at offset i - 4 (i = 4 is `p`, empty).
        let (mut own, mut blocked) = (0u32, 0u32);
        for (i, off) in [
            (0, -4),
            (1, -3),
            (2, -2),
            (3, -1),
            (5, 1),
            (6, 2),
            (7, 3),
            (8, 4),
        ] {
            match (key >> shift_of(off)) & 3 {
                0 => {}
                c if c == me => own |= 1 << i,
                _ => blocked |= 1 << i,
            }
        }
        for s in 0..5 {
            let window = 0x1f << s;
            if blocked & window == 0 {
                match (own & window).count_ones() {
                    3 => threes += 1,
                    2 => twos += 1,
                    _ => {}
                }
            }
        }
    }
    (threes, twos)
}

/// The defender's moves that stop every one of the attacker's five points `fives` (all of
/// them, non-empty), legal for the defender, in [`Pos`] order. Empty means the attacker
/// wins. The defender is the side to move and has no five of its own.
///
/// Where a five cannot be blocked at its ends a defender stone stops a five only by standing
/// on its point, so there is a defence only when there is a single five point. In caro a
/// stone at the far end of a five can also block it at both ends, so every point near the
/// fives is tried.
pub fn defences(pos: &mut EvalBoard, attacker: Color, fives: &[Pos]) -> Points {
    let defender = attacker.opponent();
    let mut out = Points::new();
    if !pos.rule().five_blockable() {
        if fives.len() == 1 && !pos.is_foul(fives[0], defender) {
            out.push(fives[0]);
        }
        return out;
    }
    let mut cands: Vec<Pos> = Vec::new();
    for &f in fives {
        for &dir in &DIRECTIONS {
            for k in -5..=5 {
                let q = f.offset(dir, k);
                if pos.board().is_empty(q) && !cands.contains(&q) {
                    cands.push(q);
                }
            }
        }
    }
    cands.sort_unstable();
    for q in cands {
        pos.make_threats(q);
        let stops = fives
            .iter()
            .all(|&f| pos.threat(f, attacker) != CellThreat::Five);
        pos.undo();
        if stops {
            out.push(q);
        }
    }
    out
}

/// For a won four (no defence; the defender to move): a defender move to show in the line (a
/// legal move on a five point if there is one, else [`Pos::NONE`]) and the attacker's five
/// after it.
pub fn finish(pos: &mut EvalBoard, attacker: Color, fives: &[Pos]) -> (Pos, Pos) {
    let defender = attacker.opponent();
    let reply = fives
        .iter()
        .copied()
        .find(|&f| !pos.is_foul(f, defender))
        .unwrap_or(Pos::NONE);
    if reply.is_none() {
        return (Pos::NONE, fives[0]);
    }
    pos.make_threats(reply);
    let five = fives
        .iter()
        .copied()
        .find(|&f| pos.board().is_empty(f) && pos.threat(f, attacker) == CellThreat::Five)
        .expect("a won four keeps a five after any reply");
    pos.undo();
    (reply, five)
}

/// True if `color` has a winning four point (live four or double four) that it may play.
pub fn has_winning_point(pos: &EvalBoard, color: Color) -> bool {
    let n = pos.count(color, CellThreat::Flex4) + pos.count(color, CellThreat::Block4x2);
    if n == 0 {
        return false;
    }
    if !pos.rule().has_fouls(color) {
        return true;
    }
    pos.playable().iter().any(|&p| {
        pos.threat(p, color).is_winning() && pos.board().is_empty(p) && !pos.is_forbidden(p)
    })
}

/// True if `color`, to move, wins in five plies through a four-three or a double three
/// because the opponent cannot make a four at all: the opponent must block the four (or one
/// three) with a stone on that line, and the other three becomes a live four. Not used for
/// black under renju (the live-four point may be a foul). The caller has checked that the
/// opponent has no five point.
pub fn has_winning_threat(pos: &EvalBoard, color: Color) -> bool {
    if pos.rule().has_fouls(color) {
        return false;
    }
    pos.count(color, CellThreat::Block4Flex3) + pos.count(color, CellThreat::Flex3x2) > 0
        && pos.count_at_least(color.opponent(), CellThreat::Block4) == 0
}

/// Replays a claimed VCF line from scratch with the plain rules functions (no code shared with
/// the prover) and says why it is not a proof, if it is not.
///
/// Checked: every attacker move is legal and makes a five (the last move) or a four; when the
/// defender has a five point, the attacker's move stands on it; the defender never has a five
/// point on its turn; every defender move is a legal move that stops all the attacker's fives,
/// and (outside caro) the only such move; [`Pos::NONE`] appears only when no defence exists;
/// the line ends with the attacker's five.
pub fn verify_vcf_line(
    board: &Board,
    rule: Rule,
    attacker: Color,
    line: &[Pos],
) -> Result<(), String> {
    let defender = attacker.opponent();
    let mut b = board.clone();
    b.set_side_to_move(attacker);
    let name = |p: Pos| crate::notation::format_pos(p);
    if line.is_empty() {
        return Err("empty line".into());
    }
    for (i, &m) in line.iter().enumerate() {
        let last = i + 1 == line.len();
        if i % 2 == 0 {
            if m.is_none() || !rules::is_legal(&b, m, attacker, rule) {
                return Err(format!("attacker move {i} is not legal"));
            }
            if rules::is_five(&b, m, attacker, rule) {
                return if last {
                    Ok(())
                } else {
                    Err(format!("line goes on after the five at move {i}"))
                };
            }
            if last {
                return Err("line does not end with a five".into());
            }
            let threats = rules::winning_points(&b, defender, rule);
            if threats.iter().any(|&t| t != m) {
                return Err(format!("attacker move {i} ({}) ignores a five", name(m)));
            }
            b.place(m, attacker);
            if rules::winning_points(&b, attacker, rule).is_empty() {
                return Err(format!("attacker move {i} ({}) is not a four", name(m)));
            }
        } else {
            if last {
                return Err("line ends with a defender move".into());
            }
            if !rules::winning_points(&b, defender, rule).is_empty() {
                return Err(format!("defender has a five before move {i}"));
            }
            let fives = rules::winning_points(&b, attacker, rule);
            let defences = brute_defences(&mut b, rule, attacker, &fives);
            if defences.is_empty() {
                if m.is_none() {
                    b.set_side_to_move(attacker);
                    continue;
                }
            } else {
                if !defences.contains(&m) || (!rule.five_blockable() && defences.len() != 1) {
                    return Err(format!(
                        "defender move {i} ({}) is not the forced block",
                        name(m)
                    ));
                }
            }
            if m.is_none() || !rules::is_legal(&b, m, defender, rule) {
                return Err(format!("defender move {i} is not legal"));
            }
            b.place(m, defender);
        }
    }
    Err("line does not end with a five".into())
}

/// Every legal defender point after which the attacker has no five point (brute force).
fn brute_defences(b: &mut Board, rule: Rule, attacker: Color, fives: &[Pos]) -> Vec<Pos> {
    let defender = attacker.opponent();
    let cands: Vec<Pos> = if rule.five_blockable() {
        b.empty_points().collect()
    } else {
        fives.to_vec()
    };
    let mut out = Vec::new();
    for q in cands {
        if !rules::is_legal(b, q, defender, rule) {
            continue;
        }
        b.place(q, defender);
        if rules::winning_points(b, attacker, rule).is_empty() {
            out.push(q);
        }
        b.undo().expect("the stone just placed");
    }
    out
}

/// A hasher for keys that already are Zobrist hashes: uses the key as it is.
#[derive(Default, Clone, Copy)]
pub(crate) struct ZobristHasher(u64);

impl std::hash::Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A transposition table keyed by the board hash.
pub(crate) type Table<V> =
    std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<ZobristHasher>>;
