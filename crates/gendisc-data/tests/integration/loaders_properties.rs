//! Invariants of the loaders over generated inputs: what is written is read back bit for bit,
//! arbitrary text never makes a reader panic, and the table transformations keep their
//! promises.

use gendisc_data::loaders::{
    ColumnRef, ColumnType, ColumnValues, LibsvmReader, OneHot, Separator, TableReader,
};
use proptest::prelude::*;

/// A finite `f64` from the whole range, or a small "tidy" one.
fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_filter("finite", |v| v.is_finite()),
        (-1000i32..1000).prop_map(|v| f64::from(v) / 8.0),
    ]
}

/// Rows of `n_columns` finite numbers and a class label.
fn numeric_rows() -> impl Strategy<Value = Vec<(Vec<f64>, &'static str)>> {
    (1usize..5).prop_flat_map(|n_columns| {
        prop::collection::vec(
            (
                prop::collection::vec(finite(), n_columns),
                prop::sample::select(vec!["a", "b", "c"]),
            ),
            1..20,
        )
    })
}

/// Text made of the characters that matter to the parsers.
fn noise() -> impl Strategy<Value = String> {
    prop::string::string_regex("[ ,:\\n\\t?#@%{}'\"0-9abc.+eE-]{0,120}").unwrap()
}

proptest! {
    #[test]
    fn uci_files_round_trip_exactly(
        rows in numeric_rows(),
        separator in prop::sample::select(vec![Separator::Comma, Separator::Whitespace, Separator::Char(';')]),
        final_newline in any::<bool>(),
    ) {
        let gap = match separator {
            Separator::Comma => ", ",
            Separator::Whitespace => "  ",
            _ => ";",
        };
        let mut text = rows
            .iter()
            .map(|(values, class)| {
                let mut fields: Vec<String> = values.iter().map(|v| v.to_string()).collect();
                fields.push(class.to_string());
                fields.join(gap)
            })
            .collect::<Vec<_>>()
            .join("\n");
        if final_newline {
            text.push('\n');
        }
        let table = TableReader::uci(separator)
            .all_columns(ColumnType::Numeric)
            .read_str(&text, "generated.data")
            .unwrap();
        let x = table.to_dense().unwrap();
        prop_assert_eq!(x.dim(), (rows.len(), rows[0].0.len()));
        for (i, (values, class)) in rows.iter().enumerate() {
            for (j, v) in values.iter().enumerate() {
                prop_assert_eq!(x[[i, j]].to_bits(), v.to_bits());
            }
            prop_assert_eq!(table.classes().labels()[table.targets()[i]].as_str(), *class);
            prop_assert_eq!(table.row_origin(i).unwrap().1, i + 1);
        }
    }

    #[test]
    fn libsvm_files_round_trip_exactly(
        rows in prop::collection::vec(
            (prop::sample::select(vec![-1i64, 1, 2]), prop::collection::btree_map(0usize..30, finite(), 0..6)),
            1..20,
        ),
    ) {
        let text: String = rows
            .iter()
            .map(|(label, features)| {
                let mut line = format!("{label:+}");
                for (column, value) in features {
                    line.push_str(&format!(" {}:{value}", column + 1));
                }
                line + "\n"
            })
            .collect();
        let data = LibsvmReader::new().n_features(30).read_str(&text, "generated.svm").unwrap();
        let dense = data.to_dense();
        prop_assert_eq!(dense.dim(), (rows.len(), 30));
        for (i, (label, features)) in rows.iter().enumerate() {
            prop_assert_eq!(data.classes().labels()[data.targets()[i]], *label);
            for j in 0..30 {
                // Zeros (-0.0 included) are not stored, so they read back as +0.0.
                let expected = features.get(&j).copied().filter(|&v| v != 0.0).unwrap_or(0.0);
                prop_assert_eq!(dense[[i, j]].to_bits(), expected.to_bits());
            }
        }
    }

    #[test]
    fn readers_never_panic_on_noise(text in noise(), prefix in 0usize..3) {
        let text = match prefix {
            0 => text,
            1 => format!("@relation r\n@attribute a numeric\n@attribute b {{x, y}}\n@data\n{text}"),
            _ => format!("a,b,c\n{text}"),
        };
        for reader in [
            TableReader::uci(Separator::Comma),
            TableReader::uci(Separator::Whitespace),
            TableReader::csv().class_column("b"),
            TableReader::arff(),
        ] {
            if let Ok(table) = reader.read_str(&text, "noise") {
                prop_assert_eq!(table.targets().len(), table.n_rows());
                let _ = table.to_dense();
                let _ = table.one_hot(OneHot::DropFirstLevel);
                let _ = table.drop_missing_rows().one_hot(OneHot::AllLevels);
            }
        }
        let _ = LibsvmReader::new().read_str(&text, "noise");
    }

    #[test]
    fn table_transformations_keep_their_promises(
        rows in prop::collection::vec(
            (prop::sample::select(vec!["x", "y", "z", "?"]), prop::sample::select(vec!["1", "2", "?"]), prop::sample::select(vec!["p", "q"])),
            1..30,
        ),
    ) {
        let text: String = rows.iter().map(|(a, b, c)| format!("{c},{a},{b}\n")).collect();
        let table = TableReader::uci(Separator::Comma)
            .class_column(ColumnRef::First)
            .all_columns(ColumnType::Categorical)
            .read_str(&text, "generated.data")
            .unwrap();
        // Aligning a table to itself changes nothing.
        prop_assert_eq!(&table.align_to(&table).unwrap(), &table);

        let complete = table.drop_missing_rows();
        let n_complete = rows.iter().filter(|(a, b, _)| *a != "?" && *b != "?").count();
        prop_assert_eq!(complete.n_rows(), n_complete);
        prop_assert_eq!(complete.incomplete_rows().len(), 0);
        prop_assert_eq!(complete.classes(), table.classes());
        prop_assert_eq!(table.incomplete_rows().len(), rows.len() - n_complete);

        let ColumnValues::Categorical(letters) = complete.columns()[0].values() else {
            panic!("V2 is categorical");
        };
        let ColumnValues::Categorical(digits) = complete.columns()[1].values() else {
            panic!("V3 is categorical");
        };
        let n_levels = letters.levels().len();
        let n_total = n_levels + digits.levels().len();
        let (full, names) = complete.one_hot(OneHot::AllLevels).unwrap();
        let (reduced, _) = complete.one_hot(OneHot::DropFirstLevel).unwrap();
        prop_assert_eq!(full.ncols(), n_total);
        prop_assert_eq!(names.len(), n_total);
        let n_reduced = n_levels.saturating_sub(1) + digits.levels().len().saturating_sub(1);
        prop_assert_eq!(reduced.ncols(), n_reduced);
        for (i, code) in letters.codes().iter().enumerate() {
            let code = code.unwrap();
            // Exactly one indicator per row and column, at the row's level.
            prop_assert_eq!(full.row(i).iter().take(n_levels).sum::<f64>(), 1.0);
            prop_assert_eq!(full[[i, code]], 1.0);
            prop_assert_eq!(full.row(i).iter().skip(n_levels).sum::<f64>(), 1.0);
            // The reduced coding is the full one without each column's first indicator.
            let without_first: Vec<f64> = full
                .row(i)
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != 0 && j != n_levels)
                .map(|(_, &v)| v)
                .collect();
            prop_assert_eq!(without_first, reduced.row(i).to_vec());
        }
    }
}
