//! Generates `examples/data/machines.csv`, the small sample table the other examples read.
//!
//! ```text
//! cargo run -p gendisc-examples --example make_sample_data            # check the committed file
//! cargo run -p gendisc-examples --example make_sample_data -- --write # rewrite it
//! ```
//!
//! 300 readings of a machine — temperature (°C), vibration (mm/s), pressure (bar) and motor
//! current (A) — labelled `normal` (180 rows) or `faulty` (120 rows). Each class is a
//! multivariate normal whose temperature and current are correlated, so that naive Bayes'
//! independence assumption is wrong but not absurd: the data where generative and
//! discriminative classifiers are worth comparing. The numbers are made up; the seed fixes
//! every draw, so the file is the same on every run.
//!
//! Without arguments the program checks that the committed file is what it generates (an
//! example run under `cargo xtask test` must not write into the source tree).

use std::path::Path;

use gendisc::data::generators::MultivariateNormal;
use gendisc::data::splits::replicate_rng;
use gendisc::ndarray::{array, Array1, Array2};

/// The seed of every draw.
const SEED: u64 = 20_260_101;

/// The file, relative to this package's directory.
const SAMPLE: &str = "data/machines.csv";

/// Rows per class, and the classes' names.
const CLASSES: [(&str, usize); 2] = [("normal", 180), ("faulty", 120)];

/// The covariance `D R D` of standard deviations `sd` and correlations `r`.
fn covariance(sd: &Array1<f64>, r: &Array2<f64>) -> Array2<f64> {
    Array2::from_shape_fn(r.dim(), |(i, j)| sd[i] * r[[i, j]] * sd[j])
}

/// The table as CSV text.
fn generate() -> gendisc::Result<String> {
    // temperature, vibration, pressure, current
    let correlation = array![
        [1.0, 0.3, 0.0, 0.7],
        [0.3, 1.0, -0.2, 0.2],
        [0.0, -0.2, 1.0, 0.0],
        [0.7, 0.2, 0.0, 1.0],
    ];
    let normal = MultivariateNormal::new(
        array![65.0, 2.5, 4.0, 12.0],
        covariance(&array![4.0, 0.8, 0.3, 1.5], &correlation),
    )?;
    let faulty = MultivariateNormal::new(
        array![69.0, 3.4, 3.8, 13.0],
        covariance(&array![4.5, 1.0, 0.35, 1.6], &correlation),
    )?;
    let mut rng = replicate_rng(SEED, &["machines".into()]);
    let rows = [
        normal.sample(CLASSES[0].1, &mut rng),
        faulty.sample(CLASSES[1].1, &mut rng),
    ];

    // Interleave the classes (two faulty rows in every five) so that the file reads like data
    // collected over time rather than sorted by class.
    let mut next = [0usize; 2];
    let mut csv = String::from("temperature,vibration,pressure,current,state\n");
    for i in 0..CLASSES[0].1 + CLASSES[1].1 {
        let class = usize::from(i % 5 < 2);
        let row = rows[class].row(next[class]);
        next[class] += 1;
        csv.push_str(&format!(
            "{:.1},{:.2},{:.2},{:.2},{}\n",
            row[0], row[1], row[2], row[3], CLASSES[class].0
        ));
    }
    Ok(csv)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(SAMPLE);
    let csv = generate()?;
    match std::env::args().nth(1).as_deref() {
        Some("--write") => {
            std::fs::write(&path, &csv)?;
            println!(
                "wrote {} ({} rows)",
                path.display(),
                csv.lines().count() - 1
            );
        }
        None => {
            let committed = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            if committed != csv {
                return Err(format!(
                    "{} is not what this program generates; rerun it with --write",
                    path.display()
                )
                .into());
            }
            println!(
                "{} is up to date ({} rows)",
                path.display(),
                csv.lines().count() - 1
            );
        }
        Some(other) => return Err(format!("unknown argument {other:?}; expected --write").into()),
    }
    Ok(())
}
