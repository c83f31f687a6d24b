//! The rows' memory layout does not matter: a column-major matrix (NumPy's Fortran order, a
//! transposed view) fits and predicts as its row-major copy.

use gendisc_core::{ConditionalModel, Fit};
use gendisc_gdt::{Family, Gdt};
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

/// Two overlapping Gaussian classes in 3-d, every entry in [−1, 1], so that the model's unit
/// is 1 and the rows are used as given.
fn data(seed: u64, n: usize) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let y = Array1::from_shape_fn(n, |i| i % 2);
    let x = Array2::from_shape_fn((n, 3), |(i, j)| {
        let z: f64 = rng.sample(StandardNormal);
        (0.2 * z + if j == y[i] { 0.3 } else { 0.0 }).clamp(-1.0, 1.0)
    });
    (x, y)
}

#[test]
fn column_major_rows_fit_as_row_major_ones() {
    let (x, y) = data(13, 60);
    let column_major = x.t().as_standard_layout().into_owned().reversed_axes();
    assert!(!column_major.is_standard_layout());
    for family in [Family::Lda, Family::Qda, Family::Balls2] {
        let fit = |x: ndarray::ArrayView2<'_, f64>| {
            Gdt::params(family)
                .lambda(0.5)
                .fit(x, y.view())
                .unwrap()
                .predict_proba(x)
                .unwrap()
        };
        assert_eq!(fit(x.view()), fit(column_major.view()), "{family}");
    }
}
