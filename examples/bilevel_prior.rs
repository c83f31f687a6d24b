//! Epshteyn & DeJong's bilevel classifier: a max-margin classifier that must also be nearly
//! Bayes-optimal for class means a generative prior finds likely — here a prior learned from
//! an earlier batch of data, for a new task with only a handful of labelled rows.
//!
//! ```text
//! cargo run -p gendisc-examples --example bilevel_prior [file.csv]
//! ```
//!
//! Needs the facade's feature `bilevel`. Without an argument the example reads the sample
//! `examples/data/machines.csv` (two classes; the classifier is binary). Half of the rows play
//! the earlier batch: Gaussian naive Bayes fitted on them gives the prior's class means `t_i`,
//! their uncertainty `Ω_i` (the variance of a mean, σ²/n) and the class scales `Σ_i`. From the
//! other half, 12 rows are the new task's training set and the rest its test set. The bilevel
//! classifier and a linear SVM without a prior see the same 12 rows. Features are
//! standardised with the earlier batch's means and standard deviations, since a margin
//! depends on the features' units.

use gendisc::bilevel::{BilevelClassifier, GenerativePrior, ScaleMatrix};
use gendisc::data::loaders::TableReader;
use gendisc::data::splits::stratified_train_test_split;
use gendisc::metrics::label_error_rate;
use gendisc::prelude::*;

/// The sample table, next to this file.
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/machines.csv");

/// Labelled rows of the new task.
const NEW_TASK_ROWS: usize = 12;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| SAMPLE.to_owned());
    let table = TableReader::csv().read(&path)?;
    let x = table.to_dense()?;
    let y = table.labels();
    let halves = stratified_train_test_split(x.view(), &y, 0.5, 1)?;
    let (earlier_x, earlier_y) = (&halves.x_train, &halves.y_train);

    // Standardise with the earlier batch's moments.
    let mean = earlier_x
        .mean_axis(Axis(0))
        .ok_or("no rows in the earlier batch")?;
    let sd = earlier_x.std_axis(Axis(0), 1.0);
    let standardise = |x: &Array2<f64>| (x - &mean) / &sd;
    let earlier_x = standardise(earlier_x);
    let new_x = standardise(&halves.x_test);

    // The prior from a generative fit on the earlier batch.
    let nb = LabelledModel::fit(&GaussianNb::params(), earlier_x.view(), earlier_y)?;
    let (means, variances) = (nb.model().means(), nb.model().variances());
    let class_rows: Vec<f64> = nb
        .labels()
        .iter()
        .map(|label| earlier_y.iter().filter(|l| *l == label).count() as f64)
        .collect();
    let prior = GenerativePrior::new(
        [means.row(0).to_owned(), means.row(1).to_owned()],
        [
            ScaleMatrix::diagonal(&variances.row(0) / class_rows[0], "Ω₁")?,
            ScaleMatrix::diagonal(&variances.row(1) / class_rows[1], "Ω₂")?,
        ],
        [
            ScaleMatrix::diagonal(variances.row(0).to_owned(), "Σ₁")?,
            ScaleMatrix::diagonal(variances.row(1).to_owned(), "Σ₂")?,
        ],
    )?;

    // The new task: a few labelled rows, the rest for testing.
    let test_fraction = 1.0 - NEW_TASK_ROWS as f64 / new_x.nrows() as f64;
    let task = stratified_train_test_split(new_x.view(), &halves.y_test, test_fraction, 2)?;
    // β is in units of the class standard deviation along w (the synthetic example of the
    // bilevel crate explains the choice); the other constants are the paper's §5 defaults.
    let bilevel_params = BilevelClassifier::params(prior).beta(1.0);
    let bilevel = LabelledModel::fit(&bilevel_params, task.x_train.view(), &task.y_train)?;
    let svm_params = LinearSvm::params().c(0.5);
    let svm = LabelledModel::fit(&svm_params, task.x_train.view(), &task.y_train)?;

    let report = bilevel.model().report();
    println!(
        "{path}: prior from {} earlier rows; {} training and {} test rows of the new task",
        earlier_y.len(),
        task.y_train.len(),
        task.y_test.len()
    );
    println!(
        "bilevel fit: {:?} after {} alternations",
        report.status,
        report.n_iterations()
    );
    let x_test = task.x_test.view();
    for (name, predicted) in [
        ("bilevel, generative prior", bilevel.predict(x_test)?),
        ("linear SVM, no prior", svm.predict(x_test)?),
        ("naive Bayes of the earlier batch", nb.predict(x_test)?),
    ] {
        println!(
            "{name:<34} test error {:.3}",
            label_error_rate(&task.y_test, &predicted)?
        );
    }
    Ok(())
}
