//! Sample moments of 10^6 draws against the analytic ones, within 4 standard errors.
//!
//! For a mean the standard error is the sample standard deviation over √n. For a covariance
//! entry the estimate is the mean of the products `(x_i − μ_i)(x_j − μ_j)` with the analytic
//! means `μ`, which is unbiased for `Σ_ij`; its standard error is the sample standard deviation
//! of those products over √n. Each check compares the estimate with the analytic value.

use gendisc_core::numerics::sigmoid;
use gendisc_data::generators::{
    BouchardTriggsSimulation, MultivariateNormal, XueTitteringtonPreset,
};
use ndarray::{array, Array1, Array2, ArrayView1, ArrayView2, Axis};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const N_DRAWS: usize = 1_000_000;
const Z_LIMIT: f64 = 4.0;

/// Mean and standard error of the mean of `values`.
fn mean_and_se(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut n, mut sum, mut sum_sq) = (0usize, 0.0, 0.0);
    for v in values {
        n += 1;
        sum += v;
        sum_sq += v * v;
    }
    let n_f = n as f64;
    let mean = sum / n_f;
    let variance = (sum_sq - n_f * mean * mean) / (n_f - 1.0);
    (mean, (variance.max(0.0) / n_f).sqrt())
}

fn assert_within(estimate: f64, se: f64, expected: f64, what: &str) {
    let tolerance = (Z_LIMIT * se).max(1e-12);
    assert!(
        (estimate - expected).abs() <= tolerance,
        "{what}: estimate {estimate} vs analytic {expected} (standard error {se}, z = {:.2})",
        (estimate - expected) / se
    );
}

/// Every mean and every covariance entry (upper triangle) of `x` against the analytic values.
fn assert_moments(
    x: ArrayView2<'_, f64>,
    mean: ArrayView1<'_, f64>,
    cov: ArrayView2<'_, f64>,
    what: &str,
) {
    let d = x.ncols();
    for i in 0..d {
        let (m, se) = mean_and_se(x.column(i).iter().copied());
        assert_within(m, se, mean[i], &format!("{what}: mean of x_{}", i + 1));
        for j in i..d {
            let products = x
                .rows()
                .into_iter()
                .map(|row| (row[i] - mean[i]) * (row[j] - mean[j]));
            let (c, se) = mean_and_se(products);
            assert_within(
                c,
                se,
                cov[[i, j]],
                &format!("{what}: covariance ({}, {})", i + 1, j + 1),
            );
        }
    }
}

fn check_preset(preset: XueTitteringtonPreset, seed: u64) {
    let (x, y) = preset.generate(N_DRAWS, &mut ChaCha8Rng::seed_from_u64(seed));
    let (class0, class1) = x.view().split_at(Axis(0), N_DRAWS);
    let (y0, y1) = y.view().split_at(Axis(0), N_DRAWS);
    assert!(y0.iter().all(|&k| k == 0) && y1.iter().all(|&k| k == 1));
    let means = preset.class_means();
    let covs = preset.class_covariances();
    assert_moments(
        class0,
        means[0].view(),
        covs[0].view(),
        &format!("{preset}, class 0"),
    );
    assert_moments(
        class1,
        means[1].view(),
        covs[1].view(),
        &format!("{preset}, class 1"),
    );
}

macro_rules! preset_moment_tests {
    ($($test:ident => $preset:ident, $seed:expr;)*) => {$(
        #[test]
        fn $test() {
            check_preset(XueTitteringtonPreset::$preset, $seed);
        }
    )*};
}

preset_moment_tests! {
    normal_equal_diagonal => NormalEqualDiagonal, 101;
    normal_equal_block => NormalEqualBlock, 102;
    normal_equal_full => NormalEqualFull, 103;
    normal_unequal_diagonal => NormalUnequalDiagonal, 104;
    normal_unequal_block => NormalUnequalBlock, 105;
    normal_unequal_full => NormalUnequalFull, 106;
    bernoulli_equal_diagonal => BernoulliEqualDiagonal, 107;
    bernoulli_equal_block => BernoulliEqualBlock, 108;
    bernoulli_equal_full => BernoulliEqualFull, 109;
    bernoulli_unequal_diagonal => BernoulliUnequalDiagonal, 110;
    bernoulli_unequal_block => BernoulliUnequalBlock, 111;
    bernoulli_unequal_full => BernoulliUnequalFull, 112;
}

#[test]
fn multivariate_normal_with_strong_correlations() {
    // Σ = A Aᵀ for an arbitrary A: positive definite with correlations up to ≈ 0.9 and
    // variances on different scales.
    let a = array![[2.0, 0.0, 0.0], [1.5, 0.5, 0.0], [-0.3, 0.8, 0.1]];
    let cov = a.dot(&a.t());
    let mean = array![10.0, -3.0, 0.25];
    let normal = MultivariateNormal::new(mean.clone(), cov.clone()).unwrap();
    let x = normal.sample(N_DRAWS, &mut ChaCha8Rng::seed_from_u64(201));
    assert_moments(x.view(), mean.view(), cov.view(), "N(μ, AAᵀ)");
}

/// Splits the rows of `x` by label.
fn rows_of_class(x: &Array2<f64>, y: &Array1<usize>, class: usize) -> Array2<f64> {
    let rows: Vec<usize> = (0..y.len()).filter(|&i| y[i] == class).collect();
    x.select(Axis(0), &rows)
}

#[test]
fn bouchard_triggs_gaussian_identity() {
    let (x, y) = BouchardTriggsSimulation::GaussianIdentity
        .sample(N_DRAWS, &mut ChaCha8Rng::seed_from_u64(301));
    let (p1, se) = mean_and_se(y.iter().map(|&k| k as f64));
    assert_within(p1, se, 0.5, "P(y = 1)");
    let identity = Array2::eye(4);
    for (class, sign) in [(0, -1.0), (1, 1.0)] {
        let rows = rows_of_class(&x, &y, class);
        let mean = array![sign * 1.25, 0.0, 0.0, 0.0];
        assert_moments(
            rows.view(),
            mean.view(),
            identity.view(),
            &format!("Gaussian simulation, class {class}"),
        );
    }
}

#[test]
fn bouchard_triggs_correlated_uniform() {
    let (x, y) = BouchardTriggsSimulation::CorrelatedUniform
        .sample(N_DRAWS, &mut ChaCha8Rng::seed_from_u64(302));
    // x_d is a sum of d independent U[0, 1): E[x_d] = d/2, Cov(x_i, x_j) = min(i, j)/12.
    let mean = Array1::from_shape_fn(4, |i| (i + 1) as f64 / 2.0);
    let cov = Array2::from_shape_fn((4, 4), |(i, j)| (i.min(j) + 1) as f64 / 12.0);
    assert_moments(x.view(), mean.view(), cov.view(), "uniform simulation");

    // P(y = 1) = ∫₀¹ σ(2.5 t) dt = (log(1 + e^2.5) − log 2) / 2.5.
    let p1 = ((1.0 + 2.5f64.exp()).ln() - 2f64.ln()) / 2.5;
    let (freq, se) = mean_and_se(y.iter().map(|&k| k as f64));
    assert_within(freq, se, p1, "P(y = 1)");

    // The conditional law: the residual r = y − σ(2.5 x_1) has mean zero and is uncorrelated
    // with every feature (E[r | x] = 0).
    let residual: Vec<f64> = x
        .column(0)
        .iter()
        .zip(y.iter())
        .map(|(&x1, &k)| k as f64 - sigmoid(2.5 * x1))
        .collect();
    let (r, se) = mean_and_se(residual.iter().copied());
    assert_within(r, se, 0.0, "E[y − σ(2.5 x_1)]");
    for d in 0..4 {
        let (r, se) = mean_and_se(residual.iter().zip(x.column(d)).map(|(r, xd)| r * xd));
        assert_within(r, se, 0.0, &format!("E[(y − σ(2.5 x_1)) x_{}]", d + 1));
    }
}
