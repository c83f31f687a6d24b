//! What every generative family provides: its class densities `f_k(x; θ_k)` over the part of
//! `θ` after the prior logits, with their value, gradient, Hessian and encoding.
//!
//! [`Parametrisation`](super::Parametrisation) owns the prior logits and dispatches the rest to
//! one [`ClassDensities`] implementation per family: [`FullCovariance`](super::full) (LDA,
//! QDA), [`SphericalCovariance`](super::spherical) (Balls1),
//! [`SharedDiagonalCovariance`](super::diagonal) and [`SphericalMixture`](super::mixture)
//! (Balls2). A new family is one more implementation and one arm of that dispatch.

use std::ops::Range;

use ndarray::{Array1, Array2, Array3, ArrayView1, ArrayView2, ArrayViewMut1, ArrayViewMut2};

use gendisc_core::Result;

use super::{Parametrisation, Priors};
use crate::model::TrainingSet;
use crate::params::GdtValidParams;
use crate::whitening::{AffineClosure, Direction, InputMap};

/// The sizes a family's densities depend on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shape {
    /// The number of classes `K`.
    pub(crate) n_classes: usize,
    /// The number of features `d`.
    pub(crate) n_features: usize,
    /// Balls2's absolute variance floor `v₀` (0: none; always 0 for the other families).
    pub(crate) variance_floor: f64,
}

impl Shape {
    /// `d(d + 1)/2`, the free entries of a Cholesky factor.
    pub(crate) fn tri(&self) -> usize {
        self.n_features * (self.n_features + 1) / 2
    }

    /// `(d/2) ln 2π`.
    pub(crate) fn half_d_ln_2pi(&self) -> f64 {
        0.5 * self.n_features as f64 * super::LN_2PI
    }
}

/// The class-conditional densities of one generative family, as functions of their parameters
/// `ϑ` (the part of `θ` after the prior logits; every index below is into `ϑ`).
///
/// Rows `xs` are `n × d` and weights `ws` `n × K`, both row-major; callers have validated them.
pub(crate) trait ClassDensities: Sync {
    /// The length of `ϑ`.
    fn len(&self, shape: Shape) -> usize;

    /// The number of parameters one class's density depends on (the length of
    /// [`LocalTerms::class_indices`]): `ϑ`'s length over `K` unless classes share parameters.
    fn class_block_len(&self, shape: Shape) -> usize {
        self.len(shape) / shape.n_classes
    }

    /// `log f_k(x_i)` for every row and class into `out` (`n × K`, row-major). A mixture also
    /// writes its components' responsibilities into `responsibilities` when given.
    fn log_densities_into(
        &self,
        shape: Shape,
        params: &[f64],
        xs: &[f64],
        out: &mut [f64],
        responsibilities: Option<&mut [f64]>,
    );

    /// The length of the responsibilities [`Self::log_densities_into`] writes for `n`
    /// rows: 0 for a family without mixture components.
    fn responsibilities_len(&self, _shape: Shape, _n: usize) -> usize {
        0
    }

    /// Adds `Σ_i Σ_k W_ik ∇_ϑ log f_k(x_i)` to `gradient` (length [`Self::len`]). A mixture
    /// reads the responsibilities [`Self::log_densities_into`] left at this `ϑ` and `x`,
    /// or computes them when `None`.
    fn add_weighted_gradient(
        &self,
        shape: Shape,
        params: &[f64],
        xs: &[f64],
        ws: &[f64],
        responsibilities: Option<&[f64]>,
        gradient: ArrayViewMut1<'_, f64>,
    );

    /// The row-independent part of every class's density, decoded once per Hessian evaluation,
    /// which gives each row's local derivatives.
    fn local_terms<'a>(&self, shape: Shape, params: &'a [f64]) -> Box<dyn LocalTerms + 'a>;

    /// The generative maximum-likelihood fit (eq. 2) encoded as `θ`, and whether it converged.
    fn generative_start(
        &self,
        p: &GdtValidParams,
        t: &TrainingSet<'_>,
    ) -> Result<(Array1<f64>, bool)>;

    /// The class means (`K × d`) and precision matrices `Λ_k` (one per class) of a Gaussian
    /// family; `None` for a mixture.
    fn gaussian_parts(
        &self,
        _shape: Shape,
        _params: &[f64],
    ) -> Option<(Array2<f64>, Vec<Array2<f64>>)> {
        None
    }

    /// The precision matrix every class shares, for the families whose log-odds are linear
    /// (LDA and the shared diagonal); `None` for the others.
    fn shared_precision(&self, _shape: Shape, _params: &[f64]) -> Option<Array2<f64>> {
        None
    }

    /// The ranges of `ϑ` holding full Cholesky factors, each row by row over the lower
    /// triangle with the diagonal as `ℓ_a`: one for LDA, one per class for QDA, none otherwise.
    fn cholesky_blocks(&self, _shape: Shape) -> Vec<Range<usize>> {
        Vec::new()
    }

    /// A mixture's component variances (`K × components`); `None` for the Gaussian families.
    fn component_variances(&self, _shape: Shape, _params: &[f64]) -> Option<Array2<f64>> {
        None
    }

    /// A mixture's component means (`K × components × d`); `None` for the Gaussian families.
    fn component_means(&self, _shape: Shape, _params: &[f64]) -> Option<Array3<f64>> {
        None
    }

    /// The number of induced features after the intercept and the `d` inputs: the family's
    /// log-odds are linear in `z(x) = (1, x, extras)` ([`crate::existence`]). `None` for a
    /// mixture, whose log-odds are linear in no fixed features.
    fn induced_extras(&self, _n_features: usize) -> Option<usize> {
        None
    }

    /// Writes the induced features after the intercept and the inputs of `row` into `out`
    /// (length [`Self::induced_extras`]).
    fn write_induced_extras(&self, _row: ArrayView1<'_, f64>, _out: ArrayViewMut1<'_, f64>) {}

    /// The affine maps of the inputs the family is closed under ([`crate::whitening`]); `None`
    /// for the spherical families, which only a common scale and a shift keep spherical.
    fn affine_closure(&self) -> Option<AffineClosure> {
        None
    }

    /// `ϑ` of the same class densities for the inputs carried by `map` in `direction`
    /// ([`crate::whitening`]); `None` for a family without an [`Self::affine_closure`].
    fn change_inputs(
        &self,
        _shape: Shape,
        _params: &[f64],
        _map: &InputMap,
        _direction: Direction,
    ) -> Option<Vec<f64>> {
        None
    }

    /// Whether [`Self::map_back`] applies under `priors` with `n_classes` classes.
    fn maps_back(&self, _priors: Priors, _n_classes: usize) -> bool {
        false
    }

    /// A `θ` inducing the coefficients `beta` (`K × q`, row 0 zero) of the induced features,
    /// what they leave free taken from `start` (the discriminative end); `None` where
    /// none is found.
    fn map_back(
        &self,
        _param: &Parametrisation,
        _start: ArrayView1<'_, f64>,
        _beta: ArrayView2<'_, f64>,
    ) -> Option<Array1<f64>> {
        None
    }
}

/// What the Hessian's assembly needs of the training rows at `θ` (the notation of
/// [`super::hessian`]): the rows `x` (`n × d`), the weights `W_ik` of eq. (8) and the
/// posteriors `τ_ik` (`n × K`), the couplings `c_i = s_i (1 − λ)`, and a mixture's
/// responsibilities `ρ_ikm` as [`super::Parametrisation::class_log_density_into`] writes them
/// (empty for the other families).
#[derive(Clone, Copy)]
pub(crate) struct WeightedRows<'a> {
    pub(crate) x: ArrayView2<'a, f64>,
    pub(crate) w: ArrayView2<'a, f64>,
    pub(crate) tau: ArrayView2<'a, f64>,
    pub(crate) coupling: ArrayView1<'a, f64>,
    pub(crate) responsibilities: &'a [f64],
}

/// The per-row derivatives of `log f_k(x)` over class `k`'s parameters, from the decoded
/// row-independent part ([`ClassDensities::local_terms`]).
pub(crate) trait LocalTerms {
    /// The indices in `ϑ` of class `c`'s parameters in their local order (the order of
    /// [`Self::local_derivatives`]); every class has as many, in increasing order.
    fn class_indices(&self, c: usize) -> Vec<usize>;

    /// The gradient (`grad`, length `q`) and Hessian (`hess`, `q × q` row-major; only its
    /// upper triangle `b ≥ a` is read, and a family may leave the rest unwritten) of
    /// `log f_c(x_i)` over class `c`'s parameters in their local order. `row` is `x_i`;
    /// `responsibilities` are those [`ClassDensities::log_densities_into`] wrote for every
    /// row (empty for a family without mixture components).
    fn local_derivatives(
        &mut self,
        c: usize,
        i: usize,
        row: &[f64],
        responsibilities: &[f64],
        grad: &mut [f64],
        hess: &mut [f64],
    );

    /// Every class's part of the Hessian at once, for a family whose local Hessians have a
    /// structure that matrix products exploit (Balls2's: a sparse part and rank-one terms).
    /// With `g_ic`, `H_ic` the local gradient and Hessian of [`Self::local_derivatives`] and
    /// `a_ic = c_i τ_ic`, it returns the [`ClassBlocks`] and writes row `i` of
    /// `scaled_gradients` (`n × len ϑ`, zero on entry) at class `c`'s indices: `√c_i τ_ic g_ic`.
    /// The default returns `None`: the assembly then goes row by row through
    /// [`Self::local_derivatives`].
    fn class_blocks(
        &mut self,
        _rows: WeightedRows<'_>,
        _scaled_gradients: ArrayViewMut2<'_, f64>,
    ) -> Option<ClassBlocks> {
        None
    }
}

/// What [`LocalTerms::class_blocks`] sums over the rows, class by class (`a_ic = c_i τ_ic`).
pub(crate) struct ClassBlocks {
    /// `Σ_i [W_ic H_ic − a_ic g_ic g_icᵀ]` per class, `q × q` (the upper triangle is read).
    pub(crate) blocks: Vec<Array2<f64>>,
    /// `Σ_i a_ic g_ic`, one row per class (`K × q`).
    pub(crate) gradient_sums: Array2<f64>,
}

/// `1` if `b`, else `0`.
pub(crate) fn indicator(b: bool) -> f64 {
    if b {
        1.0
    } else {
        0.0
    }
}
