"""The papers' learning-curve loop: ``gendisc.compare`` against the same loop written with
scikit-learn, on the same table and design.

The design is ``gendisc compare``'s default grid (ten training sizes from two rows per class to
80 % of the rows), ``REPLICATES`` stratified training sets per size, Gaussian naive Bayes and
unpenalised logistic regression fitted on each and scored (error rate and log loss) on the rows
left out. The scikit-learn loop does that work and nothing more: ``StratifiedShuffleSplit`` per
size, ``GaussianNB`` and unpenalised ``LogisticRegression(C=np.inf)`` (lbfgs, at scikit-learn's
default tolerance, at most 1,000 iterations), then the per-size medians; gendisc.compare also draws the bootstrap intervals,
the paired differences and the crossover sizes, and writes its files. Both run on every CPU
(``n_jobs=-1`` over sizes for scikit-learn, gendisc's threads over cells) and on one.

Each cell is the median of 3 alternating rounds. Run it with the package built optimised
(``pip install ./crates/gendisc-py``, or ``maturin develop --release``):

    python crates/gendisc-py/benchmarks/learning_curves.py

It prints the rows of the table in docs/performance.md.
"""

import os
import statistics
import time
import warnings

import numpy as np
from joblib import Parallel, delayed
from sklearn import datasets
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedShuffleSplit
from sklearn.naive_bayes import GaussianNB

import gendisc

REPLICATES = 50
ROUNDS = 3


def sklearn_size(X, y, size, seed):
    """Median test error and log loss of each model over the replicates at one size."""
    # Workers do not inherit the parent's filters; unpenalised fits on separated training sets
    # warn that lbfgs reached its cap.
    warnings.simplefilter("ignore")
    splits = StratifiedShuffleSplit(n_splits=REPLICATES, train_size=size, random_state=seed)
    results = {"nb": [], "lr": []}
    for train, test in splits.split(X, y):
        for name, model in (
            ("nb", GaussianNB()),
            ("lr", LogisticRegression(C=np.inf, max_iter=1000)),
        ):
            try:
                model.fit(X[train], y[train])
            except ValueError:
                continue
            proba = model.predict_proba(X[test])
            error = np.mean(model.classes_[proba.argmax(axis=1)] != y[test])
            results[name].append((error, log_loss(y[test], proba, labels=model.classes_)))
    return {name: np.median(values, axis=0) for name, values in results.items() if values}


def sklearn_loop(X, y, sizes, n_jobs):
    return Parallel(n_jobs=n_jobs)(
        delayed(sklearn_size)(X, y, size, seed) for seed, size in enumerate(sizes)
    )


def main():
    rng = np.random.default_rng(0)
    n = 2000
    y_synthetic = rng.integers(0, 2, n)
    X_synthetic = rng.standard_normal((n, 10)) + 0.4 * y_synthetic[:, None]
    tables = {
        "breast cancer (569 × 30)": datasets.load_breast_cancer(return_X_y=True),
        "synthetic (2,000 × 10)": (X_synthetic, y_synthetic),
    }
    warnings.simplefilter("ignore")
    cpus = os.cpu_count()
    for name, (X, y) in tables.items():
        sizes = gendisc.compare(X, y, ["nb"], replicates=1).sizes
        for threads, n_jobs in ((cpus, -1), (1, 1)):
            times = {"gendisc": [], "scikit-learn": []}
            for _ in range(ROUNDS):
                start = time.perf_counter()
                gendisc.compare(X, y, ["nb", "lr"], sizes=sizes, replicates=REPLICATES,
                                n_jobs=threads)
                times["gendisc"].append(time.perf_counter() - start)
                start = time.perf_counter()
                sklearn_loop(X, y, sizes, n_jobs)
                times["scikit-learn"].append(time.perf_counter() - start)
            ours, theirs = (statistics.median(times[k]) for k in ("gendisc", "scikit-learn"))
            print(
                f"| {name} | {threads} | {ours:.2f} s | {theirs:.2f} s | {theirs / ours:.1f}× |"
            )


if __name__ == "__main__":
    main()
