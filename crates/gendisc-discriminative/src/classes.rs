//! The check every classifier of this crate makes first on its labels.

use gendisc_core::{Error, Result};
use ndarray::ArrayView1;

/// `y` holds at least two distinct classes.
///
/// Made before any per-class check, so that a `y` of one class says so rather than naming
/// the class index it lacks (a user whose labels are all `1` has no "class 0" in mind).
pub(crate) fn require_two_classes(y: ArrayView1<'_, usize>, what: &str) -> Result<()> {
    let Some(&first) = y.first() else {
        return Err(Error::Empty { what: "y".into() });
    };
    if y.iter().all(|&k| k == first) {
        return Err(Error::TooFewClasses {
            what: what.into(),
            needed: 2,
            found: 1,
            labels: format!("every row is in class {first}"),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn one_class_is_too_few() {
        assert!(require_two_classes(array![0, 1, 0].view(), "a test").is_ok());
        let err = require_two_classes(array![3, 3].view(), "a test").unwrap_err();
        assert!(
            matches!(err, Error::TooFewClasses { found: 1, .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("class 3"), "{err}");
        assert!(matches!(
            require_two_classes(ndarray::Array1::<usize>::zeros(0).view(), "a test"),
            Err(Error::Empty { .. })
        ));
    }
}
