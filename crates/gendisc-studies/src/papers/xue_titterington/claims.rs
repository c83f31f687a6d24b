//! The paper's three conclusions (§3.6) as [`Claim`]s of the verdict module, judged on the
//! per-replicate ER and LL of the study's cells.
//!
//! The paper plots medians over 400 replicates (§3: "the medians of the ERs and LLs are
//! recorded and plotted"), so each `(dataset, m, measure)` point is judged on the median of the
//! paired per-replicate differences with its sign-test interval ([`Centre::Median`]): exact,
//! cheap, and indifferent to the infinite LLs of separated fits. Both measures are "lower is
//! better"; a point's group names its dataset and measure.

use gendisc_data::generators::{CovarianceStructure, XueTitteringtonPreset};

use gendisc_engine::verdict::{Better, Centre, Claim, Evidence, Statement, Verdict, Window};
use gendisc_engine::{Result, StudyResults};

use super::{ER, HYBRID, LL, LOGISTIC_REGRESSION, NAIVE_BAYES};

/// What the claims call the classifiers.
const NB: &str = "naive Bayes";
const LR: &str = "logistic regression";
const HY: &str = "hybrid";

/// One reading of "performs the best".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// Its median difference with each rival is shown in its favour.
    ShownBetter,
    /// No rival's median difference is shown in the rival's favour (ties count).
    NoneShownBetter,
}

impl Reading {
    /// The reading's name, as printed beside each verdict.
    pub fn name(self) -> &'static str {
        match self {
            Reading::ShownBetter => "best = shown better than each rival",
            Reading::NoneShownBetter => "best = no rival shown better",
        }
    }

    /// What it means, for the report.
    pub fn description(self) -> &'static str {
        match self {
            Reading::ShownBetter => {
                "a point counts for \"performs the best\" when the sign-test interval of the \
                 median paired difference with each of the two other classifiers lies on its side"
            }
            Reading::NoneShownBetter => {
                "a point counts for \"performs the best\" unless some other classifier's median \
                 paired difference is shown in that classifier's favour (ties count for it)"
            }
        }
    }

    fn statement(self, a: &str, rivals: [&str; 2]) -> Statement {
        let rivals = rivals.iter().map(|r| r.to_string()).collect();
        match self {
            Reading::ShownBetter => Statement::Best {
                a: a.into(),
                rivals,
            },
            Reading::NoneShownBetter => Statement::NearBest {
                a: a.into(),
                rivals,
                delta: 0.0,
            },
        }
    }
}

/// The readings of conclusions 1 and 2, in order.
pub const READINGS: [Reading; 2] = [Reading::ShownBetter, Reading::NoneShownBetter];

/// The reading of conclusion 3, which is not about "the best".
pub const CONCLUSION_3_READING: &str = "not better than both = not shown better than each rival";

/// "Large m" of conclusion 2: the upper half of the figures' axis, m = 100…400.
pub const LARGE: (usize, usize) = (250, 400);

/// The figures' sizes: "m is sampled within [100, 400] in steps of 25" (§3).
const FIGURE_REASON: &str = "every size of Figures 1–4, m = 100…400 in steps of 25";

/// Every verdict: conclusions 1 and 2 (every m, and large m) under each reading of "performs
/// the best", then conclusion 3.
pub fn verdicts(results: &StudyResults) -> Result<Vec<Verdict>> {
    let diagonal = evidence(results, |p| p.structure() == CovarianceStructure::Diagonal)?;
    let dependent = evidence(results, |p| p.structure() != CovarianceStructure::Diagonal)?;
    let all = evidence(results, |_| true)?;
    let mut out = Vec::new();
    for reading in READINGS {
        let claim = Claim::new(
            "1",
            "In general, in terms of both performance measures, namely ER and LL, if both the \
             covariance matrices Σ1 and Σ2 are diagonal matrices, the naïve Bayes classifier \
             performs the best (§3.6)",
            reading.statement(NB, [LR, HY]),
        )
        .window(Window::All, FIGURE_REASON)
        .reading(reading.name());
        out.push(Verdict::judge(&claim, &diagonal, "points")?);

        let quote = "If both the covariance matrices Σ1 and Σ2 are non-diagonal matrices, linear \
                     logistic regression performs the best, in particular when the training set \
                     size m is large (§3.6)";
        let claim = Claim::new("2", quote, reading.statement(LR, [NB, HY]))
            .window(Window::All, FIGURE_REASON)
            .reading(reading.name());
        out.push(Verdict::judge(&claim, &dependent, "points")?);
        let claim = Claim::new("2-large", quote, reading.statement(LR, [NB, HY]))
            .window(
                Window::range(LARGE.0, LARGE.1),
                "\"when m is large\": the upper half of the figures' axis, m = 100…400",
            )
            .reading(reading.name());
        out.push(Verdict::judge(&claim, &dependent, "points")?);
    }
    let claim = Claim::new(
        "3",
        "With these simulated datasets, our studies cannot support the claim that the hybrid \
         algorithm offers better performance than either the naïve Bayes classifier or linear \
         logistic regression alone (§3.6)",
        Statement::NotBetterThanAll {
            a: HY.into(),
            rivals: vec![NB.into(), LR.into()],
        },
    )
    .window(Window::All, FIGURE_REASON)
    .reading(CONCLUSION_3_READING);
    out.push(Verdict::judge(&claim, &all, "points")?);
    Ok(out)
}

/// The evidence on the datasets `keep` selects: for each dataset, measure (ER, LL) and m, the
/// three paper classifiers' values on every replicate, summarised by medians.
fn evidence(
    results: &StudyResults,
    keep: impl Fn(XueTitteringtonPreset) -> bool,
) -> Result<Evidence> {
    let names = [NB, LR, HY];
    let mut out = Evidence::new(names, Better::Lower).centre(Centre::Median);
    for (metric, label) in [(ER, "ER"), (LL, "LL")] {
        let from = Evidence::from_results_named(
            results,
            metric,
            &[NAIVE_BAYES, LOGISTIC_REGRESSION, HYBRID],
            &names,
            Better::Lower,
        )?;
        for preset in XueTitteringtonPreset::ALL {
            if !keep(preset) {
                continue;
            }
            for point in from.points().iter().filter(|p| p.group == preset.name()) {
                out.push(
                    format!("{}, {label}", preset.name()),
                    point.m,
                    point.values.clone(),
                )?;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readings_differ_in_how_ties_count() {
        use gendisc_engine::verdict::Kind;
        let best = Reading::ShownBetter.statement(NB, [LR, HY]);
        let none = Reading::NoneShownBetter.statement(NB, [LR, HY]);
        assert_eq!(best.kind(), Kind::Difference);
        assert_eq!(none.kind(), Kind::NoDifference);
        assert_ne!(Reading::ShownBetter.name(), Reading::NoneShownBetter.name());
    }
}
