//! LIBSVM / svmlight files: `label index:value index:value …`, one row per line, into a sparse
//! CSR matrix.

use std::path::Path;

use gendisc_core::{ClassLabels, Error, Result};
use ndarray::{Array1, Array2};
use sprs::CsMat;

use super::source::{last_line_number, numbered_lines, parse_error, read_text};

/// How feature indices are numbered in a LIBSVM file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IndexBase {
    /// Indices start at 1 (LIBSVM and svmlight's convention): `1:v` is column 0.
    #[default]
    One,
    /// Indices start at 0.
    Zero,
}

/// Reads LIBSVM / svmlight files into a [`SparseDataset`].
///
/// The format, one row per line: a class label, then `index:value` pairs with strictly
/// increasing indices; `#` starts a comment to the end of the line; blank lines are skipped.
/// Labels must be integers (`1`, `+1`, `-1`, `3.0`): the data is for classification. Values
/// equal to zero are not stored. Ranking files (`qid:…`) and multi-label rows (`1,3 …`) are
/// rejected with an explanation.
///
/// Every malformed input is an [`Error::Parse`] with file, line and the 1-based token (field)
/// number, the label being token 1: a bad label, a token that is not `index:value`, an index
/// that is not greater than the one before, a non-finite value, an index beyond a fixed number
/// of features, an empty file.
///
/// ```
/// use gendisc_data::loaders::LibsvmReader;
///
/// let data = LibsvmReader::new().read_str("+1 1:0.5 3:2 # first\n-1 2:1\n", "toy.svm")?;
/// assert_eq!((data.n_rows(), data.n_features()), (2, 3));
/// assert_eq!(data.classes().labels(), &[-1, 1]);
/// assert_eq!(data.targets().to_vec(), vec![1, 0]);
/// assert_eq!(data.to_dense().row(0).to_vec(), vec![0.5, 0.0, 2.0]);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LibsvmReader {
    n_features: Option<usize>,
    index_base: IndexBase,
}

/// A sparse design matrix with one integer class label per row.
#[derive(Debug, Clone, PartialEq)]
pub struct SparseDataset {
    x: CsMat<f64>,
    classes: ClassLabels<i64>,
    targets: Array1<usize>,
}

impl LibsvmReader {
    /// A reader for 1-based files whose number of features is the largest index seen.
    pub fn new() -> Self {
        Self::default()
    }

    /// Fixes the number of features (columns), so that a test file has as many columns as its
    /// training file even if its last features are all zero. An index beyond it is an error.
    pub fn n_features(mut self, n_features: usize) -> Self {
        self.n_features = Some(n_features);
        self
    }

    /// How the file numbers its features (default [`IndexBase::One`]).
    pub fn index_base(mut self, base: IndexBase) -> Self {
        self.index_base = base;
        self
    }

    /// Reads one file.
    pub fn read(&self, path: impl AsRef<Path>) -> Result<SparseDataset> {
        let path = path.as_ref();
        self.read_str(&read_text(path)?, path)
    }

    /// Reads text already in memory; `path` names it in errors.
    pub fn read_str(&self, text: &str, path: impl AsRef<Path>) -> Result<SparseDataset> {
        let path = path.as_ref();
        let mut indptr = vec![0];
        let mut indices = Vec::new();
        let mut data = Vec::new();
        let mut labels = Vec::new();
        let mut max_column = None;
        for (line_number, line) in numbered_lines(text) {
            let content = line.split_once('#').map_or(line, |(before, _)| before);
            let mut tokens = content.split_ascii_whitespace();
            let Some(label_token) = tokens.next() else {
                continue;
            };
            let error =
                |token: usize, message: String| parse_error(path, line_number, token, message);
            labels.push(parse_label(label_token).map_err(|message| error(1, message))?);
            let mut previous: Option<usize> = None;
            for (k, token) in tokens.enumerate() {
                let token_number = k + 2;
                let column = self
                    .parse_feature(token, previous, &mut indices, &mut data)
                    .map_err(|message| error(token_number, message))?;
                previous = Some(column);
                max_column = max_column.max(Some(column));
            }
            indptr.push(indices.len());
        }
        if labels.is_empty() {
            return Err(parse_error(
                path,
                last_line_number(text),
                1,
                "the file has no data rows",
            ));
        }
        let n_features = self
            .n_features
            .unwrap_or_else(|| max_column.map_or(0, |c| c + 1));
        let n_rows = labels.len();
        let x = CsMat::try_new((n_rows, n_features), indptr, indices, data).map_err(
            |(.., structure)| Error::Numerical {
                what: "LIBSVM matrix assembly".into(),
                detail: structure.to_string(),
            },
        )?;
        let (classes, targets) = ClassLabels::fit(&labels)?;
        Ok(SparseDataset {
            x,
            classes,
            targets,
        })
    }

    /// Parses `index:value`, checks the index, stores a non-zero value, and returns the 0-based
    /// column.
    fn parse_feature(
        &self,
        token: &str,
        previous: Option<usize>,
        indices: &mut Vec<usize>,
        data: &mut Vec<f64>,
    ) -> Result<usize, String> {
        let (index, value) = token
            .split_once(':')
            .ok_or_else(|| format!("expected index:value, found '{token}'"))?;
        if index == "qid" {
            return Err(
                "qid (a ranking query id) is not supported: the data is for \
                        classification"
                    .to_string(),
            );
        }
        let index: usize = index
            .parse()
            .map_err(|_| format!("'{index}' is not a feature index (a non-negative integer)"))?;
        let column = match self.index_base {
            IndexBase::One => index.checked_sub(1).ok_or_else(|| {
                "feature index 0 in a 1-based file (use IndexBase::Zero for 0-based files)"
                    .to_string()
            })?,
            IndexBase::Zero => index,
        };
        if let Some(previous) = previous
            && column <= previous
        {
            return Err(format!(
                "feature indices must increase: {index} follows {}",
                self.index_of(previous)
            ));
        }
        if let Some(n) = self.n_features
            && column >= n
        {
            return Err(format!(
                "feature index {index} is beyond the {n} features the reader was given"
            ));
        }
        let value: f64 = value
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| format!("'{value}' is not a finite number"))?;
        if value != 0.0 {
            indices.push(column);
            data.push(value);
        }
        Ok(column)
    }

    /// The index written in the file for 0-based column `column`.
    fn index_of(&self, column: usize) -> usize {
        match self.index_base {
            IndexBase::One => column + 1,
            IndexBase::Zero => column,
        }
    }
}

/// An integer class label; `+1` and `1.0` are accepted, `0.5`, `1,2` and text are not.
fn parse_label(token: &str) -> Result<i64, String> {
    if token.contains(',') {
        return Err(format!("multi-label rows ('{token}') are not supported"));
    }
    if let Ok(label) = token.parse::<i64>() {
        return Ok(label);
    }
    match token.parse::<f64>() {
        Ok(v) if v.fract() == 0.0 && v.abs() < 2f64.powi(53) => Ok(v as i64),
        _ => Err(format!(
            "class label '{token}' is not an integer (regression targets are not supported)"
        )),
    }
}

impl SparseDataset {
    /// The `n_rows × n_features` design matrix (CSR).
    pub fn x(&self) -> &CsMat<f64> {
        &self.x
    }

    /// The classes: sorted distinct labels (numerically: `-1` before `1`) and their encoding.
    pub fn classes(&self) -> &ClassLabels<i64> {
        &self.classes
    }

    /// The class of each row as an index into [`classes`](Self::classes).
    pub fn targets(&self) -> &Array1<usize> {
        &self.targets
    }

    /// Number of rows.
    pub fn n_rows(&self) -> usize {
        self.x.rows()
    }

    /// Number of features (columns).
    pub fn n_features(&self) -> usize {
        self.x.cols()
    }

    /// The design matrix as a dense array (zeros filled in).
    pub fn to_dense(&self) -> Array2<f64> {
        self.x.to_dense()
    }

    /// The matrix, the classes and the targets, by value.
    pub fn into_parts(self) -> (CsMat<f64>, ClassLabels<i64>, Array1<usize>) {
        (self.x, self.classes, self.targets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_at(text: &str, reader: LibsvmReader) -> (usize, usize, String) {
        match reader.read_str(text, "t.svm") {
            Err(Error::Parse {
                line,
                column,
                message,
                ..
            }) => (line, column, message),
            other => panic!("{text:?}: expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn reads_rows_comments_blank_lines_and_empty_rows() {
        let data = LibsvmReader::new()
            .read_str(
                "# header comment\n1 2:1.5 10:-3\n\n-1\n1 1:0 4:2e-1 # note\n",
                "t",
            )
            .unwrap();
        assert_eq!((data.n_rows(), data.n_features()), (3, 10));
        let dense = data.to_dense();
        assert_eq!(dense[[0, 1]], 1.5);
        assert_eq!(dense[[0, 9]], -3.0);
        assert_eq!(dense.row(1).sum(), 0.0);
        assert_eq!(dense[[2, 3]], 0.2);
        // The explicit zero was not stored.
        assert_eq!(data.x().nnz(), 3);
        assert_eq!(data.targets().to_vec(), vec![1, 0, 1]);
    }

    #[test]
    fn zero_based_files_and_a_fixed_width() {
        let data = LibsvmReader::new()
            .index_base(IndexBase::Zero)
            .n_features(5)
            .read_str("3 0:1 2:1\n", "t")
            .unwrap();
        assert_eq!(data.n_features(), 5);
        assert_eq!(
            data.to_dense().row(0).to_vec(),
            vec![1.0, 0.0, 1.0, 0.0, 0.0]
        );
        let (x, classes, y) = data.into_parts();
        assert_eq!(
            (x.rows(), classes.labels(), y.to_vec()),
            (1, &[3][..], vec![0])
        );
    }

    #[test]
    fn labels() {
        assert_eq!(parse_label("+1"), Ok(1));
        assert_eq!(parse_label("-1"), Ok(-1));
        assert_eq!(parse_label("2.0"), Ok(2));
        assert!(parse_label("0.5").is_err());
        assert!(parse_label("1,2").unwrap_err().contains("multi-label"));
        assert!(parse_label("spam").is_err());
        assert!(parse_label("nan").is_err());
        assert!(parse_label("1e300").is_err());
    }

    #[test]
    fn malformed_tokens_are_located() {
        let reader = LibsvmReader::new();
        let cases = [
            ("1 1:1\nx 1:1\n", (2, 1), "not an integer"),
            ("1 1:1 3\n", (1, 3), "expected index:value"),
            ("1 a:1\n", (1, 2), "not a feature index"),
            ("1 -2:1\n", (1, 2), "not a feature index"),
            ("1 0:1\n", (1, 2), "1-based"),
            ("1 3:1 3:2\n", (1, 3), "must increase: 3 follows 3"),
            ("1 3:1 2:2\n", (1, 3), "must increase: 2 follows 3"),
            ("1 1:abc\n", (1, 2), "not a finite number"),
            ("1 1:inf\n", (1, 2), "not a finite number"),
            ("1 qid:3 1:1\n", (1, 2), "qid"),
            ("", (1, 1), "no data rows"),
            ("# only\n\n", (2, 1), "no data rows"),
        ];
        for (text, (line, column), message) in cases {
            let (l, c, m) = error_at(text, reader);
            assert_eq!((l, c), (line, column), "{text:?}: {m}");
            assert!(m.contains(message), "{text:?}: {m}");
        }
        let (_, column, message) = error_at("1 1:1 6:1\n", reader.n_features(5));
        assert_eq!(column, 3);
        assert!(message.contains("beyond the 5 features"), "{message}");
    }
}
