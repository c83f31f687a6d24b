//! Helpers shared by the `svm_*` test modules: fixture readers, the primal objective
//! written out independently of the solver, and seeded data generators.

use std::path::{Path, PathBuf};

use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sprs::CsMat;

/// The directory of the SVM fixtures.
pub fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/svm")
}

/// A data set: features, classes, sample weights.
pub struct Data {
    pub x: Array2<f64>,
    pub y: Array1<usize>,
    pub weights: Array1<f64>,
}

impl Data {
    pub fn csr(&self) -> CsMat<f64> {
        CsMat::csr_from_dense(self.x.view(), 0.0)
    }
}

/// Reads a generated data file: `class weight x_1 … x_d` per line, `#` comments.
pub fn read_fixture_data(name: &str) -> Data {
    let path = fixture_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut y = Vec::new();
    let mut weights = Vec::new();
    let mut values = Vec::new();
    let mut n_cols = None;
    for (line_no, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let here = || format!("{}:{}", path.display(), line_no + 1);
        y.push(
            fields[0]
                .parse::<usize>()
                .unwrap_or_else(|e| panic!("{}: {e}", here())),
        );
        weights.push(parse(fields[1], &here()));
        let row: Vec<f64> = fields[2..].iter().map(|v| parse(v, &here())).collect();
        assert_eq!(*n_cols.get_or_insert(row.len()), row.len(), "{}", here());
        values.extend(row);
    }
    let n = y.len();
    Data {
        x: Array2::from_shape_vec((n, n_cols.unwrap()), values).unwrap(),
        y: Array1::from(y),
        weights: Array1::from(weights),
    }
}

/// Reads the UCI ionosphere data from `$GENDISC_DATA` (classes `b` → 0, `g` → 1), or `None`
/// with a printed note when it is not available.
pub fn read_ionosphere() -> Option<Data> {
    let Some(root) = std::env::var_os("GENDISC_DATA") else {
        eprintln!("note: GENDISC_DATA is not set; skipping the ionosphere golden case");
        return None;
    };
    let path = Path::new(&root).join("uci/ionosphere/ionosphere.data");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "note: {} is missing; skipping the ionosphere golden case",
            path.display()
        );
        return None;
    };
    let mut y = Vec::new();
    let mut values = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.trim().split(',').collect();
        let (label, features) = fields.split_last().unwrap();
        y.push(match *label {
            "b" => 0,
            "g" => 1,
            other => panic!("unexpected ionosphere class {other:?}"),
        });
        values.extend(features.iter().map(|v| parse(v, "ionosphere.data")));
    }
    let n = y.len();
    Some(Data {
        x: Array2::from_shape_vec((n, values.len() / n), values).unwrap(),
        y: Array1::from(y),
        weights: Array1::ones(n),
    })
}

fn parse(v: &str, at: &str) -> f64 {
    v.parse::<f64>()
        .unwrap_or_else(|e| panic!("{at}: {v:?}: {e}"))
}

/// One case of `reference.txt`.
#[derive(Debug, Default)]
pub struct ReferenceCase {
    pub name: String,
    pub data: String,
    pub c: f64,
    pub fit_intercept: bool,
    pub intercept_scaling: f64,
    pub weighted: bool,
    pub sparse_input: bool,
    pub coef: Vec<Vec<f64>>,
    pub intercept: Vec<f64>,
    pub decision: Vec<Vec<f64>>,
}

/// Parses `reference.txt`.
pub fn read_reference() -> Vec<ReferenceCase> {
    let path = fixture_dir().join("reference.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut cases = Vec::new();
    let mut case = ReferenceCase::default();
    for (line_no, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let at = format!("{}:{}", path.display(), line_no + 1);
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let numbers = || -> Vec<f64> { rest.split_whitespace().map(|v| parse(v, &at)).collect() };
        match key {
            "case" => case.name = rest.to_string(),
            "data" => case.data = rest.to_string(),
            "c" => case.c = numbers()[0],
            "fit_intercept" => case.fit_intercept = rest == "true",
            "intercept_scaling" => case.intercept_scaling = numbers()[0],
            "weighted" => case.weighted = rest == "true",
            "input" => case.sparse_input = rest == "sparse",
            "n_iter" => {}
            "coef" => case.coef.push(numbers()),
            "intercept" => case.intercept = numbers(),
            "decision" => case.decision.push(numbers()),
            "end" => cases.push(std::mem::take(&mut case)),
            other => panic!("{at}: unknown key {other:?}"),
        }
    }
    cases
}

/// `P(w̃) = ½(‖w‖² + w_b²) + Σ_i C_i max(0, 1 − s_i (w·x_i + B w_b))`, written out directly
/// from the definition (Hsieh et al. 2008, eqs. (1)–(3)).
pub fn primal_objective(
    x: ArrayView2<'_, f64>,
    signs: &[f64],
    costs: &[f64],
    w: ArrayView1<'_, f64>,
    bias_weight: f64,
    bias: f64,
) -> f64 {
    let hinge: f64 = x
        .outer_iter()
        .zip(signs)
        .zip(costs)
        .map(|((xi, &s), &c)| c * (1.0 - s * (xi.dot(&w) + bias * bias_weight)).max(0.0))
        .sum();
    0.5 * (w.dot(&w) + bias_weight * bias_weight) + hinge
}

/// `+1` for rows of class `positive`, `−1` otherwise.
pub fn signs_for(y: ArrayView1<'_, usize>, positive: usize) -> Vec<f64> {
    y.iter()
        .map(|&k| if k == positive { 1.0 } else { -1.0 })
        .collect()
}

/// Two classes in `d` dimensions: uniform noise in `[−1, 1]^d` around centres `∓shift·e_1`,
/// with a fraction `sparsity` of the entries set to zero. Both classes always have rows.
pub fn two_clouds(seed: u64, n: usize, d: usize, shift: f64, sparsity: f64) -> Data {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let y = Array1::from_shape_fn(n, |i| if i < 2 { i } else { rng.random_range(0..2) });
    let mut x = Array2::zeros((n, d));
    for i in 0..n {
        for j in 0..d {
            if rng.random::<f64>() < sparsity {
                continue;
            }
            let centre = if j == 0 {
                shift * (2.0 * y[i] as f64 - 1.0)
            } else {
                0.0
            };
            x[[i, j]] = centre + rng.random_range(-1.0..1.0);
        }
    }
    Data {
        x,
        y,
        weights: Array1::ones(n),
    }
}
