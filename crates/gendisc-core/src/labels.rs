//! Mapping between a user's class labels and the indices `0..K` that models work with.
//!
//! Classes are ordered by the labels' `Ord` (as scikit-learn's `classes_`), so class `k` is the
//! `k`-th smallest label whatever order the data came in, and probability columns follow it.

use std::borrow::Borrow;
use std::fmt::Debug;

use ndarray::Array1;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The sorted set of distinct labels seen in training, and the encoding `label ↔ 0..K`.
///
/// ```
/// use gendisc_core::ClassLabels;
/// let (classes, y) = ClassLabels::fit(&["spam", "ham", "spam"]).unwrap();
/// assert_eq!(classes.labels(), &["ham", "spam"]);
/// assert_eq!(y.to_vec(), vec![1, 0, 1]);
/// assert_eq!(classes.decode(&[0, 1]).unwrap(), vec!["ham", "spam"]);
/// ```
///
/// Serialised as the plain list of labels, in class order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ClassLabels<L> {
    labels: Vec<L>,
}

impl<L: Ord + Clone + Debug> ClassLabels<L> {
    /// Builds the label set from explicit labels (deduplicated and sorted).
    ///
    /// Fails on an empty list.
    pub fn new(labels: impl IntoIterator<Item = L>) -> Result<Self> {
        let mut labels: Vec<L> = labels.into_iter().collect();
        labels.sort();
        labels.dedup();
        if labels.is_empty() {
            return Err(Error::Empty {
                what: "class labels".into(),
            });
        }
        Ok(Self { labels })
    }

    /// Learns the classes from a label sequence and returns them with the encoded sequence.
    pub fn fit(y: &[L]) -> Result<(Self, Array1<usize>)> {
        let classes = Self::new(y.iter().cloned())?;
        let encoded = classes.encode(y)?;
        Ok((classes, encoded))
    }

    /// Number of classes `K`.
    pub fn n_classes(&self) -> usize {
        self.labels.len()
    }

    /// The labels, in class order.
    pub fn labels(&self) -> &[L] {
        &self.labels
    }

    /// The class index of one label; accepts any borrowed form (`&str` for `String` labels).
    pub fn index_of<Q>(&self, label: &Q) -> Option<usize>
    where
        L: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.labels.binary_search_by(|l| l.borrow().cmp(label)).ok()
    }

    /// Encodes labels as class indices; an unseen label is an error naming its position.
    pub fn encode(&self, y: &[L]) -> Result<Array1<usize>> {
        y.iter()
            .enumerate()
            .map(|(position, label)| {
                self.index_of(label).ok_or_else(|| Error::UnknownLabel {
                    position,
                    label: format!("{label:?}"),
                })
            })
            .collect()
    }

    /// Decodes class indices back to labels; an index `≥ K` is an error.
    pub fn decode(&self, classes: &[usize]) -> Result<Vec<L>> {
        classes
            .iter()
            .enumerate()
            .map(|(row, &k)| {
                self.labels.get(k).cloned().ok_or(Error::LabelOutOfRange {
                    row,
                    label: k,
                    n_classes: self.labels.len(),
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_sorted_not_first_seen() {
        let (classes, y) = ClassLabels::fit(&[2, -1, 2, 7]).unwrap();
        assert_eq!(classes.labels(), &[-1, 2, 7]);
        assert_eq!(y.to_vec(), vec![1, 0, 1, 2]);
    }

    #[test]
    fn unknown_and_out_of_range_are_errors() {
        let classes = ClassLabels::new([1, 2]).unwrap();
        let err = classes.encode(&[1, 3]).unwrap_err();
        assert!(
            matches!(err, Error::UnknownLabel { position: 1, .. }),
            "{err}"
        );
        let err = classes.decode(&[0, 2]).unwrap_err();
        assert!(matches!(
            err,
            Error::LabelOutOfRange {
                row: 1,
                label: 2,
                n_classes: 2
            }
        ));
        assert!(ClassLabels::<i32>::new([]).is_err());
        let names = ClassLabels::new(["b".to_string(), "a".to_string()]).unwrap();
        assert_eq!(names.index_of("b"), Some(1));
    }

    #[test]
    fn round_trips_through_serde() {
        let classes = ClassLabels::new(["b".to_string(), "a".to_string()]).unwrap();
        let json = serde_json::to_string(&classes).unwrap();
        let back: ClassLabels<String> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, classes);
    }
}
