//! Ng & Jordan's question — generative or discriminative, and from which training-set size
//! on? — asked of your own data.
//!
//! The table is re-split at a grid of training sizes, many times per size; every chosen model is
//! fitted on the same stratified training sets and scored on the rows left out. The run goes
//! through the study engine ([`gendisc_engine`]), so it is parallel, gives the same files for a
//! seed whatever the thread count, and resumes after a kill from the result store in the output
//! directory ([`STORE`]). From the per-replicate errors it writes medians with bootstrap
//! intervals, paired differences (discriminative minus generative, same split), the crossover
//! size of each discriminative model over each generative one ([`analysis`] defines it), a
//! learning-curve figure and a report ([`outputs`] lists the files).
//!
//! This crate is the engine behind both `gendisc compare` and Python's `gendisc.compare`, so
//! the two give the same numbers for the same data, design and seed.
//!
//! ```no_run
//! use gendisc_compare::{compare, CompareStudy, DataDescription, Design, ModelKind, RunOptions};
//! use ndarray::{array, Array1};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let x = array![[0.1, 1.0], [0.3, 0.8], [1.2, 0.1], [1.4, 0.3], [0.2, 0.9], [1.1, 0.2]];
//! let y = Array1::from(vec![0, 0, 1, 1, 0, 1]);
//! let design = Design {
//!     sizes: vec![2, 4],
//!     replicates: 20,
//!     seed: 2001,
//!     models: vec![ModelKind::NaiveBayes, ModelKind::Logistic],
//!     max_test: None,
//!     shrinkage: None,
//! };
//! let study = CompareStudy::new(x, y, design)?;
//! let data = DataDescription {
//!     file: "toy",
//!     target: "class",
//!     features: vec!["a", "b"],
//!     categorical: vec![],
//!     classes: vec!["no".into(), "yes".into()],
//!     class_counts: vec![3, 3],
//! };
//! let comparison = compare(&study, &data, "comparison".as_ref(), &RunOptions::default())?;
//! for pair in &comparison.analysis.pairs {
//!     println!("{} over {}: {:?}", pair.discriminative, pair.generative, pair.crossover);
//! }
//! # Ok(())
//! # }
//! ```

pub mod analysis;
pub mod models;
pub mod outputs;
pub mod study;

use std::path::{Path, PathBuf};

use gendisc_engine::{OnMismatch, Progress, RunReport, Runner, RunnerSettings, Shard, StudyError};

pub use analysis::{analyse, Analysis, Crossover};
pub use models::{ModelKind, Role};
pub use outputs::DataDescription;
pub use study::{default_sizes, CompareStudy, Design};

/// The result store in the output directory, from which an interrupted run resumes.
pub const STORE: &str = "cells.jsonl";

/// Training sizes of the default grid.
pub const DEFAULT_GRID_POINTS: usize = 10;

/// How a comparison runs, as opposed to what it computes ([`Design`]).
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Worker threads; `None` (the default) uses one per CPU. The results do not depend on it.
    pub threads: Option<usize>,
    /// The progress bar on standard error (default [`Progress::Auto`]: shown on a terminal).
    pub progress: Progress,
    /// Run only this shard of the cells and store it, writing no other output; the run then
    /// ends with [`StudyError::ShardFinished`]. A shard never replaces the store of another
    /// run ([`OnMismatch::Fail`]).
    pub shard: Option<Shard>,
    /// The output directories of every shard of one split, to merge into a single run's
    /// outputs instead of running cells.
    pub merge: Vec<PathBuf>,
}

/// A finished comparison: how the run went and what the results say.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// Cells run and resumed, and the run's time.
    pub report: RunReport,
    /// Medians, paired differences and crossover sizes.
    pub analysis: Analysis,
}

/// Runs (or resumes) the comparison `study` into the directory `out` (created if needed) and
/// writes every output file there ([`outputs::write_all`]).
///
/// A store in `out` of another configuration (other models, sizes, seed or data) is replaced,
/// and [`RunReport::discarded_mismatched_store`] says so — except by a shard run, which fails
/// instead.
pub fn compare(
    study: &CompareStudy,
    data: &DataDescription<'_>,
    out: &Path,
    options: &RunOptions,
) -> Result<Comparison, StudyError> {
    std::fs::create_dir_all(out).map_err(|source| StudyError::Write {
        path: out.to_owned(),
        source,
    })?;
    let runner = Runner::new(RunnerSettings {
        threads: options.threads,
        progress: options.progress,
        store: Some(out.join(STORE)),
        on_mismatch: if options.shard.is_some() {
            OnMismatch::Fail
        } else {
            OnMismatch::StartAfresh
        },
        shard: options.shard,
        merge_shards: options.merge.iter().map(|dir| dir.join(STORE)).collect(),
        ..RunnerSettings::default()
    })?;
    let results = runner.run(study)?;
    let design = study.design();
    let analysis = analyse(&results, &design.sizes, &design.models, design.seed)?;
    outputs::write_all(out, data, study, &results, &analysis)?;
    Ok(Comparison {
        report: results.report().clone(),
        analysis,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array1, Array2};
    use rand::{Rng, SeedableRng};

    /// Two Gaussian classes of 30 rows in three columns, means one apart.
    fn table() -> (Array2<f64>, Array1<usize>) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let y = Array1::from_iter((0..60).map(|i| i % 2));
        let x = Array2::from_shape_fn((60, 3), |(i, _)| {
            y[i] as f64 + rng.sample::<f64, _>(rand_distr::StandardNormal)
        });
        (x, y)
    }

    #[test]
    fn a_comparison_writes_its_files_and_a_second_run_resumes_them() {
        let (x, y) = table();
        let design = Design {
            sizes: vec![6, 20, 40],
            replicates: 5,
            seed: 9,
            models: vec![ModelKind::NaiveBayes, ModelKind::Logistic, ModelKind::Lda],
            max_test: None,
            shrinkage: None,
        };
        let study = CompareStudy::new(x, y, design).unwrap();
        let data = DataDescription {
            file: "two Gaussians",
            target: "class",
            features: vec!["a", "b", "c"],
            categorical: vec![],
            classes: vec!["0".into(), "1".into()],
            class_counts: vec![30, 30],
        };
        let out = tempfile::tempdir().unwrap();
        let first = compare(&study, &data, out.path(), &RunOptions::default()).unwrap();
        assert_eq!((first.report.cells, first.report.ran), (15, 15));
        // One pair per discriminative model over each generative one.
        assert_eq!(first.analysis.pairs.len(), 2);
        for file in [
            STORE,
            outputs::REPLICATES_CSV,
            outputs::SUMMARY_CSV,
            outputs::DIFFERENCES_CSV,
            outputs::CROSSOVER_CSV,
            outputs::FIGURE_SVG,
            outputs::REPORT_MD,
        ] {
            assert!(out.path().join(file).is_file(), "{file}");
        }
        let summary = std::fs::read(out.path().join(outputs::SUMMARY_CSV)).unwrap();
        let again = compare(&study, &data, out.path(), &RunOptions::default()).unwrap();
        assert_eq!((again.report.ran, again.report.resumed), (0, 15));
        assert_eq!(again.analysis, first.analysis);
        assert_eq!(
            std::fs::read(out.path().join(outputs::SUMMARY_CSV)).unwrap(),
            summary
        );
    }

    /// A model that fails at every size (here LDA, with more columns than its pooled
    /// covariance has rows to estimate them from) still leaves a report and a figure.
    #[test]
    fn a_model_that_fails_at_every_size_still_gets_its_report_and_figure() {
        let (x, y) = table();
        let wide = ndarray::concatenate![ndarray::Axis(1), x, x.mapv(|v| v * v), x.mapv(f64::sin)];
        let design = Design {
            sizes: vec![6, 8],
            replicates: 3,
            seed: 9,
            models: vec![ModelKind::Lda, ModelKind::Logistic],
            max_test: None,
            shrinkage: None,
        };
        let study = CompareStudy::new(wide, y, design).unwrap();
        let names: Vec<String> = (0..9).map(|j| format!("v{j}")).collect();
        let data = DataDescription {
            file: "nine columns",
            target: "class",
            features: names.iter().map(String::as_str).collect(),
            categorical: vec![],
            classes: vec!["0".into(), "1".into()],
            class_counts: vec![30, 30],
        };
        let out = tempfile::tempdir().unwrap();
        let run = compare(&study, &data, out.path(), &RunOptions::default()).unwrap();
        assert!(run
            .analysis
            .summaries
            .iter()
            .filter(|s| s.model == ModelKind::Lda)
            .all(|s| s.error.is_none()));
        let figure = std::fs::read_to_string(out.path().join(outputs::FIGURE_SVG)).unwrap();
        assert!(
            figure.starts_with("<svg"),
            "{}",
            &figure[..80.min(figure.len())]
        );
        let report = std::fs::read_to_string(out.path().join(outputs::REPORT_MD)).unwrap();
        assert!(
            report.contains("`lda` at m = 8: 3 of 3 replicates failed"),
            "{report}"
        );
    }
}
