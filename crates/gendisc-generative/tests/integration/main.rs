//! The integration tests of `gendisc-generative`, one module per area.
//!
//! They build as one test binary: every test binary compiles and links the crate's whole
//! dependency tree, so one per crate keeps the test build short. One area runs on its own
//! with `cargo test -p gendisc-generative --test integration <module>::`.

mod bad_input;
mod common;
mod golden;
mod leave_one_out;
mod model_file;
mod model_traits;
mod properties;
mod scale;
