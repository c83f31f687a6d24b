//! The integration tests of `gendisc-hybrid`, one module per area.
//!
//! They build as one test binary: every test binary compiles and links the crate's whole
//! dependency tree, so one per crate keeps the test build short. One area runs on its own
//! with `cargo test -p gendisc-hybrid --test integration <module>::`.

mod bad_input;
mod golden;
mod model_file;
mod model_traits;
mod properties;
mod require_convergence;
mod shared;
mod support;
