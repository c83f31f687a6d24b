//! Every bad input is a typed error that says what and where; nothing panics.

use gendisc_core::{Classifier, ConditionalModel, Error, Fit, FitWeighted};
use gendisc_generative::{BernoulliNb, GaussianNb, VarianceEstimator};
use gendisc_hybrid::{Hybrid, Intercept, ThetaSolver};
use ndarray::{array, Array1, Array2};

fn data() -> (Array2<f64>, Array1<usize>) {
    (
        array![
            [0.1, 1.0, -0.3],
            [0.7, 0.2, 0.4],
            [-0.4, 0.9, 0.1],
            [0.3, -0.2, 0.8],
            [1.4, 2.0, 1.1],
            [2.2, 1.1, 0.6],
            [1.0, 2.6, 1.9],
            [0.2, 1.7, 1.3]
        ],
        array![0, 0, 0, 0, 1, 1, 1, 1],
    )
}

fn invalid_parameter(result: gendisc_core::Result<impl std::fmt::Debug>, name: &str, says: &str) {
    match result {
        Err(Error::InvalidParameter { name: n, reason }) => {
            assert_eq!(n, name);
            assert!(reason.contains(says), "{reason}");
        }
        other => panic!("expected an invalid `{name}`, got {other:?}"),
    }
}

#[test]
fn bad_regions() {
    let (x, y) = data();
    let fit = |regions: Vec<Vec<usize>>| {
        Hybrid::params(GaussianNb::params())
            .regions(regions)
            .fit(x.view(), y.view())
    };
    invalid_parameter(fit(vec![]), "regions", "at least one region");
    invalid_parameter(
        fit(vec![vec![0], vec![]]),
        "regions",
        "region 1 has no features",
    );
    invalid_parameter(fit(vec![vec![0, 3]]), "regions", "region 0 holds feature 3");
    invalid_parameter(fit(vec![vec![1, 1]]), "regions", "feature 1 appears twice");
    invalid_parameter(
        fit(vec![vec![0, 1], vec![1, 2]]),
        "regions",
        "feature 1 is in regions 0 and 1",
    );
    // Regions need not cover every feature.
    assert!(fit(vec![vec![2], vec![0]]).is_ok());
}

#[test]
fn bad_data() {
    let (x, y) = data();
    let params = Hybrid::params(GaussianNb::params());
    assert!(matches!(
        params.fit(x.view(), array![0, 1].view()),
        Err(Error::ShapeMismatch { .. })
    ));
    let mut nan = x.clone();
    nan[[5, 2]] = f64::NAN;
    assert!(matches!(
        params.fit(nan.view(), y.view()),
        Err(Error::NonFinite {
            row: 5,
            column: 2,
            ..
        })
    ));
    assert!(matches!(
        params.fit(Array2::zeros((0, 3)).view(), Array1::zeros(0).view()),
        Err(Error::Empty { .. })
    ));
    assert!(matches!(
        params.fit(Array2::zeros((4, 0)).view(), Array1::zeros(4).view()),
        Err(Error::Empty { .. })
    ));
    let mut out_of_range = y.clone();
    out_of_range[3] = 5;
    assert!(matches!(
        Hybrid::params(GaussianNb::params().n_classes(2)).fit(x.view(), out_of_range.view()),
        Err(Error::LabelOutOfRange {
            row: 3,
            label: 5,
            ..
        })
    ));
    // One class only.
    assert!(matches!(
        params.fit(x.view(), Array1::zeros(8).view()),
        Err(Error::EmptyClass { class: 1, .. })
    ));
    // A declared class without rows.
    assert!(matches!(
        Hybrid::params(GaussianNb::params().n_classes(3)).fit(x.view(), y.view()),
        Err(Error::EmptyClass { class: 2, .. })
    ));
    // Weights.
    assert!(matches!(
        params.fit_weighted(x.view(), y.view(), array![1.0, 2.0].view()),
        Err(Error::ShapeMismatch { .. })
    ));
    let mut negative = Array1::ones(8);
    negative[6] = -1.0;
    assert!(matches!(
        params.fit_weighted(x.view(), y.view(), negative.view()),
        Err(Error::InvalidValue { row: 6, .. })
    ));
}

#[test]
fn bad_values_for_the_generative_model() {
    let (x, y) = data();
    // A Bernoulli model takes 0/1 only.
    assert!(matches!(
        Hybrid::params(BernoulliNb::params()).fit(x.view(), y.view()),
        Err(Error::InvalidValue {
            row: 0,
            column: 0,
            ..
        })
    ));
    // Without smoothing, a value never seen with class 0 has probability zero there: its log-
    // likelihood ratio is infinite, which a regression cannot take.
    let xb = array![
        [1.0, 0.0],
        [1.0, 1.0],
        [1.0, 0.0],
        [0.0, 1.0],
        [1.0, 1.0],
        [0.0, 0.0]
    ];
    let yb = array![0, 0, 0, 1, 1, 1];
    let err = Hybrid::params(BernoulliNb::params().alpha(0.0))
        .regions(vec![vec![0], vec![1]])
        .fit(xb.view(), yb.view())
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::NonFinite {
                row: 3,
                column: 0,
                ..
            }
        ),
        "{err}"
    );
    // With leave-one-out, row 1 holds the only 1 of class 0 in column 1: without row 1 that
    // value has probability zero under class 0, and row 1's feature is infinite.
    let err = Hybrid::params(BernoulliNb::params().alpha(0.0))
        .regions(vec![vec![1]])
        .leave_one_out(true)
        .fit(xb.view(), yb.view())
        .unwrap_err();
    assert!(matches!(err, Error::NonFinite { row: 1, .. }), "{err}");
    assert!(err.to_string().contains("without the row"), "{err}");
}

#[test]
fn leave_one_out_errors_name_the_row() {
    let (x, _) = data();
    // Row 7 is the only row of class 1.
    let y = array![0, 0, 0, 0, 0, 0, 0, 1];
    let err = Hybrid::params(GaussianNb::params())
        .leave_one_out(true)
        .fit(x.view(), y.view())
        .unwrap_err();
    assert!(matches!(err, Error::EmptyClass { class: 1, .. }), "{err}");
    assert!(err.to_string().contains("without row 7"), "{err}");
    let y = array![0, 0, 0, 0, 0, 0, 1, 1];
    let err = Hybrid::params(GaussianNb::params().variance_estimator(VarianceEstimator::Unbiased))
        .leave_one_out(true)
        .fit(x.view(), y.view())
        .unwrap_err();
    assert!(matches!(err, Error::TooFewRows { .. }), "{err}");
    assert!(err.to_string().contains("without row 6"), "{err}");
}

#[test]
fn bad_settings() {
    let (x, y) = data();
    let p = || Hybrid::params(GaussianNb::params());
    invalid_parameter(
        p().prior_variance(-1.0).fit(x.view(), y.view()),
        "prior_variance",
        "> 0",
    );
    invalid_parameter(
        p().tolerance(0.0).fit(x.view(), y.view()),
        "tolerance",
        "> 0",
    );
    invalid_parameter(
        p().max_iterations(0).fit(x.view(), y.view()),
        "max_iterations",
        "≥ 1",
    );
    invalid_parameter(
        p().solver(ThetaSolver::Glm)
            .prior_variance(1.0)
            .fit(x.view(), y.view()),
        "solver",
        "unpenalised",
    );
    invalid_parameter(
        p().solver(ThetaSolver::Newton)
            .intercept(Intercept::LogPriorRatio)
            .fit(x.view(), y.view()),
        "solver",
        "offset",
    );
    // Logistic regression needs two classes.
    let y3 = array![0, 0, 0, 1, 1, 1, 2, 2];
    invalid_parameter(
        p().solver(ThetaSolver::Glm).fit(x.view(), y3.view()),
        "solver",
        "two classes only",
    );
    // The generative model's own parameters are checked too.
    invalid_parameter(
        Hybrid::params(GaussianNb::params().var_smoothing(0.0)).fit(x.view(), y.view()),
        "var_smoothing",
        "positive",
    );
}

#[test]
fn bad_prediction_input() {
    let (x, y) = data();
    let hybrid = Hybrid::params(GaussianNb::params())
        .regions(vec![vec![0, 1], vec![2]])
        .fit(x.view(), y.view())
        .unwrap();
    assert!(matches!(
        hybrid.predict(array![[1.0, 2.0]].view()),
        Err(Error::ShapeMismatch {
            expected: 3,
            found: 2,
            ..
        })
    ));
    assert!(matches!(
        hybrid.predict_proba(array![[1.0, f64::INFINITY, 0.0]].view()),
        Err(Error::NonFinite {
            row: 0,
            column: 1,
            ..
        })
    ));
    assert_eq!(
        hybrid.predict(Array2::zeros((0, 3)).view()).unwrap().len(),
        0
    );
    let y3 = array![0, 0, 0, 1, 1, 1, 2, 2];
    let multi = Hybrid::params(GaussianNb::params())
        .fit(x.view(), y3.view())
        .unwrap();
    assert!(matches!(
        multi.theta(),
        Err(Error::NotBinary { n_classes: 3, .. })
    ));
    assert!(matches!(
        multi.decision_function(x.view()),
        Err(Error::NotBinary { .. })
    ));
}

#[test]
fn zero_probability_at_prediction_is_handled_or_named() {
    // Without smoothing, a value unseen in training has probability zero under a class.
    let x = array![
        [1.0, 0.0],
        [1.0, 1.0],
        [0.0, 0.0],
        [0.0, 1.0],
        [1.0, 1.0],
        [0.0, 0.0]
    ];
    let y = array![0, 0, 1, 1, 0, 1];
    let nb = BernoulliNb::params()
        .alpha(0.0)
        .fit(x.view(), y.view())
        .unwrap();
    // x_0 = 1 only in class 0, x_0 = 0 only in class 1: each test row is impossible under one
    // class. A positive weight makes that class's probability zero.
    let hybrid = Hybrid::from_parts(
        nb.clone(),
        vec![vec![0], vec![1]],
        gendisc_hybrid::Normalization::Normalized,
        array![0.0, 0.0],
        array![1.0, 0.5],
    )
    .unwrap();
    let p = hybrid
        .predict_proba(array![[1.0, 1.0], [0.0, 1.0]].view())
        .unwrap();
    assert_eq!(p.row(0).to_vec(), vec![1.0, 0.0]);
    assert_eq!(p.row(1).to_vec(), vec![0.0, 1.0]);
    // With a negative weight, a zero likelihood becomes an infinite score: that class is
    // certain.
    let negative = Hybrid::from_parts(
        nb,
        vec![vec![0], vec![1]],
        gendisc_hybrid::Normalization::Normalized,
        array![0.0, 0.0],
        array![-1.0, 0.5],
    )
    .unwrap();
    let p = negative.predict_proba(array![[1.0, 1.0]].view()).unwrap();
    assert_eq!(p.row(0).to_vec(), vec![0.0, 1.0]);
}

#[test]
fn bad_parts() {
    let (x, y) = data();
    let nb = GaussianNb::params().fit(x.view(), y.view()).unwrap();
    let parts = |regions: Vec<Vec<usize>>, mu: Array1<f64>, theta: Array1<f64>| {
        Hybrid::from_parts(
            nb.clone(),
            regions,
            gendisc_hybrid::Normalization::Unnormalized,
            mu,
            theta,
        )
    };
    assert!(parts(vec![vec![0, 1, 2]], array![0.0, 0.0], array![1.0]).is_ok());
    assert!(matches!(
        parts(vec![vec![0, 1, 2]], array![0.0], array![1.0]),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        parts(vec![vec![0, 1, 2]], array![0.0, 0.0], array![1.0, 2.0]),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        parts(vec![vec![0, 5]], array![0.0, 0.0], array![1.0]),
        Err(Error::InvalidParameter { .. })
    ));
    assert!(matches!(
        parts(vec![vec![0]], array![0.0, f64::NAN], array![1.0]),
        Err(Error::NonFinite { row: 1, .. })
    ));
}

/// Regression: the normalized hybrid over Gaussian naive Bayes on data where one column is
/// about `10¹²` times larger than the others gave probability 1 to both classes — its scores
/// reached `10²⁰`, where `max + log Σ exp(…)` rounds back to `max`.
#[test]
fn a_column_a_trillion_times_larger_leaves_the_posterior_a_distribution() {
    let (mut x, y) = data();
    x.column_mut(1).mapv_inplace(|v| v * 1e12);
    let hybrid = Hybrid::params(GaussianNb::params())
        .fit(x.view(), y.view())
        .unwrap();
    let probe = array![
        [0.5, 1.5e12, 0.5],
        [0.5, 1.5e12 + 1.0, 0.5],
        [3.0, -4e12, 2.0]
    ];
    for rows in [x.view(), probe.view()] {
        let p = hybrid.predict_proba(rows).unwrap();
        for row in p.rows() {
            assert!((row.sum() - 1.0).abs() <= 1e-12, "{p}");
            assert!(row.iter().all(|v| (0.0..=1.0).contains(v)), "{p}");
        }
    }
}
