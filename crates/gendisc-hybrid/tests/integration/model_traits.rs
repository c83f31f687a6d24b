//! The fitted model as a value: thread safety, serialisation, determinism, the report, and the
//! relations between the options.

use gendisc_core::convergence::Criterion;
use gendisc_core::Convergence;
use gendisc_core::{
    Classifier, ConditionalModel, FactorisedGenerative, Fit, FitWeighted, Generative,
};
use gendisc_generative::{BernoulliNb, GaussianNb};
use gendisc_hybrid::{Hybrid, HybridParams, Intercept, Normalization, ThetaSolver};
use ndarray::{s, Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

/// 200 rows, 4 features in two blocks, classes shifted apart, as in Xue & Titterington's
/// normal datasets; column 4 is constant (an aliased region).
fn gaussian(seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let y = Array1::from_shape_fn(200, |i| i % 2);
    let mean = [1.5, 0.0, 0.5, 0.0];
    let x = Array2::from_shape_fn((200, 5), |(i, j)| {
        if j == 4 {
            return 2.5;
        }
        let sign = if y[i] == 0 { 1.0 } else { -1.0 };
        sign * mean[j] + rng.sample::<f64, _>(StandardNormal)
    });
    (x, y)
}

const REGIONS: [&[usize]; 3] = [&[0, 1], &[2, 3], &[4]];

fn regions() -> Vec<Vec<usize>> {
    REGIONS.iter().map(|r| r.to_vec()).collect()
}

#[test]
fn models_are_send_sync_and_serialisable() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Hybrid<GaussianNb>>();
    assert_send_sync::<HybridParams<gendisc_generative::GaussianNbParams>>();

    let (x, y) = gaussian(1);
    let hybrid = Hybrid::params(GaussianNb::params())
        .regions(regions())
        .leave_one_out(true)
        .fit(x.view(), y.view())
        .unwrap();
    let json = serde_json::to_string(&hybrid).unwrap();
    let back: Hybrid<GaussianNb> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, hybrid);
    assert_eq!(
        back.predict_proba(x.view()).unwrap(),
        hybrid.predict_proba(x.view()).unwrap()
    );
    let params = Hybrid::params(BernoulliNb::params().alpha(0.5)).regions(regions());
    let json = serde_json::to_string(&params).unwrap();
    let back: HybridParams<gendisc_generative::BernoulliNbParams> =
        serde_json::from_str(&json).unwrap();
    assert_eq!(back, params);
}

#[test]
fn fits_are_deterministic() {
    let (x, y) = gaussian(2);
    let fit = || {
        Hybrid::params(GaussianNb::params())
            .regions(regions())
            .fit(x.view(), y.view())
            .unwrap()
    };
    assert_eq!(fit(), fit());
}

#[test]
fn report_flags_the_aliased_region_and_zeroes_its_weight() {
    let (x, y) = gaussian(3);
    for leave_one_out in [false, true] {
        let hybrid = Hybrid::params(GaussianNb::params())
            .regions(regions())
            .leave_one_out(leave_one_out)
            .fit(x.view(), y.view())
            .unwrap();
        let report = hybrid.report().unwrap();
        assert_eq!(report.aliased_regions, vec![2]);
        assert_eq!(report.solver, ThetaSolver::Glm);
        assert!(report.is_converged(), "{report:?}");
        assert_eq!(report.leave_one_out, leave_one_out);
        assert_eq!(hybrid.region_weights()[2], 0.0);
        assert!(hybrid.region_weights()[0] > 0.0);
        // glm reaches its deviance criterion in a handful of IRLS steps here.
        assert!((1..=10).contains(&report.iterations), "{report:?}");
        assert!(
            matches!(report.criterion, Some(Criterion::RelativeChange { .. })),
            "{report:?}"
        );
        assert!(report.evaluations > report.iterations, "{report:?}");
        // The reported log-likelihood is that of the fitted model on the training set (without
        // leave-one-out, whose features differ).
        if !leave_one_out {
            let cll = hybrid
                .conditional_log_likelihood(x.view(), y.view(), None)
                .unwrap();
            assert!((cll - report.log_likelihood).abs() < 1e-9 * cll.abs());
        }
    }
}

#[test]
fn normalization_only_rescales_theta() {
    // b_r(normalized) = b_r(unnormalized) / n_r, so without a prior the fitted weights differ
    // by exactly that factor and the models, and their exponents λ_r, are the same.
    let (x, y) = gaussian(4);
    let fit = |normalization| {
        Hybrid::params(GaussianNb::params())
            .regions(vec![vec![0, 1, 3], vec![2]])
            .normalization(normalization)
            .solver(ThetaSolver::Newton)
            .fit(x.view(), y.view())
            .unwrap()
    };
    let normalized = fit(Normalization::Normalized);
    let unnormalized = fit(Normalization::Unnormalized);
    let (tn, tu) = (normalized.theta().unwrap(), unnormalized.theta().unwrap());
    assert!((tn[0] - tu[0]).abs() < 1e-8);
    assert!((tn[1] - 3.0 * tu[1]).abs() < 1e-8 * tn[1].abs());
    assert!((tn[2] - tu[2]).abs() < 1e-8 * tn[2].abs());
    let (ln, lu) = (normalized.exponents(), unnormalized.exponents());
    for r in 0..2 {
        assert!((ln[r] - lu[r]).abs() < 1e-8 * lu[r].abs());
    }
    let (pn, pu) = (
        normalized.predict_proba(x.view()).unwrap(),
        unnormalized.predict_proba(x.view()).unwrap(),
    );
    assert!(pn.iter().zip(&pu).all(|(a, b)| (a - b).abs() < 1e-9));
}

#[test]
fn a_fixed_intercept_is_the_generative_log_prior() {
    let (x, y) = gaussian(5);
    // Unbalanced classes, so that the prior matters.
    let keep: Vec<usize> = (0..200).filter(|i| i % 4 != 1).collect();
    let (x, y) = (
        x.select(ndarray::Axis(0), &keep),
        y.select(ndarray::Axis(0), &keep),
    );
    let hybrid = Hybrid::params(GaussianNb::params())
        .regions(vec![vec![0, 1], vec![2, 3]])
        .intercept(Intercept::LogPriorRatio)
        .fit(x.view(), y.view())
        .unwrap();
    assert_eq!(hybrid.report().unwrap().solver, ThetaSolver::Multiclass);
    let prior = hybrid.generative().log_prior();
    assert_eq!(hybrid.class_intercepts(), prior.view());
    assert_eq!(hybrid.theta().unwrap()[0], prior[1] - prior[0]);
    assert!((prior[1] - prior[0] - (50.0f64 / 100.0).ln()).abs() < 1e-12);
}

#[test]
fn three_classes_and_the_decision_of_two() {
    let (x, mut y) = gaussian(6);
    for i in (0..200).step_by(3) {
        y[i] = 2;
    }
    let hybrid = Hybrid::params(GaussianNb::params())
        .regions(vec![vec![0, 1], vec![2, 3]])
        .fit(x.view(), y.view())
        .unwrap();
    assert_eq!(hybrid.n_classes(), 3);
    assert_eq!(hybrid.n_features(), 5);
    assert_eq!(hybrid.class_intercepts()[0], 0.0);
    let report = hybrid.report().unwrap();
    assert_eq!(report.solver, ThetaSolver::Multiclass);
    assert!(report.status.is_converged());
    assert!(
        matches!(report.criterion, Some(Criterion::Gradient { .. })),
        "{report:?}"
    );
    assert!(report.evaluations > report.iterations, "{report:?}");
    let p = hybrid.predict_proba(x.slice(s![..5, ..])).unwrap();
    for row in p.rows() {
        assert!((row.sum() - 1.0).abs() < 1e-12);
    }

    // Two classes: decision_function is θ_0 + Σ θ_r b_r, the log-odds of the posterior.
    let (x, y) = gaussian(7);
    let hybrid = Hybrid::params(GaussianNb::params())
        .regions(vec![vec![0, 1], vec![2, 3]])
        .fit(x.view(), y.view())
        .unwrap();
    let theta = hybrid.theta().unwrap();
    let nb = hybrid.generative();
    let rows = x.slice(s![..7, ..]);
    let d = hybrid.decision_function(rows).unwrap();
    let lp = hybrid.predict_log_proba(rows).unwrap();
    let b: Vec<Array2<f64>> = [vec![0, 1], vec![2, 3]]
        .iter()
        .map(|r| nb.region_log_likelihood(rows, r).unwrap())
        .collect();
    for i in 0..7 {
        let expected = theta[0]
            + theta[1] * (b[0][[i, 1]] - b[0][[i, 0]]) / 2.0
            + theta[2] * (b[1][[i, 1]] - b[1][[i, 0]]) / 2.0;
        assert!((d[i] - expected).abs() < 1e-10 * expected.abs().max(1.0));
        assert!((lp[[i, 1]] - lp[[i, 0]] - d[i]).abs() < 1e-10 * d[i].abs().max(1.0));
    }
    assert_eq!(
        hybrid.predict(rows).unwrap(),
        d.mapv(|v| usize::from(v > 0.0))
    );
}

#[test]
fn weights_count_rows() {
    // Integer weights equal repeated rows.
    let (x, y) = gaussian(8);
    let x = x.slice(s![..60, ..4]).to_owned();
    let y = y.slice(s![..60]).to_owned();
    let w = Array1::from_shape_fn(60, |i| (i % 3) as f64);
    let repeated: Vec<usize> = (0..60)
        .flat_map(|i| std::iter::repeat_n(i, i % 3))
        .collect();
    let params = Hybrid::params(GaussianNb::params())
        .regions(vec![vec![0, 1], vec![2, 3]])
        .solver(ThetaSolver::Newton);
    let weighted = params.fit_weighted(x.view(), y.view(), w.view()).unwrap();
    let expanded = params
        .fit(
            x.select(ndarray::Axis(0), &repeated).view(),
            y.select(ndarray::Axis(0), &repeated).view(),
        )
        .unwrap();
    let (a, b) = (weighted.theta().unwrap(), expanded.theta().unwrap());
    for (p, q) in a.iter().zip(&b) {
        assert!((p - q).abs() < 1e-8 * q.abs().max(1.0), "{a} vs {b}");
    }
}
