//! Linear SVMs in a few lines: a soft-margin fit on dense and on sparse data with its solver
//! report, a hard margin that refuses overlapping classes, and one-vs-rest on three classes.
//!
//! `cargo run -p gendisc-discriminative --example svm_linear`

use gendisc_core::{Classifier, Error, Fit};
use gendisc_discriminative::svm::LinearSvm;
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sprs::CsMat;

/// `n` rows in `d` dimensions around `centres[k]` (uniform noise of half-width `spread`),
/// classes taken in turn.
fn clouds(centres: &[Vec<f64>], n: usize, spread: f64, seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let d = centres[0].len();
    let y = Array1::from_shape_fn(n, |i| i % centres.len());
    let x = Array2::from_shape_fn((n, d), |(i, j)| {
        centres[y[i]][j] + rng.random_range(-spread..spread)
    });
    (x, y)
}

fn main() -> Result<(), Error> {
    // Two overlapping classes: a soft margin.
    let (x, y) = clouds(&[vec![-1.0, 0.0, 0.0], vec![1.0, 0.5, 0.0]], 200, 1.5, 1);
    let svm = LinearSvm::params()
        .c(0.5)
        .tol(1e-6)
        .fit(x.view(), y.view())?;
    let report = &svm.reports()[0];
    println!("soft margin, C = 0.5, 200 × 3 dense");
    println!(
        "  w = {:.4}, b = {:.4}",
        svm.coef().row(0),
        svm.intercept()[0]
    );
    println!(
        "  {:?} after {} iterations; primal {:.6}, dual {:.6}, gap {:.1e} (‖w̃ − w̃*‖ ≤ {:.1e})",
        report.status,
        report.iterations,
        report.primal_objective,
        report.dual_objective,
        report.duality_gap,
        report.weight_error_bound()
    );
    println!(
        "  {} support vectors, {} at the bound C",
        report.n_support_vectors, report.n_bounded_support_vectors
    );
    let accuracy = |predicted: &Array1<usize>, truth: &Array1<usize>| {
        predicted.iter().zip(truth).filter(|(p, t)| p == t).count() as f64 / truth.len() as f64
    };
    println!(
        "  training accuracy {:.3}",
        accuracy(&svm.predict(x.view())?, &y)
    );

    // The same data as a sparse matrix: the same optimum.
    let csr = CsMat::csr_from_dense(x.view(), 0.0);
    let sparse = LinearSvm::params()
        .c(0.5)
        .tol(1e-6)
        .fit_sparse(csr.view(), y.view())?;
    let difference = (&sparse.coef() - &svm.coef()).mapv(f64::abs).sum();
    println!("  sparse fit: Σ|Δw| = {difference:.1e}");

    // A hard margin on the same (overlapping) classes is infeasible, with a certificate.
    match LinearSvm::params().hard_margin().fit(x.view(), y.view()) {
        Err(e @ Error::Infeasible { .. }) => {
            println!("\nhard margin on overlapping classes:\n  {e}")
        }
        other => println!("\nunexpected: {other:?}"),
    }
    // On separated classes it finds the maximum-margin hyperplane.
    let (xs, ys) = clouds(&[vec![-2.0, 0.0], vec![2.0, 1.0]], 100, 1.0, 2);
    let hard = LinearSvm::params()
        .hard_margin()
        .fit(xs.view(), ys.view())?;
    let w = hard.coef().row(0).to_owned();
    println!(
        "hard margin on separated classes: w = {:.4}, b = {:.4}, geometric margin {:.4}",
        w,
        hard.intercept()[0],
        1.0 / w.dot(&w).sqrt()
    );

    // Three classes: one-vs-rest, one row of coefficients per class.
    let (x3, y3) = clouds(
        &[vec![0.0, 0.0], vec![3.0, 0.0], vec![0.0, 3.0]],
        150,
        1.5,
        3,
    );
    let ovr = LinearSvm::params().fit(x3.view(), y3.view())?;
    println!("\none-vs-rest on 3 classes: coef =\n{:.4}", ovr.coef());
    println!(
        "  training accuracy {:.3}",
        accuracy(&ovr.predict(x3.view())?, &y3)
    );
    Ok(())
}
