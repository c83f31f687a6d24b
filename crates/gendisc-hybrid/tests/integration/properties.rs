//! Invariants of the hybrid, on random data, for every factorised generative model:
//!
//! * with `θ = (log prior ratio, n_1, …, n_R)` (normalized) or `(log prior ratio, 1, …, 1)`
//!   (unnormalized) the hybrid is the naive Bayes classifier;
//! * the fitted `θ` zeroes the gradient of the conditional log-likelihood, computed here from
//!   its definition;
//! * the leave-one-out `θ` equals the fit on features from `m` brute-force refits;
//! * for two classes the multi-class form and logistic regression give the same `θ`;
//! * posteriors are distributions and `predict` is their argmax;
//! * an unpenalised fit in one normalization, rewritten in the other, is the other's fit.

use crate::support::{
    brute_force_contrasts, close, conditional_gradient, contrasts, data, Data, Domain, LEVELS,
};
use gendisc_core::Convergence;
use gendisc_core::{
    Classifier, ConditionalModel, FactorisedGenerative, Fit, FitWeighted, Generative,
};
use gendisc_discriminative::logistic::{LogisticRegression, LogisticSolver};
use gendisc_generative::{BernoulliNb, CategoricalNb, GaussianNb, LeaveOneOut};
use gendisc_hybrid::{Hybrid, HybridParams, Intercept, Normalization, ThetaSolver};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use proptest::prelude::*;

type TestResult = std::result::Result<(), TestCaseError>;

fn fit_hybrid<G>(params: HybridParams<G>, data: &Data) -> gendisc_core::Result<Hybrid<G::Model>>
where
    G: LeaveOneOut + FitWeighted,
    G::Model: FactorisedGenerative,
{
    let params = params.regions(data.regions.clone());
    match &data.w {
        Some(w) => params.fit_weighted(data.x.view(), data.y.view(), w.view()),
        None => params.fit(data.x.view(), data.y.view()),
    }
}

fn normalized(n: Normalization) -> bool {
    n == Normalization::Normalized
}

/// The hybrid built from naive Bayes with `θ_r = n_r` (normalized) or 1 (unnormalized) and
/// `μ_y = log p(y)` has naive Bayes's posterior.
fn equals_naive_bayes<G>(generative: G, data: &Data) -> TestResult
where
    G: Fit,
    G::Model: FactorisedGenerative + ConditionalModel + Clone,
{
    let nb = generative.fit(data.x.view(), data.y.view()).unwrap();
    let expected = nb.predict_log_proba(data.x_test.view()).unwrap();
    for normalization in [Normalization::Normalized, Normalization::Unnormalized] {
        let weights = Array1::from_iter(data.regions.iter().map(|r| {
            if normalized(normalization) {
                r.len() as f64
            } else {
                1.0
            }
        }));
        let hybrid = Hybrid::from_parts(
            nb.clone(),
            data.regions.clone(),
            normalization,
            nb.log_prior(),
            weights,
        )
        .unwrap();
        let got = hybrid.predict_log_proba(data.x_test.view()).unwrap();
        for (a, b) in got.iter().zip(expected.iter()) {
            prop_assert!(close(*a, *b, 1e-10), "{:?}: {} vs {}", normalization, a, b);
        }
        if hybrid.n_classes() == 2 {
            let log_odds = hybrid.decision_function(data.x_test.view()).unwrap();
            let nb_odds = nb.decision_function(data.x_test.view()).unwrap();
            for (a, b) in log_odds.iter().zip(&nb_odds) {
                prop_assert!(close(*a, *b, 1e-10));
            }
        }
    }
    Ok(())
}

/// The fitted parameters zero the gradient of the (penalised) conditional log-likelihood.
fn gradient_vanishes<G>(
    generative: G,
    data: &Data,
    solver: ThetaSolver,
    intercept: Intercept,
    prior_variance: Option<f64>,
    normalization: Normalization,
) -> TestResult
where
    G: LeaveOneOut + FitWeighted,
    G::Model: FactorisedGenerative,
{
    let mut params = Hybrid::params(generative)
        .solver(solver)
        .intercept(intercept)
        .normalization(normalization);
    if let Some(v) = prior_variance {
        params = params.prior_variance(v);
    }
    let hybrid = fit_hybrid(params, data).unwrap();
    let report = hybrid.report().unwrap();
    // Separated data have no estimate; glm may also stop on its deviance criterion far from a
    // stationary point of such data without flagging it (its report's gradient norm says so).
    if report.separated || report.gradient_norm > 1e-6 {
        return Ok(());
    }
    let c = contrasts(
        hybrid.generative(),
        data.x.view(),
        &data.regions,
        normalized(normalization),
    )
    .unwrap();
    let fixed = intercept == Intercept::LogPriorRatio;
    let offsets: Option<Vec<Vec<f64>>> = fixed.then(|| {
        let prior = hybrid.generative().log_prior();
        let ratios: Vec<f64> = (1..prior.len()).map(|k| prior[k] - prior[0]).collect();
        vec![ratios; data.x.nrows()]
    });
    let mu = hybrid.class_intercepts();
    let mu: Vec<f64> = (1..mu.len())
        .map(|k| if fixed { 0.0 } else { mu[k] - mu[0] })
        .collect();
    let theta = hybrid.region_weights().to_vec();
    let w = data.w.as_ref().map(|w| w.view());
    let g = conditional_gradient(
        &c,
        offsets.as_deref(),
        data.y.view(),
        w,
        &mu,
        &theta,
        !fixed,
        prior_variance,
    );
    let total = w.map_or(data.x.nrows() as f64, |w| w.sum());
    // Newton stops at ‖∇f‖ ≤ 1e-10 on the mean objective; glm on a relative deviance change
    // of 1e-8, after a step that is quadratically small by then.
    let tolerance = if report.solver == ThetaSolver::Glm {
        1e-6
    } else {
        1e-8
    };
    for gj in &g {
        prop_assert!(
            gj.abs() <= tolerance * total,
            "{:?}: gradient {:?} (report {:?})",
            solver,
            g,
            report
        );
    }
    Ok(())
}

/// Leave-one-out `θ` = `θ` fitted on features from brute-force refits.
fn leave_one_out_equals_refits<G, M, F>(generative: G, data: &Data, refit: F) -> TestResult
where
    G: LeaveOneOut<Model = M> + FitWeighted + Clone,
    M: FactorisedGenerative,
    F: Fn(
        ArrayView2<'_, f64>,
        ArrayView1<'_, usize>,
        Option<ArrayView1<'_, f64>>,
    ) -> gendisc_core::Result<M>,
{
    let w = data.w.as_ref().map(|w| w.view());
    let (c, offsets) =
        brute_force_contrasts(data.x.view(), data.y.view(), w, &data.regions, true, &refit)
            .unwrap();

    // θ_0 fitted, by glm: the same glm fit on the brute-force features.
    let hybrid = fit_hybrid(Hybrid::params(generative.clone()).leave_one_out(true), data).unwrap();
    let report = hybrid.report().unwrap();
    prop_assert!(report.leave_one_out);
    if !report.separated && report.gradient_norm <= 1e-6 && report.aliased_regions.is_empty() {
        let b = Array2::from_shape_fn((data.x.nrows(), data.regions.len()), |(i, r)| c[i][r][0]);
        let glm = LogisticRegression::params().solver(LogisticSolver::GlmIrls);
        let reference = match w {
            Some(w) => glm.fit_weighted(b.view(), data.y.view(), w),
            None => glm.fit(b.view(), data.y.view()),
        }
        .unwrap();
        let theta = hybrid.theta().unwrap();
        prop_assert!(
            close(theta[0], reference.intercept()[0], 1e-7),
            "{} vs {}",
            theta,
            reference.intercept()
        );
        for r in 0..data.regions.len() {
            prop_assert!(
                close(theta[r + 1], reference.coefficients()[[0, r]], 1e-7),
                "{} vs {}",
                theta,
                reference.coefficients()
            );
        }
    }

    // θ_0 fixed at each row's leave-one-out log prior ratio: the fitted θ zeroes the gradient
    // computed on the brute-force features and offsets.
    let hybrid = fit_hybrid(
        Hybrid::params(generative)
            .leave_one_out(true)
            .intercept(Intercept::LogPriorRatio),
        data,
    )
    .unwrap();
    let report = hybrid.report().unwrap();
    if !report.separated {
        let theta = hybrid.region_weights().to_vec();
        let g = conditional_gradient(
            &c,
            Some(&offsets),
            data.y.view(),
            w,
            &[0.0],
            &theta,
            false,
            None,
        );
        let total = w.map_or(data.x.nrows() as f64, |w| w.sum());
        prop_assert!(
            g.iter().all(|gj| gj.abs() <= 1e-8 * total),
            "{:?} {:?} {}",
            g,
            report,
            hybrid.region_weights()
        );
    }
    Ok(())
}

/// For two classes, logistic regression and the multi-class form give the same `θ`.
fn binary_and_multiclass_agree<G>(generative: G, data: &Data, leave_one_out: bool) -> TestResult
where
    G: LeaveOneOut + FitWeighted + Clone,
    G::Model: FactorisedGenerative,
{
    for (solver, prior, tol) in [
        (ThetaSolver::Newton, None, 1e-7),
        (ThetaSolver::Newton, Some(0.5), 1e-7),
        (ThetaSolver::Glm, None, 1e-5),
    ] {
        let params = |s: ThetaSolver| {
            let p = Hybrid::params(generative.clone())
                .solver(s)
                .leave_one_out(leave_one_out);
            match prior {
                Some(v) => p.prior_variance(v),
                None => p,
            }
        };
        let logistic = fit_hybrid(params(solver), data).unwrap();
        let multiclass = fit_hybrid(params(ThetaSolver::Multiclass), data).unwrap();
        let (rl, rm) = (logistic.report().unwrap(), multiclass.report().unwrap());
        prop_assert_eq!(rl.solver, solver);
        prop_assert_eq!(rm.solver, ThetaSolver::Multiclass);
        prop_assert_eq!(&rl.aliased_regions, &rm.aliased_regions);
        // On separated data the estimates do not exist and the solvers stop in different
        // places. glm may also stop far from any stationary point (its deviance criterion
        // holds while the coefficients run away) without flagging separation: only fits at a
        // stationary point are comparable.
        if rl.separated || rm.separated || rl.gradient_norm > 1e-6 {
            continue;
        }
        // A numerically perfect fit (every training row certain to working precision, which a
        // prior allows on separable data) leaves the intercept's curvature Σ p(1 − p) below
        // rounding: the intercept is then not determined to working precision.
        if rl.log_likelihood.abs() < 1e-6 || rm.log_likelihood.abs() < 1e-6 {
            continue;
        }
        // Some training row's probability numerically 0 or 1 (R's warning condition): the
        // curvature along the coefficients that push it further is below rounding, so θ is
        // determined only to the likelihood, not coefficient by coefficient.
        let theta_determined = !rl.saturated && !rm.saturated;
        let (a, b) = (logistic.theta().unwrap(), multiclass.theta().unwrap());
        for (x, y) in a.iter().zip(&b).filter(|_| theta_determined) {
            prop_assert!(
                close(*x, *y, tol),
                "{:?} {:?}: {} vs {}\n{:?}\n{:?}",
                solver,
                prior,
                a,
                b,
                rl,
                rm
            );
        }
        // Either solver may stop at a gradient of order 1e-9 (Newton's predicted-decrease
        // rule), which moves the log-likelihood at the 1e-9 relative level.
        prop_assert!(
            close(rl.log_likelihood, rm.log_likelihood, 1e-7),
            "{:?}\n{:?}\n{} {}",
            rl,
            rm,
            a,
            b
        );
    }
    Ok(())
}

/// Posteriors are distributions; predict is their argmax.
fn posteriors_are_distributions<M: FactorisedGenerative>(
    hybrid: &Hybrid<M>,
    x: ArrayView2<'_, f64>,
) -> TestResult {
    let p = hybrid.predict_proba(x).unwrap();
    let predicted = hybrid.predict(x).unwrap();
    for (row, &k) in p.axis_iter(Axis(0)).zip(&predicted) {
        prop_assert!((row.sum() - 1.0).abs() < 1e-12, "{}", row);
        prop_assert!(row.iter().all(|v| (0.0..=1.0).contains(v)));
        prop_assert!(row.iter().all(|&v| v <= row[k]));
    }
    Ok(())
}

fn categorical(d: usize) -> gendisc_generative::CategoricalNbParams {
    CategoricalNb::params().n_levels(vec![LEVELS; d])
}

/// The unpenalised unnormalized fit is the normalized one with `θ_r` divided by `n_r`
/// (`Hybrid::with_normalization`), and the rewritten model has the same posterior.
fn normalizations_are_one_fit<G>(generative: G, data: &Data) -> TestResult
where
    G: LeaveOneOut + FitWeighted + Clone,
    G::Model: FactorisedGenerative + ConditionalModel + Clone,
{
    let fit = |normalization| {
        fit_hybrid(
            Hybrid::params(generative.clone())
                .solver(ThetaSolver::Newton)
                .tolerance(1e-11)
                .normalization(normalization),
            data,
        )
    };
    let (Ok(normalized), Ok(unnormalized)) = (
        fit(Normalization::Normalized),
        fit(Normalization::Unnormalized),
    ) else {
        return Ok(());
    };
    let reliable =
        |h: &Hybrid<G::Model>| h.report().is_some_and(|r| r.is_converged() && !r.saturated);
    if !reliable(&normalized) || !reliable(&unnormalized) {
        // Separated sets have no estimate to agree on.
        return Ok(());
    }
    let derived = normalized.with_normalization(Normalization::Unnormalized);
    prop_assert_eq!(derived.normalization(), Normalization::Unnormalized);
    let (want, got) = (unnormalized.theta().unwrap(), derived.theta().unwrap());
    for (w, g) in want.iter().zip(&got) {
        prop_assert!(close(*g, *w, 1e-6), "θ derived {got} vs fitted {want}");
    }
    let before = normalized.predict_log_proba(data.x_test.view()).unwrap();
    let after = derived.predict_log_proba(data.x_test.view()).unwrap();
    for (b, a) in before.iter().zip(&after) {
        prop_assert!(close(*a, *b, 1e-12), "posterior moved: {a} vs {b}");
    }
    let back = derived.with_normalization(Normalization::Normalized);
    for (b, n) in back
        .theta()
        .unwrap()
        .iter()
        .zip(&normalized.theta().unwrap())
    {
        prop_assert!(close(*b, *n, 1e-15));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_unnormalized_fit_is_the_normalized_one_rescaled(
        real in data(Domain::Real, 2..=2, 20..60, false),
        binary in data(Domain::Binary, 2..=2, 20..60, false),
    ) {
        normalizations_are_one_fit(GaussianNb::params(), &real)?;
        normalizations_are_one_fit(BernoulliNb::params(), &binary)?;
    }

    #[test]
    fn naive_bayes_is_a_special_case(
        real in data(Domain::Real, 2..=3, 10..30, false),
        binary in data(Domain::Binary, 2..=3, 10..30, false),
        levels in data(Domain::Levels, 2..=3, 10..30, false),
    ) {
        equals_naive_bayes(GaussianNb::params(), &real)?;
        equals_naive_bayes(BernoulliNb::params(), &binary)?;
        equals_naive_bayes(categorical(levels.x.ncols()), &levels)?;
    }

    #[test]
    fn fitted_theta_zeroes_the_gradient(
        real in data(Domain::Real, 2..=2, 20..60, true),
        binary in data(Domain::Binary, 2..=2, 20..60, false),
        levels in data(Domain::Levels, 2..=2, 20..60, true),
        multi in data(Domain::Real, 3..=3, 20..60, true),
    ) {
        use Intercept::{Discriminative, LogPriorRatio};
        use Normalization::{Normalized, Unnormalized};
        for (solver, intercept, prior, normalization) in [
            (ThetaSolver::Glm, Discriminative, None, Normalized),
            (ThetaSolver::Newton, Discriminative, Some(2.0), Unnormalized),
            (ThetaSolver::Multiclass, LogPriorRatio, None, Normalized),
            (ThetaSolver::Multiclass, Discriminative, Some(0.5), Normalized),
        ] {
            gradient_vanishes(GaussianNb::params(), &real, solver, intercept, prior, normalization)?;
            gradient_vanishes(BernoulliNb::params(), &binary, solver, intercept, prior, normalization)?;
            gradient_vanishes(categorical(levels.x.ncols()), &levels, solver, intercept, prior, normalization)?;
        }
        for (intercept, prior) in [(Discriminative, None), (LogPriorRatio, Some(1.0))] {
            gradient_vanishes(GaussianNb::params(), &multi, ThetaSolver::Auto, intercept, prior, Normalized)?;
        }
    }

    #[test]
    fn leave_one_out_theta_equals_refits(
        real in data(Domain::Real, 2..=2, 10..24, true),
        binary in data(Domain::Binary, 2..=2, 10..24, false),
        levels in data(Domain::Levels, 2..=2, 10..24, true),
    ) {
        let g = GaussianNb::params();
        leave_one_out_equals_refits(g.clone(), &real, |x, y, w| match w {
            Some(w) => g.fit_weighted(x, y, w),
            None => g.fit(x, y),
        })?;
        let b = BernoulliNb::params();
        leave_one_out_equals_refits(b.clone(), &binary, |x, y, w| match w {
            Some(w) => b.fit_weighted(x, y, w),
            None => b.fit(x, y),
        })?;
        let c = categorical(levels.x.ncols());
        leave_one_out_equals_refits(c.clone(), &levels, |x, y, w| match w {
            Some(w) => c.fit_weighted(x, y, w),
            None => c.fit(x, y),
        })?;
    }

    #[test]
    fn two_class_forms_agree(
        real in data(Domain::Real, 2..=2, 20..60, true),
        binary in data(Domain::Binary, 2..=2, 20..60, false),
        loo in any::<bool>(),
    ) {
        binary_and_multiclass_agree(GaussianNb::params(), &real, loo)?;
        binary_and_multiclass_agree(BernoulliNb::params(), &binary, loo)?;
    }

    #[test]
    fn posteriors_sum_to_one(
        real in data(Domain::Real, 2..=3, 15..40, true),
        levels in data(Domain::Levels, 2..=3, 15..40, false),
    ) {
        let hybrid = fit_hybrid(Hybrid::params(GaussianNb::params()).prior_variance(1.0), &real).unwrap();
        posteriors_are_distributions(&hybrid, real.x_test.view())?;
        let hybrid = fit_hybrid(Hybrid::params(categorical(levels.x.ncols())).leave_one_out(true).prior_variance(1.0), &levels).unwrap();
        posteriors_are_distributions(&hybrid, levels.x_test.view())?;
    }
}
