//! Linear support vector machines, soft and hard margin, on dense or sparse input.
//!
//! [`LinearSvm::params`] → [`LinearSvmParams`] → [`fit`](gendisc_core::Fit::fit) (dense),
//! [`fit_weighted`](gendisc_core::FitWeighted::fit_weighted),
//! [`fit_sparse`](LinearSvmParams::fit_sparse) (`sprs` CSR) → [`LinearSvm`], with a
//! [`FitReport`] per binary problem.
//!
//! # The problem
//!
//! Classes `0/1` become `y_i = −1/+1`. Every row is augmented with a constant `B`
//! ([`bias_scaling`](LinearSvmParams::bias_scaling)), `x̃_i = (x_i, B)`, `w̃ = (w, w_b)`, and
//! the soft-margin SVM
//!
//! ```text
//! min_w̃  ½‖w̃‖² + Σ_i C_i max(0, 1 − y_i w̃ᵀx̃_i),     C_i = C · (sample weight)_i,
//! ```
//!
//! is solved through its dual by coordinate descent — Hsieh, Chang, Lin, Keerthi &
//! Sundararajan (2008), "A dual coordinate descent method for large-scale linear SVM",
//! ICML: the primal is their eq. (1) with the L1 (hinge) loss of eq. (2) and the bias of
//! eq. (3), the dual is eq. (4), the iteration is Algorithm 1 with random permutation (§3.1)
//! and optional shrinking (§3.2, Algorithm 3). This is liblinear's `-s 3` solver and
//! scikit-learn's `LinearSVC(loss="hinge", dual=True)`. The decision function is
//! `f(x) = w·x + b` with `b = B·w_b`.
//!
//! # The intercept is regularised
//!
//! The penalty `½‖w̃‖²` includes `½ w_b² = ½ (b/B)²`, so unlike the textbook SVM
//! (`min ½‖w‖² + C Σ ξ_i` with `b` free) the intercept is shrunk towards 0. The textbook
//! dual carries the equality constraint `Σ α_i y_i = 0`, which one-coordinate updates cannot
//! keep; augmenting the rows removes it. A larger `B` weakens the penalty on `b` and
//! approaches the textbook solution, at the cost of slower convergence (`Q_ii` grows with
//! `B²`). With [`fit_intercept(false)`](LinearSvmParams::fit_intercept) there is no
//! intercept at all.
//!
//! Epshteyn & DeJong's SVM baseline (their eq. (5.1), `min Σ ξ_i + C₁‖w‖²`) is this problem
//! with `C = 1/(2C₁)` (divide by `2C₁`); their intercept is unpenalised, which a large
//! `bias_scaling` approximates.
//!
//! # Stopping and accuracy
//!
//! The run stops when the spread of the projected gradient is at most
//! [`tol`](LinearSvmParams::tol) (in functional-margin units; the KKT conditions then hold to
//! about `tol`), or after [`max_iter`](LinearSvmParams::max_iter) outer iterations, flagged
//! [`FitStatus::MaxIterations`]. Each report carries the primal and dual objectives and their
//! gap; since the primal is 1-strongly convex in `w̃`, `‖w̃ − w̃*‖ ≤ √(2·gap)`
//! ([`FitReport::weight_error_bound`]). The dual solution `α` need not be unique; `w̃` is.
//!
//! # Hard margin
//!
//! [`hard_margin`](LinearSvmParams::hard_margin) solves the same dual with the upper bound
//! removed (`C = ∞`). On non-separable classes the dual is unbounded; the fit returns
//! [`gendisc_core::Error::Infeasible`] with a certificate (see [`Margin::Hard`] for the
//! test and its limits).
//!
//! # Several classes
//!
//! `K ≥ 3` classes are fitted one-vs-rest (class `k` against all others, each with the same
//! costs `C_i`), as scikit-learn's `LinearSVC` does; prediction takes the largest score.
//!
//! # Golden tests
//!
//! `tests/integration/svm_golden.rs` compares coefficients, intercepts and decision values with
//! scikit-learn's `LinearSVC(loss="hinge", dual=True, tol=1e-10)` on generated data (dense
//! and sparse, weighted, several `C` and `intercept_scaling`, one-vs-rest) and on the UCI
//! ionosphere data; the fixtures and the script that made them are in
//! `tests/fixtures/svm/`.

mod dual_cd;
mod model;
mod params;
mod report;
mod rows;

pub use model::LinearSvm;
pub use params::{LinearSvmParams, LinearSvmValidParams, Margin, DEFAULT_MIN_MARGIN};
pub use report::{FitReport, FitStatus};
