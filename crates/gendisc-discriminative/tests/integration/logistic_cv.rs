//! Logistic regression with the prior variance chosen by cross-validation: the selection is
//! the fold-averaged held-out loss of independent fits, the refit is the fit at the chosen
//! variance, and the choice responds to the data as it should.

use approx::assert_abs_diff_eq;
use gendisc_core::{Error, Fit, ParamGuard};
use gendisc_data::cv::{score, CvCriterion};
use gendisc_data::splits::stratified_k_fold;
use gendisc_discriminative::logistic::{LogisticRegressionCv, LogisticSolver};
use gendisc_discriminative::LogisticRegression;
use ndarray::{Array1, Array2, Axis};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Two classes whose first feature carries `signal` (their means differ by it) and whose other
/// features are deterministic noise.
fn data(n: usize, signal: f64) -> (Array2<f64>, Array1<usize>) {
    let y = Array1::from_shape_fn(n, |i| i % 2);
    let x = Array2::from_shape_fn((n, 3), |(i, j)| {
        let noise = ((i * 13 + j * 7) as f64 * 0.77).sin() * 1.2;
        if j == 0 {
            signal * y[i] as f64 + noise
        } else {
            noise * (j as f64)
        }
    });
    (x, y)
}

#[test]
fn the_scores_are_the_held_out_losses_of_the_folds() {
    let (x, y) = data(90, 1.0);
    let grid = vec![0.01, 0.1, 1.0, 10.0];
    let cv = LogisticRegressionCv::params()
        .prior_variances(grid.clone())
        .n_folds(3)
        .seed(4)
        .check()
        .unwrap()
        .fit(x.view(), y.view())
        .unwrap();
    // Recomputed with cold-started fits: the same optimum, to the solvers' tolerance.
    let folds = stratified_k_fold(y.view(), 3, &mut ChaCha8Rng::seed_from_u64(4)).unwrap();
    for (g, &variance) in grid.iter().enumerate() {
        let mut total = 0.0;
        for fold in &folds {
            let model = LogisticRegression::params()
                .prior_variance(variance)
                .fit(
                    x.select(Axis(0), &fold.train).view(),
                    y.select(Axis(0), &fold.train).view(),
                )
                .unwrap();
            total += score(
                &model,
                &CvCriterion::LogLoss,
                x.select(Axis(0), &fold.test).view(),
                y.select(Axis(0), &fold.test).view(),
                None,
            )
            .unwrap();
        }
        assert_abs_diff_eq!(cv.selection().scores[g], total / 3.0, epsilon = 1e-8);
    }
    let best = cv
        .selection()
        .scores
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.total_cmp(b.1))
        .unwrap()
        .0;
    assert_eq!(cv.prior_variance(), grid[best]);
    let direct = LogisticRegression::params()
        .prior_variance(cv.prior_variance())
        .fit(x.view(), y.view())
        .unwrap();
    assert_abs_diff_eq!(
        cv.model().coefficients(),
        direct.coefficients(),
        epsilon = 1e-6
    );
    assert_abs_diff_eq!(cv.model().intercept(), direct.intercept(), epsilon = 1e-6);
}

#[test]
fn noise_gets_the_strongest_prior_and_signal_a_weaker_one() {
    let params = LogisticRegressionCv::params().check().unwrap();
    let (x, y) = data(200, 0.0);
    let noise = params.fit(x.view(), y.view()).unwrap();
    let (x, y) = data(200, 3.0);
    let signal = params.fit(x.view(), y.view()).unwrap();
    assert_eq!(noise.prior_variance(), 1e-4, "{:?}", noise.selection());
    assert!(
        signal.prior_variance() >= 1.0,
        "a strong signal chose σ² = {}: {:?}",
        signal.prior_variance(),
        signal.selection()
    );
}

#[test]
fn the_selection_is_a_function_of_the_seed() {
    let (x, y) = data(80, 1.0);
    let fit = |seed| {
        LogisticRegressionCv::params()
            .seed(seed)
            .check()
            .unwrap()
            .fit(x.view(), y.view())
            .unwrap()
    };
    assert_eq!(fit(3), fit(3));
    assert_ne!(fit(3).selection().scores, fit(5).selection().scores);
}

#[test]
fn bad_settings_are_errors_that_name_them() {
    let name = |params: gendisc_discriminative::logistic::LogisticRegressionCvParams| match params
        .check()
    {
        Err(Error::InvalidParameter { name, .. }) => name,
        other => panic!("expected an invalid parameter, got {other:?}"),
    };
    assert_eq!(
        name(LogisticRegressionCv::params().prior_variances(vec![])),
        "prior_variances"
    );
    assert_eq!(
        name(LogisticRegressionCv::params().prior_variances(vec![1.0, 0.0])),
        "prior_variances"
    );
    assert_eq!(
        name(LogisticRegressionCv::params().prior_variances(vec![f64::NAN])),
        "prior_variances"
    );
    assert_eq!(name(LogisticRegressionCv::params().n_folds(1)), "n_folds");
    assert_eq!(
        name(
            LogisticRegressionCv::params()
                .logistic(LogisticRegression::params().solver(LogisticSolver::GlmIrls))
        ),
        "solver"
    );
    assert_eq!(
        name(LogisticRegressionCv::params().criterion(CvCriterion::ClassCost(vec![1.0, -2.0]))),
        "criterion"
    );
    // More folds than rows of the training data.
    let (x, y) = data(4, 1.0);
    let result = LogisticRegressionCv::params()
        .n_folds(5)
        .check()
        .unwrap()
        .fit(x.view(), y.view());
    assert!(
        matches!(result, Err(Error::InvalidParameter { name: "k", .. })),
        "{result:?}"
    );
}

#[test]
fn the_one_se_rule_takes_a_stronger_prior_within_one_error_of_the_best() {
    use gendisc_data::cv::SelectionRule;
    let (x, y) = data(120, 1.0);
    let grid = vec![0.001, 0.01, 0.1, 1.0, 10.0];
    let fit = |rule, repeats| {
        LogisticRegressionCv::params()
            .prior_variances(grid.clone())
            .n_folds(4)
            .n_repeats(repeats)
            .rule(rule)
            .check()
            .unwrap()
            .fit(x.view(), y.view())
            .unwrap()
    };
    let minimum = fit(SelectionRule::MinimumScore, 3);
    let one_se = fit(SelectionRule::OneStandardError, 3);
    let selection = one_se.selection();
    // The same folds, so the same curve; only the choice differs.
    assert_eq!(selection.scores, minimum.selection().scores);
    assert_eq!(selection.standard_errors.len(), grid.len());
    let best = grid
        .iter()
        .position(|&v| v == minimum.prior_variance())
        .unwrap();
    let chosen = grid
        .iter()
        .position(|&v| v == one_se.prior_variance())
        .unwrap();
    assert!(chosen <= best);
    assert!(selection.scores[chosen] <= selection.scores[best] + selection.standard_errors[best]);
    if chosen > 0 {
        assert!(
            selection.scores[chosen - 1] > selection.scores[best] + selection.standard_errors[best]
        );
    }
    // Repetitions draw further splits: another curve than one repetition's.
    assert_ne!(
        fit(SelectionRule::MinimumScore, 1).selection().scores,
        selection.scores
    );
    // The selection survives the model file, and a tampered choice is caught.
    let json = serde_json::to_string(&one_se).unwrap();
    let back: LogisticRegressionCv = serde_json::from_str(&json).unwrap();
    assert_eq!(back.selection(), selection);
    use gendisc_core::SavedModel;
    back.check_invariants().unwrap();
    // Any other grid value as the choice breaks the rule's invariant, whichever it chose.
    let mut tampered: serde_json::Value = serde_json::from_str(&json).unwrap();
    let other = grid[(chosen + 1) % grid.len()];
    tampered["selection"]["prior_variance"] = other.into();
    let tampered: LogisticRegressionCv = serde_json::from_value(tampered).unwrap();
    let error = tampered.check_invariants().unwrap_err();
    assert!(error.to_string().contains("OneStandardError"), "{error}");
}
