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
//! block. Each family gives its `g_ik` and `H_ik` over that block, with the formulas, through
//! [`LocalTerms`](super::density::LocalTerms); this module assembles them. One evaluation costs `O(n (K q² + p²))` for `p` parameters and
//! class blocks of size `q`, with all workspace allocated once per call.

use ndarray::{Array2, ArrayView1, ArrayView2, ArrayViewMut2};

use super::density::indicator;
use super::Parametrisation;

impl Parametrisation {
    /// Adds `Σ_i [Σ_k W_ik H_ik − c_i (Σ_k τ_ik g_ik g_ikᵀ − ḡ_i ḡ_iᵀ)]` (the
    /// [module documentation](self)) to `hessian` (`p × p`). `w` and `tau` are `n × K`, `coupling`
    /// holds `c_i`; `log_responsibilities` are a mixture's `log ρ_ikm` at `θ` as
    /// [`Self::class_log_density_into`] writes them (empty for the other families).
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
        let (k, p) = (self.n_classes, self.dim());
        let th = theta.as_standard_layout();
        let th = th.as_slice().expect("contiguous");
        let pr = self.prior_len();
        let mut terms = self.densities().local_terms(self.shape(), &th[pr..]);
        let indices: Vec<Vec<usize>> = (0..k)
            .map(|c| terms.class_indices(c).into_iter().map(|j| pr + j).collect())
            .collect();
        let q = indices[0].len();
        let prior = self.log_prior(theta).mapv_into(f64::exp);

        // Workspace, once per call.
        let mut local_grad = vec![0.0; k * q];
        let mut local_hess = vec![0.0; q * q];
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
                let grad = &mut local_grad[c * q..(c + 1) * q];
                terms.local_derivatives(c, i, row, log_responsibilities, grad, &mut local_hess);
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
