//! Multinomial naive Bayes on sparse word counts (Raina et al. 2003, eq. (3)), with the
//! likelihood of each region — subject and body — evaluated separately (eqs. (5)–(6)).
//!
//! `cargo run --example multinomial_nb`

use gendisc_core::Generative;
use gendisc_generative::MultinomialNb;
use ndarray::Array1;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sprs::{CsMat, TriMat};

const VOCABULARY: usize = 50;

/// Documents of class `y_i` draw words mostly from their own half of the vocabulary.
fn region(y: &Array1<usize>, words: usize, rng: &mut ChaCha8Rng) -> CsMat<f64> {
    let mut t = TriMat::new((y.len(), VOCABULARY));
    for (i, &k) in y.iter().enumerate() {
        for _ in 0..words {
            let own_half = rng.random_bool(0.7);
            let half = if own_half { k } else { 1 - k };
            t.add_triplet(
                i,
                half * VOCABULARY / 2 + rng.random_range(0..VOCABULARY / 2),
                1.0,
            );
        }
    }
    t.to_csr()
}

fn main() -> gendisc_core::Result<()> {
    let mut rng = ChaCha8Rng::seed_from_u64(2003);
    let y = Array1::from_shape_fn(200, |i| i % 2);
    let subject = region(&y, 4, &mut rng);
    let body = region(&y, 40, &mut rng);
    let documents = &subject + &body;

    let model = MultinomialNb::params().fit_sparse(documents.view(), y.view())?;
    let predicted = model.predict_sparse(documents.view())?;
    let correct = predicted.iter().zip(&y).filter(|(p, t)| p == t).count();
    println!("training accuracy {:.3}", correct as f64 / y.len() as f64);
    println!("log prior {}", model.log_prior());

    // log p(x | y) = log p(subject | y) + log p(body | y) under the same word distributions.
    let ll_subject = model.class_log_likelihood_sparse(subject.view())?;
    let ll_body = model.class_log_likelihood_sparse(body.view())?;
    let ll_doc = model.class_log_likelihood_sparse(documents.view())?;
    for i in 0..3 {
        println!(
            "document {i}: subject {:8.3?}, body {:8.3?}, whole {:8.3?}",
            ll_subject.row(i).to_vec(),
            ll_body.row(i).to_vec(),
            ll_doc.row(i).to_vec()
        );
    }
    Ok(())
}
