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
//! [`Parametrisation`] owns the prior logits; everything after them belongs to one
//! implementation per family of a crate-internal trait of class densities — full precisions
//! (LDA, QDA), a spherical one (Balls1), a shared diagonal one, the two-component spherical
//! mixture (Balls2) — which holds the family's log-density, gradient, Hessian terms, encoding
//! of the generative fit and, for the Gaussian families, the induced features of
//! [`crate::existence`] and the map back from their coefficients. A new family is one more
//! implementation and one arm of [`Family`]'s dispatch.
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

pub(crate) mod density;
mod diagonal;
mod full;
mod gaussian;
mod hessian;
mod mixture;
mod spherical;

use std::fmt;
use std::str::FromStr;

use ndarray::{s, Array1, Array2, Array3, ArrayView1, ArrayView2, ArrayViewMut1, Axis};
use serde::{Deserialize, Serialize};

use gendisc_core::numerics::log_sum_exp;
use gendisc_core::validate::by_name;
use gendisc_core::{Error, Result};

use self::density::{ClassDensities, Shape};
use self::diagonal::SharedDiagonalCovariance;
use self::full::FullCovariance;
use self::mixture::SphericalMixture;
use self::spherical::SphericalCovariance;
use crate::model::TrainingSet;
use crate::params::GdtValidParams;
use crate::whitening::{Direction, InputMap};

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

    /// Every family: the paper's four, then the shared diagonal.
    pub const ALL: [Self; 5] = [
        Self::Lda,
        Self::Qda,
        Self::Balls1,
        Self::Balls2,
        Self::SharedDiagonal,
    ];

    /// What the family's class densities are, in a few words.
    pub fn description(self) -> &'static str {
        match self {
            Self::Lda => "Gaussian classes, one shared full covariance",
            Self::Qda => "Gaussian classes, a full covariance each",
            Self::Balls1 => "a spherical Gaussian per class",
            Self::Balls2 => "a mixture of two spherical Gaussians per class",
            Self::SharedDiagonal => "Gaussian classes, one shared diagonal covariance",
        }
    }

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

    /// The family's class densities: the one place where a family's implementation is chosen.
    pub(crate) fn densities(self) -> &'static dyn ClassDensities {
        match self {
            Self::Lda => &FullCovariance { shared: true },
            Self::Qda => &FullCovariance { shared: false },
            Self::Balls1 => &SphericalCovariance,
            Self::Balls2 => &SphericalMixture,
            Self::SharedDiagonal => &SharedDiagonalCovariance,
        }
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
        by_name("family", "family", s, &Self::ALL, Self::name)
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

    /// The family's class densities.
    pub(crate) fn densities(&self) -> &'static dyn ClassDensities {
        self.family.densities()
    }

    /// The sizes the class densities depend on.
    pub(crate) fn shape(&self) -> Shape {
        Shape {
            n_classes: self.n_classes,
            n_features: self.n_features,
            variance_floor: self.variance_floor,
        }
    }

    /// Length of the prior-logit block.
    fn prior_len(&self) -> usize {
        if self.priors == Priors::Estimated {
            self.n_classes - 1
        } else {
            0
        }
    }

    /// The number of parameters one class's density depends on.
    pub(crate) fn class_block_len(&self) -> usize {
        self.densities().class_block_len(self.shape())
    }

    /// The number of parameters `p`.
    pub fn dim(&self) -> usize {
        self.prior_len() + self.densities().len(self.shape())
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

    /// `θ` for class priors `π` (positive, length `K`), encoded as logits against class 0
    /// unless the priors are fixed, and the class densities' parameters that `encode_densities`
    /// writes into the rest.
    pub(crate) fn encode(
        &self,
        prior: ArrayView1<'_, f64>,
        encode_densities: impl FnOnce(&mut [f64]),
    ) -> Array1<f64> {
        let mut theta = Array1::zeros(self.dim());
        let t = theta.as_slice_mut().expect("contiguous");
        if self.priors == Priors::Estimated {
            let l0 = prior[0].ln();
            for j in 1..self.n_classes {
                t[j - 1] = prior[j].ln() - l0;
            }
        }
        encode_densities(&mut t[self.prior_len()..]);
        theta
    }

    /// `θ` of the same model for the inputs carried by `map` in `direction`: the prior logits
    /// kept, the class densities' parameters carried ([`crate::whitening`]); `None` for a family
    /// not closed under such maps.
    pub(crate) fn change_inputs(
        &self,
        theta: ArrayView1<'_, f64>,
        map: &InputMap,
        direction: Direction,
    ) -> Option<Array1<f64>> {
        let th = theta.as_standard_layout();
        let th = th.as_slice().expect("contiguous");
        let (logits, params) = th.split_at(self.prior_len());
        let carried = self
            .densities()
            .change_inputs(self.shape(), params, map, direction)?;
        Some(logits.iter().copied().chain(carried).collect())
    }

    /// The index ranges in `θ` of the full precisions' Cholesky factors, in order: one for
    /// LDA, one per class for QDA, none for the other families. Within a range the entries
    /// run row by row over the lower triangle, the diagonal ones as `ℓ_a`.
    pub(crate) fn cholesky_blocks(&self) -> impl Iterator<Item = std::ops::Range<usize>> {
        let pr = self.prior_len();
        self.densities()
            .cholesky_blocks(self.shape())
            .into_iter()
            .map(move |r| pr + r.start..pr + r.end)
    }

    /// `log f_k(x_i)` for every row and class, written into `out` (`n × K`, standard
    /// layout). For [`Family::Balls2`], `responsibilities` (when given, `n × K × 2`
    /// row-major) receives each component's `ρ_ikm` as well, for
    /// [`Self::add_weighted_gradient`] at the same `θ`; other families ignore it. `x` and `θ`
    /// must have been validated by the caller.
    pub(crate) fn class_log_density_into(
        &self,
        theta: ArrayView1<'_, f64>,
        x: ArrayView2<'_, f64>,
        out: &mut Array2<f64>,
        responsibilities: Option<&mut [f64]>,
    ) {
        let xs = x.as_standard_layout();
        let th = theta.as_standard_layout();
        let th = th.as_slice().expect("contiguous");
        self.densities().log_densities_into(
            self.shape(),
            &th[self.prior_len()..],
            xs.as_slice().expect("standard layout"),
            out.as_slice_mut().expect("standard layout"),
            responsibilities,
        );
    }

    /// `log p(x_i, k) = log π_k + log f_k(x_i)` into `out` (`n × K`, standard layout), and
    /// Balls2's responsibilities as [`Self::class_log_density_into`] writes them.
    pub(crate) fn log_joint_into(
        &self,
        theta: ArrayView1<'_, f64>,
        x: ArrayView2<'_, f64>,
        out: &mut Array2<f64>,
        responsibilities: Option<&mut [f64]>,
    ) {
        self.class_log_density_into(theta, x, out, responsibilities);
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
    /// [module documentation](self)). For [`Family::Balls2`], `responsibilities` are those
    /// [`Self::class_log_density_into`] left at this `θ` and `x`, or `None` to compute them
    /// here. Inputs must have been validated by the caller.
    pub(crate) fn add_weighted_gradient(
        &self,
        theta: ArrayView1<'_, f64>,
        x: ArrayView2<'_, f64>,
        w: ArrayView2<'_, f64>,
        responsibilities: Option<&[f64]>,
        mut gradient: ArrayViewMut1<'_, f64>,
    ) {
        let k = self.n_classes;
        let xs = x.as_standard_layout();
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
        let pr = self.prior_len();
        self.densities().add_weighted_gradient(
            self.shape(),
            &th[pr..],
            xs.as_slice().expect("standard layout"),
            ws,
            responsibilities,
            gradient.slice_mut(s![pr..]),
        );
    }

    /// The length of Balls2's responsibilities for `n` rows: `n × K × 2`; 0 for the other
    /// families, which have none.
    pub(crate) fn responsibilities_len(&self, n: usize) -> usize {
        self.densities().responsibilities_len(self.shape(), n)
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
        let th = theta.as_standard_layout();
        let th = th.as_slice().expect("contiguous");
        let pr = self.prior_len();
        let Some(lambda) = self.densities().shared_precision(self.shape(), &th[pr..]) else {
            return Ok(None);
        };
        let (k, d) = (self.n_classes, self.n_features);
        let log_prior = self.log_prior(theta);
        let mut beta = Array2::zeros((k, d));
        let mut b = Array1::zeros(k);
        for c in 0..k {
            let mean = theta.slice(s![pr + c * d..pr + (c + 1) * d]);
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
        self.read_densities(theta, |densities, shape, params| {
            densities.component_variances(shape, params)
        })
    }

    /// For Balls2, the component means `μ_km` (`K × 2 × d`) that `θ` encodes. `None` for the
    /// other families.
    pub fn balls2_means(&self, theta: ArrayView1<'_, f64>) -> Result<Option<Array3<f64>>> {
        self.read_densities(theta, |densities, shape, params| {
            densities.component_means(shape, params)
        })
    }

    /// `read` of the class densities, their shape and their parameters `ϑ` (the part of `θ`
    /// after the prior logits), once `θ` is checked.
    fn read_densities<T>(
        &self,
        theta: ArrayView1<'_, f64>,
        read: impl FnOnce(&dyn ClassDensities, Shape, &[f64]) -> T,
    ) -> Result<T> {
        self.check_theta(theta)?;
        let th = theta.as_standard_layout();
        let th = th.as_slice().expect("contiguous");
        Ok(read(
            self.densities(),
            self.shape(),
            &th[self.prior_len()..],
        ))
    }

    /// The class means (`K × d`) and precision matrices `Λ_k` (one per class, `d × d`) that
    /// `θ` encodes, for every family but Balls2 (`None`).
    pub(crate) fn gaussian_parts(
        &self,
        theta: ArrayView1<'_, f64>,
    ) -> Option<(Array2<f64>, Vec<Array2<f64>>)> {
        let th = theta.as_standard_layout();
        let th = th.as_slice().expect("contiguous");
        self.densities()
            .gaussian_parts(self.shape(), &th[self.prior_len()..])
    }

    /// The generative maximum-likelihood fit (eq. 2) on `t` encoded as `θ`, and whether it
    /// converged: closed form for the Gaussian families, EM for Balls2 (§5).
    pub(crate) fn generative_start(
        &self,
        p: &GdtValidParams,
        t: &TrainingSet<'_>,
    ) -> Result<(Array1<f64>, bool)> {
        self.densities().generative_start(p, t)
    }

    /// `θ` for Gaussian classes with means `K × d`, one precision factor per class or one
    /// shared (`factors.len()` is 1 or `K`: QDA or LDA), and priors `π`.
    pub(crate) fn encode_gaussian(
        &self,
        prior: ArrayView1<'_, f64>,
        means: ArrayView2<'_, f64>,
        factors: &[Array2<f64>],
    ) -> Array1<f64> {
        self.encode(prior, |params| {
            FullCovariance::encode(self.shape(), means, factors, params)
        })
    }

    /// `θ` for spherical (Balls1, one variance per class) or diagonal (shared diagonal, one
    /// variance per feature) Gaussians.
    pub(crate) fn encode_scales(
        &self,
        prior: ArrayView1<'_, f64>,
        means: ArrayView2<'_, f64>,
        variances: ArrayView1<'_, f64>,
    ) -> Array1<f64> {
        self.encode(prior, |params| {
            gaussian::encode_scales(self.shape(), means, variances, params)
        })
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
