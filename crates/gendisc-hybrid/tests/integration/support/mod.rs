//! Data and independent reference computations shared by the hybrid's test suites.

use gendisc_core::{FactorisedGenerative, Result};
use ndarray::{s, Array1, Array2, ArrayView1, ArrayView2, Axis};
use proptest::prelude::*;

/// The three input domains of the factorised models.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    Real,
    Binary,
    Levels,
}

/// Number of levels of every categorical feature in the generated data.
pub const LEVELS: usize = 3;

impl Domain {
    /// Maps a real value (class signal plus noise) into the domain.
    pub fn map(self, v: f64) -> f64 {
        match self {
            Domain::Real => v,
            Domain::Binary => f64::from(u8::from(v > 0.5)),
            Domain::Levels => {
                if v < 0.0 {
                    0.0
                } else if v < 1.0 {
                    1.0
                } else {
                    2.0
                }
            }
        }
    }
}

/// A training set with a held-out test set and a partition of the features into regions.
#[derive(Debug, Clone)]
pub struct Data {
    pub x: Array2<f64>,
    pub y: Array1<usize>,
    pub w: Option<Array1<f64>>,
    pub x_test: Array2<f64>,
    pub regions: Vec<Vec<usize>>,
}

/// `n` rows with classes in rotation (`y_i = i mod K`, so every class has rows), each feature
/// shifted by a class- and feature-dependent amount plus uniform noise, mapped into `domain`;
/// the features are split into 1–3 regions (each non-empty, together covering every feature,
/// in a shuffled order).
pub fn data(
    domain: Domain,
    classes: std::ops::RangeInclusive<usize>,
    rows: std::ops::Range<usize>,
    weighted: bool,
) -> impl Strategy<Value = Data> {
    (classes, 2usize..=5, rows).prop_flat_map(move |(k, d, n)| {
        (
            prop::collection::vec(-1.5f64..1.5, n * d),
            prop::collection::vec(-1.5f64..1.5, 6 * d),
            prop::collection::vec(prop::sample::select(vec![0.5, 1.0, 2.0]), n),
            prop::collection::vec(0usize..3, d),
            Just((0..d).collect::<Vec<usize>>()).prop_shuffle(),
        )
            .prop_map(move |(noise, test_noise, w, assignment, order)| {
                let shift = |c: usize, j: usize| 0.6 * (c as f64) * (1.0 + (j % 2) as f64);
                let y = Array1::from_shape_fn(n, |i| i % k);
                let x = Array2::from_shape_fn((n, d), |(i, j)| {
                    domain.map(shift(y[i], j) + noise[i * d + j])
                });
                let x_test = Array2::from_shape_fn((6, d), |(i, j)| {
                    domain.map(shift(i % k, j) + test_noise[i * d + j])
                });
                let mut regions: Vec<Vec<usize>> = vec![Vec::new(); 3];
                for &j in &order {
                    regions[assignment[j]].push(j);
                }
                regions.retain(|r| !r.is_empty());
                Data {
                    x,
                    y,
                    w: weighted.then(|| Array1::from(w)),
                    x_test,
                    regions,
                }
            })
    })
}

/// Contrasts indexed `[row][region][k − 1]`.
pub type Contrasts = Vec<Vec<Vec<f64>>>;

/// `s_r`.
pub fn scale(normalized: bool, region: &[usize]) -> f64 {
    if normalized {
        1.0 / region.len() as f64
    } else {
        1.0
    }
}

/// The contrasts `s_r (log p(x^r | k) − log p(x^r | 0))` of every row, region and class
/// `k ≥ 1` under `model`, as `[row][region][k − 1]`.
pub fn contrasts<M: FactorisedGenerative>(
    model: &M,
    x: ArrayView2<'_, f64>,
    regions: &[Vec<usize>],
    normalized: bool,
) -> Result<Contrasts> {
    let lls: Vec<Array2<f64>> = regions
        .iter()
        .map(|r| model.region_log_likelihood(x, r))
        .collect::<Result<_>>()?;
    Ok((0..x.nrows())
        .map(|i| {
            regions
                .iter()
                .zip(&lls)
                .map(|(region, ll)| {
                    let sr = scale(normalized, region);
                    (1..ll.ncols())
                        .map(|k| sr * (ll[[i, k]] - ll[[i, 0]]))
                        .collect()
                })
                .collect()
        })
        .collect())
}

/// The leave-one-out contrasts and log prior ratios by brute force: for every row, the model
/// refitted without it (by `refit`) evaluated at it.
pub fn brute_force_contrasts<M, F>(
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    w: Option<ArrayView1<'_, f64>>,
    regions: &[Vec<usize>],
    normalized: bool,
    refit: F,
) -> Result<(Contrasts, Vec<Vec<f64>>)>
where
    M: FactorisedGenerative,
    F: Fn(ArrayView2<'_, f64>, ArrayView1<'_, usize>, Option<ArrayView1<'_, f64>>) -> Result<M>,
{
    let mut all = Vec::new();
    let mut offsets = Vec::new();
    for i in 0..x.nrows() {
        let keep: Vec<usize> = (0..x.nrows()).filter(|&r| r != i).collect();
        let wi = w.map(|w| w.select(Axis(0), &keep));
        let model = refit(
            x.select(Axis(0), &keep).view(),
            y.select(Axis(0), &keep).view(),
            wi.as_ref().map(|w| w.view()),
        )?;
        let c = contrasts(&model, x.slice(s![i..=i, ..]), regions, normalized)?;
        all.push(c.into_iter().next().expect("one row"));
        let prior = model.log_prior();
        offsets.push((1..prior.len()).map(|k| prior[k] - prior[0]).collect());
    }
    Ok((all, offsets))
}

/// The gradient of the penalised conditional log-likelihood
/// `Σ_i w_i log p(y_i | x_i) − ½ Σ_r θ_r² / σ²` of the multi-class form, in the parameters
/// `(μ_1 … μ_{K−1}, θ_1 … θ_R)` (intercepts only when `fit_intercepts`), computed directly
/// from its definition `p(y | x) ∝ exp(η_y)`, `η_0 = 0`,
/// `η_k = a_k + μ_k + Σ_r θ_r c_rk`.
pub fn conditional_gradient(
    contrasts: &[Vec<Vec<f64>>],
    offsets: Option<&[Vec<f64>]>,
    y: ArrayView1<'_, usize>,
    w: Option<ArrayView1<'_, f64>>,
    mu: &[f64],
    theta: &[f64],
    fit_intercepts: bool,
    prior_variance: Option<f64>,
) -> Vec<f64> {
    let n_contrasts = mu.len();
    let n_regions = theta.len();
    let mut gradient_mu = vec![0.0; n_contrasts];
    let mut gradient_theta = vec![0.0; n_regions];
    for (i, c) in contrasts.iter().enumerate() {
        let wi = w.map_or(1.0, |w| w[i]);
        let mut eta = vec![0.0; n_contrasts + 1];
        for k in 1..=n_contrasts {
            eta[k] = offsets.map_or(0.0, |o| o[i][k - 1]) + mu[k - 1];
            for r in 0..n_regions {
                eta[k] += theta[r] * c[r][k - 1];
            }
        }
        let max = eta.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let total: f64 = eta.iter().map(|e| (e - max).exp()).sum();
        for k in 1..=n_contrasts {
            let residual = f64::from(u8::from(y[i] == k)) - (eta[k] - max).exp() / total;
            gradient_mu[k - 1] += wi * residual;
            for r in 0..n_regions {
                gradient_theta[r] += wi * residual * c[r][k - 1];
            }
        }
    }
    if let Some(v) = prior_variance {
        for (g, t) in gradient_theta.iter_mut().zip(theta) {
            *g -= t / v;
        }
    }
    let mut gradient = if fit_intercepts {
        gradient_mu
    } else {
        Vec::new()
    };
    gradient.extend(gradient_theta);
    gradient
}

/// `|a − b| ≤ tol · max(1, |b|)`.
pub fn close(a: f64, b: f64, tol: f64) -> bool {
    a == b || (a - b).abs() <= tol * b.abs().max(1.0)
}
