//! Balls1: Gaussian classes with a spherical precision `e^{2ℓ_k} I` each (§5, density 3),
//! `ϑ = (μ, ℓ)`.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut1};

use gendisc_core::Result;
use gendisc_generative::Balls1;

use super::density::{ClassDensities, LocalTerms, Shape};
use super::gaussian::{self, Induced};
use super::{Parametrisation, Priors};
use crate::model::{class_priors_of, fit_maybe_weighted, TrainingSet};
use crate::params::GdtValidParams;

/// Spherical Gaussian classes, one variance each (Balls1).
pub(crate) struct SphericalCovariance;

impl ClassDensities for SphericalCovariance {
    fn len(&self, shape: Shape) -> usize {
        gaussian::precision_offset(shape) + shape.n_classes
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
        let log_scales = &params[po..po + shape.n_classes];
        // Each class's precision e^{2ℓ_c} once, not once per row.
        let precisions: Vec<f64> = log_scales.iter().map(|ls| (2.0 * ls).exp()).collect();
        gaussian::log_densities_into(shape, params, xs, out, |c, diff| {
            let sq: f64 = diff.iter().map(|v| v * v).sum();
            diff.len() as f64 * log_scales[c] - 0.5 * precisions[c] * sq
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
        let mut r = vec![0.0; d];
        for c in 0..k {
            let prec = (2.0 * params[po + c]).exp();
            let mut sq = 0.0;
            let s0 = gaussian::weighted_deviations(shape, params, xs, ws, c, &mut r, |wi, diff| {
                for dj in diff {
                    sq += wi * dj * dj;
                }
            });
            for j in 0..d {
                gradient[c * d + j] += prec * r[j];
            }
            gradient[po + c] += d as f64 * s0 - prec * sq;
        }
    }

    fn local_terms<'a>(&self, shape: Shape, params: &'a [f64]) -> Box<dyn LocalTerms + 'a> {
        let po = gaussian::precision_offset(shape);
        Box::new(SphericalTerms {
            shape,
            params,
            precisions: (0..shape.n_classes)
                .map(|c| (2.0 * params[po + c]).exp())
                .collect(),
        })
    }

    fn generative_start(
        &self,
        p: &GdtValidParams,
        t: &TrainingSet<'_>,
    ) -> Result<(Array1<f64>, bool)> {
        let m = fit_maybe_weighted(
            Balls1::params()
                .n_classes(t.param.n_classes())
                .priors(class_priors_of(t))
                .var_smoothing(p.var_smoothing),
            t,
        )?;
        let theta = t.param.encode(m.class_prior().view(), |params| {
            gaussian::encode_scales(
                t.param.shape(),
                m.means().view(),
                m.variances().view(),
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
        let po = gaussian::precision_offset(shape);
        let precisions = (0..shape.n_classes)
            .map(|c| Array2::eye(shape.n_features) * (2.0 * params[po + c]).exp())
            .collect();
        Some((gaussian::means(shape, params), precisions))
    }
    /// Balls1's log-odds add `‖x‖²` to the linear terms.
    fn induced_extras(&self, _n_features: usize) -> Option<usize> {
        Some(1)
    }

    fn write_induced_extras(&self, row: ArrayView1<'_, f64>, mut out: ArrayViewMut1<'_, f64>) {
        out[0] = row.dot(&row);
    }

    fn maps_back(&self, priors: Priors, n_classes: usize) -> bool {
        gaussian::maps_back(false, priors, n_classes)
    }

    /// `1/σ_k² = 1/σ_0² + t − 2r_k` (`r_k` the coefficient of `‖x‖²`, `t ≥ 0` the least shift
    /// that keeps every precision above half of class 0's starting one),
    /// `μ_k = σ_k² (b_k + μ_0/σ_0²)`; the prior logits make up the intercepts.
    fn map_back(
        &self,
        param: &Parametrisation,
        start: ArrayView1<'_, f64>,
        beta: ArrayView2<'_, f64>,
    ) -> Option<Array1<f64>> {
        let induced = Induced::new(param, start, beta)?;
        let (k, d) = (param.n_classes(), param.n_features());
        let mu0 = &induced.mu0;
        let tau0_start = induced.start_precisions[0][[0, 0]];
        let r = |c: usize| beta[[c, 1 + d]];
        let lowest = (1..k)
            .map(|c| tau0_start - 2.0 * r(c))
            .fold(f64::INFINITY, f64::min);
        let shift = (0.5 * tau0_start - lowest).max(0.0);
        let tau0 = tau0_start + shift;
        let tau: Vec<f64> = (0..k)
            .map(|c| if c == 0 { tau0 } else { tau0 - 2.0 * r(c) })
            .collect();
        let df = d as f64;
        let constant = |t: f64, mu: &Array1<f64>| 0.5 * df * t.ln() - 0.5 * t * mu.dot(mu);
        let c0 = constant(tau0, mu0);
        let mut means = Array2::zeros((k, d));
        let mut logits = Array1::zeros(k);
        means.row_mut(0).assign(mu0);
        for c in 1..k {
            let mu = (&induced.slope(c) + &(mu0 * tau0)) / tau[c];
            logits[c] = induced.intercept(c) - constant(tau[c], &mu) + c0;
            means.row_mut(c).assign(&mu);
        }
        let prior = gaussian::softmax(&logits);
        let variances = Array1::from_iter(tau.iter().map(|t| 1.0 / t));
        Some(param.encode_scales(prior.view(), means.view(), variances.view()))
    }
}

/// [`SphericalCovariance`]'s precisions `e^{2ℓ_k}` for a Hessian evaluation.
struct SphericalTerms<'a> {
    shape: Shape,
    params: &'a [f64],
    precisions: Vec<f64>,
}

impl LocalTerms for SphericalTerms<'_> {
    fn class_indices(&self, c: usize) -> Vec<usize> {
        let po = gaussian::precision_offset(self.shape);
        gaussian::class_indices(self.shape, c, po + c..po + c + 1)
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
        // ∂²/∂μ∂μᵀ = −ρ I, ∂²/∂μ ∂ℓ = 2ρ δ, ∂²/∂ℓ² = −2ρ ‖δ‖², with ρ = e^{2ℓ}.
        let d = row.len();
        let q = grad.len();
        hess.fill(0.0);
        let mean = &self.params[c * d..(c + 1) * d];
        let precision = self.precisions[c];
        let mut sq = 0.0;
        for j in 0..d {
            let dj = row[j] - mean[j];
            sq += dj * dj;
            grad[j] = precision * dj;
            hess[j * q + j] = -precision;
            hess[j * q + d] = 2.0 * precision * dj;
            hess[d * q + j] = 2.0 * precision * dj;
        }
        grad[d] = d as f64 - precision * sq;
        hess[d * q + d] = -2.0 * precision * sq;
    }
}
