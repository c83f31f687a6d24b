//! Fit cost of the hybrid on a learning-curve cell of Xue & Titterington: 400 × 4 training
//! rows (200 per class) in two regions of two features, normal or dependent-Bernoulli data.
//!
//! Target: a few tens of microseconds per fit without leave-one-out (the study fits 62,400
//! cells × 3 classifiers on two cores within seconds). Each fit is measured whole: generative
//! fit, region features, aliasing test, and `θ` by glm's IRLS (the default), Newton, or the
//! multi-class form. With glm or Newton most of the time is the logistic regression on the
//! 400 × 2 features (gendisc-discriminative); the rest is the naive Bayes fit, the region
//! likelihoods and the aliasing test.
//!
//! Data come from the paper's generators with a seeded `ChaCha8Rng`, so every run measures the
//! same work.

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use gendisc_core::{ConditionalModel, Fit};
use gendisc_data::generators::XueTitteringtonPreset;
use gendisc_generative::{BernoulliNb, GaussianNb};
use gendisc_hybrid::{Hybrid, Normalization, RegionLikelihoods, ThetaSolver};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn regions() -> Vec<Vec<usize>> {
    vec![vec![0, 1], vec![2, 3]]
}

fn hybrid(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(400);
    let (xg, yg) = XueTitteringtonPreset::NormalEqualFull.generate(200, &mut rng);
    let (xb, yb) = XueTitteringtonPreset::BernoulliEqualBlock.generate(200, &mut rng);

    let mut group = c.benchmark_group("hybrid fit 400x4, R = 2");
    for (name, leave_one_out, solver) in [
        ("glm", false, ThetaSolver::Glm),
        ("glm, leave-one-out", true, ThetaSolver::Glm),
        ("newton", false, ThetaSolver::Newton),
        ("multiclass", false, ThetaSolver::Multiclass),
    ] {
        let gaussian = Hybrid::params(GaussianNb::params())
            .regions(regions())
            .leave_one_out(leave_one_out)
            .solver(solver);
        group.bench_function(format!("gaussian, {name}"), |b| {
            b.iter(|| {
                gaussian
                    .fit(black_box(xg.view()), black_box(yg.view()))
                    .unwrap()
            })
        });
        let bernoulli = Hybrid::params(BernoulliNb::params())
            .regions(regions())
            .leave_one_out(leave_one_out)
            .solver(solver);
        group.bench_function(format!("bernoulli, {name}"), |b| {
            b.iter(|| {
                bernoulli
                    .fit(black_box(xb.view()), black_box(yb.view()))
                    .unwrap()
            })
        });
    }
    group.finish();
}

/// The three hybrids of a Xue–Titterington cell (normalized, leave-one-out, unnormalized) and
/// their test-set log-odds, fitted from scratch each, against built on one naive Bayes fit with
/// its region likelihoods shared (`fit_from`, `fit_on`, `decision_function_on`): the same
/// numbers, bit for bit.
fn shared(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(400);
    let (x, y) = XueTitteringtonPreset::NormalEqualFull.generate(200, &mut rng);
    let (x_test, _) = XueTitteringtonPreset::NormalEqualFull.generate(300, &mut rng);
    let nb = GaussianNb::params();
    let configurations = [
        (Normalization::Normalized, false),
        (Normalization::Normalized, true),
        (Normalization::Unnormalized, false),
    ];
    let params: Vec<_> = configurations
        .iter()
        .map(|&(normalization, leave_one_out)| {
            Hybrid::params(nb.clone())
                .regions(regions())
                .normalization(normalization)
                .leave_one_out(leave_one_out)
        })
        .collect();

    let mut group = c.benchmark_group("three hybrids 400x4 + 600 test rows");
    group.bench_function("each fitted and evaluated from scratch", |b| {
        b.iter(|| {
            for p in &params {
                let hybrid = p.fit(black_box(x.view()), black_box(y.view())).unwrap();
                black_box(hybrid.decision_function(x_test.view()).unwrap());
            }
        })
    });
    group.bench_function("one naive Bayes fit, likelihoods shared", |b| {
        b.iter(|| {
            let model = nb.fit(black_box(x.view()), black_box(y.view())).unwrap();
            let training = RegionLikelihoods::new(&model, x.view(), &regions()).unwrap();
            let test = RegionLikelihoods::new(&model, x_test.view(), &regions()).unwrap();
            for (p, &(_, leave_one_out)) in params.iter().zip(&configurations) {
                let hybrid = if leave_one_out {
                    p.fit_from(&model, x.view(), y.view()).unwrap()
                } else {
                    p.fit_on(&training, y.view()).unwrap()
                };
                black_box(hybrid.decision_function_on(&test).unwrap());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, hybrid, shared);
criterion_main!(benches);
