"""Reference values for gendisc-metrics from scikit-learn and mpmath.

Regenerate from this directory with

    python3 python_reference.py > python_reference.csv

(values committed from scikit-learn 1.9.1, NumPy 2.4 and mpmath 1.3.0). Each line is `name,arguments,value`;
arguments are separated by spaces and values printed with 17 significant digits.

* `log_loss_mean`, `log_loss_sum`, `brier_multiclass`, `brier_binary`: scikit-learn's
  `log_loss` and `brier_score_loss`. Arguments: K, then for each row its label followed by its K
  probabilities.
* `qt`, `pt`: the Student-t quantile and distribution function at 50 significant digits, for
  degrees of freedom and tails beyond those R computes exactly.
"""

import mpmath as mp
import numpy as np
from sklearn.metrics import brier_score_loss, log_loss


def fmt(v):
    return "%.17g" % float(v)


def row(name, args, value):
    print("%s,%s,%s" % (name, " ".join(fmt(a) for a in args), fmt(value)))


def matrix_args(y, proba):
    args = [proba.shape[1]]
    for label, p in zip(y, proba):
        args.append(label)
        args.extend(p)
    return args


print("name,arguments,value")

rng = np.random.default_rng(20240531)
for k, n in [(2, 7), (3, 9), (4, 12), (2, 40)]:
    weights = rng.gamma(0.7, size=(n, k))
    proba = weights / weights.sum(axis=1, keepdims=True)
    y = rng.integers(0, k, size=n)
    y[:k] = np.arange(k)  # every class present, as scikit-learn requires
    labels = list(range(k))
    args = matrix_args(y, proba)
    row("log_loss_mean", args, log_loss(y, proba, labels=labels))
    row("log_loss_sum", args, log_loss(y, proba, labels=labels, normalize=False))
    row("brier_multiclass", args, brier_score_loss(y, proba, labels=labels, scale_by_half=False))
    if k == 2:
        row("brier_binary", args, brier_score_loss(y, proba[:, 1], pos_label=1))

mp.mp.dps = 50


def t_upper_tail(t, df):
    """P(T > t) for t >= 0, from whichever incomplete beta function has the small argument."""
    t = mp.mpf(t)
    df = mp.mpf(df)
    x = df / (df + t * t)
    if x < mp.mpf(1) / 2:
        return mp.betainc(df / 2, mp.mpf(1) / 2, 0, x, regularized=True) / 2
    y = t * t / (df + t * t)
    return (1 - mp.betainc(mp.mpf(1) / 2, df / 2, 0, y, regularized=True)) / 2


def t_cdf(t, df):
    tail = t_upper_tail(abs(mp.mpf(t)), df)
    return 1 - tail if t > 0 else tail


def t_quantile(p, df):
    # Bisection on u = log|t| for the upper-tail mass q = min(p, 1 - p): slow but certain.
    p = mp.mpf(p)
    q = min(p, 1 - p)
    lo, hi = mp.mpf(-60), mp.mpf(600)
    for _ in range(300):
        mid = (lo + hi) / 2
        if t_upper_tail(mp.exp(mid), df) > q:
            lo = mid
        else:
            hi = mid
    t = mp.exp((lo + hi) / 2)
    return t if p > 0.5 else -t


for df in [0.1, 1e6, 1e9]:
    for p in [1e-8, 0.025, 0.3, 0.975, 1 - 1e-8]:
        row("qt", [p, df], t_quantile(p, df))
for p in [1e-12, 0.6, 0.975, 0.9999, 1 - 1e-10]:
    row("qt", [p, 0.5], t_quantile(p, 0.5))
    for t in [-6.0, -1.0, 0.25, 1.96, 4.0]:
        row("pt", [t, df], t_cdf(t, df))
