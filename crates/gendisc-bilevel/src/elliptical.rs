//! Propositions 3.1–3.2: the program's constants `β` and `φ` from probabilities, for a chosen
//! elliptical density generator.

use gendisc_core::{Error, Result};

/// The density generator `g` of the elliptical family `E(μ, Σ, g)` used to read `β` and `φ` as
/// probabilities. Only the Gaussian is implemented; the program itself does not depend on `g`
/// (§4: "only constants β and φ depend on it").
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum Generator {
    /// `g(u) = exp(−u/2)`, `c = (2π)^{−n/2}`: the multivariate normal, with `Var(X) = Σ`
    /// (`α_g = 1`).
    Gaussian,
}

impl Generator {
    /// Proposition 3.1: `β_{g,η}` such that `P(wᵀX + b ≥ 0) ≤ η ⇔ −(wᵀμ + b)/‖Σ^{1/2}w‖ ≥ β`.
    ///
    /// For the Gaussian `β = Φ̄^{−1}(η)`, the upper-tail standard normal quantile (`α_g = 1`).
    /// Requires `0 < η < ½` (at `η = ½`, `β = 0` and the constraint is no longer a cone that
    /// bounds `w` away from zero).
    pub fn beta(self, eta: f64) -> Result<f64> {
        if !(eta > 0.0 && eta < 0.5) {
            return Err(Error::invalid_parameter(
                "eta",
                format!("the tail probability must lie in (0, 1/2), got {eta}"),
            ));
        }
        match self {
            Generator::Gaussian => Ok(upper_normal_quantile(eta)),
        }
    }

    /// Proposition 3.2: `φ` such that the density of `E(t, Ω, g)` at `μ` is at least `δ` iff
    /// `‖Ω^{−1/2}(μ − t)‖ ≤ φ`, for an `n`-dimensional `Ω` with `log det Ω = log_det_omega`.
    ///
    /// For the Gaussian, `φ² = −2 ln δ − n ln 2π − ln det Ω`. The paper writes the density as
    /// `c (det Σ)^{−1} g(·)`; we use the normal density as it is, `(2π)^{−n/2} (det Ω)^{−1/2}
    /// exp(−r²/2)`. Fails when `δ` exceeds the density's maximum (no `μ` qualifies).
    pub fn phi(self, delta: f64, dim: usize, log_det_omega: f64) -> Result<f64> {
        if !(delta > 0.0 && delta.is_finite()) {
            return Err(Error::invalid_parameter(
                "delta",
                format!("the density level must be finite and positive, got {delta}"),
            ));
        }
        if !log_det_omega.is_finite() {
            return Err(Error::invalid_parameter(
                "log_det_omega",
                format!("must be finite, got {log_det_omega}"),
            ));
        }
        match self {
            Generator::Gaussian => {
                let n = dim as f64;
                let phi2 =
                    -2.0 * delta.ln() - n * (2.0 * std::f64::consts::PI).ln() - log_det_omega;
                if phi2 < 0.0 {
                    return Err(Error::invalid_parameter(
                        "delta",
                        format!(
                            "{delta} exceeds the maximum density of the hyper-prior \
                             (log density at the mode {:.6})",
                            -0.5 * (n * (2.0 * std::f64::consts::PI).ln() + log_det_omega)
                        ),
                    ));
                }
                Ok(phi2.sqrt())
            }
        }
    }
}

/// Upper-tail standard normal probability `P(Z ≥ z)`.
pub fn upper_normal_tail(z: f64) -> f64 {
    0.5 * libm::erfc(z / std::f64::consts::SQRT_2)
}

/// `z` with `P(Z ≥ z) = p` for `0 < p < 1`, by safeguarded Newton steps on
/// [`upper_normal_tail`] (to about 1e-14 absolute).
fn upper_normal_quantile(p: f64) -> f64 {
    let (mut lo, mut hi) = (-40.0f64, 40.0f64);
    let mut z = 0.0;
    for _ in 0..200 {
        let f = upper_normal_tail(z) - p;
        if f > 0.0 {
            lo = z;
        } else {
            hi = z;
        }
        let density = (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt();
        let mut next = z + f / density;
        if !(next > lo && next < hi) {
            next = 0.5 * (lo + hi);
        }
        if (next - z).abs() <= 1e-15 * (1.0 + z.abs()) {
            return next;
        }
        z = next;
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    #[test]
    fn gaussian_beta_is_the_upper_quantile() {
        // Standard normal table values.
        assert_abs_diff_eq!(
            Generator::Gaussian.beta(0.025).unwrap(),
            1.959963984540054,
            epsilon = 1e-10
        );
        assert_abs_diff_eq!(
            Generator::Gaussian.beta(0.05).unwrap(),
            1.6448536269514722,
            epsilon = 1e-10
        );
        let b = Generator::Gaussian.beta(0.42).unwrap();
        assert_abs_diff_eq!(upper_normal_tail(b), 0.42, epsilon = 1e-14);
        assert!(Generator::Gaussian.beta(0.5).is_err());
        assert!(Generator::Gaussian.beta(0.0).is_err());
        assert!(Generator::Gaussian.beta(f64::NAN).is_err());
    }

    #[test]
    fn gaussian_phi_matches_the_density_level() {
        // In one dimension with Ω = 1, the density at distance φ is δ.
        let delta = 0.1;
        let phi = Generator::Gaussian.phi(delta, 1, 0.0).unwrap();
        let density = (-0.5 * phi * phi).exp() / (2.0 * std::f64::consts::PI).sqrt();
        assert_abs_diff_eq!(density, delta, epsilon = 1e-14);
        // Three dimensions, Ω = diag(2, 3, 4).
        let log_det = (24.0f64).ln();
        let phi = Generator::Gaussian.phi(1e-3, 3, log_det).unwrap();
        let density =
            (2.0 * std::f64::consts::PI).powf(-1.5) / 24f64.sqrt() * (-0.5 * phi * phi).exp();
        assert_abs_diff_eq!(density, 1e-3, epsilon = 1e-15);
        assert!(Generator::Gaussian.phi(1.0, 1, 0.0).is_err());
        assert!(Generator::Gaussian.phi(-1.0, 1, 0.0).is_err());
    }
}
