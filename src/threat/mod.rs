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
//!   stale until the stone is taken back); the leaf call's move order reads the cells'
//!   ordering values from the tables by their shapes ([`EvalBoard::shape_value`]).
//! - No result depends on hash-map iteration order: candidate lists are sorted with
//!   [`Pos`] order as the final tie-break.
//!
//! The API (all pure functions of the position; no global state):
//! - [`vcf::prove`]`(pos, attacker, VcfLimits) -> VcfResult { outcome, nodes }` on a
//!   position with `outcome` = `Win(line)`, `NoWin` (proven: no VCF at any length) or
//!   `Unknown` (node or length limit). [`vcf::VcfResult::mate_plies`] is the line length
//!   (the five included) for a mate score; [`vcf::VcfResult::first_move`] the move to play.
//! - [`vcf::solve`]`(board, rule, attacker, VcfLimits)`: the same from a plain board, with
//!   the line of a win replayed and checked; [`vcf::VcfProver::solve_on`] checks the same
//!   way on a position the caller already has (the search's root).
//! - [`vcf::VcfProver::leaf`]: the same search bounded for the search's leaves (a few dozen
//!   fours, fours that build on the previous one), on the search's own position.
//! - [`vcf::defences`]`(pos, detect, per_move, deadline) -> Option<Vec<Pos>>`: at the root,
//!   when the opponent has a VCF, the moves after which it is gone (a superset: limit hits count).
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
use crate::rules::{self, Board, Cell};
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
    pos.near_empties()
        .filter(|&q| pos.threat(q, color) == CellThreat::Five)
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
/// stone just past an end of a five's run can also close it at both ends, so those points
/// are tried too (trying every point within 5 on the four lines made a caro prover node cost
/// ten times more).
pub fn defences(pos: &mut EvalBoard, attacker: Color, fives: &[Pos]) -> Points {
    let defender = attacker.opponent();
    let mut out = Points::new();
    if !pos.rule().five_blockable() {
        if fives.len() == 1 && !pos.is_foul(fives[0], defender) {
            out.push(fives[0]);
        }
        return out;
    }
    // A stone stops a five on its point, or (caro) just past an end of its run, closing
    // the run's second end; nothing else changes the run.
    let board = pos.board();
    let own = Cell::Stone(attacker);
    let mut cands: Vec<Pos> = Vec::new();
    for &f in fives {
        cands.push(f);
        for &dir in &DIRECTIONS {
            if !rules::wins_along(board, f, dir, attacker, pos.rule()) {
                continue;
            }
            for step in [1, -1] {
                let mut q = f.offset(dir, step);
                while board.cell(q) == own {
                    q = q.offset(dir, step);
                }
                if board.is_empty(q) {
                    cands.push(q);
                }
            }
        }
    }
    cands.sort_unstable();
    cands.dedup();
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
    let mut fives = FivePoints::new(&b, rule);
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
            if fives.of(defender).iter().any(|&t| t != m) {
                return Err(format!("attacker move {i} ({}) ignores a five", name(m)));
            }
            fives.place(&mut b, m, attacker);
            if fives.of(attacker).is_empty() {
                return Err(format!("attacker move {i} ({}) is not a four", name(m)));
            }
        } else {
            if last {
                return Err("line ends with a defender move".into());
            }
            if !fives.of(defender).is_empty() {
                return Err(format!("defender has a five before move {i}"));
            }
            let threats = fives.of(attacker).to_vec();
            let defences = brute_defences(&mut b, rule, attacker, &threats);
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
            fives.place(&mut b, m, defender);
        }
    }
    Err("line does not end with a five".into())
}

/// Each colour's five points on a plain board (as [`rules::winning_points`] finds them), kept
/// up to date stone by stone for [`verify_vcf_line`]: whether a point makes five depends only
/// on the cells within 5 of it on its four lines (the run through it, the cells that end
/// that run), so a stone changes the answer only there.
struct FivePoints {
    rule: Rule,
    /// Black's, then white's.
    points: [Vec<Pos>; 2],
}

impl FivePoints {
    fn new(b: &Board, rule: Rule) -> FivePoints {
        FivePoints {
            rule,
            points: [Color::Black, Color::White].map(|c| rules::winning_points(b, c, rule)),
        }
    }

    fn of(&self, color: Color) -> &[Pos] {
        &self.points[color as usize]
    }

    /// Places `color` at `p` on `b` and brings both colours' points up to date.
    fn place(&mut self, b: &mut Board, p: Pos, color: Color) {
        b.place(p, color);
        let mut near = [Pos::NONE; 40];
        for (i, q) in DIRECTIONS
            .iter()
            .flat_map(|&dir| (1..=5).flat_map(move |k| [p.offset(dir, k), p.offset(dir, -k)]))
            .enumerate()
        {
            near[i] = q;
        }
        for c in [Color::Black, Color::White] {
            let points = &mut self.points[c as usize];
            points.retain(|q| *q != p && !near.contains(q));
            points.extend(
                near.iter()
                    .copied()
                    .filter(|&q| b.is_empty(q) && rules::is_five(b, q, c, self.rule)),
            );
        }
    }
}

/// Every legal defender point after which the attacker has no five point (brute force with
/// the plain rules functions). Where fives can be blocked at their ends (caro) the points
/// within 5 of a five point on its four lines are tried, since no other stone can change
/// whether that point makes five; a defender stone never makes a new five for the attacker,
/// so the known five points are the ones to check.
fn brute_defences(b: &mut Board, rule: Rule, attacker: Color, fives: &[Pos]) -> Vec<Pos> {
    let defender = attacker.opponent();
    let cands: Vec<Pos> = if rule.five_blockable() {
        let mut near: Vec<Pos> = fives
            .iter()
            .flat_map(|&f| {
                DIRECTIONS
                    .iter()
                    .flat_map(move |&dir| (-5..=5).map(move |k| f.offset(dir, k)))
            })
            .filter(|&q| b.is_empty(q))
            .collect();
        near.sort_unstable();
        near.dedup();
        near
    } else {
        fives.to_vec()
    };
    let mut out = Vec::new();
    for q in cands {
        if !rules::is_legal(b, q, defender, rule) {
            continue;
        }
        b.place(q, defender);
        if fives
            .iter()
            .all(|&f| !b.is_empty(f) || !rules::is_five(b, f, attacker, rule))
        {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A seeded xorshift: `below(n)` draws from `0..n`.
    fn xorshift(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        }
    }

    /// Caro's defences (the five points and the ends of their runs) and the line checker's
    /// (the points near the fives) are exactly the brute-force set (every empty point tried
    /// on the plain board), on random positions where one side has fives.
    #[test]
    fn caro_defences_match_brute_force() {
        let mut below = xorshift(0x2545_F491_4F6C_DD1D);
        let mut checked = 0;
        for rule in [Rule::Caro, Rule::CaroExact] {
            rules::tables::init(rule);
            for _ in 0..400 {
                let mut b = Board::square(15).unwrap();
                let mut color = Color::Black;
                let stones = 20 + below(40);
                for _ in 0..10_000 {
                    if b.stone_count() >= stones {
                        break;
                    }
                    let p = Pos::new(3 + below(9), 3 + below(9));
                    if b.is_empty(p) && !rules::is_five(&b, p, color, rule) {
                        b.place(p, color);
                        color = color.opponent();
                    }
                }
                for attacker in [Color::Black, Color::White] {
                    // The defender is the side to move.
                    b.set_side_to_move(attacker.opponent());
                    let mut pos = EvalBoard::new(&b, rule);
                    let fives = five_points(&pos, attacker);
                    if fives.is_empty() || !five_points(&pos, attacker.opponent()).is_empty() {
                        continue;
                    }
                    let mut fast = defences(&mut pos, attacker, &fives).to_vec();
                    let mut plain = b.clone();
                    let mut near = brute_defences(&mut plain, rule, attacker, &fives);
                    // Every empty point of the board, against every five point left.
                    let mut all: Vec<Pos> = b
                        .empty_points()
                        .filter(|&q| {
                            plain.place(q, attacker.opponent());
                            let stops = rules::winning_points(&plain, attacker, rule).is_empty();
                            plain.undo().unwrap();
                            stops
                        })
                        .collect();
                    fast.sort_unstable();
                    near.sort_unstable();
                    all.sort_unstable();
                    assert_eq!(fast, all, "{rule:?} {attacker:?} {b:?}");
                    assert_eq!(near, all, "{rule:?} {attacker:?} {b:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 50, "only {checked} positions with fives");
    }

    /// The line checker's five points, kept stone by stone, are the full scan's after every
    /// stone, under every rule, with stones allowed to make fives and overlines (the
    /// checker's boards never have them, so this is the harder case).
    #[test]
    fn five_points_kept_up_to_date_match_a_full_scan() {
        let mut below = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut nonempty = 0;
        for rule in [
            Rule::Freestyle,
            Rule::Standard,
            Rule::Renju,
            Rule::Caro,
            Rule::CaroExact,
        ] {
            for _ in 0..60 {
                let mut b = Board::square(15).unwrap();
                let mut fives = FivePoints::new(&b, rule);
                let mut color = Color::Black;
                for _ in 0..70 {
                    // Dense play in a corner-to-centre box: many fours, fives and overlines.
                    let p = Pos::new(below(9), below(9));
                    if !b.is_empty(p) {
                        continue;
                    }
                    fives.place(&mut b, p, color);
                    color = color.opponent();
                    for c in [Color::Black, Color::White] {
                        let mut kept = fives.of(c).to_vec();
                        kept.sort_unstable();
                        let mut full = rules::winning_points(&b, c, rule);
                        full.sort_unstable();
                        assert_eq!(kept, full, "{rule:?} {c:?} after {p:?}\n{b:?}");
                        nonempty += usize::from(!full.is_empty());
                    }
                }
            }
        }
        assert!(nonempty >= 500, "only {nonempty} checks with five points");
    }
}
