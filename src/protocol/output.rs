//! The only writer of protocol lines (stdout in the binary).
//!
//! Invariants:
//! - Every line is one protocol reply: an upper-case keyword (`OK`, `ERROR`, `UNKNOWN`,
//!   `MESSAGE`, `FORBID`) or a move `x,y`, or the `ABOUT` line; it ends with LF only and is
//!   flushed at once.
//! - Free text never contains CR, LF or other control characters (they become spaces), and a
//!   `MESSAGE`/`ERROR`/`UNKNOWN` always carries text (Piskvork only skips `MESSAGE ` with a
//!   space and text after it).
//! - Once the session has ended (`END` was read) nothing more is written.
//! - `INFO ...` lines (Yixin-Board's detail records) only while `show_detail` has bit 2, and
//!   `MESSAGE REALTIME ...` lines only while it has bit 1; `show_detail` is 0 unless the GUI
//!   asks, so under Piskvork (which would read an `INFO` line as a move) there are none.
//!
//! A write error (the manager closed the pipe) is logged and otherwise ignored: the read side
//! notices the end of input and the loop exits.

#![allow(clippy::print_stdout)]

use crate::engine::{Line, ThinkReport};
use crate::notation::format_pos;
use crate::score::{score_text, win_rate};
use crate::types::Pos;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The `ABOUT` fields (values must not contain `,`, `=` or `"`). Only the fields we have a
/// real value for: Piskvork's tournament table shows `country`, `www` and `email` as given,
/// so a placeholder would be printed there as if it were a value.
pub const ABOUT_FIELDS: [(&str, &str); 3] = [
    ("name", "Lianzhu"),
    ("version", env!("CARGO_PKG_VERSION")),
    ("author", "Lianzhu developers"),
];

/// Writes protocol lines to `W` (stdout in the binary, a buffer in tests).
pub struct Output<W: Write> {
    sink: W,
    ended: Arc<AtomicBool>,
    show_detail: u8,
}

/// `show_detail` bit: realtime `MESSAGE REALTIME ...` lines.
pub const SHOW_REALTIME: u8 = 1;
/// `show_detail` bit: detailed `INFO ...` records.
pub const SHOW_INFO: u8 = 2;

/// The root-move activity a realtime line tells Yixin-Board about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Realtime {
    /// `POS x,y`: the search enters this root move.
    Pos(Pos),
    /// `DONE x,y`: the search of this root move is finished.
    Done(Pos),
    /// `BEST x,y`: the best root move so far.
    Best(Pos),
    /// `LOST x,y`: this root move loses.
    Lost(Pos),
    /// `REFRESH`: an iteration is finished; the GUI clears its "being searched" marks.
    Refresh,
}

/// What a progress line shows.
struct Progress<'a> {
    depth: u32,
    seldepth: u32,
    score: i32,
    nodes: u64,
    time_ms: u64,
    pv: &'a [Pos],
}

impl Progress<'_> {
    /// The selective depth shown: the deepest ply the search reached, and at least the depth
    /// and the length of the PV (a line decided before the search, e.g. a win the threat
    /// solver found, has depth 0 and its PV as the selective depth).
    fn seldepth(&self) -> usize {
        (self.seldepth.max(self.depth) as usize).max(self.pv.len())
    }
}

/// One `INFO` detail record: line `index` of `count`, with the totals of the whole command.
#[derive(Clone, Copy, Debug)]
pub struct Record<'a> {
    /// 0-based index of the line.
    pub index: usize,
    /// Number of lines the command reports.
    pub count: usize,
    /// The line's depth.
    pub depth: u32,
    /// The deepest ply its search reached.
    pub seldepth: u32,
    /// The line's score.
    pub score: i32,
    /// The line's nodes.
    pub nodes: u64,
    /// Nodes of every line so far.
    pub total_nodes: u64,
    /// Milliseconds since the command started.
    pub total_ms: u64,
    /// The principal variation.
    pub pv: &'a [Pos],
}

impl Output<io::Stdout> {
    /// Output to the process's stdout, silenced once `ended` is set.
    pub fn stdout(ended: Arc<AtomicBool>) -> Self {
        Output::new(io::stdout(), ended)
    }
}

impl<W: Write> Output<W> {
    /// Output to `sink`, silenced once `ended` is set.
    pub fn new(sink: W, ended: Arc<AtomicBool>) -> Self {
        Output {
            sink,
            ended,
            show_detail: 0,
        }
    }

    /// Sets Yixin-Board's `show_detail` bits ([`SHOW_REALTIME`], [`SHOW_INFO`]).
    pub fn set_show_detail(&mut self, bits: u8) {
        self.show_detail = bits;
    }

    /// True if `show_detail` has bit `bit`.
    pub fn shows(&self, bit: u8) -> bool {
        self.show_detail & bit != 0
    }

    /// The sink (for tests).
    pub fn into_inner(self) -> W {
        self.sink
    }

    fn line(&mut self, text: &str) {
        if self.ended.load(Ordering::SeqCst) {
            return;
        }
        log::debug!("> {text}");
        let result = self
            .sink
            .write_all(text.as_bytes())
            .and_then(|()| self.sink.write_all(b"\n"))
            .and_then(|()| self.sink.flush());
        if let Err(e) = result {
            log::warn!("cannot write a protocol line: {e}");
        }
    }

    fn keyword_text(&mut self, keyword: &str, text: &str) {
        let clean: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let clean = clean.trim();
        let clean = if clean.is_empty() { "-" } else { clean };
        self.line(&format!("{keyword} {clean}"));
    }

    /// `OK`.
    pub fn ok(&mut self) {
        self.line("OK");
    }

    /// `ERROR <why>`.
    pub fn error(&mut self, why: &str) {
        self.keyword_text("ERROR", why);
    }

    /// `UNKNOWN <text>`.
    pub fn unknown(&mut self, text: &str) {
        self.keyword_text("UNKNOWN", text);
    }

    /// `MESSAGE <text>`.
    pub fn message(&mut self, text: &str) {
        self.keyword_text("MESSAGE", text);
    }

    /// A move `x,y`.
    pub fn mv(&mut self, p: Pos) {
        self.line(&format!("{},{}", p.x(), p.y()));
    }

    /// A Swap2 answer: `SWAP`, or stones as space-separated `x,y` pairs.
    pub fn swap2(&mut self, answer: &str) {
        self.line(answer);
    }

    /// The `ABOUT` line: `name="Lianzhu", version="...", ...`.
    pub fn about(&mut self) {
        let line = ABOUT_FIELDS
            .iter()
            .map(|(k, v)| format!("{k}=\"{v}\""))
            .collect::<Vec<_>>()
            .join(", ");
        self.line(&line);
    }

    /// `FORBID xxyy...yy.` (two-digit x then y per point), or `FORBID .` for none.
    pub fn forbid(&mut self, points: &[Pos]) {
        let list: String = points
            .iter()
            .map(|p| format!("{:02}{:02}", p.x(), p.y()))
            .collect();
        self.line(&format!("FORBID {list}."));
    }

    /// A search progress line for a finished iteration, in the form of Rapfi's "ucilike"
    /// mode, which clients (pygomo-lib, GomocupJudge) parse field by field:
    /// `MESSAGE depth D-S ev V n N n/ms R tm T pv h8 i9`, with `multipv i` (1-based) after
    /// `D-S` for a line of a multi-move analysis. S is the selective depth (see
    /// `Progress::seldepth`); V the score, or `+M<n>`/`-M<n>` for a win/loss in n plies.
    /// Nothing may follow the PV (clients read every word after `pv` as a move) and nothing
    /// may stand between the fields, so the win rate is not here (it is in the `INFO WINRATE`
    /// detail record).
    pub fn report(&mut self, r: &ThinkReport, multipv: Option<usize>) {
        self.progress(
            &Progress {
                depth: r.depth,
                seldepth: r.seldepth,
                score: r.score,
                nodes: r.nodes,
                time_ms: r.time_ms,
                pv: &r.pv,
            },
            multipv,
        );
    }

    /// The result of a finished search (a line of a multi-move analysis with its `multipv`):
    /// a progress line (as [`Output::report`]) for its final depth, score and PV, with the
    /// nodes and time of the whole search.
    pub fn line_result(&mut self, l: &Line, multipv: Option<usize>) {
        self.progress(
            &Progress {
                depth: l.depth.max(0) as u32,
                seldepth: l.seldepth.max(0) as u32,
                score: l.score,
                nodes: l.nodes,
                time_ms: l.time_ms,
                pv: &l.pv,
            },
            multipv,
        );
    }

    fn progress(&mut self, p: &Progress<'_>, multipv: Option<usize>) {
        let pv: Vec<String> = p.pv.iter().map(|&m| format_pos(m)).collect();
        let multipv = multipv.map_or(String::new(), |i| format!(" multipv {i}"));
        self.message(&format!(
            "depth {}-{}{multipv} ev {} n {} n/ms {} tm {} pv {}",
            p.depth,
            p.seldepth(),
            score_text(p.score),
            p.nodes,
            p.nodes / p.time_ms.max(1),
            p.time_ms,
            pv.join(" ")
        ));
    }

    /// The answer to `YXSHOWINFO`: `MESSAGE Lianzhu <version>`, `MESSAGE INFO MAX_THREAD_NUM
    /// <n>` and `MESSAGE INFO MAX_HASH_SIZE <log2 of the largest hash in KiB>` (the two keys
    /// Yixin-Board reads to size its settings dialog).
    pub fn show_info(&mut self, max_threads: usize, max_hash_log2_kb: u32) {
        self.message(&format!("Lianzhu {}", env!("CARGO_PKG_VERSION")));
        self.message(&format!("INFO MAX_THREAD_NUM {max_threads}"));
        self.message(&format!("INFO MAX_HASH_SIZE {max_hash_log2_kb}"));
    }

    /// A realtime line `MESSAGE REALTIME ...` (raw protocol coordinates), only with
    /// [`SHOW_REALTIME`].
    pub fn realtime(&mut self, r: Realtime) {
        if !self.shows(SHOW_REALTIME) {
            return;
        }
        let text = match r {
            Realtime::Pos(p) => format!("POS {},{}", p.x(), p.y()),
            Realtime::Done(p) => format!("DONE {},{}", p.x(), p.y()),
            Realtime::Best(p) => format!("BEST {},{}", p.x(), p.y()),
            Realtime::Lost(p) => format!("LOST {},{}", p.x(), p.y()),
            Realtime::Refresh => "REFRESH".to_string(),
        };
        self.message(&format!("REALTIME {text}"));
    }

    /// A detail record, only with [`SHOW_INFO`]: `INFO PV i`, `INFO NUMPV n`, `INFO DEPTH d`,
    /// `INFO SELDEPTH s`, `INFO NODES n`, `INFO TOTALNODES n`, `INFO TOTALTIME ms`,
    /// `INFO SPEED nodes/s`, `INFO EVAL v`, `INFO WINRATE 0.xxxx`, `INFO BESTLINE x,y x,y ...`
    /// (raw protocol coordinates), `INFO PV DONE`. SELDEPTH is the selective depth of the
    /// progress line (the deepest ply, at least the depth and the PV's length).
    pub fn record(&mut self, r: &Record<'_>) {
        if !self.shows(SHOW_INFO) {
            return;
        }
        let seldepth = Progress {
            depth: r.depth,
            seldepth: r.seldepth,
            score: r.score,
            nodes: r.nodes,
            time_ms: r.total_ms,
            pv: r.pv,
        }
        .seldepth();
        let speed = r.total_nodes.saturating_mul(1000) / r.total_ms.max(1);
        let line: Vec<String> =
            r.pv.iter()
                .map(|p| format!("{},{}", p.x(), p.y()))
                .collect();
        let fields = [
            ("PV", r.index.to_string()),
            ("NUMPV", r.count.to_string()),
            ("DEPTH", r.depth.to_string()),
            ("SELDEPTH", seldepth.to_string()),
            ("NODES", r.nodes.to_string()),
            ("TOTALNODES", r.total_nodes.to_string()),
            ("TOTALTIME", r.total_ms.to_string()),
            ("SPEED", speed.to_string()),
            ("EVAL", score_text(r.score)),
            ("WINRATE", format!("{:.4}", win_rate(r.score))),
            ("BESTLINE", line.join(" ")),
            ("PV", "DONE".to_string()),
        ];
        for (key, value) in fields {
            self.line(format!("INFO {key} {value}").trim_end());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ThinkReport;

    fn capture(f: impl FnOnce(&mut Output<Vec<u8>>)) -> String {
        let mut out = Output::new(Vec::new(), Arc::new(AtomicBool::new(false)));
        f(&mut out);
        String::from_utf8(out.into_inner()).unwrap()
    }

    #[test]
    fn lines_end_in_lf_and_text_is_one_line() {
        assert_eq!(capture(|o| o.ok()), "OK\n");
        assert_eq!(capture(|o| o.error("bad\r\nthing")), "ERROR bad  thing\n");
        assert_eq!(capture(|o| o.message("")), "MESSAGE -\n");
        assert_eq!(capture(|o| o.mv(Pos::new(3, 12))), "3,12\n");
    }

    #[test]
    fn forbid_format() {
        assert_eq!(capture(|o| o.forbid(&[])), "FORBID .\n");
        assert_eq!(
            capture(|o| o.forbid(&[Pos::new(9, 12), Pos::new(10, 11)])),
            "FORBID 09121011.\n"
        );
    }

    #[test]
    fn about_values_are_clean() {
        let line = capture(|o| o.about());
        assert_eq!(
            line,
            format!(
                "name=\"Lianzhu\", version=\"{}\", author=\"Lianzhu developers\"\n",
                env!("CARGO_PKG_VERSION")
            )
        );
        for (_, v) in ABOUT_FIELDS {
            assert!(!v.contains([',', '=', '"']), "{v}");
        }
    }

    #[test]
    fn report_line() {
        let mut r = ThinkReport {
            depth: 3,
            seldepth: 7,
            score: -35,
            nodes: 5000,
            time_ms: 10,
            pv: vec![Pos::new(7, 7), Pos::new(8, 8)],
        };
        assert_eq!(
            capture(|o| o.report(&r, None)),
            "MESSAGE depth 3-7 ev -35 n 5000 n/ms 500 tm 10 pv h8 i9\n"
        );
        r.score = crate::score::MATE - 7;
        assert_eq!(
            capture(|o| o.report(&r, Some(2))),
            "MESSAGE depth 3-7 multipv 2 ev +M7 n 5000 n/ms 500 tm 10 pv h8 i9\n"
        );
        r.score = -crate::score::MATE + 4;
        r.time_ms = 0;
        assert_eq!(
            capture(|o| o.report(&r, None)),
            "MESSAGE depth 3-7 ev -M4 n 5000 n/ms 5000 tm 0 pv h8 i9\n"
        );
        // The selective depth is at least the depth and the PV's length.
        r.seldepth = 0;
        assert!(capture(|o| o.report(&r, None)).starts_with("MESSAGE depth 3-3 ev "));
        r.pv = vec![Pos::new(0, 0); 5];
        assert!(capture(|o| o.report(&r, None)).starts_with("MESSAGE depth 3-5 ev "));
    }

    #[test]
    fn line_result_is_a_progress_line() {
        let l = Line {
            mv: Pos::new(7, 9),
            score: -283,
            depth: 9,
            seldepth: 17,
            nodes: 38266,
            time_ms: 175,
            pv: vec![Pos::new(7, 9), Pos::new(8, 7)],
        };
        assert_eq!(
            capture(|o| o.line_result(&l, Some(1))),
            "MESSAGE depth 9-17 multipv 1 ev -283 n 38266 n/ms 218 tm 175 pv h10 i8\n"
        );
        // A move chosen before the search (the first stone, a found five): depth 0.
        let first = Line {
            mv: Pos::new(7, 7),
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time_ms: 0,
            pv: vec![Pos::new(7, 7)],
        };
        assert_eq!(
            capture(|o| o.line_result(&first, Some(3))),
            "MESSAGE depth 0-1 multipv 3 ev 0 n 0 n/ms 0 tm 0 pv h8\n"
        );
    }

    #[test]
    fn detail_lines_only_when_asked() {
        let pv = [Pos::new(7, 7), Pos::new(8, 6)];
        let rec = Record {
            index: 1,
            count: 3,
            depth: 9,
            seldepth: 13,
            score: 250,
            nodes: 1000,
            total_nodes: 3000,
            total_ms: 1500,
            pv: &pv,
        };
        let quiet = capture(|o| {
            o.realtime(Realtime::Pos(Pos::new(7, 7)));
            o.record(&rec);
        });
        assert_eq!(quiet, "");
        let realtime = capture(|o| {
            o.set_show_detail(SHOW_REALTIME);
            o.realtime(Realtime::Pos(Pos::new(7, 8)));
            o.realtime(Realtime::Lost(Pos::new(1, 2)));
            o.realtime(Realtime::Refresh);
            o.record(&rec);
        });
        assert_eq!(
            realtime,
            "MESSAGE REALTIME POS 7,8\nMESSAGE REALTIME LOST 1,2\nMESSAGE REALTIME REFRESH\n"
        );
        let detail = capture(|o| {
            o.set_show_detail(SHOW_INFO);
            o.realtime(Realtime::Best(Pos::new(7, 8)));
            o.record(&rec);
        });
        assert_eq!(
            detail,
            "INFO PV 1\nINFO NUMPV 3\nINFO DEPTH 9\nINFO SELDEPTH 13\nINFO NODES 1000\n\
             INFO TOTALNODES 3000\nINFO TOTALTIME 1500\nINFO SPEED 2000\nINFO EVAL 250\n\
             INFO WINRATE 0.6225\nINFO BESTLINE 7,7 8,6\nINFO PV DONE\n"
        );
    }

    #[test]
    fn silent_after_end() {
        let ended = Arc::new(AtomicBool::new(false));
        let mut out = Output::new(Vec::new(), ended.clone());
        out.ok();
        ended.store(true, Ordering::SeqCst);
        out.ok();
        assert_eq!(out.into_inner(), b"OK\n");
    }
}
