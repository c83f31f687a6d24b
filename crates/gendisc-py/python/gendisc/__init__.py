"""gendisc: generative, discriminative and hybrid classifiers with scikit-learn's estimator API.

The estimators fit in Rust (the gendisc crates) and behave as scikit-learn classifiers:
``fit``/``predict``/``predict_proba``, pipelines, grid search, ``clone`` and pickling.

* :class:`GaussianNB` — Gaussian naive Bayes (scikit-learn's ``GaussianNB``);
* :class:`LinearDiscriminantAnalysis`, :class:`QuadraticDiscriminantAnalysis` — Gaussian
  classes with a shared or a per-class covariance;
* :class:`LogisticRegression` — by maximum likelihood (R's ``glm``) or with a Gaussian prior;
* :class:`GDT` — Bouchard and Triggs' generative-discriminative trade-off.
"""

from ._base import GendiscClassifier
from .estimators import (
    GDT,
    GaussianNB,
    LinearDiscriminantAnalysis,
    LogisticRegression,
    QuadraticDiscriminantAnalysis,
)

__all__ = [
    "GDT",
    "GaussianNB",
    "GendiscClassifier",
    "LinearDiscriminantAnalysis",
    "LogisticRegression",
    "QuadraticDiscriminantAnalysis",
]
