//! The board: stones on a padded grid, the move history, the side to move and a Zobrist hash.
//!
//! Invariants: cells outside the `width` x `height` playable area are [`Cell::Wall`]; the hash
//! is the XOR of the keys of every stone plus [`zobrist::SIDE`] when white is to move; the
//! history lists every stone in the order it was placed, and [`Board::undo`] takes the last one
//! back exactly (stones, side to move and hash).

use super::zobrist;
use crate::types::{Color, Pos, CELLS, DIRECTIONS, MAX_SIZE, MIN_SIZE};
use std::fmt;

/// The content of one grid cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// A playable, empty point.
    Empty,
    /// A stone of the given colour.
    Stone(Color),
    /// Outside the board.
    Wall,
}

/// Why a board could not be made or a stone could not be placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// Width or height outside 5..=32.
    UnsupportedSize {
        /// Requested width.
        width: usize,
        /// Requested height.
        height: usize,
    },
    /// The point lies outside the board.
    OffBoard {
        /// Column asked for.
        x: i64,
        /// Row asked for.
        y: i64,
    },
    /// The point already holds a stone.
    Occupied {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// There is no move to take back.
    NoMoveToUndo,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::UnsupportedSize { width, height } => write!(
                f,
                "unsupported board size {width}x{height}: width and height must be {MIN_SIZE}..={MAX_SIZE}"
            ),
            BoardError::OffBoard { x, y } => write!(f, "point {x},{y} is outside the board"),
            BoardError::Occupied { x, y } => write!(f, "point {x},{y} is already occupied"),
            BoardError::NoMoveToUndo => write!(f, "there is no move to take back"),
        }
    }
}

impl std::error::Error for BoardError {}

/// A Gomoku board of any size from 5x5 to 32x32, square or not.
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    cells: Box<[Cell; CELLS]>,
    history: Vec<(Pos, Color)>,
    side_to_move: Color,
    hash: u64,
}

impl Board {
    /// An empty board, black to move.
    pub fn new(width: usize, height: usize) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(BoardError::UnsupportedSize { width, height });
        }
        let mut cells = Box::new([Cell::Wall; CELLS]);
        for y in 0..height {
            for x in 0..width {
                cells[Pos::new(x, y).index()] = Cell::Empty;
            }
        }
        Ok(Board {
            width,
            height,
            cells,
            history: Vec::with_capacity(width * height),
            side_to_move: Color::Black,
            hash: 0,
        })
    }

    /// An empty square board.
    pub fn square(size: usize) -> Result<Board, BoardError> {
        Board::new(size, size)
    }

    /// Board width (number of columns, the protocol's x range).
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Board height (number of rows, the protocol's y range).
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    /// The cell at a grid point (walls included).
    #[inline]
    pub fn cell(&self, p: Pos) -> Cell {
        self.cells[p.index()]
    }

    /// True if `p` is a playable, empty point.
    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p.index()] == Cell::Empty
    }

    /// True if `p` holds a stone of `color`.
    #[inline]
    pub fn is_stone(&self, p: Pos, color: Color) -> bool {
        self.cells[p.index()] == Cell::Stone(color)
    }

    /// The point at protocol coordinates, if it lies on the board.
    pub fn pos(&self, x: i64, y: i64) -> Result<Pos, BoardError> {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            return Err(BoardError::OffBoard { x, y });
        }
        Ok(Pos::new(x as usize, y as usize))
    }

    /// The side whose turn it is.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// Sets the side to move (used when a position is given without a move order).
    pub fn set_side_to_move(&mut self, color: Color) {
        if color != self.side_to_move {
            self.hash ^= zobrist::SIDE;
            self.side_to_move = color;
        }
    }

    /// The Zobrist hash of stones and side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Every stone in the order it was placed.
    #[inline]
    pub fn history(&self) -> &[(Pos, Color)] {
        &self.history
    }

    /// Number of stones on the board.
    #[inline]
    pub fn stone_count(&self) -> usize {
        self.history.len()
    }

    /// The last stone placed, if any.
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().map(|&(p, _)| p)
    }

    /// True when no empty point is left.
    pub fn is_full(&self) -> bool {
        self.history.len() == self.width * self.height
    }

    /// The hash after the side to move plays at the empty point `p` (for a prefetch of the
    /// child's TT entry before the move is made).
    #[inline]
    pub fn hash_after(&self, p: Pos) -> u64 {
        self.hash ^ zobrist::stone(self.side_to_move, p) ^ zobrist::SIDE
    }

    /// Places a stone for the side to move and passes the turn. `p` must be empty.
    #[inline]
    pub fn make(&mut self, p: Pos) {
        self.place(p, self.side_to_move);
    }

    /// Places a stone of `color` at the empty point `p`; afterwards the other colour is to move.
    #[inline]
    pub fn place(&mut self, p: Pos, color: Color) {
        debug_assert!(self.is_empty(p), "place on a non-empty point {p:?}");
        self.cells[p.index()] = Cell::Stone(color);
        self.hash ^= zobrist::stone(color, p);
        self.history.push((p, color));
        self.set_side_to_move(color.opponent());
    }

    /// Checks that `p` is on the board and empty, then places a stone for the side to move.
    pub fn try_make(&mut self, p: Pos) -> Result<(), BoardError> {
        self.check_empty(p)?;
        self.make(p);
        Ok(())
    }

    /// `Ok` if `p` is a playable, empty point.
    pub fn check_empty(&self, p: Pos) -> Result<(), BoardError> {
        match self.cell(p) {
            Cell::Empty => Ok(()),
            Cell::Stone(_) => Err(BoardError::Occupied { x: p.x(), y: p.y() }),
            Cell::Wall => Err(BoardError::OffBoard {
                x: p.x() as i64,
                y: p.y() as i64,
            }),
        }
    }

    /// Takes back the last stone; its colour is to move again.
    pub fn undo(&mut self) -> Result<(Pos, Color), BoardError> {
        let (p, color) = self.history.pop().ok_or(BoardError::NoMoveToUndo)?;
        self.cells[p.index()] = Cell::Empty;
        self.hash ^= zobrist::stone(color, p);
        self.set_side_to_move(color);
        Ok((p, color))
    }

    /// Every playable point, row by row.
    pub fn points(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }

    /// Every empty point, row by row.
    pub fn empty_points(&self) -> impl Iterator<Item = Pos> + '_ {
        self.points().filter(move |&p| self.is_empty(p))
    }

    /// The centre point (rounded towards the top left).
    pub fn center(&self) -> Pos {
        Pos::new(self.width / 2, self.height / 2)
    }

    /// Length of the unbroken run of `color` through `p` along `dir`, counting `p` itself as
    /// `color` whatever it holds, plus the cells just beyond both ends of the run.
    #[inline]
    pub fn run_through(&self, p: Pos, dir: isize, color: Color) -> (usize, Cell, Cell) {
        let stone = Cell::Stone(color);
        let mut len = 1;
        let mut q = p.offset(dir, 1);
        while self.cells[q.index()] == stone {
            len += 1;
            q = q.offset(dir, 1);
        }
        let after = self.cells[q.index()];
        let mut q = p.offset(dir, -1);
        while self.cells[q.index()] == stone {
            len += 1;
            q = q.offset(dir, -1);
        }
        (len, self.cells[q.index()], after)
    }

    /// The hash recomputed from scratch (for consistency checks).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for p in self.points() {
            if let Cell::Stone(c) = self.cell(p) {
                h ^= zobrist::stone(c, p);
            }
        }
        if self.side_to_move == Color::White {
            h ^= zobrist::SIDE;
        }
        h
    }

    /// True if any stone lies within `radius` (Chebyshev) of `p`.
    pub fn has_neighbour(&self, p: Pos, radius: usize) -> bool {
        let r = radius as isize;
        for dy in -r..=r {
            for dx in -r..=r {
                let x = p.x() as isize + dx;
                let y = p.y() as isize + dy;
                if x < 0 || y < 0 || x >= self.width as isize || y >= self.height as isize {
                    continue;
                }
                if matches!(self.cell(Pos::new(x as usize, y as usize)), Cell::Stone(_)) {
                    return true;
                }
            }
        }
        false
    }

    /// The four direction offsets, for callers that walk lines.
    pub const fn directions() -> [isize; 4] {
        DIRECTIONS
    }
}

impl fmt::Debug for Board {
    /// A diagram with row 0 at the top: `X` black, `O` white, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.height {
            for x in 0..self.width {
                let c = match self.cell(Pos::new(x, y)) {
                    Cell::Empty => '.',
                    Cell::Stone(Color::Black) => 'X',
                    Cell::Stone(Color::White) => 'O',
                    Cell::Wall => '#',
                };
                write!(f, "{c} ")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert!(Board::new(5, 5).is_ok());
        assert!(Board::new(32, 32).is_ok());
        assert!(Board::new(20, 7).is_ok());
        assert!(Board::new(4, 10).is_err());
        assert!(Board::new(33, 10).is_err());
        let b = Board::new(7, 5).unwrap();
        assert_eq!(b.points().count(), 35);
        assert_eq!(b.cell(Pos::new(7, 0)), Cell::Wall);
        assert_eq!(b.cell(Pos::new(0, 5)), Cell::Wall);
    }

    #[test]
    fn hash_after_is_the_hash_of_the_move_made() {
        let mut b = Board::square(15).unwrap();
        for (x, y) in [(7, 7), (8, 8), (6, 9), (9, 6), (7, 8)] {
            let p = Pos::new(x, y);
            let expected = b.hash_after(p);
            b.make(p);
            assert_eq!(b.hash(), expected);
            assert_eq!(b.hash(), b.compute_hash());
        }
    }

    #[test]
    fn make_undo_restores_hash() {
        let mut b = Board::square(15).unwrap();
        let start = b.hash();
        let moves = [
            Pos::new(7, 7),
            Pos::new(8, 8),
            Pos::new(0, 14),
            Pos::new(14, 0),
        ];
        for &m in &moves {
            b.make(m);
            assert_eq!(b.hash(), b.compute_hash());
        }
        assert_eq!(b.side_to_move(), Color::Black);
        for _ in &moves {
            b.undo().unwrap();
            assert_eq!(b.hash(), b.compute_hash());
        }
        assert_eq!(b.hash(), start);
        assert_eq!(b.undo(), Err(BoardError::NoMoveToUndo));
    }

    #[test]
    fn run_counts_stones_through_point() {
        let mut b = Board::square(15).unwrap();
        for x in 3..6 {
            b.place(Pos::new(x, 4), Color::Black);
        }
        b.place(Pos::new(7, 4), Color::White);
        let (len, before, after) = b.run_through(Pos::new(6, 4), 1, Color::Black);
        assert_eq!(len, 4);
        assert_eq!(before, Cell::Empty);
        assert_eq!(after, Cell::Stone(Color::White));
    }
}
