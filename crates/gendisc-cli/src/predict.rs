//! `gendisc predict`: the predicted label of each row, and optionally the probability of each
//! class, as CSV.

use std::fs::File;
use std::io::{self, Write};

use anyhow::{Context, Result};

use crate::cli::PredictArgs;
use crate::input;
use crate::saved;

/// Predicts the rows of `args.data` with the model of `args.model` and writes the CSV.
pub fn run(args: &PredictArgs) -> Result<()> {
    let model = saved::load(&args.model)?;
    let data = input::encode_for_model(&args.data, model.preprocessing(), model.n_features())?;
    if data.n_dropped > 0 {
        eprintln!("left out {} rows with a missing value", data.n_dropped);
    }
    let x = data.x.view();
    let predicted = model.predict(x)?;
    let proba = match (args.proba, model.predict_proba(x)) {
        (false, _) => None,
        (true, Some(proba)) => Some(proba?),
        (true, None) => {
            eprintln!(
                "warning: the model in {} gives no class probabilities (a linear SVM or the \
                 bilevel classifier): only the predicted classes are written",
                args.model.display()
            );
            None
        }
    };
    let sink: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
        ),
        None => Box::new(io::stdout().lock()),
    };
    let mut writer = csv::Writer::from_writer(sink);
    let mut header = vec!["prediction".to_owned()];
    if proba.is_some() {
        header.extend(model.labels().iter().cloned());
    }
    writer.write_record(&header)?;
    for (i, label) in predicted.iter().enumerate() {
        let mut record = vec![label.clone()];
        if let Some(proba) = &proba {
            record.extend(proba.row(i).iter().map(f64::to_string));
        }
        writer.write_record(&record)?;
    }
    writer.flush().context("cannot write the predictions")?;
    Ok(())
}
