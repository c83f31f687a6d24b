//! Toy studies and a temporary directory shared by the integration tests.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use gendisc_core::Error;
use gendisc_engine::{fingerprint, Cell, Outcome, Schema, Study};
use rand::Rng;

/// A directory under the system's temporary directory, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "gendisc-engine-{name}-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Self(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Three "classifiers" estimating the mean of `train_size` standard normal draws (sample mean,
/// median, a shrunk mean) and their absolute and squared errors; the median has no squared
/// error (an absent entry). The values come from long floating-point sums, so any change in
/// stream or order would show in the bits.
pub struct ToyStudy {
    pub seed: u64,
    pub datasets: Vec<String>,
    pub sizes: Vec<usize>,
    pub replicates: usize,
    pub schema: Schema,
    /// Calls to `run_cell`.
    pub calls: AtomicUsize,
    /// Fail every call after this many successful ones.
    pub fail_after: Option<usize>,
    /// Cells that always fail.
    pub failing_cells: HashSet<Cell>,
}

impl ToyStudy {
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            datasets: vec!["alpha".into(), "beta".into(), "gamma".into()],
            sizes: vec![5, 10, 20, 40],
            replicates: 25,
            schema: Schema::new(["mean", "median", "shrunk"], ["abs-error", "sq-error"]).unwrap(),
            calls: AtomicUsize::new(0),
            fail_after: None,
            failing_cells: HashSet::new(),
        }
    }

    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }

    /// The outcome of a cell computed directly, without a runner.
    pub fn expected(&self, cell: &Cell) -> Outcome {
        compute(self.seed, &self.schema, cell)
    }
}

fn compute(seed: u64, schema: &Schema, cell: &Cell) -> Outcome {
    let mut rng = cell.rng(seed);
    let shift = match cell.dataset.as_str() {
        "alpha" => 0.0,
        "beta" => 1.0,
        _ => -3.0,
    };
    let mut draws: Vec<f64> = (0..cell.train_size)
        .map(|_| {
            // Box–Muller.
            let (u, v): (f64, f64) = (rng.random(), rng.random());
            shift + (-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        })
        .collect();
    let mean = draws.iter().sum::<f64>() / draws.len() as f64;
    draws.sort_by(f64::total_cmp);
    let n = draws.len();
    let median = if n % 2 == 1 {
        draws[n / 2]
    } else {
        0.5 * (draws[n / 2 - 1] + draws[n / 2])
    };
    let shrunk = mean * n as f64 / (n as f64 + 1.0);
    let mut outcome = Outcome::new(schema);
    for (c, estimate) in [mean, median, shrunk].into_iter().enumerate() {
        let error = estimate - shift;
        outcome.set(c, 0, error.abs()).unwrap();
        if c != 1 {
            outcome.set(c, 1, error * error).unwrap();
        }
    }
    outcome
}

impl Study for ToyStudy {
    fn id(&self) -> &str {
        "toy"
    }

    fn fingerprint(&self) -> String {
        fingerprint(&(
            "toy v1",
            self.seed,
            &self.datasets,
            &self.sizes,
            self.replicates,
        ))
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn cells(&self) -> Vec<Cell> {
        Cell::grid(&self.datasets, &self.sizes, self.replicates)
    }

    fn run_cell(&self, cell: &Cell) -> gendisc_core::Result<Outcome> {
        let call = self.calls.fetch_add(1, Ordering::SeqCst);
        if self.fail_after.is_some_and(|n| call >= n) || self.failing_cells.contains(cell) {
            return Err(Error::Numerical {
                what: "toy study".into(),
                detail: format!("injected failure at call {call}"),
            });
        }
        Ok(compute(self.seed, &self.schema, cell))
    }
}

/// The number of newline-terminated lines of a file.
pub fn complete_lines(path: &Path) -> usize {
    std::fs::read(path)
        .map(|bytes| bytes.iter().filter(|&&b| b == b'\n').count())
        .unwrap_or(0)
}
