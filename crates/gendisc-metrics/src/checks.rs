//! Input checks shared by the metrics, and small helpers every metric module uses.

use gendisc_core::numerics::log_sum_exp_view;
use gendisc_core::{Error, Result};
use ndarray::{ArrayView1, ArrayView2};

/// How far a row of log-probabilities may log-sum-exp from 0 before it is rejected as not
/// being a probability distribution (absolute, on the log scale: about `10⁻⁶` relative on the
/// probability scale). Models produce rows within a few ulps of 0; the tolerance only admits
/// probabilities rounded for storage.
pub const LOG_PROBA_NORMALISATION_TOLERANCE: f64 = 1e-6;

/// `y_true` and `y_pred` are non-empty and equally long.
pub(crate) fn check_label_pair<L>(
    y_true: ArrayView1<'_, L>,
    y_pred: ArrayView1<'_, L>,
) -> Result<()> {
    if y_pred.len() != y_true.len() {
        return Err(Error::shape_mismatch(
            "length of y_pred vs length of y_true",
            y_true.len(),
            y_pred.len(),
        ));
    }
    if y_true.is_empty() {
        return Err(Error::Empty {
            what: "y_true".into(),
        });
    }
    Ok(())
}

/// Every true label is a class index in `0..n_classes`.
pub(crate) fn check_true_labels(y_true: ArrayView1<'_, usize>, n_classes: usize) -> Result<()> {
    match y_true.iter().position(|&label| label >= n_classes) {
        Some(row) => Err(Error::LabelOutOfRange {
            row,
            label: y_true[row],
            n_classes,
        }),
        None => Ok(()),
    }
}

/// Every predicted label is a class index in `0..n_classes`. Reported as an
/// [`Error::InvalidValue`] naming `y_pred`, so that it cannot be mistaken for a bad true label.
pub(crate) fn check_predicted_labels(
    y_pred: ArrayView1<'_, usize>,
    n_classes: usize,
) -> Result<()> {
    match y_pred.iter().position(|&label| label >= n_classes) {
        Some(row) => Err(Error::InvalidValue {
            what: "y_pred".into(),
            row,
            column: 0,
            value: y_pred[row] as f64,
            reason: format!("predicted class out of range: expected a class in 0..{n_classes}"),
        }),
        None => Ok(()),
    }
}

/// Optional per-row weights: as many as `y_true`, finite, non-negative and not all zero.
pub(crate) fn check_sample_weights(weights: ArrayView1<'_, f64>, n_rows: usize) -> Result<()> {
    if weights.len() != n_rows {
        return Err(Error::shape_mismatch(
            "length of sample weights vs length of y_true",
            n_rows,
            weights.len(),
        ));
    }
    gendisc_core::validate::check_weights(weights, n_rows)
}

/// A matrix of conditional log-probabilities `log p(y = k | x_i)`:
///
/// * at least one row and one column;
/// * no NaN and no `+∞` (`−∞`, a zero probability, is allowed);
/// * each row log-sum-exps to 0 within [`LOG_PROBA_NORMALISATION_TOLERANCE`], which catches
///   unnormalised scores such as log joint densities passed by mistake.
pub(crate) fn check_log_proba_matrix(log_proba: ArrayView2<'_, f64>) -> Result<()> {
    if log_proba.nrows() == 0 {
        return Err(Error::Empty {
            what: "log_proba (no rows)".into(),
        });
    }
    if log_proba.ncols() == 0 {
        return Err(Error::Empty {
            what: "log_proba (no columns)".into(),
        });
    }
    for (row, values) in log_proba.outer_iter().enumerate() {
        if let Some(column) = values
            .iter()
            .position(|v| v.is_nan() || *v == f64::INFINITY)
        {
            return Err(Error::NonFinite {
                what: "log_proba".into(),
                row,
                column,
                value: values[column],
            });
        }
        let normaliser = log_sum_exp_view(values);
        // The row holds no NaN, so neither does its normaliser; an all −∞ row gives −∞.
        if normaliser.abs() > LOG_PROBA_NORMALISATION_TOLERANCE {
            return Err(Error::InvalidValue {
                what: "log_proba".into(),
                row,
                column: 0,
                value: normaliser,
                reason: "the row log-sum-exps to this value instead of 0, so it is not a \
                         vector of log-probabilities (log joint densities or raw scores?)"
                    .into(),
            });
        }
    }
    Ok(())
}

/// How far a row of probabilities may sum from 1 before it is rejected as not being a
/// probability distribution (absolute). The same allowance as
/// [`LOG_PROBA_NORMALISATION_TOLERANCE`] on the log scale: it admits probabilities rounded for
/// storage, and catches scores, counts or a single column passed by mistake.
pub const PROBA_NORMALISATION_TOLERANCE: f64 = 1e-6;

/// A matrix of conditional probabilities `p(y = k | x_i)` paired with true labels:
///
/// * at least one row and one column, and as many labels as rows, each in `0..K`;
/// * every entry finite and in `[0, 1]` (a negative entry is reported with a hint that the
///   matrix may hold log-probabilities);
/// * each row sums to 1 within [`PROBA_NORMALISATION_TOLERANCE`].
pub(crate) fn check_proba(proba: ArrayView2<'_, f64>, y_true: ArrayView1<'_, usize>) -> Result<()> {
    if proba.nrows() != y_true.len() {
        return Err(Error::shape_mismatch(
            "length of y_true vs rows of proba",
            proba.nrows(),
            y_true.len(),
        ));
    }
    if proba.nrows() == 0 {
        return Err(Error::Empty {
            what: "proba (no rows)".into(),
        });
    }
    if proba.ncols() == 0 {
        return Err(Error::Empty {
            what: "proba (no columns)".into(),
        });
    }
    for (row, values) in proba.outer_iter().enumerate() {
        if let Some(column) = values.iter().position(|v| !v.is_finite()) {
            return Err(Error::NonFinite {
                what: "proba".into(),
                row,
                column,
                value: values[column],
            });
        }
        if let Some(column) = values.iter().position(|v| !(0.0..=1.0).contains(v)) {
            let hint = if values[column] < 0.0 {
                "; log-probabilities go to the metrics that take them (logistic_loss_mean, \
                 brier_score, binary_brier_score)"
            } else {
                ""
            };
            return Err(Error::InvalidValue {
                what: "proba".into(),
                row,
                column,
                value: values[column],
                reason: format!("a probability must lie in [0, 1]{hint}"),
            });
        }
        let total: CompensatedSum = values.iter().copied().collect();
        let total = total.value();
        if (total - 1.0).abs() > PROBA_NORMALISATION_TOLERANCE {
            return Err(Error::InvalidValue {
                what: "proba".into(),
                row,
                column: 0,
                value: total,
                reason: "the row sums to this value instead of 1, so it is not a distribution \
                         over the classes (one column per class is expected)"
                    .into(),
            });
        }
    }
    check_true_labels(y_true, proba.ncols())
}

/// [`check_log_proba_matrix`] paired with true labels: as many labels as rows, each in
/// `0..K`.
pub(crate) fn check_log_proba(
    log_proba: ArrayView2<'_, f64>,
    y_true: ArrayView1<'_, usize>,
) -> Result<()> {
    if log_proba.nrows() != y_true.len() {
        return Err(Error::shape_mismatch(
            "length of y_true vs rows of log_proba",
            log_proba.nrows(),
            y_true.len(),
        ));
    }
    check_log_proba_matrix(log_proba)?;
    check_true_labels(y_true, log_proba.ncols())
}

/// The top-label prediction of a row of log-probabilities and its log-probability: the first
/// index of the maximum (ties go to the lowest class, as in `gendisc_core::numerics::argmax`).
/// The row must be non-empty and NaN-free (see [`check_log_proba`]).
pub(crate) fn top_label(row: ArrayView1<'_, f64>) -> (usize, f64) {
    let mut best = (0, f64::NEG_INFINITY);
    for (k, &value) in row.iter().enumerate() {
        if value > best.1 || k == 0 {
            best = (k, value);
        }
    }
    best
}

/// Neumaier's compensated summation: the sum of many terms with an error that does not grow
/// with their number, so that means over large test sets match references to the last digits.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CompensatedSum {
    sum: f64,
    compensation: f64,
}

impl CompensatedSum {
    /// Adds one term.
    pub(crate) fn add(&mut self, value: f64) {
        let total = self.sum + value;
        self.compensation += if self.sum.abs() >= value.abs() {
            (self.sum - total) + value
        } else {
            (value - total) + self.sum
        };
        self.sum = total;
    }

    /// The compensated total; an infinite running sum is returned as is (its compensation is
    /// meaningless).
    pub(crate) fn value(&self) -> f64 {
        if self.sum.is_finite() {
            self.sum + self.compensation
        } else {
            self.sum
        }
    }
}

impl FromIterator<f64> for CompensatedSum {
    fn from_iter<I: IntoIterator<Item = f64>>(iter: I) -> Self {
        let mut sum = CompensatedSum::default();
        iter.into_iter().for_each(|v| sum.add(v));
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn compensated_sum_recovers_cancelled_terms() {
        let naive: f64 = [1.0, 1e100, 1.0, -1e100].iter().sum();
        assert_eq!(naive, 0.0);
        let sum: CompensatedSum = [1.0, 1e100, 1.0, -1e100].into_iter().collect();
        assert_eq!(sum.value(), 2.0);
        let sum: CompensatedSum = std::iter::repeat_n(0.1, 10).collect();
        assert_eq!(sum.value(), 1.0);
        let sum: CompensatedSum = [1.0, f64::INFINITY, 2.0].into_iter().collect();
        assert_eq!(sum.value(), f64::INFINITY);
    }

    #[test]
    fn top_label_breaks_ties_low_and_accepts_minus_infinity() {
        assert_eq!(top_label(array![-1.0, -0.5, -0.5].view()), (1, -0.5));
        assert_eq!(top_label(array![f64::NEG_INFINITY, 0.0].view()), (1, 0.0));
        assert_eq!(top_label(array![0.0, f64::NEG_INFINITY].view()), (0, 0.0));
    }

    #[test]
    fn log_proba_checks_name_the_offender() {
        let half = 0.5_f64.ln();
        let good = array![[half, half], [0.0, f64::NEG_INFINITY]];
        assert!(check_log_proba(good.view(), array![0, 1].view()).is_ok());
        assert!(matches!(
            check_log_proba(good.view(), array![0].view()),
            Err(Error::ShapeMismatch {
                expected: 2,
                found: 1,
                ..
            })
        ));
        assert!(matches!(
            check_log_proba(good.view(), array![0, 2].view()),
            Err(Error::LabelOutOfRange {
                row: 1,
                label: 2,
                n_classes: 2
            })
        ));
        let nan = array![[half, half], [f64::NAN, 0.0]];
        assert!(matches!(
            check_log_proba(nan.view(), array![0, 1].view()),
            Err(Error::NonFinite {
                row: 1,
                column: 0,
                ..
            })
        ));
        let plus_infinity = array![[half, f64::INFINITY]];
        assert!(matches!(
            check_log_proba(plus_infinity.view(), array![0].view()),
            Err(Error::NonFinite {
                row: 0,
                column: 1,
                ..
            })
        ));
        let unnormalised = array![[half, half], [-3.0, -4.0]];
        assert!(matches!(
            check_log_proba(unnormalised.view(), array![0, 1].view()),
            Err(Error::InvalidValue { row: 1, .. })
        ));
        let all_zero_probability = array![[f64::NEG_INFINITY, f64::NEG_INFINITY]];
        assert!(matches!(
            check_log_proba(all_zero_probability.view(), array![0].view()),
            Err(Error::InvalidValue { row: 0, .. })
        ));
        let empty = ndarray::Array2::<f64>::zeros((0, 2));
        assert!(matches!(
            check_log_proba(empty.view(), ndarray::Array1::<usize>::zeros(0).view()),
            Err(Error::Empty { .. })
        ));
        let no_columns = ndarray::Array2::<f64>::zeros((1, 0));
        assert!(matches!(
            check_log_proba(no_columns.view(), array![0].view()),
            Err(Error::Empty { .. })
        ));
    }
}
