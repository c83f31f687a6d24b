//! The paper reproductions, one module per paper. Everything specific to a paper — its design,
//! its datasets' roles, the claims it makes and how our results are judged against them —
//! lives here, never in the model crates.

pub mod bouchard_triggs;
pub mod epshteyn_dejong;
#[cfg(test)]
pub(crate) mod given;
pub mod inputs;
pub mod ng_jordan;
pub mod raina;
pub mod xue_titterington;

use std::path::Path;

use gendisc_engine::{Result, Runner, RunnerSettings, Study, StudyError, StudyResults};

use crate::paper::Paper;

/// Every reproduced paper, in the order `cargo xtask reproduce` runs them: the one list a new
/// paper is added to.
pub fn registry() -> &'static [&'static dyn Paper] {
    &[
        &xue_titterington::XueTitterington,
        &ng_jordan::NgJordan,
        &raina::Raina,
        &bouchard_triggs::BouchardTriggs,
        &epshteyn_dejong::EpshteynDeJong,
    ]
}

/// The paper whose [`id`](Paper::id) is `id`.
pub fn find(id: &str) -> Option<&'static dyn Paper> {
    registry().iter().copied().find(|paper| paper.id() == id)
}

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

/// Runs `study` with its result store at `out/cells.jsonl` ([`run_stored`]), then writes its
/// outputs under `out` with `write_outputs`: a reproduction of one study, whole.
pub(crate) fn run_and_write<S: Study>(
    study: &S,
    out: &Path,
    runner: RunnerSettings,
    write_outputs: fn(&Path, &S, &StudyResults) -> Result<()>,
) -> Result<StudyResults> {
    let results = run_stored(study, out, "cells.jsonl", runner)?;
    write_outputs(out, study, &results)?;
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
        split: if i.is_multiple_of(3) {
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use gendisc_engine::{RunReport, Shard, ShardRun, StudyError};

    use super::then_shard;

    fn finished(study: &str) -> StudyError {
        StudyError::ShardFinished(vec![ShardRun {
            study: study.into(),
            shard: Shard::new(2, 3).unwrap(),
            store: None,
            report: RunReport {
                cells: 4,
                resumed: 0,
                ran: 4,
                duplicate_lines: 0,
                discarded_partial_line: false,
                discarded_mismatched_store: false,
                elapsed: Duration::ZERO,
            },
        }])
    }

    fn studies(result: gendisc_engine::Result<()>) -> Vec<String> {
        match result {
            Err(StudyError::ShardFinished(runs)) => runs.into_iter().map(|r| r.study).collect(),
            other => panic!("not a finished shard: {other:?}"),
        }
    }

    #[test]
    fn a_shard_of_the_first_study_runs_the_second_s_and_reports_both() {
        let both = then_shard(Err(finished("figure1")), || {
            Some(Err::<(), _>(finished("table1")))
        });
        assert_eq!(studies(both), ["figure1", "table1"]);
        // The second study cannot run (its data are missing): the first's shard alone.
        let alone = then_shard(Err(finished("figure1")), || {
            None::<gendisc_engine::Result<()>>
        });
        assert_eq!(studies(alone), ["figure1"]);
        // The second study's failure is the run's.
        let failed = then_shard::<(), ()>(Err(finished("figure1")), || {
            Some(Err(StudyError::InvalidStudy {
                study: "table1".into(),
                reason: "broken".into(),
            }))
        });
        assert!(matches!(failed, Err(StudyError::InvalidStudy { .. })));
    }

    #[test]
    fn a_whole_run_or_a_failure_of_the_first_study_does_not_run_the_second() {
        let mut ran = false;
        assert_eq!(
            then_shard(Ok(7), || {
                ran = true;
                None::<gendisc_engine::Result<()>>
            })
            .unwrap(),
            7
        );
        let failed = then_shard::<(), ()>(
            Err(StudyError::InvalidStudy {
                study: "figure1".into(),
                reason: "broken".into(),
            }),
            || {
                ran = true;
                None
            },
        );
        assert!(matches!(failed, Err(StudyError::InvalidStudy { .. })));
        assert!(!ran);
    }
}
