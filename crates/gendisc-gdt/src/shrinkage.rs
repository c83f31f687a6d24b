//! Covariance shrinkage for the LDA and QDA families, as a log-prior on their precisions.
//!
//! Shrunk LDA (and QDA, class by class) replaces the maximum-likelihood covariance `S = M / W`
//! (`M` the weighted scatter about the class means, `W` its total weight) by
//!
//! ```text
//! Σ̂ = (1 − γ) S + γ t I,
//! ```
//!
//! with `t = tr S / d` for `gendisc-generative`'s `CovarianceShrinkage::ScaledIdentity(γ)`
//! and `t = 1` (the identity in the data's units, scikit-learn's `reg_param`) for
//! `CovarianceShrinkage::Identity(γ)`. `Σ̂` is exactly the
//! maximiser in `Λ = Σ⁻¹` of the joint log-likelihood plus the Wishart log-prior
//!
//! ```text
//! log π(Λ) = (ν/2) log det Λ − ½ ψ tr Λ,        ν = W γ / (1 − γ),  ψ = ν t,
//! ```
//!
//! since `(W/2) log det Λ − ½ tr(MΛ) + log π(Λ)` is maximised at `Λ⁻¹ = (M + ψ I)/(W + ν)`. GDT
//! with shrinkage therefore maximises
//!
//! ```text
//! λ [L_gen(θ) + Σ_p log π(Λ_p)] + (1 − λ) L_disc(θ)
//! ```
//!
//! over the families' `θ` (one precision `p` for LDA, one per class for QDA): at `λ = 1` the
//! shrunk generative fit, at `λ = 0` the discriminative end unchanged (the conditional
//! likelihood needs no prior to be bounded in `Λ`, and its existence is decided as without
//! shrinkage, [`crate::existence`]). The prior is what keeps the joint likelihood bounded on
//! collinear or constant columns, where an unshrunk precision diverges. In the Cholesky
//! parametrisation (`Λ = L Lᵀ`, `L_aa = e^{ℓ_a}`) it is separable:
//!
//! ```text
//! log π = ν Σ_a ℓ_a − ½ ψ (Σ_{a>b} L_ab² + Σ_a e^{2ℓ_a}),
//! ```
//!
//! so its gradient and Hessian are entry by entry. `t` (and so `ψ`) is computed once from the
//! training rows, so that every fit on them — from the generative start or warm — optimises
//! the same objective.

use ndarray::{ArrayView1, ArrayView2, ArrayViewMut1, ArrayViewMut2};

use gendisc_core::{Error, Result};
use gendisc_generative::CovarianceShrinkage;

use crate::family::{Family, Parametrisation};

/// The coefficient `γ` of a regulariser (0 for none).
pub(crate) fn coefficient(shrinkage: CovarianceShrinkage) -> f64 {
    match shrinkage {
        CovarianceShrinkage::None => 0.0,
        CovarianceShrinkage::Identity(g) | CovarianceShrinkage::ScaledIdentity(g) => g,
    }
}

/// The Wishart log-prior of every precision of a GDT fit with shrinkage, per unit of sample
/// weight (the objective's scale).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PrecisionPrior {
    /// `(ν_p / S, ψ_p / S)` per precision `p`, in the order of the `θ` layout.
    weights: Vec<(f64, f64)>,
}

impl PrecisionPrior {
    /// The prior that makes `shrinkage` (of coefficient in `[0, 1)`) the maximiser at
    /// `λ = 1`, for the rows `x` in the model's unit (the data divided by `scale`), validated
    /// labels `y` and weights `w`; `None` without shrinkage or for a family without a full
    /// precision (only LDA and QDA take shrinkage). Fails when the identity of the data's
    /// units is not representable in the model's (data near `10⁻¹⁵⁴`).
    pub(crate) fn new(
        param: &Parametrisation,
        shrinkage: CovarianceShrinkage,
        scale: f64,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<Option<Self>> {
        let gamma = coefficient(shrinkage);
        if gamma == 0.0 || !matches!(param.family(), Family::Lda | Family::Qda) {
            return Ok(None);
        }
        // The identity of the data's units, in the model's.
        let identity = 1.0 / (scale * scale);
        if !identity.is_finite() {
            return Err(Error::invalid_parameter(
                "shrinkage",
                format!(
                    "shrinking toward the identity adds a unit variance to data of magnitude \
                     {scale:e}, which the model's unit cannot hold; `ScaledIdentity` shrinks \
                     toward the data's own scale"
                ),
            ));
        }
        let (k, d) = (param.n_classes(), param.n_features());
        let weight = |i: usize| w.map_or(1.0, |w| w[i]);
        // Class weights, means and within-class sums of squares (the traces of the scatters).
        let mut class_weight = vec![0.0; k];
        let mut means = vec![0.0; k * d];
        for (i, row) in x.outer_iter().enumerate() {
            let (c, wi) = (y[i], weight(i));
            class_weight[c] += wi;
            for (m, v) in means[c * d..(c + 1) * d].iter_mut().zip(row) {
                *m += wi * v;
            }
        }
        for (c, &wc) in class_weight.iter().enumerate() {
            if wc > 0.0 {
                means[c * d..(c + 1) * d].iter_mut().for_each(|m| *m /= wc);
            }
        }
        let mut trace = vec![0.0; k];
        for (i, row) in x.outer_iter().enumerate() {
            let c = y[i];
            let sq: f64 = means[c * d..(c + 1) * d]
                .iter()
                .zip(row)
                .map(|(m, v)| (v - m) * (v - m))
                .sum();
            trace[c] += weight(i) * sq;
        }
        let total: f64 = class_weight.iter().sum();
        let odds = gamma / (1.0 - gamma);
        // ν / S and ψ / S for a precision estimated from weight W and scatter trace tr M:
        // ν = W γ/(1 − γ), ψ = ν t with t = tr M / (W d) or the identity.
        let per_unit = |w: f64, tr: f64| {
            let nu = w * odds;
            let t = match shrinkage {
                CovarianceShrinkage::Identity(_) => identity,
                _ => tr / (w * d as f64),
            };
            (nu / total, nu * t / total)
        };
        let weights = match param.family() {
            Family::Lda => vec![per_unit(total, trace.iter().sum())],
            _ => (0..k)
                .map(|c| per_unit(class_weight[c], trace[c]))
                .collect(),
        };
        Ok(Some(Self { weights }))
    }

    /// `Σ_p log π(Λ_p) / S` at `θ`.
    pub(crate) fn log_prior(&self, param: &Parametrisation, theta: ArrayView1<'_, f64>) -> f64 {
        let mut total = 0.0;
        self.for_each_entry(param, |p, j, diagonal| {
            let (nu, psi) = self.weights[p];
            total += if diagonal {
                nu * theta[j] - 0.5 * psi * (2.0 * theta[j]).exp()
            } else {
                -0.5 * psi * theta[j] * theta[j]
            };
        });
        total
    }

    /// Adds `scale · ∇ Σ_p log π(Λ_p) / S` at `θ` to `gradient`.
    pub(crate) fn add_gradient(
        &self,
        param: &Parametrisation,
        theta: ArrayView1<'_, f64>,
        scale: f64,
        mut gradient: ArrayViewMut1<'_, f64>,
    ) {
        self.for_each_entry(param, |p, j, diagonal| {
            let (nu, psi) = self.weights[p];
            gradient[j] += scale
                * if diagonal {
                    nu - psi * (2.0 * theta[j]).exp()
                } else {
                    -psi * theta[j]
                };
        });
    }

    /// Adds `scale · ∇² Σ_p log π(Λ_p) / S` (diagonal) at `θ` to `hessian`.
    pub(crate) fn add_hessian(
        &self,
        param: &Parametrisation,
        theta: ArrayView1<'_, f64>,
        scale: f64,
        mut hessian: ArrayViewMut2<'_, f64>,
    ) {
        self.for_each_entry(param, |p, j, diagonal| {
            let psi = self.weights[p].1;
            hessian[[j, j]] -= scale
                * if diagonal {
                    2.0 * psi * (2.0 * theta[j]).exp()
                } else {
                    psi
                };
        });
    }

    /// Calls `f(p, j, diagonal)` for every stored Cholesky entry `θ_j` of precision `p`.
    fn for_each_entry(&self, param: &Parametrisation, mut f: impl FnMut(usize, usize, bool)) {
        for (p, block) in param.cholesky_blocks().enumerate() {
            let mut j = block.start;
            for a in 0..param.n_features() {
                for b in 0..=a {
                    f(p, j, a == b);
                    j += 1;
                }
            }
        }
    }
}
