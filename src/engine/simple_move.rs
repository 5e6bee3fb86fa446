//! The simple mover, the engine's fallback: a rule-abiding move without search, played when
//! the search returns an illegal move (a bug) or none, so that the protocol's reply is always
//! legal. It was the move chooser of the rules/protocol milestone.

use crate::rules::{self, Board};
use crate::types::{Color, Pos, Rule};

/// The simple mover: an immediate win, else a block of the opponent's five, else a block of
/// the opponent's open three (a point where the opponent would get two winning points, such
/// as an open four), else the legal point with the most stones within two cells. Ties: most
/// stones around, then nearest the centre, then lowest point.
pub fn simple_move(board: &Board, rule: Rule) -> Option<Pos> {
    let me = board.side_to_move();
    let opp = me.opponent();
    let legal = |p: Pos| rules::is_legal(board, p, me, rule);
    let empties: Vec<Pos> = board.empty_points().collect();
    if let Some(&p) = empties
        .iter()
        .find(|&&p| rules::is_five(board, p, me, rule) && legal(p))
    {
        return Some(p);
    }
    if let Some(&p) = empties
        .iter()
        .find(|&&p| rules::is_five(board, p, opp, rule) && legal(p))
    {
        return Some(p);
    }
    let center = board.center();
    let density = |p: Pos| {
        let mut near = 0i64;
        for q in board.points().filter(|q| q.distance(p) <= 2) {
            if !board.is_empty(q) {
                near += 3 - q.distance(p) as i64;
            }
        }
        (near, -(p.distance(center) as i64), std::cmp::Reverse(p))
    };
    let mut scratch = board.clone();
    let blocks: Vec<Pos> = empties
        .iter()
        .copied()
        .filter(|&p| board.has_neighbour(p, 4) && makes_two_wins(&mut scratch, p, opp, rule))
        .filter(|&p| rules::is_legal(board, p, opp, rule) && legal(p))
        .collect();
    if let Some(p) = blocks.into_iter().max_by_key(|&p| density(p)) {
        return Some(p);
    }
    empties
        .iter()
        .copied()
        .filter(|&p| legal(p))
        .max_by_key(|&p| density(p))
}

/// True if a stone of `color` at the empty point `p` would give `color` at least two
/// different points that each complete a winning line (an open four or a double four).
/// `scratch` is a copy of the board; it is returned unchanged.
fn makes_two_wins(scratch: &mut Board, p: Pos, color: Color, rule: Rule) -> bool {
    scratch.place(p, color);
    let mut wins: Vec<Pos> = Vec::new();
    for dir in Board::directions() {
        for step in -4..=4isize {
            let q = p.offset(dir, step);
            if scratch.is_empty(q) && !wins.contains(&q) && rules::is_five(scratch, q, color, rule)
            {
                wins.push(q);
            }
        }
    }
    let _ = scratch.undo();
    wins.len() >= 2
}
