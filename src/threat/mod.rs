//! Threat-space solvers: an exact VCF prover ([`vcf`]) and a node-bounded VCT prover
//! ([`vct`]), plus the shared machinery they stand on.
//!
//! [`ThreatBoard`] wraps a [`Board`] with incremental counts of each colour's stones in every
//! five-cell window ("line window") of the board, so the points where a colour makes a five or a
//! four can be listed by scanning windows instead of trying every empty point.
//!
//! Invariants:
//! - `count[w][c]` is the number of stones of colour `c` in window `w` (a window is a start
//!   point and a direction; it holds the start and the next four points along the direction).
//!   Only windows whose five points are all on the board are ever read.
//! - Window scans only *propose* points; every claim ("this is a five", "this is a four") is
//!   confirmed with [`rules::is_five`] under the rule in force, so overlines (standard, renju)
//!   and caro's blocked fives are handled by the rules layer, never re-implemented here.
//! - No result depends on hash-map iteration order: candidate lists are sorted with
//!   [`Pos`] order as the final tie-break.
//!
//! The API for the search (all pure functions of the position; no global state):
//! - [`vcf::solve`]`(board, rule, attacker, VcfLimits) -> VcfResult { outcome, nodes }` with
//!   `outcome` = `Win(line)` (replayed and checked), `NoWin` (proven: no VCF at any length)
//!   or `Unknown` (node or length limit). [`vcf::VcfResult::mate_plies`] is the line length
//!   (the five included) for a mate score; [`vcf::VcfResult::first_move`] the move to play.
//! - [`vcf::has_vcf_quick`]`(board, rule, attacker, max_nodes) -> bool` for leaf probes.
//! - [`vcf::defences`]`(board, rule, limits) -> Option<Vec<Pos>>`: at the root, when the
//!   opponent has a VCF, the moves after which it is gone (a superset: limit hits count).
//! - [`vcf::VcfProver`]: the same calls on a reusable object (one per search thread) that
//!   keeps its buffers and its table of proven fails between calls.
//! - [`vct::solve`], same shape as [`vcf::solve`], for continuous threats (fours and threes).
//!
//! The attacker need not be `board.side_to_move()`: the prover treats `attacker` as to move.
//!
//! A winning line is a `Vec<Pos>` of alternating attacker and defender moves that ends with
//! the attacker's five. [`Pos::NONE`] stands for a defender move that cannot stop the five
//! (renju: black's only block is a forbidden point); it is written `--` in text.

pub mod vcf;
pub mod vct;

use crate::rules::{self, Board, Cell};
use crate::types::{Color, Pos, Rule, CELLS, DIRECTIONS};
use smallvec::SmallVec;

/// A short list of points (five points, defences): rarely more than four.
pub type Points = SmallVec<[Pos; 4]>;

/// A board plus per-window stone counts, for fast five and four detection.
#[derive(Clone)]
pub struct ThreatBoard {
    board: Board,
    rule: Rule,
    /// `count[dir * CELLS + start]` = stones of (black, white) in that window.
    count: Vec<[u8; 2]>,
    /// Per colour, a box (x0, y0, x1, y1) holding every stone of that colour placed so far
    /// (it never shrinks on undo, so it is always a superset).
    bbox: [Option<(usize, usize, usize, usize)>; 2],
    /// Marks for de-duplicating candidate points: `mark[p] == stamp` means seen.
    mark: Vec<u32>,
    stamp: u32,
}

impl ThreatBoard {
    /// Wraps a copy of `board` with `to_move` to move.
    pub fn new(board: &Board, rule: Rule, to_move: Color) -> ThreatBoard {
        let mut b = board.clone();
        b.set_side_to_move(to_move);
        let mut tb = ThreatBoard {
            board: b,
            rule,
            count: vec![[0, 0]; 4 * CELLS],
            bbox: [None, None],
            mark: vec![0; CELLS],
            stamp: 0,
        };
        for &(p, c) in board.history() {
            tb.add(p, c, 1);
        }
        tb
    }

    /// Makes this a copy of `board` with `to_move` to move, reusing the buffers. The counts
    /// are cleared stone by stone, so the cost is proportional to the stones, not the grid.
    pub fn reset(&mut self, board: &Board, rule: Rule, to_move: Color) {
        let old: Vec<(Pos, Color)> = self.board.history().to_vec();
        for (p, c) in old {
            self.add(p, c, -1);
        }
        self.board.clone_from(board);
        self.board.set_side_to_move(to_move);
        self.rule = rule;
        self.bbox = [None, None];
        for &(p, c) in board.history() {
            self.add(p, c, 1);
        }
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rule in force.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    fn add(&mut self, p: Pos, c: Color, delta: i8) {
        if delta > 0 {
            let (x, y) = (p.x(), p.y());
            let b = self.bbox[c.index()].get_or_insert((x, y, x, y));
            *b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
        }
        for (d, &dir) in DIRECTIONS.iter().enumerate() {
            for k in 0..5 {
                let s = p.offset(dir, -k).index();
                let slot = &mut self.count[d * CELLS + s][c.index()];
                *slot = (*slot as i8 + delta) as u8;
            }
        }
    }

    /// Places a stone of `color` at the empty point `p`.
    #[inline]
    pub fn place(&mut self, p: Pos, color: Color) {
        self.board.place(p, color);
        self.add(p, color, 1);
    }

    /// Passes the turn without a stone (a defender that cannot stop a five).
    #[inline]
    pub fn pass(&mut self) {
        let next = self.board.side_to_move().opponent();
        self.board.set_side_to_move(next);
    }

    /// Takes back the last stone.
    #[inline]
    pub fn undo(&mut self) {
        let (p, c) = self.board.undo().expect("a stone to take back");
        self.add(p, c, -1);
    }

    #[inline]
    fn window(&self, d: usize, start: usize) -> [u8; 2] {
        self.count[d * CELLS + start]
    }

    #[inline]
    fn window_valid(&self, d: usize, start: Pos) -> bool {
        let dir = DIRECTIONS[d];
        self.board.cell(start) != Cell::Wall && self.board.cell(start.offset(dir, 4)) != Cell::Wall
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// True if `color` at the empty point `p` completes a winning line.
    #[inline]
    pub fn is_five(&self, p: Pos, color: Color) -> bool {
        rules::is_five(&self.board, p, color, self.rule)
    }

    /// True if black may not play `p` (renju only; always false otherwise or for white).
    #[inline]
    pub fn is_foul(&self, p: Pos, color: Color) -> bool {
        self.rule == Rule::Renju
            && color == Color::Black
            && rules::forbidden(&self.board, p).is_some()
    }

    /// The points where `color` completes a winning line with a five that contains `p`
    /// (`p` holds a stone of `color`), in [`Pos`] order.
    pub fn five_points_through(&self, p: Pos, color: Color) -> Points {
        let mut out = Points::new();
        let (me, opp) = (color.index(), color.opponent().index());
        for (d, &dir) in DIRECTIONS.iter().enumerate() {
            for k in 0..5 {
                let start = p.offset(dir, -k);
                let w = self.window(d, start.index());
                if w[me] == 4 && w[opp] == 0 && self.window_valid(d, start) {
                    let e = self.gap_of_four(start, dir);
                    if !out.contains(&e) && self.is_five(e, color) {
                        out.push(e);
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// The one empty point of the five-cell window from `start` along `dir` that holds four
    /// stones of one colour.
    fn gap_of_four(&self, start: Pos, dir: isize) -> Pos {
        (0..5)
            .map(|i| start.offset(dir, i))
            .find(|&q| self.board.is_empty(q))
            .expect("a window with four stones has one empty point")
    }

    /// Every point where `color` completes a winning line, in [`Pos`] order.
    pub fn five_points(&self, color: Color) -> Points {
        let mut out = Points::new();
        for (d, start) in self.matching_windows(color, 4) {
            let e = self.gap_of_four(start, DIRECTIONS[d]);
            if !out.contains(&e) && self.is_five(e, color) {
                out.push(e);
            }
        }
        out.sort_unstable();
        out
    }

    /// Empty points lying in a window that holds `stones` stones of `color` and none of the
    /// opponent (so `stones == 3` proposes every point that may make a four). Unsorted, no
    /// duplicates; the caller checks each one.
    pub fn window_points(&mut self, color: Color, stones: u8, out: &mut Vec<Pos>) {
        let stamp = self.next_stamp();
        for (d, start) in self.matching_windows(color, stones) {
            for k in 0..5 {
                let q = start.offset(DIRECTIONS[d], k);
                if self.board.is_empty(q) && self.mark[q.index()] != stamp {
                    self.mark[q.index()] = stamp;
                    out.push(q);
                }
            }
        }
    }

    /// Every on-board window (direction index, start) holding exactly `stones` stones of
    /// `color` and none of the opponent, found by scanning window starts inside the colour's
    /// bounding box widened by 4.
    fn matching_windows(&self, color: Color, stones: u8) -> SmallVec<[(usize, Pos); 16]> {
        let (me, opp) = (color.index(), color.opponent().index());
        let mut out = SmallVec::new();
        let Some((x0, y0, x1, y1)) = self.bbox[me] else {
            return out;
        };
        let (w, h) = (self.board.width(), self.board.height());
        for y in y0.saturating_sub(4)..=y1.min(h - 1) {
            let row = Pos::new(0, y).index();
            for x in x0.saturating_sub(4)..=(x1 + 4).min(w - 1) {
                let s = row + x;
                for d in 0..4 {
                    let c = self.count[d * CELLS + s];
                    if c[me] == stones && c[opp] == 0 && self.window_valid(d, Pos::from_index(s)) {
                        out.push((d, Pos::from_index(s)));
                    }
                }
            }
        }
        out
    }

    /// How many windows through the empty point `p` hold `stones` stones of `color` and none
    /// of the opponent (a cheap measure of how much `p` does for `color`).
    pub fn windows_through(&self, p: Pos, color: Color, stones: u8) -> u32 {
        let (me, opp) = (color.index(), color.opponent().index());
        let mut n = 0;
        for (d, &dir) in DIRECTIONS.iter().enumerate() {
            for k in 0..5 {
                let start = p.offset(dir, -k);
                let w = self.window(d, start.index());
                if w[me] == stones && w[opp] == 0 && self.window_valid(d, start) {
                    n += 1;
                }
            }
        }
        n
    }

    /// The defender's moves that stop every one of the attacker's five points `fives` (all
    /// of them, non-empty), legal for the defender, in [`Pos`] order. Empty means the
    /// attacker wins. The defender is the side to move and has no five of its own.
    ///
    /// Outside caro a defender stone stops a five only by standing on its point, so there is
    /// a defence only when there is a single five point. In caro a stone at the far end of a
    /// five can also block it at both ends, so every point near the fives is tried.
    pub fn defences(&mut self, attacker: Color, fives: &[Pos]) -> Points {
        let defender = attacker.opponent();
        let mut out = Points::new();
        match self.rule {
            Rule::Caro | Rule::CaroExact => {
                let mut cands: Vec<Pos> = Vec::new();
                for &f in fives {
                    for &dir in &DIRECTIONS {
                        for k in -5..=5 {
                            let q = f.offset(dir, k);
                            if self.board.is_empty(q) && !cands.contains(&q) {
                                cands.push(q);
                            }
                        }
                    }
                }
                cands.sort_unstable();
                for q in cands {
                    self.place(q, defender);
                    let stops = fives
                        .iter()
                        .all(|&f| !self.board.is_empty(f) || !self.is_five(f, attacker));
                    self.undo();
                    if stops {
                        out.push(q);
                    }
                }
            }
            _ => {
                if fives.len() == 1 && !self.is_foul(fives[0], defender) {
                    out.push(fives[0]);
                }
            }
        }
        out
    }

    /// For a won four (no defence): a defender move to show in the line (a legal move on a
    /// five point if there is one, else [`Pos::NONE`]) and the attacker's five after it.
    pub fn finish(&mut self, attacker: Color, fives: &[Pos]) -> (Pos, Pos) {
        let defender = attacker.opponent();
        let reply = fives
            .iter()
            .copied()
            .find(|&f| !self.is_foul(f, defender))
            .unwrap_or(Pos::NONE);
        if reply.is_none() {
            return (Pos::NONE, fives[0]);
        }
        self.place(reply, defender);
        let five = fives
            .iter()
            .copied()
            .find(|&f| self.board.is_empty(f) && self.is_five(f, attacker))
            .expect("a won four keeps a five after any reply");
        self.undo();
        (reply, five)
    }
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
                let caro = matches!(rule, Rule::Caro | Rule::CaroExact);
                if !defences.contains(&m) || (!caro && defences.len() != 1) {
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
    let caro = matches!(rule, Rule::Caro | Rule::CaroExact);
    let cands: Vec<Pos> = if caro {
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

/// Formats a line as `h8i9--h10` (`--` for [`Pos::NONE`]).
pub fn format_line(line: &[Pos]) -> String {
    line.iter().map(|&p| format_point(p)).collect()
}

/// Formats one point of a line: `h8`, or `--` for [`Pos::NONE`].
pub fn format_point(p: Pos) -> String {
    if p.is_none() {
        "--".to_string()
    } else {
        crate::notation::format_pos(p)
    }
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
