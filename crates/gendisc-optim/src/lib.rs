#![doc = include_str!("../README.md")]

pub mod first_order;
pub mod lbfgs;
mod method;
pub mod newton;
mod objective;
mod report;
pub mod socp;
pub mod test_functions;
pub mod trust_region;

pub use first_order::{
    ConjugateGradient, ConjugateGradientSettings, DEFAULT_VALUE_TOLERANCE, MAX_RESTARTS,
};
pub use lbfgs::{Lbfgs, LbfgsSettings};
pub use method::{AutoSettings, Method, Minimizer, AUTO_MAX_HESSIAN_COST, AUTO_MAX_NEWTON_DIM};
pub use newton::{newton_direction, DirectionKind, Newton, NewtonDirection, NewtonSettings};
pub use objective::{Objective, TwiceDifferentiable};
pub use report::{Convergence, Criterion, Report, Solution, Status};
pub use socp::{Affine, Socp, SocpSettings, SocpSolution};
pub use trust_region::{TrustRegion, TrustRegionSettings};
