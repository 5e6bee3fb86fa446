//! The engine's decisions in renju's opening protocols (RIF, Yamaguchi, Soosõrv-8,
//! Taraguchi-10; the rules are [`crate::rules::opening::game`]), from the search within the
//! stage's time, as a pure API: no protocol text in, none out. [`decide`] answers whatever
//! step the [`OpeningGame`] waits for; [`apply`] plays a decision into the game.
//!
//! All scores are the search's under renju (settled over its last completed iterations, as
//! Swap2's are), fouls respected at every stone (the search never plays one, and every stone is
//! checked by the rules before it is returned). The decisions:
//!
//! - **Opening** (RIF, Yamaguchi, Soosõrv-8): each of the 26 openings is searched with white
//!   to move on half the budget; the [`OPENING_FINALISTS`] closest to 0 are searched again,
//!   with white's best 4th move and then black's best fifth moves (see *offers*): the one
//!   whose value is closest to 0 is chosen, that value being, under RIF, black's 2nd best
//!   fifth (white will pick the worse of two offers), under Yamaguchi black's N-th best fifth
//!   for the N (1..=12) that brings it closest to 0 (N is declared with it), under
//!   Soosõrv-8 the deeper search's score.
//! - **Swap** after stone k: the player asked holds the colour to move; with a value below 0
//!   for that colour it swaps. The value is the search's score, except where offers follow at
//!   once: after move 3 of RIF and Yamaguchi, minus black's N-th best fifth after white's best
//!   4th; after move 4 of Soosõrv-8 (black asked), black's N-th best fifth.
//! - **4th move**: RIF, Yamaguchi: white's best move. Soosõrv-8 (a swap follows, so white
//!   wants balance): for each of white's [`FOURTH_CANDIDATES`] best moves, the N (1..=8) that
//!   brings black's N-th best fifth closest to 0; the move and N closest to 0 overall.
//! - **Taraguchi-10 stone k** (a swap follows): stone 1 on the centre; otherwise the mover's
//!   [`PLACE_CANDIDATES`] best moves inside the square, and the one scoring closest to 0.
//! - **Offers**: black's N best fifth moves, none symmetric to another (each search excludes
//!   the moves found and their symmetric twins), so that the one white will pick, the worst
//!   of them for black, is as strong for black as the search can make it. Points the search
//!   did not reach are filled with the legal points nearest the centre that keep the offers
//!   non-symmetric.
//! - **Pick**: each offer is searched with white to move; the best for white is taken, and
//!   that search's move is white's 6th.
//!
//! Budget and stop as in [`super::swap2`]: the stage's time (the maximum of the budget) and
//! nodes are split between its searches; setting `stop` ends the stage at once with the best
//! answer found so far, or a rule-abiding fallback (no swap, the point nearest the centre,
//! the first offer, the first opening with N = 1).

mod decide;

pub use decide::{decide, decide_step};
pub use decide::{FOURTH_CANDIDATES, OPENING_FINALISTS, PLACE_CANDIDATES};

use crate::rules::opening::game::OpeningError;
use crate::rules::opening::Opening;
use crate::types::Pos;

// The game the decisions are about, as the rules keep it: whoever asks for a decision
// (the protocol) keeps one, and reads it from here rather than from the rules.
pub use crate::rules::opening::game::{OpeningGame, Protocol, Step};

/// What the player asked does at the opening's current step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The three opening stones (black, white, black) and, under Yamaguchi, N.
    Opening {
        /// The opening they make.
        opening: &'static Opening,
        /// The stones in move order.
        stones: [Pos; 3],
        /// N under Yamaguchi.
        offers: Option<usize>,
    },
    /// Taraguchi-10: the next stone.
    Place(Pos),
    /// Swap (take the colour of the last stone) or not.
    Swap(bool),
    /// White's 4th move and, under Soosõrv-8, N.
    Fourth {
        /// The stone.
        stone: Pos,
        /// N under Soosõrv-8.
        offers: Option<usize>,
    },
    /// Black's fifth-move offers, best first.
    Offers(Vec<Pos>),
    /// The offered fifth move white takes, and white's 6th move.
    Pick {
        /// The fifth move picked.
        fifth: Pos,
        /// White's answer to it.
        sixth: Pos,
    },
}

/// Plays `decision` into `game` (a pick plays the fifth; the 6th is ordinary play and is not
/// placed). The rules are checked as for any player.
pub fn apply(game: &mut OpeningGame, decision: &Decision) -> Result<(), OpeningError> {
    match decision {
        Decision::Opening { stones, offers, .. } => game.place_opening(stones, *offers).map(|_| ()),
        Decision::Place(p) => game.place(*p),
        Decision::Swap(s) => game.swap(*s),
        Decision::Fourth { stone, offers } => game.place_fourth(*stone, *offers),
        Decision::Offers(o) => game.offer_fifths(o),
        Decision::Pick { fifth, .. } => game.pick_fifth(*fifth),
    }
}
