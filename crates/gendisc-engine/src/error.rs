//! The error type of the study machinery.
//!
//! Errors of a single cell keep the core [`gendisc_core::Error`] that the study returned and add
//! the cell it happened in; errors of the result store name the file, the line and what did not
//! match; everything else from core (bad parameters, malformed lines) passes through unchanged.

use std::path::PathBuf;

use crate::cell::Cell;
use crate::shard::{Shard, ShardRun};

/// Result alias of this crate.
pub type Result<T, E = StudyError> = std::result::Result<T, E>;

/// One cell that returned an error.
#[derive(Debug)]
pub struct CellFailure {
    /// The cell's position in the study's canonical order.
    pub index: usize,
    /// The cell.
    pub cell: Cell,
    /// What the study reported.
    pub error: gendisc_core::Error,
}

/// Everything that can stop a study run, or the summaries and figures made from it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StudyError {
    /// A validation or parse error from gendisc-core (bad settings, a malformed result line with
    /// its file, line and column, an unreadable file…).
    #[error(transparent)]
    Core(#[from] gendisc_core::Error),

    /// The study definition itself is unusable: no cells, a cell listed twice, an outcome whose
    /// shape does not match the schema…
    #[error("study `{study}` is invalid: {reason}")]
    InvalidStudy {
        /// The study identifier.
        study: String,
        /// What is wrong.
        reason: String,
    },

    /// One or more cells failed. Every cell that finished is in the result store, so fixing the
    /// cause and running again resumes from there.
    #[error("{}", describe_failures(.failures, *.completed, *.total))]
    CellsFailed {
        /// The failures, in canonical cell order.
        failures: Vec<CellFailure>,
        /// Cells with an outcome (resumed or run now) when the run stopped.
        completed: usize,
        /// Cells of the study.
        total: usize,
    },

    /// The result store was written by another study or another configuration of this one.
    #[error(
        "{}: the result store holds {field} `{stored}`, but this run has `{current}`; \
         results of different configurations are never mixed: delete the file, choose another \
         path, or start afresh with `OnMismatch::StartAfresh`",
        .path.display()
    )]
    StoreMismatch {
        /// The result file.
        path: PathBuf,
        /// The header field that differs (`study`, `fingerprint`, `classifiers`, …).
        field: &'static str,
        /// Its value in the file.
        stored: String,
        /// Its value for this run.
        current: String,
    },

    /// The result store holds a cell that the study does not list, although the study and its
    /// fingerprint match. The study's cell list must be a function of its configuration.
    #[error(
        "{}:{line}: {cell} is not a cell of this study, yet the study and its fingerprint match \
         the file's header; include whatever decides the cell list in the fingerprint",
        .path.display()
    )]
    UnknownCell {
        /// The result file.
        path: PathBuf,
        /// Line number (1-based).
        line: usize,
        /// The cell found there.
        cell: Cell,
    },

    /// A measurement is infinite, so it has no mean or interval: the study must decide what an
    /// infinite metric means (clip probabilities, count it apart…) before it is summarised.
    #[error(
        "{cell}: {classifier} / {metric} is {value}, which cannot be summarised with the other \
         replicates"
    )]
    NonFiniteMeasurement {
        /// The cell.
        cell: Cell,
        /// The classifier.
        classifier: String,
        /// The metric.
        metric: String,
        /// The value (an infinity).
        value: f64,
    },

    /// Writing a file failed.
    #[error("cannot write {}: {source}", .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },

    /// A figure could not be drawn.
    #[error("cannot draw {what}: {detail}")]
    Plot {
        /// The figure or panel.
        what: String,
        /// What the drawing backend reported.
        detail: String,
    },

    /// Not a failure: a shard run ([`RunnerSettings::shard`](crate::RunnerSettings::shard))
    /// stored every cell of its shard. A shard has no results of its own — its outcomes are
    /// only a part of the study's — so the run ends here, before any output is written; a merge
    /// of every shard ([`RunnerSettings::merge_shards`](crate::RunnerSettings::merge_shards))
    /// gives the study's results. Holds one run per study when a program runs several studies
    /// in turn and reports their shards together.
    #[error("{}", describe_shards(.0))]
    ShardFinished(Vec<ShardRun>),

    /// A result store given to a merge of shards cannot be merged: it is not a finished shard
    /// of this study's configuration, or it overlaps another.
    #[error("cannot merge {}: {reason}", .path.display())]
    ShardMerge {
        /// The shard's result store.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },

    /// A merge was not given every shard of the split.
    #[error(
        "cannot merge: {} missing (given: {}); every shard of the split must be merged at \
         once",
        describe_missing(.missing, *.count),
        describe_given(.given)
    )]
    ShardsMissing {
        /// The number of shards of the split.
        count: usize,
        /// The shards missing, by number.
        missing: Vec<usize>,
        /// The stores given, with their shards.
        given: Vec<(PathBuf, Shard)>,
    },

    /// The thread pool for a run with an explicit number of threads could not be built.
    #[error("cannot start {threads} worker threads: {detail}")]
    ThreadPool {
        /// Threads requested.
        threads: usize,
        /// What rayon reported.
        detail: String,
    },
}

fn describe_failures(failures: &[CellFailure], completed: usize, total: usize) -> String {
    let mut message = format!(
        "{} cell(s) failed ({completed} of {total} cells have outcomes)",
        failures.len()
    );
    for failure in failures.iter().take(5) {
        message.push_str(&format!("\n  {}: {}", failure.cell, failure.error));
    }
    if failures.len() > 5 {
        message.push_str(&format!("\n  … and {} more", failures.len() - 5));
    }
    message
}

fn describe_shards(runs: &[ShardRun]) -> String {
    let mut message = String::from("finished ");
    let runs: Vec<String> = runs.iter().map(ToString::to_string).collect();
    message.push_str(&runs.join("; "));
    message.push_str(
        "; a shard writes no outputs of its own: merge the stores of every shard to write them",
    );
    message
}

fn describe_missing(missing: &[usize], count: usize) -> String {
    let shards: Vec<String> = missing.iter().map(|i| format!("{i}/{count}")).collect();
    let noun = if missing.len() == 1 {
        "shard"
    } else {
        "shards"
    };
    format!("{noun} {}", shards.join(", "))
}

fn describe_given(given: &[(PathBuf, Shard)]) -> String {
    let stores: Vec<String> = given
        .iter()
        .map(|(path, shard)| format!("{} is shard {shard}", path.display()))
        .collect();
    stores.join(", ")
}

impl StudyError {
    /// Shorthand for [`StudyError::Write`].
    pub(crate) fn write(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        StudyError::Write {
            path: path.into(),
            source,
        }
    }
}
