//! The multi-class form of the hybrid (Fujino, Ueda & Saito 2007; Xue & Titterington §2.4),
//!
//! ```text
//! p(y | x) = exp(μ_y) Π_r p(x^r | y)^{λ_r} / Σ_k exp(μ_k) Π_r p(x^r | y = k)^{λ_r},
//! λ_r = θ_r s_r   (s_r = 1/n_r normalized, 1 unnormalized),
//! ```
//!
//! fitted by maximum conditional likelihood with Newton's method.
//!
//! In terms of the contrasts `c_irk` of [`features`](crate::features) the log-odds of class `k`
//! against class 0 are linear in the parameters, `η_ik = a_ik + μ_k + Σ_r θ_r c_irk`
//! (`η_i0 = 0`, `a_ik` the fixed prior offsets when the intercept is not fitted): a
//! multinomial logit model, whose negative log-likelihood is convex in `β = (μ_1 … μ_{K−1},
//! θ)`. `μ_0 = 0` fixes the softmax's invariance to a common shift. Writing `φ_ik` for the
//! coefficient vector of `η_ik` (`φ_i0 = 0`) and `p_ik` for the fitted probabilities, the
//! objective, gradient and Hessian are
//!
//! ```text
//! f(β)  = (1/W) [ Σ_i w_i (log Σ_k e^{η_ik} − η_{i y_i}) + ½ Σ_r θ_r² / σ² ]
//! ∇f    = (1/W) [ Σ_i w_i (Σ_k p_ik φ_ik − φ_{i y_i}) + θ / σ² ]
//! ∇²f   = (1/W) [ Σ_i w_i (Σ_k p_ik φ_ik φ_ikᵀ − φ̄_i φ̄_iᵀ) + I_θ / σ² ],   φ̄_i = Σ_k p_ik φ_ik,
//! ```
//!
//! the same scaling as [`LogisticRegression`](gendisc_discriminative::logistic), so that a
//! tolerance means the same in both. For two classes this is exactly the logistic regression
//! of `y` on `b` (with an offset when the intercept is fixed).

use std::cell::RefCell;

use ndarray::{Array2, ArrayView1, ArrayView2, ArrayView3, ArrayViewMut1, ArrayViewMut2, Axis};

use gendisc_core::Result;
use gendisc_discriminative::logistic::separation::MarginRange;
use gendisc_optim::{
    newton_direction, Newton, NewtonSettings, Objective, Solution, TwiceDifferentiable,
};

/// The conditional negative log-likelihood of the multi-class hybrid as a
/// [`gendisc_optim`] objective.
///
/// The design is stored by columns: parameter `j`'s coefficients `φ_ik[j]` over all `(i, k)`,
/// `k ≥ 1`, are contiguous. An evaluation is then `m` vectorised passes for the log-odds and one
/// exponential and one logarithm per row (per class other than the row's largest, for `K > 2`);
/// the gradient and the Hessian are (weighted) dot products of columns.
pub(crate) struct MulticlassObjective<'a> {
    n_rows: usize,
    /// `K − 1`.
    n_contrasts: usize,
    /// The number of parameters `m`.
    dim: usize,
    /// Column `j` is `columns[j N .. (j + 1) N]`, `N = n (K − 1)`, entry `(i, k)` at
    /// `i (K − 1) + k − 1`.
    columns: Vec<f64>,
    /// `a_ik` in the same `(i, k)` order, when the intercept is fixed.
    offsets: Option<Vec<f64>>,
    y: ArrayView1<'a, usize>,
    /// `w_i` (ones when unweighted).
    weights: Vec<f64>,
    /// `1 / W`.
    scale: f64,
    /// `1/σ²` on each region weight, 0 on the intercepts.
    ridge: Vec<f64>,
    /// The evaluation at the last `β`: Newton evaluates the value at a trial point, then the
    /// gradient and Hessian there.
    cache: RefCell<Evaluation>,
}

/// What an evaluation leaves behind.
struct Evaluation {
    beta: Option<Vec<f64>>,
    /// `η_ik`, then overwritten by `p_ik − 1{y_i = k}`, for `k ≥ 1` in the `(i, k)` order: the
    /// residuals of the gradient. For two classes they are computed from `e^{−|η|}` without
    /// the cancellation of `p − 1` in a confident row.
    residual: Vec<f64>,
    /// `K > 2`: `p_ik` (`k ≥ 1`, same order); two classes: `p_i1 (1 − p_i1) =
    /// e^{−|η|} / (1 + e^{−|η|})²`, accurate in both tails.
    curvature: Vec<f64>,
    /// `Σ_i w_i ℓ_i`.
    loss: f64,
}

impl<'a> MulticlassObjective<'a> {
    /// The objective on the contrasts of the `active` (non-aliased) regions, `n × R × (K − 1)`.
    pub(crate) fn new(
        contrasts: ArrayView3<'_, f64>,
        active: &[usize],
        offsets: Option<ArrayView2<'_, f64>>,
        y: ArrayView1<'a, usize>,
        weights: Option<ArrayView1<'_, f64>>,
        fit_intercepts: bool,
        prior_variance: Option<f64>,
    ) -> Self {
        let (n, _, n_contrasts) = contrasts.dim();
        let n_intercepts = if fit_intercepts { n_contrasts } else { 0 };
        let dim = n_intercepts + active.len();
        let entries = n * n_contrasts;
        let mut columns = vec![0.0; dim * entries];
        for k in 0..n_intercepts {
            let column = &mut columns[k * entries..(k + 1) * entries];
            column
                .iter_mut()
                .skip(k)
                .step_by(n_contrasts)
                .for_each(|v| *v = 1.0);
        }
        for (a, &r) in active.iter().enumerate() {
            let column =
                &mut columns[(n_intercepts + a) * entries..(n_intercepts + a + 1) * entries];
            for (v, &c) in column
                .iter_mut()
                .zip(contrasts.index_axis(Axis(1), r).iter())
            {
                *v = c;
            }
        }
        let weights: Vec<f64> = match weights {
            Some(w) => w.to_vec(),
            None => vec![1.0; n],
        };
        let mut ridge = vec![0.0; dim];
        if let Some(v) = prior_variance {
            ridge[n_intercepts..].fill(1.0 / v);
        }
        Self {
            n_rows: n,
            n_contrasts,
            dim,
            columns,
            offsets: offsets.map(|o| o.iter().copied().collect()),
            y,
            scale: 1.0 / weights.iter().sum::<f64>(),
            weights,
            ridge,
            cache: RefCell::new(Evaluation {
                beta: None,
                residual: vec![0.0; entries],
                curvature: vec![0.0; entries],
                loss: 0.0,
            }),
        }
    }

    /// The rows' weights.
    pub(crate) fn weights(&self) -> ArrayView1<'_, f64> {
        ArrayView1::from(&self.weights[..])
    }

    /// The rows' classes.
    pub(crate) fn labels(&self) -> ArrayView1<'_, usize> {
        self.y.view()
    }

    pub(crate) fn n_classes(&self) -> usize {
        self.n_contrasts + 1
    }

    fn entries(&self) -> usize {
        self.n_rows * self.n_contrasts
    }

    fn column(&self, j: usize) -> &[f64] {
        let entries = self.entries();
        &self.columns[j * entries..(j + 1) * entries]
    }

    /// `Φ β`: the log-odds against class 0 without the offsets, in the `(i, k)` order.
    fn linear_predictor(&self, beta: &[f64], out: &mut [f64]) {
        out.fill(0.0);
        for (j, &b) in beta.iter().enumerate() {
            for (o, &c) in out.iter_mut().zip(self.column(j)) {
                *o += b * c;
            }
        }
    }

    /// The fitted log-odds `η_ik − η_i0` of every row without the offsets, `n × (K − 1)`.
    pub(crate) fn linear_part(&self, beta: ArrayView1<'_, f64>) -> Array2<f64> {
        let mut out = vec![0.0; self.entries()];
        self.linear_predictor(&beta.to_vec(), &mut out);
        Array2::from_shape_vec((self.n_rows, self.n_contrasts), out).expect("n (K − 1) entries")
    }

    /// The largest Euclidean norm of a `φ_ik`.
    pub(crate) fn max_row_norm(&self) -> f64 {
        let mut squares = vec![0.0; self.entries()];
        for j in 0..self.dim {
            for (s, &c) in squares.iter_mut().zip(self.column(j)) {
                *s += c * c;
            }
        }
        squares.into_iter().fold(0.0, f64::max).sqrt()
    }

    /// Runs `f` on the evaluation at `beta`, computing it unless it is the cached one.
    fn at<T>(&self, beta: ArrayView1<'_, f64>, f: impl FnOnce(&Evaluation) -> T) -> T {
        let beta = beta.as_slice().expect("solvers pass contiguous parameters");
        let mut e = self.cache.borrow_mut();
        if e.beta.as_deref() != Some(beta) {
            let e = &mut *e;
            self.linear_predictor(beta, &mut e.residual);
            if let Some(offsets) = &self.offsets {
                e.residual
                    .iter_mut()
                    .zip(offsets)
                    .for_each(|(r, a)| *r += a);
            }
            e.loss = if self.n_contrasts == 1 {
                self.binary_softmax(&mut e.residual, &mut e.curvature)
            } else {
                self.softmax(&mut e.residual, &mut e.curvature)
            };
            e.beta = Some(beta.to_vec());
        }
        f(&e)
    }

    /// Two classes: `η_i` → the residual `p_i1 − y_i` in place and `p_i1 (1 − p_i1)` into
    /// `curvature`; returns `Σ_i w_i ℓ_i` with `ℓ_i = max(η_i, 0) + log(1 + e^{−|η_i|}) − y_i η_i`.
    /// One exponential and one logarithm per row, every quantity accurate in both tails.
    fn binary_softmax(&self, eta: &mut [f64], curvature: &mut [f64]) -> f64 {
        let mut loss = 0.0;
        for (((r, c), &w), &label) in eta
            .iter_mut()
            .zip(curvature.iter_mut())
            .zip(&self.weights)
            .zip(&self.y)
        {
            let e = *r;
            let t = (-e.abs()).exp();
            let one_plus = 1.0 + t;
            let own = if label == 1 { e } else { 0.0 };
            loss += w * (e.max(0.0) + one_plus.ln() - own);
            // σ(η) and 1 − σ(η), each without subtracting from 1.
            let (p1, p0) = if e >= 0.0 {
                (1.0 / one_plus, t / one_plus)
            } else {
                (t / one_plus, 1.0 / one_plus)
            };
            *r = if label == 1 { -p0 } else { p1 };
            *c = t / (one_plus * one_plus);
        }
        loss
    }

    /// `K > 2`: each row's `η_ik` → `p_ik − 1{y_i = k}` in place, `p_ik` into `proba` (`k ≥ 1`);
    /// returns `Σ_i w_i ℓ_i`, by a log-sum-exp shifted by the row's maximum (whose class costs
    /// no exponential).
    fn softmax(&self, eta: &mut [f64], proba: &mut [f64]) -> f64 {
        let mut loss = 0.0;
        for (((row, p_row), &w), &label) in eta
            .chunks_exact_mut(self.n_contrasts)
            .zip(proba.chunks_exact_mut(self.n_contrasts))
            .zip(&self.weights)
            .zip(&self.y)
        {
            let max = row.iter().fold(0.0_f64, |m, &v| m.max(v));
            let own = if label == 0 { 0.0 } else { row[label - 1] } - max;
            // Class 0 has η = 0; when it is maximal, its term is exactly 1 and no other class
            // is treated as the maximum.
            let mut sum = (-max).exp();
            let mut top_found = max == 0.0;
            for (v, p) in row.iter().zip(p_row.iter_mut()) {
                *p = if !top_found && *v == max {
                    top_found = true;
                    1.0
                } else {
                    (*v - max).exp()
                };
                sum += *p;
            }
            loss += w * (sum.ln() - own);
            let inverse = 1.0 / sum;
            for (k, (r, p)) in row.iter_mut().zip(p_row.iter_mut()).enumerate() {
                *p *= inverse;
                *r = *p - f64::from(u8::from(label == k + 1));
            }
        }
        loss
    }

    /// `Σ_i w_i log p(y_i | x_i)` at `beta` (no penalty).
    pub(crate) fn log_likelihood(&self, beta: ArrayView1<'_, f64>) -> f64 {
        -self.at(beta, |e| e.loss)
    }

    fn penalty(&self, beta: ArrayView1<'_, f64>) -> f64 {
        0.5 * beta
            .iter()
            .zip(&self.ridge)
            .map(|(b, l)| l * b * b)
            .sum::<f64>()
    }
}

impl Objective for MulticlassObjective<'_> {
    fn dim(&self) -> usize {
        self.dim
    }

    fn value(&self, beta: ArrayView1<'_, f64>) -> f64 {
        self.scale * (self.at(beta, |e| e.loss) + self.penalty(beta))
    }

    fn value_and_gradient(
        &self,
        beta: ArrayView1<'_, f64>,
        mut gradient: ArrayViewMut1<'_, f64>,
    ) -> f64 {
        let loss = self.at(beta, |e| {
            // w_i (p_ik − 1{y_i = k}) in the (i, k) order.
            let weighted: Vec<f64> = e
                .residual
                .chunks_exact(self.n_contrasts)
                .zip(&self.weights)
                .flat_map(|(row, &w)| row.iter().map(move |r| w * r))
                .collect();
            for (j, g) in gradient.iter_mut().enumerate() {
                *g = dot(self.column(j), &weighted);
            }
            e.loss
        });
        for (j, g) in gradient.iter_mut().enumerate() {
            *g = self.scale * (*g + self.ridge[j] * beta[j]);
        }
        self.scale * (loss + self.penalty(beta))
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

impl TwiceDifferentiable for MulticlassObjective<'_> {
    fn hessian(&self, beta: ArrayView1<'_, f64>, mut hessian: ArrayViewMut2<'_, f64>) {
        let m = self.dim;
        self.at(beta, |e| {
            if self.n_contrasts == 1 {
                // Σ_k p_k φ_k φ_kᵀ − φ̄ φ̄ᵀ = p_1 (1 − p_1) φ_1 φ_1ᵀ: a weighted Gram matrix.
                let c: Vec<f64> = e
                    .curvature
                    .iter()
                    .zip(&self.weights)
                    .map(|(&v, &w)| w * v)
                    .collect();
                for a in 0..m {
                    let weighted: Vec<f64> =
                        self.column(a).iter().zip(&c).map(|(x, c)| x * c).collect();
                    for b in 0..=a {
                        hessian[[a, b]] = dot(&weighted, self.column(b));
                    }
                }
            } else {
                // Σ_ik w_i p_ik φ_ik[a] φ_ik[b] − Σ_i w_i φ̄_i[a] φ̄_i[b], φ̄_i = Σ_k p_ik φ_ik.
                let proba = &e.curvature;
                let wp: Vec<f64> = proba
                    .chunks_exact(self.n_contrasts)
                    .zip(&self.weights)
                    .flat_map(|(row, &w)| row.iter().map(move |p| w * p))
                    .collect();
                let means: Vec<Vec<f64>> = (0..m)
                    .map(|a| {
                        self.column(a)
                            .chunks_exact(self.n_contrasts)
                            .zip(proba.chunks_exact(self.n_contrasts))
                            .map(|(phi, p)| dot(phi, p))
                            .collect()
                    })
                    .collect();
                for a in 0..m {
                    let weighted: Vec<f64> =
                        self.column(a).iter().zip(&wp).map(|(x, c)| x * c).collect();
                    for b in 0..=a {
                        let between: f64 = means[a]
                            .iter()
                            .zip(&means[b])
                            .zip(&self.weights)
                            .map(|((x, y), w)| w * x * y)
                            .sum();
                        hessian[[a, b]] = dot(&weighted, self.column(b)) - between;
                    }
                }
            }
        });
        for a in 0..m {
            hessian[[a, a]] += self.ridge[a];
            for b in 0..=a {
                let v = self.scale * hessian[[a, b]];
                hessian[[a, b]] = v;
                hessian[[b, a]] = v;
            }
        }
    }
}

/// The gradient tolerance of [`fit`] when none is set.
pub(crate) const DEFAULT_TOLERANCE: f64 = 1e-10;

/// Minimises the objective from `start` with Newton's method.
pub(crate) fn fit(
    objective: &MulticlassObjective<'_>,
    start: ArrayView1<'_, f64>,
    tolerance: Option<f64>,
    max_iterations: Option<usize>,
) -> Result<Solution> {
    let settings = NewtonSettings {
        gradient_tolerance: tolerance.unwrap_or(DEFAULT_TOLERANCE),
        max_iterations: max_iterations.unwrap_or(100),
        ..Default::default()
    };
    Newton::new(settings).minimize(objective, start)
}

/// Whether the training data are separated at the returned parameters, so that the
/// unpenalised estimate does not exist (Albert & Anderson 1984): the linear part of the fitted
/// log-odds gives every row of positive weight a positive margin over every other class
/// (complete separation), or the Newton direction at `beta` raises no margin's loss and lowers
/// some (a direction of recession: quasi-complete separation). The offsets do not scale with
/// the parameters, so margins are taken without them.
pub(crate) fn is_separated(objective: &MulticlassObjective<'_>, beta: ArrayView1<'_, f64>) -> bool {
    let margins = |eta: Array2<f64>| {
        MarginRange::of(
            eta.view(),
            objective.labels(),
            objective.weights(),
            objective.n_classes(),
        )
    };
    if margins(objective.linear_part(beta)).separates() {
        return true;
    }
    let m = objective.dim();
    let mut hessian = Array2::zeros((m, m));
    objective.hessian(beta, hessian.view_mut());
    let gradient = objective.gradient(beta);
    let direction = newton_direction(hessian.view(), gradient.view(), &NewtonSettings::default());
    let norm = direction.step.dot(&direction.step).sqrt();
    if !(norm > 0.0 && norm.is_finite()) {
        return false;
    }
    // Changes at the level of round-off in Φ Δ say nothing.
    let noise = 1e3 * f64::EPSILON * norm * objective.max_row_norm();
    margins(objective.linear_part(direction.step.view())).recedes(noise)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;
    use ndarray::{array, Array1, Array3};

    /// 30 rows, 2 regions, 3 classes in rotation; contrasts from a deterministic
    /// pseudo-random sequence, weakly related to the class, so that no parameter separates the
    /// classes.
    fn contrasts() -> (Array3<f64>, Array1<usize>) {
        let n = 30;
        let y = Array1::from_shape_fn(n, |i| i % 3);
        let c = Array3::from_shape_fn((n, 2, 2), |(i, r, k)| {
            let noise = (1.7 * i as f64 + 0.9 * r as f64 + 2.3 * k as f64).sin();
            noise + 0.3 * f64::from(u8::from(y[i] == k + 1))
        });
        (c, y)
    }

    #[test]
    fn gradient_and_hessian_match_finite_differences() {
        let (c, y) = contrasts();
        let w = Array1::from_shape_fn(y.len(), |i| [1.0, 2.0, 0.5, 0.0][i % 4]);
        let offsets =
            Array2::from_shape_fn((y.len(), 2), |(i, k)| 0.1 * ((i + k) % 5) as f64 - 0.2);
        for (fit_intercepts, with_offsets, prior) in [
            (true, false, None),
            (false, true, Some(2.0)),
            (true, true, Some(0.5)),
        ] {
            let objective = MulticlassObjective::new(
                c.view(),
                &[0, 1],
                with_offsets.then(|| offsets.view()),
                y.view(),
                Some(w.view()),
                fit_intercepts,
                prior,
            );
            let m = objective.dim();
            let beta = Array1::from_shape_fn(m, |j| 0.3 * j as f64 - 0.4);
            let g = objective.gradient(beta.view());
            let mut h = Array2::zeros((m, m));
            objective.hessian(beta.view(), h.view_mut());
            let step = 1e-6;
            for j in 0..m {
                let mut plus = beta.clone();
                plus[j] += step;
                let mut minus = beta.clone();
                minus[j] -= step;
                let numeric =
                    (objective.value(plus.view()) - objective.value(minus.view())) / (2.0 * step);
                assert_abs_diff_eq!(g[j], numeric, epsilon = 1e-8);
                let column = (objective.gradient(plus.view()) - objective.gradient(minus.view()))
                    / (2.0 * step);
                for a in 0..m {
                    assert_abs_diff_eq!(h[[a, j]], column[a], epsilon = 1e-7);
                }
            }
        }
    }

    #[test]
    fn fitted_gradient_vanishes_and_no_separation() {
        let (c, y) = contrasts();
        let objective =
            MulticlassObjective::new(c.view(), &[0, 1], None, y.view(), None, true, None);
        let solution = fit(&objective, Array1::zeros(4).view(), None, None).unwrap();
        assert!(solution.report.status.is_converged());
        assert!(objective
            .gradient(solution.x.view())
            .iter()
            .all(|g| g.abs() < 1e-9));
        assert!(!is_separated(&objective, solution.x.view()));
    }

    #[test]
    fn separated_data_are_flagged() {
        // One region whose contrast orders the classes perfectly: class k rows have c = k.
        let n = 6;
        let mut c = Array3::zeros((n, 1, 1));
        let y = array![0, 0, 0, 1, 1, 1];
        for i in 0..n {
            c[[i, 0, 0]] = if y[i] == 1 {
                1.0 + i as f64
            } else {
                -(i as f64) - 1.0
            };
        }
        let objective = MulticlassObjective::new(c.view(), &[0], None, y.view(), None, true, None);
        let solution = fit(&objective, Array1::zeros(2).view(), None, Some(30)).unwrap();
        assert!(is_separated(&objective, solution.x.view()));
        // A prior makes the estimate exist; the fit converges.
        let penalised =
            MulticlassObjective::new(c.view(), &[0], None, y.view(), None, true, Some(1.0));
        let solution = fit(&penalised, Array1::zeros(2).view(), None, None).unwrap();
        assert!(solution.report.status.is_converged());
    }
}
