//! R's `glm.fit` for `family = binomial(link = "logit")`, step for step, so that a fit stops
//! where R's stops — also on separated data, where the maximum-likelihood estimate does not
//! exist and the answer is decided by glm's stopping rule rather than by the data.
//!
//! Faithful details (R ≥ 2.x, `src/library/stats/R/glm.R` and `src/library/stats/src/family.c`):
//!
//! * start `μ⁽⁰⁾ = (w y + ½) / (w + 1)` (`binomial()$initialize`), `η⁽⁰⁾ = logit μ⁽⁰⁾`;
//! * the inverse link and its derivative are clamped as in R's C code: `exp(η)` is replaced by
//!   `ε` below `η = −30` and by `1/ε` above `30`, and `dμ/dη = ε` outside `[−30, 30]`
//!   (`ε = 2⁻⁵²`);
//! * each iteration solves the weighted least-squares problem with working response
//!   `z = η + (y − μ)/μ′` and weights `W = w μ′² / (μ(1 − μ))`, with no line search;
//! * convergence when `|dev − dev_old| / (|dev| + 0.1) < epsilon`, at most `maxit` iterations
//!   (defaults `1e-8` and 25 from `glm.control()`).
//!
//! Two differences: R solves the least-squares problem by a pivoted QR decomposition and
//! drops aliased (collinear) columns, reporting `NA` coefficients; here the normal equations
//! are solved by Cholesky, and a rank-deficient design is an error. And `exp(η)` is
//! [`exp_in_place`]'s, within one unit in the last place of the C library's that R calls,
//! so that a whole iteration's exponentials vectorise; every formula applied to it is R's.

use gendisc_core::linalg::Cholesky;
use gendisc_core::numerics::{exp_in_place, LnProduct};
use gendisc_core::{Error, Result};
use multiversion::multiversion;
use ndarray::{Array1, Array2, ArrayView1, Axis};

use super::design::Design;

/// `|η|` beyond which R clamps the logit link (`THRESH` in `family.c`).
const THRESH: f64 = 30.0;

/// `exp(η)` clamped as R's logit link clamps it: `ε` below `η = −30`, `1/ε` above `30`
/// (`ε = 2⁻⁵²`).
fn clamped_exp(eta: f64) -> f64 {
    clamp_exp(eta, eta.exp())
}

/// R's clamp of the logit link applied to `e = exp(η)`: `ε` below `η = −30`, `1/ε` above `30`.
#[inline(always)]
fn clamp_exp(eta: f64, e: f64) -> f64 {
    let e = if eta < -THRESH { f64::EPSILON } else { e };
    if eta > THRESH {
        1.0 / f64::EPSILON
    } else {
        e
    }
}

/// R's `logit_linkinv`: `μ = e / (1 + e)` with `e = exp(η)` clamped to `[ε, 1/ε]`
/// (`ε = 2⁻⁵²`), so that `μ ∈ [ε/(1+ε), 1/(1+ε)]`.
///
/// This is also what R's `predict(fit, type = "response")` returns for a binomial `glm`: use it
/// to evaluate a glm-compatible fit exactly as R would, e.g. the logistic loss of a separated
/// fit, which R caps at `−log(ε/(1+ε)) ≈ 36.04` per row.
pub fn r_logit_linkinv(eta: f64) -> f64 {
    let e = clamped_exp(eta);
    e / (1.0 + e)
}

/// How a glm-compatible fit ended.
#[derive(Debug, Clone)]
pub(crate) struct GlmOutcome {
    /// The coefficients `θ` (intercept last).
    pub(crate) theta: Array1<f64>,
    /// glm's `iter`.
    pub(crate) iterations: usize,
    /// glm's `converged`.
    pub(crate) converged: bool,
    /// The least-squares solve produced non-finite coefficients (glm warns and stops).
    pub(crate) non_finite: bool,
}

/// The per-row state of the iteration: the response, the prior weight, the linear predictor
/// `η` and `e = clamped_exp(η)`, from which `μ = e/(1 + e)`, `dμ/dη` and the deviance all
/// follow.
///
/// The per-row quantities are computed by loops over these slices, those with divisions
/// without branches, so that the compiler can evaluate two rows at once; the arithmetic per row is R's, operation for
/// operation, and does not depend on how rows are grouped.
struct Rows {
    y: Vec<f64>,
    w: Vec<f64>,
    eta: Array1<f64>,
    e: Vec<f64>,
    /// Scratch: each row's deviance factor `f_i` (see [`Rows::update`]).
    factor: Vec<f64>,
    /// Whether every prior weight is 1 (no sample weights): the deviance is then one
    /// logarithm of the product of all factors.
    unit_weights: bool,
}

impl Rows {
    /// Recomputes `e` from `η` and returns the deviance.
    ///
    /// R's `binomial_dev_resids` for a 0/1 response is `2 w log f` with `f = 1/μ` when `y = 1`
    /// and `f = 1/(1 − μ)` when `y = 0`.
    /// The logarithms of the unit-weight rows are taken as one logarithm of their product
    /// ([`LnProduct`]): an IRLS step is otherwise as cheap as its transcendental functions.
    fn update(&mut self) -> f64 {
        let eta = self.eta.as_slice().expect("contiguous");
        // Every exponential in one vectorised call, then R's clamp and the deviance factors in
        // one vectorised pass.
        self.e.copy_from_slice(eta);
        exp_in_place(&mut self.e);
        deviance_factors(eta, &self.y, &mut self.e, &mut self.factor);
        let mut log_product = LnProduct::new();
        if self.unit_weights {
            log_product.extend_from_slice(&self.factor);
            return 2.0 * log_product.ln();
        }
        let mut weighted = 0.0;
        for (&f, &w) in self.factor.iter().zip(&self.w) {
            if w == 1.0 {
                log_product.push(f);
            } else if w > 0.0 {
                weighted += w * f.ln();
            }
        }
        2.0 * (log_product.ln() + weighted)
    }

    /// glm's working weights `W_i = w μ′² / (μ(1 − μ))` into `ww` and `W_i z_i` into `wz`,
    /// with the working response `z_i = η_i + (y_i − μ_i)/μ′`, `μ′ = dμ/dη` (R's
    /// `logit_mu_eta`: `e/(1 + e)²`, and `ε` where the link is clamped). Evaluated as R
    /// evaluates it, not simplified (`μ(1 − μ) = μ′` in exact arithmetic), so that the
    /// iterates follow R's.
    fn working(&self, ww: &mut [f64], wz: &mut [f64]) {
        let n = self.y.len();
        let (eta, e) = (&self.eta.as_slice().expect("contiguous")[..n], &self.e[..n]);
        let (y, w, ww, wz) = (&self.y[..n], &self.w[..n], &mut ww[..n], &mut wz[..n]);
        // Branch-free rows in the widest vectors the processor has: the four divisions per
        // row are the loop's cost.
        working_rows(eta, e, y, w, ww, wz);
    }
}

/// R's clamp of `e = exp(η)` and each row's deviance factor: `f = 1/μ` when `y = 1`,
/// `1/(1 − μ)` when `y = 0`, `μ = e/(1 + e)`; compiled for the widest vectors the processor
/// has, with the same bits.
#[multiversion(targets("x86_64+avx512f", "x86_64+avx2"))]
fn deviance_factors(eta: &[f64], y: &[f64], e: &mut [f64], factor: &mut [f64]) {
    for (((e, f), &eta), &y) in e.iter_mut().zip(factor.iter_mut()).zip(eta).zip(y) {
        *e = clamp_exp(eta, *e);
        // R's own arithmetic, `1 − μ` cancellation included: the iterates and the
        // convergence test must see the deviance R sees.
        let mu = *e / (1.0 + *e);
        *f = 1.0 / if y == 1.0 { mu } else { 1.0 - mu };
    }
}

/// Every row of [`Rows::working`], compiled for the widest vectors the processor has (the
/// bits are the baseline build's: Rust neither fuses nor reorders floating-point operations).
#[multiversion(targets("x86_64+avx512f", "x86_64+avx2"))]
fn working_rows(eta: &[f64], e: &[f64], y: &[f64], w: &[f64], ww: &mut [f64], wz: &mut [f64]) {
    for i in 0..eta.len() {
        (ww[i], wz[i]) = working_row(eta[i], e[i], y[i], w[i]);
    }
}

/// One row of [`Rows::working`]: `(W_i, W_i z_i)` from `η_i`, `e_i`, `y_i` and the prior weight.
#[inline(always)]
fn working_row(eta: f64, e: f64, y: f64, w: f64) -> (f64, f64) {
    let one_plus = 1.0 + e;
    // Computed on every row and selected, so that the row is branch-free.
    let unclamped = e / (one_plus * one_plus);
    let d = if eta.abs() > THRESH {
        f64::EPSILON
    } else {
        unclamped
    };
    let mu = e / one_plus;
    let weight = w * d * d / (mu * (1.0 - mu));
    let response = weight * (eta + (y - mu) / d);
    // Rows of zero weight (and `μ′ = 0`, which the clamp rules out) drop out, as in glm's
    // `good` subset.
    let keep = (w > 0.0) & (d != 0.0);
    (
        if keep { weight } else { 0.0 },
        if keep { response } else { 0.0 },
    )
}

/// Runs glm's IRLS. `y ∈ {0, 1}`, weights non-negative.
///
/// Each iteration costs one exponential per row (the deviance's logarithms go through
/// [`LnProduct`], one per block of unit-weight rows) and allocates nothing: the fits of a study
/// are thousands of these small problems, and their time is that arithmetic.
pub(crate) fn glm_irls(
    design: Design<'_>,
    y: ArrayView1<'_, usize>,
    weights: ArrayView1<'_, f64>,
    epsilon: f64,
    max_iterations: usize,
) -> Result<GlmOutcome> {
    let n = design.n_rows();
    let width = design.width();
    // `binomial()$initialize` sets y to 0 where the weight is 0, and starts from
    // μ = (w y + ½) / (w + 1).
    let y: Vec<f64> = y
        .iter()
        .zip(&weights)
        .map(|(&k, &w)| if w == 0.0 { 0.0 } else { k as f64 })
        .collect();
    let start = |y: f64, w: f64| {
        let m = (w * y + 0.5) / (w + 1.0);
        (m / (1.0 - m)).ln()
    };
    // With unit weights there are two starting values, `±log 3`: computed once each.
    let unit_weight_start = [start(0.0, 1.0), start(1.0, 1.0)];
    let eta = y
        .iter()
        .zip(&weights)
        .map(|(&y, &w)| {
            if w == 1.0 {
                unit_weight_start[usize::from(y == 1.0)]
            } else {
                start(y, w)
            }
        })
        .collect();
    let mut rows = Rows {
        y,
        w: weights.to_vec(),
        eta,
        e: vec![0.0; n],
        factor: vec![0.0; n],
        unit_weights: weights.iter().all(|&w| w == 1.0),
    };
    let mut dev_old = rows.update();

    let mut theta = Array1::zeros(width);
    let mut working_weights = Array1::zeros(n);
    let mut weighted_response = Array1::zeros(n);
    let mut gram = Array2::zeros((width, width));
    let mut rhs = Array1::zeros(width);
    let mut iteration = 0;
    while iteration < max_iterations {
        iteration += 1;
        rows.working(
            working_weights.as_slice_mut().expect("contiguous"),
            weighted_response.as_slice_mut().expect("contiguous"),
        );
        design.normal_equations(
            working_weights.view(),
            weighted_response.view(),
            gram.view_mut(),
            rhs.view_mut(),
        );
        let cholesky =
            Cholesky::new(gram.view(), "weighted cross-product X̃ᵀWX̃").map_err(|e| match e {
                Error::NotPositiveDefinite { what, .. } => Error::NotPositiveDefinite {
                    what,
                    detail: Some(format!(
                        "at IRLS iteration {iteration}: the columns of x (with the intercept) \
                         are collinear on the rows of positive weight"
                    )),
                    columns: Vec::new(),
                },
                other => other,
            });
        let solved = match cholesky {
            Ok(c) => c.solve_vec(rhs.view())?,
            // Non-finite weights are glm's "non-finite coefficients" case.
            Err(Error::NonFinite { .. }) => Array1::from_elem(width, f64::NAN),
            Err(e) => return Err(e),
        };
        if solved.iter().any(|v| !v.is_finite()) {
            return Ok(GlmOutcome {
                theta,
                iterations: iteration,
                converged: false,
                non_finite: true,
            });
        }
        theta = solved;
        design.linear_predictor(
            theta.view().insert_axis(Axis(0)),
            rows.eta.view_mut().insert_axis(Axis(1)),
        );
        let dev = rows.update();
        // With the logit link μ is always in (0, 1) and dev finite: glm's step-halving
        // branches cannot trigger.
        if (dev - dev_old).abs() / (dev.abs() + 0.1) < epsilon {
            return Ok(GlmOutcome {
                theta,
                iterations: iteration,
                converged: true,
                non_finite: false,
            });
        }
        dev_old = dev;
    }
    Ok(GlmOutcome {
        theta,
        iterations: iteration,
        converged: false,
        non_finite: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// R's `binomial_dev_resids` for a 0/1 response, as written in `family.c`:
    /// `2 w (y log(y/μ) + (1−y) log((1−y)/(1−μ)))`.
    fn r_deviance_residual(y: f64, mu: f64, w: f64) -> f64 {
        let y_log_y = |y: f64, mu: f64| if y != 0.0 { y * (y / mu).ln() } else { 0.0 };
        2.0 * w * (y_log_y(y, mu) + y_log_y(1.0 - y, 1.0 - mu))
    }

    /// R's `logit_mu_eta`, given `e = exp(η)`.
    fn r_mu_eta(eta: f64, e: f64) -> f64 {
        if eta.abs() > THRESH {
            f64::EPSILON
        } else {
            e / ((1.0 + e) * (1.0 + e))
        }
    }

    #[test]
    fn clamped_link_matches_r() {
        // plogis(-31) in R's glm is eps/(1+eps); plogis(31) is 1/(1+eps).
        assert_eq!(r_logit_linkinv(-31.0), f64::EPSILON / (1.0 + f64::EPSILON));
        assert_eq!(r_logit_linkinv(31.0), 1.0 / (1.0 + f64::EPSILON));
        assert!((r_logit_linkinv(0.3) - 1.0 / (1.0 + (-0.3f64).exp())).abs() < 1e-16);
        assert!((r_deviance_residual(1.0, 0.5, 2.0) - 4.0 * 2f64.ln()).abs() < 1e-15);
        assert_eq!(r_deviance_residual(0.0, 0.3, 0.0), 0.0);
    }

    proptest! {
        /// Inside and outside the clamped range of the link, with unit, zero and other
        /// weights: `exp(η)` within an ulp of libm's (R's), the working weights R's formulas
        /// bit for bit given that exponential, and the deviance R's to round-off.
        #[test]
        fn rows_match_r_formulas(
            rows in prop::collection::vec((-45.0f64..45.0, 0usize..2, 0usize..4), 1..60),
        ) {
            let weight_of = |k: usize| [1.0, 0.0, 2.5, 1.0][k];
            let w: Vec<f64> = rows.iter().map(|r| weight_of(r.2)).collect();
            let mut state = Rows {
                y: rows.iter().map(|r| r.1 as f64).collect(),
                unit_weights: w.iter().all(|&w| w == 1.0),
                w,
                eta: rows.iter().map(|r| r.0).collect(),
                e: vec![0.0; rows.len()],
                factor: vec![0.0; rows.len()],
            };
            let deviance = state.update();
            let (mut all_ww, mut all_wz) = (vec![0.0; rows.len()], vec![0.0; rows.len()]);
            state.working(&mut all_ww, &mut all_wz);
            let mut expected = 0.0;
            for (i, &(eta, y, k)) in rows.iter().enumerate() {
                let (y, w) = (y as f64, weight_of(k));
                expected += r_deviance_residual(y, r_logit_linkinv(eta), w);
                let e = state.e[i];
                let r_e = clamped_exp(eta);
                prop_assert!(e.to_bits().abs_diff(r_e.to_bits()) <= 1, "η = {eta}: {e} vs {r_e}");
                // R's `logit_linkinv` on our exponential.
                let mu = e / (1.0 + e);
                let (ww, wz) = (all_ww[i], all_wz[i]);
                let d = r_mu_eta(eta, e);
                let (r_ww, r_wz) = if w > 0.0 {
                    let ww = w * d * d / (mu * (1.0 - mu));
                    (ww, ww * (eta + (y - mu) / d))
                } else {
                    (0.0, 0.0)
                };
                prop_assert_eq!(ww, r_ww);
                prop_assert_eq!(wz, r_wz);
            }
            prop_assert!(
                (deviance - expected).abs() <= 1e-13 * expected.max(1.0),
                "{deviance} vs {expected}"
            );
        }
    }
}
