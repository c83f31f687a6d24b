//! # gendisc-optim
//!
//! Optimisers for smooth objectives, separated from the problems they solve (the argmin way):
//! a problem implements value, gradient and (where cheap) Hessian; a solver returns the optimum
//! together with a report of its status, iterations and final gradient norm.
//!
//! * [`Objective`] and [`TwiceDifferentiable`] — what a problem provides.
//! * [`Newton`] — damped Newton with an Armijo backtracking line search, Cholesky solves of the
//!   Newton system, and a ridge (then steepest-descent) fallback when the Hessian is not
//!   positive definite. For small, smooth, convex problems such as logistic regression.
//! * [`ConjugateGradient`] and [`Lbfgs`] — argmin's nonlinear conjugate gradient
//!   (Polak–Ribière+) and L-BFGS with a Moré–Thuente line search, behind an adapter that adds
//!   gradient-norm and stalled-decrease stops, keeps the best point when argmin errors, and
//!   memoises evaluations ([`first_order`]). For problems too large for a dense Hessian.
//! * [`Socp`] — second-order cone programs with sparse rows, built constraint by constraint and
//!   solved by Clarabel's interior-point method, with its status mapped to typed errors
//!   ([`socp`]).
//!
//! Every solver returns a [`Solution`]: the parameters and a [`Report`] whose [`Status`] says
//! whether the run converged, ran out of iterations, failed its line search or met a
//! non-finite objective. Only invalid settings or starting points are errors.
//!
//! ```
//! use gendisc_optim::{test_functions::Rosenbrock, Newton, NewtonSettings, Status};
//! use ndarray::array;
//!
//! let settings = NewtonSettings { gradient_tolerance: 1e-10, ..Default::default() };
//! let solution = Newton::new(settings).minimize(&Rosenbrock::default(), array![-1.2, 1.0].view())?;
//! assert_eq!(solution.report.status, Status::Converged);
//! assert!(solution.report.gradient_norm <= 1e-10);
//! # Ok::<(), gendisc_core::Error>(())
//! ```

pub mod first_order;
pub mod newton;
mod objective;
mod report;
pub mod socp;
pub mod test_functions;

pub use first_order::{
    ConjugateGradient, ConjugateGradientSettings, Lbfgs, LbfgsSettings, DEFAULT_VALUE_TOLERANCE,
    MAX_RESTARTS,
};
pub use newton::{newton_direction, DirectionKind, Newton, NewtonDirection, NewtonSettings};
pub use objective::{Objective, TwiceDifferentiable};
pub use report::{Report, Solution, Status};
pub use socp::{Affine, Socp, SocpSettings, SocpSolution, SocpStatus};
