//! A short match through c-gomoku-cli (dhbloo's match runner, the one of the sparring kit in
//! `../shared/sparring`): the release binary against Wine (the 2018 freestyle engine of the
//! kit), two games from the empty board with colours swapped, 200 ms a move. c-gomoku-cli
//! sends `ABOUT` first, then `START`, the `INFO`s, `BEGIN`/`TURN` and `INFO time_left` before
//! every move, reads our `MESSAGE` progress lines while it waits, and scores a late move as a
//! time loss and a dead engine as a crash. Its one-line result of every game must say that
//! the game ended by a five or a draw; nothing else (time forfeit, crash, illegal move).
//!
//! The kit's `bin/` directory: `$LIANZHU_SPARRING_BIN`, else `~/.cache/lianzhu-sparring/bin`
//! (`bash ../shared/sparring/build.sh` builds it; `.ci/run` does when it is missing). Missing:
//! skipped with a `SKIPPED` line, a failure under `CI=true`.

use crate::common::{run_with_deadline, tool_or_skip};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// How a game may end.
const GOOD_ENDS: [&str; 3] = [
    "{Black win by five connection}",
    "{White win by five connection}",
    "{Draw by fullfilled board}",
];

#[test]
fn two_games_against_wine_end_by_five_or_draw() {
    let bin = std::env::var_os("LIANZHU_SPARRING_BIN")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/lianzhu-sparring/bin"))
        })
        .unwrap_or_else(|| PathBuf::from("/nonexistent"));
    let how = "bash ../shared/sparring/build.sh builds it";
    let Some(cli) = tool_or_skip("gomoku_cli_match", &bin.join("c-gomoku-cli"), how) else {
        return;
    };
    let Some(wine) = tool_or_skip("gomoku_cli_match", &bin.join("wine"), how) else {
        return;
    };
    let lianzhu = env!("CARGO_BIN_EXE_pbrain-lianzhu");
    let mut cmd = Command::new(cli);
    cmd.args(["-engine", "name=lianzhu"])
        .arg(format!("cmd={lianzhu}"))
        .args(["-engine", "name=wine"])
        .arg(format!("cmd={}", wine.display()))
        .args(["-each", "tc=0/0.2", "-games", "2", "-repeat", "-rule", "0"])
        .args(["-boardsize", "15", "-concurrency", "1"]);
    let run = run_with_deadline(cmd, Duration::from_secs(150));
    let text = &run.stdout;
    let context = format!("stdout:\n{text}\nstderr:\n{}", run.stderr);
    assert!(run.status.success(), "{:?}\n{context}", run.status);
    println!("c-gomoku-cli ({:?}):\n{text}", run.elapsed);

    // `[0] Load engine: Lianzhu (version 0.1.0) by Lianzhu developers, ?`: our ABOUT read.
    let load = format!(
        "Load engine: Lianzhu (version {}) by Lianzhu developers",
        env!("CARGO_PKG_VERSION")
    );
    assert!(text.contains(&load), "{context}");
    // `[0] Finished game 1 (lianzhu vs wine): 1-0 {Black win by five connection}`.
    let finished: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("] Finished game "))
        .collect();
    assert_eq!(finished.len(), 2, "{context}");
    let pairings: Vec<bool> = finished
        .iter()
        .map(|l| l.contains("(lianzhu vs wine)"))
        .collect();
    assert!(
        pairings.contains(&true) && finished.iter().any(|l| l.contains("(wine vs lianzhu)")),
        "Lianzhu must play both colours\n{context}"
    );
    for l in &finished {
        assert!(GOOD_ENDS.iter().any(|e| l.ends_with(e)), "{l}\n{context}");
    }
    // The last score line counts both games.
    let score = text
        .lines()
        .rfind(|l| l.starts_with("Score of lianzhu vs wine: "))
        .unwrap_or_else(|| panic!("no score line\n{context}"));
    assert!(score.ends_with(" 2"), "{score}");
}
