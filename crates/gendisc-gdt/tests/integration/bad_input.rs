//! Every bad input is a typed error naming what was wrong, never a panic.

use gendisc_core::{Classifier, ConditionalModel, Error, Fit, FitWeighted, ParamGuard};
use gendisc_gdt::{CvCriterion, Family, Gdt, GdtCv};
use ndarray::{array, Array1, Array2};

fn data() -> (Array2<f64>, Array1<usize>) {
    let x = array![
        [0.0, 0.3],
        [0.5, -0.2],
        [-0.4, 0.1],
        [0.9, 0.8],
        [1.8, 1.2],
        [2.2, 0.7],
        [1.1, 1.9],
        [0.2, 1.0]
    ];
    let y = array![0, 0, 0, 0, 1, 1, 1, 1];
    (x, y)
}

#[test]
fn invalid_parameters_are_named() {
    let (x, y) = data();
    for (params, name) in [
        (Gdt::params(Family::Lda).lambda(1.5), "lambda"),
        (Gdt::params(Family::Lda).lambda(f64::NAN), "lambda"),
        (
            Gdt::params(Family::Balls1).var_smoothing(0.0),
            "var_smoothing",
        ),
        (
            Gdt::params(Family::Balls2).em_max_iterations(0),
            "em_max_iterations",
        ),
        (Gdt::params(Family::Qda).n_classes(1), "n_classes"),
    ] {
        match params.fit(x.view(), y.view()) {
            Err(Error::InvalidParameter { name: n, .. }) => assert_eq!(n, name),
            other => panic!("{name}: expected InvalidParameter, got {other:?}"),
        }
    }
    for (params, name) in [
        (GdtCv::params(Family::Lda).n_folds(1), "n_folds"),
        (GdtCv::params(Family::Lda).grid(vec![]), "grid"),
        (GdtCv::params(Family::Lda).grid(vec![0.5, -0.1]), "grid"),
        (
            GdtCv::params(Family::Lda).criterion(CvCriterion::ClassCost(vec![1.0, -5.0])),
            "criterion",
        ),
    ] {
        match params.check() {
            Err(Error::InvalidParameter { name: n, .. }) => assert_eq!(n, name),
            other => panic!("{name}: expected InvalidParameter, got {other:?}"),
        }
    }
}

#[test]
fn bad_training_data_is_an_error() {
    let (x, y) = data();
    let p = Gdt::params(Family::Lda).check().unwrap();
    let mut xn = x.clone();
    xn[[3, 1]] = f64::NAN;
    assert!(matches!(
        p.fit(xn.view(), y.view()),
        Err(Error::NonFinite {
            row: 3,
            column: 1,
            ..
        })
    ));
    assert!(matches!(
        p.fit(x.view(), y.slice(ndarray::s![..7])),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        p.fit(Array2::zeros((0, 2)).view(), Array1::zeros(0).view()),
        Err(Error::Empty { .. })
    ));
    let p3 = Gdt::params(Family::Lda).n_classes(2).check().unwrap();
    let mut y3 = y.clone();
    y3[0] = 2;
    assert!(matches!(
        p3.fit(x.view(), y3.view()),
        Err(Error::LabelOutOfRange {
            row: 0,
            label: 2,
            ..
        })
    ));
    // Class 1 absent although three classes are declared.
    let p_k3 = Gdt::params(Family::Balls1).n_classes(3).check().unwrap();
    assert!(matches!(
        p_k3.fit(x.view(), y.view()),
        Err(Error::EmptyClass { class: 2, .. })
    ));
    let w = Array1::from_elem(8, -1.0);
    assert!(matches!(
        p.fit_weighted(x.view(), y.view(), w.view()),
        Err(Error::InvalidValue { .. })
    ));
    // A singular covariance (a constant column) cannot start LDA.
    let mut xc = x.clone();
    xc.column_mut(1).fill(1.0);
    assert!(p.fit(xc.view(), y.view()).is_err());
}

#[test]
fn bad_prediction_input_is_an_error() {
    let (x, y) = data();
    let m = Gdt::params(Family::Qda)
        .lambda(0.5)
        .fit(x.view(), y.view())
        .unwrap();
    assert!(matches!(
        m.predict(array![[1.0, 2.0, 3.0]].view()),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        m.predict_proba(array![[f64::INFINITY, 0.0]].view()),
        Err(Error::NonFinite { .. })
    ));
    assert_eq!(m.predict(Array2::zeros((0, 2)).view()).unwrap().len(), 0);
}

#[test]
fn warm_start_must_match_the_data() {
    let (x, y) = data();
    let p = Gdt::params(Family::Lda).lambda(0.5).check().unwrap();
    let balls = Gdt::params(Family::Balls1).fit(x.view(), y.view()).unwrap();
    assert!(matches!(
        p.fit_from(&balls, x.view(), y.view(), None),
        Err(Error::InvalidParameter { name: "start", .. })
    ));
    assert!(p.fit_path(&[], x.view(), y.view(), None).is_err());
    assert!(p.fit_path(&[1.0, 2.0], x.view(), y.view(), None).is_err());
}

#[test]
fn cross_validation_needs_consistent_costs_and_enough_rows() {
    let (x, y) = data();
    let cv = GdtCv::params(Family::Balls1)
        .n_folds(2)
        .criterion(CvCriterion::ClassCost(vec![1.0, 5.0, 1.0]))
        .check()
        .unwrap();
    assert!(matches!(
        cv.select(x.view(), y.view(), None),
        Err(Error::ShapeMismatch { .. })
    ));
    let too_many = GdtCv::params(Family::Balls1).n_folds(20).check().unwrap();
    assert!(too_many.select(x.view(), y.view(), None).is_err());
}

/// Regression: GDT with the Balls2 family on degenerate data — constant columns, or the same rows
/// in both classes — returned posterior rows summing to 0.9998 and 1.0017.
#[test]
fn degenerate_data_still_gives_distributions() {
    let constant_columns = Array2::from_shape_fn((12, 3), |(i, j)| match j {
        0 => 4.0,
        1 => -2.5,
        _ => (i % 5) as f64,
    });
    let rows = array![
        [1.0, 2.0],
        [3.0, -1.0],
        [0.5, 0.5],
        [2.0, 2.0],
        [1.5, 0.0],
        [0.0, 1.0]
    ];
    let identical_in_both = ndarray::concatenate![ndarray::Axis(0), rows.view(), rows.view()];
    let y = Array1::from_shape_fn(12, |i| usize::from(i >= 6));
    let y_alternating = Array1::from_shape_fn(12, |i| i % 2);
    let mut fitted_models = 0;
    for (x, y) in [
        (&constant_columns, &y_alternating),
        (&identical_in_both, &y),
    ] {
        for lambda in [0.0, 0.5, 1.0] {
            let fitted = Gdt::params(Family::Balls2)
                .lambda(lambda)
                .fit(x.view(), y.view());
            // A fit may refuse degenerate data with a typed error; one that succeeds must give
            // distributions.
            let Ok(model) = fitted else { continue };
            fitted_models += 1;
            let p = model.predict_proba(x.view()).unwrap();
            for row in p.rows() {
                assert!((row.sum() - 1.0).abs() <= 1e-12, "λ = {lambda}: {p}");
            }
        }
    }
    assert!(
        fitted_models >= 4,
        "only {fitted_models} of the six fits succeeded"
    );
}
