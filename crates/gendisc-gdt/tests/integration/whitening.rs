//! First-order solvers on whitened inputs: on ill-conditioned rows L-BFGS reaches the optimum
//! that trust-region Newton finds, the report's criterion holds in the model's own
//! coordinates, and without whitening the same solver stops short.

use gendisc_core::{Convergence, Fit, ParamGuard};
use gendisc_gdt::{default_method, Family, Gdt, GdtParams, Method};

use crate::criterion::gradient_norm_and_bound;
use gendisc_optim::{LbfgsSettings, Status};
use ndarray::{Array1, Array2};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

/// Two overlapping Gaussian classes of 60 rows each in six dimensions, whose features are
/// correlated neighbours (an AR(1) chain, ρ = 0.9) on scales from 1 down to 0.003: the pooled
/// covariance's condition number is about 10⁵, as on spectra such as UCI sonar's
/// (9·10⁴).
fn ill_conditioned(seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let d = 6;
    let (n, rho) = (120, 0.9_f64);
    let mut x = Array2::zeros((n, d));
    for i in 0..n {
        let mut previous = 0.0;
        for j in 0..d {
            let z: f64 = StandardNormal.sample(&mut rng);
            let v = rho * previous + (1.0 - rho * rho).sqrt() * z;
            previous = v;
            let shift = if i % 2 == 1 { 0.6 } else { 0.0 };
            x[[i, j]] = (v + shift) * 10f64.powf(-2.5 * j as f64 / (d - 1) as f64);
        }
    }
    let y = Array1::from_shape_fn(n, |i| i % 2);
    (x, y)
}

/// GDT's default L-BFGS (the method `Auto` uses beyond its Newton dimension), forced on a
/// small problem so that it can be compared with Newton's optimum.
fn lbfgs() -> Method {
    match default_method() {
        Method::Auto(auto) => Method::Lbfgs(auto.lbfgs),
        _ => Method::Lbfgs(LbfgsSettings::default()),
    }
}

fn params(family: Family, lambda: f64) -> GdtParams {
    Gdt::params(family).lambda(lambda)
}

#[test]
fn whitened_lbfgs_reaches_newtons_optimum_where_plain_lbfgs_stops_short() {
    let (x, y) = ill_conditioned(41);
    for family in [Family::Lda, Family::Qda, Family::SharedDiagonal] {
        for lambda in [0.25, 0.75] {
            let newton = params(family, lambda).fit(x.view(), y.view()).unwrap();
            let whitened = params(family, lambda)
                .solver(lbfgs())
                .fit(x.view(), y.view())
                .unwrap();
            let plain = params(family, lambda)
                .solver(lbfgs())
                .whiten_inputs(false)
                .fit(x.view(), y.view())
                .unwrap();
            let case = format!("{family} at λ = {lambda}");
            assert!(
                newton.report().is_converged(),
                "{case}: {:?}",
                newton.report()
            );
            // Whitening removes the pooled covariance, which is all of LDA's and the shared
            // diagonal's; QDA's classes keep their own, and L-BFGS may stall a little short of
            // the criterion there, at the optimum (under the LAPACK backend, by a factor 1.35).
            let status = whitened.report().status;
            if family == Family::Qda {
                assert!(
                    matches!(status, Status::Converged | Status::Stalled),
                    "{case}: {:?}",
                    whitened.report()
                );
            } else {
                assert_eq!(status, Status::Converged, "{case}: {:?}", whitened.report());
            }
            let (n, w) = (newton.report().objective, whitened.report().objective);
            assert!(
                (w - n).abs() <= 1e-9 * n.abs().max(1.0),
                "{case}: whitened L-BFGS {w} against Newton {n}"
            );
            // The criterion is the model's own: checked here from the public objective.
            let (norm, bound) = gradient_norm_and_bound(&whitened, &params(family, lambda), &x, &y);
            if status == Status::Converged {
                assert!(
                    norm <= bound,
                    "{case}: gradient norm {norm:e} in the model's coordinates"
                );
            } else {
                assert!(
                    norm <= 10.0 * bound,
                    "{case}: gradient norm {norm:e}, stalled far off"
                );
            }
            if family != Family::SharedDiagonal {
                // On θ as it is, the same solver needs far more iterations or stops short.
                assert!(
                    !plain.report().is_converged()
                        || plain.report().iterations > 5 * whitened.report().iterations,
                    "{case}: plain {:?} against whitened {:?}",
                    plain.report(),
                    whitened.report()
                );
            }
        }
    }
}

#[test]
fn a_family_without_an_affine_closure_runs_as_before() {
    // Balls1 is closed under no per-feature map: it runs the solver on θ as it is, so the
    // setting changes nothing.
    let (x, y) = ill_conditioned(42);
    let fit = |whiten| {
        params(Family::Balls1, 0.5)
            .solver(lbfgs())
            .whiten_inputs(whiten)
            .fit(x.view(), y.view())
            .unwrap()
    };
    let (on, off) = (fit(true), fit(false));
    assert_eq!(on.theta(), off.theta());
    assert_eq!(on.report(), off.report());
}

/// The ill-conditioned rows with a column that is an exact combination of two others and a
/// constant one (as one-hot indicators and a count's "measured" flag make them): the pooled
/// covariance is singular, and only shrinkage makes LDA and QDA fit.
fn collinear(seed: u64) -> (Array2<f64>, Array1<usize>) {
    let (x, y) = ill_conditioned(seed);
    let n = x.nrows();
    let extra = Array2::from_shape_fn((n, 2), |(i, j)| {
        if j == 0 {
            x[[i, 0]] - 3.0 * x[[i, 2]]
        } else {
            1.0
        }
    });
    (ndarray::concatenate![ndarray::Axis(1), x, extra], y)
}

#[test]
fn shrunk_fits_are_whitened_by_the_shrunk_covariance_and_reach_newtons_optimum() {
    // The prior maps to one in the metric AᵀA: the whitened fit has the maximiser of the
    // fit on θ as it is, which Newton without whitening finds independently.
    let (x, y) = collinear(45);
    for family in [Family::Lda, Family::Qda] {
        for shrinkage in [
            gendisc_gdt::CovarianceShrinkage::ScaledIdentity(0.05),
            gendisc_gdt::CovarianceShrinkage::Identity(0.3),
        ] {
            let shrunk = |lambda| params(family, lambda).shrinkage(shrinkage);
            for lambda in [0.25, 0.75] {
                let case = format!("{family} {shrinkage:?} λ = {lambda}");
                let reference = shrunk(lambda)
                    .whiten_inputs(false)
                    .fit(x.view(), y.view())
                    .unwrap();
                assert!(
                    reference.report().is_converged(),
                    "{case}: {:?}",
                    reference.report()
                );
                for solver in [default_method(), lbfgs()] {
                    let whitened = shrunk(lambda)
                        .solver(solver)
                        .fit(x.view(), y.view())
                        .unwrap();
                    let r = whitened.report();
                    assert!(
                        matches!(r.status, Status::Converged | Status::Stalled),
                        "{case}: {r:?}"
                    );
                    let (n, w) = (reference.report().objective, r.objective);
                    assert!(
                        (w - n).abs() <= 1e-9 * n.abs().max(1.0),
                        "{case}: whitened {w} against Newton on θ {n}"
                    );
                    // The criterion is the shrunk objective's, in the model's coordinates.
                    let (norm, bound) = gradient_norm_and_bound(&whitened, &shrunk(lambda), &x, &y);
                    if r.status == Status::Converged {
                        assert!(norm <= bound, "{case}: ‖∇f‖ = {norm:e} > {bound:e}");
                    }
                }
                // L-BFGS on θ as it is: under light shrinkage toward the data's own scale the
                // problem keeps the rows' conditioning, and it needs far more iterations or stops
                // at its cap (1427–2000 against 10–23 whitened); strong shrinkage toward the
                // identity conditions it by itself, and whitening still does not cost iterations.
                let plain = shrunk(lambda)
                    .solver(lbfgs())
                    .whiten_inputs(false)
                    .fit(x.view(), y.view())
                    .unwrap();
                let whitened = shrunk(lambda)
                    .solver(lbfgs())
                    .fit(x.view(), y.view())
                    .unwrap();
                let (p, w) = (plain.report(), whitened.report());
                let light = matches!(
                    shrinkage,
                    gendisc_gdt::CovarianceShrinkage::ScaledIdentity(_)
                );
                assert!(
                    if light {
                        !p.is_converged() || p.iterations > 20 * w.iterations
                    } else {
                        w.iterations <= p.iterations
                    },
                    "{case}: plain {p:?} against whitened {w:?}"
                );
            }
        }
    }
}

#[test]
fn the_setting_round_trips_and_is_left_out_at_its_default() {
    let default = serde_json::to_string(&params(Family::Lda, 0.5)).unwrap();
    assert!(!default.contains("whiten"), "{default}");
    let off = params(Family::Lda, 0.5).whiten_inputs(false);
    let json = serde_json::to_string(&off).unwrap();
    assert!(json.contains("\"whiten_inputs\":false"), "{json}");
    let back: GdtParams = serde_json::from_str(&json).unwrap();
    assert!(!back.check().unwrap().whiten_inputs());
    let old: GdtParams = serde_json::from_str(&default).unwrap();
    assert!(old.check().unwrap().whiten_inputs());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Every whitened L-BFGS fit reported `Converged` satisfies the first-order condition in the
    /// model's own coordinates, on random rows with random column scales and correlations.
    #[test]
    fn converged_whitened_fits_satisfy_the_first_order_condition_in_the_models_coordinates(
        seed in proptest::prelude::any::<u64>(),
        lambda in proptest::sample::select(vec![0.1, 0.5, 0.9]),
        family in proptest::sample::select(vec![Family::Lda, Family::Qda, Family::SharedDiagonal]),
        decades in 0.0f64..3.0,
        rho in 0.0f64..0.95,
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (n, d) = (50, 4);
        let mut x = Array2::zeros((n, d));
        for i in 0..n {
            let mut previous = 0.0;
            for j in 0..d {
                let z: f64 = StandardNormal.sample(&mut rng);
                previous = rho * previous + (1.0 - rho * rho).sqrt() * z;
                let shift = if i % 2 == 1 { 0.8 } else { 0.0 };
                x[[i, j]] = (previous + shift) * 10f64.powf(-decades * j as f64 / (d - 1) as f64);
            }
        }
        let y = Array1::from_shape_fn(n, |i| i % 2);
        let model = params(family, lambda).solver(lbfgs()).fit(x.view(), y.view()).unwrap();
        let r = model.report();
        if r.status == Status::Converged {
            let (norm, bound) = gradient_norm_and_bound(&model, &params(family, lambda), &x, &y);
            proptest::prop_assert!(
                norm <= bound,
                "{} λ = {}: ‖∇f‖ = {:e}, {:?}", family, lambda, norm, r
            );
        }
    }
}

#[test]
fn auto_runs_whitened_lbfgs_where_a_hessian_would_be_dear_and_reaches_newtons_optimum() {
    // With a Hessian budget of one operation every fit is "dear": Auto runs whitened L-BFGS,
    // and trust-region Newton finishes where it stops short.
    let (x, y) = ill_conditioned(44);
    let budget = match default_method() {
        Method::Auto(auto) => Method::Auto(gendisc_optim::AutoSettings {
            max_hessian_cost: 1.0,
            ..auto
        }),
        other => other,
    };
    for family in [Family::Lda, Family::Qda] {
        let newton = params(family, 0.5).fit(x.view(), y.view()).unwrap();
        let auto = params(family, 0.5)
            .solver(budget)
            .fit(x.view(), y.view())
            .unwrap();
        assert!(
            auto.report().is_converged(),
            "{family}: {:?}",
            auto.report()
        );
        assert_eq!(auto.report().indefinite_hessians, 0);
        let (n, a) = (newton.report().objective, auto.report().objective);
        assert!(
            (a - n).abs() <= 1e-9 * n.abs().max(1.0),
            "{family}: {a} against {n}"
        );
        // L-BFGS's iterations are many more than Newton's few.
        assert!(
            auto.report().iterations > newton.report().iterations,
            "{family}"
        );
    }
}
