//! The shared opening suites parse for the rules they were made for, and a games file written
//! by the runner reads back as openings.

use crate::common;

use crate::common::data;
use lianzhu::arena::openings::parse_openings;
use lianzhu::types::Rule;

fn opening_lines(text: &str) -> usize {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .count()
}

#[test]
fn shared_suites_are_playable() {
    if !common::have_shared_data() {
        return;
    }
    for (file, rule) in [
        ("freestyle15.txt", Rule::Freestyle),
        ("standard15.txt", Rule::Standard),
        ("renju15.txt", Rule::Renju),
        ("renju26.txt", Rule::Renju),
        ("freestyle15.txt", Rule::Caro),
        ("freestyle15.txt", Rule::CaroExact),
    ] {
        let text = data(&format!("openings/{file}"));
        let list = parse_openings(&text, 15, rule).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(list.len(), opening_lines(&text), "{file}");
        assert!(list.len() >= 10, "{file}");
        // Every opening is also valid on a 20x20 board.
        assert_eq!(parse_openings(&text, 20, rule).unwrap().len(), list.len());
    }
    let renju26 = parse_openings(&data("openings/renju26.txt"), 15, Rule::Renju).unwrap();
    assert_eq!(renju26.len(), 26);
    assert!(renju26.iter().all(|o| o.moves.len() == 3));
    assert_eq!(renju26[0].comment, "Kansei (direct)");
}

#[test]
fn game_records_read_back_as_openings() {
    let records = "h8i9h10 1/2-1/2 move-limit game=1 black=a white=b opening=0\n\
                   - 0-1 crash game=2 black=b white=a opening=0\n";
    let list = parse_openings(records, 15, Rule::Freestyle).unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0].moves.len(), 3);
    assert!(list[1].moves.is_empty());
}
