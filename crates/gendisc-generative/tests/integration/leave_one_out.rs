//! Leave-one-out likelihoods equal brute-force refitting: for every row `i`, the model fitted on
//! the other rows, evaluated at `x_i`, for every model, option and region.

use gendisc_core::{Error, FactorisedGenerative, Fit, FitWeighted, Generative, ParamGuard, Result};
use gendisc_generative::{
    BernoulliNb, CategoricalNb, ClassPriors, GaussianNb, LeaveOneOut, LeaveOneOutFit,
    MultinomialNb, VarianceEstimator, VarianceStructure,
};
use ndarray::{array, s, Array1, Array2, ArrayView1, ArrayView2, Axis};
use proptest::prelude::*;

/// `|a − b| ≤ tol · max(1, |b|)`, with `−∞` matching `−∞` only.
fn close(a: f64, b: f64, tol: f64) -> bool {
    a == b || (a - b).abs() <= tol * b.abs().max(1.0)
}

/// The rows of `x`, `y` and `w` other than `i`.
fn without_row(
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    w: Option<ArrayView1<'_, f64>>,
    i: usize,
) -> (Array2<f64>, Array1<usize>, Option<Array1<f64>>) {
    let keep: Vec<usize> = (0..x.nrows()).filter(|&r| r != i).collect();
    (
        x.select(Axis(0), &keep),
        y.select(Axis(0), &keep),
        w.map(|w| w.select(Axis(0), &keep)),
    )
}

fn fit_maybe_weighted<P: FitWeighted>(
    params: &P,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    w: Option<ArrayView1<'_, f64>>,
) -> Result<P::Model> {
    match w {
        Some(w) => params.fit_weighted(x, y, w),
        None => params.fit(x, y),
    }
}

/// Checks a leave-one-out result against `m` refits made by `refit` (which receives the data
/// without row `i`). When the leave-one-out computation fails, the error must name a row whose
/// refit fails too — unless `on_boundary(row)`: removing that row puts an estimate exactly at
/// its limit (e.g. an unbiased divisor `W′ − 1` of zero), where a refit may round either way.
fn check_against_refits<M, F>(
    loo: Result<LeaveOneOutFit<M>>,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    w: Option<ArrayView1<'_, f64>>,
    regions: &[Vec<usize>],
    tol: f64,
    on_boundary: &dyn Fn(usize) -> bool,
    refit: F,
) -> std::result::Result<(), TestCaseError>
where
    M: FactorisedGenerative,
    F: Fn(ArrayView2<'_, f64>, ArrayView1<'_, usize>, Option<ArrayView1<'_, f64>>) -> Result<M>,
{
    let n = x.nrows();
    let refits: Vec<Result<M>> = (0..n)
        .map(|i| {
            let (xi, yi, wi) = without_row(x, y, w, i);
            refit(xi.view(), yi.view(), wi.as_ref().map(|w| w.view()))
        })
        .collect();
    let loo = match loo {
        Ok(loo) => loo,
        Err(e) => {
            let message = e.to_string();
            prop_assert!(
                matches!(
                    e,
                    Error::EmptyClass { .. }
                        | Error::TooFewRows { .. }
                        | Error::InvalidParameter { name: "alpha", .. }
                ),
                "{message}"
            );
            let named: Option<usize> = message.split("without row ").nth(1).and_then(|rest| {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                digits.parse().ok()
            });
            prop_assert!(named.is_some(), "the error names no row: {message}");
            let named = named.unwrap();
            if on_boundary(named) {
                return Ok(());
            }
            prop_assert!(
                refits[named].is_err(),
                "leave-one-out failed ({message}) but the refit succeeded"
            );
            return Ok(());
        }
    };
    prop_assert_eq!(loo.region_log_likelihood.dim().0, n);
    prop_assert_eq!(loo.region_log_likelihood.dim().1, regions.len());
    for (i, refit) in refits.into_iter().enumerate() {
        let refit = match refit {
            Ok(m) => m,
            // On the boundary the refit's own sum of weights may round to the limit where the
            // downdated one does not: the same rounding case as above, the other way round.
            Err(_) if on_boundary(i) => continue,
            Err(e) => {
                return Err(TestCaseError::fail(format!(
                    "refit without row {i} failed ({e}) but leave-one-out succeeded"
                )));
            }
        };
        let xi = x.slice(s![i..=i, ..]);
        for (r, region) in regions.iter().enumerate() {
            let expected = refit.region_log_likelihood(xi, region).unwrap();
            for k in 0..refit.n_classes() {
                let got = loo.region_log_likelihood[[i, r, k]];
                let want = expected[[0, k]];
                prop_assert!(
                    close(got, want, tol),
                    "row {}, region {:?}, class {}: leave-one-out {} vs refit {}",
                    i,
                    region,
                    k,
                    got,
                    want
                );
            }
        }
        let prior = refit.log_prior();
        for k in 0..refit.n_classes() {
            prop_assert!(
                close(loo.log_prior[[i, k]], prior[k], 1e-13),
                "row {}, class {}: prior {} vs {}",
                i,
                k,
                loo.log_prior[[i, k]],
                prior[k]
            );
        }
    }
    Ok(())
}

/// Regions exercised on `d` features: all of them, each single feature, and the features in
/// reverse order without the first.
fn regions(d: usize) -> Vec<Vec<usize>> {
    let mut regions = vec![(0..d).collect::<Vec<_>>()];
    regions.extend((0..d).map(|j| vec![j]));
    regions.push((1..d).rev().collect());
    regions
}

/// A small training set: `n` rows, `d` columns, `k` classes, optional weights.
#[derive(Debug, Clone)]
struct Data {
    x: Array2<f64>,
    y: Array1<usize>,
    w: Option<Array1<f64>>,
    n_classes: usize,
}

/// Labels drawn freely (so that some classes end up with one or two rows, exercising the
/// errors), values from `value`, weights (when drawn) in {0, 0.1, 0.5, 0.7, 1, 2.5}, some of which round.
fn data(value: impl Strategy<Value = f64> + Clone + 'static) -> impl Strategy<Value = Data> {
    (2usize..=3, 1usize..=4, 4usize..=10).prop_flat_map(move |(k, d, n)| {
        (
            prop::collection::vec(value.clone(), n * d),
            prop::collection::vec(0..k, n),
            prop::option::of(prop::collection::vec(
                prop::sample::select(vec![0.0, 0.1, 0.5, 0.7, 1.0, 2.5]),
                n,
            )),
        )
            .prop_map(move |(x, y, w)| {
                // Every class gets at least its first two rows, so that most cases fit.
                let mut y = Array1::from(y);
                for c in 0..k.min(n / 2) {
                    y[2 * c] = c;
                    y[2 * c + 1] = c;
                }
                Data {
                    x: Array2::from_shape_vec((n, d), x).unwrap(),
                    y,
                    w: w.map(Array1::from),
                    n_classes: k,
                }
            })
    })
}

/// Continuous values, or values on a coarse grid (ties and constant columns).
fn real_value() -> impl Strategy<Value = f64> + Clone {
    prop_oneof![
        -3.0f64..3.0,
        prop::sample::select(vec![-1.0, 0.0, 0.5, 1.0, 2.0])
    ]
}

fn gaussian_options() -> Vec<(VarianceStructure, VarianceEstimator, f64, ClassPriors)> {
    let mut options = Vec::new();
    for structure in [VarianceStructure::PerClass, VarianceStructure::Pooled] {
        for estimator in [
            VarianceEstimator::MaximumLikelihood,
            VarianceEstimator::Unbiased,
        ] {
            for var_smoothing in [1e-9, 1e-2] {
                options.push((structure, estimator, var_smoothing, ClassPriors::Empirical));
            }
        }
    }
    options.push((
        VarianceStructure::PerClass,
        VarianceEstimator::MaximumLikelihood,
        1e-9,
        ClassPriors::Uniform,
    ));
    options
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn gaussian_equals_refits(data in data(real_value())) {
        let regions = regions(data.x.ncols());
        let w = data.w.as_ref().map(|w| w.view());
        for (structure, estimator, var_smoothing, priors) in gaussian_options() {
            let params = GaussianNb::params()
                .variance(structure)
                .variance_estimator(estimator)
                .var_smoothing(var_smoothing)
                .priors(priors)
                .n_classes(data.n_classes);
            if fit_maybe_weighted(&params, data.x.view(), data.y.view(), w).is_err() {
                continue;
            }
            let loo = params.fit_leave_one_out(data.x.view(), data.y.view(), w, &regions);
            // With unbiased variances, removing a row can leave a total weight of exactly 1
            // per class (or K pooled): a divisor of zero, which a refit's differently rounded
            // sum of weights may miss.
            let on_boundary = |i: usize| {
                let weight = |r: usize| data.w.as_ref().map_or(1.0, |w| w[r]);
                let (remaining, limit) = match structure {
                    VarianceStructure::PerClass => (
                        (0..data.y.len())
                            .filter(|&r| r != i && data.y[r] == data.y[i])
                            .map(weight)
                            .sum::<f64>(),
                        1.0,
                    ),
                    VarianceStructure::Pooled => (
                        (0..data.y.len()).filter(|&r| r != i).map(weight).sum::<f64>(),
                        data.n_classes as f64,
                    ),
                };
                estimator == VarianceEstimator::Unbiased && (remaining - limit).abs() < 1e-9
            };
            // Downdated sums of squares carry a relative round-off of about ε·M/M′.
            check_against_refits(
                loo,
                data.x.view(),
                data.y.view(),
                w,
                &regions,
                1e-8,
                &on_boundary,
                |x, y, w| fit_maybe_weighted(&params, x, y, w),
            )?;
        }
    }

    #[test]
    fn bernoulli_equals_refits(data in data(prop::sample::select(vec![0.0, 1.0]))) {
        let regions = regions(data.x.ncols());
        let w = data.w.as_ref().map(|w| w.view());
        for alpha in [1.0, 0.5, 0.0] {
            let params = BernoulliNb::params().alpha(alpha).n_classes(data.n_classes);
            if fit_maybe_weighted(&params, data.x.view(), data.y.view(), w).is_err() {
                continue;
            }
            let loo = params.fit_leave_one_out(data.x.view(), data.y.view(), w, &regions);
            check_against_refits(
                loo,
                data.x.view(),
                data.y.view(),
                w,
                &regions,
                1e-12,
                &|_| false,
                |x, y, w| fit_maybe_weighted(&params, x, y, w),
            )?;
        }
    }

    #[test]
    fn multinomial_equals_refits(data in data(prop::sample::select(vec![0.0, 0.0, 1.0, 2.0, 5.0]))) {
        let regions = regions(data.x.ncols());
        let w = data.w.as_ref().map(|w| w.view());
        for alpha in [1.0, 0.5, 0.0] {
            let params = MultinomialNb::params().alpha(alpha).n_classes(data.n_classes);
            if fit_maybe_weighted(&params, data.x.view(), data.y.view(), w).is_err() {
                continue;
            }
            let loo = params.fit_leave_one_out(data.x.view(), data.y.view(), w, &regions);
            check_against_refits(
                loo,
                data.x.view(),
                data.y.view(),
                w,
                &regions,
                1e-12,
                &|_| false,
                |x, y, w| fit_maybe_weighted(&params, x, y, w),
            )?;
        }
    }

    /// Regions as separate count matrices (a subject and a body over one vocabulary): the
    /// leave-one-out values of each region equal the region's likelihood under the model
    /// refitted on the other documents' total counts.
    #[test]
    fn multinomial_sparse_regions_equal_refits(
        data in data(prop::sample::select(vec![0.0, 0.0, 1.0, 2.0, 5.0])),
        cut in prop::collection::vec(0.0f64..=1.0, 40),
    ) {
        let w = data.w.as_ref().map(|w| w.view());
        // Split every count between two regions.
        let subject = Array2::from_shape_fn(data.x.raw_dim(), |(i, j)| {
            (data.x[[i, j]] * cut[(i * 4 + j) % cut.len()]).floor()
        });
        let body = &data.x - &subject;
        let regions = [
            sprs::CsMat::csr_from_dense(subject.view(), 0.0),
            sprs::CsMat::csr_from_dense(body.view(), 0.0),
        ];
        let views = [regions[0].view(), regions[1].view()];
        for alpha in [1.0, 0.5] {
            let params = MultinomialNb::params().alpha(alpha).n_classes(data.n_classes);
            let Ok(valid) = params.check_ref() else { continue };
            if fit_maybe_weighted(&params, data.x.view(), data.y.view(), w).is_err() {
                continue;
            }
            let Ok(loo) = valid.fit_leave_one_out_sparse(&views, data.y.view(), w) else {
                continue;
            };
            for i in 0..data.x.nrows() {
                let (xi, yi, wi) = without_row(data.x.view(), data.y.view(), w, i);
                let refit = fit_maybe_weighted(&params, xi.view(), yi.view(), wi.as_ref().map(|w| w.view())).unwrap();
                for (r, region) in [&subject, &body].into_iter().enumerate() {
                    let expected = refit.class_log_likelihood(region.slice(s![i..=i, ..])).unwrap();
                    for k in 0..data.n_classes {
                        let got = loo.region_log_likelihood[[i, r, k]];
                        prop_assert!(close(got, expected[[0, k]], 1e-12), "row {i} region {r} class {k}: {got} vs {}", expected[[0, k]]);
                    }
                }
            }
        }
    }

    #[test]
    fn categorical_equals_refits(data in data(prop::sample::select(vec![0.0, 1.0, 2.0, 3.0]))) {
        let regions = regions(data.x.ncols());
        let w = data.w.as_ref().map(|w| w.view());
        for alpha in [1.0, 0.0] {
            let params = CategoricalNb::params().alpha(alpha).n_classes(data.n_classes);
            let Ok(full) = fit_maybe_weighted(&params, data.x.view(), data.y.view(), w) else {
                continue;
            };
            let loo = params.fit_leave_one_out(data.x.view(), data.y.view(), w, &regions);
            // The refit keeps the full model's levels (see the module documentation).
            let refit_params = params.clone().n_levels(full.n_levels());
            check_against_refits(
                loo,
                data.x.view(),
                data.y.view(),
                w,
                &regions,
                1e-12,
                &|_| false,
                |x, y, w| fit_maybe_weighted(&refit_params, x, y, w),
            )?;
        }
    }

    /// Integer weights count rows: leave-one-out on a row of weight 1 equals leave-one-out on
    /// the same data with every weight given as 1.
    #[test]
    fn unit_weights_are_no_weights(data in data(-3.0f64..3.0)) {
        let regions = regions(data.x.ncols());
        let ones = Array1::ones(data.x.nrows());
        let params = GaussianNb::params().n_classes(data.n_classes);
        let plain = params.fit_leave_one_out(data.x.view(), data.y.view(), None, &regions);
        let weighted =
            params.fit_leave_one_out(data.x.view(), data.y.view(), Some(ones.view()), &regions);
        match (plain, weighted) {
            (Ok(a), Ok(b)) => {
                prop_assert_eq!(a.region_log_likelihood, b.region_log_likelihood);
                prop_assert_eq!(a.log_prior, b.log_prior);
            }
            (Err(_), Err(_)) => {}
            (a, b) => prop_assert!(false, "{:?} vs {:?}", a.err(), b.err()),
        }
    }
}

#[test]
fn gaussian_by_hand() {
    // Class 0: x = 1, 2, 3; class 1: x = 6, 8. Without row 0, class 0 is {2, 3}: mean 2.5, ML
    // variance 0.25; the column over the other rows {2, 3, 6, 8} (mean 4.75) has ML variance
    // (2.75² + 1.75² + 1.25² + 3.25²) / 4 = 22.75 / 4.
    let x = array![[1.0], [2.0], [3.0], [6.0], [8.0]];
    let y = array![0, 0, 0, 1, 1];
    let loo = GaussianNb::params()
        .var_smoothing(1e-3)
        .fit_leave_one_out(x.view(), y.view(), None, &[vec![0]])
        .unwrap();
    let floor = 1e-3 * 22.75 / 4.0;
    let log_normal = |x: f64, mean: f64, variance: f64| {
        -0.5 * (std::f64::consts::TAU * variance).ln() - (x - mean).powi(2) / (2.0 * variance)
    };
    let expected_0 = log_normal(1.0, 2.5, 0.25 + floor);
    // Class 1 keeps its mean 7 and ML variance 1, with the new floor.
    let expected_1 = log_normal(1.0, 7.0, 1.0 + floor);
    assert!(close(loo.region(0)[[0, 0]], expected_0, 1e-13));
    assert!(close(loo.region(0)[[0, 1]], expected_1, 1e-13));
    // Empirical prior without row 0: 2/4 and 2/4.
    assert!(close(loo.log_prior[[0, 0]], 0.5f64.ln(), 1e-15));
    assert!(close(loo.log_prior[[0, 1]], 0.5f64.ln(), 1e-15));
    // The model is the full fit.
    let full = GaussianNb::params()
        .var_smoothing(1e-3)
        .fit(x.view(), y.view())
        .unwrap();
    assert_eq!(loo.model, full);
}

#[test]
fn floor_falls_back_to_scale_one_when_the_rest_is_constant() {
    // Without row 2 every remaining value is 1: no scale, so ε = var_smoothing · 1, as in a
    // refit; and class 1's remaining rows are constant, so its variance is exactly ε.
    let x = array![[1.0], [1.0], [5.0], [1.0]];
    let y = array![0, 0, 1, 1];
    let params = GaussianNb::params();
    let loo = params
        .fit_leave_one_out(x.view(), y.view(), None, &[vec![0]])
        .unwrap();
    let refit = params
        .fit(x.select(Axis(0), &[0, 1, 3]).view(), array![0, 0, 1].view())
        .unwrap();
    assert_eq!(refit.variance_floor(), 1e-9);
    let expected = refit
        .region_log_likelihood(x.slice(s![2..3, ..]), &[0])
        .unwrap();
    assert_eq!(loo.region(0).row(2), expected.row(0));
}

#[test]
fn removing_the_only_row_of_a_class_is_an_error_naming_it() {
    let x = array![[0.0], [1.0], [2.0], [5.0]];
    let y = array![0, 0, 0, 1];
    let err = GaussianNb::params()
        .fit_leave_one_out(x.view(), y.view(), None, &[vec![0]])
        .unwrap_err();
    assert!(matches!(err, Error::EmptyClass { class: 1, .. }), "{err}");
    assert!(err.to_string().contains("without row 3"), "{err}");
    for result in [
        BernoulliNb::params()
            .fit_leave_one_out(
                x.mapv(|v| f64::from(v > 0.5)).view(),
                y.view(),
                None,
                &[[0]],
            )
            .map(|_| ()),
        CategoricalNb::params()
            .fit_leave_one_out(x.view(), y.view(), None, &[[0]])
            .map(|_| ()),
    ] {
        let err = result.unwrap_err();
        assert!(matches!(err, Error::EmptyClass { class: 1, .. }), "{err}");
        assert!(err.to_string().contains("without row 3"), "{err}");
    }
    // A class-mate of zero weight does not count: row 3 is still the only row of class 1.
    let x2 = array![[0.0], [1.0], [2.0], [5.0], [6.0]];
    let y2 = array![0, 0, 0, 1, 1];
    let w2 = array![1.0, 1.0, 1.0, 1.0, 0.0];
    let err = GaussianNb::params()
        .fit_leave_one_out(x2.view(), y2.view(), Some(w2.view()), &[vec![0]])
        .unwrap_err();
    assert!(err.to_string().contains("without row 3"), "{err}");
}

#[test]
fn unbiased_variance_needs_two_remaining_rows() {
    let x = array![[0.0], [1.0], [2.0], [5.0], [7.0]];
    let y = array![0, 0, 0, 1, 1];
    let err = GaussianNb::params()
        .variance_estimator(VarianceEstimator::Unbiased)
        .fit_leave_one_out(x.view(), y.view(), None, &[vec![0]])
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::TooFewRows {
                needed: 2,
                found: 1,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("without row 3"), "{err}");
    // Pooled: 5 rows, 2 classes; removing any row leaves 4 > 2.
    assert!(GaussianNb::params()
        .variance(VarianceStructure::Pooled)
        .variance_estimator(VarianceEstimator::Unbiased)
        .fit_leave_one_out(x.view(), y.view(), None, &[vec![0]])
        .is_ok());
}

#[test]
fn zero_weight_rows_see_the_full_model() {
    let x = array![
        [0.0, 1.0],
        [1.0, 1.0],
        [2.0, 0.0],
        [5.0, 1.0],
        [7.0, 0.0],
        [4.0, 0.5]
    ];
    let y = array![0, 0, 0, 1, 1, 1];
    let w = array![1.0, 2.0, 1.0, 1.0, 1.0, 0.0];
    let loo = GaussianNb::params()
        .fit_leave_one_out(x.view(), y.view(), Some(w.view()), &[vec![0, 1]])
        .unwrap();
    let full = loo
        .model
        .region_log_likelihood(x.slice(s![5..6, ..]), &[0, 1])
        .unwrap();
    assert_eq!(loo.region(0).row(5), full.row(0));
    assert_eq!(loo.log_prior.row(5), loo.model.log_prior());
}

#[test]
fn bad_regions_and_bad_data_are_errors() {
    let x = array![[0.0, 1.0], [1.0, 1.0], [2.0, 0.0], [5.0, 1.0]];
    let y = array![0, 0, 1, 1];
    let p = GaussianNb::params();
    assert!(matches!(
        p.fit_leave_one_out(x.view(), y.view(), None, &[vec![2]]),
        Err(Error::InvalidValue { .. })
    ));
    assert!(matches!(
        p.fit_leave_one_out(x.view(), y.view(), None, &[vec![0, 0]]),
        Err(Error::InvalidValue { .. })
    ));
    let mut nan = x.clone();
    nan[[1, 1]] = f64::NAN;
    assert!(matches!(
        p.fit_leave_one_out(nan.view(), y.view(), None, &[vec![0]]),
        Err(Error::NonFinite {
            row: 1,
            column: 1,
            ..
        })
    ));
    assert!(matches!(
        p.fit_leave_one_out(x.view(), array![0, 1].view(), None, &[vec![0]]),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        BernoulliNb::params().fit_leave_one_out(x.view(), y.view(), None, &[vec![0]]),
        Err(Error::InvalidValue {
            row: 2,
            column: 0,
            ..
        })
    ));
    assert!(matches!(
        GaussianNb::params().var_smoothing(-1.0).fit_leave_one_out(
            x.view(),
            y.view(),
            None,
            &[vec![0]]
        ),
        Err(Error::InvalidParameter { .. })
    ));
}

#[test]
fn counts_only_the_removed_row_had_are_exactly_zero() {
    // Class 0 holds ones of weight 0.1 and 0.2 and a zero of weight 0.3 (row 2). Without row
    // 2 no zero is left: with α = 0, p₋₂(x = 0 | y = 0) is exactly 0, as in a refit, although
    // (W − w) − c = (0.6 − 0.3) − 0.3 is 5.6e-17 in floating point.
    let x = array![[1.0], [1.0], [0.0], [0.0], [1.0]];
    let y = array![0, 0, 0, 1, 1];
    let w = array![0.1, 0.2, 0.3, 1.0, 1.0];
    let params = BernoulliNb::params().alpha(0.0);
    let loo = params
        .fit_leave_one_out(x.view(), y.view(), Some(w.view()), &[vec![0]])
        .unwrap();
    let keep = [0, 1, 3, 4];
    let refit = params
        .fit_weighted(
            x.select(Axis(0), &keep).view(),
            y.select(Axis(0), &keep).view(),
            w.select(Axis(0), &keep).view(),
        )
        .unwrap();
    let expected = refit
        .region_log_likelihood(x.slice(s![2..3, ..]), &[0])
        .unwrap();
    assert_eq!(expected[[0, 0]], f64::NEG_INFINITY);
    assert_eq!(loo.region(0)[[2, 0]], f64::NEG_INFINITY);
    // The other class is untouched: p(x = 0 | y = 1) = 1/2.
    assert!(close(loo.region(0)[[2, 1]], 0.5f64.ln(), 1e-15));
}

#[test]
fn cancelling_downdates_are_recomputed() {
    // Without row 2, class 1's column 1 holds two values 4e-5 apart: M′ ≈ 7e-10 from M ≈ 1.5.
    // Downdating would lose seven digits (and the variance is floor-sized, so they show); the
    // column is recomputed from the remaining rows and matches a refit.
    let x = array![
        [0.0, 0.0],
        [0.0, 0.0],
        [0.0, 0.0],
        [0.0, 1.5134539088838699],
        [0.0, 1.5134924702676986],
        [0.0, 0.0],
        [0.0, 0.0],
        [0.0, 0.0]
    ];
    let y = array![0, 0, 1, 1, 1, 0, 0, 0];
    let params = GaussianNb::params();
    let loo = params
        .fit_leave_one_out(x.view(), y.view(), None, &[vec![0, 1]])
        .unwrap();
    let keep = [0, 1, 3, 4, 5, 6, 7];
    let refit = params
        .fit(
            x.select(Axis(0), &keep).view(),
            y.select(Axis(0), &keep).view(),
        )
        .unwrap();
    let expected = refit
        .region_log_likelihood(x.slice(s![2..3, ..]), &[0, 1])
        .unwrap();
    for k in 0..2 {
        assert!(
            close(loo.region(0)[[2, k]], expected[[0, k]], 1e-12),
            "{} vs {}",
            loo.region(0)[[2, k]],
            expected[[0, k]]
        );
    }
}
