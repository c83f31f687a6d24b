//! The outputs of the Epshteyn–DeJong study: CSV tables, Figures 5.1–5.3 as SVG, and
//! `REPORT.md` with the paper's claims, our numbers and verdicts computed from them.

mod claims;

use claims::Improvement;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use gendisc_metrics::distributions::student_t_cdf;
use gendisc_metrics::{mean_t_interval, MeanInterval};

use gendisc_engine::error::StudyError;
use gendisc_engine::figure::{
    Figure, LineStyle, Marker, Panel, Point, ReferenceLine, Scale, Series,
};
use gendisc_engine::tables::format_float;
use gendisc_engine::verdict::{
    claim_sections, reading_changes, rule_sentence, verdict_table, Verdict,
};
use gendisc_engine::{write_text, Key, Outcome, Result, StudyResults, SummaryTable};

use super::{
    figure_51_dataset, Alignment, Classifier, EpshteynDejongStudy, Metric, Setup, EXPERIMENT_1,
    FIGURE_52, FIGURE_52_LDA, FIGURE_53_BETA, FIGURE_53_PHI, SHARED_GROUP_READING,
};

/// Writes `summary.csv`, `fig5_1.csv`, `fig5_2.csv`, `fig5_3.csv`, `fig5_1.svg`,
/// `fig5_2.svg`, `fig5_3.svg` and `REPORT.md` under `out`.
pub fn write_outputs(
    out: &Path,
    study: &EpshteynDejongStudy,
    results: &StudyResults,
) -> Result<()> {
    SummaryTable::from_results(results)?.write_csv(out.join("summary.csv"))?;
    let data = ReportData::new(study, results);
    write_text(&out.join("fig5_1.csv"), &data.figure_51_csv())?;
    write_text(&out.join("fig5_2.csv"), &data.figure_52_csv())?;
    write_text(&out.join("fig5_3.csv"), &data.figure_53_csv())?;
    // A run without Figure 5.2's or 5.3's cells writes no (empty, stale) figure for them.
    let figures = [
        (
            "fig5_1.svg",
            (!data.scatter.is_empty()).then(|| data.figure_51()),
        ),
        (
            "fig5_2.svg",
            (!data.curves.is_empty()).then(|| data.figure_52()),
        ),
        (
            "fig5_3.svg",
            data.sensitivity
                .iter()
                .any(|s| !s.values.is_empty())
                .then(|| data.figure_53()),
        ),
    ];
    for (file, figure) in figures {
        let path = out.join(file);
        if let Some(figure) = figure {
            figure.write_svg(path)?;
        } else if path.exists() {
            fs::remove_file(&path).map_err(|source| StudyError::Write { path, source })?;
        }
    }
    let judged = data.verdicts()?;
    let verdicts: Vec<Verdict> = judged.iter().map(|j| j.verdict.clone()).collect();
    gendisc_engine::verdict::write_verdicts_csv(
        out.join("verdicts.csv"),
        super::STUDY_ID,
        &verdicts,
    )?;
    write_text(&out.join("REPORT.md"), &data.report(&verdicts, &judged))?;
    Ok(())
}

/// Mean and 95% t interval of a sample (`NaN` bounds below two values).
#[derive(Debug, Clone, Copy)]
struct MeanCi {
    n: usize,
    mean: f64,
    lower: f64,
    upper: f64,
}

impl MeanCi {
    fn of(values: &[f64]) -> Self {
        Self::from_interval(values, mean_t_interval(values, 0.95).ok().as_ref())
    }

    /// From the 95% [`mean_t_interval`] of `values`, `None` where there is none.
    fn from_interval(values: &[f64], interval: Option<&MeanInterval>) -> Self {
        let n = values.len();
        match interval {
            Some(m) => Self {
                n,
                mean: m.mean,
                lower: m.interval.lower,
                upper: m.interval.upper,
            },
            // One value is its own mean, without an interval; no value (or a non-finite one)
            // has neither.
            None => Self {
                n,
                mean: if n == 1 { values[0] } else { f64::NAN },
                lower: f64::NAN,
                upper: f64::NAN,
            },
        }
    }
}

/// A paired comparison of two classifiers over the same samples.
#[derive(Debug, Clone, Copy)]
struct Paired {
    first: MeanCi,
    second: MeanCi,
    /// `second − first`.
    difference: MeanCi,
    /// Two-sided paired t-test p-value (`NaN` below two pairs).
    p_value: f64,
}

impl Paired {
    fn of(pairs: &[(f64, f64)]) -> Self {
        let first: Vec<f64> = pairs.iter().map(|p| p.0).collect();
        let second: Vec<f64> = pairs.iter().map(|p| p.1).collect();
        let d: Vec<f64> = pairs.iter().map(|p| p.1 - p.0).collect();
        let interval = mean_t_interval(&d, 0.95).ok();
        let difference = MeanCi::from_interval(&d, interval.as_ref());
        let p_value = match interval {
            None => f64::NAN,
            Some(m) if m.std_error == 0.0 => {
                if m.mean == 0.0 {
                    1.0
                } else {
                    0.0
                }
            }
            Some(m) => {
                let t = m.mean / m.std_error;
                2.0 * (1.0 - student_t_cdf(t.abs(), (m.n - 1) as f64).unwrap_or(f64::NAN))
            }
        };
        Self {
            first: MeanCi::of(&first),
            second: MeanCi::of(&second),
            difference,
            p_value,
        }
    }
}

/// Figure 5.1's numbers for one setup under one reading.
struct ScatterPoint {
    /// The reading (an alignment's name, or [`SHARED_GROUP_READING`]).
    reading: &'static str,
    /// The dataset of its cells.
    dataset: String,
    setup: Setup,
    /// `‖t₂ − t₁‖` over the samples' priors (`β`'s maximum feasible value is half of it).
    separation: MeanCi,
    /// The cosine between `t₂ − t₁` and the test task's class-mean difference.
    cosine: MeanCi,
    size: usize,
    /// SVM first, bilevel second.
    comparison: Paired,
    failures: usize,
}

/// Figure 5.2's numbers for one setup.
struct LearningCurve {
    setup: Setup,
    sizes: Vec<usize>,
    /// Per size: SVM, bilevel, multi-task SVM.
    accuracy: Vec<[MeanCi; 3]>,
    /// LDA on 90% of the test task.
    lda: MeanCi,
}

/// Figure 5.3's numbers for one parameter.
struct Sensitivity {
    name: &'static str,
    /// The figure's dataset prefix.
    figure: &'static str,
    /// The `β` the fits used at each value (for `β`, `values` are shares of its maximum).
    beta: Vec<MeanCi>,
    /// `‖t₂ − t₁‖` of the samples' priors.
    separation: MeanCi,
    values: Vec<f64>,
    bilevel: Vec<MeanCi>,
    svm: MeanCi,
}

struct ReportData<'a> {
    study: &'a EpshteynDejongStudy,
    scatter: Vec<ScatterPoint>,
    curves: Vec<LearningCurve>,
    sensitivity: Vec<Sensitivity>,
    /// Every bilevel fit: its dataset, training size and alternations (`None`: failed in the
    /// solver).
    fits: Vec<(String, usize, Option<usize>)>,
    /// The outcomes of each `(dataset, training size)`.
    groups: Groups<'a>,
    not_converged: usize,
    /// Per bilevel fit: features with a test distance the training task lacked, and floored
    /// variances.
    prior_fill: Vec<[f64; 2]>,
}

/// The outcomes of each `(dataset, training size)`, in replicate order, read by classifier and
/// metric name.
struct Groups<'a> {
    outcomes: BTreeMap<(&'a str, usize), Vec<&'a Outcome>>,
}

impl<'a> Groups<'a> {
    fn of(results: &'a StudyResults) -> Self {
        let mut outcomes: BTreeMap<(&str, usize), Vec<&Outcome>> = BTreeMap::new();
        for (cell, outcome) in results.iter() {
            outcomes
                .entry((cell.dataset.as_str(), cell.train_size))
                .or_default()
                .push(outcome);
        }
        Self { outcomes }
    }

    /// `classifier`'s `metric` on each replicate of `(dataset, m)`, `None` where not measured.
    fn values(
        &self,
        dataset: &str,
        m: usize,
        classifier: Classifier,
        metric: Metric,
    ) -> Vec<Option<f64>> {
        self.outcomes.get(&(dataset, m)).map_or(Vec::new(), |g| {
            g.iter().map(|o| o.value(classifier, metric)).collect()
        })
    }

    /// The mean accuracy of `classifier` over the replicates where it was measured.
    fn accuracy(&self, dataset: &str, m: usize, classifier: Classifier) -> MeanCi {
        let measured: Vec<f64> = self
            .values(dataset, m, classifier, Metric::Accuracy)
            .into_iter()
            .flatten()
            .collect();
        MeanCi::of(&measured)
    }

    /// The SVM's and the bilevel classifier's accuracies, paired over the replicates where
    /// both were measured, and the number of bilevel fits that failed.
    fn paired(&self, dataset: &str, m: usize) -> (Paired, usize) {
        let svm = self.values(dataset, m, Classifier::Svm, Metric::Accuracy);
        let bilevel = self.values(dataset, m, Classifier::Bilevel, Metric::Accuracy);
        let pairs: Vec<(f64, f64)> = svm
            .iter()
            .zip(&bilevel)
            .filter_map(|(a, b)| Some(((*a)?, (*b)?)))
            .collect();
        let failed = bilevel.iter().filter(|b| b.is_none()).count();
        (Paired::of(&pairs), failed)
    }

    /// The mean of one of the bilevel classifier's own metrics.
    fn bilevel_metric(&self, dataset: &str, m: usize, metric: Metric) -> MeanCi {
        let measured: Vec<f64> = self
            .values(dataset, m, Classifier::Bilevel, metric)
            .into_iter()
            .flatten()
            .collect();
        MeanCi::of(&measured)
    }
}

impl<'a> ReportData<'a> {
    fn new(study: &'a EpshteynDejongStudy, results: &'a StudyResults) -> Self {
        let groups = Groups::of(results);
        let mut fits = Vec::new();
        let mut not_converged = 0;
        let mut prior_fill = Vec::new();
        for (cell, outcome) in results.iter() {
            if let Some(it) = outcome.value(Classifier::Bilevel, Metric::Iterations) {
                fits.push((cell.dataset.clone(), cell.train_size, Some(it as usize)));
            }
            if outcome.value(Classifier::Bilevel, Metric::Failed) == Some(1.0) {
                fits.push((cell.dataset.clone(), cell.train_size, None));
            }
            not_converged +=
                usize::from(outcome.value(Classifier::Bilevel, Metric::Converged) == Some(0.0));
            if let (Some(u), Some(f)) = (
                outcome.value(Classifier::Bilevel, Metric::PriorUnseen),
                outcome.value(Classifier::Bilevel, Metric::PriorFloored),
            ) {
                prior_fill.push([u, f]);
            }
        }
        Self {
            study,
            scatter: scatter(study, &groups),
            curves: curves(study, &groups),
            sensitivity: sensitivity(study, &groups),
            fits,
            groups,
            not_converged,
            prior_fill,
        }
    }

    /// `classifier`'s value of `metric` on each replicate of `(dataset, m)`, NaN where it has
    /// none (empty without such cells).
    fn values(&self, dataset: &str, m: usize, classifier: Classifier, metric: Metric) -> Vec<f64> {
        self.groups
            .values(dataset, m, classifier, metric)
            .into_iter()
            .map(|value| value.unwrap_or(f64::NAN))
            .collect()
    }

    /// `classifier`'s accuracy on each replicate of `(dataset, m)`.
    fn accuracies(&self, dataset: &str, m: usize, classifier: Classifier) -> Vec<f64> {
        self.values(dataset, m, classifier, Metric::Accuracy)
    }

    fn figure_51_csv(&self) -> String {
        let mut csv = String::from(
            "reading,setup,train_task,test_task,train_size,pairs,svm_accuracy,bilevel_accuracy,\
             difference,difference_lower,difference_upper,p_value,relative_gain,\
             relative_gain_lower,relative_gain_upper,error_reduction,error_reduction_lower,\
             error_reduction_upper,prior_separation,beta_max,prior_cosine,bilevel_failures\n",
        );
        for p in &self.scatter {
            let c = &p.comparison;
            let bilevel = self.accuracies(&p.dataset, p.size, Classifier::Bilevel);
            let svm = self.accuracies(&p.dataset, p.size, Classifier::Svm);
            let mut relative = String::new();
            for measure in [Improvement::RelativeGain, Improvement::ErrorReduction] {
                let d = measure.difference(&bilevel, &svm);
                let (e, l, u) = d.map_or((f64::NAN, f64::NAN, f64::NAN), |d| {
                    (d.estimate, d.lower, d.upper)
                });
                let _ = write!(
                    relative,
                    "{},{},{},",
                    format_float(e),
                    format_float(l),
                    format_float(u)
                );
            }
            let _ = writeln!(
                csv,
                "{},{},{},{},{},{},{},{},{},{},{},{},{}{},{},{},{}",
                p.reading,
                p.setup.id(),
                p.setup.train.id(),
                p.setup.test.id(),
                p.size,
                c.difference.n,
                format_float(c.first.mean),
                format_float(c.second.mean),
                format_float(c.difference.mean),
                format_float(c.difference.lower),
                format_float(c.difference.upper),
                format_float(c.p_value),
                relative,
                format_float(p.separation.mean),
                format_float(0.5 * p.separation.mean),
                format_float(p.cosine.mean),
                p.failures
            );
        }
        csv
    }

    fn figure_52_csv(&self) -> String {
        let mut csv =
            String::from("setup,train_size,classifier,replicates,accuracy,ci_lower,ci_upper\n");
        for curve in &self.curves {
            for (m, row) in curve.sizes.iter().zip(&curve.accuracy) {
                for (classifier, ci) in [
                    Classifier::Svm,
                    Classifier::Bilevel,
                    Classifier::MultitaskSvm,
                ]
                .iter()
                .zip(row)
                {
                    let _ = writeln!(
                        csv,
                        "{},{m},{},{},{},{},{}",
                        curve.setup.id(),
                        classifier.name(),
                        ci.n,
                        format_float(ci.mean),
                        format_float(ci.lower),
                        format_float(ci.upper)
                    );
                }
            }
            let ci = curve.lda;
            let _ = writeln!(
                csv,
                "{},{},{},{},{},{},{}",
                curve.setup.id(),
                self.study.prior_size(curve.setup.test),
                Classifier::Lda90.name(),
                ci.n,
                format_float(ci.mean),
                format_float(ci.lower),
                format_float(ci.upper)
            );
        }
        csv
    }

    fn figure_53_csv(&self) -> String {
        let mut csv = String::from(
            "parameter,value,beta,replicates,bilevel_accuracy,ci_lower,ci_upper,svm_accuracy\n",
        );
        for s in &self.sensitivity {
            for ((v, ci), beta) in s.values.iter().zip(&s.bilevel).zip(&s.beta) {
                let _ = writeln!(
                    csv,
                    "{},{},{},{},{},{},{},{}",
                    if s.figure == FIGURE_53_BETA {
                        "beta_share_of_max"
                    } else {
                        "phi"
                    },
                    format_float(*v),
                    format_float(beta.mean),
                    ci.n,
                    format_float(ci.mean),
                    format_float(ci.lower),
                    format_float(ci.upper),
                    format_float(s.svm.mean)
                );
            }
        }
        csv
    }

    fn figure_51(&self) -> Figure {
        let mut readings: Vec<&'static str> = Vec::new();
        for p in &self.scatter {
            if !readings.contains(&p.reading) {
                readings.push(p.reading);
            }
        }
        let percent = |p: &ScatterPoint| {
            Point::new(
                100.0 * p.comparison.first.mean,
                100.0 * p.comparison.second.mean,
            )
        };
        let (lo, hi) = self
            .scatter
            .iter()
            .map(percent)
            .filter(|p| p.x.is_finite() && p.y.is_finite())
            .fold((100.0f64, 0.0f64), |(lo, hi), p| {
                (lo.min(p.x).min(p.y), hi.max(p.x).max(p.y))
            });
        let (lo, hi) = ((lo - 5.0).floor().max(0.0), (hi + 5.0).ceil().min(100.0));
        let mut figure = Figure::new(1, readings.len().max(1)).title(
            "Figure 5.1: bilevel vs SVM, one point per setup (0.5% of the test task), under each \
             alignment of the training task's classes with the test task's",
        );
        for reading in readings {
            let points: Vec<Point> = self
                .scatter
                .iter()
                .filter(|p| p.reading == reading)
                .map(percent)
                .filter(|p| p.x.is_finite() && p.y.is_finite())
                .collect();
            let panel = Panel::new(format!("{reading} ({} setups)", points.len()))
                .x_label("SVM accuracy (%)")
                .y_label("bilevel accuracy (%)")
                .x_range(lo, hi)
                .y_range(lo, hi)
                .series(
                    Series::new("y = x", [Point::new(lo, lo), Point::new(hi, hi)])
                        .line(LineStyle::Dashed),
                )
                .series(
                    Series::new("setups", points)
                        .line(LineStyle::Hidden)
                        .marker(Marker::Circle),
                );
            figure = figure.panel(panel);
        }
        figure
    }

    fn figure_52(&self) -> Figure {
        let columns = 3;
        let rows = self.curves.len().div_ceil(columns).max(1);
        let mut figure = Figure::new(rows, columns).title(
            "Figure 5.2: accuracy vs test-task training postings (95% intervals); \
             line: LDA on 90% of the test task",
        );
        for curve in &self.curves {
            let mut panel = Panel::new(curve.setup.title())
                .x_label("training postings")
                .y_label("accuracy (%)")
                .x_scale(Scale::Log);
            for (i, (classifier, marker)) in [
                ("SVM", Marker::Square),
                ("bilevel", Marker::Circle),
                ("multi-task SVM", Marker::Triangle),
            ]
            .into_iter()
            .enumerate()
            {
                let points = curve
                    .sizes
                    .iter()
                    .zip(&curve.accuracy)
                    .filter_map(|(&m, row)| percent_point(m as f64, row[i]));
                panel = panel.series(Series::new(classifier, points).marker(marker));
            }
            if curve.lda.mean.is_finite() {
                panel = panel.reference_line(
                    ReferenceLine::new(100.0 * curve.lda.mean)
                        .label("LDA, 90% of the test task")
                        .line(LineStyle::Dotted),
                );
            }
            figure = figure.panel(panel);
        }
        figure
    }

    fn figure_53(&self) -> Figure {
        let varied: Vec<&Sensitivity> = self
            .sensitivity
            .iter()
            .filter(|s| !s.values.is_empty())
            .collect();
        let mut figure = Figure::new(1, varied.len().max(1)).title(format!(
            "Figure 5.3: {}, m = {}, aligned by group order (line: SVM)",
            EXPERIMENT_1.title(),
            self.study.settings().figure_53_size
        ));
        for s in varied {
            // β is plotted at the mean value the fits used (a share of each sample's β_max).
            let is_beta = s.figure == FIGURE_53_BETA;
            let points =
                s.values
                    .iter()
                    .zip(&s.beta)
                    .zip(&s.bilevel)
                    .filter_map(|((&v, beta), &ci)| {
                        percent_point(if is_beta { beta.mean } else { v }, ci)
                    });
            let (title, label) = if is_beta {
                ("varying β up to β_max = ‖t₂ − t₁‖/2", "β")
            } else {
                ("varying φ", "φ")
            };
            let mut panel = Panel::new(title)
                .x_label(label)
                .y_label("accuracy (%)")
                .x_scale(Scale::Log)
                .series(Series::new("bilevel", points).marker(Marker::Circle));
            if s.svm.mean.is_finite() {
                panel = panel.reference_line(
                    ReferenceLine::new(100.0 * s.svm.mean)
                        .label("SVM")
                        .line(LineStyle::Dotted),
                );
            }
            figure = figure.panel(panel);
        }
        figure
    }

    /// The whole of `REPORT.md`: one renderer per section.
    /// `verdicts` are those of `judged`, in order.
    fn report(&self, verdicts: &[Verdict], judged: &[claims::Judged]) -> String {
        let mut md = String::new();
        md.push_str(&self.title_markdown());
        md.push_str(&self.data_markdown());
        md.push_str(&self.prior_and_settings_markdown());
        md.push_str(&self.claims_markdown(verdicts, judged));
        md.push_str(&self.figure_51_readings_markdown());
        md.push_str(&self.figure_51_tables_markdown());
        md.push_str(&self.figure_52_markdown());
        md.push_str(&self.figure_53_markdown());
        md.push_str(&self.alternation_markdown());
        md
    }

    /// The title and where the numbers come from.
    fn title_markdown(&self) -> String {
        let mut r = String::new();
        let _ = writeln!(
            r,
            "# Epshteyn & DeJong (2007) §5: a WordNet prior for the bilevel classifier\n\n\
             Generated by `cargo xtask reproduce epshteyn-dejong`; every number and verdict below \
             is computed from this run's results (the CSV files it writes beside this report \
             under `results/epshteyn-dejong/`). Design choices are in \
             `docs/epshteyn-dejong.md`.\n"
        );
        r
    }

    /// The data: postings, words, features and their WordNet distances.
    fn data_markdown(&self) -> String {
        let study = self.study;
        let s = study.settings();
        let f = study.features().stats();
        let mut r = String::new();
        let _ = writeln!(r, "## Data\n");
        let _ = writeln!(
            r,
            "- Postings: {} (atheism {}, guns {}, mideast {}, autos {}); {} without any feature \
             word.",
            f.postings.iter().sum::<usize>(),
            f.postings[0],
            f.postings[1],
            f.postings[2],
            f.postings[3],
            f.empty_postings
        );
        let _ = writeln!(
            r,
            "- Words: {} distinct; {} read by WordNet as nouns, {} noun lemmas; **{} features** \
             (lemmas in at least {} postings).",
            f.words, f.noun_words, f.noun_lemmas, f.features, s.min_document_frequency
        );
        let _ = writeln!(
            r,
            "- Features by WordNet distance to each label word (0, 1, …, {}, then farther or \
             unconnected):\n",
            s.max_distance
        );
        let _ = writeln!(
            r,
            "  Distances count links between synsets: words sharing a synset with the label are at \
             0 (the paper, counting word–synset–word links, puts *gun*'s synonyms *artillery* and \
             *ordnance* at 2).\n"
        );
        let _ = writeln!(r, "| label | histogram |\n|---|---|");
        for (g, group) in super::GROUPS.iter().enumerate() {
            let h: Vec<String> = f.distance_histogram[g]
                .iter()
                .map(|c| c.to_string())
                .collect();
            let _ = writeln!(r, "| {} | {} |", group.label, h.join(" · "));
        }
        r
    }

    /// How the priors were reconstructed, and the settings.
    fn prior_and_settings_markdown(&self) -> String {
        let study = self.study;
        let s = study.settings();
        let mut r = String::new();
        let fits = self.prior_fill.len().max(1) as f64;
        let with_unseen = self.prior_fill.iter().filter(|p| p[0] > 0.0).count();
        let _ = writeln!(
            r,
            "\nPrior reconstruction over {} fits: {} had features at a test-task distance that no \
             training-task feature had (on average {:.1} such features per fit, given the class's \
             pooled mean and variance); on average {:.1} variances per fit were raised to the \
             floor (distance classes of one word, or of equal means).",
            self.prior_fill.len(),
            with_unseen,
            self.prior_fill.iter().map(|p| p[0]).sum::<f64>() / fits,
            self.prior_fill.iter().map(|p| p[1]).sum::<f64>() / fits
        );
        let _ = writeln!(
            r,
            "\nSettings: β = {}, φ = {}, C₁ = {}, C₂ = {}, C₃ = ∞; multi-task SVM C₁ = {}, \
             C₂ = {}; Figure 5.1 {} replicates per setup, Figure 5.2 {} per size, Figure 5.3 {} \
             per value.\n",
            s.beta,
            s.phi,
            s.c1,
            s.c2,
            s.multitask_c[0],
            s.multitask_c[1],
            s.figure_51_replicates,
            s.figure_52_replicates,
            s.figure_53_replicates
        );
        r
    }

    /// Each claim's verdict: the rule, the table, what changes with the reading, then each in
    /// full.
    fn claims_markdown(&self, verdicts: &[Verdict], judged: &[claims::Judged]) -> String {
        let mut r = String::new();
        let _ = writeln!(
            r,
            "## Claims\n\nEach claim is judged by the project's one method (`docs/verdicts.md`): \
             per unit, the 95% interval of the paired (or, where the samples differ, independent) \
             difference; a unit whose interval contains zero is a tie, which does not count for \
             a claim of a difference. {}\n",
            rule_sentence(verdicts, "units")
        );
        let _ = writeln!(r, "{}", verdict_table(verdicts));
        r.push_str(&reading_changes_51(judged));
        r.push_str(&claim_sections(verdicts, "### Claim"));
        r
    }

    /// Figure 5.1: the readings of the alignment and how the table measures improvement.
    fn figure_51_readings_markdown(&self) -> String {
        let study = self.study;
        let s = study.settings();
        let mut r = String::new();
        let _ = writeln!(r, "\n## Figure 5.1\n\n![Figure 5.1](fig5_1.svg)\n");
        let _ = writeln!(
            r,
            "**Which class informs which.** §2 reconstructs the test task's prior by \
             \"μ_i^j := χ_i(l^j_{{i,test}})\": class *i*'s compression read at the distances \
             to the test task's label *i*. The paper numbers the newsgroups of a task \
             (\"each training task newsgroup i ∈ {{1, 2}}\") but never says how class *i* of \
             one task lines up with class *i* of the other, so Figure 5.1 is run under three \
             readings: **{}** (class *i* of each task in the order atheism, guns, mideast, \
             autos), **{}** (class *i* of the training task informs class 1 − *i* of the test \
             task), and **{}** (for the {} setups whose tasks share a group, the one of the two \
             that maps that group to itself). The text supports the first as far as it goes: \
             it names its tasks in that order (\"for the training task: atheism vs. guns, test \
             task: guns vs. mideast\") and carries the index *i* across unchanged; read that \
             way, in its Experiment 1 *atheism* informs *guns* and *guns* informs *mideast*. \
             Figures 5.2 and 5.3 are run under that reading only.\n",
            Alignment::ByGroupOrder.name(),
            Alignment::Swapped.name(),
            SHARED_GROUP_READING,
            self.scatter
                .iter()
                .filter(|p| p.reading == SHARED_GROUP_READING)
                .count()
        );
        let _ = writeln!(
            r,
            "The alignment decides what the prior can do: step 1 pulls the hyperplane's normal \
             towards `t₂ − t₁`, which helps only as far as that direction separates the test \
             task's classes. The column *cos* is the cosine between the prior's `t₂ − t₁` and \
             the test task's class-mean difference `m̂₂ − m̂₁` (means over all its postings, a \
             diagnostic the classifiers never see), averaged over the samples' priors; \
             *β_max* = ‖t₂ − t₁‖ / 2 is the largest `β` the constraints (4.13)–(4.14) admit at \
             `μ_i = t_i` (β = {} here). Improvements are given in accuracy points, as a \
             relative accuracy gain and as a relative error reduction (means of the per-sample \
             ratios, with 95% intervals).\n",
            s.beta
        );
        r
    }

    /// Figure 5.1 under each reading: per setup, the two accuracies and the improvement.
    fn figure_51_tables_markdown(&self) -> String {
        let mut r = String::new();
        let mut readings: Vec<&'static str> = Vec::new();
        for p in &self.scatter {
            if !readings.contains(&p.reading) {
                readings.push(p.reading);
            }
        }
        for reading in readings {
            r.push_str(&self.figure_51_reading_markdown(reading));
        }
        r
    }

    /// Figure 5.1 under one reading: the table of setups, the range of each measure of
    /// improvement, and how the improvement follows the prior's alignment.
    fn figure_51_reading_markdown(&self, reading: &str) -> String {
        let mut r = String::new();
        let points: Vec<&ScatterPoint> = self
            .scatter
            .iter()
            .filter(|p| p.reading == reading)
            .collect();
        let _ = writeln!(
            r,
            "### Reading: {reading}\n\n| setup | m | SVM | bilevel | points (95% CI) | \
             relative gain | error reduction | p | β_max | cos |\n\
             |---|---|---|---|---|---|---|---|---|---|"
        );
        let mut ranges = [(f64::INFINITY, f64::NEG_INFINITY); 3];
        for p in &points {
            let c = &p.comparison;
            let bilevel = self.accuracies(&p.dataset, p.size, Classifier::Bilevel);
            let svm = self.accuracies(&p.dataset, p.size, Classifier::Svm);
            let d: Vec<Option<gendisc_engine::verdict::Difference>> = Improvement::ALL
                .iter()
                .map(|m| m.difference(&bilevel, &svm))
                .collect();
            for (range, d) in ranges.iter_mut().zip(&d) {
                if let Some(d) = d {
                    *range = (range.0.min(d.estimate), range.1.max(d.estimate));
                }
            }
            // A relative measure's unit follows its interval; a missing one is `n/a` alone.
            let interval = |d: &Option<gendisc_engine::verdict::Difference>, unit: &str| {
                d.map_or("n/a".to_string(), |d| {
                    format!(
                        "{} ({} to {}){unit}",
                        pct(d.estimate),
                        pct(d.lower),
                        pct(d.upper)
                    )
                })
            };
            let _ = writeln!(
                r,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                p.setup.title(),
                p.size,
                pct(c.first.mean),
                pct(c.second.mean),
                interval(&d[0], ""),
                interval(&d[1], "%"),
                interval(&d[2], "%"),
                p_text(c.p_value),
                fixed(0.5 * p.separation.mean, 3),
                fixed(p.cosine.mean, 3)
            );
        }
        let _ = writeln!(r);
        for (measure, (lo, hi)) in Improvement::ALL.iter().zip(ranges) {
            let _ = writeln!(
                r,
                "- {}: from {} to {}{}.",
                measure.name(),
                pct(lo),
                pct(hi),
                if *measure == Improvement::Points {
                    " points"
                } else {
                    "%"
                }
            );
        }
        let cosines: Vec<(f64, f64)> = points
            .iter()
            .map(|p| (p.cosine.mean, p.comparison.difference.mean))
            .filter(|(c, d)| c.is_finite() && d.is_finite())
            .collect();
        if cosines.len() >= 3 {
            let _ = writeln!(
                r,
                "- Correlation over setups between *cos* and the improvement in points: {}.",
                fixed(correlation(&cosines), 2)
            );
        }
        let _ = writeln!(r);
        r
    }

    /// Figure 5.2: the learning curves as a table.
    fn figure_52_markdown(&self) -> String {
        let mut r = String::new();
        let _ = writeln!(
            r,
            "\n## Figure 5.2\n\n![Figure 5.2](fig5_2.svg)\n\n| setup | m | SVM | bilevel | \
             multi-task SVM | LDA (90%) |\n|---|---|---|---|---|---|"
        );
        for curve in &self.curves {
            for (m, row) in curve.sizes.iter().zip(&curve.accuracy) {
                let _ = writeln!(
                    r,
                    "| {} | {m} | {} | {} | {} | {} |",
                    curve.setup.title(),
                    pct(row[0].mean),
                    pct(row[1].mean),
                    pct(row[2].mean),
                    pct(curve.lda.mean)
                );
            }
        }
        r
    }

    /// Figure 5.3: the β and φ sensitivities.
    fn figure_53_markdown(&self) -> String {
        let study = self.study;
        let s = study.settings();
        let mut r = String::new();
        let _ = writeln!(r, "\n## Figure 5.3\n\n![Figure 5.3](fig5_3.svg)\n");
        if let Some(b) = self
            .sensitivity
            .iter()
            .find(|x| x.figure == FIGURE_53_BETA && x.separation.mean.is_finite())
        {
            let _ = writeln!(
                r,
                "The paper raises `β` \"up to its maximum feasible value\". With `Σ_i = I`, \
                 adding (4.13) and (4.14) gives `wᵀ(μ₂ − μ₁) ≥ 2β‖w‖`, so at `μ_i = t_i` no \
                 hyperplane satisfies them beyond `β_max = ‖t₂ − t₁‖ / 2`; here (Experiment 1, \
                 {}) `β_max` = {} on average over the samples' priors (95% interval \
                 of that mean: {} to {}), against the default β = {}. The `β` panel runs over shares of each \
                 sample's `β_max` (a positive φ raises the bound by at most \
                 `φ(√max Ω₁ + √max Ω₂)/2`, negligible at φ = {}).\n",
                DEFAULT_ALIGNMENT_NAME,
                fixed(0.5 * b.separation.mean, 4),
                fixed(0.5 * b.separation.lower, 4),
                fixed(0.5 * b.separation.upper, 4),
                s.beta,
                s.phi
            );
        }
        let _ = writeln!(
            r,
            "`φ` bounds how far step 2 may move each mean, `‖Ω_i^{{-1/2}}(μ_i − t_i)‖ ≤ φ`; with \
             `Ω_i` built from per-distance variances of word frequencies (square roots of order \
             10⁻²), a small φ moves `wᵀμ_i` by a fraction of `β‖w‖`, so the grid runs to φ = \
             {} to reach values where the constraint binds.\n",
            s.figure_53_phis.iter().copied().fold(f64::NAN, f64::max)
        );
        for sens in &self.sensitivity {
            if sens.figure == FIGURE_53_BETA {
                let _ = writeln!(
                    r,
                    "| β / β_max | β | bilevel (95% CI) | SVM |\n|---|---|---|---|"
                );
            } else {
                let _ = writeln!(r, "| φ | β | bilevel (95% CI) | SVM |\n|---|---|---|---|");
            }
            for ((v, ci), beta) in sens.values.iter().zip(&sens.bilevel).zip(&sens.beta) {
                let _ = writeln!(
                    r,
                    "| {} | {} | {} ({} to {}) | {} |",
                    format_float(*v),
                    fixed(beta.mean, 4),
                    pct(ci.mean),
                    pct(ci.lower),
                    pct(ci.upper),
                    pct(sens.svm.mean)
                );
            }
            let _ = writeln!(r);
        }
        r
    }

    /// The alternating algorithm: how step 1 is solved, and how many alternations the fits took.
    fn alternation_markdown(&self) -> String {
        let mut r = String::new();
        let _ = writeln!(r, "## The alternating algorithm\n");
        let _ = writeln!(
            r,
            "Step 1 (the second-order cone program) is solved for the hyperplane's coordinates in \
             the span of the training postings and the two class means: with `Σ_i ∝ I` the \
             program sees the weights only through their norm and their inner products with \
             those vectors, so it has an optimum there, the full program's (docs/bilevel.md). \
             Its interior-point path differs from that of the program over every word, so fits \
             agree with such a solve to the solver's tolerance, not bit for bit: a posting near \
             a boundary may change sides.\n"
        );
        // The alternations of every successful fit; a failed fit has none.
        let mut histogram: BTreeMap<usize, usize> = BTreeMap::new();
        let (mut succeeded, mut failed) = (0, 0);
        for &(_, _, alternations) in &self.fits {
            match alternations {
                Some(it) => {
                    *histogram.entry(it).or_default() += 1;
                    succeeded += 1;
                }
                None => failed += 1,
            }
        }
        let h: Vec<String> = histogram
            .iter()
            .map(|(it, n)| format!("{it}: {n}"))
            .collect();
        let _ = writeln!(
            r,
            "Alternations per fit (all figures, {} fits): {}. {} fits stopped at the iteration \
             cap; {} failed in the solver.",
            succeeded,
            h.join(", "),
            self.not_converged,
            failed
        );
        r
    }
}

/// Figure 5.1's setups under each reading: each alignment's, then the setups whose tasks
/// share a group under the alignment that maps it to itself.
fn readings(study: &EpshteynDejongStudy) -> Vec<(&'static str, Vec<Setup>)> {
    let alignments = &study.settings().figure_51_alignments;
    let mut readings: Vec<(&'static str, Vec<Setup>)> = alignments
        .iter()
        .map(|&a| (a.name(), study.figure_51_setups().to_vec()))
        .collect();
    let shared: Vec<Setup> = alignments
        .iter()
        .flat_map(|&a| {
            study
                .figure_51_setups()
                .iter()
                .filter(move |setup| setup.shared_group_alignment() == Some(a))
                .copied()
        })
        .collect();
    if !alignments.is_empty() {
        readings.push((SHARED_GROUP_READING, shared));
    }
    readings
}

/// Figure 5.1's numbers: per reading, each setup in the order of Figure 5.1's setups.
fn scatter(study: &EpshteynDejongStudy, groups: &Groups<'_>) -> Vec<ScatterPoint> {
    let mut scatter = Vec::new();
    for (reading, setups) in readings(study) {
        let mut points: Vec<ScatterPoint> = setups
            .into_iter()
            .map(|setup| {
                let alignment = if reading == SHARED_GROUP_READING {
                    setup
                        .shared_group_alignment()
                        .expect("shared-group setups share a group")
                } else {
                    Alignment::ALL
                        .into_iter()
                        .find(|a| a.name() == reading)
                        .expect("an alignment's reading")
                };
                let name =
                    EpshteynDejongStudy::dataset_name(figure_51_dataset(alignment), &setup.id());
                let size = study.figure_51_size(setup.test);
                let (comparison, failures) = groups.paired(&name, size);
                ScatterPoint {
                    reading,
                    separation: groups.bilevel_metric(&name, size, Metric::PriorSeparation),
                    cosine: groups.bilevel_metric(&name, size, Metric::PriorCosine),
                    dataset: name,
                    setup,
                    size,
                    comparison,
                    failures,
                }
            })
            .collect();
        let order = |p: &ScatterPoint| study.figure_51_setups().iter().position(|s| *s == p.setup);
        points.sort_by_key(order);
        scatter.extend(points);
    }
    scatter
}

/// Figure 5.2's numbers: per setup and size, the three classifiers' mean accuracies, and LDA on
/// 90% of the test task.
fn curves(study: &EpshteynDejongStudy, groups: &Groups<'_>) -> Vec<LearningCurve> {
    let sizes = &study.settings().figure_52_sizes;
    study
        .figure_52_setups()
        .iter()
        .map(|&setup| {
            let name = EpshteynDejongStudy::dataset_name(FIGURE_52, &setup.id());
            let accuracy = sizes
                .iter()
                .map(|&m| {
                    [
                        Classifier::Svm,
                        Classifier::Bilevel,
                        Classifier::MultitaskSvm,
                    ]
                    .map(|c| groups.accuracy(&name, m, c))
                })
                .collect();
            let lda_name = EpshteynDejongStudy::dataset_name(FIGURE_52_LDA, &setup.test.id());
            LearningCurve {
                setup,
                sizes: sizes.clone(),
                accuracy,
                lda: groups.accuracy(&lda_name, study.prior_size(setup.test), Classifier::Lda90),
            }
        })
        .collect()
}

/// Figure 5.3's numbers: for `β` and for `φ`, the bilevel classifier's accuracy at each value.
fn sensitivity(study: &EpshteynDejongStudy, groups: &Groups<'_>) -> Vec<Sensitivity> {
    let s = study.settings();
    let m = s.figure_53_size;
    [
        ("β", FIGURE_53_BETA, &s.figure_53_betas),
        ("φ", FIGURE_53_PHI, &s.figure_53_phis),
    ]
    .into_iter()
    .map(|(name, figure, grid)| {
        let dataset = |i: usize| EpshteynDejongStudy::dataset_name(figure, &i.to_string());
        Sensitivity {
            name,
            figure,
            beta: (0..grid.len())
                .map(|i| groups.bilevel_metric(&dataset(i), m, Metric::Beta))
                .collect(),
            separation: groups.bilevel_metric(&dataset(0), m, Metric::PriorSeparation),
            values: grid.clone(),
            bilevel: (0..grid.len())
                .map(|i| groups.accuracy(&dataset(i), m, Classifier::Bilevel))
                .collect(),
            // The SVM does not depend on β or φ, and every value's cells share their samples.
            svm: groups.accuracy(&dataset(0), m, Classifier::Svm),
        }
    })
    .collect()
}

/// A mean (in percent) at `x` with its 95% interval when there is one; `None` without a mean.
fn percent_point(x: f64, ci: MeanCi) -> Option<Point> {
    if !ci.mean.is_finite() {
        None
    } else if ci.lower.is_finite() {
        Some(Point::with_error(
            x,
            100.0 * ci.mean,
            100.0 * ci.lower,
            100.0 * ci.upper,
        ))
    } else {
        Some(Point::new(x, 100.0 * ci.mean))
    }
}

/// The verdicts of Figure 5.1 that change with the alignment (for one measure of improvement)
/// or with the measure (under one alignment).
fn reading_changes_51(verdicts: &[claims::Judged]) -> String {
    let figure_51 = || {
        verdicts
            .iter()
            .filter_map(|j| j.figure_51.map(|key| (key, &j.verdict)))
    };
    let with_alignment = reading_changes(figure_51().map(|(key, v)| (key.measure, v)));
    let with_measure = reading_changes(
        figure_51()
            .filter(|(key, _)| key.measure.is_some())
            .map(|(key, v)| (key.alignment, v)),
    );
    if with_alignment.is_empty() && with_measure.is_empty() {
        "No verdict of Figure 5.1 changes with the alignment or with the measure of \
         improvement.\n\n"
            .into()
    } else {
        format!(
            "Verdicts of Figure 5.1 that change with the alignment, for one measure of \
             improvement:\n\n{}Verdicts of Figure 5.1 that change with the measure of \
             improvement, under one alignment:\n\n{}",
            or_none(&with_alignment),
            or_none(&with_measure)
        )
    }
}

/// `text`, or a line saying there is nothing.
fn or_none(text: &str) -> String {
    if text.is_empty() {
        "None.\n\n".into()
    } else {
        text.into()
    }
}

/// `x` with `digits` decimals (`n/a` when undefined).
fn fixed(x: f64, digits: usize) -> String {
    if x.is_finite() {
        format!("{x:.digits$}")
    } else {
        "n/a".into()
    }
}

/// Pearson's correlation of the pairs (NaN when either coordinate is constant).
fn correlation(pairs: &[(f64, f64)]) -> f64 {
    let n = pairs.len() as f64;
    let (mx, my) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in pairs {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    sxy / (sxx * syy).sqrt()
}

/// The reading Figures 5.2 and 5.3 are run under.
const DEFAULT_ALIGNMENT_NAME: &str = "aligned by group order";

/// A share as a percentage with one decimal (`n/a` when undefined).
fn pct(x: f64) -> String {
    if x.is_finite() {
        format!("{:.1}", 100.0 * x)
    } else {
        "n/a".into()
    }
}

fn p_text(p: f64) -> String {
    if !p.is_finite() {
        "n/a".into()
    } else if p < 1e-4 {
        "< 0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{collection, settings, wordnet};
    use super::*;
    use crate::papers::epshteyn_dejong::Task;

    fn study(name: &str) -> EpshteynDejongStudy {
        EpshteynDejongStudy::new(&collection(), &wordnet(name), settings()).unwrap()
    }

    /// A mean with a ± `half` interval over four samples.
    fn ci(mean: f64, half: f64) -> MeanCi {
        MeanCi {
            n: 4,
            mean,
            lower: mean - half,
            upper: mean + half,
        }
    }

    /// Hand-made numbers for every section: two setups of Figure 5.1 under the first
    /// alignment, one learning curve, the β sensitivity, five fits (one failed) and two priors.
    fn data(study: &EpshteynDejongStudy) -> ReportData<'_> {
        let point = |setup: Setup, svm: f64, bilevel: f64, cosine: f64| ScatterPoint {
            reading: Alignment::ByGroupOrder.name(),
            dataset: format!("fig5.1-{}", setup.title()),
            setup,
            separation: ci(0.8, 0.1),
            cosine: ci(cosine, 0.05),
            size: 9,
            comparison: Paired {
                first: ci(svm, 0.02),
                second: ci(bilevel, 0.02),
                difference: ci(bilevel - svm, 0.01),
                p_value: 0.003,
            },
            failures: 0,
        };
        let other = Setup {
            train: Task([0, 2]),
            test: Task([1, 3]),
        };
        ReportData {
            study,
            scatter: vec![
                point(EXPERIMENT_1, 0.61, 0.72, 0.4),
                point(other, 0.55, 0.58, 0.1),
            ],
            curves: vec![LearningCurve {
                setup: EXPERIMENT_1,
                sizes: vec![4, 8],
                accuracy: vec![
                    [ci(0.6, 0.1), ci(0.7, 0.1), ci(0.65, 0.1)],
                    [ci(0.7, 0.1), ci(0.75, 0.1), ci(0.72, 0.1)],
                ],
                lda: ci(0.9, 0.01),
            }],
            sensitivity: vec![Sensitivity {
                name: "β",
                figure: FIGURE_53_BETA,
                beta: vec![ci(0.1, 0.01), ci(0.5, 0.01)],
                separation: ci(1.2, 0.2),
                values: vec![0.2, 1.0],
                bilevel: vec![ci(0.66, 0.03), ci(0.71, 0.03)],
                svm: ci(0.6, 0.02),
            }],
            fits: vec![
                ("a".into(), 4, Some(2)),
                ("a".into(), 4, Some(2)),
                ("a".into(), 8, Some(3)),
                ("b".into(), 8, Some(4)),
                ("b".into(), 8, None),
            ],
            groups: Groups {
                outcomes: BTreeMap::new(),
            },
            not_converged: 1,
            prior_fill: vec![[2.0, 1.0], [0.0, 3.0]],
        }
    }

    #[test]
    fn the_data_and_settings_sections_state_the_study_and_the_priors() {
        let study = study("sections");
        let data = data(&study);
        let features = study.features().stats().features;
        let md = data.data_markdown();
        assert!(md.contains(&format!("**{features} features**")), "{md}");
        assert_eq!(md.matches("\n| ").count(), super::super::GROUPS.len() + 1);
        // Of the two priors, one had unseen distances (2 of them, 1.0 per fit on average), and
        // 4 variances were floored (2.0 per fit).
        let prior = data.prior_and_settings_markdown();
        assert!(
            prior.contains("over 2 fits: 1 had features at a test-task distance"),
            "{prior}"
        );
        assert!(
            prior.contains("(on average 1.0 such features per fit"),
            "{prior}"
        );
        assert!(
            prior.contains("on average 2.0 variances per fit"),
            "{prior}"
        );
        assert!(
            prior.contains(&format!("β = {}, φ = {}", settings().beta, settings().phi)),
            "{prior}"
        );
    }

    #[test]
    fn figure_5_1_has_a_table_per_reading_with_the_ranges_of_its_setups() {
        let study = study("figure51");
        let data = data(&study);
        let md = data.figure_51_tables_markdown();
        assert_eq!(md.matches("### Reading: ").count(), 1, "{md}");
        let row = md
            .lines()
            .find(|l| l.starts_with(&format!("| {} |", EXPERIMENT_1.title())))
            .unwrap();
        // SVM and bilevel accuracies, the p-value, β_max = ‖t₂ − t₁‖/2 and the cosine.
        assert!(
            row.starts_with(&format!(
                "| {} | 9 | {} | {} |",
                EXPERIMENT_1.title(),
                pct(0.61),
                pct(0.72)
            )),
            "{row}"
        );
        assert!(row.ends_with(" | 0.400 | 0.400 |"), "{row}");
        // Without per-sample accuracies the measures of improvement are not computed, and two
        // setups are too few for a correlation.
        assert!(row.contains("| n/a | n/a | n/a |"), "{row}");
        assert!(!md.contains("Correlation"), "{md}");
        let readings = data.figure_51_readings_markdown();
        assert!(
            readings.contains(&format!("β = {} here", settings().beta)),
            "{readings}"
        );
    }

    #[test]
    fn figure_5_2_has_a_row_per_setup_and_size() {
        let study = study("figure52");
        let md = data(&study).figure_52_markdown();
        let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| ")).skip(1).collect();
        assert_eq!(rows.len(), 2, "{md}");
        assert_eq!(
            rows[1],
            format!(
                "| {} | 8 | {} | {} | {} | {} |",
                EXPERIMENT_1.title(),
                pct(0.7),
                pct(0.75),
                pct(0.72),
                pct(0.9)
            )
        );
    }

    #[test]
    fn figure_5_3_states_beta_max_and_each_value() {
        let study = study("figure53");
        let md = data(&study).figure_53_markdown();
        // β_max is half of ‖t₂ − t₁‖, with its interval.
        assert!(md.contains("`β_max` = 0.6000 on average"), "{md}");
        assert!(md.contains("0.5000 to 0.7000"), "{md}");
        assert!(
            md.contains("| β / β_max | β | bilevel (95% CI) | SVM |"),
            "{md}"
        );
        assert!(
            md.contains(&format!(
                "| 1 | 0.5000 | {} ({} to {}) | {} |",
                pct(0.71),
                pct(0.68),
                pct(0.74),
                pct(0.6)
            )),
            "{md}"
        );
    }

    #[test]
    fn the_alternations_are_counted_over_the_fits_that_succeeded() {
        let study = study("alternations");
        let md = data(&study).alternation_markdown();
        assert!(
            md.contains(
                "Alternations per fit (all figures, 4 fits): 2: 2, 3: 1, 4: 1. 1 fits stopped at \
                 the iteration cap; 1 failed in the solver."
            ),
            "{md}"
        );
    }

    #[test]
    fn the_claims_section_states_the_rule_then_each_verdict() {
        let study = study("claims");
        let data = data(&study);
        let md = data.claims_markdown(&[], &[]);
        assert!(md.starts_with("## Claims\n\n"), "{md}");
        assert!(md.contains(&rule_sentence(&[], "units")), "{md}");
        assert!(
            md.contains("No verdict of Figure 5.1 changes with the alignment"),
            "{md}"
        );
        let title = data.title_markdown();
        assert!(title.starts_with("# Epshteyn & DeJong (2007)"), "{title}");
    }
}
