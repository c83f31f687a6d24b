//! The paper reproductions, one module per paper. Everything specific to a paper — its design,
//! its datasets' roles, the claims it makes and how our results are judged against them —
//! lives here, never in the model crates.

pub mod bouchard_triggs;
pub mod epshteyn_dejong;
pub mod ng_jordan;
pub mod raina;
pub mod xue_titterington;

use std::path::Path;

use gendisc_engine::{Result, Runner, RunnerSettings, Study, StudyError, StudyResults};

/// Runs `study` with its result store at `out/store` — resuming from it when it holds cells of
/// the same configuration — as every reproduction does before writing its outputs, and writes
/// the per-replicate results beside the store as CSV (`cells.jsonl` → `cells.csv`, see
/// [`gendisc_engine::interchange`]).
///
/// Reproductions take [`RunnerSettings::merge_shards`] as the output directories of the shard
/// runs to merge: the store read from each is the file named `store` there. A shard run ends
/// here, with [`StudyError::ShardFinished`], before anything but its store is written.
pub(crate) fn run_stored<S: Study + ?Sized>(
    study: &S,
    out: &Path,
    store: &str,
    runner: RunnerSettings,
) -> Result<StudyResults> {
    let merge_shards = runner
        .merge_shards
        .iter()
        .map(|dir| dir.join(store))
        .collect();
    let results = Runner::new(RunnerSettings {
        store: Some(out.join(store)),
        merge_shards,
        ..runner
    })?
    .run(study)?;
    gendisc_engine::interchange::write_results_csv(&results, &out.join(store))?;
    Ok(results)
}

/// `first`, the run of a reproduction's first study; when it is a finished shard, the second
/// study's shard is run too (`second`, `None` when that study cannot run) and both shards are
/// reported together, so that a shard run of the reproduction runs the same shard of each.
pub(crate) fn then_shard<T, U>(
    first: Result<T>,
    second: impl FnOnce() -> Option<Result<U>>,
) -> Result<T> {
    let Err(StudyError::ShardFinished(mut shards)) = first else {
        return first;
    };
    match second() {
        Some(Err(StudyError::ShardFinished(more))) => shards.extend(more),
        Some(Err(error)) => return Err(error),
        Some(Ok(_)) | None => {}
    }
    Err(StudyError::ShardFinished(shards))
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
