"""Fit + predict through Python: gendisc against scikit-learn on the same standardised arrays.

Each cell is the median of 3 alternating rounds, each round the median of several fit +
predict_proba runs of one library then the other. Run it with the package built optimised
(`pip install ./crates/gendisc-py`, or `maturin build --release`), not `maturin develop`:

    python crates/gendisc-py/benchmarks/fit_predict.py

It prints the rows of the table in docs/performance.md.
"""
import statistics
import time
import warnings

import numpy as np
from sklearn import datasets
from sklearn.preprocessing import StandardScaler
from sklearn.naive_bayes import GaussianNB as SkNB
from sklearn.linear_model import LogisticRegression as SkLR
import gendisc

warnings.simplefilter("ignore")
rng = np.random.default_rng(0)
Xs = rng.standard_normal((100_000, 50))
ys = (Xs[:, :5].sum(axis=1) + rng.standard_normal(100_000) > 0).astype(int)
data = {
    "digits": datasets.load_digits(return_X_y=True),
    "breast_cancer": datasets.load_breast_cancer(return_X_y=True),
    "synthetic 100000x50": (Xs, ys),
}
pairs = {
    "Gaussian NB": (lambda: gendisc.GaussianNB(), lambda: SkNB()),
    "logistic regression (C = 1)": (
        lambda: gendisc.LogisticRegression(prior_variance=1.0),
        lambda: SkLR(C=1.0, max_iter=10_000),
    ),
}


def timed(make, X, y, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        make().fit(X, y).predict_proba(X)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


for dname, (X, y) in data.items():
    X = StandardScaler().fit_transform(X)
    repeats = 3 if X.shape[0] > 10_000 else 21
    for mname, (ours, theirs) in pairs.items():
        a, b = [], []
        for _ in range(3):  # alternate
            a.append(timed(ours, X, y, repeats)); b.append(timed(theirs, X, y, repeats))
        a, b = statistics.median(a), statistics.median(b)
        print(f"| {dname} | {mname} | {a*1e3:.1f} ms | {b*1e3:.1f} ms | {b/a:.1f}× |")
