//! How an iterative fit ended — one convergence vocabulary for the whole workspace.
//!
//! [`Status::Converged`] means one thing: the fit met its stopping criterion — for the
//! gradient-based solvers, the first-order condition `‖∇f‖₂ ≤ tolerance · max(1, |f|)`
//! ([`Criterion::Gradient`]). Everything else that ends a fit is a status of its own, as in
//! Clarabel's `SolverStatus`: a value that stopped decreasing while the gradient is still
//! large ([`Status::Stalled`], Clarabel's `InsufficientProgress`), the iteration cap, a
//! non-finite objective, and — where the estimator can prove it — an objective without a
//! finite optimum (a likelihood on separated data) or a program without a feasible point.
//!
//! Every estimator's fit report answers the same question the same way, through
//! [`Convergence`]: `report.is_converged()` for logistic regression, the hybrid, GDT, the SVMs,
//! the bilevel classifier and Balls2's EM alike; and
//! [`solver_reports`](Convergence::solver_reports) gives each solver run of a fit in one type,
//! [`Report`]: status, [`Criterion`], iterations, evaluations, objective and gradient norm.
//! What a report says beyond that (a logistic fit's fitted probabilities of 0 or 1, a GDT
//! fit's generative start, an SVM's duality gap) stays in that report's own fields.

use serde::{Deserialize, Serialize};

/// Why a solver stopped.
///
/// Only [`Converged`](Status::Converged) means the stopping criterion was met; every other
/// status still comes with the best parameters found, so that the caller can decide what to do
/// with them (and say so to its own users) instead of losing them to an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Status {
    /// The run met its [`Criterion`]: for the gradient-based solvers the first-order condition
    /// `‖∇f‖₂ ≤ tolerance · max(1, |f|)`; for methods that follow a reference's own rule (R's
    /// glm, EM, the SVM's dual gap, the bilevel alternation) that rule, as each report says.
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

    /// The status of a fit made of parts (one problem per class, one per alternation): the
    /// first part's status that is not [`Converged`](Status::Converged), or `Converged` when
    /// every part converged (and when there are none).
    pub fn of_parts(parts: impl IntoIterator<Item = Status>) -> Status {
        parts
            .into_iter()
            .find(|status| !status.is_converged())
            .unwrap_or(Status::Converged)
    }

    /// [`Converged`](Status::Converged) when `met`, else
    /// [`MaxIterations`](Status::MaxIterations): the status of a method whose only other way to
    /// stop is its iteration cap (EM, dual coordinate descent).
    pub fn met_or_capped(met: bool) -> Status {
        if met {
            Status::Converged
        } else {
            Status::MaxIterations
        }
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
/// The solvers of `gendisc-optim` stop on the gradient: `‖∇f‖₂ ≤ tolerance · max(1, |f|)` —
/// relative to the objective's magnitude once that exceeds one, as scipy's and Optim.jl's
/// defaults are, so that a criterion means the same on a sum and on a mean of many terms.
/// Methods that follow a reference's own rule say which: R's `glm` and the bilevel alternation a
/// relative change ([`Criterion::RelativeChange`]), EM its gain in log-likelihood
/// ([`Criterion::LikelihoodGain`]), dual coordinate descent the spread of the dual's projected
/// gradient ([`Criterion::ProjectedGradientSpread`]), an interior-point solve its residuals and
/// duality gap ([`Criterion::InteriorPoint`]).
///
/// Serialised as one flat object named by its `rule`: `{"rule": "Gradient", "tolerance": 1e-8}`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "rule", deny_unknown_fields)]
#[non_exhaustive]
pub enum Criterion {
    /// `‖∇f‖₂ ≤ tolerance · max(1, |f|)`.
    Gradient {
        /// The gradient tolerance.
        tolerance: f64,
    },
    /// The relative change of a monitored quantity between iterations fell to `tolerance`: R's
    /// `glm` on the deviance, `|D − D_prev| / (|D| + 0.1)`; the bilevel alternation on its
    /// parameters, `‖θ − θ_prev‖ / max(1, ‖θ_prev‖)`.
    RelativeChange {
        /// The tolerance on the relative change.
        tolerance: f64,
    },
    /// EM's gain in log-likelihood over one iteration, per unit of the rows' weight, fell to
    /// `tolerance`.
    LikelihoodGain {
        /// The tolerance on the gain per unit of weight.
        tolerance: f64,
    },
    /// Dual coordinate descent's first-order condition on the box-constrained dual (Hsieh et
    /// al., 2008): `max_j ∇ᴾ_j f − min_j ∇ᴾ_j f ≤ tolerance` over the projected gradient.
    ProjectedGradientSpread {
        /// The tolerance on the spread.
        tolerance: f64,
    },
    /// An interior-point solve met its duality-gap and feasibility tolerances (Clarabel's
    /// `tol_gap_abs`, `tol_gap_rel` and `tol_feas`, which the workspace sets alike).
    InteriorPoint {
        /// The gap and feasibility tolerance.
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

    /// The tolerance of the rule, whichever it is.
    pub fn tolerance(&self) -> f64 {
        match *self {
            Criterion::Gradient { tolerance }
            | Criterion::RelativeChange { tolerance }
            | Criterion::LikelihoodGain { tolerance }
            | Criterion::ProjectedGradientSpread { tolerance }
            | Criterion::InteriorPoint { tolerance } => tolerance,
        }
    }

    /// The largest gradient norm that meets a gradient criterion at objective value `value`
    /// (`None` for the other rules, which a gradient does not decide).
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
            _ => None,
        }
    }

    /// Whether a gradient norm meets a gradient criterion at objective value `value` (always
    /// `false` for the other rules, which a gradient cannot decide).
    pub fn is_met(&self, value: f64, gradient_norm: f64) -> bool {
        self.threshold(value)
            .is_some_and(|threshold| gradient_norm <= threshold)
    }
}

impl std::fmt::Display for Criterion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tolerance = self.tolerance();
        match self {
            Criterion::Gradient { .. } => write!(f, "‖∇f‖₂ ≤ {tolerance:e} · max(1, |f|)"),
            Criterion::RelativeChange { .. } => write!(f, "relative change ≤ {tolerance:e}"),
            Criterion::LikelihoodGain { .. } => {
                write!(f, "log-likelihood gain per unit of weight ≤ {tolerance:e}")
            }
            Criterion::ProjectedGradientSpread { .. } => {
                write!(f, "spread of the projected gradient ≤ {tolerance:e}")
            }
            Criterion::InteriorPoint { .. } => {
                write!(f, "duality gap and residuals ≤ {tolerance:e}")
            }
        }
    }
}

/// How a run ended: its status, the criterion it was judged by, what it cost and where it
/// stopped — the workspace's one report type, which every estimator gives through
/// [`Convergence::solver_reports`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Report {
    /// Why the solver stopped.
    pub status: Status,
    /// The stopping criterion ([`Status::Converged`] means it was met).
    pub criterion: Criterion,
    /// Accepted steps (outer iterations: Newton steps, line searches, EM or IRLS iterations,
    /// passes of coordinate descent, alternations, interior-point iterations).
    pub iterations: usize,
    /// Evaluations of the objective (with or without its gradient); for methods that evaluate
    /// it once per iteration by construction (EM, IRLS, coordinate descent, an alternation),
    /// `iterations + 1`, or `iterations` where the start is not evaluated.
    pub evaluations: usize,
    /// The objective at the returned parameters, as the method minimises it (EM's and a
    /// likelihood's negated).
    #[serde(with = "crate::model_file::non_finite")]
    pub value: f64,
    /// `‖∇f‖₂` at the returned parameters (NaN where it could not be evaluated there); `None`
    /// for the methods that evaluate no gradient (EM, dual coordinate descent on the
    /// non-differentiable primal, an alternation, an interior-point solve).
    #[serde(with = "crate::model_file::non_finite::option")]
    pub gradient_norm: Option<f64>,
}

impl Convergence for Report {
    fn status(&self) -> Status {
        self.status
    }

    fn solver_reports(&self) -> Vec<Report> {
        vec![*self]
    }
}

/// How an iterative fit ended, asked the same way of every estimator's report.
///
/// [`is_converged`](Convergence::is_converged) is the one question "did this fit reach its
/// optimum?": `true` exactly when [`status`](Convergence::status) is [`Status::Converged`].
/// A fit that provably has no optimum (a likelihood on separated data) reports
/// [`Status::NoFiniteMinimiser`], so it is never "converged".
///
/// ```
/// use gendisc_core::convergence::{Convergence, Criterion, Report, Status};
///
/// let report = Report {
///     status: Status::MaxIterations,
///     criterion: Criterion::new(1e-8),
///     iterations: 100,
///     evaluations: 131,
///     value: 0.42,
///     gradient_norm: Some(3e-5),
/// };
/// assert!(!report.is_converged());
/// assert_eq!(report.status().to_string(), "maximum number of iterations reached");
/// ```
pub trait Convergence {
    /// Why the fit stopped.
    fn status(&self) -> Status;

    /// Whether the fit met its stopping criterion ([`Status::Converged`]).
    fn is_converged(&self) -> bool {
        self.status().is_converged()
    }

    /// Every solver run the fit is made of, in the one [`Report`] type: one for a single
    /// problem (logistic regression, the hybrid's `θ`, GDT, the multi-task SVM), one per
    /// binary problem (the linear SVM) or per class (Balls2's EM), the alternation and then
    /// each of its step-1 programs (the bilevel classifier).
    ///
    /// [`status`](Self::status) is [`Status::of_parts`] of these, except where the estimator
    /// knows more than its solver: a certificate that no finite optimum exists (a logistic
    /// likelihood on separated data) makes the fit [`Status::NoFiniteMinimiser`] whatever its
    /// solver's report says.
    fn solver_reports(&self) -> Vec<Report>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fit_of_parts_is_converged_only_when_every_part_is() {
        use Status::*;
        assert_eq!(Status::of_parts([]), Converged);
        assert_eq!(Status::of_parts([Converged, Converged]), Converged);
        assert_eq!(
            Status::of_parts([Converged, Stalled, MaxIterations]),
            Stalled
        );
        assert_eq!(Status::met_or_capped(true), Converged);
        assert_eq!(Status::met_or_capped(false), MaxIterations);
    }

    #[test]
    fn only_converged_is_converged() {
        use Status::*;
        for status in [
            Stalled,
            MaxIterations,
            NonFinite,
            NoFiniteMinimiser,
            Infeasible,
        ] {
            assert!(!status.is_converged(), "{status}");
        }
        assert!(Converged.is_converged());
    }
}
