//! The opening protocols of renju as a state machine: what each stage allows, checked stone
//! by stone. A call that breaks a rule returns an [`OpeningError`] and changes nothing.
//!
//! - **RIF**: black places an opening (one of the 26); swap; white plays move 4; black offers
//!   2 fifth moves; white picks one (and plays move 6).
//! - **Yamaguchi**: as RIF, but the opening comes with N (1..=[`YAMAGUCHI_MAX_OFFERS`]) and
//!   black offers N fifths.
//! - **Soosõrv-8**: opening; swap; white plays move 4 and declares N (1..=8); swap again;
//!   black offers N fifths; white picks one.
//! - **Taraguchi-10**: stones 1 to 5 are placed one at a time, stone k inside the central
//!   (2k-1)x(2k-1) square (1 on the centre, 2 in the 3x3, ... 5 in the 9x9), each by the
//!   player of its colour, and after each the other player may swap; instead of placing stone
//!   5, black may offer 10 fifths anywhere, and white picks one.
//!
//! Offers are fifth moves for black: empty, not renju fouls, and pairwise not symmetric (no
//! symmetry of the board maps the position after one onto the position after another).
//! A swap exchanges the players' colours; the stones stay. The player who did not place the
//! last stone decides a swap, and swapping takes that stone's colour.

pub use super::error::OpeningError;
use super::symmetry;
use super::{identify, Opening};
use crate::rules::{self, Board};
use crate::types::{Color, Pos};
use std::fmt;

/// The largest N of a Yamaguchi opening (AbstractPlay's bound).
pub const YAMAGUCHI_MAX_OFFERS: usize = 12;
/// The largest N of a Soosõrv-8 fourth move.
pub const SOOSORV_MAX_OFFERS: usize = 8;

/// An opening protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// RIF (until about 2008): 2 fifth offers.
    Rif,
    /// Yamaguchi: N offers declared with the opening.
    Yamaguchi,
    /// Soosõrv-8: N declared with move 4, a second swap.
    Soosorv8,
    /// Taraguchi-10: stones 1-5 in growing squares, or 10 fifth offers.
    Taraguchi10,
}

impl Protocol {
    /// All four, in the order of their history.
    pub const ALL: [Protocol; 4] = [
        Protocol::Rif,
        Protocol::Yamaguchi,
        Protocol::Soosorv8,
        Protocol::Taraguchi10,
    ];

    /// The name used on the command line: `rif`, `yamaguchi`, `soosorv8`, `taraguchi10`.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Rif => "rif",
            Protocol::Yamaguchi => "yamaguchi",
            Protocol::Soosorv8 => "soosorv8",
            Protocol::Taraguchi10 => "taraguchi10",
        }
    }

    /// Reads a name: case, `-`, `_` and the õ of Soosõrv do not matter.
    pub fn from_name(name: &str) -> Option<Protocol> {
        let key: String = name
            .chars()
            .flat_map(char::to_lowercase)
            .map(|c| if c == 'õ' { 'o' } else { c })
            .filter(|c| c.is_ascii_alphanumeric())
            .collect();
        Protocol::ALL.into_iter().find(|p| p.name() == key)
    }

    /// The number of fifth offers when the protocol fixes it (RIF 2, Taraguchi-10 10).
    pub fn fixed_offers(self) -> Option<usize> {
        match self {
            Protocol::Rif => Some(2),
            Protocol::Taraguchi10 => Some(10),
            _ => None,
        }
    }

    /// The steps numbered as the command line's `--stage` numbers them (1-based; Soosõrv-8's
    /// are Yixin-Board's `yxsoosorvstep1..6`). Taraguchi-10's `Place` and `Swap` stand for
    /// every stone k, given by the stones already placed.
    pub fn stages(self) -> &'static [Step] {
        match self {
            Protocol::Rif | Protocol::Yamaguchi => &[
                Step::Opening,
                Step::Swap(3),
                Step::Fourth,
                Step::Offers,
                Step::Pick,
            ],
            Protocol::Soosorv8 => &[
                Step::Opening,
                Step::Swap(3),
                Step::Fourth,
                Step::Swap(4),
                Step::Offers,
                Step::Pick,
            ],
            Protocol::Taraguchi10 => &[Step::Place(0), Step::Swap(0), Step::Offers, Step::Pick],
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Rif => "RIF",
            Protocol::Yamaguchi => "Yamaguchi",
            Protocol::Soosorv8 => "Soosõrv-8",
            Protocol::Taraguchi10 => "Taraguchi-10",
        })
    }
}

/// What the opening waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Black's three opening stones (Yamaguchi: with N).
    Opening,
    /// Taraguchi-10: stone k (1..=5) inside its square; at 5, or 10 offers.
    Place(usize),
    /// The choice to swap after stone k.
    Swap(usize),
    /// White's 4th stone (Soosõrv-8: with N).
    Fourth,
    /// Black's N fifth offers.
    Offers,
    /// White picks one of the offers.
    Pick,
    /// The opening is over: play goes on as usual.
    Done,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Opening => f.write_str("the opening's three stones"),
            Step::Place(k) => write!(f, "stone {k}"),
            Step::Swap(k) => write!(f, "the swap after stone {k}"),
            Step::Fourth => f.write_str("the 4th move"),
            Step::Offers => f.write_str("the fifth-move offers"),
            Step::Pick => f.write_str("the choice of an offered fifth move"),
            Step::Done => f.write_str("ordinary play (the opening is over)"),
        }
    }
}

/// A player, by the colour they had at the start: the first player is the tentative black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The tentative black.
    First,
    /// The tentative white.
    Second,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// Checks that `color` may put a stone on `p`: on the board, empty, and for black not a renju
/// foul.
pub fn check_stone(board: &Board, p: Pos, color: Color) -> Result<(), OpeningError> {
    if p.is_none() || p.x() >= board.width() || p.y() >= board.height() {
        return Err(OpeningError::OffBoard(p));
    }
    if !board.is_empty(p) {
        return Err(OpeningError::Occupied(p));
    }
    if color == Color::Black {
        if let Some(foul) = rules::forbidden(board, p) {
            return Err(OpeningError::Foul(p, foul));
        }
    }
    Ok(())
}

/// Checks `offers` as black's fifth moves on `board`: `n` of them (when given), each a legal
/// black stone, no two symmetric.
pub fn check_offers(board: &Board, offers: &[Pos], n: Option<usize>) -> Result<(), OpeningError> {
    if let Some(n) = n {
        if offers.len() != n {
            return Err(OpeningError::OfferCount {
                expected: n,
                got: offers.len(),
            });
        }
    }
    let mut keys: Vec<(symmetry::PositionKey, Pos)> = Vec::with_capacity(offers.len());
    for &p in offers {
        check_stone(board, p, Color::Black)?;
        let key = symmetry::canonical_with(board, (p, Color::Black));
        if let Some((_, q)) = keys.iter().find(|(k, _)| *k == key) {
            return Err(OpeningError::SymmetricOffers(*q, p));
        }
        keys.push((key, p));
    }
    Ok(())
}

/// True if `p` lies inside the central square allowed to stone `stone` (side 2k-1).
pub fn in_square(board: &Board, stone: usize, p: Pos) -> bool {
    let (dx, dy) = symmetry::offset(board, p);
    let r = stone.saturating_sub(1) as i32;
    dx.abs() <= r && dy.abs() <= r
}

/// An opening in progress under a protocol.
#[derive(Clone, Debug)]
pub struct OpeningGame {
    protocol: Protocol,
    board: Board,
    offer_count: Option<usize>,
    offers: Vec<Pos>,
    black: Player,
    step: Step,
}

impl OpeningGame {
    /// A new opening on a `size` x `size` board (odd, 9 or more; renju is played on 15).
    pub fn new(protocol: Protocol, size: usize) -> Result<OpeningGame, OpeningError> {
        if size < 9 || size.is_multiple_of(2) {
            return Err(OpeningError::BoardSize(size, size));
        }
        let board = Board::square(size).map_err(|_| OpeningError::BoardSize(size, size))?;
        Ok(OpeningGame {
            protocol,
            board,
            offer_count: protocol.fixed_offers(),
            offers: Vec::new(),
            black: Player::First,
            step: match protocol {
                Protocol::Taraguchi10 => Step::Place(1),
                _ => Step::Opening,
            },
        })
    }

    /// The protocol.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// The stones placed (offers are not on it; a picked one is).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// What the opening waits for.
    pub fn step(&self) -> Step {
        self.step
    }

    /// N, once known.
    pub fn offer_count(&self) -> Option<usize> {
        self.offer_count
    }

    /// The fifth moves offered, once offered.
    pub fn offers(&self) -> &[Pos] {
        &self.offers
    }

    /// The player who has black now.
    pub fn black(&self) -> Player {
        self.black
    }

    fn expect(&self, got: Step) -> Result<(), OpeningError> {
        let ok = match (self.step, got) {
            (Step::Place(k), Step::Place(_)) | (Step::Swap(k), Step::Swap(_)) => k > 0,
            (Step::Place(5), Step::Offers) => true,
            (a, b) => a == b,
        };
        if ok {
            Ok(())
        } else {
            Err(OpeningError::OutOfOrder {
                expected: self.step,
                got,
            })
        }
    }

    fn check_n(&self, n: Option<usize>, max: usize) -> Result<usize, OpeningError> {
        match n {
            Some(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err(OpeningError::BadOfferNumber {
                n,
                protocol: self.protocol,
            }),
        }
    }

    fn refuse_n(&self, n: Option<usize>) -> Result<(), OpeningError> {
        match n {
            None => Ok(()),
            n => Err(OpeningError::BadOfferNumber {
                n,
                protocol: self.protocol,
            }),
        }
    }

    /// Black's three opening stones (black, white, black), with N under Yamaguchi (none
    /// otherwise). Returns the opening they make.
    pub fn place_opening(
        &mut self,
        stones: &[Pos],
        n: Option<usize>,
    ) -> Result<&'static Opening, OpeningError> {
        self.expect(Step::Opening)?;
        if stones.len() != 3 {
            return Err(OpeningError::StoneCount(stones.len()));
        }
        let n = match self.protocol {
            Protocol::Yamaguchi => Some(self.check_n(n, YAMAGUCHI_MAX_OFFERS)?),
            _ => {
                self.refuse_n(n)?;
                self.offer_count
            }
        };
        let mut board = self.board.clone();
        for (i, &p) in stones.iter().enumerate() {
            check_stone(&board, p, board.side_to_move())?;
            if !in_square(&board, i + 1, p) {
                return Err(OpeningError::OutsideSquare {
                    stone: i + 1,
                    pos: p,
                    side: 2 * i + 1,
                });
            }
            board.make(p);
        }
        let (opening, _) = identify(&board, stones).expect("three stones in their squares");
        self.board = board;
        self.offer_count = n;
        self.step = Step::Swap(3);
        Ok(opening)
    }

    /// Taraguchi-10: the next stone inside its square.
    pub fn place(&mut self, p: Pos) -> Result<(), OpeningError> {
        let Step::Place(k) = self.step else {
            return Err(OpeningError::OutOfOrder {
                expected: self.step,
                got: Step::Place(self.board.stone_count() + 1),
            });
        };
        check_stone(&self.board, p, self.board.side_to_move())?;
        if !in_square(&self.board, k, p) {
            return Err(OpeningError::OutsideSquare {
                stone: k,
                pos: p,
                side: 2 * k - 1,
            });
        }
        self.board.make(p);
        self.step = Step::Swap(k);
        Ok(())
    }

    /// The choice after a stone: `true` swaps the players' colours.
    pub fn swap(&mut self, swap: bool) -> Result<(), OpeningError> {
        let Step::Swap(k) = self.step else {
            return Err(OpeningError::OutOfOrder {
                expected: self.step,
                got: Step::Swap(self.board.stone_count()),
            });
        };
        if swap {
            self.black = self.black.other();
        }
        self.step = match (self.protocol, k) {
            (Protocol::Taraguchi10, 5) => Step::Done,
            (Protocol::Taraguchi10, k) => Step::Place(k + 1),
            (Protocol::Soosorv8, 4) => Step::Offers,
            _ => Step::Fourth,
        };
        Ok(())
    }

    /// White's 4th stone, anywhere; with N under Soosõrv-8 (none otherwise).
    pub fn place_fourth(&mut self, p: Pos, n: Option<usize>) -> Result<(), OpeningError> {
        self.expect(Step::Fourth)?;
        let n = match self.protocol {
            Protocol::Soosorv8 => Some(self.check_n(n, SOOSORV_MAX_OFFERS)?),
            _ => {
                self.refuse_n(n)?;
                self.offer_count
            }
        };
        check_stone(&self.board, p, Color::White)?;
        self.board.make(p);
        self.offer_count = n;
        self.step = match self.protocol {
            Protocol::Soosorv8 => Step::Swap(4),
            _ => Step::Offers,
        };
        Ok(())
    }

    /// Black's N fifth-move offers (Taraguchi-10: 10, instead of placing stone 5).
    pub fn offer_fifths(&mut self, offers: &[Pos]) -> Result<(), OpeningError> {
        self.expect(Step::Offers)?;
        check_offers(&self.board, offers, self.offer_count)?;
        self.offers = offers.to_vec();
        self.step = Step::Pick;
        Ok(())
    }

    /// White picks one offered fifth move; it is played and the opening is over.
    pub fn pick_fifth(&mut self, p: Pos) -> Result<(), OpeningError> {
        self.expect(Step::Pick)?;
        if !self.offers.contains(&p) {
            return Err(OpeningError::NotOffered(p));
        }
        self.board.make(p);
        self.step = Step::Done;
        Ok(())
    }

    /// The opening after `stones` (in move order), `n` and `offers`, played with no swap, up
    /// to the step `wanted` (Taraguchi-10: `Place(0)` and `Swap(0)` match any stone, and
    /// `Offers` matches `Place(5)`). Each
    /// stage's rules are checked on the way; the stones and offers must all be used and
    /// lead exactly to `wanted`.
    pub fn replay(
        protocol: Protocol,
        size: usize,
        stones: &[Pos],
        n: Option<usize>,
        offers: &[Pos],
        wanted: Step,
    ) -> Result<OpeningGame, OpeningError> {
        let mut g = OpeningGame::new(protocol, size)?;
        let matches = |s: Step| match (s, wanted) {
            (Step::Place(_), Step::Place(0)) | (Step::Swap(_), Step::Swap(0)) => true,
            (Step::Place(5), Step::Offers) => true,
            (a, b) => a == b,
        };
        loop {
            let placed = g.board.stone_count();
            let used = placed == stones.len() && (offers.is_empty() || !g.offers.is_empty());
            let step = g.step;
            if matches(step) && used {
                return Ok(g);
            }
            let mismatch = OpeningError::StageMismatch {
                wanted,
                reached: step,
            };
            match step {
                Step::Opening if stones.len() >= 3 => {
                    let n = if protocol == Protocol::Yamaguchi {
                        n
                    } else {
                        None
                    };
                    g.place_opening(&stones[..3], n)?;
                }
                Step::Place(5) if placed == stones.len() && !offers.is_empty() => {
                    g.offer_fifths(offers)?;
                }
                Step::Place(_) if placed < stones.len() => g.place(stones[placed])?,
                Step::Swap(_) => g.swap(false)?,
                Step::Fourth if placed < stones.len() => {
                    let n = if protocol == Protocol::Soosorv8 {
                        n
                    } else {
                        None
                    };
                    g.place_fourth(stones[placed], n)?;
                }
                Step::Offers if !offers.is_empty() => g.offer_fifths(offers)?,
                Step::Pick if placed < stones.len() => g.pick_fifth(stones[placed])?,
                _ => return Err(mismatch),
            }
        }
    }
}
