"""gendisc: generative, discriminative and hybrid classifiers with scikit-learn's estimator API.

The estimators fit in Rust (the gendisc crates) and behave as scikit-learn classifiers:
``fit``/``predict``/``predict_proba``, pipelines, grid search, ``clone`` and pickling.

* :class:`GaussianNB`, :class:`BernoulliNB`, :class:`MultinomialNB`, :class:`CategoricalNB` —
  naive Bayes;
* :class:`Balls1`, :class:`Balls2` — one spherical Gaussian, or a mixture of two, per class;
* :class:`LinearDiscriminantAnalysis`, :class:`QuadraticDiscriminantAnalysis` — Gaussian
  classes with a shared or a per-class covariance;
* :class:`LogisticRegression` — by maximum likelihood (R's ``glm``) or with a Gaussian prior;
  :class:`LogisticRegressionCV` chooses the prior by cross-validation;
* :class:`Hybrid` — Raina et al.'s hybrid of naive Bayes regions with discriminative weights;
* :class:`LinearSVM` — the linear soft-margin SVM (decision scores, no probabilities);
* :class:`BilevelClassifier` — Epshteyn and DeJong's maximum-margin hyperplane under a
  generative prior on the class means (two classes, decision scores);
* :class:`GDT` — Bouchard and Triggs' generative-discriminative trade-off; :class:`GDTCV`
  chooses its ``λ`` by cross-validation.

:func:`compare` asks Ng and Jordan's question of a table — generative or discriminative, and
from which training-set size on? — with the engine of the ``gendisc compare`` command.
"""

import numpy as np

from . import _native
from ._base import GendiscClassifier, GendiscProbabilisticClassifier
from ._compare import MODELS, Comparison, compare
from .estimators import (
    GDT,
    BilevelClassifier,
    GDTCV,
    Balls1,
    Balls2,
    BernoulliNB,
    GaussianNB,
    Hybrid,
    LinearDiscriminantAnalysis,
    LinearSVM,
    LogisticRegression,
    LogisticRegressionCV,
    MultinomialNB,
    CategoricalNB,
    QuadraticDiscriminantAnalysis,
)

__all__ = [
    "compare",
    "Comparison",
    "MODELS",
    "load",
    "GDT",
    "GDTCV",
    "Balls1",
    "Balls2",
    "BernoulliNB",
    "BilevelClassifier",
    "GaussianNB",
    "GendiscClassifier",
    "GendiscProbabilisticClassifier",
    "Hybrid",
    "LinearDiscriminantAnalysis",
    "LinearSVM",
    "LogisticRegression",
    "LogisticRegressionCV",
    "MultinomialNB",
    "CategoricalNB",
    "QuadraticDiscriminantAnalysis",
]


_BY_KIND = {
    "gaussian-naive-bayes": GaussianNB,
    "bernoulli-naive-bayes": BernoulliNB,
    "multinomial-naive-bayes": MultinomialNB,
    "categorical-naive-bayes": CategoricalNB,
    "balls1": Balls1,
    "balls2": Balls2,
    # The covariance solver's model; "lsqr" so that a clone refits the same model.
    "lda": lambda: LinearDiscriminantAnalysis(solver="lsqr"),
    "lda-svd": LinearDiscriminantAnalysis,
    "qda": QuadraticDiscriminantAnalysis,
    "logistic-regression": LogisticRegression,
    "logistic-regression-cv": LogisticRegressionCV,
    "gdt": GDT,
    "gdt-cv": GDTCV,
    "linear-svm": LinearSVM,
    # The prior is not in the file: a loaded model predicts, and refitting needs a prior.
    "bilevel": BilevelClassifier,
    # The base the file's model was fitted with, so that a clone refits the same model.
    "hybrid-gaussian-naive-bayes": Hybrid,
    "hybrid-bernoulli-naive-bayes": lambda: Hybrid(base="bernoulli"),
    "hybrid-multinomial-naive-bayes": lambda: Hybrid(base="multinomial"),
    "hybrid-categorical-naive-bayes": lambda: Hybrid(base="categorical"),
}


def load(path):
    """Reads a gendisc model file (from ``gendisc fit``, Rust's ``LabelledModel::save`` or
    :meth:`GendiscClassifier.save`) as a fitted estimator of its kind.

    The file is checked as the command checks it. ``classes_`` are the file's labels (text);
    ``feature_names_in_`` its feature names, when it has them. The estimator's hyper-parameters
    are its defaults (the file keeps the fitted model, not how it was asked for; an ``lda`` file,
    from the covariance solver, reads as ``solver="lsqr"``), so ``clone`` and refitting start
    from those. A model whose features are not the file's numeric columns as
    they are (categories encoded, or standardised, by ``gendisc fit``) is refused: the estimators
    take numeric arrays.
    """
    model, labels, feature_names, numeric = _native.read_model_file(str(path))
    if not numeric:
        raise ValueError(
            f"{path}: the model encodes categorical columns or standardises its features, "
            "which gendisc's Python estimators do not replay; predict with `gendisc predict`"
        )
    estimator = _BY_KIND[model.kind]()
    estimator._model = model
    estimator.classes_ = np.asarray(labels)
    estimator.n_features_in_ = model.n_features
    if feature_names is not None:
        estimator.feature_names_in_ = np.asarray(feature_names, dtype=object)
    estimator._set_summary()
    return estimator
