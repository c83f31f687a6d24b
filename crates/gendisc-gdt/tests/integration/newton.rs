//! Newton's method on the GDT objective (the paper's §3 alternative to conjugate gradient):
//! it reaches the optimum conjugate gradient reaches, fills its report, keeps `λ = 1` the
//! generative fit, and its settings are validated.

use gendisc_core::linalg::eigh;
use gendisc_core::{Convergence, Error, Fit, ParamGuard};
use gendisc_data::generators::BouchardTriggsSimulation;
use gendisc_gdt::{
    default_method, generative_theta, objective_and_gradient, objective_hessian,
    paper_conjugate_gradient, paper_conjugate_gradient_settings, Family, Gdt, Method,
};
use gendisc_optim::{ConjugateGradientSettings, NewtonSettings, Status};
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

/// `n` rows in `d` dimensions from `k` overlapping Gaussian classes (never separable at these
/// sizes), every class present.
fn overlapping(seed: u64, n: usize, d: usize, k: usize) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let y = Array1::from_shape_fn(n, |i| i % k);
    let x = Array2::from_shape_fn((n, d), |(i, j)| {
        let z: f64 = rng.sample(StandardNormal);
        z * (1.0 + 0.3 * j as f64) + if j == 0 { 0.8 * y[i] as f64 } else { 0.0 }
    });
    (x, y)
}

/// The paper's second simulation (§4): a Gaussian model that is wrong, so that λ matters.
fn correlated_uniform(seed: u64, n: usize) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    BouchardTriggsSimulation::CorrelatedUniform.sample(n, &mut rng)
}

/// Conjugate gradient run far past its default stopping rule, as the reference optimum.
fn tight_cg() -> Method {
    Method::ConjugateGradient(ConjugateGradientSettings {
        gradient_tolerance: 1e-9,
        value_tolerance: 0.0,
        max_iterations: 20_000,
        ..paper_conjugate_gradient_settings()
    })
}

#[test]
fn newton_reaches_the_conjugate_gradient_optimum() {
    let sets = [
        ("overlapping K=2 d=2", overlapping(1, 80, 2, 2)),
        ("overlapping K=3 d=3", overlapping(2, 120, 3, 3)),
        ("correlated uniform n=100", correlated_uniform(3, 100)),
    ];
    for (name, (x, y)) in &sets {
        let k = y.iter().max().unwrap() + 1;
        for family in [
            Family::Lda,
            Family::Qda,
            Family::Balls1,
            Family::Balls2,
            Family::SharedDiagonal,
        ] {
            if family == Family::SharedDiagonal && k != 2 {
                continue;
            }
            for lambda in [0.0, 0.5] {
                // Balls2's discriminative end has no maximiser: a component keeps sharpening.
                if family == Family::Balls2 && lambda == 0.0 {
                    continue;
                }
                let params = |solver| Gdt::params(family).lambda(lambda).solver(solver);
                let newton = params(default_method()).fit(x.view(), y.view()).unwrap();
                let cg = params(tight_cg()).fit(x.view(), y.view()).unwrap();
                let (rn, rc) = (newton.report(), cg.report());
                let what = format!("{name}, {family}, λ = {lambda}: Newton {rn:?}, CG {rc:?}");
                assert_eq!(rn.status, Status::Converged, "{what}");
                assert!(rn.iterations >= 1 && rn.iterations <= 100, "{what}");
                assert!(
                    rn.gradient_norm <= 1e-7 * rn.objective.abs().max(1.0),
                    "{what}"
                );
                assert!(rn.indefinite_hessians <= rn.iterations, "{what}");
                assert!(
                    (rn.objective - rc.objective).abs() <= 1e-8 * rc.objective.abs(),
                    "{what}"
                );
                // The report's objective is the objective at the returned θ.
                let check = Gdt::params(family).lambda(lambda).check().unwrap();
                let (value, gradient) =
                    objective_and_gradient(&check, newton.theta(), x.view(), y.view(), None)
                        .unwrap();
                assert_eq!(value, rn.objective, "{what}");
                assert_eq!(gradient.dot(&gradient).sqrt(), rn.gradient_norm, "{what}");
            }
        }
    }
}

#[test]
fn newton_needs_far_fewer_iterations_than_conjugate_gradient() {
    // Quadratic convergence: a handful of Newton steps where CG needs tens.
    let (x, y) = correlated_uniform(4, 300);
    let fit = |solver| {
        Gdt::params(Family::Lda)
            .lambda(0.5)
            .solver(solver)
            .fit(x.view(), y.view())
            .unwrap()
    };
    let newton = fit(default_method());
    let cg = fit(paper_conjugate_gradient());
    // The paper's CG ends on its value test short of the gradient criterion (a stall).
    assert!(newton.report().is_converged(), "{:?}", newton.report());
    assert!(
        matches!(cg.report().status, Status::Converged | Status::Stalled),
        "{:?}",
        cg.report()
    );
    assert!(
        newton.report().iterations * 3 < cg.report().iterations,
        "Newton {:?} vs CG {:?}",
        newton.report(),
        cg.report()
    );
    // Newton's stopping rule is the tighter one.
    assert!(newton.report().objective <= cg.report().objective);
}

#[test]
fn lambda_one_with_newton_is_the_generative_fit() {
    let (x, y) = overlapping(5, 60, 3, 3);
    for family in [Family::Lda, Family::Qda, Family::Balls1, Family::Balls2] {
        let params = Gdt::params(family)
            .lambda(1.0)
            .solver(default_method())
            .check()
            .unwrap();
        let m = params.fit(x.view(), y.view()).unwrap();
        let start = generative_theta(&params, x.view(), y.view(), None).unwrap();
        assert_eq!(m.theta(), start.view(), "{family}");
        assert_eq!(m.report().iterations, 0);
        assert_eq!(m.report().indefinite_hessians, 0);
        // Warm-started away from it, Newton walks back to the same generative fit (the
        // closed-form families, whose maximiser of L_gen is unique).
        if family != Family::Balls2 {
            let away = Gdt::params(family)
                .lambda(0.5)
                .solver(default_method())
                .fit(x.view(), y.view())
                .unwrap();
            let back = Gdt::params(family)
                .lambda(1.0 - 1e-12)
                .solver(default_method())
                .check()
                .unwrap()
                .fit_from(&away, x.view(), y.view(), None)
                .unwrap();
            assert!(
                back.report().is_converged(),
                "{family}: {:?}",
                back.report()
            );
            for (a, b) in back.theta().iter().zip(start.iter()) {
                assert!(
                    (a - b).abs() < 1e-6 * (1.0 + b.abs()),
                    "{family}: {a} vs {b}"
                );
            }
        }
    }
}

#[test]
fn the_discriminative_hessian_is_singular_and_reported() {
    // At λ = 0 only the conditional p(y | x) matters: LDA's (K − 1) + K d + d(d + 1)/2
    // parameters reach it through the (K − 1)(d + 1) coefficients of its log-odds, so at the
    // maximiser the Hessian has rank at most (K − 1)(d + 1) (the first-order term vanishes
    // there) — the non-uniqueness of eq. (3). The fit therefore solves the convex problem in
    // those coefficients and maps the maximiser back; in θ it then meets the criterion at once.
    let (k, d) = (3, 2);
    let (x, y) = overlapping(6, 150, d, k);
    let params = Gdt::params(Family::Lda)
        .lambda(0.0)
        .solver(default_method())
        .check()
        .unwrap();
    let m = params.fit(x.view(), y.view()).unwrap();
    assert!(m.report().is_converged(), "{:?}", m.report());
    assert!(m.report().gradient_norm <= 1e-8, "{:?}", m.report());
    let h = objective_hessian(&params, m.theta(), x.view(), y.view(), None).unwrap();
    let eig = eigh(h.view()).unwrap();
    let largest = eig.eigenvalues.iter().fold(0.0_f64, |a, &v| a.max(v.abs()));
    let rank = eig
        .eigenvalues
        .iter()
        .filter(|&&v| v > 1e-7 * largest)
        .count();
    assert_eq!(h.nrows(), (k - 1) + k * d + d * (d + 1) / 2);
    assert!(
        rank <= (k - 1) * (d + 1),
        "rank {rank}: {:?}",
        eig.eigenvalues
    );
    assert!(
        eig.eigenvalues.iter().all(|&v| v > -1e-7 * largest),
        "a maximum: {:?}",
        eig.eigenvalues
    );
    // Between the ends the maximiser is unique and the Hessian positive definite there.
    let mid = Gdt::params(Family::Lda)
        .lambda(0.5)
        .solver(default_method())
        .check()
        .unwrap();
    let m = mid.fit(x.view(), y.view()).unwrap();
    let h = objective_hessian(&mid, m.theta(), x.view(), y.view(), None).unwrap();
    assert!(eigh(h.view()).unwrap().eigenvalues.iter().all(|&v| v > 0.0));
}

#[test]
fn invalid_newton_settings_are_named_at_validation() {
    for (settings, name) in [
        (
            NewtonSettings {
                armijo_c1: 1.5,
                ..NewtonSettings::default()
            },
            "armijo_c1",
        ),
        (
            NewtonSettings {
                gradient_tolerance: f64::NAN,
                ..NewtonSettings::default()
            },
            "gradient_tolerance",
        ),
        (
            NewtonSettings {
                initial_ridge: 0.0,
                ..NewtonSettings::default()
            },
            "initial_ridge",
        ),
    ] {
        match Gdt::params(Family::Lda)
            .solver(Method::Newton(settings))
            .check()
        {
            Err(Error::InvalidParameter { name: n, .. }) => assert_eq!(n, name),
            other => panic!("{name}: expected InvalidParameter, got {other:?}"),
        }
    }
}

#[test]
fn the_hessian_refuses_bad_input() {
    let (x, y) = overlapping(7, 20, 2, 2);
    let params = Gdt::params(Family::Qda).check().unwrap();
    let theta = generative_theta(&params, x.view(), y.view(), None).unwrap();
    let short = theta.slice(ndarray::s![1..]).to_owned();
    assert!(matches!(
        objective_hessian(&params, short.view(), x.view(), y.view(), None),
        Err(Error::ShapeMismatch { .. })
    ));
    let mut nan = theta.clone();
    nan[3] = f64::NAN;
    assert!(matches!(
        objective_hessian(&params, nan.view(), x.view(), y.view(), None),
        Err(Error::NonFinite { .. })
    ));
    let mut bad_x = x.clone();
    bad_x[[2, 1]] = f64::INFINITY;
    assert!(matches!(
        objective_hessian(&params, theta.view(), bad_x.view(), y.view(), None),
        Err(Error::NonFinite { .. })
    ));
    let bad_y = Array1::from_elem(x.nrows() - 1, 0);
    assert!(objective_hessian(&params, theta.view(), x.view(), bad_y.view(), None).is_err());
}

#[test]
fn newton_reaches_the_optimum_where_default_cg_runs_out_of_iterations() {
    // Few rows, many parameters: QDA on 50 rows of the correlated-uniform simulation (the third
    // data set the bench draws from seed 300). The default CG stops at its 1,000-iteration cap
    // short of the optimum; Newton reaches it in a few steps. Quoted in docs/bouchard-triggs.md.
    let mut rng = ChaCha8Rng::seed_from_u64(300);
    let _ = BouchardTriggsSimulation::CorrelatedUniform.sample(300, &mut rng);
    let _ = BouchardTriggsSimulation::GaussianIdentity.sample(300, &mut rng);
    let (x, y) = BouchardTriggsSimulation::CorrelatedUniform.sample(50, &mut rng);
    // The paper's CG on θ as it is, as the paper ran it (not on whitened inputs).
    let fit = |solver| {
        Gdt::params(Family::Qda)
            .lambda(0.25)
            .solver(solver)
            .whiten_inputs(false)
            .fit(x.view(), y.view())
            .unwrap()
    };
    let (newton, cg) = (fit(default_method()), fit(paper_conjugate_gradient()));
    assert_eq!(
        cg.report().status,
        Status::MaxIterations,
        "{:?}",
        cg.report()
    );
    assert!(newton.report().is_converged(), "{:?}", newton.report());
    assert!(newton.report().iterations <= 20, "{:?}", newton.report());
    let gap = cg.report().objective - newton.report().objective;
    assert!(
        gap > 1e-4,
        "CG {:?} vs Newton {:?}",
        cg.report(),
        newton.report()
    );
}

#[test]
fn newton_models_round_trip_and_older_reports_still_load() {
    let (x, y) = overlapping(8, 40, 2, 2);
    let m = Gdt::params(Family::Qda)
        .lambda(0.5)
        .solver(default_method())
        .fit(x.view(), y.view())
        .unwrap();
    let json = serde_json::to_string(&m).unwrap();
    let back: Gdt = serde_json::from_str(&json).unwrap();
    assert_eq!(m, back);
    // A model saved before the report counted indefinite Hessians loads with a count of 0.
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    value["report"]
        .as_object_mut()
        .unwrap()
        .remove("indefinite_hessians")
        .unwrap();
    let old: Gdt = serde_json::from_value(value).unwrap();
    assert_eq!(old.report().indefinite_hessians, 0);
    assert_eq!(old.theta(), m.theta());
}
