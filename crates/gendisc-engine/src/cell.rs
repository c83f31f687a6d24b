//! Cells, the classifier × metric schema of a study, and the outcome of one cell.
//!
//! A *cell* is one `(dataset, training size, replicate)` of a study. Inside it the study draws a
//! split, fits every classifier on the same training rows and measures every metric: the
//! [`Outcome`] is that small classifier × metric table, laid out by the study's [`Schema`].

use std::fmt;

use gendisc_core::{Error, Result};
use gendisc_data::splits::{replicate_rng, SeedPart};
use rand_chacha::ChaCha8Rng;
use serde::de::{self, Deserializer, Visitor};
use serde::ser::{Error as _, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

/// One `(dataset, training size, replicate)` of a study: the key of its outcome and, through
/// [`Cell::rng`], the only source of its randomness.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    /// The dataset's name, as it appears in tables and figures.
    pub dataset: String,
    /// The training-set size (`m` in the papers).
    pub train_size: usize,
    /// The replicate number, `0..replicates`.
    pub replicate: usize,
}

impl Cell {
    /// The cell `(dataset, train_size, replicate)`.
    pub fn new(dataset: impl Into<String>, train_size: usize, replicate: usize) -> Self {
        Self {
            dataset: dataset.into(),
            train_size,
            replicate,
        }
    }

    /// The full grid `datasets × train_sizes × 0..replicates` in canonical order: dataset-major,
    /// then training size, then replicate — the order of the papers' tables.
    ///
    /// ```
    /// use gendisc_engine::Cell;
    /// let cells = Cell::grid(&["a", "b"], &[10, 20], 3);
    /// assert_eq!(cells.len(), 12);
    /// assert_eq!(cells[4], Cell::new("a", 20, 1));
    /// ```
    pub fn grid<S: AsRef<str>>(
        datasets: &[S],
        train_sizes: &[usize],
        replicates: usize,
    ) -> Vec<Self> {
        let mut cells = Vec::with_capacity(datasets.len() * train_sizes.len() * replicates);
        for dataset in datasets {
            for &train_size in train_sizes {
                for replicate in 0..replicates {
                    cells.push(Self::new(dataset.as_ref(), train_size, replicate));
                }
            }
        }
        cells
    }

    /// The coordinates that seed this cell's stream: `[dataset, train_size, replicate]`.
    pub fn seed_parts(&self) -> [SeedPart<'_>; 3] {
        [
            SeedPart::Name(&self.dataset),
            self.train_size.into(),
            self.replicate.into(),
        ]
    }

    /// The cell's random stream, [`replicate_rng`]`(study_seed, [dataset, train_size,
    /// replicate])`: the same whatever thread runs the cell and whenever, which is what makes a
    /// study's results independent of the thread count and of interruptions.
    ///
    /// ```
    /// use gendisc_engine::Cell;
    /// use rand::Rng;
    /// let cell = Cell::new("normal-equal-full", 200, 3);
    /// let a: u64 = cell.rng(7).random();
    /// let b: u64 = cell.clone().rng(7).random();
    /// assert_eq!(a, b);
    /// assert_ne!(a, Cell::new("normal-equal-full", 200, 4).rng(7).random::<u64>());
    /// ```
    pub fn rng(&self, study_seed: u64) -> ChaCha8Rng {
        replicate_rng(study_seed, &self.seed_parts())
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cell (dataset `{}`, training size {}, replicate {})",
            self.dataset, self.train_size, self.replicate
        )
    }
}

/// A study's classifiers, or its metrics, as a type: an enum whose variants are the schema's
/// rows (or columns) in order, so that an [`Outcome`] is addressed by name in the code and
/// never by position or string.
///
/// ```
/// use gendisc_engine::{Key, Outcome, Schema};
///
/// #[derive(Debug, Clone, Copy, PartialEq)]
/// enum Classifier { NaiveBayes, Logistic }
/// impl Key for Classifier {
///     const ALL: &'static [Self] = &[Self::NaiveBayes, Self::Logistic];
///     fn name(self) -> &'static str {
///         match self {
///             Self::NaiveBayes => "naive-bayes",
///             Self::Logistic => "logistic",
///         }
///     }
/// }
/// #[derive(Debug, Clone, Copy, PartialEq)]
/// enum Metric { ErrorRate }
/// impl Key for Metric {
///     const ALL: &'static [Self] = &[Self::ErrorRate];
///     fn name(self) -> &'static str { "error-rate" }
/// }
///
/// let schema = Schema::of::<Classifier, Metric>()?;
/// assert_eq!(schema.classifiers(), ["naive-bayes", "logistic"]);
/// let mut outcome = Outcome::new(&schema);
/// outcome.put(Classifier::Logistic, Metric::ErrorRate, 0.125)?;
/// assert_eq!(outcome.value(Classifier::Logistic, Metric::ErrorRate), Some(0.125));
/// assert_eq!(outcome.get(1, 0), Some(0.125));
/// # Ok::<(), gendisc_core::Error>(())
/// ```
pub trait Key: Copy + PartialEq + 'static {
    /// Every key, in the schema's order.
    const ALL: &'static [Self];

    /// The key's name, as result stores, tables and figures show it.
    fn name(self) -> &'static str;

    /// The key's position in the schema: its position in [`ALL`](Self::ALL).
    fn index(self) -> usize {
        Self::ALL
            .iter()
            .position(|&key| key == self)
            .expect("every key is listed in ALL")
    }

    /// The names of every key, in the schema's order.
    fn names() -> impl Iterator<Item = &'static str> {
        Self::ALL.iter().map(|key| key.name())
    }
}

/// The classifiers a study compares and the metrics it measures on each: the rows and columns
/// of every [`Outcome`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schema {
    classifiers: Vec<String>,
    metrics: Vec<String>,
}

impl Schema {
    /// A schema with the given classifier and metric names, in the order tables and figures
    /// list them.
    ///
    /// Fails with [`Error::Empty`] when either list is empty and [`Error::InvalidParameter`]
    /// when a name is empty or repeated.
    ///
    /// ```
    /// use gendisc_engine::Schema;
    /// let schema = Schema::new(["naive-bayes", "logistic"], ["error-rate"])?;
    /// assert_eq!(schema.classifier_index("logistic"), Some(1));
    /// assert!(Schema::new(["nb", "nb"], ["error-rate"]).is_err());
    /// # Ok::<(), gendisc_core::Error>(())
    /// ```
    pub fn new<C, M>(classifiers: C, metrics: M) -> Result<Self>
    where
        C: IntoIterator,
        C::Item: Into<String>,
        M: IntoIterator,
        M::Item: Into<String>,
    {
        let classifiers = checked_names("classifiers", classifiers)?;
        let metrics = checked_names("metrics", metrics)?;
        Ok(Self {
            classifiers,
            metrics,
        })
    }

    /// The schema of a study whose classifiers and metrics are [`Key`] types.
    ///
    /// Fails as [`Schema::new`] does, on an empty or repeated name.
    pub fn of<C: Key, M: Key>() -> Result<Self> {
        Self::new(C::names(), M::names())
    }

    /// The schema of a study whose metrics are a [`Key`] type and whose classifiers are named
    /// as the study is built (a row per `λ` of a path, per model of a table).
    ///
    /// Fails as [`Schema::new`] does, on an empty or repeated name.
    pub fn with_metrics<M, C>(classifiers: C) -> Result<Self>
    where
        M: Key,
        C: IntoIterator,
        C::Item: Into<String>,
    {
        Self::new(classifiers, M::names())
    }

    /// The classifier names.
    pub fn classifiers(&self) -> &[String] {
        &self.classifiers
    }

    /// The metric names.
    pub fn metrics(&self) -> &[String] {
        &self.metrics
    }

    /// The position of a classifier, if the schema has it.
    pub fn classifier_index(&self, name: &str) -> Option<usize> {
        self.classifiers.iter().position(|c| c == name)
    }

    /// The position of a metric, if the schema has it.
    pub fn metric_index(&self, name: &str) -> Option<usize> {
        self.metrics.iter().position(|m| m == name)
    }
}

fn checked_names<I>(what: &'static str, names: I) -> Result<Vec<String>>
where
    I: IntoIterator,
    I::Item: Into<String>,
{
    let names: Vec<String> = names.into_iter().map(Into::into).collect();
    if names.is_empty() {
        return Err(Error::Empty {
            what: format!("the schema's {what}"),
        });
    }
    for (i, name) in names.iter().enumerate() {
        if name.is_empty() {
            return Err(Error::invalid_parameter(what, format!("name {i} is empty")));
        }
        if names[..i].contains(name) {
            return Err(Error::invalid_parameter(
                what,
                format!("`{name}` is listed twice"),
            ));
        }
    }
    Ok(names)
}

/// The measurements of one cell: a classifier × metric table of `f64`, where each entry is
/// either measured or absent (a metric that does not apply to a classifier, e.g. a log loss
/// for a classifier without probabilities).
///
/// A measured value may be `±∞` (a logistic loss with a zero probability is `+∞`) but never
/// NaN: a NaN is a numerical failure, and [`Outcome::set`] refuses it.
///
/// ```
/// use gendisc_engine::{Outcome, Schema};
/// let schema = Schema::new(["naive-bayes", "logistic"], ["error-rate", "log-loss"])?;
/// let mut outcome = Outcome::new(&schema);
/// outcome.set(1, 0, 0.125)?;
/// assert_eq!(outcome.get(1, 0), Some(0.125));
/// assert_eq!(outcome.get(0, 1), None);
/// assert!(outcome.set(0, 0, f64::NAN).is_err());
/// # Ok::<(), gendisc_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    n_classifiers: usize,
    n_metrics: usize,
    /// Classifier-major: entry `(c, m)` is at `c * n_metrics + m`.
    values: Vec<Option<f64>>,
}

impl Outcome {
    /// An outcome of `schema`'s shape with nothing measured yet.
    pub fn new(schema: &Schema) -> Self {
        Self::empty(schema.classifiers.len(), schema.metrics.len())
    }

    pub(crate) fn empty(n_classifiers: usize, n_metrics: usize) -> Self {
        Self {
            n_classifiers,
            n_metrics,
            values: vec![None; n_classifiers * n_metrics],
        }
    }

    /// Records `value` for classifier `classifier` and metric `metric` (positions in the
    /// schema), replacing any earlier value.
    ///
    /// Fails with [`Error::InvalidParameter`] for a position outside the schema and
    /// [`Error::InvalidValue`] (row = classifier, column = metric) for NaN.
    pub fn set(&mut self, classifier: usize, metric: usize, value: f64) -> Result<()> {
        let slot = self.slot(classifier, metric)?;
        if value.is_nan() {
            return Err(Error::InvalidValue {
                what: "measurement".into(),
                row: classifier,
                column: metric,
                value,
                reason: "NaN is a numerical failure, not a measurement".into(),
            });
        }
        self.values[slot] = Some(value);
        Ok(())
    }

    /// [`set`](Self::set) by [`Key`]: records `value` for `classifier` and `metric`.
    pub fn put<C: Key, M: Key>(&mut self, classifier: C, metric: M, value: f64) -> Result<()> {
        self.set(classifier.index(), metric.index(), value)
    }

    /// [`get`](Self::get) by [`Key`]: the value of `classifier` and `metric`, if measured.
    pub fn value<C: Key, M: Key>(&self, classifier: C, metric: M) -> Option<f64> {
        self.get(classifier.index(), metric.index())
    }

    /// [`set`](Self::set) with the classifier by position (a study whose rows are named as it
    /// is built, [`Schema::with_metrics`]) and the metric by [`Key`].
    pub fn put_at<M: Key>(&mut self, classifier: usize, metric: M, value: f64) -> Result<()> {
        self.set(classifier, metric.index(), value)
    }

    /// [`get`](Self::get) with the classifier by position and the metric by [`Key`].
    pub fn value_at<M: Key>(&self, classifier: usize, metric: M) -> Option<f64> {
        self.get(classifier, metric.index())
    }

    /// The value of classifier `classifier` and metric `metric`, or `None` when it was not
    /// measured or the position is outside the schema.
    pub fn get(&self, classifier: usize, metric: usize) -> Option<f64> {
        self.slot(classifier, metric)
            .ok()
            .and_then(|slot| self.values[slot])
    }

    /// Number of classifiers (rows).
    pub fn n_classifiers(&self) -> usize {
        self.n_classifiers
    }

    /// Number of metrics (columns).
    pub fn n_metrics(&self) -> usize {
        self.n_metrics
    }

    /// The values of one classifier, one per metric (empty for a position outside the schema).
    pub fn classifier_values(&self, classifier: usize) -> &[Option<f64>] {
        if classifier >= self.n_classifiers {
            return &[];
        }
        &self.values[classifier * self.n_metrics..(classifier + 1) * self.n_metrics]
    }

    /// Whether both outcomes have the same shape and the same bits in every entry (so `-0.0`
    /// differs from `0.0`): the equality that determinism promises.
    pub fn bitwise_eq(&self, other: &Self) -> bool {
        self.n_classifiers == other.n_classifiers
            && self.n_metrics == other.n_metrics
            && self
                .values
                .iter()
                .zip(&other.values)
                .all(|(a, b)| a.map(f64::to_bits) == b.map(f64::to_bits))
    }

    /// Whether the outcome has the shape of `schema`.
    pub(crate) fn fits(&self, schema: &Schema) -> bool {
        self.n_classifiers == schema.classifiers.len() && self.n_metrics == schema.metrics.len()
    }

    fn slot(&self, classifier: usize, metric: usize) -> Result<usize> {
        if classifier >= self.n_classifiers {
            return Err(Error::invalid_parameter(
                "classifier",
                format!(
                    "position {classifier} is outside the schema's {} classifiers",
                    self.n_classifiers
                ),
            ));
        }
        if metric >= self.n_metrics {
            return Err(Error::invalid_parameter(
                "metric",
                format!(
                    "position {metric} is outside the schema's {} metrics",
                    self.n_metrics
                ),
            ));
        }
        Ok(classifier * self.n_metrics + metric)
    }
}

/// Serialised as one array per classifier with one entry per metric: a number (written by
/// `serde_json` as the shortest decimal that reads back to the same bits), `null` for an
/// absent value, or the string `"inf"` / `"-inf"` for an infinity — JSON has no infinities.
///
/// ```
/// use gendisc_engine::{Outcome, Schema};
/// let schema = Schema::new(["nb", "lr"], ["error-rate", "log-loss"])?;
/// let mut outcome = Outcome::new(&schema);
/// outcome.set(0, 0, 0.25)?;
/// outcome.set(1, 1, f64::INFINITY)?;
/// let json = serde_json::to_string(&outcome).unwrap();
/// assert_eq!(json, r#"[[0.25,null],[null,"inf"]]"#);
/// assert!(serde_json::from_str::<Outcome>(&json).unwrap().bitwise_eq(&outcome));
/// # Ok::<(), gendisc_core::Error>(())
/// ```
impl Serialize for Outcome {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let mut rows = serializer.serialize_seq(Some(self.n_classifiers))?;
        for classifier in 0..self.n_classifiers {
            rows.serialize_element(&Row(self.classifier_values(classifier)))?;
        }
        rows.end()
    }
}

/// Reads the form written by `Serialize`; fails on NaN-like strings, on no classifier or no
/// metric, and on rows of different lengths.
impl<'de> Deserialize<'de> for Outcome {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        let rows = Vec::<Vec<StoredValue>>::deserialize(deserializer)?;
        let n_metrics = rows.first().map_or(0, Vec::len);
        if n_metrics == 0 {
            return Err(de::Error::custom(
                "an outcome needs at least one classifier and one metric",
            ));
        }
        if let Some(c) = rows.iter().position(|row| row.len() != n_metrics) {
            return Err(de::Error::custom(format!(
                "classifier {c} has {} values, classifier 0 has {n_metrics}",
                rows[c].len()
            )));
        }
        Ok(Self {
            n_classifiers: rows.len(),
            n_metrics,
            values: rows.into_iter().flatten().map(|v| v.0).collect(),
        })
    }
}

/// The values of one classifier, serialised without copying.
struct Row<'a>(&'a [Option<f64>]);

impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let mut row = serializer.serialize_seq(Some(self.0.len()))?;
        for &value in self.0 {
            row.serialize_element(&StoredValue(value))?;
        }
        row.end()
    }
}

/// One entry of an outcome as serialised: a number, `null`, `"inf"` or `"-inf"`.
struct StoredValue(Option<f64>);

impl Serialize for StoredValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        match self.0 {
            None => serializer.serialize_none(),
            Some(v) if v.is_finite() => serializer.serialize_f64(v),
            Some(v) if v == f64::INFINITY => serializer.serialize_str("inf"),
            Some(v) if v == f64::NEG_INFINITY => serializer.serialize_str("-inf"),
            // `Outcome::set` and the reader refuse NaN, so no outcome holds one.
            Some(_) => Err(S::Error::custom("an outcome never holds NaN")),
        }
    }
}

impl<'de> Deserialize<'de> for StoredValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct ValueVisitor;
        impl Visitor<'_> for ValueVisitor {
            type Value = StoredValue;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number, null, \"inf\" or \"-inf\"")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<StoredValue, E> {
                Ok(StoredValue(Some(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<StoredValue, E> {
                Ok(StoredValue(Some(v as f64)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<StoredValue, E> {
                Ok(StoredValue(Some(v as f64)))
            }
            fn visit_unit<E: de::Error>(self) -> std::result::Result<StoredValue, E> {
                Ok(StoredValue(None))
            }
            fn visit_none<E: de::Error>(self) -> std::result::Result<StoredValue, E> {
                Ok(StoredValue(None))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<StoredValue, E> {
                match v {
                    "inf" => Ok(StoredValue(Some(f64::INFINITY))),
                    "-inf" => Ok(StoredValue(Some(f64::NEG_INFINITY))),
                    other => Err(E::invalid_value(de::Unexpected::Str(other), &self)),
                }
            }
        }
        deserializer.deserialize_any(ValueVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    fn schema() -> Schema {
        Schema::new(["a", "b", "c"], ["x", "y"]).unwrap()
    }

    #[test]
    fn grid_is_dataset_major() {
        let cells = Cell::grid(&["d1", "d2"], &[5, 7, 9], 2);
        assert_eq!(cells.len(), 12);
        assert_eq!(cells[0], Cell::new("d1", 5, 0));
        assert_eq!(cells[1], Cell::new("d1", 5, 1));
        assert_eq!(cells[2], Cell::new("d1", 7, 0));
        assert_eq!(cells[6], Cell::new("d2", 5, 0));
        assert_eq!(cells[11], Cell::new("d2", 9, 1));
        assert!(Cell::grid::<&str>(&[], &[1], 3).is_empty());
    }

    #[test]
    fn rng_is_replicate_rng_of_the_coordinates() {
        let cell = Cell::new("bernoulli", 125, 7);
        let mut expected = replicate_rng(
            11,
            &[
                SeedPart::Name("bernoulli"),
                SeedPart::Index(125),
                SeedPart::Index(7),
            ],
        );
        let mut got = cell.rng(11);
        for _ in 0..8 {
            assert_eq!(got.random::<u64>(), expected.random::<u64>());
        }
        let first = |c: &Cell, seed: u64| c.rng(seed).random::<u64>();
        assert_ne!(first(&cell, 11), first(&cell, 12));
        assert_ne!(first(&cell, 11), first(&Cell::new("bernoulli", 126, 7), 11));
        assert_ne!(first(&cell, 11), first(&Cell::new("bernoullI", 125, 7), 11));
    }

    #[test]
    fn schema_rejects_bad_names() {
        assert!(matches!(
            Schema::new(Vec::<String>::new(), ["x"]),
            Err(Error::Empty { .. })
        ));
        assert!(matches!(
            Schema::new(["a"], Vec::<String>::new()),
            Err(Error::Empty { .. })
        ));
        assert!(matches!(
            Schema::new(["a", ""], ["x"]),
            Err(Error::InvalidParameter {
                name: "classifiers",
                ..
            })
        ));
        assert!(matches!(
            Schema::new(["a"], ["x", "y", "x"]),
            Err(Error::InvalidParameter {
                name: "metrics",
                ..
            })
        ));
        let s = schema();
        assert_eq!(s.classifier_index("c"), Some(2));
        assert_eq!(s.metric_index("y"), Some(1));
        assert_eq!(s.metric_index("z"), None);
    }

    #[test]
    fn outcome_set_and_get() {
        let mut o = Outcome::new(&schema());
        assert_eq!((o.n_classifiers(), o.n_metrics()), (3, 2));
        o.set(2, 1, 0.5).unwrap();
        o.set(0, 0, f64::INFINITY).unwrap();
        o.set(0, 0, -1.0).unwrap();
        assert_eq!(o.get(2, 1), Some(0.5));
        assert_eq!(o.get(0, 0), Some(-1.0));
        assert_eq!(o.get(1, 1), None);
        assert_eq!(o.get(3, 0), None);
        assert_eq!(o.classifier_values(2), &[None, Some(0.5)]);
        assert!(o.classifier_values(3).is_empty());
        assert!(matches!(
            o.set(3, 0, 1.0),
            Err(Error::InvalidParameter {
                name: "classifier",
                ..
            })
        ));
        assert!(matches!(
            o.set(0, 2, 1.0),
            Err(Error::InvalidParameter { name: "metric", .. })
        ));
        assert!(matches!(
            o.set(1, 1, f64::NAN),
            Err(Error::InvalidValue {
                row: 1,
                column: 1,
                ..
            })
        ));
    }

    #[test]
    fn bitwise_equality_tells_signed_zeros_apart() {
        let mut a = Outcome::new(&schema());
        let mut b = Outcome::new(&schema());
        a.set(0, 0, 0.0).unwrap();
        b.set(0, 0, -0.0).unwrap();
        assert_eq!(a, b);
        assert!(!a.bitwise_eq(&b));
        b.set(0, 0, 0.0).unwrap();
        assert!(a.bitwise_eq(&b));
        assert!(!a.bitwise_eq(&Outcome::empty(3, 3)));
    }

    #[test]
    fn deserialisation_rejects_malformed_outcomes() {
        for bad in [
            r#"[[1, "nan"]]"#,
            r#"[[1, "Infinity"]]"#,
            "[[true]]",
            "[[[1]]]",
            "[]",
            "[[]]",
            "[[1, 2], [3]]",
            "{}",
        ] {
            assert!(serde_json::from_str::<Outcome>(bad).is_err(), "{bad}");
        }
        let outcome: Outcome =
            serde_json::from_str(r#"[[7, -7, null], ["-inf", 0.5, 1e-300]]"#).unwrap();
        assert_eq!((outcome.n_classifiers(), outcome.n_metrics()), (2, 3));
        assert_eq!(outcome.classifier_values(0), &[Some(7.0), Some(-7.0), None]);
        assert_eq!(
            outcome.classifier_values(1),
            &[Some(f64::NEG_INFINITY), Some(0.5), Some(1e-300)]
        );
    }
}
