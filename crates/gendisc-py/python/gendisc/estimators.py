"""The gendisc classifiers, one class per estimator; each ``__init__`` only stores its parameters."""

from __future__ import annotations

from ._base import GendiscClassifier


class GaussianNB(GendiscClassifier):
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


class LinearDiscriminantAnalysis(GendiscClassifier):
    """Gaussian classes with one shared covariance (pooled, maximum likelihood).

    Parameters
    ----------
    shrinkage : float or None, default=None
        Shrinks the covariance toward the scaled identity, ``(1 − γ) S + γ (tr S / d) I``
        (scikit-learn's ``shrinkage`` with the ``lsqr`` or ``eigen`` solver). Needed when
        columns are collinear or constant.
    """

    _kind = "lda"
    _parameters = ("shrinkage",)

    def __init__(self, shrinkage=None):
        self.shrinkage = shrinkage


class QuadraticDiscriminantAnalysis(GendiscClassifier):
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


class LogisticRegression(GendiscClassifier):
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


class GDT(GendiscClassifier):
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
