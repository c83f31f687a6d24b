//! The LAPACK backend: the system's LAPACK (OpenBLAS on Debian), loaded when a process first asks
//! for it rather than linked, so that one build runs on either backend and needs no system library
//! unless LAPACK is chosen.
//!
//! Three routines are called: `dpotrf` (Cholesky), `dtrtrs` (triangular solves) and `dsyev`
//! (symmetric eigen-decomposition). LAPACK stores matrices by column; the wrappers copy their
//! inputs into that order (or, for the symmetric Cholesky input, read the row-major copy as the
//! transpose it is) and hand back row-major results.
//!
//! The workspace's one module with `unsafe` code: calling a foreign library cannot be anything else.
#![allow(unsafe_code)]

use std::ffi::{c_char, c_int, OsStr, OsString};

use libloading::Library;
use ndarray::{Array1, Array2, ArrayView2, ShapeBuilder as _};

use super::Triangle;
use crate::error::{Error, Result};

/// The environment variable naming the LAPACK library to load, as a file name the dynamic
/// loader can find or a path (default: the first of [`DEFAULT_LAPACK_LIBRARIES`] that loads).
pub const LAPACK_LIBRARY_VARIABLE: &str = "GENDISC_LAPACK_LIBRARY";

/// The libraries tried, in order, when [`LAPACK_LIBRARY_VARIABLE`] is unset: OpenBLAS (Debian's
/// `libopenblas0`, which carries LAPACK), then whichever LAPACK the system's alternatives select.
pub const DEFAULT_LAPACK_LIBRARIES: [&str; 3] =
    ["libopenblas.so.0", "liblapack.so.3", "libopenblas.so"];

// The Fortran calling convention as gfortran and OpenBLAS implement it: every argument by
// reference, and after them the hidden length of each CHARACTER argument (always 1 here). A
// routine written in C ignores the trailing lengths, which the C calling convention allows.
type Dpotrf = unsafe extern "C" fn(
    uplo: *const c_char,
    n: *const c_int,
    a: *mut f64,
    lda: *const c_int,
    info: *mut c_int,
    uplo_len: usize,
);
type Dtrtrs = unsafe extern "C" fn(
    uplo: *const c_char,
    trans: *const c_char,
    diag: *const c_char,
    n: *const c_int,
    nrhs: *const c_int,
    a: *const f64,
    lda: *const c_int,
    b: *mut f64,
    ldb: *const c_int,
    info: *mut c_int,
    uplo_len: usize,
    trans_len: usize,
    diag_len: usize,
);
type Dsyev = unsafe extern "C" fn(
    jobz: *const c_char,
    uplo: *const c_char,
    n: *const c_int,
    a: *mut f64,
    lda: *const c_int,
    w: *mut f64,
    work: *mut f64,
    lwork: *const c_int,
    info: *mut c_int,
    jobz_len: usize,
    uplo_len: usize,
);

/// A loaded LAPACK: the three routines and the library that keeps them valid.
pub(super) struct Lapack {
    dpotrf: Dpotrf,
    dtrtrs: Dtrtrs,
    dsyev: Dsyev,
    // Dropping the library would unmap the routines above; a `Lapack` lives in a static.
    _library: Library,
}

impl Lapack {
    /// Loads the library [`LAPACK_LIBRARY_VARIABLE`] names, or else the first of [`DEFAULT_LAPACK_LIBRARIES`]
    /// that loads and has the three routines.
    pub(super) fn load() -> Result<Self, String> {
        match std::env::var_os(LAPACK_LIBRARY_VARIABLE) {
            Some(name) if !name.is_empty() => Self::load_from(&[name]),
            _ => Self::load_from(&DEFAULT_LAPACK_LIBRARIES.map(OsString::from)),
        }
    }

    /// Loads the first of `candidates` that loads and has the three routines; the error lists
    /// why each failed.
    pub(super) fn load_from(candidates: &[OsString]) -> Result<Self, String> {
        let mut failures = Vec::with_capacity(candidates.len());
        for name in candidates {
            match Self::load_one(name) {
                Ok(lapack) => return Ok(lapack),
                Err(why) => failures.push(format!("{}: {why}", name.to_string_lossy())),
            }
        }
        Err(format!(
            "no LAPACK library could be loaded ({}); install one (Debian: libopenblas0) or name it \
             in {LAPACK_LIBRARY_VARIABLE}",
            failures.join("; ")
        ))
    }

    fn load_one(name: &OsStr) -> Result<Self, String> {
        // SAFETY: loading runs the library's initialisers; a LAPACK library's are its own
        // (OpenBLAS sets up its thread pool) and touch nothing of this process's state.
        let library = unsafe { Library::new(name) }.map_err(|e| e.to_string())?;
        // SAFETY: the types above are the routines' reference-LAPACK signatures with 32-bit
        // integers (the LP64 interface that `libopenblas.so.0` and `liblapack.so.3` export).
        let (dpotrf, dtrtrs, dsyev) = unsafe {
            (
                *library
                    .get::<Dpotrf>(b"dpotrf_\0")
                    .map_err(|e| e.to_string())?,
                *library
                    .get::<Dtrtrs>(b"dtrtrs_\0")
                    .map_err(|e| e.to_string())?,
                *library
                    .get::<Dsyev>(b"dsyev_\0")
                    .map_err(|e| e.to_string())?,
            )
        };
        Ok(Self {
            dpotrf,
            dtrtrs,
            dsyev,
            _library: library,
        })
    }

    /// The lower factor `L` of `a = L Lᵀ`, reading `a`'s lower triangle.
    pub(super) fn cholesky_lower(&self, a: ArrayView2<'_, f64>) -> Result<Array2<f64>, String> {
        let n = a.nrows();
        let order = dimension(n)?;
        // The row-major copy, read by column, is `aᵀ`, whose upper triangle is `a`'s lower one;
        // LAPACK's upper factor `U` (`aᵀ = Uᵀ U`), read back by row, is `L = Uᵀ`.
        let mut l = a.as_standard_layout().into_owned();
        let mut info: c_int = 0;
        // SAFETY: `l` is a contiguous n × n matrix with leading dimension n ≥ 1.
        unsafe {
            (self.dpotrf)(
                c"U".as_ptr(),
                &order,
                l.as_mut_ptr(),
                &order.max(1),
                &mut info,
                1,
            );
        }
        if info > 0 {
            return Err(format!(
                "the leading minor of order {info} is not positive definite (LAPACK dpotrf)"
            ));
        }
        check_arguments("dpotrf", info)?;
        for i in 0..n {
            l.row_mut(i).slice_mut(ndarray::s![i + 1..]).fill(0.0);
        }
        Ok(l)
    }

    /// Solves `t x = b` for the lower or upper triangular `t`.
    pub(super) fn solve_triangular(
        &self,
        t: ArrayView2<'_, f64>,
        b: ArrayView2<'_, f64>,
        triangle: Triangle,
    ) -> Result<Array2<f64>> {
        let failed = |detail: String| Error::Linalg {
            what: "triangular solve".into(),
            detail,
        };
        let order = dimension(t.nrows()).map_err(failed)?;
        let columns = dimension(b.ncols()).map_err(failed)?;
        let mut t_by_column = Array2::zeros(t.raw_dim().f());
        t_by_column.assign(&t);
        let mut x = Array2::zeros(b.raw_dim().f());
        x.assign(&b);
        let uplo = match triangle {
            Triangle::Lower => c"L",
            Triangle::Upper => c"U",
        };
        let mut info: c_int = 0;
        // SAFETY: both matrices are contiguous by column with leading dimension n ≥ 1, `t` n × n
        // and `x` n × columns.
        unsafe {
            (self.dtrtrs)(
                uplo.as_ptr(),
                c"N".as_ptr(),
                c"N".as_ptr(),
                &order,
                &columns,
                t_by_column.as_ptr(),
                &order.max(1),
                x.as_mut_ptr(),
                &order.max(1),
                &mut info,
                1,
                1,
                1,
            );
        }
        if info > 0 {
            return Err(failed(format!(
                "diagonal entry {info} of the triangular matrix is zero (LAPACK dtrtrs)"
            )));
        }
        check_arguments("dtrtrs", info).map_err(failed)?;
        Ok(x.as_standard_layout().into_owned())
    }

    /// Eigenvalues (ascending) and eigenvectors (by column) of the symmetric `a`, reading its
    /// lower triangle.
    pub(super) fn eigh_ascending(
        &self,
        a: ArrayView2<'_, f64>,
    ) -> Result<(Array1<f64>, Array2<f64>), String> {
        let n = a.nrows();
        let order = dimension(n)?;
        let mut vectors = Array2::zeros(a.raw_dim().f());
        vectors.assign(&a);
        let mut values = Array1::zeros(n);
        let mut info: c_int = 0;
        let mut call = |work: &mut [f64], lwork: c_int, info: &mut c_int| {
            // SAFETY: `vectors` is contiguous by column, n × n with leading dimension n ≥ 1;
            // `values` holds n entries and `work` at least `max(1, lwork)`.
            unsafe {
                (self.dsyev)(
                    c"V".as_ptr(),
                    c"L".as_ptr(),
                    &order,
                    vectors.as_mut_ptr(),
                    &order.max(1),
                    values.as_mut_ptr(),
                    work.as_mut_ptr(),
                    &lwork,
                    info,
                    1,
                    1,
                );
            }
        };
        // A first call with `lwork = −1` asks for the optimal workspace.
        let mut optimal = [0.0];
        call(&mut optimal, -1, &mut info);
        check_arguments("dsyev", info)?;
        let lwork = (optimal[0] as c_int)
            .max(order.saturating_mul(3) - 1)
            .max(1);
        let mut work = vec![0.0; lwork as usize];
        call(&mut work, lwork, &mut info);
        if info > 0 {
            return Err(format!(
                "{info} off-diagonal entries of the tridiagonal form did not converge to zero \
                 (LAPACK dsyev)"
            ));
        }
        check_arguments("dsyev", info)?;
        Ok((values, vectors.as_standard_layout().into_owned()))
    }
}

/// `n` as LAPACK's 32-bit integer.
fn dimension(n: usize) -> Result<c_int, String> {
    c_int::try_from(n).map_err(|_| format!("dimension {n} exceeds LAPACK's 32-bit integers"))
}

/// LAPACK's `info < 0`: an argument it refused, which the wrappers above never pass.
fn check_arguments(routine: &str, info: c_int) -> Result<(), String> {
    if info < 0 {
        return Err(format!("LAPACK {routine} refused its argument {}", -info));
    }
    Ok(())
}
