//! VCT (victory by continuous threats): fours and threes, bounded by nodes.
//!
//! An AND/OR search. The attacker (OR nodes) plays a four, or a move after which it has a
//! *winning four* (a four the defender cannot stop: a straight four, a double four, ...), i.e.
//! a live three in the broad sense; when the defender has a five point the attacker must stand
//! on it instead. The defender (AND nodes) answers:
//! - an attacker four: with every move that stops all its fives ([`super::defences`]);
//! - an attacker three: with every counter-four, and every legal move after which the attacker
//!   has no winning four left. The second set is found by trying every point on the lines of
//!   the winning fours within 5 (every empty point under renju, where a far stone can change a
//!   foul), so it holds the blocks of the straight-four points, the far points that break the
//!   three and, in renju, points that make the winning four forbidden; a defender move outside
//!   both sets loses at once to a winning four, so the list is complete and a claimed VCT is a
//!   proof. A defender with a five point wins; a defender facing no threat wins.
//!
//! Every attacker node first tries a VCF (a win found there is a win); every defender node
//! facing a three first tries a VCF for the defender (one found refutes the three). Both are
//! small [`super::vcf`] searches on the same position (one prover, so its table of proven
//! fails is shared between them) whose nodes count against the limit.
//!
//! Not in the model: quiet attacker moves whose threat is a VCF rather than a winning four
//! ("fukumi" moves). A position won only through one gets `NoWin` or `Unknown`, never a
//! false win. (Tried: adding them with the full set of VCF defences made the other VCT
//! puzzles 2-5x more expensive and still did not solve the 7-move fukumi puzzle in 200k nodes.)
//!
//! Depth is counted in attacker moves (forced blocks included), with iterative deepening and a
//! transposition table of "no VCT within d moves" like [`super::vcf`]. The reported line is
//! one principal variation (the first defence at every AND node), ending with the five.

use super::vcf::{VcfLimits, VcfOutcome, VcfProver, VcfResult};
use super::{defences, finish, five_points, five_points_through, windows_through, Points, Table};
use crate::eval::EvalBoard;
use crate::rules::pattern::CellThreat;
use crate::rules::Board;
use crate::types::{Color, Pos, Rule, DIRECTIONS};

/// Searches a VCT for `attacker` (who is to move). `limits.max_fours` bounds the attacker
/// moves in a line (fours, threes and forced blocks; the five does not count).
/// [`VcfOutcome::NoWin`] means no VCT exists under this module's model of threats. A win's
/// principal variation is replayed (legal moves ending in the attacker's five) before it is
/// reported; the proof itself is the search's AND/OR tree.
pub fn solve(board: &Board, rule: Rule, attacker: Color, limits: VcfLimits) -> VcfResult {
    let mut pos = EvalBoard::new(board, rule);
    if pos.side_to_move() != attacker {
        pos.pass();
    }
    let mut s = Solver {
        pos,
        attacker,
        nodes: 0,
        max_nodes: limits.max_nodes,
        tt: Table::default(),
        vcf: VcfProver::new(),
    };
    let mut depth = 1;
    let outcome = loop {
        match s.attack(depth) {
            Err(Abort) => break VcfOutcome::Unknown,
            Ok(Res::Win(mut line)) => {
                line.reverse();
                break VcfOutcome::Win(line);
            }
            Ok(Res::Fail(true)) => break VcfOutcome::NoWin,
            Ok(Res::Fail(false)) if depth >= limits.max_fours => break VcfOutcome::Unknown,
            Ok(Res::Fail(false)) => depth += 1,
        }
    };
    let outcome = match outcome {
        VcfOutcome::Win(line) if !replays_to_five(board, rule, attacker, &line) => {
            log::error!("vct: rejected a line that does not replay to a five");
            VcfOutcome::Unknown
        }
        other => other,
    };
    VcfResult {
        outcome,
        nodes: s.nodes,
    }
}

/// A sanity replay of a principal variation with the plain rules: every stone legal on an
/// empty point, passes only for the defender, and the last move the attacker's five.
fn replays_to_five(board: &Board, rule: Rule, attacker: Color, line: &[Pos]) -> bool {
    let mut b = board.clone();
    b.set_side_to_move(attacker);
    for (i, &m) in line.iter().enumerate() {
        let color = if i % 2 == 0 {
            attacker
        } else {
            attacker.opponent()
        };
        if m.is_none() {
            if color == attacker {
                return false;
            }
            b.set_side_to_move(attacker);
            continue;
        }
        if !crate::rules::is_legal(&b, m, color, rule) {
            return false;
        }
        if crate::rules::is_five(&b, m, color, rule) {
            return color == attacker && i + 1 == line.len();
        }
        b.place(m, color);
    }
    false
}

struct Abort;

enum Res {
    /// A principal variation, last move first.
    Win(Vec<Pos>),
    /// No win; `true` if not caused by the depth limit.
    Fail(bool),
}

const EXACT: u32 = u32::MAX;

/// Node budget of the VCF probes made at every node (both sides).
const VCF_PROBE_NODES: u64 = 1_000;

struct Solver {
    /// The position, attacker to move at attacker nodes.
    pos: EvalBoard,
    attacker: Color,
    nodes: u64,
    max_nodes: u64,
    tt: Table<u32>,
    vcf: VcfProver,
}

impl Solver {
    fn attack(&mut self, depth: u32) -> Result<Res, Abort> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(Abort);
        }
        let attacker = self.attacker;
        if let Some(&f) = five_points(&self.pos, attacker).first() {
            return Ok(Res::Win(vec![f]));
        }
        let threats = five_points(&self.pos, attacker.opponent());
        if threats.len() >= 2 {
            return Ok(Res::Fail(true));
        }
        let hash = self.pos.board().hash();
        if let Some(&d) = self.tt.get(&hash) {
            if d >= depth {
                return Ok(Res::Fail(d == EXACT));
            }
        }
        if let VcfOutcome::Win(mut line) = self.vcf(attacker).outcome {
            line.reverse();
            return Ok(Res::Win(line));
        }
        let cands = match threats.first() {
            Some(&t) => vec![t],
            None => self.candidates(),
        };
        if cands.is_empty() {
            self.tt.insert(hash, EXACT);
            return Ok(Res::Fail(true));
        }
        if depth == 0 {
            return Ok(Res::Fail(false));
        }
        let mut exact = true;
        for q in cands {
            if self.pos.is_foul(q, attacker) {
                continue;
            }
            self.pos.make_threats(q);
            let r = self.defend(depth);
            self.pos.undo();
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

    /// Defender to move after an attacker move; every defence must lose.
    fn defend(&mut self, depth: u32) -> Result<Res, Abort> {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        if self
            .pos
            .count(defender, crate::rules::pattern::CellThreat::Five)
            > 0
        {
            return Ok(Res::Fail(true));
        }
        let fives = five_points(&self.pos, attacker);
        let replies: Vec<Pos> = if !fives.is_empty() {
            let r = defences(&mut self.pos, attacker, &fives);
            if r.is_empty() {
                let (reply, five) = finish(&mut self.pos, attacker, &fives);
                return Ok(Res::Win(vec![five, reply]));
            }
            r.to_vec()
        } else {
            let wins = self.winning_fours();
            if wins.is_empty() {
                return Ok(Res::Fail(true));
            }
            // A defender with a VCF of its own never has to answer the three.
            if matches!(self.vcf(defender).outcome, VcfOutcome::Win(_)) {
                return Ok(Res::Fail(true));
            }
            let mut r = self.counter_fours();
            for m in self.three_defences(&wins) {
                if !r.contains(&m) {
                    r.push(m);
                }
            }
            r.sort_unstable();
            if r.is_empty() {
                // Nothing helps: show a pass, then the winning four.
                let w = wins[0];
                self.pos.pass();
                self.pos.make_threats(w);
                let f = five_points_through(&self.pos, w, attacker);
                let (reply, five) = finish(&mut self.pos, attacker, &f);
                self.pos.undo();
                self.pos.pass();
                return Ok(Res::Win(vec![five, reply, w, Pos::NONE]));
            }
            r
        };
        let mut main: Option<Vec<Pos>> = None;
        for r in replies {
            self.pos.make_threats(r);
            let res = self.attack(depth - 1);
            self.pos.undo();
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
        Ok(Res::Win(main.expect("at least one reply")))
    }

    /// A small VCF search for `side` (to move) from the current position; its nodes count.
    fn vcf(&mut self, side: Color) -> VcfResult {
        let limits = VcfLimits {
            max_nodes: VCF_PROBE_NODES,
            max_fours: 60,
            shortest: false,
        };
        let r = self.vcf.prove(&mut self.pos, side, limits);
        self.nodes += r.nodes;
        r
    }

    /// Attacker moves worth trying: fours first, then moves near two stones (possible threes).
    fn candidates(&mut self) -> Vec<Pos> {
        let attacker = self.attacker;
        let pos = &self.pos;
        // A point in a window with two of the attacker's stones lies within 3 of one of them,
        // so within the stones' box widened by 3.
        let mut scored: Vec<(i32, Pos)> = pos
            .area(1)
            .filter(|&q| pos.board().is_empty(q))
            .filter_map(|q| {
                let (fours, threes) = windows_through(pos, q, attacker);
                if fours > 0 {
                    Some((-(1000 + fours as i32 * 10), q))
                } else if threes > 0 {
                    Some((-(threes as i32), q))
                } else {
                    None
                }
            })
            .collect();
        scored.sort_unstable();
        scored.into_iter().map(|(_, q)| q).collect()
    }

    /// The attacker's legal moves that make a four with no defence, in [`Pos`] order.
    fn winning_fours(&mut self) -> Points {
        let attacker = self.attacker;
        let cands: Points = self
            .pos
            .candidates()
            .filter(|&q| {
                self.pos.board().is_empty(q) && self.pos.threat(q, attacker).is_four_or_better()
            })
            .collect();
        let mut out = Points::new();
        for q in cands {
            if self.is_winning_four(q) {
                out.push(q);
            }
        }
        out
    }

    /// True if [`Solver::winning_fours`] is not empty (from the counts where they suffice).
    fn has_winning_four(&mut self) -> bool {
        let attacker = self.attacker;
        let rule = self.pos.rule();
        if rule.five_blockable() || rule.has_fouls(attacker.opponent()) {
            return !self.winning_fours().is_empty();
        }
        let pos = &self.pos;
        let n = pos.count(attacker, CellThreat::Flex4) + pos.count(attacker, CellThreat::Block4x2);
        n > 0
            && (!rule.has_fouls(attacker)
                || pos.candidates().any(|q| {
                    pos.board().is_empty(q)
                        && matches!(
                            pos.threat(q, attacker),
                            CellThreat::Flex4 | CellThreat::Block4x2
                        )
                        && !pos.is_foul(q, attacker)
                }))
    }

    /// True if the attacker at `q` makes a four the defender cannot stop (either side may be
    /// to move).
    fn is_winning_four(&mut self, q: Pos) -> bool {
        let attacker = self.attacker;
        let class = self.pos.threat(q, attacker);
        if !self.pos.board().is_empty(q) || !class.is_four_or_better() {
            return false;
        }
        let rule = self.pos.rule();
        if !rule.five_blockable() && !rule.has_fouls(attacker.opponent()) {
            // Only its own stone stops a five, and the defender may play every five point:
            // the four wins if it has two five points (a live or double four point).
            return class.is_winning() && !self.pos.is_foul(q, attacker);
        }
        let passed = self.pos.side_to_move() != attacker;
        if passed {
            self.pos.pass();
        }
        self.pos.make_threats(q);
        let f = five_points_through(&self.pos, q, attacker);
        let wins = !f.is_empty() && defences(&mut self.pos, attacker, &f).is_empty();
        self.pos.undo();
        if passed {
            self.pos.pass();
        }
        // The (costly) foul test last.
        wins && !self.pos.is_foul(q, attacker)
    }

    /// The defender's legal moves that make a four, in [`Pos`] order.
    fn counter_fours(&mut self) -> Vec<Pos> {
        let defender = self.attacker.opponent();
        let pos = &self.pos;
        pos.candidates()
            .filter(|&q| {
                pos.board().is_empty(q)
                    && pos.threat(q, defender).is_four_or_better()
                    && !pos.is_foul(q, defender)
            })
            .collect()
    }

    /// Every legal defender move after which the attacker has no winning four (in [`Pos`] order).
    fn three_defences(&mut self, wins: &[Pos]) -> Vec<Pos> {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        let board = self.pos.board();
        let cands: Vec<Pos> = if self.pos.rule().has_fouls(Color::Black) {
            // Through the recursive three rule a stone far away may make black's winning four,
            // or black's only block of white's four, a forbidden point (or lift that), so
            // every point is tried.
            board.empty_points().collect()
        } else {
            // Otherwise a stone stops a winning four only on the four's line: by taking a
            // point of its five, or (caro) by closing an end, all within 5 of w.
            let mut c: Vec<Pos> = Vec::new();
            for &w in wins {
                for dir in DIRECTIONS {
                    for k in -5..=5 {
                        let q = w.offset(dir, k);
                        if board.is_empty(q) && !c.contains(&q) {
                            c.push(q);
                        }
                    }
                }
            }
            c.sort_unstable();
            c
        };
        let mut out = Vec::new();
        for m in cands {
            self.pos.make_threats(m);
            let killed = wins.iter().all(|&w| !self.is_winning_four(w));
            let defends = killed && !self.has_winning_four();
            self.pos.undo();
            if defends && !self.pos.is_foul(m, defender) {
                out.push(m);
            }
        }
        out
    }
}
