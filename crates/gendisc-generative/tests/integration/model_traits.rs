//! Fitted models are `Send + Sync`, round-trip through serde unchanged, and sample from the
//! joint distribution they fitted.

use gendisc_core::{ConditionalModel, Fit, Generative};
use gendisc_generative::{
    Balls1, Balls2, BernoulliNb, CategoricalNb, GaussianNb, Lda, MultinomialNb, Qda, SampleJoint,
    VarianceStructure,
};
use ndarray::{array, Array1, Array2, Axis};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{de::DeserializeOwned, Serialize};

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn fitted_models_and_params_are_send_and_sync() {
    assert_send_sync::<GaussianNb>();
    assert_send_sync::<BernoulliNb>();
    assert_send_sync::<CategoricalNb>();
    assert_send_sync::<MultinomialNb>();
    assert_send_sync::<Lda>();
    assert_send_sync::<Qda>();
    assert_send_sync::<Balls1>();
    assert_send_sync::<Balls2>();
    assert_send_sync::<gendisc_generative::GaussianNbParams>();
    assert_send_sync::<gendisc_generative::Balls2Params>();
}

fn training() -> (Array2<f64>, Array1<usize>) {
    (
        array![
            [0.5, 1.2, 0.3],
            [1.4, 0.3, 1.0],
            [0.2, 2.1, -0.4],
            [1.9, 1.1, 0.2],
            [0.9, 0.4, 0.8],
            [3.1, 2.4, 2.2],
            [2.2, 3.3, 1.9],
            [2.8, 1.6, 2.6],
            [3.6, 2.9, 1.1],
            [2.5, 2.0, 3.0]
        ],
        array![0, 0, 0, 0, 0, 1, 1, 1, 1, 1],
    )
}

/// Serialises to JSON and back; the model must be equal and predict identically.
fn round_trip<M>(model: &M, x: &Array2<f64>)
where
    M: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug + ConditionalModel,
{
    let json = serde_json::to_string(model).unwrap();
    let back: M = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, model);
    assert_eq!(
        back.predict_log_proba(x.view()).unwrap(),
        model.predict_log_proba(x.view()).unwrap()
    );
}

#[test]
fn every_model_round_trips_through_serde() {
    let (x, y) = training();
    let binary = x.mapv(|v| f64::from(u8::from(v > 1.5)));
    let levels = x.mapv(|v| v.floor().clamp(0.0, 3.0));
    let counts = x.mapv(|v| (2.0 * v.abs()).floor());
    round_trip(&GaussianNb::params().fit(x.view(), y.view()).unwrap(), &x);
    round_trip(
        &GaussianNb::params()
            .variance(VarianceStructure::Pooled)
            .fit(x.view(), y.view())
            .unwrap(),
        &x,
    );
    round_trip(
        &BernoulliNb::params().fit(binary.view(), y.view()).unwrap(),
        &binary,
    );
    round_trip(
        &CategoricalNb::params()
            .fit(levels.view(), y.view())
            .unwrap(),
        &levels,
    );
    round_trip(
        &MultinomialNb::params()
            .fit(counts.view(), y.view())
            .unwrap(),
        &counts,
    );
    round_trip(&Lda::params().fit(x.view(), y.view()).unwrap(), &x);
    round_trip(&Qda::params().fit(x.view(), y.view()).unwrap(), &x);
    round_trip(&Balls1::params().fit(x.view(), y.view()).unwrap(), &x);
    round_trip(&Balls2::params().fit(x.view(), y.view()).unwrap(), &x);
}

#[test]
fn a_corrupted_covariance_is_refused_on_load() {
    let (x, y) = training();
    let qda = Qda::params().fit(x.view(), y.view()).unwrap();
    let mut value = serde_json::to_value(&qda).unwrap();
    // Make the first class covariance indefinite: a negative first variance.
    value["covariances"]["data"][0] = serde_json::json!(-1.0);
    assert!(serde_json::from_value::<Qda>(value).is_err());
}

/// Empirical class frequencies and class means of a sample.
fn sample_moments(x: &Array2<f64>, y: &Array1<usize>, k: usize) -> (Array1<f64>, Array2<f64>) {
    let mut freq = Array1::<f64>::zeros(k);
    let mut means = Array2::<f64>::zeros((k, x.ncols()));
    for (row, &c) in x.axis_iter(Axis(0)).zip(y.iter()) {
        freq[c] += 1.0;
        means.row_mut(c).scaled_add(1.0, &row);
    }
    for c in 0..k {
        means.row_mut(c).mapv_inplace(|v| v / freq[c]);
    }
    (freq / y.len() as f64, means)
}

/// Draws a large sample and checks its class frequencies and class means against the model's
/// (`class_means` for a mixture is `Σ_m ω_m μ_m`), and that the draws are reproducible.
fn check_sampler<M: SampleJoint + Generative>(model: &M, class_means: Array2<f64>, scale: f64) {
    let n = 40_000;
    let (x, y) = model.sample(n, &mut ChaCha8Rng::seed_from_u64(11));
    let (x2, y2) = model.sample(n, &mut ChaCha8Rng::seed_from_u64(11));
    assert_eq!((&x, &y), (&x2, &y2), "same seed, same bits");
    let (x3, _) = model.sample(10, &mut ChaCha8Rng::seed_from_u64(12));
    assert_ne!(x3, x.slice_axis(Axis(0), ndarray::Slice::from(..10)));

    let prior = model.log_prior().mapv(f64::exp);
    let (freq, means) = sample_moments(&x, &y, prior.len());
    for k in 0..prior.len() {
        // Binomial standard error sqrt(p(1−p)/n) ≤ 0.0025: 0.02 is eight of them.
        assert!(
            (freq[k] - prior[k]).abs() < 0.02,
            "class {k}: {} vs {}",
            freq[k],
            prior[k]
        );
        for j in 0..means.ncols() {
            // Standard error ≤ scale / sqrt(n p_k) ≈ 0.007 scale: 0.05 scale is seven of them.
            assert!(
                (means[[k, j]] - class_means[[k, j]]).abs() < 0.05 * scale,
                "class {k} feature {j}: {} vs {}",
                means[[k, j]],
                class_means[[k, j]]
            );
        }
    }
}

#[test]
fn gaussian_models_sample_their_joint() {
    let (x, y) = training();
    let gnb = GaussianNb::params().fit(x.view(), y.view()).unwrap();
    check_sampler(&gnb, gnb.means().to_owned(), 1.0);
    let lda = Lda::params().fit(x.view(), y.view()).unwrap();
    check_sampler(&lda, lda.means().to_owned(), 1.0);
    let qda = Qda::params().fit(x.view(), y.view()).unwrap();
    check_sampler(&qda, qda.means().to_owned(), 1.0);
    let b1 = Balls1::params().fit(x.view(), y.view()).unwrap();
    check_sampler(&b1, b1.means().to_owned(), 1.0);
    let b2 = Balls2::params().fit(x.view(), y.view()).unwrap();
    let mixture_means = Array2::from_shape_fn((2, 3), |(k, j)| {
        (0..2)
            .map(|m| b2.mixing_weights()[[k, m]] * b2.means()[[k, m, j]])
            .sum()
    });
    check_sampler(&b2, mixture_means, 1.0);

    // The sample of a fitted QDA refits to (nearly) the same covariances.
    let (xs, ys) = qda.sample(40_000, &mut ChaCha8Rng::seed_from_u64(5));
    let refit = Qda::params().fit(xs.view(), ys.view()).unwrap();
    let diff = (refit.covariances() - qda.covariances()).mapv(f64::abs);
    assert!(diff.iter().all(|&d| d < 0.05), "{diff}");
}
