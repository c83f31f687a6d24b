//! The dense linear-algebra facade: the few factorisations the estimators need, behind one API.
//!
//! By default the work is done in pure Rust by `linfa-linalg`, so no system library is needed.
//! With `GENDISC_LINALG=lapack` in the environment ([`BACKEND_VARIABLE`]) the same functions call
//! the system's LAPACK (OpenBLAS on Debian), loaded when the process first factorises a matrix:
//! one build runs on either backend, and the tests check that they agree. Results are computed
//! with the pure-Rust backend unless said otherwise; LAPACK's differ in their last bits.
//!
//! Every function validates its input (square, finite) and reports failure as a typed
//! [`Error`]: a matrix that is not positive definite is [`Error::NotPositiveDefinite`].

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};

use crate::error::{Error, Result};
use crate::validate::check_finite_matrix;

mod backend;
mod lapack;
mod pure;

pub use backend::{backend, Backend, BACKEND_VARIABLE};
pub use lapack::{DEFAULT_LAPACK_LIBRARIES, LAPACK_LIBRARY_VARIABLE};

/// The Cholesky factorisation `A = L Lᵀ` of a symmetric positive definite matrix, with the
/// solves, inverse and log-determinant that follow from it.
#[derive(Debug, Clone, PartialEq)]
pub struct Cholesky {
    l: Array2<f64>,
}

impl Cholesky {
    /// Factorises `a` (only its lower triangle is read). `what` names the matrix in errors.
    pub fn new(a: ArrayView2<'_, f64>, what: &str) -> Result<Self> {
        check_square(a, what)?;
        check_finite_matrix(a, what)?;
        let l = backend::selected()?.cholesky_lower(a).map_err(|detail| {
            Error::NotPositiveDefinite {
                what: what.into(),
                detail: Some(detail),
                columns: Vec::new(),
            }
        })?;
        // Backends differ on a matrix that is singular in exact arithmetic: round-off leaves a
        // pivot of either sign, which one backend refuses and the other accepts. Judge both the
        // same way: the squared pivot L_ii² is the part of A_ii not explained by the previous
        // columns, and when that is below n·ε·A_ii the matrix is singular to working precision.
        let n = l.nrows() as f64;
        let singular = l.diag().iter().zip(a.diag()).position(|(&d, &a_ii)| {
            !(d > 0.0 && d.is_finite()) || d * d <= n * f64::EPSILON * a_ii
        });
        if let Some(i) = singular {
            return Err(Error::NotPositiveDefinite {
                what: what.into(),
                detail: Some(format!(
                    "pivot {i} is {:e} for a diagonal entry of {:e}: singular to working precision",
                    l[[i, i]],
                    a[[i, i]]
                )),
                columns: Vec::new(),
            });
        }
        Ok(Self { l })
    }

    /// The lower-triangular factor `L`.
    pub fn factor(&self) -> ArrayView2<'_, f64> {
        self.l.view()
    }

    /// Consumes the factorisation and returns `L`.
    pub fn into_factor(self) -> Array2<f64> {
        self.l
    }

    /// Dimension of the matrix.
    pub fn dim(&self) -> usize {
        self.l.nrows()
    }

    /// `log det A = 2 Σ_i log L_ii`.
    pub fn log_det(&self) -> f64 {
        2.0 * self.l.diag().iter().map(|d| d.ln()).sum::<f64>()
    }

    /// Solves `L z = b` (forward substitution).
    pub fn solve_lower(&self, b: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        self.check_rhs(b.nrows())?;
        backend::selected()?.solve_triangular(self.l.view(), b, Triangle::Lower)
    }

    /// Solves `Lᵀ z = b` (back substitution).
    pub fn solve_upper(&self, b: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        self.check_rhs(b.nrows())?;
        backend::selected()?.solve_triangular(self.l.t(), b, Triangle::Upper)
    }

    /// Solves `A X = B` for a matrix right-hand side.
    pub fn solve(&self, b: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        let z = self.solve_lower(b)?;
        self.solve_upper(z.view())
    }

    /// Solves `A x = b` for a vector right-hand side.
    pub fn solve_vec(&self, b: ArrayView1<'_, f64>) -> Result<Array1<f64>> {
        self.check_rhs(b.len())?;
        match backend::selected()? {
            // The pure backend's vector path spares the matrix solves' copies.
            backend::Selected::Rust => Ok(pure::solve_vec(self.l.view(), b)),
            backend::Selected::Lapack(_) => {
                Ok(self.solve(b.insert_axis(Axis(1)))?.remove_axis(Axis(1)))
            }
        }
    }

    /// `A⁻¹`, symmetric.
    pub fn inverse(&self) -> Result<Array2<f64>> {
        let n = self.dim();
        let mut inv = self.solve(Array2::eye(n).view())?;
        // Round-off leaves the two triangles a few ulps apart; make the result exactly symmetric.
        for i in 0..n {
            for j in 0..i {
                let m = 0.5 * (inv[[i, j]] + inv[[j, i]]);
                inv[[i, j]] = m;
                inv[[j, i]] = m;
            }
        }
        Ok(inv)
    }

    /// The squared Mahalanobis norm `bᵀ A⁻¹ b = ‖L⁻¹ b‖²` of each column of `b`.
    pub fn inv_quadratic_forms(&self, b: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        let z = self.solve_lower(b)?;
        Ok(z.map_axis(Axis(0), |c| c.dot(&c)))
    }

    fn check_rhs(&self, rows: usize) -> Result<()> {
        if rows != self.dim() {
            return Err(Error::shape_mismatch(
                "rows of right-hand side vs Cholesky dimension",
                self.dim(),
                rows,
            ));
        }
        Ok(())
    }
}

/// The eigen-decomposition `A = V diag(λ) Vᵀ` of a symmetric matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct SymmetricEigen {
    /// Eigenvalues `λ`, ascending.
    pub eigenvalues: Array1<f64>,
    /// Orthonormal eigenvectors, one per column, in the order of `eigenvalues`.
    pub eigenvectors: Array2<f64>,
}

/// Lower Cholesky factor `L` of a symmetric positive definite `a` (`a = L Lᵀ`).
pub fn cholesky(a: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
    Ok(Cholesky::new(a, "matrix")?.into_factor())
}

/// Solves `a x = b` for symmetric positive definite `a`.
pub fn solve_spd(a: ArrayView2<'_, f64>, b: ArrayView1<'_, f64>) -> Result<Array1<f64>> {
    Cholesky::new(a, "matrix")?.solve_vec(b)
}

/// `a⁻¹` for symmetric positive definite `a`.
pub fn inverse_spd(a: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
    Cholesky::new(a, "matrix")?.inverse()
}

/// `log det a` for symmetric positive definite `a`.
pub fn log_det_spd(a: ArrayView2<'_, f64>) -> Result<f64> {
    Ok(Cholesky::new(a, "matrix")?.log_det())
}

/// Eigenvalues (ascending) and eigenvectors of a symmetric matrix; only the lower triangle is
/// guaranteed to be read, so pass a symmetric matrix.
pub fn eigh(a: ArrayView2<'_, f64>) -> Result<SymmetricEigen> {
    check_square(a, "matrix")?;
    check_finite_matrix(a, "matrix")?;
    let (eigenvalues, eigenvectors) =
        backend::selected()?
            .eigh_ascending(a)
            .map_err(|detail| Error::Linalg {
                what: "symmetric eigen-decomposition".into(),
                detail,
            })?;
    Ok(SymmetricEigen {
        eigenvalues,
        eigenvectors,
    })
}

/// What is left of `v` after removing its components along the orthonormal `basis`, normalised:
/// one step of Gram–Schmidt, orthogonalised twice ("twice is enough": Giraud, Langou &
/// Rozložník 2005), so that the result is orthogonal to the basis to rounding even where `v`
/// lies nearly in its span. `None` when the remainder is below `tolerance` times `v`'s norm
/// (or is zero): `v` then adds no direction to the span. Pure arithmetic, the same on either
/// backend.
pub fn orthonormal_remainder(
    v: Array1<f64>,
    basis: &[Array1<f64>],
    tolerance: f64,
) -> Option<Array1<f64>> {
    let norm = v.dot(&v).sqrt();
    let mut r = v;
    for _ in 0..2 {
        for q in basis {
            let c = q.dot(&r);
            r.scaled_add(-c, q);
        }
    }
    let rest = r.dot(&r).sqrt();
    (rest > 0.0 && rest > tolerance * norm).then(|| r / rest)
}

fn check_square(a: ArrayView2<'_, f64>, what: &str) -> Result<()> {
    if a.nrows() != a.ncols() {
        return Err(Error::shape_mismatch(
            format!("columns of {what} (must be square)"),
            a.nrows(),
            a.ncols(),
        ));
    }
    if a.is_empty() {
        return Err(Error::Empty { what: what.into() });
    }
    Ok(())
}

/// Which triangle a triangular solve uses.
#[derive(Debug, Clone, Copy)]
enum Triangle {
    Lower,
    Upper,
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;
    use ndarray::array;
    use proptest::prelude::*;

    #[test]
    fn the_orthonormal_remainder_is_a_unit_vector_orthogonal_to_the_basis() {
        let e1 = array![1.0, 0.0, 0.0];
        let q =
            orthonormal_remainder(array![1.0, 1.0, 0.0], std::slice::from_ref(&e1), 1e-12).unwrap();
        assert_abs_diff_eq!(q, array![0.0, 1.0, 0.0], epsilon = 1e-15);
        // Nearly in the span: twice orthogonalised, still orthogonal to rounding.
        let basis = [e1.clone(), q];
        let r = orthonormal_remainder(array![1.0, 1.0, 1e-9], &basis, 1e-12).unwrap();
        assert!(
            r.dot(&e1).abs() < 1e-15 && (r.dot(&r) - 1.0).abs() < 1e-15,
            "{r}"
        );
        // In the span, or below the tolerance: no new direction.
        assert_eq!(
            orthonormal_remainder(array![2.0, -3.0, 0.0], &basis, 1e-12),
            None
        );
        assert_eq!(
            orthonormal_remainder(array![1.0, 1.0, 1e-9], &basis, 1e-6),
            None
        );
        assert_eq!(orthonormal_remainder(Array1::zeros(3), &[], 1e-12), None);
    }

    fn spd_from(entries: &[f64], n: usize) -> Array2<f64> {
        // A = M Mᵀ + n I is symmetric positive definite for any M.
        let m = Array2::from_shape_vec((n, n), entries.to_vec()).unwrap();
        m.dot(&m.t()) + Array2::<f64>::eye(n) * n as f64
    }

    proptest! {
        /// The pure backend's factor is linfa-linalg's, bit for bit, on every size around the
        /// width of its side-by-side sums; and so is its refusal of an indefinite matrix.
        #[test]
        fn cholesky_is_linfas_bit_for_bit(
            n in 1usize..40,
            entries in proptest::collection::vec(-3.0f64..3.0, 1600),
            shift in -2.0f64..0.5,
        ) {
            use linfa_linalg::cholesky::Cholesky as _;
            let bits = |m: &Array2<f64>| m.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            let a = spd_from(&entries[..n * n], n);
            let ours = pure::cholesky_lower(a.view()).unwrap();
            prop_assert_eq!(bits(&ours), bits(&a.cholesky().unwrap()));
            // Shifted by a multiple of the largest diagonal entry: indefinite for most draws.
            let largest = a.diag().fold(0.0_f64, |m, &d| m.max(d));
            let shifted = &a - &(Array2::<f64>::eye(n) * (1.0 + shift) * largest);
            match (pure::cholesky_lower(shifted.view()), shifted.cholesky()) {
                (Ok(ours), Ok(linfa)) => prop_assert_eq!(bits(&ours), bits(&linfa)),
                (Err(ours), Err(linfa)) => prop_assert_eq!(ours, linfa.to_string()),
                (ours, linfa) => prop_assert!(false, "{ours:?} vs {linfa:?}"),
            }
        }

        /// The vector solve of the pure backend is the two triangular solves, bit for bit.
        #[test]
        fn vector_solve_is_the_triangular_solves_bit_for_bit(
            n in 1usize..7,
            entries in proptest::collection::vec(-3.0f64..3.0, 36),
            rhs in proptest::collection::vec(-1e3f64..1e3, 6),
        ) {
            let a = spd_from(&entries[..n * n], n);
            let l = pure::cholesky_lower(a.view()).unwrap();
            let b = Array1::from(rhs[..n].to_vec());
            let z = pure::solve_triangular(l.view(), b.view().insert_axis(Axis(1)), Triangle::Lower)
                .unwrap();
            let x = pure::solve_triangular(l.t(), z.view(), Triangle::Upper).unwrap();
            let fast = pure::solve_vec(l.view(), b.view());
            let bits = |v: &mut dyn Iterator<Item = f64>| v.map(f64::to_bits).collect::<Vec<_>>();
            prop_assert_eq!(bits(&mut x.iter().copied()), bits(&mut fast.iter().copied()));
        }
    }

    #[test]
    fn vector_solve_checks_the_right_hand_side() {
        let c = Cholesky::new(array![[4.0, 2.0], [2.0, 3.0]].view(), "a").unwrap();
        assert!(matches!(
            c.solve_vec(array![1.0, 2.0, 3.0].view()),
            Err(Error::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn known_factorisation() {
        let a = array![[4.0, 2.0], [2.0, 3.0]];
        let c = Cholesky::new(a.view(), "a").unwrap();
        assert_abs_diff_eq!(
            c.factor(),
            array![[2.0, 0.0], [1.0, 2f64.sqrt()]],
            epsilon = 1e-14
        );
        assert_abs_diff_eq!(c.log_det(), 8f64.ln(), epsilon = 1e-14);
        let x = c.solve_vec(array![2.0, 1.0].view()).unwrap();
        assert_abs_diff_eq!(a.dot(&x), array![2.0, 1.0], epsilon = 1e-14);
        assert_abs_diff_eq!(
            c.inv_quadratic_forms(array![[2.0], [1.0]].view()).unwrap()[0],
            array![2.0, 1.0].dot(&x),
            epsilon = 1e-14
        );
    }

    #[test]
    fn errors_are_typed() {
        let indefinite = array![[1.0, 2.0], [2.0, 1.0]];
        assert!(matches!(
            Cholesky::new(indefinite.view(), "Σ"),
            Err(Error::NotPositiveDefinite { .. })
        ));
        // Singular in exact arithmetic; round-off may leave a tiny positive pivot.
        let rank_one = array![[2.0 / 3.0, 4.0 / 3.0], [4.0 / 3.0, 8.0 / 3.0]];
        assert!(matches!(
            Cholesky::new(rank_one.view(), "Σ"),
            Err(Error::NotPositiveDefinite { .. })
        ));
        let singular = array![[1.0, 1.0], [1.0, 1.0]];
        assert!(matches!(
            Cholesky::new(singular.view(), "Σ"),
            Err(Error::NotPositiveDefinite { .. })
        ));
        assert!(matches!(
            Cholesky::new(array![[1.0, 2.0, 3.0]].view(), "Σ"),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            Cholesky::new(array![[f64::NAN]].view(), "Σ"),
            Err(Error::NonFinite { .. })
        ));
        assert!(eigh(Array2::zeros((0, 0)).view()).is_err());
        let c = Cholesky::new(array![[1.0]].view(), "a").unwrap();
        assert!(c.solve(array![[1.0], [2.0]].view()).is_err());
    }

    #[test]
    fn eigen_decomposition_is_sorted_and_reconstructs() {
        let a = array![[2.0, 1.0, 0.0], [1.0, 2.0, 0.0], [0.0, 0.0, 5.0]];
        let e = eigh(a.view()).unwrap();
        assert_abs_diff_eq!(e.eigenvalues, array![1.0, 3.0, 5.0], epsilon = 1e-12);
        let v = &e.eigenvectors;
        let rebuilt = v.dot(&Array2::from_diag(&e.eigenvalues)).dot(&v.t());
        assert_abs_diff_eq!(rebuilt, a, epsilon = 1e-12);
    }

    proptest! {
        #[test]
        fn spd_identities(entries in prop::collection::vec(-3.0f64..3.0, 16)) {
            let a = spd_from(&entries, 4);
            let c = Cholesky::new(a.view(), "a").unwrap();
            let l = c.factor();
            prop_assert!((l.dot(&l.t()) - &a).iter().all(|d| d.abs() < 1e-10));
            let inv = c.inverse().unwrap();
            prop_assert!((inv.dot(&a) - Array2::<f64>::eye(4)).iter().all(|d| d.abs() < 1e-10));
            let e = eigh(a.view()).unwrap();
            let log_det_eig: f64 = e.eigenvalues.iter().map(|v| v.ln()).sum();
            prop_assert!((log_det_eig - c.log_det()).abs() < 1e-9);
            prop_assert!(e.eigenvalues.windows(2).into_iter().all(|w| w[0] <= w[1]));
        }
    }

    /// The two backends agree. LAPACK is loaded as the backend would load it; where none is
    /// installed the comparison is skipped, unless this process was asked to use LAPACK.
    mod backends_agree {
        use super::super::backend::BACKEND_VARIABLE;
        use super::super::lapack::Lapack;
        use super::super::{pure, Triangle};
        use super::spd_from;
        use proptest::prelude::*;
        use std::sync::OnceLock;

        fn lapack() -> Option<&'static Lapack> {
            static LAPACK: OnceLock<Option<Lapack>> = OnceLock::new();
            LAPACK
                .get_or_init(|| match Lapack::load() {
                    Ok(lapack) => Some(lapack),
                    Err(why) if std::env::var(BACKEND_VARIABLE).as_deref() == Ok("lapack") => {
                        panic!("{BACKEND_VARIABLE}=lapack, but {why}")
                    }
                    Err(why) => {
                        eprintln!("the backends' agreement is not checked: {why}");
                        None
                    }
                })
                .as_ref()
        }

        fn close(a: &ndarray::Array2<f64>, b: &ndarray::Array2<f64>, tol: f64) -> bool {
            a.shape() == b.shape() && a.iter().zip(b.iter()).all(|(x, y)| (x - y).abs() <= tol)
        }

        proptest! {
            #[test]
            fn cholesky_solves_and_eigen(n in 1usize..6,
                                         entries in prop::collection::vec(-3.0f64..3.0, 25),
                                         rhs in prop::collection::vec(-5.0f64..5.0, 10)) {
                let Some(lapack) = lapack() else { return Ok(()) };
                let a = spd_from(&entries[..n * n], n);
                let b = ndarray::Array2::from_shape_vec((n, 2), rhs[..2 * n].to_vec()).unwrap();
                let lp = pure::cholesky_lower(a.view()).unwrap();
                let ll = lapack.cholesky_lower(a.view()).unwrap();
                prop_assert!(close(&lp, &ll, 1e-10));
                for tri in [Triangle::Lower, Triangle::Upper] {
                    // The upper factor as a transposed view, as `Cholesky::solve_upper` passes it.
                    let t = match tri { Triangle::Lower => lp.view(), Triangle::Upper => lp.t() };
                    let xp = pure::solve_triangular(t, b.view(), tri).unwrap();
                    let xl = lapack.solve_triangular(t, b.view(), tri).unwrap();
                    prop_assert!(close(&xp, &xl, 1e-10));
                }
                let (vp, ep) = pure::eigh_ascending(a.view()).unwrap();
                let (vl, el) = lapack.eigh_ascending(a.view()).unwrap();
                prop_assert!(vp.iter().zip(vl.iter()).all(|(x, y)| (x - y).abs() < 1e-9));
                // Eigenvectors are defined up to sign: compare |⟨u, v⟩| = 1 column by column.
                for j in 0..n {
                    let dot = ep.column(j).dot(&el.column(j)).abs();
                    prop_assert!((dot - 1.0).abs() < 1e-8, "column {} dot {}", j, dot);
                }
            }
        }

        #[test]
        fn lapack_reports_what_the_backend_does() {
            let Some(lapack) = lapack() else { return };
            let indefinite = ndarray::array![[1.0, 2.0], [2.0, 1.0]];
            let why = lapack.cholesky_lower(indefinite.view()).unwrap_err();
            assert!(why.contains("order 2"), "{why}");
            let singular = ndarray::array![[1.0, 0.0], [1.0, 0.0]];
            let b = ndarray::array![[1.0], [1.0]];
            let why = lapack
                .solve_triangular(singular.view(), b.view(), Triangle::Lower)
                .unwrap_err();
            assert!(why.to_string().contains("diagonal entry 2"), "{why}");
        }
    }

    /// The choice of backend from the environment variable's value.
    mod choice {
        use super::super::backend::{choose, Selected};
        use std::ffi::OsStr;

        fn unloadable() -> Result<super::super::lapack::Lapack, String> {
            Err("no library here".into())
        }

        #[test]
        fn unset_empty_and_rust_choose_the_pure_backend() {
            for value in [None, Some(""), Some("rust"), Some("Rust")] {
                let chosen = choose(value.map(OsStr::new), unloadable);
                assert!(matches!(chosen, Ok(Selected::Rust)), "{value:?}");
            }
        }

        #[test]
        fn lapack_that_cannot_load_is_an_error_not_the_other_backend() {
            let Err(why) = choose(Some(OsStr::new("LAPACK")), unloadable) else {
                panic!("LAPACK was asked for and could not be loaded");
            };
            assert!(why.contains("GENDISC_LINALG=lapack") && why.contains("no library here"));
        }

        #[test]
        fn an_unknown_value_is_an_error_naming_the_choices() {
            let Err(why) = choose(Some(OsStr::new("mkl")), unloadable) else {
                panic!("an unknown backend was accepted");
            };
            assert!(why.contains("\"mkl\"") && why.contains("`lapack`"), "{why}");
        }

        #[test]
        fn a_missing_library_is_named_in_the_error() {
            let missing = std::ffi::OsString::from("/nonexistent/liblapack-for-gendisc.so");
            let Err(why) = super::super::lapack::Lapack::load_from(&[missing]) else {
                panic!("a library that does not exist was loaded");
            };
            assert!(
                why.contains("/nonexistent/liblapack-for-gendisc.so"),
                "{why}"
            );
            assert!(why.contains("GENDISC_LAPACK_LIBRARY"), "{why}");
        }
    }
}
