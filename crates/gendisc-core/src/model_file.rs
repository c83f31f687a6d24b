//! gendisc's model files: one versioned JSON envelope for every fitted model.
//!
//! A file holds the format's name and version, the gendisc version that wrote it, the model's
//! kind, its class labels, the feature names it was fitted on (when it came from a table), a
//! summary of how its fit ended (for iterative fits), and the model's parameters:
//!
//! ```json
//! {
//!   "format": "gendisc-model",
//!   "format_version": 2,
//!   "gendisc_version": "0.1.0",
//!   "kind": "gaussian-naive-bayes",
//!   "labels": ["no", "yes"],
//!   "feature_names": ["age", "income"],
//!   "fit": null,
//!   "model": { … }
//! }
//! ```
//!
//! A model fitted on a table may also record its [`Preprocessing`] (a `preprocessing` field,
//! absent otherwise): the input columns it reads, in order, and how each is encoded, so that
//! new data is encoded as the training data was.
//!
//! Reading a file checks everything a fit guarantees before the model is handed out: the
//! envelope (format, a version this build knows, the kind asked for), labels sorted and distinct
//! and as many as the model's classes, as many feature names as the model's features, and the
//! model's own invariants ([`SavedModel::check_invariants`]: shapes agree, variances positive,
//! probabilities normalised, parameters finite…). A file that fails any of them is an
//! [`Error::InvalidModelFile`] naming the file and the offending field, never a model that fails
//! later at prediction.
//!
//! Numbers are JSON numbers, written so that they read back to the same bits; a fit report's
//! numbers that can be non-finite (the objective where a fit ended on one) are written as the
//! strings `"NaN"`, `"inf"` and `"-inf"` ([`non_finite`]), so that every fitted model saves and
//! loads.
//!
//! Models are written with [`LabelledModel::save`](crate::LabelledModel::save) and read with
//! [`LabelledModel::load`](crate::LabelledModel::load); the functions here work on the envelope
//! itself.

use std::fmt::Debug;
use std::fs;
use std::path::Path;

use ndarray::{ArrayView2, ArrayViewMut2};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::labels::ClassLabels;
use crate::traits::Classifier;

/// The `format` field of every gendisc model file.
pub const FORMAT: &str = "gendisc-model";

/// The version of the envelope this build writes, and the newest it reads.
///
/// Raised whenever the envelope or a model's serialised form changes in a way an older reader
/// would misread; the golden files under `crates/gendisc/tests/golden/` make such a change
/// deliberate. The versions:
///
/// * **1** — the first.
/// * **2** — the numbers of fit reports that can be non-finite are written as
///   [`non_finite`] says (`"NaN"`, `"inf"`, `"-inf"`); version 1 wrote `null`, which could not
///   be read back. Every version-1 file that loads reads the same under version 2.
pub const FORMAT_VERSION: u32 = 2;

/// The gendisc version written into model files.
pub const GENDISC_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A fitted model that can be written to and read from a model file.
///
/// Implemented by every fitted model of the workspace. Deserialisation alone must not be trusted
/// to uphold the model's invariants (serde fills fields as the file says), so reading a file
/// calls [`check_invariants`](Self::check_invariants) before the model is used.
pub trait SavedModel: Classifier + Serialize + DeserializeOwned {
    /// The model's kind in the file's `kind` field, e.g. `"gaussian-naive-bayes"`: lower-case
    /// words joined by hyphens, unique across the workspace.
    const KIND: &'static str;

    /// Checks every invariant a fit guarantees — shapes agree with each other, parameters are
    /// finite, variances positive, probabilities non-negative and normalised — and fails with an
    /// [`Error::InvalidModel`] naming the first field that breaks one.
    fn check_invariants(&self) -> Result<()>;

    /// How the fit ended, for models fitted by an iterative method (status, iterations); `None`
    /// for closed-form fits.
    fn fit_summary(&self) -> Option<FitSummary> {
        None
    }

    /// The cross-validated curve behind a hyper-parameter the fit chose, for models that
    /// choose one by cross-validation; `None` otherwise.
    fn cross_validation(&self) -> Option<CrossValidationCurve> {
        None
    }

    /// Everything about how the fit went that a caller must not miss, one sentence each: a
    /// fit that stopped without converging (at its iteration cap, stalled, or where no finite
    /// estimate exists), then the [`FitSummary::warnings`]. Empty for a clean fit and for every
    /// closed-form fit. The `gendisc` command prints each as a `warning:` line.
    fn warnings(&self) -> Vec<String> {
        let Some(summary) = self.fit_summary() else {
            return Vec::new();
        };
        let mut warnings = Vec::new();
        if !summary.converged {
            warnings.push(format!(
                "the fit did not converge ({} iterations): {}",
                summary.iterations, summary.status
            ));
        }
        warnings.extend(summary.warnings);
        warnings
    }
}

/// The cross-validated curve of a hyper-parameter, as a model that chose it reports it (the
/// model file stores it in the model's own fields).
#[derive(Debug, Clone, PartialEq)]
pub struct CrossValidationCurve {
    /// The hyper-parameter's name and symbol, e.g. `"prior variance σ²"`.
    pub parameter: &'static str,
    /// The grid, in the order of the path.
    pub grid: Vec<f64>,
    /// The mean held-out score of each grid value.
    pub scores: Vec<f64>,
    /// Their standard errors (empty when the model file predates them).
    pub standard_errors: Vec<f64>,
    /// The rule that chose, e.g. `"minimum score"`.
    pub rule: String,
    /// The chosen value.
    pub chosen: f64,
    /// Why a grid value could not be chosen, one entry per grid value (`None` for a
    /// candidate); empty when every value was one.
    pub excluded: Vec<Option<String>>,
}

/// How an iterative fit ended, as recorded in a model file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FitSummary {
    /// Whether the method met its convergence criterion (rather than stopping at a cap).
    pub converged: bool,
    /// Iterations performed (outer iterations for nested methods).
    pub iterations: usize,
    /// The method's own status line, e.g. `"converged: gradient norm 3.1e-9 ≤ 1e-8"`.
    pub status: String,
    /// What a user must not miss about the estimate besides convergence: separated training
    /// data (no finite estimate), fitted probabilities of 0 or 1, a start that did not
    /// converge. Absent from the file when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// The envelope of a model file; see the [module documentation](self).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelFile<M, L> {
    /// Always [`FORMAT`].
    pub format: String,
    /// The envelope's version, at most [`FORMAT_VERSION`].
    pub format_version: u32,
    /// The gendisc version that wrote the file.
    pub gendisc_version: String,
    /// The model's [`SavedModel::KIND`].
    pub kind: String,
    /// The class labels, in class order: column `k` of `predict_proba` is `labels[k]`.
    pub labels: ClassLabels<L>,
    /// The names of the features, in column order, when the model was fitted on a table.
    pub feature_names: Option<Vec<String>>,
    /// How the fit ended, for iterative fits.
    pub fit: Option<FitSummary>,
    /// How the model's features are read from a table, when that was recorded. Absent from the
    /// file when `None`, so that files without it read and write as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preprocessing: Option<Preprocessing>,
    /// The model's parameters.
    pub model: M,
}

/// How a table's columns become a model's features: the input columns the model reads, in
/// order, and the encoding of each. Plain data: the encoding itself is done by the data crate.
///
/// The features are the columns' encodings concatenated in order (then standardised, when a
/// [`Standardisation`] is recorded), so a model with a preprocessing has
/// [`n_features`](Self::n_features) features.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preprocessing {
    /// The input columns, in the order their features appear.
    pub columns: Vec<InputColumn>,
    /// The name of the column that held the class labels, when it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The centring and scaling applied to the encoded features, when the model was fitted on
    /// standardised features. Absent from the file when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standardisation: Option<Standardisation>,
}

/// Features centred and scaled by values learned on the training rows, `(x_j − c_j) / s_j`,
/// and replayed on new rows: what a model that is not invariant to the units of its inputs
/// (the linear SVM, L2-penalised logistic regression, Balls1/Balls2) needs when the columns'
/// scales differ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Standardisation {
    /// `c_j`: the training mean of each standardised feature, 0 for the others.
    pub center: Vec<f64>,
    /// `s_j`: the training standard deviation (divisor `n`, as scikit-learn's
    /// `StandardScaler`) of each standardised feature, 1 for the others and for constant ones.
    pub scale: Vec<f64>,
}

impl Standardisation {
    /// The mean and standard deviation of every column `j` of `x` with `standardise(j)`; the
    /// other columns are left as they are. `x` must be finite.
    pub fn fit(x: ArrayView2<'_, f64>, standardise: impl Fn(usize) -> bool) -> Self {
        let n = x.nrows().max(1) as f64;
        let (center, scale) = x
            .columns()
            .into_iter()
            .enumerate()
            .map(|(j, column)| {
                if !standardise(j) {
                    return (0.0, 1.0);
                }
                let mean = column.sum() / n;
                let variance = column.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
                let sd = variance.sqrt();
                (mean, if sd > 0.0 && sd.is_finite() { sd } else { 1.0 })
            })
            .unzip();
        Self { center, scale }
    }

    /// Centres and scales the columns of `x` in place; `x` has as many columns as the
    /// standardisation has features.
    pub fn apply(&self, mut x: ArrayViewMut2<'_, f64>) {
        for (mut column, (c, s)) in x
            .columns_mut()
            .into_iter()
            .zip(self.center.iter().zip(&self.scale))
        {
            column.mapv_inplace(|v| (v - c) / s);
        }
    }

    /// The number of features.
    pub fn n_features(&self) -> usize {
        self.center.len()
    }

    /// Why the standardisation cannot be applied to `n_features` features, if it cannot.
    fn problem(&self, n_features: usize) -> Option<String> {
        if self.center.len() != n_features || self.scale.len() != n_features {
            return Some(format!(
                "{} centres and {} scales for {n_features} features",
                self.center.len(),
                self.scale.len()
            ));
        }
        if let Some(j) = self.center.iter().position(|c| !c.is_finite()) {
            return Some(format!("the centre of feature {j} is not finite"));
        }
        if let Some(j) = self.scale.iter().position(|s| !(s.is_finite() && *s > 0.0)) {
            return Some(format!(
                "the scale of feature {j} is {}, not a finite positive number",
                self.scale[j]
            ));
        }
        None
    }
}

/// One input column of a [`Preprocessing`]: its name in the table and its encoding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputColumn {
    /// The column's name (a header name, or `V1`, `V2`, … for files without names).
    pub name: String,
    /// How the column's values become features.
    pub encoding: ColumnEncoding,
}

/// How one input column becomes features.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ColumnEncoding {
    /// A number, one feature as it is.
    Numeric,
    /// A category, one indicator feature per level, in this order.
    OneHot {
        /// The levels known at fit time.
        levels: Vec<String>,
    },
    /// A category, one indicator feature per level but the first, in this order: treatment
    /// contrasts, as R's `model.matrix` codes a factor. The first level is the reference, all
    /// of whose indicators are 0; beside an intercept a full set of indicators is collinear.
    Treatment {
        /// The levels known at fit time, the reference first.
        levels: Vec<String>,
    },
    /// A category, one feature holding the index of its level in `levels` (for models of
    /// categorical features, such as categorical naive Bayes).
    Categorical {
        /// The levels known at fit time.
        levels: Vec<String>,
    },
}

impl ColumnEncoding {
    /// The number of features the column becomes.
    pub fn n_features(&self) -> usize {
        match self {
            ColumnEncoding::Numeric | ColumnEncoding::Categorical { .. } => 1,
            ColumnEncoding::OneHot { levels } => levels.len(),
            ColumnEncoding::Treatment { levels } => levels.len().saturating_sub(1),
        }
    }
}

impl Preprocessing {
    /// The number of features the columns become.
    pub fn n_features(&self) -> usize {
        self.columns.iter().map(|c| c.encoding.n_features()).sum()
    }

    /// The input columns' names, in order.
    pub fn column_names(&self) -> Vec<&str> {
        self.columns.iter().map(|c| c.name.as_str()).collect()
    }

    /// Whether each feature is a number as read (from a [`ColumnEncoding::Numeric`] column),
    /// rather than a category's indicator or index: the features a standardisation scales.
    pub fn numeric_features(&self) -> Vec<bool> {
        self.columns
            .iter()
            .flat_map(|c| {
                let numeric = matches!(c.encoding, ColumnEncoding::Numeric);
                std::iter::repeat_n(numeric, c.encoding.n_features())
            })
            .collect()
    }

    /// Records the standardisation of the numeric features as they are in `x` (the encoded
    /// training rows, finite) and applies it to `x` in place; categories' indicators and
    /// indices are left as they are.
    pub fn standardise(&mut self, mut x: ArrayViewMut2<'_, f64>) {
        let numeric = self.numeric_features();
        let standardisation = Standardisation::fit(x.view(), |j| numeric[j]);
        standardisation.apply(x.view_mut());
        self.standardisation = Some(standardisation);
    }
}

impl<M: SavedModel, L: Ord + Clone + Debug> ModelFile<M, L> {
    /// The envelope of `model` with its labels and feature names, stamped with this build's
    /// format and version.
    pub fn new(model: M, labels: ClassLabels<L>, feature_names: Option<Vec<String>>) -> Self {
        Self {
            format: FORMAT.to_owned(),
            format_version: FORMAT_VERSION,
            gendisc_version: GENDISC_VERSION.to_owned(),
            kind: M::KIND.to_owned(),
            fit: model.fit_summary(),
            labels,
            feature_names,
            preprocessing: None,
            model,
        }
    }

    /// The envelope with the preprocessing that makes the model's features from a table.
    pub fn with_preprocessing(mut self, preprocessing: Option<Preprocessing>) -> Self {
        self.preprocessing = preprocessing;
        self
    }

    /// Checks the envelope and the model against each other and against the model's
    /// invariants; the error is an [`Error::InvalidModel`] naming the field. The format,
    /// version and kind are checked as [`read`](Self::read) checks them before the rest of a
    /// file, with the same errors.
    pub fn check(&self) -> Result<()> {
        Header::of(self).check::<M>()?;
        let invalid = |field: &str, reason: String| Error::InvalidModel {
            kind: self.kind.clone(),
            field: field.to_owned(),
            reason,
        };
        let labels = self.labels.labels();
        if labels.is_empty() {
            return Err(invalid("labels", "no class labels".into()));
        }
        if let Some(k) = labels.windows(2).position(|pair| pair[0] >= pair[1]) {
            return Err(invalid(
                "labels",
                format!(
                    "labels must be sorted and distinct; {:?} comes before {:?}",
                    labels[k],
                    labels[k + 1]
                ),
            ));
        }
        if labels.len() != self.model.n_classes() {
            return Err(invalid(
                "labels",
                format!(
                    "{} labels for a model of {} classes",
                    labels.len(),
                    self.model.n_classes()
                ),
            ));
        }
        if let Some(names) = &self.feature_names
            && names.len() != self.model.n_features()
        {
            return Err(invalid(
                "feature_names",
                format!(
                    "{} names for a model of {} features",
                    names.len(),
                    self.model.n_features()
                ),
            ));
        }
        if let Some(preprocessing) = &self.preprocessing {
            if preprocessing.n_features() != self.model.n_features() {
                return Err(invalid(
                    "preprocessing",
                    format!(
                        "its columns make {} features for a model of {} features",
                        preprocessing.n_features(),
                        self.model.n_features()
                    ),
                ));
            }
            if let Some(problem) = preprocessing
                .standardisation
                .as_ref()
                .and_then(|s| s.problem(preprocessing.n_features()))
            {
                return Err(invalid("preprocessing.standardisation", problem));
            }
        }
        self.model.check_invariants()
    }
}

impl<M, L> ModelFile<M, L>
where
    M: SavedModel,
    L: Ord + Clone + Debug + Serialize,
{
    /// Writes the envelope as pretty-printed JSON (floats round-trip exactly).
    pub fn write(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let io = |source| Error::Io {
            path: path.to_owned(),
            source,
        };
        let json = self.to_json().map_err(|e| io(e.into()))?;
        fs::write(path, json + "\n").map_err(io)
    }

    /// The envelope as the pretty-printed JSON [`write`](Self::write) writes (without its final
    /// newline).
    pub fn to_json(&self) -> serde_json::Result<String> {
        serde_json::to_string_pretty(self)
    }
}

impl<M, L> ModelFile<M, L>
where
    M: SavedModel,
    L: Ord + Clone + Debug + Serialize + DeserializeOwned,
{
    /// Reads and checks a model file; every failure names the file.
    ///
    /// The envelope is read before the model, so that a file of another format, of a newer
    /// version or of another kind says so rather than failing on the model's fields.
    pub fn read(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let text = fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_owned(),
            source,
        })?;
        Self::from_json(&text, path)
    }

    /// Reads and checks a model file's text, as [`read`](Self::read) does a file's; `origin`
    /// names the text in errors (a path, or a name such as `<pickle>`).
    pub fn from_json(text: &str, origin: impl AsRef<Path>) -> Result<Self> {
        let path = origin.as_ref();
        let in_file = |source: Error| Error::InvalidModelFile {
            path: path.to_owned(),
            source: Box::new(source),
        };
        let json_error = |e| json_error(path, e);
        let header: Header = serde_json::from_str(text).map_err(|e| header_error(path, text, e))?;
        header.check::<M>().map_err(in_file)?;
        let file: Self = serde_json::from_str(text).map_err(json_error)?;
        file.check().map_err(in_file)?;
        Ok(file)
    }
}

/// Reads the kind of the model in a model file, checking only that it is a gendisc model file of
/// a version this build reads: how a program that reads any model picks the type to
/// [`read`](ModelFile::read) it as.
///
/// Fails with an [`Error::Io`] or [`Error::Parse`] naming the file when it cannot be read as
/// JSON, and an [`Error::InvalidModelFile`] when it is not a model file or of an unknown version.
pub fn read_kind(path: impl AsRef<Path>) -> Result<String> {
    let path = path.as_ref();
    let text = fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    kind_of_json(&text, path)
}

/// [`read_kind`] of a model file's text; `origin` names the text in errors.
pub fn kind_of_json(text: &str, origin: impl AsRef<Path>) -> Result<String> {
    let path = origin.as_ref();
    let header: Header = serde_json::from_str(text).map_err(|e| header_error(path, text, e))?;
    let kind = header.kind.clone().unwrap_or_default();
    header
        .check_format(&kind)
        .map_err(|source| Error::InvalidModelFile {
            path: path.to_owned(),
            source: Box::new(source),
        })?;
    Ok(kind)
}

/// A JSON error of the file at `path` (whose text is `text`) where its header was expected: a
/// file that is not a JSON object at all (a data file given as a model, say) is told so.
fn header_error(path: &Path, text: &str, e: serde_json::Error) -> Error {
    let not_json = e.is_syntax() && !text.trim_start().starts_with('{');
    match json_error(path, e) {
        Error::Parse {
            path,
            line,
            column,
            message,
        } if not_json => Error::Parse {
            path,
            line,
            column,
            message: format!("not a gendisc model file, which is a JSON object ({message})"),
        },
        other => other,
    }
}

/// A JSON error of the file at `path`, at its line and column.
fn json_error(path: &Path, e: serde_json::Error) -> Error {
    Error::Parse {
        path: path.to_owned(),
        line: e.line(),
        column: e.column(),
        // serde_json's message ends with the position, which `Error::Parse` shows already.
        message: match e.to_string().rsplit_once(" at line ") {
            Some((message, _)) => message.to_owned(),
            None => e.to_string(),
        },
    }
}

/// The envelope's fields that say what the file is, read before the rest.
#[derive(Deserialize)]
struct Header {
    format: Option<String>,
    format_version: Option<u32>,
    kind: Option<String>,
}

impl Header {
    /// The header of an envelope already read.
    fn of<M, L>(file: &ModelFile<M, L>) -> Self {
        Self {
            format: Some(file.format.clone()),
            format_version: Some(file.format_version),
            kind: Some(file.kind.clone()),
        }
    }

    /// Checks that the file is a model file this build reads, of the kind `M`; errors are about
    /// the kind asked for.
    fn check<M: SavedModel>(&self) -> Result<()> {
        self.check_format(M::KIND)?;
        let shown = |value: Option<&str>| value.map_or("none".to_owned(), |v| format!("{v:?}"));
        if self.kind.as_deref() != Some(M::KIND) {
            return Err(Error::InvalidModel {
                kind: M::KIND.to_owned(),
                field: "kind".to_owned(),
                reason: format!("the file holds a {} model", shown(self.kind.as_deref())),
            });
        }
        Ok(())
    }

    /// Checks that the file is a gendisc model file of a version this build reads; errors are
    /// about the kind `kind`.
    fn check_format(&self, kind: &str) -> Result<()> {
        let invalid = |field: &str, reason: String| Error::InvalidModel {
            kind: kind.to_owned(),
            field: field.to_owned(),
            reason,
        };
        let shown = |value: Option<&str>| value.map_or("none".to_owned(), |v| format!("{v:?}"));
        if self.format.as_deref() != Some(FORMAT) {
            return Err(invalid(
                "format",
                format!(
                    "not a gendisc model file (format {}, expected {FORMAT:?})",
                    shown(self.format.as_deref())
                ),
            ));
        }
        match self.format_version {
            Some(v) if (1..=FORMAT_VERSION).contains(&v) => {}
            other => {
                let found = other.map_or("no version".to_owned(), |v| format!("version {v}"));
                return Err(invalid(
                    "format_version",
                    format!(
                        "{found} is unknown to gendisc {GENDISC_VERSION}, which reads versions 1 to {FORMAT_VERSION}"
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// The model-file encoding of a number that may be non-finite: a fit report records the
/// objective or gradient norm where a fit ended, and a fit that ended on a non-finite
/// objective (or an EM log-likelihood of `−∞`) must still save and load. JSON has no such
/// numbers, so a finite value is written as a JSON number and the others as the strings
/// `"NaN"`, `"inf"` and `"-inf"`; reading accepts either form. Files of format version 1 held
/// only numbers (non-finite values were written as `null`, which no version reads).
///
/// Use on a field with `#[serde(with = "gendisc_core::model_file::non_finite")]`; the
/// submodules [`option`](non_finite::option) and [`vec`](non_finite::vec) do the same for
/// `Option<f64>` and `Vec<f64>`.
pub mod non_finite {
    use serde::de::{self, Deserializer, Visitor};
    use serde::{Deserialize, Serialize, Serializer};
    use std::fmt;

    /// Writes `value` as a number, or as `"NaN"`, `"inf"` or `"-inf"`.
    pub fn serialize<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
        match *value {
            v if v.is_finite() => serializer.serialize_f64(v),
            v if v.is_nan() => serializer.serialize_str("NaN"),
            v if v > 0.0 => serializer.serialize_str("inf"),
            _ => serializer.serialize_str("-inf"),
        }
    }

    /// Reads a number, or one of `"NaN"`, `"inf"` and `"-inf"`.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
        deserializer.deserialize_any(NumberOrName)
    }

    struct NumberOrName;

    impl Visitor<'_> for NumberOrName {
        type Value = f64;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(r#"a number, "NaN", "inf" or "-inf""#)
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
            Ok(v)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
            Ok(v as f64)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
            Ok(v as f64)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
            match v {
                "NaN" => Ok(f64::NAN),
                "inf" => Ok(f64::INFINITY),
                "-inf" => Ok(f64::NEG_INFINITY),
                other => Err(E::invalid_value(de::Unexpected::Str(other), &self)),
            }
        }
    }

    /// One number as [`serialize`] and [`deserialize`] encode it.
    #[derive(Serialize, Deserialize)]
    #[serde(transparent)]
    struct Encoded(#[serde(with = "super::non_finite")] f64);

    /// [`non_finite`](super::non_finite) for `Option<f64>` (`null` for `None`).
    pub mod option {
        use super::Encoded;
        use serde::{Deserialize, Deserializer, Serialize, Serializer};

        /// Writes `None` as `null`, a value as [`serialize`](super::serialize) does.
        pub fn serialize<S: Serializer>(
            value: &Option<f64>,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            value.map(Encoded).serialize(serializer)
        }

        /// Reads `null` as `None`, a value as [`deserialize`](super::deserialize) does.
        pub fn deserialize<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Option<f64>, D::Error> {
            Ok(Option::<Encoded>::deserialize(deserializer)?.map(|e| e.0))
        }
    }

    /// [`non_finite`](super::non_finite) for every entry of a `Vec<f64>`.
    pub mod vec {
        use super::Encoded;
        use serde::ser::SerializeSeq;
        use serde::{Deserialize, Deserializer, Serializer};

        /// Writes each entry as [`serialize`](super::serialize) does.
        pub fn serialize<S: Serializer>(values: &[f64], serializer: S) -> Result<S::Ok, S::Error> {
            let mut seq = serializer.serialize_seq(Some(values.len()))?;
            for &v in values {
                seq.serialize_element(&Encoded(v))?;
            }
            seq.end()
        }

        /// Reads each entry as [`deserialize`](super::deserialize) does.
        pub fn deserialize<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Vec<f64>, D::Error> {
            Ok(Vec::<Encoded>::deserialize(deserializer)?
                .into_iter()
                .map(|e| e.0)
                .collect())
        }
    }
}

/// Helpers for [`SavedModel::check_invariants`]: each fails with an [`Error::InvalidModel`] of
/// kind `M::KIND` naming `field`.
pub mod invariants {
    use ndarray::{ArrayBase, Data, Dimension};

    use crate::error::{Error, Result};

    /// An [`Error::InvalidModel`] of kind `kind` about `field`.
    pub fn invalid(kind: &str, field: &str, reason: impl Into<String>) -> Error {
        Error::InvalidModel {
            kind: kind.to_owned(),
            field: field.to_owned(),
            reason: reason.into(),
        }
    }

    /// `field` has the shape `expected`.
    pub fn shape<S: Data<Elem = f64>, D: Dimension>(
        kind: &str,
        field: &str,
        a: &ArrayBase<S, D>,
        expected: &[usize],
    ) -> Result<()> {
        if a.shape() != expected {
            return Err(invalid(
                kind,
                field,
                format!("shape {:?}, expected {expected:?}", a.shape()),
            ));
        }
        Ok(())
    }

    /// Every entry of `field` is finite.
    pub fn finite<S: Data<Elem = f64>, D: Dimension>(
        kind: &str,
        field: &str,
        a: &ArrayBase<S, D>,
    ) -> Result<()> {
        match a.indexed_iter().find(|(_, v)| !v.is_finite()) {
            Some((index, v)) => Err(invalid(
                kind,
                field,
                format!("entry {:?} is {v}; every entry must be finite", index),
            )),
            None => Ok(()),
        }
    }

    /// Every entry of `field` is finite and strictly positive.
    pub fn positive<S: Data<Elem = f64>, D: Dimension>(
        kind: &str,
        field: &str,
        a: &ArrayBase<S, D>,
    ) -> Result<()> {
        match a
            .indexed_iter()
            .find(|(_, v)| !(v.is_finite() && **v > 0.0))
        {
            Some((index, v)) => Err(invalid(
                kind,
                field,
                format!(
                    "entry {:?} is {v}; every entry must be finite and positive",
                    index
                ),
            )),
            None => Ok(()),
        }
    }

    /// `field`'s entries are the logarithms of a probability distribution: none `+∞` or NaN,
    /// not all `−∞`, and their exponentials sum to 1 within
    /// [`PROBABILITY_SUM_TOLERANCE`](crate::numerics::PROBABILITY_SUM_TOLERANCE) times their
    /// number (the rounding of a sum of that many terms).
    pub fn log_distribution<'a>(
        kind: &str,
        field: &str,
        log_p: impl IntoIterator<Item = &'a f64>,
    ) -> Result<()> {
        let mut sum = 0.0;
        let mut n = 0usize;
        for (k, &v) in log_p.into_iter().enumerate() {
            if v.is_nan() || v == f64::INFINITY {
                return Err(invalid(
                    kind,
                    field,
                    format!("entry {k} is {v}, not the logarithm of a probability"),
                ));
            }
            sum += v.exp();
            n += 1;
        }
        let tolerance = crate::numerics::PROBABILITY_SUM_TOLERANCE * n.max(1) as f64;
        if n == 0 || (sum - 1.0).abs() > tolerance {
            return Err(invalid(
                kind,
                field,
                format!("the probabilities sum to {sum}, not 1 (tolerance {tolerance:e})"),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use ndarray::{Array1, ArrayView2};

    use super::*;

    #[test]
    fn non_finite_numbers_round_trip_and_nothing_else_reads_as_one() {
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct Report {
            #[serde(with = "non_finite")]
            value: f64,
            #[serde(with = "non_finite::option")]
            tolerance: Option<f64>,
            #[serde(with = "non_finite::vec")]
            trace: Vec<f64>,
        }
        let report = Report {
            value: f64::NEG_INFINITY,
            tolerance: Some(f64::INFINITY),
            trace: vec![0.1, f64::NAN, -3.0, f64::INFINITY],
        };
        let text = serde_json::to_string(&report).unwrap();
        assert_eq!(
            text,
            r#"{"value":"-inf","tolerance":"inf","trace":[0.1,"NaN",-3.0,"inf"]}"#
        );
        let back: Report = serde_json::from_str(&text).unwrap();
        assert_eq!(back.value, f64::NEG_INFINITY);
        assert_eq!(back.tolerance, Some(f64::INFINITY));
        assert!(back.trace[1].is_nan());
        assert_eq!(back.trace[3], f64::INFINITY);
        // Integers are numbers too; null is None only where None is allowed.
        let plain: Report =
            serde_json::from_str(r#"{"value":3,"tolerance":null,"trace":[]}"#).unwrap();
        assert_eq!((plain.value, plain.tolerance), (3.0, None));
        for bad in [
            r#"{"value":"Infinity","tolerance":null,"trace":[]}"#,
            r#"{"value":null,"tolerance":null,"trace":[]}"#,
            r#"{"value":1,"tolerance":null,"trace":["nan"]}"#,
        ] {
            assert!(serde_json::from_str::<Report>(bad).is_err(), "{bad}");
        }
    }
    use crate::LabelledModel;

    /// A model of `n_features` features that says class 1 when the first one is positive.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Sign {
        n_features: usize,
    }

    impl Classifier for Sign {
        fn n_features(&self) -> usize {
            self.n_features
        }
        fn n_classes(&self) -> usize {
            2
        }
        fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Array1<usize>> {
            Ok(x.column(0).mapv(|v| usize::from(v > 0.0)))
        }
    }

    impl SavedModel for Sign {
        const KIND: &'static str = "sign";
        fn check_invariants(&self) -> Result<()> {
            Ok(())
        }
    }

    /// A numeric column and a one-hot column of two levels: three features.
    fn preprocessing() -> Preprocessing {
        Preprocessing {
            standardisation: None,
            columns: vec![
                InputColumn {
                    name: "size".into(),
                    encoding: ColumnEncoding::Numeric,
                },
                InputColumn {
                    name: "colour".into(),
                    encoding: ColumnEncoding::OneHot {
                        levels: vec!["blue".into(), "red".into()],
                    },
                },
            ],
            target: Some("class".into()),
        }
    }

    fn labels() -> ClassLabels<String> {
        ClassLabels::new(["no".to_owned(), "yes".to_owned()]).unwrap()
    }

    fn labelled(n_features: usize) -> LabelledModel<Sign> {
        LabelledModel::new(Sign { n_features }, labels(), None).unwrap()
    }

    /// A path in the temporary directory unique to this process and `name`.
    fn temp_file(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("gendisc-core-{}-{name}.json", std::process::id()))
    }

    #[test]
    fn the_preprocessing_round_trips_and_is_absent_when_not_recorded() {
        let path = temp_file("round-trip");
        let model = labelled(3).with_preprocessing(preprocessing()).unwrap();
        model.save(&path).unwrap();
        assert_eq!(read_kind(&path).unwrap(), "sign");
        let loaded = LabelledModel::<Sign>::load(&path).unwrap();
        assert_eq!(loaded.preprocessing(), Some(&preprocessing()));

        labelled(3).save(&path).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert!(!text.contains("preprocessing"), "{text}");
        assert_eq!(
            LabelledModel::<Sign>::load(&path).unwrap().preprocessing(),
            None
        );
        fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_preprocessing_of_another_width_is_refused() {
        assert!(labelled(2).with_preprocessing(preprocessing()).is_err());
        // A file edited to a model of two features keeps a preprocessing of three.
        let path = temp_file("width");
        labelled(3)
            .with_preprocessing(preprocessing())
            .unwrap()
            .save(&path)
            .unwrap();
        let text = fs::read_to_string(&path).unwrap();
        fs::write(
            &path,
            text.replace("\"n_features\": 3", "\"n_features\": 2"),
        )
        .unwrap();
        let error = LabelledModel::<Sign>::load(&path).unwrap_err();
        fs::remove_file(&path).unwrap();
        assert!(
            matches!(&error, Error::InvalidModelFile { source, .. }
                if matches!(&**source, Error::InvalidModel { field, .. } if field == "preprocessing")),
            "{error:?}"
        );
    }

    #[test]
    fn standardisation_scales_numeric_features_and_is_checked_on_load() {
        // size: 1, 3, 5 (mean 3, sd √(8/3)); colour's indicators are left alone.
        let mut x = ndarray::array![[1.0, 1.0, 0.0], [3.0, 0.0, 1.0], [5.0, 1.0, 0.0]];
        let mut p = preprocessing();
        p.standardise(x.view_mut());
        let s = p.standardisation.clone().unwrap();
        let sd = (8.0_f64 / 3.0).sqrt();
        assert_eq!(s.center, vec![3.0, 0.0, 0.0]);
        assert_eq!(s.scale, vec![sd, 1.0, 1.0]);
        assert_eq!(x.column(0).to_vec(), vec![-2.0 / sd, 0.0, 2.0 / sd]);
        assert_eq!(x.column(2).to_vec(), vec![0.0, 1.0, 0.0]);
        // A constant feature keeps its unit scale.
        assert_eq!(
            Standardisation::fit(x.slice(ndarray::s![.., 1..2]).map(|_| 4.0).view(), |_| true)
                .scale,
            vec![1.0]
        );

        let path = temp_file("standardised");
        labelled(3)
            .with_preprocessing(p)
            .unwrap()
            .save(&path)
            .unwrap();
        assert_eq!(
            LabelledModel::<Sign>::load(&path)
                .unwrap()
                .preprocessing()
                .unwrap()
                .standardisation,
            Some(s)
        );
        // A zero or negative scale, or a missing centre, is refused, naming the field.
        let text = fs::read_to_string(&path).unwrap();
        type Damage = fn(&mut serde_json::Value);
        let damages: [(&str, Damage); 3] = [
            ("scale", |v| v[1] = 0.0.into()),
            ("scale", |v| v[0] = (-2.0).into()),
            ("center", |v| {
                v.as_array_mut().unwrap().pop();
            }),
        ];
        for (field, damage) in damages {
            let mut file: serde_json::Value = serde_json::from_str(&text).unwrap();
            damage(&mut file["preprocessing"]["standardisation"][field]);
            fs::write(&path, file.to_string()).unwrap();
            let error = LabelledModel::<Sign>::load(&path).unwrap_err();
            assert!(
                matches!(&error, Error::InvalidModelFile { source, .. }
                    if matches!(&**source, Error::InvalidModel { field, .. }
                        if field == "preprocessing.standardisation")),
                "{field}: {error:?}"
            );
        }
        fs::remove_file(&path).unwrap();
    }

    #[test]
    fn an_envelope_in_memory_is_checked_as_a_file_is_read() {
        let path = temp_file("envelope");
        type Edit = fn(&mut ModelFile<Sign, String>);
        let edits: [(&str, Edit); 4] = [
            ("format", |f| f.format = "other".into()),
            ("format_version", |f| f.format_version = 0),
            ("format_version", |f| f.format_version = FORMAT_VERSION + 1),
            ("kind", |f| f.kind = "square".into()),
        ];
        for (field, edit) in edits {
            let mut file = ModelFile::new(Sign { n_features: 1 }, labels(), None);
            edit(&mut file);
            let in_memory = file.check().unwrap_err();
            file.write(&path).unwrap();
            let read = ModelFile::<Sign, String>::read(&path).unwrap_err();
            assert!(
                matches!(&in_memory, Error::InvalidModel { field: f, .. } if f == field),
                "{in_memory:?}"
            );
            assert!(
                matches!(&read, Error::InvalidModelFile { source, .. }
                    if source.to_string() == in_memory.to_string()),
                "{read:?} against {in_memory:?}"
            );
        }
        fs::remove_file(&path).unwrap();
    }

    #[test]
    fn read_kind_refuses_other_files_and_versions() {
        let path = temp_file("kind");
        fs::write(
            &path,
            r#"{"format": "gendisc-model", "format_version": 7, "kind": "sign"}"#,
        )
        .unwrap();
        let newer = read_kind(&path).unwrap_err().to_string();
        fs::write(&path, r#"{"format": "other"}"#).unwrap();
        let other = read_kind(&path).unwrap_err().to_string();
        fs::remove_file(&path).unwrap();
        assert!(newer.contains("version 7 is unknown"), "{newer}");
        assert!(other.contains("not a gendisc model file"), "{other}");
    }
}
