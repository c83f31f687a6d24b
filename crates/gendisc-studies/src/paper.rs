//! The interface every reproduced paper implements, and what a run of one hands back.
//!
//! A paper is one implementation of [`Paper`] in its own module under [`crate::papers`], listed
//! once in [`crate::papers::registry`]; `cargo xtask reproduce` iterates over that registry and
//! knows nothing else of any paper. A paper whose datasets and training rows can be written to
//! files and run from them again (so that another implementation can fit the same rows) also
//! implements [`PaperInputs`].

use std::path::Path;

use gendisc_engine::{Result, RunReport, RunnerSettings, StudyResults};

/// The size of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Grid {
    /// The paper's own experimental settings.
    #[default]
    Paper,
    /// The reduced grid of continuous integration: every output, few cells.
    Quick,
}

impl Grid {
    /// `paper()` or `quick()`, as the grid is: a paper's settings of this size.
    pub fn choose<T>(self, paper: impl FnOnce() -> T, quick: impl FnOnce() -> T) -> T {
        match self {
            Grid::Paper => paper(),
            Grid::Quick => quick(),
        }
    }
}

/// Something a paper's study reads that is not part of the code.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Need {
    /// A data file, by its path under the data directory (as the data manifest names it).
    File(String),
    /// WordNet 3.0's noun files, wherever [`gendisc_text::wordnet::find_dict_dir`] finds them.
    WordNet,
}

impl Need {
    /// Why it cannot be read, if it cannot: the loaders' message, which says where it was
    /// looked for.
    pub fn missing(&self) -> Option<String> {
        match self {
            Need::File(path) => gendisc_data::loaders::dataset_path(path)
                .err()
                .map(|e| e.to_string()),
            Need::WordNet => gendisc_text::wordnet::find_dict_dir()
                .err()
                .map(|e| e.to_string()),
        }
    }

    /// Each file of `paths` (relative to the data directory).
    pub fn files<S: Into<String>>(paths: impl IntoIterator<Item = S>) -> Vec<Need> {
        paths.into_iter().map(|p| Need::File(p.into())).collect()
    }
}

/// What a run of a paper did: the cells of each of its studies (a paper with a figure and a
/// table of separate designs has two), the part it left out and why, and what it has to say
/// about its run (what it read, and how long that took).
#[derive(Debug, Clone, Default)]
pub struct Ran {
    /// Each study that ran, by the name of its part of the paper, with the runner's report.
    pub parts: Vec<(String, RunReport)>,
    /// A part of the paper that did not run, and why (Bouchard–Triggs' Table 1 without its
    /// data).
    pub left_out: Option<String>,
    /// Lines for whoever ran it, in the order they happened.
    pub notes: Vec<String>,
}

impl Ran {
    /// A paper of one study, `part`, with its results.
    pub fn one(part: &str, results: &StudyResults) -> Self {
        Ran {
            parts: vec![(part.to_owned(), results.report().clone())],
            ..Ran::default()
        }
    }

    /// The cells of every part.
    pub fn cells(&self) -> usize {
        self.parts.iter().map(|(_, r)| r.cells).sum()
    }

    /// The cells read back from an earlier run's store.
    pub fn resumed(&self) -> usize {
        self.parts.iter().map(|(_, r)| r.resumed).sum()
    }
}

/// A reproduced paper: what it is, what it reads, and how it runs.
pub trait Paper: Sync {
    /// Its name on the command line and the directory of its outputs (`results/<id>/`).
    fn id(&self) -> &'static str;

    /// The paper, as the run announces it: authors, year, title.
    fn citation(&self) -> &'static str;

    /// What it cannot run without.
    fn needs(&self) -> Vec<Need> {
        Vec::new()
    }

    /// What it reads when present and runs without (fetched like the needs, but its absence
    /// skips only the part that reads it).
    fn wants(&self) -> Vec<Need> {
        Vec::new()
    }

    /// Runs it on `grid` into `out` — resuming from the result stores there, as `runner` says
    /// — and writes every output: tables, figures, `REPORT.md`, `verdicts.csv`.
    fn run(&self, out: &Path, grid: Grid, runner: RunnerSettings) -> Result<Ran>;

    /// Its datasets and training rows as files, when it can write and read them.
    fn inputs(&self) -> Option<&dyn PaperInputs> {
        None
    }
}

/// A paper whose datasets and training rows can be written to files, and run from them.
pub trait PaperInputs {
    /// Writes the datasets and training rows of a run on `grid` into `dir`; returns what it
    /// has to say about them.
    fn export(&self, dir: &Path, grid: Grid) -> Result<Vec<String>>;

    /// Runs the paper, as [`Paper::run`], on the datasets and training rows read from
    /// `inputs`.
    fn run_on(&self, inputs: &Path, out: &Path, grid: Grid, runner: RunnerSettings) -> Result<Ran>;

    /// Other implementations of its estimators that fit the same exported rows, to be timed
    /// against it (`cargo xtask bench-peers`); none by default.
    fn peers(&self) -> Option<Peers> {
        None
    }

    /// Runs only the series its [`peers`](Self::peers) compute, on the datasets and training rows
    /// read from `inputs`, writing the result store and its per-replicate CSV but no report: the
    /// same work as the peers', for timing. A paper without peers has nothing to run.
    fn run_peer_series(
        &self,
        inputs: &Path,
        out: &Path,
        grid: Grid,
        runner: RunnerSettings,
    ) -> Result<Ran> {
        let _ = (inputs, out, grid, runner);
        Err(gendisc_core::Error::invalid_parameter(
            "peer series",
            "this paper names no peers, so it has no series of theirs to run",
        )
        .into())
    }
}

/// Other implementations of a paper's estimators, run on its exported inputs replicate for
/// replicate, so that their timings are of the same computation (`cargo xtask bench-peers`).
///
/// Each peer is a script of `scripts/peers/`, called as `SCRIPT INPUTS OUT.csv REPLICATES
/// PART/PARTS` (part `PART` of `PARTS` disjoint shares of the replicates), which writes its
/// per-replicate results; the comparison script, called as `COMPARE GENDISC_CELLS.csv
/// PEER.csv`, joins them with the paper's `cells.csv` and prints Markdown table rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Peers {
    /// The replicate counts (per dataset and size) a run on exported inputs reads, each with
    /// the grid of that run.
    pub replicates: &'static [(usize, Grid)],
    /// Cells per replicate (datasets × sizes), for the record.
    pub cells_per_replicate: usize,
    /// The R peer's script.
    pub r_script: &'static str,
    /// The R packages it loads (checked, with their versions, before it runs).
    pub r_packages: &'static [&'static str],
    /// The scikit-learn peer's script.
    pub scikit_learn_script: &'static str,
    /// The script that joins a peer's results with the paper's.
    pub compare_script: &'static str,
}

impl Peers {
    /// The grid of a run that reads `replicates` replicates, if there is one.
    pub fn grid(&self, replicates: usize) -> Option<Grid> {
        self.replicates
            .iter()
            .find(|(count, _)| *count == replicates)
            .map(|&(_, grid)| grid)
    }
}
#[cfg(test)]
mod worked_example;
