//! The fitted model and its fit report.

use gendisc_core::model_file::invariants;
use gendisc_core::numerics::log_softmax_rows;
use gendisc_core::validate::check_prediction_matrix;
use gendisc_core::{
    argmax_rows, Classifier, ConditionalModel, Error, FitSummary, Result, SavedModel,
};
use gendisc_optim::Status;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use serde::{Deserialize, Serialize};
use sprs::CsMatView;

use super::design::{block, Design, Features};
use super::params::{LogisticRegressionParams, LogisticSolver};
use super::sparse::as_csr;
use gendisc_core::validate::check_sparse_prediction_matrix;

/// How a logistic-regression fit went.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FitReport {
    /// The solver that ran ([`LogisticSolver::Auto`] resolved).
    pub solver: LogisticSolver,
    /// Whether the stopping criterion was met. On separated data an unpenalised fit may well
    /// report convergence: see [`separated`](Self::separated).
    pub status: Status,
    /// Iterations (Newton steps, quasi-Newton or CG line searches, IRLS iterations — glm's
    /// `iter` for [`LogisticSolver::GlmIrls`]).
    pub iterations: usize,
    /// The deviance `−2 Σ_i w_i log p(y_i | x_i)` at the returned coefficients (for 0/1 data
    /// the saturated model has log-likelihood 0, so this is R's residual deviance).
    pub deviance: f64,
    /// The weighted log-likelihood `Σ_i w_i log p(y_i | x_i)`, without the prior.
    pub log_likelihood: f64,
    /// `‖∇f‖₂` of the mean penalised negative log-likelihood at the returned coefficients:
    /// the quantity the gradient tolerance applies to.
    pub gradient_norm: f64,
    /// The training data are completely or quasi-completely separated, so the unpenalised
    /// maximum-likelihood estimate does not exist: the returned coefficients are where the
    /// solver stopped on its way to infinity, meaningful in direction only, and the fitted
    /// probabilities of the separated rows are pushed towards 0 and 1. Fit with a prior
    /// ([`LogisticRegressionParams::prior_variance`]) for a finite estimate. Always `false`
    /// for penalised fits, whose estimate exists whatever the data. See the
    /// [module documentation](super#separation) for how it is detected.
    pub separated: bool,
    /// Some training row of positive weight has a fitted probability within `10 ε` of 0 or 1
    /// (`ε = 2⁻⁵²`): the condition of R's glm warning "fitted probabilities numerically 0 or 1
    /// occurred". It accompanies separation, but also catches fits that diverged without a
    /// separation certificate (glm's IRLS has no line search). For
    /// [`LogisticSolver::GlmIrls`] it is judged on R's clamped link, i.e. a training linear
    /// predictor beyond `±30`. Binary models only (`false` for the multinomial model).
    pub saturated: bool,
}

impl FitReport {
    /// `status == Converged`, not separated and not saturated: the returned coefficients are
    /// the estimate.
    pub fn is_reliable(&self) -> bool {
        self.status.is_converged() && !self.separated && !self.saturated
    }
}

/// A fitted logistic-regression model (see the [module documentation](super)).
///
/// Coefficients are stored as scikit-learn's `coef_` and `intercept_`: one row per linear
/// predictor — a single row (the log-odds of class 1) for two classes, `K` rows otherwise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogisticRegression {
    /// `m × (d + 1)`: weights, then the intercept (0 when none was fitted).
    pub(crate) theta: Array2<f64>,
    pub(crate) n_classes: usize,
    pub(crate) fit_intercept: bool,
    pub(crate) report: FitReport,
}

impl LogisticRegression {
    /// Default hyper-parameters, to be adjusted and fitted:
    /// `LogisticRegression::params().prior_variance(1.0).fit(x, y)`.
    pub fn params() -> LogisticRegressionParams {
        LogisticRegressionParams::new()
    }

    /// The weights: `1 × d` for two classes (the log-odds of class 1), `K × d` otherwise.
    pub fn coefficients(&self) -> ArrayView2<'_, f64> {
        let d = self.theta.ncols() - 1;
        block(self.theta.view(), 0..self.theta.nrows(), 0..d)
    }

    /// The intercepts, one per row of [`coefficients`](Self::coefficients) (zeros when no
    /// intercept was fitted).
    pub fn intercept(&self) -> ArrayView1<'_, f64> {
        self.theta.column(self.theta.ncols() - 1)
    }

    /// Whether an intercept was fitted.
    pub fn fits_intercept(&self) -> bool {
        self.fit_intercept
    }

    /// How the fit went.
    pub fn report(&self) -> &FitReport {
        &self.report
    }

    /// The linear predictors `η = X Wᵀ + b`: `n × 1` (log-odds) for two classes, `n × K`
    /// (unnormalised log-probabilities) otherwise.
    pub fn linear_predictor(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        check_prediction_matrix(x, self.n_features())?;
        Ok(self.linear_predictor_of(Features::Dense(x)))
    }

    /// [`linear_predictor`](Self::linear_predictor) for a sparse matrix (CSR or CSC).
    pub fn linear_predictor_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array2<f64>> {
        check_sparse_prediction_matrix(x, self.n_features())?;
        let x = as_csr(x);
        Ok(self.linear_predictor_of(Features::Sparse(x.view())))
    }

    /// The classes of the rows of a sparse matrix.
    pub fn predict_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array1<usize>> {
        let eta = self.linear_predictor_sparse(x)?;
        self.classes_from(eta)
    }

    /// `log p(y = k | x)` for the rows of a sparse matrix.
    pub fn predict_log_proba_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array2<f64>> {
        let eta = self.linear_predictor_sparse(x)?;
        Ok(self.log_proba_from(eta))
    }

    /// `p(y = k | x)` for the rows of a sparse matrix.
    pub fn predict_proba_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array2<f64>> {
        Ok(self.predict_log_proba_sparse(x)?.mapv_into(f64::exp))
    }

    fn linear_predictor_of(&self, features: Features<'_>) -> Array2<f64> {
        let design = Design::new(features, true);
        let mut eta = Array2::zeros((design.n_rows(), self.theta.nrows()));
        design.linear_predictor(self.theta.view(), eta.view_mut());
        eta
    }

    fn log_proba_from(&self, eta: Array2<f64>) -> Array2<f64> {
        if self.n_classes == 2 {
            let mut out = Array2::zeros((eta.nrows(), 2));
            for (mut row, &e) in out.outer_iter_mut().zip(eta.column(0)) {
                // log σ(±η) = −max(∓η, 0) − log1p(exp(−|η|)): one exponential per row.
                let log1p_tau = (-e.abs()).exp().ln_1p();
                row[0] = -e.max(0.0) - log1p_tau;
                row[1] = -(-e).max(0.0) - log1p_tau;
            }
            out
        } else {
            log_softmax_rows(eta)
        }
    }

    fn classes_from(&self, eta: Array2<f64>) -> Result<Array1<usize>> {
        if self.n_classes == 2 {
            eta.column(0)
                .iter()
                .enumerate()
                .map(|(row, &e)| match e {
                    e if e > 0.0 => Ok(1),
                    e if e <= 0.0 => Ok(0),
                    _ => Err(Error::Numerical {
                        what: "log-odds of logistic regression".into(),
                        detail: format!("row {row} is NaN"),
                    }),
                })
                .collect()
        } else {
            argmax_rows(eta.view(), "linear predictors of logistic regression")
        }
    }
}

impl Classifier for LogisticRegression {
    fn n_features(&self) -> usize {
        // Saturating, so that a model read from a damaged file with no intercept column can
        // still be asked (its invariants check refuses it).
        self.theta.ncols().saturating_sub(1)
    }

    fn n_classes(&self) -> usize {
        self.n_classes
    }

    /// The most probable class; ties (log-odds exactly 0) go to the lower class.
    fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Array1<usize>> {
        let eta = self.linear_predictor(x)?;
        self.classes_from(eta)
    }
}

impl ConditionalModel for LogisticRegression {
    fn predict_log_proba(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        let eta = self.linear_predictor(x)?;
        Ok(self.log_proba_from(eta))
    }

    /// For two classes, the fitted log-odds `xᵀw + b` exactly.
    fn decision_function(&self, x: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        if self.n_classes != 2 {
            return Err(Error::NotBinary {
                what: "decision_function".into(),
                n_classes: self.n_classes,
            });
        }
        Ok(self.linear_predictor(x)?.remove_axis(Axis(1)))
    }
}

impl SavedModel for LogisticRegression {
    const KIND: &'static str = "logistic-regression";

    /// `n_classes ≥ 2`; `theta` has one row for two classes and `n_classes` rows otherwise,
    /// at least one feature column besides the intercept column, finite entries, and a zero
    /// intercept column when no intercept was fitted; the report's deviance is
    /// `−2 · log_likelihood ≥ 0`.
    fn check_invariants(&self) -> Result<()> {
        let kind = Self::KIND;
        if self.n_classes < 2 {
            return Err(invariants::invalid(
                kind,
                "n_classes",
                format!("{} classes; a classifier has at least 2", self.n_classes),
            ));
        }
        let predictors = if self.n_classes == 2 {
            1
        } else {
            self.n_classes
        };
        if self.theta.nrows() != predictors {
            return Err(invariants::invalid(
                kind,
                "theta",
                format!(
                    "{} rows for {} classes, expected {predictors} (one linear predictor for \
                     two classes, one per class otherwise)",
                    self.theta.nrows(),
                    self.n_classes
                ),
            ));
        }
        if self.theta.ncols() < 2 {
            return Err(invariants::invalid(
                kind,
                "theta",
                format!(
                    "{} columns; expected the weights of at least one feature, then the \
                     intercept",
                    self.theta.ncols()
                ),
            ));
        }
        invariants::finite(kind, "theta", &self.theta)?;
        if !self.fit_intercept {
            if let Some(row) = self.intercept().iter().position(|&b| b != 0.0) {
                return Err(invariants::invalid(
                    kind,
                    "theta",
                    format!(
                        "row {row} has intercept {}, but fit_intercept is false",
                        self.intercept()[row]
                    ),
                ));
            }
        }
        let report = &self.report;
        // NaN in both is what a fit whose objective broke down reports; it is not corruption.
        let consistent = report.deviance == -2.0 * report.log_likelihood
            || (report.deviance.is_nan() && report.log_likelihood.is_nan());
        if report.log_likelihood > 0.0 || !consistent {
            return Err(invariants::invalid(
                kind,
                "report",
                format!(
                    "log-likelihood {} and deviance {}: expected a log-likelihood ≤ 0 and the \
                     deviance −2 times it",
                    report.log_likelihood, report.deviance
                ),
            ));
        }
        Ok(())
    }

    fn fit_summary(&self) -> Option<FitSummary> {
        let report = &self.report;
        let mut status = format!(
            "{:?} solver: {}, gradient norm {:e}",
            report.solver, report.status, report.gradient_norm
        );
        if report.separated {
            status.push_str("; the training data are separated");
        }
        if report.saturated {
            status.push_str("; fitted probabilities numerically 0 or 1");
        }
        Some(FitSummary {
            converged: report.status.is_converged(),
            iterations: report.iterations,
            status,
        })
    }
}
