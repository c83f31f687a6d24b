//! Metrics on predicted class distributions: logistic loss, Brier score and calibration.
//!
//! Every function takes the true classes `y_i ∈ 0..K` first, as scikit-learn's metrics do, and
//! then the model's output. Most take the `n × K` matrix of conditional log-probabilities
//! `log p(y = k | x_i)` that `ConditionalModel::predict_log_proba` returns. Working from log-probabilities keeps the logistic loss exact where a
//! probability would round to 0 or 1. The matrix is validated: no NaN, no `+∞` (a `−∞` entry is
//! a zero probability and is allowed), and every row must log-sum-exp to 0 within
//! [`LOG_PROBA_NORMALISATION_TOLERANCE`](crate::LOG_PROBA_NORMALISATION_TOLERANCE).
//!
//! For code ported from scikit-learn, three functions take **probabilities** (what
//! `predict_proba` returns):
//!
//! | takes probabilities | scikit-learn | log-probability twin |
//! |---|---|---|
//! | [`log_loss`] (clipped at [`LOG_LOSS_EPS`]) | `log_loss(y_true, proba)` | [`logistic_loss_mean`] (exact) |
//! | [`brier_score_proba`] | `brier_score_loss(y_true, proba, scale_by_half=False)` | [`brier_score`] |
//! | [`binary_brier_score_proba`] | `brier_score_loss(y_true, proba[:, 1])` | [`binary_brier_score`] |
//!
//! Their rows must lie in `[0, 1]` and sum to 1 within
//! [`PROBA_NORMALISATION_TOLERANCE`](crate::PROBA_NORMALISATION_TOLERANCE).

use gendisc_core::numerics::{exp_in_place, Log1pSum};
use gendisc_core::{Error, Result};
use ndarray::{ArrayView1, ArrayView2};
use serde::{Deserialize, Serialize};

use crate::checks::{check_log_proba, check_proba, top_label, CompensatedSum};

/// The logistic loss summed over rows, `LL = Σ_i −log p(y_i | x_i)`: the negative conditional
/// log-likelihood, as defined by Xue & Titterington (§3.1.3) and reported (as a median over
/// replicates) in their Figures 1–4. It is `≥ 0`.
///
/// A row that gives its true class probability zero (`log p = −∞`) makes the loss `+∞`; this
/// is the correct value, not an error. Fails on a length mismatch, an empty matrix, NaN or
/// `+∞` entries, a row that does not log-sum-exp to 0, or a label outside `0..K`.
///
/// ```
/// use gendisc_metrics::logistic_loss_sum;
/// use ndarray::array;
/// let log_proba = array![[0.75_f64.ln(), 0.25_f64.ln()], [0.5_f64.ln(), 0.5_f64.ln()]];
/// let ll = logistic_loss_sum(array![0, 1].view(), log_proba.view()).unwrap();
/// assert!((ll - (-(0.75_f64.ln()) + 2_f64.ln())).abs() < 1e-15);
/// ```
pub fn logistic_loss_sum(
    y_true: ArrayView1<'_, usize>,
    log_proba: ArrayView2<'_, f64>,
) -> Result<f64> {
    check_log_proba(log_proba, y_true)?;
    let total: CompensatedSum = y_true
        .iter()
        .enumerate()
        .map(|(i, &label)| -log_proba[[i, label]])
        .collect();
    Ok(total.value())
}

/// The logistic loss of a two-class model from its log-odds `η_i = log p(1 | x_i)/p(0 | x_i)`,
/// summed over rows: `Σ_i log(1 + exp(−s_i η_i))` with `s_i = +1` for class 1 and `−1` for class
/// 0. Equal to [`logistic_loss_sum`] of the corresponding log-probabilities, accurate in both
/// tails; `η = ±∞` gives a loss of 0 or `+∞`.
///
/// Each row costs one exponential: with `t_i = −s_i η_i` and `τ_i = exp(−|t_i|)`, the loss is
/// `Σ max(t_i, 0) + Σ log(1 + τ_i)`, the first sum compensated and the second taken with one
/// logarithm in all ([`Log1pSum`]), so the result is within about `10⁻¹²` of the exact loss,
/// relatively. The exponentials are taken a block of rows at a time, vectorised
/// ([`exp_in_place`]): the same bits on every processor.
///
/// Fails on a length mismatch, a class other than 0 or 1, or a NaN log-odds.
///
/// ```
/// use gendisc_metrics::binary_logistic_loss_sum;
/// use ndarray::array;
/// let ll = binary_logistic_loss_sum(array![1, 0].view(), array![0.0, 2.0].view()).unwrap();
/// assert!((ll - (2_f64.ln() + (1.0 + 2_f64.exp()).ln())).abs() < 1e-14);
/// ```
pub fn binary_logistic_loss_sum(
    y_true: ArrayView1<'_, usize>,
    log_odds: ArrayView1<'_, f64>,
) -> Result<f64> {
    if log_odds.len() != y_true.len() {
        return Err(Error::shape_mismatch(
            "length of y_true vs length of log_odds",
            log_odds.len(),
            y_true.len(),
        ));
    }
    // Rows go in chunks: the first pass checks them, the second takes every exponential at
    // once (vectorised), the third adds in row order, so that the sums see the same terms in
    // the same order as one pass would.
    const CHUNK: usize = 256;
    let mut t = [0.0_f64; CHUNK];
    let mut tau = [0.0_f64; CHUNK];
    let mut linear = CompensatedSum::default();
    let mut log1p = Log1pSum::new();
    let log_odds = log_odds.as_standard_layout();
    let y_true = y_true.as_standard_layout();
    let (log_odds, y_true) = (
        log_odds.as_slice().expect("standard layout"),
        y_true.as_slice().expect("standard layout"),
    );
    for (chunk, (log_odds, y_true)) in log_odds.chunks(CHUNK).zip(y_true.chunks(CHUNK)).enumerate()
    {
        let len = log_odds.len();
        for (j, (&eta, &label)) in log_odds.iter().zip(y_true).enumerate() {
            let row = chunk * CHUNK + j;
            if eta.is_nan() {
                return Err(Error::NonFinite {
                    what: "log_odds".into(),
                    row,
                    column: 0,
                    value: eta,
                });
            }
            if label > 1 {
                return Err(Error::LabelOutOfRange {
                    row,
                    label,
                    n_classes: 2,
                });
            }
            // The row's loss is log(1 + exp(t)), t = η for class 0 and −η for class 1: the
            // label flips the sign bit, without a branch on the labels' random order.
            t[j] = f64::from_bits(eta.to_bits() ^ ((label as u64) << 63));
            tau[j] = -t[j].abs();
        }
        // τ = exp(−|t|), which is exp(t) itself where t ≤ −37 < 0.
        exp_in_place(&mut tau[..len]);
        for (&t, &tau) in t[..len].iter().zip(&tau[..len]) {
            // The tails as `log1pexp` takes them (Mächler 2012): `t` itself above 33.3,
            // `exp(t)` at or below −37.
            if t > 33.3 {
                linear.add(t);
            } else if t <= -37.0 {
                linear.add(tau);
            } else {
                // max(t, 0) without a branch on the sign of t, which follows the classifier's
                // errors: adding +0 leaves the compensated sum as it was, bit for bit.
                linear.add(t.max(0.0));
                log1p.add(tau);
            }
        }
    }
    linear.add(log1p.value());
    Ok(linear.value())
}

/// The logistic loss averaged over rows, from **log**-probabilities,
/// `(1/n) Σ_i −log p(y_i | x_i)`: scikit-learn's `log_loss` without its clipping, and Bouchard &
/// Triggs' test-set logistic loss (Figure 1). Same validation and `+∞` behaviour as
/// [`logistic_loss_sum`]. [`log_loss`] takes probabilities and clips them as scikit-learn does;
/// the two agree wherever the true class's probability lies in `[ε, 1 − ε]`
/// ([`LOG_LOSS_EPS`]).
pub fn logistic_loss_mean(
    y_true: ArrayView1<'_, usize>,
    log_proba: ArrayView2<'_, f64>,
) -> Result<f64> {
    Ok(logistic_loss_sum(y_true, log_proba)? / y_true.len() as f64)
}

/// The multi-class Brier score from **log**-probabilities,
/// `(1/n) Σ_i Σ_k (p_ik − 1{y_i = k})²`, in `[0, 2]` (Brier 1950); [`brier_score_proba`] takes
/// probabilities.
///
/// For `K = 2` this is **twice** the binary Brier score `(1/n) Σ_i (p_i1 − 1{y_i = 1})²` that
/// scikit-learn's `brier_score_loss` computes, because both classes contribute the same squared
/// error; use [`binary_brier_score`] for that convention. Same validation as
/// [`logistic_loss_sum`].
///
/// ```
/// use gendisc_metrics::{binary_brier_score, brier_score};
/// use ndarray::array;
/// let log_proba = array![[0.8_f64.ln(), 0.2_f64.ln()]];
/// let y = array![1];
/// // (0.8 − 0)² + (0.2 − 1)² = 1.28, and the binary score is 0.64.
/// assert!((brier_score(y.view(), log_proba.view()).unwrap() - 1.28).abs() < 1e-15);
/// assert!((binary_brier_score(y.view(), log_proba.view()).unwrap() - 0.64).abs() < 1e-15);
/// ```
pub fn brier_score(y_true: ArrayView1<'_, usize>, log_proba: ArrayView2<'_, f64>) -> Result<f64> {
    check_log_proba(log_proba, y_true)?;
    let total: CompensatedSum = log_proba
        .outer_iter()
        .zip(y_true.iter())
        .map(|(row, &label)| {
            row.iter()
                .enumerate()
                .map(|(k, &log_p)| {
                    let residual = log_p.exp() - if k == label { 1.0 } else { 0.0 };
                    residual * residual
                })
                .sum::<f64>()
        })
        .collect();
    Ok(total.value() / y_true.len() as f64)
}

/// The binary Brier score from **log**-probabilities, `(1/n) Σ_i (p(y = 1 | x_i) − 1{y_i = 1})²`,
/// in `[0, 1]`: scikit-learn's `brier_score_loss` with class 1 as the positive class, and half of
/// [`brier_score`]; [`binary_brier_score_proba`] takes probabilities.
///
/// Fails with [`Error::NotBinary`] unless `log_proba` has two columns, otherwise as
/// [`brier_score`].
pub fn binary_brier_score(
    y_true: ArrayView1<'_, usize>,
    log_proba: ArrayView2<'_, f64>,
) -> Result<f64> {
    if log_proba.ncols() != 2 {
        return Err(Error::NotBinary {
            what: "binary_brier_score".into(),
            n_classes: log_proba.ncols(),
        });
    }
    check_log_proba(log_proba, y_true)?;
    let total: CompensatedSum = log_proba
        .column(1)
        .iter()
        .zip(y_true.iter())
        .map(|(&log_p1, &label)| {
            let residual = log_p1.exp() - if label == 1 { 1.0 } else { 0.0 };
            residual * residual
        })
        .collect();
    Ok(total.value() / y_true.len() as f64)
}

/// The probability at which [`log_loss`] clips, `ε = 2⁻⁵² ≈ 2.22 × 10⁻¹⁶` (`f64::EPSILON`):
/// scikit-learn's `log_loss` clips to `[ε, 1 − ε]` with `ε = np.finfo(y_pred.dtype).eps`, which
/// is this value for `float64` (scikit-learn 1.2 and later; earlier versions used `10⁻¹⁵`).
pub const LOG_LOSS_EPS: f64 = f64::EPSILON;

/// The mean logistic loss from **probabilities**, as scikit-learn's `log_loss(y_true, proba)`:
/// `(1/n) Σ_i −log(clip(p_i,y_i, ε, 1 − ε))` with `ε =` [`LOG_LOSS_EPS`].
///
/// `proba` is the `n × K` matrix that `predict_proba` returns (rows in `[0, 1]` summing to 1
/// within [`PROBA_NORMALISATION_TOLERANCE`](crate::PROBA_NORMALISATION_TOLERANCE)); `y_true`
/// holds classes `0..K`. The clipping caps a row's loss at `−log ε ≈ 36.04` where the true class
/// has probability 0, and makes a certain, correct row cost `−log(1 − ε) ≈ 2.2 × 10⁻¹⁶` rather
/// than 0, exactly as scikit-learn. Unlike scikit-learn, which warns and renormalises, a row that
/// does not sum to 1 is an error. For log-probabilities use [`logistic_loss_mean`], which is
/// exact (no clipping; a zero probability gives `+∞`).
///
/// Fails on a length mismatch, no rows or columns, a non-finite entry or one outside `[0, 1]`,
/// a row that does not sum to 1, or a label outside `0..K`.
///
/// ```
/// use gendisc_metrics::log_loss;
/// use ndarray::array;
/// // scikit-learn's documentation example, with "ham" = 0 and "spam" = 1.
/// let proba = array![[0.1, 0.9], [0.9, 0.1], [0.8, 0.2], [0.35, 0.65]];
/// let loss = log_loss(array![1, 0, 0, 1].view(), proba.view())?;
/// assert!((loss - 0.216_161_874_680_579).abs() < 1e-15); // scikit-learn prints 0.21616...
/// # Ok::<(), gendisc_core::Error>(())
/// ```
pub fn log_loss(y_true: ArrayView1<'_, usize>, proba: ArrayView2<'_, f64>) -> Result<f64> {
    check_proba(proba, y_true)?;
    let total: CompensatedSum = y_true
        .iter()
        .enumerate()
        .map(|(i, &label)| {
            -proba[[i, label]]
                .clamp(LOG_LOSS_EPS, 1.0 - LOG_LOSS_EPS)
                .ln()
        })
        .collect();
    Ok(total.value() / y_true.len() as f64)
}

/// The multi-class Brier score from **probabilities**,
/// `(1/n) Σ_i Σ_k (p_ik − 1{y_i = k})²`, in `[0, 2]`: scikit-learn's
/// `brier_score_loss(y_true, proba, scale_by_half=False)`, and [`brier_score`] of the
/// log-probabilities.
///
/// For two classes this is twice the binary score; see [`binary_brier_score_proba`]. Fails as
/// [`log_loss`].
///
/// ```
/// use gendisc_metrics::brier_score_proba;
/// use ndarray::array;
/// // (0.8 − 0)² + (0.2 − 1)² = 1.28.
/// let score = brier_score_proba(array![1].view(), array![[0.8, 0.2]].view())?;
/// assert!((score - 1.28).abs() < 1e-15);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
pub fn brier_score_proba(y_true: ArrayView1<'_, usize>, proba: ArrayView2<'_, f64>) -> Result<f64> {
    check_proba(proba, y_true)?;
    let total: CompensatedSum = proba
        .outer_iter()
        .zip(y_true.iter())
        .map(|(row, &label)| {
            row.iter()
                .enumerate()
                .map(|(k, &p)| {
                    let residual = p - if k == label { 1.0 } else { 0.0 };
                    residual * residual
                })
                .sum::<f64>()
        })
        .collect();
    Ok(total.value() / y_true.len() as f64)
}

/// The binary Brier score from **probabilities**, `(1/n) Σ_i (p_i1 − 1{y_i = 1})²`, in
/// `[0, 1]`: scikit-learn's `brier_score_loss(y_true, proba[:, 1])` with class 1 positive, half
/// of [`brier_score_proba`], and [`binary_brier_score`] of the log-probabilities.
///
/// `proba` is the `n × 2` matrix that `predict_proba` returns. Fails with
/// [`Error::NotBinary`] unless it has two columns, otherwise as [`log_loss`].
pub fn binary_brier_score_proba(
    y_true: ArrayView1<'_, usize>,
    proba: ArrayView2<'_, f64>,
) -> Result<f64> {
    if proba.ncols() != 2 {
        return Err(Error::NotBinary {
            what: "binary_brier_score_proba".into(),
            n_classes: proba.ncols(),
        });
    }
    check_proba(proba, y_true)?;
    let total: CompensatedSum = proba
        .column(1)
        .iter()
        .zip(y_true.iter())
        .map(|(&p1, &label)| {
            let residual = p1 - if label == 1 { 1.0 } else { 0.0 };
            residual * residual
        })
        .collect();
    Ok(total.value() / y_true.len() as f64)
}

/// The number of equal-width confidence bins conventionally used for the expected calibration
/// error (Guo et al. 2017); pass it to [`expected_calibration_error`] for the default.
pub const DEFAULT_CALIBRATION_BINS: usize = 10;

/// One non-empty bin of a reliability diagram: the rows whose top-label confidence lies in
/// `(lower, upper]` (the first bin also holds a confidence of exactly 0).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CalibrationBin {
    /// Lower edge of the bin (exclusive).
    pub lower: f64,
    /// Upper edge of the bin (inclusive).
    pub upper: f64,
    /// Number of rows in the bin (at least one).
    pub count: usize,
    /// Mean top-label confidence `max_k p(k | x_i)` of those rows.
    pub mean_confidence: f64,
    /// Fraction of those rows whose top label is the true class.
    pub accuracy: f64,
}

/// The reliability diagram: rows grouped by top-label confidence `c_i = max_k p(k | x_i)` into
/// `n_bins` equal-width bins `((b − 1)/B, b/B]`, with each bin's mean confidence and accuracy.
///
/// The top label is the most probable class (ties go to the lowest class, as
/// `Classifier::predict`). A confidence on a bin edge belongs to the lower bin, the edge being
/// compared in floating point as `⌈c·B⌉`; a confidence that exceeds one by rounding is clamped
/// to one. Empty bins are left out, so every reported mean is defined; bins come in increasing
/// order. Fails on `n_bins = 0` and otherwise as [`logistic_loss_sum`].
pub fn reliability_diagram(
    y_true: ArrayView1<'_, usize>,
    log_proba: ArrayView2<'_, f64>,
    n_bins: usize,
) -> Result<Vec<CalibrationBin>> {
    if n_bins == 0 {
        return Err(Error::invalid_parameter(
            "n_bins",
            "at least one bin is required",
        ));
    }
    check_log_proba(log_proba, y_true)?;
    let mut counts = vec![0_usize; n_bins];
    let mut correct = vec![0_usize; n_bins];
    let mut confidence_sums = vec![0.0_f64; n_bins];
    for (row, &label) in log_proba.outer_iter().zip(y_true.iter()) {
        let (prediction, log_confidence) = top_label(row);
        let confidence = log_confidence.exp().min(1.0);
        let bin = ((confidence * n_bins as f64).ceil() as usize).clamp(1, n_bins) - 1;
        counts[bin] += 1;
        confidence_sums[bin] += confidence;
        if prediction == label {
            correct[bin] += 1;
        }
    }
    let width = 1.0 / n_bins as f64;
    Ok((0..n_bins)
        .filter(|&bin| counts[bin] > 0)
        .map(|bin| CalibrationBin {
            lower: bin as f64 * width,
            upper: if bin + 1 == n_bins {
                1.0
            } else {
                (bin + 1) as f64 * width
            },
            count: counts[bin],
            mean_confidence: confidence_sums[bin] / counts[bin] as f64,
            accuracy: correct[bin] as f64 / counts[bin] as f64,
        })
        .collect())
}

/// The expected calibration error `ECE = Σ_b (n_b / n) |accuracy_b − confidence_b|` over the
/// equal-width top-label confidence bins of [`reliability_diagram`] (Naeini et al. 2015; Guo et
/// al. 2017), in `[0, 1]`. Use [`DEFAULT_CALIBRATION_BINS`] (10) unless a study says otherwise.
///
/// ```
/// use gendisc_metrics::{expected_calibration_error, DEFAULT_CALIBRATION_BINS};
/// use ndarray::array;
/// // Two rows at confidence 0.9, one right and one wrong: |0.5 − 0.9| = 0.4.
/// let log_proba = array![[0.9_f64.ln(), 0.1_f64.ln()], [0.9_f64.ln(), 0.1_f64.ln()]];
/// let ece = expected_calibration_error(array![0, 1].view(), log_proba.view(),
///     DEFAULT_CALIBRATION_BINS).unwrap();
/// assert!((ece - 0.4).abs() < 1e-15);
/// ```
pub fn expected_calibration_error(
    y_true: ArrayView1<'_, usize>,
    log_proba: ArrayView2<'_, f64>,
    n_bins: usize,
) -> Result<f64> {
    let bins = reliability_diagram(y_true, log_proba, n_bins)?;
    let n = y_true.len() as f64;
    Ok(bins
        .iter()
        .map(|bin| bin.count as f64 / n * (bin.accuracy - bin.mean_confidence).abs())
        .sum())
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use ndarray::{array, Array1, Array2};
    use proptest::prelude::*;

    fn log_of(p: Array2<f64>) -> Array2<f64> {
        p.mapv(f64::ln)
    }

    #[test]
    fn logistic_loss_by_hand() {
        let log_proba = log_of(array![[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.25, 0.25, 0.5]]);
        let y = array![0, 2, 1];
        let expected = -(0.7_f64.ln() + 0.6_f64.ln() + 0.25_f64.ln());
        assert_relative_eq!(
            logistic_loss_sum(y.view(), log_proba.view()).unwrap(),
            expected,
            max_relative = 1e-15
        );
        assert_relative_eq!(
            logistic_loss_mean(y.view(), log_proba.view()).unwrap(),
            expected / 3.0,
            max_relative = 1e-15
        );
    }

    #[test]
    fn logistic_loss_keeps_precision_that_probabilities_lose() {
        // log p = −1e-20 is a probability that rounds to 1, yet the loss is 1e-20, not 0.
        let tiny = 1e-20;
        let log_proba = array![[-tiny, -46.0]];
        assert_eq!(
            logistic_loss_sum(array![0].view(), log_proba.view()).unwrap(),
            tiny
        );
        assert_eq!(
            logistic_loss_sum(array![1].view(), log_proba.view()).unwrap(),
            46.0
        );
    }

    #[test]
    fn zero_probability_for_the_true_class_is_infinite_loss() {
        let log_proba = array![[0.0, f64::NEG_INFINITY], [0.5_f64.ln(), 0.5_f64.ln()]];
        let y = array![1, 0];
        assert_eq!(
            logistic_loss_sum(y.view(), log_proba.view()).unwrap(),
            f64::INFINITY
        );
        assert_eq!(
            logistic_loss_mean(y.view(), log_proba.view()).unwrap(),
            f64::INFINITY
        );
        // The Brier score stays finite: the row contributes (0 − 1)² + (1 − 0)² = 2.
        assert_relative_eq!(
            brier_score(y.view(), log_proba.view()).unwrap(),
            (2.0 + 0.5) / 2.0
        );
    }

    #[test]
    fn brier_by_hand() {
        let log_proba = log_of(array![[0.7, 0.2, 0.1], [0.1, 0.3, 0.6]]);
        let y = array![0, 1];
        // Row 0: 0.3² + 0.2² + 0.1² = 0.14; row 1: 0.1² + 0.7² + 0.6² = 0.86.
        assert_relative_eq!(
            brier_score(y.view(), log_proba.view()).unwrap(),
            0.5,
            max_relative = 1e-14
        );
        assert!(matches!(
            binary_brier_score(y.view(), log_proba.view()),
            Err(Error::NotBinary { n_classes: 3, .. })
        ));
        let binary = log_of(array![[0.9, 0.1], [0.4, 0.6], [0.3, 0.7]]);
        let y = array![0, 0, 1];
        // (0.1² + 0.6² + 0.3²) / 3 = 0.46 / 3.
        assert_relative_eq!(
            binary_brier_score(y.view(), binary.view()).unwrap(),
            0.46 / 3.0,
            max_relative = 1e-14
        );
    }

    #[test]
    fn calibration_by_hand() {
        // Confidences 0.95, 0.95, 0.65, 0.55 with correctness ✓ ✗ ✓ ✓.
        let log_proba = log_of(array![
            [0.95, 0.05],
            [0.95, 0.05],
            [0.35, 0.65],
            [0.55, 0.45]
        ]);
        let y = array![0, 1, 1, 0];
        let bins = reliability_diagram(y.view(), log_proba.view(), 10).unwrap();
        assert_eq!(bins.len(), 3);
        assert_eq!((bins[0].count, bins[1].count, bins[2].count), (1, 1, 2));
        assert_relative_eq!(bins[0].lower, 0.5);
        assert_relative_eq!(bins[2].upper, 1.0);
        assert_relative_eq!(bins[2].mean_confidence, 0.95, max_relative = 1e-15);
        assert_eq!(bins[2].accuracy, 0.5);
        // ECE = ¼|1 − 0.55| + ¼|1 − 0.65| + ½|0.5 − 0.95| = 0.1125 + 0.0875 + 0.225.
        let ece = expected_calibration_error(y.view(), log_proba.view(), 10).unwrap();
        assert_relative_eq!(ece, 0.425, max_relative = 1e-14);
        // One bin: |accuracy − mean confidence| = |0.75 − 0.775|.
        let ece = expected_calibration_error(y.view(), log_proba.view(), 1).unwrap();
        assert_relative_eq!(ece, 0.025, max_relative = 1e-12);
    }

    #[test]
    fn calibration_bin_edges_go_to_the_lower_bin() {
        // Confidence exactly 0.5 (and 1.0) lies on an edge: bins (0.4, 0.5] and (0.9, 1].
        let log_proba = log_of(array![[0.5, 0.5], [1.0, 0.0]]);
        let bins = reliability_diagram(array![0, 0].view(), log_proba.view(), 10).unwrap();
        assert_eq!(bins.len(), 2);
        assert_relative_eq!(bins[0].upper, 0.5);
        assert_eq!(bins[1].upper, 1.0);
        assert!(matches!(
            reliability_diagram(array![0, 0].view(), log_proba.view(), 0),
            Err(Error::InvalidParameter { name: "n_bins", .. })
        ));
    }

    #[test]
    fn bad_input_is_rejected_by_every_metric() {
        let good = log_of(array![[0.5, 0.5], [0.2, 0.8]]);
        type Metric = fn(ArrayView1<'_, usize>, ArrayView2<'_, f64>) -> Result<f64>;
        let metrics: [(&str, Metric); 5] = [
            ("sum", logistic_loss_sum),
            ("mean", logistic_loss_mean),
            ("brier", brier_score),
            ("binary brier", binary_brier_score),
            ("ece", |y, lp| {
                expected_calibration_error(y, lp, DEFAULT_CALIBRATION_BINS)
            }),
        ];
        for (name, metric) in metrics {
            assert!(metric(array![0, 1].view(), good.view()).is_ok(), "{name}");
            assert!(
                matches!(
                    metric(array![0].view(), good.view()),
                    Err(Error::ShapeMismatch { .. })
                ),
                "{name}"
            );
            assert!(
                matches!(
                    metric(array![0, 2].view(), good.view()),
                    Err(Error::LabelOutOfRange { row: 1, .. })
                ),
                "{name}"
            );
            let nan = array![[0.0, f64::NEG_INFINITY], [f64::NAN, 0.0]];
            assert!(
                matches!(
                    metric(array![0, 1].view(), nan.view()),
                    Err(Error::NonFinite {
                        row: 1,
                        column: 0,
                        ..
                    })
                ),
                "{name}"
            );
            let scores = array![[1.0, 2.0], [0.0, 0.0]];
            assert!(
                matches!(
                    metric(array![0, 1].view(), scores.view()),
                    Err(Error::InvalidValue { row: 0, .. })
                ),
                "{name}"
            );
            let empty = Array2::<f64>::zeros((0, 2));
            assert!(
                matches!(
                    metric(Array1::zeros(0).view(), empty.view()),
                    Err(Error::Empty { .. })
                ),
                "{name}"
            );
        }
    }

    /// Rows of random probabilities over `k` classes (some exactly zero), as log-probabilities,
    /// with random labels.
    fn log_proba_and_labels(k: usize) -> impl Strategy<Value = (Array2<f64>, Array1<usize>)> {
        prop::collection::vec(
            (
                prop::collection::vec(prop_oneof![Just(0.0), 0.0f64..1.0], k),
                0..k,
            ),
            1..40,
        )
        .prop_filter_map("a row needs positive mass", move |rows| {
            let n = rows.len();
            let mut log_proba = Array2::zeros((n, k));
            let mut labels = Array1::zeros(n);
            for (i, (weights, label)) in rows.into_iter().enumerate() {
                let total: f64 = weights.iter().sum();
                if total <= 0.0 {
                    return None;
                }
                for (j, w) in weights.into_iter().enumerate() {
                    log_proba[[i, j]] = (w / total).ln();
                }
                labels[i] = label;
            }
            Some((log_proba, labels))
        })
    }

    proptest! {
        #[test]
        fn brier_and_loss_ranges((log_proba, y) in (2usize..5).prop_flat_map(log_proba_and_labels)) {
            let brier = brier_score(y.view(), log_proba.view()).unwrap();
            prop_assert!((0.0..=2.0 + 1e-12).contains(&brier));
            let loss = logistic_loss_mean(y.view(), log_proba.view()).unwrap();
            prop_assert!(loss >= 0.0);
            let ece = expected_calibration_error(y.view(), log_proba.view(), 10).unwrap();
            prop_assert!((0.0..=1.0).contains(&ece));
            let ece = expected_calibration_error(y.view(), log_proba.view(), 1).unwrap();
            prop_assert!((0.0..=1.0).contains(&ece));
            let bins = reliability_diagram(y.view(), log_proba.view(), 7).unwrap();
            prop_assert_eq!(bins.iter().map(|b| b.count).sum::<usize>(), y.len());
        }

        #[test]
        fn binary_brier_is_half_the_multiclass_score((log_proba, y) in log_proba_and_labels(2)) {
            let multi = brier_score(y.view(), log_proba.view()).unwrap();
            let binary = binary_brier_score(y.view(), log_proba.view()).unwrap();
            prop_assert!((multi - 2.0 * binary).abs() <= 1e-14);
            prop_assert!((0.0..=1.0).contains(&binary));
        }
    }
}

#[cfg(test)]
mod proba_tests {
    use super::*;
    use approx::assert_relative_eq;
    use ndarray::{array, Array1, Array2};
    use proptest::prelude::*;

    #[test]
    fn log_loss_by_hand() {
        let proba = array![[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.25, 0.25, 0.5]];
        let y = array![0, 2, 1];
        let expected = -(0.7_f64.ln() + 0.6_f64.ln() + 0.25_f64.ln()) / 3.0;
        assert_relative_eq!(
            log_loss(y.view(), proba.view()).unwrap(),
            expected,
            max_relative = 1e-15
        );
    }

    #[test]
    fn log_loss_clips_as_scikit_learn_does() {
        // The true class has probability 0 in row 0 and 1 in row 1: the losses are −log ε and
        // −log(1 − ε), where the exact loss is +∞ and 0.
        let proba = array![[1.0, 0.0], [1.0, 0.0]];
        let y = array![1, 0];
        let expected = (-LOG_LOSS_EPS.ln() - (1.0 - LOG_LOSS_EPS).ln()) / 2.0;
        assert_eq!(log_loss(y.view(), proba.view()).unwrap(), expected);
        assert_relative_eq!(
            -LOG_LOSS_EPS.ln(),
            36.043_653_389_117_15,
            max_relative = 1e-15
        );
        assert_eq!(
            logistic_loss_mean(y.view(), proba.mapv(f64::ln).view()).unwrap(),
            f64::INFINITY
        );
    }

    #[test]
    fn brier_from_probabilities_by_hand() {
        let proba = array![[0.7, 0.2, 0.1], [0.1, 0.3, 0.6]];
        let y = array![0, 1];
        // Row 0: 0.3² + 0.2² + 0.1² = 0.14; row 1: 0.1² + 0.7² + 0.6² = 0.86.
        assert_relative_eq!(
            brier_score_proba(y.view(), proba.view()).unwrap(),
            0.5,
            max_relative = 1e-14
        );
        assert!(matches!(
            binary_brier_score_proba(y.view(), proba.view()),
            Err(Error::NotBinary { n_classes: 3, .. })
        ));
        let binary = array![[0.9, 0.1], [0.4, 0.6], [0.3, 0.7]];
        // (0.1² + 0.6² + 0.3²) / 3 = 0.46 / 3.
        assert_relative_eq!(
            binary_brier_score_proba(array![0, 0, 1].view(), binary.view()).unwrap(),
            0.46 / 3.0,
            max_relative = 1e-14
        );
    }

    #[test]
    fn probabilities_are_validated() {
        type Metric = fn(ArrayView1<'_, usize>, ArrayView2<'_, f64>) -> Result<f64>;
        let metrics: [(&str, Metric); 3] = [
            ("log_loss", log_loss),
            ("brier", brier_score_proba),
            ("binary brier", binary_brier_score_proba),
        ];
        let good = array![[0.5, 0.5], [0.2, 0.8]];
        for (name, metric) in metrics {
            assert!(metric(array![0, 1].view(), good.view()).is_ok(), "{name}");
            assert!(
                matches!(
                    metric(array![0].view(), good.view()),
                    Err(Error::ShapeMismatch {
                        expected: 2,
                        found: 1,
                        ..
                    })
                ),
                "{name}"
            );
            assert!(
                matches!(
                    metric(array![0, 2].view(), good.view()),
                    Err(Error::LabelOutOfRange { row: 1, .. })
                ),
                "{name}"
            );
            let nan = array![[0.5, 0.5], [f64::NAN, 1.0]];
            assert!(
                matches!(
                    metric(array![0, 1].view(), nan.view()),
                    Err(Error::NonFinite {
                        row: 1,
                        column: 0,
                        ..
                    })
                ),
                "{name}"
            );
            // Log-probabilities passed by mistake are negative, and the error says so.
            let log_proba = good.mapv(f64::ln);
            match metric(array![0, 1].view(), log_proba.view()) {
                Err(Error::InvalidValue {
                    row: 0,
                    column: 0,
                    reason,
                    ..
                }) => assert!(reason.contains("logistic_loss_mean"), "{name}: {reason}"),
                other => panic!("{name}: {other:?}"),
            }
            let above_one = array![[1.5, -0.5]];
            assert!(
                matches!(
                    metric(array![0].view(), above_one.view()),
                    Err(Error::InvalidValue {
                        row: 0,
                        column: 0,
                        ..
                    })
                ),
                "{name}"
            );
            let unnormalised = array![[0.5, 0.5], [0.2, 0.7]];
            assert!(
                matches!(
                    metric(array![0, 1].view(), unnormalised.view()),
                    Err(Error::InvalidValue { row: 1, value, .. }) if (value - 0.9).abs() < 1e-12
                ),
                "{name}"
            );
            // Probabilities rounded to six digits are still accepted.
            let rounded = array![[0.333333, 0.666667]];
            assert!(metric(array![1].view(), rounded.view()).is_ok(), "{name}");
            let empty = Array2::<f64>::zeros((0, 2));
            assert!(
                matches!(
                    metric(Array1::zeros(0).view(), empty.view()),
                    Err(Error::Empty { .. })
                ),
                "{name}"
            );
        }
    }

    /// Rows of random probabilities over `k` classes, bounded away from the clipping range,
    /// with random labels.
    fn proba_and_labels(k: usize) -> impl Strategy<Value = (Array2<f64>, Array1<usize>)> {
        prop::collection::vec((prop::collection::vec(0.001f64..1.0, k), 0..k), 1..40).prop_map(
            move |rows| {
                let n = rows.len();
                let mut proba = Array2::zeros((n, k));
                let mut labels = Array1::zeros(n);
                for (i, (weights, label)) in rows.into_iter().enumerate() {
                    let total: f64 = weights.iter().sum();
                    for (j, w) in weights.into_iter().enumerate() {
                        proba[[i, j]] = w / total;
                    }
                    labels[i] = label;
                }
                (proba, labels)
            },
        )
    }

    proptest! {
        #[test]
        fn probability_metrics_equal_their_log_probability_twins(
            (proba, y) in (2usize..5).prop_flat_map(proba_and_labels)
        ) {
            let log_proba = proba.mapv(f64::ln);
            let clipped = log_loss(y.view(), proba.view()).unwrap();
            let exact = logistic_loss_mean(y.view(), log_proba.view()).unwrap();
            prop_assert!((clipped - exact).abs() <= 1e-14 * exact.max(1.0), "{clipped} vs {exact}");
            let from_proba = brier_score_proba(y.view(), proba.view()).unwrap();
            let from_log = brier_score(y.view(), log_proba.view()).unwrap();
            prop_assert!((from_proba - from_log).abs() <= 1e-14, "{from_proba} vs {from_log}");
        }

        #[test]
        fn binary_brier_equals_its_twin((proba, y) in proba_and_labels(2)) {
            let from_proba = binary_brier_score_proba(y.view(), proba.view()).unwrap();
            let from_log = binary_brier_score(y.view(), proba.mapv(f64::ln).view()).unwrap();
            prop_assert!((from_proba - from_log).abs() <= 1e-14);
            let multi = brier_score_proba(y.view(), proba.view()).unwrap();
            prop_assert!((multi - 2.0 * from_proba).abs() <= 1e-14);
        }
    }
}

#[cfg(test)]
mod log_odds_tests {
    use super::*;
    use gendisc_core::numerics::{log1pexp, Log1pSum};
    use ndarray::{array, Array2};
    use proptest::prelude::*;

    #[test]
    fn log_odds_loss_rejects_bad_input() {
        assert!(binary_logistic_loss_sum(array![0, 1].view(), array![0.0].view()).is_err());
        assert!(binary_logistic_loss_sum(array![2].view(), array![0.0].view()).is_err());
        assert!(binary_logistic_loss_sum(array![0].view(), array![f64::NAN].view()).is_err());
        assert_eq!(
            binary_logistic_loss_sum(array![0].view(), array![f64::INFINITY].view()).unwrap(),
            f64::INFINITY
        );
        assert_eq!(
            binary_logistic_loss_sum(array![1].view(), array![f64::INFINITY].view()).unwrap(),
            0.0
        );
    }

    /// The loss summed one row at a time, every branch taken as it comes: the formulation
    /// the chunked passes must reproduce bit for bit (with the same exponential).
    fn one_row_at_a_time(y: &[usize], eta: &[f64]) -> f64 {
        let exp = |x: f64| {
            let mut v = [x];
            exp_in_place(&mut v);
            v[0]
        };
        let mut linear = CompensatedSum::default();
        let mut log1p = Log1pSum::new();
        for (&eta, &label) in eta.iter().zip(y) {
            let t = if label == 1 { -eta } else { eta };
            if t > 33.3 {
                linear.add(t);
                continue;
            }
            if t <= -37.0 {
                linear.add(exp(t));
                continue;
            }
            if t > 0.0 {
                linear.add(t);
            }
            log1p.add(exp(-t.abs()));
        }
        linear.add(log1p.value());
        linear.value()
    }

    #[test]
    fn errors_name_their_row_across_chunks() {
        let mut eta = vec![0.5; 700];
        let mut y = vec![1; 700];
        y[612] = 3;
        assert!(matches!(
            binary_logistic_loss_sum(
                ndarray::ArrayView1::from(&y),
                ndarray::ArrayView1::from(&eta)
            ),
            Err(Error::LabelOutOfRange {
                row: 612,
                label: 3,
                ..
            })
        ));
        eta[300] = f64::NAN;
        assert!(matches!(
            binary_logistic_loss_sum(
                ndarray::ArrayView1::from(&y),
                ndarray::ArrayView1::from(&eta)
            ),
            Err(Error::NonFinite { row: 300, .. })
        ));
    }

    proptest! {
        #[test]
        /// To the documented relative accuracy, also where every row is far in a tail (a sum
        /// of tiny terms) and over the series' threshold.
        fn log_odds_loss_equals_the_log_proba_loss(
            rows in prop::collection::vec(
                (prop_oneof![-60.0f64..60.0, -12.0f64..-6.0, 6.0f64..12.0], 0usize..2),
                1..200,
            )
        ) {
            let eta: Vec<f64> = rows.iter().map(|r| r.0).collect();
            let y: Vec<usize> = rows.iter().map(|r| r.1).collect();
            let log_proba = Array2::from_shape_fn((rows.len(), 2), |(i, k)| {
                if k == 1 { -log1pexp(-eta[i]) } else { -log1pexp(eta[i]) }
            });
            let expected = logistic_loss_sum(ndarray::ArrayView1::from(&y), log_proba.view()).unwrap();
            let got = binary_logistic_loss_sum(ndarray::ArrayView1::from(&y), ndarray::ArrayView1::from(&eta)).unwrap();
            prop_assert!((got - expected).abs() <= 2e-12 * expected, "{got} vs {expected}");
        }

        #[test]
        /// The chunked passes give the bits of the one-pass sum, over several chunks, with both
        /// tails, and from strided views.
        fn log_odds_loss_is_the_one_pass_sum_bit_for_bit(
            rows in prop::collection::vec(
                (prop_oneof![-60.0f64..60.0, -40.0f64..-35.0, 30.0f64..36.0, -1e-3f64..1e-3], 0usize..2),
                1..900,
            )
        ) {
            let eta: Vec<f64> = rows.iter().map(|r| r.0).collect();
            let y: Vec<usize> = rows.iter().map(|r| r.1).collect();
            let expected = one_row_at_a_time(&y, &eta);
            let got = binary_logistic_loss_sum(ndarray::ArrayView1::from(&y), ndarray::ArrayView1::from(&eta)).unwrap();
            prop_assert_eq!(got.to_bits(), expected.to_bits());
            let table = Array2::from_shape_fn((rows.len(), 2), |(i, k)| if k == 0 { eta[i] } else { -1.0 });
            let labels = Array2::from_shape_fn((rows.len(), 2), |(i, _)| y[i]);
            let strided = binary_logistic_loss_sum(labels.column(1), table.column(0)).unwrap();
            prop_assert_eq!(strided.to_bits(), expected.to_bits());
        }
    }
}
