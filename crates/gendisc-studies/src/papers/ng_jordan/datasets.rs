//! The fifteen UCI datasets of Ng & Jordan's figure, each reduced to the binary task with one
//! kind of input that the paper plots, read through [`dataset_path`].
//!
//! Every choice the paper leaves open is made here once, documented per dataset in
//! [`DatasetSpec::task`] and repeated in the report:
//!
//! * **one kind of input per run** (the paper's §4): continuous datasets keep their numeric
//!   columns, discrete ones their categorical columns; adult appears as both;
//! * **binary tasks**: the two classes the paper names (optdigits 0 vs 1 and 2 vs 3, lenses
//!   hard vs soft, Boston's price above its median), otherwise the majority class against the
//!   rest (lymphography);
//! * **missing values**: a row with a missing value in a column the run uses is dropped
//!   (complete-case analysis), except in the voting records, where `?` means "voted neither
//!   yea nor nay" (the data's documentation) and is kept as a third answer;
//! * **continuous inputs** are standardised over the whole dataset (centred, divided by their
//!   standard deviation; labels unused; a constant column stays 0): the paper rescales inputs
//!   "where necessary", and a fixed prior strength on logistic regression then means the same
//!   on every dataset. Naive Bayes with shared variances and unpenalised logistic regression do
//!   not depend on the scale; penalised logistic regression and the random separator do, so the
//!   study also runs them on inputs rescaled to [0, 1] ([`rescale_unit_range`]), the other
//!   common reading of "rescaled";
//! * **discrete inputs** are level codes `0..L_j`, with `L_j` the number of levels that occur in
//!   the rows kept; logistic regression sees them one-hot (one indicator per level).

use gendisc_core::{Error, Result};
use gendisc_data::loaders::{
    dataset_path, ColumnRef, ColumnType, ColumnValues, Separator, Table, TableReader,
};
use ndarray::{Array1, Array2, Axis};

/// The kind of input a panel of the figure uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum InputKind {
    /// Real-valued inputs: Gaussian naive Bayes against logistic regression.
    Continuous,
    /// Categorical inputs: naive Bayes with Laplace smoothing against logistic regression on
    /// one-hot features.
    Discrete,
}

impl InputKind {
    /// `"continuous"` or `"discrete"`, as the paper's panel titles.
    pub fn name(self) -> &'static str {
        match self {
            InputKind::Continuous => "continuous",
            InputKind::Discrete => "discrete",
        }
    }
}

/// One panel of the paper's figure: which file, which task, which inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DatasetSpec {
    /// The identifier in tables and cells, e.g. `"optdigits-0-1"`.
    pub name: &'static str,
    /// The panel title, after the paper's.
    pub title: &'static str,
    /// Continuous or discrete inputs.
    pub kind: InputKind,
    /// The data files, relative to the data directory.
    pub files: &'static [&'static str],
    /// The binary task and the preparation, in words (for the report).
    pub task: &'static str,
}

/// The fifteen panels, in the order of the paper's figure (continuous first).
pub const DATASETS: [DatasetSpec; 15] = [
    DatasetSpec {
        name: "pima",
        title: "pima (continuous)",
        kind: InputKind::Continuous,
        files: &[PIMA],
        task: "diabetes (class 1) vs not (class 0); the 8 attributes as given (zeros that stand \
               for missing measurements are kept as values)",
    },
    DatasetSpec {
        name: "adult-continuous",
        title: "adult (continuous)",
        kind: InputKind::Continuous,
        files: &[ADULT],
        task: "income >50K vs <=50K in `adult.data`; the 6 numeric attributes (age, fnlwgt, \
               education-num, capital-gain, capital-loss, hours-per-week)",
    },
    DatasetSpec {
        name: "boston",
        title: "boston (predict if > median price, continuous)",
        kind: InputKind::Continuous,
        files: &[BOSTON],
        task: "MEDV above its median over the 506 tracts vs not; the 13 other attributes",
    },
    DatasetSpec {
        name: "optdigits-0-1",
        title: "optdigits (0's and 1's, continuous)",
        kind: InputKind::Continuous,
        files: &[OPTDIGITS_TRAIN, OPTDIGITS_TEST],
        task: "digit 1 vs digit 0, training and test files pooled; the 64 block counts",
    },
    DatasetSpec {
        name: "optdigits-2-3",
        title: "optdigits (2's and 3's, continuous)",
        kind: InputKind::Continuous,
        files: &[OPTDIGITS_TRAIN, OPTDIGITS_TEST],
        task: "digit 3 vs digit 2, training and test files pooled; the 64 block counts",
    },
    DatasetSpec {
        name: "ionosphere",
        title: "ionosphere (continuous)",
        kind: InputKind::Continuous,
        files: &[IONOSPHERE],
        task: "good (g) vs bad (b) radar returns; the 34 attributes (the second is constant)",
    },
    DatasetSpec {
        name: "liver-disorders",
        title: "liver disorders (continuous)",
        kind: InputKind::Continuous,
        files: &[BUPA],
        task: "the `selector` field (2 vs 1) as the class, as machine-learning papers of the \
               time used it (UCI now warns it is a train/test selector, not a diagnosis); the \
               6 other fields, `drinks` included",
    },
    DatasetSpec {
        name: "sonar",
        title: "sonar (continuous)",
        kind: InputKind::Continuous,
        files: &[SONAR],
        task: "rock (R) vs mine (M); the 60 band energies",
    },
    DatasetSpec {
        name: "adult-discrete",
        title: "adult (discrete)",
        kind: InputKind::Discrete,
        files: &[ADULT],
        task: "income >50K vs <=50K in `adult.data`; the 8 categorical attributes, rows with a \
               missing value (`?`) in them dropped",
    },
    DatasetSpec {
        name: "promoters",
        title: "promoters (discrete)",
        kind: InputKind::Discrete,
        files: &[PROMOTERS],
        task: "promoter (+) vs not (-); one 4-level attribute per position of the 57-nucleotide \
               sequence",
    },
    DatasetSpec {
        name: "lymphography",
        title: "lymphography (discrete)",
        kind: InputKind::Discrete,
        files: &[LYMPHOGRAPHY],
        task: "the majority class (2, metastases: 81 rows) vs the other three (67 rows); the 18 \
               attributes as categories",
    },
    DatasetSpec {
        name: "breast-cancer",
        title: "breast cancer (discrete)",
        kind: InputKind::Discrete,
        files: &[BREAST_CANCER],
        task: "recurrence-events vs no-recurrence-events; the 9 attributes as categories, the 9 \
               rows with a missing value dropped",
    },
    DatasetSpec {
        name: "lenses",
        title: "lenses (predict hard vs soft, discrete)",
        kind: InputKind::Discrete,
        files: &[LENSES],
        task:
            "soft (class 2) vs hard (class 1) contact lenses, the 15 `none` rows left out; the 4 \
               attributes as categories",
    },
    DatasetSpec {
        name: "sick",
        title: "sick (discrete)",
        kind: InputKind::Discrete,
        files: &[SICK],
        task: "sick vs negative in the ARFF file (`sick.data` and `sick.test` together); the 22 \
               nominal attributes (the 7 numeric ones left out), rows with a missing value in \
               them dropped",
    },
    DatasetSpec {
        name: "voting",
        title: "voting records (discrete)",
        kind: InputKind::Discrete,
        files: &[VOTING],
        task: "republican vs democrat; the 16 votes with three answers each: y, n and `?` \
               (neither)",
    },
];

const PIMA: &str = "uci/pima-indians-diabetes/pima-indians-diabetes.data";
const ADULT: &str = "uci/adult/adult.data";
const BOSTON: &str = "uci/boston-housing/housing.data";
const OPTDIGITS_TRAIN: &str = "uci/optdigits/optdigits.tra";
const OPTDIGITS_TEST: &str = "uci/optdigits/optdigits.tes";
const IONOSPHERE: &str = "uci/ionosphere/ionosphere.data";
const BUPA: &str = "uci/liver-disorders-bupa/bupa.data";
const SONAR: &str = "uci/sonar/sonar.all-data";
const PROMOTERS: &str = "uci/promoters/promoters.data";
const LYMPHOGRAPHY: &str = "uci/lymphography/lymphography.data";
const BREAST_CANCER: &str = "uci/breast-cancer-ljubljana/breast-cancer.data";
const LENSES: &str = "uci/lenses/lenses.data";
const SICK: &str = "uci/thyroid-sick/sick.arff";
const VOTING: &str = "uci/congressional-voting/house-votes-84.data";

/// Every data file the study reads, relative to the data directory, each once.
pub fn required_files() -> Vec<&'static str> {
    let mut files: Vec<&'static str> = Vec::new();
    for spec in &DATASETS {
        for file in spec.files {
            if !files.contains(file) {
                files.push(file);
            }
        }
    }
    files
}

/// The inputs of a dataset, prepared for both classifiers.
#[derive(Debug, Clone, PartialEq)]
pub enum Inputs {
    /// Standardised real-valued inputs, `n × d`.
    Continuous(Array2<f64>),
    /// Categorical inputs.
    Discrete {
        /// Level codes `0..L_j` as `f64`, `n × d` (the input of categorical naive Bayes).
        codes: Array2<f64>,
        /// `L_j`, the number of levels of each attribute in the rows kept.
        levels: Vec<usize>,
        /// One indicator per level, `n × Σ_j L_j` (the input of logistic regression).
        one_hot: Array2<f64>,
    },
}

impl Inputs {
    /// The number of attributes `d` (before one-hot encoding).
    pub fn n_attributes(&self) -> usize {
        match self {
            Inputs::Continuous(x) => x.ncols(),
            Inputs::Discrete { codes, .. } => codes.ncols(),
        }
    }

    /// The number of inputs logistic regression sees (one-hot columns for discrete data).
    pub fn n_lr_inputs(&self) -> usize {
        match self {
            Inputs::Continuous(x) => x.ncols(),
            Inputs::Discrete { one_hot, .. } => one_hot.ncols(),
        }
    }
}

/// A dataset ready for the study: inputs and binary labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Dataset {
    /// Its panel.
    pub spec: DatasetSpec,
    /// The inputs.
    pub inputs: Inputs,
    /// The class of each row: 1 for the first-named (positive) class of the task, else 0.
    pub y: Array1<usize>,
    /// Rows of the file(s) left out: other classes, or a missing value in a used column.
    pub rows_left_out: usize,
}

impl Dataset {
    /// Number of rows.
    pub fn n_rows(&self) -> usize {
        self.y.len()
    }

    /// Rows of class 1.
    pub fn n_positive(&self) -> usize {
        self.y.iter().filter(|&&k| k == 1).count()
    }

    /// Checks that the dataset can be studied: inputs with one row per label, labels 0 and 1
    /// both present, finite continuous inputs, discrete codes within their levels and a one-hot
    /// matrix that matches them.
    pub fn check(&self) -> Result<()> {
        let name = self.spec.name;
        let n = self.y.len();
        let rows = match &self.inputs {
            Inputs::Continuous(x) => x.nrows(),
            Inputs::Discrete { codes, .. } => codes.nrows(),
        };
        if rows != n {
            return Err(Error::shape_mismatch(
                format!("rows of {name}'s inputs vs its labels"),
                n,
                rows,
            ));
        }
        if let Some(row) = self.y.iter().position(|&k| k > 1) {
            return Err(Error::LabelOutOfRange {
                row,
                label: self.y[row],
                n_classes: 2,
            });
        }
        for class in 0..2 {
            if !self.y.iter().any(|&k| k == class) {
                return Err(Error::EmptyClass {
                    class,
                    detail: Some(format!("dataset {name} has no row of class {class}")),
                });
            }
        }
        match &self.inputs {
            Inputs::Continuous(x) => {
                gendisc_core::validate::check_training_matrix(x.view())?;
            }
            Inputs::Discrete {
                codes,
                levels,
                one_hot,
            } => {
                if levels.len() != codes.ncols() {
                    return Err(Error::shape_mismatch(
                        format!("levels vs attributes of {name}"),
                        codes.ncols(),
                        levels.len(),
                    ));
                }
                for ((row, column), &code) in codes.indexed_iter() {
                    if !(code >= 0.0 && code.fract() == 0.0 && (code as usize) < levels[column]) {
                        return Err(Error::InvalidValue {
                            what: format!("level code of {name}"),
                            row,
                            column,
                            value: code,
                            reason: format!("not an integer in 0..{}", levels[column]),
                        });
                    }
                }
                let width: usize = levels.iter().sum();
                if one_hot.dim() != (n, width) {
                    return Err(Error::shape_mismatch(
                        format!("columns of {name}'s one-hot inputs vs its levels"),
                        width,
                        one_hot.ncols(),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Reads and prepares every dataset of [`DATASETS`], in order; the adult file is read once.
///
/// Fails with the loader's error — for a missing file an [`Error::Io`] naming it and
/// `cargo xtask fetch-data`.
pub fn load_all() -> Result<Vec<Dataset>> {
    let adult = TableReader::uci(Separator::Comma).read(dataset_path(ADULT)?)?;
    DATASETS
        .iter()
        .map(|spec| match spec.name {
            "adult-continuous" => adult_continuous(spec, &adult),
            "adult-discrete" => adult_discrete(spec, &adult),
            _ => load(spec),
        })
        .collect()
}

/// Reads and prepares one dataset.
pub fn load(spec: &DatasetSpec) -> Result<Dataset> {
    let comma = || TableReader::uci(Separator::Comma);
    match spec.name {
        "pima" => {
            let table = comma().read(dataset_path(PIMA)?)?;
            continuous(spec, &table, &["1"], None)
        }
        "adult-continuous" | "adult-discrete" => {
            let table = comma().read(dataset_path(ADULT)?)?;
            if spec.kind == InputKind::Continuous {
                adult_continuous(spec, &table)
            } else {
                adult_discrete(spec, &table)
            }
        }
        "boston" => boston(spec),
        "optdigits-0-1" | "optdigits-2-3" => {
            let table = comma().read_files(&[
                dataset_path(OPTDIGITS_TRAIN)?,
                dataset_path(OPTDIGITS_TEST)?,
            ])?;
            let (positive, negative) = if spec.name == "optdigits-0-1" {
                ("1", "0")
            } else {
                ("3", "2")
            };
            continuous(spec, &table, &[positive], Some(&[negative]))
        }
        "ionosphere" => {
            let table = comma().read(dataset_path(IONOSPHERE)?)?;
            continuous(spec, &table, &["g"], None)
        }
        "liver-disorders" => {
            let table = comma().read(dataset_path(BUPA)?)?;
            continuous(spec, &table, &["2"], None)
        }
        "sonar" => {
            let table = comma().read(dataset_path(SONAR)?)?;
            continuous(spec, &table, &["R"], None)
        }
        "promoters" => {
            let table = comma()
                .class_column(ColumnRef::First)
                .ignore_columns([1])
                .read(dataset_path(PROMOTERS)?)?
                .explode_characters("V3")?;
            discrete(spec, &table, &["+"], None)
        }
        "lymphography" => {
            let table = comma()
                .class_column(ColumnRef::First)
                .all_columns(ColumnType::Categorical)
                .read(dataset_path(LYMPHOGRAPHY)?)?;
            discrete(spec, &table, &["2"], None)
        }
        "breast-cancer" => {
            let table = comma()
                .class_column(ColumnRef::First)
                .all_columns(ColumnType::Categorical)
                .read(dataset_path(BREAST_CANCER)?)?;
            discrete(spec, &table, &["recurrence-events"], None)
        }
        "lenses" => {
            let table = TableReader::uci(Separator::Whitespace)
                .ignore_columns([0])
                .all_columns(ColumnType::Categorical)
                .read(dataset_path(LENSES)?)?;
            discrete(spec, &table, &["2"], Some(&["1"]))
        }
        "sick" => {
            let table = TableReader::arff().read(dataset_path(SICK)?)?;
            let nominal: Vec<&str> = table
                .columns()
                .iter()
                .filter(|c| !c.is_numeric())
                .map(|c| c.name())
                .collect();
            let table = table.select_columns(&nominal)?;
            discrete(spec, &table, &["sick"], None)
        }
        "voting" => {
            let table = comma()
                .class_column(ColumnRef::First)
                .no_missing_marker()
                .read(dataset_path(VOTING)?)?;
            discrete(spec, &table, &["republican"], None)
        }
        other => Err(Error::invalid_parameter(
            "dataset",
            format!("`{other}` is not a dataset of the Ng-Jordan study"),
        )),
    }
}

/// The numeric columns of adult: age, fnlwgt, education-num, capital-gain, capital-loss,
/// hours-per-week (fields 1, 3, 5, 11, 12, 13).
const ADULT_NUMERIC: [&str; 6] = ["V1", "V3", "V5", "V11", "V12", "V13"];
/// The categorical columns of adult: workclass, education, marital-status, occupation,
/// relationship, race, sex, native-country.
const ADULT_CATEGORICAL: [&str; 8] = ["V2", "V4", "V6", "V7", "V8", "V9", "V10", "V14"];

fn adult_continuous(spec: &DatasetSpec, adult: &Table) -> Result<Dataset> {
    continuous(
        spec,
        &adult.select_columns(&ADULT_NUMERIC)?,
        &[">50K"],
        None,
    )
}

fn adult_discrete(spec: &DatasetSpec, adult: &Table) -> Result<Dataset> {
    discrete(
        spec,
        &adult.select_columns(&ADULT_CATEGORICAL)?,
        &[">50K"],
        None,
    )
}

fn boston(spec: &DatasetSpec) -> Result<Dataset> {
    let table = TableReader::uci(Separator::Whitespace).read(dataset_path(BOSTON)?)?;
    let price = table.numeric_class_labels()?;
    let median = gendisc_metrics::median(price.as_slice().unwrap_or(&price.to_vec()))?;
    let y = price.mapv(|p| usize::from(p > median));
    let x = standardise(table.to_dense()?);
    Ok(Dataset {
        spec: *spec,
        inputs: Inputs::Continuous(x),
        y,
        rows_left_out: 0,
    })
}

/// Which rows take part and their binary class: class 1 for a label in `positive`; class 0 for
/// a label in `negative`, or for every other label when `negative` is `None`.
fn binary_rows(
    table: &Table,
    positive: &[&str],
    negative: Option<&[&str]>,
) -> Result<(Vec<usize>, Vec<usize>)> {
    let labels = table.classes().labels();
    for wanted in positive.iter().chain(negative.unwrap_or_default()) {
        if !labels.iter().any(|l| l == wanted) {
            return Err(Error::invalid_parameter(
                "class",
                format!(
                    "class `{wanted}` does not occur in the class column `{}` (classes: {})",
                    table.class_name(),
                    labels.join(", ")
                ),
            ));
        }
    }
    let mut rows = Vec::new();
    let mut y = Vec::new();
    for (row, &k) in table.targets().iter().enumerate() {
        let label = labels[k].as_str();
        if positive.contains(&label) {
            rows.push(row);
            y.push(1);
        } else if negative.is_none_or(|n| n.contains(&label)) {
            rows.push(row);
            y.push(0);
        }
    }
    Ok((rows, y))
}

fn continuous(
    spec: &DatasetSpec,
    table: &Table,
    positive: &[&str],
    negative: Option<&[&str]>,
) -> Result<Dataset> {
    let (rows, y) = binary_rows(table, positive, negative)?;
    let x = table.to_dense()?.select(Axis(0), &rows);
    Ok(Dataset {
        spec: *spec,
        inputs: Inputs::Continuous(standardise(x)),
        y: Array1::from(y),
        rows_left_out: table.n_rows() - rows.len(),
    })
}

/// Centres every column and divides it by its standard deviation (divisor `n`); a constant
/// column becomes 0.
pub(crate) fn standardise(mut x: Array2<f64>) -> Array2<f64> {
    let n = x.nrows() as f64;
    for mut column in x.columns_mut() {
        let mean = column.sum() / n;
        let variance = column.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        let scale = if variance > 0.0 { variance.sqrt() } else { 1.0 };
        column.mapv_inplace(|v| (v - mean) / scale);
    }
    x
}

/// Rescales every column linearly to [0, 1] — its minimum to 0, its maximum to 1 — over the
/// whole dataset (labels unused); a constant column becomes 0. The second reading of the
/// paper's "rescaled where necessary" (§4): the map is affine per column, so the result is the
/// same whether the columns were standardised first or not (up to rounding).
pub fn rescale_unit_range(mut x: Array2<f64>) -> Array2<f64> {
    for mut column in x.columns_mut() {
        let (lo, hi) = column
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                (lo.min(v), hi.max(v))
            });
        let range = hi - lo;
        if range > 0.0 {
            column.mapv_inplace(|v| (v - lo) / range);
        } else {
            column.fill(0.0);
        }
    }
    x
}

fn discrete(
    spec: &DatasetSpec,
    table: &Table,
    positive: &[&str],
    negative: Option<&[&str]>,
) -> Result<Dataset> {
    let (class_rows, class_y) = binary_rows(table, positive, negative)?;
    let mut columns = Vec::with_capacity(table.n_columns());
    for column in table.columns() {
        match column.values() {
            ColumnValues::Categorical(c) => columns.push(c.codes()),
            ColumnValues::Numeric(_) => {
                return Err(Error::invalid_parameter(
                    "columns",
                    format!(
                        "column `{}` of {} is numeric; the discrete run takes categorical \
                         columns only",
                        column.name(),
                        spec.name
                    ),
                ))
            }
        }
    }
    // Complete cases among the rows of the two classes.
    let (rows, y): (Vec<usize>, Vec<usize>) = class_rows
        .iter()
        .zip(&class_y)
        .filter(|&(&row, _)| columns.iter().all(|codes| codes[row].is_some()))
        .map(|(&row, &k)| (row, k))
        .unzip();
    // Levels compacted to those that occur in the rows kept.
    let mut codes = Array2::zeros((rows.len(), columns.len()));
    let mut levels = Vec::with_capacity(columns.len());
    for (j, column) in columns.iter().enumerate() {
        let width = rows
            .iter()
            .filter_map(|&r| column[r])
            .max()
            .map_or(0, |m| m + 1);
        let mut compact = vec![None; width];
        let mut next = 0;
        for (i, &row) in rows.iter().enumerate() {
            // Complete cases: every code is present.
            let code = column[row].unwrap_or_default();
            let level = *compact[code].get_or_insert_with(|| {
                next += 1;
                next - 1
            });
            codes[[i, j]] = level as f64;
        }
        levels.push(next);
    }
    let one_hot = one_hot(&codes, &levels);
    Ok(Dataset {
        spec: *spec,
        inputs: Inputs::Discrete {
            codes,
            levels,
            one_hot,
        },
        y: Array1::from(y),
        rows_left_out: table.n_rows() - rows.len(),
    })
}

/// One 0/1 indicator per level of each attribute, `n × Σ_j L_j`: the inputs of logistic
/// regression for the level codes `codes` (integers in `0..levels[j]`).
pub(super) fn one_hot(codes: &Array2<f64>, levels: &[usize]) -> Array2<f64> {
    let mut one_hot = Array2::zeros((codes.nrows(), levels.iter().sum()));
    let mut offset = 0;
    for (j, &l) in levels.iter().enumerate() {
        for (i, &code) in codes.column(j).iter().enumerate() {
            one_hot[[i, offset + code as usize]] = 1.0;
        }
        offset += l;
    }
    one_hot
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_files_listed_once() {
        for (i, spec) in DATASETS.iter().enumerate() {
            assert!(DATASETS[..i].iter().all(|s| s.name != spec.name));
        }
        let files = required_files();
        assert_eq!(files.len(), 14, "{files:?}");
        assert_eq!(
            DATASETS
                .iter()
                .filter(|s| s.kind == InputKind::Continuous)
                .count(),
            8
        );
    }

    #[test]
    fn standardised_columns_have_zero_mean_and_unit_variance() {
        let x = ndarray::array![[1.0, 5.0, 2.0], [3.0, 5.0, 4.0], [8.0, 5.0, 9.0]];
        let z = standardise(x);
        for j in [0, 2] {
            let c = z.column(j);
            assert!(c.sum().abs() < 1e-12);
            assert!((c.iter().map(|v| v * v).sum::<f64>() / 3.0 - 1.0).abs() < 1e-12);
        }
        assert!(z.column(1).iter().all(|&v| v == 0.0));
    }

    #[test]
    fn unit_range_columns_span_zero_to_one_whatever_the_prior_scaling() {
        let x = ndarray::array![[1.0, 5.0, 2.0], [3.0, 5.0, -4.0], [8.0, 5.0, 9.0]];
        let u = rescale_unit_range(x.clone());
        assert_eq!(u.column(0).to_vec(), vec![0.0, 2.0 / 7.0, 1.0]);
        assert_eq!(u.column(2).to_vec(), vec![6.0 / 13.0, 0.0, 1.0]);
        assert!(u.column(1).iter().all(|&v| v == 0.0));
        // Standardising first changes nothing but rounding.
        let from_standardised = rescale_unit_range(standardise(x));
        for (a, b) in u.iter().zip(&from_standardised) {
            assert!((a - b).abs() < 1e-12, "{a} vs {b}");
        }
    }

    #[test]
    fn discrete_preparation_keeps_complete_cases_and_compacts_levels() {
        // Class first; `?` missing; level `c` of V3 occurs only in a dropped row.
        let table = TableReader::uci(Separator::Comma)
            .class_column(ColumnRef::First)
            .all_columns(ColumnType::Categorical)
            .read_str("p,x,a\nn,y,b\np,?,c\nn,x,b\nq,x,a\n", "toy.data")
            .unwrap();
        let spec = DATASETS[9];
        let d = discrete(&spec, &table, &["p"], Some(&["n"])).unwrap();
        assert_eq!(d.y.to_vec(), vec![1, 0, 0]);
        assert_eq!(d.rows_left_out, 2);
        let Inputs::Discrete {
            codes,
            levels,
            one_hot,
        } = d.inputs
        else {
            panic!("discrete inputs expected")
        };
        assert_eq!(levels, vec![2, 2]);
        assert_eq!(codes, ndarray::array![[0.0, 0.0], [1.0, 1.0], [0.0, 1.0]]);
        assert_eq!(
            one_hot,
            ndarray::array![
                [1.0, 0.0, 1.0, 0.0],
                [0.0, 1.0, 0.0, 1.0],
                [1.0, 0.0, 0.0, 1.0]
            ]
        );
    }

    #[test]
    fn an_unknown_class_is_an_error() {
        let table = TableReader::uci(Separator::Comma)
            .read_str("1,a\n2,b\n", "toy.data")
            .unwrap();
        let err = binary_rows(&table, &["c"], None).unwrap_err();
        assert!(err.to_string().contains("`c`"), "{err}");
    }
}
