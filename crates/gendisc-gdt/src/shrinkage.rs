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
//!
//! On inputs whitened by `x̃ = Aᵀ(x − m)` (module `whitening` in the source) a precision
//! factor is `L̃ = A⁻¹ L`, so `tr Λ = ‖A L̃‖²_F = tr(L̃ᵀ G L̃)` with the metric `G = AᵀA`, and
//! `log det Λ = log det Λ̃ + 2 log det A`: the prior is of the same form with `ψI` replaced by
//! `ψG` and a constant added. Its quadratic term then
//! couples the entries of a column of `L̃`: with `H = G L̃`,
//!
//! ```text
//! ∂ log π / ∂L̃_ab = −ψ H_ab  (a > b),        ∂ log π / ∂ℓ̃_a = ν − ψ H_aa e^{ℓ̃_a},
//! ∂² log π / ∂L̃_ac ∂L̃_bc = −ψ G_ab  (a, b ≥ c, times e^{ℓ̃_c} for each diagonal entry),
//! ```
//!
//! and `−ψ H_cc e^{ℓ̃_c}` more on the diagonal entry's own second derivative.

use ndarray::{Array2, ArrayView1, ArrayView2, ArrayViewMut1, ArrayViewMut2};

use gendisc_core::{Error, Result};
use gendisc_generative::CovarianceShrinkage;

use crate::family::{Family, Parametrisation};
use crate::whitening::PooledMoments;

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
    /// The metric `G` of `tr Λ = tr(Lᵀ G L)` on mapped inputs ([module documentation](self));
    /// `None` for the identity, on the model's own inputs.
    metric: Option<Array2<f64>>,
}

impl PrecisionPrior {
    /// The prior that makes `shrinkage` (of coefficient in `[0, 1)`) the maximiser at
    /// `λ = 1`, for training rows in the model's unit (the data divided by `scale`) whose
    /// within-class moments `moments` gives (asked for only when there is a prior); `None`
    /// without shrinkage or for a family without a full precision (only LDA and QDA take
    /// shrinkage). Fails when the identity of the data's units is not representable in the
    /// model's (data near `10⁻¹⁵⁴`).
    pub(crate) fn new<'m>(
        param: &Parametrisation,
        shrinkage: CovarianceShrinkage,
        scale: f64,
        moments: impl FnOnce() -> &'m PooledMoments,
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
        let PooledMoments {
            total,
            class_weight,
            class_scatter_trace: trace,
            ..
        } = moments();
        let (total, d) = (*total, param.n_features());
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
            _ => class_weight
                .iter()
                .zip(trace)
                .map(|(&w, &tr)| per_unit(w, tr))
                .collect(),
        };
        Ok(Some(Self {
            weights,
            metric: None,
        }))
    }

    /// The prior of the same precisions on inputs mapped by `x̃ = Aᵀ(x − m)`, `factor` the
    /// lower-triangular `A` (up to the constant `Σ_p ν_p ln det A` it drops).
    pub(crate) fn on_mapped_inputs(&self, factor: ArrayView2<'_, f64>) -> Self {
        let metric = match &self.metric {
            None => factor.t().dot(&factor),
            Some(g) => factor.t().dot(g).dot(&factor),
        };
        Self {
            weights: self.weights.clone(),
            metric: Some(metric),
        }
    }

    /// `(Σ_p ν_p / S, Σ_p ψ_p / S)`: the shrunk pooled covariance is `(S_w + ψ I) / (1 + ν)`,
    /// `S_w` the pooled within-class covariance (for LDA exactly the generative start's).
    pub(crate) fn pooled(&self) -> (f64, f64) {
        self.weights
            .iter()
            .fold((0.0, 0.0), |(nu, psi), &(n, p)| (nu + n, psi + p))
    }

    /// `Σ_p log π(Λ_p) / S` at `θ`.
    pub(crate) fn log_prior(&self, param: &Parametrisation, theta: ArrayView1<'_, f64>) -> f64 {
        if let Some(g) = &self.metric {
            return self.log_prior_in_metric(g, param, theta);
        }
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
        if let Some(g) = &self.metric {
            return self.add_gradient_in_metric(g, param, theta, scale, gradient);
        }
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

    /// Adds `scale · ∇² Σ_p log π(Λ_p) / S` at `θ` to `hessian` (diagonal in the identity
    /// metric).
    pub(crate) fn add_hessian(
        &self,
        param: &Parametrisation,
        theta: ArrayView1<'_, f64>,
        scale: f64,
        mut hessian: ArrayViewMut2<'_, f64>,
    ) {
        if let Some(g) = &self.metric {
            return self.add_hessian_in_metric(g, param, theta, scale, hessian);
        }
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

    /// [`Self::log_prior`] in the metric `G`.
    fn log_prior_in_metric(
        &self,
        g: &Array2<f64>,
        param: &Parametrisation,
        theta: ArrayView1<'_, f64>,
    ) -> f64 {
        let mut total = 0.0;
        self.for_each_factor(g, param, theta, |(nu, psi), start, l, h| {
            let log_det: f64 = (0..l.nrows()).map(|a| theta[entry(start, a, a)]).sum();
            total += nu * log_det - 0.5 * psi * (l * h).sum();
        });
        total
    }

    /// [`Self::add_gradient`] in the metric `G`.
    fn add_gradient_in_metric(
        &self,
        g: &Array2<f64>,
        param: &Parametrisation,
        theta: ArrayView1<'_, f64>,
        scale: f64,
        mut gradient: ArrayViewMut1<'_, f64>,
    ) {
        self.for_each_factor(g, param, theta, |(nu, psi), start, l, h| {
            for a in 0..l.nrows() {
                for b in 0..a {
                    gradient[entry(start, a, b)] -= scale * psi * h[[a, b]];
                }
                gradient[entry(start, a, a)] += scale * (nu - psi * h[[a, a]] * l[[a, a]]);
            }
        });
    }

    /// [`Self::add_hessian`] in the metric `G`: a block `−ψ G_{c.., c..}` per column `c` of each
    /// factor, with the chain rule of the log-diagonal ([module documentation](self)).
    fn add_hessian_in_metric(
        &self,
        g: &Array2<f64>,
        param: &Parametrisation,
        theta: ArrayView1<'_, f64>,
        scale: f64,
        mut hessian: ArrayViewMut2<'_, f64>,
    ) {
        self.for_each_factor(g, param, theta, |(_, psi), start, l, h| {
            let d = l.nrows();
            for c in 0..d {
                // ∂L̃_ac/∂θ: e^{ℓ̃_c} on the diagonal, 1 below it.
                let chain = |a: usize| if a == c { l[[c, c]] } else { 1.0 };
                for a in c..d {
                    for b in c..d {
                        let second = psi * g[[a, b]] * chain(a) * chain(b);
                        hessian[[entry(start, a, c), entry(start, b, c)]] -= scale * second;
                    }
                }
                let diagonal = entry(start, c, c);
                hessian[[diagonal, diagonal]] -= scale * psi * h[[c, c]] * l[[c, c]];
            }
        });
    }

    /// Calls `f((ν_p, ψ_p), start, L, G L)` for each precision `p`, its factor `L` stored in
    /// `θ` from `start`: the part the three functions in the metric `G` share.
    fn for_each_factor(
        &self,
        g: &Array2<f64>,
        param: &Parametrisation,
        theta: ArrayView1<'_, f64>,
        mut f: impl FnMut((f64, f64), usize, &Array2<f64>, &Array2<f64>),
    ) {
        for (p, block) in param.cholesky_blocks().enumerate() {
            let l = lower_factor(theta, block.start, param.n_features());
            let h = g.dot(&l);
            f(self.weights[p], block.start, &l, &h);
        }
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

/// The position in `θ` of entry `(a, b)`, `a ≥ b`, of the Cholesky factor stored from `start`
/// (row by row, the diagonal on the log scale).
fn entry(start: usize, a: usize, b: usize) -> usize {
    start + a * (a + 1) / 2 + b
}

/// The lower-triangular factor `L` (`d × d`) stored in `θ` from `start`.
fn lower_factor(theta: ArrayView1<'_, f64>, start: usize, d: usize) -> Array2<f64> {
    let mut l = Array2::zeros((d, d));
    for a in 0..d {
        for b in 0..a {
            l[[a, b]] = theta[entry(start, a, b)];
        }
        l[[a, a]] = theta[entry(start, a, a)].exp();
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{array, Array1};

    /// LDA and QDA's precision factors in 3-d, two classes, at an arbitrary `θ`.
    fn problem(family: Family) -> (Parametrisation, Array1<f64>) {
        let param = Parametrisation::new(family, 2, 3).unwrap();
        let theta = Array1::from_shape_fn(param.dim(), |j| 0.3 * ((j * 7 % 11) as f64 - 5.0) / 5.0);
        (param, theta)
    }

    fn prior(param: &Parametrisation) -> PrecisionPrior {
        let blocks = param.cholesky_blocks().count();
        PrecisionPrior {
            weights: (0..blocks)
                .map(|p| (0.2 + 0.1 * p as f64, 0.7 - 0.2 * p as f64))
                .collect(),
            metric: None,
        }
    }

    /// A lower-triangular map with a positive diagonal.
    fn factor() -> Array2<f64> {
        array![[1.3, 0.0, 0.0], [-0.4, 0.6, 0.0], [0.9, 0.2, 2.1]]
    }

    /// `θ` with every precision factor `L` replaced by `A⁻¹ L` (by forward substitution).
    fn mapped_theta(param: &Parametrisation, theta: &Array1<f64>, a: &Array2<f64>) -> Array1<f64> {
        let d = param.n_features();
        let mut mapped = theta.clone();
        for block in param.cholesky_blocks() {
            let l = lower_factor(theta.view(), block.start, d);
            let mut solved = Array2::<f64>::zeros((d, d));
            for c in 0..d {
                for r in 0..d {
                    let known: f64 = (0..r).map(|k| a[[r, k]] * solved[[k, c]]).sum();
                    solved[[r, c]] = (l[[r, c]] - known) / a[[r, r]];
                }
            }
            for r in 0..d {
                for c in 0..r {
                    mapped[entry(block.start, r, c)] = solved[[r, c]];
                }
                mapped[entry(block.start, r, r)] = solved[[r, r]].ln();
            }
        }
        mapped
    }

    /// On mapped inputs the prior is the original one up to a constant.
    #[test]
    fn the_mapped_prior_is_the_prior_of_the_mapped_factors() {
        for family in [Family::Lda, Family::Qda] {
            let (param, theta) = problem(family);
            let original = prior(&param);
            let mapped = original.on_mapped_inputs(factor().view());
            let shifted = theta.mapv(|v| 0.5 * v - 0.1);
            let difference = |t: &Array1<f64>| {
                mapped.log_prior(&param, mapped_theta(&param, t, &factor()).view())
                    - original.log_prior(&param, t.view())
            };
            let (at, elsewhere) = (difference(&theta), difference(&shifted));
            assert!(
                (at - elsewhere).abs() < 1e-12,
                "{family}: {at} vs {elsewhere}"
            );
            // The constant is −Σ_p ν_p ln det A.
            let log_det: f64 = factor().diag().iter().map(|v| v.ln()).sum();
            let nu: f64 = original.weights.iter().map(|w| w.0).sum();
            assert!((at + nu * log_det).abs() < 1e-12, "{family}: {at}");
        }
    }

    /// The gradient and Hessian in a metric are the derivatives of the value (central
    /// differences), and the metric `I` gives the separable prior's numbers.
    #[test]
    fn the_derivatives_in_a_metric_are_the_values_derivatives() {
        for family in [Family::Lda, Family::Qda] {
            let (param, theta) = problem(family);
            let dim = param.dim();
            let prior = prior(&param).on_mapped_inputs(factor().view());
            let gradient_at = |t: &Array1<f64>| {
                let mut g = Array1::zeros(dim);
                prior.add_gradient(&param, t.view(), 1.0, g.view_mut());
                g
            };
            let mut hessian = Array2::zeros((dim, dim));
            prior.add_hessian(&param, theta.view(), 1.0, hessian.view_mut());
            let gradient = gradient_at(&theta);
            let h = 1e-5;
            for j in 0..dim {
                let (mut up, mut down) = (theta.clone(), theta.clone());
                up[j] += h;
                down[j] -= h;
                let numeric = (prior.log_prior(&param, up.view())
                    - prior.log_prior(&param, down.view()))
                    / (2.0 * h);
                assert!(
                    (numeric - gradient[j]).abs() < 1e-7,
                    "{family} ∂_{j}: {numeric} vs {}",
                    gradient[j]
                );
                let column = (gradient_at(&up) - gradient_at(&down)) / (2.0 * h);
                for i in 0..dim {
                    assert!(
                        (column[i] - hessian[[i, j]]).abs() < 1e-6,
                        "{family} ∂²_{i}{j}: {} vs {}",
                        column[i],
                        hessian[[i, j]]
                    );
                }
            }
            // The identity metric reproduces the separable prior's value, gradient and Hessian.
            let separable = self::prior(&param);
            let identity = PrecisionPrior {
                metric: Some(Array2::eye(3)),
                ..separable.clone()
            };
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * (1.0 + b.abs());
            assert!(close(
                identity.log_prior(&param, theta.view()),
                separable.log_prior(&param, theta.view())
            ));
            let (mut g1, mut g2) = (Array1::zeros(dim), Array1::zeros(dim));
            identity.add_gradient(&param, theta.view(), -0.5, g1.view_mut());
            separable.add_gradient(&param, theta.view(), -0.5, g2.view_mut());
            assert!(
                g1.iter().zip(&g2).all(|(a, b)| close(*a, *b)),
                "{g1} vs {g2}"
            );
            let (mut h1, mut h2) = (Array2::zeros((dim, dim)), Array2::zeros((dim, dim)));
            identity.add_hessian(&param, theta.view(), -0.5, h1.view_mut());
            separable.add_hessian(&param, theta.view(), -0.5, h2.view_mut());
            assert!(h1.iter().zip(&h2).all(|(a, b)| close(*a, *b)));
        }
    }
}
