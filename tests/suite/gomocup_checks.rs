//! The real `pbrain-lianzhu` binary over pipes, as a Gomocup manager drives it: the
//! repository's protocol sessions (`tests/fixtures/gomocup-sessions.txt`, one per rule, run
//! everywhere), and the Gomocup admission checks (`../shared/data/gomocup-rule-checks.txt`),
//! each sent as a `BOARD` as the Gomocup tester does: the reply must be one of the accepted
//! moves.

use crate::common;

use crate::common::{fixture, rule_checks, Brain, LineCheck};
use lianzhu::notation::{format_pos, parse_pos};
use lianzhu::rules::{self, Board};
use lianzhu::types::{Color, Pos, Rule};
use std::collections::BTreeSet;
use std::time::Duration;

/// The reply limit: the tester's 30 s.
const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

#[test]
fn every_gomocup_rule_check_passes_through_the_binary() {
    if !common::have_shared_data() {
        return;
    }
    let all = rule_checks();
    assert!(
        all.len() >= 8,
        "expected at least 8 checks, got {}",
        all.len()
    );
    let mut brain = Brain::start(REPLY_TIMEOUT, LineCheck::Lenient);
    let mut failures = Vec::new();
    for c in &all {
        brain.send(&format!("START {}", c.size));
        assert_eq!(brain.reply(), "OK", "{}", c.id);
        // The admission tester sends 30 s; 2 s keeps the suite short and the answers must not depend on it.
        brain.send("INFO timeout_turn 2000");
        brain.send(&format!("INFO rule {}", c.rule));
        brain.send("BOARD");
        for (i, p) in c.moves.iter().enumerate() {
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let field = if color == c.to_move { 1 } else { 2 };
            brain.send(&format!("{},{},{field}", p.x(), p.y()));
        }
        brain.send("DONE");
        let reply = brain.reply();
        let (x, y) = reply
            .split_once(',')
            .unwrap_or_else(|| panic!("{}: not a move: {reply}", c.id));
        let p = Pos::new(x.parse().unwrap(), y.parse().unwrap());
        assert!(!c.moves.contains(&p), "{}: {reply} is occupied", c.id);
        if !c.accepts(p) {
            failures.push(format!(
                "{}: answered {} ({reply}), accepted {}{:?}",
                c.id,
                format_pos(p),
                if c.except { "anything except " } else { "" },
                c.accepted
                    .iter()
                    .map(|&q| format_pos(q))
                    .collect::<Vec<_>>()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "failed checks:\n{}",
        failures.join("\n")
    );
}

/// The board of a session as the manager sees it: the brain's stones and the opponent's.
struct Game {
    board: Board,
    rule: Rule,
    /// Stone lines of the BOARD block being sent: (point, brain's own).
    block: Option<Vec<(Pos, bool)>>,
    /// The brain's colour.
    me: Color,
}

impl Game {
    fn new(size: usize) -> Game {
        Game {
            board: Board::square(size).unwrap(),
            rule: Rule::Freestyle,
            block: None,
            me: Color::Black,
        }
    }

    fn point(text: &str) -> Pos {
        let (x, y) = text.trim().split_once(',').expect("x,y");
        Pos::new(x.trim().parse().unwrap(), y.trim().parse().unwrap())
    }

    /// Follows one line sent to the brain.
    fn sent(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        let command = words.next().unwrap_or("").to_ascii_uppercase();
        if let Some(block) = self.block.as_mut() {
            if command == "DONE" {
                let stones = self.block.take().unwrap();
                let own = stones.iter().filter(|s| s.1).count();
                let opp = stones.len() - own;
                // protocol.md: black moves when the counts are equal, white when the opponent
                // has one stone more.
                self.me = if own == opp {
                    Color::Black
                } else {
                    assert_eq!(opp, own + 1, "the sessions use reachable counts");
                    Color::White
                };
                self.board = Board::new(self.board.width(), self.board.height()).unwrap();
                for (p, mine) in stones {
                    let c = if mine { self.me } else { self.me.opponent() };
                    self.board.place(p, c);
                }
                self.board.set_side_to_move(self.me);
            } else {
                let (xy, f) = line.rsplit_once(',').expect("x,y,f");
                block.push((Game::point(xy), f.trim() == "1"));
            }
            return;
        }
        match command.as_str() {
            "START" => *self = Game::new(words.next().unwrap().parse().unwrap()),
            "RESTART" => {
                *self = Game {
                    rule: self.rule,
                    ..Game::new(self.board.width())
                }
            }
            "INFO" if line.to_ascii_lowercase().starts_with("info rule ") => {
                let id: i64 = line[10..].trim().parse().unwrap();
                self.rule = Rule::from_gomocup(id).expect("known rule");
            }
            "BEGIN" => self.me = Color::Black,
            "TURN" => {
                let p = Game::point(words.next().unwrap());
                assert!(self.board.is_empty(p), "the session plays {p:?} twice");
                self.me = self.board.side_to_move().opponent();
                self.board.make(p);
            }
            "BOARD" => self.block = Some(Vec::new()),
            _ => {}
        }
    }

    /// Every legal move of the brain after which the opponent has no winning point.
    fn blocks(&self) -> BTreeSet<Pos> {
        let mut b = self.board.clone();
        let opp = self.me.opponent();
        let points: Vec<Pos> = b.empty_points().collect();
        points
            .into_iter()
            .filter(|&q| {
                if !rules::is_legal(&b, q, self.me, self.rule) {
                    return false;
                }
                b.place(q, self.me);
                let safe = rules::winning_points(&b, opp, self.rule).is_empty();
                b.undo().unwrap();
                safe
            })
            .collect()
    }
}

fn points(list: &str) -> BTreeSet<Pos> {
    list.split_whitespace()
        .map(|w| parse_pos(w).unwrap())
        .collect()
}

#[test]
fn fixture_sessions_under_every_rule() {
    let text = fixture("gomocup-sessions.txt");
    let mut rules_seen = BTreeSet::new();
    let mut expectations = 0;
    for session in text.split("\n[session ").skip(1) {
        let name = session.split(']').next().unwrap();
        let mut brain = Brain::start(REPLY_TIMEOUT, LineCheck::Strict);
        let mut game = Game::new(15);
        for line in session.lines().skip(1) {
            if let Some(cmd) = line.strip_prefix("> ") {
                brain.send(cmd);
                game.sent(cmd);
                continue;
            }
            let Some(want) = line.strip_prefix("< ") else {
                continue;
            };
            expectations += 1;
            let reply = brain.reply_skipping(&["MESSAGE ", "DEBUG "]);
            let (kind, list) = want.split_once(' ').unwrap_or((want, ""));
            if !["legal", "win", "block"].contains(&kind) {
                assert_eq!(reply, want, "{name}: after {:?}", game.board);
                continue;
            }
            let p = Game::point(&reply);
            assert!(
                game.board.is_empty(p) && rules::is_legal(&game.board, p, game.me, game.rule),
                "{name}: {reply} is not a legal move for {:?}\n{:?}",
                game.me,
                game.board
            );
            let wins: BTreeSet<Pos> = rules::winning_points(&game.board, game.me, game.rule)
                .into_iter()
                .collect();
            let accepted = match kind {
                "win" => {
                    assert_eq!(wins, points(list), "{name}: the fixture's winning points");
                    wins
                }
                "block" => {
                    assert!(wins.is_empty(), "{name}: the brain could win at {wins:?}");
                    assert_eq!(game.blocks(), points(list), "{name}: the fixture's blocks");
                    points(list)
                }
                _ => BTreeSet::from([p]),
            };
            assert!(
                accepted.contains(&p),
                "{name}: answered {} ({reply}), expected one of {:?}\n{:?}",
                format_pos(p),
                accepted.iter().map(|&q| format_pos(q)).collect::<Vec<_>>(),
                game.board
            );
            game.board.place(p, game.me);
            game.board.set_side_to_move(game.me.opponent());
        }
        rules_seen.insert(game.rule.gomocup_id());
        // After END the brain exits by itself, with status 0.
        let status = brain.wait_exit(Duration::from_secs(10));
        assert!(status.is_some_and(|s| s.success()), "{name}: {status:?}");
    }
    assert_eq!(rules_seen, BTreeSet::from([0, 1, 4, 8, 9]));
    assert!(expectations >= 30, "only {expectations} expectations");
}
