//! The problem side of the problem/solver split: what a solver may ask of an objective.
//!
//! An objective is a smooth function `f: ℝⁿ → ℝ` to be **minimised**. Solvers only ever call
//! these methods; they never see the data behind the function. Evaluations write into buffers
//! owned by the solver, so a solver allocates its workspace once per run rather than once per
//! evaluation.
//!
//! A value that is not finite (NaN or ±∞) is how an objective says "undefined here": solvers
//! treat it as a failed trial point (backtracking shortens the step) and report
//! [`Status::NonFinite`](crate::Status::NonFinite) rather than loop on it.

use ndarray::{Array1, ArrayView1, ArrayViewMut1, ArrayViewMut2};

/// A differentiable objective `f: ℝⁿ → ℝ` to be minimised (argmin's `CostFunction` and
/// `Gradient` in one trait).
pub trait Objective {
    /// The number of parameters `n`.
    fn dim(&self) -> usize;

    /// `f(x)`.
    fn value(&self, x: ArrayView1<'_, f64>) -> f64;

    /// `f(x)`, writing `∇f(x)` into `gradient` (length [`dim`](Self::dim)).
    ///
    /// Value and gradient come together because they usually share most of their work (for a
    /// generalised linear model, the linear predictor `Xθ`).
    fn value_and_gradient(&self, x: ArrayView1<'_, f64>, gradient: ArrayViewMut1<'_, f64>) -> f64;

    /// `∇f(x)` as a new vector.
    fn gradient(&self, x: ArrayView1<'_, f64>) -> Array1<f64> {
        let mut g = Array1::zeros(self.dim());
        self.value_and_gradient(x, g.view_mut());
        g
    }
}

/// An objective whose Hessian is available (argmin's `Hessian`): what Newton's method needs.
pub trait TwiceDifferentiable: Objective {
    /// Writes `∇²f(x)` into `hessian` (`dim × dim`, symmetric; every entry must be written).
    fn hessian(&self, x: ArrayView1<'_, f64>, hessian: ArrayViewMut2<'_, f64>);

    /// About how many floating-point operations one Hessian costs, with its factorisation, for
    /// [`Method::Auto`](crate::Method::Auto)'s choice between Newton and L-BFGS; `None` (the
    /// default) where the problem does not say, and only the dimension decides.
    fn hessian_cost(&self) -> Option<f64> {
        None
    }
}

impl<T: Objective + ?Sized> Objective for &T {
    fn dim(&self) -> usize {
        (**self).dim()
    }
    fn value(&self, x: ArrayView1<'_, f64>) -> f64 {
        (**self).value(x)
    }
    fn value_and_gradient(&self, x: ArrayView1<'_, f64>, gradient: ArrayViewMut1<'_, f64>) -> f64 {
        (**self).value_and_gradient(x, gradient)
    }
}

impl<T: TwiceDifferentiable + ?Sized> TwiceDifferentiable for &T {
    fn hessian(&self, x: ArrayView1<'_, f64>, hessian: ArrayViewMut2<'_, f64>) {
        (**self).hessian(x, hessian)
    }
    fn hessian_cost(&self) -> Option<f64> {
        (**self).hessian_cost()
    }
}

/// A problem that counts its evaluations, for [`Report::evaluations`](crate::Report).
pub(crate) struct Counted<'a, P: ?Sized> {
    problem: &'a P,
    evaluations: std::cell::Cell<usize>,
}

impl<'a, P: ?Sized> Counted<'a, P> {
    pub(crate) fn new(problem: &'a P) -> Self {
        Self {
            problem,
            evaluations: std::cell::Cell::new(0),
        }
    }

    /// Evaluations of the objective so far (with or without the gradient).
    pub(crate) fn evaluations(&self) -> usize {
        self.evaluations.get()
    }

    fn count(&self) {
        self.evaluations.set(self.evaluations.get() + 1);
    }
}

impl<P: Objective + ?Sized> Objective for Counted<'_, P> {
    fn dim(&self) -> usize {
        self.problem.dim()
    }
    fn value(&self, x: ArrayView1<'_, f64>) -> f64 {
        self.count();
        self.problem.value(x)
    }
    fn value_and_gradient(&self, x: ArrayView1<'_, f64>, gradient: ArrayViewMut1<'_, f64>) -> f64 {
        self.count();
        self.problem.value_and_gradient(x, gradient)
    }
}

impl<P: TwiceDifferentiable + ?Sized> TwiceDifferentiable for Counted<'_, P> {
    fn hessian(&self, x: ArrayView1<'_, f64>, hessian: ArrayViewMut2<'_, f64>) {
        self.problem.hessian(x, hessian)
    }
    fn hessian_cost(&self) -> Option<f64> {
        self.problem.hessian_cost()
    }
}
