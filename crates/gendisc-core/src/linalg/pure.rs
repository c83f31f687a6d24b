//! The pure-Rust backend (`linfa-linalg`): the default, and the one every committed result is
//! computed with.

use linfa_linalg::cholesky::Cholesky as _;
use linfa_linalg::eigh::{EigSort as _, Eigh as _};
use linfa_linalg::triangular::SolveTriangular as _;
use linfa_linalg::triangular::UPLO;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};

use super::Triangle;
use crate::error::{Error, Result};

pub(super) fn cholesky_lower(a: ArrayView2<'_, f64>) -> Result<Array2<f64>, String> {
    a.cholesky().map_err(|e| e.to_string())
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
