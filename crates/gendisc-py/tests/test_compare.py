"""``gendisc.compare``: the papers' question from Python, by the engine of ``gendisc compare``."""

import os
import subprocess

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, load_wine

import gendisc
from _support import command as _command

CSV_FILES = ["replicates.csv", "summary.csv", "differences.csv", "crossover.csv"]
ALL_FILES = CSV_FILES + ["learning_curves.svg"]


def _command_files_equal(tmp_path, X, y, models, design, python_out, files, extra=()):
    """Writes ``(X, y)`` as a CSV whose last column is the class, runs ``gendisc compare`` on
    it with ``models``, ``design`` (``sizes``, ``replicates``, ``seed``) and ``extra`` flags,
    and asserts that each of ``files`` is byte for byte the one Python wrote into
    ``python_out``."""
    data = tmp_path / "table.csv"
    X.assign(**{y.name or "class": y}).to_csv(data, index=False)
    command_out = tmp_path / "command"
    subprocess.run(
        [
            str(_command()),
            "compare",
            "--data",
            str(data),
            "--models",
            ",".join(models),
            "--sizes",
            ",".join(str(m) for m in design["sizes"]),
            "--replicates",
            str(design["replicates"]),
            "--seed",
            str(design["seed"]),
            *extra,
            "--out",
            str(command_out),
        ],
        check=True,
        capture_output=True,
    )
    for name in files:
        assert (python_out / name).read_bytes() == (command_out / name).read_bytes(), name


def _wine():
    X, y = load_wine(return_X_y=True, as_frame=True)
    # Text labels, sorted as the command sorts a file's classes.
    return X, y.map({0: "barolo", 1: "grignolino", 2: "barbera"}).rename("cultivar")


def test_the_tables_hold_what_the_files_say():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    result = gendisc.compare(X, y, ["nb", "lr"], sizes=[10, 40, 160], replicates=6, seed=3)
    assert result.sizes == [10, 40, 160]
    assert result.cells == 18 and result.ran == 18 and result.resumed == 0
    assert len(result.replicates) == 3 * 6 * 2
    assert set(result.replicates["model"]) == {"nb", "lr"}
    assert set(result.replicates["role"]) == {"generative", "discriminative"}
    # Logistic regression has more coefficients (31) than 10 rows: those fits fail, and say so.
    failed = result.replicates["fit_failed"] == 1
    assert result.replicates["error"][failed].isna().all()
    assert result.replicates["error"][~failed].between(0, 1).all()
    assert set(result.replicates[failed]["train_size"]) == {10}
    assert len(result.summary) == 3 * 2
    fitted = result.summary.dropna(subset=["median_error"])
    assert len(fitted) == 5  # every size but lr's at 10 rows
    assert (fitted["error_lower"] <= fitted["median_error"]).all()
    assert (fitted["median_error"] <= fitted["error_upper"]).all()
    assert len(result.differences) == 3
    assert list(result.crossovers[["discriminative", "generative"]].iloc[0]) == ["lr", "nb"]
    assert result.svg.lstrip().startswith("<svg") and result._repr_svg_() == result.svg
    assert "# Generative or discriminative" in result.report
    assert result.out is None


def test_the_same_seed_gives_the_same_numbers_whatever_the_threads():
    X, y = _wine()
    runs = [
        gendisc.compare(X, y, ["nb", "lr"], sizes=[12, 48], replicates=5, n_jobs=threads)
        for threads in (1, 2)
    ]
    for table in ("replicates", "summary", "differences", "crossovers"):
        pd.testing.assert_frame_equal(getattr(runs[0], table), getattr(runs[1], table))
    other_seed = gendisc.compare(X, y, ["nb", "lr"], sizes=[12, 48], replicates=5, seed=7)
    assert not other_seed.replicates["error"].equals(runs[0].replicates["error"])


def test_a_run_into_a_directory_resumes(tmp_path):
    X, y = _wine()
    first = gendisc.compare(X, y, ["nb", "lda"], sizes=[12, 30], replicates=4, out=tmp_path)
    again = gendisc.compare(X, y, ["nb", "lda"], sizes=[12, 30], replicates=4, out=tmp_path)
    assert first.out == os.fspath(tmp_path) and (tmp_path / "REPORT.md").is_file()
    assert (again.ran, again.resumed) == (0, first.cells)
    pd.testing.assert_frame_equal(first.summary, again.summary)


@pytest.mark.skipif(_command() is None, reason="the gendisc command is not built (cargo build)")
def test_the_command_gives_the_same_numbers(tmp_path):
    X, y = _wine()
    design = dict(sizes=[12, 30, 60], replicates=8, seed=11)
    python_out = tmp_path / "python"
    gendisc.compare(X, y, ["nb", "lr", "hybrid"], out=python_out, **design)
    _command_files_equal(tmp_path, X, y, ["nb", "lr", "hybrid"], design, python_out, ALL_FILES)


def test_bad_requests_are_refused():
    X, y = _wine()
    with pytest.raises(ValueError, match="unknown model"):
        gendisc.compare(X, y, ["nb", "svm"])
    with pytest.raises(ValueError, match="at least two"):
        gendisc.compare(X, np.zeros(len(y)), ["nb", "lr"])
    with pytest.raises(ValueError, match="rows"):
        gendisc.compare(X, y[:-1], ["nb", "lr"])
    with pytest.raises(ValueError):
        gendisc.compare(X.assign(alcohol=np.nan), y, ["nb", "lr"])


def test_shrinkage_lets_lda_fit_more_columns_than_rows(tmp_path):
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    design = dict(sizes=[12, 24], replicates=3, seed=5)
    plain = gendisc.compare(X, y, ["lda", "lr"], **design)
    failed = plain.replicates.query("model == 'lda'")["fit_failed"]
    assert failed.all()  # 30 columns, at most 24 rows: the pooled covariance is singular
    python_out = tmp_path / "python"
    shrunk = gendisc.compare(X, y, ["lda", "lr"], shrinkage=0.2, out=python_out, **design)
    assert not shrunk.replicates.query("model == 'lda'")["fit_failed"].any()
    assert "shrunk toward the scaled identity by γ = 0.2" in shrunk.report
    if _command() is None:
        return  # the agreement with the command needs it built (cargo build)
    _command_files_equal(
        tmp_path, X, y, ["lda", "lr"], design, python_out, CSV_FILES, ["--shrinkage", "0.2"]
    )


def test_a_shrinkage_out_of_range_or_for_no_covariance_model_is_refused():
    X, y = _wine()
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        gendisc.compare(X, y, ["nb", "lda"], shrinkage=1.0)
    with pytest.raises(ValueError, match="lda, qda and gdt-cv"):
        gendisc.compare(X, y, ["nb", "lr"], shrinkage=0.1)


def test_text_columns_are_coded_as_the_command_codes_them(tmp_path):
    X, y = _wine()
    # A text column whose levels sort otherwise than they first appear.
    cellar = np.where(X["alcohol"] > 13.0, "upper", np.where(X["hue"] > 1.0, "low", "mid"))
    X = X.assign(cellar=cellar)
    design = dict(sizes=[12, 30, 60], replicates=4, seed=13)
    python_out = tmp_path / "python"
    result = gendisc.compare(X, y, ["nb", "lr", "lda"], out=python_out, **design)
    coded = "2 of them indicators of the levels, but the first, of the categorical column `cellar`"
    assert coded in result.report
    with pytest.raises(ValueError, match="missing value"):
        gendisc.compare(X.assign(cellar=X["cellar"].where(X["hue"] < 1.2)), y, ["nb", "lr"])
    if _command() is None:
        return  # the agreement with the command needs it built (cargo build)
    _command_files_equal(tmp_path, X, y, ["nb", "lr", "lda"], design, python_out, ALL_FILES)
