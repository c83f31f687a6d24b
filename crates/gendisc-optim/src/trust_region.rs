//! Newton's method in a trust region, enforced by Levenberg–Marquardt damping.
//!
//! Each iteration solves the damped Newton system `(∇²f(x) + μ I) p = −∇f(x)` by Cholesky and
//! judges the step by the ratio of the actual to the predicted decrease,
//!
//! ```text
//! ρ = (f(x) − f(x + p)) / (−∇f(x)ᵀp − ½ pᵀ∇²f(x) p),
//! ```
//!
//! the quadratic model's prediction using the undamped Hessian. A step with `ρ > η` is taken
//! and `μ` shrinks by `max(⅓, 1 − (2ρ − 1)³)`; a rejected step leaves `x` where it was and
//! multiplies `μ` by a factor `ν` that doubles with every consecutive rejection (Nielsen's
//! update: Madsen, Nielsen & Tingleff, *Methods for non-linear least squares problems*, 2004,
//! eq. 2.21 and Algorithm 3.16; the damping is the Lagrange multiplier of a trust region of
//! radius `‖p‖`, Nocedal & Wright, *Numerical Optimization*, 2nd ed., Theorem 4.1).
//!
//! What this buys over a line search along the Newton direction:
//!
//! * **Indefinite Hessians.** Where `∇²f` is not positive definite (non-convex regions, flat
//!   directions of an over-parametrised likelihood) `μ` is raised until `∇²f + μ I` is, and the
//!   step is the minimiser of the model within the region — it never falls back to steepest
//!   descent, and negative curvature is followed as far as the ratio test allows.
//! * **Points outside the domain.** A trial point where `f` is NaN or infinite has `ρ = −∞`: it
//!   is rejected and the region shrinks. A run from a finite start never ends because of one.
//! * **Newton's rate near the optimum.** Accepted steps shrink `μ` geometrically to zero, so
//!   near a non-degenerate minimum the steps are Newton's and convergence is quadratic.
//!
//! The run is [`Status::Converged`] when the [`Criterion`] `‖∇f‖ ≤ tol · max(1, |f|)` holds;
//! [`Status::Stalled`] when no step can change `f` measurably (the predicted decrease is below
//! the resolution of `f` and no step within the region lowers the gradient norm, until the step
//! has shrunk below the resolution of `x`) while the gradient is above it; and
//! [`Status::MaxIterations`] at the iteration cap.

use gendisc_core::linalg::Cholesky;
use gendisc_core::{Error, Result};
use ndarray::{Array1, Array2, ArrayView1};
use serde::{Deserialize, Serialize};

use crate::newton::{all_finite, check_start, norm, Iterate};
use crate::objective::{Counted, Objective, TwiceDifferentiable};
use crate::report::{Criterion, Solution, Status};

/// Settings of [`TrustRegion`], with documented defaults (see [`TrustRegionSettings::default`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TrustRegionSettings {
    /// Converged when `‖∇f(x)‖₂ ≤ gradient_tolerance · max(1, |f(x)|)` ([`Criterion`]).
    /// Default `1e-8`.
    pub gradient_tolerance: f64,
    /// Maximum number of accepted steps. Default `200`.
    pub max_iterations: usize,
    /// The smallest ratio `η ∈ [0, 1)` of actual to predicted decrease at which a step is
    /// taken. Default `1e-4`.
    pub acceptance_ratio: f64,
    /// The damping tried first after a rejected undamped step, or when the Hessian is not
    /// positive definite, relative to the largest diagonal entry of the Hessian
    /// (Madsen–Nielsen–Tingleff's `τ`). Default `1e-3`.
    pub initial_damping: f64,
}

impl Default for TrustRegionSettings {
    fn default() -> Self {
        Self {
            gradient_tolerance: 1e-8,
            max_iterations: 200,
            acceptance_ratio: 1e-4,
            initial_damping: 1e-3,
        }
    }
}

impl TrustRegionSettings {
    /// Checks every setting; an invalid one is an [`Error::InvalidParameter`] naming it.
    pub fn validate(&self) -> Result<()> {
        if !(self.gradient_tolerance >= 0.0 && self.gradient_tolerance.is_finite()) {
            return Err(Error::invalid_parameter(
                "gradient_tolerance",
                format!("must be finite and ≥ 0, got {}", self.gradient_tolerance),
            ));
        }
        if !(0.0..1.0).contains(&self.acceptance_ratio) {
            return Err(Error::invalid_parameter(
                "acceptance_ratio",
                format!("must lie in [0, 1), got {}", self.acceptance_ratio),
            ));
        }
        if !(self.initial_damping > 0.0 && self.initial_damping.is_finite()) {
            return Err(Error::invalid_parameter(
                "initial_damping",
                format!("must be finite and > 0, got {}", self.initial_damping),
            ));
        }
        Ok(())
    }
}

/// Trust-region Newton with Levenberg–Marquardt damping (see the
/// [module documentation](self)).
///
/// ```
/// use gendisc_optim::{test_functions::Rosenbrock, Status, TrustRegion};
/// use ndarray::array;
///
/// let solution = TrustRegion::default().minimize(&Rosenbrock::default(), array![-1.2, 1.0].view())?;
/// assert_eq!(solution.report.status, Status::Converged);
/// assert!((solution.x[0] - 1.0).abs() < 1e-8);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TrustRegion {
    settings: TrustRegionSettings,
}

/// The damped Newton step for one damping `μ`: `p = −(H + μI)⁻¹ g`, or `None` when `H + μI`
/// is not positive definite.
fn damped_step(
    hessian: &Array2<f64>,
    gradient: &Array1<f64>,
    damping: f64,
    shifted: &mut Array2<f64>,
) -> Option<Array1<f64>> {
    shifted.assign(hessian);
    if damping > 0.0 {
        shifted.diag_mut().mapv_inplace(|d| d + damping);
    }
    let step = Cholesky::new(shifted.view(), "damped Hessian")
        .ok()?
        .solve_vec(gradient.view())
        .ok()?;
    let step = -step;
    all_finite(&step).then_some(step)
}

impl TrustRegion {
    /// A solver with the given settings.
    pub fn new(settings: TrustRegionSettings) -> Self {
        Self { settings }
    }

    /// The settings.
    pub fn settings(&self) -> &TrustRegionSettings {
        &self.settings
    }

    /// Minimises `problem` from `x0`.
    ///
    /// Fails only on invalid settings or a starting point of the wrong length or with a
    /// non-finite entry; every outcome of the iteration itself is a [`Status`] in the report.
    pub fn minimize<P: TwiceDifferentiable + ?Sized>(
        &self,
        problem: &P,
        x0: ArrayView1<'_, f64>,
    ) -> Result<Solution> {
        let s = &self.settings;
        s.validate()?;
        check_start(problem.dim(), x0)?;
        let problem = Counted::new(problem);
        let criterion = Criterion::new(s.gradient_tolerance);
        let n = x0.len();
        let mut it = Iterate::start(&problem, x0);
        if !it.is_finite() {
            return Ok(it.finish(&problem, criterion, Status::NonFinite, 0));
        }
        let mut h = Array2::zeros((n, n));
        let mut shifted = Array2::zeros((n, n));

        // μ = 0 tries the plain Newton step first; ν is Nielsen's growth factor.
        let mut damping = 0.0_f64;
        let mut growth = 2.0_f64;
        let mut iterations = 0;
        let mut hessian_is_current = false;
        let mut damping_floor = 0.0;
        loop {
            if criterion.is_met(it.f, norm(&it.g)) {
                return Ok(it.finish(&problem, criterion, Status::Converged, iterations));
            }
            if iterations >= s.max_iterations {
                return Ok(it.finish(&problem, criterion, Status::MaxIterations, iterations));
            }
            if !hessian_is_current {
                problem.hessian(it.x.view(), h.view_mut());
                if !h.iter().all(|v| v.is_finite()) {
                    return Ok(it.finish(&problem, criterion, Status::NonFinite, iterations));
                }
                let largest_diagonal = h.diag().iter().fold(0.0_f64, |m, d| m.max(d.abs()));
                // The scale of the damping: the Hessian's, or the gradient's where the
                // Hessian vanishes.
                let scale = if largest_diagonal > 0.0 {
                    largest_diagonal
                } else {
                    norm(&it.g).max(f64::MIN_POSITIVE)
                };
                damping_floor = s.initial_damping * scale;
                hessian_is_current = true;
            }

            // The smallest damping of the sequence μ, 4μ, 16μ, … (from the floor when μ is 0)
            // that makes H + μI positive definite.
            let step = loop {
                if let Some(p) = damped_step(&h, &it.g, damping, &mut shifted) {
                    break Some(p);
                }
                damping = if damping == 0.0 {
                    damping_floor
                } else {
                    4.0 * damping
                };
                if !damping.is_finite() || damping > 1e300 {
                    break None;
                }
            };
            let Some(p) = step else {
                return Ok(it.finish(&problem, criterion, Status::Stalled, iterations));
            };

            // −(gᵀp + ½ pᵀHp) > ½ μ ‖p‖² ≥ 0 since p minimises the damped model.
            let hp = h.dot(&p);
            let predicted = -(it.g.dot(&p) + 0.5 * p.dot(&hp));
            it.set_trial(&p, 1.0);
            let ft = problem.value_and_gradient(it.trial.view(), it.trial_g.view_mut());
            let trial_finite = ft.is_finite() && all_finite(&it.trial_g);
            let resolution = 4.0 * f64::EPSILON * it.f.abs();

            let accept = if predicted <= resolution {
                // The model predicts less than f can resolve: the ratio means nothing, and the
                // step is judged by the gradient, which it shrinks near a minimum. Nor does the
                // change in f: the step lowers the damped model, which bounds the curvature
                // along it from above, so f cannot truly rise by more than the prediction, and
                // what the evaluation shows is its rounding — a sum over many rows rounds to
                // more than a few ulps of |f| (on UCI BUPA, LDA at λ = ¾ under LAPACK's
                // Cholesky, 7 ulps, which stalled the fit at ‖∇f‖ = 2·10⁻⁶ one step from its
                // optimum).
                trial_finite && norm(&it.trial_g) < norm(&it.g)
            } else {
                let ratio = if trial_finite {
                    (it.f - ft) / predicted
                } else {
                    f64::NEG_INFINITY
                };
                if ratio > s.acceptance_ratio {
                    let shrink = (1.0 - (2.0 * ratio - 1.0).powi(3)).max(1.0 / 3.0);
                    damping *= shrink;
                    // Below this the damping changes no digit of the Hessian's diagonal.
                    if damping < f64::EPSILON * damping_floor {
                        damping = 0.0;
                    }
                    growth = 2.0;
                    true
                } else {
                    false
                }
            };
            if accept {
                it.accept(ft);
                iterations += 1;
                hessian_is_current = false;
                continue;
            }
            // Rejected: shrink the region, keep the Hessian. Below the resolution of f the
            // gradient judges the steps, and a short enough step along a positive definite
            // damped model does lower the gradient norm; so the region shrinks there too, until
            // the step can no longer move x.
            let step_norm = norm(&p);
            if step_norm <= f64::EPSILON * (norm(&it.x) + f64::EPSILON) {
                return Ok(it.finish(&problem, criterion, Status::Stalled, iterations));
            }
            damping = damping.max(damping_floor) * growth;
            growth *= 2.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_functions::{Quadratic, Rosenbrock};
    use approx::assert_abs_diff_eq;
    use ndarray::{array, ArrayViewMut1, ArrayViewMut2};
    use proptest::prelude::*;

    #[test]
    fn strictly_convex_quadratic_takes_one_step() {
        let q = Quadratic::new(
            array![[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]],
            array![1.0, -2.0, 0.5],
        )
        .unwrap();
        let sol = TrustRegion::default()
            .minimize(&q, array![10.0, -7.0, 3.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::Converged);
        assert_eq!(sol.report.iterations, 1);
        assert_abs_diff_eq!(sol.x, q.minimizer(), epsilon = 1e-12);
    }

    #[test]
    fn rosenbrock_from_the_classic_start_and_an_indefinite_point() {
        for start in [array![-1.2, 1.0], array![0.0, 1.0], array![2.0, -3.0]] {
            let sol = TrustRegion::default()
                .minimize(&Rosenbrock::default(), start.view())
                .unwrap();
            assert_eq!(sol.report.status, Status::Converged, "{:?}", sol.report);
            assert_abs_diff_eq!(sol.x, array![1.0, 1.0], epsilon = 1e-8);
            assert!(sol.report.iterations < 60, "{:?}", sol.report);
            assert!(sol.report.evaluations > sol.report.iterations);
        }
    }

    /// `f(x) = (x − 2)²/2 − log(1 − x)`: defined only for `x < 1`, minimised at
    /// `x* = (3 − √5)/2`. The Newton step from the left overshoots into the undefined region.
    struct Barrier;
    impl Objective for Barrier {
        fn dim(&self) -> usize {
            1
        }
        fn value(&self, x: ArrayView1<'_, f64>) -> f64 {
            if x[0] < 1.0 {
                0.5 * (x[0] - 2.0).powi(2) - (1.0 - x[0]).ln()
            } else {
                f64::NAN
            }
        }
        fn value_and_gradient(&self, x: ArrayView1<'_, f64>, mut g: ArrayViewMut1<'_, f64>) -> f64 {
            g[0] = (x[0] - 2.0) + 1.0 / (1.0 - x[0]);
            self.value(x)
        }
    }
    impl TwiceDifferentiable for Barrier {
        fn hessian(&self, x: ArrayView1<'_, f64>, mut h: ArrayViewMut2<'_, f64>) {
            h[[0, 0]] = 1.0 + 1.0 / (1.0 - x[0]).powi(2);
        }
    }

    #[test]
    fn non_finite_trial_points_shrink_the_step_and_never_end_the_run() {
        let minimiser = (3.0 - 5.0_f64.sqrt()) / 2.0;
        for start in [-30.0, -3.0, 0.9, 0.999] {
            let sol = TrustRegion::default()
                .minimize(&Barrier, array![start].view())
                .unwrap();
            assert_eq!(
                sol.report.status,
                Status::Converged,
                "from {start}: {:?}",
                sol.report
            );
            assert_abs_diff_eq!(sol.x[0], minimiser, epsilon = 1e-9);
        }
    }

    /// `x⁴/4 − x²/2 + y²/2`: a saddle at the origin, minima at `(±1, 0)`.
    struct DoubleWell;
    impl Objective for DoubleWell {
        fn dim(&self) -> usize {
            2
        }
        fn value(&self, x: ArrayView1<'_, f64>) -> f64 {
            x[0].powi(4) / 4.0 - x[0] * x[0] / 2.0 + x[1] * x[1] / 2.0
        }
        fn value_and_gradient(&self, x: ArrayView1<'_, f64>, mut g: ArrayViewMut1<'_, f64>) -> f64 {
            g[0] = x[0].powi(3) - x[0];
            g[1] = x[1];
            self.value(x)
        }
    }
    impl TwiceDifferentiable for DoubleWell {
        fn hessian(&self, x: ArrayView1<'_, f64>, mut h: ArrayViewMut2<'_, f64>) {
            h[[0, 0]] = 3.0 * x[0] * x[0] - 1.0;
            h[[0, 1]] = 0.0;
            h[[1, 0]] = 0.0;
            h[[1, 1]] = 1.0;
        }
    }

    #[test]
    fn negative_curvature_leads_away_from_a_saddle() {
        // At (0.1, 1) the Hessian is indefinite; plain Newton would head for the saddle.
        let sol = TrustRegion::default()
            .minimize(&DoubleWell, array![0.1, 1.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::Converged, "{:?}", sol.report);
        assert_abs_diff_eq!(sol.x, array![1.0, 0.0], epsilon = 1e-8);
        assert!(sol.report.value < -0.24);
    }

    #[test]
    fn a_non_finite_start_is_reported() {
        let sol = TrustRegion::default()
            .minimize(&Barrier, array![2.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::NonFinite);
        assert_eq!(sol.report.iterations, 0);
    }

    #[test]
    fn invalid_settings_are_errors() {
        for s in [
            TrustRegionSettings {
                gradient_tolerance: -1.0,
                ..Default::default()
            },
            TrustRegionSettings {
                acceptance_ratio: 1.0,
                ..Default::default()
            },
            TrustRegionSettings {
                initial_damping: 0.0,
                ..Default::default()
            },
        ] {
            assert!(matches!(
                TrustRegion::new(s).minimize(&Rosenbrock::default(), array![0.0, 0.0].view()),
                Err(Error::InvalidParameter { .. })
            ));
        }
    }

    #[test]
    fn the_iteration_cap_is_a_status() {
        let s = TrustRegionSettings {
            max_iterations: 2,
            ..Default::default()
        };
        let sol = TrustRegion::new(s)
            .minimize(&Rosenbrock::default(), array![-1.2, 1.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::MaxIterations);
        assert_eq!(sol.report.iterations, 2);
    }

    proptest! {
        /// Every converged run satisfies the first-order condition it reports.
        #[test]
        fn converged_means_the_first_order_condition_holds(
            x0 in -3.0f64..3.0, y0 in -3.0f64..3.0
        ) {
            let r = Rosenbrock::default();
            let sol = TrustRegion::default().minimize(&r, array![x0, y0].view()).unwrap();
            prop_assert_eq!(sol.report.status, Status::Converged);
            let g = r.gradient(sol.x.view());
            prop_assert!(sol.report.criterion.is_met(r.value(sol.x.view()), g.dot(&g).sqrt()));
        }
    }
}
