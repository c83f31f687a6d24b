//! The penalised negative log-likelihoods minimised by the logistic fits, as
//! [`gendisc_optim`] objectives.
//!
//! With sample weights `w_i`, total weight `W = Σ_i w_i` and ridge weights `λ_j` (`1/σ²` on
//! penalised coefficients, 0 elsewhere), the objective is
//!
//! ```text
//! f(θ) = (1/W) [ Σ_i w_i ℓ_i(θ) + ½ Σ_j λ_j θ_j² ]
//! ```
//!
//! where `ℓ_i = −log p(y_i | x_i; θ)`. The division by `W` changes nothing about the minimiser;
//! it makes the gradient-norm tolerance independent of the sample size.

use std::cell::RefCell;

use gendisc_core::numerics::{log1p_unit, log_sum_exp_view, Log1pSum};
use gendisc_optim::{Objective, TwiceDifferentiable};
use ndarray::{
    Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut1, ArrayViewMut2, Axis, CowArray, Ix2, Zip,
};

use super::design::{block, block_mut, Design};

/// What a binary objective knows at one `θ`: the linear predictor and `τ_i = exp(−|η_i|)`,
/// from which every quantity follows with one exponential per row:
///
/// * `ℓ_i = log(1 + exp(−s_i η_i)) = max(−s_i η_i, 0) + log1p(τ_i)`;
/// * `μ_i = σ(η_i) = 1/(1 + τ_i)` for `η_i ≥ 0`, `τ_i/(1 + τ_i)` otherwise;
/// * `μ_i (1 − μ_i) = τ_i / (1 + τ_i)²`,
///
/// all accurate in both tails (no `1 − μ` cancellation).
#[derive(Debug, Clone)]
struct BinaryPoint {
    theta: Array1<f64>,
    eta: Array1<f64>,
    tau: Array1<f64>,
    /// `Σ_i w_i ℓ_i`.
    loss: f64,
}

/// Binary logistic regression: one linear predictor `η_i = x̃_iᵀθ`,
/// `p(y = 1 | x) = σ(η)`, `ℓ_i = log(1 + exp(−s_i η_i))` with `s_i = ±1`.
///
/// The last point evaluated is cached: Newton's method evaluates the value at a trial point,
/// then the gradient and the Hessian at the same point once it is accepted.
pub(crate) struct BinaryObjective<'a> {
    design: Design<'a>,
    /// `s_i = 2 y_i − 1`.
    signs: Array1<f64>,
    weights: ArrayView1<'a, f64>,
    /// `1 / W`.
    scale: f64,
    /// `λ_j`, length `width`.
    ridge: Array1<f64>,
    last: RefCell<Option<BinaryPoint>>,
}

impl<'a> BinaryObjective<'a> {
    pub(crate) fn new(
        design: Design<'a>,
        y: ArrayView1<'_, usize>,
        weights: ArrayView1<'a, f64>,
        ridge: Array1<f64>,
    ) -> Self {
        Self {
            design,
            signs: y.mapv(|k| if k == 1 { 1.0 } else { -1.0 }),
            weights,
            scale: 1.0 / weights.sum(),
            ridge,
            last: RefCell::new(None),
        }
    }

    /// Runs `f` on the evaluation at `theta`, computing it unless it is the cached one.
    fn at<T>(&self, theta: ArrayView1<'_, f64>, f: impl FnOnce(&BinaryPoint) -> T) -> T {
        let mut last = self.last.borrow_mut();
        if !matches!(&*last, Some(p) if p.theta == theta) {
            let n = self.design.n_rows();
            let mut p = last.take().unwrap_or_else(|| BinaryPoint {
                theta: Array1::zeros(theta.len()),
                eta: Array1::zeros(n),
                tau: Array1::zeros(n),
                loss: f64::NAN,
            });
            p.theta.assign(&theta);
            self.design.linear_predictor(
                theta.insert_axis(Axis(0)),
                p.eta.view_mut().insert_axis(Axis(1)),
            );
            // Unit-weight rows, the usual case, share one logarithm (`Log1pSum`).
            let (mut unit_linear, mut unit_log1p, mut weighted) = (0.0, Log1pSum::new(), 0.0);
            for (((t, &e), &s), &w) in p
                .tau
                .iter_mut()
                .zip(&p.eta)
                .zip(&self.signs)
                .zip(&self.weights)
            {
                *t = (-e.abs()).exp();
                if w == 1.0 {
                    unit_linear += (-s * e).max(0.0);
                    unit_log1p.add(*t);
                } else {
                    weighted += w * ((-s * e).max(0.0) + log1p_unit(*t));
                }
            }
            p.loss = unit_linear + unit_log1p.value() + weighted;
            *last = Some(p);
        }
        f(last.as_ref().expect("just evaluated"))
    }

    /// `η = X̃θ`.
    pub(crate) fn linear_predictor(&self, theta: ArrayView1<'_, f64>) -> Array1<f64> {
        self.at(theta, |p| p.eta.clone())
    }

    /// `Σ_i w_i ℓ_i(θ)`: minus the weighted log-likelihood.
    pub(crate) fn negative_log_likelihood(&self, theta: ArrayView1<'_, f64>) -> f64 {
        self.at(theta, |p| p.loss)
    }

    fn penalty(&self, theta: ArrayView1<'_, f64>) -> f64 {
        0.5 * Zip::from(&theta)
            .and(&self.ridge)
            .fold(0.0, |acc, &t, &l| acc + l * t * t)
    }
}

impl Objective for BinaryObjective<'_> {
    fn dim(&self) -> usize {
        self.design.width()
    }

    fn value(&self, theta: ArrayView1<'_, f64>) -> f64 {
        self.scale * (self.negative_log_likelihood(theta) + self.penalty(theta))
    }

    fn value_and_gradient(
        &self,
        theta: ArrayView1<'_, f64>,
        mut gradient: ArrayViewMut1<'_, f64>,
    ) -> f64 {
        let (nll, residual) = self.at(theta, |p| {
            // w_i (μ_i − y_i) = w_i s_i (σ(s_i η_i) − 1) = −w_i s_i σ(−s_i η_i).
            let residual = Zip::from(&p.eta)
                .and(&p.tau)
                .and(&self.signs)
                .and(&self.weights)
                .map_collect(|&e, &t, &s, &w| {
                    let wrong = if s * e >= 0.0 {
                        t / (1.0 + t)
                    } else {
                        1.0 / (1.0 + t)
                    };
                    -w * s * wrong
                });
            (p.loss, residual)
        });
        self.design.transpose_product(
            residual.view().insert_axis(Axis(1)),
            gradient.view_mut().insert_axis(Axis(0)),
        );
        Zip::from(&mut gradient)
            .and(&theta)
            .and(&self.ridge)
            .for_each(|g, &t, &l| *g = self.scale * (*g + l * t));
        self.scale * (nll + self.penalty(theta))
    }
}

impl TwiceDifferentiable for BinaryObjective<'_> {
    fn hessian(&self, theta: ArrayView1<'_, f64>, mut hessian: ArrayViewMut2<'_, f64>) {
        let c = self.at(theta, |p| {
            Zip::from(&p.tau)
                .and(&self.weights)
                .map_collect(|&t, &w| w * t / ((1.0 + t) * (1.0 + t)))
        });
        self.design.weighted_gram(c.view(), hessian.view_mut());
        hessian
            .diag_mut()
            .zip_mut_with(&self.ridge, |h, &l| *h += l);
        hessian.mapv_inplace(|h| h * self.scale);
    }
}

/// Multinomial (softmax) logistic regression with `K` linear predictors
/// `η_ik = x̃_iᵀθ_k`, `p(y = k | x) = exp(η_k) / Σ_l exp(η_l)`.
///
/// The parameter vector is `Θ` (`K × width`) in row-major order. Coefficients of class 0 that
/// are not penalised are *pinned* at zero (their gradient is zero and their Hessian row the
/// identity), which removes the softmax's invariance to adding a constant to every `θ_k`
/// exactly where no penalty does.
///
/// As for the binary objective, the last point evaluated (its probabilities) is cached.
pub(crate) struct MultinomialObjective<'a> {
    design: Design<'a>,
    y: ArrayView1<'a, usize>,
    weights: ArrayView1<'a, f64>,
    n_classes: usize,
    scale: f64,
    ridge: Array1<f64>,
    last: RefCell<Option<MultinomialPoint>>,
}

/// The class probabilities (`n × K`) and `Σ_i w_i ℓ_i` at one `θ`.
#[derive(Debug, Clone)]
struct MultinomialPoint {
    theta: Array1<f64>,
    proba: Array2<f64>,
    negative_log_likelihood: f64,
}

impl<'a> MultinomialObjective<'a> {
    pub(crate) fn new(
        design: Design<'a>,
        y: ArrayView1<'a, usize>,
        weights: ArrayView1<'a, f64>,
        n_classes: usize,
        ridge: Array1<f64>,
    ) -> Self {
        Self {
            design,
            y,
            weights,
            n_classes,
            scale: 1.0 / weights.sum(),
            ridge,
            last: RefCell::new(None),
        }
    }

    /// Runs `f` on the evaluation at `theta`, computing it unless it is the cached one.
    fn at<T>(&self, theta: ArrayView1<'_, f64>, f: impl FnOnce(&MultinomialPoint) -> T) -> T {
        let mut last = self.last.borrow_mut();
        if !matches!(&*last, Some(p) if p.theta == theta) {
            let mut proba = self.linear_predictor(self.as_matrix(theta).view());
            let negative_log_likelihood = self.softmax_in_place(&mut proba);
            *last = Some(MultinomialPoint {
                theta: theta.to_owned(),
                proba,
                negative_log_likelihood,
            });
        }
        f(last.as_ref().expect("just evaluated"))
    }

    /// `Σ_i w_i ℓ_i(θ)`: minus the weighted log-likelihood.
    pub(crate) fn negative_log_likelihood(&self, theta: ArrayView1<'_, f64>) -> f64 {
        self.at(theta, |p| p.negative_log_likelihood)
    }

    /// `Θ` as a `K × width` matrix.
    pub(crate) fn as_matrix<'t>(&self, theta: ArrayView1<'t, f64>) -> CowArray<'t, f64, Ix2> {
        let shape = (self.n_classes, self.design.width());
        match theta.into_shape_with_order(shape) {
            Ok(view) => view.into(),
            Err(_) => theta
                .to_owned()
                .into_shape_with_order(shape)
                .expect("length K · width")
                .into(),
        }
    }

    /// `η = X̃Θᵀ` (`n × K`).
    pub(crate) fn linear_predictor(&self, theta: ArrayView2<'_, f64>) -> Array2<f64> {
        let mut eta = Array2::zeros((self.design.n_rows(), self.n_classes));
        self.design.linear_predictor(theta, eta.view_mut());
        eta
    }

    /// Replaces `η` by the class probabilities and returns `Σ_i w_i ℓ_i`.
    fn softmax_in_place(&self, eta: &mut Array2<f64>) -> f64 {
        let mut nll = 0.0;
        for ((mut row, &k), &w) in eta.outer_iter_mut().zip(&self.y).zip(&self.weights) {
            let lse = log_sum_exp_view(row.view());
            nll += w * (lse - row[k]);
            row.mapv_inplace(|e| (e - lse).exp());
        }
        nll
    }

    /// Whether class 0's coefficient `j` is pinned at zero.
    pub(crate) fn is_pinned(&self, j: usize) -> bool {
        self.ridge[j] == 0.0
    }

    fn penalty(&self, theta: ArrayView2<'_, f64>) -> f64 {
        0.5 * theta
            .outer_iter()
            .map(|row| {
                Zip::from(&row)
                    .and(&self.ridge)
                    .fold(0.0, |acc, &t, &l| acc + l * t * t)
            })
            .sum::<f64>()
    }
}

impl Objective for MultinomialObjective<'_> {
    fn dim(&self) -> usize {
        self.n_classes * self.design.width()
    }

    fn value(&self, theta: ArrayView1<'_, f64>) -> f64 {
        let nll = self.negative_log_likelihood(theta);
        self.scale * (nll + self.penalty(self.as_matrix(theta).view()))
    }

    fn value_and_gradient(
        &self,
        theta: ArrayView1<'_, f64>,
        mut gradient: ArrayViewMut1<'_, f64>,
    ) -> f64 {
        let (nll, mut residual) = self.at(theta, |p| (p.negative_log_likelihood, p.proba.clone()));
        let theta = self.as_matrix(theta);
        // R_ik = w_i (p_ik − 1{y_i = k}).
        for ((mut row, &k), &w) in residual.outer_iter_mut().zip(&self.y).zip(&self.weights) {
            row[k] -= 1.0;
            row *= w;
        }
        let width = self.design.width();
        let mut g = gradient
            .view_mut()
            .into_shape_with_order((self.n_classes, width))
            .expect("the solver's gradient buffer is contiguous");
        self.design.transpose_product(residual.view(), g.view_mut());
        Zip::from(g.rows_mut())
            .and(theta.rows())
            .for_each(|mut gk, tk| {
                Zip::from(&mut gk)
                    .and(&tk)
                    .and(&self.ridge)
                    .for_each(|g, &t, &l| *g = self.scale * (*g + l * t));
            });
        for j in (0..width).filter(|&j| self.is_pinned(j)) {
            g[[0, j]] = 0.0;
        }
        self.scale * (nll + self.penalty(theta.view()))
    }
}

impl TwiceDifferentiable for MultinomialObjective<'_> {
    fn hessian(&self, theta: ArrayView1<'_, f64>, mut hessian: ArrayViewMut2<'_, f64>) {
        let p = self.at(theta, |p| p.proba.clone());
        let width = self.design.width();
        let mut c = Array1::zeros(self.design.n_rows());
        // Block (k, l) is X̃ᵀ diag(w ⊙ (p_k δ_kl − p_k ⊙ p_l)) X̃.
        for k in 0..self.n_classes {
            for l in k..self.n_classes {
                Zip::from(&mut c)
                    .and(p.column(k))
                    .and(p.column(l))
                    .and(&self.weights)
                    .for_each(|c, &pk, &pl, &w| {
                        *c = w * (if k == l { pk } else { 0.0 } - pk * pl);
                    });
                let (rk, rl) = (k * width..(k + 1) * width, l * width..(l + 1) * width);
                self.design.weighted_gram(
                    c.view(),
                    block_mut(hessian.view_mut(), rk.clone(), rl.clone()),
                );
                if k != l {
                    let upper = block(hessian.view(), rk.clone(), rl.clone()).t().to_owned();
                    block_mut(hessian.view_mut(), rl, rk).assign(&upper);
                } else {
                    block_mut(hessian.view_mut(), rk.clone(), rk)
                        .diag_mut()
                        .zip_mut_with(&self.ridge, |h, &l| *h += l);
                }
            }
        }
        hessian.mapv_inplace(|h| h * self.scale);
        for j in (0..width).filter(|&j| self.is_pinned(j)) {
            hessian.row_mut(j).fill(0.0);
            hessian.column_mut(j).fill(0.0);
            hessian[[j, j]] = 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::design::Features;
    use super::*;
    use ndarray::array;
    use proptest::prelude::*;

    fn x() -> Array2<f64> {
        array![
            [0.5, -1.0],
            [1.5, 0.3],
            [-0.7, 2.0],
            [0.0, 0.1],
            [2.2, -0.4],
            [-1.3, -1.1]
        ]
    }

    /// Central-difference check of gradient and Hessian, except at the `pinned` coordinates
    /// (whose gradient and Hessian row are zeroed by construction).
    fn check_derivatives<P: TwiceDifferentiable>(p: &P, theta: Array1<f64>, pinned: &[usize]) {
        let n = p.dim();
        let g = p.gradient(theta.view());
        let mut h = Array2::zeros((n, n));
        p.hessian(theta.view(), h.view_mut());
        let step = 1e-6;
        for j in (0..n).filter(|j| !pinned.contains(j)) {
            let (mut up, mut down) = (theta.clone(), theta.clone());
            up[j] += step;
            down[j] -= step;
            let fd = (p.value(up.view()) - p.value(down.view())) / (2.0 * step);
            assert!((fd - g[j]).abs() < 1e-7, "∂f/∂θ{j}: {fd} vs {}", g[j]);
            let gd = (p.gradient(up.view()) - p.gradient(down.view())) / (2.0 * step);
            for i in (0..n).filter(|i| !pinned.contains(i)) {
                assert!(
                    (gd[i] - h[[i, j]]).abs() < 1e-6,
                    "H[{i},{j}]: {} vs {}",
                    gd[i],
                    h[[i, j]]
                );
            }
        }
        for &j in pinned {
            assert_eq!(g[j], 0.0);
            assert_eq!(h[[j, j]], 1.0);
            assert!((0..n)
                .filter(|&i| i != j)
                .all(|i| h[[i, j]] == 0.0 && h[[j, i]] == 0.0));
        }
    }

    proptest! {
        #[test]
        fn binary_derivatives(theta in prop::collection::vec(-2.0f64..2.0, 3),
                              w in prop::collection::vec(0.0f64..2.0, 6),
                              lambda in 0.0f64..3.0) {
            let x = x();
            let y = array![0, 1, 1, 0, 1, 0];
            let w = Array1::from(w) + 0.01;
            let design = Design::new(Features::Dense(x.view()), true);
            let obj = BinaryObjective::new(design, y.view(), w.view(), array![lambda, lambda, 0.0]);
            check_derivatives(&obj, Array1::from(theta), &[]);
        }

        #[test]
        fn multinomial_derivatives(theta in prop::collection::vec(-2.0f64..2.0, 9),
                                   lambda in prop_oneof![Just(0.0), 0.1f64..3.0]) {
            let x = x();
            let y = array![0, 1, 2, 0, 1, 2];
            let w = Array1::from_elem(6, 1.0);
            let design = Design::new(Features::Dense(x.view()), true);
            let obj = MultinomialObjective::new(design, y.view(), w.view(), 3, array![lambda, lambda, 0.0]);
            let pinned: Vec<usize> = (0..3).filter(|&j| obj.is_pinned(j)).collect();
            let mut theta = Array1::from(theta);
            for &j in &pinned {
                theta[j] = 0.0;
            }
            check_derivatives(&obj, theta, &pinned);
        }
    }

    /// With K = 2 and class 0 pinned, the softmax is the binary model with θ = θ₁.
    #[test]
    fn two_class_softmax_is_the_binary_model() {
        let x = x();
        let y = array![0, 1, 1, 0, 1, 0];
        let w = array![1.0, 2.0, 0.5, 1.0, 1.0, 3.0];
        let design = Design::new(Features::Dense(x.view()), true);
        let binary = BinaryObjective::new(design, y.view(), w.view(), Array1::zeros(3));
        let multi = MultinomialObjective::new(design, y.view(), w.view(), 2, Array1::zeros(3));
        let theta1 = array![0.3, -0.8, 0.2];
        let full = ndarray::concatenate![Axis(0), Array1::zeros(3), theta1];
        let (gb, gm) = (binary.gradient(theta1.view()), multi.gradient(full.view()));
        assert!((binary.value(theta1.view()) - multi.value(full.view())).abs() < 1e-14);
        assert!(gb
            .iter()
            .zip(gm.iter().skip(3))
            .all(|(a, b)| (a - b).abs() < 1e-14));
    }
}
