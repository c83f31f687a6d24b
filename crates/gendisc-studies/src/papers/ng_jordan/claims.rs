//! The paper's claims as verdicts of the judging module ([`gendisc_engine::verdict`]), under each
//! reading of the setup.
//!
//! The claim (§4 and §1): as the training-set size `m` grows there are two regimes, naive
//! Bayes better at first, logistic regression catching up and overtaking it. It is judged
//! per dataset and per training size, from the per-split errors: at every point the paired
//! difference of the two test errors over the splits with its 95% t interval, a tie when the
//! interval holds zero ([`Difference::side`](gendisc_engine::verdict::Difference::side)). Two claims per
//! reading, with datasets as units:
//!
//! * `nb-leads-small-m` — [`Statement::Leads`]: over the small-`m` window naive Bayes is better
//!   at more points than logistic regression;
//! * `two-regimes` — [`Statement::Crosses`]: naive Bayes leads over the small-`m` window and
//!   logistic regression over the large-`m` window.
//!
//! **Windows.** Our copy of the paper lost its figure's axes, so the windows are a documented
//! default rather than read from the figure: the lower half of each dataset's grid on the log
//! scale it is spaced on (small `m`), and the upper half (large `m`). The grids differ per
//! dataset, so the evidence is indexed by *grid position* rather than by `m`
//! ([`positioned`]): position `1 … P` on each dataset's geometric grid of `P` =
//! [`Settings::grid_points`](super::Settings::grid_points) sizes (lenses, whose grid is every
//! size from 2 to 6, is placed on the nearest positions of the log scale). The windows are
//! then positions `1 … P/2` and `P/2 + 1 … P`, and the module's sensitivity check moves them
//! by one position.

use std::collections::BTreeMap;

use gendisc_engine::verdict::{Better, Claim, Evidence, Statement, Verdict, Window};
use gendisc_engine::{Result, StudyResults};

use super::{
    NgJordanStudy, ERROR, LOGISTIC_REGRESSION, LOGISTIC_REGRESSION_UNIT_RANGE, NAIVE_BAYES,
    RANDOM_SEPARATOR, RANDOM_SEPARATOR_UNIT_RANGE,
};

/// The name of naive Bayes in the claims.
pub(crate) const NB: &str = "naive Bayes";
/// The name of logistic regression in the claims, whatever its reading.
pub(crate) const LR: &str = "logistic regression";

/// A reading of the paper's logistic regression: which classifier of the study stands for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reading {
    /// The reading's name, as the claims and `verdicts.csv` give it (no commas, so that it
    /// stays one unquoted CSV field).
    pub name: &'static str,
    /// The classifier of the study's schema.
    pub classifier: &'static str,
    /// Whether this is the paper's own treatment of separable sets on standardised inputs:
    /// the headline reading.
    pub headline: bool,
}

/// The readings, headline first: the paper's random separator on separable training sets,
/// then the N(0, σ²) prior, each on standardised inputs and on inputs rescaled to [0, 1].
pub(crate) const READINGS: [Reading; 4] = [
    Reading {
        name: "random separator on standardised inputs (the paper's)",
        classifier: RANDOM_SEPARATOR,
        headline: true,
    },
    Reading {
        name: "fixed Gaussian prior on standardised inputs",
        classifier: LOGISTIC_REGRESSION,
        headline: false,
    },
    Reading {
        name: "random separator on inputs rescaled to 0–1",
        classifier: RANDOM_SEPARATOR_UNIT_RANGE,
        headline: false,
    },
    Reading {
        name: "fixed Gaussian prior on inputs rescaled to 0–1",
        classifier: LOGISTIC_REGRESSION_UNIT_RANGE,
        headline: false,
    },
];

/// The paper's words for the claims (§1 and §4 of our copy, which lost its numbers and some
/// letters).
pub(crate) const QUOTE_REGIMES: &str = "as the number of training examples is increased, we \
    expect generative naive Bayes to initially be better, but for discriminative logistic \
    regression to eventually catch up to, and quite likely overtake, the performance of naive \
    Bayes";
/// The paper's report of its experiments (§4).
pub(crate) const QUOTE_BORNE_OUT: &str = "we find that the theoretical predictions are borne \
    out surprisingly well";

/// What the evidence's sizes are: positions on each dataset's own grid, not training sizes.
pub(crate) const AXIS: &str = "grid position";

/// Where the windows come from, for the verdict lines.
pub(crate) fn window_reason(positions: usize, late: bool) -> String {
    let half = positions / 2;
    if late {
        format!(
            "positions {} … {positions} are the upper half of each \
             dataset's {positions}-size geometric grid on the log scale; the paper's figure lost \
             its axes in our copy, so this is a default",
            half + 1
        )
    } else {
        format!(
            "positions 1 … {half} are the lower half of each dataset's \
             {positions}-size geometric grid on the log scale; the paper's figure lost its axes \
             in our copy, so this is a default"
        )
    }
}

/// The grid position `1 … positions` of a training size `m` on a dataset's `grid`: its index
/// plus one when the grid has exactly `positions` sizes, else its place on the log scale from
/// the grid's first to its last size, rounded (lenses' five sizes 2…6 land on 1, 5, 8, 10, 12
/// of 12). `None` when `m` is not on the grid.
pub(crate) fn position(grid: &[usize], m: usize, positions: usize) -> Option<usize> {
    let index = grid.iter().position(|&g| g == m)?;
    if grid.len() == positions {
        return Some(index + 1);
    }
    let (first, last) = (*grid.first()? as f64, *grid.last()? as f64);
    if grid.len() < 2 || last <= first {
        return Some(1);
    }
    let share = (m as f64 / first).ln() / (last / first).ln();
    Some(1 + (share * (positions - 1) as f64).round() as usize)
}

/// The evidence with every point's `m` replaced by its grid position on its dataset's grid
/// ([`position`]); points whose `m` is not on their grid are left out.
pub(crate) fn positioned(
    evidence: &Evidence,
    grids: &BTreeMap<String, Vec<usize>>,
    positions: usize,
) -> Result<Evidence> {
    let mut out = Evidence::new(evidence.series().iter().cloned(), evidence.better());
    for p in evidence.points() {
        let Some(at) = grids
            .get(&p.group)
            .and_then(|grid| position(grid, p.m, positions))
        else {
            continue;
        };
        out.push(p.group.clone(), at, p.values.clone())?;
    }
    Ok(out)
}

/// The two claims under `reading`, on grids of `positions` sizes.
pub(crate) fn claims(reading: &Reading, positions: usize) -> Vec<Claim> {
    let half = positions / 2;
    let early = Window::range(1, half);
    let late = Window::range(half + 1, positions);
    vec![
        Claim::new(
            "nb-leads-small-m",
            QUOTE_REGIMES,
            Statement::Leads {
                a: NB.into(),
                b: LR.into(),
            },
        )
        .window(early, window_reason(positions, false))
        .axis(AXIS)
        .reading(reading.name),
        Claim::new(
            "two-regimes",
            format!("{QUOTE_REGIMES}; {QUOTE_BORNE_OUT}"),
            Statement::Crosses {
                a: NB.into(),
                b: LR.into(),
                late,
            },
        )
        .window(early, window_reason(positions, false))
        .axis(AXIS)
        .reading(reading.name),
    ]
}

/// The position-indexed evidence of naive Bayes against `reading`'s logistic regression.
pub(crate) fn evidence(
    study: &NgJordanStudy,
    results: &StudyResults,
    reading: &Reading,
) -> Result<Evidence> {
    let raw = Evidence::from_results_named(
        results,
        ERROR,
        &[NAIVE_BAYES, reading.classifier],
        &[NB, LR],
        Better::Lower,
    )?;
    let grids: BTreeMap<String, Vec<usize>> = study
        .datasets()
        .iter()
        .map(|d| (d.spec.name.to_string(), study.grid(d)))
        .collect();
    positioned(&raw, &grids, study.settings().grid_points)
}

/// Every verdict of the report: the two claims under each reading, headline first.
pub(crate) fn verdicts(study: &NgJordanStudy, results: &StudyResults) -> Result<Vec<Verdict>> {
    let positions = study.settings().grid_points;
    let mut out = Vec::new();
    for reading in &READINGS {
        let evidence = evidence(study, results, reading)?;
        for claim in claims(reading, positions) {
            out.push(Verdict::judge(&claim, &evidence, "datasets")?);
        }
    }
    Ok(out)
}

/// The chance that a dataset where the two classifiers are truly tied is judged a lead for
/// naive Bayes over `points` points: each point is a win for either side with probability
/// `tail` (2.5% at a 95% interval) and a tie otherwise, independently (each size has its own
/// splits); the lead needs more wins for naive Bayes than for logistic regression.
pub(crate) fn chance_of_lead(points: usize, tail: f64) -> f64 {
    // Trinomial: i wins for A, j for B, the rest ties.
    let choose = |n: usize, k: usize| -> f64 {
        (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
    };
    let mut p = 0.0;
    for i in 1..=points {
        for j in 0..i.min(points - i + 1) {
            let ties = points - i - j;
            p += choose(points, i)
                * choose(points - i, j)
                * tail.powi(i as i32)
                * tail.powi(j as i32)
                * (1.0 - 2.0 * tail).powi(ties as i32);
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use gendisc_engine::verdict::Word;

    /// Errors over 40 splits around `base`, with split-to-split noise shared by both series
    /// plus a little of each one's own.
    fn replicates(base: f64, own: usize) -> Vec<f64> {
        (0..40)
            .map(|r| base + 0.02 * ((r % 7) as f64 - 3.0) / 3.0 + 0.004 * ((r * own) % 5) as f64)
            .collect()
    }

    /// Evidence on positions 1…12 of one dataset, from NB − LR gaps per position (positive:
    /// LR better).
    fn curves(group: &str, gaps: [f64; 12], evidence: &mut Evidence) {
        for (i, gap) in gaps.iter().enumerate() {
            let lr = replicates(0.3, 3);
            let nb: Vec<f64> = replicates(0.3 + gap, 2);
            evidence.push(group, i + 1, vec![nb, lr]).unwrap();
        }
    }

    #[test]
    fn the_boston_pattern_is_two_regimes() {
        // Boston in the previous report: tied at m = 2, logistic regression ahead at m = 3 and
        // 5, naive Bayes ahead at m = 8, 13 and 22, logistic regression ahead from then on. The
        // mean over m = 2…22 favoured logistic regression; per point, naive Bayes wins three of
        // the five decided points of the small-m half, and logistic regression the large half.
        let mut evidence = Evidence::new([NB, LR], Better::Lower);
        curves(
            "boston",
            [
                0.0, 0.08, 0.05, -0.03, -0.04, -0.03, 0.02, 0.03, 0.04, 0.05, 0.05, 0.05,
            ],
            &mut evidence,
        );
        let reading = READINGS[0];
        let claims = claims(&reading, 12);
        let lead = Verdict::judge(&claims[0], &evidence, "datasets").unwrap();
        assert_eq!(lead.word, Word::Supported, "{}", lead.markdown());
        assert!(lead.units[0]
            .detail
            .contains("naive Bayes better at 3 points"));
        let two = Verdict::judge(&claims[1], &evidence, "datasets").unwrap();
        assert_eq!(two.word, Word::Supported, "{}", two.markdown());
        // The means over the small half (positions 1…6) would say LR throughout.
        let mean_gap = [0.0, 0.08, 0.05, -0.03, -0.04, -0.03].iter().sum::<f64>() / 6.0;
        assert!(mean_gap > 0.0);
    }

    #[test]
    fn logistic_regression_throughout_and_ties_are_not_leads() {
        let mut evidence = Evidence::new([NB, LR], Better::Lower);
        curves("lr", [0.05; 12], &mut evidence);
        curves("tied", [0.0; 12], &mut evidence);
        curves(
            "nb",
            [
                -0.05, -0.05, -0.05, -0.05, -0.05, -0.05, -0.05, -0.05, 0.0, 0.0, 0.0, 0.0,
            ],
            &mut evidence,
        );
        let claims = claims(&READINGS[1], 12);
        let lead = Verdict::judge(&claims[0], &evidence, "datasets").unwrap();
        // Only "nb" leads: one of three.
        assert_eq!(lead.tally.holds, 1);
        assert_eq!(lead.tally.against, 1);
        assert_eq!(lead.tally.ties, 1);
        assert_eq!(lead.word, Word::NotSupported);
        let two = Verdict::judge(&claims[1], &evidence, "datasets").unwrap();
        // "nb" leads early but logistic regression never overtakes: not two regimes.
        assert_eq!(two.tally.holds, 0);
        assert_eq!(two.claim.reading, READINGS[1].name);
    }

    #[test]
    fn positions_on_full_and_short_grids() {
        let grid = [2, 3, 5, 8, 13, 22, 38, 66, 115, 200, 348, 600];
        assert_eq!(position(&grid, 2, 12), Some(1));
        assert_eq!(position(&grid, 600, 12), Some(12));
        assert_eq!(position(&grid, 7, 12), None);
        let lenses = [2, 3, 4, 5, 6];
        let at: Vec<usize> = lenses
            .iter()
            .map(|&m| position(&lenses, m, 12).unwrap())
            .collect();
        assert_eq!(at, vec![1, 5, 8, 10, 12]);
        let mut raw = Evidence::new([NB, LR], Better::Lower);
        raw.push("lenses", 4, vec![vec![0.1, 0.2], vec![0.2, 0.3]])
            .unwrap();
        raw.push("lenses", 9, vec![vec![0.1, 0.2], vec![0.2, 0.3]])
            .unwrap();
        let grids = BTreeMap::from([("lenses".to_string(), lenses.to_vec())]);
        let p = positioned(&raw, &grids, 12).unwrap();
        assert_eq!(p.grid(), vec![8]);
    }

    #[test]
    fn the_chance_of_a_lead_at_a_true_tie() {
        // One point: a win for naive Bayes with probability 2.5%.
        assert!((chance_of_lead(1, 0.025) - 0.025).abs() < 1e-15);
        // Two points: a win and a tie either way round, or two wins.
        let two = 2.0 * 0.025 * 0.95 + 0.025 * 0.025;
        assert!((chance_of_lead(2, 0.025) - two).abs() < 1e-15);
        // By symmetry, the chance of a lead for either side is below one half, and grows with
        // the number of points.
        let six = chance_of_lead(6, 0.025);
        assert!(six > two && six < 0.5, "{six}");
        assert_eq!(chance_of_lead(0, 0.025), 0.0);
    }
}
