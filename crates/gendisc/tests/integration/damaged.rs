//! A committed corpus of damaged model files, one per check a model file must pass, under
//! `tests/damaged/`, each with the error it must give (`tests/damaged/manifest.json`). Each file
//! is a golden file (`tests/golden/`) with one thing broken.
//!
//! The corpus is written from the golden files by the damage list below:
//!
//! ```text
//! GENDISC_BLESS_DAMAGED=1 cargo test -p gendisc --test integration damaged::
//! ```
//!
//! and checked as committed otherwise, so that a change to the readers that lets a damaged
//! file through, or changes what it is refused for, shows here.

use std::fs;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::strict::load_as;

/// One damaged file of the corpus.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Entry {
    /// The file, under `tests/damaged/`.
    file: String,
    /// The kind it is read as.
    kind: String,
    /// What is broken.
    damage: String,
    /// A piece of the error it must give.
    error: String,
}

/// How a file is damaged: its name, the golden kind it starts from, the kind it is read as,
/// what is broken, the edit, and a piece of the expected error.
struct Damage {
    name: &'static str,
    from: &'static str,
    read_as: &'static str,
    damage: &'static str,
    edit: fn(&mut Value) -> String,
    error: &'static str,
}

fn json_edit(f: fn(&mut Value)) -> impl Fn(&mut Value) -> String {
    move |v| {
        f(v);
        serde_json::to_string_pretty(v).unwrap() + "\n"
    }
}

/// Scales every number of the array at `pointer`'s `data`.
fn scale_data(v: &mut Value, pointer: &str, by: f64) {
    for x in v.pointer_mut(pointer).unwrap()["data"]
        .as_array_mut()
        .unwrap()
    {
        *x = json!(x.as_f64().unwrap() * by);
    }
}

fn damages() -> Vec<Damage> {
    macro_rules! edit {
        ($body:expr) => {{
            fn f(v: &mut Value) -> String {
                let g: fn(&mut Value) = $body;
                json_edit(g)(v)
            }
            f
        }};
    }
    vec![
        Damage {
            name: "truncated",
            from: "gaussian-naive-bayes",
            read_as: "gaussian-naive-bayes",
            damage: "the file ends half-way",
            error: "EOF",
            edit: |v| {
                let t = serde_json::to_string_pretty(v).unwrap();
                t[..t.len() / 2].to_owned()
            },
        },
        Damage {
            name: "not-a-model-file",
            from: "gaussian-naive-bayes",
            read_as: "gaussian-naive-bayes",
            damage: "format is not gendisc-model",
            error: "not a gendisc model file",
            edit: edit!(|v| v["format"] = json!("onnx")),
        },
        Damage {
            name: "newer-version",
            from: "gaussian-naive-bayes",
            read_as: "gaussian-naive-bayes",
            damage: "format_version 99",
            error: "version 99 is unknown",
            edit: edit!(|v| v["format_version"] = json!(99)),
        },
        Damage {
            name: "another-kind",
            from: "lda",
            read_as: "qda",
            damage: "an LDA file read as QDA",
            error: "the file holds a \"lda\" model",
            edit: edit!(|_| {}),
        },
        Damage {
            name: "relabelled-kind",
            from: "hybrid-multinomial-naive-bayes",
            read_as: "sparse-hybrid",
            damage: "a multinomial hybrid's body under the kind sparse-hybrid",
            error: "unknown field",
            edit: edit!(|v| v["kind"] = json!("sparse-hybrid")),
        },
        Damage {
            name: "unknown-envelope-field",
            from: "lda",
            read_as: "lda",
            damage: "a field the envelope does not know",
            error: "unknown field `comment`",
            edit: edit!(|v| v["comment"] = json!("hand-edited")),
        },
        Damage {
            name: "misspelt-model-field",
            from: "gdt",
            read_as: "gdt",
            damage: "GDT's `scale` spelt `scal`",
            error: "unknown field `scal`",
            edit: edit!(|v| {
                let s = v["model"]["scale"].take();
                v["model"].as_object_mut().unwrap().remove("scale");
                v["model"]["scal"] = if s.is_null() { json!(2.0) } else { s };
            }),
        },
        Damage {
            name: "unknown-report-field",
            from: "logistic-regression",
            read_as: "logistic-regression",
            damage: "a field the fit report does not know",
            error: "unknown field `note`",
            edit: edit!(|v| v["model"]["report"]["note"] = json!(1)),
        },
        Damage {
            name: "unsorted-labels",
            from: "gaussian-naive-bayes",
            read_as: "gaussian-naive-bayes",
            damage: "labels out of order",
            error: "labels",
            edit: edit!(|v| v["labels"] = json!(["yes", "no"])),
        },
        Damage {
            name: "duplicate-labels",
            from: "gaussian-naive-bayes",
            read_as: "gaussian-naive-bayes",
            damage: "one label twice",
            error: "labels",
            edit: edit!(|v| v["labels"] = json!(["no", "no"])),
        },
        Damage {
            name: "feature-names-count",
            from: "qda",
            read_as: "qda",
            damage: "two feature names for three features",
            error: "feature_names",
            edit: edit!(|v| v["feature_names"] = json!(["x0", "x1"])),
        },
        Damage {
            name: "null-parameter",
            from: "logistic-regression",
            read_as: "logistic-regression",
            damage: "a coefficient written as null",
            error: "null",
            edit: edit!(|v| v["model"]["theta"]["data"][0] = Value::Null),
        },
        Damage {
            name: "named-non-finite-parameter",
            from: "logistic-regression",
            read_as: "logistic-regression",
            damage: "a coefficient written as \"inf\" (only report numbers may be)",
            error: "invalid type",
            edit: edit!(|v| v["model"]["theta"]["data"][0] = json!("inf")),
        },
        Damage {
            name: "unknown-non-finite-name",
            from: "gdt",
            read_as: "gdt",
            damage: "a report number written as \"Infinity\"",
            error: "Infinity",
            edit: edit!(|v| v["model"]["report"]["objective"] = json!("Infinity")),
        },
        Damage {
            name: "negative-variance",
            from: "gaussian-naive-bayes",
            read_as: "gaussian-naive-bayes",
            damage: "a variance below 0",
            error: "variances",
            edit: edit!(|v| v["model"]["variances"]["data"][0] = json!(-0.5)),
        },
        Damage {
            name: "unnormalised-prior",
            from: "gaussian-naive-bayes",
            read_as: "gaussian-naive-bayes",
            damage: "class priors that do not sum to one",
            error: "log_prior",
            edit: edit!(|v| v["model"]["log_prior"]["data"][0] = json!(-0.1)),
        },
        Damage {
            name: "gdt-theta-overflows",
            from: "gdt",
            read_as: "gdt",
            damage: "θ near 1e300: finite, but its decoded precisions overflow",
            error: "theta",
            edit: edit!(|v| scale_data(v, "/model/theta", 1e300)),
        },
        Damage {
            name: "gdt-subnormal-unit",
            from: "gdt",
            read_as: "gdt",
            damage: "a unit of 1e-310",
            error: "scale",
            edit: edit!(|v| v["model"]["scale"] = json!(1e-310)),
        },
        Damage {
            name: "bilevel-weights-overflow",
            from: "bilevel",
            read_as: "bilevel",
            damage: "weights scaled by 1e200, whose squared norm overflows",
            error: "report.iterations",
            edit: edit!(|v| scale_data(v, "/model/w", 1e200)),
        },
        Damage {
            name: "wrong-shape",
            from: "lda",
            read_as: "lda",
            damage: "the class means transposed (3 × 2 for 2 classes of 3 features): shapes that disagree",
            error: "shape [2], expected [3]",
            edit: edit!(|v| v["model"]["means"]["dim"] = json!([3, 2])),
        },
    ]
}

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/damaged")
}

#[test]
fn every_damaged_file_is_refused_with_its_error() {
    let golden = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let manifest_path = corpus_dir().join("manifest.json");
    if std::env::var_os("GENDISC_BLESS_DAMAGED").is_some() {
        fs::create_dir_all(corpus_dir()).unwrap();
        let mut entries = Vec::new();
        for d in damages() {
            let mut v: Value = serde_json::from_str(
                &fs::read_to_string(golden.join(format!("{}.json", d.from))).unwrap(),
            )
            .unwrap();
            let file = format!("{}.json", d.name);
            fs::write(corpus_dir().join(&file), (d.edit)(&mut v)).unwrap();
            entries.push(Entry {
                file,
                kind: d.read_as.to_owned(),
                damage: d.damage.to_owned(),
                error: d.error.to_owned(),
            });
        }
        let text = serde_json::to_string_pretty(&entries).unwrap();
        fs::write(&manifest_path, text + "\n").unwrap();
    }
    let entries: Vec<Entry> =
        serde_json::from_str(&fs::read_to_string(&manifest_path).unwrap()).unwrap();
    assert_eq!(
        entries.len(),
        damages().len(),
        "the corpus is the damage list: bless it anew"
    );
    let mut files: Vec<String> = fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f != "manifest.json")
        .collect();
    files.sort();
    let mut listed: Vec<String> = entries.iter().map(|e| e.file.clone()).collect();
    listed.sort();
    assert_eq!(
        files, listed,
        "every file of the corpus is in the manifest, and only those"
    );
    for e in &entries {
        let error = load_as(&e.kind, &corpus_dir().join(&e.file))
            .err()
            .unwrap_or_else(|| panic!("{} ({}) loads", e.file, e.damage));
        assert!(
            error.contains(&e.error),
            "{} ({}): {error}",
            e.file,
            e.damage
        );
    }
}
