//! The fitted linear SVM.

use gendisc_core::model_file::invariants;
use gendisc_core::validate::check_prediction_matrix;
use gendisc_core::{argmax_rows, Classifier, Convergence, Error, FitSummary, Result, SavedModel};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use serde::{Deserialize, Serialize};
use sprs::CsMatView;

use super::params::LinearSvmParams;
use super::report::{FitReport, FitStatus};
use super::rows::{Rows, SparseRows};
use gendisc_core::validate::check_sparse_prediction_matrix;

/// A fitted linear support vector machine: `f(x) = w · x + b` per binary problem.
///
/// Two classes give one problem, `f > 0` meaning class 1 (labels 0/1 are mapped to −1/+1).
/// `K ≥ 3` classes give `K` one-vs-rest problems, class `k` (+1) against the others (−1), and
/// a row goes to the class of largest `f_k` (ties to the lowest class) — the layout of
/// scikit-learn's `LinearSVC`: [`coef`](Self::coef) has one row per problem.
///
/// Fit with [`LinearSvm::params`]; see the [module documentation](super) for the problem
/// solved, the regularised intercept and the golden tests against scikit-learn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "LinearSvmRepr")]
pub struct LinearSvm {
    coef: Array2<f64>,
    intercept: Array1<f64>,
    n_classes: usize,
    reports: Vec<FitReport>,
}

impl LinearSvm {
    /// The default hyper-parameters, to be refined with the builder and then fitted.
    ///
    /// ```
    /// use gendisc_core::{Classifier, Convergence, Fit};
    /// use gendisc_discriminative::svm::LinearSvm;
    /// use ndarray::array;
    ///
    /// let x = array![[0.0, 0.0], [0.0, 1.0], [2.0, 2.0], [2.0, 3.0]];
    /// let y = array![0, 0, 1, 1];
    /// let svm = LinearSvm::params().c(10.0).tol(1e-8).fit(x.view(), y.view())?;
    /// assert!(svm.is_converged());
    /// assert_eq!(svm.predict(x.view())?.to_vec(), vec![0, 0, 1, 1]);
    /// # Ok::<(), gendisc_core::Error>(())
    /// ```
    pub fn params() -> LinearSvmParams {
        LinearSvmParams::default()
    }

    pub(crate) fn from_parts(
        coef: Array2<f64>,
        intercept: Array1<f64>,
        n_classes: usize,
        reports: Vec<FitReport>,
    ) -> Self {
        Self {
            coef,
            intercept,
            n_classes,
            reports,
        }
    }

    /// The weights `w`, one row per binary problem (one row for two classes, `K` rows for
    /// one-vs-rest), `d` columns.
    pub fn coef(&self) -> ArrayView2<'_, f64> {
        self.coef.view()
    }

    /// The intercepts `b = B·w_b`, one per binary problem (0 when none was fitted).
    pub fn intercept(&self) -> ArrayView1<'_, f64> {
        self.intercept.view()
    }

    /// The solver report of each binary problem, in the order of [`coef`](Self::coef)'s rows.
    pub fn reports(&self) -> &[FitReport] {
        &self.reports
    }

    /// `f(x_i) = w · x_i + b` for two classes; positive means class 1. Fails with
    /// [`Error::NotBinary`] for `K ≥ 3` (use [`decision_scores`](Self::decision_scores)).
    pub fn decision_function(&self, x: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        self.require_binary()?;
        Ok(self.decision_scores(x)?.column(0).to_owned())
    }

    /// [`decision_function`](Self::decision_function) for a sparse matrix (CSR or CSC).
    pub fn decision_function_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array1<f64>> {
        self.require_binary()?;
        Ok(self.decision_scores_sparse(x)?.column(0).to_owned())
    }

    /// `f_k(x_i)` for every binary problem: `n × 1` for two classes, `n × K` for one-vs-rest.
    pub fn decision_scores(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        check_prediction_matrix(x, self.n_features())?;
        let mut scores = x.dot(&self.coef.t());
        scores += &self.intercept.view().insert_axis(Axis(0));
        Ok(scores)
    }

    /// [`decision_scores`](Self::decision_scores) for a sparse matrix (CSR or CSC).
    pub fn decision_scores_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array2<f64>> {
        check_sparse_prediction_matrix(x, self.n_features())?;
        if !x.is_csr() {
            return self.decision_scores_sparse(x.to_csr().view());
        }
        let rows = SparseRows::new(x);
        let mut scores = Array2::zeros((x.rows(), self.coef.nrows()));
        for (k, w) in self.coef.outer_iter().enumerate() {
            let w = w.to_vec();
            for i in 0..x.rows() {
                scores[[i, k]] = rows.dot(i, &w) + self.intercept[k];
            }
        }
        Ok(scores)
    }

    /// [`Classifier::predict`] for a sparse matrix (CSR or CSC).
    pub fn predict_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array1<usize>> {
        let scores = self.decision_scores_sparse(x)?;
        self.classes_from_scores(scores.view())
    }

    fn classes_from_scores(&self, scores: ArrayView2<'_, f64>) -> Result<Array1<usize>> {
        if self.n_classes > 2 {
            return argmax_rows(scores, "one-vs-rest decision values");
        }
        scores
            .column(0)
            .iter()
            .enumerate()
            .map(|(row, &f)| {
                if f.is_nan() {
                    Err(Error::Numerical {
                        what: "linear SVM decision value".into(),
                        detail: format!("row {row} gives NaN"),
                    })
                } else {
                    Ok(usize::from(f > 0.0))
                }
            })
            .collect()
    }

    fn require_binary(&self) -> Result<()> {
        if self.n_classes == 2 {
            Ok(())
        } else {
            Err(Error::NotBinary {
                what: "LinearSvm::decision_function".into(),
                n_classes: self.n_classes,
            })
        }
    }
}

impl Classifier for LinearSvm {
    fn n_features(&self) -> usize {
        self.coef.ncols()
    }

    fn n_classes(&self) -> usize {
        self.n_classes
    }

    /// Class 1 where `f(x) > 0` for two classes (so `f = 0` gives class 0, as in
    /// scikit-learn); the largest one-vs-rest score otherwise, ties to the lowest class.
    fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Array1<usize>> {
        let scores = self.decision_scores(x)?;
        self.classes_from_scores(scores.view())
    }
}

/// The serialised form, checked on the way in ([`SavedModel::check_invariants`]) so that a
/// hand-edited file cannot give a model whose shapes disagree, which prediction would not
/// survive.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinearSvmRepr {
    coef: Array2<f64>,
    intercept: Array1<f64>,
    n_classes: usize,
    reports: Vec<FitReport>,
}

impl TryFrom<LinearSvmRepr> for LinearSvm {
    type Error = Error;

    fn try_from(r: LinearSvmRepr) -> Result<Self> {
        let model = Self::from_parts(r.coef, r.intercept, r.n_classes, r.reports);
        model.check_invariants()?;
        Ok(model)
    }
}

impl SavedModel for LinearSvm {
    const KIND: &'static str = "linear-svm";

    /// `n_classes ≥ 2`; one binary problem for two classes and `n_classes` otherwise, each with
    /// a row of `coef` (at least one feature), an `intercept` and a report; finite weights and
    /// intercepts.
    ///
    /// Deserialising a `LinearSvm` already checks these, so a model file that breaks one is an
    /// [`Error::Parse`] whose message names the field.
    fn check_invariants(&self) -> Result<()> {
        let kind = Self::KIND;
        if self.n_classes < 2 {
            return Err(invariants::invalid(
                kind,
                "n_classes",
                format!("{} classes; a classifier has at least 2", self.n_classes),
            ));
        }
        let problems = if self.n_classes == 2 {
            1
        } else {
            self.n_classes
        };
        for (field, found) in [
            ("coef", self.coef.nrows()),
            ("intercept", self.intercept.len()),
            ("reports", self.reports.len()),
        ] {
            if found != problems {
                return Err(invariants::invalid(
                    kind,
                    field,
                    format!(
                        "{found} entries for {} classes, expected {problems} (one binary \
                         problem for two classes, one per class otherwise)",
                        self.n_classes
                    ),
                ));
            }
        }
        if self.coef.ncols() == 0 {
            return Err(invariants::invalid(kind, "coef", "no feature columns"));
        }
        invariants::finite(kind, "coef", &self.coef)?;
        invariants::finite(kind, "intercept", &self.intercept)
    }

    /// Converged when every binary problem did; the iterations summed over the problems; the
    /// status of each problem in turn.
    fn fit_summary(&self) -> Option<FitSummary> {
        let problems: Vec<String> = self
            .reports
            .iter()
            .enumerate()
            .map(|(k, report)| {
                let name = if self.n_classes == 2 {
                    "class 1 vs class 0".to_string()
                } else {
                    format!("class {k} vs rest")
                };
                let status = match report.status {
                    FitStatus::Converged => "converged",
                    FitStatus::MaxIterations => "stopped at max_iter",
                    _ => "stopped",
                };
                format!(
                    "{name}: {status} after {} iterations, duality gap {:e}",
                    report.iterations, report.duality_gap
                )
            })
            .collect();
        Some(FitSummary {
            converged: self.is_converged(),
            iterations: self.reports.iter().map(|r| r.iterations).sum(),
            status: problems.join("; "),
            warnings: Vec::new(),
        })
    }
}

/// Converged when every binary problem converged; else the first unconverged problem's status.
impl Convergence for LinearSvm {
    fn status(&self) -> FitStatus {
        FitStatus::of_parts(self.reports.iter().map(|report| report.status))
    }

    /// One run per binary problem, in the order of [`coef`](Self::coef)'s rows.
    fn solver_reports(&self) -> Vec<gendisc_core::convergence::Report> {
        self.reports
            .iter()
            .flat_map(Convergence::solver_reports)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn two_class_model() -> LinearSvm {
        LinearSvm::from_parts(array![[2.0, -1.0]], array![0.5], 2, vec![])
    }

    #[test]
    fn decision_values_are_affine() {
        let m = two_class_model();
        let x = array![[1.0, 1.0], [0.0, 0.5], [-1.0, 0.0]];
        let f = m.decision_function(x.view()).unwrap();
        assert_eq!(f.to_vec(), vec![1.5, 0.0, -1.5]);
        // f = 0 goes to class 0, as in scikit-learn.
        assert_eq!(m.predict(x.view()).unwrap().to_vec(), vec![1, 0, 0]);
        let sparse = sprs::CsMat::csr_from_dense(x.view(), 0.0);
        assert_eq!(m.decision_function_sparse(sparse.view()).unwrap(), f);
        let csc = sparse.to_csc();
        assert_eq!(
            m.predict_sparse(csc.view()).unwrap().to_vec(),
            vec![1, 0, 0]
        );
    }

    #[test]
    fn one_vs_rest_takes_the_largest_score() {
        let m = LinearSvm::from_parts(
            array![[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]],
            array![0.0, 0.0, 0.0],
            3,
            vec![],
        );
        let x = array![[2.0, 1.0], [1.0, 2.0], [-1.0, -1.0], [1.0, 1.0]];
        assert_eq!(m.predict(x.view()).unwrap().to_vec(), vec![0, 1, 2, 0]);
        assert!(matches!(
            m.decision_function(x.view()),
            Err(Error::NotBinary { n_classes: 3, .. })
        ));
        assert_eq!(m.decision_scores(x.view()).unwrap().dim(), (4, 3));
    }

    #[test]
    fn prediction_input_is_checked() {
        let m = two_class_model();
        assert!(matches!(
            m.predict(array![[1.0, 2.0, 3.0]].view()),
            Err(Error::ShapeMismatch {
                expected: 2,
                found: 3,
                ..
            })
        ));
        assert!(matches!(
            m.decision_function(array![[1.0, f64::NAN]].view()),
            Err(Error::NonFinite {
                row: 0,
                column: 1,
                ..
            })
        ));
        assert_eq!(m.predict(Array2::zeros((0, 2)).view()).unwrap().len(), 0);
    }
}
