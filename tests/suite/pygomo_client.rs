//! pygomo-lib, a Python client library for Gomocup engines written outside this project
//! (<https://pypi.org/project/pygomo-lib/>, version 0.1.1), drives the release binary:
//! `tests/clients/pygomo_session.py` runs start, time and rule settings, a `TURN` with its
//! info callback, `YXNBEST 2`, `TAKEBACK` (a right and a wrong one), a second `TURN`, `ABOUT`
//! and `END`, and prints what pygomo parsed; this test checks it.
//!
//! pygomo reads a progress line with one regular expression (Rapfi's "ucilike" form,
//! `depth D-S [multipv i] ev V n N n/ms R tm T pv ...`); a line in any other form comes out
//! as a record with depth 0, which is what every record was before the progress lines took
//! that form.
//!
//! Python: `$LIANZHU_PYGOMO_PYTHON`, else `target/pygomo-venv/bin/python` (`.ci/run` creates
//! it: `python3 -m venv target/pygomo-venv` and `pip install pygomo-lib==0.1.1`). Missing:
//! skipped with a `SKIPPED` line, a failure under `CI=true`.

use crate::common::{run_with_deadline, tool_or_skip};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// One search-info record as pygomo parsed it.
#[derive(Debug)]
struct Rec {
    command: String,
    /// Handed to the info callback (else only in the PlayResult).
    callback: bool,
    depth: u32,
    sel: u32,
    multipv: u32,
    eval: String,
    nodes: u64,
    pv: Vec<(u32, u32)>,
}

fn parse_record(words: &[&str]) -> Rec {
    let field = |k: &str| {
        words
            .iter()
            .find_map(|w| w.strip_prefix(k)?.strip_prefix('='))
            .unwrap_or_else(|| panic!("no {k} in {words:?}"))
    };
    let num = |k: &str| {
        field(k)
            .parse::<u64>()
            .unwrap_or_else(|_| panic!("{words:?}"))
    };
    let pv = field("pv")
        .split(';')
        .filter(|m| !m.is_empty())
        .map(|m| {
            let (x, y) = m.split_once(',').expect("x,y");
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    Rec {
        command: words[1].to_string(),
        callback: words[2] == "cb",
        depth: num("depth") as u32,
        sel: num("sel") as u32,
        multipv: num("multipv") as u32,
        eval: field("eval").to_string(),
        nodes: num("nodes"),
        pv,
    }
}

/// `-?\d+`, `+M\d+` or `-M\d+`, as we write scores.
fn is_eval(v: &str) -> bool {
    let digits = v
        .strip_prefix("+M")
        .or_else(|| v.strip_prefix("-M"))
        .or_else(|| v.strip_prefix('-'))
        .unwrap_or(v);
    !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())
}

#[test]
fn pygomo_parses_every_progress_line() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let python = std::env::var_os("LIANZHU_PYGOMO_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/pygomo-venv/bin/python"));
    let how = "run .ci/run, or python3 -m venv target/pygomo-venv && \
               target/pygomo-venv/bin/pip install pygomo-lib==0.1.1";
    let Some(python) = tool_or_skip("pygomo_client", &python, how) else {
        return;
    };
    let mut cmd = Command::new(python);
    cmd.arg(root.join("tests/clients/pygomo_session.py"))
        .arg(env!("CARGO_BIN_EXE_pbrain-lianzhu"));
    let run = run_with_deadline(cmd, Duration::from_secs(90));
    let text = &run.stdout;
    let context = format!("stdout:\n{text}\nstderr:\n{}", run.stderr);
    assert!(run.status.success(), "{:?}\n{context}", run.status);
    // Everything pygomo parsed, for the log (`cargo test -- --nocapture`).
    println!("pygomo ({:?}):\n{text}", run.elapsed);

    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split(' ').collect()).collect();
    let said = |what: &str| -> Vec<String> {
        lines
            .iter()
            .filter(|w| w[0] == what)
            .map(|w| w[1..].join(" "))
            .collect()
    };
    assert_eq!(
        said("about"),
        [format!(
            "name=\"Lianzhu\", version=\"{}\", author=\"Lianzhu developers\"",
            env!("CARGO_PKG_VERSION")
        )],
        "{context}"
    );
    assert_eq!(
        said("ok"),
        ["start True", "takeback True", "takeback-wrong False"],
        "{context}"
    );
    assert_eq!(
        said("exit"),
        ["0"],
        "END ends the process with 0\n{context}"
    );
    let moves: Vec<(String, (u32, u32))> = lines
        .iter()
        .filter(|w| w[0] == "move")
        .map(|w| {
            let (x, y) = w[2].split_once(',').unwrap_or_else(|| panic!("{context}"));
            (w[1].to_string(), (x.parse().unwrap(), y.parse().unwrap()))
        })
        .collect();
    let commands: Vec<&str> = moves.iter().map(|m| m.0.as_str()).collect();
    assert_eq!(commands, ["TURN", "YXNBEST", "TURN"], "{context}");

    let records: Vec<Rec> = lines
        .iter()
        .filter(|w| w[0] == "record")
        .map(|w| parse_record(w))
        .collect();
    // Every record pygomo made of our output is complete: a depth, a selective depth no
    // smaller, a score, nodes and a PV of points on the board.
    assert!(!records.is_empty(), "{context}");
    for r in &records {
        assert!(r.depth > 0, "{r:?}\n{context}");
        assert!(r.sel >= r.depth, "{r:?}");
        assert!(is_eval(&r.eval), "{r:?}");
        assert!(r.nodes > 0, "{r:?}");
        assert!(!r.pv.is_empty(), "{r:?}");
        assert!(r.pv.iter().all(|&(x, y)| x < 15 && y < 15), "{r:?}");
    }
    // The PlayResult holds the records of the whole command, in order; the callback saw
    // them too, while the engine thought (all but those read together with the move).
    let per_command: Vec<Vec<&Rec>> = {
        let mut groups: Vec<Vec<&Rec>> = Vec::new();
        let mut prev: Option<&Rec> = None;
        for r in records.iter().filter(|r| !r.callback) {
            // The commands alternate (TURN, YXNBEST, TURN).
            if prev.is_none_or(|p| p.command != r.command) {
                groups.push(Vec::new());
            }
            groups.last_mut().unwrap().push(r);
            prev = Some(r);
        }
        groups
    };
    assert_eq!(per_command.len(), 3, "{context}");
    assert!(
        records.iter().any(|r| r.callback),
        "the callback saw no record\n{context}"
    );

    // TURN: one line per finished iteration (depths 1, 2, 3, ...), the last one's PV starts
    // with the move played.
    for (i, group) in [0, 2].map(|i| (i, &per_command[i])) {
        let depths: Vec<u32> = group.iter().map(|r| r.depth).collect();
        assert_eq!(
            depths,
            (1..=depths.len() as u32).collect::<Vec<_>>(),
            "{context}"
        );
        assert!(depths.len() >= 3, "{context}");
        assert!(group.iter().all(|r| r.multipv == 1), "{context}");
        assert_eq!(group.last().unwrap().pv[0], moves[i].1, "{context}");
    }
    // YXNBEST 2: the lines of multipv 1 then 2, each ending with its result; the move played
    // is the first line's, the second line's move another one.
    let nbest = &per_command[1];
    let order: Vec<u32> = nbest.iter().map(|r| r.multipv).collect();
    assert!(order.windows(2).all(|w| w[0] <= w[1]), "{order:?}");
    assert_eq!((order[0], *order.last().unwrap()), (1, 2), "{context}");
    let result = |i: u32| nbest.iter().rfind(|r| r.multipv == i).unwrap().pv[0];
    assert_eq!(result(1), moves[1].1, "{context}");
    assert_ne!(result(2), moves[1].1, "{context}");
}
