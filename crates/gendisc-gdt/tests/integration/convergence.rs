//! `require_convergence`: a fit that stops at a cap is returned by default (its report says
//! so) and is an `Error::NotConverged` naming the method when convergence is required.

use gendisc_core::{Convergence, Error, Fit, ParamGuard, SavedModel};
use gendisc_gdt::{
    paper_conjugate_gradient_settings, Family, Gdt, GdtCv, GdtParams, GdtValidParams, Method,
};
use gendisc_optim::{
    ConjugateGradientSettings, LbfgsSettings, NewtonSettings, Status, TrustRegionSettings,
};
use ndarray::{Array1, Array2};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

/// Two overlapping Gaussian classes of 30 rows each in three dimensions.
fn data(seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let x = Array2::from_shape_fn((60, 3), |(i, j)| {
        let z: f64 = StandardNormal.sample(&mut rng);
        z + if i % 2 == 1 && j == 0 { 1.0 } else { 0.0 }
    });
    let y = Array1::from_shape_fn(60, |i| i % 2);
    (x, y)
}

fn capped_solvers() -> [Method; 4] {
    [
        Method::TrustRegion(TrustRegionSettings {
            max_iterations: 2,
            ..TrustRegionSettings::default()
        }),
        Method::ConjugateGradient(ConjugateGradientSettings {
            max_iterations: 2,
            ..paper_conjugate_gradient_settings()
        }),
        Method::Lbfgs(LbfgsSettings {
            max_iterations: 2,
            ..LbfgsSettings::default()
        }),
        Method::Newton(NewtonSettings {
            max_iterations: 2,
            ..NewtonSettings::default()
        }),
    ]
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
fn a_fit_at_its_iteration_cap_is_an_error_only_when_convergence_is_required() {
    let (x, y) = data(1);
    for solver in capped_solvers() {
        let params = Gdt::params(Family::Qda).lambda(0.25).solver(solver);
        let model = params.clone().fit(x.view(), y.view()).unwrap();
        assert_eq!(model.report().status, Status::MaxIterations, "{solver:?}");
        assert_eq!(model.report().iterations, 2);

        let (what, iterations, detail) =
            not_converged(params.require_convergence(true).fit(x.view(), y.view()));
        assert!(what.starts_with("GDT QDA at λ = 0.25 ("), "{what}");
        assert_eq!(iterations, 2);
        assert!(detail.contains("maximum number of iterations"), "{detail}");
        assert!(
            detail.contains(&format!(
                "gradient norm {:.3e}",
                model.report().gradient_norm
            )),
            "{detail}"
        );
    }
}

#[test]
fn requiring_convergence_changes_no_fit_that_converges() {
    let (x, y) = data(2);
    for family in [Family::Lda, Family::Balls1, Family::SharedDiagonal] {
        for lambda in [1.0, 0.5] {
            let params = Gdt::params(family).lambda(lambda);
            let free = params.clone().fit(x.view(), y.view()).unwrap();
            assert!(free.report().is_converged(), "{family} at λ = {lambda}");
            let strict = params
                .require_convergence(true)
                .fit(x.view(), y.view())
                .unwrap();
            assert_eq!(free, strict);
        }
    }
}

#[test]
fn balls2_em_at_its_cap_is_an_error_when_convergence_is_required() {
    let (x, y) = data(3);
    let params = Gdt::params(Family::Balls2).em_max_iterations(1);
    // λ = 1 runs no optimiser: only EM can fail to converge.
    for lambda in [1.0, 0.5] {
        let model = params
            .clone()
            .lambda(lambda)
            .fit(x.view(), y.view())
            .unwrap();
        assert!(!model.report().start_converged);
        // At λ = 1 the estimator is EM's fit, and its status says where EM stopped; at λ < 1
        // the optimiser's criterion decides, the capped start being a warning.
        if lambda == 1.0 {
            assert_eq!(model.report().status(), Status::MaxIterations);
        } else {
            assert_eq!(model.report().status(), model.report().status);
        }
        assert!(model
            .fit_summary()
            .unwrap()
            .warnings
            .iter()
            .any(|w| w.contains("iteration cap")));
        let (what, iterations, detail) = not_converged(
            params
                .clone()
                .lambda(lambda)
                .require_convergence(true)
                .fit(x.view(), y.view()),
        );
        assert!(
            what.contains("EM of GDT's Balls2 generative start"),
            "{what}"
        );
        assert_eq!(iterations, 1);
        assert!(detail.contains("cap of 1 iterations"), "{detail}");
        assert!(detail.contains("log-likelihood change"), "{detail}");
    }

    // A warm start from such a fit carries the unconverged start along.
    let unconverged = params.clone().lambda(1.0).fit(x.view(), y.view()).unwrap();
    let strict = params
        .lambda(0.5)
        .require_convergence(true)
        .check()
        .unwrap();
    let (what, _, detail) = not_converged(strict.fit_from(&unconverged, x.view(), y.view(), None));
    assert!(what.starts_with("GDT Balls2 at λ = 0.5"), "{what}");
    assert!(detail.contains("warm start"), "{detail}");
}

#[test]
fn every_fit_of_a_path_obeys_the_setting() {
    let (x, y) = data(4);
    let [capped, ..] = capped_solvers();
    let strict = Gdt::params(Family::Lda)
        .solver(capped)
        .require_convergence(true)
        .check()
        .unwrap();
    // λ = 1 needs no iterations; λ = 0.5 stops at the cap.
    let (what, iterations, _) =
        not_converged(strict.fit_path(&[1.0, 0.5], x.view(), y.view(), None));
    assert!(what.starts_with("GDT LDA at λ = 0.5"), "{what}");
    assert_eq!(iterations, 2);
}

/// With convergence required, the first fit of the cross-validation that stops short is an
/// error naming it: here the path on all the training rows, which is fitted first.
#[test]
fn cross_validation_names_the_fit_that_did_not_converge() {
    let (x, y) = data(5);
    let [capped, ..] = capped_solvers();
    let gdt = Gdt::params(Family::Lda).solver(capped);
    let cv = |gdt: GdtParams, require: bool| {
        GdtCv::params(Family::Lda)
            .gdt(gdt)
            .grid(vec![1.0, 0.5])
            .n_folds(3)
            .require_convergence(require)
            .check()
            .unwrap()
            .fit(x.view(), y.view())
    };
    let lenient = cv(gdt.clone(), false).unwrap();
    assert!(lenient.selection().grid.contains(&lenient.lambda()));

    // Without the requirement λ = ½ is no candidate: its fit stopped at the cap.
    assert_eq!(lenient.lambda(), 1.0);
    assert_eq!(lenient.selection().candidates(), [true, false]);

    let (what, iterations, _) = not_converged(cv(gdt.clone(), true));
    assert!(
        what.contains("GDT LDA at λ = 0.5")
            && what.contains("the fit on all the training rows of the cross-validation"),
        "{what}"
    );
    assert_eq!(iterations, 2);
    // The estimator's own setting has the same effect.
    let (what, _, _) = not_converged(cv(gdt.require_convergence(true), false));
    assert!(what.contains("the fit on all the training rows"), "{what}");
}

#[test]
fn the_setting_is_serialised_and_absent_means_off() {
    let strict = Gdt::params(Family::Lda)
        .require_convergence(true)
        .check()
        .unwrap();
    let json = serde_json::to_value(&strict).unwrap();
    assert_eq!(json["require_convergence"], serde_json::json!(true));
    let back: GdtValidParams = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, strict);

    // Parameters written before the setting existed read as the default.
    let mut old = json;
    old.as_object_mut().unwrap().remove("require_convergence");
    let back: GdtValidParams = serde_json::from_value(old).unwrap();
    assert!(!back.require_convergence());
    assert_eq!(back, Gdt::params(Family::Lda).check().unwrap());

    let cv = GdtCv::params(Family::Qda).require_convergence(true);
    let mut json = serde_json::to_value(cv.check_ref().unwrap()).unwrap();
    assert_eq!(json["require_convergence"], serde_json::json!(true));
    json.as_object_mut().unwrap().remove("require_convergence");
    let back: gendisc_gdt::GdtCvValidParams = serde_json::from_value(json).unwrap();
    assert!(!back.require_convergence());
}

/// A Balls2 fit that stops short says what that means for its estimate: at `λ = 0` (no
/// certificate decides existence) and, without a variance floor, between the ends (`L_gen` is
/// unbounded); not with a floor, not for another family, and not for a fit that converged.
#[test]
fn capped_balls2_fits_warn_about_their_estimate() {
    let (x, y) = data(3);
    let capped = Method::TrustRegion(TrustRegionSettings {
        max_iterations: 2,
        ..TrustRegionSettings::default()
    });
    let balls2_warnings = |params: GdtParams| -> Vec<String> {
        let model = params.fit(x.view(), y.view()).unwrap();
        model
            .fit_summary()
            .unwrap()
            .warnings
            .into_iter()
            .filter(|w| w.starts_with("Balls2"))
            .collect()
    };
    let balls2 = |lambda: f64| Gdt::params(Family::Balls2).lambda(lambda);
    let at_zero = balls2_warnings(balls2(0.0).solver(capped));
    assert_eq!(at_zero.len(), 1, "{at_zero:?}");
    assert!(at_zero[0].contains("λ = 0"), "{at_zero:?}");
    let unfloored = balls2_warnings(balls2(0.5).solver(capped));
    assert_eq!(unfloored.len(), 1, "{unfloored:?}");
    assert!(unfloored[0].contains("variance floor"), "{unfloored:?}");
    assert!(balls2_warnings(balls2(0.5).variance_floor(0.01).solver(capped)).is_empty());
    assert!(balls2_warnings(balls2(0.5).variance_floor(0.01)).is_empty());
    assert!(balls2_warnings(Gdt::params(Family::Qda).lambda(0.0).solver(capped)).is_empty());
    // Cross-validation returns no such fit: a λ whose fit stops short is no candidate, and a
    // grid of nothing else is an error that says so.
    let error = GdtCv::params(Family::Balls2)
        .gdt(balls2(0.0).solver(capped))
        .grid(vec![0.0])
        .fit(x.view(), y.view())
        .unwrap_err();
    assert!(
        matches!(&error, gendisc_core::Error::Infeasible { detail, .. } if detail.contains("add a λ > 0")),
        "{error}"
    );
}
