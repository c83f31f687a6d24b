//! Every kind of bad input to logistic regression is a typed error naming what and where.

use gendisc_core::{ConditionalModel, Error, Fit, FitWeighted, ParamGuard};
use gendisc_discriminative::logistic::{LogisticRegression, LogisticSolver};
use ndarray::{array, Array1, Array2};
use sprs::{CsMat, TriMat};

fn data() -> (Array2<f64>, Array1<usize>) {
    (
        array![
            [0.0, 1.0],
            [1.0, 0.5],
            [2.0, -1.0],
            [3.0, 0.0],
            [1.5, 2.0],
            [0.5, -0.5]
        ],
        array![0, 0, 1, 1, 1, 0],
    )
}

fn fit_err(
    params: gendisc_discriminative::logistic::LogisticRegressionParams,
    x: &Array2<f64>,
    y: &Array1<usize>,
) -> Error {
    params.fit(x.view(), y.view()).unwrap_err()
}

#[test]
fn shapes() {
    let (x, y) = data();
    let short = array![0, 1, 1];
    assert!(matches!(
        fit_err(LogisticRegression::params(), &x, &short),
        Error::ShapeMismatch {
            expected: 6,
            found: 3,
            ..
        }
    ));
    let err = LogisticRegression::params()
        .fit_weighted(x.view(), y.view(), array![1.0, 1.0].view())
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::ShapeMismatch {
                expected: 6,
                found: 2,
                ..
            }
        ),
        "{err}"
    );
    assert!(matches!(
        fit_err(
            LogisticRegression::params(),
            &Array2::zeros((0, 2)),
            &Array1::zeros(0)
        ),
        Error::Empty { .. }
    ));
    assert!(matches!(
        fit_err(LogisticRegression::params(), &Array2::zeros((6, 0)), &y),
        Error::Empty { .. }
    ));

    let model = LogisticRegression::params()
        .fit(x.view(), y.view())
        .unwrap();
    for result in [
        model
            .predict_proba(array![[1.0, 2.0, 3.0]].view())
            .map(|_| ()),
        gendisc_core::Classifier::predict(&model, array![[1.0]].view()).map(|_| ()),
        model.decision_function(array![[1.0]].view()).map(|_| ()),
    ] {
        assert!(matches!(
            result,
            Err(Error::ShapeMismatch { expected: 2, .. })
        ));
    }
    let wide = CsMat::<f64>::zero((2, 3));
    assert!(matches!(
        model.predict_sparse(wide.view()),
        Err(Error::ShapeMismatch {
            expected: 2,
            found: 3,
            ..
        })
    ));
    // Zero rows are a valid, empty question.
    assert_eq!(
        model
            .predict_proba(Array2::zeros((0, 2)).view())
            .unwrap()
            .dim(),
        (0, 2)
    );
}

#[test]
fn non_finite_values_name_row_and_column() {
    let (mut x, y) = data();
    x[[4, 1]] = f64::NAN;
    match fit_err(LogisticRegression::params(), &x, &y) {
        Error::NonFinite { row, column, .. } => assert_eq!((row, column), (4, 1)),
        e => panic!("unexpected {e}"),
    }
    let (x, y) = data();
    let err = LogisticRegression::params()
        .fit_weighted(
            x.view(),
            y.view(),
            array![1.0, 1.0, f64::INFINITY, 1.0, 1.0, 1.0].view(),
        )
        .unwrap_err();
    assert!(matches!(err, Error::NonFinite { row: 2, .. }), "{err}");

    let mut triplets = TriMat::new((3, 2));
    triplets.add_triplet(0, 0, 1.0);
    triplets.add_triplet(2, 1, f64::NEG_INFINITY);
    let sparse: CsMat<f64> = triplets.to_csr();
    let err = LogisticRegression::params()
        .fit_sparse(sparse.view(), array![0, 1, 0].view())
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::NonFinite {
                row: 2,
                column: 1,
                ..
            }
        ),
        "{err}"
    );

    let model = LogisticRegression::params()
        .fit(x.view(), y.view())
        .unwrap();
    assert!(matches!(
        model.predict_proba(array![[1.0, f64::NAN]].view()),
        Err(Error::NonFinite {
            row: 0,
            column: 1,
            ..
        })
    ));
    assert!(matches!(
        model.predict_sparse(sparse.view()),
        Err(Error::NonFinite {
            row: 2,
            column: 1,
            ..
        })
    ));
}

#[test]
fn labels_out_of_range() {
    let (x, _) = data();
    let y = array![0, 1, 2, 1, 0, 1];
    let err = fit_err(LogisticRegression::params().n_classes(2), &x, &y);
    assert!(
        matches!(
            err,
            Error::LabelOutOfRange {
                row: 2,
                label: 2,
                n_classes: 2
            }
        ),
        "{err}"
    );
    let model = LogisticRegression::params()
        .fit(x.view(), data().1.view())
        .unwrap();
    assert!(matches!(
        model.conditional_log_likelihood(x.view(), y.view(), None),
        Err(Error::LabelOutOfRange { row: 2, .. })
    ));
}

#[test]
fn one_class_only_or_an_empty_class() {
    let (x, _) = data();
    // A y of one class says so, whichever class it is, rather than naming the class it lacks.
    for class in [0, 1, 4] {
        let one_class = Array1::from_elem(6, class);
        for params in [
            LogisticRegression::params(),
            LogisticRegression::params().n_classes(5),
        ] {
            let err = fit_err(params, &x, &one_class);
            assert!(
                matches!(
                    err,
                    Error::TooFewClasses {
                        needed: 2,
                        found: 1,
                        ..
                    }
                ),
                "{err:?}"
            );
            let message = err.to_string();
            assert!(
                message.contains("logistic regression")
                    && message.contains(&format!("every row is in class {class}")),
                "{message}"
            );
        }
    }
    // K = 3 declared, class 2 never seen.
    let (_, y) = data();
    assert!(matches!(
        fit_err(LogisticRegression::params().n_classes(3), &x, &y),
        Error::EmptyClass { class: 2, .. }
    ));
    // Labels {0, 2}: class 1 is empty.
    let gap = array![0, 2, 2, 0, 2, 0];
    assert!(matches!(
        fit_err(LogisticRegression::params(), &x, &gap),
        Error::EmptyClass { class: 1, .. }
    ));
}

#[test]
fn weights() {
    let (x, y) = data();
    let fit_w = |w: Array1<f64>| {
        LogisticRegression::params()
            .fit_weighted(x.view(), y.view(), w.view())
            .unwrap_err()
    };
    assert!(matches!(
        fit_w(Array1::zeros(6)),
        Error::InvalidValue { .. }
    ));
    assert!(matches!(
        fit_w(array![1.0, 1.0, -0.5, 1.0, 1.0, 1.0]),
        Error::InvalidValue { row: 2, .. }
    ));
    // Class 1 (rows 2, 3, 4) has zero total weight.
    assert!(matches!(
        fit_w(array![1.0, 1.0, 0.0, 0.0, 0.0, 1.0]),
        Error::EmptyClass { class: 1, .. }
    ));
}

#[test]
fn invalid_hyper_parameters() {
    let (x, y) = data();
    let params = LogisticRegression::params;
    let cases = [
        ("prior_variance", params().prior_variance(0.0)),
        ("prior_variance", params().prior_variance(-1.0)),
        ("prior_variance", params().prior_variance(f64::NAN)),
        ("prior_variance", params().prior_variance(f64::INFINITY)),
        ("penalize_intercept", params().penalize_intercept(true)),
        ("tolerance", params().tolerance(0.0)),
        ("tolerance", params().tolerance(f64::NAN)),
        ("max_iterations", params().max_iterations(0)),
        ("n_classes", params().n_classes(1)),
        (
            "solver",
            params().solver(LogisticSolver::GlmIrls).prior_variance(1.0),
        ),
        (
            "solver",
            params().solver(LogisticSolver::GlmIrls).n_classes(3),
        ),
    ];
    for (name, p) in cases {
        assert!(
            matches!(p.check_ref(), Err(Error::InvalidParameter { name: n, .. }) if n == name),
            "{name}"
        );
        assert!(matches!(
            p.fit(x.view(), y.view()),
            Err(Error::InvalidParameter { .. })
        ));
    }
    // glm's binomial family on three classes.
    let three = array![0, 1, 2, 0, 1, 2];
    assert!(matches!(
        fit_err(params().solver(LogisticSolver::GlmIrls), &x, &three),
        Error::InvalidParameter { name: "solver", .. }
    ));
}

#[test]
fn collinear_columns_in_glm_mode() {
    // Overlapping classes, and a third column equal to the first.
    let x = array![
        [0.0, 1.0],
        [1.0, 0.0],
        [2.0, 1.0],
        [3.0, 0.0],
        [4.0, 1.0],
        [5.0, 0.0]
    ];
    let y = array![0, 1, 0, 0, 1, 1];
    let doubled = ndarray::concatenate![
        ndarray::Axis(1),
        x,
        x.column(0).insert_axis(ndarray::Axis(1))
    ];
    let err = fit_err(
        LogisticRegression::params().solver(LogisticSolver::GlmIrls),
        &doubled,
        &y,
    );
    assert!(matches!(err, Error::NotPositiveDefinite { .. }), "{err}");
    // The default solver regularises the singular Newton system and still fits.
    let model = LogisticRegression::params()
        .fit(doubled.view(), y.view())
        .unwrap();
    assert!(model.coefficients().iter().all(|c| c.is_finite()));
    assert!(!model.report().separated);
    // Same fitted probabilities as without the copy.
    let single = LogisticRegression::params()
        .fit(x.view(), y.view())
        .unwrap();
    let (p2, p1) = (
        model.predict_proba(doubled.view()).unwrap(),
        single.predict_proba(x.view()).unwrap(),
    );
    assert!(p2.iter().zip(p1.iter()).all(|(a, b)| (a - b).abs() < 1e-6));
}

#[test]
fn binary_only_methods() {
    let x = array![[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]];
    let y = array![0, 1, 2, 0, 2, 1];
    let model = LogisticRegression::params()
        .fit(x.view(), y.view())
        .unwrap();
    assert!(matches!(
        model.decision_function(x.view()),
        Err(Error::NotBinary { n_classes: 3, .. })
    ));
}
