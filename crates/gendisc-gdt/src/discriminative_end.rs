//! The discriminative end (`λ = 0`) fitted where its maximiser lives: in the induced
//! multinomial-logistic coefficients, then mapped back to `θ`.
//!
//! At `λ = 0` the objective depends on `θ` only through the induced coefficients `β`
//! ([`crate::existence`]), so in `θ` it is flat along every direction that leaves `β` unchanged:
//! for QDA, `d(d+1)/2` directions per class. Newton's method in `θ` then crawls along a
//! singular Hessian. In `β` the same problem is a convex multinomial logistic regression
//! (Albert & Anderson's setting), which trust-region Newton solves in a few steps wherever the
//! certificate has shown that a maximiser exists. The maximiser `β̂` is mapped to a `θ̂` that
//! induces it, keeping what `β` does not determine (class 0's mean and, as far as positive
//! definiteness allows, its precision) at the starting point:
//!
//! | family | `θ̂` from `β̂ = (a_k, b_k, …)` against class 0 |
//! |---|---|
//! | LDA, shared diagonal | `Λ` kept; `μ_k = μ_0 + Λ⁻¹ b_k` |
//! | QDA | `Λ_k = Λ_0 + tI − 2Q_k` (`Q_k` the quadratic coefficients, `t ≥ 0` the least shift that keeps every `Λ_k` positive definite); `μ_k = Λ_k⁻¹(b_k + Λ_0 μ_0)` |
//! | Balls1 | `1/σ_k² = 1/σ_0² + t − 2r_k` (`r_k` the coefficient of `‖x‖²`); `μ_k = σ_k² (b_k + μ_0/σ_0²)` |
//!
//! and the prior logits make up the intercepts `a_k`. That needs the priors to be estimated;
//! with fixed priors only LDA and the shared diagonal with two classes are mapped (by moving
//! `μ_0` along `b_1`, which changes the intercept and nothing else). Elsewhere, and for Balls2,
//! the fit runs in `θ` as at any other `λ`.

use ndarray::{s, Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut1, ArrayViewMut2, Axis};

use gendisc_core::numerics::log_softmax_in_place;
use gendisc_core::Result;
use gendisc_optim::{Convergence, Method, Minimizer, Objective, Solution, TwiceDifferentiable};

use crate::existence::induced_features;
use crate::family::Parametrisation;

/// The mean weighted multinomial-logistic loss in the induced features, over the coefficients
/// of classes `1 … K−1` (class 0's are zero), laid out class by class.
struct InducedLogistic<'a> {
    z: Array2<f64>,
    y: ArrayView1<'a, usize>,
    weights: Option<ArrayView1<'a, f64>>,
    total_weight: f64,
    n_classes: usize,
}

impl InducedLogistic<'_> {
    fn weight(&self, i: usize) -> f64 {
        self.weights.map_or(1.0, |w| w[i])
    }

    /// The log-probabilities `log p(k | z_i)` (`n × K`) under the coefficients `beta`.
    fn log_proba(&self, beta: ArrayView1<'_, f64>) -> Array2<f64> {
        let q = self.z.ncols();
        let mut eta = Array2::zeros((self.z.nrows(), self.n_classes));
        for k in 1..self.n_classes {
            let b = beta.slice(s![(k - 1) * q..k * q]);
            eta.column_mut(k).assign(&self.z.dot(&b));
        }
        for row in eta.axis_iter_mut(Axis(0)) {
            log_softmax_in_place(row);
        }
        eta
    }
}

impl Objective for InducedLogistic<'_> {
    fn dim(&self) -> usize {
        (self.n_classes - 1) * self.z.ncols()
    }

    fn value(&self, beta: ArrayView1<'_, f64>) -> f64 {
        let lp = self.log_proba(beta);
        let total: f64 = (0..lp.nrows())
            .map(|i| self.weight(i) * lp[[i, self.y[i]]])
            .sum();
        -total / self.total_weight
    }

    fn value_and_gradient(
        &self,
        beta: ArrayView1<'_, f64>,
        mut gradient: ArrayViewMut1<'_, f64>,
    ) -> f64 {
        let lp = self.log_proba(beta);
        let q = self.z.ncols();
        gradient.fill(0.0);
        let mut total = 0.0;
        for (i, z) in self.z.outer_iter().enumerate() {
            let s = self.weight(i);
            if s == 0.0 {
                continue;
            }
            total += s * lp[[i, self.y[i]]];
            for k in 1..self.n_classes {
                let indicator = if self.y[i] == k { 1.0 } else { 0.0 };
                let r = s * (lp[[i, k]].exp() - indicator);
                let mut g = gradient.slice_mut(s![(k - 1) * q..k * q]);
                g.scaled_add(r, &z);
            }
        }
        gradient.mapv_inplace(|g| g / self.total_weight);
        -total / self.total_weight
    }
}

impl TwiceDifferentiable for InducedLogistic<'_> {
    fn hessian(&self, beta: ArrayView1<'_, f64>, mut hessian: ArrayViewMut2<'_, f64>) {
        let lp = self.log_proba(beta);
        let q = self.z.ncols();
        hessian.fill(0.0);
        for (i, z) in self.z.outer_iter().enumerate() {
            let s = self.weight(i);
            if s == 0.0 {
                continue;
            }
            for k in 1..self.n_classes {
                let pk = lp[[i, k]].exp();
                for l in k..self.n_classes {
                    let pl = lp[[i, l]].exp();
                    let c = s * (if k == l { pk } else { 0.0 } - pk * pl);
                    if c == 0.0 {
                        continue;
                    }
                    for a in 0..q {
                        let za = c * z[a];
                        if za == 0.0 {
                            continue;
                        }
                        let row = (k - 1) * q + a;
                        for b in 0..q {
                            hessian[[row, (l - 1) * q + b]] += za * z[b];
                        }
                    }
                }
            }
        }
        // Fill the lower blocks from the upper ones, and scale.
        let p = hessian.nrows();
        for r in 0..p {
            for c in 0..r {
                hessian[[r, c]] = hessian[[c, r]];
            }
        }
        hessian.mapv_inplace(|h| h / self.total_weight);
    }
}

/// A fit of the multinomial logistic regression in the induced features at `λ = 0`.
pub(crate) struct InducedFit {
    /// The induced features of the training rows (`n × q`).
    pub(crate) z: Array2<f64>,
    /// The coefficients, `K × q`, class 0's zero.
    pub(crate) beta: Array2<f64>,
    /// Whether it met the estimator's own gradient tolerance (it is run to a tighter one).
    pub(crate) reached: bool,
    solution: Solution,
}

impl InducedFit {
    /// The fit mapped back to a `θ` that induces it, the free parts taken from `start`, with
    /// its report; `None` where it did not reach the estimator's tolerance or the map gives no
    /// finite `θ`.
    pub(crate) fn mapped_back(
        self,
        param: &Parametrisation,
        start: ArrayView1<'_, f64>,
    ) -> Option<(Array1<f64>, Solution)> {
        if !self.reached {
            return None;
        }
        map_back(param, start, self.beta.view()).map(|theta| (theta, self.solution))
    }
}

/// Fits the induced multinomial logistic regression at `λ = 0` from zero coefficients, where
/// the family and priors map its coefficients back to `θ` ([module documentation](self));
/// `None` elsewhere (and for Balls2).
pub(crate) fn fit_induced<'a>(
    param: &Parametrisation,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'a, usize>,
    weights: Option<ArrayView1<'a, f64>>,
    method: &Method,
) -> Result<Option<InducedFit>> {
    let (family, k) = (param.family(), param.n_classes());
    if !family.densities().maps_back(param.priors(), k) {
        return Ok(None);
    }
    let Some(z) = induced_features(family, x) else {
        return Ok(None);
    };
    let q = z.ncols();
    let problem = InducedLogistic {
        total_weight: weights.map_or(x.nrows() as f64, |w| w.sum()),
        z,
        y,
        weights,
        n_classes: k,
    };
    // Mapped back, the induced gradient is multiplied by the transpose of the map's Jacobian,
    // whose entries grow with θ (QDA's are products of the precision factor's): an induced fit
    // just inside the estimator's tolerance can land outside it in θ. So the induced problem,
    // convex and cheap, is solved to a tolerance 10⁴ times tighter, and accepted if it reached
    // the estimator's own.
    let dim = problem.dim();
    let tolerance = method.gradient_tolerance(dim);
    let solution = method
        .with_gradient_tolerance(dim, tolerance * 1e-4)
        .minimize(&problem, Array1::zeros(dim).view())?;
    let report = &solution.report;
    let reached = report.is_converged()
        || solution.gradient_norm() <= tolerance * report.value.abs().max(1.0);
    let beta = Array2::from_shape_fn((k, q), |(c, j)| {
        if c == 0 {
            0.0
        } else {
            solution.x[(c - 1) * q + j]
        }
    });
    Ok(Some(InducedFit {
        z: problem.z,
        beta,
        reached,
        solution,
    }))
}

/// `θ` inducing the coefficients `beta` (`K × q`, row 0 zero), the free parts taken from
/// `start` (see the [module documentation](self)), if finite.
fn map_back(
    param: &Parametrisation,
    start: ArrayView1<'_, f64>,
    beta: ArrayView2<'_, f64>,
) -> Option<Array1<f64>> {
    let theta = param.densities().map_back(param, start, beta)?;
    theta.iter().all(|v| v.is_finite()).then_some(theta)
}
