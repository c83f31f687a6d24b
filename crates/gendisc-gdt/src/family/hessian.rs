//! Second derivatives of the GDT objective in the unconstrained parametrisation.
//!
//! Write `g_ik = ∇_θ log p_θ(x_i, k)` and `H_ik = ∇²_θ log p_θ(x_i, k)`. Differentiating the
//! gradient `Σ_i Σ_k W_ik g_ik` of eq. (8) once more, with `∇τ_ik = τ_ik (g_ik − ḡ_i)` and
//! `ḡ_i = Σ_k τ_ik g_ik`:
//!
//! ```text
//! ∇²L_λ(θ) = Σ_i [ Σ_k W_ik H_ik − c_i (Σ_k τ_ik g_ik g_ikᵀ − ḡ_i ḡ_iᵀ) ],   c_i = s_i (1 − λ).
//! ```
//!
//! The first term is what a weighted maximum-likelihood fit would have; the second is the
//! covariance of the per-class scores under the posterior, which only the discriminative part
//! brings and which makes `L_λ` non-concave in general for `λ < 1`.
//!
//! `log p_θ(x, k) = log π_k + log f_k(x; θ_k)` separates: the prior logits `a` enter only
//! through `log π_k`, whose Hessian `−(diag π − π πᵀ)` (over `a_1 … a_{K−1}`) does not depend on
//! `k` or `x`; the density parameters of class `k` (its mean, its precision, the shared factor for
//! LDA; its whole block for Balls2) enter only `log f_k`, so `H_ik` is zero outside one small
//! block. With `δ = x − μ`, `z = Lᵀ δ`, `Λ = L Lᵀ`, for a Gaussian with a full Cholesky factor
//! (entries `L_ab`, `a ≥ b`, the diagonal through `L_aa = e^{ℓ_a}`, chain factor `c_ab = L_aa` on
//! the diagonal and `1` off it):
//!
//! ```text
//! ∂²/∂μ ∂μᵀ         = −Λ
//! ∂²/∂μ_j ∂L_ab     = c_ab (1{a = j} z_b + δ_a L_jb)
//! ∂²/∂L_ab ∂L_ce    = −c_ab c_ce δ_a δ_c 1{b = e}     (+ c_aa ∂/∂L_aa on the diagonal of ℓ_a)
//! ```
//!
//! with the first derivatives `∂/∂μ = L z`, `∂/∂L_ab = −δ_a z_b`, `∂/∂ℓ_a = 1 − L_aa δ_a z_a`.
//! A spherical Gaussian with log-precision `2ℓ` (precision `ρ = e^{2ℓ}`) has
//! `∂²/∂μ∂μᵀ = −ρ I`, `∂²/∂μ ∂ℓ = 2ρ δ`, `∂²/∂ℓ² = −2ρ ‖δ‖²`; the diagonal one the same per
//! coordinate. A Balls2 component with a variance floor, `σ² = v₀ + e^{−2ℓ}`, `ρ = 1/σ²`,
//! `φ = e^{−2ℓ}/σ²`, has `∂/∂ℓ = φ (d − ρ‖δ‖²)`, `∂²/∂μ ∂ℓ = 2φρ δ` and
//! `∂²/∂ℓ² = −2φ² ρ‖δ‖² − 2φ (1 − φ)(d − ρ‖δ‖²)` (the spherical case at `φ = 1`). A Balls2
//! class density is a two-component mixture: with `u_m` the gradient of
//! `log ω_m + log N_m` over the class block and `ρ_m` the responsibilities,
//! `∇ log f = Σ_m ρ_m u_m` and `∇² log f = Σ_m ρ_m (∇² log ω_m + ∇² log N_m) + Σ_m ρ_m u_m u_mᵀ −
//! (∇ log f)(∇ log f)ᵀ`, where `∂² log ω_m / ∂c² = −ω_1 ω_2`.
//!
//! One evaluation costs `O(n (K q² + p²))` for `p` parameters and class blocks of size `q`, with
//! all workspace allocated once per call.

use ndarray::{Array2, ArrayView1, ArrayView2, ArrayViewMut2};

use super::{
    balls2_constants, mixing_log_weights, ComponentScale, Family, Parametrisation, Precision,
    COMPONENTS, LN_2PI,
};

/// The density parameters of one class, decoded once per Hessian evaluation.
enum ClassBlock {
    /// `N(μ, (L Lᵀ)⁻¹)`: `l` and `Λ = L Lᵀ`, both `d × d` row-major.
    Full { l: Vec<f64>, precision: Vec<f64> },
    /// `N(μ, e^{−2ℓ} I)`: the precision `e^{2ℓ}`.
    Spherical { precision: f64 },
    /// `N(μ, diag(e^{−2ℓ_j}))`: the precisions `e^{2ℓ_j}`.
    Diagonal { precision: Vec<f64> },
    /// A Balls2 mixture: its components' row-independent scales and its mixing weights
    /// `ω_1, ω_2`; the means are read from `θ`.
    Mixture {
        constants: [ComponentScale; COMPONENTS],
        weights: [f64; COMPONENTS],
    },
}

impl Parametrisation {
    /// The global indices of class `c`'s density parameters in their local order: the mean
    /// then the precision entries, or the whole Balls2 block.
    fn class_indices(&self, c: usize) -> Vec<usize> {
        let d = self.n_features;
        if self.family == Family::Balls2 {
            let start = self.prior_len() + c * self.balls2_block();
            return (start..start + self.balls2_block()).collect();
        }
        let (mo, po) = (self.means_offset(), self.precision_offset());
        let mean = mo + c * d..mo + (c + 1) * d;
        match self.family {
            Family::Lda => mean.chain(po..po + self.tri()).collect(),
            Family::Qda => mean
                .chain(po + c * self.tri()..po + (c + 1) * self.tri())
                .collect(),
            Family::Balls1 => mean.chain(po + c..po + c + 1).collect(),
            Family::SharedDiagonal => mean.chain(po..po + d).collect(),
            Family::Balls2 => unreachable!("handled above"),
        }
    }

    /// Every class's density parameters decoded from `θ` (the shared ones repeated).
    fn class_blocks(&self, theta: ArrayView1<'_, f64>) -> Vec<ClassBlock> {
        if self.family == Family::Balls2 {
            let th = theta.as_standard_layout();
            let th = th.as_slice().expect("contiguous");
            let d = self.n_features;
            let half_d_ln_2pi = 0.5 * d as f64 * LN_2PI;
            return (0..self.n_classes)
                .map(|c| {
                    let start = self.prior_len() + c * self.balls2_block();
                    let block = &th[start..start + self.balls2_block()];
                    ClassBlock::Mixture {
                        constants: balls2_constants(block, d, half_d_ln_2pi, self.variance_floor),
                        weights: mixing_log_weights(block[0]).map(f64::exp),
                    }
                })
                .collect();
        }
        let precisions = self.decode_precisions(theta);
        (0..self.n_classes)
            .map(|c| match &precisions[self.precision_index(c)] {
                Precision::Full { l, .. } => ClassBlock::Full {
                    l: l.iter().copied().collect(),
                    precision: l.dot(&l.t()).iter().copied().collect(),
                },
                Precision::Spherical { log_scale } => ClassBlock::Spherical {
                    precision: (2.0 * log_scale).exp(),
                },
                Precision::Diagonal { log_scale } => ClassBlock::Diagonal {
                    precision: log_scale.iter().map(|v| (2.0 * v).exp()).collect(),
                },
            })
            .collect()
    }

    /// Adds `Σ_i [Σ_k W_ik H_ik − c_i (Σ_k τ_ik g_ik g_ikᵀ − ḡ_i ḡ_iᵀ)]` (the
    /// [module documentation](self)) to `hessian` (`p × p`). `w` and `tau` are `n × K`, `coupling`
    /// holds `c_i`; for [`Family::Balls2`], `log_responsibilities` are the components' `log ρ_ikm`
    /// at `θ` as [`Self::class_log_density_into`] writes them (other families ignore them).
    /// Inputs must have been validated by the caller.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn add_weighted_hessian(
        &self,
        theta: ArrayView1<'_, f64>,
        x: ArrayView2<'_, f64>,
        w: ArrayView2<'_, f64>,
        tau: ArrayView2<'_, f64>,
        coupling: ArrayView1<'_, f64>,
        log_responsibilities: &[f64],
        mut hessian: ArrayViewMut2<'_, f64>,
    ) {
        let (k, d, p) = (self.n_classes, self.n_features, self.dim());
        let th = theta.as_standard_layout();
        let th = th.as_slice().expect("contiguous");
        let blocks = self.class_blocks(theta);
        let indices: Vec<Vec<usize>> = (0..k).map(|c| self.class_indices(c)).collect();
        let q = indices[0].len();
        let pr = self.prior_len();
        let prior = self.log_prior(theta).mapv_into(f64::exp);
        let packed = packed_entries(d);

        // Workspace, once per call.
        let mut local_grad = vec![0.0; k * q];
        let mut local_hess = vec![0.0; q * q];
        let mut scratch = Scratch::new(d, q);
        let mut gbar = vec![0.0; p];
        // Row i holds √c_i ḡ_i: the posterior-covariance term Σ_i c_i ḡ_i ḡ_iᵀ is then one
        // matrix product, GᵀG, instead of a rank-one update per row.
        let mut scaled_gbar = Array2::<f64>::zeros((x.nrows(), p));
        // The upper triangle of the sum, row-major; every class's indices (logits first, then
        // its block) are increasing, so "upper" is `b ≥ a` in local order too.
        let mut h = vec![0.0; p * p];
        let mut total_w = 0.0;

        for (i, row) in x.outer_iter().enumerate() {
            let row = row.as_slice().expect("standard layout rows");
            let (wi, ti, ci) = (w.row(i), tau.row(i), coupling[i]);
            if ci == 0.0 && wi.iter().all(|&v| v == 0.0) {
                continue;
            }
            gbar.fill(0.0);
            for c in 0..k {
                let idx = &indices[c];
                let mean_block = match blocks[c] {
                    ClassBlock::Mixture { .. } => &th[idx[0]..idx[0] + q],
                    _ => &th[idx[0]..idx[0] + d],
                };
                let grad = &mut local_grad[c * q..(c + 1) * q];
                let log_rho = match blocks[c] {
                    ClassBlock::Mixture { .. } => {
                        let at = (i * k + c) * COMPONENTS;
                        &log_responsibilities[at..at + COMPONENTS]
                    }
                    _ => &[],
                };
                local_derivatives(
                    &blocks[c],
                    mean_block,
                    row,
                    log_rho,
                    &packed,
                    grad,
                    &mut local_hess,
                    &mut scratch,
                );
                let (wc, tc) = (wi[c], ti[c]);
                total_w += wc;
                // W_ic H_ic − c_i τ_ic g_ic g_icᵀ over the class block, and the logit rows of
                // the second term; g_ic = (e_c − π on the logits, the local gradient).
                let scale = ci * tc;
                for (a, &ga) in idx.iter().enumerate() {
                    let va = scale * grad[a];
                    let hrow = &mut h[ga * p..(ga + 1) * p];
                    for (b, &gb) in idx.iter().enumerate().skip(a) {
                        hrow[gb] += wc * local_hess[a * q + b] - va * grad[b];
                    }
                }
                if scale == 0.0 {
                    continue;
                }
                let prior_entry = |j: usize| -> f64 {
                    // ∂ log π_c / ∂a_j for j = 1 … K − 1, stored at j − 1.
                    indicator(j + 1 == c) - prior[j + 1]
                };
                for ja in 0..pr {
                    let va = prior_entry(ja);
                    gbar[ja] += tc * va;
                    let hrow = &mut h[ja * p..(ja + 1) * p];
                    for jb in ja..pr {
                        hrow[jb] -= scale * va * prior_entry(jb);
                    }
                    for (&gb, &g) in idx.iter().zip(grad.iter()) {
                        hrow[gb] -= scale * va * g;
                    }
                }
                for (&ga, &g) in idx.iter().zip(grad.iter()) {
                    gbar[ga] += tc * g;
                }
            }
            if ci == 0.0 {
                continue;
            }
            let root = ci.sqrt();
            for (out, &g) in scaled_gbar.row_mut(i).iter_mut().zip(&gbar) {
                *out = root * g;
            }
        }
        // + Σ_i c_i ḡ_i ḡ_iᵀ.
        let covariance = scaled_gbar.t().dot(&scaled_gbar);
        for a in 0..p {
            for b in a..p {
                h[a * p + b] += covariance[[a, b]];
            }
        }
        // Σ_i Σ_k W_ik ∇² log π_k = −(Σ W) (diag π − π πᵀ) over the logits.
        for ja in 0..pr {
            for jb in ja..pr {
                let cov = indicator(ja == jb) * prior[ja + 1] - prior[ja + 1] * prior[jb + 1];
                h[ja * p + jb] -= total_w * cov;
            }
        }
        for a in 0..p {
            for b in a..p {
                let v = h[a * p + b];
                hessian[[a, b]] += v;
                if b != a {
                    hessian[[b, a]] += v;
                }
            }
        }
    }
}

/// `1` if `b`, else `0`.
fn indicator(b: bool) -> f64 {
    if b {
        1.0
    } else {
        0.0
    }
}

/// The packed lower-triangle entries `(a, b)`, `a ≥ b`, row by row.
fn packed_entries(d: usize) -> Vec<(usize, usize)> {
    (0..d).flat_map(|a| (0..=a).map(move |b| (a, b))).collect()
}

/// Per-row scratch buffers of [`local_derivatives`].
struct Scratch {
    diff: Vec<f64>,
    z: Vec<f64>,
    /// The component gradients `u_m` of Balls2, `2 × q`.
    u: Vec<f64>,
}

impl Scratch {
    fn new(d: usize, q: usize) -> Self {
        Self {
            diff: vec![0.0; d],
            z: vec![0.0; d],
            u: vec![0.0; COMPONENTS * q],
        }
    }
}

/// The gradient (`grad`, length `q`) and Hessian (`hess`, `q × q` row-major) of
/// `log f_k(x)` over the class's density parameters in their local order. `params` is the
/// class's mean (`d`) or, for Balls2, its whole block; `log_rho` the Balls2 components'
/// `log ρ_m` at this row (empty for the other families).
#[allow(clippy::too_many_arguments)]
fn local_derivatives(
    block: &ClassBlock,
    params: &[f64],
    row: &[f64],
    log_rho: &[f64],
    packed: &[(usize, usize)],
    grad: &mut [f64],
    hess: &mut [f64],
    scratch: &mut Scratch,
) {
    let d = row.len();
    let q = grad.len();
    hess.fill(0.0);
    match block {
        ClassBlock::Full { l, precision } => {
            let diff = &mut scratch.diff;
            let z = &mut scratch.z;
            for j in 0..d {
                diff[j] = row[j] - params[j];
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
            for (e, &(a, b)) in packed.iter().enumerate() {
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
                for (f, &(c, col)) in packed.iter().enumerate() {
                    if col == b {
                        hess[(d + e) * q + d + f] = -ce * chain(c, col) * diff[a] * diff[c];
                    }
                }
                if a == b {
                    hess[(d + e) * q + d + e] += ce * raw;
                }
            }
        }
        ClassBlock::Spherical { precision } => {
            let mut sq = 0.0;
            for j in 0..d {
                let dj = row[j] - params[j];
                sq += dj * dj;
                grad[j] = precision * dj;
                hess[j * q + j] = -precision;
                hess[j * q + d] = 2.0 * precision * dj;
                hess[d * q + j] = 2.0 * precision * dj;
            }
            grad[d] = d as f64 - precision * sq;
            hess[d * q + d] = -2.0 * precision * sq;
        }
        ClassBlock::Diagonal { precision } => {
            for j in 0..d {
                let (dj, pj) = (row[j] - params[j], precision[j]);
                grad[j] = pj * dj;
                grad[d + j] = 1.0 - pj * dj * dj;
                hess[j * q + j] = -pj;
                hess[j * q + d + j] = 2.0 * pj * dj;
                hess[(d + j) * q + j] = 2.0 * pj * dj;
                hess[(d + j) * q + d + j] = -2.0 * pj * dj * dj;
            }
        }
        ClassBlock::Mixture { constants, weights } => {
            let [w1, w2] = *weights;
            let u = &mut scratch.u;
            u.fill(0.0);
            grad.fill(0.0);
            for m in 0..COMPONENTS {
                let resp = log_rho[m].exp();
                let (prec, phi) = (constants[m].precision, constants[m].phi);
                let mean = &params[1 + m * d..1 + (m + 1) * d];
                let um = &mut u[m * q..(m + 1) * q];
                um[0] = indicator(m == 1) - w2;
                let ls = 1 + COMPONENTS * d + m;
                let mut sq = 0.0;
                for j in 0..d {
                    let dj = row[j] - mean[j];
                    sq += dj * dj;
                    let mj = 1 + m * d + j;
                    um[mj] = prec * dj;
                    hess[mj * q + mj] -= resp * prec;
                    hess[mj * q + ls] += resp * 2.0 * prec * dj * phi;
                    hess[ls * q + mj] += resp * 2.0 * prec * dj * phi;
                }
                um[ls] = (d as f64 - prec * sq) * phi;
                // ∂/∂ℓ [φ (d − ρ q)] with ∂φ/∂ℓ = −2φ(1 − φ) and ∂ρ/∂ℓ = 2φρ; without a floor
                // (φ = 1) the second term is exactly 0.
                hess[ls * q + ls] -= resp * 2.0 * prec * sq * phi * phi
                    + resp * 2.0 * phi * (1.0 - phi) * (d as f64 - prec * sq);
                hess[0] -= resp * w1 * w2;
                for a in 0..q {
                    grad[a] += resp * um[a];
                    let va = resp * um[a];
                    if va != 0.0 {
                        for b in 0..q {
                            hess[a * q + b] += va * um[b];
                        }
                    }
                }
            }
            for a in 0..q {
                for b in 0..q {
                    hess[a * q + b] -= grad[a] * grad[b];
                }
            }
        }
    }
}
