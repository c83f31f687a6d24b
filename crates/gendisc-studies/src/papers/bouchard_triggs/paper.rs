//! Bouchard & Triggs as a [`Paper`]: Figure 1 simulated, Table 1 on Statlog and UCI files
//! (skipped, saying why, without them), with inputs that can be written and read back.

use std::path::Path;

use gendisc_engine::{Result, RunnerSettings};

use super::{
    export_figure1_inputs, export_table1_inputs, reproduce, reproduce_from_inputs, Figure1Study,
    Reproduction, Settings, Statlog, Table1Study,
};
use crate::paper::{Grid, Need, Paper, PaperInputs, Ran};

/// Bouchard & Triggs' generative-discriminative trade-off.
pub struct BouchardTriggs;

impl Paper for BouchardTriggs {
    fn id(&self) -> &'static str {
        "bouchard-triggs"
    }

    fn citation(&self) -> &'static str {
        "Bouchard & Triggs (2004), The trade-off between generative and discriminative classifiers"
    }

    /// Figure 1 is simulated; without these files Table 1 is skipped and says why.
    fn wants(&self) -> Vec<Need> {
        Need::files(Statlog::ALL.iter().flat_map(|d| d.files()))
    }

    fn run(&self, out: &Path, grid: Grid, runner: RunnerSettings) -> Result<Ran> {
        Ok(ran(reproduce(out, settings(grid), runner)?))
    }

    fn inputs(&self) -> Option<&dyn PaperInputs> {
        Some(self)
    }
}

impl PaperInputs for BouchardTriggs {
    fn export(&self, dir: &Path, grid: Grid) -> Result<Vec<String>> {
        let settings = settings(grid);
        export_figure1_inputs(&dir.join("figure1"), &Figure1Study::new(settings.clone())?)?;
        Ok(match Table1Study::new(settings) {
            Ok(table1) => {
                export_table1_inputs(&dir.join("table1"), &table1)?;
                Vec::new()
            }
            Err(reason) => vec![format!("Table 1's inputs not written: {reason}")],
        })
    }

    fn run_on(&self, inputs: &Path, out: &Path, grid: Grid, runner: RunnerSettings) -> Result<Ran> {
        Ok(ran(reproduce_from_inputs(
            out,
            inputs,
            settings(grid),
            runner,
        )?))
    }
}

fn settings(grid: Grid) -> Settings {
    grid.choose(Settings::paper, Settings::quick)
}

/// The two parts of a reproduction, or Figure 1 alone and why Table 1 did not run.
fn ran(reproduction: Reproduction) -> Ran {
    let mut ran = Ran {
        parts: vec![("Figure 1".to_owned(), reproduction.figure1.report().clone())],
        ..Ran::default()
    };
    match &reproduction.table1 {
        Ok(results) => ran
            .parts
            .push(("Table 1".to_owned(), results.report().clone())),
        Err(reason) => ran.left_out = Some(format!("Table 1 skipped: {reason}")),
    }
    ran
}
