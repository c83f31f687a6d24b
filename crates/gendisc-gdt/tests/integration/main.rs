//! The integration tests of `gendisc-gdt`, one module per area.
//!
//! They build as one test binary: every test binary compiles and links the crate's whole
//! dependency tree, so one per crate keeps the test build short. One area runs on its own
//! with `cargo test -p gendisc-gdt --test integration <module>::`.

mod bad_input;
mod convergence;
mod criterion;
mod cv;
mod layout;
mod model_file;
mod newton;
mod optimum;
mod priors;
mod properties;
mod scale;
mod shrinkage;
mod variance_floor;
mod whitening;
