//! `REPORT.md`: one renderer per section, over the study, its results and the verdicts.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::super::claims::{self, READINGS};
use super::super::{
    InputKind, Inputs, NgJordanStudy, CONVERGED, LOGISTIC_REGRESSION,
    LOGISTIC_REGRESSION_UNIT_RANGE, RANDOM_SEPARATOR, RANDOM_SEPARATOR_UNIT_RANGE, SEPARATED,
};
use super::{find, pattern, pct, source_phrase, window_sizes, wins, CurvePoint, Curves};
use gendisc_engine::verdict::{
    claim_sections, rule_sentence, Evidence, Thresholds, Verdict, Window, Word, CONFIDENCE,
};
use gendisc_engine::SummaryTable;

/// The two claims, in the order the report lists them.
const CLAIM_IDS: [&str; 2] = ["nb-leads-small-m", "two-regimes"];

/// What `REPORT.md` is rendered from: the learning curves as `learning_curves.csv` holds them,
/// the verdicts and the evidence they were judged on, the summary table, and the study with the
/// two windows of its grid positions.
#[derive(Clone, Copy)]
pub(super) struct Report<'a> {
    curves: &'a BTreeMap<&'a str, Vec<Curves>>,
    verdicts: &'a [Verdict],
    evidence: &'a [Evidence],
    table: &'a SummaryTable,
    study: &'a NgJordanStudy,
    /// Grid positions per dataset.
    positions: usize,
    /// The lower and the upper half of the grid positions.
    early: Window,
    late: Window,
}

impl<'a> Report<'a> {
    pub(super) fn new(
        curves: &'a BTreeMap<&'a str, Vec<Curves>>,
        verdicts: &'a [Verdict],
        evidence: &'a [Evidence],
        table: &'a SummaryTable,
        study: &'a NgJordanStudy,
    ) -> Self {
        let positions = study.settings().grid_points;
        let half = positions / 2;
        Self {
            curves,
            verdicts,
            evidence,
            table,
            study,
            positions,
            early: Window::range(1, half),
            late: Window::range(half + 1, positions),
        }
    }

    /// The whole of `REPORT.md`.
    pub(super) fn markdown(&self) -> String {
        [
            self.intro(),
            self.readings(),
            self.rule(),
            self.chance(),
            self.claims(),
            self.compared_table(),
            self.compared_changes(),
            self.per_dataset(),
            self.means(),
            self.separable(),
            self.datasets(),
        ]
        .concat()
    }

    /// The title and the opening paragraphs: the grid, where the data came from, the classifiers.
    fn intro(&self) -> String {
        let Self { study, .. } = *self;
        let settings = study.settings();
        let mut r = String::new();
        let _ = writeln!(
            r,
            "# Ng & Jordan (2001): naive Bayes vs logistic regression on fifteen UCI datasets\n\n\
             Reproduction of §4 and the figure of Ng & Jordan, *On discriminative vs. generative \
             classifiers: a comparison of logistic regression and naive Bayes* (NIPS 2001). For each \
             dataset and training size m: {} random train/test splits (the paper: 1000), each \
             training set holding at least one example of each class, every other row a test row; \
             {}. The verdicts are computed from the per-split test errors of this run \
             (`verdicts.csv` lists them); the tables of means from `learning_curves.csv` (mean test \
             error and its standard error per dataset, m and method) as this run wrote it; \
             `summary.csv` has medians and quartiles too, `separable.csv` the separable training \
             sets, `learning_curves.svg` the figure.\n",
            settings.splits,
            source_phrase(study)
        );
        let _ = writeln!(
            r,
            "Classifiers. Continuous inputs: Gaussian naive Bayes with variances shared by the \
             classes (the paper's: diagonal-covariance normal discriminant analysis), maximum \
             likelihood, plus {} × the largest variance on every variance; it does not depend on \
             the inputs' scale, so one naive Bayes serves every reading. Discrete inputs: naive \
             Bayes with Laplace smoothing (α = {}) over the levels present. Logistic regression: \
             linear with an intercept (one-hot indicators for discrete inputs), fitted with a \
             N(0, {}) prior on the weights; on a training set the fit separates, the paper's \
             reading replaces it by a separating hyperplane drawn at random from the version space \
             (a hit-and-run walk of {} steps per coefficient started from the fit).\n",
            settings.variance_floor,
            settings.laplace,
            settings.prior_variance,
            settings.walk_steps_per_coefficient
        );

        r
    }

    /// The readings of the damaged text, and the table of the four.
    fn readings(&self) -> String {
        readings_markdown()
    }

    /// The judging rule and the windows.
    fn rule(&self) -> String {
        let Self {
            study, positions, ..
        } = *self;
        // The last position of the small-m window.
        let half = positions / 2;
        let settings = study.settings();
        let mut r = String::new();
        let _ = writeln!(r, "\n## Verdicts\n");
        let _ = writeln!(
            r,
            "The paper predicts two regimes as m grows — naive Bayes better at first, logistic \
             regression catching up and overtaking — and finds them \"borne out surprisingly well\"; \
             where logistic regression did not catch up, the datasets were mostly small. The rule, \
             the judging module's: at each dataset and training size, the paired difference of the \
             two test errors over the {} splits, with its {:.0}% t interval; a point is a win for \
             the classifier the interval favours, a tie when it holds zero. Per dataset, naive Bayes \
             *leads at small m* when it wins more points of the small-m window than logistic \
             regression does (`nb-leads-small-m`); the dataset shows the *two regimes* when, in \
             addition, logistic regression wins more points of the large-m window than naive Bayes \
             (`two-regimes`). Datasets are the units. {}\n",
            settings.splits,
            100.0 * CONFIDENCE,
            rule_sentence(self.verdicts, "datasets")
        );
        let _ = writeln!(
            r,
            "Windows. The paper's figure lost its axes in our copy, so the windows are a default: \
             the lower half of each dataset's grid on the log scale it is spaced on (small m: grid \
             positions 1 … {half} of {positions}) and the upper half (large m: positions {} … \
             {positions}). The grids differ per dataset, so the evidence is indexed by grid \
             position (\"grid position = 1…{half}\" in the verdict lines), and the tables \
             give each dataset's sizes. Lenses' grid, every size from 2 to 6, is placed on the \
             nearest positions of the log scale.\n",
            half + 1
        );
        r
    }

    /// What chance alone would make of truly tied datasets.
    fn chance(&self) -> String {
        chance_markdown(&points_in_window(self.evidence, self.early))
    }

    /// Each claim's words, then its verdict under each reading with the units against it.
    fn claims(&self) -> String {
        claim_sections(self.verdicts, "### Claim")
    }

    /// The verdicts of both claims under every reading, side by side.
    fn compared_table(&self) -> String {
        compared_table_markdown(self.verdicts)
    }

    /// What changes between the readings: the prior against the random separator, the scalings, and the verdicts with nothing to judge.
    fn compared_changes(&self) -> String {
        let Self {
            verdicts, study, ..
        } = *self;
        let settings = study.settings();
        let mut r = String::new();
        let headline = READINGS[0];
        let prior = READINGS[1];
        let mut changes = Vec::new();
        for id in CLAIM_IDS {
            let (Some(h), Some(p)) = (find(verdicts, id, &headline), find(verdicts, id, &prior))
            else {
                continue;
            };
            let differ: Vec<&str> = h
                .units
                .iter()
                .zip(&p.units)
                .filter(|(a, b)| a.group == b.group && a.judgement != b.judgement)
                .map(|(a, _)| a.group.as_str())
                .collect();
            changes.push(format!(
                "`{id}` is **{}**, where the N(0, {}) prior gives **{}** ({}; datasets judged \
                 differently: {})",
                h.word,
                settings.prior_variance,
                p.word,
                if h.word == p.word {
                    "the same verdict"
                } else {
                    "the verdict changes"
                },
                if differ.is_empty() {
                    "none".to_string()
                } else {
                    differ.join(", ")
                }
            ));
        }
        let _ = writeln!(
            r,
            "\nThe paper's reading (random separator) against the N(0, {}) prior's fit: {}.\n",
            settings.prior_variance,
            changes.join("; ")
        );
        let scaling: Vec<String> = CLAIM_IDS
            .iter()
            .flat_map(|id| {
                [(READINGS[0], READINGS[2]), (READINGS[1], READINGS[3])]
                    .into_iter()
                    .filter_map(move |(a, b)| {
                        let (va, vb) = (find(verdicts, id, &a)?, find(verdicts, id, &b)?);
                        (va.word != vb.word)
                            .then(|| format!("`{id}` under {}: {} → {}", b.name, va.word, vb.word))
                    })
            })
            .collect();
        let _ = writeln!(
            r,
            "Rescaling continuous inputs to [0, 1] instead of standardising them {}.\n",
            if scaling.is_empty() {
                "changes no verdict".to_string()
            } else {
                format!("changes: {}", scaling.join("; "))
            }
        );
        let not_assessed = verdicts
            .iter()
            .filter(|v| v.word == Word::NotAssessed)
            .count();
        if not_assessed > 0 {
            let _ = writeln!(r, "{not_assessed} verdicts had no dataset to judge.\n");
        }

        r
    }

    /// Per dataset and reading: the wins in each window and the pattern they make.
    fn per_dataset(&self) -> String {
        let Self {
            evidence,
            study,
            positions,
            early,
            late,
            ..
        } = *self;
        let mut r = String::new();
        let _ = writeln!(r, "## Per dataset\n");
        let _ = writeln!(
            r,
            "Per reading: the points of the small-m window where naive Bayes and logistic \
             regression are better (NB–LR), then the points of the large-m window where logistic \
             regression and naive Bayes are better (LR–NB), and the pattern they make. Ties are the \
             other points.\n"
        );
        r.push_str(&header_with_readings(&[
            "dataset", "inputs", "small m", "large m",
        ]));
        for d in study.datasets() {
            let grid = study.grid(d);
            let name = d.spec.name;
            let cells: Vec<String> = evidence
                .iter()
                .map(|e| match (wins(e, name, early), wins(e, name, late)) {
                    (Ok(a), Ok(b)) => {
                        format!("{}–{}; {}–{}: {}", a.0, a.1, b.1, b.0, pattern(a, b))
                    }
                    _ => "—".to_string(),
                })
                .collect();
            let _ = writeln!(
                r,
                "| {name} | {} | {} | {} | {} |",
                d.spec.kind.name(),
                window_sizes(&grid, early, positions),
                window_sizes(&grid, late, positions),
                cells.join(" | ")
            );
        }

        r
    }

    /// Mean test errors at the ends of each grid and over the small-m window.
    fn means(&self) -> String {
        let Self {
            curves,
            study,
            positions,
            early,
            ..
        } = *self;
        let mut r = String::new();
        let _ = writeln!(
            r,
            "\nMean test error (± standard error) at the smallest and largest m of each grid, and \
             averaged over the small-m window: naive Bayes (NB), logistic regression with the random \
             separator (RS) and with the prior (LR), standardised inputs; at the largest m also \
             both on inputs rescaled to [0, 1].\n"
        );
        let _ = writeln!(
            r,
            "| dataset | smallest m | NB | RS | LR | small-m window | NB | RS | LR | largest m | NB | RS | LR | RS [0, 1] | LR [0, 1] |\n\
             |---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
        );
        let se = |v: f64, s: Option<f64>| match s {
            Some(s) => format!("{} ± {}", pct(v), pct(s)),
            None => pct(v),
        };
        let of = |method: &str, name: &str| {
            curves
                .get(method)
                .and_then(|c| c.iter().find(|c| c.dataset == name))
        };
        for d in study.datasets() {
            let name = d.spec.name;
            let grid = study.grid(d);
            let (Some(rs), Some(lr), Some(rs_u), Some(lr_u)) = (
                of(RANDOM_SEPARATOR, name),
                of(LOGISTIC_REGRESSION, name),
                of(RANDOM_SEPARATOR_UNIT_RANGE, name),
                of(LOGISTIC_REGRESSION_UNIT_RANGE, name),
            ) else {
                continue;
            };
            let (Some(first), Some(last)) = (rs.points.first(), rs.points.last()) else {
                continue;
            };
            let (Some(lr_first), Some(lr_last)) = (lr.points.first(), lr.points.last()) else {
                continue;
            };
            let small = |c: &Curves, pick: fn(&CurvePoint) -> f64| {
                mean_in_window(c, &grid, positions, early, pick)
            };
            let last_of = |c: &Curves| c.points.last().map_or("—".to_string(), |p| pct(p.lr));
            let _ = writeln!(
                r,
                "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                first.m,
                se(first.nb, first.nb_se),
                se(first.lr, first.lr_se),
                se(lr_first.lr, lr_first.lr_se),
                window_sizes(&grid, early, positions),
                pct(small(rs, |p| p.nb)),
                pct(small(rs, |p| p.lr)),
                pct(small(lr, |p| p.lr)),
                last.m,
                se(last.nb, last.nb_se),
                se(last.lr, last.lr_se),
                se(lr_last.lr, lr_last.lr_se),
                last_of(rs_u),
                last_of(lr_u)
            );
        }

        r
    }

    /// The separable training sets, per dataset and in all.
    fn separable(&self) -> String {
        let Self { table, study, .. } = *self;
        let mut r = String::new();
        let _ = writeln!(r, "\n## Separable training sets\n");
        let _ = writeln!(
            r,
            "A training set is counted as separable when the fitted logistic regression (standardised \
             inputs) classifies all of it correctly — a certificate that it is linearly separable \
             in the inputs logistic regression sees (so the counts are lower bounds). There the \
             prior alone keeps the weights finite, and the paper's reading draws a random separator. \
             `separable.csv` has every m.\n"
        );
        let _ = writeln!(
            r,
            "| dataset | LR inputs | separable at the smallest m | at the largest m | all sizes | fits not converged |"
        );
        let _ = writeln!(r, "|---|---|---|---|---|---|");
        let (mut all_separable, mut all_fits, mut all_unconverged) = (0, 0, 0);
        let (mut unit_separable, mut unit_fits, mut unit_unconverged) = (0, 0, 0);
        for d in study.datasets() {
            let grid = study.grid(d);
            let count = |method: &str, m: usize| {
                let sep = table.get(d.spec.name, m, method, SEPARATED)?;
                let conv = table.get(d.spec.name, m, method, CONVERGED)?;
                Some((
                    (sep.mean * sep.n as f64).round() as usize,
                    sep.n,
                    conv.n - (conv.mean * conv.n as f64).round() as usize,
                ))
            };
            let counts: Vec<(usize, usize, usize)> = grid
                .iter()
                .filter_map(|&m| count(LOGISTIC_REGRESSION, m))
                .collect();
            for c in grid
                .iter()
                .filter_map(|&m| count(LOGISTIC_REGRESSION_UNIT_RANGE, m))
            {
                unit_separable += c.0;
                unit_fits += c.1;
                unit_unconverged += c.2;
            }
            let (Some(first), Some(last)) = (counts.first(), counts.last()) else {
                continue;
            };
            let separable: usize = counts.iter().map(|c| c.0).sum();
            let fits: usize = counts.iter().map(|c| c.1).sum();
            let unconverged: usize = counts.iter().map(|c| c.2).sum();
            all_separable += separable;
            all_fits += fits;
            all_unconverged += unconverged;
            let _ = writeln!(
                r,
                "| {} | {} | {} of {} (m = {}) | {} of {} (m = {}) | {} of {} | {} |",
                d.spec.name,
                d.inputs.n_lr_inputs(),
                first.0,
                first.1,
                grid[0],
                last.0,
                last.1,
                grid[grid.len() - 1],
                separable,
                fits,
                unconverged
            );
        }
        let _ = writeln!(
            r,
            "\nIn all, {all_separable} of {all_fits} training sets were separated by the fit on \
             standardised inputs, and {all_unconverged} of its fits did not meet their stopping \
             criterion; on inputs rescaled to [0, 1], {unit_separable} of {unit_fits} and \
             {unit_unconverged}.\n"
        );

        r
    }

    /// The datasets, their preparation and their grids.
    fn datasets(&self) -> String {
        let Self { study, .. } = *self;
        let settings = study.settings();
        let mut r = String::new();
        let _ = writeln!(r, "## The datasets\n");
        let _ = writeln!(
            r,
            "Binary tasks and preparation (the paper keeps one kind of input per run; multi-class \
             datasets are reduced to the two classes the paper names, or to the majority class vs \
             the rest). Class 1 is the first-named class. Rows left out: other classes, or a \
             missing value in a used attribute. The grid of m: {} sizes spaced geometrically from \
             {} to min({}, ⌊{} n⌋).\n",
            settings.grid_points,
            settings.smallest_m,
            settings.largest_m,
            settings.largest_m_fraction
        );
        let _ = writeln!(
            r,
            "| dataset | task and preparation | rows | class 1 | attributes | LR inputs | rows left out | m |"
        );
        let _ = writeln!(r, "|---|---|---|---|---|---|---|---|");
        for d in study.datasets() {
            let grid: Vec<String> = study.grid(d).iter().map(|m| m.to_string()).collect();
            let attributes = match &d.inputs {
                Inputs::Continuous(x) => format!("{} continuous", x.ncols()),
                Inputs::Discrete { levels, .. } => format!(
                    "{} discrete ({}–{} levels)",
                    levels.len(),
                    levels.iter().min().copied().unwrap_or_default(),
                    levels.iter().max().copied().unwrap_or_default()
                ),
            };
            let _ = writeln!(
                r,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                d.spec.name,
                d.spec.task,
                d.n_rows(),
                d.n_positive(),
                attributes,
                d.inputs.n_lr_inputs(),
                d.rows_left_out,
                grid.join(", ")
            );
        }
        let kinds = [InputKind::Continuous, InputKind::Discrete]
            .iter()
            .map(|k| {
                let n = study
                    .datasets()
                    .iter()
                    .filter(|d| d.spec.kind == *k)
                    .count();
                format!("{n} {}", k.name())
            })
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(r, "\n{} datasets: {kinds}.", study.datasets().len());
        r
    }
}

/// Per dataset (the groups of the first reading's evidence), its points in `window`.
fn points_in_window(evidence: &[Evidence], window: Window) -> Vec<usize> {
    let Some(first) = evidence.first() else {
        return Vec::new();
    };
    first
        .groups()
        .into_iter()
        .map(|group| {
            first
                .points()
                .iter()
                .filter(|p| p.group == group && window.contains(p.m))
                .count()
        })
        .collect()
}

/// What chance alone would make of datasets truly tied, with `in_early` points each in the
/// small-m window.
fn chance_markdown(in_early: &[usize]) -> String {
    let mut r = String::new();
    let tail = (1.0 - CONFIDENCE) / 2.0;
    let chance: Vec<f64> = in_early
        .iter()
        .map(|&k| claims::chance_of_lead(k, tail))
        .collect();
    let expected_leads: f64 = chance.iter().sum();
    let expected_both: f64 = chance.iter().map(|p| p * p).sum();
    let typical = in_early.iter().copied().max().unwrap_or(0);
    let datasets = in_early.len();
    let needed = |share: u32| (share as usize * datasets).div_ceil(100);
    let _ = writeln!(
        r,
        "Chance. At a true tie a point is a win for either side with probability {:.1}%; over \
         the {typical} points of a small-m window a tied dataset is judged a lead for naive \
         Bayes with probability {:.1}% (and as often for logistic regression). Were all {datasets} \
         datasets truly tied, chance alone would make {expected_leads:.1} of them leads for naive \
         Bayes on average (lenses' window has fewer points) and {expected_both:.2} show two \
         regimes; \"supported\" needs {} datasets, \"partly supported\" {}.\n",
        100.0 * tail,
        100.0 * claims::chance_of_lead(typical, tail),
        needed(Thresholds::DEFAULT.supported),
        needed(Thresholds::DEFAULT.partly)
    );

    r
}

/// The mean of `pick` over the points of `curve` whose sizes lie in `window` of the grid's
/// `positions`.
fn mean_in_window(
    curve: &Curves,
    grid: &[usize],
    positions: usize,
    window: Window,
    pick: fn(&CurvePoint) -> f64,
) -> f64 {
    let v: Vec<f64> = curve
        .points
        .iter()
        .filter(|p| claims::position(grid, p.m, positions).is_some_and(|at| window.contains(at)))
        .map(pick)
        .collect();
    v.iter().sum::<f64>() / v.len() as f64
}

/// The readings of the damaged text, and the table of the four.
fn readings_markdown() -> String {
    let mut r = String::new();
    let _ = writeln!(r, "## Readings\n");
    let _ = writeln!(
        r,
        "Our copy of the paper is damaged (words only, no numbers, some letters lost); quoted \
         as it stands. On separable training sets (§4): \"case linearly separable datasets \
         logistic regression distinction possible separating planes / setting mcmc sampler \
         pick classi er randomly errors reported empirical averages separating hyperplanes\" — \
         in the paper, logistic regression makes no distinction between the separating planes, \
         so an MCMC sampler picked one at random and the errors are averages over separating \
         hyperplanes. Among the regularisations its experiments avoided \"to maximize \
         consistency with the theoretical discussion\" it names \"shrinking parameters \
         constraint imposing margin constraint separable case\". A fixed N(0, σ²) prior shrinks \
         the parameters, and as σ² grows its direction on a separable set tends to the \
         maximum-margin separator — both things the paper set aside. **The paper's text supports \
         the random separator**, which is the headline reading; the prior is the second, named \
         reading. On inputs: \"continuous valued inputs rescaled necessary\" — the range is lost \
         with the numbers, so both common rescalings are run: standardisation (headline) and \
         [0, 1]. Naive Bayes, and the version space itself, do not change with the scaling; the \
         prior and the uniform law on the version space's directions do, so the two logistic \
         regressions are run under both (discrete inputs are 0/1 indicators under both: the \
         same fits).\n"
    );
    let _ = writeln!(
        r,
        "| reading | logistic regression on separable training sets | continuous inputs | series |\n|---|---|---|---|"
    );
    for reading in &READINGS {
        let (separable, inputs) = match reading.classifier {
            RANDOM_SEPARATOR => ("random separator (the paper's)", "standardised"),
            LOGISTIC_REGRESSION => ("N(0, σ²) prior's fit", "standardised"),
            RANDOM_SEPARATOR_UNIT_RANGE => ("random separator (the paper's)", "rescaled to [0, 1]"),
            _ => ("N(0, σ²) prior's fit", "rescaled to [0, 1]"),
        };
        let _ = writeln!(
            r,
            "| {}{} | {separable} | {inputs} | `{}` |",
            reading.name,
            if reading.headline { " (headline)" } else { "" },
            reading.classifier
        );
    }

    r
}

/// The verdicts of both claims under every reading, side by side.
fn compared_table_markdown(verdicts: &[Verdict]) -> String {
    let mut r = String::new();
    let _ = writeln!(r, "## The readings compared\n");
    r.push_str(&header_with_readings(&["claim"]));
    for id in CLAIM_IDS {
        let cells: Vec<String> = READINGS
            .iter()
            .map(|reading| {
                find(verdicts, id, reading).map_or("—".to_string(), |v| {
                    format!("{} ({} of {})", v.word, v.tally.holds, v.tally.total())
                })
            })
            .collect();
        let _ = writeln!(r, "| `{id}` | {} |", cells.join(" | "));
    }
    r
}

/// A table's header: the `leading` columns, then a column per reading.
fn header_with_readings(leading: &[&str]) -> String {
    let columns: Vec<&str> = leading
        .iter()
        .copied()
        .chain(READINGS.iter().map(|reading| reading.name))
        .collect();
    format!(
        "| {} |\n|{}\n",
        columns.join(" | "),
        "---|".repeat(columns.len())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readings_table_has_each_reading_and_names_the_headline_once() {
        let md = readings_markdown();
        for reading in &READINGS {
            assert!(md.contains(&format!("| {}", reading.name)), "{md}");
            assert!(md.contains(&format!("`{}` |", reading.classifier)), "{md}");
        }
        assert_eq!(md.matches(" (headline) |").count(), 1, "{md}");
    }

    #[test]
    fn chance_counts_the_datasets_the_thresholds_need() {
        let md = chance_markdown(&[8, 8, 3]);
        // Three datasets: 75% of them is 2.25, so "supported" needs 3; 50% is 1.5, so 2.
        assert!(
            md.contains("\"supported\" needs 3 datasets, \"partly supported\" 2."),
            "{md}"
        );
        assert!(md.contains("over the 8 points of a small-m window"), "{md}");
        assert!(md.contains("Were all 3 datasets truly tied"), "{md}");
        let tail = (1.0 - CONFIDENCE) / 2.0;
        let leads: f64 = [8, 8, 3]
            .map(|k| claims::chance_of_lead(k, tail))
            .iter()
            .sum();
        assert!(
            md.contains(&format!("chance alone would make {leads:.1} of them")),
            "{md}"
        );
    }

    #[test]
    fn a_header_has_a_column_per_reading_after_the_leading_ones() {
        let header = header_with_readings(&["claim"]);
        let names: Vec<&str> = READINGS.iter().map(|r| r.name).collect();
        assert_eq!(
            header,
            format!(
                "| claim | {} |\n|{}\n",
                names.join(" | "),
                "---|".repeat(1 + READINGS.len())
            )
        );
    }

    #[test]
    fn without_verdicts_every_cell_of_the_comparison_is_a_dash() {
        let md = compared_table_markdown(&[]);
        let dashes = vec!["—"; READINGS.len()].join(" | ");
        for id in CLAIM_IDS {
            assert!(md.contains(&format!("| `{id}` | {dashes} |")), "{md}");
        }
    }

    use super::super::super::claims::{Reading, LR, NB};
    use super::super::super::tests::toy_datasets;
    use super::super::super::Settings;
    use crate::papers::given::Given;
    use gendisc_engine::verdict::{Better, Claim, Judgement, Kind, Statement, Unit};

    fn toy_study() -> NgJordanStudy {
        NgJordanStudy::with_datasets(Settings::quick(), toy_datasets()).unwrap()
    }

    /// The first toy dataset's name and grid.
    fn first(study: &NgJordanStudy) -> (&'static str, Vec<usize>) {
        let d = &study.datasets()[0];
        (d.spec.name, study.grid(d))
    }

    /// A verdict of claim `id` under `reading` whose one unit, `group`, holds or not.
    fn verdict(id: &str, reading: &Reading, group: &str, holds: bool) -> Verdict {
        let claim = Claim::new(
            id,
            "a quote",
            Statement::Units {
                what: "a dataset".into(),
                kind: Kind::Difference,
            },
        )
        .reading(reading.name);
        let judgement = if holds {
            Judgement::Holds
        } else {
            Judgement::Against
        };
        Verdict::from_units(&claim, &[1], "datasets", |_, _| {
            Ok(vec![Unit::group(group, judgement, String::new())])
        })
        .unwrap()
    }

    /// A report over `study` with only the given parts filled.
    fn report<'a>(
        study: &'a NgJordanStudy,
        curves: &'a BTreeMap<&'a str, Vec<Curves>>,
        verdicts: &'a [Verdict],
        evidence: &'a [Evidence],
        table: &'a SummaryTable,
    ) -> Report<'a> {
        Report::new(curves, verdicts, evidence, table, study)
    }

    fn empty_table() -> SummaryTable {
        let given = Given::new([LOGISTIC_REGRESSION], [SEPARATED]).cell("none", 2, 0, &[]);
        SummaryTable::from_results(&given.results()).unwrap()
    }

    #[test]
    fn the_changes_name_the_datasets_the_prior_judges_differently() {
        let study = toy_study();
        let (name, _) = first(&study);
        let verdicts = [
            verdict("nb-leads-small-m", &READINGS[0], name, true),
            verdict("nb-leads-small-m", &READINGS[1], name, false),
            verdict("nb-leads-small-m", &READINGS[2], name, true),
        ];
        let (curves, table) = (BTreeMap::new(), empty_table());
        let md = report(&study, &curves, &verdicts, &[], &table).compared_changes();
        let variance = study.settings().prior_variance;
        assert!(
            md.contains(&format!(
                "`nb-leads-small-m` is **supported**, where the N(0, {variance}) prior gives **not \
                 supported** (the verdict changes; datasets judged differently: {name})"
            )),
            "{md}"
        );
        assert!(
            md.contains("Rescaling continuous inputs to [0, 1] instead of standardising them changes no verdict."),
            "{md}"
        );
    }

    #[test]
    fn per_dataset_the_wins_in_each_window_make_a_pattern() {
        let study = toy_study();
        let (name, grid) = first(&study);
        let positions = study.settings().grid_points;
        // Naive Bayes clearly better at every position of the lower half, logistic regression
        // at every position of the upper half.
        let mut evidence = Evidence::new([NB, LR], Better::Lower);
        for position in 1..=positions {
            let gap = if position <= positions / 2 { -0.1 } else { 0.1 };
            let lr = vec![0.3, 0.31, 0.29, 0.3];
            let nb = lr.iter().map(|e| e + gap).collect();
            evidence.push(name, position, vec![nb, lr]).unwrap();
        }
        let (curves, table) = (BTreeMap::new(), empty_table());
        let evidence = vec![evidence; READINGS.len()];
        let md = report(&study, &curves, &[], &evidence, &table).per_dataset();
        let half = positions / 2;
        let row = md
            .lines()
            .find(|l| l.starts_with(&format!("| {name} |")))
            .unwrap();
        let cell = format!("{half}–0; {}–0: two regimes", positions - half);
        assert_eq!(row.matches(&cell).count(), READINGS.len(), "{row}");
        assert!(row.contains(&format!("| {} … ", grid[0])), "{row}");
        // The second toy dataset has no point in the evidence: no lead either way.
        let other = study.datasets()[1].spec.name;
        let row = md
            .lines()
            .find(|l| l.starts_with(&format!("| {other} |")))
            .unwrap();
        assert_eq!(
            row.matches("0–0; 0–0: no lead").count(),
            READINGS.len(),
            "{row}"
        );
    }

    #[test]
    fn the_means_table_has_the_ends_of_the_grid_and_the_window() {
        let study = toy_study();
        let (name, grid) = first(&study);
        let curve = |nb: f64, lr: f64| Curves {
            dataset: name.into(),
            points: grid
                .iter()
                .map(|&m| CurvePoint {
                    m,
                    nb,
                    nb_se: Some(0.01),
                    lr,
                    lr_se: Some(0.02),
                })
                .collect(),
        };
        let curves: BTreeMap<&str, Vec<Curves>> = [
            (RANDOM_SEPARATOR, vec![curve(0.2, 0.3)]),
            (LOGISTIC_REGRESSION, vec![curve(0.2, 0.25)]),
            (RANDOM_SEPARATOR_UNIT_RANGE, vec![curve(0.2, 0.35)]),
            (LOGISTIC_REGRESSION_UNIT_RANGE, vec![curve(0.2, 0.4)]),
        ]
        .into_iter()
        .collect();
        let table = empty_table();
        let md = report(&study, &curves, &[], &[], &table).means();
        let row = md
            .lines()
            .find(|l| l.starts_with(&format!("| {name} |")))
            .unwrap();
        assert!(
            row.starts_with(&format!(
                "| {name} | {} | {} ± {} | {} ± {} | {} ± {} |",
                grid[0],
                pct(0.2),
                pct(0.01),
                pct(0.3),
                pct(0.02),
                pct(0.25),
                pct(0.02)
            )),
            "{row}"
        );
        assert!(
            row.ends_with(&format!(" | {} | {} |", pct(0.35), pct(0.4))),
            "{row}"
        );
        // The toy study's second dataset has no curves: no row.
        assert_eq!(md.matches("\n| ").count(), 2, "{md}");
    }

    #[test]
    fn separable_training_sets_are_counted_per_dataset_and_in_all() {
        let study = toy_study();
        let (name, grid) = first(&study);
        let mut given = Given::new(
            [LOGISTIC_REGRESSION, LOGISTIC_REGRESSION_UNIT_RANGE],
            [SEPARATED, CONVERGED],
        );
        // Two splits per size: one separated at the smallest size, one fit unconverged at the
        // largest.
        for (k, &m) in grid.iter().enumerate() {
            for split in 0..2 {
                let separated = f64::from(u8::from(k == 0 && split == 0));
                let converged = f64::from(u8::from(!(k + 1 == grid.len() && split == 1)));
                given = given.cell(
                    name,
                    m,
                    split,
                    &[
                        (LOGISTIC_REGRESSION, SEPARATED, separated),
                        (LOGISTIC_REGRESSION, CONVERGED, converged),
                        (LOGISTIC_REGRESSION_UNIT_RANGE, SEPARATED, 0.0),
                        (LOGISTIC_REGRESSION_UNIT_RANGE, CONVERGED, 1.0),
                    ],
                );
            }
        }
        let table = SummaryTable::from_results(&given.results()).unwrap();
        let curves = BTreeMap::new();
        let md = report(&study, &curves, &[], &[], &table).separable();
        let fits = 2 * grid.len();
        assert!(
            md.contains(&format!(
                "| {name} | 3 | 1 of 2 (m = {}) | 0 of 2 (m = {}) | 1 of {fits} | 1 |",
                grid[0],
                grid[grid.len() - 1]
            )),
            "{md}"
        );
        assert!(
            md.contains(&format!(
                "In all, 1 of {fits} training sets were separated by the fit on standardised \
                 inputs, and 1 of its fits did not meet their stopping criterion; on inputs \
                 rescaled to [0, 1], 0 of {fits} and 0."
            )),
            "{md}"
        );
    }
}
