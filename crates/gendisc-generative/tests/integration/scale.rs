//! The Gaussian models are scale-equivariant in exact arithmetic: fitted on `c·X`, they predict
//! on `c·X'` what they predict on `X'` when fitted on `X`. These tests hold them to it for
//! factors from `10⁻³⁰⁰` to `10³⁰⁰` — where a covariance in the data's units would underflow or
//! overflow — and keep the cases that once broke as regressions.

use gendisc_core::{ConditionalModel, Fit};
use gendisc_generative::{Balls1, Balls2, CovarianceShrinkage, GaussianNb, Lda, Qda};
use ndarray::{array, Array1, Array2};

/// Two overlapping classes in three columns of different spreads, and rows to predict.
fn data() -> (Array2<f64>, Array1<usize>, Array2<f64>) {
    let x = array![
        [0.3, 12.0, -0.02],
        [1.1, 9.5, 0.01],
        [-0.4, 11.2, 0.03],
        [0.8, 10.1, -0.01],
        [0.2, 8.7, 0.00],
        [1.9, 7.2, 0.05],
        [2.4, 6.1, 0.02],
        [1.4, 8.3, 0.06],
        [2.9, 5.5, 0.04],
        [2.1, 7.7, 0.07],
    ];
    let y = array![0, 0, 0, 0, 0, 1, 1, 1, 1, 1];
    let x_test = array![
        [1.0, 9.0, 0.02],
        [1.6, 8.0, 0.03],
        [-1.0, 13.0, -0.05],
        [3.5, 4.0, 0.1]
    ];
    (x, y, x_test)
}

/// The scale factors: powers of two (exact) and decimal ones, across the whole range.
const FACTORS: [f64; 8] = [1e-300, 2e-200, 1.0 / 1024.0, 0.3, 7.0, 1e160, 3e250, 1e300];

/// Fits `fit` on `X` and on `c·X` for every factor and compares the posteriors on the test rows
/// (within `1e-9`) and the predicted classes.
fn assert_scale_equivariant<M: ConditionalModel>(
    name: &str,
    fit: impl Fn(
        ndarray::ArrayView2<'_, f64>,
        ndarray::ArrayView1<'_, usize>,
    ) -> gendisc_core::Result<M>,
) {
    let (x, y, x_test) = data();
    let reference = fit(x.view(), y.view()).unwrap();
    let expected = reference.predict_proba(x_test.view()).unwrap();
    let expected_class = reference.predict(x_test.view()).unwrap();
    for c in FACTORS {
        let (cx, cx_test) = (&x * c, &x_test * c);
        let model = fit(cx.view(), y.view()).unwrap_or_else(|e| panic!("{name} on {c}·X: {e}"));
        let got = model.predict_proba(cx_test.view()).unwrap();
        for (g, e) in got.iter().zip(&expected) {
            assert!(
                (g - e).abs() <= 1e-9,
                "{name} on {c}·X: {got} vs {expected}"
            );
        }
        assert_eq!(
            model.predict(cx_test.view()).unwrap(),
            expected_class,
            "{name} on {c}·X"
        );
    }
}

#[test]
fn gaussian_naive_bayes_does_not_care_about_units() {
    assert_scale_equivariant("Gaussian naive Bayes", |x, y| {
        GaussianNb::params().fit(x, y)
    });
}

#[test]
fn lda_and_qda_do_not_care_about_units() {
    assert_scale_equivariant("LDA", |x, y| Lda::params().fit(x, y));
    assert_scale_equivariant("QDA", |x, y| Qda::params().fit(x, y));
    // The scaled identity follows the data's scale; so does the plain identity once it is
    // negligible, as it is on both sides of this test only for no factor: it is left out.
    assert_scale_equivariant("LDA, scaled-identity shrinkage", |x, y| {
        Lda::params()
            .shrinkage(CovarianceShrinkage::ScaledIdentity(0.2))
            .fit(x, y)
    });
}

#[test]
fn balls_do_not_care_about_units() {
    assert_scale_equivariant("Balls1", |x, y| Balls1::params().fit(x, y));
    assert_scale_equivariant("Balls2", |x, y| Balls2::params().seed(1).fit(x, y));
}

/// Regression: LDA and QDA on data of magnitude `10³⁰⁰` failed with "non-finite value in the
/// pooled covariance"; the covariance in the data's units (`10⁶⁰⁰`) is not representable, the
/// model's own is.
#[test]
fn lda_and_qda_fit_data_of_magnitude_1e300() {
    let (x, y, x_test) = data();
    let (big, big_test) = (&x * 1e300, &x_test * 1e300);
    let lda = Lda::params().fit(big.view(), y.view()).unwrap();
    let qda = Qda::params().fit(big.view(), y.view()).unwrap();
    for p in [
        lda.predict_proba(big_test.view()).unwrap(),
        qda.predict_proba(big_test.view()).unwrap(),
    ] {
        for row in p.rows() {
            assert!((row.sum() - 1.0).abs() <= 1e-12 && row.iter().all(|v| v.is_finite()));
        }
    }
    // The accessors speak the data's units: means are representable, the covariance is not.
    assert!((lda.means()[[0, 1]] / 1e300 - 10.3).abs() < 1e-12);
    assert!(lda.covariance()[[0, 0]].is_infinite());
}

/// Regression: a constant column of values near `10²¹¹` gave Gaussian naive Bayes an infinite
/// variance floor (the square of the grand mean's rounding error) and so no posterior.
#[test]
fn a_huge_constant_column_leaves_the_variance_floor_finite() {
    let (x, y, x_test) = data();
    let with_constant = |x: &Array2<f64>| {
        let mut out = x.clone();
        out.column_mut(0).fill(1.2149865506833413e211);
        out
    };
    let model = GaussianNb::params()
        .fit(with_constant(&x).view(), y.view())
        .unwrap();
    assert!(model.variance_floor().is_finite());
    let p = model.predict_proba(with_constant(&x_test).view()).unwrap();
    for row in p.rows() {
        assert!((row.sum() - 1.0).abs() <= 1e-12, "{p}");
    }
}

/// Regression: Balls2 on identical rows of magnitude `10²¹¹` gave NaN log-densities (its EM
/// means were an ulp off, and that ulp squared overflowed).
#[test]
fn balls2_on_identical_huge_rows_has_a_posterior() {
    let x = Array2::from_shape_fn(
        (12, 3),
        |(_, j)| if j == 0 { 1.2149865506833413e211 } else { 0.0 },
    );
    let y = Array1::from_shape_fn(12, |i| i % 2);
    let model = Balls2::params().fit(x.view(), y.view()).unwrap();
    let p = model.predict_proba(x.view()).unwrap();
    for row in p.rows() {
        assert!((row.sum() - 1.0).abs() <= 1e-12, "{p}");
    }
}

/// Shrinking toward the identity of the data's units cannot be held in the unit of data near
/// `10⁻³⁰⁰`: an error that names the setting and the shrinkage that follows the data's scale.
#[test]
fn identity_shrinkage_on_tiny_data_names_the_remedy() {
    let (x, y, _) = data();
    let tiny = &x * 1e-300;
    let err = Qda::params()
        .regularization(CovarianceShrinkage::Identity(0.1))
        .fit(tiny.view(), y.view())
        .unwrap_err();
    assert!(
        matches!(err, gendisc_core::Error::InvalidParameter { name, .. } if name == "regularization"),
        "{err}"
    );
    assert!(err.to_string().contains("ScaledIdentity"), "{err}");
    // On data near 1e300 the identity is negligible and the fit goes through.
    assert!(Qda::params()
        .regularization(CovarianceShrinkage::Identity(0.1))
        .fit((&x * 1e300).view(), y.view())
        .is_ok());
}
