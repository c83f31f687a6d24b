//! Second-order cone programs, built row by row and solved by Clarabel.
//!
//! A [`Socp`] is the problem (Lobo, Vandenberghe, Boyd & Lebret, 1998; Epshteyn & DeJong's
//! eqs. (3.1)–(3.2), with an optional quadratic term)
//!
//! ```text
//! min_x   ½ xᵀPx + qᵀx
//! s.t.    aᵢᵀx  = bᵢ                      (linear equalities)
//!         aⱼᵀx ≤ bⱼ                       (linear inequalities)
//!         ‖G_k x + h_k‖ ≤ c_kᵀx + d_k     (second-order cones)
//! ```
//!
//! Every row is sparse: an [`Affine`] expression holds `(variable, coefficient)` pairs and a
//! constant, and the constraint matrix is assembled once, in compressed-column form, when
//! [`Socp::solve`] is called — so problems with thousands of variables and sparse rows cost
//! memory in proportion to their non-zeros.
//!
//! # Clarabel's conventions
//!
//! Clarabel solves `min ½xᵀPx + qᵀx s.t. Ax + s = b, s ∈ K`, using only the upper triangle of
//! `P`. An equality is a row of the zero cone; `aᵀx ≤ b` is a row `aᵀ` of the non-negative
//! cone (`s = b − aᵀx ≥ 0`); the cone `‖Gx + h‖ ≤ cᵀx + d` is the block `A = [−cᵀ; −G]`,
//! `b = [d; h]` of `SecondOrderConeT(1 + rows(G))`, whose slack is `s = (t, u)` with
//! `‖u‖ ≤ t`. Rows are emitted in that order: equalities, inequalities, cones.
//!
//! # Status
//!
//! [`Socp::solve`] returns a [`SocpSolution`] when Clarabel reports `Solved` or `AlmostSolved`,
//! in the workspace's one convergence vocabulary ([`Status`]) so callers can decide:
//! `Solved` (the requested tolerances met) is [`Status::Converged`]; `AlmostSolved` (Clarabel
//! stopped at its iteration or time limit, or for lack of progress, having met only its reduced
//! tolerances) is [`Status::Stalled`]. Every other outcome is a typed
//! [`gendisc_core::Error`] carrying Clarabel's residuals:
//!
//! | Clarabel status | error |
//! |---|---|
//! | `PrimalInfeasible`, `AlmostPrimalInfeasible` | [`Error::Infeasible`] |
//! | `DualInfeasible`, `AlmostDualInfeasible` (the objective is unbounded below) | [`Error::Infeasible`] naming the dual |
//! | `MaxIterations`, `MaxTime` | [`Error::NotConverged`] |
//! | `NumericalError`, `InsufficientProgress`, anything else | [`Error::Numerical`] |

use clarabel::algebra::CscMatrix;
use clarabel::solver::{DefaultSettings, DefaultSolver, IPSolver, SolverStatus, SupportedConeT};
use gendisc_core::{Error, Result};

use crate::report::{Criterion, Report, Status};

/// An affine expression `Σ coefficient · x[variable] + constant`.
///
/// Repeated variables are summed when the problem is assembled.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Affine {
    /// `(variable index, coefficient)` pairs.
    pub terms: Vec<(usize, f64)>,
    /// The constant term.
    pub constant: f64,
}

impl Affine {
    /// The zero expression.
    pub fn new() -> Self {
        Self::default()
    }

    /// The expression `x[variable]`.
    pub fn var(variable: usize) -> Self {
        Self {
            terms: vec![(variable, 1.0)],
            constant: 0.0,
        }
    }

    /// The constant expression `constant`.
    pub fn constant(constant: f64) -> Self {
        Self {
            terms: Vec::new(),
            constant,
        }
    }

    /// Adds `coefficient · x[variable]`.
    #[must_use]
    pub fn term(mut self, variable: usize, coefficient: f64) -> Self {
        self.terms.push((variable, coefficient));
        self
    }

    /// Adds a constant.
    #[must_use]
    pub fn plus(mut self, constant: f64) -> Self {
        self.constant += constant;
        self
    }

    /// The value of the expression at `x`.
    pub fn eval(&self, x: &[f64]) -> f64 {
        self.terms.iter().map(|&(j, a)| a * x[j]).sum::<f64>() + self.constant
    }
}

/// Settings of the interior-point solve (a subset of Clarabel's `DefaultSettings`).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SocpSettings {
    /// Maximum number of interior-point iterations. Default 200 (Clarabel's default).
    pub max_iter: u32,
    /// Wall-clock limit in seconds. Default `f64::INFINITY`.
    pub time_limit: f64,
    /// Absolute duality-gap tolerance. Default `1e-8`.
    pub tol_gap_abs: f64,
    /// Relative duality-gap tolerance. Default `1e-8`.
    pub tol_gap_rel: f64,
    /// Primal and dual feasibility tolerance. Default `1e-8`.
    pub tol_feas: f64,
    /// Print Clarabel's iteration log. Default `false` (Clarabel's own default is `true`).
    pub verbose: bool,
}

impl Default for SocpSettings {
    fn default() -> Self {
        Self {
            max_iter: 200,
            time_limit: f64::INFINITY,
            tol_gap_abs: 1e-8,
            tol_gap_rel: 1e-8,
            tol_feas: 1e-8,
            verbose: false,
        }
    }
}

impl SocpSettings {
    /// The loosest of the gap and feasibility tolerances: what a solve that
    /// [`Converged`](Status::Converged) is accurate to ([`Criterion::InteriorPoint`]).
    pub fn tolerance(&self) -> f64 {
        self.tol_gap_abs.max(self.tol_gap_rel).max(self.tol_feas)
    }

    fn check(&self) -> Result<()> {
        if self.max_iter == 0 {
            return Err(Error::invalid_parameter("max_iter", "must be at least 1"));
        }
        if self.time_limit.is_nan() || self.time_limit <= 0.0 {
            return Err(Error::invalid_parameter("time_limit", "must be positive"));
        }
        for (name, v) in [
            ("tol_gap_abs", self.tol_gap_abs),
            ("tol_gap_rel", self.tol_gap_rel),
            ("tol_feas", self.tol_feas),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return Err(Error::invalid_parameter(
                    name,
                    format!("must be finite and positive, got {v}"),
                ));
            }
        }
        Ok(())
    }

    fn to_clarabel(self) -> DefaultSettings<f64> {
        DefaultSettings {
            max_iter: self.max_iter,
            time_limit: self.time_limit,
            tol_gap_abs: self.tol_gap_abs,
            tol_gap_rel: self.tol_gap_rel,
            tol_feas: self.tol_feas,
            verbose: self.verbose,
            ..DefaultSettings::default()
        }
    }
}

/// The optimum of a [`Socp`] and how it was reached.
#[derive(Debug, Clone, PartialEq)]
pub struct SocpSolution {
    /// The primal solution, one value per variable.
    pub x: Vec<f64>,
    /// The optimal objective value `½xᵀPx + qᵀx` (plus the objective's constant).
    pub objective: f64,
    /// [`Status::Converged`] when the requested tolerances were met, [`Status::Stalled`] when
    /// only Clarabel's reduced ones were (see [the module documentation](self#status)).
    pub status: Status,
    /// Interior-point iterations.
    pub iterations: u32,
    /// Final primal residual.
    pub primal_residual: f64,
    /// Final dual residual.
    pub dual_residual: f64,
    /// The tolerances the solve was judged by ([`Criterion::InteriorPoint`], the loosest of
    /// the settings' gap and feasibility tolerances).
    pub criterion: Criterion,
}

impl SocpSolution {
    /// The solve in the workspace's one report type: Clarabel evaluates the program once per
    /// interior-point iteration and no gradient norm.
    pub fn report(&self) -> Report {
        Report {
            status: self.status,
            criterion: self.criterion,
            iterations: self.iterations as usize,
            evaluations: self.iterations as usize,
            value: self.objective,
            gradient_norm: None,
        }
    }
}

/// A second-order cone program under construction (see the [module docs](self)).
#[derive(Debug, Clone, Default)]
pub struct Socp {
    name: String,
    n_vars: usize,
    linear: Vec<(usize, f64)>,
    objective_constant: f64,
    quadratic: Vec<(usize, usize, f64)>,
    equalities: Vec<Affine>,
    inequalities: Vec<Affine>,
    cones: Vec<(Affine, Vec<Affine>)>,
}

impl Socp {
    /// An empty program; `name` appears in error messages.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            ..Self::default()
        }
    }

    /// Adds `count` free variables and returns the index of the first.
    pub fn add_variables(&mut self, count: usize) -> usize {
        let first = self.n_vars;
        self.n_vars += count;
        first
    }

    /// Adds one free variable and returns its index.
    pub fn add_variable(&mut self) -> usize {
        self.add_variables(1)
    }

    /// Number of variables.
    pub fn n_variables(&self) -> usize {
        self.n_vars
    }

    /// Adds `expression` to the (minimised) objective.
    pub fn minimize_linear(&mut self, expression: Affine) -> &mut Self {
        self.linear.extend(expression.terms);
        self.objective_constant += expression.constant;
        self
    }

    /// Adds `coefficient · x[i] · x[j]` to the objective (for `i ≠ j` the term appears once, not
    /// twice). The resulting quadratic form must be positive semidefinite.
    pub fn add_quadratic(&mut self, i: usize, j: usize, coefficient: f64) -> &mut Self {
        // ½ xᵀPx with P symmetric: coefficient·xᵢ² ⇒ P_ii += 2·coefficient;
        // coefficient·xᵢxⱼ (i ≠ j) ⇒ P_ij = P_ji += coefficient (upper triangle kept).
        let (r, c) = if i <= j { (i, j) } else { (j, i) };
        let p = if r == c {
            2.0 * coefficient
        } else {
            coefficient
        };
        self.quadratic.push((r, c, p));
        self
    }

    /// Adds the constraint `expression = 0`.
    pub fn add_equality(&mut self, expression: Affine) -> &mut Self {
        self.equalities.push(expression);
        self
    }

    /// Adds the constraint `expression ≤ 0`.
    pub fn add_inequality(&mut self, expression: Affine) -> &mut Self {
        self.inequalities.push(expression);
        self
    }

    /// Adds the constraint `x[variable] ≥ lower`.
    pub fn add_lower_bound(&mut self, variable: usize, lower: f64) -> &mut Self {
        self.add_inequality(Affine::constant(lower).term(variable, -1.0))
    }

    /// Adds the second-order cone `‖(rows[0], rows[1], …)‖₂ ≤ bound`.
    pub fn add_cone(&mut self, bound: Affine, rows: Vec<Affine>) -> &mut Self {
        self.cones.push((bound, rows));
        self
    }

    fn check(&self) -> Result<()> {
        let n = self.n_vars;
        let what = |kind: &str, k: usize| format!("{kind} {k} of SOCP `{}`", self.name);
        let check_affine = |e: &Affine, kind: &str, k: usize| -> Result<()> {
            for &(j, a) in &e.terms {
                if j >= n {
                    return Err(Error::InvalidValue {
                        what: what(kind, k),
                        row: k,
                        column: j,
                        value: j as f64,
                        reason: format!("variable index out of range: the program has {n}"),
                    });
                }
                if !a.is_finite() {
                    return Err(Error::NonFinite {
                        what: what(kind, k),
                        row: k,
                        column: j,
                        value: a,
                    });
                }
            }
            if !e.constant.is_finite() {
                return Err(Error::NonFinite {
                    what: format!("constant of {}", what(kind, k)),
                    row: k,
                    column: 0,
                    value: e.constant,
                });
            }
            Ok(())
        };
        if n == 0 {
            return Err(Error::Empty {
                what: format!("variables of SOCP `{}`", self.name),
            });
        }
        let objective = Affine {
            terms: self.linear.clone(),
            constant: self.objective_constant,
        };
        check_affine(&objective, "objective", 0)?;
        for (k, &(i, j, p)) in self.quadratic.iter().enumerate() {
            check_affine(&Affine::new().term(i, p).term(j, p), "quadratic term", k)?;
        }
        for (k, e) in self.equalities.iter().enumerate() {
            check_affine(e, "equality", k)?;
        }
        for (k, e) in self.inequalities.iter().enumerate() {
            check_affine(e, "inequality", k)?;
        }
        for (k, (bound, rows)) in self.cones.iter().enumerate() {
            check_affine(bound, "cone", k)?;
            for r in rows {
                check_affine(r, "cone", k)?;
            }
        }
        Ok(())
    }

    /// Assembles the program in Clarabel's form and solves it.
    pub fn solve(&self, settings: &SocpSettings) -> Result<SocpSolution> {
        settings.check()?;
        self.check()?;
        let n = self.n_vars;

        let mut q = vec![0.0; n];
        for &(j, a) in &self.linear {
            q[j] += a;
        }
        let (pi, pj, pv) = unzip3(&self.quadratic);
        let p = CscMatrix::new_from_triplets(n, n, pi, pj, pv);

        let (mut ai, mut aj, mut av) = (Vec::new(), Vec::new(), Vec::new());
        let mut b = Vec::new();
        let mut cones = Vec::new();
        // Row `r` of A and b from `sign · expression`: A_r = sign·terms, b_r = −sign·constant.
        let mut push_row = |e: &Affine, sign: f64, b: &mut Vec<f64>| {
            let r = b.len();
            for &(j, a) in &e.terms {
                ai.push(r);
                aj.push(j);
                av.push(sign * a);
            }
            b.push(-sign * e.constant);
        };
        // Equality e = 0: A = terms, b = −constant, s = 0.
        for e in &self.equalities {
            push_row(e, 1.0, &mut b);
        }
        if !self.equalities.is_empty() {
            cones.push(SupportedConeT::ZeroConeT(self.equalities.len()));
        }
        // Inequality e ≤ 0: A = terms, b = −constant, s = −e ≥ 0.
        for e in &self.inequalities {
            push_row(e, 1.0, &mut b);
        }
        if !self.inequalities.is_empty() {
            cones.push(SupportedConeT::NonnegativeConeT(self.inequalities.len()));
        }
        // Cone ‖u‖ ≤ t: s = (t, u) = b − Ax, so A = −terms and b = constant.
        for (bound, rows) in &self.cones {
            push_row(bound, -1.0, &mut b);
            for r in rows {
                push_row(r, -1.0, &mut b);
            }
            cones.push(SupportedConeT::SecondOrderConeT(1 + rows.len()));
        }
        let a = CscMatrix::new_from_triplets(b.len(), n, ai, aj, av);

        let mut solver = DefaultSolver::new(&p, &q, &a, &b, &cones, settings.to_clarabel())
            .map_err(|e| Error::Numerical {
                what: format!("setting up SOCP `{}`", self.name),
                detail: e.to_string(),
            })?;
        solver.solve();
        let info = &solver.info;
        let sol = &solver.solution;
        let residuals = format!(
            "{} iterations, primal residual {:.3e}, dual residual {:.3e}, \
             primal infeasibility residual {:.3e}, dual infeasibility residual {:.3e}, \
             absolute gap {:.3e}, relative gap {:.3e}",
            info.iterations,
            info.res_primal,
            info.res_dual,
            info.res_primal_inf,
            info.res_dual_inf,
            info.gap_abs,
            info.gap_rel
        );
        let status = match sol.status {
            SolverStatus::Solved => Status::Converged,
            SolverStatus::AlmostSolved => Status::Stalled,
            SolverStatus::PrimalInfeasible | SolverStatus::AlmostPrimalInfeasible => {
                return Err(Error::Infeasible {
                    what: format!("SOCP `{}`", self.name),
                    detail: format!("Clarabel status {:?}; {residuals}", sol.status),
                })
            }
            SolverStatus::DualInfeasible | SolverStatus::AlmostDualInfeasible => {
                return Err(Error::Infeasible {
                    what: format!("the dual of SOCP `{}`", self.name),
                    detail: format!(
                        "the objective is unbounded below (Clarabel status {:?}); {residuals}",
                        sol.status
                    ),
                })
            }
            SolverStatus::MaxIterations | SolverStatus::MaxTime => {
                return Err(Error::NotConverged {
                    what: format!("Clarabel on SOCP `{}`", self.name),
                    iterations: info.iterations as usize,
                    detail: format!("status {:?}; {residuals}", sol.status),
                })
            }
            other => {
                return Err(Error::Numerical {
                    what: format!("Clarabel on SOCP `{}`", self.name),
                    detail: format!("status {other:?}; {residuals}"),
                })
            }
        };
        if let Some((j, v)) = sol.x.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(Error::Numerical {
                what: format!("Clarabel on SOCP `{}`", self.name),
                detail: format!("non-finite solution value {v} for variable {j}; {residuals}"),
            });
        }
        Ok(SocpSolution {
            x: sol.x.clone(),
            objective: sol.obj_val + self.objective_constant,
            status,
            iterations: info.iterations,
            primal_residual: info.res_primal,
            dual_residual: info.res_dual,
            criterion: Criterion::InteriorPoint {
                tolerance: settings.tolerance(),
            },
        })
    }
}

fn unzip3(t: &[(usize, usize, f64)]) -> (Vec<usize>, Vec<usize>, Vec<f64>) {
    let mut i = Vec::with_capacity(t.len());
    let mut j = Vec::with_capacity(t.len());
    let mut v = Vec::with_capacity(t.len());
    for &(a, b, c) in t {
        i.push(a);
        j.push(b);
        v.push(c);
    }
    (i, j, v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    fn settings() -> SocpSettings {
        SocpSettings::default()
    }

    #[test]
    fn linear_program_with_equality_and_bounds() {
        // min x + 2y s.t. x + y = 1, x ≥ 0, y ≥ 0 → (1, 0), value 1.
        let mut p = Socp::new("lp");
        let x = p.add_variables(2);
        p.minimize_linear(Affine::var(x).term(x + 1, 2.0));
        p.add_equality(Affine::constant(-1.0).term(x, 1.0).term(x + 1, 1.0));
        p.add_lower_bound(x, 0.0).add_lower_bound(x + 1, 0.0);
        let s = p.solve(&settings()).unwrap();
        assert_eq!(s.status, Status::Converged);
        assert_abs_diff_eq!(s.x[0], 1.0, epsilon = 1e-6);
        assert_abs_diff_eq!(s.x[1], 0.0, epsilon = 1e-6);
        assert_abs_diff_eq!(s.objective, 1.0, epsilon = 1e-6);
    }

    #[test]
    fn linear_objective_over_a_ball() {
        // min cᵀx s.t. ‖x − a‖ ≤ r: x* = a − r c/‖c‖, value cᵀa − r‖c‖.
        let c = [3.0, -4.0, 0.0];
        let a = [1.0, 2.0, -1.0];
        let r = 2.0;
        let mut p = Socp::new("ball");
        let x = p.add_variables(3);
        let mut obj = Affine::new();
        for k in 0..3 {
            obj = obj.term(x + k, c[k]);
        }
        p.minimize_linear(obj);
        let rows = (0..3).map(|k| Affine::var(x + k).plus(-a[k])).collect();
        p.add_cone(Affine::constant(r), rows);
        let s = p.solve(&settings()).unwrap();
        let norm_c = 5.0;
        for k in 0..3 {
            assert_abs_diff_eq!(s.x[k], a[k] - r * c[k] / norm_c, epsilon = 1e-6);
        }
        assert_abs_diff_eq!(s.objective, 3.0 - 8.0 - r * norm_c, epsilon = 1e-6);
    }

    #[test]
    fn distance_to_a_hyperplane_through_an_epigraph_variable() {
        // min t s.t. ‖x‖ ≤ t, x₁ + x₂ ≥ 2: distance from 0 to the line is √2.
        let mut p = Socp::new("epigraph");
        let x = p.add_variables(2);
        let t = p.add_variable();
        p.minimize_linear(Affine::var(t));
        p.add_cone(Affine::var(t), vec![Affine::var(x), Affine::var(x + 1)]);
        p.add_inequality(Affine::constant(2.0).term(x, -1.0).term(x + 1, -1.0));
        let s = p.solve(&settings()).unwrap();
        assert_abs_diff_eq!(s.objective, 2f64.sqrt(), epsilon = 1e-6);
        assert_abs_diff_eq!(s.x[x], 1.0, epsilon = 1e-6);
    }

    #[test]
    fn quadratic_objective() {
        // min (x − 3)² + 2(y + 1)² + xy: the minimiser solves the gradient system
        // 2(x − 3) + y = 0, 4(y + 1) + x = 0 → x = 4, y = −2.
        let mut p = Socp::new("qp");
        let x = p.add_variables(2);
        p.add_quadratic(x, x, 1.0)
            .add_quadratic(x + 1, x + 1, 2.0)
            .add_quadratic(x + 1, x, 1.0);
        p.minimize_linear(Affine::constant(9.0 + 2.0).term(x, -6.0).term(x + 1, 4.0));
        let s = p.solve(&settings()).unwrap();
        let (ex, ey) = (4.0, -2.0);
        assert_abs_diff_eq!(s.x[0], ex, epsilon = 1e-6);
        assert_abs_diff_eq!(s.x[1], ey, epsilon = 1e-6);
        let value = (ex - 3.0f64).powi(2) + 2.0 * (ey + 1.0f64).powi(2) + ex * ey;
        assert_abs_diff_eq!(s.objective, value, epsilon = 1e-6);
    }

    #[test]
    fn infeasible_program_is_a_typed_error() {
        // ‖x‖ ≤ 1 and x ≥ 2.
        let mut p = Socp::new("infeasible");
        let x = p.add_variable();
        p.minimize_linear(Affine::var(x));
        p.add_cone(Affine::constant(1.0), vec![Affine::var(x)]);
        p.add_lower_bound(x, 2.0);
        match p.solve(&settings()) {
            Err(Error::Infeasible { what, detail }) => {
                assert!(!what.contains("dual"), "{what}");
                assert!(detail.contains("PrimalInfeasible"), "{detail}");
                assert!(detail.contains("residual"), "{detail}");
            }
            other => panic!("expected Infeasible, got {other:?}"),
        }
    }

    #[test]
    fn unbounded_program_is_a_typed_error() {
        // min x s.t. x ≤ 1.
        let mut p = Socp::new("unbounded");
        let x = p.add_variable();
        p.minimize_linear(Affine::var(x));
        p.add_inequality(Affine::var(x).plus(-1.0));
        match p.solve(&settings()) {
            Err(Error::Infeasible { what, detail }) => {
                assert!(what.contains("dual"), "{what}");
                assert!(detail.contains("unbounded"), "{detail}");
            }
            other => panic!("expected an unbounded error, got {other:?}"),
        }
    }

    #[test]
    fn iteration_limit_is_not_converged() {
        let mut p = Socp::new("limited");
        let x = p.add_variables(2);
        let t = p.add_variable();
        p.minimize_linear(Affine::var(t));
        p.add_cone(
            Affine::var(t),
            vec![Affine::var(x).plus(-1.0), Affine::var(x + 1)],
        );
        let s = SocpSettings {
            max_iter: 1,
            ..settings()
        };
        assert!(matches!(p.solve(&s), Err(Error::NotConverged { .. })));
    }

    #[test]
    fn bad_input_is_rejected() {
        let mut p = Socp::new("bad");
        assert!(matches!(p.solve(&settings()), Err(Error::Empty { .. })));
        let x = p.add_variable();
        p.add_inequality(Affine::var(x + 5));
        assert!(matches!(
            p.solve(&settings()),
            Err(Error::InvalidValue { .. })
        ));
        let mut p = Socp::new("nan");
        let x = p.add_variable();
        p.minimize_linear(Affine::new().term(x, f64::NAN));
        assert!(matches!(p.solve(&settings()), Err(Error::NonFinite { .. })));
        let s = SocpSettings {
            tol_feas: -1.0,
            ..settings()
        };
        assert!(matches!(
            p.solve(&s),
            Err(Error::InvalidParameter {
                name: "tol_feas",
                ..
            })
        ));
    }

    #[test]
    fn thousands_of_sparse_variables() {
        // min Σ xᵢ s.t. ‖x − 1‖ ≤ 1 for n = 3000: x* = 1 − 1/√n, value n − √n.
        let n = 3000;
        let mut p = Socp::new("large");
        let x = p.add_variables(n);
        p.minimize_linear(Affine {
            terms: (0..n).map(|j| (x + j, 1.0)).collect(),
            constant: 0.0,
        });
        let rows = (0..n).map(|j| Affine::var(x + j).plus(-1.0)).collect();
        p.add_cone(Affine::constant(1.0), rows);
        let s = p.solve(&settings()).unwrap();
        let nf = n as f64;
        assert_abs_diff_eq!(s.objective, nf - nf.sqrt(), epsilon = 1e-5);
        assert_abs_diff_eq!(s.x[7], 1.0 - 1.0 / nf.sqrt(), epsilon = 1e-6);
    }
}
