//! `verdicts.csv`: every verdict of a report, one row each, and the table of every claim of
//! every paper assembled from those files.

use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Result, StudyError};
use crate::store::write_atomically;

use super::judge::Verdict;
use super::thresholds::Word;

/// One row of `verdicts.csv`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerdictRow {
    /// The study (`ng-jordan`, …).
    pub study: String,
    /// The claim's identifier within the study.
    pub claim: String,
    /// The reading it was judged under.
    pub reading: String,
    /// `supported`, `partly supported`, `not supported` or `not assessed`.
    pub verdict: String,
    /// `robust` or `borderline: …`.
    pub robustness: String,
    /// Units where the claim holds.
    pub holds: usize,
    /// Ties.
    pub ties: usize,
    /// Units against it.
    pub against: usize,
    /// What the units are.
    pub unit: String,
    /// The window judged.
    pub window: String,
    /// The paper's words.
    pub quote: String,
}

impl VerdictRow {
    /// The row of a verdict of `study`.
    pub fn new(study: &str, verdict: &Verdict) -> Self {
        Self {
            study: study.to_string(),
            claim: verdict.claim.id.clone(),
            reading: verdict.claim.reading.clone(),
            verdict: verdict.word.to_string(),
            robustness: verdict.robustness(),
            holds: verdict.tally.holds,
            ties: verdict.tally.ties,
            against: verdict.tally.against,
            unit: verdict.unit_name.clone(),
            window: verdict.claim.window.label(&verdict.claim.axis),
            quote: verdict.claim.quote.clone(),
        }
    }
}

/// Writes `verdicts.csv` for `study` (header, then one row per verdict in the given order).
pub fn write_verdicts_csv(path: impl AsRef<Path>, study: &str, verdicts: &[Verdict]) -> Result<()> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for v in verdicts {
        writer
            .serialize(VerdictRow::new(study, v))
            .map_err(csv_error)?;
    }
    let bytes = writer.into_inner().map_err(|e| csv_error(e.to_string()))?;
    write_atomically(path.as_ref(), &bytes)
}

/// The number of verdict lines ([`Verdict::markdown`]) in a report: lines that start with a
/// verdict in bold followed by `(robust` or `(borderline`. A report has one per row of its
/// `verdicts.csv`.
pub fn count_verdict_lines(report: &str) -> usize {
    const WORDS: [Word; 4] = [
        Word::Supported,
        Word::PartlySupported,
        Word::NotSupported,
        Word::NotAssessed,
    ];
    report
        .lines()
        .filter(|line| {
            WORDS.iter().any(|w| {
                line.strip_prefix(&format!("**{w}** ")).is_some_and(|rest| {
                    rest.starts_with("(robust") || rest.starts_with("(borderline")
                })
            })
        })
        .count()
}

/// Reads a `verdicts.csv`.
pub fn read_verdicts_csv(text: &str) -> Result<Vec<VerdictRow>> {
    csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .map(|row| row.map_err(csv_error))
        .collect()
}

/// The table of every claim: one Markdown row per verdict row, grouped by study in the order
/// given.
pub fn claims_markdown(rows: &[VerdictRow]) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "| study | claim | the paper's words | reading | verdict | robust or borderline | holds / ties / against |\n|---|---|---|---|---|---|---|"
    );
    for r in rows {
        let quote: String = r.quote.chars().take(140).collect();
        let ellipsis = if r.quote.chars().count() > 140 {
            "…"
        } else {
            ""
        };
        let _ = writeln!(
            md,
            "| {} | {} | {}{} | {} | **{}** | {} | {} / {} / {} {} |",
            r.study,
            r.claim,
            escape(&quote),
            ellipsis,
            escape(&r.reading),
            r.verdict,
            escape(&r.robustness),
            r.holds,
            r.ties,
            r.against,
            r.unit
        );
    }
    md
}

fn escape(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn csv_error(detail: impl std::fmt::Display) -> StudyError {
    StudyError::Core(gendisc_core::Error::invalid_parameter(
        "verdicts.csv",
        detail.to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_lines_are_counted_and_nothing_else() {
        let report = "**supported** (robust) — holds at 3 of 4 points\n\
                      **not supported** (borderline: partly supported with window m = 5) — …\n\
                      **supported** — a sentence that only starts like a verdict\n\
                      The claim is **not supported** (robust) mid-line\n\
                      **not assessed** (robust) — no points to judge\n";
        assert_eq!(count_verdict_lines(report), 3);
    }
}
