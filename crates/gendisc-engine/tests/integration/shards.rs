//! Shards and their merge: a study run as N shards and merged gives the outcomes and the store
//! of a single run, byte for byte, whatever the thread count; a merge refuses stores that are
//! not every finished shard of one split of the same study.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{complete_lines, TempDir, ToyStudy};
use gendisc_engine::{Progress, Runner, RunnerSettings, Shard, Study, StudyError, StudyResults};

fn settings(store: &Path) -> RunnerSettings {
    RunnerSettings {
        store: Some(store.to_path_buf()),
        progress: Progress::Never,
        ..RunnerSettings::default()
    }
}

/// Runs shard `index` of `count` into `dir/shard-<index>.jsonl` and returns the store's path.
fn run_shard(study: &ToyStudy, dir: &Path, index: usize, count: usize, threads: usize) -> PathBuf {
    let store = dir.join(format!("shard-{index}.jsonl"));
    let shard = Shard::new(index, count).unwrap();
    let runner = Runner::new(RunnerSettings {
        shard: Some(shard),
        threads: Some(threads),
        ..settings(&store)
    })
    .unwrap();
    match runner.run(study) {
        Err(StudyError::ShardFinished(runs)) => {
            assert_eq!(runs.len(), 1);
            assert_eq!(runs[0].shard, shard);
            assert_eq!(runs[0].study, "toy");
            assert_eq!(runs[0].store.as_deref(), Some(store.as_path()));
            assert_eq!(runs[0].report.cells, shard.n_cells(study.cells().len()));
        }
        other => panic!("shard {shard} did not end as a finished shard: {other:?}"),
    }
    store
}

fn merge(
    study: &ToyStudy,
    shards: &[PathBuf],
    store: &Path,
) -> gendisc_engine::Result<StudyResults> {
    Runner::new(RunnerSettings {
        merge_shards: shards.to_vec(),
        ..settings(store)
    })
    .unwrap()
    .run(study)
}

/// The results of an unsharded run and the bytes of its store.
fn single_run(study: &ToyStudy, dir: &Path) -> (StudyResults, Vec<u8>) {
    let store = dir.join("single.jsonl");
    let results = Runner::new(settings(&store)).unwrap().run(study).unwrap();
    (results, fs::read(&store).unwrap())
}

#[test]
fn shards_merged_equal_a_single_run_byte_for_byte() {
    let study = ToyStudy::new(11);
    let dir = TempDir::new("shards-equal");
    let (single, single_bytes) = single_run(&study, dir.path());
    let n_cells = study.cells().len();
    for count in 1..=3 {
        for threads in [1, 2] {
            let shard_dir = dir.join(&format!("{count}-{threads}"));
            let stores: Vec<PathBuf> = (1..=count)
                .map(|i| run_shard(&study, &shard_dir, i, count, threads))
                .collect();
            // Each shard's store holds its header and its own cells only.
            for (i, store) in stores.iter().enumerate() {
                let shard = Shard::new(i + 1, count).unwrap();
                assert_eq!(complete_lines(store), 1 + shard.n_cells(n_cells));
                let text = fs::read_to_string(store).unwrap();
                let header = text.lines().next().unwrap();
                assert!(
                    header.contains(&format!("\"shard\":\"{shard}\"")),
                    "{header}"
                );
            }
            let merged_store = shard_dir.join("merged.jsonl");
            // Merging in another order changes nothing.
            let mut given = stores.clone();
            given.reverse();
            let merged = merge(&study, &given, &merged_store).unwrap();
            assert!(
                merged.bitwise_eq(&single),
                "{count} shards, {threads} threads"
            );
            assert_eq!(merged.report().resumed, n_cells);
            assert_eq!(merged.report().ran, 0);
            assert_eq!(
                fs::read(&merged_store).unwrap(),
                single_bytes,
                "{count} shards, {threads} threads"
            );
            // A normal run on the merged store resumes every cell and leaves it as it is.
            let again = Runner::new(settings(&merged_store))
                .unwrap()
                .run(&study)
                .unwrap();
            assert_eq!(again.report().resumed, n_cells);
            assert!(again.bitwise_eq(&single));
            assert_eq!(fs::read(&merged_store).unwrap(), single_bytes);
        }
    }
}

#[test]
fn a_shard_run_resumes_its_own_store_and_runs_only_its_cells() {
    let study = ToyStudy::new(3);
    let dir = TempDir::new("shard-resume");
    let store = run_shard(&study, dir.path(), 2, 3, 2);
    let first_calls = study.calls();
    assert_eq!(
        first_calls,
        Shard::new(2, 3).unwrap().n_cells(study.cells().len())
    );
    let bytes = fs::read(&store).unwrap();
    // Run again: every cell is resumed, nothing runs, the store is unchanged.
    let again = Runner::new(RunnerSettings {
        shard: Some(Shard::new(2, 3).unwrap()),
        ..settings(&store)
    })
    .unwrap()
    .run(&study);
    match again {
        Err(StudyError::ShardFinished(runs)) => {
            assert_eq!(runs[0].report.resumed, runs[0].report.cells);
            assert_eq!(runs[0].report.ran, 0);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(study.calls(), first_calls);
    assert_eq!(fs::read(&store).unwrap(), bytes);
    // Neither another shard nor the whole study resumes a shard's store.
    for shard in [
        Some(Shard::new(1, 3).unwrap()),
        Some(Shard::new(2, 4).unwrap()),
        None,
    ] {
        let error = Runner::new(RunnerSettings {
            shard,
            ..settings(&store)
        })
        .unwrap()
        .run(&study)
        .unwrap_err();
        match error {
            StudyError::StoreMismatch { field, .. } => assert_eq!(field, "shard"),
            other => panic!("{other:?}"),
        }
    }
}

/// Expects a merge of `stores` to fail with a message that contains each of `expected`.
fn refused(study: &ToyStudy, stores: &[PathBuf], out: &Path, expected: &[&str]) {
    let error = merge(study, stores, out).unwrap_err();
    let message = error.to_string();
    for part in expected {
        assert!(message.contains(part), "`{part}` not in: {message}");
    }
    assert!(!out.exists(), "a refused merge wrote {}", out.display());
}

#[test]
fn a_merge_refuses_what_is_not_every_finished_shard_of_one_split() {
    let study = ToyStudy::new(5);
    let dir = TempDir::new("shard-refusals");
    let out = dir.join("merged.jsonl");
    let of3: Vec<PathBuf> = (1..=3)
        .map(|i| run_shard(&study, &dir.join("of3"), i, 3, 1))
        .collect();
    let shown = |path: &Path| path.display().to_string();

    // A shard missing.
    refused(
        &study,
        &of3[..2],
        &out,
        &["shard 3/3 missing", &shown(&of3[0]), &shown(&of3[1])],
    );
    // The same shard twice.
    refused(
        &study,
        &[of3[0].clone(), of3[1].clone(), of3[1].clone()],
        &out,
        &[&shown(&of3[1]), "is shard 2/3, as is", "given once"],
    );
    // Shards of splits into different numbers.
    let of2_first = run_shard(&study, &dir.join("of2"), 1, 2, 1);
    refused(
        &study,
        &[of3[0].clone(), of2_first.clone()],
        &out,
        &[
            &shown(&of2_first),
            "is shard 1/2",
            "shard 1/3",
            "same number of shards",
        ],
    );
    // Another study's shard (another identifier), and a shard of another configuration.
    let other_config = ToyStudy::new(6);
    let foreign = run_shard(&other_config, &dir.join("seed6"), 3, 3, 1);
    refused(
        &study,
        &[of3[0].clone(), of3[1].clone(), foreign.clone()],
        &out,
        &[&shown(&foreign), "fingerprint", "one study, configuration"],
    );
    let renamed = dir.join("renamed.jsonl");
    let text = fs::read_to_string(&of3[2]).unwrap();
    fs::write(
        &renamed,
        text.replacen("\"study\":\"toy\"", "\"study\":\"other\"", 1),
    )
    .unwrap();
    refused(
        &study,
        &[of3[0].clone(), of3[1].clone(), renamed.clone()],
        &out,
        &[&shown(&renamed), "study `other`", "`toy`"],
    );
    // A whole study's store is not a shard.
    let (_, single) = single_run(&study, dir.path());
    let whole = dir.join("single.jsonl");
    assert_eq!(fs::read(&whole).unwrap(), single);
    refused(
        &study,
        std::slice::from_ref(&whole),
        &out,
        &[&shown(&whole), "not of a shard"],
    );
    // Overlapping shards: a cell of shard 1 in shard 2's store.
    let overlapping = dir.join("overlapping.jsonl");
    let first_cell_line = fs::read_to_string(&of3[0])
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    fs::write(
        &overlapping,
        format!(
            "{}{first_cell_line}\n",
            fs::read_to_string(&of3[1]).unwrap()
        ),
    )
    .unwrap();
    refused(
        &study,
        &[of3[0].clone(), overlapping.clone(), of3[2].clone()],
        &out,
        &[&shown(&overlapping), "is a cell of shard 1/3", "overlap"],
    );
    // An unfinished shard: cells missing, or a last line cut short.
    let unfinished = dir.join("unfinished.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    fs::write(
        &unfinished,
        format!("{}\n", lines[..lines.len() - 2].join("\n")),
    )
    .unwrap();
    refused(
        &study,
        &[of3[0].clone(), of3[1].clone(), unfinished.clone()],
        &out,
        &[
            &shown(&unfinished),
            "did not finish",
            "the first missing is",
        ],
    );
    let cut = dir.join("cut.jsonl");
    fs::write(&cut, &text[..text.len() - 5]).unwrap();
    refused(
        &study,
        &[of3[0].clone(), of3[1].clone(), cut.clone()],
        &out,
        &[&shown(&cut), "incomplete line"],
    );
    // A store that is not there.
    let absent = dir.join("absent.jsonl");
    refused(
        &study,
        &[of3[0].clone(), of3[1].clone(), absent.clone()],
        &out,
        &[&shown(&absent), "no such file"],
    );
    // And the three shards as they are merge.
    merge(&study, &of3, &out).unwrap();
}

#[test]
fn a_shard_and_a_merge_are_not_one_run() {
    let error = Runner::new(RunnerSettings {
        shard: Some(Shard::new(1, 2).unwrap()),
        merge_shards: vec![PathBuf::from("a.jsonl")],
        ..RunnerSettings::default()
    })
    .unwrap_err();
    assert!(error.to_string().contains("not both"), "{error}");
}

#[test]
fn a_shard_run_without_a_store_still_reports_its_cells() {
    let study = ToyStudy::new(2);
    let n_cells = study.cells().len();
    let error = Runner::new(RunnerSettings {
        shard: Some(Shard::new(4, 7).unwrap()),
        progress: Progress::Never,
        ..RunnerSettings::default()
    })
    .unwrap()
    .run(&study)
    .unwrap_err();
    let message = error.to_string();
    match error {
        StudyError::ShardFinished(runs) => {
            assert_eq!(
                runs[0].report.ran,
                Shard::new(4, 7).unwrap().n_cells(n_cells)
            );
            assert_eq!(runs[0].store, None);
        }
        other => panic!("{other:?}"),
    }
    assert!(message.contains("shard 4/7 of `toy`"), "{message}");
    assert!(message.contains("merge"), "{message}");
}
