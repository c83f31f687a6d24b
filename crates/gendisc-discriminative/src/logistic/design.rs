//! The design matrix `X̃ = [X, 1]` (the column of ones only with an intercept), dense or sparse,
//! and the three products logistic regression needs from it.
//!
//! The intercept column is implicit: `X` is never copied to append it. Coefficients are stored
//! as an `m × width` matrix `B` (one row per linear predictor, intercept last), so that the
//! linear predictors are `η = X̃ Bᵀ`.

use ndarray::linalg::general_mat_mul;
use std::borrow::Cow;
use std::ops::Range;

use gendisc_core::numerics::{combine_dot_lanes, dot_lanes_len, DOT_LANES};
use multiversion::multiversion;
use ndarray::{
    s, Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut1, ArrayViewMut2, Axis, Slice, Zip,
};
use sprs::CsMatView;

/// The data behind a design matrix: a dense view or a sparse CSR view.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Features<'a> {
    Dense(ArrayView2<'a, f64>),
    /// Compressed sparse rows (the caller converts CSC).
    Sparse(CsMatView<'a, f64>),
}

/// `X̃ = [X, 1]` or `X̃ = X`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Design<'a> {
    pub(crate) features: Features<'a>,
    pub(crate) intercept: bool,
}

impl<'a> Design<'a> {
    pub(crate) fn new(features: Features<'a>, intercept: bool) -> Self {
        Self {
            features,
            intercept,
        }
    }

    /// The same design borrowed for a shorter lifetime (ndarray views are invariant in their
    /// lifetime, so this cannot happen by subtyping).
    pub(crate) fn reborrow(&self) -> Design<'_> {
        let features = match &self.features {
            Features::Dense(x) => Features::Dense(x.view()),
            Features::Sparse(x) => Features::Sparse(x.view()),
        };
        Design::new(features, self.intercept)
    }

    pub(crate) fn n_rows(&self) -> usize {
        match self.features {
            Features::Dense(x) => x.nrows(),
            Features::Sparse(x) => x.rows(),
        }
    }

    /// `d`, the number of features.
    pub(crate) fn n_features(&self) -> usize {
        match self.features {
            Features::Dense(x) => x.ncols(),
            Features::Sparse(x) => x.cols(),
        }
    }

    /// `d + 1` with an intercept, else `d`: the number of coefficients per linear predictor.
    pub(crate) fn width(&self) -> usize {
        self.n_features() + usize::from(self.intercept)
    }

    /// `η = X̃ Bᵀ` into `eta` (`n × m`) for coefficients `b` (`m × width`).
    pub(crate) fn linear_predictor(&self, b: ArrayView2<'_, f64>, mut eta: ArrayViewMut2<'_, f64>) {
        let d = self.n_features();
        let weights = block(b, 0..b.nrows(), 0..d);
        match self.features {
            // One predictor (binary), columns contiguous: η = Σ_j w_j x_j, vectorised.
            Features::Dense(x) if b.nrows() == 1 && is_column_major(x) => {
                let mut eta = eta.column_mut(0);
                match (
                    x.to_slice_memory_order(),
                    eta.as_slice_mut(),
                    weights.row(0).to_slice(),
                ) {
                    (Some(x), Some(eta), Some(w)) if !eta.is_empty() => {
                        eta.fill(0.0);
                        add_columns(x, w, eta);
                    }
                    _ => {
                        eta.fill(0.0);
                        for (column, &w) in x.columns().into_iter().zip(weights.row(0)) {
                            eta.scaled_add(w, &column);
                        }
                    }
                }
            }
            // One predictor, rows contiguous: a dot product per row.
            Features::Dense(x) if b.nrows() == 1 && x.as_slice().is_some() => {
                let w = weights.row(0).to_vec();
                let rows = x.as_slice().expect("checked").chunks_exact(d);
                for (e, row) in eta.iter_mut().zip(rows) {
                    *e = row.iter().zip(&w).map(|(a, b)| a * b).sum();
                }
            }
            Features::Dense(x) => general_mat_mul(1.0, &x, &weights.t(), 0.0, &mut eta),
            // One predictor: a sparse dot product per row, straight into η (the same sums, in
            // the same order, as the general case below).
            Features::Sparse(x) if b.nrows() == 1 => {
                let w = weights.row(0);
                let w = w
                    .as_slice()
                    .map_or_else(|| w.to_vec().into(), Cow::Borrowed);
                sparse_row_dots(x, &w, eta.column_mut(0));
            }
            Features::Sparse(x) => {
                // Row j of Bᵀ holds feature j's coefficient in every predictor: contiguous.
                let m = b.nrows();
                let bt = weights.t().as_standard_layout().into_owned();
                let bt = bt.as_slice().expect("standard layout");
                let mut out = vec![0.0; x.rows() * m];
                for (acc, row) in out.chunks_exact_mut(m).zip(x.outer_iterator()) {
                    for (&j, &v) in row.indices().iter().zip(row.data()) {
                        for (a, &c) in acc.iter_mut().zip(&bt[j * m..(j + 1) * m]) {
                            *a += v * c;
                        }
                    }
                }
                eta.assign(&ArrayView2::from_shape((x.rows(), m), &out).expect("n × m"));
            }
        }
        if self.intercept {
            add_to_rows(eta, b.column(d));
        }
    }

    /// `G = Rᵀ X̃` into `g` (`m × width`) for `r` (`n × m`).
    pub(crate) fn transpose_product(&self, r: ArrayView2<'_, f64>, mut g: ArrayViewMut2<'_, f64>) {
        let d = self.n_features();
        match self.features {
            // One predictor (binary), columns contiguous: g_j = x_jᵀ r, vectorised.
            Features::Dense(x) if r.ncols() == 1 && is_column_major(x) => {
                let r = r.column(0);
                for (g, column) in g.row_mut(0).iter_mut().zip(x.columns()) {
                    *g = column.dot(&r);
                }
            }
            // One predictor, rows contiguous: accumulate r_i x_i row by row.
            Features::Dense(x) if r.ncols() == 1 && x.as_slice().is_some() => {
                let mut acc = vec![0.0; d];
                let rows = x.as_slice().expect("checked").chunks_exact(d);
                for (&ri, row) in r.column(0).iter().zip(rows) {
                    acc.iter_mut().zip(row).for_each(|(a, &v)| *a += ri * v);
                }
                g.row_mut(0)
                    .slice_axis_mut(Axis(0), Slice::from(..d))
                    .assign(&ArrayView1::from(&acc));
            }
            Features::Dense(x) => {
                let rows = g.nrows();
                general_mat_mul(
                    1.0,
                    &r.t(),
                    &x,
                    0.0,
                    &mut block_mut(g.view_mut(), 0..rows, 0..d),
                );
            }
            // One predictor: each non-zero adds to one coefficient's sum (the same sums, in the
            // same order, as the general case below).
            Features::Sparse(x) if r.ncols() == 1 => {
                let mut acc = vec![0.0; d];
                for (&ri, row) in r.column(0).iter().zip(x.outer_iterator()) {
                    for (&j, &v) in row.indices().iter().zip(row.data()) {
                        acc[j] += v * ri;
                    }
                }
                g.row_mut(0)
                    .slice_axis_mut(Axis(0), Slice::from(..d))
                    .assign(&ArrayView1::from(&acc));
            }
            Features::Sparse(x) => {
                // Accumulate Gᵀ (`d × m`) so that each non-zero updates a contiguous row.
                let m = r.ncols();
                let r_rows = r.as_standard_layout();
                let r_rows = r_rows.as_slice().expect("standard layout");
                let mut gt = vec![0.0; d * m];
                for (ri, row) in r_rows.chunks_exact(m).zip(x.outer_iterator()) {
                    for (&j, &v) in row.indices().iter().zip(row.data()) {
                        for (g, &rk) in gt[j * m..(j + 1) * m].iter_mut().zip(ri) {
                            *g += v * rk;
                        }
                    }
                }
                let gt = ArrayView2::from_shape((d, m), &gt).expect("d × m");
                let rows = g.nrows();
                block_mut(g.view_mut(), 0..rows, 0..d).assign(&gt.t());
            }
        }
        if self.intercept {
            g.column_mut(d).assign(&column_sums(r));
        }
    }

    /// `X̃ᵀ diag(c) X̃` into `out` (`width × width`).
    pub(crate) fn weighted_gram(&self, c: ArrayView1<'_, f64>, mut out: ArrayViewMut2<'_, f64>) {
        let d = self.n_features();
        // Up to FUSED_MAX_FEATURES columns, in one pass with the same bits (its right-hand side,
        // here `X̃ᵀc`, goes to a scratch array on the stack).
        let mut unused_rhs = [0.0; FUSED_MAX_FEATURES + 1];
        let unused_rhs =
            ArrayViewMut1::from(&mut unused_rhs[..self.width().min(FUSED_MAX_FEATURES + 1)]);
        if self.fused_normal_equations(c, c, out.view_mut(), unused_rhs) {
            return;
        }
        match self.features {
            // Few columns, columns contiguous: each entry is a vectorised three-way product
            // Σ_i c_i x_ij x_il, with no n × d temporary.
            Features::Dense(x) if d <= SMALL_GRAM && is_column_major(x) => {
                let mut scaled = Array1::zeros(x.nrows());
                for j in 0..d {
                    Zip::from(&mut scaled)
                        .and(&c)
                        .and(x.column(j))
                        .for_each(|s, &ci, &v| *s = ci * v);
                    for l in j..d {
                        let entry = scaled.dot(&x.column(l));
                        out[[j, l]] = entry;
                        out[[l, j]] = entry;
                    }
                    if self.intercept {
                        let entry = scaled.sum();
                        out[[j, d]] = entry;
                        out[[d, j]] = entry;
                    }
                }
            }
            // A block of rows at a time, written once as [x_i 1] and once as c_i [x_i 1] into two
            // buffers that stay in cache: their product accumulates X̃ᵀ diag(c) X̃, the
            // intercept's row and column included, in one pass over the rows and without an
            // n × d copy of the design.
            Features::Dense(x) => {
                let width = self.width();
                let rows = GRAM_BLOCK_ROWS.min(x.nrows()).max(1);
                let mut plain = Array2::zeros((rows, width));
                let mut scaled = Array2::zeros((rows, width));
                if self.intercept {
                    plain.column_mut(d).fill(1.0);
                }
                let mut gram = block_mut(out.view_mut(), 0..width, 0..width);
                gram.fill(0.0);
                for start in (0..x.nrows()).step_by(rows) {
                    let end = (start + rows).min(x.nrows());
                    let m = end - start;
                    let mut p = plain.slice_mut(s![..m, ..]);
                    p.slice_mut(s![.., ..d])
                        .assign(&x.slice(s![start..end, ..]));
                    let mut q = scaled.slice_mut(s![..m, ..]);
                    Zip::from(q.rows_mut())
                        .and(p.rows())
                        .and(c.slice(s![start..end]))
                        .for_each(|mut q, p, &ci| {
                            Zip::from(&mut q).and(&p).for_each(|q, &v| *q = ci * v);
                        });
                    general_mat_mul(1.0, &p.t(), &q, 1.0, &mut gram);
                }
            }
            Features::Sparse(x) => {
                out.fill(0.0);
                for (row, &ci) in x.outer_iterator().zip(c.iter()) {
                    if ci == 0.0 {
                        continue;
                    }
                    for (j, &u) in row.iter() {
                        let cu = ci * u;
                        for (l, &v) in row.iter() {
                            out[[j, l]] += cu * v;
                        }
                        if self.intercept {
                            out[[j, d]] += cu;
                            out[[d, j]] += cu;
                        }
                    }
                }
            }
        }
        if self.intercept {
            out[[d, d]] = c.sum();
        }
    }

    /// `X̃ᵀ diag(c) X̃` into `gram` and `X̃ᵀ r` into `rhs` (length `width`): the normal
    /// equations of a weighted least-squares step (glm's IRLS), for one predictor.
    ///
    /// The same bits as [`weighted_gram`](Self::weighted_gram) and
    /// [`transpose_product`](Self::transpose_product); for a column-major dense design of at
    /// most [`FUSED_MAX_FEATURES`] features, in one pass over the rows instead of one or two
    /// per entry.
    pub(crate) fn normal_equations(
        &self,
        c: ArrayView1<'_, f64>,
        r: ArrayView1<'_, f64>,
        mut gram: ArrayViewMut2<'_, f64>,
        mut rhs: ArrayViewMut1<'_, f64>,
    ) {
        if !self.fused_normal_equations(c, r, gram.view_mut(), rhs.view_mut()) {
            self.weighted_gram(c, gram.view_mut());
            self.transpose_product(r.insert_axis(Axis(1)), rhs.view_mut().insert_axis(Axis(0)));
        }
    }

    /// [`normal_equations`](Self::normal_equations) in one pass, where the design allows it
    /// (`false`, with nothing written, where it does not).
    fn fused_normal_equations(
        &self,
        c: ArrayView1<'_, f64>,
        r: ArrayView1<'_, f64>,
        mut gram: ArrayViewMut2<'_, f64>,
        mut rhs: ArrayViewMut1<'_, f64>,
    ) -> bool {
        let d = self.n_features();
        let fused = match (self.features, c.as_slice(), r.as_slice()) {
            (Features::Dense(x), Some(c), Some(r))
                if d <= FUSED_MAX_FEATURES && !c.is_empty() && is_column_major(x) =>
            {
                x.to_slice_memory_order().map(|x| (x, c, r))
            }
            _ => None,
        };
        let Some((x, c, r)) = fused else {
            return false;
        };
        let mut columns: [&[f64]; FUSED_MAX_FEATURES] = [&[]; FUSED_MAX_FEATURES];
        for (column, values) in columns.iter_mut().zip(x.chunks_exact(c.len())) {
            *column = values;
        }
        let mut sums = [0.0; FUSED_MAX_SUMS];
        let sums = &mut sums[..fused_sums(d)];
        normal_equation_sums(&columns[..d], c, r, sums);
        let (products, rest) = sums.split_at(d * (d + 1) / 2);
        let (scaled_sums, rest) = rest.split_at(d);
        let (&weight_sum, rest) = rest.split_first().expect("Σ c_i");
        let (rhs_sums, response_sum) = rest.split_at(d);
        let mut products = products.iter();
        for j in 0..d {
            for l in j..d {
                let entry = *products.next().expect("one sum per pair j ≤ l");
                gram[[j, l]] = entry;
                gram[[l, j]] = entry;
            }
        }
        rhs.slice_mut(s![..d]).assign(&ArrayView1::from(rhs_sums));
        if self.intercept {
            for (j, &entry) in scaled_sums.iter().enumerate() {
                gram[[j, d]] = entry;
                gram[[d, j]] = entry;
            }
            gram[[d, d]] = weight_sum;
            rhs[d] = response_sum[0];
        }
        true
    }

    /// `max_i ‖x̃_i‖₂`, the scale of a row.
    pub(crate) fn max_row_norm(&self) -> f64 {
        let ones = if self.intercept { 1.0 } else { 0.0 };
        let norms = match self.features {
            // Columns contiguous: every row's sum of squares accumulated column by column, in
            // the order a strided row's dot product takes (from zero, feature by feature).
            Features::Dense(x) if x.nrows() > 0 && is_column_major(x) => {
                let values = x.to_slice_memory_order().expect("column-major");
                let mut squares = vec![0.0; x.nrows()];
                for column in values.chunks_exact(x.nrows()) {
                    for (s, &v) in squares.iter_mut().zip(column) {
                        *s += v * v;
                    }
                }
                squares.into_iter().fold(0.0_f64, f64::max)
            }
            Features::Dense(x) => x.outer_iter().map(|r| r.dot(&r)).fold(0.0_f64, f64::max),
            Features::Sparse(x) => x
                .outer_iterator()
                .map(|r| r.data().iter().map(|v| v * v).sum::<f64>())
                .fold(0.0_f64, f64::max),
        };
        (norms + ones).sqrt()
    }
}

/// Up to this many columns, the dense weighted Gram matrix is computed entry by entry from
/// contiguous columns rather than by a matrix product.
const SMALL_GRAM: usize = 32;

/// Up to this many features, [`Design::normal_equations`] sums every entry in one pass.
pub(crate) const FUSED_MAX_FEATURES: usize = 8;

/// The sums of [`Design::normal_equations`] for `d` features: the `d(d + 1)/2` products
/// `Σ c_i x_ij x_il` (`j ≤ l`), the `d` sums `Σ c_i x_ij`, `Σ c_i`, the `d` products
/// `Σ x_ij r_i` and `Σ r_i`.
const fn fused_sums(d: usize) -> usize {
    d * (d + 1) / 2 + 2 * d + 2
}

const FUSED_MAX_SUMS: usize = fused_sums(FUSED_MAX_FEATURES);

/// Every sum of [`fused_sums`], in that order, each summed as ndarray sums a contiguous dot
/// product or vector ([`contiguous_dot`]: eight running sums over the leading multiple of
/// eight rows, combined in pairs, then the other rows in order), with `c_i x_ij` rounded
/// first as the unfused path's scaled column does; so every sum has the unfused path's bits.
/// Compiled for the widest vectors the processor has (the same bits: Rust neither fuses nor
/// reorders floating-point operations), and for each number of features, so that the
/// running sums stay in registers.
fn normal_equation_sums(columns: &[&[f64]], c: &[f64], r: &[f64], sums: &mut [f64]) {
    match columns.len() {
        0 => sums_of::<0>(columns, c, r, sums),
        1 => sums_of::<1>(columns, c, r, sums),
        2 => sums_of::<2>(columns, c, r, sums),
        3 => sums_of::<3>(columns, c, r, sums),
        4 => sums_of::<4>(columns, c, r, sums),
        5 => sums_of::<5>(columns, c, r, sums),
        6 => sums_of::<6>(columns, c, r, sums),
        7 => sums_of::<7>(columns, c, r, sums),
        8 => sums_of::<8>(columns, c, r, sums),
        d => unreachable!("{d} features: more than FUSED_MAX_FEATURES"),
    }
}

/// [`normal_equation_sums`] for `D` features.
#[multiversion(targets("x86_64+avx512f", "x86_64+avx2"))]
fn sums_of<const D: usize>(columns: &[&[f64]], c: &[f64], r: &[f64], sums: &mut [f64]) {
    let n = c.len();
    let columns: [&[f64]; D] = std::array::from_fn(|j| &columns[j][..n]);
    let split = dot_lanes_len(n);
    let mut lanes = [[0.0_f64; DOT_LANES]; FUSED_MAX_SUMS];
    for start in (0..split).step_by(DOT_LANES) {
        let cb: &[f64; DOT_LANES] = c[start..start + DOT_LANES].try_into().expect("eight");
        let rb: &[f64; DOT_LANES] = r[start..start + DOT_LANES].try_into().expect("eight");
        let xb: [&[f64; DOT_LANES]; D] = std::array::from_fn(|j| {
            columns[j][start..start + DOT_LANES]
                .try_into()
                .expect("eight")
        });
        let scaled: [[f64; DOT_LANES]; D] =
            std::array::from_fn(|j| std::array::from_fn(|k| cb[k] * xb[j][k]));
        let mut e = 0;
        for j in 0..D {
            for x in &xb[j..] {
                for k in 0..DOT_LANES {
                    lanes[e][k] += scaled[j][k] * x[k];
                }
                e += 1;
            }
        }
        for s in &scaled {
            for k in 0..DOT_LANES {
                lanes[e][k] += s[k];
            }
            e += 1;
        }
        for k in 0..DOT_LANES {
            lanes[e][k] += cb[k];
        }
        e += 1;
        for x in &xb {
            for k in 0..DOT_LANES {
                lanes[e][k] += x[k] * rb[k];
            }
            e += 1;
        }
        for k in 0..DOT_LANES {
            lanes[e][k] += rb[k];
        }
    }
    for (sum, lanes) in sums.iter_mut().zip(lanes) {
        *sum = combine_dot_lanes(lanes);
    }
    // The rows after the last whole group of eight, in order.
    for i in split..n {
        let mut e = 0;
        for j in 0..D {
            let s = c[i] * columns[j][i];
            for column in &columns[j..] {
                sums[e] += s * column[i];
                e += 1;
            }
        }
        for column in &columns {
            sums[e] += c[i] * column[i];
            e += 1;
        }
        sums[e] += c[i];
        e += 1;
        for column in &columns {
            sums[e] += column[i] * r[i];
            e += 1;
        }
        sums[e] += r[i];
    }
}

/// Rows per block of the dense weighted Gram matrix's product: two blocks of at most a few
/// hundred kilobytes each for a few dozen columns, which stay in cache.
const GRAM_BLOCK_ROWS: usize = 1024;

/// Whether the columns of `x` are contiguous (Fortran order), the layout the binary kernels
/// vectorise best; fitting copies its input to it once.
pub(crate) fn is_column_major(x: ArrayView2<'_, f64>) -> bool {
    x.t().is_standard_layout()
}

/// `η_i += w_j x_ij` for each column `j` of the column-major `x` in turn, as ndarray's
/// `scaled_add` adds it (so the same bits), compiled for the widest vectors the processor has.
#[multiversion(targets("x86_64+avx512f", "x86_64+avx2"))]
fn add_columns(x: &[f64], w: &[f64], eta: &mut [f64]) {
    for (column, &w) in x.chunks_exact(eta.len()).zip(w) {
        for (e, &v) in eta.iter_mut().zip(column) {
            *e += w * v;
        }
    }
}

/// `a[i, :] += v` for every row `i` (ndarray's broadcasting `+=` is slow for narrow `a`).
fn add_to_rows(mut a: ArrayViewMut2<'_, f64>, v: ArrayView1<'_, f64>) {
    let m = v.len();
    if m == 1 {
        let b = v[0];
        a.column_mut(0).mapv_inplace(|e| e + b);
        return;
    }
    match (a.as_slice_mut(), v.as_slice()) {
        (Some(a), Some(v)) => {
            for row in a.chunks_exact_mut(m) {
                row.iter_mut().zip(v).for_each(|(e, &b)| *e += b);
            }
        }
        _ => a.rows_mut().into_iter().for_each(|mut row| row += &v),
    }
}

/// `Σ_i a[i, :]` (ndarray's `sum_axis(Axis(0))` is slow for narrow `a`).
fn column_sums(a: ArrayView2<'_, f64>) -> Array1<f64> {
    let m = a.ncols();
    if m == 1 {
        return Array1::from_elem(1, a.column(0).sum());
    }
    let mut sums = Array1::zeros(m);
    match (a.as_slice(), sums.as_slice_mut()) {
        (Some(a), Some(s)) => {
            for row in a.chunks_exact(m) {
                s.iter_mut().zip(row).for_each(|(s, &v)| *s += v);
            }
        }
        _ => a.rows().into_iter().for_each(|row| sums += &row),
    }
    sums
}

/// The block `a[rows, cols]` (ndarray's `s!` macro cannot be used under `forbid(unsafe_code)`).
pub(crate) fn block(
    mut a: ArrayView2<'_, f64>,
    rows: Range<usize>,
    cols: Range<usize>,
) -> ArrayView2<'_, f64> {
    a.slice_axis_inplace(Axis(0), Slice::from(rows));
    a.slice_axis_inplace(Axis(1), Slice::from(cols));
    a
}

/// The mutable block `a[rows, cols]`.
pub(crate) fn block_mut(
    mut a: ArrayViewMut2<'_, f64>,
    rows: Range<usize>,
    cols: Range<usize>,
) -> ArrayViewMut2<'_, f64> {
    a.slice_axis_inplace(Axis(0), Slice::from(rows));
    a.slice_axis_inplace(Axis(1), Slice::from(cols));
    a
}

/// `η_i = Σ_k x_ik w_k` for every row of `x`, each row's terms added in order from `0`: a chain of
/// dependent additions, whose latency, not the loads, bounds a row. Two rows go at a time, each its
/// own chain, so that the processor overlaps them (four at a time gained nothing more on the Raina
/// study); every row's sum is the same, bit for bit, as summed alone.
fn sparse_row_dots(x: CsMatView<'_, f64>, w: &[f64], mut eta: ndarray::ArrayViewMut1<'_, f64>) {
    let term = |row: &sprs::CsVecView<'_, f64>, k: usize| row.data()[k] * w[row.indices()[k]];
    let mut rows = x.outer_iterator();
    let mut out = eta.iter_mut();
    while let (Some(first), Some(e_first)) = (rows.next(), out.next()) {
        let Some((second, e_second)) = rows.next().zip(out.next()) else {
            *e_first = (0..first.nnz()).fold(0.0, |acc, k| acc + term(&first, k));
            break;
        };
        let common = first.nnz().min(second.nnz());
        let (mut s_first, mut s_second) = (0.0, 0.0);
        for k in 0..common {
            s_first += term(&first, k);
            s_second += term(&second, k);
        }
        for k in common..first.nnz() {
            s_first += term(&first, k);
        }
        for k in common..second.nnz() {
            s_second += term(&second, k);
        }
        *e_first = s_first;
        *e_second = s_second;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;
    use ndarray::{array, Array1, Array2};
    use proptest::prelude::*;
    use sprs::CsMat;

    /// The rows summed two at a time are the rows summed one by one, bit for bit: odd and even
    /// row counts, rows of unequal lengths, empty rows.
    #[test]
    fn interleaved_sparse_row_dots_are_the_row_by_row_sums() {
        for n in [0, 1, 2, 5, 8] {
            let d = 64;
            // Row i has (37 i) mod 50 non-zeros, at columns spread over the row, of both signs
            // and magnitudes from 10⁻³ to 10³, so that another order of the sums rounds otherwise.
            let dense = Array2::from_shape_fn((n, d), |(i, j)| {
                if (j * 5 + i) % d < (37 * i) % 50 {
                    ((i * 31 + j * 17) % 23) as f64 * 10f64.powi((j % 7) as i32 - 3) - 9.5
                } else {
                    0.0
                }
            });
            let x = CsMat::csr_from_dense(dense.view(), 0.0);
            let w: Vec<f64> = (0..d).map(|j| (j as f64 * 0.37).sin() * 1e3).collect();
            let mut eta = Array1::zeros(n);
            sparse_row_dots(x.view(), &w, eta.view_mut());
            for (i, row) in x.outer_iterator().enumerate() {
                let alone = row.iter().fold(0.0_f64, |acc, (j, &v)| acc + v * w[j]);
                assert_eq!(eta[i].to_bits(), alone.to_bits(), "n = {n}, row {i}");
            }
        }
    }

    /// The explicit `[X, 1]`.
    fn augmented(x: &Array2<f64>) -> Array2<f64> {
        ndarray::concatenate![Axis(1), x.view(), Array2::ones((x.nrows(), 1))]
    }

    #[test]
    fn one_sparse_predictor_sums_as_several_do() {
        // The binary paths must keep the general path's order of summation, bit for bit.
        let x = array![
            [0.0, 1.5, -2.25, 0.0],
            [3.1, 0.0, 0.7, 1e-3],
            [0.0, 0.0, 0.0, 0.0],
            [1.0 / 3.0, 2.0 / 7.0, 0.0, -5.5]
        ];
        let sparse = CsMat::csr_from_dense(x.view(), 0.0);
        let design = Design::new(Features::Sparse(sparse.view()), true);
        let bits = |a: ArrayView1<'_, f64>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        let b = array![[0.1, -1.0 / 3.0, 2.5, 1e-8, 0.3], [1.0, 2.0, 3.0, 4.0, 5.0]];
        let mut one = Array2::zeros((4, 1));
        design.linear_predictor(b.slice(ndarray::s![..1, ..]), one.view_mut());
        let mut two = Array2::zeros((4, 2));
        design.linear_predictor(b.view(), two.view_mut());
        assert_eq!(bits(one.column(0)), bits(two.column(0)));
        let r = array![[0.3, 9.0], [-1.0 / 7.0, 1.0], [2.0, 0.0], [1e-5, 3.0]];
        let mut one = Array2::zeros((1, 5));
        design.transpose_product(r.slice(ndarray::s![.., ..1]), one.view_mut());
        let mut two = Array2::zeros((2, 5));
        design.transpose_product(r.view(), two.view_mut());
        assert_eq!(bits(one.row(0)), bits(two.row(0)));
    }

    proptest::proptest! {
        /// The normal equations, and the weighted Gram matrix alone, are the unfused
        /// arithmetic's bit for bit (ndarray's dot products and sums of contiguous columns),
        /// for every number of features and rows around the groups of eight, with and without
        /// an intercept and in both layouts (the row-major one is not fused).
        #[test]
        fn normal_equations_are_the_products_bit_for_bit(
            d in 0usize..=FUSED_MAX_FEATURES + 1,
            n in 1usize..40,
            seed in 0u64..1000,
            intercept in proptest::bool::ANY,
            column_major in proptest::bool::ANY,
        ) {
            let value = |i: usize, j: usize, k: u64| {
                let h = (i as u64 * 2654435761 + j as u64 * 40503 + k * 97 + seed).wrapping_mul(0x9E3779B97F4A7C15);
                (h >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 2.0
            };
            let x = Array2::from_shape_fn((n, d), |(i, j)| value(i, j, 1));
            let x = if column_major {
                x.t().as_standard_layout().into_owned().reversed_axes()
            } else {
                x
            };
            let c = Array1::from_shape_fn(n, |i| value(i, 0, 2).abs());
            let r = Array1::from_shape_fn(n, |i| value(i, 0, 3));
            let design = Design::new(Features::Dense(x.view()), intercept);
            let width = design.width();
            let (mut gram, mut rhs) = (Array2::zeros((width, width)), Array1::zeros(width));
            design.normal_equations(c.view(), r.view(), gram.view_mut(), rhs.view_mut());
            // The unfused arithmetic, written out: each entry an ndarray dot product or sum of
            // contiguous vectors, `c_i x_ij` rounded first.
            let x_columns: Vec<Array1<f64>> = x.columns().into_iter().map(|c| c.to_owned()).collect();
            let mut expected_gram = Array2::zeros((width, width));
            let mut expected_rhs = Array2::zeros((1, width));
            for j in 0..d {
                let scaled = &c * &x_columns[j];
                for l in j..d {
                    expected_gram[[j, l]] = scaled.dot(&x_columns[l]);
                    expected_gram[[l, j]] = expected_gram[[j, l]];
                }
                if intercept {
                    expected_gram[[j, d]] = scaled.sum();
                    expected_gram[[d, j]] = expected_gram[[j, d]];
                }
                expected_rhs[[0, j]] = x_columns[j].dot(&r);
            }
            if intercept {
                expected_gram[[d, d]] = c.sum();
                expected_rhs[[0, d]] = r.sum();
            }
            if !column_major {
                // Not fused: the products' own (blocked) arithmetic.
                design.weighted_gram(c.view(), expected_gram.view_mut());
                design.transpose_product(r.view().insert_axis(Axis(1)), expected_rhs.view_mut());
            }
            let mut weighted = Array2::zeros((width, width));
            design.weighted_gram(c.view(), weighted.view_mut());
            let bits = |a: &[f64]| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            proptest::prop_assert_eq!(
                bits(gram.as_slice().unwrap()),
                bits(expected_gram.as_slice().unwrap())
            );
            proptest::prop_assert_eq!(bits(rhs.as_slice().unwrap()), bits(expected_rhs.as_slice().unwrap()));
            proptest::prop_assert_eq!(
                bits(weighted.as_slice().unwrap()),
                bits(expected_gram.as_slice().unwrap())
            );
        }
    }

    fn check_products(x: Array2<f64>, b: Array2<f64>, r: Array2<f64>, c: Array1<f64>) {
        let sparse = CsMat::csr_from_dense(x.view(), 0.0);
        let column_major = x.t().as_standard_layout().into_owned().reversed_axes();
        assert!(is_column_major(column_major.view()));
        for intercept in [false, true] {
            let xt = if intercept { augmented(&x) } else { x.clone() };
            let width = xt.ncols();
            let b = block(b.view(), 0..b.nrows(), 0..width).to_owned();
            for features in [
                Features::Dense(x.view()),
                Features::Dense(column_major.view()),
                Features::Sparse(sparse.view()),
            ] {
                let design = Design::new(features, intercept);
                assert_eq!(design.width(), width);
                // Every predictor count takes its own path: one (binary) and several.
                for m in [1, b.nrows()] {
                    let b = block(b.view(), 0..m, 0..width);
                    let r = block(r.view(), 0..r.nrows(), 0..m);
                    let mut eta = Array2::zeros((x.nrows(), m));
                    design.linear_predictor(b, eta.view_mut());
                    assert_abs_diff_eq!(eta, xt.dot(&b.t()), epsilon = 1e-12);
                    let mut g = Array2::zeros((m, width));
                    design.transpose_product(r, g.view_mut());
                    assert_abs_diff_eq!(g, r.t().dot(&xt), epsilon = 1e-12);
                }
                let mut h = Array2::zeros((width, width));
                design.weighted_gram(c.view(), h.view_mut());
                let expected = xt.t().dot(&Array2::from_diag(&c)).dot(&xt);
                assert_abs_diff_eq!(h, expected, epsilon = 1e-12);
                let max_norm = xt
                    .outer_iter()
                    .map(|r| r.dot(&r).sqrt())
                    .fold(0.0, f64::max);
                assert_abs_diff_eq!(design.max_row_norm(), max_norm, epsilon = 1e-12);
            }
        }
    }

    #[test]
    fn products_on_a_small_matrix() {
        check_products(
            array![
                [1.0, 0.0, 2.0],
                [0.0, 0.0, -1.0],
                [3.0, 0.5, 0.0],
                [0.0, 0.0, 0.0]
            ],
            array![[0.5, -1.0, 2.0, 0.25], [1.0, 0.0, -0.5, -2.0]],
            array![[1.0, 2.0], [-1.0, 0.5], [0.0, 1.0], [2.0, -3.0]],
            array![0.5, 1.0, 0.0, 2.0],
        );
    }

    #[test]
    fn products_on_a_tall_wide_matrix_span_several_blocks() {
        // More columns than SMALL_GRAM and rows over two and a half blocks of the Gram product,
        // with weights of both signs (the multinomial Hessian's off-diagonal blocks).
        let (n, d) = (2 * GRAM_BLOCK_ROWS + 300, SMALL_GRAM + 5);
        let wave = |i: usize, j: usize| ((i * 7 + j * 13) % 17) as f64 / 8.0 - 1.0;
        check_products(
            Array2::from_shape_fn((n, d), |(i, j)| wave(i, j)),
            Array2::from_shape_fn((2, d + 1), |(k, j)| wave(k + 3, j) / 2.0),
            Array2::from_shape_fn((n, 2), |(i, k)| wave(i + k, 5)),
            Array1::from_shape_fn(n, |i| wave(i, 2)),
        );
    }

    proptest! {
        #[test]
        fn products_agree_with_the_explicit_matrix(
            entries in prop::collection::vec(prop_oneof![Just(0.0), -3.0f64..3.0], 15),
            coefs in prop::collection::vec(-2.0f64..2.0, 8),
            res in prop::collection::vec(-1.0f64..1.0, 10),
            c in prop::collection::vec(0.0f64..1.0, 5),
        ) {
            check_products(
                Array2::from_shape_vec((5, 3), entries).unwrap(),
                Array2::from_shape_vec((2, 4), coefs).unwrap(),
                Array2::from_shape_vec((5, 2), res).unwrap(),
                Array1::from(c),
            );
        }
    }
}
