//! Hybrids that share one fitted generative model.
//!
//! Several hybrids over the same data and the same naive Bayes model — normalized and
//! unnormalized, with and without leave-one-out, different solvers or priors — differ only in
//! how they scale and weight the region log-likelihoods `log p(x^r | y = k)`. Fitting each with
//! [`Fit::fit`](gendisc_core::Fit::fit) refits the generative model and recomputes those
//! likelihoods on the training rows and again on every set of rows it predicts. Here they are
//! computed once:
//!
//! * [`HybridValidParams::fit_from`] builds the hybrid on an already-fitted generative model;
//! * [`RegionLikelihoods`] holds the region log-likelihoods of a set of rows under a fitted
//!   model, [`HybridValidParams::fit_on`] fits `θ` on those of the training rows, and
//!   [`Hybrid::decision_function_on`] and [`Hybrid::predict_log_proba_on`] evaluate a fitted
//!   hybrid on those of any rows.
//!
//! Every result is bit for bit the one of the ordinary path (`fit`, `decision_function`,
//! `predict_log_proba`): the same likelihoods enter the same arithmetic in the same order.

use ndarray::{Array1, Array2, Array3, ArrayView1, ArrayView2, Axis, CowArray};

use gendisc_core::validate::{check_labels, check_training_matrix, class_totals};
use gendisc_core::{Classifier, Error, FactorisedGenerative, Generative, ParamGuard, Result};
use gendisc_generative::LeaveOneOut;

use crate::features::{fill_contrasts, prior_contrasts, TrainingFeatures};
use crate::fit::check_two_classes;
use crate::model::Hybrid;
use crate::params::{check_regions, HybridParams, HybridValidParams, Intercept};

/// The region log-likelihoods `log p(x_i^r | y = k)` of a set of rows under one fitted
/// factorised generative model: for each region `r`, an `n × K` matrix.
///
/// Computed once, they serve every hybrid over that model and those regions: fit `θ` on the
/// training rows' with [`HybridValidParams::fit_on`], evaluate on other rows' with
/// [`Hybrid::decision_function_on`] or [`Hybrid::predict_log_proba_on`]. It borrows the
/// model, so that the hybrids can check that they were built on the same one.
///
/// ```
/// use gendisc_core::{ConditionalModel, Fit};
/// use gendisc_generative::GaussianNb;
/// use gendisc_hybrid::{Hybrid, Normalization, RegionLikelihoods};
/// use ndarray::array;
///
/// let x = array![
///     [1.2, 0.3, 0.8, -0.1], [0.9, -0.4, 0.2, 0.5], [1.6, 0.1, 0.9, 0.3], [0.4, 0.6, 0.1, -0.6],
///     [-1.1, 0.2, -0.7, 0.4], [-0.8, -0.5, -0.3, -0.2], [-1.5, 0.4, 0.2, 0.1], [0.3, -0.1, -0.9, 0.3],
/// ];
/// let y = array![0, 0, 0, 0, 1, 1, 1, 1];
/// let x_new = array![[1.0, 0.0, 0.5, 0.0], [-1.0, 0.2, -0.4, 0.1]];
/// let regions = vec![vec![0, 1], vec![2, 3]];
///
/// // One naive Bayes fit, its region log-likelihoods on the training and the new rows once.
/// let nb = GaussianNb::params().fit(x.view(), y.view())?;
/// let training = RegionLikelihoods::new(&nb, x.view(), &regions)?;
/// let new_rows = RegionLikelihoods::new(&nb, x_new.view(), &regions)?;
/// for normalization in [Normalization::Normalized, Normalization::Unnormalized] {
///     let params = Hybrid::params(GaussianNb::params())
///         .regions(regions.clone())
///         .normalization(normalization);
///     let hybrid = params.fit_on(&training, y.view())?;
///     // The same hybrid, bit for bit, as fitting from scratch.
///     assert_eq!(hybrid, params.fit(x.view(), y.view())?);
///     assert_eq!(
///         hybrid.decision_function_on(&new_rows)?,
///         hybrid.decision_function(x_new.view())?
///     );
/// }
/// # Ok::<(), gendisc_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct RegionLikelihoods<'m, M> {
    model: &'m M,
    regions: Vec<Vec<usize>>,
    log_likelihoods: Vec<Array2<f64>>,
}

impl<'m, M: FactorisedGenerative> RegionLikelihoods<'m, M> {
    /// `log p(x_i^r | y = k)` of every row of `x`, region and class under `model`.
    ///
    /// Fails like [`FactorisedGenerative::region_log_likelihood`]: on a shape mismatch, a NaN
    /// or infinite value, invalid regions (empty, out of range, repeated or overlapping).
    pub fn new(model: &'m M, x: ArrayView2<'_, f64>, regions: &[Vec<usize>]) -> Result<Self> {
        check_regions(regions, Some(model.n_features()))?;
        let log_likelihoods = regions
            .iter()
            .map(|region| model.region_log_likelihood(x, region))
            .collect::<Result<_>>()?;
        Ok(Self {
            model,
            regions: regions.to_vec(),
            log_likelihoods,
        })
    }

    /// The generative model the likelihoods are under.
    pub fn model(&self) -> &'m M {
        self.model
    }

    /// The regions, as feature indices.
    pub fn regions(&self) -> &[Vec<usize>] {
        &self.regions
    }

    /// The number of rows.
    pub fn n_rows(&self) -> usize {
        self.log_likelihoods.first().map_or(0, |ll| ll.nrows())
    }

    /// `log p(x_i^r | y = k)` of region `r`, `n × K`; `None` if there is no region `r`.
    pub fn region(&self, r: usize) -> Option<ArrayView2<'_, f64>> {
        self.log_likelihoods.get(r).map(|ll| ll.view())
    }
}

impl<G> HybridParams<G>
where
    G: LeaveOneOut,
    G::Model: FactorisedGenerative + PartialEq + Clone,
{
    /// Validates the parameters and builds the hybrid on a fitted generative model; see
    /// [`HybridValidParams::fit_from`].
    pub fn fit_from(
        &self,
        generative: &G::Model,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
    ) -> Result<Hybrid<G::Model>> {
        self.check_ref()?.fit_from(generative, x, y)
    }

    /// Validates the parameters and fits `θ` on precomputed training likelihoods; see
    /// [`HybridValidParams::fit_on`].
    pub fn fit_on(
        &self,
        training: &RegionLikelihoods<'_, G::Model>,
        y: ArrayView1<'_, usize>,
    ) -> Result<Hybrid<G::Model>> {
        self.check_ref()?.fit_on(training, y)
    }
}

impl<G> HybridValidParams<G>
where
    G: LeaveOneOut,
    G::Model: FactorisedGenerative + PartialEq + Clone,
{
    /// The hybrid over `generative`, a model these parameters' generative part fitted on
    /// `x`, `y`: the same hybrid as [`fit`](gendisc_core::Fit::fit)`(x, y)`, bit for bit,
    /// without refitting the generative model (except with leave-one-out, whose features need
    /// the fit's sufficient statistics: there the refit must give `generative` back).
    ///
    /// Fails on everything `fit` fails on; when `generative` has another number of features
    /// than `x` columns, or fewer classes than the labels need; and, with leave-one-out,
    /// when the refit is not `generative`.
    pub fn fit_from(
        &self,
        generative: &G::Model,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
    ) -> Result<Hybrid<G::Model>> {
        check_training_matrix(x)?;
        if generative.n_features() != x.ncols() {
            return Err(Error::shape_mismatch(
                "columns of x vs features of the generative model",
                generative.n_features(),
                x.ncols(),
            ));
        }
        if self.leave_one_out {
            let hybrid = self.fit_with(x, y, None, || Ok(generative.clone()))?;
            if hybrid.generative != *generative {
                return Err(Error::invalid_parameter(
                    "generative",
                    "with leave-one-out the generative model must be the one these parameters \
                     fit on the training rows, and it is not",
                ));
            }
            return Ok(hybrid);
        }
        let regions = self.regions_for(x.ncols());
        let training = RegionLikelihoods::new(generative, x, &regions)?;
        self.fit_on(&training, y)
    }

    /// `θ` fitted on the region log-likelihoods of the training rows under a fitted generative
    /// model, which becomes the hybrid's. With the model these parameters fit on those rows,
    /// this is the hybrid [`fit`](gendisc_core::Fit::fit) returns, bit for bit.
    ///
    /// The likelihoods' regions must be the parameters' (one region of every feature when
    /// none were set). Fails when they are not, when `y` does not have a label in
    /// `0..K` for every row or leaves a class without rows, with leave-one-out (its features
    /// are not likelihoods under one model: use [`fit_from`](Self::fit_from)), and on
    /// everything the fit of `θ` fails on.
    pub fn fit_on(
        &self,
        training: &RegionLikelihoods<'_, G::Model>,
        y: ArrayView1<'_, usize>,
    ) -> Result<Hybrid<G::Model>> {
        if self.leave_one_out {
            return Err(Error::invalid_parameter(
                "leave_one_out",
                "leave-one-out features cannot be computed from likelihoods under the full \
                 model: use fit_from",
            ));
        }
        let model = training.model();
        let regions = self.regions_for(model.n_features());
        if training.regions() != regions.as_slice() {
            return Err(Error::invalid_parameter(
                "regions",
                format!(
                    "the likelihoods are of regions {:?}, the parameters' are {regions:?}",
                    training.regions()
                ),
            ));
        }
        let n_classes = check_two_classes(model.n_classes())?;
        check_labels(y, training.n_rows(), n_classes)?;
        class_totals(y, None, n_classes)?;
        let scales = self.scales(&regions);
        let n = training.n_rows();
        let mut contrasts = Array3::zeros((n, regions.len(), n_classes - 1));
        for (r, &scale) in scales.iter().enumerate() {
            let ll = training.log_likelihoods[r].view();
            fill_contrasts(&mut contrasts, r, ll, scale, false)?;
        }
        let offsets = (self.intercept == Intercept::LogPriorRatio).then(|| {
            let log_prior = model.log_prior();
            prior_contrasts(log_prior.view().insert_axis(Axis(0)))
                .broadcast((n, n_classes - 1))
                .expect("one row broadcasts to n")
                .to_owned()
        });
        let features = TrainingFeatures { contrasts, offsets };
        self.fit_features(model.clone(), regions, &scales, &features, y, None)
    }
}

impl<M: FactorisedGenerative + PartialEq> Hybrid<M> {
    /// [`decision_function`](gendisc_core::ConditionalModel::decision_function) on the rows
    /// whose region log-likelihoods `rows` holds, bit for bit, without computing them again.
    ///
    /// Fails when `rows` is under another generative model or of other regions than the
    /// hybrid's, with [`Error::NotBinary`] for more than two classes, and where
    /// `decision_function` fails.
    pub fn decision_function_on(&self, rows: &RegionLikelihoods<'_, M>) -> Result<Array1<f64>> {
        if self.class_intercepts.len() != 2 {
            return Err(Error::NotBinary {
                what: "decision_function_on".into(),
                n_classes: self.class_intercepts.len(),
            });
        }
        self.check_shared(rows)?;
        let eta = self.scores_with(rows.n_rows(), |r| {
            Ok(CowArray::from(rows.log_likelihoods[r].view()))
        })?;
        self.log_odds(eta)
    }

    /// [`predict_log_proba`](gendisc_core::ConditionalModel::predict_log_proba) on the rows
    /// whose region log-likelihoods `rows` holds, bit for bit, without computing them again.
    ///
    /// Fails when `rows` is under another generative model or of other regions than the
    /// hybrid's, and where `predict_log_proba` fails.
    pub fn predict_log_proba_on(&self, rows: &RegionLikelihoods<'_, M>) -> Result<Array2<f64>> {
        self.check_shared(rows)?;
        let eta = self.scores_with(rows.n_rows(), |r| {
            Ok(CowArray::from(rows.log_likelihoods[r].view()))
        })?;
        self.normalise(eta)
    }

    fn check_shared(&self, rows: &RegionLikelihoods<'_, M>) -> Result<()> {
        if rows.regions() != self.regions.as_slice() {
            return Err(Error::invalid_parameter(
                "rows",
                format!(
                    "the likelihoods are of regions {:?}, the hybrid's are {:?}",
                    rows.regions(),
                    self.regions
                ),
            ));
        }
        if *rows.model() != self.generative {
            return Err(Error::invalid_parameter(
                "rows",
                "the likelihoods are under another generative model than the hybrid's",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gendisc_core::{ConditionalModel, Fit};
    use gendisc_generative::{BernoulliNb, GaussianNb};
    use ndarray::{array, s};

    fn data() -> (Array2<f64>, Array1<usize>) {
        (
            array![
                [1.2, 0.3, 0.8, -0.1],
                [0.9, -0.4, 0.2, 0.5],
                [1.6, 0.1, 0.9, 0.3],
                [0.4, 0.6, 0.1, -0.6],
                [-1.1, 0.2, -0.7, 0.4],
                [-0.8, -0.5, -0.3, -0.2],
                [-1.5, 0.4, 0.2, 0.1],
                [0.3, -0.1, -0.9, 0.3]
            ],
            array![0, 0, 0, 0, 1, 1, 1, 1],
        )
    }

    #[test]
    fn likelihoods_are_the_models_region_likelihoods() {
        let (x, y) = data();
        let nb = GaussianNb::params().fit(x.view(), y.view()).unwrap();
        let regions = vec![vec![0, 1], vec![3]];
        let rl = RegionLikelihoods::new(&nb, x.view(), &regions).unwrap();
        assert_eq!(rl.n_rows(), 8);
        assert_eq!(rl.regions(), regions.as_slice());
        assert_eq!(
            rl.region(1).unwrap(),
            nb.region_log_likelihood(x.view(), &[3]).unwrap()
        );
        assert!(rl.region(2).is_none());
    }

    #[test]
    fn bad_likelihoods_are_refused() {
        let (x, y) = data();
        let nb = GaussianNb::params().fit(x.view(), y.view()).unwrap();
        assert!(matches!(
            RegionLikelihoods::new(&nb, x.view(), &[vec![0, 4]]),
            Err(Error::InvalidParameter { .. })
        ));
        assert!(matches!(
            RegionLikelihoods::new(&nb, x.slice(s![.., ..3]), &[vec![0]]),
            Err(Error::ShapeMismatch { .. })
        ));
        let mut bad = x.clone();
        bad[[2, 1]] = f64::NAN;
        assert!(matches!(
            RegionLikelihoods::new(&nb, bad.view(), &[vec![0, 1]]),
            Err(Error::NonFinite { row: 2, .. })
        ));
    }

    #[test]
    fn fitting_on_shared_likelihoods_checks_what_it_is_given() {
        let (x, y) = data();
        let nb = GaussianNb::params().fit(x.view(), y.view()).unwrap();
        let regions = vec![vec![0, 1], vec![2, 3]];
        let rl = RegionLikelihoods::new(&nb, x.view(), &regions).unwrap();
        let params = Hybrid::params(GaussianNb::params()).regions(regions.clone());

        // Other regions than the parameters'.
        let other = Hybrid::params(GaussianNb::params()).regions(vec![vec![0, 1]]);
        assert!(matches!(
            other.fit_on(&rl, y.view()),
            Err(Error::InvalidParameter { name, .. }) if name == "regions"
        ));
        // Leave-one-out cannot be fitted on full-model likelihoods.
        assert!(matches!(
            params.clone().leave_one_out(true).fit_on(&rl, y.view()),
            Err(Error::InvalidParameter { name, .. }) if name == "leave_one_out"
        ));
        // Labels: length, range, an empty class.
        assert!(matches!(
            params.fit_on(&rl, y.slice(s![..7])),
            Err(Error::ShapeMismatch { .. })
        ));
        let mut y_bad = y.clone();
        y_bad[5] = 2;
        assert!(matches!(
            params.fit_on(&rl, y_bad.view()),
            Err(Error::LabelOutOfRange { row: 5, .. })
        ));
        assert!(matches!(
            params.fit_on(&rl, Array1::zeros(8).view()),
            Err(Error::EmptyClass { class: 1, .. })
        ));
        // A model with other features than x.
        assert!(matches!(
            params.fit_from(&nb, x.slice(s![.., ..3]), y.view()),
            Err(Error::ShapeMismatch { .. })
        ));
        // Leave-one-out from a model the parameters do not fit on these rows.
        let other_nb = GaussianNb::params()
            .fit(x.slice(s![1.., ..]), y.slice(s![1..]))
            .unwrap();
        assert!(matches!(
            params.clone().leave_one_out(true).fit_from(&other_nb, x.view(), y.view()),
            Err(Error::InvalidParameter { name, .. }) if name == "generative"
        ));
    }

    #[test]
    fn evaluating_on_shared_likelihoods_checks_the_model_and_regions() {
        let (x, y) = data();
        let nb = GaussianNb::params().fit(x.view(), y.view()).unwrap();
        let regions = vec![vec![0, 1], vec![2, 3]];
        let hybrid = Hybrid::params(GaussianNb::params())
            .regions(regions.clone())
            .fit(x.view(), y.view())
            .unwrap();
        let other_nb = GaussianNb::params()
            .fit(x.slice(s![1.., ..]), y.slice(s![1..]))
            .unwrap();
        let under_other = RegionLikelihoods::new(&other_nb, x.view(), &regions).unwrap();
        assert!(matches!(
            hybrid.decision_function_on(&under_other),
            Err(Error::InvalidParameter { .. })
        ));
        let other_regions = RegionLikelihoods::new(&nb, x.view(), &[vec![0, 1]]).unwrap();
        assert!(matches!(
            hybrid.predict_log_proba_on(&other_regions),
            Err(Error::InvalidParameter { .. })
        ));
    }

    #[test]
    fn multiclass_hybrids_have_no_shared_decision_function() {
        let (x, mut y) = data();
        y[7] = 2;
        y[3] = 2;
        let nb = BernoulliNb::params()
            .fit(x.mapv(|v| f64::from(u8::from(v > 0.0))).view(), y.view())
            .unwrap();
        let xb = x.mapv(|v| f64::from(u8::from(v > 0.0)));
        let rl = RegionLikelihoods::new(&nb, xb.view(), &[vec![0, 1, 2, 3]]).unwrap();
        let hybrid = Hybrid::params(BernoulliNb::params())
            .fit_on(&rl, y.view())
            .unwrap();
        assert!(matches!(
            hybrid.decision_function_on(&rl),
            Err(Error::NotBinary { .. })
        ));
        assert_eq!(
            hybrid.predict_log_proba_on(&rl).unwrap(),
            hybrid.predict_log_proba(xb.view()).unwrap()
        );
    }
}
