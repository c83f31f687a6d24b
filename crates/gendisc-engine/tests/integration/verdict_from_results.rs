//! The judging module on a study's own results: evidence gathered from the cells, paired by
//! replicate.

use gendisc_engine::verdict::{Better, Claim, Evidence, Statement, Verdict, Window, Word};
use gendisc_engine::{fingerprint, Cell, Outcome, Runner, Schema, Study};
use rand::Rng;

/// Two estimators of a uniform mean from `m` draws: the sample mean ("full") and the mean of
/// the first half of the draws ("half"), which shares the replicate's draws and is worse.
struct Halves {
    schema: Schema,
}

impl Study for Halves {
    fn id(&self) -> &str {
        "halves"
    }
    fn fingerprint(&self) -> String {
        fingerprint("halves v1")
    }
    fn schema(&self) -> &Schema {
        &self.schema
    }
    fn cells(&self) -> Vec<Cell> {
        // Replicate-major order: the evidence must not depend on it.
        let mut cells = Cell::grid(&["uniform"], &[8, 32, 128], 40);
        cells.sort_by_key(|c| (c.replicate, c.train_size));
        cells
    }
    fn run_cell(&self, cell: &Cell) -> gendisc_core::Result<Outcome> {
        let mut rng = cell.rng(7);
        let draws: Vec<f64> = (0..cell.train_size).map(|_| rng.random::<f64>()).collect();
        let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
        let mut outcome = Outcome::new(&self.schema);
        outcome.set(0, 0, (mean(&draws) - 0.5).powi(2))?;
        outcome.set(1, 0, (mean(&draws[..draws.len() / 2]) - 0.5).powi(2))?;
        Ok(outcome)
    }
}

#[test]
fn evidence_from_results_pairs_replicates() {
    let study = Halves {
        schema: Schema::new(["full", "half"], ["squared-error"]).unwrap(),
    };
    let results = Runner::default().run(&study).unwrap();
    let evidence = Evidence::from_results_named(
        &results,
        "squared-error",
        &["full", "half"],
        &["sample mean", "half-sample mean"],
        Better::Lower,
    )
    .unwrap();
    assert_eq!(evidence.points().len(), 3);
    assert!(evidence.points().iter().all(|p| p.values[0].len() == 40));
    assert_eq!(evidence.grid(), vec![8, 32, 128]);
    let claim = Claim::new(
        "full",
        "the full sample does better",
        Statement::Beats {
            a: "sample mean".into(),
            b: "half-sample mean".into(),
        },
    )
    .window(Window::All, "every size");
    let verdict = Verdict::judge(&claim, &evidence, "sizes").unwrap();
    assert_ne!(verdict.word, Word::NotAssessed);
    assert_eq!(verdict.tally.total(), 3);
    // Unknown names are errors, not panics.
    assert!(Evidence::from_results(&results, "nope", &["full"], Better::Lower).is_err());
    assert!(Evidence::from_results(&results, "squared-error", &["nope"], Better::Lower).is_err());
}
