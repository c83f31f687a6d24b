//! `gendisc._native`: the extension module behind the `gendisc` Python package.
//!
//! The package's scikit-learn estimators (`python/gendisc/`) validate their inputs, encode the
//! class labels as indices `0 … K − 1`, and call `fit` with the estimator's kind and its
//! hyper-parameters; the `FittedModel` it returns predicts and writes itself as a gendisc model
//! file (the versioned envelope `gendisc fit` writes), which is how the estimators save and
//! pickle. The numerical work runs with the interpreter's lock released,
//! on the caller's arrays without a copy.

mod compare;

use std::collections::HashSet;
use std::path::PathBuf;

use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use gendisc_bilevel::{BilevelClassifier, GenerativePrior};
use gendisc_core::model_file::kind_of_json;
use gendisc_core::{
    ClassLabels, Classifier, ColumnEncoding, ConditionalModel, Fit, FitWeighted, ModelFile,
    ParamGuard, Preprocessing, SavedModel,
};
use gendisc_discriminative::{LinearSvm, LogisticRegression, LogisticRegressionCv};
use gendisc_gdt::{CovarianceShrinkage, Family, Gdt, GdtCv, GdtParams, SelectionRule};
use gendisc_generative::{
    Balls1, Balls2, BernoulliNb, CategoricalNb, GaussianNb, Lda, LdaSvd, MultinomialNb, Qda,
};
use gendisc_hybrid::{Hybrid, HybridParams, Normalization};

/// A fitted model of any kind, as the estimators use it.
trait Fitted: Send + Sync {
    /// The model file's `kind` of the model.
    fn kind(&self) -> &'static str;
    /// The number of features the model reads.
    fn n_features(&self) -> usize;
    /// `log p(k | x)` for every row and class; `None` for a model without probabilities.
    fn predict_log_proba(
        &self,
        x: ArrayView2<'_, f64>,
    ) -> Option<gendisc_core::Result<Array2<f64>>>;
    /// The decision scores of a model without probabilities (`n × 1` for two classes, positive
    /// for class 1; `n × K` one-vs-rest); `None` for the others.
    fn decision_scores(&self, x: ArrayView2<'_, f64>) -> Option<gendisc_core::Result<Array2<f64>>>;
    /// The predicted class index of every row.
    fn predict(&self, x: ArrayView2<'_, f64>) -> gendisc_core::Result<Array1<usize>>;
    /// The model's parameters as JSON.
    fn to_json(&self) -> serde_json::Result<String>;
    /// `(converged, iterations, status)` of an iterative fit.
    fn summary(&self) -> Option<(bool, usize, String)>;
    /// What a caller must not miss about the fit.
    fn warnings(&self) -> Vec<String>;
    /// For a cross-validated model, why each grid value was no candidate (`None` where it was
    /// one); `None` for the others.
    fn cv_exclusions(&self) -> Option<Vec<Option<String>>>;
    /// The model file of the model with its class labels (in class order, which must be their
    /// sorted order, as the file keeps them) and feature names, as JSON.
    fn envelope(
        &self,
        labels: Vec<String>,
        feature_names: Option<Vec<String>>,
    ) -> gendisc_core::Result<String>;
}

impl<M> Fitted for M
where
    M: ConditionalModel + SavedModel + Clone + Send + Sync,
{
    fn kind(&self) -> &'static str {
        M::KIND
    }

    fn n_features(&self) -> usize {
        Classifier::n_features(self)
    }

    fn predict_log_proba(
        &self,
        x: ArrayView2<'_, f64>,
    ) -> Option<gendisc_core::Result<Array2<f64>>> {
        Some(ConditionalModel::predict_log_proba(self, x))
    }

    fn decision_scores(&self, _: ArrayView2<'_, f64>) -> Option<gendisc_core::Result<Array2<f64>>> {
        None
    }

    fn predict(&self, x: ArrayView2<'_, f64>) -> gendisc_core::Result<Array1<usize>> {
        Classifier::predict(self, x)
    }

    fn to_json(&self) -> serde_json::Result<String> {
        serde_json::to_string(self)
    }

    fn summary(&self) -> Option<(bool, usize, String)> {
        self.fit_summary()
            .map(|s| (s.converged, s.iterations, s.status))
    }

    fn warnings(&self) -> Vec<String> {
        SavedModel::warnings(self)
    }

    fn cv_exclusions(&self) -> Option<Vec<Option<String>>> {
        self.cross_validation().map(|curve| curve.excluded)
    }

    fn envelope(
        &self,
        labels: Vec<String>,
        feature_names: Option<Vec<String>>,
    ) -> gendisc_core::Result<String> {
        envelope_json(self.clone(), labels, feature_names)
    }
}

/// The model file of `model` as JSON.
fn envelope_json<M: SavedModel + Clone>(
    model: M,
    labels: Vec<String>,
    feature_names: Option<Vec<String>>,
) -> gendisc_core::Result<String> {
    ModelFile::new(model, ClassLabels::new(labels)?, feature_names)
        .to_json()
        .map_err(|e| gendisc_core::Error::InvalidModel {
            kind: M::KIND.to_owned(),
            field: "model".to_owned(),
            reason: e.to_string(),
        })
}

/// A classifier with decision scores rather than probabilities: `n × 1` for two classes
/// (positive for class 1), `n × K` one-vs-rest beyond.
trait DecisionScores {
    /// The scores of every row of `x`.
    fn scores(&self, x: ArrayView2<'_, f64>) -> gendisc_core::Result<Array2<f64>>;
}

impl DecisionScores for LinearSvm {
    fn scores(&self, x: ArrayView2<'_, f64>) -> gendisc_core::Result<Array2<f64>> {
        self.decision_scores(x)
    }
}

impl DecisionScores for BilevelClassifier {
    fn scores(&self, x: ArrayView2<'_, f64>) -> gendisc_core::Result<Array2<f64>> {
        Ok(self.decision_function(x)?.insert_axis(ndarray::Axis(1)))
    }
}

/// The linear SVM and the bilevel classifier, which score rather than give probabilities.
struct Scored<M>(M);

impl<M> Fitted for Scored<M>
where
    M: DecisionScores + Classifier + SavedModel + Clone + Send + Sync,
{
    fn kind(&self) -> &'static str {
        M::KIND
    }

    fn n_features(&self) -> usize {
        self.0.n_features()
    }

    fn predict_log_proba(
        &self,
        _: ArrayView2<'_, f64>,
    ) -> Option<gendisc_core::Result<Array2<f64>>> {
        None
    }

    fn decision_scores(&self, x: ArrayView2<'_, f64>) -> Option<gendisc_core::Result<Array2<f64>>> {
        Some(self.0.scores(x))
    }

    fn predict(&self, x: ArrayView2<'_, f64>) -> gendisc_core::Result<Array1<usize>> {
        self.0.predict(x)
    }

    fn to_json(&self) -> serde_json::Result<String> {
        serde_json::to_string(&self.0)
    }

    fn summary(&self) -> Option<(bool, usize, String)> {
        self.0
            .fit_summary()
            .map(|s| (s.converged, s.iterations, s.status))
    }

    fn warnings(&self) -> Vec<String> {
        self.0.warnings()
    }

    fn cv_exclusions(&self) -> Option<Vec<Option<String>>> {
        self.0.cross_validation().map(|curve| curve.excluded)
    }

    fn envelope(
        &self,
        labels: Vec<String>,
        feature_names: Option<Vec<String>>,
    ) -> gendisc_core::Result<String> {
        envelope_json(self.0.clone(), labels, feature_names)
    }
}

/// A fitted gendisc model: class probabilities, its fit report, and its JSON.
#[pyclass(frozen, module = "gendisc._native")]
struct FittedModel {
    model: Box<dyn Fitted>,
}

#[pymethods]
impl FittedModel {
    /// The model file's `kind` of the model, e.g. `"gaussian-naive-bayes"`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.model.kind()
    }

    /// The number of features the model reads.
    #[getter]
    fn n_features(&self) -> usize {
        self.model.n_features()
    }

    /// `log p(k | x)`, one row per row of `x` (float64, 2-d) and one column per class; a
    /// `TypeError` for a model without probabilities.
    fn predict_log_proba<'py>(
        &self,
        py: Python<'py>,
        x: PyReadonlyArray2<'py, f64>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let x = x.as_array();
        let model = &self.model;
        let out = py
            .detach(|| model.predict_log_proba(x))
            .ok_or_else(|| no_such("probabilities", model.kind()))?
            .map_err(value_error)?;
        Ok(out.into_pyarray(py))
    }

    /// The decision scores of a model without probabilities: `n × 1` for two classes
    /// (positive for class 1), `n × K` one-vs-rest; a `TypeError` for the other models.
    fn decision_scores<'py>(
        &self,
        py: Python<'py>,
        x: PyReadonlyArray2<'py, f64>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let x = x.as_array();
        let model = &self.model;
        let out = py
            .detach(|| model.decision_scores(x))
            .ok_or_else(|| no_such("decision scores", model.kind()))?
            .map_err(value_error)?;
        Ok(out.into_pyarray(py))
    }

    /// The predicted class index of every row.
    fn predict<'py>(
        &self,
        py: Python<'py>,
        x: PyReadonlyArray2<'py, f64>,
    ) -> PyResult<Bound<'py, PyArray1<usize>>> {
        let x = x.as_array();
        let model = &self.model;
        let out = py.detach(|| model.predict(x)).map_err(value_error)?;
        Ok(out.into_pyarray(py))
    }

    /// The model's parameters as JSON (the `model` field of a model file of its kind).
    fn to_json(&self) -> PyResult<String> {
        self.model
            .to_json()
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// `(converged, iterations, status)` for an iterative fit, `None` for a closed form.
    fn fit_summary(&self) -> Option<(bool, usize, String)> {
        self.model.summary()
    }

    /// What a caller must not miss about the fit (non-convergence, separated data, a class
    /// without spread), one sentence each.
    fn warnings(&self) -> Vec<String> {
        self.model.warnings()
    }

    /// For a cross-validated model, why each grid value was no candidate for the choice, in
    /// words (`None` where it was one); `None` for a model without cross-validation.
    fn cv_exclusions(&self) -> Option<Vec<Option<String>>> {
        self.model.cv_exclusions()
    }

    /// Writes a model file that `gendisc predict` and `LabelledModel::load` read: `labels` name
    /// the classes in class order, which must be their sorted order (the file keeps labels
    /// sorted); `feature_names`, when given, one per feature.
    #[pyo3(signature = (path, labels, feature_names = None))]
    fn write_model_file(
        &self,
        path: PathBuf,
        labels: Vec<String>,
        feature_names: Option<Vec<String>>,
    ) -> PyResult<()> {
        let json = self.model_file_json(labels, feature_names)?;
        std::fs::write(&path, json + "\n")
            .map_err(|e| PyValueError::new_err(format!("cannot write {}: {e}", path.display())))
    }

    /// The model file (the versioned envelope `write_model_file` writes) as JSON: how the
    /// estimators pickle, with `labels` that sort as the classes do.
    #[pyo3(signature = (labels, feature_names = None))]
    fn model_file_json(
        &self,
        labels: Vec<String>,
        feature_names: Option<Vec<String>>,
    ) -> PyResult<String> {
        if let Some(pair) = labels.windows(2).find(|pair| pair[0] >= pair[1]) {
            return Err(PyValueError::new_err(format!(
                "a model file keeps its labels sorted as text, and the classes' labels are not: \
                 {:?} comes before {:?}",
                pair[0], pair[1]
            )));
        }
        self.model
            .envelope(labels, feature_names)
            .map_err(value_error)
    }
}

/// The error of asking a model for what it does not have.
fn no_such(what: &str, kind: &str) -> PyErr {
    PyTypeError::new_err(format!("a {kind} model has no {what}"))
}

/// A gendisc error as Python's `ValueError`, with its message.
/// The class indices the Python layer encoded (`0 … K − 1`), checked.
fn class_indices(y: ArrayView1<'_, i64>, n_classes: usize) -> PyResult<Array1<usize>> {
    y.iter()
        .map(|&v| {
            usize::try_from(v)
                .ok()
                .filter(|&k| k < n_classes)
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "class index {v} is not in 0 … {}",
                        n_classes.saturating_sub(1)
                    ))
                })
        })
        .collect()
}

/// The categories of each column of codes, as scikit-learn's `n_categories_`: one more than the
/// largest code seen, or `minimum`'s value when that is larger.
fn category_counts(x: ArrayView2<'_, f64>, minimum: &[usize]) -> Vec<usize> {
    x.columns()
        .into_iter()
        .zip(minimum)
        .map(|(column, &m)| {
            let largest = column.fold(0.0f64, |a, &v| a.max(v));
            (largest as usize + 1).max(m)
        })
        .collect()
}

fn value_error(error: gendisc_core::Error) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// The hyper-parameters an estimator passes, read by name; a name the kind does not know is
/// an error, so that a misspelt parameter cannot be ignored.
struct Settings<'a, 'py> {
    dict: &'a Bound<'py, PyDict>,
    read: HashSet<String>,
}

impl<'a, 'py> Settings<'a, 'py> {
    fn new(dict: &'a Bound<'py, PyDict>) -> Self {
        Self {
            dict,
            read: HashSet::new(),
        }
    }

    /// The value of `name`, `None` when absent or `None`.
    fn get<T: for<'b> FromPyObject<'b, 'py>>(&mut self, name: &str) -> PyResult<Option<T>> {
        self.read.insert(name.to_owned());
        match self.dict.get_item(name)? {
            Some(value) if !value.is_none() => value.extract().map(Some).map_err(|_| {
                PyTypeError::new_err(format!("parameter `{name}` has the wrong type: {value}"))
            }),
            _ => Ok(None),
        }
    }

    /// Fails on a parameter that was not read.
    /// The value of `name`, which must be given.
    fn require<T: for<'b> FromPyObject<'b, 'py>>(&mut self, name: &str) -> PyResult<T> {
        self.get(name)?
            .ok_or_else(|| PyValueError::new_err(format!("`{name}` is required")))
    }

    fn finish(self, kind: &str) -> PyResult<()> {
        for key in self.dict.keys() {
            let key: String = key.extract()?;
            if !self.read.contains(&key) {
                return Err(PyValueError::new_err(format!(
                    "{kind} has no parameter `{key}`"
                )));
            }
        }
        Ok(())
    }
}

/// The covariance regulariser of the `shrinkage` (toward the scaled identity) and `reg_param`
/// (toward the identity) settings; at most one of them.
fn covariance_shrinkage(settings: &mut Settings<'_, '_>) -> PyResult<CovarianceShrinkage> {
    match (
        settings.get::<f64>("shrinkage")?,
        settings.get::<f64>("reg_param")?,
    ) {
        (Some(_), Some(_)) => Err(PyValueError::new_err(
            "give `shrinkage` or `reg_param`, not both",
        )),
        (Some(gamma), None) => Ok(CovarianceShrinkage::ScaledIdentity(gamma)),
        (None, Some(r)) if r > 0.0 => Ok(CovarianceShrinkage::Identity(r)),
        (None, _) => Ok(CovarianceShrinkage::None),
    }
}

/// How a cross-validated estimator draws its folds and chooses: `n_folds` (5), `n_repeats` (1),
/// `seed` (0) and `rule` (`"min"` or `"one-se"`).
struct CrossValidation {
    n_folds: usize,
    n_repeats: usize,
    seed: u64,
    rule: SelectionRule,
}

fn cross_validation(s: &mut Settings<'_, '_>) -> PyResult<CrossValidation> {
    let rule = match s.get::<String>("rule")?.as_deref() {
        None | Some("min") => SelectionRule::MinimumScore,
        Some("one-se") => SelectionRule::OneStandardError,
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "rule must be 'min' or 'one-se', got {other:?}"
            )))
        }
    };
    Ok(CrossValidation {
        n_folds: s.get("n_folds")?.unwrap_or(5),
        n_repeats: s.get("n_repeats")?.unwrap_or(1),
        seed: s.get("seed")?.unwrap_or(0),
        rule,
    })
}

/// GDT's settings but `λ`: `family`, `shrinkage`, `reg_param`, `variance_floor`.
fn gdt_params(settings: &mut Settings<'_, '_>, n_classes: usize) -> PyResult<GdtParams> {
    let family: String = settings.get("family")?.unwrap_or_else(|| "lda".to_owned());
    let family: Family = family.parse().map_err(value_error)?;
    let mut p = Gdt::params(family)
        .n_classes(n_classes)
        .shrinkage(covariance_shrinkage(settings)?);
    if let Some(floor) = settings.get("variance_floor")? {
        p = p.variance_floor(floor);
    }
    Ok(p)
}

/// Fits `params` on `(x, y)` (with weights) with the interpreter's lock released.
fn fit_with<P>(
    py: Python<'_>,
    params: P,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    w: Option<ArrayView1<'_, f64>>,
) -> PyResult<Box<dyn Fitted>>
where
    P: FitWeighted + Send + Sync,
    <P as Fit>::Model: Fitted + 'static,
{
    let model = py
        .detach(|| match w {
            Some(w) => params.fit_weighted(x, y, w),
            None => params.fit(x, y),
        })
        .map_err(value_error)?;
    Ok(Box::new(model))
}

/// Fits a model of `kind` with the hyper-parameters `params` on the rows `x` (float64, 2-d) and
/// the class indices `y` (int64, `0 … n_classes − 1`), optionally weighted.
///
/// The kinds and their settings: `"gaussian-nb"` (`var_smoothing`), `"bernoulli-nb"` and
/// `"multinomial-nb"` (`alpha`), `"lda"` (`solver`, `shrinkage`, `tol`), `"qda"` (`reg_param`, `shrinkage`),
/// `"balls1"` (`var_smoothing`), `"balls2"` (`var_smoothing`, `max_iter`, `tol`, `seed`),
/// `"logistic-regression"` (`prior_variance`, `fit_intercept`, `tol`, `max_iter`),
/// `"logistic-regression-cv"` (`prior_variances`, `n_folds`, `seed`, `fit_intercept`),
/// `"linear-svm"` (`C`, `fit_intercept`, `tol`, `max_iter`, `seed`), `"bilevel"` (`prior_means`,
/// `prior_variances` — two rows, one per class, of a value per feature — `beta`, `phi`,
/// `hard_margin`, `C1`, `C2`, `C3`, `max_iter`, `tol`), `"hybrid"` (`base`: `gaussian`,
/// `bernoulli`, `multinomial` or `categorical`;
/// `regions`, `normalized`, `leave_one_out`, `prior_variance`), `"gdt"`
/// (`family`, `lam`, `shrinkage`, `reg_param`, `variance_floor`) and `"gdt-cv"` (those of
/// `"gdt"` but `lam`, and `grid`, `n_folds`, `seed`).
#[pyfunction]
#[pyo3(signature = (kind, params, x, y, n_classes, sample_weight = None))]
fn fit(
    py: Python<'_>,
    kind: &str,
    params: &Bound<'_, PyDict>,
    x: PyReadonlyArray2<'_, f64>,
    y: PyReadonlyArray1<'_, i64>,
    n_classes: usize,
    sample_weight: Option<PyReadonlyArray1<'_, f64>>,
) -> PyResult<FittedModel> {
    let y = class_indices(y.as_array(), n_classes)?;
    let (x, y) = (x.as_array(), y.view());
    let w = sample_weight.as_ref().map(|w| w.as_array());
    let mut s = Settings::new(params);
    let model = match kind {
        "gaussian-nb" => {
            let mut p = GaussianNb::params().n_classes(n_classes);
            if let Some(v) = s.get("var_smoothing")? {
                p = p.var_smoothing(v);
            }
            s.finish(kind)?;
            fit_with(py, p, x, y, w)?
        }
        "bernoulli-nb" | "multinomial-nb" => {
            let alpha: Option<f64> = s.get("alpha")?;
            s.finish(kind)?;
            if kind == "bernoulli-nb" {
                let p = BernoulliNb::params().n_classes(n_classes);
                fit_with(py, alpha.map_or(p.clone(), |a| p.alpha(a)), x, y, w)?
            } else {
                let p = MultinomialNb::params().n_classes(n_classes);
                fit_with(py, alpha.map_or(p.clone(), |a| p.alpha(a)), x, y, w)?
            }
        }
        "categorical-nb" => {
            let alpha: Option<f64> = s.get("alpha")?;
            let minimum = match s.get::<Bound<'_, PyAny>>("min_categories")? {
                None => vec![0; x.ncols()],
                Some(value) => match value.extract::<usize>() {
                    Ok(m) => vec![m; x.ncols()],
                    Err(_) => value.extract::<Vec<usize>>().map_err(|_| {
                        PyTypeError::new_err("min_categories must be an int or one int per feature")
                    })?,
                },
            };
            s.finish(kind)?;
            if minimum.len() != x.ncols() {
                return Err(PyValueError::new_err(format!(
                    "min_categories has {} values for {} features",
                    minimum.len(),
                    x.ncols()
                )));
            }
            let n_levels = category_counts(x, &minimum);
            let p = CategoricalNb::params()
                .n_classes(n_classes)
                .n_levels(n_levels);
            fit_with(py, alpha.map_or(p.clone(), |a| p.alpha(a)), x, y, w)?
        }
        "balls1" => {
            let mut p = Balls1::params().n_classes(n_classes);
            if let Some(v) = s.get("var_smoothing")? {
                p = p.var_smoothing(v);
            }
            s.finish(kind)?;
            fit_with(py, p, x, y, w)?
        }
        "balls2" => {
            let mut p = Balls2::params().n_classes(n_classes);
            if let Some(v) = s.get("var_smoothing")? {
                p = p.var_smoothing(v);
            }
            if let Some(m) = s.get("max_iter")? {
                p = p.max_iterations(m);
            }
            if let Some(t) = s.get("tol")? {
                p = p.tolerance(t);
            }
            if let Some(seed) = s.get("seed")? {
                p = p.seed(seed);
            }
            s.finish(kind)?;
            fit_with(py, p, x, y, w)?
        }
        "lda" => {
            let solver = s
                .get::<String>("solver")?
                .unwrap_or_else(|| "svd".to_owned());
            let shrinkage = s.get::<f64>("shrinkage")?;
            let tolerance = s.get::<f64>("tol")?;
            s.finish(kind)?;
            match (solver.as_str(), shrinkage) {
                ("svd", Some(_)) => {
                    return Err(PyValueError::new_err(
                        "shrinkage regularises the covariance; the 'svd' solver does not use \
                         it (choose solver='lsqr' or 'eigen', as in scikit-learn)",
                    ))
                }
                ("svd", None) => {
                    let mut p = LdaSvd::params().n_classes(n_classes);
                    if let Some(t) = tolerance {
                        p = p.tolerance(t);
                    }
                    fit_with(py, p, x, y, w)?
                }
                ("lsqr" | "eigen", _) => {
                    let shrinkage = shrinkage.map_or(CovarianceShrinkage::None, |gamma| {
                        CovarianceShrinkage::ScaledIdentity(gamma)
                    });
                    let p = Lda::params().n_classes(n_classes).shrinkage(shrinkage);
                    fit_with(py, p, x, y, w)?
                }
                (other, _) => {
                    return Err(PyValueError::new_err(format!(
                        "solver must be 'svd', 'lsqr' or 'eigen', got {other:?}"
                    )))
                }
            }
        }
        "qda" => {
            let regularization = covariance_shrinkage(&mut s)?;
            s.finish(kind)?;
            let p = Qda::params()
                .n_classes(n_classes)
                .regularization(regularization);
            fit_with(py, p, x, y, w)?
        }
        "logistic-regression" => {
            let mut p = LogisticRegression::params().n_classes(n_classes);
            p = match s.get::<f64>("prior_variance")? {
                Some(v) => p.prior_variance(v),
                None => p.no_prior(),
            };
            if let Some(b) = s.get("fit_intercept")? {
                p = p.fit_intercept(b);
            }
            if let Some(t) = s.get("tol")? {
                p = p.tolerance(t);
            }
            if let Some(m) = s.get("max_iter")? {
                p = p.max_iterations(m);
            }
            s.finish(kind)?;
            fit_with(py, p, x, y, w)?
        }
        "linear-svm" => {
            // Every class index occurs in `y` (the estimators encode the labels they see).
            let mut p = LinearSvm::params();
            if let Some(c) = s.get("C")? {
                p = p.c(c);
            }
            if let Some(b) = s.get("fit_intercept")? {
                p = p.fit_intercept(b);
            }
            if let Some(t) = s.get("tol")? {
                p = p.tol(t);
            }
            if let Some(m) = s.get("max_iter")? {
                p = p.max_iter(m);
            }
            if let Some(seed) = s.get("seed")? {
                p = p.seed(seed);
            }
            s.finish(kind)?;
            let model = py
                .detach(|| match w {
                    Some(w) => p.fit_weighted(x, y, w),
                    None => p.fit(x, y),
                })
                .map_err(value_error)?;
            Box::new(Scored(model))
        }
        "bilevel" => {
            if n_classes != 2 {
                return Err(PyValueError::new_err(format!(
                    "the bilevel classifier separates two classes, not {n_classes}"
                )));
            }
            if w.is_some() {
                return Err(PyValueError::new_err(
                    "the bilevel classifier takes no sample weights",
                ));
            }
            let means: Vec<Vec<f64>> = s.require("prior_means")?;
            let variances: Vec<Vec<f64>> = s.require("prior_variances")?;
            let class_rows = |rows: Vec<Vec<f64>>, what: &str| -> PyResult<[Array1<f64>; 2]> {
                match <[Vec<f64>; 2]>::try_from(rows) {
                    Ok([a, b]) if a.len() == x.ncols() && b.len() == x.ncols() => {
                        Ok([Array1::from(a), Array1::from(b)])
                    }
                    _ => Err(PyValueError::new_err(format!(
                        "{what} must hold two rows (one per class) of {} values",
                        x.ncols()
                    ))),
                }
            };
            let prior = GenerativePrior::diagonal(
                class_rows(means, "prior_means")?,
                class_rows(variances, "prior_variances")?,
            )
            .map_err(value_error)?;
            let mut p = BilevelClassifier::params(prior);
            if let Some(beta) = s.get("beta")? {
                p = p.beta(beta);
            }
            if let Some(phi) = s.get("phi")? {
                p = p.phi(phi);
            }
            if let Some(m) = s.get("max_iter")? {
                p = p.max_iter(m);
            }
            if let Some(t) = s.get("tol")? {
                p = p.tol(t);
            }
            // The costs are read (and so checked) whichever margin is asked for.
            let c1 = s.get("C1")?.unwrap_or(1.0);
            let c2 = s.get("C2")?.unwrap_or(1.0);
            let c3 = s.get("C3")?.unwrap_or(f64::INFINITY);
            p = if s.get("hard_margin")?.unwrap_or(false) {
                p.hard_margin()
            } else {
                p.soft_margin(c1, c2, c3)
            };
            s.finish(kind)?;
            let model = py.detach(|| p.fit(x, y)).map_err(value_error)?;
            Box::new(Scored(model))
        }
        "hybrid" => {
            let base: String = s.get("base")?.unwrap_or_else(|| "gaussian".to_owned());
            let mut settings = HybridParams::new(())
                .normalization(if s.get("normalized")?.unwrap_or(true) {
                    Normalization::Normalized
                } else {
                    Normalization::Unnormalized
                })
                .leave_one_out(s.get("leave_one_out")?.unwrap_or(false));
            if let Some(regions) = s.get("regions")? {
                settings = settings.regions(regions);
            }
            if let Some(variance) = s.get("prior_variance")? {
                settings = settings.prior_variance(variance);
            }
            s.finish(kind)?;
            let k = n_classes;
            match base.as_str() {
                "gaussian" => fit_with(
                    py,
                    settings.with_generative(GaussianNb::params().n_classes(k)),
                    x,
                    y,
                    w,
                )?,
                "bernoulli" => fit_with(
                    py,
                    settings.with_generative(BernoulliNb::params().n_classes(k)),
                    x,
                    y,
                    w,
                )?,
                "multinomial" => fit_with(
                    py,
                    settings.with_generative(MultinomialNb::params().n_classes(k)),
                    x,
                    y,
                    w,
                )?,
                "categorical" => {
                    let levels = category_counts(x, &vec![0; x.ncols()]);
                    fit_with(
                        py,
                        settings
                            .with_generative(CategoricalNb::params().n_classes(k).n_levels(levels)),
                        x,
                        y,
                        w,
                    )?
                }
                other => {
                    return Err(PyValueError::new_err(format!(
                        "the hybrid's base is gaussian, bernoulli, multinomial or categorical, \
                         not `{other}`"
                    )));
                }
            }
        }
        "logistic-regression-cv" => {
            let mut logistic = LogisticRegression::params().n_classes(n_classes);
            if let Some(b) = s.get("fit_intercept")? {
                logistic = logistic.fit_intercept(b);
            }
            let mut p = LogisticRegressionCv::params().logistic(logistic);
            if let Some(grid) = s.get("prior_variances")? {
                p = p.prior_variances(grid);
            }
            let folds = cross_validation(&mut s)?;
            p = p
                .n_folds(folds.n_folds)
                .n_repeats(folds.n_repeats)
                .seed(folds.seed)
                .rule(folds.rule);
            s.finish(kind)?;
            fit_with(py, p, x, y, w)?
        }
        "gdt" => {
            let mut p = gdt_params(&mut s, n_classes)?;
            if let Some(lambda) = s.get("lam")? {
                p = p.lambda(lambda);
            }
            s.finish(kind)?;
            fit_with(py, p, x, y, w)?
        }
        "gdt-cv" => {
            let gdt = gdt_params(&mut s, n_classes)?;
            let mut p = GdtCv::params(gdt.clone().check().map_err(value_error)?.family()).gdt(gdt);
            if let Some(grid) = s.get("grid")? {
                p = p.grid(grid);
            }
            let folds = cross_validation(&mut s)?;
            p = p
                .n_folds(folds.n_folds)
                .n_repeats(folds.n_repeats)
                .seed(folds.seed)
                .rule(folds.rule);
            s.finish(kind)?;
            fit_with(py, p, x, y, w)?
        }
        other => {
            return Err(PyValueError::new_err(format!(
                "no estimator of kind `{other}`"
            )))
        }
    };
    Ok(FittedModel { model })
}

/// A model file as Python reads it: the model, its labels in class order, its feature names,
/// and whether its features are the file's numeric columns as they are.
type ReadFile = (FittedModel, Vec<String>, Option<Vec<String>>, bool);

/// Reads a model file (written by `gendisc fit`, `LabelledModel::save` or
/// `FittedModel.write_model_file`), checking it as the command does: the model, its labels in
/// class order, its feature names, and whether its features are the file's numeric columns as
/// they are (`false` when it encodes categories or standardises, which the Python estimators
/// do not replay).
#[pyfunction]
fn read_model_file(path: PathBuf) -> PyResult<ReadFile> {
    let text = std::fs::read_to_string(&path)
        .map_err(|e| PyValueError::new_err(format!("cannot read {}: {e}", path.display())))?;
    read_envelope(&text, &path)
}

/// [`read_model_file`] of a model file's JSON (a pickled estimator's); `origin` names it in
/// errors.
#[pyfunction]
fn read_model_file_json(json: &str, origin: &str) -> PyResult<ReadFile> {
    read_envelope(json, std::path::Path::new(origin))
}

/// Reads and checks a model file's text of any kind the package has.
fn read_envelope(text: &str, origin: &std::path::Path) -> PyResult<ReadFile> {
    fn read<M: SavedModel + 'static>(
        text: &str,
        origin: &std::path::Path,
        boxed: fn(M) -> Box<dyn Fitted>,
    ) -> PyResult<ReadFile> {
        let file = ModelFile::<M, String>::from_json(text, origin).map_err(value_error)?;
        let plain = file.preprocessing.as_ref().is_none_or(numeric_as_read);
        Ok((
            FittedModel {
                model: boxed(file.model),
            },
            file.labels.labels().to_vec(),
            file.feature_names,
            plain,
        ))
    }
    fn boxed<M: Fitted + 'static>(model: M) -> Box<dyn Fitted> {
        Box::new(model)
    }
    let kind = kind_of_json(text, origin).map_err(value_error)?;
    match kind.as_str() {
        GaussianNb::KIND => read(text, origin, boxed::<GaussianNb>),
        BernoulliNb::KIND => read(text, origin, boxed::<BernoulliNb>),
        MultinomialNb::KIND => read(text, origin, boxed::<MultinomialNb>),
        CategoricalNb::KIND => read(text, origin, boxed::<CategoricalNb>),
        Balls1::KIND => read(text, origin, boxed::<Balls1>),
        Balls2::KIND => read(text, origin, boxed::<Balls2>),
        Lda::KIND => read(text, origin, boxed::<Lda>),
        LdaSvd::KIND => read(text, origin, boxed::<LdaSvd>),
        Qda::KIND => read(text, origin, boxed::<Qda>),
        LogisticRegression::KIND => read(text, origin, boxed::<LogisticRegression>),
        LogisticRegressionCv::KIND => read(text, origin, boxed::<LogisticRegressionCv>),
        Gdt::KIND => read(text, origin, boxed::<Gdt>),
        GdtCv::KIND => read(text, origin, boxed::<GdtCv>),
        Hybrid::<GaussianNb>::KIND => read(text, origin, boxed::<Hybrid<GaussianNb>>),
        Hybrid::<BernoulliNb>::KIND => read(text, origin, boxed::<Hybrid<BernoulliNb>>),
        Hybrid::<MultinomialNb>::KIND => read(text, origin, boxed::<Hybrid<MultinomialNb>>),
        Hybrid::<CategoricalNb>::KIND => read(text, origin, boxed::<Hybrid<CategoricalNb>>),
        LinearSvm::KIND => read(text, origin, |m: LinearSvm| Box::new(Scored(m))),
        BilevelClassifier::KIND => read(text, origin, |m: BilevelClassifier| Box::new(Scored(m))),
        other => Err(PyValueError::new_err(format!(
            "{}: the Python package has no estimator of kind `{other}` yet",
            origin.display()
        ))),
    }
}

/// Whether a preprocessing makes its features from numeric columns as they are.
fn numeric_as_read(preprocessing: &Preprocessing) -> bool {
    preprocessing.standardisation.is_none()
        && preprocessing
            .columns
            .iter()
            .all(|c| matches!(c.encoding, ColumnEncoding::Numeric))
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<FittedModel>()?;
    m.add_function(wrap_pyfunction!(fit, m)?)?;
    m.add_function(wrap_pyfunction!(read_model_file, m)?)?;
    m.add_function(wrap_pyfunction!(read_model_file_json, m)?)?;
    m.add_function(wrap_pyfunction!(compare::compare, m)?)?;
    m.add_function(wrap_pyfunction!(compare::compare_models, m)?)?;
    Ok(())
}
