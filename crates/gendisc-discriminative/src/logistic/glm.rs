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
//! One difference: R solves the least-squares problem by a pivoted QR decomposition and
//! drops aliased (collinear) columns, reporting `NA` coefficients; here the normal equations
//! are solved by Cholesky, and a rank-deficient design is an error.

use gendisc_core::linalg::Cholesky;
use gendisc_core::{Error, Result};
use ndarray::{Array1, Array2, ArrayView1, Axis, Zip};

use super::design::Design;

/// `|η|` beyond which R clamps the logit link (`THRESH` in `family.c`).
const THRESH: f64 = 30.0;

/// R's `logit_linkinv`: `μ = e / (1 + e)` with `e = exp(η)` clamped to `[ε, 1/ε]`
/// (`ε = 2⁻⁵²`), so that `μ ∈ [ε/(1+ε), 1/(1+ε)]`.
///
/// This is also what R's `predict(fit, type = "response")` returns for a binomial `glm`: use it
/// to evaluate a glm-compatible fit exactly as R would, e.g. the logistic loss of a separated
/// fit, which R caps at `−log(ε/(1+ε)) ≈ 36.04` per row.
pub fn r_logit_linkinv(eta: f64) -> f64 {
    let e = if eta < -THRESH {
        f64::EPSILON
    } else if eta > THRESH {
        1.0 / f64::EPSILON
    } else {
        eta.exp()
    };
    e / (1.0 + e)
}

/// R's `logit_mu_eta`: `dμ/dη = e / (1 + e)²`, and `ε` outside `[−30, 30]`.
fn mu_eta(eta: f64) -> f64 {
    if eta.abs() > THRESH {
        f64::EPSILON
    } else {
        let e = eta.exp();
        let one_plus = 1.0 + e;
        e / (one_plus * one_plus)
    }
}

/// R's `binomial_dev_resids` for a 0/1 response: `2 w (y log(y/μ) + (1−y) log((1−y)/(1−μ)))`.
fn deviance_residual(y: f64, mu: f64, w: f64) -> f64 {
    let y_log_y = |y: f64, mu: f64| if y != 0.0 { y * (y / mu).ln() } else { 0.0 };
    2.0 * w * (y_log_y(y, mu) + y_log_y(1.0 - y, 1.0 - mu))
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

/// Runs glm's IRLS. `y ∈ {0, 1}`, weights non-negative.
pub(crate) fn glm_irls(
    design: Design<'_>,
    y: ArrayView1<'_, usize>,
    weights: ArrayView1<'_, f64>,
    epsilon: f64,
    max_iterations: usize,
) -> Result<GlmOutcome> {
    let n = design.n_rows();
    let width = design.width();
    // `binomial()$initialize` sets y to 0 where the weight is 0.
    let y = Zip::from(&y)
        .and(&weights)
        .map_collect(|&k, &w| if w == 0.0 { 0.0 } else { k as f64 });
    let mu_start = Zip::from(&y)
        .and(&weights)
        .map_collect(|&y, &w| (w * y + 0.5) / (w + 1.0));
    let mut eta = mu_start.mapv(|m| (m / (1.0 - m)).ln());
    let mut mu = eta.mapv(r_logit_linkinv);
    let deviance = |mu: &Array1<f64>| -> f64 {
        Zip::from(&y)
            .and(mu)
            .and(&weights)
            .fold(0.0, |acc, &y, &m, &w| acc + deviance_residual(y, m, w))
    };
    let mut dev_old = deviance(&mu);

    let mut theta = Array1::zeros(width);
    let mut working_weights = Array1::zeros(n);
    let mut weighted_response = Array2::zeros((n, 1));
    let mut gram = Array2::zeros((width, width));
    let mut rhs = Array2::zeros((1, width));
    let mut iteration = 0;
    while iteration < max_iterations {
        iteration += 1;
        Zip::from(&mut working_weights)
            .and(weighted_response.column_mut(0))
            .and(&eta)
            .and(&mu)
            .and(&y)
            .and(&weights)
            .for_each(|ww, wz, &e, &m, &y, &w| {
                let d = mu_eta(e);
                if w > 0.0 && d != 0.0 {
                    *ww = w * d * d / (m * (1.0 - m));
                    *wz = *ww * (e + (y - m) / d);
                } else {
                    *ww = 0.0;
                    *wz = 0.0;
                }
            });
        design.weighted_gram(working_weights.view(), gram.view_mut());
        design.transpose_product(weighted_response.view(), rhs.view_mut());
        let cholesky =
            Cholesky::new(gram.view(), "weighted cross-product X̃ᵀWX̃").map_err(|e| match e {
                Error::NotPositiveDefinite { what, .. } => Error::NotPositiveDefinite {
                    what,
                    detail: Some(format!(
                        "at IRLS iteration {iteration}: the columns of x (with the intercept) \
                         are collinear on the rows of positive weight"
                    )),
                },
                other => other,
            });
        let solved = match cholesky {
            Ok(c) => c.solve_vec(rhs.row(0))?,
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
        let mut eta2 = Array2::zeros((n, 1));
        design.linear_predictor(theta.view().insert_axis(Axis(0)), eta2.view_mut());
        eta = eta2.remove_axis(Axis(1));
        mu = eta.mapv(r_logit_linkinv);
        let dev = deviance(&mu);
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

    #[test]
    fn clamped_link_matches_r() {
        // plogis(-31) in R's glm is eps/(1+eps); plogis(31) is 1/(1+eps).
        assert_eq!(r_logit_linkinv(-31.0), f64::EPSILON / (1.0 + f64::EPSILON));
        assert_eq!(r_logit_linkinv(31.0), 1.0 / (1.0 + f64::EPSILON));
        assert!((r_logit_linkinv(0.3) - 1.0 / (1.0 + (-0.3f64).exp())).abs() < 1e-16);
        assert_eq!(mu_eta(40.0), f64::EPSILON);
        assert!((mu_eta(0.0) - 0.25).abs() < 1e-16);
        assert!((deviance_residual(1.0, 0.5, 2.0) - 4.0 * 2f64.ln()).abs() < 1e-15);
        assert_eq!(deviance_residual(0.0, 0.3, 0.0), 0.0);
    }
}
