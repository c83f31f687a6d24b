//! CSV files with a header row, through the `csv` crate.

use gendisc_core::Result;

use super::cells::RawCells;
use super::source::{last_line_number, parse_error};

/// Appends the rows of `text` (file number `source` of `cells`) to `cells`; the first record is
/// the header, which must agree with the first file's.
pub(crate) fn parse_into(
    text: &str,
    delimiter: u8,
    source: usize,
    cells: &mut RawCells,
) -> Result<()> {
    let path = cells.sources[source].clone();
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut record = csv::StringRecord::new();
    let csv_error = |err: csv::Error| {
        let line = err.position().map_or(1, |p| p.line() as usize);
        parse_error(&path, line, 1, format!("malformed CSV: {err}"))
    };

    // The header: the first record that is not blank.
    let mut header_line = None;
    while reader.read_record(&mut record).map_err(csv_error)? {
        if !is_blank(&record) {
            header_line = Some(line_of(&record));
            break;
        }
    }
    let Some(header_line) = header_line else {
        return Err(parse_error(
            &path,
            last_line_number(text),
            1,
            "the file is empty: expected a header row",
        ));
    };
    let names: Vec<String> = record
        .iter()
        .enumerate()
        .map(|(k, name)| {
            if name.is_empty() {
                format!("V{}", k + 1)
            } else {
                name.to_string()
            }
        })
        .collect();
    if names.len() == 1 {
        // One field per line at this delimiter is not a table to classify; if another
        // delimiter splits the header and the next line alike, the file is surely of that one.
        if let Some(other) = suggest_delimiter(text, header_line, header_line + 1, delimiter) {
            return Err(parse_error(
                &path,
                header_line,
                1,
                format!(
                    "the header is one field when split at {:?}, but it and the next line split \
                     into the same number of fields at {:?}: is that the file's delimiter?",
                    char::from(delimiter),
                    char::from(other)
                ),
            ));
        }
    }
    match &cells.names {
        None => {
            cells.set_layout(names.len(), source, header_line);
            cells.names = Some(names);
        }
        Some(first) if *first == names => {}
        Some(first) => {
            let field = first
                .iter()
                .zip(&names)
                .position(|(a, b)| a != b)
                .unwrap_or(first.len().min(names.len()));
            return Err(parse_error(
                &path,
                header_line,
                field + 1,
                format!(
                    "this header differs from the first file's: {} vs {}",
                    names.join(","),
                    first.join(",")
                ),
            ));
        }
    }

    let rows_before = cells.n_rows();
    while reader.read_record(&mut record).map_err(csv_error)? {
        if is_blank(&record) {
            continue;
        }
        for field in record.iter() {
            cells.push_field(field);
        }
        let line = line_of(&record);
        cells.finish_row(source, line).map_err(|err| {
            match (err, suggest_delimiter(text, header_line, line, delimiter)) {
                (
                    gendisc_core::Error::Parse {
                        path,
                        line,
                        column,
                        message,
                    },
                    Some(other),
                ) => gendisc_core::Error::Parse {
                    path,
                    line,
                    column,
                    message: format!(
                        "{message}; the header and this line both split into the same number \
                             of fields at {:?}: is that the file's delimiter (it is read as {:?})?",
                        char::from(other),
                        char::from(delimiter)
                    ),
                },
                (err, _) => err,
            }
        })?;
    }
    cells.check_file_had_rows(rows_before, source, last_line_number(text))
}

/// Another common delimiter that splits both the header (line `header_line` of `text`) and
/// line `line` into the same number (at least two) of fields, when the given one does not.
fn suggest_delimiter(text: &str, header_line: usize, line: usize, delimiter: u8) -> Option<u8> {
    let nth = |n: usize| text.lines().nth(n.checked_sub(1)?);
    let (header, row) = (nth(header_line)?, nth(line)?);
    [b';', b'\t', b',', b'|']
        .into_iter()
        .filter(|&d| d != delimiter)
        .find(|&d| {
            let count = |s: &str| s.split(char::from(d)).count();
            count(header) > 1 && count(header) == count(row)
        })
}

/// A line made of blanks only (the `csv` crate skips empty lines but, with trimming, reads a
/// line of spaces as one empty field).
fn is_blank(record: &csv::StringRecord) -> bool {
    record.len() == 1 && record[0].is_empty()
}

fn line_of(record: &csv::StringRecord) -> usize {
    record.position().map_or(1, |p| p.line() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gendisc_core::Error;

    fn parse(text: &str) -> Result<RawCells> {
        let mut cells = RawCells::for_file("t.csv");
        parse_into(text, b',', 0, &mut cells)?;
        Ok(cells)
    }

    #[test]
    fn header_quoting_and_trimming() {
        let cells = parse("a,\"b, c\"\n\n1 ,\"x,y\"\n   \n2,z").unwrap();
        assert_eq!(
            cells.names.as_deref(),
            Some(&["a".to_string(), "b, c".to_string()][..])
        );
        assert_eq!(cells.n_rows(), 2);
        assert_eq!(cells.cell(0, 1), "x,y");
        assert_eq!(cells.origins[1].line, 5);
    }

    #[test]
    fn a_file_of_another_delimiter_is_named() {
        let err = parse("a;b;class\n7,0;3,5;x\n6,1;2,9;y\n").unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains("split into the same number of fields at ';'"),
            "{message}"
        );
        let err = parse("a\tb\n1\t2\n").unwrap_err();
        assert!(err.to_string().contains("the header is one field"), "{err}");
        assert!(err.to_string().contains("'\\t'"), "{err}");
        // No suggestion where none fits.
        let err = parse("a,b\n1,2\n3\n").unwrap_err();
        assert!(!err.to_string().contains("delimiter"), "{err}");
    }

    #[test]
    fn errors_point_at_the_line() {
        let err = parse("a,b\n1,2\n3\n").unwrap_err();
        assert!(
            matches!(
                err,
                Error::Parse {
                    line: 3,
                    column: 2,
                    ..
                }
            ),
            "{err}"
        );
        let err = parse("").unwrap_err();
        assert!(matches!(err, Error::Parse { line: 1, .. }), "{err}");
        let err = parse("a,b\n\n").unwrap_err();
        assert!(
            matches!(err, Error::Parse { ref message, .. } if message.contains("no data rows")),
            "{err}"
        );
    }
}
