//! What the Gaussian families (one component per class) share: the means block `μ` (`K · d`)
//! first in `ϑ`, then the precisions, and a log-density that is `½ log det Λ_k − ½ δᵀ Λ_k δ`
//! for `δ = x − μ_k`, up to `(d/2) ln 2π`.

use ndarray::{s, Array1, Array2, ArrayView1, ArrayView2, Axis};

use gendisc_core::linalg::Cholesky;
use gendisc_core::numerics::log_softmax_in_place;

use super::density::Shape;
use super::{Parametrisation, Priors};
use crate::whitening::{Direction, InputMap};

/// Runs `$body` with the const `$D` bound to the number of features `$d` where it is 1 to 4
/// (0 otherwise), so that the loops over a row's features in `$body` — and in the closures it
/// inlines, which take the length of the slice they are given — have a length fixed when they
/// are compiled: unrolled, without bounds checks. The arithmetic and its order are the same, so
/// the results are the same bits. The families are most often fitted on a few inputs (Bouchard
/// & Triggs's four Fisher directions), where the per-row overhead is most of the cost.
macro_rules! with_small_dim {
    ($d:expr, $D:ident => $body:expr) => {
        with_small_dim!(@arms $d, $D => $body; 1, 2, 3, 4)
    };
    (@arms $d:expr, $D:ident => $body:expr; $($n:literal),*) => {
        match $d {
            $($n => {
                const $D: usize = $n;
                $body
            })*
            _ => {
                const $D: usize = 0;
                $body
            }
        }
    };
}

/// A buffer of `d` values, on the stack where `d` is small: its length is then known where
/// `d` is a constant.
struct RowBuffer {
    stack: [f64; 8],
    heap: Vec<f64>,
    len: usize,
}

impl RowBuffer {
    /// The number of features, `D` where [`with_small_dim`] fixed it (`D > 0`), else the
    /// shape's, and a buffer of that many values.
    fn for_features<const D: usize>(shape: Shape) -> (usize, Self) {
        let d = if D > 0 { D } else { shape.n_features };
        let buffer = Self {
            stack: [0.0; 8],
            heap: if d > 8 { vec![0.0; d] } else { Vec::new() },
            len: d,
        };
        (d, buffer)
    }

    fn as_mut_slice(&mut self) -> &mut [f64] {
        if self.len <= 8 {
            &mut self.stack[..self.len]
        } else {
            &mut self.heap
        }
    }
}

/// `log f_k(x_i) = −(d/2) ln 2π + centered(k, x_i − μ_k)` for every row and class into `out`
/// (`n × K`, row-major); `centered` is the family's `½ log det Λ_k − ½ δᵀ Λ_k δ`, given `δ` as a
/// slice of length `d`.
pub(super) fn log_densities_into(
    shape: Shape,
    params: &[f64],
    xs: &[f64],
    out: &mut [f64],
    centered: impl Fn(usize, &[f64]) -> f64,
) {
    with_small_dim!(shape.n_features, D => log_densities_for::<D>(shape, params, xs, out, &centered))
}

/// [`log_densities_into`] with `d = D` where `D > 0`.
#[inline(always)]
fn log_densities_for<const D: usize>(
    shape: Shape,
    params: &[f64],
    xs: &[f64],
    out: &mut [f64],
    centered: &impl Fn(usize, &[f64]) -> f64,
) {
    let k = shape.n_classes;
    let (d, mut buffer) = RowBuffer::for_features::<D>(shape);
    let diff = buffer.as_mut_slice();
    let half_d_ln_2pi = shape.half_d_ln_2pi();
    for c in 0..k {
        let mean = &params[c * d..(c + 1) * d];
        for (i, row) in xs.chunks_exact(d).enumerate() {
            for j in 0..d {
                diff[j] = row[j] - mean[j];
            }
            out[i * k + c] = -half_d_ln_2pi + centered(c, diff);
        }
    }
}

/// The weighted deviations of class `c`'s rows from its mean `μ_c`, all the gradient of a
/// Gaussian class density needs (eq. 8): returns `Σ_i W_ic` and writes `Σ_i W_ic (x_i − μ_c)` into
/// `r`, calling `each(W_ic, x_i − μ_c)` on every row for the family's second moments (the
/// deviation a slice of length `d`). Rows of weight 0 are skipped.
pub(super) fn weighted_deviations(
    shape: Shape,
    params: &[f64],
    xs: &[f64],
    ws: &[f64],
    c: usize,
    r: &mut [f64],
    mut each: impl FnMut(f64, &[f64]),
) -> f64 {
    with_small_dim!(shape.n_features, D => weighted_deviations_for::<D>(shape, params, xs, ws, c, r, &mut each))
}

/// [`weighted_deviations`] with `d = D` where `D > 0`.
#[inline(always)]
fn weighted_deviations_for<const D: usize>(
    shape: Shape,
    params: &[f64],
    xs: &[f64],
    ws: &[f64],
    c: usize,
    r: &mut [f64],
    each: &mut impl FnMut(f64, &[f64]),
) -> f64 {
    let k = shape.n_classes;
    let (d, mut buffer) = RowBuffer::for_features::<D>(shape);
    let diff = buffer.as_mut_slice();
    let mean = &params[c * d..(c + 1) * d];
    let r = &mut r[..d];
    r.fill(0.0);
    let mut s0 = 0.0;
    for (row, wrow) in xs.chunks_exact(d).zip(ws.chunks_exact(k)) {
        let wi = wrow[c];
        if wi == 0.0 {
            continue;
        }
        s0 += wi;
        for j in 0..d {
            diff[j] = row[j] - mean[j];
            r[j] += wi * diff[j];
        }
        each(wi, diff);
    }
    s0
}

/// The offset in `ϑ` of the precision parameters, after the `K · d` means.
pub(super) fn precision_offset(shape: Shape) -> usize {
    shape.n_classes * shape.n_features
}

/// The class means `K × d` as `ϑ` holds them.
pub(super) fn means(shape: Shape, params: &[f64]) -> Array2<f64> {
    let d = shape.n_features;
    Array2::from_shape_fn((shape.n_classes, d), |(c, j)| params[c * d + j])
}

/// Writes the class means `K × d` into the means block of `ϑ`.
pub(super) fn encode_means(shape: Shape, means: ArrayView2<'_, f64>, params: &mut [f64]) {
    let d = shape.n_features;
    for (c, mean) in means.axis_iter(Axis(0)).enumerate() {
        for j in 0..d {
            params[c * d + j] = mean[j];
        }
    }
}

/// Writes the class means of `params` carried by `map` in `direction` into the means block of
/// `out` ([`crate::whitening`]).
pub(super) fn change_means(
    shape: Shape,
    params: &[f64],
    map: &InputMap,
    direction: Direction,
    out: &mut [f64],
) {
    let d = shape.n_features;
    for c in 0..shape.n_classes {
        let mean = ArrayView1::from(&params[c * d..(c + 1) * d]);
        let carried = map.mean(mean, direction);
        out[c * d..(c + 1) * d].copy_from_slice(carried.as_slice().expect("contiguous"));
    }
}

/// Writes the means `K × d` and variances into `ϑ`, each variance `v` as the log-scale
/// `ℓ = −½ ln v` of its precision `e^{2ℓ}`: one per class (Balls1) or per feature (the shared
/// diagonal).
pub(crate) fn encode_scales(
    shape: Shape,
    means: ArrayView2<'_, f64>,
    variances: ArrayView1<'_, f64>,
    params: &mut [f64],
) {
    encode_means(shape, means, params);
    let po = precision_offset(shape);
    for (j, &v) in variances.iter().enumerate() {
        params[po + j] = -0.5 * v.ln();
    }
}

/// The indices in `ϑ` of class `c`'s mean followed by its precision parameters `precision`.
pub(super) fn class_indices(
    shape: Shape,
    c: usize,
    precision: std::ops::Range<usize>,
) -> Vec<usize> {
    let d = shape.n_features;
    (c * d..(c + 1) * d).chain(precision).collect()
}

/// What the induced coefficients `β` (`K × q`, row 0 zero; [`crate::existence`]) and the
/// starting point leave of a Gaussian family: class 0's mean `μ_0` and the starting precisions,
/// with the intercept `a_k`, slope `b_k` of each class.
pub(super) struct Induced<'a> {
    pub(super) beta: ArrayView2<'a, f64>,
    pub(super) mu0: Array1<f64>,
    pub(super) start_precisions: Vec<Array2<f64>>,
    pub(super) n_features: usize,
}

impl<'a> Induced<'a> {
    /// `β` and the means and precisions `θ` = `start` encodes under `param`.
    pub(super) fn new(
        param: &Parametrisation,
        start: ArrayView1<'_, f64>,
        beta: ArrayView2<'a, f64>,
    ) -> Option<Self> {
        let (start_means, start_precisions) = param.gaussian_parts(start)?;
        Some(Self {
            beta,
            mu0: start_means.row(0).to_owned(),
            start_precisions,
            n_features: param.n_features(),
        })
    }

    /// Class `c`'s intercept `a_c`.
    pub(super) fn intercept(&self, c: usize) -> f64 {
        self.beta[[c, 0]]
    }

    /// Class `c`'s slope `b_c` (length `d`).
    pub(super) fn slope(&self, c: usize) -> Array1<f64> {
        self.beta.slice(s![c, 1..=self.n_features]).to_owned()
    }
}

/// The map back of the families whose precision `Λ` every class shares (LDA, the shared
/// diagonal): `Λ` kept, `μ_k = μ_0 + Λ⁻¹ b_k`, and the prior logits make up the intercepts.
/// With fixed priors (two classes) `μ_0` moves along `b_1` until the intercept is induced.
pub(super) fn map_back_shared(
    param: &Parametrisation,
    induced: &Induced<'_>,
) -> Option<SharedMapBack> {
    let (k, d) = (param.n_classes(), param.n_features());
    let mut means = Array2::zeros((k, d));
    let mut logits = Array1::zeros(k);
    let mut mu0 = induced.mu0.clone();
    let precision = &induced.start_precisions[0];
    let factor = Cholesky::new(precision.view(), "precision").ok()?;
    let shifts: Vec<Array1<f64>> = (1..k)
        .map(|c| factor.solve_vec(induced.slope(c).view()).ok())
        .collect::<Option<_>>()?;
    if param.priors() == Priors::Fixed {
        // Two classes, π fixed: move μ_0 along b_1 until the intercept is induced,
        // −½(μ_1ᵀΛμ_1 − μ_0ᵀΛμ_0) = a_1 with μ_1 = μ_0 + Λ⁻¹b_1.
        let b = induced.slope(1);
        let bb = b.dot(&b);
        if bb == 0.0 {
            return None;
        }
        let target = -induced.intercept(1) - 0.5 * b.dot(&shifts[0]);
        mu0.scaled_add((target - mu0.dot(&b)) / bb, &b);
    }
    means.row_mut(0).assign(&mu0);
    let quad0 = mu0.dot(&precision.dot(&mu0));
    for c in 1..k {
        let mu = &mu0 + &shifts[c - 1];
        logits[c] = induced.intercept(c) + 0.5 * (mu.dot(&precision.dot(&mu)) - quad0);
        means.row_mut(c).assign(&mu);
    }
    Some(SharedMapBack {
        prior: softmax(&logits),
        means,
        factor,
    })
}

/// What [`map_back_shared`] finds: the class priors and means that induce the coefficients,
/// with the Cholesky factorisation of the kept shared precision `Λ`.
pub(super) struct SharedMapBack {
    pub(super) prior: Array1<f64>,
    pub(super) means: Array2<f64>,
    pub(super) factor: Cholesky,
}

/// Whether a Gaussian family's discriminative end maps back from the induced coefficients:
/// with estimated priors always; with fixed ones only for a shared precision and two classes.
pub(super) fn maps_back(shared: bool, priors: Priors, n_classes: usize) -> bool {
    match priors {
        Priors::Estimated => true,
        Priors::Fixed => shared && n_classes == 2,
    }
}

/// `softmax(logits)`.
pub(super) fn softmax(logits: &Array1<f64>) -> Array1<f64> {
    let mut p = logits.clone();
    log_softmax_in_place(p.view_mut());
    p.mapv_into(f64::exp)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loops compiled for a fixed number of features give the bits of the loops over any.
    #[test]
    fn fixed_dimensions_compute_the_same_bits() {
        for d in 1..=6 {
            let shape = Shape {
                n_classes: 3,
                n_features: d,
                variance_floor: 0.0,
            };
            let n = 17;
            let value = |i: usize| ((i * 37 % 101) as f64 / 7.0).sin() * 3.0;
            let params: Vec<f64> = (0..3 * d + 3).map(|i| value(i + 5)).collect();
            let xs: Vec<f64> = (0..n * d).map(value).collect();
            let ws: Vec<f64> = (0..n * 3)
                .map(|i| value(i + 11) * f64::from(i % 5 != 0))
                .collect();
            let centered = |c: usize, diff: &[f64]| {
                diff.iter()
                    .enumerate()
                    .fold(params[3 * d + c], |q, (j, v)| {
                        q - 0.5 * (j + 1) as f64 * v * v
                    })
            };
            let mut fixed = vec![0.0; n * 3];
            let mut any = vec![0.0; n * 3];
            log_densities_into(shape, &params, &xs, &mut fixed, centered);
            log_densities_for::<0>(shape, &params, &xs, &mut any, &centered);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fixed), bits(&any), "d = {d}");
            for c in 0..3 {
                let (mut r_fixed, mut r_any) = (vec![0.0; d], vec![0.0; d]);
                let (mut m_fixed, mut m_any) = (0.0, 0.0);
                let s_fixed =
                    weighted_deviations(shape, &params, &xs, &ws, c, &mut r_fixed, |w, v| {
                        m_fixed += w * v.iter().map(|x| x * x).sum::<f64>()
                    });
                let s_any = weighted_deviations_for::<0>(
                    shape,
                    &params,
                    &xs,
                    &ws,
                    c,
                    &mut r_any,
                    &mut |w, v| m_any += w * v.iter().map(|x| x * x).sum::<f64>(),
                );
                assert_eq!(s_fixed.to_bits(), s_any.to_bits());
                assert_eq!(bits(&r_fixed), bits(&r_any), "d = {d}");
                assert_eq!(m_fixed.to_bits(), m_any.to_bits(), "d = {d}");
            }
        }
    }
}
