//! The integration tests of `gendisc-discriminative`, one module per area.
//!
//! They build as one test binary: every test binary compiles and links the crate's whole
//! dependency tree, so one per crate keeps the test build short. One area runs on its own
//! with `cargo test -p gendisc-discriminative --test integration <module>::`.

mod logistic_bad_input;
mod logistic_cv;
mod logistic_golden;
mod logistic_properties;
mod logistic_scaling;
mod logistic_support;
mod logistic_warm_start;
mod model_file;
mod require_convergence;
mod svm_bad_input;
mod svm_golden;
mod svm_properties;
mod svm_support;
