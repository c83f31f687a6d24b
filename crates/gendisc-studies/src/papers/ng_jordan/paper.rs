//! Ng & Jordan as a [`Paper`]: fifteen UCI datasets, with inputs that can be written and read
//! back.

use std::path::Path;

use gendisc_engine::{Result, RunnerSettings};

use super::{
    export_inputs, reproduce, reproduce_from_inputs, required_files, NgJordanStudy, Settings,
};
use crate::paper::{Grid, Need, Paper, PaperInputs, Ran};

/// Ng & Jordan's comparison of naive Bayes and logistic regression by training-set size.
pub struct NgJordan;

impl Paper for NgJordan {
    fn id(&self) -> &'static str {
        "ng-jordan"
    }

    fn citation(&self) -> &'static str {
        "Ng & Jordan (2001), On discriminative vs. generative classifiers"
    }

    fn needs(&self) -> Vec<Need> {
        Need::files(required_files())
    }

    fn run(&self, out: &Path, grid: Grid, runner: RunnerSettings) -> Result<Ran> {
        let results = reproduce(out, settings(grid), runner)?;
        Ok(Ran::one(self.id(), &results))
    }

    fn inputs(&self) -> Option<&dyn PaperInputs> {
        Some(self)
    }
}

impl PaperInputs for NgJordan {
    fn export(&self, dir: &Path, grid: Grid) -> Result<Vec<String>> {
        export_inputs(dir, &NgJordanStudy::new(settings(grid))?)?;
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
