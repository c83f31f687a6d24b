//! A table's columns as a model's features, recorded at fit time and replayed on new data.
//!
//! [`record`] describes how a training [`Table`] becomes features — each column numeric, one-hot
//! with its levels, or a categorical code into its levels — as a
//! [`Preprocessing`] that a model file stores; [`encode`] applies a recorded preprocessing to
//! any table (a test file, new data), selecting its columns by name, so that the features of new
//! rows mean what they meant at fit time. Everything that can differ between the two is an
//! [`EncodingError`] naming the columns, levels or cells at fault.
//!
//! ```
//! use gendisc_data::encoding::{encode, record, CategoricalAs};
//! use gendisc_data::loaders::TableReader;
//!
//! let train = TableReader::csv().read_str("size,colour,y\n1.5,red,a\n2.5,blue,b\n", "train.csv")?;
//! let preprocessing = record(&train, CategoricalAs::OneHot);
//! assert_eq!(preprocessing.n_features(), 3); // size, colour=blue, colour=red
//!
//! // New data with the columns in another order: selected by name.
//! let new = TableReader::csv().read_str("colour,size,y\nred,4.0,a\n", "new.csv")?;
//! let x = encode(&new, &preprocessing)?;
//! assert_eq!(x.row(0).to_vec(), vec![4.0, 0.0, 1.0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::path::PathBuf;

use gendisc_core::{ColumnEncoding, InputColumn, Preprocessing};
use ndarray::Array2;

use crate::loaders::{Categorical, ColumnValues, Table};

/// How [`record`] encodes the categorical columns of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CategoricalAs {
    /// One indicator feature per level: for models of continuous features.
    OneHot,
    /// One indicator feature per level that occurs but the first (treatment contrasts, as R
    /// codes a factor): for models of continuous features fitted with an unpenalised intercept,
    /// beside which a full set of indicators is collinear (R's `glm`).
    Treatment,
    /// One feature holding the level's index: for models of categorical features (categorical
    /// naive Bayes).
    Categorical,
}

/// Why a table could not be encoded by a recorded [`Preprocessing`].
#[derive(Debug)]
#[non_exhaustive]
pub enum EncodingError {
    /// Columns the preprocessing reads are not in the table.
    MissingColumns {
        /// The columns the preprocessing reads that the table lacks, in the preprocessing's order.
        missing: Vec<String>,
        /// The table's feature columns.
        found: Vec<String>,
    },
    /// A column is numeric where the preprocessing expects categories, or the reverse.
    ColumnKind {
        /// The column's name.
        column: String,
        /// What the preprocessing expects: `"numeric"` or `"categorical"`.
        expected: &'static str,
        /// What the table holds.
        found: &'static str,
    },
    /// A cell holds a level the column did not have when the model was fitted.
    UnknownLevel {
        /// The column's name.
        column: String,
        /// The unknown level.
        level: String,
        /// The levels known at fit time.
        known: Vec<String>,
        /// Where the cell is: file, 1-based line and 1-based field.
        at: CellAt,
    },
    /// A cell is missing.
    MissingValue {
        /// The column's name.
        column: String,
        /// Where the cell is: file, 1-based line and 1-based field.
        at: CellAt,
    },
}

/// A cell's place in its file: the file, the 1-based line and the 1-based field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellAt {
    /// The file, when the row came from one.
    pub path: Option<PathBuf>,
    /// The 1-based line.
    pub line: usize,
    /// The 1-based field.
    pub field: usize,
}

impl fmt::Display for CellAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(path) => write!(f, "{}:{}:{}", path.display(), self.line, self.field),
            None => write!(f, "line {}, field {}", self.line, self.field),
        }
    }
}

impl fmt::Display for EncodingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodingError::MissingColumns { missing, found } => write!(
                f,
                "the data lack the column{} {} that the model reads (the data's columns are: {})",
                if missing.len() == 1 { "" } else { "s" },
                quoted(missing),
                quoted(found),
            ),
            EncodingError::ColumnKind {
                column,
                expected,
                found,
            } => write!(
                f,
                "column '{column}' is {found} in the data but was {expected} when the model was fitted"
            ),
            EncodingError::UnknownLevel {
                column,
                level,
                known,
                at,
            } => write!(
                f,
                "{at}: column '{column}' has the value '{level}', unknown to the model (its values: {})",
                quoted(known)
            ),
            EncodingError::MissingValue { column, at } => {
                write!(f, "{at}: missing value in column '{column}'")
            }
        }
    }
}

impl std::error::Error for EncodingError {}

/// `'a', 'b', 'c'`.
fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|name| format!("'{name}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The preprocessing that encodes `table`'s feature columns, in order: numeric columns as they
/// are, categorical columns as `categorical` says, with the levels the table has; its target is
/// the table's class column.
pub fn record(table: &Table, categorical: CategoricalAs) -> Preprocessing {
    let columns = table
        .columns()
        .iter()
        .map(|column| InputColumn {
            name: column.name().to_owned(),
            encoding: match column.values() {
                ColumnValues::Numeric(_) => ColumnEncoding::Numeric,
                ColumnValues::Categorical(values) => {
                    let levels = values.levels().to_vec();
                    match categorical {
                        CategoricalAs::OneHot => ColumnEncoding::OneHot { levels },
                        CategoricalAs::Categorical => ColumnEncoding::Categorical { levels },
                        // A level that no row holds (an ARFF header declares levels) would be
                        // a column of zeros, or, taken as the reference, leave the others
                        // collinear with the intercept.
                        CategoricalAs::Treatment => ColumnEncoding::Treatment {
                            levels: occurring_levels(values),
                        },
                    }
                }
            },
        })
        .collect();
    Preprocessing {
        standardisation: None,
        columns,
        target: Some(table.class_name().to_owned()),
    }
}

/// The levels of `values` that some row holds, in the column's order.
fn occurring_levels(values: &Categorical) -> Vec<String> {
    let mut held = vec![false; values.levels().len()];
    values
        .codes()
        .iter()
        .flatten()
        .for_each(|&code| held[code] = true);
    values
        .levels()
        .iter()
        .zip(held)
        .filter(|&(_, held)| held)
        .map(|(level, _)| level.clone())
        .collect()
}

/// The features of `table`'s rows by `preprocessing`: its columns, found in the table by name
/// (the table may hold others, in any order), each encoded as recorded, then standardised when
/// the preprocessing records a standardisation.
///
/// Fails, naming them, on columns the table lacks, a column of another kind, a level unknown at
/// fit time and a missing value (the last two at their file, line and field).
pub fn encode(table: &Table, preprocessing: &Preprocessing) -> Result<Array2<f64>, EncodingError> {
    let missing: Vec<String> = preprocessing
        .columns
        .iter()
        .filter(|c| table.column(&c.name).is_none())
        .map(|c| c.name.clone())
        .collect();
    if !missing.is_empty() {
        return Err(EncodingError::MissingColumns {
            missing,
            found: table
                .column_names()
                .into_iter()
                .map(str::to_owned)
                .collect(),
        });
    }
    let mut x = Array2::zeros((table.n_rows(), preprocessing.n_features()));
    let mut offset = 0;
    let found = preprocessing
        .columns
        .iter()
        .filter_map(|input| Some((input, table.column(&input.name)?)));
    for (input, column) in found {
        let at = |row: usize| {
            let (path, line) = table
                .row_origin(row)
                .map_or((None, row + 1), |(p, l)| (Some(p.to_owned()), l));
            CellAt {
                path,
                line,
                field: column.source_field(),
            }
        };
        let missing = |row: usize| EncodingError::MissingValue {
            column: input.name.clone(),
            at: at(row),
        };
        match (&input.encoding, column.values()) {
            (ColumnEncoding::Numeric, ColumnValues::Numeric(values)) => {
                for (row, value) in values.iter().enumerate() {
                    x[[row, offset]] = value.ok_or_else(|| missing(row))?;
                }
            }
            (
                ColumnEncoding::OneHot { levels }
                | ColumnEncoding::Treatment { levels }
                | ColumnEncoding::Categorical { levels },
                ColumnValues::Categorical(values),
            ) => {
                for (row, code) in values.codes().iter().enumerate() {
                    let level = &values.levels()[code.ok_or_else(|| missing(row))?];
                    let index = levels.iter().position(|l| l == level).ok_or_else(|| {
                        EncodingError::UnknownLevel {
                            column: input.name.clone(),
                            level: level.clone(),
                            known: levels.clone(),
                            at: at(row),
                        }
                    })?;
                    match input.encoding {
                        ColumnEncoding::OneHot { .. } => x[[row, offset + index]] = 1.0,
                        ColumnEncoding::Treatment { .. } if index > 0 => {
                            x[[row, offset + index - 1]] = 1.0;
                        }
                        ColumnEncoding::Treatment { .. } => {}
                        _ => x[[row, offset]] = index as f64,
                    }
                }
            }
            (expected, values) => {
                let kind = |numeric: bool| if numeric { "numeric" } else { "categorical" };
                return Err(EncodingError::ColumnKind {
                    column: input.name.clone(),
                    expected: kind(matches!(expected, ColumnEncoding::Numeric)),
                    found: kind(matches!(values, ColumnValues::Numeric(_))),
                });
            }
        }
        offset += input.encoding.n_features();
    }
    if let Some(standardisation) = &preprocessing.standardisation {
        standardisation.apply(x.view_mut());
    }
    Ok(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loaders::{ColumnRef, ColumnType, TableReader};

    fn read(text: &str) -> Table {
        TableReader::csv().read_str(text, "data.csv").unwrap()
    }

    #[test]
    fn categorical_codes_index_the_recorded_levels() {
        let train = read("colour,y\nred,a\nblue,b\ngreen,a\n");
        let preprocessing = record(&train, CategoricalAs::Categorical);
        // The new file has fewer levels, so its own codes differ from the recorded ones.
        let x = encode(&read("colour,y\nred,a\ngreen,b\n"), &preprocessing).unwrap();
        assert_eq!(x.column(0).to_vec(), vec![2.0, 1.0]);
    }

    #[test]
    fn treatment_coding_drops_the_first_level_that_occurs() {
        let train = read("colour,n,y\nred,1,a\nblue,2,b\ngreen,3,a\nred,4,b\n");
        let preprocessing = record(&train, CategoricalAs::Treatment);
        assert_eq!(preprocessing.n_features(), 3);
        // Levels in byte order: blue is the reference, all of whose indicators are 0.
        let x = encode(
            &read("colour,n,y\nblue,5,a\ngreen,6,b\nred,7,a\n"),
            &preprocessing,
        )
        .unwrap();
        assert_eq!(
            x,
            ndarray::array![[0.0, 0.0, 5.0], [1.0, 0.0, 6.0], [0.0, 1.0, 7.0]]
        );
        // A level an ARFF header declares but no row holds is neither a column nor the
        // reference.
        let declared = TableReader::arff()
            .read_str(
                "@relation r\n@attribute colour {amber,red,blue}\n@attribute y {a,b}\n@data\n\
                 red,a\nblue,b\nred,b\n",
                "declared.arff",
            )
            .unwrap();
        let preprocessing = record(&declared, CategoricalAs::Treatment);
        assert_eq!(
            preprocessing.columns[0].encoding,
            ColumnEncoding::Treatment {
                levels: vec!["blue".into(), "red".into()]
            }
        );
        assert_eq!(
            encode(&declared, &preprocessing)
                .unwrap()
                .column(0)
                .to_vec(),
            [1.0, 0.0, 1.0]
        );
    }

    #[test]
    fn lacking_columns_are_named() {
        let preprocessing = record(&read("a,b,c,y\n1,2,3,x\n"), CategoricalAs::OneHot);
        let error = encode(&read("a,y\n1,x\n"), &preprocessing).unwrap_err();
        assert!(
            matches!(&error, EncodingError::MissingColumns { missing, .. } if missing == &["b", "c"]),
            "{error:?}"
        );
        assert!(error.to_string().contains("'b', 'c'"), "{error}");
    }

    #[test]
    fn an_unknown_level_is_reported_at_its_cell() {
        let preprocessing = record(&read("colour,y\nred,a\nblue,b\n"), CategoricalAs::OneHot);
        let error = encode(&read("colour,y\nred,a\npink,b\n"), &preprocessing).unwrap_err();
        assert!(error.to_string().starts_with("data.csv:3:1: "), "{error}");
        assert!(error.to_string().contains("'pink'"), "{error}");
    }

    #[test]
    fn a_column_of_another_kind_is_an_error() {
        let preprocessing = record(&read("v,y\n1,a\n2,b\n"), CategoricalAs::OneHot);
        let new = TableReader::csv()
            .class_column(ColumnRef::Last)
            .column_type("v", ColumnType::Categorical)
            .read_str("v,y\n1,a\n", "new.csv")
            .unwrap();
        let error = encode(&new, &preprocessing).unwrap_err();
        assert!(
            matches!(
                error,
                EncodingError::ColumnKind {
                    expected: "numeric",
                    found: "categorical",
                    ..
                }
            ),
            "{error:?}"
        );
    }
}
