//! Ng & Jordan (2001), *On discriminative vs. generative classifiers: a comparison of logistic
//! regression and naive Bayes*, §4: learning curves of naive Bayes and logistic regression on
//! fifteen UCI datasets.
//!
//! The paper's claim: the generative naive Bayes classifier approaches its (higher) asymptotic
//! error with `O(log d)` training examples, the discriminative logistic regression its (lower)
//! asymptotic error with `O(d)`; so as the training-set size `m` grows there are often two
//! regimes — naive Bayes better at first, then logistic regression. Its figure plots the test
//! error against `m` for 8 datasets with continuous inputs and 7 with discrete ones, and the
//! text says the predictions are borne out "surprisingly well".
//!
//! The design, where the paper is explicit, and our choices where it is not (the copy we have
//! lost its numbers, so the grids are ours):
//!
//! * **datasets** — the fifteen panels, prepared as [`datasets`] documents (binary tasks, one
//!   kind of input per run, complete cases, standardised continuous inputs);
//! * **splits** — for each `m`, [`Settings::splits`] random train/test splits: a uniformly
//!   random training set of `m` rows that holds at least one example of each class (drawn by
//!   rejection, [`random_split`]), every other row a test row (the paper used 1000 splits);
//! * **training sizes** — [`Settings::grid_points`] sizes from [`Settings::smallest_m`] to
//!   `min(`[`Settings::largest_m`]`, ⌊`[`Settings::largest_m_fraction`]` · n⌋)`, spaced
//!   geometrically (so the small-`m` regime, where the two classifiers part, is resolved); every
//!   integer when there are fewer;
//! * **continuous naive Bayes** — the paper's: univariate Gaussians `N(μ_{j|y}, σ²_j)` whose
//!   variances do not depend on the class (diagonal-covariance normal discriminant analysis),
//!   maximum-likelihood estimates, plus a small constant on the variances "to ensure
//!   invertibility": [`Settings::variance_floor`] times the largest feature variance;
//! * **discrete naive Bayes** — categorical, with Laplace smoothing (`α = 1`) over the levels
//!   that occur in the dataset;
//! * **logistic regression** — linear in the inputs (one-hot indicators for discrete ones), with
//!   an intercept, fitted with a Gaussian prior `N(0, σ²)` on the weights of fixed, tiny
//!   strength ([`Settings::prior_variance`]) for every training set. A training set is counted
//!   as separable when the fitted hyperplane classifies all of it correctly (metric
//!   [`SEPARATED`]) — a certificate of linear separability, so the count is a lower bound;
//! * **separable training sets** — the paper's treatment, the headline reading
//!   ([`RANDOM_SEPARATOR`]): logistic regression "makes no distinction between the possible
//!   separating planes", so a separating hyperplane is drawn at random from the version space,
//!   by a hit-and-run walk ([`random_separator`]) of [`Settings::walk_steps_per_coefficient`]
//!   steps per coefficient started from the fit, drawing from the cell's stream after the
//!   split. The second reading keeps the prior's fit ([`LOGISTIC_REGRESSION`]): its direction
//!   tends to the maximum-margin separator as the prior's strength goes to zero (Rosset, Zhu &
//!   Hastie 2004) — a margin constraint, which the paper names among the regularisations it
//!   avoided;
//! * **scaling** — continuous inputs are standardised (headline) or rescaled to [0, 1]
//!   ([`LOGISTIC_REGRESSION_UNIT_RANGE`], [`RANDOM_SEPARATOR_UNIT_RANGE`]), the paper's
//!   "rescaled where necessary" having lost its range; naive Bayes does not depend on it and is
//!   run once, discrete inputs are 0/1 indicators under both;
//! * **error** — the misclassification rate on the test rows; a log-odds of exactly 0 predicts
//!   class 0.
//!
//! The report ([`write_outputs`]) judges the paper's claims under each of the four readings
//! with the judging module ([`gendisc_engine::verdict`]); [`walk_mixing`] checks that the walk is mixed.

mod claims;
pub mod datasets;
mod inputs;
mod mixing;
mod paper;
mod report;

use std::path::Path;

use gendisc_core::{ConditionalModel, Error, Fit, Result};
use gendisc_data::splits::{random_split, Split};
use gendisc_discriminative::logistic::LogisticRegression;
use gendisc_generative::{CategoricalNb, GaussianNb, VarianceStructure};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use gendisc_engine::{
    fingerprint, Cell, Key, Outcome, RunnerSettings, Schema, Study, StudyResults,
};

pub use datasets::{
    load, load_all, required_files, rescale_unit_range, Dataset, DatasetSpec, InputKind, Inputs,
    DATASETS,
};
pub use gendisc_data::generators::{perceptron_separator, random_separator};
pub use inputs::{export_inputs, InputSource};
pub use mixing::{walk_mixing, MixingRow};
pub use paper::NgJordan;
pub use report::write_outputs;

/// The study's identifier, also its directory under `results/`.
pub const STUDY_ID: &str = "ng-jordan";

/// The classifiers, in the order of the outcome table: naive Bayes, then logistic regression
/// under four readings — the N(0, σ²) prior and the paper's random separator on separable
/// training sets, each on standardised and on [0, 1]-rescaled continuous inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Classifier {
    /// Naive Bayes: Gaussian with shared variances (continuous), categorical with Laplace
    /// smoothing (discrete).
    NaiveBayes,
    /// Logistic regression with a Gaussian prior of fixed tiny strength, on standardised
    /// inputs.
    LogisticRegression,
    /// The paper's treatment of separable sets (§4), the report's headline reading: on a
    /// separable training set, a separating hyperplane drawn at random from the version space
    /// ([`random_separator`]); otherwise the fit of [`Classifier::LogisticRegression`].
    RandomSeparator,
    /// [`Classifier::LogisticRegression`] with continuous inputs rescaled to [0, 1] instead of
    /// standardised (the same fit on discrete inputs).
    LogisticRegressionUnitRange,
    /// [`Classifier::RandomSeparator`] with continuous inputs rescaled to [0, 1] (the same
    /// draw on discrete inputs).
    RandomSeparatorUnitRange,
}

impl Key for Classifier {
    const ALL: &'static [Self] = &[
        Self::NaiveBayes,
        Self::LogisticRegression,
        Self::RandomSeparator,
        Self::LogisticRegressionUnitRange,
        Self::RandomSeparatorUnitRange,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::NaiveBayes => NAIVE_BAYES,
            Self::LogisticRegression => LOGISTIC_REGRESSION,
            Self::RandomSeparator => RANDOM_SEPARATOR,
            Self::LogisticRegressionUnitRange => LOGISTIC_REGRESSION_UNIT_RANGE,
            Self::RandomSeparatorUnitRange => RANDOM_SEPARATOR_UNIT_RANGE,
        }
    }
}

/// [`Classifier::NaiveBayes`]'s name.
pub const NAIVE_BAYES: &str = "naive-bayes";
/// [`Classifier::LogisticRegression`]'s name.
pub const LOGISTIC_REGRESSION: &str = "logistic-regression";
/// [`Classifier::RandomSeparator`]'s name.
pub const RANDOM_SEPARATOR: &str = "logistic-regression-random-separator";
/// [`Classifier::LogisticRegressionUnitRange`]'s name.
pub const LOGISTIC_REGRESSION_UNIT_RANGE: &str = "logistic-regression-unit-range";
/// [`Classifier::RandomSeparatorUnitRange`]'s name.
pub const RANDOM_SEPARATOR_UNIT_RANGE: &str = "logistic-regression-random-separator-unit-range";

/// The metrics, in the order of the outcome table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Test error rate.
    Error,
    /// Error rate on the training set.
    TrainingError,
    /// The fitted logistic regressions only: 1 when the fitted hyperplane classifies every
    /// training row correctly (the training set is linearly separable), else 0.
    Separated,
    /// The fitted logistic regressions only: 1 when the solver met its stopping criterion,
    /// else 0.
    Converged,
}

impl Key for Metric {
    const ALL: &'static [Self] = &[
        Self::Error,
        Self::TrainingError,
        Self::Separated,
        Self::Converged,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::Error => ERROR,
            Self::TrainingError => TRAINING_ERROR,
            Self::Separated => SEPARATED,
            Self::Converged => CONVERGED,
        }
    }
}

/// [`Metric::Error`]'s name.
pub const ERROR: &str = "error";
/// [`Metric::TrainingError`]'s name.
pub const TRAINING_ERROR: &str = "training-error";
/// [`Metric::Separated`]'s name.
pub const SEPARATED: &str = "separated";
/// [`Metric::Converged`]'s name.
pub const CONVERGED: &str = "converged";

/// The configuration of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    /// The study seed: every split derives from it and the cell's coordinates.
    pub seed: u64,
    /// Random train/test splits per dataset and training size (the paper: 1000).
    pub splits: usize,
    /// The smallest training size of every grid (at least 2: one row per class).
    pub smallest_m: usize,
    /// The largest training size of any grid.
    pub largest_m: usize,
    /// The largest training size of a dataset of `n` rows is at most this share of `n`, so
    /// that a test set remains.
    pub largest_m_fraction: f64,
    /// Training sizes per grid.
    pub grid_points: usize,
    /// Variance of the Gaussian prior on logistic regression's weights (inputs standardised
    /// or 0/1 indicators); the intercept is not penalised.
    pub prior_variance: f64,
    /// Gaussian naive Bayes: the constant added to every variance, relative to the largest
    /// feature variance of the training set.
    pub variance_floor: f64,
    /// Discrete naive Bayes: the pseudo-count of Laplace smoothing.
    pub laplace: f64,
    /// The random separator's hit-and-run walk takes this many steps per coefficient
    /// (weights and intercept), at least 1. [`walk_mixing`] shows the drawn hyperplanes' test
    /// errors independent of the start and of the length from a few steps per coefficient on;
    /// the full run takes 30.
    pub walk_steps_per_coefficient: usize,
}

impl Settings {
    /// The full run: 200 splits per training size.
    pub fn paper() -> Self {
        Self {
            seed: 20_010_903,
            splits: 200,
            smallest_m: 2,
            largest_m: 1000,
            largest_m_fraction: 0.75,
            grid_points: 12,
            prior_variance: 100.0,
            variance_floor: 1e-9,
            laplace: 1.0,
            walk_steps_per_coefficient: 30,
        }
    }

    /// The reduced run of continuous integration: the same grids, 10 splits.
    pub fn quick() -> Self {
        Self {
            splits: 10,
            ..Self::paper()
        }
    }

    /// The training sizes for a dataset of `n` rows: `grid_points` sizes spaced geometrically
    /// from `smallest_m` to `min(largest_m, ⌊largest_m_fraction · n⌋)`, rounded and without
    /// repeats; every size in that range when there are at most `grid_points` of them.
    pub fn grid(&self, n: usize) -> Vec<usize> {
        let top = self
            .largest_m
            .min((self.largest_m_fraction * n as f64).floor() as usize)
            .min(n.saturating_sub(1));
        let bottom = self.smallest_m.min(top).max(2);
        if top < bottom {
            return Vec::new();
        }
        if top - bottom < self.grid_points {
            return (bottom..=top).collect();
        }
        let ratio = (top as f64 / bottom as f64).ln() / (self.grid_points - 1) as f64;
        let mut sizes: Vec<usize> = (0..self.grid_points)
            .map(|i| (bottom as f64 * (ratio * i as f64).exp()).round() as usize)
            .collect();
        sizes[self.grid_points - 1] = top;
        sizes.dedup();
        sizes
    }

    fn check(&self) -> Result<()> {
        if self.splits == 0 {
            return Err(Error::invalid_parameter(
                "splits",
                "need at least one split",
            ));
        }
        if self.smallest_m < 2 || self.largest_m < self.smallest_m {
            return Err(Error::invalid_parameter(
                "smallest_m",
                format!(
                    "need 2 ≤ smallest_m ≤ largest_m, got {} and {}",
                    self.smallest_m, self.largest_m
                ),
            ));
        }
        if !(self.largest_m_fraction > 0.0 && self.largest_m_fraction < 1.0) {
            return Err(Error::invalid_parameter(
                "largest_m_fraction",
                format!("must lie in (0, 1), got {}", self.largest_m_fraction),
            ));
        }
        if self.grid_points < 2 {
            return Err(Error::invalid_parameter(
                "grid_points",
                "need at least 2 training sizes",
            ));
        }
        if self.walk_steps_per_coefficient == 0 {
            return Err(Error::invalid_parameter(
                "walk_steps_per_coefficient",
                "the random separator needs at least one step per coefficient",
            ));
        }
        Ok(())
    }
}

/// The study: the fifteen datasets, loaded once, and the two classifiers' errors per cell.
pub struct NgJordanStudy {
    settings: Settings,
    datasets: Vec<Dataset>,
    /// Per dataset, its continuous inputs rescaled to [0, 1] ([`rescale_unit_range`]); `None`
    /// for discrete inputs, whose indicators are already 0/1.
    unit_range: Vec<Option<Array2<f64>>>,
    /// Training rows read from files, by dataset and training size (in the order of `datasets`
    /// and of each dataset's grid); `None` when every cell draws its split from its stream.
    splits: Option<Vec<Vec<inputs::TrainingRows>>>,
    source: InputSource,
    schema: Schema,
}

impl NgJordanStudy {
    /// Reads the fifteen datasets (see [`load_all`]) and checks the settings.
    pub fn new(settings: Settings) -> Result<Self> {
        Self::with_datasets(settings, load_all()?)
    }

    /// The study over the given datasets (a subset, or prepared data of one's own), each
    /// checked by [`Dataset::check`].
    pub fn with_datasets(settings: Settings, datasets: Vec<Dataset>) -> Result<Self> {
        settings.check()?;
        for (i, d) in datasets.iter().enumerate() {
            d.check()?;
            if datasets[..i].iter().any(|e| e.spec.name == d.spec.name) {
                return Err(Error::invalid_parameter(
                    "datasets",
                    format!("`{}` is listed twice", d.spec.name),
                ));
            }
        }
        let unit_range = datasets
            .iter()
            .map(|d| match &d.inputs {
                Inputs::Continuous(x) => Some(rescale_unit_range(x.clone())),
                Inputs::Discrete { .. } => None,
            })
            .collect();
        Ok(Self {
            settings,
            datasets,
            unit_range,
            splits: None,
            source: InputSource::Seed,
            schema: Schema::of::<Classifier, Metric>()?,
        })
    }

    /// The run's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The datasets, in the order of the figure.
    pub fn datasets(&self) -> &[Dataset] {
        &self.datasets
    }

    /// The training sizes of a dataset.
    pub fn grid(&self, dataset: &Dataset) -> Vec<usize> {
        self.settings.grid(dataset.n_rows())
    }

    /// The dataset called `name`, an error for an unknown one.
    pub fn dataset(&self, name: &str) -> Result<&Dataset> {
        Ok(&self.datasets[self.dataset_index(name)?])
    }

    fn dataset_index(&self, name: &str) -> Result<usize> {
        self.datasets
            .iter()
            .position(|d| d.spec.name == name)
            .ok_or_else(|| Error::invalid_parameter("dataset", format!("unknown dataset `{name}`")))
    }

    /// The split that `cell` runs on dataset `index`, and the cell's stream after the split's
    /// draw, which the random separator's walks continue. The split is the one the study seed
    /// draws ([`random_split`], the stream's first draws) unless training rows were read from
    /// files; the stream is drawn from either way, so that inputs equal to the seed's draws run
    /// the very same walks. The export writes these splits: it is what the study runs.
    fn cell_split(&self, index: usize, cell: &Cell) -> Result<(Split, ChaCha8Rng)> {
        let dataset = &self.datasets[index];
        let mut rng = cell.rng(self.settings.seed);
        let drawn = random_split(dataset.y.view(), cell.train_size, &mut rng)?;
        let Some(splits) = &self.splits else {
            return Ok((drawn, rng));
        };
        let size = self
            .grid(dataset)
            .iter()
            .position(|&m| m == cell.train_size);
        let train = size
            .and_then(|s| splits[index].get(s))
            .and_then(|rows| rows.replicate(cell.replicate))
            .ok_or_else(|| {
                Error::invalid_parameter("cell", format!("{cell} has no training rows read"))
            })?;
        let test = gendisc_engine::interchange::complement(&train, dataset.n_rows());
        Ok((Split { train, test }, rng))
    }
}

impl Study for NgJordanStudy {
    fn id(&self) -> &str {
        STUDY_ID
    }

    fn fingerprint(&self) -> String {
        let names: Vec<&str> = self.datasets.iter().map(|d| d.spec.name).collect();
        match &self.source {
            InputSource::Seed => fingerprint(&(STUDY_ID, "v3", &self.settings, names)),
            InputSource::Files { digest } => {
                fingerprint(&(STUDY_ID, "v3", &self.settings, names, "inputs", digest))
            }
        }
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn cells(&self) -> Vec<Cell> {
        let mut cells = Vec::new();
        for d in &self.datasets {
            cells.extend(Cell::grid(
                &[d.spec.name],
                &self.grid(d),
                self.settings.splits,
            ));
        }
        cells
    }

    fn run_cell(&self, cell: &Cell) -> Result<Outcome> {
        let index = self.dataset_index(&cell.dataset)?;
        let dataset = &self.datasets[index];
        // One stream per cell: the split first, then the random separator's walks (the
        // standardised reading's, then the [0, 1] reading's).
        let (split, mut rng) = self.cell_split(index, cell)?;
        let y_train = dataset.y.select(Axis(0), &split.train);
        let settings = &self.settings;
        // Log-odds of class 1 for every row of the dataset: predicting on the full matrix
        // avoids copying the test rows, and gives the training error as well.
        let (nb_log_odds, lr_inputs) = match &dataset.inputs {
            Inputs::Continuous(x) => {
                let x_train = x.select(Axis(0), &split.train);
                let nb = GaussianNb::params()
                    .variance(VarianceStructure::Pooled)
                    .var_smoothing(settings.variance_floor)
                    .n_classes(2)
                    .fit(x_train.view(), y_train.view())?;
                (nb.decision_function(x.view())?, x.view())
            }
            Inputs::Discrete {
                codes,
                levels,
                one_hot,
            } => {
                let codes_train = codes.select(Axis(0), &split.train);
                let nb = CategoricalNb::params()
                    .alpha(settings.laplace)
                    .n_levels(levels.clone())
                    .n_classes(2)
                    .fit(codes_train.view(), y_train.view())?;
                (nb.decision_function(codes.view())?, one_hot.view())
            }
        };
        let y = dataset.y.view();
        let standardised =
            fit_with_separator(settings, lr_inputs, &split.train, y, &y_train, &mut rng)?;
        // Discrete inputs reach logistic regression as 0/1 indicators under both readings:
        // the [0, 1] reading is the same fit.
        let unit_range = match &self.unit_range[index] {
            Some(x) => fit_with_separator(settings, x.view(), &split.train, y, &y_train, &mut rng)?,
            None => standardised.clone(),
        };

        let mut outcome = Outcome::new(&self.schema);
        for (classifier, log_odds) in [
            (Classifier::NaiveBayes, &nb_log_odds),
            (Classifier::LogisticRegression, &standardised.log_odds),
            (
                Classifier::RandomSeparator,
                &standardised.separator_log_odds,
            ),
            (
                Classifier::LogisticRegressionUnitRange,
                &unit_range.log_odds,
            ),
            (
                Classifier::RandomSeparatorUnitRange,
                &unit_range.separator_log_odds,
            ),
        ] {
            let test = error_rate(log_odds, y, &split.test);
            let train = error_rate(log_odds, y, &split.train);
            outcome.put(classifier, Metric::Error, test)?;
            outcome.put(classifier, Metric::TrainingError, train)?;
        }
        for (classifier, fit) in [
            (Classifier::LogisticRegression, &standardised),
            (Classifier::LogisticRegressionUnitRange, &unit_range),
        ] {
            outcome.put(
                classifier,
                Metric::Separated,
                f64::from(u8::from(fit.separated)),
            )?;
            outcome.put(
                classifier,
                Metric::Converged,
                f64::from(u8::from(fit.converged)),
            )?;
        }
        Ok(outcome)
    }
}

/// Logistic regression fitted on one reading of the inputs, and the paper's treatment of a
/// separable training set under that reading.
#[derive(Debug, Clone)]
struct LogisticFit {
    /// The fitted logistic regression's log-odds on every row.
    log_odds: Array1<f64>,
    /// Whether the fit classifies every training row correctly.
    separated: bool,
    /// Whether the solver met its stopping criterion.
    converged: bool,
    /// The random separator's log-odds on every row where the training set is separated,
    /// else the fit's.
    separator_log_odds: Array1<f64>,
}

/// Fits logistic regression on the rows `train` of `inputs` and, when the fit separates them,
/// draws a separating hyperplane from the version space by a walk of
/// [`Settings::walk_steps_per_coefficient`] steps per coefficient started from the fit.
fn fit_with_separator<R: rand::Rng + std::any::Any>(
    settings: &Settings,
    inputs: ArrayView2<'_, f64>,
    train: &[usize],
    y: ArrayView1<'_, usize>,
    y_train: &Array1<usize>,
    rng: &mut R,
) -> Result<LogisticFit> {
    let x_train = inputs.select(Axis(0), train);
    let lr = fit_logistic(settings, x_train.view(), y_train.view())?;
    let log_odds = lr.decision_function(inputs)?;
    let separated = train
        .iter()
        .all(|&i| (log_odds[i] > 0.0) == (y[i] == 1) && log_odds[i] != 0.0);
    let separator_log_odds = if separated {
        let start = coefficients(&lr);
        let steps = settings.walk_steps_per_coefficient * start.len();
        let theta = random_separator(x_train.view(), y_train.view(), start.view(), steps, rng)?;
        log_odds_of(inputs, theta.view())
    } else {
        log_odds.clone()
    };
    Ok(LogisticFit {
        log_odds,
        separated,
        converged: lr.report().status.is_converged(),
        separator_log_odds,
    })
}

/// The fitted `(w, b)` of a binary logistic regression: the weights, then the intercept.
fn coefficients(lr: &LogisticRegression) -> Array1<f64> {
    lr.coefficients()
        .row(0)
        .iter()
        .copied()
        .chain(std::iter::once(lr.intercept()[0]))
        .collect()
}

/// `x w + b` for every row of `x`, with `theta = (w, b)`.
fn log_odds_of(x: ArrayView2<'_, f64>, theta: ArrayView1<'_, f64>) -> Array1<f64> {
    let d = x.ncols();
    x.dot(&theta.slice(ndarray::s![..d])) + theta[d]
}

fn fit_logistic(
    settings: &Settings,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
) -> Result<LogisticRegression> {
    LogisticRegression::params()
        .prior_variance(settings.prior_variance)
        .n_classes(2)
        .fit(x, y)
}

/// The share of `rows` whose prediction from the log-odds (class 1 when `> 0`) is wrong.
fn error_rate(log_odds: &Array1<f64>, y: ArrayView1<'_, usize>, rows: &[usize]) -> f64 {
    let wrong = rows
        .iter()
        .filter(|&&i| usize::from(log_odds[i] > 0.0) != y[i])
        .count();
    wrong as f64 / rows.len() as f64
}

/// Runs the study (resuming from `out/cells.jsonl` if present) and writes every output under
/// `out`: `cells.jsonl`, `learning_curves.csv`, `summary.csv`, `separable.csv`, `verdicts.csv`,
/// `learning_curves.svg`, `DATASETS.md` and `REPORT.md`.
pub fn reproduce(
    out: &Path,
    settings: Settings,
    runner: RunnerSettings,
) -> gendisc_engine::Result<StudyResults> {
    super::run_and_write(&NgJordanStudy::new(settings)?, out, runner, write_outputs)
}

/// As [`reproduce`], on the datasets and training rows read from the directory `inputs` (as
/// [`export_inputs`] writes it; see [`NgJordanStudy::from_inputs`]) instead of the prepared UCI
/// datasets and the splits the seed draws. Inputs identical to those give [`reproduce`]'s
/// outputs, byte for byte.
pub fn reproduce_from_inputs(
    out: &Path,
    inputs: &Path,
    settings: Settings,
    runner: RunnerSettings,
) -> gendisc_engine::Result<StudyResults> {
    super::run_and_write(
        &NgJordanStudy::from_inputs(settings, inputs)?,
        out,
        runner,
        write_outputs,
    )
}

#[cfg(test)]
mod tests {
    use super::datasets::standardise;
    use super::*;
    use ndarray::array;

    #[test]
    fn grids_are_geometric_increasing_and_bounded() {
        let s = Settings::paper();
        let g = s.grid(32_561);
        assert_eq!(g.len(), 12);
        assert_eq!((g[0], g[11]), (2, 1000));
        assert!(g.windows(2).all(|w| w[0] < w[1]));
        // The ratio between neighbours is (1000/2)^(1/11) ≈ 1.76, up to rounding.
        for w in g.windows(2).skip(3) {
            let r = w[1] as f64 / w[0] as f64;
            assert!((1.6..1.95).contains(&r), "{w:?}");
        }
        assert_eq!(*s.grid(208).last().unwrap(), 156);
        // Lenses' 9 rows: every size from 2 to ⌊0.75 · 9⌋ = 6.
        assert_eq!(s.grid(9), vec![2, 3, 4, 5, 6]);
        assert_eq!(s.grid(2), Vec::<usize>::new());
    }

    #[test]
    fn bad_settings_are_refused() {
        for bad in [
            Settings {
                splits: 0,
                ..Settings::quick()
            },
            Settings {
                smallest_m: 1,
                ..Settings::quick()
            },
            Settings {
                largest_m_fraction: 1.0,
                ..Settings::quick()
            },
            Settings {
                grid_points: 1,
                ..Settings::quick()
            },
            Settings {
                walk_steps_per_coefficient: 0,
                ..Settings::quick()
            },
        ] {
            assert!(NgJordanStudy::with_datasets(bad, Vec::new()).is_err());
        }
    }

    #[test]
    fn error_rate_counts_ties_as_class_zero() {
        let log_odds = array![0.0, 1.0, -2.0, 3.0];
        let y = array![0, 0, 0, 1];
        assert_eq!(error_rate(&log_odds, y.view(), &[0, 1, 2, 3]), 0.25);
        assert_eq!(error_rate(&log_odds, y.view(), &[1]), 1.0);
    }

    /// A continuous dataset (pima's panel) and a discrete one (promoters'), 40 rows each.
    pub(super) fn toy_datasets() -> Vec<Dataset> {
        // Continuous: two shifted clouds; discrete: a noisy copy of the label.
        let n = 40;
        let y: Array1<usize> = (0..n).map(|i| i % 2).collect();
        let x = ndarray::Array2::from_shape_fn((n, 3), |(i, j)| {
            let noise = ((i * 7 + j * 13) % 11) as f64 / 11.0 - 0.5;
            (y[i] as f64) * 0.8 + noise
        });
        let codes = ndarray::Array2::from_shape_fn((n, 2), |(i, j)| {
            if (i + j) % 5 == 0 {
                (1 - y[i]) as f64
            } else {
                y[i] as f64
            }
        });
        let mut one_hot = ndarray::Array2::zeros((n, 4));
        for i in 0..n {
            for j in 0..2 {
                one_hot[[i, 2 * j + codes[[i, j]] as usize]] = 1.0;
            }
        }
        vec![
            Dataset {
                spec: DATASETS[0],
                inputs: Inputs::Continuous(standardise(x)),
                y: y.clone(),
                rows_left_out: 0,
            },
            Dataset {
                spec: DATASETS[9],
                inputs: Inputs::Discrete {
                    codes,
                    levels: vec![2, 2],
                    one_hot,
                },
                y,
                rows_left_out: 0,
            },
        ]
    }

    #[test]
    fn a_cell_is_deterministic_and_complete() {
        let study = NgJordanStudy::with_datasets(Settings::quick(), toy_datasets()).unwrap();
        let cells = study.cells();
        assert_eq!(cells.len(), 2 * study.settings().grid(40).len() * 10);
        for cell in [Cell::new("pima", 4, 3), Cell::new("promoters", 30, 0)] {
            let a = study.run_cell(&cell).unwrap();
            let b = study.run_cell(&cell).unwrap();
            assert!(a.bitwise_eq(&b));
            for &classifier in Classifier::ALL {
                for metric in [Metric::Error, Metric::TrainingError] {
                    let e = a.value(classifier, metric).unwrap();
                    assert!((0.0..=1.0).contains(&e));
                }
            }
            use Classifier::{LogisticRegression, NaiveBayes, RandomSeparator};
            assert!(a.value(NaiveBayes, Metric::Separated).is_none());
            assert!(a.value(NaiveBayes, Metric::Converged).is_none());
            assert_eq!(a.value(LogisticRegression, Metric::Converged), Some(1.0));
            // A separated training set has no training error, for either separator; otherwise
            // the random separator is the logistic regression.
            if a.value(LogisticRegression, Metric::Separated) == Some(1.0) {
                assert_eq!(
                    a.value(LogisticRegression, Metric::TrainingError),
                    Some(0.0)
                );
                assert_eq!(a.value(RandomSeparator, Metric::TrainingError), Some(0.0));
            } else {
                assert_eq!(
                    a.value(RandomSeparator, Metric::Error),
                    a.value(LogisticRegression, Metric::Error)
                );
            }
        }
        // Four rows in 3 dimensions: always separable, and separated by the fit.
        let tiny = study.run_cell(&Cell::new("pima", 4, 1)).unwrap();
        assert_eq!(
            tiny.value(Classifier::LogisticRegression, Metric::Separated),
            Some(1.0)
        );
    }

    #[test]
    fn the_walk_length_reaches_the_random_separator_only() {
        let run = |steps, replicate| {
            let settings = Settings {
                walk_steps_per_coefficient: steps,
                ..Settings::quick()
            };
            // Four rows in 3 dimensions are always separable: the random separator walks.
            NgJordanStudy::with_datasets(settings, toy_datasets())
                .unwrap()
                .run_cell(&Cell::new("pima", 4, replicate))
                .unwrap()
        };
        let mut differs = false;
        for r in 0..10 {
            let (short, long) = (run(1, r), run(50, r));
            // Naive Bayes and the fitted logistic regressions do not depend on the walk.
            use Classifier::*;
            for classifier in [NaiveBayes, LogisticRegression, LogisticRegressionUnitRange] {
                assert_eq!(
                    short.value(classifier, Metric::Error),
                    long.value(classifier, Metric::Error)
                );
            }
            for separator in [RandomSeparator, RandomSeparatorUnitRange] {
                differs |=
                    short.value(separator, Metric::Error) != long.value(separator, Metric::Error);
            }
        }
        // Over ten splits, the drawn hyperplanes' test errors cannot all coincide.
        assert!(differs);
    }

    #[test]
    fn the_unit_range_reading_rescales_continuous_inputs_only() {
        let study = NgJordanStudy::with_datasets(Settings::quick(), toy_datasets()).unwrap();
        let Some(x) = &study.unit_range[0] else {
            panic!("continuous inputs have a [0, 1] reading");
        };
        for column in x.columns() {
            let (lo, hi) = column
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                    (a.min(v), b.max(v))
                });
            assert_eq!((lo, hi), (0.0, 1.0));
        }
        assert!(study.unit_range[1].is_none());
        // Discrete inputs: the [0, 1] reading is the same fit and the same draw.
        for r in 0..5 {
            let o = study.run_cell(&Cell::new("promoters", 12, r)).unwrap();
            use Classifier::*;
            for (standardised, unit_range, metric) in [
                (
                    LogisticRegression,
                    LogisticRegressionUnitRange,
                    Metric::Error,
                ),
                (RandomSeparator, RandomSeparatorUnitRange, Metric::Error),
                (
                    LogisticRegression,
                    LogisticRegressionUnitRange,
                    Metric::Separated,
                ),
            ] {
                assert_eq!(o.value(standardised, metric), o.value(unit_range, metric));
            }
        }
    }

    #[test]
    fn unknown_datasets_are_errors() {
        let study = NgJordanStudy::with_datasets(Settings::quick(), toy_datasets()).unwrap();
        assert!(study.run_cell(&Cell::new("nope", 4, 0)).is_err());
        let twice = vec![toy_datasets()[0].clone(), toy_datasets()[0].clone()];
        assert!(NgJordanStudy::with_datasets(Settings::quick(), twice).is_err());
    }

    #[test]
    fn inconsistent_datasets_are_refused() {
        let mut one_class = toy_datasets()[0].clone();
        one_class.y.fill(1);
        let mut short = toy_datasets()[0].clone();
        short.y = short.y.slice(ndarray::s![..10]).to_owned();
        let mut bad_label = toy_datasets()[0].clone();
        bad_label.y[3] = 2;
        let mut nan = toy_datasets()[0].clone();
        if let Inputs::Continuous(x) = &mut nan.inputs {
            x[[2, 1]] = f64::NAN;
        }
        let mut bad_code = toy_datasets()[1].clone();
        if let Inputs::Discrete { codes, .. } = &mut bad_code.inputs {
            codes[[5, 0]] = 2.0;
        }
        let mut bad_width = toy_datasets()[1].clone();
        if let Inputs::Discrete { levels, .. } = &mut bad_width.inputs {
            levels[1] = 3;
        }
        for (what, d) in [
            ("one class", one_class),
            ("short labels", short),
            ("label 2", bad_label),
            ("NaN input", nan),
            ("code out of its levels", bad_code),
            ("one-hot width", bad_width),
        ] {
            assert!(
                NgJordanStudy::with_datasets(Settings::quick(), vec![d]).is_err(),
                "{what}"
            );
        }
    }
}
