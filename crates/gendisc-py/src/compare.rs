//! The engine of Python's `gendisc.compare`: [`gendisc_compare`] run on the caller's arrays,
//! writing the files `gendisc compare` writes, which the Python layer reads back as DataFrames.

use std::path::PathBuf;

use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use gendisc_compare::{
    compare as run_comparison, default_sizes, CompareStudy, DataDescription, Design, ModelKind,
    RunOptions,
};
use gendisc_engine::Progress;

/// The models a comparison knows: `(name, description, role)` of each, in the command's order.
#[pyfunction]
pub fn compare_models() -> Vec<(&'static str, &'static str, &'static str)> {
    ModelKind::ALL
        .into_iter()
        .map(|model| (model.name(), model.description(), model.role().name()))
        .collect()
}

/// How a run went: cells in all, run now, resumed from the store, and the wall time in seconds.
type RunCounts = (usize, usize, usize, f64);

/// Runs (or resumes) a comparison of `models` on `x` and the class indices `y` (`0 … K − 1`,
/// `classes` their labels in that order) into the directory `out`, and returns the training
/// sizes, then `(cells, ran, resumed, seconds)` of the run.
///
/// `features` name the columns of `x`, and `categorical` the table's columns that Python coded
/// into indicators among them, as the command codes a file's. `sizes` of `None` takes the
/// default grid of `grid_points` sizes, as `gendisc compare` does;
/// `name` is what the report calls the data.
#[pyfunction]
#[pyo3(signature = (
    x, y, classes, features, categorical, target, models, sizes, grid_points, replicates, seed, max_test,
    shrinkage, threads, out, name
))]
#[allow(clippy::too_many_arguments)]
pub fn compare(
    py: Python<'_>,
    x: PyReadonlyArray2<'_, f64>,
    y: PyReadonlyArray1<'_, i64>,
    classes: Vec<String>,
    features: Vec<String>,
    categorical: Vec<String>,
    target: String,
    models: Vec<String>,
    sizes: Option<Vec<usize>>,
    grid_points: usize,
    replicates: usize,
    seed: u64,
    max_test: Option<usize>,
    shrinkage: Option<f64>,
    threads: Option<usize>,
    out: PathBuf,
    name: String,
) -> PyResult<(Vec<usize>, RunCounts)> {
    if grid_points == 0 {
        return Err(PyValueError::new_err("grid_points must be at least 1"));
    }
    if features.len() != x.as_array().ncols() {
        return Err(PyValueError::new_err(format!(
            "{} feature names for {} columns",
            features.len(),
            x.as_array().ncols()
        )));
    }
    let n_classes = classes.len();
    let y = crate::class_indices(y.as_array(), n_classes)?;
    let models = models
        .iter()
        .map(|model| model.parse::<ModelKind>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut class_counts = vec![0; n_classes];
    for &k in &y {
        class_counts[k] += 1;
    }
    let sizes = sizes.unwrap_or_else(|| default_sizes(&class_counts, grid_points));
    let design = Design {
        sizes,
        replicates,
        seed,
        models,
        max_test,
        shrinkage,
    };
    let x = x.as_array().to_owned();
    let study = CompareStudy::new(x, y, design)
        .map_err(|e| PyValueError::new_err(format!("cannot compare: {e}")))?;
    let description = DataDescription {
        file: &name,
        target: &target,
        features: features.iter().map(String::as_str).collect(),
        categorical: categorical.iter().map(String::as_str).collect(),
        classes,
        class_counts,
    };
    let options = RunOptions {
        threads,
        progress: Progress::Never,
        ..RunOptions::default()
    };
    let comparison = py
        .detach(|| run_comparison(&study, &description, &out, &options))
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let report = comparison.report;
    Ok((
        study.design().sizes.clone(),
        (
            report.cells,
            report.ran,
            report.resumed,
            report.elapsed.as_secs_f64(),
        ),
    ))
}
