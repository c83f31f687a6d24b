//! Summaries over replicates and the CSV tables of a study.
//!
//! [`SummaryTable::from_results`] groups a study's measurements by
//! `(dataset, training size, classifier, metric)` and summarises each group over its replicates
//! with [`gendisc_metrics::Summary`] (median and quartiles of R's type 7, mean with its 95%
//! t interval). [`SummaryTable::to_csv`] and [`outcomes_csv`] write the tables.
//!
//! # CSV conventions
//!
//! * Fixed columns, in the order documented on each writer; a header row; rows in a fixed order
//!   derived from the study's canonical cell order and schema — so the same results always give
//!   the same bytes.
//! * Every number is written by [`format_float`]: the shortest decimal that reads back as the
//!   same `f64`, positional for `10⁻⁴ ≤ |x| < 10¹⁵` (and zero), scientific (`1.5e-7`)
//!   otherwise. Infinities are `inf` / `-inf`; an absent value is an empty field.

use std::path::Path;

use gendisc_metrics::Summary;

use crate::error::{Result, StudyError};
use crate::figure::Point;
use crate::runner::StudyResults;
use crate::store::write_atomically;

/// The shortest decimal representation of `x` that parses back to the same `f64`: positional
/// for zero and `10⁻⁴ ≤ |x| < 10¹⁵`, scientific otherwise; `inf`, `-inf` and `NaN` for the
/// non-finite values.
///
/// ```
/// use gendisc_engine::format_float;
/// assert_eq!(format_float(0.1), "0.1");
/// assert_eq!(format_float(3.0), "3");
/// assert_eq!(format_float(-2.5e-7), "-2.5e-7");
/// assert_eq!(format_float(1e300), "1e300");
/// assert_eq!(format_float(f64::INFINITY), "inf");
/// ```
pub fn format_float(x: f64) -> String {
    let magnitude = x.abs();
    if x == 0.0 || (1e-4..1e15).contains(&magnitude) {
        format!("{x}")
    } else if x.is_finite() {
        format!("{x:e}")
    } else if x.is_nan() {
        "NaN".into()
    } else if x > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}

/// The summary of one metric of one classifier over the replicates of one
/// `(dataset, training size)`.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryRow {
    /// The dataset.
    pub dataset: String,
    /// The training-set size.
    pub train_size: usize,
    /// The classifier.
    pub classifier: String,
    /// The metric.
    pub metric: String,
    /// The summary over the replicates that measured it.
    pub summary: Summary,
}

/// The centre of a curve drawn from a [`SummaryTable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Statistic {
    /// The mean over replicates.
    Mean,
    /// The median over replicates.
    Median,
}

/// The error bars (or band) of a curve drawn from a [`SummaryTable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spread {
    /// First and third quartiles.
    Quartiles,
    /// The 95% t interval of the mean (absent for a single replicate).
    MeanCi95,
    /// Minimum and maximum.
    Range,
}

/// Every `(dataset, training size, classifier, metric)` summary of a study.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryTable {
    rows: Vec<SummaryRow>,
}

impl SummaryTable {
    /// Summarises `results` over replicates.
    ///
    /// Rows come in a fixed order: the `(dataset, training size)` pairs in order of first
    /// appearance in the canonical cell order, then classifiers and metrics in schema order.
    /// Each group's values are taken in canonical cell order (so sums, and hence means, are
    /// reproducible to the bit); absent values are left out, and a group without any value has
    /// no row.
    ///
    /// Fails with [`StudyError::NonFiniteMeasurement`], naming the cell, when a value is
    /// infinite: the study must decide what an infinite metric means before it is averaged.
    pub fn from_results(results: &StudyResults) -> Result<Self> {
        let schema = results.schema();
        let mut groups: Vec<(&str, usize, Vec<usize>)> = Vec::new();
        let mut group_of = std::collections::HashMap::new();
        for (i, cell) in results.cells().iter().enumerate() {
            let key = (cell.dataset.as_str(), cell.train_size);
            let g = *group_of.entry(key).or_insert_with(|| {
                groups.push((key.0, key.1, Vec::new()));
                groups.len() - 1
            });
            groups[g].2.push(i);
        }

        let mut rows = Vec::new();
        let mut values = Vec::new();
        for (dataset, train_size, members) in &groups {
            for (c, classifier) in schema.classifiers().iter().enumerate() {
                for (m, metric) in schema.metrics().iter().enumerate() {
                    values.clear();
                    for &i in members {
                        let Some(value) = results.outcomes()[i].get(c, m) else {
                            continue;
                        };
                        if !value.is_finite() {
                            return Err(StudyError::NonFiniteMeasurement {
                                cell: results.cells()[i].clone(),
                                classifier: classifier.clone(),
                                metric: metric.clone(),
                                value,
                            });
                        }
                        values.push(value);
                    }
                    if values.is_empty() {
                        continue;
                    }
                    rows.push(SummaryRow {
                        dataset: dataset.to_string(),
                        train_size: *train_size,
                        classifier: classifier.clone(),
                        metric: metric.clone(),
                        summary: Summary::from_values(&values)?,
                    });
                }
            }
        }
        Ok(Self { rows })
    }

    /// The rows, in the order described at [`SummaryTable::from_results`].
    pub fn rows(&self) -> &[SummaryRow] {
        &self.rows
    }

    /// The summary of one group, if it has one.
    pub fn get(
        &self,
        dataset: &str,
        train_size: usize,
        classifier: &str,
        metric: &str,
    ) -> Option<&Summary> {
        self.rows
            .iter()
            .find(|r| {
                r.train_size == train_size
                    && r.dataset == dataset
                    && r.classifier == classifier
                    && r.metric == metric
            })
            .map(|r| &r.summary)
    }

    /// A learning curve: one point per training size of `dataset` (in table order), at `centre`
    /// of `classifier`'s `metric`, with error bounds from `spread` when given (and defined).
    ///
    /// Empty when the table has no such rows.
    pub fn curve(
        &self,
        dataset: &str,
        classifier: &str,
        metric: &str,
        centre: Statistic,
        spread: Option<Spread>,
    ) -> Vec<Point> {
        self.rows
            .iter()
            .filter(|r| r.dataset == dataset && r.classifier == classifier && r.metric == metric)
            .map(|r| {
                let s = &r.summary;
                let y = match centre {
                    Statistic::Mean => s.mean,
                    Statistic::Median => s.median,
                };
                let error = spread.and_then(|spread| match spread {
                    Spread::Quartiles => Some((s.q1, s.q3)),
                    Spread::MeanCi95 => s.mean_ci95.map(|ci| (ci.lower, ci.upper)),
                    Spread::Range => Some((s.min, s.max)),
                });
                Point {
                    x: r.train_size as f64,
                    y,
                    error,
                }
            })
            .collect()
    }

    /// The table as CSV with the columns
    /// `dataset,train_size,classifier,metric,n,mean,std_dev,std_error,mean_ci95_lower,`
    /// `mean_ci95_upper,min,q1,median,q3,max` (numbers as in [`format_float`]; the spread
    /// columns are empty for a single replicate).
    pub fn to_csv(&self) -> Result<String> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        let mut record = csv::StringRecord::new();
        record.extend([
            "dataset",
            "train_size",
            "classifier",
            "metric",
            "n",
            "mean",
            "std_dev",
            "std_error",
            "mean_ci95_lower",
            "mean_ci95_upper",
            "min",
            "q1",
            "median",
            "q3",
            "max",
        ]);
        write_record(&mut writer, &record)?;
        let optional = |x: Option<f64>| x.map_or_else(String::new, format_float);
        for row in &self.rows {
            let s = &row.summary;
            record.clear();
            record.push_field(&row.dataset);
            record.push_field(&row.train_size.to_string());
            record.push_field(&row.classifier);
            record.push_field(&row.metric);
            record.push_field(&s.n.to_string());
            record.push_field(&format_float(s.mean));
            record.push_field(&optional(s.std_dev));
            record.push_field(&optional(s.std_error));
            record.push_field(&optional(s.mean_ci95.map(|ci| ci.lower)));
            record.push_field(&optional(s.mean_ci95.map(|ci| ci.upper)));
            for x in [s.min, s.q1, s.median, s.q3, s.max] {
                record.push_field(&format_float(x));
            }
            write_record(&mut writer, &record)?;
        }
        finish_csv(writer)
    }

    /// Writes [`SummaryTable::to_csv`] to `path` (through a temporary file and a rename, so a
    /// crash never leaves half a table), creating the directory if needed.
    pub fn write_csv(&self, path: impl AsRef<Path>) -> Result<()> {
        write_atomically(path.as_ref(), self.to_csv()?.as_bytes())
    }
}

/// Every measurement of a study as CSV, one row per measured value, with the columns
/// `dataset,train_size,replicate,classifier,metric,value`; rows in canonical cell order, then
/// classifier and metric in schema order; absent values have no row; numbers as in
/// [`format_float`].
pub fn outcomes_csv(results: &StudyResults) -> Result<String> {
    let schema = results.schema();
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut record = csv::StringRecord::new();
    record.extend([
        "dataset",
        "train_size",
        "replicate",
        "classifier",
        "metric",
        "value",
    ]);
    write_record(&mut writer, &record)?;
    for (cell, outcome) in results.iter() {
        for (c, classifier) in schema.classifiers().iter().enumerate() {
            for (m, metric) in schema.metrics().iter().enumerate() {
                let Some(value) = outcome.get(c, m) else {
                    continue;
                };
                record.clear();
                record.push_field(&cell.dataset);
                record.push_field(&cell.train_size.to_string());
                record.push_field(&cell.replicate.to_string());
                record.push_field(classifier);
                record.push_field(metric);
                record.push_field(&format_float(value));
                write_record(&mut writer, &record)?;
            }
        }
    }
    finish_csv(writer)
}

/// Writes an output's text (a report, a table, an SVG figure) to `path`; an I/O failure is a
/// [`StudyError::Write`] naming the file.
pub fn write_text(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|source| StudyError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes [`outcomes_csv`] to `path` (atomically, creating the directory if needed).
pub fn write_outcomes_csv(results: &StudyResults, path: impl AsRef<Path>) -> Result<()> {
    write_atomically(path.as_ref(), outcomes_csv(results)?.as_bytes())
}

fn write_record(writer: &mut csv::Writer<Vec<u8>>, record: &csv::StringRecord) -> Result<()> {
    writer
        .write_record(record)
        .map_err(|error| StudyError::write("a CSV table in memory", csv_to_io(error)))
}

fn finish_csv(writer: csv::Writer<Vec<u8>>) -> Result<String> {
    let bytes = writer
        .into_inner()
        .map_err(|error| StudyError::write("a CSV table in memory", error.into_error()))?;
    // Every field was a Rust string, so the bytes are UTF-8.
    String::from_utf8(bytes).map_err(|error| {
        StudyError::write(
            "a CSV table in memory",
            std::io::Error::new(std::io::ErrorKind::InvalidData, error),
        )
    })
}

fn csv_to_io(error: csv::Error) -> std::io::Error {
    match error.into_kind() {
        csv::ErrorKind::Io(error) => error,
        other => std::io::Error::other(format!("{other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn format_float_switches_notation_at_the_documented_bounds() {
        assert_eq!(format_float(0.0), "0");
        assert_eq!(format_float(-0.0), "-0");
        assert_eq!(format_float(1e-4), "0.0001");
        assert_eq!(format_float(9.9e-5), "9.9e-5");
        assert_eq!(format_float(123456.789), "123456.789");
        assert_eq!(format_float(999_999_999_999_999.0), "999999999999999");
        assert_eq!(format_float(1e15), "1e15");
        assert_eq!(format_float(f64::NEG_INFINITY), "-inf");
        assert_eq!(format_float(f64::NAN), "NaN");
        assert_eq!(format_float(f64::MIN_POSITIVE), "2.2250738585072014e-308");
    }

    proptest! {
        #[test]
        fn format_float_round_trips(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assume!(x.is_finite());
            let back: f64 = format_float(x).parse().unwrap();
            prop_assert_eq!(back.to_bits(), x.to_bits());
        }
    }
}
