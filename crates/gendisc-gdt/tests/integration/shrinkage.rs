//! Covariance shrinkage of the LDA and QDA families: `λ = 1` is shrunk LDA/QDA, the penalised
//! objective is stationary there, collinear and constant columns fit, `λ = 0` is unchanged, and
//! bad settings are named.

use gendisc_core::{ConditionalModel, Convergence, Error, Fit, Generative, ParamGuard};
use gendisc_gdt::{CovarianceShrinkage, Family, Gdt};
use gendisc_generative::{Lda, Qda};
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

/// Three overlapping Gaussian classes in 4-d; with `degenerate`, column 2 is constant and
/// column 3 twice column 0 (a singular covariance, pooled and per class).
fn data(seed: u64, n: usize, degenerate: bool) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let y = Array1::from_shape_fn(n, |i| i % 3);
    let mut x = Array2::from_shape_fn((n, 4), |(i, j)| {
        let z: f64 = rng.sample(StandardNormal);
        (1.0 + 0.3 * j as f64) * z + if j == y[i] { 1.2 } else { 0.0 }
    });
    if degenerate {
        for mut row in x.rows_mut() {
            row[2] = 5.0;
            row[3] = 2.0 * row[0];
        }
    }
    (x, y)
}

/// Both regularisers at two strengths.
fn regularisers() -> [CovarianceShrinkage; 4] {
    [
        CovarianceShrinkage::ScaledIdentity(0.1),
        CovarianceShrinkage::ScaledIdentity(0.6),
        CovarianceShrinkage::Identity(0.1),
        CovarianceShrinkage::Identity(0.6),
    ]
}

#[test]
fn lambda_one_is_the_shrunk_generative_fit_and_a_stationary_point() {
    // Rows far from unit magnitude, so that the identity of the data's units is not the
    // model's.
    let (x, y) = data(7, 90, false);
    let x = x * 40.0;
    for shrink in regularisers() {
        for family in [Family::Lda, Family::Qda] {
            let gdt = Gdt::params(family)
                .shrinkage(shrink)
                .lambda(1.0)
                .fit(x.view(), y.view())
                .unwrap();
            let reference = match family {
                Family::Lda => Lda::params()
                    .shrinkage(shrink)
                    .fit(x.view(), y.view())
                    .unwrap()
                    .log_joint(x.view()),
                _ => Qda::params()
                    .regularization(shrink)
                    .fit(x.view(), y.view())
                    .unwrap()
                    .log_joint(x.view()),
            }
            .unwrap();
            let joint = gdt.log_joint(x.view()).unwrap();
            for (a, b) in joint.iter().zip(reference.iter()) {
                assert!(
                    (a - b).abs() <= 1e-9 * (1.0 + b.abs()),
                    "{family} {shrink:?}: {a} vs {b}"
                );
            }
            // The shrunk fit maximises L_gen + log π: the penalised gradient vanishes there,
            // which holds only if the prior's ν and ψ are the ones the shrinkage implies.
            assert!(
                gdt.report().gradient_norm < 1e-9,
                "{family} {shrink:?}: ‖∇‖ = {:e} at the shrunk fit",
                gdt.report().gradient_norm
            );
        }
    }
}

#[test]
fn shrinkage_fits_constant_and_collinear_columns_and_converges() {
    let (x, y) = data(11, 120, true);
    for family in [Family::Lda, Family::Qda] {
        // Without shrinkage the generative start is singular: a typed error.
        let err = Gdt::params(family)
            .lambda(0.5)
            .fit(x.view(), y.view())
            .unwrap_err();
        assert!(
            matches!(err, Error::NotPositiveDefinite { .. }),
            "{family}: {err:?}"
        );
        for (lambda, shrink) in [0.25, 0.5, 0.75, 0.5].into_iter().zip(regularisers()) {
            let gdt = Gdt::params(family)
                .shrinkage(shrink)
                .lambda(lambda)
                .fit(x.view(), y.view())
                .unwrap();
            let report = gdt.report();
            assert!(
                report.is_converged(),
                "{family} λ={lambda} {shrink:?}: {:?} after {} iterations, ‖∇‖ = {:e}",
                report.status,
                report.iterations,
                report.gradient_norm
            );
            let proba = gdt.predict_proba(x.view()).unwrap();
            assert!(proba.iter().all(|p| p.is_finite()));
        }
    }
}

#[test]
fn the_discriminative_end_does_not_depend_on_shrinkage() {
    let (x, y) = data(3, 150, false);
    let fit = |shrink| {
        Gdt::params(Family::Lda)
            .shrinkage(shrink)
            .lambda(0.0)
            .fit(x.view(), y.view())
            .unwrap()
    };
    let (plain, shrunk) = (
        fit(CovarianceShrinkage::None),
        fit(CovarianceShrinkage::ScaledIdentity(0.5)),
    );
    assert!(plain.report().is_converged() && shrunk.report().is_converged());
    let (a, b) = (
        plain.predict_proba(x.view()).unwrap(),
        shrunk.predict_proba(x.view()).unwrap(),
    );
    for (p, q) in a.iter().zip(b.iter()) {
        assert!((p - q).abs() < 1e-6, "{p} vs {q}");
    }
}

#[test]
fn shrinkage_moves_the_intermediate_fit() {
    // λ > 0 carries the prior: the fits with and without it differ.
    let (x, y) = data(5, 60, false);
    let fit = |shrink| {
        Gdt::params(Family::Qda)
            .shrinkage(shrink)
            .lambda(0.5)
            .fit(x.view(), y.view())
            .unwrap()
            .predict_proba(x.view())
            .unwrap()
    };
    let (a, b) = (
        fit(CovarianceShrinkage::None),
        fit(CovarianceShrinkage::Identity(0.5)),
    );
    let largest = a
        .iter()
        .zip(b.iter())
        .map(|(p, q)| (p - q).abs())
        .fold(0.0, f64::max);
    assert!(largest > 1e-3, "largest change {largest}");
}

#[test]
fn bad_shrinkage_is_named() {
    let (x, y) = data(1, 30, false);
    for params in [
        Gdt::params(Family::Lda).shrinkage(CovarianceShrinkage::ScaledIdentity(1.0)),
        Gdt::params(Family::Lda).shrinkage(CovarianceShrinkage::Identity(-0.1)),
        Gdt::params(Family::Qda).shrinkage(CovarianceShrinkage::Identity(f64::NAN)),
        Gdt::params(Family::Balls1).shrinkage(CovarianceShrinkage::Identity(0.1)),
        Gdt::params(Family::SharedDiagonal).shrinkage(CovarianceShrinkage::ScaledIdentity(0.1)),
    ] {
        match params.check_ref() {
            Err(Error::InvalidParameter { name, .. }) => assert_eq!(name, "shrinkage"),
            other => panic!("expected an invalid `shrinkage`, got {other:?}"),
        }
        assert!(params.fit(x.view(), y.view()).is_err());
    }
}
