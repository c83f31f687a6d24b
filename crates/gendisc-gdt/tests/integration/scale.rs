//! GDT in other units: it fits the density of the rows divided by their largest magnitude, so
//! fitted on `c·X` it runs its optimiser on the same numbers as on `X` (up to one rounding) and
//! predicts the same posteriors, for factors from `10⁻³⁰⁰` to `10³⁰⁰`.

use gendisc_core::{ConditionalModel, Error, Fit, ParamGuard};
use gendisc_gdt::{Family, Gdt};
use ndarray::{array, Array1, Array2};

fn data() -> (Array2<f64>, Array1<usize>, Array2<f64>) {
    let x = array![
        [0.3, 12.0],
        [1.1, 9.5],
        [-0.4, 11.2],
        [0.8, 10.1],
        [0.2, 8.7],
        [1.9, 7.2],
        [2.4, 6.1],
        [1.4, 8.3],
        [2.9, 5.5],
        [2.1, 7.7],
        [1.2, 9.9],
        [0.6, 6.4],
    ];
    let y = array![0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1];
    let x_test = array![[1.0, 9.0], [1.6, 8.0], [-1.0, 13.0], [3.5, 4.0]];
    (x, y, x_test)
}

/// The largest difference between the posteriors of fits on `X` and on `c·X`.
fn largest_difference(family: Family, lambda: f64, c: f64) -> f64 {
    let (x, y, x_test) = data();
    let fit = |x: &Array2<f64>| {
        Gdt::params(family)
            .lambda(lambda)
            .fit(x.view(), y.view())
            .unwrap()
    };
    let reference = fit(&x).predict_proba(x_test.view()).unwrap();
    let scaled = fit(&(&x * c)).predict_proba((&x_test * c).view()).unwrap();
    (&reference - &scaled)
        .iter()
        .fold(0.0_f64, |m, d| m.max(d.abs()))
}

/// Factors across the whole range of `f64`, powers of ten and others.
const FACTORS: [f64; 6] = [1e-300, 2e-150, 0.01, 3.0, 1e10, 1e300];

#[test]
fn gdt_does_not_care_about_units() {
    for family in Family::TABLE1.into_iter().chain([Family::SharedDiagonal]) {
        for lambda in [1.0, 0.5, 0.0] {
            for c in FACTORS {
                let d = largest_difference(family, lambda, c);
                // QDA's trade-off on twelve rows has a flat valley (ten covariance parameters),
                // where the one rounding of x / s moves the conjugate-gradient stopping point.
                let tolerance = if family == Family::Qda && lambda == 0.5 {
                    1e-3
                } else {
                    1e-7
                };
                assert!(
                    d <= tolerance,
                    "{family} at λ = {lambda} on {c}·X: posteriors differ by {d}"
                );
            }
        }
    }
}

#[test]
fn the_scale_is_the_largest_magnitude_and_survives_a_round_trip() {
    let (x, y, x_test) = data();
    let model = Gdt::params(Family::Lda)
        .lambda(0.5)
        .fit((&x * 1e300).view(), y.view())
        .unwrap();
    assert_eq!(model.scale(), 12.0 * 1e300);
    let json = serde_json::to_string(&model).unwrap();
    let back: Gdt = serde_json::from_str(&json).unwrap();
    let big_test = &x_test * 1e300;
    assert_eq!(
        back.predict_proba(big_test.view()).unwrap(),
        model.predict_proba(big_test.view()).unwrap()
    );
    let mut corrupt: serde_json::Value = serde_json::from_str(&json).unwrap();
    corrupt["scale"] = serde_json::json!(-1.0);
    assert!(serde_json::from_value::<Gdt>(corrupt).is_err());
    // A warm start must come from rows of the same scale.
    let err = Gdt::params(Family::Lda)
        .lambda(0.4)
        .check()
        .unwrap()
        .fit_from(&model, x.view(), y.view(), None)
        .unwrap_err();
    assert!(matches!(err, Error::InvalidParameter { .. }), "{err}");
}
