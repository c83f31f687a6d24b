//! The input reduction of Bouchard & Triggs §5: "the first four Fisher discriminant variables
//! … (when the number of classes was less than 5 … the remaining directions by PCA on the
//! residuals). These directions are computed using the training data."
//!
//! Our reading, step by step (all on the training rows only):
//!
//! 1. standardise every column to mean 0 and unit (ML) variance — a constant column is left
//!    at 0 — so that PCA does not pick whichever raw column has the largest units;
//! 2. the Fisher directions: the leading eigenvectors `w` of `S_W⁻¹ S_B` (within- and
//!    between-class scatter per row), at most `K − 1`, normalised to `wᵀ S_W w = 1`. A ridge
//!    of `1e-6 · tr(S_W)/d` is added to `S_W`, so that a column constant within the training
//!    rows does not make it singular;
//! 3. if fewer than four: principal components of the standardised rows projected onto the
//!    orthogonal complement of the Fisher directions, also normalised to `pᵀ S_W p = 1`, so
//!    that all four inputs have unit pooled within-class variance (the paper does not say how
//!    it scaled them; this matters for the spherical Balls models only).

use gendisc_core::linalg::{eigh, Cholesky};
use gendisc_core::{Error, Result};
use ndarray::{s, Array1, Array2, ArrayView1, ArrayView2, Axis};

/// A fitted reduction `x ↦ ((x − m) / s) D` of the inputs of Table 1 to four Fisher/PCA
/// directions; see the steps below.
///
/// 1. standardise every column on the training rows;
/// 2. Fisher directions: the leading eigenvectors of `S_W⁻¹ S_B` (at most `K − 1`), with a ridge
///    of `1e-6 · tr(S_W)/d` on `S_W`;
/// 3. principal components of the residual for the remaining directions;
///
/// every direction scaled to unit pooled within-class variance.
#[derive(Debug, Clone)]
pub struct Reduction {
    mean: Array1<f64>,
    scale: Array1<f64>,
    directions: Array2<f64>,
    n_fisher: usize,
}

impl Reduction {
    /// Fits the reduction to `n_components` inputs on the training rows.
    pub fn fit(
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        n_classes: usize,
        n_components: usize,
    ) -> Result<Self> {
        let (n, d) = x.dim();
        if n_components > d {
            return Err(Error::invalid_parameter(
                "n_components",
                format!("cannot reduce {d} features to {n_components}"),
            ));
        }
        let mean = x.mean_axis(Axis(0)).ok_or_else(|| Error::Empty {
            what: "training rows".into(),
        })?;
        let scale = x
            .axis_iter(Axis(1))
            .zip(mean.iter())
            .map(|(c, m)| {
                let v = c.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / n as f64;
                if v > 0.0 {
                    v.sqrt()
                } else {
                    1.0
                }
            })
            .collect::<Array1<f64>>();
        let z = (&x - &mean) / &scale;

        // Within- and between-class scatter per row.
        let mut class_mean = Array2::<f64>::zeros((n_classes, d));
        let mut count = vec![0.0; n_classes];
        for (row, &k) in z.axis_iter(Axis(0)).zip(y.iter()) {
            class_mean.row_mut(k).scaled_add(1.0, &row);
            count[k] += 1.0;
        }
        for (k, &c) in count.iter().enumerate() {
            if c == 0.0 {
                return Err(Error::EmptyClass {
                    class: k,
                    detail: Some("Fisher directions".into()),
                });
            }
            class_mean.row_mut(k).mapv_inplace(|v| v / c);
        }
        let mut centred = z.clone();
        for (mut row, &k) in centred.axis_iter_mut(Axis(0)).zip(y.iter()) {
            row -= &class_mean.row(k);
        }
        let mut s_w = centred.t().dot(&centred) / n as f64;
        let ridge = 1e-6 * s_w.diag().sum() / d as f64;
        s_w.diag_mut().mapv_inplace(|v| v + ridge);
        let grand = z.mean_axis(Axis(0)).unwrap_or_else(|| Array1::zeros(d));
        let mut s_b = Array2::<f64>::zeros((d, d));
        for (k, &c) in count.iter().enumerate() {
            let diff = &class_mean.row(k) - &grand;
            let outer = diff
                .view()
                .insert_axis(Axis(1))
                .dot(&diff.view().insert_axis(Axis(0)));
            s_b.scaled_add(c / n as f64, &outer);
        }

        // S_W⁻¹ S_B through the symmetric L⁻¹ S_B L⁻ᵀ.
        let chol = Cholesky::new(s_w.view(), "within-class scatter")?;
        let c = chol.solve_lower(s_b.view())?;
        let a = chol.solve_lower(c.t())?;
        let a = (&a + &a.t()) * 0.5;
        let eig = eigh(a.view())?;
        let n_fisher = n_components.min(n_classes - 1);
        let mut directions = Array2::<f64>::zeros((d, n_components));
        for j in 0..n_fisher {
            let v = eig.eigenvectors.column(d - 1 - j);
            let w = chol.solve_upper(v.insert_axis(Axis(1)))?;
            directions.column_mut(j).assign(&w.column(0));
        }
        if n_fisher < n_components {
            // PCA on the residual of z after projection onto span(W).
            let q = orthonormal_basis(directions.slice(s![.., ..n_fisher]));
            let residual = &z - &z.dot(&q).dot(&q.t());
            let cov = residual.t().dot(&residual) / n as f64;
            let eig = eigh(cov.view())?;
            for j in 0..n_components - n_fisher {
                let p = eig.eigenvectors.column(d - 1 - j).to_owned();
                let within = p.dot(&s_w.dot(&p));
                directions
                    .column_mut(n_fisher + j)
                    .assign(&(p / within.sqrt()));
            }
        }
        Ok(Self {
            mean,
            scale,
            directions,
            n_fisher,
        })
    }

    /// The number of Fisher directions (the rest are principal components).
    pub fn n_fisher(&self) -> usize {
        self.n_fisher
    }

    /// The reduced inputs of `x`.
    pub fn apply(&self, x: ArrayView2<'_, f64>) -> Array2<f64> {
        ((&x - &self.mean) / &self.scale).dot(&self.directions)
    }
}

/// An orthonormal basis of the column span of `w` (Gram–Schmidt), `d × r`.
fn orthonormal_basis(w: ArrayView2<'_, f64>) -> Array2<f64> {
    let (d, r) = w.dim();
    let mut q = Array2::<f64>::zeros((d, r));
    for j in 0..r {
        let mut v = w.column(j).to_owned();
        for i in 0..j {
            let proj = q.column(i).dot(&v);
            v.scaled_add(-proj, &q.column(i));
        }
        let norm = v.dot(&v).sqrt();
        if norm > 0.0 {
            q.column_mut(j).assign(&(v / norm));
        }
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn fisher_direction_separates_two_classes_and_inputs_have_unit_within_variance() {
        // Two classes differing along (1, 1, 0); the third column is noise with a large scale.
        let x = array![
            [0.0, 0.1, 50.0],
            [0.2, -0.1, -40.0],
            [-0.1, 0.0, 10.0],
            [0.1, 0.2, -20.0],
            [1.0, 1.1, 30.0],
            [1.2, 0.9, -10.0],
            [0.9, 1.0, 0.0],
            [1.1, 1.2, 25.0]
        ];
        let y = array![0, 0, 0, 0, 1, 1, 1, 1];
        let r = Reduction::fit(x.view(), y.view(), 2, 3).unwrap();
        assert_eq!(r.n_fisher(), 1);
        let z = r.apply(x.view());
        // The first input separates the classes.
        let max0 = (0..4).map(|i| z[[i, 0]]).fold(f64::MIN, f64::max);
        let min1 = (4..8).map(|i| z[[i, 0]]).fold(f64::MAX, f64::min);
        let (lo, hi) = if max0 < min1 {
            (max0, min1)
        } else {
            (min1, max0)
        };
        assert!(lo < hi);
        // Unit pooled within-class variance of every input.
        for j in 0..3 {
            let mut ss = 0.0;
            for k in 0..2 {
                let rows: Vec<f64> = (0..8).filter(|&i| y[i] == k).map(|i| z[[i, j]]).collect();
                let m = rows.iter().sum::<f64>() / 4.0;
                ss += rows.iter().map(|v| (v - m) * (v - m)).sum::<f64>();
            }
            assert!((ss / 8.0 - 1.0).abs() < 1e-3, "input {j}: {}", ss / 8.0);
        }
    }
}
