//! Every fit of this crate that can stop at an iteration cap returns the model where it
//! stopped, flagged, by default; `require_convergence(true)` makes that an error.

use gendisc_core::{Convergence, Error, Fit};
use gendisc_discriminative::logistic::LogisticSolver;
use gendisc_discriminative::{
    LinearSvm, LinearSvmParams, LogisticRegression, LogisticRegressionParams, MultiTaskSolver,
    MultiTaskSvm,
};
use gendisc_optim::{Criterion, Status};
use ndarray::{Array1, Array2};

/// Two overlapping classes that no solver fits in one iteration.
fn data() -> (Array2<f64>, Array1<usize>) {
    let x = Array2::from_shape_fn((30, 3), |(i, j)| {
        ((i * (j + 2)) as f64 * 0.37 + j as f64).sin() * 2.0
    });
    let y = Array1::from_iter(
        (0..30).map(|i| usize::from(x[[i, 0]] + 0.8 * x[[i, 2]] > 0.3) ^ usize::from(i % 7 == 0)),
    );
    (x, y)
}

#[test]
fn logistic_regression_at_its_cap() {
    let (x, y) = data();
    for solver in [
        LogisticSolver::Newton,
        LogisticSolver::Lbfgs,
        LogisticSolver::ConjugateGradient,
        LogisticSolver::GlmIrls,
    ] {
        let capped = LogisticRegression::params()
            .solver(solver)
            .max_iterations(1);
        let model = capped.fit(x.view(), y.view()).unwrap();
        assert_eq!(model.report().status, Status::MaxIterations, "{solver:?}");
        assert!(!model.report().is_converged());
        match capped.require_convergence(true).fit(x.view(), y.view()) {
            Err(e @ Error::NotConverged { iterations: 1, .. }) => {
                let message = e.to_string();
                assert!(message.contains(&format!("{solver:?}")), "{message}");
                assert!(message.contains("max_iterations"), "{message}");
            }
            other => panic!("{solver:?}: expected NotConverged, got {other:?}"),
        }
        // Asking changes nothing for a fit that converges.
        let free = LogisticRegression::params().solver(solver);
        assert_eq!(
            free.clone()
                .require_convergence(true)
                .fit(x.view(), y.view())
                .unwrap(),
            free.fit(x.view(), y.view()).unwrap()
        );
    }
}

/// The report names the rule a fit was judged by and what it cost, as the solvers' own
/// reports do: the gradient criterion for the gradient-based solvers, glm's relative change in
/// deviance for its IRLS.
#[test]
fn logistic_reports_carry_their_criterion_and_evaluations() {
    let (x, y) = data();
    for solver in [
        LogisticSolver::Newton,
        LogisticSolver::Lbfgs,
        LogisticSolver::ConjugateGradient,
        LogisticSolver::GlmIrls,
    ] {
        let report = *LogisticRegression::params()
            .solver(solver)
            .tolerance(1e-7)
            .fit(x.view(), y.view())
            .unwrap()
            .report();
        let expected = match solver {
            LogisticSolver::GlmIrls => Criterion::RelativeChange { tolerance: 1e-7 },
            _ => Criterion::new(1e-7),
        };
        assert_eq!(report.criterion, Some(expected), "{solver:?}");
        assert!(
            report.evaluations > report.iterations,
            "{solver:?}: {} evaluations for {} iterations",
            report.evaluations,
            report.iterations
        );
    }
}

#[test]
fn linear_svm_at_its_cap() {
    let (x, y) = data();
    let capped = LinearSvm::params().tol(1e-12).max_iter(2);
    let model = capped.fit(x.view(), y.view()).unwrap();
    assert!(!model.is_converged());
    match capped
        .clone()
        .require_convergence(true)
        .fit(x.view(), y.view())
    {
        Err(e @ Error::NotConverged { iterations: 2, .. }) => {
            assert!(
                e.to_string().contains("linear SVM (class 1 vs class 0)"),
                "{e}"
            )
        }
        other => panic!("expected NotConverged, got {other:?}"),
    }
    // Three classes: the first one-vs-rest problem that stops short is named.
    let y3 = Array1::from_iter((0..30).map(|i| i % 3));
    match capped.require_convergence(true).fit(x.view(), y3.view()) {
        Err(e @ Error::NotConverged { .. }) => {
            assert!(e.to_string().contains("class 0 vs rest"), "{e}")
        }
        other => panic!("expected NotConverged, got {other:?}"),
    }
    let free = LinearSvm::params();
    assert_eq!(
        free.clone()
            .require_convergence(true)
            .fit(x.view(), y.view())
            .unwrap(),
        free.fit(x.view(), y.view()).unwrap()
    );
}

#[test]
fn multitask_svm_at_its_cap() {
    let (x, y) = data();
    let (a, b) = (
        x.slice(ndarray::s![..15, ..]),
        x.slice(ndarray::s![15.., ..]),
    );
    let (ya, yb) = (y.slice(ndarray::s![..15]), y.slice(ndarray::s![15..]));
    let tasks = [(a, ya), (b, yb)];
    let capped = MultiTaskSvm::params().solver(MultiTaskSolver::DualCoordinateDescent {
        intercept_scaling: 10.0,
        tol: 1e-12,
        max_iter: 2,
    });
    let model = capped.fit(&tasks).unwrap();
    assert!(!model.is_converged());
    match capped.require_convergence(true).fit(&tasks) {
        Err(e @ Error::NotConverged { iterations: 2, .. }) => {
            assert!(e.to_string().contains("multi-task SVM"), "{e}")
        }
        other => panic!("expected NotConverged, got {other:?}"),
    }
    let model = MultiTaskSvm::params()
        .c2(1.0)
        .solver(MultiTaskSolver::dual_coordinate_descent())
        .require_convergence(true)
        .fit(&tasks)
        .unwrap();
    assert!(model.is_converged());
    assert!(MultiTaskSvm::params().fit(&tasks).unwrap().is_converged());
}

/// Parameters serialised before the setting existed read as not asking.
#[test]
fn older_serialised_parameters_do_not_ask() {
    let mut json = serde_json::to_value(LogisticRegression::params()).unwrap();
    assert_eq!(json["require_convergence"], false);
    json.as_object_mut().unwrap().remove("require_convergence");
    let params: LogisticRegressionParams = serde_json::from_value(json).unwrap();
    assert_eq!(params, LogisticRegression::params());

    let asked = serde_json::to_value(LinearSvm::params().require_convergence(true)).unwrap();
    assert_eq!(asked["require_convergence"], true);
    let mut json = asked;
    json.as_object_mut().unwrap().remove("require_convergence");
    let params: LinearSvmParams = serde_json::from_value(json).unwrap();
    assert_eq!(params, LinearSvm::params());
}
