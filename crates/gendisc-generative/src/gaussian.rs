//! Helpers shared by the full-covariance Gaussian models ([`Lda`](crate::Lda),
//! [`Qda`](crate::Qda)): covariance shrinkage, the log-density through a Cholesky factor, and
//! sampling.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut1, Axis};
use rand::Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

use gendisc_core::linalg::Cholesky;
use gendisc_core::model_file::invariants::{finite, invalid};
use gendisc_core::{Error, Result};

use crate::common::ln_2pi;
use crate::model_file::{check_classes, check_size};
use crate::unit::Unit;

/// A regulariser for an estimated covariance matrix `S` (`d × d`), which makes a singular
/// estimate (fewer rows than features, collinear features) positive definite.
///
/// | variant | result | reference convention |
/// |---|---|---|
/// | `None` (default) | `S` | — |
/// | `Identity(r)` | `(1 − r) S + r I` | scikit-learn `QuadraticDiscriminantAnalysis(reg_param = r)` |
/// | `ScaledIdentity(γ)` | `(1 − γ) S + γ (tr S / d) I` | scikit-learn `shrinkage = γ` (LDA with `solver = "lsqr"`/`"eigen"`, QDA with `solver = "eigen"`) |
///
/// Both coefficients lie in `[0, 1]`. `ScaledIdentity` keeps the average variance `tr S / d`
/// and so does not depend on the units of the data; `Identity` adds unit variance whatever
/// the scale.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub enum CovarianceShrinkage {
    /// No regularisation.
    #[default]
    None,
    /// Shrink toward the identity: `(1 − r) S + r I`.
    Identity(f64),
    /// Shrink toward the scaled identity: `(1 − γ) S + γ (tr S / d) I`.
    ScaledIdentity(f64),
}

impl CovarianceShrinkage {
    /// Validates the coefficient; `name` is the params field.
    pub(crate) fn check(self, name: &'static str) -> Result<()> {
        match self {
            CovarianceShrinkage::None => Ok(()),
            CovarianceShrinkage::Identity(c) | CovarianceShrinkage::ScaledIdentity(c) => {
                if (0.0..=1.0).contains(&c) {
                    Ok(())
                } else {
                    Err(Error::invalid_parameter(
                        name,
                        format!("the shrinkage coefficient must lie in [0, 1], got {c}"),
                    ))
                }
            }
        }
    }

    /// True when the regulariser cannot make a singular matrix positive definite (no
    /// shrinkage, or a zero coefficient).
    pub(crate) fn is_none(self) -> bool {
        match self {
            CovarianceShrinkage::None => true,
            CovarianceShrinkage::Identity(c) | CovarianceShrinkage::ScaledIdentity(c) => c == 0.0,
        }
    }

    /// Applies the regulariser in place to a covariance `s` given in the unit `unit` of the
    /// model, so that `Identity`'s `I` is the identity in the data's units (`I / u²` here).
    /// `name` is the params field, named in the error when that identity is not representable in
    /// the model's unit (data near `10⁻³⁰⁰`, against which a unit variance is `10⁶⁰⁰` times
    /// larger).
    pub(crate) fn apply(self, s: &mut Array2<f64>, unit: Unit, name: &'static str) -> Result<()> {
        let d = s.nrows();
        let (keep, add) = match self {
            CovarianceShrinkage::None => return Ok(()),
            CovarianceShrinkage::Identity(r) => (1.0 - r, r / unit.value() / unit.value()),
            CovarianceShrinkage::ScaledIdentity(g) => (1.0 - g, g * s.diag().sum() / d as f64),
        };
        if !add.is_finite() {
            return Err(Error::invalid_parameter(
                name,
                format!(
                    "shrinking toward the identity adds a unit variance to data of magnitude {:e}, \
                     which the model's unit cannot hold; `ScaledIdentity` shrinks toward the \
                     data's own scale",
                    unit.value()
                ),
            ));
        }
        *s *= keep;
        s.diag_mut().mapv_inplace(|v| v + add);
        Ok(())
    }
}

/// Factorises a covariance matrix, turning a failure into an error that says how to fix it.
pub(crate) fn factorise(
    covariance: ArrayView2<'_, f64>,
    what: &str,
    remedy: &str,
) -> Result<Cholesky> {
    Cholesky::new(covariance, what).map_err(|e| match e {
        Error::NotPositiveDefinite { what, detail, .. } => {
            let (diagnosis, columns) = singular_columns(covariance);
            Error::NotPositiveDefinite {
                what,
                detail: Some(
                    [detail, diagnosis, Some(remedy.to_string())]
                        .into_iter()
                        .flatten()
                        .collect::<Vec<_>>()
                        .join("; "),
                ),
                columns,
            }
        }
        other => other,
    })
}

/// Which columns make a singular covariance singular: those without spread (a diagonal entry
/// at most `10⁻¹²` of the largest), else the columns that carry the eigenvector of the
/// correlation matrix's smallest eigenvalue (loadings at least a tenth of the largest), a
/// linearly dependent set. Returns the sentence that says so and the 0-based positions; `None`
/// and none when neither test finds them.
fn singular_columns(covariance: ArrayView2<'_, f64>) -> (Option<String>, Vec<usize>) {
    let diagonal = covariance.diag();
    let largest = diagonal.fold(0.0f64, |m, &v| m.max(v));
    let constant: Vec<usize> = (0..diagonal.len())
        .filter(|&j| diagonal[j] <= 1e-12 * largest)
        .collect();
    if !constant.is_empty() {
        return (
            Some(format!(
                "the input column(s) at 0-based position(s) {} have no spread",
                positions(&constant)
            )),
            constant,
        );
    }
    let scale = diagonal.mapv(f64::sqrt);
    let correlation = Array2::from_shape_fn(covariance.dim(), |(i, j)| {
        covariance[[i, j]] / (scale[i] * scale[j])
    });
    let Ok(eigen) = gendisc_core::linalg::eigh(correlation.view()) else {
        return (None, Vec::new());
    };
    let direction = eigen.eigenvectors.column(0);
    let top = direction.fold(0.0f64, |m, &v| m.max(v.abs()));
    let dependent: Vec<usize> = (0..direction.len())
        .filter(|&j| direction[j].abs() >= 0.1 * top)
        .collect();
    (
        Some(format!(
            "the input columns at 0-based positions {} are (nearly) linearly dependent",
            positions(&dependent)
        )),
        dependent,
    )
}

fn positions(columns: &[usize]) -> String {
    columns
        .iter()
        .map(|j| j.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `log N(x_i; μ, Σ) = −½ [d ln 2π + ln |Σ| + (x_i − μ)ᵀ Σ⁻¹ (x_i − μ)]` for every row, with
/// `Σ = L Lᵀ` given by its Cholesky factor; written into `out`.
pub(crate) fn log_density_into(
    x: ArrayView2<'_, f64>,
    mean: ArrayView1<'_, f64>,
    chol: &Cholesky,
    mut out: ArrayViewMut1<'_, f64>,
) -> Result<()> {
    let d = x.ncols();
    // Columns are the centred rows: d × n, the layout the triangular solve wants.
    let centred = (&x - &mean.insert_axis(Axis(0))).reversed_axes();
    let mahalanobis = chol.inv_quadratic_forms(centred.view())?;
    let constant = -0.5 * (d as f64 * ln_2pi() + chol.log_det());
    out.zip_mut_with(&mahalanobis, |o, &q| *o = constant - 0.5 * q);
    Ok(())
}

/// Writes `μ + L z` with `z ~ N(0, I)` into `row`; `z` is a scratch buffer of length `d`.
pub(crate) fn draw_gaussian<R: Rng + ?Sized>(
    mean: ArrayView1<'_, f64>,
    factor: ArrayView2<'_, f64>,
    z: &mut [f64],
    mut row: ArrayViewMut1<'_, f64>,
    rng: &mut R,
) {
    for zj in z.iter_mut() {
        *zj = rng.sample(StandardNormal);
    }
    for (a, x) in row.iter_mut().enumerate() {
        let lz: f64 = (0..=a).map(|b| factor[[a, b]] * z[b]).sum();
        *x = mean[a] + lz;
    }
}

/// The invariants that [`Lda`](crate::Lda) and [`Qda`](crate::Qda) share: the unit is a power
/// of two, `means` is a finite `K × d` matrix, and the class priors and weights are those of `K`
/// classes.
pub(crate) fn check_means_and_classes(
    kind: &str,
    unit: Unit,
    means: &Array2<f64>,
    log_prior: &Array1<f64>,
    class_weight: &Array1<f64>,
) -> Result<()> {
    unit.check(kind)?;
    let (n_classes, d) = means.dim();
    check_size(kind, "means", n_classes, d)?;
    finite(kind, "means", means)?;
    check_classes(kind, n_classes, log_prior, class_weight)
}

/// A covariance matrix of the field `field` is finite and exactly symmetric, as every fit
/// builds it (the Cholesky factorisation reads only its lower triangle, so an asymmetric one
/// would be reported by the model's accessors but not used). Positive definiteness is the
/// factorisation's to check.
pub(crate) fn check_symmetric(
    kind: &str,
    field: &str,
    covariance: ArrayView2<'_, f64>,
) -> Result<()> {
    finite(kind, field, &covariance)?;
    match covariance
        .indexed_iter()
        .find(|&((a, b), &v)| b < a && v != covariance[[b, a]])
    {
        Some(((a, b), &v)) => Err(invalid(
            kind,
            field,
            format!(
                "entry ({a}, {b}) is {v} but entry ({b}, {a}) is {}: a covariance is symmetric",
                covariance[[b, a]]
            ),
        )),
        None => Ok(()),
    }
}

/// The Cholesky factor of a deserialised covariance of the field `field`; a matrix that is not
/// positive definite is an [`Error::InvalidModel`] about that field.
pub(crate) fn factorise_saved(
    kind: &str,
    field: &str,
    covariance: ArrayView2<'_, f64>,
    what: &str,
) -> Result<Cholesky> {
    Cholesky::new(covariance, what).map_err(|e| invalid(kind, field, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use ndarray::array;

    #[test]
    fn shrinkage_rules() {
        let s = array![[4.0, 1.0], [1.0, 2.0]];
        let mut a = s.clone();
        CovarianceShrinkage::Identity(0.25)
            .apply(&mut a, Unit::ONE, "reg")
            .unwrap();
        assert_relative_eq!(a, array![[3.25, 0.75], [0.75, 1.75]]);
        let mut b = s.clone();
        CovarianceShrinkage::ScaledIdentity(0.5)
            .apply(&mut b, Unit::ONE, "reg")
            .unwrap();
        // tr S / d = 3.
        assert_relative_eq!(b, array![[3.5, 0.5], [0.5, 2.5]]);
        assert!(CovarianceShrinkage::Identity(1.5).check("reg").is_err());
        assert!(CovarianceShrinkage::ScaledIdentity(f64::NAN)
            .check("reg")
            .is_err());
        assert!(CovarianceShrinkage::Identity(0.0).is_none());
    }

    #[test]
    fn log_density_matches_the_formula() {
        let cov = array![[2.0, 0.5], [0.5, 1.0]];
        let chol = Cholesky::new(cov.view(), "Σ").unwrap();
        let x = array![[1.0, -1.0], [0.0, 0.5]];
        let mean = array![0.5, 0.0];
        let mut out = Array1::zeros(2);
        log_density_into(x.view(), mean.view(), &chol, out.view_mut()).unwrap();
        let det: f64 = 2.0 * 1.0 - 0.25;
        let inv = array![[1.0, -0.5], [-0.5, 2.0]] / det;
        for i in 0..2 {
            let dv = &x.row(i) - &mean;
            let q = dv.dot(&inv.dot(&dv));
            let expected = -0.5 * (2.0 * ln_2pi() + det.ln() + q);
            assert_relative_eq!(out[i], expected, max_relative = 1e-13);
        }
    }
}
