//! `cargo xtask reproduce`: the papers of `gendisc_studies::papers::registry()`, fetching what
//! they lack, running them, and the summary table that ends a run. Nothing here knows any paper:
//! each is a `gendisc_studies::Paper`.
//!
//! Before running, every chosen study's data files and WordNet are looked for (the data
//! directory is `$GENDISC_DATA`, else `./data`; WordNet is also found through `$WNHOME` or an
//! installed `wordnet-base`). What is missing is downloaded into the data directory by the
//! same verified, resumable download as `cargo xtask fetch-data` — each file checked against
//! the SHA-256 of `xtask/data-manifest.json` — after saying what and how large. `--offline`
//! downloads nothing. A study whose data are still missing is skipped with the reason and the
//! command that fetches them; the others run. The run ends with a table of every chosen study
//! — ran, resumed or skipped (and why), its cells, wall time, output directory and verdict
//! counts from its `verdicts.csv` — printed and written to `<out>/SUMMARY.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use gendisc_engine::verdict::{read_verdicts_csv, VerdictRow};
use gendisc_engine::{OnMismatch, RunnerSettings, Shard, ShardRun, StudyError};
use gendisc_studies::papers::registry;
use gendisc_studies::{Grid, Need, Paper, Ran};

use crate::fetch_data::{self, Manifest, Source};

/// Arguments of `cargo xtask reproduce`.
#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// Studies to run (default: every study). One of: xue-titterington, ng-jordan, raina,
    /// bouchard-triggs, epshteyn-dejong.
    pub(crate) studies: Vec<String>,
    /// Run the reduced grid used by continuous integration.
    #[arg(long)]
    pub(crate) quick: bool,
    /// Directory under which each study writes `<study>/`.
    #[arg(long, default_value = "results")]
    pub(crate) out: PathBuf,
    /// Download nothing: run the studies whose data are present and say what the others lack.
    #[arg(long)]
    pub(crate) offline: bool,
    /// Take missing data files from `URL/<path>`, a copy of the data directory's layout,
    /// instead of their canonical sources (default: the environment variable
    /// GENDISC_DATA_MIRROR, if set).
    #[arg(long, conflicts_with = "offline")]
    pub(crate) mirror: Option<String>,
    /// Run only shard I of N (1 ≤ I ≤ N) of each study's cells — those whose position in the
    /// study's canonical order is I − 1 modulo N, whatever the thread count — and write only
    /// their result store(s), with the shard in the header; no report. Give each shard its own
    /// --out, then combine them with `cargo xtask merge` (see docs/scaling.md).
    #[arg(long, value_name = "I/N")]
    pub(crate) shard: Option<Shard>,
    /// Worker threads per study (default: one per CPU, or RAYON_NUM_THREADS). The results do
    /// not depend on it.
    #[arg(long, value_name = "N")]
    pub(crate) threads: Option<usize>,
    /// The output directories of the shards to merge, one per shard (set by `cargo xtask
    /// merge`): each study reads its stores there instead of running cells.
    #[arg(skip)]
    pub(crate) merge: Vec<PathBuf>,
    /// Run in the build `cargo xtask` was started from, even when it is not optimised (the dev
    /// profile that `cargo xtask test` has already built), instead of a release build. The
    /// results are the same bits (no optimisation changes floating-point semantics); the run is
    /// slower. Worth it only where a release build costs more than it saves, as for continuous
    /// integration's quick reproductions.
    #[arg(long)]
    pub unoptimised: bool,
    /// Also write what the study generated or drew — its datasets and every replicate's
    /// training rows, as CSV (see docs/data-interchange.md) — into DIR, then run it as usual.
    /// One study only: xue-titterington, ng-jordan or bouchard-triggs.
    #[arg(long, value_name = "DIR")]
    export_inputs: Option<PathBuf>,
    /// Run the study on the datasets and training rows read from DIR (as --export-inputs writes
    /// them) instead of drawing them. One study only: xue-titterington, ng-jordan or
    /// bouchard-triggs.
    #[arg(long, value_name = "DIR", conflicts_with = "export_inputs")]
    inputs: Option<PathBuf>,
    /// With --inputs: fit only the series the study's peers compute (R's and scikit-learn's
    /// scripts under scripts/peers/), writing the result store and cells.csv but no report — the
    /// peers' work, for `cargo xtask bench-peers`. Only a paper that names peers has them.
    #[arg(long, requires = "inputs")]
    peer_series: bool,
}

/// The manifest's name of the WordNet archive.
const WORDNET: &str = "wordnet";

/// A [`Need`] as `cargo xtask fetch-data` knows it: by name, with its size from the manifest.
trait InManifest {
    /// The name `cargo xtask fetch-data` knows it by.
    fn name(&self) -> &str;
    /// What it is and how large, for the announcement of a download.
    fn describe(&self, manifest: &Manifest) -> String;
    /// Its size in bytes, where the manifest records it.
    fn bytes(&self, manifest: &Manifest) -> Option<u64>;
}

impl InManifest for Need {
    fn name(&self) -> &str {
        match self {
            Need::File(path) => path,
            Need::WordNet => WORDNET,
        }
    }

    fn describe(&self, manifest: &Manifest) -> String {
        match self {
            Need::File(path) => match manifest.entry(path).and_then(|e| e.bytes) {
                Some(bytes) => format!("{path} ({})", fetch_data::size_text(bytes)),
                None => path.clone(),
            },
            Need::WordNet => match manifest.archive(WORDNET) {
                Some(archive) => format!(
                    "{} ({WORDNET}, {}; {})",
                    archive.what,
                    archive.file_names().join(", "),
                    archive.download_size()
                ),
                None => WORDNET.into(),
            },
        }
    }

    fn bytes(&self, manifest: &Manifest) -> Option<u64> {
        match self {
            Need::File(path) => manifest.entry(path).and_then(|e| e.bytes),
            Need::WordNet => manifest
                .archive(WORDNET)
                .and_then(|a| a.sources.iter().find_map(|s| s.bytes)),
        }
    }
}

/// The papers' ids, in the order `reproduce` runs them.
pub fn study_names() -> Vec<&'static str> {
    registry().iter().map(|paper| paper.id()).collect()
}

/// The ids of the papers whose inputs `--export-inputs` writes and `--inputs` reads.
fn with_inputs() -> Vec<&'static str> {
    registry()
        .iter()
        .filter(|paper| paper.inputs().is_some())
        .map(|paper| paper.id())
        .collect()
}

/// How each study of a run runs: its grid, and the engine's settings.
#[derive(Debug, Clone)]
struct Mode {
    /// The paper's grid, or the reduced grid of continuous integration.
    grid: Grid,
    /// The runner settings of every study (see [`runner_settings`]).
    runner: RunnerSettings,
}

impl Mode {
    fn of(args: &Args) -> Self {
        Self {
            grid: if args.quick { Grid::Quick } else { Grid::Paper },
            runner: runner_settings(args),
        }
    }
}

/// How a study's turn in the run ended.
#[derive(Debug, Clone)]
enum Outcome {
    /// It ran (some or all of its cells possibly read back from an earlier run).
    Ran {
        /// What it ran.
        ran: Ran,
        /// Wall-clock time.
        elapsed: Duration,
        /// The directory it wrote.
        out: PathBuf,
        /// Its verdicts, from `verdicts.csv`.
        verdicts: Option<VerdictCounts>,
    },
    /// It ran one shard of its cells (`--shard`), stored them and wrote nothing else: the shard
    /// of each of its studies.
    Shard(Vec<ShardRun>),
    /// It did not run: why, and the command that fixes it.
    Skipped(String),
    /// It failed with this error.
    Failed(String),
}

/// A study's verdicts by kind, from its `verdicts.csv`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct VerdictCounts {
    supported: usize,
    partly: usize,
    not_supported: usize,
    not_assessed: usize,
    robust: usize,
    borderline: usize,
}

impl VerdictCounts {
    fn of(rows: &[VerdictRow]) -> Self {
        let mut counts = Self::default();
        for row in rows {
            match row.verdict.as_str() {
                "supported" => counts.supported += 1,
                "partly supported" => counts.partly += 1,
                "not supported" => counts.not_supported += 1,
                _ => counts.not_assessed += 1,
            }
            if row.robustness == "robust" {
                counts.robust += 1;
            } else {
                counts.borderline += 1;
            }
        }
        counts
    }

    /// The counts of `<out>/verdicts.csv`, if the study wrote one.
    fn read(out: &Path) -> Result<Option<Self>> {
        let path = out.join("verdicts.csv");
        if !path.exists() {
            return Ok(None);
        }
        let text =
            fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let rows = read_verdicts_csv(&text).with_context(|| format!("in {}", path.display()))?;
        Ok(Some(Self::of(&rows)))
    }
}

/// Runs the named studies, or every study when none is named.
pub fn run(args: &Args) -> Result<()> {
    let selected: Vec<&dyn Paper> = if args.studies.is_empty() {
        registry().to_vec()
    } else {
        args.studies
            .iter()
            .map(|name| {
                gendisc_studies::papers::find(name).with_context(|| {
                    format!(
                        "unknown study `{name}`; the studies are {}",
                        study_names().join(", ")
                    )
                })
            })
            .collect::<Result<_>>()?
    };

    let exported = match &args.export_inputs {
        Some(dir) => Some((study_with_inputs(&selected, "--export-inputs")?, dir)),
        None => None,
    };
    if args.inputs.is_some() {
        let study = study_with_inputs(&selected, "--inputs")?;
        if args.peer_series {
            with_peers(study)?;
        }
    }

    let manifest = Manifest::parse(fetch_data::MANIFEST)?;
    let lacking: BTreeSet<Need> = selected
        .iter()
        .flat_map(|paper| paper.needs().into_iter().chain(paper.wants()))
        .filter(|need| need.missing().is_some())
        .collect();
    let not_fetched = if lacking.is_empty() {
        BTreeMap::new()
    } else if args.offline {
        lacking
            .iter()
            .map(|need| (need.clone(), "not downloaded: --offline".to_string()))
            .collect()
    } else {
        fetch_missing(&manifest, &lacking, args.mirror.as_deref())
    };

    let mode = Mode::of(args);
    if let Some((study, dir)) = exported {
        // After the download: the inputs of a study of real data are read from its files.
        if lacks(study, &not_fetched).is_none() {
            export_inputs(study, dir, mode.grid)?;
        }
    }

    let mut rows = Vec::new();
    for &study in &selected {
        let outcome = match lacks(study, &not_fetched) {
            Some((reason, names)) => {
                eprintln!("{}: skipped: {reason}", study.id());
                if names.len() > 3 {
                    eprintln!("{}: missing: {}", study.id(), names.join(", "));
                }
                Outcome::Skipped(reason)
            }
            None => run_timed(study, &args.out, &mode, |out| {
                let runner = mode.runner.clone();
                match (&args.inputs, study.inputs()) {
                    (Some(inputs), Some(able)) => {
                        eprintln!(
                            "{}: datasets and training rows read from {}",
                            study.id(),
                            inputs.display()
                        );
                        if args.peer_series {
                            able.run_peer_series(inputs, out, mode.grid, runner)
                        } else {
                            able.run_on(inputs, out, mode.grid, runner)
                        }
                    }
                    _ => study.run(out, mode.grid, runner),
                }
            }),
        };
        rows.push((study.id(), outcome));
    }

    if let Some(shard) = args.shard {
        return shards_finished(&rows, shard, args);
    }
    write_claims_table(&args.out)?;
    let table = summary_markdown(&rows, &command_line(args));
    print!("\n{table}");
    let path = args.out.join("SUMMARY.md");
    fs::create_dir_all(&args.out)
        .and_then(|()| fs::write(&path, &table))
        .with_context(|| format!("cannot write {}", path.display()))?;
    eprintln!("this summary: {}", path.display());

    let failed: Vec<&str> = rows
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Failed(_)))
        .map(|(name, _)| *name)
        .collect();
    if !failed.is_empty() {
        bail!("failed: {}", failed.join(", "));
    }
    // Named explicitly, a study that cannot run is an error; run as one of all the studies, it
    // is skipped and the others run.
    let skipped: Vec<&str> = rows
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Skipped(_)))
        .map(|(name, _)| *name)
        .collect();
    if !args.studies.is_empty() && !skipped.is_empty() {
        bail!("skipped for want of data: {}", skipped.join(", "));
    }
    Ok(())
}

/// Downloads each of `lacking` into the data directory (announcing what and how large);
/// returns those still missing afterwards, each with the reason.
fn fetch_missing(
    manifest: &Manifest,
    lacking: &BTreeSet<Need>,
    mirror: Option<&str>,
) -> BTreeMap<Need, String> {
    let dest = gendisc_data::loaders::data_dir();
    let mirror = fetch_data::mirror(mirror);
    let source = match &mirror {
        Some(base) => Source::Mirror(base),
        None => Source::Canonical,
    };
    let total: u64 = lacking.iter().filter_map(|n| n.bytes(manifest)).sum();
    eprintln!(
        "downloading what the chosen studies lack into {} ({} item{}, about {}{}; --offline \
         to skip this):",
        dest.display(),
        lacking.len(),
        if lacking.len() == 1 { "" } else { "s" },
        fetch_data::size_text(total),
        match &mirror {
            Some(base) => format!(", from the mirror {base}"),
            None => String::new(),
        }
    );
    for need in lacking {
        eprintln!("  {}", need.describe(manifest));
    }
    let agent = fetch_data::agent();
    let mut not_fetched = BTreeMap::new();
    for need in lacking {
        let result = match need {
            Need::File(path) => match manifest.entry(path) {
                None => Err(anyhow::anyhow!("not in the data manifest")),
                Some(entry) => fetch_data::fetch(&agent, entry, &dest, source)
                    .map(|fetched| eprintln!("{}", fetch_data::fetched_message(entry, &fetched))),
            },
            Need::WordNet => match manifest.archive(WORDNET) {
                None => Err(anyhow::anyhow!("not in the data manifest")),
                Some(archive) => fetch_data::fetch_archive(&agent, archive, &dest, source)
                    .map(|fetched| eprintln!("{}", fetch_data::archive_message(archive, &fetched))),
            },
        };
        if let Err(error) = result {
            eprintln!("{}: download failed: {error:#}", need.name());
            not_fetched.insert(need.clone(), format!("download failed: {error:#}"));
        } else if let Some(problem) = need.missing() {
            not_fetched.insert(need.clone(), problem);
        }
    }
    not_fetched
}

/// Why `study` cannot run, if it cannot: what of its needs is missing, why, and the command
/// that fetches it (a short form for the summary, naming at most three), and every missing name.
fn lacks(study: &dyn Paper, not_fetched: &BTreeMap<Need, String>) -> Option<(String, Vec<String>)> {
    let missing: Vec<(Need, String)> = study
        .needs()
        .into_iter()
        .filter_map(|need| {
            let problem = need.missing()?;
            let why = not_fetched.get(&need).cloned().unwrap_or(problem);
            Some((need, why))
        })
        .collect();
    let (_, why) = missing.first()?;
    let names: Vec<String> = missing.iter().map(|(n, _)| n.name().to_string()).collect();
    let (what, command) = if names.len() <= 3 {
        (
            names.join(" and "),
            format!("cargo xtask fetch-data {}", names.join(" ")),
        )
    } else {
        (
            format!("{} data files", names.len()),
            "cargo xtask fetch-data".to_string(),
        )
    };
    Some((format!("lacks {what} ({why}); run `{command}`"), names))
}

/// Runs one study into `out/<study>` by `run` (given that directory), times it and says what
/// it ran.
fn run_timed(
    study: &dyn Paper,
    out: &Path,
    mode: &Mode,
    run: impl FnOnce(&Path) -> gendisc_engine::Result<Ran>,
) -> Outcome {
    let name = study.id();
    let out = out.join(name);
    if let Err(error) = fs::create_dir_all(&out) {
        return Outcome::Failed(format!("cannot create {}: {error}", out.display()));
    }
    eprintln!("{name}: {}", study.citation());
    let start = Instant::now();
    match run(&out) {
        Ok(ran) => {
            let elapsed = start.elapsed();
            for note in &ran.notes {
                eprintln!("{name}: {note}");
            }
            for (part, report) in &ran.parts {
                if report.discarded_mismatched_store {
                    eprintln!(
                        "{name}: {part}: the previous results had another configuration and \
                         were replaced"
                    );
                }
                eprintln!(
                    "{name}: {part}: {} cells ({} resumed, {} run)",
                    report.cells, report.resumed, report.ran
                );
            }
            if let Some(left_out) = &ran.left_out {
                eprintln!("{name}: {left_out}");
            }
            eprintln!(
                "{name}: results in {} ({})",
                out.display(),
                duration_text(elapsed)
            );
            match VerdictCounts::read(&out) {
                Ok(verdicts) => Outcome::Ran {
                    ran,
                    elapsed,
                    out,
                    verdicts,
                },
                Err(error) => Outcome::Failed(format!("{error:#}")),
            }
        }
        Err(StudyError::ShardFinished(shards)) => {
            for shard in &shards {
                eprintln!("{name}: finished {shard}");
            }
            Outcome::Shard(shards)
        }
        Err(error) => {
            let error = explain(error, mode);
            eprintln!("{name}: failed: {error:#}");
            Outcome::Failed(format!("{error:#}"))
        }
    }
}

/// The file in a shard's `<study>/` directory that records how the shard ran, so that
/// `cargo xtask merge` reads the configuration rather than being told it again.
pub(crate) const SHARD_CONFIGURATION: &str = "shard-configuration.json";

/// How a shard ran, as [`SHARD_CONFIGURATION`] records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShardConfiguration {
    /// The reduced grid (`--quick`).
    pub quick: bool,
}

/// Ends a shard run (`--shard`): no report, no summary file, only what each study stored, how
/// it ran ([`SHARD_CONFIGURATION`]) and how to merge it; an error if a study failed or could not
/// run.
fn shards_finished(rows: &[(&str, Outcome)], shard: Shard, args: &Args) -> Result<()> {
    let mut problems = Vec::new();
    for (name, outcome) in rows {
        match outcome {
            Outcome::Shard(shards) => {
                let path = args.out.join(name).join(SHARD_CONFIGURATION);
                let configuration = ShardConfiguration { quick: args.quick };
                fs::write(&path, serde_json::to_string(&configuration)? + "\n")
                    .with_context(|| format!("cannot write {}", path.display()))?;
                let cells: usize = shards.iter().map(|s| s.report.cells).sum();
                println!(
                    "{name}: shard {shard} stored ({} cells); once every shard has run: cargo \
                     xtask merge {name} DIR… --out DIR",
                    thousands(cells)
                );
            }
            Outcome::Skipped(reason) => problems.push(format!("{name} skipped: {reason}")),
            Outcome::Failed(error) => problems.push(format!("{name} failed: {error}")),
            Outcome::Ran { .. } => problems.push(format!(
                "{name} ran as a whole study instead of shard {shard}"
            )),
        }
    }
    if !problems.is_empty() {
        bail!("shard {shard}: {}", problems.join("; "));
    }
    Ok(())
}

/// The command as the user typed it, less `--out`, `--mirror` and `--export-inputs` (which do
/// not change the results), for the summary's heading.
fn command_line(args: &Args) -> String {
    let task = if args.merge.is_empty() {
        "cargo xtask reproduce"
    } else {
        "cargo xtask merge"
    };
    let mut words = vec![task.to_string()];
    words.extend(args.studies.iter().cloned());
    if !args.merge.is_empty() {
        words.push(format!("({} shards)", args.merge.len()));
    }
    if args.quick {
        words.push("--quick".into());
    }
    if args.offline {
        words.push("--offline".into());
    }
    if let Some(inputs) = &args.inputs {
        words.push(format!("--inputs {}", inputs.display()));
        if args.peer_series {
            words.push("--peer-series".into());
        }
    }
    words.join(" ")
}

/// `n` with a comma between thousands.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut text = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// A wall-clock time as a person reads it: `0.7 s`, `4 min 05 s`, `1 h 02 min`.
fn duration_text(elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    let whole = elapsed.as_secs();
    if seconds < 60.0 {
        format!("{seconds:.1} s")
    } else if whole < 3600 {
        format!("{} min {:02} s", whole / 60, whole % 60)
    } else {
        format!("{} h {:02} min", whole / 3600, whole % 3600 / 60)
    }
}

/// The summary table of a run of `command`: one row per chosen study.
fn summary_markdown(rows: &[(&str, Outcome)], command: &str) -> String {
    let mut text = format!(
        "# Reproduction summary\n\n\
         `{command}`: each study's outcome, cells, wall time, output directory and \
         the verdicts of its report (`verdicts.csv`; every claim is in `CLAIMS.md`).\n\n\
         | study | outcome | cells | wall time | output | supported | partly supported | not \
         supported | not assessed | robust | borderline |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let cell = |text: &str| text.replace('|', "\\|").replace('\n', " ");
    for (name, outcome) in rows {
        let line = match outcome {
            Outcome::Ran {
                ran,
                elapsed,
                out,
                verdicts,
            } => {
                let (total, resumed) = (ran.cells(), ran.resumed());
                let mut what = if total > 0 && resumed == total {
                    "resumed (every cell from an earlier run)".to_string()
                } else if resumed > 0 {
                    format!(
                        "ran ({} of the cells resumed from an earlier run)",
                        thousands(resumed)
                    )
                } else {
                    "ran".to_string()
                };
                if let Some(left_out) = &ran.left_out {
                    what.push_str("; ");
                    what.push_str(left_out);
                }
                let counts = match verdicts {
                    Some(v) => [
                        v.supported,
                        v.partly,
                        v.not_supported,
                        v.not_assessed,
                        v.robust,
                        v.borderline,
                    ]
                    .map(|n| n.to_string())
                    .join(" | "),
                    None => ["no verdicts.csv", "", "", "", "", ""].join(" | "),
                };
                format!(
                    "| {name} | {} | {} | {} | {} | {counts} |",
                    cell(&what),
                    thousands(total),
                    duration_text(*elapsed),
                    cell(&out.display().to_string()),
                )
            }
            Outcome::Shard(shards) => {
                let cells: usize = shards.iter().map(|s| s.report.cells).sum();
                let shard = shards
                    .first()
                    .map(|s| s.shard.to_string())
                    .unwrap_or_default();
                format!(
                    "| {name} | shard {shard}: cells stored, no report (merge the shards) | {} \
                     | — | — | — | — | — | — | — | — |",
                    thousands(cells)
                )
            }
            Outcome::Skipped(reason) => format!(
                "| {name} | skipped: {} | — | — | — | — | — | — | — | — | — |",
                cell(reason)
            ),
            Outcome::Failed(error) => format!(
                "| {name} | failed: {} | — | — | — | — | — | — | — | — | — |",
                cell(error)
            ),
        };
        let _ = writeln!(text, "{line}");
    }
    text
}

/// Writes `<out>/CLAIMS.md`, the table of every claim judged by the studies whose results are
/// under `out` (whether run now or before).
fn write_claims_table(out: &Path) -> Result<()> {
    let rows = crate::claims::collect(out)?;
    if rows.is_empty() {
        return Ok(());
    }
    let path = out.join("CLAIMS.md");
    fs::write(&path, crate::claims::document(&rows))
        .with_context(|| format!("cannot write {}", path.display()))?;
    eprintln!("every claim judged so far: {}", path.display());
    Ok(())
}

/// The runner settings every reproduction uses: a store written by another configuration (say,
/// a full run before a quick one) is replaced, so every output is regenerated from the cells of
/// this configuration; `--threads`, `--shard` and the shards to merge as `args` says. A shard
/// run replaces no store (it stops, naming the file): a shard run into a study's whole results
/// for want of its own `--out` would throw them away.
fn runner_settings(args: &Args) -> RunnerSettings {
    RunnerSettings {
        on_mismatch: if args.shard.is_some() {
            OnMismatch::Fail
        } else {
            OnMismatch::StartAfresh
        },
        threads: args.threads,
        shard: args.shard,
        merge_shards: args.merge.clone(),
        ..RunnerSettings::default()
    }
}

/// `error`, with what to do when a shard run met the store of another run in its directory.
fn explain(error: StudyError, mode: &Mode) -> anyhow::Error {
    match (&error, mode.runner.shard) {
        (StudyError::StoreMismatch { .. }, Some(shard)) => anyhow::Error::new(error).context(
            format!("shard {shard} replaces no result store: give each shard its own --out"),
        ),
        _ => error.into(),
    }
}

/// Refuses `--peer-series` for a `study` that names no peers whose series it could run.
fn with_peers(study: &dyn Paper) -> Result<()> {
    match study.inputs().and_then(|inputs| inputs.peers()) {
        Some(_) => Ok(()),
        None => bail!(
            "--peer-series: {} names no peers (R or scikit-learn scripts), so there is no series \
             of theirs to run",
            study.id()
        ),
    }
}

/// The one study named with `flag` (`--export-inputs`, `--inputs`), if it can write and read its
/// inputs.
fn study_with_inputs<'a>(selected: &[&'a dyn Paper], flag: &str) -> Result<&'a dyn Paper> {
    let able = with_inputs();
    match selected {
        [study] if study.inputs().is_some() => Ok(*study),
        [study] => bail!(
            "{flag} does not serve {} yet; it serves {}",
            study.id(),
            able.join(", ")
        ),
        _ => bail!(
            "{flag} takes one study, named on the command line: {}",
            able.join(", ")
        ),
    }
}

/// Writes the inputs of `study` (one that has them, see [`study_with_inputs`]) into `dir`.
fn export_inputs(study: &dyn Paper, dir: &Path, grid: Grid) -> Result<()> {
    let Some(inputs) = study.inputs() else {
        bail!("the inputs of {} cannot be written", study.id());
    };
    let start = Instant::now();
    for note in inputs.export(dir, grid)? {
        eprintln!("{}: {note}", study.id());
    }
    eprintln!(
        "{}: datasets and training rows written to {} in {:.2} s",
        study.id(),
        dir.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use gendisc_engine::RunReport;

    fn verdict(verdict: &str, robustness: &str) -> VerdictRow {
        VerdictRow {
            study: "raina".into(),
            claim: "1".into(),
            reading: "as run".into(),
            verdict: verdict.into(),
            robustness: robustness.into(),
            holds: 1,
            ties: 0,
            against: 0,
            unit: "points".into(),
            window: "every m".into(),
            quote: "it works".into(),
        }
    }

    #[test]
    fn verdicts_are_counted_by_kind_and_robustness() {
        let rows = [
            verdict("supported", "robust"),
            verdict(
                "supported",
                "borderline: partly supported with thresholds 10 points lower",
            ),
            verdict("partly supported", "robust"),
            verdict("not supported", "robust"),
            verdict("not assessed", "robust"),
        ];
        assert_eq!(
            VerdictCounts::of(&rows),
            VerdictCounts {
                supported: 2,
                partly: 1,
                not_supported: 1,
                not_assessed: 1,
                robust: 4,
                borderline: 1,
            }
        );
    }

    fn report(cells: usize, resumed: usize) -> RunReport {
        RunReport {
            cells,
            resumed,
            ran: cells - resumed,
            duplicate_lines: 0,
            discarded_partial_line: false,
            discarded_mismatched_store: false,
            elapsed: Duration::ZERO,
        }
    }

    /// A run of one part with `cells` cells, `resumed` of them read back.
    fn ran(cells: usize, resumed: usize, left_out: Option<&str>) -> Ran {
        Ran {
            parts: vec![("the study".into(), report(cells, resumed))],
            left_out: left_out.map(str::to_owned),
            notes: Vec::new(),
        }
    }

    #[test]
    fn the_summary_has_a_row_per_study_with_its_outcome() {
        let rows = [
            (
                "xue-titterington",
                Outcome::Ran {
                    ran: ran(62_400, 0, None),
                    elapsed: Duration::from_millis(9_480),
                    out: PathBuf::from("results/xue-titterington"),
                    verdicts: Some(VerdictCounts {
                        supported: 5,
                        partly: 1,
                        not_supported: 2,
                        not_assessed: 0,
                        robust: 7,
                        borderline: 1,
                    }),
                },
            ),
            (
                "bouchard-triggs",
                Outcome::Ran {
                    ran: ran(2_900, 2_900, Some("Table 1 skipped: no heart.dat | here")),
                    elapsed: Duration::from_secs(43 * 60 + 7),
                    out: PathBuf::from("results/bouchard-triggs"),
                    verdicts: None,
                },
            ),
            (
                "ng-jordan",
                Outcome::Ran {
                    ran: ran(34_600, 1_000, None),
                    elapsed: Duration::from_secs(3_725),
                    out: PathBuf::from("results/ng-jordan"),
                    verdicts: Some(VerdictCounts::default()),
                },
            ),
            (
                "epshteyn-dejong",
                Outcome::Skipped(
                    "lacks wordnet (not downloaded: --offline); run `cargo xtask fetch-data \
                     wordnet`"
                        .into(),
                ),
            ),
            ("raina", Outcome::Failed("cannot read\nthe archive".into())),
        ];
        let text = summary_markdown(&rows, "cargo xtask reproduce --quick");
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[2].contains("`cargo xtask reproduce --quick`"),
            "{text}"
        );
        let header = lines
            .iter()
            .position(|l| l.starts_with("| study |"))
            .unwrap();
        let columns = lines[header].matches(" | ").count();
        let table = &lines[header..];
        assert_eq!(table.len(), 2 + rows.len(), "{text}");
        for line in table {
            // Every row has as many cells as the header: no stray `|` from the reasons.
            assert_eq!(
                line.replace("\\|", "").matches('|').count(),
                columns + 2,
                "{line}"
            );
        }
        assert_eq!(
            table[2],
            "| xue-titterington | ran | 62,400 | 9.5 s | results/xue-titterington | 5 | 1 | 2 \
             | 0 | 7 | 1 |"
        );
        assert_eq!(
            table[3],
            "| bouchard-triggs | resumed (every cell from an earlier run); Table 1 skipped: no \
             heart.dat \\| here | 2,900 | 43 min 07 s | results/bouchard-triggs | no verdicts.csv \
             |  |  |  |  |  |"
        );
        assert!(
            table[4].starts_with(
                "| ng-jordan | ran (1,000 of the cells resumed from an earlier run) | 34,600 | 1 h \
                 02 min |"
            ),
            "{}",
            table[4]
        );
        assert_eq!(
            table[5],
            "| epshteyn-dejong | skipped: lacks wordnet (not downloaded: --offline); run `cargo \
             xtask fetch-data wordnet` | — | — | — | — | — | — | — | — | — |"
        );
        assert!(table[6].starts_with("| raina | failed: cannot read the archive |"));
    }

    #[test]
    fn the_input_flags_take_one_study_that_they_serve() {
        let find = |name: &str| gendisc_studies::papers::find(name).unwrap();
        assert_eq!(
            with_inputs(),
            ["xue-titterington", "ng-jordan", "bouchard-triggs"]
        );
        let (xt, nj, raina) = (find("xue-titterington"), find("ng-jordan"), find("raina"));
        assert!(study_with_inputs(&[xt], "--inputs").is_ok());
        assert!(study_with_inputs(&[nj], "--inputs").is_ok());
        let bt = find("bouchard-triggs");
        assert!(study_with_inputs(&[bt], "--inputs").is_ok());
        assert!(study_with_inputs(&[nj], "--export-inputs").is_ok());
        let refused = |selected: &[&dyn Paper], flag: &str| {
            study_with_inputs(selected, flag)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        assert!(refused(&[raina], "--inputs").contains("does not serve raina"));
        assert!(with_peers(xt).is_ok());
        let no_peers = with_peers(nj).err().unwrap().to_string();
        assert!(no_peers.contains("ng-jordan names no peers"), "{no_peers}");
        assert!(refused(&[raina], "--export-inputs").contains("raina"));
        assert!(refused(&[xt, nj], "--export-inputs").contains("one study"));
        assert!(refused(&[], "--inputs").contains("one study"));
    }

    #[derive(Debug, clap::Parser)]
    struct Command {
        #[command(flatten)]
        args: Args,
    }

    #[test]
    fn shard_and_threads_are_read_from_the_command_line() {
        use clap::Parser;
        let parsed =
            Command::try_parse_from(["reproduce", "raina", "--shard", "2/3", "--threads", "4"])
                .unwrap()
                .args;
        assert_eq!(parsed.shard, Some(Shard::new(2, 3).unwrap()));
        assert_eq!(parsed.threads, Some(4));
        let settings = runner_settings(&parsed);
        assert_eq!((settings.shard, settings.threads), (parsed.shard, Some(4)));
        assert_eq!(settings.on_mismatch, OnMismatch::Fail);
        let whole = Command::try_parse_from(["reproduce", "raina"])
            .unwrap()
            .args;
        assert_eq!(runner_settings(&whole).on_mismatch, OnMismatch::StartAfresh);
        for bad in ["4/3", "0/3", "1/0", "two/3"] {
            let error = Command::try_parse_from(["reproduce", "--shard", bad]).unwrap_err();
            assert!(
                error.to_string().contains("invalid shard"),
                "{bad}: {error}"
            );
        }
    }

    #[test]
    fn a_shard_run_fails_when_a_study_did_not_run_its_shard() {
        let shard = Shard::new(1, 2).unwrap();
        let stored = Outcome::Shard(vec![ShardRun {
            study: "raina".into(),
            shard,
            store: None,
            report: report(10, 0),
        }]);
        let out = std::env::temp_dir().join(format!("xtask-shard-run-{}", std::process::id()));
        std::fs::create_dir_all(out.join("raina")).unwrap();
        let args = Args {
            out: out.clone(),
            quick: true,
            ..Args::default()
        };
        assert!(shards_finished(&[("raina", stored.clone())], shard, &args).is_ok());
        // The shard records how it ran, for the merge.
        let recorded =
            std::fs::read_to_string(out.join("raina").join(SHARD_CONFIGURATION)).unwrap();
        let recorded: ShardConfiguration = serde_json::from_str(&recorded).unwrap();
        assert_eq!(recorded, ShardConfiguration { quick: true });
        let error = shards_finished(
            &[
                ("raina", stored),
                ("ng-jordan", Outcome::Skipped("lacks adult.data".into())),
            ],
            shard,
            &args,
        )
        .unwrap_err();
        std::fs::remove_dir_all(&out).unwrap();
        assert!(
            error
                .to_string()
                .contains("ng-jordan skipped: lacks adult.data"),
            "{error}"
        );
    }

    #[test]
    fn numbers_and_durations_read_as_a_person_writes_them() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(62_400), "62,400");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(duration_text(Duration::from_millis(700)), "0.7 s");
        assert_eq!(duration_text(Duration::from_secs(65)), "1 min 05 s");
        assert_eq!(duration_text(Duration::from_secs(7_260)), "2 h 01 min");
    }

    #[test]
    fn every_study_names_what_it_reads_and_the_manifest_has_it() {
        let manifest = Manifest::parse(fetch_data::MANIFEST).unwrap();
        for study in registry() {
            for need in study.needs().into_iter().chain(study.wants()) {
                let known = match &need {
                    Need::File(path) => manifest.entry(path).is_some(),
                    Need::WordNet => manifest.archive(WORDNET).is_some(),
                };
                assert!(
                    known,
                    "{}: {} is not in the manifest",
                    study.id(),
                    need.name()
                );
                assert!(need.bytes(&manifest).is_some(), "{}", need.name());
            }
        }
        // Without WordNet anywhere the study is skipped with the command that fetches it.
        if let Some((reason, names)) = lacks(
            gendisc_studies::papers::find("epshteyn-dejong").unwrap(),
            &[(Need::WordNet, "not downloaded: --offline".to_string())].into(),
        ) {
            assert!(reason.contains("`cargo xtask fetch-data "), "{reason}");
            for name in &names {
                assert!(reason.contains(name.as_str()), "{reason}");
            }
        }
    }
}
