//! The HTTP side: the page's files and its small API, served by `tiny_http` on one thread.
//!
//! | request | what it does |
//! |---|---|
//! | `GET /`, `/board.js`, `/board.css` | the page (embedded in the binary) |
//! | `GET /api/state` | the state as JSON (also the page's heartbeat) |
//! | `POST /api/new` `rule=renju&size=15` | a new game |
//! | `POST /api/settings` `mode=black\|white\|analysis&move_ms=1000&analysis_ms=5000&nbest=3` | any of them |
//! | `POST /api/play` `pt=h8` | the user's stone |
//! | `POST /api/undo` | take back (to the user's turn) |
//! | `POST /api/position` `moves=h8 i9 h10` | a pasted move list |
//! | `POST /api/analyze`, `/api/stop`, `/api/bye` | analyse now, stop the search, the tab closed |
//!
//! Parameters come as an `application/x-www-form-urlencoded` body (or the query string). A
//! POST answers with the new state; a refused request answers 4xx with `{"error": "..."}`,
//! which the page shows: 400 for a malformed request, 404 for an unknown path, 405 for a
//! wrong method, 409 for a move the game refuses (an illegal click), 413 for a body over
//! [`MAX_BODY`], 403 for a request from another site's page ([`check_origin`]). Nothing a
//! client sends can panic the server.

use crate::game::{Pt, Refused, SIZES};
use crate::json::Json;
use crate::session::{Mode, Session, Shared, MOVE_MS, NBEST};
use lianzhu::types::Rule;
use std::io::Read;
use std::sync::PoisonError;

/// Largest request body read.
pub const MAX_BODY: usize = 64 * 1024;

const PAGE: &str = include_str!("../static/index.html");
const SCRIPT: &str = include_str!("../static/board.js");
const STYLE: &str = include_str!("../static/board.css");

/// An answer.
#[derive(Debug, PartialEq, Eq)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: String,
}

const JSON: &str = "application/json; charset=utf-8";

impl Reply {
    fn json(status: u16, value: &Json) -> Reply {
        Reply {
            status,
            content_type: JSON,
            body: value.to_string(),
        }
    }

    fn error(status: u16, why: impl Into<String>) -> Reply {
        Reply::json(status, &Json::Obj(vec![("error", Json::str(why.into()))]))
    }

    fn file(content_type: &'static str, body: &str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: body.to_string(),
        }
    }
}

/// Decodes `a=1&b=x+y%21` (form or query string). Invalid escapes are an error.
pub fn parse_form(text: &str) -> Result<Vec<(String, String)>, String> {
    let decode = |part: &str| -> Result<String, String> {
        let bytes = part.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' => {
                    let hex = bytes
                        .get(i + 1..i + 3)
                        .and_then(|h| std::str::from_utf8(h).ok())
                        .and_then(|h| u8::from_str_radix(h, 16).ok())
                        .ok_or_else(|| format!("bad %-escape in '{part}'"))?;
                    out.push(hex);
                    i += 2;
                }
                b => out.push(b),
            }
            i += 1;
        }
        String::from_utf8(out).map_err(|_| format!("'{part}' is not UTF-8"))
    };
    text.split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            Ok((decode(k)?, decode(v)?))
        })
        .collect()
}

struct Params(Vec<(String, String)>);

impl Params {
    fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn need(&self, key: &str) -> Result<&str, Reply> {
        self.get(key)
            .ok_or_else(|| Reply::error(400, format!("missing parameter '{key}'")))
    }

    fn number<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
        &self,
        key: &str,
        range: std::ops::RangeInclusive<T>,
    ) -> Result<Option<T>, Reply> {
        let Some(text) = self.get(key) else {
            return Ok(None);
        };
        match text.trim().parse::<T>() {
            Ok(n) if range.contains(&n) => Ok(Some(n)),
            _ => Err(Reply::error(
                400,
                format!(
                    "{key} must be a number from {} to {}, not '{text}'",
                    range.start(),
                    range.end()
                ),
            )),
        }
    }
}

/// Answers one request. `url` is the path with its query string, `body` the request body.
pub fn handle(shared: &Shared, method: &str, url: &str, body: &str) -> Reply {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    match (method, path) {
        ("GET", "/" | "/index.html") => return Reply::file("text/html; charset=utf-8", PAGE),
        ("GET", "/board.js") => return Reply::file("text/javascript; charset=utf-8", SCRIPT),
        ("GET", "/board.css") => return Reply::file("text/css; charset=utf-8", STYLE),
        _ => {}
    }
    let Some(action) = path.strip_prefix("/api/") else {
        return Reply::error(404, format!("no page at {path}"));
    };
    let known = [
        "state", "new", "settings", "play", "undo", "position", "analyze", "stop", "bye",
    ];
    if !known.contains(&action) {
        return Reply::error(404, format!("no API call {path}"));
    }
    let wanted = if action == "state" { "GET" } else { "POST" };
    if method != wanted {
        return Reply::error(405, format!("{path} takes {wanted}, not {method}"));
    }
    let mut pairs = match parse_form(query) {
        Ok(p) => p,
        Err(why) => return Reply::error(400, why),
    };
    match parse_form(body) {
        Ok(p) => pairs.extend(p),
        Err(why) => return Reply::error(400, why),
    }
    let params = Params(pairs);
    // A panic while the lock was held cannot happen in the handlers (they return errors), but
    // if one ever did, the state stays usable rather than taking the server down.
    let mut s = shared.lock().unwrap_or_else(PoisonError::into_inner);
    let result = match action {
        "state" => {
            s.seen();
            Ok(())
        }
        "new" => new_game(&mut s, &params),
        "settings" => settings(&mut s, &params),
        "play" => params.need("pt").and_then(|text| {
            let pt = Pt::parse(text, s.board_size()).map_err(|why| Reply::error(400, why))?;
            s.play(pt).map_err(refused)
        }),
        "undo" => s.undo().map_err(refused),
        "position" => params
            .need("moves")
            .and_then(|text| s.set_position(text).map_err(refused)),
        "analyze" => s.analyze().map_err(refused),
        "stop" => {
            s.stop();
            Ok(())
        }
        _ => {
            s.bye();
            Ok(())
        }
    };
    match result {
        Ok(()) => Reply::json(200, &s.state_json()),
        Err(reply) => reply,
    }
}

fn new_game(s: &mut Session, params: &Params) -> Result<(), Reply> {
    let rule_name = params.need("rule")?;
    let rule = Rule::from_name(rule_name)
        .ok_or_else(|| Reply::error(400, format!("unknown rule '{rule_name}'")))?;
    let size = params
        .number("size", 5..=32)?
        .ok_or_else(|| Reply::error(400, "missing parameter 'size'"))?;
    if !SIZES.contains(&size) {
        let why = format!("board size {size} is not offered (15 or 20)");
        return Err(Reply::error(400, why));
    }
    s.new_game(rule, size).map_err(refused)
}

fn settings(s: &mut Session, params: &Params) -> Result<(), Reply> {
    let mut settings = s.settings();
    if let Some(mode) = params.get("mode") {
        settings.mode =
            Mode::parse(mode).ok_or_else(|| Reply::error(400, format!("unknown mode '{mode}'")))?;
    }
    if let Some(ms) = params.number("move_ms", MOVE_MS)? {
        settings.move_ms = ms;
    }
    if let Some(ms) = params.number("analysis_ms", MOVE_MS)? {
        settings.analysis_ms = ms;
    }
    if let Some(n) = params.number("nbest", NBEST)? {
        settings.nbest = n;
    }
    s.set(settings);
    Ok(())
}

fn refused(Refused(why): Refused) -> Reply {
    Reply::error(409, why)
}

/// Whether a request may be answered. With the server on a loopback address only pages it
/// served itself may use it: the `Host` must name this machine (against DNS rebinding) and an
/// `Origin`, when the browser sends one, must be the server's own (against another site's page
/// posting moves to it).
pub fn check_origin(
    host: Option<&str>,
    origin: Option<&str>,
    loopback: bool,
) -> Result<(), String> {
    let host = host.unwrap_or("");
    if loopback {
        let name = match host.rsplit_once(':') {
            Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
            _ => host,
        };
        if !matches!(name, "127.0.0.1" | "localhost" | "[::1]") {
            return Err(format!("Host '{host}' is not this machine"));
        }
    }
    match origin {
        Some(o) if o != format!("http://{host}") => {
            Err(format!("requests from the page at {o} are not accepted"))
        }
        _ => Ok(()),
    }
}

/// Serves requests until the server fails. Each is answered before the next is read.
/// `loopback`: the server listens on a loopback address (see [`check_origin`]).
pub fn serve(server: &tiny_http::Server, shared: &Shared, loopback: bool) {
    for mut request in server.incoming_requests() {
        let method = request.method().as_str().to_ascii_uppercase();
        let url = request.url().to_string();
        let header = |name: &'static str| {
            let h = request.headers().iter().find(|h| h.field.equiv(name));
            h.map(|h| h.value.as_str().to_string())
        };
        let allowed = check_origin(
            header("Host").as_deref(),
            header("Origin").as_deref(),
            loopback,
        );
        let mut body = Vec::new();
        let read = request
            .as_reader()
            .take(MAX_BODY as u64 + 1)
            .read_to_end(&mut body);
        let reply = if let Err(why) = allowed {
            Reply::error(403, why)
        } else if read.is_err() {
            Reply::error(400, "the request body could not be read")
        } else if body.len() > MAX_BODY {
            Reply::error(413, format!("request body over {MAX_BODY} bytes"))
        } else {
            match String::from_utf8(body) {
                Ok(text) => handle(shared, &method, &url, &text),
                Err(_) => Reply::error(400, "the request body is not UTF-8"),
            }
        };
        if reply.status >= 400 {
            log::info!("{method} {url}: {} {}", reply.status, reply.body);
        }
        let header = |name: &str, value: &str| {
            tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes())
                .expect("a fixed ASCII header")
        };
        let response = tiny_http::Response::from_string(reply.body)
            .with_status_code(reply.status)
            .with_header(header("Content-Type", reply.content_type))
            .with_header(header("Cache-Control", "no-store"));
        if let Err(e) = request.respond(response) {
            log::debug!("answer not sent: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;

    fn session() -> Shared {
        Session::new(vec!["/nonexistent/pbrain-engine".into()])
    }

    fn error_of(reply: &Reply) -> &str {
        reply
            .body
            .strip_prefix("{\"error\":\"")
            .and_then(|b| b.strip_suffix("\"}"))
            .unwrap_or_else(|| panic!("not an error body: {}", reply.body))
    }

    #[test]
    fn forms_are_decoded() {
        assert_eq!(
            parse_form("a=1&b=h8+i9%2Ch10&&c").unwrap(),
            [
                ("a".into(), "1".into()),
                ("b".into(), "h8 i9,h10".into()),
                ("c".into(), String::new())
            ]
        );
        assert_eq!(parse_form("").unwrap(), []);
        assert!(parse_form("a=%4").is_err());
        assert!(parse_form("a=%zz").is_err());
        assert!(parse_form("a=%ff").is_err(), "not UTF-8");
        assert_eq!(parse_form("x=%E8%BF%9E").unwrap()[0].1, "连");
    }

    #[test]
    fn only_this_machines_pages_may_use_a_loopback_server() {
        let ok = |host, origin| check_origin(host, origin, true).is_ok();
        assert!(ok(Some("127.0.0.1:8515"), None));
        assert!(ok(Some("localhost:8515"), Some("http://localhost:8515")));
        assert!(ok(Some("[::1]:8515"), Some("http://[::1]:8515")));
        assert!(ok(Some("localhost"), None));
        assert!(!ok(Some("127.0.0.1:8515"), Some("http://evil.example")));
        assert!(!ok(Some("127.0.0.1:8515"), Some("http://127.0.0.1:9999")));
        assert!(!ok(
            Some("evil.example:8515"),
            Some("http://evil.example:8515")
        ));
        assert!(!ok(Some("127.0.0.1.evil.example"), None));
        assert!(!ok(None, None));
        assert_eq!(
            check_origin(Some("evil.example:8515"), None, true),
            Err("Host 'evil.example:8515' is not this machine".into())
        );
        // Served to the network (--host 0.0.0.0): any Host, but still no other site's page.
        assert!(check_origin(Some("board.lan:8515"), Some("http://board.lan:8515"), false).is_ok());
        assert!(check_origin(Some("board.lan:8515"), Some("http://evil.example"), false).is_err());
    }

    #[test]
    fn the_page_is_served() {
        let s = session();
        let page = handle(&s, "GET", "/", "");
        assert_eq!(
            (page.status, page.content_type),
            (200, "text/html; charset=utf-8")
        );
        assert!(page.body.contains("<svg id=\"board\""));
        assert_eq!(
            handle(&s, "GET", "/board.js?v=1", "").content_type,
            "text/javascript; charset=utf-8"
        );
        assert_eq!(handle(&s, "GET", "/board.css", "").status, 200);
        let state = handle(&s, "GET", "/api/state", "");
        assert_eq!((state.status, state.content_type), (200, JSON));
        assert!(state.body.starts_with("{\"version\":"));
    }

    #[test]
    fn bad_requests_get_4xx_and_a_reason() {
        let s = session();
        let cases: &[(&str, &str, &str, u16, &str)] = &[
            ("GET", "/secret", "", 404, "no page at /secret"),
            ("GET", "/api/nothing", "", 404, "no API call /api/nothing"),
            ("DELETE", "/", "", 404, "no page at /"),
            ("GET", "/api/play", "", 405, "/api/play takes POST, not GET"),
            (
                "POST",
                "/api/state",
                "",
                405,
                "/api/state takes GET, not POST",
            ),
            ("POST", "/api/play", "", 400, "missing parameter 'pt'"),
            ("POST", "/api/play", "pt=%zz", 400, "bad %-escape in '%zz'"),
            (
                "POST",
                "/api/play",
                "pt=z99",
                400,
                "'z99': point 'z99' is out of range",
            ),
            (
                "POST",
                "/api/play",
                "pt=p1",
                400,
                "p1 is off the 15x15 board",
            ),
            (
                "POST",
                "/api/play",
                "pt=h",
                400,
                "'h': column 'h' has no row number",
            ),
            (
                "POST",
                "/api/new",
                "rule=go&size=15",
                400,
                "unknown rule 'go'",
            ),
            (
                "POST",
                "/api/new",
                "rule=renju",
                400,
                "missing parameter 'size'",
            ),
            (
                "POST",
                "/api/new",
                "rule=renju&size=19",
                400,
                "board size 19 is not offered (15 or 20)",
            ),
            (
                "POST",
                "/api/new",
                "rule=renju&size=-1",
                400,
                "size must be a number from 5 to 32, not '-1'",
            ),
            (
                "POST",
                "/api/settings",
                "nbest=0",
                400,
                "nbest must be a number from 1 to 10, not '0'",
            ),
            (
                "POST",
                "/api/settings",
                "move_ms=1e9",
                400,
                "move_ms must be a number from 50 to 600000, not '1e9'",
            ),
            (
                "POST",
                "/api/settings",
                "mode=both",
                400,
                "unknown mode 'both'",
            ),
            (
                "POST",
                "/api/position",
                "moves=h8+i9+h8",
                409,
                "move 3: h8 is already taken",
            ),
            (
                "POST",
                "/api/position",
                "moves=h8+!",
                409,
                "expected a column letter at '!'",
            ),
            (
                "POST",
                "/api/undo",
                "",
                409,
                "there is no move to take back",
            ),
        ];
        for &(method, url, body, status, why) in cases {
            let reply = handle(&s, method, url, body);
            assert_eq!(
                (reply.status, error_of(&reply)),
                (status, why),
                "{method} {url} {body}"
            );
        }
        // The state is untouched and the session still plays.
        let ok = handle(
            &s,
            "POST",
            "/api/settings",
            "mode=analysis&move_ms=300&nbest=2",
        );
        assert_eq!(ok.status, 200, "{}", ok.body);
        assert!(
            ok.body.contains(r#""mode":"analysis","move_ms":300"#),
            "{}",
            ok.body
        );
        assert_eq!(handle(&s, "POST", "/api/play", "pt=H8").status, 200);
        let again = handle(&s, "POST", "/api/play", "pt=h8");
        assert_eq!(
            (again.status, error_of(&again)),
            (409, "h8 is already taken")
        );
    }

    #[test]
    fn renju_fouls_and_finished_games_are_refused() {
        let s = session();
        handle(&s, "POST", "/api/settings", "mode=analysis");
        let set = handle(
            &s,
            "POST",
            "/api/position",
            "moves=g8+a1+h7+a15+h9+o1+i8+o15",
        );
        assert_eq!(set.status, 200, "{}", set.body);
        let foul = handle(&s, "POST", "/api/play", "pt=h8");
        assert_eq!(
            (foul.status, error_of(&foul)),
            (409, "h8 is forbidden for black (double three)")
        );
        let five = handle(
            &s,
            "POST",
            "/api/position",
            "moves=h8+a1+i8+a2+j8+a3+k8+a4+l8",
        );
        assert!(five.body.contains(r#""outcome":"five","five":["h8","i8","j8","k8","l8"],"result":"black wins with five""#), "{}", five.body);
        let late = handle(&s, "POST", "/api/play", "pt=o15");
        assert_eq!(late.status, 409);
        let analyse = handle(&s, "POST", "/api/analyze", "");
        assert_eq!(error_of(&analyse), "the game is over: nothing to analyse");
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        let s = session();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let alphabet = b"=&%+h8i9abz0123456789 ,|\xc3\xa9/?.-";
        for _ in 0..2000 {
            let len = (next() % 24) as usize;
            let text: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            let text = String::from_utf8_lossy(&text).into_owned();
            let action =
                ["play", "new", "settings", "position", "undo", "state"][(next() % 6) as usize];
            let method = if next() % 4 == 0 { "GET" } else { "POST" };
            let reply = handle(&s, method, &format!("/api/{action}?{text}"), &text);
            assert!(
                matches!(reply.status, 200 | 400 | 405 | 409),
                "{method} {action} {text:?}: {reply:?}"
            );
        }
    }
}
