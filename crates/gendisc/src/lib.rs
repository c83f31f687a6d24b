//! # gendisc
//!
//! Generative, discriminative and hybrid classifiers, and the experiments of the classic papers
//! that compare them. This facade re-exports the workspace's crates behind features, so one
//! dependency gives the whole toolkit:
//!
//! | module | crate | feature |
//! |---|---|---|
//! | [`core`] | `gendisc-core`: traits, labels, errors, numerics, linear algebra | always |
//! | `data` | `gendisc-data`: generators, splits, loaders | `data` (default) |
//! | `metrics` | `gendisc-metrics`: error rate, log loss, Brier, coverage, summaries | `metrics` (default) |
//! | `optim` | `gendisc-optim`: Newton, conjugate gradient, L-BFGS with reports | `optim` (default) |
//! | `generative` | `gendisc-generative`: naive Bayes family, LDA, QDA, Balls1, Balls2 | `generative` (default) |
//! | `discriminative` | `gendisc-discriminative`: logistic regression, linear SVM | `discriminative` (default) |
//! | `hybrid` | `gendisc-hybrid`: Raina et al.'s hybrid | `hybrid` (default) |
//! | `text` | `gendisc-text`: 20 Newsgroups reader, tokenising, stemming, sparse counts | `text` |
//! | `bilevel` | `gendisc-bilevel`: Epshteyn & DeJong's classifier under a generative prior | `bilevel` |
//! | `gdt` | `gendisc-gdt`: Bouchard & Triggs' generative–discriminative trade-off | `gdt` (default) |
//!
//! `use gendisc::prelude::*;` brings the traits, [`LabelledModel`], the error type, ndarray's
//! array types and the most used estimators of the enabled features in one line.
//!
//! The most used items of `gendisc-core` are also at the top level:
//!
//! ```
//! use gendisc::{ClassLabels, Classifier, ConditionalModel, Generative};
//! let (classes, y) = ClassLabels::fit(&["no", "yes", "no"]).unwrap();
//! assert_eq!(classes.n_classes(), 2);
//! assert_eq!(y.to_vec(), vec![0, 1, 0]);
//! ```

pub use gendisc_core as core;
pub use gendisc_core::{
    ClassLabels, Classifier, ConditionalModel, Error, FactorisedGenerative, Fit, FitWeighted,
    Generative, LabelledModel, ParamGuard, Result, SavedModel,
};
/// The ndarray version every gendisc crate is built against: use it (`gendisc::ndarray`) rather
/// than a dependency of your own, and your arrays are always the type the models take.
pub use ndarray;

pub mod prelude;

#[cfg(feature = "data")]
pub use gendisc_data as data;

#[cfg(feature = "metrics")]
pub use gendisc_metrics as metrics;

#[cfg(feature = "optim")]
pub use gendisc_optim as optim;

#[cfg(feature = "generative")]
pub use gendisc_generative as generative;

#[cfg(feature = "discriminative")]
pub use gendisc_discriminative as discriminative;

#[cfg(feature = "hybrid")]
pub use gendisc_hybrid as hybrid;

#[cfg(feature = "bilevel")]
pub use gendisc_bilevel as bilevel;
#[cfg(feature = "gdt")]
pub use gendisc_gdt as gdt;
#[cfg(feature = "text")]
pub use gendisc_text as text;
