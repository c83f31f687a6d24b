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
//! A `λ` at which some fold's fit proves that no finite maximiser exists (`λ = 0` on rows
//! separated in the family's induced features, or Balls2's components; see
//! [`crate::existence`]) is no candidate for `λ̂`: the estimator is the maximiser, and in that
//! fold there is none to score — only the point where the fit stopped, the warm start or a point
//! on a ray towards the supremum, whose held-out score says nothing of an estimate. The curve
//! still records that point's score, and [`CvSelection::without_maximiser`] how many folds had
//! none; a grid with no candidate at all is an [`Error::Infeasible`].

use std::sync::atomic::{AtomicUsize, Ordering};

use ndarray::{Array1, ArrayView1, ArrayView2};
use serde::{Deserialize, Serialize};

use gendisc_core::model_file::invariants;
use gendisc_core::{
    Classifier, Error, Fit, FitSummary, FitWeighted, Generative, ParamGuard, Result, SavedModel,
};
// The criterion and its held-out score are shared with every path cross-validation.
use gendisc_data::cv::{check_selection, in_which_fit, path_curve, Folds, StoredSelection};
pub use gendisc_data::cv::{score, CvCriterion, SelectionRule};

use crate::existence::KnownSeparation;
use crate::family::Family;
use crate::model::{check_gdt_parts, known_separation, Gdt, NoMaximiser};
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
/// | `rule` | [`SelectionRule::MinimumScore`] | which `λ` the curve selects, among the values with a finite maximiser in every fold; [`SelectionRule::OneStandardError`] takes the largest within one standard error of the best |
/// | `require_convergence` | `false` | make any fit of the folds or the refit that stops without converging an [`Error::NotConverged`] (but for a fold's fit that proves no finite maximiser exists: its `λ` is no candidate) |
///
/// Every fold fits the whole grid and the refit follows the path down to `λ̂`; each of those
/// fits can stop at its optimiser's iteration cap (or Balls2's EM at its own), and by default
/// is used all the same — a fold's score then belongs to a fit that did not converge, and only
/// the refitted model's [report](crate::Gdt::report) shows the refit's status. See
/// [`GdtCvParams::require_convergence`].
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
    /// Whether a fit of the cross-validation (any λ of any fold, or the refit) that stops
    /// without meeting its convergence criterion is an error (default `false`): an
    /// [`Error::NotConverged`] naming the fit, the fold, its iterations and its last gradient
    /// norm. The estimator's own [`GdtParams::require_convergence`] has the same effect; either
    /// turns it on. A fold's fit that proves no finite maximiser exists is not an error: its
    /// `λ` is no candidate for `λ̂` (the [module documentation](self)); a refit that proves it
    /// is.
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// there ([`GdtReport::has_no_maximiser`](crate::GdtReport::has_no_maximiser): `λ = 0` on
    /// rows separated in the family's induced features, or Balls2's components). A value with
    /// any such fold is no candidate for `λ̂`: those folds have no estimate to score. Empty when
    /// every fit had one (and in model files written before this was recorded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub without_maximiser: Vec<usize>,
}

impl CvSelection {
    /// Whether each grid value could be chosen: no fold's fit there lacks a maximiser (empty
    /// when every value could).
    pub fn candidates(&self) -> Vec<bool> {
        self.without_maximiser.iter().map(|&n| n == 0).collect()
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
    /// picks `λ̂` (no refit) among the values with a finite maximiser in every fold (see the
    /// [module documentation](self)). Sample weights, when given, weight both the fits and the
    /// scores. A fold's fit that stops at its iteration cap is scored all the same unless
    /// convergence is required ([`GdtCvParams::require_convergence`]).
    ///
    /// Errors: those of the fits, and [`Error::Infeasible`] when no value of the grid has a
    /// maximiser in every fold (a grid of `λ = 0` alone, on separated rows).
    pub fn select(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Result<CvSelection> {
        self.select_impl(x, y, sample_weight, Certificate::FindHere)
    }

    /// [`Self::select`] for a caller that has already fitted `λ = 0` on the same rows with the
    /// same settings (`discriminative`, e.g. the end of a path it reports): where that fit
    /// carries a certificate that no finite maximiser exists, each fold checks it on its own
    /// rows before solving a linear program of its own (see [`crate::existence`]). The
    /// selection is the one [`Self::select`] makes: a certificate is only used where it is
    /// verified on the fold, so another model costs time, never correctness.
    pub fn select_reusing(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
        discriminative: &Gdt,
    ) -> Result<CvSelection> {
        let known = discriminative
            .report()
            .separation
            .clone()
            .map(|certificate| KnownSeparation {
                certificate,
                scale: discriminative.scale(),
                family: discriminative.family(),
                floored: discriminative.parametrisation().variance_floor() > 0.0,
            });
        self.select_impl(x, y, sample_weight, Certificate::Given(known))
    }

    fn select_impl(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
        certificate: Certificate,
    ) -> Result<CvSelection> {
        gendisc_core::validate::check_training_matrix(x)?;
        if y.len() != x.nrows() {
            return Err(Error::shape_mismatch(
                "length of y vs rows of x",
                x.nrows(),
                y.len(),
            ));
        }
        // Each fold must see every class: fix K from the whole training set.
        let k = self
            .gdt
            .n_classes
            .unwrap_or_else(|| y.iter().max().map_or(0, |m| m + 1).max(2));
        let gdt = self.fit_settings(Some(k));
        self.criterion.check_classes(k)?;
        let grid = self.grid();
        let folds = self.folds();
        // Every fold's rows are a subset of these: a certificate that they are separated
        // usually holds on each fold too, and checking it costs far less than a fold's own
        // linear program. Where it cannot be computed, the folds decide alone (and report why).
        let known = match certificate {
            _ if !(gdt.certify_discriminative_end && grid.contains(&0.0)) => None,
            Certificate::Given(known) => known,
            Certificate::FindHere => known_separation(
                &gdt,
                x.view(),
                y.view(),
                sample_weight.as_ref().map(|w| w.view()),
            )
            .ok()
            .flatten(),
        };
        // Counts, not a list of folds: the folds run in parallel, and a count is the same
        // whatever their order.
        let without_maximiser: Vec<AtomicUsize> =
            grid.iter().map(|_| AtomicUsize::new(0)).collect();
        let curve = path_curve(y, folds, grid.len(), |r, f, fold| {
            let xt = x.select(ndarray::Axis(0), &fold.train);
            let yt = y.select(ndarray::Axis(0), &fold.train);
            let wt = sample_weight.map(|w| w.select(ndarray::Axis(0), &fold.train));
            let xv = x.select(ndarray::Axis(0), &fold.test);
            let yv = y.select(ndarray::Axis(0), &fold.test);
            let wv = sample_weight.map(|w| w.select(ndarray::Axis(0), &fold.test));
            let path = gdt
                .fit_path_knowing(
                    &grid,
                    xt.view(),
                    yt.view(),
                    wt.as_ref().map(|w| w.view()),
                    known.as_ref(),
                    // Such a fit is not scored as an estimate: its λ is no candidate.
                    NoMaximiser::Returned,
                )
                .map_err(|e| in_which_fit(e, &folds.describe(r, f)))?;
            for (count, model) in without_maximiser.iter().zip(&path) {
                if model.report().has_no_maximiser() {
                    count.fetch_add(1, Ordering::Relaxed);
                }
            }
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
        let mut without_maximiser: Vec<usize> = without_maximiser
            .into_iter()
            .map(AtomicUsize::into_inner)
            .collect();
        let candidates: Vec<bool> = without_maximiser.iter().map(|&n| n == 0).collect();
        let chosen = self
            .rule
            .select_among(&curve.scores, &curve.standard_errors, &candidates)
            .map_err(|e| match e {
                Error::Infeasible { .. } => Error::Infeasible {
                    what: "the choice of λ by cross-validation".into(),
                    detail: "no λ of the grid has a finite maximiser in every fold (at λ = 0 \
                             some fold's rows are separated); add a λ > 0 to the grid"
                        .into(),
                },
                other => other,
            })?;
        if candidates.iter().all(|&c| c) {
            without_maximiser.clear();
        }
        Ok(CvSelection {
            lambda: grid[chosen],
            grid,
            scores: curve.scores,
            standard_errors: curve.standard_errors,
            rule: self.rule,
            without_maximiser,
        })
    }

    fn fit_impl(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<GdtCv> {
        let selection = self.select(x, y, w)?;
        let path: Vec<f64> = selection
            .grid
            .iter()
            .copied()
            .filter(|&l| l >= selection.lambda)
            .collect();
        let model = self
            .fit_settings(self.gdt.n_classes)
            .fit_path(&path, x, y, w)
            .map_err(|e| in_which_fit(e, "the refit on all the training data"))?
            .pop()
            .expect("the path contains λ̂");
        Ok(GdtCv { model, selection })
    }
}

/// Where [`GdtCvValidParams::select`]'s folds take the certificate of the whole training set
/// that they check before their own linear programs.
enum Certificate {
    /// From a linear program on the whole set, solved first.
    FindHere,
    /// From the caller's `λ = 0` fit on the whole set (`None`: it has none).
    Given(Option<KnownSeparation>),
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
            excluded: selection
                .without_maximiser
                .iter()
                .map(|&n| (n > 0).then(|| format!("no finite maximiser in {n} of the folds")))
                .collect(),
        })
    }

    /// Checks the refitted model as [`Gdt`]'s invariants (fields under `model.`), and the
    /// selection: a non-empty grid of values in `[0, 1]`, strictly descending; one finite,
    /// non-negative score (and, where stored, standard error) per grid value; `λ̂` the value
    /// the stored rule selects from them; and the refitted model's `λ` equal to `λ̂`.
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
        if !selection.without_maximiser.is_empty()
            && selection.without_maximiser.len() != grid.len()
        {
            return Err(invalid(
                "selection.without_maximiser",
                format!(
                    "{} counts for a grid of {} values",
                    selection.without_maximiser.len(),
                    grid.len()
                ),
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
