//! Golden tests of logistic regression against R's `glm(family = binomial)` and
//! scikit-learn's `LogisticRegression` (fixtures and the scripts that made them are in
//! `tests/fixtures/logistic/`).
//!
//! Tolerances: `assert_close` is absolute below 1 and relative above. Newton fits stop at a
//! gradient norm of 1e-10 (ours) and the references at glm's deviance criterion 1e-8 (whose
//! coefficients are accurate to about 1e-8 after the quadratic convergence of IRLS) or
//! sklearn's newton-cg at a gradient max-norm below 1e-14 (recorded in each fixture): 1e-6 is
//! well above both.

use crate::logistic_support::{assert_close, glm_order, load_fixture_data, load_pima, Reference};
use gendisc_core::{ConditionalModel, Convergence, Fit, FitWeighted};
use gendisc_discriminative::logistic::{LogisticRegression, LogisticSolver};
use gendisc_optim::Status;
use ndarray::{Array1, Array2};
use sprs::CsMat;

/// Our coefficients in glm's order.
fn glm_coefficients(model: &LogisticRegression) -> Vec<f64> {
    let weights = model.coefficients().row(0).to_vec();
    glm_order(
        &weights,
        model.fits_intercept().then(|| model.intercept()[0]),
    )
}

fn fitted_class1(model: &LogisticRegression, x: &Array2<f64>) -> Vec<f64> {
    model.predict_proba(x.view()).unwrap().column(1).to_vec()
}

/// Default (Newton) and glm-compatible fits against one glm fixture of non-separable data.
fn check_glm(reference: &str, intercept: bool, weighted: bool) {
    let r = Reference::load(reference);
    let data = load_fixture_data("glm_data.csv");
    let params = LogisticRegression::params().fit_intercept(intercept);
    let w = data.w.as_ref().expect("weights");
    let fit = |p: &gendisc_discriminative::logistic::LogisticRegressionParams| {
        if weighted {
            p.fit_weighted(data.x.view(), data.y.view(), w.view())
                .unwrap()
        } else {
            p.fit(data.x.view(), data.y.view()).unwrap()
        }
    };

    let newton = fit(&params);
    assert_eq!(newton.report().solver, LogisticSolver::Newton);
    assert_eq!(newton.report().status, Status::Converged);
    assert!(!newton.report().separated);
    assert_close(
        "coefficients",
        &glm_coefficients(&newton),
        &r.floats("coefficients"),
        1e-6,
    );
    assert_close(
        "deviance",
        &[newton.report().deviance],
        &[r.float("deviance")],
        1e-9,
    );
    assert_close(
        "fitted",
        &fitted_class1(&newton, &data.x),
        &r.floats("fitted"),
        1e-8,
    );

    let glm = fit(&params.clone().solver(LogisticSolver::GlmIrls));
    assert_eq!(glm.report().iterations, r.integer("iter"), "glm's fit$iter");
    assert_eq!(glm.report().status, Status::Converged);
    // Same algorithm, same start, same stopping point: agreement to round-off in the
    // least-squares solves (QR in R, Cholesky here).
    assert_close(
        "glm coefficients",
        &glm_coefficients(&glm),
        &r.floats("coefficients"),
        1e-10,
    );
    assert_close(
        "glm fitted",
        &fitted_class1(&glm, &data.x),
        &r.floats("fitted"),
        1e-10,
    );
}

#[test]
fn glm_with_intercept() {
    check_glm("glm_intercept.txt", true, false);
}

#[test]
fn glm_without_intercept() {
    check_glm("glm_no_intercept.txt", false, false);
}

#[test]
fn glm_with_weights_including_zeros() {
    check_glm("glm_weighted.txt", true, true);
}

#[test]
fn glm_on_pima() {
    let Some(data) = load_pima() else { return };
    let r = Reference::load("glm_pima.txt");
    let model = LogisticRegression::params()
        .fit(data.x.view(), data.y.view())
        .unwrap();
    assert!(model.report().is_converged());
    assert_close(
        "coefficients",
        &glm_coefficients(&model),
        &r.floats("coefficients"),
        1e-6,
    );
    assert_close(
        "deviance",
        &[model.report().deviance],
        &[r.float("deviance")],
        1e-9,
    );
    assert_close(
        "fitted",
        &fitted_class1(&model, &data.x),
        &r.floats("fitted"),
        1e-8,
    );
    let glm = LogisticRegression::params()
        .solver(LogisticSolver::GlmIrls)
        .fit(data.x.view(), data.y.view())
        .unwrap();
    assert_eq!(glm.report().iterations, r.integer("iter"));
}

/// Complete separation: glm runs to its 25-iteration cap with huge coefficients; the
/// glm-compatible mode stops at the same iteration with the same coefficients and flags it.
#[test]
fn glm_stops_where_glm_stops_on_separated_data() {
    for (fixture, data_file, expected) in [
        (
            "glm_separable.txt",
            "glm_separable.csv",
            Status::MaxIterations,
        ),
        (
            "glm_separable_margin.txt",
            "glm_separable_margin.csv",
            Status::Converged,
        ),
        (
            "glm_quasi_separable.txt",
            "glm_quasi_separable.csv",
            Status::Converged,
        ),
    ] {
        let r = Reference::load(fixture);
        let data = load_fixture_data(data_file);
        let glm = LogisticRegression::params()
            .solver(LogisticSolver::GlmIrls)
            .fit(data.x.view(), data.y.view())
            .unwrap();
        let report = glm.report();
        assert_eq!(report.iterations, r.integer("iter"), "{fixture}: fit$iter");
        assert_eq!(
            report.status.is_converged(),
            r.integer("converged") == 1,
            "{fixture}"
        );
        assert_eq!(report.status, expected, "{fixture}");
        assert!(report.separated, "{fixture}: separation not flagged");
        // glm's own status stays the solver's; the fit's is that no estimate exists.
        assert_eq!(report.status(), Status::NoFiniteMinimiser, "{fixture}");
        assert!(!report.is_converged());
        // After 17–25 iterations on the way to infinity the coefficients carry the round-off
        // of every weighted least-squares solve (QR in R, Cholesky here): about 1e-9 measured.
        assert_close(
            &format!("{fixture} coefficients"),
            &glm_coefficients(&glm),
            &r.floats("coefficients"),
            1e-7,
        );
        assert!(
            report.deviance.is_finite() && report.deviance < r.float("deviance") * 1.01 + 1e-12
        );
    }
}

/// The default Newton fit on separated data: no loop, no NaN, the flag set, and the fitted
/// direction that of glm's.
#[test]
fn newton_flags_separation() {
    for data_file in [
        "glm_separable.csv",
        "glm_separable_margin.csv",
        "glm_quasi_separable.csv",
    ] {
        let data = load_fixture_data(data_file);
        let model = LogisticRegression::params()
            .fit(data.x.view(), data.y.view())
            .unwrap();
        let report = model.report();
        assert!(report.separated, "{data_file}: {report:?}");
        assert!(model.coefficients().iter().all(|c| c.is_finite()));
        assert!(report.iterations <= 100, "{report:?}");
        let p = model.predict_proba(data.x.view()).unwrap();
        assert!(p.iter().all(|v| v.is_finite()));
        // A prior is the documented remedy: the estimate then exists and is not flagged.
        let ridge = LogisticRegression::params()
            .prior_variance(10.0)
            .fit(data.x.view(), data.y.view())
            .unwrap();
        assert!(
            ridge.report().is_converged(),
            "{data_file}: {:?}",
            ridge.report()
        );
    }
    // Complete separation: the direction of the coefficients is glm's.
    let r = Reference::load("glm_separable.txt");
    let data = load_fixture_data("glm_separable.csv");
    let model = LogisticRegression::params()
        .fit(data.x.view(), data.y.view())
        .unwrap();
    let (ours, theirs) = (
        Array1::from(glm_coefficients(&model)),
        Array1::from(r.floats("coefficients")),
    );
    let cosine = ours.dot(&theirs) / (ours.dot(&ours) * theirs.dot(&theirs)).sqrt();
    assert!(cosine > 0.999, "cosine {cosine}");
}

/// Ours and sklearn's `coef_`, `intercept_` and `predict_proba`.
fn check_sklearn(fixture: &str, data_file: &str, sigma2: f64, intercept: bool, weighted: bool) {
    let r = Reference::load(fixture);
    let data = load_fixture_data(data_file);
    let sparse = CsMat::csr_from_dense(data.x.view(), 0.0);
    let params = LogisticRegression::params()
        .prior_variance(sigma2)
        .fit_intercept(intercept);
    for solver in [
        LogisticSolver::Newton,
        LogisticSolver::Lbfgs,
        LogisticSolver::ConjugateGradient,
    ] {
        let p = params.clone().solver(solver);
        // Newton converges quadratically to a gradient norm far below its 1e-10 tolerance.
        // The first-order solvers' line searches compare values of f, so they stall where the
        // decrease still available, ‖∇f‖²/(2h), is lost in f's rounding (‖∇f‖ ≈ 1e-8 here);
        // their tolerance, 1e-7, sits above that floor and, with curvatures of order 0.1 in
        // the flattest direction, leaves the coefficients within about 1e-5 (Newton, the
        // default, matches to 1e-6 and better).
        let (coef_tol, proba_tol) = match solver {
            LogisticSolver::Newton => (1e-6, 1e-8),
            _ => (1e-5, 1e-6),
        };
        let models = if weighted {
            let w = data.w.as_ref().expect("weights");
            [
                p.fit_weighted(data.x.view(), data.y.view(), w.view())
                    .unwrap(),
                p.fit_sparse_weighted(sparse.view(), data.y.view(), w.view())
                    .unwrap(),
            ]
        } else {
            [
                p.fit(data.x.view(), data.y.view()).unwrap(),
                p.fit_sparse(sparse.view(), data.y.view()).unwrap(),
            ]
        };
        for (model, layout) in models.iter().zip(["dense", "sparse"]) {
            let what = format!("{fixture} {solver:?} {layout}");
            assert_eq!(
                model.report().status,
                Status::Converged,
                "{what}: {:?}",
                model.report()
            );
            assert!(!model.report().separated);
            let coef: Vec<f64> = model.coefficients().iter().copied().collect();
            assert_close(&format!("{what} coef"), &coef, &r.floats("coef"), coef_tol);
            if intercept {
                let b = model.intercept().to_vec();
                assert_close(
                    &format!("{what} intercept"),
                    &b,
                    &r.floats("intercept"),
                    coef_tol,
                );
            } else {
                assert!(model.intercept().iter().all(|&b| b == 0.0));
            }
            let proba: Vec<f64> = model
                .predict_proba(data.x.view())
                .unwrap()
                .iter()
                .copied()
                .collect();
            assert_close(
                &format!("{what} proba"),
                &proba,
                &r.floats("proba"),
                proba_tol,
            );
        }
    }
}

#[test]
fn sklearn_binary_l2() {
    check_sklearn("sk_binary_c0.5.txt", "sk_binary.csv", 0.5, true, false);
}

#[test]
fn sklearn_binary_l2_without_intercept() {
    check_sklearn(
        "sk_binary_c2_no_intercept.txt",
        "sk_binary.csv",
        2.0,
        false,
        false,
    );
}

#[test]
fn sklearn_binary_l2_weighted() {
    check_sklearn(
        "sk_binary_c0.5_weighted.txt",
        "sk_binary.csv",
        0.5,
        true,
        true,
    );
}

#[test]
fn sklearn_multinomial_l2() {
    check_sklearn(
        "sk_multinomial_c1.txt",
        "sk_multinomial.csv",
        1.0,
        true,
        false,
    );
}

#[test]
fn sklearn_multinomial_l2_without_intercept() {
    check_sklearn(
        "sk_multinomial_c0.1_no_intercept.txt",
        "sk_multinomial.csv",
        0.1,
        false,
        false,
    );
}
