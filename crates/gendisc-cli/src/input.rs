//! Reading the user's data files: the format, the class column, the columns kept and their
//! types, and what a missing value does.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use gendisc_core::{ColumnEncoding, InputColumn, Preprocessing};
use gendisc_data::encoding::{self, CategoricalAs};
use gendisc_data::loaders::{
    ColumnRef, ColumnType, ColumnValues, DecimalMark, LibsvmReader, MissingValues, Separator,
    Table, TableFormat, TableReader, CSV_MISSING_MARKERS,
};
use ndarray::Array2;

/// Where the data are and how to read them.
#[derive(Debug, Clone, Args)]
pub struct DataArgs {
    /// The data file: CSV or TSV, ARFF, LIBSVM or UCI `.data`.
    #[arg(long, value_name = "FILE")]
    pub data: PathBuf,
    /// The file's format [default: from its extension: .arff, .libsvm/.svm, .tsv, .data;
    /// otherwise CSV].
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// The CSV or TSV file has no header row; its columns are then called V1, V2, …
    #[arg(long)]
    pub no_header: bool,
    /// The field delimiter of a CSV or `.data` file (`' '` for any run of blanks) [default:
    /// `,`; a tab for TSV].
    #[arg(long, value_name = "CHAR")]
    pub delimiter: Option<char>,
    /// The decimal mark of the file's numbers: `.` or `,` (as in `3,5`; such files usually
    /// separate fields with `;`, so give `--delimiter ';'` too). A column that would be numeric
    /// under the other mark is an error that says so, never a column of categories.
    #[arg(long, value_name = "MARK", default_value_t = '.', value_parser = decimal_mark)]
    pub decimal: char,
    /// The class column, by name or 0-based position [default: the last column; at predict
    /// and evaluate, the model's class column].
    #[arg(long, value_name = "COLUMN")]
    pub target: Option<String>,
    /// The feature columns to use, by name or 0-based position, comma-separated [default:
    /// every column but the class]. Ignored at predict and evaluate, where the model's columns are read.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub features: Vec<String>,
    /// Columns to read as categories even if they hold numbers, by name or 0-based position,
    /// comma-separated (columns holding text are categorical anyway).
    #[arg(long, value_delimiter = ',', value_name = "COLUMNS")]
    pub categorical: Vec<String>,
    /// What a missing value (empty, NA, NaN or ?) does.
    #[arg(long, value_enum, default_value_t = Missing::Error)]
    pub missing: Missing,
}

/// The data-file formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Comma-separated values (a header row unless --no-header).
    Csv,
    /// Tab-separated values (a header row unless --no-header).
    Tsv,
    /// Weka ARFF.
    Arff,
    /// LIBSVM / svmlight sparse rows `label index:value …`.
    Libsvm,
    /// UCI `.data`: no header, comma-separated unless --delimiter says otherwise.
    Uci,
}

/// What a missing value does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Missing {
    /// An error naming the file, line and column.
    Error,
    /// Leave out the rows with a missing value (their number is reported).
    Drop,
}

impl DataArgs {
    /// The format: as given, else from the file's extension.
    fn format(&self) -> Format {
        if let Some(format) = self.format {
            return format;
        }
        let extension = self
            .data
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("arff") => Format::Arff,
            Some("libsvm" | "svm" | "svmlight") => Format::Libsvm,
            Some("tsv" | "tab") => Format::Tsv,
            Some("data" | "dat") => Format::Uci,
            _ => Format::Csv,
        }
    }

    /// The table reader of these arguments, with `target` as the class column.
    fn reader(&self, target: Option<&str>) -> Result<TableReader> {
        let separator = |default: Separator| match self.delimiter {
            None => default,
            Some(' ') => Separator::Whitespace,
            Some(c) => Separator::Char(c),
        };
        let delimited = |default: char| -> Result<TableReader> {
            if self.no_header {
                return Ok(TableReader::uci(separator(Separator::Char(default)))
                    .missing_markers(CSV_MISSING_MARKERS));
            }
            let delimiter = self.delimiter.unwrap_or(default);
            let delimiter = u8::try_from(delimiter)
                .ok()
                .filter(u8::is_ascii)
                .with_context(|| {
                    format!("the delimiter {delimiter:?} is not an ASCII character")
                })?;
            Ok(TableReader::new(TableFormat::Csv { delimiter }))
        };
        let reader = match self.format() {
            Format::Csv => delimited(',')?,
            Format::Tsv => delimited('\t')?,
            Format::Arff => TableReader::arff(),
            Format::Uci => TableReader::uci(separator(Separator::Comma)),
            Format::Libsvm => bail!("a LIBSVM file is not a table"),
        };
        let mut reader = reader
            .missing_values(match self.missing {
                Missing::Error => MissingValues::Reject,
                Missing::Drop => MissingValues::DropRows,
            })
            .decimal_mark(if self.decimal == ',' {
                DecimalMark::Comma
            } else {
                DecimalMark::Point
            });
        if let Some(target) = target {
            reader = reader.class_column(column_ref(target));
        }
        for column in &self.categorical {
            reader = reader.column_type(column_ref(column), ColumnType::Categorical);
        }
        Ok(reader)
    }
}

/// `--decimal`: a point or a comma.
fn decimal_mark(text: &str) -> std::result::Result<char, String> {
    match text {
        "." => Ok('.'),
        "," => Ok(','),
        other => Err(format!("the decimal mark is '.' or ',', not {other:?}")),
    }
}

/// Refuses a header row that reads as a row of data — a number for every feature and, for the
/// class, a number or one of the classes of the other rows — as the first row of a file without
/// a header (a UCI file with another extension, say) reads: taken as column names, it would be
/// lost from the data.
fn check_header_is_not_data(args: &DataArgs, table: &Table) -> Result<()> {
    let is_number = |name: &str| name.trim().parse::<f64>().is_ok();
    let class = table.class_name();
    let looks_like_data = table.n_columns() > 0
        && table.column_names().iter().all(|name| is_number(name))
        && (is_number(class) || table.classes().index_of(class).is_some());
    if looks_like_data {
        bail!(
            "{}: the first row reads as data (numbers, and the class '{class}'), not as a header \
             of column names; give --no-header (the columns are then V1, V2, …) or add a \
             header row",
            args.data.display()
        );
    }
    Ok(())
}

/// A column by 0-based position when `text` is a number, else by name.
fn column_ref(text: &str) -> ColumnRef {
    match text.parse::<usize>() {
        Ok(index) => ColumnRef::Index(index),
        Err(_) => ColumnRef::Name(text.to_owned()),
    }
}

/// Training data: features, labels as written in the file, and how the features were made.
pub struct Training {
    /// The features, one row per example.
    pub x: Array2<f64>,
    /// The class label of each row.
    pub labels: Vec<String>,
    /// How the features are made from the file's columns.
    pub preprocessing: Preprocessing,
    /// The name of each feature (`column` or `column=level` for an indicator).
    pub feature_names: Vec<String>,
    /// Rows left out for a missing value.
    pub n_dropped: usize,
}

/// The training table of `args` (the class column, the selected features and their types),
/// before encoding; `None` for a LIBSVM file.
pub fn read_training_table(args: &DataArgs) -> Result<Option<Table>> {
    if args.format() == Format::Libsvm {
        return Ok(None);
    }
    // Only the selected columns are read, so that a missing value elsewhere (a column left out
    // because it has none, as Thyroid's TBG) neither drops nor fails a row.
    let reader = args.reader(args.target.as_deref())?;
    let reader = if args.features.is_empty() {
        reader
    } else {
        reader.only_columns(args.features.iter().map(|f| column_ref(f)))
    };
    let table = reader.read(&args.data).map_err(|e| cannot_read(args, e))?;
    if matches!(args.format(), Format::Csv | Format::Tsv) && !args.no_header {
        check_header_is_not_data(args, &table)?;
    }
    let table = if args.features.is_empty() {
        table
    } else {
        // A number is a 0-based position in the file, as for --target.
        let by_position = |text: &str| {
            let index = text.parse::<usize>().ok()?;
            table
                .columns()
                .iter()
                .find(|c| c.source_field() == index + 1)
                .map(|c| c.name())
        };
        let names: Vec<&str> = args
            .features
            .iter()
            .map(|f| by_position(f).unwrap_or(f))
            .collect();
        table
            .select_columns(&names)
            .with_context(|| format!("cannot select --features in {}", args.data.display()))?
    };
    reject_mixed_columns(&table, args)?;
    Ok(Some(table))
}

/// `error` in reading `args`' file, with the flag that fixes it: `--missing drop` for a
/// missing value, `--features` for a column with no value at all, `--decimal` for numbers with the other decimal mark, `--delimiter` for a file
/// that splits evenly at another delimiter.
fn cannot_read(args: &DataArgs, error: gendisc_core::Error) -> anyhow::Error {
    // The library's remedy for a missing value names its API; the flag below replaces it.
    let error = match error {
        gendisc_core::Error::Parse {
            path,
            line,
            column,
            message,
        } => gendisc_core::Error::Parse {
            message: message.replace(gendisc_data::loaders::MISSING_VALUE_REMEDY, ""),
            path,
            line,
            column,
        },
        other => other,
    };
    let other_mark = if args.decimal == ',' { '.' } else { ',' };
    let hint = match (&error, args.missing) {
        (gendisc_core::Error::Parse { message, .. }, Missing::Error)
            if message.contains("missing value") =>
        {
            " (--missing drop leaves out rows with a missing value)".to_owned()
        }
        (gendisc_core::Error::Parse { message, .. }, Missing::Drop)
            if message.contains("no value in any row") =>
        {
            " (--features reads only the columns it names)".to_owned()
        }
        (gendisc_core::Error::Parse { message, .. }, _)
            if message.contains(&format!("a number with a decimal '{other_mark}'")) =>
        {
            format!(" (give --decimal '{other_mark}')")
        }
        (gendisc_core::Error::Parse { message, .. }, _)
            if message.contains("of a file without a header") && !args.no_header =>
        {
            " (give --no-header: the columns are then V1, V2, …)".to_owned()
        }
        (gendisc_core::Error::Parse { message, .. }, _)
            if message.contains("file's delimiter?") =>
        {
            let delimiter = message
                .rsplit_once(" at '")
                .and_then(|(_, rest)| rest.split_once('\''))
                .map_or("…", |(d, _)| d);
            format!(" (give --delimiter '{delimiter}')")
        }
        _ => String::new(),
    };
    anyhow::Error::new(error).context(format!(
        "cannot read the data file {}{hint}",
        args.data.display()
    ))
}

/// Fails on a column of numbers with some text in it, inferred categorical for that text: most
/// likely a typo or an unlisted missing-value marker, unless the user declared it categorical.
fn reject_mixed_columns(table: &Table, args: &DataArgs) -> Result<()> {
    let is_number = |s: &str| s.trim().parse::<f64>().is_ok_and(f64::is_finite);
    for column in table.columns() {
        let ColumnValues::Categorical(values) = column.values() else {
            continue;
        };
        let declared = args.categorical.iter().any(|c| {
            c == column.name() || c.parse::<usize>().ok() == Some(column.source_field() - 1)
        });
        if declared || !values.levels().iter().any(|level| is_number(level)) {
            continue;
        }
        let text_row =
            (0..values.codes().len()).find(|&row| values.value(row).is_some_and(|v| !is_number(v)));
        if let Some(row) = text_row {
            let place = table.row_origin(row).map_or_else(
                || format!("row {}", row + 1),
                |(path, line)| format!("{}:{line}:{}", path.display(), column.source_field()),
            );
            bail!(
                "{place}: '{}' is not a number, in column '{}' of numbers (declare the column \
                 with --categorical to read it as categories)",
                values.value(row).unwrap_or_default(),
                column.name()
            );
        }
    }
    Ok(())
}

/// Encodes a training table (or reads a LIBSVM file) with categorical columns as `categorical`.
pub fn training(
    args: &DataArgs,
    table: Option<&Table>,
    categorical: CategoricalAs,
) -> Result<Training> {
    let Some(table) = table else {
        return read_libsvm_training(&args.data);
    };
    let preprocessing = encoding::record(table, categorical);
    let x = encoding::encode(table, &preprocessing)
        .with_context(|| format!("cannot encode {}", args.data.display()))?;
    Ok(Training {
        x,
        labels: table.labels(),
        feature_names: feature_names(&preprocessing),
        preprocessing,
        n_dropped: table.n_dropped_rows(),
    })
}

/// A LIBSVM file as training data: its features named by their index in the file.
fn read_libsvm_training(path: &Path) -> Result<Training> {
    let data = LibsvmReader::new()
        .read(path)
        .with_context(|| format!("cannot read the LIBSVM file {}", path.display()))?;
    let labels = data
        .classes()
        .decode(&data.targets().to_vec())?
        .into_iter()
        .map(|label| label.to_string())
        .collect();
    let preprocessing = libsvm_preprocessing(data.n_features());
    Ok(Training {
        x: data.to_dense(),
        labels,
        feature_names: feature_names(&preprocessing),
        preprocessing,
        n_dropped: 0,
    })
}

/// The preprocessing of a LIBSVM file of `n` features: numeric columns named `1`, `2`, …, as
/// the file's indices.
fn libsvm_preprocessing(n: usize) -> Preprocessing {
    Preprocessing {
        standardisation: None,
        columns: (1..=n)
            .map(|index| InputColumn {
                name: index.to_string(),
                encoding: ColumnEncoding::Numeric,
            })
            .collect(),
        target: None,
    }
}

/// The names of the features a preprocessing makes.
pub fn feature_names(preprocessing: &Preprocessing) -> Vec<String> {
    preprocessing
        .columns
        .iter()
        .flat_map(|column| match &column.encoding {
            ColumnEncoding::OneHot { levels } => levels
                .iter()
                .map(|level| format!("{}={level}", column.name))
                .collect(),
            ColumnEncoding::Treatment { levels } => levels
                .iter()
                .skip(1)
                .map(|level| format!("{}={level}", column.name))
                .collect(),
            _ => vec![column.name.clone()],
        })
        .collect()
}

/// New data encoded for a model: the features, and the labels when the file has a class
/// column.
pub struct Encoded {
    /// The features.
    pub x: Array2<f64>,
    /// The class label of each row, when the file has the class column.
    pub labels: Option<Vec<String>>,
    /// Rows left out for a missing value.
    pub n_dropped: usize,
}

/// The name given to the class column added to a file that has none.
const ABSENT_CLASS: &str = "gendisc: no class column";

/// Reads `args`' file and encodes it by `preprocessing` (the model's), or, for a model file
/// without one, takes its numeric columns as they are, checking there are `n_features`.
pub fn encode_for_model(
    args: &DataArgs,
    preprocessing: Option<&Preprocessing>,
    n_features: usize,
) -> Result<Encoded> {
    let path = &args.data;
    if args.format() == Format::Libsvm {
        let data = LibsvmReader::new()
            .n_features(n_features)
            .read(path)
            .with_context(|| format!("cannot read the LIBSVM file {}", path.display()))?;
        let mut x = data.to_dense();
        if let Some(preprocessing) = preprocessing {
            if preprocessing.columns != libsvm_preprocessing(n_features).columns {
                bail!(
                    "the model reads the columns {}, not the numbered features of a LIBSVM file",
                    preprocessing.column_names().join(", ")
                );
            }
            if let Some(standardisation) = &preprocessing.standardisation {
                standardisation.apply(x.view_mut());
            }
        }
        let labels = data
            .classes()
            .decode(&data.targets().to_vec())?
            .into_iter()
            .map(|label| label.to_string())
            .collect();
        return Ok(Encoded {
            x,
            labels: Some(labels),
            n_dropped: 0,
        });
    }
    let target = args
        .target
        .clone()
        .or_else(|| preprocessing.and_then(|p| p.target.clone()));
    // The model's columns only: a missing value in a column the model does not read neither
    // drops nor fails a row. Those the file lacks are passed over, so that the encoding names
    // every one of them.
    let columns = preprocessing
        .map(Preprocessing::column_names)
        .unwrap_or_default();
    let (table, has_labels) = read_new_table(args, target.as_deref(), &columns, &[])?;
    let Some(preprocessing) = preprocessing else {
        let x = table.to_dense()?;
        if x.ncols() != n_features {
            bail!(
                "{} has {} feature columns; the model reads {n_features}",
                path.display(),
                x.ncols()
            );
        }
        return Ok(encoded(x, &table, has_labels));
    };
    // A column whose kind here differs from the model's is read again with the model's kind:
    // categories that hold only numbers here are compared as the levels they were at fit time,
    // and text in a numeric column is reported at its cell by the reader.
    let retyped: Vec<(&str, ColumnType)> = preprocessing
        .columns
        .iter()
        .filter_map(|c| {
            let numeric_for_model = matches!(c.encoding, ColumnEncoding::Numeric);
            let column = table.column(&c.name)?;
            (column.is_numeric() != numeric_for_model).then_some((
                c.name.as_str(),
                if numeric_for_model {
                    ColumnType::Numeric
                } else {
                    ColumnType::Categorical
                },
            ))
        })
        .collect();
    let table = if retyped.is_empty() {
        table
    } else {
        read_new_table(args, target.as_deref(), &columns, &retyped)?.0
    };
    let x = encoding::encode(&table, preprocessing)
        .with_context(|| format!("{} does not fit the model", path.display()))?;
    Ok(encoded(x, &table, has_labels))
}

/// Encoded data from `x` and the labels and dropped rows of `table`.
fn encoded(x: Array2<f64>, table: &Table, has_labels: bool) -> Encoded {
    Encoded {
        x,
        labels: has_labels.then(|| table.labels()),
        n_dropped: table.n_dropped_rows(),
    }
}

/// Reads new data with `target` as the class column, only `columns` of the others (all when
/// empty) and the columns of `types` of those types. A CSV file with a header but without the class column is read with a constant
/// one added; the second value says whether the file had its own.
fn read_new_table(
    args: &DataArgs,
    target: Option<&str>,
    columns: &[&str],
    types: &[(&str, ColumnType)],
) -> Result<(Table, bool)> {
    let path = &args.data;
    let with_types = |mut reader: TableReader| {
        if !columns.is_empty() {
            reader = reader.only_columns_if_present(columns.iter().copied());
        }
        for &(name, kind) in types {
            reader = reader.column_type(name, kind);
        }
        reader
    };
    let read_text = || {
        fs::read_to_string(path)
            .with_context(|| format!("cannot read the data file {}", path.display()))
    };
    let default_delimiter = if args.format() == Format::Tsv {
        '\t'
    } else {
        ','
    };
    let delimiter = args.delimiter.unwrap_or(default_delimiter);
    let fields = |line: &str| match delimiter {
        ' ' => line.split_whitespace().count(),
        c => line.split(c).count(),
    };
    // Some(text, whether its first line is a header) when the file lacks the class column.
    let lacks_target = match (args.format(), target) {
        (Format::Csv | Format::Tsv, Some(target)) if !args.no_header => {
            let text = read_text()?;
            let header = text.lines().next().unwrap_or_default();
            let lacks = target.parse::<usize>().is_err()
                && !header
                    .split(delimiter)
                    .any(|name| name.trim().trim_matches('"') == target);
            lacks.then_some((text, true))
        }
        // Without a header the class column is `V<k>`, its 1-based field: absent when the rows
        // end one field before it.
        (Format::Csv | Format::Tsv | Format::Uci, Some(target)) => {
            let position = target
                .strip_prefix('V')
                .and_then(|n| n.parse::<usize>().ok());
            let text = read_text()?;
            let first = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or_default();
            let lacks = position.is_some_and(|p| p == fields(first) + 1);
            lacks.then_some((text, false))
        }
        _ => None,
    };
    let Some((text, has_header)) = lacks_target else {
        let table = with_types(args.reader(target)?)
            .read(path)
            .map_err(|e| cannot_read(args, e))?;
        return Ok((table, true));
    };
    // The rows get a constant class, after the last field; with a header, a column name too.
    let mut with_class = String::with_capacity(text.len() * 2);
    for (i, line) in text.lines().enumerate() {
        with_class.push_str(line);
        if !line.trim().is_empty() {
            with_class.push(delimiter);
            with_class.push_str(if has_header && i == 0 {
                ABSENT_CLASS
            } else {
                "-"
            });
        }
        with_class.push('\n');
    }
    let class = if has_header {
        Some(ABSENT_CLASS)
    } else {
        target
    };
    let table = with_types(args.reader(class)?)
        .read_str(&with_class, path)
        .map_err(|e| cannot_read(args, e))?;
    Ok((table, false))
}
