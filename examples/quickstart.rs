//! gendisc in a few lines: read a CSV file, split it, fit naive Bayes and logistic regression
//! on the user's own labels, score them on the held-out rows, and save and reload a model.
//!
//! ```text
//! cargo run -p gendisc-examples --example quickstart [file.csv]
//! ```
//!
//! The file needs a header, numeric feature columns and the class (any strings) in the last
//! column; without an argument the example reads the sample `examples/data/machines.csv`.
//! The same in Python would be `pd.read_csv`, `train_test_split(..., stratify=y)`,
//! `GaussianNB().fit`, `LogisticRegression().fit`, `log_loss` and `joblib.dump`/`load`.

use gendisc::data::loaders::TableReader;
use gendisc::data::splits::stratified_train_test_split;
use gendisc::metrics::{label_error_rate, log_loss};
use gendisc::prelude::*;

/// The sample table, next to this file.
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/machines.csv");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| SAMPLE.to_owned());
    let table = TableReader::csv().read(&path)?; // the class is the last column
    let x = table.to_dense()?;
    let y = table.labels(); // the class of each row, as written in the file
    let data = stratified_train_test_split(x.view(), &y, 0.25, 42)?;
    println!(
        "{path}: {} training rows, {} test rows, classes {:?}",
        data.y_train.len(),
        data.y_test.len(),
        table.classes().labels()
    );

    let names = table.column_names();
    let (x_train, x_test) = (data.x_train.view(), data.x_test.view());
    let nb = LabelledModel::fit(&GaussianNb::params(), x_train, &data.y_train)?
        .with_feature_names(names.clone())?;
    let lr = LabelledModel::fit(&LogisticRegression::params(), x_train, &data.y_train)?
        .with_feature_names(names)?;

    // log_loss takes class indices, in the models' class order (the sorted labels).
    let y_test = nb.classes().encode(&data.y_test)?;
    for (name, predicted, proba) in [
        (
            "naive Bayes",
            nb.predict(x_test)?,
            nb.predict_proba(x_test)?,
        ),
        (
            "logistic regression",
            lr.predict(x_test)?,
            lr.predict_proba(x_test)?,
        ),
    ] {
        let error = label_error_rate(&data.y_test, &predicted)?;
        let loss = log_loss(y_test.view(), proba.view())?;
        println!("{name:<20} test error {error:.3}, log loss {loss:.3}");
    }

    // A model file is versioned JSON with the labels and feature names; load checks it.
    let file = std::env::temp_dir().join("gendisc-quickstart-naive-bayes.json");
    nb.save(&file)?;
    let reloaded = LabelledModel::<GaussianNb>::load(&file)?;
    let same = reloaded.predict(x_test)? == nb.predict(x_test)?;
    println!(
        "saved to {}; the reloaded model predicts the same labels: {same}",
        file.display()
    );
    if !same {
        return Err("the reloaded model predicts other labels than the saved one".into());
    }
    Ok(())
}
