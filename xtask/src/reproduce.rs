//! `cargo xtask reproduce`: the registry of studies and their dispatch.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use gendisc_studies::papers::{
    bouchard_triggs, epshteyn_dejong, ng_jordan, raina, xue_titterington,
};
use gendisc_studies::{OnMismatch, RunnerSettings, StudyResults};
use gendisc_text::wordnet::WordNet;

/// Arguments of `cargo xtask reproduce`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Studies to run (default: every study whose code and data are present). One of:
    /// xue-titterington, ng-jordan, raina, bouchard-triggs, epshteyn-dejong.
    studies: Vec<String>,
    /// Run the reduced grid used by continuous integration.
    #[arg(long)]
    quick: bool,
    /// Directory under which each study writes `<study>/`.
    #[arg(long, default_value = "results")]
    out: PathBuf,
}

/// What a study needs to run and what it writes.
struct Study {
    name: &'static str,
    paper: &'static str,
    run: Option<fn(&Path, bool) -> Result<()>>,
    /// The data files it reads, relative to the data directory (none for simulations).
    data: fn() -> Vec<&'static str>,
    /// What else it needs that is missing, if anything (e.g. an installed dictionary).
    other_needs: fn() -> Option<String>,
}

fn needs_nothing_else() -> Option<String> {
    None
}

fn no_data() -> Vec<&'static str> {
    Vec::new()
}

/// The studies' names, in the order `reproduce` runs them.
pub const STUDY_NAMES: [&str; 5] = [
    STUDIES[0].name,
    STUDIES[1].name,
    STUDIES[2].name,
    STUDIES[3].name,
    STUDIES[4].name,
];

/// Every study of the project, in the order `reproduce` runs them.
const STUDIES: [Study; 5] = [
    Study {
        name: "xue-titterington",
        paper: "Xue & Titterington, Interpretation of hybrid generative/discriminative algorithms",
        run: Some(run_xue_titterington),
        data: no_data,
        other_needs: needs_nothing_else,
    },
    Study {
        name: "ng-jordan",
        paper: "Ng & Jordan (2001), On discriminative vs. generative classifiers",
        run: Some(run_ng_jordan),
        data: ng_jordan::required_files,
        other_needs: needs_nothing_else,
    },
    Study {
        name: "raina",
        paper: "Raina, Shen, Ng & McCallum (2003), Classification with hybrid generative/discriminative models",
        run: Some(run_raina),
        data: raina_files,
        other_needs: needs_nothing_else,
    },
    Study {
        name: "bouchard-triggs",
        paper: "Bouchard & Triggs (2004), The trade-off between generative and discriminative classifiers",
        run: Some(run_bouchard_triggs),
        // Figure 1 is simulated; without Statlog, Table 1 is skipped and says why.
        data: no_data,
        other_needs: needs_nothing_else,
    },
    Study {
        name: "epshteyn-dejong",
        paper: "Epshteyn & DeJong (2007), Generative prior knowledge for discriminative classification",
        run: Some(run_epshteyn_dejong),
        data: raina_files,
        other_needs: wordnet_missing,
    },
];

/// Runs the named studies, or every available one when none is named.
pub fn run(args: &Args) -> Result<()> {
    let selected: Vec<&Study> = if args.studies.is_empty() {
        STUDIES.iter().collect()
    } else {
        args.studies
            .iter()
            .map(|name| {
                STUDIES.iter().find(|s| s.name == name).with_context(|| {
                    let names: Vec<_> = STUDIES.iter().map(|s| s.name).collect();
                    format!(
                        "unknown study `{name}`; the studies are {}",
                        names.join(", ")
                    )
                })
            })
            .collect::<Result<_>>()?
    };

    let mut missing = Vec::new();
    let mut without_data = Vec::new();
    for study in selected {
        let Some(run_study) = study.run else {
            eprintln!("{}: not implemented yet ({})", study.name, study.paper);
            missing.push(study.name);
            continue;
        };
        if let Some(problem) = missing_data(study) {
            // Named explicitly, the study cannot run: that is an error. Run as one of all the
            // studies, it is skipped and the others run.
            eprintln!("{}: skipped: {problem}", study.name);
            without_data.push(format!("{}: {problem}", study.name));
            continue;
        }
        let out = args.out.join(study.name);
        fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
        eprintln!("{}: {}", study.name, study.paper);
        run_study(&out, args.quick).with_context(|| format!("study {} failed", study.name))?;
        eprintln!("{}: results in {}", study.name, out.display());
    }
    write_claims_table(&args.out)?;
    if !args.studies.is_empty() && !missing.is_empty() {
        bail!("not implemented yet: {}", missing.join(", "));
    }
    if !args.studies.is_empty() && !without_data.is_empty() {
        bail!("data missing:\n{}", without_data.join("\n"));
    }
    Ok(())
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

/// What is missing of `study`'s data files, if anything: the loaders' message for the first
/// missing file (it names the file, where it was looked for, and `cargo xtask fetch-data`),
/// with the count when several are missing.
fn missing_data(study: &Study) -> Option<String> {
    if let Some(problem) = (study.other_needs)() {
        return Some(problem);
    }
    let files = (study.data)();
    let missing: Vec<String> = files
        .iter()
        .filter_map(|file| gendisc_data::loaders::dataset_path(file).err())
        .map(|error| error.to_string())
        .collect();
    match missing.len() {
        0 => None,
        1 => missing.into_iter().next(),
        n => Some(format!(
            "{n} of its {} data files are missing, the first: {}",
            files.len(),
            missing[0]
        )),
    }
}

fn raina_files() -> Vec<&'static str> {
    vec![gendisc_text::newsgroups::TARBALL]
}

/// The runner settings every reproduction uses: a store written by another configuration (say,
/// a full run before a quick one) is replaced, so every output is regenerated from the cells of
/// this configuration.
fn runner_settings() -> RunnerSettings {
    RunnerSettings {
        on_mismatch: OnMismatch::StartAfresh,
        ..RunnerSettings::default()
    }
}

/// Runs a study's cells with [`runner_settings`] and says what was run.
fn run_cells(
    name: &str,
    reproduce: impl FnOnce(RunnerSettings) -> gendisc_studies::Result<StudyResults>,
) -> Result<()> {
    let start = std::time::Instant::now();
    let results = reproduce(runner_settings())?;
    let report = results.report();
    if report.discarded_mismatched_store {
        eprintln!("{name}: the previous results had another configuration and were replaced");
    }
    eprintln!(
        "{name}: {} cells ({} resumed, {} run) in {:.2} s",
        report.cells,
        report.resumed,
        report.ran,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_xue_titterington(out: &Path, quick: bool) -> Result<()> {
    let settings = if quick {
        xue_titterington::Settings::quick()
    } else {
        xue_titterington::Settings::paper()
    };
    run_cells("xue-titterington", |runner| {
        xue_titterington::reproduce(out, settings, runner)
    })
}

fn run_ng_jordan(out: &Path, quick: bool) -> Result<()> {
    let settings = if quick {
        ng_jordan::Settings::quick()
    } else {
        ng_jordan::Settings::paper()
    };
    run_cells("ng-jordan", |runner| {
        ng_jordan::reproduce(out, settings, runner)
    })
}

fn run_raina(out: &Path, quick: bool) -> Result<()> {
    let settings = if quick {
        raina::Settings::quick()
    } else {
        raina::Settings::paper()
    };
    let start = std::time::Instant::now();
    let news = raina::read_collection().context("raina needs the 20 Newsgroups archive")?;
    eprintln!(
        "raina: read {} postings in {:.2} s",
        news.postings().len(),
        start.elapsed().as_secs_f64()
    );
    run_cells("raina", |runner| {
        raina::reproduce(&news, out, settings, runner)
    })
}

/// WordNet 3.0's noun files, when they cannot be found (the message says where they were
/// looked for and how to install them).
fn wordnet_missing() -> Option<String> {
    gendisc_text::wordnet::find_dict_dir()
        .err()
        .map(|e| e.to_string())
}

fn run_epshteyn_dejong(out: &Path, quick: bool) -> Result<()> {
    let settings = if quick {
        epshteyn_dejong::Settings::quick()
    } else {
        epshteyn_dejong::Settings::paper()
    };
    let start = std::time::Instant::now();
    // The same archive as Raina et al.'s study.
    let news =
        raina::read_collection().context("epshteyn-dejong needs the 20 Newsgroups archive")?;
    let wordnet = WordNet::locate().context("epshteyn-dejong needs WordNet 3.0")?;
    eprintln!(
        "epshteyn-dejong: read {} postings and {} noun synsets in {:.2} s",
        news.postings().len(),
        wordnet.n_synsets(),
        start.elapsed().as_secs_f64()
    );
    run_cells("epshteyn-dejong", |runner| {
        epshteyn_dejong::reproduce(&news, &wordnet, out, settings, runner)
    })
}

fn run_bouchard_triggs(out: &Path, quick: bool) -> Result<()> {
    let settings = if quick {
        bouchard_triggs::Settings::quick()
    } else {
        bouchard_triggs::Settings::paper()
    };
    let start = std::time::Instant::now();
    let reproduction = bouchard_triggs::reproduce(out, settings, runner_settings())?;
    let figure1 = reproduction.figure1.report();
    eprintln!(
        "bouchard-triggs: Figure 1, {} cells ({} resumed, {} run)",
        figure1.cells, figure1.resumed, figure1.ran
    );
    match &reproduction.table1 {
        Ok(results) => {
            let table1 = results.report();
            eprintln!(
                "bouchard-triggs: Table 1, {} cells ({} resumed, {} run)",
                table1.cells, table1.resumed, table1.ran
            );
        }
        Err(reason) => eprintln!("bouchard-triggs: Table 1 skipped: {reason}"),
    }
    eprintln!(
        "bouchard-triggs: done in {:.2} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
