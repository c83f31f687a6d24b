//! Fit a binary logistic regression, read its report, and predict.
//!
//! `cargo run -p gendisc-discriminative --example logistic_basic`

use gendisc_core::{ConditionalModel, Fit};
use gendisc_discriminative::logistic::{LogisticRegression, LogisticSolver};
use ndarray::{array, Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() -> gendisc_core::Result<()> {
    // 300 rows from p(y = 1 | x) = σ(−0.5 + 1.5 x₁ − x₂).
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let x = Array2::from_shape_fn((300, 2), |_| rng.random_range(-2.0..2.0));
    let y: Array1<usize> = x
        .outer_iter()
        .map(|r| {
            let eta: f64 = -0.5 + 1.5 * r[0] - r[1];
            let p = 1.0 / (1.0 + (-eta).exp());
            usize::from(rng.random::<f64>() < p)
        })
        .collect();

    // Maximum likelihood, as R's glm(y ~ x1 + x2, family = binomial).
    let model = LogisticRegression::params().fit(x.view(), y.view())?;
    let report = model.report();
    println!("weights   {:.4}", model.coefficients().row(0));
    println!("intercept {:.4}", model.intercept()[0]);
    println!(
        "{:?} after {} {:?} iterations, deviance {:.4}, separated: {}",
        report.status, report.iterations, report.solver, report.deviance, report.separated
    );

    // The same fit by glm's own iterations: same coefficients, glm's iteration count.
    let glm = LogisticRegression::params()
        .solver(LogisticSolver::GlmIrls)
        .fit(x.view(), y.view())?;
    println!("glm.fit-compatible: {} iterations", glm.report().iterations);

    // A Gaussian prior N(0, σ² = 0.5) on the weights shrinks them (scikit-learn's C = 0.5).
    let ridge = LogisticRegression::params()
        .prior_variance(0.5)
        .fit(x.view(), y.view())?;
    println!(
        "with prior σ² = 0.5: weights {:.4}",
        ridge.coefficients().row(0)
    );

    let p = model.predict_proba(array![[1.0, -1.0], [-1.0, 1.0]].view())?;
    println!("p(y = 1 | x) at (1, −1) and (−1, 1): {:.4}", p.column(1));
    Ok(())
}
