//! The study's inputs as plain files, in the tables of [`gendisc_engine::interchange`], so that
//! its experiments can be re-run elsewhere on the very same data.

use std::path::Path;

use gendisc_engine::interchange::{
    dataset_csv_path, training_rows_csv_path, write_dataset_csv, write_training_rows_csv,
};
use gendisc_engine::{Cell, Result};
use ndarray::{Array1, Array2};

use gendisc_data::splits::random_split;

use super::{Figure1Reading, Figure1Study, Table1Study};

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
                let (x, y) = training_sample(*reading, m, r, settings.seed);
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

/// The training sample of Figure 1's experiment `replicate` of size `m`, drawn as
/// `Figure1Study::run_cell` draws it: from the stream of the data source's cell, redrawn (from
/// the same stream) until both classes are present.
fn training_sample(
    reading: Figure1Reading,
    m: usize,
    replicate: usize,
    seed: u64,
) -> (Array2<f64>, Array1<usize>) {
    let mut rng = Cell::new(reading.data(), m, replicate).rng(seed);
    loop {
        let (x, y) = reading.sample(m, &mut rng);
        if y.iter().any(|&k| k == 0) && y.iter().any(|&k| k == 1) {
            return (x, y);
        }
    }
}

/// Writes Table 1's data under `dir`: `datasets/<dataset>.csv`, each Statlog dataset as the
/// study reads it (its features, then `y`, the class index `0 … K − 1` in sorted order of the
/// file's labels), and `splits/<dataset>/train-<m>.csv`, the training rows of every trial (the
/// test set is every other row). The Fisher/PCA reduction and the cross-validation folds are
/// computed from these in each trial and are not exported.
pub fn export_table1_inputs(dir: &Path, study: &Table1Study) -> Result<()> {
    let seed = study.settings().seed;
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
                // The first draw of the trial's stream, as `Table1Study::run_cell` makes it.
                let mut rng = Cell::new(name, m, r).rng(seed);
                random_split(d.y.view(), m, &mut rng).map(|split| split.train)
            })
            .collect::<gendisc_core::Result<Vec<_>>>()?;
        write_training_rows_csv(&training_rows_csv_path(dir, name, m), m, &rows)?;
    }
    Ok(())
}

fn row_major(x: &Array2<f64>) -> Vec<f64> {
    x.iter().copied().collect()
}

#[cfg(test)]
mod tests {
    use gendisc_engine::interchange::read_dataset_csv;

    use super::super::Settings;
    use super::*;

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
        let (x, y) = training_sample(Figure1Reading::Gaussian, 8, 2, study.settings().seed);
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
}
