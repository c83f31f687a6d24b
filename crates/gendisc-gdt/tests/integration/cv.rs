//! λ by cross-validation: the selection is deterministic given the seed, picks the grid value
//! with the lowest mean held-out score, and the refitted model is the fit at that λ.

use gendisc_core::{Fit, ParamGuard};
use gendisc_data::generators::BouchardTriggsSimulation;
use gendisc_gdt::{cv::score, CvCriterion, Family, FitOutcome, Gdt, GdtCv, GdtCvParams};
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
fn a_given_path_selects_as_the_rows_own_path_and_leaves_out_what_it_did_not_reach() {
    use gendisc_gdt::FitOutcome::{Converged, NoMaximiser};
    use ndarray::{Array1, Array2};
    use rand::Rng;
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    // Separated classes (no maximiser at λ = 0 on the rows) and overlapping ones (a maximiser
    // at every λ).
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
    let params = |family| {
        GdtCv::params(family)
            .n_folds(4)
            .seed(1)
            .criterion(CvCriterion::LogLoss)
            .check()
            .unwrap()
    };
    let grid = params(Family::Lda).grid();
    for (x, y, family, separable) in [
        (&separated, &y, Family::Lda, true),
        (&separated, &y, Family::Balls2, true),
        (&overlapping, &labels, Family::Lda, false),
        (&overlapping, &labels, Family::Qda, false),
    ] {
        let params = params(family);
        let given = path(family, x, y, &grid);
        let alone = params.select(x.view(), y.view(), None).unwrap();
        assert_eq!(
            params
                .select_given_path(x.view(), y.view(), None, &given)
                .unwrap(),
            alone,
            "{family}"
        );
        if separable {
            // λ = 0 has no estimate on the rows: no candidate, and the folds do not fit it.
            assert_eq!(alone.refits[4], NoMaximiser, "{family}");
            assert!(!alone.candidates()[4], "{family}");
            assert!(alone.scores[4].is_nan() && alone.scores[..4].iter().all(|s| s.is_finite()));
            assert!(alone.without_maximiser.is_empty(), "{family}");
            assert!(alone.lambda > 0.0, "{family}");
            assert_eq!(
                alone.exclusions()[4].as_deref(),
                Some("no finite maximiser on the training rows")
            );
            if family == Family::Lda {
                assert_eq!(alone.candidates(), [true, true, true, true, false]);
            } else {
                // Balls2 without a floor: a fold's component can shrink onto its rows at
                // λ > 0, where L_gen is unbounded, and that fit stalls — no estimate either.
                assert!(alone.stopped_short.iter().any(|&n| n > 0), "{alone:?}");
                assert!(
                    alone.candidates()[alone.grid.iter().position(|&l| l == alone.lambda).unwrap()]
                );
            }
        } else {
            assert_eq!(alone.refits, [Converged; 5], "{family}");
            assert!(alone.candidates().iter().all(|&c| c), "{family}");
        }
    }
    // A path of other values, another family or other features is refused.
    let lda = params(Family::Lda);
    let given = path(Family::Lda, &separated, &y, &grid);
    let wrong = [
        path(Family::Lda, &separated, &y, &grid[..4]),
        path(Family::Qda, &separated, &y, &grid),
        path(
            Family::Lda,
            &separated.slice(ndarray::s![.., ..2]).to_owned(),
            &y,
            &grid,
        ),
    ];
    for path in &wrong {
        let error = lda
            .select_given_path(separated.view(), y.view(), None, path)
            .unwrap_err();
        assert!(
            matches!(&error, gendisc_core::Error::InvalidParameter { name, .. } if *name == "path"),
            "{error}"
        );
    }
    assert!(lda
        .select_given_path(separated.view(), y.view(), None, &given)
        .is_ok());
}

/// A fit on all the rows that stops short of its optimum (here at a one-step cap) is no
/// estimate: its `λ` is no candidate, the folds stop above it, and the refit at `λ̂` converged.
#[test]
fn a_lambda_whose_fit_on_the_rows_stops_short_is_no_candidate() {
    use gendisc_gdt::FitOutcome::{Converged, StoppedShort};
    use gendisc_optim::{Method, TrustRegionSettings};
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let (x, y) = BouchardTriggsSimulation::CorrelatedUniform.sample(60, &mut rng);
    let capped = Gdt::params(Family::Lda).solver(Method::TrustRegion(TrustRegionSettings {
        max_iterations: 1,
        ..TrustRegionSettings::default()
    }));
    let params = GdtCv::params(Family::Lda)
        .gdt(capped.clone())
        .grid(vec![1.0, 0.5, 0.0])
        .n_folds(3)
        .criterion(CvCriterion::LogLoss);
    let cv = params
        .clone()
        .check()
        .unwrap()
        .fit(x.view(), y.view())
        .unwrap();
    let selection = cv.selection();
    assert_eq!(selection.refits, [Converged, StoppedShort, StoppedShort]);
    assert_eq!(selection.candidates(), [true, false, false]);
    assert!(selection.scores[0].is_finite());
    assert!(
        selection.scores[1..].iter().all(|s| s.is_nan()),
        "{selection:?}"
    );
    assert_eq!(cv.lambda(), 1.0);
    assert!(gendisc_core::Convergence::is_converged(cv.model().report()));
    let curve = gendisc_core::SavedModel::cross_validation(&cv).unwrap();
    assert_eq!(
        curve.excluded[1].as_deref(),
        Some("the fit on the training rows stopped short of its optimum")
    );
    // Required convergence makes the first such fit an error that names it.
    let error = params
        .require_convergence(true)
        .check()
        .unwrap()
        .fit(x.view(), y.view())
        .unwrap_err();
    assert!(
        matches!(error, gendisc_core::Error::NotConverged { .. }),
        "{error}"
    );
    assert!(
        error.to_string().contains("all the training rows"),
        "{error}"
    );
}

/// Thirty rows of two classes four apart in each of three inputs (separated), and LDA's
/// cross-validation over `{½, 0}` by log loss on three folds, convergence required or not.
fn separated_rows_and_half_or_zero(
    require_convergence: bool,
) -> (ndarray::Array2<f64>, ndarray::Array1<usize>, GdtCvParams) {
    use ndarray::{Array1, Array2};
    use rand::Rng;
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let y = Array1::from_shape_fn(30, |i| i % 2);
    let x = Array2::from_shape_fn((30, 3), |(i, _)| 4.0 * y[i] as f64 + rng.random::<f64>());
    let params = GdtCv::params(Family::Lda)
        .n_folds(3)
        .grid(vec![0.5, 0.0])
        .criterion(CvCriterion::LogLoss)
        .require_convergence(require_convergence);
    (x, y, params)
}

#[test]
fn a_grid_without_a_maximiser_in_every_fold_is_an_error_that_says_so() {
    let (x, y, params) = separated_rows_and_half_or_zero(false);
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
    // With λ = ½ beside it, ½ is chosen; the folds do not fit λ = 0.
    let cv = params.check().unwrap().fit(x.view(), y.view()).unwrap();
    let selection = cv.selection();
    assert_eq!(
        selection.refits,
        [FitOutcome::Converged, FitOutcome::NoMaximiser]
    );
    assert!(selection.scores[1].is_nan(), "{selection:?}");
    assert_eq!(cv.lambda(), 0.5);
    assert_eq!(cv.model().lambda(), 0.5);
    // Requiring convergence leaves λ = 0 out as before: a fit without a maximiser is not
    // used, so it is not an error; with λ = 0 alone nothing is left to choose.
    let (_, _, strict) = separated_rows_and_half_or_zero(true);
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

/// Rows separated but for one, which sits among the other class: on all of them `λ = 0` has
/// a maximiser, but the fold that holds that row out is separated and has none. That fold has
/// no estimate to score, so `λ = 0` is no candidate, however its stopped fit scores.
#[test]
fn a_fold_without_a_maximiser_leaves_its_lambda_out() {
    let (mut x, y, params) = separated_rows_and_half_or_zero(false);
    x.row_mut(0).fill(4.5);
    let cv = params.check().unwrap().fit(x.view(), y.view()).unwrap();
    let selection = cv.selection();
    assert_eq!(
        selection.refits,
        [FitOutcome::Converged; 2],
        "{selection:?}"
    );
    assert_eq!(selection.without_maximiser, [0, 1], "{selection:?}");
    assert!(
        selection.scores.iter().all(|s| s.is_finite()),
        "{selection:?}"
    );
    assert_eq!(selection.candidates(), [true, false]);
    assert_eq!(cv.lambda(), 0.5);
    let curve = gendisc_core::SavedModel::cross_validation(&cv).unwrap();
    assert_eq!(
        curve.excluded[1].as_deref(),
        Some("no finite maximiser in 1 of the folds")
    );
}

/// Balls2 without a floor on XOR clusters: the `λ = 0` fit on the rows stops on a ray to the
/// supremum, where it classifies its training rows ever more confidently, and is certified
/// there. Such a point is no estimate: `λ̂` is chosen among the values with one.
#[test]
fn a_point_on_a_ray_is_not_returned_as_an_estimate() {
    let (x, y) = crate::optimum::xor_clusters(12, 0.4, 5);
    let params = GdtCv::params(Family::Balls2)
        .grid(vec![0.5, 0.0])
        .n_folds(3)
        .criterion(CvCriterion::LogLoss)
        .check()
        .unwrap();
    let cv = params.fit(x.view(), y.view()).unwrap();
    let selection = cv.selection();
    assert_eq!(
        selection.refits,
        [FitOutcome::Converged, FitOutcome::NoMaximiser],
        "{selection:?}"
    );
    assert_eq!(cv.lambda(), 0.5);
    let curve = gendisc_core::SavedModel::cross_validation(&cv).unwrap();
    assert_eq!(curve.excluded[0], None);
    assert_eq!(
        curve.excluded[1].as_deref(),
        Some("no finite maximiser on the training rows")
    );
}
