//! Row access to a design matrix, dense or sparse, so that the solver is written once.
//!
//! Dual coordinate descent touches the data only through three row operations — `x_i · w`,
//! `w += a x_i` and `‖x_i‖²` — each in `O(nnz(x_i))` without allocating. [`DenseRows`] and
//! [`SparseRows`] provide them for an `ndarray` view and a CSR matrix.

use ndarray::{ArrayView1, ArrayView2, ArrayViewMut1};
use sprs::CsMatView;

/// The three row operations of dual coordinate descent.
pub(crate) trait Rows {
    /// Number of rows `n`.
    fn n_rows(&self) -> usize;

    /// Number of columns `d`.
    fn n_features(&self) -> usize;

    /// `x_i · w` for `w` of length `d`.
    fn dot(&self, i: usize, w: &[f64]) -> f64;

    /// `w ← w + a x_i`.
    fn add_scaled(&self, i: usize, a: f64, w: &mut [f64]);

    /// `‖x_i‖²`.
    fn squared_norm(&self, i: usize) -> f64;
}

/// A dense design matrix.
pub(crate) struct DenseRows<'a> {
    x: ArrayView2<'a, f64>,
}

impl<'a> DenseRows<'a> {
    pub(crate) fn new(x: ArrayView2<'a, f64>) -> Self {
        Self { x }
    }
}

impl Rows for DenseRows<'_> {
    fn n_rows(&self) -> usize {
        self.x.nrows()
    }

    fn n_features(&self) -> usize {
        self.x.ncols()
    }

    fn dot(&self, i: usize, w: &[f64]) -> f64 {
        self.x.row(i).dot(&ArrayView1::from(w))
    }

    fn add_scaled(&self, i: usize, a: f64, w: &mut [f64]) {
        ArrayViewMut1::from(w).scaled_add(a, &self.x.row(i));
    }

    fn squared_norm(&self, i: usize) -> f64 {
        let row = self.x.row(i);
        row.dot(&row)
    }
}

/// A sparse design matrix in compressed sparse row (CSR) storage.
pub(crate) struct SparseRows<'a> {
    x: CsMatView<'a, f64>,
}

impl<'a> SparseRows<'a> {
    /// Wraps a CSR matrix; the caller converts CSC input first.
    pub(crate) fn new(x: CsMatView<'a, f64>) -> Self {
        debug_assert!(x.is_csr());
        Self { x }
    }

    fn row(&self, i: usize) -> (&[usize], &[f64]) {
        let range = self.x.indptr().outer_inds_sz(i);
        (&self.x.indices()[range.clone()], &self.x.data()[range])
    }
}

impl Rows for SparseRows<'_> {
    fn n_rows(&self) -> usize {
        self.x.rows()
    }

    fn n_features(&self) -> usize {
        self.x.cols()
    }

    fn dot(&self, i: usize, w: &[f64]) -> f64 {
        let (indices, values) = self.row(i);
        indices.iter().zip(values).map(|(&j, &v)| v * w[j]).sum()
    }

    fn add_scaled(&self, i: usize, a: f64, w: &mut [f64]) {
        let (indices, values) = self.row(i);
        indices
            .iter()
            .zip(values)
            .for_each(|(&j, &v)| w[j] += a * v);
    }

    fn squared_norm(&self, i: usize) -> f64 {
        self.row(i).1.iter().map(|v| v * v).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use ndarray::array;
    use sprs::CsMat;

    #[test]
    fn dense_and_sparse_rows_agree() {
        let dense = array![[1.0, 0.0, -2.0], [0.0, 0.0, 0.0], [0.5, 3.0, 0.0]];
        let sparse = CsMat::csr_from_dense(dense.view(), 0.0);
        let (d, s) = (DenseRows::new(dense.view()), SparseRows::new(sparse.view()));
        let w = [0.25, -1.0, 2.0];
        for i in 0..3 {
            assert_relative_eq!(d.dot(i, &w), s.dot(i, &w));
            assert_relative_eq!(d.squared_norm(i), s.squared_norm(i));
            let (mut wd, mut ws) = (w, w);
            d.add_scaled(i, -1.5, &mut wd);
            s.add_scaled(i, -1.5, &mut ws);
            assert_eq!(wd, ws);
        }
        assert_relative_eq!(d.dot(0, &w), 0.25 - 4.0);
        assert_relative_eq!(s.squared_norm(2), 9.25);
    }
}
