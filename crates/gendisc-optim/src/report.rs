//! What every solver hands back: the parameters it stopped at and why it stopped there — one
//! convergence vocabulary for the whole workspace.
//!
//! [`Status::Converged`] means one thing: the first-order condition holds, the gradient norm is
//! at or below the run's [`Criterion`]. Everything else that ends a run is a status of its own,
//! as in Clarabel's `SolverStatus`: a value that stopped decreasing while the gradient is still
//! large ([`Status::Stalled`], Clarabel's `InsufficientProgress`), the iteration cap, a
//! non-finite objective, and — where the caller can prove it — an objective without a finite
//! minimiser or a program without a feasible point.

use ndarray::Array1;
use serde::{Deserialize, Serialize};

/// Why a solver stopped.
///
/// Only [`Converged`](Status::Converged) means the first-order condition was met; every other
/// status still comes with the best parameters found, so that the caller can decide what to do
/// with them (and say so to its own users) instead of losing them to an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Status {
    /// The gradient norm met the run's [`Criterion`]: `‖∇f‖₂ ≤ tolerance · max(1, |f|)`.
    Converged,
    /// The objective stopped decreasing measurably (no step the solver can take lowers it beyond
    /// the resolution of `f`, or a line search found no acceptable step) while the gradient
    /// norm is still above the tolerance: insufficient progress, not convergence. Files written
    /// before this status existed call it `LineSearchFailed`.
    #[serde(alias = "LineSearchFailed")]
    Stalled,
    /// The iteration limit was reached first.
    MaxIterations,
    /// The objective, its gradient or its Hessian was NaN or infinite where the solver needed a
    /// finite value (at the starting point, or after a step that was accepted).
    NonFinite,
    /// The objective provably has no finite minimiser (for example a likelihood on separated
    /// data): the caller holds a certificate, and the parameters are not an estimate.
    NoFiniteMinimiser,
    /// A convex program provably has no feasible point (a certificate of infeasibility).
    Infeasible,
}

impl Status {
    /// `true` for [`Status::Converged`]: the one question "did this run reach its optimum?".
    pub fn is_converged(self) -> bool {
        self == Status::Converged
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Status::Converged => "converged",
            Status::Stalled => "stalled (no measurable decrease, gradient above tolerance)",
            Status::MaxIterations => "maximum number of iterations reached",
            Status::NonFinite => "non-finite objective",
            Status::NoFiniteMinimiser => "no finite optimum exists",
            Status::Infeasible => "infeasible",
        })
    }
}

/// The stopping criterion a run was judged by.
///
/// The solvers of this crate stop on the gradient: `‖∇f‖₂ ≤ tolerance · max(1, |f|)` —
/// relative to the objective's magnitude once that exceeds one, as scipy's and Optim.jl's
/// defaults are, so that a criterion means the same on a sum and on a mean of many terms.
/// Methods that follow a reference implementation's own rule (R's `glm` on the relative change
/// in deviance, EM on the change in log-likelihood) say so with
/// [`Criterion::RelativeChange`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Criterion {
    /// `‖∇f‖₂ ≤ tolerance · max(1, |f|)`.
    Gradient {
        /// The gradient tolerance.
        tolerance: f64,
    },
    /// The relative change of a monitored quantity (a deviance, a log-likelihood) between
    /// iterations fell below `tolerance`.
    RelativeChange {
        /// The tolerance on the relative change.
        tolerance: f64,
    },
}

impl Criterion {
    /// The gradient criterion with tolerance `gradient_tolerance`.
    pub fn new(gradient_tolerance: f64) -> Self {
        Criterion::Gradient {
            tolerance: gradient_tolerance,
        }
    }

    /// The largest gradient norm that meets a gradient criterion at objective value `value`
    /// (`None` for [`Criterion::RelativeChange`]).
    pub fn threshold(&self, value: f64) -> Option<f64> {
        match *self {
            Criterion::Gradient { tolerance } => {
                let scale = if value.is_finite() {
                    value.abs().max(1.0)
                } else {
                    1.0
                };
                Some(tolerance * scale)
            }
            Criterion::RelativeChange { .. } => None,
        }
    }

    /// Whether a gradient norm meets a gradient criterion at objective value `value` (always
    /// `false` for [`Criterion::RelativeChange`], which a gradient cannot decide).
    pub fn is_met(&self, value: f64, gradient_norm: f64) -> bool {
        self.threshold(value)
            .is_some_and(|threshold| gradient_norm <= threshold)
    }
}

/// How a run ended: its status, the criterion it was judged by, what it cost and where it
/// stopped.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Report {
    /// Why the solver stopped.
    pub status: Status,
    /// The stopping criterion ([`Status::Converged`] means it was met).
    pub criterion: Criterion,
    /// Accepted steps (outer iterations).
    pub iterations: usize,
    /// Evaluations of the objective (with or without its gradient).
    pub evaluations: usize,
    /// The objective at the returned parameters.
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub value: f64,
    /// `‖∇f‖₂` at the returned parameters (NaN if it could not be evaluated there).
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub gradient_norm: f64,
}

impl Report {
    /// Whether the run converged ([`Status::is_converged`]).
    pub fn is_converged(&self) -> bool {
        self.status.is_converged()
    }
}

/// The result of a run: the returned parameters and the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The best parameters found (the last accepted iterate for the Newton methods, the lowest
    /// objective value evaluated for the argmin solvers).
    pub x: Array1<f64>,
    /// How the run ended.
    pub report: Report,
}
