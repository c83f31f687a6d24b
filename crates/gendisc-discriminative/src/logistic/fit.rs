//! Fitting: validation, the choice of solver, and the report.

use gendisc_core::validate::{check_labels, check_training_matrix, check_weights, class_totals};
use gendisc_core::{Error, Fit, FitWeighted, ParamGuard, Result};
use gendisc_optim::{
    newton_direction, ConjugateGradient, ConjugateGradientSettings, Criterion, Lbfgs,
    LbfgsSettings, Newton, NewtonSettings, Objective, Solution, Status, TwiceDifferentiable,
};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis, CowArray};
use sprs::CsMatView;

use super::design::{block, block_mut, is_column_major, Design, Features};
use super::glm::glm_irls;
use super::model::{FitReport, LogisticRegression};
use super::objective::{BinaryObjective, MultinomialObjective};
use super::params::{
    LogisticRegressionParams, LogisticRegressionValidParams, LogisticSolver,
    AUTO_NEWTON_MAX_COEFFICIENTS,
};
use super::separation::{is_recession_direction, separates_completely};
use super::sparse::as_csr;
use super::standardised::{InStandardisedCoordinates, Reference, StandardisedCoordinates};
use crate::classes::require_two_classes;
use gendisc_core::validate::check_sparse_training_matrix;

/// The recession-direction test of quasi-complete separation forms the Hessian: only up to
/// this many coefficients.
const SEPARATION_HESSIAN_MAX_COEFFICIENTS: usize = 1024;

/// What the fitting code needs from an objective besides value and derivatives.
trait LogisticObjective: TwiceDifferentiable {
    /// The linear predictors `η` (`n × m`) at `θ`.
    fn predictors(&self, theta: ArrayView1<'_, f64>) -> Array2<f64>;
    /// `Σ_i w_i ℓ_i(θ)`, minus the weighted log-likelihood.
    fn negative_log_likelihood_at(&self, theta: ArrayView1<'_, f64>) -> f64;
}

impl LogisticObjective for BinaryObjective<'_> {
    fn predictors(&self, theta: ArrayView1<'_, f64>) -> Array2<f64> {
        self.linear_predictor(theta).insert_axis(Axis(1))
    }
    fn negative_log_likelihood_at(&self, theta: ArrayView1<'_, f64>) -> f64 {
        self.negative_log_likelihood(theta)
    }
}

impl LogisticObjective for MultinomialObjective<'_> {
    fn predictors(&self, theta: ArrayView1<'_, f64>) -> Array2<f64> {
        self.linear_predictor(self.as_matrix(theta).view())
    }
    fn negative_log_likelihood_at(&self, theta: ArrayView1<'_, f64>) -> f64 {
        self.negative_log_likelihood(theta)
    }
}

/// The validated training problem.
struct Problem<'a> {
    design: Design<'a>,
    y: ArrayView1<'a, usize>,
    weights: Array1<f64>,
    n_classes: usize,
    class_totals: Vec<f64>,
}

impl LogisticRegressionValidParams {
    /// Fits on a sparse matrix (CSR, or CSC converted once) and classes `y ∈ 0..K`.
    pub fn fit_sparse(
        &self,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
    ) -> Result<LogisticRegression> {
        self.fit_sparse_inner(x, y, None)
    }

    /// Fits on a sparse matrix with sample weights.
    pub fn fit_sparse_weighted(
        &self,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: ArrayView1<'_, f64>,
    ) -> Result<LogisticRegression> {
        self.fit_sparse_inner(x, y, Some(sample_weight))
    }

    fn fit_sparse_inner(
        &self,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Result<LogisticRegression> {
        check_sparse_training_matrix(x)?;
        let x = as_csr(x);
        let design = Design::new(Features::Sparse(x.view()), self.fit_intercept);
        self.fit_design(design, y.view(), sample_weight)
    }

    fn fit_dense(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Result<LogisticRegression> {
        check_training_matrix(x)?;
        // Every solver sweeps the columns of X; one column-major copy makes those sweeps
        // contiguous for the whole fit.
        let columns = if is_column_major(x) {
            CowArray::from(x)
        } else {
            CowArray::from(x.t().as_standard_layout().into_owned().reversed_axes())
        };
        let design = Design::new(Features::Dense(columns.view()), self.fit_intercept);
        self.fit_design(design, y.view(), sample_weight)
    }

    fn validate<'a>(
        &self,
        design: Design<'a>,
        y: ArrayView1<'a, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Result<Problem<'a>> {
        let n = design.n_rows();
        if y.len() != n {
            return Err(Error::shape_mismatch(
                "length of y vs rows of x",
                n,
                y.len(),
            ));
        }
        require_two_classes(y, "logistic regression")?;
        let n_classes = match self.n_classes {
            Some(k) => k,
            None => y.iter().max().map_or(0, |&k| k + 1),
        };
        check_labels(y, n, n_classes)?;
        let weights = match sample_weight {
            Some(w) => {
                check_weights(w, n)?;
                w.to_owned()
            }
            None => Array1::ones(n),
        };
        let class_totals = class_totals(y, sample_weight, n_classes).map_err(|e| match e {
            Error::EmptyClass { class, .. } => Error::EmptyClass {
                class,
                detail: Some(
                    "logistic regression needs training rows of positive weight in every class"
                        .into(),
                ),
            },
            other => other,
        })?;
        if self.solver == LogisticSolver::GlmIrls && n_classes != 2 {
            return Err(Error::invalid_parameter(
                "solver",
                format!("GlmIrls fits the binomial family: two classes only, y has {n_classes}"),
            ));
        }
        Ok(Problem {
            design,
            y,
            weights,
            n_classes,
            class_totals,
        })
    }

    fn fit_design<'a>(
        &self,
        design: Design<'a>,
        y: ArrayView1<'a, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Result<LogisticRegression> {
        let problem = self.validate(design, y, sample_weight)?;
        let width = design.width();
        let d = design.n_features();

        // λ_j = 1/σ² on penalised coefficients, 0 elsewhere.
        let mut ridge = Array1::from_elem(width, self.prior_variance.map_or(0.0, |v| 1.0 / v));
        if self.fit_intercept && !self.penalize_intercept {
            ridge[d] = 0.0;
        }

        let predictors = if problem.n_classes == 2 {
            1
        } else {
            problem.n_classes
        };
        let n_coefficients = predictors * width;
        let solver = match self.solver {
            LogisticSolver::Auto if n_coefficients <= AUTO_NEWTON_MAX_COEFFICIENTS => {
                LogisticSolver::Newton
            }
            LogisticSolver::Auto => LogisticSolver::Lbfgs,
            other => other,
        };

        // Start from the intercept-only fit: log-odds of each class against class 0.
        let mut start = Array2::<f64>::zeros((predictors, width));
        if self.fit_intercept {
            let totals = &problem.class_totals;
            if predictors == 1 {
                start[[0, d]] = (totals[1] / totals[0]).ln();
            } else {
                for k in 1..predictors {
                    start[[k, d]] = (totals[k] / totals[0]).ln();
                }
            }
        }
        if let Some(warm) = &self.warm_start {
            start = self.warm_start_point(warm, predictors, d, &ridge)?;
        }
        let start = start
            .into_shape_with_order(n_coefficients)
            .expect("contiguous");

        let (design, y, weights) = (
            problem.design.reborrow(),
            problem.y.view(),
            problem.weights.view(),
        );
        let (theta, report) = if predictors == 1 {
            let objective = BinaryObjective::new(design, y, weights, ridge);
            self.solve(&objective, &problem, solver, start)?
        } else {
            let objective = MultinomialObjective::new(design, y, weights, problem.n_classes, ridge);
            self.solve(&objective, &problem, solver, start)?
        };

        let mut coefficients = Array2::zeros((predictors, d + 1));
        let fitted = theta
            .into_shape_with_order((predictors, width))
            .expect("contiguous");
        block_mut(coefficients.view_mut(), 0..predictors, 0..width).assign(&fitted);
        if predictors > 1
            && self.fit_intercept
            && self.prior_variance.is_some()
            && !self.penalize_intercept
        {
            // Symmetric parametrisation: the unpenalised intercepts are identified up to a
            // common constant only; fix it by making them sum to zero (scikit-learn's choice).
            let mean = coefficients.column(d).mean().expect("K ≥ 3");
            coefficients.column_mut(d).mapv_inplace(|b| b - mean);
        }
        Ok(LogisticRegression {
            theta: coefficients,
            n_classes: problem.n_classes,
            fit_intercept: self.fit_intercept,
            report,
        })
    }

    /// The starting point (`K′ × width`) from a warm start `[W | b]` (`K′ × (d + 1)`).
    ///
    /// For more than two classes, coefficients of class 0 that no penalty touches are pinned
    /// at zero (see `MultinomialObjective`); the softmax is unchanged when a column's value
    /// in class 0 is subtracted from every class, which moves the warm start onto the pinned
    /// parametrisation.
    fn warm_start_point(
        &self,
        warm: &Array2<f64>,
        predictors: usize,
        d: usize,
        ridge: &Array1<f64>,
    ) -> Result<Array2<f64>> {
        if warm.nrows() != predictors {
            return Err(Error::shape_mismatch(
                "warm_start: rows of the model's coefficients vs linear predictors of this fit",
                predictors,
                warm.nrows(),
            ));
        }
        if warm.ncols() != d + 1 {
            return Err(Error::shape_mismatch(
                "warm_start: features of the model vs columns of x",
                d,
                warm.ncols() - 1,
            ));
        }
        if let Some(((row, column), &value)) = warm.indexed_iter().find(|(_, v)| !v.is_finite()) {
            return Err(Error::NonFinite {
                what: "warm_start coefficients".into(),
                row,
                column,
                value,
            });
        }
        let width = d + usize::from(self.fit_intercept);
        let mut start = block(warm.view(), 0..predictors, 0..width).to_owned();
        if predictors > 1 {
            for j in (0..width).filter(|&j| ridge[j] == 0.0) {
                let shift = start[[0, j]];
                start.column_mut(j).mapv_inplace(|v| v - shift);
            }
        }
        Ok(start)
    }

    /// Runs `solver` and measures the result.
    fn solve<O: LogisticObjective>(
        &self,
        objective: &O,
        problem: &Problem<'_>,
        solver: LogisticSolver,
        start: Array1<f64>,
    ) -> Result<(Array1<f64>, FitReport)> {
        let tolerance = self.tolerance;
        let max_iterations = self.max_iterations;
        // The gradient at the solution, when the solver's report needed it: the separation
        // test below needs it again.
        let mut gradient_at_solution = None;
        let solution: Solution = match solver {
            // `Auto` has been resolved by the caller.
            LogisticSolver::Newton | LogisticSolver::Auto => {
                let settings = NewtonSettings {
                    gradient_tolerance: tolerance.unwrap_or(default_tolerance(solver)),
                    max_iterations: max_iterations.unwrap_or(100),
                    ..Default::default()
                };
                Newton::new(settings).minimize(objective, start.view())?
            }
            LogisticSolver::Lbfgs | LogisticSolver::ConjugateGradient => {
                let gradient_tolerance = tolerance.unwrap_or(default_tolerance(solver));
                let max_iterations = max_iterations.unwrap_or(10_000);
                let minimize = |objective: &dyn Objective, start: ArrayView1<'_, f64>| {
                    if solver == LogisticSolver::Lbfgs {
                        let settings = LbfgsSettings {
                            gradient_tolerance,
                            max_iterations,
                            ..Default::default()
                        };
                        Lbfgs::new(settings).minimize(objective, start)
                    } else {
                        let settings = ConjugateGradientSettings {
                            gradient_tolerance,
                            max_iterations,
                            ..Default::default()
                        };
                        ConjugateGradient::new(settings).minimize(objective, start)
                    }
                };
                match problem.design.features {
                    Features::Dense(x) => {
                        let predictors = objective.dim() / problem.design.width();
                        // What `MultinomialObjective` pins of class 0: its unpenalised coefficients.
                        let reference = match (predictors > 1, self.prior_variance) {
                            (false, _) => Reference::Nothing,
                            (true, None) => Reference::Class,
                            (true, Some(_)) if self.penalize_intercept => Reference::Nothing,
                            (true, Some(_)) => Reference::Intercept,
                        };
                        let total_weight = problem.weights.sum();
                        let coordinates = StandardisedCoordinates::of(
                            x,
                            problem.design.intercept,
                            predictors,
                            reference,
                            self.prior_variance
                                .map_or(0.0, |v| 1.0 / (v * total_weight)),
                        );
                        let standardised = InStandardisedCoordinates::new(objective, &coordinates);
                        let phi = coordinates.to_standardised(start.view());
                        let solution = minimize(&standardised, phi.view())?;
                        Solution {
                            x: coordinates.to_coefficients(solution.x.view()),
                            report: solution.report,
                        }
                    }
                    // Sparse features stay sparse: centring would fill them in.
                    Features::Sparse(_) => minimize(objective, start.view())?,
                }
            }
            LogisticSolver::GlmIrls => {
                let outcome = glm_irls(
                    problem.design,
                    problem.y,
                    problem.weights.view(),
                    tolerance.unwrap_or(default_tolerance(solver)),
                    max_iterations.unwrap_or(25),
                )?;
                let status = if outcome.converged {
                    Status::Converged
                } else if outcome.non_finite {
                    Status::NonFinite
                } else {
                    Status::MaxIterations
                };
                let gradient = objective.gradient(outcome.theta.view());
                let solution = Solution {
                    report: gendisc_optim::Report {
                        status,
                        criterion: Criterion::RelativeChange {
                            tolerance: tolerance.unwrap_or(default_tolerance(solver)),
                        },
                        iterations: outcome.iterations,
                        evaluations: outcome.iterations + 1,
                        value: objective.value(outcome.theta.view()),
                        gradient_norm: Some(gradient.dot(&gradient).sqrt()),
                    },
                    x: outcome.theta,
                };
                gradient_at_solution = Some(gradient);
                solution
            }
        };

        if self.require_convergence && solution.report.status == Status::MaxIterations {
            let tolerance = tolerance.unwrap_or(default_tolerance(solver));
            let detail = match solver {
                LogisticSolver::GlmIrls => format!(
                    "glm's relative change in deviance was still above the tolerance \
                     {tolerance:e}; raise max_iterations"
                ),
                _ => format!(
                    "the gradient norm of the mean objective was {:e}, above the tolerance \
                     {tolerance:e}; raise max_iterations or loosen the tolerance",
                    solution.gradient_norm()
                ),
            };
            return Err(Error::NotConverged {
                what: format!("logistic regression ({solver:?} solver)"),
                iterations: solution.report.iterations,
                detail,
            });
        }
        let gradient_norm = solution.gradient_norm();
        let theta = solution.x;
        let negative_log_likelihood = objective.negative_log_likelihood_at(theta.view());
        let eta = objective.predictors(theta.view());
        let separated = self.prior_variance.is_none()
            && self.is_separated(objective, problem, &theta, eta.view(), gradient_at_solution);
        let saturated = is_saturated(eta.view(), problem.weights.view(), solver);
        let report = FitReport {
            solver,
            status: solution.report.status,
            iterations: solution.report.iterations,
            evaluations: solution.report.evaluations,
            criterion: Some(solution.report.criterion),
            deviance: 2.0 * negative_log_likelihood,
            log_likelihood: -negative_log_likelihood,
            gradient_norm,
            objective: Some(solution.report.value),
            separated,
            saturated,
        };
        Ok((theta, report))
    }

    /// The two separation certificates of [`super::separation`], given the fitted linear
    /// predictors `eta` at `theta` and, if already computed, the objective's gradient there.
    fn is_separated<O: LogisticObjective>(
        &self,
        objective: &O,
        problem: &Problem<'_>,
        theta: &Array1<f64>,
        eta: ArrayView2<'_, f64>,
        gradient: Option<Array1<f64>>,
    ) -> bool {
        let weights = problem.weights.view();
        if separates_completely(eta, problem.y, weights) {
            return true;
        }
        let n = objective.dim();
        if n > SEPARATION_HESSIAN_MAX_COEFFICIENTS {
            return false;
        }
        let mut hessian = Array2::zeros((n, n));
        objective.hessian(theta.view(), hessian.view_mut());
        let gradient = gradient.unwrap_or_else(|| objective.gradient(theta.view()));
        let direction =
            newton_direction(hessian.view(), gradient.view(), &NewtonSettings::default()).step;
        let direction = direction
            .into_shape_with_order((eta.ncols(), problem.design.width()))
            .expect("contiguous");
        is_recession_direction(&problem.design, direction.view(), problem.y, weights)
    }
}

/// The tolerance of `solver` when none is set (see the table of [`LogisticSolver`]).
fn default_tolerance(solver: LogisticSolver) -> f64 {
    match solver {
        LogisticSolver::Newton | LogisticSolver::Auto => 1e-10,
        LogisticSolver::GlmIrls => 1e-8,
        LogisticSolver::Lbfgs | LogisticSolver::ConjugateGradient => 1e-7,
    }
}

/// R's glm warning condition, "fitted probabilities numerically 0 or 1 occurred": a binary
/// model's fitted `μ` within `10 ε` of 0 or 1 on a row of positive weight. On the exact
/// logistic link that is `|η| > logit(1 − 10 ε)`; on glm's clamped link (`GlmIrls`) every
/// `|η| > 30` maps to `μ = 1/(1 + ε)` or `ε/(1 + ε)`, which already qualifies.
fn is_saturated(
    predictors: ArrayView2<'_, f64>,
    weights: ArrayView1<'_, f64>,
    solver: LogisticSolver,
) -> bool {
    if predictors.ncols() != 1 {
        return false;
    }
    let threshold = if solver == LogisticSolver::GlmIrls {
        30.0
    } else {
        let tiny = 10.0 * f64::EPSILON;
        ((1.0 - tiny) / tiny).ln()
    };
    predictors
        .column(0)
        .iter()
        .zip(weights.iter())
        .any(|(&eta, &w)| w > 0.0 && eta.abs() > threshold)
}

impl Fit for LogisticRegressionValidParams {
    type Model = LogisticRegression;

    /// Fits on a dense matrix `x` (`n × d`) and classes `y ∈ 0..K`, with at least two classes
    /// present ([`Error::TooFewClasses`] otherwise). The solver may stop at its iteration cap:
    /// see [`FitReport::status`] and [`LogisticRegressionParams::require_convergence`].
    fn fit(&self, x: ArrayView2<'_, f64>, y: ArrayView1<'_, usize>) -> Result<LogisticRegression> {
        self.fit_dense(x, y, None)
    }
}

impl FitWeighted for LogisticRegressionValidParams {
    fn fit_weighted(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: ArrayView1<'_, f64>,
    ) -> Result<LogisticRegression> {
        self.fit_dense(x, y, Some(sample_weight))
    }
}

impl LogisticRegressionParams {
    /// Validates the parameters and fits on a sparse matrix (CSR, or CSC converted once).
    pub fn fit_sparse(
        &self,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
    ) -> Result<LogisticRegression> {
        self.check_ref()?.fit_sparse(x, y)
    }

    /// Validates the parameters and fits on a sparse matrix with sample weights.
    pub fn fit_sparse_weighted(
        &self,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: ArrayView1<'_, f64>,
    ) -> Result<LogisticRegression> {
        self.check_ref()?.fit_sparse_weighted(x, y, sample_weight)
    }
}
