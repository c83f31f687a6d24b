//! The hybrid against R: e1071's `naiveBayes` and `glm` (Xue & Titterington §3.1.2), with the
//! leave-one-out fit computed by brute force in R. Fixtures and the script that made them are
//! in `tests/fixtures/` (see its README).

use std::path::Path;

use gendisc_core::{ConditionalModel, Convergence, FactorisedGenerative, Fit};
use gendisc_generative::{BernoulliNb, GaussianNb, LeaveOneOut, VarianceEstimator};
use gendisc_hybrid::{Hybrid, HybridParams, Normalization, ThetaSolver};
use ndarray::{Array1, Array2};

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `x1,x2,x3,x4,y` with a header line.
fn data(name: &str) -> (Array2<f64>, Array1<usize>) {
    let text = fixture(name);
    let rows: Vec<Vec<f64>> = text
        .lines()
        .skip(1)
        .map(|line| line.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    let x = Array2::from_shape_fn((rows.len(), 4), |(i, j)| rows[i][j]);
    let y = rows.iter().map(|r| r[4] as usize).collect();
    (x, y)
}

/// The numbers after `key:` in a fixture.
fn values(text: &str, key: &str) -> Vec<f64> {
    let prefix = format!("{key}:");
    let line = text
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no `{key}` in fixture"));
    line[prefix.len()..]
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect()
}

fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * want.abs().max(1.0),
        "{what}: {got} vs R {want}"
    );
}

fn check<G>(params: HybridParams<G>, data_file: &str, fixture_file: &str)
where
    G: LeaveOneOut,
    G::Model: FactorisedGenerative,
{
    let (x, y) = data(data_file);
    let expected = fixture(fixture_file);
    let hybrid = params
        .regions(vec![vec![0, 1], vec![2, 3]])
        .fit(x.view(), y.view())
        .unwrap();
    let report = hybrid.report().unwrap();
    assert_eq!(report.solver, ThetaSolver::Glm);
    assert!(report.is_converged(), "{report:?}");
    let theta = hybrid.theta().unwrap();
    for (k, (&got, &want)) in theta
        .iter()
        .zip(&values(&expected, "coefficients"))
        .enumerate()
    {
        assert_close(got, want, 1e-9, &format!("{fixture_file}: θ_{k}"));
    }
    assert_eq!(
        report.iterations as f64,
        values(&expected, "iter")[0],
        "{fixture_file}: glm iterations"
    );
    assert_close(
        -2.0 * report.log_likelihood,
        values(&expected, "deviance")[0],
        1e-9,
        &format!("{fixture_file}: deviance"),
    );
    let p = hybrid.predict_proba(x.view()).unwrap();
    for (i, &want) in values(&expected, "predicted").iter().enumerate() {
        assert_close(
            p[[i, 1]],
            want,
            1e-9,
            &format!("{fixture_file}: p(y = 1 | x_{i})"),
        );
    }
}

/// e1071's Gaussian model: `sd()` with divisor `n − 1`, no variance floor.
fn e1071_gaussian() -> gendisc_generative::GaussianNbParams {
    GaussianNb::params()
        .variance_estimator(VarianceEstimator::Unbiased)
        .var_smoothing(1e-15)
}

#[test]
fn gaussian_normalized_matches_e1071_and_glm() {
    check(
        Hybrid::params(e1071_gaussian()),
        "gaussian.csv",
        "gaussian_normalized.txt",
    );
}

#[test]
fn gaussian_unnormalized_matches_e1071_and_glm() {
    check(
        Hybrid::params(e1071_gaussian()).normalization(Normalization::Unnormalized),
        "gaussian.csv",
        "gaussian_unnormalized.txt",
    );
}

#[test]
fn gaussian_leave_one_out_matches_refitting_in_r() {
    check(
        Hybrid::params(e1071_gaussian()).leave_one_out(true),
        "gaussian.csv",
        "gaussian_leave_one_out.txt",
    );
}

#[test]
fn bernoulli_normalized_matches_e1071_and_glm() {
    check(
        Hybrid::params(BernoulliNb::params()),
        "bernoulli.csv",
        "bernoulli_normalized.txt",
    );
}

#[test]
fn bernoulli_leave_one_out_matches_refitting_in_r() {
    check(
        Hybrid::params(BernoulliNb::params()).leave_one_out(true),
        "bernoulli.csv",
        "bernoulli_leave_one_out.txt",
    );
}
