//! The LIBSVM / svmlight reader on small hand-written files.

use gendisc_core::Error;
use gendisc_data::loaders::LibsvmReader;

use crate::loaders_support::{fixture, parse_error};

#[test]
fn reads_a_small_file() {
    let data = LibsvmReader::new().read(fixture("small.svm")).unwrap();
    assert_eq!((data.n_rows(), data.n_features()), (3, 3));
    assert_eq!(data.classes().labels(), [-1, 1]);
    assert_eq!(data.targets().to_vec(), vec![1, 0, 1]);
    let x = data.x();
    assert!(x.is_csr());
    assert_eq!(x.indptr().raw_storage(), [0, 2, 3, 3]);
    assert_eq!(x.indices(), [0, 2, 1]);
    assert_eq!(x.data(), [0.5, 2.0, 1.25]);
    let dense = data.to_dense();
    assert_eq!(dense.row(0).to_vec(), vec![0.5, 0.0, 2.0]);
    assert_eq!(dense.row(2).to_vec(), vec![0.0, 0.0, 0.0]);
    // A fixed width pads with zero columns.
    let wide = LibsvmReader::new()
        .n_features(6)
        .read(fixture("small.svm"))
        .unwrap();
    assert_eq!(wide.n_features(), 6);
    assert_eq!(wide.x().nnz(), 3);
}

#[test]
fn malformed_files() {
    let reader = LibsvmReader::new();
    let (line, column, message) = parse_error(reader.read(fixture("non_increasing.svm")));
    assert_eq!((line, column), (2, 3));
    assert!(message.contains("must increase: 2 follows 3"), "{message}");

    let (line, column, message) = parse_error(reader.read(fixture("bad_token.svm")));
    assert_eq!((line, column), (2, 3));
    assert!(
        message.contains("expected index:value, found '2=1'"),
        "{message}"
    );

    let (line, column, message) = parse_error(reader.read(fixture("qid.svm")));
    assert_eq!((line, column), (1, 2));
    assert!(message.contains("qid"), "{message}");

    let (line, column, message) = parse_error(reader.read(fixture("zero_index.svm")));
    assert_eq!((line, column), (2, 2));
    assert!(message.contains("1-based"), "{message}");

    let (_, _, message) = parse_error(reader.read(fixture("empty.data")));
    assert!(message.contains("no data rows"), "{message}");

    let (line, column, message) = parse_error(reader.n_features(2).read(fixture("small.svm")));
    assert_eq!((line, column), (2, 3));
    assert!(message.contains("beyond the 2 features"), "{message}");

    match reader.read(fixture("absent.svm")) {
        Err(Error::Io { path, .. }) => assert_eq!(path, fixture("absent.svm")),
        other => panic!("{other:?}"),
    }
}
