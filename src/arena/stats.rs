//! Match statistics: W/L/D, score, logistic Elo with a 95% interval, and a pentanomial SPRT.
//!
//! All figures are from the first engine's point of view.
//! - Score `s = (W + D/2) / N`; Elo `= -400 log10(1/s - 1)`.
//! - The 95% interval uses the per-game (trinomial) variance
//!   `var = (W (1-s)² + D (1/2-s)² + L s²) / N`, standard error `sqrt(var / N)`, and maps
//!   `s ± 1.959964 · se` to Elo.
//! - The SPRT works on game pairs (the same opening with colours swapped), scored 0, 1/4, 1/2,
//!   3/4 or 1 per pair (the pentanomial counts LL, LD, DD+WL, WD, WW). Each empty cell counts
//!   as 0.001 pairs (fishtest's `regularize`). With `s0`/`s1` the expected scores of logistic
//!   `elo0`/`elo1`, the log-likelihood ratio is fishtest's generalised SPRT (`LLR_logistic`):
//!   `LLR = n · Σ p̂ᵢ ln(p1ᵢ / p0ᵢ)`, where `p̂` is the observed distribution of pair scores and
//!   `p0`/`p1` its maximum-likelihood neighbours with mean `s0`/`s1`
//!   (`pⱼᵢ = p̂ᵢ / (1 + λ (xᵢ - sⱼ))`, `λ` the root of `Σ p̂ᵢ (xᵢ - sⱼ) / (1 + λ (xᵢ - sⱼ)) = 0`,
//!   found by bisection). [`SprtParams::llr_quadratic`] is the Brownian approximation
//!   `n (s1 - s0)(2μ - s0 - s1) / (2σ²)` (fishtest's `LLR_alt2`), close to it while the score
//!   lies near `s0`..`s1` but far too eager on lopsided results, so it is not used for decisions.
//!   Bounds: `ln(β / (1-α))` and `ln((1-β) / α)`.

/// Quantile of the standard normal distribution for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Expected score for an Elo difference (logistic model).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score; ±infinity at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Wins, losses and draws of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    /// Wins.
    pub wins: u32,
    /// Losses.
    pub losses: u32,
    /// Draws.
    pub draws: u32,
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Point estimate.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Wld {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Score in 0..=1 (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Elo difference with a 95% interval (see the module docs); `None` with no games.
    pub fn elo(&self) -> Option<EloEstimate> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let se = (var / n).sqrt();
        Some(EloEstimate {
            elo: elo_from_score(s),
            low: elo_from_score(s - Z95 * se),
            high: elo_from_score(s + Z95 * se),
        })
    }
}

/// A pair's score for each pentanomial cell.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The regularised pair count and the observed distribution of pair scores, `None` without
/// pairs.
fn pair_distribution(penta: &Pentanomial) -> Option<(f64, [f64; 5])> {
    if penta.pairs() == 0 {
        return None;
    }
    let counts = penta.0.map(|c| if c == 0 { 1e-3 } else { c as f64 });
    let n: f64 = counts.iter().sum();
    Some((n, counts.map(|c| c / n)))
}

/// The distribution closest (maximum likelihood) to `probs` whose mean pair score is `s`
/// (0 < s < 1; every `probs` entry positive).
fn mle_with_mean(probs: &[f64; 5], s: f64) -> [f64; 5] {
    let a = PAIR_SCORES.map(|x| x - s);
    // f(λ) = Σ pᵢ aᵢ / (1 + λ aᵢ) falls from +∞ to -∞ on (-1/max a, -1/min a).
    let f = |l: f64| -> f64 { (0..5).map(|i| probs[i] * a[i] / (1.0 + l * a[i])).sum() };
    let (mut lo, mut hi) = (-1.0 / a[4], -1.0 / a[0]);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let l = 0.5 * (lo + hi);
    let mut out = [0.0; 5];
    for i in 0..5 {
        out[i] = probs[i] / (1.0 + l * a[i]);
    }
    out
}

/// Pair counts by the first engine's pair score: `[0, 1/4, 1/2, 3/4, 1]`, i.e. LL, LD,
/// DD or WL, WD, WW.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Adds a pair given the first engine's points in its two games (0, 1/2 or 1 each, doubled
    /// to 0, 1, 2 so the sum 0..=4 is the cell).
    pub fn add(&mut self, doubled_points_a: u8, doubled_points_b: u8) {
        let cell = (doubled_points_a + doubled_points_b) as usize;
        self.0[cell.min(4)] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }
}

/// SPRT hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtParams {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// The SPRT state after some pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// LLR at or above the upper bound: H1 (elo1) accepted.
    H1,
    /// LLR at or below the lower bound: H0 (elo0) accepted.
    H0,
    /// Keep playing.
    Continue,
}

/// An SPRT reading.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtReport {
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Lower bound `ln(β / (1-α))`.
    pub lower: f64,
    /// Upper bound `ln((1-β) / α)`.
    pub upper: f64,
    /// What the LLR says.
    pub decision: SprtDecision,
}

impl SprtParams {
    /// Parses `elo0,elo1,alpha,beta`.
    pub fn parse(text: &str) -> Result<SprtParams, String> {
        let v: Vec<f64> = text
            .split(',')
            .map(|t| t.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|e| format!("bad --sprt '{text}': {e}"))?;
        let [elo0, elo1, alpha, beta] = v[..] else {
            return Err(format!("--sprt needs elo0,elo1,alpha,beta; got '{text}'"));
        };
        let rate = 0.0..0.5;
        if !(elo0 < elo1
            && rate.contains(&alpha)
            && rate.contains(&beta)
            && alpha > 0.0
            && beta > 0.0)
        {
            return Err(format!(
                "--sprt '{text}': need elo0 < elo1 and 0 < alpha, beta < 0.5"
            ));
        }
        Ok(SprtParams {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The LLR bounds `(lower, upper)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The exact generalised LLR of the pentanomial counts (see the module docs).
    pub fn llr(&self, penta: &Pentanomial) -> f64 {
        let Some((n, probs)) = pair_distribution(penta) else {
            return 0.0;
        };
        let p0 = mle_with_mean(&probs, expected_score(self.elo0));
        let p1 = mle_with_mean(&probs, expected_score(self.elo1));
        n * (0..5)
            .map(|i| probs[i] * (p1[i].ln() - p0[i].ln()))
            .sum::<f64>()
    }

    /// The quadratic (Brownian) approximation of the LLR (see the module docs).
    pub fn llr_quadratic(&self, penta: &Pentanomial) -> f64 {
        let Some((n, probs)) = pair_distribution(penta) else {
            return 0.0;
        };
        let mean: f64 = probs.iter().zip(PAIR_SCORES).map(|(p, x)| p * x).sum();
        let var: f64 = probs
            .iter()
            .zip(PAIR_SCORES)
            .map(|(p, x)| p * (x - mean).powi(2))
            .sum();
        let s0 = expected_score(self.elo0);
        let s1 = expected_score(self.elo1);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The LLR, bounds and decision.
    pub fn report(&self, penta: &Pentanomial) -> SprtReport {
        let llr = self.llr(penta);
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            SprtDecision::H1
        } else if llr <= lower {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        };
        SprtReport {
            llr,
            lower,
            upper,
            decision,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_by_hand() {
        // W 30, L 20, D 50: N = 100, s = (30 + 25) / 100 = 0.55.
        // Elo = -400 log10(1/0.55 - 1) = -400 log10(0.818182) = -400 * -0.0871502 = 34.860.
        // var = (30 * 0.45² + 50 * 0.05² + 20 * 0.55²) / 100 = (6.075 + 0.125 + 6.05) / 100
        //     = 0.1225; se = sqrt(0.1225 / 100) = 0.035; 1.959964 * 0.035 = 0.0685987.
        // high: s = 0.6185987, 1/s - 1 = 0.616558, log10 = -0.210024, Elo = +84.010.
        // low:  s = 0.4814013, 1/s - 1 = 1.077268, log10 = +0.032324, Elo = -12.930.
        let w = Wld {
            wins: 30,
            losses: 20,
            draws: 50,
        };
        assert_eq!(w.games(), 100);
        assert!(close(w.score(), 0.55, 1e-12));
        let e = w.elo().unwrap();
        assert!(close(e.elo, 34.860, 1e-3), "{e:?}");
        assert!(close(e.high, 84.010, 1e-2), "{e:?}");
        assert!(close(e.low, -12.930, 1e-2), "{e:?}");
        // Even score: 0 Elo, symmetric interval.
        let even = Wld {
            wins: 10,
            losses: 10,
            draws: 0,
        }
        .elo()
        .unwrap();
        assert!(close(even.elo, 0.0, 1e-9));
        assert!(close(even.low, -even.high, 1e-9));
        // All wins: infinite estimate.
        let all = Wld {
            wins: 3,
            losses: 0,
            draws: 0,
        };
        assert_eq!(all.elo().unwrap().elo, f64::INFINITY);
        assert!(Wld::default().elo().is_none());
        assert!(close(expected_score(0.0), 0.5, 1e-12));
        assert!(close(elo_from_score(expected_score(123.0)), 123.0, 1e-9));
    }

    #[test]
    fn sprt_quadratic_by_hand() {
        // elo0 = 0, elo1 = 10, alpha = beta = 0.05.
        // Bounds: ln(0.05 / 0.95) = -2.944439, ln(0.95 / 0.05) = +2.944439.
        // s0 = 0.5; s1 = 1 / (1 + 10^(-10/400)) = 1 / (1 + 0.944061) = 0.514387.
        // Pairs [LL, LD, DD+WL, WD, WW] = [10, 20, 40, 20, 10]: n = 100, mean = 0.5,
        // var = (10 * 0.25 + 20 * 0.0625 + 0 + 20 * 0.0625 + 10 * 0.25) / 100 = 0.075.
        // LLR = 100 * 0.014387 * (1 - 0.5 - 0.514387) / (2 * 0.075)
        //     = 100 * 0.0143872 * -0.0143872 / 0.15 = -0.137994.
        let p = SprtParams::parse("0,10,0.05,0.05").unwrap();
        let (lo, hi) = p.bounds();
        assert!(close(lo, -2.944439, 1e-6) && close(hi, 2.944439, 1e-6));
        let even = Pentanomial([10, 20, 40, 20, 10]);
        let q = p.llr_quadratic(&even);
        assert!(close(q, -0.137994, 1e-5), "{q}");
        // [0, 10, 40, 30, 20]: n = 100 (+ 0.001 regularised LL pair), mean = 0.65,
        // var = (10 * 0.16 + 40 * 0.0225 + 30 * 0.01 + 20 * 0.1225) / 100 = 0.0525;
        // LLR = 100 * 0.014387 * (1.3 - 1.014387) / 0.105 = 3.913 (the 0.001 pair moves it
        // by < 0.01).
        let q = p.llr_quadratic(&Pentanomial([0, 10, 40, 30, 20]));
        assert!(close(q, 3.913, 0.01), "{q}");
        assert_eq!(p.llr_quadratic(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn sprt_exact_against_the_fishtest_formula() {
        // Reference values: fishtest's LLR_logistic (regularize, MLE_expected by root finding,
        // N * sum p ln(p1/p0)) evaluated in Python with bisection for the root:
        //   [10,20,40,20,10] -> -0.137899   [0,10,40,30,20] -> 2.836516
        //   [20,30,40,10,0]  -> -2.919416   [0,0,0,0,1]     -> 0.028424   (elo 0,10)
        //   [0,0,0,0,5]      -> 2.989266 (elo 0,400)
        let p = SprtParams::parse("0,10,0.05,0.05").unwrap();
        let cases = [
            ([10, 20, 40, 20, 10], -0.137899),
            ([0, 10, 40, 30, 20], 2.836516),
            ([20, 30, 40, 10, 0], -2.919416),
            ([0, 0, 0, 0, 1], 0.028424),
        ];
        for (counts, want) in cases {
            let got = p.llr(&Pentanomial(counts));
            assert!(close(got, want, 1e-5), "{counts:?}: {got} vs {want}");
        }
        // Near the hypotheses the quadratic approximation agrees.
        let even = Pentanomial([10, 20, 40, 20, 10]);
        assert!(close(p.llr(&even), p.llr_quadratic(&even), 1e-3));
        // Decisions: 2.8365 and -2.9194 lie inside the bounds; [0,10,40,30,30] -> 3.120296
        // and [30,30,40,10,0] -> -3.211444 (same Python check) cross them.
        assert_eq!(p.report(&even).decision, SprtDecision::Continue);
        assert_eq!(
            p.report(&Pentanomial([0, 10, 40, 30, 20])).decision,
            SprtDecision::Continue
        );
        assert_eq!(
            p.report(&Pentanomial([20, 30, 40, 10, 0])).decision,
            SprtDecision::Continue
        );
        let up = p.report(&Pentanomial([0, 10, 40, 30, 30]));
        assert!(close(up.llr, 3.120296, 1e-5), "{up:?}");
        assert_eq!(up.decision, SprtDecision::H1);
        let down = p.report(&Pentanomial([30, 30, 40, 10, 0]));
        assert!(close(down.llr, -3.211444, 1e-5), "{down:?}");
        assert_eq!(down.decision, SprtDecision::H0);
        let wide = SprtParams::parse("0,400,0.05,0.05").unwrap();
        let five = wide.llr(&Pentanomial([0, 0, 0, 0, 5]));
        assert!(close(five, 2.989266, 1e-5), "{five}");
        assert_eq!(p.llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn sprt_parse_and_pentanomial_cells() {
        assert!(SprtParams::parse("0,5,0.05").is_err());
        assert!(SprtParams::parse("5,0,0.05,0.05").is_err());
        assert!(SprtParams::parse("0,5,0.6,0.05").is_err());
        assert!(SprtParams::parse("a,5,0.05,0.05").is_err());
        let mut pt = Pentanomial::default();
        pt.add(2, 0); // win + loss
        pt.add(1, 1); // two draws
        pt.add(2, 2); // two wins
        pt.add(0, 1); // loss + draw
        assert_eq!(pt.0, [0, 1, 2, 0, 1]);
        assert_eq!(pt.pairs(), 4);
    }
}
