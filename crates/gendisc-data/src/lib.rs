//! # gendisc-data
//!
//! Everything that produces data for gendisc's models and studies:
//!
//! * [`generators`] — multivariate normal and dependent-Bernoulli samplers, the twelve simulated
//!   datasets of Xue & Titterington (§3) and the two simulations of Bouchard & Triggs (§4);
//! * [`splits`] — train/test splits, stratified k-fold, and the per-replicate seeding that makes
//!   a study's results independent of thread count and execution order;
//! * [`loaders`] — readers for UCI `.data`, CSV with a header, Weka ARFF and LIBSVM/svmlight files, whose
//!   errors name file, line and column.

pub mod generators;
pub mod loaders;
pub mod splits;
