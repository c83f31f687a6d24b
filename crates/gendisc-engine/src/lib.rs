#![doc = include_str!("../README.md")]

pub mod cell;
pub mod error;
pub mod figure;
pub mod interchange;
pub mod runner;
pub mod shard;
pub mod store;
pub mod study;
pub mod tables;
pub mod verdict;

pub use cell::{Cell, Key, Outcome, Schema};
pub use error::{CellFailure, Result, StudyError};
pub use runner::{OnCellError, Progress, RunReport, Runner, RunnerSettings, StudyResults};
pub use shard::{Shard, ShardRun};
pub use store::{FlushPolicy, OnMismatch};
pub use study::{fingerprint, Study};
pub use tables::{
    format_float, outcomes_csv, write_outcomes_csv, write_text, Spread, Statistic, SummaryRow,
    SummaryTable,
};
