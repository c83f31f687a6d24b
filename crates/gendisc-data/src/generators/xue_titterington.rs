//! The twelve simulated datasets of Xue & Titterington, *Interpretation of hybrid
//! generative/discriminative algorithms*, §3.1.4–3.5.
//!
//! Every dataset has `h = 4` features and two classes; the paper's group `y = 1` is class 0 and
//! `y = 2` is class 1. Six datasets are 4-variate normal (§3.2, §3.3) and six are 4-variate
//! dependent Bernoulli (§3.4, §3.5); within each family the class covariances are diagonal,
//! block diagonal (blocks `x¹ = (x_1, x_2)`, `x² = (x_3, x_4)`) or full, and either equal
//! (`Σ_1 = Σ_2`) or unequal.
//!
//! The study draws 500 rows per class, `XueTitteringtonPreset::NormalEqualFull.generate(500,
//! &mut rng)`, and splits them with
//! [`xue_titterington_split`](crate::splits::xue_titterington_split).

use std::fmt;
use std::str::FromStr;

use gendisc_core::{Error, Result};
use ndarray::{Array1, Array2, Axis};
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::{BernoulliFeature, ClassDistribution, DependentBernoulli, MultivariateNormal};

/// Number of features of every dataset (`h = 4`, §3.1.4).
pub const N_FEATURES: usize = 4;

/// The off-diagonal covariance `c` of the normal datasets (§3.2).
const NORMAL_OFF_DIAGONAL: f64 = 0.25;

/// `μ_1` of the normal datasets (§3.2); `μ_2 = −μ_1`.
const NORMAL_MEAN_FIRST_CLASS: [f64; N_FEATURES] = [1.5, 0.0, 0.5, 0.0];

/// The diagonal of `Σ_2` in the unequal-covariance normal datasets (§3.3).
const NORMAL_UNEQUAL_VARIANCES: [f64; N_FEATURES] = [0.25, 0.75, 1.25, 1.75];

/// `p = (p_1, …, p_4)` of the diagonal Bernoulli datasets (§3.4.1).
const BERNOULLI_DIAGONAL_P: [f64; N_FEATURES] = [0.2, 0.3, 0.4, 0.5];

/// In the unequal-covariance Bernoulli datasets the root features of class `y = 2` have success
/// probability `p + 0.4` instead of `1 − p` (§3.5.1–3.5.3).
const BERNOULLI_UNEQUAL_SHIFT: f64 = 0.4;

/// The dependence structure shared by both classes of a dataset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CovarianceStructure {
    /// All features conditionally independent given the class: naive Bayes is the true model.
    Diagonal,
    /// `x¹ = (x_1, x_2)` independent of `x² = (x_3, x_4)` given the class: the hybrid's regions.
    Block,
    /// Every feature dependent on the others given the class.
    Full,
}

/// The family of the class-conditional distributions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FeatureFamily {
    /// 4-variate normal (§3.2, §3.3).
    Normal,
    /// 4-variate dependent Bernoulli (§3.4, §3.5).
    Bernoulli,
}

/// One of the twelve simulated datasets of Xue & Titterington (§3.1.4).
///
/// ```
/// use gendisc_data::generators::XueTitteringtonPreset;
/// use rand::SeedableRng;
/// use rand_chacha::ChaCha8Rng;
///
/// let preset = XueTitteringtonPreset::NormalEqualFull;
/// assert_eq!(preset.name(), "normal-equal-full");
/// let (x, y) = preset.generate(500, &mut ChaCha8Rng::seed_from_u64(1));
/// assert_eq!(x.dim(), (1000, 4));
/// assert_eq!((y[0], y[499], y[500], y[999]), (0, 0, 1, 1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum XueTitteringtonPreset {
    /// §3.2, first dataset: `N(±μ, I)`.
    NormalEqualDiagonal,
    /// §3.2, second dataset: `N(±μ, Σ)`, `Σ` block diagonal with `Σ_12 = Σ_34 = c = 0.25`.
    NormalEqualBlock,
    /// §3.2, third dataset: `N(±μ, Σ)`, `Σ` with unit diagonal and every `Σ_ij = c = 0.25`.
    NormalEqualFull,
    /// §3.3, first dataset: `Σ_1 = I`, `Σ_2 = diag(0.25, 0.75, 1.25, 1.75)`.
    NormalUnequalDiagonal,
    /// §3.3, second dataset: the block `Σ_1` of §3.2 and `Σ_2` with diagonal
    /// `(0.25, 0.75, 1.25, 1.75)` and the same off-diagonal `c` pattern.
    NormalUnequalBlock,
    /// §3.3, third dataset: the full `Σ_1` of §3.2 and `Σ_2` with diagonal
    /// `(0.25, 0.75, 1.25, 1.75)` and every off-diagonal entry `c`.
    NormalUnequalFull,
    /// §3.4.1: independent features, `p = (0.2, 0.3, 0.4, 0.5)`, `q = 1 − p`.
    BernoulliEqualDiagonal,
    /// §3.4.2: `x_2` depends on `x_1`, `x_4` on `x_3`; `p_1 = 0.2`, `p_3 = 0.4`,
    /// `(p_{2|1(1)}, p_{2|1(0)}) = (0.7, 0.2)`, `(p_{4|3(1)}, p_{4|3(0)}) = (0.8, 0.3)`; class 2 is
    /// the mirror image (`q_1 = 1 − p_1`, `q_{2|1(1)} = 1 − p_{2|1(0)}`, …).
    BernoulliEqualBlock,
    /// §3.4.3: a star, `x_2`, `x_3`, `x_4` conditionally independent given `x_1`; `p_1 = 0.2`,
    /// `(p_{i|1(1)}, p_{i|1(0)}) = (0.7, 0.2), (0.8, 0.3), (0.9, 0.4)` for `i = 2, 3, 4`; class 2
    /// mirrored.
    BernoulliEqualFull,
    /// §3.5.1: as §3.4.1 but `q = p + 0.4`.
    BernoulliUnequalDiagonal,
    /// §3.5.2: as §3.4.2 but `q_1 = p_1 + 0.4`, `q_3 = p_3 + 0.4`.
    BernoulliUnequalBlock,
    /// §3.5.3: as §3.4.3 but `q_1 = p_1 + 0.4`.
    BernoulliUnequalFull,
}

impl XueTitteringtonPreset {
    /// The twelve datasets in the paper's order (Figures 1–4, top to bottom).
    pub const ALL: [Self; 12] = [
        Self::NormalEqualDiagonal,
        Self::NormalEqualBlock,
        Self::NormalEqualFull,
        Self::NormalUnequalDiagonal,
        Self::NormalUnequalBlock,
        Self::NormalUnequalFull,
        Self::BernoulliEqualDiagonal,
        Self::BernoulliEqualBlock,
        Self::BernoulliEqualFull,
        Self::BernoulliUnequalDiagonal,
        Self::BernoulliUnequalBlock,
        Self::BernoulliUnequalFull,
    ];

    /// A stable kebab-case name, `family-equal|unequal-structure`, e.g. `"normal-equal-diagonal"`
    /// or `"bernoulli-unequal-full"`. It is also the serde representation.
    pub fn name(self) -> &'static str {
        match self {
            Self::NormalEqualDiagonal => "normal-equal-diagonal",
            Self::NormalEqualBlock => "normal-equal-block",
            Self::NormalEqualFull => "normal-equal-full",
            Self::NormalUnequalDiagonal => "normal-unequal-diagonal",
            Self::NormalUnequalBlock => "normal-unequal-block",
            Self::NormalUnequalFull => "normal-unequal-full",
            Self::BernoulliEqualDiagonal => "bernoulli-equal-diagonal",
            Self::BernoulliEqualBlock => "bernoulli-equal-block",
            Self::BernoulliEqualFull => "bernoulli-equal-full",
            Self::BernoulliUnequalDiagonal => "bernoulli-unequal-diagonal",
            Self::BernoulliUnequalBlock => "bernoulli-unequal-block",
            Self::BernoulliUnequalFull => "bernoulli-unequal-full",
        }
    }

    /// The section of the paper that defines the dataset, e.g. `"3.4.2"`.
    pub fn section(self) -> &'static str {
        match self {
            Self::NormalEqualDiagonal | Self::NormalEqualBlock | Self::NormalEqualFull => "3.2",
            Self::NormalUnequalDiagonal | Self::NormalUnequalBlock | Self::NormalUnequalFull => {
                "3.3"
            }
            Self::BernoulliEqualDiagonal => "3.4.1",
            Self::BernoulliEqualBlock => "3.4.2",
            Self::BernoulliEqualFull => "3.4.3",
            Self::BernoulliUnequalDiagonal => "3.5.1",
            Self::BernoulliUnequalBlock => "3.5.2",
            Self::BernoulliUnequalFull => "3.5.3",
        }
    }

    /// The paper's figure that shows the results for this dataset (1–4).
    pub fn figure(self) -> u8 {
        match (self.family(), self.has_equal_covariances()) {
            (FeatureFamily::Normal, true) => 1,
            (FeatureFamily::Normal, false) => 2,
            (FeatureFamily::Bernoulli, true) => 3,
            (FeatureFamily::Bernoulli, false) => 4,
        }
    }

    /// Normal or Bernoulli features.
    pub fn family(self) -> FeatureFamily {
        match self {
            Self::NormalEqualDiagonal
            | Self::NormalEqualBlock
            | Self::NormalEqualFull
            | Self::NormalUnequalDiagonal
            | Self::NormalUnequalBlock
            | Self::NormalUnequalFull => FeatureFamily::Normal,
            _ => FeatureFamily::Bernoulli,
        }
    }

    /// Diagonal, block diagonal or full class covariances.
    pub fn structure(self) -> CovarianceStructure {
        match self {
            Self::NormalEqualDiagonal
            | Self::NormalUnequalDiagonal
            | Self::BernoulliEqualDiagonal
            | Self::BernoulliUnequalDiagonal => CovarianceStructure::Diagonal,
            Self::NormalEqualBlock
            | Self::NormalUnequalBlock
            | Self::BernoulliEqualBlock
            | Self::BernoulliUnequalBlock => CovarianceStructure::Block,
            Self::NormalEqualFull
            | Self::NormalUnequalFull
            | Self::BernoulliEqualFull
            | Self::BernoulliUnequalFull => CovarianceStructure::Full,
        }
    }

    /// Whether the two classes share one covariance matrix (`Σ_1 = Σ_2`).
    pub fn has_equal_covariances(self) -> bool {
        matches!(
            self,
            Self::NormalEqualDiagonal
                | Self::NormalEqualBlock
                | Self::NormalEqualFull
                | Self::BernoulliEqualDiagonal
                | Self::BernoulliEqualBlock
                | Self::BernoulliEqualFull
        )
    }

    /// The class-conditional distributions `[p(x | y = 1), p(x | y = 2)]`, i.e. of classes 0 and 1.
    pub fn class_distributions(self) -> [ClassDistribution; 2] {
        // The parameters are constants of the paper, checked by the tests against every
        // printed mean and covariance: construction cannot fail.
        const VALID: &str = "the Xue-Titterington parameters are valid by construction";
        let structure = self.structure();
        let equal = self.has_equal_covariances();
        match self.family() {
            FeatureFamily::Normal => {
                let mean = Array1::from(NORMAL_MEAN_FIRST_CLASS.to_vec());
                let first_cov = normal_covariance([1.0; N_FEATURES], structure);
                let second_cov = if equal {
                    first_cov.clone()
                } else {
                    normal_covariance(NORMAL_UNEQUAL_VARIANCES, structure)
                };
                let second_mean = -&mean;
                [
                    MultivariateNormal::new(mean, first_cov).expect(VALID),
                    MultivariateNormal::new(second_mean, second_cov).expect(VALID),
                ]
                .map(ClassDistribution::Normal)
            }
            FeatureFamily::Bernoulli => {
                let first = bernoulli_first_class(structure);
                let second = bernoulli_second_class(&first, equal);
                [
                    DependentBernoulli::new(first).expect(VALID),
                    DependentBernoulli::new(second).expect(VALID),
                ]
                .map(ClassDistribution::Bernoulli)
            }
        }
    }

    /// The analytic class means `[μ_1, μ_2]` (classes 0 and 1).
    pub fn class_means(self) -> [Array1<f64>; 2] {
        self.class_distributions().map(|d| d.mean().to_owned())
    }

    /// The analytic class covariances `[Σ_1, Σ_2]` (classes 0 and 1).
    pub fn class_covariances(self) -> [Array2<f64>; 2] {
        self.class_distributions()
            .map(|d| d.covariance().to_owned())
    }

    /// `n_per_class` draws from each class: rows `0..n_per_class` are class 0 (the paper's
    /// `y = 1`), the next `n_per_class` rows class 1 (`y = 2`). All of class 0 is drawn before
    /// class 1 from the one stream `rng`. The study uses `n_per_class = 500` (§3.1.4).
    pub fn generate<R: Rng + ?Sized>(
        self,
        n_per_class: usize,
        rng: &mut R,
    ) -> (Array2<f64>, Array1<usize>) {
        let n = 2 * n_per_class;
        let mut x = Array2::zeros((n, N_FEATURES));
        let [first, second] = self.class_distributions();
        let (first_rows, second_rows) = x.view_mut().split_at(Axis(0), n_per_class);
        first.fill(first_rows, rng);
        second.fill(second_rows, rng);
        let y = (0..n).map(|i| usize::from(i >= n_per_class)).collect();
        (x, y)
    }
}

impl fmt::Display for XueTitteringtonPreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for XueTitteringtonPreset {
    type Err = Error;

    /// Parses a [`name`](XueTitteringtonPreset::name); an unknown name is
    /// [`Error::InvalidParameter`] listing the valid ones.
    fn from_str(s: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|preset| preset.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Self::ALL.iter().map(|p| p.name()).collect();
                Error::invalid_parameter(
                    "dataset",
                    format!(
                        "unknown Xue-Titterington dataset `{s}`; expected one of {}",
                        names.join(", ")
                    ),
                )
            })
    }
}

/// A normal covariance with the given diagonal and off-diagonal entries `c` where the
/// structure makes features dependent (§3.2, §3.3).
fn normal_covariance(diagonal: [f64; N_FEATURES], structure: CovarianceStructure) -> Array2<f64> {
    Array2::from_shape_fn((N_FEATURES, N_FEATURES), |(i, j)| {
        let dependent = match structure {
            CovarianceStructure::Diagonal => false,
            CovarianceStructure::Block => i / 2 == j / 2,
            CovarianceStructure::Full => true,
        };
        if i == j {
            diagonal[i]
        } else if dependent {
            NORMAL_OFF_DIAGONAL
        } else {
            0.0
        }
    })
}

/// The features of class `y = 1` in the Bernoulli datasets (§3.4.1–3.4.3, shared by §3.5).
fn bernoulli_first_class(structure: CovarianceStructure) -> Vec<BernoulliFeature> {
    let dependent = |parent, one, zero| BernoulliFeature::Dependent {
        parent,
        p_given_parent_one: one,
        p_given_parent_zero: zero,
    };
    let independent = |p| BernoulliFeature::Independent { p };
    match structure {
        CovarianceStructure::Diagonal => BERNOULLI_DIAGONAL_P
            .iter()
            .map(|&p| independent(p))
            .collect(),
        // §3.4.2: p_1 = 0.2, p_{2|1(1)} = 0.7, p_{2|1(0)} = 0.2; p_3 = 0.4, p_{4|3(1)} = 0.8,
        // p_{4|3(0)} = 0.3.
        CovarianceStructure::Block => vec![
            independent(0.2),
            dependent(0, 0.7, 0.2),
            independent(0.4),
            dependent(2, 0.8, 0.3),
        ],
        // §3.4.3: p_1 = 0.2 and (p_{i|1(1)}, p_{i|1(0)}) = (0.7, 0.2), (0.8, 0.3), (0.9, 0.4).
        CovarianceStructure::Full => vec![
            independent(0.2),
            dependent(0, 0.7, 0.2),
            dependent(0, 0.8, 0.3),
            dependent(0, 0.9, 0.4),
        ],
    }
}

/// The features of class `y = 2`: the mirror image of class `y = 1` (§3.4), and for unequal
/// covariances the root features shifted to `p + 0.4` instead (§3.5), the conditional
/// probabilities staying those of §3.4.
fn bernoulli_second_class(first: &[BernoulliFeature], equal: bool) -> Vec<BernoulliFeature> {
    first
        .iter()
        .map(|&feature| match feature {
            BernoulliFeature::Independent { p } if !equal => BernoulliFeature::Independent {
                p: p + BERNOULLI_UNEQUAL_SHIFT,
            },
            _ => feature.mirrored(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::collections::HashSet;

    #[test]
    fn names_are_unique_and_round_trip() {
        let names: HashSet<_> = XueTitteringtonPreset::ALL
            .iter()
            .map(|p| p.name())
            .collect();
        assert_eq!(names.len(), 12);
        for preset in XueTitteringtonPreset::ALL {
            assert_eq!(
                preset.name().parse::<XueTitteringtonPreset>().unwrap(),
                preset
            );
            assert_eq!(preset.to_string(), preset.name());
            let json = serde_json::to_string(&preset).unwrap();
            assert_eq!(json, format!("\"{}\"", preset.name()));
            assert_eq!(
                serde_json::from_str::<XueTitteringtonPreset>(&json).unwrap(),
                preset
            );
        }
        assert!(matches!(
            "normal-equal".parse::<XueTitteringtonPreset>(),
            Err(Error::InvalidParameter {
                name: "dataset",
                ..
            })
        ));
    }

    #[test]
    fn classification_matches_the_name() {
        for preset in XueTitteringtonPreset::ALL {
            let mut parts = preset.name().split('-');
            let family = match parts.next().unwrap() {
                "normal" => FeatureFamily::Normal,
                _ => FeatureFamily::Bernoulli,
            };
            assert_eq!(preset.family(), family);
            assert_eq!(
                preset.has_equal_covariances(),
                parts.next().unwrap() == "equal"
            );
            let structure = match parts.next().unwrap() {
                "diagonal" => CovarianceStructure::Diagonal,
                "block" => CovarianceStructure::Block,
                _ => CovarianceStructure::Full,
            };
            assert_eq!(preset.structure(), structure);
            let covs = preset.class_covariances();
            let same = covs[0].abs_diff_eq(&covs[1], 1e-12);
            assert_eq!(same, preset.has_equal_covariances(), "{preset}");
            let section_prefix = match (family, preset.has_equal_covariances()) {
                (FeatureFamily::Normal, true) => "3.2",
                (FeatureFamily::Normal, false) => "3.3",
                (FeatureFamily::Bernoulli, true) => "3.4",
                (FeatureFamily::Bernoulli, false) => "3.5",
            };
            assert!(preset.section().starts_with(section_prefix));
        }
    }

    #[test]
    fn generate_orders_classes_and_is_deterministic() {
        for preset in XueTitteringtonPreset::ALL {
            let (x, y) = preset.generate(30, &mut ChaCha8Rng::seed_from_u64(4));
            assert_eq!(x.dim(), (60, N_FEATURES));
            assert!(y.iter().take(30).all(|&k| k == 0));
            assert!(y.iter().skip(30).all(|&k| k == 1));
            assert!(x.iter().all(|v| v.is_finite()));
            if preset.family() == FeatureFamily::Bernoulli {
                assert!(x.iter().all(|&v| v == 0.0 || v == 1.0));
            }
            // Class 0 is drawn first, from the start of the stream, then class 1.
            let mut rng = ChaCha8Rng::seed_from_u64(4);
            let [first, second] = preset.class_distributions();
            let class0 = first.sample(30, &mut rng);
            let class1 = second.sample(30, &mut rng);
            let (rows0, rows1) = x.view().split_at(Axis(0), 30);
            assert_eq!(rows0, class0);
            assert_eq!(rows1, class1);
            let again = preset.generate(30, &mut ChaCha8Rng::seed_from_u64(4));
            assert_eq!((x, y), again);
        }
        let (x, y) = XueTitteringtonPreset::NormalEqualDiagonal
            .generate(0, &mut ChaCha8Rng::seed_from_u64(0));
        assert_eq!((x.nrows(), y.len()), (0, 0));
    }

    #[test]
    fn figures_follow_the_paper() {
        let figures: Vec<u8> = XueTitteringtonPreset::ALL
            .iter()
            .map(|p| p.figure())
            .collect();
        assert_eq!(figures, [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
    }
}
