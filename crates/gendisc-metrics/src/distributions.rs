//! The standard normal and Student-t distributions: distribution functions and quantiles.
//!
//! These are what confidence intervals over replicates need (`mean ± t_{0.975, n−1} · s/√n`),
//! computed to close to full `f64` precision and checked against R's `pnorm`, `qnorm`, `pt` and
//! `qt` (the script that produced the reference values is committed with the tests).
//!
//! # Method
//!
//! * `ln Γ` by the recurrence `Γ(x + 1) = x Γ(x)` up to `x ≥ 10`, then Stirling's series with
//!   seven Bernoulli terms (truncation error below `10⁻¹⁶`; absolute error a few `10⁻¹⁵`
//!   overall). `ln B(a, b)` combines the Stirling remainders directly when an argument is large,
//!   so that the large `ln Γ` terms never cancel.
//! * The Student-t tail is the regularized incomplete beta function,
//!   `P(T > t) = ½ I_{ν/(ν+t²)}(ν/2, ½)` for `t ≥ 0`, evaluated by the continued fraction of
//!   DLMF 8.17.22 on whichever side of the symmetry `I_x(a, b) = 1 − I_{1−x}(b, a)` converges
//!   fast, with the modified Lentz algorithm. The fraction is taken in its even contraction so
//!   that its partial denominators can be formed without cancellation: the plain fraction loses
//!   about `log₁₀ ν` digits in the body of the distribution when `ν` is large.
//! * The normal tail is `P(Z > z) = ½ Q(½, z²/2)`, the regularized upper incomplete gamma
//!   function (series below `x = 1.5`, Legendre's continued fraction above).
//! * Quantiles solve `P(T > t) = q` for the upper tail `q = min(p, 1 − p)` by Newton's method on
//!   `ln P(T > t)` (in `ln t` for the t distribution, whose power-law tails are then nearly
//!   linear), inside a bracket `(0, hi]` whose end is an analytic bound on the root
//!   (`P(Z > z) ≤ ½ e^{−z²/2}`; `P(T > t) ≤ c_ν ν^{(ν−1)/2} t^{−ν}`). A step that would leave
//!   the bracket bisects it instead, so the iteration converges for every `ν > 0`, from the
//!   Cauchy case to the far tails (`p = 10⁻³⁰⁰`), in at most about twenty steps. The t
//!   iteration starts from the Cornish–Fisher expansion in `1/ν` about the normal quantile
//!   (Abramowitz & Stegun 26.7.5), already exact to rounding for large `ν`; `ν = ∞` gives the
//!   normal quantile.

use gendisc_core::{Error, Result};

/// `½ ln(2π)`.
const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_7;
/// `ln √π = ln Γ(½)`.
const LN_SQRT_PI: f64 = 0.572_364_942_924_700_1;
/// Arguments at or above this use Stirling's series for `ln Γ` directly.
const STIRLING_THRESHOLD: f64 = 10.0;
/// Iteration cap of the continued fractions; they converge in `O(√max(a, b))` terms.
const MAX_CONTINUED_FRACTION_TERMS: usize = 100_000;
/// Iteration cap of the quantile solver (it needs at most about twenty steps).
const MAX_QUANTILE_ITERATIONS: usize = 200;
/// Stand-in for zero in the modified Lentz algorithm.
const LENTZ_TINY: f64 = 1e-300;

/// Stirling's remainder `ln Γ(x) − [(x − ½) ln x − x + ½ ln 2π]` for `x ≥ 10`, as the series
/// `Σ_k B_{2k} / (2k (2k − 1) x^{2k−1})`, k = 1..7.
fn stirling_remainder(x: f64) -> f64 {
    const C: [f64; 7] = [
        1.0 / 12.0,
        -1.0 / 360.0,
        1.0 / 1260.0,
        -1.0 / 1680.0,
        1.0 / 1188.0,
        -691.0 / 360_360.0,
        1.0 / 156.0,
    ];
    let w = 1.0 / (x * x);
    let series = C.iter().rev().fold(0.0, |acc, &c| acc * w + c);
    series / x
}

/// `ln Γ(x)` for finite `x > 0`.
fn ln_gamma(x: f64) -> f64 {
    // Shift the argument up with Γ(x + 1) = x Γ(x); the product of at most ten factors is
    // exact to a few ulps and cannot overflow.
    let mut z = x;
    let mut product = 1.0;
    while z < STIRLING_THRESHOLD {
        product *= z;
        z += 1.0;
    }
    (z - 0.5) * z.ln() - z + LN_SQRT_2PI + stirling_remainder(z) - product.ln()
}

/// `ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b)` for finite `a, b > 0`, without the
/// cancellation of the three large terms when `a` or `b` is large.
fn ln_beta(a: f64, b: f64) -> f64 {
    let (p, q) = if a <= b { (a, b) } else { (b, a) };
    let ratio = p / (p + q);
    if p >= STIRLING_THRESHOLD {
        // Stirling for all three terms; the (x − ½) ln x − x parts combine exactly.
        let remainder = stirling_remainder(p) + stirling_remainder(q) - stirling_remainder(p + q);
        LN_SQRT_2PI - 0.5 * q.ln() + (p - 0.5) * ratio.ln() + q * (-ratio).ln_1p() + remainder
    } else if q >= STIRLING_THRESHOLD {
        // Stirling for ln Γ(q) − ln Γ(p + q) only.
        let remainder = stirling_remainder(q) - stirling_remainder(p + q);
        ln_gamma(p) + remainder + p - p * (p + q).ln() + (q - 0.5) * (-ratio).ln_1p()
    } else {
        ln_gamma(p) + ln_gamma(q) - ln_gamma(p + q)
    }
}

/// Evaluates the continued fraction `b₀ + a₁/(b₁ + a₂/(b₂ + …))` by the modified Lentz
/// algorithm, the terms `(a_j, b_j)` given for `j = 1, 2, …`.
fn lentz(b0: f64, mut term: impl FnMut(usize) -> (f64, f64), what: &str) -> Result<f64> {
    let guard = |v: f64| if v.abs() < LENTZ_TINY { LENTZ_TINY } else { v };
    let mut f = guard(b0);
    let mut c = f;
    let mut d = 0.0;
    for j in 1..=MAX_CONTINUED_FRACTION_TERMS {
        let (a_j, b_j) = term(j);
        d = 1.0 / guard(b_j + a_j * d);
        c = guard(b_j + a_j / c);
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() <= f64::EPSILON {
            return Ok(f);
        }
    }
    Err(Error::NotConverged {
        what: what.into(),
        iterations: MAX_CONTINUED_FRACTION_TERMS,
        detail: format!("continued fraction value {f}"),
    })
}

/// A point `x` of the unit interval held together with `y = 1 − x` and both logarithms, each
/// computed by the caller without cancellation or underflow (`x` itself may underflow to 0 in
/// the far tail of a t distribution while `ln x` stays exact).
#[derive(Debug, Clone, Copy)]
struct UnitPoint {
    x: f64,
    y: f64,
    ln_x: f64,
    ln_y: f64,
}

impl UnitPoint {
    /// The point `1 − x`.
    fn complement(self) -> Self {
        Self {
            x: self.y,
            y: self.x,
            ln_x: self.ln_y,
            ln_y: self.ln_x,
        }
    }
}

/// The regularized incomplete beta function `I_x(a, b)` for `a, b > 0`.
fn regularized_beta(a: f64, b: f64, point: UnitPoint) -> Result<f64> {
    if point.ln_x == f64::NEG_INFINITY {
        return Ok(0.0);
    }
    if point.ln_y == f64::NEG_INFINITY {
        return Ok(1.0);
    }
    // The continued fraction for I_x(a, b) converges quickly for x < (a + 1)/(a + b + 2);
    // beyond, use I_x(a, b) = 1 − I_{1−x}(b, a).
    if point.x * (a + b + 2.0) < a + 1.0 {
        incomplete_beta_continued_fraction(a, b, point)
    } else {
        Ok(1.0 - incomplete_beta_continued_fraction(b, a, point.complement())?)
    }
}

/// `I_x(a, b) = x^a y^b / (a B(a, b)) / F` with the continued fraction of DLMF 8.17.22,
/// `F = 1 + d₁/(1 + d₂/(1 + …))`,
/// `d_{2m} = m(b − m)x / ((a + 2m − 1)(a + 2m))`,
/// `d_{2m+1} = −(a + m)(a + b + m)x / ((a + 2m)(a + 2m + 1))`,
/// evaluated in its even contraction
/// `F = 1 + d₁ − d₁d₂/(1 + d₂ + d₃ − d₃d₄/(1 + d₄ + d₅ − …))`.
///
/// For large `a` and `x` near 1 (the body of a t distribution with many degrees of freedom)
/// each `1 + d_{2m+1}` is a small difference of numbers near 1, and the plain fraction loses
/// about `log₁₀ a` digits. The contraction lets [`one_plus_odd_term`] form those sums without
/// cancellation, which keeps the result within a few ulps for any `a` when `b ≤ 1`.
fn incomplete_beta_continued_fraction(a: f64, b: f64, point: UnitPoint) -> Result<f64> {
    let UnitPoint { x, y, ln_x, ln_y } = point;
    let log_prefactor = a * ln_x + b * ln_y - a.ln() - ln_beta(a, b);
    let even_term = |m: f64| m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
    let odd_term = |m: f64| -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
    let fraction = lentz(
        one_plus_odd_term(a, b, x, y, 0.0),
        |j| {
            let m = j as f64;
            let numerator = -odd_term(m - 1.0) * even_term(m);
            let denominator = even_term(m) + one_plus_odd_term(a, b, x, y, m);
            (numerator, denominator)
        },
        "regularized incomplete beta function",
    )?;
    Ok(log_prefactor.exp() / fraction)
}

/// `1 + d_{2m+1} = N_m / ((a + 2m)(a + 2m + 1))` with
/// `N_m = (a + 2m)(a + 2m + 1) y + x [a(2m + 1 − b) + m(3m + 2 − b)]`, which follows from
/// `1 = x + y`; both terms of `N_m` are non-negative when `b ≤ 1`.
fn one_plus_odd_term(a: f64, b: f64, x: f64, y: f64, m: f64) -> f64 {
    let denominator = (a + 2.0 * m) * (a + 2.0 * m + 1.0);
    (denominator * y + x * (a * (2.0 * m + 1.0 - b) + m * (3.0 * m + 2.0 - b))) / denominator
}

/// The regularized upper incomplete gamma function `Q(½, x)` for `x ≥ 0`, so that
/// `P(Z > z) = ½ Q(½, z²/2)`.
fn upper_incomplete_gamma_half(x: f64) -> Result<f64> {
    const A: f64 = 0.5;
    if x <= 0.0 {
        return Ok(1.0);
    }
    if x.is_infinite() {
        return Ok(0.0);
    }
    let log_prefactor = A * x.ln() - x;
    if x < A + 1.0 {
        // Q = 1 − P, P = x^a e^{−x} / Γ(a + 1) · Σ_n x^n / ((a + 1)…(a + n)); Q ≥ 0.08 here, so
        // the subtraction loses at most one digit.
        let mut term = 1.0;
        let mut sum = 1.0;
        let mut n = 0.0;
        while term > sum * f64::EPSILON {
            n += 1.0;
            term *= x / (A + n);
            sum += term;
        }
        // ln Γ(3/2) = ln(√π / 2).
        let lower = (log_prefactor - (LN_SQRT_PI - std::f64::consts::LN_2)).exp() * sum;
        Ok(1.0 - lower)
    } else {
        // Legendre's continued fraction,
        // Q = x^a e^{−x} / Γ(a) / (x + 1 − a − 1(1 − a)/(x + 3 − a − 2(2 − a)/(x + 5 − a − …))).
        let fraction = lentz(
            x + 1.0 - A,
            |n| {
                let n = n as f64;
                (-n * (n - A), x + 2.0 * n + 1.0 - A)
            },
            "regularized incomplete gamma function",
        )?;
        Ok((log_prefactor - LN_SQRT_PI).exp() / fraction)
    }
}

/// `P(Z > z)` for `z ≥ 0`.
fn normal_upper_tail(z: f64) -> Result<f64> {
    Ok(0.5 * upper_incomplete_gamma_half(0.5 * z * z)?)
}

/// `ln` of the standard normal density.
fn normal_ln_density(z: f64) -> f64 {
    -0.5 * z * z - LN_SQRT_2PI
}

/// `P(T > t)` for `t ≥ 0` and finite `ν > 0`.
fn student_t_upper_tail(t: f64, df: f64) -> Result<f64> {
    if t.is_infinite() {
        return Ok(0.0);
    }
    // The tail is ½ I_x(ν/2, ½) at x = ν/(ν + t²). Form x, y = t²/(ν + t²) and their logs from
    // whichever of t²/ν and ν/t² is at most one, so nothing overflows or cancels.
    let point = if t <= df.sqrt() {
        let r = t * t / df;
        let ln_1p_r = r.ln_1p();
        UnitPoint {
            x: 1.0 / (1.0 + r),
            y: r / (1.0 + r),
            ln_x: -ln_1p_r,
            ln_y: r.ln() - ln_1p_r,
        }
    } else {
        let s = df / t / t;
        let ln_1p_s = s.ln_1p();
        // ln x = −ln(1 + t²/ν) has an absolute error of an ulp while t²/ν is finite, where
        // ln ν − 2 ln t − ln(1 + s) would carry the rounding of the larger ln t; a·ln x
        // multiplies that error by a = ν/2.
        let r = t * t / df;
        let ln_x = if r.is_finite() {
            -r.ln_1p()
        } else {
            df.ln() - 2.0 * t.ln() - ln_1p_s
        };
        UnitPoint {
            x: s / (1.0 + s),
            y: 1.0 / (1.0 + s),
            ln_x,
            ln_y: -ln_1p_s,
        }
    };
    Ok(0.5 * regularized_beta(0.5 * df, 0.5, point)?)
}

/// `ln` of the Student-t density `c_ν (1 + t²/ν)^{−(ν+1)/2}`, `c_ν = 1/(√ν B(ν/2, ½))`.
fn student_t_ln_density(t: f64, df: f64) -> f64 {
    let t = t.abs();
    let sqrt_df = df.sqrt();
    // ln(1 + t²/ν) = 2 ln(t/√ν) to double precision once t/√ν > 10⁸, where t² may overflow.
    let ln_1p_r2 = if t > 1e8 * sqrt_df {
        2.0 * (t.ln() - sqrt_df.ln())
    } else {
        (t * t / df).ln_1p()
    };
    student_t_ln_normaliser(df) - 0.5 * (df + 1.0) * ln_1p_r2
}

/// `ln c_ν = −½ ln ν − ln B(ν/2, ½)`.
fn student_t_ln_normaliser(df: f64) -> f64 {
    -0.5 * df.ln() - ln_beta(0.5 * df, 0.5)
}

fn check_probability(p: f64) -> Result<()> {
    if (0.0..=1.0).contains(&p) {
        Ok(())
    } else {
        Err(Error::invalid_parameter(
            "p",
            format!("a probability in [0, 1] is required, found {p}"),
        ))
    }
}

fn check_degrees_of_freedom(df: f64) -> Result<()> {
    if df > 0.0 {
        Ok(())
    } else {
        Err(Error::invalid_parameter(
            "df",
            format!("degrees of freedom must be positive (or +∞), found {df}"),
        ))
    }
}

/// The variable in which the quantile solver takes Newton steps.
#[derive(Debug, Clone, Copy)]
enum NewtonScale {
    /// Steps in `t`: right for light, normal-like tails.
    Linear,
    /// Steps in `ln t`: the log tail of a power law is linear in `ln t`, so heavy tails
    /// (`ln P(T > t) ≈ −ν ln t`) are solved in a step or two from any start.
    Logarithmic,
}

/// Solves `upper_tail(t) = q` for `t ∈ (0, hi]`, given `0 < q < ½`, a finite upper bound `hi`
/// on the root, a start in `(0, hi]` and the log-density (minus the derivative of the tail).
///
/// Newton's method on `ln upper_tail(t) − ln q` in `t` or `ln t` (see [`NewtonScale`]), with
/// the step formed in log space so that neither the tail nor the density needs to be
/// representable on its own. Every evaluation narrows the bracket `[lo, hi]`, and a step that
/// would leave it is replaced by bisection (geometric while the bracket spans more than a
/// factor four).
fn invert_upper_tail(
    q: f64,
    start: f64,
    hi: f64,
    scale: NewtonScale,
    upper_tail: impl Fn(f64) -> Result<f64>,
    ln_density: impl Fn(f64) -> f64,
    what: &str,
) -> Result<f64> {
    let ln_q = q.ln();
    let (mut lo, mut hi) = (0.0_f64, hi);
    let mut t = start;
    for _ in 0..MAX_QUANTILE_ITERATIONS {
        let tail = upper_tail(t)?;
        if tail == q {
            return Ok(t);
        }
        if tail > q {
            lo = t;
        } else {
            hi = t;
        }
        let ln_tail = tail.ln();
        let newton = match scale {
            NewtonScale::Linear => t + (ln_tail - ln_q) * (ln_tail - ln_density(t)).exp(),
            NewtonScale::Logarithmic => {
                t * ((ln_tail - ln_q) * (ln_tail - t.ln() - ln_density(t)).exp()).exp()
            }
        };
        if (newton - t).abs() <= 4.0 * f64::EPSILON * t {
            return Ok(newton);
        }
        let next = if newton > lo && newton < hi {
            newton
        } else if lo > 0.0 && hi > 4.0 * lo {
            // The geometric mean, without overflowing lo·hi.
            lo.sqrt() * hi.sqrt()
        } else {
            lo + 0.5 * (hi - lo)
        };
        if hi - lo <= 4.0 * f64::EPSILON * hi {
            return Ok(next);
        }
        t = next;
    }
    Err(Error::NotConverged {
        what: what.into(),
        iterations: MAX_QUANTILE_ITERATIONS,
        detail: format!("last iterate {t} in bracket [{lo}, {hi}]"),
    })
}

/// A quantile problem reduced to the upper tail: `p` is either trivial or becomes the
/// upper-tail mass `q = min(p, 1 − p) ∈ (0, ½)` and the sign of the quantile.
enum TailProblem {
    /// `p ∈ {0, ½, 1}`: the quantile of every symmetric distribution on ℝ is `−∞`, 0 or `+∞`.
    Trivial(f64),
    /// Solve `P(X > x) = q` for `x > 0`, then multiply by `sign`.
    Upper { q: f64, sign: f64 },
}

impl TailProblem {
    fn new(p: f64) -> Self {
        if p == 0.0 {
            TailProblem::Trivial(f64::NEG_INFINITY)
        } else if p == 1.0 {
            TailProblem::Trivial(f64::INFINITY)
        } else if p == 0.5 {
            TailProblem::Trivial(0.0)
        } else if p > 0.5 {
            // 1 − p is exact for p ≥ ½ (Sterbenz).
            TailProblem::Upper {
                q: 1.0 - p,
                sign: 1.0,
            }
        } else {
            TailProblem::Upper { q: p, sign: -1.0 }
        }
    }
}

/// The `z > 0` with `P(Z > z) = q`, for `0 < q < ½`.
fn normal_upper_quantile(q: f64) -> Result<f64> {
    // P(Z > z) ≤ ½ exp(−z²/2) bounds the root by √(−2 ln 2q).
    let hi = (-2.0 * (2.0 * q).ln()).sqrt();
    // Start from Abramowitz & Stegun 26.2.23 (absolute error below 4.5·10⁻⁴).
    let w = (-2.0 * q.ln()).sqrt();
    let start = w
        - (2.515_517 + 0.802_853 * w + 0.010_328 * w * w)
            / (1.0 + 1.432_788 * w + 0.189_269 * w * w + 0.001_308 * w * w * w);
    invert_upper_tail(
        q,
        start.clamp(f64::MIN_POSITIVE, hi),
        hi,
        NewtonScale::Linear,
        normal_upper_tail,
        normal_ln_density,
        "standard normal quantile",
    )
}

/// The standard normal distribution function `Φ(z) = P(Z ≤ z)`.
///
/// `z = ±∞` is accepted; NaN is an [`Error::InvalidParameter`]. Lower-tail values are accurate
/// to a few ulps relative, so `Φ(−37)` ≈ 5.7·10⁻³⁰⁰ is meaningful.
///
/// ```
/// use gendisc_metrics::distributions::standard_normal_cdf;
/// assert!((standard_normal_cdf(1.959963984540054).unwrap() - 0.975).abs() < 1e-15);
/// ```
pub fn standard_normal_cdf(z: f64) -> Result<f64> {
    if z.is_nan() {
        return Err(Error::invalid_parameter("z", "z is NaN"));
    }
    let tail = normal_upper_tail(z.abs())?;
    Ok(if z >= 0.0 { 1.0 - tail } else { tail })
}

/// The standard normal quantile `Φ⁻¹(p)`, with `Φ⁻¹(0) = −∞` and `Φ⁻¹(1) = +∞` (as R's
/// `qnorm`).
///
/// Fails with [`Error::InvalidParameter`] unless `p ∈ [0, 1]`.
///
/// ```
/// use gendisc_metrics::distributions::standard_normal_quantile;
/// assert!((standard_normal_quantile(0.975).unwrap() - 1.959963984540054).abs() < 1e-14);
/// ```
pub fn standard_normal_quantile(p: f64) -> Result<f64> {
    check_probability(p)?;
    match TailProblem::new(p) {
        TailProblem::Trivial(quantile) => Ok(quantile),
        TailProblem::Upper { q, sign } => Ok(sign * normal_upper_quantile(q)?),
    }
}

/// The Student-t distribution function `P(T ≤ t)` with `df` degrees of freedom.
///
/// `df` may be any positive real or `+∞` (the standard normal); `t = ±∞` is accepted. Fails
/// with [`Error::InvalidParameter`] for a NaN `t` or a non-positive or NaN `df`.
///
/// ```
/// use gendisc_metrics::distributions::student_t_cdf;
/// // One degree of freedom is the Cauchy distribution: P(T ≤ 1) = ¾.
/// assert!((student_t_cdf(1.0, 1.0).unwrap() - 0.75).abs() < 1e-14);
/// ```
pub fn student_t_cdf(t: f64, df: f64) -> Result<f64> {
    check_degrees_of_freedom(df)?;
    if t.is_nan() {
        return Err(Error::invalid_parameter("t", "t is NaN"));
    }
    if df.is_infinite() {
        return standard_normal_cdf(t);
    }
    let tail = student_t_upper_tail(t.abs(), df)?;
    Ok(if t >= 0.0 { 1.0 - tail } else { tail })
}

/// The Student-t quantile `t_{p, ν}`: the `t` with `P(T ≤ t) = p` for `ν = df` degrees of
/// freedom, e.g. `t_{0.975, 9} = 2.262157…`, the factor of a 95% interval from ten replicates.
///
/// `df` may be any positive real or `+∞` (giving [`standard_normal_quantile`]); `p = 0` and
/// `p = 1` give `∓∞` (as R's `qt`), and so does a quantile beyond the `f64` range (only
/// possible for `ν < 1` in the far tails). Fails with [`Error::InvalidParameter`] for
/// `p ∉ [0, 1]` or `df ≤ 0` (or NaN).
///
/// See the [module documentation](self) for the method. Results agree with R's `qt` and with
/// 50-digit references to `10⁻¹³` relative; for `ν < 1` the quantile itself is
/// ill-conditioned (a relative error in the tail mass is amplified about `1/ν` times), and the
/// agreement is a few `10⁻¹⁴` at `ν = 0.1`.
///
/// ```
/// use gendisc_metrics::distributions::student_t_quantile;
/// assert!((student_t_quantile(0.975, 9.0).unwrap() - 2.262157).abs() < 1e-6);
/// assert!((student_t_quantile(0.975, 1.0).unwrap() - 12.706205).abs() < 1e-6);
/// assert!((student_t_quantile(0.975, f64::INFINITY).unwrap() - 1.959964).abs() < 1e-6);
/// ```
pub fn student_t_quantile(p: f64, df: f64) -> Result<f64> {
    check_probability(p)?;
    check_degrees_of_freedom(df)?;
    if df.is_infinite() {
        return standard_normal_quantile(p);
    }
    let (q, sign) = match TailProblem::new(p) {
        TailProblem::Trivial(quantile) => return Ok(quantile),
        TailProblem::Upper { q, sign } => (q, sign),
    };
    // (1 + t²/ν)^{−(ν+1)/2} ≤ (t²/ν)^{−(ν+1)/2} bounds the tail by c_ν ν^{(ν−1)/2} t^{−ν},
    // hence the root by the t where that bound equals q (exact for the Cauchy far tail).
    let ln_hi = (student_t_ln_normaliser(df) + 0.5 * (df - 1.0) * df.ln() - q.ln()) / df;
    let hi = (ln_hi + 1e-12).exp();
    if hi > f64::MAX {
        if student_t_upper_tail(f64::MAX, df)? > q {
            return Ok(sign * f64::INFINITY);
        }
        return invert_t(q, sign, df, f64::MAX);
    }
    invert_t(q, sign, df, hi)
}

/// The t quantile for upper-tail mass `q`, given an upper bound `hi` on it.
fn invert_t(q: f64, sign: f64, df: f64, hi: f64) -> Result<f64> {
    // The Cornish–Fisher expansion is exact to rounding for large ν, and a poor but positive
    // start for small ν, whose power-law tails the logarithmic Newton steps solve quickly.
    let z = normal_upper_quantile(q)?;
    let start = cornish_fisher_t(z, df.max(1.0)).clamp(f64::MIN_POSITIVE, hi);
    let t = invert_upper_tail(
        q,
        start,
        hi,
        NewtonScale::Logarithmic,
        |t| student_t_upper_tail(t, df),
        |t| student_t_ln_density(t, df),
        "Student-t quantile",
    )?;
    Ok(sign * t)
}

/// Cornish–Fisher expansion of the t quantile about the normal quantile `z` in powers of
/// `1/ν` (Abramowitz & Stegun 26.7.5).
fn cornish_fisher_t(z: f64, df: f64) -> f64 {
    let z2 = z * z;
    let g1 = z * (z2 + 1.0) / 4.0;
    let g2 = z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0;
    let g3 = z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0;
    let g4 = z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92_160.0;
    z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use proptest::prelude::*;
    use std::f64::consts::PI;

    #[test]
    fn ln_gamma_matches_factorials_and_half_integers() {
        // Γ(n) = (n − 1)!, Γ(½) = √π, Γ(n + ½) = (2n)! √π / (4ⁿ n!).
        let mut factorial = 1.0_f64;
        for n in 1..=30 {
            assert_relative_eq!(
                ln_gamma(n as f64),
                factorial.ln(),
                max_relative = 1e-14,
                epsilon = 1e-14
            );
            factorial *= n as f64;
        }
        assert_relative_eq!(ln_gamma(0.5), PI.sqrt().ln(), epsilon = 1e-14);
        // Γ(n + ½) = √π ∏_{k=1}^{n} (k − ½).
        let half_integer = (1..=12).fold(PI.sqrt(), |acc, k| acc * (k as f64 - 0.5));
        assert_relative_eq!(ln_gamma(12.5), half_integer.ln(), max_relative = 1e-14);
        assert_relative_eq!(
            ln_gamma(1e-10),
            (1e10_f64).ln() - 0.577_215_664_901_532_9e-10
        );
    }

    #[test]
    fn ln_beta_is_symmetric_and_matches_gammas() {
        for &(a, b) in &[
            (0.5, 0.5),
            (2.0, 3.0),
            (0.5, 50.0),
            (12.0, 40.0),
            (5e4, 0.5),
        ] {
            assert_relative_eq!(ln_beta(a, b), ln_beta(b, a));
            let direct = ln_gamma(a) + ln_gamma(b) - ln_gamma(a + b);
            assert_relative_eq!(ln_beta(a, b), direct, max_relative = 1e-9, epsilon = 1e-10);
        }
        // B(1, b) = 1/b and B(½, ½) = π.
        assert_relative_eq!(ln_beta(1.0, 7.0), -(7.0_f64.ln()), epsilon = 1e-14);
        assert_relative_eq!(ln_beta(1.0, 70.0), -(70.0_f64.ln()), epsilon = 1e-14);
        assert_relative_eq!(ln_beta(0.5, 0.5), PI.ln(), epsilon = 1e-14);
    }

    #[test]
    fn closed_forms_for_one_two_and_four_degrees_of_freedom() {
        for &p in &[
            1e-9,
            0.001,
            0.025,
            0.3,
            0.5,
            0.7,
            0.9,
            0.975,
            0.999,
            1.0 - 1e-9,
        ] {
            // ν = 1 (Cauchy): t = −cot(πp), written with the smaller tail for accuracy.
            let q = if p > 0.5 { 1.0 - p } else { p };
            let sign = if p >= 0.5 { 1.0 } else { -1.0 };
            let cauchy = sign / (PI * q).tan();
            let cauchy = if p == 0.5 { 0.0 } else { cauchy };
            assert_relative_eq!(
                student_t_quantile(p, 1.0).unwrap(),
                cauchy,
                max_relative = 1e-13,
                epsilon = 1e-15
            );
            // ν = 2: t = (2p − 1) / √(2p(1 − p)).
            let two = (2.0 * p - 1.0) / (2.0 * p * (1.0 - p)).sqrt();
            assert_relative_eq!(
                student_t_quantile(p, 2.0).unwrap(),
                two,
                max_relative = 1e-12,
                epsilon = 1e-15
            );
            // ν = 4: t = sign · 2 √(cos(θ/3)/√α − 1), α = 4p(1 − p), θ = arccos √α.
            let alpha = 4.0 * p * (1.0 - p);
            let theta = alpha.sqrt().acos();
            let four = sign * 2.0 * ((theta / 3.0).cos() / alpha.sqrt() - 1.0).sqrt();
            assert_relative_eq!(
                student_t_quantile(p, 4.0).unwrap(),
                four,
                max_relative = 1e-10,
                epsilon = 1e-12
            );
        }
    }

    #[test]
    fn table_values() {
        let cases = [
            (0.975, 9.0, 2.262_157),
            (0.975, 1.0, 12.706_205),
            (0.975, 29.0, 2.045_230),
            (0.95, 5.0, 2.015_048),
            (0.995, 10.0, 3.169_273),
            (0.975, f64::INFINITY, 1.959_964),
        ];
        for (p, df, expected) in cases {
            let t = student_t_quantile(p, df).unwrap();
            assert!(
                (t - expected).abs() < 1e-6,
                "t_({p}, {df}) = {t}, table {expected}"
            );
        }
        // The large-ν limit approaches the normal quantile from above.
        let mut previous = f64::INFINITY;
        for df in [1e3, 1e5, 1e7, 1e9] {
            let t = student_t_quantile(0.975, df).unwrap();
            assert!(t < previous && t > 1.959_963_984_540_054);
            previous = t;
        }
        assert!((previous - 1.959_963_984_540_054).abs() < 1e-8);
    }

    #[test]
    fn exact_inversion_agrees_with_cornish_fisher_for_large_df() {
        // The expansion's neglected terms are O(z¹¹/ν⁵): negligible here, so the two independent
        // computations must agree to rounding.
        for df in [2e4, 1e6, 1e9] {
            for &p in &[1e-12, 0.01, 0.2, 0.975, 1.0 - 1e-6] {
                let z = standard_normal_quantile(p).unwrap();
                assert_relative_eq!(
                    student_t_quantile(p, df).unwrap(),
                    cornish_fisher_t(z, df),
                    max_relative = 1e-13
                );
            }
        }
    }

    #[test]
    fn edges_and_bad_parameters() {
        assert_eq!(student_t_quantile(0.0, 3.0).unwrap(), f64::NEG_INFINITY);
        assert_eq!(student_t_quantile(1.0, 3.0).unwrap(), f64::INFINITY);
        assert_eq!(student_t_quantile(0.5, 3.0).unwrap(), 0.0);
        assert_eq!(standard_normal_quantile(0.5).unwrap(), 0.0);
        assert_eq!(student_t_cdf(f64::INFINITY, 2.0).unwrap(), 1.0);
        assert_eq!(student_t_cdf(f64::NEG_INFINITY, 2.0).unwrap(), 0.0);
        assert_eq!(student_t_cdf(0.0, 2.0).unwrap(), 0.5);
        assert_eq!(standard_normal_cdf(f64::NEG_INFINITY).unwrap(), 0.0);
        for bad in [-0.1, 1.1, f64::NAN] {
            assert!(matches!(
                student_t_quantile(bad, 3.0),
                Err(Error::InvalidParameter { name: "p", .. })
            ));
            assert!(standard_normal_quantile(bad).is_err());
        }
        for bad in [0.0, -1.0, f64::NAN, f64::NEG_INFINITY] {
            assert!(matches!(
                student_t_quantile(0.9, bad),
                Err(Error::InvalidParameter { name: "df", .. })
            ));
            assert!(student_t_cdf(1.0, bad).is_err());
        }
        assert!(student_t_cdf(f64::NAN, 3.0).is_err());
        // Far tails: P(T > 10³⁰⁰) = atan(10⁻³⁰⁰)/π for the Cauchy distribution, and a quantile
        // beyond the f64 range (about 10⁶⁰⁰ for ν = ½) is −∞ as in R.
        assert_relative_eq!(
            student_t_cdf(-1e300, 1.0).unwrap(),
            1e-300 / PI,
            max_relative = 1e-14
        );
        assert_eq!(student_t_quantile(1e-300, 0.5).unwrap(), f64::NEG_INFINITY);
        assert_eq!(
            student_t_quantile(1.0 - 1e-16, 0.01).unwrap(),
            f64::INFINITY
        );
        assert!(standard_normal_cdf(f64::NAN).is_err());
    }

    #[test]
    fn far_tail_quantiles_near_the_top_of_the_f64_range() {
        // Roots within a few ulps of the analytic bound, and one near f64::MAX, where a
        // midpoint or a geometric mean computed naively overflows.
        for (q, df) in [
            (1.512_302_382_523_950_6e-267, 1.151_376_874_374_851_6),
            (3.076_618_026_402_096e-263, 0.850_4),
        ] {
            let t = student_t_quantile(q, df).unwrap();
            assert!(t.is_finite() && t < 0.0, "t = {t}");
            assert_relative_eq!(student_t_cdf(t, df).unwrap(), q, max_relative = 1e-12);
        }
    }

    #[test]
    fn fractional_degrees_of_freedom_round_trip() {
        for &df in &[0.1, 0.5, 2.5, 7.3] {
            for &p in &[1e-6, 0.05, 0.6, 0.99] {
                let t = student_t_quantile(p, df).unwrap();
                assert_relative_eq!(student_t_cdf(t, df).unwrap(), p, max_relative = 1e-12);
            }
        }
    }

    /// The relative accuracy to expect of a tail mass `q` recomputed at its quantile `t`:
    /// `t f(t) / P(T > t)` amplifies the rounding of `t`, and a tiny tail is `exp` of a large
    /// logarithm whose own rounding is relative to `|ln q|`.
    fn tail_tolerance(t: f64, ln_density: f64, tail: f64) -> f64 {
        let condition = (t.abs().ln() + ln_density - tail.ln()).exp().max(1.0);
        condition * (1e-13 + 1e-15 * tail.ln().abs())
    }

    proptest! {
        #[test]
        fn t_quantile_inverts_the_cdf(
            log10_q in -300.0f64..-0.302,
            upper in any::<bool>(),
            log10_df in -0.5f64..9.0,
        ) {
            let (q, df) = (10f64.powf(log10_q), 10f64.powf(log10_df));
            // 1 − q is only distinct from 1 for q > 10⁻¹⁶; q is then recomputed from p.
            let upper = upper && q > 1e-15;
            let p = if upper { 1.0 - q } else { q };
            let q = if upper { 1.0 - p } else { p };
            let t = student_t_quantile(p, df).unwrap();
            prop_assert_eq!(t > 0.0, upper);
            if t.is_infinite() {
                // Only when the quantile lies beyond the largest f64.
                prop_assert!(student_t_upper_tail(f64::MAX, df).unwrap() > q);
            } else {
                let tail = student_t_cdf(-t.abs(), df).unwrap();
                let tolerance = tail_tolerance(t, student_t_ln_density(t, df), tail);
                prop_assert!((tail - q).abs() <= tolerance * q,
                    "p = {p}, df = {df}, t = {t}, tail = {tail}, q = {q}");
            }
        }

        #[test]
        fn t_quantile_is_antisymmetric_and_beyond_normal(p in 0.5f64..1.0, df in 0.5f64..1e6) {
            let t = student_t_quantile(p, df).unwrap();
            prop_assert_eq!(student_t_quantile(1.0 - p, df).unwrap(), -t);
            prop_assert!(t >= standard_normal_quantile(p).unwrap());
        }

        #[test]
        fn normal_quantile_inverts_the_cdf(log10_q in -307.0f64..-0.302, upper in any::<bool>()) {
            let q = 10f64.powf(log10_q);
            let upper = upper && q > 1e-15;
            let p = if upper { 1.0 - q } else { q };
            let q = if upper { 1.0 - p } else { p };
            let z = standard_normal_quantile(p).unwrap();
            let tail = standard_normal_cdf(-z.abs()).unwrap();
            let tolerance = tail_tolerance(z, normal_ln_density(z), tail);
            prop_assert!((tail - q).abs() <= tolerance * q, "p = {p}, z = {z}, tail = {tail}");
        }
    }
}
