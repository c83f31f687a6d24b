//! Raina et al.'s hybrid beside naive Bayes on a CSV file: naive Bayes' region likelihoods,
//! re-weighted by a discriminatively fitted θ.
//!
//! ```text
//! cargo run -p gendisc-examples --example hybrid [file.csv]
//! ```
//!
//! Without an argument the example reads the sample `examples/data/machines.csv`, whose
//! temperature and motor current are correlated within each class: naive Bayes counts that
//! evidence twice. The hybrid puts the two correlated columns in one region and the others in a
//! second, and fits one weight per region (plus an intercept) on the training rows; with
//! θ = (log prior ratio, n₁, n₂) it would be naive Bayes exactly. With another file, every
//! feature is its own region.

use gendisc::data::loaders::TableReader;
use gendisc::data::splits::stratified_train_test_split;
use gendisc::hybrid::Normalization;
use gendisc::metrics::{label_error_rate, log_loss};
use gendisc::prelude::*;

/// The sample table, next to this file.
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/machines.csv");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| SAMPLE.to_owned());
    let table = TableReader::csv().read(&path)?;
    let x = table.to_dense()?;
    let y = table.labels();
    let data = stratified_train_test_split(x.view(), &y, 0.25, 42)?;

    let names = table.column_names();
    let index = |name: &str| names.iter().position(|n| *n == name);
    let regions: Vec<Vec<usize>> = match (index("temperature"), index("current")) {
        (Some(t), Some(c)) => {
            let rest = (0..names.len()).filter(|&j| j != t && j != c).collect();
            vec![vec![t, c], rest]
        }
        _ => (0..names.len()).map(|j| vec![j]).collect(),
    };
    let region_names: Vec<Vec<&str>> = regions
        .iter()
        .map(|r| r.iter().map(|&j| names[j]).collect())
        .collect();
    println!("{path}: regions {region_names:?}");

    let nb = LabelledModel::fit(&GaussianNb::params(), data.x_train.view(), &data.y_train)?;
    let hybrid_params = Hybrid::params(GaussianNb::params())
        .regions(regions.clone())
        .normalization(Normalization::Normalized);
    let hybrid = LabelledModel::fit(&hybrid_params, data.x_train.view(), &data.y_train)?;
    // θ fitted on each row's region likelihoods from the model without that row (eq. (11)),
    // so that θ is not fitted on likelihoods that have already seen the row.
    let loo = LabelledModel::fit(
        &hybrid_params.clone().leave_one_out(true),
        data.x_train.view(),
        &data.y_train,
    )?;
    println!("hybrid θ = {:.3}", hybrid.model().theta()?);
    println!("leave-one-out θ = {:.3}", loo.model().theta()?);

    let y_test = nb.classes().encode(&data.y_test)?;
    let x_test = data.x_test.view();
    for (name, predicted, proba) in [
        (
            "naive Bayes",
            nb.predict(x_test)?,
            nb.predict_proba(x_test)?,
        ),
        (
            "hybrid",
            hybrid.predict(x_test)?,
            hybrid.predict_proba(x_test)?,
        ),
        (
            "hybrid, leave-one-out",
            loo.predict(x_test)?,
            loo.predict_proba(x_test)?,
        ),
    ] {
        println!(
            "{name:<22} test error {:.3}, log loss {:.3}",
            label_error_rate(&data.y_test, &predicted)?,
            log_loss(y_test.view(), proba.view())?
        );
    }
    Ok(())
}
