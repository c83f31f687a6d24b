//! What the reader tests share: their fixture files and the position of a parse error.

use std::fmt::Debug;
use std::path::{Path, PathBuf};

use gendisc_core::Error;

/// A hand-written file under `tests/fixtures/loaders/`.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/loaders")
        .join(name)
}

/// The line, column and message of the parse error `result` must be.
pub fn parse_error<T: Debug>(result: gendisc_core::Result<T>) -> (usize, usize, String) {
    match result {
        Err(Error::Parse {
            line,
            column,
            message,
            ..
        }) => (line, column, message),
        Err(other) => panic!("expected a parse error, got {other}"),
        Ok(read) => panic!("expected a parse error, got {read:?}"),
    }
}
