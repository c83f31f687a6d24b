//! The solver side of the problem/solver split: one [`Minimizer`] interface, and [`Method`], the
//! choice of solver an estimator stores in its settings.

use gendisc_core::Result;
use ndarray::ArrayView1;
use serde::{Deserialize, Serialize};

use crate::first_order::{ConjugateGradient, ConjugateGradientSettings};
use crate::lbfgs::{Lbfgs, LbfgsSettings};
use crate::newton::{Newton, NewtonSettings};
use crate::objective::{Objective, TwiceDifferentiable};
use crate::report::Solution;
use crate::trust_region::{TrustRegion, TrustRegionSettings};

/// A solver that minimises problems of type `P` (argmin's `Solver`, without the executor).
///
/// Fails only on invalid settings or an invalid starting point; every outcome of the iteration
/// itself is a [`Status`](crate::Status) in the returned report.
pub trait Minimizer<P: ?Sized> {
    /// Minimises `problem` from `x0`.
    fn minimize(&self, problem: &P, x0: ArrayView1<'_, f64>) -> Result<Solution>;
}

impl<P: TwiceDifferentiable + ?Sized> Minimizer<P> for TrustRegion {
    fn minimize(&self, problem: &P, x0: ArrayView1<'_, f64>) -> Result<Solution> {
        TrustRegion::minimize(self, problem, x0)
    }
}

impl<P: TwiceDifferentiable + ?Sized> Minimizer<P> for Newton {
    fn minimize(&self, problem: &P, x0: ArrayView1<'_, f64>) -> Result<Solution> {
        Newton::minimize(self, problem, x0)
    }
}

impl<P: Objective + ?Sized> Minimizer<P> for Lbfgs {
    fn minimize(&self, problem: &P, x0: ArrayView1<'_, f64>) -> Result<Solution> {
        Lbfgs::minimize(self, problem, x0)
    }
}

impl<P: Objective + ?Sized> Minimizer<P> for ConjugateGradient {
    fn minimize(&self, problem: &P, x0: ArrayView1<'_, f64>) -> Result<Solution> {
        ConjugateGradient::minimize(self, problem, x0)
    }
}

/// The default of [`AutoSettings::max_newton_dim`]: up to 1000 parameters a dense Hessian
/// (10⁶ entries, a Cholesky factorisation of about 3·10⁸ flops) costs less than the many more
/// iterations a first-order method needs. Measured on GDT's LDA family on scikit-learn's
/// standardised breast-cancer table (30 features, 526 parameters, λ ∈ {¼, ½, ¾}, shrinkage 0.1):
/// trust-region Newton converges in 3–4 iterations, L-BFGS stops at its 2000-iteration cap with
/// a gradient norm of 3·10⁻⁴–10⁻³.
pub const AUTO_MAX_NEWTON_DIM: usize = 1000;

/// The default of [`AutoSettings::max_hessian_cost`]: `10⁸` operations as the problem counts them,
/// a tenth of a second or so on one core (GDT's Hessians ran at 0.65–1 such operations per
/// nanosecond). Above it a trust-region Newton fit of ten iterations costs seconds, where
/// L-BFGS on whitened inputs, finished by Newton where it stops short, costs a fraction. Measured
/// on GDT (release build, `gendisc fit gdt`): LDA on UCI ionosphere with shrinkage 0.05 (664
/// parameters, `6·10⁸` per Hessian) took 6.5 s for nine Newton iterations at `λ = 0.05`, where
/// whitened L-BFGS converged in 0.03 s; QDA on Statlog vehicle (759 parameters, `6·10⁸`) 5.0 s
/// for twelve, where L-BFGS stalled after 1.0 s at 1.5 times the criterion; LDA on Statlog
/// satimage (887 parameters, `1.7·10¹⁰`) 175 s for five, where L-BFGS converged in 2–3 s.
pub const AUTO_MAX_HESSIAN_COST: f64 = 1e8;

/// Settings of [`Method::Auto`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AutoSettings {
    /// The largest number of parameters for which the trust-region Newton method is used;
    /// above it, L-BFGS. Default [`AUTO_MAX_NEWTON_DIM`].
    pub max_newton_dim: usize,
    /// The largest cost of one Hessian, in floating-point operations as the problem estimates
    /// it ([`TwiceDifferentiable::hessian_cost`]), for which trust-region Newton is used; above
    /// it L-BFGS runs first, and Newton finishes only a run that stopped short of the criterion
    /// ([`Method::newton_finish`]). Default [`AUTO_MAX_HESSIAN_COST`]. Absent from settings
    /// serialised before it existed, and left out while it has its default.
    #[serde(
        default = "default_max_hessian_cost",
        skip_serializing_if = "is_default_max_hessian_cost"
    )]
    pub max_hessian_cost: f64,
    /// The settings of the trust-region Newton method.
    pub trust_region: TrustRegionSettings,
    /// The settings of L-BFGS.
    pub lbfgs: LbfgsSettings,
}

fn default_max_hessian_cost() -> f64 {
    AUTO_MAX_HESSIAN_COST
}

fn is_default_max_hessian_cost(cost: &f64) -> bool {
    *cost == AUTO_MAX_HESSIAN_COST
}

impl Default for AutoSettings {
    fn default() -> Self {
        Self {
            max_newton_dim: AUTO_MAX_NEWTON_DIM,
            max_hessian_cost: AUTO_MAX_HESSIAN_COST,
            trust_region: TrustRegionSettings::default(),
            lbfgs: LbfgsSettings::default(),
        }
    }
}

/// Which solver minimises a problem, with its settings: what an estimator stores.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Method {
    /// Trust-region Newton while the problem has at most
    /// [`max_newton_dim`](AutoSettings::max_newton_dim) parameters, else L-BFGS.
    Auto(AutoSettings),
    /// Trust-region Newton with Levenberg–Marquardt damping ([`TrustRegion`]).
    TrustRegion(TrustRegionSettings),
    /// Newton's method with an Armijo line search ([`Newton`]).
    Newton(NewtonSettings),
    /// Limited-memory BFGS ([`Lbfgs`]).
    Lbfgs(LbfgsSettings),
    /// Nonlinear conjugate gradient, Polak–Ribière+ ([`ConjugateGradient`]).
    ConjugateGradient(ConjugateGradientSettings),
}

impl Default for Method {
    fn default() -> Self {
        Method::Auto(AutoSettings::default())
    }
}

impl Method {
    /// The method that runs on a problem of `dim` parameters: [`Method::Auto`] resolved, any
    /// other method as it is.
    pub fn for_dim(&self, dim: usize) -> Method {
        match *self {
            Method::Auto(a) if dim <= a.max_newton_dim => Method::TrustRegion(a.trust_region),
            Method::Auto(a) => Method::Lbfgs(a.lbfgs),
            other => other,
        }
    }

    /// The method that runs on `problem`: [`Method::Auto`] resolved by the problem's dimension
    /// and, where the problem estimates it, the cost of its Hessian
    /// ([`AutoSettings::max_hessian_cost`]); any other method as it is.
    pub fn for_problem<P: TwiceDifferentiable + ?Sized>(&self, problem: &P) -> Method {
        match *self {
            Method::Auto(a)
                if problem
                    .hessian_cost()
                    .is_some_and(|cost| cost > a.max_hessian_cost) =>
            {
                Method::Lbfgs(a.lbfgs)
            }
            method => method.for_dim(problem.dim()),
        }
    }

    /// For [`Method::Auto`], the trust-region Newton method that finishes, from where it
    /// stopped, an L-BFGS run on `dim` parameters that ended short of its criterion (a stall or
    /// the iteration cap) — while `dim` is within [`AutoSettings::max_newton_dim`]; `None` for
    /// every other method, and beyond that dimension.
    pub fn newton_finish(&self, dim: usize) -> Option<Method> {
        match *self {
            Method::Auto(a) if dim <= a.max_newton_dim => Some(Method::TrustRegion(a.trust_region)),
            _ => None,
        }
    }

    /// A short name: "trust-region Newton", "L-BFGS", … ("automatic" for [`Method::Auto`]).
    pub fn name(&self) -> &'static str {
        match self {
            Method::Auto(_) => "automatic",
            Method::TrustRegion(_) => "trust-region Newton",
            Method::Newton(_) => "Newton's method",
            Method::Lbfgs(_) => "L-BFGS",
            Method::ConjugateGradient(_) => "conjugate gradient",
        }
    }

    /// The gradient tolerance of the [`Criterion`](crate::Criterion) the method stops on
    /// (for [`Method::Auto`], that of the method used at `dim` parameters).
    pub fn gradient_tolerance(&self, dim: usize) -> f64 {
        match self.for_dim(dim) {
            Method::TrustRegion(s) => s.gradient_tolerance,
            Method::Newton(s) => s.gradient_tolerance,
            Method::Lbfgs(s) => s.gradient_tolerance,
            Method::ConjugateGradient(s) => s.gradient_tolerance,
            Method::Auto(_) => unreachable!("for_dim resolves Auto"),
        }
    }

    /// The method that runs on a problem of `dim` parameters ([`Self::for_dim`]), stopping at the
    /// gradient tolerance `tolerance` instead of its own.
    pub fn with_gradient_tolerance(&self, dim: usize, tolerance: f64) -> Method {
        match self.for_dim(dim) {
            Method::TrustRegion(s) => Method::TrustRegion(TrustRegionSettings {
                gradient_tolerance: tolerance,
                ..s
            }),
            Method::Newton(s) => Method::Newton(NewtonSettings {
                gradient_tolerance: tolerance,
                ..s
            }),
            Method::Lbfgs(s) => Method::Lbfgs(LbfgsSettings {
                gradient_tolerance: tolerance,
                ..s
            }),
            Method::ConjugateGradient(s) => Method::ConjugateGradient(ConjugateGradientSettings {
                gradient_tolerance: tolerance,
                ..s
            }),
            Method::Auto(_) => unreachable!("for_dim resolves Auto"),
        }
    }

    /// The iteration cap of the method that runs on a problem of `dim` parameters
    /// ([`Self::for_dim`]).
    pub fn max_iterations(&self, dim: usize) -> usize {
        match self.for_dim(dim) {
            Method::TrustRegion(s) => s.max_iterations,
            Method::Newton(s) => s.max_iterations,
            Method::Lbfgs(s) => s.max_iterations,
            Method::ConjugateGradient(s) => s.max_iterations,
            Method::Auto(_) => unreachable!("for_dim resolves Auto"),
        }
    }

    /// The method that runs on a problem of `dim` parameters ([`Self::for_dim`]), stopping after
    /// at most `max_iterations` iterations instead of its own cap: what is left of a budget
    /// shared by several runs.
    pub fn with_max_iterations(&self, dim: usize, max_iterations: usize) -> Method {
        match self.for_dim(dim) {
            Method::TrustRegion(s) => Method::TrustRegion(TrustRegionSettings {
                max_iterations,
                ..s
            }),
            Method::Newton(s) => Method::Newton(NewtonSettings {
                max_iterations,
                ..s
            }),
            Method::Lbfgs(s) => Method::Lbfgs(LbfgsSettings {
                max_iterations,
                ..s
            }),
            Method::ConjugateGradient(s) => Method::ConjugateGradient(ConjugateGradientSettings {
                max_iterations,
                ..s
            }),
            Method::Auto(_) => unreachable!("for_dim resolves Auto"),
        }
    }

    /// Checks the settings of the method (both of [`Method::Auto`]'s).
    pub fn validate(&self) -> Result<()> {
        match self {
            Method::Auto(a) => {
                a.trust_region.validate()?;
                a.lbfgs.validate()
            }
            Method::TrustRegion(s) => s.validate(),
            Method::Newton(s) => s.validate(),
            Method::Lbfgs(s) => s.validate(),
            Method::ConjugateGradient(s) => s.validate(),
        }
    }
}

impl<P: TwiceDifferentiable + ?Sized> Minimizer<P> for Method {
    fn minimize(&self, problem: &P, x0: ArrayView1<'_, f64>) -> Result<Solution> {
        let solution = match self.for_problem(problem) {
            Method::TrustRegion(s) => TrustRegion::new(s).minimize(problem, x0),
            Method::Newton(s) => Newton::new(s).minimize(problem, x0),
            Method::Lbfgs(s) => Lbfgs::new(s).minimize(problem, x0),
            Method::ConjugateGradient(s) => ConjugateGradient::new(s).minimize(problem, x0),
            Method::Auto(_) => unreachable!("for_problem resolves Auto"),
        }?;
        self.finish_with_newton(problem, solution)
    }
}

impl Method {
    /// `solution` of the method [`Self::for_problem`] chose, finished by
    /// [`Self::newton_finish`] where that applies: the L-BFGS run of [`Method::Auto`] stopped
    /// short of its criterion and the problem is within Newton's dimension. The iterations and
    /// evaluations of both runs are added up; the report is Newton's.
    pub fn finish_with_newton<P: TwiceDifferentiable + ?Sized>(
        &self,
        problem: &P,
        solution: Solution,
    ) -> Result<Solution> {
        let stopped_short = matches!(
            solution.report.status,
            crate::Status::Stalled | crate::Status::MaxIterations
        );
        let finish = match self.for_problem(problem) {
            Method::Lbfgs(_) if stopped_short => self.newton_finish(problem.dim()),
            _ => None,
        };
        let Some(Method::TrustRegion(settings)) = finish else {
            return Ok(solution);
        };
        let mut finished = TrustRegion::new(settings).minimize(problem, solution.x.view())?;
        finished.report.iterations += solution.report.iterations;
        finished.report.evaluations += solution.report.evaluations;
        Ok(finished)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_functions::Rosenbrock;
    use crate::Status;
    use ndarray::array;

    #[test]
    fn auto_picks_newton_for_small_problems_and_lbfgs_beyond() {
        let auto = Method::default();
        assert!(matches!(auto.for_dim(2), Method::TrustRegion(_)));
        assert!(matches!(
            auto.for_dim(AUTO_MAX_NEWTON_DIM + 1),
            Method::Lbfgs(_)
        ));
        let lbfgs_only = Method::Auto(AutoSettings {
            max_newton_dim: 1,
            ..Default::default()
        });
        assert!(matches!(lbfgs_only.for_dim(2), Method::Lbfgs(_)));
    }

    /// Rosenbrock claiming a Hessian of `cost` operations.
    struct Costly {
        cost: f64,
    }

    impl Objective for Costly {
        fn dim(&self) -> usize {
            2
        }
        fn value(&self, x: ndarray::ArrayView1<'_, f64>) -> f64 {
            Rosenbrock::default().value(x)
        }
        fn value_and_gradient(
            &self,
            x: ndarray::ArrayView1<'_, f64>,
            gradient: ndarray::ArrayViewMut1<'_, f64>,
        ) -> f64 {
            Rosenbrock::default().value_and_gradient(x, gradient)
        }
    }

    impl TwiceDifferentiable for Costly {
        fn hessian(
            &self,
            x: ndarray::ArrayView1<'_, f64>,
            hessian: ndarray::ArrayViewMut2<'_, f64>,
        ) {
            Rosenbrock::default().hessian(x, hessian)
        }
        fn hessian_cost(&self) -> Option<f64> {
            Some(self.cost)
        }
    }

    #[test]
    fn auto_leaves_newton_for_lbfgs_when_the_hessian_is_dear_and_newton_finishes_a_short_run() {
        let auto = Method::Auto(AutoSettings {
            lbfgs: LbfgsSettings {
                max_iterations: 3,
                ..LbfgsSettings::default()
            },
            ..AutoSettings::default()
        });
        let cheap = Costly { cost: 1.0 };
        let dear = Costly {
            cost: 2.0 * AUTO_MAX_HESSIAN_COST,
        };
        assert!(matches!(auto.for_problem(&cheap), Method::TrustRegion(_)));
        assert!(matches!(auto.for_problem(&dear), Method::Lbfgs(_)));
        assert!(matches!(
            auto.newton_finish(2),
            Some(Method::TrustRegion(_))
        ));
        assert!(auto.newton_finish(AUTO_MAX_NEWTON_DIM + 1).is_none());
        assert!(Method::Lbfgs(LbfgsSettings::default())
            .newton_finish(2)
            .is_none());
        // L-BFGS stops at its cap of 3 iterations; Newton finishes from there.
        let start = array![-1.2, 1.0];
        let capped = Lbfgs::new(LbfgsSettings {
            max_iterations: 3,
            ..LbfgsSettings::default()
        })
        .minimize(&dear, start.view())
        .unwrap();
        assert_eq!(capped.report.status, Status::MaxIterations);
        let sol = Minimizer::minimize(&auto, &dear, start.view()).unwrap();
        assert_eq!(sol.report.status, Status::Converged);
        assert!(sol.report.iterations > 3, "{:?}", sol.report);
        assert!((sol.x[0] - 1.0).abs() < 1e-6);
    }

    #[test]
    fn every_method_minimises_through_the_trait() {
        let methods = [
            Method::default(),
            Method::TrustRegion(TrustRegionSettings::default()),
            Method::Newton(NewtonSettings::default()),
            Method::Lbfgs(LbfgsSettings::default()),
            Method::ConjugateGradient(ConjugateGradientSettings::default()),
        ];
        for method in methods {
            let sol =
                Minimizer::minimize(&method, &Rosenbrock::default(), array![-1.2, 1.0].view())
                    .unwrap();
            assert_eq!(sol.report.status, Status::Converged, "{}", method.name());
            assert!((sol.x[0] - 1.0).abs() < 1e-6, "{}", method.name());
        }
    }
}
