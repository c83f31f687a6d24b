//! Behaviour of the alternating bilevel fit: convergence, Theorem 4.1, infeasibility, input
//! validation, sparse/dense agreement.

use gendisc_bilevel::{
    BilevelClassifier, FitStatus, GenerativePrior, Generator, Margin, ScaleMatrix,
};
use gendisc_core::{Classifier, Error, Fit};
use ndarray::{array, Array1, Array2};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

/// `m` points per class from N(∓centre, s² I) in `n` dimensions.
fn gaussian_data(
    m: usize,
    n: usize,
    centre: f64,
    s: f64,
    seed: u64,
) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut x = Array2::zeros((2 * m, n));
    let mut y = Array1::zeros(2 * m);
    for i in 0..2 * m {
        let class = usize::from(i >= m);
        y[i] = class;
        let mean = if class == 1 { centre } else { -centre };
        for j in 0..n {
            let z: f64 = StandardNormal.sample(&mut rng);
            x[[i, j]] = if j == 0 { mean } else { 0.0 } + s * z;
        }
    }
    (x, y)
}

fn prior(n: usize, centre: f64, omega: f64) -> GenerativePrior {
    let mut t1 = Array1::zeros(n);
    let mut t2 = Array1::zeros(n);
    t1[0] = -centre;
    t2[0] = centre;
    GenerativePrior::diagonal(
        [t1, t2],
        [Array1::from_elem(n, omega), Array1::from_elem(n, omega)],
    )
    .unwrap()
}

fn assert_monotone(objectives: &[f64]) {
    for pair in objectives.windows(2) {
        assert!(
            pair[1] <= pair[0] + 1e-6 * (1.0 + pair[0].abs()),
            "objective increased: {objectives:?}"
        );
    }
}

#[test]
fn soft_margin_fit_converges_classifies_and_never_increases_its_objective() {
    let (x, y) = gaussian_data(20, 3, 1.0, 0.7, 1);
    let model = BilevelClassifier::params(prior(3, 1.0, 0.05))
        .fit(x.view(), y.view())
        .unwrap();
    let report = model.report();
    assert_eq!(report.status, FitStatus::Converged, "{report:?}");
    let objectives: Vec<f64> = report.iterations.iter().map(|i| i.objective).collect();
    assert_monotone(&objectives);
    let predicted = model.predict(x.view()).unwrap();
    let accuracy = predicted.iter().zip(&y).filter(|(a, b)| a == b).count() as f64 / y.len() as f64;
    assert!(accuracy >= 0.85, "training accuracy {accuracy}");
    // The prior points along the first axis; so does w.
    let w = model.weights();
    assert!(
        w[0] > 0.0 && w[0].abs() > w[1].abs() && w[0].abs() > w[2].abs(),
        "{w}"
    );
}

#[test]
fn hard_margin_on_separable_data_satisfies_the_program() {
    let x = array![[-2.0, 0.5], [-1.5, -0.5], [1.5, 0.4], [2.0, -0.3]];
    let y = array![0, 0, 1, 1];
    let beta = 0.5;
    let model = BilevelClassifier::params(prior(2, 2.0, 0.1))
        .beta(beta)
        .hard_margin()
        .fit(x.view(), y.view())
        .unwrap();
    let f = model.decision_function(x.view()).unwrap();
    for (fi, &yi) in f.iter().zip(&y) {
        let s = if yi == 1 { 1.0 } else { -1.0 };
        assert!(
            s * fi >= 1.0 - 1e-6,
            "margin constraint (4.12) violated: {f}"
        );
    }
    let w = model.weights();
    let [mu1, mu2] = model.means();
    let norm_w = w.dot(&w).sqrt();
    // (4.13)–(4.14) with Σ = I, at the means of the last step 2 (which keep them feasible).
    assert!(-(w.dot(&mu1) + model.intercept()) / norm_w >= beta - 1e-6);
    assert!((w.dot(&mu2) + model.intercept()) / norm_w >= beta - 1e-6);
    let norms: Vec<f64> = model.report().iterations.iter().map(|i| i.norm_w).collect();
    assert_monotone(&norms);
}

#[test]
fn hard_margin_on_non_separable_data_is_infeasible() {
    // The class-1 point (0, 0) lies between the two class-0 points: no line separates them,
    // whatever the prior.
    let x = array![[-1.0, 0.0], [1.0, 0.0], [0.0, 0.0], [0.0, 0.5]];
    let y = array![0, 0, 1, 1];
    let params = BilevelClassifier::params(prior(2, 1.0, 0.1));
    let err = params
        .clone()
        .hard_margin()
        .fit(x.view(), y.view())
        .unwrap_err();
    match err {
        Error::Infeasible { what, detail } => {
            assert!(what.contains("bilevel step 1"), "{what}");
            assert!(detail.contains("residual"), "{detail}");
        }
        other => panic!("expected Infeasible, got {other}"),
    }
    // The soft-margin program on the same data is solvable.
    assert!(params.fit(x.view(), y.view()).is_ok());
}

#[test]
fn sparse_and_dense_fits_agree() {
    let (mut x, y) = gaussian_data(8, 6, 1.0, 0.5, 7);
    x.mapv_inplace(|v| if v.abs() < 0.3 { 0.0 } else { v });
    let params = BilevelClassifier::params(prior(6, 1.0, 0.1));
    let dense = params.fit(x.view(), y.view()).unwrap();
    let csr = sprs::CsMat::csr_from_dense(x.view(), 0.0);
    let checked = gendisc_core::ParamGuard::check_ref(&params).unwrap();
    let sparse = checked.fit_sparse(csr.view(), y.view()).unwrap();
    let csc = csr.to_csc();
    let from_csc = checked.fit_sparse(csc.view(), y.view()).unwrap();
    for j in 0..6 {
        assert!((dense.weights()[j] - sparse.weights()[j]).abs() < 1e-7);
        assert!((dense.weights()[j] - from_csc.weights()[j]).abs() < 1e-7);
    }
    let fd = dense.decision_function(x.view()).unwrap();
    let fs = sparse.decision_function_sparse(csr.view()).unwrap();
    for (a, b) in fd.iter().zip(&fs) {
        assert!((a - b).abs() < 1e-6);
    }
}

#[test]
fn probabilities_convert_to_beta_and_phi() {
    let params = BilevelClassifier::params(prior(2, 1.0, 0.1))
        .beta_from_tail(Generator::Gaussian, 0.05)
        .unwrap()
        .phi_from_density(Generator::Gaussian, 0.5, (0.1f64 * 0.1).ln())
        .unwrap();
    let checked = gendisc_core::ParamGuard::check(params).unwrap();
    assert!((checked.beta() - 1.6448536269514722).abs() < 1e-10);
    // Density (2π)^{-1} det(Ω)^{-1/2} exp(-φ²/2) = 0.5 with det Ω = 0.01.
    let density = (-0.5 * checked.phi().powi(2)).exp() / (2.0 * std::f64::consts::PI) / 0.1;
    assert!((density - 0.5).abs() < 1e-12);
}

#[test]
fn bad_input_is_a_typed_error() {
    let (x, y) = gaussian_data(3, 2, 1.0, 0.5, 3);
    let params = BilevelClassifier::params(prior(2, 1.0, 0.1));
    let wrong_dim = BilevelClassifier::params(prior(3, 1.0, 0.1));
    assert!(matches!(
        wrong_dim.fit(x.view(), y.view()),
        Err(Error::ShapeMismatch { .. })
    ));
    let mut bad = x.clone();
    bad[[1, 1]] = f64::NAN;
    assert!(matches!(
        params.fit(bad.view(), y.view()),
        Err(Error::NonFinite { .. })
    ));
    let mut labels = y.clone();
    labels[0] = 2;
    assert!(matches!(
        params.fit(x.view(), labels.view()),
        Err(Error::LabelOutOfRange { .. })
    ));
    assert!(matches!(
        params.fit(x.view(), y.slice(ndarray::s![..3])),
        Err(Error::ShapeMismatch { .. })
    ));
    let empty = Array2::<f64>::zeros((0, 2));
    assert!(params
        .fit(empty.view(), Array1::<usize>::zeros(0).view())
        .is_err());
    for bad in [
        params.clone().beta(0.0),
        params.clone().phi(f64::NAN),
        params.clone().tol(-1.0),
        params.clone().max_iter(0),
        params.clone().soft_margin(0.0, 1.0, 1.0),
        params.clone().soft_margin(1.0, 1.0, -1.0),
    ] {
        assert!(matches!(
            bad.fit(x.view(), y.view()),
            Err(Error::InvalidParameter { .. })
        ));
    }
    assert!(GenerativePrior::new(
        [array![0.0, 1.0], array![0.0]],
        [ScaleMatrix::identity(2), ScaleMatrix::identity(2)],
        [ScaleMatrix::identity(2), ScaleMatrix::identity(2)]
    )
    .is_err());
    assert!(
        GenerativePrior::diagonal([array![0.0], array![1.0]], [array![0.0], array![1.0]]).is_err()
    );
    let model = params.fit(x.view(), y.view()).unwrap();
    assert!(matches!(
        model.predict(Array2::zeros((2, 3)).view()),
        Err(Error::ShapeMismatch { .. })
    ));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Theorem 4.1, for the soft program (4.17)–(4.24): every step minimises the same objective
    /// over its own block, so the objective at the end of step 1 never increases and step 2
    /// never increases it either.
    #[test]
    fn the_objective_never_increases(
        seed in 0u64..1_000,
        n in 1usize..4,
        centre in 0.2f64..2.0,
        noise in 0.3f64..1.5,
        omega in 0.01f64..1.0,
        beta in 0.05f64..1.0,
        phi in 0.01f64..1.0,
        c3_finite in any::<bool>(),
        misleading in any::<bool>(),
    ) {
        let (x, y) = gaussian_data(6, n, centre, noise, seed);
        let prior_centre = if misleading { -centre } else { centre };
        let mut rng = ChaCha8Rng::seed_from_u64(seed + 1);
        let c2 = rng.random_range(0.1..5.0);
        let c3 = if c3_finite { rng.random_range(0.01..2.0) } else { f64::INFINITY };
        let model = BilevelClassifier::params(prior(n, prior_centre, omega))
            .beta(beta)
            .phi(phi)
            .margin(Margin::Soft { c1: 1.0, c2, c3 })
            .max_iter(8)
            .fit(x.view(), y.view())
            .unwrap();
        let its = &model.report().iterations;
        let objectives: Vec<f64> = its.iter().map(|i| i.objective).collect();
        for pair in objectives.windows(2) {
            prop_assert!(pair[1] <= pair[0] + 1e-6 * (1.0 + pair[0].abs()), "{:?}", objectives);
        }
        for it in its {
            prop_assert!(it.objective_after_step2 <= it.objective + 1e-6 * (1.0 + it.objective.abs()), "{:?}", its);
        }
    }

    /// Theorem 4.1 as stated, for the hard margin: ‖w‖ never increases.
    #[test]
    fn the_hard_margin_norm_never_increases(seed in 0u64..1_000, omega in 0.01f64..0.5, beta in 0.05f64..0.5) {
        let (x, y) = gaussian_data(5, 2, 2.0, 0.3, seed);
        let fit = BilevelClassifier::params(prior(2, 2.0, omega)).beta(beta).hard_margin().max_iter(8).fit(x.view(), y.view());
        match fit {
            Ok(model) => {
                let norms: Vec<f64> = model.report().iterations.iter().map(|i| i.norm_w).collect();
                for pair in norms.windows(2) {
                    prop_assert!(pair[1] <= pair[0] + 1e-6 * (1.0 + pair[0]), "{:?}", norms);
                }
            }
            Err(Error::Infeasible { .. }) => {}
            Err(e) => prop_assert!(false, "unexpected error {e}"),
        }
    }
}
