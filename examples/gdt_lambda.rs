//! Bouchard & Triggs' generative–discriminative trade-off on a CSV file: the λ path from the
//! generative fit (λ = 1) to the discriminative one (λ = 0), and λ chosen by cross-validation.
//!
//! ```text
//! cargo run -p gendisc-examples --example gdt_lambda [file.csv]
//! ```
//!
//! Without an argument the example reads the sample `examples/data/machines.csv`. The family
//! is QDA (a full covariance per class). Each λ of the path is warm-started at the previous
//! fit and scored on the held-out rows; `GdtCv` then picks λ by 5-fold cross-validation of the
//! log loss on the training rows alone, as a user would, and refits at the chosen λ.
//!
//! Each fit's status is printed because it matters: the conditional likelihood alone (λ = 0)
//! need not have a finite maximum within QDA, and such a fit stops where its objective stopped
//! being finite, saying so in its report (`require_convergence` makes that an error instead).

use gendisc::data::loaders::TableReader;
use gendisc::data::splits::stratified_train_test_split;
use gendisc::gdt::{CvCriterion, TABLE1_GRID};
use gendisc::metrics::{error_rate, label_error_rate, log_loss, logistic_loss_mean};
use gendisc::prelude::*;

/// The sample table, next to this file.
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/machines.csv");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| SAMPLE.to_owned());
    let table = TableReader::csv().read(&path)?;
    let x = table.to_dense()?;
    let y = table.labels();
    let data = stratified_train_test_split(x.view(), &y, 0.25, 42)?;
    let (x_train, x_test) = (data.x_train.view(), data.x_test.view());

    // The path works on class indices: encode the labels once.
    let (classes, y_train) = ClassLabels::fit(&data.y_train)?;
    let y_test = classes.encode(&data.y_test)?;
    let path_models =
        Gdt::params(Family::Qda)
            .check()?
            .fit_path(&TABLE1_GRID, x_train, y_train.view(), None)?;
    println!("{path}: QDA family, {} training rows", y_train.len());
    println!(
        "{:>5} {:>11} {:>14}  fit",
        "λ", "test error", "test log loss"
    );
    for (lambda, model) in TABLE1_GRID.iter().zip(&path_models) {
        println!(
            "{lambda:>5} {:>11.3} {:>14.3}  {} ({} iterations)",
            error_rate(y_test.view(), model.predict(x_test)?.view())?,
            logistic_loss_mean(y_test.view(), model.predict_log_proba(x_test)?.view())?,
            model.report().status,
            model.report().iterations
        );
    }

    // λ by cross-validation, on the user's labels.
    let cv_params = GdtCv::params(Family::Qda)
        .criterion(CvCriterion::LogLoss)
        .seed(7);
    let cv = LabelledModel::fit(&cv_params, x_train, &data.y_train)?;
    let selection = cv.model().selection();
    let scores: Vec<String> = selection.scores.iter().map(|s| format!("{s:.3}")).collect();
    println!(
        "cross-validated log loss at λ = {:?}: {}",
        selection.grid,
        scores.join(", ")
    );
    println!(
        "chosen λ = {}: test error {:.3}, test log loss {:.3}",
        selection.lambda,
        label_error_rate(&data.y_test, &cv.predict(x_test)?)?,
        log_loss(y_test.view(), cv.predict_proba(x_test)?.view())?
    );
    Ok(())
}
