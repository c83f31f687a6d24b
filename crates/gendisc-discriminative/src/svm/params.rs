//! Hyper-parameters of [`LinearSvm`] and the fit itself.

use gendisc_core::validate::{check_training_matrix, check_weights, class_totals};
use gendisc_core::{Error, Fit, FitWeighted, ParamGuard, Result};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use sprs::CsMatView;

use super::dual_cd::{self, BinaryProblem, DualBounds, DualCdSettings};
use super::model::LinearSvm;
use super::report::FitStatus;
use super::rows::{DenseRows, Rows, SparseRows};
use crate::classes::require_two_classes;
use gendisc_core::validate::check_sparse_training_matrix;

/// Default relative margin below which a hard-margin fit declares the classes
/// non-separable (see [`Margin::Hard`]).
///
/// The certificate's margin bound shrinks roughly like 1/iterations. On overlapping classes
/// (3 to 1000 rows, 1 to 50 features) it reached `1e-3` within 4 to 180 outer iterations,
/// `1e-4` within 35 to 1,500 and `1e-6` within 2,000 to 130,000; `1e-3` keeps detection within
/// the default `max_iter` while only declaring non-separable classes whose best margin is below
/// a thousandth of the largest row norm.
pub const DEFAULT_MIN_MARGIN: f64 = 1e-3;

/// Soft or hard margin.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Margin {
    /// Hinge loss with cost `C > 0`: `min ½‖w̃‖² + C Σ_i s_i max(0, 1 − y_i f(x_i))`
    /// (`s_i` the sample weights, 1 by default).
    Soft {
        /// The cost `C`: larger values fit the training data harder.
        c: f64,
    },
    /// `min ½‖w̃‖²` subject to `y_i f(x_i) ≥ 1` for every row: the maximum-margin separating
    /// hyperplane, which exists only for linearly separable classes.
    ///
    /// Solved as the dual of eq. (4) of Hsieh et al. (2008) with the upper bound removed
    /// (`C = ∞`). The dual is bounded exactly when the classes are separable. The fit fails
    /// with [`Error::Infeasible`] as soon as it holds a certificate — a convex combination
    /// `p` of the signed rows `y_i x̃_i` — that no hyperplane separates the classes with a
    /// geometric margin (in the augmented space `x̃ = (x, B)`) above
    /// `min_margin · max_i ‖x̃_i‖`. Limits: classes separable only with a smaller relative
    /// margin are reported as non-separable (numerically they are indistinguishable); and
    /// the certificate's margin bound decays roughly like 1/iterations, so a small
    /// `min_margin` can need many iterations — if `max_iter` comes first with no separating
    /// hyperplane either, the fit fails with [`Error::NotConverged`]. Sample weights are
    /// rejected: a hard margin has no cost to weight.
    Hard {
        /// Relative margin in `(0, 1)`; [`DEFAULT_MIN_MARGIN`] by default.
        min_margin: f64,
    },
}

/// Unchecked hyper-parameters of a linear SVM; [`ParamGuard::check_ref`] validates them.
/// Create with [`LinearSvm::params`].
///
/// | setting | default | meaning |
/// |---|---|---|
/// | [`c`](Self::c) / [`hard_margin`](Self::hard_margin) | soft, `C = 1` | [`Margin`] |
/// | [`fit_intercept`](Self::fit_intercept) | `true` | append the constant feature `B` |
/// | [`bias_scaling`](Self::bias_scaling) | `1` | `B` (scikit-learn's `intercept_scaling`) |
/// | [`tol`](Self::tol) | `1e-4` | stop when the projected-gradient spread is `≤ tol` |
/// | [`max_iter`](Self::max_iter) | `1000` | cap on outer iterations |
/// | [`shrinking`](Self::shrinking) | `true` | Hsieh et al. §3.2 shrinking |
/// | [`seed`](Self::seed) | `0` | seed of the `ChaCha8Rng` that permutes coordinates |
/// | [`require_convergence`](Self::require_convergence) | `false` | stopping at `max_iter` is an error |
///
/// `C`, `tol`, `max_iter` and `B` default to the values of scikit-learn's
/// `LinearSVC(loss="hinge", dual=True)`.
///
/// A soft-margin fit may stop at `max_iter` before `tol` is met: it then returns the model,
/// each binary problem's [`FitReport`](super::FitReport) saying so
/// ([`is_converged`](gendisc_core::Convergence::is_converged) is false), unless
/// [`require_convergence`](Self::require_convergence) is set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinearSvmParams(LinearSvmValidParams);

/// Validated hyper-parameters of a linear SVM: what actually fits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinearSvmValidParams {
    margin: Margin,
    fit_intercept: bool,
    bias_scaling: f64,
    tol: f64,
    max_iter: usize,
    shrinking: bool,
    seed: u64,
    /// Absent from parameters serialised before the setting existed, which did not ask.
    #[serde(default)]
    require_convergence: bool,
}

impl Default for LinearSvmParams {
    fn default() -> Self {
        Self(LinearSvmValidParams {
            margin: Margin::Soft { c: 1.0 },
            fit_intercept: true,
            bias_scaling: 1.0,
            tol: 1e-4,
            max_iter: 1000,
            shrinking: true,
            seed: 0,
            require_convergence: false,
        })
    }
}

impl LinearSvmParams {
    /// The default settings (see the table above).
    pub fn new() -> Self {
        Self::default()
    }

    /// A soft margin with cost `C` (finite, `> 0`).
    pub fn c(mut self, c: f64) -> Self {
        self.0.margin = Margin::Soft { c };
        self
    }

    /// A hard margin with the default non-separability threshold [`DEFAULT_MIN_MARGIN`].
    pub fn hard_margin(mut self) -> Self {
        self.0.margin = Margin::Hard {
            min_margin: DEFAULT_MIN_MARGIN,
        };
        self
    }

    /// Sets the margin explicitly.
    pub fn margin(mut self, margin: Margin) -> Self {
        self.0.margin = margin;
        self
    }

    /// Whether to fit an intercept `b` by appending the constant feature `B`
    /// ([`bias_scaling`](Self::bias_scaling)); without it the hyperplane passes through 0.
    pub fn fit_intercept(mut self, fit_intercept: bool) -> Self {
        self.0.fit_intercept = fit_intercept;
        self
    }

    /// The constant `B > 0` appended to every row. The intercept is `b = B·w_b` and its
    /// penalty `½ w_b² = ½ (b/B)²`: a larger `B` regularises the intercept less (closer to
    /// the textbook unpenalised bias) but slows convergence.
    pub fn bias_scaling(mut self, bias_scaling: f64) -> Self {
        self.0.bias_scaling = bias_scaling;
        self
    }

    /// Stopping tolerance `tol > 0` on the spread of the projected gradient,
    /// `max_i ∇ᴾ_i f − min_i ∇ᴾ_i f ≤ tol` (liblinear's and scikit-learn's criterion, with 0
    /// included in the max and the min). The
    /// gradient `∇_i f = y_i f(x_i) − 1` is in units of the functional margin, so at
    /// convergence every KKT condition holds to about `tol`: `y_i f(x_i) ≥ 1 − tol` where
    /// `α_i = 0`, `|y_i f(x_i) − 1| ≤ tol` where `0 < α_i < C_i`, `y_i f(x_i) ≤ 1 + tol` where
    /// `α_i = C_i`.
    pub fn tol(mut self, tol: f64) -> Self {
        self.0.tol = tol;
        self
    }

    /// Maximum number of outer iterations (`≥ 1`). A soft-margin fit that reaches it before
    /// [`tol`](Self::tol) holds returns the model with
    /// [`FitStatus::MaxIterations`](super::FitStatus::MaxIterations) in its reports, unless
    /// [`require_convergence`](Self::require_convergence) is set.
    pub fn max_iter(mut self, max_iter: usize) -> Self {
        self.0.max_iter = max_iter;
        self
    }

    /// Whether stopping at [`max_iter`](Self::max_iter) is an error (default `false`).
    ///
    /// By default a binary problem that reaches `max_iter` before its projected-gradient
    /// spread falls to `tol` keeps the weights where it stopped, and only its
    /// [`FitReport`](super::FitReport) (and [`is_converged`](gendisc_core::Convergence::is_converged))
    /// says so. With `true` the fit fails instead with [`Error::NotConverged`], naming the
    /// problem, its iterations and its duality gap. (A hard margin that reaches `max_iter`
    /// undecided is always an error: see [`Margin::Hard`].)
    pub fn require_convergence(mut self, require: bool) -> Self {
        self.0.require_convergence = require;
        self
    }

    /// Whether to shrink the working set (Hsieh et al. 2008, §3.2, Algorithm 3; default `true`).
    /// It changes the path, not the optimum. Unlike liblinear, the full set is also restored
    /// when a shrunk one has taken twenty full passes' worth of updates without meeting the
    /// tolerance, so that a coordinate shrunk at the wrong bound cannot stall the run.
    pub fn shrinking(mut self, shrinking: bool) -> Self {
        self.0.shrinking = shrinking;
        self
    }

    /// Seed of the `ChaCha8Rng` that draws the coordinate order; sub-problem `k` of a
    /// one-vs-rest fit uses stream `k`. Same seed, same bits.
    ///
    /// The order is drawn over row positions, so permuting the training rows (or replacing a
    /// row of weight `m` by `m` copies) changes the path, and the fit then stops at another
    /// point within `tol`: the weights move by at most the solver's duality bound
    /// ([`FitReport::weight_error_bound`](crate::svm::FitReport::weight_error_bound)), not
    /// to the last bit. A tighter `tol` tightens it.
    pub fn seed(mut self, seed: u64) -> Self {
        self.0.seed = seed;
        self
    }

    /// Validates and fits on a sparse matrix; see [`LinearSvmValidParams::fit_sparse`].
    pub fn fit_sparse(&self, x: CsMatView<'_, f64>, y: ArrayView1<'_, usize>) -> Result<LinearSvm> {
        self.check_ref()?.fit_sparse(x, y)
    }

    /// Validates and fits on a sparse matrix with sample weights; see
    /// [`LinearSvmValidParams::fit_sparse_weighted`].
    pub fn fit_sparse_weighted(
        &self,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: ArrayView1<'_, f64>,
    ) -> Result<LinearSvm> {
        self.check_ref()?.fit_sparse_weighted(x, y, sample_weight)
    }
}

impl ParamGuard for LinearSvmParams {
    type Checked = LinearSvmValidParams;

    fn check_ref(&self) -> Result<&LinearSvmValidParams> {
        let p = &self.0;
        match p.margin {
            Margin::Soft { c } if !(c.is_finite() && c > 0.0) => {
                return Err(Error::invalid_parameter(
                    "c",
                    format!("the cost C must be finite and positive, got {c}"),
                ));
            }
            Margin::Hard { min_margin } if !(min_margin > 0.0 && min_margin < 1.0) => {
                return Err(Error::invalid_parameter(
                    "min_margin",
                    format!("the relative margin must lie in (0, 1), got {min_margin}"),
                ));
            }
            _ => {}
        }
        if p.fit_intercept && !(p.bias_scaling.is_finite() && p.bias_scaling > 0.0) {
            return Err(Error::invalid_parameter(
                "bias_scaling",
                format!(
                    "must be finite and positive, got {} (use fit_intercept(false) for no \
                     intercept)",
                    p.bias_scaling
                ),
            ));
        }
        if !(p.tol.is_finite() && p.tol > 0.0) {
            return Err(Error::invalid_parameter(
                "tol",
                format!("must be finite and positive, got {}", p.tol),
            ));
        }
        if p.max_iter == 0 {
            return Err(Error::invalid_parameter("max_iter", "must be at least 1"));
        }
        Ok(p)
    }

    fn check(self) -> Result<LinearSvmValidParams> {
        self.check_ref()?;
        Ok(self.0)
    }
}

impl LinearSvmValidParams {
    /// The margin.
    pub fn margin(&self) -> Margin {
        self.margin
    }

    /// Whether an intercept is fitted.
    pub fn fit_intercept(&self) -> bool {
        self.fit_intercept
    }

    /// The constant `B` appended to every row when an intercept is fitted.
    pub fn bias_scaling(&self) -> f64 {
        self.bias_scaling
    }

    /// The stopping tolerance.
    pub fn tol(&self) -> f64 {
        self.tol
    }

    /// The cap on outer iterations.
    pub fn max_iter(&self) -> usize {
        self.max_iter
    }

    /// Whether shrinking is on.
    pub fn shrinking(&self) -> bool {
        self.shrinking
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Whether stopping at `max_iter` is an error.
    pub fn require_convergence(&self) -> bool {
        self.require_convergence
    }

    /// Fits on a sparse matrix (CSR; a CSC matrix is converted, one copy). Same model, same
    /// errors as the dense [`Fit::fit`] on the densified matrix.
    pub fn fit_sparse(&self, x: CsMatView<'_, f64>, y: ArrayView1<'_, usize>) -> Result<LinearSvm> {
        check_sparse_training_matrix(x)?;
        with_csr(x, |rows| self.fit_rows(rows, y, None, None)).map(|(model, _)| model)
    }

    /// [`fit_sparse`](Self::fit_sparse) of a two-class problem with dual coordinate descent
    /// started from `start` (the dual variables of an earlier fit, one per row; the rows past
    /// its end start at 0), returning the model and its dual variables `α`. The optimum is
    /// the cold fit's; only the path, and so the rounding of the result, differs.
    pub(crate) fn fit_sparse_binary_from(
        &self,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
        start: Option<&[f64]>,
    ) -> Result<(LinearSvm, Vec<f64>)> {
        check_sparse_training_matrix(x)?;
        with_csr(x, |rows| self.fit_rows(rows, y, None, start))
    }

    /// Fits on a sparse matrix with sample weights (see [`FitWeighted::fit_weighted`]).
    pub fn fit_sparse_weighted(
        &self,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: ArrayView1<'_, f64>,
    ) -> Result<LinearSvm> {
        check_sparse_training_matrix(x)?;
        check_weights(sample_weight, x.rows())?;
        with_csr(x, |rows| self.fit_rows(rows, y, Some(sample_weight), None))
            .map(|(model, _)| model)
    }

    /// The fit proper: one binary problem per one-vs-rest split, each from `start` if given
    /// (two classes only), with the dual variables of the last problem.
    fn fit_rows<R: Rows>(
        &self,
        rows: &R,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
        start: Option<&[f64]>,
    ) -> Result<(LinearSvm, Vec<f64>)> {
        let n = rows.n_rows();
        let n_classes = count_classes(y, n, sample_weight)?;
        if start.is_some() && n_classes != 2 {
            return Err(Error::invalid_parameter(
                "start",
                "a warm start is one problem's dual variables: two classes only",
            ));
        }
        let upper_bounds: Vec<f64> = match (self.margin, sample_weight) {
            (Margin::Soft { c }, Some(w)) => w.iter().map(|&wi| c * wi).collect(),
            (Margin::Soft { c }, None) => vec![c; n],
            (Margin::Hard { .. }, Some(_)) => {
                return Err(Error::invalid_parameter(
                    "margin",
                    "sample weights scale the cost C_i = C·w_i of a soft margin; a hard margin \
                     has no cost to weight",
                ));
            }
            (Margin::Hard { .. }, None) => Vec::new(),
        };
        if let Some(row) = upper_bounds.iter().position(|u| !u.is_finite()) {
            return Err(Error::InvalidValue {
                what: "sample weights".into(),
                row,
                column: 0,
                value: sample_weight.map_or(1.0, |w| w[row]),
                reason: "the cost C·w_i overflows".into(),
            });
        }
        let bounds = match self.margin {
            Margin::Soft { .. } => DualBounds::Box(&upper_bounds),
            Margin::Hard { min_margin } => DualBounds::NonNegative { min_margin },
        };
        let bias = if self.fit_intercept {
            self.bias_scaling
        } else {
            0.0
        };
        let settings = DualCdSettings {
            tol: self.tol,
            max_iter: self.max_iter,
            shrinking: self.shrinking,
        };

        // Two classes: one problem, class 1 positive. K ≥ 3: class k against the rest.
        let n_problems = if n_classes == 2 { 1 } else { n_classes };
        let mut coef = Array2::zeros((n_problems, rows.n_features()));
        let mut intercept = Array1::zeros(n_problems);
        let mut reports = Vec::with_capacity(n_problems);
        let mut signs = vec![0.0; n];
        let mut alpha = Vec::new();
        for k in 0..n_problems {
            let positive = if n_classes == 2 { 1 } else { k };
            for (s, &label) in signs.iter_mut().zip(y.iter()) {
                *s = if label == positive { 1.0 } else { -1.0 };
            }
            let name = if n_classes == 2 {
                "class 1 vs class 0".to_string()
            } else {
                format!("class {k} vs rest")
            };
            let problem = BinaryProblem {
                rows,
                signs: &signs,
                bounds,
                bias,
                name: &name,
            };
            let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
            rng.set_stream(k as u64);
            let solution = dual_cd::solve(&problem, &settings, &mut rng, start)?;
            let report = &solution.report;
            if self.require_convergence && report.status == FitStatus::MaxIterations {
                return Err(Error::NotConverged {
                    what: format!("linear SVM ({name})"),
                    iterations: report.iterations,
                    detail: format!(
                        "projected-gradient spread {:e} above tol {:e}, duality gap {:e}; raise \
                         max_iter or loosen tol",
                        report.projected_gradient_gap, self.tol, report.duality_gap
                    ),
                });
            }
            coef.row_mut(k).assign(&ArrayView1::from(&solution.weights));
            intercept[k] = bias * solution.bias_weight;
            reports.push(solution.report);
            alpha = solution.alpha;
        }
        Ok((
            LinearSvm::from_parts(coef, intercept, n_classes, reports),
            alpha,
        ))
    }
}

impl Fit for LinearSvmValidParams {
    type Model = LinearSvm;

    /// Fits on a dense matrix `x` (`n × d`) and classes `y ∈ 0..K`, `K ≥ 2`, every class
    /// present. A soft margin may stop at `max_iter`: see
    /// [`require_convergence`](LinearSvmParams::require_convergence).
    fn fit(&self, x: ArrayView2<'_, f64>, y: ArrayView1<'_, usize>) -> Result<LinearSvm> {
        check_training_matrix(x)?;
        self.fit_rows(&DenseRows::new(x), y, None, None)
            .map(|(model, _)| model)
    }
}

impl FitWeighted for LinearSvmValidParams {
    /// Fits with per-row costs `C_i = C·w_i` (soft margin only). A row with `w_i = 0` is
    /// ignored; all-ones weights give the unweighted fit. Class weights are sample weights
    /// `w_i = c_{y_i}`.
    fn fit_weighted(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: ArrayView1<'_, f64>,
    ) -> Result<LinearSvm> {
        check_training_matrix(x)?;
        check_weights(sample_weight, x.nrows())?;
        self.fit_rows(&DenseRows::new(x), y, Some(sample_weight), None)
            .map(|(model, _)| model)
    }
}

/// Runs `f` on the rows of `x` in CSR storage, converting CSC input.
fn with_csr<T>(x: CsMatView<'_, f64>, f: impl FnOnce(&SparseRows<'_>) -> Result<T>) -> Result<T> {
    if x.is_csr() {
        f(&SparseRows::new(x))
    } else {
        let csr = x.to_csr();
        f(&SparseRows::new(csr.view()))
    }
}

/// The number of classes `K = max(y) + 1`, after checking that `y` has one label per row,
/// that it holds two classes at least and that every class has a row of positive weight.
fn count_classes(
    y: ArrayView1<'_, usize>,
    n_rows: usize,
    sample_weight: Option<ArrayView1<'_, f64>>,
) -> Result<usize> {
    if y.len() != n_rows {
        return Err(Error::shape_mismatch(
            "length of y vs rows of x",
            n_rows,
            y.len(),
        ));
    }
    require_two_classes(y, "a linear SVM")?;
    let largest = y.iter().copied().max().unwrap_or(0);
    if largest >= n_rows {
        // More classes than rows: some class below n_rows has no row. Finding it this way
        // also avoids allocating per-class totals for an absurd label.
        let mut seen = vec![false; n_rows];
        y.iter()
            .filter(|&&k| k < n_rows)
            .for_each(|&k| seen[k] = true);
        let class = seen.iter().position(|&s| !s).unwrap_or(n_rows);
        return Err(Error::EmptyClass {
            class,
            detail: Some(format!(
                "classes must be 0..K with every class present; the largest label is {largest}"
            )),
        });
    }
    let n_classes = largest + 1;
    class_totals(y, sample_weight, n_classes)?;
    Ok(n_classes)
}
