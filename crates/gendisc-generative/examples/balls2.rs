//! Balls2: a mixture of two spherical Gaussians per class fitted by EM, with its fit report.
//!
//! `cargo run --example balls2`

use gendisc_core::{Classifier, Fit};
use gendisc_generative::{Balls1, Balls2};
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

fn main() -> gendisc_core::Result<()> {
    // Each class is two clumps: class 0 at (±3, 0), class 1 at (0, ±3). A single ball per class
    // puts both class means near the origin; two balls per class find the clumps.
    let mut rng = ChaCha8Rng::seed_from_u64(2004);
    let n = 600;
    let y = Array1::from_shape_fn(n, |i| i % 2);
    let x = Array2::from_shape_fn((n, 2), |(i, j)| {
        let z: f64 = rng.sample(StandardNormal);
        let side = if (i / 2) % 2 == 0 { -3.0 } else { 3.0 };
        let centre = if j == y[i] { side } else { 0.0 };
        centre + 0.8 * z
    });
    let (x_train, x_test) = x.view().split_at(ndarray::Axis(0), 300);
    let (y_train, y_test) = y.view().split_at(ndarray::Axis(0), 300);

    let balls2 = Balls2::params().seed(1).fit(x_train, y_train)?;
    for (k, report) in balls2.report().classes.iter().enumerate() {
        let trace = &report.log_likelihood;
        println!(
            "class {k}: {} EM iterations, converged {}, log-likelihood {:.3} → {:.3}",
            report.iterations,
            report.converged,
            trace[0],
            trace[trace.len() - 1]
        );
    }
    println!(
        "mixing weights\n{:.3}\nvariances\n{:.3}",
        balls2.mixing_weights(),
        balls2.variances()
    );
    let balls1 = Balls1::params().fit(x_train, y_train)?;
    for (name, predicted) in [
        ("Balls1", balls1.predict(x_test)?),
        ("Balls2", balls2.predict(x_test)?),
    ] {
        let correct = predicted.iter().zip(y_test).filter(|(p, t)| p == t).count();
        println!(
            "{name} test accuracy {:.3}",
            correct as f64 / y_test.len() as f64
        );
    }
    Ok(())
}
