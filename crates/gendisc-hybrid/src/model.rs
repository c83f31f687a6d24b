//! The fitted hybrid, its posterior and its fit report.

use ndarray::{s, Array1, Array2, ArrayView1, ArrayView2, Axis, CowArray, Ix2};
use serde::{Deserialize, Serialize};

use gendisc_core::numerics::{normalise_log_weights, power_of_two_scale, unscale_shifted};
use gendisc_core::validate::check_finite_vector;
use gendisc_core::{
    Classifier, ConditionalModel, Convergence, Error, FactorisedGenerative, Fit, Result,
};
use gendisc_discriminative::logistic::recorded_run;
use gendisc_optim::{Criterion, Report, Status};

use crate::params::{check_regions, HybridParams, Intercept, Normalization, ThetaSolver};

/// How the fit of `θ` went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HybridReport {
    /// The solver that ran ([`ThetaSolver::Auto`] resolved).
    pub solver: ThetaSolver,
    /// Why the solver stopped. On separated data the solver may well meet its criterion at
    /// weights on their way to infinity: the fit's own status, [`Convergence::status`], is
    /// then [`Status::NoFiniteMinimiser`] (see [`separated`](Self::separated)); ask it whether
    /// the fit converged.
    pub status: Status,
    /// Iterations of the solver (Newton steps, or glm's IRLS iterations); 0 when nothing was
    /// left to fit (every region aliased and the intercept closed-form or fixed).
    pub iterations: usize,
    /// Evaluations of the objective (0 when nothing was left to fit, and in files written
    /// before they were counted).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub evaluations: usize,
    /// The stopping criterion the solver was judged by (`None` when nothing was left to fit,
    /// and in files written before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub criterion: Option<Criterion>,
    /// The weighted conditional log-likelihood `Σ_i w_i log p_θ(y_i | x_i)` of the training
    /// set at the fitted `θ`, on the features the fit saw (leave-one-out ones with
    /// [`leave_one_out`](Self::leave_one_out)), without the prior.
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub log_likelihood: f64,
    /// `‖∇f‖₂` of the mean penalised negative log-likelihood at the fitted `θ`.
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub gradient_norm: f64,
    /// The mean penalised negative log-likelihood at the fitted `θ`: the objective the solver
    /// minimised (`None` when nothing was left to fit, and in files written before it was
    /// recorded).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "gendisc_core::model_file::non_finite::option"
    )]
    pub objective: Option<f64>,
    /// The features separate the classes (completely or quasi-completely), so that the
    /// unpenalised estimate does not exist and the returned `θ` is where the solver stopped:
    /// fit with a prior ([`HybridParams::prior_variance`]) for a finite estimate. Always
    /// `false` with a prior.
    pub separated: bool,
    /// For θ fitted by logistic regression (glm or Newton): some training row's fitted
    /// probability is within `10 ε` of 0 or 1, the condition of R's glm warning "fitted
    /// probabilities numerically 0 or 1 occurred" — see
    /// [`FitReport::saturated`](gendisc_discriminative::logistic::FitReport::saturated). It also
    /// catches glm fits that diverged without a separation certificate. `false` for the
    /// multi-class form.
    pub saturated: bool,
    /// Regions whose features are linearly dependent on the intercept(s) and the regions
    /// before them (e.g. a region whose log-likelihood ratio is the same for every training
    /// row). Their weight is `θ_r = 0`, as R's `glm` reports `NA` for aliased coefficients.
    pub aliased_regions: Vec<usize>,
    /// Whether `θ` was fitted on leave-one-out features (Raina et al. eq. (11)).
    pub leave_one_out: bool,
}

/// Files written before evaluations were counted have none; writing them back adds none.
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Convergence for HybridReport {
    fn status(&self) -> Status {
        if self.separated {
            Status::NoFiniteMinimiser
        } else {
            self.status
        }
    }

    /// The run of `θ`'s solver ([`recorded_run`]); none when nothing was left to fit.
    fn solver_reports(&self) -> Vec<Report> {
        if self.iterations == 0 && self.criterion.is_none() {
            return Vec::new();
        }
        vec![recorded_run(
            self.solver == ThetaSolver::Glm,
            self.status,
            self.criterion,
            (self.iterations, self.evaluations),
            self.objective,
            self.gradient_norm,
        )]
    }
}

/// A fitted hybrid generative/discriminative classifier (Raina, Shen, Ng & McCallum 2003),
/// over a factorised generative model `M`.
///
/// With regions `x¹ … x^R`, scales `s_r` (`1/n_r` normalized, 1 unnormalized), region weights
/// `θ_r` and class terms `μ_y`, its posterior is
///
/// ```text
/// p(y | x) ∝ exp(μ_y) Π_r p(x^r | y)^{θ_r s_r}
/// ```
///
/// (Raina et al. eq. (7); the multi-class form of Fujino et al. 2007 with `λ_r = θ_r s_r`).
/// For two classes the log-odds are `θ_0 + Σ_r θ_r b_r(x)` with `θ_0 = μ_1 − μ_0` (eq. (9)). The
/// generative model is the one fitted on all training rows, also when `θ` was fitted on
/// leave-one-out features. The posterior is the model's own, not Bayes' rule on `M`.
///
/// A class whose region likelihood is zero at `x` (possible without smoothing) has
/// probability zero if its weight is positive; if no class is possible, or the weights make the
/// posterior undefined, prediction fails with an [`Error::Numerical`] naming the row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hybrid<M> {
    pub(crate) generative: M,
    pub(crate) regions: Vec<Vec<usize>>,
    pub(crate) normalization: Normalization,
    pub(crate) intercept: Intercept,
    /// `μ_y`, length `K`.
    pub(crate) class_intercepts: Array1<f64>,
    /// `θ_r`, length `R`.
    pub(crate) region_weights: Array1<f64>,
    pub(crate) report: Option<HybridReport>,
}

impl<M> Hybrid<M> {
    /// The hyper-parameters of a hybrid over the generative model that `generative` fits:
    /// `Hybrid::params(GaussianNb::params()).regions(…).fit(x, y)`.
    pub fn params<G: Fit<Model = M>>(generative: G) -> HybridParams<G> {
        HybridParams::new(generative)
    }

    /// The generative model (fitted on every training row).
    pub fn generative(&self) -> &M {
        &self.generative
    }

    /// The regions, as feature indices.
    pub fn regions(&self) -> &[Vec<usize>] {
        &self.regions
    }

    /// Normalized or unnormalized.
    pub fn normalization(&self) -> Normalization {
        self.normalization
    }

    /// How the intercept was set.
    pub fn intercept(&self) -> Intercept {
        self.intercept
    }

    /// `μ_y` for every class: `μ_0 = 0` and the fitted `μ_1 … μ_{K−1}` with a fitted intercept,
    /// `log p(y)` with a fixed one.
    pub fn class_intercepts(&self) -> ArrayView1<'_, f64> {
        self.class_intercepts.view()
    }

    /// The region weights `θ_1 … θ_R` (0 for aliased regions).
    pub fn region_weights(&self) -> ArrayView1<'_, f64> {
        self.region_weights.view()
    }

    /// The exponents `λ_r = θ_r s_r` of `p(x^r | y)` (Fujino et al.'s Lagrange multipliers;
    /// Xue & Titterington §2.4: `λ_r = θ_r / h_r` when normalized).
    pub fn exponents(&self) -> Array1<f64> {
        Array1::from_iter(
            self.region_weights
                .iter()
                .zip(&self.regions)
                .map(|(&theta, region)| theta * region_scale(self.normalization, region.len())),
        )
    }

    /// For two classes, Raina et al.'s `θ = (θ_0, θ_1, …, θ_R)` of eq. (9), with
    /// `θ_0 = μ_1 − μ_0`. Fails with [`Error::NotBinary`] otherwise.
    pub fn theta(&self) -> Result<Array1<f64>> {
        if self.class_intercepts.len() != 2 {
            return Err(Error::NotBinary {
                what: "theta".into(),
                n_classes: self.class_intercepts.len(),
            });
        }
        let mut theta = Array1::zeros(self.region_weights.len() + 1);
        theta[0] = self.class_intercepts[1] - self.class_intercepts[0];
        theta.slice_mut(s![1..]).assign(&self.region_weights);
        Ok(theta)
    }

    /// How the fit of `θ` went; `None` for a model assembled with
    /// [`from_parts`](Self::from_parts).
    pub fn report(&self) -> Option<&HybridReport> {
        self.report.as_ref()
    }

    /// The same classifier written in the other normalization: each `θ_r` rescaled by
    /// `s_r / s'_r` so that every exponent `λ_r = θ_r s_r` — and so the posterior — is
    /// unchanged; the report is this model's.
    ///
    /// A dense region's scale is a constant, so the two normalizations' features differ by one
    /// constant factor per column, and an unpenalised logistic likelihood is invariant under
    /// that reparametrisation: the unpenalised fit of `θ` in one normalization is the other's,
    /// rescaled. So this derives the other normalization's fit without fitting it (up to the
    /// solver's rounding and stopping point; bit for bit where every `n_r` is a power of two,
    /// which floating-point scaling leaves exact). It does not hold with a prior on `θ`
    /// ([`HybridParams::prior_variance`]), whose penalty is not invariant, nor for the sparse
    /// text hybrid, whose scale is each document's word count.
    pub fn with_normalization(&self, normalization: Normalization) -> Self
    where
        M: Clone,
    {
        let region_weights = Array1::from_iter(self.region_weights.iter().zip(&self.regions).map(
            |(&theta, region)| {
                theta * region_scale(self.normalization, region.len())
                    / region_scale(normalization, region.len())
            },
        ));
        Self {
            normalization,
            region_weights,
            ..self.clone()
        }
    }
}

/// `s_r`: `1/n_r` normalized, 1 unnormalized.
pub(crate) fn region_scale(normalization: Normalization, n_features: usize) -> f64 {
    match normalization {
        Normalization::Normalized => 1.0 / n_features as f64,
        Normalization::Unnormalized => 1.0,
    }
}

impl<M: FactorisedGenerative> Hybrid<M> {
    /// Assembles a hybrid from a fitted generative model and given weights, without fitting:
    /// `class_intercepts` are the `μ_y` (length `K`), `region_weights` the `θ_r` (length `R`).
    /// The intercept mode is recorded as [`Intercept::Discriminative`] (the `μ_y` are taken as
    /// given).
    ///
    /// With `μ_y = log p(y)` and `θ_r = n_r` (normalized) or `1` (unnormalized), and regions
    /// that partition the features, this is the naive Bayes classifier `generative`.
    pub fn from_parts(
        generative: M,
        regions: Vec<Vec<usize>>,
        normalization: Normalization,
        class_intercepts: Array1<f64>,
        region_weights: Array1<f64>,
    ) -> Result<Self> {
        check_regions(&regions, Some(generative.n_features()))?;
        if class_intercepts.len() != generative.n_classes() {
            return Err(Error::shape_mismatch(
                "length of class_intercepts vs classes of the generative model",
                generative.n_classes(),
                class_intercepts.len(),
            ));
        }
        if region_weights.len() != regions.len() {
            return Err(Error::shape_mismatch(
                "length of region_weights vs number of regions",
                regions.len(),
                region_weights.len(),
            ));
        }
        check_finite_vector(class_intercepts.view(), "class_intercepts")?;
        check_finite_vector(region_weights.view(), "region_weights")?;
        Ok(Self {
            generative,
            regions,
            normalization,
            intercept: Intercept::Discriminative,
            class_intercepts,
            region_weights,
            report: None,
        })
    }

    /// The unnormalised log-posterior `η_ik = μ_k + Σ_r θ_r s_r log p(x_i^r | y = k)`, `n × K`.
    /// Regions of weight zero contribute nothing (`p⁰ = 1`, even where `p = 0`).
    fn scores(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        self.scores_with(x.nrows(), |r| {
            Ok(CowArray::from(
                self.generative.region_log_likelihood(x, &self.regions[r])?,
            ))
        })
    }

    /// [`scores`](Self::scores) of `n` rows from their region log-likelihoods,
    /// `log_likelihood(r)` (`n × K`), asked for only for regions of non-zero weight.
    ///
    /// The scores are linear in the region log-likelihoods, `η_ik = c_k + Σ_r e_r ℓ_rik`. A row
    /// whose log-likelihoods are finite but whose scores overflow (weights or log-likelihoods
    /// near `10³⁰⁸`) is recomputed in a scaled domain, as logistic regression's are: with powers
    /// of two `s ≈ max|ℓ_rik|` and `t ≈ max(|c_k|, |e_r|)`, `η' = c/(t s) + Σ_r (e_r/t)(ℓ_r/s)`
    /// is finite, and the row becomes `s t (η' − max η')`, the scores shifted by a constant: 0
    /// for the most probable class, finite or `−∞` for the others.
    pub(crate) fn scores_with<'a>(
        &self,
        n: usize,
        mut log_likelihood: impl FnMut(usize) -> Result<CowArray<'a, f64, Ix2>>,
    ) -> Result<Array2<f64>> {
        let k = self.class_intercepts.len();
        // Every row `0 + c_k` (the sum ndarray's broadcast `+=` onto zeros took), copied row
        // after row rather than broadcast.
        let intercepts: Vec<f64> = self.class_intercepts.iter().map(|&c| 0.0 + c).collect();
        let mut eta = Array2::from_shape_vec((n, k), intercepts.repeat(n)).expect("n × K");
        let weighted: Vec<(usize, f64)> = self
            .regions
            .iter()
            .zip(&self.region_weights)
            .enumerate()
            .filter(|&(_, (_, &theta))| theta != 0.0)
            .map(|(r, (region, &theta))| {
                (r, theta * region_scale(self.normalization, region.len()))
            })
            .collect();
        for &(r, exponent) in &weighted {
            let ll = log_likelihood(r)?;
            eta.scaled_add(exponent, &ll);
        }
        // One pass over the whole (contiguous) array first: rows are looked at one by one only
        // when some entry is not finite.
        if eta.iter().all(|v| v.is_finite()) {
            return Ok(eta);
        }
        let suspects: Vec<usize> = (0..n)
            .filter(|&i| !eta.row(i).iter().all(|v| v.is_finite()))
            .collect();
        // Rare: the log-likelihoods are asked for again, for the rows that need them.
        let mut kept: Vec<Array2<f64>> = Vec::with_capacity(weighted.len());
        for &(r, _) in &weighted {
            kept.push(log_likelihood(r)?.select(Axis(0), &suspects));
        }
        let overflowing: Vec<(usize, usize)> = suspects
            .iter()
            .enumerate()
            .filter(|&(j, _)| {
                kept.iter()
                    .all(|ll| ll.row(j).iter().all(|v| v.is_finite()))
            })
            .map(|(j, &i)| (j, i))
            .collect();
        let t = power_of_two_scale(
            weighted
                .iter()
                .map(|&(_, e)| e.abs())
                .chain(self.class_intercepts.iter().map(|c| c.abs()))
                .fold(1.0, f64::max),
        );
        for (j, i) in overflowing {
            let s = power_of_two_scale(
                kept.iter()
                    .flat_map(|ll| ll.row(j).to_vec())
                    .fold(1.0_f64, |m, v| m.max(v.abs())),
            );
            let mut scaled: Vec<f64> = self.class_intercepts.iter().map(|c| c / t / s).collect();
            for (ll, &(_, e)) in kept.iter().zip(&weighted) {
                for (out, &l) in scaled.iter_mut().zip(ll.row(j)) {
                    *out += (e / t) * (l / s);
                }
            }
            unscale_shifted(&scaled, s, t, eta.row_mut(i));
        }
        Ok(eta)
    }

    /// The log-posterior from the scores, row by row; a class with score `+∞` (a zero
    /// likelihood raised to a negative power) is certain when it is the only one.
    pub(crate) fn normalise(&self, eta: Array2<f64>) -> Result<Array2<f64>> {
        gendisc_core::log_posterior_from_scores(eta, POSTERIOR)
    }

    /// Two classes: the log-odds `η_i1 − η_i0` from the scores; a row where they are
    /// undefined fails as its posterior does.
    pub(crate) fn log_odds(&self, eta: Array2<f64>) -> Result<Array1<f64>> {
        let log_odds = &eta.column(1) - &eta.column(0);
        if !log_odds.iter().any(|v| v.is_nan()) {
            return Ok(log_odds);
        }
        eta.axis_iter(Axis(0))
            .enumerate()
            .map(|(i, row)| {
                let log_odds = row[1] - row[0];
                if log_odds.is_nan() {
                    // Both classes impossible, both certain, or an undefined region term.
                    let mut row = row.to_owned();
                    normalise_log_weights(row.view_mut()).map_err(|reason| Error::Numerical {
                        what: POSTERIOR.into(),
                        detail: format!("row {i}: {reason}"),
                    })?;
                }
                Ok(log_odds)
            })
            .collect()
    }
}

/// What a failed normalisation of the hybrid's scores names.
pub(crate) const POSTERIOR: &str = "posterior of the hybrid";

impl<M: FactorisedGenerative> Classifier for Hybrid<M> {
    fn n_features(&self) -> usize {
        self.generative.n_features()
    }

    fn n_classes(&self) -> usize {
        self.class_intercepts.len()
    }

    /// The most probable class; ties go to the lowest class.
    fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Array1<usize>> {
        let log_proba = self.predict_log_proba(x)?;
        gendisc_core::argmax_rows(log_proba.view(), "posterior of the hybrid")
    }
}

impl<M: FactorisedGenerative> ConditionalModel for Hybrid<M> {
    fn predict_log_proba(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        let eta = self.scores(x)?;
        self.normalise(eta)
    }

    /// For two classes, the log-odds `θ_0 + Σ_r θ_r b_r(x)` (Raina et al. eq. (9)).
    fn decision_function(&self, x: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        if self.class_intercepts.len() != 2 {
            return Err(Error::NotBinary {
                what: "decision_function".into(),
                n_classes: self.class_intercepts.len(),
            });
        }
        let eta = self.scores(x)?;
        self.log_odds(eta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn region_weights_near_the_largest_double_still_give_posteriors() {
        use gendisc_generative::GaussianNb;
        let x = ndarray::array![[0.1, 1.0], [0.3, 0.7], [1.2, -0.4], [0.9, -0.9], [0.5, 0.2]];
        let y = ndarray::array![0, 0, 1, 1, 0];
        let mut hybrid = Hybrid::params(GaussianNb::params())
            .regions(vec![vec![0], vec![1]])
            .prior_variance(1.0)
            .fit(x.view(), y.view())
            .unwrap();
        for weights in [[1e308, -1e308], [f64::MAX, f64::MAX], [-1e308, 3.0]] {
            hybrid.region_weights = Array1::from(weights.to_vec());
            let p = hybrid.predict_proba(x.view()).unwrap();
            for row in p.rows() {
                assert!(
                    row.iter().all(|v| v.is_finite() && *v >= 0.0),
                    "{weights:?}: {p}"
                );
                assert!((row.sum() - 1.0).abs() <= 1e-12, "{weights:?}: {p}");
            }
            let classes = hybrid.predict(x.view()).unwrap();
            let decision = hybrid.decision_function(x.view()).unwrap();
            for (c, f) in classes.iter().zip(&decision) {
                assert_eq!(*c, usize::from(*f > 0.0), "{weights:?}: {decision}");
            }
        }
    }

    #[test]
    fn rows_normalise_or_fail_by_name() {
        let scores = array![
            [1.0, 2.0],
            [1.0, f64::INFINITY],
            [1e20, 1e20],
            [f64::NAN, 0.0]
        ];
        let good = gendisc_core::log_posterior_from_scores(
            scores.slice(s![..3, ..]).to_owned(),
            POSTERIOR,
        )
        .unwrap();
        assert_eq!(good.row(1).to_vec(), vec![f64::NEG_INFINITY, 0.0]);
        assert_eq!(good.row(2).to_vec(), vec![-(2f64.ln()); 2]);
        let bad = gendisc_core::log_posterior_from_scores(scores, POSTERIOR).unwrap_err();
        assert!(bad.to_string().contains("row 3"), "{bad}");
    }
}
