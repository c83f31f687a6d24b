//! Hyper-parameters of [`Hybrid`](crate::Hybrid): a builder over the generative model's own
//! parameters, validated before any fitting (the linfa params → fit → model flow).

use serde::{Deserialize, Serialize};

use gendisc_core::{Error, ParamGuard, Result};

/// How a region's log-likelihood ratio is scaled before it is weighted (Raina et al. 2003,
/// end of §2).
///
/// | variant | feature `b_r(x)` | exponent of `p(x^r \| y)` |
/// |---|---|---|
/// | `Normalized` (default) | `(1/n_r) log p(x^r \| y = 1) / p(x^r \| y = 0)` (eq. (8)) | `θ_r / n_r` (eq. (7)) |
/// | `Unnormalized` | `log p(x^r \| y = 1) / p(x^r \| y = 0)` | `θ_r` |
///
/// `n_r` is the number of features in region `r` (`h_r` in Xue & Titterington §2.1). With
/// `θ_r = n_r` (normalized) or `θ_r = 1` (unnormalized) and `θ_0` the log prior ratio, the
/// hybrid is the naive Bayes classifier it was built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Normalization {
    /// Divide each region's log-likelihood ratio by its number of features: Raina et al.'s
    /// *normalized hybrid*.
    #[default]
    Normalized,
    /// Use the log-likelihood ratios as they are: the *unnormalized hybrid*.
    Unnormalized,
}

/// How the intercept `θ_0` (multi-class: the class terms `μ_y`) is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Intercept {
    /// Fitted discriminatively together with the region weights, as the intercept of a
    /// logistic regression on `b` (Raina et al. eq. (9), Xue & Titterington §3.1.1). In the
    /// multi-class form, `μ_1 … μ_{K−1}` are fitted and `μ_0 = 0`.
    #[default]
    Discriminative,
    /// Fixed at the generative model's log prior ratio `log p(y = 1)/p(y = 0)` (the constant
    /// `a` of eq. (8)); only the region weights are fitted, with the prior as an offset. In
    /// the multi-class form, `μ_y = log p(y)`. With leave-one-out, row `i`'s offset is the prior
    /// of the model fitted without row `i`, like its region features.
    LogPriorRatio,
}

/// How the region weights are fitted.
///
/// | solver | fits | classes | intercept | prior |
/// |---|---|---|---|---|
/// | [`Auto`](Self::Auto) (default) | `Glm` if allowed, else `Newton` if allowed, else `Multiclass` | any | any | any |
/// | [`Glm`](Self::Glm) | logistic regression on `b` by R's `glm.fit` (IRLS): Xue & Titterington's implementation (§3.1.2) | 2 | discriminative | none |
/// | [`Newton`](Self::Newton) | logistic regression on `b` by damped Newton | 2 | discriminative | optional |
/// | [`Multiclass`](Self::Multiclass) | the multi-class form by damped Newton | any | any | optional |
///
/// The first three use
/// [`LogisticRegression`](gendisc_discriminative::logistic::LogisticRegression). `Multiclass`
/// maximises the conditional likelihood of `p(y | x) ∝ exp(μ_y) Π_r p(x^r | y)^{λ_r}` (Fujino et
/// al. 2007; Xue & Titterington §2.4) with [`gendisc_optim::Newton`]; for two classes it is the
/// same model and the same estimate, and it is also how a fixed intercept is fitted
/// (logistic regression has no offset).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum ThetaSolver {
    /// `Glm` for two classes, a fitted intercept and no prior; `Newton` for two classes, a
    /// fitted intercept and a prior; `Multiclass` otherwise.
    #[default]
    Auto,
    /// R's `glm(y ~ b_1 + … + b_R, family = binomial)`: stops where glm stops.
    Glm,
    /// Logistic regression on `b` by Newton's method (with the L2 prior when one is set).
    Newton,
    /// The multi-class form, by Newton's method on `(μ, θ)`.
    Multiclass,
}

/// Validated hyper-parameters of the hybrid. Build them with
/// [`Hybrid::params`](crate::Hybrid::params).
///
/// | parameter | default | meaning |
/// |---|---|---|
/// | `generative` | — | the generative model's parameters (any factorised model with [`LeaveOneOut`](gendisc_generative::LeaveOneOut)) |
/// | `regions` | one region of every feature | the regions `x¹ … x^R` as lists of feature indices: non-empty, disjoint, in range; they need not cover every feature |
/// | `normalization` | [`Normalization::Normalized`] | `b_r` with or without `1/n_r` |
/// | `intercept` | [`Intercept::Discriminative`] | `θ_0` fitted, or fixed at the log prior ratio |
/// | `leave_one_out` | `false` | fit `θ` on leave-one-out features (Raina et al. eq. (11)) |
/// | `solver` | [`ThetaSolver::Auto`] | see [`ThetaSolver`] |
/// | `prior_variance` | none | `σ²` of a Gaussian prior `N(0, σ² I)` on `θ_1 … θ_R` (an L2 penalty `Σ θ_r² / (2σ²)`; the intercept is not penalised) |
/// | `tolerance` | the solver's | `Glm`: glm's `epsilon` (`1e-8`); others: gradient norm of the mean objective (`1e-10`) |
/// | `max_iterations` | the solver's | `Glm`: glm's `maxit` (25); others: Newton steps (100) |
/// | `require_convergence` | `false` | stopping at `max_iterations` is an [`Error::NotConverged`] rather than a model whose report says so |
///
/// Every solver of `θ` can stop at `max_iterations` before its stopping rule holds. The fit
/// then returns the hybrid with [`HybridReport::status`](crate::HybridReport::status)
/// `MaxIterations`, unless [`require_convergence`](HybridParams::require_convergence) is set.
///
/// Xue & Titterington (§3.1.1) fit `θ` without leave-one-out, by `glm`: the defaults. Raina et
/// al. use leave-one-out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HybridValidParams<G> {
    pub(crate) generative: G,
    pub(crate) regions: Option<Vec<Vec<usize>>>,
    pub(crate) normalization: Normalization,
    pub(crate) intercept: Intercept,
    pub(crate) leave_one_out: bool,
    pub(crate) solver: ThetaSolver,
    pub(crate) prior_variance: Option<f64>,
    pub(crate) tolerance: Option<f64>,
    pub(crate) max_iterations: Option<usize>,
    /// Absent from parameters serialised before the setting existed, which did not ask.
    #[serde(default)]
    pub(crate) require_convergence: bool,
}

impl<G> HybridValidParams<G> {
    /// The generative model's parameters.
    pub fn generative(&self) -> &G {
        &self.generative
    }
    /// The regions, if set (else one region of every feature).
    pub fn regions(&self) -> Option<&[Vec<usize>]> {
        self.regions.as_deref()
    }
    /// Normalized or unnormalized.
    pub fn normalization(&self) -> Normalization {
        self.normalization
    }
    /// How `θ_0` is set.
    pub fn intercept(&self) -> Intercept {
        self.intercept
    }
    /// Whether `θ` is fitted on leave-one-out features.
    pub fn leave_one_out(&self) -> bool {
        self.leave_one_out
    }
    /// The requested solver.
    pub fn solver(&self) -> ThetaSolver {
        self.solver
    }
    /// The prior variance `σ²` of the region weights, if any.
    pub fn prior_variance(&self) -> Option<f64> {
        self.prior_variance
    }
    /// The tolerance, if set (else the solver's default).
    pub fn tolerance(&self) -> Option<f64> {
        self.tolerance
    }
    /// The iteration cap, if set (else the solver's default).
    pub fn max_iterations(&self) -> Option<usize> {
        self.max_iterations
    }
    /// Whether stopping at the iteration cap is an error.
    pub fn require_convergence(&self) -> bool {
        self.require_convergence
    }
}

/// Builder of [`HybridValidParams`]; see there for the table of parameters. Every setter is
/// unchecked until [`ParamGuard::check`] (or `fit`) validates the whole set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HybridParams<G>(pub(crate) HybridValidParams<G>);

impl<G> HybridParams<G> {
    /// The defaults around the given generative parameters.
    pub fn new(generative: G) -> Self {
        Self(HybridValidParams {
            generative,
            regions: None,
            normalization: Normalization::default(),
            intercept: Intercept::default(),
            leave_one_out: false,
            solver: ThetaSolver::default(),
            prior_variance: None,
            tolerance: None,
            max_iterations: None,
            require_convergence: false,
        })
    }

    /// The same settings around other generative parameters: settings gathered before the
    /// generative model is chosen (from a command line, say, as `HybridParams::new(())`) are then
    /// given to each.
    pub fn with_generative<H>(self, generative: H) -> HybridParams<H> {
        let p = self.0;
        HybridParams(HybridValidParams {
            generative,
            regions: p.regions,
            normalization: p.normalization,
            intercept: p.intercept,
            leave_one_out: p.leave_one_out,
            solver: p.solver,
            prior_variance: p.prior_variance,
            tolerance: p.tolerance,
            max_iterations: p.max_iterations,
            require_convergence: p.require_convergence,
        })
    }

    /// The regions `x¹ … x^R`, each a list of feature indices (default: one region of every
    /// feature, `R = 1`, Raina et al. §5).
    pub fn regions(mut self, regions: Vec<Vec<usize>>) -> Self {
        self.0.regions = Some(regions);
        self
    }

    /// Normalized (default) or unnormalized region features.
    pub fn normalization(mut self, normalization: Normalization) -> Self {
        self.0.normalization = normalization;
        self
    }

    /// `θ_0` fitted (default) or fixed at the log prior ratio.
    pub fn intercept(mut self, intercept: Intercept) -> Self {
        self.0.intercept = intercept;
        self
    }

    /// Fit `θ` on leave-one-out features (default `false`).
    pub fn leave_one_out(mut self, leave_one_out: bool) -> Self {
        self.0.leave_one_out = leave_one_out;
        self
    }

    /// The solver (default [`ThetaSolver::Auto`]).
    pub fn solver(mut self, solver: ThetaSolver) -> Self {
        self.0.solver = solver;
        self
    }

    /// A Gaussian prior `N(0, σ² I)` on the region weights `θ_1 … θ_R`; `σ²` finite and
    /// positive. Not with [`ThetaSolver::Glm`].
    pub fn prior_variance(mut self, variance: f64) -> Self {
        self.0.prior_variance = Some(variance);
        self
    }

    /// No prior: maximum conditional likelihood (the default).
    pub fn no_prior(mut self) -> Self {
        self.0.prior_variance = None;
        self
    }

    /// The convergence tolerance (default: the solver's, see [`HybridValidParams`]).
    pub fn tolerance(mut self, tolerance: f64) -> Self {
        self.0.tolerance = Some(tolerance);
        self
    }

    /// The iteration cap (default: the solver's, see [`HybridValidParams`]). A solver that
    /// reaches it before its stopping rule holds still returns the hybrid, flagged in its
    /// [`HybridReport`](crate::HybridReport), unless
    /// [`require_convergence`](Self::require_convergence) is set.
    pub fn max_iterations(mut self, max_iterations: usize) -> Self {
        self.0.max_iterations = Some(max_iterations);
        self
    }

    /// Whether stopping at the iteration cap is an error (default `false`).
    ///
    /// By default a fit of `θ` that reaches [`max_iterations`](Self::max_iterations) first
    /// returns the weights where it stopped, and only
    /// [`HybridReport::status`](crate::HybridReport::status) (`MaxIterations`) says so. With
    /// `true` the fit fails instead with [`Error::NotConverged`], naming the solver and how far
    /// it was from its criterion.
    pub fn require_convergence(mut self, require: bool) -> Self {
        self.0.require_convergence = require;
        self
    }
}

impl<G> ParamGuard for HybridParams<G> {
    type Checked = HybridValidParams<G>;

    fn check_ref(&self) -> Result<&Self::Checked> {
        let p = &self.0;
        if let Some(regions) = &p.regions {
            check_regions(regions, None)?;
        }
        if let Some(v) = p.prior_variance
            && !(v > 0.0 && v.is_finite())
        {
            return Err(Error::invalid_parameter(
                "prior_variance",
                format!("must be finite and > 0, got {v}"),
            ));
        }
        if let Some(t) = p.tolerance
            && !(t > 0.0 && t.is_finite())
        {
            return Err(Error::invalid_parameter(
                "tolerance",
                format!("must be finite and > 0, got {t}"),
            ));
        }
        if p.max_iterations == Some(0) {
            return Err(Error::invalid_parameter("max_iterations", "must be ≥ 1"));
        }
        if p.solver == ThetaSolver::Glm && p.prior_variance.is_some() {
            return Err(Error::invalid_parameter(
                "solver",
                "Glm is R's unpenalised glm.fit; with a prior use Newton or Multiclass",
            ));
        }
        if matches!(p.solver, ThetaSolver::Glm | ThetaSolver::Newton)
            && p.intercept == Intercept::LogPriorRatio
        {
            return Err(Error::invalid_parameter(
                "solver",
                "a fixed intercept is an offset, which logistic regression does not take: use \
                 Multiclass (or Auto)",
            ));
        }
        Ok(p)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}

/// Validates regions: at least one; each non-empty; no feature twice, within a region or
/// across regions; every index below `n_features` when it is known. Errors name the region
/// and the feature.
pub(crate) fn check_regions(regions: &[Vec<usize>], n_features: Option<usize>) -> Result<()> {
    if regions.is_empty() {
        return Err(Error::invalid_parameter(
            "regions",
            "at least one region is needed",
        ));
    }
    let mut owner: Vec<Option<usize>> = Vec::new();
    for (r, region) in regions.iter().enumerate() {
        if region.is_empty() {
            return Err(Error::invalid_parameter(
                "regions",
                format!("region {r} has no features"),
            ));
        }
        for &j in region {
            if let Some(d) = n_features
                && j >= d
            {
                return Err(Error::invalid_parameter(
                    "regions",
                    format!("region {r} holds feature {j}, but the data have {d} features"),
                ));
            }
            if j >= owner.len() {
                owner.resize(j + 1, None);
            }
            if let Some(first) = owner[j].replace(r) {
                let reason = if first == r {
                    format!("feature {j} appears twice in region {r}")
                } else {
                    format!("feature {j} is in regions {first} and {r}; regions must be disjoint")
                };
                return Err(Error::invalid_parameter("regions", reason));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(e: Error) -> String {
        match e {
            Error::InvalidParameter { reason, .. } => reason,
            other => panic!("unexpected {other}"),
        }
    }

    #[test]
    fn regions_are_validated() {
        assert!(check_regions(&[vec![0, 1], vec![3]], Some(4)).is_ok());
        assert!(reason(check_regions(&[], None).unwrap_err()).contains("at least one"));
        assert!(reason(check_regions(&[vec![0], vec![]], None).unwrap_err())
            .contains("region 1 has no features"));
        assert!(reason(check_regions(&[vec![0, 2, 0]], None).unwrap_err())
            .contains("feature 0 appears twice in region 0"));
        assert!(
            reason(check_regions(&[vec![0, 2], vec![1, 2]], None).unwrap_err())
                .contains("feature 2 is in regions 0 and 1")
        );
        assert!(
            reason(check_regions(&[vec![0], vec![4]], Some(4)).unwrap_err())
                .contains("region 1 holds feature 4")
        );
    }

    #[test]
    fn incompatible_settings_are_refused() {
        let ok = HybridParams::new(());
        assert!(ok.check_ref().is_ok());
        for bad in [
            HybridParams::new(()).prior_variance(0.0),
            HybridParams::new(()).prior_variance(f64::INFINITY),
            HybridParams::new(()).tolerance(-1.0),
            HybridParams::new(()).max_iterations(0),
            HybridParams::new(()).regions(vec![vec![]]),
            HybridParams::new(())
                .solver(ThetaSolver::Glm)
                .prior_variance(1.0),
            HybridParams::new(())
                .solver(ThetaSolver::Newton)
                .intercept(Intercept::LogPriorRatio),
            HybridParams::new(())
                .solver(ThetaSolver::Glm)
                .intercept(Intercept::LogPriorRatio),
        ] {
            assert!(matches!(
                bad.check_ref(),
                Err(Error::InvalidParameter { .. })
            ));
        }
        assert!(HybridParams::new(())
            .solver(ThetaSolver::Multiclass)
            .intercept(Intercept::LogPriorRatio)
            .prior_variance(2.0)
            .check()
            .is_ok());
    }
}
