//! The paper's eight claims (§3 and §5) as [`Claim`]s of the verdict module, judged on the
//! per-split values of the study's cells, once per reading of the hybrid.
//!
//! Figure 1's curves are means over ten splits (§3: "averages over 10 random train-test
//! splits"), so its claims are judged on the mean of the paired per-split differences
//! ([`Centre::Mean`]) at each `(pair, m)` point. Figure 2's curves are means over ten 50%/50%
//! splits (§5), so its claims are judged on paired per-split differences of the accuracy at each
//! coverage of the grid (claims 6 and 8) and of the coverage at 95% accuracy (claim 7), through
//! [`Statement::Units`] with the module's tie rule ([`Difference::side`]): a coverage is not a
//! training size, so those units are not points of an [`Evidence`] over `m`.

use gendisc_engine::verdict::{
    describe, Better, Centre, Claim, Difference, Evidence, Judgement, Kind, Side, Statement,
    Thresholds, Unit, Verdict, Window, CONFIDENCE,
};
use gendisc_engine::{Key, Result, StudyResults};

use super::{
    Metric, COVERAGE_GRID, FIGURE_1, FIGURE_2, HYBRID, HYBRID_L2, HYBRID_R1, HYBRID_R1_L2,
    HYBRID_UNNORMALIZED, HYBRID_UNNORMALIZED_L2, HYBRID_UNNORMALIZED_R1, HYBRID_UNNORMALIZED_R1_L2,
    LOGISTIC_REGRESSION, NAIVE_BAYES,
};

/// One reading of the hybrid: which classifiers of the schema play the normalized hybrid with
/// `R = 2` and `R = 1` and the unnormalized hybrid with `R = 2` and `R = 1` in the claims.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    /// The reading's name, as printed beside each verdict.
    pub name: &'static str,
    /// What it means, for the report.
    pub description: &'static str,
    /// The normalized hybrid, `R = 2`.
    pub h2: &'static str,
    /// The normalized hybrid, `R = 1`.
    pub h1: &'static str,
    /// The unnormalized hybrid, `R = 2`.
    pub u2: &'static str,
    /// The unnormalized hybrid, `R = 1`.
    pub u1: &'static str,
}

/// The paper's reading: `θ` by unpenalised maximum conditional likelihood with leave-one-out
/// features (eq. (11)).
pub const MAXIMUM_LIKELIHOOD: Reading = Reading {
    name: "θ by maximum likelihood",
    description: "θ by unpenalised maximum conditional likelihood of the leave-one-out \
                  features, as eq. (11) states",
    h2: HYBRID,
    h1: HYBRID_R1,
    u2: HYBRID_UNNORMALIZED,
    u1: HYBRID_UNNORMALIZED_R1,
};

/// The second reading: `θ` under a Gaussian prior, since at small training sizes many
/// unpenalised `θ` fits are separated and have no finite maximum-likelihood estimate.
pub const L2_PRIOR: Reading = Reading {
    name: "θ with an L2 prior",
    description: "θ_1 … θ_R under a Gaussian prior N(0, σ²) (an L2 penalty; the intercept is \
                  free), σ² chosen from logistic regression's grid by the same cross-validation \
                  on the training set (held-out conditional log-likelihood, θ by leave-one-out \
                  in each fold). A second reading, not the paper's: at small m many unpenalised \
                  θ fits are separated (the `sep` column), where θ has no finite \
                  maximum-likelihood estimate",
    h2: HYBRID_L2,
    h1: HYBRID_R1_L2,
    u2: HYBRID_UNNORMALIZED_L2,
    u1: HYBRID_UNNORMALIZED_R1_L2,
};

/// The readings the report judges every claim under, in order.
pub const READINGS: [Reading; 2] = [MAXIMUM_LIKELIHOOD, L2_PRIOR];

/// What the claims call the series of Figure 1.
const NB: &str = "naive Bayes";
const LR: &str = "logistic regression";
const H2: &str = "normalized hybrid R = 2";
const H1: &str = "normalized hybrid R = 1";
const U2: &str = "unnormalized hybrid R = 2";
const U1: &str = "unnormalized hybrid R = 1";

/// How much above the lowest mean test error still counts as "very near the lowest" (claim 1),
/// and how far apart two accuracies may be and still be "about the same" (claim 8): one
/// percentage point, the resolution at which the paper's figures can be read.
pub const NEAR: f64 = 0.01;

/// The smallest and largest sizes of Figure 1's window. Its x axis runs from 0 to 1,500
/// (ticks at 0, 500, 1,000, 1,500); the text names no plotted size, so our smallest size,
/// m = 10, is not taken to have been plotted.
pub const FIGURE1_WINDOW: (usize, usize) = (25, 1500);
/// "Small training sets" (claim 3): the sizes up to 100, the first fifteenth of the axis.
pub const SMALL: (usize, usize) = (25, 100);
/// "Large" training sets, for claim 3's comparison: the upper half of the axis, from the grid
/// size nearest its midpoint (750).
pub const LARGE: (usize, usize) = (700, 1500);

/// Figure 2's target accuracy (claim 7).
pub const TARGET_ACCURACY: f64 = 0.95;
/// The coverage the paper reports for the hybrid at that accuracy in Figure 2a (claim 7).
pub const PAPER_COVERAGE: f64 = 0.40;

/// The reason for Figure 1's window, printed with every claim judged on it.
fn figure1_reason() -> String {
    format!(
        "Figure 1's x axis runs from 0 to 1,500 and the text names no plotted size, so m = 10 is \
         not taken as plotted: m = {}…{}",
        FIGURE1_WINDOW.0, FIGURE1_WINDOW.1
    )
}

/// Every claim's verdict under `reading`, in the paper's order.
pub fn verdicts(results: &StudyResults, reading: &Reading) -> Result<Vec<Verdict>> {
    let mut out = figure1_verdicts(results, reading)?;
    out.extend(figure2_verdicts(results, reading)?);
    Ok(out)
}

/// Claims 1–5, on Figure 1's test errors at its (pair, m) points.
fn figure1_verdicts(results: &StudyResults, reading: &Reading) -> Result<Vec<Verdict>> {
    let figure1 = figure_evidence(
        results,
        Metric::ErrorRate,
        &[
            (NAIVE_BAYES, NB),
            (LOGISTIC_REGRESSION, LR),
            (reading.h2, H2),
            (reading.h1, H1),
            (reading.u2, U2),
        ],
        FIGURE_1,
        Better::Lower,
    )?;
    figure1_claims(reading)
        .iter()
        .map(|(claim, unit)| Verdict::judge(claim, &figure1, unit))
        .collect()
}

/// Claims 1–5 under `reading`, each with what its units are.
fn figure1_claims(reading: &Reading) -> [(Claim, &'static str); 5] {
    let window = Window::range(FIGURE1_WINDOW.0, FIGURE1_WINDOW.1);
    let on_figure1 = |claim: Claim| claim.window(window, figure1_reason()).reading(reading.name);
    let beats = |id: &str, quote: &str, a: &str, b: &str| {
        on_figure1(Claim::new(
            id,
            quote,
            Statement::Beats {
                a: a.into(),
                b: b.into(),
            },
        ))
    };
    let near_best = on_figure1(Claim::new(
        "1",
        "In every experiment, for the training set sizes considered, the normalized hybrid \
         algorithm with R = 2 has test error that is either the lowest or very near the lowest \
         among all the algorithms (§3)",
        Statement::NearBest {
            a: H2.into(),
            rivals: vec![NB.into(), LR.into()],
            delta: NEAR,
        },
    ))
    .thresholds(Thresholds::every());
    let beats_naive_bayes = beats(
        "2",
        "It almost always outperforms the basic naive Bayes algorithm (§3)",
        H2,
        NB,
    );
    let gap_shrinks = Claim::new(
        "3",
        "The difference in performance is especially dramatic for small training sets (§3)",
        Statement::GapShrinks {
            a: H2.into(),
            b: NB.into(),
            late: Window::range(LARGE.0, LARGE.1),
        },
    )
    .window(
        Window::range(SMALL.0, SMALL.1),
        format!(
            "small: the first fifteenth of Figure 1's 0–1,500 axis from its first size taken as \
             plotted; large: m = {}…{}, its upper half",
            LARGE.0, LARGE.1
        ),
    )
    .reading(reading.name);
    let two_regions = beats(
        "4",
        "The hybrid algorithm with R = 2 (breaking the document into two regions) outperforms \
         R = 1 (§3, not shown in the paper)",
        H2,
        H1,
    );
    let normalized = beats(
        "5",
        "The normalized version of the hybrid algorithm generally outperforms the unnormalized \
         version (§3, not shown in the paper)",
        H2,
        U2,
    );
    [
        (near_best, "points"),
        (beats_naive_bayes, "points"),
        (gap_shrinks, "pairs"),
        (two_regions, "points"),
        (normalized, "points"),
    ]
}

/// Claims 6–8, on Figure 2's accuracy at every coverage of the grid, per split.
fn figure2_verdicts(results: &StudyResults, reading: &Reading) -> Result<Vec<Verdict>> {
    let coverage_evidence = (1..=COVERAGE_GRID as u8)
        .map(|c| {
            figure_evidence(
                results,
                Metric::AccuracyAt(c),
                &[(reading.h1, H1), (NAIVE_BAYES, NB), (reading.u1, U1)],
                FIGURE_2,
                Better::Higher,
            )
        })
        .collect::<Result<Vec<_>>>()?;
    let reason = "every coverage of the grid, 2%…100%, of Figure 2's curves";
    let on_units = |claim: Claim, unit: &str, units: Vec<Unit>| {
        Verdict::from_units(&claim, &[], unit, |_, _| Ok(units.clone()))
    };

    let higher = Claim::new(
        "6",
        "The normalized hybrid algorithm (R = 1) does significantly better than naive Bayes, and \
         has accuracy/coverage curves that are higher almost everywhere (§5)",
        Statement::Units {
            what:
                "the hybrid's accuracy (R = 1) is higher than naive Bayes' at a coverage, paired \
                   over the splits"
                    .into(),
            kind: Kind::Difference,
        },
    )
    .window(Window::All, reason)
    .reading(reading.name);
    let higher_units = coverage_units(&coverage_evidence, H1, NB, |d| match d.side(0.0) {
        Side::A => Judgement::Holds,
        Side::B => Judgement::Against,
        Side::Tie => Judgement::Tie,
    })?;

    let same = Claim::new(
        "8",
        "The unnormalized algorithm has performance about the same as naive Bayes (§5)",
        Statement::Units {
            what: format!(
                "the unnormalized hybrid's accuracy (R = 1) is within {NEAR} of naive Bayes' at a \
                 coverage, paired over the splits"
            ),
            kind: Kind::NoDifference,
        },
    )
    .window(Window::All, reason)
    .reading(reading.name);
    let same_units = coverage_units(&coverage_evidence, U1, NB, |d| {
        if d.lower >= -NEAR && d.upper <= NEAR {
            Judgement::Holds
        } else if d.side(NEAR) == Side::Tie {
            Judgement::Tie
        } else {
            Judgement::Against
        }
    })?;

    Ok(vec![
        on_units(higher, "coverages", higher_units)?,
        on_units(
            figure_2a_claim(reading),
            "statements",
            figure_2a_units(results, reading)?,
        )?,
        on_units(same, "coverages", same_units)?,
    ])
}

/// Claim 7, on Figure 2a's pair.
fn figure_2a_claim(reading: &Reading) -> Claim {
    Claim::new(
        "7",
        "In Figure 2a, the normalized hybrid algorithm with R = 1 has a coverage of over 40% at \
         95% accuracy, while naive Bayes' coverage is 0 for the same accuracy (§5)",
        Statement::Units {
            what: format!(
                "on the first pair, the hybrid's coverage at {:.0}% accuracy exceeds {:.0}%, and \
                 exceeds naive Bayes' by more than {:.0} points (naive Bayes at 0), paired over \
                 the splits",
                100.0 * TARGET_ACCURACY,
                100.0 * PAPER_COVERAGE,
                100.0 * PAPER_COVERAGE
            ),
            kind: Kind::Difference,
        },
    )
    .window(
        Window::All,
        "Figure 2a's pair, taken to be Figure 1a's (the text names no panel)",
    )
    .reading(reading.name)
}

/// The evidence of one figure: `series` (schema classifier, name in the claims) on `metric`,
/// at the points of the figure's cells, each group named by its pair's panel title.
fn figure_evidence(
    results: &StudyResults,
    metric: Metric,
    series: &[(&str, &str)],
    figure: &str,
    better: Better,
) -> Result<Evidence> {
    let classifiers: Vec<&str> = series.iter().map(|s| s.0).collect();
    let names: Vec<&str> = series.iter().map(|s| s.1).collect();
    let all = Evidence::from_results_named(results, metric.name(), &classifiers, &names, better)?;
    let mut evidence = Evidence::new(names.iter().copied(), better).centre(Centre::Mean);
    for point in all.points() {
        let Some(pair) = pair_title(&point.group, figure) else {
            continue;
        };
        evidence.push(pair, point.m, point.values.clone())?;
    }
    Ok(evidence)
}

/// The panel title of a cell's dataset name when it belongs to `figure`.
fn pair_title(dataset: &str, figure: &str) -> Option<String> {
    let (prefix, id) = dataset.split_once(':')?;
    if prefix != figure {
        return None;
    }
    super::PAIRS
        .iter()
        .find(|p| p.id == id)
        .map(|p| p.title.to_string())
}

/// One unit per pair and coverage of the grid: `judge` on the paired per-split advantage of
/// `a` over `b` at that coverage.
fn coverage_units(
    evidence: &[Evidence],
    a: &str,
    b: &str,
    judge: impl Fn(&Difference) -> Judgement,
) -> Result<Vec<Unit>> {
    let mut units = Vec::new();
    let Some(first) = evidence.first() else {
        return Ok(units);
    };
    for (p, point) in first.points().iter().enumerate() {
        for (c, at) in evidence.iter().enumerate() {
            let Some(d) = at.difference(p, a, b)? else {
                continue;
            };
            units.push(Unit::group(
                format!(
                    "{} at coverage {}%",
                    point.group,
                    (c + 1) * 100 / COVERAGE_GRID
                ),
                judge(&d),
                format!("{a} − {b}: {}", describe(&d)),
            ));
        }
    }
    Ok(units)
}

/// Claim 7's two units on the first pair of Figure 2: the hybrid's coverage at 95% accuracy
/// above 40%, and above naive Bayes' by more than 40 points, each paired over the splits.
fn figure_2a_units(results: &StudyResults, reading: &Reading) -> Result<Vec<Unit>> {
    let evidence = figure_evidence(
        results,
        Metric::CoverageAt95,
        &[(reading.h1, H1), (NAIVE_BAYES, NB)],
        FIGURE_2,
        Better::Higher,
    )?;
    let Some(point) = evidence.points().first() else {
        return Ok(Vec::new());
    };
    let (h, nb) = (&point.values[0], &point.values[1]);
    let side = |d: &Difference| match d.side(0.0) {
        Side::A => Judgement::Holds,
        Side::B => Judgement::Against,
        Side::Tie => Judgement::Tie,
    };
    let mut units = Vec::new();
    let above = h.iter().map(|&x| x - PAPER_COVERAGE);
    if let Some(d) = Difference::of_advantages(above, Centre::Mean, CONFIDENCE) {
        units.push(Unit::group(
            format!("{}: {H1} coverage over {PAPER_COVERAGE}", point.group),
            side(&d),
            format!("{H1} − {PAPER_COVERAGE}: {}", describe(&d)),
        ));
    }
    let gap = h.iter().zip(nb).map(|(&x, &y)| x - y - PAPER_COVERAGE);
    if let Some(d) = Difference::of_advantages(gap, Centre::Mean, CONFIDENCE) {
        units.push(Unit::group(
            format!(
                "{}: {H1} coverage over {NB}'s by more than {PAPER_COVERAGE}",
                point.group
            ),
            side(&d),
            format!("{H1} − {NB} − {PAPER_COVERAGE}: {}", describe(&d)),
        ));
    }
    Ok(units)
}

#[cfg(test)]
mod tests {
    use super::super::RainaStudy;
    use super::*;

    #[test]
    fn pair_titles_come_from_the_figures_prefix() {
        let pair = super::super::PAIRS[0];
        let name = RainaStudy::dataset_name(FIGURE_1, &pair);
        assert_eq!(pair_title(&name, FIGURE_1).as_deref(), Some(pair.title));
        assert_eq!(pair_title(&name, FIGURE_2), None);
        assert_eq!(pair_title("fig1:no-such-pair", FIGURE_1), None);
        assert_eq!(pair_title("no prefix", FIGURE_1), None);
    }
}
