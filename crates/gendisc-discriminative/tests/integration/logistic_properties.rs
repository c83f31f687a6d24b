//! Invariants of logistic regression (scikit-learn's estimator checks, as properties), and the
//! optimality conditions that define the fits independently of any reference implementation.

use gendisc_core::{Classifier, ConditionalModel, Convergence, Fit, FitWeighted};
use gendisc_discriminative::logistic::{LogisticRegression, LogisticSolver};
use ndarray::{array, Array1, Array2, Axis};
use proptest::prelude::*;
use sprs::CsMat;

/// A data set with `k` classes, every class present (the first `k` rows), on `d` features.
fn dataset(k: usize) -> impl Strategy<Value = (Array2<f64>, Array1<usize>)> {
    (1usize..4, 12usize..40).prop_flat_map(move |(d, n)| {
        (
            prop::collection::vec(prop_oneof![Just(0.0), -3.0f64..3.0], n * d),
            prop::collection::vec(0..k, n),
        )
            .prop_map(move |(x, mut y)| {
                for (i, label) in y.iter_mut().take(k).enumerate() {
                    *label = i;
                }
                (Array2::from_shape_vec((n, d), x).unwrap(), Array1::from(y))
            })
    })
}

fn max_abs_diff(a: &Array2<f64>, b: &Array2<f64>) -> f64 {
    a.iter()
        .zip(b.iter())
        .map(|(u, v)| (u - v).abs())
        .fold(0.0, f64::max)
}

/// Coefficients and intercepts side by side.
fn parameters(m: &LogisticRegression) -> Array2<f64> {
    ndarray::concatenate![
        Axis(1),
        m.coefficients(),
        m.intercept().insert_axis(Axis(1))
    ]
}

/// `Σ_i w_i (p_ik − 1{y_i = k}) x̃_i` for every class `k`: the score of the softmax
/// likelihood (`K × (d + 1)`).
fn score(
    m: &LogisticRegression,
    x: &Array2<f64>,
    y: &Array1<usize>,
    w: &Array1<f64>,
) -> Array2<f64> {
    let p = m.predict_proba(x.view()).unwrap();
    let k = p.ncols();
    let mut residual = p;
    for (i, &label) in y.iter().enumerate() {
        residual[[i, label]] -= 1.0;
        residual.row_mut(i).mapv_inplace(|r| r * w[i]);
    }
    let ones = Array2::ones((x.nrows(), 1));
    let xt = ndarray::concatenate![Axis(1), x.view(), ones];
    let s = residual.t().dot(&xt);
    assert_eq!(s.nrows(), k);
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn probabilities_predictions_and_log_odds_agree((x, y) in dataset(2)) {
        let m = LogisticRegression::params().prior_variance(1.0).fit(x.view(), y.view()).unwrap();
        let p = m.predict_proba(x.view()).unwrap();
        let lp = m.predict_log_proba(x.view()).unwrap();
        let classes = m.predict(x.view()).unwrap();
        let d = m.decision_function(x.view()).unwrap();
        for i in 0..x.nrows() {
            prop_assert!((p.row(i).sum() - 1.0).abs() < 1e-12);
            prop_assert!((lp[[i, 1]] - lp[[i, 0]] - d[i]).abs() < 1e-9 * d[i].abs().max(1.0));
            prop_assert_eq!(classes[i], usize::from(d[i] > 0.0));
        }
    }

    #[test]
    fn multinomial_probabilities_sum_to_one((x, y) in dataset(3)) {
        let m = LogisticRegression::params().prior_variance(2.0).fit(x.view(), y.view()).unwrap();
        prop_assert!(m.report().is_converged());
        let p = m.predict_proba(x.view()).unwrap();
        let classes = m.predict(x.view()).unwrap();
        for (i, row) in p.outer_iter().enumerate() {
            prop_assert!((row.sum() - 1.0).abs() < 1e-12);
            let best = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            prop_assert_eq!(row[classes[i]], best);
        }
        // The penalised (symmetric) parametrisation: weights and intercepts sum to zero.
        let sums = parameters(&m).sum_axis(Axis(0));
        prop_assert!(sums.iter().all(|s| s.abs() < 1e-6), "{:?}", sums);
    }

    /// Stationarity of the penalised objective: score = −θ/σ² on the weights, 0 on the
    /// (unpenalised) intercept. This pins down the penalty convention `‖w‖²/(2σ²)`.
    #[test]
    fn penalised_fits_are_stationary((x, y) in dataset(3), sigma2 in 0.1f64..10.0, k in 2usize..4) {
        let y = y.mapv(|c| c % k);
        prop_assume!((0..k).all(|c| y.iter().any(|&l| l == c)));
        let w = Array1::ones(x.nrows());
        let m = LogisticRegression::params().prior_variance(sigma2).fit(x.view(), y.view()).unwrap();
        let s = score(&m, &x, &y, &w);
        let theta = parameters(&m);
        // For two classes the model is one row, the log-odds of class 1: score row 1.
        let rows: Vec<usize> = if k == 2 { vec![1] } else { (0..k).collect() };
        for (r, &class) in rows.iter().enumerate() {
            let d = x.ncols();
            for j in 0..d {
                let expected = -theta[[r, j]] / sigma2;
                prop_assert!((s[[class, j]] - expected).abs() < 1e-7, "class {} feature {}", class, j);
            }
            prop_assert!(s[[class, d]].abs() < 1e-7);
        }
    }

    /// Unpenalised maximum likelihood matches moments: Σ_i p_ik x̃_i = Σ_{i: y_i = k} x̃_i for
    /// every class, including the reference class 0.
    #[test]
    fn maximum_likelihood_matches_moments((x, y) in dataset(3), w in prop::collection::vec(0.5f64..2.0, 40)) {
        let w = Array1::from(w[..x.nrows()].to_vec());
        let m = LogisticRegression::params().fit_weighted(x.view(), y.view(), w.view()).unwrap();
        prop_assume!(!m.report().separated);
        prop_assert!(m.report().status.is_converged());
        let s = score(&m, &x, &y, &w);
        prop_assert!(s.iter().all(|v| v.abs() < 1e-6), "{:?}", s);
        // Reference-class parametrisation: class 0's row is zero.
        prop_assert!(parameters(&m).row(0).iter().all(|&v| v == 0.0));
    }

    #[test]
    fn integer_weights_replicate_rows((x, y) in dataset(2), i in 0usize..12) {
        let mut w = Array1::ones(x.nrows());
        w[i] = 3.0;
        let x3 = ndarray::concatenate![Axis(0), x.view(), x.row(i).insert_axis(Axis(0)), x.row(i).insert_axis(Axis(0))];
        let y3 = ndarray::concatenate![Axis(0), y.view(), array![y[i], y[i]].view()];
        let params = LogisticRegression::params().prior_variance(1.0);
        let weighted = params.fit_weighted(x.view(), y.view(), w.view()).unwrap();
        let replicated = params.fit(x3.view(), y3.view()).unwrap();
        prop_assert!(max_abs_diff(&parameters(&weighted), &parameters(&replicated)) < 1e-8);
    }

    #[test]
    fn zero_weight_removes_the_row((x, y) in dataset(3), i in 3usize..12) {
        let mut w = Array1::ones(x.nrows());
        w[i] = 0.0;
        let keep: Vec<usize> = (0..x.nrows()).filter(|&r| r != i).collect();
        let params = LogisticRegression::params().prior_variance(1.0);
        let weighted = params.fit_weighted(x.view(), y.view(), w.view()).unwrap();
        let removed = params.fit(x.select(Axis(0), &keep).view(), y.select(Axis(0), &keep).view()).unwrap();
        prop_assert!(max_abs_diff(&parameters(&weighted), &parameters(&removed)) < 1e-8);
        let ones = params.fit_weighted(x.view(), y.view(), Array1::ones(x.nrows()).view()).unwrap();
        let plain = params.fit(x.view(), y.view()).unwrap();
        prop_assert_eq!(parameters(&ones), parameters(&plain));
    }

    #[test]
    fn row_order_does_not_matter((x, y) in dataset(3)) {
        let order: Vec<usize> = (0..x.nrows()).rev().collect();
        let params = LogisticRegression::params().prior_variance(1.0);
        let a = params.fit(x.view(), y.view()).unwrap();
        let b = params.fit(x.select(Axis(0), &order).view(), y.select(Axis(0), &order).view()).unwrap();
        prop_assert!(max_abs_diff(&parameters(&a), &parameters(&b)) < 1e-8);
    }

    #[test]
    fn sparse_input_gives_the_dense_fit((x, y) in dataset(3)) {
        let sparse = CsMat::csr_from_dense(x.view(), 0.0);
        let params = LogisticRegression::params().prior_variance(1.0);
        let dense = params.fit(x.view(), y.view()).unwrap();
        let from_sparse = params.fit_sparse(sparse.view(), y.view()).unwrap();
        // The two paths sum in different orders, so near the stopping rule one of them may take
        // one Newton step more than the other: they then agree to what that rule guarantees
        // (a mean gradient under 1e-10), not to rounding.
        prop_assert!(max_abs_diff(&parameters(&dense), &parameters(&from_sparse)) < 1e-8);
        let csc = sparse.to_other_storage();
        let p_sparse = from_sparse.predict_proba_sparse(csc.view()).unwrap();
        prop_assert!(max_abs_diff(&dense.predict_proba(x.view()).unwrap(), &p_sparse) < 1e-8);
        // Scored on the same fit, the two layouts agree to rounding.
        let p_same_fit = dense.predict_proba_sparse(csc.view()).unwrap();
        prop_assert!(max_abs_diff(&dense.predict_proba(x.view()).unwrap(), &p_same_fit) < 1e-12);
    }

    #[test]
    fn swapping_the_labels_negates_the_log_odds((x, y) in dataset(2)) {
        let params = LogisticRegression::params().prior_variance(1.0);
        let a = params.fit(x.view(), y.view()).unwrap();
        let b = params.fit(x.view(), y.mapv(|c| 1 - c).view()).unwrap();
        prop_assert!(max_abs_diff(&parameters(&a), &parameters(&b).mapv(|v| -v)) < 1e-8);
    }

    #[test]
    fn fitting_is_deterministic((x, y) in dataset(3)) {
        let params = LogisticRegression::params().prior_variance(0.5).solver(LogisticSolver::Lbfgs);
        let a = params.fit(x.view(), y.view()).unwrap();
        let b = params.fit(x.view(), y.view()).unwrap();
        prop_assert_eq!(a, b);
    }
}

#[test]
fn a_penalised_intercept_is_shrunk() {
    let x = array![[0.0], [1.0], [2.0], [3.0], [0.5], [2.5]];
    let y = array![1, 1, 1, 0, 1, 1];
    let free = LogisticRegression::params()
        .prior_variance(0.1)
        .fit(x.view(), y.view())
        .unwrap();
    let shrunk = LogisticRegression::params()
        .prior_variance(0.1)
        .penalize_intercept(true)
        .fit(x.view(), y.view())
        .unwrap();
    assert!(shrunk.intercept()[0].abs() < free.intercept()[0].abs());
    // Stationarity in the intercept: Σ (p − y) = −b/σ².
    let p = shrunk.predict_proba(x.view()).unwrap();
    let s: f64 = p.column(1).iter().zip(&y).map(|(p, &y)| p - y as f64).sum();
    assert!((s + shrunk.intercept()[0] / 0.1).abs() < 1e-9);
}

#[test]
fn serde_round_trip() {
    let x = array![
        [0.0, 1.0],
        [1.0, 0.0],
        [2.0, 1.0],
        [3.0, 0.0],
        [4.0, 1.0],
        [5.0, 0.0]
    ];
    let y = array![0, 1, 2, 0, 1, 2];
    let model = LogisticRegression::params()
        .prior_variance(1.0)
        .fit(x.view(), y.view())
        .unwrap();
    let json = serde_json::to_string(&model).unwrap();
    let back: LogisticRegression = serde_json::from_str(&json).unwrap();
    assert_eq!(back, model);
    assert_eq!(
        back.predict_proba(x.view()).unwrap(),
        model.predict_proba(x.view()).unwrap()
    );
}

#[test]
fn models_and_params_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<LogisticRegression>();
    check::<gendisc_discriminative::logistic::LogisticRegressionParams>();
    check::<gendisc_discriminative::logistic::FitReport>();
}

#[test]
fn n_classes_and_features() {
    let x = array![
        [0.0, 1.0, 2.0],
        [1.0, 0.0, 2.0],
        [2.0, 1.0, 0.0],
        [3.0, 0.0, 1.0]
    ];
    let y = array![0, 1, 0, 1];
    let m = LogisticRegression::params()
        .prior_variance(1.0)
        .fit(x.view(), y.view())
        .unwrap();
    assert_eq!((m.n_classes(), m.n_features()), (2, 3));
    assert_eq!(m.coefficients().dim(), (1, 3));
    let m = LogisticRegression::params()
        .prior_variance(1.0)
        .fit_intercept(false)
        .n_classes(4)
        .fit(
            array![[0.0], [1.0], [2.0], [3.0]].view(),
            array![0, 1, 2, 3].view(),
        )
        .unwrap();
    assert_eq!(m.coefficients().dim(), (4, 1));
    assert!(m.intercept().iter().all(|&b| b == 0.0));
    assert!(!m.fits_intercept());
}

/// R's warning condition: a separated training set saturates the fitted probabilities, an
/// overlapping one does not.
#[test]
fn saturation_follows_r_warning_condition() {
    use gendisc_core::Fit;
    use gendisc_discriminative::logistic::{LogisticRegression, LogisticSolver};
    use ndarray::array;

    let separated_x = array![[0.0], [1.0], [2.0], [3.0]];
    let separated_y = array![0, 0, 1, 1];
    let overlapping_x = array![[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]];
    let overlapping_y = array![0, 1, 0, 1, 1, 0];
    for solver in [LogisticSolver::GlmIrls, LogisticSolver::Newton] {
        let params = LogisticRegression::params().solver(solver);
        let fit = params.fit(separated_x.view(), separated_y.view()).unwrap();
        assert!(fit.report().saturated, "{solver:?}");
        assert!(!fit.report().is_converged());
        let fit = params
            .fit(overlapping_x.view(), overlapping_y.view())
            .unwrap();
        assert!(!fit.report().saturated, "{solver:?}");
    }
}
