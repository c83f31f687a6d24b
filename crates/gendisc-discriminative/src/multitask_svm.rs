//! The regularised multi-task SVM of Evgeniou & Pontil (2004), as Epshteyn & DeJong state it
//! (their eqs. (5.3)–(5.5)).
//!
//! Tasks `t = 1..T` share a feature space; task `t` has its own hyperplane `f_t(x) = w_tᵀx + b_t`
//! and all hyperplanes are pulled towards a common `w₀`:
//!
//! ```text
//! min_{w₀, w_t, b_t, ξ}  Σ_t Σ_i ξ_it + (C₁/C₂) Σ_t ‖w_t − w₀‖² + C₁ ‖w₀‖²      (5.3)
//! s.t.  y_it (w_tᵀ x_it + b_t) ≥ 1 − ξ_it,   ξ_it ≥ 0.                       (5.4)–(5.5)
//! ```
//!
//! # The two limits
//!
//! As printed, a *small* `C₂` makes the coupling term `(C₁/C₂)Σ‖w_t − w₀‖²` dominate, so all
//! `w_t = w₀` and the fit is one SVM on the pooled data (`min Σξ + C₁‖w₀‖²`, i.e.
//! [`LinearSvm`](crate::LinearSvm) with `C = 1/(2C₁)`, with one intercept per task). A *large*
//! `C₂` removes the coupling: `w₀ = Σ_t w_t / (T + C₂) → 0` and each task is its own SVM with
//! penalty `(C₁/C₂)‖w_t‖²` (`C = C₂/(2C₁)`). The paper's `C₁ = 1`, `C₂ = 1000` is therefore
//! close to the decoupled end.
//!
//! # How it is solved
//!
//! With `v_t = w_t − w₀` the objective is `Σξ + (C₁/C₂)Σ‖v_t‖² + C₁‖w₀‖²`, a convex quadratic
//! with a diagonal Hessian and linear constraints whose rows hold only the non-zeros of the
//! data. It is handed as a QP to the interior-point solver behind
//! [`gendisc_optim::Socp`]: the problems of the paper's study have a few hundred rows and a
//! few thousand features, where an interior-point method converges in a few dozen iterations
//! to `1e-8` and reports infeasibility or non-convergence as typed errors; a dual
//! coordinate-descent solver would need the equality constraints of the per-task intercepts
//! handled by hand.

use gendisc_core::validate::{check_finite_matrix, check_labels, check_prediction_matrix};
use gendisc_core::{Error, ParamGuard, Result};
use gendisc_optim::{Affine, Socp, SocpSettings};
use ndarray::{Array1, ArrayView1, ArrayView2};

/// Unchecked parameters of [`MultiTaskSvm`].
///
/// | parameter | meaning | default |
/// |---|---|---|
/// | `c1` | `C₁ > 0` in (5.3) | 1 |
/// | `c2` | `C₂ > 0` in (5.3) | 1000 (the paper's §5 choice) |
/// | `fit_intercept` | per-task intercepts `b_t` (unpenalised); without, `b_t = 0` | `true` |
/// | `socp` | interior-point settings | [`SocpSettings::default`] |
#[derive(Debug, Clone, PartialEq)]
pub struct MultiTaskSvmParams(MultiTaskSvmValidParams);

/// Validated parameters of [`MultiTaskSvm`]; see [`MultiTaskSvmParams`].
#[derive(Debug, Clone, PartialEq)]
pub struct MultiTaskSvmValidParams {
    c1: f64,
    c2: f64,
    fit_intercept: bool,
    socp: SocpSettings,
}

impl Default for MultiTaskSvmParams {
    fn default() -> Self {
        Self(MultiTaskSvmValidParams {
            c1: 1.0,
            c2: 1000.0,
            fit_intercept: true,
            socp: SocpSettings::default(),
        })
    }
}

impl MultiTaskSvmParams {
    /// Sets `C₁`.
    pub fn c1(mut self, c1: f64) -> Self {
        self.0.c1 = c1;
        self
    }
    /// Sets `C₂`.
    pub fn c2(mut self, c2: f64) -> Self {
        self.0.c2 = c2;
        self
    }
    /// Whether to fit per-task intercepts.
    pub fn fit_intercept(mut self, fit_intercept: bool) -> Self {
        self.0.fit_intercept = fit_intercept;
        self
    }
    /// Sets the interior-point settings.
    pub fn socp(mut self, socp: SocpSettings) -> Self {
        self.0.socp = socp;
        self
    }
    /// Validates and fits; see [`MultiTaskSvmValidParams::fit`].
    pub fn fit(
        &self,
        tasks: &[(ArrayView2<'_, f64>, ArrayView1<'_, usize>)],
    ) -> Result<MultiTaskSvm> {
        self.check_ref()?.fit(tasks)
    }
}

impl ParamGuard for MultiTaskSvmParams {
    type Checked = MultiTaskSvmValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        for (name, v) in [("c1", self.0.c1), ("c2", self.0.c2)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(Error::invalid_parameter(
                    name,
                    format!("must be finite and positive, got {v}"),
                ));
            }
        }
        Ok(&self.0)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}

impl MultiTaskSvmValidParams {
    /// `C₁`.
    pub fn c1(&self) -> f64 {
        self.c1
    }
    /// `C₂`.
    pub fn c2(&self) -> f64 {
        self.c2
    }

    /// Fits on `tasks`, each a design matrix (`m_t × d`, the same `d` for all) and classes in
    /// `{0, 1}` (`0 ↦ y = −1`). A task may have rows of one class only.
    pub fn fit(
        &self,
        tasks: &[(ArrayView2<'_, f64>, ArrayView1<'_, usize>)],
    ) -> Result<MultiTaskSvm> {
        let Some((first, _)) = tasks.first() else {
            return Err(Error::Empty {
                what: "tasks".into(),
            });
        };
        let d = first.ncols();
        if d == 0 {
            return Err(Error::Empty {
                what: "x of task 0 (no columns)".into(),
            });
        }
        for (t, (x, y)) in tasks.iter().enumerate() {
            if x.ncols() != d {
                return Err(Error::shape_mismatch(
                    format!("columns of x of task {t} vs task 0"),
                    d,
                    x.ncols(),
                ));
            }
            if x.nrows() == 0 {
                return Err(Error::Empty {
                    what: format!("x of task {t} (no rows)"),
                });
            }
            check_finite_matrix(*x, &format!("x of task {t}"))?;
            check_labels(*y, x.nrows(), 2)?;
        }
        let n_tasks = tasks.len();
        let mut socp = Socp::new("multi-task SVM (5.3)-(5.5)");
        let w0 = socp.add_variables(d);
        let v = socp.add_variables(n_tasks * d);
        let b = socp.add_variables(n_tasks);
        let coupling = self.c1 / self.c2;
        for j in 0..d {
            socp.add_quadratic(w0 + j, w0 + j, self.c1);
        }
        for k in 0..n_tasks * d {
            socp.add_quadratic(v + k, v + k, coupling);
        }
        if !self.fit_intercept {
            for t in 0..n_tasks {
                socp.add_equality(Affine::var(b + t));
            }
        }
        let mut terms = Vec::new();
        for (t, (x, y)) in tasks.iter().enumerate() {
            let xi = socp.add_variables(x.nrows());
            socp.minimize_linear(Affine {
                terms: (0..x.nrows()).map(|i| (xi + i, 1.0)).collect(),
                constant: 0.0,
            });
            for (i, (row, &label)) in x.rows().into_iter().zip(y.iter()).enumerate() {
                let s = if label == 1 { 1.0 } else { -1.0 };
                terms.clear();
                for (j, &value) in row.iter().enumerate().filter(|(_, &value)| value != 0.0) {
                    terms.push((w0 + j, -s * value));
                    terms.push((v + t * d + j, -s * value));
                }
                terms.push((b + t, -s));
                terms.push((xi + i, -1.0));
                socp.add_inequality(Affine {
                    terms: terms.clone(),
                    constant: 1.0,
                }); // (5.4)
                socp.add_lower_bound(xi + i, 0.0); // (5.5)
            }
        }
        let sol = socp.solve(&self.socp)?;
        let w0v = Array1::from(sol.x[w0..w0 + d].to_vec());
        let weights = (0..n_tasks)
            .map(|t| &w0v + &Array1::from(sol.x[v + t * d..v + (t + 1) * d].to_vec()))
            .collect();
        Ok(MultiTaskSvm {
            w0: w0v,
            weights,
            intercepts: sol.x[b..b + n_tasks].to_vec(),
            objective: sol.objective,
            iterations: sol.iterations,
        })
    }
}

/// A fitted multi-task SVM: one hyperplane per task and their common centre `w₀`.
#[derive(Debug, Clone, PartialEq)]
pub struct MultiTaskSvm {
    w0: Array1<f64>,
    weights: Vec<Array1<f64>>,
    intercepts: Vec<f64>,
    objective: f64,
    iterations: u32,
}

impl MultiTaskSvm {
    /// Parameters with the defaults of [`MultiTaskSvmParams`].
    pub fn params() -> MultiTaskSvmParams {
        MultiTaskSvmParams::default()
    }
    /// Number of tasks.
    pub fn n_tasks(&self) -> usize {
        self.weights.len()
    }
    /// The common centre `w₀`.
    pub fn w0(&self) -> ArrayView1<'_, f64> {
        self.w0.view()
    }
    /// `w_t` of task `t`.
    pub fn weights(&self, task: usize) -> Result<ArrayView1<'_, f64>> {
        self.check_task(task)?;
        Ok(self.weights[task].view())
    }
    /// `b_t` of task `t`.
    pub fn intercept(&self, task: usize) -> Result<f64> {
        self.check_task(task)?;
        Ok(self.intercepts[task])
    }
    /// The optimal value of (5.3).
    pub fn objective(&self) -> f64 {
        self.objective
    }
    /// Interior-point iterations.
    pub fn iterations(&self) -> u32 {
        self.iterations
    }
    /// `w_tᵀx_i + b_t` for every row of `x`.
    pub fn decision_function(&self, task: usize, x: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        self.check_task(task)?;
        check_prediction_matrix(x, self.w0.len())?;
        Ok(x.dot(&self.weights[task]) + self.intercepts[task])
    }
    /// Classes (`f_t > 0 ↦ 1`) of the rows of `x` under task `t`.
    pub fn predict(&self, task: usize, x: ArrayView2<'_, f64>) -> Result<Array1<usize>> {
        Ok(self
            .decision_function(task, x)?
            .mapv(|f| usize::from(f > 0.0)))
    }

    fn check_task(&self, task: usize) -> Result<()> {
        if task >= self.weights.len() {
            return Err(Error::InvalidValue {
                what: "task".into(),
                row: 0,
                column: 0,
                value: task as f64,
                reason: format!("the model has {} tasks", self.weights.len()),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LinearSvm;
    use gendisc_core::Fit;
    use ndarray::{array, concatenate, Array2, Axis};

    fn task(shift: f64, angle: f64) -> (Array2<f64>, Array1<usize>) {
        // Eight points around a line through the origin whose normal is (cos a, sin a).
        let (c, s) = (angle.cos(), angle.sin());
        let base = [
            (-1.5, 0.3),
            (-0.7, -1.0),
            (-1.2, 1.1),
            (-0.2, 0.4),
            (1.4, -0.2),
            (0.6, 0.9),
            (1.1, -1.2),
            (0.3, -0.5),
        ];
        let mut x = Array2::zeros((8, 2));
        let mut y = Array1::zeros(8);
        for (i, &(u, v)) in base.iter().enumerate() {
            x[[i, 0]] = c * u - s * v + shift;
            x[[i, 1]] = s * u + c * v;
            y[i] = usize::from(u > 0.0);
        }
        // One mislabelled point so that slacks are active.
        y[3] = 1;
        (x, y)
    }

    fn svm(x: &Array2<f64>, y: &Array1<usize>, c: f64) -> Array1<f64> {
        let m = LinearSvm::params()
            .c(c)
            .fit_intercept(false)
            .tol(1e-12)
            .max_iter(100_000)
            .fit(x.view(), y.view())
            .unwrap();
        m.coef().row(0).to_owned()
    }

    fn close(a: ArrayView1<'_, f64>, b: ArrayView1<'_, f64>, tol: f64) {
        for (p, q) in a.iter().zip(b) {
            assert!((p - q).abs() <= tol * (1.0 + q.abs()), "{a} vs {b}");
        }
    }

    #[test]
    fn small_c2_forces_equal_tasks_and_pools_the_data() {
        let (x1, y1) = task(0.0, 0.2);
        let (x2, y2) = task(0.0, -0.4);
        let c1 = 0.5;
        let model = MultiTaskSvm::params()
            .c1(c1)
            .c2(1e-5)
            .fit_intercept(false)
            .fit(&[(x1.view(), y1.view()), (x2.view(), y2.view())])
            .unwrap();
        close(model.weights(0).unwrap(), model.w0(), 1e-4);
        close(model.weights(1).unwrap(), model.w0(), 1e-4);
        let x = concatenate![Axis(0), x1, x2];
        let y = concatenate![Axis(0), y1, y2];
        // min Σξ + C₁‖w‖² ⇔ min ½‖w‖² + (1/(2C₁)) Σξ.
        close(model.w0(), svm(&x, &y, 1.0 / (2.0 * c1)).view(), 1e-4);
    }

    #[test]
    fn large_c2_decouples_the_tasks_into_separate_svms() {
        let (x1, y1) = task(0.0, 0.2);
        let (x2, y2) = task(0.0, -0.9);
        let c2 = 1e5;
        let c1 = c2; // per-task penalty C₁/C₂ = 1 ⇔ LinearSvm C = 1/2
        let model = MultiTaskSvm::params()
            .c1(c1)
            .c2(c2)
            .fit_intercept(false)
            .fit(&[(x1.view(), y1.view()), (x2.view(), y2.view())])
            .unwrap();
        close(model.weights(0).unwrap(), svm(&x1, &y1, 0.5).view(), 1e-3);
        close(model.weights(1).unwrap(), svm(&x2, &y2, 0.5).view(), 1e-3);
        assert!(model.w0().iter().all(|v| v.abs() < 1e-3), "{}", model.w0());
    }

    #[test]
    fn intercepts_follow_shifted_tasks() {
        let (x1, y1) = task(0.0, 0.0);
        let (x2, y2) = task(3.0, 0.0);
        let model = MultiTaskSvm::params()
            .c1(0.1)
            .c2(1e-3)
            .fit(&[(x1.view(), y1.view()), (x2.view(), y2.view())])
            .unwrap();
        // Shared direction, intercepts differing by the shift along w.
        let w = model.weights(0).unwrap();
        let gap = model.intercept(0).unwrap() - model.intercept(1).unwrap();
        assert!(
            (gap - 3.0 * w[0]).abs() < 1e-3 * (1.0 + gap.abs()),
            "gap {gap}, w {w}"
        );
        let predicted = model.predict(1, x2.view()).unwrap();
        let correct = predicted.iter().zip(&y2).filter(|(a, b)| a == b).count();
        assert!(correct >= 7, "{predicted} vs {y2}");
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        let (x1, y1) = task(0.0, 0.0);
        let p = MultiTaskSvm::params();
        assert!(matches!(p.fit(&[]), Err(Error::Empty { .. })));
        let x3 = Array2::zeros((3, 3));
        let y3 = array![0, 1, 0];
        assert!(matches!(
            p.fit(&[(x1.view(), y1.view()), (x3.view(), y3.view())]),
            Err(Error::ShapeMismatch { .. })
        ));
        let mut bad = x1.clone();
        bad[[0, 0]] = f64::INFINITY;
        assert!(matches!(
            p.fit(&[(bad.view(), y1.view())]),
            Err(Error::NonFinite { .. })
        ));
        let mut labels = y1.clone();
        labels[0] = 3;
        assert!(matches!(
            p.fit(&[(x1.view(), labels.view())]),
            Err(Error::LabelOutOfRange { .. })
        ));
        assert!(matches!(
            p.clone().c2(0.0).fit(&[(x1.view(), y1.view())]),
            Err(Error::InvalidParameter { name: "c2", .. })
        ));
        assert!(matches!(
            p.clone().c1(f64::NAN).fit(&[(x1.view(), y1.view())]),
            Err(Error::InvalidParameter { name: "c1", .. })
        ));
        let model = p.fit(&[(x1.view(), y1.view())]).unwrap();
        assert!(model.predict(1, x1.view()).is_err());
        assert!(matches!(
            model.predict(0, x3.view()),
            Err(Error::ShapeMismatch { .. })
        ));
    }
}
