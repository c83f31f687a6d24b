//! UCI / Statlog `.data` files: one row per non-blank line, fields split by a [`Separator`].

use gendisc_core::Result;

use super::cells::RawCells;
use super::reader::Separator;
use super::source::{last_line_number, numbered_lines};

/// Appends the rows of `text` (file number `source` of `cells`) to `cells`.
pub(crate) fn parse_into(
    text: &str,
    separator: Separator,
    source: usize,
    cells: &mut RawCells,
) -> Result<()> {
    let rows_before = cells.n_rows();
    for (line_number, line) in numbered_lines(text) {
        if line.trim().is_empty() {
            continue;
        }
        match separator {
            Separator::Whitespace => line
                .split_ascii_whitespace()
                .for_each(|field| cells.push_field(field)),
            Separator::Comma => split_trimmed(line, ',', cells),
            Separator::Char(c) => split_trimmed(line, c, cells),
        }
        cells.finish_row(source, line_number)?;
    }
    cells.check_file_had_rows(rows_before, source, last_line_number(text))
}

fn split_trimmed(line: &str, separator: char, cells: &mut RawCells) {
    for field in line.split(separator) {
        cells.push_field(field.trim_matches([' ', '\t']));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, separator: Separator) -> Result<RawCells> {
        let mut cells = RawCells::for_file("t.data");
        parse_into(text, separator, 0, &mut cells)?;
        Ok(cells)
    }

    fn rows(cells: &RawCells) -> Vec<Vec<&str>> {
        (0..cells.n_rows())
            .map(|r| (0..cells.n_fields()).map(|f| cells.cell(r, f)).collect())
            .collect()
    }

    #[test]
    fn comma_fields_are_trimmed() {
        let cells = parse("39, State-gov, <=50K\n+,S10,\t\tacgt\r\n", Separator::Comma).unwrap();
        assert_eq!(
            rows(&cells),
            vec![vec!["39", "State-gov", "<=50K"], vec!["+", "S10", "acgt"]]
        );
    }

    #[test]
    fn whitespace_runs_separate_and_pad_spaces_vanish() {
        let cells = parse(" 0.00632  18.00\t2\n95 48 van \n", Separator::Whitespace).unwrap();
        assert_eq!(
            rows(&cells),
            vec![vec!["0.00632", "18.00", "2"], vec!["95", "48", "van"]]
        );
    }

    #[test]
    fn a_tab_separator_keeps_empty_fields() {
        let cells = parse("a\t\tb\n", Separator::Char('\t')).unwrap();
        assert_eq!(rows(&cells), vec![vec!["a", "", "b"]]);
    }

    #[test]
    fn blank_lines_are_skipped_and_lines_keep_their_numbers() {
        let cells = parse("\n1,2\n  \n3,4\n\n\n", Separator::Comma).unwrap();
        assert_eq!(cells.n_rows(), 2);
        assert_eq!(cells.origins[1].line, 4);
    }

    #[test]
    fn a_file_without_rows_is_an_error_at_its_last_line() {
        for text in ["", "\n\n  \n"] {
            let err = parse(text, Separator::Comma).unwrap_err();
            assert!(
                matches!(err, gendisc_core::Error::Parse { column: 1, ref message, .. } if message.contains("no data rows")),
                "{err}"
            );
        }
    }
}
