//! [`EvalBoard`]: a [`Board`] plus incrementally kept pattern state.
//!
//! For every playable cell and direction it keeps the 20-bit line key (the 5 cells either
//! side); for every empty cell the shape ([`super::shape`], a [`LinePattern`] with live twos
//! and threes told apart) each colour would make in each direction, the combined
//! [`CellThreat`] byte per colour and its score; and per colour the number of
//! empty cells of each threat class and the sum of cell scores. It also keeps, per cell, the
//! number of stones within Chebyshev distance 2 (the move-candidate area), and per row the
//! bit masks of those cells and of the stones, so that the move generator visits the empty
//! candidates alone.
//!
//! Update scheme: [`EvalBoard::make`] walks the stone's four lines (its own keys say which
//! neighbours are empty, stones or wall), flips the stone into each neighbour's key, and
//! for an empty neighbour whose table entry changed logs the cell's old state and updates
//! its patterns, threat bytes and score by a delta. [`EvalBoard::undo`] flips the keys
//! back and restores the logged cells and the saved counts and sums; a stone placed before
//! the state was built has no log and is undone by recomputing the cells it touched.
//!
//! Invariants (checked against a from-scratch rebuild by [`EvalBoard::check_consistency`]
//! in tests): after any sequence of [`EvalBoard::make`] and [`EvalBoard::undo`], every field
//! equals what [`EvalBoard::new`] computes for the same stones; stone cells carry no threat
//! and are not counted.

use super::shape::{self, ShapeTable};
use super::tables::{pcode_of, threat_mask, CellScores, EvalSet, EvalTables, VALUE_UNIT};
use crate::rules::pattern::{
    shift_of, CellThreat, LinePattern, EMPTY, MAYBE_FOUL, THREAT_MASK, WALL,
};
use crate::rules::tables::color_code;
use crate::rules::{self, Board, Cell};
use crate::types::{Color, Pos, Rule, CELLS, DIRECTIONS, MAX_SIZE, PAD, STRIDE};
use std::sync::Arc;

/// A board with incremental pattern, threat and score state.
#[derive(Clone)]
pub struct EvalBoard {
    board: Board,
    rule: Rule,
    table: &'static ShapeTable,
    tables: Arc<EvalTables>,
    keys: Box<[[u32; 4]; CELLS]>,
    cells: Box<[CellState; CELLS]>,
    near: Box<[u8; CELLS]>,
    /// Per row `y` (at index `y + 2`, so that rows two off the board have a place), bit
    /// `x + 2` set if the cell has a stone within distance 2 (`near` above 0).
    near_rows: [u64; MAX_SIZE + 4],
    /// Per row, bit `x` set if the cell holds a stone.
    stone_rows: [u32; MAX_SIZE],
    counts: [[u16; 32]; 2],
    value_sum: [[i32; 2]; 2],
    playable: Vec<Pos>,
    /// Per stone placed since the start (and one for the start), the rectangle
    /// `[x0, y0, x1, y1]` (inclusive) of points within distance 2 of a stone.
    area: Vec<[u8; 4]>,
    /// Per stone placed by [`EvalBoard::make`], what its [`EvalBoard::undo`] restores.
    frames: Vec<Frame>,
    /// The empty cells whose patterns a `make` changed, as they were before it (the frames
    /// split it into plies).
    log: Vec<CellState>,
}

/// The state of one cell. For an empty cell: per direction the table entry (black's shape
/// in the low nibble, white's in the high one), and per colour the combination key of its
/// four shapes, its threat byte and its [`CellScores`] (values for role 0, that colour to
/// move, and role 1, in 1/[`VALUE_UNIT`] units; ordering value; move scores). A stone cell
/// keeps threat and scores 0 (and stale line fields). One cell is 32 bytes, so a change
/// touches one half cache line and its log entry is a plain copy.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
#[repr(align(32))]
struct CellState {
    entry: [u8; 4],
    combo: [u16; 2],
    scores: [CellScores; 2],
    threat: [u8; 2],
    /// The cell's own index, so that a logged copy says where it goes back.
    index: u16,
}

/// The iterator of [`EvalBoard::near_empties`]: row by row, the set bits of each row's
/// candidate mask.
pub struct NearEmpties<'a> {
    eb: &'a EvalBoard,
    columns: u64,
    /// The row being read, and its candidate bits not yet returned.
    y: usize,
    bits: u64,
}

impl Iterator for NearEmpties<'_> {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        while self.bits == 0 {
            self.y += 1;
            if self.y >= self.eb.board.height() {
                return None;
            }
            self.bits = self.eb.near_row(self.y, self.columns);
        }
        let x = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(Pos::new(x, self.y))
    }
}

/// What `undo` needs to take back one `make`: the counts and sums before it, the state of
/// the stone's cell, and where its changes start in the log.
#[derive(Clone)]
struct Frame {
    log_len: usize,
    counts: [[u16; 32]; 2],
    value_sum: [[i32; 2]; 2],
    threat: [u8; 2],
    scores: [CellScores; 2],
}

// The cell layout the comment above promises.
const _: () = assert!(std::mem::size_of::<CellState>() == 32);

/// Farthest index distance a line update reaches from the stone (5 cells diagonally).
const REACH: usize = PAD * (STRIDE + 1);

/// A boxed per-cell array filled with `v`.
fn per_cell<T: Copy>(v: T) -> Box<[T; CELLS]> {
    vec![v; CELLS]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("CELLS entries"))
}

// The key layout the sliding window in `EvalBoard::with_tables` assumes: offsets -5..-1 in
// bits 0..9, 1..5 in bits 10..19, two bits a cell.
const _: () = assert!(shift_of(-5) == 0 && shift_of(-1) == 8 && shift_of(1) == 10);
const _: () = assert!(shift_of(5) == 18);

impl EvalBoard {
    /// The state of `board` under `rule`, computed from scratch, with the hand-set weights.
    pub fn new(board: &Board, rule: Rule) -> EvalBoard {
        EvalBoard::with_tables(board, rule, EvalSet::hand().get(rule))
    }

    /// The state of `board` under `rule` with the given tables (those of `rule`).
    pub fn with_tables(board: &Board, rule: Rule, tables: Arc<EvalTables>) -> EvalBoard {
        let mut eb = EvalBoard {
            board: board.clone(),
            rule,
            table: shape::table(rule),
            tables,
            keys: per_cell([0; 4]),
            cells: per_cell(CellState::default()),
            near: per_cell(0),
            near_rows: [0; MAX_SIZE + 4],
            stone_rows: [0; MAX_SIZE],
            counts: [[0; 32]; 2],
            value_sum: [[0; 2]; 2],
            playable: board.points().collect(),
            area: Vec::with_capacity(board.width() * board.height() + 1),
            frames: Vec::with_capacity(board.width() * board.height()),
            log: Vec::new(),
        };
        for (i, cell) in eb.cells.iter_mut().enumerate() {
            cell.index = i as u16;
        }
        let mut rect = [u8::MAX, u8::MAX, 0, 0];
        for p in board.points().filter(|&p| !board.is_empty(p)) {
            rect = eb.grow(rect, p);
        }
        eb.area.push(rect);
        let code = |q: Pos| match board.cell(q) {
            Cell::Empty => 0,
            Cell::Stone(c) => color_code(c),
            Cell::Wall => u32::from(WALL),
        };
        // Row by row, so the point before `p` on each line (every direction steps forwards)
        // already has its key: slide that window one cell along (11 cells, the centre in
        // bits 10-11) instead of reading ten cells.
        for i in 0..eb.playable.len() {
            let p = eb.playable[i];
            for (di, &d) in DIRECTIONS.iter().enumerate() {
                let prev = p.offset(d, -1);
                eb.keys[p.index()][di] = if board.cell(prev) != Cell::Wall {
                    let k = eb.keys[prev.index()][di];
                    let window = (k & 0x3FF) | (code(prev) << 10) | ((k >> 10) << 12);
                    let window = (window >> 2) | (code(p.offset(d, 5)) << 20);
                    (window & 0x3FF) | ((window >> 12) << 10)
                } else {
                    (-5isize..=5)
                        .filter(|&o| o != 0)
                        .fold(0, |key, off| key | code(p.offset(d, off)) << shift_of(off))
                };
            }
            if let Cell::Stone(_) = board.cell(p) {
                eb.add_near(p, 1);
                eb.stone_rows[p.y()] ^= 1 << p.x();
            } else {
                eb.rebuild_cell(p.index(), false);
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

    /// Every playable point of the candidate area's bounding rectangle (the points within
    /// distance 2 of the stones' bounding box: stones and points far from every stone
    /// included), row by row; empty before the first stone. [`EvalBoard::near_empties`]
    /// gives the empty points near a stone alone.
    pub fn candidates(&self) -> impl Iterator<Item = Pos> + '_ {
        let [x0, y0, x1, y1] = *self.area.last().expect("area of the start");
        let (x0, y0, x1, y1) = (x0 as usize, y0 as usize, x1 as usize, y1 as usize);
        (y0..=y1.max(y0.saturating_sub(1)))
            .filter(move |_| x0 <= x1)
            .flat_map(move |y| (x0..=x1).map(move |x| Pos::new(x, y)))
    }

    /// Every empty point within distance 2 of a stone (the move candidates), row by row,
    /// read from the row masks.
    pub fn near_empties(&self) -> NearEmpties<'_> {
        let columns = (1u64 << self.board.width()) - 1;
        NearEmpties {
            eb: self,
            columns,
            y: 0,
            bits: self.near_row(0, columns),
        }
    }

    /// The candidate bits of row `y` (bit `x` set for an empty point within distance 2 of a
    /// stone), `columns` masking the board's width.
    #[inline(always)]
    fn near_row(&self, y: usize, columns: u64) -> u64 {
        (self.near_rows[y + 2] >> 2) & columns & !u64::from(self.stone_rows[y])
    }

    /// Every playable point of the candidate area widened by `margin` more points on each
    /// side (so within distance `2 + margin` of the stones' bounding box), row by row; empty
    /// before the first stone.
    pub fn area(&self, margin: usize) -> impl Iterator<Item = Pos> + '_ {
        let [x0, y0, x1, y1] = *self.area.last().expect("area of the start");
        let (w, h) = (self.board.width(), self.board.height());
        let (x0, y0) = (
            (x0 as usize).saturating_sub(margin),
            (y0 as usize).saturating_sub(margin),
        );
        let (x1, y1) = (
            (x1 as usize + margin).min(w - 1),
            (y1 as usize + margin).min(h - 1),
        );
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
        CellThreat::from_u8(self.cells[p.index()].threat[color.index()])
    }

    /// The 20-bit line key of the playable point `p` along direction `dir` (0..4): the cells
    /// at offsets -5..-1 and +1..+5 in the bit pairs of [`shift_of`], 0 empty, 1 black,
    /// 2 white, 3 wall.
    #[inline]
    pub fn line_key(&self, p: Pos, dir: usize) -> u32 {
        self.keys[p.index()][dir & 3]
    }

    /// True if `color` may not play the empty point `p`: a renju foul for black (see
    /// [`EvalBoard::is_forbidden`]); never for white or under the other rules.
    #[inline]
    pub fn is_foul(&self, p: Pos, color: Color) -> bool {
        self.rule.has_fouls(color) && self.is_forbidden(p)
    }

    /// The raw threat byte (class plus [`MAYBE_FOUL`]) of `color` at `p`.
    #[inline]
    pub fn threat_byte(&self, p: Pos, color: Color) -> u8 {
        self.cells[p.index()].threat[color.index()]
    }

    /// Both colours' threat classes at `p`, `[black, white]`.
    #[inline]
    pub fn threats(&self, p: Pos) -> [CellThreat; 2] {
        let t = self.cells[p.index()].threat;
        [CellThreat::from_u8(t[0]), CellThreat::from_u8(t[1])]
    }

    /// The pattern `color` would make at `p` along direction `dir` (0..4).
    #[inline]
    pub fn pattern(&self, p: Pos, color: Color, dir: usize) -> LinePattern {
        let entry = self.cells[p.index()].entry[dir & 3];
        LinePattern::from_u8(shape::base(shape::of_color(entry, color.index())))
    }

    /// The move-ordering value of the empty cell `p` for `color` (the hand-set cell score:
    /// line scores plus class bonus; 0 on stones), as stored by the last full make (stale
    /// after [`EvalBoard::make_threats`]: [`EvalBoard::shape_value`] reads it fresh).
    #[inline]
    pub fn cell_value(&self, p: Pos, color: Color) -> i32 {
        i32::from(self.cells[p.index()].scores[color.index()].order)
    }

    /// [`EvalBoard::cell_value`] of the empty cell `p`, read from the tables by the cell's
    /// shapes: also right after [`EvalBoard::make_threats`], which leaves the stored value
    /// stale.
    #[inline]
    pub fn shape_value(&self, p: Pos, color: Color) -> i32 {
        let combo = usize::from(self.cells[p.index()].combo[color.index()]);
        i32::from(self.tables.combo_scores(combo, color.index()).order)
    }

    /// The learned move score of `part` (0: `color`'s own move at the empty cell `p`, 1:
    /// `color`'s cell blocked there by the other colour), as the tables'
    /// [`EvalTables::policy`] of the cell's pcode; 0 on stones.
    #[inline]
    pub fn move_score(&self, p: Pos, color: Color, part: usize) -> i32 {
        i32::from(self.cells[p.index()].scores[color.index()].policy[part & 1])
    }

    /// The pcode of `color` at the empty cell `p` (its four line shapes as a multiset).
    #[inline]
    pub fn pcode(&self, p: Pos, color: Color) -> usize {
        pcode_of(usize::from(self.cells[p.index()].combo[color.index()]))
    }

    /// The threat mask of the position from the side to move's view (see
    /// [`super::tables::threat_mask`]).
    #[inline]
    pub fn threat_mask(&self) -> usize {
        threat_mask(&self.counts, self.side_to_move().index())
    }

    /// The evaluation tables in use.
    #[inline]
    pub fn tables(&self) -> &Arc<EvalTables> {
        &self.tables
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
        if !self.rule.has_fouls(Color::Black) {
            return false;
        }
        let t = self.cells[p.index()].threat[Color::Black.index()];
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
        let cells = (self.value_sum[me][0] - self.value_sum[1 - me][1]) / VALUE_UNIT;
        if self.tables.has_tempo() {
            cells + self.tables.tempo(me, threat_mask(&self.counts, me))
        } else {
            cells
        }
    }

    /// Places a stone for the side to move at the empty point `p`.
    #[inline]
    pub fn make(&mut self, p: Pos) {
        self.make_with::<true>(p);
    }

    /// [`EvalBoard::make`] for the threat provers: keys, patterns, threat classes and their
    /// counts are updated, the scores, ordering values and move scores are not. Until it is
    /// taken back with [`EvalBoard::undo`] (which restores everything),
    /// [`EvalBoard::evaluate`], [`EvalBoard::cell_value`] and [`EvalBoard::move_score`] read
    /// stale numbers; the threat state is exact.
    #[inline]
    pub fn make_threats(&mut self, p: Pos) {
        self.make_with::<false>(p);
    }

    /// `make`, with the scores kept up to date if `SCORES`.
    #[inline(always)]
    fn make_with<const SCORES: bool>(&mut self, p: Pos) {
        let color = self.board.side_to_move();
        let i = p.index();
        self.frames.push(Frame {
            log_len: self.log.len(),
            counts: self.counts,
            value_sum: self.value_sum,
            threat: self.cells[i].threat,
            scores: self.cells[i].scores,
        });
        for c in 0..2 {
            let t = self.cells[i].threat[c] & THREAT_MASK;
            self.counts[c][t as usize] -= 1;
            for r in 0..2 {
                self.value_sum[c][r] -= i32::from(self.cells[i].scores[c].value[r]);
            }
        }
        self.cells[i].threat = [0; 2];
        self.cells[i].scores = [CellScores::default(); 2];
        self.board.make(p);
        self.log.reserve(4 * 2 * 5);
        let code = color_code(color);
        self.make_dir::<0, SCORES>(i, code);
        self.make_dir::<1, SCORES>(i, code);
        self.make_dir::<2, SCORES>(i, code);
        self.make_dir::<3, SCORES>(i, code);
        self.add_near(p, 1);
        self.stone_rows[p.y()] ^= 1 << p.x();
        let rect = self.grow(*self.area.last().expect("area of the start"), p);
        self.area.push(rect);
    }

    /// Gives the turn to the other side without a stone (a null move; the threat state does
    /// not depend on the side to move). A second `pass` takes it back.
    #[inline]
    pub fn pass(&mut self) {
        let other = self.board.side_to_move().opponent();
        self.board.set_side_to_move(other);
    }

    /// Takes back the last stone.
    pub fn undo(&mut self) {
        let (p, color) = self.board.undo().expect("undo with an empty history");
        let Some(frame) = self.frames.pop() else {
            return self.undo_rebuild(p, color);
        };
        self.area.pop();
        let (i, code) = (p.index(), color_code(color));
        self.flip_dir::<0>(i, code);
        self.flip_dir::<1>(i, code);
        self.flip_dir::<2>(i, code);
        self.flip_dir::<3>(i, code);
        for old in &self.log[frame.log_len..] {
            self.cells[usize::from(old.index)] = *old;
        }
        self.log.truncate(frame.log_len);
        self.cells[i].threat = frame.threat;
        self.cells[i].scores = frame.scores;
        self.counts = frame.counts;
        self.value_sum = frame.value_sum;
        self.add_near(p, -1);
        self.stone_rows[p.y()] ^= 1 << p.x();
    }

    /// Takes back the stone `p` of `color`, placed before this state was built (so not in
    /// the frames), by recomputing what it touched.
    fn undo_rebuild(&mut self, p: Pos, color: Color) {
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
        let code = color_code(color);
        for (di, &d) in DIRECTIONS.iter().enumerate() {
            for sign in [-1isize, 1] {
                for k in 1..=5isize {
                    let q = p.offset(d, sign * k);
                    let cell = self.board.cell(q);
                    if cell == Cell::Wall {
                        break;
                    }
                    self.keys[q.index()][di] ^= code << shift_of(-sign * k);
                    if cell == Cell::Empty
                        && self.table.get_byte(self.keys[q.index()][di])
                            != self.cells[q.index()].entry[di]
                    {
                        self.rebuild_cell(q.index(), true);
                    }
                }
            }
        }
        self.add_near(p, -1);
        self.stone_rows[p.y()] ^= 1 << p.x();
        self.rebuild_cell(p.index(), false);
    }

    /// Recomputes the line state, threat bytes and scores of the empty cell `q` from its
    /// keys; `counted` says whether its old threats are in the counts.
    fn rebuild_cell(&mut self, q: usize, counted: bool) {
        let cell = &mut self.cells[q];
        for di in 0..4 {
            cell.entry[di] = self.table.get_byte(self.keys[q][di]);
        }
        for c in 0..2 {
            let pats = cell.entry.map(|e| shape::of_color(e, c));
            cell.combo[c] = shape::shape_key(pats) as u16;
        }
        for c in 0..2 {
            if counted {
                let cell = &self.cells[q];
                self.counts[c][(cell.threat[c] & THREAT_MASK) as usize] -= 1;
                for r in 0..2 {
                    self.value_sum[c][r] -= i32::from(cell.scores[c].value[r]);
                }
            }
            self.set_threat(q, c);
        }
    }

    /// Sets the threat byte and values of colour index `c` at the empty cell `q` from its
    /// line state and adds them to the counts and sums.
    #[inline(always)]
    fn set_threat(&mut self, q: usize, c: usize) {
        let cell = &mut self.cells[q];
        let combo = usize::from(cell.combo[c]);
        let t = self.table.combine_keyed(combo, c);
        let scores = self.tables.combo_scores(combo, c);
        cell.threat[c] = t;
        cell.scores[c] = scores;
        self.counts[c][(t & THREAT_MASK) as usize] += 1;
        self.value_sum[c][0] += i32::from(scores.value[0]);
        self.value_sum[c][1] += i32::from(scores.value[1]);
    }

    /// `make`'s update along direction `DI`: flips the new stone at index `i` (of key code
    /// `code`) in the keys of the cells up to the first wall either side, and refreshes the
    /// empty ones. The cells' contents come from the stone's own key, which holds its ten
    /// neighbours along the line.
    #[inline(always)]
    fn make_dir<const DI: usize, const SCORES: bool>(&mut self, i: usize, code: u32) {
        assert!((REACH..CELLS - REACH).contains(&i), "stone off the board");
        let (base, key) = (i - REACH, self.keys[i][DI]);
        let _ = self.make_step::<DI, -1, SCORES>(base, key, code)
            && self.make_step::<DI, -2, SCORES>(base, key, code)
            && self.make_step::<DI, -3, SCORES>(base, key, code)
            && self.make_step::<DI, -4, SCORES>(base, key, code)
            && self.make_step::<DI, -5, SCORES>(base, key, code);
        let _ = self.make_step::<DI, 1, SCORES>(base, key, code)
            && self.make_step::<DI, 2, SCORES>(base, key, code)
            && self.make_step::<DI, 3, SCORES>(base, key, code)
            && self.make_step::<DI, 4, SCORES>(base, key, code)
            && self.make_step::<DI, 5, SCORES>(base, key, code);
    }

    /// One cell of [`EvalBoard::make_dir`], `OFF` steps from the stone; `base` is the
    /// stone's index minus [`REACH`], `key` its key along `DI`. False at a wall (the walk
    /// along this side stops).
    #[inline(always)]
    fn make_step<const DI: usize, const OFF: isize, const SCORES: bool>(
        &mut self,
        base: usize,
        key: u32,
        code: u32,
    ) -> bool {
        let cell = (key >> shift_of(OFF)) & 3;
        if cell == u32::from(WALL) {
            return false;
        }
        let q = base + (REACH as isize + DIRECTIONS[DI] * OFF) as usize;
        let new_key = self.keys[q][DI] ^ (code << shift_of(-OFF));
        self.keys[q][DI] = new_key;
        if cell == u32::from(EMPTY) {
            let entry = self.table.get_byte(new_key);
            let old = self.cells[q].entry[DI];
            if entry != old {
                self.change::<SCORES>(DI, q, old, entry);
            }
        }
        true
    }

    /// The table entry of the empty cell `q` along direction `di` changes from `old` to
    /// `new`: logs the cell's state, then updates its line state, threat bytes and scores
    /// for the colours whose pattern changed (the counts only if the class changed). Kept
    /// out of line: inlined into each of `make`'s forty unrolled steps it made `make` 30 KB
    /// of machine code (6 KB without), and the search ran slower for it.
    #[inline(never)]
    fn change<const SCORES: bool>(&mut self, di: usize, q: usize, old: u8, new: u8) {
        let di = di & 3;
        self.log.push(self.cells[q]);
        self.cells[q].entry[di] = new;
        for c in 0..2 {
            let (o, n) = (shape::of_color(old, c), shape::of_color(new, c));
            if o == n {
                continue;
            }
            let cell = &mut self.cells[q];
            let weight = shape::SHAPE_WEIGHTS[di] as u16;
            cell.combo[c] = cell.combo[c]
                .wrapping_add(u16::from(n).wrapping_mul(weight))
                .wrapping_sub(u16::from(o).wrapping_mul(weight));
            let combo = usize::from(cell.combo[c]);
            let t = self.table.combine_keyed(combo, c);
            let (class, old_class) = ((t & THREAT_MASK) as usize, cell.threat[c] & THREAT_MASK);
            // Most changes are far from the stone and keep the class.
            if class != usize::from(old_class) {
                self.counts[c][usize::from(old_class)] -= 1;
                self.counts[c][class] += 1;
            }
            cell.threat[c] = t;
            if SCORES {
                let scores = self.tables.combo_scores(combo, c);
                let old = cell.scores[c].value;
                self.value_sum[c][0] += i32::from(scores.value[0]) - i32::from(old[0]);
                self.value_sum[c][1] += i32::from(scores.value[1]) - i32::from(old[1]);
                cell.scores[c] = scores;
            }
        }
    }

    /// `undo`'s update along direction `DI`: flips the stone at index `i` (of key code
    /// `code`) in the keys along the line.
    #[inline(always)]
    fn flip_dir<const DI: usize>(&mut self, i: usize, code: u32) {
        assert!((REACH..CELLS - REACH).contains(&i), "stone off the board");
        let (base, key) = (i - REACH, self.keys[i][DI]);
        let _ = self.flip_step::<DI, -1>(base, key, code)
            && self.flip_step::<DI, -2>(base, key, code)
            && self.flip_step::<DI, -3>(base, key, code)
            && self.flip_step::<DI, -4>(base, key, code)
            && self.flip_step::<DI, -5>(base, key, code);
        let _ = self.flip_step::<DI, 1>(base, key, code)
            && self.flip_step::<DI, 2>(base, key, code)
            && self.flip_step::<DI, 3>(base, key, code)
            && self.flip_step::<DI, 4>(base, key, code)
            && self.flip_step::<DI, 5>(base, key, code);
    }

    /// One cell of [`EvalBoard::flip_dir`] (as [`EvalBoard::make_step`]).
    #[inline(always)]
    fn flip_step<const DI: usize, const OFF: isize>(
        &mut self,
        base: usize,
        key: u32,
        code: u32,
    ) -> bool {
        if (key >> shift_of(OFF)) & 3 == u32::from(WALL) {
            return false;
        }
        let q = base + (REACH as isize + DIRECTIONS[DI] * OFF) as usize;
        self.keys[q][DI] ^= code << shift_of(-OFF);
        true
    }

    /// Adds `delta` (1 or -1) to the near count of the 5x5 cells around `p`, a row of five
    /// counts at a time as one little-endian word, and refreshes those cells' bits in the
    /// near masks. No count carries into the next: a count is at most 25, and a stone taken
    /// back was counted in every cell around it.
    fn add_near(&mut self, p: Pos, delta: i8) {
        debug_assert!(delta == 1 || delta == -1);
        const ROW: u64 = 0x01_01_01_01_01;
        // Bit 7 of each of the five low bytes is set after adding this if the count is not 0
        // (counts stay below 128).
        const NONZERO: u64 = 0x7F_7F_7F_7F_7F;
        let add = ROW.wrapping_mul(i64::from(delta) as u64);
        for dy in 0..5 {
            let start = p.index() + dy * STRIDE - 2 * STRIDE - 2;
            let cells: &mut [u8; 8] = (&mut self.near[start..start + 8])
                .try_into()
                .expect("eight cells");
            let word = u64::from_le_bytes(*cells).wrapping_add(add);
            *cells = word.to_le_bytes();
            let flags = ((word & 0xFF_FF_FF_FF_FF) + NONZERO) & (ROW << 7);
            // Gather the five flags (bits 7, 15, .., 39) into bits 0..5.
            let bits = (flags >> 7).wrapping_mul(0x01_02_04_08_10) >> 32 & 0x1F;
            let row = &mut self.near_rows[p.y() + dy];
            *row = (*row & !(0x1F << p.x())) | (bits << p.x());
        }
    }

    /// Compares every incremental field with a from-scratch rebuild; `Err` names the first
    /// difference.
    pub fn check_consistency(&self) -> Result<(), String> {
        let fresh = EvalBoard::with_tables(&self.board, self.rule, self.tables.clone());
        for &p in &self.playable {
            let i = p.index();
            if self.keys[i] != fresh.keys[i] {
                return Err(format!("keys differ at {p:?}"));
            }
            if self.near[i] != fresh.near[i] {
                return Err(format!("near differs at {p:?}"));
            }
            if self.board.is_empty(p) {
                let (a, b) = (&self.cells[i], &fresh.cells[i]);
                if (a.entry, a.combo) != (b.entry, b.combo) {
                    return Err(format!("patterns differ at {p:?}"));
                }
                if a.threat != b.threat || a.scores != b.scores {
                    return Err(format!("threat or value differ at {p:?}"));
                }
                if a.index != b.index {
                    return Err(format!("cell index differs at {p:?}"));
                }
            } else if self.cells[i].threat != [0, 0]
                || self.cells[i].scores != [CellScores::default(); 2]
            {
                return Err(format!("stone cell {p:?} carries a threat"));
            }
        }
        if self.near_rows != fresh.near_rows || self.stone_rows != fresh.stone_rows {
            return Err("near or stone masks differ".into());
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
