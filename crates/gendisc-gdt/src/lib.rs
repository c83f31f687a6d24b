#![doc = include_str!("../README.md")]

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
