//! `gendisc evaluate`: a saved model's scores on labelled data.

use anyhow::{bail, Context, Result};
use gendisc_core::ClassLabels;
use gendisc_metrics::{
    brier_score_proba, confusion_matrix, expected_calibration_error, label_error_rate, log_loss,
    logistic_loss_mean, DEFAULT_CALIBRATION_BINS, LOG_LOSS_EPS,
};
use ndarray::Array2;
use serde_json::json;

use crate::cli::EvaluateArgs;
use crate::input;
use crate::saved;

/// Scores the model of `args.model` on the rows of `args.data`.
pub fn run(args: &EvaluateArgs) -> Result<()> {
    let model = saved::load(&args.model)?;
    let data = input::encode_for_model(&args.data, model.preprocessing(), model.n_features())?;
    let Some(truth) = data.labels else {
        bail!(
            "{} has no class column to evaluate against",
            args.data.data.display()
        );
    };
    let labels = model.labels();
    let classes = ClassLabels::new(labels.iter().cloned())?;
    let y = classes.encode(&truth).with_context(|| {
        format!(
            "{} holds a class the model does not know (its classes: {})",
            args.data.data.display(),
            labels.join(", ")
        )
    })?;
    let x = data.x.view();
    let predicted = model.predict(x)?;
    let error_rate = label_error_rate(&truth, &predicted)?;
    let confusion = confusion_matrix(y.view(), classes.encode(&predicted)?.view(), labels.len())?;
    let probabilistic = match model.predict_proba(x) {
        Some(proba) => {
            let proba = proba?;
            let log_proba = model
                .predict_log_proba(x)
                .expect("a model with probabilities has log-probabilities")?;
            // From the log-probabilities themselves: no clipping, and no rounding of tiny
            // probabilities to 0.
            let unclipped = logistic_loss_mean(y.view(), log_proba.view())?;
            Some((
                log_loss(y.view(), proba.view())?,
                unclipped,
                brier_score_proba(y.view(), proba.view())?,
                expected_calibration_error(y.view(), log_proba.view(), DEFAULT_CALIBRATION_BINS)?,
            ))
        }
        None => None,
    };
    if args.json {
        let mut report = json!({
            "rows": truth.len(),
            "rows_dropped": data.n_dropped,
            "labels": labels,
            "error_rate": error_rate,
            "confusion_matrix": {
                "rows": "true label",
                "columns": "predicted label",
                "counts": confusion.outer_iter().map(|row| row.to_vec()).collect::<Vec<_>>(),
            },
        });
        if let Some((loss, unclipped, brier, ece)) = probabilistic {
            report["log_loss"] = json!(loss);
            report["log_loss_unclipped"] = json!(unclipped);
            report["brier_score"] = json!(brier);
            report["calibration_error"] = json!(ece);
        }
        outln!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    outln!("rows               {}", truth.len());
    if data.n_dropped > 0 {
        outln!("rows dropped       {}", data.n_dropped);
    }
    outln!("error rate         {error_rate:.4}");
    match probabilistic {
        Some((loss, unclipped, brier, ece)) => {
            outln!(
                "log loss           {loss:.4} (probabilities clipped to [{LOG_LOSS_EPS:.1e}, 1], as \
                 scikit-learn's; unclipped {unclipped:.4})"
            );
            outln!("Brier score        {brier:.4}");
            outln!("calibration error  {ece:.4} (expected, {DEFAULT_CALIBRATION_BINS} bins)");
        }
        None => {
            outln!("(the model gives no probabilities: no log loss, Brier score or calibration)")
        }
    }
    outln!();
    print_confusion(labels, &confusion)
}

/// The confusion matrix with the labels: rows the true label, columns the predicted one.
fn print_confusion(labels: &[String], counts: &Array2<usize>) -> Result<()> {
    let corner = "true \\ predicted";
    let label_width = labels
        .iter()
        .map(String::len)
        .max()
        .unwrap_or(0)
        .max(corner.len());
    let widths: Vec<usize> = labels
        .iter()
        .enumerate()
        .map(|(k, label)| {
            let widest = counts.column(k).iter().map(|c| c.to_string().len()).max();
            label.len().max(widest.unwrap_or(0))
        })
        .collect();
    out!("{corner:label_width$}");
    for (label, width) in labels.iter().zip(&widths) {
        out!("  {label:>width$}");
    }
    outln!();
    for (label, row) in labels.iter().zip(counts.outer_iter()) {
        out!("{label:label_width$}");
        for (count, width) in row.iter().zip(&widths) {
            out!("  {count:>width$}");
        }
        outln!();
    }
    Ok(())
}
