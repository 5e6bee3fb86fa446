//! `lianzhu-match --summarize FILE NAME [elo0,elo1,alpha,beta]`: the final figures of a match
//! from its `--games-out` records, for a run that was stopped before its end (or to check a
//! report). Games `2k+1` and `2k+2` (the same opening, colours swapped) form a pair.
//!
//! Output: games, W-L-D of `NAME`, score, Elo with its 95% interval, the pentanomial pair
//! counts, forfeits (crash, illegal, late, garbage, start-failed), W-L-D and score with each
//! colour and, with SPRT parameters, the LLR, its bounds and the decision. Same statistics as
//! a live run ([`super::stats`]).

use super::stats::{Pentanomial, SprtDecision, SprtParams, Wld};
use std::collections::BTreeMap;
use std::fmt::Write;

/// One game of a record, from one engine's side.
struct Game {
    number: u32,
    /// The engine's doubled points: 0, 1 or 2.
    points: u8,
    forfeit: bool,
    /// The engine had black.
    black: bool,
}

/// One record as a [`Game`] of `name`; `None` for a line that is not a record or a game
/// `name` did not play.
fn read_record(line: &str, name: &str) -> Option<Result<Game, String>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 6 {
        return None;
    }
    let field = |key: &str| words.iter().find_map(|w| w.strip_prefix(key));
    let (game, black, white) = (field("game=")?, field("black=")?, field("white=")?);
    let Ok(game) = game.parse::<u32>() else {
        return Some(Err(format!("bad game number in: {line}")));
    };
    let black_points = match words[1] {
        "1-0" => 2,
        "0-1" => 0,
        "1/2-1/2" => 1,
        other => return Some(Err(format!("bad result '{other}' in: {line}"))),
    };
    let points = if black == name {
        black_points
    } else if white == name {
        2 - black_points
    } else {
        return None;
    };
    let forfeit = matches!(
        words[2],
        "crash" | "illegal" | "late" | "garbage" | "start-failed"
    );
    Some(Ok(Game {
        number: game,
        points,
        forfeit,
        black: black == name,
    }))
}

/// Adds a game of doubled points `p` (0, 1 or 2) to `wld`.
fn count(wld: &mut Wld, p: u8) {
    match p {
        2 => wld.wins += 1,
        0 => wld.losses += 1,
        _ => wld.draws += 1,
    }
}

/// The report of the records in `text` from `name`'s side.
pub fn summarize(text: &str, name: &str, sprt: Option<SprtParams>) -> Result<String, String> {
    // Game number -> (doubled points, had black); a repeated number counts as its last record.
    let mut games: BTreeMap<u32, (u8, bool)> = BTreeMap::new();
    let mut forfeits = 0;
    for line in text.lines() {
        if let Some(record) = read_record(line, name) {
            let game = record?;
            games.insert(game.number, (game.points, game.black));
            forfeits += u32::from(game.forfeit);
        }
    }
    if games.is_empty() {
        return Err(format!("no game of '{name}' in the records"));
    }
    let mut wld = Wld::default();
    // With black, with white.
    let mut by_colour = [Wld::default(); 2];
    for &(p, black) in games.values() {
        count(&mut wld, p);
        count(&mut by_colour[usize::from(!black)], p);
    }
    let mut penta = Pentanomial::default();
    for (&g, &(a, _)) in &games {
        if g % 2 == 1 {
            if let Some(&(b, _)) = games.get(&(g + 1)) {
                penta.add(a, b);
            }
        }
    }
    let mut out = String::new();
    let (w, l, d) = (wld.wins, wld.losses, wld.draws);
    let _ = write!(out, "{name}: {} games, {w}-{l}-{d}", wld.games());
    let _ = write!(out, ", score {:.1}%", 100.0 * wld.score());
    if let Some(e) = wld.elo() {
        let _ = write!(out, ", Elo {:+.1} [{:+.1}, {:+.1}]", e.elo, e.low, e.high);
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "pairs {} [0 1/4 1/2 3/4 1] = {:?}; forfeits {forfeits}",
        penta.pairs(),
        penta.0
    );
    let colours: Vec<String> = ["black", "white"]
        .iter()
        .zip(&by_colour)
        .map(|(colour, c)| {
            let mut part = format!("with {colour} {}-{}-{}", c.wins, c.losses, c.draws);
            if c.games() > 0 {
                let _ = write!(part, ", score {:.1}%", 100.0 * c.score());
            }
            part
        })
        .collect();
    let _ = writeln!(out, "{}", colours.join("; "));
    if let Some(s) = sprt {
        let r = s.report(&penta);
        let decision = match r.decision {
            SprtDecision::H1 => "H1 accepted",
            SprtDecision::H0 => "H0 accepted",
            SprtDecision::Continue => "continue",
        };
        let _ = writeln!(
            out,
            "SPRT [{}, {}] alpha {} beta {}: LLR {:.2} ({:.2}, {:.2}) {decision}",
            s.elo0, s.elo1, s.alpha, s.beta, r.llr, r.lower, r.upper
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECORDS: &str = "\
h8i9 1-0 five game=1 black=new white=base opening=h8i9
h8i9 1-0 five game=2 black=base white=new opening=h8i9
h8j8 0-1 five game=3 black=new white=base opening=h8j8
h8j8 0-1 late game=4 black=base white=new opening=h8j8
h8 1/2-1/2 board-full game=5 black=new white=base opening=h8
";

    #[test]
    fn counts_games_pairs_and_forfeits_from_either_side() {
        let r = summarize(RECORDS, "new", None).unwrap();
        assert!(r.starts_with("new: 5 games, 2-2-1, score 50.0%"), "{r}");
        // Pairs: (1,2) = win + loss, (3,4) = loss + win; game 5 has no partner.
        assert!(
            r.contains("pairs 2 [0 1/4 1/2 3/4 1] = [0, 0, 2, 0, 0]; forfeits 1"),
            "{r}"
        );
        // "new" had black in games 1, 3, 5 (won, lost, drew) and white in 2, 4 (lost, won).
        assert!(
            r.contains("with black 1-1-1, score 50.0%; with white 1-1-0, score 50.0%"),
            "{r}"
        );
        let r = summarize(RECORDS, "base", SprtParams::parse("0,10,0.05,0.05").ok()).unwrap();
        assert!(r.starts_with("base: 5 games, 2-2-1"), "{r}");
        assert!(r.contains("SPRT [0, 10]") && r.contains("continue"), "{r}");
        assert!(summarize(RECORDS, "nobody", None).is_err());
        assert!(summarize("x 2-0 five game=1 black=a white=b opening=-", "a", None).is_err());
    }
}
