//! The two synthetic problems of Bouchard & Triggs, *The tradeoff between generative and
//! discriminative classifiers* (COMPSTAT 2004), §4.
//!
//! Both have four features and two classes, and in both the true log-odds is linear,
//! `log p(y = 1 | x) / p(y = 0 | x) = 2.5 x_1`, so that linear logistic regression is the true
//! conditional model, as the paper notes.

use std::fmt;
use std::str::FromStr;

use gendisc_core::numerics::sigmoid;
use gendisc_core::validate::check_finite_matrix;
use gendisc_core::{Error, Result};
use ndarray::{Array1, Array2, ArrayView2};
use rand::Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

/// Number of features of both simulations.
pub const N_FEATURES: usize = 4;

/// `m_1 = (1.25, 0, 0, 0)`, the mean of class 1 in the Gaussian simulation; `m_0 = −m_1`.
const GAUSSIAN_MEAN_OFFSET: f64 = 1.25;

/// `P(y = 1)` in the Gaussian simulation. The paper does not state the class prior; equal
/// priors make the true log-odds `2.5 x_1`, the same function as in the uniform simulation.
const GAUSSIAN_CLASS_PRIOR: f64 = 0.5;

/// The slope of the true log-odds in `x_1` (both simulations).
const LOG_ODDS_SLOPE: f64 = 2.5;

/// One of the two simulations of Bouchard & Triggs §4. Class labels are 0 and 1 as in the paper.
///
/// ```
/// use gendisc_data::generators::BouchardTriggsSimulation;
/// use rand::SeedableRng;
/// use rand_chacha::ChaCha8Rng;
///
/// let mut rng = ChaCha8Rng::seed_from_u64(3);
/// let (x, y) = BouchardTriggsSimulation::CorrelatedUniform.sample(200, &mut rng);
/// assert_eq!((x.nrows(), x.ncols(), y.len()), (200, 4, 200));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BouchardTriggsSimulation {
    /// First simulation: `x | y ~ N(m_y, I_4)` with `m_1 = (1.25, 0, 0, 0)`, `m_0 = −m_1`.
    ///
    /// The paper does not state the class prior. We draw `y ~ Bernoulli(1/2)` independently for
    /// each row (so class sizes vary from sample to sample), which makes the true log-odds
    /// `2 m_1ᵀ x = 2.5 x_1`. Each row draws `y` first, then four standard normals.
    GaussianIdentity,
    /// Second simulation: `x_1 ~ U[0, 1]`, `x_d ~ U[x_{d−1}, 1 + x_{d−1}]` for `d = 2, 3, 4`, and
    /// `y | x ~ Bernoulli(σ(2.5 x_1))` with `σ(t) = 1 / (1 + exp(−t))`.
    ///
    /// The paper prints the Bernoulli parameter as `1/exp(−2.5 x^{(1)})`, which equals
    /// `exp(2.5 x_1) > 1` for every `x_1 > 0` and so is not a probability. We read it as the
    /// logistic function `1/(1 + exp(−2.5 x_1))`: this is what makes the paper's remark that
    /// "the linear logistic model is true in the two experiments" hold, and it gives the same
    /// log-odds `2.5 x_1` as the Gaussian simulation.
    ///
    /// Each row draws four uniforms `u_d` in `[0, 1)` and sets `x_d = x_{d−1} + u_d`, then `y`.
    /// Hence `E[x_d] = d/2` and `Cov(x_i, x_j) = min(i, j)/12`.
    CorrelatedUniform,
}

impl BouchardTriggsSimulation {
    /// Both simulations in the paper's order (rows of its Figure 1).
    pub const ALL: [Self; 2] = [Self::GaussianIdentity, Self::CorrelatedUniform];

    /// A stable kebab-case name (also the serde representation).
    pub fn name(self) -> &'static str {
        match self {
            Self::GaussianIdentity => "gaussian-identity",
            Self::CorrelatedUniform => "correlated-uniform",
        }
    }

    /// `n` independent rows `(x_i, y_i)`: an `n × 4` feature matrix and labels in `{0, 1}`.
    pub fn sample<R: Rng + ?Sized>(self, n: usize, rng: &mut R) -> (Array2<f64>, Array1<usize>) {
        let mut x = Array2::zeros((n, N_FEATURES));
        let mut y = Array1::zeros(n);
        for (mut row, label) in x.rows_mut().into_iter().zip(y.iter_mut()) {
            match self {
                Self::GaussianIdentity => {
                    let class = rng.random_bool(GAUSSIAN_CLASS_PRIOR);
                    let offset = if class {
                        GAUSSIAN_MEAN_OFFSET
                    } else {
                        -GAUSSIAN_MEAN_OFFSET
                    };
                    for (d, value) in row.iter_mut().enumerate() {
                        let z: f64 = rng.sample(StandardNormal);
                        *value = if d == 0 { offset + z } else { z };
                    }
                    *label = usize::from(class);
                }
                Self::CorrelatedUniform => {
                    let mut previous = 0.0;
                    for value in row.iter_mut() {
                        previous += rng.random::<f64>();
                        *value = previous;
                    }
                    *label = usize::from(rng.random_bool(sigmoid(LOG_ODDS_SLOPE * row[0])));
                }
            }
        }
        (x, y)
    }

    /// The true log-odds `log p(y = 1 | x_i) / p(y = 0 | x_i) = 2.5 x_i1` of each row of `x`
    /// (`n × 4`, finite): the Bayes-optimal discriminant, for reference curves.
    pub fn true_log_odds(self, x: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        if x.ncols() != N_FEATURES {
            return Err(Error::shape_mismatch(
                "columns of x vs features of the Bouchard-Triggs simulation",
                N_FEATURES,
                x.ncols(),
            ));
        }
        check_finite_matrix(x, "x")?;
        Ok(x.column(0).mapv(|x1| LOG_ODDS_SLOPE * x1))
    }
}

impl fmt::Display for BouchardTriggsSimulation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BouchardTriggsSimulation {
    type Err = Error;

    /// Parses a [`name`](BouchardTriggsSimulation::name); an unknown name is
    /// [`Error::InvalidParameter`].
    fn from_str(s: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|sim| sim.name() == s)
            .ok_or_else(|| {
                Error::invalid_parameter(
                    "simulation",
                    format!(
                        "unknown Bouchard-Triggs simulation `{s}`; expected gaussian-identity or \
                         correlated-uniform"
                    ),
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn names_round_trip() {
        for sim in BouchardTriggsSimulation::ALL {
            assert_eq!(sim.name().parse::<BouchardTriggsSimulation>().unwrap(), sim);
            assert_eq!(sim.to_string(), sim.name());
        }
        assert!(matches!(
            "gaussian".parse::<BouchardTriggsSimulation>(),
            Err(Error::InvalidParameter {
                name: "simulation",
                ..
            })
        ));
    }

    #[test]
    fn gaussian_rows_follow_the_documented_draw_order() {
        let (x, y) = BouchardTriggsSimulation::GaussianIdentity
            .sample(20, &mut ChaCha8Rng::seed_from_u64(9));
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for (row, &label) in x.rows().into_iter().zip(y.iter()) {
            let class = rng.random_bool(0.5);
            assert_eq!(label, usize::from(class));
            let first: f64 = rng.sample(StandardNormal);
            assert_eq!(row[0], if class { 1.25 } else { -1.25 } + first);
            for d in 1..4 {
                let z: f64 = rng.sample(StandardNormal);
                assert_eq!(row[d], z);
            }
        }
    }

    #[test]
    fn uniform_covariates_stay_in_their_support() {
        // x_d ∈ [x_{d−1}, x_{d−1} + 1): each increment lies in [0, 1).
        let (x, y) = BouchardTriggsSimulation::CorrelatedUniform
            .sample(2000, &mut ChaCha8Rng::seed_from_u64(1));
        for row in x.rows() {
            assert!((0.0..1.0).contains(&row[0]));
            for d in 1..4 {
                assert!((0.0..1.0).contains(&(row[d] - row[d - 1])));
            }
        }
        assert!(y.iter().all(|&k| k < 2));
        assert!(y.iter().any(|&k| k == 0) && y.iter().any(|&k| k == 1));
    }

    #[test]
    fn same_seed_same_bits() {
        for sim in BouchardTriggsSimulation::ALL {
            let a = sim.sample(100, &mut ChaCha8Rng::seed_from_u64(2));
            let b = sim.sample(100, &mut ChaCha8Rng::seed_from_u64(2));
            assert_eq!(a, b);
        }
    }

    #[test]
    fn gaussian_log_odds_equals_the_density_ratio() {
        // log N(x; m_1, I) − log N(x; −m_1, I) = 2 m_1ᵀ x, with equal priors.
        let x = array![[0.3, -1.0, 2.0, 0.5], [-2.0, 0.0, 0.0, 1.0]];
        let lo = BouchardTriggsSimulation::GaussianIdentity
            .true_log_odds(x.view())
            .unwrap();
        for (row, &value) in x.rows().into_iter().zip(lo.iter()) {
            let sq = |sign: f64| {
                (row[0] - sign * 1.25).powi(2) + row.iter().skip(1).map(|v| v * v).sum::<f64>()
            };
            assert!((value - 0.5 * (sq(-1.0) - sq(1.0))).abs() < 1e-12);
        }
        assert!(matches!(
            BouchardTriggsSimulation::CorrelatedUniform.true_log_odds(array![[1.0, 2.0]].view()),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            BouchardTriggsSimulation::CorrelatedUniform
                .true_log_odds(array![[1.0, 2.0, 3.0, f64::NAN]].view()),
            Err(Error::NonFinite { column: 3, .. })
        ));
    }
}
