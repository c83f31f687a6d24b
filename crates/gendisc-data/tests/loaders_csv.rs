//! The CSV-with-header reader on small hand-written files.

use std::path::{Path, PathBuf};

use gendisc_core::Error;
use gendisc_data::loaders::{ColumnType, ColumnValues, Table, TableFormat, TableReader};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/loaders")
        .join(name)
}

fn parse_error(result: gendisc_core::Result<Table>) -> (usize, usize, String) {
    match result {
        Err(Error::Parse {
            line,
            column,
            message,
            ..
        }) => (line, column, message),
        Err(other) => panic!("expected a parse error, got {other}"),
        Ok(table) => panic!("expected a parse error, got {table:?}"),
    }
}

#[test]
fn target_by_name_quoted_fields_and_missing_values() {
    let table = TableReader::csv()
        .class_column("label")
        .read(fixture("header.csv"))
        .unwrap();
    assert_eq!(table.column_names(), ["age", "colour"]);
    assert_eq!(table.class_name(), "label");
    match table.column("age").unwrap().values() {
        ColumnValues::Numeric(v) => assert_eq!(v, &[Some(31.0), Some(45.0), None]),
        _ => panic!("age should be numeric"),
    }
    match table.column("colour").unwrap().values() {
        ColumnValues::Categorical(c) => {
            assert_eq!(c.levels(), ["blue, dark", "red"]);
            assert_eq!(c.value(1), Some("blue, dark"));
        }
        _ => panic!("colour should be categorical"),
    }
    assert_eq!(table.targets().to_vec(), vec![0, 1, 0]);
    // Rows are numbered as lines of the file, the header being line 1.
    assert_eq!(table.row_origin(0).unwrap().1, 2);
}

#[test]
fn target_by_position_and_types_by_name() {
    let table = TableReader::csv()
        .column_type("age", ColumnType::Categorical)
        .read(fixture("header.csv"))
        .unwrap();
    assert_eq!(table.class_name(), "label");
    assert!(!table.column("age").unwrap().is_numeric());
    let table = TableReader::new(TableFormat::Csv { delimiter: b';' })
        .read_str("x;y\n1;a\n2;b\n", "semicolons.csv")
        .unwrap();
    assert_eq!(table.to_dense().unwrap().column(0).to_vec(), vec![1.0, 2.0]);
}

#[test]
fn malformed_files() {
    let (line, column, message) = parse_error(
        TableReader::csv()
            .class_column("target")
            .read(fixture("header.csv")),
    );
    assert_eq!((line, column), (1, 1));
    assert!(
        message.contains("no column named 'target'; the columns are: age, colour, label"),
        "{message}"
    );

    let (line, column, message) =
        parse_error(TableReader::csv().read(fixture("header_short_row.csv")));
    assert_eq!((line, column), (3, 3));
    assert!(
        message.contains("expected 3 fields, found 2 (the header"),
        "{message}"
    );

    let (line, _, message) = parse_error(TableReader::csv().read(fixture("header_only.csv")));
    assert_eq!(line, 1);
    assert!(message.contains("no data rows"), "{message}");

    let (_, _, message) = parse_error(TableReader::csv().read(fixture("empty.data")));
    assert!(message.contains("expected a header row"), "{message}");

    let (line, column, message) =
        parse_error(TableReader::csv().read(fixture("header_empty_class.csv")));
    assert_eq!((line, column), (2, 3));
    assert!(message.contains("missing class label"), "{message}");

    let (line, column, message) = parse_error(
        TableReader::csv()
            .read_files(&[fixture("header.csv"), fixture("trailing_blank_lines.data")]),
    );
    assert_eq!((line, column), (1, 1));
    assert!(message.contains("header differs"), "{message}");
}
