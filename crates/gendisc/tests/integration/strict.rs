//! Model files are strict: a field the format does not know is an error at every level of a
//! file, and no file loads as another kind than the one it was written as. Built on the golden
//! files (`tests/golden/`), one per kind.

use std::fs;
use std::path::{Path, PathBuf};

use gendisc::discriminative::{LinearSvm, LogisticRegression, LogisticRegressionCv};
use gendisc::gdt::{Gdt, GdtCv};
use gendisc::generative::{
    Balls1, Balls2, BernoulliNb, CategoricalNb, GaussianNb, Lda, MultinomialNb, Qda,
};
use gendisc::hybrid::{Hybrid, SparseHybrid};
use gendisc::prelude::*;
use gendisc_bilevel::BilevelClassifier;
use serde_json::Value;

/// Loads `path` as the model type of `kind`; `Err` with the error's text.
pub(crate) fn load_as(kind: &str, path: &Path) -> Result<(), String> {
    fn load<M: SavedModel + Clone>(path: &Path) -> Result<(), String> {
        LabelledModel::<M, String>::load(path)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
    match kind {
        "gaussian-naive-bayes" => load::<GaussianNb>(path),
        "bernoulli-naive-bayes" => load::<BernoulliNb>(path),
        "categorical-naive-bayes" => load::<CategoricalNb>(path),
        "multinomial-naive-bayes" => load::<MultinomialNb>(path),
        "lda" => load::<Lda>(path),
        "qda" => load::<Qda>(path),
        "balls1" => load::<Balls1>(path),
        "balls2" => load::<Balls2>(path),
        "logistic-regression" => load::<LogisticRegression>(path),
        "logistic-regression-cv" => load::<LogisticRegressionCv>(path),
        "linear-svm" => load::<LinearSvm>(path),
        "hybrid-gaussian-naive-bayes" => load::<Hybrid<GaussianNb>>(path),
        "hybrid-bernoulli-naive-bayes" => load::<Hybrid<BernoulliNb>>(path),
        "hybrid-categorical-naive-bayes" => load::<Hybrid<CategoricalNb>>(path),
        "hybrid-multinomial-naive-bayes" => load::<Hybrid<MultinomialNb>>(path),
        "sparse-hybrid" => load::<SparseHybrid>(path),
        "gdt" => load::<Gdt>(path),
        "gdt-cv" => load::<GdtCv>(path),
        "bilevel" => load::<BilevelClassifier>(path),
        other => panic!("no type for kind {other:?}: add it to this test"),
    }
}

/// Every golden file: its kind and its JSON.
fn golden_files() -> Vec<(String, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut out: Vec<(String, Value)> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter(|p| !p.to_string_lossy().ends_with(".expected.json"))
        .map(|p| {
            let json: Value = serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
            (json["kind"].as_str().unwrap().to_owned(), json)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(out.len(), 19, "one golden file per kind");
    out
}

/// The JSON pointers of every object in `value`.
fn objects(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            out.push(at.clone());
            for (k, v) in map {
                objects(v, format!("{at}/{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                objects(v, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn write(json: &Value, name: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("gendisc-strict-{}-{name}.json", std::process::id()));
    fs::write(&path, serde_json::to_string_pretty(json).unwrap()).unwrap();
    path
}

#[test]
fn an_unknown_field_is_an_error_at_every_level() {
    for (kind, json) in golden_files() {
        let path = write(&json, &kind);
        load_as(&kind, &path).unwrap_or_else(|e| panic!("{kind}: the golden file: {e}"));
        let mut pointers = Vec::new();
        objects(&json, String::new(), &mut pointers);
        for pointer in pointers {
            let mut damaged = json.clone();
            damaged
                .pointer_mut(&pointer)
                .unwrap()
                .as_object_mut()
                .unwrap()
                .insert("unexpected_field".to_owned(), Value::from(1));
            fs::write(&path, serde_json::to_string_pretty(&damaged).unwrap()).unwrap();
            let error = load_as(&kind, &path)
                .err()
                .unwrap_or_else(|| panic!("{kind}: an unknown field at {pointer:?} loads"));
            assert!(
                error.contains("unexpected_field"),
                "{kind} at {pointer:?}: {error}"
            );
        }
        fs::remove_file(&path).unwrap();
    }
}

#[test]
fn no_file_loads_as_another_kind() {
    let files = golden_files();
    for (kind, json) in &files {
        for (other, _) in &files {
            if other == kind {
                continue;
            }
            let mut relabelled = json.clone();
            relabelled["kind"] = Value::from(other.as_str());
            let path = write(&relabelled, &format!("{kind}-as-{other}"));
            let loaded = load_as(other, &path);
            fs::remove_file(&path).unwrap();
            assert!(
                loaded.is_err(),
                "a {kind} body relabelled {other:?} loads as one"
            );
        }
    }
}
