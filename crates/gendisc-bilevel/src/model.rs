//! The fitted classifier.

use gendisc_core::validate::{check_prediction_matrix, check_sparse_prediction_matrix};
use gendisc_core::{Classifier, Result};
use ndarray::{Array1, ArrayView1, ArrayView2};
use sprs::CsMatView;

use crate::algorithm::FitReport;
use crate::params::{BilevelParams, GenerativePrior};

/// A hyperplane `f(x) = wᵀx + b` fitted by the bilevel program of Epshteyn & DeJong (§4);
/// `f(x) > 0` predicts class 1 (`y = +1`, mean `μ₂`), otherwise class 0 (`y = −1`, mean `μ₁`).
#[derive(Debug, Clone, PartialEq)]
pub struct BilevelClassifier {
    w: Array1<f64>,
    b: f64,
    mu: [Array1<f64>; 2],
    report: FitReport,
}

impl BilevelClassifier {
    pub(crate) fn new(w: Array1<f64>, b: f64, mu: [Array1<f64>; 2], report: FitReport) -> Self {
        Self { w, b, mu, report }
    }

    /// Hyper-parameters with the paper's §5 defaults around `prior`.
    pub fn params(prior: GenerativePrior) -> BilevelParams {
        BilevelParams::new(prior)
    }

    /// The normal `w`.
    pub fn weights(&self) -> ArrayView1<'_, f64> {
        self.w.view()
    }

    /// The intercept `b`.
    pub fn intercept(&self) -> f64 {
        self.b
    }

    /// The generative means `μ₁, μ₂` chosen by the last step 2.
    pub fn means(&self) -> [ArrayView1<'_, f64>; 2] {
        [self.mu[0].view(), self.mu[1].view()]
    }

    /// The per-iteration record.
    pub fn report(&self) -> &FitReport {
        &self.report
    }

    /// `wᵀx_i + b` for every row.
    pub fn decision_function(&self, x: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        check_prediction_matrix(x, self.w.len())?;
        Ok(x.dot(&self.w) + self.b)
    }

    /// `wᵀx_i + b` for every row of a sparse matrix.
    pub fn decision_function_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array1<f64>> {
        check_sparse_prediction_matrix(x, self.w.len())?;
        let mut out = Array1::from_elem(x.rows(), self.b);
        for (v, (i, j)) in x.iter() {
            out[i] += v * self.w[j];
        }
        Ok(out)
    }

    /// Classes of the rows of a sparse matrix.
    pub fn predict_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array1<usize>> {
        Ok(self
            .decision_function_sparse(x)?
            .mapv(|f| usize::from(f > 0.0)))
    }
}

impl Classifier for BilevelClassifier {
    fn n_features(&self) -> usize {
        self.w.len()
    }

    fn n_classes(&self) -> usize {
        2
    }

    fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Array1<usize>> {
        Ok(self.decision_function(x)?.mapv(|f| usize::from(f > 0.0)))
    }
}
