//! `require_convergence`: a bilevel fit that stops at a cap — the alternation's or Clarabel's —
//! is returned by default (its report says so) and is an `Error::NotConverged` naming the loop
//! when convergence is required.

use gendisc_bilevel::{BilevelClassifier, BilevelParams, FitStatus, GenerativePrior};
use gendisc_core::{Convergence, Error, Fit};
use gendisc_optim::{SocpSettings, Status};
use ndarray::{Array1, Array2};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

/// `m` rows per class from N(∓1.2 e₁, 0.7² I) in three dimensions.
fn data(m: usize, seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let x = Array2::from_shape_fn((2 * m, 3), |(i, j)| {
        let z: f64 = StandardNormal.sample(&mut rng);
        let centre = if i % 2 == 1 { 1.2 } else { -1.2 };
        0.7 * z + if j == 0 { centre } else { 0.0 }
    });
    (x, Array1::from_shape_fn(2 * m, |i| i % 2))
}

fn params() -> BilevelParams {
    let prior = GenerativePrior::diagonal(
        [
            Array1::from(vec![-1.0, 0.0, 0.0]),
            Array1::from(vec![1.0, 0.0, 0.0]),
        ],
        [Array1::from_elem(3, 0.05), Array1::from_elem(3, 0.05)],
    )
    .unwrap();
    BilevelClassifier::params(prior)
}

/// The `NotConverged` fields of `result`, which must be that error.
fn not_converged<T: std::fmt::Debug>(result: Result<T, Error>) -> (String, usize, String) {
    match result {
        Err(Error::NotConverged {
            what,
            iterations,
            detail,
        }) => (what, iterations, detail),
        other => panic!("expected NotConverged, got {other:?}"),
    }
}

#[test]
fn the_alternation_at_its_cap_is_an_error_only_when_convergence_is_required() {
    let (x, y) = data(10, 1);
    // A tolerance no second alternation meets: the fit stops at its cap of 2.
    let capped = params().max_iter(2).tol(1e-15);
    let model = capped.fit(x.view(), y.view()).unwrap();
    let report = model.report();
    assert_eq!(report.status, FitStatus::MaxIterations);
    assert_eq!(report.n_iterations(), 2);
    assert!(!report.is_converged());
    let last_change = report.iterations[1].change;
    assert!(last_change > 1e-15, "{last_change}");

    let (what, iterations, detail) =
        not_converged(capped.require_convergence(true).fit(x.view(), y.view()));
    assert!(what.contains("bilevel alternation"), "{what}");
    assert_eq!(iterations, 2);
    assert!(detail.contains("cap of 2 alternations"), "{detail}");
    assert!(detail.contains(&format!("{last_change:.3e}")), "{detail}");

    // The sparse fit obeys it too.
    let csr = sprs::CsMat::csr_from_dense(x.view(), 0.0);
    let strict =
        gendisc_core::ParamGuard::check(params().max_iter(2).tol(1e-15).require_convergence(true))
            .unwrap();
    not_converged(strict.fit_sparse(csr.view(), y.view()));
}

#[test]
fn requiring_convergence_changes_no_fit_that_converges() {
    for seed in 1..4 {
        let (x, y) = data(10, seed);
        let free = params().fit(x.view(), y.view()).unwrap();
        assert!(free.report().is_converged());
        let strict = params()
            .require_convergence(true)
            .fit(x.view(), y.view())
            .unwrap();
        assert_eq!(free, strict);
    }
}

#[test]
fn a_step_1_program_stopped_at_clarabels_cap_is_an_error_when_convergence_is_required() {
    let mut reduced = 0;
    for seed in 1..4 {
        let (x, y) = data(10, seed);
        for cap in 1..20 {
            let settings = SocpSettings {
                max_iter: cap,
                ..SocpSettings::default()
            };
            let lenient = params().socp(settings).fit(x.view(), y.view());
            let strict = params()
                .socp(settings)
                .require_convergence(true)
                .fit(x.view(), y.view());
            let model = match lenient {
                // Short of even the reduced tolerances: an error with or without the setting.
                Err(Error::NotConverged { .. }) => {
                    not_converged(strict);
                    continue;
                }
                other => other.unwrap(),
            };
            let almost = model
                .report()
                .iterations
                .iter()
                .any(|i| i.socp_status == Status::Stalled);
            if !almost {
                assert_eq!(strict.unwrap(), model);
                continue;
            }
            reduced += 1;
            assert!(!model.report().is_converged());
            let (what, iterations, detail) = not_converged(strict);
            assert!(
                what.contains("Clarabel on the step-1 program of bilevel alternation 1"),
                "{what}"
            );
            assert_eq!(iterations, cap as usize);
            assert!(detail.contains("reduced tolerances"), "{detail}");
        }
    }
    assert!(reduced > 0, "no cap gave a solve at reduced tolerances");
}
