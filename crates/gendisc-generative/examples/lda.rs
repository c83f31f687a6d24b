//! Linear discriminant analysis: pooled covariance, linear discriminant functions, and samples
//! from the fitted joint distribution.
//!
//! `cargo run --example lda`

use gendisc_core::{Classifier, ConditionalModel, Fit};
use gendisc_generative::{CovarianceShrinkage, Lda, SampleJoint};
use ndarray::array;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn main() -> gendisc_core::Result<()> {
    let x = array![
        [1.0, 2.0],
        [1.5, 2.5],
        [0.5, 1.0],
        [1.2, 1.4],
        [3.0, 3.5],
        [3.4, 4.2],
        [2.5, 3.1],
        [3.9, 3.8]
    ];
    let y = array![0, 0, 0, 0, 1, 1, 1, 1];
    let lda = Lda::params().fit(x.view(), y.view())?;
    println!(
        "means\n{}\npooled covariance\n{:.4}",
        lda.means(),
        lda.covariance()
    );
    let (beta, intercept) = lda.coefficients()?;
    println!("discriminants δ_k(x) = β_kᵀx + b_k:\nβ = {beta:.4}\nb = {intercept:.4}");

    // Draw a fresh dataset from the fitted model and classify it.
    let (xs, ys) = lda.sample(2000, &mut ChaCha8Rng::seed_from_u64(1));
    let predicted = lda.predict(xs.view())?;
    let correct = predicted.iter().zip(&ys).filter(|(p, t)| p == t).count();
    println!(
        "accuracy on 2000 draws from the model: {:.3}",
        correct as f64 / 2000.0
    );

    // Shrinkage toward the scaled identity, as scikit-learn's `shrinkage`.
    let shrunk = Lda::params()
        .shrinkage(CovarianceShrinkage::ScaledIdentity(0.5))
        .fit(x.view(), y.view())?;
    let point = array![[2.2, 2.6]];
    println!(
        "p(y | x = {point}) plain {:.4}, shrunk {:.4}",
        lda.predict_proba(point.view())?,
        shrunk.predict_proba(point.view())?
    );
    Ok(())
}
