//! The study's inputs as plain files, so that its splits can be re-run elsewhere (R, Python)
//! and compared replicate by replicate, or the study run here on data of one's own:
//! [`export_inputs`] writes, and [`NgJordanStudy::from_inputs`] reads, in the tables of
//! [`gendisc_engine::interchange`],
//!
//! * `datasets/<dataset>.csv` — each dataset as the study prepares it (see [`super::datasets`]):
//!   standardised continuous inputs, or discrete level codes `0 … L_j − 1` (which logistic
//!   regression sees as one 0/1 indicator per level), then `y`, 1 for the task's first-named
//!   class;
//! * `splits/<dataset>/train-<m>.csv` — for each training size of the dataset's grid, one row per
//!   split: `replicate` and the `m` training row indices (0-based, increasing). The test set is
//!   every other row, in increasing order.
//!
//! The random separator's walks draw from the cell's stream after the split; they are not
//! exported. A study run on files draws them from the same stream, after the split the seed
//! would have drawn on the dataset read, so that files holding the study's own data run the
//! very same walks.
//!
//! **Fingerprint.** Inputs read back that are, bit for bit and index for index, the prepared
//! datasets and the splits the study seed draws are the study itself: same fingerprint, same
//! result store, same outputs. Any other inputs give the study another fingerprint (the
//! study's, the word `inputs` and a digest of the datasets and splits read), and the report
//! says that the data came from files, with that digest, instead of naming the seed.

use std::path::Path;

use gendisc_core::Error;
use gendisc_engine::interchange::{
    dataset_csv_path, read_dataset_csv, read_training_rows_csv, training_rows_csv_path,
    write_dataset_csv, write_training_rows_csv, DatasetTable,
};
use gendisc_engine::{fingerprint, Cell, Result, StudyError};
use ndarray::{Array1, Array2};

use super::datasets::{one_hot, Dataset, InputKind, Inputs};
use super::NgJordanStudy;
use crate::papers::inputs::same_bits;
pub use crate::papers::inputs::InputSource;
pub(super) use crate::papers::inputs::TrainingRows;

/// Writes every dataset of `study` as the study prepares it, `dir/datasets/<dataset>.csv`
/// (standardised continuous inputs, or discrete level codes `0 … L_j − 1`, then `y`), and the
/// training rows of every split of every training size, `dir/splits/<dataset>/train-<m>.csv`,
/// in the tables of [`gendisc_engine::interchange`]; the test set of a split is every other row.
/// The splits are those the study's cells run (drawn by the same function), so that
/// [`NgJordanStudy::from_inputs`] on the directory is the same study.
pub fn export_inputs(dir: &Path, study: &NgJordanStudy) -> Result<()> {
    for (index, dataset) in study.datasets().iter().enumerate() {
        let name = dataset.spec.name;
        let x = match &dataset.inputs {
            Inputs::Continuous(x) => x,
            Inputs::Discrete { codes, .. } => codes,
        };
        let features: Vec<String> = (1..=x.ncols()).map(|j| format!("x{j}")).collect();
        let values: Vec<f64> = x.iter().copied().collect();
        write_dataset_csv(
            &dataset_csv_path(dir, name),
            &features,
            &values,
            &dataset.y.to_vec(),
        )?;
        for m in study.grid(dataset) {
            let rows = (0..study.settings().splits)
                .map(|r| {
                    let cell = Cell::new(name, m, r);
                    study.cell_split(index, &cell).map(|(split, _)| split.train)
                })
                .collect::<gendisc_core::Result<Vec<_>>>()?;
            write_training_rows_csv(&training_rows_csv_path(dir, name, m), m, &rows)?;
        }
    }
    Ok(())
}

impl NgJordanStudy {
    /// The study of `settings` on the datasets and training rows read from `dir` (as
    /// [`export_inputs`] writes them) instead of the prepared UCI datasets and the splits the
    /// seed draws: see [`NgJordanStudy::with_inputs`]. The UCI datasets are read too, to tell
    /// whether the files hold exactly them.
    pub fn from_inputs(settings: super::Settings, dir: &Path) -> Result<Self> {
        Self::new(settings)?.with_inputs(dir)
    }

    /// This study on the datasets and training rows read from `dir`: for every dataset of the
    /// study (by name, with its kind of inputs), its table, and for each training size of its
    /// grid (the grid of the table's row count) the training rows of each split; the test set of
    /// a split is every other row of its dataset, in increasing order. Discrete inputs are level
    /// codes, attribute `j` having the levels `0 … L_j − 1` up to its largest code.
    ///
    /// Inputs that are, bit for bit and index for index, this study's datasets and the splits
    /// its seed draws are this study (same fingerprint, same outputs); any others give a
    /// fingerprint of their own, and [`NgJordanStudy::input_source`] holds their digest, which
    /// the report names.
    ///
    /// Errors: an I/O error naming a missing file; a parse error naming file, line and field for
    /// a malformed table (ragged row, a value that is not a number, a class other than 0 or 1,
    /// a discrete level code that is not an integer `0 … n − 1`, an index that is not a row or
    /// repeated, a split missing or repeated); an invalid-parameter error naming the file and
    /// the split for a training set without a row of each class; the errors of
    /// [`Dataset::check`] for a dataset that cannot be studied.
    pub fn with_inputs(self, dir: &Path) -> Result<Self> {
        let mut read = Vec::with_capacity(self.datasets.len());
        for own in &self.datasets {
            let path = dataset_csv_path(dir, own.spec.name);
            let table = read_dataset_csv(&path)?;
            let dataset = dataset_of(own, &path, table)?;
            let mut splits = Vec::new();
            for m in self.settings.grid(dataset.n_rows()) {
                let path = training_rows_csv_path(dir, own.spec.name, m);
                let rows =
                    read_training_rows_csv(&path, m, self.settings.splits, dataset.n_rows())?;
                check_classes(&path, &rows, &dataset)?;
                splits.push(TrainingRows::new(&rows, m)?);
            }
            read.push((dataset, splits));
        }
        let same = read.iter().enumerate().all(|(index, (dataset, splits))| {
            let own = &self.datasets[index];
            let grid = self.grid(own);
            same_data(dataset, own)
                && grid.len() == splits.len()
                && grid.iter().zip(splits).all(|(&m, rows)| {
                    (0..self.settings.splits).all(|r| {
                        let cell = Cell::new(own.spec.name, m, r);
                        let drawn = self.cell_split(index, &cell).ok();
                        drawn.map(|(split, _)| split.train) == rows.replicate(r)
                    })
                })
        });
        let source = if same {
            InputSource::Seed
        } else {
            InputSource::Files {
                digest: digest(&read),
            }
        };
        let (datasets, splits): (Vec<Dataset>, Vec<Vec<TrainingRows>>) = read.into_iter().unzip();
        let mut study = Self::with_datasets(self.settings, datasets)?;
        study.splits = Some(splits);
        study.source = source;
        Ok(study)
    }

    /// Where the datasets and splits come from.
    pub fn input_source(&self) -> &InputSource {
        &self.source
    }
}

/// The dataset of `own`'s panel held by `table`, read from `path`: continuous inputs as they
/// are, discrete ones as level codes.
fn dataset_of(own: &Dataset, path: &Path, table: DatasetTable) -> Result<Dataset> {
    let parse = |line: usize, column: usize, message: String| -> StudyError {
        Error::Parse {
            path: path.to_path_buf(),
            line,
            column,
            message,
        }
        .into()
    };
    let (n, d) = (table.n_rows(), table.features.len());
    if let Some(row) = table.y.iter().position(|&k| k > 1) {
        return Err(parse(
            row + 2,
            d + 1,
            format!("class {} is not 0 or 1", table.y[row]),
        ));
    }
    let x = Array2::from_shape_vec((n, d), table.x)
        .map_err(|e| Error::invalid_parameter("dataset", e.to_string()))?;
    let inputs = match own.spec.kind {
        InputKind::Continuous => Inputs::Continuous(x),
        InputKind::Discrete => {
            if let Some(((row, column), code)) = x
                .indexed_iter()
                .find(|&(_, &code)| !(code >= 0.0 && code.fract() == 0.0 && code < n as f64))
            {
                // A level beyond the row count cannot occur in every row's column.
                return Err(parse(
                    row + 2,
                    column + 1,
                    format!(
                        "{code} is not a level code of a discrete attribute (an integer 0 … {} \
                         for a table of {n} rows)",
                        n - 1
                    ),
                ));
            }
            let levels: Vec<usize> = x
                .columns()
                .into_iter()
                .map(|codes| codes.iter().fold(0, |top, &c| top.max(c as usize + 1)))
                .collect();
            Inputs::Discrete {
                one_hot: one_hot(&x, &levels),
                codes: x,
                levels,
            }
        }
    };
    let y = Array1::from(table.y);
    // The rows the preparation left out of the UCI files, when the table is that preparation.
    let rows_left_out = if y == own.y { own.rows_left_out } else { 0 };
    Ok(Dataset {
        spec: own.spec,
        inputs,
        y,
        rows_left_out,
    })
}

/// Every split's training rows hold a row of each class (as the seed's draws do): naive Bayes
/// and logistic regression need both.
fn check_classes(path: &Path, rows: &[Vec<usize>], dataset: &Dataset) -> Result<()> {
    for (replicate, train) in rows.iter().enumerate() {
        for class in 0..2 {
            if !train.iter().any(|&i| dataset.y[i] == class) {
                return Err(Error::invalid_parameter(
                    "training rows",
                    format!(
                        "{}: replicate {replicate}'s training rows hold no row of class {class}",
                        path.display()
                    ),
                )
                .into());
            }
        }
    }
    Ok(())
}

fn same_data(a: &Dataset, b: &Dataset) -> bool {
    a.y == b.y
        && match (&a.inputs, &b.inputs) {
            (Inputs::Continuous(x), Inputs::Continuous(y)) => same_bits(x, y),
            (
                Inputs::Discrete {
                    codes, levels: l, ..
                },
                Inputs::Discrete {
                    codes: other,
                    levels: m,
                    ..
                },
            ) => l == m && same_bits(codes, other),
            _ => false,
        }
}

/// A fingerprint of every value and index read, dataset by dataset.
fn digest(read: &[(Dataset, Vec<TrainingRows>)]) -> String {
    super::super::inputs::digest(read.iter().map(|(dataset, splits)| {
        let x = match &dataset.inputs {
            Inputs::Continuous(x) => x,
            Inputs::Discrete { codes, .. } => codes,
        };
        let bits: Vec<u64> = x.iter().map(|v| v.to_bits()).collect();
        (
            fingerprint(&(x.ncols(), bits)),
            &dataset.y,
            splits.as_slice(),
        )
    }))
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::PathBuf;

    use gendisc_data::splits::random_split;
    use gendisc_engine::runner::Progress;
    use gendisc_engine::{RunnerSettings, Study};

    use super::super::datasets::DATASETS;
    use super::super::tests::toy_datasets;
    use super::super::{write_outputs, Settings};
    use super::*;
    use crate::papers::inputs::damage::{self, assert_parse_error, edit_line, files};

    /// Three sizes of the toy datasets' grid, three splits: every classifier and reading runs,
    /// in a fraction of a second.
    fn small() -> Settings {
        Settings {
            splits: 3,
            grid_points: 3,
            ..Settings::quick()
        }
    }

    fn toy_study() -> NgJordanStudy {
        NgJordanStudy::with_datasets(small(), toy_datasets()).unwrap()
    }

    fn temp_dir(name: &str) -> PathBuf {
        damage::temp_dir("nj", name)
    }

    /// Runs `study` as `reproduce` does, writing every output under `out`.
    fn run(study: &NgJordanStudy, out: &Path) {
        let runner = RunnerSettings {
            progress: Progress::Never,
            ..RunnerSettings::default()
        };
        let results = crate::papers::run_stored(study, out, "cells.jsonl", runner).unwrap();
        write_outputs(out, study, &results).unwrap();
    }

    #[test]
    fn the_export_holds_the_prepared_data_and_the_splits_the_cells_draw() {
        let study = toy_study();
        let dir = temp_dir("export");
        export_inputs(&dir, &study).unwrap();

        let dataset = &study.datasets()[0];
        let name = dataset.spec.name;
        let table = read_dataset_csv(&dataset_csv_path(&dir, name)).unwrap();
        let Inputs::Continuous(x) = &dataset.inputs else {
            panic!("the first toy dataset is continuous");
        };
        assert_eq!(table.features, ["x1", "x2", "x3"]);
        assert_eq!(table.y, dataset.y.to_vec());
        assert!(table
            .x
            .iter()
            .zip(x.iter())
            .all(|(a, b)| a.to_bits() == b.to_bits()));
        let grid = study.grid(dataset);
        assert_eq!(grid.len(), 3, "{grid:?}");
        for &m in &grid {
            let path = training_rows_csv_path(&dir, name, m);
            let rows = read_training_rows_csv(&path, m, 3, dataset.n_rows()).unwrap();
            for (r, train) in rows.iter().enumerate() {
                // The stream's first draws, as a cell of the study makes them.
                let mut rng = Cell::new(name, m, r).rng(study.settings().seed);
                let expected = random_split(dataset.y.view(), m, &mut rng).unwrap().train;
                assert_eq!(train, &expected, "m = {m}, split {r}");
            }
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn exported_inputs_run_again_give_the_same_bytes() {
        let dir = temp_dir("round-trip");
        let (inputs, drawn, read) = (dir.join("inputs"), dir.join("drawn"), dir.join("read"));
        let study = toy_study();
        export_inputs(&inputs, &study).unwrap();
        // Two datasets, three sizes each.
        assert_eq!(files(&inputs).len(), 2 + 2 * 3);

        let imported = toy_study().with_inputs(&inputs).unwrap();
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
    fn other_inputs_are_another_study_named_in_the_report() {
        let dir = temp_dir("other");
        let (inputs, out) = (dir.join("inputs"), dir.join("out"));
        let study = toy_study();
        export_inputs(&inputs, &study).unwrap();
        let name = DATASETS[0].name;
        let m = study.grid(&study.datasets()[0])[1];

        // Split 1 of the middle size trains on the last row in place of its first.
        let path = training_rows_csv_path(&inputs, name, m);
        let last = (study.datasets()[0].n_rows() - 1).to_string();
        edit_line(&path, 3, |line| {
            let mut fields: Vec<&str> = line.split(',').collect();
            assert!(!fields[1..].contains(&last.as_str()), "{line}");
            fields[1] = &last;
            fields.join(",")
        });
        let other = toy_study().with_inputs(&inputs).unwrap();
        assert!(matches!(other.input_source(), InputSource::Files { .. }));
        assert_ne!(other.fingerprint(), study.fingerprint());
        let cell = Cell::new(name, m, 1);
        let (split, _) = other.cell_split(0, &cell).unwrap();
        assert!(split.train.contains(&(study.datasets()[0].n_rows() - 1)));
        let untouched = Cell::new(name, m, 0);
        assert!(other
            .run_cell(&untouched)
            .unwrap()
            .bitwise_eq(&study.run_cell(&untouched).unwrap()));

        run(&other, &out);
        let report = fs::read_to_string(out.join("REPORT.md")).unwrap();
        assert!(report.contains("read from files rather than"), "{report}");
        let InputSource::Files { digest } = other.input_source() else {
            unreachable!()
        };
        assert!(report.contains(digest.as_str()), "{report}");

        // A changed value of a dataset is another study too, and another digest.
        edit_line(&dataset_csv_path(&inputs, name), 2, |line| {
            format!("12.5,{}", line.split_once(',').unwrap().1)
        });
        let changed = toy_study().with_inputs(&inputs).unwrap();
        assert_ne!(changed.fingerprint(), other.fingerprint());
        assert_ne!(changed.input_source(), other.input_source());
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The error of reading `inputs` after `damage` changed a copy of a good export.
    fn read_damaged(name: &str, damage: impl FnOnce(&Path)) -> StudyError {
        let inputs = temp_dir(name);
        export_inputs(&inputs, &toy_study()).unwrap();
        damage(&inputs);
        let error = toy_study()
            .with_inputs(&inputs)
            .err()
            .expect("a damaged directory is refused");
        fs::remove_dir_all(&inputs).unwrap();
        error
    }

    #[test]
    fn a_malformed_directory_is_an_error_naming_file_and_line() {
        let continuous = format!("datasets/{}.csv", DATASETS[0].name);
        let discrete = format!("datasets/{}.csv", DATASETS[9].name);
        let m = toy_study().settings().grid(40)[1];
        let split = format!("splits/{}/train-{m}.csv", DATASETS[9].name);

        let error = read_damaged("missing", |dir| fs::remove_file(dir.join(&split)).unwrap());
        assert!(
            matches!(&error, StudyError::Core(Error::Io { path, .. }) if path.ends_with(&split)),
            "{error}"
        );
        let error = read_damaged("ragged", |dir| {
            edit_line(&dir.join(&continuous), 8, |l| {
                l.rsplit_once(',').unwrap().0.into()
            })
        });
        assert_parse_error(error, &continuous, 8, "has 3 fields");
        let error = read_damaged("text", |dir| {
            edit_line(&dir.join(&continuous), 5, |l| l.replacen(',', ",abc", 1))
        });
        assert_parse_error(error, &continuous, 5, "not a number");
        let error = read_damaged("class", |dir| {
            edit_line(&dir.join(&continuous), 3, |l| {
                format!("{},2", l.rsplit_once(',').unwrap().0)
            })
        });
        assert_parse_error(error, &continuous, 3, "not 0 or 1");
        let error = read_damaged("code", |dir| {
            edit_line(&dir.join(&discrete), 6, |l| format!("0.5{}", &l[1..]))
        });
        assert_parse_error(error, &discrete, 6, "not a level code");
        let error = read_damaged("index", |dir| {
            edit_line(&dir.join(&split), 3, |l| {
                let (replicate, rest) = l.split_once(',').unwrap();
                let rest = rest.split_once(',').unwrap().1;
                format!("{replicate},40,{rest}")
            })
        });
        assert_parse_error(error, &split, 3, "not a row of the dataset");
        let error = read_damaged("replicate", |dir| {
            let path = dir.join(&split);
            let text = fs::read_to_string(&path).unwrap();
            let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with("1,")).collect();
            fs::write(&path, kept.join("\n") + "\n").unwrap();
        });
        assert_parse_error(error, &split, 4, "without replicate 1");
        // The toy datasets alternate classes: the even rows are all of class 0.
        let error = read_damaged("one-class", |dir| {
            let path = dir.join(&split);
            let rows: Vec<String> = (0..m).map(|k| (2 * k).to_string()).collect();
            edit_line(&path, 2, |_| format!("0,{}", rows.join(",")));
        });
        let message = error.to_string();
        assert!(
            message.contains(&split) && message.contains("no row of class 1"),
            "{message}"
        );
    }
}
