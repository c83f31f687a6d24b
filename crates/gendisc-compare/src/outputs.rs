//! The files a comparison writes: CSV tables, the learning-curve figure and `REPORT.md`.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use gendisc_engine::figure::{
    ErrorDisplay, Figure, LineStyle, Marker, Panel, Point, ReferenceLine, Scale, Series,
};
use gendisc_engine::StudyError;
use gendisc_engine::{format_float, Cell, StudyResults};

use crate::analysis::{Analysis, Crossover, Estimate, Pair, BOOTSTRAP_DRAWS, CONFIDENCE};
use crate::models::Role;
use crate::study::{CompareStudy, DATASET, ERROR, FAILED, LOG_LOSS};

/// Per-replicate results.
pub const REPLICATES_CSV: &str = "replicates.csv";
/// Per size and model: median error with its interval.
pub const SUMMARY_CSV: &str = "summary.csv";
/// Per size and pair of models: the median paired difference.
pub const DIFFERENCES_CSV: &str = "differences.csv";
/// Per pair of models: the crossover size.
pub const CROSSOVER_CSV: &str = "crossover.csv";
/// The learning curves and paired differences.
pub const FIGURE_SVG: &str = "learning_curves.svg";
/// The report.
pub const REPORT_MD: &str = "REPORT.md";

/// What the report says about the data, beside the results.
pub struct DataDescription<'a> {
    /// The file as the user named it.
    pub file: &'a str,
    /// The class column's name.
    pub target: &'a str,
    /// The names of the feature columns the models see (`column=level` for the indicator of a
    /// level of a categorical column).
    pub features: Vec<&'a str>,
    /// The file's categorical columns, encoded into `features` as indicators of their levels
    /// but the first (empty when every feature column is numeric).
    pub categorical: Vec<&'a str>,
    /// The class labels, in class order.
    pub classes: Vec<String>,
    /// Rows per class.
    pub class_counts: Vec<usize>,
}

/// Writes every output file into `out`.
pub fn write_all(
    out: &Path,
    data: &DataDescription<'_>,
    study: &CompareStudy,
    results: &StudyResults,
    analysis: &Analysis,
) -> Result<()> {
    write_replicates(&out.join(REPLICATES_CSV), study, results)?;
    write_summary(&out.join(SUMMARY_CSV), analysis)?;
    write_differences(&out.join(DIFFERENCES_CSV), analysis)?;
    write_crossovers(&out.join(CROSSOVER_CSV), analysis)?;
    let figure = figure(analysis).render_svg()?;
    write(&out.join(FIGURE_SVG), figure.as_bytes())?;
    let path = out.join(REPORT_MD);
    // Formatting into a String fails only if a Display implementation does.
    let report = report(data, study, analysis).map_err(|_| StudyError::Write {
        path: path.clone(),
        source: std::io::Error::other("formatting the report failed"),
    })?;
    write(&path, report.as_bytes())
}

/// What writing an output file returns.
type Result<T> = std::result::Result<T, StudyError>;

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    fs::write(path, bytes).map_err(|source| StudyError::Write {
        path: path.to_owned(),
        source,
    })
}

/// Creates the CSV file `path`, writes its records with `fill` and flushes it.
fn write_csv(
    path: &Path,
    fill: impl FnOnce(&mut csv::Writer<fs::File>) -> csv::Result<()>,
) -> Result<()> {
    csv::Writer::from_path(path)
        .and_then(|mut w| {
            fill(&mut w)?;
            w.flush().map_err(csv::Error::from)
        })
        .map_err(|error| StudyError::Write {
            path: path.to_owned(),
            source: error.into(),
        })
}

fn optional(x: Option<f64>) -> String {
    x.map(format_float).unwrap_or_default()
}

fn write_replicates(path: &Path, study: &CompareStudy, results: &StudyResults) -> Result<()> {
    write_csv(path, |w| {
        w.write_record([
            "train_size",
            "replicate",
            "model",
            "role",
            "error",
            "log_loss",
            "fit_failed",
        ])?;
        for (cell, outcome) in results.iter() {
            for (k, model) in study.design().models.iter().enumerate() {
                let failed = outcome.get(k, FAILED) != Some(0.0);
                w.write_record([
                    cell.train_size.to_string(),
                    cell.replicate.to_string(),
                    model.name().to_string(),
                    model.role().name().to_string(),
                    optional(outcome.get(k, ERROR)),
                    optional(outcome.get(k, LOG_LOSS)),
                    u8::from(failed).to_string(),
                ])?;
            }
        }
        Ok(())
    })
}

fn write_summary(path: &Path, analysis: &Analysis) -> Result<()> {
    write_csv(path, |w| {
        w.write_record([
            "train_size",
            "model",
            "role",
            "fitted",
            "failed",
            "median_error",
            "error_lower",
            "error_upper",
            "median_log_loss",
        ])?;
        for s in &analysis.summaries {
            w.write_record([
                s.size.to_string(),
                s.model.name().to_string(),
                s.model.role().name().to_string(),
                s.fitted.to_string(),
                s.failed.to_string(),
                optional(s.error.map(|e| e.value)),
                optional(s.error.map(|e| e.lower)),
                optional(s.error.map(|e| e.upper)),
                optional(s.log_loss),
            ])?;
        }
        Ok(())
    })
}

fn write_differences(path: &Path, analysis: &Analysis) -> Result<()> {
    write_csv(path, |w| {
        w.write_record([
            "train_size",
            "discriminative",
            "generative",
            "pairs",
            "median_difference",
            "difference_lower",
            "difference_upper",
            "share_discriminative_better",
            "share_generative_better",
        ])?;
        for pair in &analysis.pairs {
            for d in &pair.differences {
                w.write_record([
                    d.size.to_string(),
                    pair.discriminative.name().to_string(),
                    pair.generative.name().to_string(),
                    d.pairs.to_string(),
                    optional(d.median.map(|e| e.value)),
                    optional(d.median.map(|e| e.lower)),
                    optional(d.median.map(|e| e.upper)),
                    format_float(d.discriminative_better),
                    format_float(d.generative_better),
                ])?;
            }
        }
        Ok(())
    })
}

fn crossover_field(c: Crossover) -> String {
    match c {
        Crossover::At(m) => m.to_string(),
        Crossover::NoneInRange => "none".into(),
    }
}

fn write_crossovers(path: &Path, analysis: &Analysis) -> Result<()> {
    write_csv(path, |w| {
        w.write_record([
            "discriminative",
            "generative",
            "crossover",
            "crossover_lower",
            "crossover_upper",
            "share_of_draws_in_range",
        ])?;
        for pair in &analysis.pairs {
            w.write_record([
                pair.discriminative.name().to_string(),
                pair.generative.name().to_string(),
                crossover_field(pair.crossover),
                crossover_field(pair.interval.0),
                crossover_field(pair.interval.1),
                format_float(pair.share_in_range),
            ])?;
        }
        Ok(())
    })
}

const MARKERS: [Marker; 4] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Cross,
];

fn figure(analysis: &Analysis) -> Figure {
    let mut errors = Panel::new("median test error (95% bootstrap band)")
        .x_label("training size m")
        .y_label("test error rate")
        .x_scale(Scale::Log);
    if analysis.summaries.iter().all(|s| s.error.is_none()) {
        errors = without_points(errors, &analysis.sizes, (0.0, 1.0));
    }
    for (k, &model) in analysis.models.iter().enumerate() {
        let points = analysis
            .summaries
            .iter()
            .filter(|s| s.model == model)
            .filter_map(|s| {
                let e = s.error?;
                Some(Point::with_error(s.size as f64, e.value, e.lower, e.upper))
            });
        let line = match model.role() {
            Role::Generative => LineStyle::Dashed,
            Role::Discriminative => LineStyle::Solid,
        };
        errors = errors.series(
            Series::new(model.name(), points)
                .line(line)
                .marker(MARKERS[k % MARKERS.len()])
                .errors(ErrorDisplay::Band),
        );
    }
    let mut figure = Figure::new(1, if analysis.pairs.is_empty() { 1 } else { 2 })
        .title("Generative or discriminative: test error against training size")
        .panel_size(560, 420)
        .panel(errors);
    if !analysis.pairs.is_empty() {
        let mut differences = Panel::new("median paired difference, discriminative − generative")
            .x_label("training size m")
            .y_label("difference in test error")
            .x_scale(Scale::Log)
            .reference_line(ReferenceLine::new(0.0).line(LineStyle::Dotted));
        let compared = analysis
            .pairs
            .iter()
            .any(|pair| pair.differences.iter().any(|d| d.median.is_some()));
        if !compared {
            differences = without_points(differences, &analysis.sizes, (-1.0, 1.0));
        }
        for pair in &analysis.pairs {
            let points = pair.differences.iter().filter_map(|d| {
                let e = d.median?;
                Some(Point::with_error(d.size as f64, e.value, e.lower, e.upper))
            });
            differences = differences.series(
                Series::new(pair_name(pair), points)
                    .marker(Marker::Circle)
                    .errors(ErrorDisplay::Bars),
            );
        }
        figure = figure.panel(differences);
    }
    figure
}

/// A panel that will hold no point (every fit of its models failed at every size) keeps its
/// axes: the training sizes across, `y` up, rather than failing the whole figure.
fn without_points(panel: Panel, sizes: &[usize], y: (f64, f64)) -> Panel {
    let smallest = sizes.iter().min().copied().unwrap_or(1).max(1) as f64;
    let largest = sizes.iter().max().copied().unwrap_or(1).max(1) as f64;
    panel
        .x_range(smallest / 2.0, largest * 2.0)
        .y_range(y.0, y.1)
}

fn pair_name(pair: &Pair) -> String {
    format!("{} − {}", pair.discriminative, pair.generative)
}

fn interval(e: &Estimate) -> String {
    format!("{:.3} [{:.3}, {:.3}]", e.value, e.lower, e.upper)
}

fn percent(x: f64) -> String {
    format!("{:.0}%", 100.0 * x)
}

fn crossover_sentence(pair: &Pair, smallest: usize, largest: usize) -> String {
    let (d, g) = (pair.discriminative, pair.generative);
    let bounds = match pair.interval {
        (Crossover::NoneInRange, _) => "no crossover in range".to_string(),
        (Crossover::At(lower), Crossover::NoneInRange) => {
            format!("from m = {lower} to beyond m = {largest}")
        }
        (Crossover::At(lower), Crossover::At(upper)) if lower == upper => format!("m = {lower}"),
        (Crossover::At(lower), Crossover::At(upper)) => format!("m = {lower} to {upper}"),
    };
    let draws = format!(
        "{:.0}% bootstrap interval: {bounds}; {} of {BOOTSTRAP_DRAWS} draws cross within the grid",
        100.0 * CONFIDENCE,
        percent(pair.share_in_range)
    );
    let last = pair.differences.last().and_then(|d| d.median);
    // Sizes where no replicate fitted both models have no comparison: say so, rather than let
    // the analysis seem to start later.
    let unfitted: Vec<String> = pair
        .differences
        .iter()
        .filter(|difference| difference.median.is_none())
        .map(|difference| difference.size.to_string())
        .collect();
    let first_compared = pair
        .differences
        .iter()
        .find(|difference| difference.median.is_some())
        .map_or(smallest, |difference| difference.size);
    let note = if unfitted.is_empty() {
        String::new()
    } else {
        format!(
            " No replicate fitted both models at m = {} (see *Failed fits*): there is no \
             comparison at those sizes, and a crossover among them could not be seen.",
            unfitted.join(", ")
        )
    };
    let sentence = match pair.crossover {
        Crossover::At(m) if m == smallest => format!(
            "**{d}** has a lower median error than **{g}** at every size from the smallest, \
             m = {m}, on: the crossover lies at or below m = {m} ({draws})."
        ),
        Crossover::At(m) if m == first_compared => format!(
            "**{d}** has a lower median error than **{g}** at every size where both were \
             fitted, from m = {m} on; below it they were not compared ({draws})."
        ),
        Crossover::At(m) => format!(
            "**{d}** overtakes **{g}** at m = {m}: from there to m = {largest} its median paired \
             difference stays below zero ({draws})."
        ),
        Crossover::NoneInRange => format!(
            "**{d}** does not overtake **{g}** within the sizes run: at m = {largest} the median \
             paired difference is {} ({draws}).",
            last.map_or("not available (no replicate fitted both)".into(), |e| {
                format!("{:+.3}", e.value)
            })
        ),
    };
    sentence + &note
}

fn report(
    data: &DataDescription<'_>,
    study: &CompareStudy,
    analysis: &Analysis,
) -> std::result::Result<String, std::fmt::Error> {
    let design = study.design();
    let n_rows: usize = data.class_counts.iter().sum();
    let mut r = String::new();
    writeln!(r, "# Generative or discriminative on `{}`", data.file)?;
    writeln!(r)?;
    let classes: Vec<String> = data
        .classes
        .iter()
        .zip(&data.class_counts)
        .map(|(c, n)| format!("`{c}` ({n})"))
        .collect();
    let encoding = if data.categorical.is_empty() {
        String::new()
    } else {
        let names: Vec<String> = data.categorical.iter().map(|c| format!("`{c}`")).collect();
        let indicators = data
            .features
            .iter()
            .filter(|f| {
                data.categorical
                    .iter()
                    .any(|c| f.strip_prefix(c).is_some_and(|rest| rest.starts_with('=')))
            })
            .count();
        let how_many = if indicators == data.features.len() {
            "all".to_owned()
        } else {
            indicators.to_string()
        };
        format!(
            " ({how_many} of them indicators of the levels, but the first, of the categorical \
             {} {})",
            if names.len() == 1 {
                "column"
            } else {
                "columns"
            },
            names.join(", ")
        )
    };
    writeln!(
        r,
        "{n_rows} rows, {} numeric feature columns{encoding}; class column `{}` with {} classes: {}.",
        data.features.len(),
        data.target,
        data.classes.len(),
        classes.join(", ")
    )?;
    writeln!(r)?;
    let sizes: Vec<String> = design.sizes.iter().map(usize::to_string).collect();
    let test_sizes = study.test_sizes();
    let (fewest, most) = (
        test_sizes.iter().min().copied().unwrap_or(0),
        test_sizes.iter().max().copied().unwrap_or(0),
    );
    writeln!(
        r,
        "Training sizes m = {}; {} replicates per size, each a stratified random training set \
         of m rows (every class in proportion, at least one row each) with {} test rows, \
         seed {}. Every model is fitted on the same splits, without the feature columns that \
         are constant on the split's training rows.",
        sizes.join(", "),
        design.replicates,
        if fewest == most {
            format!("{fewest}")
        } else {
            format!("{fewest} to {most}")
        },
        design.seed
    )?;
    writeln!(r)?;
    writeln!(r, "| model | side | what |")?;
    writeln!(r, "|---|---|---|")?;
    for model in &design.models {
        let regularised = match design.shrinkage {
            Some(gamma) if model.takes_shrinkage() => format!(
                ", its covariances shrunk toward the scaled identity by γ = {}",
                format_float(gamma)
            ),
            _ => String::new(),
        };
        writeln!(
            r,
            "| `{model}` | {} | {}{regularised} |",
            model.role().name(),
            model.description()
        )?;
    }
    writeln!(r)?;

    writeln!(r, "## Crossover sizes")?;
    writeln!(r)?;
    if analysis.pairs.is_empty() {
        writeln!(
            r,
            "No crossover is computed: the models compared are not one discriminative and one \
             generative model at least."
        )?;
    } else {
        writeln!(
            r,
            "The crossover size of a discriminative model D over a generative model G is the \
             smallest training size from which the median, over replicates, of the paired \
             difference error(D) − error(G) on the same split stays below zero at every larger \
             size. Intervals resample each size's replicates ({BOOTSTRAP_DRAWS} draws)."
        )?;
        writeln!(r)?;
        let (smallest, largest) = (
            design.sizes.first().copied().unwrap_or(0),
            design.sizes.last().copied().unwrap_or(0),
        );
        for pair in &analysis.pairs {
            writeln!(r, "* {}", crossover_sentence(pair, smallest, largest))?;
            // The smallest and largest sizes at which both models were fitted.
            let mut compared = pair
                .differences
                .iter()
                .filter_map(|d| Some((d.size, d.median?.value)));
            let first = compared.next();
            if let (Some((m0, first)), Some((m1, last))) = (first, compared.next_back())
                && first > 0.0
                && last < 0.0
            {
                writeln!(
                    r,
                    "  Ng & Jordan's two regimes: {} is better at m = {m0} (median \
                         difference {first:+.3}), {} at m = {m1} ({last:+.3}).",
                    pair.generative, pair.discriminative
                )?;
            }
        }
    }
    writeln!(r)?;

    writeln!(
        r,
        "## Median test error ({:.0}% bootstrap interval)",
        100.0 * CONFIDENCE
    )?;
    writeln!(r)?;
    let header: Vec<String> = design.models.iter().map(|m| format!("`{m}`")).collect();
    writeln!(r, "| m | {} |", header.join(" | "))?;
    writeln!(r, "|---:|{}", "---|".repeat(design.models.len()))?;
    for &size in &design.sizes {
        let cells: Vec<String> = analysis
            .summaries
            .iter()
            .filter(|s| s.size == size)
            .map(|s| s.error.as_ref().map_or("—".into(), interval))
            .collect();
        writeln!(r, "| {size} | {} |", cells.join(" | "))?;
    }
    writeln!(r)?;

    if !analysis.pairs.is_empty() {
        writeln!(r, "## Median paired difference in test error")?;
        writeln!(r)?;
        writeln!(
            r,
            "Discriminative minus generative on the same split; below zero, the discriminative \
             model is better. In brackets the share of splits on which it is better."
        )?;
        writeln!(r)?;
        let header: Vec<String> = analysis.pairs.iter().map(pair_name).collect();
        writeln!(r, "| m | {} |", header.join(" | "))?;
        writeln!(r, "|---:|{}", "---|".repeat(analysis.pairs.len()))?;
        for (s, &size) in design.sizes.iter().enumerate() {
            let cells: Vec<String> = analysis
                .pairs
                .iter()
                .map(|p| {
                    let d = &p.differences[s];
                    d.median.as_ref().map_or("—".into(), |e| {
                        format!("{} ({})", interval(e), percent(d.discriminative_better))
                    })
                })
                .collect();
            writeln!(r, "| {size} | {} |", cells.join(" | "))?;
        }
        writeln!(r)?;
    }

    writeln!(r, "## Failed fits")?;
    writeln!(r)?;
    let failed: Vec<_> = analysis.summaries.iter().filter(|s| s.failed > 0).collect();
    if failed.is_empty() {
        writeln!(r, "Every model was fitted on every split.")?;
    } else {
        writeln!(
            r,
            "A fit that fails is left out of its model's medians and of the paired differences \
             at that size."
        )?;
        writeln!(r)?;
        for s in failed {
            // Quote the first failure's error: refit on its split.
            let first = (0..design.replicates).find_map(|replicate| {
                study
                    .fit_and_score(&Cell::new(DATASET, s.size, replicate), s.model)
                    .err()
            });
            writeln!(
                r,
                "* `{}` at m = {}: {} of {} replicates failed{}",
                s.model,
                s.size,
                s.failed,
                s.failed + s.fitted,
                first.map_or(".".into(), |e| format!(", e.g. “{e}”."))
            )?;
        }
    }
    writeln!(r)?;
    writeln!(r, "## Files")?;
    writeln!(r)?;
    for (file, what) in [
        (
            REPLICATES_CSV,
            "test error and log loss of every model on every replicate",
        ),
        (
            SUMMARY_CSV,
            "median error with its interval and median log loss, per size and model",
        ),
        (
            DIFFERENCES_CSV,
            "median paired difference with its interval, per size and pair",
        ),
        (CROSSOVER_CSV, "crossover size with its interval, per pair"),
        (FIGURE_SVG, "the learning curves and the paired differences"),
    ] {
        writeln!(r, "* `{file}`: {what}")?;
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Difference;
    use crate::models::ModelKind;

    fn difference(size: usize, median: Option<f64>) -> Difference {
        Difference {
            size,
            pairs: usize::from(median.is_some()) * 20,
            median: median.map(|value| Estimate {
                value,
                lower: value,
                upper: value,
            }),
            discriminative_better: 0.5,
            generative_better: 0.5,
        }
    }

    #[test]
    fn sizes_without_a_comparison_are_named() {
        let pair = Pair {
            discriminative: ModelKind::Logistic,
            generative: ModelKind::NaiveBayes,
            differences: vec![
                difference(5, None),
                difference(19, None),
                difference(33, Some(-0.01)),
                difference(60, Some(-0.02)),
            ],
            crossover: Crossover::At(33),
            interval: (Crossover::At(33), Crossover::At(33)),
            share_in_range: 1.0,
        };
        let sentence = crossover_sentence(&pair, 5, 60);
        assert!(
            sentence.contains("at every size where both were fitted, from m = 33 on"),
            "{sentence}"
        );
        assert!(
            sentence.contains("No replicate fitted both models at m = 5, 19"),
            "{sentence}"
        );
        let complete = Pair {
            differences: vec![difference(5, Some(0.01)), difference(60, Some(-0.02))],
            crossover: Crossover::At(60),
            ..pair
        };
        let sentence = crossover_sentence(&complete, 5, 60);
        assert!(sentence.contains("overtakes"), "{sentence}");
        assert!(!sentence.contains("No replicate"), "{sentence}");
    }
}
