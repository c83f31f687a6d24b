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

use std::any::Any;

use gendisc_core::{Error, Result};
use ndarray::linalg::general_mat_mul;
use ndarray::{s, Array1, Array2, ArrayView1, ArrayView2};
use rand::{Rng, RngCore};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

/// A point of the version space of `(x, y)` after `steps` hit-and-run steps from `start`.
///
/// `start` is `(w, b)` — the weights then the intercept, `d + 1` values — and must classify
/// every row correctly (`s_i (x_iᵀw + b) > 0`); the walk runs in the unit ball, so the result
/// has norm below 1. Randomness comes from `rng` only.
///
/// Errors: [`Error::ShapeMismatch`] for inconsistent shapes, [`Error::InvalidParameter`] when
/// `start` does not separate the rows.
pub fn random_separator<R: Rng + Any>(
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    start: ArrayView1<'_, f64>,
    steps: usize,
    rng: &mut R,
) -> Result<Array1<f64>> {
    // The walk is compiled here, at this crate's optimisation level, whatever the caller (a
    // generic body would be compiled in each caller's crate, unoptimised in a study's
    // development build): for `ChaCha8Rng`, the generator of every study, with its draws
    // inlined into the walk; for any other through `dyn RngCore`. Either way the same draws.
    match (rng as &mut dyn Any).downcast_mut::<ChaCha8Rng>() {
        Some(chacha) => walk_drawing_from_chacha(x, y, start, steps, chacha),
        None => walk_drawing_from_any(x, y, start, steps, rng),
    }
}

fn walk_drawing_from_chacha(
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    start: ArrayView1<'_, f64>,
    steps: usize,
    rng: &mut ChaCha8Rng,
) -> Result<Array1<f64>> {
    hit_and_run(x, y, start, steps, rng)
}

fn walk_drawing_from_any(
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    start: ArrayView1<'_, f64>,
    steps: usize,
    rng: &mut dyn RngCore,
) -> Result<Array1<f64>> {
    hit_and_run(x, y, start, steps, rng)
}

/// How many steps the walk draws at a time. A step's direction and the uniform draw that places
/// it on its chord do not depend on where the walk is, so they are drawn ahead, in the order
/// the steps take them from the generator; the margins' changes along the batch's directions
/// are then one matrix product, `D X̃ᵀ` ([`signed_rows`]), whose every entry is summed in the
/// same order whatever the batch's size.
const BATCH: usize = 64;

/// `X̃`, row `i` the signed row `s_i (x_i, 1)`: a hyperplane `θ = (w, b)`'s signed margins
/// `s_i (x_iᵀw + b)` are `X̃ θ`.
fn signed_rows(x: ArrayView2<'_, f64>, signs: &[f64]) -> Array2<f64> {
    let d = x.ncols();
    let mut rows = Array2::ones((x.nrows(), d + 1));
    for ((mut out, row), &sign) in rows.outer_iter_mut().zip(x.outer_iter()).zip(signs) {
        out.slice_mut(s![..d]).assign(&row);
        out *= sign;
    }
    rows
}

/// [`random_separator`]'s walk. A step whose chord is empty — which happens only by round-off,
/// the walk being strictly inside the body — is skipped, and its draws are spent.
fn hit_and_run<G: RngCore + ?Sized>(
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    start: ArrayView1<'_, f64>,
    steps: usize,
    rng: &mut G,
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
    let signed = signed_rows(x, &signs);
    let norm = start.dot(&start).sqrt();
    let mut theta = start.to_owned();
    if norm > 0.0 {
        theta /= 2.0 * norm;
    }
    let mut margin = signed.dot(&theta);
    if let Some(row) = margin.iter().position(|&c| c.is_nan() || c <= 0.0) {
        return Err(Error::invalid_parameter(
            "start",
            format!("the starting hyperplane does not classify training row {row} correctly"),
        ));
    }
    let mut directions = Array2::zeros((BATCH, d + 1));
    let mut positions = [None; BATCH];
    let mut changes = Array2::zeros((BATCH, n));
    let mut taken = 0;
    while taken < steps {
        let batch = BATCH.min(steps - taken);
        for (mut direction, position) in directions.outer_iter_mut().zip(&mut positions).take(batch)
        {
            direction.mapv_inplace(|_| rng.sample::<f64, _>(StandardNormal));
            let length = direction.dot(&direction).sqrt();
            *position = if length.is_nan() || length <= 0.0 {
                None
            } else {
                // One division a direction rather than one an entry.
                direction *= length.recip();
                Some(rng.random::<f64>())
            };
        }
        // The margins' changes along each direction are its own signed margins.
        general_mat_mul(
            1.0,
            &directions.slice(s![..batch, ..]),
            &signed.t(),
            0.0,
            &mut changes.slice_mut(s![..batch, ..]),
        );
        for ((direction, change), position) in directions
            .outer_iter()
            .zip(changes.outer_iter())
            .zip(&positions)
            .take(batch)
        {
            let Some(position) = *position else {
                continue;
            };
            // The ball: ‖θ + t d‖² < 1, i.e. t² + 2 (θ·d) t + ‖θ‖² − 1 < 0.
            let half_b = theta.dot(&direction);
            let c = theta.dot(&theta) - 1.0;
            let root = (half_b * half_b - c).max(0.0).sqrt();
            let (lo, hi) = chord(
                (-half_b - root, -half_b + root),
                margin.as_slice().expect("a new vector is contiguous"),
                change
                    .as_slice()
                    .expect("a row of a new matrix is contiguous"),
            );
            // Also skips a NaN bound.
            if lo.partial_cmp(&hi) != Some(std::cmp::Ordering::Less) {
                continue;
            }
            let t = lo + (hi - lo) * position;
            if !(t > lo && t < hi) {
                continue;
            }
            theta.scaled_add(t, &direction);
            margin.scaled_add(t, &change);
        }
        taken += batch;
    }
    Ok(theta)
}

/// The chord `(lo, hi)` of the line `θ + t d` inside the body, from its chord `ball` inside
/// the ball, the margins `c_i` at `θ` and their changes `g_i` along `d`: every row keeps
/// `c_i + t g_i > 0`, a lower bound `−c_i / g_i` on `t` where `g_i > 0` and an upper one where
/// `g_i < 0`. A NaN bound is ignored.
///
/// The bounds are kept without a branch (the signs of a random direction's changes are a coin
/// toss), in [`CHORD_LANES`] running extremes that the processor computes side by side; a
/// maximum is exact, so the lanes give the bounds a single pass would.
fn chord(ball: (f64, f64), margin: &[f64], change: &[f64]) -> (f64, f64) {
    let mut lo = [ball.0; CHORD_LANES];
    let mut hi = [ball.1; CHORD_LANES];
    let split = margin.len() - margin.len() % CHORD_LANES;
    for (cs, gs) in margin[..split]
        .chunks_exact(CHORD_LANES)
        .zip(change[..split].chunks_exact(CHORD_LANES))
    {
        for lane in 0..CHORD_LANES {
            let bound = -cs[lane] / gs[lane];
            lo[lane] = if gs[lane] > 0.0 {
                lo[lane].max(bound)
            } else {
                lo[lane]
            };
            hi[lane] = if gs[lane] < 0.0 {
                hi[lane].min(bound)
            } else {
                hi[lane]
            };
        }
    }
    for (&c_i, &g_i) in margin[split..].iter().zip(&change[split..]) {
        let bound = -c_i / g_i;
        lo[0] = if g_i > 0.0 { lo[0].max(bound) } else { lo[0] };
        hi[0] = if g_i < 0.0 { hi[0].min(bound) } else { hi[0] };
    }
    (
        lo[1..].iter().fold(lo[0], |m, &v| m.max(v)),
        hi[1..].iter().fold(hi[0], |m, &v| m.min(v)),
    )
}

/// The running extremes of [`chord`].
const CHORD_LANES: usize = 4;

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

    /// The walk one step at a time, each direction drawn, its margins' changes computed (a
    /// one-row product) and its chord found before the next is drawn: what the batched walk
    /// must equal bit for bit.
    fn stepwise_walk<G: RngCore + ?Sized>(
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        start: ArrayView1<'_, f64>,
        steps: usize,
        rng: &mut G,
    ) -> Array1<f64> {
        let d = x.ncols();
        let signs: Vec<f64> = y.iter().map(|&c| if c == 1 { 1.0 } else { -1.0 }).collect();
        let signed = signed_rows(x, &signs);
        let mut theta = &start / (2.0 * start.dot(&start).sqrt());
        let mut margin = signed.dot(&theta);
        for _ in 0..steps {
            let mut direction =
                Array1::from_iter((0..=d).map(|_| rng.sample::<f64, _>(StandardNormal)));
            direction *= direction.dot(&direction).sqrt().recip();
            let mut change = Array2::zeros((1, x.nrows()));
            general_mat_mul(
                1.0,
                &direction.view().insert_axis(ndarray::Axis(0)),
                &signed.t(),
                0.0,
                &mut change,
            );
            let change = change.row(0);
            let half_b = theta.dot(&direction);
            let root = (half_b * half_b - (theta.dot(&theta) - 1.0))
                .max(0.0)
                .sqrt();
            let (mut lo, mut hi) = (-half_b - root, -half_b + root);
            for (&c_i, &g_i) in margin.iter().zip(&change) {
                if g_i > 0.0 {
                    lo = lo.max(-c_i / g_i);
                } else if g_i < 0.0 {
                    hi = hi.min(-c_i / g_i);
                }
            }
            let t = lo + (hi - lo) * rng.random::<f64>();
            theta.scaled_add(t, &direction);
            margin.scaled_add(t, &change);
        }
        theta
    }

    /// A generator that is not `ChaCha8Rng`: the walk draws through `dyn RngCore`.
    struct Wrapped(ChaCha8Rng);

    impl RngCore for Wrapped {
        fn next_u32(&mut self) -> u32 {
            self.0.next_u32()
        }
        fn next_u64(&mut self) -> u64 {
            self.0.next_u64()
        }
        fn fill_bytes(&mut self, dst: &mut [u8]) {
            self.0.fill_bytes(dst)
        }
    }

    proptest::proptest! {
        #[test]
        fn the_batched_walk_is_the_stepwise_walk_bit_for_bit(
            rows in 1usize..40,
            columns in 0usize..21,
            steps in 0usize..150,
            seed in 0u64..1000,
        ) {
            // Labels by the sign of a fixed hyperplane, so that it starts the walk.
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let x = Array2::from_shape_fn((rows, columns), |_| rng.random::<f64>() * 4.0 - 2.0);
            let start = Array1::from_shape_fn(columns + 1, |j| 1.0 - 0.3 * j as f64);
            let eta = x.dot(&start.slice(ndarray::s![..columns])) + start[columns];
            let y = eta.mapv(|e| usize::from(e > 0.0));
            // Rows on the hyperplane itself would not be separated: drop them.
            let keep: Vec<usize> = (0..rows).filter(|&i| eta[i].abs() > 1e-9).collect();
            let (x, y) = (x.select(ndarray::Axis(0), &keep), y.select(ndarray::Axis(0), &keep));
            let batched = random_separator(
                x.view(),
                y.view(),
                start.view(),
                steps,
                &mut ChaCha8Rng::seed_from_u64(seed + 1),
            )
            .unwrap();
            let stepwise = stepwise_walk(
                x.view(),
                y.view(),
                start.view(),
                steps,
                &mut ChaCha8Rng::seed_from_u64(seed + 1),
            );
            // Another generator type walks through `dyn RngCore`, with the same draws.
            let wrapped = random_separator(
                x.view(),
                y.view(),
                start.view(),
                steps,
                &mut Wrapped(ChaCha8Rng::seed_from_u64(seed + 1)),
            )
            .unwrap();
            let bits = |v: &Array1<f64>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            proptest::prop_assert_eq!(bits(&batched), bits(&stepwise));
            proptest::prop_assert_eq!(bits(&wrapped), bits(&stepwise));
        }
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
