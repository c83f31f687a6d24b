//! The outputs of the Ng–Jordan study: the learning-curve CSV, the fifteen-panel figure, the
//! separability counts, `verdicts.csv` and `REPORT.md`.
//!
//! The verdicts are the judging module's ([`gendisc_engine::verdict`], through [`super::claims`]),
//! computed from the per-split errors of the results just written; the tables of means are
//! computed from `learning_curves.csv` as written — the file is read back — so that they can be
//! checked against it.

mod markdown;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::claims::{self, Reading, LR, NB, READINGS};
use super::{
    Classifier, InputSource, NgJordanStudy, CONVERGED, ERROR, LOGISTIC_REGRESSION, NAIVE_BAYES,
    RANDOM_SEPARATOR, SEPARATED,
};
use gendisc_engine::figure::{Figure, LineStyle, Marker, Panel, Point, Series};
use gendisc_engine::tables::format_float;
use gendisc_engine::verdict::{write_verdicts_csv, Evidence, Side, Verdict, Window};
use gendisc_engine::{write_text, Key, Result, StudyError, StudyResults, SummaryTable};

/// The header of `learning_curves.csv`.
const CURVES_HEADER: [&str; 7] = [
    "dataset",
    "inputs",
    "m",
    "method",
    "splits",
    "mean_error",
    "std_error",
];

/// Writes `learning_curves.csv`, `summary.csv`, `separable.csv`, `learning_curves.svg`,
/// `verdicts.csv` and `REPORT.md` under `out`.
pub fn write_outputs(out: &Path, study: &NgJordanStudy, results: &StudyResults) -> Result<()> {
    let table = SummaryTable::from_results(results)?;
    table.write_csv(out.join("summary.csv"))?;
    let curves_csv = curves_csv(&table, study)?;
    write_text(&out.join("learning_curves.csv"), &curves_csv)?;
    write_text(&out.join("separable.csv"), &separable_csv(&table, study))?;
    // The tables and the figure below are computed from the CSV just written: naive Bayes
    // against each reading's logistic regression.
    let mut curves = BTreeMap::new();
    for method in Classifier::names().skip(1) {
        curves.insert(method, read_curves(&curves_csv, method)?);
    }
    figure(&curves, study)?.write_svg(out.join("learning_curves.svg"))?;
    // The verdicts, from the per-split errors.
    let verdicts = claims::verdicts(study, results)?;
    write_verdicts_csv(out.join("verdicts.csv"), super::STUDY_ID, &verdicts)?;
    let mut evidence = Vec::new();
    for reading in &READINGS {
        evidence.push(claims::evidence(study, results, reading)?);
    }
    write_text(
        &out.join("REPORT.md"),
        &markdown::Report::new(&curves, &verdicts, &evidence, &table, study).markdown(),
    )?;
    Ok(())
}

fn csv_error(detail: impl std::fmt::Display) -> StudyError {
    StudyError::Core(gendisc_core::Error::Numerical {
        what: "learning_curves.csv".into(),
        detail: detail.to_string(),
    })
}

/// `dataset,inputs,m,method,splits,mean_error,std_error`: the mean test error over the splits
/// and its standard error `s/√n`, per dataset, training size and method.
fn curves_csv(table: &SummaryTable, study: &NgJordanStudy) -> Result<String> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(CURVES_HEADER).map_err(csv_error)?;
    for dataset in study.datasets() {
        for m in study.grid(dataset) {
            for method in Classifier::names() {
                let Some(s) = table.get(dataset.spec.name, m, method, ERROR) else {
                    continue;
                };
                writer
                    .write_record([
                        dataset.spec.name.to_string(),
                        dataset.spec.kind.name().to_string(),
                        m.to_string(),
                        method.to_string(),
                        s.n.to_string(),
                        format_float(s.mean),
                        s.std_error.map(format_float).unwrap_or_default(),
                    ])
                    .map_err(csv_error)?;
            }
        }
    }
    let bytes = writer.into_inner().map_err(csv_error)?;
    String::from_utf8(bytes).map_err(csv_error)
}

/// Per dataset and `m`: how many training sets the fitted logistic regression separated, and
/// how many of its fits did not meet their stopping criterion.
fn separable_csv(table: &SummaryTable, study: &NgJordanStudy) -> String {
    let mut csv = String::from("dataset,m,splits,separable,separable_share,not_converged\n");
    for dataset in study.datasets() {
        for m in study.grid(dataset) {
            let (Some(sep), Some(conv)) = (
                table.get(dataset.spec.name, m, LOGISTIC_REGRESSION, SEPARATED),
                table.get(dataset.spec.name, m, LOGISTIC_REGRESSION, CONVERGED),
            ) else {
                continue;
            };
            let count = (sep.mean * sep.n as f64).round() as usize;
            let not_converged = conv.n - (conv.mean * conv.n as f64).round() as usize;
            let _ = writeln!(
                csv,
                "{},{m},{},{count},{},{not_converged}",
                dataset.spec.name,
                sep.n,
                format_float(sep.mean)
            );
        }
    }
    csv
}

/// One point of a learning curve, as read back from the CSV.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct CurvePoint {
    pub m: usize,
    pub nb: f64,
    pub nb_se: Option<f64>,
    pub lr: f64,
    pub lr_se: Option<f64>,
}

/// The learning curves of one dataset, points in increasing `m`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Curves {
    pub dataset: String,
    pub points: Vec<CurvePoint>,
}

/// Parses `learning_curves.csv` into one [`Curves`] per dataset, in file order, comparing naive
/// Bayes with `lr_method` (the other methods' rows are skipped).
pub(crate) fn read_curves(text: &str, lr_method: &str) -> Result<Vec<Curves>> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let mut out: Vec<Curves> = Vec::new();
    for (line, record) in reader.records().enumerate() {
        let record = record.map_err(csv_error)?;
        let field = |i: usize| record.get(i).unwrap_or_default();
        let number = |i: usize| -> Result<f64> {
            field(i).parse::<f64>().map_err(|_| {
                csv_error(format!(
                    "line {}: `{}` is not a number in column {}",
                    line + 2,
                    field(i),
                    CURVES_HEADER[i]
                ))
            })
        };
        let method = field(3);
        if !Classifier::names().any(|name| name == method) {
            return Err(csv_error(format!(
                "line {}: unknown method `{method}`",
                line + 2
            )));
        }
        if method != NAIVE_BAYES && method != lr_method {
            continue;
        }
        let dataset = field(0);
        let m: usize = field(2)
            .parse()
            .map_err(|_| csv_error(format!("line {}: bad m `{}`", line + 2, field(2))))?;
        let (mean, se) = (number(5)?, number(6).ok());
        if out.last().is_none_or(|c| c.dataset != dataset) {
            out.push(Curves {
                dataset: dataset.to_string(),
                points: Vec::new(),
            });
        }
        let curves = out.last_mut().ok_or_else(|| csv_error("no dataset"))?;
        if curves.points.last().is_none_or(|p| p.m != m) {
            curves.points.push(CurvePoint {
                m,
                nb: f64::NAN,
                nb_se: None,
                lr: f64::NAN,
                lr_se: None,
            });
        }
        let point = curves.points.last_mut().ok_or_else(|| csv_error("no m"))?;
        if method == NAIVE_BAYES {
            (point.nb, point.nb_se) = (mean, se);
        } else {
            (point.lr, point.lr_se) = (mean, se);
        }
    }
    for curves in &out {
        if let Some(p) = curves
            .points
            .iter()
            .find(|p| p.nb.is_nan() || p.lr.is_nan())
        {
            return Err(csv_error(format!(
                "{} at m = {} lacks a method",
                curves.dataset, p.m
            )));
        }
    }
    Ok(out)
}

/// The paper's figure: fifteen panels in three rows of five, naive Bayes solid and logistic
/// regression dashed — the headline reading, a random separator on separable training sets —
/// mean test error ± one standard error against `m`; logistic regression with the N(0, σ²)
/// prior dotted, without bars (standardised inputs for both).
fn figure(curves: &BTreeMap<&str, Vec<Curves>>, study: &NgJordanStudy) -> Result<Figure> {
    let title = format!(
        "Ng & Jordan (2001), Figure 1: test error vs m, mean ± s.e. over {} random splits; \
         naive Bayes solid, logistic regression with a random separator on separable training \
         sets (the paper's treatment) dashed; dotted: logistic regression with a N(0, {}) prior",
        study.settings().splits,
        study.settings().prior_variance
    );
    let find = |method: &str, name: &str| {
        curves
            .get(method)
            .and_then(|c| c.iter().find(|c| c.dataset == name))
    };
    let mut fig = Figure::new(3, 5).title(title);
    for dataset in study.datasets() {
        let Some(c) = find(RANDOM_SEPARATOR, dataset.spec.name) else {
            continue;
        };
        let series = |name: &str, pick: fn(&CurvePoint) -> (f64, Option<f64>)| {
            Series::new(
                name,
                c.points.iter().map(|p| {
                    let (y, se) = pick(p);
                    match se {
                        Some(se) => Point::with_error(p.m as f64, y, y - se, y + se),
                        None => Point::new(p.m as f64, y),
                    }
                }),
            )
        };
        let mut panel = Panel::new(dataset.spec.title)
            .x_label("m")
            .y_label("error")
            .series(
                series(NAIVE_BAYES, |p| (p.nb, p.nb_se))
                    .line(LineStyle::Solid)
                    .marker(Marker::Circle),
            )
            .series(
                series(RANDOM_SEPARATOR, |p| (p.lr, p.lr_se))
                    .line(LineStyle::Dashed)
                    .marker(Marker::Square),
            );
        if let Some(v) = find(LOGISTIC_REGRESSION, dataset.spec.name) {
            panel = panel.series(
                Series::new(
                    LOGISTIC_REGRESSION,
                    v.points.iter().map(|p| Point::new(p.m as f64, p.lr)),
                )
                .line(LineStyle::Dotted),
            );
        }
        fig = fig.panel(panel);
    }
    Ok(fig)
}

fn pct(v: f64) -> String {
    format!("{:.1}%", 100.0 * v)
}

/// Points of `group` in `window` where naive Bayes is better and where logistic regression is,
/// by the module's tie rule on the paired difference.
fn wins(evidence: &Evidence, group: &str, window: Window) -> Result<(usize, usize)> {
    let (mut nb, mut lr) = (0, 0);
    for (i, p) in evidence.points().iter().enumerate() {
        if p.group != group || !window.contains(p.m) {
            continue;
        }
        match evidence.difference(i, NB, LR)?.map(|d| d.side(0.0)) {
            Some(Side::A) => nb += 1,
            Some(Side::B) => lr += 1,
            _ => {}
        }
    }
    Ok((nb, lr))
}

/// The shape of a dataset's pair of curves, from the leads over the two windows.
fn pattern(early: (usize, usize), late: (usize, usize)) -> &'static str {
    use std::cmp::Ordering::{Greater, Less};
    match (early.0.cmp(&early.1), late.1.cmp(&late.0)) {
        (Greater, Greater) => "two regimes",
        (Greater, _) => "NB leads, LR does not overtake",
        (Less, Greater) => "LR throughout",
        (Less, _) => "LR first, not later",
        (_, Greater) => "no early lead, LR later",
        _ => "no lead",
    }
}

/// The grid sizes of `grid` whose positions fall in `window`, as "m₁ … m₂".
fn window_sizes(grid: &[usize], window: Window, positions: usize) -> String {
    let sizes: Vec<usize> = grid
        .iter()
        .copied()
        .filter(|&m| claims::position(grid, m, positions).is_some_and(|p| window.contains(p)))
        .collect();
    match (sizes.first(), sizes.last()) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a} … {b}"),
        _ => "—".to_string(),
    }
}

/// The verdict of `claim` under `reading`.
fn find<'a>(verdicts: &'a [Verdict], claim: &str, reading: &Reading) -> Option<&'a Verdict> {
    verdicts
        .iter()
        .find(|v| v.claim.id == claim && v.claim.reading == reading.name)
}

/// Where the datasets and splits came from, as the report's first paragraph says it.
fn source_phrase(study: &NgJordanStudy) -> String {
    let seed = study.settings().seed;
    match study.input_source() {
        InputSource::Seed => format!("study seed {seed}"),
        InputSource::Files { digest } => format!(
            "datasets and training rows read from files rather than prepared from the UCI files \
             and drawn from the study seed (digest {digest}; see `docs/data-interchange.md`), the \
             random separator's walks drawn from the cell streams of study seed {seed}"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curves_are_read_back_from_the_csv() {
        let csv = "dataset,inputs,m,method,splits,mean_error,std_error\n\
                   a,continuous,2,naive-bayes,10,0.25,0.01\n\
                   a,continuous,2,logistic-regression,10,0.5,0.02\n\
                   a,continuous,2,logistic-regression-random-separator,10,0.45,0.02\n\
                   a,continuous,5,naive-bayes,10,0.2,\n\
                   a,continuous,5,logistic-regression,10,0.1,0.03\n\
                   a,continuous,5,logistic-regression-random-separator,10,0.15,\n\
                   b,discrete,3,logistic-regression,1,0.4,\n\
                   b,discrete,3,logistic-regression-random-separator,1,0.35,\n\
                   b,discrete,3,naive-bayes,1,0.3,\n";
        let curves = read_curves(csv, LOGISTIC_REGRESSION).unwrap();
        assert_eq!(curves.len(), 2);
        assert_eq!(curves[0].points[0], {
            CurvePoint {
                m: 2,
                nb: 0.25,
                nb_se: Some(0.01),
                lr: 0.5,
                lr_se: Some(0.02),
            }
        });
        assert_eq!(curves[0].points[1].nb_se, None);
        assert_eq!((curves[1].points[0].nb, curves[1].points[0].lr), (0.3, 0.4));
        // The same file compared with the random separator.
        let variant = read_curves(csv, RANDOM_SEPARATOR).unwrap();
        let lr: Vec<f64> = variant
            .iter()
            .flat_map(|c| c.points.iter().map(|p| p.lr))
            .collect();
        assert_eq!(lr, vec![0.45, 0.15, 0.35]);
        assert_eq!(variant[0].points[1].nb, 0.2);
    }

    #[test]
    fn malformed_csv_is_an_error() {
        let header = "dataset,inputs,m,method,splits,mean_error,std_error\n";
        for body in [
            "a,continuous,2,naive-bayes,10,oops,\n",
            "a,continuous,x,naive-bayes,10,0.1,\n",
            "a,continuous,2,svm,10,0.1,\n",
            "a,continuous,2,naive-bayes,10,0.1,\n",
        ] {
            assert!(
                read_curves(&format!("{header}{body}"), LOGISTIC_REGRESSION).is_err(),
                "{body}"
            );
        }
    }
}
