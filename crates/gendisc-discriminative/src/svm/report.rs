//! What a fit did: the status and the optimality certificate of each binary sub-problem.

use gendisc_core::convergence::{Criterion, Report};
use serde::{Deserialize, Serialize};

/// How a dual coordinate descent run ended: the workspace's one status vocabulary
/// ([`gendisc_optim::Status`]). [`Converged`](FitStatus::Converged) means the spread of the
/// projected gradient of the dual over all coordinates fell to `tol` (the first-order condition
/// of the box-constrained dual, see [`LinearSvmParams::tol`](super::LinearSvmParams::tol));
/// [`MaxIterations`](FitStatus::MaxIterations) that `max_iter` outer iterations ran first — the
/// model is usable but not optimal to `tol`, and [`FitReport::duality_gap`] says how far from
/// optimal it is.
pub use gendisc_optim::Status as FitStatus;

/// The end state of dual coordinate descent on one binary problem.
///
/// The objectives follow Hsieh et al. (2008): the primal is eq. (1) with the hinge loss of
/// eq. (2) and the bias feature of eq. (3),
/// `P(w̃) = ½‖w̃‖² + Σ_i C_i max(0, 1 − y_i w̃ᵀx̃_i)`, and the dual is eq. (4),
/// `min_α f(α) = ½ αᵀQα − eᵀα` with `Q_ij = y_i y_j x̃_iᵀx̃_j`. The report gives the dual
/// objective with the sign that makes it a lower bound, `D(α) = −f(α) ≤ P(w̃*) ≤ P(w̃)`, so the
/// duality gap `P − D` is non-negative and bounds the sub-optimality of both.
///
/// Because `P` is 1-strongly convex in `w̃ = (w, w_b)`, the gap also bounds the distance to
/// the unique optimum: `‖w̃ − w̃*‖ ≤ √(2 · gap)` ([`weight_error_bound`](Self::weight_error_bound)).
///
/// For a hard margin (`C = ∞`) the primal is `½‖w̃‖²` subject to `y_i w̃ᵀx̃_i ≥ 1`; the fitted
/// hyperplane is rescaled so that every constraint holds, which makes `primal_objective` the
/// objective of a feasible point and keeps the gap a valid bound.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
#[serde(deny_unknown_fields)]
pub struct FitReport {
    /// Why the solver stopped.
    pub status: FitStatus,
    /// Outer iterations: passes over the (possibly shrunk) set of active coordinates.
    pub iterations: usize,
    /// The tolerance on the spread of the projected gradient
    /// ([`LinearSvmParams::tol`](super::LinearSvmParams::tol)); `None` in files written before
    /// it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    /// `max(max_j ∇ᴾ_j f, 0) − min(min_j ∇ᴾ_j f, 0)` over the coordinates visited in the last
    /// outer iteration: the stopping measure, `≤ tol` on convergence.
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub projected_gradient_gap: f64,
    /// `D(α) = eᵀα − ½‖w̃(α)‖²`, `w̃(α) = Σ_i α_i y_i x̃_i` recomputed from `α` at the end.
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub dual_objective: f64,
    /// `P(w̃)` at the returned coefficients.
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub primal_objective: f64,
    /// `P(w̃) − D(α) ≥ 0`.
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub duality_gap: f64,
    /// Rows with `α_i > 0`.
    pub n_support_vectors: usize,
    /// Rows with `α_i = C_i` (margin errors or points on the wrong side); 0 for a hard margin.
    pub n_bounded_support_vectors: usize,
}

impl FitReport {
    /// `√(2 · duality_gap)`, an upper bound on `‖w̃ − w̃*‖` (Euclidean norm over the weights
    /// and the bias weight `w_b = b / B`) by strong convexity of the primal.
    pub fn weight_error_bound(&self) -> f64 {
        (2.0 * self.duality_gap.max(0.0)).sqrt()
    }
}

impl gendisc_core::Convergence for FitReport {
    fn status(&self) -> FitStatus {
        self.status
    }

    /// The run, judged by the spread of the dual's projected gradient (a NaN tolerance where
    /// the file predates its recording), valued at the primal objective; dual coordinate
    /// descent evaluates no gradient of the (non-differentiable) primal, so its norm is NaN,
    /// and evaluates the dual once per outer iteration.
    fn solver_reports(&self) -> Vec<Report> {
        vec![Report {
            status: self.status,
            criterion: Criterion::ProjectedGradientSpread {
                tolerance: self.tolerance.unwrap_or(f64::NAN),
            },
            iterations: self.iterations,
            evaluations: self.iterations,
            value: self.primal_objective,
            gradient_norm: None,
        }]
    }
}
