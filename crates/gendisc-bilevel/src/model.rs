//! The fitted classifier.

use gendisc_core::model_file::invariants;
use gendisc_core::numerics::{affine_limit, euclidean_norm};
use gendisc_core::validate::{check_prediction_matrix, check_sparse_prediction_matrix};
use gendisc_core::{Classifier, FitSummary, Result, SavedModel};
use ndarray::{Array1, ArrayView1, ArrayView2};
use serde::{Deserialize, Serialize};
use sprs::CsMatView;

use crate::algorithm::{FitReport, FitStatus};
use crate::params::{BilevelParams, GenerativePrior};

/// A hyperplane `f(x) = wᵀx + b` fitted by the bilevel program of Epshteyn & DeJong (§4);
/// `f(x) > 0` predicts class 1 (`y = +1`, mean `μ₂`), otherwise class 0 (`y = −1`, mean `μ₁`).
///
/// Serialised as `w`, `b`, `mu` and the fit's report; a model file (kind `bilevel`, see
/// [`SavedModel`]) checks them on reading.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
        let mut out = x.dot(&self.w) + self.b;
        self.rescue_overflow(&mut out, |i| x.row(i).to_owned());
        Ok(out)
    }

    /// Recomputes the decision values that overflowed (`±∞` or NaN on rows near `10³⁰⁸`) as
    /// their limits ([`affine_limit`]), so that every finite row gets a class.
    fn rescue_overflow(&self, values: &mut Array1<f64>, row: impl Fn(usize) -> Array1<f64>) {
        for (i, v) in values.iter_mut().enumerate() {
            if !v.is_finite() {
                *v = affine_limit(self.w.view(), self.b, row(i).view());
            }
        }
    }

    /// `wᵀx_i + b` for every row of a sparse matrix.
    pub fn decision_function_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array1<f64>> {
        check_sparse_prediction_matrix(x, self.w.len())?;
        let mut out = Array1::from_elem(x.rows(), self.b);
        match self.w.as_slice() {
            // Row by row, each sum in a register: the same terms in the same order as the
            // general path, whose element iterator pays for its generality on every non-zero.
            Some(w) if x.is_csr() => {
                for (f, row) in out.iter_mut().zip(x.outer_iterator()) {
                    *f = row
                        .indices()
                        .iter()
                        .zip(row.data())
                        .fold(*f, |acc, (&j, &v)| acc + v * w[j]);
                }
            }
            _ => {
                for (v, (i, j)) in x.iter() {
                    out[i] += v * self.w[j];
                }
            }
        }
        self.rescue_overflow(&mut out, |i| {
            let mut dense = Array1::zeros(self.w.len());
            if let Some(row) = x.outer_view(i) {
                for (j, &v) in row.iter() {
                    dense[j] = v;
                }
            }
            dense
        });
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

impl SavedModel for BilevelClassifier {
    const KIND: &'static str = "bilevel";

    /// Checks that `w` is non-empty and finite, `b` finite, `μ₁` and `μ₂` finite and as long as
    /// `w`, and that the report is one a fit writes: at least one alternation, finite
    /// non-negative objectives and norms, a change that is infinite at the first alternation
    /// only, a last `‖w‖` that is `w`'s norm, and a finite last change if it converged.
    fn check_invariants(&self) -> Result<()> {
        let kind = Self::KIND;
        let n = self.w.len();
        if n == 0 {
            return Err(invariants::invalid(kind, "w", "no weights"));
        }
        invariants::finite(kind, "w", &self.w)?;
        if !self.b.is_finite() {
            return Err(invariants::invalid(
                kind,
                "b",
                format!("the intercept is {}; it must be finite", self.b),
            ));
        }
        for mu in &self.mu {
            invariants::shape(kind, "mu", mu, &[n])?;
            invariants::finite(kind, "mu", mu)?;
        }
        let iterations = &self.report.iterations;
        let Some(last) = iterations.last() else {
            return Err(invariants::invalid(
                kind,
                "report.iterations",
                "no alternation recorded; a fit runs at least one",
            ));
        };
        for (k, it) in iterations.iter().enumerate() {
            let measures = [
                ("objective", it.objective),
                ("objective_after_step2", it.objective_after_step2),
                ("norm_w", it.norm_w),
            ];
            if let Some((name, v)) = measures.iter().find(|(_, v)| !(v.is_finite() && *v >= 0.0)) {
                return Err(invariants::invalid(
                    kind,
                    "report.iterations",
                    format!(
                        "alternation {}: {name} is {v}; it must be finite and ≥ 0",
                        k + 1
                    ),
                ));
            }
            let first = k == 0;
            if first != (it.change == f64::INFINITY) || it.change.is_nan() || it.change < 0.0 {
                return Err(invariants::invalid(
                    kind,
                    "report.iterations",
                    format!(
                        "alternation {}: relative change {}; it is infinite at the first alternation only, and ≥ 0",
                        k + 1,
                        it.change
                    ),
                ));
            }
        }
        // Computed without overflow, so that weights above 1e154 do not make both sides ∞.
        let norm = euclidean_norm(self.w.view());
        if !norm.is_finite() {
            return Err(invariants::invalid(
                kind,
                "w",
                format!("‖w‖ is {norm}; it must be finite"),
            ));
        }
        if (last.norm_w - norm).abs() > 1e-12 * norm.max(f64::MIN_POSITIVE) {
            return Err(invariants::invalid(
                kind,
                "report.iterations",
                format!(
                    "the last alternation's ‖w‖ is {}, but w has norm {norm}",
                    last.norm_w
                ),
            ));
        }
        if self.report.status == FitStatus::Converged && !last.change.is_finite() {
            return Err(invariants::invalid(
                kind,
                "report.status",
                "converged after one alternation, which has no previous iterate to compare with",
            ));
        }
        Ok(())
    }

    fn fit_summary(&self) -> Option<FitSummary> {
        Some(self.report.summary())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn rows_near_the_largest_double_get_the_class_of_the_exact_decision_value() {
        let report = FitReport {
            iterations: Vec::new(),
            status: FitStatus::Converged,
            tolerance: None,
            program_tolerance: None,
        };
        let model = BilevelClassifier::new(
            array![2.0, -2.0],
            0.5,
            [array![0.0, 0.0], array![1.0, 1.0]],
            report,
        );
        // 2·MAX − 2·MAX is ∞ − ∞ in plain arithmetic; exactly 0.5.
        let x = array![[f64::MAX, f64::MAX], [f64::MAX, -f64::MAX], [-1e308, 1e308]];
        let f = model.decision_function(x.view()).unwrap();
        assert_eq!(f.to_vec(), vec![0.5, f64::INFINITY, f64::NEG_INFINITY]);
        assert_eq!(model.predict(x.view()).unwrap().to_vec(), vec![1, 1, 0]);
        let sparse = sprs::CsMat::csr_from_dense(x.view(), 0.0);
        assert_eq!(model.decision_function_sparse(sparse.view()).unwrap(), f);
    }

    /// The row-by-row path for CSR input sums each row as the element iterator does: the same
    /// bits, and a CSC matrix (the general path) gives the same classes.
    #[test]
    fn sparse_scores_by_row_are_the_element_sums() {
        let w = array![0.3, -1.7, 2.2, 0.0, 1e-3, -0.4];
        let report = FitReport {
            iterations: Vec::new(),
            status: FitStatus::Converged,
            tolerance: None,
            program_tolerance: None,
        };
        let model = BilevelClassifier::new(w.clone(), -0.25, [w.clone(), w.clone()], report);
        let x = ndarray::Array2::from_shape_fn((9, 6), |(i, j)| {
            if (3 * i + j) % 4 == 0 {
                0.0
            } else {
                ((i * 7 + j * 3) % 11) as f64 / 3.0 - 1.5
            }
        });
        let csr = sprs::CsMat::csr_from_dense(x.view(), 0.0);
        let mut expected = ndarray::Array1::from_elem(9, -0.25);
        for (v, (i, j)) in csr.iter() {
            expected[i] += v * w[j];
        }
        let by_row = model.decision_function_sparse(csr.view()).unwrap();
        let bits = |a: &ndarray::Array1<f64>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&by_row), bits(&expected));
        let csc = csr.to_csc();
        assert_eq!(
            model.predict_sparse(csc.view()).unwrap(),
            model.predict_sparse(csr.view()).unwrap()
        );
    }
}
