//! Model files of the bilevel classifier: a saved model loads back to bit-identical decisions,
//! and a file that breaks an invariant of the fit is refused with an error naming the field.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use gendisc_bilevel::{BilevelClassifier, BilevelParams, FitStatus, GenerativePrior};
use gendisc_core::{ClassLabels, Error, Fit, LabelledModel, SavedModel};
use ndarray::{Array1, Array2};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};
use serde_json::{json, Value};

/// `m` rows per class from N(∓1.2 e₁, 0.7² I) in three dimensions, labelled −1 and +1.
fn data(m: usize, seed: u64) -> (Array2<f64>, Vec<i32>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let x = Array2::from_shape_fn((2 * m, 3), |(i, j)| {
        let z: f64 = StandardNormal.sample(&mut rng);
        let centre = if i % 2 == 1 { 1.2 } else { -1.2 };
        0.7 * z + if j == 0 { centre } else { 0.0 }
    });
    let y = (0..2 * m)
        .map(|i| if i % 2 == 1 { 1 } else { -1 })
        .collect();
    (x, y)
}

fn prior() -> GenerativePrior {
    GenerativePrior::diagonal(
        [
            Array1::from(vec![-1.0, 0.0, 0.0]),
            Array1::from(vec![1.0, 0.0, 0.0]),
        ],
        [Array1::from_elem(3, 0.05), Array1::from_elem(3, 0.05)],
    )
    .unwrap()
}

fn feature_names() -> Vec<String> {
    ["alpha", "beta", "gamma"].map(String::from).to_vec()
}

/// A fresh file name under the temporary directory, unique to this process and call.
fn temp_file() -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "gendisc-bilevel-model-file-{}-{}.json",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ))
}

/// What reading a corrupted file must fail with.
#[derive(Debug, Clone, Copy)]
enum Expected {
    /// [`Error::InvalidModelFile`] whose source is [`Error::InvalidModel`] for this field.
    Invalid(&'static str),
    /// [`Error::Parse`] whose message contains this text (serde refused the file first).
    Parse(&'static str),
}

/// One corruption of a saved file: its name, the edit and the error it must cause.
type Corruption = (&'static str, fn(&mut Value), Expected);

/// Drops the last entry of the ndarray vector at `v` (its data and its `dim`).
fn shorten(v: &mut Value) {
    v["data"].as_array_mut().unwrap().pop();
    let n = v["dim"][0].as_u64().unwrap();
    v["dim"][0] = json!(n - 1);
}

fn corruptions() -> Vec<Corruption> {
    vec![
        (
            "null weight",
            |v| v["model"]["w"]["data"][0] = Value::Null,
            Expected::Parse("null"),
        ),
        (
            "null intercept",
            |v| v["model"]["b"] = Value::Null,
            Expected::Parse("null"),
        ),
        (
            "no weights and no feature names",
            |v| {
                v["model"]["w"] = json!({ "v": 1, "dim": [0], "data": [] });
                v["feature_names"] = json!([]);
            },
            Expected::Invalid("w"),
        ),
        (
            "one weight short",
            |v| shorten(&mut v["model"]["w"]),
            Expected::Invalid("feature_names"),
        ),
        (
            // ‖w‖² overflows; the norm check must not read ∞ > 1e-12 · ∞ as false.
            "weights scaled to 1e200",
            |v| {
                for w in v["model"]["w"]["data"].as_array_mut().unwrap() {
                    *w = json!(w.as_f64().unwrap() * 1e200);
                }
            },
            Expected::Invalid("report.iterations"),
        ),
        (
            "μ₁ one entry short",
            |v| shorten(&mut v["model"]["mu"][0]),
            Expected::Invalid("mu"),
        ),
        (
            "μ₂ one entry short",
            |v| shorten(&mut v["model"]["mu"][1]),
            Expected::Invalid("mu"),
        ),
        (
            "a weight changed after the fit",
            |v| {
                let w0 = v["model"]["w"]["data"][0].as_f64().unwrap();
                v["model"]["w"]["data"][0] = json!(2.0 * w0 + 1.0);
            },
            Expected::Invalid("report.iterations"),
        ),
        (
            "no alternation recorded",
            |v| v["model"]["report"]["iterations"] = json!([]),
            Expected::Invalid("report.iterations"),
        ),
        (
            "a negative objective",
            |v| v["model"]["report"]["iterations"][0]["objective"] = json!(-1.0),
            Expected::Invalid("report.iterations"),
        ),
        (
            "a change at the first alternation",
            |v| v["model"]["report"]["iterations"][0]["change"] = json!(0.5),
            Expected::Invalid("report.iterations"),
        ),
        (
            "an unknown status",
            |v| v["model"]["report"]["status"] = json!("Diverged"),
            Expected::Parse("Diverged"),
        ),
        (
            "unknown format version",
            |v| v["format_version"] = json!(99),
            Expected::Invalid("format_version"),
        ),
        (
            "another kind",
            |v| v["kind"] = json!("gdt"),
            Expected::Invalid("kind"),
        ),
        (
            "unsorted labels",
            |v| v["labels"] = json!([1, -1]),
            Expected::Invalid("labels"),
        ),
        (
            "three labels for two classes",
            |v| v["labels"] = json!([-1, 0, 1]),
            Expected::Invalid("labels"),
        ),
        (
            "two feature names for three features",
            |v| v["feature_names"] = json!(["alpha", "beta"]),
            Expected::Invalid("feature_names"),
        ),
    ]
}

#[test]
fn soft_and_hard_margin_models_round_trip_and_refuse_corrupted_files() {
    let (x, y) = data(10, 1);
    let (labels, encoded) = ClassLabels::fit(&y).unwrap();
    let fits: [(&str, BilevelParams); 3] = [
        ("soft margin", BilevelClassifier::params(prior())),
        (
            "soft margin, finite C₃",
            BilevelClassifier::params(prior()).soft_margin(0.5, 2.0, 1.0),
        ),
        (
            "hard margin, far apart",
            BilevelClassifier::params(prior()).hard_margin().beta(0.1),
        ),
    ];
    for (name, params) in fits {
        let x = if name.contains("hard") {
            // Separable: the classes moved apart along the first axis.
            let mut x = x.clone();
            for (i, mut row) in x.rows_mut().into_iter().enumerate() {
                row[0] += if encoded[i] == 1 { 4.0 } else { -4.0 };
            }
            x
        } else {
            x.clone()
        };
        let model = params.fit(x.view(), encoded.view()).unwrap();
        assert_eq!(model.report().status, FitStatus::Converged, "{name}");
        assert!(model.report().n_iterations() >= 2, "{name}");

        let labelled = LabelledModel::new(model, labels.clone(), Some(feature_names())).unwrap();
        let path = temp_file();
        labelled.save(&path).unwrap();
        let loaded = LabelledModel::<BilevelClassifier, i32>::load(&path).unwrap();
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        std::fs::remove_file(&path).unwrap();

        assert_eq!(loaded.model(), labelled.model(), "{name}");
        assert_eq!(loaded.labels(), &[-1, 1]);
        assert_eq!(
            loaded.predict(x.view()).unwrap(),
            labelled.predict(x.view()).unwrap()
        );
        let before = labelled.model().decision_function(x.view()).unwrap();
        let after = loaded.model().decision_function(x.view()).unwrap();
        for (a, b) in before.iter().zip(&after) {
            assert_eq!(a.to_bits(), b.to_bits(), "{name}: {a} vs {b}");
        }
        assert_eq!(saved["kind"], json!("bilevel"));
        assert_eq!(saved["fit"]["converged"], json!(true));
        // The first alternation's change has no finite value: the file says "inf", and a
        // file of format version 1, which wrote null, reads the same.
        assert_eq!(
            saved["model"]["report"]["iterations"][0]["change"],
            json!("inf")
        );
        let mut v1 = saved.clone();
        v1["format_version"] = json!(1);
        v1["model"]["report"]["iterations"][0]["change"] = Value::Null;
        let v1_path =
            std::env::temp_dir().join(format!("gendisc-bilevel-v1-{}.json", std::process::id()));
        std::fs::write(&v1_path, v1.to_string()).unwrap();
        let from_v1 = LabelledModel::<BilevelClassifier, i32>::load(&v1_path);
        std::fs::remove_file(&v1_path).unwrap();
        assert_eq!(
            from_v1.unwrap().model().report().iterations[0].change,
            f64::INFINITY
        );

        for (what, corrupt, expected) in corruptions() {
            let mut value = saved.clone();
            corrupt(&mut value);
            let path = temp_file();
            std::fs::write(&path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
            let result = LabelledModel::<BilevelClassifier, i32>::load(&path);
            std::fs::remove_file(&path).unwrap();
            let error = match result {
                Ok(_) => panic!("{name}, {what}: the corrupted file was accepted"),
                Err(e) => e,
            };
            match (expected, &error) {
                (Expected::Invalid(field), Error::InvalidModelFile { path: p, source }) => {
                    assert_eq!(p, &path);
                    match source.as_ref() {
                        Error::InvalidModel { field: found, .. } => {
                            assert_eq!(found, field, "{name}, {what}: {error}")
                        }
                        other => panic!("{name}, {what}: expected `{field}`, got {other:?}"),
                    }
                }
                (Expected::Parse(text), Error::Parse { message, .. }) => {
                    assert!(message.contains(text), "{name}, {what}: {message}")
                }
                _ => panic!("{name}, {what}: expected {expected:?}, got {error:?}"),
            }
        }
    }
}

#[test]
fn a_fit_stopped_at_its_cap_says_so_in_its_file() {
    let (x, y) = data(10, 2);
    let (labels, encoded) = ClassLabels::fit(&y).unwrap();
    let model = BilevelClassifier::params(prior())
        .max_iter(1)
        .fit(x.view(), encoded.view())
        .unwrap();
    assert_eq!(model.report().status, FitStatus::MaxIterations);
    model.check_invariants().unwrap();
    let summary = model.fit_summary().unwrap();
    assert!(!summary.converged);
    assert_eq!(summary.iterations, 1);
    assert!(
        summary.status.contains("cap of 1 alternations"),
        "{}",
        summary.status
    );

    let labelled = LabelledModel::new(model, labels, Some(feature_names())).unwrap();
    let path = temp_file();
    labelled.save(&path).unwrap();
    let loaded = LabelledModel::<BilevelClassifier, i32>::load(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(loaded.model(), labelled.model());
}
