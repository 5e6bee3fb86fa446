//! The server binary over real sockets: garbage and oversized requests get an error (or a
//! closed connection) and the server goes on answering; an engine that cannot start is
//! reported on the state; a game against the real engine gets its replies.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::thread;
use std::time::{Duration, Instant};

fn get(url: &str) -> (u16, String) {
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent();
    let mut r = agent.get(url).call().expect("the server answers");
    (
        r.status().as_u16(),
        r.body_mut().read_to_string().expect("a body"),
    )
}

fn post(url: &str, body: &str) -> (u16, String) {
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent();
    let mut r = agent
        .post(url)
        .content_type("application/x-www-form-urlencoded")
        .send(body)
        .expect("the server answers");
    (
        r.status().as_u16(),
        r.body_mut().read_to_string().expect("a body"),
    )
}

/// Sends raw bytes and returns what came back (maybe nothing) before the server closed or 2 s
/// passed.
fn raw(base: &str, bytes: &[u8]) -> String {
    let addr = base.trim_start_matches("http://");
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
    let _ = s.write_all(bytes);
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn malformed_requests_do_not_stop_the_server() {
    let board = common::start(&["--engine", "/nonexistent/pbrain-x"]);
    let garbage: &[&[u8]] = &[
        b"\x00\x01\x02garbage\r\n\r\n",
        b"GET\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"POST /api/play HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\npt=h8",
        b"POST /api/play HTTP/1.1\r\nContent-Length: 5\r\n\r\npt",
        b"GET /%%%%/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
        b"BREW /api/state HTTP/1.1\r\nHost: x\r\n\r\n",
    ];
    for bytes in garbage {
        let answer = raw(&board.url, bytes);
        assert!(
            answer.is_empty() || answer.starts_with("HTTP/1.") && !answer.starts_with("HTTP/1.1 2"),
            "{:?} got {answer:?}",
            String::from_utf8_lossy(bytes)
        );
    }
    // Another site's page, or a DNS-rebound name: 403, nothing changes.
    let evil = raw(
        &board.url,
        b"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\nContent-Length: 5\r\n\r\npt=h8",
    );
    assert!(evil.starts_with("HTTP/1.1 403"), "{evil}");
    let rebound = raw(
        &board.url,
        b"GET /api/state HTTP/1.1\r\nHost: evil.example:80\r\n\r\n",
    );
    assert!(rebound.starts_with("HTTP/1.1 403"), "{rebound}");
    let long = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(100_000));
    raw(&board.url, long.as_bytes());
    let big = "moves=".to_string() + &"h8".repeat(40_000);
    assert_eq!(post(&format!("{}/api/position", board.url), &big).0, 413);
    // Still serving, and the failed engine is on the page.
    let (status, state) = get(&format!("{}/api/state", board.url));
    assert_eq!(status, 200);
    assert!(state.contains(r#""state":"failed""#), "{state}");
    assert!(state.contains(r#""moves":[]"#), "{state}");
    assert!(
        state.contains("the engine could not be started (/nonexistent/pbrain-x)"),
        "{state}"
    );
    assert_eq!(get(&format!("{}/", board.url)).0, 200);
}

#[test]
fn a_game_against_the_engine_gets_its_replies() {
    if !common::engine_built() {
        return;
    }
    let board = common::start(&[]);
    let api = |a: &str| format!("{}/api/{a}", board.url);
    assert_eq!(post(&api("settings"), "mode=black&move_ms=200").0, 200);
    assert_eq!(post(&api("new"), "rule=freestyle&size=15").0, 200);
    for (i, pt) in ["h8", "a1", "o15"].iter().enumerate() {
        let (status, body) = post(&api("play"), &format!("pt={pt}"));
        assert_eq!(status, 200, "{body}");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let (_, state) = get(&api("state"));
            let moves = state
                .split("\"moves\":[")
                .nth(1)
                .unwrap()
                .split(']')
                .next()
                .unwrap();
            if moves.split(',').count() == 2 * (i + 1) && state.contains(r#""thinking":null"#) {
                break;
            }
            assert!(Instant::now() < deadline, "no engine reply: {state}");
            thread::sleep(Duration::from_millis(50));
        }
    }
    let (_, state) = get(&api("state"));
    assert!(state.contains(r#""name":"Lianzhu "#), "{state}");
    assert!(
        state.contains(r#""lines":[{"multipv":1"#),
        "the engine's search is shown: {state}"
    );
}
