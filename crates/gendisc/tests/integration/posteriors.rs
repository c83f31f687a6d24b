//! Every model with a conditional distribution, on hostile data: columns whose scales span
//! `10⁻³⁰⁰ … 10³⁰⁰`, constant columns and rows repeated with different classes. Each fit either
//! fails with a typed error or gives posteriors that are distributions — every row of
//! `predict_proba` finite, non-negative and summing to 1 within
//! [`PROBABILITY_SUM_TOLERANCE`](gendisc::core::numerics::PROBABILITY_SUM_TOLERANCE), every row
//! of `predict_log_proba` log-sum-exping to 0 within it — and `predict` picks a most probable
//! class of each row.

use gendisc::core::numerics::{log_sum_exp_view, PROBABILITY_SUM_TOLERANCE};
use gendisc::discriminative::logistic::LogisticSolver;
use gendisc::discriminative::{LogisticRegression, LogisticRegressionCv};
use gendisc::gdt::{Family, Gdt, GdtCv};
use gendisc::generative::{
    Balls1, Balls2, BernoulliNb, CategoricalNb, CovarianceShrinkage, GaussianNb, Lda,
    MultinomialNb, Qda,
};
use gendisc::hybrid::{Hybrid, Normalization};
use gendisc::{ConditionalModel, Error, Fit};
use ndarray::{Array1, Array2, ArrayView2, Axis};
use proptest::prelude::*;

/// Hostile training data and rows to predict.
#[derive(Debug, Clone)]
struct Case {
    x: Array2<f64>,
    y: Array1<usize>,
    /// Rows to predict: the training rows and new rows on the same scales.
    x_test: Array2<f64>,
}

/// What a column is.
#[derive(Debug, Clone, Copy)]
enum Column {
    /// Values of order `10^exponent`.
    Scaled(f64),
    /// One value in every row.
    Constant(f64),
}

fn column() -> impl Strategy<Value = Column> {
    prop_oneof![
        4 => (-300.0f64..300.0).prop_map(Column::Scaled),
        1 => (-300.0f64..300.0).prop_map(|e| Column::Constant(10f64.powf(e))),
    ]
}

/// `n` rows of `2–3` classes over `1–4` columns; `repeats` rows are copies of earlier rows
/// under another class.
fn case() -> impl Strategy<Value = Case> {
    (
        2usize..=3,
        prop::collection::vec(column(), 1..=4),
        8usize..30,
        0usize..4,
    )
        .prop_flat_map(|(k, columns, n, repeats)| {
            let d = columns.len();
            (
                Just(k),
                Just(columns),
                prop::collection::vec(-1.0f64..1.0, (n + 6) * d),
                prop::collection::vec(0..k, n),
                Just(repeats),
            )
        })
        .prop_map(|(k, columns, unit, labels, repeats)| {
            let d = columns.len();
            let n = labels.len();
            let value = |i: usize, j: usize| match columns[j] {
                // Class-dependent location, so that the classes differ.
                Column::Scaled(e) => 10f64.powf(e) * (unit[i * d + j] + 0.5 * labels[i % n] as f64),
                Column::Constant(c) => c,
            };
            let mut x = Array2::from_shape_fn((n, d), |(i, j)| value(i, j));
            let mut y = Array1::from(labels.clone());
            // Every class present; then repeats of row 0 under the other classes.
            for c in 0..k {
                y[c] = c;
            }
            for r in 0..repeats.min(n - k) {
                let (from, to) = (r % k, k + r);
                let row = x.row(from).to_owned();
                x.row_mut(to).assign(&row);
                y[to] = (y[from] + 1) % k;
            }
            let fresh = Array2::from_shape_fn((6, d), |(i, j)| value(n + i, j));
            let x_test = ndarray::concatenate![Axis(0), x.view(), fresh.view()];
            Case { x, y, x_test }
        })
}

/// The checks on one fitted model; a fit error passes. On the training rows every prediction
/// must succeed; a new row may be one the model calls impossible (a typed numerical error).
fn check<M: ConditionalModel>(
    name: &str,
    fitted: gendisc::Result<M>,
    case: &Case,
) -> Result<(), TestCaseError> {
    let model = match fitted {
        Ok(model) => model,
        Err(_) => return Ok(()),
    };
    check_rows(name, &model, case.x.view())?;
    for row in case.x_test.axis_iter(Axis(0)).skip(case.x.nrows()) {
        match check_rows(name, &model, row.insert_axis(Axis(0))) {
            Err(e) if e.to_string().contains("IMPOSSIBLE") => {}
            other => other?,
        }
    }
    Ok(())
}

fn check_rows<M: ConditionalModel>(
    name: &str,
    model: &M,
    x: ArrayView2<'_, f64>,
) -> Result<(), TestCaseError> {
    let fail = |what: &str, e: Error| {
        let kind = if matches!(e, Error::Numerical { .. }) {
            "IMPOSSIBLE "
        } else {
            ""
        };
        TestCaseError::fail(format!("{kind}{name}: {what} failed after a fit: {e}"))
    };
    let proba = model
        .predict_proba(x)
        .map_err(|e| fail("predict_proba", e))?;
    let log_proba = model
        .predict_log_proba(x)
        .map_err(|e| fail("predict_log_proba", e))?;
    let predicted = model.predict(x).map_err(|e| fail("predict", e))?;
    for (i, (p, lp)) in proba
        .axis_iter(Axis(0))
        .zip(log_proba.axis_iter(Axis(0)))
        .enumerate()
    {
        prop_assert!(
            p.iter().all(|v| v.is_finite() && *v >= 0.0),
            "{name}: row {i} of predict_proba is {p}"
        );
        let total: f64 = p.sum();
        prop_assert!(
            (total - 1.0).abs() <= PROBABILITY_SUM_TOLERANCE,
            "{name}: row {i} of predict_proba sums to {total}: {p}"
        );
        let log_total = log_sum_exp_view(lp);
        prop_assert!(
            log_total.abs() <= PROBABILITY_SUM_TOLERANCE,
            "{name}: row {i} of predict_log_proba log-sum-exps to {log_total}: {lp}"
        );
        let best = p.fold(0.0_f64, |m, &v| m.max(v));
        prop_assert!(
            p[predicted[i]] == best,
            "{name}: row {i} predicts class {} of {p}",
            predicted[i]
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn gaussian_models(case in case()) {
        let (x, y, t) = (case.x.view(), case.y.view(), &case);
        check("Gaussian naive Bayes", GaussianNb::params().fit(x, y), t)?;
        check("LDA", Lda::params().fit(x, y), t)?;
        check("QDA", Qda::params().fit(x, y), t)?;
        let shrinkage = CovarianceShrinkage::ScaledIdentity(0.1);
        check("LDA, shrinkage", Lda::params().shrinkage(shrinkage).fit(x, y), t)?;
        check("QDA, shrinkage", Qda::params().regularization(shrinkage).fit(x, y), t)?;
        check("Balls1", Balls1::params().fit(x, y), t)?;
        check("Balls2", Balls2::params().fit(x, y), t)?;
    }

    #[test]
    fn discrete_naive_bayes(case in case()) {
        let transformed = |f: fn(f64) -> f64| Case {
            x: case.x.mapv(f),
            y: case.y.clone(),
            x_test: case.x_test.mapv(f),
        };
        let binary = transformed(|v| f64::from(u8::from(v > 0.0)));
        let counts = transformed(f64::abs);
        let (b, y) = (binary.x.view(), case.y.view());
        check("Bernoulli naive Bayes", BernoulliNb::params().fit(b, y), &binary)?;
        check("categorical naive Bayes", CategoricalNb::params().fit(b, y), &binary)?;
        check("multinomial naive Bayes", MultinomialNb::params().fit(counts.x.view(), y), &counts)?;
    }

    #[test]
    fn logistic_regression(case in case()) {
        let (x, y, t) = (case.x.view(), case.y.view(), &case);
        check("logistic regression", LogisticRegression::params().fit(x, y), t)?;
        check("logistic regression, L2", LogisticRegression::params().prior_variance(1.0).fit(x, y), t)?;
        if case.y.iter().all(|&c| c < 2) {
            check("logistic regression, glm", LogisticRegression::params().solver(LogisticSolver::GlmIrls).fit(x, y), t)?;
        }
    }

    #[test]
    fn hybrids(case in case()) {
        let (x, y, t) = (case.x.view(), case.y.view(), &case);
        let regions: Vec<Vec<usize>> = (0..case.x.ncols()).map(|j| vec![j]).collect();
        for normalization in [Normalization::Normalized, Normalization::Unnormalized] {
            let params = Hybrid::params(GaussianNb::params())
                .regions(regions.clone())
                .normalization(normalization);
            check(&format!("{normalization:?} hybrid of Gaussian naive Bayes"), params.fit(x, y), t)?;
        }
    }

    #[test]
    fn generative_discriminative_trade_off(case in case(), lambda in prop_oneof![Just(0.0), Just(0.5), Just(1.0)]) {
        let (x, y, t) = (case.x.view(), case.y.view(), &case);
        for family in [Family::Lda, Family::Qda, Family::Balls1, Family::Balls2, Family::SharedDiagonal] {
            check(&format!("GDT {family} at λ = {lambda}"), Gdt::params(family).lambda(lambda).fit(x, y), t)?;
        }
    }

    #[test]
    fn generative_discriminative_trade_off_by_cross_validation(case in case()) {
        let (x, y, t) = (case.x.view(), case.y.view(), &case);
        check("GDT-CV Balls1", GdtCv::params(Family::Balls1).grid(vec![0.0, 0.5, 1.0]).n_folds(2).fit(x, y), t)?;
    }
}

/// A row of magnitudes up to `±1.8 · 10³⁰⁸` (the largest finite double), each entry either an
/// ordinary value or one of order `10^e`.
fn extreme_row(d: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(
        prop_oneof![
            1 => -3.0f64..3.0,
            2 => (-1.0f64..1.0, 0.0f64..308.0).prop_map(|(u, e)| u.signum() * 10f64.powf(e)),
            1 => prop_oneof![Just(f64::MAX), Just(-f64::MAX), Just(1e308), Just(-1e308)],
        ],
        d,
    )
}

/// Fitted on ordinary data, asked about rows of any finite magnitude: `predict_proba` is a
/// distribution on each row, or the call is a typed numerical error naming the row; `predict`
/// then agrees (the most probable class, or the same kind of error). `always` models must answer.
fn check_extreme<M: ConditionalModel>(
    name: &str,
    model: &M,
    rows: &Array2<f64>,
    always: bool,
) -> Result<(), TestCaseError> {
    for (i, row) in rows.axis_iter(Axis(0)).enumerate() {
        let x = row.insert_axis(Axis(0));
        match model.predict_proba(x) {
            Ok(p) => {
                let p = p.row(0);
                prop_assert!(
                    p.iter().all(|v| v.is_finite() && *v >= 0.0),
                    "{name}: predict_proba of {row} is {p}"
                );
                let total: f64 = p.sum();
                prop_assert!(
                    (total - 1.0).abs() <= PROBABILITY_SUM_TOLERANCE,
                    "{name}: predict_proba of {row} sums to {total}: {p}"
                );
                let lp = model.predict_log_proba(x).map_err(|e| {
                    TestCaseError::fail(format!("{name}: predict_log_proba of {row}: {e}"))
                })?;
                let log_total = log_sum_exp_view(lp.row(0));
                prop_assert!(log_total.abs() <= PROBABILITY_SUM_TOLERANCE, "{name}: {lp}");
                let class = model
                    .predict(x)
                    .map_err(|e| TestCaseError::fail(format!("{name}: predict of {row}: {e}")))?[0];
                let best = p.fold(0.0_f64, |m, &v| m.max(v));
                prop_assert!(p[class] == best, "{name}: {row} predicts {class} of {p}");
            }
            Err(e) => {
                prop_assert!(
                    !always,
                    "{name}: predict_proba of row {i} ({row}) failed: {e}"
                );
                prop_assert!(
                    matches!(e, Error::Numerical { .. }) && e.to_string().contains("row 0"),
                    "{name}: not a typed error naming the row: {e}"
                );
                prop_assert!(
                    matches!(model.predict(x), Err(Error::Numerical { .. })),
                    "{name}: predict answers a row whose posterior is undefined: {row}"
                );
            }
        }
    }
    Ok(())
}

/// Two or three overlapping classes of ordinary data over `d` columns.
fn ordinary(k: usize, d: usize, seed: u64) -> (Array2<f64>, Array1<usize>) {
    let n = 40;
    let y = Array1::from_shape_fn(n, |i| i % k);
    // A deterministic scatter: class-shifted, and no two rows alike.
    let x = Array2::from_shape_fn((n, d), |(i, j)| {
        let u = ((i * 7 + j * 13 + seed as usize) % 17) as f64 / 17.0 - 0.5;
        u + 0.4 * y[i] as f64 * if j % 2 == 0 { 1.0 } else { -1.0 }
    });
    (x, y)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Every `ConditionalModel` on rows of finite inputs up to `±10³⁰⁸`. Logistic regression's
    /// scores are linear and recomputed in a scaled domain where they overflow, so it answers
    /// every such row.
    #[test]
    fn every_model_answers_any_finite_row_or_says_which_it_cannot(
        (k, d, seed, rows) in (2usize..=3, 1usize..=4, 0u64..1000).prop_flat_map(|(k, d, seed)| {
            (Just(k), Just(d), Just(seed), prop::collection::vec(extreme_row(d), 6))
        }),
    ) {
        let (x, y) = ordinary(k, d, seed);
        let rows = Array2::from_shape_vec((rows.len(), d), rows.concat()).unwrap();
        let (x, y) = (x.view(), y.view());
        let binary = x.mapv(|v| f64::from(u8::from(v > 0.0)));
        let counts = x.mapv(|v| (4.0 * v.abs()).round());
        let binary_rows = rows.mapv(|v| f64::from(u8::from(v > 0.0)));
        let count_rows = rows.mapv(|v| v.abs().round());

        check_extreme("Gaussian naive Bayes", &GaussianNb::params().fit(x, y).unwrap(), &rows, false)?;
        check_extreme("LDA", &Lda::params().fit(x, y).unwrap(), &rows, false)?;
        check_extreme("QDA", &Qda::params().fit(x, y).unwrap(), &rows, false)?;
        check_extreme("Balls1", &Balls1::params().fit(x, y).unwrap(), &rows, false)?;
        check_extreme("Balls2", &Balls2::params().fit(x, y).unwrap(), &rows, false)?;
        check_extreme("Bernoulli naive Bayes", &BernoulliNb::params().fit(binary.view(), y).unwrap(), &binary_rows, true)?;
        check_extreme("categorical naive Bayes", &CategoricalNb::params().fit(binary.view(), y).unwrap(), &binary_rows, true)?;
        check_extreme("multinomial naive Bayes", &MultinomialNb::params().fit(counts.view(), y).unwrap(), &count_rows, false)?;
        for (name, params) in [
            ("logistic regression", LogisticRegression::params()),
            ("logistic regression, L2", LogisticRegression::params().prior_variance(1.0)),
        ] {
            check_extreme(name, &params.fit(x, y).unwrap(), &rows, true)?;
        }
        if k == 2 {
            let glm = LogisticRegression::params().solver(LogisticSolver::GlmIrls).fit(x, y).unwrap();
            check_extreme("logistic regression, glm", &glm, &rows, true)?;
        }
        let cv = LogisticRegressionCv::params().n_folds(2).fit(x, y).unwrap();
        check_extreme("logistic regression, CV", &cv, &rows, true)?;
        let regions: Vec<Vec<usize>> = (0..d).map(|j| vec![j]).collect();
        let hybrid = Hybrid::params(GaussianNb::params()).regions(regions).fit(x, y).unwrap();
        check_extreme("hybrid of Gaussian naive Bayes", &hybrid, &rows, false)?;
        for family in [Family::Lda, Family::Qda, Family::Balls1, Family::Balls2, Family::SharedDiagonal] {
            let gdt = Gdt::params(family).lambda(0.5).fit(x, y).unwrap();
            check_extreme(&format!("GDT {family}"), &gdt, &rows, false)?;
        }
        let gdt_cv = GdtCv::params(Family::Balls1).grid(vec![0.0, 0.5, 1.0]).n_folds(2).fit(x, y).unwrap();
        check_extreme("GDT-CV", &gdt_cv, &rows, false)?;
        let regions: Vec<Vec<usize>> = (0..d).map(|j| vec![j]).collect();
        let bernoulli = Hybrid::params(BernoulliNb::params()).regions(regions.clone()).fit(binary.view(), y).unwrap();
        check_extreme("hybrid of Bernoulli naive Bayes", &bernoulli, &binary_rows, false)?;
        let multinomial = Hybrid::params(MultinomialNb::params()).regions(regions).fit(counts.view(), y).unwrap();
        check_extreme("hybrid of multinomial naive Bayes", &multinomial, &count_rows, false)?;
    }
}
