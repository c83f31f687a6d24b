//! The fitted model and its fit report.

use gendisc_core::model_file::invariants;
use gendisc_core::numerics::{power_of_two_scale, unscale_shifted};
use gendisc_core::validate::check_prediction_matrix;
use gendisc_core::{
    argmax_rows, log_posterior_from_scores, Classifier, ConditionalModel, Convergence, Error,
    FitSummary, Result, SavedModel,
};
use gendisc_optim::{Criterion, Report, Status};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use serde::{Deserialize, Serialize};
use sprs::CsMatView;

use super::design::{block, Design, Features};
use super::params::{LogisticRegressionParams, LogisticSolver};
use super::sparse::as_csr;
use gendisc_core::validate::check_sparse_prediction_matrix;

/// How a logistic-regression fit went.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FitReport {
    /// The solver that ran ([`LogisticSolver::Auto`] resolved).
    pub solver: LogisticSolver,
    /// Why the solver stopped. On separated data the solver may well meet its criterion at
    /// coefficients on their way to infinity: the fit's own status,
    /// [`Convergence::status`], is then [`Status::NoFiniteMinimiser`] (see
    /// [`separated`](Self::separated)); ask it whether the fit converged.
    pub status: Status,
    /// Iterations (Newton steps, quasi-Newton or CG line searches, IRLS iterations — glm's
    /// `iter` for [`LogisticSolver::GlmIrls`]).
    pub iterations: usize,
    /// Evaluations of the objective (0 in files written before they were counted).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub evaluations: usize,
    /// The stopping criterion the solver was judged by: the gradient criterion on the mean
    /// penalised objective, or glm's relative change in deviance for
    /// [`LogisticSolver::GlmIrls`] (`None` in files written before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub criterion: Option<Criterion>,
    /// The deviance `−2 Σ_i w_i log p(y_i | x_i)` at the returned coefficients (for 0/1 data
    /// the saturated model has log-likelihood 0, so this is R's residual deviance).
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub deviance: f64,
    /// The weighted log-likelihood `Σ_i w_i log p(y_i | x_i)`, without the prior.
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub log_likelihood: f64,
    /// `‖∇f‖₂` of the mean penalised negative log-likelihood at the returned coefficients:
    /// the quantity the gradient tolerance applies to.
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub gradient_norm: f64,
    /// The mean penalised negative log-likelihood at the returned coefficients: the objective
    /// the solver minimised (`None` in files written before it was recorded).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "gendisc_core::model_file::non_finite::option"
    )]
    pub objective: Option<f64>,
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

/// Files written before evaluations were counted have none; writing them back adds none.
pub(crate) fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Convergence for FitReport {
    /// [`Status::NoFiniteMinimiser`] on separated data, else the solver's status.
    fn status(&self) -> Status {
        if self.separated {
            Status::NoFiniteMinimiser
        } else {
            self.status
        }
    }

    /// The solver's run (see [`recorded_run`]).
    fn solver_reports(&self) -> Vec<Report> {
        vec![recorded_run(
            self.solver == LogisticSolver::GlmIrls,
            self.status,
            self.criterion,
            (self.iterations, self.evaluations),
            self.objective,
            self.gradient_norm,
        )]
    }
}

/// A logistic fit's run in the one report type, from what its report recorded (shared with the
/// hybrid's `θ`, which is a logistic regression): `glm` for R's IRLS, `(iterations,
/// evaluations)`. Files written before the criterion and the objective were recorded give the
/// solver's rule with a NaN tolerance, and a NaN objective: not recorded.
pub fn recorded_run(
    glm: bool,
    status: Status,
    criterion: Option<Criterion>,
    (iterations, evaluations): (usize, usize),
    objective: Option<f64>,
    gradient_norm: f64,
) -> Report {
    let unrecorded = if glm {
        Criterion::RelativeChange {
            tolerance: f64::NAN,
        }
    } else {
        Criterion::new(f64::NAN)
    };
    Report {
        status,
        criterion: criterion.unwrap_or(unrecorded),
        iterations,
        evaluations,
        value: objective.unwrap_or(f64::NAN),
        gradient_norm: Some(gradient_norm),
    }
}

/// The warnings of an unpenalised fit on separated data, or with fitted probabilities of 0 or
/// 1 (shared with the hybrid's θ, which is a logistic regression).
pub fn separation_warnings(separated: bool, saturated: bool) -> Vec<String> {
    let mut warnings = Vec::new();
    if separated {
        warnings.push(
            "the training data are separated, so the unpenalised estimate does not exist: the \
             coefficients are where the solver stopped on their way to infinity (fit with a prior \
             for a finite estimate)"
                .to_owned(),
        );
    }
    if saturated {
        warnings.push("fitted probabilities numerically 0 or 1 occurred".to_owned());
    }
    warnings
}

/// A fitted logistic-regression model (see the [module documentation](super)).
///
/// Coefficients are stored as scikit-learn's `coef_` and `intercept_`: one row per linear
/// predictor — a single row (the log-odds of class 1) for two classes, `K` rows otherwise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// (unnormalised log-probabilities) otherwise, in plain floating point: on rows of inputs
    /// near `10³⁰⁸` an entry can overflow to `±∞` or NaN. The predictions do not use these
    /// entries but recompute such rows in a scaled domain, so they stay defined on every finite
    /// row.
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

    /// The scores behind every prediction ([`Self::scores_of`]) of a dense matrix.
    fn scores(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        check_prediction_matrix(x, self.n_features())?;
        Ok(self.scores_of(Features::Dense(x)))
    }

    /// The scores behind every prediction ([`Self::scores_of`]) of a sparse matrix.
    fn scores_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array2<f64>> {
        check_sparse_prediction_matrix(x, self.n_features())?;
        let x = as_csr(x);
        Ok(self.scores_of(Features::Sparse(x.view())))
    }

    /// The classes of the rows of a sparse matrix.
    pub fn predict_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array1<usize>> {
        let eta = self.scores_sparse(x)?;
        self.classes_from(eta)
    }

    /// `log p(y = k | x)` for the rows of a sparse matrix.
    pub fn predict_log_proba_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array2<f64>> {
        let eta = self.scores_sparse(x)?;
        self.log_proba_from(eta)
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

    /// Scores whose log-softmax (or, for two classes, whose logistic function) is the model's
    /// posterior on every finite row: the linear predictors, except on rows where they overflow
    /// (inputs or coefficients near `10³⁰⁸`), which are recomputed in a scaled domain.
    ///
    /// For such a row, with `s` and `t` the powers of two at or below the largest magnitude of
    /// the row (and 1) and of the coefficients, `η'_r = Σ_j (θ_rj / t)(x_j / s) + (b_r / t)(1 / s)`
    /// is a sum of terms below 4 in magnitude, so finite, and `η_r = s t η'_r` up to rounding.
    /// For two classes the log-odds is `s t η'` (an infinite one is a certain class); for `K`
    /// the row becomes `s t (η'_r − max η')`, the linear predictors shifted by a constant (which
    /// the softmax ignores): 0 for the most probable class, finite or `−∞` for the others.
    fn scores_of(&self, features: Features<'_>) -> Array2<f64> {
        let mut eta = self.linear_predictor_of(features);
        // One pass over the whole (contiguous) array first: rows are looked at one by one only
        // when some entry is not finite.
        if eta.iter().all(|v| v.is_finite()) {
            return eta;
        }
        let overflowing: Vec<usize> = eta
            .outer_iter()
            .enumerate()
            .filter(|(_, row)| !row.iter().all(|v| v.is_finite()))
            .map(|(i, _)| i)
            .collect();
        let d = self.theta.ncols() - 1;
        let t = power_of_two_scale(self.theta.iter().fold(1.0_f64, |m, v| m.max(v.abs())));
        let scaled_theta = self.theta.mapv(|v| v / t);
        let mut row = vec![0.0; d];
        for i in overflowing {
            match features {
                Features::Dense(x) => row.iter_mut().zip(x.row(i)).for_each(|(r, &v)| *r = v),
                Features::Sparse(x) => {
                    row.fill(0.0);
                    let sparse_row = x.outer_view(i).expect("a row of the matrix");
                    for (j, &v) in sparse_row.iter() {
                        row[j] = v;
                    }
                }
            }
            let s = power_of_two_scale(row.iter().fold(1.0_f64, |m, v| m.max(v.abs())));
            let scaled: Vec<f64> = scaled_theta
                .outer_iter()
                .map(|theta| {
                    let weights = theta.iter().take(d);
                    let dot: f64 = weights.zip(&row).map(|(w, v)| w * (v / s)).sum();
                    dot + theta[d] / s
                })
                .collect();
            let mut out = eta.row_mut(i);
            if scaled.len() == 1 {
                out[0] = scaled[0] * s * t;
            } else {
                unscale_shifted(&scaled, s, t, out);
            }
        }
        eta
    }

    fn log_proba_from(&self, eta: Array2<f64>) -> Result<Array2<f64>> {
        if self.n_classes == 2 {
            let mut out = Array2::zeros((eta.nrows(), 2));
            for (mut row, &e) in out.outer_iter_mut().zip(eta.column(0)) {
                // log σ(±η) = −max(∓η, 0) − log1p(exp(−|η|)): one exponential per row.
                let log1p_tau = (-e.abs()).exp().ln_1p();
                row[0] = -e.max(0.0) - log1p_tau;
                row[1] = -(-e).max(0.0) - log1p_tau;
            }
            Ok(out)
        } else {
            log_posterior_from_scores(eta, "posterior of logistic regression")
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
        let eta = self.scores(x)?;
        self.classes_from(eta)
    }
}

impl ConditionalModel for LogisticRegression {
    fn predict_log_proba(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        let eta = self.scores(x)?;
        self.log_proba_from(eta)
    }

    /// For two classes, the fitted log-odds `xᵀw + b` exactly; where it overflows (inputs or
    /// coefficients near `10³⁰⁸`), `±∞` with the sign of the exact value.
    fn decision_function(&self, x: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        if self.n_classes != 2 {
            return Err(Error::NotBinary {
                what: "decision_function".into(),
                n_classes: self.n_classes,
            });
        }
        Ok(self.scores(x)?.remove_axis(Axis(1)))
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
        if !self.fit_intercept
            && let Some(row) = self.intercept().iter().position(|&b| b != 0.0)
        {
            return Err(invariants::invalid(
                kind,
                "theta",
                format!(
                    "row {row} has intercept {}, but fit_intercept is false",
                    self.intercept()[row]
                ),
            ));
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
        let status = format!(
            "{:?} solver: {}, gradient norm {:e}",
            report.solver,
            report.status(),
            report.gradient_norm
        );
        Some(FitSummary {
            converged: report.is_converged(),
            iterations: report.iterations,
            status,
            warnings: separation_warnings(report.separated, report.saturated),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sprs::CsMat;

    fn model(theta: Array2<f64>, n_classes: usize) -> LogisticRegression {
        LogisticRegression {
            theta,
            n_classes,
            fit_intercept: true,
            report: FitReport {
                solver: LogisticSolver::Newton,
                status: Status::Converged,
                iterations: 1,
                evaluations: 2,
                criterion: Some(Criterion::new(1e-8)),
                deviance: 0.0,
                log_likelihood: 0.0,
                gradient_norm: 0.0,
                objective: Some(0.5),
                separated: false,
                saturated: false,
            },
        }
    }

    #[test]
    fn overflowing_scores_give_the_limiting_posterior_dense_and_sparse() {
        let x = ndarray::array![
            [f64::MAX, f64::MAX, 0.0],
            [-1e308, 0.0, 1e308],
            [1.0, 2.0, 0.0],
            [1e308, -1e308, 0.0],
        ];
        let sparse = CsMat::csr_from_dense(x.view(), 0.0);
        // Two classes: η = x₁ − x₂ + 2x₃ + ½ overflows on rows 1 and 3.
        let binary = model(ndarray::array![[1.0, -1.0, 2.0, 0.5]], 2);
        // Three classes: row 1's scores are (∞, −∞, ∞) in plain arithmetic.
        let three = model(
            ndarray::array![
                [-3.0, 0.0, 1.0, 0.0],
                [0.0, 1.0, -1.0, 0.0],
                [-1.0, 0.0, 2.0, 1.0]
            ],
            3,
        );
        for m in [&binary, &three] {
            let p = m.predict_proba(x.view()).unwrap();
            assert_eq!(p, m.predict_proba_sparse(sparse.view()).unwrap());
            for row in p.rows() {
                assert!(row.iter().all(|v| v.is_finite() && *v >= 0.0), "{p}");
                assert!((row.sum() - 1.0).abs() <= 1e-15, "{p}");
            }
            let classes = m.predict(x.view()).unwrap();
            assert_eq!(classes, m.predict_sparse(sparse.view()).unwrap());
        }
        // Binary, row 0: MAX − MAX cancels exactly; the log-odds is ½.
        let p = binary.predict_proba(x.view()).unwrap();
        assert!(
            (p[[0, 1]] - 1.0 / (1.0 + (-0.5f64).exp())).abs() < 1e-12,
            "{p}"
        );
        // Rows 1 and 3: exact log-odds 1e308 and 2e308, both certain of class 1.
        assert_eq!(p.row(1).to_vec(), vec![0.0, 1.0]);
        assert_eq!(p.row(3).to_vec(), vec![0.0, 1.0]);
        // Three classes, row 1: scores 4e308, −1e308, 3e308: certain of class 0.
        let p = three.predict_proba(x.view()).unwrap();
        assert_eq!(p.row(1).to_vec(), vec![1.0, 0.0, 0.0]);
        // A coefficient of 1e308 (a damaged or hand-edited file) on ordinary rows: scores
        // 1e308·x₁ + …, which overflow when summed, still give probabilities.
        let huge = model(
            ndarray::array![
                [1e308, 1e308, 0.0, 0.0],
                [-1e308, 0.0, 1.0, 0.0],
                [0.0, -1e308, 2.0, 1.0]
            ],
            3,
        );
        let ordinary = ndarray::array![[1.0, 2.0, 0.5], [-3.0, 1.0, 0.0], [0.5, -0.25, 4.0]];
        let q = huge.predict_proba(ordinary.view()).unwrap();
        assert_eq!(q.row(0).to_vec(), vec![1.0, 0.0, 0.0], "{q}");
        for row in q.rows() {
            assert!(row.iter().all(|v| v.is_finite() && *v >= 0.0), "{q}");
            assert!((row.sum() - 1.0).abs() <= 1e-15, "{q}");
        }
        // An ordinary row keeps its plain arithmetic.
        let eta = three
            .linear_predictor(x.slice(ndarray::s![2..3, ..]))
            .unwrap();
        let plain = log_posterior_from_scores(eta, "test")
            .unwrap()
            .mapv(f64::exp);
        assert_eq!(p.row(2), plain.row(0));
    }
}
