//! Accuracy/coverage curves (Raina, Shen, Ng & McCallum 2003, §5).
//!
//! "An accuracy/coverage curve shows the accuracy (fraction correct) of a classifier if it is
//! asked only to provide x% coverage — that is, if it is asked only to label the x% of the
//! test data on which it is most confident." The accuracy at 100% coverage is one minus the
//! error rate. Raina et al. read the curves at a target accuracy, e.g. "a coverage of over 40%
//! at 95% accuracy" (Figure 2a): [`AccuracyCoverageCurve::coverage_at_accuracy`].
//!
//! # Ties
//!
//! Points of equal confidence enter the curve **together**: the curve has one point per
//! distinct confidence level, at the coverage after the whole group has been labelled. A
//! classifier cannot tell tied points apart, so no order among them is meaningful, and the
//! curve is the same whatever order the test rows come in.

use gendisc_core::{Error, Result};
use ndarray::{ArrayView1, ArrayView2};
use serde::{Deserialize, Serialize};

use crate::checks::{check_label_pair, check_log_proba, top_label};

/// One point of an accuracy/coverage curve: the most confident `n_covered` test rows, of
/// which `n_correct` are classified correctly.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CoveragePoint {
    /// Fraction of the test rows labelled, `n_covered / n`, in `(0, 1]`.
    pub coverage: f64,
    /// Fraction of the labelled rows that are correct, `n_correct / n_covered`, in `[0, 1]`.
    pub accuracy: f64,
    /// Number of rows labelled.
    pub n_covered: usize,
    /// Number of those rows classified correctly.
    pub n_correct: usize,
}

/// An accuracy/coverage curve: points in strictly increasing coverage, one per distinct
/// confidence level, the last at coverage 1 (see the [module documentation](self) for ties).
///
/// ```
/// use gendisc_metrics::AccuracyCoverageCurve;
/// use ndarray::array;
/// // Confidence 0.9 (right), 0.8 (right), 0.7 (wrong), 0.6 (right).
/// let curve = AccuracyCoverageCurve::from_confidence(
///     array![0.7, 0.9, 0.6, 0.8].view(),
///     array![1, 0, 1, 1].view(),
///     array![0, 0, 1, 1].view(),
/// ).unwrap();
/// let accuracy: Vec<f64> = curve.points().iter().map(|p| p.accuracy).collect();
/// assert_eq!(accuracy, [1.0, 1.0, 2.0 / 3.0, 0.75]);
/// assert_eq!(curve.coverage_at_accuracy(0.95).unwrap(), 0.5);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccuracyCoverageCurve {
    points: Vec<CoveragePoint>,
}

impl AccuracyCoverageCurve {
    /// The curve of a conditional model from its `n × K` log-probabilities
    /// (`ConditionalModel::predict_log_proba`) and the true classes.
    ///
    /// Each row is labelled with its most probable class (ties to the lowest class, as
    /// `Classifier::predict`). Its confidence is the top posterior probability `max_k p(k | x)`,
    /// taken in log space; for `K = 2` it is the absolute log-odds
    /// `|log p(1 | x) − log p(0 | x)|`, which orders rows identically but stays distinct where
    /// both posteriors round to 0 and 1, so confident rows are not tied by rounding.
    ///
    /// Fails on a length mismatch, an empty matrix, NaN or `+∞` entries, a row that does not
    /// log-sum-exp to 0, or a label outside `0..K`.
    pub fn from_log_proba(
        log_proba: ArrayView2<'_, f64>,
        y_true: ArrayView1<'_, usize>,
    ) -> Result<Self> {
        check_log_proba(log_proba, y_true)?;
        let binary = log_proba.ncols() == 2;
        let mut scored: Vec<(f64, bool)> = log_proba
            .outer_iter()
            .zip(y_true.iter())
            .map(|(row, &label)| {
                let (prediction, log_confidence) = top_label(row);
                let confidence = if binary {
                    (row[1] - row[0]).abs()
                } else {
                    log_confidence
                };
                (confidence, prediction == label)
            })
            .collect();
        Ok(Self::from_scored(&mut scored))
    }

    /// The curve of any classifier with a confidence score per row, larger meaning more
    /// confident: a top posterior probability, an absolute log-odds, an SVM's `|f(x)|`.
    ///
    /// `±∞` confidences are allowed (they sort first or last); NaN is an
    /// [`Error::NonFinite`]. Also fails on a length mismatch or no rows.
    pub fn from_confidence(
        confidence: ArrayView1<'_, f64>,
        y_true: ArrayView1<'_, usize>,
        y_pred: ArrayView1<'_, usize>,
    ) -> Result<Self> {
        check_label_pair(y_true, y_pred)?;
        if confidence.len() != y_true.len() {
            return Err(Error::shape_mismatch(
                "length of confidence vs length of y_true",
                y_true.len(),
                confidence.len(),
            ));
        }
        if let Some(row) = confidence.iter().position(|c| c.is_nan()) {
            return Err(Error::NonFinite {
                what: "confidence".into(),
                row,
                column: 0,
                value: f64::NAN,
            });
        }
        let mut scored: Vec<(f64, bool)> = confidence
            .iter()
            .zip(y_true.iter().zip(y_pred.iter()))
            .map(|(&c, (truth, prediction))| (c, truth == prediction))
            .collect();
        Ok(Self::from_scored(&mut scored))
    }

    /// Builds the curve from `(confidence, correct)` pairs, NaN-free and non-empty.
    fn from_scored(scored: &mut [(f64, bool)]) -> Self {
        // Adding 0.0 turns −0.0 into +0.0, so that total_cmp groups the two zeros.
        scored.iter_mut().for_each(|(c, _)| *c += 0.0);
        scored.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
        let n = scored.len();
        let mut points = Vec::new();
        let mut n_correct = 0;
        for (i, &(confidence, correct)) in scored.iter().enumerate() {
            n_correct += usize::from(correct);
            let group_ends = scored.get(i + 1).is_none_or(|next| next.0 != confidence);
            if group_ends {
                let n_covered = i + 1;
                points.push(CoveragePoint {
                    coverage: n_covered as f64 / n as f64,
                    accuracy: n_correct as f64 / n_covered as f64,
                    n_covered,
                    n_correct,
                });
            }
        }
        Self { points }
    }

    /// The points, in strictly increasing coverage; the last has coverage 1.
    pub fn points(&self) -> &[CoveragePoint] {
        &self.points
    }

    /// Number of test rows `n` the curve was computed from.
    pub fn n_samples(&self) -> usize {
        self.points.last().map_or(0, |p| p.n_covered)
    }

    /// The accuracy at full coverage: one minus the error rate.
    pub fn full_coverage_accuracy(&self) -> f64 {
        self.points.last().map_or(0.0, |p| p.accuracy)
    }

    /// The largest coverage at which the accuracy is at least `target_accuracy`, or 0 when no
    /// point reaches it ("naive Bayes' coverage is 0 for the same accuracy", Raina et al. §5).
    ///
    /// The accuracy need not fall monotonically with coverage, so this scans every point.
    /// Fails with [`Error::InvalidParameter`] unless `target_accuracy ∈ [0, 1]`.
    pub fn coverage_at_accuracy(&self, target_accuracy: f64) -> Result<f64> {
        if !(0.0..=1.0).contains(&target_accuracy) {
            return Err(Error::invalid_parameter(
                "target_accuracy",
                format!("an accuracy in [0, 1] is required, found {target_accuracy}"),
            ));
        }
        Ok(self
            .points
            .iter()
            .filter(|p| p.accuracy >= target_accuracy)
            .map(|p| p.coverage)
            .fold(0.0, f64::max))
    }

    /// The accuracy when at least a fraction `coverage` of the test rows must be labelled: the
    /// accuracy of the first point whose coverage reaches `coverage`. This is the step function
    /// to average curves over replicates on a common grid (Raina et al. average ten splits).
    ///
    /// Fails with [`Error::InvalidParameter`] unless `coverage ∈ (0, 1]`.
    pub fn accuracy_at_coverage(&self, coverage: f64) -> Result<f64> {
        if !(coverage > 0.0 && coverage <= 1.0) {
            return Err(Error::invalid_parameter(
                "coverage",
                format!("a coverage in (0, 1] is required, found {coverage}"),
            ));
        }
        self.points
            .iter()
            .find(|p| p.coverage >= coverage)
            .or(self.points.last())
            .map(|p| p.accuracy)
            .ok_or_else(|| Error::Empty {
                what: "accuracy/coverage curve".into(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error_rate;
    use ndarray::{array, Array1, Array2};
    use proptest::prelude::*;

    #[test]
    fn hand_computed_curve_with_ties() {
        // Confidences 3, 2, 2, 1, 1, 1 with correctness ✓, ✓ ✗, ✗ ✓ ✓.
        let confidence = array![2.0, 1.0, 3.0, 1.0, 2.0, 1.0];
        let y_true = array![0, 0, 0, 0, 0, 0];
        let y_pred = array![1, 0, 0, 1, 0, 0];
        let curve =
            AccuracyCoverageCurve::from_confidence(confidence.view(), y_true.view(), y_pred.view())
                .unwrap();
        let summary: Vec<(usize, usize)> = curve
            .points()
            .iter()
            .map(|p| (p.n_covered, p.n_correct))
            .collect();
        assert_eq!(summary, [(1, 1), (3, 2), (6, 4)]);
        assert_eq!(curve.points()[1].coverage, 0.5);
        assert_eq!(curve.points()[1].accuracy, 2.0 / 3.0);
        assert_eq!(curve.n_samples(), 6);
        assert_eq!(curve.full_coverage_accuracy(), 4.0 / 6.0);
        assert_eq!(curve.coverage_at_accuracy(1.0).unwrap(), 1.0 / 6.0);
        assert_eq!(curve.coverage_at_accuracy(0.6).unwrap(), 1.0);
        assert_eq!(curve.coverage_at_accuracy(0.0).unwrap(), 1.0);
        assert_eq!(curve.accuracy_at_coverage(0.1).unwrap(), 1.0);
        assert_eq!(curve.accuracy_at_coverage(1.0 / 6.0).unwrap(), 1.0);
        assert_eq!(curve.accuracy_at_coverage(0.2).unwrap(), 2.0 / 3.0);
        assert_eq!(curve.accuracy_at_coverage(0.5).unwrap(), 2.0 / 3.0);
        assert_eq!(curve.accuracy_at_coverage(1.0).unwrap(), 4.0 / 6.0);
    }

    #[test]
    fn no_coverage_when_the_target_is_never_reached() {
        // The most confident row is wrong: no point reaches 95% accuracy.
        let curve = AccuracyCoverageCurve::from_confidence(
            array![0.99, 0.6, 0.7].view(),
            array![1, 0, 0].view(),
            array![0, 0, 0].view(),
        )
        .unwrap();
        assert_eq!(curve.coverage_at_accuracy(0.95).unwrap(), 0.0);
        assert_eq!(curve.coverage_at_accuracy(2.0 / 3.0).unwrap(), 1.0);
    }

    #[test]
    fn from_log_proba_uses_log_odds_for_two_classes() {
        // Both posteriors of rows 0 and 1 round to (1, 0) as probabilities, but their log-odds
        // 50 and 60 still order them; row 2 is wrong and least confident.
        let log_proba = array![
            [-(-50.0_f64).exp(), -50.0],
            [-60.0, -(-60.0_f64).exp()],
            [0.4_f64.ln(), 0.6_f64.ln()],
        ];
        let y_true = array![1, 1, 0];
        let curve = AccuracyCoverageCurve::from_log_proba(log_proba.view(), y_true.view()).unwrap();
        let summary: Vec<(usize, usize)> = curve
            .points()
            .iter()
            .map(|p| (p.n_covered, p.n_correct))
            .collect();
        // Row 1 (log-odds 60, right), row 0 (50, wrong), row 2 (0.41, wrong).
        assert_eq!(summary, [(1, 1), (2, 1), (3, 1)]);
        // A −∞ entry gives infinite confidence, sorted first.
        let certain = array![[0.0, f64::NEG_INFINITY], [0.3_f64.ln(), 0.7_f64.ln()]];
        let curve =
            AccuracyCoverageCurve::from_log_proba(certain.view(), array![1, 1].view()).unwrap();
        assert_eq!(curve.points()[0].n_correct, 0);
        assert_eq!(curve.points()[1].n_correct, 1);
    }

    #[test]
    fn from_log_proba_uses_the_top_posterior_for_many_classes() {
        let log_proba = array![[0.5, 0.3, 0.2], [0.1, 0.1, 0.8], [0.4, 0.4, 0.2]].mapv(f64::ln);
        // Confidences 0.5 (right), 0.8 (wrong), 0.4 (prediction 0 by the low tie-break, right).
        let curve = AccuracyCoverageCurve::from_log_proba(log_proba.view(), array![0, 1, 0].view())
            .unwrap();
        let summary: Vec<(usize, usize)> = curve
            .points()
            .iter()
            .map(|p| (p.n_covered, p.n_correct))
            .collect();
        assert_eq!(summary, [(1, 0), (2, 1), (3, 2)]);
    }

    #[test]
    fn bad_input() {
        let y = array![0, 1];
        assert!(matches!(
            AccuracyCoverageCurve::from_confidence(array![1.0].view(), y.view(), y.view()),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            AccuracyCoverageCurve::from_confidence(
                array![1.0, 2.0].view(),
                y.view(),
                array![0].view()
            ),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            AccuracyCoverageCurve::from_confidence(
                array![1.0, f64::NAN].view(),
                y.view(),
                y.view()
            ),
            Err(Error::NonFinite { row: 1, .. })
        ));
        let none = Array1::<usize>::zeros(0);
        assert!(matches!(
            AccuracyCoverageCurve::from_confidence(
                Array1::zeros(0).view(),
                none.view(),
                none.view()
            ),
            Err(Error::Empty { .. })
        ));
        let log_proba = array![[0.0, f64::NEG_INFINITY]];
        assert!(matches!(
            AccuracyCoverageCurve::from_log_proba(log_proba.view(), array![2].view()),
            Err(Error::LabelOutOfRange { .. })
        ));
        assert!(AccuracyCoverageCurve::from_log_proba(
            array![[f64::NAN, 0.0]].view(),
            array![0].view()
        )
        .is_err());
        let curve =
            AccuracyCoverageCurve::from_confidence(array![1.0, 2.0].view(), y.view(), y.view())
                .unwrap();
        for bad in [-0.1, 1.5, f64::NAN] {
            assert!(matches!(
                curve.coverage_at_accuracy(bad),
                Err(Error::InvalidParameter {
                    name: "target_accuracy",
                    ..
                })
            ));
        }
        for bad in [0.0, -0.5, 1.01, f64::NAN] {
            assert!(matches!(
                curve.accuracy_at_coverage(bad),
                Err(Error::InvalidParameter {
                    name: "coverage",
                    ..
                })
            ));
        }
    }

    #[test]
    fn serde_round_trip() {
        let curve = AccuracyCoverageCurve::from_confidence(
            array![0.3, 0.9, 0.3].view(),
            array![0, 1, 1].view(),
            array![0, 1, 0].view(),
        )
        .unwrap();
        let json = serde_json::to_string(&curve).unwrap();
        assert_eq!(
            serde_json::from_str::<AccuracyCoverageCurve>(&json).unwrap(),
            curve
        );
    }

    /// Random confidences drawn from few levels (so that ties are common), labels and
    /// predictions.
    fn scored_rows() -> impl Strategy<Value = (Array1<f64>, Array1<usize>, Array1<usize>)> {
        prop::collection::vec((0u8..6, 0usize..3, 0usize..3), 1..50).prop_map(|rows| {
            let confidence = rows.iter().map(|r| f64::from(r.0) / 2.0).collect();
            let y_true = rows.iter().map(|r| r.1).collect();
            let y_pred = rows.iter().map(|r| r.2).collect();
            (confidence, y_true, y_pred)
        })
    }

    proptest! {
        #[test]
        fn full_coverage_is_one_minus_error_rate((c, y, p) in scored_rows()) {
            let curve = AccuracyCoverageCurve::from_confidence(c.view(), y.view(), p.view()).unwrap();
            let last = curve.points().last().unwrap();
            prop_assert_eq!(last.coverage, 1.0);
            let er = error_rate(y.view(), p.view()).unwrap();
            prop_assert!((curve.full_coverage_accuracy() - (1.0 - er)).abs() < 1e-15);
            let coverages: Vec<f64> = curve.points().iter().map(|p| p.coverage).collect();
            prop_assert!(coverages.windows(2).all(|w| w[0] < w[1]));
            for point in curve.points() {
                prop_assert!((0.0..=1.0).contains(&point.accuracy));
            }
            // coverage_at_accuracy(a) is a point whose accuracy is at least a.
            let best = curve.coverage_at_accuracy(0.5).unwrap();
            if best > 0.0 {
                prop_assert!(curve.accuracy_at_coverage(best).unwrap() >= 0.5);
            }
        }

        #[test]
        fn the_curve_ignores_row_order((c, y, p) in scored_rows(), seed in any::<u64>()) {
            let curve = AccuracyCoverageCurve::from_confidence(c.view(), y.view(), p.view()).unwrap();
            // A deterministic permutation from the seed (a rotation and a reversal).
            let n = c.len();
            let shift = (seed % n as u64) as usize;
            let order: Vec<usize> = (0..n).map(|i| (n - 1 - i + shift) % n).collect();
            let permute_f = |a: &Array1<f64>| order.iter().map(|&i| a[i]).collect::<Array1<f64>>();
            let permute_u = |a: &Array1<usize>| order.iter().map(|&i| a[i]).collect::<Array1<usize>>();
            let permuted = AccuracyCoverageCurve::from_confidence(
                permute_f(&c).view(), permute_u(&y).view(), permute_u(&p).view()).unwrap();
            prop_assert_eq!(permuted, curve);
        }

        #[test]
        fn log_proba_curve_matches_argmax_error_rate(
            logits in prop::collection::vec(prop::collection::vec(-30.0f64..30.0, 3), 1..30),
            labels in prop::collection::vec(0usize..3, 30),
        ) {
            let n = logits.len();
            let flat: Vec<f64> = logits.into_iter().flatten().collect();
            let log_proba = gendisc_core::numerics::log_softmax_rows(
                Array2::from_shape_vec((n, 3), flat).unwrap()).unwrap();
            let y: Array1<usize> = labels[..n].iter().copied().collect();
            let predictions = gendisc_core::argmax_rows(log_proba.view(), "test").unwrap();
            let curve = AccuracyCoverageCurve::from_log_proba(log_proba.view(), y.view()).unwrap();
            let er = error_rate(y.view(), predictions.view()).unwrap();
            prop_assert!((curve.full_coverage_accuracy() - (1.0 - er)).abs() < 1e-15);
        }
    }
}
