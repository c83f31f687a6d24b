//! The study's inputs as plain files, so that its splits can be re-run elsewhere (R, Python)
//! and compared replicate by replicate: [`export_inputs`] writes, in the tables of
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
//! The random separator's walks draw from the same stream after the split; they are not
//! exported.

use std::path::Path;

use gendisc_data::splits::random_split;
use gendisc_engine::interchange::{
    dataset_csv_path, training_rows_csv_path, write_dataset_csv, write_training_rows_csv,
};
use gendisc_engine::{Cell, Result};

use super::datasets::Inputs;
use super::NgJordanStudy;

/// Writes every dataset of `study` as the study prepares it, `dir/datasets/<dataset>.csv`
/// (standardised continuous inputs, or discrete level codes `0 … L_j − 1`, then `y`), and the
/// training rows of every split of every training size, `dir/splits/<dataset>/train-<m>.csv`,
/// in the tables of [`gendisc_engine::interchange`]; the test set of a split is every other row.
pub fn export_inputs(dir: &Path, study: &NgJordanStudy) -> Result<()> {
    let seed = study.settings().seed;
    for dataset in study.datasets() {
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
                    // The first draws of the cell's stream, as `run_cell` makes them.
                    let mut rng = Cell::new(name, m, r).rng(seed);
                    random_split(dataset.y.view(), m, &mut rng).map(|split| split.train)
                })
                .collect::<gendisc_core::Result<Vec<_>>>()?;
            write_training_rows_csv(&training_rows_csv_path(dir, name, m), m, &rows)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use gendisc_engine::interchange::{read_dataset_csv, read_training_rows_csv};
    use ndarray::{Array1, Array2};

    use super::super::datasets::{Dataset, DATASETS};
    use super::super::Settings;
    use super::*;

    #[test]
    fn the_export_holds_the_prepared_data_and_every_split() {
        let n = 30;
        let y: Array1<usize> = (0..n).map(|i| usize::from(i % 3 == 0)).collect();
        let x = Array2::from_shape_fn((n, 2), |(i, j)| (i * (j + 2)) as f64 / 7.0 - 1.5);
        let dataset = Dataset {
            spec: DATASETS[0],
            inputs: Inputs::Continuous(x.clone()),
            y: y.clone(),
            rows_left_out: 0,
        };
        let settings = Settings {
            splits: 4,
            ..Settings::quick()
        };
        let study = NgJordanStudy::with_datasets(settings, vec![dataset]).unwrap();
        let dir = std::env::temp_dir().join(format!("gendisc-nj-inputs-{}", std::process::id()));
        export_inputs(&dir, &study).unwrap();

        let name = DATASETS[0].name;
        let table = read_dataset_csv(&dataset_csv_path(&dir, name)).unwrap();
        assert_eq!(table.features, ["x1", "x2"]);
        assert_eq!(table.y, y.to_vec());
        assert!(table
            .x
            .iter()
            .zip(x.iter())
            .all(|(a, b)| a.to_bits() == b.to_bits()));
        let grid = study.grid(&study.datasets()[0]);
        assert!(grid.len() > 2, "{grid:?}");
        for &m in &grid {
            let path = training_rows_csv_path(&dir, name, m);
            let rows = read_training_rows_csv(&path, m, 4, n).unwrap();
            for (r, train) in rows.iter().enumerate() {
                let expected = random_split(
                    y.view(),
                    m,
                    &mut Cell::new(name, m, r).rng(study.settings().seed),
                )
                .unwrap()
                .train;
                assert_eq!(train, &expected, "m = {m}, split {r}");
                assert!(train.iter().any(|&i| y[i] == 0) && train.iter().any(|&i| y[i] == 1));
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
