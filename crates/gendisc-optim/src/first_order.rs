//! Nonlinear conjugate gradient from argmin 0.11 behind our [`Objective`] trait
//! ([`ConjugateGradient`], Polak–Ribière+ with a Moré–Thuente line search): Bouchard & Triggs'
//! optimiser, kept as the paper's reading. (L-BFGS is this crate's own, [`crate::Lbfgs`].)
//!
//! Three things are added around argmin:
//!
//! * **Stopping rules in the one vocabulary** ([`Status`]). argmin's nonlinear CG has no
//!   stopping test of its own, and once it has converged its next line search fails with
//!   "search direction must be a descent direction" (argmin issue #400), which `Executor::run`
//!   returns as an error, losing the solution. The solver is therefore wrapped in a `Solver`
//!   that delegates `init`/`next_iter` and ends the run as [`Status::Converged`] as soon as the
//!   [`Criterion`] `‖∇f‖₂ ≤ gradient_tolerance · max(1, |f|)` holds. An iteration that reduces
//!   `f` by a relative amount `(f_k − f_{k+1}) / max(|f_k|, |f_{k+1}|, 1) ≤ value_tolerance`
//!   (scipy's L-BFGS-B `ftol` test) while the gradient is still above the criterion ends the
//!   run as [`Status::Stalled`]: the value has stopped moving, but the first-order condition
//!   does not hold, and a stall is never reported as convergence. So does an iteration that
//!   does not decrease `f` at all (Moré–Thuente also reports success when it stops on its
//!   interval width or step bounds).
//! * **The best point survives errors.** Every evaluation is recorded, and the point of lowest
//!   finite value (with its gradient) is returned when argmin stops with an error; if its
//!   gradient meets the criterion the run is reported as converged. After a stall the method
//!   is restarted from that point (steepest descent, fresh memory) while restarts make
//!   progress, at most [`MAX_RESTARTS`] times.
//! * **Memoisation.** NLCG evaluates `f` and `∇f` again at the point its line search has just
//!   evaluated; the adapter keeps the last value and gradient, so each point costs one call of
//!   [`Objective::value_and_gradient`].
//!
//! A non-finite objective value at a trial point ends the current argmin run (its line search
//! cannot recover from one); the best finite point is returned, as [`Status::NonFinite`] unless
//! it meets the criterion. Use [`TrustRegion`](crate::TrustRegion) or [`Lbfgs`](crate::Lbfgs)
//! where trial points may leave the objective's domain: they shorten their step instead.

use std::cell::{Cell, RefCell};

use argmin::core::{
    CostFunction, Error as ArgminError, Executor, Gradient, IterState, Problem, Solver, State,
    TerminationReason, TerminationStatus, KV,
};
use argmin::solver::conjugategradient::beta::PolakRibierePlus;
use argmin::solver::conjugategradient::NonlinearConjugateGradient;
use argmin::solver::linesearch::MoreThuenteLineSearch;
use gendisc_core::{Error, Result};
use ndarray::{Array1, ArrayView1};
use serde::{Deserialize, Serialize};

use crate::newton::{check_start, norm};
use crate::objective::Objective;
use crate::report::{Criterion, Report, Solution, Status};

/// The iteration state of argmin's first-order solvers on `Array1<f64>`.
type FirstOrderState = IterState<Array1<f64>, Array1<f64>, (), (), (), f64>;

/// The default relative-decrease tolerance of the argmin solvers, `64 ε` (scikit-learn's
/// choice for scipy's L-BFGS-B `ftol`).
pub const DEFAULT_VALUE_TOLERANCE: f64 = 64.0 * f64::EPSILON;

/// Settings of [`ConjugateGradient`], with documented defaults.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ConjugateGradientSettings {
    /// Converged when `‖∇f(x)‖₂ ≤ gradient_tolerance · max(1, |f(x)|)` ([`Criterion`]).
    /// Default `1e-8`.
    pub gradient_tolerance: f64,
    /// Stop, as [`Status::Stalled`] unless the gradient criterion holds, when an iteration
    /// reduces `f` by a relative amount `≤ value_tolerance` (see the
    /// [module documentation](self)); 0 disables the test. Default
    /// [`DEFAULT_VALUE_TOLERANCE`].
    pub value_tolerance: f64,
    /// Maximum number of iterations (line searches). Default `10_000`.
    pub max_iterations: usize,
    /// Restart with steepest descent when successive gradients are far from orthogonal,
    /// `|∇f_kᵀ∇f_{k−1}| / ‖∇f_k‖² ≥ ν` (Nocedal & Wright eq. 5.52). Default `ν = 0.1`.
    pub restart_orthogonality: f64,
    /// Sufficient-decrease constant `c₁` of the strong Wolfe conditions. Default `1e-4`.
    pub wolfe_c1: f64,
    /// Curvature constant `c₂` of the strong Wolfe conditions. Default `0.1`: conjugate
    /// gradient needs a nearly exact line search (`c₂ < ½` keeps PR+ directions descent
    /// directions), unlike quasi-Newton methods.
    pub wolfe_c2: f64,
}

impl Default for ConjugateGradientSettings {
    fn default() -> Self {
        Self {
            gradient_tolerance: 1e-8,
            value_tolerance: DEFAULT_VALUE_TOLERANCE,
            max_iterations: 10_000,
            restart_orthogonality: 0.1,
            wolfe_c1: 1e-4,
            wolfe_c2: 0.1,
        }
    }
}

pub(crate) fn check_tolerances(gradient_tolerance: f64, value_tolerance: f64) -> Result<()> {
    for (name, tolerance) in [
        ("gradient_tolerance", gradient_tolerance),
        ("value_tolerance", value_tolerance),
    ] {
        if !(tolerance >= 0.0 && tolerance.is_finite()) {
            return Err(Error::invalid_parameter(
                name,
                format!("must be finite and ≥ 0, got {tolerance}"),
            ));
        }
    }
    Ok(())
}

pub(crate) fn check_wolfe(c1: f64, c2: f64) -> Result<()> {
    if !(c1 > 0.0 && c1 < 1.0) {
        return Err(Error::invalid_parameter(
            "wolfe_c1",
            format!("must lie in (0, 1), got {c1}"),
        ));
    }
    if !(c2 > c1 && c2 < 1.0) {
        return Err(Error::invalid_parameter(
            "wolfe_c2",
            format!("must lie in (c1, 1) = ({c1}, 1), got {c2}"),
        ));
    }
    Ok(())
}

impl ConjugateGradientSettings {
    /// Checks every setting; an invalid one is an [`Error::InvalidParameter`] naming it.
    pub fn validate(&self) -> Result<()> {
        check_tolerances(self.gradient_tolerance, self.value_tolerance)?;
        check_wolfe(self.wolfe_c1, self.wolfe_c2)?;
        if !(self.restart_orthogonality > 0.0 && self.restart_orthogonality.is_finite()) {
            return Err(Error::invalid_parameter(
                "restart_orthogonality",
                format!("must be finite and > 0, got {}", self.restart_orthogonality),
            ));
        }
        Ok(())
    }
}

/// Nonlinear conjugate gradient (Polak–Ribière+, orthogonality restarts, Moré–Thuente line
/// search) through argmin; see the [module documentation](self).
///
/// ```
/// use gendisc_optim::{test_functions::Rosenbrock, ConjugateGradient, Status};
/// use ndarray::array;
///
/// let solution = ConjugateGradient::default()
///     .minimize(&Rosenbrock::default(), array![-1.2, 1.0].view())?;
/// assert_eq!(solution.report.status, Status::Converged);
/// assert!((solution.x[1] - 1.0).abs() < 1e-6);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ConjugateGradient {
    settings: ConjugateGradientSettings,
}

impl ConjugateGradient {
    /// A solver with the given settings.
    pub fn new(settings: ConjugateGradientSettings) -> Self {
        Self { settings }
    }

    /// The settings.
    pub fn settings(&self) -> &ConjugateGradientSettings {
        &self.settings
    }

    /// Minimises `problem` from `x0`. Fails only on invalid settings or starting point; every
    /// outcome of the iteration is a [`Status`] in the report.
    pub fn minimize<P: Objective + ?Sized>(
        &self,
        problem: &P,
        x0: ArrayView1<'_, f64>,
    ) -> Result<Solution> {
        let s = &self.settings;
        s.validate()?;
        check_start(problem.dim(), x0)?;
        let line_search = MoreThuenteLineSearch::new()
            .with_c(s.wolfe_c1, s.wolfe_c2)
            .map_err(|e| Error::invalid_parameter("wolfe_c1", e.to_string()))?;
        let solver = NonlinearConjugateGradient::new(line_search, PolakRibierePlus::new())
            .restart_orthogonality(s.restart_orthogonality);
        let rules = StoppingRules {
            gradient_tolerance: s.gradient_tolerance,
            value_tolerance: s.value_tolerance,
            max_iterations: s.max_iterations,
        };
        Ok(run(problem, x0, solver, rules))
    }
}

/// A point at which the objective was evaluated.
#[derive(Debug, Clone)]
struct Evaluated {
    x: Array1<f64>,
    value: f64,
    gradient: Array1<f64>,
}

/// Everything the adapter remembers across argmin's calls: the last evaluation (for
/// memoisation), the best one (to survive errors) and whether a non-finite value was met.
#[derive(Debug)]
struct Memo {
    last: Option<Evaluated>,
    best: Option<Evaluated>,
    saw_non_finite: bool,
    /// Calls of [`Objective::value_and_gradient`] (memoised look-ups do not count).
    evaluations: usize,
}

/// Our [`Objective`] seen as an argmin `CostFunction + Gradient` on `Array1<f64>`.
struct ArgminObjective<'a, P: ?Sized> {
    problem: &'a P,
    memo: &'a RefCell<Memo>,
}

impl<P: Objective + ?Sized> ArgminObjective<'_, P> {
    /// Evaluates at `x` unless `x` is the last point evaluated, and hands the evaluation to `f`.
    fn with_evaluation<T>(
        &self,
        x: &Array1<f64>,
        f: impl FnOnce(&Evaluated) -> T,
    ) -> std::result::Result<T, ArgminError> {
        let mut memo = self.memo.borrow_mut();
        let hit = matches!(&memo.last, Some(e) if e.x == x);
        if !hit {
            // Reuse the previous buffers: no allocation per evaluation after the first.
            let mut e = memo.last.take().unwrap_or_else(|| Evaluated {
                x: Array1::zeros(x.len()),
                value: f64::NAN,
                gradient: Array1::zeros(x.len()),
            });
            e.x.assign(x);
            memo.evaluations += 1;
            e.value = self
                .problem
                .value_and_gradient(x.view(), e.gradient.view_mut());
            let finite = e.value.is_finite() && e.gradient.iter().all(|g| g.is_finite());
            if !finite {
                memo.saw_non_finite = true;
                return Err(ArgminError::msg(format!(
                    "objective or gradient is not finite (value {})",
                    e.value
                )));
            }
            if memo.best.as_ref().is_none_or(|b| e.value < b.value) {
                memo.best = Some(e.clone());
            }
            memo.last = Some(e);
        }
        Ok(f(memo.last.as_ref().expect("just evaluated")))
    }
}

impl<P: Objective + ?Sized> CostFunction for ArgminObjective<'_, P> {
    type Param = Array1<f64>;
    type Output = f64;

    fn cost(&self, x: &Array1<f64>) -> std::result::Result<f64, ArgminError> {
        self.with_evaluation(x, |e| e.value)
    }
}

impl<P: Objective + ?Sized> Gradient for ArgminObjective<'_, P> {
    type Param = Array1<f64>;
    type Gradient = Array1<f64>;

    fn gradient(&self, x: &Array1<f64>) -> std::result::Result<Array1<f64>, ArgminError> {
        self.with_evaluation(x, |e| e.gradient.clone())
    }
}

/// When an argmin run stops (see the [module documentation](self)).
#[derive(Debug, Clone, Copy)]
struct StoppingRules {
    gradient_tolerance: f64,
    value_tolerance: f64,
    max_iterations: usize,
}

impl StoppingRules {
    fn criterion(&self) -> Criterion {
        Criterion::new(self.gradient_tolerance)
    }
}

/// An argmin solver with our [`StoppingRules`], counting the iterations that decreased the
/// objective.
struct WithStoppingRules<'a, S> {
    inner: S,
    rules: StoppingRules,
    iterations: &'a Cell<usize>,
}

/// Why [`WithStoppingRules`] ended a run when an iteration did not decrease the objective.
const NO_DECREASE: &str = "the line search did not decrease the objective";
/// Why [`WithStoppingRules`] ended a run whose value stopped moving measurably.
const STALLED: &str = "the relative decrease fell below the value tolerance";

impl<O, S> Solver<O, FirstOrderState> for WithStoppingRules<'_, S>
where
    S: Solver<O, FirstOrderState>,
{
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn init(
        &mut self,
        problem: &mut Problem<O>,
        state: FirstOrderState,
    ) -> std::result::Result<(FirstOrderState, Option<KV>), ArgminError> {
        self.inner.init(problem, state)
    }

    fn next_iter(
        &mut self,
        problem: &mut Problem<O>,
        state: FirstOrderState,
    ) -> std::result::Result<(FirstOrderState, Option<KV>), ArgminError> {
        let previous = state.get_cost();
        let (state, kv) = self.inner.next_iter(problem, state)?;
        let current = state.get_cost();
        if current < previous {
            self.iterations.set(self.iterations.get() + 1);
            let relative_decrease =
                (previous - current) / previous.abs().max(current.abs()).max(1.0);
            if relative_decrease <= self.rules.value_tolerance {
                return Ok((
                    state.terminate_with(TerminationReason::SolverExit(STALLED.into())),
                    kv,
                ));
            }
            Ok((state, kv))
        } else {
            Ok((
                state.terminate_with(TerminationReason::SolverExit(NO_DECREASE.into())),
                kv,
            ))
        }
    }

    fn terminate(&mut self, state: &FirstOrderState) -> TerminationStatus {
        match state.get_gradient() {
            Some(g) if self.rules.criterion().is_met(state.get_cost(), norm(g)) => {
                TerminationStatus::Terminated(TerminationReason::SolverConverged)
            }
            _ => TerminationStatus::NotTerminated,
        }
    }
}

/// How many times a run whose line search failed is restarted from its best point.
pub const MAX_RESTARTS: usize = 5;

/// Runs an argmin first-order solver on `problem`, restarting it from the best point found (so
/// with a steepest-descent step and no memory) after a stall, as long as restarts make
/// progress, at most [`MAX_RESTARTS`] times and within the iteration budget.
fn run<P, S>(problem: &P, x0: ArrayView1<'_, f64>, solver: S, rules: StoppingRules) -> Solution
where
    P: Objective + ?Sized,
    S: Clone,
    for<'a> S: Solver<ArgminObjective<'a, P>, FirstOrderState>,
{
    let mut solution = run_once(problem, x0, solver.clone(), rules);
    let mut iterations = solution.report.iterations;
    let mut evaluations = solution.report.evaluations;
    for _ in 0..MAX_RESTARTS {
        if solution.report.status != Status::Stalled || iterations >= rules.max_iterations {
            break;
        }
        let remaining = StoppingRules {
            max_iterations: rules.max_iterations - iterations,
            ..rules
        };
        let restarted = run_once(problem, solution.x.view(), solver.clone(), remaining);
        iterations += restarted.report.iterations;
        evaluations += restarted.report.evaluations;
        let improved = restarted.report.value < solution.report.value;
        if !improved {
            break;
        }
        solution = restarted;
    }
    solution.report.iterations = iterations;
    solution.report.evaluations = evaluations;
    solution
}

/// One argmin run, whatever happens turned into a [`Solution`].
fn run_once<P, S>(problem: &P, x0: ArrayView1<'_, f64>, solver: S, rules: StoppingRules) -> Solution
where
    P: Objective + ?Sized,
    for<'a> S: Solver<ArgminObjective<'a, P>, FirstOrderState>,
{
    let memo = RefCell::new(Memo {
        last: None,
        best: None,
        saw_non_finite: false,
        evaluations: 0,
    });
    let iterations = Cell::new(0);
    let objective = ArgminObjective {
        problem,
        memo: &memo,
    };
    let wrapped = WithStoppingRules {
        inner: solver,
        rules,
        iterations: &iterations,
    };
    let outcome = Executor::new(objective, wrapped)
        .configure(|state| {
            state
                .param(x0.to_owned())
                .max_iters(rules.max_iterations as u64)
        })
        .timer(false)
        .run();

    let iterations = iterations.get();
    let criterion = rules.criterion();
    let solution = |e: Evaluated, status, evaluations| Solution {
        report: Report {
            status,
            criterion,
            iterations,
            evaluations,
            value: e.value,
            gradient_norm: Some(norm(&e.gradient)),
        },
        x: e.x,
    };

    // Read what is needed from argmin's result; it borrows the memo, so let it go first.
    let stop = match outcome {
        Ok(result) => {
            let state = result.state;
            match (
                state.get_termination_reason(),
                state.get_param(),
                state.get_gradient(),
            ) {
                (Some(TerminationReason::SolverConverged), Some(x), Some(g)) => {
                    let e = Evaluated {
                        x: x.clone(),
                        value: state.get_cost(),
                        gradient: g.clone(),
                    };
                    let evaluations = memo.borrow().evaluations;
                    return solution(e, Status::Converged, evaluations);
                }
                (Some(TerminationReason::MaxItersReached), ..) => Status::MaxIterations,
                _ => Status::Stalled,
            }
        }
        // An error ends the run inside a line search (or at a non-finite value).
        Err(_) => Status::Stalled,
    };
    let memo = memo.into_inner();
    let evaluations = memo.evaluations;
    let Some(best) = memo.best else {
        // Not even the starting point had a finite value.
        let e = Evaluated {
            x: x0.to_owned(),
            value: f64::NAN,
            gradient: Array1::from_elem(x0.len(), f64::NAN),
        };
        return solution(e, Status::NonFinite, evaluations);
    };
    let status = if criterion.is_met(best.value, norm(&best.gradient)) {
        Status::Converged
    } else if memo.saw_non_finite {
        Status::NonFinite
    } else {
        stop
    };
    solution(best, status, evaluations)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_functions::{Quadratic, Rosenbrock};
    use approx::assert_abs_diff_eq;
    use ndarray::{array, Array2, ArrayViewMut1};

    /// Counts evaluations, to check the memoisation.
    struct Counted<P> {
        inner: P,
        calls: Cell<usize>,
    }
    impl<P: Objective> Objective for Counted<P> {
        fn dim(&self) -> usize {
            self.inner.dim()
        }
        fn value(&self, x: ArrayView1<'_, f64>) -> f64 {
            self.calls.set(self.calls.get() + 1);
            self.inner.value(x)
        }
        fn value_and_gradient(&self, x: ArrayView1<'_, f64>, g: ArrayViewMut1<'_, f64>) -> f64 {
            self.calls.set(self.calls.get() + 1);
            self.inner.value_and_gradient(x, g)
        }
    }

    #[test]
    fn conjugate_gradient_on_rosenbrock() {
        let sol = ConjugateGradient::default()
            .minimize(&Rosenbrock::default(), array![-1.2, 1.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::Converged, "{:?}", sol.report);
        assert_abs_diff_eq!(sol.x, array![1.0, 1.0], epsilon = 1e-6);
        assert!(sol.gradient_norm() <= 1e-8);
        assert!(sol.report.iterations > 0);
    }

    /// The argmin pitfall: plain NLCG solves a 2-D quadratic in two iterations and then errors
    /// with "search direction must be a descent direction". Ours reports convergence, with the
    /// solution, however many iterations are allowed.
    #[test]
    fn converged_conjugate_gradient_is_not_an_error() {
        let q = Quadratic::new(array![[3.0, 1.0], [1.0, 2.0]], array![1.0, -1.0]).unwrap();
        for max_iterations in [5, 50, 10_000] {
            let settings = ConjugateGradientSettings {
                max_iterations,
                gradient_tolerance: 0.0,
                value_tolerance: 0.0,
                ..Default::default()
            };
            let sol = ConjugateGradient::new(settings)
                .minimize(&q, array![4.0, -3.0].view())
                .unwrap();
            // With a zero tolerance only an exactly zero gradient stops the run early, so
            // argmin eventually fails; the best point is kept and is the minimiser.
            assert_abs_diff_eq!(sol.x, q.minimizer(), epsilon = 1e-10);
            assert!(sol.gradient_norm() < 1e-10);
        }
        let sol = ConjugateGradient::default()
            .minimize(&q, array![4.0, -3.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::Converged);
        assert!(sol.report.iterations <= 3, "{:?}", sol.report);
        assert_abs_diff_eq!(sol.x, q.minimizer(), epsilon = 1e-8);
    }

    /// With no gradient tolerance, the run ends when an iteration no longer decreases `f`
    /// measurably, near the attainable gradient floor — a stall, never called convergence,
    /// since the criterion (here `‖∇f‖ ≤ 0`) does not hold.
    #[test]
    fn a_stalled_decrease_is_not_convergence() {
        let sol = ConjugateGradient::new(ConjugateGradientSettings {
            gradient_tolerance: 0.0,
            ..Default::default()
        })
        .minimize(&Rosenbrock::default(), array![-1.2, 1.0].view())
        .unwrap();
        assert_eq!(sol.report.status, Status::Stalled, "{:?}", sol.report);
        assert!(sol.gradient_norm() < 1e-6, "{:?}", sol.report);
        assert_abs_diff_eq!(sol.x, array![1.0, 1.0], epsilon = 1e-6);
    }

    #[test]
    fn start_at_the_minimum_takes_no_iteration() {
        let q = Quadratic::new(Array2::eye(2), array![1.0, 2.0]).unwrap();
        let sol = ConjugateGradient::default()
            .minimize(&q, array![1.0, 2.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::Converged);
        assert_eq!(sol.report.iterations, 0);
    }

    #[test]
    fn each_point_is_evaluated_once() {
        let counted = Counted {
            inner: Rosenbrock::default(),
            calls: Cell::new(0),
        };
        let memo = RefCell::new(Memo {
            last: None,
            best: None,
            saw_non_finite: false,
            evaluations: 0,
        });
        let adapter = ArgminObjective {
            problem: &counted,
            memo: &memo,
        };
        let x = array![0.5, 0.5];
        let f = adapter.cost(&x).unwrap();
        let g = adapter.gradient(&x).unwrap();
        assert_eq!(counted.calls.get(), 1);
        assert_eq!(f, Rosenbrock::default().value(x.view()));
        assert_eq!(g, Rosenbrock::default().gradient(x.view()));
        adapter.cost(&array![0.0, 0.0]).unwrap();
        assert_eq!(counted.calls.get(), 2);
    }

    /// `f(x) = x²` for `x > −1`, NaN at and below: the first step from 3 overshoots into NaN.
    struct NanBelowMinusOne;
    impl Objective for NanBelowMinusOne {
        fn dim(&self) -> usize {
            1
        }
        fn value(&self, x: ArrayView1<'_, f64>) -> f64 {
            if x[0] > -1.0 {
                x[0] * x[0]
            } else {
                f64::NAN
            }
        }
        fn value_and_gradient(&self, x: ArrayView1<'_, f64>, mut g: ArrayViewMut1<'_, f64>) -> f64 {
            g[0] = 2.0 * x[0];
            self.value(x)
        }
    }

    #[test]
    fn non_finite_values_are_reported() {
        let sol = ConjugateGradient::default()
            .minimize(&NanBelowMinusOne, array![-2.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::NonFinite);
        assert_eq!(sol.report.iterations, 0);
        assert!(sol.report.value.is_nan());
        // From x = 3 the first trial step of the line search is x = −3: NaN. The run stops
        // and reports it, keeping the best point evaluated.
        let sol = ConjugateGradient::default()
            .minimize(&NanBelowMinusOne, array![3.0].view())
            .unwrap();
        assert!(sol.report.value.is_finite());
        assert!(sol.report.value <= 9.0);
        if sol.report.status != Status::Converged {
            assert_eq!(sol.report.status, Status::NonFinite);
        }
    }

    #[test]
    fn invalid_settings_are_errors() {
        let r = Rosenbrock::default();
        let x0 = array![0.0, 0.0];
        let cg = |s| ConjugateGradient::new(s).minimize(&r, x0.view());
        assert!(cg(ConjugateGradientSettings {
            wolfe_c2: 1e-5,
            ..Default::default()
        })
        .is_err());
        assert!(cg(ConjugateGradientSettings {
            restart_orthogonality: 0.0,
            ..Default::default()
        })
        .is_err());
        assert!(cg(ConjugateGradientSettings {
            gradient_tolerance: f64::NAN,
            ..Default::default()
        })
        .is_err());
        assert!(ConjugateGradient::default()
            .minimize(&r, array![1.0].view())
            .is_err());
    }
}
