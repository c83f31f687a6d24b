#![doc = include_str!("../README.md")]

mod features;
mod fit;
mod model;
mod model_file;
mod multiclass;
mod params;
mod shared;
mod sparse;

pub use model::{Hybrid, HybridReport};
pub use params::{HybridParams, HybridValidParams, Intercept, Normalization, ThetaSolver};
pub use shared::RegionLikelihoods;
pub use sparse::{SparseHybrid, SparseRegionGenerative};
