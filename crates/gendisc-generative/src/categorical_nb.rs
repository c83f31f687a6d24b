//! Categorical naive Bayes: discrete features with any number of levels, independent within
//! each class.
//!
//! Feature `j` takes the levels `0..L_j`, coded as `f64` (an R factor's codes minus one).
//!
//! ```text
//! p(x | y = k) = Π_j θ_kj[x_j]
//! θ_kj[l] = (c_kjl + α) / (W_k + α L_j),      c_kjl = Σ_{i: y_i = k, x_ij = l} w_i
//! ```
//!
//! `α = 1` (the default) is Laplace smoothing, `e1071::naiveBayes(laplace = 1)`:
//! `(table + laplace) / (rowSums(table) + laplace · nlevels)`, and scikit-learn's
//! `CategoricalNB(alpha = 1)`.
//!
//! ## Levels unseen in training
//!
//! The number of levels `L_j` is either given ([`CategoricalNbParams::n_levels`]) or inferred
//! as `1 + ` the largest level seen in training. A level inside `0..L_j` that some class never
//! showed in training gets the smoothed probability `α / (W_k + α L_j)`; this covers every
//! level of a factor whose levels are declared. A level outside `0..L_j` is outside the
//! model's domain: predicting on it is an
//! [`Error::InvalidValue`] naming row and column (declare
//! the levels with `n_levels` to cover it). With `α = 0` an unseen level has probability zero.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use serde::{Deserialize, Serialize};

use gendisc_core::model_file::invariants::invalid;
use gendisc_core::{
    Classifier, Error, FactorisedGenerative, Generative, ParamGuard, Result, SavedModel,
};

use crate::common::{
    check_alpha, check_n_classes, check_prediction, check_region, check_training, ClassPriors,
};
use crate::model_file::{
    check_classes, check_log_distribution_rows, check_size, locate, log_table,
};

/// Hyper-parameters of [`CategoricalNb`], validated.
///
/// | parameter | default | meaning |
/// |---|---|---|
/// | `alpha` | `1.0` | pseudo-count `α ≥ 0` added to every level |
/// | `n_levels` | inferred | `L_j` for each feature, each `≥ 1` |
/// | `priors` | [`ClassPriors::Empirical`] | class prior |
/// | `n_classes` | `max(y) + 1` | number of classes `K` |
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoricalNbValidParams {
    alpha: f64,
    n_levels: Option<Vec<usize>>,
    priors: ClassPriors,
    n_classes: Option<usize>,
}

impl CategoricalNbValidParams {
    /// The pseudo-count `α`.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
    /// The declared numbers of levels, if any.
    pub fn n_levels(&self) -> Option<&[usize]> {
        self.n_levels.as_deref()
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

/// Builder for [`CategoricalNbValidParams`]; see there for the table of parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoricalNbParams(CategoricalNbValidParams);

impl Default for CategoricalNbParams {
    fn default() -> Self {
        Self(CategoricalNbValidParams {
            alpha: 1.0,
            n_levels: None,
            priors: ClassPriors::Empirical,
            n_classes: None,
        })
    }
}

impl CategoricalNbParams {
    /// The pseudo-count `α` (default 1, Laplace); must be finite and non-negative.
    pub fn alpha(mut self, alpha: f64) -> Self {
        self.0.alpha = alpha;
        self
    }
    /// Declares `L_j`, the number of levels of each feature (one entry per column, each ≥ 1).
    pub fn n_levels(mut self, n_levels: Vec<usize>) -> Self {
        self.0.n_levels = Some(n_levels);
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

impl ParamGuard for CategoricalNbParams {
    type Checked = CategoricalNbValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        check_alpha(self.0.alpha)?;
        self.0.priors.check()?;
        check_n_classes(self.0.n_classes)?;
        if let Some(j) = self
            .0
            .n_levels
            .as_ref()
            .and_then(|l| l.iter().position(|&l| l == 0))
        {
            return Err(Error::invalid_parameter(
                "n_levels",
                format!("feature {j} has no levels; every feature needs at least one"),
            ));
        }
        Ok(&self.0)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}

/// A fitted categorical naive Bayes model; see the [module documentation](self), which also
/// defines the behaviour on levels unseen in training.
///
/// ```
/// use gendisc_core::{ConditionalModel, Fit};
/// use gendisc_generative::CategoricalNb;
/// use ndarray::array;
///
/// // One feature with three levels; level 2 is never seen in training.
/// let x = array![[0.0], [0.0], [1.0], [1.0]];
/// let y = array![0, 0, 0, 1];
/// let model = CategoricalNb::params().n_levels(vec![3]).fit(x.view(), y.view()).unwrap();
/// // Laplace: p(x = 2 | y = 0) = (0 + 1) / (3 + 3).
/// assert!((model.feature_prob(0)[[0, 2]] - 1.0 / 6.0).abs() < 1e-15);
/// assert!(model.predict_proba(array![[2.0]].view()).is_ok());
/// assert!(model.predict_proba(array![[3.0]].view()).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CategoricalNb {
    /// For each feature `j`, `log θ_kj[l]` as a `K × L_j` matrix.
    #[serde(deserialize_with = "log_table::deserialize_each")]
    log_prob: Vec<Array2<f64>>,
    log_prior: Array1<f64>,
    class_weight: Array1<f64>,
}

impl CategoricalNb {
    /// The default hyper-parameters, to be adjusted and fitted.
    pub fn params() -> CategoricalNbParams {
        CategoricalNbParams::default()
    }

    /// `L_j` for every feature.
    pub fn n_levels(&self) -> Vec<usize> {
        self.log_prob.iter().map(Array2::ncols).collect()
    }

    /// `θ_kj[l] = p(x_j = l | y = k)` for feature `j`, as a `K × L_j` matrix. Panics if `j` is
    /// not a feature index.
    pub fn feature_prob(&self, j: usize) -> Array2<f64> {
        self.log_prob[j].mapv(f64::exp)
    }

    /// `log θ_kj[l]` for feature `j`, `K × L_j`. Panics if `j` is not a feature index.
    pub fn feature_log_prob(&self, j: usize) -> ArrayView2<'_, f64> {
        self.log_prob[j].view()
    }

    /// Class priors `p(y = k)`.
    pub fn class_prior(&self) -> Array1<f64> {
        self.log_prior.mapv(f64::exp)
    }

    /// Weighted class totals `W_k` seen in training.
    pub fn class_weight(&self) -> ArrayView1<'_, f64> {
        self.class_weight.view()
    }

    fn log_likelihood_over(
        &self,
        x: ArrayView2<'_, f64>,
        features: Option<&[usize]>,
    ) -> Array2<f64> {
        let n_classes = self.log_prior.len();
        let mut out = Array2::zeros((x.nrows(), n_classes));
        for (row, mut out_row) in x.axis_iter(Axis(0)).zip(out.axis_iter_mut(Axis(0))) {
            for (k, o) in out_row.iter_mut().enumerate() {
                // Levels were validated, so the cast is exact and in range.
                let term = |j: usize| self.log_prob[j][[k, row[j] as usize]];
                *o = match features {
                    None => (0..row.len()).map(term).sum(),
                    Some(f) => f.iter().map(|&j| term(j)).sum(),
                };
            }
        }
        out
    }

    fn fit_impl(
        p: &CategoricalNbValidParams,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<Self> {
        let summary = check_training("categorical naive Bayes", x, y, w, p.n_classes, &p.priors)?;
        let n_levels = match &p.n_levels {
            Some(levels) => {
                if levels.len() != x.ncols() {
                    return Err(Error::shape_mismatch(
                        "length of n_levels vs columns of x",
                        x.ncols(),
                        levels.len(),
                    ));
                }
                check_levels(x, levels)?;
                levels.clone()
            }
            None => {
                check_levels(x, &vec![MAX_INFERRED_LEVELS; x.ncols()])?;
                x.axis_iter(Axis(1))
                    .map(|col| col.fold(0.0f64, |m, &v| m.max(v)) as usize + 1)
                    .collect()
            }
        };
        let n_classes = summary.n_classes;
        let mut counts: Vec<Array2<f64>> = n_levels
            .iter()
            .map(|&l| Array2::zeros((n_classes, l)))
            .collect();
        for (i, row) in x.axis_iter(Axis(0)).enumerate() {
            let wi = w.map_or(1.0, |w| w[i]);
            for (table, &v) in counts.iter_mut().zip(row.iter()) {
                table[[y[i], v as usize]] += wi;
            }
        }
        let alpha = p.alpha;
        let log_prob = counts
            .into_iter()
            .map(|mut table| {
                let n_lev = table.ncols() as f64;
                for (k, mut row) in table.axis_iter_mut(Axis(0)).enumerate() {
                    let log_denominator = (summary.class_weight[k] + alpha * n_lev).ln();
                    row.mapv_inplace(|c| (c + alpha).ln() - log_denominator);
                }
                table
            })
            .collect();
        Ok(Self {
            log_prob,
            log_prior: p.priors.log_prior(&summary.class_weight)?,
            class_weight: Array1::from(summary.class_weight),
        })
    }

    fn check_input(&self, x: ArrayView2<'_, f64>) -> Result<()> {
        check_prediction(x, self.n_features())?;
        check_levels(x, &self.n_levels())
    }
}

/// The largest number of levels inferred from training data; a larger code is far more likely
/// a numeric column given by mistake than a factor, and would allocate a huge table.
const MAX_INFERRED_LEVELS: usize = 1 << 16;

/// Every entry of column `j` is an integer level in `0..n_levels[j]`.
fn check_levels(x: ArrayView2<'_, f64>, n_levels: &[usize]) -> Result<()> {
    for ((row, column), &value) in x.indexed_iter() {
        let limit = n_levels[column];
        let reason = if value < 0.0 || value.fract() != 0.0 {
            "a categorical feature must be a level code 0, 1, 2, …".to_string()
        } else if value >= limit as f64 {
            format!(
                "level outside 0..{limit}, the levels known to the model (declare them with `n_levels`)"
            )
        } else {
            continue;
        };
        return Err(Error::InvalidValue {
            what: "x".into(),
            row,
            column,
            value,
            reason,
        });
    }
    Ok(())
}

crate::common::impl_fit!(CategoricalNbValidParams => CategoricalNb, fit_impl);

crate::common::impl_generative_classifier!(CategoricalNb, |model| model.log_prob.len(), |model| {
    model.log_prior.len()
});

impl Generative for CategoricalNb {
    fn log_prior(&self) -> Array1<f64> {
        self.log_prior.clone()
    }

    fn class_log_likelihood(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        self.check_input(x)?;
        Ok(self.log_likelihood_over(x, None))
    }
}

impl SavedModel for CategoricalNb {
    const KIND: &'static str = "categorical-naive-bayes";

    /// Every feature's table in `log_prob` has `K` rows and at least one level, and each of its
    /// rows is a log-distribution over the levels (entries `−∞`, i.e. probability 0, occur when
    /// `α = 0`); the class priors and weights are those of `K` classes.
    fn check_invariants(&self) -> Result<()> {
        let kind = Self::KIND;
        let n_classes = self.log_prior.len();
        check_size(kind, "log_prob", n_classes, self.log_prob.len())?;
        for (j, table) in self.log_prob.iter().enumerate() {
            if table.nrows() != n_classes || table.ncols() == 0 {
                return Err(invalid(
                    kind,
                    "log_prob",
                    format!(
                        "feature {j}: shape {:?}, expected {n_classes} classes × at least one level",
                        table.shape()
                    ),
                ));
            }
            check_log_distribution_rows(kind, "log_prob", table.view(), "class")
                .map_err(|e| locate(e, format!("feature {j}")))?;
        }
        check_classes(kind, n_classes, &self.log_prior, &self.class_weight)
    }
}

impl FactorisedGenerative for CategoricalNb {
    /// `log p(x^S | y = k) = Σ_{j ∈ S} log θ_kj[x_j]`.
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

gendisc_core::impl_conditional_model_by_bayes!(CategoricalNb);

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use gendisc_core::ConditionalModel;
    use gendisc_core::Fit;
    use ndarray::array;

    #[test]
    fn laplace_tables_by_hand() {
        let x = array![[0.0, 2.0], [1.0, 2.0], [0.0, 0.0], [2.0, 1.0], [2.0, 1.0]];
        let y = array![0, 0, 0, 1, 1];
        let m = CategoricalNb::params().fit(x.view(), y.view()).unwrap();
        assert_eq!(m.n_levels(), vec![3, 3]);
        let t0 = m.feature_prob(0);
        // Class 0: levels 0,1,0 → (2+1)/(3+3), (1+1)/6, (0+1)/6.
        assert_relative_eq!(t0[[0, 0]], 0.5, max_relative = 1e-15);
        assert_relative_eq!(t0[[0, 2]], 1.0 / 6.0, max_relative = 1e-15);
        // Class 1: levels 2,2 → (0+1)/(2+3), …, (2+1)/5.
        assert_relative_eq!(t0[[1, 2]], 0.6, max_relative = 1e-15);
        let ll = m.class_log_likelihood(array![[2.0, 1.0]].view()).unwrap();
        assert_relative_eq!(ll[[0, 1]], (0.6f64 * 0.6).ln(), max_relative = 1e-14);
        let r = m
            .region_log_likelihood(array![[2.0, 1.0]].view(), &[1])
            .unwrap();
        assert_relative_eq!(r[[0, 1]], 0.6f64.ln(), max_relative = 1e-14);
    }

    #[test]
    fn levels_are_validated() {
        let y = array![0, 1];
        for (bad, col) in [
            (array![[0.5, 0.0], [1.0, 0.0]], 0),
            (array![[0.0, 0.0], [1.0, -1.0]], 1),
        ] {
            let err = CategoricalNb::params()
                .fit(bad.view(), y.view())
                .unwrap_err();
            assert!(
                matches!(err, Error::InvalidValue { column, .. } if column == col),
                "{err}"
            );
        }
        let x = array![[0.0], [3.0]];
        assert!(CategoricalNb::params()
            .n_levels(vec![3])
            .fit(x.view(), y.view())
            .is_err());
        assert!(CategoricalNb::params()
            .n_levels(vec![4, 1])
            .fit(x.view(), y.view())
            .is_err());
        assert!(CategoricalNb::params()
            .n_levels(vec![0])
            .fit(x.view(), y.view())
            .is_err());
        let m = CategoricalNb::params().fit(x.view(), y.view()).unwrap();
        assert_eq!(m.n_levels(), vec![4]);
        let huge = array![[0.0], [1e9]];
        assert!(CategoricalNb::params().fit(huge.view(), y.view()).is_err());
        let err = m.predict_proba(array![[4.0]].view()).unwrap_err();
        assert!(
            matches!(
                err,
                Error::InvalidValue {
                    row: 0,
                    column: 0,
                    ..
                }
            ),
            "{err}"
        );
    }
}
