//! Fitting: the generative model on all rows, the region features (full-data or
//! leave-one-out), the aliased regions, then `θ` by the chosen solver.

use ndarray::{s, Array1, Array2, Array3, ArrayView1, ArrayView2, ShapeBuilder};

use gendisc_core::validate::check_training_matrix;
use gendisc_core::{Classifier, Error, FactorisedGenerative, Fit, FitWeighted, Generative, Result};
use gendisc_discriminative::logistic::{LogisticRegression, LogisticSolver};
use gendisc_generative::LeaveOneOut;
use gendisc_optim::{Objective, Status};

use crate::features::{aliased_regions, fill_contrasts, prior_contrasts, TrainingFeatures};
use crate::model::{region_scale, Hybrid, HybridReport};
use crate::multiclass::{self, MulticlassObjective};
use crate::params::{check_regions, HybridValidParams, Intercept, ThetaSolver};

/// The fitted weights: `μ_y` (length `K`), `θ_r` (length `R`), and the report.
pub(crate) struct FittedWeights {
    pub(crate) class_intercepts: Array1<f64>,
    pub(crate) region_weights: Array1<f64>,
    pub(crate) report: HybridReport,
}

impl<G> HybridValidParams<G>
where
    G: LeaveOneOut,
    G::Model: FactorisedGenerative,
{
    /// The whole fit; `fit_generative` fits the generative model on all rows (weighted or
    /// not) when leave-one-out is off.
    pub(crate) fn fit_with(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
        fit_generative: impl FnOnce() -> Result<G::Model>,
    ) -> Result<Hybrid<G::Model>> {
        check_training_matrix(x)?;
        let regions = self.regions_for(x.ncols());
        check_regions(&regions, Some(x.ncols()))?;
        let scales = self.scales(&regions);
        let fixed_intercept = self.intercept == Intercept::LogPriorRatio;
        let n = x.nrows();

        let (model, features) = if self.leave_one_out {
            let loo = self
                .generative
                .fit_leave_one_out(x, y, sample_weight, &regions)?;
            let n_classes = check_two_classes(loo.model.n_classes())?;
            let mut contrasts = Array3::zeros((n, regions.len(), n_classes - 1));
            for (r, &scale) in scales.iter().enumerate() {
                fill_contrasts(&mut contrasts, r, loo.region(r), scale, true)?;
            }
            let offsets = fixed_intercept.then(|| prior_contrasts(loo.log_prior.view()));
            (loo.model, TrainingFeatures { contrasts, offsets })
        } else {
            let model = fit_generative()?;
            let n_classes = check_two_classes(model.n_classes())?;
            let mut contrasts = Array3::zeros((n, regions.len(), n_classes - 1));
            for (r, (region, &scale)) in regions.iter().zip(&scales).enumerate() {
                let ll = model.region_log_likelihood(x, region)?;
                fill_contrasts(&mut contrasts, r, ll.view(), scale, false)?;
            }
            let offsets = fixed_intercept.then(|| {
                let log_prior = model.log_prior();
                prior_contrasts(log_prior.view().insert_axis(ndarray::Axis(0)))
                    .broadcast((n, n_classes - 1))
                    .expect("one row broadcasts to n")
                    .to_owned()
            });
            (model, TrainingFeatures { contrasts, offsets })
        };
        self.fit_features(model, regions, &scales, &features, y, sample_weight)
    }

    /// The regions, or one region of every one of `n_features` features when none were set.
    pub(crate) fn regions_for(&self, n_features: usize) -> Vec<Vec<usize>> {
        match &self.regions {
            Some(regions) => regions.clone(),
            None => vec![(0..n_features).collect()],
        }
    }

    /// `s_r` of every region.
    pub(crate) fn scales(&self, regions: &[Vec<usize>]) -> Vec<f64> {
        regions
            .iter()
            .map(|r| region_scale(self.normalization, r.len()))
            .collect()
    }

    /// The fit once the features are known: the aliased regions, then `θ`.
    pub(crate) fn fit_features(
        &self,
        model: G::Model,
        regions: Vec<Vec<usize>>,
        scales: &[f64],
        features: &TrainingFeatures,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Result<Hybrid<G::Model>> {
        let fixed_intercept = self.intercept == Intercept::LogPriorRatio;
        let n_classes = model.n_classes();
        let aliased = aliased_regions(features.contrasts.view(), sample_weight, !fixed_intercept);
        let active: Vec<usize> = (0..regions.len()).filter(|&r| !aliased[r]).collect();
        let solver = self.resolve_solver(n_classes)?;
        let mut fitted = match solver {
            ThetaSolver::Glm | ThetaSolver::Newton => {
                self.fit_logistic(solver, features, &active, y, sample_weight)?
            }
            _ => self.fit_multiclass(features, &active, scales, y, sample_weight)?,
        };
        if fixed_intercept {
            fitted.class_intercepts = model.log_prior();
        }
        fitted.report.aliased_regions = (0..regions.len()).filter(|&r| aliased[r]).collect();
        Ok(Hybrid {
            generative: model,
            regions,
            normalization: self.normalization,
            intercept: self.intercept,
            class_intercepts: fitted.class_intercepts,
            region_weights: fitted.region_weights,
            report: Some(fitted.report),
        })
    }

    /// [`ThetaSolver::Auto`] resolved for `n_classes`; logistic regression needs two classes.
    pub(crate) fn resolve_solver(&self, n_classes: usize) -> Result<ThetaSolver> {
        let binary_logistic = n_classes == 2 && self.intercept == Intercept::Discriminative;
        Ok(match self.solver {
            ThetaSolver::Auto if binary_logistic && self.prior_variance.is_none() => {
                ThetaSolver::Glm
            }
            ThetaSolver::Auto if binary_logistic => ThetaSolver::Newton,
            ThetaSolver::Auto => ThetaSolver::Multiclass,
            s @ (ThetaSolver::Glm | ThetaSolver::Newton) if n_classes != 2 => {
                return Err(Error::invalid_parameter(
                    "solver",
                    format!(
                        "{s:?} fits a logistic regression: two classes only, the data have \
                         {n_classes}; use Multiclass (or Auto)"
                    ),
                ))
            }
            s => s,
        })
    }

    /// `θ` by [`LogisticRegression`] of `y` on the active regions' `b`.
    pub(crate) fn fit_logistic(
        &self,
        solver: ThetaSolver,
        features: &TrainingFeatures,
        active: &[usize],
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Result<FittedWeights> {
        let n_regions = features.contrasts.dim().1;
        if active.is_empty() {
            return Ok(intercept_only(
                y,
                sample_weight,
                n_regions,
                solver,
                self.leave_one_out,
            ));
        }
        // Column-major, the layout logistic regression works in, so it is not copied again.
        let n = y.len();
        let mut b = Array2::zeros((n, active.len()).f());
        for (a, &r) in active.iter().enumerate() {
            b.column_mut(a)
                .assign(&features.contrasts.slice(s![.., r, 0]));
        }
        let mut params = LogisticRegression::params()
            .n_classes(2)
            .solver(match solver {
                ThetaSolver::Glm => LogisticSolver::GlmIrls,
                _ => LogisticSolver::Newton,
            });
        if let Some(v) = self.prior_variance {
            params = params.prior_variance(v);
        }
        if let Some(t) = self.tolerance {
            params = params.tolerance(t);
        }
        if let Some(m) = self.max_iterations {
            params = params.max_iterations(m);
        }
        params = params.require_convergence(self.require_convergence);
        let logistic = match sample_weight {
            Some(w) => params.fit_weighted(b.view(), y, w),
            None => params.fit(b.view(), y),
        }
        .map_err(|e| match e {
            Error::NotConverged {
                iterations, detail, ..
            } => not_converged(solver, iterations, detail),
            other => other,
        })?;
        let mut region_weights = Array1::zeros(n_regions);
        for (a, &r) in active.iter().enumerate() {
            region_weights[r] = logistic.coefficients()[[0, a]];
        }
        let fit = logistic.report();
        Ok(FittedWeights {
            class_intercepts: Array1::from(vec![0.0, logistic.intercept()[0]]),
            region_weights,
            report: HybridReport {
                solver,
                status: fit.status,
                iterations: fit.iterations,
                evaluations: fit.evaluations,
                criterion: fit.criterion,
                log_likelihood: fit.log_likelihood,
                gradient_norm: fit.gradient_norm,
                objective: fit.objective,
                separated: fit.separated,
                saturated: fit.saturated,
                aliased_regions: Vec::new(),
                leave_one_out: self.leave_one_out,
            },
        })
    }

    /// `(μ, θ)` of the multi-class form by Newton's method.
    pub(crate) fn fit_multiclass(
        &self,
        features: &TrainingFeatures,
        active: &[usize],
        scales: &[f64],
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Result<FittedWeights> {
        let (_, n_regions, n_contrasts) = features.contrasts.dim();
        let fit_intercepts = features.offsets.is_none();
        // Views are invariant in their lifetime: reborrow the data for the objective's.
        let (y, sample_weight) = (y.view(), sample_weight.as_ref().map(|w| w.view()));
        let objective = MulticlassObjective::new(
            features.contrasts.view(),
            active,
            features.offsets.as_ref().map(|o| o.view()),
            y,
            sample_weight,
            fit_intercepts,
            self.prior_variance,
        );
        let n_intercepts = if fit_intercepts { n_contrasts } else { 0 };
        let (beta, solved, separated) = if objective.dim() == 0 {
            // A fixed intercept and every region aliased: nothing is left to fit.
            (Array1::zeros(0), None, false)
        } else {
            // Start from the intercept-only fit (zero region weights, intercepts log(W_k/W_0)),
            // as logistic regression does, or from naive Bayes, which the hybrid generalises
            // (exponents λ_r = θ_r s_r = 1), whichever fits better: naive Bayes is usually
            // close to the optimum, but can be so overconfident that its Hessian is nearly
            // singular.
            let mut start = Array1::zeros(objective.dim());
            if fit_intercepts {
                let totals = class_totals(y, sample_weight, n_contrasts + 1);
                for k in 0..n_contrasts {
                    start[k] = (totals[k + 1] / totals[0]).ln();
                }
            }
            let mut naive_bayes = start.clone();
            for (a, &r) in active.iter().enumerate() {
                naive_bayes[n_intercepts + a] = 1.0 / scales[r];
            }
            // With fitted intercepts the intercept-only objective is −(1/W) Σ_k W_k log(W_k/W),
            // the entropy of the class totals: no pass over the rows is needed for it.
            let intercept_only = if fit_intercepts {
                let totals = class_totals(y, sample_weight, n_contrasts + 1);
                let total: f64 = totals.iter().sum();
                -totals.iter().map(|&t| t * (t / total).ln()).sum::<f64>() / total
            } else {
                objective.value(start.view())
            };
            if objective.value(naive_bayes.view()) < intercept_only {
                start = naive_bayes;
            }
            let solution = multiclass::fit(
                &objective,
                start.view(),
                self.tolerance,
                self.max_iterations,
            )?;
            if self.require_convergence && solution.report.status == Status::MaxIterations {
                return Err(not_converged(
                    ThetaSolver::Multiclass,
                    solution.report.iterations,
                    format!(
                        "the gradient norm of the mean objective was {:e}, above the tolerance \
                         {:e}; raise max_iterations or loosen the tolerance",
                        solution.gradient_norm(),
                        self.tolerance.unwrap_or(multiclass::DEFAULT_TOLERANCE)
                    ),
                ));
            }
            let separated = self.prior_variance.is_none()
                && multiclass::is_separated(&objective, solution.x.view());
            (solution.x, Some(solution.report), separated)
        };
        // μ_0 = 0 and the fitted μ_1 … μ_{K−1}; a fixed intercept is filled in by the caller.
        let mut class_intercepts = Array1::zeros(n_contrasts + 1);
        if fit_intercepts {
            class_intercepts
                .slice_mut(s![1..])
                .assign(&beta.slice(s![..n_intercepts]));
        }
        let mut region_weights = Array1::zeros(n_regions);
        for (a, &r) in active.iter().enumerate() {
            region_weights[r] = beta[n_intercepts + a];
        }
        Ok(FittedWeights {
            class_intercepts,
            region_weights,
            report: HybridReport {
                solver: ThetaSolver::Multiclass,
                status: solved.map_or(Status::Converged, |r| r.status),
                iterations: solved.map_or(0, |r| r.iterations),
                evaluations: solved.map_or(0, |r| r.evaluations),
                criterion: solved.map(|r| r.criterion),
                log_likelihood: objective.log_likelihood(beta.view()),
                gradient_norm: solved.and_then(|r| r.gradient_norm).unwrap_or(0.0),
                objective: solved.map(|r| r.value),
                separated,
                saturated: false,
                aliased_regions: Vec::new(),
                leave_one_out: self.leave_one_out,
            },
        })
    }
}

/// The error of a fit of `θ` that stopped at its iteration cap when convergence was required.
fn not_converged(solver: ThetaSolver, iterations: usize, detail: String) -> Error {
    Error::NotConverged {
        what: format!("the hybrid's region weights θ ({solver:?} solver)"),
        iterations,
        detail,
    }
}

/// The hybrid needs two classes at least.
pub(crate) fn check_two_classes(n_classes: usize) -> Result<usize> {
    if n_classes < 2 {
        return Err(Error::EmptyClass {
            class: 1,
            detail: Some("the hybrid needs two classes; the training set has one".into()),
        });
    }
    Ok(n_classes)
}

/// `W_k = Σ_{i: y_i = k} w_i`.
fn class_totals(
    y: ArrayView1<'_, usize>,
    sample_weight: Option<ArrayView1<'_, f64>>,
    n_classes: usize,
) -> Vec<f64> {
    let mut totals = vec![0.0; n_classes];
    for (i, &k) in y.iter().enumerate() {
        totals[k] += sample_weight.map_or(1.0, |w| w[i]);
    }
    totals
}

/// Two classes, every region aliased: the maximum-likelihood intercept is the log-odds of the
/// class totals, `θ_0 = log(W_1 / W_0)`, where the gradient is exactly zero.
fn intercept_only(
    y: ArrayView1<'_, usize>,
    sample_weight: Option<ArrayView1<'_, f64>>,
    n_regions: usize,
    solver: ThetaSolver,
    leave_one_out: bool,
) -> FittedWeights {
    let totals = class_totals(y, sample_weight, 2);
    let total = totals[0] + totals[1];
    let theta0 = (totals[1] / totals[0]).ln();
    let log_likelihood =
        totals[1] * (totals[1] / total).ln() + totals[0] * (totals[0] / total).ln();
    FittedWeights {
        class_intercepts: Array1::from(vec![0.0, theta0]),
        region_weights: Array1::zeros(n_regions),
        report: HybridReport {
            solver,
            status: Status::Converged,
            iterations: 0,
            evaluations: 0,
            criterion: None,
            log_likelihood,
            gradient_norm: 0.0,
            objective: None,
            separated: false,
            saturated: false,
            aliased_regions: Vec::new(),
            leave_one_out,
        },
    }
}

impl<G> Fit for HybridValidParams<G>
where
    G: LeaveOneOut,
    G::Model: FactorisedGenerative,
{
    type Model = Hybrid<G::Model>;

    /// Fits the generative model, the region features and then `θ`. The solver of `θ` may stop
    /// at its iteration cap: see [`HybridReport::status`] and
    /// [`HybridParams::require_convergence`](crate::HybridParams::require_convergence).
    fn fit(&self, x: ArrayView2<'_, f64>, y: ArrayView1<'_, usize>) -> Result<Self::Model> {
        self.fit_with(x, y, None, || self.generative.fit(x, y))
    }
}

impl<G> FitWeighted for HybridValidParams<G>
where
    G: LeaveOneOut + FitWeighted,
    G::Model: FactorisedGenerative,
{
    fn fit_weighted(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: ArrayView1<'_, f64>,
    ) -> Result<Self::Model> {
        self.fit_with(x, y, Some(sample_weight), || {
            self.generative.fit_weighted(x, y, sample_weight)
        })
    }
}
