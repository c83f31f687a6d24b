//! Random data generators: the building blocks and the simulated datasets of the papers.
//!
//! * [`MultivariateNormal`] — `N(μ, Σ)` sampled through the Cholesky factor of `Σ`;
//! * [`DependentBernoulli`] — binary vectors whose features are independent or depend on one
//!   earlier feature, with their analytic mean and covariance (Xue & Titterington §3.4);
//! * [`XueTitteringtonPreset`] — the twelve datasets of Xue & Titterington §3.1.4–3.5, each with
//!   its two [`ClassDistribution`]s;
//! * [`BouchardTriggsSimulation`] — the two simulations of Bouchard & Triggs §4;
//! * [`random_separator`] — a separating hyperplane drawn at random from the version space of a
//!   training set (hit-and-run), Ng & Jordan's treatment of separable samples (§4), with
//!   [`perceptron_separator`] for its starting point.
//!
//! Every sampler takes any [`rand::Rng`]; studies pass a `rand_chacha::ChaCha8Rng` derived with
//! [`replicate_rng`](crate::splits::replicate_rng), so that a draw depends only on its seed.
//! Draw orders are documented on each type, because they are part of what makes a result
//! reproducible.

mod bernoulli;
pub mod bouchard_triggs;
mod class_distribution;
mod normal;
mod version_space;
pub mod xue_titterington;
mod xue_titterington_printed;

pub use bernoulli::{BernoulliFeature, DependentBernoulli};
pub use bouchard_triggs::BouchardTriggsSimulation;
pub use class_distribution::ClassDistribution;
pub use normal::MultivariateNormal;
pub use version_space::{perceptron_separator, random_separator};
pub use xue_titterington::{CovarianceStructure, FeatureFamily, XueTitteringtonPreset};
pub use xue_titterington_printed::ClassMoments;
