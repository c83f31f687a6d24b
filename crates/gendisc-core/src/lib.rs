//! # gendisc-core
//!
//! The vocabulary shared by every gendisc crate:
//!
//! * the traits [`Classifier`], [`ConditionalModel`], [`Generative`] and
//!   [`FactorisedGenerative`], with the posterior of every generative model by Bayes' rule in
//!   log space ([`bayes_log_posterior`]);
//! * the validated params → fit → model flow ([`ParamGuard`], [`Fit`], [`FitWeighted`]);
//! * [`ClassLabels`], the map between user labels and class indices `0..K`, and
//!   [`LabelledModel`], a fitted model that predicts labels;
//! * model files ([`model_file`]): one versioned, validated JSON envelope for every fitted
//!   model ([`SavedModel`]);
//! * the typed [`Error`];
//! * numerics for log-space work ([`numerics`]);
//! * the dense linear-algebra facade ([`linalg`]): pure Rust by default, LAPACK (system
//!   OpenBLAS) with the `lapack` feature.
//!
//! Everything is `f64`.

pub mod error;
pub mod labelled;
pub mod labels;
pub mod linalg;
pub mod model_file;
pub mod numerics;
pub mod traits;
pub mod validate;

pub use error::{Error, Result};
pub use labelled::LabelledModel;
pub use labels::ClassLabels;
pub use model_file::{FitSummary, ModelFile, SavedModel};
pub use traits::{
    argmax_rows, bayes_log_odds, bayes_log_posterior, bayes_predict, log_posterior_from_joint,
    log_posterior_from_scores, Classifier, ConditionalModel, FactorisedGenerative, Fit,
    FitWeighted, Generative, ParamGuard,
};
