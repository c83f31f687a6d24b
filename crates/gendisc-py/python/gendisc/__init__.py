"""gendisc: generative, discriminative and hybrid classifiers with scikit-learn's estimator API.

The estimators fit in Rust (the gendisc crates) and behave as scikit-learn classifiers:
``fit``/``predict``/``predict_proba``, pipelines, grid search, ``clone`` and pickling.

* :class:`GaussianNB`, :class:`BernoulliNB`, :class:`MultinomialNB` — naive Bayes;
* :class:`Balls1`, :class:`Balls2` — one spherical Gaussian, or a mixture of two, per class;
* :class:`LinearDiscriminantAnalysis`, :class:`QuadraticDiscriminantAnalysis` — Gaussian
  classes with a shared or a per-class covariance;
* :class:`LogisticRegression` — by maximum likelihood (R's ``glm``) or with a Gaussian prior;
  :class:`LogisticRegressionCV` chooses the prior by cross-validation;
* :class:`GDT` — Bouchard and Triggs' generative-discriminative trade-off; :class:`GDTCV`
  chooses its ``λ`` by cross-validation.
"""

from ._base import GendiscClassifier
from .estimators import (
    GDT,
    GDTCV,
    Balls1,
    Balls2,
    BernoulliNB,
    GaussianNB,
    LinearDiscriminantAnalysis,
    LogisticRegression,
    LogisticRegressionCV,
    MultinomialNB,
    QuadraticDiscriminantAnalysis,
)

__all__ = [
    "GDT",
    "GDTCV",
    "Balls1",
    "Balls2",
    "BernoulliNB",
    "GaussianNB",
    "GendiscClassifier",
    "LinearDiscriminantAnalysis",
    "LogisticRegression",
    "LogisticRegressionCV",
    "MultinomialNB",
    "QuadraticDiscriminantAnalysis",
]
