//! The loaded table: typed feature columns, the class column, and where each row came from.

use std::collections::BTreeSet;
use std::path::Path;

use gendisc_core::{ClassLabels, Error, Result};
use ndarray::{Array1, Array2};

use super::source::{parse_error, RowOrigin, Sources};

/// A table read from a file: feature columns that are numeric or categorical, and a class column.
///
/// Missing values are explicit (`None`); nothing turns them into NaN. The class column is encoded
/// by a [`ClassLabels<String>`]: class `k` is the `k`-th smallest label as a string, so `"10"`
/// sorts before `"2"`. Every row remembers its file and line, so that later errors (a missing
/// value met by [`to_dense`](Self::to_dense), an unknown level met by
/// [`align_to`](Self::align_to)) point into the file.
///
/// ```
/// use gendisc_data::loaders::{TableReader, Separator};
///
/// let table = TableReader::uci(Separator::Comma)
///     .read_str("5.1,red,yes\n?,blue,no\n4.7,red,yes\n", "toy.data")?;
/// assert_eq!((table.n_rows(), table.n_columns()), (3, 2));
/// assert_eq!(table.classes().labels(), &["no", "yes"]);
/// assert_eq!(table.targets().to_vec(), vec![1, 0, 1]);
///
/// let complete = table.drop_missing_rows();
/// let (x, names) = complete.one_hot(gendisc_data::loaders::OneHot::AllLevels)?;
/// assert_eq!(names, ["V1", "V2=blue", "V2=red"]);
/// assert_eq!(x.row(1).to_vec(), vec![4.7, 0.0, 1.0]);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub(crate) columns: Vec<Column>,
    pub(crate) class_name: String,
    /// 1-based field of the class column in the file.
    pub(crate) class_field: usize,
    pub(crate) classes: ClassLabels<String>,
    pub(crate) targets: Array1<usize>,
    pub(crate) sources: Sources,
    pub(crate) origins: Vec<RowOrigin>,
    /// Where each row left out for a missing value came from, in the order they were dropped.
    pub(crate) dropped: Vec<RowOrigin>,
}

/// One feature column: its name, where it sat in the file, and its values.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub(crate) name: String,
    pub(crate) field: usize,
    pub(crate) values: ColumnValues,
}

/// The values of a column, one per row; `None` is a missing value.
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnValues {
    /// Finite numbers.
    Numeric(Vec<Option<f64>>),
    /// Strings, stored as codes into a sorted list of levels.
    Categorical(Categorical),
}

/// A categorical column: sorted distinct levels and, for each row, the index of its level.
///
/// Levels are sorted by byte order (as `str`'s `Ord`; scikit-learn's `OneHotEncoder` and
/// `np.unique` agree for ASCII), so codes do not depend on the order rows came in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Categorical {
    pub(crate) levels: Vec<String>,
    pub(crate) codes: Vec<Option<usize>>,
}

/// How [`Table::one_hot`] encodes a categorical column with `L` levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OneHot {
    /// One indicator per level (`L` columns), as scikit-learn's `OneHotEncoder()`. With an
    /// intercept the indicators of a column sum to it, so an unpenalised linear model needs
    /// a prior or [`DropFirstLevel`](Self::DropFirstLevel).
    AllLevels,
    /// Indicators for levels 2…L only (`L − 1` columns); the first level is the reference, as R's
    /// default treatment contrasts in `model.matrix`.
    DropFirstLevel,
}

impl Categorical {
    /// The distinct levels, sorted.
    pub fn levels(&self) -> &[String] {
        &self.levels
    }

    /// For each row, the index of its level in [`levels`](Self::levels), or `None` if missing.
    pub fn codes(&self) -> &[Option<usize>] {
        &self.codes
    }

    /// The level of row `row`, or `None` if the value is missing or `row` is out of range.
    pub fn value(&self, row: usize) -> Option<&str> {
        let code = (*self.codes.get(row)?)?;
        Some(self.levels[code].as_str())
    }
}

impl ColumnValues {
    /// Number of rows.
    pub fn len(&self) -> usize {
        match self {
            ColumnValues::Numeric(values) => values.len(),
            ColumnValues::Categorical(categorical) => categorical.codes.len(),
        }
    }

    /// Whether the column has no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the value of row `row` is missing.
    fn is_missing(&self, row: usize) -> bool {
        match self {
            ColumnValues::Numeric(values) => values[row].is_none(),
            ColumnValues::Categorical(categorical) => categorical.codes[row].is_none(),
        }
    }

    /// The values of the rows in `rows`, in that order.
    fn select_rows(&self, rows: &[usize]) -> ColumnValues {
        match self {
            ColumnValues::Numeric(values) => {
                ColumnValues::Numeric(rows.iter().map(|&i| values[i]).collect())
            }
            ColumnValues::Categorical(categorical) => ColumnValues::Categorical(Categorical {
                levels: categorical.levels.clone(),
                codes: rows.iter().map(|&i| categorical.codes[i]).collect(),
            }),
        }
    }
}

impl Column {
    /// The column's name (from the header, the ARFF declaration, the names given to the reader,
    /// or `V1`, `V2`, … after the field's position in the file, as R's `read.table`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The 1-based field of the file this column was read from (errors report this number).
    pub fn source_field(&self) -> usize {
        self.field
    }

    /// The values.
    pub fn values(&self) -> &ColumnValues {
        &self.values
    }

    /// Whether the column is numeric.
    pub fn is_numeric(&self) -> bool {
        matches!(self.values, ColumnValues::Numeric(_))
    }

    /// Number of missing values.
    pub fn missing_count(&self) -> usize {
        match &self.values {
            ColumnValues::Numeric(values) => values.iter().filter(|v| v.is_none()).count(),
            ColumnValues::Categorical(categorical) => {
                categorical.codes.iter().filter(|c| c.is_none()).count()
            }
        }
    }
}

impl Table {
    /// Number of rows.
    pub fn n_rows(&self) -> usize {
        self.targets.len()
    }

    /// Number of feature columns (the class column and ignored columns excluded).
    pub fn n_columns(&self) -> usize {
        self.columns.len()
    }

    /// The feature columns, in file order.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The feature column called `name`, if any.
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
    }

    /// The names of the feature columns, in order.
    pub fn column_names(&self) -> Vec<&str> {
        self.columns.iter().map(|c| c.name.as_str()).collect()
    }

    /// The name of the class column.
    pub fn class_name(&self) -> &str {
        &self.class_name
    }

    /// The classes: sorted distinct class labels and their encoding as `0..K`.
    pub fn classes(&self) -> &ClassLabels<String> {
        &self.classes
    }

    /// The class of each row as an index into [`classes`](Self::classes).
    pub fn targets(&self) -> &Array1<usize> {
        &self.targets
    }

    /// The class label of each row, as written in the file: what
    /// [`LabelledModel::fit`](gendisc_core::LabelledModel::fit) takes.
    pub fn labels(&self) -> Vec<String> {
        let labels = self.classes.labels();
        self.targets.iter().map(|&k| labels[k].clone()).collect()
    }

    /// The number of rows of each class, in class order.
    pub fn class_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.classes.n_classes()];
        for &k in &self.targets {
            counts[k] += 1;
        }
        counts
    }

    /// The class label of each row parsed as a number: for a numeric target such as Boston
    /// housing's `MEDV`, which a study thresholds into classes.
    ///
    /// Fails with an [`Error::Parse`] at the first row whose label is not a finite number.
    pub fn numeric_class_labels(&self) -> Result<Array1<f64>> {
        let values: Vec<Option<f64>> = self
            .classes
            .labels()
            .iter()
            .map(|label| label.parse::<f64>().ok().filter(|v| v.is_finite()))
            .collect();
        self.targets
            .iter()
            .enumerate()
            .map(|(row, &k)| {
                values[k].ok_or_else(|| {
                    self.cell_error(
                        row,
                        self.class_field,
                        format!(
                            "class label '{}' is not a finite number",
                            self.classes.labels()[k]
                        ),
                    )
                })
            })
            .collect()
    }

    /// The file and 1-based line that row `row` was read from.
    pub fn row_origin(&self, row: usize) -> Option<(&Path, usize)> {
        let origin = self.origins.get(row)?;
        Some((self.sources[origin.source].as_path(), origin.line))
    }

    /// How many rows were left out because of a missing value: by the reader under
    /// [`MissingValues::DropRows`](super::MissingValues::DropRows), and by
    /// [`drop_missing_rows`](Self::drop_missing_rows) since.
    pub fn n_dropped_rows(&self) -> usize {
        self.dropped.len()
    }

    /// The file and 1-based line of each row counted by [`n_dropped_rows`](Self::n_dropped_rows),
    /// in file order for each dropping step.
    pub fn dropped_rows(&self) -> Vec<(&Path, usize)> {
        self.dropped
            .iter()
            .map(|origin| (self.sources[origin.source].as_path(), origin.line))
            .collect()
    }

    /// The rows (0-based, increasing) that have at least one missing feature value.
    pub fn incomplete_rows(&self) -> Vec<usize> {
        (0..self.n_rows())
            .filter(|&row| self.columns.iter().any(|c| c.values.is_missing(row)))
            .collect()
    }

    /// The table without its incomplete rows (complete-case analysis, as R's `na.omit`); they
    /// are added to [`n_dropped_rows`](Self::n_dropped_rows).
    ///
    /// Categorical levels and classes are kept even if no remaining row uses them, so codes and
    /// class indices mean the same before and after.
    pub fn drop_missing_rows(&self) -> Table {
        let (keep, drop): (Vec<usize>, Vec<usize>) = (0..self.n_rows())
            .partition(|&row| !self.columns.iter().any(|c| c.values.is_missing(row)));
        let mut table = self.select_rows(&keep);
        table
            .dropped
            .extend(drop.iter().map(|&row| self.origins[row]));
        table
    }

    /// The rows in `rows` (0-based, each `< n_rows`), in that order.
    fn select_rows(&self, rows: &[usize]) -> Table {
        Table {
            columns: self
                .columns
                .iter()
                .map(|c| Column {
                    name: c.name.clone(),
                    field: c.field,
                    values: c.values.select_rows(rows),
                })
                .collect(),
            class_name: self.class_name.clone(),
            class_field: self.class_field,
            classes: self.classes.clone(),
            targets: rows.iter().map(|&i| self.targets[i]).collect(),
            sources: self.sources.clone(),
            origins: rows.iter().map(|&i| self.origins[i]).collect(),
            dropped: self.dropped.clone(),
        }
    }

    /// The table restricted to the named feature columns, in the order given.
    ///
    /// Fails with [`Error::InvalidParameter`] on an unknown or repeated name.
    pub fn select_columns(&self, names: &[&str]) -> Result<Table> {
        let mut columns = Vec::with_capacity(names.len());
        for (i, name) in names.iter().enumerate() {
            if names[..i].contains(name) {
                return Err(Error::invalid_parameter(
                    "names",
                    format!("column '{name}' is selected twice"),
                ));
            }
            let column = self
                .column(name)
                .ok_or_else(|| self.unknown_column("names", name))?;
            columns.push(column.clone());
        }
        Ok(Table {
            columns,
            ..self.clone_without_columns()
        })
    }

    /// The numeric feature columns as a dense `n_rows × n_columns` matrix.
    ///
    /// Fails with an [`Error::Parse`] pointing into the file at the first missing value (drop
    /// incomplete rows first with [`drop_missing_rows`](Self::drop_missing_rows)) or at the first
    /// value of a categorical column (encode it with [`one_hot`](Self::one_hot), or leave it out
    /// with [`select_columns`](Self::select_columns)).
    pub fn to_dense(&self) -> Result<Array2<f64>> {
        // The kind of a column is a larger problem than a missing value: report it first.
        for column in &self.columns {
            if let ColumnValues::Categorical(categorical) = &column.values {
                return Err(self.categorical_error(column, categorical));
            }
        }
        let mut x = Array2::zeros((self.n_rows(), self.n_columns()));
        for (j, column) in self.columns.iter().enumerate() {
            if let ColumnValues::Numeric(values) = &column.values {
                for (row, value) in values.iter().enumerate() {
                    x[[row, j]] = value.ok_or_else(|| self.missing_error(row, column))?;
                }
            }
        }
        Ok(x)
    }

    /// A dense design matrix: numeric columns as they are, each categorical column replaced by
    /// indicator columns of its levels, in level order. Returns the matrix and the name of each
    /// of its columns (`name` for a numeric column, `name=level` for an indicator).
    ///
    /// Fails with an [`Error::Parse`] pointing into the file at the first missing value.
    pub fn one_hot(&self, coding: OneHot) -> Result<(Array2<f64>, Vec<String>)> {
        let first_level = match coding {
            OneHot::AllLevels => 0,
            OneHot::DropFirstLevel => 1,
        };
        let mut names = Vec::new();
        for column in &self.columns {
            match &column.values {
                ColumnValues::Numeric(_) => names.push(column.name.clone()),
                ColumnValues::Categorical(categorical) => names.extend(
                    categorical.levels[first_level.min(categorical.levels.len())..]
                        .iter()
                        .map(|level| format!("{}={level}", column.name)),
                ),
            }
        }
        let mut x = Array2::zeros((self.n_rows(), names.len()));
        let mut offset = 0;
        for column in &self.columns {
            match &column.values {
                ColumnValues::Numeric(values) => {
                    for (row, value) in values.iter().enumerate() {
                        x[[row, offset]] = value.ok_or_else(|| self.missing_error(row, column))?;
                    }
                    offset += 1;
                }
                ColumnValues::Categorical(categorical) => {
                    for (row, code) in categorical.codes.iter().enumerate() {
                        let code = code.ok_or_else(|| self.missing_error(row, column))?;
                        if code >= first_level {
                            x[[row, offset + code - first_level]] = 1.0;
                        }
                    }
                    offset += categorical.levels.len().saturating_sub(first_level);
                }
            }
        }
        Ok((x, names))
    }

    /// Splits a categorical column of equal-length strings into one categorical column per
    /// character, named `name_1`, `name_2`, … (1-based positions), in place of the original.
    ///
    /// This is how the promoters data set's 57-nucleotide sequence becomes 57 features. A
    /// missing value is missing in every new column. Fails on an unknown or numeric column and,
    /// with an [`Error::Parse`] at the offending row, on a string whose length differs from the
    /// first row's.
    ///
    /// ```
    /// use gendisc_data::loaders::{Separator, TableReader};
    ///
    /// let table = TableReader::uci(Separator::Comma)
    ///     .class_column(gendisc_data::loaders::ColumnRef::First)
    ///     .read_str("+,acgt\n-,ttga\n", "seq.data")?
    ///     .explode_characters("V2")?;
    /// assert_eq!(table.column_names(), ["V2_1", "V2_2", "V2_3", "V2_4"]);
    /// # Ok::<(), gendisc_core::Error>(())
    /// ```
    pub fn explode_characters(&self, name: &str) -> Result<Table> {
        let position = self
            .columns
            .iter()
            .position(|c| c.name == name)
            .ok_or_else(|| self.unknown_column("name", name))?;
        let column = &self.columns[position];
        let ColumnValues::Categorical(categorical) = &column.values else {
            return Err(Error::invalid_parameter(
                "name",
                format!("column '{name}' is numeric; only a categorical column can be exploded"),
            ));
        };
        let width = match categorical.codes.iter().flatten().next() {
            Some(&code) => categorical.levels[code].chars().count(),
            None => 0,
        };
        // Check every level once (not every row) for its length, and report the first row
        // that uses a level of the wrong length.
        for (row, code) in categorical.codes.iter().enumerate() {
            if let Some(code) = *code {
                let found = categorical.levels[code].chars().count();
                if found != width {
                    return Err(self.cell_error(
                        row,
                        column.field,
                        format!(
                            "column '{name}' cannot be exploded: this value has {found} characters, \
                             the first row's has {width}"
                        ),
                    ));
                }
            }
        }
        // Each position's levels are the characters seen at that position, sorted.
        let level_chars: Vec<Vec<char>> = categorical
            .levels
            .iter()
            .map(|level| level.chars().collect())
            .collect();
        let used: BTreeSet<usize> = categorical.codes.iter().flatten().copied().collect();
        let mut exploded = Vec::with_capacity(width);
        for k in 0..width {
            let levels: Vec<char> = used
                .iter()
                .map(|&code| level_chars[code][k])
                .collect::<BTreeSet<char>>()
                .into_iter()
                .collect();
            let codes = categorical
                .codes
                .iter()
                // Always found: `levels` was collected from these very codes.
                .map(|code| code.map(|c| levels.binary_search(&level_chars[c][k]).unwrap_or(0)))
                .collect();
            exploded.push(Column {
                name: format!("{name}_{}", k + 1),
                field: column.field,
                values: ColumnValues::Categorical(Categorical {
                    levels: levels.iter().map(char::to_string).collect(),
                    codes,
                }),
            });
        }
        let mut columns = self.columns[..position].to_vec();
        columns.extend(exploded);
        columns.extend_from_slice(&self.columns[position + 1..]);
        Ok(Table {
            columns,
            ..self.clone_without_columns()
        })
    }

    /// This table re-encoded with the columns, levels and classes of `reference` (typically: a
    /// test file re-encoded like its training file, so that one-hot columns and class indices
    /// agree).
    ///
    /// Columns are matched by name, so a test file may hold them in another order: the result
    /// has `reference`'s columns in `reference`'s order. A column of `reference` that this table
    /// lacks, or one of this table that `reference` does not know, is an
    /// [`Error::InvalidParameter`] naming them all; so is a column that is numeric in one table
    /// and categorical in the other. Each categorical level and each class of this table must
    /// exist in `reference`; the first row that uses one that does not is reported as an
    /// [`Error::Parse`] into this table's file. Levels and classes of `reference` that this
    /// table does not use are kept.
    pub fn align_to(&self, reference: &Table) -> Result<Table> {
        let missing: Vec<&str> = reference
            .columns
            .iter()
            .map(|c| c.name.as_str())
            .filter(|name| self.column(name).is_none())
            .collect();
        let unknown: Vec<&str> = self
            .columns
            .iter()
            .map(|c| c.name.as_str())
            .filter(|name| reference.column(name).is_none())
            .collect();
        if !missing.is_empty() || !unknown.is_empty() {
            let quoted = |names: &[&str]| {
                names
                    .iter()
                    .map(|n| format!("'{n}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let mut problems = Vec::new();
            if !missing.is_empty() {
                problems.push(format!(
                    "lacks the column(s) {} of the reference table",
                    quoted(&missing)
                ));
            }
            if !unknown.is_empty() {
                problems.push(format!(
                    "has column(s) {} that the reference table does not",
                    quoted(&unknown)
                ));
            }
            return Err(Error::invalid_parameter(
                "reference",
                format!("the table {}", problems.join(", and ")),
            ));
        }
        let mut columns = Vec::with_capacity(reference.n_columns());
        for reference_column in &reference.columns {
            let column = self
                .column(&reference_column.name)
                .expect("every column of the reference was found above");
            let values = match (&column.values, &reference_column.values) {
                (ColumnValues::Numeric(values), ColumnValues::Numeric(_)) => {
                    ColumnValues::Numeric(values.clone())
                }
                (ColumnValues::Categorical(own), ColumnValues::Categorical(target)) => {
                    let map = recode(&own.levels, &target.levels);
                    let mut codes = Vec::with_capacity(own.codes.len());
                    for (row, code) in own.codes.iter().enumerate() {
                        codes.push(match *code {
                            None => None,
                            Some(c) => Some(map[c].ok_or_else(|| {
                                self.cell_error(
                                    row,
                                    column.field,
                                    format!(
                                        "level '{}' of column '{}' does not occur in the \
                                         reference table",
                                        own.levels[c], column.name
                                    ),
                                )
                            })?),
                        });
                    }
                    ColumnValues::Categorical(Categorical {
                        levels: target.levels.clone(),
                        codes,
                    })
                }
                _ => {
                    let kind = |c: &Column| {
                        if c.is_numeric() {
                            "numeric"
                        } else {
                            "categorical"
                        }
                    };
                    return Err(Error::invalid_parameter(
                        "reference",
                        format!(
                            "column '{}' is {} in the table but {} in the reference table; \
                             give its type to the reader explicitly",
                            column.name,
                            kind(column),
                            kind(reference_column)
                        ),
                    ));
                }
            };
            columns.push(Column {
                name: column.name.clone(),
                field: column.field,
                values,
            });
        }
        let map = recode(self.classes.labels(), reference.classes.labels());
        let mut targets = Array1::zeros(self.n_rows());
        for (row, &k) in self.targets.iter().enumerate() {
            targets[row] = map[k].ok_or_else(|| {
                self.cell_error(
                    row,
                    self.class_field,
                    format!(
                        "class '{}' does not occur in the reference table",
                        self.classes.labels()[k]
                    ),
                )
            })?;
        }
        Ok(Table {
            columns,
            class_name: self.class_name.clone(),
            class_field: self.class_field,
            classes: reference.classes.clone(),
            targets,
            sources: self.sources.clone(),
            origins: self.origins.clone(),
            dropped: self.dropped.clone(),
        })
    }

    /// Everything but the columns, for methods that rebuild only those.
    fn clone_without_columns(&self) -> Table {
        Table {
            columns: Vec::new(),
            class_name: self.class_name.clone(),
            class_field: self.class_field,
            classes: self.classes.clone(),
            targets: self.targets.clone(),
            sources: self.sources.clone(),
            origins: self.origins.clone(),
            dropped: self.dropped.clone(),
        }
    }

    /// A [`Error::Parse`] at row `row`, 1-based field `field` of the row's file.
    fn cell_error(&self, row: usize, field: usize, message: String) -> Error {
        let origin = self.origins[row];
        parse_error(&self.sources[origin.source], origin.line, field, message)
    }

    fn missing_error(&self, row: usize, column: &Column) -> Error {
        self.cell_error(
            row,
            column.field,
            format!(
                "missing value in column '{}' (drop incomplete rows with \
                 Table::drop_missing_rows)",
                column.name
            ),
        )
    }

    /// Points at the first value of a categorical column that is not a number (why inference
    /// made it categorical), or at its first value if all of them are numbers (it was typed
    /// categorical explicitly).
    fn categorical_error(&self, column: &Column, categorical: &Categorical) -> Error {
        let is_number = |s: &str| s.parse::<f64>().is_ok_and(f64::is_finite);
        let first_non_number = categorical
            .codes
            .iter()
            .enumerate()
            .find_map(|(row, code)| {
                code.map(|c| categorical.levels[c].as_str())
                    .filter(|level| !is_number(level))
                    .map(|level| {
                        (
                            row,
                            format!("'{level}' is not a number"),
                            format!(
                                "; if '{level}' marks a missing value, name it to \
                                 TableReader::missing_markers"
                            ),
                        )
                    })
            });
        let (row, why, marker_hint) = first_non_number
            .unwrap_or_else(|| (0, "it was typed categorical".to_string(), String::new()));
        let message = format!(
            "column '{}' is categorical ({why}); to_dense needs numeric columns: encode it with \
             Table::one_hot or leave it out with Table::select_columns{marker_hint}",
            column.name
        );
        if self.n_rows() == 0 {
            return Error::invalid_parameter("table", message);
        }
        self.cell_error(row, column.field, message)
    }

    /// An [`Error::InvalidParameter`] for argument `parameter`, which names no column.
    fn unknown_column(&self, parameter: &'static str, name: &str) -> Error {
        Error::invalid_parameter(
            parameter,
            format!(
                "no feature column named '{name}'; the columns are: {}",
                self.column_names().join(", ")
            ),
        )
    }
}

/// For each of `from` (sorted, distinct), its index in `to` (sorted, distinct), if present.
fn recode(from: &[String], to: &[String]) -> Vec<Option<usize>> {
    from.iter()
        .map(|level| to.binary_search(level).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loaders::{ColumnType, Separator, TableReader};

    fn table(text: &str) -> Table {
        TableReader::uci(Separator::Comma)
            .column_names(["x", "colour", "seq", "class"])
            .read_str(text, "t.data")
            .unwrap()
    }

    fn parse_position(err: Error) -> (usize, usize, String) {
        match err {
            Error::Parse {
                line,
                column,
                message,
                ..
            } => (line, column, message),
            other => panic!("expected a parse error, got {other}"),
        }
    }

    #[test]
    fn tables_can_be_shared_between_threads() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Table>();
    }

    #[test]
    fn select_columns_in_the_given_order() {
        let t = table("1,red,ac,p\n2,blue,gt,q\n");
        let selected = t.select_columns(&["seq", "x"]).unwrap();
        assert_eq!(selected.column_names(), ["seq", "x"]);
        assert_eq!(selected.targets(), t.targets());
        for bad in [&["nope"][..], &["x", "x"][..]] {
            let err = t.select_columns(bad).unwrap_err();
            assert!(
                matches!(err, Error::InvalidParameter { name: "names", .. }),
                "{err}"
            );
        }
    }

    #[test]
    fn numeric_class_labels_point_at_the_first_non_number() {
        let t = table("1,red,ac,2.5\n2,blue,gt,40\n");
        assert_eq!(t.numeric_class_labels().unwrap().to_vec(), vec![2.5, 40.0]);
        let t = table("1,red,ac,2.5\n2,blue,gt,high\n");
        let (line, column, message) = parse_position(t.numeric_class_labels().unwrap_err());
        assert_eq!((line, column), (2, 4));
        assert!(message.contains("'high'"), "{message}");
    }

    #[test]
    fn exploding_keeps_missing_values_missing_and_rejects_numbers() {
        let t = table("1,red,ac,p\n2,blue,?,q\n3,red,ca,p\n");
        let exploded = t.explode_characters("seq").unwrap();
        assert_eq!(exploded.column_names(), ["x", "colour", "seq_1", "seq_2"]);
        let ColumnValues::Categorical(first) = exploded.columns()[2].values() else {
            panic!()
        };
        assert_eq!(first.levels(), ["a", "c"]);
        assert_eq!(first.codes(), [Some(0), None, Some(1)]);
        assert_eq!(exploded.columns()[3].source_field(), 3);
        assert!(t.explode_characters("x").is_err());
        assert!(t.explode_characters("nope").is_err());
    }

    #[test]
    fn to_dense_on_no_rows_and_on_a_categorical_column() {
        let t = table("1,red,ac,p\n?,blue,gt,q\n");
        let (line, column, message) = parse_position(t.to_dense().unwrap_err());
        assert_eq!((line, column), (1, 2));
        assert!(message.contains("'red' is not a number"), "{message}");
        let numeric = t.select_columns(&["x"]).unwrap();
        let (line, column, _) = parse_position(numeric.to_dense().unwrap_err());
        assert_eq!((line, column), (2, 1));
        let x = numeric.drop_missing_rows().to_dense().unwrap();
        assert_eq!(x.into_raw_vec_and_offset().0, vec![1.0]);
        let empty = table("?,red,ac,p\n").drop_missing_rows();
        assert_eq!(empty.n_rows(), 0);
        assert!(matches!(
            empty.to_dense(),
            Err(Error::InvalidParameter { .. })
        ));
        let (x, names) = empty.one_hot(OneHot::AllLevels).unwrap();
        assert_eq!((x.dim(), names.len()), ((0, 3), 3));
    }

    #[test]
    fn align_to_matches_columns_by_name() {
        let reference = table("1,red,ac,p\n2,blue,gt,q\n");
        let reordered = TableReader::uci(Separator::Comma)
            .column_names(["seq", "x", "class", "colour"])
            .class_column("class")
            .read_str("gt,5,q,blue\nac,7,p,red\n", "test.data")
            .unwrap();
        let aligned = reordered.align_to(&reference).unwrap();
        let names: Vec<&str> = aligned.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["x", "colour", "seq"]);
        assert_eq!(
            aligned.select_columns(&["x"]).unwrap().to_dense().unwrap(),
            ndarray::array![[5.0], [7.0]]
        );
        let expected = table("5,blue,gt,q\n7,red,ac,p\n")
            .align_to(&reference)
            .unwrap();
        assert_eq!(
            aligned.one_hot(OneHot::AllLevels).unwrap(),
            expected.one_hot(OneHot::AllLevels).unwrap()
        );
        assert_eq!(aligned.targets, expected.targets);
    }

    #[test]
    fn align_to_rejects_different_layouts() {
        let reference = table("1,red,ac,p\n2,blue,gt,q\n");
        let renamed = TableReader::uci(Separator::Comma)
            .read_str("1,red,ac,p\n", "u.data")
            .unwrap();
        assert!(matches!(
            renamed.align_to(&reference),
            Err(Error::InvalidParameter {
                name: "reference",
                ..
            })
        ));
        let fewer = reference.select_columns(&["x"]).unwrap();
        let error = fewer.align_to(&reference).unwrap_err().to_string();
        assert!(
            error.contains("lacks the column(s) 'colour', 'seq'"),
            "{error}"
        );
        let error = reference.align_to(&fewer).unwrap_err().to_string();
        assert!(
            error.contains("has column(s) 'colour', 'seq' that the reference"),
            "{error}"
        );
        let retyped = TableReader::uci(Separator::Comma)
            .column_names(["x", "colour", "seq", "class"])
            .column_type("x", ColumnType::Categorical)
            .read_str("1,red,ac,p\n", "u.data")
            .unwrap();
        assert!(matches!(
            retyped.align_to(&reference),
            Err(Error::InvalidParameter {
                name: "reference",
                ..
            })
        ));
        let unseen_level = table("1,green,ac,p\n");
        let (line, column, message) =
            parse_position(unseen_level.align_to(&reference).unwrap_err());
        assert_eq!((line, column), (1, 2));
        assert!(message.contains("level 'green'"), "{message}");
        // A subset of levels and classes is recoded to the reference's codes.
        let subset = table("9,red,ac,q\n").align_to(&reference).unwrap();
        let ColumnValues::Categorical(colour) = subset.columns()[1].values() else {
            panic!()
        };
        assert_eq!(
            (colour.levels(), colour.codes()),
            (&["blue".to_string(), "red".to_string()][..], &[Some(1)][..])
        );
        assert_eq!(subset.targets().to_vec(), vec![1]);
    }
}
