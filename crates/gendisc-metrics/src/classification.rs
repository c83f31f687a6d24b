//! Metrics on hard predictions: error rate, confusion matrix and cost-weighted error.
//!
//! Classes are indices `0..K` (see `gendisc_core::ClassLabels` for the map from a data set's
//! own labels). The cost-weighted error uses a [`CostMatrix`] `C[true][predicted]`, the layout
//! of the Statlog documentation, e.g. the *heart* data set, where missing a heart disease costs
//! 5 and a false alarm 1 (Bouchard & Triggs 2004, Table 1).

use gendisc_core::{Error, Result};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use serde::{Deserialize, Serialize};

use crate::checks::{
    check_label_pair, check_log_proba_matrix, check_predicted_labels, check_sample_weights,
    check_true_labels, CompensatedSum,
};

/// The misclassification error rate (ER of Xue & Titterington, §3.1.3): the fraction of rows
/// whose predicted class differs from the true class, in `[0, 1]`.
///
/// Fails with [`Error::ShapeMismatch`] when the lengths differ and [`Error::Empty`] for no rows.
///
/// ```
/// use gendisc_metrics::error_rate;
/// use ndarray::array;
/// let er = error_rate(array![0, 1, 1, 2].view(), array![0, 1, 2, 2].view()).unwrap();
/// assert_eq!(er, 0.25);
/// ```
pub fn error_rate(y_true: ArrayView1<'_, usize>, y_pred: ArrayView1<'_, usize>) -> Result<f64> {
    check_label_pair(y_true, y_pred)?;
    let errors = y_true
        .iter()
        .zip(y_pred.iter())
        .filter(|(truth, prediction)| truth != prediction)
        .count();
    Ok(errors as f64 / y_true.len() as f64)
}

/// The accuracy, the fraction of rows whose predicted label equals the true label, in
/// `[0, 1]`: scikit-learn's `accuracy_score(y_true, y_pred)`.
///
/// Takes labels of any type that compares for equality — class indices, or the user's own
/// labels (`String`s, integers…) as a `LabelledModel` predicts them — so no encoding is needed.
/// It is `1 −` [`label_error_rate`].
///
/// Fails with [`Error::ShapeMismatch`] when the lengths differ and [`Error::Empty`] for no rows.
///
/// ```
/// use gendisc_metrics::accuracy;
/// let truth = ["spam", "ham", "ham", "spam"];
/// let predicted = ["spam", "ham", "spam", "spam"];
/// assert_eq!(accuracy(&truth, &predicted)?, 0.75);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
pub fn accuracy<L: PartialEq>(y_true: &[L], y_pred: &[L]) -> Result<f64> {
    Ok(count_agreeing(y_true, y_pred)? as f64 / y_true.len() as f64)
}

/// The error rate over labels of any type, the fraction of rows whose predicted label differs
/// from the true label, in `[0, 1]`: [`error_rate`] for the user's own labels, and
/// `1 −` [`accuracy`] (computed as a count, so without rounding).
///
/// Fails with [`Error::ShapeMismatch`] when the lengths differ and [`Error::Empty`] for no rows.
///
/// ```
/// use gendisc_metrics::label_error_rate;
/// let truth = vec!["a".to_string(), "b".to_string()];
/// let predicted = vec!["a".to_string(), "a".to_string()];
/// assert_eq!(label_error_rate(&truth, &predicted)?, 0.5);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
pub fn label_error_rate<L: PartialEq>(y_true: &[L], y_pred: &[L]) -> Result<f64> {
    let agreeing = count_agreeing(y_true, y_pred)?;
    Ok((y_true.len() - agreeing) as f64 / y_true.len() as f64)
}

/// The number of rows where `y_pred` equals `y_true`, after checking that both are non-empty
/// and equally long.
fn count_agreeing<L: PartialEq>(y_true: &[L], y_pred: &[L]) -> Result<usize> {
    check_label_pair(ArrayView1::from(y_true), ArrayView1::from(y_pred))?;
    Ok(y_true
        .iter()
        .zip(y_pred)
        .filter(|(truth, prediction)| truth == prediction)
        .count())
}

/// The weighted error rate `Σ_i w_i 1{ŷ_i ≠ y_i} / Σ_i w_i`, in `[0, 1]`; unit weights give
/// [`error_rate`].
///
/// Fails on a length mismatch, no rows, or weights that are negative, non-finite or all zero.
///
/// ```
/// use gendisc_metrics::weighted_error_rate;
/// use ndarray::array;
/// let w = array![1.0, 1.0, 2.0];
/// let er = weighted_error_rate(array![0, 1, 1].view(), array![0, 1, 0].view(), w.view());
/// assert_eq!(er.unwrap(), 0.5);
/// ```
pub fn weighted_error_rate(
    y_true: ArrayView1<'_, usize>,
    y_pred: ArrayView1<'_, usize>,
    sample_weight: ArrayView1<'_, f64>,
) -> Result<f64> {
    check_label_pair(y_true, y_pred)?;
    check_sample_weights(sample_weight, y_true.len())?;
    let mut wrong = CompensatedSum::default();
    let mut total = CompensatedSum::default();
    for ((truth, prediction), &weight) in y_true.iter().zip(y_pred.iter()).zip(sample_weight) {
        total.add(weight);
        if truth != prediction {
            wrong.add(weight);
        }
    }
    Ok(wrong.value() / total.value())
}

/// The `K × K` confusion matrix `N[true][predicted]`, counting rows (scikit-learn's layout).
///
/// Fails on a length mismatch, no rows, `n_classes = 0`, or a label outside `0..n_classes`
/// ([`Error::LabelOutOfRange`] for `y_true`, [`Error::InvalidValue`] naming `y_pred`).
///
/// ```
/// use gendisc_metrics::confusion_matrix;
/// use ndarray::array;
/// let n = confusion_matrix(array![0, 0, 1].view(), array![0, 1, 1].view(), 2).unwrap();
/// assert_eq!(n, array![[1, 1], [0, 1]]);
/// ```
pub fn confusion_matrix(
    y_true: ArrayView1<'_, usize>,
    y_pred: ArrayView1<'_, usize>,
    n_classes: usize,
) -> Result<Array2<usize>> {
    check_label_pair(y_true, y_pred)?;
    if n_classes == 0 {
        return Err(Error::invalid_parameter(
            "n_classes",
            "at least one class is required",
        ));
    }
    check_true_labels(y_true, n_classes)?;
    check_predicted_labels(y_pred, n_classes)?;
    let mut counts = Array2::zeros((n_classes, n_classes));
    for (&truth, &prediction) in y_true.iter().zip(y_pred.iter()) {
        counts[[truth, prediction]] += 1;
    }
    Ok(counts)
}

/// A validated `K × K` misclassification cost matrix, `C[true][predicted]`: the cost of
/// predicting class `j` for a row of class `k` is `C[k][j]`. Entries are finite and
/// non-negative; the diagonal (the cost of a correct answer) is usually zero but need not be.
///
/// Rows index the **true** class and columns the **predicted** class, as in the Statlog
/// documentation. For the Statlog *heart* data (classes `1` absence, `2` presence, encoded as
/// `0` and `1` by `ClassLabels`), missing a present disease costs 5 and a false alarm 1:
///
/// ```
/// use gendisc_metrics::{cost_weighted_error, CostMatrix};
/// use ndarray::array;
/// let heart = CostMatrix::new(array![[0.0, 1.0], [5.0, 0.0]]).unwrap();
/// // One false alarm and one missed disease among four rows: (1 + 5) / 4.
/// let y_true = array![0, 0, 1, 1];
/// let y_pred = array![0, 1, 0, 1];
/// assert_eq!(cost_weighted_error(y_true.view(), y_pred.view(), &heart).unwrap(), 1.5);
/// ```
///
/// Deserialisation validates like [`CostMatrix::new`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Array2<f64>", into = "Array2<f64>")]
pub struct CostMatrix {
    costs: Array2<f64>,
}

impl CostMatrix {
    /// Validates a cost matrix: square, at least `1 × 1`, every entry finite and `≥ 0`.
    pub fn new(costs: Array2<f64>) -> Result<Self> {
        if costs.nrows() != costs.ncols() {
            return Err(Error::shape_mismatch(
                "columns vs rows of the cost matrix",
                costs.nrows(),
                costs.ncols(),
            ));
        }
        if costs.is_empty() {
            return Err(Error::Empty {
                what: "cost matrix".into(),
            });
        }
        gendisc_core::validate::check_finite_matrix(costs.view(), "cost matrix")?;
        if let Some(((row, column), &value)) = costs.indexed_iter().find(|&(_, &c)| c < 0.0) {
            return Err(Error::InvalidValue {
                what: "cost matrix".into(),
                row,
                column,
                value,
                reason: "costs must be non-negative".into(),
            });
        }
        Ok(Self { costs })
    }

    /// The 0–1 cost matrix (`C[k][j] = 1{k ≠ j}`), whose cost-weighted error is the error rate.
    pub fn zero_one(n_classes: usize) -> Result<Self> {
        if n_classes == 0 {
            return Err(Error::invalid_parameter(
                "n_classes",
                "at least one class is required",
            ));
        }
        Ok(Self {
            costs: Array2::from_shape_fn(
                (n_classes, n_classes),
                |(k, j)| {
                    if k == j {
                        0.0
                    } else {
                        1.0
                    }
                },
            ),
        })
    }

    /// Number of classes `K`.
    pub fn n_classes(&self) -> usize {
        self.costs.nrows()
    }

    /// The costs, `C[true][predicted]`.
    pub fn costs(&self) -> ArrayView2<'_, f64> {
        self.costs.view()
    }

    /// The cost of predicting `predicted` for a row of class `true_class`, or `None` when
    /// either index is not a class.
    pub fn cost(&self, true_class: usize, predicted: usize) -> Option<f64> {
        self.costs.get([true_class, predicted]).copied()
    }

    /// The decisions of least expected cost, `ŷ_i = argmin_j Σ_k p(k | x_i) C[k][j]` (ties go
    /// to the lowest class). Under the 0–1 cost this is the most probable class; under the
    /// Statlog *heart* costs a row is called diseased once `p(disease | x) > 1/6`.
    ///
    /// `log_proba` is the `n × K` matrix returned by `ConditionalModel::predict_log_proba`.
    /// Fails when its columns differ from `K`, when it is empty or holds NaN or `+∞`, or when a
    /// row does not log-sum-exp to 0.
    ///
    /// ```
    /// use gendisc_metrics::CostMatrix;
    /// use ndarray::array;
    /// let heart = CostMatrix::new(array![[0.0, 1.0], [5.0, 0.0]]).unwrap();
    /// let log_proba = array![[0.9_f64.ln(), 0.1_f64.ln()], [0.8_f64.ln(), 0.2_f64.ln()]];
    /// assert_eq!(heart.min_expected_cost_predictions(log_proba.view()).unwrap().to_vec(), [0, 1]);
    /// ```
    pub fn min_expected_cost_predictions(
        &self,
        log_proba: ArrayView2<'_, f64>,
    ) -> Result<Array1<usize>> {
        if log_proba.ncols() != self.n_classes() {
            return Err(Error::shape_mismatch(
                "columns of log_proba vs classes of the cost matrix",
                self.n_classes(),
                log_proba.ncols(),
            ));
        }
        check_log_proba_matrix(log_proba)?;
        let k = self.n_classes();
        let mut expected_cost = vec![0.0; k];
        let predictions = log_proba
            .outer_iter()
            .map(|row| {
                expected_cost.fill(0.0);
                for (true_class, &log_p) in row.iter().enumerate() {
                    let p = log_p.exp();
                    for (decision, cost) in expected_cost.iter_mut().enumerate() {
                        *cost += p * self.costs[[true_class, decision]];
                    }
                }
                let mut best = 0;
                for (decision, &cost) in expected_cost.iter().enumerate() {
                    if cost < expected_cost[best] {
                        best = decision;
                    }
                }
                best
            })
            .collect();
        Ok(predictions)
    }
}

impl TryFrom<Array2<f64>> for CostMatrix {
    type Error = Error;

    fn try_from(costs: Array2<f64>) -> Result<Self> {
        Self::new(costs)
    }
}

impl From<CostMatrix> for Array2<f64> {
    fn from(matrix: CostMatrix) -> Self {
        matrix.costs
    }
}

/// The mean misclassification cost `(1/n) Σ_i C[y_i][ŷ_i]`: the cost-weighted error that the
/// Statlog project reports for *heart* (and Bouchard & Triggs 2004, Table 1, with a missed
/// disease costing 5). Under [`CostMatrix::zero_one`] it equals [`error_rate`].
///
/// Fails on a length mismatch, no rows, or a label outside the cost matrix's classes
/// ([`Error::LabelOutOfRange`] for `y_true`, [`Error::InvalidValue`] naming `y_pred`).
pub fn cost_weighted_error(
    y_true: ArrayView1<'_, usize>,
    y_pred: ArrayView1<'_, usize>,
    cost: &CostMatrix,
) -> Result<f64> {
    check_label_pair(y_true, y_pred)?;
    check_true_labels(y_true, cost.n_classes())?;
    check_predicted_labels(y_pred, cost.n_classes())?;
    let total: CompensatedSum = y_true
        .iter()
        .zip(y_pred.iter())
        .map(|(&truth, &prediction)| cost.costs[[truth, prediction]])
        .collect();
    Ok(total.value() / y_true.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;
    use proptest::prelude::*;

    #[test]
    fn error_rate_by_hand() {
        let y = array![0, 1, 2, 1, 0];
        assert_eq!(error_rate(y.view(), y.view()).unwrap(), 0.0);
        assert_eq!(
            error_rate(y.view(), array![1, 0, 0, 0, 1].view()).unwrap(),
            1.0
        );
        assert_eq!(
            error_rate(y.view(), array![0, 1, 2, 2, 2].view()).unwrap(),
            0.4
        );
    }

    #[test]
    fn error_rate_bad_input() {
        assert!(matches!(
            error_rate(array![0, 1].view(), array![0].view()),
            Err(Error::ShapeMismatch {
                expected: 2,
                found: 1,
                ..
            })
        ));
        let none = Array1::<usize>::zeros(0);
        assert!(matches!(
            error_rate(none.view(), none.view()),
            Err(Error::Empty { .. })
        ));
    }

    #[test]
    fn accuracy_and_label_error_rate_on_any_labels() {
        let truth = ["cat", "dog", "dog", "bird", "cat"];
        let predicted = ["cat", "cat", "dog", "bird", "dog"];
        assert_eq!(accuracy(&truth, &predicted).unwrap(), 0.6);
        assert_eq!(label_error_rate(&truth, &predicted).unwrap(), 0.4);
        // On class indices they agree with error_rate.
        let y_true = [0usize, 1, 2, 1, 0, 2, 2];
        let y_pred = [0usize, 2, 2, 1, 1, 2, 0];
        let er = error_rate(ArrayView1::from(&y_true), ArrayView1::from(&y_pred)).unwrap();
        assert_eq!(label_error_rate(&y_true, &y_pred).unwrap(), er);
        assert_eq!(accuracy(&y_true, &y_pred).unwrap(), 4.0 / 7.0);
        assert!(matches!(
            accuracy(&truth, &predicted[..4]),
            Err(Error::ShapeMismatch {
                expected: 5,
                found: 4,
                ..
            })
        ));
        let none: [String; 0] = [];
        assert!(matches!(
            label_error_rate(&none, &none),
            Err(Error::Empty { .. })
        ));
    }

    #[test]
    fn weighted_error_rate_by_hand_and_bad_weights() {
        let y_true = array![0, 1, 1, 0];
        let y_pred = array![0, 0, 1, 1];
        // Wrong rows 1 and 3 weigh 2 + 0.5 out of 1 + 2 + 1.5 + 0.5 = 5.
        let w = array![1.0, 2.0, 1.5, 0.5];
        assert_eq!(
            weighted_error_rate(y_true.view(), y_pred.view(), w.view()).unwrap(),
            0.5
        );
        let ones = Array1::ones(4);
        assert_eq!(
            weighted_error_rate(y_true.view(), y_pred.view(), ones.view()).unwrap(),
            error_rate(y_true.view(), y_pred.view()).unwrap()
        );
        for bad in [
            array![1.0, 1.0, 1.0],
            array![1.0, -1.0, 1.0, 1.0],
            array![1.0, f64::NAN, 1.0, 1.0],
            array![0.0, 0.0, 0.0, 0.0],
        ] {
            assert!(weighted_error_rate(y_true.view(), y_pred.view(), bad.view()).is_err());
        }
    }

    #[test]
    fn confusion_matrix_by_hand_and_bad_labels() {
        let y_true = array![0, 1, 2, 2, 1];
        let y_pred = array![0, 2, 2, 1, 1];
        let n = confusion_matrix(y_true.view(), y_pred.view(), 3).unwrap();
        assert_eq!(n, array![[1, 0, 0], [0, 1, 1], [0, 1, 1]]);
        assert!(matches!(
            confusion_matrix(y_true.view(), y_pred.view(), 2),
            Err(Error::LabelOutOfRange {
                row: 2,
                label: 2,
                n_classes: 2
            })
        ));
        assert!(matches!(
            confusion_matrix(array![0].view(), array![3].view(), 2),
            Err(Error::InvalidValue { row: 0, ref what, .. }) if what == "y_pred"
        ));
        assert!(matches!(
            confusion_matrix(array![0].view(), array![0].view(), 0),
            Err(Error::InvalidParameter {
                name: "n_classes",
                ..
            })
        ));
    }

    #[test]
    fn cost_matrix_validation() {
        assert!(CostMatrix::new(array![[0.0, 1.0], [5.0, 0.0]]).is_ok());
        assert!(matches!(
            CostMatrix::new(array![[0.0, 1.0, 2.0], [5.0, 0.0, 1.0]]),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            CostMatrix::new(Array2::zeros((0, 0))),
            Err(Error::Empty { .. })
        ));
        assert!(matches!(
            CostMatrix::new(array![[0.0, f64::NAN], [1.0, 0.0]]),
            Err(Error::NonFinite {
                row: 0,
                column: 1,
                ..
            })
        ));
        assert!(matches!(
            CostMatrix::new(array![[0.0, 1.0], [-1.0, 0.0]]),
            Err(Error::InvalidValue {
                row: 1,
                column: 0,
                ..
            })
        ));
        assert!(CostMatrix::zero_one(0).is_err());
        let c = CostMatrix::zero_one(3).unwrap();
        assert_eq!(c.cost(0, 0), Some(0.0));
        assert_eq!(c.cost(2, 1), Some(1.0));
        assert_eq!(c.cost(3, 0), None);
    }

    #[test]
    fn cost_matrix_serde_round_trip_validates() {
        let heart = CostMatrix::new(array![[0.0, 1.0], [5.0, 0.0]]).unwrap();
        let json = serde_json::to_string(&heart).unwrap();
        let back: CostMatrix = serde_json::from_str(&json).unwrap();
        assert_eq!(back, heart);
        let negative = json.replace("5.0", "-5.0");
        assert!(serde_json::from_str::<CostMatrix>(&negative).is_err());
    }

    #[test]
    fn heart_costs_by_hand() {
        let heart = CostMatrix::new(array![[0.0, 1.0], [5.0, 0.0]]).unwrap();
        let y_true = array![0, 0, 0, 1, 1];
        let y_pred = array![0, 1, 1, 0, 1];
        // Two false alarms (1 each) and one missed disease (5) over five rows.
        assert_eq!(
            cost_weighted_error(y_true.view(), y_pred.view(), &heart).unwrap(),
            7.0 / 5.0
        );
        assert!(matches!(
            cost_weighted_error(array![0, 2].view(), array![0, 1].view(), &heart),
            Err(Error::LabelOutOfRange { row: 1, .. })
        ));
        assert!(matches!(
            cost_weighted_error(array![0, 1].view(), array![0, 2].view(), &heart),
            Err(Error::InvalidValue { row: 1, .. })
        ));
        assert!(cost_weighted_error(array![0, 1].view(), array![0].view(), &heart).is_err());
    }

    #[test]
    fn least_expected_cost_decisions() {
        let heart = CostMatrix::new(array![[0.0, 1.0], [5.0, 0.0]]).unwrap();
        // Calling "disease" costs (1 − p) in expectation, "healthy" costs 5p: the threshold is
        // p = 1/6.
        let p: [f64; 6] = [0.0, 0.1, 0.16, 0.17, 0.5, 1.0];
        let log_proba = Array2::from_shape_fn((p.len(), 2), |(i, k)| {
            if k == 1 {
                p[i].ln()
            } else {
                (1.0 - p[i]).ln()
            }
        });
        let decisions = heart
            .min_expected_cost_predictions(log_proba.view())
            .unwrap();
        assert_eq!(decisions.to_vec(), [0, 0, 0, 1, 1, 1]);
        // Under 0–1 costs the decision is the most probable class.
        let zero_one = CostMatrix::zero_one(2).unwrap();
        let decisions = zero_one
            .min_expected_cost_predictions(log_proba.view())
            .unwrap();
        assert_eq!(decisions.to_vec(), [0, 0, 0, 0, 0, 1]);
        assert!(matches!(
            CostMatrix::zero_one(3)
                .unwrap()
                .min_expected_cost_predictions(log_proba.view()),
            Err(Error::ShapeMismatch { .. })
        ));
        let not_normalised = array![[-1.0, -1.0]];
        assert!(heart
            .min_expected_cost_predictions(not_normalised.view())
            .is_err());
    }

    proptest! {
        #[test]
        fn error_rate_is_a_fraction_and_zero_one_cost_agrees(
            pairs in prop::collection::vec((0usize..4, 0usize..4), 1..60)
        ) {
            let y_true: Array1<usize> = pairs.iter().map(|p| p.0).collect();
            let y_pred: Array1<usize> = pairs.iter().map(|p| p.1).collect();
            let er = error_rate(y_true.view(), y_pred.view()).unwrap();
            prop_assert!((0.0..=1.0).contains(&er));
            let zero_one = CostMatrix::zero_one(4).unwrap();
            let cost = cost_weighted_error(y_true.view(), y_pred.view(), &zero_one).unwrap();
            prop_assert!((cost - er).abs() < 1e-15);
            let n = confusion_matrix(y_true.view(), y_pred.view(), 4).unwrap();
            let off_diagonal = n.sum() - n.diag().sum();
            prop_assert_eq!(off_diagonal as f64 / pairs.len() as f64, er);
        }
    }
}
