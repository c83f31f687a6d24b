#![doc = include_str!("../README.md")]

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
