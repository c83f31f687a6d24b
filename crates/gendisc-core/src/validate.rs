//! Input checks shared by every public entry point.
//!
//! Each check returns the first offending entry as a typed [`Error`] that names the argument,
//! the row and the column, so that models can validate with one line per argument.

use ndarray::{ArrayView1, ArrayView2};
use sprs::CsMatView;

use crate::error::{Error, Result};

/// The one of `all` whose `name` is `given`, compared case-insensitively: how a setting named
/// on a command line or from Python is parsed. Anything else is an
/// [`Error::InvalidParameter`] on `parameter` that lists every accepted name.
///
/// ```
/// use gendisc_core::validate::by_name;
///
/// let sizes = [1, 2];
/// let name = |n: i32| if n == 1 { "one" } else { "two" };
/// assert_eq!(by_name("size", "size", "TWO", &sizes, name).unwrap(), 2);
/// let error = by_name("size", "size", "three", &sizes, name).unwrap_err();
/// assert!(error.to_string().contains("expected one, two"));
/// ```
pub fn by_name<T: Copy>(
    parameter: &'static str,
    what: &str,
    given: &str,
    all: &[T],
    name: impl Fn(T) -> &'static str,
) -> Result<T> {
    all.iter()
        .copied()
        .find(|&item| name(item).eq_ignore_ascii_case(given))
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|&item| name(item)).collect();
            Error::invalid_parameter(
                parameter,
                format!("unknown {what} {given:?}; expected {}", names.join(", ")),
            )
        })
}

/// Every entry of `x` is finite; `what` names the argument in the error.
pub fn check_finite_matrix(x: ArrayView2<'_, f64>, what: &str) -> Result<()> {
    // The common case is clean data: a branch-free pass first (an entry is non-finite when its
    // exponent bits are all ones), the indexed search only to locate the offending entry.
    const EXPONENT: u64 = 0x7ff << 52;
    let clean = match x.as_slice_memory_order() {
        Some(entries) => !entries
            .iter()
            .fold(false, |bad, v| bad | (v.to_bits() & EXPONENT == EXPONENT)),
        None => x.iter().all(|v| v.is_finite()),
    };
    if clean {
        return Ok(());
    }
    for ((row, column), &value) in x.indexed_iter() {
        if !value.is_finite() {
            return Err(Error::NonFinite {
                what: what.into(),
                row,
                column,
                value,
            });
        }
    }
    Ok(())
}

/// Every entry of `v` is finite.
pub fn check_finite_vector(v: ArrayView1<'_, f64>, what: &str) -> Result<()> {
    for (row, &value) in v.indexed_iter() {
        if !value.is_finite() {
            return Err(Error::NonFinite {
                what: what.into(),
                row,
                column: 0,
                value,
            });
        }
    }
    Ok(())
}

/// A design matrix for fitting: at least one row and one column, all finite.
pub fn check_training_matrix(x: ArrayView2<'_, f64>) -> Result<()> {
    if x.nrows() == 0 {
        return Err(Error::Empty {
            what: "x (no rows)".into(),
        });
    }
    if x.ncols() == 0 {
        return Err(Error::Empty {
            what: "x (no columns)".into(),
        });
    }
    check_finite_matrix(x, "x")
}

/// A matrix given to a fitted model: the number of columns it was fitted with, all finite.
/// Zero rows are allowed (the answer is then empty).
pub fn check_prediction_matrix(x: ArrayView2<'_, f64>, n_features: usize) -> Result<()> {
    if x.ncols() != n_features {
        return Err(Error::shape_mismatch(
            "columns of x vs features of the fitted model",
            n_features,
            x.ncols(),
        ));
    }
    check_finite_matrix(x, "x")
}

/// Every stored entry of a sparse matrix is finite; the error names row and column.
pub fn check_finite_sparse(x: CsMatView<'_, f64>, what: &str) -> Result<()> {
    if x.data().iter().all(|v| v.is_finite()) {
        return Ok(());
    }
    for (&value, (row, column)) in x.iter() {
        if !value.is_finite() {
            return Err(Error::NonFinite {
                what: what.into(),
                row,
                column,
                value,
            });
        }
    }
    Ok(())
}

/// A sparse design matrix for fitting: at least one row and one column, all entries finite.
pub fn check_sparse_training_matrix(x: CsMatView<'_, f64>) -> Result<()> {
    if x.rows() == 0 {
        return Err(Error::Empty {
            what: "x (no rows)".into(),
        });
    }
    if x.cols() == 0 {
        return Err(Error::Empty {
            what: "x (no columns)".into(),
        });
    }
    check_finite_sparse(x, "x")
}

/// A sparse matrix given to a fitted model: the fitted number of columns, all entries finite.
pub fn check_sparse_prediction_matrix(x: CsMatView<'_, f64>, n_features: usize) -> Result<()> {
    if x.cols() != n_features {
        return Err(Error::shape_mismatch(
            "columns of x vs features of the fitted model",
            n_features,
            x.cols(),
        ));
    }
    check_finite_sparse(x, "x")
}

/// Labels: as many as rows of `x`, each in `0..n_classes`.
pub fn check_labels(y: ArrayView1<'_, usize>, n_rows: usize, n_classes: usize) -> Result<()> {
    if y.len() != n_rows {
        return Err(Error::shape_mismatch(
            "length of y vs rows of x",
            n_rows,
            y.len(),
        ));
    }
    for (row, &label) in y.indexed_iter() {
        if label >= n_classes {
            return Err(Error::LabelOutOfRange {
                row,
                label,
                n_classes,
            });
        }
    }
    Ok(())
}

/// Sample weights: as many as rows, finite, non-negative, not all zero.
pub fn check_weights(w: ArrayView1<'_, f64>, n_rows: usize) -> Result<()> {
    if w.len() != n_rows {
        return Err(Error::shape_mismatch(
            "length of sample weights vs rows of x",
            n_rows,
            w.len(),
        ));
    }
    check_finite_vector(w, "sample weights")?;
    for (row, &value) in w.indexed_iter() {
        if value < 0.0 {
            return Err(Error::InvalidValue {
                what: "sample weights".into(),
                row,
                column: 0,
                value,
                reason: "weights must be non-negative".into(),
            });
        }
    }
    if w.iter().all(|&v| v == 0.0) {
        return Err(Error::InvalidValue {
            what: "sample weights".into(),
            row: 0,
            column: 0,
            value: 0.0,
            reason: "all weights are zero".into(),
        });
    }
    Ok(())
}

/// Weighted class totals `Σ_{i: y_i = k} w_i` (unit weights when `w` is `None`); fails with
/// [`Error::EmptyClass`] naming the first class whose total is zero.
pub fn class_totals(
    y: ArrayView1<'_, usize>,
    w: Option<ArrayView1<'_, f64>>,
    n_classes: usize,
) -> Result<Vec<f64>> {
    let mut totals = vec![0.0; n_classes];
    match w {
        Some(w) => y.iter().zip(w.iter()).for_each(|(&k, &wi)| totals[k] += wi),
        None => {
            // Two tallies, of the even and the odd rows, so that consecutive rows of one class
            // do not wait on each other's increment.
            let mut tallies = vec![[0usize; 2]; n_classes];
            let mut labels = y.iter();
            while let Some(&k) = labels.next() {
                tallies[k][0] += 1;
                if let Some(&l) = labels.next() {
                    tallies[l][1] += 1;
                }
            }
            for (total, [even, odd]) in totals.iter_mut().zip(tallies) {
                *total = (even + odd) as f64;
            }
        }
    }
    if let Some(class) = totals.iter().position(|&t| t <= 0.0) {
        return Err(Error::EmptyClass {
            class,
            detail: None,
        });
    }
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{array, Array2};

    #[test]
    fn finite_check_finds_every_kind_of_non_finite_entry_in_any_layout() {
        for bad in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN] {
            let mut x = Array2::<f64>::zeros((4, 3));
            x[[2, 1]] = bad;
            let transposed = x.t().as_standard_layout().into_owned();
            let column_major = transposed.t();
            let strided = x.slice(ndarray::s![.., 1..]);
            for view in [x.view(), column_major, strided] {
                let column = if view.ncols() == 2 { 0 } else { 1 };
                match check_finite_matrix(view, "x").unwrap_err() {
                    Error::NonFinite { row, column: c, .. } => assert_eq!((row, c), (2, column)),
                    e => panic!("unexpected {e}"),
                }
            }
        }
        let largest = ndarray::array![[f64::MAX, f64::MIN_POSITIVE, -f64::MAX, 5e-324]];
        assert!(check_finite_matrix(largest.view(), "x").is_ok());
    }

    #[test]
    fn finite_check_names_row_and_column() {
        let x = array![[1.0, 2.0], [3.0, f64::NAN]];
        match check_training_matrix(x.view()).unwrap_err() {
            Error::NonFinite { row, column, .. } => assert_eq!((row, column), (1, 1)),
            e => panic!("unexpected {e}"),
        }
    }

    #[test]
    fn prediction_matrix_must_match_features() {
        let x = array![[1.0, 2.0, 3.0]];
        assert!(matches!(
            check_prediction_matrix(x.view(), 2),
            Err(Error::ShapeMismatch {
                expected: 2,
                found: 3,
                ..
            })
        ));
        assert!(check_prediction_matrix(ndarray::Array2::zeros((0, 2)).view(), 2).is_ok());
    }

    #[test]
    fn labels_and_weights() {
        assert!(matches!(
            check_labels(array![0, 2].view(), 2, 2),
            Err(Error::LabelOutOfRange {
                row: 1,
                label: 2,
                ..
            })
        ));
        assert!(check_labels(array![0].view(), 2, 2).is_err());
        assert!(check_weights(array![1.0, -1.0].view(), 2).is_err());
        assert!(check_weights(array![0.0, 0.0].view(), 2).is_err());
        assert!(check_weights(array![0.0, 2.0].view(), 2).is_ok());
    }

    #[test]
    fn sparse_checks_name_row_and_column() {
        let mut x = sprs::CsMat::csr_from_dense(array![[1.0, 0.0], [0.0, 2.0]].view(), 0.0);
        x.data_mut()[1] = f64::INFINITY;
        match check_sparse_training_matrix(x.view()).unwrap_err() {
            Error::NonFinite { row, column, .. } => assert_eq!((row, column), (1, 1)),
            e => panic!("unexpected {e}"),
        }
        assert!(matches!(
            check_sparse_prediction_matrix(x.view(), 3),
            Err(Error::ShapeMismatch {
                expected: 3,
                found: 2,
                ..
            })
        ));
        let empty = sprs::CsMat::<f64>::zero((0, 2));
        assert!(matches!(
            check_sparse_training_matrix(empty.view()),
            Err(Error::Empty { .. })
        ));
    }

    #[test]
    fn empty_class_is_reported() {
        let y = array![0, 0, 2];
        assert!(matches!(
            class_totals(y.view(), None, 3),
            Err(Error::EmptyClass { class: 1, .. })
        ));
        let w = array![1.0, 0.5, 0.0];
        assert!(matches!(
            class_totals(y.view(), Some(w.view()), 3),
            Err(Error::EmptyClass { class: 1, .. })
        ));
        assert_eq!(
            class_totals(array![0, 1, 1].view(), None, 2).unwrap(),
            vec![1.0, 2.0]
        );
    }
}
