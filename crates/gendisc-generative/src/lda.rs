//! Linear discriminant analysis: Gaussian classes with one shared full covariance
//! (Bouchard & Triggs 2004, §5, density 1).
//!
//! ```text
//! p(x | y = k) = N(x; μ_k, Σ)
//! μ_k = Σ_{i: y_i = k} w_i x_i / W_k
//! Σ   = Σ_k Σ_{i: y_i = k} w_i (x_i − μ_k)(x_i − μ_k)ᵀ / W          (pooled, maximum likelihood)
//! ```
//!
//! These are the maximum-likelihood estimates of eq. (2), the generative fit that the GDT
//! estimator starts from. The log-odds between two classes are linear in `x`:
//! `log p(k | x) − log p(j | x) = (β_k − β_j)ᵀ x + (b_k − b_j)` with `β_k = Σ⁻¹ μ_k` and
//! `b_k = −½ μ_kᵀ Σ⁻¹ μ_k + log π_k` ([`Lda::coefficients`]).
//!
//! A singular pooled covariance (fewer than `d + K` rows, or collinear features) is an error
//! unless it is regularised by `shrinkage` ([`CovarianceShrinkage`]).
//!
//! **scikit-learn.** `LinearDiscriminantAnalysis(solver = "lsqr" or "eigen",
//! store_covariance = True)` estimates `Σ = Σ_k π_k S_k` with `S_k` the ML covariance of class
//! `k`: with empirical priors this is exactly the pooled ML estimate above; with given priors
//! scikit-learn weights the class covariances by the priors, gendisc by the class sizes.
//! Its `shrinkage = γ` is [`CovarianceShrinkage::ScaledIdentity`]`(γ)` (applied per class
//! there, to the pooled matrix here: the same result, as the rule is linear).

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis, CowArray, Ix2};
use rand::Rng;
use serde::{Deserialize, Serialize};

use gendisc_core::linalg::Cholesky;
use gendisc_core::model_file::invariants::shape;
use gendisc_core::{Classifier, Error, Generative, ParamGuard, Result, SavedModel};

use crate::common::{
    check_n_classes, check_prediction, check_training, rows_per_class, ClassPriors,
};
use crate::gaussian::{
    check_means_and_classes, check_symmetric, draw_gaussian, factorise, factorise_saved,
    log_density_into, CovarianceShrinkage,
};
use crate::moments::ScatterMoments;
use crate::sampling::{Categorical, SampleJoint};
use crate::unit::Unit;

/// Hyper-parameters of [`Lda`], validated.
///
/// | parameter | default | meaning |
/// |---|---|---|
/// | `shrinkage` | [`CovarianceShrinkage::None`] | regulariser of the pooled covariance |
/// | `priors` | [`ClassPriors::Empirical`] | class prior |
/// | `n_classes` | `max(y) + 1` | number of classes `K` |
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LdaValidParams {
    shrinkage: CovarianceShrinkage,
    priors: ClassPriors,
    n_classes: Option<usize>,
}

impl LdaValidParams {
    /// The covariance regulariser.
    pub fn shrinkage(&self) -> CovarianceShrinkage {
        self.shrinkage
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

/// Builder for [`LdaValidParams`]; see there for the table of parameters.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct LdaParams(LdaValidParams);

impl Default for LdaValidParams {
    fn default() -> Self {
        Self {
            shrinkage: CovarianceShrinkage::None,
            priors: ClassPriors::Empirical,
            n_classes: None,
        }
    }
}

impl LdaParams {
    /// The regulariser of the pooled covariance (default none).
    pub fn shrinkage(mut self, shrinkage: CovarianceShrinkage) -> Self {
        self.0.shrinkage = shrinkage;
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

impl ParamGuard for LdaParams {
    type Checked = LdaValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        self.0.shrinkage.check("shrinkage")?;
        self.0.priors.check()?;
        check_n_classes(self.0.n_classes)?;
        Ok(&self.0)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}

/// A fitted linear discriminant analysis model; see the [module documentation](self).
///
/// Serialised as its parameters (means, covariance, log-priors, class weights); the Cholesky
/// factor is recomputed, and the covariance re-validated, on deserialisation.
///
/// Data of extreme magnitude (beyond `2^±256`) is fitted in a power-of-two unit `u` (exact, see
/// the crate's `unit` module): means and covariance are stored in that unit, and serialised
/// with it (`"unit"`, omitted when 1), so that a covariance of data near `10³⁰⁰` — `10⁶⁰⁰` in
/// the data's units — stays representable.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "LdaParts", into = "LdaParts")]
pub struct Lda {
    /// The unit of `means` and `covariance`: the model is one of `x / unit`.
    unit: Unit,
    means: Array2<f64>,
    covariance: Array2<f64>,
    log_prior: Array1<f64>,
    class_weight: Array1<f64>,
    chol: Cholesky,
}

/// The serialised form of [`Lda`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LdaParts {
    #[serde(default, skip_serializing_if = "Unit::is_one")]
    unit: Unit,
    means: Array2<f64>,
    covariance: Array2<f64>,
    log_prior: Array1<f64>,
    class_weight: Array1<f64>,
}

impl TryFrom<LdaParts> for Lda {
    type Error = Error;

    /// Checks the parameters ([`check_parameters`]) and factorises the covariance, which must be
    /// positive definite.
    fn try_from(p: LdaParts) -> Result<Self> {
        check_parameters(
            p.unit,
            &p.means,
            &p.covariance,
            &p.log_prior,
            &p.class_weight,
        )?;
        let chol = factorise_saved(
            Lda::KIND,
            "covariance",
            p.covariance.view(),
            "LDA covariance",
        )?;
        Ok(Self {
            unit: p.unit,
            means: p.means,
            covariance: p.covariance,
            log_prior: p.log_prior,
            class_weight: p.class_weight,
            chol,
        })
    }
}

/// Every invariant of an LDA model's parameters but the covariance's positive definiteness
/// (which its Cholesky factorisation checks): the unit is a power of two, `means` is a finite
/// `K × d` matrix, `covariance` a finite, symmetric `d × d` one, and the class priors and
/// weights are those of `K` classes.
fn check_parameters(
    unit: Unit,
    means: &Array2<f64>,
    covariance: &Array2<f64>,
    log_prior: &Array1<f64>,
    class_weight: &Array1<f64>,
) -> Result<()> {
    let kind = Lda::KIND;
    check_means_and_classes(kind, unit, means, log_prior, class_weight)?;
    let d = means.ncols();
    shape(kind, "covariance", covariance, &[d, d])?;
    check_symmetric(kind, "covariance", covariance.view())
}

impl SavedModel for Lda {
    const KIND: &'static str = "lda";

    /// The checks of deserialisation, which every `Lda` has passed (see [`Lda`]): the unit is a
    /// power of two, `means` is a finite `K × d` matrix, `covariance` a finite, symmetric,
    /// positive definite `d × d` one, and the class priors and weights are those of `K`
    /// classes.
    fn check_invariants(&self) -> Result<()> {
        check_parameters(
            self.unit,
            &self.means,
            &self.covariance,
            &self.log_prior,
            &self.class_weight,
        )
    }
}

impl From<Lda> for LdaParts {
    fn from(m: Lda) -> Self {
        Self {
            unit: m.unit,
            means: m.means,
            covariance: m.covariance,
            log_prior: m.log_prior,
            class_weight: m.class_weight,
        }
    }
}

impl Lda {
    /// The default hyper-parameters, to be adjusted and fitted.
    pub fn params() -> LdaParams {
        LdaParams::default()
    }

    /// Class means `μ_k`, `K × d`, in the data's units.
    pub fn means(&self) -> CowArray<'_, f64, Ix2> {
        self.unit.restore(self.means.view(), 1)
    }

    /// The shared covariance `Σ` (after shrinkage), `d × d`, in the data's units: entries
    /// overflow to `∞` for data whose squares do (beyond about `10¹⁵⁴`), where the model itself
    /// still works in its own unit.
    pub fn covariance(&self) -> CowArray<'_, f64, Ix2> {
        self.unit.restore(self.covariance.view(), 2)
    }

    /// Class priors `p(y = k)`.
    pub fn class_prior(&self) -> Array1<f64> {
        self.log_prior.mapv(f64::exp)
    }

    /// Weighted class totals `W_k` seen in training.
    pub fn class_weight(&self) -> ArrayView1<'_, f64> {
        self.class_weight.view()
    }

    /// The linear discriminant functions `δ_k(x) = β_kᵀ x + b_k`, equal to `log p(x, y = k)`
    /// up to a term that does not depend on `k`: `β = (Σ⁻¹ μ_k)_k` as a `K × d` matrix and
    /// `b_k = −½ μ_kᵀ Σ⁻¹ μ_k + log π_k` (scikit-learn's `coef_` and `intercept_`).
    pub fn coefficients(&self) -> Result<(Array2<f64>, Array1<f64>)> {
        // In the model's unit `u`: β x = (β̃ / u) x and the intercepts do not change.
        let beta = self.chol.solve(self.means.t())?.reversed_axes();
        let intercept = Array1::from_iter(
            beta.axis_iter(Axis(0))
                .zip(self.means.axis_iter(Axis(0)))
                .zip(self.log_prior.iter())
                .map(|((b, m), &lp)| -0.5 * b.dot(&m) + lp),
        );
        Ok((beta / self.unit.value(), intercept))
    }

    fn fit_impl(
        p: &LdaValidParams,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<Self> {
        let summary = check_training("LDA", x, y, w, p.n_classes, &p.priors)?;
        let (n_classes, d) = (summary.n_classes, x.ncols());
        if p.shrinkage.is_none() {
            let rows: usize = rows_per_class(y, w, n_classes).iter().sum();
            if rows < d + n_classes {
                return Err(Error::TooFewRows {
                    what: format!(
                        "LDA's pooled covariance without shrinkage ({d} features + {n_classes} classes)"
                    ),
                    needed: d + n_classes,
                    found: rows,
                });
            }
        }
        let unit = Unit::of(x);
        let moments = ScatterMoments::accumulate(unit.rescale(x).view(), y, w, n_classes);
        let mut covariance = moments.scatter.sum_axis(Axis(0)) / summary.total_weight();
        p.shrinkage.apply(&mut covariance, unit, "shrinkage")?;
        let chol = factorise(
            covariance.view(),
            "LDA pooled covariance",
            "collinear features; a positive `shrinkage` regularises it",
        )?;
        Ok(Self {
            unit,
            means: moments.means,
            covariance,
            log_prior: p.priors.log_prior(&summary.class_weight)?,
            class_weight: Array1::from(summary.class_weight),
            chol,
        })
    }
}

crate::common::impl_fit!(LdaValidParams => Lda, fit_impl);

crate::common::impl_generative_classifier!(Lda, |model| model.means.ncols(), |model| model
    .means
    .nrows());

impl Generative for Lda {
    fn log_prior(&self) -> Array1<f64> {
        self.log_prior.clone()
    }

    fn class_log_likelihood(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        check_prediction(x, self.n_features())?;
        let x = self.unit.rescale(x);
        let mut out = Array2::zeros((x.nrows(), self.n_classes()));
        for (mean, col) in self
            .means
            .axis_iter(Axis(0))
            .zip(out.axis_iter_mut(Axis(1)))
        {
            log_density_into(x.view(), mean, &self.chol, col)?;
        }
        Ok(self.unit.density_of_data(out, self.n_features()))
    }
}

gendisc_core::impl_conditional_model_by_bayes!(Lda);

impl SampleJoint for Lda {
    /// `y ~ p(y)`, then `x = μ_y + L z` with `Σ = L Lᵀ`, `z ~ N(0, I)`.
    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> (Array2<f64>, Array1<usize>) {
        let classes = Categorical::from_log_weights(self.log_prior.view());
        let mut z = vec![0.0; self.n_features()];
        let mut x = Array2::zeros((n, self.n_features()));
        let mut y = Array1::zeros(n);
        for (row, yi) in x.axis_iter_mut(Axis(0)).zip(y.iter_mut()) {
            *yi = classes.draw(rng);
            draw_gaussian(self.means.row(*yi), self.chol.factor(), &mut z, row, rng);
        }
        (self.unit.restore(x.view(), 1).into_owned(), y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use gendisc_core::ConditionalModel;
    use gendisc_core::Fit;
    use ndarray::array;

    fn data() -> (Array2<f64>, Array1<usize>) {
        (
            array![
                [1.0, 2.0],
                [2.0, 1.0],
                [3.0, 3.0],
                [6.0, 5.0],
                [8.0, 4.0],
                [7.0, 7.0]
            ],
            array![0, 0, 0, 1, 1, 1],
        )
    }

    #[test]
    fn pooled_covariance_by_hand() {
        let (x, y) = data();
        let m = Lda::params().fit(x.view(), y.view()).unwrap();
        // Class 0: mean (2, 2), deviations (−1,0),(0,−1),(1,1); class 1: mean (7, 16/3).
        assert_relative_eq!(m.means()[[1, 1]], 16.0 / 3.0, max_relative = 1e-15);
        let mut s = Array2::<f64>::zeros((2, 2));
        for i in 0..6 {
            let dv = &x.row(i) - &m.means().row(y[i]);
            for a in 0..2 {
                for b in 0..2 {
                    s[[a, b]] += dv[a] * dv[b];
                }
            }
        }
        s /= 6.0;
        assert_relative_eq!(m.covariance(), s.view(), max_relative = 1e-13);
    }

    #[test]
    fn log_odds_are_the_linear_discriminants() {
        let (x, y) = data();
        let m = Lda::params().fit(x.view(), y.view()).unwrap();
        let (beta, b) = m.coefficients().unwrap();
        let t = array![[4.0, 3.5], [0.0, -1.0], [10.0, 2.0]];
        let d = m.decision_function(t.view()).unwrap();
        for i in 0..3 {
            let lin = (beta.row(1).dot(&t.row(i)) + b[1]) - (beta.row(0).dot(&t.row(i)) + b[0]);
            assert_relative_eq!(d[i], lin, max_relative = 1e-11, epsilon = 1e-11);
        }
    }

    #[test]
    fn a_singular_covariance_names_its_columns() {
        let (x, y) = data();
        let n = x.nrows();
        let constant = ndarray::concatenate![
            Axis(1),
            x,
            Array2::from_elem((n, 1), 5.0),
            x.column(0).insert_axis(Axis(1))
        ];
        let columns = |x: &Array2<f64>| match Lda::params().fit(x.view(), y.view()) {
            Err(Error::NotPositiveDefinite {
                columns, detail, ..
            }) => {
                assert!(detail.unwrap().contains("0-based position"));
                columns
            }
            other => panic!("{other:?}"),
        };
        let d = x.ncols();
        assert_eq!(columns(&constant), vec![d]);
        // Without the constant column, the copy of column 0 is the dependence.
        let copy = ndarray::concatenate![Axis(1), x, x.column(0).insert_axis(Axis(1))];
        assert_eq!(columns(&copy), vec![0, d]);
    }

    #[test]
    fn singular_covariance_needs_shrinkage() {
        // The second feature is twice the first: the pooled covariance is singular.
        let x = array![
            [1.0, 2.0],
            [2.0, 4.0],
            [3.0, 6.0],
            [6.0, 12.0],
            [8.0, 16.0],
            [7.0, 14.0]
        ];
        let y = array![0, 0, 0, 1, 1, 1];
        let err = Lda::params().fit(x.view(), y.view()).unwrap_err();
        assert!(matches!(err, Error::NotPositiveDefinite { .. }), "{err}");
        let m = Lda::params()
            .shrinkage(CovarianceShrinkage::ScaledIdentity(0.1))
            .fit(x.view(), y.view())
            .unwrap();
        assert!(m
            .predict_proba(x.view())
            .unwrap()
            .iter()
            .all(|p| p.is_finite()));
        // Too few rows for a full-rank pooled covariance: d + K = 4 > 3.
        let err = Lda::params()
            .fit(
                array![[0.0, 1.0], [1.0, 0.0], [5.0, 5.0]].view(),
                array![0, 0, 1].view(),
            )
            .unwrap_err();
        assert!(
            matches!(
                err,
                Error::TooFewRows {
                    needed: 4,
                    found: 3,
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn deserialisation_revalidates() {
        let (x, y) = data();
        let m = Lda::params().fit(x.view(), y.view()).unwrap();
        let json = serde_json::to_string(&m).unwrap();
        let back: Lda = serde_json::from_str(&json).unwrap();
        assert_eq!(back, m);
        let broken = json.replace(
            "\"covariance\":{\"v\":1,\"dim\":[2,2],\"data\":[",
            "\"covariance\":{\"v\":1,\"dim\":[2,2],\"data\":[-",
        );
        assert_ne!(broken, json);
        assert!(serde_json::from_str::<Lda>(&broken).is_err());
    }
}
