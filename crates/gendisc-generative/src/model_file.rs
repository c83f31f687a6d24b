//! What the crate's models share in their model files
//! ([`SavedModel`](gendisc_core::SavedModel)): the checks of the invariants that several fits
//! guarantee alike, and the serialised form of log-probability tables.

use std::fmt::Display;

use ndarray::{Array1, Array2, ArrayBase, ArrayView2, Data, Dimension};
use serde::{Deserialize, Deserializer};

use gendisc_core::model_file::invariants::{invalid, log_distribution, positive, shape};
use gendisc_core::{Error, Result};

/// A fitted model has at least one class and one feature; `field` is the parameter whose shape
/// says how many it has.
pub(crate) fn check_size(
    kind: &str,
    field: &str,
    n_classes: usize,
    n_features: usize,
) -> Result<()> {
    if n_classes == 0 || n_features == 0 {
        return Err(invalid(
            kind,
            field,
            format!(
                "{n_classes} classes × {n_features} features; a fitted model has at least one of each"
            ),
        ));
    }
    Ok(())
}

/// The class-level parameters of every model of the crate: `log_prior` is a log-distribution
/// over the `n_classes` classes, and `class_weight` holds their `n_classes` positive totals
/// (a fit refuses a class without weight).
pub(crate) fn check_classes(
    kind: &str,
    n_classes: usize,
    log_prior: &Array1<f64>,
    class_weight: &Array1<f64>,
) -> Result<()> {
    shape(kind, "log_prior", log_prior, &[n_classes])?;
    log_distribution(kind, "log_prior", log_prior)?;
    shape(kind, "class_weight", class_weight, &[n_classes])?;
    positive(kind, "class_weight", class_weight)
}

/// Variances fitted under the floor `ε` (added to them, or imposed as a lower bound): the floor
/// is finite and positive, and so is every variance, none below the floor.
pub(crate) fn check_floored_variances<S: Data<Elem = f64>, D: Dimension>(
    kind: &str,
    variances: &ArrayBase<S, D>,
    floor: f64,
) -> Result<()> {
    if !(floor.is_finite() && floor > 0.0) {
        return Err(invalid(
            kind,
            "variance_floor",
            format!("{floor:e}; the floor must be finite and positive"),
        ));
    }
    positive(kind, "variances", variances)?;
    match variances.indexed_iter().find(|&(_, &v)| v < floor) {
        Some((index, v)) => Err(invalid(
            kind,
            "variances",
            format!("entry {index:?} is {v:e}, below the variance floor {floor:e}"),
        )),
        None => Ok(()),
    }
}

/// Each row of `log_p` is a log-distribution ([`log_distribution`]); an error says which row,
/// as `"{row} {index}"` (e.g. `"class 2"`).
pub(crate) fn check_log_distribution_rows(
    kind: &str,
    field: &str,
    log_p: ArrayView2<'_, f64>,
    row: &str,
) -> Result<()> {
    for (i, lane) in log_p.outer_iter().enumerate() {
        log_distribution(kind, field, lane.iter()).map_err(|e| locate(e, format!("{row} {i}")))?;
    }
    Ok(())
}

/// Prefixes the reason of an [`Error::InvalidModel`] with the part of the field it concerns.
pub(crate) fn locate(error: Error, place: impl Display) -> Error {
    match error {
        Error::InvalidModel {
            kind,
            field,
            reason,
        } => Error::InvalidModel {
            kind,
            field,
            reason: format!("{place}: {reason}"),
        },
        other => other,
    }
}

/// Serde for tables of log-probabilities, whose entries may be `ln 0 = −∞` (a level or word
/// never seen with a class when the pseudo-count is 0). JSON has no infinities: serde_json
/// writes `−∞` as `null`, which is read back here as `−∞`, so that such a model survives its
/// model file. Every other entry must be a number.
pub(crate) mod log_table {
    use super::*;

    /// Reads a table in ndarray's serialised form, `null` entries as `−∞`.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Array2<f64>, D::Error> {
        let table = Array2::<Option<f64>>::deserialize(deserializer)?;
        Ok(with_log_zero(table))
    }

    /// A sequence of tables, each as [`deserialize`].
    pub fn deserialize_each<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<Array2<f64>>, D::Error> {
        let tables = Vec::<Array2<Option<f64>>>::deserialize(deserializer)?;
        Ok(tables.into_iter().map(with_log_zero).collect())
    }

    fn with_log_zero(table: Array2<Option<f64>>) -> Array2<f64> {
        table.mapv(|v| v.unwrap_or(f64::NEG_INFINITY))
    }
}
