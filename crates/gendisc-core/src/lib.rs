#![doc = include_str!("../README.md")]

pub mod convergence;
pub mod error;
pub mod labelled;
pub mod labels;
pub mod linalg;
pub mod model_file;
pub mod numerics;
pub mod traits;
pub mod validate;

pub use convergence::Convergence;
pub use error::{Error, Result};
pub use labelled::LabelledModel;
pub use labels::ClassLabels;
pub use model_file::{
    ColumnEncoding, CrossValidationCurve, FitSummary, InputColumn, ModelFile, Preprocessing,
    SavedModel, Standardisation,
};
pub use traits::{
    argmax_rows, bayes_log_odds, bayes_log_posterior, bayes_predict, log_posterior_from_joint,
    log_posterior_from_scores, Classifier, ConditionalModel, FactorisedGenerative, Fit,
    FitWeighted, Generative, ParamGuard,
};
