//! A fit of `θ` that stops at its iteration cap returns the hybrid, flagged, by default;
//! `require_convergence(true)` makes it an error, for every solver and for text.

use gendisc_core::{Error, Fit};
use gendisc_generative::{GaussianNb, GaussianNbParams, MultinomialNb};
use gendisc_hybrid::{Hybrid, HybridParams, Intercept, ThetaSolver};
use gendisc_optim::Status;
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use sprs::CsMat;

/// Overlapping classes in two regions of two features.
fn data(n_classes: usize) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let y = Array1::from_shape_fn(90, |i| i % n_classes);
    let x = Array2::from_shape_fn((90, 4), |(i, j)| {
        0.6 * y[i] as f64 * (j % 2) as f64 + rng.sample::<f64, _>(StandardNormal)
    });
    (x, y)
}

fn params() -> HybridParams<GaussianNbParams> {
    Hybrid::params(GaussianNb::params()).regions(vec![vec![0, 1], vec![2, 3]])
}

#[test]
fn every_solver_at_its_cap() {
    let cases = [
        (2, ThetaSolver::Glm, Intercept::Discriminative),
        (2, ThetaSolver::Newton, Intercept::Discriminative),
        (2, ThetaSolver::Multiclass, Intercept::LogPriorRatio),
        (3, ThetaSolver::Multiclass, Intercept::Discriminative),
    ];
    for (n_classes, solver, intercept) in cases {
        let (x, y) = data(n_classes);
        let capped = params()
            .solver(solver)
            .intercept(intercept)
            .max_iterations(1);
        let hybrid = capped.fit(x.view(), y.view()).unwrap();
        let report = hybrid.report().unwrap();
        assert_eq!(report.status, Status::MaxIterations, "{solver:?}");
        assert_eq!(report.iterations, 1, "{solver:?}");
        match capped.require_convergence(true).fit(x.view(), y.view()) {
            Err(e @ Error::NotConverged { iterations: 1, .. }) => {
                let message = e.to_string();
                assert!(
                    message.contains("hybrid") && message.contains(&format!("{solver:?}")),
                    "{message}"
                );
                assert!(message.contains("max_iterations"), "{message}");
            }
            other => panic!("{solver:?}: expected NotConverged, got {other:?}"),
        }
        // Asking changes nothing for a fit that converges.
        let free = params().solver(solver).intercept(intercept);
        assert_eq!(
            free.clone()
                .require_convergence(true)
                .fit(x.view(), y.view())
                .unwrap(),
            free.fit(x.view(), y.view()).unwrap()
        );
    }
}

#[test]
fn text_at_its_cap() {
    // Word j is more frequent in class j % 2, with some noise.
    let y = Array1::from_shape_fn(24, |i| i % 2);
    let counts = |salt: usize| {
        Array2::from_shape_fn((24, 4), |(i, j)| {
            (usize::from(j % 2 == y[i]) * 2 + (i * 7 + j * 3 + salt) % 3) as f64
        })
    };
    let (subject, body) = (counts(1), counts(2));
    let (s, b) = (
        CsMat::csr_from_dense(subject.view(), 0.0),
        CsMat::csr_from_dense(body.view(), 0.0),
    );
    let regions = [s.view(), b.view()];
    let capped = Hybrid::params(MultinomialNb::params())
        .prior_variance(1.0)
        .max_iterations(1);
    let hybrid = capped.fit_sparse(&regions, y.view()).unwrap();
    assert!(hybrid.report().unwrap().aliased_regions.is_empty());
    assert_eq!(hybrid.report().unwrap().status, Status::MaxIterations);
    assert!(matches!(
        capped
            .require_convergence(true)
            .fit_sparse(&regions, y.view()),
        Err(Error::NotConverged { iterations: 1, .. })
    ));
}

/// Parameters serialised before the setting existed read as not asking.
#[test]
fn older_serialised_parameters_do_not_ask() {
    let asked = serde_json::to_value(params().require_convergence(true)).unwrap();
    assert_eq!(asked["require_convergence"], true);
    let mut json = asked;
    json.as_object_mut().unwrap().remove("require_convergence");
    let read: HybridParams<GaussianNbParams> = serde_json::from_value(json).unwrap();
    assert_eq!(read, params());
}
