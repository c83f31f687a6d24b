//! Pieces shared by every model of the crate: class priors, the validation of training targets
//! and of feature regions, and the variance floor.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use serde::{Deserialize, Serialize};

use gendisc_core::validate::{
    check_labels, check_prediction_matrix, check_training_matrix, check_weights, class_totals,
};
use gendisc_core::{Error, Result};

/// How the class prior `p(y = k)` is set.
///
/// | variant | `p(y = k)` |
/// |---|---|
/// | `Empirical` (default) | `W_k / W`, the (weighted) class frequency: the maximum-likelihood estimate, Raina et al. (2003) eq. (2) |
/// | `Uniform` | `1 / K`, as in the simulations of Bouchard & Triggs (2004) §4 |
/// | `Given(p)` | `p_k`; every entry finite and positive, summing to one within `1e-6` (then renormalised exactly) |
///
/// With `Given`, a model whose number of classes is not set explicitly takes `K = p.len()`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub enum ClassPriors {
    /// The weighted class frequencies of the training data.
    #[default]
    Empirical,
    /// Equal priors `1 / K`.
    Uniform,
    /// User-given class probabilities, in class order.
    Given(Vec<f64>),
}

impl ClassPriors {
    /// Validates a user-given prior vector (the other variants are always valid).
    pub(crate) fn check(&self) -> Result<()> {
        let ClassPriors::Given(p) = self else {
            return Ok(());
        };
        if p.is_empty() {
            return Err(Error::invalid_parameter(
                "priors",
                "the prior vector is empty",
            ));
        }
        if let Some((k, v)) = p
            .iter()
            .enumerate()
            .find(|(_, v)| !(v.is_finite() && **v > 0.0))
        {
            return Err(Error::invalid_parameter(
                "priors",
                format!("prior of class {k} is {v}; every prior must be finite and positive"),
            ));
        }
        let total: f64 = p.iter().sum();
        if (total - 1.0).abs() > 1e-6 {
            return Err(Error::invalid_parameter(
                "priors",
                format!("the priors sum to {total}, not 1"),
            ));
        }
        Ok(())
    }

    /// The number of classes these priors imply, if any.
    pub(crate) fn n_classes(&self) -> Option<usize> {
        match self {
            ClassPriors::Given(p) => Some(p.len()),
            _ => None,
        }
    }

    /// `log p(y = k)` given the weighted class totals `W_k`.
    pub(crate) fn log_prior(&self, class_weight: &[f64]) -> Result<Array1<f64>> {
        let n_classes = class_weight.len();
        Ok(match self {
            ClassPriors::Empirical => {
                let log_total = class_weight.iter().sum::<f64>().ln();
                class_weight.iter().map(|w| w.ln() - log_total).collect()
            }
            ClassPriors::Uniform => Array1::from_elem(n_classes, -(n_classes as f64).ln()),
            ClassPriors::Given(p) => {
                if p.len() != n_classes {
                    return Err(Error::shape_mismatch(
                        "length of the given priors vs number of classes",
                        n_classes,
                        p.len(),
                    ));
                }
                let log_total = p.iter().sum::<f64>().ln();
                p.iter().map(|v| v.ln() - log_total).collect()
            }
        })
    }
}

/// The divisor of a (co)variance estimate from `W_k` weighted rows.
///
/// | variant | divisor | who uses it |
/// |---|---|---|
/// | `MaximumLikelihood` (default) | `W_k` | the generative ML estimate (Bouchard & Triggs 2004, eq. (2)); scikit-learn's `GaussianNB` and (from 1.9 on) `QuadraticDiscriminantAnalysis` |
/// | `Unbiased` | `W_k − 1` | R's `sd()` and so `e1071::naiveBayes`; `stats::cov` |
///
/// With sample weights, `Unbiased` treats them as frequency weights (a weight of 3 is three
/// identical rows), so a class needs a total weight above 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum VarianceEstimator {
    /// Divide the sum of squared deviations by the total weight `W_k`.
    #[default]
    MaximumLikelihood,
    /// Divide by `W_k − 1` (Bessel's correction).
    Unbiased,
}

impl VarianceEstimator {
    /// The divisor for a sum of squared deviations about `n_means` fitted means from a total
    /// weight `total_weight`: `W` (ML) or `W − n_means` (unbiased).
    pub(crate) fn divisor(self, total_weight: f64, n_means: usize) -> f64 {
        match self {
            VarianceEstimator::MaximumLikelihood => total_weight,
            VarianceEstimator::Unbiased => total_weight - n_means as f64,
        }
    }

    /// Fails with [`Error::TooFewRows`] when the divisor is not positive: an unbiased estimate
    /// about `n_means` means needs a total weight above `n_means`. Only on failure is
    /// `describe` called, for the name of the estimate and the number of rows of positive
    /// weight behind it.
    pub(crate) fn check_divisor(
        self,
        total_weight: f64,
        n_means: usize,
        describe: impl FnOnce() -> (String, usize),
    ) -> Result<f64> {
        let divisor = self.divisor(total_weight, n_means);
        if divisor > 0.0 {
            return Ok(divisor);
        }
        let (what, rows) = describe();
        let what = if (total_weight - rows as f64).abs() > 0.0 {
            format!(
                "{what} (÷(W − {n_means}) with frequency weights: total weight {total_weight} must exceed {n_means})"
            )
        } else {
            format!("{what} (÷(n − {n_means}))")
        };
        Err(Error::TooFewRows {
            what,
            needed: n_means + 1,
            found: rows,
        })
    }
}

/// What the training targets told us: the number of classes `K` and the weighted class totals
/// `W_k = Σ_{i: y_i = k} w_i` (counts when unweighted).
#[derive(Debug, Clone)]
pub(crate) struct ClassSummary {
    /// Number of classes `K`.
    pub n_classes: usize,
    /// `W_k`, length `K`, every entry positive.
    pub class_weight: Vec<f64>,
}

impl ClassSummary {
    /// `W = Σ_k W_k`.
    pub fn total_weight(&self) -> f64 {
        self.class_weight.iter().sum()
    }
}

/// Validates labels and weights for a training set of `n_rows` rows and returns the class
/// summary.
///
/// `K` is `n_classes` when given, else the number of given priors, else `max(y) + 1`. Every
/// class must have positive total weight ([`Error::EmptyClass`], naming `model`).
pub(crate) fn check_targets(
    model: &str,
    n_rows: usize,
    y: ArrayView1<'_, usize>,
    sample_weight: Option<ArrayView1<'_, f64>>,
    n_classes: Option<usize>,
    priors: &ClassPriors,
) -> Result<ClassSummary> {
    if y.len() != n_rows {
        return Err(Error::shape_mismatch(
            "length of y vs rows of x",
            n_rows,
            y.len(),
        ));
    }
    let n_classes = n_classes
        .or(priors.n_classes())
        .unwrap_or_else(|| y.iter().max().map_or(0, |&m| m + 1));
    check_labels(y, n_rows, n_classes)?;
    if let Some(w) = sample_weight {
        check_weights(w, n_rows)?;
    }
    let class_weight = class_totals(y, sample_weight, n_classes).map_err(|e| match e {
        Error::EmptyClass { class, .. } => Error::EmptyClass {
            class,
            detail: Some(format!("{model} estimates parameters for every class")),
        },
        other => other,
    })?;
    Ok(ClassSummary {
        n_classes,
        class_weight,
    })
}

/// True when every entry of `x` is finite. A branch-free pass over memory, so that the common
/// case costs little; the core checks, which locate the offending entry, run only when it
/// fails.
fn all_finite(x: ArrayView2<'_, f64>) -> bool {
    // `v · 0` is 0 for finite `v` and NaN for ±∞ and NaN, so a sum of them is 0 exactly when
    // all are finite. Four independent sums keep the additions from waiting on each other.
    fn zero_if_all_finite(s: &[f64]) -> bool {
        let mut acc = [0.0; 4];
        let chunks = s.chunks_exact(4);
        let tail: f64 = chunks.remainder().iter().map(|v| v * 0.0).sum();
        for c in chunks {
            for (a, v) in acc.iter_mut().zip(c) {
                *a += v * 0.0;
            }
        }
        acc.iter().sum::<f64>() + tail == 0.0
    }
    match x.as_slice_memory_order() {
        Some(s) => zero_if_all_finite(s),
        None => x.iter().all(|v| v.is_finite()),
    }
}

/// [`check_targets`] after checking the design matrix (non-empty, finite).
pub(crate) fn check_training(
    model: &str,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    sample_weight: Option<ArrayView1<'_, f64>>,
    n_classes: Option<usize>,
    priors: &ClassPriors,
) -> Result<ClassSummary> {
    if x.is_empty() || !all_finite(x) {
        check_training_matrix(x)?;
    }
    check_targets(model, x.nrows(), y, sample_weight, n_classes, priors)
}

/// A matrix given to a fitted model: `n_features` columns, all finite (zero rows allowed).
pub(crate) fn check_prediction(x: ArrayView2<'_, f64>, n_features: usize) -> Result<()> {
    if x.ncols() != n_features || !all_finite(x) {
        check_prediction_matrix(x, n_features)?;
    }
    Ok(())
}

/// Validates an explicit number of classes set on a params struct.
pub(crate) fn check_n_classes(n_classes: Option<usize>) -> Result<()> {
    if n_classes == Some(0) {
        return Err(Error::invalid_parameter(
            "n_classes",
            "a classifier needs at least one class",
        ));
    }
    Ok(())
}

/// Validates a smoothing pseudo-count `α ≥ 0`.
pub(crate) fn check_alpha(alpha: f64) -> Result<()> {
    if !(alpha.is_finite() && alpha >= 0.0) {
        return Err(Error::invalid_parameter(
            "alpha",
            format!("the pseudo-count must be finite and non-negative, got {alpha}"),
        ));
    }
    Ok(())
}

/// Validates a relative variance floor `var_smoothing > 0`.
pub(crate) fn check_var_smoothing(var_smoothing: f64) -> Result<()> {
    if !(var_smoothing.is_finite() && var_smoothing > 0.0) {
        return Err(Error::invalid_parameter(
            "var_smoothing",
            format!("the relative variance floor must be finite and positive, got {var_smoothing}"),
        ));
    }
    Ok(())
}

/// The number of rows with positive weight in each class (all rows when unweighted).
pub(crate) fn rows_per_class(
    y: ArrayView1<'_, usize>,
    sample_weight: Option<ArrayView1<'_, f64>>,
    n_classes: usize,
) -> Vec<usize> {
    let mut rows = vec![0; n_classes];
    match sample_weight {
        Some(w) => y
            .iter()
            .zip(w.iter())
            .filter(|&(_, &wi)| wi > 0.0)
            .for_each(|(&k, _)| rows[k] += 1),
        None => y.iter().for_each(|&k| rows[k] += 1),
    }
    rows
}

/// The absolute variance floor `ε = var_smoothing · s`, where `s = max_j Var(x_j)` is the
/// largest (weighted, maximum-likelihood) column variance of the training data — the rule of
/// scikit-learn's `GaussianNB`. When every column is constant the data have no scale and
/// `s = 1` is used, so that `ε` is still positive. A positive `var_smoothing` never gives a
/// floor below the smallest normal number, `2⁻¹⁰²²`: data whose spread is near `10⁻¹⁶⁰` has
/// variances that underflow, and a zero floor would leave a zero variance, whose reciprocal
/// turns every density into NaN.
pub(crate) fn variance_floor(var_smoothing: f64, max_column_variance: f64) -> f64 {
    let scale = if max_column_variance > 0.0 {
        max_column_variance
    } else {
        1.0
    };
    if var_smoothing > 0.0 {
        (var_smoothing * scale).max(f64::MIN_POSITIVE)
    } else {
        0.0
    }
}

/// Checks that `features` is a valid region of a model with `n_features` features: every
/// index in range, none repeated.
pub(crate) fn check_region(features: &[usize], n_features: usize) -> Result<()> {
    let mut seen = vec![false; n_features];
    for (position, &j) in features.iter().enumerate() {
        if j >= n_features {
            return Err(Error::InvalidValue {
                what: "region feature indices".into(),
                row: position,
                column: 0,
                value: j as f64,
                reason: format!("feature index out of range 0..{n_features}"),
            });
        }
        if std::mem::replace(&mut seen[j], true) {
            return Err(Error::InvalidValue {
                what: "region feature indices".into(),
                row: position,
                column: 0,
                value: j as f64,
                reason: "feature appears twice in the region".into(),
            });
        }
    }
    Ok(())
}

/// Every entry of `x` is exactly 0 or 1 (the domain of a Bernoulli model).
pub(crate) fn check_binary(x: ArrayView2<'_, f64>) -> Result<()> {
    // Clean data is the common case: one branch-free pass (a fold without short-circuit
    // vectorises), the indexed search only on failure.
    let is_binary = |ok: bool, &v: &f64| ok & ((v == 0.0) | (v == 1.0));
    let clean = match x.as_slice_memory_order() {
        Some(values) => values.iter().fold(true, is_binary),
        None => x.iter().fold(true, is_binary),
    };
    if clean {
        return Ok(());
    }
    for ((row, column), &value) in x.indexed_iter() {
        if value != 0.0 && value != 1.0 {
            return Err(Error::InvalidValue {
                what: "x".into(),
                row,
                column,
                value,
                reason: "a Bernoulli naive Bayes feature must be 0 or 1".into(),
            });
        }
    }
    Ok(())
}

/// `ln(2π)`.
pub(crate) fn ln_2pi() -> f64 {
    std::f64::consts::TAU.ln()
}

/// `Fit` and `FitWeighted` for a validated params type, both forwarding to the model's
/// `fn $fit_impl(&params, x, y, Option<weights>)` — one fit routine serves both traits.
macro_rules! impl_fit {
    ($params:ty => $model:ident, $fit_impl:ident) => {
        impl gendisc_core::Fit for $params {
            type Model = $model;

            fn fit(
                &self,
                x: ndarray::ArrayView2<'_, f64>,
                y: ndarray::ArrayView1<'_, usize>,
            ) -> gendisc_core::Result<$model> {
                $model::$fit_impl(self, x, y, None)
            }
        }

        impl gendisc_core::FitWeighted for $params {
            fn fit_weighted(
                &self,
                x: ndarray::ArrayView2<'_, f64>,
                y: ndarray::ArrayView1<'_, usize>,
                sample_weight: ndarray::ArrayView1<'_, f64>,
            ) -> gendisc_core::Result<$model> {
                $model::$fit_impl(self, x, y, Some(sample_weight))
            }
        }
    };
}
pub(crate) use impl_fit;

/// `Classifier` for a generative model: its dimensions from the given field expressions, and
/// `predict` as the maximum-a-posteriori class ([`gendisc_core::bayes_predict`]).
macro_rules! impl_generative_classifier {
    ($model:ty, |$m:ident| $n_features:expr, |$k:ident| $n_classes:expr) => {
        impl gendisc_core::Classifier for $model {
            fn n_features(&self) -> usize {
                let $m = self;
                $n_features
            }

            fn n_classes(&self) -> usize {
                let $k = self;
                $n_classes
            }

            fn predict(
                &self,
                x: ndarray::ArrayView2<'_, f64>,
            ) -> gendisc_core::Result<ndarray::Array1<usize>> {
                gendisc_core::bayes_predict(self, x)
            }
        }
    };
}
pub(crate) use impl_generative_classifier;

/// The per-class sums of a factorised model's per-feature log-densities over the features `S`
/// (all `d` when `None`), for every row of `x`, as an `n × K` array: `per_class(k, rows, S, out)`
/// writes class `k`'s sum of every row of the row-major `rows` (`d` columns) into `out`, and the
/// columns are gathered into the output row by row.
pub(crate) fn sums_by_class(
    x: ArrayView2<'_, f64>,
    features: Option<&[usize]>,
    n_classes: usize,
    mut per_class: impl FnMut(usize, &[f64], &[usize], &mut [f64]),
) -> Array2<f64> {
    let x = x.as_standard_layout();
    let rows = x.as_slice().expect("standard layout");
    let all: Vec<usize>;
    let features = match features {
        Some(f) => f,
        None => {
            all = (0..x.ncols()).collect();
            &all
        }
    };
    let n = x.nrows();
    let mut out = vec![0.0; n * n_classes];
    let mut sums = vec![0.0; n];
    for k in 0..n_classes {
        per_class(k, rows, features, &mut sums);
        for (o, &s) in out.iter_mut().skip(k).step_by(n_classes).zip(&sums) {
            *o = s;
        }
    }
    Array2::from_shape_vec((n, n_classes), out).expect("n × K entries")
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use ndarray::array;

    #[test]
    fn priors_are_validated_and_normalised() {
        assert!(ClassPriors::Given(vec![]).check().is_err());
        assert!(ClassPriors::Given(vec![0.5, 0.6]).check().is_err());
        assert!(ClassPriors::Given(vec![1.0, 0.0]).check().is_err());
        assert!(ClassPriors::Given(vec![f64::NAN, 1.0]).check().is_err());
        let p = ClassPriors::Given(vec![0.25, 0.75]);
        p.check().unwrap();
        let lp = p.log_prior(&[3.0, 3.0]).unwrap();
        assert_relative_eq!(lp[0], 0.25f64.ln(), max_relative = 1e-14);
        assert!(p.log_prior(&[1.0, 1.0, 1.0]).is_err());
        let e = ClassPriors::Empirical.log_prior(&[1.0, 3.0]).unwrap();
        assert_relative_eq!(e[1], 0.75f64.ln(), max_relative = 1e-14);
        let u = ClassPriors::Uniform.log_prior(&[1.0, 3.0, 7.0]).unwrap();
        assert_relative_eq!(u[2], -(3f64.ln()));
    }

    #[test]
    fn number_of_classes_is_given_or_inferred() {
        let y = array![0, 2, 1];
        let s = check_targets("m", 3, y.view(), None, None, &ClassPriors::Empirical).unwrap();
        assert_eq!(s.n_classes, 3);
        let err = check_targets("m", 3, y.view(), None, Some(2), &ClassPriors::Empirical);
        assert!(matches!(
            err,
            Err(Error::LabelOutOfRange {
                row: 1,
                label: 2,
                ..
            })
        ));
        let err = check_targets("m", 3, y.view(), None, Some(4), &ClassPriors::Empirical);
        assert!(matches!(err, Err(Error::EmptyClass { class: 3, .. })));
        let priors = ClassPriors::Given(vec![0.1, 0.2, 0.3, 0.4]);
        let err = check_targets("m", 3, y.view(), None, None, &priors);
        assert!(matches!(err, Err(Error::EmptyClass { class: 3, .. })));
    }

    #[test]
    fn regions_are_checked() {
        assert!(check_region(&[0, 2], 3).is_ok());
        assert!(check_region(&[], 3).is_ok());
        assert!(matches!(
            check_region(&[0, 3], 3),
            Err(Error::InvalidValue { row: 1, .. })
        ));
        assert!(matches!(
            check_region(&[1, 1], 3),
            Err(Error::InvalidValue { row: 1, .. })
        ));
    }

    #[test]
    fn floor_has_a_scale_even_for_constant_data() {
        assert_eq!(variance_floor(1e-9, 4.0), 4e-9);
        assert_eq!(variance_floor(1e-9, 0.0), 1e-9);
    }
}
