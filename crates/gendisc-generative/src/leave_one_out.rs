//! Leave-one-out likelihoods of the factorised (naive Bayes) models: for every training row
//! `i`, `log p₋ᵢ(x_i^S | y = k)`, where `p₋ᵢ` is the model refitted without row `i`.
//!
//! This is the input of the leave-one-out fit of Raina et al.'s hybrid (Raina, Shen, Ng &
//! McCallum 2003, eq. (11)): the discriminative weights are fitted on features of row `i`
//! computed from a generative model that has not seen row `i`. As their footnote 5 observes,
//! the `m` refits are never needed: every estimate is a ratio of sums over rows (sufficient
//! statistics), so removing row `i` is a subtraction. The whole computation is one pass over
//! the rows to accumulate the statistics (the fit's own pass) and one pass to produce the
//! leave-one-out likelihoods of every row, region and class.
//!
//! | model | statistics of class `k` | removing row `i` of class `c`, weight `w` |
//! |---|---|---|
//! | [`GaussianNb`] | `W_k`, means `μ_kj`, squared deviations `M_kj` | `W′ = W − w`, `μ′ = μ − (w/W′)(x − μ)`, `M′ = M − w (x − μ)(x − μ′)` |
//! | [`BernoulliNb`] | `W_k`, counts of ones `c_kj` | `W′ = W − w`, `c′ = c − w x_ij` |
//! | [`CategoricalNb`] | `W_k`, level counts `c_kjl` | `W′ = W − w`, `c′_{c j x_ij} = c − w` |
//! | [`MultinomialNb`] | `W_k`, word counts `c_kl`, tokens `T_k = Σ_l c_kl` | `W′ = W − w`, `c′_cl = c_cl − w x_il`, `T′_c = T_c − w n_i` |
//!
//! Only class `y_i` changes, except for what depends on all rows: the Gaussian variance floor
//! and pooled variances, and an empirical class prior.
//!
//! ## The Gaussian variance floor
//!
//! The fit adds `ε = var_smoothing · max_j Var(x_j)` to every variance, with the column
//! variances of the training data. The leave-one-out floor is **recomputed exactly** without
//! row `i`, `ε₋ᵢ = var_smoothing · max_j Var₋ᵢ(x_j)` (with the fit's fallback scale 1 when every
//! remaining column is constant), so that `p₋ᵢ` is precisely the model a refit on the other
//! rows returns. The floor therefore changes every class's variances, slightly, for every row.
//!
//! ## Exactness
//!
//! Downdating a sum of squares cancels: its relative round-off is about `ε_mach · M / M′`, which
//! is small unless row `i` carries nearly all of its class's spread. Where it would not be —
//! the downdated `M′` below `10⁻⁶ M`, more than six digits lost — that column's mean and sum of
//! squares are recomputed directly from the remaining rows, in two passes. Only a row holding
//! nearly all of a column's spread can cause this, so it happens about once per class and
//! column at most. When the remaining rows of a class (or, for the floor, all remaining rows)
//! share one value in a column, that column's mean is that value and its squared deviation is
//! exactly zero, as in a refit. Likewise a count that only row `i`
//! contributed to becomes exactly zero, so that with `α = 0` the leave-one-out probability of a
//! value seen only in row `i` is exactly zero (log-likelihood `−∞`), as in a refit.
//!
//! ## What is kept from the full fit
//!
//! The model's domain: the number of classes `K` and, for [`CategoricalNb`], the number of
//! levels `L_j` of each feature. A refit that infers the levels from the other rows could find
//! fewer levels (when row `i` holds the largest level of a column) and then could not evaluate
//! `x_i` at all; declaring the levels with
//! [`CategoricalNbParams::n_levels`](crate::CategoricalNbParams::n_levels) makes the refit
//! identical.
//!
//! ## Errors
//!
//! Removing a row can leave a model that cannot be estimated: a class without rows
//! ([`Error::EmptyClass`]) or, for unbiased variances, a class (or the pooled estimate) with too
//! few rows ([`Error::TooFewRows`]). Both name the row in their message. A row of zero weight
//! changes nothing: its leave-one-out model is the full model.

use ndarray::{Array2, Array3, ArrayView1, ArrayView2, Axis};

use gendisc_core::{Classifier, Error, Fit, FitWeighted, Generative, ParamGuard, Result};

use crate::bernoulli_nb::{BernoulliNb, BernoulliNbValidParams};
use crate::categorical_nb::{CategoricalNb, CategoricalNbValidParams};
use crate::common::{check_region, ln_2pi, rows_per_class, variance_floor, ClassPriors};
use crate::gaussian_nb::{GaussianNb, GaussianNbValidParams, VarianceStructure};
use crate::moments::DiagonalMoments;
use crate::multinomial_nb::{CountDowndate, MultinomialNb, MultinomialNbValidParams};

/// A full-data fit together with the leave-one-out likelihoods of its training rows; see
/// [`LeaveOneOut::fit_leave_one_out`].
#[derive(Debug, Clone)]
pub struct LeaveOneOutFit<M> {
    /// The model fitted on every row: what a caller predicts with.
    pub model: M,
    /// `log p₋ᵢ(x_i^{S_r} | y = k)` as an `n × R × K` array: row `i`, region `r`, class `k`.
    pub region_log_likelihood: Array3<f64>,
    /// `log p₋ᵢ(y = k)` as an `n × K` array. Only an empirical prior changes; a uniform or
    /// given prior is the same for every row.
    pub log_prior: Array2<f64>,
}

impl<M> LeaveOneOutFit<M> {
    /// `log p₋ᵢ(x_i^{S_r} | y = k)` of region `r` as an `n × K` view. Panics if `r` is not a
    /// region index.
    pub fn region(&self, r: usize) -> ArrayView2<'_, f64> {
        self.region_log_likelihood.index_axis(Axis(1), r)
    }
}

/// Hyper-parameters of a factorised generative model that can report, besides the full fit,
/// the likelihood of every training row under the model refitted without it (see the
/// [module documentation](self)).
///
/// Implemented by the validated parameters of [`GaussianNb`], [`BernoulliNb`],
/// [`CategoricalNb`] and [`MultinomialNb`] (whose regions as separate
/// sparse count matrices have their own entry point,
/// [`MultinomialNbValidParams::fit_leave_one_out_sparse`]), and through them by their builders. The trait lives on the parameters,
/// not on the fitted model, because the leave-one-out model depends on hyper-parameters (the
/// smoothing `α`, the variance estimator and floor) that a fitted model does not keep.
///
/// ```
/// use gendisc_core::{FactorisedGenerative, Fit};
/// use gendisc_generative::{BernoulliNb, LeaveOneOut};
/// use ndarray::{array, s};
///
/// let x = array![[1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0]];
/// let y = array![0, 0, 0, 1, 1];
/// let params = BernoulliNb::params();
/// let loo = params.fit_leave_one_out(x.view(), y.view(), None, &[vec![0]])?;
///
/// // Row 0 by brute force: refit on rows 1..5, evaluate row 0.
/// let refit = params.fit(x.slice(s![1.., ..]), y.slice(s![1..]))?;
/// let expected = refit.region_log_likelihood(x.slice(s![..1, ..]), &[0])?;
/// assert!((loo.region(0)[[0, 0]] - expected[[0, 0]]).abs() < 1e-15);
/// assert!((loo.region(0)[[0, 1]] - expected[[0, 1]]).abs() < 1e-15);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
pub trait LeaveOneOut: Fit {
    /// Fits the model on `x`, `y` (and `sample_weight`, when given) and computes, for every
    /// training row `i`, region `S_r` and class `k`, `log p₋ᵢ(x_i^{S_r} | y = k)` and
    /// `log p₋ᵢ(y = k)`.
    ///
    /// Regions are lists of feature indices; each must be in range and free of repeats (they
    /// may overlap each other). Fails on everything the fit fails on, and when removing a row
    /// leaves a model that cannot be estimated (see the [module documentation](self#errors)).
    fn fit_leave_one_out<S: AsRef<[usize]>>(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
        regions: &[S],
    ) -> Result<LeaveOneOutFit<Self::Model>>;
}

impl<P> LeaveOneOut for P
where
    P: ParamGuard,
    P::Checked: LeaveOneOut,
{
    fn fit_leave_one_out<S: AsRef<[usize]>>(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
        regions: &[S],
    ) -> Result<LeaveOneOutFit<Self::Model>> {
        self.check_ref()?
            .fit_leave_one_out(x, y, sample_weight, regions)
    }
}

/// The full fit, weighted or not; it validates `x`, `y` and the weights.
pub(crate) fn fit_full<P: FitWeighted>(
    params: &P,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    sample_weight: Option<ArrayView1<'_, f64>>,
) -> Result<P::Model> {
    match sample_weight {
        Some(w) => params.fit_weighted(x, y, w),
        None => params.fit(x, y),
    }
}

/// Validates every region against the model's features.
pub(crate) fn check_regions<S: AsRef<[usize]>>(
    regions: &[S],
    n_features: usize,
) -> Result<Vec<&[usize]>> {
    regions
        .iter()
        .map(|r| {
            let r = r.as_ref();
            check_region(r, n_features)?;
            Ok(r)
        })
        .collect()
}

/// The weight of row `i` (1 when unweighted).
pub(crate) fn weight_of(sample_weight: Option<ArrayView1<'_, f64>>, i: usize) -> f64 {
    sample_weight.map_or(1.0, |w| w[i])
}

/// The error for a row that is the only training row (of positive weight) of its class.
pub(crate) fn only_row_of_class(row: usize, class: usize) -> Error {
    Error::EmptyClass {
        class,
        detail: Some(format!(
            "leave-one-out without row {row}: it is the only training row of class {class}"
        )),
    }
}

/// `log p₋ᵢ(y = k)`, the class prior without one row.
///
/// Only an empirical prior depends on the data: it becomes `W′_k / W′` with `W′_class = W_class −
/// w`, computed as the fit computes `W_k / W`. That depends on the row only through its class
/// and weight, so the rows of unit weight (the usual case) share one precomputed vector per
/// class instead of taking `K + 1` logarithms each.
pub(crate) struct LeaveOneOutPrior<'a> {
    priors: &'a ClassPriors,
    class_weight: &'a [f64],
    full_log_prior: ArrayView1<'a, f64>,
    /// Row `c`: the prior without a row of class `c` and weight 1.
    without_unit_row: Array2<f64>,
}

impl<'a> LeaveOneOutPrior<'a> {
    pub(crate) fn new(
        priors: &'a ClassPriors,
        class_weight: &'a [f64],
        full_log_prior: ArrayView1<'a, f64>,
    ) -> Self {
        let n_classes = class_weight.len();
        let mut prior = Self {
            priors,
            class_weight,
            full_log_prior,
            without_unit_row: Array2::zeros((n_classes, n_classes)),
        };
        let mut rows = Array2::zeros((n_classes, n_classes));
        for (class, row) in rows.rows_mut().into_iter().enumerate() {
            prior.compute(class, 1.0, row);
        }
        prior.without_unit_row = rows;
        prior
    }

    /// Writes `log p₋ᵢ(y = k)` of a row of class `class` and weight `w` into `out`.
    pub(crate) fn write(&self, class: usize, w: f64, mut out: ndarray::ArrayViewMut1<'_, f64>) {
        if w == 1.0 {
            out.assign(&self.without_unit_row.row(class));
        } else {
            self.compute(class, w, out);
        }
    }

    fn compute(&self, class: usize, w: f64, mut out: ndarray::ArrayViewMut1<'_, f64>) {
        match self.priors {
            ClassPriors::Empirical if w > 0.0 => {
                let weight = |k: usize| {
                    if k == class {
                        self.class_weight[k] - w
                    } else {
                        self.class_weight[k]
                    }
                };
                let log_total = (0..self.class_weight.len()).map(weight).sum::<f64>().ln();
                for (k, o) in out.iter_mut().enumerate() {
                    *o = weight(k).ln() - log_total;
                }
            }
            _ => out.assign(&self.full_log_prior),
        }
    }
}

/// Sums per-feature terms `terms[k · d + j]` over each region, for every class, into
/// `out[r, k]` of one row.
fn sum_regions(
    terms: &[f64],
    d: usize,
    regions: &[&[usize]],
    mut out: ndarray::ArrayViewMut2<'_, f64>,
) {
    for (region, mut out_region) in regions.iter().zip(out.axis_iter_mut(Axis(0))) {
        for (k, o) in out_region.iter_mut().enumerate() {
            let class_terms = &terms[k * d..(k + 1) * d];
            *o = region.iter().map(|&j| class_terms[j]).sum();
        }
    }
}

/// For one column of one group of rows (a class, or all rows): whether all rows but one given
/// row share a single value, found in one pass without storing the values.
///
/// It keeps the first value seen (`first`, seen `n_first` times), the first value different
/// from it (`second`, `n_second` times) and the number of rows holding any third value.
#[derive(Debug, Clone, Copy, Default)]
struct DistinctValues {
    first: f64,
    n_first: usize,
    second: f64,
    n_second: usize,
    n_other: usize,
}

impl DistinctValues {
    fn push(&mut self, v: f64) {
        if self.n_first == 0 || v == self.first {
            self.first = v;
            self.n_first += 1;
        } else if self.n_second == 0 || v == self.second {
            self.second = v;
            self.n_second += 1;
        } else {
            self.n_other += 1;
        }
    }

    /// The common value of the rows other than one row of value `removed`, if they share one.
    fn constant_without(&self, removed: f64) -> Option<f64> {
        if self.n_other > 0 {
            return None;
        }
        if self.n_second == 0 {
            return Some(self.first);
        }
        if removed == self.first && self.n_first == 1 {
            return Some(self.second);
        }
        if removed == self.second && self.n_second == 1 {
            return Some(self.first);
        }
        None
    }
}

/// A downdated sum of squares below this fraction of the original has lost more than six
/// digits to cancellation, and is recomputed from the remaining rows.
const CANCELLATION_LIMIT: f64 = 1e-6;

/// A weighted mean and sum of squared deviations with one row removed (Welford's update run
/// backwards): `μ′ = μ − (w/W′)(x − μ)`, `M′ = M − w (x − μ)(x − μ′)`.
///
/// When the remaining rows are known to share one value, that value and an exact zero are
/// returned, as a refit computes them. When the subtraction cancels more than six digits,
/// `recompute` gives the two moments directly from the remaining rows. A small negative `M′`
/// from round-off is clamped to zero, as in the fit.
fn downdate(
    mean: f64,
    sq_dev: f64,
    remaining_weight: f64,
    x: f64,
    w: f64,
    constant: Option<f64>,
    recompute: impl FnOnce() -> (f64, f64),
) -> (f64, f64) {
    if let Some(value) = constant {
        return (value, 0.0);
    }
    let new_mean = mean - (w / remaining_weight) * (x - mean);
    let new_sq_dev = sq_dev - w * (x - mean) * (x - new_mean);
    if new_sq_dev < CANCELLATION_LIMIT * sq_dev {
        return recompute();
    }
    (new_mean, new_sq_dev)
}

/// The weighted mean and sum of squared deviations of `(value, weight)` pairs, in two passes.
fn two_pass_moments(values: impl Iterator<Item = (f64, f64)> + Clone) -> (f64, f64) {
    let (total, sum) = values
        .clone()
        .fold((0.0, 0.0), |(t, s), (v, w)| (t + w, s + w * v));
    let mean = sum / total;
    let sq_dev = values.map(|(v, w)| w * (v - mean) * (v - mean)).sum();
    (mean, sq_dev)
}

impl LeaveOneOut for GaussianNbValidParams {
    /// Gaussian naive Bayes, per-class or pooled variances, maximum-likelihood or unbiased,
    /// with the variance floor recomputed without each row (see the
    /// [module documentation](self#the-gaussian-variance-floor)).
    fn fit_leave_one_out<S: AsRef<[usize]>>(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
        regions: &[S],
    ) -> Result<LeaveOneOutFit<GaussianNb>> {
        let model = fit_full(self, x, y, sample_weight)?;
        let regions = check_regions(regions, model.n_features())?;
        // Views are invariant in their lifetime: reborrow them for the statistics'.
        let stats = GaussianStatistics::new(
            self,
            &model,
            x.view(),
            y.view(),
            sample_weight.as_ref().map(|w| w.view()),
        );
        let (n, d) = x.dim();
        let n_classes = model.n_classes();
        let full_log_prior = model.log_prior();
        let prior =
            LeaveOneOutPrior::new(self.priors(), &stats.moments.weight, full_log_prior.view());
        let mut region_log_likelihood = Array3::zeros((n, regions.len(), n_classes));
        let mut log_prior = Array2::zeros((n, n_classes));
        // Per-row workspace: the means and variances of every class, `K × d` row-major, and
        // the two parts of each per-feature log-density of x_i, `−½ log(2πσ²)` and
        // `(x − μ)²/σ²`, summed over a region separately and then combined, in the fit's order.
        let mut means = vec![0.0; n_classes * d];
        let mut variances = vec![0.0; n_classes * d];
        let mut log_norm = vec![0.0; n_classes * d];
        let mut quad = vec![0.0; n_classes * d];
        let mut buffer = vec![0.0; d];
        let ln_2pi = ln_2pi();
        for (i, row) in x.axis_iter(Axis(0)).enumerate() {
            // The row as a slice (copied when x is not in standard layout).
            let row: &[f64] = match row.to_slice() {
                Some(r) => r,
                None => {
                    buffer.iter_mut().zip(row.iter()).for_each(|(b, &v)| *b = v);
                    &buffer
                }
            };
            let w = weight_of(sample_weight, i);
            stats.leave_one_out(i, y[i], row, w, &mut means, &mut variances)?;
            for k in 0..n_classes {
                let class = k * d..(k + 1) * d;
                for ((((n, q), &mean), &v), &xj) in log_norm[class.clone()]
                    .iter_mut()
                    .zip(&mut quad[class.clone()])
                    .zip(&means[class.clone()])
                    .zip(&variances[class])
                    .zip(row)
                {
                    let z = xj - mean;
                    *n = -0.5 * (ln_2pi + v.ln());
                    *q = z * z * v.recip();
                }
            }
            let mut out = region_log_likelihood.index_axis_mut(Axis(0), i);
            for (region, mut out_region) in regions.iter().zip(out.axis_iter_mut(Axis(0))) {
                for (k, o) in out_region.iter_mut().enumerate() {
                    let class = k * d..(k + 1) * d;
                    let (n, q) = (&log_norm[class.clone()], &quad[class]);
                    let norm_sum: f64 = region.iter().map(|&j| n[j]).sum();
                    let quad_sum: f64 = region.iter().map(|&j| q[j]).sum();
                    *o = norm_sum - 0.5 * quad_sum;
                }
            }
            prior.write(y[i], w, log_prior.row_mut(i));
        }
        Ok(LeaveOneOutFit {
            model,
            region_log_likelihood,
            log_prior,
        })
    }
}

/// The sufficient statistics of a Gaussian naive Bayes fit, and the parameters of the model
/// refitted without one row.
struct GaussianStatistics<'p> {
    params: &'p GaussianNbValidParams,
    /// The training data, for the rare column whose downdate cancels (see [`downdate`]).
    x: ArrayView2<'p, f64>,
    y: ArrayView1<'p, usize>,
    sample_weight: Option<ArrayView1<'p, f64>>,
    /// `W_k`, `μ_kj`, `M_kj`: the fit's own accumulation.
    moments: DiagonalMoments,
    /// `μ_kj` and `M_kj` as flat `K × d` row-major vectors, for the per-row loop.
    means: Vec<f64>,
    sq_dev: Vec<f64>,
    /// Rows of positive weight per class.
    class_rows: Vec<usize>,
    /// `M_kj / D_k`: the per-class variances before the floor (unused when pooled).
    class_variance: Vec<f64>,
    /// The full model's variances (floor included), for rows of zero weight.
    full_variance: Vec<f64>,
    /// `W`, the rows of positive weight, and the grand mean and squared deviations of each
    /// column over all classes (for the floor).
    total_weight: f64,
    total_rows: usize,
    grand_mean: Vec<f64>,
    grand_sq_dev: Vec<f64>,
    /// Which columns become constant when a row is removed: per class (`K × d`) and overall.
    class_values: Vec<DistinctValues>,
    all_values: Vec<DistinctValues>,
}

impl<'p> GaussianStatistics<'p> {
    fn new(
        params: &'p GaussianNbValidParams,
        model: &GaussianNb,
        x: ArrayView2<'p, f64>,
        y: ArrayView1<'p, usize>,
        sample_weight: Option<ArrayView1<'p, f64>>,
    ) -> Self {
        let d = x.ncols();
        let n_classes = model.n_classes();
        let moments = DiagonalMoments::accumulate(x, y, sample_weight, n_classes);
        let class_rows = rows_per_class(y, sample_weight, n_classes);
        let estimator = params.variance_estimator();
        let class_variance = match params.variance() {
            VarianceStructure::PerClass => (0..n_classes)
                .flat_map(|k| {
                    let divisor = estimator.divisor(moments.weight[k], 1);
                    moments.sq_dev.row(k).mapv(|m| m / divisor).to_vec()
                })
                .collect(),
            VarianceStructure::Pooled => Vec::new(),
        };
        // Combined from the class moments as the fit combines them for its floor (Chan,
        // Golub & LeVeque): M_j = Σ_k [M_kj + W_k (μ_kj − μ̄_j)²].
        let total_weight: f64 = moments.weight.iter().sum();
        let grand_mean: Vec<f64> = (0..d)
            .map(|j| {
                (0..n_classes)
                    .map(|k| moments.weight[k] * moments.means[[k, j]])
                    .sum::<f64>()
                    / total_weight
            })
            .collect();
        let grand_sq_dev = (0..d)
            .map(|j| {
                (0..n_classes)
                    .map(|k| {
                        let delta = moments.means[[k, j]] - grand_mean[j];
                        moments.sq_dev[[k, j]] + moments.weight[k] * delta * delta
                    })
                    .sum()
            })
            .collect();
        let mut class_values = vec![DistinctValues::default(); n_classes * d];
        let mut all_values = vec![DistinctValues::default(); d];
        for (i, row) in x.axis_iter(Axis(0)).enumerate() {
            if weight_of(sample_weight, i) == 0.0 {
                continue;
            }
            for (j, &v) in row.iter().enumerate() {
                class_values[y[i] * d + j].push(v);
                all_values[j].push(v);
            }
        }
        Self {
            params,
            x,
            y,
            sample_weight,
            means: moments.means.iter().copied().collect(),
            sq_dev: moments.sq_dev.iter().copied().collect(),
            class_variance,
            full_variance: model.variances().iter().copied().collect(),
            total_weight,
            total_rows: class_rows.iter().sum(),
            class_rows,
            grand_mean,
            grand_sq_dev,
            class_values,
            all_values,
            moments,
        }
    }

    /// The weighted mean and sum of squared deviations of column `j` over the rows of positive
    /// weight other than `i`, of class `class` (all classes when `None`), computed directly.
    fn moments_without(&self, i: usize, j: usize, class: Option<usize>) -> (f64, f64) {
        let rows = (0..self.x.nrows())
            .filter(move |&r| r != i && class.is_none_or(|c| self.y[r] == c))
            .map(move |r| (self.x[[r, j]], weight_of(self.sample_weight, r)))
            .filter(|&(_, w)| w > 0.0);
        two_pass_moments(rows)
    }

    /// Writes the means and variances (`K × d`, row-major) of the model refitted without row
    /// `i` (class `c`, weight `w`, values `x`).
    fn leave_one_out(
        &self,
        i: usize,
        c: usize,
        x: &[f64],
        w: f64,
        means: &mut [f64],
        variances: &mut [f64],
    ) -> Result<()> {
        let d = x.len();
        let n_classes = self.class_rows.len();
        means.copy_from_slice(&self.means);
        if w == 0.0 {
            // A zero-weight row is not in the fit: its leave-one-out model is the model.
            variances.copy_from_slice(&self.full_variance);
            return Ok(());
        }
        if self.class_rows[c] == 1 {
            return Err(only_row_of_class(i, c));
        }
        let estimator = self.params.variance_estimator();
        let remaining_weight = self.total_weight - w;
        let class_weight = self.moments.weight[c] - w;

        // The floor, from the column variances of the other rows.
        let mut max_variance = 0.0_f64;
        for (j, &xj) in x.iter().enumerate() {
            let (_, sq_dev) = downdate(
                self.grand_mean[j],
                self.grand_sq_dev[j],
                remaining_weight,
                xj,
                w,
                self.all_values[j].constant_without(xj),
                || self.moments_without(i, j, None),
            );
            max_variance = max_variance.max(sq_dev / remaining_weight);
        }
        let floor = variance_floor(self.params.var_smoothing(), max_variance);

        // Class c's mean and squared deviations without row i, the latter parked in class c's
        // variance slots until divided.
        let class = c * d..(c + 1) * d;
        for (j, &xj) in x.iter().enumerate() {
            let (mean, sq_dev) = downdate(
                self.means[c * d + j],
                self.sq_dev[c * d + j],
                class_weight,
                xj,
                w,
                self.class_values[c * d + j].constant_without(xj),
                || self.moments_without(i, j, Some(c)),
            );
            means[c * d + j] = mean;
            variances[c * d + j] = sq_dev;
        }

        match self.params.variance() {
            VarianceStructure::PerClass => {
                let divisor = estimator.check_divisor(class_weight, 1, || {
                    (
                        format!("variance of class {c} without row {i} (leave-one-out)"),
                        self.class_rows[c] - 1,
                    )
                })?;
                variances[class.clone()]
                    .iter_mut()
                    .for_each(|v| *v = *v / divisor + floor);
                for k in (0..n_classes).filter(|&k| k != c) {
                    let slots = k * d..(k + 1) * d;
                    variances[slots.clone()]
                        .iter_mut()
                        .zip(&self.class_variance[slots])
                        .for_each(|(v, &s)| *v = s + floor);
                }
            }
            VarianceStructure::Pooled => {
                let divisor = estimator.check_divisor(remaining_weight, n_classes, || {
                    (
                        format!("pooled within-class variance without row {i} (leave-one-out)"),
                        self.total_rows - 1,
                    )
                })?;
                for j in 0..d {
                    // Summed in class order, as the fit sums the class scatters.
                    let pooled = (0..n_classes)
                        .map(|k| {
                            if k == c {
                                variances[c * d + j]
                            } else {
                                self.sq_dev[k * d + j]
                            }
                        })
                        .sum::<f64>();
                    let v = pooled / divisor + floor;
                    for k in (0..n_classes).filter(|&k| k != c) {
                        variances[k * d + j] = v;
                    }
                    variances[c * d + j] = v;
                }
            }
        }
        Ok(())
    }
}

/// A weighted count with one row's contribution `w` removed; exactly zero when that row was the
/// only row of positive weight behind it (`rows == 1`), as a refit computes it.
fn count_without(count: f64, rows: usize, w: f64) -> f64 {
    if rows == 1 {
        0.0
    } else {
        count - w
    }
}

impl LeaveOneOut for BernoulliNbValidParams {
    /// Bernoulli naive Bayes: for row `i` of class `c`, `θ′_cj = (c_cj − w x_ij + α) /
    /// (W_c − w + 2α)`; the other classes are unchanged.
    fn fit_leave_one_out<S: AsRef<[usize]>>(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
        regions: &[S],
    ) -> Result<LeaveOneOutFit<BernoulliNb>> {
        let model = fit_full(self, x, y, sample_weight)?;
        let regions = check_regions(regions, model.n_features())?;
        let (n, d) = x.dim();
        let n_classes = model.n_classes();
        let alpha = self.alpha();

        // The fit's statistics, summed in the fit's order: W_k and c_kj = Σ w_i x_ij, and the
        // number of rows of positive weight behind each count of ones and of zeros.
        let mut class_weight = vec![0.0; n_classes];
        let mut ones = vec![0.0; n_classes * d];
        let mut rows_one = vec![0_usize; n_classes * d];
        let mut rows_zero = vec![0_usize; n_classes * d];
        for (i, row) in x.axis_iter(Axis(0)).enumerate() {
            let (k, w) = (y[i], weight_of(sample_weight, i));
            class_weight[k] += w;
            for (j, &v) in row.iter().enumerate() {
                ones[k * d + j] += w * v;
                if w > 0.0 {
                    if v == 1.0 {
                        rows_one[k * d + j] += 1;
                    } else {
                        rows_zero[k * d + j] += 1;
                    }
                }
            }
        }
        let class_rows = rows_per_class(y, sample_weight, n_classes);
        // log p(x_j = v | y = k) with the fit's formulas: log(c + α) − log(W + 2α) for a one,
        // log(max(W − c, 0) + α) − log(W + 2α) for a zero.
        let log_prob = |count_one: f64, weight: f64, v: f64| {
            let numerator = if v == 1.0 {
                count_one
            } else {
                (weight - count_one).max(0.0)
            };
            (numerator + alpha).ln() - (weight + 2.0 * alpha).ln()
        };

        let full_log_prior = model.log_prior();
        let prior = LeaveOneOutPrior::new(self.priors(), &class_weight, full_log_prior.view());
        let mut region_log_likelihood = Array3::zeros((n, regions.len(), n_classes));
        let mut log_prior = Array2::zeros((n, n_classes));
        // log p₋ᵢ(x_ij = v | y = k) for class k = y_i and row weight w.
        let own_class = |at: usize, v: f64, w: f64| {
            let weight = class_weight[at / d] - w;
            let count_one = if v == 1.0 {
                count_without(ones[at], rows_one[at], w)
            } else if rows_zero[at] == 1 {
                // Only ones remain: W′ − c′ is exactly zero.
                weight
            } else {
                ones[at]
            };
            log_prob(count_one, weight, v)
        };
        // A term depends on the row only through its value (0 or 1), its class and its
        // weight: the classes the row is not in, and its own class for a row of unit weight
        // (the usual case), are looked up, indexed `[at][v]`.
        let other_class: Vec<[f64; 2]> = (0..n_classes * d)
            .map(|at| [0.0, 1.0].map(|v| log_prob(ones[at], class_weight[at / d], v)))
            .collect();
        let own_class_unit: Vec<[f64; 2]> = (0..n_classes * d)
            .map(|at| [0.0, 1.0].map(|v| own_class(at, v, 1.0)))
            .collect();
        let mut terms = vec![0.0; n_classes * d];
        for (i, row) in x.axis_iter(Axis(0)).enumerate() {
            let (c, w) = (y[i], weight_of(sample_weight, i));
            if w > 0.0 && class_rows[c] == 1 {
                return Err(only_row_of_class(i, c));
            }
            for k in 0..n_classes {
                for (j, &v) in row.iter().enumerate() {
                    let at = k * d + j;
                    let one = usize::from(v == 1.0);
                    terms[at] = if k == c && w == 1.0 {
                        own_class_unit[at][one]
                    } else if k == c && w > 0.0 {
                        own_class(at, v, w)
                    } else {
                        other_class[at][one]
                    };
                }
            }
            sum_regions(
                &terms,
                d,
                &regions,
                region_log_likelihood.index_axis_mut(Axis(0), i),
            );
            prior.write(c, w, log_prior.row_mut(i));
        }
        Ok(LeaveOneOutFit {
            model,
            region_log_likelihood,
            log_prior,
        })
    }
}

impl LeaveOneOut for MultinomialNbValidParams {
    /// Multinomial naive Bayes on dense counts, regions as subsets of the words: for row `i`
    /// of class `c`, `c′_cl = c_cl − w x_il` and `T′_c = T_c − w n_i`; the other classes are
    /// unchanged. For regions given as separate count matrices over one vocabulary (a subject
    /// and a body), use
    /// [`fit_leave_one_out_sparse`](MultinomialNbValidParams::fit_leave_one_out_sparse).
    fn fit_leave_one_out<S: AsRef<[usize]>>(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
        regions: &[S],
    ) -> Result<LeaveOneOutFit<MultinomialNb>> {
        let model = fit_full(self, x, y, sample_weight)?;
        let regions = check_regions(regions, model.n_features())?;
        let n_classes = model.n_classes();
        let csr = sprs::CsMat::csr_from_dense(x.view(), 0.0);
        let downdate = CountDowndate::new(&model, self, csr.view(), y, sample_weight);
        let word_log_prob = model.feature_log_prob();
        let full_log_prior = model.log_prior();
        let class_weight = model.class_weight().to_vec();
        let prior = LeaveOneOutPrior::new(self.priors(), &class_weight, full_log_prior.view());
        let mut region_log_likelihood = Array3::zeros((x.nrows(), regions.len(), n_classes));
        let mut log_prior = Array2::zeros((x.nrows(), n_classes));
        for (i, row) in x.axis_iter(Axis(0)).enumerate() {
            let (c, w) = (y[i], weight_of(sample_weight, i));
            let n_i: f64 = row.sum();
            if w > 0.0 {
                downdate.check_removable(i, c, w, n_i)?;
            }
            for (r, region) in regions.iter().enumerate() {
                for k in 0..n_classes {
                    region_log_likelihood[[i, r, k]] = if k == c && w > 0.0 {
                        downdate.class_log_likelihood(
                            i,
                            c,
                            w,
                            n_i,
                            region.iter().map(|&l| (l, row[l], row[l])),
                        )?
                    } else {
                        region
                            .iter()
                            .filter(|&&l| row[l] != 0.0)
                            .map(|&l| row[l] * word_log_prob[[k, l]])
                            .sum()
                    };
                }
            }
            prior.write(c, w, log_prior.row_mut(i));
        }
        Ok(LeaveOneOutFit {
            model,
            region_log_likelihood,
            log_prior,
        })
    }
}

impl LeaveOneOut for CategoricalNbValidParams {
    /// Categorical naive Bayes: for row `i` of class `c`, `θ′_cj[x_ij] = (c_{c j x_ij} − w + α)
    /// / (W_c − w + α L_j)`, with the full model's levels `L_j`; the other classes are
    /// unchanged.
    fn fit_leave_one_out<S: AsRef<[usize]>>(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
        regions: &[S],
    ) -> Result<LeaveOneOutFit<CategoricalNb>> {
        let model = fit_full(self, x, y, sample_weight)?;
        let regions = check_regions(regions, model.n_features())?;
        let (n, d) = x.dim();
        let n_classes = model.n_classes();
        let alpha = self.alpha();
        let n_levels = model.n_levels();
        // The count tables of every feature, `K × L_j` each, laid end to end: c_kjl is at
        // `offset[j] + k · L_j + l`.
        let mut offset = Vec::with_capacity(d);
        let mut size = 0;
        for &l in &n_levels {
            offset.push(size);
            size += n_classes * l;
        }
        let at = |k: usize, j: usize, level: usize| offset[j] + k * n_levels[j] + level;

        // The fit's statistics, summed in the fit's order, and the rows of positive weight
        // behind each count. The fit has checked that every value is a level in 0..L_j.
        let mut class_weight = vec![0.0; n_classes];
        let mut counts = vec![0.0; size];
        let mut rows = vec![0_usize; size];
        for (i, row) in x.axis_iter(Axis(0)).enumerate() {
            let (k, w) = (y[i], weight_of(sample_weight, i));
            class_weight[k] += w;
            for (j, &v) in row.iter().enumerate() {
                let cell = at(k, j, v as usize);
                counts[cell] += w;
                if w > 0.0 {
                    rows[cell] += 1;
                }
            }
        }
        let class_rows = rows_per_class(y, sample_weight, n_classes);
        // The fit's formula: log(c + α) − log(W + α L).
        let log_prob = |count: f64, weight: f64, levels: usize| {
            (count + alpha).ln() - (weight + alpha * levels as f64).ln()
        };

        let full_log_prior = model.log_prior();
        let prior = LeaveOneOutPrior::new(self.priors(), &class_weight, full_log_prior.view());
        let mut region_log_likelihood = Array3::zeros((n, regions.len(), n_classes));
        let mut log_prior = Array2::zeros((n, n_classes));
        let mut terms = vec![0.0; n_classes * d];
        for (i, row) in x.axis_iter(Axis(0)).enumerate() {
            let (c, w) = (y[i], weight_of(sample_weight, i));
            if w > 0.0 && class_rows[c] == 1 {
                return Err(only_row_of_class(i, c));
            }
            for k in 0..n_classes {
                for (j, &v) in row.iter().enumerate() {
                    let cell = at(k, j, v as usize);
                    terms[k * d + j] = if k == c && w > 0.0 {
                        log_prob(
                            count_without(counts[cell], rows[cell], w),
                            class_weight[c] - w,
                            n_levels[j],
                        )
                    } else {
                        log_prob(counts[cell], class_weight[k], n_levels[j])
                    };
                }
            }
            sum_regions(
                &terms,
                d,
                &regions,
                region_log_likelihood.index_axis_mut(Axis(0), i),
            );
            prior.write(c, w, log_prior.row_mut(i));
        }
        Ok(LeaveOneOutFit {
            model,
            region_log_likelihood,
            log_prior,
        })
    }
}
