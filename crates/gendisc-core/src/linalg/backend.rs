//! Which implementation does the dense linear algebra: chosen once per process, from
//! [`BACKEND_VARIABLE`].

use std::ffi::OsStr;
use std::sync::OnceLock;

use ndarray::{Array1, Array2, ArrayView2};

use super::lapack::Lapack;
use super::{pure, Triangle};
use crate::error::{Error, Result};

/// The environment variable that chooses the backend: unset, empty or `rust` for the pure-Rust
/// default, `lapack` for the system's LAPACK, in any case (see
/// [`LAPACK_LIBRARY_VARIABLE`](super::LAPACK_LIBRARY_VARIABLE)). It is read once, at the first
/// factorisation of the process.
pub const BACKEND_VARIABLE: &str = "GENDISC_LINALG";

/// The implementation behind [`Cholesky`](super::Cholesky) and [`eigh`](super::eigh).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// `linfa-linalg`, in pure Rust: the default, needing no system library.
    Rust,
    /// The system's LAPACK, loaded at run time (OpenBLAS on Debian, package `libopenblas0`).
    Lapack,
}

/// The backend this process uses, choosing it on the first call; an error if
/// [`BACKEND_VARIABLE`] names no backend or LAPACK was asked for and could not be loaded (every
/// factorisation then fails with the same error, rather than quietly using the other backend).
pub fn backend() -> Result<Backend> {
    Ok(match selected()? {
        Selected::Rust => Backend::Rust,
        Selected::Lapack(_) => Backend::Lapack,
    })
}

/// The chosen backend, with the loaded library.
pub(super) enum Selected {
    Rust,
    Lapack(Lapack),
}

static SELECTED: OnceLock<std::result::Result<Selected, String>> = OnceLock::new();

/// The process's backend, chosen on first use.
pub(super) fn selected() -> Result<&'static Selected> {
    SELECTED
        .get_or_init(|| choose(std::env::var_os(BACKEND_VARIABLE).as_deref(), Lapack::load))
        .as_ref()
        .map_err(|detail| Error::Linalg {
            what: "the backend choice".into(),
            detail: detail.clone(),
        })
}

/// The backend that `value` of [`BACKEND_VARIABLE`] asks for, loading LAPACK with `load`.
pub(super) fn choose(
    value: Option<&OsStr>,
    load: impl FnOnce() -> std::result::Result<Lapack, String>,
) -> std::result::Result<Selected, String> {
    let Some(value) = value else {
        return Ok(Selected::Rust);
    };
    match value.to_str().map(str::to_ascii_lowercase).as_deref() {
        Some("" | "rust") => Ok(Selected::Rust),
        Some("lapack") => load()
            .map(Selected::Lapack)
            .map_err(|why| format!("{BACKEND_VARIABLE}=lapack, but {why}")),
        _ => Err(format!(
            "{BACKEND_VARIABLE} is {:?}; it must be unset, `rust` or `lapack`",
            value.to_string_lossy()
        )),
    }
}

impl Selected {
    pub(super) fn cholesky_lower(&self, a: ArrayView2<'_, f64>) -> Result<Array2<f64>, String> {
        match self {
            Self::Rust => pure::cholesky_lower(a),
            Self::Lapack(lapack) => lapack.cholesky_lower(a),
        }
    }

    pub(super) fn solve_triangular(
        &self,
        t: ArrayView2<'_, f64>,
        b: ArrayView2<'_, f64>,
        triangle: Triangle,
    ) -> Result<Array2<f64>> {
        match self {
            Self::Rust => pure::solve_triangular(t, b, triangle),
            Self::Lapack(lapack) => lapack.solve_triangular(t, b, triangle),
        }
    }

    pub(super) fn eigh_ascending(
        &self,
        a: ArrayView2<'_, f64>,
    ) -> Result<(Array1<f64>, Array2<f64>), String> {
        match self {
            Self::Rust => pure::eigh_ascending(a),
            Self::Lapack(lapack) => lapack.eigh_ascending(a),
        }
    }
}
