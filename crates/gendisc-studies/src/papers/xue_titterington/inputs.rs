//! The study's inputs as plain files: the twelve datasets and every replicate's training rows,
//! written by [`export_inputs`] and read back by [`XueTitteringtonStudy::from_inputs`], so that
//! the same replicates can be run elsewhere (R, Python) and compared replicate by replicate, or
//! the study run here on someone else's datasets and splits.
//!
//! The directory holds, in the tables of [`gendisc_engine::interchange`]:
//!
//! * `datasets/<dataset>.csv` — the dataset's 1000 rows (class 0, the paper's `y = 1`, first):
//!   columns `x1, x2, x3, x4, y`, with `y` the class index 0 or 1 (the paper's `y = 1`, `y = 2`);
//! * `splits/<dataset>/train-<m>.csv` — one row per replicate: `replicate` and the `m` 0-based
//!   training row indices, in increasing order. The test set is every other row, in increasing
//!   order (§3.1.4: the `1000 − m` rows left).
//!
//! **Fingerprint.** Inputs read back that are, bit for bit and index for index, what the study
//! seed draws are the study of that seed: same fingerprint, same result store, same outputs.
//! Any other inputs give the study another fingerprint (the seed's, the word `inputs` and a
//! digest of the datasets and splits read), and the report and `DATASETS.md` say that the data
//! came from files, with that digest, instead of naming the seed.

use std::path::Path;

use gendisc_core::Error;
use gendisc_data::generators::xue_titterington::N_FEATURES;
use gendisc_data::splits::{xue_titterington_split, Split};
use gendisc_engine::interchange::{
    dataset_csv_path, read_dataset_csv, read_training_rows_csv, training_rows_csv_path,
    write_dataset_csv, write_training_rows_csv,
};
use gendisc_engine::{fingerprint, Cell, Result};
use ndarray::{Array1, Array2};

use super::{Dataset, Settings, XueTitteringtonStudy};
use crate::papers::inputs::same_bits;
pub use crate::papers::inputs::InputSource;
pub(super) use crate::papers::inputs::TrainingRows;

/// The feature columns of a dataset table.
const FEATURES: [&str; N_FEATURES] = ["x1", "x2", "x3", "x4"];

/// Writes the datasets that `settings`' seed draws and every replicate's training rows under
/// `dir`, in the tables of [`gendisc_engine::interchange`]: `datasets/<dataset>.csv` (columns
/// `x1 … x4, y`, `y` the class index 0 or 1, i.e. the paper's `y = 1` or `y = 2`) and
/// `splits/<dataset>/train-<m>.csv` (per replicate, the `m` training row indices, 0-based and
/// increasing; the test set is every other row). The result is what
/// [`XueTitteringtonStudy::from_inputs`] reads.
pub fn export_inputs(dir: &Path, settings: &Settings) -> Result<()> {
    let study = XueTitteringtonStudy::new(settings.clone())?;
    for dataset in &study.datasets {
        let name = dataset.preset.name();
        let x: Vec<f64> = dataset.x.iter().copied().collect();
        let y = dataset.y.to_vec();
        write_dataset_csv(&dataset_csv_path(dir, name), &FEATURES, &x, &y)?;
        for &m in &settings.sizes {
            let rows = (0..settings.replicates)
                .map(|r| study.drawn_training_rows(dataset, &Cell::new(name, m, r)))
                .collect::<gendisc_core::Result<Vec<_>>>()?;
            write_training_rows_csv(&training_rows_csv_path(dir, name, m), m, &rows)?;
        }
    }
    Ok(())
}

impl XueTitteringtonStudy {
    /// The study of `settings` on the datasets and training rows read from `dir` (as
    /// [`export_inputs`] writes them) instead of those the seed draws: every dataset of the
    /// study, and for each training size of `settings` the training rows of each of its
    /// replicates; the test set of a replicate is every other row of its dataset, in increasing
    /// order.
    ///
    /// Inputs that are, bit for bit and index for index, what the seed draws are the study of
    /// the seed (same fingerprint, same outputs); any others give a fingerprint of their own,
    /// and [`XueTitteringtonStudy::input_source`] holds their digest, which the report names.
    ///
    /// Errors: an I/O error naming a missing file; a parse error naming file, line and field for
    /// a malformed table (ragged row, a value that is not a number, a class other than 0 or 1,
    /// a dataset without four features, an index that is not a row or repeated, a replicate
    /// missing or repeated).
    pub fn from_inputs(settings: Settings, dir: &Path) -> Result<Self> {
        let mut study = Self::new(settings)?;
        let mut read = Vec::with_capacity(study.datasets.len());
        for dataset in &study.datasets {
            let name = dataset.preset.name();
            let path = dataset_csv_path(dir, name);
            let table = read_dataset_csv(&path)?;
            check_dataset(&path, &table)?;
            let n_rows = table.n_rows();
            let imported = Dataset {
                preset: dataset.preset,
                x: Array2::from_shape_vec((n_rows, N_FEATURES), table.x)
                    .map_err(|e| Error::invalid_parameter("dataset", e.to_string()))?,
                y: Array1::from(table.y),
            };
            let mut splits = Vec::with_capacity(study.settings.sizes.len());
            for &m in &study.settings.sizes {
                let path = training_rows_csv_path(dir, name, m);
                let rows = read_training_rows_csv(&path, m, study.settings.replicates, n_rows)?;
                splits.push(TrainingRows::new(&rows, m)?);
            }
            read.push((imported, splits));
        }
        let same_as_seed = read
            .iter()
            .zip(&study.datasets)
            .all(|((imported, splits), drawn)| {
                same_data(imported, drawn)
                    && study.settings.sizes.iter().zip(splits).all(|(&m, rows)| {
                        (0..study.settings.replicates).all(|r| {
                            let cell = Cell::new(drawn.preset.name(), m, r);
                            study.drawn_training_rows(drawn, &cell).ok() == rows.replicate(r)
                        })
                    })
            });
        if !same_as_seed {
            study.source = InputSource::Files {
                digest: digest(&read),
            };
        }
        let (datasets, splits) = read.into_iter().unzip();
        study.datasets = datasets;
        study.splits = Some(splits);
        Ok(study)
    }

    /// Where the datasets and splits come from.
    pub fn input_source(&self) -> &InputSource {
        &self.source
    }

    /// The training rows that the seed draws for `cell` of `dataset` (§3.1.4).
    pub(super) fn drawn_training_rows(
        &self,
        dataset: &Dataset,
        cell: &Cell,
    ) -> gendisc_core::Result<Vec<usize>> {
        Ok(self.drawn_split(dataset, cell)?.train)
    }

    /// The split that the seed draws for `cell` of `dataset`: its training rows and the test
    /// rows, every other row (§3.1.4).
    pub(super) fn drawn_split(
        &self,
        dataset: &Dataset,
        cell: &Cell,
    ) -> gendisc_core::Result<Split> {
        xue_titterington_split(
            dataset.y.view(),
            cell.train_size,
            &mut cell.rng(self.settings.seed),
        )
    }
}

/// A dataset table of the study has four features and classes 0 and 1 only.
fn check_dataset(path: &Path, table: &gendisc_engine::interchange::DatasetTable) -> Result<()> {
    let parse = |line: usize, column: usize, message: String| -> gendisc_engine::StudyError {
        Error::Parse {
            path: path.to_path_buf(),
            line,
            column,
            message,
        }
        .into()
    };
    if table.features.len() != N_FEATURES {
        return Err(parse(
            1,
            1,
            format!(
                "a dataset of this study has {N_FEATURES} features (the hybrid's regions are \
                 (x1, x2) and (x3, x4)); the header names {}",
                table.features.len()
            ),
        ));
    }
    if let Some(row) = table.y.iter().position(|&k| k > 1) {
        return Err(parse(
            row + 2,
            N_FEATURES + 1,
            format!("class {} is not 0 or 1", table.y[row]),
        ));
    }
    Ok(())
}

fn same_data(a: &Dataset, b: &Dataset) -> bool {
    a.y == b.y && same_bits(&a.x, &b.x)
}

/// A fingerprint of every value and index read, dataset by dataset.
fn digest(read: &[(Dataset, Vec<TrainingRows>)]) -> String {
    super::super::inputs::digest(read.iter().map(|(dataset, splits)| {
        let bits: Vec<u64> = dataset.x.iter().map(|v| v.to_bits()).collect();
        (fingerprint(&bits), &dataset.y, splits.as_slice())
    }))
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::PathBuf;

    use gendisc_engine::runner::Progress;
    use gendisc_engine::{RunnerSettings, Study, StudyError};

    use super::super::{reproduce, reproduce_from_inputs};
    use super::*;
    use crate::papers::inputs::damage::{self, assert_parse_error, edit_line, files};

    fn small() -> Settings {
        Settings {
            sizes: vec![100, 400],
            replicates: 3,
            ..Settings::paper()
        }
    }

    fn quiet() -> RunnerSettings {
        RunnerSettings {
            progress: Progress::Never,
            ..RunnerSettings::default()
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        damage::temp_dir("xt", name)
    }

    /// The quick study (every size, 20 replicates), as continuous integration runs it.
    #[test]
    fn exported_inputs_run_again_give_the_same_bytes() {
        let dir = temp_dir("round-trip");
        let (inputs, drawn, read) = (dir.join("inputs"), dir.join("drawn"), dir.join("read"));
        let settings = small();
        export_inputs(&inputs, &settings).unwrap();
        let exported = files(&inputs);
        // 12 datasets and 12 × 2 split files (one per training-set size).
        assert_eq!(exported.len(), 12 + 12 * 2, "{:?}", exported.keys());
        let first = &exported[&PathBuf::from("splits/normal-equal-full/train-100.csv")];
        let text = String::from_utf8(first.clone()).unwrap();
        // A header and one row per replicate.
        assert_eq!(text.lines().count(), 1 + 3);

        reproduce(&drawn, settings.clone(), quiet()).unwrap();
        reproduce_from_inputs(&read, &inputs, settings, quiet()).unwrap();
        let (a, b) = (files(&drawn), files(&read));
        assert!(
            a.contains_key(&PathBuf::from("cells.csv")),
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
        let settings = small();
        export_inputs(&inputs, &settings).unwrap();
        let seeded = XueTitteringtonStudy::new(settings.clone()).unwrap();
        let same = XueTitteringtonStudy::from_inputs(settings.clone(), &inputs).unwrap();
        assert_eq!(same.input_source(), &InputSource::Seed);
        assert_eq!(same.fingerprint(), seeded.fingerprint());

        // Replicate 1 of m = 100 trains on row 999 instead of its first row.
        let path = training_rows_csv_path(&inputs, "bernoulli-equal-block", 100);
        let text = fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let mut fields: Vec<&str> = lines[2].split(',').collect();
        assert!(!fields[1..].contains(&"999"));
        fields[1] = "999";
        lines[2] = fields.join(",");
        fs::write(&path, lines.join("\n") + "\n").unwrap();
        let other = XueTitteringtonStudy::from_inputs(settings.clone(), &inputs).unwrap();
        assert!(matches!(other.input_source(), InputSource::Files { .. }));
        assert_ne!(other.fingerprint(), seeded.fingerprint());
        let cell = Cell::new("bernoulli-equal-block", 100, 1);
        assert!(!other
            .run_cell(&cell)
            .unwrap()
            .bitwise_eq(&seeded.run_cell(&cell).unwrap()));
        let untouched = Cell::new("bernoulli-equal-block", 100, 0);
        assert!(other
            .run_cell(&untouched)
            .unwrap()
            .bitwise_eq(&seeded.run_cell(&untouched).unwrap()));

        reproduce_from_inputs(&out, &inputs, settings, quiet()).unwrap();
        let report = fs::read_to_string(out.join("REPORT.md")).unwrap();
        let datasets = fs::read_to_string(out.join("DATASETS.md")).unwrap();
        for text in [&report, &datasets] {
            assert!(text.contains("read from files rather than drawn"), "{text}");
            assert!(!text.contains("study seed 20080301."), "{text}");
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The error of reading `inputs` after `damage` changed a copy of a good export.
    fn read_damaged(name: &str, damage: impl FnOnce(&Path)) -> StudyError {
        let inputs = temp_dir(name);
        export_inputs(&inputs, &small()).unwrap();
        damage(&inputs);
        let error = XueTitteringtonStudy::from_inputs(small(), &inputs)
            .err()
            .expect("a damaged directory is refused");
        fs::remove_dir_all(&inputs).unwrap();
        error
    }

    #[test]
    fn a_malformed_directory_is_an_error_naming_file_and_line() {
        let dataset = "datasets/normal-unequal-block.csv";
        let split = "splits/normal-unequal-block/train-400.csv";

        let error = read_damaged("missing", |dir| fs::remove_file(dir.join(split)).unwrap());
        assert!(
            matches!(&error, StudyError::Core(Error::Io { path, .. }) if path.ends_with(split)),
            "{error}"
        );
        let error = read_damaged("ragged", |dir| {
            edit_line(&dir.join(dataset), 8, |l| {
                l.rsplit_once(',').unwrap().0.into()
            })
        });
        assert_parse_error(error, dataset, 8, "4 fields");
        let error = read_damaged("text", |dir| {
            edit_line(&dir.join(dataset), 5, |l| l.replacen(',', ",abc", 1))
        });
        assert_parse_error(error, dataset, 5, "not a number");
        let error = read_damaged("class", |dir| {
            edit_line(&dir.join(dataset), 3, |l| {
                format!("{},2", l.rsplit_once(',').unwrap().0)
            })
        });
        assert_parse_error(error, dataset, 3, "not 0 or 1");
        let error = read_damaged("index", |dir| {
            edit_line(&dir.join(split), 3, |l| {
                let (replicate, rest) = l.split_once(',').unwrap();
                let rest = rest.split_once(',').unwrap().1;
                format!("{replicate},1000,{rest}")
            })
        });
        assert_parse_error(error, split, 3, "not a row of the dataset");
        let error = read_damaged("replicate", |dir| {
            let path = dir.join(split);
            let text = fs::read_to_string(&path).unwrap();
            let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with("1,")).collect();
            fs::write(&path, kept.join("\n") + "\n").unwrap();
        });
        assert_parse_error(error, split, 4, "without replicate 1");
    }
}
