//! Agreement with reference implementations: R's stats package (`reference/r_reference.R`)
//! and scikit-learn with mpmath (`reference/python_reference.py`). The scripts that produced
//! the committed CSV files sit next to them.

use gendisc_metrics::distributions::{
    standard_normal_cdf, standard_normal_quantile, student_t_cdf, student_t_quantile,
};
use gendisc_metrics::{
    binary_brier_score, binary_brier_score_proba, brier_score, brier_score_proba, log_loss,
    logistic_loss_mean, logistic_loss_sum, mean_confidence_interval, median, quantile,
    sample_std_dev, Summary,
};
use ndarray::{Array1, Array2};

const R_REFERENCE: &str = include_str!("reference/r_reference.csv");
const PYTHON_REFERENCE: &str = include_str!("reference/python_reference.csv");

/// One line of a reference file: `name,arguments,value`.
struct Case {
    name: String,
    args: Vec<f64>,
    value: f64,
}

fn parse(csv: &str) -> Vec<Case> {
    csv.lines()
        .skip(1)
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), 3, "malformed reference line {line:?}");
            let number = |s: &str| {
                s.parse::<f64>()
                    .unwrap_or_else(|e| panic!("bad number {s:?} in {line:?}: {e}"))
            };
            Case {
                name: fields[0].to_string(),
                args: fields[1].split_whitespace().map(number).collect(),
                value: number(fields[2]),
            }
        })
        .collect()
}

/// Checks every case, collecting all disagreements into one report.
fn check_all(cases: &[Case], relative_tolerance: f64, compute: impl Fn(&Case) -> Option<f64>) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in cases {
        let Some(actual) = compute(case) else {
            continue;
        };
        checked += 1;
        let error = if actual == case.value {
            0.0
        } else {
            (actual - case.value).abs() / case.value.abs().max(f64::MIN_POSITIVE)
        };
        if error.is_nan() || error > relative_tolerance {
            failures.push(format!(
                "{}({:?}) = {actual:e}, reference {:e}, relative error {error:.1e}",
                case.name, case.args, case.value
            ));
        }
    }
    assert!(checked > 0, "no reference case was checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} cases disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn student_t_and_normal_match_r_and_mpmath() {
    let mut cases = parse(R_REFERENCE);
    cases.extend(parse(PYTHON_REFERENCE));
    check_all(&cases, 1e-13, |case| {
        let value = match case.name.as_str() {
            "qt" => student_t_quantile(case.args[0], case.args[1]),
            "pt" => student_t_cdf(case.args[0], case.args[1]),
            "qnorm" => standard_normal_quantile(case.args[0]),
            "pnorm" => standard_normal_cdf(case.args[0]),
            _ => return None,
        };
        Some(value.unwrap())
    });
}

#[test]
fn sample_statistics_match_r() {
    let cases = parse(R_REFERENCE);
    check_all(&cases, 1e-14, |case| {
        let value = match case.name.as_str() {
            "quantile7" => quantile(&case.args[1..], case.args[0]),
            "median" => median(&case.args),
            "mean" => Summary::from_values(&case.args).map(|s| s.mean),
            "sd" => sample_std_dev(&case.args),
            _ => return None,
        };
        Some(value.unwrap())
    });
}

#[test]
fn t_intervals_match_r() {
    // An interval end is a difference `mean ± half-width` and may be much smaller than either
    // term, so it is compared at a looser relative tolerance than the statistics themselves.
    let cases = parse(R_REFERENCE);
    check_all(&cases, 1e-13, |case| {
        let value = match case.name.as_str() {
            "tci95_lower" => Summary::from_values(&case.args).map(|s| s.mean_ci95.unwrap().lower),
            "tci95_upper" => Summary::from_values(&case.args).map(|s| s.mean_ci95.unwrap().upper),
            "tci80_lower" => mean_confidence_interval(&case.args, 0.8).map(|ci| ci.lower),
            "tci80_upper" => mean_confidence_interval(&case.args, 0.8).map(|ci| ci.upper),
            _ => return None,
        };
        Some(value.unwrap())
    });
}

/// Unpacks `K, (label, p_1 … p_K)*` into log-probabilities and labels.
fn log_proba_and_labels(args: &[f64]) -> (Array2<f64>, Array1<usize>) {
    let k = args[0] as usize;
    let rows: Vec<&[f64]> = args[1..].chunks(k + 1).collect();
    let labels = rows.iter().map(|row| row[0] as usize).collect();
    let log_proba = Array2::from_shape_fn((rows.len(), k), |(i, j)| rows[i][j + 1].ln());
    (log_proba, labels)
}

#[test]
fn probabilistic_metrics_match_scikit_learn() {
    let cases = parse(PYTHON_REFERENCE);
    check_all(&cases, 1e-13, |case| {
        let metric = match case.name.as_str() {
            "log_loss_mean" => logistic_loss_mean,
            "log_loss_sum" => logistic_loss_sum,
            "brier_multiclass" => brier_score,
            "brier_binary" => binary_brier_score,
            _ => return None,
        };
        let (log_proba, y) = log_proba_and_labels(&case.args);
        Some(metric(y.view(), log_proba.view()).unwrap())
    });
}

#[test]
fn probability_metrics_match_scikit_learn() {
    let cases = parse(PYTHON_REFERENCE);
    check_all(&cases, 1e-13, |case| {
        let metric = match case.name.as_str() {
            "log_loss_mean" => log_loss,
            "brier_multiclass" => brier_score_proba,
            "brier_binary" => binary_brier_score_proba,
            _ => return None,
        };
        let (log_proba, y) = log_proba_and_labels(&case.args);
        let proba = log_proba.mapv(f64::exp);
        Some(metric(y.view(), proba.view()).unwrap())
    });
}
