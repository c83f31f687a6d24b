//! Vectors of dependent Bernoulli features, each independent or driven by one earlier parent.
//!
//! This is the construction of Xue & Titterington §3.4: a feature `x_i` either has its own
//! success probability `p_i`, or depends on one parent feature `x_j` through the conditional
//! success probabilities `p_{i|j(1)} = P(x_i = 1 | x_j = 1)` and
//! `p_{i|j(0)} = P(x_i = 1 | x_j = 0)`. Parents come before their children, so a vector is
//! sampled ancestrally, feature by feature.

use gendisc_core::{Error, Result};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut2};
use rand::distr::{Bernoulli, Distribution};
use rand::Rng;

/// How one feature of a [`DependentBernoulli`] vector is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BernoulliFeature {
    /// `x_i ~ Bernoulli(p)`, independently of the other features.
    Independent {
        /// Success probability `p_i`.
        p: f64,
    },
    /// `x_i | x_parent = v ~ Bernoulli(p_{i|parent(v)})`.
    Dependent {
        /// Index of the parent feature; it must come before this one.
        parent: usize,
        /// `p_{i|parent(1)} = P(x_i = 1 | x_parent = 1)`.
        p_given_parent_one: f64,
        /// `p_{i|parent(0)} = P(x_i = 1 | x_parent = 0)`.
        p_given_parent_zero: f64,
    },
}

impl BernoulliFeature {
    /// The mirror image used by Xue & Titterington (§3.4) to give the second class the same
    /// covariance as the first: `p ↦ 1 − p` for an independent feature, and
    /// `(p_{i|j(1)}, p_{i|j(0)}) ↦ (1 − p_{i|j(0)}, 1 − p_{i|j(1)})` for a dependent one. It is the
    /// law of `1 − x` when the parent is also mirrored.
    pub fn mirrored(self) -> Self {
        match self {
            BernoulliFeature::Independent { p } => BernoulliFeature::Independent { p: 1.0 - p },
            BernoulliFeature::Dependent {
                parent,
                p_given_parent_one,
                p_given_parent_zero,
            } => BernoulliFeature::Dependent {
                parent,
                p_given_parent_one: 1.0 - p_given_parent_zero,
                p_given_parent_zero: 1.0 - p_given_parent_one,
            },
        }
    }
}

/// The sampling table of one feature: the parent (if any) and the Bernoulli laws given the
/// parent's value, built once so that a draw is one comparison of a random `u64`.
#[derive(Debug, Clone, PartialEq)]
struct FeatureSampler {
    parent: Option<usize>,
    given_one: Bernoulli,
    given_zero: Bernoulli,
}

/// A distribution over `{0, 1}^d` in which each feature is independent or depends on one
/// earlier feature (Xue & Titterington §3.4), sampled ancestrally.
///
/// # Moments
///
/// Because `x_j` is binary, `E[x_i | x_j] = p_{i|j(0)} + δ_i x_j` with
/// `δ_i = p_{i|j(1)} − p_{i|j(0)}`: every conditional mean is linear in the parent. Hence
///
/// * `p_i = p_j p_{i|j(1)} + (1 − p_j) p_{i|j(0)}` (§3.4, the equations for `p_2`, `p_4`);
/// * `V_{i,i} = p_i (1 − p_i)`;
/// * for `k < i`, `x_i` is independent of the earlier `x_k` given its parent, so
///   `V_{i,k} = δ_i V_{j,k}` (and `V_{i,k} = 0` for an independent `x_i`).
///
/// For a child of the root this gives the paper's `V_{1,i} = p_1 (p_{i|1(1)} − p_i)`, and for two
/// children of the same root `V_{i,j} = p_1 (1 − p_1) δ_i δ_j`, which is §3.4's
/// `p(x_i = 1, x_j = 1) − p_i p_j` with
/// `p(x_i = 1, x_j = 1) = p_1 p_{i|1(1)} p_{j|1(1)} + (1 − p_1) p_{i|1(0)} p_{j|1(0)}`.
/// The recursion is exact for any depth, since every feature has at most one parent.
///
/// ```
/// use gendisc_data::generators::{BernoulliFeature, DependentBernoulli};
///
/// // Xue & Titterington §3.4.2, first block: p_1 = 0.2, p_{2|1(1)} = 0.7, p_{2|1(0)} = 0.2.
/// let block = DependentBernoulli::new(vec![
///     BernoulliFeature::Independent { p: 0.2 },
///     BernoulliFeature::Dependent {
///         parent: 0,
///         p_given_parent_one: 0.7,
///         p_given_parent_zero: 0.2,
///     },
/// ])?;
/// assert!((block.mean()[1] - 0.3).abs() < 1e-12);
/// assert!((block.covariance()[[0, 1]] - 0.08).abs() < 1e-12);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct DependentBernoulli {
    features: Vec<BernoulliFeature>,
    samplers: Vec<FeatureSampler>,
    mean: Array1<f64>,
    covariance: Array2<f64>,
}

impl DependentBernoulli {
    /// Validates the features and computes the analytic mean and covariance.
    ///
    /// Errors: [`Error::Empty`] for no features, [`Error::NonFinite`] or [`Error::InvalidValue`]
    /// for a probability outside `[0, 1]` (row = feature index, column 0 for `p` or
    /// `p_{i|j(1)}`, 1 for `p_{i|j(0)}`), [`Error::InvalidParameter`] for a parent that does not
    /// come before its child (which also rules out cycles).
    pub fn new(features: Vec<BernoulliFeature>) -> Result<Self> {
        if features.is_empty() {
            return Err(Error::Empty {
                what: "features of the Bernoulli vector".into(),
            });
        }
        let mut samplers = Vec::with_capacity(features.len());
        for (i, feature) in features.iter().enumerate() {
            samplers.push(match *feature {
                BernoulliFeature::Independent { p } => {
                    let law = bernoulli_law(p, i, 0)?;
                    FeatureSampler {
                        parent: None,
                        given_one: law,
                        given_zero: law,
                    }
                }
                BernoulliFeature::Dependent {
                    parent,
                    p_given_parent_one,
                    p_given_parent_zero,
                } => {
                    if parent >= i {
                        return Err(Error::invalid_parameter(
                            "parent",
                            format!(
                                "feature {i} names parent {parent}, which does not come before \
                                 it; order the features so that every parent precedes its children"
                            ),
                        ));
                    }
                    FeatureSampler {
                        parent: Some(parent),
                        given_one: bernoulli_law(p_given_parent_one, i, 0)?,
                        given_zero: bernoulli_law(p_given_parent_zero, i, 1)?,
                    }
                }
            });
        }
        let (mean, covariance) = moments(&features);
        Ok(Self {
            features,
            samplers,
            mean,
            covariance,
        })
    }

    /// Independent features with success probabilities `p` (a diagonal covariance).
    pub fn independent(p: &[f64]) -> Result<Self> {
        Self::new(
            p.iter()
                .map(|&p| BernoulliFeature::Independent { p })
                .collect(),
        )
    }

    /// Dimension `d`.
    pub fn dim(&self) -> usize {
        self.features.len()
    }

    /// The features as given.
    pub fn features(&self) -> &[BernoulliFeature] {
        &self.features
    }

    /// The analytic mean, the marginal success probabilities `(p_1, …, p_d)`.
    pub fn mean(&self) -> ArrayView1<'_, f64> {
        self.mean.view()
    }

    /// The analytic covariance matrix `V`.
    pub fn covariance(&self) -> ArrayView2<'_, f64> {
        self.covariance.view()
    }

    /// `n` independent draws as rows of an `n × d` matrix of 0.0 / 1.0.
    pub fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> Array2<f64> {
        let mut out = Array2::zeros((n, self.dim()));
        self.fill(out.view_mut(), rng);
        out
    }

    /// Fills every row of `out` (whose width the caller guarantees to be `d`) with a draw,
    /// features in order, one random `u64` per feature whose probability is not 0 or 1.
    pub(crate) fn fill<R: Rng + ?Sized>(&self, mut out: ArrayViewMut2<'_, f64>, rng: &mut R) {
        debug_assert_eq!(out.ncols(), self.dim());
        for mut row in out.rows_mut() {
            for (i, sampler) in self.samplers.iter().enumerate() {
                let law = match sampler.parent {
                    Some(j) if row[j] == 1.0 => &sampler.given_one,
                    Some(_) => &sampler.given_zero,
                    None => &sampler.given_one,
                };
                row[i] = if law.sample(rng) { 1.0 } else { 0.0 };
            }
        }
    }

    /// `log P(x_i)` for each row of `x` (`n × d`, entries exactly 0 or 1): the sum over
    /// features of `log P(x_ik | x_i,parent(k))`. An impossible row has `−∞`.
    ///
    /// Errors: [`Error::ShapeMismatch`] on the column count, [`Error::NonFinite`] and
    /// [`Error::InvalidValue`] naming the first entry that is not 0 or 1.
    pub fn log_pmf(&self, x: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        if x.ncols() != self.dim() {
            return Err(Error::shape_mismatch(
                "columns of x vs dimension of the Bernoulli vector",
                self.dim(),
                x.ncols(),
            ));
        }
        for ((row, column), &value) in x.indexed_iter() {
            if !value.is_finite() {
                return Err(Error::NonFinite {
                    what: "x".into(),
                    row,
                    column,
                    value,
                });
            }
            if value != 0.0 && value != 1.0 {
                return Err(Error::InvalidValue {
                    what: "x".into(),
                    row,
                    column,
                    value,
                    reason: "a Bernoulli vector takes values 0 and 1 only".into(),
                });
            }
        }
        Ok(x.rows()
            .into_iter()
            .map(|row| {
                self.features
                    .iter()
                    .enumerate()
                    .map(|(i, feature)| {
                        let p = success_probability(*feature, |j| row[j] == 1.0);
                        if row[i] == 1.0 {
                            p.ln()
                        } else {
                            (1.0 - p).ln()
                        }
                    })
                    .sum()
            })
            .collect())
    }
}

/// `P(x_i = 1 | parent)`, where `parent_is_one(j)` reports the value of feature `j`.
fn success_probability(feature: BernoulliFeature, parent_is_one: impl Fn(usize) -> bool) -> f64 {
    match feature {
        BernoulliFeature::Independent { p } => p,
        BernoulliFeature::Dependent {
            parent,
            p_given_parent_one,
            p_given_parent_zero,
        } => {
            if parent_is_one(parent) {
                p_given_parent_one
            } else {
                p_given_parent_zero
            }
        }
    }
}

/// A validated `Bernoulli(p)` law; errors name feature `i` (row) and parameter `column`.
fn bernoulli_law(p: f64, feature: usize, column: usize) -> Result<Bernoulli> {
    if !p.is_finite() {
        return Err(Error::NonFinite {
            what: "Bernoulli success probabilities".into(),
            row: feature,
            column,
            value: p,
        });
    }
    Bernoulli::new(p).map_err(|_| Error::InvalidValue {
        what: "Bernoulli success probabilities".into(),
        row: feature,
        column,
        value: p,
        reason: "a probability must lie in [0, 1]".into(),
    })
}

/// The analytic mean and covariance by the recursion documented on [`DependentBernoulli`].
/// Parents are known to precede their children.
fn moments(features: &[BernoulliFeature]) -> (Array1<f64>, Array2<f64>) {
    let d = features.len();
    let mut mean = Array1::zeros(d);
    let mut cov = Array2::zeros((d, d));
    for (i, feature) in features.iter().enumerate() {
        match *feature {
            BernoulliFeature::Independent { p } => mean[i] = p,
            BernoulliFeature::Dependent {
                parent,
                p_given_parent_one,
                p_given_parent_zero,
            } => {
                let p_parent = mean[parent];
                mean[i] = p_parent * p_given_parent_one + (1.0 - p_parent) * p_given_parent_zero;
                let slope = p_given_parent_one - p_given_parent_zero;
                for k in 0..i {
                    let v = slope * cov[[parent, k]];
                    cov[[i, k]] = v;
                    cov[[k, i]] = v;
                }
            }
        }
        cov[[i, i]] = mean[i] * (1.0 - mean[i]);
    }
    (mean, cov)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;
    use ndarray::array;
    use proptest::prelude::*;
    use proptest::sample::Index;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn dependent(parent: usize, one: f64, zero: f64) -> BernoulliFeature {
        BernoulliFeature::Dependent {
            parent,
            p_given_parent_one: one,
            p_given_parent_zero: zero,
        }
    }

    /// All `2^d` binary vectors, one per row.
    fn all_states(d: usize) -> Array2<f64> {
        Array2::from_shape_fn((1 << d, d), |(s, i)| ((s >> i) & 1) as f64)
    }

    /// Mean and covariance by exact enumeration of the probability mass function: a check of
    /// the recursion that shares nothing with it but the pmf.
    fn enumerated_moments(dist: &DependentBernoulli) -> (Array1<f64>, Array2<f64>) {
        let states = all_states(dist.dim());
        let probabilities = dist.log_pmf(states.view()).unwrap().mapv(f64::exp);
        let mean = states.t().dot(&probabilities);
        let centred = &states - &mean;
        let weighted = &centred * &probabilities.view().insert_axis(ndarray::Axis(1));
        (mean, centred.t().dot(&weighted))
    }

    #[test]
    fn paper_formulas_for_a_star() {
        // Xue & Titterington §3.4: V_{1,i} = p_1 (p_{i|1(1)} − p_i) and, for two children of the
        // root, V_{i,j} = p_1 p_{i|1(1)} p_{j|1(1)} + (1 − p_1) p_{i|1(0)} p_{j|1(0)} − p_i p_j.
        let (p1, a2, b2, a3, b3) = (0.35, 0.9, 0.15, 0.25, 0.6);
        let dist = DependentBernoulli::new(vec![
            BernoulliFeature::Independent { p: p1 },
            dependent(0, a2, b2),
            dependent(0, a3, b3),
        ])
        .unwrap();
        let p2 = p1 * a2 + (1.0 - p1) * b2;
        let p3 = p1 * a3 + (1.0 - p1) * b3;
        let v = dist.covariance();
        assert_abs_diff_eq!(dist.mean(), array![p1, p2, p3].view(), epsilon = 1e-15);
        assert_abs_diff_eq!(v[[0, 1]], p1 * (a2 - p2), epsilon = 1e-15);
        assert_abs_diff_eq!(v[[0, 2]], p1 * (a3 - p3), epsilon = 1e-15);
        let joint23 = p1 * a2 * a3 + (1.0 - p1) * b2 * b3;
        assert_abs_diff_eq!(v[[1, 2]], joint23 - p2 * p3, epsilon = 1e-15);
        assert_abs_diff_eq!(v[[2, 1]], v[[1, 2]], epsilon = 0.0);
    }

    #[test]
    fn chain_of_depth_three_matches_enumeration() {
        let dist = DependentBernoulli::new(vec![
            BernoulliFeature::Independent { p: 0.3 },
            dependent(0, 0.8, 0.1),
            dependent(1, 0.6, 0.3),
            BernoulliFeature::Independent { p: 0.45 },
            dependent(3, 0.05, 0.7),
            dependent(1, 1.0, 0.0),
        ])
        .unwrap();
        let (mean, cov) = enumerated_moments(&dist);
        assert_abs_diff_eq!(dist.mean(), mean.view(), epsilon = 1e-14);
        assert_abs_diff_eq!(dist.covariance(), cov.view(), epsilon = 1e-14);
    }

    #[test]
    fn mirroring_flips_the_vector() {
        // The mirrored law is the law of 1 − x: mean 1 − p, same covariance.
        let features = vec![
            BernoulliFeature::Independent { p: 0.2 },
            dependent(0, 0.7, 0.2),
            dependent(1, 0.9, 0.4),
        ];
        let dist = DependentBernoulli::new(features.clone()).unwrap();
        let mirror = DependentBernoulli::new(
            features
                .into_iter()
                .map(BernoulliFeature::mirrored)
                .collect(),
        )
        .unwrap();
        assert_abs_diff_eq!(
            mirror.mean(),
            dist.mean().mapv(|p| 1.0 - p),
            epsilon = 1e-15
        );
        assert_abs_diff_eq!(mirror.covariance(), dist.covariance(), epsilon = 1e-15);
    }

    #[test]
    fn validation_names_feature_and_parameter() {
        assert!(matches!(
            DependentBernoulli::new(vec![]),
            Err(Error::Empty { .. })
        ));
        assert!(matches!(
            DependentBernoulli::independent(&[0.5, 1.5]),
            Err(Error::InvalidValue {
                row: 1,
                column: 0,
                ..
            })
        ));
        assert!(matches!(
            DependentBernoulli::independent(&[-0.1]),
            Err(Error::InvalidValue { row: 0, .. })
        ));
        assert!(matches!(
            DependentBernoulli::new(vec![
                BernoulliFeature::Independent { p: 0.5 },
                dependent(0, 0.5, f64::NAN)
            ]),
            Err(Error::NonFinite {
                row: 1,
                column: 1,
                ..
            })
        ));
        // A parent after its child, a self-loop, and a parent out of range.
        let independent = BernoulliFeature::Independent { p: 0.5 };
        for features in [
            vec![dependent(1, 0.5, 0.5), independent],
            vec![independent, dependent(1, 0.5, 0.5)],
            vec![independent, dependent(7, 0.5, 0.5)],
        ] {
            assert!(matches!(
                DependentBernoulli::new(features),
                Err(Error::InvalidParameter { name: "parent", .. })
            ));
        }
    }

    #[test]
    fn log_pmf_validates_and_handles_impossible_rows() {
        let dist = DependentBernoulli::new(vec![
            BernoulliFeature::Independent { p: 1.0 },
            dependent(0, 0.25, 0.5),
        ])
        .unwrap();
        let lp = dist
            .log_pmf(array![[1.0, 1.0], [1.0, 0.0], [0.0, 1.0]].view())
            .unwrap();
        assert_abs_diff_eq!(lp[0], 0.25f64.ln(), epsilon = 1e-15);
        assert_abs_diff_eq!(lp[1], 0.75f64.ln(), epsilon = 1e-15);
        assert_eq!(lp[2], f64::NEG_INFINITY);
        assert!(matches!(
            dist.log_pmf(array![[1.0, 0.5]].view()),
            Err(Error::InvalidValue {
                row: 0,
                column: 1,
                ..
            })
        ));
        assert!(matches!(
            dist.log_pmf(array![[1.0, f64::NAN]].view()),
            Err(Error::NonFinite { .. })
        ));
        assert!(matches!(
            dist.log_pmf(array![[1.0]].view()),
            Err(Error::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn sampling_is_ancestral_and_deterministic() {
        // A child that copies its parent (p_{i|j(1)} = 1, p_{i|j(0)} = 0) must always equal it.
        let dist = DependentBernoulli::new(vec![
            BernoulliFeature::Independent { p: 0.4 },
            dependent(0, 1.0, 0.0),
            dependent(0, 0.0, 1.0),
        ])
        .unwrap();
        let x = dist.sample(500, &mut ChaCha8Rng::seed_from_u64(5));
        for row in x.rows() {
            assert_eq!(row[1], row[0]);
            assert_eq!(row[2], 1.0 - row[0]);
        }
        assert!(x.column(0).iter().any(|&v| v == 1.0) && x.column(0).iter().any(|&v| v == 0.0));
        assert_eq!(x, dist.sample(500, &mut ChaCha8Rng::seed_from_u64(5)));
    }

    proptest! {
        /// The recursion agrees with exact enumeration for random forests of any depth.
        #[test]
        fn moments_match_enumeration(
            spec in prop::collection::vec(
                (0.0f64..=1.0, 0.0f64..=1.0, 0.0f64..=1.0, any::<bool>(), any::<Index>()),
                1..7,
            )
        ) {
            let features: Vec<_> = spec
                .iter()
                .enumerate()
                .map(|(i, &(p, one, zero, has_parent, parent))| {
                    if has_parent && i > 0 {
                        dependent(parent.index(i), one, zero)
                    } else {
                        BernoulliFeature::Independent { p }
                    }
                })
                .collect();
            let dist = DependentBernoulli::new(features).unwrap();
            let (mean, cov) = enumerated_moments(&dist);
            let pmf = dist.log_pmf(all_states(dist.dim()).view()).unwrap().mapv(f64::exp);
            let total: f64 = pmf.sum();
            prop_assert!((total - 1.0).abs() < 1e-12);
            prop_assert!(mean.iter().zip(dist.mean()).all(|(a, b)| (a - b).abs() < 1e-12));
            prop_assert!(cov.iter().zip(dist.covariance()).all(|(a, b)| (a - b).abs() < 1e-12));
        }
    }
}
