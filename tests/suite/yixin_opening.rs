//! Yixin-Board's opening commands through the real binary: `yxsoosorvstep1..6` answer with
//! the `MESSAGE SOOSORV ...` lines Yixin-Board reads, every stone allowed by Soosõrv-8's
//! rules; `yxswap2step1..3` answer with `MESSAGE SWAP2 ...`; bad steps get one `ERROR` line
//! and the game is unchanged.

use lianzhu::rules::opening::game::{OpeningGame, Protocol, Step};
use lianzhu::types::Pos;
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs a whole session (`END` added) and returns the stdout lines.
fn session(input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-lianzhu"))
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start pbrain-lianzhu");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.write_all(b"END\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

const HEAD: &str = "START 15\nINFO max_node 20000\nINFO rule 4\n";

/// `x y` at the end of a reply line.
fn point_at_end(line: &str, skip_last: usize) -> Pos {
    let w: Vec<&str> = line.split_whitespace().collect();
    let n = w.len() - skip_last;
    Pos::new(w[n - 2].parse().unwrap(), w[n - 1].parse().unwrap())
}

fn block(cmd: &str, points: &[(usize, usize)]) -> String {
    let mut s = format!("{cmd}\n");
    for (x, y) in points {
        s.push_str(&format!("{x},{y}\n"));
    }
    s.push_str("done\n");
    s
}

fn xy(ps: &[Pos]) -> Vec<(usize, usize)> {
    ps.iter().map(|p| (p.x(), p.y())).collect()
}

#[test]
fn soosorv_steps_answer_as_yixin_board_reads_them() {
    let l = session(&format!("{HEAD}yxsoosorvstep1\n"));
    assert_eq!(l[0], "OK");
    assert_eq!(l.len(), 4, "{l:?}");
    let stones: Vec<Pos> = (0..3)
        .map(|i| {
            assert!(
                l[1 + i].starts_with(&format!("MESSAGE SOOSORV MOVE{} ", i + 1)),
                "{}",
                l[1 + i]
            );
            point_at_end(&l[1 + i], 0)
        })
        .collect();
    let mut g = OpeningGame::new(Protocol::Soosorv8, 15).unwrap();
    g.place_opening(&stones, None).unwrap();

    let opening = xy(&stones);
    let l = session(&format!("{HEAD}{}", block("yxsoosorvstep2", &opening)));
    assert!(
        l[1] == "MESSAGE SOOSORV SWAP1 YES" || l[1] == "MESSAGE SOOSORV SWAP1 NO",
        "{l:?}"
    );

    let l = session(&format!("{HEAD}{}", block("yxsoosorvstep3", &opening)));
    assert!(l[1].starts_with("MESSAGE SOOSORV MOVE4 "), "{l:?}");
    let n: usize = l[1].rsplit(' ').next().unwrap().parse().unwrap();
    assert!((1..=8).contains(&n));
    let fourth = point_at_end(&l[1], 1);
    g.swap(false).unwrap();
    g.place_fourth(fourth, Some(n)).unwrap();

    let mut four = opening.clone();
    four.push((fourth.x(), fourth.y()));
    let l = session(&format!(
        "{HEAD}{}",
        block(&format!("yxsoosorvstep4 {n}"), &four)
    ));
    assert!(
        l[1] == "MESSAGE SOOSORV SWAP2 YES" || l[1] == "MESSAGE SOOSORV SWAP2 NO",
        "{l:?}"
    );

    let l = session(&format!(
        "{HEAD}{}",
        block(&format!("yxsoosorvstep5 {n}"), &four)
    ));
    assert_eq!(l.len(), 1 + n + 2, "{l:?}");
    assert_eq!(l[1], "MESSAGE SOOSORV MOVE5 REFRESH");
    assert_eq!(l[n + 2], "MESSAGE SOOSORV MOVE5 DONE");
    let offers: Vec<Pos> = l[2..2 + n].iter().map(|s| point_at_end(s, 0)).collect();
    g.swap(false).unwrap();
    g.offer_fifths(&offers).unwrap();

    let mut all = four.clone();
    all.extend(xy(&offers));
    let l = session(&format!("{HEAD}{}", block("yxsoosorvstep6", &all)));
    assert!(l[1].starts_with("MESSAGE SOOSORV MOVE5C "), "{l:?}");
    g.pick_fifth(point_at_end(&l[1], 0)).unwrap();
    assert_eq!(g.step(), Step::Done);
}

#[test]
fn bad_soosorv_steps_get_an_error_and_change_nothing() {
    let input = format!(
        "{HEAD}{}{}{}{}yxsoosorvstep4\nBOARD\n7,7,2\ndone\n",
        // Black 3 outside the central 5x5.
        block("yxsoosorvstep2", &[(7, 7), (7, 8), (7, 10)]),
        // Symmetric offers (Kansei with the 4th on the axis: 6,8 and 8,8 mirror).
        block(
            "yxsoosorvstep6",
            &[(7, 7), (7, 8), (7, 9), (7, 10), (6, 8), (8, 8)]
        ),
        // N 9 is above Soosõrv-8's 8.
        block("yxsoosorvstep5 9", &[(7, 7), (7, 8), (7, 9), (6, 8)]),
        // Too few stones for step 3.
        block("yxsoosorvstep3", &[(7, 7), (7, 8)]),
    );
    let l = session(&input);
    assert_eq!(l[0], "OK");
    assert!(
        l[1].starts_with("ERROR") && l[1].contains("outside the central 5x5"),
        "{l:?}"
    );
    assert!(
        l[2].starts_with("ERROR") && l[2].contains("symmetric"),
        "{l:?}"
    );
    assert!(
        l[3].starts_with("ERROR") && l[3].contains("9 fifth-move offers"),
        "{l:?}"
    );
    assert!(l[4].starts_with("ERROR"), "{l:?}");
    assert!(
        l[5].starts_with("ERROR") && l[5].contains("number of fifth moves"),
        "{l:?}"
    );
    // The game is unchanged: the board still takes a full position and answers a move.
    assert_eq!(l.len(), 7, "{l:?}");
    assert!(l[6].contains(','), "{l:?}");
    // Before START there is no game.
    let l = session("yxsoosorvstep1\n");
    assert!(l[0].starts_with("ERROR"), "{l:?}");
}

#[test]
fn swap2_steps_answer_as_yixin_board_reads_them() {
    let l = session("START 15\nINFO max_node 20000\nyxswap2step1\n");
    assert_eq!(l.len(), 4, "{l:?}");
    for (i, line) in l[1..].iter().enumerate() {
        assert!(
            line.starts_with(&format!("MESSAGE SWAP2 MOVE{} ", i + 1)),
            "{line}"
        );
    }
    let l = session(
        "START 15\nINFO max_node 20000\nYXBOARD\n7,7,2\n7,8,1\n3,3,2\ndone\nyxswap2step2\n",
    );
    let r = &l[1..];
    let ok = r == ["MESSAGE SWAP2 SWAP1 YES"]
        || r == ["MESSAGE SWAP2 SWAP1 NO"]
        || (r.len() == 2
            && r[0].starts_with("MESSAGE SWAP2 MOVE4 ")
            && r[1].starts_with("MESSAGE SWAP2 MOVE5 "));
    assert!(ok, "{l:?}");
    let l = session(
        "START 15\nINFO max_node 20000\nYXBOARD\n7,7,1\n7,8,2\n8,8,1\n0,0,2\n14,14,1\ndone\nyxswap2step3\n",
    );
    assert!(
        l[1] == "MESSAGE SWAP2 SWAP2 YES" || l[1] == "MESSAGE SWAP2 SWAP2 NO",
        "{l:?}"
    );
    // A wrong number of stones for the step is an error.
    let l = session("START 15\nYXBOARD\n7,7,1\ndone\nyxswap2step2\n");
    assert!(
        l[1].starts_with("ERROR") && l[1].contains("needs 3 stones"),
        "{l:?}"
    );
}
