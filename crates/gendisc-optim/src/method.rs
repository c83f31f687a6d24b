//! The solver side of the problem/solver split: one [`Minimizer`] interface, and [`Method`], the
//! choice of solver an estimator stores in its settings.

use gendisc_core::Result;
use ndarray::ArrayView1;
use serde::{Deserialize, Serialize};

use crate::first_order::{ConjugateGradient, ConjugateGradientSettings, Lbfgs, LbfgsSettings};
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

/// Settings of [`Method::Auto`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AutoSettings {
    /// The largest number of parameters for which the trust-region Newton method is used;
    /// above it, L-BFGS. Default [`AUTO_MAX_NEWTON_DIM`].
    pub max_newton_dim: usize,
    /// The settings of the trust-region Newton method.
    pub trust_region: TrustRegionSettings,
    /// The settings of L-BFGS.
    pub lbfgs: LbfgsSettings,
}

impl Default for AutoSettings {
    fn default() -> Self {
        Self {
            max_newton_dim: AUTO_MAX_NEWTON_DIM,
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
        match self.for_dim(problem.dim()) {
            Method::TrustRegion(s) => TrustRegion::new(s).minimize(problem, x0),
            Method::Newton(s) => Newton::new(s).minimize(problem, x0),
            Method::Lbfgs(s) => Lbfgs::new(s).minimize(problem, x0),
            Method::ConjugateGradient(s) => ConjugateGradient::new(s).minimize(problem, x0),
            Method::Auto(_) => unreachable!("for_dim resolves Auto"),
        }
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
