//! The fitted GDT model, its fit report, and the fit itself: generative start, then nonlinear
//! conjugate gradient on `−L_λ` (eq. 7).

use std::sync::OnceLock;

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, CowArray, Ix2};
use serde::{Deserialize, Serialize};

use gendisc_core::linalg::{cholesky, inverse_spd};
use gendisc_core::model_file::invariants;
use gendisc_core::validate::{check_labels, check_training_matrix, check_weights, class_totals};
use gendisc_core::{
    Classifier, Convergence, Error, Fit, FitSummary, FitWeighted, Generative, Result, SavedModel,
};
use gendisc_generative::{Balls2Report, ClassPriors, CovarianceShrinkage};
use gendisc_optim::{Method, Minimizer, Objective, Solution, Status, TwiceDifferentiable};

use crate::discriminative_end::{fit_induced, InducedFit};

use crate::existence::{
    balls2_component_separation, balls2_separation, induced_dim, overlap_at_optimum,
    separation_along, separation_by, ComponentSeparation, Programs, Separation,
};
use crate::family::{check_variance_floor, Family, Parametrisation, Priors};
use crate::objective::{CountingIndefinite, GdtObjective};
use crate::params::{GdtParams, GdtValidParams};
use crate::shrinkage::PrecisionPrior;
use crate::whitening::{minimize_whitened, PooledMoments};

/// How a GDT fit ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GdtReport {
    /// The `λ` of the fit.
    pub lambda: f64,
    /// Why the optimiser stopped: [`Status::Converged`] when the gradient criterion holds
    /// (also for the closed-form `λ = 1` fit), [`Status::NoFiniteMinimiser`] at `λ = 0` where
    /// a certificate proves that no maximiser exists (see [`separation`](Self::separation) and
    /// [`component_separation`](Self::component_separation)). The fit's own status, which
    /// also speaks for the generative start at `λ = 1`, is [`Convergence::status`].
    pub status: Status,
    /// Iterations of the optimiser (0 at `λ = 1`, where the generative fit is returned as it
    /// is, and where a [`separation`](Self::separation) certificate ended the fit before it
    /// began).
    pub iterations: usize,
    /// Evaluations of the objective (0 in files written before they were counted).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub evaluations: usize,
    /// `−L_λ(θ̂) / S` at the returned parameters (`S` the total sample weight).
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub objective: f64,
    /// `‖∇(−L_λ / S)‖₂` at the returned parameters.
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub gradient_norm: f64,
    /// The gradient tolerance of the criterion `‖∇f‖ ≤ tol · max(1, |f|)` the optimiser
    /// stopped on (`None` at `λ = 1` and in files written before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gradient_tolerance: Option<f64>,
    /// Whether the generative fit that started the optimisation converged (always true but for
    /// Balls2, whose EM may stop at its iteration cap).
    pub start_converged: bool,
    /// With a Newton method, the iterations at which the Hessian of `−L_λ` was not positive
    /// definite, so that the step was damped beyond Newton's; 0 for the other solvers.
    #[serde(default)]
    pub indefinite_hessians: usize,
    /// At `λ = 0` on rows separated in the family's induced features, the certificate that no
    /// finite maximiser exists ([`crate::existence`]); the returned parameters are then the
    /// starting point, not an estimate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub separation: Option<Separation>,
    /// For Balls2 without a variance floor at `λ = 0`, the certificate found where the
    /// optimiser stopped that no finite maximiser exists: at the returned parameters every
    /// training row is nearer to its own class's sharpest component than to any other's, so
    /// that sharpening the components raises `L_disc` towards its supremum
    /// ([`crate::existence`]). The parameters are then a point on that ray, not an estimate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub component_separation: Option<ComponentSeparation>,
}

/// Files written before evaluations were counted have none; writing them back adds none.
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The optimiser's status — at `λ = 1`, where the estimator is the generative fit itself, that
/// fit's: [`MaxIterations`](Status::MaxIterations) when Balls2's EM stopped at its cap. At
/// `λ < 1` a fit that met the gradient criterion has converged to a stationary point of `L_λ`
/// whatever its start; a start whose EM stopped at its cap is a warning of the
/// [summary](GdtReport::summary) (and an error with
/// [`require_convergence`](crate::GdtParams::require_convergence)), not a status.
impl Convergence for GdtReport {
    fn status(&self) -> Status {
        if self.lambda == 1.0 && !self.start_converged {
            Status::MaxIterations
        } else {
            self.status
        }
    }

    /// The optimiser's run on `−L_λ / S`; none at `λ = 1`, where the generative fit is the
    /// estimate (the generative model's own report gives its EM runs). A NaN tolerance where
    /// the file predates its recording.
    fn solver_reports(&self) -> Vec<gendisc_optim::Report> {
        if self.lambda == 1.0 {
            return Vec::new();
        }
        vec![gendisc_optim::Report {
            status: self.status,
            criterion: gendisc_optim::Criterion::new(self.gradient_tolerance.unwrap_or(f64::NAN)),
            iterations: self.iterations,
            evaluations: self.evaluations,
            value: self.objective,
            gradient_norm: Some(self.gradient_norm),
        }]
    }
}

impl GdtReport {
    /// True when the fit proved that no finite maximiser exists (at `λ = 0` on separated
    /// rows; see [`separation`](Self::separation) and
    /// [`component_separation`](Self::component_separation)).
    pub fn has_no_maximiser(&self) -> bool {
        self.status == Status::NoFiniteMinimiser
    }

    /// The report as a model file records it.
    pub fn summary(&self) -> FitSummary {
        let status = match (&self.separation, &self.component_separation) {
            (_, Some(c)) => format!(
                "{} at λ = {} after {} iterations: at the parameters reached, each of the {} \
                 training rows is nearer to its own class's sharpest component than to any \
                 other class's (smallest relative gap {:.3e}), so sharpening every component \
                 raises the conditional likelihood towards its supremum, which no finite \
                 parameters attain; the parameters are a point on that ray (objective \
                 {:.6e})",
                self.status,
                self.lambda,
                self.iterations,
                c.rows,
                c.smallest_relative_gap,
                self.objective
            ),
            (Some(s), None) => format!(
                "{} at λ = {}: the training rows are {}separated in the {} induced features \
                 ({} of {} margins grow along the certificate), so the conditional likelihood \
                 has no finite maximiser; the parameters are the starting point",
                self.status,
                self.lambda,
                if s.complete { "completely " } else { "" },
                match s.sub_family {
                    Some(sub) => format!("sub-family {sub}'s"),
                    None => "family's".to_owned(),
                },
                s.strict_margins,
                s.margins
            ),
            (None, None) => format!(
                "{} at λ = {} after {} iterations: gradient norm {:.3e}, objective {:.6e}",
                self.status(),
                self.lambda,
                self.iterations,
                self.gradient_norm,
                self.objective
            ),
        };
        let mut warnings = Vec::new();
        if !self.start_converged {
            warnings
                .push("the generative start (Balls2's EM) stopped at its iteration cap".to_owned());
        }
        FitSummary {
            converged: self.is_converged(),
            iterations: self.iterations,
            status,
            warnings,
        }
    }
}

/// A fitted GDT classifier: the parameters `θ̂_λ` of a generative family (eq. 7) and how the
/// fit ended. Classification is by the posterior of eq. (1).
///
/// It implements [`Classifier`], [`Generative`] (the fitted joint `p_θ̂(x, y)`) and
/// [`ConditionalModel`](gendisc_core::ConditionalModel).
///
/// Serialised as its layout, `θ` and report; `θ` is re-validated (length, finiteness, a valid
/// layout) on deserialisation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "GdtParts")]
pub struct Gdt {
    param: Parametrisation,
    theta: Array1<f64>,
    report: GdtReport,
    /// The model's unit: `θ` parametrises the density of `x / scale`.
    #[serde(default = "unit_scale", skip_serializing_if = "is_unit_scale")]
    scale: f64,
}

/// The scale of a model fitted in the data's own units (and of models saved before scales).
fn unit_scale() -> f64 {
    1.0
}

fn is_unit_scale(scale: &f64) -> bool {
    *scale == 1.0
}

/// The serialised form of [`Gdt`], validated into one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GdtParts {
    param: Parametrisation,
    theta: Array1<f64>,
    report: GdtReport,
    #[serde(default = "unit_scale")]
    scale: f64,
}

impl TryFrom<GdtParts> for Gdt {
    type Error = Error;

    fn try_from(p: GdtParts) -> Result<Self> {
        // The layout validated itself on deserialisation.
        check_gdt_parts(Gdt::KIND, "", &p.param, p.theta.view(), &p.report, p.scale)?;
        Ok(Self {
            param: p.param,
            theta: p.theta,
            report: p.report,
            scale: p.scale,
        })
    }
}

/// The invariants of a fitted [`Gdt`], checked both when one is deserialised and by
/// [`SavedModel::check_invariants`]; errors are [`Error::InvalidModel`]s of `kind` naming the
/// field as `prefix` followed by its path in the serialised model.
///
/// Priors and variances need no check of their own: `θ` holds softmax logits and log-scales,
/// so every finite `θ` of the family's length decodes to normalised priors and positive
/// variances.
pub(crate) fn check_gdt_parts(
    kind: &str,
    prefix: &str,
    param: &Parametrisation,
    theta: ArrayView1<'_, f64>,
    report: &GdtReport,
    scale: f64,
) -> Result<()> {
    let field = |name: &str| format!("{prefix}{name}");
    check_variance_floor(param.family(), param.variance_floor())
        .map_err(|e| invariants::invalid(kind, &field("param.variance_floor"), e.to_string()))?;
    if theta.len() != param.dim() {
        return Err(invariants::invalid(
            kind,
            &field("theta"),
            format!(
                "{} parameters, but {} with {} classes, {} features and {:?} priors has {}",
                theta.len(),
                param.family(),
                param.n_classes(),
                param.n_features(),
                param.priors(),
                param.dim()
            ),
        ));
    }
    invariants::finite(kind, &field("theta"), &theta)?;
    // A subnormal unit has no finite reciprocal precision: every ordinary row would overflow.
    if !(scale.is_finite() && scale >= f64::MIN_POSITIVE) {
        return Err(invariants::invalid(
            kind,
            &field("scale"),
            format!("the model's unit must be a finite positive normal number, got {scale}"),
        ));
    }
    check_posteriors_in_unit(param, theta)
        .map_err(|reason| invariants::invalid(kind, &field("theta"), reason))?;
    if !(0.0..=1.0).contains(&report.lambda) {
        return Err(invariants::invalid(
            kind,
            &field("report.lambda"),
            format!("λ must lie in [0, 1], got {}", report.lambda),
        ));
    }
    Ok(())
}

/// A fitted model has a posterior everywhere in its unit box (the training rows lie in it): at
/// its centre and at the `2d` points `±e_j` (in the model's unit) the joint of some class is
/// finite. A `θ` whose decoded precisions or means overflow (entries near `10³⁰⁰`) fails here,
/// so that such a file is refused at loading rather than at every prediction.
fn check_posteriors_in_unit(
    param: &Parametrisation,
    theta: ArrayView1<'_, f64>,
) -> std::result::Result<(), String> {
    let d = param.n_features();
    let probes = Array2::from_shape_fn((2 * d + 1, d), |(i, j)| match i {
        0 => 0.0,
        i if (i - 1) / 2 == j => {
            if i % 2 == 1 {
                1.0
            } else {
                -1.0
            }
        }
        _ => 0.0,
    });
    let mut joint = Array2::zeros((probes.nrows(), param.n_classes()));
    param.class_log_density_into(theta, probes.view(), &mut joint, None);
    joint += &param.log_prior(theta).insert_axis(ndarray::Axis(0));
    for (row, probe) in joint.outer_iter().zip(probes.outer_iter()) {
        let defined = row.iter().all(|v| !v.is_nan() && *v != f64::INFINITY)
            && row.iter().any(|v| v.is_finite());
        if !defined {
            return Err(format!(
                "the model has no posterior at {probe} (in its unit; joint log-densities {row}): \
                 its parameters overflow"
            ));
        }
    }
    Ok(())
}

impl SavedModel for Gdt {
    const KIND: &'static str = "gdt";

    /// Checks that `θ` has the length of the model's family, classes, features and priors and
    /// is finite, that the unit [`scale`](Gdt::scale) is a positive normal number, that the
    /// model has a posterior at the centre and the axis points of its unit box (`θ` does not
    /// overflow when decoded), that `λ` lies in `[0, 1]` and that a variance floor belongs to
    /// Balls2 (the checks deserialisation makes).
    fn check_invariants(&self) -> Result<()> {
        check_gdt_parts(
            Self::KIND,
            "",
            &self.param,
            self.theta.view(),
            &self.report,
            self.scale,
        )
    }

    fn fit_summary(&self) -> Option<FitSummary> {
        let mut summary = self.report.summary();
        summary.warnings.extend(self.balls2_warning());
        Some(summary)
    }
}

impl Gdt {
    /// What a Balls2 fit that stopped short of the criterion means for its estimate, where
    /// the family's own mathematics explains it: at `λ = 0` no certificate decides whether a
    /// maximiser exists, and between the ends without a variance floor `L_gen` is unbounded
    /// (`docs/bouchard-triggs.md`, "Balls2").
    fn balls2_warning(&self) -> Option<String> {
        let report = &self.report;
        if self.param.family() != Family::Balls2
            || report.lambda == 1.0
            || report.has_no_maximiser()
            || report.is_converged()
        {
            return None;
        }
        if report.lambda == 0.0 {
            Some(
                "Balls2 at λ = 0: no certificate decides whether a mixture's conditional \
                 likelihood has a finite maximiser, and a fit that stops short may be following \
                 a supremum approached as the parameters diverge: the parameters need not be an \
                 estimate"
                    .to_owned(),
            )
        } else if self.param.variance_floor() == 0.0 {
            Some(
                "Balls2 without a variance floor: the joint likelihood is unbounded (a component \
                 can shrink onto one row), and the fit may be following such a spike; a variance \
                 floor bounds it"
                    .to_owned(),
            )
        } else {
            None
        }
    }

    /// The default hyper-parameters for `family`, to be adjusted and fitted.
    ///
    /// ```
    /// use gendisc_core::{Classifier, Convergence, Fit};
    /// use gendisc_gdt::{Family, Gdt};
    /// use ndarray::array;
    ///
    /// let x = array![[0.0, 0.2], [0.4, -0.1], [-0.3, 0.5], [-0.1, -0.4],
    ///                [2.0, 1.8], [1.6, 2.3], [2.4, 2.1], [1.9, 1.5]];
    /// let y = array![0, 0, 0, 0, 1, 1, 1, 1];
    /// let model = Gdt::params(Family::Balls1).lambda(0.5).fit(x.view(), y.view())?;
    /// assert!(model.report().is_converged());
    /// assert_eq!(model.predict(x.view())?, y);
    /// # Ok::<(), gendisc_core::Error>(())
    /// ```
    pub fn params(family: Family) -> GdtParams {
        GdtParams::new(family)
    }

    /// The family.
    pub fn family(&self) -> Family {
        self.param.family()
    }

    /// The layout of `θ`.
    pub fn parametrisation(&self) -> &Parametrisation {
        &self.param
    }

    /// The fitted unconstrained parameters `θ̂` (layout in [`crate::family`]) of the density of
    /// `x / s`, `s` the model's [`scale`](Self::scale).
    pub fn theta(&self) -> ArrayView1<'_, f64> {
        self.theta.view()
    }

    /// The unit `s` the model was fitted in: the largest magnitude of its training rows (1 if
    /// they are all zero). GDT fits the density of `x / s` and adds the Jacobian `−d ln s` to
    /// its log-densities, so that the fit does not depend on the units of the data: on `c·X` it
    /// runs the optimiser on the same numbers as on `X` (up to one rounding) and stops at the
    /// same point, and data of magnitude `10³⁰⁰` has squares it can form.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// The `λ` of the fit.
    pub fn lambda(&self) -> f64 {
        self.report.lambda
    }

    /// How the fit ended.
    pub fn report(&self) -> &GdtReport {
        &self.report
    }

    /// For LDA and the shared diagonal, the linear discriminants `(β, b)` with
    /// `log p(x, k) = β_kᵀ x + b_k + c(x)` in the data's units
    /// ([`Parametrisation::linear_coefficients`], with `β` divided by the
    /// [`scale`](Self::scale)); `None` for the other families.
    pub fn linear_coefficients(&self) -> Option<(Array2<f64>, Array1<f64>)> {
        // θ was validated when the model was built.
        let (beta, intercept) = self
            .param
            .linear_coefficients(self.theta.view())
            .ok()
            .flatten()?;
        Some((beta / self.scale, intercept))
    }
}

impl Gdt {
    /// For Balls2, the fitted component variances `σ²_km` (`K × 2`) in the data's units, each
    /// at least the [variance floor](crate::GdtParams::variance_floor) when one was set
    /// ([`Parametrisation::balls2_variances`], times the [`scale`](Self::scale) squared);
    /// `None` for the other families.
    pub fn balls2_variances(&self) -> Option<Array2<f64>> {
        // θ was validated when the model was built.
        let variances = self
            .param
            .balls2_variances(self.theta.view())
            .ok()
            .flatten()?;
        Some(variances * (self.scale * self.scale))
    }
}

impl Classifier for Gdt {
    fn n_features(&self) -> usize {
        self.param.n_features()
    }

    fn n_classes(&self) -> usize {
        self.param.n_classes()
    }

    fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Array1<usize>> {
        gendisc_core::bayes_predict(self, x)
    }
}

impl Generative for Gdt {
    fn log_prior(&self) -> Array1<f64> {
        self.param.log_prior(self.theta.view())
    }

    fn class_log_likelihood(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        gendisc_core::validate::check_prediction_matrix(x, self.param.n_features())?;
        let mut out = Array2::zeros((x.nrows(), self.param.n_classes()));
        if self.scale == 1.0 {
            self.param
                .class_log_density_into(self.theta.view(), x, &mut out, None);
            return Ok(out);
        }
        let scaled = x.mapv(|v| v / self.scale);
        self.param
            .class_log_density_into(self.theta.view(), scaled.view(), &mut out, None);
        let jacobian = x.ncols() as f64 * self.scale.ln();
        out.mapv_inplace(|v| v - jacobian);
        Ok(out)
    }
}

gendisc_core::impl_conditional_model_by_bayes!(Gdt);

/// A validated training set.
pub(crate) struct TrainingSet<'a> {
    /// The training rows divided by `scale`.
    pub x: CowArray<'a, f64, Ix2>,
    pub y: ArrayView1<'a, usize>,
    pub w: Option<ArrayView1<'a, f64>>,
    pub param: Parametrisation,
    /// The largest magnitude of the training rows (1 if all are zero): the unit of the model.
    pub scale: f64,
    /// The log-prior on the precisions that the shrinkage adds to `L_gen` (LDA and QDA with
    /// [`GdtParams::shrinkage`](crate::GdtParams::shrinkage)).
    pub prior: Option<PrecisionPrior>,
    /// The training rows as given, for a generative start regularised in the data's units.
    pub unscaled: ArrayView2<'a, f64>,
    /// The within-class moments of `x`, computed when first asked for.
    pub moments: OnceLock<PooledMoments>,
}

impl<'a> TrainingSet<'a> {
    pub(crate) fn new(
        p: &GdtValidParams,
        x: ArrayView2<'a, f64>,
        y: ArrayView1<'a, usize>,
        w: Option<ArrayView1<'a, f64>>,
    ) -> Result<Self> {
        check_training_matrix(x)?;
        let n_classes = match p.n_classes {
            Some(k) => k,
            None => y.iter().max().map_or(0, |m| m + 1).max(2),
        };
        check_labels(y, x.nrows(), n_classes)?;
        if let Some(w) = w {
            check_weights(w, x.nrows())?;
        }
        class_totals(y, w, n_classes).map_err(|e| match e {
            Error::EmptyClass { class, .. } => Error::EmptyClass {
                class,
                detail: Some(format!("GDT {} needs every class", p.family)),
            },
            other => other,
        })?;
        let scale = x.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        let scale = if scale > 0.0 { scale } else { 1.0 };
        let unscaled = x;
        let x = if scale == 1.0 {
            CowArray::from(x)
        } else {
            CowArray::from(x.mapv(|v| v / scale))
        };
        let mut param =
            Parametrisation::new(p.family, n_classes, x.ncols())?.with_priors(p.priors());
        if p.variance_floor > 0.0 {
            param = param.with_variance_floor(p.variance_floor * data_scale(x.view(), w))?;
        }
        let mut set = Self {
            x,
            y,
            w,
            param,
            scale,
            prior: None,
            unscaled,
            moments: OnceLock::new(),
        };
        set.prior = PrecisionPrior::new(&set.param, p.shrinkage, scale, || set.moments())?;
        Ok(set)
    }

    /// The within-class moments of the rows (in the model's unit), computed once.
    pub(crate) fn moments(&self) -> &PooledMoments {
        self.moments.get_or_init(|| {
            PooledMoments::of(self.x.view(), self.y, self.w, self.param.n_classes())
        })
    }
}

/// The scale of relative variance floors: the largest weighted maximum-likelihood column
/// variance `max_j Var(x_j)`, or 1 if every column is constant (the rule of
/// `gendisc-generative`'s `var_smoothing`).
fn data_scale(x: ArrayView2<'_, f64>, w: Option<ArrayView1<'_, f64>>) -> f64 {
    let weight = |i: usize| w.map_or(1.0, |w| w[i]);
    let total: f64 = (0..x.nrows()).map(weight).sum();
    let max_variance = x
        .columns()
        .into_iter()
        .map(|col| {
            let mean = col
                .iter()
                .enumerate()
                .map(|(i, v)| weight(i) * v)
                .sum::<f64>()
                / total;
            col.iter()
                .enumerate()
                .map(|(i, v)| weight(i) * (v - mean) * (v - mean))
                .sum::<f64>()
                / total
        })
        .fold(0.0, f64::max);
    if max_variance > 0.0 {
        max_variance
    } else {
        1.0
    }
}

/// Fits a generative model with or without sample weights.
pub(crate) fn fit_maybe_weighted<P: FitWeighted>(
    params: P,
    t: &TrainingSet<'_>,
) -> Result<<P as Fit>::Model> {
    match t.w {
        Some(w) => params.fit_weighted(t.x.view(), t.y, w),
        None => params.fit(t.x.view(), t.y),
    }
}

/// The lower Cholesky factor of the precision `Σ⁻¹`.
pub(crate) fn precision_factor(covariance: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
    cholesky(inverse_spd(covariance)?.view())
}

/// The class priors of the generative start: the class-conditional fits do not depend on them,
/// and fixed priors are not encoded.
pub(crate) fn class_priors_of(t: &TrainingSet<'_>) -> ClassPriors {
    match t.param.priors() {
        Priors::Fixed => ClassPriors::Uniform,
        Priors::Estimated => ClassPriors::Empirical,
    }
}

/// Fits LDA or QDA for the generative start, and the factor `s` its means (and `s²` its
/// covariances) must be divided by to be in the model's unit: shrinkage toward the identity
/// means the identity of the data's units, so that fit runs on the rows as given (`s` the
/// model's scale); every other fit runs on the scaled rows (`s = 1`), where the scaled identity
/// is the same.
pub(crate) fn fit_in_regularised_units<P: FitWeighted>(
    params: P,
    shrinkage: CovarianceShrinkage,
    t: &TrainingSet<'_>,
) -> Result<(<P as Fit>::Model, f64)> {
    if !matches!(shrinkage, CovarianceShrinkage::Identity(_)) {
        return Ok((fit_maybe_weighted(params, t)?, 1.0));
    }
    let model = match t.w {
        Some(w) => params.fit_weighted(t.unscaled, t.y, w),
        None => params.fit(t.unscaled, t.y),
    }?;
    Ok((model, t.scale))
}

/// `a / divisor`, without a copy when the divisor is 1.
pub(crate) fn in_model_unit<D: ndarray::Dimension>(
    a: CowArray<'_, f64, D>,
    divisor: f64,
) -> CowArray<'_, f64, D> {
    if divisor == 1.0 {
        a
    } else {
        CowArray::from(a.mapv(|v| v / divisor))
    }
}

/// With [`GdtParams::require_convergence`](crate::GdtParams::require_convergence): EM of
/// Balls2's generative start stopped at its cap for some class.
pub(crate) fn require_em_converged(report: &Balls2Report, max_iterations: usize) -> Result<()> {
    match report
        .classes
        .iter()
        .enumerate()
        .find(|(_, c)| !c.converged)
    {
        None => Ok(()),
        Some((class, em)) => {
            let change = match em.log_likelihood.as_slice() {
                [.., before, last] => format!("last log-likelihood change {:.3e}", last - before),
                _ => "no log-likelihood change recorded".to_owned(),
            };
            Err(Error::NotConverged {
                what: format!("EM of GDT's Balls2 generative start (class {class})"),
                iterations: em.iterations,
                detail: format!("stopped at its cap of {max_iterations} iterations; {change}"),
            })
        }
    }
}

/// With [`GdtParams::require_convergence`](crate::GdtParams::require_convergence): the fit
/// reported by `report` met its convergence criterion, and so did the generative start it
/// began from.
fn require_converged<'t>(
    p: &GdtValidParams,
    t: &'t TrainingSet<'t>,
    report: &GdtReport,
) -> Result<()> {
    let what = || {
        let solver = p.solver.for_problem(&GdtObjective::new(t, p.lambda)).name();
        format!("GDT {} at λ = {} ({solver})", p.family, report.lambda)
    };
    if report.has_no_maximiser() {
        return Err(Error::NotConverged {
            what: what(),
            iterations: report.iterations,
            detail: format!(
                "no finite maximiser exists: {} (the fit's report carries the certificate); \
                 choose λ > 0",
                if report.component_separation.is_some() {
                    "at the parameters reached every training row is nearer to its own \
                     class's sharpest Balls2 component than to any other class's"
                } else {
                    "the training rows are separated in the family's induced features"
                }
            ),
        });
    }
    if !report.status.is_converged() {
        return Err(Error::NotConverged {
            what: what(),
            iterations: report.iterations,
            detail: format!(
                "{}; last gradient norm {:.3e}, objective {:.6e}",
                report.status, report.gradient_norm, report.objective
            ),
        });
    }
    if !report.start_converged {
        return Err(Error::NotConverged {
            what: what(),
            iterations: report.iterations,
            detail: format!(
                "the optimiser converged (gradient norm {:.3e}), but from a warm start whose \
                 generative fit (Balls2's EM) stopped at its iteration cap",
                report.gradient_norm
            ),
        });
    }
    Ok(())
}

/// Maximises `L_λ` from `start` (the generative fit or a warm start); with
/// `require_convergence`, a fit that stops without converging is an error — unless it proved
/// that no finite maximiser exists and `no_maximiser` says to return such a fit (cross-validation,
/// which leaves its `λ` out rather than score it).
pub(crate) fn optimise<'t>(
    p: &GdtValidParams,
    t: &'t TrainingSet<'t>,
    start: ArrayView1<'_, f64>,
    start_converged: bool,
    no_maximiser: NoMaximiser,
) -> Result<Gdt> {
    let model = optimise_unchecked(p, t, start, start_converged)?;
    let returned = no_maximiser == NoMaximiser::Returned && model.report.has_no_maximiser();
    if p.require_convergence && !returned {
        require_converged(p, t, &model.report)?;
    }
    Ok(model)
}

/// What [`GdtParams::require_convergence`](crate::GdtParams::require_convergence) makes of a
/// fit that proved that no finite maximiser exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NoMaximiser {
    /// An error, as any fit that did not converge.
    Error,
    /// The fit, with its certificate: the caller does not use it as an estimate.
    Returned,
}

fn optimise_unchecked<'t>(
    p: &GdtValidParams,
    t: &'t TrainingSet<'t>,
    start: ArrayView1<'_, f64>,
    start_converged: bool,
) -> Result<Gdt> {
    let objective = GdtObjective::new(t, p.lambda);
    let at_start = |status, gradient_tolerance, separation| {
        let gradient = objective.gradient(start);
        GdtReport {
            lambda: p.lambda,
            status,
            iterations: 0,
            evaluations: 1,
            objective: objective.value(start),
            gradient_norm: gradient.dot(&gradient).sqrt(),
            gradient_tolerance,
            start_converged,
            indefinite_hessians: 0,
            separation,
            component_separation: None,
        }
    };
    if p.lambda == 1.0 {
        // L_1 = L_gen, whose maximiser is the generative fit itself (eq. 2): return it as it
        // is, so that λ = 1 reproduces the generative classifier exactly.
        return Ok(Gdt {
            param: t.param,
            theta: start.to_owned(),
            report: at_start(Status::Converged, None, None),
            scale: t.scale,
        });
    }
    if p.lambda > 0.0 {
        require_bounded_generative_part(t)?;
    }
    // Only the Newton methods ask for Hessians, and so count indefinite ones.
    let counted = CountingIndefinite::new(&objective);
    let method = p.solver.for_problem(&counted);
    let gradient_tolerance = Some(method.gradient_tolerance(t.param.dim()));
    // At λ = 0: a certificate decides whether a maximiser exists; where it does, it is found
    // in the induced coefficients and mapped back (a convex problem where θ is flat). Balls2
    // has a certificate only where a sub-family proves that no maximiser exists.
    let mut from = start.to_owned();
    let mut induced: Option<Solution> = None;
    if p.lambda == 0.0 && p.certify_discriminative_end {
        match decide_at_zero(p, t, start)? {
            AtZero::NoMaximiser(certificate) => {
                return Ok(Gdt {
                    param: t.param,
                    theta: start.to_owned(),
                    report: at_start(
                        Status::NoFiniteMinimiser,
                        gradient_tolerance,
                        Some(certificate),
                    ),
                    scale: t.scale,
                });
            }
            AtZero::Maximiser(Some((theta, solution))) => {
                from = theta;
                induced = Some(solution);
            }
            AtZero::Maximiser(None) => {}
        }
    }
    let mut solution = run_solver(p, t, &counted, &method, from.view())?;
    let gradient_tolerance = Some(solution.report.criterion.tolerance());
    if let Some(induced) = induced {
        solution.report.iterations += induced.report.iterations;
        solution.report.evaluations += induced.report.evaluations;
    }
    let gradient_norm = solution.gradient_norm();
    let component_separation = (p.lambda == 0.0 && p.certify_discriminative_end)
        .then(|| certificate_where_stopped(t, solution.x.view()))
        .flatten();
    let status = if component_separation.is_some() {
        Status::NoFiniteMinimiser
    } else {
        solution.report.status
    };
    Ok(Gdt {
        scale: t.scale,
        param: t.param,
        theta: solution.x,
        report: GdtReport {
            lambda: p.lambda,
            status,
            iterations: solution.report.iterations,
            evaluations: solution.report.evaluations,
            objective: solution.report.value,
            gradient_norm,
            gradient_tolerance,
            start_converged,
            indefinite_hessians: counted.indefinite(),
            separation: None,
            component_separation,
        },
    })
}

/// What [`decide_at_zero`] found.
enum AtZero {
    /// No finite maximiser, with the certificate.
    NoMaximiser(Separation),
    /// A maximiser exists (or, for Balls2, none was shown not to), with the induced fit mapped
    /// back to `θ` where the family has that map and the fit reached its tolerance.
    Maximiser(Option<(Array1<f64>, Solution)>),
}

/// Whether `L_disc` on `t` has a finite maximiser, and the induced fit mapped back to `θ` where
/// the family has that map ([`fit_induced`]).
///
/// Cheapest proof first, each of them a proof, so that the answer is the linear programs':
/// with more than two classes, a class set apart from the others ([`Programs::ClassApart`],
/// small programs that find most multi-class separations). Then, where overlap is likely
/// ([`overlap_likely`]), the induced fit, which the estimator needs anyway where a maximiser
/// exists, and which decides where it can — an optimum that proves overlap
/// ([`overlap_at_optimum`]), or coefficients that separate every row, along which the fit was
/// running off ([`separation_along`]) — before the program over all classes
/// ([`certificate_at_zero`]); elsewhere the program first, and the fit only where it finds
/// overlap.
fn decide_at_zero(
    p: &GdtValidParams,
    t: &TrainingSet<'_>,
    start: ArrayView1<'_, f64>,
) -> Result<AtZero> {
    let (family, k) = (t.param.family(), t.param.n_classes());
    if let Some(certificate) = separation_by(Programs::ClassApart, family, k, t.x.view(), t.y, t.w)?
    {
        return Ok(AtZero::NoMaximiser(certificate));
    }
    let fit = || fit_induced(&t.param, t.x.view(), t.y, t.w, &p.solver);
    let mapped_back = |fit: Option<InducedFit>| fit.and_then(|f| f.mapped_back(&t.param, start));
    // The fit first where overlap is likely; where it decides nothing, the program.
    let fitted = if overlap_likely(t) {
        Some(fit()?)
    } else {
        None
    };
    if let Some(Some(f)) = &fitted {
        if f.reached && overlap_at_optimum(f.beta.view(), f.z.view(), t.y, t.w) {
            return Ok(AtZero::Maximiser(mapped_back(fitted.flatten())));
        }
        if let Some(certificate) = separation_along(f.beta.view(), f.z.view(), t.y, t.w) {
            return Ok(AtZero::NoMaximiser(certificate));
        }
    }
    if let Some(certificate) = certificate_at_zero(t)? {
        return Ok(AtZero::NoMaximiser(certificate));
    }
    let fitted = match fitted {
        Some(fitted) => fitted,
        None => fit()?,
    };
    Ok(AtZero::Maximiser(mapped_back(fitted)))
}

/// Whether the rows of `t` are likely to overlap in the family's `q` induced features, so that
/// the induced fit, needed anyway where they do, should decide before the linear program: at
/// least `2q` rows of positive weight. Below that, separation is the rule rather than the
/// exception (`n` points in general position in `q` dimensions with random labels are linearly
/// separable with probability ½ at `n = 2q`: T. M. Cover, 1965, *IEEE Trans. Electronic
/// Computers* 14(3), 326–334), and a fit that runs off costs up to its iteration cap before the
/// program is solved all the same (Newton on QDA's 630 induced features of UCI ionosphere, 351
/// rows: 3.4 s against the program's 1.5 s). Both orders give the same decision.
fn overlap_likely(t: &TrainingSet<'_>) -> bool {
    let Some(q) = induced_dim(t.param.family(), t.x.ncols()) else {
        return false;
    };
    let rows =
        t.w.map_or(t.x.nrows(), |w| w.iter().filter(|&&w| w > 0.0).count());
    rows >= 2 * q
}

/// The certificate that `L_disc` on `t` has no finite maximiser, where the family's program
/// over all classes finds one ([`Programs::Joint`], or [`balls2_separation`] for Balls2).
fn certificate_at_zero(t: &TrainingSet<'_>) -> Result<Option<Separation>> {
    let (family, k) = (t.param.family(), t.param.n_classes());
    let floored = t.param.variance_floor() > 0.0;
    if family == Family::Balls2 {
        balls2_separation(k, t.x.view(), t.y, t.w, floored)
    } else {
        separation_by(Programs::Joint, family, k, t.x.view(), t.y, t.w)
    }
}

/// The certificate, at the parameters `theta` where a fit at `λ = 0` stopped, that `L_disc` on
/// `t` has no finite maximiser: for Balls2 without a floor, which can follow a ray along which
/// `L_disc` rises to its supremum and meet the gradient criterion on the way (the gradient
/// vanishes with `L_disc`), [`balls2_component_separation`]; `None` for the other families,
/// which [`certificate_at_zero`] decides before the fit.
fn certificate_where_stopped(
    t: &TrainingSet<'_>,
    theta: ArrayView1<'_, f64>,
) -> Option<ComponentSeparation> {
    (t.param.family() == Family::Balls2)
        .then(|| balls2_component_separation(&t.param, theta, t.x.view(), t.y, t.w))
        .flatten()
}

/// For `λ > 0`, an error where `L_gen` has no maximum: the shared diagonal on a column that is
/// constant within every class, whose variance shrinking to zero raises `L_gen` without bound
/// (eq. 2). The generative start is finite only through `var_smoothing`, which the objective
/// does not carry, so the optimiser would chase that variance to its iteration cap (on UCI
/// thyroid-sick, whose `TBG measured` is constant, with a gradient norm of `10³`). LDA and QDA
/// cannot start on such a column without shrinkage, whose prior bounds `L_gen`.
fn require_bounded_generative_part(t: &TrainingSet<'_>) -> Result<()> {
    if t.param.family() != Family::SharedDiagonal {
        return Ok(());
    }
    let constant = t.moments().constant_columns();
    if constant.is_empty() {
        return Ok(());
    }
    let positions: Vec<String> = constant.iter().map(usize::to_string).collect();
    Err(Error::NotPositiveDefinite {
        what: "the shared diagonal's pooled within-class covariance".into(),
        detail: Some(format!(
            "the input column(s) at 0-based position(s) {} are constant within every class, \
             so for 0 < λ < 1 the joint likelihood grows without bound as their variance \
             shrinks and GDT has no maximiser; leave them out",
            positions.join(", ")
        )),
        columns: constant,
    })
}

/// Runs `method` (what `p`'s solver chose for `counted`) from `from`: on whitened inputs where
/// that applies ([`crate::whitening`]), and trust-region Newton to finish
/// where `Auto` chose L-BFGS for the Hessian's cost and it stopped short.
fn run_solver<'t>(
    p: &GdtValidParams,
    t: &'t TrainingSet<'t>,
    counted: &CountingIndefinite<'_, '_>,
    method: &Method,
    from: ArrayView1<'_, f64>,
) -> Result<Solution> {
    let whitened = if p.whiten_inputs {
        minimize_whitened(method, t, p.lambda, from, counted)?
    } else {
        None
    };
    let solution = match whitened {
        Some(solution) => solution,
        None => method.minimize(counted, from)?,
    };
    p.solver.finish_with_newton(counted, solution)
}

impl GdtValidParams {
    fn fit_impl(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<Gdt> {
        let t = TrainingSet::new(self, x.view(), y.view(), w.map(|w| w.reborrow()))?;
        let (start, converged) = t.param.generative_start(self, &t)?;
        optimise(self, &t, start.view(), converged, NoMaximiser::Error)
    }

    /// Fits from the parameters of `start` (a model of the same family, classes and features,
    /// fitted on rows of the same largest magnitude — its [`scale`](Gdt::scale) — e.g. the fit
    /// at a neighbouring `λ` on the same data) instead of the generative solution: a warm
    /// start. Like every GDT fit it can stop at the optimiser's iteration cap; see
    /// [`GdtParams::require_convergence`](crate::GdtParams::require_convergence).
    pub fn fit_from(
        &self,
        start: &Gdt,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Result<Gdt> {
        let t = TrainingSet::new(
            self,
            x.view(),
            y.view(),
            sample_weight.map(|w| w.reborrow()),
        )?;
        if start.param != t.param {
            return Err(Error::invalid_parameter(
                "start",
                format!(
                    "the warm start is a {} model with {} classes, {} features and {:?} priors; the data and settings need {} with {}, {} and {:?}",
                    start.family(),
                    start.n_classes(),
                    start.n_features(),
                    start.param.priors(),
                    t.param.family(),
                    t.param.n_classes(),
                    t.param.n_features(),
                    t.param.priors()
                ),
            ));
        }
        if start.scale != t.scale {
            return Err(Error::invalid_parameter(
                "start",
                format!(
                    "the warm start was fitted in the unit {} (the largest magnitude of its rows), these rows need {}: its θ does not apply",
                    start.scale, t.scale
                ),
            ));
        }
        optimise(
            self,
            &t,
            start.theta(),
            start.report.start_converged,
            NoMaximiser::Error,
        )
    }

    /// Fits every `λ` of `lambdas` (each in `[0, 1]`, in the given order), the first from the
    /// generative solution and each next one warm-started at the previous fit: the λ path.
    /// Ordering `lambdas` from 1 down to 0 follows the path from the generative to the
    /// discriminative fit. The parameter's own `lambda` is ignored. Each fit can stop at the
    /// optimiser's iteration cap (its report says so); with
    /// [`GdtParams::require_convergence`](crate::GdtParams::require_convergence) the first
    /// that does is an error.
    pub fn fit_path(
        &self,
        lambdas: &[f64],
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Result<Vec<Gdt>> {
        self.fit_path_returning(lambdas, x, y, sample_weight, NoMaximiser::Error)
    }

    /// [`Self::fit_path`], with `no_maximiser` as for [`optimise`].
    pub(crate) fn fit_path_returning(
        &self,
        lambdas: &[f64],
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
        no_maximiser: NoMaximiser,
    ) -> Result<Vec<Gdt>> {
        if lambdas.is_empty() {
            return Err(Error::Empty {
                what: "λ path".into(),
            });
        }
        for &l in lambdas {
            crate::params::check_lambda(l)?;
        }
        let t = TrainingSet::new(
            self,
            x.view(),
            y.view(),
            sample_weight.map(|w| w.reborrow()),
        )?;
        let (start, converged) = t.param.generative_start(self, &t)?;
        let mut models: Vec<Gdt> = Vec::with_capacity(lambdas.len());
        for &lambda in lambdas {
            let p = GdtValidParams {
                lambda,
                ..self.clone()
            };
            let from = models.last().map_or(start.view(), |m| m.theta());
            models.push(optimise(&p, &t, from, converged, no_maximiser)?);
        }
        Ok(models)
    }
}

/// Fits GDT from the generative start. The fit can stop at the optimiser's iteration cap, and
/// Balls2's EM start at its own, and is then returned with a report that says so (see
/// [`GdtValidParams`] and [`GdtParams::require_convergence`](crate::GdtParams::require_convergence)).
impl Fit for GdtValidParams {
    type Model = Gdt;

    fn fit(&self, x: ArrayView2<'_, f64>, y: ArrayView1<'_, usize>) -> Result<Gdt> {
        self.fit_impl(x, y, None)
    }
}

impl FitWeighted for GdtValidParams {
    fn fit_weighted(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: ArrayView1<'_, f64>,
    ) -> Result<Gdt> {
        self.fit_impl(x, y, Some(sample_weight))
    }
}

/// The GDT objective `−L_λ(θ) / S` and its gradient at `θ` for a family on `(x, y)`: the
/// function the fit minimises, exposed for checks and plots. Returns `(value, gradient)`.
pub fn objective_and_gradient(
    params: &GdtValidParams,
    theta: ArrayView1<'_, f64>,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    sample_weight: Option<ArrayView1<'_, f64>>,
) -> Result<(f64, Array1<f64>)> {
    let t = TrainingSet::new(
        params,
        x.view(),
        y.view(),
        sample_weight.map(|w| w.reborrow()),
    )?;
    check_theta(&t, theta)?;
    let objective = GdtObjective::new(&t, params.lambda);
    let mut g = Array1::zeros(t.param.dim());
    let v = objective.value_and_gradient(theta, g.view_mut());
    Ok((v, g))
}

/// The Hessian `∇²(−L_λ / S)` at `θ` for a family on `(x, y)` (`p × p`, symmetric): what
/// the Newton methods step with, exposed for checks (the formulas are in the
/// [`family`](crate::family) documentation). Fails on the inputs
/// [`objective_and_gradient`] fails on.
pub fn objective_hessian(
    params: &GdtValidParams,
    theta: ArrayView1<'_, f64>,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    sample_weight: Option<ArrayView1<'_, f64>>,
) -> Result<Array2<f64>> {
    let t = TrainingSet::new(
        params,
        x.view(),
        y.view(),
        sample_weight.map(|w| w.reborrow()),
    )?;
    check_theta(&t, theta)?;
    let objective = GdtObjective::new(&t, params.lambda);
    let p = t.param.dim();
    let mut h = Array2::zeros((p, p));
    objective.hessian(theta, h.view_mut());
    Ok(h)
}

/// `θ` has the family's length and finite entries.
fn check_theta(t: &TrainingSet<'_>, theta: ArrayView1<'_, f64>) -> Result<()> {
    if theta.len() != t.param.dim() {
        return Err(Error::shape_mismatch(
            "length of θ vs parameters of the family",
            t.param.dim(),
            theta.len(),
        ));
    }
    gendisc_core::validate::check_finite_vector(theta, "θ")
}

/// The generative fit of eq. (2) for `params`' family on `(x, y)`, encoded as `θ` (the start
/// of every GDT fit).
pub fn generative_theta(
    params: &GdtValidParams,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    sample_weight: Option<ArrayView1<'_, f64>>,
) -> Result<Array1<f64>> {
    let t = TrainingSet::new(
        params,
        x.view(),
        y.view(),
        sample_weight.map(|w| w.reborrow()),
    )?;
    Ok(t.param.generative_start(params, &t)?.0)
}
