//! LDA and QDA: Gaussian classes with full precisions `Λ = L Lᵀ`, one shared factor (LDA,
//! §5 density 1) or one per class (QDA, density 2), each stored by its lower Cholesky factor
//! row by row with the diagonal as `ℓ_a = log L_aa`.

use std::ops::Range;

use ndarray::{s, Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut1, Axis, CowArray, Ix2, Ix3};

use gendisc_core::linalg::{cholesky, Cholesky};
use gendisc_core::Result;
use gendisc_generative::{Lda, Qda};

use super::density::{indicator, ClassDensities, LocalTerms, Shape};
use super::gaussian::{self, Induced};
use super::{Parametrisation, Priors};
use crate::model::{
    class_priors_of, fit_in_regularised_units, in_model_unit, precision_factor, TrainingSet,
};
use crate::params::GdtValidParams;
use crate::whitening::{AffineClosure, Direction, InputMap};

/// Full-covariance Gaussian classes: LDA when `shared`, QDA otherwise.
pub(crate) struct FullCovariance {
    /// One factor for every class (LDA) or one per class (QDA).
    pub(crate) shared: bool,
}

/// A lower Cholesky factor decoded from its stored entries.
struct Factor {
    l: Array2<f64>,
    /// `Σ_a ℓ_a = ½ log det Λ`.
    log_det_half: f64,
}

impl FullCovariance {
    /// The number of distinct factors: 1 or `K`.
    fn n_factors(&self, shape: Shape) -> usize {
        if self.shared {
            1
        } else {
            shape.n_classes
        }
    }

    /// The range of `ϑ` holding factor `f`.
    fn factor_range(shape: Shape, f: usize) -> Range<usize> {
        let start = gaussian::precision_offset(shape) + f * shape.tri();
        start..start + shape.tri()
    }

    fn decode_factors(&self, shape: Shape, params: &[f64]) -> Vec<Factor> {
        (0..self.n_factors(shape))
            .map(|f| decode_factor(shape.n_features, &params[Self::factor_range(shape, f)]))
            .collect()
    }

    /// Writes the means `K × d` and the precision factors (1 or `K`, lower triangular) into
    /// `ϑ`.
    pub(crate) fn encode(
        shape: Shape,
        means: ndarray::ArrayView2<'_, f64>,
        factors: &[Array2<f64>],
        params: &mut [f64],
    ) {
        gaussian::encode_means(shape, means, params);
        let d = shape.n_features;
        for (f, l) in factors.iter().enumerate() {
            let mut idx = Self::factor_range(shape, f).start;
            for a in 0..d {
                for b in 0..=a {
                    params[idx] = if a == b { l[[a, a]].ln() } else { l[[a, b]] };
                    idx += 1;
                }
            }
        }
    }
}

/// From this many features on, the densities and the gradient over all rows are matrix products
/// (`(X − 1μᵀ) L` and `(X − 1μᵀ)ᵀ W (X − 1μᵀ)`), which `ndarray`'s blocked kernels vectorise;
/// below it the row-by-row loops are as fast, the products' packing and temporaries costing
/// what they save. Measured for one density and gradient evaluation (release build, 2–6
/// classes, 300–4,000 rows): at `d = 16` the products take 0.3–0.7 of the loops' time (once 0.97,
/// in a noisy run), at
/// `d = 36` 0.3–0.6; at `d = 8`–`10` either wins by turns, and below the loops do.
const BLOCKED_FROM_FEATURES: usize = 12;

impl FullCovariance {
    /// The rows `X − 1μ_cᵀ` (`n × d`) of class `c`'s mean.
    fn centred(shape: Shape, params: &[f64], x: ArrayView2<'_, f64>, c: usize) -> Array2<f64> {
        let d = shape.n_features;
        &x - &ArrayView1::from(&params[c * d..(c + 1) * d])
    }

    /// [`ClassDensities::log_densities_into`] row by row.
    fn log_densities_by_row(
        &self,
        shape: Shape,
        params: &[f64],
        factors: &[Factor],
        xs: &[f64],
        out: &mut [f64],
    ) {
        gaussian::log_densities_into(shape, params, xs, out, |c, diff| {
            let Factor { l, log_det_half } = &factors[factor_index(self.shared, c)];
            // ‖Lᵀ diff‖²: (Lᵀ diff)_b = Σ_{a ≥ b} L_ab diff_a.
            let d = diff.len();
            let l = &l.as_slice().expect("standard layout")[..d * d];
            let mut q = 0.0;
            for b in 0..d {
                let mut z = 0.0;
                for a in b..d {
                    z += l[a * d + b] * diff[a];
                }
                q += z * z;
            }
            log_det_half - 0.5 * q
        });
    }

    /// [`ClassDensities::log_densities_into`] as matrix products: `z_i = Lᵀ(x_i − μ_c)` is row
    /// `i` of `(X − 1μ_cᵀ) L` — for LDA's shared factor `XL − 1(Lᵀμ_c)ᵀ`, one product for every
    /// class.
    fn log_densities_blocked(
        &self,
        shape: Shape,
        params: &[f64],
        factors: &[Factor],
        xs: &[f64],
        out: &mut [f64],
    ) {
        let (k, d) = (shape.n_classes, shape.n_features);
        let x = ArrayView2::from_shape((xs.len() / d, d), xs).expect("n × d rows");
        let half_d_ln_2pi = shape.half_d_ln_2pi();
        let shared_xl = self.shared.then(|| x.dot(&factors[0].l));
        for c in 0..k {
            let Factor { l, log_det_half } = &factors[factor_index(self.shared, c)];
            let z = match &shared_xl {
                Some(xl) => {
                    let mean = ArrayView1::from(&params[c * d..(c + 1) * d]);
                    xl - &l.t().dot(&mean)
                }
                None => Self::centred(shape, params, x, c).dot(l),
            };
            for (i, zi) in z.rows().into_iter().enumerate() {
                out[i * k + c] = -half_d_ln_2pi + log_det_half - 0.5 * zi.dot(&zi);
            }
        }
    }
}

/// The weighted moments of the rows about a class mean `μ`: `s0 = Σ_i w_i`,
/// `r = Σ_i w_i (x_i − μ)` and `M = Σ_i w_i (x_i − μ)(x_i − μ)ᵀ`, all the gradient of a class's
/// log-density needs (eq. 8).
struct Moments {
    s0: f64,
    r: Array1<f64>,
    m: Array2<f64>,
}

impl Moments {
    /// Row by row, skipping rows of weight 0.
    fn by_row(shape: Shape, params: &[f64], xs: &[f64], ws: &[f64], c: usize) -> Self {
        let d = shape.n_features;
        let mut r = vec![0.0; d];
        // The lower triangle of M, row by row.
        let mut m_lower = vec![0.0; shape.tri()];
        let s0 = gaussian::weighted_deviations(shape, params, xs, ws, c, &mut r, |wi, diff| {
            let d = diff.len();
            let m_lower = &mut m_lower[..d * (d + 1) / 2];
            let mut idx = 0;
            for a in 0..d {
                let wa = wi * diff[a];
                for b in 0..=a {
                    m_lower[idx] += wa * diff[b];
                    idx += 1;
                }
            }
        });
        Self {
            s0,
            r: Array1::from(r),
            m: symmetric_from_lower(d, &m_lower),
        }
    }

    /// As matrix products: with `D = X − 1μᵀ` and `w` the class's column of `W`, `r = Dᵀw` and
    /// `M = Dᵀ diag(w) D`.
    fn blocked(shape: Shape, params: &[f64], xs: &[f64], ws: &[f64], c: usize) -> Self {
        let (k, d) = (shape.n_classes, shape.n_features);
        let n = xs.len() / d;
        let x = ArrayView2::from_shape((n, d), xs).expect("n × d rows");
        let w = ArrayView2::from_shape((n, k), ws).expect("n × K weights");
        let wc = w.column(c);
        let centred = FullCovariance::centred(shape, params, x, c);
        let weighted = &centred * &wc.insert_axis(Axis(1));
        Self {
            s0: wc.sum(),
            r: centred.t().dot(&wc),
            m: centred.t().dot(&weighted),
        }
    }
}

impl ClassDensities for FullCovariance {
    fn len(&self, shape: Shape) -> usize {
        gaussian::precision_offset(shape) + self.n_factors(shape) * shape.tri()
    }

    /// A class's mean and its (or LDA's shared) precision factor.
    fn class_block_len(&self, shape: Shape) -> usize {
        shape.n_features + shape.tri()
    }

    fn log_densities_into(
        &self,
        shape: Shape,
        params: &[f64],
        xs: &[f64],
        out: &mut [f64],
        _responsibilities: Option<&mut [f64]>,
    ) {
        let factors = self.decode_factors(shape, params);
        if shape.n_features >= BLOCKED_FROM_FEATURES {
            self.log_densities_blocked(shape, params, &factors, xs, out);
        } else {
            self.log_densities_by_row(shape, params, &factors, xs, out);
        }
    }

    fn add_weighted_gradient(
        &self,
        shape: Shape,
        params: &[f64],
        xs: &[f64],
        ws: &[f64],
        _responsibilities: Option<&[f64]>,
        mut gradient: ArrayViewMut1<'_, f64>,
    ) {
        let (k, d) = (shape.n_classes, shape.n_features);
        let factors = self.decode_factors(shape, params);
        let moments = if d >= BLOCKED_FROM_FEATURES {
            Moments::blocked
        } else {
            Moments::by_row
        };
        // LDA's sums over classes, for its one factor.
        let mut shared_m = Array2::<f64>::zeros((d, d));
        let mut shared_w = 0.0;
        for c in 0..k {
            let Moments { s0, r, m } = moments(shape, params, xs, ws, c);
            let l = &factors[factor_index(self.shared, c)].l;
            // ∂/∂μ_k = L Lᵀ r.
            gradient
                .slice_mut(s![c * d..(c + 1) * d])
                .scaled_add(1.0, &l.dot(&l.t().dot(&r)));
            if self.shared {
                shared_m += &m;
                shared_w += s0;
            } else {
                let start = Self::factor_range(shape, c).start;
                add_factor_gradient(l, &m, s0, gradient.slice_mut(s![start..]));
            }
        }
        if self.shared {
            let start = Self::factor_range(shape, 0).start;
            add_factor_gradient(
                &factors[0].l,
                &shared_m,
                shared_w,
                gradient.slice_mut(s![start..]),
            );
        }
    }

    fn local_terms<'a>(&self, shape: Shape, params: &'a [f64]) -> Box<dyn LocalTerms + 'a> {
        let d = shape.n_features;
        let factors = self
            .decode_factors(shape, params)
            .into_iter()
            .map(|Factor { l, .. }| {
                let precision = l.dot(&l.t()).iter().copied().collect();
                (l.iter().copied().collect(), precision)
            })
            .collect();
        Box::new(FullTerms {
            shape,
            shared: self.shared,
            params,
            factors,
            packed: (0..d).flat_map(|a| (0..=a).map(move |b| (a, b))).collect(),
            diff: vec![0.0; d],
            z: vec![0.0; d],
        })
    }

    fn generative_start(
        &self,
        p: &GdtValidParams,
        t: &TrainingSet<'_>,
    ) -> Result<(Array1<f64>, bool)> {
        let k = t.param.n_classes();
        let priors = class_priors_of(t);
        let theta = if self.shared {
            let params = Lda::params()
                .n_classes(k)
                .priors(priors)
                .shrinkage(p.shrinkage);
            let (m, s) = fit_in_regularised_units(params, p.shrinkage, t)?;
            let covariances = m.covariance().insert_axis(Axis(0));
            encode_fit(t, m.class_prior(), m.means(), covariances, s)?
        } else {
            let params = Qda::params()
                .n_classes(k)
                .priors(priors)
                .regularization(p.shrinkage);
            let (m, s) = fit_in_regularised_units(params, p.shrinkage, t)?;
            encode_fit(t, m.class_prior(), m.means(), m.covariances(), s)?
        };
        Ok((theta, true))
    }

    fn gaussian_parts(
        &self,
        shape: Shape,
        params: &[f64],
    ) -> Option<(Array2<f64>, Vec<Array2<f64>>)> {
        let factors = self.decode_factors(shape, params);
        let precisions = (0..shape.n_classes)
            .map(|c| {
                let l = &factors[factor_index(self.shared, c)].l;
                l.dot(&l.t())
            })
            .collect();
        Some((gaussian::means(shape, params), precisions))
    }

    fn shared_precision(&self, shape: Shape, params: &[f64]) -> Option<Array2<f64>> {
        self.shared.then(|| {
            let l = &self.decode_factors(shape, params)[0].l;
            l.dot(&l.t())
        })
    }

    fn cholesky_blocks(&self, shape: Shape) -> Vec<Range<usize>> {
        (0..self.n_factors(shape))
            .map(|f| Self::factor_range(shape, f))
            .collect()
    }

    fn affine_closure(&self) -> Option<AffineClosure> {
        Some(AffineClosure::Triangular)
    }

    /// `μ̃_k = Aᵀ(μ_k − m)` and `L̃ = A⁻¹ L` (or back), the diagonal on the log scale.
    fn change_inputs(
        &self,
        shape: Shape,
        params: &[f64],
        map: &InputMap,
        direction: Direction,
    ) -> Option<Vec<f64>> {
        let d = shape.n_features;
        let mut out = vec![0.0; params.len()];
        gaussian::change_means(shape, params, map, direction, &mut out);
        for f in 0..self.n_factors(shape) {
            let range = Self::factor_range(shape, f);
            let l = decode_factor(d, &params[range.clone()]).l;
            let carried = map.precision_factor(l.view(), direction);
            let mut idx = range.start;
            for a in 0..d {
                for b in 0..=a {
                    out[idx] = if a == b {
                        params[idx] + map.log_diagonal_shift(a, direction)
                    } else {
                        carried[[a, b]]
                    };
                    idx += 1;
                }
            }
        }
        Some(out)
    }

    /// LDA's log-odds are linear in `x`; QDA's add the products `x_j x_l`, `j ≤ l`.
    fn induced_extras(&self, n_features: usize) -> Option<usize> {
        Some(if self.shared {
            0
        } else {
            n_features * (n_features + 1) / 2
        })
    }

    fn write_induced_extras(&self, row: ArrayView1<'_, f64>, mut out: ArrayViewMut1<'_, f64>) {
        if self.shared {
            return;
        }
        let d = row.len();
        let mut c = 0;
        for j in 0..d {
            for l in j..d {
                out[c] = row[j] * row[l];
                c += 1;
            }
        }
    }

    fn maps_back(&self, priors: Priors, n_classes: usize) -> bool {
        gaussian::maps_back(self.shared, priors, n_classes)
    }

    /// LDA: `Λ` kept, `μ_k = μ_0 + Λ⁻¹ b_k`. QDA: `Λ_k = Λ_0 + tI − 2Q_k` (`Q_k` the
    /// quadratic coefficients, `t ≥ 0` the least shift that keeps every `Λ_k` positive
    /// definite), `μ_k = Λ_k⁻¹(b_k + Λ_0 μ_0)`. The prior logits make up the intercepts.
    fn map_back(
        &self,
        param: &Parametrisation,
        start: ArrayView1<'_, f64>,
        beta: ArrayView2<'_, f64>,
    ) -> Option<Array1<f64>> {
        let induced = Induced::new(param, start, beta)?;
        if self.shared {
            let gaussian::SharedMapBack {
                prior,
                means,
                factor,
            } = gaussian::map_back_shared(param, &induced)?;
            return Some(param.encode_gaussian(
                prior.view(),
                means.view(),
                &[factor.into_factor()],
            ));
        }
        let (k, d) = (param.n_classes(), param.n_features());
        let quadratic = |c: usize| {
            let mut m = Array2::zeros((d, d));
            let mut idx = 1 + d;
            for j in 0..d {
                for l in j..d {
                    if j == l {
                        m[[j, j]] = beta[[c, idx]];
                    } else {
                        m[[j, l]] = 0.5 * beta[[c, idx]];
                        m[[l, j]] = 0.5 * beta[[c, idx]];
                    }
                    idx += 1;
                }
            }
            m
        };
        let base = &induced.start_precisions[0];
        let scale = base.diag().iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        let mut shift = 0.0;
        let factors = 'search: {
            for _ in 0..200 {
                let p0 = base + &(Array2::<f64>::eye(d) * shift);
                let all: Option<Vec<Array2<f64>>> = (0..k)
                    .map(|c| {
                        let pc = if c == 0 {
                            p0.clone()
                        } else {
                            &p0 - &(quadratic(c) * 2.0)
                        };
                        cholesky(pc.view()).ok()
                    })
                    .collect();
                if let Some(all) = all {
                    break 'search all;
                }
                shift = if shift == 0.0 {
                    1e-6 * scale.max(1e-300)
                } else {
                    2.0 * shift
                };
            }
            return None;
        };
        let precisions: Vec<Array2<f64>> = factors.iter().map(|l| l.dot(&l.t())).collect();
        let mu0 = &induced.mu0;
        let p0mu0 = precisions[0].dot(mu0);
        let half_log_det = |l: &Array2<f64>| l.diag().iter().map(|v| v.ln()).sum::<f64>();
        let c0 = half_log_det(&factors[0]) - 0.5 * mu0.dot(&p0mu0);
        let mut means = Array2::zeros((k, d));
        let mut logits = Array1::zeros(k);
        means.row_mut(0).assign(mu0);
        for c in 1..k {
            let chol = Cholesky::new(precisions[c].view(), "precision").ok()?;
            let mu = chol.solve_vec((&induced.slope(c) + &p0mu0).view()).ok()?;
            let cc = half_log_det(&factors[c]) - 0.5 * mu.dot(&precisions[c].dot(&mu));
            logits[c] = induced.intercept(c) - cc + c0;
            means.row_mut(c).assign(&mu);
        }
        let prior = gaussian::softmax(&logits);
        Some(param.encode_gaussian(prior.view(), means.view(), &factors))
    }
}

/// `θ` of a fitted LDA or QDA (one covariance, or one per class), whose means and covariances
/// are divided by `scale` and `scale²` into the model's unit.
fn encode_fit(
    t: &TrainingSet<'_>,
    prior: Array1<f64>,
    means: CowArray<'_, f64, Ix2>,
    covariances: CowArray<'_, f64, Ix3>,
    scale: f64,
) -> Result<Array1<f64>> {
    let factors = in_model_unit(covariances, scale * scale)
        .outer_iter()
        .map(precision_factor)
        .collect::<Result<Vec<_>>>()?;
    let means = in_model_unit(means, scale);
    Ok(t.param.encode(prior.view(), |params| {
        FullCovariance::encode(t.param.shape(), means.view(), &factors, params)
    }))
}

/// Which factor class `c` uses: the one shared factor, or its own.
fn factor_index(shared: bool, c: usize) -> usize {
    if shared {
        0
    } else {
        c
    }
}

/// Decodes a lower Cholesky factor from its `d(d+1)/2` stored entries.
fn decode_factor(d: usize, block: &[f64]) -> Factor {
    let mut l = Array2::zeros((d, d));
    let mut log_det_half = 0.0;
    let mut idx = 0;
    for a in 0..d {
        for b in 0..=a {
            if a == b {
                l[[a, a]] = block[idx].exp();
                log_det_half += block[idx];
            } else {
                l[[a, b]] = block[idx];
            }
            idx += 1;
        }
    }
    Factor { l, log_det_half }
}

/// The symmetric `d × d` matrix whose lower triangle is `lower` (packed row by row).
fn symmetric_from_lower(d: usize, lower: &[f64]) -> Array2<f64> {
    let mut m = Array2::<f64>::zeros((d, d));
    let mut idx = 0;
    for a in 0..d {
        for b in 0..=a {
            m[[a, b]] = lower[idx];
            m[[b, a]] = lower[idx];
            idx += 1;
        }
    }
    m
}

/// Adds the gradient of `Σ_i w_i [Σ_a ℓ_a − ½ ‖Lᵀ(x_i − μ)‖²]` with respect to the stored
/// entries of `L`, given `M = Σ_i w_i (x_i − μ)(x_i − μ)ᵀ` and `s0 = Σ_i w_i`.
fn add_factor_gradient(l: &Array2<f64>, m: &Array2<f64>, s0: f64, mut g: ArrayViewMut1<'_, f64>) {
    let d = l.nrows();
    let ml = m.dot(l);
    let mut idx = 0;
    for a in 0..d {
        for b in 0..=a {
            g[idx] += if a == b {
                s0 - ml[[a, a]] * l[[a, a]]
            } else {
                -ml[[a, b]]
            };
            idx += 1;
        }
    }
}

/// [`FullCovariance`]'s factors decoded for a Hessian evaluation.
struct FullTerms<'a> {
    shape: Shape,
    shared: bool,
    params: &'a [f64],
    /// Per factor: `L` and `Λ = L Lᵀ`, both `d × d` row-major.
    factors: Vec<(Vec<f64>, Vec<f64>)>,
    /// The packed lower-triangle entries `(a, b)`, `a ≥ b`, row by row.
    packed: Vec<(usize, usize)>,
    diff: Vec<f64>,
    z: Vec<f64>,
}

impl LocalTerms for FullTerms<'_> {
    fn class_indices(&self, c: usize) -> Vec<usize> {
        let f = factor_index(self.shared, c);
        gaussian::class_indices(self.shape, c, FullCovariance::factor_range(self.shape, f))
    }

    fn local_derivatives(
        &mut self,
        c: usize,
        _i: usize,
        row: &[f64],
        _responsibilities: &[f64],
        grad: &mut [f64],
        hess: &mut [f64],
    ) {
        // With δ = x − μ, z = Lᵀ δ and chain factor c_ab = L_aa on the diagonal, 1 off it:
        // ∂²/∂μ∂μᵀ = −Λ, ∂²/∂μ_j ∂L_ab = c_ab (1{a = j} z_b + δ_a L_jb),
        // ∂²/∂L_ab ∂L_ce = −c_ab c_ce δ_a δ_c 1{b = e} (+ c_aa ∂/∂L_aa on the diagonal).
        let d = row.len();
        let q = grad.len();
        hess.fill(0.0);
        let mean = &self.params[c * d..(c + 1) * d];
        let (l, precision) = &self.factors[factor_index(self.shared, c)];
        let (diff, z) = (&mut self.diff, &mut self.z);
        for j in 0..d {
            diff[j] = row[j] - mean[j];
        }
        for b in 0..d {
            z[b] = (b..d).map(|a| l[a * d + b] * diff[a]).sum();
        }
        for j in 0..d {
            grad[j] = (0..=j).map(|b| l[j * d + b] * z[b]).sum();
            for m in 0..d {
                hess[j * q + m] = -precision[j * d + m];
            }
        }
        let chain = |a: usize, b: usize| if a == b { l[a * d + a] } else { 1.0 };
        for (e, &(a, b)) in self.packed.iter().enumerate() {
            let raw = -diff[a] * z[b];
            let ce = chain(a, b);
            grad[d + e] = if a == b { 1.0 + ce * raw } else { raw };
            // Mean–factor block.
            for j in 0..d {
                let v = ce * (indicator(a == j) * z[b] + diff[a] * l[j * d + b]);
                hess[j * q + d + e] = v;
                hess[(d + e) * q + j] = v;
            }
            // Factor–factor block: entries in the same column only.
            for (f, &(c, col)) in self.packed.iter().enumerate() {
                if col == b {
                    hess[(d + e) * q + d + f] = -ce * chain(c, col) * diff[a] * diff[c];
                }
            }
            if a == b {
                hess[(d + e) * q + d + e] += ce * raw;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The blocked products and the row-by-row loops compute the same densities (for the shared
    /// factor and one per class) and the same moments the gradient is made of, to rounding.
    #[test]
    fn blocked_products_agree_with_the_row_loops() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (n, k, d) = (40, 3, BLOCKED_FROM_FEATURES + 1);
        let shape = Shape {
            n_classes: k,
            n_features: d,
            variance_floor: 0.0,
        };
        let xs: Vec<f64> = (0..n * d).map(|_| rng.random_range(-2.0..2.0)).collect();
        let ws: Vec<f64> = (0..n * k).map(|_| rng.random_range(-1.0..1.0)).collect();
        for shared in [true, false] {
            let family = FullCovariance { shared };
            let params: Vec<f64> = (0..family.len(shape))
                .map(|_| rng.random_range(-0.5..0.5))
                .collect();
            let factors = family.decode_factors(shape, &params);
            let (mut by_row, mut blocked) = (vec![0.0; n * k], vec![0.0; n * k]);
            family.log_densities_by_row(shape, &params, &factors, &xs, &mut by_row);
            family.log_densities_blocked(shape, &params, &factors, &xs, &mut blocked);
            for (a, b) in by_row.iter().zip(&blocked) {
                assert!((a - b).abs() <= 1e-12 * a.abs().max(1.0), "{a} vs {b}");
            }
        }
        let means: Vec<f64> = (0..k * d).map(|_| rng.random_range(-1.0..1.0)).collect();
        for c in 0..k {
            let (by_row, blocked) = (
                Moments::by_row(shape, &means, &xs, &ws, c),
                Moments::blocked(shape, &means, &xs, &ws, c),
            );
            assert!((by_row.s0 - blocked.s0).abs() <= 1e-12 * by_row.s0.abs().max(1.0));
            for (a, b) in by_row
                .r
                .iter()
                .chain(&by_row.m)
                .zip(blocked.r.iter().chain(&blocked.m))
            {
                assert!((a - b).abs() <= 1e-11 * a.abs().max(1.0), "{a} vs {b}");
            }
        }
    }
}
