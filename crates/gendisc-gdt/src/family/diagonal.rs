//! The shared diagonal: Gaussian classes with one diagonal precision `diag(e^{2ℓ_j})` for every
//! class (the assumed model of the paper's simulations, §4), `ϑ = (μ, ℓ)`.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut1};

use gendisc_core::Result;
use gendisc_generative::{GaussianNb, VarianceStructure};

use super::density::{ClassDensities, LocalTerms, Shape};
use super::gaussian::{self, Induced};
use super::{Parametrisation, Priors};
use crate::model::{class_priors_of, fit_maybe_weighted, TrainingSet};
use crate::params::GdtValidParams;
use crate::whitening::{AffineClosure, Direction, InputMap};

/// Gaussian classes sharing one diagonal covariance.
pub(crate) struct SharedDiagonalCovariance;

impl SharedDiagonalCovariance {
    /// The precisions `e^{2ℓ_j}`.
    fn precisions(shape: Shape, params: &[f64]) -> Vec<f64> {
        let po = gaussian::precision_offset(shape);
        params[po..po + shape.n_features]
            .iter()
            .map(|v| (2.0 * v).exp())
            .collect()
    }
}

impl ClassDensities for SharedDiagonalCovariance {
    fn len(&self, shape: Shape) -> usize {
        gaussian::precision_offset(shape) + shape.n_features
    }

    /// A class's mean and the shared diagonal.
    fn class_block_len(&self, shape: Shape) -> usize {
        2 * shape.n_features
    }

    fn log_densities_into(
        &self,
        shape: Shape,
        params: &[f64],
        xs: &[f64],
        out: &mut [f64],
        _responsibilities: Option<&mut [f64]>,
    ) {
        let po = gaussian::precision_offset(shape);
        let log_scale = &params[po..po + shape.n_features];
        // Each feature's precision e^{2ℓ_j} once, not once per row and class.
        let precisions: Vec<f64> = log_scale.iter().map(|ls| (2.0 * ls).exp()).collect();
        gaussian::log_densities_into(shape, params, xs, out, |_, diff| {
            diff.iter()
                .zip(log_scale)
                .zip(&precisions)
                .map(|((v, ls), precision)| ls - 0.5 * precision * v * v)
                .sum()
        });
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
        let po = gaussian::precision_offset(shape);
        let log_scale = &params[po..po + d];
        let mut r = vec![0.0; d];
        // Σ_k Σ_i W_ik (x_ij − μ_kj)² and Σ_k Σ_i W_ik, for the shared ℓ.
        let mut shared_sq = vec![0.0; d];
        let mut shared_w = 0.0;
        for c in 0..k {
            let s0 = gaussian::weighted_deviations(shape, params, xs, ws, c, &mut r, |wi, diff| {
                for (sq, dj) in shared_sq.iter_mut().zip(diff) {
                    *sq += wi * dj * dj;
                }
            });
            for j in 0..d {
                gradient[c * d + j] += (2.0 * log_scale[j]).exp() * r[j];
            }
            shared_w += s0;
        }
        for j in 0..d {
            gradient[po + j] += shared_w - (2.0 * log_scale[j]).exp() * shared_sq[j];
        }
    }

    fn local_terms<'a>(&self, shape: Shape, params: &'a [f64]) -> Box<dyn LocalTerms + 'a> {
        Box::new(DiagonalTerms {
            shape,
            params,
            precisions: Self::precisions(shape, params),
        })
    }

    fn generative_start(
        &self,
        p: &GdtValidParams,
        t: &TrainingSet<'_>,
    ) -> Result<(Array1<f64>, bool)> {
        let m = fit_maybe_weighted(
            GaussianNb::params()
                .n_classes(t.param.n_classes())
                .variance(VarianceStructure::Pooled)
                .priors(class_priors_of(t))
                .var_smoothing(p.var_smoothing),
            t,
        )?;
        let theta = t.param.encode(m.class_prior().view(), |params| {
            gaussian::encode_scales(
                t.param.shape(),
                m.means().view(),
                m.variances().row(0),
                params,
            )
        });
        Ok((theta, true))
    }

    fn gaussian_parts(
        &self,
        shape: Shape,
        params: &[f64],
    ) -> Option<(Array2<f64>, Vec<Array2<f64>>)> {
        let precision = self.shared_precision(shape, params)?;
        Some((
            gaussian::means(shape, params),
            vec![precision; shape.n_classes],
        ))
    }

    fn shared_precision(&self, shape: Shape, params: &[f64]) -> Option<Array2<f64>> {
        Some(Array2::from_diag(&Array1::from(Self::precisions(
            shape, params,
        ))))
    }
    /// The log-odds are linear in `x`.
    fn affine_closure(&self) -> Option<AffineClosure> {
        Some(AffineClosure::Diagonal)
    }

    /// `μ̃_k = A(μ_k − m)` and `ℓ̃_j = ℓ_j − ln A_jj` (or back), `A` diagonal.
    fn change_inputs(
        &self,
        shape: Shape,
        params: &[f64],
        map: &InputMap,
        direction: Direction,
    ) -> Option<Vec<f64>> {
        let mut out = vec![0.0; params.len()];
        gaussian::change_means(shape, params, map, direction, &mut out);
        let po = gaussian::precision_offset(shape);
        for j in 0..shape.n_features {
            out[po + j] = params[po + j] + map.log_diagonal_shift(j, direction);
        }
        Some(out)
    }

    fn induced_extras(&self, _n_features: usize) -> Option<usize> {
        Some(0)
    }

    fn maps_back(&self, priors: Priors, n_classes: usize) -> bool {
        gaussian::maps_back(true, priors, n_classes)
    }

    /// `Λ` kept, `μ_k = μ_0 + Λ⁻¹ b_k`; the prior logits make up the intercepts.
    fn map_back(
        &self,
        param: &Parametrisation,
        start: ArrayView1<'_, f64>,
        beta: ArrayView2<'_, f64>,
    ) -> Option<Array1<f64>> {
        let induced = Induced::new(param, start, beta)?;
        let gaussian::SharedMapBack { prior, means, .. } =
            gaussian::map_back_shared(param, &induced)?;
        // The kept precision Λ is diagonal: its variances are 1/Λ_jj.
        let variances = induced.start_precisions[0].diag().mapv(|p| 1.0 / p);
        Some(param.encode_scales(prior.view(), means.view(), variances.view()))
    }
}

/// [`SharedDiagonalCovariance`]'s precisions `e^{2ℓ_j}` for a Hessian evaluation.
struct DiagonalTerms<'a> {
    shape: Shape,
    params: &'a [f64],
    precisions: Vec<f64>,
}

impl LocalTerms for DiagonalTerms<'_> {
    fn class_indices(&self, c: usize) -> Vec<usize> {
        let po = gaussian::precision_offset(self.shape);
        gaussian::class_indices(self.shape, c, po..po + self.shape.n_features)
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
        // Per coordinate as the spherical case: −ρ_j, 2ρ_j δ_j, −2ρ_j δ_j².
        let d = row.len();
        let q = grad.len();
        hess.fill(0.0);
        let mean = &self.params[c * d..(c + 1) * d];
        for j in 0..d {
            let (dj, pj) = (row[j] - mean[j], self.precisions[j]);
            grad[j] = pj * dj;
            grad[d + j] = 1.0 - pj * dj * dj;
            hess[j * q + j] = -pj;
            hess[j * q + d + j] = 2.0 * pj * dj;
            hess[(d + j) * q + j] = 2.0 * pj * dj;
            hess[(d + j) * q + d + j] = -2.0 * pj * dj * dj;
        }
    }
}
