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
//! [`LocalTerms`](super::density::LocalTerms); this module assembles them. One evaluation costs
//! `O(n (K q² + p²))` for `p` parameters and class blocks of size `q`, with all workspace
//! allocated once per call.
//!
//! The assembly goes row by row, adding each `W_ik H_ik − c_i τ_ik g_ik g_ikᵀ` to its block,
//! unless the family sums its blocks in bulk ([`LocalTerms::class_blocks`]). Balls2 does: its
//! `H_ik` is a sparse part plus rank-one terms in the component scores, so that each class's
//! block is three weighted matrix products over the rows, one per pair of components, each on
//! the components' supports only (on Statlog satimage, 6 classes, 67 parameters, 300 rows, one
//! product over whole blocks took the Newton paths about 40% less CPU time than the row-by-row
//! sum of dense local Hessians). The two sum the same terms in another order; a test holds them
//! to each other.

use ndarray::{s, Array1, Array2, ArrayView1, ArrayViewMut2};

use super::density::{indicator, ClassBlocks, LocalTerms, WeightedRows};
use super::Parametrisation;

impl Parametrisation {
    /// Adds `Σ_i [Σ_k W_ik H_ik − c_i (Σ_k τ_ik g_ik g_ikᵀ − ḡ_i ḡ_iᵀ)]` (the
    /// [module documentation](self)) to `hessian` (`p × p`). `w` and `tau` are `n × K`, `coupling`
    /// holds `c_i`; `responsibilities` are a mixture's `ρ_ikm` at `θ` as
    /// [`Self::class_log_density_into`] writes them (empty for the other families).
    /// Inputs must have been validated by the caller.
    pub(crate) fn add_weighted_hessian(
        &self,
        theta: ArrayView1<'_, f64>,
        rows: WeightedRows<'_>,
        hessian: ArrayViewMut2<'_, f64>,
    ) {
        let th = theta.as_standard_layout();
        let th = th.as_slice().expect("contiguous");
        let mut terms = self
            .densities()
            .local_terms(self.shape(), &th[self.prior_len()..]);
        self.assemble_hessian(&mut *terms, theta, rows, hessian);
    }

    /// [`Self::add_weighted_hessian`] with the family's local terms at `theta`: in bulk where
    /// the family provides [`LocalTerms::class_blocks`], else row by row.
    fn assemble_hessian(
        &self,
        terms: &mut dyn LocalTerms,
        theta: ArrayView1<'_, f64>,
        rows: WeightedRows<'_>,
        mut hessian: ArrayViewMut2<'_, f64>,
    ) {
        let WeightedRows {
            x,
            w,
            tau,
            coupling,
            ..
        } = rows;
        let (k, p) = (self.n_classes, self.dim());
        let pr = self.prior_len();
        let indices: Vec<Vec<usize>> = (0..k)
            .map(|c| terms.class_indices(c).into_iter().map(|j| pr + j).collect())
            .collect();
        let prior = self.log_prior(theta).mapv_into(f64::exp);
        let prior_entry = |c: usize, j: usize| log_prior_derivative(&prior, c, j);

        // Row i holds √c_i ḡ_i: the posterior-covariance term Σ_i c_i ḡ_i ḡ_iᵀ is then one
        // matrix product, GᵀG, instead of a rank-one update per row.
        let mut scaled_gbar = Array2::<f64>::zeros((x.nrows(), p));
        // The upper triangle of the sum, row-major; every class's indices (logits first, then
        // its block) are increasing, so "upper" is `b ≥ a` in local order too.
        let mut h = vec![0.0; p * p];
        let total_w = if let Some(ClassBlocks {
            blocks,
            gradient_sums,
        }) = terms.class_blocks(rows, scaled_gbar.slice_mut(s![.., pr..]))
        {
            // W_ic H_ic − c_i τ_ic g_ic g_icᵀ summed over rows, class by class; the logit rows
            // of the second term, −c_i τ_ic (e_c − π) g_icᵀ, through the classes' sums of
            // c_i τ_ic g_ic; and the logit part of each ḡ_i, Σ_c τ_ic (e_c − π).
            for (c, (idx, block)) in indices.iter().zip(&blocks).enumerate() {
                for (a, &ga) in idx.iter().enumerate() {
                    let hrow = &mut h[ga * p..(ga + 1) * p];
                    for (b, &gb) in idx.iter().enumerate().skip(a) {
                        hrow[gb] += block[[a, b]];
                    }
                }
                let scale: f64 = (0..x.nrows()).map(|i| coupling[i] * tau[[i, c]]).sum();
                for ja in 0..pr {
                    let va = prior_entry(c, ja);
                    let hrow = &mut h[ja * p..(ja + 1) * p];
                    for jb in ja..pr {
                        hrow[jb] -= scale * va * prior_entry(c, jb);
                    }
                    for (&gb, &g) in idx.iter().zip(gradient_sums.row(c)) {
                        hrow[gb] -= va * g;
                    }
                }
            }
            for (i, mut row) in scaled_gbar.outer_iter_mut().enumerate() {
                let root = coupling[i].sqrt();
                for ja in 0..pr {
                    row[ja] = root
                        * (0..k)
                            .map(|c| tau[[i, c]] * prior_entry(c, ja))
                            .sum::<f64>();
                }
            }
            w.sum()
        } else {
            self.add_rows_one_by_one(terms, &indices, rows, &prior, &mut h, &mut scaled_gbar)
        };
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

    /// The row-by-row assembly of `Σ_i [Σ_k W_ik H_ik − c_i Σ_k τ_ik g_ik g_ikᵀ]` into the upper
    /// triangle `h`, and of the rows `√c_i ḡ_i` into `scaled_gbar`, from each row's
    /// [`LocalTerms::local_derivatives`]; returns `Σ_i Σ_k W_ik`.
    fn add_rows_one_by_one(
        &self,
        terms: &mut dyn LocalTerms,
        indices: &[Vec<usize>],
        rows: WeightedRows<'_>,
        prior: &Array1<f64>,
        h: &mut [f64],
        scaled_gbar: &mut Array2<f64>,
    ) -> f64 {
        let WeightedRows {
            x,
            w,
            tau,
            coupling,
            responsibilities,
        } = rows;
        let (k, p, pr) = (self.n_classes, self.dim(), self.prior_len());
        let q = indices[0].len();
        let prior_entry = |c: usize, j: usize| log_prior_derivative(prior, c, j);
        // Workspace, once per call.
        let mut local_grad = vec![0.0; k * q];
        let mut local_hess = vec![0.0; q * q];
        let mut gbar = vec![0.0; p];
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
                terms.local_derivatives(c, i, row, responsibilities, grad, &mut local_hess);
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
                for ja in 0..pr {
                    let va = prior_entry(c, ja);
                    gbar[ja] += tc * va;
                    let hrow = &mut h[ja * p..(ja + 1) * p];
                    for jb in ja..pr {
                        hrow[jb] -= scale * va * prior_entry(c, jb);
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
        total_w
    }
}

/// `∂ log π_c / ∂a_{j+1} = 1{j + 1 = c} − π_{j+1}`, the prior logits' entry `j` of every
/// class score `g_ic` (`prior` holds `π`).
fn log_prior_derivative(prior: &Array1<f64>, c: usize, j: usize) -> f64 {
    indicator(j + 1 == c) - prior[j + 1]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::{Family, Priors};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A family's local terms without their bulk path: the assembly goes row by row.
    struct RowByRow<'a>(Box<dyn LocalTerms + 'a>);

    impl LocalTerms for RowByRow<'_> {
        fn class_indices(&self, c: usize) -> Vec<usize> {
            self.0.class_indices(c)
        }

        fn local_derivatives(
            &mut self,
            c: usize,
            i: usize,
            row: &[f64],
            responsibilities: &[f64],
            grad: &mut [f64],
            hess: &mut [f64],
        ) {
            self.0
                .local_derivatives(c, i, row, responsibilities, grad, hess);
        }
    }

    /// Balls2's bulk class blocks give the Hessian the row-by-row assembly gives, to rounding,
    /// for any weights, posteriors, couplings and responsibilities (the assembly is an identity
    /// in them), with and without a variance floor and with fixed or estimated priors. Both take
    /// the components' derivatives from one function, which the finite-difference property test
    /// checks; this test checks the two assemblies.
    #[test]
    fn balls2_class_blocks_in_bulk_are_the_row_by_row_sum() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for (k, d, floor, priors) in [
            (2, 3, 0.0, Priors::Estimated),
            (3, 2, 0.05, Priors::Estimated),
            (4, 4, 0.02, Priors::Fixed),
        ] {
            let n = 23;
            let param = Parametrisation::new(Family::Balls2, k, d)
                .unwrap()
                .with_priors(priors)
                .with_variance_floor(floor)
                .unwrap();
            let p = param.dim();
            let theta = Array1::from_shape_fn(p, |_| rng.random_range(-1.0..1.0));
            let x = Array2::from_shape_fn((n, d), |_| rng.random_range(-2.0..2.0));
            let w = Array2::from_shape_fn((n, k), |_| rng.random_range(-1.0..1.0));
            let tau = Array2::from_shape_fn((n, k), |_| rng.random_range(0.0..1.0));
            let coupling = Array1::from_shape_fn(n, |_| rng.random_range(0.0..2.0));
            let rho: Vec<f64> = (0..param.responsibilities_len(n))
                .map(|_| rng.random_range(0.01_f64..1.0))
                .collect();
            let th = theta.to_vec();
            let hessian_by = |bulk: bool| {
                let terms = param
                    .densities()
                    .local_terms(param.shape(), &th[param.prior_len()..]);
                let mut terms: Box<dyn LocalTerms> = if bulk {
                    terms
                } else {
                    Box::new(RowByRow(terms))
                };
                let mut h = Array2::zeros((p, p));
                let rows = WeightedRows {
                    x: x.view(),
                    w: w.view(),
                    tau: tau.view(),
                    coupling: coupling.view(),
                    responsibilities: &rho,
                };
                param.assemble_hessian(&mut *terms, theta.view(), rows, h.view_mut());
                h
            };
            let (bulk, rows) = (hessian_by(true), hessian_by(false));
            let scale = rows.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
            for ((ij, a), b) in bulk.indexed_iter().zip(rows.iter()) {
                assert!(
                    (a - b).abs() <= 1e-12 * scale,
                    "K = {k}, d = {d}, floor {floor}, {priors:?}: entry {ij:?}: {a} in bulk, {b} row by row"
                );
            }
        }
    }
}
