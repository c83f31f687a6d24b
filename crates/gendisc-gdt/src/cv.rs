//! `λ` by stratified k-fold cross-validation over a grid, with warm starts along the λ path
//! (Bouchard & Triggs 2004, §3, "Choice of λ").
//!
//! In each fold the grid is fitted from `λ = max` down to `λ = min`, each fit starting at the
//! previous one ([`GdtValidParams::fit_path`]), so that one generative fit and a few CG
//! iterations per grid point are all a fold costs. The chosen `λ̂` minimises the criterion
//! averaged over the folds (each fold's score is its mean over its held-out rows); ties go to
//! the larger `λ`, the more generative and lower-variance estimate. The model is then refitted
//! on all the data along the same path down to `λ̂`.
//!
//! The folds are drawn over the rows in their order (stratified, from `seed`), so a
//! permutation of the training rows gives other folds, and possibly another `λ̂`; with the same
//! `λ̂` the refit on all the rows is order-free to its optimiser's tolerance.
//!
//! The only row of a class is never held out: it stays in every fold's training rows, so that
//! every fold's fit sees every class ([`path_curve`]).
//!
//! **Candidates.** The estimator at `λ` is the maximiser of `L_λ`, so a value of the grid is a
//! candidate for `λ̂` only where that maximiser was reached, both on all the training rows and
//! in every fold ([`CvSelection::candidates`]):
//!
//! * The path is fitted on all the training rows first: its fit at `λ̂` is the model GDT-CV
//!   returns, so a value whose fit there proves that no finite maximiser exists (`λ = 0` on rows
//!   separated in the family's induced features, or Balls2's components; see
//!   [`crate::existence`]) or stops short of it (at the iteration cap, stalled, or at a
//!   non-finite objective — Balls2 with a variance floor at `λ = 0`, whose supremum is
//!   approached as a component widens without end) would return a point that is no estimate.
//!   The folds fit the grid only down to the smallest value whose fit on all the rows
//!   converged: below it no value can be chosen, and its held-out scores are not computed (NaN).
//! * A fold's fit that proves no finite maximiser exists, or stops short of its optimum, has no
//!   estimate to score — only the warm start, a point on a ray towards the supremum, or the
//!   point where the iterations ran out, whose held-out score says nothing of an estimate. The
//!   curve still records its score; [`CvSelection::without_maximiser`] and
//!   [`CvSelection::stopped_short`] count those folds.
//!
//! A grid with no candidate at all is an [`Error::Infeasible`].

use std::sync::atomic::{AtomicUsize, Ordering};

use ndarray::{Array1, ArrayView1, ArrayView2};
use serde::{Deserialize, Serialize};

use gendisc_core::model_file::invariants;
use gendisc_core::{
    Classifier, Convergence, Error, Fit, FitSummary, FitWeighted, Generative, ParamGuard, Result,
    SavedModel,
};
// The criterion and its held-out score are shared with every path cross-validation.
use gendisc_data::cv::{check_selection, in_which_fit, path_curve, Folds, StoredSelection};
pub use gendisc_data::cv::{score, CvCriterion, SelectionRule};

use crate::family::Family;
use crate::model::{check_gdt_parts, Gdt, GdtReport, NoMaximiser};
use crate::params::{check_lambda, validate, GdtParams, GdtValidParams};

/// The grid of Table 1: `λ ∈ {1, 0.75, 0.5, 0.25, 0}`.
pub const TABLE1_GRID: [f64; 5] = [1.0, 0.75, 0.5, 0.25, 0.0];

/// Hyper-parameters of [`GdtCv`], validated.
///
/// | parameter | default | meaning |
/// |---|---|---|
/// | `gdt` | [`Gdt::params`]`(family)` | the estimator (its own `λ` is ignored) |
/// | `grid` | [`TABLE1_GRID`] | candidate values of `λ`, each in `[0, 1]` (fitted in descending order) |
/// | `n_folds` | `5` | folds of the stratified k-fold split (≥ 2) |
/// | `n_repeats` | `1` | repetitions of the k-fold split, each drawn anew (≥ 1) |
/// | `seed` | `0` | seed of the `ChaCha8Rng` that draws the folds |
/// | `criterion` | [`CvCriterion::ErrorRate`] | what the held-out folds score |
/// | `rule` | [`SelectionRule::MinimumScore`] | which `λ` the curve selects among the candidates (the [module documentation](self)); [`SelectionRule::OneStandardError`] takes the largest within one standard error of the best |
/// | `require_convergence` | `false` | make any fit on all the training rows or in a fold that stops short of its optimum an [`Error::NotConverged`] instead of leaving its `λ` out (but for a fit that proves no finite maximiser exists: its `λ` is left out) |
///
/// The path is fitted on all the training rows, then in every fold down to the smallest `λ`
/// whose fit on all the rows converged. A value whose fit stops short of its optimum anywhere
/// (at its optimiser's iteration cap, say) is no candidate, so the refit at `λ̂` — the path's
/// fit there — always converged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GdtCvValidParams {
    gdt: GdtValidParams,
    grid: Vec<f64>,
    n_folds: usize,
    #[serde(default = "gendisc_data::cv::one_repetition")]
    n_repeats: usize,
    seed: u64,
    criterion: CvCriterion,
    #[serde(default)]
    rule: SelectionRule,
    #[serde(default)]
    require_convergence: bool,
}

/// Builder for [`GdtCvValidParams`]; see there for the table of parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GdtCvParams(GdtCvValidParams);

impl GdtCvParams {
    /// The default settings for `family`.
    pub fn new(family: Family) -> Self {
        Self(GdtCvValidParams {
            gdt: Gdt::params(family).0,
            grid: TABLE1_GRID.to_vec(),
            n_folds: 5,
            n_repeats: 1,
            seed: 0,
            criterion: CvCriterion::ErrorRate,
            rule: SelectionRule::MinimumScore,
            require_convergence: false,
        })
    }
    /// The estimator's settings (its `λ` is ignored).
    pub fn gdt(mut self, gdt: GdtParams) -> Self {
        self.0.gdt = gdt.0;
        self
    }
    /// The candidate values of `λ` (default [`TABLE1_GRID`]).
    pub fn grid(mut self, grid: Vec<f64>) -> Self {
        self.0.grid = grid;
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
    /// Which `λ` the cross-validated curve selects (default the minimum score).
    pub fn rule(mut self, rule: SelectionRule) -> Self {
        self.0.rule = rule;
        self
    }
    /// The criterion (default the error rate).
    pub fn criterion(mut self, criterion: CvCriterion) -> Self {
        self.0.criterion = criterion;
        self
    }
    /// Whether a fit of the cross-validation (any λ on all the training rows or in a fold)
    /// that stops short of its optimum is an error (default `false`): an
    /// [`Error::NotConverged`] naming the fit, the fold, its iterations and its last gradient
    /// norm. Without it such a fit's `λ` is no candidate for `λ̂` (the
    /// [module documentation](self)). The estimator's own [`GdtParams::require_convergence`]
    /// has the same effect; either turns it on. A fit that proves no finite maximiser exists
    /// is never an error here: its `λ` is no candidate.
    pub fn require_convergence(mut self, require: bool) -> Self {
        self.0.require_convergence = require;
        self
    }
}

impl ParamGuard for GdtCvParams {
    type Checked = GdtCvValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        let p = &self.0;
        validate(&p.gdt)?;
        if p.grid.is_empty() {
            return Err(Error::invalid_parameter("grid", "the λ grid is empty"));
        }
        for &l in &p.grid {
            check_lambda(l).map_err(|_| {
                Error::invalid_parameter("grid", format!("every λ must lie in [0, 1], got {l}"))
            })?;
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

/// The cross-validated curve and the chosen `λ̂`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CvSelection {
    /// The grid, descending.
    pub grid: Vec<f64>,
    /// The criterion averaged over the folds, one per grid value.
    #[serde(with = "gendisc_core::model_file::non_finite::vec")]
    pub scores: Vec<f64>,
    /// The standard error of each score (empty in model files written before they were
    /// recorded).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        with = "gendisc_core::model_file::non_finite::vec"
    )]
    pub standard_errors: Vec<f64>,
    /// The rule that chose `λ̂` from the scores.
    #[serde(default, skip_serializing_if = "SelectionRule::is_minimum_score")]
    pub rule: SelectionRule,
    /// The chosen `λ̂`.
    pub lambda: f64,
    /// How many of the folds' fits at each grid value proved that no finite maximiser exists
    /// there ([`GdtReport::has_no_maximiser`]: `λ = 0` on rows separated in the family's
    /// induced features, or Balls2's components). A value with any such fold is no candidate
    /// for `λ̂`: those folds have no estimate to score. Empty when no fold's fit proved it (and
    /// in model files written before this was recorded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub without_maximiser: Vec<usize>,
    /// How many of the folds' fits at each grid value stopped short of their optimum (at the
    /// iteration cap, stalled, or at a non-finite objective) without proving that none exists.
    /// A value with any such fold is no candidate for `λ̂`. Empty when none did (and in model
    /// files written before this was recorded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stopped_short: Vec<usize>,
    /// What the fit on all the training rows came to at each grid value — the model GDT-CV
    /// returns, were that value chosen. A value where it is not [`FitOutcome::Converged`] is
    /// no candidate, and the folds do not fit the values below the last one that is (their
    /// scores are NaN). Empty in model files written before this was recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refits: Vec<FitOutcome>,
}

/// What a fit at one value of the grid came to — on all the training rows ([`CvSelection::refits`])
/// or in a fold (counted in [`CvSelection::without_maximiser`] and
/// [`CvSelection::stopped_short`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FitOutcome {
    /// It met its convergence criterion: the estimate at that `λ`.
    Converged,
    /// It proved that no finite maximiser exists ([`GdtReport::has_no_maximiser`]).
    NoMaximiser,
    /// It stopped short of its optimum: at the iteration cap, stalled, or at a non-finite
    /// objective.
    StoppedShort,
}

impl FitOutcome {
    /// The outcome a fit's report records.
    pub fn of(report: &GdtReport) -> Self {
        if report.has_no_maximiser() {
            Self::NoMaximiser
        } else if report.is_converged() {
            Self::Converged
        } else {
            Self::StoppedShort
        }
    }
}

/// Equal selections have the same scores bit for bit where they are not NaN (a value the folds
/// did not fit has none), and the same everything else.
impl PartialEq for CvSelection {
    fn eq(&self, other: &Self) -> bool {
        let same = |a: &[f64], b: &[f64]| {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(a, b)| a == b || (a.is_nan() && b.is_nan()))
        };
        self.grid == other.grid
            && same(&self.scores, &other.scores)
            && same(&self.standard_errors, &other.standard_errors)
            && self.rule == other.rule
            && self.lambda == other.lambda
            && self.without_maximiser == other.without_maximiser
            && self.stopped_short == other.stopped_short
            && self.refits == other.refits
    }
}

impl CvSelection {
    /// Whether each grid value could be chosen: its fit on all the training rows converged,
    /// and no fold's fit there lacks a maximiser or stopped short of it.
    pub fn candidates(&self) -> Vec<bool> {
        (0..self.grid.len())
            .map(|j| self.exclusion(j).is_none())
            .collect()
    }

    /// Why each grid value is no candidate for `λ̂`, in words (`None` where it is one).
    pub fn exclusions(&self) -> Vec<Option<String>> {
        (0..self.grid.len()).map(|j| self.exclusion(j)).collect()
    }

    fn exclusion(&self, j: usize) -> Option<String> {
        Outcomes {
            refits: &self.refits,
            without_maximiser: &self.without_maximiser,
            stopped_short: &self.stopped_short,
        }
        .exclusion(j)
    }
}

/// What the fits came to at each grid value, as a [`CvSelection`] records it: what decides
/// which values are candidates, before `λ̂` is chosen among them.
struct Outcomes<'a> {
    refits: &'a [FitOutcome],
    without_maximiser: &'a [usize],
    stopped_short: &'a [usize],
}

impl Outcomes<'_> {
    /// Why grid value `j` is no candidate for `λ̂`, in words (`None` where it is one).
    fn exclusion(&self, j: usize) -> Option<String> {
        let folds = |counts: &[usize]| counts.get(j).copied().filter(|&n| n > 0);
        match self.refits.get(j) {
            Some(FitOutcome::NoMaximiser) => {
                return Some("no finite maximiser on the training rows".into())
            }
            Some(FitOutcome::StoppedShort) => {
                return Some("the fit on the training rows stopped short of its optimum".into())
            }
            _ => {}
        }
        match (folds(self.without_maximiser), folds(self.stopped_short)) {
            (None, None) => None,
            (Some(n), None) => Some(format!("no finite maximiser in {n} of the folds")),
            (None, Some(n)) => Some(format!("stopped short of its optimum in {n} of the folds")),
            (Some(n), Some(m)) => Some(format!(
                "no finite maximiser in {n} of the folds, stopped short of it in {m}"
            )),
        }
    }
}

impl GdtCvValidParams {
    /// How the folds are drawn.
    pub fn folds(&self) -> Folds {
        Folds {
            n_folds: self.n_folds,
            n_repeats: self.n_repeats,
            seed: self.seed,
        }
    }

    /// The grid, descending and without duplicates: the order of the warm-started path.
    pub fn grid(&self) -> Vec<f64> {
        let mut grid = self.grid.clone();
        grid.sort_by(|a, b| b.total_cmp(a));
        grid.dedup();
        grid
    }

    /// The estimator's settings.
    pub fn gdt(&self) -> &GdtValidParams {
        &self.gdt
    }

    /// Whether a fit that stops without converging is an error, as set here or on the
    /// estimator ([`GdtCvParams::require_convergence`]).
    pub fn require_convergence(&self) -> bool {
        self.require_convergence || self.gdt.require_convergence
    }

    /// The estimator's settings as every fit of the cross-validation uses them.
    fn fit_settings(&self, n_classes: Option<usize>) -> GdtValidParams {
        GdtValidParams {
            n_classes,
            require_convergence: self.require_convergence(),
            ..self.gdt.clone()
        }
    }

    /// Scores every `λ` of the grid by stratified k-fold cross-validation on `(x, y)` and
    /// picks `λ̂` among the candidates (the [module documentation](self)), without returning a
    /// model: it fits the path on all the rows first, to learn where the estimator was reached
    /// there. Sample weights, when given, weight both the fits and the scores.
    ///
    /// Errors: those of the fits, and [`Error::Infeasible`] when no value of the grid is a
    /// candidate (a grid of `λ = 0` alone, on separated rows).
    pub fn select(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Result<CvSelection> {
        let path = self.fit_on_all_rows(x, y, sample_weight)?;
        self.select_given_path(x, y, sample_weight, &path)
    }

    /// [`Self::select`] for a caller that has already fitted the path on the same rows with
    /// the same settings (`path`, one fit per value of [`Self::grid`], in its order — e.g. a
    /// path it reports): the selection is the one [`Self::select`] makes, without fitting the
    /// path again.
    ///
    /// Errors: [`Error::InvalidParameter`] when `path` does not match the grid, the family or
    /// the rows' features; otherwise those of [`Self::select`].
    pub fn select_given_path(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
        path: &[Gdt],
    ) -> Result<CvSelection> {
        gendisc_core::validate::check_training_matrix(x)?;
        if y.len() != x.nrows() {
            return Err(Error::shape_mismatch(
                "length of y vs rows of x",
                x.nrows(),
                y.len(),
            ));
        }
        let grid = self.grid();
        let lambdas: Vec<f64> = path.iter().map(Gdt::lambda).collect();
        if lambdas != grid {
            return Err(Error::invalid_parameter(
                "path",
                format!("the path's λ are {lambdas:?}, but the grid is {grid:?}"),
            ));
        }
        if let Some(model) = path
            .iter()
            .find(|m| m.family() != self.gdt.family || Classifier::n_features(*m) != x.ncols())
        {
            return Err(Error::invalid_parameter(
                "path",
                format!(
                    "a fit of {} on {} features, for a cross-validation of {} on {}",
                    model.family(),
                    Classifier::n_features(model),
                    self.gdt.family,
                    x.ncols()
                ),
            ));
        }
        // Each fold must see every class: fix K from the whole training set.
        let k = self
            .gdt
            .n_classes
            .unwrap_or_else(|| y.iter().max().map_or(0, |m| m + 1).max(2));
        let gdt = self.fit_settings(Some(k));
        self.criterion.check_classes(k)?;
        let refits: Vec<FitOutcome> = path.iter().map(|m| FitOutcome::of(m.report())).collect();
        // Below the last value reached on all the rows nothing can be chosen: the folds stop
        // there (the values above it they fit all the same, for the warm starts).
        let Some(last) = refits.iter().rposition(|&r| r == FitOutcome::Converged) else {
            return Err(no_candidate());
        };
        let fold_grid = &grid[..=last];
        let folds = self.folds();
        // Counts, not lists of folds: the folds run in parallel, and a count is the same
        // whatever their order.
        let counters =
            || -> Vec<AtomicUsize> { grid.iter().map(|_| AtomicUsize::new(0)).collect() };
        let (without_maximiser, stopped_short) = (counters(), counters());
        let curve = path_curve(y, folds, grid.len(), |r, f, fold| {
            let xt = x.select(ndarray::Axis(0), &fold.train);
            let yt = y.select(ndarray::Axis(0), &fold.train);
            let wt = sample_weight.map(|w| w.select(ndarray::Axis(0), &fold.train));
            let xv = x.select(ndarray::Axis(0), &fold.test);
            let yv = y.select(ndarray::Axis(0), &fold.test);
            let wv = sample_weight.map(|w| w.select(ndarray::Axis(0), &fold.test));
            let fold_path = gdt
                .fit_path_returning(
                    fold_grid,
                    xt.view(),
                    yt.view(),
                    wt.as_ref().map(|w| w.view()),
                    // Such a fit is not scored as an estimate: its λ is no candidate.
                    NoMaximiser::Returned,
                )
                .map_err(|e| in_which_fit(e, &folds.describe(r, f)))?;
            let mut scores = vec![f64::NAN; grid.len()];
            for (j, model) in fold_path.iter().enumerate() {
                let counter = match FitOutcome::of(model.report()) {
                    FitOutcome::Converged => None,
                    FitOutcome::NoMaximiser => Some(&without_maximiser[j]),
                    FitOutcome::StoppedShort => Some(&stopped_short[j]),
                };
                if let Some(counter) = counter {
                    counter.fetch_add(1, Ordering::Relaxed);
                }
                scores[j] = score(
                    model,
                    &self.criterion,
                    xv.view(),
                    yv.view(),
                    wv.as_ref().map(|w| w.view()),
                )?;
            }
            Ok(scores)
        })?;
        let counts = |counters: Vec<AtomicUsize>| -> Vec<usize> {
            let counts: Vec<usize> = counters.into_iter().map(AtomicUsize::into_inner).collect();
            if counts.iter().all(|&n| n == 0) {
                Vec::new()
            } else {
                counts
            }
        };
        let (without_maximiser, stopped_short) = (counts(without_maximiser), counts(stopped_short));
        let outcomes = Outcomes {
            refits: &refits,
            without_maximiser: &without_maximiser,
            stopped_short: &stopped_short,
        };
        let candidates: Vec<bool> = (0..grid.len())
            .map(|j| outcomes.exclusion(j).is_none())
            .collect();
        let chosen = self
            .rule
            .select_among(&curve.scores, &curve.standard_errors, &candidates)
            .map_err(|e| match e {
                Error::Infeasible { .. } => no_candidate(),
                other => other,
            })?;
        Ok(CvSelection {
            lambda: grid[chosen],
            grid,
            scores: curve.scores,
            standard_errors: curve.standard_errors,
            rule: self.rule,
            without_maximiser,
            stopped_short,
            refits,
        })
    }

    /// The path over the grid on all the training rows, a fit without a maximiser returned
    /// (its `λ` is no candidate).
    fn fit_on_all_rows(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<Vec<Gdt>> {
        self.fit_settings(self.gdt.n_classes)
            .fit_path_returning(&self.grid(), x, y, w, NoMaximiser::Returned)
            .map_err(|e| in_which_fit(e, "the fit on all the training rows"))
    }

    fn fit_impl(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<GdtCv> {
        let mut path = self.fit_on_all_rows(x, y, w)?;
        let selection = self.select_given_path(x, y, w, &path)?;
        // The refit at λ̂ is the path's fit there: the same warm-started fits from λ = max.
        let chosen = selection
            .grid
            .iter()
            .position(|&l| l == selection.lambda)
            .expect("λ̂ is on the grid");
        let model = path.swap_remove(chosen);
        Ok(GdtCv { model, selection })
    }
}

/// The error of a grid without a candidate for `λ̂`.
fn no_candidate() -> Error {
    Error::Infeasible {
        what: "the choice of λ by cross-validation".into(),
        detail: "no λ of the grid has an estimate on the training rows and in every fold (at \
                 λ = 0 the rows may be separated, or the fits stop short of a supremum at \
                 infinity); add a λ > 0 to the grid"
            .into(),
    }
}

/// GDT with `λ` chosen by cross-validation: the refitted model and the selection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GdtCv {
    model: Gdt,
    selection: CvSelection,
}

impl GdtCv {
    /// The default settings for `family`.
    ///
    /// ```
    /// use gendisc_core::{Classifier, ParamGuard, Fit};
    /// use gendisc_gdt::{Family, GdtCv};
    /// use ndarray::{array, Array1, Array2};
    ///
    /// let x = Array2::from_shape_fn((40, 2), |(i, j)| ((i * 7 + j * 3) % 11) as f64 / 3.0
    ///     + if i % 2 == 1 { 1.5 } else { 0.0 });
    /// let y = Array1::from_shape_fn(40, |i| i % 2);
    /// let cv = GdtCv::params(Family::Lda).n_folds(4).check()?.fit(x.view(), y.view())?;
    /// assert!(cv.selection().grid.contains(&cv.lambda()));
    /// # Ok::<(), gendisc_core::Error>(())
    /// ```
    pub fn params(family: Family) -> GdtCvParams {
        GdtCvParams::new(family)
    }

    /// The model refitted on all the training data at `λ̂`.
    pub fn model(&self) -> &Gdt {
        &self.model
    }

    /// The chosen `λ̂`.
    pub fn lambda(&self) -> f64 {
        self.selection.lambda
    }

    /// The cross-validated scores.
    pub fn selection(&self) -> &CvSelection {
        &self.selection
    }
}

/// Selects `λ̂` and refits on all the data; the fits can stop at their iteration caps (see
/// [`GdtCvValidParams`] and [`GdtCvParams::require_convergence`]).
impl Fit for GdtCvValidParams {
    type Model = GdtCv;

    fn fit(&self, x: ArrayView2<'_, f64>, y: ArrayView1<'_, usize>) -> Result<GdtCv> {
        self.fit_impl(x, y, None)
    }
}

impl FitWeighted for GdtCvValidParams {
    fn fit_weighted(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: ArrayView1<'_, f64>,
    ) -> Result<GdtCv> {
        self.fit_impl(x, y, Some(sample_weight))
    }
}

impl Classifier for GdtCv {
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

impl SavedModel for GdtCv {
    const KIND: &'static str = "gdt-cv";

    fn cross_validation(&self) -> Option<gendisc_core::CrossValidationCurve> {
        let selection = &self.selection;
        Some(gendisc_core::CrossValidationCurve {
            parameter: "trade-off λ",
            grid: selection.grid.clone(),
            scores: selection.scores.clone(),
            standard_errors: selection.standard_errors.clone(),
            rule: selection.rule.describe().into(),
            chosen: selection.lambda,
            excluded: selection.exclusions(),
        })
    }

    /// Checks the refitted model as [`Gdt`]'s invariants (fields under `model.`), and the
    /// selection: a non-empty grid of values in `[0, 1]`, strictly descending; one score (and,
    /// where stored, standard error) per grid value, finite and non-negative at every candidate;
    /// as many counts and refit outcomes as grid values, where stored; `λ̂` the value the stored
    /// rule selects among the candidates; and the refitted model's `λ` equal to `λ̂`, its
    /// outcome the one recorded there.
    fn check_invariants(&self) -> Result<()> {
        let model = &self.model;
        check_gdt_parts(
            Self::KIND,
            "model.",
            model.parametrisation(),
            model.theta(),
            model.report(),
            model.scale(),
        )?;
        let invalid = |field: &str, reason: String| invariants::invalid(Self::KIND, field, reason);
        let selection = &self.selection;
        let (grid, lambda) = (&selection.grid, &selection.lambda);
        if grid.is_empty() {
            return Err(invalid("selection.grid", "the λ grid is empty".into()));
        }
        if let Some(l) = grid.iter().find(|l| !(0.0..=1.0).contains(*l)) {
            return Err(invalid(
                "selection.grid",
                format!("every λ must lie in [0, 1], got {l}"),
            ));
        }
        if let Some(pair) = grid.windows(2).find(|pair| pair[0] <= pair[1]) {
            return Err(invalid(
                "selection.grid",
                format!(
                    "the grid must be strictly descending; {} comes before {}",
                    pair[0], pair[1]
                ),
            ));
        }
        let lengths = [
            ("without_maximiser", selection.without_maximiser.len()),
            ("stopped_short", selection.stopped_short.len()),
            ("refits", selection.refits.len()),
        ];
        if let Some((field, n)) = lengths.iter().find(|(_, n)| *n != 0 && *n != grid.len()) {
            return Err(invalid(
                &format!("selection.{field}"),
                format!("{n} entries for a grid of {} values", grid.len()),
            ));
        }
        check_selection(
            Self::KIND,
            "selection",
            "lambda",
            StoredSelection {
                grid,
                scores: &selection.scores,
                standard_errors: &selection.standard_errors,
                candidates: &selection.candidates(),
                rule: selection.rule,
                chosen: *lambda,
            },
        )?;
        if model.lambda() != *lambda {
            return Err(invalid(
                "model.report.lambda",
                format!(
                    "the refitted model has λ = {}, but the selection chose {lambda}",
                    model.lambda()
                ),
            ));
        }
        let chosen = grid.iter().position(|l| l == lambda);
        if let Some(recorded) = chosen.and_then(|j| selection.refits.get(j)) {
            let outcome = FitOutcome::of(model.report());
            if outcome != *recorded {
                return Err(invalid(
                    "model.report.status",
                    format!(
                        "the refitted model's fit is {outcome:?}, but the selection records \
                         {recorded:?} at λ̂"
                    ),
                ));
            }
        }
        Ok(())
    }

    fn fit_summary(&self) -> Option<FitSummary> {
        let mut summary = self.model.fit_summary()?;
        summary.status = format!(
            "refit at the cross-validated λ̂ = {}: {}",
            self.selection.lambda, summary.status
        );
        Some(summary)
    }
}

impl Generative for GdtCv {
    fn log_prior(&self) -> Array1<f64> {
        self.model.log_prior()
    }
    fn class_log_likelihood(&self, x: ArrayView2<'_, f64>) -> Result<ndarray::Array2<f64>> {
        self.model.class_log_likelihood(x)
    }
}

gendisc_core::impl_conditional_model_by_bayes!(GdtCv);
