//! Quadratic discriminant analysis: Gaussian classes, each with its own full covariance
//! (Bouchard & Triggs 2004, §5, density 2).
//!
//! ```text
//! p(x | y = k) = N(x; μ_k, Σ_k)
//! Σ_k = Σ_{i: y_i = k} w_i (x_i − μ_k)(x_i − μ_k)ᵀ / W_k       (maximum likelihood, default)
//!     or                                           / (W_k − 1)   (unbiased)
//! ```
//!
//! followed by the regulariser ([`CovarianceShrinkage`]). Without one, a class needs more rows
//! than features (`n_k ≥ d + 1`) and linearly independent features; a singular `Σ_k` is an
//! error naming the class.
//!
//! **scikit-learn.** `QuadraticDiscriminantAnalysis(reg_param = r)` is
//! `variance_estimator(MaximumLikelihood)` with [`CovarianceShrinkage::Identity`]`(r)`:
//! scikit-learn 1.9 (the version of the golden fixtures) scales the class scatter by `1 / n_k`
//! before applying `(1 − r) S + r I`. Older releases divided by `n_k − 1`, which is
//! [`VarianceEstimator::Unbiased`] here.

use ndarray::{Array1, Array2, Array3, ArrayView1, ArrayView2, Axis, CowArray, Ix2, Ix3};
use rand::Rng;
use serde::{Deserialize, Serialize};

use gendisc_core::linalg::Cholesky;
use gendisc_core::model_file::invariants::shape;
use gendisc_core::{Classifier, Error, Generative, ParamGuard, Result, SavedModel};

use crate::common::{
    check_n_classes, check_prediction, check_training, rows_per_class, ClassPriors,
    VarianceEstimator,
};
use crate::gaussian::{
    check_means_and_classes, check_symmetric, draw_gaussian, factorise, factorise_saved,
    log_density_into, CovarianceShrinkage,
};
use crate::model_file::locate;
use crate::moments::ScatterMoments;
use crate::sampling::{Categorical, SampleJoint};
use crate::unit::Unit;

/// Hyper-parameters of [`Qda`], validated.
///
/// | parameter | default | meaning |
/// |---|---|---|
/// | `variance_estimator` | [`VarianceEstimator::MaximumLikelihood`] | divisor `W_k` (ML, scikit-learn ≥ 1.9) or `W_k − 1` |
/// | `regularization` | [`CovarianceShrinkage::None`] | regulariser of each class covariance (`Identity(r)` is scikit-learn's `reg_param = r`) |
/// | `priors` | [`ClassPriors::Empirical`] | class prior |
/// | `n_classes` | `max(y) + 1` | number of classes `K` |
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QdaValidParams {
    variance_estimator: VarianceEstimator,
    regularization: CovarianceShrinkage,
    priors: ClassPriors,
    n_classes: Option<usize>,
}

impl Default for QdaValidParams {
    fn default() -> Self {
        Self {
            variance_estimator: VarianceEstimator::MaximumLikelihood,
            regularization: CovarianceShrinkage::None,
            priors: ClassPriors::Empirical,
            n_classes: None,
        }
    }
}

impl QdaValidParams {
    /// The covariance divisor.
    pub fn variance_estimator(&self) -> VarianceEstimator {
        self.variance_estimator
    }
    /// The covariance regulariser.
    pub fn regularization(&self) -> CovarianceShrinkage {
        self.regularization
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

/// Builder for [`QdaValidParams`]; see there for the table of parameters.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct QdaParams(QdaValidParams);

impl QdaParams {
    /// Maximum likelihood (default) or unbiased class covariances.
    pub fn variance_estimator(mut self, estimator: VarianceEstimator) -> Self {
        self.0.variance_estimator = estimator;
        self
    }
    /// The regulariser of each class covariance (default none).
    pub fn regularization(mut self, regularization: CovarianceShrinkage) -> Self {
        self.0.regularization = regularization;
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

impl ParamGuard for QdaParams {
    type Checked = QdaValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        self.0.regularization.check("regularization")?;
        self.0.priors.check()?;
        check_n_classes(self.0.n_classes)?;
        Ok(&self.0)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}

/// A fitted quadratic discriminant analysis model; see the [module documentation](self).
///
/// Serialised as its parameters; the Cholesky factors are recomputed, and the covariances
/// re-validated, on deserialisation. Data of extreme magnitude is fitted in a power-of-two unit,
/// as [`Lda`](crate::Lda) is.
///
/// ```
/// use gendisc_core::{ConditionalModel, Fit};
/// use gendisc_generative::{CovarianceShrinkage, Qda};
/// use ndarray::array;
///
/// let x = array![[0.0, 0.0], [1.0, 0.2], [0.1, 1.0], [4.0, 4.0], [6.0, 4.5], [4.2, 7.0]];
/// let y = array![0, 0, 0, 1, 1, 1];
/// // Three rows per class in two dimensions: regularise as scikit-learn's reg_param = 0.1.
/// let qda = Qda::params()
///     .regularization(CovarianceShrinkage::Identity(0.1))
///     .fit(x.view(), y.view())
///     .unwrap();
/// assert!(qda.predict_proba(array![[5.0, 5.0]].view()).unwrap()[[0, 1]] > 0.9);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "QdaParts", into = "QdaParts")]
pub struct Qda {
    /// The unit of `means` and `covariances`: the model is one of `x / unit`.
    unit: Unit,
    means: Array2<f64>,
    covariances: Array3<f64>,
    log_prior: Array1<f64>,
    class_weight: Array1<f64>,
    chol: Vec<Cholesky>,
}

/// The serialised form of [`Qda`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct QdaParts {
    #[serde(default, skip_serializing_if = "Unit::is_one")]
    unit: Unit,
    means: Array2<f64>,
    covariances: Array3<f64>,
    log_prior: Array1<f64>,
    class_weight: Array1<f64>,
}

impl TryFrom<QdaParts> for Qda {
    type Error = Error;

    /// Checks the parameters ([`check_parameters`]) and factorises the covariances, which must
    /// be positive definite.
    fn try_from(p: QdaParts) -> Result<Self> {
        check_parameters(
            p.unit,
            &p.means,
            &p.covariances,
            &p.log_prior,
            &p.class_weight,
        )?;
        let chol = p
            .covariances
            .axis_iter(Axis(0))
            .enumerate()
            .map(|(c, s)| {
                factorise_saved(
                    Qda::KIND,
                    "covariances",
                    s,
                    &format!("QDA covariance of class {c}"),
                )
            })
            .collect::<Result<_>>()?;
        Ok(Self {
            unit: p.unit,
            means: p.means,
            covariances: p.covariances,
            log_prior: p.log_prior,
            class_weight: p.class_weight,
            chol,
        })
    }
}

/// Every invariant of a QDA model's parameters but the covariances' positive definiteness
/// (which their Cholesky factorisations check): the unit is a power of two, `means` is a finite
/// `K × d` matrix, `covariances` `K` finite, symmetric `d × d` ones, and the class priors and
/// weights are those of `K` classes.
fn check_parameters(
    unit: Unit,
    means: &Array2<f64>,
    covariances: &Array3<f64>,
    log_prior: &Array1<f64>,
    class_weight: &Array1<f64>,
) -> Result<()> {
    let kind = Qda::KIND;
    check_means_and_classes(kind, unit, means, log_prior, class_weight)?;
    let (n_classes, d) = means.dim();
    shape(kind, "covariances", covariances, &[n_classes, d, d])?;
    for (k, covariance) in covariances.outer_iter().enumerate() {
        check_symmetric(kind, "covariances", covariance)
            .map_err(|e| locate(e, format!("class {k}")))?;
    }
    Ok(())
}

impl SavedModel for Qda {
    const KIND: &'static str = "qda";

    /// The checks of deserialisation, which every `Qda` has passed (see [`Qda`]): the unit is a
    /// power of two, `means` is a finite `K × d` matrix, `covariances` `K` finite, symmetric,
    /// positive definite `d × d` ones, and the class priors and weights are those of `K`
    /// classes.
    fn check_invariants(&self) -> Result<()> {
        check_parameters(
            self.unit,
            &self.means,
            &self.covariances,
            &self.log_prior,
            &self.class_weight,
        )
    }
}

impl From<Qda> for QdaParts {
    fn from(m: Qda) -> Self {
        Self {
            unit: m.unit,
            means: m.means,
            covariances: m.covariances,
            log_prior: m.log_prior,
            class_weight: m.class_weight,
        }
    }
}

impl Qda {
    /// The default hyper-parameters, to be adjusted and fitted.
    pub fn params() -> QdaParams {
        QdaParams::default()
    }

    /// Class means `μ_k`, `K × d`, in the data's units.
    pub fn means(&self) -> CowArray<'_, f64, Ix2> {
        self.unit.restore(self.means.view(), 1)
    }

    /// Class covariances `Σ_k` (after regularisation), `K × d × d`, in the data's units:
    /// entries overflow to `∞` for data whose squares do (beyond about `10¹⁵⁴`), where the
    /// model itself still works in its own unit.
    pub fn covariances(&self) -> CowArray<'_, f64, Ix3> {
        self.unit.restore(self.covariances.view(), 2)
    }

    /// Class priors `p(y = k)`.
    pub fn class_prior(&self) -> Array1<f64> {
        self.log_prior.mapv(f64::exp)
    }

    /// Weighted class totals `W_k` seen in training.
    pub fn class_weight(&self) -> ArrayView1<'_, f64> {
        self.class_weight.view()
    }

    fn fit_impl(
        p: &QdaValidParams,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<Self> {
        let summary = check_training("QDA", x, y, w, p.n_classes, &p.priors)?;
        let (n_classes, d) = (summary.n_classes, x.ncols());
        let rows = rows_per_class(y, w, n_classes);
        if p.regularization.is_none()
            && let Some(k) = (0..n_classes).find(|&k| rows[k] < d + 1)
        {
            return Err(Error::TooFewRows {
                what: format!("QDA covariance of class {k} without regularization ({d} features)"),
                needed: d + 1,
                found: rows[k],
            });
        }
        let unit = Unit::of(x);
        let moments = ScatterMoments::accumulate(unit.rescale(x).view(), y, w, n_classes);
        let mut covariances = moments.scatter;
        let mut chol = Vec::with_capacity(n_classes);
        for (k, mut s) in covariances.axis_iter_mut(Axis(0)).enumerate() {
            let divisor = p
                .variance_estimator
                .check_divisor(moments.weight[k], 1, || {
                    (format!("QDA covariance of class {k}"), rows[k])
                })?;
            let mut cov = s.to_owned() / divisor;
            p.regularization.apply(&mut cov, unit, "regularization")?;
            chol.push(factorise(
                cov.view(),
                &format!("QDA covariance of class {k}"),
                "collinear features within the class; a positive `regularization` fixes it",
            )?);
            s.assign(&cov);
        }
        Ok(Self {
            unit,
            means: moments.means,
            covariances,
            log_prior: p.priors.log_prior(&summary.class_weight)?,
            class_weight: Array1::from(summary.class_weight),
            chol,
        })
    }
}

crate::common::impl_fit!(QdaValidParams => Qda, fit_impl);

crate::common::impl_generative_classifier!(Qda, |model| model.means.ncols(), |model| model
    .means
    .nrows());

impl Generative for Qda {
    fn log_prior(&self) -> Array1<f64> {
        self.log_prior.clone()
    }

    fn class_log_likelihood(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        check_prediction(x, self.n_features())?;
        let x = self.unit.rescale(x);
        let mut out = Array2::zeros((x.nrows(), self.n_classes()));
        for ((mean, chol), col) in self
            .means
            .axis_iter(Axis(0))
            .zip(&self.chol)
            .zip(out.axis_iter_mut(Axis(1)))
        {
            log_density_into(x.view(), mean, chol, col)?;
        }
        Ok(self.unit.density_of_data(out, self.n_features()))
    }
}

gendisc_core::impl_conditional_model_by_bayes!(Qda);

impl SampleJoint for Qda {
    /// `y ~ p(y)`, then `x = μ_y + L_y z` with `Σ_y = L_y L_yᵀ`, `z ~ N(0, I)`.
    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> (Array2<f64>, Array1<usize>) {
        let classes = Categorical::from_log_weights(self.log_prior.view());
        let mut z = vec![0.0; self.n_features()];
        let mut x = Array2::zeros((n, self.n_features()));
        let mut y = Array1::zeros(n);
        for (row, yi) in x.axis_iter_mut(Axis(0)).zip(y.iter_mut()) {
            let k = classes.draw(rng);
            *yi = k;
            draw_gaussian(self.means.row(k), self.chol[k].factor(), &mut z, row, rng);
        }
        (self.unit.restore(x.view(), 1).into_owned(), y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use gendisc_core::Fit;
    use ndarray::array;

    fn data() -> (Array2<f64>, Array1<usize>) {
        (
            array![
                [1.0, 2.0],
                [2.0, 1.0],
                [3.0, 3.0],
                [2.5, 0.5],
                [6.0, 5.0],
                [8.0, 4.0],
                [7.0, 7.0]
            ],
            array![0, 0, 0, 0, 1, 1, 1],
        )
    }

    #[test]
    fn class_covariances_by_hand() {
        let (x, y) = data();
        let ml = Qda::params().fit(x.view(), y.view()).unwrap();
        let unbiased = Qda::params()
            .variance_estimator(VarianceEstimator::Unbiased)
            .fit(x.view(), y.view())
            .unwrap();
        for k in 0..2 {
            let rows: Vec<usize> = (0..7).filter(|&i| y[i] == k).collect();
            let n = rows.len() as f64;
            let mut s = Array2::<f64>::zeros((2, 2));
            for &i in &rows {
                let dv = &x.row(i) - &ml.means().row(k);
                for a in 0..2 {
                    for b in 0..2 {
                        s[[a, b]] += dv[a] * dv[b];
                    }
                }
            }
            let (ml_all, ub_all) = (ml.covariances(), unbiased.covariances());
            let ml_k = ml_all.index_axis(Axis(0), k);
            let ub_k = ub_all.index_axis(Axis(0), k);
            assert_relative_eq!(ml_k, (&s / n).view(), max_relative = 1e-13);
            assert_relative_eq!(ub_k, (&s / (n - 1.0)).view(), max_relative = 1e-13);
        }
    }

    #[test]
    fn small_classes_need_regularization() {
        let (x, y) = data();
        // Class 1 has 3 rows in 2 dimensions: enough. Drop one and it is not.
        let err = Qda::params()
            .fit(
                x.view().split_at(Axis(0), 6).0,
                y.view().split_at(Axis(0), 6).0,
            )
            .unwrap_err();
        assert!(
            matches!(
                err,
                Error::TooFewRows {
                    needed: 3,
                    found: 2,
                    ..
                }
            ),
            "{err}"
        );
        let m = Qda::params()
            .regularization(CovarianceShrinkage::Identity(0.5))
            .fit(
                x.view().split_at(Axis(0), 6).0,
                y.view().split_at(Axis(0), 6).0,
            )
            .unwrap();
        // With two rows the ML covariance is rank one; the regulariser fixes it.
        let all = m.covariances();
        let c = all.index_axis(Axis(0), 1);
        assert!(c[[0, 0]] * c[[1, 1]] - c[[0, 1]] * c[[1, 0]] > 0.0);
    }

    #[test]
    fn serde_round_trip() {
        let (x, y) = data();
        let m = Qda::params().fit(x.view(), y.view()).unwrap();
        let back: Qda = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(back, m);
    }
}
