//! Standard test objectives with known minimisers, for tests, examples and benchmarks of the
//! solvers (and of problems that reuse them).

use gendisc_core::linalg::solve_spd;
use gendisc_core::validate::{check_finite_matrix, check_finite_vector};
use gendisc_core::{Error, Result};
use ndarray::{Array1, Array2, ArrayView1, ArrayViewMut1, ArrayViewMut2};

use crate::objective::{Objective, TwiceDifferentiable};

/// The quadratic `f(x) = ½ xᵀA x − bᵀx` with `A` symmetric positive definite; its minimiser is
/// `A⁻¹ b`.
#[derive(Debug, Clone, PartialEq)]
pub struct Quadratic {
    a: Array2<f64>,
    b: Array1<f64>,
}

impl Quadratic {
    /// Builds the quadratic; fails unless `A` is square, symmetric positive definite and
    /// matches `b`, all finite.
    pub fn new(a: Array2<f64>, b: Array1<f64>) -> Result<Self> {
        check_finite_matrix(a.view(), "A")?;
        check_finite_vector(b.view(), "b")?;
        if a.nrows() != b.len() {
            return Err(Error::shape_mismatch(
                "rows of A vs length of b",
                b.len(),
                a.nrows(),
            ));
        }
        // Factorising checks squareness and positive definiteness.
        solve_spd(a.view(), b.view())?;
        Ok(Self { a, b })
    }

    /// The minimiser `A⁻¹ b`.
    pub fn minimizer(&self) -> Array1<f64> {
        solve_spd(self.a.view(), self.b.view()).expect("A was checked positive definite")
    }
}

impl Objective for Quadratic {
    fn dim(&self) -> usize {
        self.b.len()
    }

    fn value(&self, x: ArrayView1<'_, f64>) -> f64 {
        0.5 * x.dot(&self.a.dot(&x)) - self.b.dot(&x)
    }

    fn value_and_gradient(
        &self,
        x: ArrayView1<'_, f64>,
        mut gradient: ArrayViewMut1<'_, f64>,
    ) -> f64 {
        let ax = self.a.dot(&x);
        gradient.assign(&(&ax - &self.b));
        0.5 * x.dot(&ax) - self.b.dot(&x)
    }
}

impl TwiceDifferentiable for Quadratic {
    fn hessian(&self, _x: ArrayView1<'_, f64>, mut hessian: ArrayViewMut2<'_, f64>) {
        hessian.assign(&self.a);
    }
}

/// Rosenbrock's banana `f(x, y) = (a − x)² + b (y − x²)²`, minimised at `(a, a²)` with value
/// 0; the default `a = 1`, `b = 100` is the classic (Rosenbrock 1960) with its curved valley.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rosenbrock {
    /// `a`.
    pub a: f64,
    /// `b`.
    pub b: f64,
}

impl Default for Rosenbrock {
    fn default() -> Self {
        Self { a: 1.0, b: 100.0 }
    }
}

impl Objective for Rosenbrock {
    fn dim(&self) -> usize {
        2
    }

    fn value(&self, x: ArrayView1<'_, f64>) -> f64 {
        (self.a - x[0]).powi(2) + self.b * (x[1] - x[0] * x[0]).powi(2)
    }

    fn value_and_gradient(
        &self,
        x: ArrayView1<'_, f64>,
        mut gradient: ArrayViewMut1<'_, f64>,
    ) -> f64 {
        let r = x[1] - x[0] * x[0];
        gradient[0] = -2.0 * (self.a - x[0]) - 4.0 * self.b * x[0] * r;
        gradient[1] = 2.0 * self.b * r;
        self.value(x)
    }
}

impl TwiceDifferentiable for Rosenbrock {
    fn hessian(&self, x: ArrayView1<'_, f64>, mut hessian: ArrayViewMut2<'_, f64>) {
        hessian[[0, 0]] = 2.0 - 4.0 * self.b * (x[1] - 3.0 * x[0] * x[0]);
        hessian[[0, 1]] = -4.0 * self.b * x[0];
        hessian[[1, 0]] = -4.0 * self.b * x[0];
        hessian[[1, 1]] = 2.0 * self.b;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;
    use proptest::prelude::*;

    /// Central differences of the gradient and of the Hessian's columns.
    fn check_derivatives<P: TwiceDifferentiable>(p: &P, x: Array1<f64>) {
        let n = p.dim();
        let g = p.gradient(x.view());
        let mut h = Array2::zeros((n, n));
        p.hessian(x.view(), h.view_mut());
        for j in 0..n {
            let step = 1e-6 * x[j].abs().max(1.0);
            let (mut up, mut down) = (x.clone(), x.clone());
            up[j] += step;
            down[j] -= step;
            let fd = (p.value(up.view()) - p.value(down.view())) / (2.0 * step);
            assert!(
                (fd - g[j]).abs() <= 1e-5 * g[j].abs().max(1.0),
                "∂f/∂x{j}: {fd} vs {}",
                g[j]
            );
            let gd = (p.gradient(up.view()) - p.gradient(down.view())) / (2.0 * step);
            for i in 0..n {
                assert!((gd[i] - h[[i, j]]).abs() <= 1e-4 * h[[i, j]].abs().max(1.0));
            }
        }
    }

    #[test]
    fn quadratic_is_checked() {
        assert!(Quadratic::new(array![[1.0, 2.0], [2.0, 1.0]], array![0.0, 0.0]).is_err());
        assert!(Quadratic::new(array![[1.0]], array![0.0, 0.0]).is_err());
        let q = Quadratic::new(array![[2.0, 0.0], [0.0, 4.0]], array![2.0, 2.0]).unwrap();
        approx::assert_abs_diff_eq!(q.minimizer(), array![1.0, 0.5], epsilon = 1e-15);
    }

    proptest! {
        #[test]
        fn rosenbrock_derivatives(x in -2.0f64..2.0, y in -1.0f64..3.0) {
            check_derivatives(&Rosenbrock::default(), array![x, y]);
        }

        #[test]
        fn quadratic_derivatives(x in prop::collection::vec(-3.0f64..3.0, 2)) {
            let q = Quadratic::new(array![[3.0, 1.0], [1.0, 2.0]], array![1.0, -1.0]).unwrap();
            check_derivatives(&q, Array1::from(x));
        }
    }
}
