//! Checks and layout conversion for sparse (`sprs`) input.

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
