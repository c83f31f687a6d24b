#![doc = include_str!("../README.md")]

pub mod paper;
pub mod papers;

pub use paper::{Grid, Need, Paper, PaperInputs, Peers, Ran};

// The engine the reproductions run on — runner, store, tables, figures and the judging method of
// every report (`verdict`) — re-exported, so that code and documents naming these items through
// this crate, as the claims table does, keep working. A program that runs studies of its own
// depends on `gendisc-engine` alone.
#[doc(no_inline)]
pub use gendisc_engine::*;
