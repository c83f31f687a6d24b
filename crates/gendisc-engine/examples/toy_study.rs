//! A complete toy study: definition, resumable run, CSV tables and an SVG figure.
//!
//! Two classes on the real line, `x | y ~ N(±μ, 1)` with equal priors, and two rules: the
//! *plug-in* rule, which estimates both class means from a balanced training set of `m` rows
//! and thresholds at their midpoint, and the *fixed* rule `sign(x)`, which learns nothing. The
//! fixed rule is Bayes-optimal here, with error `Φ(−μ)`; the plug-in rule approaches it as `m`
//! grows. Each cell draws its training and test rows from its own stream, `Cell::rng`.
//!
//! ```text
//! cargo run -p gendisc-engine --example toy_study [OUTPUT_DIR]
//! ```
//!
//! writes `results.jsonl` (the resumable store: interrupt the run and start it again),
//! `summary.csv`, `outcomes.csv` and `error-rate.svg` to OUTPUT_DIR (default: a directory under
//! the system's temporary directory).

use std::path::PathBuf;

use gendisc_engine::figure::{
    ErrorDisplay, Figure, LineStyle, Marker, Panel, ReferenceLine, Series,
};
use gendisc_engine::{
    fingerprint, write_outcomes_csv, Cell, OnMismatch, Outcome, Runner, RunnerSettings, Schema,
    Spread, Statistic, Study, SummaryTable,
};
use gendisc_metrics::distributions::standard_normal_cdf;
use rand_distr::{Distribution, StandardNormal};
use serde::Serialize;

/// Everything that decides the outcomes, and so the fingerprint.
#[derive(Serialize)]
struct Configuration {
    /// Bumped whenever `run_cell` computes something different.
    version: u32,
    seed: u64,
    /// `(dataset name, μ)`.
    datasets: Vec<(String, f64)>,
    train_sizes: Vec<usize>,
    replicates: usize,
    test_size: usize,
}

struct PlugInVersusFixed {
    config: Configuration,
    schema: Schema,
}

/// Positions in the schema.
const PLUG_IN: usize = 0;
const FIXED: usize = 1;
const ERROR_RATE: usize = 0;
const THRESHOLD: usize = 1;

impl PlugInVersusFixed {
    fn new(config: Configuration) -> gendisc_core::Result<Self> {
        Ok(Self {
            config,
            schema: Schema::new(["plug-in", "fixed"], ["error-rate", "threshold"])?,
        })
    }

    fn separation(&self, dataset: &str) -> gendisc_core::Result<f64> {
        self.config
            .datasets
            .iter()
            .find(|(name, _)| name == dataset)
            .map(|&(_, mu)| mu)
            .ok_or_else(|| {
                gendisc_core::Error::invalid_parameter("dataset", format!("unknown `{dataset}`"))
            })
    }
}

impl Study for PlugInVersusFixed {
    fn id(&self) -> &str {
        "toy-plug-in-versus-fixed"
    }

    fn fingerprint(&self) -> String {
        fingerprint(&self.config)
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn cells(&self) -> Vec<Cell> {
        let names: Vec<&str> = self
            .config
            .datasets
            .iter()
            .map(|(n, _)| n.as_str())
            .collect();
        Cell::grid(&names, &self.config.train_sizes, self.config.replicates)
    }

    fn run_cell(&self, cell: &Cell) -> gendisc_core::Result<Outcome> {
        let mu = self.separation(&cell.dataset)?;
        let mut rng = cell.rng(self.config.seed);
        // Training: ⌈m/2⌉ rows of class 0 (mean −μ), ⌊m/2⌋ of class 1 (mean +μ).
        let mut class_mean = |rows: usize, centre: f64| {
            let total: f64 = (0..rows).map(|_| centre + normal(&mut rng)).sum();
            total / rows as f64
        };
        let (m0, m1) = (cell.train_size.div_ceil(2), cell.train_size / 2);
        let threshold = 0.5 * (class_mean(m0, -mu) + class_mean(m1, mu));
        // Test: fresh rows with equal priors.
        let mut plug_in_errors = 0;
        let mut fixed_errors = 0;
        for i in 0..self.config.test_size {
            let class_one = i % 2 == 1;
            let x = if class_one { mu } else { -mu } + normal(&mut rng);
            plug_in_errors += usize::from((x > threshold) != class_one);
            fixed_errors += usize::from((x > 0.0) != class_one);
        }
        let n_test = self.config.test_size as f64;
        let mut outcome = Outcome::new(&self.schema);
        outcome.set(PLUG_IN, ERROR_RATE, plug_in_errors as f64 / n_test)?;
        outcome.set(PLUG_IN, THRESHOLD, threshold)?;
        outcome.set(FIXED, ERROR_RATE, fixed_errors as f64 / n_test)?;
        // The fixed rule has no learnt threshold: that entry stays absent.
        Ok(outcome)
    }
}

/// One standard normal draw.
fn normal(rng: &mut impl rand::Rng) -> f64 {
    StandardNormal.sample(rng)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let output = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("gendisc-toy-study"));
    let study = PlugInVersusFixed::new(Configuration {
        version: 1,
        seed: 2001,
        datasets: vec![("close".into(), 0.5), ("apart".into(), 1.5)],
        train_sizes: vec![2, 4, 8, 16, 32, 64],
        replicates: 200,
        test_size: 2000,
    })?;

    let runner = Runner::new(RunnerSettings {
        store: Some(output.join("results.jsonl")),
        // An example may be edited between runs; a stale store is then simply replaced.
        on_mismatch: OnMismatch::StartAfresh,
        ..RunnerSettings::default()
    })?;
    let results = runner.run(&study)?;
    let report = results.report();
    println!(
        "{} cells: {} read back from the store, {} run, in {:.2?}",
        report.cells, report.resumed, report.ran, report.elapsed
    );

    let table = SummaryTable::from_results(&results)?;
    table.write_csv(output.join("summary.csv"))?;
    write_outcomes_csv(&results, output.join("outcomes.csv"))?;

    let mut figure = Figure::new(1, study.config.datasets.len()).title("Plug-in versus fixed rule");
    for (dataset, mu) in &study.config.datasets {
        let curve = |classifier| {
            table.curve(
                dataset,
                classifier,
                "error-rate",
                Statistic::Median,
                Some(Spread::Quartiles),
            )
        };
        let bayes_error = standard_normal_cdf(-mu)?;
        figure = figure.panel(
            Panel::new(format!("μ = {mu}"))
                .x_label("training size m")
                .y_label("test error (median, quartiles)")
                .x_scale(gendisc_engine::figure::Scale::Log)
                .series(
                    Series::new("plug-in", curve("plug-in"))
                        .marker(Marker::Circle)
                        .errors(ErrorDisplay::Band),
                )
                .series(Series::new("fixed sign(x)", curve("fixed")).line(LineStyle::Dashed))
                .reference_line(ReferenceLine::new(bayes_error).label("Bayes error Φ(−μ)")),
        );
        let large = table
            .get(dataset, 64, "plug-in", "error-rate")
            .map_or(f64::NAN, |s| s.median);
        println!("{dataset}: Bayes error {bayes_error:.4}, plug-in median at m = 64: {large:.4}");
    }
    figure.write_svg(output.join("error-rate.svg"))?;
    println!("tables and figure written to {}", output.display());
    Ok(())
}
