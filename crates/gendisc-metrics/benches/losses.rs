//! The cost of the test-set losses the studies sum over many rows.
//!
//! * The logistic loss of a two-class model from its log-odds on 100,000 rows: Bouchard &
//!   Triggs's Figure 1 sums it over a test set of that size for each of 21 values of `λ` in
//!   every cell, and Xue & Titterington over 600–900 rows for six classifiers per cell.
//!
//! Data are generated from a seeded `ChaCha8Rng`, so every run measures the same work.

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use gendisc_metrics::binary_logistic_loss_sum;
use ndarray::Array1;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Labels in random order and the log-odds of a fair but imperfect linear classifier: about a
/// quarter of the rows on the wrong side.
fn log_odds_data(n: usize) -> (Array1<usize>, Array1<f64>) {
    let mut rng = ChaCha8Rng::seed_from_u64(100_000);
    let y = Array1::from_shape_fn(n, |_| usize::from(rng.random::<bool>()));
    let eta = Array1::from_shape_fn(n, |i| {
        let x: f64 = 4.0 * rng.random::<f64>() - 2.0;
        2.5 * x + if y[i] == 1 { 1.0 } else { -1.0 }
    });
    (y, eta)
}

fn losses(c: &mut Criterion) {
    let (y, eta) = log_odds_data(100_000);
    c.bench_function("binary logistic loss sum, 100000 rows", |b| {
        b.iter(|| binary_logistic_loss_sum(black_box(y.view()), black_box(eta.view())).unwrap())
    });
}

criterion_group!(benches, losses);
criterion_main!(benches);
