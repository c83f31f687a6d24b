//! The class means and covariances *as printed* in Xue & Titterington §3.2–3.5, typed from the
//! paper, so that the generator's construction can be checked against them (tests) and shown
//! beside them (the study's dataset report).

use ndarray::{array, Array1, Array2};

use super::XueTitteringtonPreset::{self, *};

/// Means and covariances of the two classes of a dataset (class 0 is the paper's `y = 1`).
#[derive(Debug, Clone, PartialEq)]
pub struct ClassMoments {
    /// `[μ_1, μ_2]`.
    pub means: [Array1<f64>; 2],
    /// `[Σ_1, Σ_2]`.
    pub covariances: [Array2<f64>; 2],
}

impl XueTitteringtonPreset {
    /// The means and covariances printed in the paper for this dataset (§3.2–3.5), not computed
    /// from the construction: compare them with [`class_means`](Self::class_means) and
    /// [`class_covariances`](Self::class_covariances).
    pub fn printed_moments(self) -> ClassMoments {
        let (means, covariances) = match self {
            NormalEqualDiagonal => (normal_means(), [Array2::eye(4), Array2::eye(4)]),
            NormalEqualBlock => (normal_means(), [normal_block(), normal_block()]),
            NormalEqualFull => (normal_means(), [normal_full(), normal_full()]),
            // §3.3: Σ_1 as in §3.2; Σ_2 with diagonal (0.25, 0.75, 1.25, 1.75) and c = 0.25.
            NormalUnequalDiagonal => (
                normal_means(),
                [
                    Array2::eye(4),
                    Array2::from_diag(&array![0.25, 0.75, 1.25, 1.75]),
                ],
            ),
            NormalUnequalBlock => (
                normal_means(),
                [
                    normal_block(),
                    array![
                        [0.25, 0.25, 0.0, 0.0],
                        [0.25, 0.75, 0.0, 0.0],
                        [0.0, 0.0, 1.25, 0.25],
                        [0.0, 0.0, 0.25, 1.75]
                    ],
                ],
            ),
            NormalUnequalFull => (
                normal_means(),
                [
                    normal_full(),
                    array![
                        [0.25, 0.25, 0.25, 0.25],
                        [0.25, 0.75, 0.25, 0.25],
                        [0.25, 0.25, 1.25, 0.25],
                        [0.25, 0.25, 0.25, 1.75]
                    ],
                ],
            ),
            BernoulliEqualDiagonal => (
                bernoulli_equal_means(),
                [bernoulli_diagonal(), bernoulli_diagonal()],
            ),
            BernoulliEqualBlock => (
                bernoulli_equal_means(),
                [bernoulli_block(), bernoulli_block()],
            ),
            BernoulliEqualFull => (
                bernoulli_equal_means(),
                [bernoulli_full(), bernoulli_full()],
            ),
            // §3.5.1: q = p + 0.4, Σ_2 = diag(0.24, 0.21, 0.16, 0.09).
            BernoulliUnequalDiagonal => (
                [array![0.2, 0.3, 0.4, 0.5], array![0.6, 0.7, 0.8, 0.9]],
                [
                    bernoulli_diagonal(),
                    Array2::from_diag(&array![0.24, 0.21, 0.16, 0.09]),
                ],
            ),
            // §3.5.2.
            BernoulliUnequalBlock => (
                [array![0.2, 0.3, 0.4, 0.5], array![0.6, 0.6, 0.8, 0.6]],
                [
                    bernoulli_block(),
                    array![
                        [0.24, 0.12, 0.0, 0.0],
                        [0.12, 0.24, 0.0, 0.0],
                        [0.0, 0.0, 0.16, 0.08],
                        [0.0, 0.0, 0.08, 0.24]
                    ],
                ],
            ),
            // §3.5.3.
            BernoulliUnequalFull => (
                [array![0.2, 0.3, 0.4, 0.5], array![0.6, 0.6, 0.5, 0.4]],
                [
                    bernoulli_full(),
                    array![
                        [0.24, 0.12, 0.12, 0.12],
                        [0.12, 0.24, 0.06, 0.06],
                        [0.12, 0.06, 0.25, 0.06],
                        [0.12, 0.06, 0.06, 0.24]
                    ],
                ],
            ),
        };
        ClassMoments { means, covariances }
    }
}

/// §3.2: μ_1 = (1.5, 0, 0.5, 0)ᵀ, μ_2 = (−1.5, 0, −0.5, 0)ᵀ.
fn normal_means() -> [Array1<f64>; 2] {
    [array![1.5, 0.0, 0.5, 0.0], array![-1.5, 0.0, -0.5, 0.0]]
}

/// §3.2: the block diagonal Σ with c = 0.25.
fn normal_block() -> Array2<f64> {
    array![
        [1.0, 0.25, 0.0, 0.0],
        [0.25, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.25],
        [0.0, 0.0, 0.25, 1.0]
    ]
}

/// §3.2: the full Σ with c = 0.25.
fn normal_full() -> Array2<f64> {
    array![
        [1.0, 0.25, 0.25, 0.25],
        [0.25, 1.0, 0.25, 0.25],
        [0.25, 0.25, 1.0, 0.25],
        [0.25, 0.25, 0.25, 1.0]
    ]
}

/// §3.4.1–3.4.3: μ_1 = p = (0.2, 0.3, 0.4, 0.5)ᵀ, μ_2 = q = 1 − p.
fn bernoulli_equal_means() -> [Array1<f64>; 2] {
    [array![0.2, 0.3, 0.4, 0.5], array![0.8, 0.7, 0.6, 0.5]]
}

/// §3.4.1: Σ = diag(0.16, 0.21, 0.24, 0.25).
fn bernoulli_diagonal() -> Array2<f64> {
    Array2::from_diag(&array![0.16, 0.21, 0.24, 0.25])
}

/// §3.4.2: the printed block diagonal Σ.
fn bernoulli_block() -> Array2<f64> {
    array![
        [0.16, 0.08, 0.0, 0.0],
        [0.08, 0.21, 0.0, 0.0],
        [0.0, 0.0, 0.24, 0.12],
        [0.0, 0.0, 0.12, 0.25]
    ]
}

/// §3.4.3: the printed full Σ.
fn bernoulli_full() -> Array2<f64> {
    array![
        [0.16, 0.08, 0.08, 0.08],
        [0.08, 0.21, 0.04, 0.04],
        [0.08, 0.04, 0.24, 0.04],
        [0.08, 0.04, 0.04, 0.25]
    ]
}
