//! Golden model files: one committed file per model kind under `tests/golden/`, so that a change
//! of the model-file format is deliberate.
//!
//! For each kind the test reads the committed file (it must still load and pass every check),
//! predicts the committed rows (the labels, and the probabilities within 1e-12, must be the
//! committed ones), and writes the model back: the text must be the committed text, the
//! `gendisc_version` line aside. A field renamed, added or re-encoded fails the last step; a model
//! whose files no longer load fails the first.
//!
//! The files under `tests/golden/v1/` are those format version 1 wrote, with what they
//! predicted; they must keep loading and predicting it.
//!
//! After a deliberate change, bless the files anew — they are refitted on the same rows — and
//! raise [`FORMAT_VERSION`](gendisc::core::model_file::FORMAT_VERSION) if an older reader would
//! misread the new ones:
//!
//! ```text
//! GENDISC_BLESS_GOLDEN=1 cargo test -p gendisc --test integration golden::
//! ```

use std::fs;
use std::path::PathBuf;

use gendisc::core::model_file::GENDISC_VERSION;
use gendisc::discriminative::{LinearSvm, LogisticRegression, LogisticRegressionCv};
use gendisc::gdt::{Family, Gdt, GdtCv};
use gendisc::generative::{
    Balls1, Balls2, BernoulliNb, CategoricalNb, GaussianNb, Lda, MultinomialNb, Qda,
};
use gendisc::hybrid::{Hybrid, SparseHybrid};
use gendisc::ndarray::{Array2, ArrayView2};
use gendisc::prelude::*;
use gendisc_bilevel::{BilevelClassifier, GenerativePrior};
use serde::{Deserialize, Serialize};

/// The committed rows and what the golden model predicts for them.
#[derive(Debug, Serialize, Deserialize)]
struct Expected {
    rows: Array2<f64>,
    labels: Vec<String>,
    /// `None` for classifiers without probabilities.
    proba: Option<Array2<f64>>,
}

/// What a golden check needs of a model besides [`SavedModel`]: its probabilities, when it has
/// them.
trait Golden: SavedModel + Clone {
    fn proba(&self, x: ArrayView2<'_, f64>) -> Option<Array2<f64>>;
}

macro_rules! golden_with_proba {
    ($($model:ty),*) => {$(
        impl Golden for $model {
            fn proba(&self, x: ArrayView2<'_, f64>) -> Option<Array2<f64>> {
                Some(ConditionalModel::predict_proba(self, x).expect("probabilities of a golden model"))
            }
        }
    )*};
}

golden_with_proba!(
    GaussianNb,
    BernoulliNb,
    CategoricalNb,
    MultinomialNb,
    Lda,
    Qda,
    Balls1,
    Balls2,
    LogisticRegression,
    LogisticRegressionCv,
    Hybrid<GaussianNb>,
    Hybrid<BernoulliNb>,
    Hybrid<CategoricalNb>,
    Hybrid<MultinomialNb>,
    SparseHybrid,
    Gdt,
    GdtCv
);

impl Golden for LinearSvm {
    fn proba(&self, _: ArrayView2<'_, f64>) -> Option<Array2<f64>> {
        None
    }
}

impl Golden for BilevelClassifier {
    fn proba(&self, _: ArrayView2<'_, f64>) -> Option<Array2<f64>> {
        None
    }
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn blessing() -> bool {
    std::env::var_os("GENDISC_BLESS_GOLDEN").is_some()
}

/// The text of a model file with its `gendisc_version` value blanked, so that a release does not
/// change every golden file.
fn without_version(text: &str) -> String {
    text.replace(
        &format!("\"gendisc_version\": \"{GENDISC_VERSION}\""),
        "\"gendisc_version\": \"*\"",
    )
}

/// Twenty-four rows of three real features in two classes ("no", "yes"), made by a formula
/// (no random generator, so the rows are the same on every platform and version).
fn real_rows() -> (Array2<f64>, Vec<String>) {
    let x = Array2::from_shape_fn((24, 3), |(i, j)| {
        let shift = if i % 2 == 0 { -0.8 } else { 0.8 };
        let wiggle = ((i * 7 + j * 3) % 11) as f64 / 11.0 - 0.5;
        if j == 0 {
            shift + wiggle
        } else {
            0.5 * shift * (j as f64) + wiggle
        }
    });
    let y = (0..24)
        .map(|i| if i % 2 == 0 { "no" } else { "yes" }.to_owned())
        .collect();
    (x, y)
}

/// New rows to predict, between and around the two classes.
fn new_rows(x: &Array2<f64>) -> Array2<f64> {
    Array2::from_shape_fn((6, x.ncols()), |(i, j)| {
        x[[i, j]] * 0.5 + (i as f64 - 2.5) * 0.1
    })
}

/// The rows mapped to 0/1 (Bernoulli), to levels 0..3 (categorical) or to counts (multinomial).
fn binary(x: &Array2<f64>) -> Array2<f64> {
    x.mapv(|v| f64::from(u8::from(v > 0.0)))
}

fn levels(x: &Array2<f64>) -> Array2<f64> {
    x.mapv(|v| ((v + 2.0).max(0.0).floor()).min(2.0))
}

fn counts(x: &Array2<f64>) -> Array2<f64> {
    x.mapv(|v| (3.0 * (v + 1.5)).max(0.0).round())
}

/// The labels, and the probabilities within 1e-12, of `model` on the committed rows are the
/// committed ones.
fn check_predictions<M: Golden>(what: &str, model: &LabelledModel<M>, expected: &Expected) {
    assert_eq!(
        model.predict(expected.rows.view()).unwrap(),
        expected.labels,
        "{what}: labels"
    );
    match (model.model().proba(expected.rows.view()), &expected.proba) {
        (Some(proba), Some(want)) => {
            for ((i, j), &p) in proba.indexed_iter() {
                assert!(
                    (p - want[[i, j]]).abs() <= 1e-12,
                    "{what}: probability of row {i}, class {j}: {p} vs {}",
                    want[[i, j]]
                );
            }
        }
        (None, None) => {}
        (got, want) => panic!("{what}: probabilities {got:?} vs golden {want:?}"),
    }
}

/// Checks (or, when blessing, writes) the golden file of `M`'s kind for the model `fit` makes on
/// `x`, `y`, predicting `rows`.
fn golden<M: Golden>(
    fit: impl Fn(ArrayView2<'_, f64>, &[String]) -> Result<LabelledModel<M>>,
    x: &Array2<f64>,
    y: &[String],
    rows: Array2<f64>,
) {
    let model_path = golden_dir().join(format!("{}.json", M::KIND));
    let expected_path = golden_dir().join(format!("{}.expected.json", M::KIND));
    if blessing() {
        let model = fit(x.view(), y)
            .unwrap_or_else(|e| panic!("{}: fit: {e}", M::KIND))
            .with_feature_names((0..x.ncols()).map(|j| format!("x{j}")).collect::<Vec<_>>())
            .unwrap();
        fs::create_dir_all(golden_dir()).unwrap();
        model.save(&model_path).unwrap();
        let expected = Expected {
            labels: model.predict(rows.view()).unwrap(),
            proba: model.model().proba(rows.view()),
            rows,
        };
        let text = serde_json::to_string_pretty(&expected).unwrap();
        fs::write(&expected_path, text + "\n").unwrap();
        return;
    }

    let expected: Expected =
        serde_json::from_str(&fs::read_to_string(&expected_path).unwrap()).unwrap();
    // The files of format version 1, as that version wrote them, still load and predict what
    // they predicted then.
    let v1_path = golden_dir().join("v1").join(format!("{}.json", M::KIND));
    let v1 = LabelledModel::<M>::load(&v1_path).unwrap_or_else(|e| {
        panic!(
            "{}: the version-1 golden file no longer loads: {e}",
            M::KIND
        )
    });
    let v1_expected: Expected = serde_json::from_str(
        &fs::read_to_string(
            golden_dir()
                .join("v1")
                .join(format!("{}.expected.json", M::KIND)),
        )
        .unwrap(),
    )
    .unwrap();
    check_predictions(&format!("{} (version 1)", M::KIND), &v1, &v1_expected);
    let loaded = LabelledModel::<M>::load(&model_path)
        .unwrap_or_else(|e| panic!("{}: the golden file no longer loads: {e}", M::KIND));
    check_predictions(M::KIND, &loaded, &expected);

    let rewritten = std::env::temp_dir().join(format!(
        "gendisc-golden-{}-{}.json",
        M::KIND,
        std::process::id()
    ));
    loaded.save(&rewritten).unwrap();
    let written = fs::read_to_string(&rewritten).unwrap();
    fs::remove_file(&rewritten).unwrap();
    let committed = fs::read_to_string(&model_path).unwrap();
    assert!(
        without_version(&written) == without_version(&committed),
        "{}: writing the golden model back changed its text; if the format change is \
         deliberate, bless the golden files (see this file's documentation)",
        M::KIND
    );
}

#[test]
fn generative_models() {
    let (x, y) = real_rows();
    let rows = new_rows(&x);
    golden(
        |x, y| LabelledModel::fit(&GaussianNb::params(), x, y),
        &x,
        &y,
        rows.clone(),
    );
    golden(
        |x, y| LabelledModel::fit(&Lda::params(), x, y),
        &x,
        &y,
        rows.clone(),
    );
    golden(
        |x, y| LabelledModel::fit(&Qda::params(), x, y),
        &x,
        &y,
        rows.clone(),
    );
    golden(
        |x, y| LabelledModel::fit(&Balls1::params(), x, y),
        &x,
        &y,
        rows.clone(),
    );
    golden(
        |x, y| LabelledModel::fit(&Balls2::params().seed(1), x, y),
        &x,
        &y,
        rows.clone(),
    );
    golden(
        |x, y| LabelledModel::fit(&BernoulliNb::params(), x, y),
        &binary(&x),
        &y,
        binary(&rows),
    );
    golden(
        |x, y| LabelledModel::fit(&CategoricalNb::params(), x, y),
        &levels(&x),
        &y,
        levels(&rows),
    );
    golden(
        |x, y| LabelledModel::fit(&MultinomialNb::params(), x, y),
        &counts(&x),
        &y,
        counts(&rows),
    );
}

#[test]
fn discriminative_models() {
    let (x, y) = real_rows();
    let rows = new_rows(&x);
    golden(
        |x, y| LabelledModel::fit(&LogisticRegression::params(), x, y),
        &x,
        &y,
        rows.clone(),
    );
    golden(
        |x, y| LabelledModel::fit(&LogisticRegressionCv::params().n_folds(3), x, y),
        &x,
        &y,
        rows.clone(),
    );
    golden(
        |x, y| LabelledModel::fit(&LinearSvm::params(), x, y),
        &x,
        &y,
        rows,
    );
}

#[test]
fn hybrids() {
    let (x, y) = real_rows();
    let rows = new_rows(&x);
    golden(
        |x, y| LabelledModel::fit(&Hybrid::params(GaussianNb::params()), x, y),
        &x,
        &y,
        rows.clone(),
    );
    golden(
        |x, y| LabelledModel::fit(&Hybrid::params(BernoulliNb::params()), x, y),
        &binary(&x),
        &y,
        binary(&rows),
    );
    golden(
        |x, y| LabelledModel::fit(&Hybrid::params(CategoricalNb::params()), x, y),
        &levels(&x),
        &y,
        levels(&rows),
    );
    golden(
        |x, y| LabelledModel::fit(&Hybrid::params(MultinomialNb::params()), x, y),
        &counts(&x),
        &y,
        counts(&rows),
    );
    // The text hybrid: two regions of a three-word vocabulary, side by side in each row.
    let words = counts(&x);
    let documents = gendisc::ndarray::concatenate(
        gendisc::ndarray::Axis(1),
        &[words.view(), words.mapv(|c| (c - 1.0).max(0.0)).view()],
    )
    .unwrap();
    let new_words = counts(&rows);
    let new_documents = gendisc::ndarray::concatenate(
        gendisc::ndarray::Axis(1),
        &[
            new_words.view(),
            new_words.mapv(|c| (c - 1.0).max(0.0)).view(),
        ],
    )
    .unwrap();
    golden(
        |x, y| {
            let (classes, encoded) = ClassLabels::fit(y)?;
            let (subject, body) = (
                x.slice(gendisc::ndarray::s![.., ..3]),
                x.slice(gendisc::ndarray::s![.., 3..]),
            );
            let subject = sprs::CsMat::csr_from_dense(subject, 0.0);
            let body = sprs::CsMat::csr_from_dense(body, 0.0);
            let model = Hybrid::params(MultinomialNb::params())
                .fit_sparse(&[subject.view(), body.view()], encoded.view())?;
            LabelledModel::new(model, classes, None)
        },
        &documents,
        &y,
        new_documents,
    );
}

#[test]
fn trade_off_models() {
    let (x, y) = real_rows();
    let rows = new_rows(&x);
    golden(
        |x, y| LabelledModel::fit(&Gdt::params(Family::Lda).lambda(0.5), x, y),
        &x,
        &y,
        rows.clone(),
    );
    golden(
        |x, y| {
            LabelledModel::fit(
                &GdtCv::params(Family::Balls1)
                    .grid(vec![1.0, 0.5, 0.0])
                    .n_folds(3),
                x,
                y,
            )
        },
        &x,
        &y,
        rows,
    );
}

#[test]
fn bilevel_classifier() {
    let (x, y) = real_rows();
    let rows = new_rows(&x);
    let prior = GenerativePrior::diagonal(
        [
            gendisc::ndarray::Array1::from(vec![-0.8, -0.4, -0.8]),
            gendisc::ndarray::Array1::from(vec![0.8, 0.4, 0.8]),
        ],
        [
            gendisc::ndarray::Array1::from_elem(3, 0.1),
            gendisc::ndarray::Array1::from_elem(3, 0.1),
        ],
    )
    .unwrap();
    golden(
        |x, y| LabelledModel::fit(&BilevelClassifier::params(prior.clone()), x, y),
        &x,
        &y,
        rows,
    );
}
