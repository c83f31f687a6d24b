//! `cargo xtask bench-peers`: a paper's replicates timed in gendisc and in the other
//! implementations of its estimators that its [`Peers`] name (for Xue–Titterington: R's
//! `e1071::naiveBayes` and `glm.fit`, and scikit-learn), on the very same exported inputs.
//!
//! Nothing is installed: a peer whose interpreter or library is missing is skipped with the
//! reason. Each round runs every implementation once on one core (gendisc `--threads 1`, a
//! peer as one process) and once on the whole machine (gendisc `--threads N`, a peer as N
//! processes over disjoint parts of the replicates), the implementations taking turns and the
//! order rotating from round to round, so that a slow spell of a shared machine falls on all of
//! them. Wall time and the children's CPU time (user + system, from `getrusage`) are measured
//! per run; the table gives their minimum, median and maximum over the rounds, and each peer's
//! ratio to gendisc's run of the same round. The peers' results are then joined with gendisc's
//! by the paper's comparison script, so that the timings are known to be of the same
//! computation.

use std::fmt::Write as _;
use std::fs::{self, File};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context, Result};
use gendisc_studies::papers::registry;
use gendisc_studies::{Grid, Paper, Peers};

use crate::cargo;

/// Arguments of `cargo xtask bench-peers`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The paper whose replicates are timed [default: the one paper that has peers].
    #[arg(long, value_name = "ID")]
    paper: Option<String>,
    /// Replicates per dataset and training size: one of the counts the paper's runs read (20,
    /// the quick run's, or 400, the paper's, for Xue–Titterington).
    #[arg(long, default_value_t = 20)]
    replicates: usize,
    /// Rounds; each runs every implementation once per core and once on the whole machine.
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// The exported inputs (datasets and training rows). Written first, by a release build's
    /// `reproduce PAPER --export-inputs`, when the directory does not exist
    /// [default: OUT/inputs-REPLICATES].
    #[arg(long, value_name = "DIR")]
    inputs: Option<PathBuf>,
    /// Where the runs' outputs, their logs and the table (`bench-peers.md`) go.
    #[arg(long, value_name = "DIR", default_value = "results/bench-peers")]
    out: PathBuf,
    /// Cores of a whole-machine run: gendisc's threads, each peer's processes [default: the
    /// cores available].
    #[arg(long, value_name = "N")]
    cores: Option<usize>,
    /// The R front end that runs the R peer.
    #[arg(long, default_value = "Rscript")]
    rscript: String,
    /// The Python interpreter of the scikit-learn peer (and of the comparison script).
    #[arg(long, default_value = "python3")]
    python: String,
}

/// The paper of `--paper`, or the registry's one paper with peers.
fn paper_with_peers(id: Option<&str>) -> Result<(&'static dyn Paper, Peers)> {
    let peers_of = |paper: &'static dyn Paper| paper.inputs().and_then(|i| i.peers());
    let with_peers: Vec<(&'static dyn Paper, Peers)> = registry()
        .iter()
        .filter_map(|&paper| peers_of(paper).map(|peers| (paper, peers)))
        .collect();
    let names = || {
        with_peers
            .iter()
            .map(|(p, _)| p.id())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match id {
        Some(id) => with_peers
            .iter()
            .find(|(paper, _)| paper.id() == id)
            .copied()
            .with_context(|| {
                format!(
                    "--paper {id}: no paper of that name has peers (those that do: {})",
                    names()
                )
            }),
        None => match with_peers.as_slice() {
            [one] => Ok(*one),
            _ => bail!(
                "name the paper with --paper (those with peers: {})",
                names()
            ),
        },
    }
}

/// The checked arguments.
#[derive(Debug, Clone, PartialEq)]
struct Plan {
    /// The paper's id.
    paper: &'static str,
    peers: Peers,
    replicates: usize,
    /// `--quick` for the quick grid's replicates, nothing for the paper's.
    study_flag: Option<&'static str>,
    rounds: usize,
    cores: usize,
    out: PathBuf,
    inputs: PathBuf,
}

impl Plan {
    /// Checks `args` for `paper`; `available` is the machine's core count, the default of
    /// `--cores`.
    fn new(args: &Args, paper: &dyn Paper, peers: Peers, available: usize) -> Result<Self> {
        let Some(grid) = peers.grid(args.replicates) else {
            let counts: Vec<String> = peers
                .replicates
                .iter()
                .map(|(count, _)| count.to_string())
                .collect();
            bail!(
                "--replicates {}: {}'s run on exported inputs reads {} replicates per dataset \
                 and size, so the peers can be timed on the same work only for those",
                args.replicates,
                paper.id(),
                counts.join(" or ")
            );
        };
        ensure!(args.rounds >= 1, "--rounds must be at least 1");
        let cores = args.cores.unwrap_or(available);
        ensure!(cores >= 1, "--cores must be at least 1");
        let inputs = args
            .inputs
            .clone()
            .unwrap_or_else(|| args.out.join(format!("inputs-{}", args.replicates)));
        Ok(Self {
            paper: paper.id(),
            peers,
            replicates: args.replicates,
            study_flag: match grid {
                Grid::Quick => Some("--quick"),
                Grid::Paper => None,
            },
            rounds: args.rounds,
            cores,
            out: args.out.clone(),
            inputs,
        })
    }
}

/// The implementations timed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Implementation {
    /// The paper's whole study.
    Gendisc,
    /// Only the series the peers compute (`reproduce --peer-series`): their work, no more.
    GendiscPeerSeries,
    R,
    ScikitLearn,
}

impl Implementation {
    fn name(self) -> &'static str {
        match self {
            Self::Gendisc => "gendisc",
            Self::GendiscPeerSeries => "gendisc, the peers' series",
            Self::R => "R",
            Self::ScikitLearn => "scikit-learn",
        }
    }

    fn file_stem(self) -> &'static str {
        match self {
            Self::Gendisc => "gendisc",
            Self::GendiscPeerSeries => "gendisc-peer-series",
            Self::R => "r",
            Self::ScikitLearn => "sklearn",
        }
    }
}

/// One core (one thread or process) or the whole machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    PerCore,
    WholeMachine,
}

impl Scope {
    fn name(self) -> &'static str {
        match self {
            Self::PerCore => "per core",
            Self::WholeMachine => "whole machine",
        }
    }
}

/// The wall and CPU time of one run.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Timing {
    wall: f64,
    cpu: f64,
}

/// Minimum, median and maximum of some values.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Spread {
    min: f64,
    median: f64,
    max: f64,
}

impl Spread {
    /// The spread of `values`; `None` when there are none (or one is NaN).
    fn of(values: &[f64]) -> Option<Self> {
        if values.is_empty() || values.iter().any(|v| v.is_nan()) {
            return None;
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        Some(Self {
            min: sorted[0],
            median,
            max: sorted[n - 1],
        })
    }

    /// `min / median / max` with `decimals` decimals.
    fn display(&self, decimals: usize) -> String {
        format!(
            "{:.decimals$} / {:.decimals$} / {:.decimals$}",
            self.min, self.median, self.max
        )
    }
}

/// The rounds' timings of one implementation in one scope.
#[derive(Debug, Clone, PartialEq)]
struct Series {
    implementation: Implementation,
    scope: Scope,
    /// One per round, in round order.
    timings: Vec<Timing>,
}

/// Round-by-round ratios `numerator / denominator` of one quantity (a round's runs alternate,
/// so the pairs share the machine's state).
fn paired_ratios(
    numerator: &[Timing],
    denominator: &[Timing],
    value: fn(&Timing) -> f64,
) -> Vec<f64> {
    numerator
        .iter()
        .zip(denominator)
        .map(|(n, d)| value(n) / value(d))
        .collect()
}

/// The table of every series: seconds as min / median / max over the rounds, each series'
/// round-by-round ratios to gendisc's whole study in the same scope, and its CPU ratio to
/// gendisc on the peers' series alone (the same work as the peers').
fn render_table(series: &[Series]) -> String {
    let mut table = String::from(
        "| implementation | scope | wall s (min / median / max) | CPU s (min / median / max) \
         | wall ÷ gendisc's (min / median / max) | CPU ÷ gendisc's (min / median / max) \
         | CPU ÷ gendisc's on the peers' series (min / median / max) |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for scope in [Scope::PerCore, Scope::WholeMachine] {
        let of = |implementation| {
            series
                .iter()
                .find(|s| s.scope == scope && s.implementation == implementation)
        };
        let (whole, same_work) = (
            of(Implementation::Gendisc),
            of(Implementation::GendiscPeerSeries),
        );
        for s in series.iter().filter(|s| s.scope == scope) {
            let spread = |values: Vec<f64>, decimals| {
                Spread::of(&values).map_or_else(|| "–".to_string(), |s| s.display(decimals))
            };
            let wall = spread(s.timings.iter().map(|t| t.wall).collect(), 2);
            let cpu = spread(s.timings.iter().map(|t| t.cpu).collect(), 2);
            // A series against a reference: `1` for the reference itself, `–` without one.
            let against = |reference: Option<&Series>, value: fn(&Timing) -> f64| match reference {
                Some(r) if r.implementation == s.implementation => "1".to_string(),
                Some(r) => spread(paired_ratios(&s.timings, &r.timings, value), 1),
                None => "–".to_string(),
            };
            let _ = writeln!(
                table,
                "| {} | {} | {wall} | {cpu} | {} | {} | {} |",
                s.implementation.name(),
                scope.name(),
                against(whole, |t| t.wall),
                against(whole, |t| t.cpu),
                against(same_work, |t| t.cpu),
            );
        }
    }
    table
}

/// The order in which round `round` runs `implementations`: rotated by one each round, so that
/// none always runs first (after a cold cache) or last.
fn round_order(implementations: &[Implementation], round: usize) -> Vec<Implementation> {
    let mut order = implementations.to_vec();
    if !order.is_empty() {
        let shift = round % order.len();
        order.rotate_left(shift);
    }
    order
}

/// The CPU time (user + system) of every child this process has waited for: the `cutime` and
/// `cstime` fields of `/proc/self/stat` (what `getrusage(RUSAGE_CHILDREN)` reports), in the
/// kernel's fixed user-visible clock ticks.
///
/// Read from `/proc` rather than through a system-call crate: `nix` turns on features of `libc`
/// that the rest of the workspace does not, and a build of a part of the workspace would rebuild
/// `libc` and everything above it (`rand`, `ndarray`, `proptest`, …).
fn children_cpu() -> Result<Duration> {
    let stat = fs::read_to_string("/proc/self/stat")
        .context("reading /proc/self/stat (bench-peers measures CPU time on Linux)")?;
    children_cpu_from_stat(&stat)
}

/// The ticks per second of the times in `/proc/*/stat`: `USER_HZ`, part of Linux's ABI (what
/// `sysconf(_SC_CLK_TCK)` returns) and 100 on every architecture this project builds for.
const USER_HZ: u64 = 100;

/// [`children_cpu`] from the text of `/proc/self/stat`: fields 16 and 17 (`cutime`, `cstime`),
/// counted after the command name, which is parenthesised and may itself hold spaces.
fn children_cpu_from_stat(stat: &str) -> Result<Duration> {
    let after_name = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest)
        .context("/proc/self/stat has no command name")?;
    // After the name come field 3 (the state) onwards, so field n is at index n − 3.
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |field: usize| -> Result<u64> {
        fields
            .get(field - 3)
            .and_then(|v| v.parse().ok())
            .with_context(|| format!("/proc/self/stat has no number in field {field}"))
    };
    let total = ticks(16)? + ticks(17)?;
    Ok(Duration::from_millis(total * 1000 / USER_HZ))
}

/// A command to time, with the file that receives its output.
struct Job {
    command: Command,
    log: PathBuf,
}

/// Starts every job at once, waits for all of them and returns their wall and CPU time; fails
/// naming the job and its log if one fails.
fn measure(jobs: Vec<Job>) -> Result<Timing> {
    let cpu_before = children_cpu()?;
    let started = Instant::now();
    let mut running: Vec<(Child, Job)> = Vec::with_capacity(jobs.len());
    for mut job in jobs {
        let started = File::create(&job.log)
            .and_then(|log| Ok((log.try_clone()?, log)))
            .with_context(|| format!("cannot create {}", job.log.display()))
            .and_then(|(stdout, stderr)| {
                job.command
                    .stdout(stdout)
                    .stderr(stderr)
                    .stdin(Stdio::null())
                    .spawn()
                    .with_context(|| format!("cannot start {:?}", job.command))
            });
        match started {
            Ok(child) => running.push((child, job)),
            Err(error) => {
                // Leave no part of the run behind.
                for (mut child, _) in running {
                    let _ = child.kill();
                    let _ = child.wait();
                }
                return Err(error);
            }
        }
    }
    let mut failures = Vec::new();
    for (mut child, job) in running {
        let status = child
            .wait()
            .with_context(|| format!("cannot wait for {:?}", job.command))?;
        if !status.success() {
            failures.push(format!(
                "{:?} failed with {status}; its output is in {}",
                job.command,
                job.log.display()
            ));
        }
    }
    let wall = started.elapsed().as_secs_f64();
    let cpu = children_cpu()?.saturating_sub(cpu_before).as_secs_f64();
    if !failures.is_empty() {
        bail!("{}", failures.join("\n"));
    }
    Ok(Timing { wall, cpu })
}

/// What each implementation needs to run.
struct Setup {
    plan: Plan,
    /// The release build of the task runner, which runs gendisc's study.
    xtask: PathBuf,
    rscript: String,
    python: String,
    runs: PathBuf,
    logs: PathBuf,
}

impl Setup {
    /// The jobs of one run: gendisc as one process with 1 or N threads, a peer as 1 or N
    /// processes over disjoint parts of the replicates.
    fn jobs(&self, implementation: Implementation, scope: Scope, round: usize) -> Vec<Job> {
        let cores = match scope {
            Scope::PerCore => 1,
            Scope::WholeMachine => self.plan.cores,
        };
        let stem = format!(
            "{}-round{}-{}",
            implementation.file_stem(),
            round + 1,
            match scope {
                Scope::PerCore => "1".to_string(),
                Scope::WholeMachine => format!("{cores}"),
            }
        );
        match implementation {
            Implementation::Gendisc | Implementation::GendiscPeerSeries => {
                let mut command = Command::new(&self.xtask);
                command
                    .args(["reproduce", self.plan.paper, "--offline"])
                    .args(self.plan.study_flag)
                    .arg("--inputs")
                    .arg(&self.plan.inputs)
                    .args(
                        (implementation == Implementation::GendiscPeerSeries)
                            .then_some("--peer-series"),
                    )
                    .args(["--threads", &cores.to_string()])
                    .arg("--out")
                    .arg(self.runs.join(&stem));
                vec![Job {
                    command,
                    log: self.logs.join(format!("{stem}.log")),
                }]
            }
            Implementation::R | Implementation::ScikitLearn => (1..=cores)
                .map(|part| {
                    let (program, script) = match implementation {
                        Implementation::R => (&self.rscript, self.plan.peers.r_script),
                        _ => (&self.python, self.plan.peers.scikit_learn_script),
                    };
                    let name = if cores == 1 {
                        stem.clone()
                    } else {
                        format!("{stem}-part{part}")
                    };
                    let mut command = Command::new(program);
                    command
                        .arg(peer_script(script))
                        .arg(&self.plan.inputs)
                        .arg(self.runs.join(format!("{name}.csv")))
                        .arg(self.plan.replicates.to_string())
                        .arg(format!("{part}/{cores}"));
                    // One core per process: no BLAS or OpenMP threads of their own.
                    for variable in ["OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"] {
                        command.env(variable, "1");
                    }
                    Job {
                        command,
                        log: self.logs.join(format!("{name}.log")),
                    }
                })
                .collect(),
        }
    }

    /// Where a run's per-replicate results are: gendisc's `cells.csv`, a peer's one-process CSV.
    fn results(&self, implementation: Implementation, round: usize) -> PathBuf {
        let stem = format!("{}-round{}-1", implementation.file_stem(), round + 1);
        match implementation {
            Implementation::Gendisc | Implementation::GendiscPeerSeries => {
                self.runs.join(stem).join(self.plan.paper).join("cells.csv")
            }
            _ => self.runs.join(format!("{stem}.csv")),
        }
    }

    /// How `peer`'s results agree with gendisc's (round 1's one-core runs), as the paper's
    /// comparison script reports it.
    fn agreement(&self, peer: Implementation) -> Result<String> {
        let script = self.plan.peers.compare_script;
        let output = Command::new(&self.python)
            .arg(peer_script(script))
            .arg(self.results(Implementation::Gendisc, 0))
            .arg(self.results(peer, 0))
            .output()
            .with_context(|| format!("cannot run scripts/peers/{script}"))?;
        ensure!(
            output.status.success(),
            "scripts/peers/{script} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let summary: Vec<String> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter(|line| line.starts_with('|'))
            .map(str::to_string)
            .collect();
        Ok(format!(
            "\nAgreement of {} with gendisc (scripts/peers/{script}, round 1's one-core \
             runs):\n\n{}\n",
            peer.name(),
            summary.join("\n")
        ))
    }
}

/// A script of `scripts/peers/`.
fn peer_script(name: &str) -> PathBuf {
    cargo::workspace_root().join("scripts/peers").join(name)
}

/// R code that loads `packages` and prints R's version and theirs.
fn r_probe(packages: &[&str]) -> String {
    let mut code = String::from("cat(R.version.string");
    for p in packages {
        let _ = write!(
            code,
            "); suppressPackageStartupMessages(library({p})); cat(' - {p}', \
             as.character(packageVersion('{p}'))"
        );
    }
    code.push(')');
    code
}

/// The first line of a command's output (stdout, else stderr), or why it could not be run.
fn probe(program: &str, args: &[&str]) -> std::result::Result<String, String> {
    let output = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("`{program}` cannot be run ({e})"))?;
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).trim().to_string();
    if !output.status.success() {
        let stderr = text(&output.stderr);
        let last = stderr.lines().last().unwrap_or("no message");
        return Err(format!("`{program}` failed ({last})"));
    }
    Ok(text(&output.stdout))
}

/// The release build of this task runner (built now if stale): gendisc's study runs in it.
fn release_xtask() -> Result<PathBuf> {
    let output = cargo::cargo()
        .args(["build", "--release", "--package", "xtask"])
        .args(["--message-format", "json-render-diagnostics"])
        .stderr(Stdio::inherit())
        .output()
        .context("cannot run cargo build --release --package xtask")?;
    ensure!(
        output.status.success(),
        "cargo build --release --package xtask failed with {}",
        output.status
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| {
            message["reason"] == "compiler-artifact" && message["target"]["name"] == "xtask"
        })
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .context("cargo build --release --package xtask reported no xtask executable")
}

/// The machine and the peers' versions, for the record.
fn machine_description(cores: usize, peers: &[(Implementation, String)]) -> String {
    let cpu = fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split_once(':'))
                .map(|(_, model)| model.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let available = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mut text =
        format!("machine: {cpu}, {available} cores available; whole-machine runs use {cores}\n");
    for (implementation, version) in peers {
        let _ = writeln!(text, "{}: {version}", implementation.name());
    }
    text
}

/// The 1-, 5- and 15-minute load averages, as the kernel reports them.
fn load_average() -> String {
    fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".into())
}

/// The implementations that can run here: gendisc, and each peer whose interpreter and
/// libraries load (the others skipped with the reason), with their versions; and whether
/// Python, which the comparison script needs, can run.
struct Available {
    implementations: Vec<Implementation>,
    versions: Vec<(Implementation, String)>,
    python: bool,
}

/// Probes the peers (see [`Available`]).
fn available_here(args: &Args, peers: &Peers) -> Available {
    let mut implementations = vec![Implementation::Gendisc, Implementation::GendiscPeerSeries];
    let mut versions = Vec::new();
    match probe(&args.rscript, &["-e", &r_probe(peers.r_packages)]) {
        Ok(version) => {
            implementations.push(Implementation::R);
            versions.push((Implementation::R, version));
        }
        Err(reason) => {
            let debian: Vec<String> = peers
                .r_packages
                .iter()
                .map(|p| format!("r-cran-{}", p.to_lowercase()))
                .collect();
            eprintln!(
                "R peer skipped: {reason}; it needs R with the packages {} (Debian: r-base-core, \
                 {})",
                peers.r_packages.join(", "),
                debian.join(", ")
            )
        }
    }
    let python = probe(
        &args.python,
        &[
            "-c",
            "import sys, sklearn, numpy; print('Python', sys.version.split()[0], \
             '- scikit-learn', sklearn.__version__, '- NumPy', numpy.__version__)",
        ],
    );
    match &python {
        Ok(version) => {
            implementations.push(Implementation::ScikitLearn);
            versions.push((Implementation::ScikitLearn, version.clone()));
        }
        Err(reason) => eprintln!(
            "scikit-learn peer skipped: {reason}; it needs a Python with scikit-learn (pip \
             install scikit-learn)"
        ),
    }

    Available {
        implementations,
        versions,
        python: python.is_ok(),
    }
}

/// Runs the benchmark (see the module documentation).
pub fn run(args: &Args) -> Result<()> {
    let available = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (paper, peers) = paper_with_peers(args.paper.as_deref())?;
    let plan = Plan::new(args, paper, peers, available)?;

    let Available {
        implementations,
        versions,
        python,
    } = available_here(args, &peers);

    eprintln!("building the task runner's release build, which runs gendisc's study");
    let xtask = release_xtask()?;
    if !plan.inputs.exists() {
        eprintln!(
            "writing the inputs ({} replicates) into {}",
            plan.replicates,
            plan.inputs.display()
        );
        let mut command = Command::new(&xtask);
        command
            .args(["reproduce", plan.paper, "--offline"])
            .args(plan.study_flag)
            .arg("--export-inputs")
            .arg(&plan.inputs)
            .arg("--out")
            .arg(plan.out.join("export"));
        cargo::run(command)?;
    }
    ensure!(
        plan.inputs.join("datasets").is_dir(),
        "{} holds no datasets/: not the inputs --export-inputs writes",
        plan.inputs.display()
    );

    let runs = plan.out.join("runs");
    let logs = plan.out.join("logs");
    for dir in [&runs, &logs] {
        if dir.exists() {
            fs::remove_dir_all(dir).with_context(|| format!("cannot clear {}", dir.display()))?;
        }
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let setup = Setup {
        plan: plan.clone(),
        xtask,
        rscript: args.rscript.clone(),
        python: args.python.clone(),
        runs,
        logs,
    };

    let mut series: Vec<Series> = [Scope::PerCore, Scope::WholeMachine]
        .into_iter()
        .flat_map(|scope| {
            implementations.iter().map(move |&implementation| Series {
                implementation,
                scope,
                timings: Vec::new(),
            })
        })
        .collect();
    let mut loads = vec![load_average()];
    for round in 0..plan.rounds {
        for implementation in round_order(&implementations, round) {
            for scope in [Scope::PerCore, Scope::WholeMachine] {
                let timing = measure(setup.jobs(implementation, scope, round))?;
                eprintln!(
                    "round {}: {} {}: {:.2} s wall, {:.2} s CPU (load {})",
                    round + 1,
                    implementation.name(),
                    scope.name(),
                    timing.wall,
                    timing.cpu,
                    load_average()
                );
                if let Some(s) = series
                    .iter_mut()
                    .find(|s| s.implementation == implementation && s.scope == scope)
                {
                    s.timings.push(timing);
                }
            }
        }
        loads.push(load_average());
    }

    let mut report = format!(
        "# gendisc against its peers: {}\n\n{}replicates: {} per dataset and \
         size ({} cells); rounds: {}\nload average (1, 5, 15 min) before and after each round: \
         {}\n\n{}",
        paper.citation(),
        machine_description(plan.cores, &versions),
        plan.replicates,
        peers.cells_per_replicate * plan.replicates,
        plan.rounds,
        loads.join(" → "),
        render_table(&series)
    );
    if !python && implementations.len() > 1 {
        eprintln!(
            "the peers' results were not compared with gendisc's: {} needs Python",
            peers.compare_script
        );
    }
    if python {
        for &peer in implementations.iter().skip(1) {
            report.push_str(&setup.agreement(peer)?);
        }
    }
    let path = plan.out.join("bench-peers.md");
    fs::write(&path, &report).with_context(|| format!("cannot write {}", path.display()))?;
    println!("{report}\n(also in {})", path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_children_cpu_time_is_read_after_the_command_name() {
        // A name with a space and a parenthesis; cutime 250 and cstime 50 ticks.
        let stat = "4242 (r (x) y) S 1 2 3 0 -1 4194560 10 20 0 0 7 8 250 50 20 0 1 0 5 6 7";
        assert_eq!(
            children_cpu_from_stat(stat).unwrap(),
            Duration::from_secs(3)
        );
        assert!(children_cpu_from_stat("4242 (truncated) S 1 2").is_err());
    }

    #[test]
    fn a_waited_for_child_adds_its_cpu_time() {
        let before = children_cpu().unwrap();
        let status = Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"])
            .status()
            .unwrap();
        assert!(status.success());
        let after = children_cpu().unwrap();
        assert!(after > before, "{before:?} → {after:?}");
    }

    fn args(replicates: usize, rounds: usize, cores: Option<usize>) -> Args {
        Args {
            paper: None,
            replicates,
            rounds,
            inputs: None,
            out: PathBuf::from("bench"),
            cores,
            rscript: "Rscript".into(),
            python: "python3".into(),
        }
    }

    /// The plan of `args` for the one paper with peers, on a 2-core machine.
    fn plan(args: &Args) -> Result<Plan> {
        let (paper, peers) = paper_with_peers(None)?;
        Plan::new(args, paper, peers, 2)
    }

    #[test]
    fn the_paper_is_the_one_with_peers_unless_named() {
        let (paper, peers) = paper_with_peers(None).unwrap();
        assert_eq!(paper_with_peers(Some(paper.id())).unwrap().1, peers);
        let unknown = paper_with_peers(Some("no-such-paper"))
            .err()
            .unwrap()
            .to_string();
        assert!(unknown.contains(paper.id()), "{unknown}");
    }

    #[test]
    fn the_r_probe_loads_each_package_and_prints_its_version() {
        assert_eq!(
            r_probe(&["e1071", "MASS"]),
            "cat(R.version.string); suppressPackageStartupMessages(library(e1071)); \
             cat(' - e1071', as.character(packageVersion('e1071'))); \
             suppressPackageStartupMessages(library(MASS)); cat(' - MASS', \
             as.character(packageVersion('MASS')))"
        );
    }

    fn timing(wall: f64, cpu: f64) -> Timing {
        Timing { wall, cpu }
    }

    #[test]
    fn the_plan_accepts_the_replicate_counts_gendisc_reads() {
        let quick = plan(&args(20, 3, None)).unwrap();
        assert_eq!(quick.study_flag, Some("--quick"));
        assert_eq!(quick.cores, 2);
        assert_eq!(quick.inputs, Path::new("bench/inputs-20"));
        let paper = plan(&args(400, 1, Some(4))).unwrap();
        assert_eq!(paper.study_flag, None);
        assert_eq!(paper.cores, 4);
        let refused = plan(&args(50, 3, None)).unwrap_err().to_string();
        assert!(
            refused.contains("--replicates 50") && refused.contains("20"),
            "{refused}"
        );
    }

    #[test]
    fn the_plan_refuses_no_rounds_and_no_cores() {
        let rounds = plan(&args(20, 0, None)).unwrap_err().to_string();
        assert!(rounds.contains("--rounds"), "{rounds}");
        let cores = plan(&args(20, 1, Some(0))).unwrap_err().to_string();
        assert!(cores.contains("--cores"), "{cores}");
    }

    #[test]
    fn the_spread_takes_the_middle_of_an_even_count() {
        let odd = Spread::of(&[3.0, 1.0, 2.0]).unwrap();
        assert_eq!((odd.min, odd.median, odd.max), (1.0, 2.0, 3.0));
        let even = Spread::of(&[4.0, 1.0, 2.0, 10.0]).unwrap();
        assert_eq!((even.min, even.median, even.max), (1.0, 3.0, 10.0));
        assert_eq!(Spread::of(&[]), None);
        assert_eq!(Spread::of(&[1.0, f64::NAN]), None);
        assert_eq!(even.display(1), "1.0 / 3.0 / 10.0");
    }

    #[test]
    fn ratios_pair_the_runs_of_one_round() {
        let peer = [timing(10.0, 12.0), timing(30.0, 33.0)];
        let gendisc = [timing(1.0, 2.0), timing(2.0, 3.0)];
        assert_eq!(paired_ratios(&peer, &gendisc, |t| t.wall), [10.0, 15.0]);
        assert_eq!(paired_ratios(&peer, &gendisc, |t| t.cpu), [6.0, 11.0]);
    }

    #[test]
    fn the_table_gives_each_peer_its_ratio_to_gendisc_in_the_same_scope() {
        let series = vec![
            Series {
                implementation: Implementation::Gendisc,
                scope: Scope::PerCore,
                timings: vec![timing(1.0, 1.0), timing(2.0, 2.0), timing(1.5, 1.5)],
            },
            Series {
                implementation: Implementation::GendiscPeerSeries,
                scope: Scope::PerCore,
                timings: vec![timing(0.5, 0.5), timing(1.0, 1.0), timing(1.0, 1.0)],
            },
            Series {
                implementation: Implementation::R,
                scope: Scope::PerCore,
                timings: vec![timing(20.0, 19.0), timing(30.0, 29.0), timing(30.0, 30.0)],
            },
            Series {
                implementation: Implementation::Gendisc,
                scope: Scope::WholeMachine,
                timings: vec![timing(1.0, 2.0), timing(1.0, 2.0), timing(1.0, 2.0)],
            },
            Series {
                implementation: Implementation::R,
                scope: Scope::WholeMachine,
                timings: vec![timing(10.0, 20.0), timing(12.0, 24.0), timing(11.0, 22.0)],
            },
        ];
        let table = render_table(&series);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 7, "{table}");
        assert_eq!(
            lines[2],
            "| gendisc | per core | 1.00 / 1.50 / 2.00 | 1.00 / 1.50 / 2.00 | 1 | 1 | 1.5 / 2.0 / 2.0 |"
        );
        assert!(
            lines[3].ends_with("| 0.5 / 0.5 / 0.7 | 0.5 / 0.5 / 0.7 | 1 |"),
            "{table}"
        );
        // Per round: 20/1, 30/2, 30/1.5 for the wall time; 19/0.5, 29/1, 30/1 for the CPU time
        // against the peers' series alone.
        assert_eq!(
            lines[4],
            "| R | per core | 20.00 / 30.00 / 30.00 | 19.00 / 29.00 / 30.00 | 15.0 / 20.0 / 20.0 \
             | 14.5 / 19.0 / 20.0 | 29.0 / 30.0 / 38.0 |"
        );
        assert!(
            lines[5].starts_with("| gendisc | whole machine |"),
            "{table}"
        );
        // No run of the peers' series on the whole machine: that ratio is not invented.
        assert!(
            lines[6].ends_with("| 10.0 / 11.0 / 12.0 | 10.0 / 11.0 / 12.0 | – |"),
            "{table}"
        );
    }

    #[test]
    fn a_table_without_gendisc_leaves_the_ratios_out_rather_than_inventing_them() {
        let series = vec![Series {
            implementation: Implementation::ScikitLearn,
            scope: Scope::PerCore,
            timings: vec![],
        }];
        let table = render_table(&series);
        assert!(
            table.contains("| scikit-learn | per core | – | – | – | – | – |"),
            "{table}"
        );
    }

    #[test]
    fn the_order_rotates_from_round_to_round() {
        use Implementation::{Gendisc, ScikitLearn, R};
        let all = [Gendisc, R, ScikitLearn];
        assert_eq!(round_order(&all, 0), [Gendisc, R, ScikitLearn]);
        assert_eq!(round_order(&all, 1), [R, ScikitLearn, Gendisc]);
        assert_eq!(round_order(&all, 3), [Gendisc, R, ScikitLearn]);
        assert!(round_order(&[], 2).is_empty());
    }

    #[test]
    fn a_peer_on_the_whole_machine_runs_one_process_per_core_over_disjoint_parts() {
        let setup = Setup {
            plan: plan(&args(20, 1, Some(2))).unwrap(),
            xtask: PathBuf::from("xtask"),
            rscript: "Rscript".into(),
            python: "python3".into(),
            runs: PathBuf::from("runs"),
            logs: PathBuf::from("logs"),
        };
        let jobs = setup.jobs(Implementation::ScikitLearn, Scope::WholeMachine, 0);
        let parts: Vec<String> = jobs
            .iter()
            .map(|job| {
                let args: Vec<_> = job.command.get_args().collect();
                args.last().unwrap().to_string_lossy().into_owned()
            })
            .collect();
        assert_eq!(parts, ["1/2", "2/2"]);
        let gendisc = setup.jobs(Implementation::Gendisc, Scope::WholeMachine, 0);
        assert_eq!(gendisc.len(), 1);
        let args: Vec<_> = gendisc[0]
            .command
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert!(args.windows(2).any(|w| w == ["--threads", "2"]), "{args:?}");
        assert!(args.contains(&"--quick".to_string()), "{args:?}");
        assert!(!args.contains(&"--peer-series".to_string()), "{args:?}");
        let same_work = setup.jobs(Implementation::GendiscPeerSeries, Scope::PerCore, 0);
        let args: Vec<_> = same_work[0]
            .command
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert!(args.contains(&"--peer-series".to_string()), "{args:?}");
    }
}
