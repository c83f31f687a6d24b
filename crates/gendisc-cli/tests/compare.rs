//! `gendisc compare` on the sample table: outputs that agree with each other, the same files for
//! the same seed, a finished run that resumes without recomputing, an interrupted one that ends
//! with the same files, and clear errors for bad input.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;

/// The sample table: 300 rows, four numeric columns, classes `faulty` and `normal`.
fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/data/machines.csv")
}

/// `gendisc compare` on `data` into `out` with three sizes and four replicates, and `extra`
/// arguments.
fn compare(data: &Path, out: &Path, models: &str, extra: &[&str]) -> assert_cmd::assert::Assert {
    let mut command = cargo_bin_cmd!("gendisc");
    command
        .arg("compare")
        .arg("--data")
        .arg(data)
        .arg("--out")
        .arg(out)
        .args([
            "--models",
            models,
            "--sizes",
            "6,20,120",
            "--replicates",
            "4",
        ])
        .args(["--seed", "7", "--max-test", "100"])
        .args(extra);
    command.assert()
}

fn stdout(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

fn stderr(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

const OUTPUTS: [&str; 7] = [
    "cells.jsonl",
    "replicates.csv",
    "summary.csv",
    "differences.csv",
    "crossover.csv",
    "learning_curves.svg",
    "REPORT.md",
];

fn data_lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect()
}

#[test]
fn outputs_agree_are_reproducible_and_resume_without_work() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (dir.path().join("first"), dir.path().join("second"));
    let models = "nb,lr,hybrid,lda";
    let run = compare(
        &sample(),
        &first,
        models,
        &["--target", "state", "--threads", "2"],
    )
    .success();
    assert!(stdout(&run).contains("12 cells (3 sizes × 4 replicates): 12 run, 0 resumed"));
    for file in OUTPUTS {
        assert!(first.join(file).is_file(), "{file} is missing");
    }

    // One row per size × replicate × model, every error a rate.
    let rows = data_lines(&first.join("replicates.csv"));
    assert_eq!(rows.len(), 3 * 4 * 4);
    for row in &rows {
        let fields: Vec<&str> = row.split(',').collect();
        if fields[6] == "0" {
            let error: f64 = fields[4].parse().unwrap();
            assert!((0.0..=1.0).contains(&error), "{row}");
        }
    }
    assert_eq!(data_lines(&first.join("summary.csv")).len(), 3 * 4);
    // lr and hybrid against nb and lda, at every size.
    assert_eq!(data_lines(&first.join("differences.csv")).len(), 4 * 3);
    let crossovers = data_lines(&first.join("crossover.csv"));
    assert_eq!(crossovers.len(), 4);
    let report = fs::read_to_string(first.join("REPORT.md")).unwrap();
    for crossover in &crossovers {
        let fields: Vec<&str> = crossover.split(',').collect();
        assert!(
            report.contains(&format!("**{}**", fields[0])),
            "{crossover}"
        );
        if fields[2] != "none" {
            assert!(
                report.contains(&format!("m = {}", fields[2])),
                "{crossover}"
            );
        }
    }

    // The same seed on one thread, the class column named by its position: the same bytes.
    compare(
        &sample(),
        &second,
        models,
        &["--target", "4", "--threads", "1"],
    )
    .success();
    for file in OUTPUTS {
        assert_eq!(
            fs::read(first.join(file)).unwrap(),
            fs::read(second.join(file)).unwrap(),
            "{file} differs"
        );
    }

    // Running the finished comparison again only reads it back.
    let again = compare(&sample(), &first, models, &[]).success();
    assert!(
        stdout(&again).contains("0 run, 12 resumed"),
        "{}",
        stdout(&again)
    );
    for file in OUTPUTS {
        assert_eq!(
            fs::read(first.join(file)).unwrap(),
            fs::read(second.join(file)).unwrap(),
            "{file} changed on resuming"
        );
    }

    // A run stopped after five cells (its store cut after the header and five lines, with half
    // of a sixth) runs the other seven and ends with the same files.
    let store = first.join("cells.jsonl");
    let text = fs::read_to_string(&store).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = format!("{}\n{}", lines[..6].join("\n"), &lines[6][..20]);
    fs::write(&store, cut).unwrap();
    let resumed = compare(&sample(), &first, models, &[]).success();
    assert!(
        stdout(&resumed).contains("7 run, 5 resumed"),
        "{}",
        stdout(&resumed)
    );
    for file in OUTPUTS {
        assert_eq!(
            fs::read(first.join(file)).unwrap(),
            fs::read(second.join(file)).unwrap(),
            "{file} differs after an interrupted run"
        );
    }
}

#[test]
fn an_unknown_model_names_the_known_ones() {
    let dir = tempfile::tempdir().unwrap();
    let failure = compare(&sample(), dir.path(), "nb,svm", &[]).failure();
    let message = stderr(&failure);
    assert!(message.contains("svm"), "{message}");
    assert!(message.contains("nb, lr, hybrid, gdt-cv"), "{message}");
}

#[test]
fn a_one_class_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("one-class.csv");
    let rows: String = (0..20).map(|i| format!("{i},{},normal\n", i * 2)).collect();
    fs::write(&data, format!("a,b,state\n{rows}")).unwrap();
    let failure = compare(&data, &dir.path().join("out"), "nb,lr", &[]).failure();
    let message = stderr(&failure);
    assert!(message.contains("one-class.csv"), "{message}");
    assert!(message.contains("at least two"), "{message}");
}
