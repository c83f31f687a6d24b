#![doc = include_str!("../README.md")]

pub mod cv;
mod discriminative_end;
pub mod existence;
pub mod family;
mod model;
mod objective;
mod params;
pub mod shrinkage;
mod whitening;

pub use cv::{
    CvCriterion, CvSelection, FitOutcome, GdtCv, GdtCvParams, GdtCvValidParams, SelectionRule,
    TABLE1_GRID,
};
pub use existence::{ComponentSeparation, Separation};
pub use family::{Family, Parametrisation, Priors};
pub use gendisc_generative::CovarianceShrinkage;
pub use gendisc_optim::Method;
pub use model::{generative_theta, objective_and_gradient, objective_hessian, Gdt, GdtReport};
pub use params::{
    default_method, paper_conjugate_gradient, paper_conjugate_gradient_settings, GdtParams,
    GdtValidParams, DEFAULT_GDT_GRADIENT_TOLERANCE, DEFAULT_GDT_NEWTON_ITERATIONS,
    DEFAULT_GDT_VALUE_TOLERANCE,
};
