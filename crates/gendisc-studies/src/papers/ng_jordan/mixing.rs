//! Whether the random separator's hit-and-run walk ([`random_separator`]) is mixed: a
//! diagnostic, not part of the study's run.
//!
//! A walk that has mixed forgets where it started, and its draws stop changing in law as it
//! runs longer. So, on the study's own splits (the training sets of its cells), every separable
//! training set is walked from two very different starting points — the fitted logistic
//! regression, near the middle of the version space, and the perceptron's first separator,
//! typically near its boundary ([`perceptron_separator`]) — for each of several lengths, each
//! walk on its own random stream; the test error of the drawn hyperplane is compared between
//! the two starts, and against the longest walk, split by split with the module's paired
//! difference ([`Difference::of_advantages`]).

use gendisc_core::Result;
use gendisc_data::splits::random_split;
use ndarray::{ArrayView1, ArrayView2, Axis};

use super::{coefficients, error_rate, fit_logistic, log_odds_of, Inputs, NgJordanStudy};
use gendisc_data::generators::{perceptron_separator, random_separator};
use gendisc_engine::verdict::{describe, Centre, Difference, CONFIDENCE};
use gendisc_engine::Cell;

/// Perceptron passes over a training set before the perceptron start is given up (the split
/// then leaves the diagnostic).
const PERCEPTRON_EPOCHS: usize = 2000;

/// The diagnostic at one dataset, training size and walk length.
#[derive(Debug, Clone, PartialEq)]
pub struct MixingRow {
    /// The dataset.
    pub dataset: String,
    /// The training size.
    pub m: usize,
    /// Steps per coefficient of the walk.
    pub steps_per_coefficient: usize,
    /// Splits whose training set both the fit and the perceptron separated: the pairs compared.
    pub separable: usize,
    /// Mean test error of the fitted logistic regression itself, the first start.
    pub error_of_fit: f64,
    /// Mean test error of the perceptron's separator itself, the second start.
    pub error_of_perceptron: f64,
    /// Mean test error of the hyperplane drawn from the fitted start.
    pub error_from_fit: f64,
    /// Mean test error of the hyperplane drawn from the perceptron start.
    pub error_from_perceptron: f64,
    /// Test error from the perceptron start minus from the fitted start, split by split: mean
    /// and 95% interval.
    pub start_gap: Option<Difference>,
    /// Test error from the fitted start at this length minus at the longest length, split by
    /// split: mean and 95% interval.
    pub length_gap: Option<Difference>,
}

impl MixingRow {
    /// The row as a line of a Markdown table (see [`MixingRow::HEADER`]).
    pub fn markdown(&self) -> String {
        let gap = |d: &Option<Difference>| d.as_ref().map_or("—".to_string(), describe);
        format!(
            "| {} | {} | {} | {} | {:.4} | {:.4} | {:.4} | {:.4} | {} | {} |",
            self.dataset,
            self.m,
            self.steps_per_coefficient,
            self.separable,
            self.error_of_fit,
            self.error_of_perceptron,
            self.error_from_fit,
            self.error_from_perceptron,
            gap(&self.start_gap),
            gap(&self.length_gap)
        )
    }

    /// The header of [`MixingRow::markdown`]'s table.
    pub const HEADER: &'static str = "| dataset | m | steps per coefficient | separable splits | \
        error of the fit | error of the perceptron | walk's error from the fit | from the perceptron | \
        perceptron − fit | this length − longest |\n|---|---|---|---|---|---|---|---|---|---|";
}

/// The walk's mixing diagnostic on `dataset` at training size `m`, over the study's first
/// `splits` splits there and for each walk length of `steps_per_coefficient` (increasing; the
/// last is the reference of [`MixingRow::length_gap`]), on the standardised inputs.
///
/// Errors: an unknown dataset, a training size the dataset cannot hold, a failed fit.
pub fn walk_mixing(
    study: &NgJordanStudy,
    dataset: &str,
    m: usize,
    splits: usize,
    steps_per_coefficient: &[usize],
) -> Result<Vec<MixingRow>> {
    let data = study.dataset(dataset)?;
    let inputs: ArrayView2<'_, f64> = match &data.inputs {
        Inputs::Continuous(x) => x.view(),
        Inputs::Discrete { one_hot, .. } => one_hot.view(),
    };
    let y: ArrayView1<'_, usize> = data.y.view();
    let seed = study.settings().seed;
    // errors[k] = per separable split, (from the fit, from the perceptron).
    let mut errors = vec![Vec::new(); steps_per_coefficient.len()];
    // The starts' own errors, per separable split.
    let mut starts = Vec::new();
    for r in 0..splits {
        let cell = Cell::new(dataset, m, r);
        let split = random_split(y, m, &mut cell.rng(seed))?;
        let x_train = inputs.select(Axis(0), &split.train);
        let y_train = y.select(Axis(0), &split.train);
        let lr = fit_logistic(study.settings(), x_train.view(), y_train.view())?;
        let fitted = coefficients(&lr);
        let eta = log_odds_of(x_train.view(), fitted.view());
        let separated = eta
            .iter()
            .zip(&y_train)
            .all(|(&e, &k)| e != 0.0 && (e > 0.0) == (k == 1));
        if !separated {
            continue;
        }
        let Some(perceptron) =
            perceptron_separator(x_train.view(), y_train.view(), PERCEPTRON_EPOCHS)
        else {
            continue;
        };
        starts.push([
            error_rate(&log_odds_of(inputs, fitted.view()), y, &split.test),
            error_rate(&log_odds_of(inputs, perceptron.view()), y, &split.test),
        ]);
        for (k, &steps) in steps_per_coefficient.iter().enumerate() {
            let mut pair = [0.0; 2];
            for (slot, (start, name)) in [(&fitted, "fit"), (&perceptron, "perceptron")]
                .into_iter()
                .enumerate()
            {
                // Each walk on its own stream, named by its start and length.
                let mut rng = Cell::new(format!("{dataset}/mixing/{name}/{steps}"), m, r).rng(seed);
                let theta = random_separator(
                    x_train.view(),
                    y_train.view(),
                    start.view(),
                    steps * start.len(),
                    &mut rng,
                )?;
                pair[slot] = error_rate(&log_odds_of(inputs, theta.view()), y, &split.test);
            }
            errors[k].push(pair);
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let longest = errors.last().cloned().unwrap_or_default();
    let error_of_fit = mean(&starts.iter().map(|p| p[0]).collect::<Vec<_>>());
    let error_of_perceptron = mean(&starts.iter().map(|p| p[1]).collect::<Vec<_>>());
    Ok(steps_per_coefficient
        .iter()
        .zip(&errors)
        .map(|(&steps, pairs)| {
            let fit: Vec<f64> = pairs.iter().map(|p| p[0]).collect();
            let perceptron: Vec<f64> = pairs.iter().map(|p| p[1]).collect();
            MixingRow {
                dataset: dataset.to_string(),
                m,
                steps_per_coefficient: steps,
                separable: pairs.len(),
                error_of_fit,
                error_of_perceptron,
                error_from_fit: mean(&fit),
                error_from_perceptron: mean(&perceptron),
                start_gap: Difference::of_advantages(
                    pairs.iter().map(|p| p[1] - p[0]),
                    Centre::Mean,
                    CONFIDENCE,
                ),
                length_gap: Difference::of_advantages(
                    pairs.iter().zip(&longest).map(|(p, q)| p[0] - q[0]),
                    Centre::Mean,
                    CONFIDENCE,
                ),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::super::{load, Settings, DATASETS};
    use super::*;

    /// The diagnostic quoted in `docs/ng-jordan.md`; it needs the data and a few minutes:
    /// `cargo test --release -p gendisc-studies --lib papers::ng_jordan::mixing -- --ignored
    /// --nocapture`.
    #[test]
    #[ignore = "needs the data sets and minutes of computing"]
    fn the_walk_is_mixed() {
        let cases = [
            ("pima", 22),
            ("sonar", 38),
            ("ionosphere", 37),
            ("optdigits-2-3", 66),
            ("promoters", 22),
        ];
        let specs: Vec<_> = DATASETS
            .iter()
            .filter(|s| cases.iter().any(|(name, _)| *name == s.name))
            .collect();
        let datasets = specs.iter().map(|s| load(s)).collect::<Result<Vec<_>>>();
        let Ok(datasets) = datasets else {
            eprintln!("data sets missing: skipped");
            return;
        };
        let study = NgJordanStudy::with_datasets(Settings::paper(), datasets).unwrap();
        println!("{}", MixingRow::HEADER);
        for (name, m) in cases {
            let rows = walk_mixing(&study, name, m, 100, &[3, 10, 30, 100, 300]).unwrap();
            for row in &rows {
                println!("{}", row.markdown());
            }
        }
    }

    #[test]
    fn a_long_walk_forgets_its_start() {
        // Two clouds in 3 dimensions, 12 rows each: separable, with a wide version space.
        let n = 24;
        let y: ndarray::Array1<usize> = (0..n).map(|i| i % 2).collect();
        let x = ndarray::Array2::from_shape_fn((n, 3), |(i, j)| {
            let noise = ((i * 7 + j * 13) % 11) as f64 / 11.0 - 0.5;
            (y[i] as f64) * 2.0 + noise
        });
        let spec = DATASETS[0];
        let dataset = super::super::Dataset {
            spec,
            inputs: Inputs::Continuous(x),
            y,
            rows_left_out: 0,
        };
        let study = NgJordanStudy::with_datasets(Settings::quick(), vec![dataset]).unwrap();
        let rows = walk_mixing(&study, spec.name, 8, 40, &[1, 50]).unwrap();
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|r| r.separable > 20), "{rows:?}");
        for r in &rows {
            assert!((0.0..=1.0).contains(&r.error_from_fit));
            assert!((0.0..=1.0).contains(&r.error_from_perceptron));
        }
        // The longest walk against itself: no gap at all.
        let last = rows[1].length_gap.unwrap();
        assert_eq!((last.lower, last.upper), (0.0, 0.0));
        assert!(walk_mixing(&study, "nope", 8, 4, &[1]).is_err());
    }
}
