//! Bernoulli naive Bayes: binary features, independent within each class.
//!
//! ```text
//! p(x | y = k) = Π_j θ_kj^{x_j} (1 − θ_kj)^{1 − x_j},      x_j ∈ {0, 1}
//! θ_kj = (c_kj + α) / (W_k + 2α),      c_kj = Σ_{i: y_i = k} w_i x_ij
//! ```
//!
//! `α = 1` (the default) is Laplace's add-one smoothing, as used for discrete data by Raina et al.
//! (2003) §2 and Xue & Titterington §3.1.2: it is `e1071::naiveBayes(laplace = 1)` on two-level
//! factors, `(count + 1) / (n_k + 2)`, and scikit-learn's `BernoulliNB(alpha = 1)`. With `α = 0`
//! the estimates are maximum likelihood and a value never seen with class `k` has probability
//! zero under it.

use multiversion::multiversion;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use serde::{Deserialize, Serialize};

use gendisc_core::model_file::invariants::{log_distribution, shape};
use gendisc_core::{Classifier, FactorisedGenerative, Generative, ParamGuard, Result, SavedModel};

use crate::common::{
    check_alpha, check_binary, check_n_classes, check_prediction, check_region, check_training,
    sums_by_class, ClassPriors,
};
use crate::model_file::{check_classes, check_size, locate, log_table};

/// Hyper-parameters of [`BernoulliNb`], validated.
///
/// | parameter | default | meaning |
/// |---|---|---|
/// | `alpha` | `1.0` | pseudo-count `α ≥ 0` added to each of the two outcomes |
/// | `priors` | [`ClassPriors::Empirical`] | class prior |
/// | `n_classes` | `max(y) + 1` | number of classes `K` |
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BernoulliNbValidParams {
    alpha: f64,
    priors: ClassPriors,
    n_classes: Option<usize>,
}

impl BernoulliNbValidParams {
    /// The pseudo-count `α`.
    pub fn alpha(&self) -> f64 {
        self.alpha
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

/// Builder for [`BernoulliNbValidParams`]; see there for the table of parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BernoulliNbParams(BernoulliNbValidParams);

impl Default for BernoulliNbParams {
    fn default() -> Self {
        Self(BernoulliNbValidParams {
            alpha: 1.0,
            priors: ClassPriors::Empirical,
            n_classes: None,
        })
    }
}

impl BernoulliNbParams {
    /// The pseudo-count `α` (default 1, Laplace); must be finite and non-negative.
    pub fn alpha(mut self, alpha: f64) -> Self {
        self.0.alpha = alpha;
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

impl ParamGuard for BernoulliNbParams {
    type Checked = BernoulliNbValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        check_alpha(self.0.alpha)?;
        self.0.priors.check()?;
        check_n_classes(self.0.n_classes)?;
        Ok(&self.0)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}

/// A fitted Bernoulli naive Bayes model; see the [module documentation](self).
///
/// Every input value must be exactly `0.0` or `1.0`; anything else is an
/// [`Error::InvalidValue`](gendisc_core::Error::InvalidValue) naming its row and column.
///
/// ```
/// use gendisc_core::{Classifier, Fit};
/// use gendisc_generative::BernoulliNb;
/// use ndarray::array;
///
/// let x = array![[1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0]];
/// let y = array![0, 0, 1, 1];
/// let model = BernoulliNb::params().fit(x.view(), y.view()).unwrap();
/// // Laplace: θ_00 = (2 + 1) / (2 + 2).
/// assert!((model.feature_prob()[[0, 0]] - 0.75).abs() < 1e-15);
/// assert_eq!(model.predict(array![[1.0, 0.0]].view()).unwrap()[0], 0);
/// assert!(model.predict(array![[0.5, 0.0]].view()).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BernoulliNb {
    /// `log θ_kj`, `K × d`.
    #[serde(deserialize_with = "log_table::deserialize")]
    log_prob_one: Array2<f64>,
    /// `log(1 − θ_kj)`, `K × d`, computed from the counts rather than as `log1p(−θ)`.
    #[serde(deserialize_with = "log_table::deserialize")]
    log_prob_zero: Array2<f64>,
    log_prior: Array1<f64>,
    class_weight: Array1<f64>,
}

impl BernoulliNb {
    /// The default hyper-parameters, to be adjusted and fitted.
    pub fn params() -> BernoulliNbParams {
        BernoulliNbParams::default()
    }

    /// `θ_kj = p(x_j = 1 | y = k)`, `K × d`.
    pub fn feature_prob(&self) -> Array2<f64> {
        self.log_prob_one.mapv(f64::exp)
    }

    /// `log θ_kj`, `K × d`.
    pub fn feature_log_prob(&self) -> ArrayView2<'_, f64> {
        self.log_prob_one.view()
    }

    /// Class priors `p(y = k)`.
    pub fn class_prior(&self) -> Array1<f64> {
        self.log_prior.mapv(f64::exp)
    }

    /// Weighted class totals `W_k` seen in training.
    pub fn class_weight(&self) -> ArrayView1<'_, f64> {
        self.class_weight.view()
    }

    /// `Σ_{j ∈ S} log p(x_j | y = k)` for validated binary `x`. Chooses the term by branch
    /// rather than `x log θ + (1 − x) log(1 − θ)`, so that `α = 0` never gives `0 · (−∞)`.
    fn log_likelihood_over(
        &self,
        x: ArrayView2<'_, f64>,
        features: Option<&[usize]>,
    ) -> Array2<f64> {
        let n_classes = self.log_prior.len();
        let d = self.log_prob_one.ncols();
        // Standard-layout copies (no-ops for fitted models) so that each class is a slice.
        let (one, zero) = (
            self.log_prob_one.as_standard_layout(),
            self.log_prob_zero.as_standard_layout(),
        );
        let (one, zero) = (
            one.as_slice().expect("standard layout"),
            zero.as_slice().expect("standard layout"),
        );
        sums_by_class(x, features, n_classes, |k, rows, features, sums| {
            let (one, zero) = (&one[k * d..(k + 1) * d], &zero[k * d..(k + 1) * d]);
            term_sums(rows, d, features, one, zero, sums);
        })
    }

    fn fit_impl(
        p: &BernoulliNbValidParams,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<Self> {
        let summary = check_training("Bernoulli naive Bayes", x, y, w, p.n_classes, &p.priors)?;
        check_binary(x)?;
        let n_classes = summary.n_classes;
        let mut ones = Array2::<f64>::zeros((n_classes, x.ncols()));
        for (i, row) in x.axis_iter(Axis(0)).enumerate() {
            let wi = w.map_or(1.0, |w| w[i]);
            ones.row_mut(y[i]).scaled_add(wi, &row);
        }
        let alpha = p.alpha;
        let mut log_prob_one = Array2::zeros(ones.raw_dim());
        let mut log_prob_zero = Array2::zeros(ones.raw_dim());
        for k in 0..n_classes {
            let wk = summary.class_weight[k];
            let log_denominator = (wk + 2.0 * alpha).ln();
            for j in 0..x.ncols() {
                let c = ones[[k, j]];
                log_prob_one[[k, j]] = (c + alpha).ln() - log_denominator;
                // max(·, 0) absorbs round-off in W_k − c when every row has x_j = 1.
                log_prob_zero[[k, j]] = ((wk - c).max(0.0) + alpha).ln() - log_denominator;
            }
        }
        Ok(Self {
            log_prob_one,
            log_prob_zero,
            log_prior: p.priors.log_prior(&summary.class_weight)?,
            class_weight: Array1::from(summary.class_weight),
        })
    }

    fn check_input(&self, x: ArrayView2<'_, f64>) -> Result<()> {
        check_prediction(x, self.n_features())?;
        check_binary(x)
    }
}

crate::common::impl_fit!(BernoulliNbValidParams => BernoulliNb, fit_impl);

crate::common::impl_generative_classifier!(
    BernoulliNb,
    |model| model.log_prob_one.ncols(),
    |model| model.log_prior.len()
);

/// `Σ_{j ∈ S} log p(x_ij | y = k)` of every row `i` of the row-major binary `rows` (`d`
/// columns) into `sums`, for one class's `log θ_kj` (`one`) and `log(1 − θ_kj)` (`zero`):
/// feature by feature over all rows, each row's terms added in the order of `features` as
/// `Iterator::sum` adds them (so the same bits), and compiled for the widest vectors the
/// processor has.
#[multiversion(targets("x86_64+avx512f", "x86_64+avx2"))]
fn term_sums(
    rows: &[f64],
    d: usize,
    features: &[usize],
    one: &[f64],
    zero: &[f64],
    sums: &mut [f64],
) {
    // `Iterator::sum` of floats starts from −0, which leaves its first term as it is.
    sums.fill(-0.0);
    for &j in features {
        let (one, zero) = (one[j], zero[j]);
        for (s, row) in sums.iter_mut().zip(rows.chunks_exact(d)) {
            *s += if row[j] == 1.0 { one } else { zero };
        }
    }
}

impl Generative for BernoulliNb {
    fn log_prior(&self) -> Array1<f64> {
        self.log_prior.clone()
    }

    fn class_log_likelihood(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        self.check_input(x)?;
        Ok(self.log_likelihood_over(x, None))
    }
}

impl SavedModel for BernoulliNb {
    const KIND: &'static str = "bernoulli-naive-bayes";

    /// `log_prob_one` and `log_prob_zero` are `K × d`, and for every class and feature
    /// `exp(log_prob_one) + exp(log_prob_zero) = 1` (entries `−∞`, i.e. probability 0, occur
    /// when `α = 0`); the class priors and weights are those of `K` classes.
    fn check_invariants(&self) -> Result<()> {
        let kind = Self::KIND;
        let n_classes = self.log_prior.len();
        let d = self.log_prob_one.ncols();
        check_size(kind, "log_prob_one", n_classes, d)?;
        shape(kind, "log_prob_one", &self.log_prob_one, &[n_classes, d])?;
        shape(kind, "log_prob_zero", &self.log_prob_zero, &[n_classes, d])?;
        for ((k, j), &one) in self.log_prob_one.indexed_iter() {
            log_distribution(kind, "log_prob_one", &[one, self.log_prob_zero[[k, j]]])
                .map_err(|e| locate(e, format!("class {k}, feature {j} (with `log_prob_zero`)")))?;
        }
        check_classes(kind, n_classes, &self.log_prior, &self.class_weight)
    }
}

impl FactorisedGenerative for BernoulliNb {
    /// `log p(x^S | y = k) = Σ_{j ∈ S} [x_j log θ_kj + (1 − x_j) log(1 − θ_kj)]`.
    fn region_log_likelihood(
        &self,
        x: ArrayView2<'_, f64>,
        features: &[usize],
    ) -> Result<Array2<f64>> {
        self.check_input(x)?;
        check_region(features, self.n_features())?;
        Ok(self.log_likelihood_over(x, Some(features)))
    }
}

gendisc_core::impl_conditional_model_by_bayes!(BernoulliNb);

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use gendisc_core::Fit;
    use gendisc_core::{ConditionalModel, Error};
    use ndarray::array;

    #[test]
    fn laplace_estimates_by_hand() {
        let x = array![
            [1.0, 0.0, 1.0],
            [1.0, 1.0, 1.0],
            [0.0, 1.0, 1.0],
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0]
        ];
        let y = array![0, 0, 1, 1, 1];
        let m = BernoulliNb::params().fit(x.view(), y.view()).unwrap();
        let theta = m.feature_prob();
        assert_relative_eq!(theta[[0, 0]], 3.0 / 4.0, max_relative = 1e-15);
        assert_relative_eq!(theta[[0, 1]], 2.0 / 4.0, max_relative = 1e-15);
        assert_relative_eq!(theta[[1, 0]], 2.0 / 5.0, max_relative = 1e-15);
        assert_relative_eq!(theta[[1, 2]], 2.0 / 5.0, max_relative = 1e-15);
        let ll = m
            .class_log_likelihood(array![[1.0, 0.0, 1.0]].view())
            .unwrap();
        assert_relative_eq!(ll[[0, 1]], (0.4f64 * 0.6 * 0.4).ln(), max_relative = 1e-14);
        let r = m
            .region_log_likelihood(array![[1.0, 0.0, 1.0]].view(), &[2, 0])
            .unwrap();
        assert_relative_eq!(r[[0, 1]], (0.4f64 * 0.4).ln(), max_relative = 1e-14);
    }

    #[test]
    fn no_smoothing_gives_impossible_values_but_no_nan() {
        let x = array![[1.0], [1.0], [0.0]];
        let y = array![0, 0, 1];
        let m = BernoulliNb::params()
            .alpha(0.0)
            .fit(x.view(), y.view())
            .unwrap();
        let ll = m.class_log_likelihood(array![[0.0], [1.0]].view()).unwrap();
        assert_eq!(ll[[0, 0]], f64::NEG_INFINITY);
        assert_eq!(ll[[1, 1]], f64::NEG_INFINITY);
        let p = m.predict_proba(array![[0.0]].view()).unwrap();
        assert_eq!(p[[0, 1]], 1.0);
    }

    #[test]
    fn non_binary_values_name_row_and_column() {
        let x = array![[1.0, 0.0], [0.0, 2.0]];
        let err = BernoulliNb::params()
            .fit(x.view(), array![0, 1].view())
            .unwrap_err();
        assert!(
            matches!(
                err,
                Error::InvalidValue {
                    row: 1,
                    column: 1,
                    value: 2.0,
                    ..
                }
            ),
            "{err}"
        );
        assert!(BernoulliNb::params()
            .alpha(-1.0)
            .fit(x.view(), array![0, 1].view())
            .is_err());
    }
}
