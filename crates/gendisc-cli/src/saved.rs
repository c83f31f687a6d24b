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

/// Loads the model file at a path as a model of one kind.
type Loader = fn(&Path) -> Result<Box<dyn Model>>;

/// Every model kind this command reads, by the model's own [`SavedModel::KIND`], with its
/// loader.
const LOADERS: [(&str, Loader); 19] = [
    (GaussianNb::KIND, probabilistic::<GaussianNb>),
    (BernoulliNb::KIND, probabilistic::<BernoulliNb>),
    (CategoricalNb::KIND, probabilistic::<CategoricalNb>),
    (MultinomialNb::KIND, probabilistic::<MultinomialNb>),
    (Lda::KIND, probabilistic::<Lda>),
    (LdaSvd::KIND, probabilistic::<LdaSvd>),
    (Qda::KIND, probabilistic::<Qda>),
    (Balls1::KIND, probabilistic::<Balls1>),
    (Balls2::KIND, probabilistic::<Balls2>),
    (
        LogisticRegression::KIND,
        probabilistic::<LogisticRegression>,
    ),
    (
        LogisticRegressionCv::KIND,
        probabilistic::<LogisticRegressionCv>,
    ),
    (LinearSvm::KIND, deterministic::<LinearSvm>),
    (
        Hybrid::<GaussianNb>::KIND,
        probabilistic::<Hybrid<GaussianNb>>,
    ),
    (
        Hybrid::<BernoulliNb>::KIND,
        probabilistic::<Hybrid<BernoulliNb>>,
    ),
    (
        Hybrid::<CategoricalNb>::KIND,
        probabilistic::<Hybrid<CategoricalNb>>,
    ),
    (
        Hybrid::<MultinomialNb>::KIND,
        probabilistic::<Hybrid<MultinomialNb>>,
    ),
    (Gdt::KIND, probabilistic::<Gdt>),
    (GdtCv::KIND, probabilistic::<GdtCv>),
    (BilevelClassifier::KIND, deterministic::<BilevelClassifier>),
];

/// Reads the model file at `path`, of any kind this command knows; a file of another kind, of
/// an unknown format version, or corrupt, is an error naming it.
pub fn load(path: &Path) -> Result<Box<dyn Model>> {
    let kind = read_kind(path)?;
    match LOADERS.iter().find(|(known, _)| *known == kind) {
        Some((_, load)) => load(path),
        None => {
            let kinds: Vec<&str> = LOADERS.iter().map(|(known, _)| *known).collect();
            bail!(
                "{}: a model of kind {kind:?}, which this command does not read (it reads {})",
                path.display(),
                kinds.join(", ")
            )
        }
    }
}
