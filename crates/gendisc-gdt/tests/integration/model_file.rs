//! Model files of GDT and GDT-CV: a saved model loads back to bit-identical predictions, and a
//! file that breaks an invariant of the fit is refused with an error naming the field.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use gendisc_core::{ClassLabels, Convergence, Error, Fit, LabelledModel, ParamGuard, SavedModel};
use gendisc_gdt::{Family, Gdt, GdtCv};
use ndarray::Array2;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};
use serde_json::{json, Value};

/// Two overlapping Gaussian classes in two dimensions, labelled "no" and "yes" in a mixed order.
fn data(seed: u64) -> (Array2<f64>, Vec<String>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = 40;
    let mut x = Array2::zeros((n, 2));
    let mut y = Vec::with_capacity(n);
    for i in 0..n {
        let class = (i * 7) % 3 == 0;
        for j in 0..2 {
            let z: f64 = StandardNormal.sample(&mut rng);
            x[[i, j]] = z * if class { 1.5 } else { 1.0 } + if class && j == 0 { 1.5 } else { 0.0 };
        }
        y.push(if class { "yes" } else { "no" }.to_owned());
    }
    (x, y)
}

fn feature_names() -> Vec<String> {
    vec!["height".to_owned(), "weight".to_owned()]
}

/// A fresh file name under the temporary directory, unique to this process and call.
fn temp_file(what: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "gendisc-gdt-model-file-{what}-{}-{}.json",
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

/// Fits `model` into a labelled model, saves it, loads it back and checks that predictions
/// are bit-identical; returns the saved JSON.
fn round_trip<M>(model: M, labels: &ClassLabels<String>, x: &Array2<f64>) -> Value
where
    M: SavedModel + gendisc_core::ConditionalModel + Clone + PartialEq + std::fmt::Debug,
{
    let labelled = LabelledModel::new(model, labels.clone(), Some(feature_names())).unwrap();
    let path = temp_file(M::KIND);
    labelled.save(&path).unwrap();
    let loaded = LabelledModel::<M, String>::load(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();

    assert_eq!(loaded.model(), labelled.model());
    assert_eq!(loaded.labels(), labelled.labels());
    assert_eq!(loaded.feature_names(), labelled.feature_names());
    assert_eq!(
        loaded.predict(x.view()).unwrap(),
        labelled.predict(x.view()).unwrap()
    );
    let (before, after) = (
        labelled.predict_proba(x.view()).unwrap(),
        loaded.predict_proba(x.view()).unwrap(),
    );
    for (a, b) in before.iter().zip(&after) {
        assert_eq!(a.to_bits(), b.to_bits(), "probabilities differ: {a} vs {b}");
    }
    serde_json::from_str(&text).unwrap()
}

/// Applies every corruption to `saved`, writes the result and checks the error of `load`.
fn assert_corruptions_refused<M>(saved: &Value, corruptions: &[Corruption])
where
    M: SavedModel + Clone,
{
    for (name, corrupt, expected) in corruptions {
        let mut value = saved.clone();
        corrupt(&mut value);
        let path = temp_file(M::KIND);
        std::fs::write(&path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
        let result = LabelledModel::<M, String>::load(&path);
        std::fs::remove_file(&path).unwrap();
        let error = match result {
            Ok(_) => panic!("{name}: the corrupted file was accepted"),
            Err(e) => e,
        };
        match (expected, &error) {
            (Expected::Invalid(field), Error::InvalidModelFile { path: p, source }) => {
                assert_eq!(p, &path, "{name}: the error names another file");
                match source.as_ref() {
                    Error::InvalidModel { field: found, .. } => {
                        assert_eq!(found, field, "{name}: {error}")
                    }
                    other => panic!("{name}: expected an invalid `{field}`, got {other:?}"),
                }
            }
            (Expected::Parse(text), Error::Parse { message, .. }) => {
                assert!(message.contains(text), "{name}: {message:?} lacks {text:?}")
            }
            _ => panic!("{name}: expected {expected:?}, got {error:?}"),
        }
    }
}

/// Drops the last entry of the ndarray vector at `v` (its data and its `dim`).
fn shorten(v: &mut Value) {
    v["data"].as_array_mut().unwrap().pop();
    let n = v["dim"][0].as_u64().unwrap();
    v["dim"][0] = json!(n - 1);
}

/// The corruptions of the envelope, the same for every kind of model.
fn envelope_corruptions(other_kind: &'static str) -> Vec<Corruption> {
    let mut list: Vec<Corruption> = vec![
        (
            "unknown format version",
            |v| v["format_version"] = json!(99),
            Expected::Invalid("format_version"),
        ),
        (
            "another format",
            |v| v["format"] = json!("pickle"),
            Expected::Invalid("format"),
        ),
        (
            "unsorted labels",
            |v| v["labels"] = json!(["yes", "no"]),
            Expected::Invalid("labels"),
        ),
        (
            "repeated label",
            |v| v["labels"] = json!(["no", "no"]),
            Expected::Invalid("labels"),
        ),
        (
            "three labels for two classes",
            |v| v["labels"] = json!(["maybe", "no", "yes"]),
            Expected::Invalid("labels"),
        ),
        (
            "one feature name for two features",
            |v| v["feature_names"] = json!(["height"]),
            Expected::Invalid("feature_names"),
        ),
        (
            "three feature names for two features",
            |v| v["feature_names"] = json!(["height", "weight", "age"]),
            Expected::Invalid("feature_names"),
        ),
    ];
    let wrong_kind: fn(&mut Value) = match other_kind {
        "gdt" => |v| v["kind"] = json!("gdt"),
        _ => |v| v["kind"] = json!("gdt-cv"),
    };
    list.push(("another kind", wrong_kind, Expected::Invalid("kind")));
    list
}

#[test]
fn every_family_round_trips_and_refuses_corrupted_files() {
    let (x, y) = data(3);
    let (labels, encoded) = ClassLabels::fit(&y).unwrap();
    let families = [
        Family::Lda,
        Family::Qda,
        Family::Balls1,
        Family::Balls2,
        Family::SharedDiagonal,
    ];
    let model_corruptions: Vec<Corruption> = vec![
        (
            "θ one entry short",
            |v| shorten(&mut v["model"]["theta"]),
            Expected::Parse("`theta`"),
        ),
        (
            "θ for one more feature",
            |v| v["model"]["param"]["n_features"] = json!(3),
            Expected::Parse("`theta`"),
        ),
        (
            "θ for three classes",
            |v| v["model"]["param"]["n_classes"] = json!(3),
            Expected::Parse("`theta`"),
        ),
        (
            "null in θ",
            |v| v["model"]["theta"]["data"][0] = Value::Null,
            Expected::Parse("null"),
        ),
        (
            "λ above 1",
            |v| v["model"]["report"]["lambda"] = json!(1.5),
            Expected::Parse("`report.lambda`"),
        ),
        (
            "λ below 0",
            |v| v["model"]["report"]["lambda"] = json!(-0.25),
            Expected::Parse("`report.lambda`"),
        ),
        (
            "zero scale",
            |v| v["model"]["scale"] = json!(0.0),
            Expected::Parse("`scale`"),
        ),
        (
            "negative scale",
            |v| v["model"]["scale"] = json!(-2.0),
            Expected::Parse("`scale`"),
        ),
        (
            "subnormal scale",
            |v| v["model"]["scale"] = json!(1e-310),
            Expected::Parse("`scale`"),
        ),
        (
            // Finite, but the decoded precisions (e^{2ℓ}) or squared means overflow.
            "θ near 1e300",
            |v| {
                for t in v["model"]["theta"]["data"].as_array_mut().unwrap() {
                    *t = json!(1e300);
                }
            },
            Expected::Parse("`theta`"),
        ),
        (
            "null scale",
            |v| v["model"]["scale"] = Value::Null,
            Expected::Parse("null"),
        ),
        (
            "negative variance floor",
            |v| v["model"]["param"]["variance_floor"] = json!(-1.0),
            Expected::Parse("variance_floor"),
        ),
    ];
    for family in families {
        let model = Gdt::params(family)
            .lambda(0.5)
            .fit(x.view(), encoded.view())
            .unwrap();
        assert!(model.scale() != 1.0, "the test should exercise the unit");
        let saved = round_trip(model.clone(), &labels, &x);
        assert_eq!(saved["kind"], json!("gdt"));
        assert_eq!(
            saved["fit"]["converged"],
            json!(model.report().is_converged())
        );
        assert_eq!(saved["fit"]["iterations"], json!(model.report().iterations));
        let mut corruptions = model_corruptions.clone();
        corruptions.extend(envelope_corruptions("gdt-cv"));
        assert_corruptions_refused::<Gdt>(&saved, &corruptions);
    }
}

#[test]
fn a_variance_floor_belongs_to_balls2_only() {
    let (x, y) = data(4);
    let (labels, encoded) = ClassLabels::fit(&y).unwrap();
    let balls2 = Gdt::params(Family::Balls2)
        .variance_floor(1e-3)
        .fit(x.view(), encoded.view())
        .unwrap();
    let saved = round_trip(balls2, &labels, &x);
    assert!(saved["model"]["param"]["variance_floor"].as_f64().unwrap() > 0.0);
    let corruptions: Vec<Corruption> = vec![(
        "a floor moved to Balls1",
        |v| v["model"]["param"]["family"] = json!("balls1"),
        Expected::Parse("variance_floor"),
    )];
    assert_corruptions_refused::<Gdt>(&saved, &corruptions);
}

#[test]
fn the_in_memory_check_names_the_same_fields_as_deserialisation() {
    let (x, y) = data(5);
    let (_, encoded) = ClassLabels::fit(&y).unwrap();
    let model = Gdt::params(Family::Lda)
        .fit(x.view(), encoded.view())
        .unwrap();
    model.check_invariants().unwrap();
    let mut value = serde_json::to_value(&model).unwrap();
    value["report"]["lambda"] = json!(2.0);
    let message = serde_json::from_value::<Gdt>(value)
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("invalid gdt model: `report.lambda`"),
        "{message}"
    );
}

#[test]
fn gdt_cv_round_trips_and_refuses_corrupted_files() {
    let (x, y) = data(6);
    let (labels, encoded) = ClassLabels::fit(&y).unwrap();
    for family in [Family::Lda, Family::Balls1] {
        let cv = GdtCv::params(family)
            .grid(vec![1.0, 0.5, 0.0])
            .n_folds(3)
            .check()
            .unwrap()
            .fit(x.view(), encoded.view())
            .unwrap();
        let saved = round_trip(cv.clone(), &labels, &x);
        assert_eq!(saved["kind"], json!("gdt-cv"));
        let selected = cv.lambda();
        let other_lambda = *cv
            .selection()
            .grid
            .iter()
            .find(|&&l| l != selected)
            .unwrap();
        let mut corruptions: Vec<Corruption> = vec![
            (
                "θ one entry short",
                |v| shorten(&mut v["model"]["model"]["theta"]),
                Expected::Parse("`theta`"),
            ),
            (
                "null score",
                |v| v["model"]["selection"]["scores"][0] = Value::Null,
                Expected::Parse("null"),
            ),
            (
                "one score too many",
                |v| {
                    v["model"]["selection"]["scores"]
                        .as_array_mut()
                        .unwrap()
                        .push(json!(0.5))
                },
                Expected::Invalid("selection.scores"),
            ),
            (
                "one score too few",
                |v| {
                    v["model"]["selection"]["scores"]
                        .as_array_mut()
                        .unwrap()
                        .pop();
                },
                Expected::Invalid("selection.scores"),
            ),
            (
                "negative score",
                |v| v["model"]["selection"]["scores"][1] = json!(-0.5),
                Expected::Invalid("selection.scores"),
            ),
            (
                "λ above 1 in the grid",
                |v| v["model"]["selection"]["grid"][0] = json!(1.5),
                Expected::Invalid("selection.grid"),
            ),
            (
                "ascending grid",
                |v| {
                    v["model"]["selection"]["grid"]
                        .as_array_mut()
                        .unwrap()
                        .reverse();
                    v["model"]["selection"]["scores"]
                        .as_array_mut()
                        .unwrap()
                        .reverse();
                },
                Expected::Invalid("selection.grid"),
            ),
            (
                "empty grid",
                |v| {
                    v["model"]["selection"]["grid"] = json!([]);
                    v["model"]["selection"]["scores"] = json!([]);
                },
                Expected::Invalid("selection.grid"),
            ),
            (
                "a count of fits without a maximiser short",
                |v| v["model"]["selection"]["without_maximiser"] = json!([0]),
                Expected::Invalid("selection.without_maximiser"),
            ),
            (
                "a count of folds that stopped short too long",
                |v| {
                    let n = v["model"]["selection"]["grid"].as_array().unwrap().len();
                    v["model"]["selection"]["stopped_short"] = json!(vec![0; n + 1]);
                },
                Expected::Invalid("selection.stopped_short"),
            ),
            (
                "refit outcomes short",
                |v| v["model"]["selection"]["refits"] = json!(["converged"]),
                Expected::Invalid("selection.refits"),
            ),
            (
                "a refit outcome of no such kind",
                |v| v["model"]["selection"]["refits"][0] = json!("nearly"),
                Expected::Parse("unknown variant `nearly`"),
            ),
            (
                "refit λ outside [0, 1]",
                |v| v["model"]["model"]["report"]["lambda"] = json!(2.0),
                Expected::Parse("`report.lambda`"),
            ),
        ];
        corruptions.extend(envelope_corruptions("gdt"));
        assert_corruptions_refused::<GdtCv>(&saved, &corruptions);

        // λ̂ must be the value the scores select, and the refit's λ must be λ̂.
        let mut value = saved.clone();
        value["model"]["selection"]["lambda"] = json!(other_lambda);
        check_field::<GdtCv>(&value, "selection.lambda");
        let mut value = saved.clone();
        value["model"]["model"]["report"]["lambda"] = json!(other_lambda);
        check_field::<GdtCv>(&value, "model.report.lambda");
        // λ̂ cannot be a value at which a fold had no maximiser, nor can every value be one.
        let grid = &cv.selection().grid;
        let chosen = grid.iter().position(|&l| l == selected).unwrap();
        let mut counts = vec![0; grid.len()];
        counts[chosen] = 1;
        let mut value = saved.clone();
        value["model"]["selection"]["without_maximiser"] = json!(counts);
        check_field::<GdtCv>(&value, "selection.lambda");
        value["model"]["selection"]["without_maximiser"] = json!(vec![2; grid.len()]);
        check_field::<GdtCv>(&value, "selection.lambda");
        // Nor a value where a fold's fit stopped short, or where the fit on all the rows did.
        let mut value = saved.clone();
        value["model"]["selection"]["stopped_short"] = json!(counts);
        check_field::<GdtCv>(&value, "selection.lambda");
        let mut value = saved.clone();
        value["model"]["selection"]["refits"][chosen] = json!("stopped_short");
        check_field::<GdtCv>(&value, "selection.lambda");
        // A non-candidate may go unscored (NaN); a candidate may not.
        assert!(cv.selection().candidates().iter().all(|&c| c));
        let other = (0..grid.len()).find(|&j| j != chosen).unwrap();
        let mut value = saved.clone();
        value["model"]["selection"]["scores"][other] = json!("NaN");
        check_field::<GdtCv>(&value, "selection.scores");
        value["model"]["selection"]["refits"][other] = json!("no_maximiser");
        let path = temp_file(GdtCv::KIND);
        std::fs::write(&path, serde_json::to_string(&value).unwrap()).unwrap();
        let loaded = LabelledModel::<GdtCv, String>::load(&path);
        std::fs::remove_file(&path).unwrap();
        loaded.expect("an unscored value that is no candidate");
        // The refit's own outcome must be the one recorded at λ̂.
        let mut value = saved.clone();
        value["model"]["model"]["report"]["status"] = json!("MaxIterations");
        value["model"]["selection"]["refits"][chosen] = json!("converged");
        check_field::<GdtCv>(&value, "model.report.status");
    }
}

/// Writes `value` and checks that loading it fails on `field`.
fn check_field<M: SavedModel + Clone>(value: &Value, field: &str) {
    let path = temp_file(M::KIND);
    std::fs::write(&path, serde_json::to_string(value).unwrap()).unwrap();
    let result = LabelledModel::<M, String>::load(&path);
    std::fs::remove_file(&path).unwrap();
    match result {
        Err(Error::InvalidModelFile { source, .. }) => match *source {
            Error::InvalidModel { field: found, .. } => assert_eq!(found, field),
            other => panic!("expected an invalid `{field}`, got {other:?}"),
        },
        Err(other) => panic!("expected an invalid `{field}`, got {other:?}"),
        Ok(_) => panic!("a file with a wrong `{field}` was accepted"),
    }
}

#[test]
fn the_fit_summary_reports_a_fit_stopped_at_its_cap() {
    let (x, y) = data(7);
    let (labels, encoded) = ClassLabels::fit(&y).unwrap();
    let settings = gendisc_optim::ConjugateGradientSettings {
        max_iterations: 2,
        ..gendisc_gdt::paper_conjugate_gradient_settings()
    };
    let model = Gdt::params(Family::Qda)
        .lambda(0.25)
        .solver(gendisc_gdt::Method::ConjugateGradient(settings))
        .fit(x.view(), encoded.view())
        .unwrap();
    assert!(!model.report().is_converged());
    let saved = round_trip(model, &labels, &x);
    assert_eq!(saved["fit"]["converged"], json!(false));
    assert_eq!(saved["fit"]["iterations"], json!(2));
    let status = saved["fit"]["status"].as_str().unwrap();
    assert!(status.contains("maximum number of iterations"), "{status}");
}
