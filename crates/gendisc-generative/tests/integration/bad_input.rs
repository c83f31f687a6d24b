//! Every bad input to every model is a typed error that says what and where — never a panic,
//! never a silent NaN.

use crate::common::cases;
use gendisc_core::{Error, FactorisedGenerative, Fit};
use gendisc_generative::{
    Balls2, BernoulliNb, CategoricalNb, GaussianNb, Lda, MultinomialNb, Qda, VarianceEstimator,
    VarianceStructure,
};
use ndarray::{array, Array1, Array2};
use sprs::TriMat;

/// A small valid training set: two classes, two features, eight rows.
fn training() -> (Array2<f64>, Array1<usize>) {
    (
        array![
            [0.5, 1.2],
            [1.4, 0.3],
            [0.2, 2.1],
            [1.9, 1.1],
            [3.1, 2.4],
            [2.2, 3.3],
            [2.8, 1.6],
            [3.6, 2.9]
        ],
        array![0, 0, 0, 0, 1, 1, 1, 1],
    )
}

#[test]
fn label_count_must_match_rows() {
    let (x, y) = training();
    for case in cases() {
        let x = (case.domain)(&x);
        let short = y.slice_axis(ndarray::Axis(0), ndarray::Slice::from(..7));
        let err = (case.fit)(x.view(), short, None).err().unwrap();
        assert!(
            matches!(
                err,
                Error::ShapeMismatch {
                    expected: 8,
                    found: 7,
                    ..
                }
            ),
            "{}: {err}",
            case.name
        );
    }
}

#[test]
fn nan_and_infinity_are_located() {
    let (x, y) = training();
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        for case in cases() {
            let mut x = (case.domain)(&x);
            x[[5, 1]] = bad;
            let err = (case.fit)(x.view(), y.view(), None).err().unwrap();
            assert!(
                matches!(
                    err,
                    Error::NonFinite {
                        row: 5,
                        column: 1,
                        ..
                    }
                ),
                "{}: {err}",
                case.name
            );
        }
    }
}

#[test]
fn nan_at_predict_time_is_located() {
    let (x, y) = training();
    for case in cases() {
        let x = (case.domain)(&x);
        let model = (case.fit)(x.view(), y.view(), None).unwrap();
        let mut t = x.clone();
        t[[2, 0]] = f64::NAN;
        for err in [
            model.predict(t.view()).err().unwrap(),
            model.predict_proba(t.view()).err().unwrap(),
            model.class_log_likelihood(t.view()).err().unwrap(),
        ] {
            assert!(
                matches!(
                    err,
                    Error::NonFinite {
                        row: 2,
                        column: 0,
                        ..
                    }
                ),
                "{}: {err}",
                case.name
            );
        }
    }
}

#[test]
fn empty_training_set_is_refused() {
    for case in cases() {
        let err = (case.fit)(Array2::zeros((0, 2)).view(), Array1::zeros(0).view(), None)
            .err()
            .unwrap();
        assert!(matches!(err, Error::Empty { .. }), "{}: {err}", case.name);
    }
}

#[test]
fn a_class_without_rows_is_named() {
    let (x, y) = training();
    // Labels 0 and 2: class 1 has no rows.
    let gap = y.mapv(|k| 2 * k);
    for case in cases() {
        let x = (case.domain)(&x);
        let err = (case.fit)(x.view(), gap.view(), None).err().unwrap();
        assert!(
            matches!(err, Error::EmptyClass { class: 1, .. }),
            "{}: {err}",
            case.name
        );
        // Rows present but all of weight zero: the same.
        let w = y.mapv(|k| if k == 1 { 0.0 } else { 1.0 });
        let err = (case.fit)(x.view(), y.view(), Some(w.view()))
            .err()
            .unwrap();
        assert!(
            matches!(err, Error::EmptyClass { class: 1, .. }),
            "{}: {err}",
            case.name
        );
    }
}

#[test]
fn labels_beyond_the_declared_classes_are_refused() {
    let (x, y) = training();
    let mut y = y;
    y[3] = 2;
    let gnb = GaussianNb::params().n_classes(2).fit(x.view(), y.view());
    assert!(matches!(
        gnb,
        Err(Error::LabelOutOfRange {
            row: 3,
            label: 2,
            n_classes: 2
        })
    ));
    let lda = Lda::params().n_classes(2).fit(x.view(), y.view());
    assert!(matches!(lda, Err(Error::LabelOutOfRange { row: 3, .. })));
    let qda = Qda::params().n_classes(2).fit(x.view(), y.view());
    assert!(matches!(qda, Err(Error::LabelOutOfRange { row: 3, .. })));
    let mnb = MultinomialNb::params().n_classes(2).fit(x.view(), y.view());
    assert!(matches!(mnb, Err(Error::LabelOutOfRange { row: 3, .. })));
    let b1 = gendisc_generative::Balls1::params()
        .n_classes(2)
        .fit(x.view(), y.view());
    assert!(matches!(b1, Err(Error::LabelOutOfRange { row: 3, .. })));
    let b2 = Balls2::params().n_classes(2).fit(x.view(), y.view());
    assert!(matches!(b2, Err(Error::LabelOutOfRange { row: 3, .. })));
    let cnb = CategoricalNb::params()
        .n_classes(2)
        .fit(x.mapv(f64::floor).view(), y.view());
    assert!(matches!(cnb, Err(Error::LabelOutOfRange { row: 3, .. })));
    let bnb = BernoulliNb::params()
        .n_classes(2)
        .fit(x.mapv(|v| (v > 1.0) as u8 as f64).view(), y.view());
    assert!(matches!(bnb, Err(Error::LabelOutOfRange { row: 3, .. })));
}

#[test]
fn wrong_feature_count_at_predict_time() {
    let (x, y) = training();
    for case in cases() {
        let x = (case.domain)(&x);
        let model = (case.fit)(x.view(), y.view(), None).unwrap();
        let wide = Array2::zeros((2, 3));
        for err in [
            model.predict(wide.view()).err().unwrap(),
            model.predict_log_proba(wide.view()).err().unwrap(),
            model.log_joint(wide.view()).err().unwrap(),
        ] {
            assert!(
                matches!(
                    err,
                    Error::ShapeMismatch {
                        expected: 2,
                        found: 3,
                        ..
                    }
                ),
                "{}: {err}",
                case.name
            );
        }
    }
}

#[test]
fn bad_sample_weights() {
    let (x, y) = training();
    for case in cases() {
        let x = (case.domain)(&x);
        let mut negative = Array1::ones(8);
        negative[6] = -0.5;
        let err = (case.fit)(x.view(), y.view(), Some(negative.view()))
            .err()
            .unwrap();
        assert!(
            matches!(err, Error::InvalidValue { row: 6, .. }),
            "{}: {err}",
            case.name
        );
        let zeros = Array1::zeros(8);
        let err = (case.fit)(x.view(), y.view(), Some(zeros.view()))
            .err()
            .unwrap();
        assert!(
            matches!(err, Error::InvalidValue { .. }),
            "{}: {err}",
            case.name
        );
        let mut nan = Array1::ones(8);
        nan[1] = f64::NAN;
        let err = (case.fit)(x.view(), y.view(), Some(nan.view()))
            .err()
            .unwrap();
        assert!(
            matches!(err, Error::NonFinite { row: 1, .. }),
            "{}: {err}",
            case.name
        );
        let short = Array1::ones(5);
        let err = (case.fit)(x.view(), y.view(), Some(short.view()))
            .err()
            .unwrap();
        assert!(
            matches!(
                err,
                Error::ShapeMismatch {
                    expected: 8,
                    found: 5,
                    ..
                }
            ),
            "{}: {err}",
            case.name
        );
    }
}

#[test]
fn fewer_rows_than_the_model_needs() {
    let x = array![[0.0, 1.0], [1.0, 0.5], [2.0, 2.0], [3.0, 2.5]];
    let y = array![0, 0, 0, 1];
    // Unbiased variances with a single row in class 1.
    let err = GaussianNb::params()
        .variance_estimator(VarianceEstimator::Unbiased)
        .fit(x.view(), y.view())
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::TooFewRows {
                needed: 2,
                found: 1,
                ..
            }
        ),
        "{err}"
    );
    // Pooled unbiased variances need more than K rows in total.
    let err = GaussianNb::params()
        .variance(VarianceStructure::Pooled)
        .variance_estimator(VarianceEstimator::Unbiased)
        .fit(array![[0.0], [1.0]].view(), array![0, 1].view())
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::TooFewRows {
                needed: 3,
                found: 2,
                ..
            }
        ),
        "{err}"
    );
    // LDA without shrinkage: d + K = 4 rows at least; QDA: d + 1 per class.
    let err = Lda::params()
        .fit(
            x.slice_axis(ndarray::Axis(0), ndarray::Slice::from(1..)),
            y.slice_axis(ndarray::Axis(0), ndarray::Slice::from(1..)),
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::TooFewRows {
                needed: 4,
                found: 3,
                ..
            }
        ),
        "{err}"
    );
    let err = Qda::params().fit(x.view(), y.view()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::TooFewRows {
                needed: 3,
                found: 1,
                ..
            }
        ),
        "{err}"
    );
    // Balls2: a two-component mixture needs two rows.
    let err = Balls2::params().fit(x.view(), y.view()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::TooFewRows {
                needed: 2,
                found: 1,
                ..
            }
        ),
        "{err}"
    );
    // Frequency weights: a class of total weight 0.5 has no unbiased variance.
    let w = array![1.0, 1.0, 1.0, 0.5];
    let err = GaussianNb::params()
        .variance_estimator(VarianceEstimator::Unbiased)
        .fit_weighted_ok(x.view(), y.view(), w.view());
    assert!(matches!(err, Some(Error::TooFewRows { .. })), "{err:?}");
}

/// `fit_weighted` returning the error, if any (a small helper to keep the test readable).
trait FitWeightedErr {
    fn fit_weighted_ok(
        &self,
        x: ndarray::ArrayView2<'_, f64>,
        y: ndarray::ArrayView1<'_, usize>,
        w: ndarray::ArrayView1<'_, f64>,
    ) -> Option<Error>;
}

impl<P: gendisc_core::FitWeighted> FitWeightedErr for P {
    fn fit_weighted_ok(
        &self,
        x: ndarray::ArrayView2<'_, f64>,
        y: ndarray::ArrayView1<'_, usize>,
        w: ndarray::ArrayView1<'_, f64>,
    ) -> Option<Error> {
        self.fit_weighted(x, y, w).err()
    }
}

#[test]
fn bernoulli_values_must_be_binary() {
    let x = array![[0.0, 1.0], [1.0, 1.0], [0.0, 0.0], [1.0, 0.0]];
    let y = array![0, 0, 1, 1];
    let mut bad = x.clone();
    bad[[2, 1]] = 0.5;
    let err = BernoulliNb::params().fit(bad.view(), y.view()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidValue {
                row: 2,
                column: 1,
                ..
            }
        ),
        "{err}"
    );
    let model = BernoulliNb::params().fit(x.view(), y.view()).unwrap();
    let err = gendisc_core::Classifier::predict(&model, array![[1.0, 2.0]].view()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidValue {
                row: 0,
                column: 1,
                ..
            }
        ),
        "{err}"
    );
    let err = model
        .region_log_likelihood(array![[-1.0, 0.0]].view(), &[1])
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidValue {
                row: 0,
                column: 0,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn categorical_levels_must_be_codes_in_range() {
    let x = array![[0.0, 2.0], [1.0, 1.0], [0.0, 0.0], [2.0, 1.0]];
    let y = array![0, 0, 1, 1];
    let mut bad = x.clone();
    bad[[3, 0]] = 1.5;
    let err = CategoricalNb::params()
        .fit(bad.view(), y.view())
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidValue {
                row: 3,
                column: 0,
                ..
            }
        ),
        "{err}"
    );
    let err = CategoricalNb::params()
        .n_levels(vec![2, 3])
        .fit(x.view(), y.view())
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidValue {
                row: 3,
                column: 0,
                ..
            }
        ),
        "{err}"
    );
    let err = CategoricalNb::params()
        .n_levels(vec![3])
        .fit(x.view(), y.view())
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::ShapeMismatch {
                expected: 2,
                found: 1,
                ..
            }
        ),
        "{err}"
    );
    let model = CategoricalNb::params().fit(x.view(), y.view()).unwrap();
    let err = gendisc_core::Classifier::predict(&model, array![[3.0, 0.0]].view()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidValue {
                row: 0,
                column: 0,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn multinomial_counts_must_be_non_negative() {
    let x = array![[1.0, 2.0], [0.0, 3.0], [4.0, 0.0], [2.0, 1.0]];
    let y = array![0, 0, 1, 1];
    let mut bad = x.clone();
    bad[[1, 0]] = -1.0;
    let err = MultinomialNb::params()
        .fit(bad.view(), y.view())
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidValue {
                row: 1,
                column: 0,
                ..
            }
        ),
        "{err}"
    );

    let mut t = TriMat::new((4, 2));
    for (i, j, v) in [(0, 0, 1.0), (1, 1, 3.0), (2, 0, -4.0), (3, 1, 1.0)] {
        t.add_triplet(i, j, v);
    }
    let err = MultinomialNb::params()
        .fit_sparse(t.to_csr().view(), y.view())
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidValue {
                row: 2,
                column: 0,
                ..
            }
        ),
        "{err}"
    );

    let model = MultinomialNb::params().fit(x.view(), y.view()).unwrap();
    let mut t = TriMat::new((1, 3));
    t.add_triplet(0, 2, 1.0);
    let err = model.predict_sparse(t.to_csr().view()).unwrap_err();
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
    let mut t = TriMat::new((1, 2));
    t.add_triplet(0, 1, f64::NAN);
    let err = model.predict_proba_sparse(t.to_csr().view()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::NonFinite {
                row: 0,
                column: 1,
                ..
            }
        ),
        "{err}"
    );
    let err = MultinomialNb::params()
        .fit_sparse(
            TriMat::<f64>::new((0, 2)).to_csr().view(),
            Array1::zeros(0).view(),
        )
        .unwrap_err();
    assert!(matches!(err, Error::Empty { .. }), "{err}");
    let err = MultinomialNb::params()
        .fit_sparse(TriMat::<f64>::new((3, 2)).to_csr().view(), y.view())
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::ShapeMismatch {
                expected: 3,
                found: 4,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn regions_must_name_existing_features_once() {
    let (x, y) = training();
    let model = GaussianNb::params().fit(x.view(), y.view()).unwrap();
    assert!(matches!(
        model.region_log_likelihood(x.view(), &[0, 2]),
        Err(Error::InvalidValue { row: 1, .. })
    ));
    assert!(matches!(
        model.region_log_likelihood(x.view(), &[1, 1]),
        Err(Error::InvalidValue { row: 1, .. })
    ));
    assert!(model
        .region_log_likelihood(Array2::zeros((1, 3)).view(), &[0])
        .is_err());
}

#[test]
fn invalid_hyper_parameters_are_named() {
    use gendisc_generative::{Balls1, ClassPriors, CovarianceShrinkage};
    let (x, y) = training();
    let name = |r: Result<(), Error>| match r {
        Err(Error::InvalidParameter { name, .. }) => name,
        other => panic!("expected InvalidParameter, got {other:?}"),
    };
    let bad_priors = ClassPriors::Given(vec![0.2, 0.2]);
    assert_eq!(
        name(
            GaussianNb::params()
                .priors(bad_priors.clone())
                .fit(x.view(), y.view())
                .map(drop)
        ),
        "priors"
    );
    assert_eq!(
        name(
            Lda::params()
                .shrinkage(CovarianceShrinkage::ScaledIdentity(2.0))
                .fit(x.view(), y.view())
                .map(drop)
        ),
        "shrinkage"
    );
    assert_eq!(
        name(
            Qda::params()
                .regularization(CovarianceShrinkage::Identity(-0.1))
                .fit(x.view(), y.view())
                .map(drop)
        ),
        "regularization"
    );
    assert_eq!(
        name(
            Balls1::params()
                .var_smoothing(f64::INFINITY)
                .fit(x.view(), y.view())
                .map(drop)
        ),
        "var_smoothing"
    );
    assert_eq!(
        name(
            Balls2::params()
                .tolerance(f64::NAN)
                .fit(x.view(), y.view())
                .map(drop)
        ),
        "tolerance"
    );
    assert_eq!(
        name(
            MultinomialNb::params()
                .alpha(-1.0)
                .fit(x.view(), y.view())
                .map(drop)
        ),
        "alpha"
    );
    assert_eq!(
        name(
            BernoulliNb::params()
                .n_classes(0)
                .fit(x.view(), y.view())
                .map(drop)
        ),
        "n_classes"
    );
    // Given priors of the wrong length for the data.
    let err = Lda::params()
        .n_classes(2)
        .priors(ClassPriors::Given(vec![0.2, 0.3, 0.5]))
        .fit(x.view(), y.view());
    assert!(
        matches!(
            err,
            Err(Error::ShapeMismatch {
                expected: 2,
                found: 3,
                ..
            })
        ),
        "{err:?}"
    );
}
