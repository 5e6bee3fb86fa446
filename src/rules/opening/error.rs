//! Why a placement breaks an opening protocol.

use super::game::{Protocol, Step};
use crate::rules::Foul;
use crate::types::Pos;
use std::fmt;

/// Why a stage's placement breaks the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// The board is not a square with an odd side of at least 9.
    BoardSize(usize, usize),
    /// The opening waits for `expected`, not for this.
    OutOfOrder {
        /// What the opening waits for.
        expected: Step,
        /// What was asked.
        got: Step,
    },
    /// The opening has three stones, not this many.
    StoneCount(usize),
    /// A point is off the board.
    OffBoard(Pos),
    /// A point already holds a stone.
    Occupied(Pos),
    /// Stone `stone` must stand inside the central `side` x `side` square.
    OutsideSquare {
        /// The move number.
        stone: usize,
        /// Where it was put.
        pos: Pos,
        /// The side of the square.
        side: usize,
    },
    /// Black may not play a renju foul.
    Foul(Pos, Foul),
    /// Two offers give positions that a symmetry maps onto each other (or the same point).
    SymmetricOffers(Pos, Pos),
    /// The number of offers is not the declared N.
    OfferCount {
        /// N.
        expected: usize,
        /// The offers given.
        got: usize,
    },
    /// N is out of the protocol's range, given where it has none, or missing.
    BadOfferNumber {
        /// The N given, if any.
        n: Option<usize>,
        /// The protocol.
        protocol: Protocol,
    },
    /// The picked fifth move was not offered.
    NotOffered(Pos),
    /// The stones given do not lead to the stage asked (too few or too many).
    StageMismatch {
        /// The stage asked.
        wanted: Step,
        /// Where the stones lead.
        reached: Step,
    },
}

fn point(p: Pos) -> String {
    format!("{},{}", p.x(), p.y())
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use OpeningError::*;
        match self {
            BoardSize(w, h) => write!(
                f,
                "the opening needs a square board of odd side 9 or more, not {w}x{h}"
            ),
            OutOfOrder { expected, got } => {
                write!(
                    f,
                    "stage out of order: the opening waits for {expected}, not {got}"
                )
            }
            StoneCount(n) => write!(f, "an opening has 3 stones, not {n}"),
            OffBoard(p) => write!(f, "{} is off the board", point(*p)),
            Occupied(p) => write!(f, "{} is occupied", point(*p)),
            OutsideSquare { stone, pos, side } => write!(
                f,
                "stone {stone} at {} is outside the central {side}x{side}",
                point(*pos)
            ),
            Foul(p, foul) => write!(
                f,
                "{} is a renju foul ({}) for black",
                point(*p),
                foul.label()
            ),
            SymmetricOffers(a, b) => {
                write!(
                    f,
                    "the offers {} and {} are symmetric",
                    point(*a),
                    point(*b)
                )
            }
            OfferCount { expected, got } => {
                write!(f, "{got} fifth-move offers where {expected} are declared")
            }
            BadOfferNumber {
                n: Some(n),
                protocol,
            } => {
                write!(f, "{protocol} does not allow {n} fifth-move offers here")
            }
            BadOfferNumber { n: None, protocol } => {
                write!(f, "{protocol} needs the number of fifth-move offers here")
            }
            NotOffered(p) => write!(f, "{} is not one of the offered fifth moves", point(*p)),
            StageMismatch { wanted, reached } => {
                write!(f, "the stones given lead to {reached}, not to {wanted}")
            }
        }
    }
}

impl std::error::Error for OpeningError {}
