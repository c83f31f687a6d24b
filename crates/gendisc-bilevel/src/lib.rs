#![doc = include_str!("../README.md")]

mod algorithm;
pub mod elliptical;
mod model;
mod params;
pub mod scale;
pub mod transfer;

pub use algorithm::{extreme_point, FitReport, FitStatus, Iteration};
pub use elliptical::Generator;
pub use model::BilevelClassifier;
pub use params::{
    BilevelParams, BilevelValidParams, GenerativePrior, Margin, DEFAULT_MAX_ITER, DEFAULT_TOL,
};
pub use scale::ScaleMatrix;
pub use transfer::{Distance, TransferPrior};
