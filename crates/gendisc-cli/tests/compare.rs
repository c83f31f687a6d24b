//! `gendisc compare` on the sample table: outputs that agree with each other, the same files for
//! the same seed, a resumed run that recomputes nothing, and clear errors for bad input.

use std::fs;
use std::path::{Path, PathBuf};

// The command's module itself, until the binary's subcommand can be run from here.
#[allow(dead_code)]
#[path = "../src/compare/mod.rs"]
mod compare;

use compare::Args;

/// The sample table: 300 rows, four numeric columns, classes `faulty` and `normal`.
fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/data/machines.csv")
}

fn args(data: PathBuf, out: &Path, models: &str) -> Args {
    Args {
        data,
        target: Some("state".into()),
        models: models.split(',').map(str::to_string).collect(),
        sizes: Some(vec![6, 20, 120]),
        grid_points: 10,
        replicates: 4,
        seed: 7,
        max_test: Some(100),
        threads: Some(2),
        out: out.to_path_buf(),
    }
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
    let report = compare::compare(&args(sample(), &first, "nb,lr,hybrid,lda")).unwrap();
    assert_eq!((report.cells, report.ran, report.resumed), (12, 12, 0));
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
    let report_text = fs::read_to_string(first.join("REPORT.md")).unwrap();
    for crossover in &crossovers {
        let fields: Vec<&str> = crossover.split(',').collect();
        assert!(
            report_text.contains(&format!("**{}**", fields[0])),
            "{crossover}"
        );
        if fields[2] != "none" {
            assert!(
                report_text.contains(&format!("m = {}", fields[2])),
                "{crossover}"
            );
        }
    }

    // The same seed on one thread gives the same bytes.
    let mut one_thread = args(sample(), &second, "nb,lr,hybrid,lda");
    one_thread.threads = Some(1);
    compare::compare(&one_thread).unwrap();
    for file in OUTPUTS {
        assert_eq!(
            fs::read(first.join(file)).unwrap(),
            fs::read(second.join(file)).unwrap(),
            "{file} differs"
        );
    }

    // Running the finished comparison again only reads it back.
    let report = compare::compare(&args(sample(), &first, "nb,lr,hybrid,lda")).unwrap();
    assert_eq!((report.ran, report.resumed), (0, 12));
    for file in OUTPUTS {
        assert_eq!(
            fs::read(first.join(file)).unwrap(),
            fs::read(second.join(file)).unwrap(),
            "{file} changed on resuming"
        );
    }
}

#[test]
fn an_unknown_model_names_the_known_ones() {
    let dir = tempfile::tempdir().unwrap();
    let message = compare::compare(&args(sample(), dir.path(), "nb,svm"))
        .unwrap_err()
        .to_string();
    assert!(message.contains("svm"), "{message}");
    assert!(message.contains("nb, lr, hybrid, gdt-cv"), "{message}");
}

#[test]
fn a_one_class_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("one-class.csv");
    let rows: String = (0..20).map(|i| format!("{i},{},normal\n", i * 2)).collect();
    fs::write(&data, format!("a,b,state\n{rows}")).unwrap();
    let error = compare::compare(&args(data, &dir.path().join("out"), "nb,lr")).unwrap_err();
    let message = format!("{error:#}");
    assert!(message.contains("one-class.csv"), "{message}");
    assert!(message.contains("at least two"), "{message}");
}
