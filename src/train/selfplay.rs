//! `selfplay`: games of the engine against itself at a fixed node count per move, written in
//! the training-data format ([`super::data`]).
//!
//! Each game starts from an opening of the file (in turn, or the empty board), then plays a
//! few random stones next to the others (0 to `random_moves`, so the games differ), then lets
//! the search play both sides with a node limit that varies by up to a quarter around
//! `nodes`. Games run on `threads` threads, each with its own searcher; a game's seed depends
//! only on `seed` and its number, so a run is repeatable up to the order of the lines.
//!
//! Invariants: every recorded move was legal when played; a game ends at a five (the mover
//! wins), a full board or `max_plies` (both drawn).

use super::data::{write_game, Game, GameMove, Score, HEADER};
use super::Rng;
use crate::eval::EvalSet;
use crate::rules::{self, Board, MoveOutcome};
use crate::score::MATE_BOUND;
use crate::search::params::MAX_DEPTH;
use crate::search::{Limits, Searcher};
use crate::types::{Pos, Rule};
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// What a self-play run does.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// The rule.
    pub rule: Rule,
    /// The board's side.
    pub size: usize,
    /// Games to play.
    pub games: usize,
    /// Average node limit per move.
    pub nodes: u64,
    /// Opening stones (black first) of each opening, used in turn; empty = the empty board.
    pub openings: Vec<Vec<Pos>>,
    /// Most random stones after the opening.
    pub random_moves: usize,
    /// Longest game in plies.
    pub max_plies: usize,
    /// Parallel games.
    pub threads: usize,
    /// Seed of the random choices.
    pub seed: u64,
    /// The evaluation the searchers use.
    pub eval: EvalSet,
}

/// Plays game number `number` of `config` with `searcher`.
pub fn play_game(config: &SelfplayConfig, searcher: &mut Searcher, number: usize) -> Game {
    let mut rng = Rng::new(config.seed ^ (number as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let rule = config.rule;
    let mut board = Board::square(config.size).expect("self-play board size");
    let mut moves: Vec<GameMove> = Vec::new();
    let mut winner = None;
    searcher.clear();
    let opening: &[Pos] = match config.openings.len() {
        0 => &[],
        n => &config.openings[number % n],
    };
    let stop = AtomicBool::new(false);
    let random = rng.below(config.random_moves as u64 + 1) as usize;
    let mut placed = 0;
    while moves.len() < config.max_plies && !board.is_full() {
        let me = board.side_to_move();
        let (pos, score) = if let Some(&p) = opening.get(moves.len()) {
            (p, None)
        } else if placed < random {
            placed += 1;
            match random_stone(&board, rule, &mut rng) {
                Some(p) => (p, None),
                None => continue,
            }
        } else {
            let jitter = config.nodes / 4;
            let nodes = config.nodes - jitter + rng.below(2 * jitter + 1);
            let limits = Limits {
                time: None,
                max_depth: MAX_DEPTH,
                max_nodes: nodes.max(1),
                threads: 1,
                exclude: Vec::new(),
            };
            let Some(r) = searcher.think(&board, rule, &limits, &stop, &mut |_| {}) else {
                break;
            };
            let score = if r.score.abs() >= MATE_BOUND {
                Score::Mate(r.score > 0)
            } else {
                Score::Eval(r.score)
            };
            (r.best, Some(score))
        };
        if !board.is_empty(pos) || !rules::is_legal(&board, pos, me, rule) {
            // An opening that does not fit the rule: stop the game here, undecided.
            break;
        }
        let outcome = rules::judge(&board, pos, me, rule);
        board.try_make(pos).expect("legal move");
        moves.push(GameMove { pos, score });
        if outcome == MoveOutcome::Win {
            winner = Some(me);
            break;
        }
    }
    Game {
        rule,
        size: config.size,
        winner,
        moves,
    }
}

/// A random legal point next to a stone (the centre on an empty board) that does not win at
/// once; `None` if there is none.
fn random_stone(board: &Board, rule: Rule, rng: &mut Rng) -> Option<Pos> {
    let me = board.side_to_move();
    let stones: Vec<Pos> = board.points().filter(|&p| !board.is_empty(p)).collect();
    if stones.is_empty() {
        let c = board.width() / 2;
        return Some(Pos::new(c, board.height() / 2));
    }
    let near: Vec<Pos> = board
        .empty_points()
        .filter(|&p| stones.iter().any(|&s| s.distance(p) <= 1))
        .filter(|&p| rules::judge(board, p, me, rule) == MoveOutcome::Continue)
        .collect();
    if near.is_empty() {
        return None;
    }
    Some(near[rng.below(near.len() as u64) as usize])
}

/// Plays every game of `config` and writes the file (header, then one line per game, in the
/// order they finish) to `out`; `progress` gets a line every `every` games. Returns the
/// number of games written.
pub fn run(
    config: &SelfplayConfig,
    out: &mut (dyn Write + Send),
    progress: &mut (dyn Write + Send),
    every: usize,
) -> io::Result<usize> {
    writeln!(out, "{HEADER}")?;
    writeln!(
        out,
        "# selfplay {} {}x{}, {} nodes a move, {} random stones at most, seed {}",
        config.rule, config.size, config.size, config.nodes, config.random_moves, config.seed
    )?;
    let next = AtomicUsize::new(0);
    let sinks = Mutex::new((out, progress, 0usize, [0usize; 3]));
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..config.threads.max(1))
            .map(|_| {
                scope.spawn(|| -> io::Result<()> {
                    let mut searcher = Searcher::new(16 << 20);
                    searcher.set_eval(config.eval.clone());
                    loop {
                        let n = next.fetch_add(1, Relaxed);
                        if n >= config.games {
                            return Ok(());
                        }
                        let game = play_game(config, &mut searcher, n);
                        let mut s = sinks.lock().unwrap_or_else(|e| e.into_inner());
                        writeln!(s.0, "{}", write_game(&game))?;
                        s.2 += 1;
                        let k = match game.winner {
                            Some(c) => c.index(),
                            None => 2,
                        };
                        s.3[k] += 1;
                        if every > 0 && s.2.is_multiple_of(every) {
                            let (done, [b, w, d]) = (s.2, s.3);
                            writeln!(s.1, "{done} games: black {b}, white {w}, draws {d}")?;
                        }
                    }
                })
            })
            .collect();
        for w in workers {
            w.join().unwrap_or_else(|e| std::panic::resume_unwind(e))?;
        }
        Ok::<(), io::Error>(())
    })?;
    let s = sinks.into_inner().unwrap_or_else(|e| e.into_inner());
    s.0.flush()?;
    Ok(s.2)
}
