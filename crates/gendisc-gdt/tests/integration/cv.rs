//! λ by cross-validation: the selection is deterministic given the seed, picks the grid value
//! with the lowest mean held-out score, and the refitted model is the fit at that λ.

use gendisc_core::{Fit, ParamGuard};
use gendisc_data::generators::BouchardTriggsSimulation;
use gendisc_gdt::{cv::score, CvCriterion, Family, Gdt, GdtCv};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[test]
fn selection_is_the_minimum_of_the_scores_and_is_reproducible() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let (x, y) = BouchardTriggsSimulation::CorrelatedUniform.sample(80, &mut rng);
    for criterion in [
        CvCriterion::ErrorRate,
        CvCriterion::LogLoss,
        CvCriterion::ClassCost(vec![1.0, 5.0]),
    ] {
        let params = GdtCv::params(Family::SharedDiagonal)
            .grid(vec![0.0, 0.5, 1.0, 0.25])
            .criterion(criterion.clone())
            .seed(9)
            .check()
            .unwrap();
        let a = params.fit(x.view(), y.view()).unwrap();
        let b = params.fit(x.view(), y.view()).unwrap();
        assert_eq!(a, b);
        let sel = a.selection();
        assert_eq!(sel.grid, vec![1.0, 0.5, 0.25, 0.0]);
        let best = sel.scores.iter().cloned().fold(f64::INFINITY, f64::min);
        let i = sel.grid.iter().position(|&l| l == a.lambda()).unwrap();
        assert!(sel.scores[i] <= best + 1e-12, "{criterion:?}: {sel:?}");
        // Ties go to the larger λ: no earlier grid value scores as low.
        assert!(sel.scores[..i].iter().all(|&s| s > best + 1e-12), "{sel:?}");
        assert_eq!(a.model().lambda(), a.lambda());
    }
}

#[test]
fn the_refit_equals_the_path_fit_at_the_chosen_lambda() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (x, y) = BouchardTriggsSimulation::GaussianIdentity.sample(60, &mut rng);
    let cv = GdtCv::params(Family::Lda)
        .n_folds(3)
        .criterion(CvCriterion::LogLoss)
        .fit(x.view(), y.view())
        .unwrap();
    let grid: Vec<f64> = cv
        .selection()
        .grid
        .iter()
        .copied()
        .filter(|&l| l >= cv.lambda())
        .collect();
    let path = Gdt::params(Family::Lda)
        .check()
        .unwrap()
        .fit_path(&grid, x.view(), y.view(), None)
        .unwrap();
    assert_eq!(path.last().unwrap(), cv.model());
    // The score function agrees with a hand count on the training rows.
    let err = score(
        cv.model(),
        &CvCriterion::ErrorRate,
        x.view(),
        y.view(),
        None,
    )
    .unwrap();
    let pred = gendisc_core::Classifier::predict(cv.model(), x.view()).unwrap();
    let wrong = pred.iter().zip(y.iter()).filter(|(p, t)| p != t).count();
    assert_eq!(err, wrong as f64 / 60.0);
}

#[test]
fn reusing_the_paths_certificate_selects_as_the_folds_would_alone() {
    use ndarray::{Array1, Array2};
    use rand::Rng;
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    // Separated classes (no maximiser at λ = 0, on the rows and on every fold) and
    // overlapping ones (a maximiser on the rows).
    let (overlapping, labels) = BouchardTriggsSimulation::GaussianIdentity.sample(200, &mut rng);
    let n = 40;
    let y = Array1::from_shape_fn(n, |i| i % 2);
    let separated = Array2::from_shape_fn((n, overlapping.ncols()), |(i, _)| {
        3.0 * y[i] as f64 + rng.random::<f64>()
    });
    let path = |family: Family, x: &Array2<f64>, y: &Array1<usize>, grid: &[f64]| {
        Gdt::params(family)
            .n_classes(2)
            .check()
            .unwrap()
            .fit_path(grid, x.view(), y.view(), None)
            .unwrap()
    };
    // The log loss tells a fold's λ = 0 fit from the λ = 0.25 fit it starts from, which a
    // fold without a maximiser returns.
    let params = |family| {
        GdtCv::params(family)
            .n_folds(4)
            .seed(1)
            .criterion(CvCriterion::LogLoss)
            .check()
            .unwrap()
    };
    let grid = params(Family::Lda).grid();
    // A λ = 0 fit with a certificate that does not hold on the overlapping rows' folds.
    let foreign = path(Family::Lda, &separated, &y, &grid).pop().unwrap();
    assert!(foreign.report().separation.is_some());
    for (x, y, family, certified) in [
        (&separated, &y, Family::Lda, true),
        (&separated, &y, Family::Balls2, true),
        (&overlapping, &labels, Family::Lda, false),
        (&overlapping, &labels, Family::Qda, false),
    ] {
        let params = params(family);
        let discriminative = path(family, x, y, &grid).pop().unwrap();
        assert_eq!(discriminative.lambda(), 0.0);
        assert_eq!(
            discriminative.report().separation.is_some(),
            certified,
            "{family}"
        );
        let alone = params.select(x.view(), y.view(), None).unwrap();
        // Where the folds are separated, λ = 0 has no estimate in any of them to score, and
        // cross-validation chooses among the other values.
        if certified {
            assert_eq!(alone.without_maximiser, [0, 0, 0, 0, 4], "{family}");
            assert_eq!(alone.candidates(), [true, true, true, true, false]);
            assert!(alone.lambda > 0.0, "{family}");
        } else {
            assert!(alone.without_maximiser.is_empty(), "{family}");
        }
        for lent in [&discriminative, &foreign] {
            let reusing = params
                .select_reusing(x.view(), y.view(), None, lent)
                .unwrap();
            assert_eq!(alone, reusing, "{family}");
        }
    }
}

#[test]
fn a_grid_without_a_maximiser_in_every_fold_is_an_error_that_says_so() {
    use ndarray::{Array1, Array2};
    use rand::Rng;
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let y = Array1::from_shape_fn(30, |i| i % 2);
    let x = Array2::from_shape_fn((30, 3), |(i, _)| 4.0 * y[i] as f64 + rng.random::<f64>());
    let params = GdtCv::params(Family::Lda).n_folds(3);
    let error = params
        .clone()
        .grid(vec![0.0])
        .check()
        .unwrap()
        .fit(x.view(), y.view())
        .unwrap_err();
    match &error {
        gendisc_core::Error::Infeasible { what, detail } => {
            assert!(what.contains("choice of λ"), "{error}");
            assert!(detail.contains("add a λ > 0"), "{error}");
        }
        other => panic!("expected an infeasible choice, got {other:?}"),
    }
    // With λ = ½ beside it, ½ is chosen although λ = 0's stopped fits score no worse.
    let cv = params
        .grid(vec![0.5, 0.0])
        .criterion(CvCriterion::LogLoss)
        .check()
        .unwrap()
        .fit(x.view(), y.view())
        .unwrap();
    let selection = cv.selection();
    assert_eq!(selection.without_maximiser, [0, 3]);
    assert!(selection.scores[1] <= selection.scores[0], "{selection:?}");
    assert_eq!(cv.lambda(), 0.5);
    assert_eq!(cv.model().lambda(), 0.5);
    // Requiring convergence leaves λ = 0 out as before: a fold's fit without a maximiser is
    // not used, so it is not an error; with λ = 0 alone nothing is left to choose.
    let strict = GdtCv::params(Family::Lda)
        .n_folds(3)
        .grid(vec![0.5, 0.0])
        .criterion(CvCriterion::LogLoss)
        .require_convergence(true);
    let strict_fit = strict
        .clone()
        .check()
        .unwrap()
        .fit(x.view(), y.view())
        .unwrap();
    assert_eq!(strict_fit, cv);
    let error = strict
        .grid(vec![0.0])
        .check()
        .unwrap()
        .fit(x.view(), y.view())
        .unwrap_err();
    assert!(
        matches!(error, gendisc_core::Error::Infeasible { .. }),
        "{error}"
    );
}

/// Balls2 without a floor on XOR clusters: each fold's `λ = 0` fit stops on a ray to the
/// supremum, where it classifies its training rows ever more confidently. Such a point is no
/// estimate, however well it scores; `λ̂` is chosen among the values with one.
#[test]
fn a_point_on_a_ray_is_not_scored_as_an_estimate() {
    let (x, y) = crate::optimum::xor_clusters(12, 0.4, 5);
    let params = GdtCv::params(Family::Balls2)
        .grid(vec![0.5, 0.0])
        .n_folds(3)
        .criterion(CvCriterion::LogLoss)
        .check()
        .unwrap();
    let cv = params.fit(x.view(), y.view()).unwrap();
    let selection = cv.selection();
    assert_eq!(selection.without_maximiser, [0, 3], "{selection:?}");
    assert!(selection.scores[1] < selection.scores[0], "{selection:?}");
    assert_eq!(cv.lambda(), 0.5);
    let curve = gendisc_core::SavedModel::cross_validation(&cv).unwrap();
    assert_eq!(curve.excluded[0], None);
    assert!(curve.excluded[1]
        .as_ref()
        .unwrap()
        .contains("3 of the folds"));
}
