//! Multinomial logistic regression with an L2 prior on sparse word counts (synthetic
//! documents), fitted by L-BFGS without ever forming a Hessian.
//!
//! `cargo run --release -p gendisc-discriminative --example logistic_sparse_text`

use gendisc_discriminative::logistic::LogisticRegression;
use ndarray::Array1;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sprs::{CsMat, TriMat};

/// `docs` documents of 40 word tokens over `vocabulary` words; a quarter of each document's
/// words come from a block typical of its class.
fn documents(
    docs: usize,
    vocabulary: usize,
    classes: usize,
    seed: u64,
) -> (CsMat<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let block = vocabulary / classes;
    let labels: Array1<usize> = (0..docs).map(|_| rng.random_range(0..classes)).collect();
    let mut counts = TriMat::new((docs, vocabulary));
    for (doc, &class) in labels.iter().enumerate() {
        for _ in 0..40 {
            let word = if rng.random_bool(0.25) {
                class * block + rng.random_range(0..block)
            } else {
                rng.random_range(0..vocabulary)
            };
            counts.add_triplet(doc, word, 1.0);
        }
    }
    (counts.to_csr(), labels)
}

fn main() -> gendisc_core::Result<()> {
    let (train_x, train_y) = documents(600, 3_000, 4, 1);
    let (test_x, test_y) = documents(400, 3_000, 4, 2);

    // 4 × 3,001 coefficients: more than Newton's limit, so the automatic choice is L-BFGS.
    let model = LogisticRegression::params()
        .prior_variance(1.0)
        .fit_sparse(train_x.view(), train_y.view())?;
    let r = model.report();
    println!(
        "{:?}: {:?} after {} iterations, gradient norm {:.1e}",
        r.solver, r.status, r.iterations, r.gradient_norm
    );

    let predicted = model.predict_sparse(test_x.view())?;
    let correct = predicted
        .iter()
        .zip(&test_y)
        .filter(|(p, y)| p == y)
        .count();
    println!("test accuracy {:.3}", correct as f64 / test_y.len() as f64);
    Ok(())
}
