//! What the studies that read their inputs from files share: where the inputs came from, the
//! training rows of a file of splits, and the helpers of their malformed-directory tests.

use gendisc_core::Error;
use gendisc_engine::{fingerprint, Result};
use ndarray::{Array1, ArrayBase, Data, Dimension};

/// The digest of datasets and training rows read from files, as a report names them: per
/// dataset, the fingerprint of its inputs (`inputs`, as the paper takes them), of its classes and
/// of each training size's rows, in the order read.
pub(crate) fn digest<'a>(
    read: impl IntoIterator<Item = (String, &'a Array1<usize>, &'a [TrainingRows])>,
) -> String {
    let parts: Vec<(String, String, Vec<String>)> = read
        .into_iter()
        .map(|(inputs, y, splits)| {
            (
                inputs,
                fingerprint(&y.to_vec()),
                splits.iter().map(|s| fingerprint(&s.rows)).collect(),
            )
        })
        .collect();
    fingerprint(&parts)
}

/// Same shape and the same bits in every entry (so `-0.0` differs from `0.0` and a NaN equals
/// itself): how a study decides that inputs read from files are its seed's own draws, whose
/// fingerprint, and so every output, must then stay the same.
pub(crate) fn same_bits<S, T, D>(a: &ArrayBase<S, D>, b: &ArrayBase<T, D>) -> bool
where
    S: Data<Elem = f64>,
    T: Data<Elem = f64>,
    D: Dimension,
{
    a.shape() == b.shape() && a.iter().zip(b).all(|(p, q)| p.to_bits() == q.to_bits())
}

/// Where a study's datasets and splits come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputSource {
    /// Drawn from the study seed (or read from files that hold exactly those draws).
    Seed,
    /// Read from files that differ from the seed's draws; the digest of what was read.
    Files {
        /// A fingerprint of every value and training row read.
        digest: String,
    },
}

/// The training rows of every replicate (or split) of one dataset and size, read from a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TrainingRows {
    /// Replicate-major: replicate `r`'s rows are `rows[r * m..(r + 1) * m]`; `u32` halves the
    /// memory of a full run's hundreds of replicates per dataset and size.
    pub(crate) rows: Vec<u32>,
    train_size: usize,
}

impl TrainingRows {
    /// The rows of each replicate, `train_size` of them each.
    pub(crate) fn new(by_replicate: &[Vec<usize>], train_size: usize) -> Result<Self> {
        let rows = by_replicate
            .iter()
            .flatten()
            .map(|&i| {
                u32::try_from(i).map_err(|_| {
                    Error::invalid_parameter("training rows", format!("row {i} is too large"))
                })
            })
            .collect::<std::result::Result<Vec<u32>, Error>>()?;
        Ok(Self { rows, train_size })
    }

    /// Replicate `replicate`'s training rows, in the file's order.
    pub(crate) fn replicate(&self, replicate: usize) -> Option<Vec<usize>> {
        let m = self.train_size;
        self.rows
            .get(replicate * m..(replicate + 1) * m)
            .map(|rows| rows.iter().map(|&i| i as usize).collect())
    }
}

/// Helpers of the tests that export a study's inputs, damage them and read them back.
#[cfg(test)]
pub(crate) mod damage {
    use std::collections::BTreeMap;
    use std::fs;
    use std::path::{Path, PathBuf};

    use gendisc_core::Error;
    use gendisc_engine::StudyError;

    /// A new, empty directory of this test process for `paper`'s test `name`.
    pub(crate) fn temp_dir(paper: &str, name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("gendisc-{paper}-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Every file under `dir`, by its path relative to `dir`.
    pub(crate) fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut found = BTreeMap::new();
        let mut pending = vec![dir.to_path_buf()];
        while let Some(current) = pending.pop() {
            for entry in fs::read_dir(&current).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    pending.push(path);
                } else {
                    let bytes = fs::read(&path).unwrap();
                    found.insert(path.strip_prefix(dir).unwrap().to_path_buf(), bytes);
                }
            }
        }
        found
    }

    /// Replaces line `line` (from 1) of the file at `path` by `edit` of it.
    pub(crate) fn edit_line(path: &Path, line: usize, edit: impl FnOnce(&str) -> String) {
        let text = fs::read_to_string(path).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        lines[line - 1] = edit(&lines[line - 1]);
        fs::write(path, lines.join("\n") + "\n").unwrap();
    }

    /// Asserts that `error` is a parse error of `file` at `line` whose message contains `what`.
    pub(crate) fn assert_parse_error(error: StudyError, file: &str, line: usize, what: &str) {
        match &error {
            StudyError::Core(Error::Parse {
                path,
                line: l,
                message,
                ..
            }) => {
                assert!(path.ends_with(file), "{error}");
                assert_eq!(*l, line, "{error}");
                assert!(message.contains(what), "{error}");
            }
            other => panic!("not a parse error of {file}: {other}"),
        }
    }
}
