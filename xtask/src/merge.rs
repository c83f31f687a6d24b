//! `cargo xtask merge`: the shards of a study (`cargo xtask reproduce STUDY --shard I/N`, each
//! into its own `--out`) combined into the outputs of a single run.
//!
//! The study's reproduction runs as usual into `--out`, except that each of its result stores
//! is first merged from the shards' stores rather than resumed or run: the engine checks that
//! they are every finished shard of one split of this very configuration (study, fingerprint —
//! hence `--quick` and the code's version —, schema, store format), with no cell twice and
//! none missing, and refuses otherwise, naming the file. The merged store is byte for byte the
//! store of an unsharded run, so the report, tables and figures written from it are too.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::reproduce::{self, study_names};

/// Arguments of `cargo xtask merge`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example: three shards of the quick Xue–Titterington study, then their \
                        merge:\n  for i in 1 2 3; do cargo xtask reproduce xue-titterington \
                        --quick --shard $i/3 --out shards/$i; done\n  cargo xtask merge \
                        xue-titterington shards/1 shards/2 shards/3 --out results"
)]
pub struct Args {
    /// The study whose shards to merge: one of xue-titterington, ng-jordan, raina,
    /// bouchard-triggs, epshteyn-dejong.
    study: String,
    /// The output directory of each shard run (its `--out`, which holds `<study>/`), or the
    /// shard's `<study>/` directory itself; every shard of the split, once each.
    #[arg(required = true, value_name = "DIR")]
    shards: Vec<PathBuf>,
    /// Directory under which the merged study writes `<study>/` (its stores and every output),
    /// as `cargo xtask reproduce --out` does.
    #[arg(long, default_value = "results")]
    out: PathBuf,
    /// The shards ran the reduced grid (`reproduce --quick`). Not needed with shards that
    /// record how they ran (every shard of this version does): the merge reads it from them.
    #[arg(long)]
    quick: bool,
    /// Worker threads for what is left to compute (the reports); the results do not depend on
    /// it.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Download nothing the study reads (see `cargo xtask reproduce --offline`).
    #[arg(long)]
    offline: bool,
    /// Run in the build `cargo xtask` was started from, even when it is not optimised, as
    /// `cargo xtask reproduce --unoptimised` does (the same bits, more slowly).
    #[arg(long)]
    pub unoptimised: bool,
}

/// Merges the shards and writes the study's outputs.
pub fn run(args: &Args) -> Result<()> {
    if !study_names().contains(&args.study.as_str()) {
        bail!(
            "unknown study `{}`; the studies are {}",
            args.study,
            study_names().join(", ")
        );
    }
    let merge = args
        .shards
        .iter()
        .map(|dir| study_dir(dir, &args.study))
        .collect::<Result<Vec<_>>>()?;
    eprintln!(
        "{}: merging {} shard{} into {}",
        args.study,
        merge.len(),
        if merge.len() == 1 { "" } else { "s" },
        args.out.join(&args.study).display()
    );
    let mut reproduce = reproduce::Args::default();
    reproduce.studies = vec![args.study.clone()];
    reproduce.quick = args.quick || shards_ran_quick(&merge)?;
    reproduce.out = args.out.clone();
    reproduce.offline = args.offline;
    reproduce.threads = args.threads;
    reproduce.merge = merge;
    reproduce::run(&reproduce).context(
        "the shards were not merged (the reason is above); when their fingerprint differs \
         from the merge's, --quick was most often given to the shard runs and not to the merge, \
         or the other way round",
    )
}

/// Whether the shards ran the reduced grid, as each recorded it; shards that disagree are an
/// error, and shards of earlier versions, which recorded nothing, count as the full grid.
fn shards_ran_quick(shards: &[PathBuf]) -> Result<bool> {
    let mut recorded = Vec::new();
    for dir in shards {
        let path = dir.join(reproduce::SHARD_CONFIGURATION);
        if !path.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let configuration: reproduce::ShardConfiguration = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a shard's configuration", path.display()))?;
        recorded.push((path, configuration.quick));
    }
    if let Some((first, quick)) = recorded.first()
        && let Some((other, _)) = recorded.iter().find(|(_, q)| q != quick)
    {
        bail!(
            "the shards ran different grids: {} says quick = {quick}, {} the opposite",
            first.display(),
            other.display()
        );
    }
    Ok(recorded.first().is_some_and(|(_, quick)| *quick))
}

/// The directory holding a shard's stores: `dir/<study>` when `dir` is a shard run's `--out`,
/// else `dir` itself.
fn study_dir(dir: &Path, study: &str) -> Result<PathBuf> {
    if !dir.is_dir() {
        bail!(
            "{}: no such directory; give the --out of each shard run",
            dir.display()
        );
    }
    let nested = dir.join(study);
    Ok(if nested.is_dir() {
        nested
    } else {
        dir.to_path_buf()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_is_found_in_its_out_or_its_study_directory() {
        let root = std::env::temp_dir().join(format!("xtask-merge-{}", std::process::id()));
        let nested = root.join("shard-1").join("raina");
        std::fs::create_dir_all(&nested).unwrap();
        assert_eq!(study_dir(&root.join("shard-1"), "raina").unwrap(), nested);
        assert_eq!(study_dir(&nested, "raina").unwrap(), nested);
        let error = study_dir(&root.join("absent"), "raina").unwrap_err();
        assert!(
            error.to_string().contains("absent: no such directory"),
            "{error}"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_grid_is_read_from_the_shards() {
        let root = std::env::temp_dir().join(format!("xtask-merge-grid-{}", std::process::id()));
        let shard = |name: &str, quick: Option<bool>| {
            let dir = root.join(name);
            std::fs::create_dir_all(&dir).unwrap();
            if let Some(quick) = quick {
                let text = serde_json::to_string(&reproduce::ShardConfiguration { quick }).unwrap();
                std::fs::write(dir.join(reproduce::SHARD_CONFIGURATION), text).unwrap();
            }
            dir
        };
        let (a, b, c) = (
            shard("a", Some(true)),
            shard("b", Some(true)),
            shard("c", Some(false)),
        );
        let old = shard("old", None);
        assert!(shards_ran_quick(&[a.clone(), b]).unwrap());
        assert!(!shards_ran_quick(std::slice::from_ref(&c)).unwrap());
        assert!(!shards_ran_quick(&[old]).unwrap());
        let error = shards_ran_quick(&[a, c]).unwrap_err().to_string();
        assert!(error.contains("the shards ran different grids"), "{error}");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
