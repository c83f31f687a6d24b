//! The paired difference of two series at one point, and the one tie rule.
//!
//! A study runs every classifier on the same replicates (the same training and test sets), so
//! the evidence that classifier A does better than B at a point is the sample of per-replicate
//! *advantages* `d_r` of A over B — `b_r − a_r` for a metric where lower is better (error,
//! loss), `a_r − b_r` where higher is better (accuracy, coverage). Pairing removes the
//! replicate-to-replicate variation the two share; an unpaired comparison of two means would
//! count it twice.
//!
//! [`Difference::paired`] summarises the advantages by a centre and a two-sided confidence
//! interval ([`Centre`]); [`Difference::side`] applies the tie rule:
//!
//! > **A point is a tie when the confidence interval of the advantage contains zero** (or, with
//! > a margin δ, when it reaches into `[−δ, δ]`'s complement on neither side). Otherwise the side
//! > the interval lies on wins.
//!
//! The rule is the same in every claim of every report; which claims a tie supports is decided
//! by the claim's [`Kind`](super::Kind), not here.

use std::cmp::Ordering;

use gendisc_metrics::mean_t_interval;
use serde::{Deserialize, Serialize};

/// Which way a metric is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Better {
    /// Lower values are better (error rates, losses).
    Lower,
    /// Higher values are better (accuracy, coverage).
    Higher,
}

impl Better {
    /// The advantage of a value `a` over a value `b`: positive when `a` is the better one.
    pub fn advantage(self, a: f64, b: f64) -> f64 {
        match self {
            Better::Lower => b - a,
            Better::Higher => a - b,
        }
    }
}

/// How the per-replicate advantages are summarised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Centre {
    /// Their mean, with the Student t interval `d̄ ± t_{1−α/2, n−1} · s/√n`: for claims about
    /// mean errors (Ng & Jordan's and Raina et al.'s curves are means over splits). Replicates
    /// with a non-finite advantage are left out.
    Mean,
    /// Their median, with the distribution-free order-statistic interval `[d_(k), d_(n+1−k)]`
    /// whose coverage under the binomial(n, ½) law of the signs is at least `1 − α` (the
    /// interval that inverts the sign test): for claims about medians (Xue & Titterington
    /// report medians over replicates). Exact, needs no random numbers, and accepts infinite
    /// advantages (a log-loss of `+∞`); only NaN is left out.
    Median,
}

/// The default confidence level of every interval: 95%, two-sided.
pub const CONFIDENCE: f64 = 0.95;

/// Which side a comparison comes out on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    /// The first series (A) is better beyond the margin.
    A,
    /// The second series (B) is better beyond the margin.
    B,
    /// Neither: the interval reaches the margin band (a tie).
    Tie,
}

/// The advantage of series A over series B at one point: centre and confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    /// Replicates that entered (pairs with both values usable).
    pub n: usize,
    /// The centre of the advantages (mean or median, per [`Centre`]); positive favours A.
    pub estimate: f64,
    /// Lower end of the confidence interval.
    pub lower: f64,
    /// Upper end of the confidence interval.
    pub upper: f64,
    /// The standard error of the mean advantage (`s/√n`); `None` for [`Centre::Median`].
    pub std_error: Option<f64>,
}

impl Difference {
    /// The advantage of `a` over `b`, replicate by replicate (`a[r]` and `b[r]` come from the
    /// same replicate), summarised by `centre` with a two-sided interval at `level`.
    ///
    /// `None` when fewer than two pairs are usable, or the slices differ in length: one
    /// replicate says nothing about variation.
    ///
    /// ```
    /// use gendisc_engine::verdict::{Better, Centre, Difference, Side};
    /// // A's error is lower than B's on every replicate, by 0.02 ± 0.01.
    /// let a = [0.10, 0.12, 0.11, 0.09, 0.10];
    /// let b = [0.12, 0.13, 0.14, 0.10, 0.12];
    /// let d = Difference::paired(&a, &b, Better::Lower, Centre::Mean, 0.95).unwrap();
    /// assert!((d.estimate - 0.018).abs() < 1e-12);
    /// assert_eq!(d.side(0.0), Side::A);
    /// ```
    pub fn paired(
        a: &[f64],
        b: &[f64],
        better: Better,
        centre: Centre,
        level: f64,
    ) -> Option<Self> {
        if a.len() != b.len() {
            return None;
        }
        let advantages = a.iter().zip(b).map(|(&x, &y)| better.advantage(x, y));
        Self::of_advantages(advantages, centre, level)
    }

    /// Summarises advantages already computed (positive favours A); see [`Difference::paired`].
    pub fn of_advantages(
        advantages: impl IntoIterator<Item = f64>,
        centre: Centre,
        level: f64,
    ) -> Option<Self> {
        match centre {
            Centre::Mean => {
                let values: Vec<f64> = advantages.into_iter().filter(|d| d.is_finite()).collect();
                mean_interval(&values, level)
            }
            Centre::Median => {
                let mut values: Vec<f64> = advantages.into_iter().filter(|d| !d.is_nan()).collect();
                values.sort_unstable_by(f64::total_cmp);
                median_interval(&values, level)
            }
        }
    }

    /// A difference known from a mean and its standard error (for instance a published number
    /// against ours), with the normal interval `estimate ± z_{1−α/2} · se`.
    ///
    /// `None` when the standard error is negative or not finite, or the estimate not finite.
    pub fn from_estimate(estimate: f64, std_error: f64, level: f64) -> Option<Self> {
        if !estimate.is_finite() || !std_error.is_finite() || std_error < 0.0 {
            return None;
        }
        let z = gendisc_metrics::distributions::standard_normal_quantile(0.5 + 0.5 * level).ok()?;
        Some(Self {
            n: 0,
            estimate,
            lower: estimate - z * std_error,
            upper: estimate + z * std_error,
            std_error: Some(std_error),
        })
    }

    /// The tie rule with a margin `δ ≥ 0`: A wins when the whole interval lies above `δ`, B
    /// when it lies below `−δ`, otherwise it is a tie. With `δ = 0`: a tie is an interval that
    /// contains zero.
    ///
    /// ```
    /// use gendisc_engine::verdict::{Difference, Side};
    /// let d = Difference::from_estimate(0.03, 0.01, 0.95).unwrap(); // 0.03 ± 0.0196
    /// assert_eq!(d.side(0.0), Side::A);
    /// assert_eq!(d.side(0.02), Side::Tie);
    /// assert_eq!(d.negated().side(0.0), Side::B);
    /// ```
    pub fn side(&self, margin: f64) -> Side {
        if self.lower > margin {
            Side::A
        } else if self.upper < -margin {
            Side::B
        } else {
            Side::Tie
        }
    }

    /// The same comparison seen from B: the advantage of B over A.
    pub fn negated(&self) -> Self {
        Self {
            n: self.n,
            estimate: -self.estimate,
            lower: -self.upper,
            upper: -self.lower,
            std_error: self.std_error,
        }
    }
}

/// The mean difference with its t interval; `None` below two values (or on a non-finite one).
fn mean_interval(values: &[f64], level: f64) -> Option<Difference> {
    let m = mean_t_interval(values, level).ok()?;
    Some(Difference {
        n: m.n,
        estimate: m.mean,
        lower: m.interval.lower,
        upper: m.interval.upper,
        std_error: Some(m.std_error),
    })
}

/// `sorted` in increasing order, no NaN.
fn median_interval(sorted: &[f64], level: f64) -> Option<Difference> {
    let n = sorted.len();
    if n < 2 {
        return None;
    }
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        midpoint(sorted[n / 2 - 1], sorted[n / 2])
    };
    let (lower, upper) = match sign_test_rank(n, 1.0 - level) {
        // 1-based ranks k and n + 1 − k.
        Some(k) => (sorted[k - 1], sorted[n - k]),
        None => (f64::NEG_INFINITY, f64::INFINITY),
    };
    Some(Difference {
        n,
        estimate: median,
        lower,
        upper,
        std_error: None,
    })
}

/// The mean of two ordered values that stays infinite when one is, and is `0` for `−∞, +∞`.
fn midpoint(a: f64, b: f64) -> f64 {
    match (a.is_finite(), b.is_finite()) {
        (true, true) => a + 0.5 * (b - a),
        _ if a == b => a,
        (false, false) => 0.0,
        (false, true) => a,
        (true, false) => b,
    }
}

/// The largest rank `k ≥ 1` with `P(Bin(n, ½) < k) ≤ α/2`, so that `[x_(k), x_(n+1−k)]` covers
/// the median with probability at least `1 − α`; `None` when even `k = 1` does not (n < 6 at
/// α = 0.05).
fn sign_test_rank(n: usize, alpha: f64) -> Option<usize> {
    let half_alpha = 0.5 * alpha;
    // P(Bin = j) in log space: ln C(n, j) − n ln 2, built up from j = 0.
    let mut ln_p = -(n as f64) * std::f64::consts::LN_2;
    let mut below = 0.0; // P(Bin < k) for the current k = j + 1
    let mut k = None;
    for j in 0..n {
        below += ln_p.exp();
        if below.partial_cmp(&half_alpha) == Some(Ordering::Greater) {
            break;
        }
        k = Some(j + 1);
        ln_p += ((n - j) as f64).ln() - ((j + 1) as f64).ln();
    }
    k.filter(|&k| 2 * k <= n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_test_ranks_match_the_binomial_tables() {
        // R: qbinom(0.025, n, 0.5) gives the number of signs below the interval; the rank is
        // one more when P(Bin < k) ≤ 0.025 exactly as computed here.
        assert_eq!(sign_test_rank(5, 0.05), None);
        assert_eq!(sign_test_rank(6, 0.05), Some(1)); // P(Bin(6) < 1) = 1/64
        assert_eq!(sign_test_rank(10, 0.05), Some(2)); // P(Bin(10) ≤ 1) = 11/1024
        assert_eq!(sign_test_rank(20, 0.05), Some(6)); // P(Bin(20) ≤ 5) = 0.0207
        assert_eq!(sign_test_rank(100, 0.05), Some(40)); // P(Bin(100) ≤ 39) = 0.0176
    }

    #[test]
    fn mean_interval_matches_r_t_test() {
        // R: t.test(c(1, 2, 3)) → 2 ± 2.484138 (conf.int −0.4841377, 4.4841377).
        let d = Difference::of_advantages([1.0, 2.0, 3.0], Centre::Mean, 0.95).unwrap();
        assert!((d.lower + 0.484_137_711_750_329_8).abs() < 1e-12);
        assert!((d.upper - 4.484_137_711_750_329).abs() < 1e-12);
        assert!((d.std_error.unwrap() - 1.0 / 3f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn identical_series_are_a_tie_whatever_the_centre() {
        let a = [0.2, 0.3, 0.25, 0.4, 0.1, 0.3, 0.2];
        for centre in [Centre::Mean, Centre::Median] {
            let d = Difference::paired(&a, &a, Better::Lower, centre, CONFIDENCE).unwrap();
            assert_eq!((d.estimate, d.lower, d.upper), (0.0, 0.0, 0.0));
            assert_eq!(d.side(0.0), Side::Tie);
        }
    }

    #[test]
    fn a_difference_exactly_at_the_margin_is_a_tie() {
        // A constant advantage of 0.01: the interval is the point 0.01.
        let a = [0.10; 8];
        let b = [0.11; 8];
        let d = Difference::paired(&a, &b, Better::Lower, Centre::Mean, CONFIDENCE).unwrap();
        assert!((d.lower - 0.01).abs() < 1e-15 && (d.upper - 0.01).abs() < 1e-15);
        assert_eq!(
            d.side(d.lower),
            Side::Tie,
            "lower = margin is not beyond it"
        );
        assert_eq!(d.side(d.lower - 1e-12), Side::A);
        assert_eq!(d.side(0.0), Side::A);
    }

    #[test]
    fn direction_of_better_flips_the_sign() {
        let a = [0.9, 0.8, 0.85];
        let b = [0.7, 0.6, 0.72];
        let higher = Difference::paired(&a, &b, Better::Higher, Centre::Mean, 0.95).unwrap();
        let lower = Difference::paired(&a, &b, Better::Lower, Centre::Mean, 0.95).unwrap();
        assert_eq!(higher.estimate, -lower.estimate);
        assert_eq!(higher.side(0.0), Side::A);
        assert_eq!(lower.side(0.0), Side::B);
    }

    #[test]
    fn too_few_pairs_say_nothing() {
        assert!(Difference::paired(&[0.1], &[0.2], Better::Lower, Centre::Mean, 0.95).is_none());
        assert!(
            Difference::paired(&[0.1, 0.2], &[0.2], Better::Lower, Centre::Mean, 0.95).is_none()
        );
        // Non-finite advantages drop out of the mean; here that leaves one.
        let a = [0.1, f64::INFINITY, f64::NAN];
        assert!(Difference::paired(&a, &[0.2; 3], Better::Lower, Centre::Mean, 0.95).is_none());
    }

    #[test]
    fn median_accepts_infinite_advantages() {
        // B's log-loss is infinite on three of nine replicates: A's advantage is +∞ there.
        let a = [1.0; 9];
        let b = [
            2.0,
            2.5,
            f64::INFINITY,
            3.0,
            f64::INFINITY,
            2.0,
            1.5,
            f64::INFINITY,
            2.2,
        ];
        let d = Difference::paired(&a, &b, Better::Lower, Centre::Median, 0.95).unwrap();
        assert_eq!(d.n, 9);
        assert!((d.estimate - 1.5).abs() < 1e-12);
        assert_eq!(d.side(0.0), Side::A);
        assert_eq!(d.upper, f64::INFINITY);
    }

    #[test]
    fn from_estimate_uses_the_normal_quantile() {
        let d = Difference::from_estimate(1.0, 0.5, 0.95).unwrap();
        assert!((d.upper - 1.0 - 0.5 * 1.959_963_984_540_054).abs() < 1e-9);
        assert!(Difference::from_estimate(1.0, f64::NAN, 0.95).is_none());
        assert!(Difference::from_estimate(1.0, -1.0, 0.95).is_none());
    }
}
