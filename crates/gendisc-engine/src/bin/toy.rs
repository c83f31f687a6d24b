//! Runs a small synthetic study with the result store, then writes its tables and figure.
//!
//! It exists for the crash-recovery test, which runs it, kills it with SIGKILL part-way, runs it
//! again and compares every output file byte for byte with an uninterrupted run; it is also a
//! quick way to watch the runner at work.
//!
//! ```text
//! gendisc-engine-toy OUTPUT_DIR [--cell-delay-ms N] [--threads N] [--flush-cells N] [--flush-ms N]
//! ```
//!
//! Writes `OUTPUT_DIR/results.jsonl`, `summary.csv`, `outcomes.csv` and `figure.svg`, and prints
//! one line `resumed=R ran=N partial_line=B` on standard output.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use gendisc_engine::figure::{ErrorDisplay, Figure, Marker, Panel, Series};
use gendisc_engine::{
    fingerprint, write_outcomes_csv, Cell, FlushPolicy, Outcome, Progress, Runner, RunnerSettings,
    Schema, Spread, Statistic, Study, SummaryTable,
};
use rand_chacha::rand_core::RngCore;

/// The sample mean and the sample maximum of `train_size` uniform draws, as estimators of ½
/// and 1: their absolute errors, per "dataset" (a range of the uniform distribution).
struct UniformEstimation {
    seed: u64,
    cell_delay: Duration,
    schema: Schema,
}

const DATASETS: [(&str, f64); 3] = [("unit", 1.0), ("double", 2.0), ("tenth", 0.1)];
const SIZES: [usize; 4] = [5, 10, 20, 40];
const REPLICATES: usize = 100;

impl Study for UniformEstimation {
    fn id(&self) -> &str {
        "toy-uniform-estimation"
    }

    fn fingerprint(&self) -> String {
        fingerprint(&("v1", self.seed, DATASETS, SIZES, REPLICATES))
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn cells(&self) -> Vec<Cell> {
        let names: Vec<&str> = DATASETS.iter().map(|d| d.0).collect();
        Cell::grid(&names, &SIZES, REPLICATES)
    }

    fn run_cell(&self, cell: &Cell) -> gendisc_core::Result<Outcome> {
        std::thread::sleep(self.cell_delay);
        let width = DATASETS
            .iter()
            .find(|d| d.0 == cell.dataset)
            .map_or(1.0, |d| d.1);
        let mut rng = cell.rng(self.seed);
        let (mut sum, mut max) = (0.0, 0.0_f64);
        for _ in 0..cell.train_size {
            // A uniform draw on [0, 1) from the top 53 bits.
            let x = width * (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            sum += x;
            max = max.max(x);
        }
        let mean = sum / cell.train_size as f64;
        let mut outcome = Outcome::new(&self.schema);
        outcome.set(0, 0, (mean - width / 2.0).abs() / width)?;
        outcome.set(1, 0, (max - width).abs() / width)?;
        // The maximum is biased low by width/(m + 1); only it has a bias worth recording.
        outcome.set(1, 1, (max - width) / width)?;
        Ok(outcome)
    }
}

struct Arguments {
    output: PathBuf,
    cell_delay: Duration,
    threads: Option<usize>,
    flush: FlushPolicy,
}

fn parse_arguments() -> Result<Arguments, String> {
    let mut args = std::env::args().skip(1);
    let output = args
        .next()
        .ok_or("usage: gendisc-engine-toy OUTPUT_DIR [options]")?;
    let mut parsed = Arguments {
        output: output.into(),
        cell_delay: Duration::ZERO,
        threads: None,
        flush: FlushPolicy::default(),
    };
    while let Some(flag) = args.next() {
        let value: u64 = args
            .next()
            .ok_or(format!("{flag} needs a value"))?
            .parse()
            .map_err(|e| format!("{flag}: {e}"))?;
        match flag.as_str() {
            "--cell-delay-ms" => parsed.cell_delay = Duration::from_millis(value),
            "--threads" => parsed.threads = Some(value as usize),
            "--flush-cells" => parsed.flush.cells = value as usize,
            "--flush-ms" => parsed.flush.interval = Duration::from_millis(value),
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(parsed)
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let arguments = parse_arguments()?;
    let study = UniformEstimation {
        seed: 20_250_101,
        cell_delay: arguments.cell_delay,
        schema: Schema::new(["sample-mean", "sample-max"], ["abs-error", "bias"])?,
    };
    let runner = Runner::new(RunnerSettings {
        threads: arguments.threads,
        progress: Progress::Never,
        store: Some(arguments.output.join("results.jsonl")),
        flush: arguments.flush,
        ..RunnerSettings::default()
    })?;
    let results = runner.run(&study)?;
    let report = results.report();
    println!(
        "resumed={} ran={} partial_line={}",
        report.resumed, report.ran, report.discarded_partial_line
    );

    let table = SummaryTable::from_results(&results)?;
    table.write_csv(arguments.output.join("summary.csv"))?;
    write_outcomes_csv(&results, arguments.output.join("outcomes.csv"))?;
    let mut figure = Figure::new(1, DATASETS.len()).title("Relative absolute error");
    for (dataset, _) in DATASETS {
        let mut panel = Panel::new(dataset).x_label("m").y_label("median |error|");
        for (classifier, marker) in [
            ("sample-mean", Marker::Circle),
            ("sample-max", Marker::Square),
        ] {
            let points = table.curve(
                dataset,
                classifier,
                "abs-error",
                Statistic::Median,
                Some(Spread::Quartiles),
            );
            panel = panel.series(
                Series::new(classifier, points)
                    .marker(marker)
                    .errors(ErrorDisplay::Band),
            );
        }
        figure = figure.panel(panel);
    }
    figure.write_svg(arguments.output.join("figure.svg"))?;
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
