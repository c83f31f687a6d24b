//! The normalized hybrid against naive Bayes and logistic regression on one of Xue &
//! Titterington's simulated normal datasets (§3.2: `N(±μ, Σ)` with `Σ` block diagonal, so the
//! regions `x¹ = (x_1, x_2)` and `x² = (x_3, x_4)` are independent given the class but the
//! features within them are not).
//!
//! `cargo run --example hybrid_gaussian`

use gendisc_core::{ConditionalModel, Fit};
use gendisc_data::generators::XueTitteringtonPreset;
use gendisc_discriminative::logistic::LogisticRegression;
use gendisc_generative::{GaussianNb, VarianceEstimator};
use gendisc_hybrid::{Hybrid, Normalization};
use ndarray::{s, Array1, ArrayView1, ArrayView2, Axis};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Test error rate and logistic loss (the paper's ER and LL, §3.1.3, LL per test row).
fn evaluate<C: ConditionalModel>(
    model: &C,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
) -> gendisc_core::Result<(f64, f64)> {
    let predicted = model.predict(x)?;
    let errors = predicted.iter().zip(y).filter(|(p, t)| p != t).count();
    let log_likelihood = model.conditional_log_likelihood(x, y, None)?;
    let n = y.len() as f64;
    Ok((errors as f64 / n, -log_likelihood / n))
}

fn main() -> gendisc_core::Result<()> {
    // 500 rows per class; the first 100 of each class train, the rest test.
    let preset = XueTitteringtonPreset::NormalEqualBlock;
    let (x, y) = preset.generate(500, &mut ChaCha8Rng::seed_from_u64(2003));
    let train: Vec<usize> = (0..100).chain(500..600).collect();
    let test: Vec<usize> = (100..500).chain(600..1000).collect();
    let (x_train, y_train) = (x.select(Axis(0), &train), y.select(Axis(0), &train));
    let (x_test, y_test) = (x.select(Axis(0), &test), y.select(Axis(0), &test));
    println!(
        "{} (§{}): {} training rows, {} test rows",
        preset.name(),
        preset.section(),
        train.len(),
        test.len()
    );

    // e1071::naiveBayes's variances (÷(n − 1)), as in the paper.
    let naive_bayes = || GaussianNb::params().variance_estimator(VarianceEstimator::Unbiased);
    let regions = vec![vec![0, 1], vec![2, 3]];

    let nb = naive_bayes().fit(x_train.view(), y_train.view())?;
    let hybrid = Hybrid::params(naive_bayes())
        .regions(regions.clone())
        .normalization(Normalization::Normalized)
        .fit(x_train.view(), y_train.view())?;
    let hybrid_loo = Hybrid::params(naive_bayes())
        .regions(regions)
        .leave_one_out(true)
        .fit(x_train.view(), y_train.view())?;
    let logistic = LogisticRegression::params().fit(x_train.view(), y_train.view())?;

    let report = hybrid.report().expect("a fitted model has a report");
    println!(
        "hybrid θ = (θ_0, θ_1, θ_2) = {:.4}; naive Bayes is θ = (log prior ratio, 2, 2)",
        hybrid.theta()?
    );
    println!(
        "  fitted by {:?} in {} iterations, status: {}, separated: {}, aliased regions: {:?}",
        report.solver, report.iterations, report.status, report.separated, report.aliased_regions
    );
    println!(
        "leave-one-out θ = {:.4} (Raina et al. eq. (11))",
        hybrid_loo.theta()?
    );
    println!("\n{:<26} {:>10} {:>10}", "classifier", "test ER", "test LL");
    for (name, (er, ll)) in [
        ("naive Bayes", evaluate(&nb, x_test.view(), y_test.view())?),
        (
            "normalized hybrid",
            evaluate(&hybrid, x_test.view(), y_test.view())?,
        ),
        (
            "hybrid, leave-one-out θ",
            evaluate(&hybrid_loo, x_test.view(), y_test.view())?,
        ),
        (
            "logistic regression",
            evaluate(&logistic, x_test.view(), y_test.view())?,
        ),
    ] {
        println!("{name:<26} {er:>10.4} {ll:>10.4}");
    }

    let first: Array1<f64> = hybrid
        .predict_proba(x_test.slice(s![..3, ..]))?
        .column(1)
        .to_owned();
    println!("\np(y = 1 | x) of the first three test rows: {first:.4}");
    Ok(())
}
