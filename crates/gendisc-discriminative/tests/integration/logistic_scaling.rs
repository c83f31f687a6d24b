//! L-BFGS and conjugate gradient on features far from zero and on very different scales
//! (pixel intensities, incomes beside ratios): the same minimiser as Newton's, reached in a
//! number of iterations that does not grow with the features' offsets and units.

use gendisc_core::{ConditionalModel, Fit, ParamGuard};
use gendisc_discriminative::logistic::{LogisticRegression, LogisticSolver};
use gendisc_optim::Status;
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `n` rows over `k` classes whose `d` features are shifted by `offset · j` and scaled by
/// `10^(j mod 3)`; the classes overlap, so every fit has a finite optimum.
fn badly_scaled(n: usize, d: usize, k: usize, offset: f64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let y = Array1::from_shape_fn(n, |i| i % k);
    let x = Array2::from_shape_fn((n, d), |(i, j)| {
        let signal = if j % k == y[i] { 0.8 } else { 0.0 };
        let unit = 10f64.powi((j % 3) as i32);
        (signal + rng.random_range(-1.0..1.0) + offset * j as f64) * unit
    });
    (x, y)
}

fn fit(
    solver: LogisticSolver,
    prior: Option<f64>,
    x: &Array2<f64>,
    y: &Array1<usize>,
) -> LogisticRegression {
    let mut params = LogisticRegression::params().solver(solver);
    if let Some(v) = prior {
        params = params.prior_variance(v);
    }
    params.check().unwrap().fit(x.view(), y.view()).unwrap()
}

#[test]
fn first_order_solvers_reach_newtons_minimiser_on_badly_scaled_features() {
    for (k, prior) in [(2, None), (2, Some(0.5)), (4, None), (4, Some(0.5))] {
        let (x, y) = badly_scaled(400, 6, k, 20.0);
        let newton = fit(LogisticSolver::Newton, prior, &x, &y);
        let reference = newton.predict_log_proba(x.view()).unwrap();
        for solver in [LogisticSolver::Lbfgs, LogisticSolver::ConjugateGradient] {
            let model = fit(solver, prior, &x, &y);
            assert_eq!(
                model.report().status,
                Status::Converged,
                "{solver:?}, K = {k}, prior {prior:?}"
            );
            assert!(
                model.report().iterations < 500,
                "{solver:?}, K = {k}, prior {prior:?}: {} iterations",
                model.report().iterations
            );
            let log_proba = model.predict_log_proba(x.view()).unwrap();
            let gap = (&log_proba - &reference)
                .mapv(f64::abs)
                .fold(0.0f64, |a, &b| a.max(b));
            assert!(
                gap < 1e-4,
                "{solver:?}, K = {k}, prior {prior:?}: log-probabilities differ by {gap:e}"
            );
        }
    }
}
