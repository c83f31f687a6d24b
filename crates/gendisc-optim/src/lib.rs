#![doc = include_str!("../README.md")]

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
