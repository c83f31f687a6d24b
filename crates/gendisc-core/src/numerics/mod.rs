//! Numerically stable building blocks for log-space probability work.
//!
//! All functions are `f64` and follow IEEE semantics at the edges: a NaN input gives NaN,
//! `log_sum_exp` of all `-∞` is `-∞` (the log of an empty sum), and `+∞` dominates.

use ndarray::{Array2, ArrayView1, ArrayViewMut1, Axis};

mod exp;
pub use exp::exp_in_place;

/// `log Σ_i exp(a_i)`, shifted by the maximum so that no term overflows.
///
/// Returns `-∞` for an empty slice or when every term is `-∞`, `+∞` when any term is `+∞`
/// and NaN when any term is NaN.
pub fn log_sum_exp(values: &[f64]) -> f64 {
    log_sum_exp_iter(values.iter().copied())
}

/// [`log_sum_exp`] over an ndarray view (any stride).
pub fn log_sum_exp_view(values: ArrayView1<'_, f64>) -> f64 {
    match values.as_slice() {
        Some(s) => log_sum_exp(s),
        None => log_sum_exp_iter(values.iter().copied()),
    }
}

fn log_sum_exp_iter<I: Iterator<Item = f64> + Clone>(values: I) -> f64 {
    // -∞: every term is exp(-∞) = 0; +∞: the sum is infinite.
    let max = match finite_max(values.clone()) {
        Ok(max) => max,
        Err(normaliser) => return normaliser,
    };
    let sum: f64 = values.map(|v| shifted_exp(v, max)).sum();
    max + sum.ln()
}

/// `exp(v − max)` for `v ≤ max`, both finite, without calling `exp` at the maximum itself:
/// `v − max` is exactly 0 there and `exp(0)` exactly 1, so the result is the same bits and a
/// normaliser of `K` terms costs `K − 1` exponentials (half of them for two classes).
#[inline]
fn shifted_exp(v: f64, max: f64) -> f64 {
    if v == max {
        1.0
    } else {
        (v - max).exp()
    }
}

/// How far from 1 a posterior row of any gendisc model may sum (and from 0 its log-sum-exp):
/// `10⁻¹²`.
///
/// A row normalised by [`log_softmax_in_place`] holds `l_k = (a_k − m) − log s`, each within a
/// few ulps of `|l_k|`; `exp(l_k)` then errs relatively by about `ε |l_k|`, absolutely by
/// `ε p_k |l_k| ≤ ε / e`, so a row of `K` classes sums to 1 within about `K ε`: this bound
/// leaves room for thousands of classes.
pub const PROBABILITY_SUM_TOLERANCE: f64 = 1e-12;

/// Replaces a vector of log-weights by its log-softmax in place, `a_i − log Σ_j exp(a_j)`,
/// and returns the normaliser that was subtracted.
///
/// Each entry is computed as `(a_i − m) − log Σ_j exp(a_j − m)` with `m = max_j a_j`, never as
/// `a_i − (m + log Σ_j …)`: once `|m|` exceeds about `2⁵²`, adding the logarithm of the sum to
/// `m` rounds it away, so two equal weights of `10²⁰` would both come out as probability 1.
/// Subtracting the maximum first is exact for the largest entry (it becomes 0) and keeps every
/// row summing to 1 within a few ulps, whatever the magnitude of the weights.
///
/// A row that is entirely `-∞`, or that holds a `+∞` or a NaN, has no finite normaliser; it is
/// left as is and the normaliser (`-∞`, `+∞` or NaN) is returned, so callers can detect it
/// ([`normalise_log_weights`] gives those rows their meaning).
pub fn log_softmax_in_place(mut row: ArrayViewMut1<'_, f64>) -> f64 {
    on_contiguous(&mut row, log_softmax_slice_in_place)
}

/// [`log_softmax_in_place`] on a slice.
#[inline]
pub fn log_softmax_slice_in_place(row: &mut [f64]) -> f64 {
    let max = match finite_max(row.iter().copied()) {
        Ok(max) => max,
        Err(normaliser) => return normaliser,
    };
    let log_sum = row.iter().map(|&v| shifted_exp(v, max)).sum::<f64>().ln();
    for v in row.iter_mut() {
        *v = (*v - max) - log_sum;
    }
    max + log_sum
}

/// Replaces a row of log-weights by its softmax in place, `exp(a_i − m) / Σ_j exp(a_j − m)`
/// with `m = max_j a_j`, and returns the log normaliser `m + log Σ_j exp(a_j − m)` — the same
/// bits [`log_softmax_in_place`] and [`log_sum_exp`] return for the row.
///
/// The probabilities are the normaliser's own exponentials divided by their sum, so a row of
/// `K` weights costs `K − 1` exponentials (the largest is `exp(0) = 1`), where exponentiating
/// the log-softmax costs `2K − 1`; and a small probability keeps its relative accuracy, where
/// `exp((a_k − m) − log s)` loses about `ε |a_k − m|` of it to the rounding of the exponent.
///
/// A row without a finite normaliser (entirely `-∞`, or holding a `+∞` or a NaN) is left as
/// is, and the normaliser (`-∞`, `+∞` or NaN) is returned, as [`log_softmax_in_place`] does.
pub fn softmax_in_place(mut row: ArrayViewMut1<'_, f64>) -> f64 {
    on_contiguous(&mut row, softmax_slice_in_place)
}

/// [`softmax_in_place`] on a slice: what the per-row loops of the models call on rows of a
/// few entries, where building a view and its iterators costs more than the arithmetic.
#[inline]
pub fn softmax_slice_in_place(row: &mut [f64]) -> f64 {
    let max = match finite_max(row.iter().copied()) {
        Ok(max) => max,
        Err(normaliser) => return normaliser,
    };
    for v in row.iter_mut() {
        *v = shifted_exp(*v, max);
    }
    normalise_shifted_exponentials(row, max)
}

/// Divides a row of exponentials `exp(a_i − m)` by their sum `s` and returns the log
/// normaliser `m + log s`: the last step of [`softmax_slice_in_place`] and
/// [`softmax_rows_in_place`].
#[inline]
fn normalise_shifted_exponentials(row: &mut [f64], max: f64) -> f64 {
    let sum: f64 = row.iter().sum();
    for v in row.iter_mut() {
        *v /= sum;
    }
    max + sum.ln()
}

/// [`softmax_slice_in_place`] on every row of a row-major `n × k` matrix at once, the row's
/// normalisers written to `normalisers` (cleared first), with the exponentials of all rows
/// taken in one call of [`exp_in_place`], which vectorises.
///
/// Each row is shifted by its maximum, exponentiated, divided by its sum and normalised by
/// `m + log s` in the order [`softmax_slice_in_place`] uses; the results differ from it only
/// where [`exp_in_place`] and `f64::exp` differ (by at most one unit in the last place). A row
/// without a finite normaliser (entirely `-∞`, or holding a `+∞` or a NaN) holds the
/// exponentials of its entries, unnormalised, and its normaliser (`-∞`, `+∞` or NaN) is
/// written as it is.
///
/// # Panics
/// If `k` is zero or does not divide the length of `values`.
pub fn softmax_rows_in_place(values: &mut [f64], k: usize, normalisers: &mut Vec<f64>) {
    assert!(
        k > 0 && values.len().is_multiple_of(k),
        "rows of {k} entries in a buffer of {}",
        values.len()
    );
    normalisers.clear();
    for row in values.chunks_exact_mut(k) {
        match finite_max(row.iter().copied()) {
            Ok(max) => {
                for v in row.iter_mut() {
                    *v -= max;
                }
                normalisers.push(max);
            }
            Err(normaliser) => normalisers.push(normaliser),
        }
    }
    exp_in_place(values);
    for (row, normaliser) in values.chunks_exact_mut(k).zip(normalisers.iter_mut()) {
        if normaliser.is_finite() {
            *normaliser = normalise_shifted_exponentials(row, *normaliser);
        }
    }
}

/// Applies `f` to the row as a slice: in place when it is contiguous, else on a copy written
/// back (the same arithmetic in the same order, so the same bits either way).
fn on_contiguous(row: &mut ArrayViewMut1<'_, f64>, f: impl FnOnce(&mut [f64]) -> f64) -> f64 {
    if let Some(slice) = row.as_slice_mut() {
        return f(slice);
    }
    let mut copy = row.to_vec();
    let normaliser = f(&mut copy);
    row.assign(&ArrayView1::from(&copy[..]));
    normaliser
}

/// The largest entry of a row, or the row's normaliser when it has no finite one: NaN for a
/// row holding a NaN, else its non-finite maximum (`-∞` for an empty row or one of `-∞`s).
#[inline]
fn finite_max(row: impl IntoIterator<Item = f64>) -> Result<f64, f64> {
    let mut max = f64::NEG_INFINITY;
    for v in row {
        if v.is_nan() {
            return Err(f64::NAN);
        }
        max = max.max(v);
    }
    if max.is_finite() {
        Ok(max)
    } else {
        Err(max)
    }
}

/// A power of two within a factor 2 of `v` (`v` finite and `≥ 1`; `log2` may round up near
/// the next power, and `2¹⁰²⁴` would overflow): dividing by it is exact, barring underflow.
pub fn power_of_two_scale(v: f64) -> f64 {
    2f64.powi(v.log2().floor().min(1023.0) as i32)
}

/// `‖v‖₂` without overflow or underflow in the squares: the entries are divided by a power of
/// two near the largest magnitude first. `+∞` only when the norm itself exceeds the largest
/// double; NaN when an entry is NaN.
pub fn euclidean_norm(v: ArrayView1<'_, f64>) -> f64 {
    let largest = v.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    if v.iter().any(|x| x.is_nan()) {
        return f64::NAN;
    }
    if largest == 0.0 || !largest.is_finite() {
        return largest;
    }
    // For a largest entry below 1 the scale is at most 1, so the scaled squares cannot
    // overflow either way.
    let scale = if largest >= 1.0 {
        power_of_two_scale(largest)
    } else {
        1.0 / power_of_two_scale(1.0 / largest)
    };
    scale
        * v.iter()
            .map(|x| (x / scale) * (x / scale))
            .sum::<f64>()
            .sqrt()
}

/// `wᵀx + b` for finite inputs, with its limit where plain arithmetic overflows: the value
/// itself when finite, otherwise `s t (Σ_j (w_j / t)(x_j / s) + (b / t)/s)` for powers of two
/// `s ≈ max(1, max|x_j|)` and `t ≈ max(1, |b|, max|w_j|)` — a sum of terms below 4 in
/// magnitude, so finite, and `±∞` only when the exact value exceeds the largest double. Never
/// NaN.
pub fn affine_limit(w: ArrayView1<'_, f64>, b: f64, x: ArrayView1<'_, f64>) -> f64 {
    let plain = w.dot(&x) + b;
    if plain.is_finite() {
        return plain;
    }
    let s = power_of_two_scale(x.iter().fold(1.0_f64, |m, v| m.max(v.abs())));
    let t = power_of_two_scale(w.iter().fold(b.abs().max(1.0), |m, v| m.max(v.abs())));
    let scaled: f64 = w
        .iter()
        .zip(&x)
        .map(|(w, x)| (w / t) * (x / s))
        .sum::<f64>()
        + b / t / s;
    scaled * s * t
}

/// Scores `v_k · s · t` from scores `v` computed with the inputs divided by `s` and the
/// coefficients by `t` (as [`affine_limit`] computes them), written into `out` shifted by their
/// maximum, `(v_k − max v) · s · t`: 0 for the most probable class, finite or `−∞` for the
/// others, never `+∞` or NaN. The two factors are applied one at a time, since their product
/// can overflow (and `0 · ∞` is NaN). The softmax ignores the shift, so these are the row's
/// scores for every posterior computed from them.
pub fn unscale_shifted(scaled: &[f64], s: f64, t: f64, mut out: ArrayViewMut1<'_, f64>) {
    let max = scaled.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
    for (o, v) in out.iter_mut().zip(scaled) {
        *o = (v - max) * s * t;
    }
}

/// Why a row of log-weights cannot be normalised into log-probabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unnormalisable {
    /// An entry is NaN (an undefined score, such as `0 · ∞` or `∞ − ∞`).
    Nan,
    /// Several entries are `+∞`, so no class is more certain than another.
    SeveralInfinite,
    /// Every entry is `-∞`: every class has probability zero.
    AllImpossible,
}

impl std::fmt::Display for Unnormalisable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Nan => "a score is undefined (NaN: 0 · ∞ or ∞ − ∞)",
            Self::SeveralInfinite => "several classes have an infinite score",
            Self::AllImpossible => "every class has probability zero (log-weight −∞)",
        })
    }
}

/// Why a row of log-weights has no normalisation ([`normalise_log_weights`] fails on it), or
/// `None` when it has one: a NaN, several `+∞`, or only `−∞` (an empty row included).
pub fn unnormalisable(row: ArrayView1<'_, f64>) -> Option<Unnormalisable> {
    let mut infinite = 0;
    let mut all_impossible = true;
    for &v in row {
        if v.is_nan() {
            return Some(Unnormalisable::Nan);
        }
        infinite += usize::from(v == f64::INFINITY);
        all_impossible &= v == f64::NEG_INFINITY;
    }
    if infinite > 1 {
        Some(Unnormalisable::SeveralInfinite)
    } else if all_impossible {
        Some(Unnormalisable::AllImpossible)
    } else {
        None
    }
}

/// Normalises a row of log-weights into log-probabilities in place ([`log_softmax_in_place`])
/// and returns the normaliser, giving the non-finite rows their limits: a single `+∞` entry
/// takes all the mass (its log-probability becomes 0, the others `-∞`, and the normaliser is
/// `+∞`). A NaN, several `+∞` or only `-∞` is an [`Unnormalisable`] row, left as is.
pub fn normalise_log_weights(mut row: ArrayViewMut1<'_, f64>) -> Result<f64, Unnormalisable> {
    let norm = log_softmax_in_place(row.view_mut());
    if norm.is_finite() {
        return Ok(norm);
    }
    if norm.is_nan() {
        return Err(Unnormalisable::Nan);
    }
    if norm == f64::NEG_INFINITY {
        return Err(Unnormalisable::AllImpossible);
    }
    if row.iter().filter(|&&v| v == f64::INFINITY).count() > 1 {
        return Err(Unnormalisable::SeveralInfinite);
    }
    row.mapv_inplace(|v| {
        if v == f64::INFINITY {
            0.0
        } else {
            f64::NEG_INFINITY
        }
    });
    Ok(f64::INFINITY)
}

/// Row-wise log-softmax of an `n × K` matrix of log-weights, each row shifted by its own
/// maximum (never a global one), with the non-finite rows given their limits
/// ([`normalise_log_weights`]). The first row that has none is the error, with its index: no
/// row is ever left unnormalised.
pub fn log_softmax_rows(mut scores: Array2<f64>) -> Result<Array2<f64>, (usize, Unnormalisable)> {
    for (i, row) in scores.axis_iter_mut(Axis(0)).enumerate() {
        normalise_log_weights(row).map_err(|reason| (i, reason))?;
    }
    Ok(scores)
}

/// `log(1 + t)` for `t ∈ [0, 1]`, by the correction `log u − ((u − 1) − t)/u` with
/// `u = 1 + t` rounded (`u − 1 − t` is exact, so the correction recovers what rounding `u`
/// lost; Goldberg 1991, *What every computer scientist should know about floating-point
/// arithmetic*, §Theorem 4 discusses the same loss): within a few ulps of `t.ln_1p()`, and
/// faster, which matters in the loops that run it once per row per evaluation.
pub fn log1p_unit(t: f64) -> f64 {
    let u = 1.0 + t;
    if u == 1.0 {
        t
    } else {
        u.ln() - ((u - 1.0) - t) / u
    }
}

/// `log(1 + exp(x))` without overflow or loss of precision.
///
/// Uses the branch points of Mächler (2012), *Accurately computing log(1 − exp(−|a|))*:
/// `exp(x)` for `x ≤ −37`, `x` beyond 33.3, and in between `max(x, 0) + log(1 + exp(−|x|))`
/// (by [`log1p_unit`]), which is one exponential and one logarithm.
pub fn log1pexp(x: f64) -> f64 {
    if x <= -37.0 {
        x.exp()
    } else if x <= 33.3 {
        x.max(0.0) + log1p_unit((-x.abs()).exp())
    } else {
        x
    }
}

/// The logistic function `1 / (1 + exp(−x))`, evaluated without overflow for any `x`.
pub fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// `log σ(x) = −log(1 + exp(−x))`, accurate in both tails.
pub fn log_sigmoid(x: f64) -> f64 {
    -log1pexp(-x)
}

/// `Σ ln f_i` over positive factors, accumulated as the logarithm of their product: one
/// logarithm in all instead of one per factor, for the loops that would otherwise spend most of
/// their time in `ln` (glm's deviance at every IRLS step, the logistic loss of a test set).
///
/// Factors in `[2⁻⁵³, 2⁵³]` are multiplied in blocks of 16 — four independent running products
/// per block, so that the multiplications do not wait on each other — and after each block the
/// binary exponent of the running product moves into an integer, so that it can neither overflow
/// nor underflow (a block's product lies in `[2⁻⁸⁴⁸, 2⁸⁴⁸]`). Each multiplication rounds with a
/// relative error of at most `ε/2`, so the result is within `n ε/2` (absolute) of the exact
/// `Σ ln f_i` — the order of summing `n` rounded logarithms. A factor outside that range (`0`,
/// `+∞`, NaN included) is not multiplied but its logarithm added, so the result is `−∞`, `+∞`
/// or NaN exactly when the sum of logarithms is.
///
/// ```
/// use gendisc_core::numerics::LnProduct;
/// let mut product = LnProduct::new();
/// for f in [2.0, 3.0, 1e15, 1.5] {
///     product.push(f);
/// }
/// let exact: f64 = [2.0_f64, 3.0, 1e15, 1.5].iter().map(|f| f.ln()).sum();
/// assert!((product.ln() - exact).abs() < 1e-14);
/// ```
#[derive(Debug, Clone)]
pub struct LnProduct {
    /// Factors not yet multiplied.
    block: [f64; Self::BLOCK],
    /// How many entries of `block` are in use.
    pending: usize,
    /// The running product of the folded blocks, in `[1, 2)`.
    mantissa: f64,
    /// The binary exponent moved out of `mantissa`.
    exponent: i64,
    /// `Σ ln f` over the factors outside `[2⁻⁵³, 2⁵³]`.
    outside: f64,
}

impl Default for LnProduct {
    fn default() -> Self {
        Self::new()
    }
}

impl LnProduct {
    /// Factors per block: 16 factors of at most `2⁵³` multiply to at most `2⁸⁴⁸`.
    const BLOCK: usize = 16;
    /// Independent running products within a block.
    const LANES: usize = 4;
    /// The factors multiplied rather than logged: `[2⁻⁵³, 2⁵³]`.
    const RANGE: std::ops::RangeInclusive<f64> =
        1.0 / 9_007_199_254_740_992.0..=9_007_199_254_740_992.0;

    /// The empty product (`ln` = 0).
    pub fn new() -> Self {
        Self {
            block: [1.0; Self::BLOCK],
            pending: 0,
            mantissa: 1.0,
            exponent: 0,
            outside: 0.0,
        }
    }

    /// Adds `ln factor`.
    #[inline]
    pub fn push(&mut self, factor: f64) {
        if !Self::RANGE.contains(&factor) {
            self.outside += factor.ln();
            return;
        }
        self.block[self.pending] = factor;
        self.pending += 1;
        if self.pending == Self::BLOCK {
            self.fold();
        }
    }

    /// Adds `ln f` for every factor of `factors`, in order: the same as [`push`](Self::push)ing
    /// them one by one, bit for bit, with whole blocks of factors in range taken at once.
    pub fn extend_from_slice(&mut self, mut factors: &[f64]) {
        while let Some((&first, rest)) = factors.split_first() {
            if self.pending == 0 && factors.len() >= Self::BLOCK {
                let (block, after) = factors.split_at(Self::BLOCK);
                if block.iter().all(|f| Self::RANGE.contains(f)) {
                    self.block.copy_from_slice(block);
                    self.pending = Self::BLOCK;
                    self.fold();
                    factors = after;
                    continue;
                }
            }
            self.push(first);
            factors = rest;
        }
    }

    /// Multiplies the pending factors into the running product and renormalises it.
    #[inline]
    fn fold(&mut self) {
        const EXPONENT_MASK: u64 = 0x7ff << 52;
        let mut lanes = [1.0_f64; Self::LANES];
        if self.pending == Self::BLOCK {
            // A full block, the usual case: a fixed-length loop the compiler unrolls.
            for group in self.block.chunks_exact(Self::LANES) {
                for (lane, &f) in lanes.iter_mut().zip(group) {
                    *lane *= f;
                }
            }
        } else {
            for group in self.block[..self.pending].chunks(Self::LANES) {
                for (lane, &f) in lanes.iter_mut().zip(group) {
                    *lane *= f;
                }
            }
        }
        self.pending = 0;
        let product = self.mantissa * ((lanes[0] * lanes[1]) * (lanes[2] * lanes[3]));
        // `product` is a normal number: move its binary exponent into `exponent`.
        let bits = product.to_bits();
        self.exponent += ((bits & EXPONENT_MASK) >> 52) as i64 - 1023;
        self.mantissa = f64::from_bits((bits & !EXPONENT_MASK) | (1023 << 52));
    }

    /// `Σ ln f_i` over the factors pushed so far.
    pub fn ln(&self) -> f64 {
        let mut rest = self.clone();
        rest.fold();
        rest.mantissa.ln() + rest.exponent as f64 * std::f64::consts::LN_2 + rest.outside
    }
}

/// `Σ log(1 + τ_i)` over `τ_i ∈ [0, 1]` with one logarithm in all: the logistic losses
/// `log(1 + exp(−|η|))` of a set of rows, given their `τ_i = exp(−|η_i|)`.
///
/// A `τ` below `10⁻⁴` contributes the series `τ − τ²/2 + τ³/3` (truncation error below
/// `τ⁴/4`, relatively `2.5·10⁻¹³`); any other contributes the factor `1 + τ` to an
/// [`LnProduct`], whose rounding costs at most `ε` absolute, relatively `1.2·10⁻¹²` of
/// `log(1 + τ) ≥ 10⁻⁴`. So every term, and the sum, is within about `10⁻¹²` of its value
/// relatively, at a fraction of the cost of a [`log1p_unit`] per term.
///
/// ```
/// use gendisc_core::numerics::Log1pSum;
/// let taus = [0.0, 1e-9, 0.3, 1.0];
/// let mut sum = Log1pSum::new();
/// taus.iter().for_each(|&t| sum.add(t));
/// let exact: f64 = taus.iter().map(|t| t.ln_1p()).sum();
/// assert!((sum.value() - exact).abs() <= 1e-12 * exact);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Log1pSum {
    series: f64,
    product: LnProduct,
}

impl Log1pSum {
    /// Below this `τ`, `log(1 + τ)` is summed as its series.
    const SERIES_BELOW: f64 = 1e-4;

    /// The empty sum.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `log(1 + tau)`, `tau ∈ [0, 1]`; a NaN makes the sum NaN.
    #[inline]
    pub fn add(&mut self, tau: f64) {
        debug_assert!(tau.is_nan() || (0.0..=1.0).contains(&tau), "τ = {tau}");
        if tau < Self::SERIES_BELOW {
            self.series += tau * (1.0 - tau * (0.5 - tau / 3.0));
        } else {
            self.product.push(1.0 + tau);
        }
    }

    /// The sum so far.
    pub fn value(&self) -> f64 {
        self.series + self.product.ln()
    }
}

/// The running sums of [`contiguous_dot`]: eight, one per position modulo 8.
pub const DOT_LANES: usize = 8;

/// `xᵀy` of two slices of equal length, summed exactly as ndarray sums the dot product of two
/// contiguous vectors (`ArrayBase::dot`, which every earlier result of gendisc used): eight
/// running sums over the leading multiple of eight entries ([`DOT_LANES`]), combined in pairs
/// ([`combine_dot_lanes`]), then the remaining entries added in order. Code that needs the same
/// bits without a view and a layout check per call, or fused with another pass over the
/// vectors, sums through these.
///
/// ```
/// use gendisc_core::numerics::contiguous_dot;
/// use ndarray::Array1;
/// let x = Array1::from_iter((0..19).map(|i| (i as f64).sin()));
/// let y = Array1::from_iter((0..19).map(|i| (i as f64).cos()));
/// let ours = contiguous_dot(x.as_slice().unwrap(), y.as_slice().unwrap());
/// assert_eq!(ours.to_bits(), x.dot(&y).to_bits());
/// ```
#[inline]
pub fn contiguous_dot(x: &[f64], y: &[f64]) -> f64 {
    debug_assert_eq!(x.len(), y.len());
    let split = dot_lanes_len(x.len());
    let mut lanes = [0.0_f64; DOT_LANES];
    for (xs, ys) in x[..split]
        .chunks_exact(DOT_LANES)
        .zip(y[..split].chunks_exact(DOT_LANES))
    {
        for lane in 0..DOT_LANES {
            lanes[lane] += xs[lane] * ys[lane];
        }
    }
    let mut sum = combine_dot_lanes(lanes);
    for (a, b) in x[split..].iter().zip(&y[split..]) {
        sum += a * b;
    }
    sum
}

/// How many leading entries of a vector of length `len` [`contiguous_dot`] sums in its lanes.
#[inline]
pub fn dot_lanes_len(len: usize) -> usize {
    len - len % DOT_LANES
}

/// The running sums of [`contiguous_dot`] combined as ndarray combines them, before the
/// remaining entries are added.
#[inline]
pub fn combine_dot_lanes(lanes: [f64; DOT_LANES]) -> f64 {
    let mut sum = 0.0;
    sum += lanes[0] + lanes[4];
    sum += lanes[1] + lanes[5];
    sum += lanes[2] + lanes[6];
    sum += lanes[3] + lanes[7];
    sum
}

/// Index of the largest entry, ties going to the lowest index; `None` for an empty row or one
/// that contains NaN.
pub fn argmax(row: ArrayView1<'_, f64>) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, &v) in row.iter().enumerate() {
        if v.is_nan() {
            return None;
        }
        match best {
            Some((_, b)) if v <= b => {}
            _ => best = Some((i, v)),
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use ndarray::{array, Array1};
    use proptest::prelude::*;

    #[test]
    fn softmax_leaves_a_row_without_a_finite_normaliser_as_it_was() {
        let ninf = f64::NEG_INFINITY;
        for (row, normaliser) in [
            (array![ninf, ninf], ninf),
            (array![1.0, f64::INFINITY], f64::INFINITY),
            (array![f64::NAN, 0.0], f64::NAN),
        ] {
            let mut p = row.clone();
            let got = softmax_in_place(p.view_mut());
            assert_eq!(got.to_bits(), normaliser.to_bits(), "{row}");
            let same = p.iter().zip(&row).all(|(a, b)| a.to_bits() == b.to_bits());
            assert!(same, "{row} became {p}");
        }
        // The largest weight's exponential is exactly 1, so a lone finite weight is 1.
        let mut p = array![ninf, 3.0, ninf];
        assert_eq!(softmax_in_place(p.view_mut()), 3.0);
        assert_eq!(p, array![0.0, 1.0, 0.0]);
    }

    #[test]
    fn contiguous_dot_is_ndarrays_dot_bit_for_bit() {
        for len in 0..50 {
            let x = Array1::from_iter((0..len).map(|i| ((i * 7919) as f64).sin() * 1e3));
            let y = Array1::from_iter((0..len).map(|i| ((i * 104_729) as f64).cos() - 0.3));
            let ours = contiguous_dot(x.as_slice().unwrap(), y.as_slice().unwrap());
            assert_eq!(ours.to_bits(), x.dot(&y).to_bits(), "length {len}");
        }
    }

    #[test]
    fn norms_and_affine_scores_at_the_ends_of_the_doubles() {
        assert_relative_eq!(
            euclidean_norm(array![3e200, 4e200].view()),
            5e200,
            max_relative = 4e-16
        );
        assert_relative_eq!(
            euclidean_norm(array![3e-200, 4e-200].view()),
            5e-200,
            max_relative = 4e-16
        );
        assert_eq!(euclidean_norm(array![0.0, -0.0].view()), 0.0);
        assert_eq!(
            euclidean_norm(array![f64::MAX, f64::MAX].view()),
            f64::INFINITY
        );
        assert!(euclidean_norm(array![1.0, f64::NAN].view()).is_nan());
        let w = array![1.0, -1.0];
        // 1e308 + 1e308 overflows; the exact value 2e308 is beyond the doubles: +∞.
        assert_eq!(
            affine_limit(w.view(), 0.0, array![1e308, -1e308].view()),
            f64::INFINITY
        );
        // ∞ − ∞ in plain arithmetic; the exact value is the intercept.
        let twice = array![2.0, -2.0];
        assert_eq!(
            affine_limit(twice.view(), 0.5, array![f64::MAX, f64::MAX].view()),
            0.5
        );
        assert_eq!(affine_limit(w.view(), 0.5, array![2.0, 1.0].view()), 1.5);
    }

    #[test]
    fn log1p_on_the_unit_interval() {
        for i in 0..=1000 {
            let t = f64::from(i) / 1000.0;
            let (ours, libm) = (log1p_unit(t), t.ln_1p());
            assert!((ours - libm).abs() <= 4.0 * f64::EPSILON * libm, "{t}");
        }
        for t in [1e-300, 1e-20, 1e-16, 2.2e-16, 1e-8] {
            assert!(
                (log1p_unit(t) - t.ln_1p()).abs() <= 2.0 * f64::EPSILON * t,
                "{t}"
            );
        }
    }

    #[test]
    fn log_sum_exp_edges() {
        assert_eq!(log_sum_exp(&[]), f64::NEG_INFINITY);
        assert_eq!(
            log_sum_exp(&[f64::NEG_INFINITY, f64::NEG_INFINITY]),
            f64::NEG_INFINITY
        );
        assert_eq!(log_sum_exp(&[1.0, f64::INFINITY]), f64::INFINITY);
        assert!(log_sum_exp(&[1.0, f64::NAN]).is_nan());
        assert_relative_eq!(log_sum_exp(&[1000.0, 1000.0]), 1000.0 + 2f64.ln());
        assert_relative_eq!(log_sum_exp(&[-1000.0, -1000.0]), -1000.0 + 2f64.ln());
        assert_eq!(log_sum_exp(&[f64::NEG_INFINITY, 3.0]), 3.0);
    }

    #[test]
    fn a_normalisers_maximum_term_is_exactly_one_as_exp_would_give() {
        // The premise of skipping `exp` at the maximum: the same bits as calling it.
        assert_eq!(0.0f64.exp().to_bits(), 1.0f64.to_bits());
        for (v, max) in [
            (-3.5, 2.0),
            (2.0, 2.0),
            (-1e-300, 0.0),
            (5e-324, 1e-323),
            (-800.0, 0.0),
        ] {
            assert_eq!(shifted_exp(v, max).to_bits(), (v - max).exp().to_bits());
        }
    }

    #[test]
    fn log1pexp_matches_definition_and_tails() {
        for &x in &[-50.0, -37.0, -5.0, 0.0, 1e-10, 5.0, 18.0, 25.0, 33.3, 40.0] {
            let naive = (1.0 + f64::exp(x)).ln();
            assert_relative_eq!(log1pexp(x), naive, max_relative = 1e-15);
        }
        assert_eq!(log1pexp(800.0), 800.0);
        assert!(log1pexp(-800.0) >= 0.0);
    }

    #[test]
    fn sigmoid_extremes_are_finite() {
        assert_eq!(sigmoid(-1000.0), 0.0);
        assert_eq!(sigmoid(1000.0), 1.0);
        assert_eq!(sigmoid(0.0), 0.5);
        assert_relative_eq!(log_sigmoid(-800.0), -800.0);
    }

    #[test]
    fn argmax_breaks_ties_low_and_refuses_nan() {
        assert_eq!(argmax(array![1.0, 3.0, 3.0].view()), Some(1));
        assert_eq!(argmax(array![f64::NEG_INFINITY].view()), Some(0));
        assert_eq!(argmax(array![1.0, f64::NAN].view()), None);
        assert_eq!(argmax(Array1::<f64>::zeros(0).view()), None);
    }

    #[test]
    fn huge_equal_weights_share_the_mass() {
        // Once the weights pass 2⁵², m + log 2 rounds to m: the old a − (m + log Σ) gave two
        // probabilities of 1.
        for m in [1e16, 1e20, -1e20, 1e300, -1e300] {
            let out = log_softmax_rows(array![[m, m], [m, m * (1.0 + f64::EPSILON)]]).unwrap();
            for row in out.rows() {
                let total: f64 = row.iter().map(|v| v.exp()).sum();
                assert!((total - 1.0).abs() <= 4.0 * f64::EPSILON, "{m}: {row}");
            }
            assert_eq!(out[[0, 0]], -(2f64.ln()));
        }
    }

    #[test]
    fn non_finite_rows_get_their_limits_or_a_reason() {
        let mut certain = array![1.0, f64::INFINITY, f64::NEG_INFINITY];
        assert_eq!(normalise_log_weights(certain.view_mut()), Ok(f64::INFINITY));
        assert_eq!(certain, array![f64::NEG_INFINITY, 0.0, f64::NEG_INFINITY]);
        let mut impossible = array![1.0, f64::NEG_INFINITY];
        assert_eq!(normalise_log_weights(impossible.view_mut()), Ok(1.0));
        assert_eq!(impossible, array![0.0, f64::NEG_INFINITY]);
        for (row, reason) in [
            (array![f64::NAN, 0.0], Unnormalisable::Nan),
            (array![f64::INFINITY, f64::NAN], Unnormalisable::Nan),
            (
                array![f64::INFINITY, f64::INFINITY],
                Unnormalisable::SeveralInfinite,
            ),
            (
                array![f64::NEG_INFINITY, f64::NEG_INFINITY],
                Unnormalisable::AllImpossible,
            ),
        ] {
            let mut row = row;
            assert_eq!(normalise_log_weights(row.view_mut()), Err(reason));
        }
    }

    #[test]
    fn a_row_without_a_normaliser_is_an_error_naming_it() {
        let out = log_softmax_rows(array![[0.0, 0.0], [f64::NEG_INFINITY, f64::NEG_INFINITY]]);
        assert_eq!(out, Err((1, Unnormalisable::AllImpossible)));
        let out = log_softmax_rows(array![[1.0, f64::INFINITY], [0.0, 0.0]]).unwrap();
        assert_eq!(out.row(0).to_vec(), vec![f64::NEG_INFINITY, 0.0]);
        assert_relative_eq!(out[[1, 0]], -(2f64.ln()));
    }

    #[test]
    fn ln_product_neither_overflows_nor_loses_small_factors() {
        // Alternately the largest factor glm's clamp allows and one barely above 1, then as
        // many small ones, over a length that leaves a partial block and a partial lane group.
        let factors: Vec<f64> = (0..1001)
            .map(|i| match i % 4 {
                0 => 1.0 + 1.0 / f64::EPSILON,
                1 | 3 => 1.0 + 1e-9,
                _ => 1.0 / (1.0 + 1.0 / f64::EPSILON),
            })
            .collect();
        // Summed per kind of factor: a running sum of ±36 would itself be off by more than
        // the bound.
        let (large, small): (f64, f64) = (1.0 + 1.0 / f64::EPSILON, 1.0 + 1e-9);
        let exact = 251.0 * large.ln() + 500.0 * small.ln() - 250.0 * large.ln();
        let mut product = LnProduct::new();
        factors.iter().for_each(|&f| product.push(f));
        assert!(
            (product.ln() - exact).abs() <= 1001.0 * f64::EPSILON,
            "{} vs {exact}",
            product.ln()
        );
        assert_eq!(LnProduct::new().ln(), 0.0);
    }

    #[test]
    fn log1p_sum_propagates_nan() {
        let mut sum = Log1pSum::new();
        sum.add(0.5);
        sum.add(f64::NAN);
        assert!(sum.value().is_nan());
        assert_eq!(Log1pSum::new().value(), 0.0);
    }

    #[test]
    fn ln_product_outside_its_range_is_the_sum_of_logarithms() {
        let ln_of = |factors: &[f64]| {
            let mut product = LnProduct::new();
            factors.iter().for_each(|&f| product.push(f));
            product.ln()
        };
        assert_eq!(ln_of(&[2.0, 0.0, 3.0]), f64::NEG_INFINITY);
        assert_eq!(ln_of(&[2.0, f64::INFINITY]), f64::INFINITY);
        assert!(ln_of(&[2.0, f64::NAN]).is_nan());
        assert!(ln_of(&[-1.0]).is_nan());
        let huge = [1e300, 1e300, 1e-300];
        assert!((ln_of(&huge) - 300.0 * 10f64.ln()).abs() < 1e-12);
    }

    proptest! {
        /// Pushing a slice at once is pushing its factors one by one, bit for bit, whatever
        /// was pending and wherever factors fall outside the multiplied range.
        #[test]
        fn ln_product_extends_as_it_pushes(
            before in 0usize..20,
            factors in prop::collection::vec(
                prop_oneof![8 => 0.5f64..4.0, 1 => Just(0.0), 1 => 1e-300f64..1e-200],
                0..100,
            ),
        ) {
            let mut pushed = LnProduct::new();
            let mut extended = LnProduct::new();
            for _ in 0..before {
                pushed.push(1.5);
                extended.push(1.5);
            }
            factors.iter().for_each(|&f| pushed.push(f));
            extended.extend_from_slice(&factors);
            prop_assert_eq!(pushed.ln().to_bits(), extended.ln().to_bits());
        }

        /// Every row as the one-row softmax gives it, but for the exponentials' last bit: the
        /// probabilities within two ulps, the normaliser within one of its own magnitude.
        #[test]
        fn softmax_rows_match_the_one_row_softmax(
            k in 1usize..7,
            entries in prop::collection::vec(-800.0f64..800.0, 0..70),
        ) {
            let n = entries.len() / k;
            let mut batched = entries[..n * k].to_vec();
            let mut normalisers = vec![f64::NAN; 3];
            softmax_rows_in_place(&mut batched, k, &mut normalisers);
            prop_assert_eq!(normalisers.len(), n);
            for (i, row) in entries[..n * k].chunks_exact(k).enumerate() {
                let mut one = row.to_vec();
                let normaliser = softmax_slice_in_place(&mut one);
                let got = &batched[i * k..(i + 1) * k];
                for (&g, &p) in got.iter().zip(&one) {
                    prop_assert!((g - p).abs() <= 4.0 * f64::EPSILON * p, "{got:?} vs {one:?}");
                }
                prop_assert!(
                    (normalisers[i] - normaliser).abs() <= 2.0 * f64::EPSILON * normaliser.abs(),
                    "{} vs {normaliser}", normalisers[i]
                );
            }
        }
    }

    #[test]
    fn softmax_rows_leave_rows_without_a_normaliser_exponentiated() {
        let inf = f64::INFINITY;
        let mut values = vec![0.0, 0.0, -inf, -inf, 1.0, inf, f64::NAN, 0.0, 3.0, 3.0];
        let mut normalisers = Vec::new();
        softmax_rows_in_place(&mut values, 2, &mut normalisers);
        assert_eq!(&values[..2], &[0.5, 0.5]);
        assert_eq!(&values[2..4], &[0.0, 0.0]);
        let mut e = [1.0];
        exp_in_place(&mut e);
        assert_eq!(&values[4..6], &[e[0], inf]);
        assert!(values[6].is_nan() && values[7] == 1.0);
        assert_eq!(&values[8..], &[0.5, 0.5]);
        assert_eq!(normalisers[0], 2_f64.ln());
        assert_eq!(normalisers[1], -inf);
        assert_eq!(normalisers[2], inf);
        assert!(normalisers[3].is_nan());
        assert_eq!(normalisers[4], 3.0 + 2_f64.ln());
    }

    #[test]
    #[should_panic(expected = "rows of 3 entries")]
    fn softmax_rows_need_whole_rows() {
        softmax_rows_in_place(&mut [0.0; 4], 3, &mut Vec::new());
    }

    proptest! {
        /// Relatively within `2·10⁻¹²` of summing `ln_1p`, for `τ` spread over many scales.
        #[test]
        fn log1p_sum_matches_summed_logarithms(
            exponents in prop::collection::vec(-40.0f64..0.0, 1..300),
        ) {
            let taus: Vec<f64> = exponents.iter().map(|e| e.exp()).collect();
            let mut sum = Log1pSum::new();
            taus.iter().for_each(|&t| sum.add(t));
            // Ascending order keeps the reference's own rounding small.
            let mut terms: Vec<f64> = taus.iter().map(|t| t.ln_1p()).collect();
            terms.sort_by(f64::total_cmp);
            let exact: f64 = terms.iter().sum();
            prop_assert!((sum.value() - exact).abs() <= 2e-12 * exact, "{} vs {exact}", sum.value());
        }
    }

    proptest! {
        #[test]
        fn log_sum_exp_agrees_with_naive_formula(v in prop::collection::vec(-300.0f64..300.0, 1..20)) {
            let naive = v.iter().map(|x| x.exp()).sum::<f64>().ln();
            prop_assert!((log_sum_exp(&v) - naive).abs() <= 1e-12 * naive.abs().max(1.0));
        }

        #[test]
        fn log_sum_exp_is_shift_equivariant(v in prop::collection::vec(-1e3f64..1e3, 1..20), c in -1e4f64..1e4) {
            let shifted: Vec<f64> = v.iter().map(|x| x + c).collect();
            let lhs = log_sum_exp(&shifted);
            let rhs = log_sum_exp(&v) + c;
            prop_assert!((lhs - rhs).abs() <= 1e-9 * rhs.abs().max(1.0));
        }

        #[test]
        fn log_softmax_rows_sum_to_one(
            rows in prop::collection::vec(prop::collection::vec(-1e4f64..1e4, 3), 1..10)
        ) {
            let n = rows.len();
            let flat: Vec<f64> = rows.into_iter().flatten().collect();
            let out = log_softmax_rows(Array2::from_shape_vec((n, 3), flat).unwrap()).unwrap();
            for row in out.rows() {
                let total: f64 = row.iter().map(|v| v.exp()).sum();
                prop_assert!((total - 1.0).abs() < 1e-12);
                prop_assert!(row.iter().all(|v| *v <= 0.0));
            }
        }

        /// The softmax returns the log-softmax's normaliser bit for bit, and probabilities
        /// within a few ulps of the log-softmax's exponentials (closer for small ones, whose
        /// log-softmax rounds its exponent), summing to 1.
        #[test]
        fn softmax_is_the_exponentiated_log_softmax(
            row in prop::collection::vec(-800.0f64..800.0, 1..7),
        ) {
            let mut p = Array1::from(row.clone());
            let mut log_p = Array1::from(row);
            let normaliser = softmax_in_place(p.view_mut());
            let log_normaliser = log_softmax_in_place(log_p.view_mut());
            prop_assert_eq!(normaliser.to_bits(), log_normaliser.to_bits());
            for (&p_k, &l_k) in p.iter().zip(&log_p) {
                let from_log = l_k.exp();
                let tolerance = 4.0 * f64::EPSILON * (1.0 + l_k.abs()) * from_log;
                prop_assert!((p_k - from_log).abs() <= tolerance.max(f64::MIN_POSITIVE),
                    "{p_k} vs exp({l_k}) = {from_log}");
            }
            prop_assert!((p.sum() - 1.0).abs() <= 8.0 * f64::EPSILON);
        }

        /// A strided row (a column of a matrix) gets the same bits as the same row held
        /// contiguously, from both normalisations, including rows with no finite normaliser.
        #[test]
        fn strided_rows_normalise_as_contiguous_ones(
            row in prop::collection::vec(
                prop_oneof![8 => -800.0f64..800.0, 1 => Just(f64::NEG_INFINITY), 1 => Just(f64::NAN)],
                0..7,
            ),
        ) {
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            for normalise in [softmax_in_place, log_softmax_in_place] {
                let mut contiguous = row.clone();
                let expected = normalise(ArrayViewMut1::from(&mut contiguous[..]));
                let mut matrix = Array2::from_shape_fn((row.len(), 2), |(i, j)| {
                    if j == 0 { row[i] } else { 7.0 }
                });
                let got = normalise(matrix.column_mut(0));
                prop_assert_eq!(got.to_bits(), expected.to_bits());
                prop_assert_eq!(bits(&matrix.column(0).to_vec()), bits(&contiguous));
                prop_assert!(matrix.column(1).iter().all(|&v| v == 7.0));
            }
        }

        /// Rows of any magnitude, with entries close together or far apart, sum to 1.
        #[test]
        fn log_softmax_rows_sum_to_one_at_any_magnitude(
            base in -300.0f64..300.0,
            offsets in prop::collection::vec(-50.0f64..50.0, 2..6),
        ) {
            let m = 10f64.powf(base) * base.signum();
            let row: Vec<f64> = offsets.iter().map(|o| m + o).collect();
            let out = log_softmax_rows(Array2::from_shape_vec((1, row.len()), row).unwrap()).unwrap();
            let total: f64 = out.iter().map(|v| v.exp()).sum();
            prop_assert!((total - 1.0).abs() <= 8.0 * f64::EPSILON, "{total}");
        }

        #[test]
        fn sigmoid_is_symmetric(x in -800.0f64..800.0) {
            prop_assert!((sigmoid(x) + sigmoid(-x) - 1.0).abs() < 1e-15);
            prop_assert!((0.0..=1.0).contains(&sigmoid(x)));
        }

        #[test]
        fn log_sigmoid_is_log_of_sigmoid(x in -30.0f64..30.0) {
            prop_assert!((log_sigmoid(x) - sigmoid(x).ln()).abs() < 1e-14);
        }

        #[test]
        fn log1pexp_identity(x in -700.0f64..700.0) {
            // log(1 + e^x) − log(1 + e^−x) = x
            prop_assert!((log1pexp(x) - log1pexp(-x) - x).abs() <= 1e-12 * x.abs().max(1.0));
        }
    }
}
