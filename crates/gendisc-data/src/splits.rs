//! Train/test splits, stratified k-fold and the seeding of replicates.
//!
//! Every split takes class labels `y` (`0..K`, any of `&Array1<usize>`, an `ArrayView1` or a
//! `&[usize]`), validates them, and returns sorted row indices. Randomness comes only from the
//! `rng` argument, and the order in which it is consumed is documented, so the same stream gives
//! the same split on every platform.
//!
//! For a quick hold-out split in the manner of scikit-learn's `train_test_split`,
//! [`train_test_split`] and [`stratified_train_test_split`] take the features, labels of any
//! type, a test fraction and a `u64` seed, and return both sides' rows (a [`TrainTestSplit`]):
//!
//! ```
//! use gendisc_data::splits::stratified_train_test_split;
//! use ndarray::Array2;
//!
//! let x = Array2::from_shape_fn((8, 2), |(i, j)| (i * 2 + j) as f64);
//! let y = ["ham", "ham", "spam", "ham", "spam", "ham", "spam", "spam"];
//! let split = stratified_train_test_split(x.view(), &y, 0.25, 42)?;
//! assert_eq!((split.x_train.nrows(), split.x_test.nrows()), (6, 2));
//! // One "ham" and one "spam" row in the test set, as in the whole set.
//! assert!(split.y_test.contains(&"ham") && split.y_test.contains(&"spam"));
//! # Ok::<(), gendisc_core::Error>(())
//! ```
//!
//! A study derives each replicate's stream from its coordinates with [`replicate_rng`], so that
//! its results do not depend on the number of threads or on the order in which cells run:
//!
//! ```
//! use gendisc_data::generators::XueTitteringtonPreset;
//! use gendisc_data::splits::{replicate_rng, xue_titterington_split};
//!
//! let (study_seed, m, replicate) = (20_240_601_u64, 125_usize, 7_usize);
//! let preset = XueTitteringtonPreset::BernoulliEqualBlock;
//! let mut rng = replicate_rng(study_seed, &[preset.name().into(), m.into(), replicate.into()]);
//! let (x, y) = preset.generate(500, &mut rng);
//! let split = xue_titterington_split(&y, m, &mut rng)?;
//! assert_eq!((split.train.len(), split.test.len()), (125, 875));
//! assert_eq!(split.train.iter().filter(|&&i| y[i] == 0).count(), 63); // ⌈125/2⌉
//! # let _ = x;
//! # Ok::<(), gendisc_core::Error>(())
//! ```

use std::collections::BTreeMap;

use gendisc_core::validate::check_labels;
use gendisc_core::{Error, Result};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sprs::{CsMat, CsMatView};

/// A partition of the rows `0..n` into a training and a test set, each sorted ascending.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Split {
    /// Training rows, ascending.
    pub train: Vec<usize>,
    /// Test rows (every row not in `train`), ascending.
    pub test: Vec<usize>,
}

impl Split {
    /// Builds the split from training rows (any order, no duplicates); the test set is the
    /// complement in `0..n`.
    fn from_train(mut train: Vec<usize>, n: usize) -> Self {
        train.sort_unstable();
        let mut in_train = vec![false; n];
        for &i in &train {
            in_train[i] = true;
        }
        let test = (0..n).filter(|&i| !in_train[i]).collect();
        Self { train, test }
    }

    /// Builds the split from test rows (any order, no duplicates); the training set is the
    /// complement in `0..n`.
    fn from_test(test: Vec<usize>, n: usize) -> Self {
        let Split { train, test } = Split::from_train(test, n);
        Self {
            train: test,
            test: train,
        }
    }
}

/// The rows `rows` of `x`, in that order, as a new row-major matrix — the training or test
/// part of a split.
///
/// Same result as ndarray's `x.select(Axis(0), rows)`, which goes through a general
/// concatenation; this copies each row directly, which matters when a study takes thousands of
/// small splits.
///
/// Errors: [`Error::InvalidParameter`] (`rows`) when an index is not a row of `x`.
pub fn take_rows<T: Copy>(x: ArrayView2<'_, T>, rows: &[usize]) -> Result<Array2<T>> {
    let (n, d) = x.dim();
    let mut data = Vec::with_capacity(rows.len() * d);
    for &i in rows {
        if i >= n {
            return Err(Error::invalid_parameter(
                "rows",
                format!("row index {i} is out of range for a matrix of {n} rows"),
            ));
        }
        let row = x.row(i);
        match row.as_slice() {
            Some(slice) => data.extend_from_slice(slice),
            None => data.extend(row.iter().copied()),
        }
    }
    Ok(Array2::from_shape_vec((rows.len(), d), data).expect("rows × d elements"))
}

/// The rows `rows` of a CSR matrix, in that order, as a new CSR matrix (the sparse
/// counterpart of [`take_rows`]).
///
/// Errors: [`Error::InvalidParameter`] (`x`) when `x` is CSC, (`rows`) when an index is not a
/// row of `x`.
pub fn take_sparse_rows(x: CsMatView<'_, f64>, rows: &[usize]) -> Result<CsMat<f64>> {
    if !x.is_csr() {
        return Err(Error::invalid_parameter(
            "x",
            "rows are taken from a CSR matrix; convert a CSC matrix first",
        ));
    }
    let taken = rows
        .iter()
        .map(|&r| {
            x.outer_view(r).ok_or_else(|| {
                Error::invalid_parameter(
                    "rows",
                    format!(
                        "row index {r} is out of range for a matrix of {} rows",
                        x.rows()
                    ),
                )
            })
        })
        .collect::<Result<Vec<_>>>()?;
    // Sized once: grown by doubling, the copies of the vectors' reallocations were as costly
    // as the rows' own (a study takes thousands of evaluation rows per cell).
    let nnz = taken.iter().map(|row| row.nnz()).sum();
    let mut indptr = Vec::with_capacity(rows.len() + 1);
    let mut indices = Vec::with_capacity(nnz);
    let mut data = Vec::with_capacity(nnz);
    indptr.push(0);
    for row in taken {
        indices.extend_from_slice(row.indices());
        data.extend_from_slice(row.data());
        indptr.push(indices.len());
    }
    Ok(CsMat::new((rows.len(), x.cols()), indptr, indices, data))
}

/// The entries `rows` of `v`, in that order (the vector counterpart of [`take_rows`]).
///
/// Errors: [`Error::InvalidParameter`] (`rows`) when an index is not an entry of `v`.
pub fn take<T: Copy>(v: ArrayView1<'_, T>, rows: &[usize]) -> Result<Array1<T>> {
    rows.iter()
        .map(|&i| {
            v.get(i).copied().ok_or_else(|| {
                Error::invalid_parameter(
                    "rows",
                    format!(
                        "index {i} is out of range for a vector of length {}",
                        v.len()
                    ),
                )
            })
        })
        .collect()
}

/// The split of Xue & Titterington §3.1.4: `⌈m/2⌉` training rows drawn without replacement from
/// class 0 and `⌊m/2⌋` from class 1; every other row is a test row.
///
/// The paper takes `m/2` rows from each group for `m ∈ {100, 125, …, 400}`; for odd `m` the extra
/// row goes to class 0 (the paper's `y = 1`). The class-0 rows are drawn first, then the class-1
/// rows, each by a partial Fisher–Yates shuffle of that class's rows in ascending order.
///
/// Errors: [`Error::Empty`] for empty `y`, [`Error::LabelOutOfRange`] for a label other than 0
/// or 1, [`Error::InvalidParameter`] for `m < 2` or `m ≥ n` (no test row left),
/// [`Error::TooFewRows`] when a class has fewer rows than its share of `m`.
pub fn xue_titterington_split<'a, R: Rng + ?Sized>(
    y: impl Into<ArrayView1<'a, usize>>,
    m: usize,
    rng: &mut R,
) -> Result<Split> {
    let y = y.into();
    check_nonempty(y)?;
    check_labels(y, y.len(), 2)?;
    if m < 2 {
        return Err(Error::invalid_parameter(
            "m",
            format!("the training set needs a row of each class, so m ≥ 2; got m = {m}"),
        ));
    }
    check_leaves_test_rows("m", m, y.len())?;
    let mut by_class = rows_by_class(y, 2);
    let mut train = Vec::with_capacity(m);
    for (class, wanted) in [(0, m.div_ceil(2)), (1, m / 2)] {
        let rows = &mut by_class[class];
        if rows.len() < wanted {
            return Err(Error::TooFewRows {
                what: format!("class {class} for a Xue-Titterington training set of size m = {m}"),
                needed: wanted,
                found: rows.len(),
            });
        }
        partial_shuffle(rows, wanted, rng);
        train.extend_from_slice(&rows[..wanted]);
    }
    Ok(Split::from_train(train, y.len()))
}

/// Consecutive uniformly random training sets that miss a class before [`random_split`] stops
/// rejecting and seeds one row per class instead.
pub const RANDOM_SPLIT_MAX_REJECTIONS: usize = 1000;

/// A uniformly random training set of `train_size` rows that contains at least one row of each
/// class `0..K` (`K = max(y) + 1`); every other row is a test row.
///
/// The training set is drawn by rejection: a uniform subset (partial Fisher–Yates shuffle of all
/// rows) is redrawn until it holds every class, which is exactly the uniform distribution over
/// the admissible subsets. If [`RANDOM_SPLIT_MAX_REJECTIONS`] draws in a row miss a class — only
/// likely when a uniform subset rarely holds every class, e.g. tiny sets over many classes — one
/// row of each class is drawn uniformly (classes in order) and the remaining
/// `train_size − K` rows are drawn uniformly from the rest; that fallback is admissible but not
/// exactly uniform.
///
/// Errors: [`Error::Empty`] for empty `y`, [`Error::EmptyClass`] when a class below the largest
/// label has no row, [`Error::InvalidParameter`] when `train_size < K` (impossible) or
/// `train_size ≥ n` (no test row left).
pub fn random_split<'a, R: Rng + ?Sized>(
    y: impl Into<ArrayView1<'a, usize>>,
    train_size: usize,
    rng: &mut R,
) -> Result<Split> {
    let y = y.into();
    check_nonempty(y)?;
    let n_classes = n_classes(y);
    let by_class = rows_by_class(y, n_classes);
    if let Some(class) = by_class.iter().position(Vec::is_empty) {
        return Err(Error::EmptyClass {
            class,
            detail: Some(format!(
                "a random split needs a row of every class 0..{n_classes} in y"
            )),
        });
    }
    if train_size < n_classes {
        return Err(Error::invalid_parameter(
            "train_size",
            format!(
                "a training set of {train_size} rows cannot hold a row of each of the \
                 {n_classes} classes"
            ),
        ));
    }
    check_leaves_test_rows("train_size", train_size, y.len())?;

    let mut rows: Vec<usize> = (0..y.len()).collect();
    let mut seen = vec![false; n_classes];
    for _ in 0..RANDOM_SPLIT_MAX_REJECTIONS {
        // A partial shuffle of any arrangement yields a uniform subset, so `rows` need not be
        // reset between attempts.
        partial_shuffle(&mut rows, train_size, rng);
        seen.fill(false);
        rows[..train_size].iter().for_each(|&i| seen[y[i]] = true);
        if seen.iter().all(|&s| s) {
            rows.truncate(train_size);
            return Ok(Split::from_train(rows, y.len()));
        }
    }

    let mut train: Vec<usize> = by_class
        .iter()
        .map(|class_rows| class_rows[rng.random_range(0..class_rows.len())])
        .collect();
    let mut chosen = vec![false; y.len()];
    train.iter().for_each(|&i| chosen[i] = true);
    let mut rest: Vec<usize> = (0..y.len()).filter(|&i| !chosen[i]).collect();
    let extra = train_size - n_classes;
    partial_shuffle(&mut rest, extra, rng);
    train.extend_from_slice(&rest[..extra]);
    Ok(Split::from_train(train, y.len()))
}

/// Stratified k-fold cross-validation: `k` splits whose test folds partition the rows, each
/// fold holding, for every class, `⌊n_c/k⌋` or `⌈n_c/k⌉` of its `n_c` rows, and fold sizes
/// differing by at most one.
///
/// Classes are taken in order; each class's rows are fully shuffled (Fisher–Yates) and dealt
/// round-robin to the folds, the dealing position carrying over from one class to the next.
/// The `i`-th split tests on fold `i` and trains on the others. A class with fewer than `k` rows
/// is absent from some test folds, and a class with a single row is absent from one training
/// set: check class sizes first if a model needs every class when fitting.
///
/// Errors: [`Error::Empty`] for empty `y`, [`Error::InvalidParameter`] for `k < 2` or `k > n`.
///
/// ```
/// use gendisc_data::splits::stratified_k_fold;
/// use rand::SeedableRng;
/// use rand_chacha::ChaCha8Rng;
///
/// let y = [0, 0, 0, 0, 0, 0, 1, 1, 1];
/// let folds = stratified_k_fold(&y[..], 3, &mut ChaCha8Rng::seed_from_u64(0))?;
/// for fold in &folds {
///     // Two rows of class 0 and one of class 1 in every test fold.
///     assert_eq!(fold.test.iter().map(|&i| y[i]).sum::<usize>(), 1);
///     assert_eq!((fold.train.len(), fold.test.len()), (6, 3));
/// }
/// # Ok::<(), gendisc_core::Error>(())
/// ```
pub fn stratified_k_fold<'a, R: Rng + ?Sized>(
    y: impl Into<ArrayView1<'a, usize>>,
    k: usize,
    rng: &mut R,
) -> Result<Vec<Split>> {
    let y = y.into();
    check_nonempty(y)?;
    if k < 2 {
        return Err(Error::invalid_parameter(
            "k",
            format!("k-fold cross-validation needs k ≥ 2 folds; got k = {k}"),
        ));
    }
    if k > y.len() {
        return Err(Error::invalid_parameter(
            "k",
            format!(
                "k = {k} folds exceed the {} rows, so some folds would be empty",
                y.len()
            ),
        ));
    }
    let mut folds: Vec<Vec<usize>> = vec![Vec::with_capacity(y.len().div_ceil(k)); k];
    let mut position = 0;
    for mut rows in rows_by_class(y, n_classes(y)) {
        let len = rows.len();
        partial_shuffle(&mut rows, len, rng);
        for row in rows {
            folds[position % k].push(row);
            position += 1;
        }
    }
    Ok(folds
        .into_iter()
        .map(|mut test| {
            test.sort_unstable();
            let mut in_test = vec![false; y.len()];
            test.iter().for_each(|&i| in_test[i] = true);
            let train = (0..y.len()).filter(|&i| !in_test[i]).collect();
            Split { train, test }
        })
        .collect())
}

/// A data set split into a training and a test part, as [`train_test_split`] and
/// [`stratified_train_test_split`] return it: the rows of `x` and the labels on each side, and
/// which rows those were.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainTestSplit<L> {
    /// The training rows of `x`, in the order of `rows.train` (ascending).
    pub x_train: Array2<f64>,
    /// The test rows of `x`, in the order of `rows.test` (ascending).
    pub x_test: Array2<f64>,
    /// The labels of the training rows.
    pub y_train: Vec<L>,
    /// The labels of the test rows.
    pub y_test: Vec<L>,
    /// The row indices of each side, ascending: to split other per-row data (weights,
    /// identifiers) the same way, with [`take`] or [`take_rows`].
    pub rows: Split,
}

/// A random hold-out split in the manner of scikit-learn's
/// `train_test_split(x, y, test_size=test_fraction)`: `⌈test_fraction · n⌉` rows (rounded up, as
/// scikit-learn does) drawn uniformly without replacement form the test set, and every other
/// row the training set.
///
/// Labels may be of any type (class indices, `String`s…); they are copied to the side of their
/// row. Rows keep their original order on each side. The split depends only on `seed`, through
/// `ChaCha8Rng::seed_from_u64(seed)`, whose first `⌈test_fraction · n⌉` draws pick the test rows
/// by a partial Fisher–Yates shuffle of `0..n`; the caller needs no random-number crate. The
/// same seed gives the same split on every platform, but not scikit-learn's split for its
/// `random_state`, which comes from another generator.
///
/// Errors: [`Error::InvalidParameter`] (`test_fraction`) for a fraction that is not strictly
/// between 0 and 1, or that leaves no training row (e.g. `0.95` of 10 rows rounds up to all
/// 10); [`Error::ShapeMismatch`] when `y` and `x` have different numbers of rows;
/// [`Error::Empty`] for no rows.
///
/// ```
/// use gendisc_data::splits::train_test_split;
/// use ndarray::Array2;
///
/// let x = Array2::from_shape_fn((10, 3), |(i, j)| (10 * i + j) as f64);
/// let y: Vec<String> = (0..10).map(|i| format!("class-{}", i % 2)).collect();
/// let split = train_test_split(x.view(), &y, 0.25, 7)?;
/// // ⌈0.25 × 10⌉ = 3 test rows.
/// assert_eq!((split.y_train.len(), split.y_test.len()), (7, 3));
/// assert_eq!(split.x_test.row(0), x.row(split.rows.test[0]));
/// assert_eq!(split, train_test_split(x.view(), &y, 0.25, 7)?);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
pub fn train_test_split<L: Clone>(
    x: ArrayView2<'_, f64>,
    y: &[L],
    test_fraction: f64,
    seed: u64,
) -> Result<TrainTestSplit<L>> {
    let n_test = hold_out_test_size(x.nrows(), y.len(), test_fraction)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut rows: Vec<usize> = (0..y.len()).collect();
    partial_shuffle(&mut rows, n_test, &mut rng);
    rows.truncate(n_test);
    split_data(x, y, Split::from_test(rows, y.len()))
}

/// A hold-out split that keeps each class's share of the rows on both sides, in the manner of
/// scikit-learn's `train_test_split(x, y, test_size=test_fraction, stratify=y)`.
///
/// The test set has `n_test = ⌈test_fraction · n⌉` rows, as in [`train_test_split`]. Class `c`,
/// with `n_c` rows, gives `t_c` of them to it, as close to its share `n_c · n_test / n` as these
/// bounds allow:
///
/// * a class with at least two rows keeps at least one on each side (`1 ≤ t_c ≤ n_c − 1`), so
///   a model trained on the training set sees every class that can be tested;
/// * a class with a single row keeps it in the training set (scikit-learn refuses such a `y`).
///
/// The counts start at `⌊share⌋` clamped to the bounds; then, one row at a time until they sum
/// to `n_test`, a row is added to the class furthest below its share that the bounds admit (or
/// taken from the class furthest above it), ties going to the smallest label. Where the bounds
/// cannot all hold — more classes than test rows, or too few training rows — rows move to the
/// classes furthest from their share regardless of them. Where the bounds do not bind, every
/// `t_c` is `⌊share⌋` or `⌈share⌉`, as in scikit-learn's allocation, which breaks ties at random.
///
/// Classes are the distinct labels in sorted order. The stream `ChaCha8Rng::seed_from_u64(seed)`
/// draws each class's `t_c` test rows in that order, by a partial Fisher–Yates shuffle of the
/// class's rows in ascending order. Everything else — the result, the order of rows on each
/// side, the errors — is as in [`train_test_split`].
///
/// ```
/// use gendisc_data::splits::stratified_train_test_split;
/// use ndarray::Array2;
///
/// // 90 rows of class 0 and 10 of class 1; a fifth of them for testing.
/// let y: Vec<usize> = (0..100).map(|i| usize::from(i >= 90)).collect();
/// let x = Array2::from_shape_fn((100, 2), |(i, j)| (i + j) as f64);
/// let split = stratified_train_test_split(x.view(), &y, 0.2, 1)?;
/// assert_eq!(split.y_test.iter().filter(|&&k| k == 1).count(), 2);
/// assert_eq!(split.y_train.iter().filter(|&&k| k == 1).count(), 8);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
pub fn stratified_train_test_split<L: Clone + Ord>(
    x: ArrayView2<'_, f64>,
    y: &[L],
    test_fraction: f64,
    seed: u64,
) -> Result<TrainTestSplit<L>> {
    let n_test = hold_out_test_size(x.nrows(), y.len(), test_fraction)?;
    let mut rows_of_label: BTreeMap<&L, Vec<usize>> = BTreeMap::new();
    for (row, label) in y.iter().enumerate() {
        rows_of_label.entry(label).or_default().push(row);
    }
    let class_rows: Vec<Vec<usize>> = rows_of_label.into_values().collect();
    let class_sizes: Vec<usize> = class_rows.iter().map(Vec::len).collect();
    let test_counts = stratified_test_counts(&class_sizes, n_test);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut test = Vec::with_capacity(n_test);
    for (mut rows, count) in class_rows.into_iter().zip(test_counts) {
        partial_shuffle(&mut rows, count, &mut rng);
        test.extend_from_slice(&rows[..count]);
    }
    split_data(x, y, Split::from_test(test, y.len()))
}

/// The number of test rows of a hold-out split, `⌈test_fraction · n⌉` as scikit-learn computes
/// it (in floating point), after validating the arguments.
fn hold_out_test_size(x_rows: usize, n: usize, test_fraction: f64) -> Result<usize> {
    // Written so that NaN fails too.
    if !(test_fraction > 0.0 && test_fraction < 1.0) {
        return Err(Error::invalid_parameter(
            "test_fraction",
            format!("the test fraction must lie strictly between 0 and 1; got {test_fraction}"),
        ));
    }
    if n != x_rows {
        return Err(Error::shape_mismatch("length of y vs rows of x", x_rows, n));
    }
    if n == 0 {
        return Err(Error::Empty {
            what: "x and y (no rows to split)".into(),
        });
    }
    let n_test = (test_fraction * n as f64).ceil() as usize;
    if n_test >= n {
        return Err(Error::invalid_parameter(
            "test_fraction",
            format!(
                "⌈{test_fraction} × {n}⌉ = {n_test} test rows out of {n} leave no training row"
            ),
        ));
    }
    Ok(n_test)
}

/// How many of each class's rows go to the test set in [`stratified_train_test_split`] (see
/// there for the rule): `class_sizes` are the classes' row counts in label order, all positive,
/// and `0 < n_test < Σ class_sizes`.
fn stratified_test_counts(class_sizes: &[usize], n_test: usize) -> Vec<usize> {
    let n: usize = class_sizes.iter().sum();
    // A class's distance above its share `n_c · n_test / n`, in units of `1/n`: exact integers,
    // so that ties are ties.
    let excess = |class: usize, count: usize| -> i128 {
        count as i128 * n as i128 - class_sizes[class] as i128 * n_test as i128
    };
    let lower = |class: usize| usize::from(class_sizes[class] >= 2);
    let upper = |class: usize| class_sizes[class].saturating_sub(1);
    let mut counts: Vec<usize> = (0..class_sizes.len())
        .map(|class| (class_sizes[class] * n_test / n).clamp(lower(class), upper(class)))
        .collect();
    let mut total: usize = counts.iter().sum();
    // The eligible class furthest from its share in the direction `sign` (+1: above it), the
    // smallest label on ties.
    let furthest = |counts: &[usize], sign: i128, eligible: &dyn Fn(usize, usize) -> bool| {
        (0..counts.len())
            .filter(|&class| eligible(class, counts[class]))
            .max_by_key(|&class| {
                (
                    sign * excess(class, counts[class]),
                    std::cmp::Reverse(class),
                )
            })
    };
    while total < n_test {
        let class = furthest(&counts, -1, &|class, count| count < upper(class))
            .or_else(|| furthest(&counts, -1, &|class, count| count < class_sizes[class]))
            .expect("n_test < n leaves a class with a training row");
        counts[class] += 1;
        total += 1;
    }
    while total > n_test {
        let class = furthest(&counts, 1, &|class, count| count > lower(class))
            .or_else(|| furthest(&counts, 1, &|_, count| count > 0))
            .expect("n_test > 0 leaves a class with a test row");
        counts[class] -= 1;
        total -= 1;
    }
    counts
}

/// The rows and labels of each side of `split`.
fn split_data<L: Clone>(
    x: ArrayView2<'_, f64>,
    y: &[L],
    split: Split,
) -> Result<TrainTestSplit<L>> {
    let labels = |rows: &[usize]| rows.iter().map(|&i| y[i].clone()).collect();
    Ok(TrainTestSplit {
        x_train: take_rows(x, &split.train)?,
        x_test: take_rows(x, &split.test)?,
        y_train: labels(&split.train),
        y_test: labels(&split.test),
        rows: split,
    })
}

/// One coordinate of a replicate's key: a name (dataset, classifier…) or an index (training
/// size, replicate number, fold…).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SeedPart<'a> {
    /// A non-negative integer coordinate.
    Index(u64),
    /// A textual coordinate, hashed by its UTF-8 bytes.
    Name(&'a str),
}

impl From<u64> for SeedPart<'_> {
    fn from(v: u64) -> Self {
        SeedPart::Index(v)
    }
}

impl From<u32> for SeedPart<'_> {
    fn from(v: u32) -> Self {
        SeedPart::Index(u64::from(v))
    }
}

impl From<usize> for SeedPart<'_> {
    fn from(v: usize) -> Self {
        // usize is at most 64 bits on every supported platform, so this is lossless.
        SeedPart::Index(v as u64)
    }
}

impl<'a> From<&'a str> for SeedPart<'a> {
    fn from(s: &'a str) -> Self {
        SeedPart::Name(s)
    }
}

impl<'a> From<&'a String> for SeedPart<'a> {
    fn from(s: &'a String) -> Self {
        SeedPart::Name(s)
    }
}

/// The golden-ratio increment of SplitMix64, `⌊2⁶⁴/φ⌋`.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
/// Tag absorbed before an [`SeedPart::Index`].
const TAG_INDEX: u64 = 1;
/// Tag absorbed before a [`SeedPart::Name`].
const TAG_NAME: u64 = 2;

/// The SplitMix64 output function (Steele, Lea & Flood 2014; constants of Stafford's "Mix13"),
/// a bijection of `u64` with full avalanche.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The 64-bit seed of a replicate, a fixed hash of `(study_seed, parts…)`.
///
/// The hash is defined here, independent of Rust's `Hasher`s (whose output may change between
/// Rust versions) and of the platform:
///
/// ```text
/// h ← study_seed
/// absorb(w): h ← mix64((h + γ) xor w)          (wrapping addition, γ = 0x9E3779B97F4A7C15)
/// for each part:
///     Index(v): absorb(1), absorb(v)
///     Name(s):  absorb(2), absorb(byte length of s),
///               absorb each 8-byte little-endian word of s's UTF-8 bytes (last one zero-padded)
/// absorb(number of parts)
/// seed = h
/// ```
///
/// `mix64` is the SplitMix64 finaliser. The tags and lengths make the encoding of a tuple
/// unambiguous, so distinct tuples give distinct seeds unless the 64-bit hash collides.
pub fn replicate_seed(study_seed: u64, parts: &[SeedPart<'_>]) -> u64 {
    let mut h = study_seed;
    let mut absorb = |word: u64| h = mix64(h.wrapping_add(GOLDEN_GAMMA) ^ word);
    for part in parts {
        match *part {
            SeedPart::Index(v) => {
                absorb(TAG_INDEX);
                absorb(v);
            }
            SeedPart::Name(s) => {
                absorb(TAG_NAME);
                absorb(s.len() as u64);
                for chunk in s.as_bytes().chunks(8) {
                    let mut word = [0u8; 8];
                    word[..chunk.len()].copy_from_slice(chunk);
                    absorb(u64::from_le_bytes(word));
                }
            }
        }
    }
    absorb(parts.len() as u64);
    h
}

/// The random stream of a replicate: `ChaCha8Rng::seed_from_u64(replicate_seed(study_seed,
/// parts))`. The same coordinates always give the same stream, whatever thread asks for it and
/// whenever.
///
/// ```
/// use gendisc_data::splits::replicate_rng;
/// use rand::Rng;
///
/// let (dataset, m) = ("normal-equal-full", 200_usize);
/// let first_word = |replicate: usize| -> u64 {
///     replicate_rng(1, &[dataset.into(), m.into(), replicate.into()]).random()
/// };
/// assert_eq!(first_word(3), first_word(3));
/// assert_ne!(first_word(3), first_word(4));
/// ```
pub fn replicate_rng(study_seed: u64, parts: &[SeedPart<'_>]) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(replicate_seed(study_seed, parts))
}

fn check_nonempty(y: ArrayView1<'_, usize>) -> Result<()> {
    if y.is_empty() {
        return Err(Error::Empty {
            what: "y (no rows to split)".into(),
        });
    }
    Ok(())
}

fn check_leaves_test_rows(name: &'static str, size: usize, n: usize) -> Result<()> {
    if size >= n {
        return Err(Error::invalid_parameter(
            name,
            format!("a training set of {size} rows out of {n} leaves no test row"),
        ));
    }
    Ok(())
}

/// `max(y) + 1` for non-empty `y`.
fn n_classes(y: ArrayView1<'_, usize>) -> usize {
    y.iter().copied().max().map_or(0, |max| max + 1)
}

/// The rows of each class `0..n_classes`, ascending; labels are known to be in range.
fn rows_by_class(y: ArrayView1<'_, usize>, n_classes: usize) -> Vec<Vec<usize>> {
    let mut rows = vec![Vec::new(); n_classes];
    for (i, &label) in y.iter().enumerate() {
        rows[label].push(i);
    }
    rows
}

/// Moves a uniformly random `amount`-subset of `items`, in uniformly random order, to the
/// front: the first `amount` steps of a Fisher–Yates shuffle (`amount ≤ items.len()`).
fn partial_shuffle<T, R: Rng + ?Sized>(items: &mut [T], amount: usize, rng: &mut R) {
    for i in 0..amount {
        let j = rng.random_range(i..items.len());
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn rng(seed: u64) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(seed)
    }

    #[test]
    fn xue_titterington_split_draws_ceil_and_floor() {
        let y = array![0, 1, 0, 1, 0, 1, 0, 1, 1, 0];
        let split = xue_titterington_split(&y, 5, &mut rng(1)).unwrap();
        let zeros = split.train.iter().filter(|&&i| y[i] == 0).count();
        assert_eq!((zeros, split.train.len() - zeros), (3, 2));
        assert_eq!(split.test.len(), 5);
        assert!(split.train.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn xue_titterington_split_validates() {
        let y = array![0, 0, 0, 1, 1];
        assert!(matches!(
            xue_titterington_split(&[] as &[usize], 2, &mut rng(0)),
            Err(Error::Empty { .. })
        ));
        assert!(matches!(
            xue_titterington_split(&[0, 2, 1], 2, &mut rng(0)),
            Err(Error::LabelOutOfRange {
                row: 1,
                label: 2,
                ..
            })
        ));
        assert!(matches!(
            xue_titterington_split(&y, 1, &mut rng(0)),
            Err(Error::InvalidParameter { name: "m", .. })
        ));
        assert!(matches!(
            xue_titterington_split(&y, 5, &mut rng(0)),
            Err(Error::InvalidParameter { name: "m", .. })
        ));
        // m = 4 needs 2 rows of class 1 (it has 2) and 2 of class 0: fine; y with one row of
        // class 1 and m = 4 is not.
        assert!(xue_titterington_split(&y, 4, &mut rng(0)).is_ok());
        assert!(matches!(
            xue_titterington_split(&[0, 0, 0, 0, 1], 4, &mut rng(0)),
            Err(Error::TooFewRows {
                needed: 2,
                found: 1,
                ..
            })
        ));
        assert!(matches!(
            xue_titterington_split(&[1, 1, 1, 1, 0], 3, &mut rng(0)),
            Err(Error::TooFewRows {
                needed: 2,
                found: 1,
                ..
            })
        ));
    }

    #[test]
    fn random_split_validates() {
        assert!(matches!(
            random_split(&[] as &[usize], 1, &mut rng(0)),
            Err(Error::Empty { .. })
        ));
        assert!(matches!(
            random_split(&[0, 2, 2, 0], 2, &mut rng(0)),
            Err(Error::EmptyClass { class: 1, .. })
        ));
        assert!(matches!(
            random_split(&[0, 1, 2, 0, 1], 2, &mut rng(0)),
            Err(Error::InvalidParameter {
                name: "train_size",
                ..
            })
        ));
        assert!(matches!(
            random_split(&[0, 1, 0], 3, &mut rng(0)),
            Err(Error::InvalidParameter {
                name: "train_size",
                ..
            })
        ));
    }

    #[test]
    fn random_split_conditioning_is_exact() {
        // Four rows, classes [0, 0, 0, 1], training size 2: the admissible subsets are the three
        // pairs {i, 3}; rejection makes them equally likely (1/3 each). Check by frequency.
        let y = [0, 0, 0, 1];
        let mut counts = [0usize; 3];
        let mut r = rng(42);
        let draws = 30_000;
        for _ in 0..draws {
            let split = random_split(&y, 2, &mut r).unwrap();
            assert_eq!(split.train[1], 3);
            counts[split.train[0]] += 1;
        }
        for c in counts {
            let p = c as f64 / draws as f64;
            // Standard error √(p(1−p)/n) ≈ 0.0027; allow 4.
            assert!((p - 1.0 / 3.0).abs() < 4.0 * (2.0f64 / 9.0 / draws as f64).sqrt());
        }
    }

    #[test]
    fn random_split_falls_back_when_rejection_is_hopeless() {
        // 40 classes of one row each plus 4000 rows of class 0: a uniform 45-subset almost never
        // holds all 40 singletons, so the fallback must produce an admissible split.
        let mut y: Vec<usize> = (0..40).collect();
        y.extend(std::iter::repeat_n(0, 4000));
        let split = random_split(&y, 45, &mut rng(3)).unwrap();
        assert_eq!(split.train.len(), 45);
        let mut seen = [false; 40];
        split.train.iter().for_each(|&i| seen[y[i]] = true);
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn k_fold_validates() {
        assert!(matches!(
            stratified_k_fold(&[] as &[usize], 2, &mut rng(0)),
            Err(Error::Empty { .. })
        ));
        assert!(matches!(
            stratified_k_fold(&[0, 1, 0], 1, &mut rng(0)),
            Err(Error::InvalidParameter { name: "k", .. })
        ));
        assert!(matches!(
            stratified_k_fold(&[0, 1, 0], 4, &mut rng(0)),
            Err(Error::InvalidParameter { name: "k", .. })
        ));
        let folds = stratified_k_fold(&[0, 1, 0], 3, &mut rng(0)).unwrap();
        assert!(folds
            .iter()
            .all(|f| f.test.len() == 1 && f.train.len() == 2));
    }

    #[test]
    fn stratified_counts_follow_the_shares() {
        // Exact shares 12, 6, 2.
        assert_eq!(stratified_test_counts(&[60, 30, 10], 20), [12, 6, 2]);
        // Shares 3.5, 3.5, 3: the tie for the last row goes to the smaller label.
        assert_eq!(stratified_test_counts(&[7, 7, 6], 10), [4, 3, 3]);
        // Shares 9.7 and 0.3: the small class still gets a test row.
        assert_eq!(stratified_test_counts(&[97, 3], 10), [9, 1]);
        // Shares 0.3 and 2.7: a single row stays in training, the other class gives 3 rows.
        assert_eq!(stratified_test_counts(&[1, 9], 3), [0, 3]);
        // Shares 6 and 1 of (6, 2) would leave the second class's 2 rows one on each side
        // (bounds hold), and the first class keeps a training row only if n_test < 7.
        assert_eq!(stratified_test_counts(&[6, 2], 6), [5, 1]);
    }

    #[test]
    fn stratified_counts_give_way_where_the_bounds_cannot_hold() {
        // Five small classes hold a test row each, so the large one gives up four rows of its
        // share of 10.
        assert_eq!(
            stratified_test_counts(&[100, 2, 2, 2, 2, 2], 11),
            [6, 1, 1, 1, 1, 1]
        );
        // Five classes of two rows and a single test row: only one class can be tested; the
        // others, tied, give up their rows smallest label first.
        assert_eq!(stratified_test_counts(&[2, 2, 2, 2, 2], 1), [0, 0, 0, 0, 1]);
        // Nine test rows out of ten: the bounds allow five; singletons are then tested too.
        let counts = stratified_test_counts(&[2, 2, 2, 1, 1, 1, 1], 9);
        assert_eq!(counts.iter().sum::<usize>(), 9);
        assert!(counts
            .iter()
            .zip([2, 2, 2, 1, 1, 1, 1])
            .all(|(&t, size)| t <= size));
    }

    #[test]
    fn seed_encoding_is_unambiguous() {
        let s = |parts: &[SeedPart<'_>]| replicate_seed(9, parts);
        // A name is not its bytes as an integer, and splitting a name changes the seed.
        assert_ne!(s(&["a".into()]), s(&[97u64.into()]));
        assert_ne!(s(&["ab".into()]), s(&["a".into(), "b".into()]));
        // Zero padding does not make "a" and "a\0" collide: the length is absorbed.
        assert_ne!(s(&["a".into()]), s(&["a\0".into()]));
        assert_ne!(s(&[]), s(&[0u64.into()]));
        assert_ne!(replicate_seed(1, &[]), replicate_seed(2, &[]));
        let owned = String::from("x");
        assert_eq!(s(&[(&owned).into()]), s(&["x".into()]));
        assert_eq!(s(&[3usize.into()]), s(&[3u32.into()]));
    }

    #[test]
    fn take_rows_matches_select() {
        let x = ndarray::Array2::from_shape_fn((6, 3), |(i, j)| (10 * i + j) as f64);
        let rows = [4, 0, 5, 4];
        assert_eq!(
            take_rows(x.view(), &rows).unwrap(),
            x.select(ndarray::Axis(0), &rows)
        );
        // A column-major view takes the element-by-element path.
        let xt = x.t().as_standard_layout().into_owned();
        assert_eq!(
            take_rows(xt.t(), &rows).unwrap(),
            x.select(ndarray::Axis(0), &rows)
        );
        assert_eq!(take_rows(x.view(), &[]).unwrap().dim(), (0, 3));
        assert!(matches!(
            take_rows(x.view(), &[6]),
            Err(Error::InvalidParameter { name: "rows", .. })
        ));
        let y = ndarray::array![7usize, 8, 9];
        assert_eq!(take(y.view(), &[2, 0]).unwrap(), ndarray::array![9, 7]);
        assert!(take(y.view(), &[3]).is_err());
    }

    #[test]
    fn take_sparse_rows_matches_the_dense_rows() {
        let x = ndarray::array![
            [0.0, 1.0, 0.0],
            [2.0, 0.0, 3.0],
            [0.0, 0.0, 0.0],
            [4.0, 5.0, 6.0]
        ];
        let csr = CsMat::csr_from_dense(x.view(), 0.0);
        let rows = [3, 2, 0, 3];
        let taken = take_sparse_rows(csr.view(), &rows).unwrap();
        assert_eq!(taken.to_dense(), take_rows(x.view(), &rows).unwrap());
        assert_eq!(take_sparse_rows(csr.view(), &[]).unwrap().rows(), 0);
        assert!(matches!(
            take_sparse_rows(csr.view(), &[4]),
            Err(Error::InvalidParameter { name: "rows", .. })
        ));
        assert!(matches!(
            take_sparse_rows(csr.to_csc().view(), &[0]),
            Err(Error::InvalidParameter { name: "x", .. })
        ));
    }
}
