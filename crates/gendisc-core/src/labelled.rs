//! A fitted model together with its class labels and feature names: what a user fits on a table
//! and saves, as opposed to the index-based models the studies fit by the thousand.

use std::fmt::Debug;
use std::path::Path;

use ndarray::{Array2, ArrayView2};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::labels::ClassLabels;
use crate::model_file::{ModelFile, Preprocessing, SavedModel};
use crate::traits::{Classifier, ConditionalModel, Fit};

/// A fitted model that knows its class labels (any `Ord + Clone` type: `String` from tables,
/// integers, enums) and, when it came from a table, the names of its features.
///
/// Classes are the labels in sorted order, as scikit-learn's `classes_`: column `k` of
/// [`predict_proba`](Self::predict_proba) is the probability of
/// [`labels()[k]`](Self::labels). The model inside works with class indices `0..K` and stays
/// reachable through [`model`](Self::model), the fast path for code that encodes labels once.
///
/// ```
/// use gendisc_core::{LabelledModel, Classifier, Fit, Result};
/// use ndarray::{array, Array1, ArrayView1, ArrayView2};
///
/// // A toy classifier: class 1 when the first feature is negative.
/// struct Sign;
/// struct SignModel;
/// impl Fit for Sign {
///     type Model = SignModel;
///     fn fit(&self, _x: ArrayView2<'_, f64>, _y: ArrayView1<'_, usize>) -> Result<SignModel> {
///         Ok(SignModel)
///     }
/// }
/// impl Classifier for SignModel {
///     fn n_features(&self) -> usize { 1 }
///     fn n_classes(&self) -> usize { 2 }
///     fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Array1<usize>> {
///         Ok(x.column(0).mapv(|v| usize::from(v < 0.0)))
///     }
/// }
///
/// let x = array![[-1.0], [2.0], [3.0]];
/// let model = LabelledModel::fit(&Sign, x.view(), &["low", "high", "high"]).unwrap();
/// assert_eq!(model.labels(), &["high", "low"]); // sorted: class 1 is "low"
/// assert_eq!(model.predict(array![[-5.0]].view()).unwrap(), vec!["low"]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledModel<M, L = String> {
    model: M,
    labels: ClassLabels<L>,
    feature_names: Option<Vec<String>>,
    preprocessing: Option<Preprocessing>,
}

impl<M: Classifier, L: Ord + Clone + Debug> LabelledModel<M, L> {
    /// Encodes `y`'s labels (sorted, as [`ClassLabels::fit`]) and fits `params` on `x` and the
    /// class indices.
    ///
    /// `y` must hold at least two distinct labels ([`Error::TooFewClasses`] otherwise), and the
    /// errors of the fit that name a class (a class without rows…) name its label too.
    pub fn fit<P>(params: &P, x: ArrayView2<'_, f64>, y: &[L]) -> Result<Self>
    where
        P: Fit<Model = M>,
    {
        let (labels, encoded) = ClassLabels::fit(y).map_err(|e| match e {
            Error::Empty { .. } => Error::Empty { what: "y".into() },
            other => other,
        })?;
        if labels.n_classes() < 2 {
            return Err(Error::TooFewClasses {
                what: "a classifier".into(),
                needed: 2,
                found: labels.n_classes(),
                labels: format!("{:?}", labels.labels()),
            });
        }
        let model = params
            .fit(x, encoded.view())
            .map_err(|e| name_the_class(e, &labels))?;
        Self::new(model, labels, None)
    }

    /// Joins a fitted model with the labels of its classes (and, optionally, the names of its
    /// features), checking that they are as many as the model's classes (and features).
    pub fn new(
        model: M,
        labels: ClassLabels<L>,
        feature_names: Option<Vec<String>>,
    ) -> Result<Self> {
        if labels.n_classes() != model.n_classes() {
            return Err(Error::shape_mismatch(
                "class labels vs the model's classes",
                model.n_classes(),
                labels.n_classes(),
            ));
        }
        let labelled = Self {
            model,
            labels,
            feature_names: None,
            preprocessing: None,
        };
        match feature_names {
            Some(names) => labelled.with_feature_names(names),
            None => Ok(labelled),
        }
    }

    /// Names the model's features (in column order); as many names as features.
    pub fn with_feature_names(
        mut self,
        names: impl IntoIterator<Item = impl Into<String>>,
    ) -> Result<Self> {
        let names: Vec<String> = names.into_iter().map(Into::into).collect();
        if names.len() != self.model.n_features() {
            return Err(Error::shape_mismatch(
                "feature names vs the model's features",
                self.model.n_features(),
                names.len(),
            ));
        }
        self.feature_names = Some(names);
        Ok(self)
    }

    /// Records how the model's features are made from a table (saved with the model, so that new
    /// data is encoded the same way); its columns must make as many features as the model's.
    pub fn with_preprocessing(mut self, preprocessing: Preprocessing) -> Result<Self> {
        if preprocessing.n_features() != self.model.n_features() {
            return Err(Error::shape_mismatch(
                "features made by the preprocessing vs the model's features",
                self.model.n_features(),
                preprocessing.n_features(),
            ));
        }
        self.preprocessing = Some(preprocessing);
        Ok(self)
    }

    /// How the model's features are made from a table, when that was recorded.
    pub fn preprocessing(&self) -> Option<&Preprocessing> {
        self.preprocessing.as_ref()
    }

    /// The class labels in class order: column `k` of [`predict_proba`](Self::predict_proba)
    /// belongs to `labels()[k]`.
    pub fn labels(&self) -> &[L] {
        self.labels.labels()
    }

    /// The label ↔ class-index map, e.g. to [`encode`](ClassLabels::encode) test labels for a
    /// metric.
    pub fn classes(&self) -> &ClassLabels<L> {
        &self.labels
    }

    /// The feature names, when the model was given them.
    pub fn feature_names(&self) -> Option<&[String]> {
        self.feature_names.as_deref()
    }

    /// The index-based model inside.
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The model, its labels and its feature names (the preprocessing, if any, is dropped).
    pub fn into_parts(self) -> (M, ClassLabels<L>, Option<Vec<String>>) {
        (self.model, self.labels, self.feature_names)
    }

    /// The label of the most probable (or, for classifiers without probabilities, the
    /// predicted) class of each row of `x`.
    pub fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Vec<L>> {
        let classes = self.model.predict(x)?;
        self.labels.decode(&classes.to_vec())
    }

    /// Class probabilities, `n × K`; column `k` belongs to [`labels()[k]`](Self::labels).
    pub fn predict_proba(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>>
    where
        M: ConditionalModel,
    {
        self.model.predict_proba(x)
    }

    /// Log class probabilities, `n × K`, columns as [`predict_proba`](Self::predict_proba).
    pub fn predict_log_proba(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>>
    where
        M: ConditionalModel,
    {
        self.model.predict_log_proba(x)
    }
}

impl<M, L> LabelledModel<M, L>
where
    M: SavedModel + Clone,
    L: Ord + Clone + Debug + Serialize,
{
    /// Writes the model with its labels, feature names and preprocessing as a model file (see
    /// [`model_file`](crate::model_file)).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        ModelFile::new(
            self.model.clone(),
            self.labels.clone(),
            self.feature_names.clone(),
        )
        .with_preprocessing(self.preprocessing.clone())
        .write(path)
    }
}

impl<M, L> LabelledModel<M, L>
where
    M: SavedModel,
    L: Ord + Clone + Debug + Serialize + DeserializeOwned,
{
    /// Reads a model file written by [`save`](Self::save), checking its envelope and every
    /// invariant of the model; a file that fails one is an error naming the file and the field.
    ///
    /// Labels are read as owned values: a model fitted on `&str` labels is loaded as a
    /// `LabelledModel<M, String>`.
    pub fn load(path: impl AsRef<Path>) -> Result<Self> {
        let file = ModelFile::<M, L>::read(path)?;
        Ok(Self {
            model: file.model,
            labels: file.labels,
            feature_names: file.feature_names,
            preprocessing: file.preprocessing,
        })
    }
}

/// Adds the user's label to an error that names a class by its index.
fn name_the_class<L: Ord + Clone + Debug>(error: Error, labels: &ClassLabels<L>) -> Error {
    match error {
        Error::EmptyClass { class, detail } => {
            let label = labels
                .labels()
                .get(class)
                .map(|l| format!("label {l:?}"))
                .unwrap_or_else(|| "no such label".into());
            Error::EmptyClass {
                class,
                detail: Some(match detail {
                    Some(d) => format!("{label}; {d}"),
                    None => label,
                }),
            }
        }
        Error::NotPositiveDefinite {
            what,
            detail,
            columns,
        } => Error::NotPositiveDefinite {
            what: with_labels(&what, labels),
            detail,
            columns,
        },
        Error::TooFewRows {
            what,
            needed,
            found,
        } => Error::TooFewRows {
            what: with_labels(&what, labels),
            needed,
            found,
        },
        Error::NotConverged {
            what,
            iterations,
            detail,
        } => Error::NotConverged {
            what: with_labels(&what, labels),
            iterations,
            detail,
        },
        other => other,
    }
}

/// `text` with each "class K" (a class index) followed by its label: `class 0 (label "x")`.
fn with_labels<L: Ord + Clone + Debug>(text: &str, labels: &ClassLabels<L>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("class ") {
        let (before, after) = rest.split_at(at + "class ".len());
        out.push_str(before);
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let (number, tail) = after.split_at(digits);
        out.push_str(number);
        if let Some(label) = number
            .parse::<usize>()
            .ok()
            .and_then(|k| labels.labels().get(k))
        {
            out.push_str(&format!(" (label {label:?})"));
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}
