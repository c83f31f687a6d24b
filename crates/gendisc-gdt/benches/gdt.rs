//! Fit cost of the GDT estimator.
//!
//! Target (issue): one GDT fit by conjugate gradient for LDA on `n = 300`, `d = 4` in under
//! 5 ms. Measured on the correlated-uniform simulation of Bouchard & Triggs §4 (where the
//! Gaussian model is wrong, so intermediate λ really moves the fit) for λ = 0.5 and λ = 0, on
//! the Gaussian one for λ = 0.5, and for the other families at λ = 0.5; plus a warm-started
//! Table 1 path (λ = 1, 0.75, 0.5, 0.25, 0) and a 5-fold CV selection over it, by the default
//! method (trust-region Newton, `default_method()`); the same fits by the paper's conjugate
//! gradient (`paper_conjugate_gradient()`) for comparison.
//!
//! Data come from the paper's generators with a seeded `ChaCha8Rng`, so every run measures the
//! same work.

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use gendisc_core::{Fit, ParamGuard};
use gendisc_data::generators::BouchardTriggsSimulation;
use gendisc_gdt::{default_method, paper_conjugate_gradient, Family, Gdt, GdtCv, TABLE1_GRID};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn gdt(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(300);
    let (xu, yu) = BouchardTriggsSimulation::CorrelatedUniform.sample(300, &mut rng);
    let (xg, yg) = BouchardTriggsSimulation::GaussianIdentity.sample(300, &mut rng);

    let mut group = c.benchmark_group("GDT fit n = 300, d = 4");
    for (name, family, lambda, x, y) in [
        ("LDA λ=0.5 uniform", Family::Lda, 0.5, &xu, &yu),
        ("LDA λ=0 uniform", Family::Lda, 0.0, &xu, &yu),
        ("LDA λ=0.5 gaussian", Family::Lda, 0.5, &xg, &yg),
        ("QDA λ=0.5 uniform", Family::Qda, 0.5, &xu, &yu),
        ("Balls1 λ=0.5 uniform", Family::Balls1, 0.5, &xu, &yu),
        ("Balls2 λ=0.5 uniform", Family::Balls2, 0.5, &xu, &yu),
        (
            "shared-diagonal λ=0.5 uniform",
            Family::SharedDiagonal,
            0.5,
            &xu,
            &yu,
        ),
    ] {
        let params = Gdt::params(family).lambda(lambda).check().unwrap();
        group.bench_function(name, |b| {
            b.iter(|| {
                params
                    .fit(black_box(x.view()), black_box(y.view()))
                    .unwrap()
            })
        });
        let cg = Gdt::params(family)
            .lambda(lambda)
            .solver(paper_conjugate_gradient())
            .check()
            .unwrap();
        group.bench_function(format!("{name}, paper's CG"), |b| {
            b.iter(|| cg.fit(black_box(x.view()), black_box(y.view())).unwrap())
        });
    }
    for (name, solver) in [
        ("LDA Table 1 path (5 λ, warm starts)", default_method()),
        (
            "LDA Table 1 path (5 λ, warm starts), paper's CG",
            paper_conjugate_gradient(),
        ),
    ] {
        let params = Gdt::params(Family::Lda).solver(solver).check().unwrap();
        group.bench_function(name, |b| {
            b.iter(|| {
                params
                    .fit_path(
                        &TABLE1_GRID,
                        black_box(xu.view()),
                        black_box(yu.view()),
                        None,
                    )
                    .unwrap()
            })
        });
    }
    let cv = GdtCv::params(Family::Lda).check().unwrap();
    group.sample_size(20);
    group.bench_function("LDA 5-fold CV selection over the Table 1 grid", |b| {
        b.iter(|| {
            cv.select(black_box(xu.view()), black_box(yu.view()), None)
                .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, gdt);
criterion_main!(benches);
