//! Xue & Titterington as a [`Paper`]: simulated data only, with inputs that can be written and
//! read back.

use std::path::Path;

use gendisc_engine::{Result, RunnerSettings};

use super::{export_inputs, reproduce, reproduce_from_inputs, Settings};
use crate::paper::{Grid, Paper, PaperInputs, Ran};

/// Xue & Titterington's study of hybrid generative/discriminative algorithms.
pub struct XueTitterington;

impl Paper for XueTitterington {
    fn id(&self) -> &'static str {
        "xue-titterington"
    }

    fn citation(&self) -> &'static str {
        "Xue & Titterington, Interpretation of hybrid generative/discriminative algorithms"
    }

    fn run(&self, out: &Path, grid: Grid, runner: RunnerSettings) -> Result<Ran> {
        let results = reproduce(out, settings(grid), runner)?;
        Ok(Ran::one(self.id(), &results))
    }

    fn inputs(&self) -> Option<&dyn PaperInputs> {
        Some(self)
    }
}

impl PaperInputs for XueTitterington {
    fn export(&self, dir: &Path, grid: Grid) -> Result<Vec<String>> {
        export_inputs(dir, &settings(grid))?;
        Ok(Vec::new())
    }

    fn run_on(&self, inputs: &Path, out: &Path, grid: Grid, runner: RunnerSettings) -> Result<Ran> {
        let results = reproduce_from_inputs(out, inputs, settings(grid), runner)?;
        Ok(Ran::one(self.id(), &results))
    }
}

fn settings(grid: Grid) -> Settings {
    grid.choose(Settings::paper, Settings::quick)
}
