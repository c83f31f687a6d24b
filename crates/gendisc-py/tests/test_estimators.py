"""The gendisc estimators against scikit-learn: its estimator checks, and its numbers."""

import copy
import pickle
import subprocess
import warnings

import numpy as np
import pytest
from sklearn import datasets
from sklearn.base import clone
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as SkLDA
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.naive_bayes import GaussianNB as SkGaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

import gendisc
from _support import command as _command

ESTIMATORS = [
    gendisc.GaussianNB(),
    gendisc.LinearDiscriminantAnalysis(),
    gendisc.QuadraticDiscriminantAnalysis(reg_param=0.01),
    gendisc.LogisticRegression(),
    gendisc.GDT(),
    gendisc.GDT(family="qda", lam=0.25, reg_param=0.01),
    gendisc.BernoulliNB(),
    gendisc.MultinomialNB(),
    gendisc.CategoricalNB(),
    gendisc.Balls1(),
    gendisc.Balls2(),
    gendisc.LogisticRegressionCV(prior_variances=[0.1, 1.0, 10.0], n_folds=3),
    gendisc.GDTCV(grid=[1.0, 0.5], n_folds=3, shrinkage=0.1),
    gendisc.LinearSVM(),
    gendisc.Hybrid(),
    gendisc.Hybrid(base="categorical"),
    # One prior mean per class, repeated over however many features a check's data have.
    gendisc.BilevelClassifier(prior_means=[-1.0, 1.0], prior_variances=1.0),
]


# GDT starts from the generative LDA, which without shrinkage needs a full-rank pooled covariance
# (at least d + K rows, no collinear columns); these checks fit it on a few rows of many or
# collinear columns. (LinearDiscriminantAnalysis's default SVD solver fits them; see the README.)
_FULL_RANK_LDA = {
    check: "GDT's LDA start without shrinkage needs a full-rank pooled covariance; the check's "
    "data are not"
    for check in [
        "check_sample_weights_shape",
        "check_sample_weights_not_overwritten",
        "check_sample_weight_equivalence_on_dense_data",
    ]
}

# Cross-validation splits rows: m copies of a row can fall into different folds, where one row of
# weight m stays in one, so the two fits differ.
_CROSS_VALIDATED = {
    "check_sample_weight_equivalence_on_dense_data": "cross-validation splits rows, so a "
    "row of weight m and m copies of it are split differently"
}

EXPECTED_FAILURES: dict = {
    "LogisticRegressionCV": _CROSS_VALIDATED,
    "GDTCV": _CROSS_VALIDATED,
    # Balls2 needs two rows of positive weight per class for its two components; the check
    # leaves a class with one row of weight 2, where its repeated twin has two equal rows.
    # The dual coordinate descent stops at its tolerance: a row of weight m and m copies of it
    # give the same solution to about 3e-5, not to the check's 1e-7.
    "LinearSVM": {
        "check_sample_weight_equivalence_on_dense_data": "dual coordinate descent stops at its "
        "tolerance; weighted and repeated fits agree to about 3e-5, not 1e-7"
    },
    "Balls2": {
        "check_sample_weight_equivalence_on_dense_data": "a two-component mixture needs two "
        "rows of positive weight per class; one row of weight 2 is refused"
    },
}


def expected_failed_checks(estimator):  # noqa: F811 (the family decides for GDT)
    """The checks each estimator is known to fail, with the reason (also in the README)."""
    if isinstance(estimator, gendisc.GDT):
        unshrunk_lda = estimator.family == "lda" and not (estimator.shrinkage or estimator.reg_param)
        return _FULL_RANK_LDA if unshrunk_lda else {}
    return EXPECTED_FAILURES.get(type(estimator).__name__, {})


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


def bundled(name):
    loader = {
        "iris": datasets.load_iris,
        "wine": datasets.load_wine,
        "breast_cancer": datasets.load_breast_cancer,
        "digits": datasets.load_digits,
    }[name]
    return loader(return_X_y=True)


@pytest.mark.parametrize("name", ["iris", "wine", "breast_cancer"])
def test_gaussian_nb_matches_scikit_learn(name):
    X, y = bundled(name)
    ours = gendisc.GaussianNB(var_smoothing=1e-9).fit(X, y)
    theirs = SkGaussianNB(var_smoothing=1e-9).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-6)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


@pytest.mark.parametrize("name", ["wine", "breast_cancer"])
def test_unpenalised_logistic_regression_matches_scikit_learn(name):
    # Standardised, so that scikit-learn's L-BFGS reaches the optimum it is compared at; on
    # their first four columns neither data set is separated, so the maximum-likelihood
    # estimate exists (iris is: setosa stands apart).
    X, y = bundled(name)
    X = StandardScaler().fit_transform(X)[:, :4]
    with warnings.catch_warnings():
        # Breast cancer has fitted probabilities numerically 0 or 1 (as R's glm says), which
        # is a warning, not a failure to converge.
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = gendisc.LogisticRegression(prior_variance=None).fit(X, y)
    assert ours.converged_
    theirs = SkLogisticRegression(C=np.inf, tol=1e-12, max_iter=100_000).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-6)


def test_penalised_logistic_regression_is_scikit_learns_c():
    X, y = bundled("breast_cancer")
    X = StandardScaler().fit_transform(X)
    ours = gendisc.LogisticRegression(prior_variance=0.5).fit(X, y)
    theirs = SkLogisticRegression(C=0.5, tol=1e-12, max_iter=100_000).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-6)


@pytest.mark.parametrize("name", ["iris", "wine", "breast_cancer", "digits"])
def test_svd_lda_matches_scikit_learns_default(name):
    # digits has constant pixels: the pooled covariance is singular, the SVD solver fits.
    X, y = bundled(name)
    ours = gendisc.LinearDiscriminantAnalysis().fit(X, y)
    theirs = SkLDA().fit(X, y)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-6)


def test_svd_lda_refuses_shrinkage_and_unknown_solvers():
    X, y = bundled("iris")
    with pytest.raises(ValueError, match="svd"):
        gendisc.LinearDiscriminantAnalysis(shrinkage=0.1).fit(X, y)
    with pytest.raises(ValueError, match="solver"):
        gendisc.LinearDiscriminantAnalysis(solver="cholesky").fit(X, y)


@pytest.mark.parametrize("name", ["iris", "wine", "breast_cancer"])
def test_lda_decisions_match_scikit_learn(name):
    X, y = bundled(name)
    ours = gendisc.LinearDiscriminantAnalysis(solver="lsqr").fit(X, y)
    theirs = SkLDA(solver="lsqr").fit(X, y)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-6)


def test_gdt_at_one_is_lda_and_trades_off_below():
    X, y = bundled("wine")
    lda = gendisc.LinearDiscriminantAnalysis(solver="lsqr", shrinkage=0.1).fit(X, y)
    generative = gendisc.GDT(lam=1.0, shrinkage=0.1).fit(X, y)
    np.testing.assert_allclose(generative.predict_proba(X), lda.predict_proba(X), atol=1e-9)
    half = gendisc.GDT(lam=0.5, shrinkage=0.1).fit(X, y)
    assert half.converged_ and half.n_iter_ > 0
    # The discriminative pull raises the training conditional likelihood above LDA's.
    rows = np.arange(len(y))
    assert np.log(half.predict_proba(X)[rows, y]).sum() > np.log(lda.predict_proba(X)[rows, y]).sum()


def scores(model, X):
    """The probabilities of a probabilistic model, else its decision scores."""
    if hasattr(model, "predict_proba"):
        return model.predict_proba(X)
    return model.decision_function(X)


def labelled_iris(estimator):
    """Iris with text labels: all three classes, or the first two for a binary classifier."""
    X, y = bundled("iris")
    names = ["setosa", "versicolor", "virginica"]
    if not estimator.__sklearn_tags__().classifier_tags.multi_class:
        X, y, names = X[y < 2], y[y < 2], names[:2]
    return X, np.array(names)[y], names


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_pickle_and_deepcopy_predict_identically(estimator):
    X, labels, names = labelled_iris(estimator)
    fitted = copy.deepcopy(estimator).fit(X, labels)
    for copied in [pickle.loads(pickle.dumps(fitted)), copy.deepcopy(fitted)]:
        np.testing.assert_array_equal(scores(copied, X), scores(fitted, X))
        np.testing.assert_array_equal(copied.predict(X), fitted.predict(X))
        assert list(copied.classes_) == names


def test_a_pickle_carries_the_versioned_model_file_and_a_damaged_one_is_refused():
    import json

    X, y = bundled("iris")
    state = gendisc.GaussianNB().fit(X, y).__getstate__()
    envelope = json.loads(state["_model_file"])
    assert envelope["format"] == "gendisc-model" and envelope["kind"] == "gaussian-naive-bayes"
    assert envelope["labels"] == ["0", "1", "2"]
    for damage in [
        lambda e: e["model"].update(variance_floor=-1.0),
        lambda e: e.update(format_version=999),
        lambda e: e.update(kind="lda"),
    ]:
        damaged = json.loads(state["_model_file"])
        damage(damaged)
        with pytest.raises(ValueError):
            gendisc.GaussianNB().__setstate__(dict(state, _model_file=json.dumps(damaged)))


def test_separated_data_warns_or_fails_when_asked():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    with pytest.warns(ConvergenceWarning, match="separated"):
        gendisc.LogisticRegression(prior_variance=None).fit(X, y)
    with pytest.raises(RuntimeError, match="separated"):
        gendisc.LogisticRegression(prior_variance=None, require_convergence=True).fit(X, y)


def test_cross_validation_never_chooses_a_lambda_without_a_maximiser():
    # Four tight clusters in the XOR pattern: at λ = 0, Balls2 without a variance floor
    # sharpens its components without end, so λ = 0 has no estimate to score or return.
    rng = np.random.default_rng(5)
    centres = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    X = np.repeat(centres, 12, axis=0) + 0.4 * rng.standard_normal((48, 2))
    y = np.repeat([0, 0, 1, 1], 12)
    gdt = gendisc.GDTCV(family="balls2", grid=[0.5, 0.0], n_folds=3).fit(X, y)
    # The fit on all the rows at λ = 0 has no maximiser: no candidate, and no fold fits it.
    assert gdt.cv_without_maximiser_ == {0.5: 0, 0.0: 0}
    assert gdt.cv_excluded_ == {0.5: None, 0.0: "no finite maximiser on the training rows"}
    assert np.isnan(gdt.cv_scores_[0.0])
    assert gdt.lam_ == 0.5
    with pytest.raises(ValueError, match="add a λ > 0"):
        gendisc.GDTCV(family="balls2", grid=[0.0], n_folds=3).fit(X, y)


def test_works_in_pipelines_and_grid_search():
    X, y = bundled("breast_cancer")
    pipeline = make_pipeline(StandardScaler(), gendisc.GDT(family="lda", shrinkage=0.1))
    search = GridSearchCV(pipeline, {"gdt__lam": [1.0, 0.5]}, cv=3).fit(X, y)
    assert search.best_score_ > 0.9
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        assert cross_val_score(gendisc.GaussianNB(), X, y, cv=5).mean() > 0.9


def test_unknown_and_misspelt_parameters_are_errors():
    X, y = bundled("iris")
    with pytest.raises(ValueError, match="family"):
        gendisc.GDT(family="lda2").fit(X, y)
    with pytest.raises(ValueError, match="shrinkage"):
        gendisc.GDT(family="balls1", shrinkage=0.1).fit(X, y)


def test_bernoulli_and_multinomial_nb_match_scikit_learn():
    from sklearn.naive_bayes import BernoulliNB as SkBernoulliNB
    from sklearn.naive_bayes import MultinomialNB as SkMultinomialNB

    X, y = datasets.load_digits(return_X_y=True)  # pixel counts 0–16
    for ours, theirs in [
        (gendisc.MultinomialNB(alpha=1.0), SkMultinomialNB(alpha=1.0)),
        (gendisc.BernoulliNB(alpha=1.0, binarize=4.0), SkBernoulliNB(alpha=1.0, binarize=4.0)),
    ]:
        ours.fit(X, y)
        theirs.fit(X, y)
        np.testing.assert_allclose(
            ours.predict_log_proba(X), theirs.predict_log_proba(X), rtol=1e-9, atol=1e-9
        )


def gendisc_command():
    """The `gendisc` command the workspace built (CI builds it before these tests)."""
    import os
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[3]
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", root / "target"))
    command = target / "debug" / "gendisc"
    if not command.exists():
        pytest.skip(f"{command} is not built (cargo build -p gendisc-cli)")
    return str(command)


def test_model_files_round_trip_between_python_and_the_command(tmp_path):
    import subprocess

    import pandas as pd

    X, y = bundled("wine")
    names = [f"f{j}" for j in range(X.shape[1])]
    labels = np.array(["barolo", "grignolino", "barbera"])[y]
    table = pd.DataFrame(X, columns=names).assign(cultivar=labels)
    table.to_csv(tmp_path / "wine.csv", index=False)
    command = gendisc_command()

    # Python → file → the command.
    fitted = gendisc.GDT(lam=0.5, shrinkage=0.05).fit(table[names], labels)
    fitted.save(tmp_path / "gdt.json")
    out = subprocess.run(
        [command, "predict", "--model", tmp_path / "gdt.json", "--data", tmp_path / "wine.csv"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    predicted = pd.read_csv(__import__("io").StringIO(out)).iloc[:, -1].to_numpy()
    np.testing.assert_array_equal(predicted, fitted.predict(table[names]))

    # The command → file → Python.
    subprocess.run(
        [command, "fit", "lr", "--data", tmp_path / "wine.csv", "--out", tmp_path / "lr.json"],
        check=True,
        capture_output=True,
    )
    loaded = gendisc.load(tmp_path / "lr.json")
    assert isinstance(loaded, gendisc.LogisticRegression)
    assert list(loaded.feature_names_in_) == names
    out = subprocess.run(
        [command, "predict", "--model", tmp_path / "lr.json", "--data", tmp_path / "wine.csv"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    predicted = pd.read_csv(__import__("io").StringIO(out)).iloc[:, -1].to_numpy()
    np.testing.assert_array_equal(loaded.predict(table[names]), predicted)


def test_saved_models_load_identically_and_labels_must_sort_as_text(tmp_path):
    for estimator in ESTIMATORS:
        X, labels, _ = labelled_iris(estimator)
        fitted = copy.deepcopy(estimator).fit(X, labels)
        fitted.save(tmp_path / "m.json")
        loaded = gendisc.load(tmp_path / "m.json")
        assert type(loaded) is type(fitted)
        np.testing.assert_array_equal(scores(loaded, X), scores(fitted, X))
    X, y = bundled("iris")
    # Integers 2 < 10 sort the other way as text: refused, not mislabelled.
    fitted = gendisc.GaussianNB().fit(X[y > 0], np.where(y[y > 0] == 1, 2, 10))
    with pytest.raises(ValueError, match="sorted"):
        fitted.save(tmp_path / "int.json")


def test_cross_validation_reports_its_choice():
    X, y = bundled("wine")
    gdt = gendisc.GDTCV(grid=[1.0, 0.5, 0.0], n_folds=3, shrinkage=0.1).fit(X, y)
    assert gdt.lam_ in (1.0, 0.5, 0.0) and set(gdt.cv_scores_) == {1.0, 0.5, 0.0}
    candidates = [s for lam, s in gdt.cv_scores_.items() if gdt.cv_excluded_[lam] is None]
    assert gdt.cv_scores_[gdt.lam_] == min(candidates)
    lr = gendisc.LogisticRegressionCV(prior_variances=[0.01, 1.0], n_folds=3).fit(X, y)
    assert lr.prior_variance_ in (0.01, 1.0) and len(lr.cv_scores_) == 2


def test_repeated_folds_and_the_one_se_rule():
    X, y = bundled("breast_cancer")
    X = StandardScaler().fit_transform(X)
    grid = [1e-3, 1e-2, 1e-1, 1.0, 10.0]
    best = gendisc.LogisticRegressionCV(prior_variances=grid, n_folds=4, n_repeats=3).fit(X, y)
    one_se = gendisc.LogisticRegressionCV(
        prior_variances=grid, n_folds=4, n_repeats=3, rule="one-se"
    ).fit(X, y)
    assert one_se.cv_scores_ == best.cv_scores_
    assert set(one_se.cv_standard_errors_) == set(grid)
    assert one_se.prior_variance_ <= best.prior_variance_
    bound = best.cv_scores_[best.prior_variance_] + one_se.cv_standard_errors_[best.prior_variance_]
    assert one_se.cv_scores_[one_se.prior_variance_] <= bound
    assert all(best.cv_scores_[v] > bound for v in grid if v < one_se.prior_variance_)
    with pytest.raises(ValueError, match="rule"):
        gendisc.LogisticRegressionCV(rule="smallest").fit(X, y)


def test_categorical_nb_matches_scikit_learn():
    from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB

    rng = np.random.default_rng(3)
    levels = [2, 3, 5, 4]
    y = rng.integers(0, 3, size=200)
    X = np.column_stack([(rng.integers(0, n, size=200) + y * (j % 2)) % n for j, n in enumerate(levels)])
    X_test = np.column_stack([rng.integers(0, n, size=40) for n in levels])
    for alpha, minimum in [(1.0, None), (0.5, 6), (1.0, [3, 3, 6, 4])]:
        ours = gendisc.CategoricalNB(alpha=alpha, min_categories=minimum).fit(X, y)
        theirs = SkCategoricalNB(alpha=alpha, min_categories=minimum).fit(X, y)
        np.testing.assert_allclose(
            ours.predict_proba(X_test), theirs.predict_proba(X_test), rtol=0, atol=1e-10
        )
    with pytest.raises(ValueError):
        gendisc.CategoricalNB().fit(X, y).predict(X_test + 10)
    with pytest.raises(ValueError, match="Negative"):
        gendisc.CategoricalNB().fit(X - 1, y)


def test_the_hybrid_over_categorical_naive_bayes_reads_codes_and_keeps_its_base(tmp_path):
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 300)
    # Three columns of codes 0–3 whose distribution depends on the class; a fourth that does not.
    X = np.column_stack(
        [np.minimum(rng.poisson(1.0 + 1.5 * y), 3) for _ in range(3)] + [rng.integers(0, 4, 300)]
    ).astype(float)
    hybrid = gendisc.Hybrid(base="categorical").fit(X, y)
    assert hybrid.converged_
    # Codes are read as CategoricalNB reads them: 2.7 is category 2.
    np.testing.assert_array_equal(hybrid.predict_proba(X + 0.7), hybrid.predict_proba(X))
    assert (hybrid.predict(X) == y).mean() > 0.7
    hybrid.save(tmp_path / "hybrid.json")
    loaded = gendisc.load(tmp_path / "hybrid.json")
    assert loaded.base == "categorical"
    np.testing.assert_array_equal(loaded.predict_proba(X), hybrid.predict_proba(X))
    refitted = clone(loaded).fit(X, y)
    np.testing.assert_array_equal(refitted.predict_proba(X), hybrid.predict_proba(X))
    with pytest.raises(ValueError, match="Negative values"):
        hybrid.predict(-X)


def _bilevel_data():
    X, y = bundled("breast_cancer")
    X = StandardScaler().fit_transform(X[:, :4])
    labels = np.array(["benign", "malignant"])[1 - y]
    # The prior: each class mean near the class's mean on half the rows, loosely.
    half = np.arange(len(y)) % 2 == 0
    means = np.array([X[half & (labels == c)].mean(axis=0) for c in ("benign", "malignant")])
    return X, labels, means


def test_the_bilevel_classifier_takes_its_prior_as_arrays_or_a_table(tmp_path):
    import pandas as pd

    X, labels, means = _bilevel_data()
    from_arrays = gendisc.BilevelClassifier(prior_means=means, prior_variances=0.5).fit(X, labels)
    table = pd.DataFrame(
        [
            {"feature": j, "class": c, "mean": means[k, j], "variance": 0.5}
            for k, c in enumerate(("benign", "malignant"))
            for j in range(X.shape[1])
        ]
    )
    from_table = gendisc.BilevelClassifier(prior=table).fit(X, labels)
    np.testing.assert_array_equal(
        from_table.decision_function(X), from_arrays.decision_function(X)
    )
    assert from_arrays.converged_ and set(from_arrays.predict(X)) == {"benign", "malignant"}
    assert (from_arrays.predict(X) == labels).mean() > 0.85
    # Positive scores are classes_[1].
    positive = from_arrays.decision_function(X) > 0
    np.testing.assert_array_equal(from_arrays.predict(X)[positive], "malignant")
    # Through the model file, as the command writes it.
    from_arrays.save(tmp_path / "bilevel.json")
    loaded = gendisc.load(tmp_path / "bilevel.json")
    np.testing.assert_array_equal(loaded.decision_function(X), from_arrays.decision_function(X))


@pytest.mark.skipif(_command() is None, reason="the gendisc command is not built (cargo build)")
def test_the_bilevel_classifier_agrees_with_the_command(tmp_path):
    import pandas as pd

    X, labels, means = _bilevel_data()
    names = ["radius", "texture", "perimeter", "area"]
    frame = pd.DataFrame(X, columns=names)
    frame.assign(diagnosis=labels).to_csv(tmp_path / "data.csv", index=False)
    prior = pd.DataFrame(
        [
            {"feature": f, "class": c, "mean": means[k, j], "variance": 0.5}
            for k, c in enumerate(("benign", "malignant"))
            for j, f in enumerate(names)
        ]
    )
    prior.to_csv(tmp_path / "prior.csv", index=False)
    subprocess.run(
        [str(_command()), "fit", "bilevel", "--data", str(tmp_path / "data.csv"), "--prior",
         str(tmp_path / "prior.csv"), "--beta", "0.3", "--out", str(tmp_path / "m.json")],
        check=True,
        capture_output=True,
    )
    command = gendisc.load(tmp_path / "m.json")
    ours = gendisc.BilevelClassifier(prior=prior, beta=0.3).fit(frame, labels)
    np.testing.assert_allclose(
        ours.decision_function(frame), command.decision_function(frame), rtol=0, atol=1e-12
    )


def test_the_bilevel_classifier_refuses_what_it_cannot_fit():
    X, labels, means = _bilevel_data()
    with pytest.raises(ValueError, match="needs a prior"):
        gendisc.BilevelClassifier().fit(X, labels)
    with pytest.raises(ValueError, match="shape"):
        gendisc.BilevelClassifier(prior_means=means[:, :2], prior_variances=1.0).fit(X, labels)
    with pytest.raises(ValueError, match="Only binary"):
        gendisc.BilevelClassifier(prior_means=0.0, prior_variances=1.0).fit(
            X, np.arange(len(labels)) % 3
        )
    with pytest.raises(TypeError):
        gendisc.BilevelClassifier(prior_means=means, prior_variances=1.0).fit(
            X, labels, sample_weight=np.ones(len(labels))
        )
