//! What a score means, for every layer that reads one: the mate scores the search gives a
//! found win or loss, the win rate a score stands for, and the text a score is shown as.
//!
//! It sits at the bottom (it imports nothing of the crate) because the search makes these
//! scores, the engine's Swap2 and opening decisions weigh them, and the protocol and the tools
//! print them: all of them read the same scale from here, none from a layer above itself.
//!
//! Scores are from the side to move's view. A win in `n` plies from the root (the final five
//! included) is `MATE - n`, a loss `-MATE + n`; every score beyond [`MATE_BOUND`] in magnitude
//! is such a mate score, every other one an evaluation (clamped well inside the bound).

/// Score of a win on the board now; `MATE - n` is a win in `n` plies.
pub const MATE: i32 = 30_000;
/// Scores beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;

/// Win in `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Loss in `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// The mate distance of a score in plies: `Some(n)` for a win in n plies, `Some(-n)` for a
/// loss in n plies, `None` for an ordinary score.
pub fn mate_plies(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some(MATE - score)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// Scale of the win-rate logistic: a score of `WINRATE_SCALE` is a win rate of about 73 %
/// (1 / (1 + e^-1)); 0 is 50 %.
pub const WINRATE_SCALE: f64 = 500.0;

/// The side to move's chance of winning for a score: 1 for a found win, 0 for a found loss,
/// else the logistic `1 / (1 + exp(-score / WINRATE_SCALE))`.
pub fn win_rate(score: i32) -> f64 {
    match mate_plies(score) {
        Some(n) if n >= 0 => 1.0,
        Some(_) => 0.0,
        None => 1.0 / (1.0 + (-f64::from(score) / WINRATE_SCALE).exp()),
    }
}

/// A score as text: `+M7` (we win in 7 plies), `-M4` (we lose in 4), else the number.
pub fn score_text(score: i32) -> String {
    match mate_plies(score) {
        Some(n) if n >= 0 => format!("+M{n}"),
        Some(n) => format!("-M{}", -n),
        None => score.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluation_text_and_win_rate() {
        assert_eq!(score_text(35), "35");
        assert_eq!(score_text(-120), "-120");
        assert_eq!(score_text(mate_in(7)), "+M7");
        assert_eq!(score_text(mated_in(4)), "-M4");
        assert_eq!(mate_plies(mate_in(1)), Some(1));
        assert_eq!(mate_plies(mated_in(2)), Some(-2));
        assert_eq!(mate_plies(MATE_BOUND - 1), None);
        assert_eq!(win_rate(mate_in(9)), 1.0);
        assert_eq!(win_rate(mated_in(9)), 0.0);
        assert!((win_rate(0) - 0.5).abs() < 1e-12);
        assert!((win_rate(500) - 0.731_058_578_6).abs() < 1e-9);
        assert!((win_rate(300) + win_rate(-300) - 1.0).abs() < 1e-12);
        assert!(win_rate(100) < win_rate(200) && win_rate(-200) < win_rate(-100));
    }
}
