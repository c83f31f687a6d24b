//! The [`Study`] trait: an experiment described as data.

use gendisc_data::splits::{replicate_seed, SeedPart};
use serde::Serialize;

use crate::cell::{Cell, Outcome, Schema};

/// An experiment as data: datasets × training sizes × replicates × classifiers → metrics.
///
/// A study lists its cells in canonical order ([`Study::cells`]) and computes one cell at a time
/// ([`Study::run_cell`]); the [`Runner`](crate::Runner) does the rest — parallel execution,
/// persistence, resumption, ordering. The contract that makes results reproducible:
///
/// * **all randomness of a cell comes from [`Cell::rng`]** (or another stream derived from the
///   cell's coordinates only), never from a generator shared between cells, so an outcome does
///   not depend on which thread runs the cell or when;
/// * [`Study::cells`] and the outcomes are functions of the configuration, and
///   [`Study::fingerprint`] changes whenever the configuration — or the code, through a version
///   number in the fingerprint — changes what a cell computes. A result store is only resumed
///   when identifier, fingerprint and schema all match its header.
///
/// `run_cell` is called from several threads at once, hence `Sync`.
///
/// ```
/// use gendisc_engine::{fingerprint, Cell, Outcome, Runner, Schema, Study};
/// use rand::Rng;
///
/// /// Estimates a coin's bias from `train_size` tosses.
/// struct Coin { seed: u64, schema: Schema }
///
/// impl Study for Coin {
///     fn id(&self) -> &str { "coin" }
///     fn fingerprint(&self) -> String { fingerprint(&("coin v1", self.seed)) }
///     fn schema(&self) -> &Schema { &self.schema }
///     fn cells(&self) -> Vec<Cell> { Cell::grid(&["fair"], &[10, 100], 20) }
///     fn run_cell(&self, cell: &Cell) -> gendisc_core::Result<Outcome> {
///         let mut rng = cell.rng(self.seed);
///         let heads = (0..cell.train_size).filter(|_| rng.random_bool(0.5)).count();
///         let mut outcome = Outcome::new(&self.schema);
///         outcome.set(0, 0, (heads as f64 / cell.train_size as f64 - 0.5).abs())?;
///         Ok(outcome)
///     }
/// }
///
/// let study = Coin { seed: 1, schema: Schema::new(["frequency"], ["abs-error"])? };
/// let results = Runner::default().run(&study)?;
/// assert_eq!(results.outcomes().len(), 40);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Study: Sync {
    /// A stable identifier, e.g. `"xue-titterington"`: written to the result store's header and
    /// shown by the progress bar.
    fn id(&self) -> &str;

    /// A fingerprint of everything that decides the cells and their outcomes (seed, grid,
    /// hyper-parameters, a version number bumped when the computation changes), typically
    /// [`fingerprint`]`(&config)`. A result store with another fingerprint is never resumed.
    fn fingerprint(&self) -> String;

    /// The classifiers and metrics of every outcome.
    fn schema(&self) -> &Schema;

    /// Every cell, in canonical order (the order of tables and of the result file); no cell
    /// twice.
    fn cells(&self) -> Vec<Cell>;

    /// Runs one cell: draws its data and split from [`Cell::rng`], fits every classifier and
    /// measures every metric. An error stops the run or is collected, as
    /// [`OnCellError`](crate::OnCellError) says; the runner adds the cell to it.
    fn run_cell(&self, cell: &Cell) -> gendisc_core::Result<Outcome>;

    /// What `cell` is expected to cost next to the study's other cells, for scheduling only:
    /// the runner starts cells in decreasing order of it, so that the longest run while others
    /// remain to fill the other threads, rather than last with every other thread idle. The
    /// default is the training-set size, which most fits grow with. Results never depend on it.
    fn relative_cost(&self, cell: &Cell) -> f64 {
        cell.train_size as f64
    }
}

/// A stable fingerprint of a configuration: 16 hexadecimal digits of a fixed 64-bit hash
/// ([`replicate_seed`]) of its JSON serialisation.
///
/// The hash depends only on the serialised text, never on Rust's `Hasher`s, so it is the same on
/// every platform and compiler version. Serialise what decides the outcomes — including a
/// version number to bump when the computation itself changes — and nothing else.
///
/// ```
/// use gendisc_engine::fingerprint;
/// let a = fingerprint(&("xue-titterington v1", 20_240_601_u64, [100, 125, 150]));
/// assert_eq!(a.len(), 16);
/// assert_eq!(a, fingerprint(&("xue-titterington v1", 20_240_601_u64, [100, 125, 150])));
/// assert_ne!(a, fingerprint(&("xue-titterington v1", 20_240_602_u64, [100, 125, 150])));
/// ```
pub fn fingerprint<C: Serialize + ?Sized>(configuration: &C) -> String {
    // Serialising plain configuration data (numbers, strings, sequences, maps with string keys)
    // cannot fail; a type whose `Serialize` does fail still gets a stable, distinct fingerprint.
    let text = serde_json::to_string(configuration)
        .unwrap_or_else(|error| format!("unserialisable configuration: {error}"));
    format!(
        "{:016x}",
        replicate_seed(FINGERPRINT_DOMAIN, &[SeedPart::Name(&text)])
    )
}

/// The seed of the fingerprint hash, so that fingerprints and replicate seeds live in
/// different domains of the same hash ("gendisc" in ASCII).
const FINGERPRINT_DOMAIN: u64 = 0x67_656e_6469_7363;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprint_is_a_fixed_function_of_the_json() {
        let value = serde_json::json!({"seed": 3, "sizes": [1, 2]});
        let expected = format!(
            "{:016x}",
            replicate_seed(
                FINGERPRINT_DOMAIN,
                &[SeedPart::Name(r#"{"seed":3,"sizes":[1,2]}"#)]
            )
        );
        assert_eq!(fingerprint(&value), expected);
        assert_ne!(
            fingerprint(&[1.0, 2.0]),
            fingerprint(&[1.0, 2.000_000_000_000_001])
        );
        assert!(fingerprint("x").bytes().all(|b| b.is_ascii_hexdigit()));
    }
}
