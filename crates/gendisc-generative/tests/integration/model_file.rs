//! Every fitted model of the crate survives its model file bit for bit, and reading a file
//! checks every invariant the fit guarantees: each corruption below (a negative variance, a
//! table that does not sum to 1, shapes that disagree, a NaN, a wrong envelope…) is a typed
//! error naming the field, never a model that fails later.

use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use gendisc_core::{
    ClassLabels, ConditionalModel, Convergence, Error, Fit, LabelledModel, SavedModel,
};
use gendisc_generative::{
    Balls1, Balls2, BernoulliNb, CategoricalNb, CovarianceShrinkage, GaussianNb, Lda,
    MultinomialNb, Qda, VarianceStructure,
};
use ndarray::{array, Array1, Array2};
use serde_json::{json, Value};

// ---------------------------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------------------------

const LABELS: [&str; 3] = ["ant", "bee", "cat"];
const FEATURES: [&str; 2] = ["height", "width"];

/// Three classes of four rows in two dimensions, with some spread in every direction.
fn real_rows() -> (Array2<f64>, Array1<usize>) {
    (
        array![
            [0.1, 0.3],
            [0.9, -0.2],
            [-0.4, 0.8],
            [0.5, 1.1],
            [3.2, 2.9],
            [4.1, 3.8],
            [2.7, 3.5],
            [3.9, 2.2],
            [-2.8, 4.1],
            [-3.6, 5.2],
            [-2.1, 4.9],
            [-3.3, 3.7],
        ],
        array![0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2],
    )
}

/// Rows that were not seen in training.
fn fresh_real_rows() -> Array2<f64> {
    array![[0.4, 0.6], [3.0, 3.3], [-2.5, 4.4], [1.5, 2.0]]
}

/// Binary features; with `α = 0`, `height` is always 1 in class 0 and `width` never 1 in
/// class 2, so some probabilities are 0 and their logarithms `−∞`.
fn binary_rows() -> (Array2<f64>, Array1<usize>) {
    (
        array![
            [1.0, 0.0],
            [1.0, 1.0],
            [1.0, 0.0],
            [0.0, 1.0],
            [1.0, 1.0],
            [0.0, 1.0],
            [0.0, 0.0],
            [1.0, 0.0],
            [0.0, 0.0],
        ],
        array![0, 0, 0, 1, 1, 1, 2, 2, 2],
    )
}

fn fresh_binary_rows() -> Array2<f64> {
    array![[1.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
}

/// Level codes: `height` has three levels, `width` two; not every class shows every level.
fn level_rows() -> (Array2<f64>, Array1<usize>) {
    (
        array![
            [0.0, 0.0],
            [0.0, 1.0],
            [1.0, 0.0],
            [1.0, 1.0],
            [2.0, 1.0],
            [1.0, 1.0],
            [2.0, 0.0],
            [2.0, 0.0],
            [0.0, 0.0],
        ],
        array![0, 0, 0, 1, 1, 1, 2, 2, 2],
    )
}

fn fresh_level_rows() -> Array2<f64> {
    array![[0.0, 1.0], [2.0, 1.0], [1.0, 0.0], [2.0, 0.0]]
}

/// Word counts over a vocabulary of two words; class 0 never uses `width`.
fn count_rows() -> (Array2<f64>, Array1<usize>) {
    (
        array![
            [3.0, 0.0],
            [1.0, 0.0],
            [2.0, 0.0],
            [1.0, 4.0],
            [0.0, 2.0],
            [2.0, 3.0],
            [2.0, 2.0],
            [1.0, 1.0],
            [3.0, 2.0],
        ],
        array![0, 0, 0, 1, 1, 1, 2, 2, 2],
    )
}

fn fresh_count_rows() -> Array2<f64> {
    array![[4.0, 0.0], [0.0, 5.0], [2.0, 2.0], [0.0, 0.0]]
}

// ---------------------------------------------------------------------------------------------
// Files and corruptions
// ---------------------------------------------------------------------------------------------

/// A file in the temporary directory, unique to this process and call, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let file = format!("gendisc-model-file-{}-{n}-{name}.json", std::process::id());
        Self(std::env::temp_dir().join(file))
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// What reading a corrupted file must fail with.
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// `Error::InvalidModelFile` whose source is `Error::InvalidModel` about this field.
    Field(&'static str),
    /// `Error::Parse` (serde refused the file first) whose message contains this text.
    Parse(&'static str),
}

/// One way of corrupting a saved model file, and the error it must give.
struct Corruption {
    what: &'static str,
    corrupt: fn(&mut Value),
    expect: Expect,
}

/// Shorthand for a table row.
fn case(what: &'static str, corrupt: fn(&mut Value), expect: Expect) -> Corruption {
    Corruption {
        what,
        corrupt,
        expect,
    }
}

/// The value at a JSON pointer, which must exist.
fn at<'a>(file: &'a mut Value, pointer: &str) -> &'a mut Value {
    file.pointer_mut(pointer)
        .unwrap_or_else(|| panic!("no {pointer} in the model file"))
}

fn set(file: &mut Value, pointer: &str, value: Value) {
    *at(file, pointer) = value;
}

/// Sets `key` of the JSON object at `pointer`, adding it if absent.
fn put(file: &mut Value, pointer: &str, key: &str, value: Value) {
    let object = at(file, pointer)
        .as_object_mut()
        .unwrap_or_else(|| panic!("{pointer} is not an object"));
    object.insert(key.into(), value);
}

/// The number at a JSON pointer.
fn number(file: &mut Value, pointer: &str) -> f64 {
    at(file, pointer)
        .as_f64()
        .unwrap_or_else(|| panic!("{pointer} is not a number"))
}

/// Drops the last slice along the first axis of the serialised ndarray at `pointer`
/// (`{"v": 1, "dim": […], "data": […]}`), keeping `dim` and `data` consistent: a matrix with
/// one row fewer.
fn drop_last_row(file: &mut Value, pointer: &str) {
    let array = at(file, pointer);
    let dim: Vec<usize> = serde_json::from_value(array["dim"].clone()).unwrap();
    let row: usize = dim[1..].iter().product();
    array["dim"][0] = json!(dim[0] - 1);
    let data = array["data"].as_array_mut().unwrap();
    data.truncate(data.len() - row);
}

/// Drops the last column of the serialised matrix at `pointer`, keeping it consistent.
fn drop_last_column(file: &mut Value, pointer: &str) {
    let array = at(file, pointer);
    let dim: Vec<usize> = serde_json::from_value(array["dim"].clone()).unwrap();
    let (rows, cols) = (dim[0], dim[1]);
    let data = array["data"].as_array().unwrap().clone();
    let kept: Vec<Value> = data
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % cols != cols - 1)
        .map(|(_, v)| v)
        .collect();
    array["dim"] = json!([rows, cols - 1]);
    array["data"] = Value::Array(kept);
}

/// Removes the last entry of the JSON array at `pointer` (leaving an ndarray's `dim` stale).
fn pop(file: &mut Value, pointer: &str) {
    at(file, pointer).as_array_mut().unwrap().pop();
}

/// The corruptions of the envelope, the same for every kind of model.
fn envelope_corruptions() -> Vec<Corruption> {
    vec![
        case(
            "format of another program",
            |f| set(f, "/format", json!("onnx")),
            Expect::Field("format"),
        ),
        case(
            "format_version from the future",
            |f| set(f, "/format_version", json!(99)),
            Expect::Field("format_version"),
        ),
        case(
            "kind of another model",
            |f| {
                let other = if f["kind"] == "lda" { "qda" } else { "lda" };
                set(f, "/kind", json!(other));
            },
            Expect::Field("kind"),
        ),
        case(
            "labels unsorted",
            |f| set(f, "/labels", json!(["bee", "ant", "cat"])),
            Expect::Field("labels"),
        ),
        case(
            "labels repeated",
            |f| set(f, "/labels", json!(["ant", "ant", "cat"])),
            Expect::Field("labels"),
        ),
        case(
            "one label too few",
            |f| pop(f, "/labels"),
            Expect::Field("labels"),
        ),
        case(
            "one feature name too many",
            |f| {
                let names = at(f, "/feature_names").as_array_mut().unwrap();
                names.push(json!("depth"));
            },
            Expect::Field("feature_names"),
        ),
        case(
            "an unknown envelope field",
            |f| put(f, "", "comment", json!("hand-edited")),
            Expect::Parse("unknown field"),
        ),
    ]
}

/// The class-level corruptions every model shares (`log_prior`, `class_weight`), for models
/// that report them as a field of `InvalidModel` (`parse` false) or, validating on
/// deserialisation, as a parse error naming the field (`parse` true).
fn class_corruptions(parse: bool) -> Vec<Corruption> {
    let expect = |field: &'static str, quoted: &'static str| {
        if parse {
            Expect::Parse(quoted)
        } else {
            Expect::Field(field)
        }
    };
    vec![
        case(
            "log-priors that sum to more than 1",
            |f| set(f, "/model/log_prior/data/0", json!(0.0)),
            expect("log_prior", "`log_prior`"),
        ),
        case(
            "a negative class weight",
            |f| set(f, "/model/class_weight/data/1", json!(-2.0)),
            expect("class_weight", "`class_weight`"),
        ),
        case(
            "one class weight too many",
            |f| {
                let array = at(f, "/model/class_weight");
                array["dim"][0] = json!(4);
                array["data"].as_array_mut().unwrap().push(json!(1.0));
            },
            expect("class_weight", "`class_weight`"),
        ),
        case(
            "a log-prior that is not a number (JSON has no NaN)",
            |f| set(f, "/model/log_prior/data/0", json!("NaN")),
            Expect::Parse("invalid type: string"),
        ),
    ]
}

/// One log-prior fewer than the model's other parameters say there are classes. Models whose
/// number of classes is that of their log-priors (Bernoulli and categorical naive Bayes) then
/// have fewer classes than labels, which the envelope's check finds first.
fn one_log_prior_too_few(expect: Expect) -> Corruption {
    case(
        "one log-prior too few",
        |f| drop_last_row(f, "/model/log_prior"),
        expect,
    )
}

/// The unit of the Gaussian models, which must be a power of two.
fn unit_corruption(parse: bool) -> Corruption {
    case(
        "a unit that is not a power of two",
        |f| put(f, "/model", "unit", json!(3.0)),
        if parse {
            Expect::Parse("`unit`")
        } else {
            Expect::Field("unit")
        },
    )
}

// ---------------------------------------------------------------------------------------------
// The check
// ---------------------------------------------------------------------------------------------

/// Saves `model` with labels and feature names, loads it back and compares its probabilities
/// on `fresh` rows bit for bit; then reads every corruption of the saved file and checks its
/// error. Returns the saved file as JSON.
fn check_model_file<M>(
    name: &str,
    model: M,
    fresh: &Array2<f64>,
    corruptions: Vec<Corruption>,
) -> Value
where
    M: SavedModel + ConditionalModel + Clone + PartialEq + Debug,
{
    let labels = ClassLabels::new(LABELS.map(String::from)).unwrap();
    let names = FEATURES.map(String::from).to_vec();
    let labelled = LabelledModel::new(model, labels, Some(names)).unwrap();
    let file = TempFile::new(name);
    labelled.save(file.path()).unwrap();

    let loaded = LabelledModel::<M, String>::load(file.path())
        .unwrap_or_else(|e| panic!("{name}: the saved file does not load: {e}"));
    assert_eq!(loaded.model(), labelled.model(), "{name}");
    assert_eq!(loaded.labels(), labelled.labels(), "{name}");
    assert_eq!(loaded.feature_names(), labelled.feature_names(), "{name}");
    let bits =
        |m: &LabelledModel<M, String>| m.predict_proba(fresh.view()).unwrap().mapv(f64::to_bits);
    assert_eq!(
        bits(&loaded),
        bits(&labelled),
        "{name}: predict_proba differs"
    );

    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(file.path()).unwrap()).unwrap();
    assert_eq!(saved["kind"], M::KIND, "{name}");
    let rewritten = TempFile::new(name);
    let write = |value: &Value| {
        std::fs::write(
            rewritten.path(),
            serde_json::to_string_pretty(value).unwrap(),
        )
        .unwrap()
    };
    // The harness itself: an untouched file, rewritten from its JSON, still loads.
    write(&saved);
    LabelledModel::<M, String>::load(rewritten.path())
        .unwrap_or_else(|e| panic!("{name}: the rewritten file does not load: {e}"));

    for Corruption {
        what,
        corrupt,
        expect,
    } in envelope_corruptions().into_iter().chain(corruptions)
    {
        let mut value = saved.clone();
        corrupt(&mut value);
        assert_ne!(
            value, saved,
            "{name}: {what}: the corruption changed nothing"
        );
        write(&value);
        let result = LabelledModel::<M, String>::load(rewritten.path());
        match (&result, expect) {
            (Err(Error::InvalidModelFile { path, source }), Expect::Field(field)) => {
                assert_eq!(path, rewritten.path(), "{name}: {what}");
                match source.as_ref() {
                    Error::InvalidModel { field: found, .. } => {
                        assert_eq!(found, field, "{name}: {what}: {source}")
                    }
                    other => panic!("{name}: {what}: expected InvalidModel, got {other:?}"),
                }
            }
            (Err(Error::Parse { path, message, .. }), Expect::Parse(text)) => {
                assert_eq!(path, rewritten.path(), "{name}: {what}");
                assert!(
                    message.contains(text),
                    "{name}: {what}: {message:?} does not mention {text:?}"
                );
            }
            _ => panic!("{name}: {what}: expected {expect:?}, got {result:?}"),
        }
    }
    saved
}

// ---------------------------------------------------------------------------------------------
// One test per model
// ---------------------------------------------------------------------------------------------

/// Corruptions of a variance array whose entries must be at least `variance_floor`.
fn floored_variance_corruptions() -> Vec<Corruption> {
    vec![
        case(
            "a negative variance",
            |f| set(f, "/model/variances/data/0", json!(-1.0)),
            Expect::Field("variances"),
        ),
        case(
            "a variance below the floor",
            |f| {
                let floor = number(f, "/model/variance_floor");
                set(f, "/model/variances/data/1", json!(floor / 2.0));
            },
            Expect::Field("variances"),
        ),
        case(
            "a zero variance floor",
            |f| set(f, "/model/variance_floor", json!(0.0)),
            Expect::Field("variance_floor"),
        ),
        case(
            "a variance of null (what serde_json writes for NaN)",
            |f| set(f, "/model/variances/data/0", Value::Null),
            Expect::Parse("invalid type: null"),
        ),
        case(
            "one variance missing from the data but not from the shape",
            |f| pop(f, "/model/variances/data"),
            Expect::Parse("dimension"),
        ),
        case(
            "variances for one class fewer than the means",
            |f| drop_last_row(f, "/model/variances"),
            Expect::Field("variances"),
        ),
    ]
}

#[test]
fn gaussian_naive_bayes() {
    let (x, y) = real_rows();
    let model = GaussianNb::params().fit(x.view(), y.view()).unwrap();
    let mut corruptions = vec![
        case(
            "variances for one feature fewer than the means",
            |f| drop_last_column(f, "/model/variances"),
            Expect::Field("variances"),
        ),
        case(
            "a mean that is not a number",
            |f| set(f, "/model/means/data/3", json!("NaN")),
            Expect::Parse("invalid type: string"),
        ),
        unit_corruption(false),
        one_log_prior_too_few(Expect::Field("log_prior")),
    ];
    corruptions.extend(floored_variance_corruptions());
    corruptions.extend(class_corruptions(false));
    check_model_file("gaussian", model, &fresh_real_rows(), corruptions);

    let pooled = GaussianNb::params()
        .variance(VarianceStructure::Pooled)
        .fit(x.view(), y.view())
        .unwrap();
    let corruptions = vec![case(
        "pooled variances that differ between classes",
        |f| {
            let v = number(f, "/model/variances/data/0");
            set(f, "/model/variances/data/0", json!(2.0 * v));
        },
        Expect::Field("variances"),
    )];
    check_model_file("gaussian-pooled", pooled, &fresh_real_rows(), corruptions);
}

#[test]
fn bernoulli_naive_bayes() {
    let (x, y) = binary_rows();
    let model = BernoulliNb::params().fit(x.view(), y.view()).unwrap();
    let mut corruptions = vec![
        case(
            "p(x = 1) + p(x = 0) above 1",
            |f| set(f, "/model/log_prob_one/data/0", json!(0.0)),
            Expect::Field("log_prob_one"),
        ),
        case(
            "a probability of 0 (null, read as log 0) that leaves p(x = 0) alone",
            |f| set(f, "/model/log_prob_one/data/1", Value::Null),
            Expect::Field("log_prob_one"),
        ),
        case(
            "a log-probability that is not a number",
            |f| set(f, "/model/log_prob_zero/data/0", json!("NaN")),
            Expect::Parse("invalid type: string"),
        ),
        case(
            "log_prob_zero for one class fewer",
            |f| drop_last_row(f, "/model/log_prob_zero"),
            Expect::Field("log_prob_zero"),
        ),
        one_log_prior_too_few(Expect::Field("labels")),
    ];
    corruptions.extend(class_corruptions(false));
    check_model_file("bernoulli", model, &fresh_binary_rows(), corruptions);

    // α = 0: probabilities of exactly 0, whose logarithms JSON can only write as null.
    let unsmoothed = BernoulliNb::params()
        .alpha(0.0)
        .fit(x.view(), y.view())
        .unwrap();
    assert!(unsmoothed
        .feature_log_prob()
        .iter()
        .any(|v| v.is_infinite()));
    check_model_file(
        "bernoulli-alpha-0",
        unsmoothed,
        &fresh_binary_rows(),
        vec![],
    );
}

#[test]
fn categorical_naive_bayes() {
    let (x, y) = level_rows();
    let model = CategoricalNb::params()
        .n_levels(vec![3, 2])
        .fit(x.view(), y.view())
        .unwrap();
    let mut corruptions = vec![
        case(
            "a level table that sums to more than 1",
            |f| set(f, "/model/log_prob/0/data/0", json!(0.0)),
            Expect::Field("log_prob"),
        ),
        case(
            "a level table for one class fewer",
            |f| drop_last_row(f, "/model/log_prob/1"),
            Expect::Field("log_prob"),
        ),
        case(
            "a level table without levels",
            |f| {
                set(
                    f,
                    "/model/log_prob/1",
                    json!({"v": 1, "dim": [3, 0], "data": []}),
                )
            },
            Expect::Field("log_prob"),
        ),
        case(
            "a log-probability that is not a number",
            |f| set(f, "/model/log_prob/0/data/2", json!("NaN")),
            Expect::Parse("invalid type: string"),
        ),
        one_log_prior_too_few(Expect::Field("labels")),
    ];
    corruptions.extend(class_corruptions(false));
    check_model_file("categorical", model, &fresh_level_rows(), corruptions);

    let unsmoothed = CategoricalNb::params()
        .alpha(0.0)
        .n_levels(vec![3, 2])
        .fit(x.view(), y.view())
        .unwrap();
    assert!(unsmoothed
        .feature_log_prob(0)
        .iter()
        .any(|v| v.is_infinite()));
    // Rows whose levels every class has seen, so that no posterior is 0 / 0.
    let seen = array![[0.0, 0.0], [1.0, 1.0]];
    check_model_file("categorical-alpha-0", unsmoothed, &seen, vec![]);
}

#[test]
fn multinomial_naive_bayes() {
    let (x, y) = count_rows();
    let model = MultinomialNb::params().fit(x.view(), y.view()).unwrap();
    let mut corruptions = vec![
        case(
            "a word distribution that sums to more than 1",
            |f| set(f, "/model/word_log_prob/data/0", json!(0.0)),
            Expect::Field("word_log_prob"),
        ),
        case(
            "a negative word count",
            |f| set(f, "/model/word_count/data/0", json!(-1.0)),
            Expect::Field("word_count"),
        ),
        case(
            "word counts for one word fewer",
            |f| drop_last_row(f, "/model/word_count"),
            Expect::Field("word_count"),
        ),
        case(
            "a word count that is not a number",
            |f| set(f, "/model/word_count/data/0", Value::Null),
            Expect::Parse("invalid type: null"),
        ),
        one_log_prior_too_few(Expect::Field("log_prior")),
    ];
    corruptions.extend(class_corruptions(false));
    check_model_file("multinomial", model, &fresh_count_rows(), corruptions);

    let unsmoothed = MultinomialNb::params()
        .alpha(0.0)
        .fit(x.view(), y.view())
        .unwrap();
    assert!(unsmoothed
        .feature_log_prob()
        .iter()
        .any(|v| v.is_infinite()));
    // Documents that only use `height`, which every class has used.
    let heights = array![[4.0, 0.0], [1.0, 0.0]];
    check_model_file("multinomial-alpha-0", unsmoothed, &heights, vec![]);
}

/// LDA and QDA rebuild their Cholesky factors when deserialised, so that every check runs
/// there and a corruption is a parse error whose message names the field.
#[test]
fn lda() {
    let (x, y) = real_rows();
    let model = Lda::params().fit(x.view(), y.view()).unwrap();
    let mut corruptions = vec![
        case(
            "an asymmetric covariance",
            |f| {
                let v = number(f, "/model/covariance/data/1");
                set(f, "/model/covariance/data/1", json!(v + 0.5));
            },
            Expect::Parse("`covariance`"),
        ),
        case(
            "a covariance that is not positive definite",
            |f| set(f, "/model/covariance/data/0", json!(-1.0)),
            Expect::Parse("`covariance`"),
        ),
        case(
            "a covariance of one feature fewer",
            |f| drop_last_row(f, "/model/covariance"),
            Expect::Parse("`covariance`"),
        ),
        case(
            "a mean of null (what serde_json writes for NaN)",
            |f| set(f, "/model/means/data/0", Value::Null),
            Expect::Parse("invalid type: null"),
        ),
        unit_corruption(true),
        one_log_prior_too_few(Expect::Parse("`log_prior`")),
    ];
    corruptions.extend(class_corruptions(true));
    check_model_file("lda", model, &fresh_real_rows(), corruptions);
}

#[test]
fn qda() {
    let (x, y) = real_rows();
    let model = Qda::params()
        .regularization(CovarianceShrinkage::Identity(0.1))
        .fit(x.view(), y.view())
        .unwrap();
    let mut corruptions = vec![
        case(
            "an asymmetric class covariance",
            |f| {
                let v = number(f, "/model/covariances/data/5");
                set(f, "/model/covariances/data/5", json!(v + 0.5));
            },
            Expect::Parse("`covariances`"),
        ),
        case(
            "a class covariance that is not positive definite",
            |f| set(f, "/model/covariances/data/4", json!(-1.0)),
            Expect::Parse("`covariances`"),
        ),
        case(
            "covariances for one class fewer",
            |f| drop_last_row(f, "/model/covariances"),
            Expect::Parse("`covariances`"),
        ),
        unit_corruption(true),
        one_log_prior_too_few(Expect::Parse("`log_prior`")),
    ];
    corruptions.extend(class_corruptions(true));
    check_model_file("qda", model, &fresh_real_rows(), corruptions);
}

#[test]
fn balls1() {
    let (x, y) = real_rows();
    let model = Balls1::params().fit(x.view(), y.view()).unwrap();
    let mut corruptions = vec![
        case(
            "a mean that is not a number",
            |f| set(f, "/model/means/data/0", json!("NaN")),
            Expect::Parse("invalid type: string"),
        ),
        unit_corruption(false),
        one_log_prior_too_few(Expect::Field("log_prior")),
    ];
    corruptions.extend(floored_variance_corruptions());
    corruptions.extend(class_corruptions(false));
    check_model_file("balls1", model, &fresh_real_rows(), corruptions);
}

#[test]
fn balls2() {
    let (x, y) = real_rows();
    let model = Balls2::params().seed(1).fit(x.view(), y.view()).unwrap();
    let report = model.report().clone();
    let mut corruptions = vec![
        case(
            "mixing weights that sum to more than 1",
            |f| {
                let w = number(f, "/model/mixing/data/0");
                set(f, "/model/mixing/data/0", json!(w + 0.25));
            },
            Expect::Field("mixing"),
        ),
        case(
            "a negative mixing weight that keeps the sum at 1",
            |f| {
                set(f, "/model/mixing/data/0", json!(-0.5));
                set(f, "/model/mixing/data/1", json!(1.5));
            },
            Expect::Field("mixing"),
        ),
        case(
            "variances for one component fewer",
            |f| drop_last_column(f, "/model/variances"),
            Expect::Field("variances"),
        ),
        case(
            "a report for one class fewer",
            |f| pop(f, "/model/report/classes"),
            Expect::Field("report"),
        ),
        case(
            "a report with one iteration more than its log-likelihoods",
            |f| {
                let n = number(f, "/model/report/classes/0/iterations");
                set(
                    f,
                    "/model/report/classes/0/iterations",
                    json!(n as usize + 1),
                );
            },
            Expect::Field("report"),
        ),
        unit_corruption(false),
        one_log_prior_too_few(Expect::Field("log_prior")),
    ];
    corruptions.extend(floored_variance_corruptions());
    corruptions.extend(class_corruptions(false));
    let saved = check_model_file("balls2", model, &fresh_real_rows(), corruptions);

    // EM is iterative: the file says how it ended.
    let fit = &saved["fit"];
    assert_eq!(fit["converged"], json!(report.is_converged()), "{fit}");
    let most = report.classes.iter().map(|c| c.iterations).max().unwrap();
    assert_eq!(fit["iterations"], json!(most), "{fit}");
    assert!(
        fit["status"].as_str().unwrap().contains("every class"),
        "{fit}"
    );
}

#[test]
fn only_iterative_fits_have_a_fit_summary() {
    let (x, y) = real_rows();
    let closed_form = Balls1::params().fit(x.view(), y.view()).unwrap();
    assert_eq!(closed_form.fit_summary(), None);
    let capped = Balls2::params()
        .max_iterations(1)
        .tolerance(0.0)
        .fit(x.view(), y.view())
        .unwrap();
    let summary = capped.fit_summary().unwrap();
    assert!(!summary.converged && summary.iterations == 1, "{summary:?}");
}
