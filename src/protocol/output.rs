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
//! - Never an `INFO ...` line: Piskvork would read it as a move.
//!
//! A write error (the manager closed the pipe) is logged and otherwise ignored: the read side
//! notices the end of input and the loop exits.

#![allow(clippy::print_stdout)]

use crate::notation::format_pos;
use crate::types::Pos;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The `ABOUT` fields (values must not contain `,`, `=` or `"`).
pub const ABOUT_FIELDS: [(&str, &str); 6] = [
    ("name", "Lianzhu"),
    ("version", env!("CARGO_PKG_VERSION")),
    ("author", "Lianzhu developers"),
    ("country", "unknown"),
    ("www", "none"),
    ("email", "none"),
];

/// Writes protocol lines to `W` (stdout in the binary, a buffer in tests).
pub struct Output<W: Write> {
    sink: W,
    ended: Arc<AtomicBool>,
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
        Output { sink, ended }
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

    /// A search progress line: `MESSAGE depth D ev V n N n/ms S tm T pv h8 i9`.
    pub fn report(&mut self, r: &crate::engine::ThinkReport) {
        let speed = r.nodes / r.time_ms.max(1);
        let pv: Vec<String> = r.pv.iter().map(|&p| format_pos(p)).collect();
        self.message(&format!(
            "depth {} ev {} n {} n/ms {} tm {} pv {}",
            r.depth,
            r.score,
            r.nodes,
            speed,
            r.time_ms,
            pv.join(" ")
        ));
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
        assert!(line.starts_with("name=\"Lianzhu\", version=\""));
        for (_, v) in ABOUT_FIELDS {
            assert!(!v.contains([',', '=', '"']), "{v}");
        }
    }

    #[test]
    fn report_line() {
        let r = ThinkReport {
            depth: 3,
            score: -12,
            nodes: 5000,
            time_ms: 10,
            pv: vec![Pos::new(7, 7), Pos::new(8, 8)],
        };
        assert_eq!(
            capture(|o| o.report(&r)),
            "MESSAGE depth 3 ev -12 n 5000 n/ms 500 tm 10 pv h8 i9\n"
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
