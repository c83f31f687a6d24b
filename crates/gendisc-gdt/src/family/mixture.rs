//! Balls2: a mixture of two spherical Gaussians per class (§5, density 4). Each class block of
//! `ϑ` is `[c_k, μ_k1, μ_k2, ℓ_k1, ℓ_k2]` (`2d + 3` entries), with mixing weights
//! `ω_k = softmax(0, c_k)` and component variances `σ²_km = v₀ + e^{−2ℓ_km}` above the floor
//! `v₀` (`e^{−2ℓ_km}` without one).

use ndarray::linalg::general_mat_mul;
use ndarray::{s, Array1, Array2, Array3, ArrayView2, ArrayView3, ArrayViewMut1, ArrayViewMut2};

use gendisc_core::numerics::{log_sum_exp, softmax_slice_in_place};
use gendisc_core::{Convergence, Result};
use gendisc_generative::Balls2;

use super::density::{indicator, ClassBlocks, ClassDensities, LocalTerms, Shape, WeightedRows};
use crate::model::{class_priors_of, fit_maybe_weighted, require_em_converged, TrainingSet};
use crate::params::GdtValidParams;

/// The number of mixture components per class.
const COMPONENTS: usize = 2;

/// A Balls2 component encoded from a generative fit starts at `σ² ≥ v₀ (1 + START_GAP)`: a
/// variance EM left at (or, by rounding, just under) the floor `v₀` has `ℓ` finite, at the
/// cost of a relative change of at most `START_GAP` in that one variance.
const START_GAP: f64 = 1e-6;

/// Two spherical Gaussian components per class (Balls2).
pub(crate) struct SphericalMixture;

impl SphericalMixture {
    /// The length of one class block: `c_k`, two means, two log-scales.
    fn block_len(shape: Shape) -> usize {
        1 + COMPONENTS * shape.n_features + COMPONENTS
    }

    /// Writes mixing weights `K × 2`, means `K × 2 × d` and variances `K × 2` into `ϑ`.
    fn encode(
        shape: Shape,
        mixing: ArrayView2<'_, f64>,
        means: ArrayView3<'_, f64>,
        variances: ArrayView2<'_, f64>,
        params: &mut [f64],
    ) {
        let (d, bs) = (shape.n_features, Self::block_len(shape));
        // A component with weight 0 (EM gave it no responsibility) gets a tiny weight instead:
        // a logit must be finite.
        let floor = f64::EPSILON;
        // Above the variance floor v₀ by at least START_GAP · v₀: a component at the floor
        // would need ℓ = ∞.
        let v0 = shape.variance_floor;
        for c in 0..shape.n_classes {
            let b = c * bs;
            params[b] = mixing[[c, 1]].max(floor).ln() - mixing[[c, 0]].max(floor).ln();
            for m in 0..COMPONENTS {
                for j in 0..d {
                    params[b + 1 + m * d + j] = means[[c, m, j]];
                }
                let excess = (variances[[c, m]] - v0).max(START_GAP * v0);
                params[b + 1 + COMPONENTS * d + m] = -0.5 * excess.ln();
            }
        }
    }

    /// The responsibilities `ρ_ikm` at `ϑ` for the rows `xs`.
    fn responsibilities(&self, shape: Shape, params: &[f64], xs: &[f64]) -> Vec<f64> {
        let n = xs.len() / shape.n_features;
        let mut rho = vec![0.0; self.responsibilities_len(shape, n)];
        let mut density = vec![0.0; n * shape.n_classes];
        self.log_densities_into(shape, params, xs, &mut density, Some(&mut rho));
        rho
    }
}

impl ClassDensities for SphericalMixture {
    fn len(&self, shape: Shape) -> usize {
        shape.n_classes * Self::block_len(shape)
    }

    fn log_densities_into(
        &self,
        shape: Shape,
        params: &[f64],
        xs: &[f64],
        out: &mut [f64],
        mut responsibilities: Option<&mut [f64]>,
    ) {
        let (k, d, bs) = (shape.n_classes, shape.n_features, Self::block_len(shape));
        let half_d_ln_2pi = shape.half_d_ln_2pi();
        for c in 0..k {
            let block = &params[c * bs..(c + 1) * bs];
            let constants = component_constants(block, d, half_d_ln_2pi, shape.variance_floor);
            for (i, row) in xs.chunks_exact(d).enumerate() {
                let lb = component_logs(block, &constants, row);
                let Some(rho) = responsibilities.as_deref_mut() else {
                    out[i * k + c] = log_sum_exp(&lb);
                    continue;
                };
                // The responsibilities are the normaliser's exponentials over their sum; a
                // normaliser that is not finite leaves them to exp(log ρ), NaN or 0.
                let mut weights = lb;
                let norm = softmax_slice_in_place(&mut weights);
                out[i * k + c] = norm;
                let at = (i * k + c) * COMPONENTS;
                for ((r, l), weight) in rho[at..at + COMPONENTS].iter_mut().zip(lb).zip(weights) {
                    *r = if norm.is_finite() {
                        weight
                    } else {
                        (l - norm).exp()
                    };
                }
            }
        }
    }

    fn responsibilities_len(&self, shape: Shape, n: usize) -> usize {
        n * shape.n_classes * COMPONENTS
    }

    /// Each class weight split over the class's two components by their responsibilities
    /// `ρ_ikm`; `∂/∂c_k = Σ_i w_i (ρ_i2 − ω_k2)`, and the `ℓ`-derivatives carry the factor `φ`
    /// of the variance floor.
    fn add_weighted_gradient(
        &self,
        shape: Shape,
        params: &[f64],
        xs: &[f64],
        ws: &[f64],
        responsibilities: Option<&[f64]>,
        mut gradient: ArrayViewMut1<'_, f64>,
    ) {
        let computed;
        let responsibilities = match responsibilities {
            Some(given) => given,
            None => {
                computed = self.responsibilities(shape, params, xs);
                &computed
            }
        };
        let (k, d, bs) = (shape.n_classes, shape.n_features, Self::block_len(shape));
        let half_d_ln_2pi = shape.half_d_ln_2pi();
        let mut r = vec![0.0; COMPONENTS * d];
        for c in 0..k {
            let start = c * bs;
            let block = &params[start..start + bs];
            let omega2 = mixing_log_weights(block[0])[1].exp();
            let constants = component_constants(block, d, half_d_ln_2pi, shape.variance_floor);
            r.fill(0.0);
            let mut s0 = [0.0; COMPONENTS];
            let mut sq = [0.0; COMPONENTS];
            let mut g_c = 0.0;
            for (i, (row, wrow)) in xs.chunks_exact(d).zip(ws.chunks_exact(k)).enumerate() {
                let wi = wrow[c];
                if wi == 0.0 {
                    continue;
                }
                let at = (i * k + c) * COMPONENTS;
                let rho: [f64; COMPONENTS] = std::array::from_fn(|m| responsibilities[at + m]);
                for m in 0..COMPONENTS {
                    let wm = wi * rho[m];
                    s0[m] += wm;
                    let mean = &block[1 + m * d..1 + (m + 1) * d];
                    for j in 0..d {
                        let dj = row[j] - mean[j];
                        r[m * d + j] += wm * dj;
                        sq[m] += wm * dj * dj;
                    }
                }
                g_c += wi * (rho[1] - omega2);
            }
            let mut g = gradient.slice_mut(s![start..start + bs]);
            g[0] += g_c;
            for (m, scale) in constants.iter().enumerate() {
                let prec = scale.precision;
                for j in 0..d {
                    g[1 + m * d + j] += prec * r[m * d + j];
                }
                g[1 + COMPONENTS * d + m] += (d as f64 * s0[m] - prec * sq[m]) * scale.phi;
            }
        }
    }

    fn local_terms<'a>(&self, shape: Shape, params: &'a [f64]) -> Box<dyn LocalTerms + 'a> {
        let (d, bs) = (shape.n_features, Self::block_len(shape));
        let half_d_ln_2pi = shape.half_d_ln_2pi();
        let classes = (0..shape.n_classes)
            .map(|c| {
                let block = &params[c * bs..(c + 1) * bs];
                (
                    component_constants(block, d, half_d_ln_2pi, shape.variance_floor),
                    mixing_log_weights(block[0]).map(f64::exp),
                )
            })
            .collect();
        let d = shape.n_features;
        let supports = std::array::from_fn(|m| {
            std::iter::once(0)
                .chain(1 + m * d..1 + (m + 1) * d)
                .chain(std::iter::once(1 + COMPONENTS * d + m))
                .collect()
        });
        Box::new(MixtureTerms {
            shape,
            params,
            classes,
            u: vec![0.0; COMPONENTS * bs],
            supports,
        })
    }

    fn generative_start(
        &self,
        p: &GdtValidParams,
        t: &TrainingSet<'_>,
    ) -> Result<(Array1<f64>, bool)> {
        let em = Balls2::params()
            .n_classes(t.param.n_classes())
            .priors(class_priors_of(t))
            // EM's floor is at least the GDT floor, on the same scale.
            .var_smoothing(p.var_smoothing.max(p.variance_floor))
            .max_iterations(p.em_max_iterations);
        let em = match p.em_seed {
            Some(seed) => em.seed(seed),
            None => em,
        };
        let m = fit_maybe_weighted(em, t)?;
        if p.require_convergence {
            require_em_converged(m.report(), p.em_max_iterations)?;
        }
        let theta = t.param.encode(m.class_prior().view(), |params| {
            Self::encode(
                t.param.shape(),
                m.mixing_weights(),
                m.means().view(),
                m.variances().view(),
                params,
            )
        });
        Ok((theta, m.report().is_converged()))
    }

    fn component_variances(&self, shape: Shape, params: &[f64]) -> Option<Array2<f64>> {
        let (d, bs) = (shape.n_features, Self::block_len(shape));
        Some(Array2::from_shape_fn(
            (shape.n_classes, COMPONENTS),
            |(c, m)| {
                let ls = params[c * bs + 1 + COMPONENTS * d + m];
                1.0 / component_scale(ls, shape.variance_floor).1
            },
        ))
    }

    fn component_means(&self, shape: Shape, params: &[f64]) -> Option<Array3<f64>> {
        let (d, bs) = (shape.n_features, Self::block_len(shape));
        Some(Array3::from_shape_fn(
            (shape.n_classes, COMPONENTS, d),
            |(c, m, j)| params[c * bs + 1 + m * d + j],
        ))
    }
}

/// Component `m`'s part of a row's local derivatives over its class block `params`: writes
/// `u_m`, the gradient of `log ω_m + log N_m` (`∂/∂c = 1{m = 2} − ω_2`, `∂/∂μ = ρ δ`,
/// `∂/∂ℓ = φ (d − ρ‖δ‖²)` with `ρ` the precision and `δ = x − μ_m`), on its support in `um`, and
/// adds `weight` times its second derivatives — the sparse part `∂² log ω_m / ∂c² = −ω_1 ω_2`,
/// `∂²/∂μ² = −ρ I`, `∂²/∂μ ∂ℓ = 2φρ δ`, `∂²/∂ℓ² = −2φ² ρ‖δ‖² − 2φ (1 − φ)(d − ρ‖δ‖²)` — to the
/// upper triangle of `hess` (`q × q`, row-major).
#[allow(clippy::too_many_arguments)]
fn component_derivatives(
    m: usize,
    row: &[f64],
    params: &[f64],
    scale: ComponentScale,
    [w1, w2]: [f64; COMPONENTS],
    weight: f64,
    um: &mut [f64],
    hess: &mut [f64],
) {
    let (d, q) = (row.len(), um.len());
    let (prec, phi) = (scale.precision, scale.phi);
    let mean = &params[1 + m * d..1 + (m + 1) * d];
    let ls = 1 + COMPONENTS * d + m;
    um[0] = indicator(m == 1) - w2;
    let mut sq = 0.0;
    for j in 0..d {
        let dj = row[j] - mean[j];
        sq += dj * dj;
        let mj = 1 + m * d + j;
        um[mj] = prec * dj;
        hess[mj * q + mj] -= weight * prec;
        hess[mj * q + ls] += weight * 2.0 * prec * dj * phi;
    }
    um[ls] = (d as f64 - prec * sq) * phi;
    // ∂/∂ℓ [φ (d − ρ q)] with ∂φ/∂ℓ = −2φ(1 − φ) and ∂ρ/∂ℓ = 2φρ; without a floor (φ = 1) the
    // second term is exactly 0.
    hess[ls * q + ls] -=
        weight * (2.0 * prec * sq * phi * phi + 2.0 * phi * (1.0 - phi) * (d as f64 - prec * sq));
    hess[0] -= weight * w1 * w2;
}

/// `log ω = log softmax(0, c)`.
fn mixing_log_weights(c: f64) -> [f64; COMPONENTS] {
    let norm = log_sum_exp(&[0.0, c]);
    [-norm, c - norm]
}

/// The row-independent part of one component.
#[derive(Debug, Clone, Copy)]
struct ComponentScale {
    /// `log ω_m − (d/2) ln 2π − (d/2) ln σ²_m`.
    log_constant: f64,
    /// `1 / σ²_m`.
    precision: f64,
    /// `φ_m = e^{−2ℓ_m} / σ²_m = −½ ∂ ln σ²_m / ∂ℓ_m`: 1 without a floor.
    phi: f64,
}

/// `σ² = v₀ + e^{−2ℓ}` as `(−½ ln σ², 1/σ², φ)`; without a floor exactly `(ℓ, e^{2ℓ}, 1)`.
fn component_scale(log_scale: f64, floor: f64) -> (f64, f64, f64) {
    if floor == 0.0 {
        return (log_scale, (2.0 * log_scale).exp(), 1.0);
    }
    let excess = (-2.0 * log_scale).exp();
    let variance = floor + excess;
    (-0.5 * variance.ln(), 1.0 / variance, excess / variance)
}

/// The row-independent part of one class block `[c, μ_1, μ_2, ℓ_1, ℓ_2]` with variance floor
/// `floor`, per component.
fn component_constants(
    block: &[f64],
    d: usize,
    half_d_ln_2pi: f64,
    floor: f64,
) -> [ComponentScale; COMPONENTS] {
    let log_w = mixing_log_weights(block[0]);
    std::array::from_fn(|m| {
        let (half_log_precision, precision, phi) =
            component_scale(block[1 + COMPONENTS * d + m], floor);
        ComponentScale {
            log_constant: log_w[m] - half_d_ln_2pi + d as f64 * half_log_precision,
            precision,
            phi,
        }
    })
}

/// `log ω_m + log N(x; μ_m, σ²_m I)` for both components of a class block, given its
/// [`component_constants`].
fn component_logs(
    block: &[f64],
    constants: &[ComponentScale; COMPONENTS],
    row: &[f64],
) -> [f64; COMPONENTS] {
    let d = row.len();
    let mut lb = [0.0; COMPONENTS];
    for (m, lbm) in lb.iter_mut().enumerate() {
        let mean = &block[1 + m * d..1 + (m + 1) * d];
        let sq: f64 = row.iter().zip(mean).map(|(a, b)| (a - b) * (a - b)).sum();
        *lbm = constants[m].log_constant - 0.5 * constants[m].precision * sq;
    }
    lb
}

/// [`SphericalMixture`]'s component scales and mixing weights for a Hessian evaluation.
struct MixtureTerms<'a> {
    shape: Shape,
    params: &'a [f64],
    /// Per class: its components' scales and its mixing weights `ω_1, ω_2`.
    classes: Vec<([ComponentScale; COMPONENTS], [f64; COMPONENTS])>,
    /// The component gradients `u_m`, `2 × q`, written on their supports only.
    u: Vec<f64>,
    /// Per component, the local indices where `u_m` can be non-zero, increasing: the mixing
    /// logit, the component's mean and its log-precision.
    supports: [Vec<usize>; COMPONENTS],
}

impl LocalTerms for MixtureTerms<'_> {
    fn class_indices(&self, c: usize) -> Vec<usize> {
        let bs = SphericalMixture::block_len(self.shape);
        (c * bs..(c + 1) * bs).collect()
    }

    /// With `u_m` the gradient of `log ω_m + log N_m` over the class block and `ρ_m` the
    /// responsibilities: `∇ log f = Σ_m ρ_m u_m` and `∇² log f = Σ_m ρ_m (∇² log ω_m +
    /// ∇² log N_m) + Σ_m ρ_m u_m u_mᵀ − (∇ log f)(∇ log f)ᵀ`, the components' terms from
    /// [`component_derivatives`]. Balls2's Hessian is assembled by [`Self::class_blocks`]; this
    /// row-by-row form is the reference the tests hold it to.
    fn local_derivatives(
        &mut self,
        c: usize,
        i: usize,
        row: &[f64],
        responsibilities: &[f64],
        grad: &mut [f64],
        hess: &mut [f64],
    ) {
        let q = grad.len();
        hess.fill(0.0);
        let params = &self.params[c * q..(c + 1) * q];
        let at = (i * self.shape.n_classes + c) * COMPONENTS;
        let rho = &responsibilities[at..at + COMPONENTS];
        let (constants, weights) = self.classes[c];
        let u = &mut self.u;
        grad.fill(0.0);
        for m in 0..COMPONENTS {
            let resp = rho[m];
            let um = &mut u[m * q..(m + 1) * q];
            let support = &self.supports[m];
            component_derivatives(m, row, params, constants[m], weights, resp, um, hess);
            // ρ_m u_m u_mᵀ where u_m is not zero: the mixing logit, μ_m and ℓ_m.
            for (at, &a) in support.iter().enumerate() {
                let va = resp * um[a];
                grad[a] += va;
                if va != 0.0 {
                    for &b in &support[at..] {
                        hess[a * q + b] += va * um[b];
                    }
                }
            }
        }
        for a in 0..q {
            for b in a..q {
                hess[a * q + b] -= grad[a] * grad[b];
            }
        }
    }

    /// With `u_m` and `ρ_m` as in [`Self::local_derivatives`], `W H − a g gᵀ` is the sparse
    /// part `W Σ_m ρ_m (∇² log ω_m + ∇² log N_m)` plus `Σ_m (W ρ_m) u_m u_mᵀ − (W + a) g gᵀ`.
    /// Since `g = ρ_1 u_1 + ρ_2 u_2`, the rank-one terms are
    ///
    /// ```text
    /// α u_1 u_1ᵀ + β u_2 u_2ᵀ + γ (u_1 u_2ᵀ + u_2 u_1ᵀ),
    /// α = W ρ_1 − (W + a) ρ_1²,  β = W ρ_2 − (W + a) ρ_2²,  γ = −(W + a) ρ_1 ρ_2,
    /// ```
    ///
    /// and each `u_m` lives on its component's support (`d + 2` of the block's `2d + 3`
    /// entries): three weighted products `Ũ_1ᵀ A Ũ_1`, `Ũ_2ᵀ B Ũ_2` and `Ũ_1ᵀ Γ Ũ_2` of the
    /// supports' columns `Ũ_m` sum them over the rows, between a quarter and a third of the
    /// arithmetic of one product over whole blocks. The sparse part has `2d + 1` entries per
    /// component and the mixing logit's diagonal; the rows are summed directly there.
    fn class_blocks(
        &mut self,
        rows: WeightedRows<'_>,
        mut scaled_gradients: ArrayViewMut2<'_, f64>,
    ) -> Option<ClassBlocks> {
        let WeightedRows {
            x,
            w,
            tau,
            coupling,
            responsibilities,
        } = rows;
        let n = x.nrows();
        let k = self.shape.n_classes;
        let q = SphericalMixture::block_len(self.shape);
        let support_len = self.supports[0].len();
        let mut blocks = vec![Array2::<f64>::zeros((q, q)); k];
        let mut gradient_sums = Array2::<f64>::zeros((k, q));
        // Ũ_1, Ũ_2 and the weighted A Ũ_1, B Ũ_2, Γ Ũ_2, row-major, one row per training row.
        let mut u_tilde = [vec![0.0; n * support_len], vec![0.0; n * support_len]];
        let mut weighted = [
            vec![0.0; n * support_len],
            vec![0.0; n * support_len],
            vec![0.0; n * support_len],
        ];
        let mut products = [
            Array2::<f64>::zeros((support_len, support_len)),
            Array2::<f64>::zeros((support_len, support_len)),
            Array2::<f64>::zeros((support_len, support_len)),
        ];
        let mut sparse = vec![0.0; q * q];
        let mut g = vec![0.0; q];
        for (c, block) in blocks.iter_mut().enumerate() {
            sparse.fill(0.0);
            let params = &self.params[c * q..(c + 1) * q];
            let (constants, weights) = self.classes[c];
            let mut gradient_sum = gradient_sums.row_mut(c);
            for (i, row) in x.outer_iter().enumerate() {
                let row = row.as_slice().expect("standard layout rows");
                let (wc, tc, ci) = (w[[i, c]], tau[[i, c]], coupling[i]);
                let at = (i * k + c) * COMPONENTS;
                let rho: [f64; COMPONENTS] = std::array::from_fn(|m| responsibilities[at + m]);
                let this_row = i * support_len..(i + 1) * support_len;
                g.fill(0.0);
                for (m, (support, u_m)) in self.supports.iter().zip(&mut u_tilde).enumerate() {
                    let um = &mut self.u[m * q..(m + 1) * q];
                    component_derivatives(
                        m,
                        row,
                        params,
                        constants[m],
                        weights,
                        wc * rho[m],
                        um,
                        &mut sparse,
                    );
                    for (&a, out) in support.iter().zip(&mut u_m[this_row.clone()]) {
                        *out = um[a];
                        g[a] += rho[m] * um[a];
                    }
                }
                let scale = ci * tc;
                let root = ci.sqrt() * tc;
                let g_weight = -(wc + scale);
                let alpha = wc * rho[0] + g_weight * rho[0] * rho[0];
                let beta = wc * rho[1] + g_weight * rho[1] * rho[1];
                let gamma = g_weight * rho[0] * rho[1];
                let [w_alpha, w_beta, w_gamma] = &mut weighted;
                for ((((&u1, &u2), a), b), y) in u_tilde[0][this_row.clone()]
                    .iter()
                    .zip(&u_tilde[1][this_row.clone()])
                    .zip(&mut w_alpha[this_row.clone()])
                    .zip(&mut w_beta[this_row.clone()])
                    .zip(&mut w_gamma[this_row])
                {
                    *a = alpha * u1;
                    *b = beta * u2;
                    *y = gamma * u2;
                }
                let mut scaled_row = scaled_gradients.row_mut(i);
                let scaled = &mut scaled_row
                    .as_slice_mut()
                    .expect("rows of a standard-layout matrix")[c * q..(c + 1) * q];
                for ((&gb, sum), out) in g.iter().zip(gradient_sum.iter_mut()).zip(scaled) {
                    *sum += scale * gb;
                    *out = root * gb;
                }
            }
            let view = |v| ArrayView2::from_shape((n, support_len), v).expect("n × (d + 2)");
            let (u1, u2) = (view(&u_tilde[0][..]), view(&u_tilde[1][..]));
            general_mat_mul(1.0, &u1.t(), &view(&weighted[0][..]), 0.0, &mut products[0]);
            general_mat_mul(1.0, &u2.t(), &view(&weighted[1][..]), 0.0, &mut products[1]);
            general_mat_mul(1.0, &u1.t(), &view(&weighted[2][..]), 0.0, &mut products[2]);
            block.assign(&ArrayView2::from_shape((q, q), &sparse).expect("q × q"));
            let [s1, s2] = &self.supports;
            for (t, (&a1, &a2)) in s1.iter().zip(s2).enumerate() {
                for (t2, (&b1, &b2)) in s1.iter().zip(s2).enumerate() {
                    block[[a1, b1]] += products[0][[t, t2]];
                    block[[a2, b2]] += products[1][[t, t2]];
                    block[[a1, b2]] += products[2][[t, t2]];
                    block[[b2, a1]] += products[2][[t, t2]];
                }
            }
        }
        Some(ClassBlocks {
            blocks,
            gradient_sums,
        })
    }
}
