//! The settings the manager sends with `INFO` ([`Options`]), and how many search threads a
//! search may run on this machine.

use crate::types::Rule;

/// Settings the manager sends with `INFO`, kept across `START`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Time limit per move in ms; 0 = move as fast as possible.
    pub timeout_turn_ms: i64,
    /// Time limit for the whole game in ms; 0 = no limit.
    pub timeout_match_ms: i64,
    /// Match time left in ms (may be negative; `i32::MAX` = unlimited).
    pub time_left_ms: i64,
    /// Search without a time limit, whatever the three clock fields above say (the
    /// command-line tools' `--nodes`); never set by a manager.
    pub untimed: bool,
    /// Memory limit in bytes for the whole process; 0 = no limit.
    pub max_memory: u64,
    /// 0 human opponent, 1 brain, 2 tournament, 3 network tournament.
    pub game_type: i64,
    /// The rule in force.
    pub rule: Rule,
    /// Folder for persistent files, if the manager gave one.
    pub folder: Option<String>,
    /// Number of search threads (a search runs at most [`thread_limit`]).
    pub threads: usize,
    /// Transposition table size in KiB, if set with `INFO hash_size`.
    pub hash_kb: Option<u64>,
    /// The point under the manager's mouse (`INFO evaluate x,y`); unused by the search.
    pub evaluate: Option<(i64, i64)>,
    /// Node limit per search (`INFO max_node`); 0 = none.
    pub max_nodes: u64,
    /// Deepest iteration per search (`INFO max_depth`); 0 = none.
    pub max_depth: i32,
    /// Think on the opponent's time after our move (`INFO pondering 1`); off by default, as
    /// Gomocup suspends the process between moves and does not allow it.
    pub pondering: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout_turn_ms: 5_000,
            timeout_match_ms: 0,
            time_left_ms: i32::MAX as i64,
            untimed: false,
            max_memory: 0,
            game_type: 1,
            rule: Rule::Freestyle,
            folder: None,
            threads: 1,
            hash_kb: None,
            evaluate: None,
            max_nodes: 0,
            max_depth: 0,
            pondering: false,
        }
    }
}

/// The most search threads a search runs, whatever `threads` asks (`INFO thread_num 100000`
/// would otherwise start that many threads for every search).
pub const MAX_THREADS: usize = 64;

/// The search threads a search runs at most on this machine: its logical CPUs, at most
/// [`MAX_THREADS`]. More threads than CPUs only starve the thread that watches the clock: 64
/// threads on 2 CPUs made a 15 ms move take over a second.
pub fn thread_limit() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_THREADS)
}
