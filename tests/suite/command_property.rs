//! Property tests of the protocol's line parser (`lianzhu::protocol::command`) over arbitrary
//! strings: it never panics, `INFO` never fails, quoted input stays short, case, spaces and a
//! trailing CR never matter, numbers read back exactly, and no sequence of lines leaves the
//! block reader in a state that swallows the next command.

use lianzhu::protocol::command::{
    parse, parse_info, Command, Info, Parser, ECHO_MAX_CHARS, MAX_TIME_MS,
};
use proptest::prelude::*;

/// Lines that look like protocol input: keywords, numbers, commas, whitespace, control and
/// non-ASCII characters, in any order.
fn protocolish() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("START".to_string()),
        Just("rectstart".to_string()),
        Just("BOARD".to_string()),
        Just("yxboard".to_string()),
        Just("SWAP2BOARD".to_string()),
        Just("YXBLOCK".to_string()),
        Just("DONE".to_string()),
        Just("TURN".to_string()),
        Just("INFO".to_string()),
        Just("END".to_string()),
        Just("timeout_turn".to_string()),
        Just(",".to_string()),
        Just("\r".to_string()),
        Just("\t".to_string()),
        Just(" ".to_string()),
        "-?[0-9]{1,25}",
        "[0-9]{1,3},[0-9]{1,3}(,[0-9])?",
        any::<String>(),
    ];
    prop::collection::vec(word, 0..8).prop_map(|w| w.concat())
}

/// The ERROR text of a result, if any.
fn error_text(r: &Result<Command, lianzhu::protocol::command::ParseError>) -> Option<&str> {
    r.as_ref().err().map(|e| e.0.as_str())
}

/// Longest error text: the fixed words plus twice the quoted maximum (two quoted values at
/// most), each cut to [`ECHO_MAX_CHARS`] characters of up to 4 bytes.
const MAX_ERROR_BYTES: usize = 120 + 2 * (ECHO_MAX_CHARS * 4 + 3);

proptest! {
    // A fixed seed and no regression files: every run checks the same 2,000 cases.
    #![proptest_config(ProptestConfig {
        cases: 2000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x004c_6961_6e7a_6875),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_line_parses_or_fails_cleanly(line in protocolish()) {
        let r = parse(&line);
        if let Some(why) = error_text(&r) {
            prop_assert!(!why.trim().is_empty());
            prop_assert!(why.len() <= MAX_ERROR_BYTES, "{} bytes: {why}", why.len());
        }
        // Whitespace around the line and a trailing CR never matter.
        prop_assert_eq!(parse(&format!(" \t{line} \r")), r);
    }

    #[test]
    fn long_input_is_quoted_short(prefix in "(START|TURN 1,|RECTSTART|BEGIN|7,|INFO rule )?", body in ".{100,3000}") {
        let r = parse(&format!("{prefix}{body}"));
        if let Some(why) = error_text(&r) {
            prop_assert!(why.len() <= MAX_ERROR_BYTES, "{} bytes", why.len());
        }
        if let Ok(Command::Info(Info::Invalid { why, .. })) = &r {
            prop_assert!(why.len() <= MAX_ERROR_BYTES, "{} bytes", why.len());
        }
    }

    #[test]
    fn info_never_fails_to_parse(args in protocolish()) {
        let r = parse(&format!("INFO {args}"));
        prop_assert!(matches!(r, Ok(Command::Info(_))), "{r:?}");
        // The key is case-insensitive.
        let (key, value) = args.trim().split_once(char::is_whitespace).unwrap_or((args.trim(), ""));
        prop_assert_eq!(
            parse_info(&format!("{} {value}", key.to_ascii_uppercase())),
            parse_info(&format!("{} {value}", key.to_ascii_lowercase()))
        );
    }

    #[test]
    fn keywords_are_case_insensitive(line in protocolish(), flips in prop::collection::vec(any::<bool>(), 32)) {
        // Only the keyword changes case; arguments keep theirs (INFO values, unknown words).
        let line = line.trim().to_string();
        let end = line.find(char::is_whitespace).unwrap_or(line.len());
        let keyword: String = line[..end]
            .chars()
            .enumerate()
            .map(|(i, c)| if flips[i % 32] { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() })
            .collect();
        let flipped = format!("{keyword}{}", &line[end..]);
        match (parse(&line), parse(&flipped)) {
            // An unknown command keeps the word as received.
            (Ok(Command::Unknown(a)), Ok(Command::Unknown(b))) => prop_assert!(a.eq_ignore_ascii_case(&b)),
            (Err(_), Err(_)) => {}
            (a, b) => prop_assert_eq!(a, b),
        }
    }

    #[test]
    fn numbers_read_back_exactly(x in any::<i64>(), y in any::<i64>(), n in 0..=i64::MAX) {
        prop_assert_eq!(parse(&format!("TURN {x},{y}")), Ok(Command::Turn(x, y)));
        prop_assert_eq!(parse(&format!("takeback {x}, {y}")), Ok(Command::Takeback(x, y)));
        prop_assert_eq!(parse(&format!("START {n}")), Ok(Command::Start(n as usize)));
        // Times are clamped to +-MAX_TIME_MS (so the clock's arithmetic cannot overflow).
        prop_assert_eq!(
            parse_info(&format!("time_left {x}")),
            Info::TimeLeft(x.clamp(-MAX_TIME_MS, MAX_TIME_MS))
        );
        if x < 0 {
            let (start, rect) = (format!("START {x}"), format!("RECTSTART {x},15"));
            prop_assert!(parse(&start).is_err());
            prop_assert!(parse(&rect).is_err());
        }
    }

    #[test]
    fn no_line_sequence_swallows_the_next_command(lines in prop::collection::vec(protocolish(), 0..30)) {
        let mut p = Parser::new();
        for l in &lines {
            // At most one error and one command per line.
            prop_assert!(p.feed(l).len() <= 2);
        }
        // Whatever came before (an open block, a lost DONE), a command line is read as itself.
        let out = p.feed("ABOUT");
        prop_assert_eq!(out.last(), Some(&Ok(Command::About)));
        prop_assert!(!p.in_block());
    }
}
