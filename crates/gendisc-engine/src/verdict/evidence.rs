//! What claims are judged on: per-replicate values of named series at `(group, m)` points.

use std::collections::HashMap;

use crate::error::{Result, StudyError};
use crate::runner::StudyResults;

use super::difference::{Better, Centre, Difference};

/// Per-replicate values of every series at one point: a group (a dataset, a pair of newsgroups,
/// a transfer setup) and a training size `m`.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// The group, e.g. the dataset's name.
    pub group: String,
    /// The training-set size.
    pub m: usize,
    /// `values[s][r]`: series `s` on replicate `r`; NaN where a series has no value.
    pub values: Vec<Vec<f64>>,
}

/// The evidence for a report's claims about one metric: named series (classifiers, or readings
/// of one classifier) measured on the same replicates at `(group, m)` points.
///
/// ```
/// use gendisc_engine::verdict::{Better, Evidence};
/// let mut evidence = Evidence::new(["naive Bayes", "logistic regression"], Better::Lower);
/// evidence.push("iris", 10, vec![vec![0.10, 0.12, 0.11], vec![0.15, 0.14, 0.16]]).unwrap();
/// evidence.push("iris", 40, vec![vec![0.06, 0.05, 0.07], vec![0.04, 0.05, 0.03]]).unwrap();
/// assert_eq!(evidence.grid(), vec![10, 40]);
/// let d = evidence.difference(0, "naive Bayes", "logistic regression").unwrap().unwrap();
/// assert!(d.estimate > 0.0, "naive Bayes has the lower error at m = 10");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    series: Vec<String>,
    better: Better,
    centre: Centre,
    level: f64,
    points: Vec<Point>,
}

impl Evidence {
    /// Empty evidence over `series`, for a metric where `better` values win; differences are
    /// summarised by their mean at 95% ([`Evidence::centre`] changes that).
    pub fn new<S: Into<String>>(series: impl IntoIterator<Item = S>, better: Better) -> Self {
        Self {
            series: series.into_iter().map(Into::into).collect(),
            better,
            centre: Centre::Mean,
            level: super::CONFIDENCE,
            points: Vec::new(),
        }
    }

    /// Summarise differences by `centre` instead of the mean.
    pub fn centre(mut self, centre: Centre) -> Self {
        self.centre = centre;
        self
    }

    /// The evidence in a study's results: for every `(dataset, training size)` in canonical
    /// order, the values of `metric` for each of `series` (classifier names of the study's
    /// schema) on every replicate. A replicate where a classifier has no value counts as NaN
    /// and drops out of the comparisons that involve it.
    pub fn from_results<S: AsRef<str>>(
        results: &StudyResults,
        metric: &str,
        series: &[S],
        better: Better,
    ) -> Result<Self> {
        Self::from_results_named(results, metric, series, series, better)
    }

    /// As [`Evidence::from_results`], with the series renamed: `names[i]` is what the claims
    /// call the classifier `classifiers[i]` of the schema (e.g. `"logistic regression"` for the
    /// schema's `"logistic-regression-random-separator"` in the paper's reading).
    pub fn from_results_named<S: AsRef<str>, N: AsRef<str>>(
        results: &StudyResults,
        metric: &str,
        classifiers: &[S],
        names: &[N],
        better: Better,
    ) -> Result<Self> {
        let schema = results.schema();
        let invalid = |reason: String| StudyError::InvalidStudy {
            study: results.study().to_string(),
            reason,
        };
        if classifiers.len() != names.len() {
            return Err(invalid(format!(
                "{} classifiers but {} names for the evidence",
                classifiers.len(),
                names.len()
            )));
        }
        let metric_index = schema
            .metric_index(metric)
            .ok_or_else(|| invalid(format!("no metric `{metric}` in the schema")))?;
        let indices = classifiers
            .iter()
            .map(|c| {
                schema
                    .classifier_index(c.as_ref())
                    .ok_or_else(|| invalid(format!("no classifier `{}` in the schema", c.as_ref())))
            })
            .collect::<Result<Vec<_>>>()?;
        let mut evidence = Self::new(names.iter().map(|n| n.as_ref().to_string()), better);
        // Points in order of first appearance, whatever order the study lists its cells in.
        let mut index: HashMap<(&str, usize), usize> = HashMap::new();
        for (cell, outcome) in results.iter() {
            let at = *index
                .entry((cell.dataset.as_str(), cell.train_size))
                .or_insert_with(|| {
                    evidence.points.push(Point {
                        group: cell.dataset.clone(),
                        m: cell.train_size,
                        values: vec![Vec::new(); indices.len()],
                    });
                    evidence.points.len() - 1
                });
            for (column, &c) in evidence.points[at].values.iter_mut().zip(&indices) {
                column.push(outcome.get(c, metric_index).unwrap_or(f64::NAN));
            }
        }
        Ok(evidence)
    }

    /// Adds a point: `values[s]` holds series `s` on each replicate (NaN where absent). Fails
    /// when the number of series or of replicates per series does not match.
    pub fn push(
        &mut self,
        group: impl Into<String>,
        m: usize,
        values: Vec<Vec<f64>>,
    ) -> Result<()> {
        let group = group.into();
        let bad = |reason: String| StudyError::InvalidStudy {
            study: "evidence".into(),
            reason: format!("point ({group}, m = {m}): {reason}"),
        };
        if values.len() != self.series.len() {
            return Err(bad(format!(
                "{} series given, {} expected",
                values.len(),
                self.series.len()
            )));
        }
        if values.windows(2).any(|w| w[0].len() != w[1].len()) {
            return Err(bad("the series have different numbers of replicates".into()));
        }
        self.points.push(Point { group, m, values });
        Ok(())
    }

    /// The series' names.
    pub fn series(&self) -> &[String] {
        &self.series
    }

    /// Which way the metric is better.
    pub fn better(&self) -> Better {
        self.better
    }

    /// The points, in the order they were added.
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// The groups, in order of first appearance.
    pub fn groups(&self) -> Vec<&str> {
        let mut groups: Vec<&str> = Vec::new();
        for p in &self.points {
            if !groups.contains(&p.group.as_str()) {
                groups.push(&p.group);
            }
        }
        groups
    }

    /// Every training size of any group, increasing: the grid on which windows move.
    pub fn grid(&self) -> Vec<usize> {
        let mut grid: Vec<usize> = self.points.iter().map(|p| p.m).collect();
        grid.sort_unstable();
        grid.dedup();
        grid
    }

    /// The index of a series by name.
    pub fn series_index(&self, name: &str) -> Result<usize> {
        self.series
            .iter()
            .position(|s| s == name)
            .ok_or_else(|| StudyError::InvalidStudy {
                study: "evidence".into(),
                reason: format!("no series `{name}` (series: {})", self.series.join(", ")),
            })
    }

    /// The advantage of series `a` over series `b` at point `point` (an index into
    /// [`Evidence::points`]): `Ok(None)` when fewer than two replicates have both values.
    pub fn difference(&self, point: usize, a: &str, b: &str) -> Result<Option<Difference>> {
        let (ia, ib) = (self.series_index(a)?, self.series_index(b)?);
        let p = &self.points[point];
        Ok(Difference::paired(
            &p.values[ia],
            &p.values[ib],
            self.better,
            self.centre,
            self.level,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_checks_the_shape() {
        let mut e = Evidence::new(["a", "b"], Better::Lower);
        assert!(e.push("g", 1, vec![vec![0.1]]).is_err());
        assert!(e.push("g", 1, vec![vec![0.1], vec![0.1, 0.2]]).is_err());
        assert!(e.push("g", 1, vec![vec![0.1, 0.3], vec![0.1, 0.2]]).is_ok());
        assert!(e.series_index("c").is_err());
    }

    #[test]
    fn groups_and_grid() {
        let mut e = Evidence::new(["a"], Better::Lower);
        for (g, m) in [("x", 5), ("x", 10), ("y", 3), ("y", 10)] {
            e.push(g, m, vec![vec![0.0, 1.0]]).unwrap();
        }
        assert_eq!(e.groups(), vec!["x", "y"]);
        assert_eq!(e.grid(), vec![3, 5, 10]);
    }
}
