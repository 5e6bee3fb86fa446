//! The commands of `pbrain-lianzhu` beside the protocol loop: `bench`, `solve`, `analyze` and
//! `opening`. Each reads and writes only the streams it is given (`main` wires them to stdin
//! and stdout) and stands on the layers below the protocol, never on it.
//!
//! - [`bench`](mod@bench): the fixed search whose node count and signature identify the search.
//! - [`solve`]: whether the side to move has a VCF (or a VCT), from the threat provers.
//! - [`analyze`]: the best moves, scores, win rates, fouls and VCFs of positions.
//! - [`opening`]: the engine's renju opening decisions for scripts, as JSON lines.

pub mod analyze;
pub mod bench;
pub mod opening;
pub mod solve;
