//! The multivariate normal distribution `N(μ, Σ)`, sampled through the Cholesky factor of `Σ`.

use std::f64::consts::PI;

use gendisc_core::linalg::Cholesky;
use gendisc_core::validate::{check_finite_matrix, check_finite_vector};
use gendisc_core::{Error, Result};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut2};
use rand::Rng;
use rand_distr::StandardNormal;

/// Largest relative asymmetry `|Σ_ij − Σ_ji| / max(|Σ_ij|, |Σ_ji|)` accepted in a covariance
/// matrix. The factorisation reads only the lower triangle, so an asymmetric input would be
/// silently reinterpreted; anything beyond round-off is refused instead.
const SYMMETRY_RTOL: f64 = 1e-12;

/// A multivariate normal distribution `N(μ, Σ)` with symmetric positive definite `Σ`.
///
/// A draw is `x = μ + L z` with `Σ = L Lᵀ` (lower Cholesky factor) and `z` a vector of
/// independent standard normals, drawn in column order. The product `L z` is summed in a fixed
/// order with plain (unfused) arithmetic, so a seed gives the same bits on every platform
/// whose `exp`/`ln` agree.
///
/// ```
/// use gendisc_data::generators::MultivariateNormal;
/// use ndarray::array;
/// use rand::SeedableRng;
/// use rand_chacha::ChaCha8Rng;
///
/// let normal = MultivariateNormal::new(array![1.0, -1.0], array![[1.0, 0.5], [0.5, 2.0]])?;
/// let x = normal.sample(1000, &mut ChaCha8Rng::seed_from_u64(7));
/// assert_eq!(x.dim(), (1000, 2));
/// # Ok::<(), gendisc_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct MultivariateNormal {
    mean: Array1<f64>,
    covariance: Array2<f64>,
    cholesky: Cholesky,
}

impl MultivariateNormal {
    /// Validates `mean` (length `d ≥ 1`, finite) and `covariance` (`d × d`, finite, symmetric,
    /// positive definite) and factorises `covariance`.
    ///
    /// Errors: [`Error::Empty`] for `d = 0`, [`Error::ShapeMismatch`] when `covariance` is not
    /// `d × d`, [`Error::NonFinite`] naming the entry, [`Error::InvalidValue`] for an asymmetric
    /// pair (reported at the lower-triangle position), [`Error::NotPositiveDefinite`] otherwise.
    pub fn new(mean: Array1<f64>, covariance: Array2<f64>) -> Result<Self> {
        let d = mean.len();
        if d == 0 {
            return Err(Error::Empty {
                what: "mean of the multivariate normal".into(),
            });
        }
        check_finite_vector(mean.view(), "mean")?;
        if covariance.nrows() != d {
            return Err(Error::shape_mismatch(
                "rows of covariance vs length of mean",
                d,
                covariance.nrows(),
            ));
        }
        if covariance.ncols() != d {
            return Err(Error::shape_mismatch(
                "columns of covariance vs length of mean",
                d,
                covariance.ncols(),
            ));
        }
        check_finite_matrix(covariance.view(), "covariance")?;
        check_symmetric(covariance.view(), "covariance")?;
        let cholesky = Cholesky::new(covariance.view(), "covariance")?;
        Ok(Self {
            mean,
            covariance,
            cholesky,
        })
    }

    /// `N(μ, I)`.
    pub fn with_identity_covariance(mean: Array1<f64>) -> Result<Self> {
        let d = mean.len();
        Self::new(mean, Array2::eye(d))
    }

    /// Dimension `d`.
    pub fn dim(&self) -> usize {
        self.mean.len()
    }

    /// The mean `μ`.
    pub fn mean(&self) -> ArrayView1<'_, f64> {
        self.mean.view()
    }

    /// The covariance `Σ`, as given.
    pub fn covariance(&self) -> ArrayView2<'_, f64> {
        self.covariance.view()
    }

    /// The lower Cholesky factor `L` of `Σ = L Lᵀ`.
    pub fn cholesky_factor(&self) -> ArrayView2<'_, f64> {
        self.cholesky.factor()
    }

    /// `n` independent draws, one per row of an `n × d` matrix.
    pub fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> Array2<f64> {
        let mut out = Array2::zeros((n, self.dim()));
        self.fill(out.view_mut(), rng);
        out
    }

    /// Fills every row of `out` (whose width the caller guarantees to be `d`) with a draw.
    pub(crate) fn fill<R: Rng + ?Sized>(&self, mut out: ArrayViewMut2<'_, f64>, rng: &mut R) {
        debug_assert_eq!(out.ncols(), self.dim());
        let l = self.cholesky.factor();
        let d = self.dim();
        let mut z = vec![0.0; d];
        for mut row in out.rows_mut() {
            for zj in z.iter_mut() {
                *zj = rng.sample(StandardNormal);
            }
            for i in 0..d {
                let mut value = self.mean[i];
                for j in 0..=i {
                    value += l[[i, j]] * z[j];
                }
                row[i] = value;
            }
        }
    }

    /// `log N(x_i; μ, Σ) = −½ (d log 2π + log det Σ + (x_i − μ)ᵀ Σ⁻¹ (x_i − μ))` for each row
    /// `x_i` of `x` (`n × d`, finite).
    pub fn log_density(&self, x: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        if x.ncols() != self.dim() {
            return Err(Error::shape_mismatch(
                "columns of x vs dimension of the normal",
                self.dim(),
                x.ncols(),
            ));
        }
        check_finite_matrix(x, "x")?;
        let centred_t = (&x - &self.mean).reversed_axes();
        let squared_distances = self.cholesky.inv_quadratic_forms(centred_t.view())?;
        let constant = self.dim() as f64 * (2.0 * PI).ln() + self.cholesky.log_det();
        Ok(squared_distances.mapv_into(|q| -0.5 * (constant + q)))
    }
}

/// `a` equals its transpose up to [`SYMMETRY_RTOL`]; the first offending pair is reported at
/// its lower-triangle position `(i, j)`, `i > j`.
fn check_symmetric(a: ArrayView2<'_, f64>, what: &str) -> Result<()> {
    for i in 0..a.nrows() {
        for j in 0..i {
            let (lower, upper) = (a[[i, j]], a[[j, i]]);
            if (lower - upper).abs() > SYMMETRY_RTOL * lower.abs().max(upper.abs()) {
                return Err(Error::InvalidValue {
                    what: what.into(),
                    row: i,
                    column: j,
                    value: lower,
                    reason: format!("the matrix is not symmetric: entry ({j}, {i}) is {upper}"),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;
    use ndarray::array;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn rejects_bad_parameters_with_typed_errors() {
        let ok_cov = array![[1.0, 0.0], [0.0, 1.0]];
        assert!(matches!(
            MultivariateNormal::new(Array1::zeros(0), Array2::zeros((0, 0))),
            Err(Error::Empty { .. })
        ));
        assert!(matches!(
            MultivariateNormal::new(array![0.0, f64::NAN], ok_cov.clone()),
            Err(Error::NonFinite { row: 1, .. })
        ));
        assert!(matches!(
            MultivariateNormal::new(array![0.0, 0.0, 0.0], ok_cov.clone()),
            Err(Error::ShapeMismatch {
                expected: 3,
                found: 2,
                ..
            })
        ));
        assert!(matches!(
            MultivariateNormal::new(array![0.0, 0.0], array![[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]),
            Err(Error::ShapeMismatch {
                expected: 2,
                found: 3,
                ..
            })
        ));
        assert!(matches!(
            MultivariateNormal::new(array![0.0, 0.0], array![[1.0, 0.0], [f64::INFINITY, 1.0]]),
            Err(Error::NonFinite {
                row: 1,
                column: 0,
                ..
            })
        ));
        assert!(matches!(
            MultivariateNormal::new(array![0.0, 0.0], array![[1.0, 0.1], [0.3, 1.0]]),
            Err(Error::InvalidValue {
                row: 1,
                column: 0,
                ..
            })
        ));
        assert!(matches!(
            MultivariateNormal::new(array![0.0, 0.0], array![[1.0, 2.0], [2.0, 1.0]]),
            Err(Error::NotPositiveDefinite { .. })
        ));
        assert!(matches!(
            MultivariateNormal::new(array![0.0, 0.0], array![[1.0, 1.0], [1.0, 1.0]]),
            Err(Error::NotPositiveDefinite { .. })
        ));
    }

    #[test]
    fn draws_are_mean_plus_factor_times_standard_normals() {
        // Replaying the documented construction with the same stream must give the same bits.
        let normal =
            MultivariateNormal::new(array![1.0, -2.0], array![[4.0, 2.0], [2.0, 3.0]]).unwrap();
        let x = normal.sample(3, &mut ChaCha8Rng::seed_from_u64(11));
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        // L = [[2, 0], [1, √2]] for this Σ.
        for row in x.rows() {
            let z0: f64 = rng.sample(StandardNormal);
            let z1: f64 = rng.sample(StandardNormal);
            assert_eq!(row[0], 1.0 + 2.0 * z0);
            assert_abs_diff_eq!(row[1], -2.0 + z0 + 2f64.sqrt() * z1, epsilon = 1e-15);
        }
    }

    #[test]
    fn same_seed_same_bits() {
        let normal = MultivariateNormal::with_identity_covariance(array![0.0, 1.0, 2.0]).unwrap();
        let a = normal.sample(50, &mut ChaCha8Rng::seed_from_u64(3));
        let b = normal.sample(50, &mut ChaCha8Rng::seed_from_u64(3));
        let c = normal.sample(50, &mut ChaCha8Rng::seed_from_u64(4));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(
            normal.sample(0, &mut ChaCha8Rng::seed_from_u64(3)).dim(),
            (0, 3)
        );
    }

    #[test]
    fn log_density_matches_product_of_univariate_normals() {
        // Diagonal Σ: the density factorises, log N = Σ_j log N(x_j; μ_j, σ_j²).
        let variances = [0.5, 2.0, 3.0];
        let mean = array![1.0, 0.0, -1.0];
        let normal =
            MultivariateNormal::new(mean.clone(), Array2::from_diag(&array![0.5, 2.0, 3.0]))
                .unwrap();
        let x = array![[0.0, 0.0, 0.0], [1.0, 2.0, -3.0], [10.0, -4.0, 0.5]];
        let got = normal.log_density(x.view()).unwrap();
        for (i, row) in x.rows().into_iter().enumerate() {
            let expected: f64 = (0..3)
                .map(|j| {
                    let r = row[j] - mean[j];
                    -0.5 * ((2.0 * PI * variances[j]).ln() + r * r / variances[j])
                })
                .sum();
            assert_abs_diff_eq!(got[i], expected, epsilon = 1e-12);
        }
    }

    #[test]
    fn log_density_of_correlated_pair_matches_closed_form() {
        // Bivariate normal with unit variances and correlation ρ:
        // log N = −log(2π) − ½ log(1 − ρ²) − (x² − 2ρxy + y²) / (2(1 − ρ²)).
        let rho: f64 = 0.6;
        let normal =
            MultivariateNormal::new(array![0.0, 0.0], array![[1.0, rho], [rho, 1.0]]).unwrap();
        let (x, y) = (0.7, -1.3);
        let expected = -(2.0 * PI).ln()
            - 0.5 * (1.0 - rho * rho).ln()
            - (x * x - 2.0 * rho * x * y + y * y) / (2.0 * (1.0 - rho * rho));
        let got = normal.log_density(array![[x, y]].view()).unwrap();
        assert_abs_diff_eq!(got[0], expected, epsilon = 1e-12);
    }

    #[test]
    fn log_density_validates_its_input() {
        let normal = MultivariateNormal::with_identity_covariance(array![0.0, 0.0]).unwrap();
        assert!(matches!(
            normal.log_density(array![[0.0, 0.0, 0.0]].view()),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            normal.log_density(array![[0.0, 0.0], [0.0, f64::NAN]].view()),
            Err(Error::NonFinite {
                row: 1,
                column: 1,
                ..
            })
        ));
    }
}
