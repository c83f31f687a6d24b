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

/// Runs shard `index` of `count` into `dir/shard-<index>` and returns that directory.
fn compare_shard(dir: &Path, index: usize, count: usize, threads: &str, models: &str) -> PathBuf {
    let out = dir.join(format!("shard-{index}"));
    let shard = format!("{index}/{count}");
    let args = ["--shard", shard.as_str(), "--threads", threads];
    let run = compare(&sample(), &out, models, &args).success();
    assert!(
        stdout(&run).contains(&format!("shard {shard}: ")),
        "{}",
        stdout(&run)
    );
    // A shard writes its store and nothing else.
    let written: Vec<_> = fs::read_dir(&out)
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(written, ["cells.jsonl"], "{}", out.display());
    out
}

/// The `--merge` argument for `shards`.
fn merge_list(shards: &[PathBuf]) -> String {
    let dirs: Vec<String> = shards.iter().map(|p| p.display().to_string()).collect();
    dirs.join(",")
}

#[test]
fn shards_merged_give_the_files_of_a_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let single = dir.path().join("single");
    compare(&sample(), &single, "nb,lr", &["--threads", "2"]).success();
    for count in 1..=3 {
        let split = dir.path().join(format!("split-{count}"));
        // Each shard on its own thread count: the partition does not depend on it.
        let shards: Vec<PathBuf> = (1..=count)
            .map(|i| {
                compare_shard(
                    &split,
                    i,
                    count,
                    if i % 2 == 0 { "2" } else { "1" },
                    "nb,lr",
                )
            })
            .collect();
        let merged = split.join("merged");
        let run = compare(
            &sample(),
            &merged,
            "nb,lr",
            &["--merge", &merge_list(&shards)],
        )
        .success();
        assert!(
            stdout(&run).contains("0 run, 12 resumed"),
            "{}",
            stdout(&run)
        );
        for file in OUTPUTS {
            assert_eq!(
                fs::read(single.join(file)).unwrap(),
                fs::read(merged.join(file)).unwrap(),
                "{file} of {count} merged shards differs from the single run's"
            );
        }
    }
}

#[test]
fn a_merge_refuses_shards_that_are_not_one_whole_split() {
    let dir = tempfile::tempdir().unwrap();
    let shards: Vec<PathBuf> = (1..=3)
        .map(|i| compare_shard(dir.path(), i, 3, "1", "nb,lr"))
        .collect();
    let store = |shard: &Path| shard.join("cells.jsonl").display().to_string();
    let out = dir.path().join("merged");
    let refused = |given: &[PathBuf], expected: &[&str]| {
        let failure = compare(&sample(), &out, "nb,lr", &["--merge", &merge_list(given)]).failure();
        let message = stderr(&failure);
        for part in expected {
            assert!(message.contains(part), "`{part}` not in: {message}");
        }
        assert!(!out.join("REPORT.md").exists());
    };
    refused(
        &shards[..2],
        &["shard 3/3 missing", "not merged", &store(&shards[0])],
    );
    refused(
        &[shards[0].clone(), shards[1].clone(), shards[1].clone()],
        &[&store(&shards[1]), "is shard 2/3, as is", "given once"],
    );
    // A shard of another comparison (other models).
    let foreign = compare_shard(&dir.path().join("other"), 3, 3, "1", "nb,lda");
    refused(
        &[shards[0].clone(), shards[1].clone(), foreign.clone()],
        &[&store(&foreign), "fingerprint", "--models"],
    );
    // A shard of a split into two.
    let halves = dir.path().join("halves");
    let half = compare_shard(&halves, 2, 2, "1", "nb,lr");
    refused(
        &[shards[0].clone(), half.clone()],
        &[&store(&half), "is shard 2/2", "same number of shards"],
    );
    // An unfinished shard: its store lost its last cell.
    let cut = dir.path().join("cut");
    fs::create_dir_all(&cut).unwrap();
    let text = fs::read_to_string(shards[2].join("cells.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    fs::write(
        cut.join("cells.jsonl"),
        format!("{}\n", lines[..lines.len() - 1].join("\n")),
    )
    .unwrap();
    refused(
        &[shards[0].clone(), shards[1].clone(), cut.clone()],
        &[&store(&cut), "did not finish"],
    );
}

#[test]
fn a_shard_run_leaves_a_whole_run_in_its_directory_alone() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    compare(&sample(), &whole, "nb,lr", &[]).success();
    let store = fs::read(whole.join("cells.jsonl")).unwrap();
    let failure = compare(&sample(), &whole, "nb,lr", &["--shard", "1/2"]).failure();
    let message = stderr(&failure);
    assert!(message.contains("cells.jsonl"), "{message}");
    assert!(message.contains("shard"), "{message}");
    assert_eq!(fs::read(whole.join("cells.jsonl")).unwrap(), store);
}

#[test]
fn a_bad_shard_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    for (shard, expected) in [
        ("0/3", "shards count from 1"),
        ("4/3", "only 3 shards"),
        ("1/0", "at least one shard"),
        ("half", "write it as I/N"),
    ] {
        let out = dir.path().join(shard.replace('/', "-"));
        let failure = compare(&sample(), &out, "nb,lr", &["--shard", shard]).failure();
        let message = stderr(&failure);
        assert!(message.contains(expected), "{shard}: {message}");
        assert!(!out.exists());
    }
    let both = compare(
        &sample(),
        &dir.path().join("both"),
        "nb,lr",
        &["--shard", "1/2", "--merge", "a,b"],
    )
    .failure();
    assert!(
        stderr(&both).contains("cannot be used with"),
        "{}",
        stderr(&both)
    );
}

/// 240 rows of a shop table — a text column `site` of three levels, a number `visits` and the
/// class `sold` — written after `header` into a file `name`, compared with nb, lr and lda:
/// the report and the rows of `replicates.csv`.
fn compare_shops(name: &str, header: &str) -> (String, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join(name);
    let mut table = String::from(header);
    for i in 0..240 {
        let site = ["north", "south", "east"][i % 3];
        let sold = usize::from(i % 4 < 2);
        let visits = 3.0 + sold as f64 + ((i * 37) % 11) as f64 / 4.0;
        table.push_str(&format!("{site},{visits},{}\n", ["no", "yes"][sold]));
    }
    fs::write(&data, table).unwrap();
    let out = dir.path().join("out");
    compare(&data, &out, "nb,lr,lda", &[]).success();
    let report = fs::read_to_string(out.join("REPORT.md")).unwrap();
    (report, data_lines(&out.join("replicates.csv")))
}

/// A categorical column is coded as R codes a factor (an indicator of each level but the
/// first), so that logistic regression and LDA, which an indicator of every level beside their
/// intercept would make collinear, fit the table; the report says how the column was coded.
#[test]
fn a_categorical_column_is_coded_by_indicators_of_all_levels_but_the_first() {
    let (report, rows) = compare_shops("shops.csv", "site,visits,sold\n");
    assert!(
        report.contains(
            "3 numeric feature columns (2 of them indicators of the levels, but the first, of \
             the categorical column `site`)"
        ),
        "{report}"
    );
    // At the largest size (every level in every training set) every fit succeeds.
    let largest: Vec<&String> = rows.iter().filter(|row| row.starts_with("120,")).collect();
    assert_eq!(largest.len(), 4 * 3);
    for row in largest {
        assert!(row.ends_with(",0"), "{row}");
    }
}

/// A level that an ARFF header declares but no row holds gives no indicator, so that the
/// indicators of the levels that occur, but the first, are what the models see.
#[test]
fn a_declared_level_that_no_row_holds_is_left_out() {
    let (report, rows) = compare_shops(
        "shops.arff",
        "@relation shops\n@attribute site {west,north,south,east}\n@attribute visits numeric\n\
         @attribute sold {no,yes}\n@data\n",
    );
    assert!(
        report.contains("3 numeric feature columns (2 of them indicators"),
        "{report}"
    );
    for row in rows.iter().filter(|row| row.starts_with("120,")) {
        assert!(row.ends_with(",0"), "{row}");
    }
}

/// `--shrinkage` regularises LDA where it has too few rows for its covariance, says so in the
/// report, and is refused where it could not act.
#[test]
fn shrinkage_gives_lda_a_fit_on_few_rows_and_is_refused_without_a_covariance_model() {
    let dir = tempfile::tempdir().unwrap();
    // Eight columns, two classes: LDA's pooled covariance needs ten rows.
    let wide = dir.path().join("wide.csv");
    let mut table = (0..8).map(|j| format!("v{j},")).collect::<String>() + "class\n";
    for i in 0..240_usize {
        let class = i % 2;
        for j in 0..8 {
            let v = class as f64 + ((i * 31 + j * 17) % 13) as f64 / 6.0;
            table.push_str(&format!("{v},"));
        }
        table.push_str(["a\n", "b\n"][class]);
    }
    fs::write(&wide, table).unwrap();
    let plain = dir.path().join("plain");
    compare(&wide, &plain, "nb,lda", &[]).success();
    let lda_at_6 = |out: &Path| {
        data_lines(&out.join("replicates.csv"))
            .into_iter()
            .filter(|row| row.starts_with("6,") && row.contains(",lda,"))
            .map(|row| row.ends_with(",1"))
            .collect::<Vec<bool>>()
    };
    assert_eq!(lda_at_6(&plain), [true; 4]);
    let shrunk = dir.path().join("shrunk");
    compare(&wide, &shrunk, "nb,lda", &["--shrinkage", "0.1"]).success();
    assert_eq!(lda_at_6(&shrunk), [false; 4]);
    let report = fs::read_to_string(shrunk.join("REPORT.md")).unwrap();
    assert!(
        report.contains("shrunk toward the scaled identity by γ = 0.1"),
        "{report}"
    );
    let refused = compare(
        &sample(),
        &dir.path().join("refused"),
        "nb,lr",
        &["--shrinkage", "0.1"],
    )
    .failure();
    assert!(
        stderr(&refused).contains("lda, qda and gdt-cv"),
        "{}",
        stderr(&refused)
    );
}
