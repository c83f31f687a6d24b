//! A study's inputs and outputs as plain CSV files, so that R, Python or a spreadsheet can
//! read them, re-run the same replicates and compare them replicate by replicate.
//!
//! Three tables, each UTF-8 CSV with a header row, fields separated by commas, every number
//! written by [`format_float`] (the shortest decimal that reads back as the same `f64`, so a
//! file read back gives the very bits that were written; infinities `inf` / `-inf`):
//!
//! # Per-replicate results: `<store>.csv`
//!
//! Written beside a finished result store, named after it (`cells.jsonl` → `cells.csv`,
//! `figure1-cells.jsonl` → `figure1-cells.csv`) by [`write_results_csv`], in long format, one
//! row per cell × classifier × metric that was measured:
//!
//! | column | meaning |
//! |---|---|
//! | `dataset` | the cell's dataset (or group) |
//! | `train_size` | the cell's training-set size `m` |
//! | `replicate` | the replicate, `0..replicates` |
//! | `classifier` | the classifier, as the study's schema names it |
//! | `metric` | the metric, as the study's schema names it |
//! | `value` | the measurement |
//!
//! Rows come in the store's canonical cell order, then classifiers and metrics in schema order;
//! a metric that does not apply to a classifier (absent in the store) has no row. The file is a
//! function of the store: the same results give the same bytes.
//!
//! # Datasets: `datasets/<dataset>.csv`
//!
//! One row per row of the dataset, in the order the study indexes them (row `i` of the table is
//! row index `i` below, counting from 0 after the header): one column per feature, then `y`,
//! the class as an index `0..K` (the study says which class each index is). Written by
//! [`write_dataset_csv`], read by [`read_dataset_csv`].
//!
//! # Training rows: `splits/<dataset>/train-<m>.csv`
//!
//! One file per dataset and training size `m`, one row per replicate: the column `replicate`
//! and then `row_1, …, row_m`, the 0-based row indices of the training set, in the order the
//! study fits them (R adds 1). The test set is every other row of the dataset, in increasing
//! order, unless the study says otherwise. Written by [`write_training_rows_csv`], read (and
//! checked: every replicate exactly once, every index a row of the dataset, none twice) by
//! [`read_training_rows_csv`].
//!
//! Reading a malformed file is an [`Error::Parse`] naming the file, the line and the field
//! (a ragged row, a cell that is not a number, an index out of range, a replicate missing or
//! repeated), and a missing file an [`Error::Io`] naming it.

use std::fs::File;
use std::path::{Path, PathBuf};

use gendisc_core::Error;

use crate::error::{Result, StudyError};
use crate::runner::StudyResults;
use crate::store::write_atomically;
use crate::tables::{format_float, outcomes_csv};

/// The columns of the per-replicate results table, in order.
pub const RESULTS_COLUMNS: [&str; 6] = [
    "dataset",
    "train_size",
    "replicate",
    "classifier",
    "metric",
    "value",
];

/// The name of the class column of a dataset table.
pub const CLASS_COLUMN: &str = "y";

/// The name of the first column of a training-rows table.
pub const REPLICATE_COLUMN: &str = "replicate";

/// The per-replicate results table of the result store at `store`: the same path with the
/// extension `csv` (`out/cells.jsonl` → `out/cells.csv`).
///
/// ```
/// use std::path::Path;
/// use gendisc_engine::interchange::results_csv_path;
/// assert_eq!(results_csv_path(Path::new("out/figure1-cells.jsonl")), Path::new("out/figure1-cells.csv"));
/// ```
pub fn results_csv_path(store: &Path) -> PathBuf {
    store.with_extension("csv")
}

/// Writes every measurement of `results` as the long CSV described in the
/// [module documentation](self) beside the result store at `store` (atomically, see
/// [`results_csv_path`]), and returns the table's path.
pub fn write_results_csv(results: &StudyResults, store: &Path) -> Result<PathBuf> {
    let path = results_csv_path(store);
    write_atomically(&path, outcomes_csv(results)?.as_bytes())?;
    Ok(path)
}

/// `dir/datasets/<dataset>.csv`, where an exported study keeps a dataset's table.
pub fn dataset_csv_path(dir: &Path, dataset: &str) -> PathBuf {
    dir.join("datasets").join(format!("{dataset}.csv"))
}

/// `dir/splits/<dataset>/train-<train_size>.csv`, where an exported study keeps the training
/// rows of every replicate of one dataset and size.
pub fn training_rows_csv_path(dir: &Path, dataset: &str, train_size: usize) -> PathBuf {
    dir.join("splits")
        .join(dataset)
        .join(format!("train-{train_size}.csv"))
}

/// A dataset read from its table: features row-major, classes as indices.
#[derive(Debug, Clone, PartialEq)]
pub struct DatasetTable {
    /// The feature columns' names, in order.
    pub features: Vec<String>,
    /// The features, row-major: row `i`, feature `j` at `i * features.len() + j`.
    pub x: Vec<f64>,
    /// The class of each row, an index `0..K`.
    pub y: Vec<usize>,
}

impl DatasetTable {
    /// Number of rows.
    pub fn n_rows(&self) -> usize {
        self.y.len()
    }
}

/// Writes a dataset's table (see the [module documentation](self)) to `path` atomically,
/// creating its directory: `features` names the columns of `x` (row-major, `y.len()` rows),
/// `y` holds class indices.
///
/// Fails with [`Error::ShapeMismatch`] when `x` does not hold `y.len() × features.len()`
/// values, and [`Error::InvalidParameter`] when a feature is named like the class column or a
/// value is NaN (which reads back as nothing in R).
pub fn write_dataset_csv<S: AsRef<str>>(
    path: &Path,
    features: &[S],
    x: &[f64],
    y: &[usize],
) -> Result<()> {
    let d = features.len();
    if x.len() != y.len() * d {
        return Err(Error::shape_mismatch(
            "dataset values (rows × features)",
            y.len() * d,
            x.len(),
        )
        .into());
    }
    if features.iter().any(|f| f.as_ref() == CLASS_COLUMN) {
        return Err(Error::invalid_parameter(
            "features",
            format!("`{CLASS_COLUMN}` names the class column, not a feature"),
        )
        .into());
    }
    if x.iter().any(|v| v.is_nan()) {
        return Err(Error::invalid_parameter("x", "a dataset value is NaN").into());
    }
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut record = csv::StringRecord::new();
    record.extend(features.iter().map(AsRef::as_ref));
    record.push_field(CLASS_COLUMN);
    write_record(&mut writer, &record, path)?;
    for (i, &class) in y.iter().enumerate() {
        record.clear();
        for &value in &x[i * d..(i + 1) * d] {
            record.push_field(&format_float(value));
        }
        record.push_field(&class.to_string());
        write_record(&mut writer, &record, path)?;
    }
    write_atomically(path, &finish(writer, path)?)
}

/// Reads a dataset's table written as [`write_dataset_csv`] writes it (by anyone): a header
/// whose last column is `y`, at least one feature, and rows of as many fields, features
/// numbers and `y` a class index.
///
/// Errors: [`Error::Io`] when the file cannot be opened; [`Error::Parse`] (file, line, field)
/// for a wrong header, a ragged row, a feature that is not a number (or is NaN), a class that
/// is not a non-negative integer, or no row at all.
pub fn read_dataset_csv(path: &Path) -> Result<DatasetTable> {
    let mut reader = open_csv(path)?;
    let header = header(&mut reader, path)?;
    let n_columns = header.len();
    if n_columns < 2 || header.get(n_columns - 1) != Some(CLASS_COLUMN) {
        return Err(parse_error(
            path,
            1,
            n_columns.max(1),
            format!(
                "the header must name the features and end with the class column `{CLASS_COLUMN}`"
            ),
        ));
    }
    let features: Vec<String> = header
        .iter()
        .take(n_columns - 1)
        .map(String::from)
        .collect();
    let (mut x, mut y) = (Vec::new(), Vec::new());
    let mut record = csv::StringRecord::new();
    while read_record(&mut reader, &mut record, path)? {
        let line = line_of(&record);
        check_width(path, line, &record, n_columns)?;
        for (j, field) in record.iter().take(n_columns - 1).enumerate() {
            x.push(parse_number(path, line, j + 1, field)?);
        }
        y.push(parse_index(
            path,
            line,
            n_columns,
            &record[n_columns - 1],
            "class",
        )?);
    }
    if y.is_empty() {
        return Err(parse_error(
            path,
            2,
            1,
            "the table has a header but no row".into(),
        ));
    }
    Ok(DatasetTable { features, x, y })
}

/// Writes the training rows of every replicate of one dataset and training size (see the
/// [module documentation](self)) to `path` atomically: `rows[r]` is replicate `r`'s training
/// rows, each of `train_size` indices.
///
/// Fails with [`Error::ShapeMismatch`] when a replicate does not hold `train_size` rows.
pub fn write_training_rows_csv(path: &Path, train_size: usize, rows: &[Vec<usize>]) -> Result<()> {
    if let Some(bad) = rows.iter().find(|r| r.len() != train_size) {
        return Err(
            Error::shape_mismatch("training rows of a replicate", train_size, bad.len()).into(),
        );
    }
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut record = csv::StringRecord::new();
    record.push_field(REPLICATE_COLUMN);
    for k in 1..=train_size {
        record.push_field(&format!("row_{k}"));
    }
    write_record(&mut writer, &record, path)?;
    for (replicate, indices) in rows.iter().enumerate() {
        record.clear();
        record.push_field(&replicate.to_string());
        for index in indices {
            record.push_field(&index.to_string());
        }
        write_record(&mut writer, &record, path)?;
    }
    write_atomically(path, &finish(writer, path)?)
}

/// Reads the training rows of `replicates` replicates of training size `train_size` on a
/// dataset of `n_rows` rows, from a table written as [`write_training_rows_csv`] writes it (rows
/// in any order of replicates); returns them by replicate, each in the file's order.
///
/// Errors: [`Error::Io`] when the file cannot be opened; [`Error::Parse`] (file, line, field)
/// for a header without `replicate` and `train_size` row columns, a ragged row, a field that is
/// not a non-negative integer, an index that is not a row of the dataset or appears twice in a
/// replicate, a replicate outside `0..replicates` or listed twice, and — at the line after the
/// last — a replicate that the file lacks.
pub fn read_training_rows_csv(
    path: &Path,
    train_size: usize,
    replicates: usize,
    n_rows: usize,
) -> Result<Vec<Vec<usize>>> {
    let mut reader = open_csv(path)?;
    let header = header(&mut reader, path)?;
    let n_columns = train_size + 1;
    if header.get(0) != Some(REPLICATE_COLUMN) || header.len() != n_columns {
        return Err(parse_error(
            path,
            1,
            1,
            format!(
                "the header must be `{REPLICATE_COLUMN}` and {train_size} row columns (training \
                 size {train_size}); it has {} columns",
                header.len()
            ),
        ));
    }
    let mut by_replicate: Vec<Option<Vec<usize>>> = vec![None; replicates];
    let mut in_training = vec![usize::MAX; n_rows];
    let mut record = csv::StringRecord::new();
    let mut last_line = 1;
    while read_record(&mut reader, &mut record, path)? {
        let line = line_of(&record);
        last_line = line;
        check_width(path, line, &record, n_columns)?;
        let replicate = parse_index(path, line, 1, &record[0], "replicate")?;
        if replicate >= replicates {
            return Err(parse_error(
                path,
                line,
                1,
                format!(
                    "replicate {replicate} is not one of this run's 0…{}",
                    replicates.saturating_sub(1)
                ),
            ));
        }
        if by_replicate[replicate].is_some() {
            return Err(parse_error(
                path,
                line,
                1,
                format!("replicate {replicate} is listed twice"),
            ));
        }
        let mut rows = Vec::with_capacity(train_size);
        for (k, field) in record.iter().enumerate().skip(1) {
            let index = parse_index(path, line, k + 1, field, "row index")?;
            if index >= n_rows {
                return Err(parse_error(
                    path,
                    line,
                    k + 1,
                    format!("row index {index} is not a row of the dataset, which has {n_rows} rows (indices 0…{})", n_rows.saturating_sub(1)),
                ));
            }
            if in_training[index] == replicate {
                return Err(parse_error(
                    path,
                    line,
                    k + 1,
                    format!("row {index} is listed twice in replicate {replicate}'s training set"),
                ));
            }
            in_training[index] = replicate;
            rows.push(index);
        }
        by_replicate[replicate] = Some(rows);
    }
    by_replicate
        .into_iter()
        .enumerate()
        .map(|(replicate, rows)| {
            rows.ok_or_else(|| {
                parse_error(
                    path,
                    last_line + 1,
                    1,
                    format!(
                        "the file ends without replicate {replicate}: it must hold one row for \
                         each replicate 0…{}",
                        replicates - 1
                    ),
                )
            })
        })
        .collect()
}

/// The test rows of a split whose training rows are `train`: every other row of `0..n_rows`,
/// in increasing order (the convention of the training-rows table).
pub fn complement(train: &[usize], n_rows: usize) -> Vec<usize> {
    let mut in_train = vec![false; n_rows];
    for &i in train {
        if let Some(slot) = in_train.get_mut(i) {
            *slot = true;
        }
    }
    (0..n_rows).filter(|&i| !in_train[i]).collect()
}

fn open_csv(path: &Path) -> Result<csv::Reader<File>> {
    let file = File::open(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    // Ragged rows are reported by `check_width`, with the expected width.
    Ok(csv::ReaderBuilder::new().flexible(true).from_reader(file))
}

fn header(reader: &mut csv::Reader<File>, path: &Path) -> Result<csv::StringRecord> {
    let header = reader
        .headers()
        .map_err(|error| csv_error(path, error))?
        .clone();
    if header.is_empty() {
        return Err(parse_error(
            path,
            1,
            1,
            "the file is empty: a header row is needed".into(),
        ));
    }
    Ok(header)
}

fn read_record(
    reader: &mut csv::Reader<File>,
    record: &mut csv::StringRecord,
    path: &Path,
) -> Result<bool> {
    reader
        .read_record(record)
        .map_err(|error| csv_error(path, error))
}

fn line_of(record: &csv::StringRecord) -> usize {
    record.position().map_or(0, |p| p.line() as usize)
}

fn check_width(path: &Path, line: usize, record: &csv::StringRecord, width: usize) -> Result<()> {
    if record.len() == width {
        return Ok(());
    }
    Err(parse_error(
        path,
        line,
        record.len().min(width) + 1,
        format!("the row has {} fields, the header {width}", record.len()),
    ))
}

fn parse_number(path: &Path, line: usize, column: usize, field: &str) -> Result<f64> {
    match field.trim().parse::<f64>() {
        Ok(value) if !value.is_nan() => Ok(value),
        _ => Err(parse_error(
            path,
            line,
            column,
            format!("`{field}` is not a number"),
        )),
    }
}

fn parse_index(path: &Path, line: usize, column: usize, field: &str, what: &str) -> Result<usize> {
    field.trim().parse::<usize>().map_err(|_| {
        parse_error(
            path,
            line,
            column,
            format!("`{field}` is not a {what} (a non-negative integer)"),
        )
    })
}

fn parse_error(path: &Path, line: usize, column: usize, message: String) -> StudyError {
    Error::Parse {
        path: path.to_path_buf(),
        line,
        column,
        message,
    }
    .into()
}

fn csv_error(path: &Path, error: csv::Error) -> StudyError {
    let line = error.position().map_or(1, |p| p.line() as usize);
    let message = error.to_string();
    match error.into_kind() {
        csv::ErrorKind::Io(source) => Error::Io {
            path: path.to_path_buf(),
            source,
        }
        .into(),
        // Invalid UTF-8, the one other error of a flexible reader.
        _ => parse_error(path, line, 1, message),
    }
}

fn write_record(
    writer: &mut csv::Writer<Vec<u8>>,
    record: &csv::StringRecord,
    path: &Path,
) -> Result<()> {
    writer
        .write_record(record)
        .map_err(|error| StudyError::write(path, std::io::Error::other(error.to_string())))
}

fn finish(writer: csv::Writer<Vec<u8>>, path: &Path) -> Result<Vec<u8>> {
    writer
        .into_inner()
        .map_err(|error| StudyError::write(path, error.into_error()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cell, Outcome, Runner, RunnerSettings, Schema, Study};

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("gendisc-interchange-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn parse_line(error: StudyError) -> (usize, usize, String) {
        match error {
            StudyError::Core(Error::Parse {
                line,
                column,
                message,
                ..
            }) => (line, column, message),
            other => panic!("not a parse error: {other}"),
        }
    }

    /// Two classifiers, one of which does not measure the second metric.
    struct Toy {
        schema: Schema,
    }

    impl Study for Toy {
        fn id(&self) -> &str {
            "toy"
        }
        fn fingerprint(&self) -> String {
            "0".into()
        }
        fn schema(&self) -> &Schema {
            &self.schema
        }
        fn cells(&self) -> Vec<Cell> {
            Cell::grid(&["a", "b"], &[3, 5], 2)
        }
        fn run_cell(&self, cell: &Cell) -> gendisc_core::Result<Outcome> {
            let mut outcome = Outcome::new(&self.schema);
            outcome.set(
                0,
                0,
                0.1 * cell.replicate as f64 + 1.0 / cell.train_size as f64,
            )?;
            outcome.set(1, 0, f64::INFINITY)?;
            outcome.set(1, 1, -2.5e-7)?;
            Ok(outcome)
        }
    }

    #[test]
    fn the_results_table_lists_every_measured_value_beside_the_store() {
        let dir = temp_dir("results");
        let store = dir.join("toy-cells.jsonl");
        let study = Toy {
            schema: Schema::new(["nb", "lr"], ["er", "ll"]).unwrap(),
        };
        let results = Runner::new(RunnerSettings {
            store: Some(store.clone()),
            progress: crate::Progress::Never,
            ..RunnerSettings::default()
        })
        .unwrap()
        .run(&study)
        .unwrap();
        let path = write_results_csv(&results, &store).unwrap();
        assert_eq!(path, dir.join("toy-cells.csv"));
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], RESULTS_COLUMNS.join(","));
        // 8 cells × 3 measured values.
        assert_eq!(lines.len(), 1 + 8 * 3);
        assert_eq!(lines[1], "a,3,0,nb,er,0.3333333333333333");
        assert_eq!(lines[2], "a,3,0,lr,er,inf");
        assert_eq!(lines[3], "a,3,0,lr,ll,-2.5e-7");
        assert_eq!(lines[4], "a,3,1,nb,er,0.43333333333333335");
        assert_eq!(lines[24], "b,5,1,lr,ll,-2.5e-7");
        // Every value reads back to the stored bits.
        for (line, (cell, outcome)) in lines[1..].chunks(3).zip(results.iter()) {
            let value: f64 = line[0].rsplit(',').next().unwrap().parse().unwrap();
            assert_eq!(
                value.to_bits(),
                outcome.get(0, 0).unwrap().to_bits(),
                "{cell}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_dataset_round_trips_bit_for_bit() {
        let dir = temp_dir("dataset");
        let path = dataset_csv_path(&dir, "normal");
        let x = [0.1, -1e-300, 1.0 / 3.0, 7.0, f64::MIN_POSITIVE, -0.0];
        let y = [0, 1, 1];
        write_dataset_csv(&path, &["x1", "x2"], &x, &y).unwrap();
        let table = read_dataset_csv(&path).unwrap();
        assert_eq!(table.features, ["x1", "x2"]);
        assert_eq!(table.y, y);
        assert_eq!(table.n_rows(), 3);
        for (a, b) in table.x.iter().zip(&x) {
            assert_eq!(a.to_bits(), b.to_bits());
        }
        assert!(write_dataset_csv(&path, &["x1", "x2"], &x[..5], &y).is_err());
        assert!(write_dataset_csv(&path, &["y", "x2"], &x, &y).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn malformed_datasets_are_reported_at_their_line_and_field() {
        let dir = temp_dir("bad-dataset");
        let path = dir.join("d.csv");
        let cases = [
            ("x1,x2,y\n1,2,0\n3,1\n", (3, 3), "2 fields"),
            ("x1,x2,y\n1,2,0\n3,abc,1\n", (3, 2), "not a number"),
            ("x1,x2,y\n1,NaN,0\n", (2, 2), "not a number"),
            ("x1,x2,y\n1,2,0\n1,2,-1\n", (3, 3), "not a class"),
            ("x1,x2,class\n1,2,0\n", (1, 3), "class column"),
            ("x1,x2,y\n", (2, 1), "no row"),
            ("", (1, 1), "empty"),
        ];
        for (text, (line, column), what) in cases {
            std::fs::write(&path, text).unwrap();
            let (l, c, message) = parse_line(read_dataset_csv(&path).unwrap_err());
            assert_eq!((l, c), (line, column), "{text:?}: {message}");
            assert!(message.contains(what), "{text:?}: {message}");
        }
        std::fs::write(&path, b"x1,x2,y\n1,2,0\n1,\xff,1\n").unwrap();
        let (line, _, message) = parse_line(read_dataset_csv(&path).unwrap_err());
        assert_eq!(line, 3, "{message}");
        assert!(message.contains("UTF-8"), "{message}");
        assert!(matches!(
            read_dataset_csv(&dir.join("absent.csv")),
            Err(StudyError::Core(Error::Io { .. }))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn training_rows_round_trip_and_complement() {
        let dir = temp_dir("rows");
        let path = training_rows_csv_path(&dir, "normal", 3);
        assert!(path.ends_with("splits/normal/train-3.csv"));
        let rows = vec![vec![4, 0, 2], vec![1, 3, 5]];
        write_training_rows_csv(&path, 3, &rows).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "replicate,row_1,row_2,row_3\n0,4,0,2\n1,1,3,5\n");
        assert_eq!(read_training_rows_csv(&path, 3, 2, 6).unwrap(), rows);
        assert_eq!(complement(&rows[0], 6), [1, 3, 5]);
        assert!(write_training_rows_csv(&path, 4, &rows).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn malformed_training_rows_are_reported_at_their_line_and_field() {
        let dir = temp_dir("bad-rows");
        let path = dir.join("train-2.csv");
        let header = "replicate,row_1,row_2\n";
        let cases = [
            ("0,1,2\n1,3\n", (3, 3), "2 fields"),
            ("0,1,2\n1,3,x\n", (3, 3), "not a row index"),
            ("0,1,2\n1,3,6\n", (3, 3), "not a row of the dataset"),
            ("0,1,1\n1,3,4\n", (2, 3), "twice"),
            ("0,1,2\n0,3,4\n", (3, 1), "listed twice"),
            ("0,1,2\n2,3,4\n", (3, 1), "not one of"),
            ("1,1,2\n", (3, 1), "without replicate 0"),
            ("0,1,2\n", (3, 1), "without replicate 1"),
        ];
        for (rows, (line, column), what) in cases {
            let text = format!("{header}{rows}");
            std::fs::write(&path, &text).unwrap();
            let (l, c, message) = parse_line(read_training_rows_csv(&path, 2, 2, 6).unwrap_err());
            assert_eq!((l, c), (line, column), "{text:?}: {message}");
            assert!(message.contains(what), "{text:?}: {message}");
        }
        std::fs::write(&path, "replicate,row_1\n0,1\n1,2\n").unwrap();
        let (l, _, message) = parse_line(read_training_rows_csv(&path, 2, 2, 6).unwrap_err());
        assert_eq!(l, 1, "{message}");
        assert!(matches!(
            read_training_rows_csv(&dir.join("absent.csv"), 2, 2, 6),
            Err(StudyError::Core(Error::Io { .. }))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
