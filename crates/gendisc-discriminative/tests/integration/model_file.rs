//! Model files of the discriminative models: every kind fitted on small data survives a save and
//! a load bit for bit, and every invariant a fit guarantees is checked when a damaged file is
//! read, with an error that names the field.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use gendisc_core::{
    ClassLabels, Classifier, ConditionalModel, Error, Fit, LabelledModel, SavedModel,
};
use gendisc_core::{Convergence, ParamGuard};
use gendisc_discriminative::{LinearSvm, LogisticRegression, LogisticRegressionCv};
use ndarray::{Array1, Array2};
use serde_json::{json, Value};

/// A file name of its own for every save of the test run.
fn temp_path(name: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "gendisc-discriminative-{name}-{}-{n}.json",
        std::process::id()
    ))
}

/// Overlapping classes in two features: class `k` is centred at `k` on the first feature,
/// with a deterministic spread wide enough that no line separates them.
fn data(n_classes: usize) -> (Array2<f64>, Array1<usize>) {
    let n = 12 * n_classes;
    let x = Array2::from_shape_fn((n, 2), |(i, j)| {
        let class = (i % n_classes) as f64;
        let noise = ((i * 7 + j * 3) as f64 * 1.3).sin() * 1.5;
        if j == 0 {
            class + noise
        } else {
            0.5 * class - noise * 0.7
        }
    });
    let y = Array1::from_iter((0..n).map(|i| i % n_classes));
    (x, y)
}

/// Labels in class order, sorted as a model file requires.
fn labels(n_classes: usize) -> ClassLabels<String> {
    ClassLabels::new(
        ["ham", "spam", "tinned"]
            .into_iter()
            .take(n_classes)
            .map(String::from),
    )
    .unwrap()
}

fn feature_names() -> Vec<String> {
    vec!["length".into(), "exclamations".into()]
}

/// Saves `model` with its labels and feature names, loads it back, and hands over the file's
/// JSON for the corruption cases.
fn round_trip<M>(name: &str, model: M, n_classes: usize) -> (LabelledModel<M>, Value)
where
    M: SavedModel + Clone + PartialEq + std::fmt::Debug,
{
    let labelled = LabelledModel::new(model, labels(n_classes), Some(feature_names())).unwrap();
    let path = temp_path(name);
    labelled.save(&path).unwrap();
    let loaded = LabelledModel::<M>::load(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(loaded, labelled, "{name}: the loaded model differs");
    let (x, _) = data(n_classes);
    assert_eq!(
        loaded.predict(x.view()).unwrap(),
        labelled.predict(x.view()).unwrap()
    );
    (loaded, serde_json::from_str(&text).unwrap())
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

/// Damages that concern the envelope, the same for every kind of model.
fn envelope_cases() -> Vec<Case> {
    vec![
        Case {
            name: "a newer format version",
            edit: |v| v["format_version"] = json!(99),
            expect: Expect::Field("format_version"),
        },
        Case {
            name: "format version 0",
            edit: |v| v["format_version"] = json!(0),
            expect: Expect::Field("format_version"),
        },
        Case {
            name: "another format",
            edit: |v| v["format"] = json!("pickle"),
            expect: Expect::Field("format"),
        },
        Case {
            name: "another kind",
            edit: |v| v["kind"] = json!("gaussian-naive-bayes"),
            expect: Expect::Field("kind"),
        },
        Case {
            name: "unsorted labels",
            edit: |v| {
                let labels = v["labels"].as_array_mut().unwrap();
                labels.reverse();
            },
            expect: Expect::Field("labels"),
        },
        Case {
            name: "a repeated label",
            edit: |v| {
                let labels = v["labels"].as_array_mut().unwrap();
                labels[1] = labels[0].clone();
            },
            expect: Expect::Field("labels"),
        },
        Case {
            name: "a label too many",
            edit: |v| {
                let labels = v["labels"].as_array_mut().unwrap();
                labels.push(json!("zzz"));
            },
            expect: Expect::Field("labels"),
        },
        Case {
            name: "no labels",
            edit: |v| v["labels"] = json!([]),
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
            name: "a feature name too many",
            edit: |v| {
                let names = v["feature_names"].as_array_mut().unwrap();
                names.push(json!("colour"));
            },
            expect: Expect::Field("feature_names"),
        },
        Case {
            name: "no model",
            edit: |v| {
                v.as_object_mut().unwrap().remove("model");
            },
            expect: Expect::Parse("model"),
        },
        Case {
            name: "an unknown envelope field",
            edit: |v| v["comment"] = json!("hand-edited"),
            expect: Expect::Parse("comment"),
        },
    ]
}

/// Writes each damaged version of `file`, reads it as an `M`, and checks the error.
fn check_cases<M>(kind: &str, file: &Value, cases: &[Case])
where
    M: SavedModel + Clone + std::fmt::Debug,
{
    for case in cases {
        let mut damaged = file.clone();
        (case.edit)(&mut damaged);
        let path = temp_path("damaged");
        std::fs::write(&path, serde_json::to_string_pretty(&damaged).unwrap()).unwrap();
        let result = LabelledModel::<M>::load(&path);
        std::fs::remove_file(&path).unwrap();
        let err = match result {
            Ok(model) => panic!("{kind}, {}: loaded {model:?}", case.name),
            Err(err) => err,
        };
        match (case.expect, &err) {
            (Expect::Field(want), Error::InvalidModelFile { path: p, source }) => {
                assert_eq!(
                    p, &path,
                    "{kind}, {}: the error names another file",
                    case.name
                );
                match source.as_ref() {
                    Error::InvalidModel { field, .. } => {
                        assert_eq!(field, want, "{kind}, {}: {err}", case.name)
                    }
                    other => panic!(
                        "{kind}, {}: expected InvalidModel, got {other:?}",
                        case.name
                    ),
                }
            }
            (Expect::Parse(want), Error::Parse { message, .. }) => {
                assert!(message.contains(want), "{kind}, {}: {err}", case.name)
            }
            (expect, _) => panic!("{kind}, {}: expected {expect:?}, got {err:?}", case.name),
        }
    }
}

/// The number at `pointer` in `v`, to be set to `value`.
fn set(v: &mut Value, pointer: &str, value: Value) {
    *v.pointer_mut(pointer)
        .unwrap_or_else(|| panic!("no {pointer} in the file")) = value;
}

/// Appends `extra` entries to the ndarray at `pointer` and sets its shape to `dim`.
fn reshape(v: &mut Value, pointer: &str, dim: Value, extra: usize) {
    let array = v.pointer_mut(pointer).unwrap();
    array["dim"] = dim;
    let data = array["data"].as_array_mut().unwrap();
    data.extend(std::iter::repeat_n(json!(0.0), extra));
}

#[test]
fn logistic_regression_files() {
    for (n_classes, solver_name) in [(2, "binary"), (3, "multinomial")] {
        let (x, y) = data(n_classes);
        let model = LogisticRegression::params()
            .fit(x.view(), y.view())
            .unwrap();
        assert!(model.report().is_converged());
        let (loaded, file) = round_trip(solver_name, model.clone(), n_classes);
        let p = model.predict_proba(x.view()).unwrap();
        let q = loaded.predict_proba(x.view()).unwrap();
        assert!(
            p.iter().zip(&q).all(|(a, b)| a.to_bits() == b.to_bits()),
            "{solver_name}: probabilities changed"
        );
        // The fit's report travels with the file.
        assert_eq!(file["kind"], "logistic-regression");
        assert_eq!(file["fit"]["converged"], true);
        assert_eq!(
            file["fit"]["iterations"],
            json!(model.report().iterations),
            "{solver_name}"
        );
        check_cases::<LogisticRegression>(solver_name, &file, &envelope_cases());
    }

    // d = 2 features: θ is `K′ × 3`.
    let (x, y) = data(2);
    let binary = LogisticRegression::params()
        .fit(x.view(), y.view())
        .unwrap();
    let (_, file) = round_trip("binary", binary, 2);
    let cases = [
        Case {
            name: "a linear predictor too many",
            edit: |v| reshape(v, "/model/theta", json!([2, 3]), 3),
            expect: Expect::Field("theta"),
        },
        Case {
            name: "no feature column",
            edit: |v| {
                set(v, "/model/theta/dim", json!([1, 1]));
                set(v, "/model/theta/data", json!([0.5]));
                v["feature_names"] = Value::Null;
            },
            expect: Expect::Field("theta"),
        },
        Case {
            name: "null in theta",
            edit: |v| set(v, "/model/theta/data/0", Value::Null),
            expect: Expect::Parse("null"),
        },
        Case {
            name: "a string in theta",
            edit: |v| set(v, "/model/theta/data/0", json!("1e400")),
            expect: Expect::Parse("string"),
        },
        Case {
            name: "one class",
            edit: |v| {
                set(v, "/model/n_classes", json!(1));
                set(v, "/labels", json!(["ham"]));
            },
            expect: Expect::Field("n_classes"),
        },
        Case {
            name: "three classes in one linear predictor",
            edit: |v| {
                set(v, "/model/n_classes", json!(3));
                set(v, "/labels", json!(["a", "b", "c"]));
            },
            expect: Expect::Field("theta"),
        },
        Case {
            name: "an intercept that was not fitted",
            edit: |v| set(v, "/model/fit_intercept", json!(false)),
            expect: Expect::Field("theta"),
        },
        Case {
            name: "a positive log-likelihood",
            edit: |v| {
                set(v, "/model/report/log_likelihood", json!(1.0));
                set(v, "/model/report/deviance", json!(-2.0));
            },
            expect: Expect::Field("report"),
        },
        Case {
            name: "a deviance that is not −2 log-likelihood",
            edit: |v| {
                let deviance = v
                    .pointer("/model/report/deviance")
                    .unwrap()
                    .as_f64()
                    .unwrap();
                set(v, "/model/report/deviance", json!(deviance + 1.0));
            },
            expect: Expect::Field("report"),
        },
        Case {
            name: "an unknown solver",
            edit: |v| set(v, "/model/report/solver", json!("Simplex")),
            expect: Expect::Parse("Simplex"),
        },
    ];
    check_cases::<LogisticRegression>("binary", &file, &cases);

    let (x, y) = data(3);
    let multinomial = LogisticRegression::params()
        .prior_variance(1.0)
        .fit(x.view(), y.view())
        .unwrap();
    let (_, file) = round_trip("multinomial", multinomial, 3);
    let cases = [
        Case {
            name: "a linear predictor short",
            edit: |v| {
                set(v, "/model/theta/dim", json!([2, 3]));
                v["model"]["theta"]["data"]
                    .as_array_mut()
                    .unwrap()
                    .truncate(6);
            },
            expect: Expect::Field("theta"),
        },
        Case {
            name: "data that do not fill the shape",
            edit: |v| {
                v["model"]["theta"]["data"].as_array_mut().unwrap().pop();
            },
            expect: Expect::Parse(""),
        },
    ];
    check_cases::<LogisticRegression>("multinomial", &file, &cases);
}

#[test]
fn linear_svm_files() {
    for (n_classes, name) in [(2, "binary"), (3, "one-vs-rest")] {
        let (x, y) = data(n_classes);
        let model = LinearSvm::params().fit(x.view(), y.view()).unwrap();
        let (loaded, file) = round_trip(name, model.clone(), n_classes);
        let f = model.decision_scores(x.view()).unwrap();
        let g = loaded.model().decision_scores(x.view()).unwrap();
        assert!(
            f.iter().zip(&g).all(|(a, b)| a.to_bits() == b.to_bits()),
            "{name}: decision values changed"
        );
        assert_eq!(file["kind"], "linear-svm");
        assert_eq!(file["fit"]["converged"], json!(model.is_converged()));
        check_cases::<LinearSvm>(name, &file, &envelope_cases());
    }

    // A linear SVM checks its shapes as it is deserialised, so a damaged model is a parse
    // error whose message names the field.
    let (x, y) = data(2);
    let (_, file) = round_trip(
        "binary",
        LinearSvm::params().fit(x.view(), y.view()).unwrap(),
        2,
    );
    let cases = [
        Case {
            name: "an intercept too many",
            edit: |v| {
                set(v, "/model/intercept/dim", json!([2]));
                v["model"]["intercept"]["data"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!(0.0));
            },
            expect: Expect::Parse("`intercept`"),
        },
        Case {
            name: "a row of weights too many",
            edit: |v| reshape(v, "/model/coef", json!([2, 2]), 2),
            expect: Expect::Parse("`coef`"),
        },
        Case {
            name: "no report",
            edit: |v| set(v, "/model/reports", json!([])),
            expect: Expect::Parse("`reports`"),
        },
        Case {
            name: "one class",
            edit: |v| {
                set(v, "/model/n_classes", json!(1));
                set(v, "/labels", json!(["ham"]));
            },
            expect: Expect::Parse("`n_classes`"),
        },
        Case {
            name: "null in the weights",
            edit: |v| set(v, "/model/coef/data/1", Value::Null),
            expect: Expect::Parse("null"),
        },
        Case {
            name: "a negative class count",
            edit: |v| set(v, "/model/n_classes", json!(-2)),
            expect: Expect::Parse("-2"),
        },
    ];
    check_cases::<LinearSvm>("binary", &file, &cases);

    let (x, y) = data(3);
    let (_, file) = round_trip(
        "one-vs-rest",
        LinearSvm::params().fit(x.view(), y.view()).unwrap(),
        3,
    );
    let cases = [Case {
        name: "a one-vs-rest problem short",
        edit: |v| {
            set(v, "/model/coef/dim", json!([2, 2]));
            v["model"]["coef"]["data"]
                .as_array_mut()
                .unwrap()
                .truncate(4);
        },
        expect: Expect::Parse("`coef`"),
    }];
    check_cases::<LinearSvm>("one-vs-rest", &file, &cases);
}

#[test]
fn a_fit_stopped_at_its_cap_says_so_in_the_file() {
    let (x, y) = data(2);
    let model = LogisticRegression::params()
        .max_iterations(1)
        .fit(x.view(), y.view())
        .unwrap();
    let summary = model.fit_summary().unwrap();
    assert!(!summary.converged);
    assert_eq!(summary.iterations, 1);
    assert!(
        summary.status.contains("maximum number of iterations"),
        "{}",
        summary.status
    );

    let svm = LinearSvm::params()
        .tol(1e-12)
        .max_iter(1)
        .fit(x.view(), y.view())
        .unwrap();
    let summary = svm.fit_summary().unwrap();
    assert!(!summary.converged);
    assert!(
        summary.status.contains("stopped at max_iter"),
        "{}",
        summary.status
    );
    assert_eq!(summary.iterations, 1);
    assert_eq!(model.n_features(), 2);
}

#[test]
fn logistic_regression_cv_files() {
    let (x, y) = data(2);
    let model = LogisticRegressionCv::params()
        .n_folds(3)
        .check()
        .unwrap()
        .fit(x.view(), y.view())
        .unwrap();
    let (loaded, file) = round_trip("lr-cv", model.clone(), 2);
    assert_eq!(
        loaded.model().prior_variance().to_bits(),
        model.prior_variance().to_bits()
    );
    check_cases::<LogisticRegressionCv>("lr-cv", &file, &envelope_cases());
    let grid = "/model/selection/prior_variances";
    let cases = [
        Case {
            name: "a damaged refit",
            edit: |v| set(v, "/model/model/fit_intercept", json!(false)),
            expect: Expect::Field("model.theta"),
        },
        Case {
            name: "an empty grid",
            edit: |v| set(v, "/model/selection/prior_variances", json!([])),
            expect: Expect::Field("selection.prior_variances"),
        },
        Case {
            name: "a negative prior variance",
            edit: |v| set(v, "/model/selection/prior_variances/0", json!(-1.0)),
            expect: Expect::Field("selection.prior_variances"),
        },
        Case {
            name: "a descending grid",
            edit: |v| {
                let grid = v["model"]["selection"]["prior_variances"]
                    .as_array_mut()
                    .unwrap();
                grid.reverse();
            },
            expect: Expect::Field("selection.prior_variances"),
        },
        Case {
            name: "a score short",
            edit: |v| {
                v["model"]["selection"]["scores"]
                    .as_array_mut()
                    .unwrap()
                    .pop();
            },
            expect: Expect::Field("selection.scores"),
        },
        Case {
            name: "a choice the scores do not make",
            edit: |v| {
                let scores = v["model"]["selection"]["scores"].as_array_mut().unwrap();
                let worst = scores.len() - 1;
                scores[worst] = json!(0.0);
                for score in scores.iter_mut().take(worst) {
                    *score = json!(1.0);
                }
                set(v, "/model/selection/prior_variance", json!(1e-4));
            },
            expect: Expect::Field("selection.prior_variance"),
        },
    ];
    assert!(file.pointer(grid).is_some(), "the file has no {grid}");
    check_cases::<LogisticRegressionCv>("lr-cv", &file, &cases);
}
