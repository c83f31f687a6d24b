//! Model files of the hybrids: a hybrid over every generative model it is fitted with, and the
//! text hybrid, survive a save and a load bit for bit, and every invariant a fit guarantees —
//! the generative model's own included — is checked when a damaged file is read, with an error
//! that names the field.

use std::fmt::Debug;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use gendisc_core::{ClassLabels, ConditionalModel, Error, Fit, LabelledModel, SavedModel};
use gendisc_generative::{BernoulliNb, CategoricalNb, GaussianNb, MultinomialNb};
use gendisc_hybrid::{Hybrid, Intercept, Normalization, SparseHybrid, ThetaSolver};
use ndarray::{concatenate, Array1, Array2, Axis};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use serde_json::{json, Value};
use sprs::CsMat;

/// A file name of its own for every save of the test run.
fn temp_path(name: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "gendisc-hybrid-{name}-{}-{n}.json",
        std::process::id()
    ))
}

/// 60 rows of 4 features whose distribution depends on the class, made discrete by `map`.
fn data(n_classes: usize, map: impl Fn(f64) -> f64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let y = Array1::from_shape_fn(60, |i| i % n_classes);
    let x = Array2::from_shape_fn((60, 4), |(i, j)| {
        map(0.8 * y[i] as f64 * ((j % 2) as f64 - 0.3) + rng.sample::<f64, _>(StandardNormal))
    });
    (x, y)
}

fn gaussian(n_classes: usize) -> (Array2<f64>, Array1<usize>) {
    data(n_classes, |v| v)
}

fn binary() -> (Array2<f64>, Array1<usize>) {
    data(2, |v| f64::from(v > 0.0))
}

fn categories() -> (Array2<f64>, Array1<usize>) {
    data(2, |v| (v.clamp(-1.4, 1.4) + 1.5).floor())
}

fn counts() -> (Array2<f64>, Array1<usize>) {
    data(2, |v| (2.0 * v + 2.0).max(0.0).round())
}

fn regions() -> Vec<Vec<usize>> {
    vec![vec![0, 1], vec![2, 3]]
}

fn labels(n_classes: usize) -> ClassLabels<String> {
    ClassLabels::new(
        ["comp.graphics", "rec.autos", "sci.space"]
            .into_iter()
            .take(n_classes)
            .map(String::from),
    )
    .unwrap()
}

/// Saves `model` with its labels and feature names, loads it back, checks that its
/// probabilities on `x` are bit for bit the same, and hands over the file's JSON.
fn round_trip<M>(name: &str, model: M, names: Vec<String>, x: &Array2<f64>) -> Value
where
    M: SavedModel + ConditionalModel + Clone + PartialEq + Debug,
{
    let n_classes = model.n_classes();
    let labelled = LabelledModel::new(model, labels(n_classes), Some(names)).unwrap();
    let path = temp_path(name);
    labelled.save(&path).unwrap();
    let loaded = LabelledModel::<M>::load(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(loaded, labelled, "{name}: the loaded model differs");
    let p = labelled.predict_proba(x.view()).unwrap();
    let q = loaded.predict_proba(x.view()).unwrap();
    assert!(
        p.iter().zip(&q).all(|(a, b)| a.to_bits() == b.to_bits()),
        "{name}: probabilities changed"
    );
    assert_eq!(
        loaded.predict(x.view()).unwrap(),
        labelled.predict(x.view()).unwrap()
    );
    let file: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(file["kind"], M::KIND);
    file
}

fn feature_names(n: usize) -> Vec<String> {
    (0..n).map(|j| format!("x{j}")).collect()
}

/// What reading a damaged file must fail with.
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// `Error::InvalidModelFile` whose source is `Error::InvalidModel` naming this field.
    Field(&'static str),
    /// `Error::Parse` whose message contains this text.
    Parse(&'static str),
}

/// One way of damaging a saved file.
struct Case {
    name: &'static str,
    edit: fn(&mut Value),
    expect: Expect,
}

/// Writes each damaged version of `file`, reads it as an `M`, and checks the error.
fn check_cases<M>(model: &str, file: &Value, cases: &[Case])
where
    M: SavedModel + Clone + Debug,
{
    for case in cases {
        let mut damaged = file.clone();
        (case.edit)(&mut damaged);
        let path = temp_path("damaged");
        std::fs::write(&path, serde_json::to_string_pretty(&damaged).unwrap()).unwrap();
        let result = LabelledModel::<M>::load(&path);
        std::fs::remove_file(&path).unwrap();
        let err = match result {
            Ok(loaded) => panic!("{model}, {}: loaded {loaded:?}", case.name),
            Err(err) => err,
        };
        match (case.expect, &err) {
            (Expect::Field(want), Error::InvalidModelFile { path: p, source }) => {
                assert_eq!(p, &path, "{model}, {}: another file named", case.name);
                match source.as_ref() {
                    Error::InvalidModel { field, .. } => {
                        assert_eq!(field, want, "{model}, {}: {err}", case.name)
                    }
                    other => panic!(
                        "{model}, {}: expected InvalidModel, got {other:?}",
                        case.name
                    ),
                }
            }
            (Expect::Parse(want), Error::Parse { message, .. }) => {
                assert!(message.contains(want), "{model}, {}: {err}", case.name)
            }
            (expect, _) => panic!("{model}, {}: expected {expect:?}, got {err:?}", case.name),
        }
    }
}

fn set(v: &mut Value, pointer: &str, value: Value) {
    *v.pointer_mut(pointer)
        .unwrap_or_else(|| panic!("no {pointer} in the file")) = value;
}

/// Damages that concern the envelope, the same for every hybrid.
fn envelope_cases() -> Vec<Case> {
    vec![
        Case {
            name: "a newer format version",
            edit: |v| v["format_version"] = json!(99),
            expect: Expect::Field("format_version"),
        },
        Case {
            name: "another kind",
            edit: |v| v["kind"] = json!("hybrid"),
            expect: Expect::Field("kind"),
        },
        Case {
            name: "unsorted labels",
            edit: |v| {
                v["labels"].as_array_mut().unwrap().reverse();
            },
            expect: Expect::Field("labels"),
        },
        Case {
            name: "a label too many",
            edit: |v| {
                let labels = v["labels"].as_array_mut().unwrap();
                labels.push(json!("talk.politics"));
            },
            expect: Expect::Field("labels"),
        },
        Case {
            name: "a feature name short",
            edit: |v| {
                v["feature_names"].as_array_mut().unwrap().pop();
            },
            expect: Expect::Field("feature_names"),
        },
        Case {
            name: "an unknown normalization",
            edit: |v| v["model"]["normalization"] = json!("Sideways"),
            expect: Expect::Parse("Sideways"),
        },
        Case {
            name: "null in the region weights",
            edit: |v| set(v, "/model/region_weights/data/0", Value::Null),
            expect: Expect::Parse("null"),
        },
        Case {
            name: "a class term per generative class, but three labels and terms",
            edit: |v| {
                set(v, "/labels", json!(["a", "b", "c"]));
                set(v, "/model/class_intercepts/dim", json!([3]));
                let terms = v["model"]["class_intercepts"]["data"]
                    .as_array_mut()
                    .unwrap();
                terms.push(json!(0.0));
            },
            expect: Expect::Field("class_intercepts"),
        },
        Case {
            name: "an unnormalised prior in the generative model",
            edit: |v| set(v, "/model/generative/log_prior/data/0", json!(0.0)),
            expect: Expect::Field("generative.log_prior"),
        },
        Case {
            name: "an aliased region that does not exist",
            edit: |v| set(v, "/model/report/aliased_regions", json!([7])),
            expect: Expect::Field("report"),
        },
        Case {
            name: "an aliased region with a weight",
            edit: |v| {
                set(v, "/model/report/aliased_regions", json!([0]));
                set(v, "/model/region_weights/data/0", json!(1.5));
            },
            expect: Expect::Field("region_weights"),
        },
    ]
}

/// Damages to the regions of a dense hybrid (two regions of two features).
fn region_cases() -> Vec<Case> {
    vec![
        Case {
            name: "overlapping regions",
            edit: |v| set(v, "/model/regions", json!([[0, 1], [1, 2]])),
            expect: Expect::Field("regions"),
        },
        Case {
            name: "a region beyond the features",
            edit: |v| set(v, "/model/regions", json!([[0, 1], [2, 9]])),
            expect: Expect::Field("regions"),
        },
        Case {
            name: "an empty region",
            edit: |v| set(v, "/model/regions", json!([[0, 1], []])),
            expect: Expect::Field("regions"),
        },
        Case {
            name: "no regions",
            edit: |v| {
                set(v, "/model/regions", json!([]));
                set(
                    v,
                    "/model/region_weights",
                    json!({"v": 1, "dim": [0], "data": []}),
                );
            },
            expect: Expect::Field("regions"),
        },
        Case {
            name: "a region weight too many",
            edit: |v| {
                set(v, "/model/region_weights/dim", json!([3]));
                let weights = v["model"]["region_weights"]["data"].as_array_mut().unwrap();
                weights.push(json!(1.0));
            },
            expect: Expect::Field("region_weights"),
        },
        Case {
            name: "a negative region index",
            edit: |v| set(v, "/model/regions", json!([[0, -1], [2, 3]])),
            expect: Expect::Parse("-1"),
        },
    ]
}

#[test]
fn hybrids_over_each_generative_model() {
    let (x, y) = gaussian(2);
    let hybrid = Hybrid::params(GaussianNb::params())
        .regions(regions())
        .fit(x.view(), y.view())
        .unwrap();
    let file = round_trip("gaussian", hybrid, feature_names(4), &x);
    assert_eq!(file["kind"], "hybrid-gaussian-naive-bayes");
    assert_eq!(file["fit"]["converged"], true);
    assert!(file["fit"]["status"].as_str().unwrap().contains("Glm"));
    let mut cases = envelope_cases();
    cases.extend(region_cases());
    cases.push(Case {
        name: "a negative variance in the generative model",
        edit: |v| set(v, "/model/generative/variances/data/0", json!(-1.0)),
        expect: Expect::Field("generative.variances"),
    });
    check_cases::<Hybrid<GaussianNb>>("gaussian", &file, &cases);

    // A file of a hybrid over one generative model is not read as a hybrid over another.
    let path = temp_path("gaussian-as-bernoulli");
    std::fs::write(&path, file.to_string()).unwrap();
    let err = LabelledModel::<Hybrid<BernoulliNb>>::load(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    match err {
        Error::InvalidModelFile { source, .. } => assert!(
            matches!(*source, Error::InvalidModel { ref field, .. } if field == "kind"),
            "{source}"
        ),
        other => panic!("expected InvalidModelFile, got {other:?}"),
    }

    let (x, y) = binary();
    let hybrid = Hybrid::params(BernoulliNb::params())
        .regions(regions())
        .leave_one_out(true)
        .fit(x.view(), y.view())
        .unwrap();
    let file = round_trip("bernoulli", hybrid, feature_names(4), &x);
    check_cases::<Hybrid<BernoulliNb>>("bernoulli", &file, &envelope_cases());

    let (x, y) = categories();
    let hybrid = Hybrid::params(CategoricalNb::params())
        .regions(regions())
        .normalization(Normalization::Unnormalized)
        .prior_variance(2.0)
        .fit(x.view(), y.view())
        .unwrap();
    let file = round_trip("categorical", hybrid, feature_names(4), &x);
    check_cases::<Hybrid<CategoricalNb>>("categorical", &file, &envelope_cases());

    let (x, y) = counts();
    let hybrid = Hybrid::params(MultinomialNb::params())
        .regions(regions())
        .fit(x.view(), y.view())
        .unwrap();
    let file = round_trip("multinomial", hybrid, feature_names(4), &x);
    check_cases::<Hybrid<MultinomialNb>>("multinomial", &file, &region_cases());
}

#[test]
fn hybrids_of_each_solver_and_intercept() {
    for (n_classes, solver, intercept) in [
        (2, ThetaSolver::Newton, Intercept::Discriminative),
        (2, ThetaSolver::Multiclass, Intercept::LogPriorRatio),
        (3, ThetaSolver::Multiclass, Intercept::Discriminative),
        (3, ThetaSolver::Multiclass, Intercept::LogPriorRatio),
    ] {
        let (x, y) = gaussian(n_classes);
        let hybrid = Hybrid::params(GaussianNb::params())
            .regions(regions())
            .solver(solver)
            .intercept(intercept)
            .prior_variance(4.0)
            .fit(x.view(), y.view())
            .unwrap();
        let name = format!("{n_classes} classes, {solver:?}, {intercept:?}");
        let file = round_trip(&name, hybrid, feature_names(4), &x);
        if intercept == Intercept::LogPriorRatio {
            // The class terms are the generative model's log prior, and stay so.
            let cases = [Case {
                name: "a fixed intercept moved off the log prior",
                edit: |v| {
                    let term = v.pointer("/model/class_intercepts/data/1").unwrap();
                    let moved = term.as_f64().unwrap() + 1e-6;
                    set(v, "/model/class_intercepts/data/1", json!(moved));
                },
                expect: Expect::Field("class_intercepts"),
            }];
            check_cases::<Hybrid<GaussianNb>>(&name, &file, &cases);
        }
    }
}

/// Documents of `n` rows over a vocabulary of 5 words: a subject and a body whose counts lean
/// towards words 0–1 in class 0 and 3–4 in class 1.
fn documents(n: usize) -> (Array2<f64>, Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let y = Array1::from_shape_fn(n, |i| i % 2);
    let mut region = |scale: f64| {
        Array2::from_shape_fn((n, 5), |(i, j)| {
            let lean = if (j < 2 && y[i] == 0) || (j > 2 && y[i] == 1) {
                1.0
            } else {
                0.0
            };
            (scale * (lean + rng.random::<f64>())).floor()
        })
    };
    let subject = region(1.5);
    let body = region(4.0);
    (subject, body, y)
}

#[test]
fn text_hybrids() {
    let (subject, body, y) = documents(40);
    let (s, b) = (
        CsMat::csr_from_dense(subject.view(), 0.0),
        CsMat::csr_from_dense(body.view(), 0.0),
    );
    let hybrid = Hybrid::params(MultinomialNb::params())
        .leave_one_out(true)
        .prior_variance(1.0)
        .fit_sparse(&[s.view(), b.view()], y.view())
        .unwrap();
    // As a classifier the text hybrid reads the regions side by side, and says what its
    // sparse methods say.
    let side_by_side = concatenate![Axis(1), subject, body];
    assert_eq!(
        ConditionalModel::predict_proba(&hybrid, side_by_side.view()).unwrap(),
        hybrid.predict_proba(&[s.view(), b.view()]).unwrap()
    );
    assert!(ConditionalModel::predict_proba(&hybrid, subject.view()).is_err());
    let names = ["subject", "body"]
        .iter()
        .flat_map(|region| (0..5).map(move |w| format!("{region}:w{w}")))
        .collect();
    let file = round_trip::<SparseHybrid>("text", hybrid, names, &side_by_side);
    assert_eq!(file["kind"], "sparse-hybrid");
    assert!(file["fit"]["status"]
        .as_str()
        .unwrap()
        .contains("leave-one-out"));

    let mut cases = envelope_cases();
    cases.extend([
        Case {
            name: "no regions",
            edit: |v| {
                set(
                    v,
                    "/model/region_weights",
                    json!({"v": 1, "dim": [0], "data": []}),
                );
                v["feature_names"] = Value::Null;
            },
            expect: Expect::Field("region_weights"),
        },
        Case {
            name: "a word count below zero",
            edit: |v| set(v, "/model/generative/word_count/data/0", json!(-3.0)),
            expect: Expect::Field("generative.word_count"),
        },
    ]);
    check_cases::<SparseHybrid>("text", &file, &cases);
}
