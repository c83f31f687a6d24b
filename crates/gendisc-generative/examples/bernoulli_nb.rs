//! Bernoulli naive Bayes with Laplace smoothing on generated binary features.
//!
//! `cargo run --example bernoulli_nb`

use gendisc_core::{Classifier, ConditionalModel, Fit};
use gendisc_generative::BernoulliNb;
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Rows whose features are 1 with probability `theta[y][j]`.
fn sample(n: usize, theta: &[[f64; 4]; 2], rng: &mut ChaCha8Rng) -> (Array2<f64>, Array1<usize>) {
    let y = Array1::from_shape_fn(n, |_| usize::from(rng.random_bool(0.4)));
    let x = Array2::from_shape_fn((n, 4), |(i, j)| {
        f64::from(u8::from(rng.random_bool(theta[y[i]][j])))
    });
    (x, y)
}

fn main() -> gendisc_core::Result<()> {
    let theta = [[0.9, 0.2, 0.5, 0.3], [0.3, 0.7, 0.5, 0.9]];
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (x, y) = sample(60, &theta, &mut rng);
    let (x_test, y_test) = sample(1000, &theta, &mut rng);

    let model = BernoulliNb::params().fit(x.view(), y.view())?;
    println!(
        "estimated θ_kj = p(x_j = 1 | y = k), (count + 1) / (n_k + 2):\n{:.3}",
        model.feature_prob()
    );
    println!("true θ:\n{theta:?}");
    let predicted = model.predict(x_test.view())?;
    let correct = predicted
        .iter()
        .zip(&y_test)
        .filter(|(p, t)| p == t)
        .count();
    println!("test accuracy {:.3}", correct as f64 / y_test.len() as f64);
    let first = x_test.slice_axis(ndarray::Axis(0), ndarray::Slice::from(..3));
    println!(
        "first test rows {first}\nposteriors\n{:.4}",
        model.predict_proba(first)?
    );
    Ok(())
}
