//! What every solver hands back: the parameters it stopped at and why it stopped there, in the
//! workspace's one convergence vocabulary ([`gendisc_core::convergence`], re-exported here).

use ndarray::Array1;

pub use gendisc_core::convergence::{Convergence, Criterion, Report, Status};

/// The result of a run: the returned parameters and the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The best parameters found (the last accepted iterate for the Newton methods, the lowest
    /// objective value evaluated for the argmin solvers).
    pub x: Array1<f64>,
    /// How the run ended.
    pub report: Report,
}

impl Solution {
    /// `‖∇f‖₂` at the returned parameters, which every solver of this crate evaluates (NaN
    /// only where it could not be evaluated there).
    pub fn gradient_norm(&self) -> f64 {
        self.report.gradient_norm.unwrap_or(f64::NAN)
    }
}
