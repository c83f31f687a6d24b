//! # gendisc-bilevel
//!
//! Epshteyn & DeJong's discriminative classifier constrained by a generative prior
//! ("Generative prior knowledge for discriminative classification", JAIR 2007), fitted by the
//! alternating second-order cone programs of their §4.
//!
//! Class 0 (`y = −1`) is modelled as `X ~ E(μ₁, Σ₁, g)` and class 1 (`y = +1`) as
//! `X ~ E(μ₂, Σ₂, g)`, with hyper-priors `μ_i ~ E(t_i, Ω_i, g)` ([`GenerativePrior`]). The
//! classifier is the hyperplane `wᵀx + b` of largest margin on the training data that is also
//! nearly Bayes-optimal for some means `μ_i` the hyper-prior finds likely:
//!
//! * **step 1** (`μ` fixed): the SOCP (4.10)–(4.14) — or its soft-margin form (4.17)–(4.24)
//!   with slacks `ξ_i` (cost `C₁`), `ζ_i` (`C₂`) — solved by Clarabel through
//!   [`gendisc_optim::Socp`];
//! * **step 2** (`w, b` fixed): (4.15)–(4.16), maximising a linear function over an ellipsoid,
//!   in closed form ([`extreme_point`]); in the soft program it also sets the hyper-prior slacks
//!   `ν_i` (cost `C₃`; `C₃ = ∞` keeps (4.19) hard);
//!
//! repeated until `(w, b, μ₁, μ₂)` stops changing. Each step minimises the same objective over
//! its own block of variables, so the objective never increases (Theorem 4.1); the
//! [`FitReport`] records it per iteration.
//!
//! `β` and `φ` are given directly (the paper's §5 uses `β = 0.2`, `φ = 0.01`) or converted from
//! a tail probability `η` and a density level `δ` for a [`Generator`] (Propositions 3.1–3.2).
//!
//! ```
//! use gendisc_bilevel::{BilevelClassifier, GenerativePrior};
//! use gendisc_core::{Classifier, Fit};
//! use ndarray::array;
//!
//! let prior = GenerativePrior::diagonal(
//!     [array![-1.0, 0.0], array![1.0, 0.0]],
//!     [array![0.1, 0.1], array![0.1, 0.1]],
//! )?;
//! let x = array![[-1.5, 0.3], [-0.8, -0.2], [1.2, 0.1], [0.9, -0.4]];
//! let y = array![0, 0, 1, 1];
//! let model = BilevelClassifier::params(prior).fit(x.view(), y.view())?;
//! assert_eq!(model.predict(x.view())?, y);
//! # Ok::<(), gendisc_core::Error>(())
//! ```
//!
//! # Priors learned on another task
//!
//! [`transfer`] builds `(t_i, Ω_i)` as §§2 and 5 do: a generative classifier's class means
//! from a training task, compressed by each feature's semantic distance to the class labels
//! (`χ_i(v)`, `σ_i(v)`) and reconstructed from the distances to a new task's labels.
//!
//! # Sparse, high-dimensional input
//!
//! Training rows may be sparse ([`BilevelValidParams::fit_sparse`]); step 1's data
//! constraints then hold only the non-zeros. `Σ_i` and `Ω_i` may be identities or diagonals
//! ([`ScaleMatrix`]) at `O(n)` cost; the cones `‖Σ_i^{1/2} w‖` and `‖w‖` have `n` rows each,
//! so a step-1 program has about `3n + m` rows. Dense `Σ_i`/`Ω_i` are supported but cost
//! `O(n²)`.

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
