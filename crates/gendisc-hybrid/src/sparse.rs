//! The hybrid over text (Raina, Shen, Ng & McCallum 2003, §2): each region is its own sparse
//! count matrix over one vocabulary (a posting's subject and body), and `n_r` is the number of
//! words of region `r` in the document at hand, eq. (7).
//!
//! ```text
//! p(y = 1 | x) = σ(θ_0 + Σ_r θ_r b_r(x)),   b_r(x) = (1/n_r) log p(x^r | y = 1) / p(x^r | y = 0)   (eqs. (8)–(9))
//! ```
//!
//! with multinomial naive Bayes supplying `p(x^r | y)` (eqs. (5)–(6)), and `θ` fitted on the
//! leave-one-out features of eq. (11) when asked: the word counts are downdated for each
//! document (footnote 5,
//! [`MultinomialNbValidParams::fit_leave_one_out_sparse`]), never refitted `m` times.
//!
//! A region with no words in a document (`n_r = 0`, e.g. an empty subject) contributes
//! nothing: `p(x^r | y) = 1` for an empty region, whatever its exponent, so `b_r = 0`.

use ndarray::{s, Array1, Array2, Array3, ArrayView1, ArrayView2, Axis};
use serde::{Deserialize, Serialize};
use sprs::{CsMat, CsMatView};

use gendisc_core::validate::{check_finite_vector, check_prediction_matrix};
use gendisc_core::{Classifier, ConditionalModel, Error, ParamGuard, Result};
use gendisc_generative::{
    LeaveOneOutFit, MultinomialNb, MultinomialNbParams, MultinomialNbValidParams,
};

use crate::features::{aliased_regions, prior_contrasts, TrainingFeatures};
use crate::fit::check_two_classes;
use crate::model::HybridReport;
use crate::params::{HybridParams, HybridValidParams, Intercept, Normalization, ThetaSolver};

/// Generative parameters that fit on documents given as region count matrices: multinomial
/// naive Bayes, validated or not.
pub trait SparseRegionGenerative {
    /// The validated multinomial naive Bayes parameters.
    fn multinomial(&self) -> Result<&MultinomialNbValidParams>;
}

impl SparseRegionGenerative for MultinomialNbValidParams {
    fn multinomial(&self) -> Result<&MultinomialNbValidParams> {
        Ok(self)
    }
}

impl SparseRegionGenerative for MultinomialNbParams {
    fn multinomial(&self) -> Result<&MultinomialNbValidParams> {
        self.check_ref()
    }
}

/// A fitted hybrid over documents given as region count matrices (Raina et al. §2): each
/// region is its own sparse count matrix over one vocabulary (a posting's subject and body),
/// and `n_r` is the number of words of region `r` in the document at hand, eq. (7). Fit it
/// with [`HybridParams::fit_sparse`].
///
/// A region with no words in a document (`n_r = 0`, e.g. an empty subject) contributes
/// nothing: `p(x^r | y) = 1` for an empty region, whatever its exponent, so `b_r = 0`.
///
/// Its posterior is `p(y | x) ∝ exp(μ_y) Π_r p(x^r | y)^{θ_r s_r(x)}` with `s_r(x) = 1/n_r(x)`
/// (normalized; 0 for an empty region) or 1 (unnormalized). Methods take the document's
/// regions as CSR matrices of the same shape (rows = documents, columns = the vocabulary the
/// generative model was fitted on).
///
/// As a [`Classifier`] and a [`ConditionalModel`] — and so in a
/// [`LabelledModel`](gendisc_core::LabelledModel) or a model file — it reads dense rows that
/// hold a document's regions side by side: with a vocabulary of `V` words, columns
/// `r·V .. (r + 1)·V` are region `r`'s counts, and [`n_features`](Classifier::n_features) is
/// `R·V`. The methods of the same names that take region matrices stay the fast path for
/// sparse text; call the traits' as `Classifier::predict(&hybrid, x)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SparseHybrid {
    pub(crate) generative: MultinomialNb,
    pub(crate) normalization: Normalization,
    /// `μ_y`, length `K`.
    pub(crate) class_intercepts: Array1<f64>,
    /// `θ_r`, length `R`.
    pub(crate) region_weights: Array1<f64>,
    pub(crate) report: Option<HybridReport>,
}

impl<G: SparseRegionGenerative> HybridParams<G> {
    /// Validates the parameters and fits on region count matrices; see
    /// [`HybridValidParams::fit_sparse`].
    pub fn fit_sparse(
        &self,
        regions: &[CsMatView<'_, f64>],
        y: ArrayView1<'_, usize>,
    ) -> Result<SparseHybrid> {
        self.check_ref()?.fit_sparse(regions, y)
    }
}

impl<G: SparseRegionGenerative + Clone> HybridParams<G> {
    /// The hybrid at each prior variance `σ²` of `prior_variances`, in order: each exactly
    /// what `self.clone().prior_variance(σ²).fit_sparse(regions, y)` returns, but the generative
    /// fit, the (leave-one-out) region log-likelihoods and their contrasts — which do not
    /// depend on the prior — are computed once, for choosing `σ²` by cross-validation. Fails
    /// as that fit would, for the first `σ²` it fails for.
    pub fn fit_sparse_path(
        &self,
        regions: &[CsMatView<'_, f64>],
        y: ArrayView1<'_, usize>,
        prior_variances: &[f64],
    ) -> Result<Vec<SparseHybrid>> {
        let checked = prior_variances
            .iter()
            .map(|&v| self.clone().prior_variance(v).check())
            .collect::<Result<Vec<_>>>()?;
        let Some(first) = checked.first() else {
            return Ok(Vec::new());
        };
        let (model, features) = first.sparse_features(regions, y)?;
        checked
            .iter()
            .map(|p| p.fit_theta_sparse(&features, model.clone(), y))
            .collect()
    }
}

impl<G: SparseRegionGenerative> HybridValidParams<G> {
    /// Fits the hybrid on documents given as `R` region count matrices over one vocabulary
    /// (the same shape each) and classes `y`: multinomial naive Bayes on the total counts,
    /// the region features `b_r` per document (leave-one-out ones when
    /// [`leave_one_out`](HybridParams::leave_one_out) is set), then `θ` by the chosen solver.
    ///
    /// Feature-index regions ([`HybridParams::regions`]) do not apply here and are refused.
    ///
    /// ```
    /// use gendisc_generative::MultinomialNb;
    /// use gendisc_hybrid::Hybrid;
    /// use ndarray::array;
    /// use sprs::CsMat;
    ///
    /// // Six postings over a vocabulary of three words: subject and body counts.
    /// let subject = array![[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0],
    ///                      [0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    /// let body = array![[3.0, 1.0, 1.0], [2.0, 0.0, 1.0], [4.0, 1.0, 0.0],
    ///                   [0.0, 3.0, 1.0], [1.0, 2.0, 2.0], [0.0, 4.0, 1.0]];
    /// let (s, b) = (CsMat::csr_from_dense(subject.view(), 0.0), CsMat::csr_from_dense(body.view(), 0.0));
    /// let y = array![0, 0, 0, 1, 1, 1];
    /// let hybrid = Hybrid::params(MultinomialNb::params())
    ///     .leave_one_out(true)
    ///     .prior_variance(1.0)
    ///     .fit_sparse(&[s.view(), b.view()], y.view())?;
    /// assert_eq!(hybrid.theta()?.len(), 3);
    /// assert_eq!(hybrid.predict(&[s.view(), b.view()])?, y);
    /// # Ok::<(), gendisc_core::Error>(())
    /// ```
    pub fn fit_sparse(
        &self,
        regions: &[CsMatView<'_, f64>],
        y: ArrayView1<'_, usize>,
    ) -> Result<SparseHybrid> {
        let (model, features) = self.sparse_features(regions, y)?;
        self.fit_theta_sparse(&features, model, y)
    }

    /// What a fit computes before `θ`, none of which depends on the prior on `θ`: the
    /// generative fit on every row, and its (leave-one-out) region log-likelihoods' contrasts.
    fn sparse_features(
        &self,
        regions: &[CsMatView<'_, f64>],
        y: ArrayView1<'_, usize>,
    ) -> Result<(MultinomialNb, SparseFeatures)> {
        if self.regions.is_some() {
            return Err(Error::invalid_parameter(
                "regions",
                "feature-index regions do not apply to region count matrices: give each \
                 region as its own matrix",
            ));
        }
        let generative = self.generative.multinomial()?;
        let loo = if self.leave_one_out {
            generative.fit_leave_one_out_sparse(regions, y, None)?
        } else {
            full_fit(generative, regions, y)?
        };
        let n_classes = check_two_classes(loo.model.n_classes())?;
        let csr: Vec<CsMat<f64>> = regions.iter().map(|r| r.to_csr()).collect();
        let lengths = region_lengths(&csr);
        let n = y.len();
        let mut contrasts = Array3::zeros((n, csr.len(), n_classes - 1));
        for r in 0..csr.len() {
            let ll = loo.region(r);
            for i in 0..n {
                let scale = region_scale(self.normalization, lengths[[i, r]]);
                for k in 1..n_classes {
                    contrasts[[i, r, k - 1]] = scale * (ll[[i, k]] - ll[[i, 0]]);
                }
            }
        }
        if let Some(((i, r, _), &v)) = contrasts.indexed_iter().find(|(_, v)| !v.is_finite()) {
            return Err(Error::NonFinite {
                what: "region log-likelihood ratio (column = region)".into(),
                row: i,
                column: r,
                value: v,
            });
        }
        let fixed_intercept = self.intercept == Intercept::LogPriorRatio;
        let offsets = fixed_intercept.then(|| prior_contrasts(loo.log_prior.view()));
        let features = TrainingFeatures { contrasts, offsets };
        let aliased = aliased_regions(features.contrasts.view(), None, !fixed_intercept);
        let features = SparseFeatures {
            n_classes,
            lengths,
            features,
            aliased,
        };
        Ok((loo.model, features))
    }

    /// Fits `θ` on `f` (what [`Self::sparse_features`] computed from the same rows, with
    /// `model`, the generative fit the hybrid keeps).
    fn fit_theta_sparse(
        &self,
        f: &SparseFeatures,
        model: MultinomialNb,
        y: ArrayView1<'_, usize>,
    ) -> Result<SparseHybrid> {
        let generative = self.generative.multinomial()?;
        let n_regions = f.aliased.len();
        let active: Vec<usize> = (0..n_regions).filter(|&r| !f.aliased[r]).collect();
        // The multinomial parameters stand in for `G` in the shared θ fitting, which does not
        // look at the generative model.
        let shared = HybridValidParams {
            generative: generative.clone(),
            regions: None,
            normalization: self.normalization,
            intercept: self.intercept,
            leave_one_out: self.leave_one_out,
            solver: self.solver,
            prior_variance: self.prior_variance,
            tolerance: self.tolerance,
            max_iterations: self.max_iterations,
            require_convergence: self.require_convergence,
        };
        let solver = shared.resolve_solver(f.n_classes)?;
        let mut fitted = match solver {
            ThetaSolver::Glm | ThetaSolver::Newton => {
                shared.fit_logistic(solver, &f.features, &active, y, None)?
            }
            _ => {
                // Naive Bayes, the start the multi-class fit tries, has exponents 1, i.e.
                // θ_r = n_r normalized: the mean length stands in for the per-document one.
                let scales: Vec<f64> = (0..n_regions)
                    .map(|r| {
                        let mean = f.lengths.column(r).mean().unwrap_or(1.0);
                        region_scale(self.normalization, mean.max(1.0))
                    })
                    .collect();
                shared.fit_multiclass(&f.features, &active, &scales, y, None)?
            }
        };
        if self.intercept == Intercept::LogPriorRatio {
            fitted.class_intercepts = gendisc_core::Generative::log_prior(&model);
        }
        fitted.report.aliased_regions = (0..n_regions).filter(|&r| f.aliased[r]).collect();
        Ok(SparseHybrid {
            generative: model,
            normalization: self.normalization,
            class_intercepts: fitted.class_intercepts,
            region_weights: fitted.region_weights,
            report: Some(fitted.report),
        })
    }
}

/// What [`HybridValidParams::fit_sparse`] computes before `θ`, besides the generative fit.
struct SparseFeatures {
    n_classes: usize,
    /// `n_ir` (`n × R`).
    lengths: Array2<f64>,
    features: TrainingFeatures,
    /// Whether each region's contrasts are aliased (left out of `θ`'s fit).
    aliased: Vec<bool>,
}

/// The full fit with each training document's region log-likelihoods under it, in the shape
/// of a leave-one-out fit.
fn full_fit(
    params: &MultinomialNbValidParams,
    regions: &[CsMatView<'_, f64>],
    y: ArrayView1<'_, usize>,
) -> Result<LeaveOneOutFit<MultinomialNb>> {
    let total = gendisc_generative::sum_regions_sparse(regions)?;
    let model = params.fit_sparse(total.view(), y)?;
    let n_classes = model.n_classes();
    let mut region_log_likelihood = Array3::zeros((total.rows(), regions.len(), n_classes));
    for (r, region) in regions.iter().enumerate() {
        let ll = model.class_log_likelihood_sparse(*region)?;
        region_log_likelihood.index_axis_mut(Axis(1), r).assign(&ll);
    }
    let log_prior = gendisc_core::Generative::log_prior(&model)
        .insert_axis(Axis(0))
        .broadcast((total.rows(), n_classes))
        .expect("one row broadcasts")
        .to_owned();
    Ok(LeaveOneOutFit {
        model,
        region_log_likelihood,
        log_prior,
    })
}

/// `n_ir`, the number of words of region `r` in document `i` (`n × R`).
fn region_lengths(regions: &[CsMat<f64>]) -> Array2<f64> {
    let n = regions.first().map_or(0, |r| r.rows());
    let mut lengths = Array2::zeros((n, regions.len()));
    for (r, region) in regions.iter().enumerate() {
        for (i, row) in region.outer_iterator().enumerate() {
            lengths[[i, r]] = row.data().iter().sum();
        }
    }
    lengths
}

/// `s_r(x)`: `1/n_r` normalized (0 for an empty region), 1 unnormalized.
fn region_scale(normalization: Normalization, length: f64) -> f64 {
    match normalization {
        Normalization::Normalized if length > 0.0 => 1.0 / length,
        Normalization::Normalized => 0.0,
        Normalization::Unnormalized => 1.0,
    }
}

impl SparseHybrid {
    /// Assembles a hybrid from a fitted multinomial naive Bayes model and given weights,
    /// without fitting: `class_intercepts` are the `μ_y` (length `K`), `region_weights` the
    /// `θ_r` (length `R`).
    ///
    /// With `μ_y = log p(y)` and `θ_r = 1` (unnormalized), this is the naive Bayes classifier
    /// `generative` applied to the documents' total counts.
    pub fn from_parts(
        generative: MultinomialNb,
        normalization: Normalization,
        class_intercepts: Array1<f64>,
        region_weights: Array1<f64>,
    ) -> Result<Self> {
        if class_intercepts.len() != generative.n_classes() {
            return Err(Error::shape_mismatch(
                "length of class_intercepts vs classes of the generative model",
                generative.n_classes(),
                class_intercepts.len(),
            ));
        }
        if region_weights.is_empty() {
            return Err(Error::invalid_parameter(
                "region_weights",
                "at least one region is needed",
            ));
        }
        check_finite_vector(class_intercepts.view(), "class_intercepts")?;
        check_finite_vector(region_weights.view(), "region_weights")?;
        Ok(Self {
            generative,
            normalization,
            class_intercepts,
            region_weights,
            report: None,
        })
    }

    /// The multinomial naive Bayes model (fitted on every training document).
    pub fn generative(&self) -> &MultinomialNb {
        &self.generative
    }

    /// Normalized or unnormalized.
    pub fn normalization(&self) -> Normalization {
        self.normalization
    }

    /// The number of regions `R`.
    pub fn n_regions(&self) -> usize {
        self.region_weights.len()
    }

    /// The number of classes.
    pub fn n_classes(&self) -> usize {
        self.class_intercepts.len()
    }

    /// `μ_y` for every class (`μ_0 = 0` with a fitted intercept).
    pub fn class_intercepts(&self) -> ArrayView1<'_, f64> {
        self.class_intercepts.view()
    }

    /// The region weights `θ_1 … θ_R` (0 for aliased regions).
    pub fn region_weights(&self) -> ArrayView1<'_, f64> {
        self.region_weights.view()
    }

    /// For two classes, `θ = (θ_0, θ_1, …, θ_R)` of eq. (9). Fails with [`Error::NotBinary`]
    /// otherwise.
    pub fn theta(&self) -> Result<Array1<f64>> {
        if self.class_intercepts.len() != 2 {
            return Err(Error::NotBinary {
                what: "theta".into(),
                n_classes: self.class_intercepts.len(),
            });
        }
        let mut theta = Array1::zeros(self.region_weights.len() + 1);
        theta[0] = self.class_intercepts[1] - self.class_intercepts[0];
        theta
            .slice_mut(ndarray::s![1..])
            .assign(&self.region_weights);
        Ok(theta)
    }

    /// How the fit of `θ` went; `None` for a model assembled with
    /// [`from_parts`](Self::from_parts).
    pub fn report(&self) -> Option<&HybridReport> {
        self.report.as_ref()
    }

    /// `η_ik = μ_k + Σ_r θ_r s_r(x_i) log p(x_i^r | y = k)`, `n × K`.
    fn scores(&self, regions: &[CsMatView<'_, f64>]) -> Result<Array2<f64>> {
        if regions.len() != self.region_weights.len() {
            return Err(Error::shape_mismatch(
                "region count matrices vs regions of the model",
                self.region_weights.len(),
                regions.len(),
            ));
        }
        let n = regions[0].rows();
        let mut eta = Array2::zeros((n, self.class_intercepts.len()));
        eta += &self.class_intercepts.view().insert_axis(Axis(0));
        for (r, (region, &theta)) in regions.iter().zip(&self.region_weights).enumerate() {
            if region.rows() != n {
                return Err(Error::shape_mismatch(
                    format!("rows of region {r} vs region 0"),
                    n,
                    region.rows(),
                ));
            }
            if theta == 0.0 {
                continue;
            }
            let ll = self.generative.class_log_likelihood_sparse(*region)?;
            let csr = region.to_csr();
            for (i, (row, mut out)) in csr
                .outer_iterator()
                .zip(eta.axis_iter_mut(Axis(0)))
                .enumerate()
            {
                let length: f64 = row.data().iter().sum();
                let exponent = theta * region_scale(self.normalization, length);
                if exponent != 0.0 {
                    out.scaled_add(exponent, &ll.row(i));
                }
            }
        }
        Ok(eta)
    }

    /// `log p(y = k | x_i)`, `n × K`; rows log-sum-exp to 0.
    pub fn predict_log_proba(&self, regions: &[CsMatView<'_, f64>]) -> Result<Array2<f64>> {
        let eta = self.scores(regions)?;
        gendisc_core::log_posterior_from_scores(eta, crate::model::POSTERIOR)
    }

    /// `p(y = k | x_i)`, `n × K`; rows sum to 1.
    pub fn predict_proba(&self, regions: &[CsMatView<'_, f64>]) -> Result<Array2<f64>> {
        Ok(self.predict_log_proba(regions)?.mapv_into(f64::exp))
    }

    /// The most probable class of each document, ties to the lowest class.
    pub fn predict(&self, regions: &[CsMatView<'_, f64>]) -> Result<Array1<usize>> {
        let eta = self.scores(regions)?;
        gendisc_core::argmax_rows(eta.view(), "posterior of the hybrid")
    }

    /// For two classes, the log-odds `θ_0 + Σ_r θ_r b_r(x)` (eq. (9)).
    pub fn decision_function(&self, regions: &[CsMatView<'_, f64>]) -> Result<Array1<f64>> {
        if self.class_intercepts.len() != 2 {
            return Err(Error::NotBinary {
                what: "decision_function".into(),
                n_classes: self.class_intercepts.len(),
            });
        }
        let eta = self.scores(regions)?;
        Ok(&eta.column(1) - &eta.column(0))
    }
}

impl SparseHybrid {
    /// The regions of dense rows laid side by side (see [`SparseHybrid`]), as CSR matrices,
    /// after checking the width and the values of `x`.
    fn regions_of(&self, x: ArrayView2<'_, f64>) -> Result<Vec<CsMat<f64>>> {
        check_prediction_matrix(x, Classifier::n_features(self))?;
        let vocabulary = self.generative.n_features();
        Ok((0..self.region_weights.len())
            .map(|r| {
                let columns = x.slice(s![.., r * vocabulary..(r + 1) * vocabulary]);
                CsMat::csr_from_dense(columns, 0.0)
            })
            .collect())
    }
}

impl Classifier for SparseHybrid {
    /// `R·V`: the regions' counts side by side.
    fn n_features(&self) -> usize {
        self.region_weights.len() * self.generative.n_features()
    }

    fn n_classes(&self) -> usize {
        self.class_intercepts.len()
    }

    /// [`SparseHybrid::predict`] on the regions laid side by side in `x`.
    fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Array1<usize>> {
        let regions = self.regions_of(x)?;
        let views: Vec<_> = regions.iter().map(CsMat::view).collect();
        SparseHybrid::predict(self, &views)
    }
}

impl ConditionalModel for SparseHybrid {
    /// [`SparseHybrid::predict_log_proba`] on the regions laid side by side in `x`.
    fn predict_log_proba(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        let regions = self.regions_of(x)?;
        let views: Vec<_> = regions.iter().map(CsMat::view).collect();
        SparseHybrid::predict_log_proba(self, &views)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Hybrid;
    use gendisc_core::{ConditionalModel, Fit, Generative};
    use gendisc_discriminative::logistic::{LogisticRegression, LogisticSolver};
    use ndarray::{array, s, Array2};
    use proptest::prelude::*;

    fn csr(dense: &Array2<f64>) -> CsMat<f64> {
        CsMat::csr_from_dense(dense.view(), 0.0)
    }

    /// Random documents: two regions of counts over `v` words, classes alternating.
    fn documents() -> impl Strategy<Value = (Array2<f64>, Array2<f64>, Array1<usize>)> {
        (4usize..=12, 2usize..=6).prop_flat_map(|(n, v)| {
            (
                prop::collection::vec(prop::sample::select(vec![0.0, 0.0, 1.0, 2.0]), n * v),
                prop::collection::vec(prop::sample::select(vec![0.0, 1.0, 1.0, 3.0]), n * v),
            )
                .prop_map(move |(a, b)| {
                    (
                        Array2::from_shape_vec((n, v), a).unwrap(),
                        Array2::from_shape_vec((n, v), b).unwrap(),
                        Array1::from_iter((0..n).map(|i| i % 2)),
                    )
                })
        })
    }

    proptest! {
        /// With θ = (log prior ratio, n_1, …, n_R) for a document's own region lengths, the
        /// normalized hybrid's posterior of that document is naive Bayes'; unnormalized, θ_r = 1
        /// gives naive Bayes for every document.
        #[test]
        fn naive_bayes_is_a_special_case((subject, body, y) in documents()) {
            let total = &subject + &body;
            let nb = MultinomialNb::params().fit(total.view(), y.view()).unwrap();
            let nb_posterior = nb.predict_proba(total.view()).unwrap();
            let (s, b) = (csr(&subject), csr(&body));
            let regions = [s.view(), b.view()];
            let unnormalized = SparseHybrid::from_parts(
                nb.clone(),
                Normalization::Unnormalized,
                nb.log_prior(),
                array![1.0, 1.0],
            ).unwrap();
            let p = unnormalized.predict_proba(&regions).unwrap();
            for (a, e) in p.iter().zip(nb_posterior.iter()) {
                prop_assert!((a - e).abs() < 1e-12, "{a} vs {e}");
            }
            for i in 0..y.len() {
                let n1 = subject.row(i).sum();
                let n2 = body.row(i).sum();
                let normalized = SparseHybrid::from_parts(
                    nb.clone(),
                    Normalization::Normalized,
                    nb.log_prior(),
                    array![n1, n2],
                ).unwrap();
                let p = normalized.predict_proba(&regions).unwrap();
                for k in 0..2 {
                    prop_assert!((p[[i, k]] - nb_posterior[[i, k]]).abs() < 1e-12);
                }
            }
        }

        /// θ fitted on leave-one-out features equals θ fitted (by the same glm) on features
        /// computed from m brute-force refits.
        #[test]
        fn leave_one_out_theta_equals_refits((subject, body, y) in documents()) {
            let (s, b) = (csr(&subject), csr(&body));
            let regions = [s.view(), b.view()];
            let params = Hybrid::params(MultinomialNb::params()).leave_one_out(true).prior_variance(4.0);
            let fitted = params.fit_sparse(&regions, y.view()).unwrap();
            let n = y.len();
            let total = &subject + &body;
            let mut features = Array2::zeros((n, 2));
            for i in 0..n {
                let keep: Vec<usize> = (0..n).filter(|&r| r != i).collect();
                let refit = MultinomialNb::params()
                    .n_classes(2)
                    .fit(total.select(Axis(0), &keep).view(), y.select(Axis(0), &keep).view())
                    .unwrap();
                for (r, region) in [&subject, &body].into_iter().enumerate() {
                    let row = region.slice(s![i..=i, ..]);
                    let ll = refit.class_log_likelihood(row).unwrap();
                    let length = row.sum();
                    let scale = if length > 0.0 { 1.0 / length } else { 0.0 };
                    features[[i, r]] = scale * (ll[[0, 1]] - ll[[0, 0]]);
                }
            }
            let aliased = &fitted.report().unwrap().aliased_regions;
            let active: Vec<usize> = (0..2).filter(|r| !aliased.contains(r)).collect();
            prop_assert!(!active.is_empty());
            let lr = LogisticRegression::params()
                .solver(LogisticSolver::Newton)
                .prior_variance(4.0)
                .fit(features.select(Axis(1), &active).view(), y.view())
                .unwrap();
            let theta = fitted.theta().unwrap();
            prop_assert!((theta[0] - lr.intercept()[0]).abs() < 1e-6, "{theta} vs {}", lr.intercept());
            for (a, &r) in active.iter().enumerate() {
                let want = lr.coefficients()[[0, a]];
                prop_assert!((theta[r + 1] - want).abs() < 1e-6 * want.abs().max(1.0), "{theta} vs {want}");
            }
        }
    }

    proptest! {
        /// Along a path of prior variances each hybrid is exactly the one fitted alone: the
        /// shared generative part and region features are what each fit would compute.
        #[test]
        fn the_path_is_each_fit_alone(
            (subject, body, y) in documents(),
            leave_one_out in any::<bool>(),
            normalized in any::<bool>(),
        ) {
            let (s, b) = (csr(&subject), csr(&body));
            let regions = [s.view(), b.view()];
            let normalization = if normalized {
                Normalization::Normalized
            } else {
                Normalization::Unnormalized
            };
            let params = Hybrid::params(MultinomialNb::params())
                .leave_one_out(leave_one_out)
                .normalization(normalization);
            let grid = [0.01, 1.0, 100.0];
            let path = params.fit_sparse_path(&regions, y.view(), &grid).unwrap();
            prop_assert_eq!(path.len(), grid.len());
            for (hybrid, &variance) in path.iter().zip(&grid) {
                let alone = params
                    .clone()
                    .prior_variance(variance)
                    .fit_sparse(&regions, y.view())
                    .unwrap();
                prop_assert_eq!(hybrid, &alone);
            }
        }
    }

    #[test]
    fn a_path_checks_every_prior_variance() {
        let x = csr(&array![[1.0, 0.0], [0.0, 1.0], [2.0, 0.0], [0.0, 2.0]]);
        let y = array![0, 1, 0, 1];
        let params = Hybrid::params(MultinomialNb::params());
        assert!(params
            .fit_sparse_path(&[x.view()], y.view(), &[])
            .unwrap()
            .is_empty());
        match params.fit_sparse_path(&[x.view()], y.view(), &[1.0, -2.0]) {
            Err(Error::InvalidParameter { name, .. }) => assert_eq!(name, "prior_variance"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_empty_region_contributes_nothing() {
        let body = array![
            [2.0, 0.0, 1.0],
            [0.0, 3.0, 1.0],
            [1.0, 0.0, 2.0],
            [0.0, 2.0, 2.0],
            [3.0, 1.0, 0.0],
            [0.0, 1.0, 3.0]
        ];
        let y = array![0, 1, 0, 1, 0, 1];
        let empty: CsMat<f64> = CsMat::zero((6, 3));
        let b = csr(&body);
        let with_empty = Hybrid::params(MultinomialNb::params())
            .leave_one_out(true)
            .prior_variance(1.0)
            .fit_sparse(&[empty.view(), b.view()], y.view())
            .unwrap();
        // The empty region is aliased (constant zero), its weight is zero.
        assert_eq!(with_empty.report().unwrap().aliased_regions, vec![0]);
        assert_eq!(with_empty.region_weights()[0], 0.0);
        let alone = Hybrid::params(MultinomialNb::params())
            .leave_one_out(true)
            .prior_variance(1.0)
            .fit_sparse(&[b.view()], y.view())
            .unwrap();
        assert!((with_empty.theta().unwrap()[2] - alone.theta().unwrap()[1]).abs() < 1e-10);
        let p = with_empty.predict_proba(&[empty.view(), b.view()]).unwrap();
        let q = alone.predict_proba(&[b.view()]).unwrap();
        assert!((p - q).iter().all(|d| d.abs() < 1e-10));
    }

    #[test]
    fn bad_input_is_named() {
        let x = csr(&array![[1.0, 0.0], [0.0, 1.0], [2.0, 0.0], [0.0, 2.0]]);
        let y = array![0, 1, 0, 1];
        let params = Hybrid::params(MultinomialNb::params());
        assert!(params.fit_sparse(&[], y.view()).is_err());
        let narrow: CsMat<f64> = CsMat::zero((4, 1));
        let err = params
            .fit_sparse(&[x.view(), narrow.view()], y.view())
            .unwrap_err();
        assert!(err.to_string().contains("region 1"), "{err}");
        let err = params
            .clone()
            .regions(vec![vec![0]])
            .fit_sparse(&[x.view()], y.view())
            .unwrap_err();
        assert!(matches!(
            err,
            Error::InvalidParameter {
                name: "regions",
                ..
            }
        ));
        let model = params
            .clone()
            .prior_variance(1.0)
            .fit_sparse(&[x.view()], y.view())
            .unwrap();
        assert!(model.predict(&[x.view(), x.view()]).is_err());
        let wide: CsMat<f64> = CsMat::zero((4, 3));
        assert!(model.predict(&[wide.view()]).is_err());
        assert_eq!(model.predict(&[x.view()]).unwrap(), y);
    }
}
