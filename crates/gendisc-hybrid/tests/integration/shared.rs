//! Hybrids built on a shared generative model (`fit_from`, `fit_on`, `RegionLikelihoods`) are
//! the hybrids of the ordinary path, bit for bit: same `θ`, same report, same model, same
//! decision values and posteriors on new rows.

use gendisc_core::{ConditionalModel, FactorisedGenerative, Fit, ParamGuard};
use gendisc_data::generators::XueTitteringtonPreset;
use gendisc_generative::{BernoulliNb, GaussianNb, LeaveOneOut, VarianceEstimator};
use gendisc_hybrid::{Hybrid, Intercept, Normalization, RegionLikelihoods, ThetaSolver};
use ndarray::{s, Array1, Array2};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn bits(a: impl IntoIterator<Item = f64>) -> Vec<u64> {
    a.into_iter().map(f64::to_bits).collect()
}

/// The configurations the Xue–Titterington study and Raina et al. use, and the other solvers.
fn configurations<G: Fit + Clone>(nb: G) -> Vec<gendisc_hybrid::HybridParams<G>> {
    let base = Hybrid::params(nb).regions(vec![vec![0, 1], vec![2, 3]]);
    vec![
        base.clone(),
        base.clone().normalization(Normalization::Unnormalized),
        base.clone().leave_one_out(true),
        base.clone().solver(ThetaSolver::Newton).prior_variance(2.0),
        base.clone().solver(ThetaSolver::Multiclass),
        base.clone()
            .solver(ThetaSolver::Multiclass)
            .intercept(Intercept::LogPriorRatio),
        base.regions(vec![vec![3], vec![0, 2]]),
    ]
}

/// Splits a sample in a training set of `m` rows (alternate rows of both classes) and a test
/// set of the rest.
fn split(x: &Array2<f64>, y: &Array1<usize>, m: usize) -> [(Array2<f64>, Array1<usize>); 2] {
    let n = x.nrows();
    let order: Vec<usize> = (0..n / 2).flat_map(|i| [i, n / 2 + i]).collect();
    let (train, test) = order.split_at(m);
    let take = |rows: &[usize]| {
        (
            x.select(ndarray::Axis(0), rows),
            y.select(ndarray::Axis(0), rows),
        )
    };
    [take(train), take(test)]
}

fn check_bit_identical<G>(nb: G, preset: XueTitteringtonPreset)
where
    G: LeaveOneOut + Clone + std::fmt::Debug,
    G::Model: FactorisedGenerative + ConditionalModel + PartialEq + Clone + std::fmt::Debug,
{
    for seed in 0..6 {
        let (x, y) = preset.generate(60, &mut ChaCha8Rng::seed_from_u64(seed));
        let [(x_train, y_train), (x_test, _)] = split(&x, &y, 40 + 10 * seed as usize);
        let model = nb.fit(x_train.view(), y_train.view()).unwrap();
        for params in configurations(nb.clone()) {
            let regions = params.check_ref().unwrap().regions().unwrap().to_vec();
            let ordinary = params.fit(x_train.view(), y_train.view()).unwrap();
            let from = params
                .fit_from(&model, x_train.view(), y_train.view())
                .unwrap();
            let what = format!("{preset:?}, seed {seed}, {params:?}");
            assert_eq!(from, ordinary, "fit_from: {what}");
            assert_eq!(
                bits(from.theta().unwrap()),
                bits(ordinary.theta().unwrap()),
                "{what}"
            );
            let test = RegionLikelihoods::new(&model, x_test.view(), &regions).unwrap();
            assert_eq!(
                bits(from.decision_function_on(&test).unwrap()),
                bits(ordinary.decision_function(x_test.view()).unwrap()),
                "decision_function_on: {what}"
            );
            assert_eq!(
                bits(from.predict_log_proba_on(&test).unwrap()),
                bits(ordinary.predict_log_proba(x_test.view()).unwrap()),
                "predict_log_proba_on: {what}"
            );
            if !params.check_ref().unwrap().leave_one_out() {
                let training = RegionLikelihoods::new(&model, x_train.view(), &regions).unwrap();
                let on = params.fit_on(&training, y_train.view()).unwrap();
                assert_eq!(on, ordinary, "fit_on: {what}");
                assert_eq!(
                    bits(on.theta().unwrap()),
                    bits(ordinary.theta().unwrap()),
                    "{what}"
                );
            }
        }
    }
}

#[test]
fn gaussian_hybrids_on_a_shared_model_are_bit_identical() {
    let nb = GaussianNb::params()
        .variance_estimator(VarianceEstimator::Unbiased)
        .var_smoothing(1e-15);
    for preset in [
        XueTitteringtonPreset::NormalEqualFull,
        XueTitteringtonPreset::NormalUnequalFull,
    ] {
        check_bit_identical(nb.clone(), preset);
    }
}

#[test]
fn bernoulli_hybrids_on_a_shared_model_are_bit_identical() {
    for preset in [
        XueTitteringtonPreset::BernoulliEqualBlock,
        XueTitteringtonPreset::BernoulliUnequalFull,
    ] {
        check_bit_identical(BernoulliNb::params(), preset);
    }
}

#[test]
fn leave_one_out_from_a_model_of_other_rows_is_refused() {
    let (x, y) =
        XueTitteringtonPreset::NormalEqualFull.generate(20, &mut ChaCha8Rng::seed_from_u64(1));
    let params = Hybrid::params(GaussianNb::params())
        .regions(vec![vec![0, 1], vec![2, 3]])
        .leave_one_out(true);
    let model = GaussianNb::params()
        .fit(x.slice(s![1.., ..]), y.slice(s![1..]))
        .unwrap();
    assert!(params.fit_from(&model, x.view(), y.view()).is_err());
}
