//! Gaussian naive Bayes: independent normal features within each class.
//!
//! ```text
//! p(x | y = k) = Π_j N(x_j; μ_kj, σ²_kj)
//! log p(x | y = k) = −½ Σ_j [ ln(2π σ²_kj) + (x_j − μ_kj)² / σ²_kj ]
//! ```
//!
//! With per-class variances this is quadratic discriminant analysis with a diagonal covariance
//! per class (QDA-Λ); with variances pooled across classes it is linear discriminant analysis
//! with a shared diagonal covariance (LDA-Λ), whose log-odds are linear in `x` (Xue &
//! Titterington §3.1.2; Bouchard & Triggs 2004 §4 use LDA-Λ with equal priors).
//!
//! ## Matching the reference implementations
//!
//! | reference | configuration |
//! |---|---|
//! | scikit-learn `GaussianNB(var_smoothing = s)` | the defaults (`MaximumLikelihood`, floor `s · max_j Var(x_j)` added to every variance) |
//! | R `e1071::naiveBayes` | `variance_estimator(Unbiased)` (R's `sd()` divides by `n − 1`) and a negligible floor, e.g. `var_smoothing(1e-15)`: e1071 has none |
//!
//! The default is maximum likelihood because it is the generative estimate of Bouchard &
//! Triggs' eq. (2), the starting point of every hybrid in gendisc. e1071 additionally replaces
//! a density that underflows to exactly 0 (its `threshold`); gendisc works in log space and
//! never needs to. The floor `ε` is relative to the widest column, so on data with columns of
//! very different scales it can be a large fraction of a narrow column's variance:
//! standardise the columns, or lower `var_smoothing`.

use multiversion::multiversion;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis, CowArray, Ix2};
use rand::Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

use gendisc_core::model_file::invariants::{finite, invalid, shape};
use gendisc_core::{Classifier, FactorisedGenerative, Generative, ParamGuard, Result, SavedModel};

use crate::common::{
    check_n_classes, check_prediction, check_region, check_training, check_var_smoothing, ln_2pi,
    rows_per_class, sums_by_class, variance_floor, ClassPriors, VarianceEstimator,
};
use crate::model_file::{check_classes, check_floored_variances, check_size};
use crate::moments::DiagonalMoments;
use crate::sampling::{Categorical, SampleJoint};
use crate::unit::Unit;

/// Which variances a Gaussian naive Bayes model estimates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum VarianceStructure {
    /// One variance per class and feature, `σ²_kj` (QDA-Λ): R's `e1071::naiveBayes` and
    /// scikit-learn's `GaussianNB`.
    #[default]
    PerClass,
    /// One variance per feature shared by all classes, `σ²_j = Σ_k M_kj / divisor` from the
    /// pooled within-class squared deviations (LDA-Λ): the log-odds are then linear in `x`.
    Pooled,
}

/// Hyper-parameters of [`GaussianNb`], validated.
///
/// | parameter | default | meaning |
/// |---|---|---|
/// | `variance` | [`VarianceStructure::PerClass`] | per-class (QDA-Λ) or pooled (LDA-Λ) variances |
/// | `variance_estimator` | [`VarianceEstimator::MaximumLikelihood`] | divisor `W_k` (scikit-learn, the ML fit of Bouchard & Triggs eq. (2)) or `W_k − 1` (R's `sd`, so `e1071`); pooled: `W` or `W − K` |
/// | `var_smoothing` | `1e-9` | relative variance floor: every variance gets `ε = var_smoothing · max_j Var(x_j)` added (scikit-learn's rule) |
/// | `priors` | [`ClassPriors::Empirical`] | class prior |
/// | `n_classes` | `max(y) + 1` | number of classes `K`, for training sets that miss a class at the top |
///
/// The floor `ε` uses the weighted maximum-likelihood variance of the columns over all classes;
/// scikit-learn ignores sample weights there (identical results without weights). When every
/// column is constant, the scale is taken as 1 so that `ε > 0`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GaussianNbValidParams {
    variance: VarianceStructure,
    variance_estimator: VarianceEstimator,
    var_smoothing: f64,
    priors: ClassPriors,
    n_classes: Option<usize>,
}

impl GaussianNbValidParams {
    /// Per-class or pooled variances.
    pub fn variance(&self) -> VarianceStructure {
        self.variance
    }
    /// The variance divisor.
    pub fn variance_estimator(&self) -> VarianceEstimator {
        self.variance_estimator
    }
    /// The relative variance floor.
    pub fn var_smoothing(&self) -> f64 {
        self.var_smoothing
    }
    /// The class prior.
    pub fn priors(&self) -> &ClassPriors {
        &self.priors
    }
    /// The explicit number of classes, if set.
    pub fn n_classes(&self) -> Option<usize> {
        self.n_classes
    }
}

/// Builder for [`GaussianNbValidParams`]; see there for the table of parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GaussianNbParams(GaussianNbValidParams);

impl Default for GaussianNbParams {
    fn default() -> Self {
        Self(GaussianNbValidParams {
            variance: VarianceStructure::PerClass,
            variance_estimator: VarianceEstimator::MaximumLikelihood,
            var_smoothing: 1e-9,
            priors: ClassPriors::Empirical,
            n_classes: None,
        })
    }
}

impl GaussianNbParams {
    /// Per-class (QDA-Λ, default) or pooled (LDA-Λ) variances.
    pub fn variance(mut self, variance: VarianceStructure) -> Self {
        self.0.variance = variance;
        self
    }
    /// Maximum likelihood (default, scikit-learn) or unbiased (`e1071`) variances.
    pub fn variance_estimator(mut self, estimator: VarianceEstimator) -> Self {
        self.0.variance_estimator = estimator;
        self
    }
    /// The relative variance floor (default `1e-9`); must be finite and positive.
    pub fn var_smoothing(mut self, var_smoothing: f64) -> Self {
        self.0.var_smoothing = var_smoothing;
        self
    }
    /// The class prior (default empirical).
    pub fn priors(mut self, priors: ClassPriors) -> Self {
        self.0.priors = priors;
        self
    }
    /// The number of classes (default `max(y) + 1`, or the number of given priors).
    pub fn n_classes(mut self, n_classes: usize) -> Self {
        self.0.n_classes = Some(n_classes);
        self
    }
}

impl ParamGuard for GaussianNbParams {
    type Checked = GaussianNbValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        check_var_smoothing(self.0.var_smoothing)?;
        self.0.priors.check()?;
        check_n_classes(self.0.n_classes)?;
        Ok(&self.0)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}

/// A fitted Gaussian naive Bayes model; see the [module documentation](self) for the density.
///
/// ```
/// use gendisc_core::{ConditionalModel, Fit};
/// use gendisc_generative::{GaussianNb, VarianceEstimator};
/// use ndarray::array;
///
/// let x = array![[1.0, 2.0], [1.5, 1.8], [1.2, 2.5], [4.0, 0.5], [4.4, 1.0], [3.8, 0.2]];
/// let y = array![0, 0, 0, 1, 1, 1];
/// // e1071::naiveBayes's convention: sample standard deviations (÷(n − 1)).
/// let model = GaussianNb::params()
///     .variance_estimator(VarianceEstimator::Unbiased)
///     .fit(x.view(), y.view())
///     .unwrap();
/// let p = model.predict_proba(array![[1.1, 2.1]].view()).unwrap();
/// assert!(p[[0, 0]] > 0.99);
/// ```
///
/// Data of extreme magnitude (beyond `2^±256`) is fitted in a power-of-two unit, as
/// [`Lda`](crate::Lda) is; the unit is serialised (`"unit"`, omitted when 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GaussianNb {
    /// The unit of `means`, `variances` and `variance_floor`: the model is one of `x / unit`.
    #[serde(default, skip_serializing_if = "Unit::is_one")]
    unit: Unit,
    means: Array2<f64>,
    variances: Array2<f64>,
    log_prior: Array1<f64>,
    class_weight: Array1<f64>,
    variance_floor: f64,
    variance: VarianceStructure,
}

impl GaussianNb {
    /// The default hyper-parameters, to be adjusted and fitted.
    pub fn params() -> GaussianNbParams {
        GaussianNbParams::default()
    }

    /// Class means `μ_kj`, `K × d`, in the data's units.
    pub fn means(&self) -> CowArray<'_, f64, Ix2> {
        self.unit.restore(self.means.view(), 1)
    }

    /// Variances `σ²_kj` including the floor `ε`, `K × d` (identical rows when pooled), in the
    /// data's units: they overflow to `∞` for data whose squares do (beyond about `10¹⁵⁴`),
    /// where the model itself still works in its own unit.
    pub fn variances(&self) -> CowArray<'_, f64, Ix2> {
        self.unit.restore(self.variances.view(), 2)
    }

    /// The absolute floor `ε` that was added to every variance, in the data's units.
    pub fn variance_floor(&self) -> f64 {
        self.variance_floor * self.unit.value() * self.unit.value()
    }

    /// Per-class or pooled variances.
    pub fn variance_structure(&self) -> VarianceStructure {
        self.variance
    }

    /// Class priors `p(y = k)`.
    pub fn class_prior(&self) -> Array1<f64> {
        self.log_prior.mapv(f64::exp)
    }

    /// Weighted class totals `W_k` seen in training (counts when unweighted).
    pub fn class_weight(&self) -> ArrayView1<'_, f64> {
        self.class_weight.view()
    }

    /// `Σ_{j ∈ S} log N(x_ij; μ_kj, σ²_kj)` for the features `S` (all when `None`); `x` has
    /// been validated.
    fn log_likelihood_over(
        &self,
        x: ArrayView2<'_, f64>,
        features: Option<&[usize]>,
    ) -> Array2<f64> {
        let (n_classes, d) = self.means.dim();
        // Standard-layout copies (no-ops for fitted models) so that each class is a slice.
        let means = self.means.as_standard_layout();
        let means = means.as_slice().expect("standard layout");
        let precision: Vec<f64> = self.variances.iter().map(|v| v.recip()).collect();
        let region_norm: Vec<f64> = self
            .variances
            .axis_iter(Axis(0))
            .map(|row| {
                let log_norm = |v: f64| -0.5 * (ln_2pi() + v.ln());
                match features {
                    None => row.iter().map(|&v| log_norm(v)).sum(),
                    Some(f) => f.iter().map(|&j| log_norm(row[j])).sum(),
                }
            })
            .collect();
        sums_by_class(x, features, n_classes, |k, rows, features, sums| {
            let (mean, prec) = (&means[k * d..(k + 1) * d], &precision[k * d..(k + 1) * d]);
            quadratic_forms(rows, d, features, mean, prec, sums);
            for q in sums.iter_mut() {
                *q = region_norm[k] - 0.5 * *q;
            }
        })
    }

    fn fit_impl(
        p: &GaussianNbValidParams,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<Self> {
        let summary = check_training("Gaussian naive Bayes", x, y, w, p.n_classes, &p.priors)?;
        let n_classes = summary.n_classes;
        let unit = Unit::of(x);
        let moments = DiagonalMoments::accumulate(unit.rescale(x).view(), y, w, n_classes);
        let rows = || rows_per_class(y, w, n_classes);
        let mut variances = moments.sq_dev.clone();
        match p.variance {
            VarianceStructure::PerClass => {
                for (k, mut row) in variances.axis_iter_mut(Axis(0)).enumerate() {
                    let divisor =
                        p.variance_estimator
                            .check_divisor(moments.weight[k], 1, || {
                                (format!("variance of class {k}"), rows()[k])
                            })?;
                    row /= divisor;
                }
            }
            VarianceStructure::Pooled => {
                let divisor = p.variance_estimator.check_divisor(
                    summary.total_weight(),
                    n_classes,
                    || ("pooled within-class variance".into(), rows().iter().sum()),
                )?;
                let pooled = moments.sq_dev.sum_axis(Axis(0)) / divisor;
                variances.assign(&pooled.view().insert_axis(Axis(0)));
            }
        }
        let floor = variance_floor(p.var_smoothing, moments.max_column_variance());
        variances += floor;
        Ok(Self {
            unit,
            means: moments.means,
            variances,
            log_prior: p.priors.log_prior(&summary.class_weight)?,
            class_weight: Array1::from(summary.class_weight),
            variance_floor: floor,
            variance: p.variance,
        })
    }
}

crate::common::impl_fit!(GaussianNbValidParams => GaussianNb, fit_impl);

crate::common::impl_generative_classifier!(GaussianNb, |model| model.means.ncols(), |model| model
    .means
    .nrows());

/// `Σ_{j ∈ S} (x_ij − μ_j)² / σ²_j` of every row `i` of the row-major `rows` (`d` columns)
/// into `quad`, for one class's means and precisions: feature by feature over all rows, each
/// row's terms added in the order of `features` as `Iterator::sum` adds them (so the same
/// bits), and compiled for the widest vectors the processor has.
#[multiversion(targets("x86_64+avx512f", "x86_64+avx2"))]
fn quadratic_forms(
    rows: &[f64],
    d: usize,
    features: &[usize],
    mean: &[f64],
    precision: &[f64],
    quad: &mut [f64],
) {
    // `Iterator::sum` of floats starts from −0, which leaves its first term as it is.
    quad.fill(-0.0);
    for &j in features {
        let (m, p) = (mean[j], precision[j]);
        for (q, row) in quad.iter_mut().zip(rows.chunks_exact(d)) {
            let z = row[j] - m;
            *q += z * z * p;
        }
    }
}

impl Generative for GaussianNb {
    fn log_prior(&self) -> Array1<f64> {
        self.log_prior.clone()
    }

    fn class_log_likelihood(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        check_prediction(x, self.n_features())?;
        let log_likelihood = self.log_likelihood_over(self.unit.rescale(x).view(), None);
        Ok(self.unit.density_of_data(log_likelihood, self.n_features()))
    }
}

impl SavedModel for GaussianNb {
    const KIND: &'static str = "gaussian-naive-bayes";

    /// The unit is a power of two; `means` and `variances` are `K × d` and finite; every
    /// variance is at least the positive `variance_floor` the fit added to it, and pooled
    /// variances are the same for every class; the class priors and weights are those of `K`
    /// classes.
    fn check_invariants(&self) -> Result<()> {
        let kind = Self::KIND;
        self.unit.check(kind)?;
        let (n_classes, d) = self.means.dim();
        check_size(kind, "means", n_classes, d)?;
        finite(kind, "means", &self.means)?;
        shape(kind, "variances", &self.variances, &[n_classes, d])?;
        check_floored_variances(kind, &self.variances, self.variance_floor)?;
        if self.variance == VarianceStructure::Pooled {
            let first = self.variances.row(0);
            if let Some(k) = self.variances.outer_iter().position(|row| row != first) {
                return Err(invalid(
                    kind,
                    "variances",
                    format!("pooled variances differ between class 0 and class {k}"),
                ));
            }
        }
        check_classes(kind, n_classes, &self.log_prior, &self.class_weight)
    }

    /// With per-class variances, one warning per class that has no spread in any feature (a
    /// single training row, or identical rows): its variances are the smoothing floor alone,
    /// so it claims only points at its mean and misclassifies its own new rows.
    fn warnings(&self) -> Vec<String> {
        if self.variance != VarianceStructure::PerClass {
            return Vec::new();
        }
        self.variances
            .outer_iter()
            .enumerate()
            .filter(|(_, row)| row.iter().all(|&v| v <= self.variance_floor))
            .map(|(k, _)| {
                format!(
                    "class {k} has no spread in any feature (a single training row, or \
                     identical rows): its variances are the smoothing floor alone ({:e}), so it \
                     claims only points at its mean; more rows of the class or a larger \
                     var_smoothing fix it",
                    self.variance_floor()
                )
            })
            .collect()
    }
}

impl FactorisedGenerative for GaussianNb {
    /// `log p(x^S | y = k) = Σ_{j ∈ S} log N(x_j; μ_kj, σ²_kj)`.
    fn region_log_likelihood(
        &self,
        x: ArrayView2<'_, f64>,
        features: &[usize],
    ) -> Result<Array2<f64>> {
        check_prediction(x, self.n_features())?;
        check_region(features, self.n_features())?;
        let log_likelihood = self.log_likelihood_over(self.unit.rescale(x).view(), Some(features));
        Ok(self.unit.density_of_data(log_likelihood, features.len()))
    }
}

gendisc_core::impl_conditional_model_by_bayes!(GaussianNb);

impl SampleJoint for GaussianNb {
    /// `y ~ p(y)`, then `x_j ~ N(μ_yj, σ²_yj)` independently.
    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> (Array2<f64>, Array1<usize>) {
        let classes = Categorical::from_log_weights(self.log_prior.view());
        let sd = self.variances.mapv(f64::sqrt);
        let mut x = Array2::zeros((n, self.n_features()));
        let mut y = Array1::zeros(n);
        for (mut row, yi) in x.axis_iter_mut(Axis(0)).zip(y.iter_mut()) {
            let k = classes.draw(rng);
            *yi = k;
            for ((xj, &m), &s) in row.iter_mut().zip(self.means.row(k)).zip(sd.row(k)) {
                *xj = m + s * rng.sample::<f64, _>(StandardNormal);
            }
        }
        (self.unit.restore(x.view(), 1).into_owned(), y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_without_spread_is_a_warning() {
        let x = ndarray::array![[0.0, 1.0], [1.0, 0.5], [2.0, 1.5], [5.0, 5.0]];
        let y = ndarray::array![0, 0, 0, 1];
        let model = GaussianNb::params().fit(x.view(), y.view()).unwrap();
        let warnings = model.warnings();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with("class 1 has no spread"),
            "{warnings:?}"
        );
        // Pooled variances borrow the other classes' spread; two distinct rows have their own.
        let pooled = GaussianNb::params()
            .variance(VarianceStructure::Pooled)
            .fit(x.view(), y.view())
            .unwrap();
        assert!(pooled.warnings().is_empty());
        let x2 = ndarray::array![[0.0, 1.0], [1.0, 0.5], [2.0, 1.5], [5.0, 5.0], [5.5, 5.0]];
        let y2 = ndarray::array![0, 0, 0, 1, 1];
        assert!(GaussianNb::params()
            .fit(x2.view(), y2.view())
            .unwrap()
            .warnings()
            .is_empty());
    }
    use approx::assert_relative_eq;
    use gendisc_core::Fit;
    use gendisc_core::{ConditionalModel, Error};
    use ndarray::array;

    fn data() -> (Array2<f64>, Array1<usize>) {
        (
            array![[1.0, 2.0], [2.0, 0.0], [3.0, 1.0], [6.0, 5.0], [8.0, 4.0]],
            array![0, 0, 0, 1, 1],
        )
    }

    #[test]
    fn per_class_estimates_by_hand() {
        let (x, y) = data();
        let m = GaussianNb::params().fit(x.view(), y.view()).unwrap();
        assert_relative_eq!(m.means()[[0, 0]], 2.0);
        assert_relative_eq!(m.means()[[1, 1]], 4.5);
        // Class 0, feature 0: values 1, 2, 3 → ML variance 2/3.
        let eps = m.variance_floor();
        assert_relative_eq!(m.variances()[[0, 0]], 2.0 / 3.0 + eps, max_relative = 1e-14);
        // Class 1, feature 0: values 6, 8 → ML variance 1.
        assert_relative_eq!(m.variances()[[1, 0]], 1.0 + eps, max_relative = 1e-14);
        // ε = 1e-9 · max_j Var(x_j); Var(x_0) of 1,2,3,6,8 = 6.8, Var(x_1) of 2,0,1,5,4 = 3.44.
        assert_relative_eq!(eps, 1e-9 * 6.8, max_relative = 1e-12);
        assert_relative_eq!(m.class_prior()[0], 0.6, max_relative = 1e-14);

        let u = GaussianNb::params()
            .variance_estimator(VarianceEstimator::Unbiased)
            .fit(x.view(), y.view())
            .unwrap();
        assert_relative_eq!(u.variances()[[0, 0]], 1.0 + eps, max_relative = 1e-14);
        assert_relative_eq!(u.variances()[[1, 0]], 2.0 + eps, max_relative = 1e-14);
    }

    #[test]
    fn pooled_variances_by_hand() {
        let (x, y) = data();
        let m = GaussianNb::params()
            .variance(VarianceStructure::Pooled)
            .fit(x.view(), y.view())
            .unwrap();
        // Feature 0: squared deviations 2 (class 0) + 2 (class 1) over n = 5 (ML) or n − K = 3.
        let eps = m.variance_floor();
        assert_relative_eq!(m.variances()[[0, 0]], 4.0 / 5.0 + eps, max_relative = 1e-14);
        assert_eq!(m.variances().row(0), m.variances().row(1));
        let u = GaussianNb::params()
            .variance(VarianceStructure::Pooled)
            .variance_estimator(VarianceEstimator::Unbiased)
            .fit(x.view(), y.view())
            .unwrap();
        assert_relative_eq!(u.variances()[[1, 0]], 4.0 / 3.0 + eps, max_relative = 1e-14);
    }

    #[test]
    fn log_likelihood_is_the_normal_density() {
        let (x, y) = data();
        let m = GaussianNb::params().fit(x.view(), y.view()).unwrap();
        let t = array![[2.5, -1.0]];
        let ll = m.class_log_likelihood(t.view()).unwrap();
        for k in 0..2 {
            let mut expected = 0.0;
            for j in 0..2 {
                let v = m.variances()[[k, j]];
                let z = t[[0, j]] - m.means()[[k, j]];
                expected +=
                    (-(z * z) / (2.0 * v)).exp().ln() - 0.5 * (2.0 * std::f64::consts::PI * v).ln();
            }
            assert_relative_eq!(ll[[0, k]], expected, max_relative = 1e-12);
        }
        // Regions partition the likelihood.
        let r0 = m.region_log_likelihood(t.view(), &[0]).unwrap();
        let r1 = m.region_log_likelihood(t.view(), &[1]).unwrap();
        assert_relative_eq!(r0[[0, 1]] + r1[[0, 1]], ll[[0, 1]], max_relative = 1e-12);
        let p = m.predict_proba(t.view()).unwrap();
        assert_relative_eq!(p.sum(), 1.0, max_relative = 1e-12);
    }

    #[test]
    fn constant_feature_gets_a_positive_variance() {
        let x = array![[1.0, 5.0], [1.0, 6.0], [1.0, 7.0], [1.0, 9.0]];
        let y = array![0, 0, 1, 1];
        let m = GaussianNb::params().fit(x.view(), y.view()).unwrap();
        assert!(m.variances().iter().all(|&v| v > 0.0));
        let p = m
            .predict_proba(array![[1.0, 6.5], [2.0, 6.5]].view())
            .unwrap();
        assert!(p.iter().all(|v| v.is_finite()));
        // All columns constant: the floor falls back to scale 1.
        let x = array![[1.0], [1.0]];
        let m = GaussianNb::params()
            .fit(x.view(), array![0, 1].view())
            .unwrap();
        assert_eq!(m.variance_floor(), 1e-9);
    }

    #[test]
    fn unbiased_needs_two_rows_per_class() {
        let x = array![[1.0], [2.0], [3.0]];
        let y = array![0, 0, 1];
        let err = GaussianNb::params()
            .variance_estimator(VarianceEstimator::Unbiased)
            .fit(x.view(), y.view())
            .unwrap_err();
        assert!(
            matches!(
                err,
                Error::TooFewRows {
                    needed: 2,
                    found: 1,
                    ..
                }
            ),
            "{err}"
        );
        // ML is fine with one row: the floor keeps the variance positive.
        assert!(GaussianNb::params().fit(x.view(), y.view()).is_ok());
    }

    #[test]
    fn bad_params_are_refused() {
        let (x, y) = data();
        for s in [0.0, -1.0, f64::NAN] {
            assert!(matches!(
                GaussianNb::params()
                    .var_smoothing(s)
                    .fit(x.view(), y.view()),
                Err(Error::InvalidParameter {
                    name: "var_smoothing",
                    ..
                })
            ));
        }
        assert!(GaussianNb::params()
            .n_classes(0)
            .fit(x.view(), y.view())
            .is_err());
    }
}
