//! [`EvalBoard`]: a [`Board`] plus incrementally kept pattern state.
//!
//! For every playable cell and direction it keeps the 20-bit line key (the 5 cells either
//! side); for every empty cell the [`LinePattern`] each colour would make in each direction,
//! the combined [`CellThreat`] byte per colour and its score; and per colour the number of
//! empty cells of each threat class and the sum of cell scores. It also keeps, per cell, the
//! number of stones within Chebyshev distance 2 (the move-candidate area).
//!
//! Invariants (checked against a from-scratch rebuild by [`EvalBoard::check_consistency`]
//! in tests): after any sequence of [`EvalBoard::make`] and [`EvalBoard::undo`], every field
//! equals what [`EvalBoard::new`] computes for the same stones; stone cells carry no threat
//! and are not counted.

use super::weights::Weights;
use crate::rules::pattern::{shift_of, CellThreat, LinePattern, MAYBE_FOUL, THREAT_MASK, WALL};
use crate::rules::tables::{self, color_code, PatternTable};
use crate::rules::{self, Board, Cell};
use crate::types::{Color, Pos, Rule, CELLS, DIRECTIONS, STRIDE};

/// A board with incremental pattern, threat and score state.
#[derive(Clone)]
pub struct EvalBoard {
    board: Board,
    rule: Rule,
    table: &'static PatternTable,
    weights: Weights,
    keys: Vec<[u32; 4]>,
    pats: Vec<[[u8; 4]; 2]>,
    threat: Vec<[u8; 2]>,
    value: Vec<[i32; 2]>,
    near: Vec<u8>,
    counts: [[u16; 32]; 2],
    value_sum: [i32; 2],
    playable: Vec<Pos>,
    /// Per stone placed since the start (and one for the start), the rectangle
    /// `[x0, y0, x1, y1]` (inclusive) of points within distance 2 of a stone.
    area: Vec<[u8; 4]>,
}

impl EvalBoard {
    /// The state of `board` under `rule`, computed from scratch, with default weights.
    pub fn new(board: &Board, rule: Rule) -> EvalBoard {
        EvalBoard::with_weights(board, rule, Weights::DEFAULT)
    }

    /// The state of `board` under `rule` with the given weights.
    pub fn with_weights(board: &Board, rule: Rule, weights: Weights) -> EvalBoard {
        let mut eb = EvalBoard {
            board: board.clone(),
            rule,
            table: tables::table(rule),
            weights,
            keys: vec![[0; 4]; CELLS],
            pats: vec![[[0; 4]; 2]; CELLS],
            threat: vec![[0; 2]; CELLS],
            value: vec![[0; 2]; CELLS],
            near: vec![0; CELLS],
            counts: [[0; 32]; 2],
            value_sum: [0; 2],
            playable: board.points().collect(),
            area: Vec::with_capacity(board.width() * board.height() + 1),
        };
        let mut rect = [u8::MAX, u8::MAX, 0, 0];
        for p in board.points().filter(|&p| !board.is_empty(p)) {
            rect = eb.grow(rect, p);
        }
        eb.area.push(rect);
        for i in 0..eb.playable.len() {
            let p = eb.playable[i];
            for (di, &d) in DIRECTIONS.iter().enumerate() {
                let mut key = 0u32;
                for off in (-5isize..=5).filter(|&o| o != 0) {
                    let code = match board.cell(p.offset(d, off)) {
                        Cell::Empty => 0,
                        Cell::Stone(c) => color_code(c),
                        Cell::Wall => u32::from(WALL),
                    };
                    key |= code << shift_of(off);
                }
                eb.keys[p.index()][di] = key;
            }
            if let Cell::Stone(_) = board.cell(p) {
                eb.add_near(p, 1);
            } else {
                for di in 0..4 {
                    eb.load_patterns(p, di);
                }
                eb.recombine(p, false);
            }
        }
        eb
    }

    /// The underlying board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rule in force.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    /// Every playable point, row by row.
    #[inline]
    pub fn playable(&self) -> &[Pos] {
        &self.playable
    }

    /// Every playable point within distance 2 of a stone (the candidate area), row by row;
    /// empty before the first stone.
    pub fn candidates(&self) -> impl Iterator<Item = Pos> + '_ {
        let [x0, y0, x1, y1] = *self.area.last().expect("area of the start");
        let (x0, y0, x1, y1) = (x0 as usize, y0 as usize, x1 as usize, y1 as usize);
        (y0..=y1.max(y0.saturating_sub(1)))
            .filter(move |_| x0 <= x1)
            .flat_map(move |y| (x0..=x1).map(move |x| Pos::new(x, y)))
    }

    /// `rect` grown to cover the points within distance 2 of `p`, clipped to the board.
    fn grow(&self, rect: [u8; 4], p: Pos) -> [u8; 4] {
        let (w, h) = (self.board.width() as u8, self.board.height() as u8);
        let (x, y) = (p.x() as u8, p.y() as u8);
        [
            rect[0].min(x.saturating_sub(2)),
            rect[1].min(y.saturating_sub(2)),
            rect[2].max((x + 2).min(w - 1)),
            rect[3].max((y + 2).min(h - 1)),
        ]
    }

    /// The threat class `color` would make by playing at the empty point `p`
    /// ([`CellThreat::None`] on stones).
    #[inline]
    pub fn threat(&self, p: Pos, color: Color) -> CellThreat {
        CellThreat::from_u8(self.threat[p.index()][color.index()])
    }

    /// The raw threat byte (class plus [`MAYBE_FOUL`]) of `color` at `p`.
    #[inline]
    pub fn threat_byte(&self, p: Pos, color: Color) -> u8 {
        self.threat[p.index()][color.index()]
    }

    /// Both colours' threat classes at `p`, `[black, white]`.
    #[inline]
    pub fn threats(&self, p: Pos) -> [CellThreat; 2] {
        let t = self.threat[p.index()];
        [CellThreat::from_u8(t[0]), CellThreat::from_u8(t[1])]
    }

    /// The pattern `color` would make at `p` along direction `dir` (0..4).
    #[inline]
    pub fn pattern(&self, p: Pos, color: Color, dir: usize) -> LinePattern {
        LinePattern::from_u8(self.pats[p.index()][color.index()][dir])
    }

    /// The score of the empty cell `p` for `color`.
    #[inline]
    pub fn cell_value(&self, p: Pos, color: Color) -> i32 {
        self.value[p.index()][color.index()]
    }

    /// Number of empty cells where `color` has exactly threat class `t`. O(1).
    #[inline]
    pub fn count(&self, color: Color, t: CellThreat) -> u32 {
        u32::from(self.counts[color.index()][t as usize])
    }

    /// Number of empty cells where `color` has a threat class of at least `t`. O(1).
    #[inline]
    pub fn count_at_least(&self, color: Color, t: CellThreat) -> u32 {
        self.counts[color.index()][t as usize..CellThreat::COUNT]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// Stones within Chebyshev distance 2 of `p`.
    #[inline]
    pub fn near(&self, p: Pos) -> u8 {
        self.near[p.index()]
    }

    /// True if black playing at the empty point `p` is a renju foul (exact: patterns first,
    /// the rules layer's check only for cells the patterns flag).
    pub fn is_forbidden(&self, p: Pos) -> bool {
        if self.rule != Rule::Renju {
            return false;
        }
        let t = self.threat[p.index()][Color::Black.index()];
        if t & THREAT_MASK == CellThreat::Forbidden as u8 {
            return true;
        }
        t & MAYBE_FOUL != 0 && rules::forbidden(&self.board, p).is_some()
    }

    /// True if the side to move may play at `p` (empty, and not a renju foul for black).
    pub fn is_legal(&self, p: Pos) -> bool {
        self.board.is_empty(p)
            && !(self.board.side_to_move() == Color::Black && self.is_forbidden(p))
    }

    /// Static evaluation from the side to move's view.
    #[inline]
    pub fn evaluate(&self) -> i32 {
        let me = self.side_to_move().index();
        let w = &self.weights;
        (self.value_sum[me] * w.own_scale - self.value_sum[1 - me] * w.opp_scale) / 16
    }

    /// Places a stone for the side to move at the empty point `p`.
    pub fn make(&mut self, p: Pos) {
        let color = self.board.side_to_move();
        for c in 0..2 {
            let t = self.threat[p.index()][c] & THREAT_MASK;
            self.counts[c][t as usize] -= 1;
            self.value_sum[c] -= self.value[p.index()][c];
            self.threat[p.index()][c] = 0;
            self.value[p.index()][c] = 0;
        }
        self.board.make(p);
        self.update_lines(p, color_code(color));
        self.add_near(p, 1);
        let rect = self.grow(*self.area.last().expect("area of the start"), p);
        self.area.push(rect);
    }

    /// Takes back the last stone.
    pub fn undo(&mut self) {
        let (p, color) = self.board.undo().expect("undo with an empty history");
        if self.area.len() > 1 {
            self.area.pop();
        } else {
            // A stone from before this state was built: recompute the area.
            let mut rect = [u8::MAX, u8::MAX, 0, 0];
            for q in self.board.points().filter(|&q| !self.board.is_empty(q)) {
                rect = self.grow(rect, q);
            }
            self.area[0] = rect;
        }
        self.update_lines(p, color_code(color));
        self.add_near(p, -1);
        for di in 0..4 {
            self.load_patterns(p, di);
        }
        self.recombine(p, false);
    }

    /// Flips the cell `p` in the keys of the 40 cells around it and refreshes the empty ones.
    fn update_lines(&mut self, p: Pos, code: u32) {
        for (di, &d) in DIRECTIONS.iter().enumerate() {
            for sign in [-1isize, 1] {
                for k in 1..=5isize {
                    let q = p.offset(d, sign * k);
                    let cell = self.board.cell(q);
                    if cell == Cell::Wall {
                        break;
                    }
                    self.keys[q.index()][di] ^= code << shift_of(-sign * k);
                    if cell == Cell::Empty {
                        let changed = self.load_patterns(q, di);
                        if changed[0] {
                            self.recombine_color(q, Color::Black, true);
                        }
                        if changed[1] {
                            self.recombine_color(q, Color::White, true);
                        }
                    }
                }
            }
        }
    }

    /// Reads the patterns of `q` along direction `di` from its key; says per colour whether
    /// they changed.
    #[inline]
    fn load_patterns(&mut self, q: Pos, di: usize) -> [bool; 2] {
        let e = self.table.get(self.keys[q.index()][di]);
        let cell = &mut self.pats[q.index()];
        let changed = [cell[0][di] != e[0], cell[1][di] != e[1]];
        cell[0][di] = e[0];
        cell[1][di] = e[1];
        changed
    }

    /// Recomputes the threat bytes and scores of the empty cell `q` from its patterns;
    /// `counted` says whether its old threats are in the counts.
    #[inline]
    fn recombine(&mut self, q: Pos, counted: bool) {
        self.recombine_color(q, Color::Black, counted);
        self.recombine_color(q, Color::White, counted);
    }

    /// [`EvalBoard::recombine`] for one colour.
    #[inline]
    fn recombine_color(&mut self, q: Pos, color: Color, counted: bool) {
        let (i, c) = (q.index(), color.index());
        let pats = self.pats[i][c];
        let t = self.table.combine(pats, color);
        if counted {
            self.counts[c][(self.threat[i][c] & THREAT_MASK) as usize] -= 1;
            self.value_sum[c] -= self.value[i][c];
        }
        let v = self.weights.cell(pats, t);
        self.threat[i][c] = t;
        self.value[i][c] = v;
        self.counts[c][(t & THREAT_MASK) as usize] += 1;
        self.value_sum[c] += v;
    }

    fn add_near(&mut self, p: Pos, delta: i8) {
        let s = STRIDE as isize;
        for dy in -2..=2isize {
            for dx in -2..=2isize {
                let i = (p.index() as isize + dy * s + dx) as usize;
                self.near[i] = self.near[i].wrapping_add_signed(delta);
            }
        }
    }

    /// Compares every incremental field with a from-scratch rebuild; `Err` names the first
    /// difference.
    pub fn check_consistency(&self) -> Result<(), String> {
        let fresh = EvalBoard::with_weights(&self.board, self.rule, self.weights);
        for &p in &self.playable {
            let i = p.index();
            if self.keys[i] != fresh.keys[i] {
                return Err(format!("keys differ at {p:?}"));
            }
            if self.near[i] != fresh.near[i] {
                return Err(format!("near differs at {p:?}"));
            }
            if self.board.is_empty(p) {
                if self.pats[i] != fresh.pats[i] {
                    return Err(format!("patterns differ at {p:?}"));
                }
                if self.threat[i] != fresh.threat[i] || self.value[i] != fresh.value[i] {
                    return Err(format!("threat or value differ at {p:?}"));
                }
            } else if self.threat[i] != [0, 0] || self.value[i] != [0, 0] {
                return Err(format!("stone cell {p:?} carries a threat"));
            }
        }
        if self.area.last() != fresh.area.last() {
            return Err("candidate area differs".into());
        }
        if self.counts != fresh.counts {
            return Err("threat counts differ".into());
        }
        if self.value_sum != fresh.value_sum {
            return Err("score sums differ".into());
        }
        if self.board.hash() != self.board.compute_hash() {
            return Err("hash differs".into());
        }
        Ok(())
    }
}
