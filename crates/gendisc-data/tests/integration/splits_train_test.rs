//! The scikit-learn-style hold-out splits: sizes, partitions, determinism, class shares and
//! errors.

use std::collections::BTreeMap;

use gendisc_core::Error;
use gendisc_data::splits::{
    stratified_train_test_split, take_rows, train_test_split, TrainTestSplit,
};
use ndarray::{Array2, Axis};
use proptest::prelude::*;

/// A matrix whose row `i` is `[i, −i]`, so that a row tells where it came from.
fn numbered_rows(n: usize) -> Array2<f64> {
    Array2::from_shape_fn((n, 2), |(i, j)| if j == 0 { i as f64 } else { -(i as f64) })
}

/// Both sides are ascending, disjoint and cover `0..n`, and the data on each side are the rows
/// and labels the indices name.
fn assert_consistent<L: Clone + PartialEq + std::fmt::Debug>(
    split: &TrainTestSplit<L>,
    x: &Array2<f64>,
    y: &[L],
) -> Result<(), TestCaseError> {
    let rows = &split.rows;
    prop_assert!(rows.train.windows(2).all(|w| w[0] < w[1]));
    prop_assert!(rows.test.windows(2).all(|w| w[0] < w[1]));
    let mut all: Vec<usize> = rows.train.iter().chain(&rows.test).copied().collect();
    all.sort_unstable();
    prop_assert_eq!(all, (0..y.len()).collect::<Vec<_>>());
    prop_assert_eq!(&split.x_train, &take_rows(x.view(), &rows.train).unwrap());
    prop_assert_eq!(&split.x_test, &take_rows(x.view(), &rows.test).unwrap());
    let labels = |rows: &[usize]| rows.iter().map(|&i| y[i].clone()).collect::<Vec<_>>();
    prop_assert_eq!(&split.y_train, &labels(&rows.train));
    prop_assert_eq!(&split.y_test, &labels(&rows.test));
    Ok(())
}

fn class_counts<L: Ord + Clone>(labels: &[L]) -> BTreeMap<L, usize> {
    let mut counts = BTreeMap::new();
    for label in labels {
        *counts.entry(label.clone()).or_insert(0) += 1;
    }
    counts
}

#[test]
fn the_test_size_is_rounded_up() {
    for (n, fraction) in [
        (10, 0.25),
        (7, 0.3),
        (100, 0.2),
        (3, 0.5),
        (2, 0.01),
        (1000, 0.333),
    ] {
        let x = numbered_rows(n);
        let y: Vec<usize> = (0..n).map(|i| i % 2).collect();
        let expected = (fraction * n as f64).ceil() as usize;
        for split in [
            train_test_split(x.view(), &y, fraction, 3).unwrap(),
            stratified_train_test_split(x.view(), &y, fraction, 3).unwrap(),
        ] {
            assert_eq!(split.x_test.dim(), (expected, 2), "{n} × {fraction}");
            assert_eq!(split.x_train.nrows(), n - expected);
        }
    }
}

#[test]
fn string_labels_follow_their_rows() {
    let x = numbered_rows(12);
    let y: Vec<String> = (0..12).map(|i| format!("row {i}")).collect();
    let split = train_test_split(x.view(), &y, 0.5, 11).unwrap();
    for (row, label) in split.x_train.axis_iter(Axis(0)).zip(&split.y_train) {
        assert_eq!(label, &format!("row {}", row[0]));
    }
    for (row, label) in split.x_test.axis_iter(Axis(0)).zip(&split.y_test) {
        assert_eq!(label, &format!("row {}", row[0]));
    }
}

#[test]
fn the_seed_alone_decides_the_split() {
    let x = numbered_rows(50);
    let y: Vec<u8> = (0..50).map(|i| (i % 3) as u8).collect();
    let split = |seed| train_test_split(x.view(), &y, 0.3, seed).unwrap().rows;
    let stratified = |seed| {
        stratified_train_test_split(x.view(), &y, 0.3, seed)
            .unwrap()
            .rows
    };
    assert_eq!(split(5), split(5));
    assert_eq!(stratified(5), stratified(5));
    // Among C(50, 15) splits, three seeds giving the same one would be a broken stream.
    assert!(split(5) != split(6) || split(6) != split(7));
    assert!(stratified(5) != stratified(6) || stratified(6) != stratified(7));
}

#[test]
fn every_row_is_equally_likely_to_be_tested() {
    // 10 rows, 3 test rows: each row is tested with probability 0.3 over seeds.
    let x = numbered_rows(10);
    let y = [0; 10];
    let draws = 20_000;
    let mut tested = [0usize; 10];
    for seed in 0..draws {
        for &i in &train_test_split(x.view(), &y, 0.3, seed).unwrap().rows.test {
            tested[i] += 1;
        }
    }
    // Standard error √(0.3 · 0.7 / 20000) ≈ 0.0032; allow 4.
    for count in tested {
        let p = count as f64 / draws as f64;
        assert!(
            (p - 0.3).abs() < 4.0 * (0.21f64 / draws as f64).sqrt(),
            "{tested:?}"
        );
    }
}

#[test]
fn stratification_keeps_the_shares_and_both_sides() {
    // 60 "a", 30 "b", 10 "c": a fifth tested is 12, 6 and 2.
    let y: Vec<&str> = (0..100)
        .map(|i| match i % 10 {
            0 => "c",
            1..=3 => "b",
            _ => "a",
        })
        .collect();
    let x = numbered_rows(100);
    let split = stratified_train_test_split(x.view(), &y, 0.2, 9).unwrap();
    assert_eq!(
        class_counts(&split.y_test),
        BTreeMap::from([("a", 12), ("b", 6), ("c", 2)])
    );
    assert_eq!(
        class_counts(&split.y_train),
        BTreeMap::from([("a", 48), ("b", 24), ("c", 8)])
    );
    // A rare class of 3 rows among 100 still has a row on each side.
    let y: Vec<usize> = (0..100).map(|i| usize::from(i < 3)).collect();
    for seed in 0..20 {
        let split = stratified_train_test_split(x.view(), &y, 0.1, seed).unwrap();
        assert_eq!(split.y_test.iter().filter(|&&k| k == 1).count(), 1);
        assert_eq!(split.y_train.iter().filter(|&&k| k == 1).count(), 2);
    }
    // A class of one row stays in training.
    let y = ["x", "x", "x", "x", "x", "x", "x", "x", "x", "lonely"];
    let split = stratified_train_test_split(numbered_rows(10).view(), &y, 0.3, 0).unwrap();
    assert!(split.y_train.contains(&"lonely"));
    assert_eq!(split.y_test, ["x", "x", "x"]);
}

#[test]
fn bad_arguments_are_typed_errors() {
    let x = numbered_rows(10);
    let y = [0usize; 10];
    for fraction in [0.0, 1.0, -0.1, 1.5, f64::NAN, f64::INFINITY] {
        for result in [
            train_test_split(x.view(), &y, fraction, 0),
            stratified_train_test_split(x.view(), &y, fraction, 0),
        ] {
            assert!(
                matches!(
                    result,
                    Err(Error::InvalidParameter {
                        name: "test_fraction",
                        ..
                    })
                ),
                "{fraction}: {result:?}"
            );
        }
    }
    // ⌈0.95 × 10⌉ = 10 test rows leave no training row; so does any fraction of one row.
    for (x, fraction) in [(numbered_rows(10), 0.95), (numbered_rows(1), 0.5)] {
        let y = vec![0usize; x.nrows()];
        let err = train_test_split(x.view(), &y, fraction, 0).unwrap_err();
        assert!(
            matches!(err, Error::InvalidParameter { name: "test_fraction", ref reason } if reason.contains("no training row")),
            "{err}"
        );
        assert!(stratified_train_test_split(x.view(), &y, fraction, 0).is_err());
    }
    assert!(matches!(
        train_test_split(x.view(), &y[..9], 0.5, 0),
        Err(Error::ShapeMismatch {
            expected: 10,
            found: 9,
            ..
        })
    ));
    assert!(matches!(
        stratified_train_test_split(x.view(), &y[..9], 0.5, 0),
        Err(Error::ShapeMismatch { .. })
    ));
    let none = Array2::<f64>::zeros((0, 2));
    assert!(matches!(
        train_test_split::<usize>(none.view(), &[], 0.5, 0),
        Err(Error::Empty { .. })
    ));
}

/// Labels in `0..n_classes`, at least two rows.
fn labels() -> impl Strategy<Value = Vec<usize>> {
    (1usize..6).prop_flat_map(|n_classes| prop::collection::vec(0..n_classes, 2..120))
}

proptest! {
    #[test]
    fn splits_partition_the_rows(y in labels(), fraction in 0.01f64..0.99, seed in any::<u64>()) {
        let x = numbered_rows(y.len());
        let n_test = (fraction * y.len() as f64).ceil() as usize;
        prop_assume!(n_test < y.len());
        let split = train_test_split(x.view(), &y, fraction, seed).unwrap();
        prop_assert_eq!(split.rows.test.len(), n_test);
        assert_consistent(&split, &x, &y)?;
        let split = stratified_train_test_split(x.view(), &y, fraction, seed).unwrap();
        prop_assert_eq!(split.rows.test.len(), n_test);
        assert_consistent(&split, &x, &y)?;
    }

    #[test]
    fn stratified_counts_keep_both_sides_and_the_shares(
        y in labels(),
        fraction in 0.01f64..0.99,
        seed in any::<u64>(),
    ) {
        let n = y.len();
        let n_test = (fraction * n as f64).ceil() as usize;
        prop_assume!(n_test < n);
        let split = stratified_train_test_split(numbered_rows(n).view(), &y, fraction, seed).unwrap();
        let sizes = class_counts(&y);
        let tested = class_counts(&split.y_test);
        let tested_of = |class: &usize| tested.get(class).copied().unwrap_or(0);
        let share = |size: usize| size as f64 * n_test as f64 / n as f64;
        // The bounds can all hold when the test set can give a row to every class of two or
        // more rows and leave one in training for every class.
        let classes_of_two = sizes.values().filter(|&&s| s >= 2).count();
        let bounds_hold = classes_of_two <= n_test
            && n_test <= sizes.values().map(|&s| s.saturating_sub(1)).sum::<usize>();
        if bounds_hold {
            for (class, &size) in &sizes {
                let t = tested_of(class);
                if size >= 2 {
                    prop_assert!(t >= 1 && t < size, "class {} of {}: {} tested", class, size, t);
                } else {
                    prop_assert_eq!(t, 0);
                }
            }
        }
        // Where every share already lies within the bounds, every count is its class's share
        // rounded down or up.
        let shares_within_bounds = sizes
            .values()
            .all(|&size| size >= 2 && share(size) >= 1.0 && share(size) <= (size - 1) as f64);
        if shares_within_bounds {
            for (class, &size) in &sizes {
                let t = tested_of(class) as f64;
                prop_assert!(t == share(size).floor() || t == share(size).ceil(),
                    "class {} of {}: {} tested for a share of {}", class, size, t, share(size));
            }
        }
    }
}
