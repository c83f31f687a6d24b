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
//! ball and runs a fixed number of steps. With fewer rows than coefficients, only the rows' span
//! moves the margins, and the walk runs there, with the same law ([`walk_in_row_span`]).

use std::any::Any;

use gendisc_core::linalg::orthonormal_remainder;
use gendisc_core::{Error, Result};
use ndarray::linalg::general_mat_mul;
use ndarray::{s, Array1, Array2, ArrayView1, ArrayView2};
use rand::{Rng, RngCore};
use rand_chacha::ChaCha8Rng;
use rand_distr::{ChiSquared, StandardNormal};

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

/// [`random_separator`]'s walk: in all of `R^{d+1}` ([`walk_in_full_space`]) where the rows
/// span it, else in their span with the rest carried by two numbers ([`walk_in_row_span`]).
/// A step whose chord is empty — which happens only by round-off, the walk being strictly
/// inside the body — is skipped, and its draws are spent.
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
    let margin = signed.dot(&theta);
    if let Some(row) = margin.iter().position(|&c| c.is_nan() || c <= 0.0) {
        return Err(Error::invalid_parameter(
            "start",
            format!("the starting hyperplane does not classify training row {row} correctly"),
        ));
    }
    let span = RowSpan::of(signed.view());
    Ok(if span.rank() < d + 1 {
        walk_in_row_span(&signed, &span, theta, margin, steps, rng)
    } else {
        walk_in_full_space(&signed, theta, margin, steps, rng)
    })
}

/// The walk in all of `R^{d+1}`, each direction a uniform unit vector.
fn walk_in_full_space<G: RngCore + ?Sized>(
    signed: &Array2<f64>,
    mut theta: Array1<f64>,
    mut margin: Array1<f64>,
    steps: usize,
    rng: &mut G,
) -> Array1<f64> {
    let (n, p) = signed.dim();
    let mut directions = Array2::zeros((BATCH, p));
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
            let Some(t) = step_along((-half_b - root, -half_b + root), &margin, change, position)
            else {
                continue;
            };
            theta.scaled_add(t, &direction);
            margin.scaled_add(t, &change);
        }
        taken += batch;
    }
    theta
}

/// Below this fraction of its norm, the part of a row outside the span of the rows before it
/// is rounding, and the row adds no direction to the span.
const SPAN_TOLERANCE: f64 = 1e-9;

/// An orthonormal basis of the span of the signed rows in `R^{d+1}`, one basis vector a row of
/// `basis`: Gram–Schmidt over the rows in order
/// ([`orthonormal_remainder`](gendisc_core::linalg::orthonormal_remainder), orthogonalised
/// twice), a row kept where what is left of it exceeds [`SPAN_TOLERANCE`] of its norm.
struct RowSpan {
    basis: Array2<f64>,
}

impl RowSpan {
    fn of(signed: ArrayView2<'_, f64>) -> Self {
        let p = signed.ncols();
        let mut vectors: Vec<Array1<f64>> = Vec::new();
        for row in signed.outer_iter() {
            if vectors.len() == p {
                break;
            }
            if let Some(q) = orthonormal_remainder(row.to_owned(), &vectors, SPAN_TOLERANCE) {
                vectors.push(q);
            }
        }
        let mut basis = Array2::zeros((vectors.len(), p));
        for (mut out, q) in basis.outer_iter_mut().zip(&vectors) {
            out.assign(q);
        }
        Self { basis }
    }

    fn rank(&self) -> usize {
        self.basis.nrows()
    }

    /// `v` without its part in the span (orthogonalised twice).
    fn complement(&self, v: &Array1<f64>) -> Array1<f64> {
        let mut rest = v.clone();
        for _ in 0..2 {
            let along = self.basis.dot(&rest);
            rest -= &self.basis.t().dot(&along);
        }
        rest
    }
}

/// The walk when the rows span a subspace `R` of dimension `r` below the `p = d + 1`
/// coefficients (fewer rows than coefficients, or dependent ones), with the same law as the
/// walk in all of `R^p`, step for step, at the cost of `r` dimensions instead of `p`.
///
/// Write `θ = Q û + α e₀ + w`, with `Q` an orthonormal basis of `R`, `e₀` the direction of the
/// start's part outside `R`, and `w` the rest, orthogonal to both, in a space of dimension
/// `m = p − r − 1` (`m = p − r` and no `e₀` when the start lies in `R`). Draw the direction
/// `d ~ N(0, I_p)` as `(Q z, ζ₀ e₀, b)`: the margins move by `X̃ Q z` and do not see `α` or
/// `w`, and the ball `‖θ + t d‖² < 1` sees `w` and `b` only through `w·b` and `‖b‖²`, which
/// given `‖w‖` are `‖w‖ ζ₁` and `ζ₁² + χ²_{m−1}` for independent `ζ₁ ~ N(0, 1)`. So
/// `(û, α, ‖w‖)` is a Markov chain of its own, moved by `r + 3` draws a step, with
/// `‖w + t b‖² = ‖w‖² + 2t‖w‖ζ₁ + t²‖b‖²`; and since `w` starts at 0 and every step is
/// unchanged by rotations of `w`'s space, `w`'s direction at the end is uniform on that
/// space's sphere whatever the rest did, and is drawn once. (A Gaussian direction gives the
/// line of a uniform unit one, and a uniform `t` on its chord a uniform point of it.)
fn walk_in_row_span<G: RngCore + ?Sized>(
    signed: &Array2<f64>,
    span: &RowSpan,
    theta: Array1<f64>,
    mut margin: Array1<f64>,
    steps: usize,
    rng: &mut G,
) -> Array1<f64> {
    let (n, p) = signed.dim();
    let q = &span.basis;
    let r = span.rank();
    let mut u = q.dot(&theta);
    let outside = span.complement(&theta);
    let outside_norm = outside.dot(&outside).sqrt();
    // A start whose part outside the span is rounding lies in it.
    let e0 =
        (outside_norm > SPAN_TOLERANCE * theta.dot(&theta).sqrt()).then(|| outside / outside_norm);
    let mut alpha = if e0.is_some() { outside_norm } else { 0.0 };
    let m = p - r - usize::from(e0.is_some());
    // ‖b‖² − ζ₁², a χ² with m − 1 degrees of freedom where there are any.
    let rest_of_b = (m >= 2)
        .then(|| ChiSquared::new((m - 1) as f64).expect("a positive number of degrees of freedom"));
    let mut w_norm = 0.0_f64;
    // The margins' changes along a direction of the span, z ↦ X̃ Q z.
    let lifted = signed.dot(&q.t());
    let mut directions = Array2::zeros((BATCH, r));
    let mut outside_draws = [[0.0; 3]; BATCH];
    let mut positions = [None; BATCH];
    let mut changes = Array2::zeros((BATCH, n));
    let mut taken = 0;
    while taken < steps {
        let batch = BATCH.min(steps - taken);
        for ((mut z, [zeta0, zeta1, rest]), position) in directions
            .outer_iter_mut()
            .zip(&mut outside_draws)
            .zip(&mut positions)
            .take(batch)
        {
            z.mapv_inplace(|_| rng.sample::<f64, _>(StandardNormal));
            *zeta0 = if e0.is_some() {
                rng.sample(StandardNormal)
            } else {
                0.0
            };
            *zeta1 = if m >= 1 {
                rng.sample(StandardNormal)
            } else {
                0.0
            };
            *rest = rest_of_b.map_or(0.0, |chi| rng.sample(chi));
            let length_squared = z.dot(&z) + *zeta0 * *zeta0 + *zeta1 * *zeta1 + *rest;
            *position = (length_squared > 0.0).then(|| rng.random::<f64>());
        }
        general_mat_mul(
            1.0,
            &directions.slice(s![..batch, ..]),
            &lifted.t(),
            0.0,
            &mut changes.slice_mut(s![..batch, ..]),
        );
        for (((z, &[zeta0, zeta1, rest]), change), position) in directions
            .outer_iter()
            .zip(&outside_draws)
            .zip(changes.outer_iter())
            .zip(&positions)
            .take(batch)
        {
            let Some(position) = *position else {
                continue;
            };
            // The ball: ‖d‖² t² + 2 (θ·d) t + ‖θ‖² − 1 < 0.
            let b_squared = zeta1 * zeta1 + rest;
            let a = z.dot(&z) + zeta0 * zeta0 + b_squared;
            let half_b = u.dot(&z) + alpha * zeta0 + w_norm * zeta1;
            let c = u.dot(&u) + alpha * alpha + w_norm * w_norm - 1.0;
            let root = (half_b * half_b - a * c).max(0.0).sqrt();
            let ball = ((-half_b - root) / a, (-half_b + root) / a);
            let Some(t) = step_along(ball, &margin, change, position) else {
                continue;
            };
            u.scaled_add(t, &z);
            alpha += t * zeta0;
            w_norm = (w_norm * w_norm + 2.0 * t * w_norm * zeta1 + t * t * b_squared)
                .max(0.0)
                .sqrt();
            margin.scaled_add(t, &change);
        }
        taken += batch;
    }
    let mut theta = q.t().dot(&u);
    if let Some(e0) = &e0 {
        theta.scaled_add(alpha, e0);
    }
    if m >= 1 && w_norm > 0.0 {
        // w's direction: uniform on the unit sphere of the space orthogonal to the span and e₀.
        let draw = Array1::from_shape_fn(p, |_| rng.sample::<f64, _>(StandardNormal));
        let mut direction = span.complement(&draw);
        if let Some(e0) = &e0 {
            for _ in 0..2 {
                let along = e0.dot(&direction);
                direction.scaled_add(-along, e0);
            }
        }
        let length = direction.dot(&direction).sqrt();
        if length > 0.0 {
            theta.scaled_add(w_norm / length, &direction);
        }
    }
    theta
}

/// The step `t` to the point at `position` (in `[0, 1)`) along the chord of a line whose chord
/// inside the ball is `ball`, the margins `margin` and their changes along it `change`
/// ([`chord`]); `None` for an empty chord or a step that rounds to one of its ends.
fn step_along(
    ball: (f64, f64),
    margin: &Array1<f64>,
    change: ArrayView1<'_, f64>,
    position: f64,
) -> Option<f64> {
    let (lo, hi) = chord(
        ball,
        margin.as_slice().expect("a new vector is contiguous"),
        change
            .as_slice()
            .expect("a row of a new matrix is contiguous"),
    );
    // Also refuses a NaN bound.
    if lo.partial_cmp(&hi) != Some(std::cmp::Ordering::Less) {
        return None;
    }
    let t = lo + (hi - lo) * position;
    (t > lo && t < hi).then_some(t)
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
            extra_rows in 0usize..30,
            columns in 0usize..21,
            steps in 0usize..150,
            seed in 0u64..1000,
        ) {
            // At least as many rows as coefficients (in general position, so they span them):
            // the walk in all of the space. Labels by the sign of a fixed hyperplane, so that
            // it starts the walk.
            let rows = columns + 1 + extra_rows;
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

    /// A number computed from a drawn hyperplane.
    type Statistic<'a> = Box<dyn Fn(&Array1<f64>) -> f64 + 'a>;

    /// The two-sample Kolmogorov–Smirnov statistic `sup |F_a − F_b|`.
    fn ks_statistic(mut a: Vec<f64>, mut b: Vec<f64>) -> f64 {
        a.sort_by(f64::total_cmp);
        b.sort_by(f64::total_cmp);
        let (mut i, mut j, mut largest) = (0, 0, 0.0_f64);
        while i < a.len() && j < b.len() {
            let v = a[i].min(b[j]);
            while i < a.len() && a[i] <= v {
                i += 1;
            }
            while j < b.len() && b[j] <= v {
                j += 1;
            }
            largest = largest.max((i as f64 / a.len() as f64 - j as f64 / b.len() as f64).abs());
        }
        largest
    }

    /// With fewer rows than coefficients the walk in the rows' span has the law of the walk in
    /// all of the space, step for step: after a few steps, from a start outside the span and
    /// from one inside it, the two give indistinguishable distributions of the coefficients,
    /// of a direction outside the span and of the length.
    #[test]
    fn the_walk_in_the_rows_span_has_the_law_of_the_walk_in_all_of_the_space() {
        // Three rows, eight coefficients: five dimensions outside the span.
        let x = array![
            [1.0, 0.5, -0.2, 0.3, 0.0, 1.1, -0.4],
            [-0.7, 0.2, 0.9, -0.1, 0.4, -0.3, 0.8],
            [0.3, -1.2, 0.1, 0.6, -0.5, 0.2, 0.0]
        ];
        // Labels 1, 0, 1.
        let signs = [1.0, -1.0, 1.0];
        let signed = signed_rows(x.view(), &signs);
        let span = RowSpan::of(signed.view());
        assert_eq!(span.rank(), 3);
        // A separating start, and its projection on the span, which has the same margins.
        let outside = array![0.3, -0.2, 0.5, 0.1, -0.4, 0.2, 0.3, 0.6];
        let inside = span.basis.t().dot(&signs_as_margins(&span, &signed));
        let in_and_out = &inside + &span.complement(&outside);
        let null_direction = {
            let v = span.complement(&outside);
            &v / v.dot(&v).sqrt()
        };
        let walks = 2000;
        // KS at level 10⁻³ for two samples of 2,000: 1.95 √(2 / 2000).
        let critical = 1.95 * (2.0 / walks as f64).sqrt();
        for start in [in_and_out, inside] {
            let theta = &start / (2.0 * start.dot(&start).sqrt());
            let margin = signed.dot(&theta);
            assert!(margin.iter().all(|&c| c > 0.0));
            let draw = |reduced: bool| -> Vec<Array1<f64>> {
                (0..walks)
                    .map(|seed| {
                        let mut rng = ChaCha8Rng::seed_from_u64(seed + 10_000 * u64::from(reduced));
                        if reduced {
                            walk_in_row_span(
                                &signed,
                                &span,
                                theta.clone(),
                                margin.clone(),
                                6,
                                &mut rng,
                            )
                        } else {
                            walk_in_full_space(&signed, theta.clone(), margin.clone(), 6, &mut rng)
                        }
                    })
                    .collect()
            };
            let (full, reduced) = (draw(false), draw(true));
            let statistics: [(&str, Statistic<'_>); 6] = [
                ("θ_0", Box::new(|t| t[0])),
                ("θ_3", Box::new(|t| t[3])),
                ("θ_7", Box::new(|t| t[7])),
                (
                    "along a direction outside the span",
                    Box::new(|t| t.dot(&null_direction)),
                ),
                ("‖θ‖", Box::new(|t| t.dot(t).sqrt())),
                (
                    "the length outside the span",
                    Box::new(|t| {
                        let outside = span.complement(t);
                        outside.dot(&outside).sqrt()
                    }),
                ),
            ];
            for (name, statistic) in &statistics {
                let d = ks_statistic(
                    full.iter().map(statistic).collect(),
                    reduced.iter().map(statistic).collect(),
                );
                assert!(d < critical, "{name}: KS {d} ≥ {critical}");
            }
            for theta in &reduced {
                assert!(theta.dot(theta) < 1.0);
                assert!(signed.dot(theta).iter().all(|&c| c > 0.0));
            }
        }
    }

    /// At the study's walk length (30 steps per coefficient) on indicators of every level beside
    /// an intercept — dependent columns, so always the walk in the rows' span — the two walks'
    /// mean test errors agree on four random splits of six training rows.
    /// `cargo test --release -p gendisc-data --lib two_walks_err_alike -- --ignored --nocapture`.
    #[test]
    #[ignore = "40,000 walks of each kind: about 10 s in a release build"]
    fn the_two_walks_err_alike_on_indicators_of_every_level() {
        // All 24 combinations of levels (3, 2, 2, 2), one indicator a level: 9 columns.
        let mut rows = Vec::new();
        for (a, b, c, e) in every_combination_of_levels() {
            let mut indicators = vec![0.0; 9];
            for column in [a, 3 + b, 5 + c, 7 + e] {
                indicators[column] = 1.0;
            }
            rows.push((indicators, usize::from(e == 1 && (b == 0 || a == 0))));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let walks = 40_000;
        for split in 0..4 {
            let mut order: Vec<usize> = (0..rows.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.random_range(0..=i));
            }
            let (train, test) = order.split_at(6);
            if train.iter().all(|&i| rows[i].1 == rows[train[0]].1) {
                continue;
            }
            let x = Array2::from_shape_fn((6, 9), |(i, j)| rows[train[i]].0[j]);
            let signs: Vec<f64> = train
                .iter()
                .map(|&i| if rows[i].1 == 1 { 1.0 } else { -1.0 })
                .collect();
            let signed = signed_rows(x.view(), &signs);
            let span = RowSpan::of(signed.view());
            assert!(span.rank() < 10);
            let mut start = span.basis.t().dot(&signs_as_margins(&span, &signed));
            start[9] += 0.1;
            start[2] -= 0.2;
            let theta = &start / (2.0 * start.dot(&start).sqrt());
            let margin = signed.dot(&theta);
            let test_error = |theta: &Array1<f64>| {
                let wrong = test.iter().filter(|&&i| {
                    let eta =
                        rows[i].0.iter().zip(theta).map(|(a, b)| a * b).sum::<f64>() + theta[9];
                    (eta > 0.0) != (rows[i].1 == 1)
                });
                wrong.count() as f64 / test.len() as f64
            };
            let mean_and_error = |reduced: bool| {
                let errors: Vec<f64> = (0..walks)
                    .map(|seed| {
                        let mut rng =
                            ChaCha8Rng::seed_from_u64(seed + 1_000_000 * u64::from(reduced));
                        test_error(&if reduced {
                            walk_in_row_span(
                                &signed,
                                &span,
                                theta.clone(),
                                margin.clone(),
                                300,
                                &mut rng,
                            )
                        } else {
                            walk_in_full_space(
                                &signed,
                                theta.clone(),
                                margin.clone(),
                                300,
                                &mut rng,
                            )
                        })
                    })
                    .collect();
                let mean = errors.iter().sum::<f64>() / walks as f64;
                let variance =
                    errors.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (walks - 1) as f64;
                (mean, (variance / walks as f64).sqrt())
            };
            let ((full, full_se), (reduced, reduced_se)) =
                (mean_and_error(false), mean_and_error(true));
            eprintln!("split {split}: in all of the space {full:.4} ± {full_se:.4}, in the rows' span {reduced:.4} ± {reduced_se:.4}");
            assert!((full - reduced).abs() < 4.0 * full_se.hypot(reduced_se));
        }
    }

    /// The levels (a, b, c, e) of four variables with 3, 2, 2 and 2 levels, every combination.
    fn every_combination_of_levels() -> Vec<(usize, usize, usize, usize)> {
        let mut all = Vec::new();
        for a in 0..3 {
            for b in 0..2 {
                for c in 0..2 {
                    for e in 0..2 {
                        all.push((a, b, c, e));
                    }
                }
            }
        }
        all
    }

    /// A point of the span whose margins are all positive: the minimum-norm solution of
    /// `X̃ θ = 1`.
    fn signs_as_margins(span: &RowSpan, signed: &Array2<f64>) -> Array1<f64> {
        // In the span's coordinates: (X̃ Qᵀ) c = 1, a square system here.
        let lifted = signed.dot(&span.basis.t());
        gendisc_core::linalg::solve_spd(
            lifted.t().dot(&lifted).view(),
            lifted.t().dot(&Array1::ones(signed.nrows())).view(),
        )
        .unwrap()
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
