//! Separated classes: the maximum-likelihood estimate does not exist. The fit says so instead
//! of looping or returning NaN, and a prior gives a finite estimate.
//!
//! `cargo run -p gendisc-discriminative --example logistic_separation`

use gendisc_core::{Convergence, Fit};
use gendisc_discriminative::logistic::{LogisticRegression, LogisticSolver};
use ndarray::array;

fn main() -> gendisc_core::Result<()> {
    // x < 2.5 is always class 0, x > 2.5 always class 1: complete separation.
    let x = array![[0.5], [1.0], [1.5], [2.0], [3.0], [3.5], [4.0], [4.5]];
    let y = array![0, 0, 0, 0, 1, 1, 1, 1];

    for solver in [LogisticSolver::Newton, LogisticSolver::GlmIrls] {
        let model = LogisticRegression::params()
            .solver(solver)
            .fit(x.view(), y.view())?;
        let r = model.report();
        println!(
            "{solver:?}: {:?} after {} iterations, slope {:.1}, separated: {}",
            r.status,
            r.iterations,
            model.coefficients()[[0, 0]],
            r.separated
        );
    }

    // The documented remedy: a Gaussian prior on the weights.
    let model = LogisticRegression::params()
        .prior_variance(10.0)
        .fit(x.view(), y.view())?;
    println!(
        "with prior σ² = 10: slope {:.3}, intercept {:.3}, converged: {}",
        model.coefficients()[[0, 0]],
        model.intercept()[0],
        model.report().is_converged()
    );
    Ok(())
}
