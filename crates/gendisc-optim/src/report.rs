//! What every solver hands back: the parameters it stopped at and why it stopped there.

use ndarray::Array1;
use serde::{Deserialize, Serialize};

/// Why a solver stopped.
///
/// Only [`Converged`](Status::Converged) means the stopping criterion was met; every other
/// status still comes with the best parameters found, so that the caller can decide what to do
/// with them (and say so to its own users) instead of losing them to an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Status {
    /// The gradient norm fell to the tolerance, or the objective stopped decreasing
    /// measurably: Newton's predicted decrease fell below the floating-point resolution of `f`,
    /// or an iteration of an argmin solver reduced `f` by less than its value tolerance.
    Converged,
    /// The iteration limit was reached first.
    MaxIterations,
    /// The line search found no acceptable step (no sufficient decrease) while the gradient
    /// was still above the tolerance.
    LineSearchFailed,
    /// The objective, its gradient or its Hessian was NaN or infinite where the solver needed a
    /// finite value (at the starting point, or at every trial step).
    NonFinite,
}

impl Status {
    /// `true` for [`Status::Converged`].
    pub fn is_converged(self) -> bool {
        self == Status::Converged
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Status::Converged => "converged",
            Status::MaxIterations => "maximum number of iterations reached",
            Status::LineSearchFailed => "line search failed",
            Status::NonFinite => "non-finite objective",
        })
    }
}

/// How a run ended: its status, how long it took and where it stopped.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Why the solver stopped.
    pub status: Status,
    /// Accepted steps (outer iterations).
    pub iterations: usize,
    /// The objective at the returned parameters.
    pub value: f64,
    /// `‖∇f‖₂` at the returned parameters (NaN if it could not be evaluated there).
    pub gradient_norm: f64,
}

/// The result of a run: the returned parameters and the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The best parameters found (the last iterate for Newton, the lowest objective value
    /// evaluated for the argmin solvers).
    pub x: Array1<f64>,
    /// How the run ended.
    pub report: Report,
}
