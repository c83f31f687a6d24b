//! # gendisc-generative
//!
//! Generative classifiers: models of the joint `p(x, y) = p(y) p(x | y)` whose posterior follows
//! by Bayes' rule (Bouchard & Triggs 2004, eq. (1)).
//!
//! | model | `p(x \| y = k)` | fit |
//! |---|---|---|
//! | [`GaussianNb`] | `Π_j N(x_j; μ_kj, σ²_kj)`, per-class (QDA-Λ) or pooled (LDA-Λ) variances | closed form |
//! | [`BernoulliNb`] | `Π_j θ_kj^{x_j} (1 − θ_kj)^{1 − x_j}`, `x_j ∈ {0, 1}` | add-α counts |
//! | [`CategoricalNb`] | `Π_j θ_kj[x_j]`, `x_j ∈ 0..L_j` | add-α counts |
//! | [`MultinomialNb`] | `Π_l θ_kl^{x_l}` over word counts (Raina et al. 2003, eq. (4)) | add-α counts, eq. (3) |
//! | [`Lda`] | `N(x; μ_k, Σ)`, one shared full covariance | closed form |
//! | [`Qda`] | `N(x; μ_k, Σ_k)` | closed form |
//! | [`Balls1`] | `N(x; μ_k, σ²_k I)` | closed form |
//! | [`Balls2`] | `Σ_{m=1,2} ω_km N(x; μ_km, σ²_km I)` | EM |
//!
//! Every model follows the same flow: `Model::params()` gives a builder of hyper-parameters,
//! which is validated ([`ParamGuard`](gendisc_core::ParamGuard)) and fitted with
//! [`Fit::fit`](gendisc_core::Fit) or, with sample weights,
//! [`FitWeighted::fit_weighted`](gendisc_core::FitWeighted). The fitted model is immutable,
//! `Send + Sync` and serde-serialisable, and implements
//! [`Classifier`](gendisc_core::Classifier), [`Generative`](gendisc_core::Generative) and
//! [`ConditionalModel`](gendisc_core::ConditionalModel); the naive Bayes family also implements
//! [`FactorisedGenerative`](gendisc_core::FactorisedGenerative) (the likelihood of a region of
//! features, the input of Raina et al.'s hybrid), and the Gaussian models [`SampleJoint`].
//!
//! Every fitted model is also a [`SavedModel`](gendisc_core::SavedModel): with its class labels,
//! [`LabelledModel::save`](gendisc_core::LabelledModel::save) writes it to a model file, and
//! [`LabelledModel::load`](gendisc_core::LabelledModel::load) reads it back only after checking
//! every invariant its fit guarantees (shapes, finite parameters, positive variances, normalised
//! probability tables), so that a corrupted file is an error naming the field.
//!
//! ```
//! use gendisc_core::{ConditionalModel, Fit};
//! use gendisc_generative::Lda;
//! use ndarray::array;
//!
//! let x = array![[0.0, 0.1], [0.3, -0.2], [-0.4, 0.2], [2.0, 2.1], [2.2, 1.7], [1.6, 2.4]];
//! let y = array![0, 0, 0, 1, 1, 1];
//! let lda = Lda::params().fit(x.view(), y.view()).unwrap();
//! let p = lda.predict_proba(array![[1.9, 2.0]].view()).unwrap();
//! assert!(p[[0, 1]] > 0.9);
//! ```
//!
//! Bad input (shape mismatches, NaN or infinite values, labels out of range, a class without
//! rows, fewer rows than a model needs, values outside a model's domain, negative weights) is
//! a typed [`gendisc_core::Error`] naming the argument, row and column — never a panic.

mod common;
mod gaussian;
mod model_file;
mod moments;
mod sampling;
mod unit;

pub mod balls;
pub mod bernoulli_nb;
pub mod categorical_nb;
pub mod gaussian_nb;
pub mod lda;
pub mod leave_one_out;
pub mod multinomial_nb;
pub mod qda;

pub use balls::{
    Balls1, Balls1Params, Balls1ValidParams, Balls2, Balls2Params, Balls2Report, Balls2ValidParams,
    EmReport,
};
pub use bernoulli_nb::{BernoulliNb, BernoulliNbParams, BernoulliNbValidParams};
pub use categorical_nb::{CategoricalNb, CategoricalNbParams, CategoricalNbValidParams};
pub use common::{ClassPriors, VarianceEstimator};
pub use gaussian::CovarianceShrinkage;
pub use gaussian_nb::{GaussianNb, GaussianNbParams, GaussianNbValidParams, VarianceStructure};
pub use lda::{Lda, LdaParams, LdaValidParams};
pub use leave_one_out::{LeaveOneOut, LeaveOneOutFit};
pub use multinomial_nb::{
    sum_regions_sparse, MultinomialNb, MultinomialNbParams, MultinomialNbValidParams,
};
pub use qda::{Qda, QdaParams, QdaValidParams};
pub use sampling::SampleJoint;
