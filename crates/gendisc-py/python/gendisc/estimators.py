"""The gendisc classifiers, one class per estimator; each ``__init__`` only stores its parameters."""

from __future__ import annotations

import json

import numpy as np
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_non_negative

from ._base import GendiscProbabilisticClassifier, GendiscScoringClassifier


class GaussianNB(GendiscProbabilisticClassifier):
    """Gaussian naive Bayes: a normal density per feature and class, empirical class priors.

    Parameters
    ----------
    var_smoothing : float, default=1e-9
        Added to every variance, relative to the largest feature variance (as scikit-learn's
        ``GaussianNB``, whose probabilities it matches).
    """

    _kind = "gaussian-nb"
    _parameters = ("var_smoothing",)

    def __init__(self, var_smoothing=1e-9):
        self.var_smoothing = var_smoothing


class BernoulliNB(GendiscProbabilisticClassifier):
    """Bernoulli naive Bayes: independent 0/1 features within each class.

    Parameters
    ----------
    alpha : float, default=1.0
        The pseudo-count of each value (1: Laplace smoothing).
    binarize : float, default=0.0
        A feature is 1 where it exceeds this threshold, else 0 (as scikit-learn's
        ``BernoulliNB``).
    """

    _kind = "bernoulli-nb"
    _parameters = ("alpha",)

    def __init__(self, alpha=1.0, binarize=0.0):
        self.alpha = alpha
        self.binarize = binarize

    def _features(self, X):
        return (X > self.binarize).astype(np.float64)

    def __sklearn_tags__(self):
        # As scikit-learn's BernoulliNB: thresholded features classify its check data poorly.
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True
        return tags


class MultinomialNB(GendiscProbabilisticClassifier):
    """Multinomial naive Bayes on counts (non-negative, possibly fractional).

    Parameters
    ----------
    alpha : float, default=1.0
        The pseudo-count of each word (1: add-one smoothing).
    """

    _kind = "multinomial-nb"
    _parameters = ("alpha",)

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def _features(self, X):
        check_non_negative(X, "MultinomialNB (input X)")
        return X

    def __sklearn_tags__(self):
        # As scikit-learn's MultinomialNB: counts are non-negative, and blobs are no counts.
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        tags.classifier_tags.poor_score = True
        return tags


class CategoricalNB(GendiscProbabilisticClassifier):
    """Categorical naive Bayes: each feature a category code ``0, 1, …``, independent within
    each class (scikit-learn's ``CategoricalNB``).

    As scikit-learn does, the codes are read as integers (a fractional value is truncated) and
    must be non-negative; a code beyond those the model knows is an error at predict.

    Parameters
    ----------
    alpha : float, default=1.0
        The pseudo-count of each category (1: Laplace smoothing).
    min_categories : int, list of int or None, default=None
        The least number of categories of each feature (one value for all, or one per feature);
        a feature has at least one more than its largest code in training.
    """

    _kind = "categorical-nb"
    _parameters = ("alpha", "min_categories")

    def __init__(self, alpha=1.0, min_categories=None):
        self.alpha = alpha
        self.min_categories = min_categories

    def _native_parameters(self) -> dict:
        parameters = super()._native_parameters()
        minimum = parameters["min_categories"]
        if minimum is not None and not np.isscalar(minimum):
            parameters["min_categories"] = [int(m) for m in minimum]
        elif minimum is not None:
            parameters["min_categories"] = int(minimum)
        return parameters

    def _features(self, X):
        check_non_negative(X, "CategoricalNB (input X)")
        return np.floor(X)

    def __sklearn_tags__(self):
        # As scikit-learn's CategoricalNB: codes are non-negative.
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        tags.classifier_tags.poor_score = True
        return tags


class Balls1(GendiscProbabilisticClassifier):
    """A spherical Gaussian per class (Bouchard and Triggs' "Balls1").

    Parameters
    ----------
    var_smoothing : float, default=1e-9
        Added to every variance, relative to the largest feature variance.
    """

    _kind = "balls1"
    _parameters = ("var_smoothing",)

    def __init__(self, var_smoothing=1e-9):
        self.var_smoothing = var_smoothing


class Balls2(GendiscProbabilisticClassifier):
    """A mixture of two spherical Gaussians per class, fitted by EM ("Balls2").

    Parameters
    ----------
    var_smoothing : float, default=1e-9
        The floor of every component variance, relative to the largest feature variance.
    max_iter : int or None, default=None
        EM's iteration cap per class (gendisc's default when ``None``).
    tol : float or None, default=None
        EM's relative convergence tolerance (gendisc's default when ``None``).
    seed : int or None, default=None
        ``None`` starts EM from the order-free principal split; a seed starts it by k-means++.
    """

    _kind = "balls2"
    _parameters = ("var_smoothing", "max_iter", "tol", "seed")

    def __init__(self, var_smoothing=1e-9, max_iter=None, tol=None, seed=None):
        self.var_smoothing = var_smoothing
        self.max_iter = max_iter
        self.tol = tol
        self.seed = seed


class LinearDiscriminantAnalysis(GendiscProbabilisticClassifier):
    """Gaussian classes with one shared covariance.

    Parameters
    ----------
    solver : {"svd", "lsqr", "eigen"}, default="svd"
        ``"svd"`` (scikit-learn's default) computes the discriminant by singular-value
        decompositions of the scaled within-class data and the class means: it fits collinear
        and constant columns, and its probabilities are scikit-learn's. ``"lsqr"`` and
        ``"eigen"`` (the same model here) invert the pooled maximum-likelihood covariance, the
        generative model with a density; they need a full-rank covariance or ``shrinkage``.
    shrinkage : float or None, default=None
        Shrinks the covariance toward the scaled identity, ``(1 − γ) S + γ (tr S / d) I``
        (scikit-learn's ``shrinkage``; not with ``"svd"``).
    tol : float, default=1e-4
        The ``"svd"`` solver's rank tolerance (scikit-learn's ``tol``).
    """

    _kind = "lda"
    _parameters = ("solver", "shrinkage", "tol")

    def __init__(self, solver="svd", shrinkage=None, tol=1e-4):
        self.solver = solver
        self.shrinkage = shrinkage
        self.tol = tol


class QuadraticDiscriminantAnalysis(GendiscProbabilisticClassifier):
    """Gaussian classes with a covariance each (maximum likelihood).

    Parameters
    ----------
    reg_param : float, default=0.0
        Regularises each class covariance toward the identity, ``(1 − r) S + r I``
        (scikit-learn's ``reg_param``).
    """

    _kind = "qda"
    _parameters = ("reg_param",)

    def __init__(self, reg_param=0.0):
        self.reg_param = reg_param


class LogisticRegression(GendiscProbabilisticClassifier):
    """Multinomial logistic regression by Newton's method.

    Parameters
    ----------
    prior_variance : float or None, default=1.0
        The variance ``σ²`` of a Gaussian prior on the weights (penalty ``‖w‖² / (2σ²)``, the
        intercept unpenalised): scikit-learn's ``C``, whose default 1.0 this is. ``None`` fits
        by maximum likelihood, as R's ``glm`` and scikit-learn's ``penalty=None``; on separated
        data no finite estimate exists, and the fit warns.
    fit_intercept : bool, default=True
    tol : float or None, default=None
        The convergence tolerance (gendisc's default when ``None``).
    max_iter : int or None, default=None
        The iteration cap (gendisc's default when ``None``).
    require_convergence : bool, default=False
        Make a fit that does not converge (or has no finite estimate) an error instead of a
        ``ConvergenceWarning``.
    """

    _kind = "logistic-regression"
    _parameters = ("prior_variance", "fit_intercept", "tol", "max_iter")

    def __init__(
        self,
        prior_variance=1.0,
        fit_intercept=True,
        tol=None,
        max_iter=None,
        require_convergence=False,
    ):
        self.prior_variance = prior_variance
        self.fit_intercept = fit_intercept
        self.tol = tol
        self.max_iter = max_iter
        self.require_convergence = require_convergence


class LogisticRegressionCV(GendiscProbabilisticClassifier):
    """Logistic regression with the prior variance chosen by stratified cross-validation.

    Parameters
    ----------
    prior_variances : list of float or None, default=None
        The candidate prior variances ``σ²`` (scikit-learn's ``Cs``); gendisc's grid when
        ``None``.
    n_folds : int, default=5
    n_repeats : int, default=1
        Repetitions of the stratified k-fold split, each drawn anew; the scores average over all
        their folds.
    seed : int, default=0
        The seed of the fold split.
    rule : {"min", "one-se"}, default="min"
        ``"min"`` takes the smallest mean score; ``"one-se"`` the smallest ``σ²`` (strongest
        prior) within one standard error of it.
    fit_intercept : bool, default=True

    Attributes
    ----------
    prior_variance_ : float
        The chosen prior variance.
    cv_scores_ : dict
        The cross-validated score (mean held-out log loss) of each candidate.
    cv_standard_errors_ : dict
        The standard error of each score.
    """

    _kind = "logistic-regression-cv"
    _parameters = ("prior_variances", "n_folds", "n_repeats", "seed", "rule", "fit_intercept")

    def __init__(
        self, prior_variances=None, n_folds=5, n_repeats=1, seed=0, rule="min", fit_intercept=True
    ):
        self.prior_variances = prior_variances
        self.n_folds = n_folds
        self.n_repeats = n_repeats
        self.seed = seed
        self.rule = rule
        self.fit_intercept = fit_intercept

    def _set_summary(self):
        super()._set_summary()
        selection = json.loads(self._model.to_json())["selection"]
        self.prior_variance_ = selection["prior_variance"]
        self.cv_scores_ = dict(zip(selection["prior_variances"], selection["scores"]))
        self.cv_standard_errors_ = dict(
            zip(selection["prior_variances"], selection.get("standard_errors", []))
        )

    def _native_parameters(self) -> dict:
        parameters = super()._native_parameters()
        if parameters["prior_variances"] is not None:
            parameters["prior_variances"] = [float(v) for v in parameters["prior_variances"]]
        return parameters


class LinearSVM(GendiscScoringClassifier):
    """The linear soft-margin SVM (hinge loss, L2 penalty), by dual coordinate descent;
    one-vs-rest for more than two classes. Decision scores, no probabilities.

    Parameters
    ----------
    C : float, default=1.0
        The penalty of a margin violation (scikit-learn's ``LinearSVC(loss="hinge")``).
    fit_intercept : bool, default=True
    tol : float or None, default=None
        The stopping tolerance of the dual (gendisc's default when ``None``).
    max_iter : int or None, default=None
        The cap on passes over the rows (gendisc's default when ``None``).
    seed : int or None, default=None
        The seed of the coordinate order.
    require_convergence : bool, default=False
        Make a fit that stops at its cap an error instead of a ``ConvergenceWarning``.
        Standardise the inputs (``StandardScaler``) when their scales differ: the method slows
        down badly otherwise.
    """

    _kind = "linear-svm"
    _parameters = ("C", "fit_intercept", "tol", "max_iter", "seed")

    def __init__(
        self, C=1.0, fit_intercept=True, tol=None, max_iter=None, seed=None, require_convergence=False
    ):
        self.C = C
        self.fit_intercept = fit_intercept
        self.tol = tol
        self.max_iter = max_iter
        self.seed = seed
        self.require_convergence = require_convergence


class BilevelClassifier(GendiscScoringClassifier):
    """Epshteyn and DeJong's classifier (2005): a maximum-margin hyperplane that also agrees with
    a generative prior on the class means, fitted by alternating second-order cone programs.
    Two classes; decision scores, no probabilities.

    The prior is the paper's §5 form: for class ``k`` (``classes_[k]``, in sorted order), the
    class mean has a Gaussian hyper-prior with mean ``t_k`` and diagonal covariance ``Ω_k``
    (``Σ_k = I``). Give it as arrays, ``prior_means`` (``t``) and ``prior_variances`` (the
    diagonals of ``Ω``), each of shape ``(2, n_features)`` — or ``(2,)`` for one value per
    class, or a scalar, repeated over the features — or as a DataFrame ``prior`` with the
    columns ``feature``, ``class``, ``mean``, ``variance`` and a row per feature and class (the
    file ``gendisc fit bilevel --prior`` reads; features by the names of ``X``'s columns, or by
    position ``0, 1, …`` for an array).

    Parameters
    ----------
    prior_means, prior_variances : array-like or float, optional
        The prior as arrays (both, or ``prior`` instead).
    prior : pandas.DataFrame, optional
        The prior as a table.
    beta : float, default=0.2
        β of the prior constraints (4.13)–(4.14).
    phi : float, default=0.01
        φ of the hyper-prior constraint (4.16).
    hard_margin : bool, default=False
        The hard-margin program (4.10)–(4.14); fails on data no hyperplane separates.
    C1, C2, C3 : float, default=1.0, 1.0, inf
        The soft margin's costs of margin, prior and hyper-prior violations (4.17)–(4.24).
    max_iter : int or None, default=None
        The cap on alternations (gendisc's default, 50, when ``None``).
    tol : float or None, default=None
        The alternation's tolerance on the change of its parameters (1e-6 when ``None``).
    require_convergence : bool, default=False
        Make a fit that stops at its cap an error instead of a ``ConvergenceWarning``.
    """

    _kind = "bilevel"
    _parameters = ("beta", "phi", "hard_margin", "C1", "C2", "C3", "max_iter", "tol")

    def __init__(
        self,
        prior_means=None,
        prior_variances=None,
        prior=None,
        beta=0.2,
        phi=0.01,
        hard_margin=False,
        C1=1.0,
        C2=1.0,
        C3=np.inf,
        max_iter=None,
        tol=None,
        require_convergence=False,
    ):
        self.prior_means = prior_means
        self.prior_variances = prior_variances
        self.prior = prior
        self.beta = beta
        self.phi = phi
        self.hard_margin = hard_margin
        self.C1 = C1
        self.C2 = C2
        self.C3 = C3
        self.max_iter = max_iter
        self.tol = tol
        self.require_convergence = require_convergence

    def fit(self, X, y):
        """Fits the hyperplane on ``X`` (``n × d``) and two classes ``y`` (no sample weights:
        the programs have none)."""
        target = type_of_target(y, input_name="y", raise_unknown=True)
        if target != "binary":
            raise ValueError(
                f"Only binary classification is supported. The type of the target is {target}."
            )
        return super().fit(X, y)

    def _native_parameters(self) -> dict:
        parameters = super()._native_parameters()
        means, variances = self._prior_arrays()
        parameters["prior_means"] = means.tolist()
        parameters["prior_variances"] = variances.tolist()
        return parameters

    def _prior_arrays(self):
        d = self.n_features_in_
        if self.prior is not None:
            if self.prior_means is not None or self.prior_variances is not None:
                raise ValueError("give the prior as a table or as arrays, not both")
            return self._prior_from_table(d)
        if self.prior_means is None or self.prior_variances is None:
            raise ValueError(
                "BilevelClassifier needs a prior: prior_means and prior_variances, or prior"
            )

        def per_class(values, name):
            values = np.asarray(values, dtype=np.float64)
            if values.ndim == 0:
                values = np.full(2, float(values))
            if values.ndim == 1 and values.shape == (2,):
                values = np.repeat(values[:, None], d, axis=1)
            if values.shape != (2, d):
                raise ValueError(
                    f"{name} has shape {values.shape}: expected (2, {d}), (2,) or a scalar"
                )
            return values

        return (
            per_class(self.prior_means, "prior_means"),
            per_class(self.prior_variances, "prior_variances"),
        )

    def _prior_from_table(self, d):
        table = self.prior
        missing = {"feature", "class", "mean", "variance"} - set(table.columns)
        if missing:
            raise ValueError(f"the prior table lacks the column(s) {sorted(missing)}")
        names = getattr(self, "feature_names_in_", None)
        features = [str(f) for f in (names if names is not None else range(d))]
        classes = [str(c) for c in self.classes_]
        means = np.full((2, d), np.nan)
        variances = np.full((2, d), np.nan)
        for row in table.to_dict("records"):
            feature, label = str(row["feature"]), str(row["class"])
            if feature not in features:
                raise ValueError(f"the prior's feature {feature!r} is not one of {features}")
            if label not in classes:
                raise ValueError(f"the prior's class {label!r} is not one of {classes}")
            k, j = classes.index(label), features.index(feature)
            if not np.isnan(means[k, j]):
                raise ValueError(f"the prior has two rows for feature {feature!r}, class {label!r}")
            means[k, j], variances[k, j] = float(row["mean"]), float(row["variance"])
        if np.isnan(means).any():
            k, j = np.argwhere(np.isnan(means))[0]
            raise ValueError(f"the prior has no row for feature {features[j]!r}, class {classes[k]!r}")
        return means, variances

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


class Hybrid(GendiscProbabilisticClassifier):
    """Raina, Shen, Ng and McCallum's hybrid (2003): a naive Bayes model whose regions' class
    log-likelihoods are weighted, the weights fitted discriminatively (conditional likelihood)
    on the training rows.

    Parameters
    ----------
    base : {"gaussian", "bernoulli", "multinomial", "categorical"}, default="gaussian"
        The generative model of each region (0/1 features for ``"bernoulli"``, non-negative
        counts for ``"multinomial"``, category codes ``0, 1, …`` for ``"categorical"``, read as
        :class:`CategoricalNB` reads them, with ``alpha=1``).
    regions : list of lists of int or None, default=None
        Groups of column indices, one weight each (their union every column, once); ``None``
        gives every column its own region, as ``gendisc fit hybrid`` and ``gendisc compare``.
    normalized : bool, default=True
        Divide each region's log-likelihood by its size (the paper's normalised hybrid).
    leave_one_out : bool, default=False
        Fit the weights on leave-one-out log-likelihoods (the paper's variant).
    prior_variance : float or None, default=None
        A Gaussian prior on the weights.
    """

    _kind = "hybrid"
    _parameters = ("base", "regions", "normalized", "leave_one_out", "prior_variance")

    def __init__(
        self, base="gaussian", regions=None, normalized=True, leave_one_out=False, prior_variance=None
    ):
        self.base = base
        self.regions = regions
        self.normalized = normalized
        self.leave_one_out = leave_one_out
        self.prior_variance = prior_variance

    def _features(self, X):
        if self.base == "categorical":
            check_non_negative(X, "Hybrid(base='categorical') (input X)")
            return np.floor(X)
        return X

    def __sklearn_tags__(self):
        # Counts and category codes are non-negative, as for the naive Bayes models.
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = self.base in ("multinomial", "categorical")
        return tags

    def _native_parameters(self) -> dict:
        parameters = super()._native_parameters()
        if parameters["regions"] is None:
            parameters["regions"] = [[j] for j in range(self.n_features_in_)]
        else:
            parameters["regions"] = [[int(j) for j in group] for group in parameters["regions"]]
        return parameters


class GDT(GendiscProbabilisticClassifier):
    """Bouchard and Triggs' generative-discriminative trade-off (2004).

    The maximiser of ``λ log p(x, y) + (1 − λ) log p(y | x)`` over a generative family: 1 is
    the generative fit, 0 the discriminative one (where the training rows are separated in the
    family's features, no maximiser exists and the fit warns with the certificate).

    Parameters
    ----------
    family : {"lda", "qda", "balls1", "balls2", "shared-diagonal"}, default="lda"
    lam : float, default=0.5
        The trade-off ``λ ∈ [0, 1]``.
    shrinkage : float or None, default=None
        LDA and QDA: covariance shrinkage toward the scaled identity, in the generative start
        and, as a log-prior on the precisions weighted by ``λ``, in the objective.
    reg_param : float or None, default=None
        LDA and QDA: the same toward the identity (scikit-learn's ``reg_param``).
    variance_floor : float or None, default=None
        Balls2: a floor on every component variance, relative to the largest feature variance.
    require_convergence : bool, default=False
        Make a fit that does not converge an error instead of a ``ConvergenceWarning``.
    """

    _kind = "gdt"
    _parameters = ("family", "lam", "shrinkage", "reg_param", "variance_floor")

    def __init__(
        self,
        family="lda",
        lam=0.5,
        shrinkage=None,
        reg_param=None,
        variance_floor=None,
        require_convergence=False,
    ):
        self.family = family
        self.lam = lam
        self.shrinkage = shrinkage
        self.reg_param = reg_param
        self.variance_floor = variance_floor
        self.require_convergence = require_convergence


class GDTCV(GendiscProbabilisticClassifier):
    """GDT with ``λ`` chosen by stratified cross-validation along a warm-started path.

    Parameters
    ----------
    family : {"lda", "qda", "balls1", "balls2", "shared-diagonal"}, default="lda"
    grid : list of float or None, default=None
        The candidate values of ``λ`` (the paper's Table 1 grid, 1 to 0 by quarters, when
        ``None``); ties go to the larger ``λ``.
    n_folds : int, default=5
    n_repeats : int, default=1
        Repetitions of the stratified k-fold split, each drawn anew.
    seed : int, default=0
        The seed of the fold split.
    rule : {"min", "one-se"}, default="min"
        ``"min"`` takes the smallest mean error; ``"one-se"`` the largest ``λ`` (the most
        generative) within one standard error of it.
    shrinkage, reg_param, variance_floor
        As for :class:`GDT`.

    Attributes
    ----------
    lam_ : float
        The chosen ``λ``.
    cv_scores_ : dict
        The cross-validated error of each ``λ`` of the grid.
    cv_standard_errors_ : dict
        The standard error of each score.
    cv_without_maximiser_ : dict
        For each ``λ`` of the grid, how many of the folds' fits proved that no finite
        maximiser exists there (``λ = 0`` on separated rows). A ``λ`` with any is not a
        candidate: those folds have no estimate to score, so ``lam_`` is never such a value.
    cv_excluded_ : dict
        For each ``λ`` of the grid, why it was no candidate for ``lam_``, in words, or
        ``None`` where it was one. A ``λ`` is a candidate only where the estimate was reached
        on all the training rows and in every fold: a fit without a finite maximiser, or one
        that stopped short of it (at its iteration cap, say), has no estimate to score or
        return. The folds fit the grid only down to the smallest ``λ`` whose fit on all the
        rows was reached; below it their scores are NaN.
    """

    _kind = "gdt-cv"
    _parameters = (
        "family",
        "grid",
        "n_folds",
        "n_repeats",
        "seed",
        "rule",
        "shrinkage",
        "reg_param",
        "variance_floor",
    )

    def __init__(
        self,
        family="lda",
        grid=None,
        n_folds=5,
        n_repeats=1,
        seed=0,
        rule="min",
        shrinkage=None,
        reg_param=None,
        variance_floor=None,
    ):
        self.family = family
        self.grid = grid
        self.n_folds = n_folds
        self.n_repeats = n_repeats
        self.seed = seed
        self.rule = rule
        self.shrinkage = shrinkage
        self.reg_param = reg_param
        self.variance_floor = variance_floor

    def _set_summary(self):
        super()._set_summary()
        selection = json.loads(self._model.to_json())["selection"]
        self.lam_ = selection["lambda"]
        # float(): a score that is not finite is written as the text "inf" or "NaN".
        self.cv_scores_ = {lam: float(v) for lam, v in zip(selection["grid"], selection["scores"])}
        self.cv_standard_errors_ = {
            lam: float(v) for lam, v in zip(selection["grid"], selection.get("standard_errors", []))
        }
        counts = selection.get("without_maximiser") or [0] * len(selection["grid"])
        self.cv_without_maximiser_ = dict(zip(selection["grid"], counts))
        self.cv_excluded_ = dict(zip(selection["grid"], self._model.cv_exclusions()))

    def _native_parameters(self) -> dict:
        parameters = super()._native_parameters()
        if parameters["grid"] is not None:
            parameters["grid"] = [float(v) for v in parameters["grid"]]
        return parameters
