//! Checks and layout conversion for sparse (`sprs`) input.

use gendisc_core::{Error, Result};
use sprs::{CsMat, CsMatView};

/// A CSR matrix, borrowed when the input already was CSR, converted otherwise.
pub(crate) enum Csr<'a> {
    Borrowed(CsMatView<'a, f64>),
    Converted(CsMat<f64>),
}

impl Csr<'_> {
    pub(crate) fn view(&self) -> CsMatView<'_, f64> {
        match self {
            Csr::Borrowed(x) => x.view(),
            Csr::Converted(x) => x.view(),
        }
    }
}

/// `x` in compressed-row layout (CSC input is converted once).
pub(crate) fn as_csr(x: CsMatView<'_, f64>) -> Csr<'_> {
    if x.is_csr() {
        Csr::Borrowed(x)
    } else {
        Csr::Converted(x.to_other_storage())
    }
}

/// Every stored value of `x` is finite.
fn check_finite(x: CsMatView<'_, f64>) -> Result<()> {
    for (&value, (row, column)) in x.iter() {
        if !value.is_finite() {
            return Err(Error::NonFinite {
                what: "x".into(),
                row,
                column,
                value,
            });
        }
    }
    Ok(())
}

/// A sparse design matrix for fitting: at least one row and one column, finite values.
pub(crate) fn check_sparse_training_matrix(x: CsMatView<'_, f64>) -> Result<()> {
    if x.rows() == 0 {
        return Err(Error::Empty {
            what: "x (no rows)".into(),
        });
    }
    if x.cols() == 0 {
        return Err(Error::Empty {
            what: "x (no columns)".into(),
        });
    }
    check_finite(x)
}

/// A sparse matrix given to a fitted model: the fitted number of columns, finite values.
pub(crate) fn check_sparse_prediction_matrix(
    x: CsMatView<'_, f64>,
    n_features: usize,
) -> Result<()> {
    if x.cols() != n_features {
        return Err(Error::shape_mismatch(
            "columns of x vs features of the fitted model",
            n_features,
            x.cols(),
        ));
    }
    check_finite(x)
}
