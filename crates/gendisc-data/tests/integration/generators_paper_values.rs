//! The analytic class means and covariances of the Xue–Titterington presets against the numbers
//! printed in the paper (Xue & Titterington, *Interpretation of hybrid generative/discriminative
//! algorithms*, §3.2–3.5). The matrices below are typed from the paper; the presets compute
//! theirs from the construction (conditional probabilities, mirroring, shifts).

use approx::assert_abs_diff_eq;
use gendisc_data::generators::XueTitteringtonPreset::{self, *};
use ndarray::array;

/// Every preset's construction reproduces the moments printed in the paper. The printed values
/// are exact decimals typed from the paper (`printed_moments`, §3.2–3.5); the presets compute
/// theirs in floating point from conditional probabilities, mirroring and shifts.
#[test]
fn construction_gives_the_printed_moments() {
    for preset in XueTitteringtonPreset::ALL {
        let printed = preset.printed_moments();
        let means = preset.class_means();
        let covariances = preset.class_covariances();
        for class in 0..2 {
            assert_abs_diff_eq!(means[class], printed.means[class], epsilon = 1e-12);
            assert_abs_diff_eq!(
                covariances[class],
                printed.covariances[class],
                epsilon = 1e-12
            );
        }
    }
}

/// A few printed entries spelled out, so that a typo in `printed_moments` cannot hide behind an
/// equal typo in the construction.
#[test]
fn printed_moments_spot_checks() {
    let full = BernoulliUnequalFull.printed_moments();
    assert_eq!(full.means[1], array![0.6, 0.6, 0.5, 0.4]);
    assert_eq!(full.covariances[1][[2, 2]], 0.25);
    assert_eq!(full.covariances[0][[1, 3]], 0.04);
    let block = NormalUnequalBlock.printed_moments();
    assert_eq!(block.covariances[1][[3, 3]], 1.75);
    assert_eq!(block.means[1][0], -1.5);
}

/// §3.4.2 and §3.4.3 print the class-2 conditional probabilities too; the presets derive them
/// by the mirroring rule of §3.4 (q_1 = 1 − p_1, q_{i|j(1)} = 1 − p_{i|j(0)},
/// q_{i|j(0)} = 1 − p_{i|j(1)}). Check them against the printed values.
#[test]
fn printed_second_class_conditionals() {
    use gendisc_data::generators::{BernoulliFeature, ClassDistribution};
    let conditionals = |preset: XueTitteringtonPreset| -> Vec<(usize, f64, f64)> {
        let [_, second] = preset.class_distributions();
        let ClassDistribution::Bernoulli(b) = second else {
            panic!("{preset} is a Bernoulli preset")
        };
        b.features()
            .iter()
            .filter_map(|f| match *f {
                BernoulliFeature::Dependent {
                    parent,
                    p_given_parent_one,
                    p_given_parent_zero,
                } => Some((parent, p_given_parent_one, p_given_parent_zero)),
                BernoulliFeature::Independent { .. } => None,
            })
            .collect()
    };
    let close = |got: Vec<(usize, f64, f64)>, printed: &[(usize, f64, f64)]| {
        assert_eq!(got.len(), printed.len());
        for (g, p) in got.iter().zip(printed) {
            assert_eq!(g.0, p.0);
            assert_abs_diff_eq!(g.1, p.1, epsilon = 1e-12);
            assert_abs_diff_eq!(g.2, p.2, epsilon = 1e-12);
        }
    };
    // §3.4.2: q_{2|1(1)} = 0.8, q_{2|1(0)} = 0.3, q_{4|3(1)} = 0.7, q_{4|3(0)} = 0.2.
    let block = [(0, 0.8, 0.3), (2, 0.7, 0.2)];
    close(conditionals(BernoulliEqualBlock), &block);
    close(conditionals(BernoulliUnequalBlock), &block);
    // §3.4.3: (q_{i|1(1)}, q_{i|1(0)}) = (0.8, 0.3), (0.7, 0.2), (0.6, 0.1) for i = 2, 3, 4.
    let star = [(0, 0.8, 0.3), (0, 0.7, 0.2), (0, 0.6, 0.1)];
    close(conditionals(BernoulliEqualFull), &star);
    close(conditionals(BernoulliUnequalFull), &star);
}
