//! One alternating fit on a text-sized problem: `n` sparse binary features (a noun vocabulary),
//! `m` training rows (0.5% of a two-newsgroup task), diagonal `Ω_i`, `Σ_i = I`, the paper's
//! §5 constants. Seeded, so every run times the same problem.

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};
use gendisc_bilevel::{BilevelClassifier, GenerativePrior};
use gendisc_core::ParamGuard;
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn problem(
    n: usize,
    m: usize,
    words_per_row: usize,
) -> (sprs::CsMat<f64>, Array1<usize>, GenerativePrior) {
    let mut rng = ChaCha8Rng::seed_from_u64(2007);
    let y = Array1::from_iter((0..m).map(|i| i % 2));
    let mut dense = Array2::<f64>::zeros((m, n));
    for i in 0..m {
        // Class-1 rows favour the first half of the vocabulary, class-0 rows the second.
        for _ in 0..words_per_row {
            let half = if rng.random_bool(0.7) == (y[i] == 1) {
                0
            } else {
                n / 2
            };
            dense[[i, half + rng.random_range(0..n / 2)]] = 1.0;
        }
    }
    let x = sprs::CsMat::csr_from_dense(dense.view(), 0.0);
    let t1 = Array1::from_iter((0..n).map(|j| if j < n / 2 { 0.01 } else { 0.03 }));
    let t2 = Array1::from_iter((0..n).map(|j| if j < n / 2 { 0.03 } else { 0.01 }));
    let omega = Array1::from_iter((0..n).map(|j| 1e-4 * (1.0 + (j % 7) as f64)));
    let prior = GenerativePrior::diagonal([t1, t2], [omega.clone(), omega]).unwrap();
    (x, y, prior)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("bilevel");
    group.sample_size(10);
    for &(n, m) in &[
        (1000usize, 10usize),
        (5000, 10),
        (7500, 9),
        (5000, 100),
        (20000, 9),
    ] {
        let (x, y, prior) = problem(n, m, 60);
        let params = BilevelClassifier::params(prior).check().unwrap();
        let report = params
            .fit_sparse(x.view(), y.view())
            .unwrap()
            .report()
            .clone();
        let socp: u32 = report.iterations.iter().map(|i| i.socp_iterations).sum();
        eprintln!(
            "n={n} m={m}: {} alternations ({:?}), {socp} interior-point iterations in all",
            report.n_iterations(),
            report.status
        );
        group.bench_function(format!("fit n={n} m={m}"), |b| {
            b.iter(|| params.fit_sparse(x.view(), y.view()).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
