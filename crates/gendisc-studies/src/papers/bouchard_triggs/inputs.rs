//! The study's inputs as plain files, in the tables of [`gendisc_engine::interchange`], so that
//! its experiments can be re-run elsewhere on the very same data, or the study run here on data
//! of one's own: [`export_figure1_inputs`] and [`export_table1_inputs`] write them,
//! [`Figure1Study::with_inputs`] and [`Table1Study::with_inputs`] read them back.
//!
//! **Fingerprint.** Inputs read back that are, bit for bit and index for index, what the study
//! seed draws (and, for Table 1, the Statlog data as read) are the study itself: same
//! fingerprint, same result store, same outputs. Any other inputs give the study another
//! fingerprint (the study's, the word `inputs` and a digest of what was read), and the report
//! says that the data came from files, with that digest.

use std::collections::BTreeMap;
use std::path::Path;

use gendisc_core::Error;
use gendisc_engine::interchange::{
    dataset_csv_path, read_dataset_csv, read_training_rows_csv, training_rows_csv_path,
    write_dataset_csv, write_training_rows_csv, DatasetTable,
};
use gendisc_engine::{fingerprint, Cell, Result, StudyError};
use ndarray::{Array1, Array2};

use super::{Figure1Reading, Figure1Study, Table1Study, TableDataset};
use crate::papers::inputs::same_bits;
pub use crate::papers::inputs::InputSource;

/// One simulated sample: its rows and their classes.
type Sample = (Array2<f64>, Array1<usize>);

/// Figure 1's training samples read from files: by data source and size, one per experiment.
pub(super) struct Samples(BTreeMap<(&'static str, usize), Vec<Sample>>);

impl Samples {
    /// Experiment `replicate`'s sample of size `m` of the data source `data`.
    pub(super) fn get(&self, data: &str, m: usize, replicate: usize) -> Option<Sample> {
        self.0.get(&(data, m))?.get(replicate).cloned()
    }
}

/// The feature columns of the simulations.
const FEATURES: [&str; 4] = ["x1", "x2", "x3", "x4"];

/// Writes Figure 1's simulated data under `dir`:
///
/// * `datasets/<simulation>-test.csv` — each simulation's test set (columns `x1 … x4, y`, `y`
///   the class 0 or 1), shared by every experiment;
/// * `datasets/<simulation>-train-<m>.csv` — the training sample of every experiment of size
///   `m`, stacked: the column `replicate` (the experiment), then `x1 … x4, y`; experiment `r`'s
///   `m` rows are those whose `replicate` is `r`.
///
/// A simulation is a data source: the readings of Figure 1 that fit other models to the same
/// data (`correlated-uniform` and `correlated-uniform-priors-estimated`) share its files.
pub fn export_figure1_inputs(dir: &Path, study: &Figure1Study) -> Result<()> {
    let settings = study.settings();
    let mut written: Vec<&str> = Vec::new();
    for (reading, x, y) in &study.tests {
        let data = reading.data();
        if written.contains(&data) {
            continue;
        }
        written.push(data);
        let path = dataset_csv_path(dir, &format!("{data}-test"));
        write_dataset_csv(&path, &FEATURES, &row_major(x), &y.to_vec())?;
        for &m in &settings.figure1_sizes {
            let (mut values, mut classes) = (Vec::new(), Vec::new());
            for r in 0..settings.figure1_replicates {
                let (x, y) = study.training_sample(*reading, m, r);
                for (row, &class) in x.rows().into_iter().zip(&y) {
                    values.push(r as f64);
                    values.extend(row.iter().copied());
                    classes.push(class);
                }
            }
            let mut columns = vec!["replicate"];
            columns.extend(FEATURES);
            let path = dataset_csv_path(dir, &format!("{data}-train-{m}"));
            write_dataset_csv(&path, &columns, &values, &classes)?;
        }
    }
    Ok(())
}

/// Writes Table 1's data under `dir`: `datasets/<dataset>.csv`, each Statlog dataset as the
/// study reads it (its features, then `y`, the class index `0 … K − 1` in sorted order of the
/// file's labels), and `splits/<dataset>/train-<m>.csv`, the training rows of every trial (the
/// test set is every other row). The Fisher/PCA reduction and the cross-validation folds are
/// computed from these in each trial and are not exported.
pub fn export_table1_inputs(dir: &Path, study: &Table1Study) -> Result<()> {
    for d in &study.datasets {
        let name = d.which.name();
        let features: Vec<String> = (1..=d.x.ncols()).map(|j| format!("x{j}")).collect();
        write_dataset_csv(
            &dataset_csv_path(dir, name),
            &features,
            &row_major(&d.x),
            &d.y.to_vec(),
        )?;
        let m = d.which.train_size();
        let rows = (0..study.settings().table1_replicates)
            .map(|r| {
                let cell = Cell::new(name, m, r);
                study.trial_split(d, &cell).map(|(split, _)| split.train)
            })
            .collect::<gendisc_core::Result<Vec<_>>>()?;
        write_training_rows_csv(&training_rows_csv_path(dir, name, m), m, &rows)?;
    }
    Ok(())
}

fn row_major(x: &Array2<f64>) -> Vec<f64> {
    x.iter().copied().collect()
}

impl Figure1Study {
    /// This study on the data read from `dir` (as [`export_figure1_inputs`] writes them): for
    /// each data source, its test set `datasets/<source>-test.csv` and, for each training size,
    /// the samples of every experiment, `datasets/<source>-train-<m>.csv`, instead of those the
    /// seed draws. Every table has the four features `x1 … x4` and classes 0 and 1; a training
    /// table holds `m` rows of each experiment `0 … replicates − 1` (its first column), with both
    /// classes.
    ///
    /// Inputs that are bit for bit the seed's draws are this study (same fingerprint, same
    /// outputs); any others give a fingerprint of their own, and
    /// [`Figure1Study::input_source`] holds their digest, which the report names.
    ///
    /// Errors: an I/O error naming a missing file; a parse error naming file, line and field for
    /// a malformed table (ragged row, a value that is not a number, a wrong header, a class
    /// other than 0 or 1, an experiment that is not an integer of the run, an experiment with
    /// other than `m` rows, a missing experiment, a sample without both classes).
    pub fn with_inputs(mut self, dir: &Path) -> Result<Self> {
        let mut same = true;
        let mut tests = BTreeMap::new();
        let mut samples = BTreeMap::new();
        for reading in Figure1Reading::ALL {
            let data = reading.data();
            if tests.contains_key(data) {
                continue;
            }
            let path = dataset_csv_path(dir, &format!("{data}-test"));
            let (x, y) = simulation_table(&path, read_dataset_csv(&path)?, &FEATURES)?;
            let (_, own_x, own_y) = self.test_set(reading.name())?;
            same &= same_bits(&x, own_x) && y == *own_y;
            tests.insert(data, (x, y));
            for &m in &self.settings.figure1_sizes {
                let path = dataset_csv_path(dir, &format!("{data}-train-{m}"));
                let read = training_samples(&path, m, self.settings.figure1_replicates)?;
                same &= read.iter().enumerate().all(|(r, (x, y))| {
                    let (own_x, own_y) = self.drawn_sample(reading, m, r);
                    same_bits(x, &own_x) && *y == own_y
                });
                samples.insert((data, m), read);
            }
        }
        if !same {
            let parts: Vec<(String, Vec<String>)> = tests
                .iter()
                .map(|(data, (x, y))| {
                    let trained = samples
                        .iter()
                        .filter(|((d, _), _)| d == data)
                        .flat_map(|(_, read)| read.iter().map(|(x, y)| digest_of(x, y)))
                        .collect();
                    (digest_of(x, y), trained)
                })
                .collect();
            self.source = InputSource::Files {
                digest: fingerprint(&parts),
            };
        }
        for (reading, x, y) in &mut self.tests {
            if let Some((read_x, read_y)) = tests.get(reading.data()) {
                (*x, *y) = (read_x.clone(), read_y.clone());
            }
        }
        self.samples = Some(Samples(samples));
        Ok(self)
    }

    /// Where the test sets and training samples come from.
    pub fn input_source(&self) -> &InputSource {
        &self.source
    }
}

impl Table1Study {
    /// This study on the data read from `dir` (as [`export_table1_inputs`] writes them): each
    /// dataset, `datasets/<dataset>.csv`, and the training rows of every trial,
    /// `splits/<dataset>/train-<m>.csv` (`m` the dataset's training size of Table 1), instead of
    /// the Statlog data as read and the splits the seed draws; the test set of a trial is every
    /// other row, in increasing order. The number of classes is one more than the largest class
    /// read.
    ///
    /// Inputs that are those of this study bit for bit and index for index are this study
    /// (same fingerprint, same outputs); any others give a fingerprint of their own, and
    /// [`Table1Study::input_source`] holds their digest, which the report names.
    ///
    /// Errors: an I/O error naming a missing file; a parse error naming file, line and field for
    /// a malformed table (ragged row, a value that is not a number, an index that is not a row
    /// or repeated, a trial missing or repeated).
    pub fn with_inputs(mut self, dir: &Path) -> Result<Self> {
        let mut same = true;
        let mut datasets = Vec::with_capacity(self.datasets.len());
        let mut splits = Vec::with_capacity(self.datasets.len());
        for own in &self.datasets {
            let name = own.which.name();
            let table = read_dataset_csv(&dataset_csv_path(dir, name))?;
            let n_rows = table.n_rows();
            let x = Array2::from_shape_vec((n_rows, table.features.len()), table.x)
                .map_err(|e| Error::invalid_parameter("dataset", e.to_string()))?;
            let y = Array1::from(table.y);
            let m = own.which.train_size();
            let path = training_rows_csv_path(dir, name, m);
            let rows = read_training_rows_csv(&path, m, self.settings.table1_replicates, n_rows)?;
            same &= same_bits(&x, &own.x) && y == own.y;
            same &= rows.iter().enumerate().all(|(r, train)| {
                let drawn = self.trial_split(own, &Cell::new(name, m, r)).ok();
                drawn.is_some_and(|(split, _)| &split.train == train)
            });
            datasets.push(TableDataset {
                which: own.which,
                n_classes: y.iter().max().map_or(0, |k| k + 1),
                x,
                y,
            });
            splits.push(rows);
        }
        if !same {
            let parts: Vec<(String, String)> = datasets
                .iter()
                .zip(&splits)
                .map(|(d, rows)| (digest_of(&d.x, &d.y), fingerprint(rows)))
                .collect();
            self.source = InputSource::Files {
                digest: fingerprint(&parts),
            };
        }
        self.datasets = datasets;
        self.splits = Some(splits);
        Ok(self)
    }

    /// Where the datasets and splits come from.
    pub fn input_source(&self) -> &InputSource {
        &self.source
    }
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

/// The rows of a simulation's table read from `path`, whose header must name `columns` then
/// `y`, with classes 0 and 1 only.
fn simulation_table(path: &Path, table: DatasetTable, columns: &[&str]) -> Result<Sample> {
    if table.features != columns {
        return Err(parse_error(
            path,
            1,
            1,
            format!(
                "the header must be `{},y`; it names {}",
                columns.join(","),
                table.features.join(",")
            ),
        ));
    }
    if let Some(row) = table.y.iter().position(|&k| k > 1) {
        return Err(parse_error(
            path,
            row + 2,
            columns.len() + 1,
            format!("class {} is not 0 or 1", table.y[row]),
        ));
    }
    let x = Array2::from_shape_vec((table.y.len(), columns.len()), table.x)
        .map_err(|e| Error::invalid_parameter("dataset", e.to_string()))?;
    Ok((x, Array1::from(table.y)))
}

/// The training samples of every experiment `0 … replicates − 1` of size `m`, read from the
/// stacked table at `path` (first column the experiment), each in the file's order.
fn training_samples(path: &Path, m: usize, replicates: usize) -> Result<Vec<Sample>> {
    let mut columns = vec!["replicate"];
    columns.extend(FEATURES);
    let (table, classes) = simulation_table(path, read_dataset_csv(path)?, &columns)?;
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); replicates];
    for (i, row) in table.rows().into_iter().enumerate() {
        let replicate = row[0];
        let line = i + 2;
        if !(replicate >= 0.0 && replicate.fract() == 0.0 && replicate < replicates as f64) {
            return Err(parse_error(
                path,
                line,
                1,
                format!(
                    "experiment {replicate} is not one of this run's 0…{}",
                    replicates - 1
                ),
            ));
        }
        let of_replicate = &mut rows[replicate as usize];
        if of_replicate.len() == m {
            return Err(parse_error(
                path,
                line,
                1,
                format!("experiment {replicate} has more than its {m} rows"),
            ));
        }
        of_replicate.push(i);
    }
    let end = table.nrows() + 2;
    rows.into_iter()
        .enumerate()
        .map(|(replicate, rows)| {
            if rows.len() != m {
                return Err(parse_error(
                    path,
                    end,
                    1,
                    format!(
                        "the file ends with {} rows of experiment {replicate}: it must hold {m} \
                         rows of each experiment 0…{}",
                        rows.len(),
                        replicates - 1
                    ),
                ));
            }
            let x = table
                .select(ndarray::Axis(0), &rows)
                .slice_move(ndarray::s![.., 1..]);
            let y: Array1<usize> = rows.iter().map(|&i| classes[i]).collect();
            if !(y.iter().any(|&k| k == 0) && y.iter().any(|&k| k == 1)) {
                return Err(parse_error(
                    path,
                    rows[0] + 2,
                    FEATURES.len() + 2,
                    format!("experiment {replicate}'s sample lacks a class: a fit needs both"),
                ));
            }
            Ok((x, y))
        })
        .collect()
}

/// A fingerprint of every value of `x` and class of `y`.
fn digest_of(x: &Array2<f64>, y: &Array1<usize>) -> String {
    let bits: Vec<u64> = x.iter().map(|v| v.to_bits()).collect();
    fingerprint(&(x.ncols(), bits, y.to_vec()))
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::PathBuf;

    use gendisc_engine::runner::Progress;
    use gendisc_engine::{RunnerSettings, Study};
    use rand::Rng;

    use super::super::{run_both, table1_blocks, table1_rows, Settings, Statlog, Table1Metric};
    use super::*;
    use crate::papers::inputs::damage::{self, assert_parse_error, edit_line, files};

    /// Two sizes, two experiments, 50 test rows, three values of λ: every reading runs in a
    /// fraction of a second.
    fn small() -> Settings {
        Settings {
            figure1_sizes: vec![5, 8],
            figure1_replicates: 2,
            figure1_test_size: 50,
            figure1_lambdas: 3,
            ..Settings::quick()
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        damage::temp_dir("bt", name)
    }

    /// Runs Figure 1 as `reproduce` does (Table 1 left out), writing every output under `out`.
    fn run(study: &Figure1Study, out: &Path) {
        let runner = RunnerSettings {
            progress: Progress::Never,
            ..RunnerSettings::default()
        };
        run_both(out, study, Err("not in this test".into()), runner).unwrap();
    }

    #[test]
    fn exported_figure1_inputs_run_again_give_the_same_bytes() {
        let dir = temp_dir("round-trip");
        let (inputs, drawn, read) = (dir.join("inputs"), dir.join("drawn"), dir.join("read"));
        let study = Figure1Study::new(small()).unwrap();
        export_figure1_inputs(&inputs, &study).unwrap();
        let imported = Figure1Study::new(small())
            .unwrap()
            .with_inputs(&inputs)
            .unwrap();
        assert_eq!(imported.input_source(), &InputSource::Seed);
        assert_eq!(imported.fingerprint(), study.fingerprint());
        run(&study, &drawn);
        run(&imported, &read);
        let (a, b) = (files(&drawn), files(&read));
        assert!(
            a.contains_key(&PathBuf::from("REPORT.md")),
            "{:?}",
            a.keys()
        );
        assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
        for (name, bytes) in &a {
            assert!(bytes == &b[name], "{} differs", name.display());
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn other_figure1_inputs_are_another_study_named_in_the_report() {
        let dir = temp_dir("other");
        let (inputs, out) = (dir.join("inputs"), dir.join("out"));
        let study = Figure1Study::new(small()).unwrap();
        export_figure1_inputs(&inputs, &study).unwrap();
        // Experiment 1's first row of size 8 moves.
        let path = dataset_csv_path(&inputs, "gaussian-identity-train-8");
        edit_line(&path, 10, |line| {
            let (replicate, rest) = line.split_once(',').unwrap();
            assert_eq!(replicate, "1");
            format!("1,12.5,{}", rest.split_once(',').unwrap().1)
        });
        let other = Figure1Study::new(small())
            .unwrap()
            .with_inputs(&inputs)
            .unwrap();
        let InputSource::Files { digest } = other.input_source() else {
            panic!("changed inputs are not the seed's");
        };
        assert_ne!(other.fingerprint(), study.fingerprint());
        let changed = Cell::new("gaussian-identity", 8, 1);
        assert!(!other
            .run_cell(&changed)
            .unwrap()
            .bitwise_eq(&study.run_cell(&changed).unwrap()));
        let untouched = Cell::new("gaussian-identity", 8, 0);
        assert!(other
            .run_cell(&untouched)
            .unwrap()
            .bitwise_eq(&study.run_cell(&untouched).unwrap()));
        run(&other, &out);
        let report = fs::read_to_string(out.join("REPORT.md")).unwrap();
        assert!(report.contains("read from files rather than"), "{report}");
        assert!(report.contains(digest.as_str()), "{report}");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The error of reading `inputs` after `damage` changed a copy of a good export.
    fn read_damaged(name: &str, damage: impl FnOnce(&Path)) -> StudyError {
        let inputs = temp_dir(name);
        export_figure1_inputs(&inputs, &Figure1Study::new(small()).unwrap()).unwrap();
        damage(&inputs);
        let error = Figure1Study::new(small())
            .unwrap()
            .with_inputs(&inputs)
            .err()
            .expect("a damaged directory is refused");
        fs::remove_dir_all(&inputs).unwrap();
        error
    }

    #[test]
    fn a_malformed_figure1_directory_is_an_error_naming_file_and_line() {
        let test = "datasets/correlated-uniform-test.csv";
        let train = "datasets/correlated-uniform-train-5.csv";
        let error = read_damaged("missing", |dir| fs::remove_file(dir.join(train)).unwrap());
        assert!(
            matches!(&error, StudyError::Core(Error::Io { path, .. }) if path.ends_with(train)),
            "{error}"
        );
        let error = read_damaged("ragged", |dir| {
            edit_line(&dir.join(test), 8, |l| l.rsplit_once(',').unwrap().0.into())
        });
        assert_parse_error(error, test, 8, "has 4 fields");
        let error = read_damaged("text", |dir| {
            edit_line(&dir.join(test), 5, |l| l.replacen(',', ",abc", 1))
        });
        assert_parse_error(error, test, 5, "not a number");
        let error = read_damaged("class", |dir| {
            edit_line(&dir.join(test), 3, |l| {
                format!("{},2", l.rsplit_once(',').unwrap().0)
            })
        });
        assert_parse_error(error, test, 3, "not 0 or 1");
        let error = read_damaged("experiment", |dir| {
            edit_line(&dir.join(train), 4, |l| format!("2{}", &l[1..]))
        });
        assert_parse_error(error, train, 4, "not one of this run's");
        // Experiment 1's rows (lines 7 to 11) lose their last.
        let error = read_damaged("short", |dir| {
            let path = dir.join(train);
            let text = fs::read_to_string(&path).unwrap();
            let kept: Vec<&str> = text.lines().take(10).collect();
            fs::write(&path, kept.join("\n") + "\n").unwrap();
        });
        assert_parse_error(error, train, 11, "4 rows of experiment 1");
    }

    #[test]
    fn figure1_exports_each_data_source_once_with_every_experiment() {
        let settings = Settings {
            figure1_sizes: vec![5, 8],
            figure1_replicates: 3,
            figure1_test_size: 50,
            ..Settings::quick()
        };
        let study = Figure1Study::new(settings).unwrap();
        let dir = std::env::temp_dir().join(format!("gendisc-bt-inputs-{}", std::process::id()));
        export_figure1_inputs(&dir, &study).unwrap();
        let mut names: Vec<String> = std::fs::read_dir(dir.join("datasets"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        // Three data sources (the priors-estimated reading shares (a)'s), a test set and two
        // sizes each.
        assert_eq!(names.len(), 9, "{names:?}");
        assert!(
            !names.iter().any(|n| n.contains("priors-estimated")),
            "{names:?}"
        );

        let test = read_dataset_csv(&dataset_csv_path(&dir, "gaussian-identity-test")).unwrap();
        assert_eq!(test.n_rows(), 50);
        let train = read_dataset_csv(&dataset_csv_path(&dir, "gaussian-identity-train-8")).unwrap();
        assert_eq!(train.features[0], "replicate");
        assert_eq!(train.n_rows(), 3 * 8);
        // The draw of the cell's stream, as `run_cell` makes it.
        let mut rng = Cell::new("gaussian-identity", 8, 2).rng(study.settings().seed);
        let (x, y) = loop {
            let (x, y) = Figure1Reading::Gaussian.sample(8, &mut rng);
            if y.iter().any(|&k| k == 0) && y.iter().any(|&k| k == 1) {
                break (x, y);
            }
        };
        for i in 0..8 {
            let row = &train.x[(16 + i) * 5..(17 + i) * 5];
            assert_eq!(row[0], 2.0);
            assert!(row[1..]
                .iter()
                .zip(x.row(i))
                .all(|(a, b)| a.to_bits() == b.to_bits()));
            assert_eq!(train.y[16 + i], y[i]);
        }
        assert!(y.iter().any(|&k| k == 0) && y.iter().any(|&k| k == 1));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Table 1 on one made-up dataset of 160 rows, in australian's place (training size 100),
    /// three trials: the Statlog files are not needed.
    fn toy_table1() -> Table1Study {
        let settings = small();
        let n = 160;
        let y: Array1<usize> = (0..n).map(|i| usize::from(i % 3 == 0)).collect();
        let x = Array2::from_shape_fn((n, 6), |(i, j)| ((i * (j + 3)) % 17) as f64 / 4.0);
        Table1Study {
            datasets: vec![TableDataset {
                which: Statlog::Australian,
                x,
                y,
                n_classes: 2,
            }],
            splits: None,
            source: InputSource::Seed,
            blocks: table1_blocks(&settings),
            schema: gendisc_engine::Schema::with_metrics::<Table1Metric, _>(table1_rows(&settings))
                .unwrap(),
            settings,
        }
    }

    #[test]
    fn table1_inputs_read_back_are_the_study_and_others_are_not() {
        let inputs = temp_dir("table1");
        let study = toy_table1();
        export_table1_inputs(&inputs, &study).unwrap();
        let imported = toy_table1().with_inputs(&inputs).unwrap();
        assert_eq!(imported.input_source(), &InputSource::Seed);
        assert_eq!(imported.fingerprint(), study.fingerprint());
        let d = &study.datasets[0];
        for r in 0..3 {
            let cell = Cell::new("australian", 100, r);
            let (ours, mut our_rng) = study.trial_split(d, &cell).unwrap();
            let (theirs, mut their_rng) =
                imported.trial_split(&imported.datasets[0], &cell).unwrap();
            assert_eq!(ours, theirs);
            // The cross-validation's seed, drawn after the split, is the same too.
            assert_eq!(our_rng.random::<u64>(), their_rng.random::<u64>());
        }

        // Trial 2 trains on row 159 in place of its first.
        let path = training_rows_csv_path(&inputs, "australian", 100);
        edit_line(&path, 4, |line| {
            let mut fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields[0], "2");
            assert!(!fields[1..].contains(&"159"), "{line}");
            fields[1] = "159";
            fields.join(",")
        });
        let other = toy_table1().with_inputs(&inputs).unwrap();
        assert!(matches!(other.input_source(), InputSource::Files { .. }));
        assert_ne!(other.fingerprint(), study.fingerprint());
        let cell = Cell::new("australian", 100, 2);
        let (split, _) = other.trial_split(&other.datasets[0], &cell).unwrap();
        assert_eq!(split.train[0], 159);
        assert!(!split.test.contains(&159));

        // A trial missing, and an index beyond the rows: errors naming file and line.
        edit_line(&path, 3, |line| {
            format!(
                "1,160,{}",
                line.split_once(',').unwrap().1.split_once(',').unwrap().1
            )
        });
        let error = toy_table1().with_inputs(&inputs).err().expect("refused");
        assert_parse_error(
            error,
            "splits/australian/train-100.csv",
            3,
            "not a row of the dataset",
        );
        let text = fs::read_to_string(&path).unwrap();
        let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with("1,")).collect();
        fs::write(&path, kept.join("\n") + "\n").unwrap();
        let error = toy_table1().with_inputs(&inputs).err().expect("refused");
        assert_parse_error(
            error,
            "splits/australian/train-100.csv",
            4,
            "without replicate 1",
        );
        fs::remove_dir_all(&inputs).unwrap();
    }
}
