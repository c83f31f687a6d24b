//! The prior variance `σ²` of logistic regression chosen by stratified k-fold cross-validation
//! over a grid, with warm starts along the path (scikit-learn's `LogisticRegressionCV`, whose
//! `C` is our `σ²`).
//!
//! In each fold the grid is fitted from the smallest `σ²` (the strongest prior) up, each fit
//! starting at the previous one; the chosen `σ̂²` minimises the held-out criterion averaged over
//! the folds, ties going to the smaller `σ²` — the more regularised estimate. The model is then
//! refitted on all the data along the same path up to `σ̂²`. Folds, averaging and the tie rule
//! are those of every path cross-validation ([`gendisc_data::cv`]).
//!
//! The folds are drawn over the rows in their order, so a permutation of the training rows
//! gives other folds, and possibly another `σ̂²`; with the same `σ̂²` the refit on all the rows
//! is order-free to the solver's tolerance.
//!
//! The only row of a class is never held out: it stays in every fold's training rows, so that
//! every fold's fit sees every class ([`path_curve`]).

use gendisc_core::model_file::invariants;
use gendisc_core::{
    Classifier, ConditionalModel, CrossValidationCurve, Error, Fit, FitSummary, FitWeighted,
    ParamGuard, Result, SavedModel,
};
use gendisc_data::cv::{
    check_selection, in_which_fit, path_curve, score, CvCriterion, Folds, SelectionRule,
    StoredSelection,
};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use serde::{Deserialize, Serialize};

use super::model::LogisticRegression;
use super::params::{LogisticRegressionParams, LogisticRegressionValidParams, LogisticSolver};

/// The default grid of prior variances: ten values log-spaced from `10⁻⁴` to `10⁴`, the `C`
/// values of scikit-learn's `LogisticRegressionCV(Cs=10)`.
pub fn default_prior_variances() -> Vec<f64> {
    (0..10)
        .map(|k| 10f64.powf(-4.0 + 8.0 * k as f64 / 9.0))
        .collect()
}

/// Hyper-parameters of [`LogisticRegressionCv`], validated.
///
/// | parameter | default | meaning |
/// |---|---|---|
/// | `logistic` | [`LogisticRegression::params`] | the estimator (its own prior variance and warm start are ignored) |
/// | `prior_variances` | [`default_prior_variances`] | candidate `σ²`, each finite and `> 0` (fitted in ascending order) |
/// | `n_folds` | `5` | folds of the stratified k-fold split (≥ 2) |
/// | `n_repeats` | `1` | repetitions of the k-fold split, each drawn anew (≥ 1) |
/// | `seed` | `0` | seed of the `ChaCha8Rng` that draws the folds |
/// | `criterion` | [`CvCriterion::LogLoss`] | what the held-out folds score |
/// | `rule` | [`SelectionRule::MinimumScore`] | which `σ²` the curve selects; [`SelectionRule::OneStandardError`] takes the smallest within one standard error of the best |
///
/// The default criterion is the log loss rather than scikit-learn's accuracy: a proper scoring
/// rule that moves with `σ²` where the error rate is flat, so ties between grid values are rare.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogisticRegressionCvValidParams {
    logistic: LogisticRegressionValidParams,
    prior_variances: Vec<f64>,
    n_folds: usize,
    /// Absent from parameters serialised before repetitions existed: one.
    #[serde(default = "gendisc_data::cv::one_repetition")]
    n_repeats: usize,
    seed: u64,
    criterion: CvCriterion,
    #[serde(default)]
    rule: SelectionRule,
}

/// Builder for [`LogisticRegressionCvValidParams`]; see there for the table of parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogisticRegressionCvParams(LogisticRegressionCvValidParams);

impl Default for LogisticRegressionCvParams {
    fn default() -> Self {
        Self(LogisticRegressionCvValidParams {
            logistic: LogisticRegressionValidParams::default(),
            prior_variances: default_prior_variances(),
            n_folds: 5,
            n_repeats: 1,
            seed: 0,
            criterion: CvCriterion::LogLoss,
            rule: SelectionRule::MinimumScore,
        })
    }
}

impl LogisticRegressionCvParams {
    /// The default settings.
    pub fn new() -> Self {
        Self::default()
    }
    /// The estimator's settings (its prior variance and warm start are ignored).
    pub fn logistic(mut self, logistic: LogisticRegressionParams) -> Self {
        self.0.logistic = logistic.0;
        self
    }
    /// The candidate prior variances (default [`default_prior_variances`]).
    pub fn prior_variances(mut self, prior_variances: Vec<f64>) -> Self {
        self.0.prior_variances = prior_variances;
        self
    }
    /// The number of folds (default 5).
    pub fn n_folds(mut self, n_folds: usize) -> Self {
        self.0.n_folds = n_folds;
        self
    }
    /// The number of repetitions of the k-fold split, each drawn anew from the seed's stream
    /// (default 1: plain stratified k-fold).
    pub fn n_repeats(mut self, n_repeats: usize) -> Self {
        self.0.n_repeats = n_repeats;
        self
    }
    /// The seed of the fold split (default 0).
    pub fn seed(mut self, seed: u64) -> Self {
        self.0.seed = seed;
        self
    }
    /// Which prior variance the cross-validated curve selects (default the minimum score).
    pub fn rule(mut self, rule: SelectionRule) -> Self {
        self.0.rule = rule;
        self
    }
    /// The criterion (default the log loss).
    pub fn criterion(mut self, criterion: CvCriterion) -> Self {
        self.0.criterion = criterion;
        self
    }
}

impl ParamGuard for LogisticRegressionCvParams {
    type Checked = LogisticRegressionCvValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        let p = &self.0;
        LogisticRegressionParams(p.logistic.clone()).check()?;
        if p.logistic.solver == LogisticSolver::GlmIrls {
            return Err(Error::invalid_parameter(
                "solver",
                "the glm solver fits no prior; choose another to cross-validate the prior variance",
            ));
        }
        if p.prior_variances.is_empty() {
            return Err(Error::invalid_parameter(
                "prior_variances",
                "the grid of prior variances is empty",
            ));
        }
        if let Some(v) = p
            .prior_variances
            .iter()
            .find(|v| !(v.is_finite() && **v > 0.0))
        {
            return Err(Error::invalid_parameter(
                "prior_variances",
                format!("every prior variance must be finite and > 0, got {v}"),
            ));
        }
        p.folds().validate()?;
        p.criterion.validate()?;
        Ok(p)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}

/// The cross-validated curve and the chosen prior variance `σ̂²`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriorVarianceSelection {
    /// The grid, ascending.
    pub prior_variances: Vec<f64>,
    /// The criterion averaged over the folds, one per grid value.
    pub scores: Vec<f64>,
    /// The standard error of each score (empty in model files written before they were
    /// recorded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub standard_errors: Vec<f64>,
    /// The rule that chose `σ̂²` from the scores.
    #[serde(default, skip_serializing_if = "SelectionRule::is_minimum_score")]
    pub rule: SelectionRule,
    /// The chosen `σ̂²`.
    pub prior_variance: f64,
}

impl LogisticRegressionCvValidParams {
    /// How the folds are drawn.
    pub fn folds(&self) -> Folds {
        Folds {
            n_folds: self.n_folds,
            n_repeats: self.n_repeats,
            seed: self.seed,
        }
    }

    /// The grid, ascending and without duplicates: the order of the warm-started path.
    pub fn prior_variances(&self) -> Vec<f64> {
        let mut grid = self.prior_variances.clone();
        grid.sort_by(f64::total_cmp);
        grid.dedup();
        grid
    }

    /// The fits of `path` (ascending prior variances) on `(x, y)`, each warm-started at the
    /// previous one.
    fn fit_path(
        &self,
        path: &[f64],
        n_classes: Option<usize>,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<Vec<LogisticRegression>> {
        let mut models: Vec<LogisticRegression> = Vec::with_capacity(path.len());
        for &variance in path {
            let mut params = LogisticRegressionParams(LogisticRegressionValidParams {
                n_classes,
                ..self.logistic.clone()
            })
            .prior_variance(variance)
            .no_warm_start();
            if let Some(previous) = models.last() {
                params = params.warm_start(previous);
            }
            let params = params.check()?;
            models.push(match w {
                Some(w) => params.fit_weighted(x, y, w)?,
                None => params.fit(x, y)?,
            });
        }
        Ok(models)
    }

    /// Scores every prior variance of the grid by stratified k-fold cross-validation on
    /// `(x, y)` and picks `σ̂²` (no refit). Sample weights, when given, weight both the fits
    /// and the scores.
    pub fn select(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Result<PriorVarianceSelection> {
        gendisc_core::validate::check_training_matrix(x)?;
        if y.len() != x.nrows() {
            return Err(Error::shape_mismatch(
                "length of y vs rows of x",
                x.nrows(),
                y.len(),
            ));
        }
        // Each fold must know every class: fix K from the whole training set.
        let k = self
            .logistic
            .n_classes
            .unwrap_or_else(|| y.iter().max().map_or(0, |m| m + 1).max(2));
        self.criterion.check_classes(k)?;
        let grid = self.prior_variances();
        let folds = self.folds();
        let curve = path_curve(y, folds, grid.len(), |r, f, fold| {
            let rows = |v: ArrayView1<'_, f64>, rows: &[usize]| v.select(Axis(0), rows);
            let (xt, yt) = (
                x.select(Axis(0), &fold.train),
                y.select(Axis(0), &fold.train),
            );
            let (xv, yv) = (x.select(Axis(0), &fold.test), y.select(Axis(0), &fold.test));
            let wt = sample_weight.map(|w| rows(w, &fold.train));
            let wv = sample_weight.map(|w| rows(w, &fold.test));
            let path = self
                .fit_path(
                    &grid,
                    Some(k),
                    xt.view(),
                    yt.view(),
                    wt.as_ref().map(|w| w.view()),
                )
                .map_err(|e| in_which_fit(e, &folds.describe(r, f)))?;
            path.iter()
                .map(|model| {
                    score(
                        model,
                        &self.criterion,
                        xv.view(),
                        yv.view(),
                        wv.as_ref().map(|w| w.view()),
                    )
                })
                .collect()
        })?;
        let prior_variance = grid[self.rule.select(&curve.scores, &curve.standard_errors)?];
        Ok(PriorVarianceSelection {
            prior_variances: grid,
            scores: curve.scores,
            standard_errors: curve.standard_errors,
            rule: self.rule,
            prior_variance,
        })
    }

    fn fit_impl(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<LogisticRegressionCv> {
        let selection = self.select(x, y, w)?;
        let path: Vec<f64> = selection
            .prior_variances
            .iter()
            .copied()
            .filter(|&v| v <= selection.prior_variance)
            .collect();
        let model = self
            .fit_path(&path, self.logistic.n_classes, x, y, w)
            .map_err(|e| in_which_fit(e, "the refit on all the training data"))?
            .pop()
            .expect("the path contains σ̂²");
        Ok(LogisticRegressionCv { model, selection })
    }
}

/// Logistic regression with its prior variance chosen by cross-validation: the refitted model
/// and the selection.
///
/// ```
/// use gendisc_core::{Classifier, Fit, ParamGuard};
/// use gendisc_discriminative::logistic::LogisticRegressionCv;
/// use ndarray::{Array1, Array2};
///
/// let x = Array2::from_shape_fn((60, 2), |(i, j)| ((i * 7 + j * 3) % 11) as f64 / 3.0
///     + if i % 2 == 1 { 1.0 } else { 0.0 });
/// let y = Array1::from_shape_fn(60, |i| i % 2);
/// let cv = LogisticRegressionCv::params().n_folds(3).check()?.fit(x.view(), y.view())?;
/// assert!(cv.selection().prior_variances.contains(&cv.prior_variance()));
/// assert_eq!(cv.predict(x.view())?.len(), 60);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogisticRegressionCv {
    model: LogisticRegression,
    selection: PriorVarianceSelection,
}

impl LogisticRegressionCv {
    /// The default settings.
    pub fn params() -> LogisticRegressionCvParams {
        LogisticRegressionCvParams::new()
    }

    /// The model refitted on all the training data at `σ̂²`.
    pub fn model(&self) -> &LogisticRegression {
        &self.model
    }

    /// The chosen prior variance `σ̂²`.
    pub fn prior_variance(&self) -> f64 {
        self.selection.prior_variance
    }

    /// The cross-validated scores.
    pub fn selection(&self) -> &PriorVarianceSelection {
        &self.selection
    }
}

/// Selects `σ̂²` and refits on all the data.
impl Fit for LogisticRegressionCvValidParams {
    type Model = LogisticRegressionCv;

    fn fit(&self, x: ArrayView2<'_, f64>, y: ArrayView1<'_, usize>) -> Result<Self::Model> {
        self.fit_impl(x, y, None)
    }
}

impl FitWeighted for LogisticRegressionCvValidParams {
    fn fit_weighted(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: ArrayView1<'_, f64>,
    ) -> Result<Self::Model> {
        self.fit_impl(x, y, Some(sample_weight))
    }
}

impl Classifier for LogisticRegressionCv {
    fn n_features(&self) -> usize {
        self.model.n_features()
    }
    fn n_classes(&self) -> usize {
        self.model.n_classes()
    }
    fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Array1<usize>> {
        self.model.predict(x)
    }
}

impl ConditionalModel for LogisticRegressionCv {
    fn predict_log_proba(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        self.model.predict_log_proba(x)
    }
    fn decision_function(&self, x: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        self.model.decision_function(x)
    }
}

impl SavedModel for LogisticRegressionCv {
    const KIND: &'static str = "logistic-regression-cv";

    /// Checks the refitted model as [`LogisticRegression`]'s invariants (fields under
    /// `model.`), and the selection: a non-empty, strictly ascending grid of finite, positive
    /// prior variances; one finite, non-negative score (and, where stored, standard error) per
    /// grid value; and `σ̂²` the value the stored rule selects from them.
    fn check_invariants(&self) -> Result<()> {
        self.model.check_invariants().map_err(|error| match error {
            Error::InvalidModel { field, reason, .. } => {
                invariants::invalid(Self::KIND, &format!("model.{field}"), reason)
            }
            other => other,
        })?;
        let invalid = |field: &str, reason: String| invariants::invalid(Self::KIND, field, reason);
        let selection = &self.selection;
        let grid = &selection.prior_variances;
        if grid.is_empty() {
            return Err(invalid(
                "selection.prior_variances",
                "the grid is empty".into(),
            ));
        }
        if let Some(v) = grid.iter().find(|v| !(v.is_finite() && **v > 0.0)) {
            return Err(invalid(
                "selection.prior_variances",
                format!("every prior variance must be finite and > 0, got {v}"),
            ));
        }
        if let Some(pair) = grid.windows(2).find(|pair| pair[0] >= pair[1]) {
            return Err(invalid(
                "selection.prior_variances",
                format!(
                    "the grid must be strictly ascending; {} comes before {}",
                    pair[0], pair[1]
                ),
            ));
        }
        check_selection(
            Self::KIND,
            "selection",
            "prior_variance",
            StoredSelection {
                grid,
                scores: &selection.scores,
                standard_errors: &selection.standard_errors,
                candidates: &[],
                rule: selection.rule,
                chosen: selection.prior_variance,
            },
        )
    }

    fn cross_validation(&self) -> Option<CrossValidationCurve> {
        let selection = &self.selection;
        Some(CrossValidationCurve {
            parameter: "prior variance σ²",
            grid: selection.prior_variances.clone(),
            scores: selection.scores.clone(),
            standard_errors: selection.standard_errors.clone(),
            rule: selection.rule.describe().into(),
            chosen: selection.prior_variance,
            excluded: Vec::new(),
        })
    }

    fn fit_summary(&self) -> Option<FitSummary> {
        let mut summary = self.model.fit_summary()?;
        summary.status = format!(
            "refit at the cross-validated prior variance σ̂² = {}: {}",
            self.selection.prior_variance, summary.status
        );
        Some(summary)
    }
}
