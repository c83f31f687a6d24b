//! Gaussian naive Bayes with scikit-learn's and e1071's variance conventions, per-class
//! (QDA-Λ) and pooled (LDA-Λ) variances, on two generated Gaussian classes.
//!
//! `cargo run --example gaussian_nb`

use gendisc_core::{Classifier, ConditionalModel, Fit};
use gendisc_generative::{GaussianNb, VarianceEstimator, VarianceStructure};
use ndarray::{array, Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

/// `n` rows per class: class 0 around (0, 0), class 1 around (2, 1) with twice the spread.
fn two_classes(n: usize, rng: &mut ChaCha8Rng) -> (Array2<f64>, Array1<usize>) {
    let y = Array1::from_shape_fn(2 * n, |i| i / n);
    let x = Array2::from_shape_fn((2 * n, 2), |(i, j)| {
        let z: f64 = rng.sample(StandardNormal);
        if y[i] == 0 {
            z
        } else {
            [2.0, 1.0][j] + 2.0 * z
        }
    });
    (x, y)
}

fn accuracy(predicted: &Array1<usize>, truth: &Array1<usize>) -> f64 {
    predicted.iter().zip(truth).filter(|(p, t)| p == t).count() as f64 / truth.len() as f64
}

fn main() -> gendisc_core::Result<()> {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let (x, y) = two_classes(100, &mut rng);
    let (x_test, y_test) = two_classes(500, &mut rng);

    let configurations = [
        ("per-class ML (scikit-learn)", GaussianNb::params()),
        (
            "per-class unbiased (e1071)",
            GaussianNb::params().variance_estimator(VarianceEstimator::Unbiased),
        ),
        (
            "pooled (LDA-Λ)",
            GaussianNb::params().variance(VarianceStructure::Pooled),
        ),
    ];
    for (name, params) in configurations {
        let model = params.fit(x.view(), y.view())?;
        let acc = accuracy(&model.predict(x_test.view())?, &y_test);
        println!("{name:<30} test accuracy {acc:.3}");
        println!("  means     {:.3}", model.means());
        println!("  variances {:.3}", model.variances());
    }

    let model = GaussianNb::params().fit(x.view(), y.view())?;
    let points = array![[0.0, 0.0], [1.0, 0.5], [4.0, 3.0]];
    println!(
        "posteriors p(y | x) at {points}:\n{:.4}",
        model.predict_proba(points.view())?
    );
    Ok(())
}
