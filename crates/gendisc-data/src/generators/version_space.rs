//! A separating hyperplane drawn at random from the version space, the paper's treatment of
//! separable training sets (§4: "an MCMC sampler to pick a classifier randomly from the
//! version space").
//!
//! For a training set `(x_i, y_i)` with signs `s_i = ±1`, the version space is the open convex
//! cone `V = {θ = (w, b) : s_i (x_iᵀw + b) > 0 for all i}` of hyperplanes that classify every
//! training row correctly. Its directions are what distinguishes one separator from another, and
//! the uniform distribution on `V ∩ {‖θ‖ < 1}` gives the uniform distribution on the directions
//! of `V` (the radial part factorises). That body is convex, so the hit-and-run walk (Smith
//! 1984) samples it: from a point `θ` inside, draw a uniformly random direction `d`, find the
//! chord `{θ + t d}` inside the body — an interval, intersection of one half-line per training
//! row and of the ball — and move to a uniformly random point of it. Its stationary
//! distribution is the uniform one; the walk starts at a separating hyperplane scaled into the
//! ball and runs a fixed number of steps.

use gendisc_core::numerics::contiguous_dot;
use gendisc_core::{Error, Result};
use ndarray::{Array1, ArrayView1, ArrayView2};
use rand::{Rng, RngCore};
use rand_distr::StandardNormal;

/// A point of the version space of `(x, y)` after `steps` hit-and-run steps from `start`.
///
/// `start` is `(w, b)` — the weights then the intercept, `d + 1` values — and must classify
/// every row correctly (`s_i (x_iᵀw + b) > 0`); the walk runs in the unit ball, so the result
/// has norm below 1. Randomness comes from `rng` only.
///
/// Errors: [`Error::ShapeMismatch`] for inconsistent shapes, [`Error::InvalidParameter`] when
/// `start` does not separate the rows.
pub fn random_separator<R: Rng + ?Sized>(
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    start: ArrayView1<'_, f64>,
    steps: usize,
    rng: &mut R,
) -> Result<Array1<f64>> {
    // The walk draws through `dyn RngCore`, so that it is compiled here, at this crate's
    // optimisation level, whatever the caller's generator type (a generic body would be
    // compiled in each caller's crate, unoptimised in a study's development build).
    let mut rng = rng;
    hit_and_run(x, y, start, steps, &mut rng)
}

/// [`random_separator`]'s walk.
fn hit_and_run(
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    start: ArrayView1<'_, f64>,
    steps: usize,
    rng: &mut dyn RngCore,
) -> Result<Array1<f64>> {
    let (n, d) = x.dim();
    if y.len() != n {
        return Err(Error::shape_mismatch("labels vs rows of x", n, y.len()));
    }
    if start.len() != d + 1 {
        return Err(Error::shape_mismatch(
            "start (weights and intercept) vs columns of x plus one",
            d + 1,
            start.len(),
        ));
    }
    let signs: Vec<f64> = y.iter().map(|&c| if c == 1 { 1.0 } else { -1.0 }).collect();
    let rows = x.as_standard_layout();
    let rows = rows.as_slice().expect("standard layout");
    // Signed margins of the rows for a direction: s_i (x_iᵀ w + b).
    let margins = |theta: &Array1<f64>, out: &mut Array1<f64>| {
        let theta = theta.as_slice().expect("a new vector is contiguous");
        let (w, b) = (&theta[..d], theta[d]);
        let out = out.as_slice_mut().expect("a new vector is contiguous");
        for (i, (o, &sign)) in out.iter_mut().zip(&signs).enumerate() {
            *o = sign * (contiguous_dot(&rows[i * d..(i + 1) * d], w) + b);
        }
    };
    let norm = start.dot(&start).sqrt();
    let mut theta = start.to_owned();
    if norm > 0.0 {
        theta /= 2.0 * norm;
    }
    let mut margin = Array1::zeros(n);
    margins(&theta, &mut margin);
    if let Some(row) = margin.iter().position(|&c| c.is_nan() || c <= 0.0) {
        return Err(Error::invalid_parameter(
            "start",
            format!("the starting hyperplane does not classify training row {row} correctly"),
        ));
    }
    let mut direction = Array1::zeros(d + 1);
    let mut change = Array1::zeros(n);
    for _ in 0..steps {
        direction.mapv_inplace(|_| rng.sample::<f64, _>(StandardNormal));
        let length = direction.dot(&direction).sqrt();
        if length.is_nan() || length <= 0.0 {
            continue;
        }
        direction /= length;
        margins(&direction, &mut change);
        // The ball: ‖θ + t d‖² < 1, i.e. t² + 2 (θ·d) t + ‖θ‖² − 1 < 0.
        let half_b = theta.dot(&direction);
        let c = theta.dot(&theta) - 1.0;
        let root = (half_b * half_b - c).max(0.0).sqrt();
        let (mut lo, mut hi) = (-half_b - root, -half_b + root);
        // Each row: c_i + t g_i > 0. The bound is taken for every row and kept by the sign of
        // g_i without a branch: the signs of a random direction's changes are a coin toss.
        for (&c_i, &g_i) in margin.iter().zip(&change) {
            let bound = -c_i / g_i;
            lo = if g_i > 0.0 { lo.max(bound) } else { lo };
            hi = if g_i < 0.0 { hi.min(bound) } else { hi };
        }
        // Also skips a NaN bound.
        if lo.partial_cmp(&hi) != Some(std::cmp::Ordering::Less) {
            continue;
        }
        let t = lo + (hi - lo) * rng.random::<f64>();
        if !(t > lo && t < hi) {
            continue;
        }
        theta.scaled_add(t, &direction);
        margin.scaled_add(t, &change);
    }
    Ok(theta)
}

/// A separating hyperplane `(w, b)` found by the perceptron (Rosenblatt's rule, cycling over
/// the rows in order), or `None` when it has not separated the rows after `max_epochs` passes.
///
/// A second, independent starting point for [`random_separator`]: unlike the penalised logistic
/// regression, which sits near the middle of the version space (the maximum-margin direction),
/// the perceptron stops at the first separator it reaches, typically near the version space's
/// boundary. Walks from both should agree once they are mixed.
pub fn perceptron_separator(
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    max_epochs: usize,
) -> Option<Array1<f64>> {
    let (n, d) = x.dim();
    if y.len() != n {
        return None;
    }
    let mut theta = Array1::zeros(d + 1);
    for _ in 0..max_epochs {
        let mut mistakes = 0;
        for i in 0..n {
            let s = if y[i] == 1 { 1.0 } else { -1.0 };
            let margin = s * (x.row(i).dot(&theta.slice(ndarray::s![..d])) + theta[d]);
            if margin.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
                mistakes += 1;
                theta.slice_mut(ndarray::s![..d]).scaled_add(s, &x.row(i));
                theta[d] += s;
            }
        }
        if mistakes == 0 {
            return Some(theta);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_result_separates_and_lies_in_the_ball() {
        let x = array![[0.0, 1.0], [1.0, 2.0], [3.0, 0.5], [4.0, 1.5], [2.0, 3.0]];
        let y = array![0, 0, 1, 1, 0];
        // x1 − x2 − 0.5 separates them.
        let start = array![1.0, -1.0, -0.5];
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let theta = random_separator(x.view(), y.view(), start.view(), 500, &mut rng).unwrap();
        assert!(theta.dot(&theta) < 1.0);
        for i in 0..5 {
            let eta = x.row(i).dot(&theta.slice(ndarray::s![..2])) + theta[2];
            assert_eq!(usize::from(eta > 0.0), y[i], "row {i}");
        }
        let again = random_separator(
            x.view(),
            y.view(),
            start.view(),
            500,
            &mut ChaCha8Rng::seed_from_u64(3),
        )
        .unwrap();
        assert_eq!(theta, again);
    }

    #[test]
    fn directions_are_uniform_over_the_version_space() {
        // x = −1 (class 0) and x = +1 (class 1): the version space is |b| < w, so the angle of
        // (w, b) is uniform on (−45°, 45°) under the uniform distribution: half of the draws
        // within ±22.5°, mean 0.
        let x = array![[-1.0], [1.0]];
        let y = array![0, 1];
        let start = array![1.0, 0.0];
        let draws = 4000;
        let mut inner = 0;
        let mut sum = 0.0;
        for seed in 0..draws {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let theta = random_separator(x.view(), y.view(), start.view(), 30, &mut rng).unwrap();
            let angle = theta[1].atan2(theta[0]).to_degrees();
            assert!(angle.abs() < 45.0);
            inner += usize::from(angle.abs() < 22.5);
            sum += angle;
        }
        // Binomial(4000, ½): standard deviation ≈ 32, so ±130 is 4 of them.
        assert!((inner as i64 - 2000).abs() < 130, "{inner}");
        // The angle's standard deviation is 45/√3 ≈ 26°: the mean's is 0.41°.
        assert!((sum / draws as f64).abs() < 1.7, "{}", sum / draws as f64);
    }

    #[test]
    fn bad_inputs_are_errors() {
        let x = array![[-1.0], [1.0]];
        let y = array![0, 1];
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert!(
            random_separator(x.view(), y.view(), array![-1.0, 0.0].view(), 5, &mut rng).is_err()
        );
        assert!(random_separator(x.view(), y.view(), array![1.0].view(), 5, &mut rng).is_err());
        assert!(random_separator(
            x.view(),
            array![0].view(),
            array![1.0, 0.0].view(),
            5,
            &mut rng
        )
        .is_err());
    }

    #[test]
    fn the_perceptron_separates_what_is_separable() {
        let x = array![[0.0, 1.0], [1.0, 2.0], [3.0, 0.5], [4.0, 1.5], [2.0, 3.0]];
        let y = array![0, 0, 1, 1, 0];
        let theta = perceptron_separator(x.view(), y.view(), 1000).unwrap();
        for i in 0..5 {
            let eta = x.row(i).dot(&theta.slice(ndarray::s![..2])) + theta[2];
            assert_eq!(usize::from(eta > 0.0), y[i], "row {i}");
        }
        // XOR is not linearly separable.
        let xor = array![[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]];
        let labels = array![0, 0, 1, 1];
        assert!(perceptron_separator(xor.view(), labels.view(), 1000).is_none());
    }
}
