//! From per-replicate errors to medians, paired differences and crossover sizes, each with a
//! percentile-bootstrap interval over replicates.
//!
//! **Crossover size.** For a discriminative model `D` and a generative model `G`, the paired
//! difference of a replicate is `error(D) − error(G)` on the same split. The crossover size is
//! the smallest grid size `m*` such that the median paired difference is below zero at `m*` and
//! at every larger grid size: from `m*` on, `D` is better on most splits. When the median is not
//! below zero at the largest size there is no crossover in range; when it is below zero at every
//! size, `m*` is the smallest size (the crossover lies at or below it).
//!
//! **Intervals.** Each size's replicates are resampled with replacement [`BOOTSTRAP_DRAWS`]
//! times (independently per size, as the replicates of different sizes are independent draws);
//! an interval is the 2.5% and 97.5% quantiles (R's type 7) of the statistic over the draws.
//! The crossover's interval applies the definition above to each draw's medians; draws without
//! a crossover in range count as beyond the largest size.

use gendisc_core::Result;
use gendisc_data::splits::{replicate_rng, SeedPart};
use gendisc_engine::StudyResults;
use gendisc_metrics::{median, quantile};
use rand::Rng;

use crate::models::{ModelKind, Role};
use crate::study::{ERROR, FAILED, LOG_LOSS};

/// Bootstrap resamples per statistic.
pub const BOOTSTRAP_DRAWS: usize = 1000;

/// The coverage of every interval.
pub const CONFIDENCE: f64 = 0.95;

/// A point estimate with its bootstrap interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The statistic on the replicates themselves.
    pub value: f64,
    /// Lower end of the interval.
    pub lower: f64,
    /// Upper end of the interval.
    pub upper: f64,
}

/// One model at one training size.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelSummary {
    /// The training size.
    pub size: usize,
    /// The model.
    pub model: ModelKind,
    /// Replicates on which the model was fitted.
    pub fitted: usize,
    /// Replicates on which its fit or scoring failed.
    pub failed: usize,
    /// Median test error rate, `None` when no replicate was fitted.
    pub error: Option<Estimate>,
    /// Median test log loss, `None` when no replicate was fitted.
    pub log_loss: Option<f64>,
}

/// The paired differences of one discriminative and one generative model at one size.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// The training size.
    pub size: usize,
    /// Replicates on which both models were fitted.
    pub pairs: usize,
    /// Median of `error(discriminative) − error(generative)`, `None` without pairs.
    pub median: Option<Estimate>,
    /// The share of pairs on which the discriminative model has the lower error.
    pub discriminative_better: f64,
    /// The share of pairs on which the generative model has the lower error.
    pub generative_better: f64,
}

/// Where a crossover lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Crossover {
    /// At this grid size; at the smallest size it means "at or below".
    At(usize),
    /// The median difference is not below zero at the largest size.
    NoneInRange,
}

/// One discriminative model against one generative model across the grid.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// The discriminative model.
    pub discriminative: ModelKind,
    /// The generative model.
    pub generative: ModelKind,
    /// Per size, in grid order.
    pub differences: Vec<Difference>,
    /// The crossover on the replicates themselves.
    pub crossover: Crossover,
    /// The 2.5% and 97.5% quantiles of the bootstrap crossovers (`NoneInRange` above the grid).
    pub interval: (Crossover, Crossover),
    /// The share of bootstrap draws with a crossover in range.
    pub share_in_range: f64,
}

/// Everything the outputs report.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// The training sizes.
    pub sizes: Vec<usize>,
    /// The models, in output order.
    pub models: Vec<ModelKind>,
    /// One per `(size, model)`, size-major.
    pub summaries: Vec<ModelSummary>,
    /// One per discriminative × generative model.
    pub pairs: Vec<Pair>,
}

/// Per size, per model: the error, log loss and failure flag of each replicate, in replicate
/// order (`None` for a failed fit).
type Measurements = Vec<Vec<Vec<Option<(f64, f64)>>>>;

/// Analyses the results of a comparison run with `models` over `sizes`; `seed` seeds the
/// bootstrap.
pub fn analyse(
    results: &StudyResults,
    sizes: &[usize],
    models: &[ModelKind],
    seed: u64,
) -> Result<Analysis> {
    let mut measured: Measurements = vec![vec![Vec::new(); models.len()]; sizes.len()];
    for (cell, outcome) in results.iter() {
        let Some(s) = sizes.iter().position(|&m| m == cell.train_size) else {
            continue;
        };
        for (k, slot) in measured[s].iter_mut().enumerate() {
            let fitted = outcome.get(k, FAILED) == Some(0.0);
            slot.push(
                match (fitted, outcome.get(k, ERROR), outcome.get(k, LOG_LOSS)) {
                    (true, Some(error), Some(loss)) => Some((error, loss)),
                    _ => None,
                },
            );
        }
    }

    let mut summaries = Vec::with_capacity(sizes.len() * models.len());
    for (s, &size) in sizes.iter().enumerate() {
        for (k, &model) in models.iter().enumerate() {
            let values = &measured[s][k];
            let errors: Vec<f64> = values.iter().flatten().map(|v| v.0).collect();
            let losses: Vec<f64> = values.iter().flatten().map(|v| v.1).collect();
            let error = if errors.is_empty() {
                None
            } else {
                let draws =
                    bootstrap_medians(&errors, stream(seed, &["error", model.name()], size));
                Some(estimate(median(&errors)?, &draws)?)
            };
            summaries.push(ModelSummary {
                size,
                model,
                fitted: errors.len(),
                failed: values.len() - errors.len(),
                error,
                log_loss: if losses.is_empty() {
                    None
                } else {
                    Some(median(&losses)?)
                },
            });
        }
    }

    let mut pairs = Vec::new();
    for (d, &discriminative) in models.iter().enumerate() {
        if discriminative.role() != Role::Discriminative {
            continue;
        }
        for (g, &generative) in models.iter().enumerate() {
            if generative.role() != Role::Generative {
                continue;
            }
            pairs.push(pair(
                &measured,
                sizes,
                (d, discriminative),
                (g, generative),
                seed,
            )?);
        }
    }
    Ok(Analysis {
        sizes: sizes.to_vec(),
        models: models.to_vec(),
        summaries,
        pairs,
    })
}

fn pair(
    measured: &Measurements,
    sizes: &[usize],
    (d, discriminative): (usize, ModelKind),
    (g, generative): (usize, ModelKind),
    seed: u64,
) -> Result<Pair> {
    let mut differences = Vec::with_capacity(sizes.len());
    // Per size, the bootstrap medians (empty where no replicate has both fits).
    let mut draws_by_size = Vec::with_capacity(sizes.len());
    for (s, &size) in sizes.iter().enumerate() {
        let paired: Vec<f64> = measured[s][d]
            .iter()
            .zip(&measured[s][g])
            .filter_map(|(a, b)| Some(a.as_ref()?.0 - b.as_ref()?.0))
            .collect();
        let share = |keep: fn(f64) -> bool| {
            if paired.is_empty() {
                0.0
            } else {
                paired.iter().filter(|&&x| keep(x)).count() as f64 / paired.len() as f64
            }
        };
        let (median_estimate, draws) = if paired.is_empty() {
            (None, Vec::new())
        } else {
            let names = ["difference", discriminative.name(), generative.name()];
            let draws = bootstrap_medians(&paired, stream(seed, &names, size));
            (Some(estimate(median(&paired)?, &draws)?), draws)
        };
        differences.push(Difference {
            size,
            pairs: paired.len(),
            median: median_estimate,
            discriminative_better: share(|x| x < 0.0),
            generative_better: share(|x| x > 0.0),
        });
        draws_by_size.push(draws);
    }

    let medians: Vec<Option<f64>> = differences
        .iter()
        .map(|d| d.median.map(|m| m.value))
        .collect();
    let crossover = crossover_of(sizes, &medians);
    // Bootstrap crossovers as positions in the grid, `sizes.len()` for "none in range".
    let mut positions: Vec<f64> = (0..BOOTSTRAP_DRAWS)
        .map(|b| {
            let medians: Vec<Option<f64>> = draws_by_size
                .iter()
                .map(|draws| draws.get(b).copied())
                .collect();
            let position = match crossover_of(sizes, &medians) {
                Crossover::At(size) => sizes.iter().position(|&m| m == size).unwrap_or(sizes.len()),
                Crossover::NoneInRange => sizes.len(),
            };
            position as f64
        })
        .collect();
    positions.sort_by(f64::total_cmp);
    let in_range = positions
        .iter()
        .filter(|&&p| p < sizes.len() as f64)
        .count();
    let tail = (1.0 - CONFIDENCE) / 2.0;
    // Grid positions are integers; a quantile between two of them is rounded outwards.
    let at = |p: f64| -> Result<Crossover> {
        let q = quantile(&positions, p)?;
        let index = if p < 0.5 { q.floor() } else { q.ceil() } as usize;
        Ok(sizes
            .get(index)
            .map_or(Crossover::NoneInRange, |&m| Crossover::At(m)))
    };
    Ok(Pair {
        discriminative,
        generative,
        differences,
        crossover,
        interval: (at(tail)?, at(1.0 - tail)?),
        share_in_range: in_range as f64 / BOOTSTRAP_DRAWS as f64,
    })
}

/// The crossover of a curve of median differences (see the module documentation); a size
/// without a median (no pair fitted) breaks a run of negative medians.
pub fn crossover_of(sizes: &[usize], medians: &[Option<f64>]) -> Crossover {
    let mut first = None;
    for (i, m) in medians.iter().enumerate() {
        match m {
            Some(m) if *m < 0.0 => {
                first.get_or_insert(i);
            }
            _ => first = None,
        }
    }
    first.map_or(Crossover::NoneInRange, |i| Crossover::At(sizes[i]))
}

/// The median of each of [`BOOTSTRAP_DRAWS`] resamples of `values`.
fn bootstrap_medians(values: &[f64], mut rng: impl Rng) -> Vec<f64> {
    let n = values.len();
    let mut resample = vec![0.0; n];
    (0..BOOTSTRAP_DRAWS)
        .map(|_| {
            for slot in resample.iter_mut() {
                *slot = values[rng.random_range(0..n)];
            }
            fast_median(&mut resample)
        })
        .collect()
}

/// The median (mean of the two middle values for an even count) by selection, reordering
/// `values`.
fn fast_median(values: &mut [f64]) -> f64 {
    let n = values.len();
    let (_, &mut upper, _) = values.select_nth_unstable_by(n / 2, f64::total_cmp);
    if n % 2 == 1 {
        return upper;
    }
    let lower = values[..n / 2]
        .iter()
        .copied()
        .max_by(f64::total_cmp)
        .unwrap_or(upper);
    (lower + upper) / 2.0
}

fn estimate(value: f64, draws: &[f64]) -> Result<Estimate> {
    let tail = (1.0 - CONFIDENCE) / 2.0;
    Ok(Estimate {
        value,
        lower: quantile(draws, tail)?,
        upper: quantile(draws, 1.0 - tail)?,
    })
}

/// The bootstrap stream of one statistic at one size, derived from the comparison's seed.
fn stream(seed: u64, names: &[&str], size: usize) -> rand_chacha::ChaCha8Rng {
    let mut parts: Vec<SeedPart<'_>> = vec![SeedPart::Name("bootstrap")];
    parts.extend(names.iter().map(|&n| SeedPart::Name(n)));
    parts.push(size.into());
    replicate_rng(seed, &parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crossover_is_where_the_median_stays_below_zero() {
        let sizes = [10, 20, 40, 80];
        let at = |m: [f64; 4]| crossover_of(&sizes, &m.map(Some));
        assert_eq!(at([0.1, -0.1, 0.05, -0.02]), Crossover::At(80));
        assert_eq!(at([0.1, 0.0, -0.01, -0.02]), Crossover::At(40));
        assert_eq!(at([-0.1, -0.1, -0.1, -0.1]), Crossover::At(10));
        assert_eq!(at([-0.1, -0.1, -0.1, 0.0]), Crossover::NoneInRange);
        assert_eq!(
            crossover_of(&sizes, &[Some(-1.0), None, Some(-1.0), Some(-1.0)]),
            Crossover::At(40)
        );
    }

    #[test]
    fn fast_median_agrees_with_the_sorted_median() {
        for values in [vec![3.0, 1.0, 2.0], vec![4.0, 1.0, 3.0, 2.0], vec![5.0]] {
            let expected = median(&values).unwrap();
            assert_eq!(fast_median(&mut values.clone()), expected);
        }
    }
}
