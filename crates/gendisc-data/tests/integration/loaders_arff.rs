//! The ARFF reader on small hand-written files, including the `{integer}` / `{real}` quirk of
//! the Weka conversion of the thyroid data.

use gendisc_data::loaders::{ColumnType, ColumnValues, OneHot, TableReader};

use crate::loaders_support::{fixture, parse_error};

#[test]
fn declared_names_types_and_levels() {
    let table = TableReader::arff().read(fixture("small.arff")).unwrap();
    assert_eq!(
        table.column_names(),
        ["age", "sex", "TSH", "referral source"]
    );
    assert_eq!(table.class_name(), "Class");
    let numeric: Vec<bool> = table.columns().iter().map(|c| c.is_numeric()).collect();
    assert_eq!(numeric, vec![true, false, true, false]);
    match table.column("referral source").unwrap().values() {
        // The declared levels, sorted, including one no row uses.
        ColumnValues::Categorical(c) => {
            assert_eq!(c.levels(), ["SVHC", "SVI", "other"]);
            assert_eq!(c.codes(), [Some(0), Some(2), Some(1)]);
        }
        _ => panic!(),
    }
    match table.column("TSH").unwrap().values() {
        ColumnValues::Numeric(v) => assert_eq!(v, &[Some(1.3), Some(4.1), None]),
        _ => panic!(),
    }
    assert_eq!(table.classes().labels(), ["negative", "sick"]);
    assert_eq!(table.class_counts(), vec![2, 1]);
    // Data lines keep their numbers in the file (comments and blank lines included).
    assert_eq!(table.row_origin(2).unwrap().1, 14);
    assert_eq!(table.incomplete_rows(), vec![1, 2]);
    let (x, names) = table
        .drop_missing_rows()
        .one_hot(OneHot::AllLevels)
        .unwrap();
    assert_eq!(
        names,
        [
            "age",
            "sex=F",
            "sex=M",
            "TSH",
            "referral source=SVHC",
            "referral source=SVI",
            "referral source=other"
        ]
    );
    assert_eq!(x.row(0).to_vec(), vec![41.0, 1.0, 0.0, 1.3, 1.0, 0.0, 0.0]);
}

#[test]
fn declarations_can_be_overridden() {
    let table = TableReader::arff()
        .column_type("age", ColumnType::Categorical)
        .column_type("sex", ColumnType::Categorical)
        .read(fixture("small.arff"))
        .unwrap();
    assert!(!table.column("age").unwrap().is_numeric());
    let table = TableReader::arff()
        .class_column("sex")
        .ignore_columns(["Class"])
        .read(fixture("small.arff"));
    // The class `sex` is missing in row 2.
    let (line, column, message) = parse_error(table);
    assert_eq!((line, column), (13, 2));
    assert!(message.contains("missing class label"), "{message}");
}

#[test]
fn malformed_files() {
    let reader = TableReader::arff();
    let (line, column, message) = parse_error(reader.read(fixture("bad_nominal.arff")));
    assert_eq!((line, column), (7, 2));
    assert!(
        message.contains("'z' is not one of the values declared for attribute 'b': {x, y}"),
        "{message}"
    );

    let (line, column, message) = parse_error(reader.read(fixture("bad_numeric.arff")));
    assert_eq!((line, column), (6, 1));
    assert!(
        message.contains("'one' is not a finite number"),
        "{message}"
    );

    let (line, column, message) = parse_error(reader.read(fixture("undeclared_class.arff")));
    assert_eq!((line, column), (6, 2));
    assert!(
        message.contains("class 'r' is not one of the values declared"),
        "{message}"
    );

    let (line, _, message) = parse_error(reader.read(fixture("no_data.arff")));
    assert_eq!(line, 3);
    assert!(message.contains("no @data section"), "{message}");

    // A UCI file is not ARFF.
    let (line, _, message) = parse_error(reader.read(fixture("comma_space.data")));
    assert_eq!(line, 1);
    assert!(
        message.contains("expected @relation, @attribute or @data"),
        "{message}"
    );
}
