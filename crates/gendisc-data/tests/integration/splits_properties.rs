//! Invariants of the splits: partitions, class counts, fold coverage and balance, determinism.

use gendisc_data::splits::{random_split, stratified_k_fold, xue_titterington_split, Split};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::iter::repeat_n;

/// `train` and `test` are strictly ascending, disjoint, and together cover `0..n`.
fn assert_partition(split: &Split, n: usize) -> Result<(), TestCaseError> {
    prop_assert!(
        split.train.windows(2).all(|w| w[0] < w[1]),
        "train not sorted"
    );
    prop_assert!(
        split.test.windows(2).all(|w| w[0] < w[1]),
        "test not sorted"
    );
    let mut all: Vec<usize> = split.train.iter().chain(&split.test).copied().collect();
    all.sort_unstable();
    prop_assert_eq!(all, (0..n).collect::<Vec<_>>());
    Ok(())
}

fn count(rows: &[usize], y: &[usize], class: usize) -> usize {
    rows.iter().filter(|&&i| y[i] == class).count()
}

fn count_all(y: &[usize], class: usize) -> usize {
    y.iter().filter(|&&k| k == class).count()
}

/// Labels in `0..n_classes` in which every class occurs at least once.
fn labels(n_classes: usize, max_len: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0..n_classes, n_classes..max_len)
        .prop_map(move |mut y| {
            // Make every class present by overwriting the first entries.
            for (k, v) in y.iter_mut().take(n_classes).enumerate() {
                *v = k;
            }
            y
        })
        .prop_shuffle()
}

proptest! {
    #[test]
    fn xue_titterington_split_partitions_with_ceil_floor_counts(
        y in (1usize..60, 1usize..60).prop_flat_map(|(n0, n1)| {
            let sorted: Vec<usize> = repeat_n(0, n0).chain(repeat_n(1, n1)).collect();
            Just(sorted).prop_shuffle()
        }),
        m_frac in 0.0f64..1.0,
        seed in any::<u64>(),
    ) {
        let (n0, n1) = (count_all(&y, 0), count_all(&y, 1));
        let n = y.len();
        let m = 2 + (m_frac * (n as f64 - 2.0)) as usize;
        let result = xue_titterington_split(&y[..], m, &mut ChaCha8Rng::seed_from_u64(seed));
        let feasible = m < n && n0 >= m.div_ceil(2) && n1 >= m / 2;
        prop_assert_eq!(result.is_ok(), feasible);
        if let Ok(split) = result {
            assert_partition(&split, n)?;
            prop_assert_eq!(count(&split.train, &y, 0), m.div_ceil(2));
            prop_assert_eq!(count(&split.train, &y, 1), m / 2);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            prop_assert_eq!(split, xue_titterington_split(&y[..], m, &mut rng).unwrap());
        }
    }

    #[test]
    fn random_split_partitions_and_holds_every_class(
        y in labels(4, 80), size_frac in 0.0f64..1.0, seed in any::<u64>()
    ) {
        let n = y.len();
        let k = y.iter().max().unwrap() + 1;
        let train_size = k + (size_frac * (n - k) as f64) as usize;
        let result = random_split(&y[..], train_size, &mut ChaCha8Rng::seed_from_u64(seed));
        prop_assert_eq!(result.is_ok(), train_size < n);
        if let Ok(split) = result {
            assert_partition(&split, n)?;
            prop_assert_eq!(split.train.len(), train_size);
            for class in 0..k {
                prop_assert!(count(&split.train, &y, class) >= 1, "class {} missing", class);
            }
        }
    }

    #[test]
    fn stratified_folds_cover_every_row_once_and_balance_classes(
        y in labels(3, 120), k in 2usize..12, seed in any::<u64>()
    ) {
        let n = y.len();
        let result = stratified_k_fold(&y[..], k, &mut ChaCha8Rng::seed_from_u64(seed));
        prop_assert_eq!(result.is_ok(), k <= n);
        let Ok(folds) = result else { return Ok(()) };
        prop_assert_eq!(folds.len(), k);
        let mut times_tested = vec![0usize; n];
        for split in &folds {
            assert_partition(split, n)?;
            split.test.iter().for_each(|&i| times_tested[i] += 1);
        }
        prop_assert!(times_tested.iter().all(|&t| t == 1));
        let sizes: Vec<usize> = folds.iter().map(|f| f.test.len()).collect();
        prop_assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
        for class in 0..3 {
            let n_class = count_all(&y, class);
            for split in &folds {
                let c = count(&split.test, &y, class);
                prop_assert!(c == n_class / k || c == n_class.div_ceil(k),
                    "class {} has {} rows in a fold; n_c = {}, k = {}", class, c, n_class, k);
            }
        }
        let again = stratified_k_fold(&y[..], k, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        prop_assert_eq!(folds, again);
    }
}

#[test]
fn splits_accept_arrays_views_and_slices() {
    let y = ndarray::array![0, 1, 0, 1, 0, 1];
    let from_array = xue_titterington_split(&y, 2, &mut ChaCha8Rng::seed_from_u64(1)).unwrap();
    let from_view = xue_titterington_split(y.view(), 2, &mut ChaCha8Rng::seed_from_u64(1)).unwrap();
    let from_slice =
        xue_titterington_split(y.as_slice().unwrap(), 2, &mut ChaCha8Rng::seed_from_u64(1))
            .unwrap();
    assert_eq!(from_array, from_view);
    assert_eq!(from_array, from_slice);
}

#[test]
fn xue_titterington_training_rows_are_uniform_within_a_class() {
    // Each of the 10 rows of class 0 should enter a training set with ⌈m/2⌉ = 3 class-0 rows
    // with probability 3/10.
    let y: Vec<usize> = (0..20).map(|i| i % 2).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let draws = 20_000;
    let mut hits = [0usize; 20];
    for _ in 0..draws {
        for i in xue_titterington_split(&y[..], 5, &mut rng).unwrap().train {
            hits[i] += 1;
        }
    }
    for (row, &h) in hits.iter().enumerate() {
        let p = if y[row] == 0 { 0.3 } else { 0.2 };
        let se = (p * (1.0 - p) / draws as f64).sqrt();
        let freq = h as f64 / draws as f64;
        assert!((freq - p).abs() < 4.0 * se, "row {row}: {freq} vs {p}");
    }
}
