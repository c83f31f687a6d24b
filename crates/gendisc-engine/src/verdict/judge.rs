//! Judging a claim: units → share → verdict, and the sensitivity check that labels it robust
//! or borderline.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::error::{Result, StudyError};

use super::claim::{units, Claim, Judgement, Kind, Statement, Unit, Window};
use super::evidence::Evidence;
use super::thresholds::{Thresholds, Word};

/// What moved in a sensitivity run that changed the verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Flip {
    /// The change ("thresholds 10 points lower", "window m = 50…1500").
    pub change: String,
    /// The verdict under it.
    pub word: Word,
}

/// The counts behind a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Units where the claim holds.
    pub holds: usize,
    /// Ties.
    pub ties: usize,
    /// Units where the opposite holds.
    pub against: usize,
    /// Whether ties count for the claim.
    pub kind: Kind,
}

impl Tally {
    fn of(units: &[Unit], kind: Kind) -> Self {
        let count = |j| units.iter().filter(|u| u.judgement == j).count();
        Self {
            holds: count(Judgement::Holds),
            ties: count(Judgement::Tie),
            against: count(Judgement::Against),
            kind,
        }
    }

    /// All units.
    pub fn total(&self) -> usize {
        self.holds + self.ties + self.against
    }

    /// The units that count for the claim: those where it holds, and the ties when the claim
    /// asserts no difference.
    pub fn counting(&self) -> usize {
        match self.kind {
            Kind::Difference => self.holds,
            Kind::NoDifference => self.holds + self.ties,
        }
    }

    /// [`Tally::counting`] as a share of all units (NaN without units).
    pub fn share(&self) -> f64 {
        self.counting() as f64 / self.total() as f64
    }
}

/// A claim's verdict, with the units it rests on and its sensitivity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// The claim judged.
    pub claim: Claim,
    /// What the units call them ("points", "datasets", "setups").
    pub unit_name: String,
    /// The verdict.
    pub word: Word,
    /// The counts.
    pub tally: Tally,
    /// Every unit, in evidence order.
    pub units: Vec<Unit>,
    /// The perturbations that change the verdict: empty when it is robust.
    pub flips: Vec<Flip>,
}

impl Verdict {
    /// Judges `claim` on `evidence`: its units over its window, the share that counts for it
    /// against its thresholds, then the sensitivity check — the verdict again with both
    /// thresholds [`Thresholds::SHIFT`] points lower and higher, and over each neighbouring
    /// window on the evidence's grid ([`Window::neighbours`], each window of a two-window
    /// statement in turn).
    ///
    /// Fails when the claim names a series the evidence lacks, or is a
    /// [`Statement::Units`] claim (those go through [`Verdict::from_units`]).
    pub fn judge(claim: &Claim, evidence: &Evidence, unit_name: &str) -> Result<Self> {
        if let Statement::Units { .. } = claim.statement {
            return Err(StudyError::InvalidStudy {
                study: "verdict".into(),
                reason: format!(
                    "claim `{}` has report-computed units: judge it with Verdict::from_units",
                    claim.id
                ),
            });
        }
        let grid = evidence.grid();
        Self::from_units(claim, &grid, unit_name, |window, late| {
            let statement = match late {
                Some(late) => claim.statement.with_late_window(late),
                None => claim.statement.clone(),
            };
            units(&statement, window, evidence, &claim.axis)
        })
    }

    /// Judges a claim whose units the caller computes, for instance with
    /// [`Difference::side`](super::Difference::side) on numbers that are not an [`Evidence`]:
    /// `units_for(window, late)` returns the units over `window` (and, for a two-window
    /// statement, over `late`, else `None`). The share, thresholds and sensitivity are this
    /// module's, as for [`Verdict::judge`]; `grid` is what windows move on.
    pub fn from_units(
        claim: &Claim,
        grid: &[usize],
        unit_name: &str,
        mut units_for: impl FnMut(Window, Option<Window>) -> Result<Vec<Unit>>,
    ) -> Result<Self> {
        let kind = claim.statement.kind();
        let late = claim.statement.late_window();
        let units = units_for(claim.window, late)?;
        let tally = Tally::of(&units, kind);
        let word = claim.thresholds.word(tally.counting(), tally.total());

        let mut flips = Vec::new();
        let mut check = |change: String, word_then: Word| {
            if word_then != word {
                flips.push(Flip {
                    change,
                    word: word_then,
                });
            }
        };
        for points in [-(Thresholds::SHIFT as i32), Thresholds::SHIFT as i32] {
            let t = claim.thresholds.shifted(points);
            let direction = if points < 0 { "lower" } else { "higher" };
            check(
                format!(
                    "thresholds {} points {direction} ({}% / {}%)",
                    Thresholds::SHIFT,
                    t.supported,
                    t.partly
                ),
                t.word(tally.counting(), tally.total()),
            );
        }
        for window in claim.window.neighbours(grid) {
            let t = Tally::of(&units_for(window, late)?, kind);
            check(
                format!("window {}", window.label(&claim.axis)),
                claim.thresholds.word(t.counting(), t.total()),
            );
        }
        if let Some(late) = late {
            for neighbour in late.neighbours(grid) {
                let t = Tally::of(&units_for(claim.window, Some(neighbour))?, kind);
                check(
                    format!("later window {}", neighbour.label(&claim.axis)),
                    claim.thresholds.word(t.counting(), t.total()),
                );
            }
        }
        Ok(Self {
            claim: claim.clone(),
            unit_name: unit_name.to_string(),
            word,
            tally,
            units,
            flips,
        })
    }

    /// Whether no perturbation of the sensitivity check changes the verdict.
    pub fn robust(&self) -> bool {
        self.flips.is_empty()
    }

    /// `robust`, or `borderline: …` naming what flips it.
    pub fn robustness(&self) -> String {
        if self.robust() {
            "robust".into()
        } else {
            let flips: Vec<String> = self
                .flips
                .iter()
                .map(|f| format!("{} with {}", f.word, f.change))
                .collect();
            format!("borderline: {}", flips.join("; "))
        }
    }

    /// The units where the opposite of the claim holds.
    pub fn against(&self) -> impl Iterator<Item = &Unit> {
        self.units
            .iter()
            .filter(|u| u.judgement == Judgement::Against)
    }

    /// The verdict line of a report: the verdict in bold, robust or borderline, then the counts,
    /// the window and the rule.
    ///
    /// `**supported** (robust) — holds at 44 of 54 points (81%; 6 ties, 4 against) over
    /// m = 25…1500 (the paper's Figure 1 starts at m = 25); ties do not count for it; supported
    /// from 75%, partly from 50% of points.` A claim of no difference counts its ties: `holds or
    /// ties at 48 of 48 points (100%: 35 shown, 13 ties; 0 against)`.
    pub fn markdown(&self) -> String {
        let t = &self.tally;
        let mut line = format!("**{}** ({})", self.word, self.robustness());
        let window = match self.claim.window {
            Window::All => format!("all of them ({})", self.claim.window_reason),
            w => format!(
                "{} ({})",
                w.label(&self.claim.axis),
                self.claim.window_reason
            ),
        };
        if t.total() == 0 {
            let _ = write!(line, " — no {} to judge over {window}.", self.unit_name);
            return line;
        }
        let percent = 100.0 * t.share();
        let _ = match t.kind {
            Kind::Difference => write!(
                line,
                " — holds at {} of {} {} ({percent:.0}%; {} ties, {} against) over {window}; \
                 ties do not count for it",
                t.holds,
                t.total(),
                self.unit_name,
                t.ties,
                t.against,
            ),
            Kind::NoDifference => write!(
                line,
                " — holds or ties at {} of {} {} ({percent:.0}%: {} shown, {} ties; {} against) \
                 over {window}; ties count for it",
                t.counting(),
                t.total(),
                self.unit_name,
                t.holds,
                t.ties,
                t.against,
            ),
        };
        let _ = write!(
            line,
            "; supported from {}%, partly from {}% of {}.",
            self.claim.thresholds.supported, self.claim.thresholds.partly, self.unit_name
        );
        line
    }

    /// A bulleted list of the units against the claim, with their numbers (empty when none):
    /// the first [`Verdict::AGAINST_LISTED`], then how many more there are.
    pub fn against_list(&self) -> String {
        let mut out = String::new();
        for u in self.against().take(Self::AGAINST_LISTED) {
            let _ = writeln!(out, "- {}: {}", u.name(), u.detail);
        }
        let more = self.tally.against.saturating_sub(Self::AGAINST_LISTED);
        if more > 0 {
            let _ = writeln!(out, "- … and {more} more {} against it", self.unit_name);
        }
        out
    }

    /// How many units against a claim [`Verdict::against_list`] names one by one.
    pub const AGAINST_LISTED: usize = 20;
}

#[cfg(test)]
mod tests {
    use super::super::{Better, Statement};
    use super::*;

    /// Two series on `n` replicates at each of `sizes`, A better than B by `gap(m)` with
    /// replicate noise of ±`noise` (deterministic).
    fn evidence(sizes: &[usize], n: usize, noise: f64, gap: impl Fn(usize) -> f64) -> Evidence {
        let mut e = Evidence::new(["A", "B"], Better::Lower);
        for &m in sizes {
            let b: Vec<f64> = (0..n).map(|r| 0.3 + 0.01 * (r % 7) as f64).collect();
            let a: Vec<f64> = b
                .iter()
                .enumerate()
                .map(|(r, x)| x - gap(m) + noise * if r % 2 == 0 { 1.0 } else { -1.0 })
                .collect();
            e.push("g", m, vec![a, b]).unwrap();
        }
        e
    }

    fn beats() -> Statement {
        Statement::Beats {
            a: "A".into(),
            b: "B".into(),
        }
    }

    #[test]
    fn identical_inputs_are_judged_identically() {
        let e = evidence(&[10, 20, 40, 80], 30, 0.01, |m| 0.02 / m as f64);
        let claim = Claim::new("c", "q", beats());
        let one = Verdict::judge(&claim, &e, "points").unwrap();
        let two = Verdict::judge(&claim, &e.clone(), "points").unwrap();
        assert_eq!(one, two);
    }

    #[test]
    fn a_clear_win_everywhere_is_robustly_supported() {
        let e = evidence(&[10, 20, 40, 80], 30, 0.001, |_| 0.05);
        let v = Verdict::judge(&Claim::new("c", "q", beats()), &e, "points").unwrap();
        assert_eq!(v.word, Word::Supported);
        assert!(v.robust(), "{}", v.robustness());
        assert_eq!(v.tally.holds, 4);
        assert!(v
            .markdown()
            .starts_with("**supported** (robust) — holds at 4 of 4 points"));
    }

    #[test]
    fn ties_count_only_for_claims_of_no_difference() {
        // No gap at all: every point a tie.
        let e = evidence(&[10, 20, 40, 80], 30, 0.01, |_| 0.0);
        let beats = Verdict::judge(&Claim::new("c", "q", beats()), &e, "points").unwrap();
        assert_eq!(beats.tally.ties, 4);
        assert_eq!(beats.word, Word::NotSupported);
        let no_worse = Statement::NoWorse {
            a: "A".into(),
            b: "B".into(),
        };
        let v = Verdict::judge(&Claim::new("c", "q", no_worse), &e, "points").unwrap();
        assert_eq!(v.tally.ties, 4);
        assert_eq!(v.word, Word::Supported);
    }

    #[test]
    fn ties_at_the_tolerance() {
        // A constant advantage of exactly 0.01 on every replicate: its interval is the point
        // 0.01, which a margin of 0.01 does not exceed.
        let mut e = Evidence::new(["A", "B"], Better::Lower);
        e.push("g", 5, vec![vec![0.20; 10], vec![0.21; 10]])
            .unwrap();
        let d = e.difference(0, "A", "B").unwrap().unwrap();
        let same = |delta| Statement::AboutTheSame {
            a: "A".into(),
            b: "B".into(),
            delta,
        };
        let v = |delta| Verdict::judge(&Claim::new("c", "q", same(delta)), &e, "points").unwrap();
        assert_eq!(v(d.upper).units[0].judgement, Judgement::Holds);
        assert_eq!(v(d.upper * 0.5).units[0].judgement, Judgement::Against);
    }

    #[test]
    fn a_window_change_that_flips_the_verdict_is_named() {
        // A wins clearly at m ≤ 40, loses clearly from 80 on.
        let sizes = [10, 20, 40, 80, 160];
        let e = evidence(&sizes, 30, 0.001, |m| if m <= 40 { 0.05 } else { -0.05 });
        let claim = Claim::new("c", "q", beats()).window(Window::range(10, 40), "small m");
        let v = Verdict::judge(&claim, &e, "points").unwrap();
        assert_eq!(v.word, Word::Supported);
        // Shifting the window up to 20…80 leaves 2 of 3 (67%): partly supported.
        assert!(!v.robust());
        assert!(v
            .flips
            .iter()
            .any(|f| f.change == "window m = 20…80" && f.word == Word::PartlySupported));
        assert!(v.robustness().starts_with("borderline: "));
    }

    #[test]
    fn a_share_near_a_threshold_is_borderline() {
        // Holds at 4 of 5 points (80%): supported at 75%, not at 85%.
        let sizes = [10, 20, 40, 80, 160];
        let e = evidence(&sizes, 30, 0.001, |m| if m == 160 { 0.0 } else { 0.05 });
        let v = Verdict::judge(&Claim::new("c", "q", beats()), &e, "points").unwrap();
        assert_eq!(v.word, Word::Supported);
        assert!(v
            .flips
            .iter()
            .any(|f| f.change.starts_with("thresholds 10 points higher")));
    }

    #[test]
    fn crossing_curves_and_shrinking_gaps() {
        let sizes = [10, 20, 40, 80, 160];
        let e = evidence(&sizes, 40, 0.002, |m| 0.08 / (m as f64).sqrt() - 0.012);
        // gap: 0.0133, 0.0059, 0.0006 (tie), −0.0031, −0.0057
        let crosses = Statement::Crosses {
            a: "A".into(),
            b: "B".into(),
            late: Window::range(80, 160),
        };
        let claim = Claim::new("x", "q", crosses).window(Window::range(10, 40), "small");
        let v = Verdict::judge(&claim, &e, "groups").unwrap();
        assert_eq!(v.tally.holds, 1, "{:?}", v.units);
        let shrinks = Statement::GapShrinks {
            a: "A".into(),
            b: "B".into(),
            late: Window::range(80, 160),
        };
        let claim = Claim::new("s", "q", shrinks).window(Window::range(10, 20), "small");
        let v = Verdict::judge(&claim, &e, "groups").unwrap();
        assert_eq!(v.word, Word::Supported, "{:?}", v.units);
    }

    #[test]
    fn units_claims_must_use_from_units() {
        let e = evidence(&[10], 5, 0.0, |_| 0.0);
        let claim = Claim::new(
            "u",
            "q",
            Statement::Units {
                what: "x".into(),
                kind: Kind::Difference,
            },
        );
        assert!(Verdict::judge(&claim, &e, "points").is_err());
        let v = Verdict::from_units(&claim, &[1, 2], "setups", |_, _| {
            Ok(vec![
                Unit::point("s", 1, Judgement::Holds, String::new()),
                Unit::point("s", 2, Judgement::Tie, String::new()),
            ])
        })
        .unwrap();
        assert_eq!(v.word, Word::PartlySupported);
    }
}
