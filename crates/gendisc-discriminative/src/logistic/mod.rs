//! Logistic regression: binary and multinomial, dense and sparse, with an optional Gaussian
//! prior, fitted by Newton's method (IRLS), L-BFGS, conjugate gradient, or R's `glm.fit`.
//!
//! # Model
//!
//! For two classes, one linear predictor, the log-odds of class 1:
//!
//! ```text
//! p(y = 1 | x) = σ(xᵀw + b),   σ(t) = 1 / (1 + e^{−t})
//! ```
//!
//! For `K > 2` classes, the softmax of `K` linear predictors `η_k = xᵀw_k + b_k`:
//! `p(y = k | x) = exp(η_k) / Σ_l exp(η_l)`. (Two classes always use the binary form: its
//! single `w` is the softmax's `w_1 − w_0`.)
//!
//! The fit minimises, over the weights `w` and intercepts `b`,
//!
//! ```text
//! −Σ_i s_i log p(y_i | x_i) + Σ_k ‖w_k‖² / (2σ²)
//! ```
//!
//! with sample weights `s_i` (1 by default; a weight counts a row that many times) and, when a
//! prior variance `σ²` is set, the penalty of a Gaussian prior `w_k ~ N(0, σ² I)`: the result
//! is then the maximum a-posteriori estimate. The intercept is not penalised unless asked
//! ([`LogisticRegressionParams::penalize_intercept`]). Without a prior this is maximum
//! likelihood, as R's `glm(family = binomial)`.
//!
//! ## Parametrisation of the multinomial model
//!
//! The softmax is unchanged when the same vector is added to every `(w_k, b_k)`, so not every
//! parametrisation is identified:
//!
//! * **no prior** — class 0 is the reference category: `w_0 = 0`, `b_0 = 0`, and `(w_k, b_k)`
//!   are the log-odds of class `k` against class 0 (R's `nnet::multinom`);
//! * **with a prior** — all `K` weight vectors are penalised, hence identified (at the optimum
//!   they sum to zero); the unpenalised intercepts are fixed by making them sum to zero. This
//!   is scikit-learn's symmetric parametrisation, so the coefficients match its `coef_` and
//!   `intercept_`. With a penalised intercept, all of `(w_k, b_k)` are identified.
//!
//! ## Correspondence with scikit-learn and R
//!
//! * scikit-learn's `LogisticRegression(C=…)` minimises `C Σ_i s_i ℓ_i + ½ Σ_k ‖w_k‖²`, the
//!   same problem with **`σ² = C`**. Its intercept is unpenalised for the `lbfgs`,
//!   `newton-cg` and `newton-cholesky` solvers, as here.
//! * R's `glm(y ~ x, family = binomial, weights = s)` is the unpenalised binary model; the
//!   default solver converges to the same coefficients (to its tolerance), and
//!   [`LogisticSolver::GlmIrls`] reproduces glm's iterations themselves.
//!
//! # Solvers
//!
//! See [`LogisticSolver`]. By default, Newton's method when the number of coefficients is at
//! most [`AUTO_NEWTON_MAX_COEFFICIENTS`], else L-BFGS (which never forms a Hessian: use it for
//! sparse text data with many words). Each gradient-based solver stops when the gradient norm
//! of the *mean* objective (the above divided by `Σ_i s_i`) falls below its tolerance.
//!
//! Every solver may instead stop at its iteration cap: the fit then returns the coefficients
//! where it stopped, with [`FitReport::status`] `MaxIterations` (and so
//! [`is_converged`](gendisc_core::Convergence::is_converged) false).
//! [`LogisticRegressionParams::require_convergence`] makes
//! that an [`Error::NotConverged`](gendisc_core::Error::NotConverged) instead.
//!
//! # Separation
//!
//! When a hyperplane separates the classes (complete separation), or separates them except for
//! rows lying on it (quasi-complete separation), the likelihood keeps increasing as the
//! weights grow along that direction, and the unpenalised maximum-likelihood estimate does not
//! exist (Albert & Anderson 1984). An unpenalised fit on such data **does not fail**: the
//! solver stops where its criterion says (Newton: when the gradient vanishes numerically; glm:
//! when the deviance stops changing) — never in an endless loop, never with NaN — and the fit
//! report sets [`FitReport::separated`]; the fit's status
//! ([`Convergence::status`](gendisc_core::Convergence::status)) is then
//! [`NoFiniteMinimiser`](gendisc_optim::Status::NoFiniteMinimiser): it did not converge,
//! because there is nothing to converge to. Its coefficients are then meaningful in direction
//! only. **The remedy is a prior**: any finite `σ²` makes the estimate exist and be unique.
//!
//! Separation is detected by two certificates (see `separation.rs`): the fitted linear
//! predictors classifying every training row correctly (complete separation), or the Newton
//! direction at the returned coefficients being a direction of recession of the likelihood —
//! raising no row's loss and lowering some (quasi-complete separation; checked up to 1024
//! coefficients).
//!
//! # Example
//!
//! ```
//! use gendisc_core::{Classifier, ConditionalModel, Convergence, Fit};
//! use gendisc_discriminative::logistic::LogisticRegression;
//! use ndarray::array;
//!
//! let x = array![[0.5], [1.0], [1.5], [2.0], [2.5], [3.0], [3.5], [4.0]];
//! let y = array![0, 0, 1, 0, 1, 0, 1, 1];
//! let model = LogisticRegression::params().fit(x.view(), y.view())?;
//! assert!(model.report().is_converged() && !model.report().saturated);
//! let p = model.predict_proba(array![[0.0], [5.0]].view())?;
//! assert!(p[[0, 1]] < 0.5 && p[[1, 1]] > 0.5);
//! # Ok::<(), gendisc_core::Error>(())
//! ```

mod cv;
mod design;
mod fit;
mod glm;
mod model;
mod objective;
mod params;
pub mod separation;
mod sparse;
mod standardised;

pub use cv::{
    default_prior_variances, LogisticRegressionCv, LogisticRegressionCvParams,
    LogisticRegressionCvValidParams, PriorVarianceSelection,
};
pub use glm::r_logit_linkinv;
pub use model::{recorded_run, separation_warnings, FitReport, LogisticRegression};
pub use params::{
    LogisticRegressionParams, LogisticRegressionValidParams, LogisticSolver,
    AUTO_NEWTON_MAX_COEFFICIENTS,
};
