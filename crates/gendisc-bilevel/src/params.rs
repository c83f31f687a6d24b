//! The prior (`t_i`, `Ω_i`, `Σ_i`) and the validated hyper-parameters.

use gendisc_core::validate::check_finite_vector;
use gendisc_core::{Error, ParamGuard, Result};
use gendisc_optim::SocpSettings;
use ndarray::{Array1, ArrayView1};
use sprs::CsMatView;

use crate::elliptical::Generator;
use crate::scale::ScaleMatrix;

/// The generative prior of §4: class `0` (`y = −1`) has `X ~ E(μ₁, Σ₁, g)` with hyper-prior
/// `μ₁ ~ E(t₁, Ω₁, g)`; class `1` (`y = +1`) likewise with index 2.
#[derive(Debug, Clone, PartialEq)]
pub struct GenerativePrior {
    pub(crate) t: [Array1<f64>; 2],
    pub(crate) omega: [ScaleMatrix; 2],
    pub(crate) sigma: [ScaleMatrix; 2],
}

impl GenerativePrior {
    /// A prior from its parts; checks that every dimension agrees and `t_i` is finite.
    pub fn new(
        t: [Array1<f64>; 2],
        omega: [ScaleMatrix; 2],
        sigma: [ScaleMatrix; 2],
    ) -> Result<Self> {
        let n = t[0].len();
        if n == 0 {
            return Err(Error::Empty {
                what: "prior location t₁".into(),
            });
        }
        for (i, ti) in t.iter().enumerate() {
            check_finite_vector(ti.view(), &format!("prior location t{}", i + 1))?;
            if ti.len() != n {
                return Err(Error::shape_mismatch(
                    format!("length of t{} vs t1", i + 1),
                    n,
                    ti.len(),
                ));
            }
        }
        for (name, m) in [("Ω", &omega), ("Σ", &sigma)] {
            for (i, mi) in m.iter().enumerate() {
                if mi.dim() != n {
                    return Err(Error::shape_mismatch(
                        format!("dimension of {name}{} vs length of t1", i + 1),
                        n,
                        mi.dim(),
                    ));
                }
            }
        }
        Ok(Self { t, omega, sigma })
    }

    /// The prior of §5: diagonal `Ω_i` and `Σ_i = I`.
    pub fn diagonal(t: [Array1<f64>; 2], omega_diagonal: [Array1<f64>; 2]) -> Result<Self> {
        let n = t[0].len();
        let [o1, o2] = omega_diagonal;
        let omega = [
            ScaleMatrix::diagonal(o1, "Ω1")?,
            ScaleMatrix::diagonal(o2, "Ω2")?,
        ];
        Self::new(
            t,
            omega,
            [ScaleMatrix::identity(n), ScaleMatrix::identity(n)],
        )
    }

    /// The number of features `n`.
    pub fn dim(&self) -> usize {
        self.t[0].len()
    }

    /// Hyper-prior locations `t₁, t₂`.
    pub fn t(&self) -> [ArrayView1<'_, f64>; 2] {
        [self.t[0].view(), self.t[1].view()]
    }

    /// Hyper-prior scales `Ω₁, Ω₂` (constraint (4.7)/(4.19)).
    pub fn omega(&self) -> &[ScaleMatrix; 2] {
        &self.omega
    }

    /// Class scales `Σ₁, Σ₂` (constraints (4.13)–(4.14)/(4.20)–(4.21)).
    pub fn sigma(&self) -> &[ScaleMatrix; 2] {
        &self.sigma
    }
}

/// Which program is solved in step 1.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Margin {
    /// The hard-margin program (4.10)–(4.14), step 2 (4.15)–(4.16). Non-separable data, or a
    /// prior no hyperplane satisfies, is [`Error::Infeasible`].
    Hard,
    /// The soft-margin program (4.17)–(4.24) with costs on the data slacks `ξ_i` (`c1`), the
    /// prior slacks `ζ_i` (`c2`) and the hyper-prior slacks `ν_i` (`c3`, `f64::INFINITY` makes
    /// (4.19) hard).
    Soft {
        /// `C₁ > 0`, cost of the margin violations `ξ_i`.
        c1: f64,
        /// `C₂ > 0`, cost of the prior violations `ζ_i` in (4.20)–(4.21).
        c2: f64,
        /// `C₃ > 0` or `f64::INFINITY`, cost of the hyper-prior violations `ν_i` in (4.19).
        c3: f64,
    },
}

/// Default convergence tolerance on the relative change of `(w, b, μ₁, μ₂)`.
pub const DEFAULT_TOL: f64 = 1e-6;
/// Default cap on alternations. A fit that reaches it stops there, with the status
/// [`FitStatus::MaxIterations`](crate::FitStatus::MaxIterations), unless
/// [`BilevelParams::require_convergence`] makes that an error.
pub const DEFAULT_MAX_ITER: usize = 50;

/// Validated hyper-parameters of [`BilevelClassifier`](crate::BilevelClassifier).
///
/// | parameter | meaning | default |
/// |---|---|---|
/// | `prior` | `t_i`, `Ω_i`, `Σ_i` | required |
/// | `beta` | `β > 0` of (4.13)–(4.14), or from `η` by [`Generator::beta`] | 0.2 (§5) |
/// | `phi` | `φ > 0` of (4.16)/(4.19), or from `δ` by [`Generator::phi`] | 0.01 (§5) |
/// | `margin` | [`Margin::Hard`] or [`Margin::Soft`] | soft, `C₁ = C₂ = 1`, `C₃ = ∞` (§5) |
/// | `tol` | stop when `‖Δθ‖ ≤ tol · max(1, ‖θ‖)`, `θ = (w, b, μ₁, μ₂)` | [`DEFAULT_TOL`] |
/// | `max_iter` | alternations | [`DEFAULT_MAX_ITER`] |
/// | `socp` | Clarabel settings for step 1 | [`SocpSettings::default`] |
/// | `require_convergence` | make a fit that stops at a cap an [`Error::NotConverged`] | `false` |
///
/// # Fits that stop at a cap
///
/// Two loops have caps. The alternation stops after `max_iter` alternations whether or not
/// `(w, b, μ₁, μ₂)` has settled; the model's [report](crate::BilevelClassifier::report) then
/// has the status [`FitStatus::MaxIterations`](crate::FitStatus::MaxIterations). Clarabel stops
/// each step-1 program at `socp.max_iter` interior-point iterations (or `socp.time_limit`):
/// if it has not met even its reduced tolerances by then the fit fails with
/// [`Error::NotConverged`]; if it has, the solution is used and the iteration's
/// [`socp_status`](crate::Iteration::socp_status) is
/// [`FitStatus::Stalled`](crate::FitStatus::Stalled). By default both are
/// returned as fits; with [`BilevelParams::require_convergence`] both are errors.
#[derive(Debug, Clone, PartialEq)]
pub struct BilevelValidParams {
    pub(crate) prior: GenerativePrior,
    pub(crate) beta: f64,
    pub(crate) phi: f64,
    pub(crate) margin: Margin,
    pub(crate) tol: f64,
    pub(crate) max_iter: usize,
    pub(crate) socp: SocpSettings,
    /// Which weights step 1 solves for when `Σ₁, Σ₂ ∝ I` (each choice exact; the smaller
    /// ones are tested against the full program).
    pub(crate) step1_space: Step1Space,
    pub(crate) require_convergence: bool,
}

impl BilevelValidParams {
    /// The prior.
    pub fn prior(&self) -> &GenerativePrior {
        &self.prior
    }
    /// `β`.
    pub fn beta(&self) -> f64 {
        self.beta
    }
    /// `φ`.
    pub fn phi(&self) -> f64 {
        self.phi
    }
    /// The margin mode and its costs.
    pub fn margin(&self) -> Margin {
        self.margin
    }
    /// Convergence tolerance.
    pub fn tol(&self) -> f64 {
        self.tol
    }
    /// Iteration cap.
    pub fn max_iter(&self) -> usize {
        self.max_iter
    }
    /// Step-1 solver settings.
    pub fn socp(&self) -> &SocpSettings {
        &self.socp
    }
    /// Whether a fit that stops at a cap is an error
    /// ([`BilevelParams::require_convergence`]).
    pub fn require_convergence(&self) -> bool {
        self.require_convergence
    }
}

/// The weight variables of step 1. With `Σ₁, Σ₂ ∝ I` the program sees `w` only through `‖w‖`,
/// the training rows' `x_iᵀw` and the means' `μ_iᵀw`, so each choice has the same optimum; they
/// differ in size, and so in cost and in the interior-point path that reaches the optimum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
// Fits use `Span`; the larger spaces are kept for the tests that check it against them.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) enum Step1Space {
    /// Every feature's weight.
    Full,
    /// The weights of the features seen in training and at most two directions for the others.
    SeenFeatures,
    /// At most `m + 2` coefficients of an orthonormal basis of `span{x_1, …, x_m, μ₁, μ₂}`.
    Span,
}

/// Unchecked hyper-parameters (a builder); see [`BilevelValidParams`] for the table.
#[derive(Debug, Clone, PartialEq)]
pub struct BilevelParams(pub(crate) BilevelValidParams);

impl BilevelParams {
    /// Parameters with the paper's §5 defaults around a given prior.
    pub fn new(prior: GenerativePrior) -> Self {
        Self(BilevelValidParams {
            prior,
            beta: 0.2,
            phi: 0.01,
            margin: Margin::Soft {
                c1: 1.0,
                c2: 1.0,
                c3: f64::INFINITY,
            },
            tol: DEFAULT_TOL,
            max_iter: DEFAULT_MAX_ITER,
            socp: SocpSettings::default(),
            step1_space: Step1Space::Span,
            require_convergence: false,
        })
    }
    /// Sets `β` directly.
    pub fn beta(mut self, beta: f64) -> Self {
        self.0.beta = beta;
        self
    }
    /// Sets `β` from a tail probability `η` (Proposition 3.1).
    pub fn beta_from_tail(mut self, generator: Generator, eta: f64) -> Result<Self> {
        self.0.beta = generator.beta(eta)?;
        Ok(self)
    }
    /// Sets `φ` directly.
    pub fn phi(mut self, phi: f64) -> Self {
        self.0.phi = phi;
        self
    }
    /// Sets `φ` from a density level `δ` of a hyper-prior with `log det Ω = log_det_omega`
    /// (Proposition 3.2; the program has one `φ` for both classes).
    pub fn phi_from_density(
        mut self,
        generator: Generator,
        delta: f64,
        log_det_omega: f64,
    ) -> Result<Self> {
        self.0.phi = generator.phi(delta, self.0.prior.dim(), log_det_omega)?;
        Ok(self)
    }
    /// Sets the margin mode.
    pub fn margin(mut self, margin: Margin) -> Self {
        self.0.margin = margin;
        self
    }
    /// Hard margin, (4.10)–(4.16).
    pub fn hard_margin(self) -> Self {
        self.margin(Margin::Hard)
    }
    /// Soft margin with costs `C₁, C₂, C₃`, (4.17)–(4.24).
    pub fn soft_margin(self, c1: f64, c2: f64, c3: f64) -> Self {
        self.margin(Margin::Soft { c1, c2, c3 })
    }
    /// Sets the convergence tolerance.
    pub fn tol(mut self, tol: f64) -> Self {
        self.0.tol = tol;
        self
    }
    /// Sets the iteration cap.
    pub fn max_iter(mut self, max_iter: usize) -> Self {
        self.0.max_iter = max_iter;
        self
    }
    /// Sets the step-1 solver settings.
    pub fn socp(mut self, socp: SocpSettings) -> Self {
        self.0.socp = socp;
        self
    }
    /// Whether a fit that stops at a cap without converging is an error (default `false`):
    /// the alternation reaching `max_iter` with `(w, b, μ₁, μ₂)` still moving by more than
    /// `tol`, or a step-1 program that Clarabel stopped at its iteration or time limit having
    /// met only its reduced tolerances. Either is then an [`Error::NotConverged`] naming the
    /// loop, its iterations and its last change (or the program's residuals). By default such
    /// fits are returned and their [report](crate::BilevelClassifier::report) tells.
    pub fn require_convergence(mut self, require: bool) -> Self {
        self.0.require_convergence = require;
        self
    }
    /// Validates and fits on a sparse design; see [`BilevelValidParams::fit_sparse`].
    pub fn fit_sparse(
        &self,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
    ) -> Result<crate::BilevelClassifier> {
        self.check_ref()?.fit_sparse(x, y)
    }
}

fn positive(name: &'static str, v: f64) -> Result<()> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(Error::invalid_parameter(
            name,
            format!("must be finite and positive, got {v}"),
        ))
    }
}

impl ParamGuard for BilevelParams {
    type Checked = BilevelValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        let p = &self.0;
        positive("beta", p.beta)?;
        positive("phi", p.phi)?;
        positive("tol", p.tol)?;
        if p.max_iter == 0 {
            return Err(Error::invalid_parameter("max_iter", "must be at least 1"));
        }
        if let Margin::Soft { c1, c2, c3 } = p.margin {
            positive("c1", c1)?;
            positive("c2", c2)?;
            if c3.is_nan() || c3 <= 0.0 {
                return Err(Error::invalid_parameter(
                    "c3",
                    format!("must be positive or infinite, got {c3}"),
                ));
            }
        }
        Ok(p)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}
