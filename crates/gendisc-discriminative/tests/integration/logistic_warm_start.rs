//! A warm start changes where the solver starts, not where it ends.

use gendisc_core::{ConditionalModel, Convergence, Error, Fit};
use gendisc_discriminative::logistic::{LogisticRegression, LogisticSolver};
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `n` rows of `d` standard-uniform-ish features and labels from a noisy linear rule over
/// `k` classes.
fn data(n: usize, d: usize, k: usize, seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let x = Array2::from_shape_fn((n, d), |_| rng.random_range(-2.0..2.0));
    let y = x
        .rows()
        .into_iter()
        .enumerate()
        .map(|(i, row)| {
            let score: f64 = row[0] - 0.5 * row[d - 1] + rng.random_range(-1.0..1.0);
            // Every class appears: the first k rows take each class once.
            if i < k {
                i
            } else {
                ((score + 2.5).max(0.0) as usize).min(k - 1)
            }
        })
        .collect();
    (x, y)
}

#[test]
fn binary_penalised_fit_from_the_unpenalised_one() {
    let (x, y) = data(300, 4, 2, 1);
    let mle = LogisticRegression::params()
        .fit(x.view(), y.view())
        .unwrap();
    let cold = LogisticRegression::params()
        .prior_variance(10.0)
        .fit(x.view(), y.view())
        .unwrap();
    let warm = LogisticRegression::params()
        .prior_variance(10.0)
        .warm_start(&mle)
        .fit(x.view(), y.view())
        .unwrap();
    assert!(cold.report().is_converged() && warm.report().is_converged());
    assert!(
        warm.report().iterations < cold.report().iterations,
        "warm {} vs cold {} iterations",
        warm.report().iterations,
        cold.report().iterations
    );
    let gap = (&warm.coefficients() - &cold.coefficients())
        .iter()
        .chain((&warm.intercept() - &cold.intercept()).iter())
        .fold(0.0_f64, |m, v| m.max(v.abs()));
    assert!(gap < 1e-8, "solutions differ by {gap}");
}

#[test]
fn multinomial_warm_start_from_a_symmetric_penalised_fit() {
    // The penalised fit centres its intercepts; the unpenalised one pins class 0's.
    let (x, y) = data(240, 3, 3, 2);
    let penalised = LogisticRegression::params()
        .prior_variance(1.0)
        .fit(x.view(), y.view())
        .unwrap();
    for solver in [LogisticSolver::Newton, LogisticSolver::Lbfgs] {
        let params = LogisticRegression::params()
            .prior_variance(100.0)
            .solver(solver);
        let cold = params.clone().fit(x.view(), y.view()).unwrap();
        let warm = params
            .warm_start(&penalised)
            .fit(x.view(), y.view())
            .unwrap();
        let (p_cold, p_warm) = (
            cold.predict_proba(x.view()).unwrap(),
            warm.predict_proba(x.view()).unwrap(),
        );
        let gap = (&p_cold - &p_warm)
            .iter()
            .fold(0.0_f64, |m, v| m.max(v.abs()));
        assert!(gap < 1e-6, "{solver:?}: probabilities differ by {gap}");
    }
}

#[test]
fn bad_warm_starts_are_typed_errors() {
    let (x, y) = data(100, 3, 2, 3);
    let model = LogisticRegression::params()
        .fit(x.view(), y.view())
        .unwrap();
    let narrow = x.slice(ndarray::s![.., ..2]).to_owned();
    let err = LogisticRegression::params()
        .warm_start(&model)
        .fit(narrow.view(), y.view())
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::ShapeMismatch {
                expected: 2,
                found: 3,
                ..
            }
        ),
        "{err}"
    );
    let (x3, y3) = data(100, 3, 3, 4);
    let err = LogisticRegression::params()
        .warm_start(&model)
        .fit(x3.view(), y3.view())
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::ShapeMismatch {
                expected: 3,
                found: 1,
                ..
            }
        ),
        "{err}"
    );
    let err = LogisticRegression::params()
        .solver(LogisticSolver::GlmIrls)
        .warm_start(&model)
        .fit(x.view(), y.view())
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidParameter {
                name: "warm_start",
                ..
            }
        ),
        "{err}"
    );
}
