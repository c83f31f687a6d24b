//! The outputs of the Epshteyn–DeJong study: CSV tables, Figures 5.1–5.3 as SVG, and
//! `REPORT.md` with the paper's claims, our numbers and verdicts computed from them.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use gendisc_metrics::distributions::{student_t_cdf, student_t_quantile};

use crate::error::StudyError;
use crate::figure::{Figure, LineStyle, Marker, Panel, Point, ReferenceLine, Scale, Series};
use crate::tables::format_float;
use crate::{Outcome, Result, StudyResults, SummaryTable};

use super::{
    EpshteynDejongStudy, Setup, ACCURACY, BILEVEL, CONVERGED, EXPERIMENT_1, EXPERIMENT_4, FAILED,
    FIGURE_51, FIGURE_52, FIGURE_52_LDA, FIGURE_53_BETA, FIGURE_53_PHI, ITERATIONS, LDA_90,
    MULTITASK_SVM, PRIOR_FLOORED, PRIOR_UNSEEN, SVM,
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
    write_text(&out.join("REPORT.md"), &data.report())?;
    Ok(())
}

fn write_text(path: &Path, text: &str) -> Result<()> {
    fs::write(path, text).map_err(|source| StudyError::Write {
        path: path.to_path_buf(),
        source,
    })
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
        let n = values.len();
        if n == 0 {
            return Self {
                n,
                mean: f64::NAN,
                lower: f64::NAN,
                upper: f64::NAN,
            };
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let half = if n < 2 {
            f64::NAN
        } else {
            let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            student_t_quantile(0.975, (n - 1) as f64).unwrap_or(f64::NAN) * (var / n as f64).sqrt()
        };
        Self {
            n,
            mean,
            lower: mean - half,
            upper: mean + half,
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
        let difference = MeanCi::of(&d);
        let n = d.len();
        let p_value = if n < 2 {
            f64::NAN
        } else {
            let var = d.iter().map(|v| (v - difference.mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            if var == 0.0 {
                if difference.mean == 0.0 {
                    1.0
                } else {
                    0.0
                }
            } else {
                let t = difference.mean / (var / n as f64).sqrt();
                2.0 * (1.0 - student_t_cdf(t.abs(), (n - 1) as f64).unwrap_or(f64::NAN))
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

/// Figure 5.1's numbers for one setup.
struct ScatterPoint {
    setup: Setup,
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
    values: Vec<f64>,
    bilevel: Vec<MeanCi>,
    svm: MeanCi,
}

struct ReportData<'a> {
    study: &'a EpshteynDejongStudy,
    scatter: Vec<ScatterPoint>,
    curves: Vec<LearningCurve>,
    sensitivity: Vec<Sensitivity>,
    /// Alternations of every successful bilevel fit.
    iterations: Vec<usize>,
    not_converged: usize,
    failures: usize,
    /// Per bilevel fit: features with a test distance the training task lacked, and floored
    /// variances.
    prior_fill: Vec<[f64; 2]>,
}

impl<'a> ReportData<'a> {
    fn new(study: &'a EpshteynDejongStudy, results: &'a StudyResults) -> Self {
        let schema = results.schema();
        let c = |name: &str| schema.classifier_index(name).expect("a classifier");
        let k = |name: &str| schema.metric_index(name).expect("a metric");
        // The outcomes of each `(dataset, training size)`, in replicate order.
        let mut groups: BTreeMap<(&str, usize), Vec<&Outcome>> = BTreeMap::new();
        let mut iterations = Vec::new();
        let (mut not_converged, mut failures) = (0, 0);
        let mut prior_fill = Vec::new();
        for (cell, outcome) in results.iter() {
            groups
                .entry((cell.dataset.as_str(), cell.train_size))
                .or_default()
                .push(outcome);
            if let Some(it) = outcome.get(c(BILEVEL), k(ITERATIONS)) {
                iterations.push(it as usize);
            }
            not_converged += usize::from(outcome.get(c(BILEVEL), k(CONVERGED)) == Some(0.0));
            failures += usize::from(outcome.get(c(BILEVEL), k(FAILED)) == Some(1.0));
            if let (Some(u), Some(f)) = (
                outcome.get(c(BILEVEL), k(PRIOR_UNSEEN)),
                outcome.get(c(BILEVEL), k(PRIOR_FLOORED)),
            ) {
                prior_fill.push([u, f]);
            }
        }
        let values = |dataset: &str, m: usize, classifier: &str| -> Vec<Option<f64>> {
            groups.get(&(dataset, m)).map_or(Vec::new(), |g| {
                g.iter()
                    .map(|o| o.get(c(classifier), k(ACCURACY)))
                    .collect()
            })
        };
        let present = |v: Vec<Option<f64>>| v.into_iter().flatten().collect::<Vec<f64>>();
        let paired = |dataset: &str, m: usize| -> (Paired, usize) {
            let svm = values(dataset, m, SVM);
            let bilevel = values(dataset, m, BILEVEL);
            let pairs: Vec<(f64, f64)> = svm
                .iter()
                .zip(&bilevel)
                .filter_map(|(a, b)| Some(((*a)?, (*b)?)))
                .collect();
            let failed = bilevel.iter().filter(|b| b.is_none()).count();
            (Paired::of(&pairs), failed)
        };

        let s = study.settings();
        let scatter = study
            .figure_51_setups()
            .iter()
            .map(|&setup| {
                let name = EpshteynDejongStudy::dataset_name(FIGURE_51, &setup.id());
                let size = study.figure_51_size(setup.test);
                let (comparison, failures) = paired(&name, size);
                ScatterPoint {
                    setup,
                    size,
                    comparison,
                    failures,
                }
            })
            .collect();
        let curves = study
            .figure_52_setups()
            .iter()
            .map(|&setup| {
                let name = EpshteynDejongStudy::dataset_name(FIGURE_52, &setup.id());
                let accuracy = s
                    .figure_52_sizes
                    .iter()
                    .map(|&m| {
                        [SVM, BILEVEL, MULTITASK_SVM]
                            .map(|classifier| MeanCi::of(&present(values(&name, m, classifier))))
                    })
                    .collect();
                let lda_name = EpshteynDejongStudy::dataset_name(FIGURE_52_LDA, &setup.test.id());
                let lda = MeanCi::of(&present(values(
                    &lda_name,
                    study.prior_size(setup.test),
                    LDA_90,
                )));
                LearningCurve {
                    setup,
                    sizes: s.figure_52_sizes.clone(),
                    accuracy,
                    lda,
                }
            })
            .collect();
        let sensitivity = [
            ("β", FIGURE_53_BETA, &s.figure_53_betas),
            ("φ", FIGURE_53_PHI, &s.figure_53_phis),
        ]
        .into_iter()
        .map(|(name, figure, grid)| {
            let dataset = |i: usize| EpshteynDejongStudy::dataset_name(figure, &i.to_string());
            let bilevel = (0..grid.len())
                .map(|i| MeanCi::of(&present(values(&dataset(i), s.figure_53_size, BILEVEL))))
                .collect();
            // The SVM does not depend on β or φ, and every value's cells share their samples.
            let svm = MeanCi::of(&present(values(&dataset(0), s.figure_53_size, SVM)));
            Sensitivity {
                name,
                values: grid.clone(),
                bilevel,
                svm,
            }
        })
        .collect();
        Self {
            study,
            scatter,
            curves,
            sensitivity,
            iterations,
            not_converged,
            failures,
            prior_fill,
        }
    }

    fn figure_51_csv(&self) -> String {
        let mut csv = String::from(
            "setup,train_task,test_task,train_size,pairs,svm_accuracy,bilevel_accuracy,\
             difference,difference_lower,difference_upper,p_value,bilevel_failures\n",
        );
        for p in &self.scatter {
            let c = &p.comparison;
            let _ = writeln!(
                csv,
                "{},{},{},{},{},{},{},{},{},{},{},{}",
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
                for (classifier, ci) in [SVM, BILEVEL, MULTITASK_SVM].iter().zip(row) {
                    let _ = writeln!(
                        csv,
                        "{},{m},{classifier},{},{},{},{}",
                        curve.setup.id(),
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
                "{},{},{LDA_90},{},{},{},{}",
                curve.setup.id(),
                self.study.prior_size(curve.setup.test),
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
            "parameter,value,replicates,bilevel_accuracy,ci_lower,ci_upper,svm_accuracy\n",
        );
        for s in &self.sensitivity {
            for (v, ci) in s.values.iter().zip(&s.bilevel) {
                let _ = writeln!(
                    csv,
                    "{},{},{},{},{},{},{}",
                    if s.name == "β" { "beta" } else { "phi" },
                    format_float(*v),
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
        let points: Vec<Point> = self
            .scatter
            .iter()
            .map(|p| {
                Point::new(
                    100.0 * p.comparison.first.mean,
                    100.0 * p.comparison.second.mean,
                )
            })
            .filter(|p| p.x.is_finite() && p.y.is_finite())
            .collect();
        let (lo, hi) = points.iter().fold((100.0f64, 0.0f64), |(lo, hi), p| {
            (lo.min(p.x).min(p.y), hi.max(p.x).max(p.y))
        });
        let (lo, hi) = ((lo - 5.0).floor().max(0.0), (hi + 5.0).ceil().min(100.0));
        let panel = Panel::new("one point per setup, 0.5% of the test task")
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
        Figure::new(1, 1)
            .title("Figure 5.1: bilevel vs SVM")
            .panel(panel)
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
            "Figure 5.3: {}, m = {} (line: SVM)",
            EXPERIMENT_1.title(),
            self.study.settings().figure_53_size
        ));
        for s in varied {
            let points = s
                .values
                .iter()
                .zip(&s.bilevel)
                .filter_map(|(&v, &ci)| percent_point(v, ci));
            let mut panel = Panel::new(format!("varying {}", s.name))
                .x_label(s.name)
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

    fn report(&self) -> String {
        let study = self.study;
        let s = study.settings();
        let f = study.features().stats();
        let mut r = String::new();
        let _ = writeln!(
            r,
            "# Epshteyn & DeJong (2007) §5: a WordNet prior for the bilevel classifier\n\n\
             Generated by `cargo xtask reproduce epshteyn-dejong`; every number and verdict below \
             is computed from this run's results (the CSV files it writes beside this report \
             under `results/epshteyn-dejong/`). Design choices are in \
             `docs/epshteyn-dejong.md`.\n"
        );
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

        let _ = writeln!(r, "## Claims\n");
        let _ = writeln!(
            r,
            "| # | the paper says | we find | verdict |\n|---|---|---|---|"
        );
        for (i, (claim, found, verdict)) in self.claims().into_iter().enumerate() {
            let _ = writeln!(r, "| {} | {claim} | {found} | **{verdict}** |", i + 1);
        }

        let _ = writeln!(
            r,
            "\n## Figure 5.1\n\n![Figure 5.1](fig5_1.svg)\n\n| setup | m | SVM | bilevel | \
             difference (95% CI) | p |\n|---|---|---|---|---|---|"
        );
        for p in &self.scatter {
            let c = &p.comparison;
            let _ = writeln!(
                r,
                "| {} | {} | {} | {} | {} ({} to {}) | {} |",
                p.setup.title(),
                p.size,
                pct(c.first.mean),
                pct(c.second.mean),
                pct(c.difference.mean),
                pct(c.difference.lower),
                pct(c.difference.upper),
                p_text(c.p_value)
            );
        }
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
        let _ = writeln!(r, "\n## Figure 5.3\n\n![Figure 5.3](fig5_3.svg)\n");
        for sens in &self.sensitivity {
            let _ = writeln!(r, "| {} | bilevel | SVM |\n|---|---|---|", sens.name);
            for (v, ci) in sens.values.iter().zip(&sens.bilevel) {
                let _ = writeln!(
                    r,
                    "| {} | {} | {} |",
                    format_float(*v),
                    pct(ci.mean),
                    pct(sens.svm.mean)
                );
            }
            let _ = writeln!(r);
        }
        let _ = writeln!(r, "## The alternating algorithm\n");
        let mut histogram: BTreeMap<usize, usize> = BTreeMap::new();
        for &it in &self.iterations {
            *histogram.entry(it).or_default() += 1;
        }
        let h: Vec<String> = histogram
            .iter()
            .map(|(it, n)| format!("{it}: {n}"))
            .collect();
        let _ = writeln!(
            r,
            "Alternations per fit (all figures, {} fits): {}. {} fits stopped at the iteration \
             cap; {} failed in the solver.",
            self.iterations.len(),
            h.join(", "),
            self.not_converged,
            self.failures
        );
        r
    }

    /// `(claim, what we find, verdict)` for each claim of §5.
    fn claims(&self) -> Vec<(String, String, &'static str)> {
        let mut claims = Vec::new();
        let valid: Vec<&ScatterPoint> = self
            .scatter
            .iter()
            .filter(|p| p.comparison.difference.mean.is_finite())
            .collect();
        let n = valid.len();
        let above = valid
            .iter()
            .filter(|p| p.comparison.difference.mean > 0.0)
            .count();
        claims.push((
            "Figure 5.1: every setup's point lies above the diagonal (bilevel more accurate than \
             the SVM)"
                .to_string(),
            format!("{above} of {n} setups above"),
            verdict(n > 0 && above == n, above * 2 > n),
        ));
        let (lo, hi) = valid
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                let d = p.comparison.difference.mean;
                (lo.min(d), hi.max(d))
            });
        let in_range = valid
            .iter()
            .filter(|p| (0.10..=0.30).contains(&p.comparison.difference.mean))
            .count();
        let (rel_lo, rel_hi) =
            valid
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                    let r = p.comparison.difference.mean / p.comparison.first.mean;
                    (lo.min(r), hi.max(r))
                });
        claims.push((
            "Figure 5.1: the improvements range from 10% to 30% (read as accuracy points)"
                .to_string(),
            format!(
                "from {} to {} points; {in_range} of {n} setups within 10–30 (relative to the \
                 SVM's accuracy: {}% to {}%)",
                pct(lo),
                pct(hi),
                pct(rel_lo),
                pct(rel_hi)
            ),
            verdict(n > 0 && in_range == n, in_range * 2 > n),
        ));
        let significant = valid
            .iter()
            .filter(|p| p.comparison.difference.mean > 0.0 && p.comparison.p_value < 0.05)
            .count();
        claims.push((
            "Figure 5.1: every improvement is significant at the 5% level".to_string(),
            format!("{significant} of {n} setups significantly better (paired t-test)"),
            verdict(n > 0 && significant == n, significant * 2 > n),
        ));

        let curves: Vec<&LearningCurve> = self
            .curves
            .iter()
            .filter(|c| c.accuracy.len() >= 2)
            .collect();
        let k = curves.len();
        if k > 0 {
            let first = |c: &LearningCurve, i: usize| c.accuracy[0][i].mean;
            let last = |c: &LearningCurve, i: usize| c.accuracy[c.accuracy.len() - 1][i].mean;
            let small_best = curves
                .iter()
                .filter(|c| first(c, 1) > first(c, 0) && first(c, 1) > first(c, 2))
                .count();
            claims.push((
                format!(
                    "Figure 5.2: at small sizes the bilevel classifier beats the SVM and the \
                     multi-task SVM (our smallest size, m = {})",
                    curves[0].sizes[0]
                ),
                format!("{small_best} of {k} setups"),
                verdict(small_best == k, small_best * 2 > k),
            ));
            let improves = curves.iter().filter(|c| last(c, 1) > first(c, 1)).count();
            claims.push((
                "Figure 5.2: the bilevel classifier improves with more test-task data".to_string(),
                format!(
                    "{improves} of {k} setups more accurate at m = {} than at m = {}",
                    curves[0].sizes[curves[0].sizes.len() - 1],
                    curves[0].sizes[0]
                ),
                verdict(improves == k, improves * 2 > k),
            ));
            let converge = curves
                .iter()
                .filter(|c| (last(c, 1) - last(c, 0)).abs() < (first(c, 1) - first(c, 0)).abs())
                .count();
            claims.push((
                "Figure 5.2: the curves converge as the training data grow".to_string(),
                format!("the bilevel–SVM gap shrinks from the smallest to the largest size in {converge} of {k} setups"),
                verdict(converge == k, converge * 2 > k),
            ));
            let cells: usize = curves.iter().map(|c| c.accuracy.len()).sum();
            let multitask_better: usize = curves
                .iter()
                .map(|c| {
                    c.accuracy
                        .iter()
                        .filter(|row| row[2].mean > row[0].mean)
                        .count()
                })
                .sum();
            claims.push((
                "Figure 5.2: the multi-task SVM outperforms the vanilla SVM".to_string(),
                format!("{multitask_better} of {cells} (setup, size) points"),
                verdict(multitask_better == cells, multitask_better * 2 > cells),
            ));
            let beats_both = curves
                .iter()
                .filter(|c| {
                    c.accuracy
                        .iter()
                        .any(|row| row[1].mean > row[0].mean && row[1].mean > c.lda.mean)
                })
                .count();
            claims.push((
                "Figure 5.2: for a range of sizes the bilevel classifier beats both the SVM on the \
                 same sample and LDA on 90% of the test task, in four of six setups"
                    .to_string(),
                format!("{beats_both} of {k} setups have such a size"),
                verdict(
                    k == 6 && beats_both >= 4,
                    beats_both * 3 >= k * 2 || beats_both >= 3,
                ),
            ));
            if let Some(four) = curves.iter().find(|c| c.setup == EXPERIMENT_4) {
                let gap = |c: &LearningCurve| first(c, 1) - first(c, 0);
                let worse = curves.iter().filter(|c| gap(c) < gap(four)).count();
                claims.push((
                    format!(
                        "Figure 5.2: the prior is least suited to Experiment 4 ({})",
                        EXPERIMENT_4.title()
                    ),
                    format!(
                        "bilevel − SVM at m = {} is {} points there; {worse} other setups have a \
                         smaller gain",
                        four.sizes[0],
                        pct(gap(four))
                    ),
                    verdict(worse == 0, worse <= 1),
                ));
            }
        }

        let n_fits = self.iterations.len();
        let two_to_four = self
            .iterations
            .iter()
            .filter(|&&it| (2..=4).contains(&it))
            .count();
        claims.push((
            "§5 (text): the alternating algorithm converges in 2–4 iterations".to_string(),
            format!(
                "{two_to_four} of {n_fits} fits took 2–4 alternations ({} at the cap, {} failed)",
                self.not_converged, self.failures
            ),
            verdict(
                n_fits > 0 && two_to_four == n_fits,
                n_fits > 0 && two_to_four * 10 >= n_fits * 9,
            ),
        ));

        for sens in &self.sensitivity {
            let finite: Vec<(f64, f64)> = sens
                .values
                .iter()
                .zip(&sens.bilevel)
                .filter(|(_, ci)| ci.mean.is_finite())
                .map(|(&v, ci)| (v, ci.mean))
                .collect();
            if finite.len() < 2 {
                continue;
            }
            let (low, high) = (finite[0], finite[finite.len() - 1]);
            let (claim, holds, steps) = if sens.name == "β" {
                (
                    "Figure 5.3: a larger β (a tighter prior) improves accuracy at m = 9",
                    high.1 > low.1,
                    finite.windows(2).filter(|w| w[1].1 >= w[0].1).count(),
                )
            } else {
                (
                    "Figure 5.3: a smaller φ (more confidence in the hyper-prior) improves \
                     accuracy at m = 9",
                    low.1 > high.1,
                    finite.windows(2).filter(|w| w[1].1 <= w[0].1).count(),
                )
            };
            claims.push((
                claim.to_string(),
                format!(
                    "{} = {}: {}; {} = {}: {}; {steps} of {} steps in the claimed direction",
                    sens.name,
                    format_float(low.0),
                    pct(low.1),
                    sens.name,
                    format_float(high.0),
                    pct(high.1),
                    finite.len() - 1
                ),
                verdict(holds && steps == finite.len() - 1, holds),
            ));
        }
        claims
    }
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

fn verdict(supported: bool, partly: bool) -> &'static str {
    if supported {
        "supported"
    } else if partly {
        "partly supported"
    } else {
        "not supported"
    }
}

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
