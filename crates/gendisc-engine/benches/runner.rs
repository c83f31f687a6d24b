//! The runner's own cost per cell: scheduling, result collection, line encoding, the writer
//! thread and the final canonical rewrite, measured on a study whose cells do almost nothing.
//!
//! 60,000 cells (12 datasets × 10 sizes × 500 replicates, about the size of the
//! Xue–Titterington study); divide the reported time by 60,000 for the per-cell overhead.

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use gendisc_engine::{Cell, Outcome, Progress, Runner, RunnerSettings, Schema, Study};
use rand::Rng;

/// Draws one number from the cell's stream and records six metrics, as a three-classifier,
/// two-metric study would.
struct Trivial {
    schema: Schema,
}

impl Study for Trivial {
    fn id(&self) -> &str {
        "trivial"
    }
    fn fingerprint(&self) -> String {
        "trivial v1".into()
    }
    fn schema(&self) -> &Schema {
        &self.schema
    }
    fn cells(&self) -> Vec<Cell> {
        let datasets: Vec<String> = (0..12).map(|d| format!("dataset-{d}")).collect();
        let sizes: Vec<usize> = (1..=10).map(|k| 25 * k).collect();
        Cell::grid(&datasets, &sizes, 500)
    }
    fn run_cell(&self, cell: &Cell) -> gendisc_core::Result<Outcome> {
        let u: f64 = cell.rng(1).random();
        let mut outcome = Outcome::new(&self.schema);
        for c in 0..3 {
            outcome.set(c, 0, u / (c + 1) as f64)?;
            outcome.set(c, 1, -u.ln() * cell.train_size as f64)?;
        }
        Ok(outcome)
    }
}

fn store_path() -> PathBuf {
    std::env::temp_dir().join(format!("gendisc-engine-bench-{}.jsonl", std::process::id()))
}

fn runner(store: Option<PathBuf>) -> Runner {
    Runner::new(RunnerSettings {
        store,
        progress: Progress::Never,
        ..RunnerSettings::default()
    })
    .unwrap()
}

fn bench_runner(c: &mut Criterion) {
    let study = Trivial {
        schema: Schema::new(["nb", "lr", "hybrid"], ["error-rate", "log-loss"]).unwrap(),
    };
    let path = store_path();
    let mut group = c.benchmark_group("runner-60000-cells");
    group.sample_size(10);

    group.bench_function("in-memory", |b| {
        let runner = runner(None);
        b.iter(|| black_box(runner.run(&study).unwrap()));
    });

    group.bench_function("fresh-store", |b| {
        let runner = runner(Some(path.clone()));
        b.iter_batched(
            || {
                let _ = std::fs::remove_file(&path);
            },
            |()| black_box(runner.run(&study).unwrap()),
            BatchSize::PerIteration,
        );
    });

    group.bench_function("read-back-complete-store", |b| {
        let runner = runner(Some(path.clone()));
        runner.run(&study).unwrap();
        b.iter(|| black_box(runner.run(&study).unwrap()));
    });

    group.bench_function("cells-alone", |b| {
        // The study's own work, sequentially, for comparison.
        let cells = study.cells();
        b.iter(|| {
            for cell in &cells {
                black_box(study.run_cell(cell).unwrap());
            }
        });
    });
    group.finish();
    let _ = std::fs::remove_file(&path);
}

criterion_group!(benches, bench_runner);
criterion_main!(benches);
