//! The [`Priors`] setting: estimated priors are the class frequencies at the generative end,
//! and the shared diagonal's default (fixed `1/K`) is the setting spelled out.

use gendisc_core::{Fit, FitWeighted, Generative, ParamGuard};
use gendisc_data::generators::BouchardTriggsSimulation;
use gendisc_gdt::{Family, Gdt, Priors};
use ndarray::{Array1, Array2};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The paper's second simulation (§4), whose classes are unbalanced (`P(y = 1) ≈ 0.75`).
fn correlated_uniform(seed: u64, n: usize) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    BouchardTriggsSimulation::CorrelatedUniform.sample(n, &mut rng)
}

/// `Σ_{i: y_i = k} w_i / Σ_i w_i` for each class.
fn class_frequencies(y: &Array1<usize>, w: &Array1<f64>, k: usize) -> Array1<f64> {
    let mut f = Array1::zeros(k);
    for (&c, &wi) in y.iter().zip(w) {
        f[c] += wi;
    }
    f / w.sum()
}

#[test]
fn estimated_priors_at_lambda_one_are_the_class_frequencies() {
    let (x, y) = correlated_uniform(4, 120);
    let unit = Array1::ones(y.len());
    let uneven = Array1::from_shape_fn(y.len(), |i| 0.5 + (i % 4) as f64);
    for family in [
        Family::SharedDiagonal,
        Family::Lda,
        Family::Qda,
        Family::Balls1,
        Family::Balls2,
    ] {
        for w in [&unit, &uneven] {
            let params = Gdt::params(family)
                .priors(Priors::Estimated)
                .lambda(1.0)
                .check()
                .unwrap();
            let m = params.fit_weighted(x.view(), y.view(), w.view()).unwrap();
            let expected = class_frequencies(&y, w, 2);
            // The data are unbalanced, so the check can tell estimated from fixed priors.
            assert!((expected[1] - 0.5).abs() > 0.1, "{expected}");
            let fitted = m.log_prior().mapv(f64::exp);
            for (a, b) in fitted.iter().zip(&expected) {
                assert!(
                    (a - b).abs() <= 1e-12,
                    "{family}: priors {fitted} vs {expected}"
                );
            }
            assert_eq!(m.theta().len(), m.parametrisation().dim());
        }
    }
}

#[test]
fn fixed_priors_are_uniform_and_not_parameters() {
    let (x, y) = correlated_uniform(5, 80);
    for family in [Family::SharedDiagonal, Family::Lda, Family::Balls1] {
        let fixed = Gdt::params(family)
            .priors(Priors::Fixed)
            .lambda(0.5)
            .fitted(&x, &y);
        let estimated = Gdt::params(family)
            .priors(Priors::Estimated)
            .lambda(0.5)
            .fitted(&x, &y);
        assert_eq!(fixed.log_prior(), Array1::from_elem(2, -(2.0f64).ln()));
        // One logit fewer: K − 1 = 1.
        assert_eq!(fixed.theta().len() + 1, estimated.theta().len());
        assert_eq!(fixed.parametrisation().priors(), Priors::Fixed);
        assert_eq!(estimated.parametrisation().priors(), Priors::Estimated);
    }
}

#[test]
fn shared_diagonal_default_is_fixed_priors_bit_for_bit() {
    let (x, y) = correlated_uniform(6, 100);
    assert_eq!(Family::SharedDiagonal.default_priors(), Priors::Fixed);
    for lambda in [1.0, 0.5, 0.0] {
        let default = Gdt::params(Family::SharedDiagonal)
            .lambda(lambda)
            .fitted(&x, &y);
        let explicit = Gdt::params(Family::SharedDiagonal)
            .priors(Priors::Fixed)
            .lambda(lambda)
            .fitted(&x, &y);
        assert_eq!(default, explicit, "λ = {lambda}");
        // The layout is the paper's: means then log-scales, no prior logits.
        assert_eq!(default.theta().len(), 2 * 4 + 4);
    }
}

#[test]
fn estimated_priors_move_the_shared_diagonal_intercept() {
    // On unbalanced data the generative fit with estimated priors shifts every log-odds by
    // log(π̂_1 / π̂_0) against the fit with fixed priors, and by nothing else.
    let (x, y) = correlated_uniform(7, 150);
    let fit = |priors| {
        Gdt::params(Family::SharedDiagonal)
            .priors(priors)
            .lambda(1.0)
            .fitted(&x, &y)
    };
    let (fixed, estimated) = (fit(Priors::Fixed), fit(Priors::Estimated));
    let (bf, cf) = fixed.linear_coefficients().unwrap();
    let (be, ce) = estimated.linear_coefficients().unwrap();
    for (a, b) in bf.iter().zip(be.iter()) {
        assert!((a - b).abs() <= 1e-12 * (1.0 + a.abs()), "{bf} vs {be}");
    }
    let prior = estimated.log_prior();
    let shift = (ce[1] - ce[0]) - (cf[1] - cf[0]);
    let expected = prior[1] - prior[0];
    assert!(expected.abs() > 0.1, "unbalanced classes: {expected}");
    assert!((shift - expected).abs() <= 1e-10, "{shift} vs {expected}");
}

#[test]
fn serialised_models_keep_their_prior_setting() {
    let (x, y) = correlated_uniform(8, 60);
    let m = Gdt::params(Family::SharedDiagonal)
        .priors(Priors::Estimated)
        .fitted(&x, &y);
    let json = serde_json::to_string(&m).unwrap();
    let back: Gdt = serde_json::from_str(&json).unwrap();
    assert_eq!(m, back);
    // A layout serialised before the setting existed gets its family's default.
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    value["param"].as_object_mut().unwrap().remove("priors");
    assert!(
        serde_json::from_value::<Gdt>(value).is_err(),
        "a θ with a prior logit cannot be read as a fixed-prior layout"
    );
    let lda = Gdt::params(Family::Lda).fitted(&x, &y);
    let mut value = serde_json::to_value(&lda).unwrap();
    value["param"].as_object_mut().unwrap().remove("priors");
    assert_eq!(serde_json::from_value::<Gdt>(value).unwrap(), lda);
}

/// Fitting, unwrapped: the tests' data and settings are valid.
trait Fitted {
    fn fitted(self, x: &Array2<f64>, y: &Array1<usize>) -> Gdt;
}

impl Fitted for gendisc_gdt::GdtParams {
    fn fitted(self, x: &Array2<f64>, y: &Array1<usize>) -> Gdt {
        self.fit(x.view(), y.view()).unwrap()
    }
}
