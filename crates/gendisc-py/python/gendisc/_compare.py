"""``gendisc.compare``: Ng and Jordan's question — generative or discriminative, and from which
training-set size on? — asked of a table in Python, by the engine of ``gendisc compare``."""

import os
import shutil
import tempfile
from dataclasses import dataclass

import numpy as np
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, column_or_1d

from . import _native

#: The models ``compare`` knows, and what they are (from the engine's own list).
MODELS = {
    name: f"{description} ({role})" for name, description, role in _native.compare_models()
}

_FILES = {
    "replicates": "replicates.csv",
    "summary": "summary.csv",
    "differences": "differences.csv",
    "crossovers": "crossover.csv",
}


def _reference_coded(X):
    """A DataFrame's categorical columns (text, or pandas ``category``) coded as ``gendisc
    compare`` codes a file's: an indicator of each level that occurs, but the first in byte
    order (treatment contrasts, as R codes a factor), named ``column=level``; the other columns
    as they are. Returns the features, their names and the names of the coded columns; an
    array passes through unnamed."""
    import pandas as pd

    if not hasattr(X, "columns"):
        return X, None, []
    numeric = pd.api.types.is_numeric_dtype
    categorical = [c for c in X.columns if not numeric(X[c])]
    if not categorical:
        return X, [str(c) for c in X.columns], []
    columns, names = [], []
    for c in X.columns:
        if not numeric(X[c]):
            if X[c].isna().any():
                raise ValueError(
                    f"column {c!r} has a missing value: leave those rows out or fill them in "
                    "(the command's --missing drop)"
                )
            values = X[c].astype(str)
            # Code point order is UTF-8's byte order, the command's order of levels.
            for level in sorted(values.unique())[1:]:
                columns.append((values == level).to_numpy(dtype=np.float64))
                names.append(f"{c}={level}")
        else:
            columns.append(X[c].to_numpy())
            names.append(str(c))
    return np.column_stack(columns), names, [str(c) for c in categorical]


@dataclass(frozen=True)
class Comparison:
    """What :func:`compare` found, as ``gendisc compare`` writes it.

    Attributes
    ----------
    replicates : pandas.DataFrame
        One row per training size, replicate and model: ``error`` and ``log_loss`` on the rows
        left out, and ``fit_failed``.
    summary : pandas.DataFrame
        Per size and model: the median error with its 95 % bootstrap interval
        (``error_lower``, ``error_upper``), the median log loss, fits done and failed.
    differences : pandas.DataFrame
        Per size and pair of a discriminative and a generative model: the median paired
        difference in error (discriminative − generative, same split) with its interval, and
        the share of splits each side won.
    crossovers : pandas.DataFrame
        Per pair: the crossover size (the smallest size from which on, at every larger size
        too, the median paired difference is below zero: the discriminative model is better on
        most splits; ``"none"`` when there is none in range), its bootstrap interval and the
        share of bootstrap draws that cross within the sizes.
    sizes : list of int
        The training sizes.
    svg : str
        The learning-curve figure (shown by notebooks).
    report : str
        The report in Markdown.
    cells, ran, resumed : int
        Cells (size × replicate) in all, run now, and read back from the result store.
    seconds : float
        Wall time of the run.
    out : str or None
        The output directory, when one was given.
    """

    replicates: object
    summary: object
    differences: object
    crossovers: object
    sizes: list
    svg: str
    report: str
    cells: int
    ran: int
    resumed: int
    seconds: float
    out: object = None

    def _repr_svg_(self):
        return self.svg

    def plot(self, ax=None):
        """Draws the median learning curves with their intervals on a matplotlib axis (a new
        one by default) and returns it. Needs matplotlib; :attr:`svg` needs nothing."""
        try:
            import matplotlib.pyplot as plt
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise ImportError(
                "Comparison.plot needs matplotlib; the figure is also in Comparison.svg"
            ) from error
        if ax is None:
            _, ax = plt.subplots()
        for model, rows in self.summary.groupby("model", sort=False):
            line = ax.plot(rows["train_size"], rows["median_error"], marker="o", label=model)
            ax.fill_between(
                rows["train_size"],
                rows["error_lower"],
                rows["error_upper"],
                alpha=0.2,
                color=line[0].get_color(),
            )
        ax.set_xscale("log")
        ax.set_xlabel("training rows")
        ax.set_ylabel("median test error")
        ax.legend()
        return ax


def compare(
    X,
    y,
    models=("nb", "lr", "hybrid"),
    *,
    sizes=None,
    grid_points=10,
    replicates=200,
    seed=2001,
    max_test=None,
    shrinkage=None,
    n_jobs=None,
    out=None,
    name=None,
):
    """Learning curves of generative and discriminative classifiers on ``(X, y)``, and the
    training size from which each discriminative model overtakes each generative one.

    The rows are re-split at each training size ``replicates`` times (stratified, every class
    present); every model is fitted on the same training rows and scored on the rows left out.
    This runs the engine of the ``gendisc compare`` command: the same data, models, sizes,
    replicates, seed and test cap give the same numbers, whatever ``n_jobs``.

    Parameters
    ----------
    X : array-like or pandas.DataFrame of shape (n_samples, n_features)
        The features. A DataFrame's text or ``category`` columns are coded as ``gendisc
        compare`` codes a file's categorical columns: an indicator of each level that occurs but
        the first (in byte order). Each fit leaves out the columns constant on its training
        rows.
    y : array-like of shape (n_samples,)
        Class labels (any labels scikit-learn accepts); at least two classes, each with at least
        two rows.
    models : sequence of str, default=("nb", "lr", "hybrid")
        Keys of :data:`MODELS`.
    sizes : sequence of int, optional
        Training sizes, increasing; by default ``grid_points`` sizes spaced geometrically from
        two rows per class to 80 % of the rows.
    grid_points : int, default=10
        Sizes of the default grid (ignored with ``sizes``).
    replicates : int, default=200
        Random training sets per size.
    seed : int, default=2001
        The seed of every split and of the bootstrap.
    max_test : int, optional
        Test on at most this many rows per replicate (a stratified sample of the rest).
    shrinkage : float in [0, 1), optional
        Shrink the covariances of ``"lda"``, ``"qda"`` and ``"gdt-cv"`` toward the scaled
        identity, ``(1 - shrinkage) S + shrinkage (tr S / d) I`` (``LinearDiscriminantAnalysis``'s
        ``shrinkage``); without it a column constant within a class, or more columns than rows,
        leaves them no fit on small training sets.
    n_jobs : int, optional
        Worker threads; default one per CPU. The results do not depend on it.
    out : path-like, optional
        A directory to keep the output files and the result store in: a second call with the
        same arguments resumes from it instead of refitting. By default a temporary directory,
        removed afterwards.
    name : str, optional
        What the report calls the data (default: ``"a table from Python"``).

    Returns
    -------
    Comparison

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> import gendisc
    >>> X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    >>> result = gendisc.compare(X, y, ["nb", "lr"], replicates=20)   # doctest: +SKIP
    >>> result.crossovers                                              # doctest: +SKIP
    """
    try:
        import pandas as pd
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("gendisc.compare returns pandas DataFrames: install pandas") from error

    X, features, categorical = _reference_coded(X)
    target = str(y.name) if getattr(y, "name", None) is not None else "class"
    X = check_array(X, dtype=np.float64, ensure_min_samples=2)
    y = column_or_1d(y, warn=True)
    check_classification_targets(y)
    if len(y) != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {len(y)} labels")
    if features is None:
        features = [f"x{j}" for j in range(X.shape[1])]
    classes, y_index = np.unique(y, return_inverse=True)
    # The engine refuses an unknown model, naming the known ones.
    models = [models] if isinstance(models, str) else list(models)

    directory = os.fspath(out) if out is not None else tempfile.mkdtemp(prefix="gendisc-compare-")
    try:
        sizes_run, (cells, ran, resumed, seconds) = _native.compare(
            np.ascontiguousarray(X),
            y_index.astype(np.int64),
            [str(c) for c in classes],
            features,
            categorical,
            target,
            models,
            None if sizes is None else [int(m) for m in sizes],
            int(grid_points),
            int(replicates),
            int(seed),
            None if max_test is None else int(max_test),
            None if shrinkage is None else float(shrinkage),
            None if n_jobs is None else int(n_jobs),
            directory,
            name if name is not None else "a table from Python",
        )
        # Text columns stay text ("none" crossovers), as in the files.
        tables = {
            key: pd.read_csv(os.path.join(directory, file), keep_default_na=False, na_values=[""])
            for key, file in _FILES.items()
        }
        with open(os.path.join(directory, "learning_curves.svg"), encoding="utf-8") as f:
            svg = f.read()
        with open(os.path.join(directory, "REPORT.md"), encoding="utf-8") as f:
            report = f.read()
    finally:
        if out is None:
            shutil.rmtree(directory, ignore_errors=True)
    return Comparison(
        **tables,
        sizes=list(sizes_run),
        svg=svg,
        report=report,
        cells=cells,
        ran=ran,
        resumed=resumed,
        seconds=seconds,
        out=directory if out is not None else None,
    )
