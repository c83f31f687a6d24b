//! `cargo xtask reproduce`: the registry of studies and their dispatch.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use gendisc_studies::papers::{bouchard_triggs, xue_titterington};
use gendisc_studies::{OnMismatch, RunnerSettings};

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
}

/// Every study of the project, in the order `reproduce` runs them.
const STUDIES: [Study; 5] = [
    Study {
        name: "xue-titterington",
        paper: "Xue & Titterington, Interpretation of hybrid generative/discriminative algorithms",
        run: Some(run_xue_titterington),
    },
    Study {
        name: "ng-jordan",
        paper: "Ng & Jordan (2001), On discriminative vs. generative classifiers",
        run: None,
    },
    Study {
        name: "raina",
        paper: "Raina, Shen, Ng & McCallum (2003), Classification with hybrid generative/discriminative models",
        run: None,
    },
    Study {
        name: "bouchard-triggs",
        paper: "Bouchard & Triggs (2004), The trade-off between generative and discriminative classifiers",
        run: Some(run_bouchard_triggs),
    },
    Study {
        name: "epshteyn-dejong",
        paper: "Epshteyn & DeJong, Generative prior knowledge for discriminative classification",
        run: None,
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
    for study in selected {
        let Some(run_study) = study.run else {
            eprintln!("{}: not implemented yet ({})", study.name, study.paper);
            missing.push(study.name);
            continue;
        };
        let out = args.out.join(study.name);
        fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
        eprintln!("{}: {}", study.name, study.paper);
        run_study(&out, args.quick).with_context(|| format!("study {} failed", study.name))?;
        eprintln!("{}: results in {}", study.name, out.display());
    }
    if !args.studies.is_empty() && !missing.is_empty() {
        bail!("not implemented yet: {}", missing.join(", "));
    }
    Ok(())
}

fn run_xue_titterington(out: &Path, quick: bool) -> Result<()> {
    let settings = if quick {
        xue_titterington::Settings::quick()
    } else {
        xue_titterington::Settings::paper()
    };
    let start = std::time::Instant::now();
    // A store written by another configuration (say, a full run before a quick one) is
    // replaced: every output is regenerated from the cells of this configuration.
    let runner = RunnerSettings {
        on_mismatch: OnMismatch::StartAfresh,
        ..RunnerSettings::default()
    };
    let results = xue_titterington::reproduce(out, settings, runner)?;
    let report = results.report();
    if report.discarded_mismatched_store {
        eprintln!(
            "xue-titterington: the previous results had another configuration and were replaced"
        );
    }
    eprintln!(
        "xue-titterington: {} cells ({} resumed, {} run) in {:.2} s",
        report.cells,
        report.resumed,
        report.ran,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_bouchard_triggs(out: &Path, quick: bool) -> Result<()> {
    let settings = if quick {
        bouchard_triggs::Settings::quick()
    } else {
        bouchard_triggs::Settings::paper()
    };
    let start = std::time::Instant::now();
    // As for xue-titterington: results of another configuration are replaced.
    let runner = RunnerSettings {
        on_mismatch: OnMismatch::StartAfresh,
        ..RunnerSettings::default()
    };
    let reproduction = bouchard_triggs::reproduce(out, settings, runner)?;
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
