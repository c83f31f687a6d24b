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
//!   an intercept, and a Gaussian prior `N(0, σ²)` on the weights of fixed, tiny strength
//!   ([`Settings::prior_variance`]) for every training set. The paper averaged over randomly
//!   picked separating hyperplanes when a training set was separable; the prior instead makes
//!   the estimate exist and be unique, and as its strength goes to zero its direction tends to
//!   the maximum-margin separating hyperplane (Rosset, Zhu & Hastie 2004). On non-separable
//!   sets of more than a few dozen rows it is negligible. A training set is counted as
//!   separable when the fitted hyperplane classifies all of it correctly (metric
//!   [`SEPARATED`]) — a certificate of linear separability, so the count is a lower bound;
//! * **error** — the misclassification rate on the test rows; a log-odds of exactly 0 predicts
//!   class 0.
//!
//! Extra series, labelled so ([`RANDOM_SEPARATOR`]): the paper's own treatment of separable
//! training sets — a separating hyperplane drawn at random from the version space, by a
//! hit-and-run walk ([`random_separator`]) of [`Settings::walk_steps_per_coefficient`] steps per
//! coefficient started from the fitted logistic regression, drawing from the cell's stream after
//! the split. The report judges the paper's statement with it as well.

pub mod datasets;
mod report;
mod version_space;

use std::path::Path;

use gendisc_core::{ConditionalModel, Error, Fit, Result};
use gendisc_data::splits::random_split;
use gendisc_discriminative::logistic::LogisticRegression;
use gendisc_generative::{CategoricalNb, GaussianNb, VarianceStructure};
use ndarray::{Array1, ArrayView1, ArrayView2, Axis};
use serde::Serialize;

use crate::{fingerprint, Cell, Outcome, RunnerSettings, Schema, Study, StudyResults};

pub use datasets::{
    load, load_all, required_files, Dataset, DatasetSpec, InputKind, Inputs, DATASETS,
};
pub use report::write_outputs;
pub use version_space::random_separator;

/// The study's identifier, also its directory under `results/`.
pub const STUDY_ID: &str = "ng-jordan";

/// The classifiers, in the order of the outcome table: the two of the study, then logistic
/// regression with the paper's own treatment of separable training sets.
pub const CLASSIFIERS: [&str; 3] = [NAIVE_BAYES, LOGISTIC_REGRESSION, RANDOM_SEPARATOR];
/// Naive Bayes: Gaussian with shared variances (continuous), categorical with Laplace
/// smoothing (discrete).
pub const NAIVE_BAYES: &str = "naive-bayes";
/// Logistic regression with a Gaussian prior of fixed tiny strength.
pub const LOGISTIC_REGRESSION: &str = "logistic-regression";
/// Extra series, the paper's treatment of separable sets: on a separable training set, a
/// separating hyperplane drawn at random from the version space ([`random_separator`]);
/// otherwise the fit of [`LOGISTIC_REGRESSION`].
pub const RANDOM_SEPARATOR: &str = "logistic-regression-random-separator";

/// The metrics, in the order of the outcome table.
pub const METRICS: [&str; 4] = [ERROR, TRAINING_ERROR, SEPARATED, CONVERGED];
/// Test error rate.
pub const ERROR: &str = "error";
/// Error rate on the training set.
pub const TRAINING_ERROR: &str = "training-error";
/// Logistic regression only: 1 when the fitted hyperplane classifies every training row
/// correctly (the training set is linearly separable), else 0.
pub const SEPARATED: &str = "separated";
/// Logistic regression only: 1 when the solver met its stopping criterion, else 0.
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
    /// (weights and intercept).
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
            walk_steps_per_coefficient: 10,
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
        Ok(())
    }
}

/// The study: the fifteen datasets, loaded once, and the two classifiers' errors per cell.
pub struct NgJordanStudy {
    settings: Settings,
    datasets: Vec<Dataset>,
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
        Ok(Self {
            settings,
            datasets,
            schema: Schema::new(CLASSIFIERS, METRICS)?,
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

    fn dataset(&self, name: &str) -> Result<&Dataset> {
        self.datasets
            .iter()
            .find(|d| d.spec.name == name)
            .ok_or_else(|| Error::invalid_parameter("dataset", format!("unknown dataset `{name}`")))
    }
}

impl Study for NgJordanStudy {
    fn id(&self) -> &str {
        STUDY_ID
    }

    fn fingerprint(&self) -> String {
        let names: Vec<&str> = self.datasets.iter().map(|d| d.spec.name).collect();
        fingerprint(&(STUDY_ID, "v2", &self.settings, names))
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
        let dataset = self.dataset(&cell.dataset)?;
        // One stream per cell: the split first, then the random separator's walk.
        let mut rng = cell.rng(self.settings.seed);
        let split = random_split(dataset.y.view(), cell.train_size, &mut rng)?;
        let y_train = dataset.y.select(Axis(0), &split.train);
        let settings = &self.settings;
        // Log-odds of class 1 for every row of the dataset: predicting on the full matrix
        // avoids copying the test rows, and gives the training error as well.
        let (nb_log_odds, lr_inputs, lr_train) = match &dataset.inputs {
            Inputs::Continuous(x) => {
                let x_train = x.select(Axis(0), &split.train);
                let nb = GaussianNb::params()
                    .variance(VarianceStructure::Pooled)
                    .var_smoothing(settings.variance_floor)
                    .n_classes(2)
                    .fit(x_train.view(), y_train.view())?;
                (nb.decision_function(x.view())?, x.view(), x_train)
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
                let one_hot_train = one_hot.select(Axis(0), &split.train);
                (
                    nb.decision_function(codes.view())?,
                    one_hot.view(),
                    one_hot_train,
                )
            }
        };
        let lr = fit_logistic(settings, lr_train.view(), y_train.view())?;
        let lr_log_odds = lr.decision_function(lr_inputs)?;
        let y = dataset.y.view();
        let separated = split
            .train
            .iter()
            .all(|&i| (lr_log_odds[i] > 0.0) == (y[i] == 1) && lr_log_odds[i] != 0.0);
        let separator_log_odds = if separated {
            let start: Array1<f64> = lr
                .coefficients()
                .row(0)
                .iter()
                .copied()
                .chain(std::iter::once(lr.intercept()[0]))
                .collect();
            let steps = settings.walk_steps_per_coefficient * start.len();
            let theta = random_separator(
                lr_train.view(),
                y_train.view(),
                start.view(),
                steps,
                &mut rng,
            )?;
            let d = lr_inputs.ncols();
            lr_inputs.dot(&theta.slice(ndarray::s![..d])) + theta[d]
        } else {
            lr_log_odds.clone()
        };

        let mut outcome = Outcome::new(&self.schema);
        for (classifier, log_odds) in [
            (0, &nb_log_odds),
            (1, &lr_log_odds),
            (2, &separator_log_odds),
        ] {
            let test = error_rate(log_odds, y, &split.test);
            let train = error_rate(log_odds, y, &split.train);
            outcome.set(classifier, 0, test)?;
            outcome.set(classifier, 1, train)?;
        }
        outcome.set(1, 2, f64::from(u8::from(separated)))?;
        outcome.set(1, 3, f64::from(u8::from(lr.report().status.is_converged())))?;
        Ok(outcome)
    }
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
/// `out`: `cells.jsonl`, `learning_curves.csv`, `summary.csv`, `separable.csv`,
/// `learning_curves.svg`, `DATASETS.md` and `REPORT.md`.
pub fn reproduce(
    out: &Path,
    settings: Settings,
    runner: RunnerSettings,
) -> crate::Result<StudyResults> {
    let study = NgJordanStudy::new(settings)?;
    let results = super::run_stored(&study, out, "cells.jsonl", runner)?;
    write_outputs(out, &study, &results)?;
    Ok(results)
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

    fn toy_datasets() -> Vec<Dataset> {
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
            for classifier in 0..3 {
                for metric in 0..2 {
                    let e = a.get(classifier, metric).unwrap();
                    assert!((0.0..=1.0).contains(&e));
                }
            }
            assert!(a.get(0, 2).is_none() && a.get(0, 3).is_none());
            assert_eq!(a.get(1, 3), Some(1.0));
            // A separated training set has no training error, for either separator; otherwise
            // the random separator is the logistic regression.
            if a.get(1, 2) == Some(1.0) {
                assert_eq!(a.get(1, 1), Some(0.0));
                assert_eq!(a.get(2, 1), Some(0.0));
            } else {
                assert_eq!(a.get(2, 0), a.get(1, 0));
            }
        }
        // Four rows in 3 dimensions: always separable, and separated by the fit.
        let tiny = study.run_cell(&Cell::new("pima", 4, 1)).unwrap();
        assert_eq!(tiny.get(1, 2), Some(1.0));
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
