//! The integration tests of `gendisc-bilevel`, one module per area.
//!
//! They build as one test binary: every test binary compiles and links the crate's whole
//! dependency tree, so one per crate keeps the test build short. One area runs on its own
//! with `cargo test -p gendisc-bilevel --test integration <module>::`.

mod bilevel;
mod convergence;
mod model_file;
