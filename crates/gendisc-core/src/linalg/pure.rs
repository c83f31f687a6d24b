//! The pure-Rust backend (`linfa-linalg`): the default, and the one every committed result is
//! computed with.

use linfa_linalg::cholesky::Cholesky as _;
use linfa_linalg::eigh::{EigSort as _, Eigh as _};
use linfa_linalg::triangular::SolveTriangular as _;
use linfa_linalg::triangular::UPLO;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};

use super::Triangle;
use crate::error::{Error, Result};

/// Rows of `L` that [`cholesky_lower`] computes side by side.
const ROWS: usize = 8;

/// The order from which [`cholesky_lower`] computes rows side by side; below it linfa's own
/// loop, with less bookkeeping, is faster (3 × 3 to 8 × 8: 0.10–0.29 µs against 0.13–0.43 µs).
const SIDE_BY_SIDE_FROM: usize = 16;

/// The lower Cholesky factor of a square `a` (only its lower triangle is read), the upper
/// triangle zeroed: linfa-linalg's row-by-row algorithm, operation for operation, so the factor
/// is bit for bit linfa's and so is the failure on a matrix that is not positive definite (below
/// [`SIDE_BY_SIDE_FROM`] rows, linfa's own function).
///
/// Entry `l_jk` is `(a_jk − Σ_{i<k} l_ki l_ji) / l_kk`, its sum taken in order of `i`, and the
/// pivot `a_jj − Σ_{k<j} l_jk²` in order of `k`. Along a row each entry waits for the one
/// before it (the last term of its sum), a chain of additions and a division that linfa, one
/// row at a time, runs at the processor's latency. The [`ROWS`] rows from `j₀` on need only
/// the rows above `j₀` for their first `j₀` entries, so those entries are computed for all of
/// them side by side, independent chains each in linfa's order; the rest of those rows follows
/// one row at a time.
pub(super) fn cholesky_lower(a: ArrayView2<'_, f64>) -> Result<Array2<f64>, String> {
    let n = a.nrows();
    if n < SIDE_BY_SIDE_FROM {
        return a.cholesky().map_err(|e| e.to_string());
    }
    let mut l = a.as_standard_layout().into_owned();
    let data = l.as_slice_mut().expect("standard layout");
    let mut j0 = 0;
    while j0 < n {
        let rows = (n - j0).min(ROWS);
        let (above, rest) = data.split_at_mut(j0 * n);
        let block = &mut rest[..rows * n];
        let mut pivot_sums = [0.0_f64; ROWS];
        for k in 0..j0 {
            let row_k = &above[k * n..k * n + k + 1];
            let mut sums = [0.0_f64; ROWS];
            if rows == ROWS {
                let b: [&[f64]; ROWS] = std::array::from_fn(|r| &block[r * n..r * n + k]);
                for (i, &l_ki) in row_k[..k].iter().enumerate() {
                    for r in 0..ROWS {
                        sums[r] += l_ki * b[r][i];
                    }
                }
            } else {
                for (r, sum) in sums.iter_mut().enumerate().take(rows) {
                    for (&l_ki, &l_ri) in row_k[..k].iter().zip(&block[r * n..r * n + k]) {
                        *sum += l_ki * l_ri;
                    }
                }
            }
            for r in 0..rows {
                let l_rk = (block[r * n + k] - sums[r]) / row_k[k];
                block[r * n + k] = l_rk;
                pivot_sums[r] += l_rk * l_rk;
            }
        }
        for r in 0..rows {
            let (earlier, current) = block.split_at_mut(r * n);
            let row_j = &mut current[..n];
            let mut pivot_sum = pivot_sums[r];
            for k in j0..j0 + r {
                let row_k = &earlier[(k - j0) * n..(k - j0) * n + k + 1];
                let mut sum = 0.0;
                for i in 0..k {
                    sum += row_k[i] * row_j[i];
                }
                let l_jk = (row_j[k] - sum) / row_k[k];
                row_j[k] = l_jk;
                pivot_sum += l_jk * l_jk;
            }
            let j = j0 + r;
            let pivot = row_j[j] - pivot_sum;
            if pivot <= 0.0 {
                return Err(linfa_linalg::LinalgError::NotPositiveDefinite.to_string());
            }
            row_j[j] = pivot.sqrt();
            for upper in &mut row_j[j + 1..] {
                *upper = 0.0;
            }
        }
        j0 += rows;
    }
    Ok(l)
}

pub(super) fn solve_triangular(
    t: ArrayView2<'_, f64>,
    b: ArrayView2<'_, f64>,
    triangle: Triangle,
) -> Result<Array2<f64>> {
    let uplo = match triangle {
        Triangle::Lower => UPLO::Lower,
        Triangle::Upper => UPLO::Upper,
    };
    t.solve_triangular(&b, uplo).map_err(|e| Error::Linalg {
        what: "triangular solve".into(),
        detail: e.to_string(),
    })
}

/// `L Lᵀ x = b` by forward then back substitution on one vector, without the matrix
/// right-hand side and its copies of [`solve_triangular`]: the solves of the small systems
/// of IRLS and Newton's method are otherwise mostly allocation. The arithmetic is
/// linfa-linalg's, operation for operation (column-oriented: divide by the pivot, then
/// `b_j + (−x_i) l_ji` for the rows below, resp. above), so the result is bit for bit that
/// of [`solve_triangular`] twice.
pub(super) fn solve_vec(l: ArrayView2<'_, f64>, b: ArrayView1<'_, f64>) -> Array1<f64> {
    let n = l.nrows();
    let mut x = b.to_owned();
    for i in 0..n {
        let coeff = x[i] / l[[i, i]];
        x[i] = coeff;
        for j in i + 1..n {
            x[j] += -coeff * l[[j, i]];
        }
    }
    for i in (0..n).rev() {
        let coeff = x[i] / l[[i, i]];
        x[i] = coeff;
        for j in 0..i {
            x[j] += -coeff * l[[i, j]];
        }
    }
    x
}

pub(super) fn eigh_ascending(a: ArrayView2<'_, f64>) -> Result<(Array1<f64>, Array2<f64>), String> {
    a.eigh()
        .map(|e| e.sort_eig_asc())
        .map_err(|e| e.to_string())
}
