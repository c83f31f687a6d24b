//! Damped Newton's method with an Armijo backtracking line search.
//!
//! Each iteration solves the Newton system `∇²f(x) p = −∇f(x)` by Cholesky and moves to
//! `x + t p`, halving `t` (by [`NewtonSettings::backtracking_factor`]) until the Armijo
//! condition `f(x + t p) ≤ f(x) + c₁ t ∇f(x)ᵀp` holds (Nocedal & Wright, *Numerical
//! Optimization*, 2nd ed., Algorithm 3.1 with the Newton direction of §3.3). Near the minimum
//! of a smooth, strictly convex function the full step is accepted and convergence is
//! quadratic; far from it the line search keeps every step a descent step.
//!
//! When the Hessian is not positive definite (a non-convex region, a flat direction, round-off)
//! the Cholesky factorisation fails; the direction then comes from `∇²f + τ I` with a ridge `τ`
//! that starts at [`NewtonSettings::initial_ridge`] times the largest diagonal entry and grows
//! tenfold until the factorisation succeeds (a Levenberg-style modification, Nocedal & Wright
//! §3.4). If it never does (a non-finite Hessian, or [`NewtonSettings::max_ridge_attempts`]
//! exhausted), the step falls back to steepest descent `p = −∇f`.

use gendisc_core::linalg::Cholesky;
use gendisc_core::validate::check_finite_vector;
use gendisc_core::{Error, Result};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Zip};
use serde::{Deserialize, Serialize};

use crate::objective::{Counted, Objective, TwiceDifferentiable};
use crate::report::{Criterion, Report, Solution, Status};

/// Settings of [`Newton`], with documented defaults (see [`NewtonSettings::default`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct NewtonSettings {
    /// Converged when `‖∇f(x)‖₂ ≤ gradient_tolerance · max(1, |f(x)|)` ([`Criterion`]).
    /// Default `1e-8`.
    pub gradient_tolerance: f64,
    /// Maximum number of Newton steps. Default `100`.
    pub max_iterations: usize,
    /// The Armijo constant `c₁ ∈ (0, 1)` of the sufficient-decrease condition. Default `1e-4`.
    pub armijo_c1: f64,
    /// The factor `ρ ∈ (0, 1)` by which a rejected step is shortened. Default `0.5`.
    pub backtracking_factor: f64,
    /// Maximum number of step shortenings per iteration. Default `60` (`0.5⁶⁰ ≈ 10⁻¹⁸`).
    pub max_backtracks: usize,
    /// The first ridge tried when the Hessian is not positive definite, relative to its largest
    /// diagonal entry. Default `1e-10`.
    pub initial_ridge: f64,
    /// How many times the ridge is multiplied by ten before steepest descent is used instead.
    /// Default `20` (the last ridge is `10⁹` times the largest diagonal entry).
    pub max_ridge_attempts: usize,
}

impl Default for NewtonSettings {
    fn default() -> Self {
        Self {
            gradient_tolerance: 1e-8,
            max_iterations: 100,
            armijo_c1: 1e-4,
            backtracking_factor: 0.5,
            max_backtracks: 60,
            initial_ridge: 1e-10,
            max_ridge_attempts: 20,
        }
    }
}

impl NewtonSettings {
    /// Checks every setting; an invalid one is an [`Error::InvalidParameter`] naming it.
    pub fn validate(&self) -> Result<()> {
        if !(self.gradient_tolerance >= 0.0 && self.gradient_tolerance.is_finite()) {
            return Err(Error::invalid_parameter(
                "gradient_tolerance",
                format!("must be finite and ≥ 0, got {}", self.gradient_tolerance),
            ));
        }
        if !(self.armijo_c1 > 0.0 && self.armijo_c1 < 1.0) {
            return Err(Error::invalid_parameter(
                "armijo_c1",
                format!("must lie in (0, 1), got {}", self.armijo_c1),
            ));
        }
        if !(self.backtracking_factor > 0.0 && self.backtracking_factor < 1.0) {
            return Err(Error::invalid_parameter(
                "backtracking_factor",
                format!("must lie in (0, 1), got {}", self.backtracking_factor),
            ));
        }
        if !(self.initial_ridge > 0.0 && self.initial_ridge.is_finite()) {
            return Err(Error::invalid_parameter(
                "initial_ridge",
                format!("must be finite and > 0, got {}", self.initial_ridge),
            ));
        }
        Ok(())
    }
}

/// How a search direction was obtained.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DirectionKind {
    /// The Newton direction `−(∇²f)⁻¹ ∇f`.
    Newton,
    /// `−(∇²f + τ I)⁻¹ ∇f`: the Hessian was not positive definite.
    Regularised {
        /// The ridge `τ` that made the factorisation succeed.
        ridge: f64,
    },
    /// `−∇f`: no ridge made the Hessian factorisable.
    SteepestDescent,
}

/// A search direction and how it was obtained.
#[derive(Debug, Clone, PartialEq)]
pub struct NewtonDirection {
    /// The direction `p`; `∇fᵀp < 0` unless the gradient is zero.
    pub step: Array1<f64>,
    /// Which fallback, if any, produced it.
    pub kind: DirectionKind,
}

/// The (regularised) Newton direction for a Hessian and gradient, with the fallbacks described
/// in the [module documentation](self). This is the direction [`Newton`] steps along; it is
/// public so that callers can examine the local geometry at a solution (for example, whether
/// the Newton direction is a direction of recession of a logistic likelihood).
pub fn newton_direction(
    hessian: ArrayView2<'_, f64>,
    gradient: ArrayView1<'_, f64>,
    settings: &NewtonSettings,
) -> NewtonDirection {
    let is_descent = |p: &Array1<f64>| {
        let slope = p.dot(&gradient);
        p.iter().all(|v| v.is_finite()) && (slope < 0.0 || gradient.iter().all(|&g| g == 0.0))
    };
    let solve = |h: ArrayView2<'_, f64>| -> Option<Array1<f64>> {
        let p = Cholesky::new(h, "Hessian").ok()?.solve_vec(gradient).ok()?;
        let p = -p;
        is_descent(&p).then_some(p)
    };

    if let Some(step) = solve(hessian) {
        return NewtonDirection {
            step,
            kind: DirectionKind::Newton,
        };
    }
    let scale = hessian.diag().iter().fold(
        0.0_f64,
        |m, &d| if d.is_finite() { m.max(d.abs()) } else { m },
    );
    if scale > 0.0 && hessian.iter().all(|v| v.is_finite()) {
        let mut ridge = settings.initial_ridge * scale;
        let mut shifted = hessian.to_owned();
        for _ in 0..settings.max_ridge_attempts {
            shifted.assign(&hessian);
            shifted.diag_mut().mapv_inplace(|d| d + ridge);
            if let Some(step) = solve(shifted.view()) {
                return NewtonDirection {
                    step,
                    kind: DirectionKind::Regularised { ridge },
                };
            }
            ridge *= 10.0;
        }
    }
    NewtonDirection {
        step: gradient.mapv(|g| -g),
        kind: DirectionKind::SteepestDescent,
    }
}

/// Damped Newton's method (see the [module documentation](self)).
///
/// ```
/// use gendisc_optim::{test_functions::Rosenbrock, Newton, Status};
/// use ndarray::array;
///
/// let solution = Newton::default().minimize(&Rosenbrock::default(), array![-1.2, 1.0].view())?;
/// assert_eq!(solution.report.status, Status::Converged);
/// assert!((solution.x[0] - 1.0).abs() < 1e-8);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Newton {
    settings: NewtonSettings,
}

impl Newton {
    /// A solver with the given settings.
    pub fn new(settings: NewtonSettings) -> Self {
        Self { settings }
    }

    /// The settings.
    pub fn settings(&self) -> &NewtonSettings {
        &self.settings
    }

    /// Minimises `problem` from `x0`.
    ///
    /// Fails only on invalid settings or a starting point of the wrong length or with a
    /// non-finite entry; every outcome of the iteration itself (including a non-finite
    /// objective) is a [`Status`] in the returned report.
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

        let mut iterations = 0;
        loop {
            if criterion.is_met(it.f, norm(&it.g)) {
                return Ok(it.finish(&problem, criterion, Status::Converged, iterations));
            }
            if iterations >= s.max_iterations {
                return Ok(it.finish(&problem, criterion, Status::MaxIterations, iterations));
            }

            problem.hessian(it.x.view(), h.view_mut());
            let p = newton_direction(h.view(), it.g.view(), s).step;
            let slope = it.g.dot(&p);

            // Below this predicted decrease no step can be told apart from rounding in f, and
            // the line search cannot judge it. Near a minimum the full Newton step still
            // shrinks the gradient (quadratically), so it is taken when it does not raise f
            // beyond rounding and does lower the gradient norm; otherwise the run has stalled.
            // Without this, a decrease a few ulps of f above the threshold sends the search
            // into ever shorter steps that f cannot tell apart.
            let resolution = 4.0 * f64::EPSILON * it.f.abs();
            let search = if -slope <= resolution {
                Search::BelowResolution
            } else {
                let mut t = 1.0;
                let mut search = Search::Failed { any_finite: false };
                for _ in 0..=s.max_backtracks {
                    it.set_trial(&p, t);
                    let ft = problem.value(it.trial.view());
                    if ft.is_finite() && ft <= it.f + s.armijo_c1 * t * slope {
                        search = Search::Accepted;
                        break;
                    }
                    let any_finite =
                        ft.is_finite() || matches!(search, Search::Failed { any_finite: true });
                    search = Search::Failed { any_finite };
                    t *= s.backtracking_factor;
                    if any_finite && -t * slope <= resolution {
                        search = Search::BelowResolution;
                        break;
                    }
                }
                search
            };
            match search {
                Search::BelowResolution => {
                    it.set_trial(&p, 1.0);
                    let ft = problem.value_and_gradient(it.trial.view(), it.trial_g.view_mut());
                    let better = ft.is_finite()
                        && ft <= it.f + resolution
                        && all_finite(&it.trial_g)
                        && norm(&it.trial_g) < norm(&it.g);
                    if !better {
                        return Ok(it.finish(&problem, criterion, Status::Stalled, iterations));
                    }
                    it.accept(ft);
                }
                Search::Failed { any_finite } => {
                    let status = if any_finite {
                        Status::Stalled
                    } else {
                        Status::NonFinite
                    };
                    return Ok(it.finish(&problem, criterion, status, iterations));
                }
                Search::Accepted => {
                    let ft = problem.value_and_gradient(it.trial.view(), it.trial_g.view_mut());
                    if !ft.is_finite() || !all_finite(&it.trial_g) {
                        return Ok(it.finish(&problem, criterion, Status::NonFinite, iterations));
                    }
                    it.accept(ft);
                }
            }
            iterations += 1;
        }
    }
}

/// How a line search along a Newton direction ended.
enum Search {
    /// A step met the Armijo condition (its point is the iterate's trial point).
    Accepted,
    /// The predicted decrease fell below what `f` can resolve.
    BelowResolution,
    /// No step met the condition; `any_finite` when some trial point had a finite value.
    Failed { any_finite: bool },
}

/// The state the two Newton methods carry: the current point with its value and gradient, and
/// the buffers of a trial point, allocated once per run.
pub(crate) struct Iterate {
    pub(crate) x: Array1<f64>,
    pub(crate) f: f64,
    pub(crate) g: Array1<f64>,
    pub(crate) trial: Array1<f64>,
    pub(crate) trial_g: Array1<f64>,
}

impl Iterate {
    /// The iterate at `x0`, evaluated.
    pub(crate) fn start<P: Objective + ?Sized>(problem: &P, x0: ArrayView1<'_, f64>) -> Self {
        let n = x0.len();
        let x = x0.to_owned();
        let mut g = Array1::zeros(n);
        let f = problem.value_and_gradient(x.view(), g.view_mut());
        Self {
            x,
            f,
            g,
            trial: Array1::zeros(n),
            trial_g: Array1::zeros(n),
        }
    }

    /// Whether the value and gradient at the current point are finite.
    pub(crate) fn is_finite(&self) -> bool {
        self.f.is_finite() && all_finite(&self.g)
    }

    /// Sets the trial point to `x + t p`.
    pub(crate) fn set_trial(&mut self, p: &Array1<f64>, t: f64) {
        Zip::from(&mut self.trial)
            .and(&self.x)
            .and(p)
            .for_each(|v, &xi, &pi| *v = xi + t * pi);
    }

    /// Moves to the trial point, whose value is `f_trial` and whose gradient is in `trial_g`.
    pub(crate) fn accept(&mut self, f_trial: f64) {
        std::mem::swap(&mut self.x, &mut self.trial);
        std::mem::swap(&mut self.g, &mut self.trial_g);
        self.f = f_trial;
    }

    /// The solution at the current point.
    pub(crate) fn finish<P: ?Sized>(
        self,
        problem: &Counted<'_, P>,
        criterion: Criterion,
        status: Status,
        iterations: usize,
    ) -> Solution {
        Solution {
            report: Report {
                status,
                criterion,
                iterations,
                evaluations: problem.evaluations(),
                value: self.f,
                gradient_norm: Some(norm(&self.g)),
            },
            x: self.x,
        }
    }
}

/// The starting point has the problem's dimension and finite entries.
pub(crate) fn check_start(dim: usize, x0: ArrayView1<'_, f64>) -> Result<()> {
    if dim == 0 {
        return Err(Error::Empty {
            what: "parameter vector of the objective".into(),
        });
    }
    if x0.len() != dim {
        return Err(Error::shape_mismatch(
            "length of the starting point vs dimension of the objective",
            dim,
            x0.len(),
        ));
    }
    check_finite_vector(x0, "starting point")
}

/// `‖v‖₂`. The plain sum of squares where it stays in the normal range (every fit's case);
/// otherwise the entries are first scaled by the power of two at or below the largest
/// magnitude (without rounding), so that a gradient with entries beyond `10¹⁵⁴` has a finite norm and
/// one below `10⁻¹⁵⁴` a non-zero one.
pub(crate) fn norm(v: &Array1<f64>) -> f64 {
    let squares = v.dot(v);
    if squares.is_nan() || (squares.is_finite() && squares >= f64::MIN_POSITIVE) {
        return squares.sqrt();
    }
    let largest = v.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    if largest == 0.0 || largest.is_infinite() {
        return largest;
    }
    // The exponent bits alone: a power of two, which divides without rounding.
    let scale = f64::from_bits(largest.to_bits() & 0x7ff0_0000_0000_0000).max(f64::MIN_POSITIVE);
    let scaled: f64 = v.iter().map(|x| (x / scale) * (x / scale)).sum();
    scale * scaled.sqrt()
}

/// Whether every entry is finite. Every entry is looked at, without stopping at the first
/// that is not: the usual answer is yes, and a loop without an early exit is vectorised (for
/// L-BFGS's vectors of thousands of coefficients, checked at every trial point).
pub(crate) fn all_finite(v: &Array1<f64>) -> bool {
    match v.as_slice() {
        Some(v) => v.iter().fold(true, |finite, x| finite & x.is_finite()),
        None => v.iter().all(|x| x.is_finite()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objective::Objective;
    use crate::test_functions::{Quadratic, Rosenbrock};
    use approx::assert_abs_diff_eq;
    use ndarray::{array, ArrayViewMut1, ArrayViewMut2};
    use proptest::prelude::*;

    #[test]
    fn the_norm_neither_overflows_nor_underflows() {
        assert_eq!(norm(&array![3.0, 4.0]), 5.0);
        // Scaled by a power of two, the rescaled sums are exact as the plain one is.
        let (big, small) = (2f64.powi(900), 2f64.powi(-900));
        assert_eq!(norm(&array![3.0 * big, 4.0 * big]), 5.0 * big);
        assert_eq!(norm(&array![3.0 * small, 4.0 * small]), 5.0 * small);
        assert_eq!(norm(&array![f64::MAX, 0.0]), f64::MAX);
        assert_eq!(norm(&array![0.0, 0.0]), 0.0);
        assert_eq!(norm(&array![1.0, f64::INFINITY]), f64::INFINITY);
        assert!(norm(&array![1e300, f64::NAN]).is_nan());
        assert!(norm(&array![1e-300, f64::NAN]).is_nan());
    }

    #[test]
    fn strictly_convex_quadratic_takes_one_step() {
        let q = Quadratic::new(
            array![[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]],
            array![1.0, -2.0, 0.5],
        )
        .unwrap();
        let sol = Newton::default()
            .minimize(&q, array![10.0, -7.0, 3.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::Converged);
        assert_eq!(sol.report.iterations, 1);
        assert_abs_diff_eq!(sol.x, q.minimizer(), epsilon = 1e-12);
        assert!(sol.gradient_norm() <= 1e-8);
    }

    /// `½x² + 0.45` whose evaluation adds `10⁻¹⁵` away from `x0`, as rounding in a long sum
    /// can: every trial point looks (barely) worse than the current one.
    struct RoundingNoise {
        x0: f64,
    }

    impl Objective for RoundingNoise {
        fn dim(&self) -> usize {
            1
        }
        fn value(&self, x: ArrayView1<'_, f64>) -> f64 {
            let noise = if x[0] == self.x0 { 0.0 } else { 1e-15 };
            0.45 + 0.5 * x[0] * x[0] + noise
        }
        fn value_and_gradient(&self, x: ArrayView1<'_, f64>, mut g: ArrayViewMut1<'_, f64>) -> f64 {
            g[0] = x[0];
            self.value(x)
        }
    }

    impl TwiceDifferentiable for RoundingNoise {
        fn hessian(&self, _x: ArrayView1<'_, f64>, mut h: ArrayViewMut2<'_, f64>) {
            h[[0, 0]] = 1.0;
        }
    }

    #[test]
    fn a_decrease_below_rounding_ends_the_search() {
        // The predicted decrease ½x0² = 4.5e-16 is just above 4ε·f ≈ 4e-16: the line search
        // cannot resolve it and must stop rather than shorten the step 60 times per iteration.
        // The gradient is still above its tolerance, so the run has stalled, not converged.
        let problem = RoundingNoise { x0: 3e-8 };
        let settings = NewtonSettings {
            gradient_tolerance: 1e-12,
            ..Default::default()
        };
        let sol = Newton::new(settings)
            .minimize(&problem, array![3e-8].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::Stalled);
        assert_eq!(
            sol.report.iterations, 0,
            "the full step raises f beyond rounding"
        );
        assert_eq!(sol.x[0], 3e-8);
    }

    #[test]
    fn rosenbrock_from_the_classic_start() {
        let sol = Newton::default()
            .minimize(&Rosenbrock::default(), array![-1.2, 1.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::Converged);
        assert_abs_diff_eq!(sol.x, array![1.0, 1.0], epsilon = 1e-8);
        assert!(sol.report.value < 1e-16);
        // Nocedal & Wright report about 20 iterations for Newton with backtracking here.
        assert!(sol.report.iterations < 40, "{:?}", sol.report);
    }

    #[test]
    fn indefinite_hessian_falls_back_to_a_ridge() {
        // Rosenbrock's Hessian is indefinite at (0, 1): 2 − 400(1 − 0) < 0.
        let r = Rosenbrock::default();
        let x = array![0.0, 1.0];
        let mut h = Array2::zeros((2, 2));
        r.hessian(x.view(), h.view_mut());
        let g = r.gradient(x.view());
        let dir = newton_direction(h.view(), g.view(), &NewtonSettings::default());
        assert!(matches!(dir.kind, DirectionKind::Regularised { .. }));
        assert!(dir.step.dot(&g) < 0.0);
        let sol = Newton::default().minimize(&r, x.view()).unwrap();
        assert_eq!(sol.report.status, Status::Converged);
    }

    #[test]
    fn non_finite_hessian_falls_back_to_steepest_descent() {
        let h = array![[f64::NAN, 0.0], [0.0, 1.0]];
        let g = array![1.0, -2.0];
        let dir = newton_direction(h.view(), g.view(), &NewtonSettings::default());
        assert_eq!(dir.kind, DirectionKind::SteepestDescent);
        assert_eq!(dir.step, array![-1.0, 2.0]);
    }

    /// `f(x) = (x − 2)²` for `x < 1`, NaN beyond: the minimiser lies outside the domain.
    struct NanBeyondOne;
    impl Objective for NanBeyondOne {
        fn dim(&self) -> usize {
            1
        }
        fn value(&self, x: ArrayView1<'_, f64>) -> f64 {
            if x[0] < 1.0 {
                (x[0] - 2.0).powi(2)
            } else {
                f64::NAN
            }
        }
        fn value_and_gradient(&self, x: ArrayView1<'_, f64>, mut g: ArrayViewMut1<'_, f64>) -> f64 {
            g[0] = 2.0 * (x[0] - 2.0);
            self.value(x)
        }
    }
    impl TwiceDifferentiable for NanBeyondOne {
        fn hessian(&self, _x: ArrayView1<'_, f64>, mut h: ArrayViewMut2<'_, f64>) {
            h[[0, 0]] = 2.0;
        }
    }

    #[test]
    fn non_finite_values_are_reported_not_looped_on() {
        let sol = Newton::default()
            .minimize(&NanBeyondOne, array![2.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::NonFinite);
        assert_eq!(sol.report.iterations, 0);

        // Every full Newton step lands at x = 2, in the NaN region: it is backtracked out of,
        // the iterates creep towards the boundary x = 1, and the run ends by its iteration cap.
        let settings = NewtonSettings {
            max_iterations: 30,
            ..Default::default()
        };
        let sol = Newton::new(settings)
            .minimize(&NanBeyondOne, array![0.0].view())
            .unwrap();
        assert!(sol.x[0] < 1.0);
        assert!(sol.report.value.is_finite());
        assert_ne!(sol.report.status, Status::Converged);
    }

    #[test]
    fn invalid_settings_and_starts_are_errors() {
        let r = Rosenbrock::default();
        let bad = [
            NewtonSettings {
                gradient_tolerance: -1.0,
                ..Default::default()
            },
            NewtonSettings {
                armijo_c1: 1.0,
                ..Default::default()
            },
            NewtonSettings {
                backtracking_factor: 0.0,
                ..Default::default()
            },
            NewtonSettings {
                initial_ridge: f64::NAN,
                ..Default::default()
            },
        ];
        for s in bad {
            assert!(matches!(
                Newton::new(s).minimize(&r, array![0.0, 0.0].view()),
                Err(Error::InvalidParameter { .. })
            ));
        }
        assert!(matches!(
            Newton::default().minimize(&r, array![0.0].view()),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            Newton::default().minimize(&r, array![0.0, f64::INFINITY].view()),
            Err(Error::NonFinite { row: 1, .. })
        ));
    }

    #[test]
    fn zero_iterations_reports_the_start() {
        let s = NewtonSettings {
            max_iterations: 0,
            ..Default::default()
        };
        let sol = Newton::new(s)
            .minimize(&Rosenbrock::default(), array![-1.2, 1.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::MaxIterations);
        assert_eq!(sol.x, array![-1.2, 1.0]);
        assert_abs_diff_eq!(sol.report.value, 24.2, epsilon = 1e-12);
    }

    proptest! {
        /// Any SPD quadratic is solved in one Newton step from any start.
        #[test]
        fn quadratics_in_one_step(m in prop::collection::vec(-2.0f64..2.0, 9),
                                  b in prop::collection::vec(-5.0f64..5.0, 3),
                                  x0 in prop::collection::vec(-10.0f64..10.0, 3)) {
            let m = Array2::from_shape_vec((3, 3), m).unwrap();
            let a = m.dot(&m.t()) + Array2::<f64>::eye(3);
            let q = Quadratic::new(a, Array1::from(b)).unwrap();
            let sol = Newton::default().minimize(&q, Array1::from(x0).view()).unwrap();
            prop_assert_eq!(sol.report.status, Status::Converged);
            prop_assert!(sol.report.iterations <= 1);
            prop_assert!((&sol.x - &q.minimizer()).iter().all(|d| d.abs() < 1e-9));
        }
    }
}
