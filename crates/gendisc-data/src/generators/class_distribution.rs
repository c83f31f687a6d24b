//! A class-conditional distribution `p(x | y)` of a simulated dataset.

use gendisc_core::Result;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut2};
use rand::Rng;

use super::{DependentBernoulli, MultivariateNormal};

/// The distribution of the features within one class of a simulated dataset.
#[derive(Debug, Clone, PartialEq)]
pub enum ClassDistribution {
    /// Continuous features, `x | y ~ N(μ_y, Σ_y)`.
    Normal(MultivariateNormal),
    /// Binary features, `x | y` a [`DependentBernoulli`] vector.
    Bernoulli(DependentBernoulli),
}

impl ClassDistribution {
    /// Dimension `d`.
    pub fn dim(&self) -> usize {
        match self {
            ClassDistribution::Normal(n) => n.dim(),
            ClassDistribution::Bernoulli(b) => b.dim(),
        }
    }

    /// The analytic mean `E[x | y]`.
    pub fn mean(&self) -> ArrayView1<'_, f64> {
        match self {
            ClassDistribution::Normal(n) => n.mean(),
            ClassDistribution::Bernoulli(b) => b.mean(),
        }
    }

    /// The analytic covariance `Cov[x | y]`.
    pub fn covariance(&self) -> ArrayView2<'_, f64> {
        match self {
            ClassDistribution::Normal(n) => n.covariance(),
            ClassDistribution::Bernoulli(b) => b.covariance(),
        }
    }

    /// `n` independent draws, one per row.
    pub fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> Array2<f64> {
        let mut out = Array2::zeros((n, self.dim()));
        self.fill(out.view_mut(), rng);
        out
    }

    /// `log p(x_i | y)` for each row: a log density for normal features, a log probability for
    /// binary ones. See [`MultivariateNormal::log_density`] and [`DependentBernoulli::log_pmf`]
    /// for the validation.
    pub fn log_likelihood(&self, x: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        match self {
            ClassDistribution::Normal(n) => n.log_density(x),
            ClassDistribution::Bernoulli(b) => b.log_pmf(x),
        }
    }

    pub(crate) fn fill<R: Rng + ?Sized>(&self, out: ArrayViewMut2<'_, f64>, rng: &mut R) {
        match self {
            ClassDistribution::Normal(n) => n.fill(out, rng),
            ClassDistribution::Bernoulli(b) => b.fill(out, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::XueTitteringtonPreset;
    use ndarray::array;

    #[test]
    fn log_likelihood_delegates_to_the_family() {
        // Bernoulli: the probabilities of the 16 states sum to one.
        let states = Array2::from_shape_fn((16, 4), |(s, i)| ((s >> i) & 1) as f64);
        for class in XueTitteringtonPreset::BernoulliUnequalFull.class_distributions() {
            let total: f64 = class
                .log_likelihood(states.view())
                .unwrap()
                .mapv(f64::exp)
                .sum();
            assert!((total - 1.0).abs() < 1e-12);
        }
        // Normal: the same numbers as the normal's own density.
        let [class0, _] = XueTitteringtonPreset::NormalUnequalBlock.class_distributions();
        let x = array![[0.0, 1.0, -1.0, 2.0]];
        let ClassDistribution::Normal(normal) = &class0 else {
            panic!("a normal preset has normal classes")
        };
        assert_eq!(
            class0.log_likelihood(x.view()).unwrap(),
            normal.log_density(x.view()).unwrap()
        );
        assert!(class0.log_likelihood(array![[0.0]].view()).is_err());
    }
}
