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
//!    orthogonal complement of the Fisher directions, scaled as [`InputScaling`] says.
//!
//! The paper does not say how it scaled the inputs. LDA and QDA (and their GDT fits) are
//! equivariant under an invertible linear map of the inputs, so only the spherical families
//! (Balls1, Balls2) depend on the scale. [`InputScaling::Natural`], the default, is the
//! conventional reading: Fisher variables as LDA projections are normally scaled (unit pooled
//! within-class variance, as R's `MASS::lda` scales its discriminant coordinates) and
//! principal-component scores on their own scale (unit-norm eigenvectors, each score's
//! variance its eigenvalue). [`InputScaling::WithinWhitened`] also rescales the principal
//! components to unit pooled within-class variance, so that every input has it.

use gendisc_core::linalg::{eigh, Cholesky};
use gendisc_core::{Error, Result};
use ndarray::{s, Array1, Array2, ArrayView1, ArrayView2, Axis};
use serde::{Deserialize, Serialize};

/// How the inputs of Table 1 are scaled: the paper does not say, and only the spherical
/// families (Balls1, Balls2) depend on it. The Fisher directions are always scaled to unit
/// pooled within-class variance (`wᵀ S_W w = 1`), as LDA projections normally are.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum InputScaling {
    /// The conventional reading: the completing principal components as scores on unit-norm
    /// eigenvectors of the standardised residuals (each with variance its eigenvalue).
    #[default]
    Natural,
    /// The completing principal components also rescaled to unit pooled within-class variance,
    /// so that every input has it.
    WithinWhitened,
}

impl InputScaling {
    /// Both settings, the default first.
    pub const ALL: [Self; 2] = [Self::Natural, Self::WithinWhitened];

    /// A short name: `natural` or `whitened`.
    pub fn tag(self) -> &'static str {
        match self {
            Self::Natural => "natural",
            Self::WithinWhitened => "whitened",
        }
    }

    /// The other setting.
    pub fn other(self) -> Self {
        match self {
            Self::Natural => Self::WithinWhitened,
            Self::WithinWhitened => Self::Natural,
        }
    }

    /// The setting as the report names it.
    pub fn label(self) -> &'static str {
        match self {
            Self::Natural => {
                "Fisher variables at unit within-class variance, principal components on their \
                 natural scale"
            }
            Self::WithinWhitened => "every input at unit within-class variance",
        }
    }
}

/// A fitted reduction `x ↦ ((x − m) / s) D` of the inputs of Table 1 to four Fisher/PCA
/// directions; see the steps below.
///
/// 1. standardise every column on the training rows;
/// 2. Fisher directions: the leading eigenvectors of `S_W⁻¹ S_B` (at most `K − 1`), with a ridge
///    of `1e-6 · tr(S_W)/d` on `S_W`;
/// 3. principal components of the residual for the remaining directions, scaled by
///    [`InputScaling`].
#[derive(Debug, Clone)]
pub struct Reduction {
    mean: Array1<f64>,
    scale: Array1<f64>,
    directions: Array2<f64>,
    n_fisher: usize,
}

impl Reduction {
    /// Fits the reduction to `n_components` inputs on the training rows, the completing
    /// principal components scaled by `scaling`.
    pub fn fit(
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        n_classes: usize,
        n_components: usize,
        scaling: InputScaling,
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
                let p = match scaling {
                    InputScaling::Natural => p,
                    InputScaling::WithinWhitened => {
                        let within = p.dot(&s_w.dot(&p));
                        p / within.sqrt()
                    }
                };
                directions.column_mut(n_fisher + j).assign(&p);
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

    /// Two classes differing along (1, 1, 0); the third column is noise with a large scale.
    fn example() -> (Array2<f64>, Array1<usize>) {
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
        (x, array![0, 0, 0, 0, 1, 1, 1, 1])
    }

    /// The pooled within-class variance (per row) of input `j` of `z`.
    fn within_variance(z: &Array2<f64>, y: &Array1<usize>, j: usize) -> f64 {
        let mut ss = 0.0;
        for k in 0..2 {
            let rows: Vec<f64> = (0..z.nrows())
                .filter(|&i| y[i] == k)
                .map(|i| z[[i, j]])
                .collect();
            let m = rows.iter().sum::<f64>() / rows.len() as f64;
            ss += rows.iter().map(|v| (v - m) * (v - m)).sum::<f64>();
        }
        ss / z.nrows() as f64
    }

    #[test]
    fn fisher_direction_separates_two_classes_and_whitened_inputs_have_unit_within_variance() {
        let (x, y) = example();
        let r = Reduction::fit(x.view(), y.view(), 2, 3, InputScaling::WithinWhitened).unwrap();
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
        for j in 0..3 {
            let v = within_variance(&z, &y, j);
            assert!((v - 1.0).abs() < 1e-3, "input {j}: {v}");
        }
    }

    #[test]
    fn natural_scaling_keeps_unit_norm_principal_components_and_the_fisher_variable() {
        let (x, y) = example();
        let natural = Reduction::fit(x.view(), y.view(), 2, 3, InputScaling::Natural).unwrap();
        let whitened =
            Reduction::fit(x.view(), y.view(), 2, 3, InputScaling::WithinWhitened).unwrap();
        // The Fisher variable is scaled the same way under both settings.
        let (zn, zw) = (natural.apply(x.view()), whitened.apply(x.view()));
        for i in 0..8 {
            assert!((zn[[i, 0]] - zw[[i, 0]]).abs() < 1e-9);
        }
        assert!((within_variance(&zn, &y, 0) - 1.0).abs() < 1e-3);
        // The completing directions are unit-norm eigenvectors (in the standardised space),
        // orthogonal to each other, and differ from the whitened ones by a positive factor.
        for j in 1..3 {
            let p = natural.directions.column(j);
            assert!((p.dot(&p) - 1.0).abs() < 1e-9, "direction {j}");
            let ratio = &whitened.directions.column(j) / &p;
            let r0 = ratio[0];
            assert!(r0 > 0.0 && ratio.iter().all(|r| (r - r0).abs() < 1e-6 * r0.abs()));
        }
        let (p1, p2) = (natural.directions.column(1), natural.directions.column(2));
        assert!(p1.dot(&p2).abs() < 1e-9);
        // Their scores' variance is their eigenvalue, not 1 in general: the two settings
        // differ, which is what the spherical families see.
        assert!((within_variance(&zn, &y, 2) - 1.0).abs() > 1e-3);
    }

    #[test]
    fn with_enough_fisher_directions_both_scalings_give_the_same_bits() {
        // Six classes in five dimensions: five Fisher directions, four kept, no principal
        // component to scale. Table 1 relies on this to fit such blocks once.
        let (n, d, k) = (60, 5, 6);
        let x = Array2::from_shape_fn((n, d), |(i, j)| {
            let class = (i % k) as f64;
            ((i * 7 + j * 13) % 11) as f64 / 11.0 + class * (j as f64 + 1.0) * 0.3
        });
        let y = Array1::from_shape_fn(n, |i| i % k);
        let inputs = |scaling| {
            Reduction::fit(x.view(), y.view(), k, 4, scaling)
                .unwrap()
                .apply(x.view())
        };
        let (natural, whitened) = (
            inputs(InputScaling::Natural),
            inputs(InputScaling::WithinWhitened),
        );
        let bits = |z: &Array2<f64>| z.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&natural), bits(&whitened));
        // With two classes, one Fisher direction: the completing components differ.
        let (x, y) = example();
        let natural = Reduction::fit(x.view(), y.view(), 2, 3, InputScaling::Natural).unwrap();
        let whitened =
            Reduction::fit(x.view(), y.view(), 2, 3, InputScaling::WithinWhitened).unwrap();
        assert_ne!(
            bits(&natural.apply(x.view())),
            bits(&whitened.apply(x.view()))
        );
    }

    #[test]
    fn scaling_names_and_the_other_setting() {
        assert_eq!(InputScaling::default(), InputScaling::Natural);
        for s in InputScaling::ALL {
            assert_eq!(s.other().other(), s);
            assert_ne!(s.other().tag(), s.tag());
        }
    }
}
