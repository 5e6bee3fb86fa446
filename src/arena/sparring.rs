//! A built-in sparring brain: `lianzhu-match --sparring` runs the real protocol loop
//! ([`crate::protocol::run`]) on stdin/stdout with an engine held to [`SPARRING_NODES`] nodes a
//! move, whatever time the manager gives.
//!
//! It exists so the runner can be checked end to end (full games under every rule, openings,
//! keep-alive) without any other engine, and as a weak, fast opponent for smoke runs. Since it
//! is the real protocol and the real engine, it answers every command `pbrain-lianzhu` answers,
//! the same way; only the node limit differs (a manager's `INFO max_node` would replace it).

use crate::engine::Engine;
use crate::protocol;

/// Nodes a move: a few milliseconds of search.
pub const SPARRING_NODES: u64 = 2_000;

/// The sparring brain's engine: the real one with [`SPARRING_NODES`] as its node limit.
pub fn engine() -> Engine {
    let mut engine = Engine::new();
    engine.options.max_nodes = SPARRING_NODES;
    engine
}

/// Serves one manager on stdin/stdout until `END` or end of input.
pub fn serve() {
    protocol::run(engine());
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// The protocol lines of a session, without `MESSAGE` lines.
    fn session(input: &str) -> Vec<String> {
        let out = protocol::run_with(Cursor::new(input.as_bytes().to_vec()), Vec::new(), engine());
        String::from_utf8(out)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("MESSAGE"))
            .map(str::to_string)
            .collect()
    }

    fn parse_xy(text: &str) -> Option<(i64, i64)> {
        let (a, b) = text.split_once(',')?;
        Some((a.parse().ok()?, b.parse().ok()?))
    }

    #[test]
    fn answers_a_match_session() {
        let lines = session("START 15\nINFO rule 1\nBEGIN\nTURN 0,0\nEND\nTURN 1,1\n");
        assert_eq!(lines[0], "OK");
        assert_eq!(lines.len(), 3, "{lines:?}");
        let first = parse_xy(&lines[1]).unwrap();
        let second = parse_xy(&lines[2]).unwrap();
        assert_ne!(first, second);
        assert_ne!(second, (0, 0));
    }

    #[test]
    fn board_completes_a_five() {
        // Own stones (1) on row 3 from x=0..3: the move must be 4,3.
        let input =
            "START 15\nBOARD\n0,3,1\n0,9,2\n1,3,1\n1,9,2\n2,3,1\n2,9,2\n3,3,1\n9,9,2\nDONE\n";
        assert_eq!(session(input), ["OK", "4,3"]);
        let lines = session("START 15\nTURN 99,1\nSTART 2\nFOO\n");
        assert_eq!(lines[0], "OK");
        assert!(lines[1].starts_with("ERROR"), "{lines:?}");
        assert!(lines[2].starts_with("ERROR"), "{lines:?}");
        assert!(lines[3].starts_with("UNKNOWN"), "{lines:?}");
    }
}
