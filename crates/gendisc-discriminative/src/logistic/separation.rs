//! Detecting complete and quasi-complete separation, where the maximum-likelihood estimate of
//! a logistic regression does not exist (Albert & Anderson 1984, *On the existence of maximum
//! likelihood estimates in logistic regression models*, Biometrika 71(1)).
//!
//! Write the margins of row `i` as `m_ik = η_{i,y_i} − η_ik` for `k ≠ y_i` (for two classes,
//! the single margin `s_i η_i`, `s_i = ±1`). The negative log-likelihood of row `i` decreases
//! in each of its margins. Two certificates are checked, both on rows of positive weight:
//!
//! * **complete separation** — the fitted linear predictors give every row a positive margin:
//!   scaling the coefficients up lowers every row's loss, so no finite minimiser exists;
//! * **quasi-complete separation** — a direction `Δ` along which no margin decreases and some
//!   margin increases (a direction of recession of the likelihood). The direction tested is
//!   the Newton direction at the returned coefficients: once the iterates run off to infinity
//!   along the separating direction, the part of the fit that does converge has converged
//!   quadratically, and what is left of the Newton step points along the recession direction.
//!   At a genuine optimum the Newton step is round-off, which has margins of both signs.
//!
//! Margins are compared with a relative tolerance ([`RECESSION_TOLERANCE`]) so that the zero
//! margins of the rows lying on the separating hyperplane pass despite round-off.

use ndarray::{Array2, ArrayView1, ArrayView2};

use super::design::Design;

/// A margin change `a` counts as "not decreasing" when `a ≥ −RECESSION_TOLERANCE · max |a|`.
pub const RECESSION_TOLERANCE: f64 = 1e-6;

/// The smallest margin and the largest absolute margin `m_ik = η_{i,y_i} − η_ik` (`k ≠ y_i`)
/// over the rows of positive weight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MarginRange {
    /// The smallest margin (`+∞` when no row has positive weight).
    pub lowest: f64,
    /// The largest absolute margin.
    pub largest: f64,
}

impl MarginRange {
    /// The margins of the linear predictors `eta` (`n ×` `n_classes` columns, one per class, or
    /// `n_classes − 1`, against class 0, whose predictor is then 0: for two classes, the one
    /// column of log-odds), labels `y` and `weights`.
    pub fn of(
        eta: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        weights: ArrayView1<'_, f64>,
        n_classes: usize,
    ) -> Self {
        if let (true, Some(eta), Some(y), Some(weights)) = (
            eta.ncols() == 1 && n_classes == 2,
            eta.as_slice(),
            y.as_slice(),
            weights.as_slice(),
        ) {
            return Self::of_log_odds(eta, y, weights);
        }
        let against_first = eta.ncols() + 1 == n_classes;
        let predictor = |row: &ArrayView1<'_, f64>, k: usize| match (against_first, k) {
            (false, _) => row[k],
            (true, 0) => 0.0,
            (true, _) => row[k - 1],
        };
        let (mut lowest, mut largest) = (f64::INFINITY, 0.0_f64);
        for ((row, &label), &w) in eta.outer_iter().zip(&y).zip(&weights) {
            if w <= 0.0 {
                continue;
            }
            let own = predictor(&row, label);
            for k in (0..n_classes).filter(|&k| k != label) {
                let margin = own - predictor(&row, k);
                lowest = lowest.min(margin);
                largest = largest.max(margin.abs());
            }
        }
        Self { lowest, largest }
    }

    /// [`MarginRange::of`] for two classes and one linear predictor, the log-odds `η` of
    /// class 1: the margin is `η − 0` for class 1 and `0 − η` for class 0, as there.
    fn of_log_odds(eta: &[f64], y: &[usize], weights: &[f64]) -> Self {
        let (mut lowest, mut largest) = (f64::INFINITY, 0.0_f64);
        for ((&eta, &label), &w) in eta.iter().zip(y).zip(weights) {
            let margin = if label == 1 { eta - 0.0 } else { 0.0 - eta };
            if w > 0.0 {
                lowest = lowest.min(margin);
                largest = largest.max(margin.abs());
            }
        }
        Self { lowest, largest }
    }

    /// Complete separation: every margin is positive, so scaling the coefficients up lowers
    /// every row's loss.
    pub fn separates(&self) -> bool {
        self.lowest > 0.0
    }

    /// As the change of the margins along a direction: whether none decreases (beyond
    /// [`RECESSION_TOLERANCE`] of the largest) and some increases by more than `noise`, the
    /// round-off level of the change — a direction of recession (quasi-complete separation).
    pub fn recedes(&self, noise: f64) -> bool {
        self.lowest >= -RECESSION_TOLERANCE * self.largest && self.largest > noise
    }
}

/// The number of classes of linear predictors `eta` as the logistic fits lay them out: one
/// column of log-odds for two classes, else one per class.
fn n_classes_of(eta: ArrayView2<'_, f64>) -> usize {
    eta.ncols().max(2)
}

/// Whether the linear predictors `eta` give every row of positive weight a positive margin.
pub(crate) fn separates_completely(
    eta: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    weights: ArrayView1<'_, f64>,
) -> bool {
    MarginRange::of(eta, y, weights, n_classes_of(eta)).separates()
}

/// Whether moving the coefficients along `direction` (`m × width`) decreases no margin and
/// increases some, beyond round-off.
pub(crate) fn is_recession_direction(
    design: &Design<'_>,
    direction: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    weights: ArrayView1<'_, f64>,
) -> bool {
    let direction_norm = direction.iter().map(|v| v * v).sum::<f64>().sqrt();
    if !(direction_norm > 0.0 && direction_norm.is_finite()) {
        return false;
    }
    let mut change = Array2::zeros((design.n_rows(), direction.nrows()));
    design.linear_predictor(direction, change.view_mut());
    // Changes at the level of round-off in X̃Δ say nothing (Δ in the null space of X̃).
    let noise = 1e3 * f64::EPSILON * direction_norm * design.max_row_norm();
    MarginRange::of(change.view(), y, weights, n_classes_of(change.view())).recedes(noise)
}

#[cfg(test)]
mod tests {
    use super::super::design::Features;
    use super::*;
    use ndarray::array;

    #[test]
    fn margins_against_class_zero_are_those_with_a_zero_column() {
        // Classes 1 and 2 against class 0: margins 1, 3 (row 0), 3, 2.5 (row 1), 1, 0.5 (row 2).
        let eta = array![[1.0, -2.0], [0.5, 3.0], [-1.0, -0.5]];
        let full = array![[0.0, 1.0, -2.0], [0.0, 0.5, 3.0], [0.0, -1.0, -0.5]];
        let (y, w) = (array![1, 2, 0], array![1.0, 1.0, 1.0]);
        let range = MarginRange::of(eta.view(), y.view(), w.view(), 3);
        assert_eq!(range, MarginRange::of(full.view(), y.view(), w.view(), 3));
        assert_eq!(
            range,
            MarginRange {
                lowest: 0.5,
                largest: 3.0
            }
        );
        assert!(range.separates());
        // Row 2 in class 1 instead: its margins are −1 and −0.5.
        let moved = MarginRange::of(eta.view(), array![1, 2, 1].view(), w.view(), 3);
        assert_eq!(moved.lowest, -1.0);
        assert!(!moved.separates() && !moved.recedes(0.0));
    }

    #[test]
    fn complete_separation_certificate() {
        let eta = array![[-1.0], [2.0], [0.5]];
        let w = array![1.0, 1.0, 1.0];
        assert!(separates_completely(
            eta.view(),
            array![0, 1, 1].view(),
            w.view()
        ));
        assert!(!separates_completely(
            eta.view(),
            array![0, 1, 0].view(),
            w.view()
        ));
        // A misclassified row of zero weight does not count.
        let w0 = array![1.0, 1.0, 0.0];
        assert!(separates_completely(
            eta.view(),
            array![0, 1, 0].view(),
            w0.view()
        ));
        let eta3 = array![[3.0, 1.0, 0.0], [0.0, 2.0, 1.0]];
        let w2 = array![1.0, 1.0];
        assert!(separates_completely(
            eta3.view(),
            array![0, 1].view(),
            w2.view()
        ));
        assert!(!separates_completely(
            eta3.view(),
            array![0, 2].view(),
            w2.view()
        ));
    }

    #[test]
    fn recession_directions() {
        // x = 1, 2, 3, 3, 4, 5 with y = 0, 0, 0, 1, 1, 1: quasi-complete separation at x = 3,
        // recession direction θ = (1, −3) (slope, intercept).
        let x = array![[1.0], [2.0], [3.0], [3.0], [4.0], [5.0]];
        let y = array![0, 0, 0, 1, 1, 1];
        let w = array![1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        let design = Design::new(Features::Dense(x.view()), true);
        assert!(is_recession_direction(
            &design,
            array![[1.0, -3.0]].view(),
            y.view(),
            w.view()
        ));
        assert!(!is_recession_direction(
            &design,
            array![[1.0, -3.5]].view(),
            y.view(),
            w.view()
        ));
        assert!(!is_recession_direction(
            &design,
            array![[0.0, 0.0]].view(),
            y.view(),
            w.view()
        ));
        // Swap one label across the boundary: no direction works.
        let y2 = array![0, 0, 1, 1, 0, 1];
        assert!(!is_recession_direction(
            &design,
            array![[1.0, -3.0]].view(),
            y2.view(),
            w.view()
        ));
    }
}
