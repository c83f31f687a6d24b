//! The parametric generative families of the GDT estimator and their unconstrained
//! parametrisation (Bouchard & Triggs 2004, §5).
//!
//! Every family is a joint density `p_θ(x, y = k) = π_k f_k(x; θ_k)` written as a function of
//! one unconstrained vector `θ ∈ ℝᵖ`, so that the optimiser needs no positivity or simplex
//! constraint:
//!
//! * **priors** — `π = softmax(0, a_1, …, a_{K−1})`: `K − 1` logits against class 0, when
//!   they are [`Priors::Estimated`] (the default of every family but
//!   [`Family::SharedDiagonal`]); none when they are [`Priors::Fixed`] at `1/K` (the default of
//!   the shared diagonal, as in the paper's simulations, §4);
//! * **means** — `μ_k ∈ ℝᵈ` as they are;
//! * **precisions** — each inverse covariance `Λ = Σ⁻¹ = L Lᵀ` by its lower Cholesky factor
//!   `L`, whose diagonal is stored as logarithms `ℓ_a = log L_aa` (the paper's "Cholesky-based
//!   parametrisation of the inverse covariance matrix"). A spherical precision `e^{2ℓ} I` and
//!   a diagonal one `diag(e^{2ℓ_j})` are the one- and diagonal-entry cases.
//!
//! | family | `f_k(x)` | blocks of `θ`, in order |
//! |---|---|---|
//! | [`Family::Lda`] | `N(x; μ_k, (L Lᵀ)⁻¹)` | `a` (K−1), `μ` (K·d), `L` (d(d+1)/2) |
//! | [`Family::Qda`] | `N(x; μ_k, (L_k L_kᵀ)⁻¹)` | `a` (K−1), `μ` (K·d), `L_k` (K·d(d+1)/2) |
//! | [`Family::Balls1`] | `N(x; μ_k, e^{−2ℓ_k} I)` | `a` (K−1), `μ` (K·d), `ℓ` (K) |
//! | [`Family::Balls2`] | `Σ_m ω_km N(x; μ_km, e^{−2ℓ_km} I)`, `ω_k = softmax(0, c_k)` | `a` (K−1), then per class `c_k`, `μ_k1`, `μ_k2`, `ℓ_k1`, `ℓ_k2` (2d + 3) |
//! | [`Family::SharedDiagonal`] | `N(x; μ_k, diag(e^{−2ℓ_j}))` | `a` (K−1, only with [`Priors::Estimated`]), `μ` (K·d), `ℓ` (d) |
//!
//! The `a` block is present exactly when the priors are [`Priors::Estimated`]
//! ([`Parametrisation::with_priors`]); with [`Priors::Fixed`] every layout starts at `μ`.
//!
//! ## The Balls2 variance floor
//!
//! A Balls2 component can collapse onto a few rows: its variance goes to 0 and the joint
//! likelihood to infinity, and at small `λ` the conditional likelihood keeps rising as the
//! component sharpens, so that `L_λ` has no finite maximiser and the optimiser runs to its
//! iteration cap. [`Parametrisation::with_variance_floor`] bounds every component's variance
//! from below by an absolute floor `v₀ > 0` through the reparametrisation
//!
//! ```text
//! σ²_km = v₀ + e^{−2ℓ_km}        (v₀ = 0: σ²_km = e^{−2ℓ_km}, the layout above)
//! ```
//!
//! It keeps `θ` unconstrained and `L_λ` infinitely differentiable, so conjugate gradient and
//! Newton's method apply unchanged, and `L_λ` stays the paper's objective (eq. 5–6) over the
//! family restricted to `σ² > v₀` (a penalty would change the objective and only discourage
//! small variances). A component that would rather be narrower than the floor goes to `ℓ → ∞`,
//! where `σ² → v₀` and its `ℓ`-derivatives vanish like `e^{−2ℓ}`, so the fit stops by its
//! gradient tolerance. With `φ = e^{−2ℓ} / σ²` (1 without a floor) the `ℓ`-derivative of
//! `log N(x; μ, σ² I)` is `φ (d − ‖x − μ‖² / σ²)`.
//!
//! A Cholesky factor is stored row by row over its lower triangle: `L_00, L_10, L_11, L_20, …`,
//! with the diagonal entries as `ℓ_a`.
//!
//! ## The weighted gradient
//!
//! The GDT gradient (eq. 8) is `Σ_i Σ_k W_ik ∇_θ log p_θ(x_i, k)` for a weight matrix `W`
//! ([`Parametrisation::weighted_gradient`]). With, for class `k` and weights `w_i = W_ik`,
//! `r_k = Σ_i w_i (x_i − μ_k)` and `M_k = Σ_i w_i (x_i − μ_k)(x_i − μ_k)ᵀ`:
//!
//! ```text
//! ∂/∂μ_k  = Λ_k r_k = L_k L_kᵀ r_k
//! ∂/∂L_ab = −(M_k L_k)_ab                       (a > b)
//! ∂/∂ℓ_a  = Σ_i w_i − (M_k L_k)_aa L_aa         (diagonal, through L_aa = e^{ℓ_a})
//! ∂/∂a_j  = Σ_i W_ij − π_j Σ_i Σ_k W_ik          (prior logits)
//! ```
//!
//! LDA sums the `L` terms over classes (one shared factor). Balls2 splits each class weight
//! over its two components by the responsibilities `ρ_im` and adds
//! `∂/∂c_k = Σ_i w_i (ρ_i2 − ω_k2)`; its `ℓ`-derivatives carry the factor `φ` of the variance
//! floor.
//!
//! ## The Hessian
//!
//! `∇²L_λ = Σ_i [Σ_k W_ik ∇² log p_θ(x_i, k) − s_i (1 − λ) Cov_τ_i(∇ log p_θ(x_i, ·))]`, block by
//! block; the formulas are in the source of the `hessian` submodule and in the estimator's page
//! of the documentation (`docs/bouchard-triggs.md`), and [`crate::objective_hessian`] exposes it.

mod hessian;

use std::fmt;
use std::str::FromStr;

use ndarray::{s, Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut1, Axis};
use serde::{Deserialize, Serialize};

use gendisc_core::numerics::log_sum_exp;
use gendisc_core::{Error, Result};

/// `ln(2π)`.
const LN_2PI: f64 = 1.837_877_066_409_345_5;

/// Which generative family the GDT estimator fits (Bouchard & Triggs 2004, §4 and §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// Gaussian classes with one shared full covariance (§5, density 1).
    Lda,
    /// Gaussian classes with a full covariance each (§5, density 2).
    Qda,
    /// Gaussian classes with a spherical covariance each, "Balls1" (§5, density 3).
    Balls1,
    /// A mixture of two spherical Gaussians per class, "Balls2" (§5, density 4).
    Balls2,
    /// Gaussian classes with one shared diagonal covariance and, by default, fixed equal priors
    /// `1/K`: the assumed model of the simulations (§4). [`Priors::Estimated`] frees the priors.
    SharedDiagonal,
}

impl Family {
    /// The four families of the paper's Table 1, in its order.
    pub const TABLE1: [Self; 4] = [Self::Lda, Self::Qda, Self::Balls1, Self::Balls2];

    /// The name used in tables and on the command line: `LDA`, `QDA`, `Balls1`, `Balls2`,
    /// `shared-diagonal`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Lda => "LDA",
            Self::Qda => "QDA",
            Self::Balls1 => "Balls1",
            Self::Balls2 => "Balls2",
            Self::SharedDiagonal => "shared-diagonal",
        }
    }

    /// Whether the class priors are free parameters under the family's default
    /// [`Priors`] setting (every family but [`Family::SharedDiagonal`]); see
    /// [`Family::default_priors`].
    pub fn has_free_priors(self) -> bool {
        self.default_priors() == Priors::Estimated
    }

    /// The [`Priors`] setting a family has unless told otherwise: [`Priors::Fixed`] for
    /// [`Family::SharedDiagonal`] (the paper's simulation model, §4, "prior probabilities
    /// equal to 1/K"), [`Priors::Estimated`] for the others (§5).
    pub fn default_priors(self) -> Priors {
        match self {
            Self::SharedDiagonal => Priors::Fixed,
            Self::Lda | Self::Qda | Self::Balls1 | Self::Balls2 => Priors::Estimated,
        }
    }
}

/// How the class priors `π_k = p(y = k)` of a family are treated.
///
/// With [`Priors::Estimated`] they are parameters: `π = softmax(0, a_1, …, a_{K−1})`, `K − 1`
/// logits in `θ` maximised with the rest of `L_λ` (eq. 5–7), whose gradient in them is the
/// second line of eq. (8); at `λ = 1` they are the (weighted) class frequencies. With
/// [`Priors::Fixed`] they are `1/K` and not in `θ`.
///
/// The paper's simulation model (§4) fixes them at `1/K`. In its second simulation (correlated
/// uniform covariates, `y | x` logistic in `x⁽¹⁾`) `P(y = 1) ≈ 0.75`, so fixed priors misspecify
/// the generative end in its intercept, not only in its variances; [`Priors::Estimated`] for
/// [`Family::SharedDiagonal`] separates the two misspecifications. Every family accepts both
/// settings; [`Family::default_priors`] gives the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Priors {
    /// `π_k = 1/K` for every class, not fitted.
    Fixed,
    /// `π = softmax(0, a)`, the `K − 1` logits `a` fitted with the other parameters.
    Estimated,
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Family {
    type Err = Error;

    /// Parses a family name, case-insensitively.
    fn from_str(s: &str) -> Result<Self> {
        [
            Self::Lda,
            Self::Qda,
            Self::Balls1,
            Self::Balls2,
            Self::SharedDiagonal,
        ]
        .into_iter()
        .find(|f| f.name().eq_ignore_ascii_case(s))
        .ok_or_else(|| {
            Error::invalid_parameter(
                "family",
                format!(
                    "unknown family {s:?}; expected LDA, QDA, Balls1, Balls2 or shared-diagonal"
                ),
            )
        })
    }
}

/// The layout of `θ` for one family, number of classes, number of features and [`Priors`]
/// setting, with the log-density and the weighted gradient of
/// [the module documentation](self).
///
/// Deserialisation re-validates the layout; a serialised layout without a `priors` field gets
/// its family's [`Family::default_priors`], one without a `variance_floor` no floor.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ParametrisationParts")]
pub struct Parametrisation {
    family: Family,
    n_classes: usize,
    n_features: usize,
    priors: Priors,
    /// The absolute Balls2 variance floor `v₀` (0: none); finite and `≥ 0`.
    variance_floor: f64,
}

// `variance_floor` is never NaN (it is validated), so `==` is an equivalence.
impl Eq for Parametrisation {}

/// The serialised form of [`Parametrisation`], validated into one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ParametrisationParts {
    family: Family,
    n_classes: usize,
    n_features: usize,
    #[serde(default)]
    priors: Option<Priors>,
    #[serde(default)]
    variance_floor: f64,
}

impl TryFrom<ParametrisationParts> for Parametrisation {
    type Error = Error;

    fn try_from(p: ParametrisationParts) -> Result<Self> {
        let layout = Self::new(p.family, p.n_classes, p.n_features)?;
        let layout = match p.priors {
            Some(priors) => layout.with_priors(priors),
            None => layout,
        };
        layout.with_variance_floor(p.variance_floor)
    }
}

/// Number of mixture components per class of [`Family::Balls2`].
const COMPONENTS: usize = 2;

/// The parameters of one Gaussian component decoded from `θ`: mean and precision factor.
enum Precision {
    /// `Λ = L Lᵀ`, `L` lower triangular with a positive diagonal; `log_det_half = Σ_a ℓ_a`.
    Full { l: Array2<f64>, log_det_half: f64 },
    /// `Λ = e^{2ℓ} I`.
    Spherical { log_scale: f64 },
    /// `Λ = diag(e^{2ℓ_j})`.
    Diagonal { log_scale: Array1<f64> },
}

impl Parametrisation {
    /// The layout for `family` with `n_classes ≥ 2` classes and `n_features ≥ 1` features, and
    /// the family's [default priors](Family::default_priors).
    pub fn new(family: Family, n_classes: usize, n_features: usize) -> Result<Self> {
        if n_classes < 2 {
            return Err(Error::invalid_parameter(
                "n_classes",
                format!("a classifier needs at least 2 classes, got {n_classes}"),
            ));
        }
        if n_features == 0 {
            return Err(Error::Empty {
                what: "x (no columns)".into(),
            });
        }
        Ok(Self {
            family,
            n_classes,
            n_features,
            priors: family.default_priors(),
            variance_floor: 0.0,
        })
    }

    /// The same layout with the class priors [`Priors::Fixed`] at `1/K` or
    /// [`Priors::Estimated`] (the `K − 1` prior logits first in `θ`).
    pub fn with_priors(self, priors: Priors) -> Self {
        Self { priors, ..self }
    }

    /// How the class priors are treated.
    pub fn priors(&self) -> Priors {
        self.priors
    }

    /// The same layout with every Balls2 component variance bounded below by the absolute
    /// floor `v₀ = floor`: `σ²_km = v₀ + e^{−2ℓ_km}` ([the module documentation](self)). `0`
    /// (the default) is no floor. Fails with [`Error::InvalidParameter`] on a negative or
    /// non-finite floor, and on a positive one for a family other than [`Family::Balls2`].
    pub fn with_variance_floor(self, floor: f64) -> Result<Self> {
        check_variance_floor(self.family, floor)?;
        Ok(Self {
            variance_floor: floor,
            ..self
        })
    }

    /// The absolute Balls2 variance floor `v₀` (0: none).
    pub fn variance_floor(&self) -> f64 {
        self.variance_floor
    }

    /// The family.
    pub fn family(&self) -> Family {
        self.family
    }

    /// The number of classes `K`.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }

    /// The number of features `d`.
    pub fn n_features(&self) -> usize {
        self.n_features
    }

    /// `d(d + 1)/2`, the free entries of a Cholesky factor.
    fn tri(&self) -> usize {
        self.n_features * (self.n_features + 1) / 2
    }

    /// Length of the prior-logit block.
    fn prior_len(&self) -> usize {
        if self.priors == Priors::Estimated {
            self.n_classes - 1
        } else {
            0
        }
    }

    /// Length of one Balls2 class block: `c_k`, two means, two log-scales.
    fn balls2_block(&self) -> usize {
        1 + COMPONENTS * self.n_features + COMPONENTS
    }

    /// The number of parameters `p`.
    pub fn dim(&self) -> usize {
        let (k, d) = (self.n_classes, self.n_features);
        self.prior_len()
            + match self.family {
                Family::Lda => k * d + self.tri(),
                Family::Qda => k * d + k * self.tri(),
                Family::Balls1 => k * d + k,
                Family::Balls2 => k * self.balls2_block(),
                Family::SharedDiagonal => k * d + d,
            }
    }

    fn check_theta(&self, theta: ArrayView1<'_, f64>) -> Result<()> {
        if theta.len() != self.dim() {
            return Err(Error::shape_mismatch(
                "length of θ vs parameters of the family",
                self.dim(),
                theta.len(),
            ));
        }
        gendisc_core::validate::check_finite_vector(theta, "θ")
    }

    /// `log π_k` (length `K`).
    pub fn log_prior(&self, theta: ArrayView1<'_, f64>) -> Array1<f64> {
        let k = self.n_classes;
        if self.priors == Priors::Fixed {
            return Array1::from_elem(k, -(k as f64).ln());
        }
        let mut logits = Array1::zeros(k);
        logits.slice_mut(s![1..]).assign(&theta.slice(s![..k - 1]));
        let norm = log_sum_exp(logits.as_slice().expect("contiguous"));
        logits.mapv_into(|a| a - norm)
    }

    /// Encodes class priors `π` (positive, length `K`) as logits against class 0; nothing
    /// when the priors are fixed.
    fn encode_prior(&self, prior: ArrayView1<'_, f64>, theta: &mut [f64]) {
        if self.priors == Priors::Estimated {
            let l0 = prior[0].ln();
            for j in 1..self.n_classes {
                theta[j - 1] = prior[j].ln() - l0;
            }
        }
    }

    /// Offset of the mean block (all families but Balls2).
    fn means_offset(&self) -> usize {
        self.prior_len()
    }

    /// Offset of the precision block (all families but Balls2).
    fn precision_offset(&self) -> usize {
        self.prior_len() + self.n_classes * self.n_features
    }

    /// The index ranges in `θ` of the full precisions' Cholesky factors, in order: one for
    /// LDA, one per class for QDA, none for the other families. Within a range the entries
    /// run row by row over the lower triangle, the diagonal ones as `ℓ_a`.
    pub(crate) fn cholesky_blocks(&self) -> impl Iterator<Item = std::ops::Range<usize>> {
        let count = match self.family {
            Family::Lda => 1,
            Family::Qda => self.n_classes,
            _ => 0,
        };
        let (start, len) = (self.precision_offset(), self.tri());
        (0..count).map(move |p| start + p * len..start + (p + 1) * len)
    }

    /// Decodes a lower Cholesky factor from its `d(d+1)/2` stored entries.
    fn decode_factor(&self, block: ArrayView1<'_, f64>) -> Precision {
        let d = self.n_features;
        let mut l = Array2::zeros((d, d));
        let mut log_det_half = 0.0;
        let mut idx = 0;
        for a in 0..d {
            for b in 0..=a {
                if a == b {
                    l[[a, a]] = block[idx].exp();
                    log_det_half += block[idx];
                } else {
                    l[[a, b]] = block[idx];
                }
                idx += 1;
            }
        }
        Precision::Full { l, log_det_half }
    }

    /// The precision of each class (Gaussian families and Balls1; one per class, shared ones
    /// repeated by reference through the index).
    fn decode_precisions(&self, theta: ArrayView1<'_, f64>) -> Vec<Precision> {
        let (k, d, off) = (self.n_classes, self.n_features, self.precision_offset());
        match self.family {
            Family::Lda => vec![self.decode_factor(theta.slice(s![off..off + self.tri()]))],
            Family::Qda => (0..k)
                .map(|c| {
                    let start = off + c * self.tri();
                    self.decode_factor(theta.slice(s![start..start + self.tri()]))
                })
                .collect(),
            Family::Balls1 => (0..k)
                .map(|c| Precision::Spherical {
                    log_scale: theta[off + c],
                })
                .collect(),
            Family::SharedDiagonal => vec![Precision::Diagonal {
                log_scale: theta.slice(s![off..off + d]).to_owned(),
            }],
            Family::Balls2 => unreachable!("Balls2 has no single precision per class"),
        }
    }

    /// Index into the decoded precisions for class `k`.
    fn precision_index(&self, k: usize) -> usize {
        match self.family {
            Family::Lda | Family::SharedDiagonal => 0,
            _ => k,
        }
    }

    /// `log f_k(x_i)` for every row and class, written into `out` (`n × K`, standard
    /// layout). For [`Family::Balls2`], `log_responsibilities` (when given, `n × K × 2`
    /// row-major) receives each component's `log ρ_ikm` as well, for
    /// [`Self::add_weighted_gradient`] at the same `θ`; other families ignore it. `x` and `θ`
    /// must have been validated by the caller.
    pub(crate) fn class_log_density_into(
        &self,
        theta: ArrayView1<'_, f64>,
        x: ArrayView2<'_, f64>,
        out: &mut Array2<f64>,
        mut log_responsibilities: Option<&mut [f64]>,
    ) {
        let (k, d) = (self.n_classes, self.n_features);
        let half_d_ln_2pi = 0.5 * d as f64 * LN_2PI;
        let xs = x.as_standard_layout();
        let xs = xs.as_slice().expect("standard layout");
        let th = theta.as_standard_layout();
        let th = th.as_slice().expect("contiguous");
        let out = out.as_slice_mut().expect("standard layout");
        let mut diff = vec![0.0; d];
        if self.family == Family::Balls2 {
            let (pr, bs) = (self.prior_len(), self.balls2_block());
            for c in 0..k {
                let block = &th[pr + c * bs..pr + (c + 1) * bs];
                let constants = balls2_constants(block, d, half_d_ln_2pi, self.variance_floor);
                for (i, row) in xs.chunks_exact(d).enumerate() {
                    let lb = balls2_component_logs(block, &constants, row);
                    let norm = log_sum_exp(&lb);
                    out[i * k + c] = norm;
                    if let Some(log_rho) = log_responsibilities.as_deref_mut() {
                        let at = (i * k + c) * COMPONENTS;
                        for (r, l) in log_rho[at..at + COMPONENTS].iter_mut().zip(lb) {
                            *r = l - norm;
                        }
                    }
                }
            }
            return;
        }
        let precisions = self.decode_precisions(theta);
        let mo = self.means_offset();
        for c in 0..k {
            let mean = &th[mo + c * d..mo + (c + 1) * d];
            let precision = &precisions[self.precision_index(c)];
            for (i, row) in xs.chunks_exact(d).enumerate() {
                for j in 0..d {
                    diff[j] = row[j] - mean[j];
                }
                out[i * k + c] = -half_d_ln_2pi + log_density_centered(precision, &diff);
            }
        }
    }

    /// `log p(x_i, k) = log π_k + log f_k(x_i)` into `out` (`n × K`, standard layout), and
    /// Balls2's log responsibilities as [`Self::class_log_density_into`] writes them.
    pub(crate) fn log_joint_into(
        &self,
        theta: ArrayView1<'_, f64>,
        x: ArrayView2<'_, f64>,
        out: &mut Array2<f64>,
        log_responsibilities: Option<&mut [f64]>,
    ) {
        self.class_log_density_into(theta, x, out, log_responsibilities);
        let log_prior = self.log_prior(theta);
        *out += &log_prior.view().insert_axis(Axis(0));
    }

    /// `log p_θ(x_i, y = k)`, `n × K`. Fails on a `θ` of the wrong length or with a
    /// non-finite entry, and on an `x` with the wrong number of columns or a non-finite entry.
    pub fn log_joint(
        &self,
        theta: ArrayView1<'_, f64>,
        x: ArrayView2<'_, f64>,
    ) -> Result<Array2<f64>> {
        self.check_theta(theta)?;
        gendisc_core::validate::check_prediction_matrix(x, self.n_features)?;
        let mut out = Array2::zeros((x.nrows(), self.n_classes));
        self.log_joint_into(theta, x, &mut out, None);
        Ok(out)
    }

    /// Adds `Σ_i Σ_k W_ik ∇_θ log p_θ(x_i, k)` to `gradient` (see the
    /// [module documentation](self)). For [`Family::Balls2`], `log_responsibilities` are those
    /// [`Self::class_log_density_into`] left at this `θ` and `x`, or `None` to compute them
    /// here. Inputs must have been validated by the caller.
    pub(crate) fn add_weighted_gradient(
        &self,
        theta: ArrayView1<'_, f64>,
        x: ArrayView2<'_, f64>,
        w: ArrayView2<'_, f64>,
        log_responsibilities: Option<&[f64]>,
        mut gradient: ArrayViewMut1<'_, f64>,
    ) {
        let (k, d) = (self.n_classes, self.n_features);
        let xs = x.as_standard_layout();
        let xs = xs.as_slice().expect("standard layout");
        let ws = w.as_standard_layout();
        let ws = ws.as_slice().expect("standard layout");
        let th = theta.as_standard_layout();
        let th = th.as_slice().expect("contiguous");
        // Prior logits.
        if self.priors == Priors::Estimated {
            let prior = self.log_prior(theta).mapv_into(f64::exp);
            let mut col = vec![0.0; k];
            for row in ws.chunks_exact(k) {
                for (cj, wj) in col.iter_mut().zip(row) {
                    *cj += wj;
                }
            }
            let total: f64 = col.iter().sum();
            for j in 1..k {
                gradient[j - 1] += col[j] - prior[j] * total;
            }
        }
        if self.family == Family::Balls2 {
            let computed;
            let log_rho = match log_responsibilities {
                Some(given) => given,
                None => {
                    computed = self.balls2_log_responsibilities(theta, x);
                    &computed
                }
            };
            self.add_balls2_gradient(th, xs, ws, log_rho, gradient);
            return;
        }
        let precisions = self.decode_precisions(theta);
        let (mo, po) = (self.means_offset(), self.precision_offset());
        let mut diff = vec![0.0; d];
        let mut r = vec![0.0; d];
        // Σ_i w_i (x_i − μ)(x_i − μ)ᵀ, lower triangle row by row.
        let mut m_lower = vec![0.0; self.tri()];
        // Shared accumulators for LDA and the shared diagonal.
        let mut shared_m = vec![0.0; self.tri()];
        let mut shared_sq = vec![0.0; d];
        let mut shared_w = 0.0;
        for c in 0..k {
            let mean = &th[mo + c * d..mo + (c + 1) * d];
            r.fill(0.0);
            let mut s0 = 0.0;
            match &precisions[self.precision_index(c)] {
                Precision::Full { l, .. } => {
                    m_lower.fill(0.0);
                    for (row, wrow) in xs.chunks_exact(d).zip(ws.chunks_exact(k)) {
                        let wi = wrow[c];
                        if wi == 0.0 {
                            continue;
                        }
                        s0 += wi;
                        for j in 0..d {
                            diff[j] = row[j] - mean[j];
                            r[j] += wi * diff[j];
                        }
                        let mut idx = 0;
                        for a in 0..d {
                            let wa = wi * diff[a];
                            for b in 0..=a {
                                m_lower[idx] += wa * diff[b];
                                idx += 1;
                            }
                        }
                    }
                    // ∂/∂μ_k = L Lᵀ r.
                    let r_arr = ArrayView1::from(&r[..]);
                    let g_mu = l.dot(&l.t().dot(&r_arr));
                    gradient
                        .slice_mut(s![mo + c * d..mo + (c + 1) * d])
                        .scaled_add(1.0, &g_mu);
                    if self.family == Family::Lda {
                        for (sm, mm) in shared_m.iter_mut().zip(&m_lower) {
                            *sm += mm;
                        }
                        shared_w += s0;
                    } else {
                        let start = po + c * self.tri();
                        add_factor_gradient(l, &m_lower, s0, gradient.slice_mut(s![start..]));
                    }
                }
                Precision::Spherical { log_scale } => {
                    let prec = (2.0 * log_scale).exp();
                    let mut sq = 0.0;
                    for (row, wrow) in xs.chunks_exact(d).zip(ws.chunks_exact(k)) {
                        let wi = wrow[c];
                        if wi == 0.0 {
                            continue;
                        }
                        s0 += wi;
                        for j in 0..d {
                            let dj = row[j] - mean[j];
                            r[j] += wi * dj;
                            sq += wi * dj * dj;
                        }
                    }
                    for j in 0..d {
                        gradient[mo + c * d + j] += prec * r[j];
                    }
                    gradient[po + c] += d as f64 * s0 - prec * sq;
                }
                Precision::Diagonal { log_scale } => {
                    for (row, wrow) in xs.chunks_exact(d).zip(ws.chunks_exact(k)) {
                        let wi = wrow[c];
                        if wi == 0.0 {
                            continue;
                        }
                        s0 += wi;
                        for j in 0..d {
                            let dj = row[j] - mean[j];
                            r[j] += wi * dj;
                            shared_sq[j] += wi * dj * dj;
                        }
                    }
                    for j in 0..d {
                        gradient[mo + c * d + j] += (2.0 * log_scale[j]).exp() * r[j];
                    }
                    shared_w += s0;
                }
            }
        }
        match &precisions[0] {
            Precision::Full { l, .. } if self.family == Family::Lda => {
                add_factor_gradient(l, &shared_m, shared_w, gradient.slice_mut(s![po..]));
            }
            Precision::Diagonal { log_scale } => {
                for j in 0..d {
                    gradient[po + j] += shared_w - (2.0 * log_scale[j]).exp() * shared_sq[j];
                }
            }
            _ => {}
        }
    }

    /// The length of Balls2's log responsibilities for `n` rows: `n × K × 2`; 0 for the other
    /// families, which have none.
    pub(crate) fn log_responsibilities_len(&self, n: usize) -> usize {
        if self.family == Family::Balls2 {
            n * self.n_classes * COMPONENTS
        } else {
            0
        }
    }

    /// Balls2's `log ρ_ikm` at `θ` for the rows of `x` (see [`Self::class_log_density_into`]).
    fn balls2_log_responsibilities(
        &self,
        theta: ArrayView1<'_, f64>,
        x: ArrayView2<'_, f64>,
    ) -> Vec<f64> {
        let mut log_rho = vec![0.0; self.log_responsibilities_len(x.nrows())];
        let mut density = Array2::zeros((x.nrows(), self.n_classes));
        self.class_log_density_into(theta, x, &mut density, Some(&mut log_rho));
        log_rho
    }

    /// The Balls2 part of [`Self::add_weighted_gradient`]: each class weight split over the
    /// class's two components by their responsibilities `ρ_ikm`, given as logarithms.
    fn add_balls2_gradient(
        &self,
        th: &[f64],
        xs: &[f64],
        ws: &[f64],
        log_responsibilities: &[f64],
        mut gradient: ArrayViewMut1<'_, f64>,
    ) {
        let (k, d) = (self.n_classes, self.n_features);
        let half_d_ln_2pi = 0.5 * d as f64 * LN_2PI;
        let (pr, bs) = (self.prior_len(), self.balls2_block());
        let mut r = vec![0.0; COMPONENTS * d];
        for c in 0..k {
            let start = pr + c * bs;
            let block = &th[start..start + bs];
            let omega2 = mixing_log_weights(block[0])[1].exp();
            let constants = balls2_constants(block, d, half_d_ln_2pi, self.variance_floor);
            r.fill(0.0);
            let mut s0 = [0.0; COMPONENTS];
            let mut sq = [0.0; COMPONENTS];
            let mut g_c = 0.0;
            for (i, (row, wrow)) in xs.chunks_exact(d).zip(ws.chunks_exact(k)).enumerate() {
                let wi = wrow[c];
                if wi == 0.0 {
                    continue;
                }
                let at = (i * k + c) * COMPONENTS;
                let rho: [f64; COMPONENTS] =
                    std::array::from_fn(|m| log_responsibilities[at + m].exp());
                for m in 0..COMPONENTS {
                    let wm = wi * rho[m];
                    s0[m] += wm;
                    let mean = &block[1 + m * d..1 + (m + 1) * d];
                    for j in 0..d {
                        let dj = row[j] - mean[j];
                        r[m * d + j] += wm * dj;
                        sq[m] += wm * dj * dj;
                    }
                }
                g_c += wi * (rho[1] - omega2);
            }
            let mut g = gradient.slice_mut(s![start..start + bs]);
            g[0] += g_c;
            for (m, scale) in constants.iter().enumerate() {
                let prec = scale.precision;
                for j in 0..d {
                    g[1 + m * d + j] += prec * r[m * d + j];
                }
                g[1 + COMPONENTS * d + m] += (d as f64 * s0[m] - prec * sq[m]) * scale.phi;
            }
        }
    }

    /// `Σ_i Σ_k W_ik ∇_θ log p_θ(x_i, k)` as a new vector (see the
    /// [module documentation](self)); `W` is `n × K`. Fails on shapes that do not agree or
    /// non-finite input.
    pub fn weighted_gradient(
        &self,
        theta: ArrayView1<'_, f64>,
        x: ArrayView2<'_, f64>,
        w: ArrayView2<'_, f64>,
    ) -> Result<Array1<f64>> {
        self.check_theta(theta)?;
        gendisc_core::validate::check_prediction_matrix(x, self.n_features)?;
        if w.dim() != (x.nrows(), self.n_classes) {
            return Err(Error::shape_mismatch(
                "rows of W vs rows of x",
                x.nrows(),
                w.nrows(),
            ));
        }
        gendisc_core::validate::check_finite_matrix(w, "W")?;
        let mut g = Array1::zeros(self.dim());
        self.add_weighted_gradient(theta, x, w, None, g.view_mut());
        Ok(g)
    }

    /// For the families with a shared covariance (LDA and the shared diagonal), the
    /// coefficients `(β, b)` (`K × d` and `K`) of the linear discriminants
    /// `log p_θ(x, k) = β_kᵀ x + b_k + c(x)`, with `c(x)` common to every class:
    /// `β_k = Λ μ_k`, `b_k = −½ μ_kᵀ Λ μ_k + log π_k`. The log-odds of two classes are the
    /// differences. `None` for the other families, whose discriminants are not linear.
    pub fn linear_coefficients(
        &self,
        theta: ArrayView1<'_, f64>,
    ) -> Result<Option<(Array2<f64>, Array1<f64>)>> {
        self.check_theta(theta)?;
        if !matches!(self.family, Family::Lda | Family::SharedDiagonal) {
            return Ok(None);
        }
        let (k, d, mo) = (self.n_classes, self.n_features, self.means_offset());
        let lambda = match &self.decode_precisions(theta)[0] {
            Precision::Full { l, .. } => l.dot(&l.t()),
            Precision::Diagonal { log_scale } => {
                Array2::from_diag(&log_scale.mapv(|v| (2.0 * v).exp()))
            }
            Precision::Spherical { .. } => unreachable!("LDA and the shared diagonal only"),
        };
        let log_prior = self.log_prior(theta);
        let mut beta = Array2::zeros((k, d));
        let mut b = Array1::zeros(k);
        for c in 0..k {
            let mean = theta.slice(s![mo + c * d..mo + (c + 1) * d]);
            let lm = lambda.dot(&mean);
            b[c] = -0.5 * mean.dot(&lm) + log_prior[c];
            beta.row_mut(c).assign(&lm);
        }
        Ok(Some((beta, b)))
    }

    /// For Balls2, the component variances `σ²_km` (`K × 2`) that `θ` encodes: `e^{−2ℓ_km}`, or
    /// `v₀ + e^{−2ℓ_km}` with a [variance floor](Self::with_variance_floor). `None` for the
    /// other families.
    pub fn balls2_variances(&self, theta: ArrayView1<'_, f64>) -> Result<Option<Array2<f64>>> {
        self.check_theta(theta)?;
        if self.family != Family::Balls2 {
            return Ok(None);
        }
        let (pr, bs, d) = (self.prior_len(), self.balls2_block(), self.n_features);
        Ok(Some(Array2::from_shape_fn(
            (self.n_classes, COMPONENTS),
            |(c, m)| {
                let ls = theta[pr + c * bs + 1 + COMPONENTS * d + m];
                1.0 / component_scale(ls, self.variance_floor).1
            },
        )))
    }

    /// The class means (`K × d`) and precision matrices `Λ_k` (one per class, `d × d`) that
    /// `θ` encodes, for every family but Balls2 (`None`).
    pub(crate) fn gaussian_parts(
        &self,
        theta: ArrayView1<'_, f64>,
    ) -> Option<(Array2<f64>, Vec<Array2<f64>>)> {
        if self.family == Family::Balls2 {
            return None;
        }
        let (k, d, mo) = (self.n_classes, self.n_features, self.means_offset());
        let means = Array2::from_shape_fn((k, d), |(c, j)| theta[mo + c * d + j]);
        let decoded = self.decode_precisions(theta);
        let precisions = (0..k)
            .map(|c| match &decoded[self.precision_index(c)] {
                Precision::Full { l, .. } => l.dot(&l.t()),
                Precision::Spherical { log_scale } => Array2::eye(d) * (2.0 * log_scale).exp(),
                Precision::Diagonal { log_scale } => {
                    Array2::from_diag(&log_scale.mapv(|l| (2.0 * l).exp()))
                }
            })
            .collect();
        Some((means, precisions))
    }

    // ---- encoding of generative fits -----------------------------------------------------

    /// `θ` with the priors and the class means `K × d` set, the precision part zero.
    fn encode_prior_and_means(
        &self,
        prior: ArrayView1<'_, f64>,
        means: ArrayView2<'_, f64>,
    ) -> Array1<f64> {
        let mut theta = Array1::zeros(self.dim());
        let t = theta.as_slice_mut().expect("contiguous");
        self.encode_prior(prior, t);
        let (d, mo) = (self.n_features, self.means_offset());
        for (c, mean) in means.axis_iter(Axis(0)).enumerate() {
            for j in 0..d {
                t[mo + c * d + j] = mean[j];
            }
        }
        theta
    }

    /// `θ` for Gaussian classes with means `K × d`, one precision factor per class or one
    /// shared (`factors.len()` is 1 or `K`), and priors `π`.
    pub(crate) fn encode_gaussian(
        &self,
        prior: ArrayView1<'_, f64>,
        means: ArrayView2<'_, f64>,
        factors: &[Array2<f64>],
    ) -> Array1<f64> {
        let mut theta = self.encode_prior_and_means(prior, means);
        let t = theta.as_slice_mut().expect("contiguous");
        let (d, po) = (self.n_features, self.precision_offset());
        for (f, l) in factors.iter().enumerate() {
            let mut idx = po + f * self.tri();
            for a in 0..d {
                for b in 0..=a {
                    t[idx] = if a == b { l[[a, a]].ln() } else { l[[a, b]] };
                    idx += 1;
                }
            }
        }
        theta
    }

    /// `θ` for spherical (Balls1, one variance per class) or diagonal (shared diagonal, one
    /// variance per feature) Gaussians.
    pub(crate) fn encode_scales(
        &self,
        prior: ArrayView1<'_, f64>,
        means: ArrayView2<'_, f64>,
        variances: ArrayView1<'_, f64>,
    ) -> Array1<f64> {
        let mut theta = self.encode_prior_and_means(prior, means);
        let t = theta.as_slice_mut().expect("contiguous");
        let po = self.precision_offset();
        for (j, &v) in variances.iter().enumerate() {
            t[po + j] = -0.5 * v.ln();
        }
        theta
    }

    /// `θ` for Balls2: priors, mixing weights `K × 2`, means `K × 2 × d`, variances `K × 2`.
    pub(crate) fn encode_balls2(
        &self,
        prior: ArrayView1<'_, f64>,
        mixing: ArrayView2<'_, f64>,
        means: ndarray::ArrayView3<'_, f64>,
        variances: ArrayView2<'_, f64>,
    ) -> Array1<f64> {
        let mut theta = Array1::zeros(self.dim());
        let t = theta.as_slice_mut().expect("contiguous");
        self.encode_prior(prior, t);
        let (d, pr, bs) = (self.n_features, self.prior_len(), self.balls2_block());
        // A component with weight 0 (EM gave it no responsibility) gets a tiny weight instead:
        // a logit must be finite.
        let floor = f64::EPSILON;
        // Above the variance floor v₀ by at least START_GAP · v₀: a component at the floor
        // would need ℓ = ∞.
        let v0 = self.variance_floor;
        for c in 0..self.n_classes {
            let b = pr + c * bs;
            t[b] = mixing[[c, 1]].max(floor).ln() - mixing[[c, 0]].max(floor).ln();
            for m in 0..COMPONENTS {
                for j in 0..d {
                    t[b + 1 + m * d + j] = means[[c, m, j]];
                }
                let excess = (variances[[c, m]] - v0).max(START_GAP * v0);
                t[b + 1 + COMPONENTS * d + m] = -0.5 * excess.ln();
            }
        }
        theta
    }
}

/// A variance floor is finite and `≥ 0`, and positive only for Balls2.
pub(crate) fn check_variance_floor(family: Family, floor: f64) -> Result<()> {
    if !(floor.is_finite() && floor >= 0.0) {
        return Err(Error::invalid_parameter(
            "variance_floor",
            format!("must be finite and ≥ 0, got {floor}"),
        ));
    }
    if floor > 0.0 && family != Family::Balls2 {
        return Err(Error::invalid_parameter(
            "variance_floor",
            format!("only Balls2 has a variance floor; {family} got {floor}"),
        ));
    }
    Ok(())
}

/// `log ω = log softmax(0, c)`.
fn mixing_log_weights(c: f64) -> [f64; COMPONENTS] {
    let norm = log_sum_exp(&[0.0, c]);
    [-norm, c - norm]
}

/// A Balls2 component encoded from a generative fit starts at `σ² ≥ v₀ (1 + START_GAP)`: a
/// variance EM left at (or, by rounding, just under) the floor `v₀` has `ℓ` finite, at the
/// cost of a relative change of at most `START_GAP` in that one variance.
pub(crate) const START_GAP: f64 = 1e-6;

/// The row-independent part of one Balls2 component.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ComponentScale {
    /// `log ω_m − (d/2) ln 2π − (d/2) ln σ²_m`.
    pub(crate) log_constant: f64,
    /// `1 / σ²_m`.
    pub(crate) precision: f64,
    /// `φ_m = e^{−2ℓ_m} / σ²_m = −½ ∂ ln σ²_m / ∂ℓ_m`: 1 without a floor.
    pub(crate) phi: f64,
}

/// `σ² = v₀ + e^{−2ℓ}` as `(−½ ln σ², 1/σ², φ)`; without a floor exactly `(ℓ, e^{2ℓ}, 1)`.
fn component_scale(log_scale: f64, floor: f64) -> (f64, f64, f64) {
    if floor == 0.0 {
        return (log_scale, (2.0 * log_scale).exp(), 1.0);
    }
    let excess = (-2.0 * log_scale).exp();
    let variance = floor + excess;
    (-0.5 * variance.ln(), 1.0 / variance, excess / variance)
}

/// The row-independent part of one Balls2 class block `[c, μ_1, μ_2, ℓ_1, ℓ_2]` with variance
/// floor `floor`, per component.
fn balls2_constants(
    block: &[f64],
    d: usize,
    half_d_ln_2pi: f64,
    floor: f64,
) -> [ComponentScale; COMPONENTS] {
    let log_w = mixing_log_weights(block[0]);
    std::array::from_fn(|m| {
        let (half_log_precision, precision, phi) =
            component_scale(block[1 + COMPONENTS * d + m], floor);
        ComponentScale {
            log_constant: log_w[m] - half_d_ln_2pi + d as f64 * half_log_precision,
            precision,
            phi,
        }
    })
}

/// `log ω_m + log N(x; μ_m, e^{−2ℓ_m} I)` for both components of a Balls2 class block, given
/// its [`balls2_constants`].
fn balls2_component_logs(
    block: &[f64],
    constants: &[ComponentScale; COMPONENTS],
    row: &[f64],
) -> [f64; COMPONENTS] {
    let d = row.len();
    let mut lb = [0.0; COMPONENTS];
    for (m, lbm) in lb.iter_mut().enumerate() {
        let mean = &block[1 + m * d..1 + (m + 1) * d];
        let sq: f64 = row.iter().zip(mean).map(|(a, b)| (a - b) * (a - b)).sum();
        *lbm = constants[m].log_constant - 0.5 * constants[m].precision * sq;
    }
    lb
}

/// `log N(x; μ, Λ⁻¹) + (d/2) ln 2π = ½ log det Λ − ½ (x − μ)ᵀ Λ (x − μ)` for `diff = x − μ`.
fn log_density_centered(precision: &Precision, diff: &[f64]) -> f64 {
    match precision {
        Precision::Full { l, log_det_half } => {
            // ‖Lᵀ diff‖²: (Lᵀ diff)_b = Σ_{a ≥ b} L_ab diff_a.
            let d = diff.len();
            let l = l.as_slice().expect("standard layout");
            let mut q = 0.0;
            for b in 0..d {
                let mut z = 0.0;
                for a in b..d {
                    z += l[a * d + b] * diff[a];
                }
                q += z * z;
            }
            log_det_half - 0.5 * q
        }
        Precision::Spherical { log_scale } => {
            let sq: f64 = diff.iter().map(|v| v * v).sum();
            diff.len() as f64 * log_scale - 0.5 * (2.0 * log_scale).exp() * sq
        }
        Precision::Diagonal { log_scale } => diff
            .iter()
            .zip(log_scale.iter())
            .map(|(v, ls)| ls - 0.5 * (2.0 * ls).exp() * v * v)
            .sum(),
    }
}

/// Adds the gradient of `Σ_i w_i [Σ_a ℓ_a − ½ ‖Lᵀ(x_i − μ)‖²]` with respect to the stored
/// entries of `L`, given the lower triangle of `M = Σ_i w_i (x_i − μ)(x_i − μ)ᵀ` (packed row
/// by row) and `s0 = Σ_i w_i`.
fn add_factor_gradient(l: &Array2<f64>, m_lower: &[f64], s0: f64, mut g: ArrayViewMut1<'_, f64>) {
    let d = l.nrows();
    let mut m = Array2::<f64>::zeros((d, d));
    let mut idx = 0;
    for a in 0..d {
        for b in 0..=a {
            m[[a, b]] = m_lower[idx];
            m[[b, a]] = m_lower[idx];
            idx += 1;
        }
    }
    let ml = m.dot(l);
    let mut idx = 0;
    for a in 0..d {
        for b in 0..=a {
            g[idx] += if a == b {
                s0 - ml[[a, a]] * l[[a, a]]
            } else {
                -ml[[a, b]]
            };
            idx += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use ndarray::array;

    #[test]
    fn dimensions_follow_the_table() {
        let dim = |f, k, d| Parametrisation::new(f, k, d).unwrap().dim();
        assert_eq!(dim(Family::Lda, 3, 4), 2 + 12 + 10);
        assert_eq!(dim(Family::Qda, 3, 4), 2 + 12 + 30);
        assert_eq!(dim(Family::Balls1, 3, 4), 2 + 12 + 3);
        assert_eq!(dim(Family::Balls2, 3, 4), 2 + 3 * 11);
        assert_eq!(dim(Family::SharedDiagonal, 2, 4), 8 + 4);
    }

    #[test]
    fn full_precision_density_matches_the_formula() {
        // Σ = [[2, 0.5], [0.5, 1]]; Λ = Σ⁻¹; L = chol(Λ).
        let p = Parametrisation::new(Family::Lda, 2, 2).unwrap();
        let sigma = array![[2.0, 0.5], [0.5, 1.0]];
        let det = 2.0 - 0.25;
        let lambda = array![[1.0, -0.5], [-0.5, 2.0]] / det;
        let l = gendisc_core::linalg::cholesky(lambda.view()).unwrap();
        let theta = p.encode_gaussian(
            array![0.25, 0.75].view(),
            array![[0.0, 0.0], [1.0, -1.0]].view(),
            &[l],
        );
        let x = array![[0.3, -0.7]];
        let lj = p.log_joint(theta.view(), x.view()).unwrap();
        let dx = array![0.3 - 1.0, -0.7 + 1.0];
        let q = dx.dot(&lambda.dot(&dx));
        let expected =
            0.75f64.ln() - LN_2PI - 0.5 * (sigma[[0, 0]] * sigma[[1, 1]] - 0.25f64).ln() - 0.5 * q;
        assert_relative_eq!(lj[[0, 1]], expected, max_relative = 1e-12);
    }

    #[test]
    fn family_names_round_trip() {
        for f in [
            Family::Lda,
            Family::Qda,
            Family::Balls1,
            Family::Balls2,
            Family::SharedDiagonal,
        ] {
            assert_eq!(f.name().parse::<Family>().unwrap(), f);
        }
        assert!("lda2".parse::<Family>().is_err());
    }

    #[test]
    fn bad_theta_is_an_error() {
        let p = Parametrisation::new(Family::Balls1, 2, 2).unwrap();
        let x = array![[0.0, 1.0]];
        assert!(p.log_joint(Array1::zeros(3).view(), x.view()).is_err());
        let mut t = Array1::zeros(p.dim());
        t[0] = f64::NAN;
        assert!(p.log_joint(t.view(), x.view()).is_err());
        assert!(Parametrisation::new(Family::Lda, 1, 2).is_err());
        assert!(Parametrisation::new(Family::Lda, 2, 0).is_err());
    }
}
