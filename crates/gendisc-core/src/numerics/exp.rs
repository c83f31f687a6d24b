//! The exponential of a whole slice, four or eight entries at a time where the processor allows,
//! with the same bits on every processor.
//!
//! The standard library's `f64::exp` calls the platform's `libm` once per value, which no
//! compiler vectorises. [`exp_in_place`] computes the textbook way instead — Cody & Waite's
//! reduction `x = k ln 2 + r`, `|r| ≤ ln 2 / 2`, with `ln 2` split in two so that `k ln 2` is
//! exact, then the Taylor polynomial of `e^r` to degree 13 (truncation below `2⁻⁵⁷`, a fiftieth
//! of a unit in the last place), scaled by `2^k` through the exponent bits — with nothing but
//! additions, multiplications, comparisons and integer adds and shifts, which compile to vector
//! instructions. Rust never fuses a multiplication and an addition or reorders floating-point
//! arithmetic, so the code the compiler vectorises for AVX2 or AVX-512 gives exactly the bits of
//! the baseline code, on every processor: [`exp_in_place`] picks the widest build at run time
//! that the processor has.
//!
//! Its results are within one unit in the last place of `f64::exp`'s over the whole range of
//! normal results (the tests check a grid of two million points and the reduction's boundaries),
//! but not always *equal* to them: results computed with `f64::exp` change in their last bits
//! where a caller switches.

use multiversion::multiversion;

/// `ln 2` to 32 significant bits (fdlibm's `ln2_hi`, `6.93147180369123816490e-1`):
/// `k · LN2_HI` is exact for `|k| < 2²¹`.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
/// `ln 2 − LN2_HI` rounded (fdlibm's `ln2_lo`, `1.90821492927058770002e-10`).
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
/// `1.5 · 2⁵²`: adding it rounds a float of magnitude below `2⁵¹` to an integer (to even), and
/// that integer sits in the low bits of the sum's representation.
const SHIFTER: f64 = 6_755_399_441_055_744.0;
/// Inputs are clamped to `[−746, 710]`, beyond which `e^x` rounds to 0 or overflows to `+∞`
/// anyway; the scaling by `2^k` in two halves then reaches both ends without leaving the
/// exponent field.
const LOWEST: f64 = -746.0;
const HIGHEST: f64 = 710.0;

/// Replaces every entry `x` of `values` by `e^x`.
///
/// Within one unit in the last place of `f64::exp` for results of normal size; `+∞` above
/// `709.78…`, 0 below `−745.13…`, `e^{−∞} = 0`, `e^{+∞} = +∞` and NaN for NaN, as `f64::exp`.
/// Computed by Cody and Waite's reduction `x = k ln 2 + r`, the Taylor
/// polynomial of `e^r` to degree 13 and `2^k` built in the exponent bits, without branches, so
/// that the loop vectorises: four values at a time on x86-64 processors with AVX2, eight with
/// AVX-512F (detected at run time), with the same bits as the baseline build on every
/// processor, since Rust neither fuses nor reorders floating-point operations.
///
/// ```
/// use gendisc_core::numerics::exp_in_place;
/// let mut v = [0.0, 1.0, -1.0, -800.0, f64::NEG_INFINITY, 800.0];
/// exp_in_place(&mut v);
/// assert_eq!(v[0], 1.0);
/// assert!((v[1] - std::f64::consts::E).abs() <= f64::EPSILON * std::f64::consts::E);
/// assert!((v[2] - 1.0 / std::f64::consts::E).abs() <= f64::EPSILON);
/// assert_eq!(&v[3..], &[0.0, 0.0, f64::INFINITY]);
/// ```
#[multiversion(targets("x86_64+avx512f", "x86_64+avx2"))]
pub fn exp_in_place(values: &mut [f64]) {
    portable_exp_in_place(values);
}

/// [`exp_in_place`] as the baseline instruction set compiles it.
#[inline(always)]
fn portable_exp_in_place(values: &mut [f64]) {
    for v in values {
        *v = exp(*v);
    }
}

/// `e^x` by reduction, polynomial and scaling (see the module's comment); written without
/// branches so that a loop over it vectorises.
#[inline(always)]
fn exp(x: f64) -> f64 {
    // `clamp` passes a NaN through to the result (`max` and `min` would not).
    let x = x.clamp(LOWEST, HIGHEST);
    let shifted = x * std::f64::consts::LOG2_E + SHIFTER;
    let k = shifted - SHIFTER;
    let r = (x - k * LN2_HI) - k * LN2_LO;
    let mut p = 1.0 / 6_227_020_800.0;
    for c in [
        1.0 / 479_001_600.0,
        1.0 / 39_916_800.0,
        1.0 / 3_628_800.0,
        1.0 / 362_880.0,
        1.0 / 40_320.0,
        1.0 / 5_040.0,
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        0.5,
        1.0,
        1.0,
    ] {
        p = p * r + c;
    }
    // k = k₁ + k₂ with both halves within the exponent range of normal numbers: the product
    // rounds once to a subnormal, zero or infinity only where e^x itself does.
    let half = (k * 0.5 + SHIFTER) - SHIFTER;
    p * power_of_two(half) * power_of_two(k - half)
}

/// `2^j` for an integer `j ∈ [−1022, 1023]` held as a float: its bits built directly, as an
/// integer addition and shift the compiler vectorises.
#[inline(always)]
fn power_of_two(j: f64) -> f64 {
    let j = (j + SHIFTER).to_bits().wrapping_sub(SHIFTER.to_bits());
    f64::from_bits(j.wrapping_add(1023) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Units in the last place between `got` and `want`, for finite positive values.
    fn ulps(got: f64, want: f64) -> u64 {
        got.to_bits().abs_diff(want.to_bits())
    }

    #[test]
    fn within_one_ulp_of_libm_across_the_normal_range() {
        // A dense grid of the whole range of normal results, and the reduction's worst
        // neighbourhoods: around every multiple of ln 2 / 2 near 0.
        let mut xs: Vec<f64> = (0..=2_000_000)
            .map(|i| -708.0 + 1417.0 * f64::from(i) / 2e6)
            .collect();
        xs.extend((-2000..=2000).map(|i| f64::from(i) * std::f64::consts::LN_2 / 2.0));
        xs.extend((-2000..=2000).map(|i| f64::from(i) * 1e-3));
        let mut got = xs.clone();
        exp_in_place(&mut got);
        let worst = xs
            .iter()
            .zip(&got)
            .map(|(x, &g)| ulps(g, x.exp()))
            .max()
            .unwrap();
        assert!(worst <= 1, "{worst} ulp");
    }

    #[test]
    fn the_split_of_ln_2_is_fdlibms() {
        assert_eq!(LN2_HI, 6.931_471_803_691_238e-1);
        assert_eq!(LN2_HI + LN2_LO, std::f64::consts::LN_2);
        // 32 significant bits: the low 21 bits of the mantissa are zero.
        assert_eq!(LN2_HI.to_bits() & ((1 << 21) - 1), 0);
    }

    #[test]
    fn edges_are_those_of_f64_exp() {
        let mut v = [
            0.0,
            -0.0,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NAN,
            -745.2,
            -1e300,
            709.79,
            1e300,
            709.78,
        ];
        exp_in_place(&mut v);
        assert_eq!(&v[..4], &[1.0, 1.0, 0.0, f64::INFINITY]);
        assert!(v[4].is_nan());
        assert_eq!(&v[5..9], &[0.0, 0.0, f64::INFINITY, f64::INFINITY]);
        assert!(ulps(v[9], 709.78_f64.exp()) <= 1);
    }

    #[test]
    fn subnormal_results_are_close_to_f64_exp() {
        // Below e^−708 the result is subnormal; the two-step scaling rounds it twice.
        let xs: Vec<f64> = (0..=3700).map(|i| -708.0 - f64::from(i) * 0.01).collect();
        let mut got = xs.clone();
        exp_in_place(&mut got);
        for (x, g) in xs.iter().zip(&got) {
            let want = x.exp();
            assert!(
                (g - want).abs() <= 2.0 * f64::from_bits(1),
                "x = {x}: {g} vs {want}"
            );
        }
    }

    /// The AVX2 build by itself: on a processor with AVX-512F, `exp_in_place` never runs it.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn avx2_exp_in_place(values: &mut [f64]) {
        portable_exp_in_place(values);
    }

    /// The AVX-512F build by itself.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn avx512f_exp_in_place(values: &mut [f64]) {
        portable_exp_in_place(values);
    }

    /// Ten thousand points spread over `[−750, 750]`, beyond both ends of the finite results.
    fn test_inputs() -> Vec<f64> {
        (0..10_007)
            .map(|i| (f64::from(i) * 0.618_033_988_749_895).fract() * 1500.0 - 750.0)
            .collect()
    }

    fn assert_same_bits(got: &[f64], want: &[f64], build: &str) {
        for (a, b) in got.iter().zip(want) {
            assert_eq!(a.to_bits(), b.to_bits(), "{build}: {a} vs {b}");
        }
    }

    #[test]
    fn the_build_this_processor_runs_gives_the_baseline_bits() {
        let xs = test_inputs();
        let mut baseline = xs.clone();
        portable_exp_in_place(&mut baseline);
        let mut got = xs;
        exp_in_place(&mut got);
        assert_same_bits(&got, &baseline, "dispatched");
    }

    /// Every wide build the processor can run, not only the widest, which the dispatch picks.
    #[cfg(target_arch = "x86_64")]
    #[test]
    #[allow(unsafe_code)]
    fn every_wide_build_gives_the_baseline_bits() {
        let xs = test_inputs();
        let mut baseline = xs.clone();
        portable_exp_in_place(&mut baseline);
        if std::arch::is_x86_feature_detected!("avx2") {
            let mut got = xs.clone();
            // SAFETY: the processor has AVX2 (detected just above).
            unsafe { avx2_exp_in_place(&mut got) };
            assert_same_bits(&got, &baseline, "AVX2");
        }
        if std::arch::is_x86_feature_detected!("avx512f") {
            let mut got = xs.clone();
            // SAFETY: the processor has AVX-512F (detected just above).
            unsafe { avx512f_exp_in_place(&mut got) };
            assert_same_bits(&got, &baseline, "AVX-512F");
        }
    }
}
