//! Peak resident memory of the real binary (protocol.md, "Memory: `max_memory` and
//! `hash_size`"): with `INFO max_memory` sent after `START`, as every manager does, the peak
//! (`VmHWM` of `/proc/<pid>/status`) stays under the limit through a `BOARD` search and a
//! `YXNBEST` analysis, also when `INFO hash_size` asks for more than the limit allows.
//!
//! Linux only (it reads `/proc`); elsewhere the tests say so and pass.
//!
//! The table of protocol.md comes from the ignored test:
//! `cargo test --release --test suite -- --ignored --nocapture memory::memory_table`.

use crate::common::{notice, Brain, LineCheck};
use lianzhu::search::DEFAULT_MEMORY;
use std::time::Duration;

const MIB: u64 = 1 << 20;

/// One run: what the manager sends after `START`.
#[derive(Clone, Copy)]
struct Setting {
    size: usize,
    /// `INFO max_memory` in bytes, if sent.
    max_memory: Option<u64>,
    /// `INFO hash_size` in KiB, if sent.
    hash_kb: Option<u64>,
    threads: usize,
    /// `INFO rule`.
    rule: u32,
    /// `INFO timeout_turn`, for the BOARD search and again for the whole YXNBEST.
    turn_ms: u64,
    /// Lines of the `YXNBEST` that follows the `BOARD` search.
    nbest: usize,
}

impl Setting {
    /// The limit the peak must stay under: `max_memory`, or the default budget when it is
    /// 0 or not sent.
    fn limit(&self) -> u64 {
        match self.max_memory {
            Some(m) if m > 0 => m,
            _ => DEFAULT_MEMORY,
        }
    }
}

/// Peak resident memory of the running process `pid` in bytes (`VmHWM`).
fn peak_rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("read /proc");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM in /proc/<pid>/status");
    let kb: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .expect("VmHWM in kB");
    kb * 1024
}

fn is_move(line: &str, size: usize) -> bool {
    line.split_once(',').is_some_and(|(x, y)| {
        [x, y]
            .iter()
            .all(|v| v.parse::<usize>().is_ok_and(|v| v < size))
    })
}

/// An opening of five stones around the centre (h8 i9 h9 i7 g10 on 15x15, white to move):
/// no quick win for either side, so the search runs its whole turn.
fn stones(size: usize) -> Vec<String> {
    let c = (size / 2) as i64;
    let own = [(1, 1), (1, -1)];
    let theirs = [(0, 0), (0, 1), (-1, 2)];
    own.iter()
        .map(|d| (d, 1))
        .chain(theirs.iter().map(|d| (d, 2)))
        .map(|((dx, dy), f)| format!("{},{},{f}", c + dx, c + dy))
        .collect()
}

/// Peak resident memory in bytes after the `BOARD` search and after the `YXNBEST` that
/// follows it, in one process.
fn measure(s: Setting) -> (u64, u64) {
    let grace = Duration::from_millis(s.turn_ms * 3 + 10_000);
    let mut brain = Brain::start(grace, LineCheck::Strict);
    assert_eq!(brain.ask(&format!("START {}", s.size)), "OK");
    if let Some(m) = s.max_memory {
        brain.send(&format!("INFO max_memory {m}"));
    }
    if let Some(kb) = s.hash_kb {
        brain.send(&format!("INFO hash_size {kb}"));
    }
    brain.send(&format!("INFO thread_num {}", s.threads));
    brain.send(&format!("INFO rule {}", s.rule));
    brain.send(&format!("INFO timeout_turn {}", s.turn_ms));
    brain.send("INFO timeout_match 0");
    brain.send("INFO time_left 2147483647");
    brain.send("BOARD");
    for line in stones(s.size) {
        brain.send(&line);
    }
    brain.send("DONE");
    let mv = brain.reply();
    assert!(is_move(&mv, s.size), "BOARD answered {mv:?}");
    let after_board = peak_rss(brain.pid());
    brain.send(&format!("YXNBEST {}", s.nbest));
    let mv = brain.reply();
    assert!(is_move(&mv, s.size), "YXNBEST answered {mv:?}");
    let after_nbest = peak_rss(brain.pid());
    (after_board, after_nbest)
}

fn linux_or_skip(test: &str) -> bool {
    if cfg!(target_os = "linux") {
        return true;
    }
    notice(&format!(
        "SKIPPED memory::{test}: peak resident memory is read from /proc (Linux only)"
    ));
    false
}

/// The small limit of the suite: 64 MiB, with a `hash_size` of 256 MiB that it must cap.
fn assert_under_64_mb(size: usize) {
    let s = Setting {
        size,
        max_memory: Some(64 * MIB),
        hash_kb: Some(256 * 1024),
        threads: 2,
        rule: 0,
        turn_ms: 700,
        nbest: 3,
    };
    let (board, nbest) = measure(s);
    let peak = board.max(nbest);
    assert!(
        peak < s.limit(),
        "{size}x{size}: peak RSS {} MiB over the 64 MiB limit (after BOARD {} MiB, after YXNBEST {} MiB)",
        peak / MIB,
        board / MIB,
        nbest / MIB
    );
}

#[test]
fn peak_memory_stays_under_64_mb_on_15x15() {
    if linux_or_skip("peak_memory_stays_under_64_mb_on_15x15") {
        assert_under_64_mb(15);
    }
}

#[test]
fn peak_memory_stays_under_64_mb_on_32x32() {
    if linux_or_skip("peak_memory_stays_under_64_mb_on_32x32") {
        assert_under_64_mb(32);
    }
}

/// The table of protocol.md: every limit, both board sizes, 1 and 2 threads, a 1.5 s
/// `BOARD` search then a 1.5 s `YXNBEST 5`. About a minute; run it with `--ignored
/// --nocapture`.
#[test]
#[ignore = "about a minute: prints the memory table of protocol.md"]
fn memory_table() {
    if !linux_or_skip("memory_table") {
        return;
    }
    let limits: [(&str, Option<u64>, Option<u64>); 6] = [
        ("max_memory 64 MiB", Some(64 * MIB), None),
        (
            "max_memory 64 MiB + hash_size 262144",
            Some(64 * MIB),
            Some(256 * 1024),
        ),
        ("max_memory 350 MiB", Some(350 * MIB), None),
        ("max_memory 0 (default 350 MiB)", Some(0), None),
        ("hash_size 262144 (256 MiB)", None, Some(256 * 1024)),
        ("hash_size 1048576 (1 GiB)", None, Some(1024 * 1024)),
    ];
    println!("| limit | board | threads | peak RSS after BOARD | after YXNBEST 5 |");
    println!("|---|---|---|---|---|");
    let mut over = Vec::new();
    for (name, max_memory, hash_kb) in limits {
        for size in [15, 32] {
            for threads in [1, 2] {
                let s = Setting {
                    size,
                    max_memory,
                    hash_kb,
                    threads,
                    rule: 0,
                    turn_ms: 1500,
                    nbest: 5,
                };
                let (board, nbest) = measure(s);
                println!(
                    "| {name} | {size}x{size} | {threads} | {:.1} MiB | {:.1} MiB |",
                    board as f64 / MIB as f64,
                    nbest as f64 / MIB as f64
                );
                if board.max(nbest) >= s.limit() {
                    over.push(format!("{name} {size}x{size} {threads} threads"));
                }
            }
        }
    }
    assert!(over.is_empty(), "over the limit: {over:?}");
}
