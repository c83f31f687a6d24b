//! A real crash: the toy binary is killed with SIGKILL part-way through its study, run again,
//! and every file it writes must equal, byte for byte, those of an uninterrupted run.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{complete_lines, TempDir};

const BINARY: &str = env!("CARGO_BIN_EXE_gendisc-engine-toy");
const CELLS: usize = 1200;
const OUTPUTS: [&str; 4] = ["results.jsonl", "summary.csv", "outcomes.csv", "figure.svg"];

/// Runs the toy binary to completion and returns its report line.
fn run_to_completion(output: &Path, extra: &[&str]) -> String {
    let result = Command::new(BINARY)
        .arg(output)
        .args(extra)
        .output()
        .expect("the toy binary starts");
    assert!(
        result.status.success(),
        "toy binary failed: {}",
        String::from_utf8_lossy(&result.stderr)
    );
    String::from_utf8(result.stdout).unwrap()
}

fn report_field(report: &str, name: &str) -> usize {
    report
        .split_whitespace()
        .find_map(|field| field.strip_prefix(&format!("{name}=")))
        .and_then(|value| value.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {report:?}"))
}

#[test]
fn a_run_killed_with_sigkill_resumes_to_byte_identical_output() {
    let uninterrupted = TempDir::new("kill-reference");
    let report = run_to_completion(uninterrupted.path(), &["--threads", "2"]);
    assert_eq!(report_field(&report, "ran"), CELLS);

    let interrupted = TempDir::new("kill-interrupted");
    let store = interrupted.join("results.jsonl");
    // About 1200 × 4 ms / 2 threads ≈ 2.4 s of work, written every 16 cells or 20 ms.
    let mut child = Command::new(BINARY)
        .arg(interrupted.path())
        .args(["--threads", "2", "--cell-delay-ms", "4"])
        .args(["--flush-cells", "16", "--flush-ms", "20"])
        .stdout(Stdio::null())
        .spawn()
        .expect("the toy binary starts");
    let started = Instant::now();
    while complete_lines(&store) < 1 + 200 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the store never reached 200 cells"
        );
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the toy binary exited ({status}) before it could be killed");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("SIGKILL is delivered"); // `Child::kill` sends SIGKILL on Unix.
    child.wait().unwrap();
    let stored = complete_lines(&store) - 1;
    assert!(
        (200..CELLS).contains(&stored),
        "{stored} cells stored when killed"
    );
    assert!(!interrupted.join("summary.csv").exists());

    let report = run_to_completion(interrupted.path(), &["--threads", "2"]);
    assert_eq!(report_field(&report, "resumed"), stored);
    assert_eq!(report_field(&report, "ran"), CELLS - stored);

    for name in OUTPUTS {
        let expected = fs::read(uninterrupted.join(name)).unwrap();
        let got = fs::read(interrupted.join(name)).unwrap();
        assert!(expected == got, "{name} differs after the resumed run");
    }
    // And a third run over the finished store changes nothing.
    let report = run_to_completion(interrupted.path(), &["--threads", "1"]);
    assert_eq!(report_field(&report, "resumed"), CELLS);
    for name in OUTPUTS {
        assert!(
            fs::read(uninterrupted.join(name)).unwrap()
                == fs::read(interrupted.join(name)).unwrap()
        );
    }
}
