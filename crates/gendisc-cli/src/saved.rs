//! Reading a model file of any kind into one interface.

use std::path::Path;

use anyhow::{bail, Result};
use gendisc_bilevel::BilevelClassifier;
use gendisc_core::model_file::read_kind;
use gendisc_core::{ConditionalModel, LabelledModel, Preprocessing, SavedModel};
use gendisc_discriminative::{LinearSvm, LogisticRegression, LogisticRegressionCv};
use gendisc_gdt::{Gdt, GdtCv};
use gendisc_generative::{
    Balls1, Balls2, BernoulliNb, CategoricalNb, GaussianNb, Lda, LdaSvd, MultinomialNb, Qda,
};
use gendisc_hybrid::Hybrid;
use ndarray::{Array2, ArrayView2};

/// A loaded model, whatever its kind.
pub trait Model {
    /// The class labels, in the order of the probability columns.
    fn labels(&self) -> &[String];
    /// How the model's features are made from a table, when the file records it.
    fn preprocessing(&self) -> Option<&Preprocessing>;
    /// The number of features the model reads.
    fn n_features(&self) -> usize;
    /// The predicted label of each row.
    fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Vec<String>>;
    /// Class probabilities, one column per label; `None` for a model without them.
    fn predict_proba(&self, x: ArrayView2<'_, f64>) -> Option<Result<Array2<f64>>>;
    /// Log class probabilities, as `predict_proba`'s columns; `None` for a model without them.
    fn predict_log_proba(&self, x: ArrayView2<'_, f64>) -> Option<Result<Array2<f64>>>;
}

/// A model with class probabilities.
struct Probabilistic<M>(LabelledModel<M>);

/// A model that only predicts classes.
struct Deterministic<M>(LabelledModel<M>);

macro_rules! common_methods {
    () => {
        fn labels(&self) -> &[String] {
            self.0.labels()
        }
        fn preprocessing(&self) -> Option<&Preprocessing> {
            self.0.preprocessing()
        }
        fn n_features(&self) -> usize {
            self.0.model().n_features()
        }
        fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Vec<String>> {
            Ok(self.0.predict(x)?)
        }
    };
}

impl<M: SavedModel + ConditionalModel> Model for Probabilistic<M> {
    common_methods!();

    fn predict_proba(&self, x: ArrayView2<'_, f64>) -> Option<Result<Array2<f64>>> {
        Some(self.0.predict_proba(x).map_err(Into::into))
    }

    fn predict_log_proba(&self, x: ArrayView2<'_, f64>) -> Option<Result<Array2<f64>>> {
        Some(self.0.predict_log_proba(x).map_err(Into::into))
    }
}

impl<M: SavedModel> Model for Deterministic<M> {
    common_methods!();

    fn predict_proba(&self, _x: ArrayView2<'_, f64>) -> Option<Result<Array2<f64>>> {
        None
    }

    fn predict_log_proba(&self, _x: ArrayView2<'_, f64>) -> Option<Result<Array2<f64>>> {
        None
    }
}

/// Loads a model with class probabilities of type `M`.
fn probabilistic<M: SavedModel + ConditionalModel + 'static>(
    path: &Path,
) -> Result<Box<dyn Model>> {
    Ok(Box::new(Probabilistic(LabelledModel::<M>::load(path)?)))
}

/// Loads a model of type `M` that only predicts classes.
fn deterministic<M: SavedModel + 'static>(path: &Path) -> Result<Box<dyn Model>> {
    Ok(Box::new(Deterministic(LabelledModel::<M>::load(path)?)))
}

/// The model kinds this command reads.
pub const KINDS: [&str; 19] = [
    "gaussian-naive-bayes",
    "bernoulli-naive-bayes",
    "categorical-naive-bayes",
    "multinomial-naive-bayes",
    "lda",
    "lda-svd",
    "qda",
    "balls1",
    "balls2",
    "logistic-regression",
    "logistic-regression-cv",
    "linear-svm",
    "hybrid-gaussian-naive-bayes",
    "hybrid-bernoulli-naive-bayes",
    "hybrid-categorical-naive-bayes",
    "hybrid-multinomial-naive-bayes",
    "gdt",
    "gdt-cv",
    "bilevel",
];

/// Reads the model file at `path`, of any kind this command knows; a file of another kind, of
/// an unknown format version, or corrupt, is an error naming it.
pub fn load(path: &Path) -> Result<Box<dyn Model>> {
    let kind = read_kind(path)?;
    match kind.as_str() {
        "gaussian-naive-bayes" => probabilistic::<GaussianNb>(path),
        "bernoulli-naive-bayes" => probabilistic::<BernoulliNb>(path),
        "categorical-naive-bayes" => probabilistic::<CategoricalNb>(path),
        "multinomial-naive-bayes" => probabilistic::<MultinomialNb>(path),
        "lda" => probabilistic::<Lda>(path),
        "lda-svd" => probabilistic::<LdaSvd>(path),
        "qda" => probabilistic::<Qda>(path),
        "balls1" => probabilistic::<Balls1>(path),
        "balls2" => probabilistic::<Balls2>(path),
        "logistic-regression" => probabilistic::<LogisticRegression>(path),
        "logistic-regression-cv" => probabilistic::<LogisticRegressionCv>(path),
        "linear-svm" => deterministic::<LinearSvm>(path),
        "bilevel" => deterministic::<BilevelClassifier>(path),
        "hybrid-gaussian-naive-bayes" => probabilistic::<Hybrid<GaussianNb>>(path),
        "hybrid-bernoulli-naive-bayes" => probabilistic::<Hybrid<BernoulliNb>>(path),
        "hybrid-categorical-naive-bayes" => probabilistic::<Hybrid<CategoricalNb>>(path),
        "hybrid-multinomial-naive-bayes" => probabilistic::<Hybrid<MultinomialNb>>(path),
        "gdt" => probabilistic::<Gdt>(path),
        "gdt-cv" => probabilistic::<GdtCv>(path),
        other => bail!(
            "{}: a model of kind {other:?}, which this command does not read (it reads {})",
            path.display(),
            KINDS.join(", ")
        ),
    }
}
