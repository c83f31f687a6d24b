//! The coordinates in which L-BFGS and conjugate gradient fit a dense logistic regression:
//! the coefficients of the standardised features.
//!
//! First-order methods converge at a rate set by the conditioning of the Hessian, and the
//! Hessian of a logistic likelihood inherits the conditioning of `X̃ᵀX̃`: features on different
//! scales, or far from zero beside an intercept (pixel intensities of 0–16), make it poor, and
//! L-BFGS then needs thousands of iterations where it needs a few hundred on standardised
//! data. Standardising the data would change the estimator (the prior `‖w‖² / (2σ²)` is not
//! scale-free); changing the *coordinates* does not. With column centres `c_j` (only when there
//! is an intercept) and scales `s_j`, the solver works in `φ`, where for every linear
//! predictor `k`
//!
//! ```text
//! w_kj = φ_kj / s_j,     b_k = φ_kb − Σ_j w_kj c_j,
//! ```
//!
//! so that `xᵀw_k + b_k = Σ_j φ_kj (x_j − c_j) / s_j + φ_kb`: the linear predictor of the
//! standardised features. The objective is evaluated at the `θ = (w, b)` that `φ` maps to, so
//! its minimiser is the estimator's, mapped back. Its gradient is pulled back by the map's
//! transpose: `∂/∂φ_kj = (∂/∂w_kj − c_j ∂/∂b_k) / s_j` and `∂/∂φ_kb = ∂/∂b_k`.
//!
//! The scales make the diagonal of the Hessian in `φ` roughly even (Jacobi preconditioning):
//! the Hessian's diagonal entry for `w_kj` is about `v (var_j + c_j²) + λ / W` (with
//! `v = p(1 − p) ≤ ¼` and the prior's `λ = 1/σ²` per unit of total weight `W`, as the mean
//! objective has it); centring removes the `c_j²`, and `s_j² = var_j + 4 λ / W` evens the rest
//! at `v = ¼`. Without a prior `s_j` is the column's standard deviation; a constant column
//! without a prior keeps `s_j = 1`.
//!
//! A multinomial model pins class 0's unpenalised coefficients at zero (the objective reports
//! a zero gradient for them, see [`Reference`]). Without a prior the whole of class 0 is pinned
//! and stays out of the change of coordinates. With a prior only its intercept is: there the
//! centred intercepts `b′_k = φ_kb − Σ_j w_kj c_j` are all shifted by `−b′_0`, which keeps
//! `b_0 = 0` and leaves every softmax unchanged, so class 0 is centred like the others and
//! its pulled-back gradient carries the shift's terms.

use std::cell::RefCell;

use gendisc_optim::Objective;
use ndarray::{Array1, ArrayView1, ArrayView2, ArrayViewMut1};

/// The affine change of coordinates `θ = T φ` of the module documentation.
pub(crate) struct StandardisedCoordinates {
    /// `K′`, the number of linear predictors.
    predictors: usize,
    /// `c_j`, or `None` without an intercept.
    centres: Option<Array1<f64>>,
    /// What the objective pins of predictor 0.
    reference: Reference,
    /// `s_j > 0`.
    scales: Array1<f64>,
}

impl StandardisedCoordinates {
    /// The coordinates of the features `x` (`n × d`) for `predictors` linear predictors, each
    /// of width `d + 1` with an intercept (last) and `d` without; `reference` says what the
    /// objective pins of predictor 0; `penalty_per_weight` is the prior's `λ / W` on the
    /// weights (0 without a prior).
    pub(crate) fn of(
        x: ArrayView2<'_, f64>,
        intercept: bool,
        predictors: usize,
        reference: Reference,
        penalty_per_weight: f64,
    ) -> Self {
        let n = x.nrows().max(1) as f64;
        let centres: Array1<f64> = x.columns().into_iter().map(|c| c.sum() / n).collect();
        let scales = x
            .columns()
            .into_iter()
            .zip(&centres)
            .map(|(column, &centre)| {
                let variance = column.iter().map(|v| (v - centre).powi(2)).sum::<f64>() / n;
                let scale = (variance + 4.0 * penalty_per_weight).sqrt();
                if scale > 0.0 && scale.is_finite() {
                    scale
                } else {
                    1.0
                }
            })
            .collect();
        Self {
            predictors,
            centres: intercept.then_some(centres),
            reference,
            scales,
        }
    }

    fn width(&self) -> usize {
        self.scales.len() + usize::from(self.centres.is_some())
    }

    /// Whether predictor `k` takes part in the change of coordinates with its centring.
    fn is_centred(&self, k: usize) -> bool {
        self.centres.is_some() && !(k == 0 && self.reference == Reference::Class)
    }

    /// `θ = T φ`.
    pub(crate) fn to_coefficients(&self, phi: ArrayView1<'_, f64>) -> Array1<f64> {
        let mut theta = Array1::zeros(phi.len());
        self.write_coefficients(phi, theta.view_mut());
        theta
    }

    /// `θ = T φ` into `theta` (every entry is written).
    fn write_coefficients(&self, phi: ArrayView1<'_, f64>, mut theta: ArrayViewMut1<'_, f64>) {
        let (d, width) = (self.scales.len(), self.width());
        for k in 0..self.predictors {
            let row = k * width;
            let mut shift = 0.0;
            for j in 0..d {
                let w = phi[row + j] / self.scales[j];
                theta[row + j] = w;
                if let (Some(c), true) = (&self.centres, self.is_centred(k)) {
                    shift += w * c[j];
                }
            }
            if self.centres.is_some() {
                theta[row + d] = phi[row + d] - shift;
            }
        }
        if self.reference == Reference::Intercept && self.centres.is_some() {
            let b0 = theta[d];
            for k in 0..self.predictors {
                theta[k * width + d] -= b0;
            }
        }
    }

    /// `φ = T⁻¹ θ` (for `θ` with `b_0 = 0` where the intercept is the reference).
    pub(crate) fn to_standardised(&self, theta: ArrayView1<'_, f64>) -> Array1<f64> {
        let (d, width) = (self.scales.len(), self.width());
        let mut phi = Array1::zeros(theta.len());
        for k in 0..self.predictors {
            let row = k * width;
            let mut shift = 0.0;
            for j in 0..d {
                phi[row + j] = theta[row + j] * self.scales[j];
                if let (Some(c), true) = (&self.centres, self.is_centred(k)) {
                    shift += theta[row + j] * c[j];
                }
            }
            if self.centres.is_some() {
                phi[row + d] = theta[row + d] + shift;
            }
        }
        phi
    }

    /// `Tᵀ ∇_θ f` into `gradient`.
    fn pull_back(&self, gradient_theta: ArrayView1<'_, f64>, mut gradient: ArrayViewMut1<'_, f64>) {
        let (d, width) = (self.scales.len(), self.width());
        for k in 0..self.predictors {
            let row = k * width;
            for j in 0..d {
                let centred = match &self.centres {
                    Some(c) if self.is_centred(k) => {
                        gradient_theta[row + j] - c[j] * gradient_theta[row + d]
                    }
                    _ => gradient_theta[row + j],
                };
                gradient[row + j] = centred / self.scales[j];
            }
            if self.centres.is_some() {
                gradient[row + d] = gradient_theta[row + d];
            }
        }
        if let (Reference::Intercept, Some(c)) = (self.reference, &self.centres) {
            // Every b_k moves by −b′_0 = −φ_0b + Σ_j w_0j c_j; the objective's own derivative
            // in b_0 is zero (pinned), so the row-0 terms come from the other intercepts.
            let others: f64 = (1..self.predictors)
                .map(|k| gradient_theta[k * width + d])
                .sum();
            for j in 0..d {
                gradient[j] = (gradient_theta[j] + c[j] * others) / self.scales[j];
            }
            gradient[d] = -others;
        }
    }
}

/// What a multinomial objective pins of class 0, the reference category.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reference {
    /// Nothing (a binary model, or every coefficient penalised).
    Nothing,
    /// The intercept `b_0`: a prior on the weights, none on the intercepts.
    Intercept,
    /// The whole of class 0: no prior.
    Class,
}

/// An objective over `θ` seen in the standardised coordinates `φ`: `g(φ) = f(T φ)`.
pub(crate) struct InStandardisedCoordinates<'a, O: ?Sized> {
    objective: &'a O,
    coordinates: &'a StandardisedCoordinates,
    /// `θ` and `∇_θ f`, reused across evaluations: a solver evaluates thousands of times.
    buffers: RefCell<(Array1<f64>, Array1<f64>)>,
}

impl<'a, O: Objective + ?Sized> InStandardisedCoordinates<'a, O> {
    pub(crate) fn new(objective: &'a O, coordinates: &'a StandardisedCoordinates) -> Self {
        let n = objective.dim();
        Self {
            objective,
            coordinates,
            buffers: RefCell::new((Array1::zeros(n), Array1::zeros(n))),
        }
    }
}

impl<O: Objective + ?Sized> Objective for InStandardisedCoordinates<'_, O> {
    fn dim(&self) -> usize {
        self.objective.dim()
    }

    fn value(&self, phi: ArrayView1<'_, f64>) -> f64 {
        let (theta, _) = &mut *self.buffers.borrow_mut();
        self.coordinates.write_coefficients(phi, theta.view_mut());
        self.objective.value(theta.view())
    }

    fn value_and_gradient(
        &self,
        phi: ArrayView1<'_, f64>,
        gradient: ArrayViewMut1<'_, f64>,
    ) -> f64 {
        let (theta, gradient_theta) = &mut *self.buffers.borrow_mut();
        self.coordinates.write_coefficients(phi, theta.view_mut());
        let value = self
            .objective
            .value_and_gradient(theta.view(), gradient_theta.view_mut());
        self.coordinates.pull_back(gradient_theta.view(), gradient);
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    /// `f(θ) = Σ a_i θ_i²`: a separable quadratic whose gradient is known.
    struct Quadratic(Array1<f64>);

    impl Objective for Quadratic {
        fn dim(&self) -> usize {
            self.0.len()
        }
        fn value(&self, x: ArrayView1<'_, f64>) -> f64 {
            self.0.iter().zip(x).map(|(a, v)| a * v * v).sum()
        }
        fn value_and_gradient(&self, x: ArrayView1<'_, f64>, mut g: ArrayViewMut1<'_, f64>) -> f64 {
            g.assign(&(2.0 * &self.0 * &x.to_owned()));
            self.value(x)
        }
    }

    #[test]
    fn the_map_is_inverted_and_the_gradient_is_its_transpose() {
        let x = array![[1.0, 10.0, 5.0], [3.0, 14.0, 5.0], [2.0, 30.0, 5.0]];
        for (intercept, reference) in [
            (true, Reference::Nothing),
            (true, Reference::Intercept),
            (true, Reference::Class),
            (false, Reference::Nothing),
        ] {
            let coordinates = StandardisedCoordinates::of(x.view(), intercept, 2, reference, 0.1);
            let n = 2 * (3 + usize::from(intercept));
            let mut theta = Array1::from_shape_fn(n, |i| (i as f64 * 0.7).sin());
            if reference == Reference::Intercept {
                theta[3] = 0.0; // the pinned b_0
            }
            let phi = coordinates.to_standardised(theta.view());
            let back = coordinates.to_coefficients(phi.view());
            for (a, b) in theta.iter().zip(&back) {
                assert!((a - b).abs() < 1e-12, "{a} vs {b}");
            }
            let f = Quadratic(Array1::from_shape_fn(n, |i| 1.0 + i as f64));
            let g = InStandardisedCoordinates::new(&f, &coordinates);
            let gradient = g.gradient(phi.view());
            for i in 0..n {
                let h = 1e-6;
                let mut up = phi.clone();
                up[i] += h;
                let mut down = phi.clone();
                down[i] -= h;
                let numeric = (g.value(up.view()) - g.value(down.view())) / (2.0 * h);
                assert!(
                    (numeric - gradient[i]).abs() < 1e-6 * (1.0 + numeric.abs()),
                    "coordinate {i}: {numeric} vs {}",
                    gradient[i]
                );
            }
        }
    }

    #[test]
    fn a_constant_column_keeps_its_scale() {
        let x = array![[1.0, 5.0], [5.0, 5.0]];
        let coordinates = StandardisedCoordinates::of(x.view(), true, 1, Reference::Nothing, 0.0);
        assert_eq!(coordinates.scales, array![2.0, 1.0]);
        assert_eq!(coordinates.centres, Some(array![3.0, 5.0]));
    }
}
