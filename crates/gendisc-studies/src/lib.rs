//! # gendisc-studies
//!
//! The machinery behind every paper reproduction of gendisc: an experiment described as data,
//! a parallel runner whose results do not depend on the thread count, a result store that lets
//! a killed run resume where it stopped, summaries over replicates, CSV tables and SVG figures.
//!
//! | piece | what it is |
//! |---|---|
//! | [`Study`] | datasets × training sizes × replicates × classifiers → metrics: the ordered [`Cell`]s, the classifier × metric [`Schema`], `run_cell(&cell) → Outcome`, an identifier and a configuration [`fingerprint`] |
//! | [`Runner`] | runs the cells with rayon, appends each finished one to the [`store`], resumes from it, returns [`StudyResults`] in canonical order |
//! | [`store`] | the append-only JSON-lines result file: format, flushing, what a kill can lose, how a damaged file is read |
//! | [`SummaryTable`] | median, quartiles, mean and 95% interval ([`gendisc_metrics::Summary`]) per dataset, training size, classifier and metric; deterministic CSV |
//! | [`verdict`] | one judging method for every report: claims as typed statements judged on paired per-replicate differences, one tie rule, fixed thresholds and a sensitivity check |
//! | [`figure`] | grids of x–y panels with named series, error bars or bands, reference lines and one legend, as SVG |
//! | [`papers`] | the reproductions themselves, one module per paper |
//!
//! ## Determinism
//!
//! Every cell draws its randomness from [`Cell::rng`] — the stream
//! [`replicate_rng`](gendisc_data::splits::replicate_rng)`(seed, [dataset, size, replicate])` of
//! DESIGN.md §Randomness — and from nothing else. So a cell's outcome is the same whichever thread
//! runs it and whenever; the runner returns outcomes in canonical order and, once a study is
//! complete, rewrites its result file in that order. One thread or many, interrupted or not, a
//! study ends with bit-identical outcomes and byte-identical files.
//!
//! ## Example
//!
//! ```
//! use gendisc_studies::figure::{Figure, Panel, Series};
//! use gendisc_studies::{fingerprint, Cell, Outcome, Runner, Schema, Statistic, Study, SummaryTable};
//! use rand::Rng;
//!
//! /// How far the mean of `m` uniform draws falls from ½.
//! struct MeanError { seed: u64, schema: Schema }
//!
//! impl Study for MeanError {
//!     fn id(&self) -> &str { "mean-error" }
//!     fn fingerprint(&self) -> String { fingerprint(&("mean-error v1", self.seed)) }
//!     fn schema(&self) -> &Schema { &self.schema }
//!     fn cells(&self) -> Vec<Cell> { Cell::grid(&["uniform"], &[4, 16, 64], 30) }
//!     fn run_cell(&self, cell: &Cell) -> gendisc_core::Result<Outcome> {
//!         let mut rng = cell.rng(self.seed);
//!         let mean = (0..cell.train_size).map(|_| rng.random::<f64>()).sum::<f64>()
//!             / cell.train_size as f64;
//!         let mut outcome = Outcome::new(&self.schema);
//!         outcome.set(0, 0, (mean - 0.5).abs())?;
//!         Ok(outcome)
//!     }
//! }
//!
//! let study = MeanError { seed: 42, schema: Schema::new(["sample-mean"], ["abs-error"])? };
//! let results = Runner::default().run(&study)?; // add a `store` path to make it resumable
//! let table = SummaryTable::from_results(&results)?;
//! let curve = table.curve("uniform", "sample-mean", "abs-error", Statistic::Median, None);
//! assert_eq!(curve.len(), 3);
//! assert!(curve[2].y < curve[0].y, "the error shrinks as m grows");
//! let csv = table.to_csv()?;
//! assert!(csv.starts_with("dataset,train_size,classifier,metric,n,mean,"));
//! let svg = Figure::new(1, 1)
//!     .panel(Panel::new("uniform").x_label("m").series(Series::new("sample-mean", curve)))
//!     .render_svg()?;
//! assert!(svg.contains("sample-mean"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `examples/toy_study.rs` is the same flow with a result store, CSV files and a figure on disk.

pub mod cell;
pub mod error;
pub mod figure;
pub mod papers;
pub mod runner;
pub mod store;
pub mod study;
pub mod tables;
pub mod verdict;

pub use cell::{Cell, Outcome, Schema};
pub use error::{CellFailure, Result, StudyError};
pub use runner::{OnCellError, Progress, RunReport, Runner, RunnerSettings, StudyResults};
pub use store::{FlushPolicy, OnMismatch};
pub use study::{fingerprint, Study};
pub use tables::{
    format_float, outcomes_csv, write_outcomes_csv, Spread, Statistic, SummaryRow, SummaryTable,
};
