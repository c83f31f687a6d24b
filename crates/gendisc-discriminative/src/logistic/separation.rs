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
pub(crate) const RECESSION_TOLERANCE: f64 = 1e-6;

/// Visits every margin `m_ik` (`k ≠ y_i`) of every row of positive weight computed from the
/// linear predictors `eta` (`n × m`, `m = 1` for two classes).
fn for_each_margin(
    eta: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    weights: ArrayView1<'_, f64>,
    mut visit: impl FnMut(f64),
) {
    for ((row, &label), &w) in eta.outer_iter().zip(&y).zip(&weights) {
        if w <= 0.0 {
            continue;
        }
        if row.len() == 1 {
            let sign = if label == 1 { 1.0 } else { -1.0 };
            visit(sign * row[0]);
        } else {
            let own = row[label];
            for (k, &e) in row.iter().enumerate() {
                if k != label {
                    visit(own - e);
                }
            }
        }
    }
}

/// Whether the linear predictors `eta` give every row of positive weight a positive margin.
pub(crate) fn separates_completely(
    eta: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    weights: ArrayView1<'_, f64>,
) -> bool {
    let mut all_positive = true;
    for_each_margin(eta, y, weights, |m| all_positive &= m > 0.0);
    all_positive
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
    let (mut lowest, mut largest) = (f64::INFINITY, 0.0_f64);
    for_each_margin(change.view(), y, weights, |a| {
        lowest = lowest.min(a);
        largest = largest.max(a.abs());
    });
    if lowest < -RECESSION_TOLERANCE * largest {
        return false;
    }
    // Changes at the level of round-off in X̃Δ say nothing (Δ in the null space of X̃). Only
    // the candidates pay for the rows' norms.
    let noise = 1e3 * f64::EPSILON * direction_norm * design.max_row_norm();
    largest > noise
}

#[cfg(test)]
mod tests {
    use super::super::design::Features;
    use super::*;
    use ndarray::array;

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
