//! The runner and the result store: determinism across thread counts, interruption and
//! resumption, damaged stores, mismatched configurations, bad studies and settings.

use std::collections::HashSet;
use std::fs;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use crate::common::{complete_lines, TempDir, ToyStudy};
use gendisc_core::Error;
use gendisc_engine::{
    Cell, FlushPolicy, OnCellError, OnMismatch, Outcome, Progress, Runner, RunnerSettings, Schema,
    Study, StudyError, StudyResults,
};
use proptest::prelude::*;

fn runner_with_store(path: &Path) -> Runner {
    Runner::new(RunnerSettings {
        store: Some(path.to_path_buf()),
        progress: Progress::Never,
        ..RunnerSettings::default()
    })
    .unwrap()
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// The outcomes of an uninterrupted run and the bytes of its finished store.
fn reference(study: &ToyStudy) -> (StudyResults, Vec<u8>) {
    let dir = TempDir::new("reference");
    let path = dir.join("results.jsonl");
    let results = pool(1)
        .install(|| runner_with_store(&path).run(study))
        .unwrap();
    (results, fs::read(&path).unwrap())
}

#[test]
fn outcomes_are_bit_identical_for_one_and_two_threads() {
    let study = ToyStudy::new(7);
    let one = pool(1).install(|| Runner::default().run(&study)).unwrap();
    let two = pool(2).install(|| Runner::default().run(&study)).unwrap();
    assert!(one.bitwise_eq(&two));
    assert_eq!(one.cells(), study.cells().as_slice());
    // Each outcome is the cell's own, computed directly.
    for (cell, outcome) in one.iter() {
        assert!(outcome.bitwise_eq(&study.expected(cell)), "{cell}");
    }
    // The runner's own pools give the same bits, and the same finished store, byte for byte.
    let stores: Vec<Vec<u8>> = [1, 2]
        .into_iter()
        .map(|threads| {
            let dir = TempDir::new("threads");
            let path = dir.join("results.jsonl");
            let runner = Runner::new(RunnerSettings {
                threads: Some(threads),
                store: Some(path.clone()),
                progress: Progress::Never,
                ..RunnerSettings::default()
            })
            .unwrap();
            let results = runner.run(&study).unwrap();
            assert!(results.bitwise_eq(&one));
            assert_eq!(results.report().ran, 300);
            fs::read(&path).unwrap()
        })
        .collect();
    assert_eq!(stores[0], stores[1]);
    // The finished store is canonical: header, then cells in canonical order.
    let text = String::from_utf8(stores[0].clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 301);
    assert!(lines[1].starts_with(r#"{"cell":{"dataset":"alpha","train_size":5,"replicate":0}"#));
    assert!(lines[300].starts_with(r#"{"cell":{"dataset":"gamma","train_size":40,"replicate":24}"#));
}

#[test]
fn a_run_that_fails_after_n_cells_resumes_to_the_same_output() {
    let plain = ToyStudy::new(3);
    let (expected, expected_bytes) = reference(&ToyStudy::new(3));

    let dir = TempDir::new("fail-after");
    let path = dir.join("results.jsonl");
    let mut failing = ToyStudy::new(3);
    failing.fail_after = Some(120);
    let error = pool(2)
        .install(|| runner_with_store(&path).run(&failing))
        .unwrap_err();
    let StudyError::CellsFailed {
        failures,
        completed,
        total,
    } = error
    else {
        panic!("expected CellsFailed, got {error}");
    };
    assert_eq!(total, 300);
    assert_eq!(completed, 120, "exactly the successful calls have outcomes");
    assert!(!failures.is_empty());
    assert!(failures.windows(2).all(|w| w[0].index < w[1].index));
    assert!(failures
        .iter()
        .all(|f| matches!(f.error, Error::Numerical { .. }) && f.cell == plain.cells()[f.index]));
    // Every finished cell reached the store, and the file is not the finished one yet.
    assert_eq!(complete_lines(&path), 1 + 120);

    let resumed = pool(2)
        .install(|| runner_with_store(&path).run(&plain))
        .unwrap();
    assert_eq!(resumed.report().resumed, 120);
    assert_eq!(resumed.report().ran, 180);
    assert_eq!(plain.calls(), 180, "resumed cells are not run again");
    assert!(resumed.bitwise_eq(&expected));
    assert_eq!(fs::read(&path).unwrap(), expected_bytes);

    // A finished store is read back without running anything.
    let again = ToyStudy::new(3);
    let read_back = runner_with_store(&path).run(&again).unwrap();
    assert_eq!(again.calls(), 0);
    assert_eq!(read_back.report().resumed, 300);
    assert!(read_back.bitwise_eq(&expected));
    assert_eq!(fs::read(&path).unwrap(), expected_bytes);
}

#[test]
fn continue_runs_every_other_cell_and_reports_all_failures() {
    let plain = ToyStudy::new(5);
    let (expected, expected_bytes) = reference(&ToyStudy::new(5));
    let cells = plain.cells();
    let dir = TempDir::new("continue");
    let path = dir.join("results.jsonl");
    let mut failing = ToyStudy::new(5);
    failing.failing_cells = [cells[250].clone(), cells[3].clone(), cells[77].clone()]
        .into_iter()
        .collect();
    let runner = Runner::new(RunnerSettings {
        store: Some(path.clone()),
        progress: Progress::Never,
        on_cell_error: OnCellError::Continue,
        ..RunnerSettings::default()
    })
    .unwrap();
    let Err(StudyError::CellsFailed {
        failures,
        completed,
        ..
    }) = pool(2).install(|| runner.run(&failing))
    else {
        panic!("expected CellsFailed");
    };
    assert_eq!(completed, 297);
    let indices: Vec<usize> = failures.iter().map(|f| f.index).collect();
    assert_eq!(indices, [3, 77, 250], "failures in canonical order");
    let message = StudyError::CellsFailed {
        failures,
        completed,
        total: 300,
    }
    .to_string();
    assert!(message.contains("3 cell(s) failed"), "{message}");
    assert!(message.contains("replicate 3"), "{message}");

    let resumed = runner.run(&plain).unwrap();
    assert_eq!(plain.calls(), 3);
    assert!(resumed.bitwise_eq(&expected));
    assert_eq!(fs::read(&path).unwrap(), expected_bytes);
}

/// The header and the first `n` cell lines of a finished store.
fn head(bytes: &[u8], n: usize) -> Vec<u8> {
    let mut lines = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            lines += 1;
            if lines == n + 1 {
                return bytes[..=i].to_vec();
            }
        }
    }
    bytes.to_vec()
}

/// Line `k` (1-based, newline included) of a store.
fn line(bytes: &[u8], k: usize) -> Vec<u8> {
    let start = head(bytes, k - 2).len();
    let end = head(bytes, k - 1).len();
    bytes[start..end].to_vec()
}

#[test]
fn a_truncated_last_line_is_discarded() {
    let study = ToyStudy::new(11);
    let (expected, expected_bytes) = reference(&study);
    let dir = TempDir::new("truncated");
    let path = dir.join("results.jsonl");

    let mut damaged = head(&expected_bytes, 50);
    let next = line(&expected_bytes, 52);
    damaged.extend_from_slice(&next[..next.len() / 2]);
    fs::write(&path, &damaged).unwrap();
    let results = runner_with_store(&path).run(&study).unwrap();
    assert!(results.report().discarded_partial_line);
    assert_eq!((results.report().resumed, results.report().ran), (50, 250));
    assert!(results.bitwise_eq(&expected));
    assert_eq!(fs::read(&path).unwrap(), expected_bytes);

    // A complete line that lost only its newline is discarded too.
    let mut damaged = head(&expected_bytes, 10);
    let next = line(&expected_bytes, 12);
    damaged.extend_from_slice(&next[..next.len() - 1]);
    fs::write(&path, &damaged).unwrap();
    let results = runner_with_store(&path).run(&study).unwrap();
    assert_eq!(results.report().resumed, 10);
    assert_eq!(fs::read(&path).unwrap(), expected_bytes);

    // A header cut short starts afresh; so does an empty file.
    for start in [&expected_bytes[..20], &[][..]] {
        fs::write(&path, start).unwrap();
        let results = runner_with_store(&path).run(&study).unwrap();
        assert_eq!(results.report().resumed, 0);
        assert_eq!(results.report().discarded_partial_line, !start.is_empty());
        assert_eq!(fs::read(&path).unwrap(), expected_bytes);
    }
}

#[test]
fn duplicate_lines_keep_one() {
    let study = ToyStudy::new(13);
    let (expected, expected_bytes) = reference(&study);
    let dir = TempDir::new("duplicates");
    let path = dir.join("results.jsonl");
    let mut store = head(&expected_bytes, 40);
    for k in 10..=20 {
        store.extend(line(&expected_bytes, k));
    }
    fs::write(&path, &store).unwrap();
    let results = runner_with_store(&path).run(&study).unwrap();
    assert_eq!(results.report().duplicate_lines, 11);
    assert_eq!((results.report().resumed, results.report().ran), (40, 260));
    assert!(results.bitwise_eq(&expected));
    assert_eq!(fs::read(&path).unwrap(), expected_bytes);
}

#[test]
fn damaged_lines_are_errors_naming_file_and_line() {
    let study = ToyStudy::new(17);
    let (_, expected_bytes) = reference(&study);
    let dir = TempDir::new("damaged");
    let path = dir.join("results.jsonl");
    let with_line_5 = |replacement: &str| {
        let mut store = head(&expected_bytes, 3);
        store.extend_from_slice(replacement.as_bytes());
        store.push(b'\n');
        store.extend(line(&expected_bytes, 6));
        fs::write(&path, &store).unwrap();
    };

    with_line_5(r#"{"cell":{"dataset":"alpha","#);
    let error = runner_with_store(&path).run(&study).unwrap_err();
    assert!(
        matches!(&error, StudyError::Core(Error::Parse { path: p, line: 5, .. }) if p == &path),
        "{error}"
    );
    assert!(error.to_string().contains("results.jsonl:5:"), "{error}");

    with_line_5("");
    assert!(matches!(
        runner_with_store(&path).run(&study),
        Err(StudyError::Core(Error::Parse { line: 5, .. }))
    ));

    // Two metrics per classifier, not one.
    with_line_5(
        r#"{"cell":{"dataset":"alpha","train_size":5,"replicate":3},"values":[[1.0],[2.0],[3.0]]}"#,
    );
    let error = runner_with_store(&path).run(&study).unwrap_err();
    assert!(
        matches!(error, StudyError::Core(Error::Parse { line: 5, .. })),
        "{error}"
    );

    with_line_5(
        r#"{"cell":{"dataset":"alpha","train_size":5,"replicate":3},"values":[[1,2],[3,"nan"],[5,6]]}"#,
    );
    assert!(matches!(
        runner_with_store(&path).run(&study),
        Err(StudyError::Core(Error::Parse { line: 5, .. }))
    ));

    with_line_5(
        r#"{"cell":{"dataset":"delta","train_size":5,"replicate":3},"values":[[1,2],[3,4],[5,6]]}"#,
    );
    let error = runner_with_store(&path).run(&study).unwrap_err();
    let StudyError::UnknownCell { line, cell, .. } = &error else {
        panic!("expected UnknownCell, got {error}");
    };
    assert_eq!((*line, cell), (5, &Cell::new("delta", 5, 3)));

    // A damaged header is an error too, not a silent restart.
    fs::write(&path, b"{\"format\":\"something else\"}\n").unwrap();
    assert!(matches!(
        runner_with_store(&path).run(&study),
        Err(StudyError::Core(Error::Parse { line: 1, .. }))
    ));
}

#[test]
fn a_store_of_another_configuration_is_never_mixed_in() {
    let dir = TempDir::new("mismatch");
    let path = dir.join("results.jsonl");
    let first = ToyStudy::new(1);
    runner_with_store(&path).run(&first).unwrap();
    let original = fs::read(&path).unwrap();

    let reseeded = ToyStudy::new(2);
    let error = runner_with_store(&path).run(&reseeded).unwrap_err();
    let StudyError::StoreMismatch {
        field,
        stored,
        current,
        ..
    } = &error
    else {
        panic!("expected StoreMismatch, got {error}");
    };
    assert_eq!(*field, "fingerprint");
    assert_eq!(stored, &first.fingerprint());
    assert_eq!(current, &reseeded.fingerprint());
    assert!(error.to_string().contains("StartAfresh"), "{error}");
    assert_eq!(
        fs::read(&path).unwrap(),
        original,
        "the file is left untouched"
    );

    let mut other_schema = ToyStudy::new(1);
    other_schema.schema = Schema::new(["mean", "median", "shrunk"], ["abs-error"]).unwrap();
    assert!(matches!(
        runner_with_store(&path).run(&other_schema),
        Err(StudyError::StoreMismatch {
            field: "metrics",
            ..
        })
    ));

    let afresh = Runner::new(RunnerSettings {
        store: Some(path.clone()),
        progress: Progress::Never,
        on_mismatch: OnMismatch::StartAfresh,
        ..RunnerSettings::default()
    })
    .unwrap();
    let results = afresh.run(&reseeded).unwrap();
    assert!(results.report().discarded_mismatched_store);
    assert_eq!(results.report().ran, 300);
    let (expected, expected_bytes) = reference(&ToyStudy::new(2));
    assert!(results.bitwise_eq(&expected));
    assert_eq!(fs::read(&path).unwrap(), expected_bytes);
}

/// A study with one fixed outcome per cell, for bad definitions.
struct Fixed {
    id: String,
    cells: Vec<Cell>,
    schema: Schema,
    outcome_schema: Schema,
}

impl Fixed {
    fn new(cells: Vec<Cell>) -> Self {
        let schema = Schema::new(["c"], ["m"]).unwrap();
        Self {
            id: "fixed".into(),
            cells,
            outcome_schema: schema.clone(),
            schema,
        }
    }
}

impl Study for Fixed {
    fn id(&self) -> &str {
        &self.id
    }
    fn fingerprint(&self) -> String {
        "fixed".into()
    }
    fn schema(&self) -> &Schema {
        &self.schema
    }
    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }
    fn run_cell(&self, _: &Cell) -> gendisc_core::Result<Outcome> {
        let mut outcome = Outcome::new(&self.outcome_schema);
        outcome.set(0, 0, 1.0)?;
        Ok(outcome)
    }
}

#[test]
fn invalid_studies_and_settings_are_reported() {
    let runner = Runner::default();
    let invalid = |study: &Fixed| match runner.run(study) {
        Err(StudyError::InvalidStudy { reason, .. }) => reason,
        other => panic!("expected InvalidStudy, got {other:?}"),
    };
    assert!(invalid(&Fixed::new(vec![])).contains("no cells"));
    let twice = Fixed::new(vec![
        Cell::new("a", 1, 0),
        Cell::new("a", 2, 0),
        Cell::new("a", 1, 0),
    ]);
    assert!(invalid(&twice).contains("positions 0 and 2"));
    let mut unnamed = Fixed::new(vec![Cell::new("a", 1, 0)]);
    unnamed.id.clear();
    assert!(invalid(&unnamed).contains("identifier"));

    let mut misshapen = Fixed::new(Cell::grid(&["a"], &[1], 3));
    misshapen.outcome_schema = Schema::new(["c"], ["m", "n"]).unwrap();
    let Err(StudyError::CellsFailed { failures, .. }) = runner.run(&misshapen) else {
        panic!("expected CellsFailed");
    };
    assert!(matches!(
        failures[0].error,
        Error::ShapeMismatch {
            expected: 1,
            found: 2,
            ..
        }
    ));

    for (settings, name) in [
        (
            RunnerSettings {
                threads: Some(0),
                ..RunnerSettings::default()
            },
            "threads",
        ),
        (
            RunnerSettings {
                flush: FlushPolicy {
                    cells: 0,
                    ..FlushPolicy::default()
                },
                ..RunnerSettings::default()
            },
            "flush.cells",
        ),
        (
            RunnerSettings {
                flush: FlushPolicy {
                    interval: Duration::ZERO,
                    ..FlushPolicy::default()
                },
                ..RunnerSettings::default()
            },
            "flush.interval",
        ),
    ] {
        assert!(
            matches!(
                Runner::new(settings),
                Err(StudyError::Core(Error::InvalidParameter { name: n, .. })) if n == name
            ),
            "{name}"
        );
    }
}

#[test]
fn an_unusable_store_path_is_an_error_naming_it() {
    let dir = TempDir::new("unusable");
    let blocker = dir.join("file");
    fs::write(&blocker, b"not a directory").unwrap();
    let path = blocker.join("results.jsonl");
    let error = runner_with_store(&path).run(&ToyStudy::new(1)).unwrap_err();
    assert!(
        matches!(&error, StudyError::Core(Error::Io { path: p, .. }) if p == &path),
        "{error}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn an_unwritable_store_is_an_error_naming_the_path() {
    // No one, not even root, may create a directory in procfs.
    let path = Path::new("/proc/self/gendisc-engine/results.jsonl");
    let error = runner_with_store(path).run(&ToyStudy::new(1)).unwrap_err();
    assert!(matches!(error, StudyError::Write { .. }), "{error}");
    assert!(
        error.to_string().contains("/proc/self/gendisc-engine"),
        "{error}"
    );
}

/// Panics in one cell, as a bug would.
struct Panicking {
    at: Option<usize>,
    schema: Schema,
}

impl Study for Panicking {
    fn id(&self) -> &str {
        "panicking"
    }
    fn fingerprint(&self) -> String {
        "panicking".into()
    }
    fn schema(&self) -> &Schema {
        &self.schema
    }
    fn cells(&self) -> Vec<Cell> {
        Cell::grid(&["p"], &[1], 50)
    }
    fn run_cell(&self, cell: &Cell) -> gendisc_core::Result<Outcome> {
        assert_ne!(Some(cell.replicate), self.at, "a bug in the study");
        let mut outcome = Outcome::new(&self.schema);
        outcome.set(0, 0, cell.replicate as f64)?;
        Ok(outcome)
    }
}

#[test]
fn a_panicking_cell_propagates_after_the_finished_cells_are_stored() {
    let dir = TempDir::new("panic");
    let path = dir.join("results.jsonl");
    let runner = Runner::new(RunnerSettings {
        threads: Some(1),
        store: Some(path.clone()),
        progress: Progress::Never,
        ..RunnerSettings::default()
    })
    .unwrap();
    let schema = Schema::new(["c"], ["m"]).unwrap();
    let buggy = Panicking {
        at: Some(30),
        schema: schema.clone(),
    };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| runner.run(&buggy)));
    assert!(outcome.is_err(), "the panic reaches the caller");
    // Every cell is a job of its own, and rayon runs the others before it passes the panic
    // on: the 49 cells that finished are in the store, and only the buggy one is run again.
    assert_eq!(complete_lines(&path), 1 + 49);
    let fixed = Panicking { at: None, schema };
    let results = runner.run(&fixed).unwrap();
    assert_eq!((results.report().resumed, results.report().ran), (49, 1));
}

/// Records, while each cell runs, how many lines the store holds: the flushing policy made
/// visible.
struct Probe {
    path: std::path::PathBuf,
    /// Sleep before looking, so that the writer has acted on the previous cell.
    wait: Duration,
    seen: Mutex<Vec<(usize, usize)>>,
    schema: Schema,
}

impl Study for Probe {
    fn id(&self) -> &str {
        "probe"
    }
    fn fingerprint(&self) -> String {
        "probe".into()
    }
    fn schema(&self) -> &Schema {
        &self.schema
    }
    fn cells(&self) -> Vec<Cell> {
        Cell::grid(&["p"], &[1], 6)
    }
    fn run_cell(&self, cell: &Cell) -> gendisc_core::Result<Outcome> {
        std::thread::sleep(self.wait);
        let lines = complete_lines(&self.path);
        self.seen.lock().unwrap().push((cell.replicate, lines));
        let mut outcome = Outcome::new(&self.schema);
        outcome.set(0, 0, cell.replicate as f64)?;
        Ok(outcome)
    }
}

fn probe(flush: FlushPolicy, wait: Duration) -> Vec<(usize, usize)> {
    let dir = TempDir::new("probe");
    let study = Probe {
        path: dir.join("results.jsonl"),
        wait,
        seen: Mutex::new(Vec::new()),
        schema: Schema::new(["c"], ["m"]).unwrap(),
    };
    let runner = Runner::new(RunnerSettings {
        threads: Some(1),
        store: Some(study.path.clone()),
        progress: Progress::Never,
        flush,
        ..RunnerSettings::default()
    })
    .unwrap();
    runner.run(&study).unwrap();
    study.seen.into_inner().unwrap()
}

#[test]
fn lines_reach_the_file_as_the_flush_policy_says() {
    // By count: every second line triggers a write; in between, one finished cell waits.
    let by_count = probe(
        FlushPolicy {
            cells: 2,
            interval: Duration::from_secs(3600),
        },
        Duration::from_millis(100),
    );
    let expected: Vec<(usize, usize)> = (0..6).map(|r| (r, 1 + 2 * (r / 2))).collect();
    assert_eq!(by_count, expected);

    // By time: a line older than the interval is written even though the batch is not full.
    let by_time = probe(
        FlushPolicy {
            cells: 1000,
            interval: Duration::from_millis(10),
        },
        Duration::from_millis(150),
    );
    let expected: Vec<(usize, usize)> = (0..6).map(|r| (r, 1 + r)).collect();
    assert_eq!(by_time, expected);
}

/// The toy study, recording the order its cells run in, with the runner's default cost (the
/// training-set size) or another.
struct OrderRecording {
    toy: ToyStudy,
    cost: Option<fn(&Cell) -> f64>,
    order: Mutex<Vec<Cell>>,
}

impl Study for OrderRecording {
    fn id(&self) -> &str {
        self.toy.id()
    }
    fn fingerprint(&self) -> String {
        self.toy.fingerprint()
    }
    fn schema(&self) -> &Schema {
        self.toy.schema()
    }
    fn cells(&self) -> Vec<Cell> {
        self.toy.cells()
    }
    fn run_cell(&self, cell: &Cell) -> gendisc_core::Result<Outcome> {
        self.order.lock().unwrap().push(cell.clone());
        self.toy.run_cell(cell)
    }
    fn relative_cost(&self, cell: &Cell) -> f64 {
        self.cost.map_or(cell.train_size as f64, |cost| cost(cell))
    }
}

fn run_order(cost: Option<fn(&Cell) -> f64>) -> (Vec<Cell>, StudyResults) {
    let study = OrderRecording {
        toy: ToyStudy::new(7),
        cost,
        order: Mutex::new(Vec::new()),
    };
    let results = Runner::new(RunnerSettings {
        threads: Some(1),
        progress: Progress::Never,
        ..RunnerSettings::default()
    })
    .unwrap()
    .run(&study)
    .unwrap();
    (study.order.into_inner().unwrap(), results)
}

#[test]
fn the_costliest_cells_start_first_and_the_results_keep_the_canonical_order() {
    let canonical = ToyStudy::new(7).cells();
    let expected = pool(1)
        .install(|| Runner::default().run(&ToyStudy::new(7)))
        .unwrap();

    // By default the largest training sets first; cells of one size in canonical order.
    let (order, results) = run_order(None);
    let mut by_size = canonical.clone();
    by_size.sort_by_key(|cell| std::cmp::Reverse(cell.train_size));
    assert_eq!(order, by_size);
    assert_eq!(order.first().unwrap().train_size, 40);
    assert!(results.bitwise_eq(&expected));
    assert_eq!(results.cells(), canonical.as_slice());

    // A study's own estimate decides: here the last dataset is the costliest.
    let (order, results) = run_order(Some(|cell| f64::from(cell.dataset == "gamma")));
    assert!(order[..100].iter().all(|cell| cell.dataset == "gamma"));
    assert_eq!(order[100..], canonical[..200]);
    assert!(results.bitwise_eq(&expected));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Whatever subset of cells ran first, and with however many threads, the finished run
    /// equals the uninterrupted one.
    #[test]
    fn any_completion_order_gives_the_same_results(
        failing in prop::collection::hash_set(0usize..300, 0..120),
        threads in 1usize..=2,
    ) {
        let plain = ToyStudy::new(21);
        let (expected, expected_bytes) = reference(&plain);
        let cells = plain.cells();
        let dir = TempDir::new("orders");
        let path = dir.join("results.jsonl");
        let runner = Runner::new(RunnerSettings {
            threads: Some(threads),
            store: Some(path.clone()),
            progress: Progress::Never,
            on_cell_error: OnCellError::Continue,
            ..RunnerSettings::default()
        })
        .unwrap();
        let mut first = ToyStudy::new(21);
        first.failing_cells = failing.iter().map(|&i| cells[i].clone()).collect::<HashSet<_>>();
        let outcome = runner.run(&first);
        prop_assert_eq!(outcome.is_err(), !failing.is_empty());
        let results = runner.run(&plain).unwrap();
        prop_assert_eq!(results.report().ran, failing.len());
        prop_assert!(results.bitwise_eq(&expected));
        prop_assert_eq!(fs::read(&path).unwrap(), expected_bytes);
    }
}
