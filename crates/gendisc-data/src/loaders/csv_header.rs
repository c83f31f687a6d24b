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
        cells.finish_row(source, line_of(&record))?;
    }
    cells.check_file_had_rows(rows_before, source, last_line_number(text))
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
