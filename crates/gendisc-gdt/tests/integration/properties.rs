//! Invariants of the GDT estimator: the analytic gradient (eq. 8) against finite differences
//! for every family and both [`Priors`] settings, and the two limits λ = 1 (the generative fit) and λ = 0 (the maximum
//! conditional likelihood: linear logistic regression for LDA and the shared diagonal,
//! quadratic logistic regression for QDA).

use approx::assert_relative_eq;
use gendisc_core::{ConditionalModel, Convergence, Fit, Generative, ParamGuard};
use gendisc_discriminative::logistic::LogisticRegression;
use gendisc_gdt::{
    generative_theta, objective_and_gradient, objective_hessian, Family, Gdt, GdtValidParams,
    Method, Priors,
};
use gendisc_generative::{
    Balls1, Balls2, ClassPriors, CovarianceShrinkage, GaussianNb, Lda, Qda, VarianceStructure,
};
use ndarray::{Array1, Array2};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

const FAMILIES: [Family; 5] = [
    Family::Lda,
    Family::Qda,
    Family::Balls1,
    Family::Balls2,
    Family::SharedDiagonal,
];

/// Both prior settings, for every family (each family's default is one of them).
fn priors() -> impl Strategy<Value = Priors> {
    prop_oneof![Just(Priors::Fixed), Just(Priors::Estimated)]
}

/// No variance floor, or a relative one large enough to bind some components (Balls2 only;
/// the other families ignore it here).
fn variance_floor() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), 0.01f64..0.5]
}

/// No shrinkage half of the time, else a shrinkage in (0, 0.9] (LDA and QDA only).
fn shrinkage() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), 0.01f64..=0.9]
}

/// Shrinkage of coefficient `gamma`, toward the scaled identity for even seeds and the
/// identity for odd ones.
fn regulariser(seed: u64, gamma: f64) -> CovarianceShrinkage {
    if gamma == 0.0 {
        CovarianceShrinkage::None
    } else if seed.is_multiple_of(2) {
        CovarianceShrinkage::ScaledIdentity(gamma)
    } else {
        CovarianceShrinkage::Identity(gamma)
    }
}

/// The gendisc-generative prior setting that matches `priors`.
fn class_priors(priors: Priors) -> ClassPriors {
    match priors {
        Priors::Fixed => ClassPriors::Uniform,
        Priors::Estimated => ClassPriors::Empirical,
    }
}

/// `n` rows in `d` dimensions from `k` overlapping Gaussian classes, every class present.
fn data(seed: u64, n: usize, d: usize, k: usize) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let y = Array1::from_shape_fn(n, |i| i % k);
    let x = Array2::from_shape_fn((n, d), |(i, j)| {
        let z: f64 = rng.sample(StandardNormal);
        z * (1.0 + 0.3 * j as f64)
            + if j == 0 {
                y[i] as f64
            } else {
                0.2 * y[i] as f64
            }
    });
    (x, y)
}

/// A derivative check's problem: a family's data set (weighted or not) and a point `θ` near
/// its generative fit, moved by up to ±0.1 per coordinate with a generator seeded by
/// `seed ^ salt`. Balls2 gets the relative variance floor `variance_floor` (0: none), LDA and
/// QDA the covariance shrinkage `shrinkage` (0: none).
struct NearGenerative {
    family: Family,
    k: usize,
    x: Array2<f64>,
    y: Array1<usize>,
    w: Option<Array1<f64>>,
    params: GdtValidParams,
    theta: Array1<f64>,
}

impl NearGenerative {
    #[allow(clippy::too_many_arguments)]
    fn new(
        seed: u64,
        salt: u64,
        family_index: usize,
        priors: Priors,
        variance_floor: f64,
        shrinkage: f64,
        lambda: f64,
        k: usize,
        d: usize,
        weighted: bool,
    ) -> Self {
        let family = FAMILIES[family_index];
        let k = if family == Family::SharedDiagonal {
            2
        } else {
            k
        };
        let (x, y) = data(seed, 8 * k + 4, d, k);
        let w = Array1::from_shape_fn(x.nrows(), |i| 0.5 + (i % 3) as f64);
        let w = weighted.then_some(w);
        let floor = if family == Family::Balls2 {
            variance_floor
        } else {
            0.0
        };
        let shrinkage = if matches!(family, Family::Lda | Family::Qda) {
            shrinkage
        } else {
            0.0
        };
        let params = Gdt::params(family)
            .priors(priors)
            .variance_floor(floor)
            .shrinkage(regulariser(seed, shrinkage))
            .lambda(lambda)
            .check()
            .unwrap();
        let mut theta =
            generative_theta(&params, x.view(), y.view(), w.as_ref().map(|w| w.view())).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ salt);
        theta.mapv_inplace(|t| t + 0.2 * (rng.random::<f64>() - 0.5));
        Self {
            family,
            k,
            x,
            y,
            w,
            params,
            theta,
        }
    }

    /// `(−L_λ/S, ∇)` at `theta`.
    fn objective(&self, theta: &Array1<f64>) -> (f64, Array1<f64>) {
        objective_and_gradient(
            &self.params,
            theta.view(),
            self.x.view(),
            self.y.view(),
            self.w.as_ref().map(|w| w.view()),
        )
        .unwrap()
    }

    /// Whether central differences with step `h` resolve every Balls2 component of `θ`: `h`
    /// must be small against each standard deviation, here `h ≤ 1e-3 σ`, so that the
    /// truncation error `O((h/σ)²)` stays under the checks' `1e-5` relative tolerance. A
    /// component that EM collapsed onto a few rows (σ² near the `1e-9` relative floor of the
    /// generative start) fails this: its derivatives are still right, but finite differences
    /// cannot show it.
    fn resolved_by(&self, h: f64) -> bool {
        // The λ = 1 model carries the layout, with its absolute floor.
        let layout = *self
            .params
            .with_lambda(1.0)
            .unwrap()
            .fit(self.x.view(), self.y.view())
            .unwrap()
            .parametrisation();
        match layout.balls2_variances(self.theta.view()).unwrap() {
            Some(v) => v.iter().all(|&v| h <= 1e-3 * v.sqrt()),
            None => true,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// ∇(−L_λ/S) equals its central finite difference at a random point near the generative
    /// fit, for every family, prior setting, Balls2 variance floor, λ and (K, d).
    #[test]
    fn gradient_matches_finite_differences(
        seed in 0u64..1000,
        family_index in 0usize..5,
        priors in priors(),
        variance_floor in variance_floor(),
        shrinkage in shrinkage(),
        lambda in 0.0f64..=1.0,
        k in 2usize..=3,
        d in 1usize..=3,
        weighted in any::<bool>(),
    ) {
        let problem = NearGenerative::new(
            seed, 0x5eed, family_index, priors, variance_floor, shrinkage, lambda, k, d, weighted,
        );
        let (family, k, theta) = (problem.family, problem.k, &problem.theta);
        let h = 1e-6;
        prop_assume!(problem.resolved_by(h));
        let (_, g) = problem.objective(theta);
        for j in 0..theta.len() {
            let mut tp = theta.clone();
            tp[j] += h;
            let mut tm = theta.clone();
            tm[j] -= h;
            let fp = problem.objective(&tp).0;
            let fm = problem.objective(&tm).0;
            let fd = (fp - fm) / (2.0 * h);
            prop_assert!((fd - g[j]).abs() <= 1e-6 * (1.0 + g[j].abs()),
                "{family} {priors:?} floor={variance_floor} γ={shrinkage} λ={lambda} K={k} d={d}: ∂θ_{j}: analytic {} vs finite difference {fd}", g[j]);
        }
    }

    /// At λ = 1 the GDT model is the generative maximum-likelihood fit: the same joint
    /// log-density as the gendisc-generative model with the same prior setting, and (for the
    /// closed-form families) a vanishing gradient of L_gen there.
    #[test]
    fn lambda_one_is_the_generative_fit(
        seed in 0u64..1000,
        family_index in 0usize..5,
        priors in priors(),
        k in 2usize..=3,
        d in 1usize..=3,
    ) {
        let family = FAMILIES[family_index];
        let k = if family == Family::SharedDiagonal { 2 } else { k };
        let (x, y) = data(seed, 10 * k, d, k);
        let gdt = Gdt::params(family)
            .priors(priors)
            .lambda(1.0)
            .fit(x.view(), y.view())
            .unwrap();
        let joint = gdt.log_joint(x.view()).unwrap();
        let cp = class_priors(priors);
        // GDT fits the density of x / s (s its scale) and adds the Jacobian −d ln s: the
        // reference is the generative model of the same numbers, so that Balls2's EM, whose
        // stopping point depends on the units, runs on them too.
        let jacobian = d as f64 * gdt.scale().ln();
        let data = x.mapv(|v| v / gdt.scale());
        let x = data.view();
        let reference = match family {
            Family::Lda => Lda::params().priors(cp).fit(x.view(), y.view()).unwrap().log_joint(x.view()),
            Family::Qda => Qda::params().priors(cp).fit(x.view(), y.view()).unwrap().log_joint(x.view()),
            Family::Balls1 => Balls1::params().priors(cp).fit(x.view(), y.view()).unwrap().log_joint(x.view()),
            Family::Balls2 => Balls2::params().priors(cp).fit(x.view(), y.view()).unwrap().log_joint(x.view()),
            Family::SharedDiagonal => GaussianNb::params()
                .variance(VarianceStructure::Pooled)
                .priors(cp)
                .fit(x.view(), y.view())
                .unwrap()
                .log_joint(x.view()),
        }
        .unwrap();
        for (a, b) in joint.iter().zip(reference.iter()) {
            let b = b - jacobian;
            prop_assert!((a - b).abs() <= 1e-9 * (1.0 + b.abs()), "{family} {priors:?}: {a} vs {b}");
        }
        if family != Family::Balls2 {
            // EM stops at a tolerance; the closed forms are stationary points of L_gen.
            prop_assert!(gdt.report().gradient_norm < 1e-8, "{family} {priors:?}: ‖∇‖ = {}", gdt.report().gradient_norm);
        }
    }
}

/// The conditional log-likelihood of a logistic regression (no prior) on `features`.
fn logistic_cll(features: &Array2<f64>, y: &Array1<usize>) -> f64 {
    let lr = LogisticRegression::params()
        .tolerance(1e-12)
        .fit(features.view(), y.view())
        .unwrap();
    lr.conditional_log_likelihood(features.view(), y.view(), None)
        .unwrap()
}

/// Trust-region Newton to a gradient norm of `1e-10` (relative).
fn tight() -> Method {
    Method::TrustRegion(gendisc_optim::TrustRegionSettings {
        gradient_tolerance: 1e-10,
        ..Default::default()
    })
}

#[test]
fn lambda_zero_lda_is_linear_logistic_regression() {
    for (seed, k) in [(1, 2), (2, 2), (3, 3)] {
        let (x, y) = data(seed, 60, 3, k);
        for (family, priors) in [
            (Family::Lda, Priors::Estimated),
            (Family::SharedDiagonal, Priors::Fixed),
            (Family::SharedDiagonal, Priors::Estimated),
        ] {
            if family == Family::SharedDiagonal && k != 2 {
                continue;
            }
            let gdt = Gdt::params(family)
                .priors(priors)
                .lambda(0.0)
                .solver(tight())
                .fit(x.view(), y.view())
                .unwrap();
            let cll = gdt
                .conditional_log_likelihood(x.view(), y.view(), None)
                .unwrap();
            let expected = logistic_cll(&x, &y);
            assert!(
                gdt.report().is_converged(),
                "{family} {priors:?} K={k}: {:?}",
                gdt.report()
            );
            assert_relative_eq!(cll, expected, max_relative = 1e-7);
        }
    }
}

#[test]
fn lambda_zero_qda_is_quadratic_logistic_regression() {
    let (x, y) = data(7, 80, 2, 2);
    // Features x1, x2, x1², x1 x2, x2²: the log-odds of two Gaussians with free covariances.
    let q = Array2::from_shape_fn((x.nrows(), 5), |(i, j)| match j {
        0 => x[[i, 0]],
        1 => x[[i, 1]],
        2 => x[[i, 0]] * x[[i, 0]],
        3 => x[[i, 0]] * x[[i, 1]],
        _ => x[[i, 1]] * x[[i, 1]],
    });
    let gdt = Gdt::params(Family::Qda)
        .lambda(0.0)
        .solver(tight())
        .fit(x.view(), y.view())
        .unwrap();
    let cll = gdt
        .conditional_log_likelihood(x.view(), y.view(), None)
        .unwrap();
    assert_relative_eq!(cll, logistic_cll(&q, &y), max_relative = 1e-6);
}

#[test]
fn intermediate_lambda_trades_the_two_likelihoods() {
    // Along the path from λ = 1 to 0 the conditional likelihood rises and the joint one falls.
    let (x, y) = data(11, 60, 2, 2);
    let params = Gdt::params(Family::Balls1).check().unwrap();
    let path = params
        .fit_path(&[1.0, 0.5, 0.0], x.view(), y.view(), None)
        .unwrap();
    let cll: Vec<f64> = path
        .iter()
        .map(|m| {
            m.conditional_log_likelihood(x.view(), y.view(), None)
                .unwrap()
        })
        .collect();
    let jll: Vec<f64> = path
        .iter()
        .map(|m| m.joint_log_likelihood(x.view(), y.view(), None).unwrap())
        .collect();
    assert!(
        cll[0] <= cll[1] + 1e-9 && cll[1] <= cll[2] + 1e-9,
        "{cll:?}"
    );
    assert!(
        jll[0] >= jll[1] - 1e-9 && jll[1] >= jll[2] - 1e-9,
        "{jll:?}"
    );
}

#[test]
fn unit_weights_equal_the_unweighted_fit_and_integer_weights_duplicate_rows() {
    let (x, y) = data(5, 30, 2, 2);
    let params = Gdt::params(Family::Qda).lambda(0.3).check().unwrap();
    let a = params.fit(x.view(), y.view()).unwrap();
    let b = gendisc_core::FitWeighted::fit_weighted(
        &params,
        x.view(),
        y.view(),
        Array1::ones(30).view(),
    )
    .unwrap();
    assert_eq!(a.theta(), b.theta());
    // Weight 2 on the first row vs the first row repeated.
    let mut w = Array1::ones(30);
    w[0] = 2.0;
    let weighted =
        gendisc_core::FitWeighted::fit_weighted(&params, x.view(), y.view(), w.view()).unwrap();
    let mut rows: Vec<usize> = vec![0];
    rows.extend(0..30);
    let xd = x.select(ndarray::Axis(0), &rows);
    let yd = y.select(ndarray::Axis(0), &rows);
    let duplicated = params.fit(xd.view(), yd.view()).unwrap();
    let pa = weighted.predict_proba(x.view()).unwrap();
    let pb = duplicated.predict_proba(x.view()).unwrap();
    for (u, v) in pa.iter().zip(pb.iter()) {
        assert!((u - v).abs() < 1e-5, "{u} vs {v}");
    }
}

#[test]
fn models_round_trip_through_serde() {
    let (x, y) = data(9, 24, 2, 3);
    let m = Gdt::params(Family::Balls2)
        .lambda(0.5)
        .fit(x.view(), y.view())
        .unwrap();
    let json = serde_json::to_string(&m).unwrap();
    let back: Gdt = serde_json::from_str(&json).unwrap();
    assert_eq!(m, back);
    assert_eq!(
        m.predict_log_proba(x.view()).unwrap(),
        back.predict_log_proba(x.view()).unwrap()
    );
    // A θ of the wrong length is refused.
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    value["theta"]["data"].as_array_mut().unwrap().pop();
    value["theta"]["dim"][0] = serde_json::json!(m.theta().len() - 1);
    assert!(serde_json::from_value::<Gdt>(value).is_err());
}

#[test]
fn models_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Gdt>();
    check::<gendisc_gdt::GdtCv>();
}

#[test]
fn linear_coefficients_give_the_log_odds() {
    for (family, k) in [(Family::Lda, 3), (Family::SharedDiagonal, 2)] {
        let (x, y) = data(13, 40, 3, k);
        let m = Gdt::params(family)
            .lambda(0.4)
            .fit(x.view(), y.view())
            .unwrap();
        let (beta, b) = m.linear_coefficients().unwrap();
        let lp = m.predict_log_proba(x.view()).unwrap();
        let scores = x.dot(&beta.t()) + &b;
        for i in 0..x.nrows() {
            for c in 1..k {
                let expected = lp[[i, c]] - lp[[i, 0]];
                let ours = scores[[i, c]] - scores[[i, 0]];
                assert!(
                    (expected - ours).abs() < 1e-9 * (1.0 + expected.abs()),
                    "{family}: {ours} vs {expected}"
                );
            }
        }
    }
    let (x, y) = data(13, 40, 3, 2);
    let qda = Gdt::params(Family::Qda).fit(x.view(), y.view()).unwrap();
    assert!(qda.linear_coefficients().is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// ∇²(−L_λ/S) equals the central finite difference of the analytic gradient at a random
    /// point near the generative fit, for every family, prior setting, Balls2 variance floor, λ
    /// and (K, d), with and without weights; and it is symmetric.
    #[test]
    fn hessian_matches_finite_differences_of_the_gradient(
        seed in 0u64..1000,
        family_index in 0usize..5,
        priors in priors(),
        variance_floor in variance_floor(),
        shrinkage in shrinkage(),
        lambda in 0.0f64..=1.0,
        k in 2usize..=3,
        d in 1usize..=3,
        weighted in any::<bool>(),
    ) {
        let problem = NearGenerative::new(
            seed, 0x4e55, family_index, priors, variance_floor, shrinkage, lambda, k, d, weighted,
        );
        let (family, k, theta) = (problem.family, problem.k, &problem.theta);
        let hessian = objective_hessian(
            &problem.params,
            theta.view(),
            problem.x.view(),
            problem.y.view(),
            problem.w.as_ref().map(|w| w.view()),
        )
        .unwrap();
        let step = 1e-6;
        prop_assume!(problem.resolved_by(step));
        for j in 0..theta.len() {
            let mut tp = theta.clone();
            tp[j] += step;
            let mut tm = theta.clone();
            tm[j] -= step;
            let gp = problem.objective(&tp).1;
            let gm = problem.objective(&tm).1;
            for i in 0..theta.len() {
                let fd = (gp[i] - gm[i]) / (2.0 * step);
                let h = hessian[[i, j]];
                prop_assert!((fd - h).abs() <= 1e-5 * (1.0 + h.abs()),
                    "{family} {priors:?} floor={variance_floor} γ={shrinkage} λ={lambda} K={k} d={d}: ∂²/∂θ_{i}∂θ_{j}: analytic {h} vs finite difference {fd}");
                prop_assert!((h - hessian[[j, i]]).abs() <= 1e-12 * (1.0 + h.abs()),
                    "{family}: not symmetric at ({i}, {j})");
            }
        }
    }
}
