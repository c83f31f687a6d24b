//! Every bad input to `LinearSvm` is a typed error naming what and where — never a panic.

use gendisc_core::{Classifier, Error, Fit, FitWeighted, ParamGuard};
use gendisc_discriminative::svm::{LinearSvm, Margin};
use ndarray::{array, Array1, Array2};
use sprs::CsMat;

fn good_x() -> Array2<f64> {
    array![[0.0, 1.0], [1.0, 0.0], [3.0, 3.0], [4.0, 2.0]]
}

fn good_y() -> Array1<usize> {
    array![0, 0, 1, 1]
}

#[test]
fn invalid_hyper_parameters_are_named() {
    let cases = [
        (LinearSvm::params().c(0.0), "c"),
        (LinearSvm::params().c(-1.0), "c"),
        (LinearSvm::params().c(f64::NAN), "c"),
        (LinearSvm::params().c(f64::INFINITY), "c"),
        (
            LinearSvm::params().margin(Margin::Hard { min_margin: 0.0 }),
            "min_margin",
        ),
        (
            LinearSvm::params().margin(Margin::Hard { min_margin: 1.0 }),
            "min_margin",
        ),
        (LinearSvm::params().bias_scaling(0.0), "bias_scaling"),
        (LinearSvm::params().bias_scaling(f64::NAN), "bias_scaling"),
        (LinearSvm::params().tol(0.0), "tol"),
        (LinearSvm::params().tol(f64::INFINITY), "tol"),
        (LinearSvm::params().max_iter(0), "max_iter"),
    ];
    for (params, expected) in cases {
        match params.fit(good_x().view(), good_y().view()) {
            Err(Error::InvalidParameter { name, .. }) => assert_eq!(name, expected),
            other => panic!("{expected}: expected InvalidParameter, got {other:?}"),
        }
        assert!(params.check_ref().is_err());
    }
    // bias_scaling is irrelevant without an intercept.
    assert!(LinearSvm::params()
        .fit_intercept(false)
        .bias_scaling(0.0)
        .fit(good_x().view(), good_y().view())
        .is_ok());
}

#[test]
fn shape_mismatches_are_reported() {
    let err = LinearSvm::params()
        .fit(good_x().view(), array![0, 1, 1].view())
        .unwrap_err();
    assert!(matches!(
        err,
        Error::ShapeMismatch {
            expected: 4,
            found: 3,
            ..
        }
    ));
    let err = LinearSvm::params()
        .fit_weighted(good_x().view(), good_y().view(), array![1.0, 1.0].view())
        .unwrap_err();
    assert!(matches!(
        err,
        Error::ShapeMismatch {
            expected: 4,
            found: 2,
            ..
        }
    ));
    let model = LinearSvm::params()
        .fit(good_x().view(), good_y().view())
        .unwrap();
    for x in [Array2::zeros((2, 3)), Array2::zeros((2, 1))] {
        assert!(matches!(
            model.predict(x.view()),
            Err(Error::ShapeMismatch { expected: 2, .. })
        ));
    }
    let sparse = CsMat::csr_from_dense(Array2::<f64>::ones((2, 3)).view(), 0.0);
    assert!(matches!(
        model.predict_sparse(sparse.view()),
        Err(Error::ShapeMismatch {
            expected: 2,
            found: 3,
            ..
        })
    ));
}

#[test]
fn empty_inputs_are_reported() {
    let params = LinearSvm::params();
    assert!(matches!(
        params.fit(Array2::zeros((0, 2)).view(), Array1::zeros(0).view()),
        Err(Error::Empty { .. })
    ));
    assert!(matches!(
        params.fit(Array2::zeros((3, 0)).view(), array![0, 1, 1].view()),
        Err(Error::Empty { .. })
    ));
    let empty = CsMat::<f64>::zero((0, 4));
    assert!(matches!(
        params.fit_sparse(empty.view(), Array1::zeros(0).view()),
        Err(Error::Empty { .. })
    ));
}

#[test]
fn non_finite_values_name_row_and_column() {
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let mut x = good_x();
        x[[2, 1]] = bad;
        match LinearSvm::params().fit(x.view(), good_y().view()) {
            Err(Error::NonFinite { row, column, .. }) => assert_eq!((row, column), (2, 1)),
            other => panic!("expected NonFinite, got {other:?}"),
        }
        let mut csr = CsMat::csr_from_dense(good_x().view(), 0.0);
        // Rows 0 and 1 store one entry each, so stored entry 3 is row 2, column 1.
        csr.data_mut()[3] = bad;
        match LinearSvm::params().fit_sparse(csr.view(), good_y().view()) {
            Err(Error::NonFinite { row, column, .. }) => assert_eq!((row, column), (2, 1)),
            other => panic!("expected NonFinite, got {other:?}"),
        }
        let model = LinearSvm::params()
            .fit(good_x().view(), good_y().view())
            .unwrap();
        assert!(matches!(
            model.decision_function(x.view()),
            Err(Error::NonFinite {
                row: 2,
                column: 1,
                ..
            })
        ));
        assert!(matches!(
            model.decision_function_sparse(csr.view()),
            Err(Error::NonFinite {
                row: 2,
                column: 1,
                ..
            })
        ));
    }
}

#[test]
fn bad_weights_are_reported() {
    let params = LinearSvm::params();
    let (x, y) = (good_x(), good_y());
    let cases = [
        array![1.0, -1.0, 1.0, 1.0],
        array![1.0, f64::NAN, 1.0, 1.0],
        array![0.0, 0.0, 0.0, 0.0],
    ];
    for w in cases {
        let err = params
            .fit_weighted(x.view(), y.view(), w.view())
            .unwrap_err();
        assert!(
            matches!(err, Error::InvalidValue { .. } | Error::NonFinite { .. }),
            "{w}: {err}"
        );
    }
    // A finite C times a finite weight can still overflow.
    assert!(matches!(
        params.clone().c(1e300).fit_weighted(
            x.view(),
            y.view(),
            array![1.0, 1e10, 1.0, 1.0].view()
        ),
        Err(Error::InvalidValue { row: 1, .. })
    ));
    // Weights that empty a class.
    assert!(matches!(
        params.fit_weighted(x.view(), y.view(), array![1.0, 1.0, 0.0, 0.0].view()),
        Err(Error::EmptyClass { class: 1, .. })
    ));
    // A hard margin has no cost to weight.
    assert!(matches!(
        params
            .clone()
            .hard_margin()
            .fit_weighted(x.view(), y.view(), Array1::ones(4).view()),
        Err(Error::InvalidParameter { name: "margin", .. })
    ));
}

#[test]
fn label_problems_are_reported() {
    let params = LinearSvm::params();
    let x = good_x();
    // One class only.
    // One class only, whichever: said plainly rather than as the class it lacks.
    for class in [0, 1, 7] {
        match params.fit(x.view(), array![class, class, class, class].view()) {
            Err(e @ Error::TooFewClasses { found: 1, .. }) => {
                assert!(
                    e.to_string()
                        .contains(&format!("every row is in class {class}")),
                    "{e}"
                )
            }
            other => panic!("expected TooFewClasses, got {other:?}"),
        }
    }
    // A gap in the classes.
    assert!(matches!(
        params.fit(x.view(), array![0, 2, 0, 2].view()),
        Err(Error::EmptyClass { class: 1, .. })
    ));
    // An absurd label is an error, not an allocation of usize::MAX totals.
    assert!(matches!(
        params.fit(x.view(), array![0, 1, usize::MAX, 1].view()),
        Err(Error::EmptyClass { class: 2, .. })
    ));
}

#[test]
fn decision_function_needs_two_classes() {
    let x = array![
        [0.0, 0.0],
        [5.0, 0.0],
        [0.0, 5.0],
        [0.1, 0.1],
        [5.1, 0.0],
        [0.0, 5.1]
    ];
    let model = LinearSvm::params()
        .fit(x.view(), array![0, 1, 2, 0, 1, 2].view())
        .unwrap();
    assert_eq!(model.n_classes(), 3);
    assert!(matches!(
        model.decision_function(x.view()),
        Err(Error::NotBinary { n_classes: 3, .. })
    ));
    let csr = CsMat::csr_from_dense(x.view(), 0.0);
    assert!(matches!(
        model.decision_function_sparse(csr.view()),
        Err(Error::NotBinary { n_classes: 3, .. })
    ));
}

#[test]
fn hard_margin_on_overlapping_classes_is_infeasible() {
    // Class 1 lies between two rows of class 0 on a line.
    let x = array![[0.0], [1.0], [2.0], [0.5], [1.5]];
    let y = array![0, 1, 0, 0, 1];
    match LinearSvm::params().hard_margin().fit(x.view(), y.view()) {
        Err(Error::Infeasible { what, detail }) => {
            assert!(what.contains("hard-margin"), "{what}");
            assert!(detail.contains("not linearly separable"), "{detail}");
        }
        other => panic!("expected Infeasible, got {other:?}"),
    }
    // The same classes are fine with a soft margin.
    assert!(LinearSvm::params().c(1.0).fit(x.view(), y.view()).is_ok());
}

#[test]
fn corrupted_serialised_models_are_rejected() {
    let model = LinearSvm::params()
        .fit(good_x().view(), good_y().view())
        .unwrap();
    let mut json: serde_json::Value = serde_json::to_value(&model).unwrap();
    json["n_classes"] = serde_json::json!(3);
    let err = serde_json::from_value::<LinearSvm>(json).unwrap_err();
    // Three classes are three one-vs-rest problems: one row of coef is too few.
    assert!(
        err.to_string().contains("invalid linear-svm model: `coef`"),
        "{err}"
    );
}
