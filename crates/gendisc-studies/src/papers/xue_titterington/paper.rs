//! Xue & Titterington as a [`Paper`]: simulated data only, with inputs that can be written and
//! read back.

use std::path::Path;

use gendisc_engine::{Result, RunnerSettings};

use gendisc_data::generators::XueTitteringtonPreset;

use super::{export_inputs, reproduce, reproduce_from_inputs, reproduce_peer_series, Settings};
use crate::paper::{Grid, Paper, PaperInputs, Peers, Ran};

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

    /// R's `e1071::naiveBayes` and `glm.fit`, and scikit-learn, on the same replicates.
    fn peers(&self) -> Option<Peers> {
        Some(Peers {
            replicates: &REPLICATES,
            cells_per_replicate: XueTitteringtonPreset::ALL.len() * Settings::paper().sizes.len(),
            r_script: "xue_titterington.R",
            r_packages: &["e1071"],
            scikit_learn_script: "xue_titterington_sklearn.py",
            compare_script: "compare.py",
        })
    }

    /// Naive Bayes and glm's logistic regression alone.
    fn run_peer_series(
        &self,
        inputs: &Path,
        out: &Path,
        grid: Grid,
        runner: RunnerSettings,
    ) -> Result<Ran> {
        let results = reproduce_peer_series(out, inputs, settings(grid), runner)?;
        Ok(Ran::one(self.id(), &results))
    }
}

/// The replicates per dataset and size of each grid's run.
const REPLICATES: [(usize, Grid); 2] = [(20, Grid::Quick), (400, Grid::Paper)];

fn settings(grid: Grid) -> Settings {
    grid.choose(Settings::paper, Settings::quick)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peers_read_the_replicates_of_each_grid() {
        let peers = XueTitterington.peers().unwrap();
        for grid in [Grid::Quick, Grid::Paper] {
            assert_eq!(peers.grid(settings(grid).replicates), Some(grid));
        }
        assert_eq!(peers.grid(7), None);
        assert_eq!(peers.cells_per_replicate, 12 * 13);
    }
}
