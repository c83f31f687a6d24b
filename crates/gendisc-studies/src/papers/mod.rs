//! The paper reproductions, one module per paper. Everything specific to a paper — its design,
//! its datasets' roles, the claims it makes and how our results are judged against them —
//! lives here, never in the model crates.

pub mod bouchard_triggs;
pub mod epshteyn_dejong;
pub mod ng_jordan;
pub mod raina;
pub mod xue_titterington;

use std::path::Path;

use gendisc_engine::{Result, Runner, RunnerSettings, Study, StudyResults};

/// Runs `study` with its result store at `out/store` — resuming from it when it holds cells of
/// the same configuration — as every reproduction does before writing its outputs, and writes
/// the per-replicate results beside the store as CSV (`cells.jsonl` → `cells.csv`, see
/// [`gendisc_engine::interchange`]).
pub(crate) fn run_stored<S: Study + ?Sized>(
    study: &S,
    out: &Path,
    store: &str,
    runner: RunnerSettings,
) -> Result<StudyResults> {
    let results = Runner::new(RunnerSettings {
        store: Some(out.join(store)),
        ..runner
    })?
    .run(study)?;
    gendisc_engine::interchange::write_results_csv(&results, &out.join(store))?;
    Ok(results)
}

/// The `i`-th posting of group `group` in the text studies' synthetic collections: every third
/// in the bydate test half, decoded as UTF-8.
#[cfg(test)]
pub(crate) fn test_posting(group: usize, i: usize, text: String) -> gendisc_text::Posting {
    use gendisc_text::{Encoding, Split};
    gendisc_text::Posting {
        split: if i % 3 == 0 {
            Split::Test
        } else {
            Split::Train
        },
        group,
        id: i.to_string(),
        text,
        encoding: Encoding::Utf8,
    }
}
