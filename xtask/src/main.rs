//! gendisc's task runner.
//!
//! * `cargo xtask reproduce [STUDY…] [--quick] [--offline] [--mirror URL]` — downloads the data
//!   the chosen studies lack (not with `--offline`), re-runs the papers' experiments (every study
//!   when none is named; one whose data are missing is skipped with the reason), writes their
//!   results under `results/<study>/`, and ends with a summary table (`results/SUMMARY.md`).
//!   `--shard I/N` runs only shard I of N of each study's cells (a fixed partition of its
//!   canonical cell list) and writes only its result stores; `--threads N` sets the worker
//!   threads.
//! * `cargo xtask merge STUDY DIR… [--out DIR] [--quick]` — combines the shards of a study, each
//!   run into its own directory, into the outputs of a single run, byte for byte; refuses
//!   shards of another study, configuration or version, overlapping ones, unfinished ones and
//!   an incomplete set (see `docs/scaling.md`).
//! * `cargo xtask claims [--write FILE | --check FILE]` — the table of every claim of the papers
//!   from the reports' `verdicts.csv` (also written as `results/CLAIMS.md` by `reproduce`), or
//!   the check that a committed table lists them all.
//! * `cargo xtask fetch-data [FILE…|wordnet] [--dest DIR] [--mirror URL]` — downloads the data
//!   sets and WordNet 3.0's noun files from their canonical sources into the data directory
//!   (`$GENDISC_DATA`, else `./data`), verifying each against `xtask/data-manifest.json`.
//! * `cargo xtask test [--lapack]` — the whole test suite, then every example; with `--lapack`,
//!   the unit and integration tests again, with the system's LAPACK doing the linear algebra.
//!   Property tests draw their cases from [`PROPTEST_SEED`] unless `PROPTEST_RNG_SEED` is set,
//!   so that two runs of one commit test the same cases; plain `cargo test` explores new ones.
//! * `cargo xtask bench [ARGS…]` — the criterion benchmarks of every crate.
//! * `cargo xtask bench-peers [--paper ID] [--replicates N] [--rounds N]` — a paper's replicates
//!   timed in gendisc (the whole study, and the peers' series alone) and in the other
//!   implementations it names as peers, on the same exported inputs (see `docs/performance.md`).
//!
//! `cargo xtask` is an alias (see `.cargo/config.toml`) that builds this crate in the dev
//! profile, the one `cargo xtask test` builds the workspace in, so that the tests do not pay for
//! a second, optimised build of everything. Heavy work still runs optimised: `reproduce` (and
//! `merge`, which writes the reports), started from a build without optimisations, runs itself
//! again from a release build (see [`rerun_optimised`]) unless given `--unoptimised`.

mod bench_peers;
mod cargo;
mod claims;
mod fetch_data;
mod merge;
mod reproduce;
mod unpack;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "cargo xtask", about = "gendisc's task runner")]
struct Cli {
    #[command(subcommand)]
    command: Task,
}

#[derive(Debug, Subcommand)]
enum Task {
    /// Re-run the experiments of the papers (with no study named, every study), downloading
    /// the data they lack first, and end with a summary table.
    Reproduce(reproduce::Args),
    /// Combine the shards of a study (`reproduce STUDY --shard I/N`, each into its own --out)
    /// into the study's outputs, byte for byte those of a single run.
    Merge(merge::Args),
    /// Assemble the table of every claim from the reports' `verdicts.csv`, or check that a
    /// committed table lists them all.
    Claims(claims::Args),
    /// Download the data sets of the studies from their canonical sources (UCI, the 20
    /// Newsgroups home page, WordNet 3.0 from Princeton or Debian), verifying each file's
    /// SHA-256; an interrupted run resumes.
    FetchData(fetch_data::Args),
    /// Run every test of the workspace, then every example.
    Test {
        /// Instead, run the unit and integration tests with the system's LAPACK (OpenBLAS,
        /// Debian's `libopenblas0`) for dense linear algebra instead of the pure-Rust default: the
        /// same build, run with `GENDISC_LINALG=lapack`.
        #[arg(long)]
        lapack: bool,
    },
    /// Run the criterion benchmarks (extra arguments go to `cargo bench`).
    Bench {
        /// Arguments passed through to `cargo bench`, e.g. `-p gendisc-generative`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Time a paper's replicates in gendisc and in the other implementations it names as its
    /// peers (Xue–Titterington's: R and scikit-learn) on the same exported inputs, alternating
    /// the runs, per core and on the whole machine, gendisc also on the peers' series alone
    /// (installs nothing: a missing peer is skipped).
    BenchPeers(bench_peers::Args),
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Task::Reproduce(args)
            if cfg!(debug_assertions)
                && !args.unoptimised
                && std::env::var_os(RERUN_MARKER).is_none() =>
        {
            rerun_optimised()
        }
        Task::Reproduce(args) => reproduce::run(&args),
        Task::Merge(args)
            if cfg!(debug_assertions)
                && !args.unoptimised
                && std::env::var_os(RERUN_MARKER).is_none() =>
        {
            rerun_optimised()
        }
        Task::Merge(args) => merge::run(&args),
        Task::Claims(args) => claims::run(&args),
        Task::FetchData(args) => fetch_data::run(&args),
        Task::Test { lapack } => test(lapack),
        Task::BenchPeers(args) => bench_peers::run(&args),
        Task::Bench { args } => {
            let mut command = cargo::cargo();
            command.arg("bench").args(&args);
            if args.is_empty() {
                command.arg("--workspace");
            }
            cargo::run(command)
        }
    }
}

/// Set in the environment of [`rerun_optimised`]'s child, which then runs whatever its build.
const RERUN_MARKER: &str = "GENDISC_XTASK_RERUN";

/// Runs this very command again from a release build of the task runner, which `cargo` makes
/// first if it is missing or stale.
///
/// The studies are arithmetic-bound: at the dev profile's optimisation they take several times
/// longer than the release build costs.
fn rerun_optimised() -> Result<()> {
    let mut command = cargo::cargo();
    // A release profile made to keep debug assertions would otherwise rerun itself for ever.
    command.env(RERUN_MARKER, "1");
    command
        .args(["run", "--release", "--quiet", "--package", "xtask", "--"])
        .args(std::env::args_os().skip(1));
    cargo::run(command)
}

/// The seed of the property tests' cases under `cargo xtask test`: a pass or a failure there is a
/// property of the commit, not of the run. New cases come from plain `cargo test` (a fresh seed
/// each run); a failing one is saved in the crate's `proptest-regressions/` (beside the sources
/// for unit tests, under `tests/` for integration tests), which is committed, and replayed first
/// by every later run.
const PROPTEST_SEED: &str = "20261122";

/// A `cargo test` command whose property tests use [`PROPTEST_SEED`] unless the caller chose one.
fn cargo_test() -> std::process::Command {
    let mut command = cargo::cargo();
    command.arg("test");
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        command.env("PROPTEST_RNG_SEED", PROPTEST_SEED);
    }
    command
}

/// `cargo test` over the workspace (but the Python extension), then each example; with
/// `lapack`, the unit and integration tests again on the LAPACK backend.
fn test(lapack: bool) -> Result<()> {
    let mut command = cargo_test();
    // The Python extension has no Rust tests; its Python tests need an interpreter and its own
    // environment (crates/gendisc-py/scripts/test.sh).
    command.args(["--workspace", "--exclude", cargo::PYTHON_EXTENSION]);
    if lapack {
        // The backend is chosen when a process first factorises a matrix, so this is the build
        // the plain run made, not another. The unit and integration tests check the numbers;
        // the examples and documentation tests show the API and ran with the default backend.
        command
            .env(gendisc_core::linalg::BACKEND_VARIABLE, "lapack")
            .arg("--tests");
        return cargo::run(command);
    }
    cargo::run(command)?;

    let examples = cargo::build_workspace_examples()?;
    eprintln!("running {} examples", examples.len());
    for example in &examples {
        eprintln!("example {}/{}", example.package, example.name);
        // From the workspace root, as `cargo run` would.
        let mut command = std::process::Command::new(&example.executable);
        command.current_dir(cargo::workspace_root());
        cargo::run(command)?;
    }
    Ok(())
}
