//! The alternating algorithm of §4: step 1 (an SOCP in `w, b`) and step 2 (closed form in `μ`).

use gendisc_core::validate::{
    check_finite_matrix, check_finite_sparse, check_finite_vector, check_labels,
};
use gendisc_core::FitSummary;
use gendisc_core::{Convergence, Error, Fit, Result};
use gendisc_optim::{Affine, Criterion, Report, Socp};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use sprs::CsMatView;

use crate::model::BilevelClassifier;
use crate::params::{BilevelValidParams, GenerativePrior, Margin, Step1Space};
use crate::scale::ScaleMatrix;

/// One alternation: the objective after step 1 and after step 2, and how far the parameters
/// moved.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Iteration {
    /// The program's objective at the end of step 1: `‖w‖` (hard margin, (4.10)) or (4.17).
    /// Theorem 4.1: never increases from one iteration to the next.
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub objective: f64,
    /// The objective (4.17) at the end of step 2 (equal to `‖w‖` for the hard margin).
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub objective_after_step2: f64,
    /// `‖w‖`.
    #[serde(with = "gendisc_core::model_file::non_finite")]
    pub norm_w: f64,
    /// `‖θ − θ_prev‖ / max(1, ‖θ_prev‖)` for `θ = (w, b, μ₁, μ₂)`; infinite at iteration 1
    /// (written as `"inf"`; files of format version 1 wrote `null`, read as `+∞`).
    #[serde(
        serialize_with = "gendisc_core::model_file::non_finite::serialize",
        deserialize_with = "null_as_infinite"
    )]
    pub change: f64,
    /// Clarabel's interior-point iterations in step 1.
    pub socp_iterations: u32,
    /// How Clarabel's step-1 solve ended ([`gendisc_optim::SocpSolution::status`]):
    /// [`Converged`](FitStatus::Converged) when it met its tolerances,
    /// [`Stalled`](FitStatus::Stalled) when it stopped having met only its reduced ones.
    /// Records written before this field read as `Converged`; those that wrote Clarabel's own
    /// names read `Solved` as `Converged` and `AlmostSolved` as `Stalled`.
    #[serde(default = "converged", deserialize_with = "socp_status")]
    pub socp_status: FitStatus,
}

fn converged() -> FitStatus {
    FitStatus::Converged
}

/// A step-1 status as [`FitStatus`] reads it, or as Clarabel named it in earlier files.
fn socp_status<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<FitStatus, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Written {
        Status(FitStatus),
        Clarabel(ClarabelName),
    }
    #[derive(serde::Deserialize)]
    enum ClarabelName {
        Solved,
        AlmostSolved,
    }
    Ok(
        match <Written as serde::Deserialize>::deserialize(deserializer)? {
            Written::Status(status) => status,
            Written::Clarabel(ClarabelName::Solved) => FitStatus::Converged,
            Written::Clarabel(ClarabelName::AlmostSolved) => FitStatus::Stalled,
        },
    )
}

/// A number as [`gendisc_core::model_file::non_finite`] reads it, and `null` (what format
/// version 1 wrote for the infinite change of the first alternation) as `+∞`.
fn null_as_infinite<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    Ok(
        gendisc_core::model_file::non_finite::option::deserialize(deserializer)?
            .unwrap_or(f64::INFINITY),
    )
}

/// Why the alternation stopped: the workspace's one status vocabulary
/// ([`gendisc_optim::Status`]). [`Converged`](FitStatus::Converged) means the parameters changed
/// by at most `tol` between alternations (a fixed-point criterion);
/// [`MaxIterations`](FitStatus::MaxIterations) that `max_iter` alternations ran without meeting it.
pub use gendisc_optim::Status as FitStatus;

/// The per-iteration record of a fit.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FitReport {
    /// One entry per alternation.
    pub iterations: Vec<Iteration>,
    /// Why it stopped.
    pub status: FitStatus,
    /// The alternation's tolerance on the relative change of `(w, b, μ₁, μ₂)`
    /// ([`BilevelValidParams::tol`](crate::BilevelValidParams::tol)); `None` in files written before it
    /// was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    /// The tolerance of every step-1 program ([`Criterion::InteriorPoint`], from
    /// [`BilevelValidParams::socp`](crate::BilevelValidParams::socp)); `None` in files written before it
    /// was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program_tolerance: Option<f64>,
}

/// The alternation's status, except that a converged alternation with a step-1 program that
/// Clarabel solved only to its reduced tolerances (it stopped for insufficient progress) is
/// [`Stalled`](FitStatus::Stalled): converged means every program was solved to the full
/// tolerances too.
impl Convergence for FitReport {
    fn status(&self) -> FitStatus {
        let every_program_solved = self.iterations.iter().all(|i| i.socp_status.is_converged());
        match self.status {
            FitStatus::Converged if !every_program_solved => FitStatus::Stalled,
            status => status,
        }
    }

    /// The alternation (valued at the last objective after step 2, one evaluation per
    /// alternation), then each alternation's step-1 program (valued at its objective). Neither
    /// evaluates a gradient. A NaN tolerance where the file predates its recording.
    fn solver_reports(&self) -> Vec<Report> {
        let alternation = Report {
            status: self.status,
            criterion: Criterion::RelativeChange {
                tolerance: self.tolerance.unwrap_or(f64::NAN),
            },
            iterations: self.n_iterations(),
            evaluations: self.n_iterations(),
            value: self
                .iterations
                .last()
                .map_or(f64::NAN, |i| i.objective_after_step2),
            gradient_norm: None,
        };
        let programs = self.iterations.iter().map(|i| Report {
            status: i.socp_status,
            criterion: Criterion::InteriorPoint {
                tolerance: self.program_tolerance.unwrap_or(f64::NAN),
            },
            iterations: i.socp_iterations as usize,
            evaluations: i.socp_iterations as usize,
            value: i.objective,
            gradient_norm: None,
        });
        std::iter::once(alternation).chain(programs).collect()
    }
}

impl FitReport {
    /// Number of alternations.
    pub fn n_iterations(&self) -> usize {
        self.iterations.len()
    }
    /// The report as a model file records it.
    pub fn summary(&self) -> FitSummary {
        let n = self.n_iterations();
        let change = self.iterations.last().map_or(f64::NAN, |i| i.change);
        let ending = match self.status {
            FitStatus::Converged => format!("converged after {n} alternations"),
            FitStatus::MaxIterations => format!("stopped at its cap of {n} alternations"),
            other => format!("{other} after {n} alternations"),
        };
        let reduced = self
            .iterations
            .iter()
            .filter(|i| !i.socp_status.is_converged())
            .count();
        let socp = if reduced == 0 {
            String::new()
        } else {
            format!("; {reduced} step-1 programs met only Clarabel's reduced tolerances")
        };
        FitSummary {
            converged: self.is_converged(),
            iterations: n,
            status: format!(
                "{ending}: last relative change {change:.3e}, objective {:.6e}{socp}",
                self.objective()
            ),
            warnings: Vec::new(),
        }
    }
    /// The final objective (end of the last step 1).
    pub fn objective(&self) -> f64 {
        self.iterations.last().map_or(f64::NAN, |i| i.objective)
    }
}

/// The training rows, dense or sparse (CSR), as the step-1 program reads them.
#[derive(Clone, Copy)]
pub(crate) enum Design<'a> {
    Dense(ArrayView2<'a, f64>),
    Sparse(CsMatView<'a, f64>),
}

impl Design<'_> {
    fn n_rows(&self) -> usize {
        match self {
            Design::Dense(x) => x.nrows(),
            Design::Sparse(x) => x.rows(),
        }
    }
    fn n_cols(&self) -> usize {
        match self {
            Design::Dense(x) => x.ncols(),
            Design::Sparse(x) => x.cols(),
        }
    }
    /// Appends `scale · x_i` to `terms`, variables offset by `first`.
    fn push_row(&self, i: usize, first: usize, scale: f64, terms: &mut Vec<(usize, f64)>) {
        match self {
            Design::Dense(x) => terms.extend(
                x.row(i)
                    .iter()
                    .enumerate()
                    .filter(|&(_, &v)| v != 0.0)
                    .map(|(j, &v)| (first + j, scale * v)),
            ),
            Design::Sparse(x) => {
                if let Some(row) = x.outer_view(i) {
                    terms.extend(row.iter().map(|(j, &v)| (first + j, scale * v)));
                }
            }
        }
    }
}

/// Step 2 in closed form: the point of the ellipsoid `‖Ω^{−1/2}(μ − t)‖ ≤ r` that maximises
/// (`sign = +1`) or minimises (`sign = −1`) `wᵀμ`, namely `μ = t + sign · r Ωw / ‖Ω^{1/2}w‖`,
/// where `wᵀμ = wᵀt + sign · r ‖Ω^{1/2}w‖`. For `w` with `Ωw = 0` every point is optimal and
/// `t` is returned.
///
/// Fails when the lengths of `w`, `t` and the dimension of `Ω` disagree, on non-finite input, on
/// a negative radius or a `sign` other than `±1`.
pub fn extreme_point(
    w: ArrayView1<'_, f64>,
    t: ArrayView1<'_, f64>,
    omega: &ScaleMatrix,
    radius: f64,
    sign: f64,
) -> Result<Array1<f64>> {
    let n = omega.dim();
    if w.len() != n {
        return Err(Error::shape_mismatch(
            "length of w vs dimension of Ω",
            n,
            w.len(),
        ));
    }
    if t.len() != n {
        return Err(Error::shape_mismatch(
            "length of t vs dimension of Ω",
            n,
            t.len(),
        ));
    }
    check_finite_vector(w, "w")?;
    check_finite_vector(t, "t")?;
    if !(radius.is_finite() && radius >= 0.0) {
        return Err(Error::invalid_parameter(
            "radius",
            format!("must be finite and non-negative, got {radius}"),
        ));
    }
    if sign != 1.0 && sign != -1.0 {
        return Err(Error::invalid_parameter(
            "sign",
            format!("must be +1 or -1, got {sign}"),
        ));
    }
    Ok(ellipsoid_extreme(w, t, omega, radius, sign))
}

fn ellipsoid_extreme(
    w: ArrayView1<'_, f64>,
    t: ArrayView1<'_, f64>,
    omega: &ScaleMatrix,
    radius: f64,
    sign: f64,
) -> Array1<f64> {
    let ow = omega.apply(w);
    let norm = w.dot(&ow).max(0.0).sqrt();
    if norm == 0.0 {
        return t.to_owned();
    }
    let step = sign * radius / norm;
    &t + &ow.mapv(|v| step * v)
}

/// Fits on a dense design. The alternation can stop at its cap (`max_iter`) and Clarabel's
/// step-1 programs at theirs; see [`BilevelValidParams`] for what the fit does then and
/// [`BilevelParams::require_convergence`](crate::BilevelParams::require_convergence) to make
/// it an error.
impl Fit for BilevelValidParams {
    type Model = BilevelClassifier;

    fn fit(&self, x: ArrayView2<'_, f64>, y: ArrayView1<'_, usize>) -> Result<BilevelClassifier> {
        check_finite_matrix(x, "x")?;
        fit_design(self, Design::Dense(x), y)
    }
}

impl BilevelValidParams {
    /// Fits on a sparse design (CSR or CSC; CSC is converted once). Like the dense fit, it
    /// can stop at the alternation's cap or Clarabel's; see [`BilevelValidParams`].
    pub fn fit_sparse(
        &self,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
    ) -> Result<BilevelClassifier> {
        check_finite_sparse(x, "x")?;
        if x.is_csr() {
            fit_design(self, Design::Sparse(x), y)
        } else {
            let csr = x.to_csr();
            fit_design(self, Design::Sparse(csr.view()), y)
        }
    }
}

/// Step 1's solution.
struct Step1 {
    w: Array1<f64>,
    b: f64,
    /// `ρ + C₁Σξ` (the part of the objective that step 2 does not change).
    data_part: f64,
    /// `C₂(ζ₁ + ζ₂)` as solved.
    prior_part: f64,
    socp_iterations: u32,
    socp_status: FitStatus,
    primal_residual: f64,
    dual_residual: f64,
}

fn fit_design(
    p: &BilevelValidParams,
    x: Design<'_>,
    y: ArrayView1<'_, usize>,
) -> Result<BilevelClassifier> {
    let n = p.prior.dim();
    let m = x.n_rows();
    if m == 0 {
        return Err(Error::Empty {
            what: "x (no rows)".into(),
        });
    }
    if x.n_cols() != n {
        return Err(Error::shape_mismatch(
            "columns of x vs dimension of the prior",
            n,
            x.n_cols(),
        ));
    }
    check_labels(y, m, 2)?;
    let signs: Vec<f64> = y.iter().map(|&c| if c == 1 { 1.0 } else { -1.0 }).collect();
    let space = match p.step1_space {
        Step1Space::Full => None,
        Step1Space::SeenFeatures => {
            WeightSpace::new(x, &p.prior).filter(|space| space.unseen.len() > 2)
        }
        Step1Space::Span => WeightSpace::new(x, &p.prior),
    };
    let row_span = match (p.step1_space, &space) {
        (Step1Space::Span, Some(space)) => Some(RowSpan::new(x, space)),
        _ => None,
    };

    let mut mu = [p.prior.t[0].clone(), p.prior.t[1].clone()];
    let mut nu = [0.0, 0.0];
    let mut previous: Option<Array1<f64>> = None;
    let mut iterations = Vec::new();
    let mut status = FitStatus::MaxIterations;
    let mut last = None;
    for alternation in 1..=p.max_iter {
        let s1 = match (&space, &row_span) {
            (Some(space), Some(rows)) => step1_in_span(p, x, space, rows, &signs, &mu)?,
            _ => step1(p, x, space.as_ref(), &signs, &mu)?,
        };
        if p.require_convergence && !s1.socp_status.is_converged() {
            return Err(Error::NotConverged {
                what: format!("Clarabel on the step-1 program of bilevel alternation {alternation}"),
                iterations: s1.socp_iterations as usize,
                detail: format!(
                    "stopped at its limit of {} iterations (or {} s) having met only its reduced tolerances ({}); primal residual {:.3e}, dual residual {:.3e}",
                    p.socp.max_iter, p.socp.time_limit, s1.socp_status, s1.primal_residual, s1.dual_residual
                ),
            });
        }
        let c3_part = c3_cost(p.margin, nu);
        let objective = s1.data_part + s1.prior_part + c3_part;
        let (new_mu, new_nu, zeta) = step2(p, s1.w.view(), s1.b);
        let after = s1.data_part
            + match p.margin {
                Margin::Hard => 0.0,
                Margin::Soft { c2, .. } => c2 * (zeta[0] + zeta[1]),
            }
            + c3_cost(p.margin, new_nu);
        let theta = pack(&s1.w, s1.b, &new_mu);
        let change = previous.as_ref().map_or(f64::INFINITY, |prev| {
            let diff = (&theta - prev).mapv(|v| v * v).sum().sqrt();
            diff / prev.mapv(|v| v * v).sum().sqrt().max(1.0)
        });
        iterations.push(Iteration {
            objective,
            objective_after_step2: after,
            norm_w: s1.w.dot(&s1.w).sqrt(),
            change,
            socp_iterations: s1.socp_iterations,
            socp_status: s1.socp_status,
        });
        previous = Some(theta);
        mu = new_mu;
        nu = new_nu;
        last = Some((s1.w, s1.b));
        if change <= p.tol {
            status = FitStatus::Converged;
            break;
        }
    }
    if p.require_convergence && status == FitStatus::MaxIterations {
        let change = iterations.last().map_or(f64::INFINITY, |i| i.change);
        return Err(Error::NotConverged {
            what: "the bilevel alternation (step-1 SOCP, step-2 closed form)".into(),
            iterations: iterations.len(),
            detail: format!(
                "stopped at its cap of {} alternations with the last relative change of (w, b, μ₁, μ₂) {change:.3e} above tol = {:e}",
                p.max_iter, p.tol
            ),
        });
    }
    let (w, b) = last.expect("max_iter ≥ 1 is validated");
    Ok(BilevelClassifier::new(
        w,
        b,
        mu,
        FitReport {
            iterations,
            status,
            tolerance: Some(p.tol),
            program_tolerance: Some(p.socp.tolerance()),
        },
    ))
}

fn c3_cost(margin: Margin, nu: [f64; 2]) -> f64 {
    match margin {
        Margin::Soft { c3, .. } if c3.is_finite() => c3 * (nu[0] + nu[1]),
        _ => 0.0,
    }
}

fn pack(w: &Array1<f64>, b: f64, mu: &[Array1<f64>; 2]) -> Array1<f64> {
    let mut v = Vec::with_capacity(w.len() * 3 + 1);
    v.extend(w.iter());
    v.push(b);
    v.extend(mu[0].iter());
    v.extend(mu[1].iter());
    Array1::from(v)
}

/// Step 1's weight variables when `Σ₁` and `Σ₂` are multiples of the identity.
///
/// A feature that is zero in every training row enters step 1 only through `‖w‖` — in (4.11)
/// and, scaled, in (4.13)–(4.14) — and through `μ_iᵀw`. Replacing the weights `w_U` of those
/// unseen features by their projection on `span{μ₁_U, μ₂_U}` keeps every `μ_iᵀw` and does not
/// increase `‖w‖`, so an optimum has `w_U = Σ_k c_k q_k` for an orthonormal basis `q_k` of that
/// span. Step 1 then solves for the seen features' weights and at most two coefficients `c_k`:
/// exact, with cones of `|S| + 2` rows instead of `n` — which is what makes a few training
/// documents over a vocabulary of thousands of words cheap.
struct WeightSpace {
    /// Column `j` → its position among the seen features.
    position: Vec<Option<usize>>,
    /// Columns with a non-zero in some training row.
    seen: Vec<usize>,
    /// The other columns.
    unseen: Vec<usize>,
    /// `√s_i` for `Σ_i = s_i I`.
    half_scale: [f64; 2],
}

impl WeightSpace {
    /// The split of the features, or `None` when a `Σ_i` is not a multiple of `I`.
    fn new(x: Design<'_>, prior: &GenerativePrior) -> Option<Self> {
        let s1 = prior.sigma[0].identity_scale()?;
        let s2 = prior.sigma[1].identity_scale()?;
        let n = prior.dim();
        let mut is_seen = vec![false; n];
        let mut row = Vec::new();
        for i in 0..x.n_rows() {
            row.clear();
            x.push_row(i, 0, 1.0, &mut row);
            for &(j, _) in &row {
                is_seen[j] = true;
            }
        }
        let seen: Vec<usize> = (0..n).filter(|&j| is_seen[j]).collect();
        let unseen: Vec<usize> = (0..n).filter(|&j| !is_seen[j]).collect();
        let mut position = vec![None; n];
        for (k, &j) in seen.iter().enumerate() {
            position[j] = Some(k);
        }
        Some(Self {
            position,
            seen,
            unseen,
            half_scale: [s1.sqrt(), s2.sqrt()],
        })
    }

    /// An orthonormal basis of `span{μ₁_U, μ₂_U}` (Gram–Schmidt, orthogonalised twice; a vector
    /// whose remainder is below `1e-12` of its norm adds nothing).
    fn basis(&self, mu: &[Array1<f64>; 2]) -> Vec<Array1<f64>> {
        let mut basis: Vec<Array1<f64>> = Vec::with_capacity(2);
        for m in mu {
            let v: Array1<f64> = self.unseen.iter().map(|&j| m[j]).collect();
            if let Some(q) = orthonormal_remainder(v, &basis) {
                basis.push(q);
            }
        }
        basis
    }

    /// `x` (of length `n`) in the seen features' coordinates.
    fn seen_part(&self, x: &Array1<f64>) -> Array1<f64> {
        self.seen.iter().map(|&j| x[j]).collect()
    }

    /// `x` (of length `n`) in the unseen features' coordinates.
    fn unseen_part(&self, x: &Array1<f64>) -> Array1<f64> {
        self.unseen.iter().map(|&j| x[j]).collect()
    }
}

/// [`orthonormal_remainder`](gendisc_core::linalg::orthonormal_remainder) below `1e-12` of
/// `v`'s norm: `None` when `v` adds no direction.
fn orthonormal_remainder(v: Array1<f64>, basis: &[Array1<f64>]) -> Option<Array1<f64>> {
    gendisc_core::linalg::orthonormal_remainder(v, basis, 1e-12)
}

/// The span of the training rows, for step 1 over `span{x_1, …, x_m, μ₁, μ₂}`.
///
/// With `Σ₁, Σ₂ ∝ I`, step 1 sees `w` only through `‖w‖` (in (4.11) and, scaled, in
/// (4.13)–(4.14)), the rows' `x_iᵀw` and the means' `μ_iᵀw`. Projecting `w` on the span of the
/// rows and the means keeps every one of those inner products and does not increase `‖w‖`, so an
/// optimum lies in that span: step 1 solves for at most `m + 2` coefficients of an orthonormal
/// basis of it (the rows' part fixed for the fit, the means' part recomputed per alternation),
/// exact, whatever the vocabulary or the number of words the rows hold.
///
/// The rows' basis is Gram–Schmidt on the rows in their order, kept implicit: with the rows `P`
/// that add a direction ("pivots") and the lower-triangular `L_P` of their coordinates,
/// `Qᵀ = L_P⁻¹ X_P`. It is computed from the rows' inner products (a Cholesky factorisation of
/// `XXᵀ` that skips dependent rows), so no vector of the vocabulary's length is formed: `Qᵀv` is
/// `L_P⁻¹(X_P v)` and `Qc` is `X_Pᵀ(L_P⁻ᵀc)`, each a sparse pass over the pivot rows.
struct RowSpan {
    /// The pivot rows, over the seen features ([`WeightSpace::seen`]), in order.
    pivots: Vec<Vec<(usize, f64)>>,
    /// `L_P`: the pivot rows' coordinates on the basis (lower-triangular, positive diagonal).
    factor: Array2<f64>,
    /// `x_iᵀq_k`: one row per training row, one column per basis vector.
    coordinates: Array2<f64>,
    /// The number of seen features.
    n_seen: usize,
}

/// A row whose squared distance to the span of the rows before it is at most this share of its
/// squared norm adds no direction (about `3·10⁻⁵` of its norm; for word counts, a row that repeats
/// or combines earlier ones: rounding leaves it a remainder of order `10⁻⁸` of its norm).
const DEPENDENT_ROW: f64 = 1e-9;

impl RowSpan {
    fn new(x: Design<'_>, space: &WeightSpace) -> Self {
        let m = x.n_rows();
        let n_seen = space.seen.len();
        let rows: Vec<Vec<(usize, f64)>> = (0..m)
            .map(|i| {
                let mut row = Vec::new();
                x.push_row(i, 0, 1.0, &mut row);
                for (j, _) in row.iter_mut() {
                    *j = space.position[*j].expect("a training row's features are seen");
                }
                row
            })
            .collect();
        let mut pivots: Vec<Vec<(usize, f64)>> = Vec::new();
        let mut factor = Array2::<f64>::zeros((m, m));
        let mut coordinates = Array2::<f64>::zeros((m, m));
        let mut dense = vec![0.0; n_seen];
        for (i, row) in rows.iter().enumerate() {
            for &(j, v) in row {
                dense[j] += v;
            }
            let r = pivots.len();
            let mut squared_rest = row.iter().map(|&(_, v)| v * v).sum::<f64>();
            let squared_norm = squared_rest;
            for (k, pivot) in pivots.iter().enumerate() {
                let inner: f64 = pivot.iter().map(|&(j, v)| v * dense[j]).sum();
                let earlier: f64 = (0..k).map(|l| coordinates[[i, l]] * factor[[k, l]]).sum();
                let l_ik = (inner - earlier) / factor[[k, k]];
                coordinates[[i, k]] = l_ik;
                squared_rest -= l_ik * l_ik;
            }
            for &(j, _) in row {
                dense[j] = 0.0;
            }
            if squared_norm > 0.0 && squared_rest > DEPENDENT_ROW * squared_norm {
                coordinates[[i, r]] = squared_rest.sqrt();
                factor.row_mut(r).assign(&coordinates.row(i));
                pivots.push(row.clone());
            }
        }
        let r = pivots.len();
        Self {
            pivots,
            factor: factor.slice(ndarray::s![..r, ..r]).to_owned(),
            coordinates: coordinates.slice(ndarray::s![.., ..r]).to_owned(),
            n_seen,
        }
    }

    /// The number of basis vectors.
    fn len(&self) -> usize {
        self.pivots.len()
    }

    /// `Qᵀv` for `v` over the seen features.
    fn coefficients(&self, v: &Array1<f64>) -> Array1<f64> {
        let r = self.len();
        let mut z = Array1::zeros(r);
        for k in 0..r {
            let inner: f64 = self.pivots[k].iter().map(|&(j, x)| x * v[j]).sum();
            let earlier: f64 = (0..k).map(|l| self.factor[[k, l]] * z[l]).sum();
            z[k] = (inner - earlier) / self.factor[[k, k]];
        }
        z
    }

    /// `Qc`, over the seen features.
    fn combine(&self, c: ArrayView1<'_, f64>) -> Array1<f64> {
        let r = self.len();
        let mut beta = Array1::<f64>::zeros(r);
        for k in (0..r).rev() {
            let later: f64 = (k + 1..r).map(|l| self.factor[[l, k]] * beta[l]).sum();
            beta[k] = (c[k] - later) / self.factor[[k, k]];
        }
        let mut out = Array1::zeros(self.n_seen);
        for (pivot, &b) in self.pivots.iter().zip(&beta) {
            for &(j, x) in pivot {
                out[j] += b * x;
            }
        }
        out
    }

    /// An orthonormal basis, over the seen and the unseen features, of what `μ₁` and `μ₂` add to
    /// the rows' span (at most two vectors, each orthogonal to every row).
    fn mean_directions(
        &self,
        space: &WeightSpace,
        mu: &[Array1<f64>; 2],
    ) -> Vec<(Array1<f64>, Array1<f64>)> {
        let n_seen = space.seen.len();
        let mut directions: Vec<Array1<f64>> = Vec::with_capacity(2);
        for m in mu {
            let full_seen = space.seen_part(m);
            let unseen = space.unseen_part(m);
            let norm = (full_seen.dot(&full_seen) + unseen.dot(&unseen)).sqrt();
            // The rows' part removed twice (it has no unseen components), then the whole vector
            // orthogonalised against the means' directions found so far.
            let mut seen = full_seen;
            for _ in 0..2 {
                let along = self.combine(self.coefficients(&seen).view());
                seen -= &along;
            }
            let mut v = Array1::zeros(n_seen + space.unseen.len());
            v.slice_mut(ndarray::s![..n_seen]).assign(&seen);
            v.slice_mut(ndarray::s![n_seen..]).assign(&unseen);
            let rest = v.dot(&v).sqrt();
            if rest > 1e-12 * norm
                && let Some(q) = orthonormal_remainder(v, &directions)
            {
                directions.push(q);
            }
        }
        directions
            .into_iter()
            .map(|q| {
                (
                    q.slice(ndarray::s![..n_seen]).to_owned(),
                    q.slice(ndarray::s![n_seen..]).to_owned(),
                )
            })
            .collect()
    }
}

/// Step 1 with `μ₁, μ₂` fixed: (4.10)–(4.14) for the hard margin, (4.17)–(4.24) with the
/// `μ`-dependent parts fixed for the soft margin; over the reduced [`WeightSpace`] when given.
fn step1(
    p: &BilevelValidParams,
    x: Design<'_>,
    space: Option<&WeightSpace>,
    signs: &[f64],
    mu: &[Array1<f64>; 2],
) -> Result<Step1> {
    let n = p.prior.dim();
    let m = signs.len();
    let basis = space.map_or(Vec::new(), |s| s.basis(mu));
    let n_weights = space.map_or(n, |s| s.seen.len() + basis.len());
    let mut socp = Socp::new("bilevel step 1");
    let w = socp.add_variables(n_weights);
    let b = socp.add_variable();
    let rho = socp.add_variable();
    socp.minimize_linear(Affine::var(rho));
    // (4.11): ρ ≥ ‖w‖ (the basis is orthonormal, so ‖w_U‖ = ‖c‖).
    socp.add_cone(
        Affine::var(rho),
        (0..n_weights).map(|j| Affine::var(w + j)).collect(),
    );

    let (xi, zeta) = add_soft_margin_slacks(&mut socp, p.margin, m);

    // (4.12)/(4.18): 1 − ξ_i − y_i(wᵀx_i + b) ≤ 0.
    let mut terms = Vec::new();
    let mut row = Vec::new();
    for (i, &s) in signs.iter().enumerate() {
        terms.clear();
        match space {
            None => x.push_row(i, w, -s, &mut terms),
            Some(space) => {
                row.clear();
                x.push_row(i, 0, -s, &mut row);
                terms.extend(row.iter().map(|&(j, v)| {
                    (
                        w + space.position[j].expect("a training row's features are seen"),
                        v,
                    )
                }));
            }
        }
        terms.push((b, -s));
        if let Some(xi) = xi {
            terms.push((xi + i, -1.0));
        }
        socp.add_inequality(Affine {
            terms: terms.clone(),
            constant: 1.0,
        });
    }

    // (4.13)/(4.20): ‖Σ₁^{1/2}w‖ ≤ −(μ₁ᵀw + b)/β + ζ₁;  (4.14)/(4.21): ‖Σ₂^{1/2}w‖ ≤ (μ₂ᵀw + b)/β + ζ₂.
    for (class, sign) in [(0usize, -1.0), (1usize, 1.0)] {
        let k = sign / p.beta;
        let linear: Vec<(usize, f64)> = match space {
            None => mu[class]
                .iter()
                .enumerate()
                .filter(|&(_, &v)| v != 0.0)
                .map(|(j, &v)| (w + j, k * v))
                .collect(),
            Some(space) => {
                let unseen_mu: Array1<f64> = space.unseen.iter().map(|&j| mu[class][j]).collect();
                space
                    .seen
                    .iter()
                    .enumerate()
                    .filter(|&(_, &j)| mu[class][j] != 0.0)
                    .map(|(pos, &j)| (w + pos, k * mu[class][j]))
                    .chain(
                        basis.iter().enumerate().map(|(q, basis_q)| {
                            (w + space.seen.len() + q, k * unseen_mu.dot(basis_q))
                        }),
                    )
                    .collect()
            }
        };
        let mut bound = Affine {
            terms: linear.into_iter().chain([(b, k)]).collect(),
            constant: 0.0,
        };
        if let Some(z) = zeta {
            bound = bound.term(z + class, 1.0);
        }
        let rows = match space {
            None => p.prior.sigma[class].half_rows(w),
            Some(space) => (0..n_weights)
                .map(|j| Affine::new().term(w + j, space.half_scale[class]))
                .collect(),
        };
        socp.add_cone(bound, rows);
    }

    let sol = socp.solve(&p.socp)?;
    let wv = match space {
        None => Array1::from(sol.x[w..w + n].to_vec()),
        Some(space) => {
            let mut full = Array1::zeros(n);
            for (pos, &j) in space.seen.iter().enumerate() {
                full[j] = sol.x[w + pos];
            }
            for (q, basis_q) in basis.iter().enumerate() {
                let c = sol.x[w + space.seen.len() + q];
                for (&j, &v) in space.unseen.iter().zip(basis_q) {
                    full[j] += c * v;
                }
            }
            full
        }
    };
    Ok(step1_result(p, x, signs, mu, wv, sol.x[b], &sol))
}

/// Step 1's solution `(w, b)` with the objective recomputed from it.
fn step1_result(
    p: &BilevelValidParams,
    x: Design<'_>,
    signs: &[f64],
    mu: &[Array1<f64>; 2],
    wv: Array1<f64>,
    bv: f64,
    sol: &gendisc_optim::SocpSolution,
) -> Step1 {
    let norm = wv.dot(&wv).sqrt();
    let (data_part, prior_part) = match p.margin {
        Margin::Hard => (norm, 0.0),
        Margin::Soft { c1, c2, .. } => {
            // Recompute the slacks from (w, b) so that the recorded objective is exact for the
            // returned hyperplane rather than the solver's interior estimate.
            let mut hinge = 0.0;
            let mut row = Vec::new();
            for (i, &s) in signs.iter().enumerate() {
                row.clear();
                x.push_row(i, 0, 1.0, &mut row);
                let f: f64 = row.iter().map(|&(j, v)| v * wv[j]).sum::<f64>() + bv;
                hinge += (1.0 - s * f).max(0.0);
            }
            let zs = prior_slacks(p, wv.view(), bv, mu);
            (norm + c1 * hinge, c2 * (zs[0] + zs[1]))
        }
    };
    Step1 {
        w: wv,
        b: bv,
        data_part,
        prior_part,
        socp_iterations: sol.iterations,
        socp_status: sol.status,
        primal_residual: sol.primal_residual,
        dual_residual: sol.dual_residual,
    }
}

/// Step 1 over `span{x_1, …, x_m, μ₁, μ₂}` ([`RowSpan`]), for `Σ_i = s_i I`.
///
/// As `‖Σ_i^{1/2}w‖ = √s_i ‖w‖`, the three cones of (4.11), (4.13) and (4.14) are one: `ρ ≥ ‖w‖`,
/// with (4.13)–(4.14) read as the linear `√s_i ρ ≤ ∓(μ_iᵀw + b)/β (+ ζ_i)`. The two programs
/// have the same optima: the objective grows with `ρ`, so `ρ = ‖w‖` at an optimum of either.
fn step1_in_span(
    p: &BilevelValidParams,
    x: Design<'_>,
    space: &WeightSpace,
    rows: &RowSpan,
    signs: &[f64],
    mu: &[Array1<f64>; 2],
) -> Result<Step1> {
    let m = signs.len();
    let directions = rows.mean_directions(space, mu);
    let n_rows_basis = rows.len();
    let n_weights = n_rows_basis + directions.len();
    let mut socp = Socp::new("bilevel step 1");
    let c = socp.add_variables(n_weights);
    let b = socp.add_variable();
    let rho = socp.add_variable();
    socp.minimize_linear(Affine::var(rho));
    // (4.11): ρ ≥ ‖w‖ = ‖c‖, the basis being orthonormal.
    if n_weights == 0 {
        socp.add_lower_bound(rho, 0.0);
    } else {
        socp.add_cone(
            Affine::var(rho),
            (0..n_weights).map(|k| Affine::var(c + k)).collect(),
        );
    }

    let (xi, zeta) = add_soft_margin_slacks(&mut socp, p.margin, m);

    // (4.12)/(4.18): 1 − ξ_i − y_i(wᵀx_i + b) ≤ 0; the means' directions are orthogonal to
    // every row.
    for (i, &s) in signs.iter().enumerate() {
        let mut terms: Vec<(usize, f64)> = rows
            .coordinates
            .row(i)
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v != 0.0)
            .map(|(k, &v)| (c + k, -s * v))
            .collect();
        terms.push((b, -s));
        if let Some(xi) = xi {
            terms.push((xi + i, -1.0));
        }
        socp.add_inequality(Affine {
            terms,
            constant: 1.0,
        });
    }

    // (4.13)/(4.20): √s₁ ρ ≤ −(μ₁ᵀw + b)/β + ζ₁;  (4.14)/(4.21): √s₂ ρ ≤ (μ₂ᵀw + b)/β + ζ₂.
    for (class, sign) in [(0usize, -1.0), (1usize, 1.0)] {
        let k = sign / p.beta;
        let seen_mu = space.seen_part(&mu[class]);
        let unseen_mu = space.unseen_part(&mu[class]);
        let mut terms: Vec<(usize, f64)> = rows
            .coefficients(&seen_mu)
            .into_iter()
            .chain(
                directions
                    .iter()
                    .map(|(qs, qu)| qs.dot(&seen_mu) + qu.dot(&unseen_mu)),
            )
            .enumerate()
            .filter(|&(_, v)| v != 0.0)
            .map(|(q, v)| (c + q, -k * v))
            .collect();
        terms.push((b, -k));
        terms.push((rho, space.half_scale[class]));
        if let Some(z) = zeta {
            terms.push((z + class, -1.0));
        }
        socp.add_inequality(Affine {
            terms,
            constant: 0.0,
        });
    }

    let sol = socp.solve(&p.socp)?;
    let mut seen_w = rows.combine(ArrayView1::from(&sol.x[c..c + n_rows_basis]));
    let mut unseen_w = Array1::zeros(space.unseen.len());
    for (k, (qs, qu)) in directions.iter().enumerate() {
        let ck = sol.x[c + n_rows_basis + k];
        seen_w.scaled_add(ck, qs);
        unseen_w.scaled_add(ck, qu);
    }
    let mut wv = Array1::zeros(p.prior.dim());
    for (&j, &v) in space.seen.iter().zip(&seen_w) {
        wv[j] = v;
    }
    for (&j, &v) in space.unseen.iter().zip(&unseen_w) {
        wv[j] = v;
    }
    Ok(step1_result(p, x, signs, mu, wv, sol.x[b], &sol))
}

/// The soft program's slacks, none for the hard margin: `ξ_1 … ξ_m ≥ 0` (4.22) at cost `C₁`
/// each and `ζ_1, ζ_2 ≥ 0` (4.24) at cost `C₂` each, added to the objective (4.17). Returns the
/// first `ξ` and the first `ζ` variable.
fn add_soft_margin_slacks(
    socp: &mut Socp,
    margin: Margin,
    m: usize,
) -> (Option<usize>, Option<usize>) {
    let Margin::Soft { c1, c2, .. } = margin else {
        return (None, None);
    };
    let xi = socp.add_variables(m);
    let zeta = socp.add_variables(2);
    socp.minimize_linear(Affine {
        terms: (0..m)
            .map(|i| (xi + i, c1))
            .chain([(zeta, c2), (zeta + 1, c2)])
            .collect(),
        constant: 0.0,
    });
    for k in 0..m {
        socp.add_lower_bound(xi + k, 0.0); // (4.22)
    }
    socp.add_lower_bound(zeta, 0.0)
        .add_lower_bound(zeta + 1, 0.0); // (4.24)
    (Some(xi), Some(zeta))
}

/// `ζ_i = max(0, ‖Σ_i^{1/2}w‖ ∓ (μ_iᵀw + b)/β)`: the smallest slacks meeting (4.20)–(4.21).
fn prior_slacks(
    p: &BilevelValidParams,
    w: ArrayView1<'_, f64>,
    b: f64,
    mu: &[Array1<f64>; 2],
) -> [f64; 2] {
    let z = |class: usize, sign: f64| {
        (p.prior.sigma[class].half_norm(w) - sign * (mu[class].dot(&w) + b) / p.beta).max(0.0)
    };
    [z(0, -1.0), z(1, 1.0)]
}

/// Step 2 with `w, b` fixed: (4.15)–(4.16) in closed form, extended to the soft program by
/// choosing the hyper-prior slack `ν_i` and prior slack `ζ_i` that minimise `C₂ζ_i + C₃ν_i`.
///
/// For class 2, with `s = ‖Ω₂^{1/2}w‖/β` and `a = ‖Σ₂^{1/2}w‖ − (wᵀt₂ + b + φ‖Ω₂^{1/2}w‖)/β`
/// (the slack needed at `ν = 0` with `μ₂` at the extreme point), a radius `φ + ν` leaves
/// `ζ = max(0, a − νs)`; the cost `C₂ max(0, a − νs) + C₃ν` is piecewise linear, minimised at
/// `ν = a/s` if `a > 0` and `C₂s > C₃`, else at `ν = 0`. Class 1 is the mirror image.
fn step2(
    p: &BilevelValidParams,
    w: ArrayView1<'_, f64>,
    b: f64,
) -> ([Array1<f64>; 2], [f64; 2], [f64; 2]) {
    let prior: &GenerativePrior = &p.prior;
    let mut mu = [prior.t[0].clone(), prior.t[1].clone()];
    let mut nu = [0.0; 2];
    let mut zeta = [0.0; 2];
    for (class, sign) in [(0usize, -1.0), (1usize, 1.0)] {
        let omega = &prior.omega[class];
        let s = omega.half_norm(w) / p.beta;
        let a = prior.sigma[class].half_norm(w)
            - (sign * (prior.t[class].dot(&w) + b)) / p.beta
            - p.phi * s;
        if let Margin::Soft { c2, c3, .. } = p.margin {
            if a > 0.0 && s > 0.0 && c2 * s > c3 {
                nu[class] = a / s;
            }
            zeta[class] = (a - nu[class] * s).max(0.0);
        }
        mu[class] = ellipsoid_extreme(w, prior.t[class].view(), omega, p.phi + nu[class], sign);
    }
    (mu, nu, zeta)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;
    use gendisc_core::linalg::Cholesky;
    use gendisc_optim::SocpSettings;
    use ndarray::{array, Array2};

    #[test]
    fn step1_statuses_read_in_either_vocabulary() {
        let record = |status: &str| {
            format!(
                r#"{{"objective": 1.0, "objective_after_step2": 1.0, "norm_w": 1.0, "change": "inf", "socp_iterations": 9{status}}}"#
            )
        };
        let read = |status: &str| serde_json::from_str::<Iteration>(&record(status));
        for (written, status) in [
            (r#", "socp_status": "Converged""#, FitStatus::Converged),
            (r#", "socp_status": "Stalled""#, FitStatus::Stalled),
            (r#", "socp_status": "Solved""#, FitStatus::Converged),
            (r#", "socp_status": "AlmostSolved""#, FitStatus::Stalled),
            ("", FitStatus::Converged),
        ] {
            assert_eq!(read(written).unwrap().socp_status, status, "{written}");
        }
        assert!(read(r#", "socp_status": "Unsolved""#).is_err());
        let stalled = Iteration {
            socp_status: FitStatus::Stalled,
            ..read("").unwrap()
        };
        let written = serde_json::to_string(&stalled).unwrap();
        assert!(written.contains(r#""socp_status":"Stalled""#), "{written}");
        assert_eq!(
            serde_json::from_str::<Iteration>(&written).unwrap(),
            stalled
        );
    }

    /// Solves max/min wᵀμ s.t. ‖Ω^{−1/2}(μ − t)‖ ≤ r as an SOCP, with Ω^{−1/2} taken as L^{−1}.
    fn extreme_point_by_socp(
        w: &Array1<f64>,
        t: &Array1<f64>,
        omega: &Array2<f64>,
        r: f64,
        sign: f64,
    ) -> Array1<f64> {
        let n = w.len();
        let l_inv = Cholesky::new(omega.view(), "Ω")
            .unwrap()
            .solve_lower(Array2::eye(n).view())
            .unwrap();
        let mut socp = Socp::new("step 2");
        let mu = socp.add_variables(n);
        socp.minimize_linear(Affine {
            terms: (0..n).map(|j| (mu + j, -sign * w[j])).collect(),
            constant: 0.0,
        });
        let rows = (0..n)
            .map(|i| Affine {
                terms: (0..n).map(|j| (mu + j, l_inv[[i, j]])).collect(),
                constant: -(0..n).map(|j| l_inv[[i, j]] * t[j]).sum::<f64>(),
            })
            .collect();
        socp.add_cone(Affine::constant(r), rows);
        Array1::from(socp.solve(&SocpSettings::default()).unwrap().x)
    }

    #[test]
    fn closed_form_step_2_matches_the_socp() {
        let omega = array![[2.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 0.5]];
        let om = ScaleMatrix::dense(omega.clone(), "Ω").unwrap();
        let t = array![0.5, -1.0, 2.0];
        let w = array![1.0, 2.0, -0.5];
        for sign in [-1.0, 1.0] {
            let closed = extreme_point(w.view(), t.view(), &om, 0.7, sign).unwrap();
            let socp = extreme_point_by_socp(&w, &t, &omega, 0.7, sign);
            for j in 0..3 {
                assert_abs_diff_eq!(closed[j], socp[j], epsilon = 1e-6);
            }
            // The value is wᵀt ± r‖Ω^{1/2}w‖.
            assert_abs_diff_eq!(
                closed.dot(&w),
                t.dot(&w) + sign * 0.7 * om.half_norm(w.view()),
                epsilon = 1e-12
            );
        }
        // Diagonal Ω against the same SOCP.
        let d = array![0.5, 3.0, 1.5];
        let od = ScaleMatrix::diagonal(d.clone(), "Ω").unwrap();
        let closed = extreme_point(w.view(), t.view(), &od, 0.2, 1.0).unwrap();
        let socp = extreme_point_by_socp(&w, &t, &Array2::from_diag(&d), 0.2, 1.0);
        for j in 0..3 {
            assert_abs_diff_eq!(closed[j], socp[j], epsilon = 1e-6);
        }
    }

    /// A text-shaped problem: `n` binary features, `m` rows using only the first `n/3` of
    /// them, a diagonal hyper-prior around random means.
    fn text_problem(
        seed: u64,
        n: usize,
        m: usize,
    ) -> (sprs::CsMat<f64>, Array1<usize>, GenerativePrior) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let y: Array1<usize> = (0..m).map(|i| i % 2).collect();
        let mut tri = sprs::TriMat::new((m, n));
        for i in 0..m {
            for j in 0..n / 3 {
                // Class-dependent word rates so that the classes differ.
                let rate = if (j % 2 == 0) == (y[i] == 1) {
                    0.5
                } else {
                    0.15
                };
                if rng.random::<f64>() < rate {
                    tri.add_triplet(i, j, 1.0);
                }
            }
        }
        let t: [Array1<f64>; 2] = [0, 1].map(|c| {
            (0..n)
                .map(|j| {
                    let base = if (j % 2 == 0) == (c == 1) { 0.3 } else { 0.1 };
                    base * rng.random_range(0.5..1.5)
                })
                .collect()
        });
        let omega = [0, 1].map(|_| (0..n).map(|_| rng.random_range(0.001..0.01)).collect());
        (
            tri.to_csr(),
            y,
            GenerativePrior::diagonal(t, omega).unwrap(),
        )
    }

    #[test]
    fn the_reduced_step_1_programs_are_exact() {
        for (seed, margin, m) in [
            (
                1,
                Margin::Soft {
                    c1: 1.0,
                    c2: 1.0,
                    c3: f64::INFINITY,
                },
                8,
            ),
            (
                2,
                Margin::Soft {
                    c1: 0.5,
                    c2: 2.0,
                    c3: 1.0,
                },
                8,
            ),
            (3, Margin::Hard, 8),
            // More rows than the seen features' span holds: the rows' basis is rank-deficient.
            (
                4,
                Margin::Soft {
                    c1: 1.0,
                    c2: 1.0,
                    c3: f64::INFINITY,
                },
                30,
            ),
        ] {
            let (x, y, prior) = text_problem(seed, 60, m);
            let mut full = crate::BilevelClassifier::params(prior)
                .margin(margin)
                .beta(0.3)
                .phi(0.05);
            full.0.step1_space = Step1Space::Full;
            let b = full.fit_sparse(x.view(), y.view()).unwrap();
            let scale = 1.0 + b.weights().iter().fold(0.0f64, |m, v| m.max(v.abs()));
            for reduced_space in [Step1Space::SeenFeatures, Step1Space::Span] {
                let mut reduced = full.clone();
                reduced.0.step1_space = reduced_space;
                let space = WeightSpace::new(Design::Sparse(x.view()), &full.0.prior).unwrap();
                assert!(space.unseen.len() >= 40, "{}", space.unseen.len());
                let a = reduced.fit_sparse(x.view(), y.view()).unwrap();
                assert_eq!(
                    a.report().n_iterations(),
                    b.report().n_iterations(),
                    "{reduced_space:?}, seed {seed}"
                );
                for (ia, ib) in a.report().iterations.iter().zip(&b.report().iterations) {
                    assert_abs_diff_eq!(
                        ia.objective,
                        ib.objective,
                        epsilon = 1e-6 * (1.0 + ib.objective)
                    );
                }
                for (wa, wb) in a.weights().iter().zip(b.weights()) {
                    assert_abs_diff_eq!(*wa, *wb, epsilon = 1e-4 * scale);
                }
                assert_abs_diff_eq!(a.intercept(), b.intercept(), epsilon = 1e-4 * scale);
            }
        }
    }

    #[test]
    fn the_row_span_is_orthonormal_and_holds_every_row() {
        // 30 rows over 13 used features, one of them a repeat: a rank-deficient set.
        let (x, _, prior) = text_problem(5, 40, 30);
        let mut tri = sprs::TriMat::new((31, 40));
        for (i, row) in x.outer_iterator().enumerate() {
            for (j, &v) in row.iter() {
                tri.add_triplet(i, j, v);
                if i == 4 {
                    tri.add_triplet(30, j, v);
                }
            }
        }
        let x: sprs::CsMat<f64> = tri.to_csr();
        let space = WeightSpace::new(Design::Sparse(x.view()), &prior).unwrap();
        let rows = RowSpan::new(Design::Sparse(x.view()), &space);
        assert!(rows.len() <= space.seen.len());
        let basis: Vec<Array1<f64>> = (0..rows.len())
            .map(|k| {
                let mut e = Array1::zeros(rows.len());
                e[k] = 1.0;
                rows.combine(e.view())
            })
            .collect();
        for (k, q) in basis.iter().enumerate() {
            for (l, r) in basis.iter().enumerate() {
                let expected = if k == l { 1.0 } else { 0.0 };
                assert_abs_diff_eq!(q.dot(r), expected, epsilon = 1e-9);
            }
        }
        // Each row is its coordinates times the basis, the coefficients of a vector are its
        // inner products with the basis, and the means' directions are orthogonal to the rows
        // and to each other.
        let mu = [prior.t[0].clone(), prior.t[1].clone()];
        let directions = rows.mean_directions(&space, &mu);
        assert_eq!(directions.len(), 2);
        for (i, row) in x.outer_iterator().enumerate() {
            let dense = space.seen_part(&row.to_dense());
            let rebuilt = rows.combine(rows.coordinates.row(i));
            for j in 0..dense.len() {
                assert_abs_diff_eq!(rebuilt[j], dense[j], epsilon = 1e-9);
            }
            let coefficients = rows.coefficients(&dense);
            for (k, q) in basis.iter().enumerate() {
                assert_abs_diff_eq!(coefficients[k], q.dot(&dense), epsilon = 1e-9);
            }
            for (qs, _) in &directions {
                assert_abs_diff_eq!(qs.dot(&dense), 0.0, epsilon = 1e-9);
            }
        }
        let [(s0, u0), (s1, u1)] = [&directions[0], &directions[1]];
        assert_abs_diff_eq!(s0.dot(s1) + u0.dot(u1), 0.0, epsilon = 1e-12);
        assert_abs_diff_eq!(s0.dot(s0) + u0.dot(u0), 1.0, epsilon = 1e-12);
    }

    #[test]
    fn the_basis_spans_the_unseen_means_orthonormally() {
        let prior = GenerativePrior::diagonal(
            [
                array![1.0, 0.0, 2.0, 0.0, 1.0],
                array![2.0, 0.0, 4.0, 0.0, 2.0],
            ],
            [Array1::ones(5), Array1::ones(5)],
        )
        .unwrap();
        let x = array![[1.0, 0.0, 0.0, 0.0, 0.0]];
        let space = WeightSpace::new(Design::Dense(x.view()), &prior).unwrap();
        assert_eq!(space.seen, vec![0]);
        // Collinear unseen means: one direction.
        let mu = [prior.t[0].clone(), prior.t[1].clone()];
        let basis = space.basis(&mu);
        assert_eq!(basis.len(), 1);
        assert_abs_diff_eq!(basis[0].dot(&basis[0]), 1.0, epsilon = 1e-15);
        // Independent means: two orthonormal directions.
        let mu2 = [prior.t[0].clone(), array![0.0, 1.0, 0.0, 3.0, 0.0]];
        let basis = space.basis(&mu2);
        assert_eq!(basis.len(), 2);
        assert_abs_diff_eq!(basis[0].dot(&basis[1]), 0.0, epsilon = 1e-15);
        // A non-identity Σ keeps the full space.
        let dense_sigma = GenerativePrior::new(
            [prior.t[0].clone(), prior.t[1].clone()],
            prior.omega.clone(),
            [
                ScaleMatrix::diagonal(array![1.0, 2.0, 1.0, 1.0, 1.0], "Σ").unwrap(),
                ScaleMatrix::identity(5),
            ],
        )
        .unwrap();
        assert!(WeightSpace::new(Design::Dense(x.view()), &dense_sigma).is_none());
    }

    #[test]
    fn zero_normal_keeps_the_prior_location() {
        let t = array![1.0, 2.0];
        let p = extreme_point(
            array![0.0, 0.0].view(),
            t.view(),
            &ScaleMatrix::identity(2),
            1.0,
            1.0,
        )
        .unwrap();
        assert_eq!(p, t);
    }

    #[test]
    fn extreme_point_rejects_bad_input() {
        let id = ScaleMatrix::identity(2);
        let (w, t) = (array![1.0, 0.0], array![0.0, 0.0]);
        assert!(extreme_point(array![1.0].view(), t.view(), &id, 1.0, 1.0).is_err());
        assert!(extreme_point(w.view(), array![0.0].view(), &id, 1.0, 1.0).is_err());
        assert!(extreme_point(array![f64::NAN, 0.0].view(), t.view(), &id, 1.0, 1.0).is_err());
        assert!(extreme_point(w.view(), t.view(), &id, -1.0, 1.0).is_err());
        assert!(extreme_point(w.view(), t.view(), &id, 1.0, 0.5).is_err());
    }
}
