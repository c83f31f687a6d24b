//! `gendisc compare`: Ng & Jordan's question — generative or discriminative, and from which
//! training-set size on? — asked of the user's own data file. The comparison itself (the
//! study, its analysis and its output files) is [`gendisc_compare`]'s, which Python's
//! `gendisc.compare` runs too; this module reads the file and the command line.
//!
//! A long comparison can be split over several processes or machines: `--shard I/N` runs only
//! the I-th of N fixed parts of the cells and writes only its result store; `--merge DIR,…`,
//! given every shard's output directory and the same data and design, checks that they are
//! every finished shard of this very comparison and writes the outputs of a single run, byte
//! for byte.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use gendisc_compare::{
    default_sizes, CompareStudy, Crossover, DataDescription, Design, ModelKind, RunOptions,
    DEFAULT_GRID_POINTS, STORE,
};
use gendisc_core::ColumnEncoding;
use gendisc_data::encoding::CategoricalAs;
use gendisc_engine::{Progress, RunReport, Shard, StudyError};

use crate::input::{self, read_training_table, DataArgs};

/// Which models learn better from how many rows: learning curves of generative and
/// discriminative classifiers on your data, and the training size from which each
/// discriminative model overtakes each generative one.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The data file and how to read it (as for `gendisc fit`); a categorical feature column
    /// becomes an indicator column of each level that occurs but the first (treatment
    /// contrasts, as R codes a factor).
    #[command(flatten)]
    pub input: DataArgs,

    /// The models to compare, comma-separated: nb (Gaussian naive Bayes), lr (logistic
    /// regression), hybrid (Raina et al.'s hybrid over Gaussian naive Bayes), gdt-cv (GDT over
    /// LDA, λ by cross-validation; the slowest, as each fit cross-validates five λ), lda,
    /// qda.
    #[arg(long, value_delimiter = ',', default_value = "nb,lr,hybrid")]
    pub models: Vec<String>,

    /// Training sizes, comma-separated and increasing; default about ten sizes spaced
    /// geometrically from two rows per class to 80% of the rows.
    #[arg(long, value_delimiter = ',', value_name = "M,M,…")]
    pub sizes: Option<Vec<usize>>,

    /// The number of sizes of the default grid (ignored with --sizes).
    #[arg(long, default_value_t = DEFAULT_GRID_POINTS, value_name = "N")]
    pub grid_points: usize,

    /// Random training sets per size.
    #[arg(long, default_value_t = 200)]
    pub replicates: usize,

    /// The seed of every split and of the bootstrap.
    #[arg(long, default_value_t = 2001)]
    pub seed: u64,

    /// Test on at most this many rows per replicate (a stratified sample of the rows outside
    /// the training set); default every such row.
    #[arg(long, value_name = "ROWS")]
    pub max_test: Option<usize>,

    /// Shrink the covariances of lda, qda and gdt-cv toward the scaled identity by W ∈ [0, 1):
    /// `(1 − W) S + W (tr S / d) I`, as `gendisc fit lda --shrinkage` does. Without it a column
    /// constant within a class, or more columns than rows, leaves them no fit on small
    /// training sets.
    #[arg(long, value_name = "W")]
    pub shrinkage: Option<f64>,

    /// Worker threads; default one per CPU. The results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,

    /// The output directory (created if needed); a run into a directory that holds a finished
    /// or interrupted run of the same configuration resumes it.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,

    /// Run only shard I of N (1 ≤ I ≤ N) of the cells — those whose position in the canonical
    /// order is I − 1 modulo N, whatever the thread count — and write only their result store
    /// (cells.jsonl, with the shard in its header) into --out; no report. Give each shard its
    /// own --out (a shard never replaces the store of another run), then combine them with
    /// --merge.
    #[arg(long, value_name = "I/N", conflicts_with = "merge")]
    pub shard: Option<Shard>,

    /// Merge the shards run into these directories (every shard of the split, once each, with
    /// the same data, models, sizes, replicates, seed and test cap) and write the outputs of a
    /// single run into --out instead of running cells. For example:
    /// `for i in 1 2 3; do gendisc compare --data t.csv --shard $i/3 --out s$i; done`, then
    /// `gendisc compare --data t.csv --merge s1,s2,s3 --out comparison`.
    #[arg(long, value_name = "DIR,DIR,…", value_delimiter = ',', num_args = 1..)]
    pub merge: Vec<PathBuf>,
}

/// Runs `gendisc compare`: reads the data, runs (or resumes) the comparison and writes every
/// output into `args.out`, then prints how the run went and the crossover sizes.
pub fn run(args: &Args) -> Result<()> {
    compare(args).map(|_| ())
}

/// [`run`], returning the engine's account of the run (cells run and resumed).
pub fn compare(args: &Args) -> Result<RunReport> {
    if args.grid_points == 0 {
        bail!("--grid-points must be at least 1");
    }
    let models = args
        .models
        .iter()
        .map(|name| name.parse::<ModelKind>())
        .collect::<Result<Vec<_>, _>>()?;

    let file = args.input.data.display().to_string();
    let Some(table) = read_training_table(&args.input)? else {
        bail!("{file}: compare reads tables (CSV, TSV, ARFF, UCI .data), not LIBSVM files");
    };
    // Every model compared is one of continuous features, and logistic regression is R's glm:
    // a factor is coded as R codes it, lest its indicators be collinear with the intercept.
    let encoded = input::training(&args.input, Some(&table), CategoricalAs::Treatment)?;
    if encoded.n_dropped > 0 {
        eprintln!("left out {} rows with a missing value", encoded.n_dropped);
    }
    // The columns the encoding coded, as it recorded them.
    let categorical: Vec<&str> = encoded
        .preprocessing
        .columns
        .iter()
        .filter(|column| matches!(column.encoding, ColumnEncoding::Treatment { .. }))
        .map(|column| column.name.as_str())
        .collect();
    let class_counts = table.class_counts();
    let sizes = match &args.sizes {
        Some(sizes) => sizes.clone(),
        None => default_sizes(&class_counts, args.grid_points),
    };
    let design = Design {
        sizes,
        replicates: args.replicates,
        seed: args.seed,
        models,
        max_test: args.max_test,
        shrinkage: args.shrinkage,
    };
    let study = CompareStudy::new(encoded.x, table.targets().clone(), design)
        .with_context(|| format!("cannot compare on {file}"))?;
    let description = DataDescription {
        file: &file,
        target: table.class_name(),
        features: encoded.feature_names.iter().map(String::as_str).collect(),
        categorical,
        classes: table.classes().labels().to_vec(),
        class_counts,
    };
    let options = RunOptions {
        threads: args.threads,
        progress: Progress::Auto,
        shard: args.shard,
        merge: args.merge.clone(),
    };
    let comparison = match gendisc_compare::compare(&study, &description, &args.out, &options) {
        Err(StudyError::ShardFinished(shards)) => return shard_stored(args, &shards),
        Err(error @ (StudyError::ShardMerge { .. } | StudyError::ShardsMissing { .. })) => {
            return Err(error).context(
                "the shards were not merged: give the output directory of every shard, once \
                 each, with the data and design (--models, --sizes, --grid-points, \
                 --replicates, --seed, --max-test) they ran with",
            );
        }
        Err(error @ StudyError::StoreMismatch { .. }) if args.shard.is_some() => {
            return Err(error)
                .context("a shard run replaces no result store: give each shard its own --out");
        }
        Err(error @ StudyError::Write { .. }) => return Err(error.into()),
        other => other.with_context(|| format!("cannot compare on {file}"))?,
    };
    let report = &comparison.report;
    if report.discarded_mismatched_store {
        eprintln!(
            "note: {} held a run of another configuration; it was started afresh",
            args.out.join(STORE).display()
        );
    }
    let design = study.design();
    println!(
        "{} cells ({} sizes × {} replicates): {} run, {} resumed, in {:.1} s",
        report.cells,
        design.sizes.len(),
        design.replicates,
        report.ran,
        report.resumed,
        report.elapsed.as_secs_f64()
    );
    for pair in &comparison.analysis.pairs {
        let crossover = match pair.crossover {
            Crossover::At(m) => format!("m = {m}"),
            Crossover::NoneInRange => "none in range".into(),
        };
        println!(
            "crossover {} over {}: {crossover}",
            pair.discriminative, pair.generative
        );
    }
    println!(
        "wrote {} into {}",
        gendisc_compare::outputs::REPORT_MD,
        args.out.display()
    );
    Ok(report.clone())
}

/// Says what a shard run (`--shard`) stored and how to merge it; returns its report.
fn shard_stored(args: &Args, shards: &[gendisc_engine::ShardRun]) -> Result<RunReport> {
    let Some(run) = shards.first() else {
        bail!("the shard run ended without saying what it stored");
    };
    let report = &run.report;
    println!(
        "shard {}: {} cells: {} run, {} resumed, in {:.1} s; stored in {}",
        run.shard,
        report.cells,
        report.ran,
        report.resumed,
        report.elapsed.as_secs_f64(),
        args.out.join(STORE).display()
    );
    println!(
        "a shard writes no report: once all {} shards have run, merge them with --merge \
         DIR,DIR,… (each shard's --out) and the same data and design",
        run.shard.count()
    );
    Ok(report.clone())
}
