//! The Gomocup admission checks (`../shared/data/gomocup-rule-checks.txt`), each sent as a
//! `BOARD` to the real `pbrain-lianzhu` binary over pipes, as the Gomocup tester does: the
//! reply must be one of the accepted moves.

mod common;

use common::{rule_checks, Brain, LineCheck};
use lianzhu::notation::format_pos;
use lianzhu::types::{Color, Pos};
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
