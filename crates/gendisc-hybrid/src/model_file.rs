//! Model files of the hybrids ([`SavedModel`]): what a file must satisfy to be read back as a
//! [`Hybrid`] or a [`SparseHybrid`].
//!
//! A hybrid's kind names its generative model, `"hybrid-"` followed by that model's own kind
//! (`"hybrid-gaussian-naive-bayes"`…), so that a file of a hybrid over one model read as a
//! hybrid over another says so before any parameter is read. The text hybrid over multinomial
//! naive Bayes is `"sparse-hybrid"`.

use gendisc_core::model_file::invariants::{finite, invalid};
use gendisc_core::{Convergence, Error, FitSummary, Generative, Result, SavedModel};
use gendisc_generative::{BernoulliNb, CategoricalNb, GaussianNb, MultinomialNb};
use ndarray::Array1;

use crate::model::{Hybrid, HybridReport};
use crate::params::{check_regions, Intercept};
use crate::sparse::SparseHybrid;

/// How far a fixed intercept may be from the generative model's log prior, which it was copied
/// from: the log prior of a loaded model is recomputed from its parameters, and a few ulps of
/// difference are not damage.
const LOG_PRIOR_TOLERANCE: f64 = 1e-12;

/// `SavedModel` for the hybrid over each generative model the hybrid is fitted with (those
/// whose parameters implement [`LeaveOneOut`](gendisc_generative::LeaveOneOut)). A kind is a
/// `&'static str`, which generic code cannot compose from the generative model's, so each gets
/// its literal; a test checks that it is `"hybrid-"` and the model's kind.
macro_rules! saved_hybrid {
    ($($generative:ty => $kind:literal),* $(,)?) => {$(
        impl SavedModel for Hybrid<$generative> {
            const KIND: &'static str = $kind;

            /// The generative model's own invariants (named `generative.<field>`); regions
            /// non-empty, disjoint and within the model's features; a class term per class
            /// (at least two) and a weight per region, all finite; a fixed intercept equal to
            /// the model's log prior; aliased regions that exist and have weight 0.
            fn check_invariants(&self) -> Result<()> {
                check_hybrid(self, Self::KIND)
            }

            fn fit_summary(&self) -> Option<FitSummary> {
                self.report.as_ref().map(summary)
            }
        }
    )*};
}

saved_hybrid! {
    GaussianNb => "hybrid-gaussian-naive-bayes",
    BernoulliNb => "hybrid-bernoulli-naive-bayes",
    CategoricalNb => "hybrid-categorical-naive-bayes",
    MultinomialNb => "hybrid-multinomial-naive-bayes",
}

impl SavedModel for SparseHybrid {
    const KIND: &'static str = "sparse-hybrid";

    /// The multinomial model's own invariants (named `generative.<field>`); a class term per
    /// class (at least two) and at least one region weight, all finite; aliased regions that
    /// exist and have weight 0.
    fn check_invariants(&self) -> Result<()> {
        let kind = Self::KIND;
        check_generative(&self.generative, kind)?;
        if self.region_weights.is_empty() {
            return Err(invalid(kind, "region_weights", "no regions"));
        }
        check_weights(
            kind,
            &self.generative,
            // The text hybrid does not record how its intercept was set.
            false,
            &self.class_intercepts,
            &self.region_weights,
            self.report.as_ref(),
        )
    }

    fn fit_summary(&self) -> Option<FitSummary> {
        self.report.as_ref().map(summary)
    }
}

/// The invariants of a [`Hybrid`] over any generative model with a model file.
fn check_hybrid<M>(hybrid: &Hybrid<M>, kind: &str) -> Result<()>
where
    M: SavedModel + Generative,
{
    check_generative(&hybrid.generative, kind)?;
    check_regions(&hybrid.regions, Some(hybrid.generative.n_features())).map_err(|e| match e {
        Error::InvalidParameter { reason, .. } => invalid(kind, "regions", reason),
        other => other,
    })?;
    if hybrid.region_weights.len() != hybrid.regions.len() {
        return Err(invalid(
            kind,
            "region_weights",
            format!(
                "{} weights for {} regions",
                hybrid.region_weights.len(),
                hybrid.regions.len()
            ),
        ));
    }
    check_weights(
        kind,
        &hybrid.generative,
        hybrid.intercept == Intercept::LogPriorRatio,
        &hybrid.class_intercepts,
        &hybrid.region_weights,
        hybrid.report.as_ref(),
    )
}

/// The generative model's invariants, its fields named as paths from the hybrid's.
fn check_generative<M: SavedModel>(generative: &M, kind: &str) -> Result<()> {
    generative.check_invariants().map_err(|e| match e {
        Error::InvalidModel { field, reason, .. } => Error::InvalidModel {
            kind: kind.to_owned(),
            field: format!("generative.{field}"),
            reason: format!("{reason} (in the {} model)", M::KIND),
        },
        other => other,
    })
}

/// What the two hybrids share: the class terms against the generative model's classes (and
/// its log prior when they are `fixed_to_log_prior`), finite weights, and the report's aliased
/// regions.
fn check_weights(
    kind: &str,
    generative: &impl Generative,
    fixed_to_log_prior: bool,
    class_intercepts: &Array1<f64>,
    region_weights: &Array1<f64>,
    report: Option<&HybridReport>,
) -> Result<()> {
    let n_classes = generative.n_classes();
    if n_classes < 2 || class_intercepts.len() != n_classes {
        return Err(invalid(
            kind,
            "class_intercepts",
            format!(
                "{} class terms for a generative model of {n_classes} classes; a hybrid has one \
                 per class, and at least 2 classes",
                class_intercepts.len()
            ),
        ));
    }
    finite(kind, "class_intercepts", class_intercepts)?;
    finite(kind, "region_weights", region_weights)?;
    if fixed_to_log_prior {
        let log_prior = generative.log_prior();
        if let Some(k) = (0..n_classes)
            .find(|&k| (class_intercepts[k] - log_prior[k]).abs() > LOG_PRIOR_TOLERANCE)
        {
            return Err(invalid(
                kind,
                "class_intercepts",
                format!(
                    "class {k}'s term is {}, but the intercept is fixed at the generative \
                     model's log prior, {}",
                    class_intercepts[k], log_prior[k]
                ),
            ));
        }
    }
    if let Some(report) = report {
        for &r in &report.aliased_regions {
            match region_weights.get(r) {
                None => {
                    return Err(invalid(
                        kind,
                        "report",
                        format!(
                            "aliased region {r} does not exist; the model has {} regions",
                            region_weights.len()
                        ),
                    ))
                }
                Some(&theta) if theta != 0.0 => {
                    return Err(invalid(
                        kind,
                        "region_weights",
                        format!("region {r} is aliased, so its weight is 0, not {theta}"),
                    ))
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}

/// The file's summary of a fit of `θ`.
fn summary(report: &HybridReport) -> FitSummary {
    let mut status = format!(
        "{:?} solver: {}, gradient norm {:e}",
        report.solver,
        report.status(),
        report.gradient_norm
    );
    if report.leave_one_out {
        status.push_str(", on leave-one-out features");
    }
    if !report.aliased_regions.is_empty() {
        status.push_str(&format!(
            "; aliased regions {:?} (weight 0)",
            report.aliased_regions
        ));
    }
    FitSummary {
        converged: report.is_converged(),
        iterations: report.iterations,
        status,
        warnings: gendisc_discriminative::logistic::separation_warnings(
            report.separated,
            report.saturated,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each hybrid's kind is `"hybrid-"` and its generative model's kind.
    #[test]
    fn kinds_name_the_generative_model() {
        fn check<M: SavedModel>()
        where
            Hybrid<M>: SavedModel,
        {
            assert_eq!(Hybrid::<M>::KIND, format!("hybrid-{}", M::KIND));
        }
        check::<GaussianNb>();
        check::<BernoulliNb>();
        check::<CategoricalNb>();
        check::<MultinomialNb>();
    }
}
