"""The scikit-learn estimator shared by every gendisc classifier."""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from . import _native


class GendiscClassifier(ClassifierMixin, BaseEstimator):
    """A gendisc model behind scikit-learn's classifier API.

    Subclasses name the model's kind (``_kind``) and list the hyper-parameters their
    ``__init__`` stores, which are passed to the Rust fit as they are. ``fit`` validates the
    data, encodes the labels as ``classes_`` (any labels scikit-learn accepts), fits with the
    interpreter's lock released, and raises a :class:`~sklearn.exceptions.ConvergenceWarning`
    for each warning of the fit (non-convergence, separated data, a class without spread); with
    ``require_convergence=True`` such a fit is a ``RuntimeError`` instead.
    """

    _kind: str = ""
    _parameters: tuple[str, ...] = ()

    def _native_parameters(self) -> dict:
        return {name: getattr(self, name) for name in self._parameters}

    def _features(self, X):
        """The features the model reads from validated rows (the rows themselves by default)."""
        return X

    def fit(self, X, y, sample_weight=None):
        """Fits the model on ``X`` (``n × d``) and labels ``y``, optionally weighted."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(
                f"{type(self).__name__} needs at least 2 classes, but y has only one class: "
                f"{self.classes_[0]!r}"
            )
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64)
        self._model = _native.fit(
            self._kind,
            self._native_parameters(),
            self._features(X),
            y_index.astype(np.int64),
            len(self.classes_),
            sample_weight,
        )
        self._set_summary()
        problems = self._model.warnings()
        if problems and getattr(self, "require_convergence", False):
            raise RuntimeError("; ".join(problems))
        for problem in problems:
            warnings.warn(f"{type(self).__name__}: {problem}", ConvergenceWarning, stacklevel=2)
        return self

    def _set_summary(self):
        summary = self._model.fit_summary()
        if summary is not None:
            self.converged_, self.n_iter_, self.status_ = summary

    def _validated(self, X):
        check_is_fitted(self)
        return self._features(validate_data(self, X, reset=False, dtype=np.float64))

    def predict(self, X):
        """The predicted class of each row."""
        X = self._validated(X)  # before touching the model: unfitted is a NotFittedError
        return self.classes_[self._model.predict(X)]

    def save(self, path):
        """Writes the fitted model as a gendisc model file, which ``gendisc predict``,
        ``gendisc evaluate``, Rust's ``LabelledModel::load`` and :func:`gendisc.load` read.

        The file names the classes by their text, kept sorted: labels whose text does not sort
        as ``classes_`` do (integers 2 and 10, say) are refused with a ``ValueError``.
        """
        check_is_fitted(self)
        names = getattr(self, "feature_names_in_", None)
        self._model.write_model_file(
            str(path),
            [str(label) for label in self.classes_],
            None if names is None else [str(name) for name in names],
        )

    # Pickling and copying go through the versioned model file, checked again when it is read.
    # Its labels are the class indices, zero-padded so that they sort as the classes do;
    # classes_ itself is pickled as it is.
    def __getstate__(self):
        # A copy: object.__getstate__ hands back the instance's own __dict__.
        state = dict(super().__getstate__())
        model = state.pop("_model", None)
        if model is not None:
            width = len(str(len(self.classes_) - 1))
            labels = [f"{k:0{width}d}" for k in range(len(self.classes_))]
            state["_model_file"] = model.model_file_json(labels)
        return state

    def __setstate__(self, state):
        state = dict(state)
        model_file = state.pop("_model_file", None)
        super().__setstate__(state)
        if model_file is not None:
            self._model = _native.read_model_file_json(model_file, "<pickled estimator>")[0]


class GendiscScoringClassifier(GendiscClassifier):
    """A gendisc classifier with decision scores rather than probabilities (the linear SVM and
    the bilevel classifier)."""

    def decision_function(self, X):
        """``w · x + b``: for two classes one score per row, positive for ``classes_[1]``;
        otherwise one column per class (one-vs-rest)."""
        X = self._validated(X)
        scores = self._model.decision_scores(X)
        return scores[:, 0] if scores.shape[1] == 1 else scores


class GendiscProbabilisticClassifier(GendiscClassifier):
    """A gendisc classifier with class probabilities (every one but the linear SVM)."""

    def predict_log_proba(self, X):
        """``log p(class | x)``, one column per class of ``classes_``."""
        X = self._validated(X)
        return self._model.predict_log_proba(X)

    def predict_proba(self, X):
        """``p(class | x)``, one column per class of ``classes_``."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X):
        """The most probable class of each row."""
        log_proba = self.predict_log_proba(X)
        return self.classes_[np.argmax(log_proba, axis=1)]
