//! GDT with λ chosen by cross-validation, on a CSV file.
//!
//! ```text
//! cargo run --release -p gendisc-gdt --example gdt_cv_csv [file.csv [class-column]]
//! ```
//!
//! Without arguments the example writes a small CSV of its own (the correlated-uniform
//! simulation of Bouchard & Triggs §4, 300 rows, seeded) to a temporary directory and reads it
//! back. With a file, every column but the class column (default: `class`) must be numeric.
//! Each of the four families of the paper's Table 1 is fitted with λ chosen by 5-fold
//! cross-validation over λ ∈ {1, 0.75, 0.5, 0.25, 0} on the first two thirds of the rows, and
//! scored on the last third.

use std::io::Write;
use std::path::PathBuf;

use gendisc_core::{Classifier, Fit, ParamGuard};
use gendisc_data::generators::BouchardTriggsSimulation;
use gendisc_data::loaders::TableReader;
use gendisc_gdt::{Family, GdtCv};
use ndarray::s;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Writes the simulated CSV and returns its path.
fn write_demo_csv() -> Result<PathBuf, Box<dyn std::error::Error>> {
    let dir = std::env::temp_dir().join(format!("gendisc-gdt-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("correlated-uniform.csv");
    let mut rng = ChaCha8Rng::seed_from_u64(2004);
    let (x, y) = BouchardTriggsSimulation::CorrelatedUniform.sample(300, &mut rng);
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path)?);
    writeln!(file, "x1,x2,x3,x4,class")?;
    for (row, label) in x.rows().into_iter().zip(y.iter()) {
        let cells: Vec<String> = row.iter().map(|v| format!("{v:.6}")).collect();
        writeln!(
            file,
            "{},{}",
            cells.join(","),
            if *label == 1 { "yes" } else { "no" }
        )?;
    }
    Ok(path)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (path, demo) = match args.next() {
        Some(p) => (PathBuf::from(p), false),
        None => (write_demo_csv()?, true),
    };
    let class_column = args.next().unwrap_or_else(|| "class".to_string());
    let table = TableReader::csv()
        .class_column(class_column.as_str())
        .read(&path)?;
    if demo {
        // The demo file has been read; leave nothing behind.
        if let Some(dir) = path.parent() {
            std::fs::remove_dir_all(dir)?;
        }
    }
    let x = table.to_dense()?;
    let y = table.targets().clone();
    let n_train = 2 * x.nrows() / 3;
    let (x_train, y_train) = (x.slice(s![..n_train, ..]), y.slice(s![..n_train]));
    let (x_test, y_test) = (x.slice(s![n_train.., ..]), y.slice(s![n_train..]));
    println!(
        "{}: {} rows, {} features, classes {:?}; training on {n_train}, testing on {}",
        path.display(),
        x.nrows(),
        x.ncols(),
        table.classes().labels(),
        x.nrows() - n_train
    );
    println!(
        "{:<8} {:>8} {:>34} {:>11}",
        "family", "λ̂", "CV error at λ = 1, .75, .5, .25, 0", "test error"
    );
    for family in Family::TABLE1 {
        let cv = GdtCv::params(family)
            .seed(1)
            .check()?
            .fit(x_train, y_train)?;
        let predicted = cv.predict(x_test)?;
        let errors = predicted
            .iter()
            .zip(y_test.iter())
            .filter(|(p, t)| p != t)
            .count();
        let scores: Vec<String> = cv
            .selection()
            .scores
            .iter()
            .map(|s| format!("{s:.3}"))
            .collect();
        println!(
            "{:<8} {:>8} {:>34} {:>11.3}   ({}, {} iterations)",
            family.name(),
            cv.lambda(),
            scores.join(" "),
            errors as f64 / y_test.len() as f64,
            cv.model().report().status,
            cv.model().report().iterations
        );
    }
    Ok(())
}
