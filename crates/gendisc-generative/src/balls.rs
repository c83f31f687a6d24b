//! Spherical Gaussian classes: one ball per class ([`Balls1`]) or a mixture of two balls per
//! class fitted by EM ([`Balls2`]) — densities 3 and 4 of Bouchard & Triggs (2004), §5.
//!
//! ```text
//! Balls1:  p(x | y = k) = N(x; μ_k, σ²_k I)
//! Balls2:  p(x | y = k) = ω_k1 N(x; μ_k1, σ²_k1 I) + ω_k2 N(x; μ_k2, σ²_k2 I)
//! log N(x; μ, σ² I) = −(d/2) ln(2π σ²) − ‖x − μ‖² / (2σ²)
//! ```
//!
//! ## Variance floor
//!
//! A ball can collapse (a class whose rows coincide; an EM component that captures a single
//! point), which sends the likelihood to infinity. Both models therefore maximise the
//! likelihood under the constraint `σ² ≥ ε`, with `ε = var_smoothing · max_j Var(x_j)` (the
//! largest weighted ML column variance of the training data, or 1 if every column is
//! constant). The constrained estimate is `max(σ̂², ε)`, since the profile likelihood in `σ²`
//! is unimodal; unlike an additive floor this keeps EM monotone.

use ndarray::{Array1, Array2, Array3, ArrayView1, ArrayView2, Axis, CowArray, Ix1, Ix2, Ix3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

use gendisc_core::convergence::{Convergence, Criterion, Report, Status};
use gendisc_core::model_file::invariants::{finite, invalid, log_distribution, shape};
use gendisc_core::numerics::log_sum_exp;
use gendisc_core::{Classifier, Error, FitSummary, Generative, ParamGuard, Result, SavedModel};

use crate::common::{
    check_n_classes, check_prediction, check_training, check_var_smoothing, ln_2pi, rows_per_class,
    variance_floor, ClassPriors,
};
use crate::model_file::{check_classes, check_floored_variances, check_size, locate};
use crate::moments::DiagonalMoments;
use crate::sampling::{Categorical, SampleJoint};
use crate::unit::Unit;

/// `log N(x; μ, σ² I)`.
fn log_ball(x: ArrayView1<'_, f64>, mean: ArrayView1<'_, f64>, variance: f64) -> f64 {
    let sq: f64 = x
        .iter()
        .zip(mean.iter())
        .map(|(a, b)| (a - b) * (a - b))
        .sum();
    -0.5 * (x.len() as f64 * (ln_2pi() + variance.ln()) + sq / variance)
}

// ---------------------------------------------------------------------------------------------
// Balls1
// ---------------------------------------------------------------------------------------------

/// Hyper-parameters of [`Balls1`], validated.
///
/// | parameter | default | meaning |
/// |---|---|---|
/// | `var_smoothing` | `1e-9` | relative variance floor: `σ²_k ≥ var_smoothing · max_j Var(x_j)` |
/// | `priors` | [`ClassPriors::Empirical`] | class prior |
/// | `n_classes` | `max(y) + 1` | number of classes `K` |
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Balls1ValidParams {
    var_smoothing: f64,
    priors: ClassPriors,
    n_classes: Option<usize>,
}

impl Default for Balls1ValidParams {
    fn default() -> Self {
        Self {
            var_smoothing: 1e-9,
            priors: ClassPriors::Empirical,
            n_classes: None,
        }
    }
}

impl Balls1ValidParams {
    /// The relative variance floor.
    pub fn var_smoothing(&self) -> f64 {
        self.var_smoothing
    }
    /// The class prior.
    pub fn priors(&self) -> &ClassPriors {
        &self.priors
    }
    /// The explicit number of classes, if set.
    pub fn n_classes(&self) -> Option<usize> {
        self.n_classes
    }
}

/// Builder for [`Balls1ValidParams`]; see there for the table of parameters.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Balls1Params(Balls1ValidParams);

impl Balls1Params {
    /// The relative variance floor (default `1e-9`); must be finite and positive.
    pub fn var_smoothing(mut self, var_smoothing: f64) -> Self {
        self.0.var_smoothing = var_smoothing;
        self
    }
    /// The class prior (default empirical).
    pub fn priors(mut self, priors: ClassPriors) -> Self {
        self.0.priors = priors;
        self
    }
    /// The number of classes (default `max(y) + 1`, or the number of given priors).
    pub fn n_classes(mut self, n_classes: usize) -> Self {
        self.0.n_classes = Some(n_classes);
        self
    }
}

impl ParamGuard for Balls1Params {
    type Checked = Balls1ValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        check_var_smoothing(self.0.var_smoothing)?;
        self.0.priors.check()?;
        check_n_classes(self.0.n_classes)?;
        Ok(&self.0)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}

/// A fitted Balls1 model: one spherical Gaussian per class, with the maximum-likelihood
/// estimates `μ_k = Σ w_i x_i / W_k` and `σ²_k = max(Σ w_i ‖x_i − μ_k‖² / (d W_k), ε)`; see the
/// [module documentation](self).
///
/// ```
/// use gendisc_core::{Classifier, Fit};
/// use gendisc_generative::Balls1;
/// use ndarray::array;
///
/// let x = array![[0.0, 0.0], [2.0, 0.0], [10.0, 10.0], [10.0, 12.0]];
/// let y = array![0, 0, 1, 1];
/// let model = Balls1::params().fit(x.view(), y.view()).unwrap();
/// // Class 0: squared distances to (1, 0) are 1 and 1 → σ² = 2 / (2 · 2).
/// assert!((model.variances()[0] - 0.5).abs() < 1e-8);
/// assert_eq!(model.predict(array![[9.0, 9.0]].view()).unwrap()[0], 1);
/// ```
///
/// Data of extreme magnitude (beyond `2^±256`) is fitted in a power-of-two unit, as
/// [`Lda`](crate::Lda) is; the unit is serialised (`"unit"`, omitted when 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Balls1 {
    /// The unit of `means`, `variances` and `variance_floor`: the model is one of `x / unit`.
    #[serde(default, skip_serializing_if = "Unit::is_one")]
    unit: Unit,
    means: Array2<f64>,
    variances: Array1<f64>,
    log_prior: Array1<f64>,
    class_weight: Array1<f64>,
    variance_floor: f64,
}

impl Balls1 {
    /// The default hyper-parameters, to be adjusted and fitted.
    pub fn params() -> Balls1Params {
        Balls1Params::default()
    }

    /// Class means `μ_k`, `K × d`, in the data's units.
    pub fn means(&self) -> CowArray<'_, f64, Ix2> {
        self.unit.restore(self.means.view(), 1)
    }

    /// Class variances `σ²_k`, length `K`, in the data's units (`∞` for data whose squares
    /// overflow, where the model still works in its own unit).
    pub fn variances(&self) -> CowArray<'_, f64, Ix1> {
        self.unit.restore(self.variances.view(), 2)
    }

    /// The absolute floor `ε` under which no variance was allowed to fall, in the data's units.
    pub fn variance_floor(&self) -> f64 {
        self.variance_floor * self.unit.value() * self.unit.value()
    }

    /// Class priors `p(y = k)`.
    pub fn class_prior(&self) -> Array1<f64> {
        self.log_prior.mapv(f64::exp)
    }

    /// Weighted class totals `W_k` seen in training.
    pub fn class_weight(&self) -> ArrayView1<'_, f64> {
        self.class_weight.view()
    }

    fn fit_impl(
        p: &Balls1ValidParams,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<Self> {
        let summary = check_training("Balls1", x, y, w, p.n_classes, &p.priors)?;
        let unit = Unit::of(x);
        let moments = DiagonalMoments::accumulate(unit.rescale(x).view(), y, w, summary.n_classes);
        let floor = variance_floor(p.var_smoothing, moments.max_column_variance());
        let d = x.ncols() as f64;
        let variances = Array1::from_iter(
            moments
                .sq_dev
                .axis_iter(Axis(0))
                .zip(&moments.weight)
                .map(|(m, &wk)| (m.sum() / (d * wk)).max(floor)),
        );
        Ok(Self {
            unit,
            means: moments.means,
            variances,
            log_prior: p.priors.log_prior(&summary.class_weight)?,
            class_weight: Array1::from(summary.class_weight),
            variance_floor: floor,
        })
    }
}

crate::common::impl_fit!(Balls1ValidParams => Balls1, fit_impl);

crate::common::impl_generative_classifier!(Balls1, |model| model.means.ncols(), |model| model
    .means
    .nrows());

impl Generative for Balls1 {
    fn log_prior(&self) -> Array1<f64> {
        self.log_prior.clone()
    }

    fn class_log_likelihood(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        check_prediction(x, self.n_features())?;
        let x = self.unit.rescale(x);
        let mut out = Array2::zeros((x.nrows(), self.n_classes()));
        for (row, mut out_row) in x.axis_iter(Axis(0)).zip(out.axis_iter_mut(Axis(0))) {
            for (k, o) in out_row.iter_mut().enumerate() {
                *o = log_ball(row, self.means.row(k), self.variances[k]);
            }
        }
        Ok(self.unit.density_of_data(out, self.n_features()))
    }
}

impl SavedModel for Balls1 {
    const KIND: &'static str = "balls1";

    /// The unit is a power of two; `means` is a finite `K × d` matrix; `variances` holds `K`
    /// variances, none below the positive `variance_floor`; the class priors and weights are
    /// those of `K` classes.
    fn check_invariants(&self) -> Result<()> {
        let kind = Self::KIND;
        self.unit.check(kind)?;
        let (n_classes, d) = self.means.dim();
        check_size(kind, "means", n_classes, d)?;
        finite(kind, "means", &self.means)?;
        shape(kind, "variances", &self.variances, &[n_classes])?;
        check_floored_variances(kind, &self.variances, self.variance_floor)?;
        check_classes(kind, n_classes, &self.log_prior, &self.class_weight)
    }
}

gendisc_core::impl_conditional_model_by_bayes!(Balls1);

impl SampleJoint for Balls1 {
    /// `y ~ p(y)`, then `x = μ_y + σ_y z`, `z ~ N(0, I)`.
    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> (Array2<f64>, Array1<usize>) {
        let classes = Categorical::from_log_weights(self.log_prior.view());
        let mut x = Array2::zeros((n, self.n_features()));
        let mut y = Array1::zeros(n);
        for (mut row, yi) in x.axis_iter_mut(Axis(0)).zip(y.iter_mut()) {
            let k = classes.draw(rng);
            *yi = k;
            let sd = self.variances[k].sqrt();
            for (xj, &m) in row.iter_mut().zip(self.means.row(k)) {
                *xj = m + sd * rng.sample::<f64, _>(StandardNormal);
            }
        }
        (self.unit.restore(x.view(), 1).into_owned(), y)
    }
}

// ---------------------------------------------------------------------------------------------
// Balls2
// ---------------------------------------------------------------------------------------------

/// Number of mixture components per class in [`Balls2`].
const COMPONENTS: usize = 2;

/// Hyper-parameters of [`Balls2`], validated.
///
/// | parameter | default | meaning |
/// |---|---|---|
/// | `max_iterations` | `500` | cap on EM iterations per class (≥ 1) |
/// | `tolerance` | `1e-8` | stop when the class log-likelihood rises by at most `tolerance · W_k` (the class's total weight): a gain per row, which neither the units of `x` nor the scale of the weights change |
/// | `require_convergence` | `false` | make stopping at `max_iterations` an [`Error::NotConverged`] |
/// | `seed` | none | EM's start: none for the principal split (order-free, see [`Balls2`]); a seed for k-means++ with that `ChaCha8Rng` stream (the same for every class) |
/// | `var_smoothing` | `1e-9` | relative variance floor: `σ²_km ≥ var_smoothing · max_j Var(x_j)` |
/// | `priors` | [`ClassPriors::Empirical`] | class prior |
/// | `n_classes` | `max(y) + 1` | number of classes `K` |
///
/// **The iteration cap.** EM on a class can stop at `max_iterations` before the tolerance is
/// met. By default that is not an error: the fit returns the parameters of the last iteration,
/// and [`Balls2::report`] (and the model file's fit summary) says which classes stopped at the
/// cap. With `require_convergence(true)` the fit fails instead, naming the class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Balls2ValidParams {
    max_iterations: usize,
    tolerance: f64,
    /// Absent from params serialised before the setting existed, which never required it.
    #[serde(default)]
    require_convergence: bool,
    /// `None` (and absent from params serialised before it could be) starts at the principal
    /// split; params of earlier versions hold a seed, which keeps their k-means++ start.
    #[serde(default)]
    seed: Option<u64>,
    var_smoothing: f64,
    priors: ClassPriors,
    n_classes: Option<usize>,
}

impl Default for Balls2ValidParams {
    fn default() -> Self {
        Self {
            max_iterations: 500,
            tolerance: 1e-8,
            require_convergence: false,
            seed: None,
            var_smoothing: 1e-9,
            priors: ClassPriors::Empirical,
            n_classes: None,
        }
    }
}

impl Balls2ValidParams {
    /// The cap on EM iterations per class.
    pub fn max_iterations(&self) -> usize {
        self.max_iterations
    }
    /// The convergence tolerance: the largest gain of the log-likelihood per unit of weight.
    pub fn tolerance(&self) -> f64 {
        self.tolerance
    }
    /// Whether stopping at the iteration cap is an error.
    pub fn require_convergence(&self) -> bool {
        self.require_convergence
    }
    /// The seed of the k-means++ start, or `None` for the principal split (the default).
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }
    /// The relative variance floor.
    pub fn var_smoothing(&self) -> f64 {
        self.var_smoothing
    }
    /// The class prior.
    pub fn priors(&self) -> &ClassPriors {
        &self.priors
    }
    /// The explicit number of classes, if set.
    pub fn n_classes(&self) -> Option<usize> {
        self.n_classes
    }
}

/// Builder for [`Balls2ValidParams`]; see there for the table of parameters.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Balls2Params(Balls2ValidParams);

impl Balls2Params {
    /// The cap on EM iterations per class (default 500, at least 1). A class whose EM reaches
    /// it stops there, converged or not: see [`require_convergence`](Self::require_convergence).
    pub fn max_iterations(mut self, max_iterations: usize) -> Self {
        self.0.max_iterations = max_iterations;
        self
    }
    /// The convergence tolerance, a gain of the log-likelihood per unit of weight (default
    /// `1e-8`, finite and ≥ 0).
    pub fn tolerance(mut self, tolerance: f64) -> Self {
        self.0.tolerance = tolerance;
        self
    }
    /// Whether EM stopping at `max_iterations` on some class, before the tolerance is met, is an
    /// [`Error::NotConverged`] naming the class (default `false`: the fit returns the last
    /// iteration's parameters, and [`Balls2::report`] records that the class did not
    /// converge).
    pub fn require_convergence(mut self, require_convergence: bool) -> Self {
        self.0.require_convergence = require_convergence;
        self
    }
    /// Starts EM by k-means++ with this seed instead of the principal split (the default). The
    /// k-means++ draw depends on the order of the rows; different seeds give restarts.
    pub fn seed(mut self, seed: u64) -> Self {
        self.0.seed = Some(seed);
        self
    }
    /// The relative variance floor (default `1e-9`); must be finite and positive.
    pub fn var_smoothing(mut self, var_smoothing: f64) -> Self {
        self.0.var_smoothing = var_smoothing;
        self
    }
    /// The class prior (default empirical).
    pub fn priors(mut self, priors: ClassPriors) -> Self {
        self.0.priors = priors;
        self
    }
    /// The number of classes (default `max(y) + 1`, or the number of given priors).
    pub fn n_classes(mut self, n_classes: usize) -> Self {
        self.0.n_classes = Some(n_classes);
        self
    }
}

impl ParamGuard for Balls2Params {
    type Checked = Balls2ValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        if self.0.max_iterations == 0 {
            return Err(Error::invalid_parameter(
                "max_iterations",
                "EM needs at least one iteration",
            ));
        }
        if !(self.0.tolerance.is_finite() && self.0.tolerance >= 0.0) {
            return Err(Error::invalid_parameter(
                "tolerance",
                format!("must be finite and non-negative, got {}", self.0.tolerance),
            ));
        }
        check_var_smoothing(self.0.var_smoothing)?;
        self.0.priors.check()?;
        check_n_classes(self.0.n_classes)?;
        Ok(&self.0)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}

/// How EM went for one class of a [`Balls2`] model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmReport {
    /// Number of EM iterations (M-steps) performed.
    pub iterations: usize,
    /// Whether the tolerance was met before the iteration cap.
    pub converged: bool,
    /// The tolerance on the gain in log-likelihood per unit of the class's weight
    /// ([`Balls2Params::tolerance`]); `None` in files written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    /// The class log-likelihood `Σ_{i: y_i = k} w_i log p(x_i | y = k)` at the initial
    /// parameters and after every iteration (`iterations + 1` entries, never decreasing up to
    /// round-off); the last entry belongs to the returned parameters.
    #[serde(with = "gendisc_core::model_file::non_finite::vec")]
    pub log_likelihood: Vec<f64>,
}

/// The fit report of a [`Balls2`] model: one [`EmReport`] per class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Balls2Report {
    /// Per-class EM reports, in class order.
    pub classes: Vec<EmReport>,
}

/// EM stops on the gain of its log-likelihood per unit of weight
/// ([`Criterion::LikelihoodGain`]) or at its iteration cap: [`Converged`](Status::Converged) or
/// [`MaxIterations`](Status::MaxIterations).
impl Convergence for EmReport {
    fn status(&self) -> Status {
        Status::met_or_capped(self.converged)
    }

    /// The class's run, valued at its negated log-likelihood (a NaN tolerance where the file
    /// predates its recording): one evaluation at the start and one per iteration, no gradient.
    fn solver_reports(&self) -> Vec<Report> {
        vec![Report {
            status: self.status(),
            criterion: Criterion::LikelihoodGain {
                tolerance: self.tolerance.unwrap_or(f64::NAN),
            },
            iterations: self.iterations,
            evaluations: self.log_likelihood.len(),
            value: self.log_likelihood.last().map_or(f64::NAN, |ll| -ll),
            gradient_norm: None,
        }]
    }
}

/// Converged when EM converged for every class; else the first unconverged class's status.
impl Convergence for Balls2Report {
    fn status(&self) -> Status {
        Status::of_parts(self.classes.iter().map(Convergence::status))
    }

    /// One run per class, in class order.
    fn solver_reports(&self) -> Vec<Report> {
        self.classes
            .iter()
            .flat_map(Convergence::solver_reports)
            .collect()
    }
}

/// A fitted Balls2 model: a mixture of two spherical Gaussians per class, fitted by EM on the
/// rows of each class (classes are independent in the joint likelihood, eq. (2)).
///
/// **Initialisation.** By default, the *principal split*, which depends on the rows only
/// through their values and weights — not on their order, and a row of weight `m` starts EM as
/// `m` copies of it do: on each class, the rows are projected onto the leading eigenvector `v`
/// of their weighted covariance (its largest entry made positive), and split at the weighted
/// median `τ` of the projections into `{vᵀx ≤ τ}` and `{vᵀx > τ}` (all rows of one value fall
/// on one side); the components start at the two sides' weighted means, with mixing weights
/// their shares of the class's weight. If every row projects to one value (the rows coincide),
/// both components start at that row with weight ½. Both start with the class's
/// spherical ML variance (floored).
///
/// With [`Balls2Params::seed`], k-means++ instead: a `ChaCha8Rng` seeded with `seed` draws the
/// first centre with probability `∝ w_i` and the second with probability `∝ w_i ‖x_i − c_1‖²`,
/// both components with weight ½. It depends on the order of the rows (a permutation can end
/// in another local maximum), which is what makes seeds useful as restarts.
///
/// **EM** for class `k` with rows `i` and weights `w_i`:
///
/// ```text
/// E:  r_im = ω_m N(x_i; μ_m, σ²_m I) / Σ_m' ω_m' N(x_i; μ_m', σ²_m' I)
/// M:  N_m = Σ_i w_i r_im,   ω_m = N_m / W_k,   μ_m = Σ_i w_i r_im x_i / N_m,
///     σ²_m = max(Σ_i w_i r_im ‖x_i − μ_m‖² / (d N_m), ε)
/// ```
///
/// until the log-likelihood gains at most `tolerance · W_k` or `max_iterations` is
/// reached; [`Balls2::report`] tells which. Reaching the cap is not an error unless
/// [`Balls2Params::require_convergence`] asks for it: the fit then returns the parameters of
/// the last iteration, which need not be a local maximum. A component that receives no
/// responsibility keeps its parameters with weight 0. Each class needs at least two rows of
/// positive weight.
///
/// The likelihood of a mixture is unbounded: a component can shrink onto a handful of rows,
/// and EM then climbs toward that spike until the variance floor stops it. Such a fit shows
/// as a small mixing weight with a variance near [`Balls2::variance_floor`]; a larger
/// `var_smoothing` (say `1e-3`) rules it out.
///
/// ```
/// use gendisc_core::{Classifier, Convergence, Fit};
/// use gendisc_generative::Balls2;
/// use ndarray::array;
///
/// // Class 0 has two clumps, class 1 sits between them.
/// let x = array![[-5.0, 0.0], [-5.2, 0.1], [-4.9, -0.2], [5.0, 0.1], [5.1, -0.1], [4.8, 0.0],
///                [0.0, 0.0], [0.2, 0.1], [-0.1, 0.2]];
/// let y = array![0, 0, 0, 0, 0, 0, 1, 1, 1];
/// let model = Balls2::params().seed(3).fit(x.view(), y.view()).unwrap();
/// assert!(model.report().is_converged());
/// assert_eq!(model.predict(x.view()).unwrap(), y);
/// ```
///
/// Data of extreme magnitude (beyond `2^±256`) is fitted in a power-of-two unit, as
/// [`Lda`](crate::Lda) is; the unit is serialised (`"unit"`, omitted when 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Balls2 {
    /// The unit of `means`, `variances` and `variance_floor`: the model is one of `x / unit`.
    #[serde(default, skip_serializing_if = "Unit::is_one")]
    unit: Unit,
    /// `ω_km`, `K × 2`.
    mixing: Array2<f64>,
    /// `μ_km`, `K × 2 × d`.
    means: Array3<f64>,
    /// `σ²_km`, `K × 2`.
    variances: Array2<f64>,
    log_prior: Array1<f64>,
    class_weight: Array1<f64>,
    variance_floor: f64,
    report: Balls2Report,
}

/// The parameters of one class's mixture during EM.
struct Mixture {
    mixing: [f64; COMPONENTS],
    means: Array2<f64>,
    variances: [f64; COMPONENTS],
}

impl Balls2 {
    /// The default hyper-parameters, to be adjusted and fitted.
    pub fn params() -> Balls2Params {
        Balls2Params::default()
    }

    /// Mixing weights `ω_km`, `K × 2`.
    pub fn mixing_weights(&self) -> ArrayView2<'_, f64> {
        self.mixing.view()
    }

    /// Component means `μ_km`, `K × 2 × d`, in the data's units.
    pub fn means(&self) -> CowArray<'_, f64, Ix3> {
        self.unit.restore(self.means.view(), 1)
    }

    /// Component variances `σ²_km`, `K × 2`, in the data's units (`∞` for data whose squares
    /// overflow, where the model still works in its own unit).
    pub fn variances(&self) -> CowArray<'_, f64, Ix2> {
        self.unit.restore(self.variances.view(), 2)
    }

    /// The absolute floor `ε` under which no variance was allowed to fall, in the data's units.
    pub fn variance_floor(&self) -> f64 {
        self.variance_floor * self.unit.value() * self.unit.value()
    }

    /// Class priors `p(y = k)`.
    pub fn class_prior(&self) -> Array1<f64> {
        self.log_prior.mapv(f64::exp)
    }

    /// Weighted class totals `W_k` seen in training.
    pub fn class_weight(&self) -> ArrayView1<'_, f64> {
        self.class_weight.view()
    }

    /// The EM report: iterations, convergence and log-likelihood trace per class.
    pub fn report(&self) -> &Balls2Report {
        &self.report
    }

    fn fit_impl(
        p: &Balls2ValidParams,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<Self> {
        let summary = check_training("Balls2", x, y, w, p.n_classes, &p.priors)?;
        let n_classes = summary.n_classes;
        let d = x.ncols();
        let rows = rows_per_class(y, w, n_classes);
        if let Some(k) = (0..n_classes).find(|&k| rows[k] < COMPONENTS) {
            return Err(Error::TooFewRows {
                what: format!("Balls2's two-component mixture of class {k}"),
                needed: COMPONENTS,
                found: rows[k],
            });
        }
        let unit = Unit::of(x);
        let x = unit.rescale(x);
        let x = x.view();
        let moments = DiagonalMoments::accumulate(x, y, w, n_classes);
        let floor = variance_floor(p.var_smoothing, moments.max_column_variance());

        let mut mixing = Array2::zeros((n_classes, COMPONENTS));
        let mut means = Array3::zeros((n_classes, COMPONENTS, d));
        let mut variances = Array2::zeros((n_classes, COMPONENTS));
        let mut reports = Vec::with_capacity(n_classes);
        for k in 0..n_classes {
            let members: Vec<usize> = (0..x.nrows())
                .filter(|&i| y[i] == k && w.is_none_or(|w| w[i] > 0.0))
                .collect();
            let weights: Vec<f64> = members.iter().map(|&i| w.map_or(1.0, |w| w[i])).collect();
            let spherical =
                (moments.sq_dev.row(k).sum() / (d as f64 * moments.weight[k])).max(floor);
            let init = match p.seed {
                None => principal_split(x, &members, &weights, spherical)?,
                Some(seed) => initial_mixture(x, &members, &weights, spherical, seed),
            };
            let (mix, report) = run_em(x, &members, &weights, init, floor, p);
            if p.require_convergence && !report.converged {
                return Err(not_converged(
                    k,
                    &report,
                    p.tolerance * weights.iter().sum::<f64>(),
                ));
            }
            mixing.row_mut(k).assign(&ndarray::aview1(&mix.mixing));
            means.index_axis_mut(Axis(0), k).assign(&mix.means);
            variances
                .row_mut(k)
                .assign(&ndarray::aview1(&mix.variances));
            reports.push(report);
        }
        Ok(Self {
            unit,
            mixing,
            means,
            variances,
            log_prior: p.priors.log_prior(&summary.class_weight)?,
            class_weight: Array1::from(summary.class_weight),
            variance_floor: floor,
            report: Balls2Report { classes: reports },
        })
    }

    /// `log p(x | y = k)` for one row.
    fn class_log_density(&self, row: ArrayView1<'_, f64>, k: usize) -> f64 {
        let terms: [f64; COMPONENTS] = std::array::from_fn(|m| {
            self.mixing[[k, m]].ln()
                + log_ball(
                    row,
                    self.means.index_axis(Axis(0), k).row(m),
                    self.variances[[k, m]],
                )
        });
        log_sum_exp(&terms)
    }
}

/// The principal split of a class's rows (see [`Balls2`]): order-free, and the same for a row
/// of weight `m` as for `m` copies of it.
fn principal_split(
    x: ArrayView2<'_, f64>,
    members: &[usize],
    weights: &[f64],
    spherical: f64,
) -> Result<Mixture> {
    let d = x.ncols();
    let total: f64 = weights.iter().sum();
    // Sums are taken about a reference row, chosen by value (the lexicographically smallest),
    // so that a column constant within the class has exactly its value as mean, not that value
    // rounded through a sum of many copies.
    let reference = members
        .iter()
        .map(|&i| x.row(i))
        .min_by(|a, b| {
            a.iter()
                .zip(b.iter())
                .map(|(u, v)| u.total_cmp(v))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .expect("a class has rows")
        .to_owned();
    // Row r is member r's row less the reference.
    let shifted = Array2::from_shape_fn((members.len(), d), |(r, j)| {
        x[[members[r], j]] - reference[j]
    });
    let mut offset = Array1::<f64>::zeros(d);
    for (row, &w) in shifted.outer_iter().zip(weights) {
        offset.scaled_add(w / total, &row);
    }
    let mut covariance = Array2::<f64>::zeros((d, d));
    let mut centred = Array1::<f64>::zeros(d);
    for (row, &w) in shifted.outer_iter().zip(weights) {
        centred.assign(&row);
        centred -= &offset;
        let share = w / total;
        for a in 0..d {
            for b in 0..d {
                covariance[[a, b]] += share * (centred[a] * centred[b]);
            }
        }
    }
    let eigen = gendisc_core::linalg::eigh(covariance.view())?;
    let mut axis = eigen.eigenvectors.column(d - 1).to_owned();
    // The sign of an eigenvector is arbitrary; fixing it fixes which side is component 0.
    let largest = axis
        .iter()
        .copied()
        .fold(0.0_f64, |m, v| if v.abs() > m.abs() { v } else { m });
    if largest < 0.0 {
        axis.mapv_inplace(|v| -v);
    }
    let projections: Vec<f64> = shifted.outer_iter().map(|row| row.dot(&axis)).collect();
    let mut projected: Vec<(f64, f64)> = projections
        .iter()
        .copied()
        .zip(weights.iter().copied())
        .collect();
    projected.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut cumulative = 0.0;
    let median = projected
        .iter()
        .find(|(_, w)| {
            cumulative += w;
            cumulative >= 0.5 * total
        })
        .map_or(projected[projected.len() - 1].0, |p| p.0);
    let mut means = Array2::zeros((COMPONENTS, d));
    let mut side_weight = [0.0; COMPONENTS];
    for ((row, &w), &projection) in shifted.outer_iter().zip(weights).zip(&projections) {
        let side = usize::from(projection > median);
        side_weight[side] += w;
        means.row_mut(side).scaled_add(w, &row);
    }
    if side_weight[1] == 0.0 {
        // Every row projects to one value along the direction of largest spread: the rows
        // coincide, and any of them is exactly their mean (which the weighted sum would only
        // round to).
        means.row_mut(0).assign(&reference);
        means.row_mut(1).assign(&reference);
        side_weight = [0.5 * total; COMPONENTS];
    } else {
        for m in 0..COMPONENTS {
            let mut mean = means.row_mut(m);
            mean.mapv_inplace(|v| v / side_weight[m]);
            mean += &reference;
        }
    }
    Ok(Mixture {
        mixing: side_weight.map(|w| w / total),
        means,
        variances: [spherical; COMPONENTS],
    })
}

/// k-means++ seeding of a class's two centres (see [`Balls2`]).
fn initial_mixture(
    x: ArrayView2<'_, f64>,
    members: &[usize],
    weights: &[f64],
    spherical: f64,
    seed: u64,
) -> Mixture {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let first = draw_by_weight(weights.iter().copied(), &mut rng);
    let c1 = x.row(members[first]);
    let second = draw_by_weight(
        members.iter().zip(weights).map(|(&i, &wi)| {
            let sq: f64 = x
                .row(i)
                .iter()
                .zip(c1.iter())
                .map(|(a, b)| (a - b) * (a - b))
                .sum();
            wi * sq
        }),
        &mut rng,
    );
    let mut means = Array2::zeros((COMPONENTS, x.ncols()));
    means.row_mut(0).assign(&c1);
    means.row_mut(1).assign(&x.row(members[second]));
    Mixture {
        mixing: [0.5; COMPONENTS],
        means,
        variances: [spherical; COMPONENTS],
    }
}

/// Index drawn with probability proportional to the (non-negative) scores, by inverse CDF in
/// order; all-zero scores give index 0.
fn draw_by_weight<R: Rng>(scores: impl Iterator<Item = f64> + Clone, rng: &mut R) -> usize {
    let total: f64 = scores.clone().sum();
    let u = rng.random::<f64>() * total;
    let mut cumulative = 0.0;
    let mut last = 0;
    for (i, s) in scores.enumerate() {
        cumulative += s;
        if s > 0.0 {
            last = i;
            if cumulative > u {
                return i;
            }
        }
    }
    last
}

/// E-step: responsibilities `r_im` into `resp` (`n_k × 2`) and the weighted log-likelihood.
fn e_step(
    x: ArrayView2<'_, f64>,
    members: &[usize],
    weights: &[f64],
    mix: &Mixture,
    resp: &mut Array2<f64>,
) -> f64 {
    let log_mixing = mix.mixing.map(f64::ln);
    let mut total = 0.0;
    for ((&i, &wi), mut r) in members.iter().zip(weights).zip(resp.axis_iter_mut(Axis(0))) {
        let row = x.row(i);
        let terms: [f64; COMPONENTS] = std::array::from_fn(|m| {
            log_mixing[m] + log_ball(row, mix.means.row(m), mix.variances[m])
        });
        let norm = log_sum_exp(&terms);
        for (rm, t) in r.iter_mut().zip(terms) {
            *rm = (t - norm).exp();
        }
        total += wi * norm;
    }
    total
}

/// M-step: the constrained maximiser of the expected complete log-likelihood, in place.
fn m_step(
    x: ArrayView2<'_, f64>,
    members: &[usize],
    weights: &[f64],
    resp: &Array2<f64>,
    floor: f64,
    mix: &mut Mixture,
) {
    let d = x.ncols() as f64;
    let class_weight: f64 = weights.iter().sum();
    for m in 0..COMPONENTS {
        let mass: f64 = weights.iter().zip(resp.column(m)).map(|(w, r)| w * r).sum();
        if mass <= 0.0 {
            // No responsibility: any mean and variance maximise; keep them, weight 0.
            mix.mixing[m] = 0.0;
            continue;
        }
        let mut mean = mix.means.row_mut(m);
        mean.fill(0.0);
        for ((&i, &wi), &r) in members.iter().zip(weights).zip(resp.column(m)) {
            mean.scaled_add(wi * r / mass, &x.row(i));
        }
        let sq: f64 = members
            .iter()
            .zip(weights)
            .zip(resp.column(m))
            .map(|((&i, &wi), &r)| {
                let dist: f64 = x
                    .row(i)
                    .iter()
                    .zip(mean.iter())
                    .map(|(a, b)| (a - b) * (a - b))
                    .sum();
                wi * r * dist
            })
            .sum();
        mix.mixing[m] = mass / class_weight;
        mix.variances[m] = (sq / (d * mass)).max(floor);
    }
}

fn run_em(
    x: ArrayView2<'_, f64>,
    members: &[usize],
    weights: &[f64],
    mut mix: Mixture,
    floor: f64,
    p: &Balls2ValidParams,
) -> (Mixture, EmReport) {
    let mut resp = Array2::zeros((members.len(), COMPONENTS));
    let mut ll = e_step(x, members, weights, &mix, &mut resp);
    let mut trace = vec![ll];
    let mut converged = false;
    let mut iterations = 0;
    // Per unit of weight: a rescaling of x shifts ℓ by a constant and a rescaling of the
    // weights multiplies it, and neither should change where EM stops.
    let threshold = p.tolerance * weights.iter().sum::<f64>();
    while iterations < p.max_iterations {
        m_step(x, members, weights, &resp, floor, &mut mix);
        let next = e_step(x, members, weights, &mix, &mut resp);
        iterations += 1;
        trace.push(next);
        let gain = next - ll;
        ll = next;
        if gain <= threshold {
            converged = true;
            break;
        }
    }
    (
        mix,
        EmReport {
            iterations,
            converged,
            tolerance: Some(p.tolerance),
            log_likelihood: trace,
        },
    )
}

/// The error of a class whose EM stopped at the iteration cap, with its last gain.
fn not_converged(class: usize, report: &EmReport, threshold: f64) -> Error {
    let trace = &report.log_likelihood;
    let detail = match trace.as_slice() {
        [.., before, last] => format!(
            "the log-likelihood {last:e} still rose by {:e}, above tolerance · (the class's \
             weight) = {threshold:e}; raise `max_iterations` or `tolerance`",
            last - before
        ),
        _ => "no iteration recorded".to_string(),
    };
    Error::NotConverged {
        what: format!("Balls2's EM on class {class}"),
        iterations: report.iterations,
        detail,
    }
}

crate::common::impl_fit!(Balls2ValidParams => Balls2, fit_impl);

crate::common::impl_generative_classifier!(Balls2, |model| model.means.dim().2, |model| model
    .means
    .dim()
    .0);

impl Generative for Balls2 {
    fn log_prior(&self) -> Array1<f64> {
        self.log_prior.clone()
    }

    fn class_log_likelihood(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        check_prediction(x, self.n_features())?;
        let x = self.unit.rescale(x);
        let mut out = Array2::zeros((x.nrows(), self.n_classes()));
        for (row, mut out_row) in x.axis_iter(Axis(0)).zip(out.axis_iter_mut(Axis(0))) {
            for (k, o) in out_row.iter_mut().enumerate() {
                *o = self.class_log_density(row, k);
            }
        }
        Ok(self.unit.density_of_data(out, self.n_features()))
    }
}

impl SavedModel for Balls2 {
    const KIND: &'static str = "balls2";

    /// The unit is a power of two; `means` is a finite `K × 2 × d` array; `variances` holds
    /// `K × 2` variances, none below the positive `variance_floor`; each class's row of
    /// `mixing` is a distribution over its two components; the class priors and weights are
    /// those of `K` classes; and the `report` has one entry per class, each with a
    /// log-likelihood before the first iteration and after every one.
    fn check_invariants(&self) -> Result<()> {
        let kind = Self::KIND;
        self.unit.check(kind)?;
        let (n_classes, _, d) = self.means.dim();
        check_size(kind, "means", n_classes, d)?;
        shape(kind, "means", &self.means, &[n_classes, COMPONENTS, d])?;
        finite(kind, "means", &self.means)?;
        shape(kind, "variances", &self.variances, &[n_classes, COMPONENTS])?;
        check_floored_variances(kind, &self.variances, self.variance_floor)?;
        shape(kind, "mixing", &self.mixing, &[n_classes, COMPONENTS])?;
        for (k, weights) in self.mixing.outer_iter().enumerate() {
            let class = |e| locate(e, format!("class {k}"));
            if let Some(w) = weights.iter().find(|w| !(w.is_finite() && **w >= 0.0)) {
                return Err(class(invalid(
                    kind,
                    "mixing",
                    format!("weight {w}; mixing weights are finite and non-negative"),
                )));
            }
            let log_weights = weights.mapv(f64::ln);
            log_distribution(kind, "mixing", &log_weights).map_err(class)?;
        }
        check_classes(kind, n_classes, &self.log_prior, &self.class_weight)?;
        let reports = &self.report.classes;
        if reports.len() != n_classes {
            return Err(invalid(
                kind,
                "report",
                format!("{} class reports for {n_classes} classes", reports.len()),
            ));
        }
        for (k, report) in reports.iter().enumerate() {
            if report.iterations == 0 || report.log_likelihood.len() != report.iterations + 1 {
                return Err(invalid(
                    kind,
                    "report",
                    format!(
                        "class {k}: {} iterations with {} log-likelihoods; EM performs at least \
                         one iteration and records one more log-likelihood than iterations",
                        report.iterations,
                        report.log_likelihood.len()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Whether EM converged for every class, and the most iterations any class took.
    fn fit_summary(&self) -> Option<FitSummary> {
        let classes = &self.report.classes;
        let iterations: Vec<String> = classes.iter().map(|c| c.iterations.to_string()).collect();
        let capped: Vec<String> = classes
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.converged)
            .map(|(k, _)| k.to_string())
            .collect();
        let converged = capped.is_empty();
        let outcome = if converged {
            "EM converged for every class".to_string()
        } else {
            format!(
                "EM stopped at the iteration cap for class(es) {}",
                capped.join(", ")
            )
        };
        Some(FitSummary {
            converged,
            iterations: classes.iter().map(|c| c.iterations).max().unwrap_or(0),
            status: format!("{outcome}; iterations per class: {}", iterations.join(", ")),
            warnings: Vec::new(),
        })
    }
}

gendisc_core::impl_conditional_model_by_bayes!(Balls2);

impl SampleJoint for Balls2 {
    /// `y ~ p(y)`, a component `m ~ ω_y·`, then `x = μ_ym + σ_ym z`, `z ~ N(0, I)`.
    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> (Array2<f64>, Array1<usize>) {
        let classes = Categorical::from_log_weights(self.log_prior.view());
        let components: Vec<Categorical> = self
            .mixing
            .axis_iter(Axis(0))
            .map(|w| Categorical::from_log_weights(w.mapv(f64::ln).view()))
            .collect();
        let mut x = Array2::zeros((n, self.n_features()));
        let mut y = Array1::zeros(n);
        for (mut row, yi) in x.axis_iter_mut(Axis(0)).zip(y.iter_mut()) {
            let k = classes.draw(rng);
            *yi = k;
            let m = components[k].draw(rng);
            let sd = self.variances[[k, m]].sqrt();
            for (xj, &mu) in row.iter_mut().zip(self.means.index_axis(Axis(0), k).row(m)) {
                *xj = mu + sd * rng.sample::<f64, _>(StandardNormal);
            }
        }
        (self.unit.restore(x.view(), 1).into_owned(), y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use gendisc_core::ConditionalModel;
    use gendisc_core::Fit;
    use ndarray::array;

    #[test]
    fn balls1_by_hand() {
        let x = array![
            [0.0, 0.0],
            [2.0, 0.0],
            [1.0, 3.0],
            [10.0, 10.0],
            [12.0, 10.0]
        ];
        let y = array![0, 0, 0, 1, 1];
        let m = Balls1::params().fit(x.view(), y.view()).unwrap();
        // Class 0: mean (1, 1); squared distances 2, 2, 4 → σ² = 8 / (2 · 3).
        assert_relative_eq!(m.variances()[0], 8.0 / 6.0, max_relative = 1e-14);
        assert_relative_eq!(m.variances()[1], 2.0 / 4.0, max_relative = 1e-14);
        let ll = m.class_log_likelihood(array![[1.0, 2.0]].view()).unwrap();
        let v: f64 = 8.0 / 6.0;
        assert_relative_eq!(
            ll[[0, 0]],
            -(2.0 * std::f64::consts::PI * v).ln() - 1.0 / (2.0 * v),
            max_relative = 1e-14
        );
    }

    #[test]
    fn balls1_floor_for_coincident_rows() {
        let x = array![[1.0, 1.0], [1.0, 1.0], [3.0, 2.0], [4.0, 0.0]];
        let m = Balls1::params()
            .fit(x.view(), array![0, 0, 1, 1].view())
            .unwrap();
        assert_eq!(m.variances()[0], m.variance_floor());
        assert!(m
            .predict_proba(array![[1.0, 1.0], [2.0, 1.0]].view())
            .is_ok());
    }

    #[test]
    fn balls2_separates_two_clumps() {
        let x = array![
            [-5.0, 0.0],
            [-5.2, 0.1],
            [-4.9, -0.2],
            [5.0, 0.1],
            [5.1, -0.1],
            [4.8, 0.0],
            [0.0, 0.0],
            [0.3, 0.1]
        ];
        let y = array![0, 0, 0, 0, 0, 0, 1, 1];
        let m = Balls2::params().fit(x.view(), y.view()).unwrap();
        let r = &m.report().classes[0];
        assert!(r.converged);
        assert_eq!(r.log_likelihood.len(), r.iterations + 1);
        // The two components sit at the two clumps, one each, with weight ½.
        let centres = m.means();
        let xs = [centres[[0, 0, 0]], centres[[0, 1, 0]]];
        assert!(xs.iter().any(|&c| (c + 5.03).abs() < 0.01), "{xs:?}");
        assert!(xs.iter().any(|&c| (c - 4.97).abs() < 0.01), "{xs:?}");
        assert_relative_eq!(m.mixing_weights()[[0, 0]], 0.5, max_relative = 1e-6);
        // Balls1 on the same data puts class 0's single ball between the clumps, on class 1.
        let b1 = Balls1::params().fit(x.view(), y.view()).unwrap();
        assert!(
            m.joint_log_likelihood(x.view(), y.view(), None).unwrap()
                > b1.joint_log_likelihood(x.view(), y.view(), None).unwrap()
        );
    }

    #[test]
    fn balls2_needs_two_rows_per_class() {
        let x = array![[0.0], [1.0], [5.0]];
        let err = Balls2::params()
            .fit(x.view(), array![0, 0, 1].view())
            .unwrap_err();
        assert!(
            matches!(
                err,
                Error::TooFewRows {
                    needed: 2,
                    found: 1,
                    ..
                }
            ),
            "{err}"
        );
        // Coincident rows are allowed: the floor bounds the likelihood.
        let x = array![[1.0], [1.0], [5.0], [6.0]];
        let m = Balls2::params()
            .fit(x.view(), array![0, 0, 1, 1].view())
            .unwrap();
        assert!(m.variances().iter().all(|&v| v >= m.variance_floor()));
        assert!(m
            .predict_proba(x.view())
            .unwrap()
            .iter()
            .all(|p| p.is_finite()));
    }

    #[test]
    fn balls2_stops_at_the_cap_unless_convergence_is_required() {
        let x = array![
            [-5.0, 0.0],
            [-5.2, 0.1],
            [-4.9, -0.2],
            [5.0, 0.1],
            [5.1, -0.1],
            [4.8, 0.0],
            [0.0, 0.0],
            [0.3, 0.1]
        ];
        let y = array![0, 0, 0, 0, 0, 0, 1, 1];
        let capped = Balls2::params().max_iterations(1).tolerance(0.0);
        let m = capped.clone().fit(x.view(), y.view()).unwrap();
        assert!(!m.report().is_converged());
        let summary = m.fit_summary().unwrap();
        assert!(!summary.converged && summary.iterations == 1, "{summary:?}");
        assert!(summary.status.contains("iteration cap"), "{summary:?}");
        let err = capped
            .require_convergence(true)
            .fit(x.view(), y.view())
            .unwrap_err();
        assert!(
            matches!(err, Error::NotConverged { iterations: 1, ref what, .. } if what.contains("class")),
            "{err}"
        );
        // A fit that converges is unaffected by the requirement.
        let m = Balls2::params()
            .require_convergence(true)
            .fit(x.view(), y.view())
            .unwrap();
        assert!(m.report().is_converged() && m.fit_summary().unwrap().converged);
    }

    #[test]
    fn balls2_params_are_validated() {
        let x = array![[0.0], [1.0], [5.0], [6.0]];
        let y = array![0, 0, 1, 1];
        assert!(Balls2::params()
            .max_iterations(0)
            .fit(x.view(), y.view())
            .is_err());
        assert!(Balls2::params()
            .tolerance(-1.0)
            .fit(x.view(), y.view())
            .is_err());
        assert!(Balls2::params()
            .var_smoothing(0.0)
            .fit(x.view(), y.view())
            .is_err());
        let capped = Balls2::params()
            .max_iterations(1)
            .tolerance(0.0)
            .fit(x.view(), y.view())
            .unwrap();
        assert_eq!(capped.report().classes[0].iterations, 1);
    }
}
