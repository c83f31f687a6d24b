//! The [`Runner`]: runs a study's cells in parallel, stores each finished cell, resumes an
//! interrupted run, and returns every outcome in canonical order.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use gendisc_core::Error;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::cell::{Cell, Outcome, Schema};
use crate::error::{CellFailure, Result, StudyError};
use crate::shard::{Shard, ShardRun};
use crate::store::{self, Appender, FlushPolicy, Header, OnMismatch};
use crate::study::Study;

/// Whether the runner draws a progress bar on standard error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Progress {
    /// Only when standard error is a terminal (the default), so logs and CI output stay clean.
    #[default]
    Auto,
    /// Never.
    Never,
}

/// What the runner does when a cell returns an error.
///
/// Either way, every cell that finished is in the result store, the run ends with
/// [`StudyError::CellsFailed`] listing the failed cells in canonical order, and running again
/// (after fixing the cause) resumes from the store and retries only the cells without an
/// outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnCellError {
    /// Start no further cell; the cells already running finish and are stored (the default: an
    /// error usually means a bug or a missing file, which every other cell will hit too).
    #[default]
    Stop,
    /// Run every other cell, then report all failures.
    Continue,
}

/// The settings of a [`Runner`]; every field has a documented default.
///
/// ```
/// use gendisc_engine::{Runner, RunnerSettings};
/// let runner = Runner::new(RunnerSettings {
///     threads: Some(2),
///     store: Some("results/coin/results.jsonl".into()),
///     ..RunnerSettings::default()
/// })?;
/// assert_eq!(runner.settings().threads, Some(2));
/// # Ok::<(), gendisc_engine::StudyError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct RunnerSettings {
    /// Worker threads. `None` (the default) runs in the current rayon pool — the global one,
    /// sized by rayon (`RAYON_NUM_THREADS` or the number of CPUs), or the pool of an enclosing
    /// `ThreadPool::install`. `Some(n)` builds a pool of `n ≥ 1` threads for the run.
    pub threads: Option<usize>,
    /// Progress bar on standard error; default [`Progress::Auto`].
    pub progress: Progress,
    /// The result store (see [`store`]). `None` (the default) keeps outcomes in
    /// memory only: nothing to resume from.
    pub store: Option<PathBuf>,
    /// What to do with a store written by another study or configuration; default
    /// [`OnMismatch::Fail`].
    pub on_mismatch: OnMismatch,
    /// How often finished cells reach the store; default [`FlushPolicy::default`].
    pub flush: FlushPolicy,
    /// What a cell error does to the run; default [`OnCellError::Stop`].
    pub on_cell_error: OnCellError,
    /// Run only this shard of the study's cells (see [`shard`](crate::shard)); `None` (the
    /// default) runs them all. The store then holds the shard's cells under a header that names
    /// the shard, and the run ends with [`StudyError::ShardFinished`] rather than results.
    pub shard: Option<Shard>,
    /// The result stores of every shard of one split of the study, to merge: each is checked
    /// (study, fingerprint, schema, format version, a complete shard of the same split, no
    /// overlap, no shard missing), their outcomes become the study's, written to
    /// [`store`](Self::store) in canonical order, and the run goes on as if every cell had been
    /// resumed. Empty (the default) merges nothing.
    pub merge_shards: Vec<PathBuf>,
}

/// Runs studies: cells in parallel with rayon, each finished cell appended to the result store,
/// outcomes returned in canonical cell order.
///
/// **Determinism.** The runner never draws random numbers and never lets one cell see another's
/// state, so if the study follows the [`Study`] contract (randomness from [`Cell::rng`] only),
/// outcomes are bit-identical for any thread count, any execution order and any number of
/// interruptions — and so is the finished result file, which the runner rewrites in canonical
/// order once every cell has an outcome.
///
/// **Resuming.** With a store, a run first reads the outcomes already there (see
/// [`store`] for the rules) and runs only the missing cells; a run whose store is
/// complete just reads it back.
#[derive(Debug, Clone, Default)]
pub struct Runner {
    settings: RunnerSettings,
}

/// How a run went: what was resumed, what was run, what the store reader had to repair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunReport {
    /// Cells of the study.
    pub cells: usize,
    /// Cells whose outcome was read back from the store.
    pub resumed: usize,
    /// Cells run by this call.
    pub ran: usize,
    /// Store lines ignored because their cell was already read.
    pub duplicate_lines: usize,
    /// Whether an incomplete last line (a crash during a write) was discarded.
    pub discarded_partial_line: bool,
    /// Whether a store of another configuration was discarded ([`OnMismatch::StartAfresh`]).
    pub discarded_mismatched_store: bool,
    /// Wall-clock time of the call.
    pub elapsed: Duration,
}

/// Every outcome of a study, in canonical cell order, with the run's report.
#[derive(Debug, Clone)]
pub struct StudyResults {
    study: String,
    fingerprint: String,
    schema: Schema,
    cells: Vec<Cell>,
    outcomes: Vec<Outcome>,
    report: RunReport,
}

impl StudyResults {
    /// The study identifier.
    pub fn study(&self) -> &str {
        &self.study
    }

    /// The study's configuration fingerprint.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// The classifiers and metrics.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The cells, in canonical order.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The outcomes, one per cell, in canonical order.
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }

    /// `(cell, outcome)` pairs in canonical order.
    pub fn iter(&self) -> impl Iterator<Item = (&Cell, &Outcome)> + '_ {
        self.cells.iter().zip(&self.outcomes)
    }

    /// How the run went.
    pub fn report(&self) -> &RunReport {
        &self.report
    }

    /// Whether both hold the same study, fingerprint, schema, cells and bit-identical outcomes
    /// (reports may differ).
    pub fn bitwise_eq(&self, other: &Self) -> bool {
        self.study == other.study
            && self.fingerprint == other.fingerprint
            && self.schema == other.schema
            && self.cells == other.cells
            && self.outcomes.len() == other.outcomes.len()
            && self
                .outcomes
                .iter()
                .zip(&other.outcomes)
                .all(|(a, b)| a.bitwise_eq(b))
    }
}

/// What became of one pending cell.
enum CellRun {
    Done(Outcome),
    Failed(gendisc_core::Error),
    /// Not started because the run was stopping.
    Skipped,
}

impl Runner {
    /// A runner with validated settings.
    ///
    /// Fails with [`Error::InvalidParameter`] for `threads = Some(0)`, `flush.cells = 0`, a
    /// zero `flush.interval`, or a shard together with shards to merge.
    pub fn new(settings: RunnerSettings) -> Result<Self> {
        if let (Some(shard), false) = (settings.shard, settings.merge_shards.is_empty()) {
            return Err(Error::invalid_parameter(
                "shard",
                format!("a run either runs shard {shard} or merges shards, not both"),
            )
            .into());
        }
        if settings.threads == Some(0) {
            return Err(
                Error::invalid_parameter("threads", "at least one thread is needed").into(),
            );
        }
        if settings.flush.cells == 0 {
            return Err(Error::invalid_parameter(
                "flush.cells",
                "lines must be written after at least one cell",
            )
            .into());
        }
        if settings.flush.interval.is_zero() {
            return Err(Error::invalid_parameter(
                "flush.interval",
                "a zero interval would write after every line; use `cells: 1` for that",
            )
            .into());
        }
        Ok(Self { settings })
    }

    /// The settings.
    pub fn settings(&self) -> &RunnerSettings {
        &self.settings
    }

    /// Runs every cell of `study` that the store does not already hold and returns all outcomes
    /// in canonical order.
    ///
    /// With [`RunnerSettings::shard`], runs and stores the shard's cells only, then returns
    /// [`StudyError::ShardFinished`]. With [`RunnerSettings::merge_shards`], first reads the
    /// outcome of every cell from the shards' stores.
    ///
    /// Errors: [`StudyError::InvalidStudy`] for an empty identifier, no cells or a cell listed
    /// twice; the store errors of [`store`] (mismatched header, unknown cell,
    /// malformed line, I/O); [`StudyError::CellsFailed`] when cells failed (as
    /// [`OnCellError`] says); [`StudyError::ThreadPool`] when an explicit pool cannot start;
    /// [`StudyError::ShardMerge`] and [`StudyError::ShardsMissing`] when the shards to merge
    /// are not every finished shard of one split of this study.
    pub fn run<S: Study + ?Sized>(&self, study: &S) -> Result<StudyResults> {
        let started = Instant::now();
        let id = study.id();
        let schema = study.schema();
        let cells = study.cells();
        let invalid = |reason: String| StudyError::InvalidStudy {
            study: id.to_string(),
            reason,
        };
        if id.is_empty() {
            return Err(invalid("the identifier is empty".into()));
        }
        if cells.is_empty() {
            return Err(invalid("it lists no cells".into()));
        }
        let mut index = HashMap::with_capacity(cells.len());
        for (i, cell) in cells.iter().enumerate() {
            if let Some(first) = index.insert(cell, i) {
                return Err(invalid(format!(
                    "{cell} is listed twice, at positions {first} and {i}"
                )));
            }
        }
        let fingerprint = study.fingerprint();
        let header = Header::new(id, fingerprint.clone(), schema);

        if let Some(shard) = self.settings.shard {
            drop(index);
            let positions: Vec<usize> = (0..cells.len()).filter(|&i| shard.contains(i)).collect();
            let shard_cells: Vec<Cell> = positions.iter().map(|&i| cells[i].clone()).collect();
            let (_, mut report) = self.run_cells(
                study,
                &shard_cells,
                &positions,
                &header.with_shard(shard),
                None,
            )?;
            report.elapsed = started.elapsed();
            return Err(StudyError::ShardFinished(vec![ShardRun {
                study: id.to_string(),
                shard,
                store: self.settings.store.clone(),
                report,
            }]));
        }

        let merged = if self.settings.merge_shards.is_empty() {
            None
        } else {
            Some(store::merge_shards(
                &self.settings.merge_shards,
                &header,
                &index,
            )?)
        };
        drop(index);
        let positions: Vec<usize> = (0..cells.len()).collect();
        let (outcomes, mut report) = self.run_cells(study, &cells, &positions, &header, merged)?;
        report.elapsed = started.elapsed();
        Ok(StudyResults {
            study: id.to_string(),
            fingerprint,
            schema: schema.clone(),
            cells,
            outcomes,
            report,
        })
    }

    /// Runs those of `cells` (at `positions` of the study's canonical order, for the messages)
    /// that have no outcome yet — from `merged` if given, else from the store, which is opened
    /// with `header` — and writes the store in canonical order once every cell has one.
    fn run_cells<S: Study + ?Sized>(
        &self,
        study: &S,
        cells: &[Cell],
        positions: &[usize],
        header: &Header,
        merged: Option<Vec<Outcome>>,
    ) -> Result<(Vec<Outcome>, RunReport)> {
        let mut report = RunReport {
            cells: cells.len(),
            resumed: 0,
            ran: 0,
            duplicate_lines: 0,
            discarded_partial_line: false,
            discarded_mismatched_store: false,
            elapsed: Duration::ZERO,
        };
        let (mut slots, appender, store_was_canonical) = match (merged, &self.settings.store) {
            (Some(outcomes), _) => {
                report.resumed = outcomes.len();
                (outcomes.into_iter().map(Some).collect(), None, false)
            }
            (None, Some(path)) => {
                let index: HashMap<&Cell, usize> = cells
                    .iter()
                    .enumerate()
                    .map(|(i, cell)| (cell, i))
                    .collect();
                let opened = store::open(path, header, &index, self.settings.on_mismatch)?;
                report.resumed = opened.resumed;
                report.duplicate_lines = opened.duplicates;
                report.discarded_partial_line = opened.discarded_partial_line;
                report.discarded_mismatched_store = opened.discarded_mismatched_file;
                (opened.outcomes, Some(opened.appender), opened.canonical)
            }
            (None, None) => (vec![None; cells.len()], None, false),
        };

        let mut pending: Vec<usize> = (0..cells.len()).filter(|&i| slots[i].is_none()).collect();
        // The costliest first (a stable sort: ties keep the canonical order), so that the last
        // cells to start are short ones.
        let costs: Vec<f64> = cells.iter().map(|cell| study.relative_cost(cell)).collect();
        pending.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]));
        let progress = ClearOnDrop(self.progress_bar(&header.label(), cells.len(), report.resumed));
        let pool = match self.settings.threads {
            Some(threads) => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|error| StudyError::ThreadPool {
                        threads,
                        detail: error.to_string(),
                    })?,
            ),
            None => None,
        };
        let (runs, stored) =
            self.execute(study, cells, &pending, appender, &progress.0, pool.as_ref());

        let mut failures = Vec::new();
        for (&i, run) in pending.iter().zip(runs) {
            match run {
                CellRun::Done(outcome) => {
                    slots[i] = Some(outcome);
                    report.ran += 1;
                }
                CellRun::Failed(error) => failures.push(CellFailure {
                    index: positions[i],
                    cell: cells[i].clone(),
                    error,
                }),
                CellRun::Skipped => {}
            }
        }
        failures.sort_by_key(|failure| failure.index);
        // A store that could not be written ends the run, even if every cell finished.
        stored?;
        let completed = slots.iter().filter(|slot| slot.is_some()).count();
        let outcomes = match slots.into_iter().collect::<Option<Vec<Outcome>>>() {
            Some(outcomes) if failures.is_empty() => outcomes,
            _ => {
                return Err(StudyError::CellsFailed {
                    failures,
                    completed,
                    total: cells.len(),
                });
            }
        };
        if let Some(path) = &self.settings.store {
            // A complete canonical store read back unchanged is already in its final form.
            if report.ran > 0 || !store_was_canonical {
                store::write_canonical(path, header, cells, &outcomes)?;
            }
        }
        Ok((outcomes, report))
    }

    /// Runs the `pending` cells (positions in `cells`) on `pool` (or the current pool), with a
    /// writer thread draining finished lines into `appender`. Returns one [`CellRun`] per
    /// pending cell, in the order of `pending`, and the writer's result.
    fn execute<S: Study + ?Sized>(
        &self,
        study: &S,
        cells: &[Cell],
        pending: &[usize],
        appender: Option<Appender>,
        progress: &ProgressBar,
        pool: Option<&rayon::ThreadPool>,
    ) -> (Vec<CellRun>, Result<()>) {
        let schema = study.schema();
        let stop = AtomicBool::new(false);
        let stop_on_error = self.settings.on_cell_error == OnCellError::Stop;
        let flush = self.settings.flush;
        thread::scope(|scope| {
            let (sender, writer) = match appender {
                Some(appender) => {
                    let (sender, receiver) = mpsc::sync_channel::<Vec<u8>>(flush.cells);
                    let writer = scope.spawn(move || appender.drain(receiver, flush, progress));
                    (Some(sender), Some(writer))
                }
                None => (None, None),
            };
            let run_one = |sender: &mut Option<mpsc::SyncSender<Vec<u8>>>, &i: &usize| {
                if stop.load(Ordering::Relaxed) {
                    return CellRun::Skipped;
                }
                let cell = &cells[i];
                match study.run_cell(cell).and_then(|o| check_shape(o, schema)) {
                    Ok(outcome) => {
                        match sender {
                            Some(sender) => {
                                let mut line = Vec::with_capacity(128);
                                store::encode_line(cell, &outcome, &mut line);
                                // The writer only hangs up after an I/O error, which the run
                                // reports; starting more cells would be wasted work.
                                if sender.send(line).is_err() {
                                    stop.store(true, Ordering::Relaxed);
                                }
                            }
                            None => progress.inc(1),
                        }
                        CellRun::Done(outcome)
                    }
                    Err(error) => {
                        if stop_on_error {
                            stop.store(true, Ordering::Relaxed);
                        }
                        CellRun::Failed(error)
                    }
                }
            };
            let work = move || {
                // One cell per rayon job: otherwise rayon hands each thread a run of cells
                // that no other thread can take a part of once it has started, and on
                // Epshteyn & DeJong's study one thread worked alone for the last 12 of 59 s.
                pending
                    .par_iter()
                    .with_max_len(1)
                    .map_with(sender, run_one)
                    .collect::<Vec<CellRun>>()
            };
            let runs = match pool {
                Some(pool) => pool.install(work),
                None => work(),
            };
            // Every sender is gone with `work`, so the writer drains what is left and returns.
            let stored = writer.map_or(Ok(()), |writer| {
                writer
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            });
            (runs, stored)
        })
    }

    fn progress_bar(&self, study: &str, total: usize, done: usize) -> ProgressBar {
        let visible = match self.settings.progress {
            Progress::Auto => std::io::stderr().is_terminal(),
            Progress::Never => false,
        };
        if !visible {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(
            "{prefix} {wide_bar} {pos}/{len} cells · {elapsed_precise} · {eta} left",
        ) {
            bar.set_style(style);
        }
        bar.set_prefix(study.to_string());
        bar.set_position(done as u64);
        bar
    }
}

/// Removes the progress bar from the terminal when the run ends, however it ends (the caller
/// reports the outcome; a finished bar left on screen would run into its next line).
struct ClearOnDrop(ProgressBar);

impl Drop for ClearOnDrop {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

/// Checks that a cell's outcome has the schema's shape.
fn check_shape(outcome: Outcome, schema: &Schema) -> gendisc_core::Result<Outcome> {
    if outcome.fits(schema) {
        return Ok(outcome);
    }
    if outcome.n_classifiers() != schema.classifiers().len() {
        return Err(Error::shape_mismatch(
            "classifiers of the outcome vs the study's schema",
            schema.classifiers().len(),
            outcome.n_classifiers(),
        ));
    }
    Err(Error::shape_mismatch(
        "metrics of the outcome vs the study's schema",
        schema.metrics().len(),
        outcome.n_metrics(),
    ))
}
