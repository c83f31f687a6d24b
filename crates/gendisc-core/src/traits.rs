//! The three traits every gendisc model speaks, and the validated params → fit → model flow.
//!
//! * [`Classifier`] — anything that assigns a class to a row.
//! * [`ConditionalModel`] — a classifier with a conditional distribution `p(y | x)`.
//! * [`Generative`] — a model of the joint `p(x, y) = p(y) p(x | y)`; its posterior follows by
//!   Bayes' rule in log space ([`bayes_log_posterior`]), and
//!   [`impl_conditional_model_by_bayes!`](crate::impl_conditional_model_by_bayes) turns it into a
//!   [`ConditionalModel`]. This is a macro rather than a blanket impl so that a hybrid model,
//!   which is built from a generative one, can define its own conditional distribution.
//! * [`FactorisedGenerative`] — a generative model whose class-conditional density factorises
//!   over features, so that the likelihood of any region (subset of features) is available: the
//!   input of Raina et al.'s hybrid.
//!
//! Classes are indices `0..K` (see [`ClassLabels`](crate::ClassLabels) for user labels).
//! Probability columns follow class order; ties in `predict` go to the lowest class index.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};

use crate::error::{Error, Result};
use crate::numerics::{argmax, log_softmax_rows, log_sum_exp_view, unnormalisable};
use crate::validate::{check_labels, check_weights};

/// A fitted model that assigns one of `n_classes()` classes to each row of a matrix.
pub trait Classifier {
    /// Number of input columns the model was fitted with.
    fn n_features(&self) -> usize;

    /// Number of classes `K`.
    fn n_classes(&self) -> usize;

    /// The class of each row of `x` (`n × d`). Fails on a column-count mismatch or a non-finite
    /// input, never panics.
    fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Array1<usize>>;
}

/// A classifier with a conditional class distribution `p(y | x)`.
pub trait ConditionalModel: Classifier {
    /// `log p(y = k | x_i)` as an `n × K` matrix; each row log-sum-exps to 0 within
    /// [`PROBABILITY_SUM_TOLERANCE`](crate::numerics::PROBABILITY_SUM_TOLERANCE), whatever the
    /// magnitude of the inputs, or the call fails with a typed error (e.g. a row impossible
    /// under every class).
    fn predict_log_proba(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>>;

    /// `p(y = k | x_i)` as an `n × K` matrix; each row is finite, non-negative and sums to 1
    /// within [`PROBABILITY_SUM_TOLERANCE`](crate::numerics::PROBABILITY_SUM_TOLERANCE).
    fn predict_proba(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        Ok(self.predict_log_proba(x)?.mapv_into(f64::exp))
    }

    /// For two classes, the log-odds `log p(y = 1 | x) − log p(y = 0 | x)`; positive means
    /// class 1. Fails with [`Error::NotBinary`] for `K ≠ 2`.
    fn decision_function(&self, x: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        if self.n_classes() != 2 {
            return Err(Error::NotBinary {
                what: "decision_function".into(),
                n_classes: self.n_classes(),
            });
        }
        let lp = self.predict_log_proba(x)?;
        Ok(&lp.column(1) - &lp.column(0))
    }

    /// The conditional log-likelihood `Σ_i w_i log p(y_i | x_i)` (unit weights when `None`).
    fn conditional_log_likelihood(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Result<f64> {
        check_labels(y, x.nrows(), self.n_classes())?;
        if let Some(w) = sample_weight {
            check_weights(w, x.nrows())?;
        }
        let lp = self.predict_log_proba(x)?;
        Ok(weighted_pick_sum(lp.view(), y, sample_weight))
    }
}

/// A model of the joint distribution `p(x, y) = p(y) p(x | y)`.
pub trait Generative: Classifier {
    /// `log p(y = k)`, length `K`.
    fn log_prior(&self) -> Array1<f64>;

    /// `log p(x_i | y = k)` as an `n × K` matrix.
    fn class_log_likelihood(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>>;

    /// `log p(x_i, y = k) = log p(y = k) + log p(x_i | y = k)`, `n × K`.
    fn log_joint(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        let mut joint = self.class_log_likelihood(x)?;
        joint += &self.log_prior().view().insert_axis(Axis(0));
        Ok(joint)
    }

    /// `log p(x_i) = log Σ_k p(x_i, y = k)`, length `n`.
    fn log_marginal(&self, x: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        let joint = self.log_joint(x)?;
        Ok(joint.map_axis(Axis(1), log_sum_exp_view))
    }

    /// The joint log-likelihood `Σ_i w_i log p(x_i, y_i)` (unit weights when `None`).
    fn joint_log_likelihood(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Result<f64> {
        check_labels(y, x.nrows(), self.n_classes())?;
        if let Some(w) = sample_weight {
            check_weights(w, x.nrows())?;
        }
        let joint = self.log_joint(x)?;
        Ok(weighted_pick_sum(joint.view(), y, sample_weight))
    }
}

/// A generative model whose class-conditional density factorises over features,
/// `p(x | y) = Π_j p(x_j | y)`, so that any region `x^S = (x_j)_{j ∈ S}` has a likelihood
/// `p(x^S | y) = Π_{j ∈ S} p(x_j | y)` (the naive Bayes family).
pub trait FactorisedGenerative: Generative {
    /// `log p(x_i^S | y = k)` for the feature indices `features`, as an `n × K` matrix.
    /// Fails on an index `≥ n_features()`.
    fn region_log_likelihood(
        &self,
        x: ArrayView2<'_, f64>,
        features: &[usize],
    ) -> Result<Array2<f64>>;
}

/// What a failed normalisation of a generative model's joint names.
const BAYES_POSTERIOR: &str = "posterior by Bayes' rule";

/// `log p(y | x)` from a generative model by Bayes' rule, in log space with a per-row shift:
/// `log p(x, k) − log Σ_j p(x, j)`.
///
/// A row whose joint is `-∞` for every class (a point impossible under the model, e.g. an
/// unseen category with no smoothing) has no posterior: that is an [`Error::Numerical`] naming
/// the row, never a silent NaN.
pub fn bayes_log_posterior<G: Generative + ?Sized>(
    model: &G,
    x: ArrayView2<'_, f64>,
) -> Result<Array2<f64>> {
    log_posterior_from_joint(model.log_joint(x)?)
}

/// Normalises an `n × K` matrix of `log p(x_i, y = k)` into `log p(y = k | x_i)` in place, row by
/// row with a per-row shift; a row that is `-∞` for every class is an [`Error::Numerical`]
/// naming the row. This is [`bayes_log_posterior`] for models whose joint is not computed from a
/// dense matrix (e.g. sparse counts).
pub fn log_posterior_from_joint(joint: Array2<f64>) -> Result<Array2<f64>> {
    log_posterior_from_scores(joint, BAYES_POSTERIOR)
}

/// Normalises an `n × K` matrix of unnormalised log-probabilities (a joint `log p(x, y)`, a
/// hybrid's or a linear model's scores) into `log p(y | x)` in place, row by row
/// ([`normalise_log_weights`](crate::numerics::normalise_log_weights)): every row then log-sum-exps to 0 within a few ulps, whatever the
/// magnitude of its scores, and a single class with score `+∞` is certain. A row with a NaN,
/// several `+∞` or only `-∞` is an [`Error::Numerical`] that names `what` and the row.
pub fn log_posterior_from_scores(scores: Array2<f64>, what: &str) -> Result<Array2<f64>> {
    log_softmax_rows(scores).map_err(|(row, reason)| Error::Numerical {
        what: what.into(),
        detail: format!("row {row}: {reason}"),
    })
}

/// The log-odds `log p(y = 1 | x) − log p(y = 0 | x) = log p(x, 1) − log p(x, 0)` of a
/// two-class generative model, from the joint directly (no normalisation, so no `exp`). Fails
/// with [`Error::NotBinary`] for `K ≠ 2`, and with [`Error::Numerical`] naming the row when both
/// joints are `-∞` (a point impossible under the model).
pub fn bayes_log_odds<G: Generative + ?Sized>(
    model: &G,
    x: ArrayView2<'_, f64>,
) -> Result<Array1<f64>> {
    if model.n_classes() != 2 {
        return Err(Error::NotBinary {
            what: "decision_function".into(),
            n_classes: model.n_classes(),
        });
    }
    let joint = model.log_joint(x)?;
    joint
        .axis_iter(Axis(0))
        .enumerate()
        .map(|(row, j)| {
            let log_odds = j[1] - j[0];
            if log_odds.is_nan() {
                Err(Error::Numerical {
                    what: "log-odds by Bayes' rule".into(),
                    detail: format!("row {row} has log p(x, y) = ({}, {})", j[0], j[1]),
                })
            } else {
                Ok(log_odds)
            }
        })
        .collect()
}

/// The maximum-a-posteriori class of a generative model: the argmax of `log p(x, y)` (the
/// normaliser does not change it), ties to the lowest class. A row without a posterior (every
/// class impossible, several certain, or a NaN) is the same [`Error::Numerical`] as in
/// [`bayes_log_posterior`], never an arbitrary class.
pub fn bayes_predict<G: Generative + ?Sized>(
    model: &G,
    x: ArrayView2<'_, f64>,
) -> Result<Array1<usize>> {
    let joint = model.log_joint(x)?;
    joint
        .axis_iter(Axis(0))
        .enumerate()
        .map(|(row, j)| match unnormalisable(j) {
            Some(reason) => Err(Error::Numerical {
                what: BAYES_POSTERIOR.into(),
                detail: format!("row {row}: {reason}"),
            }),
            None => Ok(argmax(j).expect("a row with a normaliser has a maximum")),
        })
        .collect()
}

/// Row-wise argmax of a score matrix, ties to the lowest column; a NaN row is an
/// [`Error::Numerical`] naming the row.
pub fn argmax_rows(scores: ArrayView2<'_, f64>, what: &str) -> Result<Array1<usize>> {
    scores
        .axis_iter(Axis(0))
        .enumerate()
        .map(|(row, s)| {
            argmax(s).ok_or_else(|| Error::Numerical {
                what: format!("argmax of {what}"),
                detail: format!("row {row} contains NaN"),
            })
        })
        .collect()
}

/// `Σ_i w_i M[i, y_i]`: the log-likelihood of the observed classes.
fn weighted_pick_sum(
    m: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    w: Option<ArrayView1<'_, f64>>,
) -> f64 {
    match w {
        Some(w) => y
            .iter()
            .zip(w.iter())
            .enumerate()
            // A zero weight removes the row even if its log-likelihood is -∞.
            .filter(|&(_, (_, &wi))| wi != 0.0)
            .map(|(i, (&k, &wi))| wi * m[[i, k]])
            .sum(),
        None => y.iter().enumerate().map(|(i, &k)| m[[i, k]]).sum(),
    }
}

/// Implements [`ConditionalModel`] for a type that implements [`Generative`], with the
/// posterior by Bayes' rule ([`bayes_log_posterior`]) and, for two classes, the log-odds from
/// the joint ([`bayes_log_odds`]).
///
/// ```ignore
/// gendisc_core::impl_conditional_model_by_bayes!(GaussianNb);
/// ```
#[macro_export]
macro_rules! impl_conditional_model_by_bayes {
    ($($model:ty),+ $(,)?) => {$(
        impl $crate::ConditionalModel for $model {
            fn predict_log_proba(
                &self,
                x: ::ndarray::ArrayView2<'_, f64>,
            ) -> $crate::Result<::ndarray::Array2<f64>> {
                $crate::bayes_log_posterior(self, x)
            }

            fn decision_function(
                &self,
                x: ::ndarray::ArrayView2<'_, f64>,
            ) -> $crate::Result<::ndarray::Array1<f64>> {
                $crate::bayes_log_odds(self, x)
            }
        }
    )+};
}

/// Hyper-parameters that must be validated before fitting (the linfa pattern).
///
/// A params type holds unchecked values set by a builder; [`check_ref`](Self::check_ref)
/// validates them and hands out the checked form, which is what actually fits. Every invalid
/// setting is an [`Error::InvalidParameter`] naming the parameter.
pub trait ParamGuard {
    /// The validated parameters.
    type Checked;

    /// Validates and borrows the checked parameters.
    fn check_ref(&self) -> Result<&Self::Checked>;

    /// Validates and returns the checked parameters.
    fn check(self) -> Result<Self::Checked>;
}

/// Fitting a model to a design matrix `x` (`n × d`) and classes `y ∈ 0..K` (length `n`).
pub trait Fit {
    /// The fitted model.
    type Model;

    /// Fits on `x` and `y`; every bad input is a typed error.
    fn fit(&self, x: ArrayView2<'_, f64>, y: ArrayView1<'_, usize>) -> Result<Self::Model>;
}

/// Fitting with per-row sample weights `w_i ≥ 0`, for models whose maths allows them. A weight
/// of `w` counts a row `w` times; all-ones weights give the unweighted fit.
pub trait FitWeighted: Fit {
    /// Fits on `x`, `y` and `sample_weight`.
    fn fit_weighted(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: ArrayView1<'_, f64>,
    ) -> Result<Self::Model>;
}

impl<P> Fit for P
where
    P: ParamGuard,
    P::Checked: Fit,
{
    type Model = <P::Checked as Fit>::Model;

    fn fit(&self, x: ArrayView2<'_, f64>, y: ArrayView1<'_, usize>) -> Result<Self::Model> {
        self.check_ref()?.fit(x, y)
    }
}

impl<P> FitWeighted for P
where
    P: ParamGuard,
    P::Checked: FitWeighted,
{
    fn fit_weighted(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: ArrayView1<'_, f64>,
    ) -> Result<Self::Model> {
        self.check_ref()?.fit_weighted(x, y, sample_weight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::check_prediction_matrix;
    use approx::assert_relative_eq;
    use ndarray::array;

    /// A fixed two-class model on one feature with p(x | k) = N(μ_k, 1), to exercise the
    /// provided methods.
    struct UnitGaussians {
        means: [f64; 2],
        log_prior: [f64; 2],
    }

    impl Classifier for UnitGaussians {
        fn n_features(&self) -> usize {
            1
        }
        fn n_classes(&self) -> usize {
            2
        }
        fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Array1<usize>> {
            bayes_predict(self, x)
        }
    }

    impl Generative for UnitGaussians {
        fn log_prior(&self) -> Array1<f64> {
            Array1::from(self.log_prior.to_vec())
        }
        fn class_log_likelihood(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
            check_prediction_matrix(x, 1)?;
            let c = -0.5 * (2.0 * std::f64::consts::PI).ln();
            Ok(Array2::from_shape_fn((x.nrows(), 2), |(i, k)| {
                c - 0.5 * (x[[i, 0]] - self.means[k]).powi(2)
            }))
        }
    }

    crate::impl_conditional_model_by_bayes!(UnitGaussians);

    fn model() -> UnitGaussians {
        UnitGaussians {
            means: [-1.0, 1.0],
            log_prior: [0.25f64.ln(), 0.75f64.ln()],
        }
    }

    #[test]
    fn posterior_is_bayes_rule() {
        let m = model();
        let x = array![[0.3], [-2.0], [40.0]];
        let p = m.predict_proba(x.view()).unwrap();
        for i in 0..3 {
            // p(1 | x) = 0.75 φ(x − 1) / (0.25 φ(x + 1) + 0.75 φ(x − 1)) = σ(2x + log 3); the naive
            // ratio underflows to 0/0 at x = 40, which is what log space is for.
            let xi = x[[i, 0]];
            let expected = crate::numerics::sigmoid(2.0 * xi + 3f64.ln());
            assert_relative_eq!(p[[i, 1]], expected, max_relative = 1e-12);
            assert_relative_eq!(p.row(i).sum(), 1.0, max_relative = 1e-15);
        }
        // log-odds of equal-variance Gaussians is linear: 2x + log 3.
        let d = m.decision_function(x.view()).unwrap();
        for i in 0..3 {
            assert_relative_eq!(d[i], 2.0 * x[[i, 0]] + 3f64.ln(), max_relative = 1e-12);
        }
        assert_eq!(m.predict(x.view()).unwrap().to_vec(), vec![1, 0, 1]);
        let lp = m.predict_log_proba(x.view()).unwrap();
        for i in 0..3 {
            assert_relative_eq!(d[i], lp[[i, 1]] - lp[[i, 0]], max_relative = 1e-12);
        }
    }

    #[test]
    fn likelihoods_are_weighted_sums() {
        let m = model();
        let x = array![[0.3], [-2.0]];
        let y = array![1, 0];
        let lp = m.predict_log_proba(x.view()).unwrap();
        let cll = m
            .conditional_log_likelihood(x.view(), y.view(), None)
            .unwrap();
        assert_relative_eq!(cll, lp[[0, 1]] + lp[[1, 0]]);
        let w = array![2.0, 0.0];
        let cll_w = m
            .conditional_log_likelihood(x.view(), y.view(), Some(w.view()))
            .unwrap();
        assert_relative_eq!(cll_w, 2.0 * lp[[0, 1]]);
        let joint = m.log_joint(x.view()).unwrap();
        let jll = m.joint_log_likelihood(x.view(), y.view(), None).unwrap();
        assert_relative_eq!(jll, joint[[0, 1]] + joint[[1, 0]]);
        let marginal = m.log_marginal(x.view()).unwrap();
        assert_relative_eq!(
            marginal[0],
            (joint[[0, 0]].exp() + joint[[0, 1]].exp()).ln(),
            max_relative = 1e-12
        );
    }

    #[test]
    fn bad_input_is_an_error() {
        let m = model();
        assert!(m.predict(array![[1.0, 2.0]].view()).is_err());
        assert!(m.predict_proba(array![[f64::NAN]].view()).is_err());
        assert!(m
            .conditional_log_likelihood(array![[1.0]].view(), array![2].view(), None)
            .is_err());
    }

    #[test]
    fn ties_go_to_the_lowest_class() {
        let s = array![[0.0, 0.0], [1.0, 2.0]];
        assert_eq!(argmax_rows(s.view(), "s").unwrap().to_vec(), vec![0, 1]);
        assert!(argmax_rows(array![[f64::NAN, 0.0]].view(), "s").is_err());
    }
}
