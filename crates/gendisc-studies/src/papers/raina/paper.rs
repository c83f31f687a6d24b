//! Raina, Shen, Ng & McCallum as a [`Paper`]: the 20 Newsgroups archive.

use std::path::Path;
use std::time::Instant;

use gendisc_engine::{Result, RunnerSettings};

use super::{read_collection, reproduce, Settings};
use crate::paper::{Grid, Need, Paper, Ran};

/// Raina et al.'s hybrid generative/discriminative text classifiers.
pub struct Raina;

impl Paper for Raina {
    fn id(&self) -> &'static str {
        "raina"
    }

    fn citation(&self) -> &'static str {
        "Raina, Shen, Ng & McCallum (2003), Classification with hybrid generative/discriminative models"
    }

    fn needs(&self) -> Vec<Need> {
        Need::files([gendisc_text::newsgroups::TARBALL])
    }

    fn run(&self, out: &Path, grid: Grid, runner: RunnerSettings) -> Result<Ran> {
        let start = Instant::now();
        let news = read_collection()?;
        let read = format!(
            "read {} postings in {:.2} s",
            news.postings().len(),
            start.elapsed().as_secs_f64()
        );
        let results = reproduce(
            &news,
            out,
            grid.choose(Settings::paper, Settings::quick),
            runner,
        )?;
        let mut ran = Ran::one(self.id(), &results);
        ran.notes.push(read);
        Ok(ran)
    }
}
