//! Balls1: one spherical Gaussian per class (Bouchard & Triggs 2004, §5), compared with LDA
//! on classes that are not round.
//!
//! `cargo run --example balls1`

use gendisc_core::{Classifier, ConditionalModel, Fit};
use gendisc_generative::{Balls1, Lda};
use ndarray::{array, Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

fn main() -> gendisc_core::Result<()> {
    // Elongated classes: spread 3 along the first axis, 0.5 along the second.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let n = 400;
    let y = Array1::from_shape_fn(n, |i| i % 2);
    let x = Array2::from_shape_fn((n, 2), |(i, j)| {
        let z: f64 = rng.sample(StandardNormal);
        if j == 0 {
            3.0 * z
        } else {
            0.5 * z + 1.5 * y[i] as f64
        }
    });
    let (x_train, x_test) = x.view().split_at(ndarray::Axis(0), 200);
    let (y_train, y_test) = y.view().split_at(ndarray::Axis(0), 200);

    let balls = Balls1::params().fit(x_train, y_train)?;
    let lda = Lda::params().fit(x_train, y_train)?;
    println!(
        "Balls1 means\n{:.3}\nvariances σ²_k {:.3}",
        balls.means(),
        balls.variances()
    );
    for (name, predicted) in [
        ("Balls1", balls.predict(x_test)?),
        ("LDA", lda.predict(x_test)?),
    ] {
        let correct = predicted.iter().zip(y_test).filter(|(p, t)| p == t).count();
        println!("{name:<7} test accuracy {:.3}", correct as f64 / 200.0);
    }
    let point = array![[0.0, 0.75]];
    println!(
        "p(y | x = {point}): Balls1 {:.4}",
        balls.predict_proba(point.view())?
    );
    Ok(())
}
