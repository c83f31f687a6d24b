//! The paper's claims about Figure 1 (§4) and Table 1 (§5–6) as [`Claim`]s of the verdict
//! module, and the per-replicate evidence they are judged on.
//!
//! **The three estimates.** Each claim compares the generative end (`GEN`, λ = 1), the
//! discriminative end (`DISC`, λ = 0) and "the GDT estimate" at an intermediate λ. Which
//! intermediate λ is best is itself read off the results, and choosing it on the replicates
//! that then judge it would favour it (the minimum of many noisy curves is biased low). We
//! avoid that by *cross-fitting*: the replicates are split by position into two halves (even,
//! odd); for each half the intermediate λ (`0 < λ < 1`) with the lowest centre (the median
//! for Figure 1, which plots medians; the mean for Table 1, which averages) is chosen **on
//! the other half**, and each replicate contributes its own value at the λ chosen without
//! it. The series [`GDT`] is therefore an honest out-of-sample "best intermediate λ", paired
//! replicate by replicate with `GEN` and `DISC`.
//!
//! **Trends over n.** "The difference tends to decrease" and "the optimal λ decreases with n"
//! are judged on adjacent training sizes (50 → 100, 100 → 200): the change of a statistic of
//! the figure (the median of the paired `DISC − GEN` loss; the λ minimising the median loss
//! curve) from one size to the next, with a 95% percentile bootstrap interval, the replicates
//! of each size resampled independently (they are independent draws). Each pair is a unit
//! judged with the module's tie rule ([`Difference::side`]).

use gendisc_data::splits::replicate_rng;
use rand::Rng;

use gendisc_engine::verdict::{
    describe, Better, Centre, Claim, Difference, Evidence, Judgement, Kind, Statement, Thresholds,
    Unit, Verdict, Window, CONFIDENCE,
};
use gendisc_engine::{Result, StudyResults};

/// The generative end, λ = 1.
pub const GEN: &str = "GEN";
/// The discriminative end, λ = 0.
pub const DISC: &str = "DISC";
/// The intermediate λ chosen on the other half of the replicates (cross-fitted).
pub const GDT: &str = "GDT (cross-fitted λ)";

/// Bootstrap resamples of each trend unit.
pub const BOOTSTRAP_DRAWS: usize = 2000;
/// The seed of the bootstrap resampling (fixed, so that a report is reproducible).
const BOOTSTRAP_SEED: u64 = 2004;

/// Per-replicate values of one metric at every λ of a path, at one `(group, n)` point.
#[derive(Debug, Clone, PartialEq)]
pub struct LambdaPath {
    /// The group (a simulation reading, or a dataset).
    pub group: String,
    /// The training size.
    pub n: usize,
    /// The λ of each row of `values`.
    pub lambdas: Vec<f64>,
    /// `values[j][r]`: the metric at `lambdas[j]` on replicate `r` (NaN where absent).
    pub values: Vec<Vec<f64>>,
}

impl LambdaPath {
    /// The paths of every `(dataset, training size)` of `results`: `classifiers[j]` is the
    /// schema's classifier fitted at `lambdas[j]`.
    pub fn from_results(
        results: &StudyResults,
        metric: &str,
        classifiers: &[String],
        lambdas: &[f64],
    ) -> Result<Vec<Self>> {
        let evidence =
            Evidence::from_results_named(results, metric, classifiers, classifiers, Better::Lower)?;
        Ok(evidence
            .points()
            .iter()
            .map(|p| Self {
                group: p.group.clone(),
                n: p.m,
                lambdas: lambdas.to_vec(),
                values: p.values.clone(),
            })
            .collect())
    }

    /// The number of replicates.
    pub fn replicates(&self) -> usize {
        self.values.first().map_or(0, Vec::len)
    }

    /// The values at λ, if it is on the path.
    pub fn at(&self, lambda: f64) -> Option<&[f64]> {
        self.lambdas
            .iter()
            .position(|&l| l == lambda)
            .map(|j| self.values[j].as_slice())
    }

    /// Each replicate's value at the intermediate λ chosen, by lowest `centre`, on the other
    /// half of the replicates (even and odd positions); with the λ chosen for the even and the
    /// odd replicates. `None` without an intermediate λ or with fewer than two replicates.
    pub fn cross_fitted(&self, centre: fn(&[f64]) -> f64) -> Option<(Vec<f64>, [f64; 2])> {
        let reps = self.replicates();
        let candidates: Vec<usize> = (0..self.lambdas.len())
            .filter(|&j| self.lambdas[j] > 0.0 && self.lambdas[j] < 1.0)
            .collect();
        if candidates.is_empty() || reps < 2 {
            return None;
        }
        let mut chosen = [0usize; 2];
        for (half, slot) in chosen.iter_mut().enumerate() {
            let stat = |j: usize| {
                let other: Vec<f64> = (0..reps)
                    .filter(|r| r % 2 != half)
                    .map(|r| self.values[j][r])
                    .collect();
                centre(&other)
            };
            let mut best = (candidates[0], stat(candidates[0]));
            for &j in &candidates[1..] {
                let s = stat(j);
                if s < best.1 || (best.1.is_nan() && !s.is_nan()) {
                    best = (j, s);
                }
            }
            *slot = best.0;
        }
        let values = (0..reps).map(|r| self.values[chosen[r % 2]][r]).collect();
        Some((values, [self.lambdas[chosen[0]], self.lambdas[chosen[1]]]))
    }

    /// The λ whose median over the replicates is lowest (the first on ties), on the replicates
    /// `rows` (each a replicate's values over the path).
    fn argmin_median(lambdas: &[f64], rows: &[&Vec<f64>]) -> f64 {
        let mut best = (f64::NAN, f64::INFINITY);
        for (j, &lambda) in lambdas.iter().enumerate() {
            let column: Vec<f64> = rows.iter().map(|row| row[j]).collect();
            let m = median(&column);
            if m < best.1 {
                best = (lambda, m);
            }
        }
        best.0
    }

    /// The replicates as rows over the path (`rows[r][j]`).
    fn rows(&self) -> Vec<Vec<f64>> {
        (0..self.replicates())
            .map(|r| self.values.iter().map(|v| v[r]).collect())
            .collect()
    }

    /// The λ minimising the median curve (the minimum of the figure's curve).
    pub fn best_lambda(&self) -> f64 {
        let rows = self.rows();
        let refs: Vec<&Vec<f64>> = rows.iter().collect();
        Self::argmin_median(&self.lambdas, &refs)
    }
}

/// The median of the values that are not NaN (NaN when none is).
pub fn median(values: &[f64]) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan()).collect();
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_unstable_by(f64::total_cmp);
    let h = v.len() / 2;
    if v.len() % 2 == 1 {
        v[h]
    } else {
        0.5 * (v[h - 1] + v[h])
    }
}

/// The mean of the finite values (NaN when none is).
pub fn mean(values: &[f64]) -> f64 {
    let v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// The change `stat(a) − stat(b)` of a statistic from one sample of replicates to an
/// independent other, with the 95% percentile interval of its bootstrap distribution (each
/// sample resampled with replacement, [`BOOTSTRAP_DRAWS`] times, from a fixed seed named by
/// `key`). `None` when either sample is empty or the statistic is not finite on them.
pub fn bootstrap_change<T>(
    a: &[T],
    b: &[T],
    stat: impl Fn(&[&T]) -> f64,
    key: &str,
) -> Option<Difference> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let all_a: Vec<&T> = a.iter().collect();
    let all_b: Vec<&T> = b.iter().collect();
    let estimate = stat(&all_a) - stat(&all_b);
    if !estimate.is_finite() {
        return None;
    }
    let mut rng = replicate_rng(BOOTSTRAP_SEED, &[key.into()]);
    let draw = |len: usize, rng: &mut rand_chacha::ChaCha8Rng| -> Vec<usize> {
        (0..len).map(|_| rng.random_range(0..len)).collect()
    };
    let mut changes = Vec::with_capacity(BOOTSTRAP_DRAWS);
    for _ in 0..BOOTSTRAP_DRAWS {
        let ia = draw(a.len(), &mut rng);
        let ib = draw(b.len(), &mut rng);
        let ra: Vec<&T> = ia.iter().map(|&i| &a[i]).collect();
        let rb: Vec<&T> = ib.iter().map(|&i| &b[i]).collect();
        let c = stat(&ra) - stat(&rb);
        if !c.is_nan() {
            changes.push(c);
        }
    }
    if changes.is_empty() {
        return None;
    }
    changes.sort_unstable_by(f64::total_cmp);
    let alpha = 1.0 - CONFIDENCE;
    let q = |p: f64| {
        let i = (p * (changes.len() - 1) as f64).round() as usize;
        changes[i.min(changes.len() - 1)]
    };
    Some(Difference {
        n: a.len() + b.len(),
        estimate,
        lower: q(0.5 * alpha),
        upper: q(1.0 - 0.5 * alpha),
        std_error: None,
    })
}

fn judgement(d: &Difference) -> Judgement {
    match d.side(0.0) {
        gendisc_engine::verdict::Side::A => Judgement::Holds,
        gendisc_engine::verdict::Side::B => Judgement::Against,
        gendisc_engine::verdict::Side::Tie => Judgement::Tie,
    }
}

/// The units of a trend claim over adjacent training sizes of `paths` (one group, sizes
/// increasing) inside `window`: `change(earlier, later)` is positive when the trend holds.
fn trend_units(
    paths: &[&LambdaPath],
    window: Window,
    change: impl Fn(&LambdaPath, &LambdaPath) -> Option<(Difference, String)>,
) -> Vec<Unit> {
    let inside: Vec<&&LambdaPath> = paths.iter().filter(|p| window.contains(p.n)).collect();
    inside
        .windows(2)
        .filter_map(|w| {
            let (d, detail) = change(w[0], w[1])?;
            Some(Unit::point(
                w[1].group.clone(),
                w[1].n,
                judgement(&d),
                format!("n = {} → {}: {detail}", w[0].n, w[1].n),
            ))
        })
        .collect()
}

/// The training sizes of `paths`, increasing.
fn grid(paths: &[&LambdaPath]) -> Vec<usize> {
    let mut g: Vec<usize> = paths.iter().map(|p| p.n).collect();
    g.sort_unstable();
    g.dedup();
    g
}

/// The evidence of one group's paths: `GEN`, `DISC` and the cross-fitted [`GDT`] per point,
/// summarised by `centre` (the intermediate λ chosen by the same centre).
pub fn three_estimates(paths: &[&LambdaPath], centre: Centre) -> Result<Evidence> {
    let select: fn(&[f64]) -> f64 = match centre {
        Centre::Median => median,
        Centre::Mean => mean,
    };
    let mut evidence = Evidence::new([GEN, DISC, GDT], Better::Lower).centre(centre);
    for p in paths {
        let (Some(generative), Some(disc), Some((gdt, _))) =
            (p.at(1.0), p.at(0.0), p.cross_fitted(select))
        else {
            continue;
        };
        evidence.push(
            p.group.clone(),
            p.n,
            vec![generative.to_vec(), disc.to_vec(), gdt],
        )?;
    }
    Ok(evidence)
}

/// Where Figure 1's window comes from.
const FIGURE1_WINDOW: &str = "the paper's Figure 1 has panels at n = 50, 100 and 200";

/// The paper's words about the first row of Figure 1 (§4).
pub const GEN_BEST_QUOTE: &str =
    "The first row illustrates the fact that the generative classifier performs better than the \
     other estimates";
/// The second half of that sentence.
pub const GEN_LEAD_SHRINKS_QUOTE: &str =
    "but this difference tends to decrease when the sample size increases";
/// The paper's words about the second row (§4; "BDG" is the paper's misprint for GDT).
pub const GDT_BEST_QUOTE: &str =
    "In the second row, the best performance is from the BDG estimate for all training set sizes";
/// The second half of that sentence.
pub const LAMBDA_DECREASES_QUOTE: &str =
    "and the optimal value of λ (the one that minimizes the expected loss) decreases with n";
/// The paper's conclusion about Table 1 (§6).
pub const TABLE1_QUOTE: &str = "Our preliminary results on real data showed that the \
     intermediate model often gives better classification performances than the discriminative \
     and generative classifiers";

/// The two claims about the Gaussian simulation (first row of Figure 1), judged on its paths
/// (one per training size) under `reading`.
pub fn gaussian_verdicts(paths: &[&LambdaPath], reading: &str) -> Result<Vec<Verdict>> {
    let evidence = three_estimates(paths, Centre::Median)?;
    let best = Claim::new(
        "fig1-gen-best",
        GEN_BEST_QUOTE,
        Statement::Best {
            a: GEN.into(),
            rivals: vec![DISC.into(), GDT.into()],
        },
    )
    .window(Window::All, FIGURE1_WINDOW)
    .reading(reading);
    let best = Verdict::judge(&best, &evidence, "training sizes")?;
    let shrinks = Claim::new(
        "fig1-gen-lead-shrinks",
        GEN_LEAD_SHRINKS_QUOTE,
        Statement::Units {
            what: "the median paired DISC − GEN loss is smaller at the next training size".into(),
            kind: Kind::Difference,
        },
    )
    .window(Window::All, FIGURE1_WINDOW)
    .reading(reading);
    let shrinks = Verdict::from_units(&shrinks, &grid(paths), "steps in n", |window, _| {
        Ok(trend_units(paths, window, |early, late| {
            let gap = |p: &LambdaPath| -> Option<Vec<f64>> {
                let (generative, disc) = (p.at(1.0)?, p.at(0.0)?);
                Some(disc.iter().zip(generative).map(|(d, g)| d - g).collect())
            };
            let (a, b) = (gap(early)?, gap(late)?);
            let key = format!("gap {} {} {}", early.group, early.n, late.n);
            let d = bootstrap_change(&a, &b, |s| median(&deref(s)), &key)?;
            Some((
                d,
                format!(
                    "median DISC − GEN {:.4} → {:.4}, decrease {}",
                    median(&a),
                    median(&b),
                    describe(&d)
                ),
            ))
        }))
    })?;
    Ok(vec![best, shrinks])
}

/// The two claims about the correlated-uniform simulation (second row of Figure 1), judged on
/// the paths of one reading (one per training size).
pub fn uniform_verdicts(paths: &[&LambdaPath], reading: &str) -> Result<Vec<Verdict>> {
    let evidence = three_estimates(paths, Centre::Median)?;
    let best = Claim::new(
        "fig1-gdt-best",
        GDT_BEST_QUOTE,
        Statement::Best {
            a: GDT.into(),
            rivals: vec![GEN.into(), DISC.into()],
        },
    )
    .window(Window::All, FIGURE1_WINDOW)
    // "for all training set sizes".
    .thresholds(Thresholds::every())
    .reading(reading);
    let best = Verdict::judge(&best, &evidence, "training sizes")?;
    let decreases = Claim::new(
        "fig1-optimal-lambda-decreases",
        LAMBDA_DECREASES_QUOTE,
        Statement::Units {
            what: "the λ minimising the median loss is lower at the next training size".into(),
            kind: Kind::Difference,
        },
    )
    .window(Window::All, FIGURE1_WINDOW)
    .reading(reading);
    let decreases = Verdict::from_units(&decreases, &grid(paths), "steps in n", |window, _| {
        Ok(trend_units(paths, window, |early, late| {
            let (a, b) = (early.rows(), late.rows());
            let lambdas = early.lambdas.clone();
            let key = format!("lambda {} {} {}", early.group, early.n, late.n);
            let d = bootstrap_change(&a, &b, |s| LambdaPath::argmin_median(&lambdas, s), &key)?;
            Some((
                d,
                format!(
                    "best λ {:.2} → {:.2}, decrease {}",
                    early.best_lambda(),
                    late.best_lambda(),
                    describe(&d)
                ),
            ))
        }))
    })?;
    Ok(vec![best, decreases])
}

fn deref(s: &[&f64]) -> Vec<f64> {
    s.iter().map(|&&x| x).collect()
}

/// One (dataset, model) pair of Table 1: its λ path of test errors over the trials, and
/// whether its discriminative end has a maximiser.
#[derive(Debug, Clone)]
pub struct Table1Pair<'a> {
    /// The path (group: `dataset / model`).
    pub path: &'a LambdaPath,
    /// Whether the λ = 0 entry stands for the estimator: false when a trial's fit carries a
    /// certificate that no finite maximiser exists, or did not converge, and `DISC` is then
    /// left out of the comparison.
    pub disc_exists: bool,
}

/// The Table 1 claim under one reading: at each (dataset, model) pair the cross-fitted best
/// intermediate λ against both ends (against `GEN` only where `DISC` has no maximiser), on
/// mean test error over trials.
pub fn table1_verdict(pairs: &[Table1Pair<'_>], reading: &str) -> Result<Verdict> {
    let paths: Vec<&LambdaPath> = pairs.iter().map(|p| p.path).collect();
    let evidence = three_estimates(&paths, Centre::Mean)?;
    let claim = Claim::new(
        "table1-intermediate-better",
        TABLE1_QUOTE,
        Statement::Units {
            what: "the best intermediate λ (chosen on the other half of the trials) has a lower \
                   mean test error than GEN and than DISC"
                .into(),
            kind: Kind::Difference,
        },
    )
    .window(
        Window::All,
        "Table 1's training sizes, one per dataset (50 rows per class)",
    )
    .reading(reading);
    Verdict::from_units(
        &claim,
        &evidence.grid(),
        "(dataset, model) pairs",
        |window, _| {
            let mut units = Vec::new();
            for (i, point) in evidence.points().iter().enumerate() {
                if !window.contains(point.m) {
                    continue;
                }
                let disc_exists = pairs
                    .iter()
                    .find(|p| p.path.group == point.group && p.path.n == point.m)
                    .is_none_or(|p| p.disc_exists);
                let mut rivals = vec![GEN];
                if disc_exists {
                    rivals.push(DISC);
                }
                let mut sides = Vec::new();
                let mut detail = Vec::new();
                for r in &rivals {
                    let Some(d) = evidence.difference(i, GDT, r)? else {
                        continue;
                    };
                    sides.push(judgement(&d));
                    detail.push(format!("GDT − {r}: {}", describe(&d)));
                }
                if !disc_exists {
                    detail
                        .push("DISC has no maximiser (or did not converge on every trial)".into());
                }
                if sides.len() < rivals.len() {
                    continue;
                }
                let j = if sides.contains(&Judgement::Against) {
                    Judgement::Against
                } else if sides.iter().all(|&s| s == Judgement::Holds) {
                    Judgement::Holds
                } else {
                    Judgement::Tie
                };
                units.push(Unit::point(
                    point.group.clone(),
                    point.m,
                    j,
                    detail.join("; "),
                ));
            }
            Ok(units)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use gendisc_engine::verdict::{reading_changes, Word};

    /// A path over λ ∈ {1, 0.5, 0} whose loss at λ is `loss(λ, r)`.
    fn path(n: usize, reps: usize, loss: impl Fn(f64, usize) -> f64) -> LambdaPath {
        let lambdas = vec![1.0, 0.5, 0.0];
        let values = lambdas
            .iter()
            .map(|&l| (0..reps).map(|r| loss(l, r)).collect())
            .collect();
        LambdaPath {
            group: "g".into(),
            n,
            lambdas,
            values,
        }
    }

    #[test]
    fn cross_fitting_chooses_on_the_other_half() {
        // Two intermediate λ; 0.25 is better on odd replicates, 0.75 on even ones.
        let lambdas = vec![1.0, 0.75, 0.25, 0.0];
        let reps = 6;
        let values = vec![
            vec![1.0; reps],
            (0..reps)
                .map(|r| if r % 2 == 0 { 0.1 } else { 0.9 })
                .collect(),
            (0..reps)
                .map(|r| if r % 2 == 0 { 0.9 } else { 0.1 })
                .collect(),
            vec![1.0; reps],
        ];
        let p = LambdaPath {
            group: "g".into(),
            n: 10,
            lambdas,
            values,
        };
        let (v, chosen) = p.cross_fitted(median).unwrap();
        // Even replicates get the λ that was best on the odd ones (0.25), and vice versa:
        // every replicate is at its own worse value.
        assert_eq!(chosen, [0.25, 0.75]);
        assert!(v.iter().all(|&x| x == 0.9));
    }

    #[test]
    fn a_clear_intermediate_optimum_supports_the_gdt_claim() {
        let paths: Vec<LambdaPath> = [50, 100, 200]
            .iter()
            .map(|&n| {
                path(n, 40, |l, r| {
                    let noise = 0.001 * (r % 5) as f64;
                    if l == 0.5 {
                        0.5 + noise
                    } else {
                        0.6 + noise
                    }
                })
            })
            .collect();
        let refs: Vec<&LambdaPath> = paths.iter().collect();
        let v = uniform_verdicts(&refs, "test").unwrap();
        assert_eq!(v[0].word, Word::Supported);
        // The optimum stays at 0.5: every step a tie, the decrease not supported.
        assert_eq!(v[1].tally.ties, 2);
        assert_eq!(v[1].word, Word::NotSupported);
    }

    #[test]
    fn a_decreasing_optimum_and_a_shrinking_gap_are_seen() {
        // Optimum at λ = 1 for n = 50, 0.5 at 100, 0 at 200; the DISC − GEN gap shrinks.
        let optimum = |n: usize| match n {
            50 => 1.0,
            100 => 0.5,
            _ => 0.0,
        };
        let paths: Vec<LambdaPath> = [50, 100, 200]
            .iter()
            .map(|&n| {
                path(n, 60, |l, r| {
                    0.3 + (l - optimum(n)).abs() * 100.0 / n as f64 + 0.001 * (r % 7) as f64
                })
            })
            .collect();
        let refs: Vec<&LambdaPath> = paths.iter().collect();
        let v = uniform_verdicts(&refs, "test").unwrap();
        assert_eq!(v[1].tally.holds, 2, "{:?}", v[1].units);
        assert_eq!(v[1].word, Word::Supported);
        let g = gaussian_verdicts(&refs, "test").unwrap();
        // DISC − GEN: 2 − 0 at n = 50, 0.5 − 0.5 = 0 at 100, −0.5 at 200: it shrinks.
        assert_eq!(g[1].tally.holds, 2, "{:?}", g[1].units);
    }

    #[test]
    fn a_verdict_that_changes_with_the_reading_is_named() {
        let good: Vec<LambdaPath> = [50, 100, 200]
            .iter()
            .map(|&n| {
                path(
                    n,
                    30,
                    |l, r| if l == 0.5 { 0.5 } else { 0.6 } + 0.001 * (r % 4) as f64,
                )
            })
            .collect();
        let flat: Vec<LambdaPath> = [50, 100, 200]
            .iter()
            .map(|&n| path(n, 30, |_, r| 0.6 + 0.001 * (r % 4) as f64))
            .collect();
        let mut verdicts = uniform_verdicts(&good.iter().collect::<Vec<_>>(), "(a)").unwrap();
        verdicts.extend(uniform_verdicts(&flat.iter().collect::<Vec<_>>(), "(b)").unwrap());
        let text = reading_changes(verdicts.iter().map(|v| ((), v)));
        // The best-estimate claim changes (supported under (a), not under (b)); the
        // decreasing-λ claim is not supported under either, so it is not mentioned.
        assert!(
            text.contains("under reading (a) it is **supported**"),
            "{text}"
        );
        assert!(
            text.contains("under reading (b) it is **not supported**"),
            "{text}"
        );
        assert_eq!(
            text.matches("changes with the reading").count(),
            1,
            "{text}"
        );
    }

    #[test]
    fn bootstrap_of_identical_samples_is_a_tie() {
        let a: Vec<f64> = (0..30).map(|i| (i % 7) as f64).collect();
        let d = bootstrap_change(&a, &a, |s| median(&deref(s)), "k").unwrap();
        assert_eq!(d.estimate, 0.0);
        assert_eq!(d.side(0.0), gendisc_engine::verdict::Side::Tie);
        assert!(bootstrap_change::<f64>(&[], &a, |s| median(&deref(s)), "k").is_none());
    }

    #[test]
    fn table1_leaves_out_a_disc_without_maximiser() {
        // GDT beats GEN clearly; DISC is better still but has no maximiser.
        let p = path(100, 20, |l, r| {
            let noise = 0.001 * (r % 3) as f64;
            let base = if l == 1.0 {
                0.3
            } else if l == 0.5 {
                0.2
            } else {
                0.1
            };
            base + noise
        });
        let with = table1_verdict(
            &[Table1Pair {
                path: &p,
                disc_exists: true,
            }],
            "r",
        )
        .unwrap();
        assert_eq!(with.tally.against, 1);
        let without = table1_verdict(
            &[Table1Pair {
                path: &p,
                disc_exists: false,
            }],
            "r",
        )
        .unwrap();
        assert_eq!(without.tally.holds, 1);
        assert!(without.units[0].detail.contains("no maximiser"));
    }
}
