//! Golden tests against scikit-learn and R's `e1071::naiveBayes`.
//!
//! The reference values are committed in `tests/fixtures/` with the scripts that produced them
//! (see the README there). All the fits compared here are closed form, so every value must
//! match to `1e-6`, absolute for values of magnitude at most one (probabilities) and relative
//! beyond (means, variances, log-probabilities): `|ours − ref| ≤ 1e-6 · max(1, |ref|)`.
//!
//! Tests on real data read it from `$GENDISC_DATA` and pass with a printed note without it.

use std::path::PathBuf;

use gendisc_core::{ConditionalModel, Fit, Generative};
use gendisc_generative::{
    BernoulliNb, CategoricalNb, CovarianceShrinkage, GaussianNb, Lda, LdaSvd, MultinomialNb, Qda,
    VarianceEstimator,
};
use ndarray::{Array1, Array2, ArrayView2, Axis};
use serde_json::Value;
use sprs::CsMat;

const TOLERANCE: f64 = 1e-6;

fn fixture(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn vector(v: &Value) -> Array1<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn labels(v: &Value) -> Array1<usize> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as usize)
        .collect()
}

fn matrix(v: &Value) -> Array2<f64> {
    let rows: Vec<Array1<f64>> = v.as_array().unwrap().iter().map(vector).collect();
    let d = rows.first().map_or(0, |r| r.len());
    Array2::from_shape_fn((rows.len(), d), |(i, j)| rows[i][j])
}

/// `|a − e| ≤ TOLERANCE · max(1, |e|)` element by element.
#[track_caller]
fn assert_close<'a>(
    actual: impl IntoIterator<Item = &'a f64>,
    expected: impl IntoIterator<Item = &'a f64>,
    what: &str,
) {
    let (a, e): (Vec<f64>, Vec<f64>) = (
        actual.into_iter().copied().collect(),
        expected.into_iter().copied().collect(),
    );
    assert_eq!(a.len(), e.len(), "{what}: lengths differ");
    for (i, (x, y)) in a.iter().zip(&e).enumerate() {
        assert!(
            (x - y).abs() <= TOLERANCE * y.abs().max(1.0),
            "{what}[{i}]: ours {x}, reference {y}"
        );
    }
}

/// The shared data directory, or `None` (with a note) when it is not configured.
fn data_file(relative: &str) -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("GENDISC_DATA") else {
        eprintln!("note: GENDISC_DATA is not set; skipping the test on {relative}");
        return None;
    };
    let path = PathBuf::from(dir).join(relative);
    if !path.exists() {
        eprintln!("note: {} is missing; skipping", path.display());
        return None;
    }
    Some(path)
}

/// A comma-separated file, one record per non-empty line.
fn read_records(path: &PathBuf) -> Vec<Vec<String>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(',').map(|f| f.trim().to_string()).collect())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// scikit-learn
// ---------------------------------------------------------------------------------------------

/// GaussianNB, LDA and QDA references from `make_fixtures.py`'s `gaussian_references`.
fn check_gaussian_references(
    refs: &Value,
    x: ArrayView2<'_, f64>,
    y: &Array1<usize>,
    x_test: ArrayView2<'_, f64>,
) {
    // GaussianNB: gendisc's defaults are scikit-learn's conventions.
    let r = &refs["gaussian_nb"];
    let nb = GaussianNb::params().fit(x, y.view()).unwrap();
    assert_close(&nb.means(), &matrix(&r["theta"]), "GaussianNB theta_");
    assert_close(&nb.variances(), &matrix(&r["var"]), "GaussianNB var_");
    assert_close(
        [nb.variance_floor()].iter(),
        [r["epsilon"].as_f64().unwrap()].iter(),
        "GaussianNB epsilon_",
    );
    assert_close(
        &nb.class_prior(),
        &vector(&r["class_prior"]),
        "GaussianNB class_prior_",
    );
    assert_close(
        &nb.predict_proba(x_test).unwrap(),
        &matrix(&r["predict_proba"]),
        "GaussianNB predict_proba",
    );
    assert_close(
        &nb.log_joint(x_test).unwrap(),
        &matrix(&r["joint_log_proba"]),
        "GaussianNB predict_joint_log_proba",
    );

    // LinearDiscriminantAnalysis(solver="lsqr", store_covariance=True, shrinkage=None | 0.3).
    for key in ["lda", "lda_shrinkage"] {
        let r = &refs[key];
        let shrinkage = match r["shrinkage"].as_f64() {
            Some(g) => CovarianceShrinkage::ScaledIdentity(g),
            None => CovarianceShrinkage::None,
        };
        let lda = Lda::params().shrinkage(shrinkage).fit(x, y.view()).unwrap();
        assert_close(&lda.means(), &matrix(&r["means"]), &format!("{key} means_"));
        assert_close(
            &lda.class_prior(),
            &vector(&r["priors"]),
            &format!("{key} priors_"),
        );
        assert_close(
            &lda.covariance(),
            &matrix(&r["covariance"]),
            &format!("{key} covariance_"),
        );
        assert_close(
            &lda.predict_proba(x_test).unwrap(),
            &matrix(&r["predict_proba"]),
            &format!("{key} predict_proba"),
        );
    }

    // QuadraticDiscriminantAnalysis(reg_param = r, store_covariance=True): ML class
    // covariances (scikit-learn 1.9) shrunk toward I.
    for key in ["qda", "qda_reg"] {
        let r = &refs[key];
        let reg = r["reg_param"].as_f64().unwrap();
        let qda = Qda::params()
            .variance_estimator(VarianceEstimator::MaximumLikelihood)
            .regularization(CovarianceShrinkage::Identity(reg))
            .fit(x, y.view())
            .unwrap();
        assert_close(&qda.means(), &matrix(&r["means"]), &format!("{key} means_"));
        assert_close(
            &qda.class_prior(),
            &vector(&r["priors"]),
            &format!("{key} priors_"),
        );
        for (k, cov) in r["covariance"].as_array().unwrap().iter().enumerate() {
            assert_close(
                qda.covariances().index_axis(Axis(0), k),
                &matrix(cov),
                &format!("{key} covariance_[{k}]"),
            );
        }
        assert_close(
            &qda.predict_proba(x_test).unwrap(),
            &matrix(&r["predict_proba"]),
            &format!("{key} predict_proba"),
        );
    }
}

#[test]
fn sklearn_gaussian_models() {
    let f = fixture("sklearn_gaussian.json");
    let (x, y, x_test) = (matrix(&f["x"]), labels(&f["y"]), matrix(&f["x_test"]));
    check_gaussian_references(&f, x.view(), &y, x_test.view());
}

#[test]
fn sklearn_bernoulli_nb() {
    let f = fixture("sklearn_bernoulli.json");
    let (x, y, x_test) = (matrix(&f["x"]), labels(&f["y"]), matrix(&f["x_test"]));
    let nb = BernoulliNb::params()
        .alpha(f["alpha"].as_f64().unwrap())
        .fit(x.view(), y.view())
        .unwrap();
    assert_close(
        nb.feature_log_prob(),
        &matrix(&f["feature_log_prob"]),
        "feature_log_prob_",
    );
    assert_close(
        &nb.log_prior(),
        &vector(&f["class_log_prior"]),
        "class_log_prior_",
    );
    assert_close(
        &nb.predict_proba(x_test.view()).unwrap(),
        &matrix(&f["predict_proba"]),
        "predict_proba",
    );
}

#[test]
fn sklearn_multinomial_nb_dense_and_sparse() {
    let f = fixture("sklearn_multinomial.json");
    let (x, y, x_test) = (matrix(&f["x"]), labels(&f["y"]), matrix(&f["x_test"]));
    let xs = CsMat::csr_from_dense(x.view(), 0.0);
    let xs_test = CsMat::csr_from_dense(x_test.view(), 0.0);
    for key in ["alpha_1.0", "alpha_0.5"] {
        let r = &f[key];
        let params = MultinomialNb::params().alpha(r["alpha"].as_f64().unwrap());
        let dense = params.fit(x.view(), y.view()).unwrap();
        let sparse = params.fit_sparse(xs.view(), y.view()).unwrap();
        for (name, nb) in [("dense", &dense), ("sparse", &sparse)] {
            let what = format!("{key} {name}");
            assert_close(
                nb.feature_log_prob(),
                &matrix(&r["feature_log_prob"]),
                &format!("{what} feature_log_prob_"),
            );
            assert_close(
                &nb.log_prior(),
                &vector(&r["class_log_prior"]),
                &format!("{what} prior"),
            );
        }
        assert_close(
            &dense.predict_proba(x_test.view()).unwrap(),
            &matrix(&r["predict_proba"]),
            &format!("{key} predict_proba"),
        );
        assert_close(
            &sparse.predict_proba_sparse(xs_test.view()).unwrap(),
            &matrix(&r["predict_proba"]),
            &format!("{key} sparse predict_proba"),
        );
        assert_close(
            &sparse.log_joint_sparse(xs_test.view()).unwrap(),
            &matrix(&r["joint_log_proba"]),
            &format!("{key} predict_joint_log_proba"),
        );
    }
}

#[test]
fn sklearn_on_pima() {
    let f = fixture("sklearn_pima.json");
    if let Some((x_train, y_train, x_test)) = pima_split(&f) {
        check_gaussian_references(&f, x_train.view(), &y_train, x_test.view());
    }
}

/// Pima split as a fixture's `train_rows` says (training rows first, then the test rows), or
/// `None` (with a note) without the data.
fn pima_split(f: &Value) -> Option<(Array2<f64>, Array1<usize>, Array2<f64>)> {
    let path = data_file("uci/pima-indians-diabetes/pima-indians-diabetes.data")?;
    let values: Vec<Vec<f64>> = read_records(&path)
        .iter()
        .map(|r| r.iter().map(|v| v.parse().unwrap()).collect())
        .collect();
    let x = Array2::from_shape_fn((values.len(), 8), |(i, j)| values[i][j]);
    let y: Array1<usize> = values.iter().map(|r| r[8] as usize).collect();
    let train = f["train_rows"].as_u64().unwrap() as usize;
    let (x_train, x_test) = x.view().split_at(Axis(0), train);
    Some((
        x_train.to_owned(),
        y.slice_axis(Axis(0), ndarray::Slice::from(..train))
            .to_owned(),
        x_test.to_owned(),
    ))
}

// ---------------------------------------------------------------------------------------------
// scikit-learn's LinearDiscriminantAnalysis(solver="svd")
// ---------------------------------------------------------------------------------------------

/// The SVD solver's linear scores, explained variance ratios and posteriors against
/// scikit-learn's. Its `coef_` and `intercept_` are our coefficients for three classes and more,
/// and the difference of our two rows for two. The discriminant directions themselves are
/// defined up to sign, so they are compared through what they determine.
fn check_lda_svd(
    f: &Value,
    x: ArrayView2<'_, f64>,
    y: &Array1<usize>,
    x_test: ArrayView2<'_, f64>,
) {
    let model = LdaSvd::params().fit(x, y.view()).unwrap();
    let (b, c) = model.coefficients();
    let (coef, intercept) = if b.nrows() == 2 {
        let row = (&b.row(1) - &b.row(0)).insert_axis(Axis(0));
        (row, Array1::from(vec![c[1] - c[0]]))
    } else {
        (b.to_owned(), c.to_owned())
    };
    assert_close(&coef, &matrix(&f["coef"]), "svd LDA coef_");
    assert_close(&intercept, &vector(&f["intercept"]), "svd LDA intercept_");
    assert_close(
        model.explained_variance_ratio(),
        &vector(&f["explained_variance_ratio"]),
        "svd LDA explained_variance_ratio_",
    );
    assert_close(
        &model.predict_proba(x_test).unwrap(),
        &matrix(&f["predict_proba"]),
        "svd LDA predict_proba",
    );
}

#[test]
fn sklearn_svd_lda_on_collinear_constant_and_full_rank_columns() {
    let fixtures = fixture("sklearn_lda_svd.json");
    for case in ["two_classes", "three_classes", "full_rank"] {
        let f = &fixtures[case];
        let (x, y, x_test) = (matrix(&f["x"]), labels(&f["y"]), matrix(&f["x_test"]));
        check_lda_svd(f, x.view(), &y, x_test.view());
    }
}

#[test]
fn sklearn_svd_lda_on_pima() {
    let f = &fixture("sklearn_lda_svd.json")["pima"];
    if let Some((x_train, y_train, x_test)) = pima_split(f) {
        check_lda_svd(f, x_train.view(), &y_train, x_test.view());
    }
}

// ---------------------------------------------------------------------------------------------
// R e1071::naiveBayes
// ---------------------------------------------------------------------------------------------

/// Gaussian naive Bayes with sample standard deviations against `naiveBayes`' tables and
/// `predict(type = "raw")`.
fn check_e1071_gaussian(
    f: &Value,
    x: ArrayView2<'_, f64>,
    y: &Array1<usize>,
    x_test: ArrayView2<'_, f64>,
) {
    // e1071 has no variance floor. gendisc's default ε = 1e-9 · max_j Var(x_j) is relative to
    // the widest column, so on Pima (insulin: variance ≈ 1.3e4) it shifts the narrowest one
    // (pedigree: ≈ 0.1) by 1e-4 relatively; a far smaller floor reproduces e1071.
    let nb = GaussianNb::params()
        .variance_estimator(VarianceEstimator::Unbiased)
        .var_smoothing(1e-15)
        .fit(x, y.view())
        .unwrap();
    assert_close(&nb.means(), &matrix(&f["means"]), "e1071 means");
    // Take the floor off to compare with R's sd().
    let sd = nb.variances().mapv(|v| (v - nb.variance_floor()).sqrt());
    assert_close(&sd, &matrix(&f["sds"]), "e1071 sds");
    let apriori = vector(&f["apriori"]);
    assert_close(
        &nb.class_prior(),
        &(&apriori / apriori.sum()),
        "e1071 apriori",
    );
    assert_close(
        &nb.predict_proba(x_test).unwrap(),
        &matrix(&f["posterior"]),
        "e1071 posterior",
    );
}

#[test]
fn e1071_gaussian_naive_bayes() {
    let f = fixture("e1071_gaussian.json");
    let (x, y, x_test) = (matrix(&f["x"]), labels(&f["y"]), matrix(&f["x_test"]));
    check_e1071_gaussian(&f, x.view(), &y, x_test.view());
}

/// Categorical naive Bayes with `laplace = 1` against `naiveBayes`' tables and posteriors.
fn check_e1071_categorical(
    f: &Value,
    n_levels: Vec<usize>,
    x: ArrayView2<'_, f64>,
    y: &Array1<usize>,
    x_test: ArrayView2<'_, f64>,
) {
    let nb = CategoricalNb::params()
        .alpha(f["laplace"].as_f64().unwrap())
        .n_levels(n_levels)
        .fit(x, y.view())
        .unwrap();
    for (j, table) in f["tables"].as_array().unwrap().iter().enumerate() {
        assert_close(
            &nb.feature_prob(j),
            &matrix(table),
            &format!("e1071 table {j}"),
        );
    }
    assert_close(
        &nb.predict_proba(x_test).unwrap(),
        &matrix(&f["posterior"]),
        "e1071 posterior",
    );
}

#[test]
fn e1071_categorical_naive_bayes() {
    let f = fixture("e1071_categorical.json");
    let (x, y, x_test) = (matrix(&f["x"]), labels(&f["y"]), matrix(&f["x_test"]));
    let n_levels = labels(&f["n_levels"]).to_vec();
    check_e1071_categorical(&f, n_levels, x.view(), &y, x_test.view());
}

#[test]
fn e1071_bernoulli_is_laplace_on_two_levels() {
    let f = fixture("e1071_bernoulli.json");
    let (x, y, x_test) = (matrix(&f["x"]), labels(&f["y"]), matrix(&f["x_test"]));
    let nb = BernoulliNb::params()
        .alpha(f["laplace"].as_f64().unwrap())
        .fit(x.view(), y.view())
        .unwrap();
    // Level "1" of each two-level factor: (count + 1) / (n_k + 2).
    for (j, table) in f["tables"].as_array().unwrap().iter().enumerate() {
        let t = matrix(table);
        assert_close(
            nb.feature_prob().column(j),
            t.column(1),
            &format!("e1071 table {j}"),
        );
    }
    assert_close(
        &nb.predict_proba(x_test.view()).unwrap(),
        &matrix(&f["posterior"]),
        "e1071 posterior",
    );
    // The same data as factors through the categorical model agree too.
    check_e1071_categorical(&f, vec![2; x.ncols()], x.view(), &y, x_test.view());
}

#[test]
fn e1071_on_pima() {
    let f = fixture("e1071_pima.json");
    if let Some((x_train, y_train, x_test)) = pima_split(&f) {
        check_e1071_gaussian(&f, x_train.view(), &y_train, x_test.view());
    }
}

#[test]
fn e1071_on_congressional_votes() {
    let Some(path) = data_file("uci/congressional-voting/house-votes-84.data") else {
        return;
    };
    let f = fixture("e1071_votes.json");
    // Level codes in the order the script declared them: "?", "n", "y".
    let levels: Vec<String> = f["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect();
    let records = read_records(&path);
    let x = Array2::from_shape_fn((records.len(), 16), |(i, j)| {
        levels.iter().position(|l| *l == records[i][j + 1]).unwrap() as f64
    });
    let y: Array1<usize> = records
        .iter()
        .map(|r| usize::from(r[0] == "republican"))
        .collect();
    let train = f["train_rows"].as_u64().unwrap() as usize;
    let (x_train, x_test) = x.view().split_at(Axis(0), train);
    let y_train = y
        .slice_axis(Axis(0), ndarray::Slice::from(..train))
        .to_owned();
    check_e1071_categorical(&f, vec![levels.len(); 16], x_train, &y_train, x_test);
}
