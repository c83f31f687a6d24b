//! [`TableReader`]: one builder for the three tabular text formats (UCI `.data`, CSV with a
//! header, ARFF), and the typing of raw cells into a [`Table`].

use std::collections::BTreeSet;
use std::path::Path;

use gendisc_core::{ClassLabels, Error, Result};

use super::cells::{Declared, RawCells};
use super::source::{parse_error, read_text};
use super::table::{Categorical, Column, ColumnValues, Table};
use super::{arff, csv_header, delimited};

/// What a missing-value error's message ([`Error::Parse`]) adds after the cell it names: how a
/// caller of the library reads such a file. A program that offers its own way (a command's
/// flag) replaces it.
pub const MISSING_VALUE_REMEDY: &str = "; leave out the incomplete rows with \
     TableReader::missing_values(MissingValues::DropRows), or keep the gaps with MissingValues::Keep";

/// A column of a file, by position or by name.
///
/// Positions are 0-based, as everywhere in Rust (errors, which point into files, count fields
/// from 1 as editors do). Names come from the CSV header, the ARFF declarations, or
/// [`TableReader::column_names`]; without those, columns are called `V1`, `V2`, … (1-based, as
/// R's `read.table`).
///
/// ```
/// use gendisc_data::loaders::ColumnRef;
/// assert_eq!(ColumnRef::from(0), ColumnRef::Index(0));
/// assert_eq!(ColumnRef::from("class"), ColumnRef::Name("class".into()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ColumnRef {
    /// The first field.
    First,
    /// The last field.
    Last,
    /// The field at this 0-based position.
    Index(usize),
    /// The field with this name.
    Name(String),
}

impl From<usize> for ColumnRef {
    fn from(index: usize) -> Self {
        ColumnRef::Index(index)
    }
}

impl From<&str> for ColumnRef {
    fn from(name: &str) -> Self {
        ColumnRef::Name(name.to_string())
    }
}

impl From<String> for ColumnRef {
    fn from(name: String) -> Self {
        ColumnRef::Name(name)
    }
}

/// The kind of a feature column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnType {
    /// Finite `f64` values.
    Numeric,
    /// Strings with a sorted set of levels.
    Categorical,
}

/// The character that separates a number's integer part from its fraction.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum DecimalMark {
    /// `3.5`, the default.
    #[default]
    Point,
    /// `3,5`, as written in much of Europe (with `;` usually the field delimiter). A value with a
    /// point is then not a number.
    Comma,
}

impl DecimalMark {
    /// The value of `text` as a finite number under this convention, or `None`.
    fn parse(self, text: &str) -> Option<f64> {
        match self {
            Self::Point => parse_number(text),
            Self::Comma if text.contains('.') => None,
            Self::Comma => parse_number(&text.replace(',', ".")),
        }
    }

    /// The other convention.
    fn other(self) -> Self {
        match self {
            Self::Point => Self::Comma,
            Self::Comma => Self::Point,
        }
    }

    /// The character.
    fn mark(self) -> char {
        match self {
            Self::Point => '.',
            Self::Comma => ',',
        }
    }

    /// The value of `text` written with thousands separators (`1,234,567.5` under the point,
    /// `1.234.567,5` under the comma): groups of three digits after the first.
    fn parse_grouped(self, text: &str) -> Option<f64> {
        let separator = self.other().mark();
        let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
        let integer = unsigned.split(self.mark()).next()?;
        let mut groups = integer.split(separator);
        let first = groups.next()?;
        let rest: Vec<&str> = groups.collect();
        let grouped = !rest.is_empty()
            && (1..=3).contains(&first.len())
            && first.bytes().all(|b| b.is_ascii_digit())
            && rest
                .iter()
                .all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()));
        grouped
            .then(|| self.parse(&text.replace(separator, "")))
            .flatten()
    }
}

/// How fields are separated in a UCI `.data` file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Separator {
    /// A comma; spaces and tabs around each field are trimmed (adult writes `, `, promoters
    /// writes `,\t\t`).
    Comma,
    /// Any run of spaces and tabs; leading and trailing blanks are ignored (Statlog files, lenses,
    /// Boston housing, and the padded class names `van ` of vehicle).
    Whitespace,
    /// Another single character (for example `'\t'` or `';'`); blanks around fields are trimmed.
    Char(char),
}

/// What [`TableReader`] does with a missing value in a feature column (a cell that equals one of
/// the reader's missing markers).
///
/// A missing class label is always an error, except under [`DropRows`](Self::DropRows), which
/// drops its row too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissingValues {
    /// Keep the row; the value is `None` in its column (see [`Table::incomplete_rows`],
    /// [`Table::drop_missing_rows`]). The default for UCI and ARFF files, whose studies decide
    /// per data set what to do with the gaps.
    Keep,
    /// Fail with an [`Error::Parse`] at the first missing value, naming the file, the 1-based
    /// line, and the column's name and 1-based number. The default for CSV files, so that a gap
    /// never passes unnoticed.
    Reject,
    /// Leave out every row with a missing value, as if it were not in the file (levels and
    /// classes come from the rows kept); [`Table::n_dropped_rows`] and
    /// [`Table::dropped_rows`] say how many and which. Reading fails if no row is left.
    DropRows,
}

/// The missing markers of a [`TableReader::csv`] reader: an empty cell (pandas' `to_csv`), `NA`
/// (R's `write.csv`), `NaN` (the usual spelling of a not-a-number) and `?` (the UCI
/// convention). Matched exactly, case included, against the trimmed cell, so NumPy's `nan` is
/// not one: add it with [`TableReader::missing_markers`].
pub const CSV_MISSING_MARKERS: [&str; 4] = ["", "NA", "NaN", "?"];

/// The text formats [`TableReader`] understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    /// UCI / Statlog `.data` files: no header, no quoting, one row per non-blank line.
    Uci(Separator),
    /// CSV with a header row naming the columns, read with the `csv` crate (RFC 4180 quoting;
    /// blanks around fields are trimmed).
    Csv {
        /// The field delimiter, usually `b','`.
        delimiter: u8,
    },
    /// Weka ARFF: `@relation`, `@attribute` declarations, `@data` rows, `%` comments.
    ///
    /// Declared types are used unless overridden. `numeric`, `real` and `integer` are numeric;
    /// a nominal set `{a, b}` is categorical with exactly those levels (values outside the set are
    /// errors); `string` is categorical with the levels seen. A "nominal set" of one type keyword,
    /// `{integer}`, `{real}` or `{numeric}`, is read as numeric: that is how `sick.arff` declares
    /// its numeric attributes. Sparse rows (`{0 X, 3 Y}`), `date` and `relational` attributes
    /// are not supported and reported as errors.
    Arff,
}

/// Reads a delimited text file into a [`Table`].
///
/// Defaults: the class is the last column; feature types are inferred (a column is numeric if
/// every non-missing value parses as a finite `f64`, categorical otherwise — a missing value
/// never makes a column categorical; a column with no values at all is numeric); no column is
/// ignored. Blank lines are skipped anywhere, CRLF line ends and a missing final newline are
/// accepted.
///
/// Missing values depend on the format:
///
/// | format | missing markers | a missing feature value |
/// |---|---|---|
/// | [`csv`](Self::csv) | [`CSV_MISSING_MARKERS`]: empty, `NA`, `NaN`, `?` | an error naming file, line and column ([`MissingValues::Reject`]) |
/// | [`uci`](Self::uci), [`arff`](Self::arff) | `?` | kept as `None` ([`MissingValues::Keep`]) |
///
/// [`missing_markers`](Self::missing_markers) and [`missing_values`](Self::missing_values)
/// change either; [`MissingValues::DropRows`] leaves out the incomplete rows and counts them.
///
/// Every malformed input is an [`Error::Parse`] naming file, 1-based line and 1-based field:
/// a row with the wrong number of fields, a value that is not a number in a column typed
/// numeric, a missing class, an unknown column name, an empty file. I/O failures are
/// [`Error::Io`] naming the file.
///
/// ```
/// use gendisc_data::loaders::{ColumnRef, Separator, TableReader};
///
/// // Lenses: whitespace separated, an instance id first, the class last.
/// let table = TableReader::uci(Separator::Whitespace)
///     .ignore_columns([0])
///     .read_str("1  1  1  1  1  3\n2  1  1  1  2  2\n", "lenses.data")?;
/// assert_eq!(table.column_names(), ["V2", "V3", "V4", "V5"]);
/// assert_eq!(table.classes().labels(), &["2", "3"]);
///
/// // A CSV file whose target is named in the header.
/// let table = TableReader::csv()
///     .class_column("species")
///     .read_str("length,species,colour\n1.5,a,red\n2.5,b,blue\n", "toy.csv")?;
/// assert_eq!(table.column_names(), ["length", "colour"]);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TableReader {
    format: TableFormat,
    class_column: ColumnRef,
    ignored: Vec<ColumnRef>,
    only: Option<Vec<ColumnRef>>,
    /// Whether a column of `only` that the file lacks is passed over rather than an error.
    only_if_present: bool,
    types: Vec<(ColumnRef, ColumnType)>,
    all_columns_type: Option<ColumnType>,
    missing_markers: Vec<String>,
    missing_values: MissingValues,
    class_suffix: Option<String>,
    column_names: Option<Vec<String>>,
    decimal: DecimalMark,
}

impl TableReader {
    /// A reader for `format` with the defaults above.
    pub fn new(format: TableFormat) -> Self {
        let (missing_markers, missing_values) = match format {
            TableFormat::Csv { .. } => (CSV_MISSING_MARKERS.to_vec(), MissingValues::Reject),
            TableFormat::Uci(_) | TableFormat::Arff => (vec!["?"], MissingValues::Keep),
        };
        TableReader {
            format,
            class_column: ColumnRef::Last,
            ignored: Vec::new(),
            only: None,
            only_if_present: false,
            types: Vec::new(),
            all_columns_type: None,
            missing_markers: missing_markers.into_iter().map(str::to_string).collect(),
            missing_values,
            class_suffix: None,
            column_names: None,
            decimal: DecimalMark::Point,
        }
    }

    /// How numbers write their decimals (default [`DecimalMark::Point`]). Under either mark,
    /// a column that is not numeric but whose every value would be a number under the other
    /// mark, or with thousands separators, is an error that says so (rather than a column of
    /// categories, one per value); declare its type with [`column_type`](Self::column_type)
    /// if it really is categorical.
    pub fn decimal_mark(mut self, mark: DecimalMark) -> Self {
        self.decimal = mark;
        self
    }

    /// A reader for UCI / Statlog `.data` files separated by `separator`.
    pub fn uci(separator: Separator) -> Self {
        Self::new(TableFormat::Uci(separator))
    }

    /// A reader for comma-separated files with a header row.
    pub fn csv() -> Self {
        Self::new(TableFormat::Csv { delimiter: b',' })
    }

    /// A reader for ARFF files (see [`TableFormat::Arff`]).
    pub fn arff() -> Self {
        Self::new(TableFormat::Arff)
    }

    /// The class column (default [`ColumnRef::Last`]).
    pub fn class_column(mut self, column: impl Into<ColumnRef>) -> Self {
        self.class_column = column.into();
        self
    }

    /// Columns to leave out of the table, such as an instance id or name.
    pub fn ignore_columns<C: Into<ColumnRef>>(
        mut self,
        columns: impl IntoIterator<Item = C>,
    ) -> Self {
        self.ignored.extend(columns.into_iter().map(Into::into));
        self
    }

    /// Reads only these feature columns, besides the class column: every other column is left
    /// out as [`Self::ignore_columns`] leaves it, so that a missing value in a column not read
    /// neither drops its row ([`MissingValues::DropRows`]) nor is an error. The table keeps the
    /// file's order of the columns.
    pub fn only_columns<C: Into<ColumnRef>>(
        mut self,
        columns: impl IntoIterator<Item = C>,
    ) -> Self {
        self.only
            .get_or_insert_with(Vec::new)
            .extend(columns.into_iter().map(Into::into));
        self
    }

    /// [`Self::only_columns`], passing over the named columns the file does not have instead of
    /// failing: for reading new rows for a model, whose own check then names every column the
    /// file lacks.
    pub fn only_columns_if_present<C: Into<ColumnRef>>(
        self,
        columns: impl IntoIterator<Item = C>,
    ) -> Self {
        Self {
            only_if_present: true,
            ..self.only_columns(columns)
        }
    }

    /// Gives the type of one column instead of inferring it (or using the ARFF declaration).
    /// Takes precedence over [`all_columns`](Self::all_columns).
    pub fn column_type(mut self, column: impl Into<ColumnRef>, kind: ColumnType) -> Self {
        self.types.push((column.into(), kind));
        self
    }

    /// Gives one type to every feature column without its own [`column_type`](Self::column_type),
    /// e.g. categorical for integer-coded attributes such as lymphography's.
    pub fn all_columns(mut self, kind: ColumnType) -> Self {
        self.all_columns_type = Some(kind);
        self
    }

    /// The one text that marks a missing value, in place of the format's markers (see the
    /// table above), compared with the trimmed field.
    pub fn missing_marker(mut self, marker: impl Into<String>) -> Self {
        self.missing_markers = vec![marker.into()];
        self
    }

    /// The texts that mark a missing value, in place of the format's markers, each compared
    /// exactly (case included) with the trimmed field; `""` stands for an empty cell. To add
    /// to the CSV markers:
    ///
    /// ```
    /// use gendisc_data::loaders::{TableReader, CSV_MISSING_MARKERS};
    /// let reader = TableReader::csv().missing_markers(CSV_MISSING_MARKERS.into_iter().chain(["N/A"]));
    /// let table = reader.missing_values(gendisc_data::loaders::MissingValues::Keep)
    ///     .read_str("x,class\nN/A,a\n2.5,b\n", "t.csv")?;
    /// assert!(table.columns()[0].is_numeric());
    /// assert_eq!(table.columns()[0].missing_count(), 1);
    /// # Ok::<(), gendisc_core::Error>(())
    /// ```
    pub fn missing_markers<S: Into<String>>(
        mut self,
        markers: impl IntoIterator<Item = S>,
    ) -> Self {
        self.missing_markers = markers.into_iter().map(Into::into).collect();
        self
    }

    /// No marker: every value is data. For house-votes-84, where `?` ("did not vote") is a
    /// genuine third answer, this keeps it as a level.
    pub fn no_missing_marker(mut self) -> Self {
        self.missing_markers.clear();
        self
    }

    /// What to do with a missing feature value (see [`MissingValues`]; the default depends on
    /// the format, see the table above).
    ///
    /// ```
    /// use gendisc_data::loaders::{MissingValues, TableReader};
    ///
    /// let text = "age,income,class\n31,NA,yes\n45,52000,no\n,41000,yes\n38,39000,no\n";
    /// // By default a gap is an error that points at it: line 2, column 2.
    /// let err = TableReader::csv().read_str(text, "survey.csv").unwrap_err();
    /// assert!(err.to_string().starts_with("survey.csv:2:2: missing value 'NA' in numeric column 'income'"));
    /// // Or drop the incomplete rows and say how many there were.
    /// let table = TableReader::csv().missing_values(MissingValues::DropRows).read_str(text, "survey.csv")?;
    /// assert_eq!((table.n_rows(), table.n_dropped_rows()), (2, 2));
    /// assert_eq!(table.to_dense()?.row(0).to_vec(), vec![45.0, 52000.0]);
    /// # Ok::<(), gendisc_core::Error>(())
    /// ```
    pub fn missing_values(mut self, policy: MissingValues) -> Self {
        self.missing_values = policy;
        self
    }

    /// Removes `suffix` from the end of every class label that has it: `"."` makes adult's test
    /// classes `<=50K.` and `>50K.` equal to the training classes.
    pub fn strip_class_suffix(mut self, suffix: impl Into<String>) -> Self {
        self.class_suffix = Some(suffix.into());
        self
    }

    /// Names for all fields of the file, in file order (class and ignored columns included);
    /// they replace any names from a header or ARFF declarations. Their number must equal the
    /// number of fields.
    pub fn column_names<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.column_names = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Reads one file.
    pub fn read(&self, path: impl AsRef<Path>) -> Result<Table> {
        self.read_files(&[path])
    }

    /// Reads several files as one table, rows in file order (the Statlog vehicle data comes as
    /// `xaa.dat` … `xai.dat`). Every file must have the same number of fields (and, for CSV and
    /// ARFF, the same header); errors name the file they concern. Types are inferred over all
    /// rows together.
    pub fn read_files<P: AsRef<Path>>(&self, paths: &[P]) -> Result<Table> {
        if paths.is_empty() {
            return Err(Error::invalid_parameter("paths", "no file to read"));
        }
        let mut cells = RawCells::default();
        for (source, path) in paths.iter().enumerate() {
            let text = read_text(path.as_ref())?;
            cells.sources.push(path.as_ref().to_path_buf());
            self.parse_into(&text, source, &mut cells)?;
        }
        self.assemble(&cells)
    }

    /// Reads text already in memory; `path` names it in errors.
    pub fn read_str(&self, text: &str, path: impl AsRef<Path>) -> Result<Table> {
        let mut cells = RawCells::default();
        cells.sources.push(path.as_ref().to_path_buf());
        self.parse_into(text, 0, &mut cells)?;
        self.assemble(&cells)
    }

    fn parse_into(&self, text: &str, source: usize, cells: &mut RawCells) -> Result<()> {
        match self.format {
            TableFormat::Uci(separator) => delimited::parse_into(text, separator, source, cells),
            TableFormat::Csv { delimiter } => {
                csv_header::parse_into(text, delimiter, source, cells)
            }
            TableFormat::Arff => arff::parse_into(text, source, cells),
        }
    }

    /// Types the raw cells into columns and encodes the class.
    fn assemble(&self, cells: &RawCells) -> Result<Table> {
        let n_fields = cells.n_fields();
        let (layout_path, layout_line) = cells.layout_position();
        let layout_error = |message: String| parse_error(layout_path, layout_line, 1, message);
        if n_fields == 0 {
            return Err(layout_error("the data has no fields".to_string()));
        }

        let names: Vec<String> = match (&self.column_names, &cells.names) {
            (Some(given), _) if given.len() != n_fields => {
                return Err(layout_error(format!(
                    "{} column names were given but the data has {n_fields} fields",
                    given.len()
                )))
            }
            (Some(given), _) => given.clone(),
            (None, Some(from_file)) => from_file.clone(),
            (None, None) => (1..=n_fields).map(|k| format!("V{k}")).collect(),
        };
        let resolve = |column: &ColumnRef| -> Result<usize> {
            match column {
                ColumnRef::First => Ok(0),
                ColumnRef::Last => Ok(n_fields - 1),
                ColumnRef::Index(i) if *i < n_fields => Ok(*i),
                ColumnRef::Index(i) => Err(layout_error(format!(
                    "there is no column at position {i} (0-based): the data has {n_fields} fields"
                ))),
                ColumnRef::Name(name) => names.iter().position(|n| n == name).ok_or_else(|| {
                    layout_error(format!(
                        "there is no column named '{name}'; the columns are: {}",
                        names.join(", ")
                    ))
                }),
            }
        };

        let class_field = resolve(&self.class_column)?;
        let mut ignored = vec![false; n_fields];
        for column in &self.ignored {
            let field = resolve(column)?;
            if field == class_field {
                return Err(Error::invalid_parameter(
                    "ignore_columns",
                    format!("column '{}' is the class column", names[field]),
                ));
            }
            ignored[field] = true;
        }
        if let Some(only) = &self.only {
            let mut read = vec![false; n_fields];
            for column in only {
                let field = match resolve(column) {
                    Err(_) if self.only_if_present => continue,
                    field => field?,
                };
                if field == class_field {
                    return Err(Error::invalid_parameter(
                        "only_columns",
                        format!("column '{}' is the class column", names[field]),
                    ));
                }
                read[field] = true;
            }
            for (field, ignore) in ignored.iter_mut().enumerate() {
                *ignore |= field != class_field && !read[field];
            }
        }
        let mut kinds: Vec<Option<ColumnType>> = vec![self.all_columns_type; n_fields];
        for (column, kind) in &self.types {
            let field = resolve(column)?;
            if field == class_field {
                return Err(Error::invalid_parameter(
                    "column_type",
                    format!(
                        "column '{}' is the class column, whose labels are always strings",
                        names[field]
                    ),
                ));
            }
            kinds[field] = Some(*kind);
        }
        let mut seen = BTreeSet::new();
        for field in (0..n_fields).filter(|&f| !ignored[f]) {
            if !seen.insert(names[field].as_str()) {
                return Err(parse_error(
                    layout_path,
                    layout_line,
                    field + 1,
                    if names[field].trim().parse::<f64>().is_ok() {
                        format!(
                            "duplicate column name '{}' (a header of numbers is usually the \
                             first row of data of a file without a header)",
                            names[field]
                        )
                    } else {
                        format!("duplicate column name '{}'", names[field])
                    },
                ));
            }
        }

        let feature_fields: Vec<usize> = (0..n_fields)
            .filter(|&field| field != class_field && !ignored[field])
            .collect();
        let (rows, dropped): (Vec<usize>, Vec<usize>) = match self.missing_values {
            MissingValues::DropRows => (0..cells.n_rows()).partition(|&row| {
                !std::iter::once(class_field)
                    .chain(feature_fields.iter().copied())
                    .any(|field| self.is_missing(cells.cell(row, field)))
            }),
            MissingValues::Keep | MissingValues::Reject => {
                ((0..cells.n_rows()).collect(), Vec::new())
            }
        };
        if rows.is_empty() {
            // A column with no value at all is the usual cause: name it.
            let empty: Vec<&str> = std::iter::once(class_field)
                .chain(feature_fields.iter().copied())
                .filter(|&field| {
                    (0..cells.n_rows()).all(|row| self.is_missing(cells.cell(row, field)))
                })
                .map(|field| names[field].as_str())
                .collect();
            let empty = match empty.as_slice() {
                [] => String::new(),
                [one] => format!("; the column '{one}' has no value in any row"),
                many => format!(
                    "; the columns '{}' have no value in any row",
                    many.join("', '")
                ),
            };
            return Err(layout_error(format!(
                "every one of the {} data rows has a missing value (cells equal to {}), so \
                 dropping them leaves no data{empty}",
                dropped.len(),
                self.describe_markers()
            )));
        }

        let columns = feature_fields
            .iter()
            .map(|&field| self.typed_column(cells, &rows, field, &names[field], kinds[field]))
            .collect::<Result<Vec<_>>>()?;
        if self.missing_values == MissingValues::Reject {
            self.reject_missing(cells, &columns)?;
        }
        let (classes, targets) =
            self.class_column_values(cells, &rows, class_field, &names[class_field])?;
        Ok(Table {
            columns,
            class_name: names[class_field].clone(),
            class_field: class_field + 1,
            classes,
            targets: targets.into(),
            sources: cells.sources.clone(),
            origins: rows.iter().map(|&row| cells.origins[row]).collect(),
            dropped: dropped.iter().map(|&row| cells.origins[row]).collect(),
        })
    }

    fn is_missing(&self, cell: &str) -> bool {
        self.missing_markers.iter().any(|marker| marker == cell)
    }

    /// The markers as a list for messages: `'NA', 'NaN', '?' or an empty cell`.
    fn describe_markers(&self) -> String {
        let mut shown: Vec<String> = self
            .missing_markers
            .iter()
            .filter(|m| !m.is_empty())
            .map(|m| format!("'{m}'"))
            .collect();
        if self.missing_markers.iter().any(String::is_empty) {
            shown.push("an empty cell".to_string());
        }
        match shown.split_last() {
            None => "no marker".to_string(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        }
    }

    /// Under [`MissingValues::Reject`], an error at the first missing feature value in file
    /// order (line by line, then field by field).
    fn reject_missing(&self, cells: &RawCells, columns: &[Column]) -> Result<()> {
        // Under Reject every row is kept, so a column's positions are the rows of `cells`.
        for row in 0..cells.n_rows() {
            for column in columns {
                let missing = match &column.values {
                    ColumnValues::Numeric(values) => values[row].is_none(),
                    ColumnValues::Categorical(categorical) => categorical.codes[row].is_none(),
                };
                if !missing {
                    continue;
                }
                let field = column.field - 1;
                let cell = cells.cell(row, field);
                let shown = if cell.is_empty() {
                    "(an empty cell)".to_string()
                } else {
                    format!("'{cell}'")
                };
                let kind = if column.is_numeric() {
                    "numeric"
                } else {
                    "categorical"
                };
                return Err(self.cell_error(
                    cells,
                    row,
                    field,
                    format!(
                        "missing value {shown} in {kind} column '{}' (column {}){MISSING_VALUE_REMEDY}",
                        column.name, column.field
                    ),
                ));
            }
        }
        Ok(())
    }

    fn cell_error(&self, cells: &RawCells, row: usize, field: usize, message: String) -> Error {
        let origin = cells.origins[row];
        parse_error(
            &cells.sources[origin.source],
            origin.line,
            field + 1,
            message,
        )
    }

    /// Column `field` typed by: its own type, else the type for all columns, else its ARFF
    /// declaration, else inference (numeric if every present value is a finite number).
    fn typed_column(
        &self,
        cells: &RawCells,
        rows: &[usize],
        field: usize,
        name: &str,
        kind: Option<ColumnType>,
    ) -> Result<Column> {
        let declared = cells.declared.as_ref().map(|d| &d[field]);
        let kind = kind.or(match declared {
            Some(Declared::Numeric) => Some(ColumnType::Numeric),
            Some(Declared::Nominal(_) | Declared::Text) => Some(ColumnType::Categorical),
            None => None,
        });
        let values = match kind {
            Some(ColumnType::Numeric) => {
                let values = self.numeric_values(cells, rows, field).map_err(|row| {
                    let cell = cells.cell(row, field);
                    self.cell_error(
                        cells,
                        row,
                        field,
                        format!("'{cell}' is not a finite number (column '{name}' is numeric)"),
                    )
                })?;
                ColumnValues::Numeric(values)
            }
            Some(ColumnType::Categorical) => ColumnValues::Categorical(
                self.categorical_values(cells, rows, field, name, declared)?,
            ),
            None => match self.numeric_values(cells, rows, field) {
                Ok(values) => ColumnValues::Numeric(values),
                Err(first) => {
                    if let Some(reading) = self.numbers_written_otherwise(cells, rows, field) {
                        let cell = cells.cell(first, field);
                        return Err(self.cell_error(
                            cells,
                            first,
                            field,
                            format!(
                                "'{cell}' is not a number with a decimal {:?}, but every value of \
                                 column '{name}' is a number {reading}: set the reader's decimal \
                                 mark, or declare the column categorical if it is one",
                                self.decimal.mark()
                            ),
                        ));
                    }
                    ColumnValues::Categorical(
                        self.categorical_values(cells, rows, field, name, None)?,
                    )
                }
            },
        };
        Ok(Column {
            name: name.to_string(),
            field: field + 1,
            values,
        })
    }

    /// The values of column `field` in the rows `rows` as numbers, or the first row whose value
    /// is not one.
    fn numeric_values(
        &self,
        cells: &RawCells,
        rows: &[usize],
        field: usize,
    ) -> Result<Vec<Option<f64>>, usize> {
        rows.iter()
            .map(|&row| {
                let cell = cells.cell(row, field);
                if self.is_missing(cell) {
                    Ok(None)
                } else {
                    self.decimal.parse(cell).map(Some).ok_or(row)
                }
            })
            .collect()
    }

    /// How every present value of column `field` would read as a number, if one convention
    /// other than the reader's does it: the other decimal mark, or thousands separators.
    fn numbers_written_otherwise(
        &self,
        cells: &RawCells,
        rows: &[usize],
        field: usize,
    ) -> Option<String> {
        let present: Vec<&str> = rows
            .iter()
            .map(|&row| cells.cell(row, field))
            .filter(|cell| !self.is_missing(cell))
            .collect();
        if present.is_empty() {
            return None;
        }
        let other = self.decimal.other();
        if present.iter().all(|c| other.parse(c).is_some()) {
            return Some(format!("with a decimal {:?}", other.mark()));
        }
        let grouped = |c: &&str| {
            self.decimal
                .parse(c)
                .or_else(|| self.decimal.parse_grouped(c))
        };
        if present.iter().all(|c| grouped(c).is_some()) {
            return Some(format!(
                "with {:?} separating thousands (remove them from the file)",
                other.mark()
            ));
        }
        None
    }

    /// The values of column `field` in the rows `rows` as codes into its levels: the declared
    /// values of a nominal ARFF attribute (a value outside them is an error), else the values
    /// seen.
    fn categorical_values(
        &self,
        cells: &RawCells,
        rows: &[usize],
        field: usize,
        name: &str,
        declared: Option<&Declared>,
    ) -> Result<Categorical> {
        let levels = match declared {
            Some(Declared::Nominal(declared)) => {
                sorted_distinct(declared.iter().map(String::as_str))
            }
            _ => sorted_distinct(
                rows.iter()
                    .map(|&row| cells.cell(row, field))
                    .filter(|cell| !self.is_missing(cell)),
            ),
        };
        let codes = rows
            .iter()
            .map(|&row| {
                let cell = cells.cell(row, field);
                if self.is_missing(cell) {
                    return Ok(None);
                }
                find_level(&levels, cell).map(Some).ok_or_else(|| {
                    self.cell_error(
                        cells,
                        row,
                        field,
                        format!(
                            "'{cell}' is not one of the values declared for attribute '{name}': \
                             {{{}}}",
                            levels.join(", ")
                        ),
                    )
                })
            })
            .collect::<Result<_>>()?;
        Ok(Categorical { levels, codes })
    }

    /// The class labels (after stripping the suffix) and the class index of each row of `rows`.
    /// Labels are the ARFF-declared values of a nominal class, else the labels seen.
    fn class_column_values(
        &self,
        cells: &RawCells,
        rows: &[usize],
        field: usize,
        name: &str,
    ) -> Result<(ClassLabels<String>, Vec<usize>)> {
        let label = |row: usize| {
            let cell = cells.cell(row, field);
            match &self.class_suffix {
                Some(suffix) => cell.strip_suffix(suffix.as_str()).unwrap_or(cell),
                None => cell,
            }
        };
        for &row in rows {
            let cell = cells.cell(row, field);
            if self.is_missing(cell) || label(row).is_empty() {
                return Err(self.cell_error(
                    cells,
                    row,
                    field,
                    format!("missing class label in class column '{name}'"),
                ));
            }
        }
        let levels = match cells.declared.as_ref().map(|d| &d[field]) {
            Some(Declared::Nominal(declared)) => {
                sorted_distinct(declared.iter().map(String::as_str))
            }
            _ => sorted_distinct(rows.iter().map(|&row| label(row))),
        };
        let mut targets = Vec::with_capacity(rows.len());
        for &row in rows {
            let code = find_level(&levels, label(row)).ok_or_else(|| {
                self.cell_error(
                    cells,
                    row,
                    field,
                    format!(
                        "class '{}' is not one of the values declared for attribute '{name}': \
                         {{{}}}",
                        label(row),
                        levels.join(", ")
                    ),
                )
            })?;
            targets.push(code);
        }
        Ok((ClassLabels::new(levels)?, targets))
    }
}

/// A finite number, or `None` (Rust's parser also accepts `inf` and `NaN`, which are not data).
pub(crate) fn parse_number(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|value| value.is_finite())
}

fn sorted_distinct<'a>(values: impl Iterator<Item = &'a str>) -> Vec<String> {
    values
        .collect::<BTreeSet<&str>>()
        .into_iter()
        .map(str::to_string)
        .collect()
}

fn find_level(levels: &[String], value: &str) -> Option<usize> {
    levels
        .binary_search_by(|level| level.as_str().cmp(value))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_err(result: Result<Table>) -> (usize, usize, String) {
        match result {
            Err(Error::Parse {
                line,
                column,
                message,
                ..
            }) => (line, column, message),
            Err(other) => panic!("expected a parse error, got {other}"),
            Ok(table) => panic!("expected a parse error, got a table {table:?}"),
        }
    }

    #[test]
    fn numbers_are_read_as_numbers_whatever_their_decimal_mark() {
        let semicolons = TableReader::new(TableFormat::Csv { delimiter: b';' });
        let european = "a;b;class\n7,0;3;x\n6,1;2,9;y\n5,5;;x\n";
        // Read with the point, the comma column is refused with the fix, not made categorical.
        let (line, field, message) = parse_err(semicolons.read_str(european, "eu.csv"));
        assert_eq!((line, field), (2, 1));
        assert!(
            message.contains("every value of column 'a' is a number with a decimal ','"),
            "{message}"
        );
        let table = semicolons
            .clone()
            .decimal_mark(DecimalMark::Comma)
            .missing_values(MissingValues::Keep)
            .read_str(european, "eu.csv")
            .unwrap();
        let ColumnValues::Numeric(a) = table.columns()[0].values() else {
            panic!("column a is numeric")
        };
        assert_eq!(a, &[Some(7.0), Some(6.1), Some(5.5)]);
        // A point file read with the comma: the same refusal the other way round.
        let (_, _, message) = parse_err(
            TableReader::csv()
                .decimal_mark(DecimalMark::Comma)
                .read_str("a,class\n1.5,x\n2.5,y\n", "points.csv"),
        );
        assert!(message.contains("with a decimal '.'"), "{message}");
        // Thousands separators.
        let (_, _, message) = parse_err(
            TableReader::csv().read_str("a,class\n\"1,234.5\",x\n\"12,000\",y\n7,x\n", "k.csv"),
        );
        assert!(message.contains("',' separating thousands"), "{message}");
        // A column declared categorical is taken at its word.
        let table = semicolons
            .column_type("a", ColumnType::Categorical)
            .missing_values(MissingValues::Keep)
            .read_str(european, "eu.csv");
        let (_, _, message) = parse_err(table);
        assert!(message.contains("column 'b'"), "{message}");
        // Words are still categories.
        let table = TableReader::csv()
            .read_str("a,class\nred,x\nblue,y\n", "w.csv")
            .unwrap();
        assert!(!table.columns()[0].is_numeric());
    }

    #[test]
    fn numbers_exclude_non_finite_spellings() {
        assert_eq!(parse_number("1e3"), Some(1000.0));
        assert_eq!(parse_number("-.5"), Some(-0.5));
        assert_eq!(parse_number("inf"), None);
        assert_eq!(parse_number("NaN"), None);
        assert_eq!(parse_number(""), None);
        assert_eq!(parse_number("1,5"), None);
    }

    #[test]
    fn inference_types_each_column_from_its_present_values() {
        let table = TableReader::uci(Separator::Comma)
            .read_str("1,a,?,x\n2,?,?,y\n3.5,b,?,x\n", "t.data")
            .unwrap();
        let kinds: Vec<bool> = table.columns().iter().map(Column::is_numeric).collect();
        assert_eq!(kinds, vec![true, false, true]);
        let ColumnValues::Categorical(c) = table.columns()[1].values() else {
            panic!()
        };
        assert_eq!(c.levels(), ["a", "b"]);
        assert_eq!(c.codes(), [Some(0), None, Some(1)]);
        assert_eq!(table.columns()[2].missing_count(), 3);
    }

    #[test]
    fn explicit_types_override_inference_and_report_bad_numbers() {
        let table = TableReader::uci(Separator::Comma)
            .column_type(0, ColumnType::Categorical)
            .read_str("1,x\n2,y\n", "t.data")
            .unwrap();
        assert!(!table.columns()[0].is_numeric());
        let (line, column, message) = parse_err(
            TableReader::uci(Separator::Comma)
                .all_columns(ColumnType::Numeric)
                .read_str("1,2,x\n3,oops,y\n", "t.data"),
        );
        assert_eq!((line, column), (2, 2));
        assert!(
            message.contains("'oops' is not a finite number"),
            "{message}"
        );
    }

    #[test]
    fn column_references_resolve_or_fail_with_the_layout_line() {
        let reader = TableReader::uci(Separator::Comma).column_names(["a", "b", "c"]);
        let table = reader
            .clone()
            .class_column("b")
            .read_str("1,x,2\n", "t")
            .unwrap();
        assert_eq!(
            (table.class_name(), table.column_names()),
            ("b", vec!["a", "c"])
        );
        let (line, _, message) =
            parse_err(reader.clone().class_column("z").read_str("\n1,x,2\n", "t"));
        assert_eq!(line, 2);
        assert!(message.contains("no column named 'z'"), "{message}");
        let (_, _, message) = parse_err(reader.clone().class_column(3).read_str("1,x,2\n", "t"));
        assert!(message.contains("no column at position 3"), "{message}");
        let (_, _, message) = parse_err(
            TableReader::uci(Separator::Comma)
                .column_names(["a", "b"])
                .read_str("1,x,2\n", "t"),
        );
        assert!(message.contains("2 column names were given"), "{message}");
        let (_, column, message) = parse_err(
            TableReader::uci(Separator::Comma)
                .column_names(["a", "a", "c"])
                .read_str("1,x,2\n", "t"),
        );
        assert_eq!(column, 2);
        assert!(message.contains("duplicate column name 'a'"), "{message}");
        assert!(!message.contains("without a header"), "{message}");
        // A header of numbers, duplicated, is the first row of a file without one.
        let (line, _, message) = parse_err(TableReader::csv().read_str("0,1,1,5\n2,3,4,5\n", "t"));
        assert_eq!(line, 1);
        assert!(
            message.contains("duplicate column name '1' (a header of numbers is usually"),
            "{message}"
        );
        // A duplicate name in an ignored column does not matter.
        TableReader::uci(Separator::Comma)
            .column_names(["a", "a", "c"])
            .ignore_columns([1])
            .read_str("1,x,2\n", "t")
            .unwrap();
    }

    /// A column not read does not drop rows, nor fail them, for its missing values; the error
    /// when every row has one names the column that has no value at all.
    #[test]
    fn only_the_columns_read_decide_which_rows_are_missing() {
        // Column `c` is missing everywhere, as Thyroid's TBG is.
        let text = "a,b,c,class\n1,2,?,x\n3,?,?,y\n5,6,?,x\n";
        let drop = TableReader::csv().missing_values(MissingValues::DropRows);
        let err = drop.read_str(text, "t").unwrap_err().to_string();
        assert!(
            err.contains("the column 'c' has no value in any row"),
            "{err}"
        );
        let table = drop
            .clone()
            .only_columns(["a", "b"])
            .read_str(text, "t")
            .unwrap();
        assert_eq!(table.column_names(), ["a", "b"]);
        assert_eq!((table.n_rows(), table.n_dropped_rows()), (2, 1));
        let table = drop
            .only_columns([ColumnRef::Index(0)])
            .read_str(text, "t")
            .unwrap();
        assert_eq!((table.n_rows(), table.n_dropped_rows()), (3, 0));
        // Rejecting missing values looks only at the columns read too.
        let reject = TableReader::csv().missing_values(MissingValues::Reject);
        assert!(reject.read_str(text, "t").is_err());
        let table = reject
            .clone()
            .only_columns(["a"])
            .read_str(text, "t")
            .unwrap();
        assert_eq!(
            table.to_dense().unwrap().column(0).to_vec(),
            [1.0, 3.0, 5.0]
        );
        // A column the file lacks is an error, or passed over when asked.
        assert!(reject
            .clone()
            .only_columns(["a", "z"])
            .read_str(text, "t")
            .is_err());
        let table = reject
            .clone()
            .only_columns_if_present(["a", "z"])
            .read_str(text, "t")
            .unwrap();
        assert_eq!(table.column_names(), ["a"]);
        let err = reject
            .only_columns(["class"])
            .read_str(text, "t")
            .unwrap_err();
        assert!(matches!(
            err,
            Error::InvalidParameter {
                name: "only_columns",
                ..
            }
        ));
    }

    #[test]
    fn the_class_column_cannot_be_ignored_or_typed() {
        let err = TableReader::uci(Separator::Comma)
            .ignore_columns([ColumnRef::Last])
            .read_str("1,2\n", "t")
            .unwrap_err();
        assert!(matches!(
            err,
            Error::InvalidParameter {
                name: "ignore_columns",
                ..
            }
        ));
        let err = TableReader::uci(Separator::Comma)
            .column_type(ColumnRef::Last, ColumnType::Numeric)
            .read_str("1,2\n", "t")
            .unwrap_err();
        assert!(matches!(
            err,
            Error::InvalidParameter {
                name: "column_type",
                ..
            }
        ));
        let err = TableReader::uci(Separator::Comma)
            .read_files::<&str>(&[])
            .unwrap_err();
        assert!(matches!(err, Error::InvalidParameter { name: "paths", .. }));
    }

    #[test]
    fn classes_are_sorted_strings_with_optional_suffix_stripping() {
        let reader = TableReader::uci(Separator::Comma).class_column(ColumnRef::First);
        let table = reader.read_str("b.,1\na.,2\nb,3\n", "t").unwrap();
        assert_eq!(table.classes().labels(), ["a.", "b", "b."]);
        let table = reader
            .clone()
            .strip_class_suffix(".")
            .read_str("b.,1\na.,2\nb,3\n", "t")
            .unwrap();
        assert_eq!(table.classes().labels(), ["a", "b"]);
        assert_eq!(table.targets().to_vec(), vec![1, 0, 1]);
        assert_eq!(table.class_counts(), vec![1, 2]);
        let (line, column, message) = parse_err(reader.read_str("a,1\n?,2\n", "t"));
        assert_eq!((line, column), (2, 1));
        assert!(message.contains("missing class label"), "{message}");
        let (line, ..) = parse_err(
            TableReader::uci(Separator::Comma)
                .strip_class_suffix(".")
                .read_str("1,a\n2,.\n", "t"),
        );
        assert_eq!(line, 2);
    }

    #[test]
    fn a_custom_or_absent_missing_marker() {
        let table = TableReader::uci(Separator::Comma)
            .missing_marker("NA")
            .read_str("NA,?,a\n1,x,b\n", "t")
            .unwrap();
        assert_eq!(table.columns()[0].missing_count(), 1);
        assert_eq!(table.columns()[1].missing_count(), 0);
        let table = TableReader::uci(Separator::Comma)
            .no_missing_marker()
            .read_str("y,a\n?,b\n", "t")
            .unwrap();
        let ColumnValues::Categorical(c) = table.columns()[0].values() else {
            panic!()
        };
        assert_eq!(c.levels(), ["?", "y"]);
    }
}
