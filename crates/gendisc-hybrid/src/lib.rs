//! # gendisc-hybrid
//!
//! The hybrid generative/discriminative classifier of Raina, Shen, Ng & McCallum (2003): a
//! factorised generative model (naive Bayes) supplies the likelihood of each *region* of the
//! features, and a handful of weights — one per region, plus an intercept — are fitted
//! discriminatively.
//!
//! With regions `x¹ … x^R` of `n_1 … n_R` features, the two-class hybrid is a logistic
//! regression on the region log-likelihood ratios (eqs. (8)–(9)):
//!
//! ```text
//! p(y = 1 | x) = σ(θ_0 + θ_1 b_1(x) + … + θ_R b_R(x)),
//! b_r(x) = (1/n_r) log p(x^r | y = 1) / p(x^r | y = 0)      (normalized; unnormalized without 1/n_r)
//! ```
//!
//! where `p(x^r | y)` comes from the generative model fitted on the training set. With
//! `θ = (log p(y = 1)/p(y = 0), n_1, …, n_R)` (normalized) this is exactly the naive Bayes
//! posterior; fitting `θ` lets regions count more or less than their number of features, and
//! corrects naive Bayes' overconfidence (Raina et al. §2, §5). For `K` classes the same model
//! is `p(y | x) ∝ exp(μ_y) Π_r p(x^r | y)^{λ_r}` with `λ_r = θ_r / n_r` (Fujino et al. 2007;
//! Xue & Titterington §2.4).
//!
//! | option | choices | default |
//! |---|---|---|
//! | regions | disjoint lists of feature indices | one region of every feature |
//! | [`Normalization`] | `Normalized`, `Unnormalized` | `Normalized` |
//! | [`Intercept`] | `θ_0` fitted (eq. (9)), or fixed at the log prior ratio (eq. (8)) | fitted |
//! | leave-one-out | `θ` fitted on features of row `i` from the model without row `i` (eq. (11)) | off |
//! | [`ThetaSolver`] | R's `glm`, Newton (logistic regression), the multi-class form | `glm` for two classes |
//! | prior | Gaussian prior `N(0, σ²)` on `θ_1 … θ_R` (L2) | none |
//!
//! Any generative model whose parameters implement
//! [`LeaveOneOut`](gendisc_generative::LeaveOneOut) can be used: Gaussian, Bernoulli and
//! categorical naive Bayes. The fitted [`Hybrid`] implements
//! [`Classifier`](gendisc_core::Classifier) and
//! [`ConditionalModel`](gendisc_core::ConditionalModel) with its own posterior, reports how the
//! fit went ([`HybridReport`]: status, iterations, separation, aliased regions), and is
//! `Send + Sync` and serde-serialisable.
//!
//! ## Usage
//!
//! ```
//! use gendisc_core::{ConditionalModel, Fit};
//! use gendisc_generative::GaussianNb;
//! use gendisc_hybrid::{Hybrid, Normalization};
//! use ndarray::array;
//!
//! // Two regions of two features each, as in Xue & Titterington's simulations.
//! let x = array![
//!     [1.2, 0.3, 0.8, -0.1], [0.9, -0.4, 0.2, 0.5], [1.6, 0.1, 0.9, 0.3], [0.4, 0.6, 0.1, -0.6],
//!     [-1.1, 0.2, -0.7, 0.4], [-0.8, -0.5, -0.3, -0.2], [-1.5, 0.4, 0.2, 0.1], [0.3, -0.1, -0.9, 0.3],
//! ];
//! let y = array![0, 0, 0, 0, 1, 1, 1, 1];
//! let hybrid = Hybrid::params(GaussianNb::params())
//!     .regions(vec![vec![0, 1], vec![2, 3]])
//!     .normalization(Normalization::Normalized)
//!     .fit(x.view(), y.view())?;
//! // θ = (θ_0, θ_1, θ_2), fitted by R's glm algorithm.
//! let theta = hybrid.theta()?;
//! assert_eq!(theta.len(), 3);
//! assert!(hybrid.report().unwrap().status.is_converged());
//! let p = hybrid.predict_proba(array![[1.0, 0.0, 0.5, 0.0]].view())?;
//! assert!(p[[0, 0]] > 0.5);
//! # Ok::<(), gendisc_core::Error>(())
//! ```
//!
//! ## Text: regions as count matrices
//!
//! For documents whose regions are separate sparse count matrices over one vocabulary (a
//! posting's subject and body), [`HybridParams::fit_sparse`] fits a [`SparseHybrid`] over
//! multinomial naive Bayes, with `n_r` the number of words of region `r` in each document
//! (Raina et al. §2) and leave-one-out features from downdated counts (footnote 5).
//!
//! ## Several hybrids over one generative model
//!
//! Hybrids that differ only in normalization, solver or prior share their naive Bayes model
//! and its region log-likelihoods: [`HybridParams::fit_from`] builds a hybrid on an
//! already-fitted model, [`RegionLikelihoods`] holds the region log-likelihoods of a set of
//! rows once, [`HybridParams::fit_on`] fits `θ` on the training rows' and
//! [`Hybrid::decision_function_on`] evaluates on other rows'. The results are bit for bit those
//! of `fit` and `decision_function`.
//!
//! ## Matching R
//!
//! Xue & Titterington (§3.1.2) fit the naive Bayes part with `e1071::naiveBayes` and `θ` with
//! `glm(y ~ b1 + b2, family = binomial)`. The same here is
//! `Hybrid::params(GaussianNb::params().variance_estimator(VarianceEstimator::Unbiased))`
//! (e1071's `sd()` divides by `n − 1`) with the default solver, R's `glm.fit`
//! ([`ThetaSolver::Glm`]), which stops where glm stops. For discrete data, e1071's
//! `laplace = 1` is [`BernoulliNb`](gendisc_generative::BernoulliNb)'s default `α = 1`.
//!
//! Bad input — shape mismatches, NaN or infinite values, labels out of range, a class without
//! rows, invalid regions (empty, out of range, repeated or overlapping), a feature value the
//! generative model gives probability zero — is a typed [`gendisc_core::Error`] naming what
//! and where; never a panic.

mod features;
mod fit;
mod model;
mod multiclass;
mod params;
mod shared;
mod sparse;

pub use model::{Hybrid, HybridReport};
pub use params::{HybridParams, HybridValidParams, Intercept, Normalization, ThetaSolver};
pub use shared::RegionLikelihoods;
pub use sparse::{SparseHybrid, SparseRegionGenerative};
