//! # gendisc-gdt
//!
//! The generative–discriminative trade-off (GDT) estimator of Bouchard & Triggs, *The tradeoff
//! between generative and discriminative classifiers* (COMPSTAT 2004). For a parametric
//! generative family `p_θ(x, y) = π_y f_y(x; θ)` it maximises
//!
//! ```text
//! L_λ(θ) = λ L_gen(θ) + (1 − λ) L_disc(θ)                         (eq. 6)
//!        = Σ_i log p_θ(x_i, y_i) − (1 − λ) Σ_i log Σ_k p_θ(x_i, k)   (eq. 5)
//! ```
//!
//! over `θ`, for `λ ∈ [0, 1]`: `λ = 1` is the generative maximum-likelihood fit (eq. 2),
//! `λ = 0` the discriminative maximum conditional likelihood (eq. 3) within the same family.
//!
//! * [`Family`] — LDA, QDA, Balls1, Balls2 and the shared-diagonal Gaussian of the
//!   simulations; [`Parametrisation`] — their unconstrained parameter vector (softmax logits
//!   for the priors, means, log-diagonal Cholesky factors of the precisions) with the
//!   log-joint and the weighted gradient of eq. (8) ([`family`] has the formulas);
//!   [`Priors`] — class priors fixed at `1/K` or estimated.
//! * [`Gdt`] — `Gdt::params(family).lambda(λ).fit(&x, &y)`: starts at the generative fit
//!   (closed form; EM for Balls2) and runs nonlinear conjugate gradient (argmin, through
//!   [`gendisc_optim`]), or Newton's method with the analytic Hessian
//!   ([`GdtSolver::newton`]; formulas in [`family`]); the fitted model reports status and
//!   iterations ([`GdtReport`]).
//!   [`GdtValidParams::fit_path`] fits a whole λ path with warm starts.
//! * [`GdtCv`] — `λ` by stratified k-fold cross-validation over a grid ([`cv`]).
//!
//! ```
//! use gendisc_core::{ConditionalModel, Fit};
//! use gendisc_data::generators::BouchardTriggsSimulation;
//! use gendisc_gdt::{Family, Gdt};
//! use rand::SeedableRng;
//!
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! let (x, y) = BouchardTriggsSimulation::CorrelatedUniform.sample(100, &mut rng);
//! let generative = Gdt::params(Family::Lda).lambda(1.0).fit(x.view(), y.view())?;
//! let gdt = Gdt::params(Family::Lda).lambda(0.5).fit(x.view(), y.view())?;
//! assert!(gdt.report().converged());
//! // The GDT fit has a higher conditional likelihood on the training data than the
//! // generative one: that is what the discriminative part of the objective buys.
//! let cll = |m: &Gdt| m.conditional_log_likelihood(x.view(), y.view(), None).unwrap();
//! assert!(cll(&gdt) > cll(&generative));
//! # Ok::<(), gendisc_core::Error>(())
//! ```
//!
//! Bad input (shape mismatches, NaN or infinite values, labels out of range, a class without
//! rows, `λ` outside `[0, 1]`, …) is a typed [`gendisc_core::Error`], never a panic.

pub mod cv;
pub mod family;
mod model;
mod objective;
mod params;

pub use cv::{CvCriterion, CvSelection, GdtCv, GdtCvParams, GdtCvValidParams, TABLE1_GRID};
pub use family::{Family, Parametrisation, Priors};
pub use model::{generative_theta, objective_and_gradient, objective_hessian, Gdt, GdtReport};
pub use params::{
    default_newton_settings, default_solver_settings, GdtParams, GdtSolver, GdtValidParams,
    DEFAULT_GDT_VALUE_TOLERANCE,
};
