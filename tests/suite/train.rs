//! The learned-evaluation pipeline: table files, the game format, self-play and the trainer.

use crate::common::{Rng, RULES};
use lianzhu::eval::shape;
use lianzhu::eval::tables::{
    pcode_of, pcode_shapes, EvalFileError, FILE_BYTES, PCODES, THREAT_MASKS, V1_FILE_BYTES,
    V1_PCODES,
};
use lianzhu::eval::{EvalBoard, EvalSet, EvalTables};
use lianzhu::rules::{self, Board};
use lianzhu::search::Searcher;
use lianzhu::train::data::{parse_game, parse_games, write_game, Game, Score, HEADER};
use lianzhu::train::fit::{self, Dataset, FitOptions};
use lianzhu::train::selfplay::{play_game, SelfplayConfig};
use lianzhu::types::{Color, Rule};
use std::sync::Arc;

/// Tables with every entry drawn at random (values within +-`span`).
pub(crate) fn random_tables(rule: Rule, rng: &mut Rng, span: u64) -> EvalTables {
    let mut v = || (rng.below(2 * span as usize + 1) as i64 - span as i64) as i16;
    let mut value = Box::new([[[0i16; PCODES]; 2]; 2]);
    let mut tempo = Box::new([[0i16; THREAT_MASKS]; 2]);
    let mut policy = Box::new([[[0i16; PCODES]; 2]; 2]);
    value.iter_mut().flatten().flatten().for_each(|x| *x = v());
    tempo.iter_mut().flatten().for_each(|x| *x = v());
    policy.iter_mut().flatten().flatten().for_each(|x| *x = v());
    EvalTables::from_values(rule, &value, &tempo, &policy)
}

#[test]
fn a_table_round_trips_through_its_file() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for rule in RULES {
        let t = random_tables(rule, &mut rng, 3000);
        let bytes = t.to_bytes();
        assert_eq!(bytes.len(), FILE_BYTES);
        let back = EvalTables::from_bytes(&bytes).unwrap();
        assert_eq!(back, t, "{rule}");
        assert_eq!(back.rule(), rule);
        // The hand-set tables' values are in the file's quarter units: their file is stable.
        let hand = EvalSet::hand().get(rule);
        let once = EvalTables::from_bytes(&hand.to_bytes()).unwrap();
        assert_eq!(EvalTables::from_bytes(&once.to_bytes()).unwrap(), once);
    }
}

#[test]
fn a_version_1_file_values_every_shape_as_its_line_pattern() {
    // A version-1 file whose i-th value (of 1365 pattern multisets) is i, tempo 7 everywhere.
    let mut bytes = b"LZEVAL\x00\x01\x04\x00\x00\x00".to_vec();
    let words = (0..4)
        .flat_map(|_| 0..V1_PCODES as i16)
        .chain(std::iter::repeat_n(7, 2 * THREAT_MASKS))
        .chain((0..4).flat_map(|_| (0..V1_PCODES as i16).map(|i| -i)));
    bytes.extend(words.flat_map(i16::to_le_bytes));
    assert_eq!(bytes.len(), V1_FILE_BYTES);
    let t = EvalTables::from_bytes_for(Rule::Renju, &bytes).unwrap();
    let (values, policies) = (t.values(), t.policies());
    let shapes = pcode_shapes();
    let mut seen = std::collections::HashSet::new();
    for (k, s) in shapes.iter().enumerate() {
        let of_patterns = pcode_of(shape::shape_key(s.map(shape::base)));
        for (c, r) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            assert_eq!(values[c][r][k], values[c][r][of_patterns], "pcode {k}");
            // Version 1 holds whole units: a value of i is 4i quarters.
            assert_eq!(values[c][r][k] % 4, 0, "pcode {k}");
            assert_eq!(4 * policies[c][r][k], -values[c][r][k], "pcode {k}");
        }
        seen.insert(values[0][0][k]);
    }
    assert_eq!(
        seen.len(),
        V1_PCODES,
        "each pattern multiset keeps its own value"
    );
    assert_eq!(t.tempos()[1][5], 7);
    // Written back, it is a version-3 file of the same tables.
    let v3 = t.to_bytes();
    assert_eq!((v3.len(), &v3[..8]), (FILE_BYTES, &b"LZEVAL\x00\x03"[..]));
    assert_eq!(EvalTables::from_bytes(&v3).unwrap(), t);
}

#[test]
fn a_version_2_file_holds_whole_units_and_version_3_quarters() {
    let mut rng = Rng(0x5eed);
    let t = random_tables(Rule::Standard, &mut rng, 3000);
    let v3 = t.to_bytes();
    // The same words under the version-2 magic: every value counts four times as much, the
    // tempo values and move scores are the same.
    let mut v2 = v3.clone();
    v2[7] = 2;
    let t2 = EvalTables::from_bytes(&v2).unwrap();
    let (a, b) = (t.values(), t2.values());
    for (x, y) in a
        .iter()
        .flatten()
        .flatten()
        .zip(b.iter().flatten().flatten())
    {
        assert_eq!(4 * i32::from(*x), i32::from(*y));
    }
    assert_eq!(t2.tempos(), t.tempos());
    assert_eq!(t2.policies(), t.policies());
    // A value of a quarter unit survives the trainer's rounding and the file.
    let shipped = EvalSet::builtin().get(Rule::Standard);
    let mut w = fit::params_of(&shipped);
    w[17] += 0.25;
    let fine = fit::tables_of(Rule::Standard, &w, shipped.policies());
    let back = EvalTables::from_bytes(&fine.to_bytes()).unwrap();
    assert_eq!(back, fine);
    assert_eq!(
        i32::from(back.values()[0][0][17]),
        i32::from(shipped.values()[0][0][17]) + 1
    );
}

#[test]
fn a_malformed_table_file_is_rejected() {
    let mut rng = Rng(77);
    let good = random_tables(Rule::Renju, &mut rng, 100).to_bytes();
    assert_eq!(
        EvalTables::from_bytes(&good[..good.len() - 1]),
        Err(EvalFileError::Length(good.len() - 1))
    );
    assert_eq!(EvalTables::from_bytes(&[]), Err(EvalFileError::Length(0)));
    let mut bad = good.clone();
    bad[0] = b'X';
    assert_eq!(EvalTables::from_bytes(&bad), Err(EvalFileError::Magic));
    let mut bad = good.clone();
    bad[8] = 3;
    assert_eq!(EvalTables::from_bytes(&bad), Err(EvalFileError::Rule(3)));
    assert_eq!(
        EvalTables::from_bytes_for(Rule::Freestyle, &good),
        Err(EvalFileError::WrongRule {
            file: Rule::Renju,
            wanted: Rule::Freestyle
        })
    );
    assert!(EvalTables::from_bytes_for(Rule::Renju, &good).is_ok());
}

#[test]
fn the_incremental_evaluation_with_learned_tables_matches_a_rebuild() {
    let mut rng = Rng(0x5eed_0f7a_b1e5);
    for rule in RULES {
        let tables = Arc::new(random_tables(rule, &mut rng, 500));
        let board = Board::square(15).unwrap();
        let mut eb = EvalBoard::with_tables(&board, rule, tables.clone());
        let mut evals = std::collections::HashSet::new();
        for step in 0..150 {
            let empties: Vec<_> = eb
                .playable()
                .iter()
                .copied()
                .filter(|&p| eb.is_legal(p))
                .collect();
            if eb.board().stone_count() > 0 && (step % 4 == 3 || empties.is_empty()) {
                eb.undo();
            } else {
                let p = empties[rng.below(empties.len())];
                if rules::is_five(eb.board(), p, eb.side_to_move(), rule) {
                    continue;
                }
                eb.make(p);
            }
            eb.check_consistency()
                .unwrap_or_else(|e| panic!("{rule}: {e}"));
            let fresh = EvalBoard::with_tables(eb.board(), rule, tables.clone());
            assert_eq!(eb.evaluate(), fresh.evaluate(), "{rule}");
            // Each empty cell's kept move scores are the tables' for its pcodes.
            for &p in eb.playable().iter().filter(|&&p| eb.board().is_empty(p)) {
                for c in [Color::Black, Color::White] {
                    for part in 0..2 {
                        let want = tables.policy(c.index(), part, eb.pcode(p, c));
                        assert_eq!(eb.move_score(p, c, part), i32::from(want), "{rule}");
                    }
                }
            }
            evals.insert(eb.evaluate());
        }
        assert!(evals.len() > 20, "{rule}: the tables change the evaluation");
    }
}

#[test]
fn a_game_line_round_trips_and_bad_lines_are_rejected() {
    let line = "renju 15 W h8 i9 j10=-35 k11=+12 a1=+M o15=-M";
    let game = parse_game(line).unwrap().unwrap();
    assert_eq!(game.rule, Rule::Renju);
    assert_eq!(game.winner, Some(Color::White));
    assert_eq!(game.moves.len(), 6);
    assert_eq!(game.moves[0].score, None);
    assert_eq!(game.moves[2].score, Some(Score::Eval(-35)));
    assert_eq!(game.moves[4].score, Some(Score::Mate(true)));
    assert_eq!(write_game(&game), line);
    assert_eq!(parse_game("# a comment").unwrap(), None);
    for bad in [
        "chess 15 B h8",
        "freestyle 4 B h8",
        "freestyle 15 X h8",
        "freestyle 15 B h8=x",
        "freestyle 15 B p1",
        "freestyle 15 B h8=",
    ] {
        assert!(parse_game(bad).is_err(), "{bad}");
    }
    assert!(
        parse_games("freestyle 15 B h8\n").is_err(),
        "the header is required"
    );
    let file = format!("{HEADER}\n# x\n{line}\n\n{line}\n");
    assert_eq!(parse_games(&file).unwrap(), vec![game.clone(), game]);
}

pub(crate) fn small_config(rule: Rule, nodes: u64) -> SelfplayConfig {
    SelfplayConfig {
        rule,
        size: 15,
        games: 0,
        nodes,
        openings: Vec::new(),
        random_moves: 3,
        max_plies: 225,
        threads: 1,
        seed: 5,
        eval: EvalSet::hand(),
    }
}

/// Replays `game` with the referee's rules: every move legal, and the result the rules say.
fn check_game(game: &Game) {
    let mut board = Board::square(game.size).unwrap();
    let mut winner = None;
    for (i, m) in game.moves.iter().enumerate() {
        assert!(winner.is_none(), "a move after the game was won");
        let me = board.side_to_move();
        assert!(
            rules::is_legal(&board, m.pos, me, game.rule),
            "move {i} illegal: {}",
            write_game(game)
        );
        if rules::is_five(&board, m.pos, me, game.rule) {
            winner = Some(me);
        }
        board.try_make(m.pos).unwrap();
    }
    assert_eq!(game.winner, winner, "{}", write_game(game));
}

#[test]
fn selfplay_games_are_legal_repeatable_and_scored() {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let config = small_config(rule, 1500);
        let mut searcher = Searcher::new(1 << 20);
        for n in 0..3 {
            let game = play_game(&config, &mut searcher, n);
            check_game(&game);
            assert!(game.moves.iter().any(|m| m.score.is_some()));
            assert!(game.moves.len() > 8);
            let again = play_game(&config, &mut searcher, n);
            assert_eq!(again, game, "a game depends only on its seed and number");
            let text = write_game(&game);
            assert_eq!(parse_game(&text).unwrap(), Some(game));
        }
    }
}

/// The positions of `games` self-play games of `rule` at 1,000 nodes a move, read with the
/// hand-set tables (returned too).
fn selfplay_data(rule: Rule, games: usize) -> (Dataset, Arc<EvalTables>) {
    let config = small_config(rule, 1000);
    let mut searcher = Searcher::new(1 << 20);
    let start = EvalSet::hand().get(rule);
    let mut data = Dataset::default();
    for n in 0..games {
        data.add_game(&play_game(&config, &mut searcher, n), &start);
    }
    (data, start)
}

/// The fit of the small-set tests: 60 steps of 2.0 against the results alone at `scale`.
fn small_fit(scale: f32) -> FitOptions {
    FitOptions {
        epochs: 60,
        lr: 2.0,
        l2: 1e-6,
        lambda: 1.0,
        scale,
    }
}

#[test]
fn training_on_a_small_fixed_set_lowers_the_loss() {
    let (data, start) = selfplay_data(Rule::Freestyle, 24);
    assert!(data.len() > 100, "{} positions", data.len());
    let w0 = fit::params_of(&start);
    // The starting parameters are the starting tables.
    for i in 0..data.len() {
        let d = data.eval_of(&w0, i) - data.start_eval(i) as f32;
        assert!(d.abs() <= 1.0, "position {i}: {d}");
    }
    let scale = fit::best_scale(&data, &w0);
    assert!((50.0..=5000.0).contains(&scale));
    let before = fit::loss(&data, &w0, scale, 1.0);
    let opt = small_fit(scale);
    let mut reports = Vec::new();
    let w = fit::fit(&data, &Dataset::default(), &w0, &opt, 20, &mut |r| {
        reports.push(r)
    });
    let after = fit::loss(&data, &w, scale, 1.0);
    assert!(after < before - 0.01, "loss {before} -> {after}");
    assert_eq!(reports.len(), 4);
    assert!(reports[3].train < reports[0].train);
    // The learned tables keep the fit through their file (whole units).
    let learned = fit::tables_of(Rule::Freestyle, &w, start.policies());
    let back = EvalTables::from_bytes(&learned.to_bytes()).unwrap();
    let rounded = fit::loss(&data, &fit::params_of(&back), scale, 1.0);
    assert!((rounded - after).abs() < 0.01, "{after} -> {rounded}");
}

#[test]
fn rescaled_tables_get_the_asked_logistic_scale_and_keep_their_loss() {
    let (data, start) = selfplay_data(Rule::Freestyle, 8);
    let mut w = fit::params_of(&start);
    let scale = fit::best_scale(&data, &w);
    let before = fit::loss(&data, &w, scale, 1.0);
    let factor = fit::rescale(&mut w, scale, 2.0 * scale);
    assert!((factor - 2.0).abs() < 1e-6, "factor {factor}");
    // Every value and tempo value doubled: sigmoid(eval / K) is the same at twice the scale.
    let rescaled = fit::best_scale(&data, &w);
    assert!(
        (rescaled / (2.0 * scale) - 1.0).abs() < 0.01,
        "{scale} doubled gave {rescaled}"
    );
    let after = fit::loss(&data, &w, 2.0 * scale, 1.0);
    assert!((after - before).abs() < 1e-4, "loss {before} -> {after}");
    // A scale that is not positive changes nothing.
    let w1 = w.clone();
    assert_eq!(fit::rescale(&mut w, 0.0, 500.0), 1.0);
    assert_eq!(w, w1);
}

#[test]
fn fitting_the_move_scores_raises_the_chosen_moves_probability() {
    use lianzhu::search::movegen::hand_policy;
    use lianzhu::train::policy::{self, PolicyOptions};
    let (data, start) = selfplay_data(Rule::Renju, 16);
    let p0 = policy::params_of(&hand_policy(Rule::Renju));
    let (before, top_before) = policy::policy_loss(&data, &p0);
    let opt = PolicyOptions {
        epochs: 80,
        lr: 200.0,
        l2: 0.0,
    };
    let p = policy::fit_policy(&data, &Dataset::default(), &p0, &opt, 0, &mut |_, _, _| {});
    let (after, top_after) = policy::policy_loss(&data, &p);
    assert!(after < before - 0.1, "loss {before} -> {after}");
    assert!(top_after >= top_before, "top-1 {top_before} -> {top_after}");
    // The scores reach the move generator through the tables.
    let learned = fit::tables_of(Rule::Renju, &fit::params_of(&start), &policy::policy_of(&p));
    assert!(learned.has_policy());
    let back = EvalTables::from_bytes(&learned.to_bytes()).unwrap();
    assert_eq!(back.policies(), learned.policies());
}

#[test]
fn the_built_in_tables_are_learned_for_freestyle_standard_and_renju() {
    let builtin = EvalSet::builtin();
    let board = Board::square(15).unwrap();
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let learned = builtin.get(rule);
        assert_eq!(learned.rule(), rule);
        assert_ne!(*learned, *EvalSet::hand().get(rule), "{rule}");
        // A position both evaluate differently, and the search's boards use the built-in.
        let mut eb = EvalBoard::with_tables(&board, rule, learned.clone());
        let mut hand = EvalBoard::new(&board, rule);
        let mut differs = false;
        for p in lianzhu::notation::parse_moves("h8i9h10i8g9i10").unwrap() {
            eb.make(p);
            hand.make(p);
            differs |= eb.evaluate() != hand.evaluate();
        }
        assert!(differs, "{rule}");
    }
    for rule in [Rule::Caro, Rule::CaroExact] {
        assert_eq!(*builtin.get(rule), *EvalSet::hand().get(rule), "{rule}");
    }
}

#[test]
fn large_boards_read_the_large_board_tables_unless_a_file_replaces_them() {
    let builtin = EvalSet::builtin();
    let (board15, board20) = (Board::square(15).unwrap(), Board::square(20).unwrap());
    let fs15 = builtin.for_board(Rule::Freestyle, &board15);
    let fs20 = builtin.for_board(Rule::Freestyle, &board20);
    assert_eq!(fs20.rule(), Rule::Freestyle);
    assert_eq!(*fs15, *builtin.get(Rule::Freestyle));
    assert_ne!(*fs20, *fs15);
    // Rules without large-board tables use their one set at every size.
    assert_eq!(
        *builtin.for_board(Rule::Standard, &board20),
        *builtin.get(Rule::Standard)
    );
    // A `--eval` file replaces its rule's tables at every size.
    let mut replaced = builtin.clone();
    replaced.set((*fs15).clone());
    assert_eq!(*replaced.for_board(Rule::Freestyle, &board20), *fs15);

    // The search reads them: at a fixed node count the same 20x20 position searches
    // differently with the two sets, and a 15x15 one the same.
    let moves = lianzhu::notation::parse_moves("h8i9j10i10h9h10").unwrap();
    let search = |eval: &EvalSet, side: usize| {
        let mut board = Board::square(side).unwrap();
        for &p in &moves {
            board.make(p);
        }
        let mut searcher = Searcher::new(1 << 20);
        searcher.set_eval(eval.clone());
        let limits = lianzhu::search::Limits {
            time: None,
            max_nodes: 20_000,
            ..Default::default()
        };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let r = searcher
            .think(&board, Rule::Freestyle, &limits, &stop, &mut |_| {})
            .expect("a move");
        (r.best, r.score, r.nodes)
    };
    assert_eq!(search(&builtin, 15), search(&replaced, 15));
    assert_ne!(search(&builtin, 20), search(&replaced, 20));
}

#[test]
fn match_records_read_as_unscored_games() {
    use lianzhu::train::data::parse_match_record;
    let rec = "h8i9h10i10h9 1-0 five game=3 black=a white=b opening=2";
    let g = parse_match_record(rec, Rule::Freestyle, 15)
        .unwrap()
        .unwrap();
    assert_eq!(g.winner, Some(Color::Black));
    assert_eq!(g.moves.len(), 5);
    assert!(g.moves.iter().all(|m| m.score.is_none()));
    let draw = "h8i9 1/2-1/2 board-full game=1 black=a white=b opening=1";
    assert_eq!(
        parse_match_record(draw, Rule::Renju, 15)
            .unwrap()
            .unwrap()
            .winner,
        None
    );
    // Games not ended by play are left out; malformed lines are errors.
    let late = "h8i9 0-1 late game=1 black=a white=b opening=1";
    assert_eq!(parse_match_record(late, Rule::Renju, 15).unwrap(), None);
    assert!(parse_match_record("h8i9 2-0 five", Rule::Renju, 15).is_err());
    assert!(parse_match_record("t8 1-0 five", Rule::Renju, 15).is_err());
    // Unscored positions count only when asked for, after the opening.
    let long = "h8a1j8a3l8a5h10a7j10a9 0-1 five game=1 black=a white=b opening=1";
    let g = parse_match_record(long, Rule::Freestyle, 15)
        .unwrap()
        .unwrap();
    let start = EvalSet::hand().get(Rule::Freestyle);
    let mut only_scored = Dataset::default();
    only_scored.add_game(&g, &start);
    assert!(only_scored.is_empty());
    let mut all = Dataset::default();
    all.add_game_with(&g, &start, true);
    // Four positions after the opening; the last is left out (white's a4 makes a double
    // four there, a position the search never evaluates).
    assert_eq!(all.len(), 10 - fit::UNSCORED_SKIP - 1);
}

#[test]
fn a_hidden_layer_starts_as_the_tables_and_fitting_lowers_its_loss() {
    use lianzhu::train::hidden::{self, HiddenLayer, HiddenOptions};
    let (data, start) = selfplay_data(Rule::Freestyle, 24);
    let w0 = fit::params_of(&start);
    let scale = fit::best_scale(&data, &w0);
    let tables = fit::loss(&data, &w0, scale, 1.0);
    let fresh = HiddenLayer::new(8, 1);
    assert_eq!(fresh.len(), fit::VALUES * 8 + 16);
    let start_loss = hidden::loss(&data, &w0, &fresh, scale, 1.0);
    assert!(
        (start_loss - tables).abs() < 1e-9,
        "{tables} vs {start_loss}"
    );
    let opt = small_fit(scale);
    let options = HiddenOptions {
        units: 8,
        lr: 0.01,
        out_lr: 5.0,
        seed: 1,
    };
    let mut reports = Vec::new();
    let (w, layer) = hidden::fit(
        &data,
        &Dataset::default(),
        &w0,
        &opt,
        &options,
        20,
        &mut |r| reports.push(r),
    );
    assert_eq!(reports.len(), 4);
    assert!((reports[0].train - tables).abs() < 1e-9);
    let after = hidden::loss(&data, &w, &layer, scale, 1.0);
    assert!(after < tables - 0.01, "loss {tables} -> {after}");
    assert!((reports[3].train - after).abs() < 1e-9);
    // The layer fits beyond what the tables reach alone in the same steps (on these 24 games
    // by 0.00095 to 0.01 of training loss, depending on the search that played them; the
    // least with 4675dca's).
    let alone = fit::fit(&data, &Dataset::default(), &w0, &opt, 0, &mut |_| {});
    let alone = fit::loss(&data, &alone, scale, 1.0);
    assert!(
        after < alone - 0.0005,
        "tables alone {alone}, with the layer {after}"
    );
}
