//! The UCI `.data` reader on small hand-written files: the quirks of the real files, and every
//! kind of malformed input.

use std::path::{Path, PathBuf};

use gendisc_core::Error;
use gendisc_data::loaders::{
    ColumnRef, ColumnType, ColumnValues, OneHot, Separator, Table, TableReader,
};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/loaders")
        .join(name)
}

/// The (file name, line, column, message) of a parse error.
fn parse_error(result: gendisc_core::Result<Table>) -> (String, usize, usize, String) {
    match result {
        Err(Error::Parse {
            path,
            line,
            column,
            message,
        }) => (
            path.file_name().unwrap().to_string_lossy().into_owned(),
            line,
            column,
            message,
        ),
        Err(other) => panic!("expected a parse error, got {other}"),
        Ok(table) => panic!("expected a parse error, got {table:?}"),
    }
}

fn categorical_levels(table: &Table, column: &str) -> Vec<String> {
    match table.column(column).unwrap().values() {
        ColumnValues::Categorical(c) => c.levels().to_vec(),
        ColumnValues::Numeric(_) => panic!("{column} is numeric"),
    }
}

#[test]
fn comma_space_separators_and_question_marks() {
    let table = TableReader::uci(Separator::Comma)
        .read(fixture("comma_space.data"))
        .unwrap();
    assert_eq!((table.n_rows(), table.n_columns()), (3, 3));
    assert_eq!(table.column_names(), ["V1", "V2", "V3"]);
    assert_eq!(table.class_name(), "V4");
    assert_eq!(categorical_levels(&table, "V2"), ["Private", "State-gov"]);
    match table.column("V3").unwrap().values() {
        ColumnValues::Numeric(v) => assert_eq!(v, &[Some(77516.0), Some(83311.0), None]),
        _ => panic!("V3 should be numeric"),
    }
    assert_eq!(table.classes().labels(), ["<=50K", ">50K"]);
    assert_eq!(table.targets().to_vec(), vec![0, 1, 0]);
    assert_eq!(table.incomplete_rows(), vec![1, 2]);
    let complete = table.drop_missing_rows();
    assert_eq!(complete.n_rows(), 1);
    assert_eq!(complete.row_origin(0).unwrap().1, 1);
}

#[test]
fn no_final_newline_and_trailing_blank_lines() {
    let table = TableReader::uci(Separator::Comma)
        .read(fixture("no_final_newline.data"))
        .unwrap();
    assert_eq!(table.n_rows(), 3);
    assert_eq!(table.classes().labels(), ["no", "yes"]);
    assert_eq!(table.row_origin(2).unwrap().1, 3);
    let table = TableReader::uci(Separator::Comma)
        .read(fixture("trailing_blank_lines.data"))
        .unwrap();
    assert_eq!(table.n_rows(), 2);
    assert_eq!(
        table.to_dense().unwrap().into_raw_vec_and_offset().0,
        vec![1.0, 2.0, 3.0, 4.0]
    );
}

#[test]
fn whitespace_separated_with_an_id_column() {
    let table = TableReader::uci(Separator::Whitespace)
        .ignore_columns([0])
        .read(fixture("whitespace_with_id.data"))
        .unwrap();
    assert_eq!(table.column_names(), ["V2", "V3", "V4", "V5"]);
    assert_eq!(table.columns()[0].source_field(), 2);
    let x = table.to_dense().unwrap();
    assert_eq!(x.row(2).to_vec(), vec![1.0, 1.0, 2.0, 1.0]);
    assert_eq!(table.classes().labels(), ["2", "3"]);
    assert_eq!(table.class_counts(), vec![1, 2]);
}

#[test]
fn class_first_with_names_and_categorical_columns() {
    let table = TableReader::uci(Separator::Comma)
        .class_column(ColumnRef::First)
        .column_names(["class", "age", "menopause", "irradiat"])
        .read(fixture("class_first.data"))
        .unwrap();
    assert_eq!(table.class_name(), "class");
    assert_eq!(table.column_names(), ["age", "menopause", "irradiat"]);
    assert_eq!(table.column("menopause").unwrap().missing_count(), 1);
    // One-hot needs complete rows; the error points at the `?`.
    let (file, line, column, message) = match table.one_hot(OneHot::AllLevels) {
        Err(Error::Parse {
            path,
            line,
            column,
            message,
        }) => (path, line, column, message),
        other => panic!("{other:?}"),
    };
    assert_eq!((file, line, column), (fixture("class_first.data"), 2, 3));
    assert!(
        message.contains("missing value in column 'menopause'"),
        "{message}"
    );
    let (x, names) = table
        .drop_missing_rows()
        .one_hot(OneHot::DropFirstLevel)
        .unwrap();
    // Levels survive the drop of row 2: age {30-39, 40-49} gives 1 column, menopause
    // {premeno} (the `?` was never a level) gives none, irradiat {no, yes} gives 1.
    assert_eq!(names, ["age=40-49", "irradiat=yes"]);
    assert_eq!(x.row(0).to_vec(), vec![0.0, 0.0]);
}

#[test]
fn integer_codes_can_be_typed_categorical() {
    let table = TableReader::uci(Separator::Whitespace)
        .ignore_columns([0])
        .all_columns(ColumnType::Categorical)
        .column_type(4, ColumnType::Numeric)
        .read(fixture("whitespace_with_id.data"))
        .unwrap();
    let kinds: Vec<bool> = table.columns().iter().map(|c| c.is_numeric()).collect();
    assert_eq!(kinds, vec![false, false, false, true]);
    let (x, names) = table.one_hot(OneHot::AllLevels).unwrap();
    // Rows (fields 2–5): 1 1 1 1 / 1 1 1 2 / 1 1 2 1.
    assert_eq!(names, ["V2=1", "V3=1", "V4=1", "V4=2", "V5"]);
    assert_eq!(x.row(1).to_vec(), vec![1.0, 1.0, 1.0, 0.0, 2.0]);
    assert_eq!(x.row(2).to_vec(), vec![1.0, 1.0, 0.0, 1.0, 1.0]);
    // to_dense refuses the categorical columns, pointing at the first value of V2.
    let (_, line, column, message) = match table.to_dense() {
        Err(Error::Parse {
            path,
            line,
            column,
            message,
        }) => (path, line, column, message),
        other => panic!("{other:?}"),
    };
    assert_eq!((line, column), (1, 2));
    assert!(message.contains("typed categorical"), "{message}");
}

#[test]
fn several_files_read_as_one_table() {
    let reader = TableReader::uci(Separator::Whitespace);
    let table = reader
        .read_files(&[fixture("part_a.dat"), fixture("part_b.dat")])
        .unwrap();
    assert_eq!(table.n_rows(), 4);
    assert_eq!(table.classes().labels(), ["bus", "opel", "saab", "van"]);
    assert_eq!(table.targets().to_vec(), vec![3, 0, 2, 1]);
    let (path, line) = table.row_origin(2).unwrap();
    assert_eq!(
        (path.file_name().unwrap(), line),
        ("part_b.dat".as_ref(), 1)
    );
    let (file, line, column, message) =
        parse_error(reader.read_files(&[fixture("part_a.dat"), fixture("part_bad.dat")]));
    assert_eq!((file.as_str(), line, column), ("part_bad.dat", 2, 3));
    assert!(message.contains("expected 3 fields, found 2"), "{message}");
    assert!(message.contains("part_a.dat"), "{message}");
}

#[test]
fn malformed_files() {
    let reader = TableReader::uci(Separator::Comma);
    let (file, line, column, message) = parse_error(reader.read(fixture("wrong_field_count.data")));
    assert_eq!(
        (file.as_str(), line, column),
        ("wrong_field_count.data", 3, 3)
    );
    assert!(message.contains("expected 3 fields, found 2"), "{message}");

    for empty in ["empty.data", "blank_only.data"] {
        let (file, _, column, message) = parse_error(reader.read(fixture(empty)));
        assert_eq!((file.as_str(), column), (empty, 1));
        assert!(message.contains("no data rows"), "{message}");
    }

    // Inferred, a column with a non-number is categorical; typed numeric, it is an error.
    let table = reader.read(fixture("bad_number.data")).unwrap();
    assert!(!table.column("V2").unwrap().is_numeric());
    match table.to_dense() {
        Err(Error::Parse {
            line: 3,
            column: 2,
            message,
            ..
        }) => assert!(message.contains("'6.6.6' is not a number"), "{message}"),
        other => panic!("{other:?}"),
    }
    let (_, line, column, message) = parse_error(
        reader
            .clone()
            .column_type("V2", ColumnType::Numeric)
            .read(fixture("bad_number.data")),
    );
    assert_eq!((line, column), (3, 2));
    assert!(
        message.contains("'6.6.6' is not a finite number"),
        "{message}"
    );

    let (_, _, _, message) = parse_error(
        reader
            .clone()
            .class_column("label")
            .read(fixture("bad_number.data")),
    );
    assert!(message.contains("no column named 'label'"), "{message}");

    match reader.read(fixture("does_not_exist.data")) {
        Err(Error::Io { path, .. }) => assert_eq!(path, fixture("does_not_exist.data")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn sequences_explode_into_one_column_per_position() {
    let reader = TableReader::uci(Separator::Comma)
        .class_column(ColumnRef::First)
        .ignore_columns([1]);
    let table = reader
        .read(fixture("sequences.data"))
        .unwrap()
        .explode_characters("V3")
        .unwrap();
    assert_eq!(table.column_names(), ["V3_1", "V3_2", "V3_3", "V3_4"]);
    assert_eq!(categorical_levels(&table, "V3_1"), ["a", "t"]);
    assert_eq!(categorical_levels(&table, "V3_4"), ["a", "t"]);
    let (x, _) = table.one_hot(OneHot::AllLevels).unwrap();
    // Every row has exactly one indicator per position.
    assert!(x.rows().into_iter().all(|row| row.sum() == 4.0));
    let (_, line, column, message) = parse_error(
        reader
            .read(fixture("sequences_ragged.data"))
            .unwrap()
            .explode_characters("V3"),
    );
    assert_eq!((line, column), (2, 3));
    assert!(message.contains("3 characters"), "{message}");
}

#[test]
fn a_test_file_aligned_to_its_training_file() {
    let reader = TableReader::uci(Separator::Whitespace);
    let train = reader.read(fixture("part_a.dat")).unwrap();
    let test = reader.read(fixture("part_b.dat")).unwrap();
    // part_b's classes (opel, saab) are not part_a's (bus, van).
    let (file, line, column, message) = parse_error(test.align_to(&train));
    assert_eq!((file.as_str(), line, column), ("part_b.dat", 1, 3));
    assert!(message.contains("class 'saab'"), "{message}");

    let both = reader
        .read_files(&[fixture("part_a.dat"), fixture("part_b.dat")])
        .unwrap();
    let aligned = train.align_to(&both).unwrap();
    assert_eq!(aligned.classes(), both.classes());
    assert_eq!(aligned.targets().to_vec(), vec![3, 0]);
}
