//! `REPORT.md`: first the numbers and verdicts it states ([`Report::compute`]), then one small
//! renderer per section over them.

use std::fmt::Write as _;

use gendisc_data::generators::{CovarianceStructure, XueTitteringtonPreset};
use gendisc_engine::verdict::{claim_sections, rule_sentence, Verdict};
use gendisc_engine::SummaryTable;

use super::super::claims::{CONCLUSION_3_READING, READINGS};
use super::super::{
    XueTitteringtonStudy, ER, HYBRID, HYBRID_LEAVE_ONE_OUT, HYBRID_UNNORMALIZED, LL,
    LOGISTIC_REGRESSION, LOGISTIC_REGRESSION_L2, NAIVE_BAYES, R_WARNING, SEPARATED,
};
use super::{fmt, median, source_phrase, winner};

/// Everything `REPORT.md` states, computed from the summary table and the verdicts.
pub(super) struct Report<'a> {
    intro: Intro,
    verdicts: &'a [Verdict],
    /// The smallest and the largest training size: the two the tables show.
    sizes: [usize; 2],
    winners: Vec<WinnerRow>,
    extras: Extras,
    separation: Vec<SeparationRow>,
}

/// The opening paragraphs' numbers.
struct Intro {
    sizes: [usize; 2],
    replicates: usize,
    /// Where the datasets and splits came from.
    source: String,
    prior_variance: f64,
}

/// The winner among the paper's three classifiers at one (metric, size): every classifier
/// with the lowest median, and the three medians NB / LR / hybrid.
struct Winner {
    classifiers: Vec<&'static str>,
    medians: [f64; 3],
}

/// What the paper expects to win on a dataset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expectation {
    /// Diagonal covariances: naive Bayes at every size.
    NaiveBayes,
    /// Otherwise: logistic regression at the largest size.
    LogisticRegressionAtLargest,
}

/// One dataset of the winners table: ER then LL, each at the smallest and the largest size
/// (`None` where a median is missing).
struct WinnerRow {
    dataset: &'static str,
    cells: [Option<Winner>; 4],
    expectation: Expectation,
    agrees: bool,
}

/// A count of (dataset, m) pairs where one series has the lower median than another.
struct Lower {
    /// What is compared, in the report's words.
    what: &'static str,
    /// (lower, of) on ER, then on LL.
    er: (usize, usize),
    ll: (usize, usize),
}

/// The extra series (not in the paper).
struct Extras {
    /// The largest relative difference between the normalized and the unnormalized hybrid's
    /// medians over every dataset, m and metric.
    largest_hybrid_gap: f64,
    lower: Vec<Lower>,
}

/// The shares of replicates whose glm fit met a separated training set (`separated`) and that
/// meet R's warning condition (`r_warning`), at one size (`None` where not measured).
#[derive(Debug, Clone, Copy)]
struct Shares {
    separated: Option<f64>,
    r_warning: Option<f64>,
}

/// One dataset of the separation table: logistic regression, then the hybrid's θ, each at the
/// smallest and the largest size.
struct SeparationRow {
    dataset: &'static str,
    logistic: [Shares; 2],
    hybrid: [Shares; 2],
}

impl<'a> Report<'a> {
    /// The report's numbers from the summary table of the results just written.
    pub(super) fn compute(
        table: &SummaryTable,
        study: &XueTitteringtonStudy,
        verdicts: &'a [Verdict],
    ) -> Self {
        let settings = study.settings();
        let sizes = [settings.sizes[0], settings.sizes[settings.sizes.len() - 1]];
        Self {
            intro: Intro {
                sizes,
                replicates: settings.replicates,
                source: source_phrase(study),
                prior_variance: settings.prior_variance,
            },
            verdicts,
            sizes,
            winners: XueTitteringtonPreset::ALL
                .into_iter()
                .map(|preset| winner_row(table, preset, sizes))
                .collect(),
            extras: extras(table, &settings.sizes),
            separation: XueTitteringtonPreset::ALL
                .into_iter()
                .map(|preset| separation_row(table, preset.name(), sizes))
                .collect(),
        }
    }

    /// The whole of `REPORT.md`.
    pub(super) fn markdown(&self) -> String {
        let mut md = intro_markdown(&self.intro);
        md.push_str(&conclusions_markdown(self.verdicts));
        md.push_str(&winners_markdown(&self.winners, self.sizes));
        md.push_str(&extras_markdown(&self.extras));
        md.push_str(&separation_markdown(&self.separation, self.sizes));
        md
    }
}

fn winner_row(table: &SummaryTable, preset: XueTitteringtonPreset, sizes: [usize; 2]) -> WinnerRow {
    let diagonal = preset.structure() == CovarianceStructure::Diagonal;
    let expectation = if diagonal {
        Expectation::NaiveBayes
    } else {
        Expectation::LogisticRegressionAtLargest
    };
    let expected = match expectation {
        Expectation::NaiveBayes => NAIVE_BAYES,
        Expectation::LogisticRegressionAtLargest => LOGISTIC_REGRESSION,
    };
    let mut agrees = true;
    let cells = [
        (ER, sizes[0]),
        (ER, sizes[1]),
        (LL, sizes[0]),
        (LL, sizes[1]),
    ]
    .map(|(metric, m)| {
        let (classifiers, medians) = winner(table, preset.name(), m, metric)?;
        // Non-diagonal datasets: the paper's claim is about large m.
        let judged = diagonal || m == sizes[1];
        if judged && !classifiers.contains(&expected) {
            agrees = false;
        }
        Some(Winner {
            classifiers,
            medians,
        })
    });
    WinnerRow {
        dataset: preset.name(),
        cells,
        expectation,
        agrees,
    }
}

fn extras(table: &SummaryTable, sizes: &[usize]) -> Extras {
    let pairs = || {
        XueTitteringtonPreset::ALL
            .into_iter()
            .flat_map(move |preset| sizes.iter().map(move |&m| (preset.name(), m)))
    };
    let mut largest_hybrid_gap = 0.0_f64;
    for (dataset, m) in pairs() {
        for metric in [ER, LL] {
            if let (Some(x), Some(y)) = (
                median(table, dataset, m, HYBRID, metric),
                median(table, dataset, m, HYBRID_UNNORMALIZED, metric),
            ) {
                largest_hybrid_gap = largest_hybrid_gap.max((x - y).abs() / y.abs().max(1e-300));
            }
        }
    }
    let lower_count = |a: &str, b: &str, metric: &str| {
        let medians: Vec<(f64, f64)> = pairs()
            .filter_map(|(dataset, m)| {
                Some((
                    median(table, dataset, m, a, metric)?,
                    median(table, dataset, m, b, metric)?,
                ))
            })
            .collect();
        (medians.iter().filter(|(x, y)| x < y).count(), medians.len())
    };
    let lower = [
        (
            HYBRID_LEAVE_ONE_OUT,
            HYBRID,
            "the hybrid with leave-one-out θ vs without",
        ),
        (
            LOGISTIC_REGRESSION_L2,
            LOGISTIC_REGRESSION,
            "logistic regression with the prior vs glm",
        ),
    ]
    .into_iter()
    .map(|(a, b, what)| Lower {
        what,
        er: lower_count(a, b, ER),
        ll: lower_count(a, b, LL),
    })
    .collect();
    Extras {
        largest_hybrid_gap,
        lower,
    }
}

fn separation_row(table: &SummaryTable, dataset: &'static str, sizes: [usize; 2]) -> SeparationRow {
    let shares = |classifier, m| {
        let mean = |metric| table.get(dataset, m, classifier, metric).map(|s| s.mean);
        Shares {
            separated: mean(SEPARATED),
            r_warning: mean(R_WARNING),
        }
    };
    SeparationRow {
        dataset,
        logistic: sizes.map(|m| shares(LOGISTIC_REGRESSION, m)),
        hybrid: sizes.map(|m| shares(HYBRID, m)),
    }
}

fn intro_markdown(intro: &Intro) -> String {
    let [m_small, m_large] = intro.sizes;
    format!(
        "# Xue & Titterington: naive Bayes, logistic regression and the hybrid on simulated data\n\n\
         Reproduction of §3 of Xue & Titterington, *Interpretation of hybrid generative/discriminative \
         algorithms*: twelve datasets of 500 + 500 rows, training sizes m = {m_small} … {m_large}, {} replicates \
         (re-splits) per dataset and size, {}. Every number below is computed from \
         `cells.jsonl` by this run; medians and quartiles per (dataset, m, classifier) are in \
         `medians.csv`, every summary statistic in `summary.csv`, the figures in `fig1.svg` … `fig4.svg`.\n\n\
         Classifiers as in the paper: naive Bayes as `e1071::naiveBayes` (Gaussian with n − 1 \
         variances; Bernoulli with add-one smoothing), linear logistic regression as `glm` (its IRLS, \
         tolerance 1e-8, at most 25 iterations), and the normalized hybrid with x¹ = (x1, x2), \
         x² = (x3, x4) and θ by `glm`. LL is the sum of −log p(y | x) over the 1000 − m test rows, \
         with glm fits evaluated through R's clamped inverse link. Extra series, not in the paper: \
         logistic regression with a N(0, {}) prior on the weights, the hybrid with leave-one-out θ, \
         and the unnormalized hybrid (dashed in the figures).\n\n",
        intro.replicates, intro.source, intro.prior_variance
    )
}

/// The conclusions: the rule, the readings, and each conclusion's verdict under each reading.
fn conclusions_markdown(verdicts: &[Verdict]) -> String {
    let mut md = format!(
        "## The paper's conclusions (§3.6) against this run\n\nEvery verdict is computed by the \
         project's verdict module (`docs/verdicts.md`). At each (dataset, measure, m) point the \
         advantage of one classifier over another is the median of their paired per-replicate \
         differences (the paper plots medians), with the 95% sign-test interval; a point is a tie \
         when that interval contains zero. {} \"Performs the best\" is judged under two \
         readings:\n\n",
        rule_sentence(verdicts, "points")
    );
    for reading in READINGS {
        let _ = writeln!(md, "- **{}**: {}.", reading.name(), reading.description());
    }
    let _ = writeln!(
        md,
        "- **{CONCLUSION_3_READING}** (conclusion 3): a point counts against it only when the \
         hybrid is shown better than both naive Bayes and logistic regression; ties count for \
         it.\n"
    );
    md.push_str(&claim_sections(verdicts, "### Conclusion"));
    md
}

fn winners_markdown(rows: &[WinnerRow], [m_small, m_large]: [usize; 2]) -> String {
    let mut md = format!(
        "## Winners per dataset\n\n\
         The classifier with the lowest median among the paper's three (ties name every tied one), \
         with the medians NB / LR / hybrid.\n\n\
         | dataset | ER, m = {m_small} | ER, m = {m_large} | LL, m = {m_small} | LL, m = {m_large} | paper's expectation | agrees |\n\
         |---|---|---|---|---|---|---|\n"
    );
    for row in rows {
        let cells = row.cells.each_ref().map(|cell| match cell {
            Some(w) => format!(
                "{} ({} / {} / {})",
                w.classifiers.join(", "),
                fmt(w.medians[0]),
                fmt(w.medians[1]),
                fmt(w.medians[2])
            ),
            None => "—".into(),
        });
        let expectation = match row.expectation {
            Expectation::NaiveBayes => "naive-bayes best".to_string(),
            Expectation::LogisticRegressionAtLargest => {
                format!("logistic-regression best at m = {m_large}")
            }
        };
        let agrees = if row.agrees {
            "yes"
        } else {
            "**no — contradicts the paper**"
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {expectation} | {agrees} |",
            row.dataset, cells[0], cells[1], cells[2], cells[3]
        );
    }
    md
}

fn extras_markdown(extras: &Extras) -> String {
    let mut md = format!(
        "\n## Extra series (not in the paper)\n\n\
         - **Unnormalized vs normalized hybrid.** With θ fitted by unpenalised maximum likelihood the \
         two are the same classifier: dividing a region's feature by n_r is undone by multiplying its \
         weight by n_r. The largest relative difference between their medians over every dataset, m \
         and metric is {:.1e} — the same up to the rounding of the fits.\n",
        extras.largest_hybrid_gap
    );
    for Lower { what, er, ll } in &extras.lower {
        let _ = writeln!(
            md,
            "- **{what}**: lower median ER in {} of {} (dataset, m) pairs, lower \
             median LL in {} of {}.",
            er.0, er.1, ll.0, ll.1
        );
    }
    md
}

fn separation_markdown(rows: &[SeparationRow], [m_small, m_large]: [usize; 2]) -> String {
    let mut md = format!(
        "\n## Separated training sets\n\n\
         Share of replicates whose glm fit met a (quasi-)separated training set, where the \
         maximum-likelihood estimate does not exist and glm stops at its iteration cap or when the \
         deviance stalls, with huge coefficients; the test LL of such a fit is driven by the \
         clamped probabilities. Two flags per fit: our separation certificate, and the condition \
         of R's warning \"fitted probabilities numerically 0 or 1 occurred\" (a training linear \
         predictor beyond ±30), which is what a rerun in R would report. `separation.csv` has \
         every m.\n\n\
         | dataset | LR, m = {m_small} | LR, m = {m_large} | hybrid θ, m = {m_small} | hybrid θ, m = {m_large} |\n\
         |---|---|---|---|---|\n"
    );
    let percent =
        |share: Option<f64>| share.map_or_else(|| "—".into(), |s| format!("{:.1}%", 100.0 * s));
    let shares = |s: &Shares| format!("{} / {}", percent(s.separated), percent(s.r_warning));
    for row in rows {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} |",
            row.dataset,
            shares(&row.logistic[0]),
            shares(&row.logistic[1]),
            shares(&row.hybrid[0]),
            shares(&row.hybrid[1])
        );
    }
    md.push_str("\nEach cell: separation certificate / R's warning condition.\n");
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use gendisc_engine::verdict::Thresholds;

    #[test]
    fn the_intro_states_the_grid_and_where_the_data_came_from() {
        let md = intro_markdown(&Intro {
            sizes: [20, 600],
            replicates: 7,
            source: "study seed 11".into(),
            prior_variance: 2.5,
        });
        assert!(md.starts_with("# Xue & Titterington"), "{md}");
        assert!(md.contains("m = 20 … 600, 7 replicates"), "{md}");
        assert!(md.contains("per dataset and size, study seed 11."), "{md}");
        assert!(md.contains("a N(0, 2.5) prior"), "{md}");
        assert!(md.ends_with("(dashed in the figures).\n\n"), "{md}");
    }

    #[test]
    fn the_conclusions_state_the_thresholds_the_verdicts_use() {
        let md = conclusions_markdown(&[]);
        let Thresholds { supported, partly } = Thresholds::DEFAULT;
        assert!(
            md.contains(&format!("holds at {supported}% of its points")),
            "{md}"
        );
        assert!(
            md.contains(&format!("partly supported from {partly}%")),
            "{md}"
        );
        assert!(
            md.contains(&format!("by {} points", Thresholds::SHIFT)),
            "{md}"
        );
        for reading in READINGS {
            assert!(md.contains(&format!("- **{}**", reading.name())), "{md}");
        }
    }

    fn winner(classifiers: &[&'static str], medians: [f64; 3]) -> Option<Winner> {
        Some(Winner {
            classifiers: classifiers.to_vec(),
            medians,
        })
    }

    #[test]
    fn a_winners_row_names_ties_formats_medians_and_flags_a_contradiction() {
        let rows = [
            WinnerRow {
                dataset: "normal-diagonal",
                cells: [
                    winner(&[NAIVE_BAYES], [0.1, 0.2, 0.15]),
                    winner(&[NAIVE_BAYES, HYBRID], [0.1, 0.2, 0.1]),
                    None,
                    winner(&[LOGISTIC_REGRESSION], [120.04, 11.5, 12.0]),
                ],
                expectation: Expectation::NaiveBayes,
                agrees: false,
            },
            WinnerRow {
                dataset: "normal-full",
                cells: [None, None, None, None],
                expectation: Expectation::LogisticRegressionAtLargest,
                agrees: true,
            },
        ];
        let md = winners_markdown(&rows, [20, 600]);
        let lines: Vec<&str> = md.lines().filter(|l| l.starts_with("| normal")).collect();
        assert_eq!(
            lines,
            [
                "| normal-diagonal | naive-bayes (0.1000 / 0.2000 / 0.1500) | naive-bayes, hybrid \
                 (0.1000 / 0.2000 / 0.1000) | — | logistic-regression (120.0 / 11.5 / 12.0) | \
                 naive-bayes best | **no — contradicts the paper** |",
                "| normal-full | — | — | — | — | logistic-regression best at m = 600 | yes |",
            ]
        );
        assert!(md.contains("| ER, m = 20 | ER, m = 600 |"), "{md}");
    }

    #[test]
    fn the_extras_give_the_hybrid_gap_and_each_count() {
        let md = extras_markdown(&Extras {
            largest_hybrid_gap: 3.5e-9,
            lower: vec![Lower {
                what: "a vs b",
                er: (3, 10),
                ll: (7, 10),
            }],
        });
        assert!(md.contains("metric is 3.5e-9 — the same"), "{md}");
        assert!(
            md.contains("- **a vs b**: lower median ER in 3 of 10 (dataset, m) pairs, lower median LL in 7 of 10."),
            "{md}"
        );
    }

    #[test]
    fn a_separation_row_gives_both_flags_as_percentages_or_a_dash() {
        let measured = Shares {
            separated: Some(0.125),
            r_warning: Some(0.5),
        };
        let absent = Shares {
            separated: None,
            r_warning: Some(0.0),
        };
        let md = separation_markdown(
            &[SeparationRow {
                dataset: "bernoulli-full",
                logistic: [measured, absent],
                hybrid: [absent, measured],
            }],
            [20, 600],
        );
        assert!(
            md.contains("| bernoulli-full | 12.5% / 50.0% | — / 0.0% | — / 0.0% | 12.5% / 50.0% |"),
            "{md}"
        );
        assert!(
            md.ends_with("separation certificate / R's warning condition.\n"),
            "{md}"
        );
    }
}
