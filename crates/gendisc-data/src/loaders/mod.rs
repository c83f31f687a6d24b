//! Readers for the tabular files the papers' experiments use, with errors that name file, line
//! and field.
//!
//! * [`TableReader`] reads UCI / Statlog `.data` files ([`TableFormat::Uci`], comma or
//!   whitespace separated, `?` for missing values), CSV with a header ([`TableFormat::Csv`]) and
//!   Weka ARFF ([`TableFormat::Arff`]) into a [`Table`] of numeric and categorical columns and a
//!   class column. One file or several concatenated ([`TableReader::read_files`]).
//! * Missing values: the markers are configurable ([`TableReader::missing_markers`]; for CSV by
//!   default [`CSV_MISSING_MARKERS`], an empty cell, `NA`, `NaN` and `?`), and a gap never
//!   makes a numeric column categorical. [`MissingValues`] says what a gap does: an error
//!   naming file, line and column (the CSV default), `None` in the table (the UCI and ARFF
//!   default), or its row left out and counted ([`Table::n_dropped_rows`]).
//! * A [`Table`] turns into model input: [`Table::to_dense`] for numeric columns,
//!   [`Table::one_hot`] for mixed ones, [`Table::targets`] and [`Table::classes`] for the labels;
//!   [`Table::drop_missing_rows`] does complete-case analysis, [`Table::align_to`] encodes a test
//!   file like its training file, [`Table::explode_characters`] splits a sequence into one
//!   column per position.
//! * [`LibsvmReader`] reads LIBSVM / svmlight files into a sparse CSR matrix
//!   ([`SparseDataset`]).
//! * [`dataset_path`] finds a data file under `$GENDISC_DATA` (else `./data`).
//!
//! Malformed input never panics: it is an [`Error::Parse`](gendisc_core::Error::Parse) with the
//! 1-based line and field, or an [`Error::Io`](gendisc_core::Error::Io) naming the file.
//!
//! # Reading the data sets of the papers
//!
//! ```no_run
//! use gendisc_data::loaders::{dataset_path, ColumnRef, ColumnType, OneHot, Separator, TableReader};
//!
//! // Adult: comma+space separated, `?` for missing, the class last; the test file writes its
//! // classes with a trailing dot.
//! let reader = TableReader::uci(Separator::Comma);
//! let train = reader.read(dataset_path("uci/adult/adult.data")?)?.drop_missing_rows();
//! let test = reader
//!     .clone()
//!     .strip_class_suffix(".")
//!     .read(dataset_path("uci/adult/adult-test.csv")?)?
//!     .drop_missing_rows()
//!     .align_to(&train)?;
//! let (x_train, feature_names) = train.one_hot(OneHot::AllLevels)?;
//! let (x_test, _) = test.one_hot(OneHot::AllLevels)?;
//! assert_eq!(x_train.ncols(), x_test.ncols());
//!
//! // Vehicle: nine whitespace-separated pieces, read as one table.
//! let pieces: Vec<_> = ["xaa", "xab", "xac", "xad", "xae", "xaf", "xag", "xah", "xai"]
//!     .iter()
//!     .map(|p| dataset_path(format!("statlog/vehicle/{p}.dat")))
//!     .collect::<Result<_, _>>()?;
//! let vehicle = TableReader::uci(Separator::Whitespace).read_files(&pieces)?;
//!
//! // Promoters: class, instance name, 57-letter sequence; one feature per nucleotide.
//! let promoters = TableReader::uci(Separator::Comma)
//!     .class_column(ColumnRef::First)
//!     .ignore_columns([1])
//!     .read(dataset_path("uci/promoters/promoters.data")?)?
//!     .explode_characters("V3")?;
//!
//! // Lymphography: integer codes that are categories, the class first.
//! let lymphography = TableReader::uci(Separator::Comma)
//!     .class_column(ColumnRef::First)
//!     .all_columns(ColumnType::Categorical)
//!     .read(dataset_path("uci/lymphography/lymphography.data")?)?;
//! # Ok::<(), gendisc_core::Error>(())
//! ```

mod arff;
mod cells;
mod csv_header;
mod delimited;
mod libsvm;
mod path;
mod reader;
mod source;
mod table;

pub use libsvm::{IndexBase, LibsvmReader, SparseDataset};
pub use path::{data_dir, dataset_path, DATA_DIR_VAR};
pub use reader::{
    ColumnRef, ColumnType, DecimalMark, MissingValues, Separator, TableFormat, TableReader,
    CSV_MISSING_MARKERS, MISSING_VALUE_REMEDY,
};
pub use table::{Categorical, Column, ColumnValues, OneHot, Table};
