//! The regularised multi-task SVM of Evgeniou & Pontil (2004), as Epshteyn & DeJong state it
//! (their eqs. (5.3)–(5.5)).
//!
//! Tasks `t = 1..T` share a feature space; task `t` has its own hyperplane `f_t(x) = w_tᵀx + b_t`
//! and all hyperplanes are pulled towards a common `w₀`:
//!
//! ```text
//! min_{w₀, w_t, b_t, ξ}  Σ_t Σ_i ξ_it + (C₁/C₂) Σ_t ‖w_t − w₀‖² + C₁ ‖w₀‖²      (5.3)
//! s.t.  y_it (w_tᵀ x_it + b_t) ≥ 1 − ξ_it,   ξ_it ≥ 0.                       (5.4)–(5.5)
//! ```
//!
//! # The two limits
//!
//! As printed, a *small* `C₂` makes the coupling term `(C₁/C₂)Σ‖w_t − w₀‖²` dominate, so all
//! `w_t = w₀` and the fit is one SVM on the pooled data (`min Σξ + C₁‖w₀‖²`, i.e.
//! [`LinearSvm`] with `C = 1/(2C₁)`, with one intercept per task). A *large*
//! `C₂` removes the coupling: `w₀ = Σ_t w_t / (T + C₂) → 0` and each task is its own SVM with
//! penalty `(C₁/C₂)‖w_t‖²` (`C = C₂/(2C₁)`). The paper's `C₁ = 1`, `C₂ = 1000` is therefore
//! close to the decoupled end.
//!
//! # How it is solved
//!
//! With `v_t = w_t − w₀` the objective is `Σξ + (C₁/C₂)Σ‖v_t‖² + C₁‖w₀‖²`, a convex quadratic
//! with a diagonal Hessian and linear constraints whose rows hold only the non-zeros of the
//! data. Two solvers ([`MultiTaskSolver`]):
//!
//! * **interior point** (the default): the QP handed to the solver behind
//!   [`gendisc_optim::Socp`], exact, intercepts unpenalised, infeasibility and non-convergence
//!   as typed errors. Its KKT factorisation couples every two rows that share a feature, which
//!   is cheap for a few hundred rows, and dense — cubic in the rows — for thousands of text
//!   documents that share words;
//! * **dual coordinate descent**: Evgeniou & Pontil's reduction of (5.3) to one linear SVM on
//!   an enlarged feature map, solved by [`LinearSvm`]; the cost grows with the non-zeros, and
//!   the one approximation is a penalty `(b_t/B)²` on the intercepts.
//!
//! Input may be dense ([`MultiTaskSvmValidParams::fit`]) or sparse
//! ([`MultiTaskSvmValidParams::fit_sparse`]).

use gendisc_core::validate::{
    check_finite_matrix, check_finite_sparse, check_labels, check_prediction_matrix,
    check_sparse_prediction_matrix,
};
use gendisc_core::{Convergence, Error, ParamGuard, Result};
use gendisc_optim::{Affine, Report, Socp, SocpSettings, Status};
use ndarray::{Array1, ArrayView1, ArrayView2};
use sprs::{CsMat, CsMatView};

use crate::svm::LinearSvm;

/// How (5.3)–(5.5) is solved.
#[derive(Debug, Clone, PartialEq)]
pub enum MultiTaskSolver {
    /// The quadratic program as it stands, by the interior-point solver behind
    /// [`gendisc_optim::Socp`]: exact, with unpenalised intercepts. Its KKT factorisation
    /// couples every pair of rows that share a feature, so it suits a few hundred rows; on
    /// thousands of text rows it is slow.
    InteriorPoint(SocpSettings),
    /// Evgeniou & Pontil's reduction to one SVM: with `u₀ = √C₁·w₀` and
    /// `u_t = √(C₁/C₂)·(w_t − w₀)`, (5.3) is `Σξ + ‖u‖²` over the feature map
    /// `φ(x, t) = (x/√C₁, 0, …, √(C₂/C₁)·x in block t, …, B·e_t)`, a single linear SVM
    /// ([`LinearSvm`], dual coordinate descent, `C = ½`) whose cost grows with the non-zeros.
    /// The intercepts `b_t = B·u_{b,t}` are the one approximation: they are penalised by
    /// `(b_t/B)²`, which vanishes as `intercept_scaling = B` grows (at the price of slower
    /// convergence).
    DualCoordinateDescent {
        /// `B > 0`.
        intercept_scaling: f64,
        /// [`LinearSvm`]'s stopping tolerance on the projected-gradient spread.
        tol: f64,
        /// [`LinearSvm`]'s cap on outer iterations.
        max_iter: usize,
    },
}

impl MultiTaskSolver {
    /// Dual coordinate descent with `B = 10`, `tol = 1e-4` and 10,000 outer iterations.
    pub fn dual_coordinate_descent() -> Self {
        Self::DualCoordinateDescent {
            intercept_scaling: 10.0,
            tol: 1e-4,
            max_iter: 10_000,
        }
    }
}

/// Unchecked parameters of [`MultiTaskSvm`].
///
/// | parameter | meaning | default |
/// |---|---|---|
/// | `c1` | `C₁ > 0` in (5.3) | 1 |
/// | `c2` | `C₂ > 0` in (5.3) | 1000 (the paper's §5 choice) |
/// | `fit_intercept` | per-task intercepts `b_t` (unpenalised); without, `b_t = 0` | `true` |
/// | `solver` | [`MultiTaskSolver`] | interior point, [`SocpSettings::default`] |
/// | `require_convergence` | stopping at the iteration cap is an error for dual coordinate descent too | `false` |
///
/// Both solvers have an iteration cap. The interior-point solver that reaches its cap fails
/// with [`Error::NotConverged`]. Dual coordinate descent that reaches `max_iter` returns the
/// model where it stopped, with [`is_converged`](Convergence::is_converged) false, unless
/// [`require_convergence`](Self::require_convergence) is set.
#[derive(Debug, Clone, PartialEq)]
pub struct MultiTaskSvmParams(MultiTaskSvmValidParams);

/// Validated parameters of [`MultiTaskSvm`]; see [`MultiTaskSvmParams`].
#[derive(Debug, Clone, PartialEq)]
pub struct MultiTaskSvmValidParams {
    c1: f64,
    c2: f64,
    fit_intercept: bool,
    solver: MultiTaskSolver,
    require_convergence: bool,
}

impl Default for MultiTaskSvmParams {
    fn default() -> Self {
        Self(MultiTaskSvmValidParams {
            c1: 1.0,
            c2: 1000.0,
            fit_intercept: true,
            solver: MultiTaskSolver::InteriorPoint(SocpSettings::default()),
            require_convergence: false,
        })
    }
}

impl MultiTaskSvmParams {
    /// Sets `C₁`.
    pub fn c1(mut self, c1: f64) -> Self {
        self.0.c1 = c1;
        self
    }
    /// Sets `C₂`.
    pub fn c2(mut self, c2: f64) -> Self {
        self.0.c2 = c2;
        self
    }
    /// Whether to fit per-task intercepts.
    pub fn fit_intercept(mut self, fit_intercept: bool) -> Self {
        self.0.fit_intercept = fit_intercept;
        self
    }
    /// The interior-point solver with these settings.
    pub fn socp(mut self, socp: SocpSettings) -> Self {
        self.0.solver = MultiTaskSolver::InteriorPoint(socp);
        self
    }
    /// Sets the solver.
    pub fn solver(mut self, solver: MultiTaskSolver) -> Self {
        self.0.solver = solver;
        self
    }
    /// Whether stopping at the iteration cap is an error (default `false`). The interior-point
    /// solver always fails at its cap; dual coordinate descent otherwise returns the model
    /// where it stopped, with [`is_converged`](Convergence::is_converged) false, and with `true` fails with
    /// [`Error::NotConverged`] instead.
    pub fn require_convergence(mut self, require: bool) -> Self {
        self.0.require_convergence = require;
        self
    }
    /// Validates and fits; see [`MultiTaskSvmValidParams::fit`].
    pub fn fit(
        &self,
        tasks: &[(ArrayView2<'_, f64>, ArrayView1<'_, usize>)],
    ) -> Result<MultiTaskSvm> {
        self.check_ref()?.fit(tasks)
    }
    /// Validates and fits on sparse tasks; see [`MultiTaskSvmValidParams::fit_sparse`].
    pub fn fit_sparse(
        &self,
        tasks: &[(CsMatView<'_, f64>, ArrayView1<'_, usize>)],
    ) -> Result<MultiTaskSvm> {
        self.check_ref()?.fit_sparse(tasks)
    }
    /// Validates and fits on sparse tasks from a warm start; see
    /// [`MultiTaskSvmValidParams::fit_sparse_from`].
    pub fn fit_sparse_from(
        &self,
        tasks: &[(CsMatView<'_, f64>, ArrayView1<'_, usize>)],
        start: &[f64],
    ) -> Result<MultiTaskSvm> {
        self.check_ref()?.fit_sparse_from(tasks, start)
    }
}

impl ParamGuard for MultiTaskSvmParams {
    type Checked = MultiTaskSvmValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        for (name, v) in [("c1", self.0.c1), ("c2", self.0.c2)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(Error::invalid_parameter(
                    name,
                    format!("must be finite and positive, got {v}"),
                ));
            }
        }
        if let MultiTaskSolver::DualCoordinateDescent {
            intercept_scaling,
            tol,
            max_iter,
        } = self.0.solver
        {
            for (name, v) in [("intercept_scaling", intercept_scaling), ("tol", tol)] {
                if !(v.is_finite() && v > 0.0) {
                    return Err(Error::invalid_parameter(
                        name,
                        format!("must be finite and positive, got {v}"),
                    ));
                }
            }
            if max_iter == 0 {
                return Err(Error::invalid_parameter("max_iter", "must be at least 1"));
            }
        }
        Ok(&self.0)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}

impl MultiTaskSvmValidParams {
    /// `C₁`.
    pub fn c1(&self) -> f64 {
        self.c1
    }
    /// `C₂`.
    pub fn c2(&self) -> f64 {
        self.c2
    }
    /// The solver.
    pub fn solver(&self) -> &MultiTaskSolver {
        &self.solver
    }
    /// Whether stopping at the iteration cap is an error.
    pub fn require_convergence(&self) -> bool {
        self.require_convergence
    }

    /// Fits on `tasks`, each a design matrix (`m_t × d`, the same `d` for all) and classes in
    /// `{0, 1}` (`0 ↦ y = −1`). A task may have rows of one class only. Dual coordinate
    /// descent may stop at its iteration cap: see
    /// [`require_convergence`](MultiTaskSvmParams::require_convergence).
    pub fn fit(
        &self,
        tasks: &[(ArrayView2<'_, f64>, ArrayView1<'_, usize>)],
    ) -> Result<MultiTaskSvm> {
        // Checked here: the conversion to CSR drops NaN (it keeps entries with |v| > ε).
        for (t, (x, _)) in tasks.iter().enumerate() {
            check_finite_matrix(*x, &format!("x of task {t}"))?;
        }
        let sparse: Vec<CsMat<f64>> = tasks
            .iter()
            .map(|(x, _)| CsMat::csr_from_dense(*x, 0.0))
            .collect();
        let views: Vec<_> = sparse
            .iter()
            .zip(tasks)
            .map(|(x, (_, y))| (x.view(), *y))
            .collect();
        self.fit_sparse(&views)
    }

    /// [`fit`](Self::fit) on sparse design matrices (CSR or CSC; CSC is converted once).
    pub fn fit_sparse(
        &self,
        tasks: &[(CsMatView<'_, f64>, ArrayView1<'_, usize>)],
    ) -> Result<MultiTaskSvm> {
        self.fit_sparse_impl(tasks, None)
    }

    /// [`fit_sparse`](Self::fit_sparse) by dual coordinate descent started warm: `start`
    /// holds dual variables for the first `start.len()` rows of the tasks in order (the
    /// others start at 0), e.g. the [`dual_variables`](MultiTaskSvm::dual_variables) of a fit
    /// on the first tasks alone, whose rows and feature map are the same. The program is
    /// convex, so the optimum is the cold fit's; the start shortens the path to it (and
    /// changes the result within the tolerance). An [`Error::InvalidParameter`] for the
    /// interior-point solver, an [`Error::ShapeMismatch`] for a start longer than the rows.
    pub fn fit_sparse_from(
        &self,
        tasks: &[(CsMatView<'_, f64>, ArrayView1<'_, usize>)],
        start: &[f64],
    ) -> Result<MultiTaskSvm> {
        if let MultiTaskSolver::InteriorPoint(_) = self.solver {
            return Err(Error::invalid_parameter(
                "start",
                "only dual coordinate descent starts from dual variables",
            ));
        }
        let rows: usize = tasks.iter().map(|(x, _)| x.rows()).sum();
        if start.len() > rows {
            return Err(Error::shape_mismatch(
                "dual variables of the start vs rows of the tasks",
                rows,
                start.len(),
            ));
        }
        self.fit_sparse_impl(tasks, Some(start))
    }

    fn fit_sparse_impl(
        &self,
        tasks: &[(CsMatView<'_, f64>, ArrayView1<'_, usize>)],
        start: Option<&[f64]>,
    ) -> Result<MultiTaskSvm> {
        let Some((first, _)) = tasks.first() else {
            return Err(Error::Empty {
                what: "tasks".into(),
            });
        };
        let d = first.cols();
        if d == 0 {
            return Err(Error::Empty {
                what: "x of task 0 (no columns)".into(),
            });
        }
        for (t, (x, y)) in tasks.iter().enumerate() {
            if x.cols() != d {
                return Err(Error::shape_mismatch(
                    format!("columns of x of task {t} vs task 0"),
                    d,
                    x.cols(),
                ));
            }
            if x.rows() == 0 {
                return Err(Error::Empty {
                    what: format!("x of task {t} (no rows)"),
                });
            }
            check_finite_sparse(*x, &format!("x of task {t}"))?;
            check_labels(*y, x.rows(), 2)?;
        }
        // CSC tasks are converted once; CSR tasks are used as they are.
        let converted: Vec<Option<CsMat<f64>>> = tasks
            .iter()
            .map(|(x, _)| (!x.is_csr()).then(|| x.to_csr()))
            .collect();
        let tasks: Vec<(CsMatView<'_, f64>, ArrayView1<'_, usize>)> = tasks
            .iter()
            .zip(&converted)
            .map(|((x, y), csr)| (csr.as_ref().map_or(*x, |c| c.view()), *y))
            .collect();
        match &self.solver {
            MultiTaskSolver::InteriorPoint(settings) => self.fit_interior_point(&tasks, settings),
            &MultiTaskSolver::DualCoordinateDescent {
                intercept_scaling,
                tol,
                max_iter,
            } => self.fit_dual_cd(&tasks, intercept_scaling, tol, max_iter, start),
        }
    }

    fn fit_interior_point(
        &self,
        tasks: &[(CsMatView<'_, f64>, ArrayView1<'_, usize>)],
        settings: &SocpSettings,
    ) -> Result<MultiTaskSvm> {
        let d = tasks[0].0.cols();
        let n_tasks = tasks.len();
        let mut socp = Socp::new("multi-task SVM (5.3)-(5.5)");
        let w0 = socp.add_variables(d);
        let v = socp.add_variables(n_tasks * d);
        let b = socp.add_variables(n_tasks);
        let coupling = self.c1 / self.c2;
        for j in 0..d {
            socp.add_quadratic(w0 + j, w0 + j, self.c1);
        }
        for k in 0..n_tasks * d {
            socp.add_quadratic(v + k, v + k, coupling);
        }
        if !self.fit_intercept {
            for t in 0..n_tasks {
                socp.add_equality(Affine::var(b + t));
            }
        }
        let mut terms = Vec::new();
        for (t, (x, y)) in tasks.iter().enumerate() {
            let xi = socp.add_variables(x.rows());
            socp.minimize_linear(Affine {
                terms: (0..x.rows()).map(|i| (xi + i, 1.0)).collect(),
                constant: 0.0,
            });
            for (i, (row, &label)) in x.outer_iterator().zip(y.iter()).enumerate() {
                let s = if label == 1 { 1.0 } else { -1.0 };
                terms.clear();
                for (j, &value) in row.iter().filter(|&(_, &value)| value != 0.0) {
                    terms.push((w0 + j, -s * value));
                    terms.push((v + t * d + j, -s * value));
                }
                terms.push((b + t, -s));
                terms.push((xi + i, -1.0));
                socp.add_inequality(Affine {
                    terms: terms.clone(),
                    constant: 1.0,
                }); // (5.4)
                socp.add_lower_bound(xi + i, 0.0); // (5.5)
            }
        }
        let sol = socp.solve(settings)?;
        let w0v = Array1::from(sol.x[w0..w0 + d].to_vec());
        let weights = (0..n_tasks)
            .map(|t| &w0v + &Array1::from(sol.x[v + t * d..v + (t + 1) * d].to_vec()))
            .collect();
        Ok(MultiTaskSvm {
            w0: w0v,
            weights,
            intercepts: sol.x[b..b + n_tasks].to_vec(),
            objective: sol.objective,
            dual: None,
            report: sol.report(),
        })
    }

    fn fit_dual_cd(
        &self,
        tasks: &[(CsMatView<'_, f64>, ArrayView1<'_, usize>)],
        intercept_scaling: f64,
        tol: f64,
        max_iter: usize,
        start: Option<&[f64]>,
    ) -> Result<MultiTaskSvm> {
        let d = tasks[0].0.cols();
        let n_tasks = tasks.len();
        let shared = self.c1.sqrt().recip();
        let own = (self.c2 / self.c1).sqrt();
        let intercept = self.fit_intercept.then_some(intercept_scaling);
        let phi = augmented_design(tasks, shared, own, intercept);
        let labels: Vec<usize> = tasks.iter().flat_map(|(_, y)| y.iter().copied()).collect();
        let (svm, alpha) = LinearSvm::params()
            .c(0.5)
            .fit_intercept(false)
            .tol(tol)
            .max_iter(max_iter)
            .require_convergence(self.require_convergence)
            .check()?
            .fit_sparse_binary_from(phi.view(), ArrayView1::from(&labels), start)
            .map_err(|e| match e {
                Error::NotConverged {
                    iterations, detail, ..
                } => Error::NotConverged {
                    what: "multi-task SVM (dual coordinate descent)".into(),
                    iterations,
                    detail,
                },
                other => other,
            })?;
        let u = svm.coef().row(0).to_owned();
        let w0 = u.slice(ndarray::s![..d]).mapv(|u0| u0 * shared);
        let weights: Vec<Array1<f64>> = (0..n_tasks)
            .map(|t| {
                let block = u.slice(ndarray::s![(t + 1) * d..(t + 2) * d]);
                &w0 + &block.mapv(|ut| ut * own)
            })
            .collect();
        let intercepts: Vec<f64> = (0..n_tasks)
            .map(|t| match self.fit_intercept {
                true => u[d * (n_tasks + 1) + t] * intercept_scaling,
                false => 0.0,
            })
            .collect();
        let mut model = MultiTaskSvm {
            w0,
            weights,
            intercepts,
            objective: 0.0,
            report: svm.solver_reports()[0],
            dual: Some(alpha),
        };
        model.objective = model.objective_on(tasks, self.c1, self.c2);
        model.report.value = model.objective;
        Ok(model)
    }
}

/// Evgeniou & Pontil's feature map, row by row in CSR: task `t`'s row `x` becomes
/// `(shared·x, 0, …, own·x (block t + 1), …, 0, intercept scaling at column t)` over
/// `d(T + 1)` columns, plus `T` intercept columns when `intercept` is given. The rows' CSR
/// indices are sorted, so each new row is too: built directly, without a triplet matrix's sort.
fn augmented_design(
    tasks: &[(CsMatView<'_, f64>, ArrayView1<'_, usize>)],
    shared: f64,
    own: f64,
    intercept: Option<f64>,
) -> CsMat<f64> {
    let d = tasks[0].0.cols();
    let n_tasks = tasks.len();
    let rows: usize = tasks.iter().map(|(x, _)| x.rows()).sum();
    let nnz: usize = tasks.iter().map(|(x, _)| x.nnz()).sum();
    let cols = d * (n_tasks + 1) + usize::from(intercept.is_some()) * n_tasks;
    let capacity = 2 * nnz + rows;
    let mut indptr = Vec::with_capacity(rows + 1);
    let mut indices = Vec::with_capacity(capacity);
    let mut data = Vec::with_capacity(capacity);
    indptr.push(0);
    for (t, (x, _)) in tasks.iter().enumerate() {
        for row in x.outer_iterator() {
            for (j, &value) in row.iter() {
                indices.push(j);
                data.push(shared * value);
            }
            for (j, &value) in row.iter() {
                indices.push((t + 1) * d + j);
                data.push(own * value);
            }
            if let Some(scaling) = intercept {
                indices.push(d * (n_tasks + 1) + t);
                data.push(scaling);
            }
            indptr.push(indices.len());
        }
    }
    CsMat::new((rows, cols), indptr, indices, data)
}

/// A fitted multi-task SVM: one hyperplane per task and their common centre `w₀`.
#[derive(Debug, Clone, PartialEq)]
pub struct MultiTaskSvm {
    w0: Array1<f64>,
    weights: Vec<Array1<f64>>,
    intercepts: Vec<f64>,
    objective: f64,
    report: Report,
    /// The reduction's dual variables, one per row (dual coordinate descent only).
    dual: Option<Vec<f64>>,
}

impl MultiTaskSvm {
    /// The dual variables `α_i` of Evgeniou & Pontil's reduction, one per row of the tasks in
    /// order, when dual coordinate descent fitted it (`None` for the interior-point solver): a
    /// start for [`MultiTaskSvmValidParams::fit_sparse_from`].
    pub fn dual_variables(&self) -> Option<&[f64]> {
        self.dual.as_deref()
    }
    /// Parameters with the defaults of [`MultiTaskSvmParams`].
    pub fn params() -> MultiTaskSvmParams {
        MultiTaskSvmParams::default()
    }
    /// Number of tasks.
    pub fn n_tasks(&self) -> usize {
        self.weights.len()
    }
    /// The common centre `w₀`.
    pub fn w0(&self) -> ArrayView1<'_, f64> {
        self.w0.view()
    }
    /// `w_t` of task `t`.
    pub fn weights(&self, task: usize) -> Result<ArrayView1<'_, f64>> {
        self.check_task(task)?;
        Ok(self.weights[task].view())
    }
    /// `b_t` of task `t`.
    pub fn intercept(&self, task: usize) -> Result<f64> {
        self.check_task(task)?;
        Ok(self.intercepts[task])
    }
    /// The optimal value of (5.3).
    pub fn objective(&self) -> f64 {
        self.objective
    }
    /// The solver's iterations: interior-point iterations, or dual coordinate descent's outer
    /// iterations.
    pub fn iterations(&self) -> u32 {
        self.report.iterations.min(u32::MAX as usize) as u32
    }
    /// How the solver's run ended: the interior-point solve (its status is
    /// [`Stalled`](Status::Stalled) when Clarabel met only its reduced tolerances), or dual
    /// coordinate descent, valued at (5.3).
    pub fn report(&self) -> &Report {
        &self.report
    }
    /// `w_tᵀx_i + b_t` for every row of `x`.
    pub fn decision_function(&self, task: usize, x: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        self.check_task(task)?;
        check_prediction_matrix(x, self.w0.len())?;
        Ok(x.dot(&self.weights[task]) + self.intercepts[task])
    }
    /// `w_tᵀx_i + b_t` for every row of a sparse `x`.
    pub fn decision_function_sparse(
        &self,
        task: usize,
        x: CsMatView<'_, f64>,
    ) -> Result<Array1<f64>> {
        self.check_task(task)?;
        check_sparse_prediction_matrix(x, self.w0.len())?;
        let w = &self.weights[task];
        let mut out = Array1::from_elem(x.rows(), self.intercepts[task]);
        if x.is_csr() {
            for (f, row) in out.iter_mut().zip(x.outer_iterator()) {
                *f += row.iter().map(|(j, &v)| v * w[j]).sum::<f64>();
            }
        } else {
            for (j, col) in x.outer_iterator().enumerate() {
                for (i, &v) in col.iter() {
                    out[i] += v * w[j];
                }
            }
        }
        Ok(out)
    }
    /// Classes (`f_t > 0 ↦ 1`) of the rows of a sparse `x` under task `t`.
    pub fn predict_sparse(&self, task: usize, x: CsMatView<'_, f64>) -> Result<Array1<usize>> {
        Ok(self
            .decision_function_sparse(task, x)?
            .mapv(|f| usize::from(f > 0.0)))
    }
    /// Classes (`f_t > 0 ↦ 1`) of the rows of `x` under task `t`.
    pub fn predict(&self, task: usize, x: ArrayView2<'_, f64>) -> Result<Array1<usize>> {
        Ok(self
            .decision_function(task, x)?
            .mapv(|f| usize::from(f > 0.0)))
    }

    /// The value of (5.3) at this model on `tasks` (CSR), with the smallest slacks.
    fn objective_on(
        &self,
        tasks: &[(CsMatView<'_, f64>, ArrayView1<'_, usize>)],
        c1: f64,
        c2: f64,
    ) -> f64 {
        let mut hinge = 0.0;
        for (t, (x, y)) in tasks.iter().enumerate() {
            let f = self
                .decision_function_sparse(t, *x)
                .expect("the fitted model matches its training tasks");
            for (&f, &label) in f.iter().zip(y.iter()) {
                let s = if label == 1 { 1.0 } else { -1.0 };
                hinge += (1.0 - s * f).max(0.0);
            }
        }
        let coupling: f64 = self
            .weights
            .iter()
            .map(|w| (w - &self.w0).mapv(|e| e * e).sum())
            .sum();
        hinge + c1 / c2 * coupling + c1 * self.w0.dot(&self.w0)
    }

    fn check_task(&self, task: usize) -> Result<()> {
        if task >= self.weights.len() {
            return Err(Error::InvalidValue {
                what: "task".into(),
                row: 0,
                column: 0,
                value: task as f64,
                reason: format!("the model has {} tasks", self.weights.len()),
            });
        }
        Ok(())
    }
}

/// [`Converged`](Status::Converged) when the solver met its tolerances. The interior-point
/// solver fails rather than stop at its cap, but is [`Stalled`](Status::Stalled) when Clarabel
/// met only its reduced tolerances; dual coordinate descent is
/// [`MaxIterations`](Status::MaxIterations) when it reached `max_iter` first (see
/// [`MultiTaskSvmParams::require_convergence`]).
impl Convergence for MultiTaskSvm {
    fn status(&self) -> Status {
        self.report.status
    }

    fn solver_reports(&self) -> Vec<Report> {
        vec![self.report]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LinearSvm;
    use gendisc_core::Fit;
    use ndarray::{array, concatenate, Array2, Axis};

    fn task(shift: f64, angle: f64) -> (Array2<f64>, Array1<usize>) {
        // Eight points around a line through the origin whose normal is (cos a, sin a).
        let (c, s) = (angle.cos(), angle.sin());
        let base = [
            (-1.5, 0.3),
            (-0.7, -1.0),
            (-1.2, 1.1),
            (-0.2, 0.4),
            (1.4, -0.2),
            (0.6, 0.9),
            (1.1, -1.2),
            (0.3, -0.5),
        ];
        let mut x = Array2::zeros((8, 2));
        let mut y = Array1::zeros(8);
        for (i, &(u, v)) in base.iter().enumerate() {
            x[[i, 0]] = c * u - s * v + shift;
            x[[i, 1]] = s * u + c * v;
            y[i] = usize::from(u > 0.0);
        }
        // One mislabelled point so that slacks are active.
        y[3] = 1;
        (x, y)
    }

    fn svm(x: &Array2<f64>, y: &Array1<usize>, c: f64) -> Array1<f64> {
        let m = LinearSvm::params()
            .c(c)
            .fit_intercept(false)
            .tol(1e-12)
            .max_iter(100_000)
            .fit(x.view(), y.view())
            .unwrap();
        m.coef().row(0).to_owned()
    }

    fn close(a: ArrayView1<'_, f64>, b: ArrayView1<'_, f64>, tol: f64) {
        for (p, q) in a.iter().zip(b) {
            assert!((p - q).abs() <= tol * (1.0 + q.abs()), "{a} vs {b}");
        }
    }

    /// The augmented design as a triplet matrix, one entry at a time (the construction the
    /// direct CSR build replaced).
    fn augmented_by_triplets(
        tasks: &[(CsMatView<'_, f64>, ArrayView1<'_, usize>)],
        shared: f64,
        own: f64,
        intercept: Option<f64>,
    ) -> CsMat<f64> {
        let d = tasks[0].0.cols();
        let n_tasks = tasks.len();
        let rows: usize = tasks.iter().map(|(x, _)| x.rows()).sum();
        let cols = d * (n_tasks + 1) + usize::from(intercept.is_some()) * n_tasks;
        let mut phi = sprs::TriMat::new((rows, cols));
        let mut r = 0;
        for (t, (x, _)) in tasks.iter().enumerate() {
            for row in x.outer_iterator() {
                for (j, &value) in row.iter() {
                    phi.add_triplet(r, j, shared * value);
                    phi.add_triplet(r, (t + 1) * d + j, own * value);
                }
                if let Some(scaling) = intercept {
                    phi.add_triplet(r, d * (n_tasks + 1) + t, scaling);
                }
                r += 1;
            }
        }
        phi.to_csr()
    }

    #[test]
    fn the_augmented_design_is_built_exactly() {
        let (x1, y1) = task(0.3, 0.2);
        let (x2, y2) = task(-0.5, -0.4);
        // Sparse rows with an empty one.
        let mut x2 = x2;
        x2.row_mut(2).fill(0.0);
        x2[[5, 1]] = 0.0;
        let s1 = CsMat::csr_from_dense(x1.view(), 0.0);
        let s2 = CsMat::csr_from_dense(x2.view(), 0.0);
        let tasks = [(s1.view(), y1.view()), (s2.view(), y2.view())];
        for intercept in [None, Some(10.0)] {
            let direct = augmented_design(&tasks, 0.7, 31.6, intercept);
            let triplets = augmented_by_triplets(&tasks, 0.7, 31.6, intercept);
            assert_eq!(direct.shape(), triplets.shape());
            assert_eq!(direct.indptr(), triplets.indptr());
            assert_eq!(direct.indices(), triplets.indices());
            let bits = |m: &CsMat<f64>| m.data().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&direct), bits(&triplets));
        }
    }

    #[test]
    fn small_c2_forces_equal_tasks_and_pools_the_data() {
        let (x1, y1) = task(0.0, 0.2);
        let (x2, y2) = task(0.0, -0.4);
        let c1 = 0.5;
        let model = MultiTaskSvm::params()
            .c1(c1)
            .c2(1e-5)
            .fit_intercept(false)
            .fit(&[(x1.view(), y1.view()), (x2.view(), y2.view())])
            .unwrap();
        close(model.weights(0).unwrap(), model.w0(), 1e-4);
        close(model.weights(1).unwrap(), model.w0(), 1e-4);
        let x = concatenate![Axis(0), x1, x2];
        let y = concatenate![Axis(0), y1, y2];
        // min Σξ + C₁‖w‖² ⇔ min ½‖w‖² + (1/(2C₁)) Σξ.
        close(model.w0(), svm(&x, &y, 1.0 / (2.0 * c1)).view(), 1e-4);
    }

    #[test]
    fn large_c2_decouples_the_tasks_into_separate_svms() {
        let (x1, y1) = task(0.0, 0.2);
        let (x2, y2) = task(0.0, -0.9);
        let c2 = 1e5;
        let c1 = c2; // per-task penalty C₁/C₂ = 1 ⇔ LinearSvm C = 1/2
        let model = MultiTaskSvm::params()
            .c1(c1)
            .c2(c2)
            .fit_intercept(false)
            .fit(&[(x1.view(), y1.view()), (x2.view(), y2.view())])
            .unwrap();
        close(model.weights(0).unwrap(), svm(&x1, &y1, 0.5).view(), 1e-3);
        close(model.weights(1).unwrap(), svm(&x2, &y2, 0.5).view(), 1e-3);
        assert!(model.w0().iter().all(|v| v.abs() < 1e-3), "{}", model.w0());
    }

    #[test]
    fn intercepts_follow_shifted_tasks() {
        let (x1, y1) = task(0.0, 0.0);
        let (x2, y2) = task(3.0, 0.0);
        let model = MultiTaskSvm::params()
            .c1(0.1)
            .c2(1e-3)
            .fit(&[(x1.view(), y1.view()), (x2.view(), y2.view())])
            .unwrap();
        // Shared direction, intercepts differing by the shift along w.
        let w = model.weights(0).unwrap();
        let gap = model.intercept(0).unwrap() - model.intercept(1).unwrap();
        assert!(
            (gap - 3.0 * w[0]).abs() < 1e-3 * (1.0 + gap.abs()),
            "gap {gap}, w {w}"
        );
        let predicted = model.predict(1, x2.view()).unwrap();
        let correct = predicted.iter().zip(&y2).filter(|(a, b)| a == b).count();
        assert!(correct >= 7, "{predicted} vs {y2}");
    }

    fn fit_both(c1: f64, c2: f64, scaling: f64) -> (MultiTaskSvm, MultiTaskSvm) {
        let (x1, y1) = task(0.0, 0.0);
        let (x2, y2) = task(1.0, 0.6);
        let tasks = [(x1.view(), y1.view()), (x2.view(), y2.view())];
        let params = MultiTaskSvm::params().c1(c1).c2(c2);
        let exact = params.fit(&tasks).unwrap();
        let reduced = params
            .solver(MultiTaskSolver::DualCoordinateDescent {
                intercept_scaling: scaling,
                tol: 1e-10,
                max_iter: 1_000_000,
            })
            .fit(&tasks)
            .unwrap();
        (exact, reduced)
    }

    #[test]
    fn the_feature_map_reduction_solves_the_same_program() {
        // Without intercepts the reduction is exact.
        let (x1, y1) = task(0.0, 0.0);
        let (x2, y2) = task(0.0, 0.6);
        let tasks = [(x1.view(), y1.view()), (x2.view(), y2.view())];
        for (c1, c2) in [(1.0, 1000.0), (0.3, 0.5), (2.0, 10.0)] {
            let params = MultiTaskSvm::params().c1(c1).c2(c2).fit_intercept(false);
            let exact = params.fit(&tasks).unwrap();
            let reduced = params
                .solver(MultiTaskSolver::DualCoordinateDescent {
                    intercept_scaling: 1.0,
                    tol: 1e-10,
                    max_iter: 1_000_000,
                })
                .fit(&tasks)
                .unwrap();
            close(reduced.w0(), exact.w0(), 1e-5);
            for t in 0..2 {
                close(reduced.weights(t).unwrap(), exact.weights(t).unwrap(), 1e-5);
            }
            let gap = (reduced.objective() - exact.objective()).abs();
            assert!(
                gap <= 1e-6 * (1.0 + exact.objective()),
                "c1 {c1} c2 {c2}: {gap}"
            );
        }
    }

    #[test]
    fn penalised_intercepts_approach_the_exact_program_as_b_grows() {
        let gaps: Vec<f64> = [1.0, 10.0, 100.0]
            .iter()
            .map(|&b| {
                let (exact, reduced) = fit_both(1.0, 10.0, b);
                // The reduced model is feasible for (5.3), so its objective is never below.
                assert!(reduced.objective() >= exact.objective() - 1e-7);
                reduced.objective() - exact.objective()
            })
            .collect();
        // B = 1 visibly penalises the intercepts; by B = 100 the optimum is reached (a small
        // penalty does not move an intercept off the kink of the hinge sum where it sits).
        let (exact, _) = fit_both(1.0, 10.0, 100.0);
        assert!(gaps[0] > 1e-3 * exact.objective(), "{gaps:?}");
        assert!(gaps[1] <= gaps[0] && gaps[2] <= gaps[1] + 1e-7, "{gaps:?}");
        assert!(gaps[2] <= 1e-6 * exact.objective(), "{gaps:?}");
    }

    #[test]
    fn sparse_and_dense_input_agree() {
        let (x1, y1) = task(0.0, 0.0);
        let (x2, y2) = task(2.0, 0.3);
        let dense = [(x1.view(), y1.view()), (x2.view(), y2.view())];
        let s1 = CsMat::csr_from_dense(x1.view(), 0.0);
        let s2 = CsMat::csr_from_dense(x2.view(), 0.0).to_csc();
        let sparse = [(s1.view(), y1.view()), (s2.view(), y2.view())];
        for solver in [
            MultiTaskSolver::InteriorPoint(SocpSettings::default()),
            MultiTaskSolver::dual_coordinate_descent(),
        ] {
            let params = MultiTaskSvm::params().c2(5.0).solver(solver);
            let a = params.fit(&dense).unwrap();
            let b = params.fit_sparse(&sparse).unwrap();
            assert_eq!(a, b);
            let f_dense = a.decision_function(1, x2.view()).unwrap();
            let f_sparse = a.decision_function_sparse(1, s2.view()).unwrap();
            close(f_sparse.view(), f_dense.view(), 1e-14);
            assert_eq!(
                a.predict_sparse(0, s1.view()).unwrap(),
                a.predict(0, x1.view()).unwrap()
            );
        }
    }

    #[test]
    fn a_warm_start_from_the_first_task_alone_reaches_the_cold_optimum() {
        let (x1, y1) = task(0.0, 0.0);
        let (x2, y2) = task(2.0, 0.3);
        let (s1, s2) = (
            CsMat::csr_from_dense(x1.view(), 0.0),
            CsMat::csr_from_dense(x2.view(), 0.0),
        );
        let solver = MultiTaskSolver::DualCoordinateDescent {
            intercept_scaling: 10.0,
            tol: 1e-10,
            max_iter: 100_000,
        };
        let params = MultiTaskSvm::params()
            .c2(1000.0)
            .solver(solver)
            .check()
            .unwrap();
        // The first task alone has the rows and the feature map of its rows in both tasks.
        let alone = params.fit_sparse(&[(s1.view(), y1.view())]).unwrap();
        let start = alone.dual_variables().unwrap();
        assert_eq!(start.len(), x1.nrows());
        let both = [(s1.view(), y1.view()), (s2.view(), y2.view())];
        let cold = params.fit_sparse(&both).unwrap();
        let warm = params.fit_sparse_from(&both, start).unwrap();
        assert_eq!(warm.report().status, Status::Converged);
        close(warm.w0(), cold.w0(), 1e-6);
        for t in 0..2 {
            close(warm.weights(t).unwrap(), cold.weights(t).unwrap(), 1e-6);
        }
        assert!((warm.objective() - cold.objective()).abs() <= 1e-8 * cold.objective());
        assert_eq!(
            warm.dual_variables().unwrap().len(),
            x1.nrows() + x2.nrows()
        );
        // A start longer than the rows, or for the interior-point solver, is refused.
        let long = vec![0.0; x1.nrows() + x2.nrows() + 1];
        assert!(matches!(
            params.fit_sparse_from(&both, &long),
            Err(Error::ShapeMismatch { .. })
        ));
        let exact = MultiTaskSvm::params()
            .solver(MultiTaskSolver::InteriorPoint(SocpSettings::default()))
            .check()
            .unwrap();
        assert!(exact.fit_sparse(&both).unwrap().dual_variables().is_none());
        assert!(matches!(
            exact.fit_sparse_from(&both, start),
            Err(Error::InvalidParameter { name: "start", .. })
        ));
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        let (x1, y1) = task(0.0, 0.0);
        let p = MultiTaskSvm::params();
        assert!(matches!(p.fit(&[]), Err(Error::Empty { .. })));
        let x3 = Array2::zeros((3, 3));
        let y3 = array![0, 1, 0];
        assert!(matches!(
            p.fit(&[(x1.view(), y1.view()), (x3.view(), y3.view())]),
            Err(Error::ShapeMismatch { .. })
        ));
        for v in [f64::INFINITY, f64::NAN] {
            let mut bad = x1.clone();
            bad[[0, 0]] = v;
            assert!(matches!(
                p.fit(&[(bad.view(), y1.view())]),
                Err(Error::NonFinite { .. })
            ));
        }
        let mut labels = y1.clone();
        labels[0] = 3;
        assert!(matches!(
            p.fit(&[(x1.view(), labels.view())]),
            Err(Error::LabelOutOfRange { .. })
        ));
        assert!(matches!(
            p.clone().c2(0.0).fit(&[(x1.view(), y1.view())]),
            Err(Error::InvalidParameter { name: "c2", .. })
        ));
        assert!(matches!(
            p.clone().c1(f64::NAN).fit(&[(x1.view(), y1.view())]),
            Err(Error::InvalidParameter { name: "c1", .. })
        ));
        for (b, tol, max_iter, name) in [
            (0.0, 1e-4, 10, "intercept_scaling"),
            (1.0, f64::NAN, 10, "tol"),
            (1.0, 1e-4, 0, "max_iter"),
        ] {
            let solver = MultiTaskSolver::DualCoordinateDescent {
                intercept_scaling: b,
                tol,
                max_iter,
            };
            let err = p.clone().solver(solver).fit(&[(x1.view(), y1.view())]);
            assert!(
                matches!(err, Err(Error::InvalidParameter { name: n, .. }) if n == name),
                "{name}"
            );
        }
        let model = p.fit(&[(x1.view(), y1.view())]).unwrap();
        assert!(model.predict(1, x1.view()).is_err());
        assert!(matches!(
            model.predict(0, x3.view()),
            Err(Error::ShapeMismatch { .. })
        ));
    }
}
