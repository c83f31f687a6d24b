//! Weighted per-class moments, accumulated in a single pass over the rows.
//!
//! Both accumulators use *shifted sums* (Chan, Golub & LeVeque 1983, "Algorithms for computing
//! the sample variance"): with the shift `c_k` = the first row of class `k` (of positive
//! weight),
//!
//! ```text
//! S_k = Σ w_i (x_i − c_k),      Q_k = Σ w_i (x_i − c_k)(x_i − c_k)ᵀ,
//! μ_k = c_k + S_k / W_k,        M_k = Q_k − S_k S_kᵀ / W_k = Σ w_i (x_i − μ_k)(x_i − μ_k)ᵀ.
//! ```
//!
//! Shifting by a point of the class keeps the cancellation in `M_k` small (relative error of
//! order `ε (1 + (μ − c)² / σ²)`), and unlike Welford's update there is no division and no
//! dependency between consecutive rows, so the loop runs at the speed of the additions. A
//! weight `w` counts a row `w` times: integer weights equal duplicated rows. Rows of zero
//! weight are skipped.

use ndarray::{Array1, Array2, Array3, ArrayView1, ArrayView2, Axis};

/// Calls `f(i, k, w_i, row)` for every row of positive weight, with the row as a slice
/// (copied into `buffer` when `x` is not in standard layout).
fn for_each_row(
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    sample_weight: Option<ArrayView1<'_, f64>>,
    mut f: impl FnMut(usize, f64, &[f64]),
) {
    let mut buffer = vec![0.0; x.ncols()];
    for (i, row) in x.axis_iter(Axis(0)).enumerate() {
        let w = sample_weight.map_or(1.0, |sw| sw[i]);
        if w == 0.0 {
            continue;
        }
        match row.as_slice() {
            Some(r) => f(y[i], w, r),
            None => {
                buffer.iter_mut().zip(row.iter()).for_each(|(b, &v)| *b = v);
                f(y[i], w, &buffer);
            }
        }
    }
}

/// Per-class weighted means and per-feature sums of squared deviations (the diagonal of the
/// scatter matrix).
#[derive(Debug, Clone)]
pub(crate) struct DiagonalMoments {
    /// `W_k`.
    pub weight: Vec<f64>,
    /// `μ_kj`, `K × d`.
    pub means: Array2<f64>,
    /// `M_kj = Σ_{i: y_i = k} w_i (x_ij − μ_kj)²`, `K × d`.
    pub sq_dev: Array2<f64>,
}

impl DiagonalMoments {
    /// One pass over the rows of `x`; `y` and `w` must have been validated.
    pub fn accumulate(
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
        n_classes: usize,
    ) -> Self {
        let d = x.ncols();
        let mut weight = vec![0.0; n_classes];
        let mut shift = vec![0.0; n_classes * d];
        let mut sum = vec![0.0; n_classes * d];
        let mut sum_sq = vec![0.0; n_classes * d];
        for_each_row(x, y, sample_weight, |k, w, row| {
            let class = k * d..(k + 1) * d;
            if weight[k] == 0.0 {
                shift[class.clone()].copy_from_slice(row);
            }
            weight[k] += w;
            let (c, s, q) = (
                &shift[class.clone()],
                &mut sum[class.clone()],
                &mut sum_sq[class],
            );
            for (((&xj, &cj), sj), qj) in row.iter().zip(c).zip(s.iter_mut()).zip(q.iter_mut()) {
                let delta = xj - cj;
                *sj += w * delta;
                *qj += w * delta * delta;
            }
        });
        let mut means = Array2::zeros((n_classes, d));
        let mut sq_dev = Array2::zeros((n_classes, d));
        for k in 0..n_classes {
            for j in 0..d {
                let (s, q) = (sum[k * d + j], sum_sq[k * d + j]);
                means[[k, j]] = shift[k * d + j] + s / weight[k];
                // max(·, 0): round-off must not make a sum of squares negative.
                sq_dev[[k, j]] = (q - s * s / weight[k]).max(0.0);
            }
        }
        Self {
            weight,
            means,
            sq_dev,
        }
    }

    /// The weighted maximum-likelihood variance of each column over all classes, combined
    /// from the class moments (Chan, Golub & LeVeque 1979): `M_j = Σ_k [M_kj + W_k (μ_kj −
    /// μ̄_j)²]`, `Var(x_j) = M_j / W`.
    ///
    /// The differences `μ_kj − μ̄_j` are formed as `(μ_kj − μ_0j) − Σ_l W_l (μ_lj − μ_0j) / W`,
    /// shifted by the first class's mean: a grand mean computed directly rounds by an ulp of
    /// the data's magnitude, and the square of that ulp alone overflows for data near 10²⁰⁰
    /// (a constant column of such values would get an infinite variance).
    pub fn column_variances(&self) -> Array1<f64> {
        let total: f64 = self.weight.iter().sum();
        let shift = self.means.row(0);
        let offsets = &self.means - &shift.insert_axis(Axis(0));
        let w = Array1::from(self.weight.clone());
        let grand_offset = w.dot(&offsets) / total;
        let mut m2 = self.sq_dev.sum_axis(Axis(0));
        for (k, offset) in offsets.axis_iter(Axis(0)).enumerate() {
            for ((s, &o), &g) in m2.iter_mut().zip(offset.iter()).zip(grand_offset.iter()) {
                *s += self.weight[k] * (o - g) * (o - g);
            }
        }
        m2 / total
    }

    /// `max_j Var(x_j)`.
    pub fn max_column_variance(&self) -> f64 {
        self.column_variances().fold(0.0, |m, &v| m.max(v))
    }
}

/// Per-class weighted means and full scatter matrices `M_k = Σ_{i: y_i = k} w_i (x_i − μ_k)(x_i
/// − μ_k)ᵀ`.
#[derive(Debug, Clone)]
pub(crate) struct ScatterMoments {
    /// `W_k`.
    pub weight: Vec<f64>,
    /// `μ_k`, `K × d`.
    pub means: Array2<f64>,
    /// `M_k`, `K × d × d`, symmetric.
    pub scatter: Array3<f64>,
}

impl ScatterMoments {
    /// One pass over the rows of `x`; `y` and `w` must have been validated.
    pub fn accumulate(
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
        n_classes: usize,
    ) -> Self {
        let d = x.ncols();
        let mut weight = vec![0.0; n_classes];
        let mut shift = vec![0.0; n_classes * d];
        let mut sum = vec![0.0; n_classes * d];
        let mut cross = vec![0.0; n_classes * d * d];
        let mut delta = vec![0.0; d];
        for_each_row(x, y, sample_weight, |k, w, row| {
            let class = k * d..(k + 1) * d;
            if weight[k] == 0.0 {
                shift[class.clone()].copy_from_slice(row);
            }
            weight[k] += w;
            for (((dj, &xj), &cj), sj) in delta
                .iter_mut()
                .zip(row)
                .zip(&shift[class.clone()])
                .zip(&mut sum[class])
            {
                *dj = xj - cj;
                *sj += w * *dj;
            }
            // Lower triangle only; mirrored at the end.
            let q = &mut cross[k * d * d..(k + 1) * d * d];
            for a in 0..d {
                let wa = w * delta[a];
                for (qab, &db) in q[a * d..a * d + a + 1].iter_mut().zip(&delta[..=a]) {
                    *qab += wa * db;
                }
            }
        });
        let mut means = Array2::zeros((n_classes, d));
        let mut scatter = Array3::zeros((n_classes, d, d));
        for k in 0..n_classes {
            let s = &sum[k * d..(k + 1) * d];
            for a in 0..d {
                means[[k, a]] = shift[k * d + a] + s[a] / weight[k];
                for b in 0..=a {
                    let m = cross[k * d * d + a * d + b] - s[a] * s[b] / weight[k];
                    scatter[[k, a, b]] = m;
                    scatter[[k, b, a]] = m;
                }
                // A variance is never negative, whatever the round-off.
                scatter[[k, a, a]] = scatter[[k, a, a]].max(0.0);
            }
        }
        Self {
            weight,
            means,
            scatter,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;
    use ndarray::array;

    #[test]
    fn moments_match_two_pass_formulas() {
        let x = array![[1.0, 2.0], [3.0, -1.0], [0.5, 4.0], [2.0, 2.0], [7.0, 1.0]];
        let y = array![0, 1, 0, 0, 1];
        let w = array![1.0, 2.0, 0.5, 0.0, 1.5];
        let diag = DiagonalMoments::accumulate(x.view(), y.view(), Some(w.view()), 2);
        let full = ScatterMoments::accumulate(x.view(), y.view(), Some(w.view()), 2);
        for k in 0..2 {
            let rows: Vec<usize> = (0..5).filter(|&i| y[i] == k).collect();
            let wk: f64 = rows.iter().map(|&i| w[i]).sum();
            assert_abs_diff_eq!(diag.weight[k], wk, epsilon = 1e-14);
            let mu: Array1<f64> = rows
                .iter()
                .map(|&i| &x.row(i) * w[i])
                .fold(Array1::zeros(2), |a, b| a + b)
                / wk;
            assert_abs_diff_eq!(diag.means.row(k), mu.view(), epsilon = 1e-14);
            assert_abs_diff_eq!(full.means.row(k), mu.view(), epsilon = 1e-14);
            let mut m = Array2::<f64>::zeros((2, 2));
            for &i in &rows {
                let dv = &x.row(i) - &mu;
                for a in 0..2 {
                    for b in 0..2 {
                        m[[a, b]] += w[i] * dv[a] * dv[b];
                    }
                }
            }
            assert_abs_diff_eq!(
                full.scatter.index_axis(Axis(0), k),
                m.view(),
                epsilon = 1e-12
            );
            assert_abs_diff_eq!(diag.sq_dev.row(k), m.diag(), epsilon = 1e-12);
        }
        // Column variances over all rows, weighted.
        let total: f64 = w.sum();
        let grand = w.dot(&x) / total;
        for j in 0..2 {
            let v: f64 = (0..5)
                .map(|i| w[i] * (x[[i, j]] - grand[j]).powi(2))
                .sum::<f64>()
                / total;
            assert_abs_diff_eq!(diag.column_variances()[j], v, epsilon = 1e-12);
        }
    }
}
