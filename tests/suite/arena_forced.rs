//! `lianzhu-match --forced-wins` end to end with a scripted engine (it always answers h8) and
//! a fake judge (a shell script that prints a chosen `Eval` in Rapfi's `MESSAGE` form): what
//! each engine is sent, which moves fail (occupied, renju foul, late), that a five needs no
//! judge, and how the judge's eval scores `win` and `save` lines.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_lianzhu-match");
const SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fake-engines/scripted.sh"
);

/// Five positions; the engine's h8 is legal in 1 and 5, occupied in 2, an overline (renju
/// foul) in 3 and a five in 4.
const POSITIONS: &str = "\
# kind rule moves side eval move
win\tfreestyle\ta1b1\tblack\t+M3\tc1
save\tfreestyle\th8a1\tblack\t-5\tb1
win\trenju\td8a1e8a3f8a5g8a7i8a9\tblack\t+M1\tc8

win\tstandard\th9a1h10a3h11a5h12a7\tblack\t+M1\th8
save\tfreestyle\ta1b1c1\twhite\t-5\td1
";

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lianzhu-forced-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A judge that logs what it receives and, after `DONE`, prints one `MESSAGE` line for each
/// of `evals` (Rapfi's form) and a move.
fn fake_judge(dir: &Path, evals: &[&str], log: &Path) -> String {
    let path = dir.join("judge.sh");
    let messages: String = evals
        .iter()
        .map(|e| format!("echo 'MESSAGE Depth 9-12 | Eval {e} | Time 5ms | A1 B2'; "))
        .collect();
    let script = format!(
        "while read -r l; do echo \"$l\" >>'{}'; case \"$l\" in \
         START*) echo OK ;; \
         DONE) {messages}echo 0,0 ;; \
         END) exit 0 ;; esac; done\n",
        log.display()
    );
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    (out.status.code().unwrap_or(-1), text)
}

/// Runs the five positions with the engine answering h8 and the judge printing `evals`.
fn score(dir: &Path, evals: &[&str]) -> (String, String, String, String) {
    let (file, out) = (dir.join("positions.txt"), dir.join("records.txt"));
    std::fs::write(&file, POSITIONS).unwrap();
    let (engine_log, judge_log) = (dir.join("engine.log"), dir.join("judge.log"));
    let _ = std::fs::remove_file(&engine_log);
    let _ = std::fs::remove_file(&judge_log);
    let engine = format!("FAKE_LOG={} sh {SCRIPT} 7,7", engine_log.display());
    let judge = fake_judge(dir, evals, &judge_log);
    let (code, text) = run(&[
        "--forced-wins",
        file.to_str().unwrap(),
        "--engine",
        &engine,
        "--name",
        "h8",
        "--judge",
        &judge,
        "--turn-ms",
        "400",
        "--judge-ms",
        "700",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{text}");
    let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
    (text, read(&out), read(&engine_log), read(&judge_log))
}

#[test]
fn moves_are_judged_and_the_judge_eval_scores_them() {
    let dir = temp_dir("score");
    // The judge's last eval counts.
    let (text, records, engine, judge) = score(&dir, &["+M1", "-M5"]);
    assert!(
        text.starts_with("Forced wins: 3 win + 2 save position(s); engine h8 at 400 ms, judge judge.sh at 700 ms"),
        "{text}"
    );
    assert_eq!(
        text.lines().last(),
        Some("Result: wins found 2/3 saves 1/2"),
        "{text}"
    );
    assert!(
        text.contains("1/5 line 2: win freestyle black to move: engine h8 ("),
        "{text}"
    );
    assert!(text.contains("judge -M5: found"), "{text}");
    assert!(
        text.contains(
            "line 3: save freestyle black to move: engine: illegal move: 7,7 (h8) is occupied: \
             not saved"
        ),
        "{text}"
    );
    assert!(text.contains("ms), renju foul 6: not found"), "{text}");
    assert!(
        text.contains("line 6: win standard black to move: engine h8 ("),
        "{text}"
    );
    assert!(text.contains("), five: found"), "{text}");
    assert!(
        text.contains("line 7: save freestyle white to move"),
        "{text}"
    );
    assert!(text.contains("judge -M5: saved"), "{text}");
    assert!(
        text.contains("Engine failures (late, illegal, foul, crash, garbage) 2, judge failures 0"),
        "{text}"
    );
    let ok: Vec<&str> = records
        .lines()
        .map(|l| l.rsplit('\t').next().unwrap())
        .collect();
    assert_eq!(ok, ["ok", "fail", "fail", "ok", "ok"], "{records}");
    let judged: Vec<&str> = records
        .lines()
        .map(|l| l.split('\t').nth(7).unwrap())
        .collect();
    assert_eq!(
        judged,
        ["-M5", "illegal", "foul-6", "five", "-M5"],
        "{records}"
    );
    assert!(
        records.starts_with("2\twin\tfreestyle\ta1b1\tblack\th8\t"),
        "{records}"
    );

    // The engine: a fresh game per position at its own turn, the stones as its own (1) and
    // the opponent's (2), in move order.
    assert_eq!(engine.matches("START 15").count(), 5, "{engine}");
    assert_eq!(
        engine.matches("INFO timeout_turn 400").count(),
        5,
        "{engine}"
    );
    assert_eq!(
        engine.matches("INFO timeout_match 0").count(),
        5,
        "{engine}"
    );
    assert!(engine.contains("INFO rule 4"), "{engine}");
    assert!(engine.starts_with("START 15\n"), "{engine}");
    assert!(engine.contains("BOARD\n0,0,1\n1,0,2\nDONE\n"), "{engine}");
    assert!(
        engine.contains("BOARD\n0,0,2\n1,0,1\n2,0,2\nDONE\n"),
        "{engine}"
    );
    // The judge: only asked where the move was legal and no five (lines 1 and 5), at the
    // judge time, about the position after the move from the opponent's side.
    assert_eq!(judge.matches("START 15").count(), 2, "{judge}");
    assert_eq!(judge.matches("INFO timeout_turn 700").count(), 2, "{judge}");
    assert!(
        judge.contains("BOARD\n0,0,2\n1,0,1\n7,7,2\nDONE\n"),
        "{judge}"
    );
    assert!(
        judge.contains("BOARD\n0,0,1\n1,0,2\n2,0,1\n7,7,2\nDONE\n"),
        "{judge}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_judge_win_or_a_plain_score_or_no_eval() {
    let dir = temp_dir("evals");
    // The judge wins after the move: the win is not found, the save not made (the five of
    // line 6 still counts).
    let (text, ..) = score(&dir, &["-M9", "+M3"]);
    assert_eq!(
        text.lines().last(),
        Some("Result: wins found 1/3 saves 0/2"),
        "{text}"
    );
    assert!(text.contains("judge +M3: not found"), "{text}");
    assert!(text.contains("judge +M3: not saved"), "{text}");
    // A score: not a found win, but a save.
    let (text, ..) = score(&dir, &["-1200"]);
    assert_eq!(
        text.lines().last(),
        Some("Result: wins found 1/3 saves 1/2"),
        "{text}"
    );
    // No eval from the judge: both judged positions fail, counted apart.
    let (text, ..) = score(&dir, &[]);
    assert_eq!(
        text.lines().last(),
        Some("Result: wins found 1/3 saves 0/2"),
        "{text}"
    );
    assert_eq!(text.matches("judge failed: no Eval").count(), 2, "{text}");
    assert!(text.contains("2, judge failures 2"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--failed-in`: a second run scores only the positions the first run's records mark
/// `fail`; records that name none, or are not records, are refused.
#[test]
fn failed_in_scores_only_the_positions_that_failed_before() {
    let dir = temp_dir("failed-in");
    let (_, records, ..) = score(&dir, &["-M5"]);
    let (file, first) = (dir.join("positions.txt"), dir.join("first.txt"));
    std::fs::write(&first, &records).unwrap();
    let judge = fake_judge(&dir, &["-M5"], &dir.join("judge2.log"));
    let engine = format!("sh {SCRIPT} 7,7");
    let args = |failed: &Path| {
        run(&[
            "--forced-wins",
            file.to_str().unwrap(),
            "--failed-in",
            failed.to_str().unwrap(),
            "--engine",
            &engine,
            "--judge",
            &judge,
            "--turn-ms",
            "400",
        ])
    };
    let (code, text) = args(&first);
    assert_eq!(code, 0, "{text}");
    // Lines 3 (h8 occupied) and 4 (a renju foul) failed; they alone are scored again.
    assert!(
        text.starts_with("Forced wins: 1 win + 1 save position(s)"),
        "{text}"
    );
    assert!(text.contains("1/2 line 3: save freestyle"), "{text}");
    assert!(text.contains("2/2 line 4: win renju"), "{text}");
    assert_eq!(
        text.lines().last(),
        Some("Result: wins found 0/1 saves 0/1"),
        "{text}"
    );
    let none = dir.join("none.txt");
    std::fs::write(&none, records.replace("\tfail\n", "\tok\n")).unwrap();
    let (code, text) = args(&none);
    assert_eq!(code, 2, "{text}");
    let garbage = dir.join("garbage.txt");
    std::fs::write(&garbage, "not a record\n").unwrap();
    let (code, text) = args(&garbage);
    assert_eq!(code, 2, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_late_engine_fails_the_position_and_bad_arguments_exit_2() {
    let dir = temp_dir("late");
    let file = dir.join("one.txt");
    std::fs::write(&file, "win\tfreestyle\ta1b1\tblack\t+M3\tc1\n").unwrap();
    let judge = fake_judge(&dir, &["-M1"], &dir.join("judge.log"));
    let slow = format!("sh {SCRIPT} sleep:1.5:7,7");
    let (code, text) = run(&[
        "--forced-wins",
        file.to_str().unwrap(),
        "--engine",
        &slow,
        "--judge",
        &judge,
        "--turn-ms",
        "100",
        "--tolerance-ms",
        "200",
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("engine: late reply: no move after"), "{text}");
    assert_eq!(
        text.lines().last(),
        Some("Result: wins found 0/1 saves 0/0"),
        "{text}"
    );
    let f = file.to_str().unwrap();
    for bad in [
        &["--forced-wins", f, "--engine", "x"][..],
        &[
            "--forced-wins",
            f,
            "--engine",
            "x",
            "--engine",
            "y",
            "--judge",
            "j",
        ],
        &[
            "--forced-wins",
            "/nonexistent",
            "--engine",
            "x",
            "--judge",
            "j",
        ],
        &["--engine", "x", "--engine", "y", "--judge", "j"],
    ] {
        let (code, text) = run(bad);
        assert_eq!(code, 2, "{bad:?}: {text}");
        assert!(!text.contains("Result:"), "{bad:?}: {text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `lianzhu-match --label`: every searched move's score becomes the judge's eval times the
/// scale (a mate becomes `+M`/`-M`), unscored stones and results stay, and the judge gets the
/// position before each searched move with the node limit.
#[test]
fn label_replaces_searched_scores_with_the_judges() {
    let dir = temp_dir("label");
    let (input, output, log) = (
        dir.join("games.txt"),
        dir.join("labelled.txt"),
        dir.join("judge.log"),
    );
    std::fs::write(
        &input,
        "# lianzhu-games v1\nfreestyle 15 B h8 i9 h9=+12 i10=-7 h10=+M\nstandard 15 D h8 a1=+3\n",
    )
    .unwrap();
    let judge = fake_judge(&dir, &["40", "-30"], &log);
    let out = Command::new(BIN)
        .args(["--label", input.to_str().unwrap(), output.to_str().unwrap()])
        .args([
            "--judge",
            &judge,
            "--nodes",
            "1234",
            "--scale",
            "2.5",
            "--workers",
            "1",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("Result: 3 scores, 0 mates, 0 failures"),
        "{err}"
    );
    let text = std::fs::read_to_string(&output).unwrap();
    let games: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    // The judge's last eval (-30) counts; 2.5 x -30 = -75. The proven win is not re-asked.
    assert_eq!(
        games,
        [
            "freestyle 15 B h8 i9 h9=-75 i10=-75 h10=+M",
            "standard 15 D h8 a1=-75"
        ]
    );
    let sent = std::fs::read_to_string(&log).unwrap();
    assert_eq!(sent.matches("INFO max_node 1234").count(), 3, "{sent}");
    // The position before i10: h8 i9 h9, so the judge (white to move) owns i9.
    assert!(sent.contains("7,7,2\n8,8,1\n7,8,2\nDONE"), "{sent}");
    let mut bad = Command::new(BIN);
    let bad = bad
        .args(["--label", input.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}
