//! What the engine reports of a search: the iterations ([`ThinkReport`], the search's report
//! re-exported), the finished lines of an analysis ([`Line`]) and the events an analysis sees
//! ([`ThinkEvent`]), so that the protocol names no search path.

use crate::search::{self, RootReport};
use crate::types::Pos;

/// Progress of a search, reported once per completed iteration: the search's own report
/// (the engine passes it on unchanged, so it is not copied into a twin type).
pub use crate::search::Report as ThinkReport;

/// One line of a multi-move analysis ([`super::Engine::run`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The root move of this line (legal for the side to move).
    pub mv: Pos,
    /// Its score from the side to move's view (see [`crate::score::score_text`] and
    /// [`crate::score::win_rate`]).
    pub score: i32,
    /// Deepest completed depth of its search (0 for a move chosen without search).
    pub depth: i32,
    /// The deepest ply a node of that iteration reached (0 without search).
    pub seldepth: i32,
    /// Nodes of its search.
    pub nodes: u64,
    /// Milliseconds its search took.
    pub time_ms: u64,
    /// Principal variation, starting with `mv`.
    pub pv: Vec<Pos>,
}

/// What [`super::Engine::run`] reports while it runs, each with the index of the line.
#[derive(Clone, Copy, Debug)]
pub enum ThinkEvent<'a> {
    /// A completed iteration of the line's search (every one).
    Iteration(&'a ThinkReport),
    /// What the root search does with a root move (every root move of every iteration).
    Root(&'a RootReport),
    /// The line is finished.
    Line(&'a Line),
}

pub(super) fn to_line(r: &search::SearchResult) -> Line {
    Line {
        mv: r.best,
        score: r.score,
        depth: r.depth,
        seldepth: r.seldepth,
        nodes: r.nodes,
        time_ms: r.time_ms,
        pv: r.pv.clone(),
    }
}
