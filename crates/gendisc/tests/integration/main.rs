//! The integration tests of `gendisc`, one module per area.
//!
//! They build as one test binary: every test binary compiles and links the crate's whole
//! dependency tree, so one per crate keeps the test build short. One area runs on its own
//! with `cargo test -p gendisc --test integration <module>::`.

mod damaged;
mod golden;
mod invariants;
mod posteriors;
mod reload;
mod reports;
mod strict;
