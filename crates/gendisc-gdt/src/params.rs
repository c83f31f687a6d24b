//! Hyper-parameters of the GDT estimator, validated (the params → fit → model flow).

use serde::{Deserialize, Serialize};

use gendisc_core::{Error, ParamGuard, Result};
use gendisc_optim::{ConjugateGradientSettings, LbfgsSettings, NewtonSettings};

use crate::family::{check_variance_floor, Family, Priors};

/// The optimiser that maximises `L_λ` from the generative start.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum GdtSolver {
    /// Nonlinear conjugate gradient (Polak–Ribière+) through argmin, as the paper (§3, §5).
    ConjugateGradient(ConjugateGradientSettings),
    /// Limited-memory BFGS through argmin.
    Lbfgs(LbfgsSettings),
    /// Damped Newton's method with the analytic Hessian of `L_λ` (the paper's other option,
    /// §3), for every family. `L_λ` is not concave in general for `λ < 1`: where the Hessian
    /// of `−L_λ` is not positive definite the step is regularised (a ridge, else steepest
    /// descent; see [`gendisc_optim::newton`]) and [`GdtReport::indefinite_hessians`]
    /// counts those iterations. See [`GdtSolver::newton`] for the usual settings.
    ///
    /// [`GdtReport::indefinite_hessians`]: crate::GdtReport::indefinite_hessians
    Newton(NewtonSettings),
}

impl Default for GdtSolver {
    fn default() -> Self {
        GdtSolver::ConjugateGradient(default_solver_settings())
    }
}

impl GdtSolver {
    /// L-BFGS with the same stopping rule as [`default_solver_settings`].
    pub fn lbfgs() -> Self {
        GdtSolver::Lbfgs(LbfgsSettings {
            gradient_tolerance: 1e-6,
            value_tolerance: DEFAULT_GDT_VALUE_TOLERANCE,
            max_iterations: 1000,
            ..LbfgsSettings::default()
        })
    }

    /// Newton's method with [`default_newton_settings`].
    pub fn newton() -> Self {
        GdtSolver::Newton(default_newton_settings())
    }

    fn validate(&self) -> Result<()> {
        match self {
            GdtSolver::ConjugateGradient(s) => s.validate(),
            GdtSolver::Lbfgs(s) => s.validate(),
            GdtSolver::Newton(s) => s.validate(),
        }
    }
}

/// The relative decrease per iteration below which the GDT fit stops, `1e-10` (as
/// [`ConjugateGradientSettings::value_tolerance`]): the objective has stopped changing in its
/// tenth significant digit. Looser than the optimiser's default (`64 ε`) because the
/// discriminative end of the path often has no finite maximiser — on (nearly) separable
/// training sets the parameters drift to infinity while `L_λ` creeps towards its supremum — and
/// such a fit should stop, as R's `glm` stops on its deviance change, rather than spend its
/// whole iteration budget.
pub const DEFAULT_GDT_VALUE_TOLERANCE: f64 = 1e-10;

/// The settings of the conjugate-gradient solver used by default: argmin's Polak–Ribière+ CG
/// (as the paper) with a gradient tolerance of `1e-6` on the objective per unit of sample
/// weight (a change of `1e-6 · n` in the log-likelihood), the relative value tolerance
/// [`DEFAULT_GDT_VALUE_TOLERANCE`], at most 1000 iterations, and the other settings of [`ConjugateGradientSettings::default`].
///
/// A fit that reaches the 1000th iteration stops there and is returned with the status
/// [`MaxIterations`](gendisc_optim::Status::MaxIterations) in its report, or is an error with
/// [`GdtParams::require_convergence`].
pub fn default_solver_settings() -> ConjugateGradientSettings {
    ConjugateGradientSettings {
        gradient_tolerance: 1e-6,
        value_tolerance: DEFAULT_GDT_VALUE_TOLERANCE,
        max_iterations: 1000,
        ..ConjugateGradientSettings::default()
    }
}

/// The settings of [`GdtSolver::newton`]: [`NewtonSettings::default`] (gradient tolerance
/// `1e-8` on the objective per unit of sample weight, at most 100 iterations, Armijo
/// backtracking, a ridge from `1e-10` of the largest diagonal entry when the Hessian is not
/// positive definite). The tolerance is tighter than conjugate gradient's `1e-6` because
/// Newton's last steps are quadratically convergent and cost one iteration each; there is no
/// value tolerance, so a fit whose maximiser does not exist (the discriminative end on
/// separable data) ends by its iteration cap and says so.
pub fn default_newton_settings() -> NewtonSettings {
    NewtonSettings::default()
}

/// Hyper-parameters of [`Gdt`](crate::Gdt), validated.
///
/// | parameter | default | meaning |
/// |---|---|---|
/// | `family` | set by [`Gdt::params`](crate::Gdt::params) | the generative family ([`Family`]) |
/// | `priors` | [`Family::default_priors`] ([`Priors::Fixed`] for the shared diagonal, [`Priors::Estimated`] otherwise) | class priors fixed at `1/K` or estimated with the rest of `θ` |
/// | `lambda` | `0.5` | `λ ∈ [0, 1]` of eq. (6): 1 is the generative fit, 0 the discriminative one |
/// | `solver` | [`GdtSolver::ConjugateGradient`]`(`[`default_solver_settings`]`())` | the optimiser; [`GdtSolver::lbfgs`] and [`GdtSolver::newton`] are the alternatives |
/// | `var_smoothing` | `1e-9` | relative variance floor of the generative start of Balls1, Balls2 and the shared diagonal (as in `gendisc-generative`) |
/// | `variance_floor` | `0` (none) | Balls2 only: relative floor `r` on every component variance throughout the GDT fit, `σ² ≥ v₀ = r · max_j Var(x_j)` (see [`GdtParams::variance_floor`]) |
/// | `em_seed` | `0` | seed of the EM initialisation of Balls2 |
/// | `em_max_iterations` | `500` | EM iterations per class for Balls2 |
/// | `n_classes` | `max(y) + 1` | number of classes `K` |
/// | `require_convergence` | `false` | make a fit that stops without converging an [`Error::NotConverged`] (see [`GdtParams::require_convergence`]) |
///
/// # Fits that stop at a cap
///
/// The optimiser stops at its iteration cap (1000 conjugate-gradient or L-BFGS iterations,
/// 100 Newton iterations by default) or at a failed line search, and Balls2's EM start at
/// `em_max_iterations`, whether or not they met their tolerances: at small `λ` on (nearly)
/// separable data `L_λ` often has no finite maximiser. By default such a fit is still
/// returned, and only [`Gdt::report`](crate::Gdt::report) says so
/// ([`GdtReport::converged`](crate::GdtReport::converged) is false); with
/// `require_convergence(true)` it is an error instead.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GdtValidParams {
    pub(crate) family: Family,
    /// `None`: the family's default.
    #[serde(default)]
    pub(crate) priors: Option<Priors>,
    pub(crate) lambda: f64,
    pub(crate) solver: GdtSolver,
    pub(crate) var_smoothing: f64,
    #[serde(default)]
    pub(crate) variance_floor: f64,
    pub(crate) em_seed: u64,
    pub(crate) em_max_iterations: usize,
    pub(crate) n_classes: Option<usize>,
    #[serde(default)]
    pub(crate) require_convergence: bool,
}

impl GdtValidParams {
    /// The generative family.
    pub fn family(&self) -> Family {
        self.family
    }
    /// How the class priors are treated: the setting given to [`GdtParams::priors`], else
    /// [`Family::default_priors`].
    pub fn priors(&self) -> Priors {
        self.priors.unwrap_or(self.family.default_priors())
    }
    /// The trade-off parameter `λ`.
    pub fn lambda(&self) -> f64 {
        self.lambda
    }
    /// The optimiser.
    pub fn solver(&self) -> &GdtSolver {
        &self.solver
    }
    /// The relative variance floor of the generative start.
    pub fn var_smoothing(&self) -> f64 {
        self.var_smoothing
    }
    /// The relative Balls2 variance floor (0: none).
    pub fn variance_floor(&self) -> f64 {
        self.variance_floor
    }
    /// The seed of Balls2's EM initialisation.
    pub fn em_seed(&self) -> u64 {
        self.em_seed
    }
    /// The cap on Balls2's EM iterations per class.
    pub fn em_max_iterations(&self) -> usize {
        self.em_max_iterations
    }
    /// The explicit number of classes, if set.
    pub fn n_classes(&self) -> Option<usize> {
        self.n_classes
    }
    /// Whether a fit that stops without converging is an error
    /// ([`GdtParams::require_convergence`]).
    pub fn require_convergence(&self) -> bool {
        self.require_convergence
    }

    /// The same parameters with another `λ` (validated).
    pub fn with_lambda(&self, lambda: f64) -> Result<Self> {
        check_lambda(lambda)?;
        Ok(Self {
            lambda,
            ..self.clone()
        })
    }
}

/// Builder for [`GdtValidParams`]; see there for the table of parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GdtParams(pub(crate) GdtValidParams);

impl GdtParams {
    /// Default parameters for `family`.
    pub fn new(family: Family) -> Self {
        Self(GdtValidParams {
            family,
            priors: None,
            lambda: 0.5,
            solver: GdtSolver::default(),
            var_smoothing: 1e-9,
            variance_floor: 0.0,
            em_seed: 0,
            em_max_iterations: 500,
            n_classes: None,
            require_convergence: false,
        })
    }
    /// Class priors [`Priors::Fixed`] at `1/K` or [`Priors::Estimated`] (default
    /// [`Family::default_priors`]: fixed for [`Family::SharedDiagonal`], estimated for the
    /// others). See [`Priors`] for why the shared diagonal may want them estimated.
    pub fn priors(mut self, priors: Priors) -> Self {
        self.0.priors = Some(priors);
        self
    }
    /// `λ ∈ [0, 1]` (default `0.5`).
    pub fn lambda(mut self, lambda: f64) -> Self {
        self.0.lambda = lambda;
        self
    }
    /// The optimiser (default conjugate gradient with [`default_solver_settings`]).
    pub fn solver(mut self, solver: GdtSolver) -> Self {
        self.0.solver = solver;
        self
    }
    /// The relative variance floor of the generative start (default `1e-9`).
    pub fn var_smoothing(mut self, var_smoothing: f64) -> Self {
        self.0.var_smoothing = var_smoothing;
        self
    }
    /// Balls2 only: bounds every component variance from below, `σ²_km ≥ v₀` with
    /// `v₀ = floor · max_j Var(x_j)` (the largest weighted maximum-likelihood column variance
    /// of the training data, or 1 if every column is constant: the scale of `var_smoothing`),
    /// through the reparametrisation `σ²_km = v₀ + e^{−2ℓ_km}` of [`crate::family`]. Default
    /// `0`, no floor.
    ///
    /// Without a floor a component can collapse onto a few rows, so that at small `λ` the fit
    /// has no finite maximiser and ends by its iteration cap; with one, `L_λ` (eq. 5) is
    /// bounded above and the fit converges. The generative start is then EM with the same
    /// floor (its `var_smoothing` raised to `floor` if smaller), so that `λ = 1` remains the
    /// generative fit of the floored family (up to a relative `1e-6` in a variance EM left at
    /// the floor). A negative or non-finite floor, or a positive one for another family, is an
    /// [`Error::InvalidParameter`] named `variance_floor`.
    pub fn variance_floor(mut self, floor: f64) -> Self {
        self.0.variance_floor = floor;
        self
    }
    /// The seed of Balls2's EM initialisation (default 0).
    pub fn em_seed(mut self, seed: u64) -> Self {
        self.0.em_seed = seed;
        self
    }
    /// The cap on Balls2's EM iterations per class (default 500). EM that reaches it stops
    /// there; the fit's [report](crate::GdtReport::start_converged) says so, and
    /// [`GdtParams::require_convergence`] makes it an error.
    pub fn em_max_iterations(mut self, max_iterations: usize) -> Self {
        self.0.em_max_iterations = max_iterations;
        self
    }
    /// The number of classes (default `max(y) + 1`).
    pub fn n_classes(mut self, n_classes: usize) -> Self {
        self.0.n_classes = Some(n_classes);
        self
    }
    /// Whether a fit that stops without meeting its convergence criterion is an error
    /// (default `false`).
    ///
    /// The optimiser can stop at its iteration cap or at a failed line search, and Balls2's EM
    /// start at its own cap ([`GdtParams::em_max_iterations`]); by default the fit is returned
    /// all the same and only its [report](crate::Gdt::report) tells. With `true` such a fit is
    /// an [`Error::NotConverged`] naming the method, its iterations and its last gradient norm
    /// (or, for EM, its last log-likelihood change). At `λ = 1` only EM can stop early. The
    /// fits of a [λ path](GdtValidParams::fit_path) and of cross-validation obey it too.
    pub fn require_convergence(mut self, require: bool) -> Self {
        self.0.require_convergence = require;
        self
    }
}

pub(crate) fn check_lambda(lambda: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&lambda) {
        return Err(Error::invalid_parameter(
            "lambda",
            format!("λ must lie in [0, 1], got {lambda}"),
        ));
    }
    Ok(())
}

impl ParamGuard for GdtParams {
    type Checked = GdtValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        validate(&self.0)?;
        Ok(&self.0)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}

/// Checks every setting of `p`; an invalid one is an [`Error::InvalidParameter`] naming it.
pub(crate) fn validate(p: &GdtValidParams) -> Result<()> {
    {
        check_lambda(p.lambda)?;
        p.solver.validate()?;
        if !(p.var_smoothing.is_finite() && p.var_smoothing > 0.0) {
            return Err(Error::invalid_parameter(
                "var_smoothing",
                format!("must be finite and positive, got {}", p.var_smoothing),
            ));
        }
        check_variance_floor(p.family, p.variance_floor)?;
        if p.em_max_iterations == 0 {
            return Err(Error::invalid_parameter("em_max_iterations", "must be ≥ 1"));
        }
        if let Some(k) = p.n_classes {
            if k < 2 {
                return Err(Error::invalid_parameter(
                    "n_classes",
                    format!("a classifier needs at least 2 classes, got {k}"),
                ));
            }
        }
    }
    Ok(())
}
