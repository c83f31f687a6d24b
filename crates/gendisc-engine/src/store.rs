//! The append-only result store: one JSON line per finished cell, so that an interrupted run
//! resumes where it stopped.
//!
//! # File format
//!
//! UTF-8 JSON lines. The first line is the header, e.g.
//!
//! ```text
//! {"format":"gendisc-study-results","version":1,"study":"coin","fingerprint":"3f0c…","classifiers":["frequency"],"metrics":["abs-error"]}
//! ```
//!
//! The store of one shard of a study ([`crate::shard`]) has one more header field,
//! `"shard":"2/3"`, and holds that shard's cells only; the header of a whole study's store has
//! none, so a shard's store is never resumed by, or mistaken for, a run of the whole study.
//!
//! Every other line is the outcome of one cell:
//!
//! ```text
//! {"cell":{"dataset":"fair","train_size":10,"replicate":3},"values":[[0.1]]}
//! ```
//!
//! `values` holds one array per classifier with one entry per metric, in schema order. An entry
//! is a JSON number (the shortest decimal that reads back as the same `f64`, bit for bit), `null`
//! for a metric that was not measured, or the string `"inf"` / `"-inf"` for an infinity. NaN is
//! never stored (see [`Outcome::set`]).
//!
//! # Writing
//!
//! Worker threads encode each finished cell's line and hand it to a single writer thread, which
//! appends it to a buffer and writes the buffer to the file whenever [`FlushPolicy::cells`] lines
//! are waiting or the oldest waiting line is [`FlushPolicy::interval`] old. The writer takes the
//! lines in batches, pausing after a small one (up to 10 ms, less when lines arrive fast), so
//! that the workers do not wake it once per cell. While cells run,
//! lines are in the order in which cells finished. When every cell has an outcome, the runner
//! rewrites the file in canonical cell order (to a temporary file, synced, then renamed over the
//! store), so that a finished store is byte-identical whatever the thread count and however
//! often the run was interrupted.
//!
//! **What a kill loses.** A written line is in the operating system's hands, so a crash of the
//! process (Ctrl-C, `kill -9`, a panic elsewhere) loses only the lines not yet written: at most
//! `2 · FlushPolicy::cells − 1` finished cells (a full channel to the writer plus a buffer one
//! line short of a write), none that finished more than `FlushPolicy::interval` (plus the
//! writer's 10 ms pause between batches) earlier while the writer kept up, and the cells still running or waiting to hand their line over (at most
//! one per worker thread). With the defaults and a study of 60,000 cells in 10 s, that is under
//! half a second of work. Lines are not synced to the disk one by one, so a power failure may
//! lose more; the final canonical file is synced before it replaces the store. A panic in
//! [`Study::run_cell`](crate::Study::run_cell) reaches the caller after the lines of the cells
//! that finished before it are written.

//! # Reading (resuming)
//!
//! * A missing or empty file, or one whose header line is incomplete, starts afresh.
//! * A header whose format, study, fingerprint, schema or shard differs from the run's is an
//!   error ([`StudyError::StoreMismatch`]) unless [`OnMismatch::StartAfresh`] is set, which
//!   discards the old file.
//! * A last line without its newline was being written when the process died: it is discarded
//!   and the file truncated to the last complete line before appending.
//! * A cell that appears twice keeps its first line (outcomes are deterministic, so the lines
//!   agree; two runners appending to one store at once is not supported).
//! * A cell that the study does not list is an error ([`StudyError::UnknownCell`]): with a
//!   matching fingerprint it means the cell list is not a function of the configuration.
//! * Any other malformed line is an error naming file, line and column.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use gendisc_core::Error;
use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};

use crate::cell::{Cell, Outcome, Schema};
use crate::error::{Result, StudyError};
use crate::shard::Shard;

/// The `format` field of every header.
const FORMAT: &str = "gendisc-study-results";
/// The version of the line format described in the module documentation.
const VERSION: u32 = 1;

/// What to do when an existing result store was written by another study or configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnMismatch {
    /// Stop with [`StudyError::StoreMismatch`], leaving the file untouched (the default: results
    /// are never thrown away silently).
    #[default]
    Fail,
    /// Discard the file's contents and start the study afresh.
    StartAfresh,
}

/// When the writer thread writes buffered lines to the result file; see the module
/// documentation for what this bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlushPolicy {
    /// Write as soon as this many lines are waiting (≥ 1; also the capacity of the channel to
    /// the writer). Default 1024.
    pub cells: usize,
    /// Write when the oldest waiting line is this old (> 0). Default one second.
    pub interval: Duration,
}

impl Default for FlushPolicy {
    fn default() -> Self {
        Self {
            cells: 1024,
            interval: Duration::from_secs(1),
        }
    }
}

/// The longest the writer thread sleeps after a small batch of lines (see `Appender::drain`).
const IDLE_POLL: Duration = Duration::from_millis(10);

/// The first line of a result file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Header {
    format: String,
    version: u32,
    study: String,
    fingerprint: String,
    classifiers: Vec<String>,
    metrics: Vec<String>,
    /// The shard whose cells the file holds; absent in the store of a whole study, whose
    /// header is then what it was before shards existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shard: Option<Shard>,
}

impl Header {
    pub(crate) fn new(study: &str, fingerprint: String, schema: &Schema) -> Self {
        Self {
            format: FORMAT.into(),
            version: VERSION,
            study: study.into(),
            fingerprint,
            classifiers: schema.classifiers().to_vec(),
            metrics: schema.metrics().to_vec(),
            shard: None,
        }
    }

    /// The same header for the store of one shard.
    pub(crate) fn with_shard(self, shard: Shard) -> Self {
        Self {
            shard: Some(shard),
            ..self
        }
    }

    /// The study, and the shard if any, as the progress bar names the run.
    pub(crate) fn label(&self) -> String {
        match self.shard {
            Some(shard) => format!("{} shard {shard}", self.study),
            None => self.study.clone(),
        }
    }

    /// The first field that differs, with the stored and current values.
    fn first_difference(&self, current: &Self) -> Option<(&'static str, String, String)> {
        let fields = [
            ("format", self.format.clone(), current.format.clone()),
            (
                "format version",
                self.version.to_string(),
                current.version.to_string(),
            ),
            ("study", self.study.clone(), current.study.clone()),
            (
                "fingerprint",
                self.fingerprint.clone(),
                current.fingerprint.clone(),
            ),
            (
                "classifiers",
                self.classifiers.join(", "),
                current.classifiers.join(", "),
            ),
            (
                "metrics",
                self.metrics.join(", "),
                current.metrics.join(", "),
            ),
            ("shard", shard_text(self.shard), shard_text(current.shard)),
        ];
        fields.into_iter().find(|(_, stored, now)| stored != now)
    }

    fn line(&self) -> Vec<u8> {
        let mut line = serde_json::to_vec(self).expect("a header of strings serialises");
        line.push(b'\n');
        line
    }
}

/// A header's shard as the mismatch messages show it.
fn shard_text(shard: Option<Shard>) -> String {
    shard.map_or_else(|| "none (the whole study)".into(), |s| s.to_string())
}

#[derive(Serialize)]
struct LineRef<'a> {
    cell: &'a Cell,
    values: &'a Outcome,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    cell: Cell,
    values: Outcome,
}

/// Appends the line of one finished cell, newline included, to `buffer`.
pub(crate) fn encode_line(cell: &Cell, outcome: &Outcome, buffer: &mut Vec<u8>) {
    // Outcomes never hold NaN (`Outcome::set` and the reader refuse it) and cells are plain
    // data, so serialisation into memory cannot fail.
    serde_json::to_writer(
        &mut *buffer,
        &LineRef {
            cell,
            values: outcome,
        },
    )
    .expect("an outcome without NaN serialises");
    buffer.push(b'\n');
}

/// A result store opened for a run: what it already holds, and the file to append to.
pub(crate) struct OpenedStore {
    /// The stored outcome of each cell (canonical order), if any.
    pub outcomes: Vec<Option<Outcome>>,
    /// Cells read back from the file.
    pub resumed: usize,
    /// Lines of cells already read from an earlier line, ignored.
    pub duplicates: usize,
    /// Whether an incomplete last line was discarded.
    pub discarded_partial_line: bool,
    /// Whether an existing file was discarded because of [`OnMismatch::StartAfresh`].
    pub discarded_mismatched_file: bool,
    /// Whether the file is already in canonical form: every cell once, in canonical order,
    /// nothing discarded. A run that adds nothing then need not rewrite it.
    pub canonical: bool,
    /// The file, positioned for appending.
    pub appender: Appender,
}

/// Opens (or creates) the store at `path` for a run whose header is `header` and whose cells
/// are indexed by `index`.
pub(crate) fn open(
    path: &Path,
    header: &Header,
    index: &HashMap<&Cell, usize>,
    on_mismatch: OnMismatch,
) -> Result<OpenedStore> {
    let n_cells = index.len();
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(source) => {
            return Err(Error::Io {
                path: path.to_path_buf(),
                source,
            }
            .into())
        }
    };
    // Only newline-terminated lines were written completely.
    let committed = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);

    let start_afresh = |discarded_partial_line, discarded_mismatched_file| -> Result<OpenedStore> {
        Ok(OpenedStore {
            outcomes: vec![None; n_cells],
            resumed: 0,
            duplicates: 0,
            discarded_partial_line,
            discarded_mismatched_file,
            canonical: false,
            appender: Appender::create(path, header)?,
        })
    };
    if committed == 0 {
        // No file, an empty one, or a header cut short by a crash.
        return start_afresh(!bytes.is_empty(), false);
    }
    let mut lines = bytes[..committed - 1].split(|&b| b == b'\n');
    let header_line = lines.next().unwrap_or_default();
    let stored: Header =
        serde_json::from_slice(header_line).map_err(|error| parse_error(path, 1, &error))?;
    if let Some((field, stored, current)) = stored.first_difference(header) {
        return match on_mismatch {
            OnMismatch::StartAfresh => start_afresh(false, true),
            OnMismatch::Fail => Err(StudyError::StoreMismatch {
                path: path.to_path_buf(),
                field,
                stored,
                current,
            }),
        };
    }

    let (n_classifiers, n_metrics) = (header.classifiers.len(), header.metrics.len());
    let mut outcomes = vec![None; n_cells];
    let (mut resumed, mut duplicates) = (0, 0);
    let mut in_order = true;
    for (offset, text) in lines.enumerate() {
        let line_number = offset + 2;
        let line: Line =
            serde_json::from_slice(text).map_err(|error| parse_error(path, line_number, &error))?;
        let Some(&i) = index.get(&line.cell) else {
            return Err(StudyError::UnknownCell {
                path: path.to_path_buf(),
                line: line_number,
                cell: line.cell,
            });
        };
        if line.values.n_classifiers() != n_classifiers || line.values.n_metrics() != n_metrics {
            return Err(Error::Parse {
                path: path.to_path_buf(),
                line: line_number,
                column: 1,
                message: format!(
                    "`values` must hold {n_classifiers} arrays (one per classifier) of \
                     {n_metrics} entries (one per metric)"
                ),
            }
            .into());
        }
        if outcomes[i].is_some() {
            duplicates += 1;
            continue;
        }
        outcomes[i] = Some(line.values);
        in_order &= i == resumed;
        resumed += 1;
    }
    Ok(OpenedStore {
        outcomes,
        resumed,
        duplicates,
        discarded_partial_line: committed < bytes.len(),
        discarded_mismatched_file: false,
        canonical: in_order && duplicates == 0 && committed == bytes.len(),
        appender: Appender::reopen(path, committed as u64)?,
    })
}

fn parse_error(path: &Path, line: usize, error: &serde_json::Error) -> StudyError {
    Error::Parse {
        path: path.to_path_buf(),
        line,
        column: error.column().max(1),
        message: error.to_string(),
    }
    .into()
}

/// The result file opened for appending, behind a buffer that only the writer thread touches.
pub(crate) struct Appender {
    path: PathBuf,
    file: BufWriter<File>,
}

impl Appender {
    /// Creates (or truncates) the file and writes the header.
    fn create(path: &Path, header: &Header) -> Result<Self> {
        create_parent(path)?;
        let mut file = File::create(path).map_err(|e| StudyError::write(path, e))?;
        file.write_all(&header.line())
            .map_err(|e| StudyError::write(path, e))?;
        Ok(Self::wrap(path, file))
    }

    /// Opens an existing file for appending after its first `committed` bytes, cutting off an
    /// incomplete last line.
    fn reopen(path: &Path, committed: u64) -> Result<Self> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| StudyError::write(path, e))?;
        if file
            .metadata()
            .map_err(|e| StudyError::write(path, e))?
            .len()
            != committed
        {
            file.set_len(committed)
                .map_err(|e| StudyError::write(path, e))?;
        }
        Ok(Self::wrap(path, file))
    }

    fn wrap(path: &Path, file: File) -> Self {
        Self {
            path: path.to_path_buf(),
            file: BufWriter::with_capacity(1 << 16, file),
        }
    }

    /// The writer thread's loop: appends every received line, writing to the file as `policy`
    /// says, until every sender is gone. Returns the first I/O error (dropping the receiver, so
    /// that the workers notice and stop).
    ///
    /// After taking every line that is waiting, the writer sleeps if it is keeping up easily
    /// (fewer than half a channel's worth of lines were waiting): for as long as about half a
    /// channel's worth takes to arrive at the rate of the batch just taken, at most
    /// [`IDLE_POLL`]. A worker that hands a line to a writer blocked in `recv` must wake it, a
    /// system call and a context switch taken from the workers, once per cell; a sleeping writer
    /// is woken by nothing, and the workers do not wait for it as long as it wakes before the
    /// channel is full.
    pub(crate) fn drain(
        mut self,
        lines: Receiver<Vec<u8>>,
        policy: FlushPolicy,
        progress: &ProgressBar,
    ) -> Result<()> {
        let mut waiting = 0usize;
        let mut oldest: Option<Instant> = None;
        // When the lines of the current batch began to gather: the end of the last batch.
        let mut batch_started = Instant::now();
        loop {
            let received = match oldest {
                None => lines.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(since) => match policy.interval.checked_sub(since.elapsed()) {
                    Some(left) if !left.is_zero() => lines.recv_timeout(left),
                    _ => Err(RecvTimeoutError::Timeout),
                },
            };
            match received {
                Ok(line) => {
                    let mut batch = 1;
                    self.accept(&line, policy, &mut waiting, &mut oldest, progress)?;
                    loop {
                        match lines.try_recv() {
                            Ok(line) => {
                                batch += 1;
                                self.accept(&line, policy, &mut waiting, &mut oldest, progress)?;
                            }
                            Err(TryRecvError::Empty) => break,
                            Err(TryRecvError::Disconnected) => return self.flush(),
                        }
                    }
                    let now = Instant::now();
                    let gathered_over = now - batch_started;
                    batch_started = now;
                    // Sleep while about half a channel's worth of lines arrives at the rate just
                    // seen, so that the workers never wait for a full channel: up to
                    // `IDLE_POLL` for slow cells, a fraction of a millisecond for fast ones.
                    let half = policy.cells.div_ceil(2);
                    if batch < half {
                        let fill = gathered_over.mul_f64(half as f64 / batch as f64);
                        thread::sleep(fill.min(IDLE_POLL).min(policy.interval));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.flush()?;
                    (waiting, oldest) = (0, None);
                }
                Err(RecvTimeoutError::Disconnected) => return self.flush(),
            }
        }
    }

    /// Appends one line, and writes the buffer to the file when `policy.cells` lines wait.
    fn accept(
        &mut self,
        line: &[u8],
        policy: FlushPolicy,
        waiting: &mut usize,
        oldest: &mut Option<Instant>,
        progress: &ProgressBar,
    ) -> Result<()> {
        self.file
            .write_all(line)
            .map_err(|e| StudyError::write(&self.path, e))?;
        progress.inc(1);
        *waiting += 1;
        oldest.get_or_insert_with(Instant::now);
        if *waiting >= policy.cells {
            self.flush()?;
            (*waiting, *oldest) = (0, None);
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        self.file
            .flush()
            .map_err(|e| StudyError::write(&self.path, e))
    }
}

/// Reads the result stores of every shard of one split of a study and returns the outcome of
/// each cell, in canonical order: what the store of a single run of the study holds.
///
/// `header` is the study's (without a shard) and `index` maps each of its cells to its
/// canonical position. Each store must carry a shard of the same split in a header that
/// otherwise equals `header`, be given once, hold every cell of its shard and no other, and end
/// with a complete line; every shard of the split must be given.
pub(crate) fn merge_shards(
    paths: &[PathBuf],
    header: &Header,
    index: &HashMap<&Cell, usize>,
) -> Result<Vec<Outcome>> {
    let n_cells = index.len();
    let mut outcomes: Vec<Option<Outcome>> = vec![None; n_cells];
    // The store given for each shard of the split, by shard number.
    let mut given: Vec<(PathBuf, Shard)> = Vec::with_capacity(paths.len());
    for path in paths {
        let refuse = |reason: String| StudyError::ShardMerge {
            path: path.clone(),
            reason,
        };
        let bytes = fs::read(path).map_err(|error| {
            refuse(match error.kind() {
                io::ErrorKind::NotFound => {
                    "there is no such file: did that shard run, into this directory?".into()
                }
                _ => format!("cannot read it: {error}"),
            })
        })?;
        if bytes.last() != Some(&b'\n') {
            return Err(refuse(
                "it ends in an incomplete line (or is empty): its shard's run was cut short; \
                 run that shard again, which resumes it, before merging"
                    .into(),
            ));
        }
        let mut lines = bytes[..bytes.len() - 1].split(|&b| b == b'\n');
        let stored: Header = serde_json::from_slice(lines.next().unwrap_or_default())
            .map_err(|error| parse_error(path, 1, &error))?;
        let Some(shard) = stored.shard else {
            return Err(refuse(
                "it is the store of a whole study, not of a shard: only the stores of shard \
                 runs are merged"
                    .into(),
            ));
        };
        if let Some((field, stored, current)) =
            stored.first_difference(&header.clone().with_shard(shard))
        {
            return Err(refuse(format!(
                "it holds {field} `{stored}`, but this merge has `{current}`: only the shards \
                 of one study, configuration and format version are merged"
            )));
        }
        if let Some((first, first_shard)) = given.first()
            && first_shard.count() != shard.count()
        {
            return Err(refuse(format!(
                "it is shard {shard}, but {} is shard {first_shard}: the shards merged must \
                     come from one split, into the same number of shards",
                first.display()
            )));
        }
        if let Some((other, _)) = given.iter().find(|(_, s)| *s == shard) {
            return Err(refuse(format!(
                "it is shard {shard}, as is {}: each shard must be given once",
                other.display()
            )));
        }

        let (n_classifiers, n_metrics) = (header.classifiers.len(), header.metrics.len());
        let mut held = 0;
        for (offset, text) in lines.enumerate() {
            let line_number = offset + 2;
            let line: Line = serde_json::from_slice(text)
                .map_err(|error| parse_error(path, line_number, &error))?;
            let Some(&i) = index.get(&line.cell) else {
                return Err(refuse(format!(
                    "line {line_number}: {} is not a cell of this study",
                    line.cell
                )));
            };
            if !shard.contains(i) {
                return Err(refuse(format!(
                    "line {line_number}: {} is a cell of shard {}, not of this store's shard \
                     {shard}: the shards overlap",
                    line.cell,
                    Shard::of_position(i, shard.count())
                )));
            }
            if line.values.n_classifiers() != n_classifiers || line.values.n_metrics() != n_metrics
            {
                return Err(refuse(format!(
                    "line {line_number}: `values` must hold {n_classifiers} arrays (one per \
                     classifier) of {n_metrics} entries (one per metric)"
                )));
            }
            // A cell stored twice keeps its first line, as when resuming.
            if outcomes[i].is_none() {
                outcomes[i] = Some(line.values);
                held += 1;
            }
        }
        let expected = shard.n_cells(n_cells);
        if held < expected {
            let first_missing = (0..n_cells)
                .find(|&i| shard.contains(i) && outcomes[i].is_none())
                .and_then(|i| index.iter().find(|&(_, &p)| p == i))
                .map_or_else(String::new, |(cell, _)| {
                    format!(" (the first missing is {cell})")
                });
            return Err(refuse(format!(
                "it holds {held} of the {expected} cells of shard {shard}{first_missing}: that \
                 shard's run did not finish; run it again, which resumes it, before merging"
            )));
        }
        given.push((path.clone(), shard));
    }

    let Some(count) = given.first().map(|(_, shard)| shard.count()) else {
        return Err(Error::invalid_parameter("merge_shards", "no shard store was given").into());
    };
    let missing: Vec<usize> = (1..=count)
        .filter(|&i| !given.iter().any(|(_, s)| s.index() == i))
        .collect();
    if !missing.is_empty() {
        return Err(StudyError::ShardsMissing {
            count,
            missing,
            given,
        });
    }
    // Every shard is complete and the shards partition the cells, so every cell has an outcome.
    Ok(outcomes.into_iter().flatten().collect())
}

/// Replaces the store by its canonical form: the header, then one line per cell in canonical
/// order. Written to `<path>.tmp`, synced, then renamed over `path`, so a crash leaves either
/// the old or the new file.
pub(crate) fn write_canonical(
    path: &Path,
    header: &Header,
    cells: &[Cell],
    outcomes: &[Outcome],
) -> Result<()> {
    let mut bytes = header.line();
    bytes.reserve(cells.len() * 96);
    for (cell, outcome) in cells.iter().zip(outcomes) {
        encode_line(cell, outcome, &mut bytes);
    }
    write_atomically(path, &bytes)
}

/// Writes `bytes` to `path` through a synced temporary file and a rename, creating the parent
/// directory if needed.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    create_parent(path)?;
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let write = || -> io::Result<()> {
        let mut file = File::create(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    };
    write().map_err(|e| StudyError::write(path, e))
}

fn create_parent(path: &Path) -> Result<()> {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => {
            fs::create_dir_all(parent).map_err(|e| StudyError::write(parent, e))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn schema() -> Schema {
        Schema::new(["a", "b"], ["x", "y", "z"]).unwrap()
    }

    fn decode(bytes: &[u8]) -> (Cell, Outcome) {
        let line: Line = serde_json::from_slice(bytes.strip_suffix(b"\n").unwrap()).unwrap();
        (line.cell, line.values)
    }

    #[test]
    fn line_format_is_as_documented() {
        let mut outcome = Outcome::new(&schema());
        outcome.set(0, 0, 0.1).unwrap();
        outcome.set(0, 2, f64::INFINITY).unwrap();
        outcome.set(1, 0, f64::NEG_INFINITY).unwrap();
        outcome.set(1, 1, -0.0).unwrap();
        outcome.set(1, 2, 3.0).unwrap();
        let mut line = Vec::new();
        encode_line(&Cell::new("d \"1\"", 10, 3), &outcome, &mut line);
        assert_eq!(
            String::from_utf8(line.clone()).unwrap(),
            "{\"cell\":{\"dataset\":\"d \\\"1\\\"\",\"train_size\":10,\"replicate\":3},\
             \"values\":[[0.1,null,\"inf\"],[\"-inf\",-0.0,3.0]]}\n"
        );
        let (cell, back) = decode(&line);
        assert_eq!(cell, Cell::new("d \"1\"", 10, 3));
        assert!(back.bitwise_eq(&outcome));
    }

    #[test]
    fn header_differences_name_the_field() {
        let a = Header::new("s", "f1".into(), &schema());
        assert_eq!(a.first_difference(&a), None);
        let b = Header::new("s", "f2".into(), &schema());
        assert_eq!(
            a.first_difference(&b),
            Some(("fingerprint", "f1".to_string(), "f2".to_string()))
        );
        let c = Header::new(
            "s",
            "f1".into(),
            &Schema::new(["a"], ["x", "y", "z"]).unwrap(),
        );
        assert_eq!(a.first_difference(&c).unwrap().0, "classifiers");
    }

    proptest! {
        #[test]
        fn every_value_round_trips_bit_for_bit(
            bits in prop::collection::vec(any::<u64>(), 6),
            absent in prop::collection::vec(any::<bool>(), 6),
        ) {
            let mut outcome = Outcome::new(&schema());
            for (k, (&b, &skip)) in bits.iter().zip(&absent).enumerate() {
                let value = f64::from_bits(b);
                if !skip && !value.is_nan() {
                    outcome.set(k / 3, k % 3, value).unwrap();
                }
            }
            let mut line = Vec::new();
            encode_line(&Cell::new("d", 1, 2), &outcome, &mut line);
            let (_, back) = decode(&line);
            prop_assert!(back.bitwise_eq(&outcome), "{}", String::from_utf8_lossy(&line));
        }
    }
}
