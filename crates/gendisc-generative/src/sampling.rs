//! Drawing `(x, y)` pairs from a fitted joint distribution `p(x, y) = p(y) p(x | y)`.

use ndarray::{Array1, Array2, ArrayView1};
use rand::Rng;

/// A fitted generative model that can draw samples from its joint distribution.
///
/// Each draw takes `y ~ p(y)` and then `x ~ p(x | y)`; rows are independent. The result is a
/// deterministic function of the generator's state, so a seeded
/// [`ChaCha8Rng`](rand_chacha::ChaCha8Rng) gives the same bits on every platform.
///
/// ```
/// use gendisc_core::Fit;
/// use gendisc_generative::{GaussianNb, SampleJoint};
/// use ndarray::array;
/// use rand::SeedableRng;
///
/// let x = array![[0.0, 1.0], [0.5, 1.5], [4.0, 0.0], [5.0, 0.5]];
/// let y = array![0, 0, 1, 1];
/// let model = GaussianNb::params().fit(x.view(), y.view()).unwrap();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
/// let (xs, ys) = model.sample(100, &mut rng);
/// assert_eq!(xs.dim(), (100, 2));
/// assert!(ys.iter().all(|&k| k < 2));
/// ```
pub trait SampleJoint {
    /// Draws `n` independent pairs `(x_i, y_i)`: an `n × d` matrix and `n` classes.
    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> (Array2<f64>, Array1<usize>);
}

/// Inverse-CDF sampling from a finite distribution given by log-weights.
#[derive(Debug, Clone)]
pub(crate) struct Categorical {
    cumulative: Vec<f64>,
}

impl Categorical {
    /// The distribution `p_k ∝ exp(log_weight_k)`; `-∞` entries have probability zero.
    pub fn from_log_weights(log_weight: ArrayView1<'_, f64>) -> Self {
        let max = log_weight.fold(f64::NEG_INFINITY, |m, &v| m.max(v));
        let mut total = 0.0;
        let cumulative = log_weight
            .iter()
            .map(|&v| {
                total += (v - max).exp();
                total
            })
            .collect();
        Self { cumulative }
    }

    /// One draw: the first index whose cumulative weight exceeds `u · total`, `u ~ U[0, 1)`.
    pub fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> usize {
        let total = *self
            .cumulative
            .last()
            .expect("a distribution has an outcome");
        let u = rng.random::<f64>() * total;
        self.cumulative
            .iter()
            .position(|&c| c > u)
            .unwrap_or(self.cumulative.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn categorical_frequencies_follow_the_weights() {
        let c = Categorical::from_log_weights(
            array![0.2f64.ln(), f64::NEG_INFINITY, 0.8f64.ln()].view(),
        );
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut counts = [0usize; 3];
        for _ in 0..20_000 {
            counts[c.draw(&mut rng)] += 1;
        }
        assert_eq!(counts[1], 0);
        // Binomial(20000, 0.2): sd ≈ 57, so ±300 is more than five sd.
        assert!((counts[0] as i64 - 4000).abs() < 300, "{counts:?}");
    }
}
