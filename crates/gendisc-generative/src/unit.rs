//! The unit in which a Gaussian model computes its moments: a power of two that brings data of
//! extreme magnitude to order one.
//!
//! A covariance is a sum of products of the data: for values near `10²⁰⁰` it overflows, for
//! values near `10⁻²⁰⁰` it underflows, although LDA and QDA are scale-equivariant in exact
//! arithmetic (fitting on `c·X` gives the predictions of fitting on `X`). So a model fitted on
//! data whose largest magnitude lies outside `[2⁻²⁵⁶, 2²⁵⁷)` first divides it by the power of
//! two `u` that brings that magnitude to the nearest edge of the range, computes every moment,
//! factor and density in that unit, and adds the Jacobian `−d ln u` to its log-densities.
//! Division by a power of two is exact (it only changes the exponent), and moving the data no
//! further than the range's edge keeps columns of ordinary magnitude beside a huge one
//! representable (a column near 1 beside one near `10²¹¹` ends near `2⁻⁴⁴⁵`, its squares near
//! `2⁻⁸⁹⁰`). Data within the range — all data of ordinary magnitude — is left as it is, so fits
//! on it are unchanged bit for bit.

use ndarray::{Array, ArrayView, ArrayView2, CowArray, Dimension, Ix2};
use serde::{Deserialize, Serialize};

use gendisc_core::model_file::invariants;

/// A power of two `u` in which a model works: the data `x` is used as `x / u`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct Unit(f64);

impl Default for Unit {
    fn default() -> Self {
        Self::ONE
    }
}

impl Unit {
    /// The data's own unit.
    pub const ONE: Self = Self(1.0);

    /// Magnitudes whose squares, summed over many rows, stay far from overflow and underflow:
    /// `[2⁻²⁵⁶, 2²⁵⁷)`.
    const SAFE_EXPONENTS: std::ops::RangeInclusive<i32> = -256..=256;

    /// The unit for the (finite) data `x`: one if its largest magnitude `m` lies in
    /// `[2⁻²⁵⁶, 2²⁵⁷)` or is zero, else the power of two that maps `m` into `[2²⁵⁶, 2²⁵⁷)` (large
    /// data) or `[2⁻²⁵⁶, 2⁻²⁵⁵)` (small data).
    pub fn of(x: ArrayView2<'_, f64>) -> Self {
        let largest = x.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        if largest == 0.0 || !largest.is_finite() {
            return Self::ONE;
        }
        let exponent = largest.log2().floor() as i32;
        let (low, high) = (*Self::SAFE_EXPONENTS.start(), *Self::SAFE_EXPONENTS.end());
        if exponent > high {
            Self(2f64.powi(exponent - high))
        } else if exponent < low {
            Self(2f64.powi(exponent - low))
        } else {
            Self::ONE
        }
    }

    /// `u`.
    pub fn value(self) -> f64 {
        self.0
    }

    /// Whether this is the data's own unit.
    pub fn is_one(&self) -> bool {
        self.0 == 1.0
    }

    /// `x / u`, borrowed when `u = 1`.
    pub fn rescale<'a>(self, x: ArrayView2<'a, f64>) -> CowArray<'a, f64, Ix2> {
        if self.is_one() {
            CowArray::from(x)
        } else {
            CowArray::from(x.mapv(|v| v / self.0))
        }
    }

    /// A quantity of degree `degree` in the data (1 for a mean, 2 for a covariance) given in
    /// this unit, in the data's units: `a · u^degree`, borrowed when `u = 1`.
    pub fn restore<'a, D: Dimension>(
        self,
        a: ArrayView<'a, f64, D>,
        degree: i32,
    ) -> CowArray<'a, f64, D> {
        if self.is_one() {
            CowArray::from(a)
        } else {
            let factor = self.0.powi(degree);
            CowArray::from(a.mapv(|v| v * factor))
        }
    }

    /// Log-densities of `x / u` (one column per class, `d` data columns) turned into
    /// log-densities of `x`: each loses the log-Jacobian `d ln u` of the map `x ↦ x / u`.
    pub fn density_of_data(self, mut log_density: Array<f64, Ix2>, d: usize) -> Array<f64, Ix2> {
        if !self.is_one() {
            let jacobian = d as f64 * self.0.ln();
            log_density.mapv_inplace(|v| v - jacobian);
        }
        log_density
    }

    /// Checks a deserialised unit: a positive, finite power of two. A failure is an
    /// [`Error::InvalidModel`](gendisc_core::Error::InvalidModel) of the model kind `kind` about
    /// its field `unit`.
    pub fn check(self, kind: &str) -> gendisc_core::Result<()> {
        let (mantissa_bits, ok_range) = (self.0.to_bits() & ((1 << 52) - 1), self.0.is_normal());
        if self.0 > 0.0 && ok_range && mantissa_bits == 0 {
            Ok(())
        } else {
            Err(invariants::invalid(
                kind,
                "unit",
                format!(
                    "the unit of a model's moments must be a positive power of two, got {}",
                    self.0
                ),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn ordinary_data_keeps_its_unit_and_extreme_data_gets_a_power_of_two() {
        assert!(Unit::of(array![[1e-70, 3.0], [-1e70, 0.0]].view()).is_one());
        assert!(Unit::of(array![[0.0, 0.0]].view()).is_one());
        let huge = Unit::of(array![[1e300, -3e299]].view());
        assert_eq!(huge.value(), 2f64.powi(996 - 256));
        let tiny = Unit::of(array![[1e-300, 0.0]].view());
        assert_eq!(tiny.value(), 2f64.powi(-997 + 256));
        let x = array![[1e300, -3e299]];
        assert_eq!(huge.rescale(x.view()).to_owned() * huge.value(), x);
        assert!(huge.check("m").is_ok() && Unit::ONE.check("m").is_ok());
        assert!(Unit(3.0).check("m").is_err() && Unit(-2.0).check("m").is_err());
        assert!(Unit(f64::INFINITY).check("m").is_err() && Unit(0.0).check("m").is_err());
    }
}
