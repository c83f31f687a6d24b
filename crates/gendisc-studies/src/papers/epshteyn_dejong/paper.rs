//! Epshteyn & DeJong as a [`Paper`]: the 20 Newsgroups archive and WordNet 3.0.

use std::path::Path;
use std::time::Instant;

use gendisc_engine::{Result, RunnerSettings};
use gendisc_text::wordnet::WordNet;

use super::{reproduce, Settings};
use crate::paper::{Grid, Need, Paper, Ran};
use crate::papers::raina::read_collection;

/// Epshteyn & DeJong's generative prior on a max-margin classifier.
pub struct EpshteynDeJong;

impl Paper for EpshteynDeJong {
    fn id(&self) -> &'static str {
        "epshteyn-dejong"
    }

    fn citation(&self) -> &'static str {
        "Epshteyn & DeJong (2007), Generative prior knowledge for discriminative classification"
    }

    fn needs(&self) -> Vec<Need> {
        let mut needs = Need::files([gendisc_text::newsgroups::TARBALL]);
        needs.push(Need::WordNet);
        needs
    }

    fn run(&self, out: &Path, grid: Grid, runner: RunnerSettings) -> Result<Ran> {
        let start = Instant::now();
        // The same archive as Raina et al.'s study.
        let news = read_collection()?;
        let wordnet = WordNet::locate()?;
        let read = format!(
            "read {} postings and {} noun synsets (from {}) in {:.2} s",
            news.postings().len(),
            wordnet.n_synsets(),
            wordnet.dict_dir().display(),
            start.elapsed().as_secs_f64()
        );
        let results = reproduce(
            &news,
            &wordnet,
            out,
            grid.choose(Settings::paper, Settings::quick),
            runner,
        )?;
        let mut ran = Ran::one(self.id(), &results);
        ran.notes.push(read);
        Ok(ran)
    }
}
