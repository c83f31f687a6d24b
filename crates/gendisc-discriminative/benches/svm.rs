//! Benchmarks of `LinearSvm`: a text-sized sparse problem (2,000 documents × 20,000 terms)
//! and a small dense one.
//!
//! `cargo bench -p gendisc-discriminative --bench svm`

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use gendisc_core::{Classifier, Fit};
use gendisc_discriminative::svm::LinearSvm;
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sprs::{CsMat, TriMat};

/// Bag-of-words-like rows: `nnz_per_row` distinct terms drawn with a Zipf-like skew, counts
/// 1–3, each row scaled to unit norm; the class is the sign of a sparse linear score plus
/// noise, so the classes overlap as real topics do.
fn sparse_text_like(
    n: usize,
    d: usize,
    nnz_per_row: usize,
    seed: u64,
) -> (CsMat<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let truth: Vec<f64> = (0..d)
        .map(|_| {
            if rng.random::<f64>() < 0.05 {
                rng.random_range(-1.0..1.0)
            } else {
                0.0
            }
        })
        .collect();
    let mut triplets = TriMat::new((n, d));
    let mut y = Array1::zeros(n);
    let mut row: Vec<(usize, f64)> = Vec::with_capacity(nnz_per_row);
    for i in 0..n {
        row.clear();
        while row.len() < nnz_per_row {
            // u² skews the draw towards low term indices (frequent words).
            let u: f64 = rng.random();
            let j = ((u * u) * d as f64) as usize;
            if row.iter().all(|&(k, _)| k != j) {
                row.push((j, rng.random_range(1..=3) as f64));
            }
        }
        let norm = row.iter().map(|(_, v)| v * v).sum::<f64>().sqrt();
        let score: f64 = row.iter().map(|&(j, v)| truth[j] * v / norm).sum();
        y[i] = usize::from(score + 0.05 * rng.random_range(-1.0..1.0) > 0.0);
        for &(j, v) in &row {
            triplets.add_triplet(i, j, v / norm);
        }
    }
    (triplets.to_csr(), y)
}

fn dense_small(n: usize, d: usize, seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let y = Array1::from_shape_fn(n, |i| i % 2);
    let x = Array2::from_shape_fn((n, d), |(i, j)| {
        let shift = if j == 0 {
            0.8 * (2.0 * y[i] as f64 - 1.0)
        } else {
            0.0
        };
        shift + rng.random_range(-1.0..1.0)
    });
    (x, y)
}

fn sparse_fit(c: &mut Criterion) {
    let (x, y) = sparse_text_like(2_000, 20_000, 60, 1);
    let mut group = c.benchmark_group("svm_sparse_2000x20000");
    group.sample_size(10);
    for shrinking in [true, false] {
        group.bench_with_input(
            BenchmarkId::new(
                "fit_c1",
                if shrinking {
                    "shrinking"
                } else {
                    "no_shrinking"
                },
            ),
            &shrinking,
            |b, &shrinking| {
                let params = LinearSvm::params().c(1.0).shrinking(shrinking);
                b.iter(|| params.fit_sparse(black_box(x.view()), y.view()).unwrap())
            },
        );
    }
    let model = LinearSvm::params().fit_sparse(x.view(), y.view()).unwrap();
    group.bench_function("decision_function", |b| {
        b.iter(|| model.decision_function_sparse(black_box(x.view())).unwrap())
    });
    group.finish();
}

fn dense_fit(c: &mut Criterion) {
    let (x, y) = dense_small(200, 10, 2);
    let mut group = c.benchmark_group("svm_dense_200x10");
    let params = LinearSvm::params().c(1.0);
    group.bench_function("fit_c1", |b| {
        b.iter(|| params.fit(black_box(x.view()), y.view()).unwrap())
    });
    let hard = dense_small(200, 10, 3);
    let mut separable = hard.0.clone();
    for (mut row, &k) in separable.rows_mut().into_iter().zip(&hard.1) {
        row[0] += if k == 1 { 2.0 } else { -2.0 };
    }
    group.bench_function("fit_hard_margin", |b| {
        let params = LinearSvm::params().hard_margin();
        b.iter(|| {
            params
                .fit(black_box(separable.view()), hard.1.view())
                .unwrap()
        })
    });
    let model = params.fit(x.view(), y.view()).unwrap();
    group.bench_function("predict", |b| {
        b.iter(|| model.predict(black_box(x.view())).unwrap())
    });
    group.finish();
}

criterion_group!(benches, sparse_fit, dense_fit);
criterion_main!(benches);
