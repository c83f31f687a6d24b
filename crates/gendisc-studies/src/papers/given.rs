//! Results made by hand, for the reports' unit tests: a study whose every outcome is given, run
//! through the engine's runner so that the results (and the summary table built from them) are
//! exactly those a report reads.

use gendisc_engine::runner::Progress;
use gendisc_engine::{Cell, Outcome, Runner, RunnerSettings, Schema, Study, StudyResults};

/// A study of given outcomes.
pub(crate) struct Given {
    schema: Schema,
    cells: Vec<(Cell, Outcome)>,
}

impl Given {
    /// No cell yet, over `classifiers` and `metrics`.
    pub(crate) fn new<'c, 'm>(
        classifiers: impl IntoIterator<Item = &'c str>,
        metrics: impl IntoIterator<Item = &'m str>,
    ) -> Self {
        Self {
            schema: Schema::new(classifiers, metrics).unwrap(),
            cells: Vec::new(),
        }
    }

    /// Adds the cell `(dataset, m, replicate)` whose `(classifier, metric)` values are
    /// `values`; the others are not measured.
    pub(crate) fn cell(
        mut self,
        dataset: &str,
        m: usize,
        replicate: usize,
        values: &[(&str, &str, f64)],
    ) -> Self {
        let mut outcome = Outcome::new(&self.schema);
        for &(classifier, metric, value) in values {
            let row = self.schema.classifier_index(classifier).unwrap();
            let column = self.schema.metric_index(metric).unwrap();
            outcome.set(row, column, value).unwrap();
        }
        self.cells.push((Cell::new(dataset, m, replicate), outcome));
        self
    }

    /// The results of running it.
    pub(crate) fn results(&self) -> StudyResults {
        Runner::new(RunnerSettings {
            progress: Progress::Never,
            ..RunnerSettings::default()
        })
        .unwrap()
        .run(self)
        .unwrap()
    }
}

impl Study for Given {
    fn id(&self) -> &str {
        "given"
    }

    fn fingerprint(&self) -> String {
        "given".into()
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.iter().map(|(cell, _)| cell.clone()).collect()
    }

    fn run_cell(&self, cell: &Cell) -> gendisc_core::Result<Outcome> {
        Ok(self
            .cells
            .iter()
            .find(|(c, _)| c == cell)
            .map(|(_, outcome)| outcome.clone())
            .expect("every cell is given"))
    }
}
