//! Hyper-parameters of the GDT estimator, validated (the params → fit → model flow).

use serde::{Deserialize, Serialize};

use gendisc_core::{Error, ParamGuard, Result};
use gendisc_optim::{
    AutoSettings, ConjugateGradientSettings, LbfgsSettings, Method, TrustRegionSettings,
};

use gendisc_generative::CovarianceShrinkage;

use crate::family::{check_variance_floor, Family, Priors};
use crate::shrinkage::coefficient;

/// The relative decrease per iteration below which the paper's conjugate gradient
/// ([`paper_conjugate_gradient`]) stops, `1e-10`: the objective has stopped changing in its
/// tenth significant digit. Such a stop is [`Status::Stalled`](gendisc_optim::Status::Stalled),
/// not convergence, unless the gradient criterion holds too.
pub const DEFAULT_GDT_VALUE_TOLERANCE: f64 = 1e-10;

/// The gradient tolerance of the default method: a GDT fit has converged when
/// `‖∇f‖₂ ≤ 5·10⁻⁸ · max(1, |f|)` for the objective per unit of sample weight `f = −L_λ / S`
/// ([`Criterion`](gendisc_optim::Criterion)).
pub const DEFAULT_GDT_GRADIENT_TOLERANCE: f64 = 5e-8;

/// The iteration cap of the default trust-region Newton method, 200. Where a maximiser exists
/// at a finite point the method converges quadratically near it (within 30 iterations on the
/// UCI fits of the tests); where the supremum is approached at infinity — a Balls2 component
/// settling onto its variance floor (`ℓ → ∞`, gradient decaying like `e^{−2ℓ}`), or Balls2's
/// discriminative end where no sub-family certifies that it has no maximiser
/// ([`crate::existence::balls2_separation`]) — progress is linear, and such a fit may need
/// 100–200 iterations to meet the criterion or stops at the cap as
/// [`Status::MaxIterations`](gendisc_optim::Status::MaxIterations).
pub const DEFAULT_GDT_NEWTON_ITERATIONS: usize = 200;

/// The default optimiser of GDT: [`Method::Auto`] — trust-region Newton with the analytic
/// Hessian of `L_λ` (the paper's other option, §3) while `θ` has at most
/// [`AUTO_MAX_NEWTON_DIM`](gendisc_optim::AUTO_MAX_NEWTON_DIM) parameters and one Hessian
/// costs at most [`AUTO_MAX_HESSIAN_COST`](gendisc_optim::AUTO_MAX_HESSIAN_COST) operations
/// (about `n (K q² + p²)` for `n` rows, `p` parameters and `q` per class), else L-BFGS on
/// whitened inputs ([`GdtParams::whiten_inputs`]), finished by Newton where it stops short
/// within Newton's dimension — stopping on the gradient criterion [`DEFAULT_GDT_GRADIENT_TOLERANCE`] (L-BFGS on ten times
/// that, the floor its value-based line search reaches reliably), at most
/// [`DEFAULT_GDT_NEWTON_ITERATIONS`] Newton or 2000 L-BFGS iterations.
///
/// `L_λ` is not concave in general for `λ < 1`: where the Hessian of `−L_λ` is not positive
/// definite the trust region follows the negative curvature as far as the ratio of actual to
/// predicted decrease allows ([`gendisc_optim::trust_region`]), and
/// [`GdtReport::indefinite_hessians`](crate::GdtReport::indefinite_hessians) counts those
/// iterations. A trial point where `L_λ` is not finite (QDA's precision leaving the positive
/// definite cone in floating point) shrinks the region; it never ends the fit.
pub fn default_method() -> Method {
    Method::Auto(AutoSettings {
        trust_region: TrustRegionSettings {
            gradient_tolerance: DEFAULT_GDT_GRADIENT_TOLERANCE,
            max_iterations: DEFAULT_GDT_NEWTON_ITERATIONS,
            ..TrustRegionSettings::default()
        },
        lbfgs: LbfgsSettings {
            gradient_tolerance: 10.0 * DEFAULT_GDT_GRADIENT_TOLERANCE,
            max_iterations: 2000,
            ..LbfgsSettings::default()
        },
        ..AutoSettings::default()
    })
}

/// The paper's optimiser (§3, §5): argmin's Polak–Ribière+ nonlinear conjugate gradient with a
/// gradient tolerance of `1e-6` (relative, [`Criterion`](gendisc_optim::Criterion)), the
/// relative value tolerance [`DEFAULT_GDT_VALUE_TOLERANCE`] and at most 1000 iterations — the
/// default of earlier releases, kept so that the Bouchard–Triggs study can show it beside the
/// default. Its value test ends many fits as [`Status::Stalled`](gendisc_optim::Status::Stalled)
/// short of the optimum; prefer [`default_method`].
pub fn paper_conjugate_gradient() -> Method {
    Method::ConjugateGradient(paper_conjugate_gradient_settings())
}

/// The settings of [`paper_conjugate_gradient`].
pub fn paper_conjugate_gradient_settings() -> ConjugateGradientSettings {
    ConjugateGradientSettings {
        gradient_tolerance: 1e-6,
        value_tolerance: DEFAULT_GDT_VALUE_TOLERANCE,
        max_iterations: 1000,
        ..ConjugateGradientSettings::default()
    }
}

/// Hyper-parameters of [`Gdt`](crate::Gdt), validated.
///
/// | parameter | default | meaning |
/// |---|---|---|
/// | `family` | set by [`Gdt::params`](crate::Gdt::params) | the generative family ([`Family`]) |
/// | `priors` | [`Family::default_priors`] ([`Priors::Fixed`] for the shared diagonal, [`Priors::Estimated`] otherwise) | class priors fixed at `1/K` or estimated with the rest of `θ` |
/// | `lambda` | `0.5` | `λ ∈ [0, 1]` of eq. (6): 1 is the generative fit, 0 the discriminative one |
/// | `solver` | [`default_method`] (trust-region Newton, or L-BFGS beyond 1000 parameters or where a Hessian would cost more than `10⁸` operations) | the optimiser, any [`Method`]; [`paper_conjugate_gradient`] is the paper's |
/// | `var_smoothing` | `1e-9` | relative variance floor of the generative start of Balls1, Balls2 and the shared diagonal (as in `gendisc-generative`) |
/// | `shrinkage` | `CovarianceShrinkage::None` | LDA and QDA only: covariance shrinkage of coefficient `γ ∈ [0, 1)` toward the scaled identity or the identity, as a log-prior on the precisions weighted with `L_gen` (see [`GdtParams::shrinkage`]) |
/// | `variance_floor` | `0` (none) | Balls2 only: relative floor `r` on every component variance throughout the GDT fit, `σ² ≥ v₀ = r · max_j Var(x_j)` (see [`GdtParams::variance_floor`]) |
/// | `em_seed` | none | Balls2's EM start: none for the order-free principal split, a seed for k-means++ (see `gendisc_generative::Balls2`) |
/// | `em_max_iterations` | `500` | EM iterations per class for Balls2 |
/// | `n_classes` | `max(y) + 1` | number of classes `K` |
/// | `require_convergence` | `false` | make a fit that stops without converging an [`Error::NotConverged`] (see [`GdtParams::require_convergence`]) |
/// | `certify_discriminative_end` | `true` | decide `λ = 0` by a separation certificate first (see [`GdtParams::certify_discriminative_end`]) |
/// | `whiten_inputs` | `true` | run the solver on inputs whitened by their pooled within-class covariance (LDA, QDA, the shared diagonal; see [`GdtParams::whiten_inputs`]) |
///
/// # Fits that stop at a cap
///
/// The optimiser stops when the gradient criterion holds ([`Status::Converged`]), at its
/// iteration cap, or when the objective stops decreasing measurably short of it
/// ([`Status::Stalled`]); Balls2's EM start stops at `em_max_iterations`. At `λ = 0` a
/// certificate decides first whether a finite maximiser exists ([`crate::existence`]); where
/// the training rows are separated it does not, and the fit ends at once as
/// [`Status::NoFiniteMinimiser`] with the certificate in its report; a Balls2 fit without a
/// variance floor is also checked where it stops, and ends the same way where its parameters
/// prove that it was following a ray to a supremum at infinity
/// ([`GdtReport::component_separation`](crate::GdtReport::component_separation)). By default a fit that did
/// not converge is still returned, and [`Gdt::report`](crate::Gdt::report) says so
/// ([`is_converged`](gendisc_core::Convergence::is_converged) false); with
/// `require_convergence(true)` it is an error instead.
///
/// [`Status::Converged`]: gendisc_optim::Status::Converged
/// [`Status::Stalled`]: gendisc_optim::Status::Stalled
/// [`Status::NoFiniteMinimiser`]: gendisc_optim::Status::NoFiniteMinimiser
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GdtValidParams {
    pub(crate) family: Family,
    /// `None`: the family's default.
    #[serde(default)]
    pub(crate) priors: Option<Priors>,
    pub(crate) lambda: f64,
    pub(crate) solver: Method,
    pub(crate) var_smoothing: f64,
    #[serde(default)]
    pub(crate) variance_floor: f64,
    /// Absent from params serialised before it could be set: none.
    #[serde(default)]
    pub(crate) shrinkage: CovarianceShrinkage,
    /// `None` (and absent from params serialised before it could be) is the principal split;
    /// params of earlier versions hold a seed, which keeps their k-means++ start.
    #[serde(default)]
    pub(crate) em_seed: Option<u64>,
    pub(crate) em_max_iterations: usize,
    pub(crate) n_classes: Option<usize>,
    #[serde(default)]
    pub(crate) require_convergence: bool,
    /// Absent from params serialised before it could be set, and left out while it has its
    /// default: certified.
    #[serde(default = "certified", skip_serializing_if = "is_certified")]
    pub(crate) certify_discriminative_end: bool,
    /// Absent from params serialised before it could be set, and left out while it has its
    /// default: whitened.
    #[serde(default = "whitened", skip_serializing_if = "is_whitened")]
    pub(crate) whiten_inputs: bool,
}

/// The default of [`GdtValidParams::whiten_inputs`].
fn whitened() -> bool {
    true
}

fn is_whitened(whiten: &bool) -> bool {
    *whiten
}

/// The default of [`GdtValidParams::certify_discriminative_end`].
fn certified() -> bool {
    true
}

fn is_certified(certify: &bool) -> bool {
    *certify
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
    pub fn solver(&self) -> &Method {
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
    /// The covariance shrinkage of LDA and QDA.
    pub fn shrinkage(&self) -> CovarianceShrinkage {
        self.shrinkage
    }
    /// The seed of Balls2's k-means++ EM start, or `None` for the principal split.
    pub fn em_seed(&self) -> Option<u64> {
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
    /// Whether the fit at `λ = 0` is decided by a separation certificate first
    /// ([`GdtParams::certify_discriminative_end`]).
    pub fn certify_discriminative_end(&self) -> bool {
        self.certify_discriminative_end
    }
    /// Whether L-BFGS and conjugate gradient run on whitened inputs
    /// ([`GdtParams::whiten_inputs`]).
    pub fn whiten_inputs(&self) -> bool {
        self.whiten_inputs
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
            solver: default_method(),
            var_smoothing: 1e-9,
            variance_floor: 0.0,
            shrinkage: CovarianceShrinkage::None,
            em_seed: None,
            em_max_iterations: 500,
            n_classes: None,
            require_convergence: false,
            certify_discriminative_end: true,
            whiten_inputs: true,
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
    /// The optimiser (default [`default_method`]).
    pub fn solver(mut self, solver: Method) -> Self {
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
    /// LDA and QDA only: shrinks every covariance (pooled for LDA, per class for QDA) as
    /// `gendisc_generative`'s LDA and QDA do — `(1 − γ) S + γ (tr S / d) I` for
    /// [`CovarianceShrinkage::ScaledIdentity`]`(γ)`, `(1 − γ) S + γ I` (the identity in the
    /// data's units, scikit-learn's `reg_param`) for [`CovarianceShrinkage::Identity`]`(γ)` — in
    /// the generative start and, as the Wishart log-prior it is the maximiser of, in the
    /// objective: `λ [L_gen + Σ_p log π(Λ_p)] + (1 − λ) L_disc` ([`crate::shrinkage`]).
    /// Default [`CovarianceShrinkage::None`].
    ///
    /// This is what lets the two families fit collinear or constant columns, where the
    /// unshrunk covariance is singular and the joint likelihood unbounded; `λ = 1` is then the
    /// shrunk LDA (or QDA), and `λ = 0` the unpenalised discriminative end. `γ` must lie in
    /// `[0, 1)` (at 1 the prior would outweigh any data); outside it, or positive for another
    /// family, it is an [`Error::InvalidParameter`] named `shrinkage`.
    pub fn shrinkage(mut self, shrinkage: CovarianceShrinkage) -> Self {
        self.0.shrinkage = shrinkage;
        self
    }
    /// Starts Balls2's EM by k-means++ with this seed instead of the order-free principal
    /// split (the default).
    pub fn em_seed(mut self, seed: u64) -> Self {
        self.0.em_seed = Some(seed);
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
    /// Whether the fit at `λ = 0` first decides, by a separation certificate, whether the
    /// conditional likelihood has a finite maximiser (default `true`).
    ///
    /// With `true` (the estimator as it is defined) a fit on separated rows ends at once as
    /// [`Status::NoFiniteMinimiser`](gendisc_optim::Status::NoFiniteMinimiser) with the
    /// certificate in its report, and elsewhere the maximiser is found in the family's induced
    /// coefficients (module documentation of [`crate::existence`]); a Balls2 fit without a
    /// variance floor is also checked where it stops. With `false` the solver runs
    /// on `θ` from the start as at any other `λ`, as Bouchard & Triggs ran their conjugate
    /// gradient: on separated rows it then stops wherever its own rules stop it (the iteration
    /// cap, a stalled value), and its [report](crate::Gdt::report) says which. Only for
    /// showing what such a solver returns; the estimator is the certified fit.
    pub fn certify_discriminative_end(mut self, certify: bool) -> Self {
        self.0.certify_discriminative_end = certify;
        self
    }
    /// Whether the solver runs on inputs whitened by the training rows' pooled within-class
    /// covariance (default `true`), for the families closed under that affine map: LDA, QDA
    /// and (per feature) the shared diagonal. With [`Self::shrinkage`] the covariance is
    /// shrunk as the generative start's is, and the prior is carried to the whitened inputs.
    ///
    /// The maximiser is the same either way (the map changes `L_gen` by a constant and
    /// `L_disc` not at all); what changes is the conditioning a first-order solver sees, and
    /// the units in which trust-region Newton's damping measures its steps — with them how
    /// many iterations the fit needs and whether it reaches the criterion within its cap, which
    /// every run on the whitened rows shares. The fit is converged only where the first-order
    /// condition holds in the model's own coordinates (module documentation of `whitening` in
    /// the source). With `false` the solver runs on `θ` as it is, as Bouchard & Triggs ran
    /// their conjugate gradient.
    pub fn whiten_inputs(mut self, whiten: bool) -> Self {
        self.0.whiten_inputs = whiten;
        self
    }
}

/// Shrinkage has its coefficient in `[0, 1)`, positive only for LDA and QDA.
fn check_shrinkage(family: Family, shrinkage: CovarianceShrinkage) -> Result<()> {
    let gamma = coefficient(shrinkage);
    if !(0.0..1.0).contains(&gamma) {
        return Err(Error::invalid_parameter(
            "shrinkage",
            format!("must lie in [0, 1), got {gamma}"),
        ));
    }
    if gamma > 0.0 && !matches!(family, Family::Lda | Family::Qda) {
        return Err(Error::invalid_parameter(
            "shrinkage",
            format!(
                "only LDA and QDA take covariance shrinkage; {family} got {gamma} \
                 (its generative start is regularised by `var_smoothing`)"
            ),
        ));
    }
    Ok(())
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
        check_shrinkage(p.family, p.shrinkage)?;
        if p.em_max_iterations == 0 {
            return Err(Error::invalid_parameter("em_max_iterations", "must be ≥ 1"));
        }
        if let Some(k) = p.n_classes
            && k < 2
        {
            return Err(Error::invalid_parameter(
                "n_classes",
                format!("a classifier needs at least 2 classes, got {k}"),
            ));
        }
    }
    Ok(())
}
