//! The CSV-with-header reader on small hand-written files.

use gendisc_core::Error;
use gendisc_data::loaders::{
    ColumnType, ColumnValues, MissingValues, TableFormat, TableReader, CSV_MISSING_MARKERS,
};

use crate::loaders_support::{fixture, parse_error};

#[test]
fn target_by_name_quoted_fields_and_missing_values() {
    let table = TableReader::csv()
        .class_column("label")
        .missing_values(MissingValues::Keep)
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
        .missing_values(MissingValues::Keep)
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

/// A one-column CSV with `cell` on its second data row (line 3).
fn with_cell(cell: &str) -> String {
    format!("x,class\n1.5,a\n{cell},b\n2.5,a\n")
}

#[test]
fn every_default_marker_is_a_missing_value_and_keeps_the_column_numeric() {
    for marker in CSV_MISSING_MARKERS.into_iter().chain(["  NA  "]) {
        let table = TableReader::csv()
            .missing_values(MissingValues::Keep)
            .read_str(&with_cell(marker), "t.csv")
            .unwrap();
        match table.columns()[0].values() {
            ColumnValues::Numeric(v) => assert_eq!(v, &[Some(1.5), None, Some(2.5)], "{marker:?}"),
            other => panic!("{marker:?} made the column {other:?}"),
        }
        let (line, column, message) =
            parse_error(TableReader::csv().read_str(&with_cell(marker), "t.csv"));
        assert_eq!((line, column), (3, 1), "{marker:?}");
        assert!(
            message.contains("in numeric column 'x' (column 1)"),
            "{marker:?}: {message}"
        );
    }
    // Other spellings are values: the column becomes categorical, and to_dense says how to
    // declare them as markers.
    let table = TableReader::csv()
        .read_str(&with_cell("N/A"), "t.csv")
        .unwrap();
    assert!(!table.columns()[0].is_numeric());
    let message = table.to_dense().unwrap_err().to_string();
    assert!(message.contains("'N/A' is not a number"), "{message}");
    assert!(
        message.contains("TableReader::missing_markers"),
        "{message}"
    );
}

#[test]
fn markers_can_be_replaced_or_extended() {
    let dash = TableReader::csv()
        .missing_markers(["-"])
        .missing_values(MissingValues::Keep);
    let table = dash.read_str(&with_cell("-"), "t.csv").unwrap();
    assert_eq!(table.columns()[0].missing_count(), 1);
    // "NA" is no longer a marker: it is a level of a categorical column.
    let table = dash.read_str(&with_cell("NA"), "t.csv").unwrap();
    assert!(!table.columns()[0].is_numeric());
    let extended =
        TableReader::csv().missing_markers(CSV_MISSING_MARKERS.into_iter().chain(["N/A"]));
    let (line, _, message) = parse_error(extended.read_str(&with_cell("N/A"), "t.csv"));
    assert_eq!(line, 3);
    assert!(message.contains("missing value 'N/A'"), "{message}");
    let single = TableReader::csv().missing_marker("null");
    let (line, ..) = parse_error(single.read_str(&with_cell("null"), "t.csv"));
    assert_eq!(line, 3);
    assert!(single.read_str(&with_cell("NA"), "t.csv").is_ok());
}

#[test]
fn a_gap_is_an_error_naming_file_line_and_column() {
    let path = fixture("missing_values.csv");
    let err = TableReader::csv().read(&path).unwrap_err();
    match &err {
        Error::Parse {
            path: reported,
            line,
            column,
            message,
        } => {
            assert_eq!(reported, &path);
            // bob's income, the first gap in file order: line 3, field 3.
            assert_eq!((*line, *column), (3, 3));
            assert!(
                message.starts_with(
                    "missing value (an empty cell) in numeric column 'income' (column 3)"
                ),
                "{message}"
            );
            assert!(message.contains("MissingValues::DropRows"), "{message}");
        }
        other => panic!("expected a parse error, got {other}"),
    }
    assert!(
        err.to_string().contains("missing_values.csv:3:3: "),
        "{err}"
    );
    // With the name column ignored the position is still the file's.
    let (line, column, _) = parse_error(TableReader::csv().ignore_columns(["name"]).read(&path));
    assert_eq!((line, column), (3, 3));
    // A gap in a categorical column is reported as such.
    let (line, column, message) =
        parse_error(TableReader::csv().read_str("colour,class\nred,a\n,b\n", "c.csv"));
    assert_eq!((line, column), (3, 1));
    assert!(
        message.contains("in categorical column 'colour'"),
        "{message}"
    );
}

#[test]
fn incomplete_rows_can_be_dropped_and_are_counted() {
    let path = fixture("missing_values.csv");
    let table = TableReader::csv()
        .missing_values(MissingValues::DropRows)
        .read(&path)
        .unwrap();
    // ann and fay remain; bob (income), cy (age), dee (colour) and eve (class) are dropped.
    assert_eq!(table.n_rows(), 2);
    assert_eq!(table.n_dropped_rows(), 4);
    let lines: Vec<usize> = table.dropped_rows().iter().map(|&(_, line)| line).collect();
    assert_eq!(lines, [3, 4, 5, 6]);
    assert_eq!(table.dropped_rows()[0].0, path.as_path());
    assert_eq!(table.row_origin(1).unwrap().1, 7);
    // Types, levels and classes come from the rows kept.
    let numeric = table.select_columns(&["age", "income"]).unwrap();
    assert_eq!(
        numeric.to_dense().unwrap(),
        ndarray::array![[31.0, 52000.0], [29.0, 61000.0]]
    );
    match table.column("colour").unwrap().values() {
        ColumnValues::Categorical(c) => assert_eq!(c.levels(), ["red"]),
        other => panic!("{other:?}"),
    }
    assert_eq!(table.classes().labels(), ["no", "yes"]);

    // Under Keep the gaps stay, the row with a missing class is still an error, and
    // drop_missing_rows counts what it drops.
    let keep = TableReader::csv().missing_values(MissingValues::Keep);
    let (line, column, message) = parse_error(keep.read(&path));
    assert_eq!((line, column), (6, 5));
    assert!(message.contains("missing class label"), "{message}");
    let table = keep
        .read_str("a,b,class\n1,?,x\n2,3,y\n,4,x\n", "k.csv")
        .unwrap();
    assert_eq!((table.n_rows(), table.n_dropped_rows()), (3, 0));
    let complete = table.drop_missing_rows();
    assert_eq!((complete.n_rows(), complete.n_dropped_rows()), (1, 2));
    let lines: Vec<usize> = complete.dropped_rows().iter().map(|&(_, l)| l).collect();
    assert_eq!(lines, [2, 4]);

    // Nothing left is an error, not an empty table.
    let (_, _, message) = parse_error(
        TableReader::csv()
            .missing_values(MissingValues::DropRows)
            .read_str("a,class\nNA,x\n,y\n", "all.csv"),
    );
    assert!(
        message.contains("every one of the 2 data rows"),
        "{message}"
    );
}

#[test]
fn a_categorical_column_stays_categorical_with_gaps() {
    let text = "grade,class\nlow,a\nNA,b\nhigh,a\n7,b\n";
    let table = TableReader::csv()
        .missing_values(MissingValues::Keep)
        .read_str(text, "g.csv")
        .unwrap();
    match table.columns()[0].values() {
        ColumnValues::Categorical(c) => {
            assert_eq!(c.levels(), ["7", "high", "low"]);
            assert_eq!(c.codes(), [Some(2), None, Some(1), Some(0)]);
        }
        other => panic!("{other:?}"),
    }
    let dropped = TableReader::csv()
        .missing_values(MissingValues::DropRows)
        .read_str(text, "g.csv")
        .unwrap();
    assert!(!dropped.columns()[0].is_numeric());
    assert_eq!(dropped.n_dropped_rows(), 1);
}

#[test]
fn uci_files_keep_their_defaults() {
    // `?` only, and gaps kept: the studies' data sets read as before.
    let table = TableReader::uci(gendisc_data::loaders::Separator::Comma)
        .read_str("1,?,a\n2,5,b\n", "t.data")
        .unwrap();
    assert_eq!(table.columns()[1].missing_count(), 1);
    assert_eq!(table.n_dropped_rows(), 0);
    let table = TableReader::uci(gendisc_data::loaders::Separator::Comma)
        .read_str("1,NA,a\n2,5,b\n", "t.data")
        .unwrap();
    assert!(!table.columns()[1].is_numeric());
}
