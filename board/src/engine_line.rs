//! Reading one line of an engine's Gomocup output (pure; no I/O).
//!
//! What the board reads (protocol.md of Lianzhu, Rapfi's and Yixin-Board's dialect):
//! - `OK` (to `START`), `x,y` (a move), `FORBID 0707.` (black's forbidden points),
//!   `ERROR ...`, `UNKNOWN ...`, `name="Lianzhu", version="0.1.0", ...` (to `ABOUT`);
//! - progress lines `MESSAGE depth 12-21 [multipv 2] ev 35 n 120000 n/ms 900 tm 133 pv h8 i9`;
//! - realtime lines `MESSAGE REALTIME POS|DONE|BEST|LOST x,y` and `MESSAGE REALTIME REFRESH`;
//! - detail records `INFO KEY value` (`INFO PV 0` opens one, `INFO WINRATE 0.5437` in it);
//! - any other `MESSAGE` text.

/// A progress line: one finished iteration of a search (or a line's result).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// `multipv i` (1-based); 1 when the line has none.
    pub multipv: usize,
    /// `D-S` as written.
    pub depth: String,
    /// `35`, `+M7` or `-M4` as written.
    pub ev: String,
    /// Nodes so far.
    pub nodes: u64,
    /// Milliseconds since the search began.
    pub ms: u64,
    /// The principal variation in the engine's notation (`h8`), as written.
    pub pv: Vec<String>,
}

/// A realtime event of Yixin-Board's colouring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Realtime {
    /// The search entered this root move.
    Pos(usize, usize),
    /// The search of this root move is finished.
    Done(usize, usize),
    /// The best root move so far.
    Best(usize, usize),
    /// A root move proven lost.
    Lost(usize, usize),
    /// An iteration is finished.
    Refresh,
}

/// One line of engine output.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineLine {
    /// `OK`.
    Ok,
    /// A move `x,y`.
    Move(usize, usize),
    /// `FORBID ...`: the points as `x,y`.
    Forbid(Vec<(usize, usize)>),
    /// A progress line.
    Progress(Progress),
    /// A realtime line.
    Realtime(Realtime),
    /// `INFO KEY value` (the key upper-cased).
    Info(String, String),
    /// Any other `MESSAGE` text.
    Message(String),
    /// `ERROR` text.
    Error(String),
    /// `UNKNOWN` text.
    Unknown(String),
    /// The answer to `ABOUT`: the `name` and `version` fields.
    About { name: String, version: String },
    /// Anything else (kept for the log).
    Other(String),
}

/// Reads one line (without its line end).
pub fn parse(line: &str) -> EngineLine {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    match word.to_ascii_uppercase().as_str() {
        "OK" if rest.is_empty() => EngineLine::Ok,
        "FORBID" => {
            parse_forbid(rest).map_or_else(|| EngineLine::Other(line.into()), EngineLine::Forbid)
        }
        "ERROR" => EngineLine::Error(rest.into()),
        "UNKNOWN" => EngineLine::Unknown(rest.into()),
        "INFO" => {
            let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            EngineLine::Info(key.to_ascii_uppercase(), value.trim().into())
        }
        "MESSAGE" => parse_message(rest),
        _ => {
            if let Some(mv) = parse_point(line) {
                EngineLine::Move(mv.0, mv.1)
            } else if let Some(about) = parse_about(line) {
                about
            } else {
                EngineLine::Other(line.into())
            }
        }
    }
}

/// `x,y` with optional spaces around the numbers.
pub fn parse_point(text: &str) -> Option<(usize, usize)> {
    let (x, y) = text.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

fn parse_forbid(rest: &str) -> Option<Vec<(usize, usize)>> {
    let digits = rest.strip_suffix('.')?.trim();
    if digits.len() % 4 != 0 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number = |i: usize| digits[i..i + 2].parse::<usize>().ok();
    (0..digits.len())
        .step_by(4)
        .map(|i| Some((number(i)?, number(i + 2)?)))
        .collect()
}

fn parse_message(text: &str) -> EngineLine {
    let mut words = text.split_whitespace();
    match words.next() {
        Some("depth") => parse_progress(text)
            .map_or_else(|| EngineLine::Message(text.into()), EngineLine::Progress),
        Some("REALTIME") => {
            let kind = words.next().unwrap_or("");
            let point = words.next().and_then(parse_point);
            let event = match (kind, point) {
                ("REFRESH", _) => Some(Realtime::Refresh),
                ("POS", Some((x, y))) => Some(Realtime::Pos(x, y)),
                ("DONE", Some((x, y))) => Some(Realtime::Done(x, y)),
                ("BEST", Some((x, y))) => Some(Realtime::Best(x, y)),
                ("LOST", Some((x, y))) => Some(Realtime::Lost(x, y)),
                _ => None,
            };
            event.map_or_else(|| EngineLine::Message(text.into()), EngineLine::Realtime)
        }
        _ => EngineLine::Message(text.into()),
    }
}

/// `depth D-S [multipv i] ev E n N n/ms S tm T pv ...`: the fields by name, in any order,
/// every word after `pv` a move.
fn parse_progress(text: &str) -> Option<Progress> {
    let mut p = Progress {
        multipv: 1,
        depth: String::new(),
        ev: String::new(),
        nodes: 0,
        ms: 0,
        pv: Vec::new(),
    };
    let mut words = text.split_whitespace();
    while let Some(key) = words.next() {
        if key == "pv" {
            p.pv = words.map(str::to_string).collect();
            break;
        }
        let value = words.next()?;
        match key {
            "depth" => p.depth = value.into(),
            "multipv" => p.multipv = value.parse().ok()?,
            "ev" => p.ev = value.into(),
            "n" => p.nodes = value.parse().ok()?,
            "tm" => p.ms = value.parse().ok()?,
            _ => {}
        }
    }
    (!p.depth.is_empty() && !p.ev.is_empty() && p.multipv >= 1).then_some(p)
}

fn parse_about(line: &str) -> Option<EngineLine> {
    let field = |key: &str| -> Option<String> {
        let start = line.find(&format!("{key}=\""))? + key.len() + 2;
        let len = line[start..].find('"')?;
        Some(line[start..start + len].to_string())
    };
    let name = field("name")?;
    Some(EngineLine::About {
        name,
        version: field("version").unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies() {
        assert_eq!(parse("OK"), EngineLine::Ok);
        assert_eq!(parse(" 7,8\r"), EngineLine::Move(7, 8));
        assert_eq!(parse("7, 8"), EngineLine::Move(7, 8));
        assert_eq!(
            parse("FORBID 07070908."),
            EngineLine::Forbid(vec![(7, 7), (9, 8)])
        );
        assert_eq!(parse("FORBID ."), EngineLine::Forbid(vec![]));
        assert!(matches!(parse("FORBID 0707"), EngineLine::Other(_)));
        assert!(matches!(parse("FORBID 07x7."), EngineLine::Other(_)));
        assert_eq!(parse("ERROR no game"), EngineLine::Error("no game".into()));
        assert_eq!(parse("UNKNOWN yxfoo"), EngineLine::Unknown("yxfoo".into()));
        assert_eq!(
            parse(r#"name="Lianzhu", version="0.1.0", author="Lianzhu developers""#),
            EngineLine::About {
                name: "Lianzhu".into(),
                version: "0.1.0".into()
            }
        );
        assert!(matches!(parse("7,x"), EngineLine::Other(_)));
        assert!(matches!(parse(""), EngineLine::Other(_)));
    }

    #[test]
    fn progress_lines() {
        let line = "MESSAGE depth 12-21 multipv 2 ev -M7 n 120000 n/ms 900 tm 133 pv h8 i9 j10";
        let EngineLine::Progress(p) = parse(line) else {
            panic!("not progress: {line}");
        };
        assert_eq!(p.multipv, 2);
        assert_eq!(p.depth, "12-21");
        assert_eq!(p.ev, "-M7");
        assert_eq!((p.nodes, p.ms), (120000, 133));
        assert_eq!(p.pv, ["h8", "i9", "j10"]);
        let EngineLine::Progress(p) = parse("MESSAGE depth 1-3 ev 35 n 9 n/ms 9 tm 0 pv") else {
            panic!("not progress");
        };
        assert_eq!((p.multipv, p.pv.len()), (1, 0));
        assert!(matches!(
            parse("MESSAGE depth 12-21 ev"),
            EngineLine::Message(_)
        ));
        assert!(matches!(
            parse("MESSAGE depth x multipv y ev 1 pv"),
            EngineLine::Message(_)
        ));
        assert_eq!(
            parse("MESSAGE hash table cleared"),
            EngineLine::Message("hash table cleared".into())
        );
    }

    #[test]
    fn realtime_and_detail_lines() {
        assert_eq!(
            parse("MESSAGE REALTIME BEST 7,9"),
            EngineLine::Realtime(Realtime::Best(7, 9))
        );
        assert_eq!(
            parse("MESSAGE REALTIME POS 1,2"),
            EngineLine::Realtime(Realtime::Pos(1, 2))
        );
        assert_eq!(
            parse("MESSAGE REALTIME REFRESH"),
            EngineLine::Realtime(Realtime::Refresh)
        );
        assert!(matches!(
            parse("MESSAGE REALTIME BEST"),
            EngineLine::Message(_)
        ));
        assert_eq!(
            parse("INFO WINRATE 0.3070"),
            EngineLine::Info("WINRATE".into(), "0.3070".into())
        );
        assert_eq!(
            parse("INFO pv DONE"),
            EngineLine::Info("PV".into(), "DONE".into())
        );
    }
}
