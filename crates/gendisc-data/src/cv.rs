//! Choosing a hyper-parameter by stratified k-fold cross-validation along a warm-started path
//! of fits: the one procedure behind GDT's `λ` (Bouchard & Triggs 2004, §3) and logistic
//! regression's prior variance.
//!
//! The estimator supplies the path — a fit per grid value on a fold's training rows, each
//! starting from the previous one — and a held-out score per fit; [`path_scores`] draws the
//! folds, averages the scores over them and [`best_index`] picks the grid value. Both are fixed
//! functions of their inputs (folds from a `ChaCha8Rng` seeded with `seed`, scores summed fold
//! by fold in order), so a selection is the same bits on every platform and thread count.
//!
//! ```
//! use gendisc_data::cv::{best_index, path_scores};
//!
//! let y = [0, 0, 0, 1, 1, 1];
//! // A "path" of three settings whose held-out score is the setting itself.
//! let scores = path_scores(&y[..], 3, 0, 3, |_, split| {
//!     assert_eq!(split.test.len(), 2);
//!     Ok(vec![0.5, 0.25, 0.25])
//! })?;
//! assert_eq!(scores, [0.5, 0.25, 0.25]);
//! assert_eq!(best_index(&scores), 1); // a tie goes to the earlier setting
//! # Ok::<(), gendisc_core::Error>(())
//! ```

use gendisc_core::{ConditionalModel, Error, Result};
use ndarray::{ArrayView1, ArrayView2};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
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
        if let CvCriterion::ClassCost(costs) = self {
            if let Some((k, v)) = costs
                .iter()
                .enumerate()
                .find(|(_, v)| !(v.is_finite() && **v >= 0.0))
            {
                return Err(Error::invalid_parameter(
                    "criterion",
                    format!("the cost of class {k} is {v}; costs must be finite and ≥ 0"),
                ));
            }
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

/// The cross-validated score of every point of a path: the mean over the `n_folds` folds of a
/// stratified k-fold split of `y` (drawn from `ChaCha8Rng::seed_from_u64(seed)`, see
/// [`stratified_k_fold`]) of `fold_scores(f, split)`, which fits the path on `split.train`
/// and returns one held-out score per point, scored on `split.test`.
///
/// Errors: those of [`stratified_k_fold`] (`n_folds < 2`, more folds than rows, empty `y`);
/// [`Error::ShapeMismatch`] when a fold returns other than `n_points` scores; the first error
/// of `fold_scores`, whose fold index `f` (from 0) lets the caller say which fold failed.
pub fn path_scores<'a, F>(
    y: impl Into<ArrayView1<'a, usize>>,
    n_folds: usize,
    seed: u64,
    n_points: usize,
    mut fold_scores: F,
) -> Result<Vec<f64>>
where
    F: FnMut(usize, &Split) -> Result<Vec<f64>>,
{
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let folds = stratified_k_fold(y, n_folds, &mut rng)?;
    let mut totals = vec![0.0; n_points];
    for (f, fold) in folds.iter().enumerate() {
        let scores = fold_scores(f, fold)?;
        if scores.len() != n_points {
            return Err(Error::shape_mismatch(
                format!("held-out scores of fold {} vs points of the path", f + 1),
                n_points,
                scores.len(),
            ));
        }
        for (total, score) in totals.iter_mut().zip(scores) {
            *total += score;
        }
    }
    Ok(totals.iter().map(|t| t / folds.len() as f64).collect())
}

/// The index of the point a selection picks: the smallest score, ties (within `1e-12`) going
/// to the earliest — order the path so that the earliest point is the one to prefer on a tie
/// (the more regularised, lower-variance fit).
pub fn best_index(scores: &[f64]) -> usize {
    scores
        .iter()
        .enumerate()
        .fold(0, |b, (i, &s)| if s < scores[b] - 1e-12 { i } else { b })
}

/// Says which fit of a cross-validation (`"fold 2 of 5"`, `"the refit on all the training
/// data"`) stopped without converging; other errors pass unchanged.
pub fn in_which_fit(error: Error, fit: &str) -> Error {
    match error {
        Error::NotConverged {
            what,
            iterations,
            detail,
        } => Error::NotConverged {
            what: format!("{what}, {fit} of the cross-validation"),
            iterations,
            detail,
        },
        other => other,
    }
}

/// Checks a stored selection, as a model file's invariants do: one finite, non-negative score
/// per grid value (field `scores_field`), and `chosen` the grid value the scores select by
/// [`best_index`] (field `chosen_field`). The grid's own order and range are the caller's.
///
/// Errors: [`Error::InvalidModel`] of `kind` naming the field.
pub fn check_selection(
    kind: &str,
    grid: &[f64],
    scores: &[f64],
    chosen: f64,
    scores_field: &str,
    chosen_field: &str,
) -> Result<()> {
    let invalid = |field: &str, reason: String| {
        gendisc_core::model_file::invariants::invalid(kind, field, reason)
    };
    if scores.len() != grid.len() {
        return Err(invalid(
            scores_field,
            format!(
                "{} scores for a grid of {} values",
                scores.len(),
                grid.len()
            ),
        ));
    }
    if let Some((i, s)) = scores
        .iter()
        .enumerate()
        .find(|(_, s)| !(s.is_finite() && **s >= 0.0))
    {
        return Err(invalid(
            scores_field,
            format!("score {i} is {s}; scores must be finite and ≥ 0"),
        ));
    }
    if grid.is_empty() {
        return Ok(());
    }
    let selected = grid[best_index(scores)];
    if chosen != selected {
        return Err(invalid(
            chosen_field,
            format!("the choice is {chosen}, but the scores select {selected}"),
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
        let scores = path_scores(&y[..], 4, 7, 2, |f, split| {
            assert_eq!(split.test.len(), 2);
            Ok(vec![f as f64, 1.0])
        })
        .unwrap();
        assert_eq!(scores, [1.5, 1.0]);
    }

    #[test]
    fn a_fold_with_the_wrong_number_of_scores_is_an_error() {
        let y = [0, 0, 1, 1];
        let error = path_scores(&y[..], 2, 0, 3, |_, _| Ok(vec![0.0])).unwrap_err();
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
