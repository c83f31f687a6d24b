//! The outputs of the Xue–Titterington study: tables, figures, the datasets' moments and
//! `REPORT.md`, every number and verdict computed from the results just written.

mod datasets;
mod markdown;

use std::fmt::Write as _;
use std::path::Path;

use gendisc_data::generators::XueTitteringtonPreset;

use super::claims;
use super::{
    Classifier, InputSource, XueTitteringtonStudy, ER, HYBRID, LL, LL_MEAN, LOGISTIC_REGRESSION,
    NAIVE_BAYES, R_WARNING, SEPARATED,
};
use gendisc_engine::figure::{Figure, LineStyle, Panel, Series};
use gendisc_engine::tables::format_float;
use gendisc_engine::verdict::write_verdicts_csv;
use gendisc_engine::{write_text, Key, Result, Statistic, StudyResults, SummaryTable};

/// The paper's three classifiers, whose comparison the paper's conclusions are about.
const PAPER_CLASSIFIERS: [&str; 3] = [NAIVE_BAYES, LOGISTIC_REGRESSION, HYBRID];

/// Writes `medians.csv`, `summary.csv`, `separation.csv`, `fig1.svg` … `fig4.svg`,
/// `DATASETS.md` and `REPORT.md` under `out`.
pub fn write_outputs(
    out: &Path,
    study: &XueTitteringtonStudy,
    results: &StudyResults,
) -> Result<()> {
    let table = SummaryTable::from_results(results)?;
    table.write_csv(out.join("summary.csv"))?;
    write_text(&out.join("medians.csv"), &medians_csv(&table, study))?;
    write_text(&out.join("separation.csv"), &separation_csv(&table, study))?;
    for figure in 1..=4 {
        figure_svg(&table, study, figure)?.write_svg(out.join(format!("fig{figure}.svg")))?;
    }
    write_text(
        &out.join("DATASETS.md"),
        &datasets::Datasets::compute(study).markdown(),
    )?;
    let verdicts = claims::verdicts(results)?;
    write_verdicts_csv(out.join("verdicts.csv"), super::STUDY_ID, &verdicts)?;
    write_text(
        &out.join("REPORT.md"),
        &markdown::Report::compute(&table, study, &verdicts).markdown(),
    )?;
    Ok(())
}

/// Where the datasets and splits came from, as the report's first paragraph says it.
fn source_phrase(study: &XueTitteringtonStudy) -> String {
    match study.input_source() {
        InputSource::Seed => format!("study seed {}", study.settings().seed),
        InputSource::Files { digest } => format!(
            "read from files rather than drawn from the study seed (datasets and training rows \
             of digest {digest}; see `docs/data-interchange.md`)"
        ),
    }
}

fn datasets_of_figure(figure: u8) -> Vec<XueTitteringtonPreset> {
    XueTitteringtonPreset::ALL
        .into_iter()
        .filter(|p| p.figure() == figure)
        .collect()
}

fn median(
    table: &SummaryTable,
    dataset: &str,
    m: usize,
    classifier: &str,
    metric: &str,
) -> Option<f64> {
    table.get(dataset, m, classifier, metric).map(|s| s.median)
}

/// `dataset,m,classifier,` then median, first and third quartile of ER, LL and mean LL.
fn medians_csv(table: &SummaryTable, study: &XueTitteringtonStudy) -> String {
    let mut csv = String::from(
        "dataset,m,classifier,er_median,er_q1,er_q3,ll_median,ll_q1,ll_q3,ll_mean_median,ll_mean_q1,ll_mean_q3\n",
    );
    for preset in XueTitteringtonPreset::ALL {
        for &m in &study.settings().sizes {
            for classifier in Classifier::names() {
                let _ = write!(csv, "{},{m},{classifier}", preset.name());
                for metric in [ER, LL, LL_MEAN] {
                    match table.get(preset.name(), m, classifier, metric) {
                        Some(s) => {
                            let _ = write!(
                                csv,
                                ",{},{},{}",
                                format_float(s.median),
                                format_float(s.q1),
                                format_float(s.q3)
                            );
                        }
                        None => csv.push_str(",,,"),
                    }
                }
                csv.push('\n');
            }
        }
    }
    csv
}

/// Share of replicates whose glm fit (logistic regression, hybrid θ) saw a separated
/// training set, per dataset and `m`.
fn separation_csv(table: &SummaryTable, study: &XueTitteringtonStudy) -> String {
    let mut csv = String::from(
        "dataset,m,logistic_regression_separated,hybrid_separated,logistic_regression_r_warning,hybrid_r_warning\n",
    );
    for preset in XueTitteringtonPreset::ALL {
        for &m in &study.settings().sizes {
            let share = |classifier, metric| {
                table
                    .get(preset.name(), m, classifier, metric)
                    .map(|s| format_float(s.mean))
                    .unwrap_or_default()
            };
            let _ = writeln!(
                csv,
                "{},{m},{},{},{},{}",
                preset.name(),
                share(LOGISTIC_REGRESSION, SEPARATED),
                share(HYBRID, SEPARATED),
                share(LOGISTIC_REGRESSION, R_WARNING),
                share(HYBRID, R_WARNING)
            );
        }
    }
    csv
}

/// Figure `n` of the paper: its three datasets as rows, ER and LL medians against `m` as
/// columns, one line per classifier (the paper's solid, the extra series dashed).
fn figure_svg(table: &SummaryTable, study: &XueTitteringtonStudy, figure: u8) -> Result<Figure> {
    let datasets = datasets_of_figure(figure);
    let title = format!(
        "Figure {figure}: {} — medians over {} replicates",
        figure_caption(figure),
        study.settings().replicates
    );
    let mut fig = Figure::new(datasets.len(), 2).title(title);
    for preset in &datasets {
        for (metric, label) in [(ER, "ER"), (LL, "LL (sum over the test set)")] {
            let mut panel = Panel::new(format!("{} — {label}", preset.name()))
                .x_label("training set size m")
                .y_label(label);
            for classifier in Classifier::names() {
                let points =
                    table.curve(preset.name(), classifier, metric, Statistic::Median, None);
                let style = if PAPER_CLASSIFIERS.contains(&classifier) {
                    LineStyle::Solid
                } else {
                    LineStyle::Dashed
                };
                panel = panel.series(Series::new(classifier, points).line(style));
            }
            fig = fig.panel(panel);
        }
    }
    Ok(fig)
}

fn figure_caption(figure: u8) -> &'static str {
    match figure {
        1 => "normal data, equal covariance matrices",
        2 => "normal data, unequal covariance matrices",
        3 => "Bernoulli data, equal covariance matrices",
        _ => "Bernoulli data, unequal covariance matrices",
    }
}

/// The winner among the paper's classifiers (lowest median), with every median; `None` when a
/// median is missing. Exact ties name every tied classifier.
fn winner(
    table: &SummaryTable,
    dataset: &str,
    m: usize,
    metric: &str,
) -> Option<(Vec<&'static str>, [f64; 3])> {
    let mut medians = [0.0; 3];
    for (i, classifier) in PAPER_CLASSIFIERS.iter().enumerate() {
        medians[i] = median(table, dataset, m, classifier, metric)?;
    }
    let best = medians.iter().copied().fold(f64::INFINITY, f64::min);
    let winners = PAPER_CLASSIFIERS
        .iter()
        .zip(medians)
        .filter(|(_, v)| *v == best)
        .map(|(c, _)| *c)
        .collect();
    Some((winners, medians))
}

fn fmt(v: f64) -> String {
    if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.4}")
    }
}
