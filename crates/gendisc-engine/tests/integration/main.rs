//! The integration tests of `gendisc-engine`, one module per area.
//!
//! They build as one test binary: every test binary compiles and links the crate's whole
//! dependency tree, so one per crate keeps the test build short. One area runs on its own
//! with `cargo test -p gendisc-engine --test integration <module>::`.

mod common;
mod figure;
// The crash test kills a child process with SIGKILL.
#[cfg(unix)]
mod kill;
mod runner;
mod shards;
mod tables;
mod verdict_from_results;
mod verdict_properties;
