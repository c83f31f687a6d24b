//! The Balls2 variance floor: it stops a component from collapsing onto repeated rows, keeps
//! every variance above it, and leaves `λ = 1` the (floored) generative fit.

use gendisc_core::{Convergence, Error, Fit, ParamGuard};
use gendisc_gdt::{Family, Gdt, Parametrisation};
use gendisc_generative::Balls2;
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

/// Two overlapping Gaussian classes in 2-d, with the first class-0 row repeated three more
/// times: a Balls2 component can sit on the four copies and shrink without bound.
fn repeated_rows(seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = 40;
    let y = Array1::from_shape_fn(n, |i| i % 2);
    let mut x = Array2::from_shape_fn((n, 2), |(i, j)| {
        let z: f64 = rng.sample(StandardNormal);
        z + if j == 0 { 0.7 * y[i] as f64 } else { 0.0 }
    });
    let first = x.row(0).to_owned();
    for i in [2, 4, 6] {
        x.row_mut(i).assign(&first);
    }
    (x, y)
}

fn min(v: &Array2<f64>) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

#[test]
fn the_floor_stops_a_collapsing_component() {
    let (x, y) = repeated_rows(2);
    let floor = 0.01;
    for lambda in [0.5, 0.25] {
        let free = Gdt::params(Family::Balls2)
            .lambda(lambda)
            .fit(x.view(), y.view())
            .unwrap();
        let floored = Gdt::params(Family::Balls2)
            .lambda(lambda)
            .variance_floor(floor)
            .fit(x.view(), y.view())
            .unwrap();
        let v0 = floored.parametrisation().variance_floor();
        assert!(v0 > 0.0);
        // Without the floor a component collapses onto the repeated row and the fit fails.
        let free_var = free.balls2_variances().unwrap();
        assert!(
            !free.report().is_converged(),
            "λ = {lambda}: {:?}",
            free.report()
        );
        assert!(min(&free_var) < v0, "λ = {lambda}: {free_var}");
        // With it the fit converges and no variance goes under the floor.
        let floored_var = floored.balls2_variances().unwrap();
        assert!(
            floored.report().is_converged(),
            "λ = {lambda}: {:?}",
            floored.report()
        );
        assert!(
            min(&floored_var) >= v0,
            "λ = {lambda}: {floored_var} vs {v0}"
        );
    }
    // The discriminative end converges too on these data, above the floor.
    let floored = Gdt::params(Family::Balls2)
        .lambda(0.0)
        .variance_floor(floor)
        .fit(x.view(), y.view())
        .unwrap();
    assert!(floored.report().is_converged(), "{:?}", floored.report());
    let v0 = floored.parametrisation().variance_floor();
    assert!(min(&floored.balls2_variances().unwrap()) >= v0);
}

#[test]
fn the_floor_is_relative_to_the_largest_column_variance() {
    let (x, y) = repeated_rows(3);
    let floor = 0.05;
    let m = Gdt::params(Family::Balls2)
        .lambda(1.0)
        .variance_floor(floor)
        .fit(x.view(), y.view())
        .unwrap();
    let n = x.nrows() as f64;
    let largest = x
        .columns()
        .into_iter()
        .map(|c| {
            let mean = c.sum() / n;
            c.mapv(|v| (v - mean) * (v - mean)).sum() / n
        })
        .fold(0.0, f64::max);
    // The parametrisation is in the model's unit, the rows over their largest magnitude s.
    let v0 = m.parametrisation().variance_floor() * m.scale() * m.scale();
    assert!(
        (v0 - floor * largest).abs() <= 1e-12 * v0,
        "{v0} vs {}",
        floor * largest
    );
}

#[test]
fn lambda_one_with_a_floor_is_the_floored_em_fit() {
    for seed in [2, 3, 5] {
        let (x, y) = repeated_rows(seed);
        let floor = 0.02;
        let gdt = Gdt::params(Family::Balls2)
            .lambda(1.0)
            .variance_floor(floor)
            .fit(x.view(), y.view())
            .unwrap();
        // GDT works on the rows over their largest magnitude s: EM on the same numbers.
        let s = gdt.scale();
        let em = Balls2::params()
            .var_smoothing(floor)
            .fit(x.mapv(|v| v / s).view(), y.view())
            .unwrap();
        let v0 = gdt.parametrisation().variance_floor();
        // The same absolute floor as EM's (same relative value, same scale).
        assert!((v0 - em.variance_floor()).abs() <= 1e-12 * v0);
        // A variance EM left at the floor starts a relative 1e-6 above it (ℓ must be
        // finite); every other variance is EM's.
        let ours = gdt.balls2_variances().unwrap() / (s * s);
        for (a, b) in ours.iter().zip(em.variances()) {
            assert!(*a >= b * (1.0 - 1e-12), "seed {seed}: {a} vs EM {b}");
            assert!(
                *a - b <= 1e-6 * v0 + 1e-12 * b,
                "seed {seed}: {a} vs EM {b}"
            );
        }
        assert!(gdt.report().is_converged());
    }
}

#[test]
fn without_a_floor_nothing_changes() {
    let (x, y) = repeated_rows(3);
    let default = Gdt::params(Family::Balls2)
        .lambda(0.5)
        .fit(x.view(), y.view())
        .unwrap();
    let zero = Gdt::params(Family::Balls2)
        .lambda(0.5)
        .variance_floor(0.0)
        .fit(x.view(), y.view())
        .unwrap();
    assert_eq!(default, zero);
    assert_eq!(default.parametrisation().variance_floor(), 0.0);
    // Without a floor σ² = e^{−2ℓ} exactly.
    let v = default.balls2_variances().unwrap();
    let theta = default.theta();
    let (d, block) = (2, 1 + 2 * 2 + 2);
    for c in 0..2 {
        for m in 0..2 {
            let ls = theta[1 + c * block + 1 + 2 * d + m];
            let scale = default.scale();
            assert_eq!(v[[c, m]], 1.0 / (2.0 * ls).exp() * (scale * scale));
        }
    }
}

#[test]
fn invalid_floors_are_errors() {
    let (x, y) = repeated_rows(2);
    for (family, floor) in [
        (Family::Balls2, -0.1),
        (Family::Balls2, f64::NAN),
        (Family::Balls2, f64::INFINITY),
        (Family::Lda, 0.01),
        (Family::Balls1, 0.01),
    ] {
        let params = Gdt::params(family).variance_floor(floor);
        match params.check_ref() {
            Err(Error::InvalidParameter { name, .. }) => assert_eq!(name, "variance_floor"),
            other => panic!("{family} {floor}: expected InvalidParameter, got {other:?}"),
        }
        assert!(params.fit(x.view(), y.view()).is_err());
    }
    let layout = Parametrisation::new(Family::Balls2, 2, 2).unwrap();
    assert!(layout.with_variance_floor(-1.0).is_err());
    assert!(layout.with_variance_floor(f64::NAN).is_err());
    assert!(Parametrisation::new(Family::Qda, 2, 2)
        .unwrap()
        .with_variance_floor(1.0)
        .is_err());
    assert_eq!(
        layout.with_variance_floor(0.5).unwrap().variance_floor(),
        0.5
    );
}

#[test]
fn serialised_models_keep_their_floor() {
    let (x, y) = repeated_rows(2);
    let m = Gdt::params(Family::Balls2)
        .lambda(0.5)
        .variance_floor(0.01)
        .fit(x.view(), y.view())
        .unwrap();
    let json = serde_json::to_string(&m).unwrap();
    let back: Gdt = serde_json::from_str(&json).unwrap();
    assert_eq!(m, back);
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    value["param"]["variance_floor"] = serde_json::json!(-1.0);
    assert!(serde_json::from_value::<Gdt>(value).is_err());
}
