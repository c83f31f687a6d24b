//! Logistic-regression benchmarks: a small dense Newton fit (the unit of the learning-curve
//! studies) and its glm-compatible IRLS counterpart, prediction, and an L2-penalised fit on
//! text-sized sparse data (20 Newsgroups scale: 2,000 documents × 20,000 words, about 100
//! distinct words per document).
//!
//! `cargo bench -p gendisc-discriminative --bench logistic`

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use gendisc_core::{ConditionalModel, Fit};
use gendisc_discriminative::logistic::{LogisticRegression, LogisticSolver};
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sprs::{CsMat, TriMat};

/// `n × d` standard normal-ish features (sum of uniforms) and labels from a logistic model
/// with overlapping classes.
fn dense_data(n: usize, d: usize, seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let x = Array2::from_shape_fn((n, d), |_| {
        (0..4).map(|_| rng.random_range(-1.0..1.0)).sum::<f64>()
    });
    let y = x
        .outer_iter()
        .map(|row| {
            let eta = 0.3
                + row
                    .iter()
                    .enumerate()
                    .map(|(j, v)| v / (j + 1) as f64)
                    .sum::<f64>();
            usize::from(rng.random::<f64>() < 1.0 / (1.0 + (-eta).exp()))
        })
        .collect();
    (x, y)
}

/// Word counts: each document draws about `words_per_doc` distinct words, a third of them
/// from a block of words typical of its class, with counts `1 + Geometric(0.7)`.
fn sparse_counts(
    docs: usize,
    vocabulary: usize,
    words_per_doc: usize,
    classes: usize,
    seed: u64,
) -> (CsMat<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let block = vocabulary / classes;
    let mut triplets = TriMat::new((docs, vocabulary));
    let labels: Array1<usize> = (0..docs).map(|i| i % classes).collect();
    for (doc, &class) in labels.iter().enumerate() {
        for _ in 0..words_per_doc {
            let word = if rng.random_bool(1.0 / 3.0) {
                class * block + rng.random_range(0..block)
            } else {
                rng.random_range(0..vocabulary)
            };
            let mut count = 1.0;
            while rng.random_bool(0.3) {
                count += 1.0;
            }
            triplets.add_triplet(doc, word, count);
        }
    }
    // Repeated (document, word) pairs are summed.
    (triplets.to_csr(), labels)
}

fn dense(c: &mut Criterion) {
    let (x, y) = dense_data(400, 4, 1);
    let params = LogisticRegression::params();
    c.bench_function("logistic/fit newton dense 400x4", |b| {
        b.iter(|| {
            params
                .fit(black_box(x.view()), black_box(y.view()))
                .unwrap()
        })
    });
    // glm's IRLS with its fit report and separation test: the Xue–Titterington study's
    // unit (four of these per cell, on up to 400 rows of 2–4 features).
    let glm = LogisticRegression::params().solver(LogisticSolver::GlmIrls);
    c.bench_function("logistic/fit glm dense 400x4", |b| {
        b.iter(|| glm.fit(black_box(x.view()), black_box(y.view())).unwrap())
    });
    let model = params.fit(x.view(), y.view()).unwrap();
    c.bench_function("logistic/predict_proba dense 400x4", |b| {
        b.iter(|| model.predict_proba(black_box(x.view())).unwrap())
    });
}

fn sparse(c: &mut Criterion) {
    let mut group = c.benchmark_group("logistic/sparse 2000x20000");
    group.sample_size(10);
    let (x, y) = sparse_counts(2_000, 20_000, 100, 2, 2);
    let params = LogisticRegression::params().prior_variance(1.0);
    group.bench_function("fit l2 binary (L-BFGS)", |b| {
        b.iter(|| {
            params
                .fit_sparse(black_box(x.view()), black_box(y.view()))
                .unwrap()
        })
    });
    let (x20, y20) = sparse_counts(2_000, 20_000, 100, 20, 3);
    group.bench_function("fit l2 20 classes (L-BFGS)", |b| {
        b.iter(|| {
            params
                .fit_sparse(black_box(x20.view()), black_box(y20.view()))
                .unwrap()
        })
    });
    let model = params.fit_sparse(x.view(), y.view()).unwrap();
    group.bench_function("predict_proba binary", |b| {
        b.iter(|| model.predict_proba_sparse(black_box(x.view())).unwrap())
    });
    group.finish();
}

criterion_group!(benches, dense, sparse);
criterion_main!(benches);
