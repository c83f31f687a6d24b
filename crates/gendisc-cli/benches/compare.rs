//! `gendisc compare` end to end, as a user runs it, in a fresh output directory each time so
//! that nothing is resumed:
//!
//! * a 1,000-row, 10-feature file with nb, lr and hybrid, 13 training sizes × 200 replicates
//!   (7,800 cells of three fits each);
//! * UCI sonar (208 rows, 60 features; read from `$GENDISC_DATA/uci/sonar/sonar.all-data`,
//!   skipped when absent) with nb, lr and gdt-cv, the default 10 sizes × 20 replicates: GDT over
//!   the LDA family has 1,951 parameters there, so its fits are L-BFGS's, on ill-conditioned
//!   inputs (the pooled covariance's condition number is about 9·10⁴).
//!
//! `cargo bench -p gendisc-cli --bench compare` (or `cargo xtask bench -p gendisc-cli`); the
//! binary is the one `cargo bench` builds, in the release profile.

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

/// Rows, features and the seed of the benchmark's table.
const ROWS: usize = 1_000;
const FEATURES: usize = 10;
const SEED: u64 = 20_261_125;

/// Two classes of 500 rows whose means differ by 0.4 in every feature and whose features are
/// correlated within a class (a shared factor), so that naive Bayes is misspecified and the
/// comparison has a crossover to find.
fn write_table(path: &Path) {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut text = String::new();
    let header: Vec<String> = (1..=FEATURES).map(|j| format!("x{j}")).collect();
    writeln!(text, "{},class", header.join(",")).unwrap();
    for i in 0..ROWS {
        let class = i % 2;
        let factor: f64 = rng.sample(StandardNormal);
        for j in 0..FEATURES {
            let noise: f64 = rng.sample(StandardNormal);
            let value = 0.4 * class as f64 + 0.6 * factor + noise * (1.0 + j as f64 / 10.0);
            write!(text, "{value:.6},").unwrap();
        }
        writeln!(text, "{}", if class == 1 { "yes" } else { "no" }).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

fn compare(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("table.csv");
    write_table(&data);
    let mut group = c.benchmark_group("gendisc compare");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(30));
    group.bench_function(
        "1000 rows × 10 features, nb/lr/hybrid, 13 sizes × 200 replicates",
        |b| {
            b.iter_batched(
                || tempfile::tempdir_in(dir.path()).unwrap(),
                |out| {
                    let status = Command::new(env!("CARGO_BIN_EXE_gendisc"))
                        .args(["compare", "--data"])
                        .arg(&data)
                        .args(["--models", "nb,lr,hybrid", "--grid-points", "13"])
                        .args(["--replicates", "200", "--out"])
                        .arg(out.path())
                        .stderr(std::process::Stdio::null())
                        .stdout(std::process::Stdio::null())
                        .status()
                        .unwrap();
                    assert!(status.success(), "gendisc compare failed");
                    out
                },
                BatchSize::PerIteration,
            );
        },
    );
    group.finish();
}

fn compare_sonar(c: &mut Criterion) {
    let Some(data) = std::env::var_os("GENDISC_DATA")
        .map(|dir| Path::new(&dir).join("uci/sonar/sonar.all-data"))
        .filter(|path| path.is_file())
    else {
        eprintln!("skipped: $GENDISC_DATA/uci/sonar/sonar.all-data not found");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut group = c.benchmark_group("gendisc compare");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(60));
    group.bench_function("UCI sonar, nb/lr/gdt-cv, 10 sizes × 20 replicates", |b| {
        b.iter_batched(
            || tempfile::tempdir_in(dir.path()).unwrap(),
            |out| {
                let status = Command::new(env!("CARGO_BIN_EXE_gendisc"))
                    .args(["compare", "--no-header", "--data"])
                    .arg(&data)
                    .args(["--models", "nb,lr,gdt-cv", "--replicates", "20", "--out"])
                    .arg(out.path())
                    .stderr(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .status()
                    .unwrap();
                assert!(status.success(), "gendisc compare failed");
                out
            },
            BatchSize::PerIteration,
        );
    });
    group.finish();
}

criterion_group!(benches, compare, compare_sonar);
criterion_main!(benches);
