//! Summaries of a metric over replicates: median, quartiles, mean with a t interval.
//!
//! The papers report medians over replicates (Xue & Titterington: ER and LL medians over 400
//! replicates; Bouchard & Triggs: medians of 200 experiments) or means (Bouchard & Triggs,
//! Table 1: averages over 100 trials). [`Summary::from_values`] gives all of them in one call.
//!
//! Conventions, chosen to match R:
//!
//! * quantiles are R's default, **type 7** (Hyndman & Fan 1996): for sorted values
//!   `x₍₁₎ ≤ … ≤ x₍ₙ₎` and `h = (n − 1)p`, `Q(p) = x₍⌊h⌋+1₎ + (h − ⌊h⌋)(x₍⌊h⌋+2₎ − x₍⌊h⌋+1₎)`,
//!   evaluated as R does, `(1 − γ)·x_lo + γ·x_hi`;
//! * the median of an even number of values is the average of the two middle values (which is
//!   also the type 7 quantile at ½);
//! * the standard deviation is the sample one, with divisor `n − 1` (R's `sd`);
//! * the 95% interval for the mean is `mean ± t_{0.975, n−1} · s/√n` (R's `t.test`).
//!
//! Every function fails with [`Error::Empty`] on no values and [`Error::NonFinite`] (naming
//! the index as the row) on a NaN or infinite value: a metric that is `+∞` in one replicate
//! (a logistic loss with a zero probability) must be looked at, not averaged.

use gendisc_core::{Error, Result};
use serde::{Deserialize, Serialize};

use crate::checks::CompensatedSum;
use crate::distributions::student_t_quantile;

/// A two-sided interval `[lower, upper]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Lower end.
    pub lower: f64,
    /// Upper end.
    pub upper: f64,
}

/// Descriptive statistics of one metric over `n` replicates.
///
/// The spread fields need two values and are `None` for `n = 1`.
///
/// ```
/// use gendisc_metrics::Summary;
/// let s = Summary::from_values(&[0.12, 0.10, 0.15, 0.11]).unwrap();
/// assert_eq!(s.n, 4);
/// assert!((s.median - 0.115).abs() < 1e-15);
/// assert!((s.q1 - 0.1075).abs() < 1e-15);
/// let ci = s.mean_ci95.unwrap();
/// assert!(ci.lower < s.mean && s.mean < ci.upper);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Number of values.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation `s` (divisor `n − 1`); `None` for `n = 1`.
    pub std_dev: Option<f64>,
    /// Standard error of the mean `s/√n`; `None` for `n = 1`.
    pub std_error: Option<f64>,
    /// The 95% t interval `mean ± t_{0.975, n−1} · s/√n`; `None` for `n = 1`.
    pub mean_ci95: Option<Interval>,
    /// Smallest value.
    pub min: f64,
    /// First quartile (type 7).
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// Third quartile (type 7).
    pub q3: f64,
    /// Largest value.
    pub max: f64,
}

impl Summary {
    /// Summarises `values` (one sort, one pass for the moments).
    ///
    /// Fails with [`Error::Empty`] on no values and [`Error::NonFinite`] on a NaN or infinite
    /// value.
    pub fn from_values(values: &[f64]) -> Result<Self> {
        let sorted = sorted_finite(values)?;
        let n = sorted.len();
        let mean = mean_of(values);
        let (std_dev, std_error, mean_ci95) = if n >= 2 {
            let m = t_interval_about(values, mean, 0.95)?;
            (Some(m.std_dev), Some(m.std_error), Some(m.interval))
        } else {
            (None, None, None)
        };
        Ok(Self {
            n,
            mean,
            std_dev,
            std_error,
            mean_ci95,
            min: sorted[0],
            q1: quantile_of_sorted(&sorted, 0.25),
            median: median_of_sorted(&sorted),
            q3: quantile_of_sorted(&sorted, 0.75),
            max: sorted[n - 1],
        })
    }
}

/// A sorted copy of `values`, after checking that they are non-empty and finite.
fn sorted_finite(values: &[f64]) -> Result<Vec<f64>> {
    check_values(values)?;
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    Ok(sorted)
}

fn check_values(values: &[f64]) -> Result<()> {
    if values.is_empty() {
        return Err(Error::Empty {
            what: "values".into(),
        });
    }
    match values.iter().position(|v| !v.is_finite()) {
        Some(row) => Err(Error::NonFinite {
            what: "values".into(),
            row,
            column: 0,
            value: values[row],
        }),
        None => Ok(()),
    }
}

fn check_probability(name: &'static str, p: f64) -> Result<()> {
    if (0.0..=1.0).contains(&p) {
        Ok(())
    } else {
        Err(Error::invalid_parameter(
            name,
            format!("a probability in [0, 1] is required, found {p}"),
        ))
    }
}

fn mean_of(values: &[f64]) -> f64 {
    let total: CompensatedSum = values.iter().copied().collect();
    total.value() / values.len() as f64
}

/// Sample standard deviation about a given mean (two-pass, so no cancellation).
fn std_dev_about(values: &[f64], mean: f64) -> f64 {
    let squares: CompensatedSum = values.iter().map(|v| (v - mean) * (v - mean)).collect();
    (squares.value() / (values.len() - 1) as f64).sqrt()
}

/// The middle value, or the average of the two middle values for even `n`, of sorted values.
fn median_of_sorted(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        // Halving each term first cannot overflow, and is exact for normal numbers.
        0.5 * sorted[n / 2 - 1] + 0.5 * sorted[n / 2]
    }
}

/// The type 7 quantile of sorted values, computed as R's `quantile.default`:
/// `(1 − γ) x_lo + γ x_hi`, and exactly `x_lo` when `γ = 0` or `x_lo = x_hi`.
fn quantile_of_sorted(sorted: &[f64], p: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * p;
    let lo = h.floor();
    let gamma = h - lo;
    let lo = lo as usize;
    let x_lo = sorted[lo];
    if gamma == 0.0 {
        return x_lo;
    }
    let x_hi = sorted[(lo + 1).min(sorted.len() - 1)];
    if x_hi == x_lo {
        x_lo
    } else {
        (1.0 - gamma) * x_lo + gamma * x_hi
    }
}

/// The arithmetic mean.
///
/// Fails with [`Error::Empty`] on no values and [`Error::NonFinite`] on a NaN or infinite
/// value.
pub fn mean(values: &[f64]) -> Result<f64> {
    check_values(values)?;
    Ok(mean_of(values))
}

/// The median: the middle value, or for an even number of values the average of the two middle
/// values (R's `median`).
///
/// ```
/// use gendisc_metrics::median;
/// assert_eq!(median(&[3.0, 1.0, 2.0]).unwrap(), 2.0);
/// assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]).unwrap(), 2.5);
/// ```
pub fn median(values: &[f64]) -> Result<f64> {
    Ok(median_of_sorted(&sorted_finite(values)?))
}

/// The type 7 sample quantile at probability `p` (R's `quantile(x, p)` default); see the
/// [module documentation](self) for the definition.
///
/// Fails with [`Error::InvalidParameter`] unless `p ∈ [0, 1]`, and as [`median`] on bad
/// values.
///
/// ```
/// use gendisc_metrics::quantile;
/// // h = (5 − 1) · 0.3 = 1.2: 20% of the way from x₍₂₎ = 2 to x₍₃₎ = 4.
/// assert!((quantile(&[1.0, 2.0, 4.0, 8.0, 16.0], 0.3).unwrap() - 2.4).abs() < 1e-15);
/// ```
pub fn quantile(values: &[f64], p: f64) -> Result<f64> {
    check_probability("p", p)?;
    Ok(quantile_of_sorted(&sorted_finite(values)?, p))
}

/// Several type 7 quantiles with one sort; see [`quantile`].
pub fn quantiles(values: &[f64], probabilities: &[f64]) -> Result<Vec<f64>> {
    probabilities
        .iter()
        .try_for_each(|&p| check_probability("probabilities", p))?;
    let sorted = sorted_finite(values)?;
    Ok(probabilities
        .iter()
        .map(|&p| quantile_of_sorted(&sorted, p))
        .collect())
}

/// The sample standard deviation (divisor `n − 1`, R's `sd`).
///
/// Fails with [`Error::TooFewRows`] for fewer than two values, otherwise as [`mean`].
pub fn sample_std_dev(values: &[f64]) -> Result<f64> {
    check_values(values)?;
    check_at_least_two(values, "the sample standard deviation")?;
    Ok(std_dev_about(values, mean_of(values)))
}

/// A sample's mean with its spread and its t interval ([`mean_t_interval`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MeanInterval {
    /// Number of values.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation `s` (divisor `n − 1`).
    pub std_dev: f64,
    /// Standard error of the mean `s/√n`.
    pub std_error: f64,
    /// `mean ± t_{(1+level)/2, n−1} · s/√n`.
    pub interval: Interval,
}

/// The mean of `values`, its standard error and its t interval at confidence `level`: the one
/// Student-t interval of the workspace ([`Summary::mean_ci95`], [`mean_confidence_interval`]
/// and the verdicts' mean differences are this).
///
/// Fails with [`Error::InvalidParameter`] unless `0 < level < 1`, with [`Error::TooFewRows`]
/// for fewer than two values, otherwise as [`mean`].
pub fn mean_t_interval(values: &[f64], level: f64) -> Result<MeanInterval> {
    check_values(values)?;
    check_at_least_two(values, "a confidence interval for the mean")?;
    t_interval_about(values, mean_of(values), level)
}

/// [`mean_t_interval`] for checked values (at least two) and their `mean`.
fn t_interval_about(values: &[f64], mean: f64, level: f64) -> Result<MeanInterval> {
    if !(level > 0.0 && level < 1.0) {
        return Err(Error::invalid_parameter(
            "level",
            format!("a confidence level in (0, 1) is required, found {level}"),
        ));
    }
    let n = values.len();
    let std_dev = std_dev_about(values, mean);
    let std_error = std_dev / (n as f64).sqrt();
    let half_width = student_t_quantile(0.5 + 0.5 * level, (n - 1) as f64)? * std_error;
    Ok(MeanInterval {
        n,
        mean,
        std_dev,
        std_error,
        interval: Interval {
            lower: mean - half_width,
            upper: mean + half_width,
        },
    })
}

/// The t interval for the mean at confidence `level`: `mean ± t_{(1+level)/2, n−1} · s/√n`,
/// as R's `t.test(x, conf.level = level)$conf.int` ([`mean_t_interval`]'s interval).
///
/// Fails with [`Error::InvalidParameter`] unless `0 < level < 1`, with [`Error::TooFewRows`]
/// for fewer than two values, otherwise as [`mean`].
///
/// ```
/// use gendisc_metrics::mean_confidence_interval;
/// // Mean 2, s = 1, n = 3: 2 ± t_{0.975, 2}/√3; R's t.test(c(1, 2, 3)) gives
/// // (−0.48413771175032977, 4.48413771175032938).
/// let ci = mean_confidence_interval(&[1.0, 2.0, 3.0], 0.95).unwrap();
/// assert!((ci.lower + 0.48413771175032977).abs() < 1e-14);
/// assert!((ci.upper - 4.48413771175032938).abs() < 1e-14);
/// ```
pub fn mean_confidence_interval(values: &[f64], level: f64) -> Result<Interval> {
    Ok(mean_t_interval(values, level)?.interval)
}

fn check_at_least_two(values: &[f64], what: &str) -> Result<()> {
    if values.len() < 2 {
        return Err(Error::TooFewRows {
            what: what.into(),
            needed: 2,
            found: values.len(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use proptest::prelude::*;

    #[test]
    fn mean_t_interval_gathers_what_summary_reports() {
        // Mean 2, s = 1, s/√3; the interval is R's t.test(c(1, 2, 3))$conf.int.
        let m = mean_t_interval(&[1.0, 2.0, 3.0], 0.95).unwrap();
        assert_eq!((m.n, m.mean, m.std_dev), (3, 2.0, 1.0));
        assert_relative_eq!(m.std_error, 1.0 / 3.0_f64.sqrt(), max_relative = 1e-15);
        assert_relative_eq!(
            m.interval.lower,
            -0.484_137_711_750_329_77,
            max_relative = 1e-14
        );
        assert_relative_eq!(
            m.interval.upper,
            4.484_137_711_750_329,
            max_relative = 1e-14
        );
        // Summary asks for level 0.95 too: the same numbers, bit for bit.
        let s = Summary::from_values(&[1.0, 2.0, 3.0]).unwrap();
        assert_eq!(
            (s.std_dev, s.std_error, s.mean_ci95),
            (Some(m.std_dev), Some(m.std_error), Some(m.interval))
        );
        assert!(mean_t_interval(&[1.0], 0.95).is_err());
        assert!(mean_t_interval(&[1.0, 2.0], 1.0).is_err());
    }

    #[test]
    fn type_7_quantiles_by_hand() {
        // n = 4, sorted 1 2 4 8: h = 3p.
        let x = [8.0, 1.0, 4.0, 2.0];
        // p = ¼: h = 0.75 → 1 + 0.75·(2 − 1) = 1.75.
        assert_eq!(quantile(&x, 0.25).unwrap(), 1.75);
        // p = ½: h = 1.5 → 2 + 0.5·(4 − 2) = 3, the average of the two middle values.
        assert_eq!(quantile(&x, 0.5).unwrap(), 3.0);
        assert_eq!(median(&x).unwrap(), 3.0);
        // p = ¾: h = 2.25 → 4 + 0.25·(8 − 4) = 5.
        assert_eq!(quantile(&x, 0.75).unwrap(), 5.0);
        assert_eq!(quantile(&x, 0.0).unwrap(), 1.0);
        assert_eq!(quantile(&x, 1.0).unwrap(), 8.0);
        // n = 5, sorted 1 2 3 4 10: h = 4p, quartiles at h = 1 and 3 exactly.
        let y = [10.0, 3.0, 1.0, 4.0, 2.0];
        assert_eq!(
            quantiles(&y, &[0.25, 0.5, 0.75]).unwrap(),
            vec![2.0, 3.0, 4.0]
        );
        // p = 0.9: h = 3.6 → 4 + 0.6·(10 − 4) = 7.6.
        assert_relative_eq!(quantile(&y, 0.9).unwrap(), 7.6, max_relative = 1e-15);
        // A single value is every quantile.
        assert_eq!(quantile(&[7.0], 0.3).unwrap(), 7.0);
    }

    #[test]
    fn summary_by_hand() {
        // Values 2 4 4 4 5 5 7 9: mean 5, Σ(x − 5)² = 32, s² = 32/7.
        let x = [4.0, 2.0, 9.0, 4.0, 5.0, 7.0, 4.0, 5.0];
        let s = Summary::from_values(&x).unwrap();
        assert_eq!(s.n, 8);
        assert_eq!(s.mean, 5.0);
        let sd = (32.0_f64 / 7.0).sqrt();
        assert_relative_eq!(s.std_dev.unwrap(), sd, max_relative = 1e-15);
        assert_relative_eq!(s.std_error.unwrap(), sd / 8f64.sqrt(), max_relative = 1e-15);
        // h = 7/4 = 1.75 → 4 + 0.75·0 = 4; h = 5.25 → 5 + 0.25·(7 − 5) = 5.5.
        assert_eq!(
            (s.min, s.q1, s.median, s.q3, s.max),
            (2.0, 4.0, 4.5, 5.5, 9.0)
        );
        let t = student_t_quantile(0.975, 7.0).unwrap();
        let ci = s.mean_ci95.unwrap();
        assert_relative_eq!(ci.lower, 5.0 - t * sd / 8f64.sqrt(), max_relative = 1e-15);
        assert_relative_eq!(ci.upper, 5.0 + t * sd / 8f64.sqrt(), max_relative = 1e-15);
        assert_eq!(
            mean_confidence_interval(&x, 0.95).unwrap(),
            ci,
            "Summary and mean_confidence_interval agree"
        );
        assert_relative_eq!(sample_std_dev(&x).unwrap(), sd, max_relative = 1e-15);
    }

    #[test]
    fn single_value_has_no_spread() {
        let s = Summary::from_values(&[0.25]).unwrap();
        assert_eq!(
            (s.mean, s.median, s.q1, s.q3, s.min, s.max),
            (0.25, 0.25, 0.25, 0.25, 0.25, 0.25)
        );
        assert_eq!((s.std_dev, s.std_error, s.mean_ci95), (None, None, None));
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Summary>(&json).unwrap(), s);
        assert!(matches!(
            sample_std_dev(&[1.0]),
            Err(Error::TooFewRows {
                needed: 2,
                found: 1,
                ..
            })
        ));
        assert!(mean_confidence_interval(&[1.0], 0.95).is_err());
    }

    #[test]
    fn bad_input() {
        type Statistic = fn(&[f64]) -> Result<f64>;
        let statistics: [(&str, Statistic); 5] = [
            ("mean", mean),
            ("median", median),
            ("quantile", |v| quantile(v, 0.3)),
            ("sd", sample_std_dev),
            ("summary", |v| Summary::from_values(v).map(|s| s.mean)),
        ];
        for (name, statistic) in statistics {
            assert!(matches!(statistic(&[]), Err(Error::Empty { .. })), "{name}");
            assert!(
                matches!(
                    statistic(&[1.0, f64::NAN, 2.0]),
                    Err(Error::NonFinite { row: 1, .. })
                ),
                "{name}"
            );
            assert!(
                matches!(
                    statistic(&[1.0, 2.0, f64::INFINITY]),
                    Err(Error::NonFinite { row: 2, .. })
                ),
                "{name}"
            );
        }
        for bad in [-0.01, 1.01, f64::NAN] {
            assert!(matches!(
                quantile(&[1.0, 2.0], bad),
                Err(Error::InvalidParameter { name: "p", .. })
            ));
            assert!(quantiles(&[1.0, 2.0], &[0.5, bad]).is_err());
        }
        for bad in [0.0, 1.0, -0.5, f64::NAN] {
            assert!(matches!(
                mean_confidence_interval(&[1.0, 2.0], bad),
                Err(Error::InvalidParameter { name: "level", .. })
            ));
        }
    }

    #[test]
    fn extreme_values_do_not_overflow() {
        let big = f64::MAX;
        assert_eq!(median(&[big, big]).unwrap(), big);
        assert_eq!(quantile(&[big, big], 0.5).unwrap(), big);
        assert_eq!(median(&[-big, big]).unwrap(), 0.0);
    }

    proptest! {
        #[test]
        fn order_statistics_are_ordered(values in prop::collection::vec(-1e6f64..1e6, 1..60)) {
            let s = Summary::from_values(&values).unwrap();
            prop_assert!(s.min <= s.q1 && s.q1 <= s.median && s.median <= s.q3 && s.q3 <= s.max);
            prop_assert!(s.min <= s.mean && s.mean <= s.max);
            prop_assert_eq!(s.median, quantile(&values, 0.5).unwrap());
            if let Some(ci) = s.mean_ci95 {
                prop_assert!(ci.lower <= s.mean && s.mean <= ci.upper);
            }
        }

        #[test]
        fn quantiles_are_monotone_in_p(
            values in prop::collection::vec(-1e3f64..1e3, 1..30),
            mut ps in prop::collection::vec(0.0f64..=1.0, 2..10),
        ) {
            ps.sort_by(f64::total_cmp);
            let q = quantiles(&values, &ps).unwrap();
            prop_assert!(q.windows(2).all(|w| w[0] <= w[1]));
        }
    }
}
