//! The loaders on the real data sets of the papers, read through `$GENDISC_DATA`. Each test
//! prints a note and passes when the variable is unset or the file is absent.
//!
//! Every expected count is the one stated in the data directory's README (counted there from
//! the files independently of this code) or, for `sick.arff`, in the file's own header comment.

use std::path::{Path, PathBuf};

use gendisc_data::loaders::{
    ColumnRef, ColumnType, ColumnValues, OneHot, Separator, Table, TableReader,
};

/// `$GENDISC_DATA/relative`, or `None` (with a note) when the variable or the file is missing.
fn data_file(relative: &str) -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("GENDISC_DATA").filter(|d| !d.is_empty()) else {
        eprintln!("note: GENDISC_DATA is not set; skipping the test on {relative}");
        return None;
    };
    let path = Path::new(&dir).join(relative);
    if !path.is_file() {
        eprintln!("note: {} is missing; skipping", path.display());
        return None;
    }
    Some(path)
}

/// (class label, count) pairs in class order.
fn class_counts(table: &Table) -> Vec<(String, usize)> {
    table
        .classes()
        .labels()
        .iter()
        .cloned()
        .zip(table.class_counts())
        .collect()
}

fn counts(pairs: &[(&str, usize)]) -> Vec<(String, usize)> {
    pairs.iter().map(|&(l, n)| (l.to_string(), n)).collect()
}

fn all_numeric(table: &Table) -> bool {
    table.columns().iter().all(|c| c.is_numeric())
}

fn missing_values(table: &Table) -> usize {
    table.columns().iter().map(|c| c.missing_count()).sum()
}

#[test]
fn pima_indians_diabetes() {
    let Some(path) = data_file("uci/pima-indians-diabetes/pima-indians-diabetes.data") else {
        return;
    };
    let table = TableReader::uci(Separator::Comma).read(&path).unwrap();
    assert_eq!((table.n_rows(), table.n_columns()), (768, 8));
    assert_eq!(class_counts(&table), counts(&[("0", 500), ("1", 268)]));
    let x = table.to_dense().unwrap();
    assert_eq!(x.dim(), (768, 8));
    // README: insulin (column 5) is 0 in 374 rows.
    assert_eq!(x.column(4).iter().filter(|&&v| v == 0.0).count(), 374);
    // The file has no final newline: the last row is line 768.
    assert_eq!(table.row_origin(767).unwrap().1, 768);
}

#[test]
fn adult_train_and_test() {
    let (Some(train_path), Some(test_path)) = (
        data_file("uci/adult/adult.data"),
        data_file("uci/adult/adult-test.csv"),
    ) else {
        return;
    };
    let reader = TableReader::uci(Separator::Comma);
    let train = reader.read(&train_path).unwrap();
    assert_eq!((train.n_rows(), train.n_columns()), (32_561, 14));
    assert_eq!(
        class_counts(&train),
        counts(&[("<=50K", 24_720), (">50K", 7_841)])
    );
    assert_eq!(train.incomplete_rows().len(), 2_399);
    // Missing values occur in workclass, occupation and native-country only.
    let with_missing: Vec<&str> = train
        .columns()
        .iter()
        .filter(|c| c.missing_count() > 0)
        .map(|c| c.name())
        .collect();
    assert_eq!(with_missing, ["V2", "V7", "V14"]);
    let numeric: Vec<&str> = train
        .columns()
        .iter()
        .filter(|c| c.is_numeric())
        .map(|c| c.name())
        .collect();
    assert_eq!(numeric, ["V1", "V3", "V5", "V11", "V12", "V13"]);

    let raw_test = reader.read(&test_path).unwrap();
    assert_eq!(raw_test.n_rows(), 16_281);
    assert_eq!(
        class_counts(&raw_test),
        counts(&[("<=50K.", 12_435), (">50K.", 3_846)])
    );
    assert_eq!(raw_test.incomplete_rows().len(), 1_221);
    let test = reader
        .clone()
        .strip_class_suffix(".")
        .read(&test_path)
        .unwrap();
    assert_eq!(test.classes(), train.classes());

    let train = train.drop_missing_rows();
    let test = test.drop_missing_rows().align_to(&train).unwrap();
    assert_eq!(train.n_rows(), 32_561 - 2_399);
    assert_eq!(test.n_rows(), 16_281 - 1_221);
    let (x_train, names) = train.one_hot(OneHot::AllLevels).unwrap();
    let (x_test, test_names) = test.one_hot(OneHot::AllLevels).unwrap();
    assert_eq!(names, test_names);
    assert_eq!(x_train.ncols(), x_test.ncols());
    // Each row has exactly one indicator on for each of the 8 categorical columns.
    let indicators: Vec<usize> = (0..names.len())
        .filter(|&j| names[j].contains('='))
        .collect();
    assert_eq!(names.len() - indicators.len(), 6);
    for row in x_train.rows().into_iter().chain(x_test.rows()) {
        assert_eq!(indicators.iter().map(|&j| row[j]).sum::<f64>(), 8.0);
    }
}

#[test]
fn ionosphere() {
    let Some(path) = data_file("uci/ionosphere/ionosphere.data") else {
        return;
    };
    let table = TableReader::uci(Separator::Comma).read(&path).unwrap();
    assert_eq!((table.n_rows(), table.n_columns()), (351, 34));
    assert!(all_numeric(&table));
    assert_eq!(class_counts(&table), counts(&[("b", 126), ("g", 225)]));
    assert_eq!(table.to_dense().unwrap().dim(), (351, 34));
}

#[test]
fn sonar_without_final_newline() {
    let Some(path) = data_file("uci/sonar/sonar.all-data") else {
        return;
    };
    let table = TableReader::uci(Separator::Comma).read(&path).unwrap();
    assert_eq!((table.n_rows(), table.n_columns()), (208, 60));
    assert!(all_numeric(&table));
    assert_eq!(class_counts(&table), counts(&[("M", 111), ("R", 97)]));
    let x = table.to_dense().unwrap();
    assert!(x.iter().all(|&v| (0.0..=1.0).contains(&v)));
}

#[test]
fn lenses_whitespace_with_id() {
    let Some(path) = data_file("uci/lenses/lenses.data") else {
        return;
    };
    let table = TableReader::uci(Separator::Whitespace)
        .ignore_columns([0])
        .all_columns(ColumnType::Categorical)
        .read(&path)
        .unwrap();
    assert_eq!((table.n_rows(), table.n_columns()), (24, 4));
    assert_eq!(
        class_counts(&table),
        counts(&[("1", 4), ("2", 5), ("3", 15)])
    );
}

#[test]
fn breast_cancer_class_first_with_question_marks() {
    let Some(path) = data_file("uci/breast-cancer-ljubljana/breast-cancer.data") else {
        return;
    };
    let table = TableReader::uci(Separator::Comma)
        .class_column(ColumnRef::First)
        .column_names([
            "class",
            "age",
            "menopause",
            "tumor-size",
            "inv-nodes",
            "node-caps",
            "deg-malig",
            "breast",
            "breast-quad",
            "irradiat",
        ])
        .all_columns(ColumnType::Categorical)
        .read(&path)
        .unwrap();
    assert_eq!((table.n_rows(), table.n_columns()), (286, 9));
    assert_eq!(
        class_counts(&table),
        counts(&[("no-recurrence-events", 201), ("recurrence-events", 85)])
    );
    assert_eq!(table.incomplete_rows().len(), 9);
    assert_eq!(table.column("node-caps").unwrap().missing_count(), 8);
    assert_eq!(table.column("breast-quad").unwrap().missing_count(), 1);
    assert_eq!(missing_values(&table), 9);
}

#[test]
fn house_votes_84() {
    let Some(path) = data_file("uci/congressional-voting/house-votes-84.data") else {
        return;
    };
    let reader = TableReader::uci(Separator::Comma).class_column(ColumnRef::First);
    let table = reader.read(&path).unwrap();
    assert_eq!((table.n_rows(), table.n_columns()), (435, 16));
    assert_eq!(
        class_counts(&table),
        counts(&[("democrat", 267), ("republican", 168)])
    );
    assert_eq!(missing_values(&table), 392);
    assert_eq!(table.incomplete_rows().len(), 203);
    // With `?` as a genuine answer, every vote has three levels and nothing is missing.
    let table = reader.no_missing_marker().read(&path).unwrap();
    assert_eq!(missing_values(&table), 0);
    for column in table.columns() {
        match column.values() {
            ColumnValues::Categorical(c) => assert_eq!(c.levels(), ["?", "n", "y"]),
            ColumnValues::Numeric(_) => panic!("{} is numeric", column.name()),
        }
    }
}

#[test]
fn promoters_sequence_exploded() {
    let Some(path) = data_file("uci/promoters/promoters.data") else {
        return;
    };
    let table = TableReader::uci(Separator::Comma)
        .class_column(ColumnRef::First)
        .ignore_columns([1])
        .read(&path)
        .unwrap()
        .explode_characters("V3")
        .unwrap();
    assert_eq!((table.n_rows(), table.n_columns()), (106, 57));
    assert_eq!(class_counts(&table), counts(&[("+", 53), ("-", 53)]));
    for column in table.columns() {
        match column.values() {
            ColumnValues::Categorical(c) => {
                assert!(c
                    .levels()
                    .iter()
                    .all(|l| ["a", "c", "g", "t"].contains(&l.as_str())))
            }
            ColumnValues::Numeric(_) => panic!("{} is numeric", column.name()),
        }
    }
    let (x, _) = table.one_hot(OneHot::AllLevels).unwrap();
    assert!(x.rows().into_iter().all(|row| row.sum() == 57.0));
}

#[test]
fn lymphography_class_first() {
    let Some(path) = data_file("uci/lymphography/lymphography.data") else {
        return;
    };
    let table = TableReader::uci(Separator::Comma)
        .class_column(ColumnRef::First)
        .all_columns(ColumnType::Categorical)
        .read(&path)
        .unwrap();
    assert_eq!((table.n_rows(), table.n_columns()), (148, 18));
    assert_eq!(
        class_counts(&table),
        counts(&[("1", 2), ("2", 81), ("3", 61), ("4", 4)])
    );
}

#[test]
fn optdigits_train_and_test() {
    let (Some(train), Some(test)) = (
        data_file("uci/optdigits/optdigits.tra"),
        data_file("uci/optdigits/optdigits.tes"),
    ) else {
        return;
    };
    let reader = TableReader::uci(Separator::Comma);
    let train = reader.read(&train).unwrap();
    assert_eq!((train.n_rows(), train.n_columns()), (3_823, 64));
    assert_eq!(
        train.class_counts(),
        vec![376, 389, 380, 389, 387, 376, 377, 387, 380, 382]
    );
    let test = reader.read(&test).unwrap();
    assert_eq!(test.n_rows(), 1_797);
    assert_eq!(
        test.class_counts(),
        vec![178, 182, 177, 183, 181, 182, 181, 179, 174, 180]
    );
    let x = test.to_dense().unwrap();
    assert!(x
        .iter()
        .all(|&v| (0.0..=16.0).contains(&v) && v.fract() == 0.0));
}

#[test]
fn bupa_liver_disorders() {
    let Some(path) = data_file("uci/liver-disorders-bupa/bupa.data") else {
        return;
    };
    let table = TableReader::uci(Separator::Comma).read(&path).unwrap();
    assert_eq!((table.n_rows(), table.n_columns()), (345, 6));
    assert_eq!(class_counts(&table), counts(&[("1", 145), ("2", 200)]));
    assert!(all_numeric(&table));
}

#[test]
fn boston_housing_numeric_target() {
    let Some(path) = data_file("uci/boston-housing/housing.data") else {
        return;
    };
    // Whitespace separated, each line starting with a space, no final newline; MEDV last.
    let table = TableReader::uci(Separator::Whitespace)
        .column_names([
            "CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD", "TAX", "PTRATIO", "B",
            "LSTAT", "MEDV",
        ])
        .read(&path)
        .unwrap();
    assert_eq!((table.n_rows(), table.n_columns()), (506, 13));
    assert!(all_numeric(&table));
    let medv = table.numeric_class_labels().unwrap();
    let min = medv.iter().copied().fold(f64::INFINITY, f64::min);
    let max = medv.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    assert_eq!((min, max), (5.0, 50.0));
    assert_eq!(table.row_origin(505).unwrap().1, 506);
}

#[test]
fn thyroid_sick_arff() {
    let Some(path) = data_file("uci/thyroid-sick/sick.arff") else {
        return;
    };
    let table = TableReader::arff().read(&path).unwrap();
    assert_eq!((table.n_rows(), table.n_columns() + 1), (3_772, 30));
    assert_eq!(table.class_name(), "Class");
    assert_eq!(
        class_counts(&table),
        counts(&[("negative", 3_541), ("sick", 231)])
    );
    // The header comment: 7 continuous attributes, 6064 missing values; TBG always missing.
    let numeric: Vec<&str> = table
        .columns()
        .iter()
        .filter(|c| c.is_numeric())
        .map(|c| c.name())
        .collect();
    assert_eq!(numeric, ["age", "TSH", "T3", "TT4", "T4U", "FTI", "TBG"]);
    assert_eq!(missing_values(&table), 6_064);
    assert_eq!(table.column("TBG").unwrap().missing_count(), 3_772);
    // The first 2800 rows are sick.data: negative 2,629, sick 171.
    let first_sick = table
        .targets()
        .iter()
        .take(2_800)
        .filter(|&&k| k == 1)
        .count();
    assert_eq!(first_sick, 171);
}

#[test]
fn statlog_australian() {
    let Some(path) = data_file("statlog/australian/australian.dat") else {
        return;
    };
    let table = TableReader::uci(Separator::Whitespace).read(&path).unwrap();
    assert_eq!((table.n_rows(), table.n_columns()), (690, 14));
    assert_eq!(class_counts(&table), counts(&[("0", 383), ("1", 307)]));
    assert_eq!(table.to_dense().unwrap().dim(), (690, 14));
}

#[test]
fn statlog_heart() {
    let Some(path) = data_file("statlog/heart/heart.dat") else {
        return;
    };
    let table = TableReader::uci(Separator::Whitespace).read(&path).unwrap();
    assert_eq!((table.n_rows(), table.n_columns()), (270, 13));
    assert_eq!(class_counts(&table), counts(&[("1", 150), ("2", 120)]));
    assert!(all_numeric(&table));
}

#[test]
fn statlog_satimage() {
    let (Some(train), Some(test)) = (
        data_file("statlog/satimage/sat.trn"),
        data_file("statlog/satimage/sat.tst"),
    ) else {
        return;
    };
    let reader = TableReader::uci(Separator::Whitespace);
    let train = reader.read(&train).unwrap();
    assert_eq!((train.n_rows(), train.n_columns()), (4_435, 36));
    assert_eq!(
        class_counts(&train),
        counts(&[
            ("1", 1072),
            ("2", 479),
            ("3", 961),
            ("4", 415),
            ("5", 470),
            ("7", 1038)
        ])
    );
    let test = reader.read(&test).unwrap().align_to(&train).unwrap();
    assert_eq!(test.n_rows(), 2_000);
    assert_eq!(test.class_counts(), vec![461, 224, 397, 211, 237, 470]);
}

#[test]
fn statlog_vehicle_from_nine_files() {
    let pieces: Option<Vec<PathBuf>> = [
        "xaa", "xab", "xac", "xad", "xae", "xaf", "xag", "xah", "xai",
    ]
    .iter()
    .map(|p| data_file(&format!("statlog/vehicle/{p}.dat")))
    .collect();
    let Some(pieces) = pieces else {
        return;
    };
    let table = TableReader::uci(Separator::Whitespace)
        .read_files(&pieces)
        .unwrap();
    assert_eq!((table.n_rows(), table.n_columns()), (846, 18));
    assert_eq!(
        class_counts(&table),
        counts(&[("bus", 218), ("opel", 212), ("saab", 217), ("van", 199)])
    );
    // 94 rows per file: row 94 is the first line of xab.dat.
    let (path, line) = table.row_origin(94).unwrap();
    assert_eq!(
        (path.file_name().unwrap().to_str(), line),
        (Some("xab.dat"), 1)
    );
}
