//! The `gendisc` binary run as a user runs it: models, fit, predict and evaluate on small files,
//! and one clear error with a non-zero exit for each kind of bad input.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::cargo_bin;
use tempfile::TempDir;

/// The sample table: 300 rows, four numeric columns, classes `faulty` and `normal`.
fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/data/machines.csv")
}

/// A committed bad file under `tests/fixtures/` (see its README).
fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .to_str()
        .unwrap()
        .to_owned()
}

fn gendisc(dir: &Path) -> Command {
    let mut command = Command::new(cargo_bin!("gendisc"));
    command.current_dir(dir);
    command
}

/// Runs `gendisc args` in `dir`, expects success and returns standard output.
fn run_ok(dir: &Path, args: &[&str]) -> String {
    let output = gendisc(dir).args(args).output().unwrap();
    assert!(
        output.status.success(),
        "gendisc {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Runs `gendisc args` in `dir`, expects a failure whose single `error:` line contains each of
/// `needles`, with no panic or backtrace.
fn run_err(dir: &Path, args: &[&str], needles: &[&str]) {
    let output = gendisc(dir).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "gendisc {args:?} succeeded");
    assert!(
        !stderr.contains("panicked"),
        "gendisc {args:?} panicked: {stderr}"
    );
    assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "{needle:?} not in: {stderr}");
    }
}

fn temp_with(files: &[(&str, &str)]) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

#[test]
fn models_lists_every_estimator_with_its_kind() {
    let dir = temp_with(&[]);
    let listing = run_ok(dir.path(), &["models"]);
    for kind in [
        "gaussian-naive-bayes",
        "logistic-regression",
        "balls2",
        "gdt-cv",
        "linear-svm",
    ] {
        assert!(listing.contains(kind), "{kind} missing from:\n{listing}");
    }
    assert!(run_ok(dir.path(), &["fit", "lr", "--help"]).contains("Example"));
}

#[test]
fn fit_predict_evaluate_round_trip_on_the_sample() {
    let dir = temp_with(&[]);
    let data = sample();
    let data = data.to_str().unwrap();
    let report = run_ok(
        dir.path(),
        &["fit", "lr", "--data", data, "--out", "lr.json"],
    );
    assert!(report.contains("converged"), "{report}");
    let file = fs::read_to_string(dir.path().join("lr.json")).unwrap();
    assert!(
        file.contains("\"preprocessing\"") && file.contains("\"fit\": {"),
        "{file}"
    );

    let predictions = run_ok(
        dir.path(),
        &["predict", "--model", "lr.json", "--data", data, "--proba"],
    );
    let mut lines = predictions.lines();
    assert_eq!(lines.next(), Some("prediction,faulty,normal"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 300);
    for row in &rows {
        let fields: Vec<&str> = row.split(',').collect();
        let p: f64 = fields[1].parse::<f64>().unwrap() + fields[2].parse::<f64>().unwrap();
        assert!((p - 1.0).abs() < 1e-9, "{row}");
        assert!(["faulty", "normal"].contains(&fields[0]), "{row}");
    }

    let json = run_ok(
        dir.path(),
        &["evaluate", "--model", "lr.json", "--data", data, "--json"],
    );
    let scores: serde_json::Value = serde_json::from_str(&json).unwrap();
    let error = scores["error_rate"].as_f64().unwrap();
    assert!(error > 0.0 && error < 0.5, "{json}");
    let counts = &scores["confusion_matrix"]["counts"];
    let wrong = counts[0][1].as_u64().unwrap() + counts[1][0].as_u64().unwrap();
    assert_eq!(wrong as f64 / 300.0, error);
    for metric in [
        "log_loss",
        "log_loss_unclipped",
        "brier_score",
        "calibration_error",
    ] {
        assert!(
            scores[metric].as_f64().is_some(),
            "{metric} missing: {json}"
        );
    }
    // No probability of the sample reaches the clip: both losses agree.
    let (clipped, exact) = (
        scores["log_loss"].as_f64().unwrap(),
        scores["log_loss_unclipped"].as_f64().unwrap(),
    );
    assert!((clipped - exact).abs() < 1e-12, "{json}");
    let table = run_ok(
        dir.path(),
        &["evaluate", "--model", "lr.json", "--data", data],
    );
    assert!(
        table.contains("clipped to [2.2e-16, 1], as scikit-learn's; unclipped"),
        "{table}"
    );
    assert!(
        table.contains("true \\ predicted") && table.contains("faulty"),
        "{table}"
    );
}

#[test]
fn categorical_columns_are_encoded_as_recorded_at_fit() {
    let train = "outlook,windy,play\nsunny,yes,no\nrain,no,yes\nsunny,no,yes\nrain,yes,no\novercast,no,yes\n";
    // Columns in another order and no class column: read by name.
    let new = "windy,outlook\nno,overcast\nyes,sunny\n";
    let dir = temp_with(&[
        ("train.csv", train),
        ("new.csv", new),
        ("foggy.csv", "outlook,windy\nfoggy,no\n"),
    ]);
    let report = run_ok(
        dir.path(),
        &["fit", "nb", "--data", "train.csv", "--out", "nb.json"],
    );
    assert!(report.contains("categorical-naive-bayes"), "{report}");
    run_ok(
        dir.path(),
        &[
            "fit",
            "lr",
            "--data",
            "train.csv",
            "--prior-variance",
            "1",
            "--out",
            "lr.json",
        ],
    );
    for model in ["nb.json", "lr.json"] {
        let predictions = run_ok(
            dir.path(),
            &["predict", "--model", model, "--data", "new.csv"],
        );
        assert_eq!(predictions.lines().count(), 3, "{predictions}");
        assert_eq!(predictions.lines().nth(1), Some("yes"), "{predictions}");
    }
    run_err(
        dir.path(),
        &["predict", "--model", "nb.json", "--data", "foggy.csv"],
        &["foggy.csv:2:1", "'foggy'"],
    );
}

#[test]
fn bad_data_files_are_one_clear_error() {
    let dir = temp_with(&[
        ("ragged.csv", "a,b,y\n1,2,x\n3,4\n"),
        ("text.csv", "a,b,y\n1,2,x\n3,zz,y\n2,2,x\n"),
        ("gap.csv", "a,b,y\n1,2,x\n3,,y\n2,2,x\n4,1,y\n"),
        ("one.csv", "a,b,y\n1,2,x\n3,4,x\n"),
    ]);
    let run = |file: &str, needles: &[&str]| {
        run_err(
            dir.path(),
            &["fit", "nb", "--data", file, "--out", "m.json"],
            needles,
        );
    };
    run("absent.csv", &["absent.csv", "No such file"]);
    run("ragged.csv", &["ragged.csv:3"]);
    run("text.csv", &["text.csv:3:2", "'zz'"]);
    run("gap.csv", &["gap.csv:3:2", "--missing drop"]);
    // The command's flag, not the library's API, is what a user of the command can give.
    let output = gendisc(dir.path())
        .args(["fit", "nb", "--data", "gap.csv", "--out", "m.json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("(column 2)") && !stderr.contains("TableReader"),
        "{stderr}"
    );
    run("one.csv", &["2 distinct class labels"]);
    let report = run_ok(
        dir.path(),
        &[
            "fit",
            "nb",
            "--data",
            "gap.csv",
            "--missing",
            "drop",
            "--out",
            "m.json",
        ],
    );
    assert!(report.contains("on 3 rows"), "{report}");
    let unknown = gendisc(dir.path())
        .args(["fit", "forest", "--data", "one.csv", "--out", "m.json"])
        .output()
        .unwrap();
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unrecognized subcommand 'forest'"));
}

#[test]
fn mismatched_or_damaged_model_files_are_refused() {
    let dir = temp_with(&[
        ("two.csv", "temperature,vibration,state\n70,2,normal\n"),
        (
            "text.csv",
            "temperature,vibration,pressure,current\n70,2,4,oops\n",
        ),
    ]);
    let data = sample();
    let data = data.to_str().unwrap();
    run_ok(
        dir.path(),
        &["fit", "gaussian-nb", "--data", data, "--out", "nb.json"],
    );
    run_err(
        dir.path(),
        &["predict", "--model", "nb.json", "--data", "two.csv"],
        &["lack the columns 'pressure', 'current'"],
    );
    run_err(
        dir.path(),
        &["predict", "--model", "nb.json", "--data", "text.csv"],
        &["text.csv:2:4", "'oops'"],
    );
    let file = fs::read_to_string(dir.path().join("nb.json")).unwrap();
    fs::write(dir.path().join("corrupt.json"), &file[..file.len() / 2]).unwrap();
    run_err(
        dir.path(),
        &["predict", "--model", "corrupt.json", "--data", data],
        &["corrupt.json:"],
    );
    let version = format!(
        "\"format_version\": {}",
        gendisc_core::model_file::FORMAT_VERSION
    );
    assert!(file.contains(&version), "{file}");
    let newer = file.replace(&version, "\"format_version\": 99");
    fs::write(dir.path().join("newer.json"), newer).unwrap();
    run_err(
        dir.path(),
        &["evaluate", "--model", "newer.json", "--data", data],
        &["version 99 is unknown"],
    );
    let alien = file.replace("\"gaussian-naive-bayes\"", "\"random-forest\"");
    fs::write(dir.path().join("alien.json"), alien).unwrap();
    run_err(
        dir.path(),
        &["predict", "--model", "alien.json", "--data", data],
        &["\"random-forest\""],
    );
}

#[test]
fn arff_libsvm_and_headerless_files_are_read_through_the_loaders() {
    let arff = "@relation weather\n@attribute outlook {sunny, overcast, rain}\n\
                @attribute temp numeric\n@attribute play {yes, no}\n@data\n\
                sunny,85,no\novercast,83,yes\nrain,70,yes\nrain,65,no\nsunny,69,yes\novercast,72,yes\n";
    let libsvm = "1 1:0.5 2:1\n-1 1:-0.5 2:0.1\n1 1:0.7\n-1 1:-1 2:-1\n";
    let tsv = "1.0\t2.0\ta\n2.0\t1.0\tb\n1.5\t2.5\ta\n2.5\t0.5\tb\n";
    let dir = temp_with(&[("w.arff", arff), ("d.libsvm", libsvm), ("t.tsv", tsv)]);
    let path = dir.path();
    run_ok(
        path,
        &[
            "fit",
            "lr",
            "--data",
            "w.arff",
            "--prior-variance",
            "1",
            "--out",
            "a.json",
        ],
    );
    assert!(
        run_ok(path, &["evaluate", "--model", "a.json", "--data", "w.arff"])
            .contains("rows               6")
    );

    run_ok(
        path,
        &[
            "fit",
            "lda",
            "--data",
            "d.libsvm",
            "--shrinkage",
            "0.5",
            "--out",
            "l.json",
        ],
    );
    run_ok(
        path,
        &[
            "predict", "--model", "l.json", "--data", "d.libsvm", "--out", "p.csv",
        ],
    );
    let predictions = fs::read_to_string(path.join("p.csv")).unwrap();
    assert_eq!(predictions.lines().next(), Some("prediction"));
    assert!(
        predictions.lines().skip(1).all(|l| l == "1" || l == "-1"),
        "{predictions}"
    );

    run_ok(
        path,
        &[
            "fit",
            "gaussian-nb",
            "--data",
            "t.tsv",
            "--no-header",
            "--out",
            "t.json",
        ],
    );
    let json = run_ok(
        path,
        &[
            "evaluate",
            "--model",
            "t.json",
            "--data",
            "t.tsv",
            "--no-header",
            "--json",
        ],
    );
    assert!(
        json.contains("\"labels\": [\n    \"a\",\n    \"b\"\n  ]"),
        "{json}"
    );
    // New rows without the class column.
    fs::write(path.join("new.tsv"), "1.0\t2.0\n2.5\t0.5\n").unwrap();
    let predictions = run_ok(
        path,
        &[
            "predict",
            "--model",
            "t.json",
            "--data",
            "new.tsv",
            "--no-header",
        ],
    );
    assert_eq!(predictions, "prediction\na\nb\n");
}

#[test]
fn logistic_regression_with_a_cross_validated_prior_variance() {
    let dir = temp_with(&[]);
    let data = sample();
    let data = data.to_str().unwrap();
    let report = run_ok(
        dir.path(),
        &[
            "fit",
            "lr",
            "--data",
            data,
            "--prior-variance",
            "cv",
            "--cv-folds",
            "3",
            "--out",
            "lr.json",
        ],
    );
    assert!(
        report.contains("fitted logistic-regression-cv")
            && report.contains("cross-validated prior variance"),
        "{report}"
    );
    let file: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("lr.json")).unwrap()).unwrap();
    assert_eq!(file["kind"], "logistic-regression-cv");
    let scores = file["model"]["selection"]["scores"].as_array().unwrap();
    assert_eq!(scores.len(), 10, "the default grid has ten variances");
    let predictions = run_ok(
        dir.path(),
        &["predict", "--model", "lr.json", "--data", data, "--proba"],
    );
    assert_eq!(predictions.lines().count(), 301);

    run_err(
        dir.path(),
        &[
            "fit",
            "lr",
            "--data",
            data,
            "--prior-variance",
            "0",
            "--out",
            "x.json",
        ],
        &["--prior-variance", "`cv`"],
    );
    run_err(
        dir.path(),
        &[
            "fit",
            "lr",
            "--data",
            data,
            "--cv-grid",
            "1,10",
            "--out",
            "x.json",
        ],
        &["--cv-grid", "--prior-variance cv"],
    );
}

/// `--solver` takes logistic regression's own solver names (any case), and the model file
/// records the solver that ran.
#[test]
fn the_logistic_solver_is_named_as_the_library_names_it() {
    let dir = temp_with(&[]);
    let data = sample();
    let data = data.to_str().unwrap();
    for (name, recorded) in [
        ("glm", "GlmIrls"),
        ("CG", "ConjugateGradient"),
        ("lbfgs", "Lbfgs"),
    ] {
        run_ok(
            dir.path(),
            &[
                "fit", "lr", "--data", data, "--solver", name, "--out", "lr.json",
            ],
        );
        let file: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.path().join("lr.json")).unwrap()).unwrap();
        assert_eq!(file["model"]["report"]["solver"], recorded, "{name}");
    }
    run_err(
        dir.path(),
        &[
            "fit", "lr", "--data", data, "--solver", "irls", "--out", "lr.json",
        ],
        &["irls", "auto", "newton", "lbfgs", "cg", "glm"],
    );
}

/// A column with no value at all (as Thyroid's TBG) does not cost the other columns their rows:
/// `--features` reads only what it names, and prediction only the model's columns.
#[test]
fn a_column_without_values_is_left_out_not_every_row() {
    let mut train = String::from("a,b,empty,class\n");
    let mut new = String::from("a,b,empty,other\n");
    for i in 0..40 {
        let (a, b) = ((i * 7 % 11) as f64, (i * 5 % 13) as f64);
        let class = if a + b > 11.0 { "yes" } else { "no" };
        train.push_str(&format!("{a},{b},?,{class}\n"));
        new.push_str(&format!("{b},{a},,?\n"));
    }
    let dir = temp_with(&[("train.csv", &train), ("new.csv", &new)]);
    let fit = [
        "fit",
        "gaussian-nb",
        "--data",
        "train.csv",
        "--missing",
        "drop",
        "--out",
        "nb.json",
    ];
    run_err(
        dir.path(),
        &fit,
        &["the column 'empty' has no value in any row", "--features"],
    );
    let mut fit = fit.to_vec();
    fit.extend(["--features", "a,b"]);
    let output = gendisc(dir.path()).args(&fit).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(!stderr.contains("left out"), "{stderr}");
    // The new rows' unused columns are empty too; every row is predicted.
    let predicted = run_ok(
        dir.path(),
        &["predict", "--model", "nb.json", "--data", "new.csv"],
    );
    assert_eq!(predicted.lines().count(), 41, "{predicted}");
}

/// `fit gdt --solver` picks GDT's optimiser: the default and Newton's converge to one optimum,
/// L-BFGS to the same objective, and the paper's conjugate gradient stops on its own criterion.
#[test]
fn the_gdt_solver_is_chosen_on_the_command_line() {
    let dir = temp_with(&[]);
    let data = sample();
    let data = data.to_str().unwrap();
    let report = |solver: &str| {
        run_ok(
            dir.path(),
            &[
                "fit", "gdt", "--family", "qda", "--lambda", "0.25", "--data", data, "--solver",
                solver, "--out", "g.json",
            ],
        );
        let file: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.path().join("g.json")).unwrap()).unwrap();
        file["model"]["report"].clone()
    };
    let (auto, newton, lbfgs, paper) = (
        report("auto"),
        report("trust-region"),
        report("lbfgs"),
        report("paper-cg"),
    );
    assert_eq!(auto, newton);
    assert_eq!(auto["status"], "Converged", "{auto}");
    // L-BFGS may stall a hair short of the criterion (it did under LAPACK), at Newton's optimum.
    assert!(
        ["Converged", "Stalled"].contains(&lbfgs["status"].as_str().unwrap()),
        "{lbfgs}"
    );
    let objective = |r: &serde_json::Value| r["objective"].as_f64().unwrap();
    assert!((objective(&auto) - objective(&lbfgs)).abs() < 1e-9 * objective(&auto).abs());
    assert_ne!(objective(&auto), objective(&paper));
    assert_eq!(paper["gradient_tolerance"], 1e-6, "{paper}");
    assert!(
        objective(&paper) >= objective(&auto),
        "{paper} below {auto}"
    );
    run_err(
        dir.path(),
        &[
            "fit", "gdt", "--data", data, "--solver", "newton", "--out", "g.json",
        ],
        &["newton", "auto", "trust-region", "lbfgs", "paper-cg"],
    );
}

#[test]
fn the_bilevel_classifier_reads_its_prior_from_a_file() {
    let features = ["temperature", "vibration", "pressure", "current"];
    let mut prior = String::from("feature,class,mean,variance\n");
    for feature in features {
        prior.push_str(&format!("{feature},faulty,1,4\n{feature},normal,0,4\n"));
    }
    let missing = prior.replace("current,normal,0,4\n", "");
    let unknown = prior.replace("current,normal", "voltage,normal");
    let repeated = prior.replace("current,normal", "pressure,normal");
    let bad_variance = prior.replace("current,normal,0,4", "current,normal,0,-4");
    let dir = temp_with(&[
        ("prior.csv", &prior),
        ("missing.csv", &missing),
        ("unknown.csv", &unknown),
        ("repeated.csv", &repeated),
        ("variance.csv", &bad_variance),
    ]);
    let data = sample();
    let data = data.to_str().unwrap();
    let report = run_ok(
        dir.path(),
        &[
            "fit",
            "bilevel",
            "--data",
            data,
            "--prior",
            "prior.csv",
            "--out",
            "bilevel.json",
        ],
    );
    assert!(report.contains("fitted bilevel"), "{report}");
    let scores = run_ok(
        dir.path(),
        &[
            "evaluate",
            "--model",
            "bilevel.json",
            "--data",
            data,
            "--json",
        ],
    );
    let scores: serde_json::Value = serde_json::from_str(&scores).unwrap();
    let error = scores["error_rate"].as_f64().unwrap();
    assert!(error < 0.5, "{scores}");
    assert!(scores["log_loss"].is_null(), "{scores}");

    for (file, needles) in [
        (
            "missing.csv",
            &["missing.csv", "no row", "current", "normal"][..],
        ),
        ("unknown.csv", &["unknown.csv:9", "voltage"]),
        (
            "repeated.csv",
            &["repeated.csv:9", "second row", "pressure"],
        ),
        ("variance.csv", &["variance.csv:9", "variance"]),
        ("absent.csv", &["absent.csv"]),
    ] {
        run_err(
            dir.path(),
            &[
                "fit", "bilevel", "--data", data, "--prior", file, "--out", "x.json",
            ],
            needles,
        );
    }
}

#[test]
fn a_first_row_of_data_is_not_taken_for_a_header() {
    let rows = "1.5,2.0,yes\n0.5,1.0,no\n1.7,2.2,yes\n0.4,0.9,no\n1.6,2.1,yes\n0.6,1.1,no\n";
    let dir = temp_with(&[("headerless.csv", rows)]);
    run_err(
        dir.path(),
        &["fit", "nb", "--data", "headerless.csv", "--out", "nb.json"],
        &["headerless.csv", "first row reads as data", "--no-header"],
    );
    let report = run_ok(
        dir.path(),
        &[
            "fit",
            "nb",
            "--data",
            "headerless.csv",
            "--no-header",
            "--out",
            "nb.json",
        ],
    );
    assert!(report.contains("on 6 rows"), "{report}");
    // Numbered columns with a named class are a header.
    let dir = temp_with(&[("numbered.csv", &format!("1,2,class\n{rows}"))]);
    let report = run_ok(
        dir.path(),
        &["fit", "nb", "--data", "numbered.csv", "--out", "nb.json"],
    );
    assert!(report.contains("on 6 rows"), "{report}");
}

/// A European CSV (`;` between fields, decimal commas) is never read as categories: each
/// missing flag is an error naming it, and with both the numbers are numbers.
#[test]
fn a_european_csv_says_which_flag_it_needs() {
    let dir = temp_with(&[]);
    let (train, test) = (fixture("european.csv"), fixture("european-test.csv"));
    let (eu, eu_test) = (train.as_str(), test.as_str());
    run_err(
        dir.path(),
        &["fit", "nb", "--data", eu, "--out", "nb.json"],
        &["give --delimiter ';'"],
    );
    run_err(
        dir.path(),
        &[
            "fit",
            "nb",
            "--data",
            eu,
            "--delimiter",
            ";",
            "--out",
            "nb.json",
        ],
        &["give --decimal ','", "'7,0'", "column 'a'"],
    );
    let report = run_ok(
        dir.path(),
        &[
            "fit",
            "nb",
            "--data",
            eu,
            "--delimiter",
            ";",
            "--decimal",
            ",",
            "--out",
            "nb.json",
        ],
    );
    assert!(report.contains("gaussian-naive-bayes"), "{report}");
    // The test file's columns are in another order: matched by name.
    let predicted = run_ok(
        dir.path(),
        &[
            "predict",
            "--model",
            "nb.json",
            "--data",
            eu_test,
            "--delimiter",
            ";",
            "--decimal",
            ",",
        ],
    );
    assert_eq!(predicted.lines().collect::<Vec<_>>(), ["prediction", "x"]);
    run_err(
        dir.path(),
        &[
            "fit",
            "nb",
            "--data",
            eu,
            "--decimal",
            ";",
            "--out",
            "nb.json",
        ],
        &["the decimal mark is '.' or ','"],
    );
    run_err(
        dir.path(),
        &[
            "fit",
            "nb",
            "--data",
            &fixture("thousands.csv"),
            "--out",
            "nb.json",
        ],
        &["',' separating thousands", "column 'a'"],
    );
}

/// A fit a user must not trust as it is says so on a `warning:` line, and `--strict` makes it
/// an error that saves nothing.
#[test]
fn warnings_are_loud_and_strict_makes_them_errors() {
    let dir = temp_with(&[]);
    let (separated, lonely) = (fixture("separated.csv"), fixture("one-row-class.csv"));
    let (separated, lonely) = (separated.as_str(), lonely.as_str());
    let output = gendisc(dir.path())
        .args(["fit", "lr", "--data", separated, "--out", "lr.json"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("warning: the training data are separated"),
        "{stderr}"
    );
    assert!(dir.path().join("lr.json").exists());
    run_err(
        dir.path(),
        &[
            "fit",
            "lr",
            "--data",
            separated,
            "--out",
            "strict.json",
            "--strict",
        ],
        &["--strict", "warning(s)", "not saved"],
    );
    assert!(!dir.path().join("strict.json").exists());
    // The model file keeps the warning.
    let file = fs::read_to_string(dir.path().join("lr.json")).unwrap();
    assert!(file.contains("\"warnings\""), "{file}");
    // A class of one row.
    let output = gendisc(dir.path())
        .args(["fit", "nb", "--data", lonely, "--out", "nb.json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: class 'c' has a single training row"),
        "{stderr}"
    );
    run_err(
        dir.path(),
        &[
            "fit",
            "nb",
            "--data",
            lonely,
            "--out",
            "nb2.json",
            "--require-convergence",
        ],
        &["not saved"],
    );
}

/// `predict --proba` on a model without probabilities writes the classes and says why there are
/// no probabilities; a data file given as the model is told it is not a model file.
#[test]
fn predict_says_what_it_cannot_do_and_what_a_file_is_not() {
    let dir = temp_with(&[]);
    let data = sample();
    let data = data.to_str().unwrap();
    run_ok(
        dir.path(),
        &["fit", "linear-svm", "--data", data, "--out", "svm.json"],
    );
    let output = gendisc(dir.path())
        .args(["predict", "--model", "svm.json", "--data", data, "--proba"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: the model in svm.json gives no class probabilities"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout.lines().next(), Some("prediction"), "{stdout}");
    assert_eq!(stdout.lines().count(), 301);
    run_err(
        dir.path(),
        &["predict", "--model", data, "--data", data],
        &["not a gendisc model file, which is a JSON object"],
    );
}

/// A class whose covariance is singular is named by its label, with the flags that regularise
/// it; `--reg-param` is scikit-learn's `reg_param`.
#[test]
fn a_singular_class_is_named_with_the_flag_that_fixes_it() {
    let dir = temp_with(&[]);
    let collinear = fixture("collinear-class.csv");
    let collinear = collinear.as_str();
    run_err(
        dir.path(),
        &["fit", "qda", "--data", collinear, "--out", "q.json"],
        &["class 0 (label \"x\")", "--reg-param R or --shrinkage W"],
    );
    run_ok(
        dir.path(),
        &[
            "fit",
            "qda",
            "--data",
            collinear,
            "--out",
            "q.json",
            "--reg-param",
            "0.1",
        ],
    );
    let predicted = run_ok(
        dir.path(),
        &["predict", "--model", "q.json", "--data", collinear],
    );
    assert_eq!(predicted.lines().count(), 7, "{predicted}");
}

/// `gendisc fit hybrid` weights each column on its own by default, as `gendisc compare`'s hybrid
/// does; `--regions` groups them.
#[test]
fn the_hybrid_has_one_region_per_column_by_default() {
    let dir = temp_with(&[]);
    let data = sample();
    let data = data.to_str().unwrap();
    run_ok(
        dir.path(),
        &["fit", "hybrid", "--data", data, "--out", "h.json"],
    );
    let file: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("h.json")).unwrap()).unwrap();
    assert_eq!(
        file["model"]["regions"],
        serde_json::json!([[0], [1], [2], [3]])
    );
    let help = run_ok(dir.path(), &["fit", "hybrid", "--help"]);
    assert!(help.contains("one region per column"), "{help}");
}

/// One spelling per flag: `--max-iterations`, `--tolerance`, `--cv-folds` and `--cv-seed`
/// wherever a model has them; the old spellings still work, unlisted.
#[test]
fn one_spelling_for_each_flag() {
    let dir = temp_with(&[]);
    for (model, flags) in [
        ("linear-svm", &["--max-iterations", "--tolerance"][..]),
        ("gdt-cv", &["--cv-folds", "--cv-seed"][..]),
        ("bilevel", &["--max-iterations", "--tolerance"][..]),
        (
            "lr",
            &["--max-iterations", "--tolerance", "--cv-folds", "--cv-seed"][..],
        ),
    ] {
        let help = run_ok(dir.path(), &["fit", model, "--help"]);
        for flag in flags {
            assert!(help.contains(flag), "{model}: {flag} not in\n{help}");
        }
        for old in ["--max-iter ", "--tol ", "--folds ", "  --seed "] {
            if model != "linear-svm" || old != "  --seed " {
                assert!(
                    !help.contains(old),
                    "{model}: {old} still listed in\n{help}"
                );
            }
        }
    }
    let data = sample();
    let data = data.to_str().unwrap();
    run_ok(
        dir.path(),
        &[
            "fit",
            "linear-svm",
            "--data",
            data,
            "--out",
            "a.json",
            "--max-iter",
            "50",
            "--tol",
            "1e-3",
        ],
    );
}

/// GDT's LDA and QDA families take `--shrinkage`, and a singular start says so.
#[test]
fn gdt_shrinkage_fits_a_singular_class() {
    let dir = temp_with(&[]);
    let collinear = fixture("collinear-class.csv");
    let collinear = collinear.as_str();
    let gdt = [
        "fit", "gdt", "--family", "qda", "--data", collinear, "--out", "g.json",
    ];
    run_err(dir.path(), &gdt, &["(give --reg-param R or --shrinkage W)"]);
    let mut shrunk = gdt.to_vec();
    shrunk.extend(["--shrinkage", "0.2", "--lambda", "0.5"]);
    run_ok(dir.path(), &shrunk);
    let predicted = run_ok(
        dir.path(),
        &["predict", "--model", "g.json", "--data", collinear],
    );
    assert_eq!(predicted.lines().count(), 7, "{predicted}");
    // scikit-learn's reg_param too, but not both.
    let mut identity = gdt.to_vec();
    identity.extend(["--reg-param", "0.2"]);
    run_ok(dir.path(), &identity);
    identity.extend(["--shrinkage", "0.2"]);
    run_err(dir.path(), &identity, &["cannot be used with"]);
    // Only LDA and QDA take it.
    let mut balls = shrunk.clone();
    balls[3] = "balls1";
    run_err(dir.path(), &balls, &["shrinkage", "only LDA and QDA"]);
    // … and the message does not then tell the user to give the setting they gave.
    let stderr = gendisc(dir.path()).args(&balls).output().unwrap().stderr;
    let stderr = String::from_utf8_lossy(&stderr);
    assert!(!stderr.contains("give --shrinkage"), "{stderr}");
}

/// `--variance-floor` reaches Balls2's GDT fits (`fit gdt` and `fit gdt-cv`), recorded in the
/// model file in the data's variance units; another family refuses it.
#[test]
fn gdt_variance_floor_reaches_balls2() {
    let csv = badly_scaled(60, 0).replace(",red", "").replace(",blue", "");
    let csv = csv.replace("a,b,colour,class", "a,b,class");
    let dir = temp_with(&[("train.csv", &csv)]);
    let floor_of = |file: &str| -> f64 {
        let text = fs::read_to_string(dir.path().join(file)).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        json["model"]["param"]["variance_floor"]
            .as_f64()
            .unwrap_or(0.0)
    };
    let gdt = [
        "fit",
        "gdt",
        "--family",
        "balls2",
        "--data",
        "train.csv",
        "--lambda",
        "0.5",
    ];
    let mut floored = gdt.to_vec();
    floored.extend(["--variance-floor", "0.05", "--out", "floored.json"]);
    run_ok(dir.path(), &floored);
    let mut plain = gdt.to_vec();
    plain.extend(["--out", "plain.json"]);
    run_ok(dir.path(), &plain);
    assert!(floor_of("floored.json") > 0.0);
    assert_eq!(floor_of("plain.json"), 0.0);
    run_ok(
        dir.path(),
        &[
            "fit",
            "gdt-cv",
            "--family",
            "balls2",
            "--data",
            "train.csv",
            "--grid",
            "1,0.5",
            "--variance-floor",
            "0.05",
            "--out",
            "cv.json",
        ],
    );
    let mut lda = floored.clone();
    lda[3] = "lda";
    run_err(dir.path(), &lda, &["variance_floor", "only Balls2"]);
}

/// Two columns on scales 10⁴ apart, the class the sign of their standardised sum (with a
/// category column that standardisation leaves alone).
fn badly_scaled(n: usize, offset: usize) -> String {
    let mut csv = String::from("a,b,colour,class\n");
    for i in offset..offset + n {
        // A deterministic spread of points: u, v in (−1, 1).
        let u = ((i * 37 + 11) % 101) as f64 / 50.0 - 1.0;
        let v = ((i * 53 + 7) % 97) as f64 / 48.0 - 1.0;
        let class = if u + v > 0.0 { "yes" } else { "no" };
        let colour = ["red", "blue"][i % 2];
        csv.push_str(&format!("{},{},{colour},{class}\n", 1e3 * u + 5e3, 0.1 * v));
    }
    csv
}

/// `--standardize` records the training means and deviations in the model file, and `predict`
/// and `evaluate` replay them on new files.
#[test]
fn standardisation_is_recorded_and_replayed() {
    let train = badly_scaled(200, 0);
    let test = badly_scaled(100, 500);
    let dir = temp_with(&[("train.csv", train.as_str()), ("test.csv", test.as_str())]);
    run_ok(
        dir.path(),
        &[
            "fit",
            "linear-svm",
            "--data",
            "train.csv",
            "--standardize",
            "--out",
            "svm.json",
        ],
    );
    let saved = fs::read_to_string(dir.path().join("svm.json")).unwrap();
    let file: serde_json::Value = serde_json::from_str(&saved).unwrap();
    let standardisation = &file["preprocessing"]["standardisation"];
    let center = standardisation["center"].as_array().unwrap();
    let scale = standardisation["scale"].as_array().unwrap();
    // a, b, then colour's two indicators, left as they are.
    assert_eq!(center.len(), 4, "{standardisation}");
    assert!(
        (center[0].as_f64().unwrap() - 5e3).abs() < 100.0,
        "{standardisation}"
    );
    assert!(scale[0].as_f64().unwrap() > 100.0 && scale[1].as_f64().unwrap() < 0.1);
    assert_eq!(
        (center[2].as_f64(), scale[3].as_f64()),
        (Some(0.0), Some(1.0))
    );
    // The class is a linear function of the standardised columns: the replayed scaling
    // classifies the new file almost perfectly.
    let evaluated = run_ok(
        dir.path(),
        &["evaluate", "--model", "svm.json", "--data", "test.csv"],
    );
    let error: f64 = evaluated
        .lines()
        .find_map(|l| {
            l.strip_prefix("error rate")
                .map(|v| v.trim().parse().unwrap())
        })
        .unwrap_or_else(|| panic!("no error rate in:\n{evaluated}"));
    assert!(error < 0.1, "{evaluated}");
    // Not for models whose features must keep their values.
    run_err(
        dir.path(),
        &[
            "fit",
            "nb",
            "--data",
            "train.csv",
            "--standardize",
            "--out",
            "nb.json",
        ],
        &["--standardize does not apply", "gaussian-nb"],
    );
}

/// A file without a header whose first row repeats a number is not read as a header of
/// duplicated names without saying what to do.
#[test]
fn a_header_of_repeated_numbers_suggests_no_header() {
    let dir = temp_with(&[("digits.tra", "0,1,1,5,a\n2,3,4,5,b\n1,1,0,2,a\n3,3,2,1,b\n")]);
    let fit = [
        "fit",
        "gaussian-nb",
        "--data",
        "digits.tra",
        "--out",
        "m.json",
    ];
    run_err(
        dir.path(),
        &fit,
        &["give --no-header", "duplicate column name '1'"],
    );
    let mut headerless = fit.to_vec();
    headerless.push("--no-header");
    run_ok(dir.path(), &headerless);
}

#[test]
fn cross_validation_marks_a_lambda_without_a_maximiser_and_never_chooses_it() {
    // Two classes a line separates: at λ = 0 the fit on the rows has no maximiser, and the
    // folds do not fit it.
    let mut csv = String::from("u,v,class\n");
    for i in 0..12 {
        let (shift, class) = if i % 2 == 0 {
            (0.0, "low")
        } else {
            (5.0, "high")
        };
        let _ = writeln!(
            csv,
            "{},{},{class}",
            shift + (i % 5) as f64 * 0.3,
            (i % 3) as f64
        );
    }
    let dir = temp_with(&[("separated.csv", &csv)]);
    let args = [
        "fit",
        "gdt-cv",
        "--data",
        "separated.csv",
        "--grid",
        "0.5,0",
        "--cv-folds",
        "3",
        "--out",
        "cv.json",
    ];
    let report = run_ok(dir.path(), &args);
    let lines: Vec<&str> = report.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("0.500000") && l.contains("← chosen"))
            && lines.iter().any(|l| l.contains("0.000000")
                && l.contains("not scored")
                && l.contains("(not a candidate: no finite maximiser on the training rows)")),
        "{report}"
    );
}

#[test]
fn cross_validation_repeats_its_folds_applies_the_one_se_rule_and_prints_the_curve() {
    let dir = temp_with(&[]);
    let data = sample();
    let data = data.to_str().unwrap();
    for (estimator, parameter) in [("lr", "prior variance"), ("gdt-cv", "trade-off λ")] {
        let mut args = vec!["fit", estimator, "--data", data];
        if estimator == "lr" {
            args.extend(["--prior-variance", "cv"]);
        }
        args.extend([
            "--cv-folds",
            "3",
            "--cv-repeats",
            "2",
            "--cv-rule",
            "one-se",
            "--out",
            "cv.json",
        ]);
        let report = run_ok(dir.path(), &args);
        assert!(
            report.contains(&format!("cross-validation of the {parameter}"))
                && report.contains("(one standard error rule)")
                && report.contains("← chosen")
                && report.contains(" ± "),
            "{report}"
        );
        let file: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.path().join("cv.json")).unwrap()).unwrap();
        let selection = &file["model"]["selection"];
        assert_eq!(selection["rule"], "one-standard-error", "{estimator}");
        assert_eq!(
            selection["standard_errors"].as_array().unwrap().len(),
            selection["scores"].as_array().unwrap().len()
        );
        run_ok(
            dir.path(),
            &["predict", "--model", "cv.json", "--data", data],
        );
    }
    run_err(
        dir.path(),
        &[
            "fit",
            "gdt-cv",
            "--data",
            data,
            "--cv-repeats",
            "0",
            "--out",
            "x.json",
        ],
        &["n_repeats"],
    );
}

#[test]
fn lda_fits_constant_and_collinear_columns_with_its_default_svd_solver() {
    let mut csv = String::from("a,b,c,d,class\n");
    for i in 0..40 {
        let (a, b) = ((i * 7 % 11) as f64, (i * 5 % 13) as f64);
        let class = if a + 0.5 * b > 8.0 { "high" } else { "low" };
        csv.push_str(&format!("{a},{b},{},3,{class}\n", a + b));
    }
    let dir = temp_with(&[("collinear.csv", &csv)]);
    // `gendisc fit lda` on the file with `extra` flags, into `out`.
    let fit = |extra: &[&'static str], out: &'static str| {
        let mut args = vec!["fit", "lda", "--data", "collinear.csv", "--out", out];
        args.extend_from_slice(extra);
        args
    };
    let report = run_ok(dir.path(), &fit(&[], "lda.json"));
    assert!(report.contains("fitted lda-svd"), "{report}");
    let predictions = run_ok(
        dir.path(),
        &[
            "predict",
            "--model",
            "lda.json",
            "--data",
            "collinear.csv",
            "--proba",
        ],
    );
    assert_eq!(predictions.lines().count(), 41);
    run_err(
        dir.path(),
        &fit(&["--solver", "covariance"], "x.json"),
        &["not positive definite", "--shrinkage"],
    );
    run_err(
        dir.path(),
        &fit(&["--solver", "svd", "--shrinkage", "0.1"], "x.json"),
        &["--shrinkage", "--solver covariance"],
    );
    let shrunk = run_ok(dir.path(), &fit(&["--shrinkage", "0.1"], "s.json"));
    assert!(shrunk.contains("fitted lda "), "{shrunk}");
}

#[test]
fn a_singular_covariance_names_the_columns_behind_it() {
    let mut csv = String::from("width,height,colour,class\n");
    for i in 0..30 {
        csv.push_str(&format!("{},{},4,{}\n", i % 7, i % 5, i % 2));
    }
    let dir = temp_with(&[("constant.csv", &csv)]);
    for estimator in ["qda", "gdt"] {
        run_err(
            dir.path(),
            &[
                "fit",
                estimator,
                "--data",
                "constant.csv",
                "--out",
                "x.json",
            ],
            &["the columns: colour", "--shrinkage"],
        );
    }
}

/// `gendisc fit lr` by maximum likelihood codes a categorical column as R codes a factor
/// (treatment contrasts, the first level in byte order the reference), so that it fits what
/// R's `glm(family = binomial)` fits: the coefficients and fitted probabilities of
/// `tests/fixtures/glm-factors.txt` (made by `make_glm_factors.R`), with either solver.
#[test]
fn maximum_likelihood_logistic_regression_codes_factors_as_r_glm_does() {
    let reference = fs::read_to_string(fixture("glm-factors.txt")).unwrap();
    let floats = |key: &str| -> Vec<f64> {
        let line = reference
            .lines()
            .find_map(|line| line.strip_prefix(&format!("{key}: ")))
            .unwrap_or_else(|| panic!("no {key} in the fixture"));
        line.split(' ').map(|v| v.parse().unwrap()).collect()
    };
    // glm's order, (Intercept) sitenorth sitesouth visits shiftnight; the model's keeps the
    // intercept last.
    let r = floats("coefficients");
    let expected = [r[1], r[2], r[3], r[4], r[0]];
    let fitted = floats("fitted");
    let dir = temp_with(&[]);
    let data = fixture("glm-factors.csv");
    for solver in ["auto", "glm"] {
        let model = format!("lr-{solver}.json");
        run_ok(
            dir.path(),
            &[
                "fit", "lr", "--data", &data, "--solver", solver, "--out", &model,
            ],
        );
        let file: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.path().join(&model)).unwrap()).unwrap();
        let columns = &file["preprocessing"]["columns"];
        assert_eq!(columns[0]["encoding"]["kind"], "treatment", "{columns}");
        let theta: Vec<f64> = file["model"]["theta"]["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        for (j, (ours, theirs)) in theta.iter().zip(&expected).enumerate() {
            assert!(
                (ours - theirs).abs() <= 1e-6 * theirs.abs().max(1.0),
                "{solver}: coefficient {j}: {ours} against glm's {theirs}"
            );
        }
        let predictions = run_ok(
            dir.path(),
            &["predict", "--model", &model, "--data", &data, "--proba"],
        );
        let mut lines = predictions.lines();
        assert_eq!(lines.next(), Some("prediction,no,yes"));
        let probabilities: Vec<f64> = lines
            .map(|row| row.rsplit(',').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(probabilities.len(), fitted.len());
        for (i, (ours, theirs)) in probabilities.iter().zip(&fitted).enumerate() {
            assert!(
                (ours - theirs).abs() <= 1e-8,
                "{solver}: row {i}: {ours} against glm's {theirs}"
            );
        }
    }
}

/// LDA's covariance solver, QDA and GDT's Gaussian families without regularisation code a
/// factor by treatment contrasts too (an indicator of every level would make every covariance
/// singular), and LDA so coded is the classifier that the SVD solver fits on an indicator of
/// every level: the same probabilities.
#[test]
fn unregularised_gaussian_fits_code_factors_by_treatment_contrasts() {
    let dir = temp_with(&[]);
    let data = fixture("glm-factors.csv");
    let fits: [&[&str]; 4] = [
        &["lda", "--solver", "covariance"],
        &["qda"],
        &["gdt", "--family", "lda", "--lambda", "0.5"],
        &["gdt", "--family", "qda", "--lambda", "0.5"],
    ];
    for (i, fit) in fits.iter().enumerate() {
        let model = format!("m{i}.json");
        let mut args = vec!["fit"];
        args.extend_from_slice(fit);
        args.extend_from_slice(&["--data", &data, "--out", &model]);
        run_ok(dir.path(), &args);
        let file: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.path().join(&model)).unwrap()).unwrap();
        let kinds: Vec<&str> = file["preprocessing"]["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["encoding"]["kind"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, ["treatment", "numeric", "treatment"], "{fit:?}");
    }
    // With shrinkage the covariance is regular whatever the coding: an indicator of every level.
    run_ok(
        dir.path(),
        &[
            "fit",
            "qda",
            "--shrinkage",
            "0.1",
            "--data",
            &data,
            "--out",
            "shrunk.json",
        ],
    );
    let shrunk = fs::read_to_string(dir.path().join("shrunk.json")).unwrap();
    assert!(shrunk.contains("\"one-hot\""), "{shrunk}");

    run_ok(
        dir.path(),
        &["fit", "lda", "--data", &data, "--out", "svd.json"],
    );
    let probabilities = |model: &str| -> Vec<f64> {
        run_ok(
            dir.path(),
            &["predict", "--model", model, "--data", &data, "--proba"],
        )
        .lines()
        .skip(1)
        .map(|row| row.rsplit(',').next().unwrap().parse().unwrap())
        .collect()
    };
    let (covariance, svd) = (probabilities("m0.json"), probabilities("svd.json"));
    assert_eq!(covariance.len(), 160);
    for (i, (a, b)) in covariance.iter().zip(&svd).enumerate() {
        assert!(
            (a - b).abs() < 1e-9,
            "row {i}: {a} against the SVD solver's {b}"
        );
    }
}
