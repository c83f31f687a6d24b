//! Choosing a hyper-parameter by stratified k-fold cross-validation along a warm-started path
//! of fits: the one procedure behind GDT's `λ` (Bouchard & Triggs 2004, §3) and logistic
//! regression's prior variance.
//!
//! The estimator supplies the path — a fit per grid value on a fold's training rows, each
//! starting from the previous one — and a held-out score per fit; [`path_curve`] draws the
//! folds (stratified k-fold, repeated if asked: [`Folds`]), averages the scores over them with
//! their standard errors ([`CvCurve`]) and a [`SelectionRule`] picks the grid value: the
//! minimum, or the one-standard-error rule. All are fixed functions of their inputs (folds from
//! a `ChaCha8Rng` seeded with `seed`, scores summed fold by fold in order), so a selection is
//! the same bits on every platform and thread count.
//!
//! ```
//! use gendisc_data::cv::{path_curve, Folds, SelectionRule};
//!
//! let y = [0, 0, 0, 1, 1, 1];
//! let folds = Folds { n_folds: 3, n_repeats: 1, seed: 0 };
//! // A "path" of three settings whose held-out score is the setting itself.
//! let curve = path_curve(&y[..], folds, 3, |_, _, split| {
//!     assert_eq!(split.test.len(), 2);
//!     Ok(vec![0.5, 0.25, 0.25])
//! })?;
//! assert_eq!(curve.scores, [0.5, 0.25, 0.25]);
//! // A tie goes to the earlier setting.
//! assert_eq!(SelectionRule::MinimumScore.select(&curve.scores, &curve.standard_errors)?, 1);
//! # Ok::<(), gendisc_core::Error>(())
//! ```

use gendisc_core::{ConditionalModel, Error, Result};
use ndarray::{ArrayView1, ArrayView2};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::splits::{stratified_k_fold, Split};

/// What cross-validation minimises on the held-out rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CvCriterion {
    /// The error rate (Bouchard & Triggs 2004, §3).
    ErrorRate,
    /// The mean logistic loss `−log p(y_i | x_i)`.
    LogLoss,
    /// The mean misclassification cost, `costs[y_i]` for a misclassified row of class `y_i`
    /// (e.g. `[1, 5]` for Statlog heart, where a missed disease costs 5).
    ClassCost(Vec<f64>),
}

impl CvCriterion {
    /// Checks the criterion's own settings: every class cost finite and `≥ 0`.
    ///
    /// Errors: [`Error::InvalidParameter`] (`criterion`) naming the first bad cost.
    pub fn validate(&self) -> Result<()> {
        if let CvCriterion::ClassCost(costs) = self
            && let Some((k, v)) = costs
                .iter()
                .enumerate()
                .find(|(_, v)| !(v.is_finite() && **v >= 0.0))
        {
            return Err(Error::invalid_parameter(
                "criterion",
                format!("the cost of class {k} is {v}; costs must be finite and ≥ 0"),
            ));
        }
        Ok(())
    }

    /// Checks that a cost criterion has one cost per class of a `n_classes`-class problem.
    ///
    /// Errors: [`Error::ShapeMismatch`].
    pub fn check_classes(&self, n_classes: usize) -> Result<()> {
        match self {
            CvCriterion::ClassCost(costs) if costs.len() != n_classes => {
                Err(Error::shape_mismatch(
                    "length of the class costs vs number of classes",
                    n_classes,
                    costs.len(),
                ))
            }
            _ => Ok(()),
        }
    }
}

/// The held-out score of `model` on `(x, y)` under `criterion`, weighted by `w` (each row's
/// contribution times its weight, divided by the total weight).
///
/// Errors: [`Error::Empty`] when the rows' total weight is not positive; the model's errors.
pub fn score<M: ConditionalModel + ?Sized>(
    model: &M,
    criterion: &CvCriterion,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    w: Option<ArrayView1<'_, f64>>,
) -> Result<f64> {
    let weight = |i: usize| w.map_or(1.0, |w| w[i]);
    let total: f64 = (0..y.len()).map(weight).sum();
    if total <= 0.0 {
        return Err(Error::Empty {
            what: "held-out rows".into(),
        });
    }
    let sum: f64 = match criterion {
        CvCriterion::LogLoss => {
            let lp = model.predict_log_proba(x)?;
            (0..y.len()).map(|i| -weight(i) * lp[[i, y[i]]]).sum()
        }
        CvCriterion::ErrorRate | CvCriterion::ClassCost(_) => {
            let pred = model.predict(x)?;
            (0..y.len())
                .filter(|&i| pred[i] != y[i])
                .map(|i| {
                    weight(i)
                        * match criterion {
                            CvCriterion::ClassCost(c) => c[y[i]],
                            _ => 1.0,
                        }
                })
                .sum()
        }
    };
    Ok(sum / total)
}

/// The cross-validated curve of a path: per point, the mean of the held-out scores over every
/// fold of every repetition, and its standard error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CvCurve {
    /// The mean held-out score of each point.
    pub scores: Vec<f64>,
    /// The standard error of each mean: the sample standard deviation of the point's fold
    /// scores over the square root of their number. The folds share training rows, so this
    /// understates the mean's uncertainty; it is the conventional yardstick of the one-SE rule
    /// (Hastie, Tibshirani & Friedman 2009, §7.10), not a confidence interval.
    pub standard_errors: Vec<f64>,
}

/// How the folds are drawn: `n_repeats` stratified `n_folds`-fold splits of the rows, drawn one
/// after another from `ChaCha8Rng::seed_from_u64(seed)` (see [`stratified_k_fold`]). One
/// repetition is plain stratified k-fold; more average out the luck of one split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Folds {
    /// Folds per repetition (≥ 2).
    pub n_folds: usize,
    /// Repetitions (≥ 1).
    pub n_repeats: usize,
    /// The seed of the splits.
    pub seed: u64,
}

/// One repetition: the default of every cross-validated estimator, and the value a stored
/// setting written before repetitions existed reads as (`#[serde(default = …)]`).
pub fn one_repetition() -> usize {
    1
}

impl Folds {
    /// Checks `n_folds ≥ 2` and `n_repeats ≥ 1`.
    ///
    /// Errors: [`Error::InvalidParameter`] naming `n_folds` or `n_repeats`.
    pub fn validate(&self) -> Result<()> {
        if self.n_folds < 2 {
            return Err(Error::invalid_parameter(
                "n_folds",
                format!(
                    "cross-validation needs at least 2 folds, got {}",
                    self.n_folds
                ),
            ));
        }
        if self.n_repeats < 1 {
            return Err(Error::invalid_parameter(
                "n_repeats",
                "cross-validation needs at least 1 repetition, got 0",
            ));
        }
        Ok(())
    }

    /// `"fold f of K"`, with the repetition when there are several.
    pub fn describe(&self, repeat: usize, fold: usize) -> String {
        if self.n_repeats > 1 {
            format!(
                "fold {} of {} in repetition {} of {}",
                fold + 1,
                self.n_folds,
                repeat + 1,
                self.n_repeats
            )
        } else {
            format!("fold {} of {}", fold + 1, self.n_folds)
        }
    }
}

/// The cross-validated curve of a path: for every fold of every repetition of `folds` over
/// `y`, `fold_scores(repeat, fold, split)` fits the path on `split.train` and returns one
/// held-out score per point, scored on `split.test`; the curve is their mean and standard
/// error per point ([`CvCurve`]).
///
/// A row that is the only one of its class is never held out: it stays on the training side
/// of every split, so that every fit sees every class that has rows (no fit could score that
/// row on a model that never saw its class). A fold left without held-out rows by that is
/// skipped, and averaged over are the folds that remain.
///
/// The folds are fitted in parallel (rayon's pool); the splits are drawn first, in order, and
/// the sums run fold by fold in order, so the curve is the same bits on every platform and
/// thread count.
///
/// Errors: those of [`Folds::validate`] and [`stratified_k_fold`] (more folds than rows, empty
/// `y`); [`Error::TooFewRows`] when fewer than two folds have rows to hold out;
/// [`Error::ShapeMismatch`] when a fold returns other than `n_points` scores; the error
/// of `fold_scores` in the first fold, in order, that fails ([`Folds::describe`] names it).
pub fn path_curve<'a, F>(
    y: impl Into<ArrayView1<'a, usize>>,
    folds: Folds,
    n_points: usize,
    fold_scores: F,
) -> Result<CvCurve>
where
    F: Fn(usize, usize, &Split) -> Result<Vec<f64>> + Sync,
{
    folds.validate()?;
    let y = y.into();
    let mut rng = ChaCha8Rng::seed_from_u64(folds.seed);
    let only_row_of_its_class = rows_alone_in_their_class(y);
    let mut splits = Vec::with_capacity(folds.n_folds * folds.n_repeats);
    for repeat in 0..folds.n_repeats {
        for (f, split) in stratified_k_fold(y, folds.n_folds, &mut rng)?
            .into_iter()
            .enumerate()
        {
            let split = kept_in_training(split, &only_row_of_its_class);
            if !split.test.is_empty() {
                splits.push((repeat, f, split));
            }
        }
    }
    if splits.len() < 2 {
        return Err(Error::TooFewRows {
            what: "rows that cross-validation can hold out (rows of classes with another row)"
                .into(),
            needed: 2,
            found: y.len() - only_row_of_its_class.iter().filter(|&&alone| alone).count(),
        });
    }
    let all: Vec<Vec<f64>> = splits
        .par_iter()
        .map(|(repeat, f, split)| {
            let scores = fold_scores(*repeat, *f, split)?;
            if scores.len() != n_points {
                return Err(Error::shape_mismatch(
                    format!(
                        "held-out scores of {} vs points of the path",
                        folds.describe(*repeat, *f)
                    ),
                    n_points,
                    scores.len(),
                ));
            }
            Ok(scores)
        })
        // Collected in order first: rayon's own collect into a `Result` may return any fold's
        // error, and the documented one is the first.
        .collect::<Vec<Result<Vec<f64>>>>()
        .into_iter()
        .collect::<Result<_>>()?;
    let count = all.len() as f64;
    let scores: Vec<f64> = (0..n_points)
        .map(|p| all.iter().fold(0.0, |total, fold| total + fold[p]) / count)
        .collect();
    let standard_errors = (0..n_points)
        .map(|p| {
            let squares = all
                .iter()
                .fold(0.0, |total, fold| total + (fold[p] - scores[p]).powi(2));
            (squares / (count - 1.0)).sqrt() / count.sqrt()
        })
        .collect();
    Ok(CvCurve {
        scores,
        standard_errors,
    })
}

/// For each row, whether it is the only row of its class.
fn rows_alone_in_their_class(y: ArrayView1<'_, usize>) -> Vec<bool> {
    let mut counts = vec![0_usize; y.iter().max().map_or(0, |&m| m + 1)];
    y.iter().for_each(|&c| counts[c] += 1);
    y.iter().map(|&c| counts[c] == 1).collect()
}

/// `split` with the rows marked in `keep` moved from its test to its training side.
fn kept_in_training(split: Split, keep: &[bool]) -> Split {
    if !split.test.iter().any(|&i| keep[i]) {
        return split;
    }
    let (moved, test): (Vec<usize>, Vec<usize>) = split.test.into_iter().partition(|&i| keep[i]);
    let mut train = split.train;
    train.extend(moved);
    train.sort_unstable();
    Split { train, test }
}

/// The index of the smallest score, ties (within `1e-12`) going to the earliest: the
/// [`SelectionRule::MinimumScore`] choice.
pub fn best_index(scores: &[f64]) -> usize {
    best_candidate(scores, |_| true).unwrap_or(0)
}

/// The index of the smallest score among the candidates, ties (within `1e-12`) going to the
/// earliest; `None` when there is no candidate.
fn best_candidate(scores: &[f64], is_candidate: impl Fn(usize) -> bool) -> Option<usize> {
    (0..scores.len())
        .filter(|&i| is_candidate(i))
        .fold(None, |best, i| match best {
            Some(b) if scores[i] < scores[b] - 1e-12 => Some(i),
            Some(b) => Some(b),
            None => Some(i),
        })
}

/// Which point of a path the cross-validated curve selects. The path is ordered so that its
/// earliest point is the one to prefer on a tie: the more regularised, lower-variance fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SelectionRule {
    /// The smallest mean score, ties (within `1e-12`) going to the earliest point.
    #[default]
    MinimumScore,
    /// The one-standard-error rule (Breiman et al. 1984; Hastie, Tibshirani & Friedman 2009,
    /// §7.10): the earliest point whose mean score is at most the minimum plus the minimum's
    /// standard error — the most regularised fit that cross-validation cannot tell from the
    /// best.
    OneStandardError,
}

impl SelectionRule {
    /// Whether this is the default rule, [`SelectionRule::MinimumScore`] (which model files
    /// leave unwritten, as files from before the rule existed do).
    pub fn is_minimum_score(&self) -> bool {
        *self == SelectionRule::MinimumScore
    }

    /// The rule in words: `"minimum score"` or `"one standard error"`.
    pub fn describe(&self) -> &'static str {
        match self {
            SelectionRule::MinimumScore => "minimum score",
            SelectionRule::OneStandardError => "one standard error",
        }
    }

    /// The index of the point the rule picks from `scores` and, for the one-SE rule, their
    /// `standard_errors`.
    ///
    /// Errors: [`Error::ShapeMismatch`] when the one-SE rule has not one standard error per
    /// score.
    pub fn select(&self, scores: &[f64], standard_errors: &[f64]) -> Result<usize> {
        self.select_among(scores, standard_errors, &[])
    }

    /// [`Self::select`] restricted to the points whose entry of `candidates` is true — a point
    /// is left out where some fit has no estimate there (a GDT fit at `λ = 0` on separated
    /// rows has no finite maximiser; one at its iteration cap has not reached it). An empty
    /// `candidates` makes every point one.
    ///
    /// Errors: [`Error::ShapeMismatch`] when `candidates` (if given) or, for the one-SE rule,
    /// `standard_errors` has not one entry per score; [`Error::Infeasible`] when no point is a
    /// candidate.
    pub fn select_among(
        &self,
        scores: &[f64],
        standard_errors: &[f64],
        candidates: &[bool],
    ) -> Result<usize> {
        if !candidates.is_empty() && candidates.len() != scores.len() {
            return Err(Error::shape_mismatch(
                "candidates vs scores of the cross-validated curve",
                scores.len(),
                candidates.len(),
            ));
        }
        let is_candidate = |i: usize| candidates.get(i).copied().unwrap_or(true);
        let best = best_candidate(scores, is_candidate).ok_or_else(|| Error::Infeasible {
            what: "the choice on the cross-validated curve".into(),
            detail: format!(
                "none of its {} points is a candidate (has an estimate to score)",
                scores.len()
            ),
        })?;
        match self {
            SelectionRule::MinimumScore => Ok(best),
            SelectionRule::OneStandardError => {
                if standard_errors.len() != scores.len() {
                    return Err(Error::shape_mismatch(
                        "standard errors vs scores of the cross-validated curve",
                        scores.len(),
                        standard_errors.len(),
                    ));
                }
                let bound = scores[best] + standard_errors[best] + 1e-12;
                Ok((0..scores.len())
                    .position(|i| is_candidate(i) && scores[i] <= bound)
                    .unwrap_or(best))
            }
        }
    }
}

/// Says which fit of a cross-validation (`"fold 2 of 5"`, `"the refit on all the training
/// data"`) an error of the fit arose in — a fit that stopped without converging, or whose rows
/// could not be fitted (too few of them, a covariance that is not positive definite, a failed
/// factorisation or program) — since a fold's rows are not the rows the caller gave; other
/// errors (of the settings or the input itself) pass unchanged.
pub fn in_which_fit(error: Error, fit: &str) -> Error {
    let within = |what: String| format!("{what}, {fit} of the cross-validation");
    match error {
        Error::NotConverged {
            what,
            iterations,
            detail,
        } => Error::NotConverged {
            what: within(what),
            iterations,
            detail,
        },
        Error::TooFewRows {
            what,
            needed,
            found,
        } => Error::TooFewRows {
            what: within(what),
            needed,
            found,
        },
        Error::NotPositiveDefinite {
            what,
            detail,
            columns,
        } => Error::NotPositiveDefinite {
            what: within(what),
            detail,
            columns,
        },
        Error::Linalg { what, detail } => Error::Linalg {
            what: within(what),
            detail,
        },
        Error::Numerical { what, detail } => Error::Numerical {
            what: within(what),
            detail,
        },
        Error::Infeasible { what, detail } => Error::Infeasible {
            what: within(what),
            detail,
        },
        other => other,
    }
}

/// A cross-validated selection as a model file stores it, for [`check_selection`].
#[derive(Debug, Clone, Copy)]
pub struct StoredSelection<'a> {
    /// The grid, in the order of the path.
    pub grid: &'a [f64],
    /// The mean held-out score of each grid value.
    pub scores: &'a [f64],
    /// Their standard errors (empty in files written before they were recorded).
    pub standard_errors: &'a [f64],
    /// Which grid values could be chosen (empty: every one); see
    /// [`SelectionRule::select_among`].
    pub candidates: &'a [bool],
    /// The rule that chose.
    pub rule: SelectionRule,
    /// The chosen grid value.
    pub chosen: f64,
}

/// Checks a stored selection, as a model file's invariants do: one score per grid value (field
/// `<prefix>.scores`) and, when stored (files written before standard errors were recorded
/// have none), one standard error per grid value (`<prefix>.standard_errors`), each finite and
/// non-negative, or NaN where the value is no candidate (not scored); and `chosen` the grid
/// value that `rule` selects among the candidates (`<prefix>.<chosen_field>`). The grid's own
/// order and range are the caller's.
///
/// Errors: [`Error::InvalidModel`] of `kind` naming the field.
pub fn check_selection(
    kind: &str,
    prefix: &str,
    chosen_field: &str,
    stored: StoredSelection<'_>,
) -> Result<()> {
    let StoredSelection {
        grid,
        scores,
        standard_errors,
        candidates,
        rule,
        chosen,
    } = stored;
    let invalid = |field: &str, reason: String| {
        gendisc_core::model_file::invariants::invalid(kind, &format!("{prefix}.{field}"), reason)
    };
    let columns = [
        ("scores", scores, false),
        ("standard_errors", standard_errors, true),
    ];
    for (field, values, optional) in columns {
        if optional && values.is_empty() && rule == SelectionRule::MinimumScore {
            continue;
        }
        if values.len() != grid.len() {
            return Err(invalid(
                field,
                format!(
                    "{} values for a grid of {} values",
                    values.len(),
                    grid.len()
                ),
            ));
        }
        // A value that cannot be chosen may have no score (NaN: it was not fitted).
        let candidate = |i: usize| candidates.get(i).copied().unwrap_or(true);
        if let Some((i, s)) = values
            .iter()
            .enumerate()
            .find(|&(i, s)| !(s.is_finite() && *s >= 0.0) && (candidate(i) || !s.is_nan()))
        {
            return Err(invalid(
                field,
                format!(
                    "value {i} is {s}; it must be finite and ≥ 0{}",
                    if candidate(i) { "" } else { ", or NaN" }
                ),
            ));
        }
    }
    if grid.is_empty() {
        return Ok(());
    }
    let selected = grid[rule
        .select_among(scores, standard_errors, candidates)
        .map_err(|e| invalid(chosen_field, e.to_string()))?];
    if chosen != selected {
        return Err(invalid(
            chosen_field,
            format!("the choice is {chosen}, but the scores select {selected} by {rule:?}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_averaged_over_the_folds() {
        let y = [0, 0, 0, 0, 1, 1, 1, 1];
        let folds = Folds {
            n_folds: 4,
            n_repeats: 1,
            seed: 7,
        };
        let curve = path_curve(&y[..], folds, 2, |_, f, split| {
            assert_eq!(split.test.len(), 2);
            Ok(vec![f as f64, 1.0])
        })
        .unwrap();
        assert_eq!(curve.scores, [1.5, 1.0]);
        // The fold scores 0, 1, 2, 3: sample variance 5/3, over 4 folds.
        assert!((curve.standard_errors[0] - (5.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-15);
        assert_eq!(curve.standard_errors[1], 0.0);
    }

    #[test]
    fn repetitions_draw_new_splits_and_pool_their_folds() {
        let y = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1];
        let folds = Folds {
            n_folds: 3,
            n_repeats: 4,
            seed: 1,
        };
        let seen = std::sync::Mutex::new(Vec::new());
        let curve = path_curve(&y[..], folds, 1, |r, f, split| {
            seen.lock().unwrap().push((r, f, split.test.clone()));
            Ok(vec![r as f64])
        })
        .unwrap();
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        assert_eq!(seen.len(), 12);
        assert_eq!(curve.scores, [1.5]);
        let first: Vec<_> = seen
            .iter()
            .filter(|s| s.0 == 0)
            .map(|s| s.2.clone())
            .collect();
        let later: Vec<_> = seen
            .iter()
            .filter(|s| s.0 > 0)
            .map(|s| s.2.clone())
            .collect();
        assert!(
            later.chunks(3).any(|splits| splits != first.as_slice()),
            "every repetition drew the same split"
        );
        // One repetition is the plain k-fold: the first three folds of the same seed.
        let plain = std::sync::Mutex::new(Vec::new());
        let one = Folds {
            n_repeats: 1,
            ..folds
        };
        path_curve(&y[..], one, 1, |_, f, split| {
            plain.lock().unwrap().push((f, split.test.clone()));
            Ok(vec![0.0])
        })
        .unwrap();
        let mut plain = plain.into_inner().unwrap();
        plain.sort();
        let plain: Vec<_> = plain.into_iter().map(|(_, test)| test).collect();
        assert_eq!(plain, first);
    }

    #[test]
    fn only_candidates_are_chosen() {
        let scores = [0.30, 0.24, 0.21, 0.20, 0.22];
        let errors = [0.01, 0.01, 0.01, 0.015, 0.01];
        let candidates = [true, true, false, false, true];
        // The best candidate is 0.22 (index 4); 0.21 and 0.20 are left out even as the
        // one-SE rule's earliest point within 0.22 + 0.01.
        for rule in [SelectionRule::MinimumScore, SelectionRule::OneStandardError] {
            assert_eq!(rule.select_among(&scores, &errors, &candidates).unwrap(), 4);
        }
        let candidates = [true, false, true, true, true];
        assert_eq!(
            SelectionRule::OneStandardError
                .select_among(&scores, &errors, &candidates)
                .unwrap(),
            2
        );
        // Every point a candidate: the plain choice.
        assert_eq!(
            SelectionRule::MinimumScore
                .select_among(&scores, &errors, &[])
                .unwrap(),
            3
        );
        assert!(matches!(
            SelectionRule::MinimumScore.select_among(&scores, &errors, &[false; 5]),
            Err(Error::Infeasible { .. })
        ));
        assert!(matches!(
            SelectionRule::MinimumScore.select_among(&scores, &errors, &[true; 4]),
            Err(Error::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn the_one_se_rule_takes_the_earliest_point_within_one_error_of_the_best() {
        let scores = [0.30, 0.24, 0.21, 0.20, 0.22];
        let errors = [0.01, 0.01, 0.01, 0.015, 0.01];
        assert_eq!(
            SelectionRule::MinimumScore
                .select(&scores, &errors)
                .unwrap(),
            3
        );
        // 0.20 + 0.015 = 0.215: 0.21 is within it, 0.24 is not.
        assert_eq!(
            SelectionRule::OneStandardError
                .select(&scores, &errors)
                .unwrap(),
            2
        );
        assert!(SelectionRule::OneStandardError
            .select(&scores, &[0.1])
            .is_err());
        assert!(Folds {
            n_folds: 5,
            n_repeats: 0,
            seed: 0
        }
        .validate()
        .is_err());
    }

    #[test]
    fn the_only_row_of_a_class_is_never_held_out() {
        // Class 2 has one row (index 4); the other rows are dealt to the folds as usual.
        let y = [0, 0, 0, 1, 2, 1, 1, 0];
        let folds = Folds {
            n_folds: 3,
            n_repeats: 2,
            seed: 5,
        };
        let seen = std::sync::Mutex::new(Vec::new());
        path_curve(&y[..], folds, 1, |_, _, split| {
            seen.lock().unwrap().push(split.clone());
            Ok(vec![0.0])
        })
        .unwrap();
        let seen = seen.into_inner().unwrap();
        assert_eq!(seen.len(), 6);
        for split in &seen {
            assert!(split.train.contains(&4) && !split.test.contains(&4));
            assert!(split.train.windows(2).all(|w| w[0] < w[1]));
            assert_eq!(split.train.len() + split.test.len(), y.len());
        }
        // Every other row is held out exactly once per repetition.
        for row in (0..y.len()).filter(|&i| i != 4) {
            let held = seen.iter().filter(|s| s.test.contains(&row)).count();
            assert_eq!(held, 2, "row {row}");
        }
    }

    #[test]
    fn a_fold_left_without_held_out_rows_is_skipped() {
        // Four folds of one row each: the folds of the single rows of classes 0 and 1 are
        // empty once those rows stay in training, and two folds remain.
        let y = [0, 1, 2, 2];
        let folds = Folds {
            n_folds: 4,
            n_repeats: 1,
            seed: 0,
        };
        let count = std::sync::atomic::AtomicUsize::new(0);
        let curve = path_curve(&y[..], folds, 1, |_, _, split| {
            assert_eq!(split.test.len(), 1);
            count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok(vec![split.test[0] as f64])
        })
        .unwrap();
        assert_eq!(count.into_inner(), 2);
        assert_eq!(curve.scores, [2.5]);
        // Only single rows: nothing to hold out, an error rather than an empty mean.
        let error = path_curve(
            &[0, 1, 2][..],
            Folds {
                n_folds: 3,
                ..folds
            },
            1,
            |_, _, _| Ok(vec![0.0]),
        )
        .unwrap_err();
        assert!(
            matches!(
                error,
                Error::TooFewRows {
                    needed: 2,
                    found: 0,
                    ..
                }
            ),
            "{error}"
        );
    }

    #[test]
    fn errors_of_a_fold_say_which_fold() {
        let fold = "fold 2 of 5";
        let too_few = Error::TooFewRows {
            what: "LDA's pooled covariance".into(),
            needed: 7,
            found: 3,
        };
        assert_eq!(
            in_which_fit(too_few, fold).to_string(),
            "LDA's pooled covariance, fold 2 of 5 of the cross-validation needs at least 7 rows, \
             found 3"
        );
        let singular = Error::NotPositiveDefinite {
            what: "QDA covariance".into(),
            detail: None,
            columns: vec![1],
        };
        match in_which_fit(singular, fold) {
            Error::NotPositiveDefinite { what, columns, .. } => {
                assert!(
                    what.ends_with("fold 2 of 5 of the cross-validation"),
                    "{what}"
                );
                assert_eq!(columns, [1]);
            }
            other => panic!("{other}"),
        }
        // An error of the settings is the caller's, not the fold's.
        let setting = || Error::invalid_parameter("grid", "empty");
        assert_eq!(
            in_which_fit(setting(), fold).to_string(),
            setting().to_string()
        );
    }

    #[test]
    fn a_fold_with_the_wrong_number_of_scores_is_an_error() {
        let y = [0, 0, 1, 1];
        let folds = Folds {
            n_folds: 2,
            n_repeats: 1,
            seed: 0,
        };
        let error = path_curve(&y[..], folds, 3, |_, _, _| Ok(vec![0.0])).unwrap_err();
        assert!(matches!(
            error,
            Error::ShapeMismatch {
                expected: 3,
                found: 1,
                ..
            }
        ));
    }

    #[test]
    fn the_first_of_tied_scores_is_chosen() {
        assert_eq!(best_index(&[0.3, 0.2, 0.2 + 1e-13, 0.25]), 1);
        assert_eq!(best_index(&[0.1, 0.2]), 0);
        assert_eq!(best_index(&[0.2, 0.1]), 1);
    }

    #[test]
    fn costs_are_validated() {
        assert!(CvCriterion::ClassCost(vec![1.0, -1.0]).validate().is_err());
        assert!(CvCriterion::ClassCost(vec![1.0, f64::NAN])
            .validate()
            .is_err());
        assert!(CvCriterion::ClassCost(vec![1.0, 5.0]).validate().is_ok());
        assert!(CvCriterion::ClassCost(vec![1.0, 5.0])
            .check_classes(3)
            .is_err());
        assert!(CvCriterion::ErrorRate.check_classes(3).is_ok());
    }
}
