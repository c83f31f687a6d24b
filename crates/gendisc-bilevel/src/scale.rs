//! Symmetric positive definite scale matrices (`Σ_i`, `Ω_i`) in the forms text data needs.

use gendisc_core::linalg::Cholesky;
use gendisc_core::validate::check_finite_vector;
use gendisc_core::{Error, Result};
use gendisc_optim::Affine;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};

/// A symmetric positive definite `n × n` matrix `M`: a multiple of the identity, a diagonal, or
/// dense (held with its Cholesky factor `M = L Lᵀ`).
///
/// The identity and diagonal forms cost `O(n)` memory, which is what a vocabulary of thousands
/// of words needs (Epshteyn & DeJong use `Σ_i = I` and a diagonal `Ω_i`, §5).
///
/// The representation is private so that every value has passed the constructors' checks.
#[derive(Debug, Clone, PartialEq)]
pub struct ScaleMatrix(Form);

#[derive(Debug, Clone, PartialEq)]
enum Form {
    /// `s · I` with `s > 0`.
    Identity { dim: usize, scale: f64 },
    /// `diag(d)` with every `d_j > 0`.
    Diagonal(Array1<f64>),
    /// A dense matrix and its lower Cholesky factor `L`.
    Dense {
        matrix: Array2<f64>,
        factor: Array2<f64>,
    },
}

impl ScaleMatrix {
    /// The identity `I_n`.
    pub fn identity(dim: usize) -> Self {
        Self(Form::Identity { dim, scale: 1.0 })
    }

    /// `scale · I_n`; `scale` must be finite and positive.
    pub fn scaled_identity(dim: usize, scale: f64, what: &str) -> Result<Self> {
        if !(scale.is_finite() && scale > 0.0) {
            return Err(Error::InvalidValue {
                what: what.into(),
                row: 0,
                column: 0,
                value: scale,
                reason: "the multiple of the identity must be finite and positive".into(),
            });
        }
        Ok(Self(Form::Identity { dim, scale }))
    }

    /// `diag(d)`; every entry must be finite and positive.
    pub fn diagonal(d: Array1<f64>, what: &str) -> Result<Self> {
        check_finite_vector(d.view(), what)?;
        if let Some((j, &v)) = d.iter().enumerate().find(|&(_, &v)| v <= 0.0) {
            return Err(Error::InvalidValue {
                what: what.into(),
                row: j,
                column: j,
                value: v,
                reason: "diagonal entries must be positive".into(),
            });
        }
        Ok(Self(Form::Diagonal(d)))
    }

    /// A dense symmetric positive definite matrix (symmetry is checked to `1e-10` relative).
    pub fn dense(m: Array2<f64>, what: &str) -> Result<Self> {
        let chol = Cholesky::new(m.view(), what)?;
        let n = m.nrows();
        for i in 0..n {
            for j in 0..i {
                let (a, b) = (m[[i, j]], m[[j, i]]);
                if (a - b).abs() > 1e-10 * (1.0 + a.abs().max(b.abs())) {
                    return Err(Error::InvalidValue {
                        what: what.into(),
                        row: j,
                        column: i,
                        value: b,
                        reason: format!("matrix is not symmetric: entry ({i}, {j}) is {a}"),
                    });
                }
            }
        }
        Ok(Self(Form::Dense {
            matrix: m,
            factor: chol.into_factor(),
        }))
    }

    /// The dimension `n`.
    pub fn dim(&self) -> usize {
        match &self.0 {
            Form::Identity { dim, .. } => *dim,
            Form::Diagonal(d) => d.len(),
            Form::Dense { matrix, .. } => matrix.nrows(),
        }
    }

    /// `s` when the matrix is `s · I`.
    pub(crate) fn identity_scale(&self) -> Option<f64> {
        match &self.0 {
            Form::Identity { scale, .. } => Some(*scale),
            _ => None,
        }
    }

    /// `M w` (`w` of length [`dim`](Self::dim)).
    pub(crate) fn apply(&self, w: ArrayView1<'_, f64>) -> Array1<f64> {
        match &self.0 {
            Form::Identity { scale, .. } => w.mapv(|v| v * scale),
            Form::Diagonal(d) => &w * d,
            Form::Dense { matrix, .. } => matrix.dot(&w),
        }
    }

    /// `‖M^{1/2} w‖ = √(wᵀ M w)`.
    pub(crate) fn half_norm(&self, w: ArrayView1<'_, f64>) -> f64 {
        w.dot(&self.apply(w)).max(0.0).sqrt()
    }

    /// The rows of `Rᵀ w` as affine expressions in the variables `first .. first + n`, for a
    /// factor `M = R Rᵀ` (`R = √s I`, `diag(√d)` or the Cholesky factor), so that
    /// `‖Rᵀ w‖ = ‖M^{1/2} w‖` can be written as a second-order cone.
    pub(crate) fn half_rows(&self, first: usize) -> Vec<Affine> {
        match &self.0 {
            Form::Identity { dim, scale } => {
                let s = scale.sqrt();
                (0..*dim)
                    .map(|j| Affine::new().term(first + j, s))
                    .collect()
            }
            Form::Diagonal(d) => d
                .iter()
                .enumerate()
                .map(|(j, &v)| Affine::new().term(first + j, v.sqrt()))
                .collect(),
            Form::Dense { factor, .. } => lower_transpose_rows(factor.view(), first),
        }
    }
}

/// Rows of `Lᵀ w` for a lower-triangular `L`: row `i` is `Σ_{j ≥ i} L_ji w_j`.
fn lower_transpose_rows(l: ArrayView2<'_, f64>, first: usize) -> Vec<Affine> {
    let n = l.nrows();
    (0..n)
        .map(|i| Affine {
            terms: (i..n)
                .filter(|&j| l[[j, i]] != 0.0)
                .map(|j| (first + j, l[[j, i]]))
                .collect(),
            constant: 0.0,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;
    use ndarray::array;

    #[test]
    fn half_norms_agree_with_the_cone_rows() {
        let w = array![1.0, -2.0, 0.5];
        let forms = [
            ScaleMatrix::scaled_identity(3, 2.0, "s").unwrap(),
            ScaleMatrix::diagonal(array![1.0, 4.0, 9.0], "d").unwrap(),
            ScaleMatrix::dense(
                array![[2.0, 0.5, 0.0], [0.5, 1.0, 0.2], [0.0, 0.2, 3.0]],
                "m",
            )
            .unwrap(),
        ];
        for m in &forms {
            let rows = m.half_rows(0);
            let cone: f64 = rows
                .iter()
                .map(|r| r.eval(w.as_slice().unwrap()).powi(2))
                .sum::<f64>()
                .sqrt();
            assert_abs_diff_eq!(cone, m.half_norm(w.view()), epsilon = 1e-12);
        }
    }

    #[test]
    fn invalid_matrices_are_rejected() {
        assert!(ScaleMatrix::diagonal(array![1.0, 0.0], "d").is_err());
        assert!(ScaleMatrix::diagonal(array![1.0, f64::NAN], "d").is_err());
        assert!(ScaleMatrix::scaled_identity(2, -1.0, "s").is_err());
        assert!(ScaleMatrix::dense(array![[1.0, 2.0], [2.0, 1.0]], "m").is_err());
        assert!(ScaleMatrix::dense(array![[1.0, 0.1], [0.0, 1.0]], "m").is_err());
    }
}
