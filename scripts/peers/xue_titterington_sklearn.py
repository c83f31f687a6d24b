#!/usr/bin/env python3
"""scikit-learn peer of the Xue–Titterington study: naive Bayes and unpenalised logistic
regression on the very datasets and training rows of a gendisc run.

The inputs are written by

    cargo xtask reproduce xue-titterington --export-inputs DIR

(format: docs/data-interchange.md). Writes per-replicate ER and LL in the long schema of
gendisc's cells.csv (dataset, train_size, replicate, classifier, metric, value), as
scripts/peers/xue_titterington.R does, so that scripts/peers/compare.py can join the two
replicate by replicate.

Usage: python3 scripts/peers/xue_titterington_sklearn.py DIR OUT.csv [REPLICATES] [PART]
  REPLICATES (optional) keeps only replicates 0 .. REPLICATES-1 of every dataset and size.
  PART (optional, I/N with 1 <= I <= N) keeps only the replicates r with r mod N = I - 1, so
  that N processes share the replicates without overlap.

The models, set up to compute what the study computes (crates/gendisc-studies/src/papers/
xue_titterington), each fitted once per replicate; prediction is vectorised over the test rows:
* naive Bayes on the normal datasets: GaussianNB(var_smoothing=1e-15), the study's (and
  e1071's) negligible variance floor. GaussianNB estimates each class variance with the n
  divisor; the study and e1071 use n - 1, so the fitted variances are rescaled by n_k/(n_k - 1)
  after the fit (the floor epsilon_ left as it is). Without the rescaling the models differ and
  LL moves by about 1e-2 relatively at m = 100.
* naive Bayes on the Bernoulli datasets: BernoulliNB(alpha=1, binarize=None), i.e.
  (count + 1)/(n_k + 2), the study's Laplace smoothing and e1071's laplace = 1.
* Both fit the empirical class prior (fit_prior=True). Ties (log-odds exactly 0) go to the first
  class, as in the study, e1071's which.max and scikit-learn's argmax.
* logistic regression: LogisticRegression(C=inf, solver="newton-cholesky", tol=1e-10,
  max_iter=25) (penalty=None instead of C=inf before scikit-learn 1.8) — Newton's method with
  a Cholesky solve, as glm's IRLS, with glm's cap of 25 iterations; the tolerance is on the
  gradient of the mean log loss, tighter than glm's 1e-8 on the relative deviance. Where the training set is (quasi-)separated the maximum-likelihood
  estimate does not exist and every solver stops wherever its iterations do: there, as for R,
  the metric numerically-0-or-1 is 1 when some training row has |eta| > 30 (the condition of
  glm's warning) and glm-not-converged is 1 when the solver used up its iterations
  (n_iter_ == max_iter), and compare.py leaves those replicates out of its LL check.
* ER: test errors / test rows. LL: the sum over the test rows of -log p(y | x), for logistic
  regression as log(1 + exp(-s eta)) with s = +-1 (numpy's logaddexp, exact for large |eta|;
  R's clamp of eta beyond +-30 is not applied, which matters only on separated replicates).

scikit-learn's input checks are switched off (set_config(assume_finite=True,
skip_parameter_validation=True)): the inputs are finite and the parameters fixed, so the time
is the models'. Run it with OMP_NUM_THREADS=1 and OPENBLAS_NUM_THREADS=1 to keep it on one core.
"""

import os
import sys
import time
import warnings

import numpy as np
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import BernoulliNB, GaussianNB

# Beyond this |eta| on a training row R's glm warns "fitted probabilities numerically 0 or 1".
GLM_WARNING_ETA = 30.0
LOGISTIC_MAX_ITER = 25
# No penalty: `penalty=None` up to scikit-learn 1.7, `C=inf` from 1.8 (which deprecates
# `penalty`).
UNPENALISED = ({"C": np.inf} if tuple(int(part) for part in sklearn.__version__.split(".")[:2])
               >= (1, 8) else {"penalty": None})


def parse_part(text):
    """(index, count) of a PART argument 'I/N', 0-based index."""
    try:
        index, count = (int(word) for word in text.split("/"))
    except ValueError:
        sys.exit(f"PART must read I/N (e.g. 1/2), not {text!r}")
    if not 1 <= index <= count:
        sys.exit(f"PART {text}: I must be between 1 and N")
    return index - 1, count


def read_table(path):
    """The header and the numeric rows of a CSV file."""
    try:
        with open(path, encoding="utf-8") as file:
            header = file.readline().strip().split(",")
        values = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    except (OSError, ValueError) as error:
        sys.exit(f"{path}: {error}")
    if values.shape[1] != len(header):
        sys.exit(f"{path}: {values.shape[1]} columns of values under a header of {len(header)}")
    return header, values


def naive_bayes(bernoulli):
    """The study's naive Bayes for one family of datasets."""
    if bernoulli:
        return BernoulliNB(alpha=1.0, binarize=None, fit_prior=True)
    return GaussianNB(var_smoothing=1e-15)


def fit_naive_bayes(model, x, y):
    """Fits `model`; a Gaussian one's variances are rescaled to the n - 1 divisor."""
    model.fit(x, y)
    if isinstance(model, GaussianNB):
        counts = model.class_count_[:, None]
        model.var_ = (model.var_ - model.epsilon_) * counts / (counts - 1) + model.epsilon_
    return model


def binary_scores(log_odds, y):
    """(ER, LL) of test log-odds, ties to the first class."""
    errors = np.count_nonzero((log_odds > 0) != (y == 1))
    signed = np.where(y == 1, log_odds, -log_odds)
    return float(errors / y.size), float(np.sum(np.logaddexp(0.0, -signed)))


def logistic_fit(x, y):
    """(model, not converged) of the unpenalised logistic regression."""
    model = LogisticRegression(**UNPENALISED, solver="newton-cholesky", tol=1e-10,
                               max_iter=LOGISTIC_MAX_ITER)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        # Separated training sets make the Hessian singular: scikit-learn then warns and
        # continues with L-BFGS; the fit is flagged below by its training |eta|.
        warnings.simplefilter("ignore", UserWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        model.fit(x, y)
    return model, bool(model.n_iter_[0] >= LOGISTIC_MAX_ITER)


def run_dataset(inputs, dataset, keep, part):
    """The long rows of one dataset: every kept replicate of every size."""
    header, data = read_table(os.path.join(inputs, "datasets", f"{dataset}.csv"))
    if header[-1] != "y":
        sys.exit(f"{dataset}.csv: the last column must be y, not {header[-1]!r}")
    x_all, y_all = data[:, :-1], data[:, -1].astype(np.int64)
    n = y_all.size
    bernoulli = dataset.startswith("bernoulli")
    split_dir = os.path.join(inputs, "splits", dataset)
    sizes = sorted(int(name[len("train-"):-len(".csv")]) for name in os.listdir(split_dir)
                   if name.startswith("train-") and name.endswith(".csv"))
    rows = []
    for m in sizes:
        _, splits = read_table(os.path.join(split_dir, f"train-{m}.csv"))
        splits = splits.astype(np.int64)
        if keep is not None:
            splits = splits[splits[:, 0] < keep]
        if part is not None:
            splits = splits[splits[:, 0] % part[1] == part[0]]
        for split in splits:
            replicate, train = int(split[0]), split[1:]
            in_test = np.ones(n, dtype=bool)
            in_test[train] = False
            x_train, y_train = x_all[train], y_all[train]
            x_test, y_test = x_all[in_test], y_all[in_test]

            nb = fit_naive_bayes(naive_bayes(bernoulli), x_train, y_train)
            joint = nb.predict_joint_log_proba(x_test)
            nb_er, nb_ll = binary_scores(joint[:, 1] - joint[:, 0], y_test)

            lr, not_converged = logistic_fit(x_train, y_train)
            saturated = bool(np.any(np.abs(lr.decision_function(x_train)) > GLM_WARNING_ETA))
            lr_er, lr_ll = binary_scores(lr.decision_function(x_test), y_test)

            key = (dataset, m, replicate)
            rows += [
                (*key, "naive-bayes", "er", nb_er),
                (*key, "naive-bayes", "ll", nb_ll),
                (*key, "logistic-regression", "er", lr_er),
                (*key, "logistic-regression", "ll", lr_ll),
                (*key, "logistic-regression", "numerically-0-or-1", float(saturated)),
                (*key, "logistic-regression", "glm-not-converged", float(not_converged)),
            ]
    return sizes, rows


def main():
    if not 3 <= len(sys.argv) <= 5:
        sys.exit("usage: python3 xue_titterington_sklearn.py INPUTS_DIR OUT.csv "
                 "[REPLICATES] [PART]")
    inputs, out = sys.argv[1], sys.argv[2]
    keep = None
    if len(sys.argv) >= 4 and sys.argv[3] != "all":
        try:
            keep = int(sys.argv[3])
        except ValueError:
            sys.exit(f"REPLICATES must be a count or 'all', not {sys.argv[3]!r}")
    part = parse_part(sys.argv[4]) if len(sys.argv) >= 5 else None
    dataset_dir = os.path.join(inputs, "datasets")
    try:
        datasets = sorted(name[:-len(".csv")] for name in os.listdir(dataset_dir)
                          if name.endswith(".csv"))
    except OSError as error:
        sys.exit(f"{dataset_dir}: {error}")
    if not datasets:
        sys.exit(f"no datasets under {dataset_dir}")

    sklearn.set_config(assume_finite=True, skip_parameter_validation=True)
    started = time.monotonic()
    rows = []
    for dataset in datasets:
        sizes, dataset_rows = run_dataset(inputs, dataset, keep, part)
        rows += dataset_rows
        print(f"{dataset}: {len(sizes)} sizes done ({time.monotonic() - started:.0f} s so far)",
              file=sys.stderr)
    with open(out, "w", encoding="utf-8") as file:
        file.write("dataset,train_size,replicate,classifier,metric,value\n")
        for dataset, m, replicate, classifier, metric, value in rows:
            file.write(f"{dataset},{m},{replicate},{classifier},{metric},{value!r}\n")
    print(f"wrote {len(rows)} rows to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
