//! Limited-memory BFGS on buffers allocated once per run.
//!
//! The search direction is the two-loop recursion of Nocedal & Wright (*Numerical
//! Optimization*, 2nd ed., 2006, Algorithm 7.4) over the last `m` correction pairs
//! `sₖ = xₖ₊₁ − xₖ`, `yₖ = ∇fₖ₊₁ − ∇fₖ`, with the initial matrix `H₀ = γ I`,
//! `γ = sᵀy / yᵀy` of the newest pair (eq. 7.20). The step length satisfies the strong Wolfe
//! conditions (eq. 3.7)
//!
//! ```text
//! f(x + α d) ≤ f(x) + c₁ α ∇fᵀd,        |∇f(x + α d)ᵀd| ≤ c₂ |∇fᵀd|,
//! ```
//!
//! found by bracketing and zooming (Algorithms 3.5 and 3.6) with the safeguarded cubic
//! interpolation of eq. 3.59. Where a trial's value is within a few units of rounding of
//! `f(x)` — near a minimiser, on ill-conditioned problems well above the gradient criterion —
//! the first condition is judged by the slope instead (Hager & Zhang's approximate Wolfe
//! condition, `∇f(x + α d)ᵀd ≤ (1 − 2c₁)|∇fᵀd|`), so that the gradient can still be driven down
//! where values no longer resolve. The first step, and the first after the memory is cleared, is
//! steepest descent with `α = min(1, 1/‖∇f‖)`: of unit length far from a minimiser (as L-BFGS-B
//! starts), `−∇f` itself near one, where a resumed run starts; every later step tries `α = 1`
//! first.
//!
//! The iterate, its gradient, the direction, the trial point and its gradient, and the `m`
//! correction pairs are allocated once: an iteration allocates nothing, however many
//! coefficients the problem has.
//!
//! A trial point whose value or gradient is not finite is a step too long: the line search
//! shortens it toward the last finite point, and the run goes on. From a finite start a run
//! ends
//!
//! * [`Status::Converged`] when `‖∇f‖₂ ≤ gradient_tolerance · max(1, |f|)` ([`Criterion`]);
//! * [`Status::Stalled`] when the criterion does not hold and either an iteration reduced `f`
//!   by a relative amount `(fₖ − fₖ₊₁) / max(|fₖ|, |fₖ₊₁|, 1) ≤ value_tolerance` (scipy's
//!   L-BFGS-B `ftol` test; a tolerance of 0 turns it off) or the line search found no
//!   acceptable step — each time after the memory has been cleared and steepest descent tried,
//!   at most [`MAX_RESTARTS`] times in a run;
//! * [`Status::MaxIterations`] at the iteration cap.
//!
//! Only a start where the objective is not finite ends as [`Status::NonFinite`].

use ndarray::{Array1, Array2, ArrayView1, Zip};
use serde::{Deserialize, Serialize};

use gendisc_core::numerics::{combine_dot_lanes, contiguous_dot, dot_lanes_len, DOT_LANES};
use gendisc_core::{Error, Result};

use crate::first_order::{check_tolerances, check_wolfe, DEFAULT_VALUE_TOLERANCE, MAX_RESTARTS};
use crate::newton::{all_finite, check_start, norm};
use crate::objective::Objective;
use crate::report::{Criterion, Report, Solution, Status};

/// Settings of [`Lbfgs`], with documented defaults.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LbfgsSettings {
    /// Converged when `‖∇f(x)‖₂ ≤ gradient_tolerance · max(1, |f(x)|)` ([`Criterion`]).
    /// Default `1e-8`.
    pub gradient_tolerance: f64,
    /// Stop, as [`Status::Stalled`] unless the gradient criterion holds, when an iteration
    /// reduces `f` by a relative amount `≤ value_tolerance` (see the
    /// [module documentation](self)); 0 disables the test. Default
    /// [`DEFAULT_VALUE_TOLERANCE`].
    pub value_tolerance: f64,
    /// Maximum number of iterations. Default `10_000`.
    pub max_iterations: usize,
    /// Number of correction pairs kept, `m`, from 1 to [`Self::MAX_MEMORY`]. Default `10`.
    pub memory: usize,
    /// Sufficient-decrease constant `c₁` of the strong Wolfe conditions. Default `1e-4`.
    pub wolfe_c1: f64,
    /// Curvature constant `c₂` of the strong Wolfe conditions. Default `0.9`, the usual choice
    /// for quasi-Newton methods.
    pub wolfe_c2: f64,
}

impl Default for LbfgsSettings {
    fn default() -> Self {
        Self {
            gradient_tolerance: 1e-8,
            value_tolerance: DEFAULT_VALUE_TOLERANCE,
            max_iterations: 10_000,
            memory: 10,
            wolfe_c1: 1e-4,
            wolfe_c2: 0.9,
        }
    }
}

impl LbfgsSettings {
    /// The most correction pairs [`Self::memory`] may ask for. Nocedal & Wright (§7.2) find 3
    /// to 20 enough in practice; the bound keeps an absurd setting from asking for more memory
    /// than exists, which would abort the process rather than fail.
    pub const MAX_MEMORY: usize = 1_000;

    /// Checks every setting; an invalid one is an [`Error::InvalidParameter`] naming it.
    pub fn validate(&self) -> Result<()> {
        check_tolerances(self.gradient_tolerance, self.value_tolerance)?;
        check_wolfe(self.wolfe_c1, self.wolfe_c2)?;
        if !(1..=Self::MAX_MEMORY).contains(&self.memory) {
            return Err(Error::invalid_parameter(
                "memory",
                format!(
                    "must be from 1 to {}, not {}",
                    Self::MAX_MEMORY,
                    self.memory
                ),
            ));
        }
        Ok(())
    }
}

/// Limited-memory BFGS with a strong-Wolfe line search; see the
/// [module documentation](self).
///
/// ```
/// use gendisc_optim::{test_functions::Rosenbrock, Lbfgs, Status};
/// use ndarray::array;
///
/// let solution = Lbfgs::default().minimize(&Rosenbrock::default(), array![-1.2, 1.0].view())?;
/// assert_eq!(solution.report.status, Status::Converged);
/// assert!((solution.x[0] - 1.0).abs() < 1e-6);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Lbfgs {
    settings: LbfgsSettings,
}

/// The most evaluations one line search may take before it gives up (scipy's `maxls` for
/// L-BFGS-B).
const MAX_LINE_SEARCH_EVALUATIONS: usize = 20;

/// Values of the objective within this many units of rounding (`ε |f|`) of each other count as
/// equal in the line search ([`StrongWolfe::run`]).
const FLAT_ULPS: f64 = 16.0;

impl Lbfgs {
    /// A solver with the given settings.
    pub fn new(settings: LbfgsSettings) -> Self {
        Self { settings }
    }

    /// The settings.
    pub fn settings(&self) -> &LbfgsSettings {
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
        let criterion = Criterion::new(s.gradient_tolerance);
        let mut w = Workspace::new(x0, s.memory);
        let mut evaluations = 1;
        let mut f = problem.value_and_gradient(w.x.view(), w.g.view_mut());
        let report = |status, iterations, evaluations, value, g: &Array1<f64>| Report {
            status,
            criterion,
            iterations,
            evaluations,
            value,
            gradient_norm: Some(norm(g)),
        };
        if !(f.is_finite() && all_finite(&w.g)) {
            let report = report(Status::NonFinite, 0, evaluations, f, &w.g);
            return Ok(Solution { x: w.x, report });
        }
        let search = StrongWolfe {
            c1: s.wolfe_c1,
            c2: s.wolfe_c2,
        };
        let (mut iterations, mut restarts) = (0, 0);
        let status = loop {
            let gradient_norm = norm(&w.g);
            if criterion.is_met(f, gradient_norm) {
                break Status::Converged;
            }
            if iterations >= s.max_iterations {
                break Status::MaxIterations;
            }
            w.pairs.direction(&w.g, &mut w.d);
            let mut slope = w.d.dot(&w.g);
            if !(slope < 0.0 && slope.is_finite()) {
                // Rounding in the recursion can spoil the descent property: start afresh.
                w.pairs.clear();
                w.pairs.direction(&w.g, &mut w.d);
                slope = w.d.dot(&w.g);
            }
            // Whether this step is steepest descent: recording its pair fills the memory again.
            let steepest = w.pairs.is_empty();
            let first_step = if steepest {
                gradient_norm.recip().min(1.0)
            } else {
                1.0
            };
            let outcome = search.run(problem, &mut w, f, slope, first_step);
            evaluations += outcome.evaluations;
            let stalled = match outcome.accepted {
                Some(value) => {
                    iterations += 1;
                    let decrease = (f - value) / f.abs().max(value.abs()).max(1.0);
                    w.accept();
                    f = value;
                    s.value_tolerance > 0.0
                        && decrease <= s.value_tolerance
                        && !criterion.is_met(f, norm(&w.g))
                }
                None => true,
            };
            if stalled {
                // Steepest descent from here, unless that is what just stalled.
                if steepest || restarts == MAX_RESTARTS {
                    break Status::Stalled;
                }
                w.pairs.clear();
                restarts += 1;
            }
        };
        let report = report(status, iterations, evaluations, f, &w.g);
        Ok(Solution { x: w.x, report })
    }
}

/// Every vector of a run, allocated once.
struct Workspace {
    /// The iterate `xₖ`.
    x: Array1<f64>,
    /// `∇f(xₖ)`.
    g: Array1<f64>,
    /// The search direction `dₖ`.
    d: Array1<f64>,
    /// The point the line search evaluated last, and its gradient.
    trial: Point,
    /// The best point of the line search so far that satisfies sufficient decrease.
    lower: Point,
    /// The correction pairs.
    pairs: CorrectionPairs,
}

/// A point and the objective's gradient there.
struct Point {
    x: Array1<f64>,
    g: Array1<f64>,
}

impl Workspace {
    fn new(x0: ArrayView1<'_, f64>, memory: usize) -> Self {
        let n = x0.len();
        let point = || Point {
            x: Array1::zeros(n),
            g: Array1::zeros(n),
        };
        Self {
            x: x0.to_owned(),
            g: Array1::zeros(n),
            d: Array1::zeros(n),
            trial: point(),
            lower: point(),
            pairs: CorrectionPairs::new(n, memory),
        }
    }

    /// Exchanges the trial point with the line search's best point so far: keeps a trial that
    /// becomes the best, or hands the best back as the accepted point.
    fn swap_trial_and_lower(&mut self) {
        std::mem::swap(&mut self.trial, &mut self.lower);
    }

    /// Moves to the line search's accepted point (in `trial`), recording the correction pair.
    fn accept(&mut self) {
        self.pairs
            .record(&self.x, &self.trial.x, &self.g, &self.trial.g);
        std::mem::swap(&mut self.x, &mut self.trial.x);
        std::mem::swap(&mut self.g, &mut self.trial.g);
    }
}

/// The last `m` correction pairs `(sᵢ, yᵢ)` with `ρᵢ = 1 / sᵢᵀyᵢ`, in a ring.
#[cfg_attr(test, derive(Clone))]
struct CorrectionPairs {
    /// `sᵢ`, one row each.
    s: Array2<f64>,
    /// `yᵢ`, one row each.
    y: Array2<f64>,
    rho: Vec<f64>,
    /// The two-loop recursion's `αᵢ`.
    alpha: Vec<f64>,
    /// How many pairs are held.
    len: usize,
    /// The row of the newest pair.
    newest: usize,
    /// The pair being recorded, until its curvature is known.
    candidate: (Array1<f64>, Array1<f64>),
}

impl CorrectionPairs {
    fn new(n: usize, m: usize) -> Self {
        Self {
            s: Array2::zeros((m, n)),
            y: Array2::zeros((m, n)),
            rho: vec![0.0; m],
            alpha: vec![0.0; m],
            len: 0,
            newest: 0,
            candidate: (Array1::zeros(n), Array1::zeros(n)),
        }
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    /// The row of the pair `age` recordings old (0 the newest).
    fn row(&self, age: usize) -> usize {
        let m = self.rho.len();
        (self.newest + m - age) % m
    }

    /// Records `s = x⁺ − x`, `y = g⁺ − g` in place of the oldest pair, kept only where the
    /// curvature `sᵀy` is positive beyond rounding (which the strong Wolfe conditions guarantee
    /// in exact arithmetic), so that the implied inverse Hessian stays positive definite; a
    /// pair that is not kept leaves the held ones as they were.
    fn record(
        &mut self,
        x: &Array1<f64>,
        x_next: &Array1<f64>,
        g: &Array1<f64>,
        g_next: &Array1<f64>,
    ) {
        let (s, y) = (&mut self.candidate.0, &mut self.candidate.1);
        Zip::from(&mut *s)
            .and(x_next)
            .and(x)
            .for_each(|s, a, b| *s = a - b);
        Zip::from(&mut *y)
            .and(g_next)
            .and(g)
            .for_each(|y, a, b| *y = a - b);
        let (sy, yy) = (s.dot(&*y), y.dot(&*y));
        if !(sy > f64::EPSILON * yy && sy.is_finite()) {
            return;
        }
        let m = self.rho.len();
        let slot = if self.len == 0 {
            0
        } else {
            (self.newest + 1) % m
        };
        self.s.row_mut(slot).assign(&*s);
        self.y.row_mut(slot).assign(&*y);
        self.rho[slot] = 1.0 / sy;
        self.newest = slot;
        self.len = (self.len + 1).min(m);
    }

    /// `d = −H g` by the two-loop recursion (Algorithm 7.4); `−g` without pairs.
    ///
    /// Each step of a loop updates `d` and the next step starts with a dot product of the
    /// updated `d`: on vectors of thousands of coefficients both are bound by memory, so each
    /// update is fused with the next dot product in one pass ([`add_scaled_then_dot`]), every
    /// sum in the order of ndarray's dot product, so that `d` has the bits of the recursion
    /// written one vector operation at a time (the tests hold it to that form).
    fn direction(&mut self, g: &Array1<f64>, d: &mut Array1<f64>) {
        d.assign(g);
        let d = d.as_slice_mut().expect("a new vector is contiguous");
        if self.is_empty() {
            for v in d.iter_mut() {
                *v = -*v;
            }
            return;
        }
        let n = d.len();
        let s = self
            .s
            .as_slice()
            .expect("the pairs are stored in standard layout");
        let y = self
            .y
            .as_slice()
            .expect("the pairs are stored in standard layout");
        let len = self.len;
        let newest = self.row(0);
        let mut dot = contiguous_dot(pair(s, n, newest), d);
        for age in 0..len {
            let row = self.row(age);
            let a = self.rho[row] * dot;
            self.alpha[row] = a;
            let next = (age + 1 < len).then(|| pair(s, n, self.row(age + 1)));
            dot = add_scaled_then_dot(d, -a, pair(y, n, row), next, Sign::Keep);
        }
        let (s_new, y_new) = (pair(s, n, newest), pair(y, n, newest));
        let gamma = contiguous_dot(s_new, y_new) / contiguous_dot(y_new, y_new);
        dot = scale_then_dot(d, gamma, pair(y, n, self.row(len - 1)));
        for age in (0..len).rev() {
            let row = self.row(age);
            let b = self.rho[row] * dot;
            let next = (age > 0).then(|| pair(y, n, self.row(age - 1)));
            let sign = if age == 0 { Sign::Negate } else { Sign::Keep };
            dot = add_scaled_then_dot(d, self.alpha[row] - b, pair(s, n, row), next, sign);
        }
    }
}

/// Row `row` of a row-major matrix of rows of length `n`.
fn pair(m: &[f64], n: usize, row: usize) -> &[f64] {
    &m[row * n..(row + 1) * n]
}

/// Whether [`add_scaled_then_dot`] negates the updated vector as it writes it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sign {
    Keep,
    Negate,
}

/// `d ← d + α x` (negated with [`Sign::Negate`]), then `nextᵀ d` by [`contiguous_dot`]'s sums
/// (0 without `next`), in one pass: the bits of ndarray's `scaled_add`, `mapv_inplace(−v)` and
/// `dot`.
fn add_scaled_then_dot(
    d: &mut [f64],
    alpha: f64,
    x: &[f64],
    next: Option<&[f64]>,
    sign: Sign,
) -> f64 {
    let update = |d: &mut f64, x: f64| {
        let v = *d + alpha * x;
        *d = if sign == Sign::Negate { -v } else { v };
    };
    let Some(next) = next else {
        for (d, &x) in d.iter_mut().zip(x) {
            update(d, x);
        }
        return 0.0;
    };
    let split = dot_lanes_len(d.len());
    let mut p = [0.0_f64; DOT_LANES];
    for ((ds, xs), ns) in d[..split]
        .chunks_exact_mut(DOT_LANES)
        .zip(x[..split].chunks_exact(DOT_LANES))
        .zip(next[..split].chunks_exact(DOT_LANES))
    {
        for lane in 0..DOT_LANES {
            update(&mut ds[lane], xs[lane]);
            p[lane] += ns[lane] * ds[lane];
        }
    }
    let mut sum = combine_dot_lanes(p);
    for ((d, &x), &n) in d[split..].iter_mut().zip(&x[split..]).zip(&next[split..]) {
        update(d, x);
        sum += n * *d;
    }
    sum
}

/// `d ← γ d`, then `nextᵀ d` by [`contiguous_dot`]'s sums, in one pass: the bits of `d *= γ`
/// and `dot`.
fn scale_then_dot(d: &mut [f64], gamma: f64, next: &[f64]) -> f64 {
    let split = dot_lanes_len(d.len());
    let mut p = [0.0_f64; DOT_LANES];
    for (ds, ns) in d[..split]
        .chunks_exact_mut(DOT_LANES)
        .zip(next[..split].chunks_exact(DOT_LANES))
    {
        for lane in 0..DOT_LANES {
            ds[lane] *= gamma;
            p[lane] += ns[lane] * ds[lane];
        }
    }
    let mut sum = combine_dot_lanes(p);
    for (d, &n) in d[split..].iter_mut().zip(&next[split..]) {
        *d *= gamma;
        sum += n * *d;
    }
    sum
}

/// The strong-Wolfe line search of Nocedal & Wright, Algorithms 3.5 (bracketing) and 3.6
/// (zoom), on `φ(α) = f(x + α d)`.
struct StrongWolfe {
    c1: f64,
    c2: f64,
}

/// What a line search ended with.
struct LineSearchOutcome {
    /// `φ(α)` at the accepted step, whose point and gradient are in the workspace's `trial`;
    /// `None` where no step decreased `f`.
    accepted: Option<f64>,
    /// Calls of the objective.
    evaluations: usize,
}

/// A step with `φ(α)` and `φ'(α)`; both infinite where the objective is not finite there.
#[derive(Debug, Clone, Copy)]
struct Step {
    alpha: f64,
    value: f64,
    slope: f64,
}

impl Step {
    fn is_finite(&self) -> bool {
        self.value.is_finite() && self.slope.is_finite()
    }
}

impl StrongWolfe {
    /// Searches along `w.d` from `w.x` (`f(x) = value`, `φ'(0) = slope < 0`), trying `first`
    /// first. On success the accepted point and its gradient are left in `w.trial`.
    fn run<P: Objective + ?Sized>(
        &self,
        problem: &P,
        w: &mut Workspace,
        value: f64,
        slope: f64,
        first: f64,
    ) -> LineSearchOutcome {
        let start = Step {
            alpha: 0.0,
            value,
            slope,
        };
        let mut evaluations = 0;
        // Near a minimiser `c₁ α φ'(0)` and the changes of `φ` fall below the rounding of `f`,
        // while `φ'` is still computed to good relative accuracy. Where a trial's value is
        // within `flat` of `f(x)`, sufficient decrease is therefore judged by the approximate
        // Wolfe condition `φ'(α) ≤ (1 − 2c₁)|φ'(0)|` of Hager & Zhang (SIAM J. Optim. 16, 2005;
        // for a quadratic it is the Armijo condition), values count as equal within `flat`, and the
        // zoom interpolates the slopes alone. So the gradient can still be driven down where
        // values no longer resolve (on ill-conditioned problems, well above the criterion).
        let flat = FLAT_ULPS * f64::EPSILON * value.abs();
        let sufficient = |s: &Step| {
            s.value <= value + self.c1 * s.alpha * slope
                || (s.value <= value + flat && s.slope <= -(1.0 - 2.0 * self.c1) * slope)
        };
        let worse = |s: &Step, than: &Step| s.value > than.value + flat;
        let curvature = |s: &Step| s.slope.abs() <= -self.c2 * slope;

        // Bracketing: `lower` is the best step so far with sufficient decrease (0 at first),
        // `upper` the step that bounds an interval holding an acceptable one.
        let mut lower = start;
        let mut alpha = first;
        let mut upper = None;
        while evaluations < MAX_LINE_SEARCH_EVALUATIONS {
            let trial = evaluate(problem, w, alpha, &mut evaluations);
            if !sufficient(&trial) || worse(&trial, &lower) {
                upper = Some(trial);
                break;
            }
            if curvature(&trial) {
                return LineSearchOutcome {
                    accepted: Some(trial.value),
                    evaluations,
                };
            }
            w.swap_trial_and_lower();
            if trial.slope >= 0.0 {
                upper = Some(lower);
                lower = trial;
                break;
            }
            lower = trial;
            alpha *= 4.0;
        }

        // Zoom: shrink [lower, upper] (in either order) until a step meets both conditions.
        if let Some(mut upper) = upper {
            while evaluations < MAX_LINE_SEARCH_EVALUATIONS {
                let alpha = interpolate(&lower, &upper, flat);
                if !(alpha != lower.alpha && alpha != upper.alpha) {
                    break; // the interval is below the resolution of α
                }
                let trial = evaluate(problem, w, alpha, &mut evaluations);
                if !sufficient(&trial) || worse(&trial, &lower) {
                    upper = trial;
                    continue;
                }
                if curvature(&trial) {
                    return LineSearchOutcome {
                        accepted: Some(trial.value),
                        evaluations,
                    };
                }
                if trial.slope * (upper.alpha - lower.alpha) >= 0.0 {
                    upper = lower;
                }
                w.swap_trial_and_lower();
                lower = trial;
            }
        }
        // No step meets the curvature condition within the budget: the best step with
        // sufficient decrease, if there is one (its value at most `flat` above f(x)).
        if lower.alpha > 0.0 {
            w.swap_trial_and_lower();
            return LineSearchOutcome {
                accepted: Some(lower.value),
                evaluations,
            };
        }
        LineSearchOutcome {
            accepted: None,
            evaluations,
        }
    }
}

/// `φ(α)` and `φ'(α)` at `x + α d`, the point and its gradient written into `w.trial`; a step
/// where the objective is not finite has both infinite.
fn evaluate<P: Objective + ?Sized>(
    problem: &P,
    w: &mut Workspace,
    alpha: f64,
    evaluations: &mut usize,
) -> Step {
    *evaluations += 1;
    let Workspace { x, d, trial, .. } = w;
    Zip::from(&mut trial.x)
        .and(&*x)
        .and(&*d)
        .for_each(|t, x, d| *t = x + alpha * d);
    let value = problem.value_and_gradient(trial.x.view(), trial.g.view_mut());
    let slope = trial.g.dot(&*d);
    if value.is_finite() && slope.is_finite() && all_finite(&trial.g) {
        Step {
            alpha,
            value,
            slope,
        }
    } else {
        Step {
            alpha,
            value: f64::INFINITY,
            slope: f64::INFINITY,
        }
    }
}

/// A trial step strictly between `a` and `b`: the minimiser of the cubic that interpolates
/// both values and slopes (Nocedal & Wright eq. 3.59) or, where the two values are equal within
/// `flat` (rounding), the zero of the secant of the slopes; taken where it lies inside the
/// middle 80% of the interval, else the midpoint — always the midpoint toward a point where the
/// objective is not finite.
fn interpolate(a: &Step, b: &Step, flat: f64) -> f64 {
    let midpoint = 0.5 * (a.alpha + b.alpha);
    if !b.is_finite() {
        return midpoint;
    }
    let alpha = if (a.value - b.value).abs() <= flat {
        a.alpha - a.slope * (b.alpha - a.alpha) / (b.slope - a.slope)
    } else {
        let d1 = a.slope + b.slope - 3.0 * (a.value - b.value) / (a.alpha - b.alpha);
        let radicand = d1 * d1 - a.slope * b.slope;
        if radicand < 0.0 {
            return midpoint;
        }
        let d2 = (b.alpha - a.alpha).signum() * radicand.sqrt();
        b.alpha - (b.alpha - a.alpha) * (b.slope + d2 - d1) / (b.slope - a.slope + 2.0 * d2)
    };
    let (low, high) = (a.alpha.min(b.alpha), a.alpha.max(b.alpha));
    let margin = 0.1 * (high - low);
    if alpha.is_finite() && alpha >= low + margin && alpha <= high - margin {
        alpha
    } else {
        midpoint
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_functions::{Quadratic, Rosenbrock};
    use approx::assert_abs_diff_eq;
    use ndarray::{array, ArrayViewMut1};
    use std::cell::Cell;

    /// The two-loop recursion one ndarray vector operation at a time: the form
    /// [`CorrectionPairs::direction`] fuses, bit for bit.
    fn direction_unfused(pairs: &mut CorrectionPairs, g: &Array1<f64>, d: &mut Array1<f64>) {
        d.assign(g);
        for age in 0..pairs.len {
            let row = pairs.row(age);
            let a = pairs.rho[row] * pairs.s.row(row).dot(d);
            pairs.alpha[row] = a;
            d.scaled_add(-a, &pairs.y.row(row));
        }
        if !pairs.is_empty() {
            let (s, y) = (pairs.s.row(pairs.newest), pairs.y.row(pairs.newest));
            *d *= s.dot(&y) / y.dot(&y);
        }
        for age in (0..pairs.len).rev() {
            let row = pairs.row(age);
            let b = pairs.rho[row] * pairs.y.row(row).dot(d);
            d.scaled_add(pairs.alpha[row] - b, &pairs.s.row(row));
        }
        d.mapv_inplace(|v| -v);
    }

    #[test]
    fn the_fused_two_loop_recursion_is_the_unfused_one_bit_for_bit() {
        // A deterministic stream of values of mixed signs and magnitudes.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 2.0
        };
        for n in [1, 5, 8, 9, 16, 23, 64, 101] {
            for m in 1..5 {
                for recorded in 0..=m + 2 {
                    let mut pairs = CorrectionPairs::new(n, m);
                    let mut x = Array1::from_shape_fn(n, |_| next());
                    let mut g = Array1::from_shape_fn(n, |_| next());
                    for _ in 0..recorded {
                        let x_next = &x + &Array1::from_shape_fn(n, |_| next());
                        // y = s scaled by 2 plus a little noise: sᵀy > 0, so the pair is kept.
                        let g_next = &g
                            + &((&x_next - &x) * 2.0 + Array1::from_shape_fn(n, |_| 0.1 * next()));
                        pairs.record(&x, &x_next, &g, &g_next);
                        (x, g) = (x_next, g_next);
                    }
                    let gradient = Array1::from_shape_fn(n, |_| next());
                    let (mut fused, mut unfused) = (Array1::zeros(n), Array1::zeros(n));
                    pairs.direction(&gradient, &mut fused);
                    let mut again = pairs.clone();
                    direction_unfused(&mut again, &gradient, &mut unfused);
                    let bits = |v: &Array1<f64>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(
                        bits(&fused),
                        bits(&unfused),
                        "n = {n}, m = {m}, {recorded} pairs"
                    );
                }
            }
        }
    }

    #[test]
    fn lbfgs_on_rosenbrock() {
        let sol = Lbfgs::default()
            .minimize(&Rosenbrock::default(), array![-1.2, 1.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::Converged, "{:?}", sol.report);
        assert_abs_diff_eq!(sol.x, array![1.0, 1.0], epsilon = 1e-6);
        assert!(sol.gradient_norm() <= 1e-8);
        // About one evaluation per iteration once the first step is found.
        assert!(
            sol.report.evaluations <= 2 * sol.report.iterations,
            "{:?}",
            sol.report
        );
    }

    /// On a strictly convex quadratic in `n` dimensions the memory holds the whole curvature
    /// after `n` steps: BFGS with exact line searches ends in at most `n` + 1 iterations, and
    /// inexact ones stay close.
    #[test]
    fn a_quadratic_is_solved_in_few_iterations() {
        let a = array![[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]];
        let q = Quadratic::new(a, array![1.0, -2.0, 0.5]).unwrap();
        let sol = Lbfgs::default()
            .minimize(&q, array![5.0, 5.0, -5.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::Converged, "{:?}", sol.report);
        assert_abs_diff_eq!(sol.x, q.minimizer(), epsilon = 1e-8);
        assert!(sol.report.iterations <= 10, "{:?}", sol.report);
    }

    /// With no gradient tolerance, the run ends when an iteration no longer decreases `f`
    /// measurably, near the attainable gradient floor — a stall, never called convergence
    /// unless the gradient is exactly zero (the criterion `‖∇f‖ ≤ 0`).
    #[test]
    fn a_stalled_decrease_is_not_convergence() {
        let q = Quadratic::new(array![[3.0, 1.0], [1.0, 2.0]], array![1.0, -1.0]).unwrap();
        let problems: [(&dyn Objective, Array1<f64>, Array1<f64>); 2] = [
            (&Rosenbrock::default(), array![-1.2, 1.0], array![1.0, 1.0]),
            (&q, array![4.0, -3.0], q.minimizer()),
        ];
        for (problem, start, minimiser) in problems {
            for value_tolerance in [DEFAULT_VALUE_TOLERANCE, 0.0] {
                let sol = Lbfgs::new(LbfgsSettings {
                    gradient_tolerance: 0.0,
                    value_tolerance,
                    max_iterations: 200,
                    ..Default::default()
                })
                .minimize(problem, start.view())
                .unwrap();
                let r = &sol.report;
                match r.status {
                    Status::Converged => assert_eq!(sol.gradient_norm(), 0.0, "{r:?}"),
                    // Without the value test only a line search that cannot decrease `f`
                    // (after steepest descent has been tried) or the cap stops the run.
                    Status::MaxIterations => assert_eq!(value_tolerance, 0.0, "{r:?}"),
                    status => assert_eq!(status, Status::Stalled, "{r:?}"),
                }
                assert!(sol.gradient_norm() < 1e-6, "{r:?}");
                assert_abs_diff_eq!(sol.x, minimiser, epsilon = 1e-6);
                assert!(r.iterations <= 200);
            }
        }
    }

    #[test]
    fn start_at_the_minimum_takes_no_iteration() {
        let q = Quadratic::new(ndarray::Array2::eye(2), array![1.0, 2.0]).unwrap();
        let sol = Lbfgs::default()
            .minimize(&q, array![1.0, 2.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::Converged);
        assert_eq!((sol.report.iterations, sol.report.evaluations), (0, 1));
    }

    /// `f(x) = 50 (x − 0.2)²` for `x < 0.3`, NaN from there on, counting its evaluations.
    struct NanBeyond {
        calls: Cell<usize>,
    }
    impl Objective for NanBeyond {
        fn dim(&self) -> usize {
            1
        }
        fn value(&self, x: ArrayView1<'_, f64>) -> f64 {
            if x[0] < 0.3 {
                50.0 * (x[0] - 0.2).powi(2)
            } else {
                f64::NAN
            }
        }
        fn value_and_gradient(&self, x: ArrayView1<'_, f64>, mut g: ArrayViewMut1<'_, f64>) -> f64 {
            self.calls.set(self.calls.get() + 1);
            g[0] = 100.0 * (x[0] - 0.2);
            self.value(x)
        }
    }

    /// From `x = 0` the first step (unit length along `−∇f`) lands at `x = 1`, where the
    /// objective is NaN: the line search shortens it, and the run converges. argmin's L-BFGS
    /// ended its run at such a point.
    #[test]
    fn a_non_finite_trial_point_shortens_the_step() {
        let problem = NanBeyond {
            calls: Cell::new(0),
        };
        let sol = Lbfgs::default()
            .minimize(&problem, array![0.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::Converged, "{:?}", sol.report);
        assert_abs_diff_eq!(sol.x[0], 0.2, epsilon = 1e-9);
        assert_eq!(sol.report.evaluations, problem.calls.get());
        // A start where the objective is NaN is reported, not iterated from.
        let sol = Lbfgs::default()
            .minimize(&problem, array![0.5].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::NonFinite);
        assert_eq!(sol.report.iterations, 0);
        assert!(sol.report.value.is_nan());
        assert_eq!(sol.x, array![0.5]);
    }

    /// The cubic step lies strictly inside its interval and is the minimiser of a cubic
    /// through both ends: on `φ(α) = (α − 0.3)²` it is exact.
    #[test]
    fn the_interpolated_step_minimises_the_cubic() {
        let phi = |a: f64| Step {
            alpha: a,
            value: (a - 0.3) * (a - 0.3),
            slope: 2.0 * (a - 0.3),
        };
        assert_abs_diff_eq!(interpolate(&phi(0.0), &phi(1.0), 0.0), 0.3, epsilon = 1e-12);
        assert_abs_diff_eq!(interpolate(&phi(1.0), &phi(0.0), 0.0), 0.3, epsilon = 1e-12);
        // Outside the middle of the interval, or toward a non-finite end: the midpoint.
        assert_abs_diff_eq!(
            interpolate(&phi(0.29), &phi(1.0), 0.0),
            0.645,
            epsilon = 1e-12
        );
        let broken = Step {
            alpha: 1.0,
            value: f64::INFINITY,
            slope: f64::INFINITY,
        };
        assert_eq!(interpolate(&phi(0.0), &broken, 0.0), 0.5);
    }

    /// `10⁸ + Σᵢ cᵢ xᵢ²`, each evaluation one unit of rounding (`2⁻²⁶`) above the one before,
    /// as rounding in a long sum can be adverse: once a step changes the value by less than
    /// that (`‖∇f‖` near `10⁻⁴` here), every trial looks worse than the current point, and no
    /// Armijo test can pass.
    #[derive(Default)]
    struct AdverseRounding {
        evaluations: Cell<u32>,
    }
    impl Objective for AdverseRounding {
        fn dim(&self) -> usize {
            3
        }
        fn value(&self, x: ArrayView1<'_, f64>) -> f64 {
            let k = self.evaluations.get() + 1;
            self.evaluations.set(k);
            let exact = 1e8 + x[0] * x[0] + 10.0 * x[1] * x[1] + 100.0 * x[2] * x[2];
            exact + f64::from(k) * 2f64.powi(-26)
        }
        fn value_and_gradient(&self, x: ArrayView1<'_, f64>, mut g: ArrayViewMut1<'_, f64>) -> f64 {
            g.assign(&array![2.0 * x[0], 20.0 * x[1], 200.0 * x[2]]);
            self.value(x)
        }
    }

    /// Where the values are at the level of their rounding, the line search still drives the
    /// gradient down, to `10⁻⁸` here (without the approximate Wolfe condition it stalls near
    /// `10⁻⁴`), and interpolates equal values by their slopes.
    #[test]
    fn the_gradient_is_driven_down_where_values_are_flat() {
        let sol = Lbfgs::new(LbfgsSettings {
            gradient_tolerance: 1e-16,
            value_tolerance: 0.0,
            ..Default::default()
        })
        .minimize(&AdverseRounding::default(), array![1.0, 1.0, 1.0].view())
        .unwrap();
        assert_eq!(sol.report.status, Status::Converged, "{:?}", sol.report);
        assert!(sol.gradient_norm() <= 1e-8, "{:?}", sol.report);
        // Equal values: the zero of the slopes' secant, −1 at 0 and 3 at 1.
        let (a, b) = (
            Step {
                alpha: 0.0,
                value: 1e8,
                slope: -1.0,
            },
            Step {
                alpha: 1.0,
                value: 1e8,
                slope: 3.0,
            },
        );
        assert_abs_diff_eq!(interpolate(&a, &b, 1e-8), 0.25, epsilon = 1e-15);
    }

    /// A pair without positive curvature is not recorded, and leaves the full ring as it was
    /// (it once overwrote the oldest pair, which the ring still counted).
    #[test]
    fn a_pair_without_curvature_leaves_the_held_ones() {
        let mut pairs = CorrectionPairs::new(2, 2);
        let zero = array![0.0, 0.0];
        pairs.record(&zero, &array![1.0, 0.0], &zero, &array![2.0, 0.0]);
        pairs.record(&zero, &array![0.0, 1.0], &zero, &array![0.0, 3.0]);
        let (s, y, rho) = (pairs.s.clone(), pairs.y.clone(), pairs.rho.clone());
        pairs.record(&zero, &array![1.0, 1.0], &zero, &array![-1.0, -1.0]);
        assert_eq!(
            (pairs.len, &pairs.s, &pairs.y, &pairs.rho),
            (2, &s, &y, &rho)
        );
        // With both pairs, H is the inverse of diag(2, 3): the direction is Newton's.
        let mut d = array![0.0, 0.0];
        pairs.direction(&array![2.0, 3.0], &mut d);
        assert_abs_diff_eq!(d, array![-1.0, -1.0], epsilon = 1e-12);
    }

    /// A gradient whose squared norm overflows is reported with its finite norm. (The run itself
    /// stalls there: its slopes and curvature pairs overflow too.)
    #[test]
    fn the_report_holds_the_norm_of_a_gradient_beyond_10_to_the_154() {
        let q = Quadratic::new(array![[1e160, 0.0], [0.0, 2e160]], array![0.0, 0.0]).unwrap();
        let sol = Lbfgs::default()
            .minimize(&q, array![1.0, 1.0].view())
            .unwrap();
        assert_eq!(sol.report.status, Status::Stalled, "{:?}", sol.report);
        assert_abs_diff_eq!(sol.gradient_norm() / 5f64.sqrt(), 1e160, epsilon = 1e145);
    }

    #[test]
    fn invalid_settings_are_errors() {
        let r = Rosenbrock::default();
        let x0 = array![0.0, 0.0];
        let run = |s| Lbfgs::new(s).minimize(&r, x0.view());
        for memory in [0, LbfgsSettings::MAX_MEMORY + 1, usize::MAX] {
            assert!(run(LbfgsSettings {
                memory,
                ..Default::default()
            })
            .is_err());
        }
        assert!(run(LbfgsSettings {
            wolfe_c2: 1e-5,
            ..Default::default()
        })
        .is_err());
        assert!(run(LbfgsSettings {
            value_tolerance: -1.0,
            ..Default::default()
        })
        .is_err());
        assert!(Lbfgs::default().minimize(&r, array![1.0].view()).is_err());
    }
}
