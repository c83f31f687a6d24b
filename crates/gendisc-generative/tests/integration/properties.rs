//! Invariants of every model, checked on random data with proptest.

use crate::common::{cases, close};
use gendisc_core::{ConditionalModel, Fit, Generative};
use gendisc_generative::{Balls2, GaussianNb, Lda, VarianceStructure};
use ndarray::{Array1, Array2, Axis};
use proptest::prelude::*;

/// A training set with `K` classes in rotation (`y_i = i mod K`, so every class has at least
/// four rows), class means shifted apart, and test rows.
#[derive(Debug, Clone)]
struct Dataset {
    x: Array2<f64>,
    y: Array1<usize>,
    x_test: Array2<f64>,
    n_classes: usize,
}

fn dataset(max_classes: usize) -> impl Strategy<Value = Dataset> {
    (2..=max_classes, 1usize..=3, 12usize..40).prop_flat_map(|(k, d, n)| {
        (
            prop::collection::vec(-3.0f64..3.0, n * d),
            prop::collection::vec(-4.0f64..4.0, 5 * d),
        )
            .prop_map(move |(train, test)| {
                let y = Array1::from_iter((0..n).map(|i| i % k));
                let mut x = Array2::from_shape_vec((n, d), train).unwrap();
                for (mut row, &c) in x.axis_iter_mut(Axis(0)).zip(y.iter()) {
                    row[0] += 1.5 * c as f64;
                }
                Dataset {
                    x,
                    y,
                    x_test: Array2::from_shape_vec((5, d), test).unwrap(),
                    n_classes: k,
                }
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn probabilities_sum_to_one(data in dataset(3)) {
        for case in cases() {
            let x = (case.domain)(&data.x);
            let x_test = (case.domain)(&data.x_test);
            let model = (case.fit)(x.view(), data.y.view(), None)
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
            prop_assert_eq!(model.n_classes(), data.n_classes);
            let p = model.predict_proba(x_test.view()).unwrap();
            for row in p.axis_iter(Axis(0)) {
                prop_assert!((row.sum() - 1.0).abs() < 1e-12, "{}: {}", case.name, row);
                prop_assert!(row.iter().all(|v| (0.0..=1.0).contains(v)), "{}", case.name);
            }
            // predict is the argmax of the posterior.
            let predicted = model.predict(x_test.view()).unwrap();
            for (row, &k) in p.axis_iter(Axis(0)).zip(predicted.iter()) {
                prop_assert!(row.iter().all(|&v| v <= row[k]), "{}", case.name);
            }
        }
    }

    #[test]
    fn weights_of_ones_equal_the_unweighted_fit(data in dataset(3)) {
        let ones = Array1::ones(data.y.len());
        for case in cases() {
            let x = (case.domain)(&data.x);
            let x_test = (case.domain)(&data.x_test);
            let plain = (case.fit)(x.view(), data.y.view(), None).unwrap();
            let weighted = (case.fit)(x.view(), data.y.view(), Some(ones.view())).unwrap();
            let (a, b) = (plain.log_joint(x_test.view()).unwrap(), weighted.log_joint(x_test.view()).unwrap());
            prop_assert!(close(&a, &b, 1e-13), "{}: {} vs {}", case.name, a, b);
        }
    }

    #[test]
    fn integer_weights_equal_duplicated_rows(
        data in dataset(3),
        raw_weights in prop::collection::vec(0u32..4, 40),
    ) {
        let n = data.y.len();
        let k = data.n_classes;
        // Keep two rows of every class (rows 0..2K) in, so that Balls2 can still fit.
        let weights: Vec<u32> = (0..n)
            .map(|i| if i < 2 * k { raw_weights[i].max(1) } else { raw_weights[i] })
            .collect();
        let w = Array1::from_iter(weights.iter().map(|&v| f64::from(v)));
        // Each row repeated w_i times, in place: the order of the rows is kept.
        let repeated: Vec<usize> = (0..n).flat_map(|i| std::iter::repeat_n(i, weights[i] as usize)).collect();
        let y_dup = data.y.select(Axis(0), &repeated);
        for case in cases() {
            let x = (case.domain)(&data.x);
            let x_dup = x.select(Axis(0), &repeated);
            let x_test = (case.domain)(&data.x_test);
            let weighted = (case.fit)(x.view(), data.y.view(), Some(w.view())).unwrap();
            let duplicated = (case.fit)(x_dup.view(), y_dup.view(), None).unwrap();
            let (a, b) = (weighted.log_joint(x_test.view()).unwrap(), duplicated.log_joint(x_test.view()).unwrap());
            // EM may stop one iteration apart on the two round-off paths.
            let tol = if case.name == "Balls2" { 1e-6 } else { 1e-9 };
            prop_assert!(close(&a, &b, tol), "{}: {} vs {}", case.name, a, b);
        }
    }

    #[test]
    fn permuting_class_labels_permutes_the_columns(data in dataset(3), shift in 1usize..3) {
        let k = data.n_classes;
        let relabel = |c: usize| (c + shift) % k;
        let y_perm = data.y.mapv(relabel);
        for case in cases() {
            let x = (case.domain)(&data.x);
            let x_test = (case.domain)(&data.x_test);
            let a = (case.fit)(x.view(), data.y.view(), None).unwrap().predict_log_proba(x_test.view()).unwrap();
            let b = (case.fit)(x.view(), y_perm.view(), None).unwrap().predict_log_proba(x_test.view()).unwrap();
            let b_back = Array2::from_shape_fn(a.raw_dim(), |(i, c)| b[[i, relabel(c)]]);
            prop_assert!(close(&a, &b_back, 1e-12), "{}: {} vs {}", case.name, a, b_back);
        }
    }

    /// With variances pooled across classes (LDA-Λ), and for LDA, the log-odds are linear in
    /// `x`: the second difference along any line vanishes.
    #[test]
    fn pooled_variances_give_linear_log_odds(
        data in dataset(2),
        start in prop::collection::vec(-5.0f64..5.0, 3),
        direction in prop::collection::vec(-2.0f64..2.0, 3),
    ) {
        let d = data.x.ncols();
        let nb = GaussianNb::params().variance(VarianceStructure::Pooled).fit(data.x.view(), data.y.view()).unwrap();
        let lda = Lda::params().fit(data.x.view(), data.y.view()).unwrap();
        let line = Array2::from_shape_fn((3, d), |(t, j)| start[j] + t as f64 * direction[j]);
        for (name, f) in [
            ("pooled GaussianNb", nb.decision_function(line.view()).unwrap()),
            ("Lda", lda.decision_function(line.view()).unwrap()),
        ] {
            let second = f[0] - 2.0 * f[1] + f[2];
            let scale = f[0].abs() + 2.0 * f[1].abs() + f[2].abs() + 1.0;
            prop_assert!(second.abs() <= 1e-9 * scale, "{}: {} on {}", name, second, f);
        }
    }

    #[test]
    fn em_log_likelihood_never_decreases(data in dataset(3), seed in 0u64..1000) {
        let model = Balls2::params().seed(seed).tolerance(0.0).max_iterations(60)
            .fit(data.x.view(), data.y.view()).unwrap();
        let ll = model.class_log_likelihood(data.x.view()).unwrap();
        for (k, report) in model.report().classes.iter().enumerate() {
            let trace = &report.log_likelihood;
            prop_assert_eq!(trace.len(), report.iterations + 1);
            for pair in trace.windows(2) {
                prop_assert!(pair[1] >= pair[0] - 1e-10 * pair[0].abs().max(1.0), "class {}: {:?}", k, trace);
            }
            // The last entry is the log-likelihood of the returned parameters.
            let own: f64 = (0..data.y.len()).filter(|&i| data.y[i] == k).map(|i| ll[[i, k]]).sum();
            let last = *trace.last().unwrap();
            prop_assert!((own - last).abs() <= 1e-9 * last.abs().max(1.0), "{} vs {}", own, last);
        }
    }
}
