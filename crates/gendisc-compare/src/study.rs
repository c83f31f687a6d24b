//! The comparison as a study of the engine: one cell per `(training size, replicate)`, every
//! model fitted on the cell's stratified split.

use gendisc_core::{Error, Result};
use gendisc_data::splits::{take, take_rows};
use gendisc_engine::{fingerprint, Cell, Outcome, Schema, Study};
use ndarray::{Array1, Array2, Axis};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::models::{ModelKind, Scores};

/// The study identifier, shown by the progress bar and written to the result store.
pub const STUDY_ID: &str = "gendisc-compare";

/// The name under which every cell is keyed and seeded: a constant, so that renaming the data
/// file changes nothing.
pub const DATASET: &str = "data";

/// Bumped whenever what a cell computes changes, so that an old result store is not resumed
/// (v3: GDT's posteriors take their exponentials from `gendisc_core::numerics::exp_in_place`,
/// so GDT fits move in their last bits; v4: so does glm's IRLS, behind `lr` and the hybrids).
const VERSION: &str = "compare v4";

/// Metric positions of the outcome table.
pub const ERROR: usize = 0;
/// The mean log loss on the test rows.
pub const LOG_LOSS: usize = 1;
/// 1 when the model could not be fitted or scored on the cell's split, else 0.
pub const FAILED: usize = 2;
/// The metric names, in outcome order.
pub const METRICS: [&str; 3] = ["error", "log-loss", "failed"];

/// What decides the cells and their outcomes; its fingerprint guards the result store.
#[derive(Debug, Clone, PartialEq)]
pub struct Design {
    /// The training sizes, ascending.
    pub sizes: Vec<usize>,
    /// Replicates per size.
    pub replicates: usize,
    /// The seed every split derives from.
    pub seed: u64,
    /// The models, in output order.
    pub models: Vec<ModelKind>,
    /// At most this many test rows per replicate (a stratified sample of the rest); `None`
    /// tests on every row outside the training set.
    pub max_test: Option<usize>,
    /// The covariance shrinkage `γ ∈ [0, 1)` of LDA, QDA and GDT's LDA family (`gdt-cv`):
    /// `(1 − γ) S + γ (tr S / d) I`, as `gendisc fit lda --shrinkage` takes it; `None` fits
    /// them unregularised.
    pub shrinkage: Option<f64>,
}

/// The data and design of one comparison.
pub struct CompareStudy {
    design: Design,
    x: Array2<f64>,
    y: Array1<usize>,
    n_classes: usize,
    /// The rows of each class, ascending.
    rows_by_class: Vec<Vec<usize>>,
    /// Per training size (in `design.sizes` order): training and test rows per class.
    allocations: Vec<(Vec<usize>, Vec<usize>)>,
    schema: Schema,
    data_digest: String,
}

impl CompareStudy {
    /// Checks the data and the design.
    ///
    /// Errors: fewer than two classes, a training size that cannot hold a row of every class
    /// or leaves a class without a test row, no size, no replicate, no model, a model listed
    /// twice, or a test cap below the number of classes.
    pub fn new(x: Array2<f64>, y: Array1<usize>, design: Design) -> Result<Self> {
        if x.nrows() != y.len() {
            return Err(Error::shape_mismatch(
                "rows of the features vs class labels",
                x.nrows(),
                y.len(),
            ));
        }
        let n_classes = y.iter().max().map_or(0, |&k| k + 1);
        let mut rows_by_class = vec![Vec::new(); n_classes];
        for (i, &k) in y.iter().enumerate() {
            rows_by_class[k].push(i);
        }
        let class_sizes: Vec<usize> = rows_by_class.iter().map(Vec::len).collect();
        if class_sizes.iter().filter(|&&n| n > 0).count() < 2 {
            return Err(Error::invalid_parameter(
                "target",
                format!(
                    "the class column holds {} class(es); a comparison needs at least two",
                    class_sizes.iter().filter(|&&n| n > 0).count()
                ),
            ));
        }
        if let Some(class) = class_sizes.iter().position(|&n| n < 2) {
            return Err(Error::TooFewRows {
                what: format!("class {class} (one row to train on and one to test on)"),
                needed: 2,
                found: class_sizes[class],
            });
        }
        if design.replicates == 0 {
            return Err(Error::invalid_parameter(
                "replicates",
                "at least one replicate per size is needed",
            ));
        }
        if design.models.is_empty() {
            return Err(Error::invalid_parameter("models", "no model is named"));
        }
        for (i, model) in design.models.iter().enumerate() {
            if design.models[..i].contains(model) {
                return Err(Error::invalid_parameter(
                    "models",
                    format!("`{model}` is listed twice"),
                ));
            }
        }
        if design.sizes.is_empty() {
            return Err(Error::invalid_parameter("sizes", "no training size"));
        }
        if let Some(gamma) = design.shrinkage {
            if !(0.0..1.0).contains(&gamma) {
                return Err(Error::invalid_parameter(
                    "shrinkage",
                    format!("the shrinkage must lie in [0, 1), got {gamma}"),
                ));
            }
            if !design.models.iter().any(|m| m.takes_shrinkage()) {
                return Err(Error::invalid_parameter(
                    "shrinkage",
                    "it applies to lda, qda and gdt-cv, and none of them is compared",
                ));
            }
        }
        if let Some(cap) = design.max_test
            && cap < n_classes
        {
            return Err(Error::invalid_parameter(
                "max-test",
                format!(
                    "a test set of {cap} rows cannot hold a row of each of the {n_classes} classes"
                ),
            ));
        }
        let mut allocations = Vec::with_capacity(design.sizes.len());
        for (i, &size) in design.sizes.iter().enumerate() {
            if i > 0 && size <= design.sizes[i - 1] {
                return Err(Error::invalid_parameter(
                    "sizes",
                    format!(
                        "training sizes must increase; {size} follows {}",
                        design.sizes[i - 1]
                    ),
                ));
            }
            let (lowest, highest) = size_range(&class_sizes);
            if !(lowest..=highest).contains(&size) {
                return Err(Error::invalid_parameter(
                    "sizes",
                    format!(
                        "a training size of {size} is outside {lowest}..={highest}: each of the \
                         {n_classes} classes needs a training row and a test row"
                    ),
                ));
            }
            // Every class keeps a row back for the test set.
            let trainable: Vec<usize> = class_sizes.iter().map(|n| n - 1).collect();
            let train = allocate(&trainable, size, &class_sizes);
            let rest: Vec<usize> = class_sizes.iter().zip(&train).map(|(n, t)| n - t).collect();
            let test = match design.max_test {
                Some(cap) if cap < rest.iter().sum::<usize>() => allocate(&rest, cap, &class_sizes),
                _ => rest,
            };
            allocations.push((train, test));
        }
        let schema = Schema::new(design.models.iter().map(|m| m.name()), METRICS)?;
        let bits: Vec<u64> = x.iter().map(|v| v.to_bits()).collect();
        let data_digest = fingerprint(&(bits, y.to_vec()));
        Ok(Self {
            design,
            x,
            y,
            n_classes,
            rows_by_class,
            allocations,
            schema,
            data_digest,
        })
    }

    /// The design.
    pub fn design(&self) -> &Design {
        &self.design
    }

    /// The test rows of a replicate at each size, in size order.
    pub fn test_sizes(&self) -> Vec<usize> {
        self.allocations
            .iter()
            .map(|(_, test)| test.iter().sum())
            .collect()
    }

    /// The training and test rows of a cell, each ascending, and the seed of GDT's folds:
    /// each class's rows are shuffled by a partial Fisher–Yates shuffle from the cell's stream
    /// (classes in label order), its first rows train and the next ones test; the fold seed is
    /// the stream's next `u64`.
    pub fn split(&self, cell: &Cell) -> Result<(Vec<usize>, Vec<usize>, u64)> {
        let position = self
            .design
            .sizes
            .iter()
            .position(|&s| s == cell.train_size)
            .ok_or_else(|| {
                Error::invalid_parameter(
                    "train_size",
                    format!("{} is not a size of the comparison", cell.train_size),
                )
            })?;
        let (train_counts, test_counts) = &self.allocations[position];
        let mut rng: ChaCha8Rng = cell.rng(self.design.seed);
        let mut train = Vec::with_capacity(cell.train_size);
        let mut test = Vec::with_capacity(test_counts.iter().sum());
        for ((rows, &n_train), &n_test) in
            self.rows_by_class.iter().zip(train_counts).zip(test_counts)
        {
            let mut rows = rows.clone();
            let (drawn, _) = rows.partial_shuffle(&mut rng, n_train + n_test);
            train.extend_from_slice(&drawn[..n_train]);
            test.extend_from_slice(&drawn[n_train..]);
        }
        train.sort_unstable();
        test.sort_unstable();
        Ok((train, test, rng.random()))
    }

    /// Fits and scores one model on a cell's split: what [`Study::run_cell`] records, and what
    /// the report calls again to quote a failed fit's error.
    pub fn fit_and_score(&self, cell: &Cell, model: ModelKind) -> Result<Scores> {
        self.cell_data(cell)?.fit_and_score(model, self)
    }

    /// A cell's training and test rows, without the columns constant on its training rows,
    /// and the seed of its cross-validation folds.
    fn cell_data(&self, cell: &Cell) -> Result<CellData> {
        let (train, test, fold_seed) = self.split(cell)?;
        let (x_train, x_test) = without_constant_columns(
            take_rows(self.x.view(), &train)?,
            take_rows(self.x.view(), &test)?,
        );
        Ok(CellData {
            x_train,
            y_train: take(self.y.view(), &train)?,
            x_test,
            y_test: take(self.y.view(), &test)?,
            fold_seed,
        })
    }
}

/// What every model of a cell is fitted and scored on.
struct CellData {
    x_train: Array2<f64>,
    y_train: Array1<usize>,
    x_test: Array2<f64>,
    y_test: Array1<usize>,
    fold_seed: u64,
}

impl CellData {
    fn fit_and_score(&self, model: ModelKind, study: &CompareStudy) -> Result<Scores> {
        model.fit_and_score(
            (self.x_train.view(), self.y_train.view()),
            (self.x_test.view(), self.y_test.view()),
            study.n_classes,
            self.fold_seed,
            study.design.shrinkage,
        )
    }
}

impl Study for CompareStudy {
    fn id(&self) -> &str {
        STUDY_ID
    }

    fn fingerprint(&self) -> String {
        let models: Vec<&str> = self.design.models.iter().map(|m| m.name()).collect();
        fingerprint(&(
            VERSION,
            self.design.seed,
            &self.design.sizes,
            self.design.replicates,
            models,
            self.design.max_test,
            self.design.shrinkage,
            &self.data_digest,
        ))
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn cells(&self) -> Vec<Cell> {
        Cell::grid(&[DATASET], &self.design.sizes, self.design.replicates)
    }

    fn run_cell(&self, cell: &Cell) -> Result<Outcome> {
        let data = self.cell_data(cell)?;
        let mut outcome = Outcome::new(&self.schema);
        for (index, &model) in self.design.models.iter().enumerate() {
            // A model that cannot be fitted on a split (too few rows of a class for QDA's
            // covariances, say) is recorded as failed, not allowed to stop the others; the report
            // counts the failures and quotes one error.
            match data.fit_and_score(model, self) {
                Ok(scores) => {
                    outcome.set(index, ERROR, scores.error)?;
                    outcome.set(index, LOG_LOSS, scores.log_loss)?;
                    outcome.set(index, FAILED, 0.0)?;
                }
                Err(_) => outcome.set(index, FAILED, 1.0)?,
            }
        }
        Ok(outcome)
    }
}

/// The training and test rows without the columns that are constant on the training rows.
///
/// Such a column says nothing about the class on that training set, to any of the models
/// compared, and it makes LDA's and QDA's covariances and the cross-product of `glm`'s IRLS
/// singular: R's `glm` aliases it (its coefficient `NA`), and naive Bayes's likelihood term for
/// it is the same for every class. Rare levels of a categorical column, or discrete columns,
/// are constant on many small training sets.
fn without_constant_columns(
    x_train: Array2<f64>,
    x_test: Array2<f64>,
) -> (Array2<f64>, Array2<f64>) {
    let varying: Vec<usize> = x_train
        .columns()
        .into_iter()
        .enumerate()
        .filter(|(_, column)| column.iter().any(|&v| v != column[0]))
        .map(|(j, _)| j)
        .collect();
    if varying.len() == x_train.ncols() || varying.is_empty() {
        return (x_train, x_test);
    }
    (
        x_train.select(Axis(1), &varying),
        x_test.select(Axis(1), &varying),
    )
}

/// The smallest and largest training sizes for classes of `class_sizes` rows: a training row
/// of every class, and a test row of every class left over.
pub fn size_range(class_sizes: &[usize]) -> (usize, usize) {
    let n: usize = class_sizes.iter().sum();
    (class_sizes.len(), n - class_sizes.len())
}

/// Splits `total` rows over classes of `available` rows in proportion to `shares`: one row per
/// class first, then each further row to the class furthest below its share
/// `total · shares[c] / Σ shares` that still has a row available (the lowest label on ties).
/// Exact integer comparisons, so the allocation is the same on every platform.
///
/// Requires `K ≤ total ≤ Σ available` and every `available[c] ≥ 1`.
pub fn allocate(available: &[usize], total: usize, shares: &[usize]) -> Vec<usize> {
    let share_sum: i128 = shares.iter().map(|&s| s as i128).sum();
    let mut counts = vec![1_usize; available.len()];
    for _ in available.len()..total {
        // Deficit of class c in units of 1/share_sum: total·shares[c] − counts[c]·share_sum.
        let next = (0..available.len())
            .filter(|&c| counts[c] < available[c])
            .max_by_key(|&c| {
                (
                    total as i128 * shares[c] as i128 - counts[c] as i128 * share_sum,
                    std::cmp::Reverse(c),
                )
            });
        match next {
            Some(c) => counts[c] += 1,
            None => break,
        }
    }
    counts
}

/// The default grid: `points` sizes spaced geometrically from two rows per class to 80% of
/// the rows (within [`size_range`]), rounded, without repeats.
pub fn default_sizes(class_sizes: &[usize], points: usize) -> Vec<usize> {
    let (lowest, highest) = size_range(class_sizes);
    let n: usize = class_sizes.iter().sum();
    let bottom = (2 * class_sizes.len()).clamp(lowest, highest);
    let top = ((0.8 * n as f64).floor() as usize).clamp(bottom, highest);
    if points <= 1 || top == bottom {
        return vec![top];
    }
    let ratio = (top as f64 / bottom as f64).ln() / (points - 1) as f64;
    let mut sizes: Vec<usize> = (0..points)
        .map(|i| ((bottom as f64 * (ratio * i as f64).exp()).round() as usize).clamp(bottom, top))
        .collect();
    sizes[points - 1] = top;
    sizes.dedup();
    sizes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_constant_on_the_training_rows_are_left_out_of_both_sides() {
        let train = ndarray::array![[1.0, 5.0, 0.0], [2.0, 5.0, 1.0], [3.0, 5.0, 0.0]];
        let test = ndarray::array![[4.0, 6.0, 1.0]];
        let (train, test) = without_constant_columns(train, test);
        assert_eq!(train, ndarray::array![[1.0, 0.0], [2.0, 1.0], [3.0, 0.0]]);
        assert_eq!(test, ndarray::array![[4.0, 1.0]]);
        // Nothing varies: the models are left to say so.
        let flat = ndarray::array![[1.0], [1.0]];
        assert_eq!(without_constant_columns(flat.clone(), flat.clone()).0, flat);
    }

    #[test]
    fn allocation_is_proportional_with_a_row_per_class() {
        assert_eq!(allocate(&[90, 10], 10, &[90, 10]), vec![9, 1]);
        assert_eq!(allocate(&[90, 10], 2, &[90, 10]), vec![1, 1]);
        assert_eq!(allocate(&[50, 50], 7, &[50, 50]), vec![4, 3]);
        // A class that runs out gives its rows to the others.
        assert_eq!(allocate(&[3, 100], 50, &[50, 50]), vec![3, 47]);
    }

    #[test]
    fn default_sizes_are_geometric_and_within_range() {
        let sizes = default_sizes(&[150, 150], 10);
        assert_eq!((sizes[0], *sizes.last().unwrap()), (4, 240));
        assert!(sizes.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(default_sizes(&[2, 2], 10), vec![2]);
    }

    #[test]
    fn splits_are_stratified_disjoint_and_deterministic() {
        let y: Array1<usize> = (0..100).map(|i| usize::from(i % 4 == 0)).collect();
        let x = Array2::from_shape_fn((100, 2), |(i, j)| (i * (j + 1)) as f64);
        let design = Design {
            sizes: vec![8, 40],
            replicates: 3,
            seed: 5,
            models: vec![ModelKind::NaiveBayes],
            max_test: Some(20),
            shrinkage: None,
        };
        let study = CompareStudy::new(x, y.clone(), design).unwrap();
        let cell = Cell::new(DATASET, 40, 2);
        let (train, test, seed) = study.split(&cell).unwrap();
        assert_eq!((train.len(), test.len()), (40, 20));
        assert_eq!(train.iter().filter(|&&i| y[i] == 1).count(), 10);
        assert_eq!(test.iter().filter(|&&i| y[i] == 1).count(), 5);
        assert!(train.iter().all(|i| !test.contains(i)));
        assert_eq!(study.split(&cell).unwrap(), (train, test, seed));
        assert_ne!(study.split(&Cell::new(DATASET, 40, 1)).unwrap().2, seed);
    }

    #[test]
    fn one_class_and_impossible_sizes_are_refused() {
        let x = Array2::zeros((10, 1));
        let design = Design {
            sizes: vec![4],
            replicates: 1,
            seed: 0,
            models: vec![ModelKind::NaiveBayes],
            max_test: None,
            shrinkage: None,
        };
        let message = CompareStudy::new(x.clone(), Array1::zeros(10), design.clone())
            .err()
            .unwrap()
            .to_string();
        assert!(message.contains("at least two"), "{message}");
        let y: Array1<usize> = (0..10).map(|i| i % 2).collect();
        for sizes in [vec![1], vec![9], vec![4, 4]] {
            let design = Design {
                sizes,
                ..design.clone()
            };
            assert!(CompareStudy::new(x.clone(), y.clone(), design).is_err());
        }
    }
}
