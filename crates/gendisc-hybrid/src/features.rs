//! The discriminative part's inputs: region log-likelihood ratios (Raina et al.'s `b_r`) and
//! their multi-class analogue, and the detection of aliased (collinear) regions.
//!
//! For `K` classes and region `r`, with `s_r = 1/n_r` (normalized) or `1` (unnormalized), row
//! `i` has the `K − 1` *contrasts*
//!
//! ```text
//! c_irk = s_r [log p(x_i^r | y = k) − log p(x_i^r | y = 0)],      k = 1 … K − 1,
//! ```
//!
//! so that the hybrid's log-odds of class `k` against class 0 are
//! `μ_k + Σ_r θ_r c_irk` (plus the prior's, when the intercept is fixed). For two classes,
//! `c_ir1 = b_r(x_i)` of eq. (8).

use ndarray::{Array2, Array3, ArrayView1, ArrayView2, ArrayView3, Axis};

use gendisc_core::numerics::contiguous_dot;
use gendisc_core::{Error, Result};

/// What the `θ` fit sees of the training set.
#[derive(Debug, Clone)]
pub(crate) struct TrainingFeatures {
    /// `c_irk`, `n × R × (K − 1)`.
    pub contrasts: Array3<f64>,
    /// `log p(y = k) − log p(y = 0)` of each row's generative model, `n × (K − 1)`: the offsets
    /// of a fixed intercept (`None` when the intercept is fitted).
    pub offsets: Option<Array2<f64>>,
}

/// Writes region `r`'s contrasts from its log-likelihoods `ll` (`n × K`) into `contrasts`
/// (`n × R × (K − 1)`). A non-finite contrast (a value of probability zero under some class)
/// cannot be a regression input: it is an [`Error::NonFinite`] naming the row, and the region
/// as the column.
pub(crate) fn fill_contrasts(
    contrasts: &mut Array3<f64>,
    r: usize,
    ll: ArrayView2<'_, f64>,
    scale: f64,
    leave_one_out: bool,
) -> Result<()> {
    let mut out = contrasts.index_axis_mut(Axis(1), r);
    for (i, (mut out_row, ll_row)) in out
        .axis_iter_mut(Axis(0))
        .zip(ll.axis_iter(Axis(0)))
        .enumerate()
    {
        let base = ll_row[0];
        for (k, o) in out_row.iter_mut().enumerate() {
            let value = scale * (ll_row[k + 1] - base);
            if !value.is_finite() {
                return Err(non_finite_feature(i, r, k + 1, value, leave_one_out));
            }
            *o = value;
        }
    }
    Ok(())
}

fn non_finite_feature(row: usize, region: usize, class: usize, value: f64, loo: bool) -> Error {
    let model = if loo {
        "the generative model fitted without the row"
    } else {
        "the generative model"
    };
    Error::NonFinite {
        what: format!(
            "region log-likelihood ratio log p(x^r | y = {class}) / p(x^r | y = 0) (column = \
             region {region}; the row's values have probability zero under {model} for some \
             class: smooth it, e.g. α > 0)"
        ),
        row,
        column: region,
        value,
    }
}

/// `log p(y = k) − log p(y = 0)` for `k ≥ 1`, from `n × K` (per row) log priors.
pub(crate) fn prior_contrasts(log_prior: ArrayView2<'_, f64>) -> Array2<f64> {
    let k = log_prior.ncols();
    Array2::from_shape_fn((log_prior.nrows(), k - 1), |(i, c)| {
        log_prior[[i, c + 1]] - log_prior[[i, 0]]
    })
}

/// Relative tolerance of the aliasing test: a column is aliased when the part of it orthogonal
/// to the columns before it has a norm below `ALIAS_TOLERANCE` times its own. This is R's
/// `glm.fit` tolerance, `min(1e-7, epsilon / 1000)` with glm's default `epsilon = 1e-8`, for
/// the pivoted QR decomposition that decides which coefficients are `NA`.
pub(crate) const ALIAS_TOLERANCE: f64 = 1e-11;

/// Which regions are aliased: linearly dependent, on the rows of positive weight, on the
/// intercepts (when fitted) and on the regions before them.
///
/// The design is what the likelihood depends on: for row `i` and class `k ≥ 1`, the row
/// `√w_i (e_k, c_i·k)` (intercept indicators, then the region contrasts), stacked over `i` and
/// `k`. Its columns are orthogonalised in order by Gram–Schmidt, repeated once when a column
/// lost most of its norm to the projection, which makes the residual accurate to rounding
/// ("twice is enough", Giraud, Langou & Rozložník 2005). A column is aliased when what is left
/// of it is below [`ALIAS_TOLERANCE`] of its norm — R's rule, which keeps the first of a
/// collinear set. Aliased regions get `θ_r = 0`, as R reports their coefficients `NA`.
pub(crate) fn aliased_regions(
    contrasts: ArrayView3<'_, f64>,
    weights: Option<ArrayView1<'_, f64>>,
    fit_intercepts: bool,
) -> Vec<bool> {
    let (n, n_regions, n_contrasts) = contrasts.dim();
    let rows = n * n_contrasts;
    let n_intercepts = if fit_intercepts { n_contrasts } else { 0 };
    // √w_i repeated for each of row i's contrasts, in the stacked order (i, k).
    let root_weight: Vec<f64> = (0..n)
        .flat_map(|i| std::iter::repeat_n(weights.map_or(1.0, |w| w[i].sqrt()), n_contrasts))
        .collect();

    // The orthonormal columns kept so far, end to end.
    let mut basis: Vec<f64> = Vec::with_capacity(rows * (n_intercepts + n_regions));
    let mut column = vec![0.0; rows];
    let mut aliased = vec![false; n_regions];
    for j in 0..n_intercepts + n_regions {
        if j < n_intercepts {
            // The indicator of contrast j: √w_i at the stacked rows (i, j), zero elsewhere.
            column.fill(0.0);
            for (c, &sw) in column
                .iter_mut()
                .zip(&root_weight)
                .skip(j)
                .step_by(n_contrasts)
            {
                *c = sw;
            }
        } else {
            let region = contrasts.index_axis(Axis(1), j - n_intercepts);
            for ((c, &v), &sw) in column.iter_mut().zip(region.iter()).zip(&root_weight) {
                *c = sw * v;
            }
        }
        let norm = dot(&column, &column).sqrt();
        let mut residual = norm;
        for _ in 0..2 {
            if basis.is_empty() || residual == 0.0 {
                break;
            }
            let before = residual;
            for q in basis.chunks_exact(rows) {
                let projection = dot(q, &column);
                column
                    .iter_mut()
                    .zip(q)
                    .for_each(|(c, &qv)| *c -= projection * qv);
            }
            residual = dot(&column, &column).sqrt();
            if residual > 0.5 * before {
                break;
            }
        }
        if norm == 0.0 || residual <= ALIAS_TOLERANCE * norm {
            if j >= n_intercepts {
                aliased[j - n_intercepts] = true;
            }
            continue;
        }
        basis.extend(column.iter().map(|c| c / residual));
    }
    aliased
}

/// `aᵀb` in eight running sums ([`contiguous_dot`]), which do not wait on each other as one
/// running sum's additions do.
fn dot(a: &[f64], b: &[f64]) -> f64 {
    contiguous_dot(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{array, Array3};

    fn binary(b: Array2<f64>) -> Array3<f64> {
        b.insert_axis(Axis(2))
    }

    #[test]
    fn constant_and_collinear_columns_are_aliased() {
        // Region 0 varies; region 1 is constant (collinear with the intercept); region 2 is
        // 2 × region 0 − 1 (collinear with the intercept and region 0); region 3 varies freely.
        let b = array![
            [0.5, 3.0, 0.0, 1.0],
            [1.5, 3.0, 2.0, -1.0],
            [-0.25, 3.0, -1.5, 0.5],
            [2.0, 3.0, 3.0, 0.0]
        ];
        let c = binary(b);
        assert_eq!(
            aliased_regions(c.view(), None, true),
            vec![false, true, true, false]
        );
        // Without an intercept a constant column is identifiable; region 2 is still
        // 2 × region 0 − region 1 / 3.
        assert_eq!(
            aliased_regions(c.view(), None, false),
            vec![false, false, true, false]
        );
    }

    #[test]
    fn zero_columns_and_zero_weights() {
        let b = array![[0.0, 1.0], [0.0, 2.0], [0.0, 4.0]];
        let c = binary(b);
        assert_eq!(aliased_regions(c.view(), None, false), vec![true, false]);
        // With the row that breaks the collinearity weighted zero, region 1 is constant on
        // the rows that count.
        let b = array![[1.0, 2.0], [2.0, 2.0], [3.0, 7.0]];
        let w = array![1.0, 1.0, 0.0];
        let c = binary(b);
        assert_eq!(
            aliased_regions(c.view(), Some(w.view()), true),
            vec![false, true]
        );
        assert_eq!(aliased_regions(c.view(), None, true), vec![false, false]);
    }

    #[test]
    fn multiclass_aliasing_needs_every_contrast() {
        // Three classes: region 0's contrasts are constant for class 1 but vary for class 2,
        // so the region is identifiable; region 1 is constant in both contrasts.
        let mut c = Array3::zeros((3, 2, 2));
        for i in 0..3 {
            c[[i, 0, 0]] = 1.0;
            c[[i, 0, 1]] = i as f64;
            c[[i, 1, 0]] = 2.0;
            c[[i, 1, 1]] = -1.0;
        }
        assert_eq!(aliased_regions(c.view(), None, true), vec![false, true]);
    }

    #[test]
    fn contrasts_are_scaled_differences_and_must_be_finite() {
        let ll = array![[-1.0, -3.0, -0.5], [-2.0, -2.0, -6.0]];
        let mut c = Array3::zeros((2, 1, 2));
        fill_contrasts(&mut c, 0, ll.view(), 0.5, false).unwrap();
        assert_eq!(c.index_axis(Axis(1), 0), array![[-1.0, 0.25], [0.0, -2.0]]);
        let ll = array![[-1.0, -3.0, -0.5], [-2.0, f64::NEG_INFINITY, -6.0]];
        let err = fill_contrasts(&mut c, 0, ll.view(), 1.0, true).unwrap_err();
        assert!(
            matches!(
                err,
                Error::NonFinite {
                    row: 1,
                    column: 0,
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("without the row"), "{err}");
        assert_eq!(
            prior_contrasts(array![[0.1f64.ln(), 0.3f64.ln(), 0.6f64.ln()]].view()),
            array![[0.3f64.ln() - 0.1f64.ln(), 0.6f64.ln() - 0.1f64.ln()]]
        );
    }
}
