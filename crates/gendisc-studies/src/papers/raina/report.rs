//! The outputs of the Raina et al. study: CSV tables, Figures 1 and 2 as SVG, and `REPORT.md`
//! with each claim of the paper, our numbers and a verdict computed from them.

use std::fmt::Write as _;
use std::path::Path;

use gendisc_engine::figure::{Figure, LineStyle, Marker, Panel, Series};
use gendisc_engine::tables::{format_float, Statistic};
use gendisc_engine::verdict::{claim_sections, rule_sentence, write_verdicts_csv, Verdict};
use gendisc_engine::{write_text, Key, Result, StudyResults, SummaryTable};

use super::claims::{self, READINGS, TARGET_ACCURACY};

use super::{
    grid_coverage, Metric, Pair, RainaStudy, Settings, COVERAGE_GRID, FIGURE_1, FIGURE_2, HYBRID,
    HYBRID_L2, HYBRID_R1, HYBRID_R1_L2, HYBRID_UNNORMALIZED, HYBRID_UNNORMALIZED_R1,
    LOGISTIC_REGRESSION, NAIVE_BAYES,
};

/// Writes `summary.csv`, `figure1.csv`, `figure2.csv`, `coverage95.csv`, `fig1.svg`,
/// `fig2.svg` and `REPORT.md` under `out`.
pub fn write_outputs(out: &Path, study: &RainaStudy, results: &StudyResults) -> Result<()> {
    let table = SummaryTable::from_results(results)?;
    table.write_csv(out.join("summary.csv"))?;
    let data = ReportData::new(study, &table);
    write_text(&out.join("figure1.csv"), &data.figure1_csv())?;
    write_text(&out.join("figure2.csv"), &data.figure2_csv())?;
    write_text(&out.join("coverage95.csv"), &data.coverage95_csv())?;
    data.figure1().write_svg(out.join("fig1.svg"))?;
    data.figure2().write_svg(out.join("fig2.svg"))?;
    let mut verdicts = Vec::new();
    for reading in &READINGS {
        verdicts.extend(claims::verdicts(results, reading)?);
    }
    write_verdicts_csv(out.join("verdicts.csv"), super::STUDY_ID, &verdicts)?;
    write_text(&out.join("REPORT.md"), &data.report(study, &verdicts))?;
    Ok(())
}

/// Figure 1's mean test errors per pair: sizes and, per classifier, one value per size.
struct LearningCurves {
    pair: Pair,
    sizes: Vec<usize>,
    /// `errors[classifier][size]`, classifiers in [`FIGURE1_SERIES`] order.
    errors: Vec<Vec<f64>>,
    /// Mean chosen prior variance of logistic regression, per size.
    prior_variance: Vec<f64>,
    /// Fraction of the normalized `R = 2` hybrid's fits that were separated, per size.
    separated: Vec<f64>,
    /// Mean cross-validated prior variance of the L2 hybrid's `θ` (`R = 2`), per size.
    theta_variance: Vec<f64>,
}

/// Figure 2's mean accuracy per pair on the coverage grid.
struct CoverageCurves {
    pair: Pair,
    /// `accuracy[classifier][c]`, classifiers in [`FIGURE2_SERIES`] order.
    accuracy: Vec<Vec<f64>>,
    /// Mean over splits of each split's coverage at 95% accuracy.
    split_coverage: Vec<f64>,
    /// Mean test error over the splits.
    error: Vec<f64>,
}

impl CoverageCurves {
    /// The largest grid coverage whose averaged accuracy reaches the target; 0 if none.
    fn coverage_at(&self, classifier: usize, target: f64) -> f64 {
        (1..=COVERAGE_GRID)
            .filter(|&c| self.accuracy[classifier][c - 1] >= target)
            .map(grid_coverage)
            .fold(0.0, f64::max)
    }
}

/// Figure 1's series: the paper's three, then the two extras.
const FIGURE1_SERIES: [&str; 6] = [
    NAIVE_BAYES,
    LOGISTIC_REGRESSION,
    HYBRID,
    HYBRID_R1,
    HYBRID_UNNORMALIZED,
    HYBRID_L2,
];
/// Figure 2's series, in the paper's legend order.
const FIGURE2_SERIES: [&str; 5] = [
    HYBRID_R1,
    NAIVE_BAYES,
    HYBRID_UNNORMALIZED_R1,
    LOGISTIC_REGRESSION,
    HYBRID_R1_L2,
];

fn label(classifier: &str) -> &'static str {
    match classifier {
        NAIVE_BAYES => "naive Bayes",
        LOGISTIC_REGRESSION => "logistic regression",
        HYBRID => "normalized hybrid, R = 2",
        HYBRID_R1 => "normalized hybrid, R = 1",
        HYBRID_UNNORMALIZED => "unnormalized hybrid, R = 2 (extra)",
        HYBRID_UNNORMALIZED_R1 => "unnormalized hybrid, R = 1",
        HYBRID_L2 => "normalized hybrid, R = 2, L2 prior on θ (second reading)",
        HYBRID_R1_L2 => "normalized hybrid, R = 1, L2 prior on θ (second reading)",
        _ => "?",
    }
}

struct ReportData {
    learning: Vec<LearningCurves>,
    coverage: Vec<CoverageCurves>,
}

impl ReportData {
    fn new(study: &RainaStudy, table: &SummaryTable) -> Self {
        let mean = |dataset: &str, m: usize, classifier: &str, metric: Metric| {
            table
                .get(dataset, m, classifier, metric.name())
                .map_or(f64::NAN, |s| s.mean)
        };
        let mut learning = Vec::new();
        let mut coverage = Vec::new();
        for pair in study.pairs() {
            let name = RainaStudy::dataset_name(FIGURE_1, pair);
            let sizes: Vec<usize> = table
                .curve(
                    &name,
                    NAIVE_BAYES,
                    Metric::ErrorRate.name(),
                    Statistic::Mean,
                    None,
                )
                .iter()
                .map(|p| p.x as usize)
                .collect();
            let errors = FIGURE1_SERIES
                .iter()
                .map(|c| {
                    sizes
                        .iter()
                        .map(|&m| mean(&name, m, c, Metric::ErrorRate))
                        .collect()
                })
                .collect();
            let prior_variance = sizes
                .iter()
                .map(|&m| mean(&name, m, LOGISTIC_REGRESSION, Metric::PriorVariance))
                .collect();
            let separated = sizes
                .iter()
                .map(|&m| mean(&name, m, HYBRID, Metric::Separated))
                .collect();
            let theta_variance = sizes
                .iter()
                .map(|&m| mean(&name, m, HYBRID_L2, Metric::PriorVariance))
                .collect();
            learning.push(LearningCurves {
                pair: *pair,
                sizes,
                errors,
                prior_variance,
                separated,
                theta_variance,
            });

            let name = RainaStudy::dataset_name(FIGURE_2, pair);
            let m = table
                .rows()
                .iter()
                .find(|r| r.dataset == name)
                .map_or(0, |r| r.train_size);
            coverage.push(CoverageCurves {
                pair: *pair,
                accuracy: FIGURE2_SERIES
                    .iter()
                    .map(|c| {
                        (1..=COVERAGE_GRID as u8)
                            .map(|g| mean(&name, m, c, Metric::AccuracyAt(g)))
                            .collect()
                    })
                    .collect(),
                split_coverage: FIGURE2_SERIES
                    .iter()
                    .map(|c| mean(&name, m, c, Metric::CoverageAt95))
                    .collect(),
                error: FIGURE2_SERIES
                    .iter()
                    .map(|c| mean(&name, m, c, Metric::ErrorRate))
                    .collect(),
            });
        }
        Self { learning, coverage }
    }

    fn figure1_csv(&self) -> String {
        let mut csv = String::from("pair,group_0,group_1,m,classifier,test_error_mean\n");
        for curves in &self.learning {
            for (s, classifier) in FIGURE1_SERIES.iter().enumerate() {
                for (j, &m) in curves.sizes.iter().enumerate() {
                    let _ = writeln!(
                        csv,
                        "{},{},{},{m},{classifier},{}",
                        curves.pair.id,
                        curves.pair.groups[0],
                        curves.pair.groups[1],
                        format_float(curves.errors[s][j])
                    );
                }
            }
        }
        csv
    }

    fn figure2_csv(&self) -> String {
        let mut csv = String::from("pair,classifier,coverage,accuracy_mean\n");
        for curves in &self.coverage {
            for (s, classifier) in FIGURE2_SERIES.iter().enumerate() {
                for c in 1..=COVERAGE_GRID {
                    let _ = writeln!(
                        csv,
                        "{},{classifier},{},{}",
                        curves.pair.id,
                        format_float(grid_coverage(c)),
                        format_float(curves.accuracy[s][c - 1])
                    );
                }
            }
        }
        csv
    }

    fn coverage95_csv(&self) -> String {
        let mut csv = String::from(
            "pair,classifier,coverage_at_95_of_mean_curve,mean_coverage_at_95_per_split,test_error_mean\n",
        );
        for curves in &self.coverage {
            for (s, classifier) in FIGURE2_SERIES.iter().enumerate() {
                let _ = writeln!(
                    csv,
                    "{},{classifier},{},{},{}",
                    curves.pair.id,
                    format_float(curves.coverage_at(s, TARGET_ACCURACY)),
                    format_float(curves.split_coverage[s]),
                    format_float(curves.error[s])
                );
            }
        }
        csv
    }

    fn figure1(&self) -> Figure {
        let styles = [
            (LineStyle::Dotted, Marker::Circle),
            (LineStyle::Dashed, Marker::Square),
            (LineStyle::Solid, Marker::Triangle),
            (LineStyle::Solid, Marker::Cross),
            (LineStyle::Dashed, Marker::Cross),
            (LineStyle::Dotted, Marker::Triangle),
        ];
        let mut figure = Figure::new(2, 3).title(
            "Raina et al. (2003), Figure 1: test error vs training-set size (mean of splits)",
        );
        for curves in &self.learning {
            let mut panel = Panel::new(curves.pair.title)
                .x_label("size of training set")
                .y_label("test error");
            for (s, classifier) in FIGURE1_SERIES.iter().enumerate() {
                let points = curves
                    .sizes
                    .iter()
                    .zip(&curves.errors[s])
                    .filter(|(_, e)| e.is_finite())
                    .map(|(&m, &e)| gendisc_engine::figure::Point::new(m as f64, e));
                panel = panel.series(
                    Series::new(label(classifier), points)
                        .line(styles[s].0)
                        .marker(styles[s].1),
                );
            }
            figure = figure.panel(panel);
        }
        figure
    }

    fn figure2(&self) -> Figure {
        let styles = [
            LineStyle::Solid,
            LineStyle::Dashed,
            LineStyle::Dotted,
            LineStyle::Dashed,
            LineStyle::Solid,
        ];
        let markers = [
            None,
            Some(Marker::Circle),
            None,
            Some(Marker::Square),
            Some(Marker::Triangle),
        ];
        let mut figure = Figure::new(2, 3)
            .title("Raina et al. (2003), Figure 2: accuracy vs coverage (mean of 50%/50% splits)");
        for curves in &self.coverage {
            let mut panel = Panel::new(curves.pair.title)
                .x_label("coverage")
                .y_label("accuracy");
            for (s, classifier) in FIGURE2_SERIES.iter().enumerate() {
                let points = (1..=COVERAGE_GRID)
                    .filter(|&c| curves.accuracy[s][c - 1].is_finite())
                    .map(|c| {
                        gendisc_engine::figure::Point::new(
                            grid_coverage(c),
                            curves.accuracy[s][c - 1],
                        )
                    });
                let mut series = Series::new(label(classifier), points).line(styles[s]);
                if let Some(marker) = markers[s] {
                    series = series.marker(marker);
                }
                panel = panel.series(series);
            }
            figure = figure.panel(panel);
        }
        figure
    }

    /// The whole of `REPORT.md`: one renderer per section.
    fn report(&self, study: &RainaStudy, verdicts: &[Verdict]) -> String {
        let run = Run::of(study, self.learning.len());
        let counts: Vec<[usize; 2]> = self
            .learning
            .iter()
            .map(|curves| study.pair_counts(&curves.pair).unwrap_or([0, 0]))
            .collect();
        let mut md = intro_markdown(&run);
        md.push_str(&pairs_markdown(&self.learning, &counts));
        md.push_str(&figure1_markdown(&self.learning));
        md.push_str(&figure2_markdown(&self.coverage));
        claims_markdown(&mut md, verdicts);
        md.push_str(FILES);
        md
    }
}

/// What the report's opening says of the run.
struct Run<'a> {
    pairs: usize,
    settings: &'a Settings,
    latin1_postings: usize,
    empty_subjects: usize,
}

impl<'a> Run<'a> {
    fn of(study: &'a RainaStudy, pairs: usize) -> Self {
        Self {
            pairs,
            settings: study.settings(),
            latin1_postings: study.latin1_postings(),
            empty_subjects: study.empty_subjects(),
        }
    }
}

fn intro_markdown(run: &Run<'_>) -> String {
    let settings = run.settings;
    format!(
        "# Raina, Shen, Ng & McCallum (2003): reproduction report\n\n\
         Generated by `cargo xtask reproduce raina` from the results in this directory; every \
         number and verdict below is computed from them. Design and choices: `docs/raina.md`.\n\n\
         Run: {} pairs, training sizes {:?} (capped per pair at its training pool), {} \
         random splits for Figure 1 ({}% of each pair held out), {} 50%/50% splits for \
         Figure 2; logistic regression's prior variance σ² from {:?} by {}-fold \
         cross-validation on the training set. {} postings were not valid UTF-8 and were \
         decoded as Latin-1; {} postings have an empty subject region.\n\n",
        run.pairs,
        settings.sizes,
        settings.replicates,
        (settings.test_fraction * 100.0).round(),
        settings.coverage_splits,
        settings.prior_variances,
        settings.cv_folds,
        run.latin1_postings,
        run.empty_subjects,
    )
}

/// The pairs as the paper's panels, with each group's number of postings (`counts`, in the
/// order of `learning`).
fn pairs_markdown(learning: &[LearningCurves], counts: &[[usize; 2]]) -> String {
    let mut md =
        String::from("## Pairs\n\n| panel | class 0 | class 1 | postings |\n|---|---|---|---|\n");
    for (i, (curves, counts)) in learning.iter().zip(counts).enumerate() {
        let _ = writeln!(
            md,
            "| ({}) {} | {} ({}) | {} ({}) | {} |",
            char::from(b'a' + i as u8),
            curves.pair.title,
            curves.pair.groups[0],
            counts[0],
            curves.pair.groups[1],
            counts[1],
            counts[0] + counts[1]
        );
    }
    md
}

/// Figure 1 as tables: per pair, the mean test error of every series at every size.
fn figure1_markdown(learning: &[LearningCurves]) -> String {
    let mut md = String::from(
        "\n## Figure 1: mean test error\n\nColumns: naive Bayes (NB), logistic regression \
         (LR), normalized hybrid R = 2 (H2, the paper's), normalized hybrid R = 1 (H1, extra), \
         unnormalized hybrid R = 2 (U2, extra), and H2 with an L2 prior on θ (H2ℓ, the second \
         reading); σ² is LR's mean cross-validated prior variance, σ²θ H2ℓ's; sep, beside \
         each point, is the share of H2's splits whose leave-one-out θ fit was separated \
         (its maximum-likelihood θ does not exist; the fit stops with huge weights).\n\n",
    );
    for curves in learning {
        let _ = writeln!(
            md,
            "### {} ({} vs {})\n\n| m | NB | LR | H2 | sep | H1 | U2 | H2ℓ | σ² | σ²θ |\n|---|---|---|---|---|---|---|---|---|---|",
            curves.pair.title, curves.pair.groups[0], curves.pair.groups[1]
        );
        for (j, &m) in curves.sizes.iter().enumerate() {
            let e = |s: usize| curves.errors[s][j];
            let _ = writeln!(
                md,
                "| {m} | {:.4} | {:.4} | {:.4} | {:.2} | {:.4} | {:.4} | {:.4} | {:.3} | {:.3} |",
                e(0),
                e(1),
                e(2),
                curves.separated[j],
                e(3),
                e(4),
                e(5),
                curves.prior_variance[j],
                curves.theta_variance[j]
            );
        }
        md.push('\n');
    }
    md
}

/// Figure 2 as a table: per pair and series, the coverage at the target accuracy.
fn figure2_markdown(coverage: &[CoverageCurves]) -> String {
    let mut md = format!(
        "## Figure 2: coverage at {:.0}% accuracy\n\nThe largest coverage (on a grid of \
         {COVERAGE_GRID} steps) at which the accuracy of the curve averaged over the splits \
         reaches {:.0}%; in brackets, the mean over splits of each split's exact coverage \
         at that accuracy; then the mean test error. The last column is the second reading \
         (an L2 prior on θ).\n\n| pair | normalized hybrid R = 1 | naive Bayes | \
         unnormalized hybrid R = 1 | logistic regression | normalized hybrid R = 1, L2 θ |\n\
         |---|---|---|---|---|---|\n",
        TARGET_ACCURACY * 100.0,
        TARGET_ACCURACY * 100.0
    );
    for curves in coverage {
        let _ = write!(md, "| {} ", curves.pair.title);
        for s in 0..FIGURE2_SERIES.len() {
            let _ = write!(
                md,
                "| {:.2} ({:.2}), err {:.3} ",
                curves.coverage_at(s, TARGET_ACCURACY),
                curves.split_coverage[s],
                curves.error[s]
            );
        }
        md.push_str("|\n");
    }
    md.push('\n');
    md
}

/// The report's last section.
const FILES: &str = "## Files\n\n`fig1.svg`, `fig2.svg`: the figures. `figure1.csv`: mean test \
     error per pair, size and classifier. `figure2.csv`: averaged accuracy/coverage curves. \
     `coverage95.csv`: the table above. `summary.csv`: every metric's summary over splits. \
     `cells.jsonl`: every cell's outcome.\n";

/// Appends the claims: each claim's words, then its verdict under each reading.
fn claims_markdown(md: &mut String, verdicts: &[Verdict]) {
    let _ = writeln!(
        md,
        "## The paper's claims\n\nEvery verdict is computed by the project's verdict module \
         (`docs/verdicts.md`): at each unit the advantage of one series over another, paired \
         split by split, is summarised by its mean with a 95% t interval (the paper's curves are \
         means over splits); a unit is a tie when the interval contains zero (or reaches into the \
         ±{NEAR} band of a \"near\"/\"about the same\" claim). {RULE} Figure 1's claims are \
         judged at the (pair, m) points; Figure 2's at the (pair, coverage) points of the curves, \
         paired over the 50%/50% splits.\n\nEach claim is judged under each reading of the \
         hybrid:\n",
        NEAR = claims::NEAR,
        RULE = rule_sentence(verdicts, "units"),
    );
    for reading in &READINGS {
        let _ = writeln!(md, "- **{}**: {}.", reading.name, reading.description);
    }
    md.push('\n');
    md.push_str(&claim_sections(verdicts, "### Claim"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::papers::raina::PAIRS;

    fn learning() -> LearningCurves {
        LearningCurves {
            pair: PAIRS[1],
            sizes: vec![20, 200],
            errors: (0..FIGURE1_SERIES.len())
                .map(|s| vec![0.25 + 0.01 * s as f64, 0.125])
                .collect(),
            prior_variance: vec![1.0, 10.0],
            separated: vec![0.5, 0.0],
            theta_variance: vec![0.1, 0.01],
        }
    }

    #[test]
    fn the_pairs_are_lettered_panels_with_their_postings() {
        let md = pairs_markdown(&[learning(), learning()], &[[10, 12], [3, 4]]);
        let pair = PAIRS[1];
        assert!(md.starts_with("## Pairs\n\n| panel |"), "{md}");
        assert!(
            md.contains(&format!(
                "| (a) {} | {} (10) | {} (12) | 22 |\n",
                pair.title, pair.groups[0], pair.groups[1]
            )),
            "{md}"
        );
        assert!(md.contains(&format!("| (b) {} |", pair.title)), "{md}");
    }

    #[test]
    fn figure_1_has_a_table_per_pair_and_a_row_per_size() {
        let md = figure1_markdown(&[learning()]);
        assert!(md.contains(&format!("### {} (", PAIRS[1].title)), "{md}");
        assert!(
            md.contains("| 20 | 0.2500 | 0.2600 | 0.2700 | 0.50 | 0.2800 | 0.2900 | 0.3000 | 1.000 | 0.100 |\n"),
            "{md}"
        );
        assert!(md.contains("| 200 | 0.1250 | 0.1250 |"), "{md}");
    }

    #[test]
    fn figure_2_gives_the_largest_grid_coverage_that_reaches_the_target() {
        // Accuracy falls with coverage; it reaches the target up to the grid's 10th step.
        let accuracy: Vec<f64> = (1..=COVERAGE_GRID)
            .map(|c| if c <= 10 { 0.99 } else { 0.5 })
            .collect();
        let curves = CoverageCurves {
            pair: PAIRS[0],
            accuracy: vec![accuracy; FIGURE2_SERIES.len()],
            split_coverage: vec![0.25; FIGURE2_SERIES.len()],
            error: vec![0.05; FIGURE2_SERIES.len()],
        };
        let md = figure2_markdown(&[curves]);
        let cell = format!("| {:.2} (0.25), err 0.050 ", grid_coverage(10));
        let row = format!(
            "| {} {}|\n",
            PAIRS[0].title,
            cell.repeat(FIGURE2_SERIES.len())
        );
        assert!(md.contains(&row), "{md}\n{row}");
        assert!(md.starts_with(&format!(
            "## Figure 2: coverage at {:.0}% accuracy",
            100.0 * TARGET_ACCURACY
        )));
    }

    #[test]
    fn the_claims_state_the_rule_and_every_reading() {
        let mut md = String::new();
        claims_markdown(&mut md, &[]);
        assert!(md.contains(&rule_sentence(&[], "units")), "{md}");
        for reading in &READINGS {
            assert!(md.contains(&format!("- **{}**", reading.name)), "{md}");
        }
        assert!(FILES.starts_with("## Files\n\n") && FILES.ends_with("outcome.\n"));
    }
}
