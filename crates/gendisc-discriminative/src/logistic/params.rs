//! Hyper-parameters of [`LogisticRegression`](super::LogisticRegression): a builder whose
//! values are checked before any fitting (the linfa params → fit → model flow).

use gendisc_core::validate::by_name;
use gendisc_core::{Error, ParamGuard, Result};
use ndarray::{concatenate, Array2, ArrayView2, Axis};

use super::LogisticRegression;
use serde::{Deserialize, Serialize};

/// How the coefficients are found.
///
/// | solver | default tolerance | default iteration cap | stopping rule |
/// |---|---|---|---|
/// | [`Newton`](Self::Newton) | `1e-10` | 100 | `‖∇f‖₂ ≤ tol · max(1, \|f\|)` on the mean objective `f` |
/// | [`Lbfgs`](Self::Lbfgs) | `1e-7` | 10 000 | same |
/// | [`ConjugateGradient`](Self::ConjugateGradient) | `1e-7` | 10 000 | same |
/// | [`GlmIrls`](Self::GlmIrls) | `1e-8` | 25 | `|dev − dev_old| / (|dev| + 0.1) < tol` |
///
/// "The mean objective" is the penalised negative log-likelihood divided by the total sample
/// weight, so that the tolerance does not depend on the sample size. On dense features L-BFGS
/// and conjugate gradient work in the coordinates of the standardised features (each column
/// centred and scaled, the coefficients mapped back), which makes them
/// converge in hundreds of iterations where raw pixel-like features took thousands; their
/// gradient norm, criterion and report are in those coordinates, which do not depend on the
/// features' units. The estimate is the same minimiser. The first-order solvers'
/// line searches compare values of `f`, so their progress ends where the decrease still
/// available, `‖∇f‖² / (2h)`, is lost in the rounding of `f`: about `‖∇f‖ ≈ 10⁻⁸` on the mean
/// objective. Their tolerance sits above that floor; a run that stalls short of it is
/// [`Status::Stalled`](gendisc_optim::Status::Stalled), not converged.
///
/// Every solver can stop at its iteration cap before its stopping rule holds. The fit still
/// returns the model, with [`FitReport::status`](super::FitReport::status) set to
/// [`Status::MaxIterations`](gendisc_optim::Status::MaxIterations); ask for
/// [`require_convergence`](LogisticRegressionParams::require_convergence) to make that an
/// error instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub enum LogisticSolver {
    /// [`Newton`](Self::Newton) when the number of coefficients is at most
    /// [`AUTO_NEWTON_MAX_COEFFICIENTS`], else [`Lbfgs`](Self::Lbfgs).
    #[default]
    Auto,
    /// Damped Newton (IRLS with a line search) on the full Hessian:
    /// [`gendisc_optim::Newton`]. Quadratic convergence; cost per iteration grows with the
    /// square of the number of coefficients.
    Newton,
    /// Limited-memory BFGS: [`gendisc_optim::Lbfgs`]. No Hessian is formed, so this is the
    /// choice for many features (sparse text data).
    Lbfgs,
    /// Nonlinear conjugate gradient (Polak–Ribière+): [`gendisc_optim::ConjugateGradient`].
    ConjugateGradient,
    /// R's `glm.fit` for `family = binomial()`: iteratively reweighted least squares from
    /// glm's starting values `μ = (w y + ½)/(w + 1)`, no line search, stopping on glm's
    /// relative deviance change with glm's defaults (`epsilon = 1e-8`, `maxit = 25`). It stops
    /// where `glm` stops, also on separated data. Binary and unpenalised only.
    GlmIrls,
}

impl LogisticSolver {
    /// Every solver, [`Auto`](Self::Auto) first.
    pub const ALL: [Self; 5] = [
        Self::Auto,
        Self::Newton,
        Self::Lbfgs,
        Self::ConjugateGradient,
        Self::GlmIrls,
    ];

    /// Its short name, as the `gendisc` command takes it: `auto`, `newton`, `lbfgs`, `cg`,
    /// `glm`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Newton => "newton",
            Self::Lbfgs => "lbfgs",
            Self::ConjugateGradient => "cg",
            Self::GlmIrls => "glm",
        }
    }

    /// What it does, in a few words.
    pub fn description(self) -> &'static str {
        match self {
            Self::Auto => "Newton for few coefficients, L-BFGS for many",
            Self::Newton => "damped Newton (IRLS with a line search)",
            Self::Lbfgs => "limited-memory BFGS",
            Self::ConjugateGradient => "nonlinear conjugate gradient",
            Self::GlmIrls => "R's glm.fit: IRLS stopping where glm stops (binary, no prior)",
        }
    }
}

impl std::fmt::Display for LogisticSolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for LogisticSolver {
    type Err = Error;

    /// Parses a [short name](LogisticSolver::name), case-insensitively.
    fn from_str(s: &str) -> Result<Self> {
        by_name(
            "solver",
            "logistic-regression solver",
            s,
            &Self::ALL,
            Self::name,
        )
    }
}

/// [`LogisticSolver::Auto`] uses Newton up to this many coefficients (`K′ · (d + 1)`, with
/// `K′ = 1` for two classes and `K′ = K` otherwise).
pub const AUTO_NEWTON_MAX_COEFFICIENTS: usize = 256;

/// Checked hyper-parameters of logistic regression. Build them with
/// [`LogisticRegression::params`](super::LogisticRegression::params).
///
/// | parameter | default | meaning |
/// |---|---|---|
/// | `fit_intercept` | `true` | add an intercept `b` to each linear predictor |
/// | `prior_variance` | `None` | `Some(σ²)`: Gaussian prior `N(0, σ² I)` on the weights, i.e. the penalty `‖w‖² / (2σ²)`; scikit-learn's `C` is `σ²` |
/// | `penalize_intercept` | `false` | apply the prior to the intercept too |
/// | `solver` | [`LogisticSolver::Auto`] | see [`LogisticSolver`] |
/// | `tolerance` | per solver | see [`LogisticSolver`] |
/// | `max_iterations` | per solver | see [`LogisticSolver`] |
/// | `n_classes` | `max(y) + 1` | the number of classes `K`, when some class may be absent from `y` it is an error |
/// | `warm_start` | `None` | start the iterative solvers from a fitted model's coefficients instead of the intercept-only fit |
/// | `require_convergence` | `false` | stopping at the iteration cap is an [`Error::NotConverged`] rather than a model whose report says so |
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogisticRegressionValidParams {
    pub(crate) fit_intercept: bool,
    pub(crate) prior_variance: Option<f64>,
    pub(crate) penalize_intercept: bool,
    pub(crate) solver: LogisticSolver,
    pub(crate) tolerance: Option<f64>,
    pub(crate) max_iterations: Option<usize>,
    pub(crate) n_classes: Option<usize>,
    /// `[W | b]`, `K′ × (d + 1)`.
    pub(crate) warm_start: Option<Array2<f64>>,
    /// Absent from parameters serialised before the setting existed, which did not ask.
    #[serde(default)]
    pub(crate) require_convergence: bool,
}

impl Default for LogisticRegressionValidParams {
    fn default() -> Self {
        Self {
            fit_intercept: true,
            prior_variance: None,
            penalize_intercept: false,
            solver: LogisticSolver::Auto,
            tolerance: None,
            max_iterations: None,
            n_classes: None,
            warm_start: None,
            require_convergence: false,
        }
    }
}

impl LogisticRegressionValidParams {
    /// Whether an intercept is fitted.
    pub fn fit_intercept(&self) -> bool {
        self.fit_intercept
    }

    /// The prior variance `σ²` of the weights, if any.
    pub fn prior_variance(&self) -> Option<f64> {
        self.prior_variance
    }

    /// Whether the prior applies to the intercept too.
    pub fn penalize_intercept(&self) -> bool {
        self.penalize_intercept
    }

    /// The requested solver.
    pub fn solver(&self) -> LogisticSolver {
        self.solver
    }

    /// The tolerance, if set (else the solver's default).
    pub fn tolerance(&self) -> Option<f64> {
        self.tolerance
    }

    /// The iteration cap, if set (else the solver's default).
    pub fn max_iterations(&self) -> Option<usize> {
        self.max_iterations
    }

    /// The warm start `[W | b]` (`K′ × (d + 1)`), if set.
    pub fn warm_start(&self) -> Option<ArrayView2<'_, f64>> {
        self.warm_start.as_ref().map(Array2::view)
    }

    /// The number of classes, if set (else `max(y) + 1`).
    pub fn n_classes(&self) -> Option<usize> {
        self.n_classes
    }

    /// Whether stopping at the iteration cap is an error.
    pub fn require_convergence(&self) -> bool {
        self.require_convergence
    }
}

/// The builder of [`LogisticRegressionValidParams`]; every setter is unchecked until
/// [`ParamGuard::check`] (or `fit`) validates the whole set.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LogisticRegressionParams(pub(crate) LogisticRegressionValidParams);

impl LogisticRegressionParams {
    /// The default parameters: unpenalised, with an intercept, automatic solver.
    pub fn new() -> Self {
        Self::default()
    }

    /// Fit an intercept (default `true`).
    pub fn fit_intercept(mut self, fit_intercept: bool) -> Self {
        self.0.fit_intercept = fit_intercept;
        self
    }

    /// A Gaussian prior `N(0, σ² I)` on the weights: the penalty `‖w‖² / (2σ²)` is added to
    /// the negative log-likelihood (scikit-learn's `C` is `σ²`). `σ²` must be finite and
    /// positive.
    pub fn prior_variance(mut self, variance: f64) -> Self {
        self.0.prior_variance = Some(variance);
        self
    }

    /// No prior: maximum likelihood (the default).
    pub fn no_prior(mut self) -> Self {
        self.0.prior_variance = None;
        self
    }

    /// Apply the prior to the intercept as well (default `false`).
    pub fn penalize_intercept(mut self, penalize: bool) -> Self {
        self.0.penalize_intercept = penalize;
        self
    }

    /// The solver (default [`LogisticSolver::Auto`]).
    pub fn solver(mut self, solver: LogisticSolver) -> Self {
        self.0.solver = solver;
        self
    }

    /// The convergence tolerance (default: the solver's, see [`LogisticSolver`]).
    pub fn tolerance(mut self, tolerance: f64) -> Self {
        self.0.tolerance = Some(tolerance);
        self
    }

    /// The iteration cap (default: the solver's, see [`LogisticSolver`]). A solver that reaches
    /// it before its stopping rule holds still returns the model, flagged in its
    /// [`FitReport`](super::FitReport), unless [`require_convergence`](Self::require_convergence)
    /// is set.
    pub fn max_iterations(mut self, max_iterations: usize) -> Self {
        self.0.max_iterations = Some(max_iterations);
        self
    }

    /// Whether stopping at the iteration cap is an error (default `false`).
    ///
    /// By default a fit that reaches [`max_iterations`](Self::max_iterations) before its
    /// stopping rule holds returns the coefficients where it stopped, with
    /// [`FitReport::status`](super::FitReport::status) `MaxIterations`; a caller that never
    /// reads the report would not notice. With `true` the fit fails instead with
    /// [`Error::NotConverged`], naming the solver, its iterations and how far it was from its
    /// criterion. Separated data are not non-convergence: see
    /// [`FitReport::separated`](super::FitReport::separated).
    pub fn require_convergence(mut self, require: bool) -> Self {
        self.0.require_convergence = require;
        self
    }

    /// The number of classes `K` (default `max(y) + 1`). Labels must lie in `0..K`, and every
    /// class needs training weight.
    pub fn n_classes(mut self, n_classes: usize) -> Self {
        self.0.n_classes = Some(n_classes);
        self
    }

    /// Start Newton, L-BFGS or conjugate gradient from `model`'s coefficients and intercepts
    /// instead of the intercept-only fit (default: no warm start) — e.g. along a path of prior
    /// variances, or a penalised fit from the unpenalised one. Only the starting point
    /// changes: the solution is the same to the solver's tolerance. The model must have the
    /// shape of the new fit (same `d` and `K`), which `fit` checks; `GlmIrls` starts where
    /// `glm` starts and rejects a warm start.
    pub fn warm_start(mut self, model: &LogisticRegression) -> Self {
        let coefficients = model.coefficients();
        let intercept = model.intercept().insert_axis(Axis(1));
        self.0.warm_start = Some(
            concatenate![Axis(1), coefficients, intercept]
                .as_standard_layout()
                .into_owned(),
        );
        self
    }

    /// Start from the intercept-only fit (the default).
    pub fn no_warm_start(mut self) -> Self {
        self.0.warm_start = None;
        self
    }
}

impl ParamGuard for LogisticRegressionParams {
    type Checked = LogisticRegressionValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        let p = &self.0;
        if let Some(v) = p.prior_variance
            && !(v > 0.0 && v.is_finite())
        {
            return Err(Error::invalid_parameter(
                "prior_variance",
                format!("must be finite and > 0, got {v}"),
            ));
        }
        if p.penalize_intercept && p.prior_variance.is_none() {
            return Err(Error::invalid_parameter(
                "penalize_intercept",
                "needs a prior: set prior_variance",
            ));
        }
        if let Some(t) = p.tolerance
            && !(t > 0.0 && t.is_finite())
        {
            return Err(Error::invalid_parameter(
                "tolerance",
                format!("must be finite and > 0, got {t}"),
            ));
        }
        if p.max_iterations == Some(0) {
            return Err(Error::invalid_parameter("max_iterations", "must be ≥ 1"));
        }
        if let Some(k) = p.n_classes
            && k < 2
        {
            return Err(Error::invalid_parameter(
                "n_classes",
                format!("logistic regression needs at least 2 classes, got {k}"),
            ));
        }
        if p.solver == LogisticSolver::GlmIrls {
            if p.prior_variance.is_some() {
                return Err(Error::invalid_parameter(
                    "solver",
                    "GlmIrls is R's unpenalised glm.fit; it does not take a prior",
                ));
            }
            if p.n_classes.is_some_and(|k| k != 2) {
                return Err(Error::invalid_parameter(
                    "solver",
                    "GlmIrls fits the binomial family: two classes only",
                ));
            }
            if p.warm_start.is_some() {
                return Err(Error::invalid_parameter(
                    "warm_start",
                    "GlmIrls starts from glm's starting values; a warm start is not supported",
                ));
            }
        }
        Ok(p)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_solver_is_read_back_from_its_name_in_any_case() {
        for solver in LogisticSolver::ALL {
            assert_eq!(solver.name().parse::<LogisticSolver>().unwrap(), solver);
            let upper = solver.name().to_uppercase();
            assert_eq!(upper.parse::<LogisticSolver>().unwrap(), solver);
            assert_eq!(solver.to_string(), solver.name());
        }
        let error = "irls".parse::<LogisticSolver>().unwrap_err().to_string();
        assert!(
            error.contains("\"irls\"") && error.contains("newton, lbfgs, cg, glm"),
            "{error}"
        );
    }
}
