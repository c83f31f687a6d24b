//! Reading the golden fixtures of `tests/fixtures/logistic/` (see the README there).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ndarray::{Array1, Array2};

/// The fixture directory.
pub fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/logistic")
}

/// A `key: values` reference file; `#` lines are comments (provenance).
pub struct Reference {
    name: String,
    entries: HashMap<String, String>,
}

impl Reference {
    pub fn load(name: &str) -> Self {
        let path = fixture_dir().join(name);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let entries = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let (k, v) = l.split_once(':').expect("key: value");
                (k.trim().to_string(), v.trim().to_string())
            })
            .collect();
        Self {
            name: name.into(),
            entries,
        }
    }

    pub fn text(&self, key: &str) -> &str {
        self.entries
            .get(key)
            .unwrap_or_else(|| panic!("{}: no `{key}`", self.name))
    }

    pub fn floats(&self, key: &str) -> Vec<f64> {
        self.text(key)
            .split_whitespace()
            .map(|v| {
                v.parse()
                    .unwrap_or_else(|e| panic!("{}: {key}: {v}: {e}", self.name))
            })
            .collect()
    }

    pub fn float(&self, key: &str) -> f64 {
        let v = self.floats(key);
        assert_eq!(v.len(), 1, "{}: {key} is not a scalar", self.name);
        v[0]
    }

    pub fn integer(&self, key: &str) -> usize {
        self.text(key).parse().expect("an integer")
    }
}

/// A numeric CSV with a header line: the columns named `x…` as the design matrix, `y` as the
/// classes and `w`, when present, as weights.
pub struct Data {
    pub x: Array2<f64>,
    pub y: Array1<usize>,
    pub w: Option<Array1<f64>>,
}

pub fn load_csv(path: &Path, label_column: &str) -> Data {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let rows: Vec<Vec<f64>> = lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split(',')
                .map(|v| v.trim().parse().expect("a number"))
                .collect()
        })
        .collect();
    let column = |name: &str| header.iter().position(|h| *h == name);
    let features: Vec<usize> = (0..header.len())
        .filter(|&j| header[j].starts_with('x'))
        .collect();
    let x = Array2::from_shape_fn((rows.len(), features.len()), |(i, j)| rows[i][features[j]]);
    let yc = column(label_column).expect("label column");
    let y = rows.iter().map(|r| r[yc] as usize).collect();
    let w = column("w").map(|wc| rows.iter().map(|r| r[wc]).collect());
    Data { x, y, w }
}

/// A generated data set of the fixture directory.
pub fn load_fixture_data(name: &str) -> Data {
    load_csv(&fixture_dir().join(name), "y")
}

/// Pima Indians diabetes from `$GENDISC_DATA`, or `None` (with a note) when unavailable.
pub fn load_pima() -> Option<Data> {
    let Some(dir) = std::env::var_os("GENDISC_DATA") else {
        eprintln!("note: GENDISC_DATA is not set; skipping the Pima Indians diabetes test");
        return None;
    };
    let path = Path::new(&dir).join("uci/pima-indians-diabetes/pima-indians-diabetes.data");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "note: {} is missing; skipping the Pima test",
            path.display()
        );
        return None;
    };
    let rows: Vec<Vec<f64>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split(',')
                .map(|v| v.trim().parse().expect("a number"))
                .collect()
        })
        .collect();
    let x = Array2::from_shape_fn((rows.len(), 8), |(i, j)| rows[i][j]);
    let y = rows.iter().map(|r| r[8] as usize).collect();
    Some(Data { x, y, w: None })
}

/// `|a − b| ≤ tol · max(1, |b|)` elementwise: absolute for small values, relative for large.
#[track_caller]
pub fn assert_close(what: &str, ours: &[f64], reference: &[f64], tol: f64) {
    assert_eq!(ours.len(), reference.len(), "{what}: lengths differ");
    for (i, (a, b)) in ours.iter().zip(reference).enumerate() {
        assert!(
            (a - b).abs() <= tol * b.abs().max(1.0),
            "{what}[{i}]: ours {a} vs reference {b} (tolerance {tol})"
        );
    }
}

/// glm's coefficient order is (intercept, weights…); ours is (weights…, intercept).
pub fn glm_order(weights: &[f64], intercept: Option<f64>) -> Vec<f64> {
    intercept
        .into_iter()
        .chain(weights.iter().copied())
        .collect()
}
