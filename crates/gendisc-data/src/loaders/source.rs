//! Reading a file into memory, iterating over its lines, and the positioned errors every loader
//! reports.

use std::path::{Path, PathBuf};

use gendisc_core::{Error, Result};

/// A [`Error::Parse`] at `line`/`column` (both 1-based) of `path`.
pub(crate) fn parse_error(
    path: &Path,
    line: usize,
    column: usize,
    message: impl Into<String>,
) -> Error {
    Error::Parse {
        path: path.to_path_buf(),
        line,
        column,
        message: message.into(),
    }
}

/// The whole file as UTF-8 text, without a leading byte-order mark (which spreadsheet programs
/// write and which would otherwise stick to the first field). I/O failures become [`Error::Io`]
/// naming the file; invalid UTF-8 becomes a [`Error::Parse`] at the line and byte column of the
/// first bad byte.
pub(crate) fn read_text(path: &Path) -> Result<String> {
    let mut bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    const BYTE_ORDER_MARK: &[u8] = "\u{feff}".as_bytes();
    if bytes.starts_with(BYTE_ORDER_MARK) {
        bytes.drain(..BYTE_ORDER_MARK.len());
    }
    String::from_utf8(bytes).map_err(|err| {
        let valid = &err.as_bytes()[..err.utf8_error().valid_up_to()];
        let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
        let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = valid.len() - line_start + 1;
        parse_error(path, line, column, "the file is not valid UTF-8 text")
    })
}

/// The lines of `text` with their 1-based numbers, without `\n` or a trailing `\r` (so CRLF files
/// read like LF files). A final line without a newline is included; the empty piece after a final
/// newline is not.
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let pieces = if text.is_empty() {
        None
    } else {
        Some(body.split('\n'))
    };
    pieces
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, line)| (i + 1, line.strip_suffix('\r').unwrap_or(line)))
}

/// The number of the last line of `text` (at least 1), used to place "no data" errors.
pub(crate) fn last_line_number(text: &str) -> usize {
    numbered_lines(text).count().max(1)
}

/// Where a data row came from: the index of its file in the reader's list and its 1-based line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RowOrigin {
    pub(crate) source: usize,
    pub(crate) line: usize,
}

/// The files a table was read from; a row's [`RowOrigin::source`] indexes into it.
pub(crate) type Sources = Vec<PathBuf>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_drop_crlf_and_the_empty_piece_after_a_final_newline() {
        let lines: Vec<_> = numbered_lines("a\r\nb\n\nc").collect();
        assert_eq!(lines, vec![(1, "a"), (2, "b"), (3, ""), (4, "c")]);
        let lines: Vec<_> = numbered_lines("a\n").collect();
        assert_eq!(lines, vec![(1, "a")]);
        let lines: Vec<_> = numbered_lines("a\r").collect();
        assert_eq!(lines, vec![(1, "a")]);
        assert_eq!(numbered_lines("").count(), 0);
        assert_eq!(last_line_number(""), 1);
        assert_eq!(last_line_number("a\nb"), 2);
    }

    #[test]
    fn invalid_utf8_is_located_and_a_byte_order_mark_dropped() {
        let dir = std::env::temp_dir().join(format!("gendisc-data-utf8-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bom = dir.join("bom.csv");
        std::fs::write(&bom, "\u{feff}a,b\n").unwrap();
        assert_eq!(read_text(&bom).unwrap(), "a,b\n");
        let path = dir.join("bad.data");
        std::fs::write(&path, b"1,2\n3,\xff\n").unwrap();
        let err = read_text(&path).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            matches!(
                err,
                Error::Parse {
                    line: 2,
                    column: 3,
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn a_missing_file_is_an_io_error_naming_it() {
        let err = read_text(Path::new("no/such/file.data")).unwrap_err();
        match err {
            Error::Io { path, .. } => assert_eq!(path, Path::new("no/such/file.data")),
            other => panic!("expected Io, got {other}"),
        }
    }
}
