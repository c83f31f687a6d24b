//! Xue & Titterington, *Interpretation of hybrid generative/discriminative algorithms*, §3:
//! naive Bayes, linear logistic regression and Raina et al.'s normalized hybrid on twelve
//! simulated datasets, error rate (ER) and logistic loss (LL) against the training-set size.
//!
//! The design follows §3.1 exactly where the paper is explicit, and where it is not, makes the
//! choices that let our run be compared with a rerun in R:
//!
//! * each dataset is one sample of 500 + 500 rows, drawn once from the study seed; the
//!   replicates are re-splits of it (§3.1.4);
//! * `m ∈ {100, 125, …, 400}`; the training set holds `⌈m/2⌉` rows of class `y = 1` and `⌊m/2⌋`
//!   of `y = 2`, the other `1000 − m` rows are the test set; 400 replicates;
//! * naive Bayes as `e1071::naiveBayes`: Gaussian with per-class variances and the `n − 1`
//!   divisor, no variance floor to speak of (`var_smoothing = 1e-15`); Bernoulli with
//!   `(count + 1)/(n_k + 2)`; the unsmoothed empirical class prior; ties (log-odds exactly 0)
//!   go to `y = 1`, as `which.max` does;
//! * logistic regression and the hybrid's `θ` as `glm(family = binomial)`: R's IRLS from
//!   `μ = (y + ½)/2`, relative deviance tolerance `1e-8`, at most 25 iterations, so that on
//!   (quasi-)separated training sets the fit stops where glm stops, with glm's huge
//!   coefficients. Each such fit is flagged twice: by our separation certificate (metric
//!   `separated`) and by the condition of R's warning "fitted probabilities numerically 0 or 1
//!   occurred" (metric `numerically-0-or-1`); test-set probabilities go through R's clamped
//!   inverse link, as `predict(type = "response")`;
//! * the hybrid is normalized with regions `x¹ = (x_1, x_2)` and `x² = (x_3, x_4)`, without
//!   leave-one-out (§3.1.1); an aliased (constant) region feature gets `θ_r = 0` and is
//!   counted (metric `aliased`);
//! * LL is the sum of `−log p(y | x)` over the test set (§3.1.3); its mean is reported beside.
//!
//! Extra series, not in the paper and labelled so: logistic regression with a Gaussian prior
//! of variance [`Settings::prior_variance`] on the weights, the hybrid with leave-one-out `θ`
//! (Raina eq. 11), and the unnormalized hybrid.

mod claims;
mod inputs;
mod paper;
mod report;

use std::borrow::Cow;
use std::path::Path;

use gendisc_core::{ConditionalModel, Convergence, Error, FactorisedGenerative, Fit, Result};
use gendisc_data::generators::{FeatureFamily, XueTitteringtonPreset};
use gendisc_data::splits::{replicate_rng, take, take_rows};
use gendisc_discriminative::logistic::{LogisticRegression, LogisticSolver};
use gendisc_generative::{BernoulliNb, GaussianNb, LeaveOneOut, VarianceEstimator};
use gendisc_hybrid::{Hybrid, Normalization, RegionLikelihoods};
use gendisc_metrics::binary_logistic_loss_sum;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};

use serde::Serialize;

use gendisc_engine::interchange::complement;
use gendisc_engine::{
    fingerprint, Cell, Key, Outcome, RunnerSettings, Schema, Study, StudyResults,
};

pub use inputs::{export_inputs, InputSource};
pub use paper::XueTitterington;
pub use report::write_outputs;

/// The study's identifier, also its directory under `results/`.
pub const STUDY_ID: &str = "xue-titterington";

/// The classifiers, in the order of the outcome table. The first three are the paper's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Classifier {
    /// Naive Bayes (Gaussian or Bernoulli, as e1071).
    NaiveBayes,
    /// Linear logistic regression, as R's glm.
    LogisticRegression,
    /// The normalized hybrid, θ by glm.
    Hybrid,
    /// Extra: logistic regression with a Gaussian prior on the weights.
    LogisticRegressionL2,
    /// Extra: the normalized hybrid with leave-one-out θ.
    HybridLeaveOneOut,
    /// Extra: the unnormalized hybrid.
    HybridUnnormalized,
}

impl Key for Classifier {
    const ALL: &'static [Self] = &[
        Self::NaiveBayes,
        Self::LogisticRegression,
        Self::Hybrid,
        Self::LogisticRegressionL2,
        Self::HybridLeaveOneOut,
        Self::HybridUnnormalized,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::NaiveBayes => NAIVE_BAYES,
            Self::LogisticRegression => LOGISTIC_REGRESSION,
            Self::Hybrid => HYBRID,
            Self::LogisticRegressionL2 => LOGISTIC_REGRESSION_L2,
            Self::HybridLeaveOneOut => HYBRID_LEAVE_ONE_OUT,
            Self::HybridUnnormalized => HYBRID_UNNORMALIZED,
        }
    }
}

/// [`Classifier::NaiveBayes`]'s name.
pub const NAIVE_BAYES: &str = "naive-bayes";
/// [`Classifier::LogisticRegression`]'s name.
pub const LOGISTIC_REGRESSION: &str = "logistic-regression";
/// [`Classifier::Hybrid`]'s name.
pub const HYBRID: &str = "hybrid";
/// [`Classifier::LogisticRegressionL2`]'s name.
pub const LOGISTIC_REGRESSION_L2: &str = "logistic-regression-l2";
/// [`Classifier::HybridLeaveOneOut`]'s name.
pub const HYBRID_LEAVE_ONE_OUT: &str = "hybrid-loo";
/// [`Classifier::HybridUnnormalized`]'s name.
pub const HYBRID_UNNORMALIZED: &str = "hybrid-unnormalized";

/// The metrics, in the order of the outcome table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Test error rate.
    Er,
    /// Logistic loss, summed over the test set (the paper's LL).
    Ll,
    /// Logistic loss, averaged over the test set.
    LlMean,
    /// 1 when a glm fit's training set was (quasi-)separated, else 0; absent for other fits.
    Separated,
    /// 1 when R's glm would warn "fitted probabilities numerically 0 or 1 occurred" — some
    /// training row has `|η| > 30`, where R's link is clamped — else 0; absent for other fits.
    RWarning,
    /// Number of aliased (constant) region features in a hybrid's θ fit.
    Aliased,
}

impl Key for Metric {
    const ALL: &'static [Self] = &[
        Self::Er,
        Self::Ll,
        Self::LlMean,
        Self::Separated,
        Self::RWarning,
        Self::Aliased,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::Er => ER,
            Self::Ll => LL,
            Self::LlMean => LL_MEAN,
            Self::Separated => SEPARATED,
            Self::RWarning => R_WARNING,
            Self::Aliased => ALIASED,
        }
    }
}

/// [`Metric::Er`]'s name.
pub const ER: &str = "er";
/// [`Metric::Ll`]'s name.
pub const LL: &str = "ll";
/// [`Metric::LlMean`]'s name.
pub const LL_MEAN: &str = "ll-mean";
/// [`Metric::Separated`]'s name.
pub const SEPARATED: &str = "separated";
/// [`Metric::RWarning`]'s name.
pub const R_WARNING: &str = "numerically-0-or-1";
/// [`Metric::Aliased`]'s name.
pub const ALIASED: &str = "aliased";

/// The regions of the hybrid (§3.1.4): `x¹ = (x_1, x_2)`, `x² = (x_3, x_4)`.
fn regions() -> Vec<Vec<usize>> {
    vec![vec![0, 1], vec![2, 3]]
}

/// The rows per class of each dataset (§3.1.4).
pub const ROWS_PER_CLASS: usize = 500;

/// The configuration of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    /// The study seed: datasets and splits derive from it.
    pub seed: u64,
    /// Training-set sizes `m`.
    pub sizes: Vec<usize>,
    /// Replicates (re-splits) per dataset and size.
    pub replicates: usize,
    /// Prior variance `σ²` of the extra L2 logistic regression (weights `~ N(0, σ²)`, the
    /// intercept unpenalised). Fixed, not tuned: a weakly informative prior on inputs of unit
    /// scale.
    pub prior_variance: f64,
    /// Fit only the two series R's and scikit-learn's peers compute — naive Bayes and glm's
    /// logistic regression — so that gendisc can be timed on the peers' work
    /// (`cargo xtask bench-peers`); the other series are left unmeasured and no report is
    /// written ([`reproduce_peer_series`]). Off by default, and then not part of the
    /// fingerprint.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub peer_series_only: bool,
}

impl Settings {
    /// The paper's design: `m = 100, 125, …, 400`, 400 replicates.
    pub fn paper() -> Self {
        Self {
            seed: 20_080_301,
            sizes: (100..=400).step_by(25).collect(),
            replicates: 400,
            prior_variance: 10.0,
            peer_series_only: false,
        }
    }

    /// The reduced run of continuous integration: every size, 20 replicates.
    pub fn quick() -> Self {
        Self {
            replicates: 20,
            ..Self::paper()
        }
    }
}

/// One dataset of the study: the preset and its one sample.
struct Dataset {
    preset: XueTitteringtonPreset,
    x: Array2<f64>,
    y: Array1<usize>,
}

/// The study: the twelve datasets, drawn once (or read from files), and the classifiers'
/// evaluation per cell.
pub struct XueTitteringtonStudy {
    settings: Settings,
    datasets: Vec<Dataset>,
    /// Training rows read from files, by dataset and size (in the order of `datasets` and
    /// `settings.sizes`); `None` when every cell draws its split from its stream.
    splits: Option<Vec<Vec<inputs::TrainingRows>>>,
    source: InputSource,
    schema: Schema,
}

impl XueTitteringtonStudy {
    /// Draws the twelve datasets from the study seed.
    pub fn new(settings: Settings) -> Result<Self> {
        let datasets = XueTitteringtonPreset::ALL
            .into_iter()
            .map(|preset| {
                let (x, y) = preset.generate(ROWS_PER_CLASS, &mut dataset_rng(&settings, preset));
                Dataset { preset, x, y }
            })
            .collect();
        let schema = Schema::of::<Classifier, Metric>()?;
        Ok(Self {
            settings,
            datasets,
            splits: None,
            source: InputSource::Seed,
            schema,
        })
    }

    /// The run's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The sample of one dataset (rows of class 0 first).
    pub fn sample(
        &self,
        preset: XueTitteringtonPreset,
    ) -> (ArrayView2<'_, f64>, ArrayView1<'_, usize>) {
        let d = &self.datasets[preset_index(preset)];
        (d.x.view(), d.y.view())
    }

    fn dataset_index(&self, name: &str) -> Result<usize> {
        self.datasets
            .iter()
            .position(|d| d.preset.name() == name)
            .ok_or_else(|| Error::invalid_parameter("dataset", format!("unknown dataset `{name}`")))
    }

    /// The training rows of `cell` on dataset `index` and its test rows, every other row: read
    /// from a file, or drawn from the cell's stream (§3.1.4).
    fn training_and_test_rows(
        &self,
        index: usize,
        cell: &Cell,
    ) -> Result<(Vec<usize>, Vec<usize>)> {
        let Some(splits) = &self.splits else {
            let split = self.drawn_split(&self.datasets[index], cell)?;
            return Ok((split.train, split.test));
        };
        let size = self
            .settings
            .sizes
            .iter()
            .position(|&m| m == cell.train_size);
        let train = size
            .and_then(|s| splits[index][s].replicate(cell.replicate))
            .ok_or_else(|| {
                Error::invalid_parameter("cell", format!("{cell} has no training rows read"))
            })?;
        let test = complement(&train, self.datasets[index].y.len());
        Ok((train, test))
    }
}

/// The stream that draws one dataset's sample.
fn dataset_rng(settings: &Settings, preset: XueTitteringtonPreset) -> rand_chacha::ChaCha8Rng {
    replicate_rng(settings.seed, &["dataset".into(), preset.name().into()])
}

fn preset_index(preset: XueTitteringtonPreset) -> usize {
    XueTitteringtonPreset::ALL
        .iter()
        .position(|&p| p == preset)
        .unwrap_or_default()
}

impl Study for XueTitteringtonStudy {
    fn id(&self) -> &str {
        STUDY_ID
    }

    fn fingerprint(&self) -> String {
        // v3: the test losses' exponentials are gendisc_core's vectorised ones (within an
        // ulp of v2's; about one cell in seven moves in its last bits). v4: so are glm's IRLS
        // exponentials, so every glm fit and the hybrids' θ move in their last bits.
        match &self.source {
            InputSource::Seed => fingerprint(&(STUDY_ID, "v4", &self.settings)),
            InputSource::Files { digest } => {
                fingerprint(&(STUDY_ID, "v4", &self.settings, "inputs", digest))
            }
        }
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn cells(&self) -> Vec<Cell> {
        let names: Vec<&str> = self.datasets.iter().map(|d| d.preset.name()).collect();
        Cell::grid(&names, &self.settings.sizes, self.settings.replicates)
    }

    fn run_cell(&self, cell: &Cell) -> Result<Outcome> {
        let index = self.dataset_index(&cell.dataset)?;
        let dataset = &self.datasets[index];
        let (train, test) = self.training_and_test_rows(index, cell)?;
        let data = SplitData {
            x_train: take_rows(dataset.x.view(), &train)?,
            y_train: take(dataset.y.view(), &train)?,
            x_test: take_rows(dataset.x.view(), &test)?,
            y_test: take(dataset.y.view(), &test)?,
        };
        let mut outcome = Outcome::new(&self.schema);
        match dataset.preset.family() {
            FeatureFamily::Normal => {
                let nb = GaussianNb::params()
                    .variance_estimator(VarianceEstimator::Unbiased)
                    .var_smoothing(1e-15);
                evaluate_all(nb, &data, &self.settings, &mut outcome)?;
            }
            FeatureFamily::Bernoulli => {
                evaluate_all(BernoulliNb::params(), &data, &self.settings, &mut outcome)?;
            }
        }
        Ok(outcome)
    }
}

/// The training and test rows of one cell.
struct SplitData {
    x_train: Array2<f64>,
    y_train: Array1<usize>,
    x_test: Array2<f64>,
    y_test: Array1<usize>,
}

/// Fits and evaluates every classifier of the study on one split.
fn evaluate_all<G>(
    nb: G,
    data: &SplitData,
    settings: &Settings,
    outcome: &mut Outcome,
) -> Result<()>
where
    G: Fit + LeaveOneOut + Clone,
    G::Model: FactorisedGenerative + ConditionalModel + PartialEq + Clone,
{
    let (x_train, y_train) = (data.x_train.view(), data.y_train.view());
    let (x_test, y_test) = (data.x_test.view(), data.y_test.view());
    let mut evaluator = Evaluator::new(y_test);
    let mut evaluate = |log_odds: Array1<f64>| evaluator.evaluate(log_odds);
    let regions = regions();
    let params = |leave_one_out| {
        Hybrid::params(nb.clone())
            .regions(regions.clone())
            .normalization(Normalization::Normalized)
            .leave_one_out(leave_one_out)
    };

    // The leave-one-out hybrid fits naive Bayes on the training rows first, its leave-one-out
    // statistics being that fit's: its model is `nb.fit(x_train, y_train)` bit for bit, and
    // serves as the naive Bayes series' and the other hybrids' model.
    let leave_one_out = if settings.peer_series_only {
        None
    } else {
        Some(params(true).fit(x_train, y_train)?)
    };
    let naive_bayes = match &leave_one_out {
        Some(hybrid) => Cow::Borrowed(hybrid.generative()),
        None => Cow::Owned(nb.fit(x_train, y_train)?),
    };
    record(
        outcome,
        Classifier::NaiveBayes,
        &evaluate(naive_bayes.decision_function(x_test)?)?,
        None,
        None,
    )?;

    let glm = LogisticRegression::params().solver(LogisticSolver::GlmIrls);
    let lr = glm.fit(x_train, y_train)?;
    let flags = GlmFlags {
        separated: lr.report().separated,
        r_warning: lr.report().saturated,
    };
    let eta = r_clamped_log_odds(lr.decision_function(x_test)?);
    record(
        outcome,
        Classifier::LogisticRegression,
        &evaluate(eta)?,
        Some(flags),
        None,
    )?;
    let Some(leave_one_out) = &leave_one_out else {
        return Ok(());
    };

    // The three hybrids share the naive Bayes model: its region log-likelihoods on the
    // training rows and on the test rows are computed once.
    let training = RegionLikelihoods::new(&*naive_bayes, x_train, &regions)?;
    let test = RegionLikelihoods::new(&*naive_bayes, x_test, &regions)?;
    let normalized = params(false).fit_on(&training, y_train)?;
    // Every region has the same, fixed size, so the unpenalised unnormalized fit is the
    // normalized one with θ rescaled (`Hybrid::with_normalization`); with two features per
    // region the rescaling is exact, and so equal bit for bit to fitting it.
    let unnormalized = normalized.with_normalization(Normalization::Unnormalized);
    for (classifier, hybrid) in [
        (Classifier::Hybrid, &normalized),
        (Classifier::HybridLeaveOneOut, leave_one_out),
        (Classifier::HybridUnnormalized, &unnormalized),
    ] {
        let report = hybrid.report().ok_or_else(|| Error::Numerical {
            what: "hybrid fit".into(),
            detail: "no fit report".into(),
        })?;
        let flags = GlmFlags {
            separated: report.separated,
            r_warning: report.saturated,
        };
        let aliased = report.aliased_regions.len();
        let eta = r_clamped_log_odds(hybrid.decision_function_on(&test)?);
        record(
            outcome,
            classifier,
            &evaluate(eta)?,
            Some(flags),
            Some(aliased),
        )?;
    }

    // Newton from the unpenalised estimate when there is one (converged, and no fitted
    // probability of 0 or 1): the same solution (to Newton's tolerance) in fewer iterations.
    let l2 = LogisticRegression::params().prior_variance(settings.prior_variance);
    let l2 = if lr.report().is_converged() && !lr.report().saturated {
        l2.warm_start(&lr)
    } else {
        l2
    };
    let l2 = l2.fit(x_train, y_train)?;
    record(
        outcome,
        Classifier::LogisticRegressionL2,
        &evaluate(l2.decision_function(x_test)?)?,
        None,
        None,
    )
}

/// The log-odds at which R evaluates a binomial glm: its inverse link replaces `exp(η)` by
/// `1/ε` above `η = 30` and by `ε` below `−30` (`ε = 2⁻⁵²`), i.e. `p(y = 1 | x) = σ(±52 ln 2)`
/// there — so `predict(type = "response")` never returns 0 or 1 and a separated fit's test
/// loss is at most `52 ln 2 ≈ 36.04` per row. Checked against
/// [`r_logit_linkinv`](gendisc_discriminative::logistic::r_logit_linkinv) in the tests.
fn r_clamped_log_odds(mut eta: Array1<f64>) -> Array1<f64> {
    const THRESH: f64 = 30.0;
    let bound = 52.0 * std::f64::consts::LN_2;
    eta.mapv_inplace(|e| {
        if e > THRESH {
            bound
        } else if e < -THRESH {
            -bound
        } else {
            e
        }
    });
    eta
}

/// What a glm fit's training set did to it.
struct GlmFlags {
    /// The fit's separation certificate (complete or quasi-complete separation).
    separated: bool,
    /// R would warn "fitted probabilities numerically 0 or 1 occurred" (the fit report's
    /// `saturated`: with glm's clamped link, a training linear predictor beyond ±30).
    r_warning: bool,
}

/// Evaluates the classifiers of one cell on its test set, each set of log-odds once: a
/// classifier whose log-odds are bit for bit those of one already evaluated gets the same
/// evaluation without an exponential and a logarithm per row again. (On these data the
/// unnormalized hybrid's log-odds are the normalized one's: each region has two features, so
/// its features are twice the normalized ones, and glm's IRLS is equivariant to scaling a
/// column by a power of two.)
struct Evaluator<'a> {
    y_test: ArrayView1<'a, usize>,
    done: Vec<(Array1<f64>, Evaluation)>,
}

impl<'a> Evaluator<'a> {
    fn new(y_test: ArrayView1<'a, usize>) -> Self {
        Self {
            y_test,
            done: Vec::with_capacity(Classifier::ALL.len()),
        }
    }

    fn evaluate(&mut self, log_odds: Array1<f64>) -> Result<Evaluation> {
        let same_bits = |a: &Array1<f64>| {
            a.len() == log_odds.len()
                && a.iter()
                    .zip(&log_odds)
                    .all(|(x, y)| x.to_bits() == y.to_bits())
        };
        if let Some((_, eval)) = self.done.iter().find(|(a, _)| same_bits(a)) {
            return Ok(*eval);
        }
        let eval = Evaluation::from_log_odds(log_odds.view(), self.y_test)?;
        self.done.push((log_odds, eval));
        Ok(eval)
    }
}

/// ER and LL of one classifier on the test set.
#[derive(Debug, Clone, Copy)]
struct Evaluation {
    error_rate: f64,
    loss_sum: f64,
    n_test: usize,
}

impl Evaluation {
    /// From the log-odds `η` of class `y = 2` (index 1): predicted class `y = 2` when `η > 0`,
    /// ties to `y = 1` (R's `which.max`); LL `= Σ log(1 + exp(∓η))`.
    fn from_log_odds(log_odds: ArrayView1<'_, f64>, y_test: ArrayView1<'_, usize>) -> Result<Self> {
        let errors = log_odds
            .iter()
            .zip(y_test.iter())
            .filter(|&(&eta, &y)| usize::from(eta > 0.0) != y)
            .count();
        Ok(Self {
            error_rate: errors as f64 / y_test.len() as f64,
            loss_sum: binary_logistic_loss_sum(y_test, log_odds)?,
            n_test: y_test.len(),
        })
    }
}

fn record(
    outcome: &mut Outcome,
    classifier: Classifier,
    eval: &Evaluation,
    glm: Option<GlmFlags>,
    aliased: Option<usize>,
) -> Result<()> {
    outcome.put(classifier, Metric::Er, eval.error_rate)?;
    outcome.put(classifier, Metric::Ll, eval.loss_sum)?;
    outcome.put(
        classifier,
        Metric::LlMean,
        eval.loss_sum / eval.n_test as f64,
    )?;
    if let Some(flags) = glm {
        outcome.put(
            classifier,
            Metric::Separated,
            f64::from(u8::from(flags.separated)),
        )?;
        outcome.put(
            classifier,
            Metric::RWarning,
            f64::from(u8::from(flags.r_warning)),
        )?;
    }
    if let Some(aliased) = aliased {
        outcome.put(classifier, Metric::Aliased, aliased as f64)?;
    }
    Ok(())
}

/// Runs the study (resuming from `out/cells.jsonl` if present) and writes every output under
/// `out`: `cells.jsonl`, `medians.csv`, `summary.csv`, `separation.csv`, `fig1.svg` …
/// `fig4.svg`, `DATASETS.md` and `REPORT.md`.
pub fn reproduce(
    out: &Path,
    settings: Settings,
    runner: RunnerSettings,
) -> gendisc_engine::Result<StudyResults> {
    super::run_and_write(
        &XueTitteringtonStudy::new(settings)?,
        out,
        runner,
        write_outputs,
    )
}

/// As [`reproduce`], on the datasets and training rows read from the directory `inputs` (as
/// [`export_inputs`] writes it; see [`XueTitteringtonStudy::from_inputs`]) instead of those the
/// seed draws. Inputs identical to the seed's draws give [`reproduce`]'s outputs, byte for byte.
pub fn reproduce_from_inputs(
    out: &Path,
    inputs: &Path,
    settings: Settings,
    runner: RunnerSettings,
) -> gendisc_engine::Result<StudyResults> {
    super::run_and_write(
        &XueTitteringtonStudy::from_inputs(settings, inputs)?,
        out,
        runner,
        write_outputs,
    )
}

/// Only the series the peers compute ([`Settings::peer_series_only`]), on the datasets and
/// training rows read from `inputs`: the store `out/cells.jsonl` and its per-replicate CSV,
/// which `scripts/peers/compare.py` joins with a peer's, and no report.
pub fn reproduce_peer_series(
    out: &Path,
    inputs: &Path,
    settings: Settings,
    runner: RunnerSettings,
) -> gendisc_engine::Result<StudyResults> {
    let settings = Settings {
        peer_series_only: true,
        ..settings
    };
    let study = XueTitteringtonStudy::from_inputs(settings, inputs)?;
    super::run_stored(&study, out, "cells.jsonl", runner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gendisc_discriminative::logistic::r_logit_linkinv;

    #[test]
    fn clamped_log_odds_reproduce_r_response() {
        let eta = Array1::from(vec![
            -45.0, -30.5, -30.0, -3.0, 0.0, 12.0, 30.0, 30.5, 800.0,
        ]);
        let clamped = r_clamped_log_odds(eta.clone());
        for (&e, &c) in eta.iter().zip(clamped.iter()) {
            let r = r_logit_linkinv(e);
            let ours = gendisc_core::numerics::sigmoid(c);
            // exp(−52 ln 2) carries the rounding of 52 ln 2 magnified by 36: ~1e-15 relative.
            assert!((ours - r).abs() <= 1e-13 * r, "η = {e}: {ours} vs {r}");
        }
    }

    #[test]
    fn evaluation_counts_ties_as_the_first_class() {
        let y = Array1::from(vec![0, 1, 1]);
        let eval =
            Evaluation::from_log_odds(Array1::from(vec![0.0, 0.0, 2.0]).view(), y.view()).unwrap();
        assert!((eval.error_rate - 1.0 / 3.0).abs() < 1e-15);
        let expected = 2.0 * 2f64.ln() + (1.0 + (-2f64).exp()).ln();
        assert!((eval.loss_sum - expected).abs() < 1e-14);
    }

    #[test]
    fn the_evaluator_reuses_only_bit_identical_log_odds() {
        let y = Array1::from(vec![0, 1, 1]);
        let mut evaluator = Evaluator::new(y.view());
        let first = evaluator
            .evaluate(Array1::from(vec![0.5, -1.0, 2.0]))
            .unwrap();
        let again = evaluator
            .evaluate(Array1::from(vec![0.5, -1.0, 2.0]))
            .unwrap();
        assert_eq!(first.loss_sum.to_bits(), again.loss_sum.to_bits());
        assert_eq!(evaluator.done.len(), 1);
        // One ulp apart: evaluated anew.
        let next = f64::from_bits(2.0f64.to_bits() + 1);
        evaluator
            .evaluate(Array1::from(vec![0.5, -1.0, next]))
            .unwrap();
        assert_eq!(evaluator.done.len(), 2);
        // −0 and +0 are the same number but not the same bits: evaluated anew.
        evaluator
            .evaluate(Array1::from(vec![0.0, 0.0, 0.0]))
            .unwrap();
        let zeros = evaluator
            .evaluate(Array1::from(vec![-0.0, 0.0, 0.0]))
            .unwrap();
        assert_eq!(evaluator.done.len(), 4);
        let direct =
            Evaluation::from_log_odds(Array1::from(vec![-0.0, 0.0, 0.0]).view(), y.view()).unwrap();
        assert_eq!(zeros.loss_sum.to_bits(), direct.loss_sum.to_bits());
        assert_eq!(zeros.error_rate.to_bits(), direct.error_rate.to_bits());
    }

    #[test]
    fn the_peers_series_alone_are_the_whole_studys_bit_for_bit() {
        let whole = XueTitteringtonStudy::new(Settings::quick()).unwrap();
        let peers = XueTitteringtonStudy::new(Settings {
            peer_series_only: true,
            ..Settings::quick()
        })
        .unwrap();
        // Off, the switch is not part of the fingerprint (stored runs still resume); on, it is.
        assert!(!serde_json::to_string(whole.settings())
            .unwrap()
            .contains("peer_series_only"));
        assert_ne!(whole.fingerprint(), peers.fingerprint());
        let cell = Cell::new("normal-unequal-full", 100, 3);
        let (a, b) = (
            whole.run_cell(&cell).unwrap(),
            peers.run_cell(&cell).unwrap(),
        );
        for &classifier in Classifier::ALL {
            for &metric in Metric::ALL {
                let expected = match classifier {
                    Classifier::NaiveBayes | Classifier::LogisticRegression => {
                        a.value(classifier, metric)
                    }
                    _ => None,
                };
                assert_eq!(
                    b.value(classifier, metric).map(f64::to_bits),
                    expected.map(f64::to_bits),
                    "{classifier:?} {metric:?}"
                );
            }
        }
    }

    #[test]
    fn a_cell_is_deterministic_and_complete() {
        let study = XueTitteringtonStudy::new(Settings::quick()).unwrap();
        for cell in [
            Cell::new("normal-unequal-full", 100, 3),
            Cell::new("bernoulli-equal-block", 225, 0),
        ] {
            let a = study.run_cell(&cell).unwrap();
            let b = study.run_cell(&cell).unwrap();
            assert!(a.bitwise_eq(&b));
            for &classifier in Classifier::ALL {
                let er = a.value(classifier, Metric::Er).unwrap();
                assert!((0.0..=1.0).contains(&er));
                let ll = a.value(classifier, Metric::Ll).unwrap();
                let ll_mean = a.value(classifier, Metric::LlMean).unwrap();
                let n_test = (1000 - cell.train_size) as f64;
                assert!((ll / n_test - ll_mean).abs() < 1e-12);
            }
            // Separation is recorded for the glm fits only.
            use Classifier::{Hybrid, LogisticRegression, LogisticRegressionL2, NaiveBayes};
            let has = |c, m| a.value(c, m).is_some();
            assert!(has(LogisticRegression, Metric::Separated) && has(Hybrid, Metric::Separated));
            assert!(has(Hybrid, Metric::RWarning));
            assert!(
                !has(NaiveBayes, Metric::Separated)
                    && !has(LogisticRegressionL2, Metric::Separated)
            );
            assert!(!has(NaiveBayes, Metric::RWarning));
        }
    }

    /// A hybrid's θ as bits, with its fit's (separated, saturated, aliased regions).
    type ThetaAndFlags = (Vec<u64>, (bool, bool, Vec<usize>));

    /// θ of the normalized fit rewritten as unnormalized, and of the unnormalized fit.
    fn derived_and_fitted<G>(
        nb: G,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
    ) -> [ThetaAndFlags; 2]
    where
        G: Fit + LeaveOneOut + Clone,
        G::Model: FactorisedGenerative + Clone,
    {
        let fit = |normalization| {
            Hybrid::params(nb.clone())
                .regions(regions())
                .normalization(normalization)
                .fit(x, y)
                .unwrap()
        };
        let bits = |h: &Hybrid<G::Model>| {
            let report = h.report().unwrap();
            let flags = (
                report.separated,
                report.saturated,
                report.aliased_regions.clone(),
            );
            (
                h.theta().unwrap().iter().map(|v| v.to_bits()).collect(),
                flags,
            )
        };
        let normalized = fit(Normalization::Normalized);
        [
            bits(&normalized.with_normalization(Normalization::Unnormalized)),
            bits(&fit(Normalization::Unnormalized)),
        ]
    }

    #[test]
    fn the_derived_unnormalized_hybrid_is_its_fit_bit_for_bit() {
        let study = XueTitteringtonStudy::new(Settings::quick()).unwrap();
        for (index, dataset) in study.datasets.iter().enumerate() {
            for (m, replicate) in [(50, 0), (50, 1), (100, 2), (400, 0)] {
                let cell = Cell::new(dataset.preset.name(), m, replicate);
                let (train, _) = study.training_and_test_rows(index, &cell).unwrap();
                let x = take_rows(dataset.x.view(), &train).unwrap();
                let y = take(dataset.y.view(), &train).unwrap();
                let [derived, fitted] = match dataset.preset.family() {
                    FeatureFamily::Normal => derived_and_fitted(
                        GaussianNb::params()
                            .variance_estimator(VarianceEstimator::Unbiased)
                            .var_smoothing(1e-15),
                        x.view(),
                        y.view(),
                    ),
                    FeatureFamily::Bernoulli => {
                        derived_and_fitted(BernoulliNb::params(), x.view(), y.view())
                    }
                };
                assert_eq!(derived, fitted, "{cell}");
            }
        }
    }

    #[test]
    fn the_report_states_as_many_verdict_lines_as_verdicts_csv_has_rows() {
        let study = XueTitteringtonStudy::new(Settings {
            sizes: vec![100, 250, 400],
            replicates: 6,
            ..Settings::paper()
        })
        .unwrap();
        let results = gendisc_engine::Runner::new(RunnerSettings {
            progress: gendisc_engine::runner::Progress::Never,
            ..RunnerSettings::default()
        })
        .unwrap()
        .run(&study)
        .unwrap();
        let dir = std::env::temp_dir().join(format!("gendisc-xt-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write_outputs(&dir, &study, &results).unwrap();
        let report = std::fs::read_to_string(dir.join("REPORT.md")).unwrap();
        let csv = std::fs::read_to_string(dir.join("verdicts.csv")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let rows = gendisc_engine::verdict::read_verdicts_csv(&csv).unwrap();
        // Conclusions 1, 2 and 2 at large m under each reading of "the best", and conclusion 3.
        assert_eq!(rows.len(), 3 * claims::READINGS.len() + 1, "{csv}");
        let lines = gendisc_engine::verdict::count_verdict_lines(&report);
        assert_eq!(lines, rows.len(), "{report}");
        for reading in claims::READINGS {
            assert!(report.contains(reading.name()), "{report}");
        }
    }
}
