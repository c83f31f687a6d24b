//! The untyped grid of text cells that every table format is parsed into before columns are
//! typed: one growing text buffer and a span per cell, so that reading a row allocates nothing.

use std::path::Path;

use gendisc_core::Result;

use super::source::{parse_error, RowOrigin, Sources};

/// The type an ARFF header declares for an attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Declared {
    /// `numeric`, `real`, `integer` (or, as in `sick.arff`, `{integer}` / `{real}`).
    Numeric,
    /// `{a, b, c}`: the declared values.
    Nominal(Vec<String>),
    /// `string`.
    Text,
}

/// Where the layout (number of fields, names) of the data was fixed: a header line, or the first
/// data row of a file without a header.
#[derive(Debug, Clone, Copy)]
struct Layout {
    n_fields: usize,
    source: usize,
    line: usize,
}

/// Rows of text cells read from one or more files, all with the same number of fields.
#[derive(Debug, Default)]
pub(crate) struct RawCells {
    /// The files, in reading order.
    pub(crate) sources: Sources,
    /// Column names from a header or ARFF declarations.
    pub(crate) names: Option<Vec<String>>,
    /// Column types from ARFF declarations.
    pub(crate) declared: Option<Vec<Declared>>,
    /// Where each row came from.
    pub(crate) origins: Vec<RowOrigin>,
    layout: Option<Layout>,
    text: String,
    /// Byte ranges into `text`, `n_fields` per finished row, then those of the row being read.
    spans: Vec<(usize, usize)>,
}

impl RawCells {
    /// Empty cells for one file (tests of the format parsers).
    #[cfg(test)]
    pub(crate) fn for_file(path: &str) -> Self {
        RawCells {
            sources: vec![path.into()],
            ..RawCells::default()
        }
    }

    /// Number of finished rows.
    pub(crate) fn n_rows(&self) -> usize {
        self.origins.len()
    }

    /// Number of fields per row (0 before the first row or header).
    pub(crate) fn n_fields(&self) -> usize {
        self.layout.map_or(0, |layout| layout.n_fields)
    }

    /// The path and line where the layout was fixed (for errors about columns as a whole).
    pub(crate) fn layout_position(&self) -> (&Path, usize) {
        match self.layout {
            Some(layout) => (&self.sources[layout.source], layout.line),
            None => (&self.sources[0], 1),
        }
    }

    /// The text of cell (`row`, `field`), both 0-based.
    pub(crate) fn cell(&self, row: usize, field: usize) -> &str {
        let (start, end) = self.spans[row * self.n_fields() + field];
        &self.text[start..end]
    }

    /// Appends a field to the row being read.
    pub(crate) fn push_field(&mut self, field: &str) {
        let start = self.text.len();
        self.text.push_str(field);
        self.spans.push((start, self.text.len()));
    }

    /// Fields of the row being read so far.
    fn pending_fields(&self) -> usize {
        self.spans.len() - self.n_rows() * self.n_fields()
    }

    /// Fixes the number of fields from a header (or checks it against the first file's).
    pub(crate) fn set_layout(&mut self, n_fields: usize, source: usize, line: usize) {
        if self.layout.is_none() {
            self.layout = Some(Layout {
                n_fields,
                source,
                line,
            });
        }
    }

    /// Finishes the row being read, which came from `line` of file `source`; the first row of a
    /// file without a header fixes the number of fields, and every other row must match it.
    pub(crate) fn finish_row(&mut self, source: usize, line: usize) -> Result<()> {
        let found = self.pending_fields();
        let layout = *self.layout.get_or_insert(Layout {
            n_fields: found,
            source,
            line,
        });
        if found != layout.n_fields {
            let what = if self.names.is_some() {
                "the header"
            } else {
                "the first row"
            };
            return Err(parse_error(
                &self.sources[source],
                line,
                found.min(layout.n_fields) + 1,
                format!(
                    "expected {} fields, found {found} ({what}, line {} of {}, has {})",
                    layout.n_fields,
                    layout.line,
                    self.sources[layout.source].display(),
                    layout.n_fields
                ),
            ));
        }
        self.origins.push(RowOrigin { source, line });
        Ok(())
    }

    /// Fails with "no data rows" at the end of file `source` if it added no rows since
    /// `rows_before`.
    pub(crate) fn check_file_had_rows(
        &self,
        rows_before: usize,
        source: usize,
        last_line: usize,
    ) -> Result<()> {
        if self.n_rows() == rows_before {
            return Err(parse_error(
                &self.sources[source],
                last_line,
                1,
                "the file has no data rows",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gendisc_core::Error;

    fn cells() -> RawCells {
        RawCells {
            sources: vec!["a.data".into(), "b.data".into()],
            ..RawCells::default()
        }
    }

    #[test]
    fn rows_are_stored_without_separators() {
        let mut cells = cells();
        cells.push_field("1");
        cells.push_field("x");
        cells.finish_row(0, 1).unwrap();
        cells.push_field("2");
        cells.push_field("");
        cells.finish_row(0, 3).unwrap();
        assert_eq!((cells.n_rows(), cells.n_fields()), (2, 2));
        assert_eq!(
            [
                cells.cell(0, 0),
                cells.cell(0, 1),
                cells.cell(1, 0),
                cells.cell(1, 1)
            ],
            ["1", "x", "2", ""]
        );
        assert_eq!(cells.origins[1], RowOrigin { source: 0, line: 3 });
    }

    #[test]
    fn a_short_row_is_reported_at_its_first_missing_field_in_its_own_file() {
        let mut cells = cells();
        for field in ["1", "2", "3"] {
            cells.push_field(field);
        }
        cells.finish_row(0, 1).unwrap();
        cells.push_field("4");
        let err = cells.finish_row(1, 7).unwrap_err();
        match err {
            Error::Parse {
                path,
                line,
                column,
                message,
            } => {
                assert_eq!(path, Path::new("b.data"));
                assert_eq!((line, column), (7, 2));
                assert!(message.contains("expected 3 fields, found 1"), "{message}");
            }
            other => panic!("{other}"),
        }
    }

    #[test]
    fn a_long_row_is_reported_at_its_first_extra_field() {
        let mut cells = cells();
        cells.set_layout(1, 0, 1);
        cells.push_field("1");
        cells.push_field("2");
        let err = cells.finish_row(0, 2).unwrap_err();
        assert!(
            matches!(
                err,
                Error::Parse {
                    line: 2,
                    column: 2,
                    ..
                }
            ),
            "{err}"
        );
    }
}
