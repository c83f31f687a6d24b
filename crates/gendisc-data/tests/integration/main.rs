//! The integration tests of `gendisc-data`, one module per area.
//!
//! They build as one test binary: every test binary compiles and links the crate's whole
//! dependency tree, so one per crate keeps the test build short. One area runs on its own
//! with `cargo test -p gendisc-data --test integration <module>::`.

mod generators_moments;
mod generators_paper_values;
mod loaders_arff;
mod loaders_csv;
mod loaders_libsvm;
mod loaders_properties;
mod loaders_real_data;
mod loaders_support;
mod loaders_uci;
mod splits_properties;
mod splits_replicate_seeds;
mod splits_train_test;
