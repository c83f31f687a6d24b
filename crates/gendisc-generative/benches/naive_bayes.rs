//! Fit and predict costs of the naive Bayes models on the sizes the studies use.
//!
//! * Gaussian naive Bayes on 400 × 4 dense rows (a learning-curve cell of Ng & Jordan or Xue &
//!   Titterington): target fit < 5 µs.
//! * Multinomial naive Bayes on 2,000 documents × 20,000 words with about 100 nonzero counts
//!   per document (a 20 Newsgroups training set of Raina et al.): target fit < 5 ms.
//!
//! Data are generated from a seeded `ChaCha8Rng`, so every run measures the same work.

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use gendisc_core::{ConditionalModel, Fit};
use gendisc_generative::{GaussianNb, MultinomialNb};
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use sprs::{CsMat, TriMat};

fn gaussian_data(n: usize, d: usize) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(400);
    let y = Array1::from_shape_fn(n, |i| i % 2);
    let x = Array2::from_shape_fn((n, d), |(i, _)| {
        rng.sample::<f64, _>(StandardNormal) + 1.5 * y[i] as f64
    });
    (x, y)
}

/// `n_docs` documents over `vocabulary` words, `nnz_per_doc` draws of a word each with a count
/// in 1..=3 (repeated words add up), `n_classes` classes in rotation.
fn corpus(
    n_docs: usize,
    vocabulary: usize,
    nnz_per_doc: usize,
    n_classes: usize,
) -> (CsMat<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(2000);
    let mut t = TriMat::with_capacity((n_docs, vocabulary), n_docs * nnz_per_doc);
    for doc in 0..n_docs {
        for _ in 0..nnz_per_doc {
            let word = rng.random_range(0..vocabulary);
            t.add_triplet(doc, word, f64::from(rng.random_range(1u8..=3)));
        }
    }
    (t.to_csr(), Array1::from_shape_fn(n_docs, |i| i % n_classes))
}

fn gaussian_nb(c: &mut Criterion) {
    let (x, y) = gaussian_data(400, 4);
    let params = GaussianNb::params();
    c.bench_function("gaussian_nb/fit/400x4", |b| {
        b.iter(|| {
            params
                .fit(black_box(x.view()), black_box(y.view()))
                .unwrap()
        })
    });
    let model = params.fit(x.view(), y.view()).unwrap();
    c.bench_function("gaussian_nb/predict_proba/400x4", |b| {
        b.iter(|| model.predict_proba(black_box(x.view())).unwrap())
    });
}

fn multinomial_nb(c: &mut Criterion) {
    let params = MultinomialNb::params();
    for n_classes in [2, 20] {
        let (x, y) = corpus(2000, 20_000, 100, n_classes);
        c.bench_function(
            &format!("multinomial_nb/fit_sparse/2000x20000/{n_classes}_classes"),
            |b| {
                b.iter(|| {
                    params
                        .fit_sparse(black_box(x.view()), black_box(y.view()))
                        .unwrap()
                })
            },
        );
        let model = params.fit_sparse(x.view(), y.view()).unwrap();
        c.bench_function(
            &format!("multinomial_nb/predict_proba_sparse/2000x20000/{n_classes}_classes"),
            |b| b.iter(|| model.predict_proba_sparse(black_box(x.view())).unwrap()),
        );
    }
}

criterion_group!(benches, gaussian_nb, multinomial_nb);
criterion_main!(benches);
