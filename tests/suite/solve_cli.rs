//! The `solve` command, run in process on byte buffers through `solve::run`.

use clap::Parser;
use lianzhu::rules::Board;
use lianzhu::threat::verify_vcf_line;
use lianzhu::tools::solve::{run, SolveArgs};
use lianzhu::types::{Color, Rule};

fn solve(args: &SolveArgs, input: &str) -> Vec<String> {
    let mut out = Vec::new();
    run(args, input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Black h8 i8 j8 (open three), white a1 a2 a3; black to move.
const OPEN_THREE: &str = "h8a1i8a2j8a3";

#[test]
fn move_list_win_in_text() {
    let out = solve(&SolveArgs::new(Rule::Freestyle), OPEN_THREE);
    assert_eq!(out.len(), 1);
    let words: Vec<&str> = out[0].split_whitespace().collect();
    assert_eq!(words[0], "win", "{out:?}");
    assert_eq!(words[2], "nodes");
    assert!(words[3].parse::<u64>().unwrap() >= 1);
    assert_eq!(words[4], "ms");
    words[5].parse::<u64>().unwrap();
    // The line replays: four, block, five.
    let line = lianzhu::notation::parse_moves(words[1]).unwrap();
    assert_eq!(line.len(), 3);
    let mut b = Board::square(15).unwrap();
    for (i, p) in lianzhu::notation::parse_moves(OPEN_THREE)
        .unwrap()
        .into_iter()
        .enumerate()
    {
        b.place(
            p,
            if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            },
        );
    }
    verify_vcf_line(&b, Rule::Freestyle, Color::Black, &line).unwrap();
}

#[test]
fn explicit_position_none_and_side_to_move() {
    // White to move has nothing; black (not to move) would win.
    let out = solve(
        &SolveArgs::new(Rule::Standard),
        "B h8 i8 j8 | W a1 a2 | white\nB h8 i8 j8 | W a1 a2 | black\n",
    );
    assert_eq!(out.len(), 2);
    assert!(out[0].starts_with("none nodes "), "{out:?}");
    assert!(out[1].starts_with("win "), "{out:?}");
}

#[test]
fn json_output() {
    let args = SolveArgs {
        json: true,
        ..SolveArgs::new(Rule::Freestyle)
    };
    let out = solve(&args, &format!("{OPEN_THREE}\nh8\n"));
    assert!(
        out[0].starts_with("{\"result\":\"win\",\"line\":[\""),
        "{out:?}"
    );
    assert!(out[0].contains("],\"nodes\":") && out[0].contains(",\"ms\":"));
    assert!(out[0].ends_with('}'));
    let line_part = out[0].split('[').nth(1).unwrap().split(']').next().unwrap();
    assert_eq!(line_part.split(',').count(), 3);
    assert!(
        out[1].starts_with("{\"result\":\"none\",\"nodes\":"),
        "{out:?}"
    );
}

#[test]
fn malformed_lines_get_an_error_and_reading_goes_on() {
    let five = "B h8 i8 j8 k8 l8 | W a1 | white";
    let input = format!("h8h8\nzz9\nB h8 | W i9\nh16\n{five}\n\n# comment\nh8i9\n");
    let out = solve(&SolveArgs::new(Rule::Renju), &input);
    assert_eq!(out.len(), 6, "{out:?}");
    for l in &out[..5] {
        assert!(l.starts_with("error "), "{l}");
    }
    assert!(out[4].contains("already over"), "{out:?}");
    assert!(out[5].starts_with("none "), "{out:?}");
    let json = SolveArgs {
        json: true,
        ..SolveArgs::new(Rule::Renju)
    };
    let out = solve(&json, "B h8 | W \"x\n");
    assert!(out[0].starts_with("{\"error\":\""), "{out:?}");
    assert!(out[0].ends_with("\"}"));
}

#[test]
fn board_size_is_respected() {
    let small = SolveArgs {
        size: 9,
        ..SolveArgs::new(Rule::Freestyle)
    };
    let out = solve(&small, "j8\ne5a1f5a2g5a3\n");
    assert!(out[0].starts_with("error "), "{out:?}");
    assert!(out[1].starts_with("win "), "{out:?}");
}

#[test]
fn node_limit_gives_unknown() {
    // A 13-four renju puzzle (mintaka basic_vcf-2) cannot be proved in 5 nodes.
    let pos = "B d8 e8 f6 f10 h4 h8 j7 j10 k8 | W c8 e7 f9 g3 g6 h9 j11 l6 l9 | black";
    let tight = SolveArgs {
        max_nodes: 5,
        ..SolveArgs::new(Rule::Renju)
    };
    let out = solve(&tight, pos);
    assert!(out[0].starts_with("unknown nodes "), "{out:?}");
    let out = solve(&SolveArgs::new(Rule::Renju), pos);
    assert!(out[0].starts_with("win "), "{out:?}");
}

#[test]
fn vct_flag_finds_threat_wins() {
    // quintet test_vct_black: no VCF, but a VCT (f10 first).
    let pos = "B h8 h9 h10 i7 j9 | W g8 h7 i9 i11 j8 | black";
    let out = solve(&SolveArgs::new(Rule::Renju), pos);
    assert!(out[0].starts_with("none "), "{out:?}");
    let vct = SolveArgs {
        vct: true,
        max_nodes: 50_000,
        ..SolveArgs::new(Rule::Renju)
    };
    let out = solve(&vct, pos);
    assert!(out[0].starts_with("win "), "{out:?}");
}

#[test]
fn command_line_options_parse() {
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        solve: SolveArgs,
    }
    let cli = Cli::try_parse_from([
        "solve",
        "--rule",
        "caro5",
        "--size",
        "20",
        "--vct",
        "--max-nodes",
        "10",
        "--shortest",
        "--json",
    ])
    .unwrap();
    assert_eq!(
        cli.solve,
        SolveArgs {
            rule: Rule::CaroExact,
            size: 20,
            vct: true,
            max_nodes: 10,
            shortest: true,
            json: true
        }
    );
    let cli = Cli::try_parse_from(["solve", "--rule", "renju"]).unwrap();
    assert_eq!(cli.solve, SolveArgs::new(Rule::Renju));
    assert_eq!(
        Cli::try_parse_from(["solve", "--rule", "caro"])
            .unwrap()
            .solve
            .rule,
        Rule::Caro
    );
    assert!(Cli::try_parse_from(["solve", "--rule", "chess"]).is_err());
    assert!(
        Cli::try_parse_from(["solve"]).is_err(),
        "--rule is required"
    );
}
