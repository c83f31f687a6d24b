//! One report type for every estimator: each fit's [`Convergence::solver_reports`] says the
//! same as its status, in the vocabulary of `gendisc_core::convergence`.
//!
//! On random two- and three-class data, for every iterative estimator: the status of the fit
//! is the status of its parts (`Status::of_parts`) but where the estimator knows more than its
//! solver (a separation certificate; GDT's generative fit at `λ = 1`); a part that says
//! `Converged` under the gradient criterion meets it at its own objective value and gradient
//! norm; every part of a fresh fit records a finite, positive tolerance, evaluates the
//! objective at least once per iteration and states a finite objective.

use gendisc::core::convergence::{Convergence, Criterion, Report, Status};
use gendisc::discriminative::logistic::LogisticSolver;
use gendisc::discriminative::{LinearSvm, LogisticRegression, MultiTaskSolver, MultiTaskSvm};
use gendisc::gdt::{Family, Gdt};
use gendisc::generative::{Balls2, GaussianNb};
use gendisc::hybrid::Hybrid;
use gendisc::ndarray::{array, Array1, Array2};
use gendisc::prelude::*;
use gendisc_bilevel::{BilevelClassifier, GenerativePrior};
use proptest::prelude::*;

/// Overlapping classes: rows of class `k` shifted by `0.7·k` along alternating signs.
fn data() -> impl Strategy<Value = (Array2<f64>, Array1<usize>)> {
    (2usize..=3, 1usize..=3, 18usize..30).prop_flat_map(|(k, d, n)| {
        prop::collection::vec(-1.0f64..1.0, n * d).prop_map(move |unit| {
            let y = Array1::from_shape_fn(n, |i| i % k);
            let x = Array2::from_shape_fn((n, d), |(i, j)| {
                unit[i * d + j] + 0.7 * y[i] as f64 * if j % 2 == 0 { 1.0 } else { -1.0 }
            });
            (x, y)
        })
    })
}

/// What every part of a fresh fit states, and whether the parts agree with `status`.
fn check(what: &str, fit: &dyn Convergence, estimator_knows_more: bool) {
    let parts = fit.solver_reports();
    for part in &parts {
        check_part(what, part);
    }
    if !estimator_knows_more {
        assert_eq!(
            Status::of_parts(parts.iter().map(|p| p.status)),
            fit.status(),
            "{what}: {parts:?}"
        );
    }
}

fn check_part(what: &str, part: &Report) {
    let tolerance = part.criterion.tolerance();
    assert!(tolerance.is_finite() && tolerance > 0.0, "{what}: {part:?}");
    assert!(part.evaluations >= part.iterations, "{what}: {part:?}");
    assert!(part.value.is_finite(), "{what}: {part:?}");
    if let Criterion::Gradient { .. } = part.criterion {
        let gradient_norm = part
            .gradient_norm
            .unwrap_or_else(|| panic!("{what}: a gradient criterion without a gradient: {part:?}"));
        if part.status.is_converged() {
            assert!(
                part.criterion.is_met(part.value, gradient_norm),
                "{what}: converged but ‖∇f‖ = {gradient_norm:e} at f = {:e}: {part:?}",
                part.value
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn every_estimator_reports_its_runs_in_the_one_report_type((x, y) in data()) {
        let (x, y) = (x.view(), y.view());
        let two_classes = y.iter().all(|&k| k < 2);
        for solver in LogisticSolver::ALL {
            if solver == LogisticSolver::GlmIrls && !two_classes {
                continue;
            }
            // glm is R's unpenalised fit; the others take a prior, so that their estimate exists.
            let params = LogisticRegression::params().solver(solver);
            let params = match solver {
                LogisticSolver::GlmIrls => params,
                _ => params.prior_variance(10.0),
            };
            let model = params.fit(x, y).unwrap();
            let report = model.report();
            check(&format!("logistic regression ({solver})"), report, report.separated);
        }
        let hybrid = Hybrid::params(GaussianNb::params()).prior_variance(1.0).fit(x, y).unwrap();
        let report = hybrid.report().unwrap();
        check("hybrid", report, report.separated);
        // A family that cannot start on these rows is skipped (QDA on a class with too few rows
        // for its covariance); LDA and Balls2 always fit, so at least six fits run.
        let mut gdt_fits = 0;
        for family in [Family::Lda, Family::Qda, Family::Balls2] {
            for lambda in [0.0, 0.5, 1.0] {
                let Ok(model) = Gdt::params(family).lambda(lambda).fit(x, y) else {
                    continue;
                };
                gdt_fits += 1;
                let report = model.report();
                check(
                    &format!("GDT {family} at λ = {lambda}"),
                    report,
                    lambda == 1.0 || report.has_no_maximiser(),
                );
            }
        }
        prop_assert!(gdt_fits >= 6, "only {} GDT fits ran", gdt_fits);
        let balls2 = Balls2::params().fit(x, y).unwrap();
        check("Balls2's EM", balls2.report(), false);
        prop_assert_eq!(balls2.report().solver_reports().len(), balls2.report().classes.len());
        let svm = LinearSvm::params().fit(x, y).unwrap();
        check("linear SVM", &svm, false);
        prop_assert_eq!(svm.solver_reports().len(), svm.coef().nrows());
    }
}

#[test]
fn the_multi_task_svm_and_the_bilevel_classifier_report_each_program() {
    let x1 = array![
        [-1.5, 0.3],
        [-0.8, -0.2],
        [1.2, 0.1],
        [0.9, -0.4],
        [0.1, 0.5]
    ];
    let y1 = array![0, 0, 1, 1, 0];
    let x2 = array![
        [-1.0, 0.1],
        [-0.5, 0.4],
        [1.0, -0.3],
        [1.4, 0.2],
        [-0.1, -0.6]
    ];
    let y2 = array![0, 0, 1, 1, 1];
    let tasks = [(x1.view(), y1.view()), (x2.view(), y2.view())];
    for solver in [
        MultiTaskSolver::InteriorPoint(Default::default()),
        MultiTaskSolver::dual_coordinate_descent(),
    ] {
        let model = MultiTaskSvm::params()
            .solver(solver.clone())
            .fit(&tasks)
            .unwrap();
        check("multi-task SVM", &model, false);
        let report = model.report();
        assert_eq!(report.iterations, model.iterations() as usize);
        assert_eq!(report.value, model.objective());
        assert!(matches!(
            (&solver, report.criterion),
            (
                MultiTaskSolver::InteriorPoint(_),
                Criterion::InteriorPoint { .. }
            ) | (
                MultiTaskSolver::DualCoordinateDescent { .. },
                Criterion::ProjectedGradientSpread { .. }
            )
        ));
    }

    let prior = GenerativePrior::diagonal(
        [array![-1.0, 0.0], array![1.0, 0.0]],
        [array![0.1, 0.1], array![0.1, 0.1]],
    )
    .unwrap();
    let model = BilevelClassifier::params(prior)
        .fit(x1.view(), y1.view())
        .unwrap();
    check("bilevel classifier", model.report(), false);
    let parts = model.report().solver_reports();
    // The alternation, then each alternation's step-1 program.
    assert_eq!(parts.len(), 1 + model.report().n_iterations());
    assert!(matches!(
        parts[0].criterion,
        Criterion::RelativeChange { .. }
    ));
    assert!(parts[1..]
        .iter()
        .all(|p| matches!(p.criterion, Criterion::InteriorPoint { .. })));
}

/// Removes `key` from every object of `value`, as a file written before it was recorded lacks
/// it.
fn without(mut value: serde_json::Value, key: &str) -> serde_json::Value {
    fn strip(value: &mut serde_json::Value, key: &str) {
        match value {
            serde_json::Value::Object(map) => {
                map.remove(key);
                map.values_mut().for_each(|v| strip(v, key));
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(|v| strip(v, key)),
            _ => {}
        }
    }
    strip(&mut value, key);
    value
}

#[test]
fn reports_of_older_files_say_what_they_did_not_record() {
    let x = array![
        [-1.5, 0.3],
        [-0.8, -0.2],
        [1.2, 0.1],
        [0.9, -0.4],
        [0.1, 0.5],
        [0.4, 0.9]
    ];
    let y = array![0, 0, 1, 1, 0, 1];
    let logistic = LogisticRegression::params()
        .prior_variance(1.0)
        .fit(x.view(), y.view())
        .unwrap();
    let balls2 = Balls2::params().fit(x.view(), y.view()).unwrap();
    let svm = LinearSvm::params().fit(x.view(), y.view()).unwrap();

    let fresh = logistic.report().solver_reports()[0];
    let written = serde_json::to_value(logistic.report()).unwrap();
    let old = without(without(written, "criterion"), "objective");
    let old: gendisc::discriminative::logistic::FitReport = serde_json::from_value(old).unwrap();
    let read = old.solver_reports()[0];
    assert!(matches!(read.criterion, Criterion::Gradient { tolerance } if tolerance.is_nan()));
    assert!(read.value.is_nan());
    assert_eq!(
        (read.status, read.iterations, read.gradient_norm),
        (fresh.status, fresh.iterations, fresh.gradient_norm)
    );

    let old = without(serde_json::to_value(balls2.report()).unwrap(), "tolerance");
    let old: gendisc::generative::Balls2Report = serde_json::from_value(old).unwrap();
    for (read, fresh) in old
        .solver_reports()
        .iter()
        .zip(balls2.report().solver_reports())
    {
        assert!(read.criterion.tolerance().is_nan() && fresh.criterion.tolerance() == 1e-8);
        assert_eq!(read.value, fresh.value);
    }

    let old = without(serde_json::to_value(&svm).unwrap(), "tolerance");
    let old: LinearSvm = serde_json::from_value(old).unwrap();
    assert!(old.solver_reports()[0].criterion.tolerance().is_nan());
    assert_eq!(svm.solver_reports()[0].criterion.tolerance(), 1e-4);
}
