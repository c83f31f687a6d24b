//! What every report says of its claims: the rule they are judged by, a table of the
//! verdicts, each claim's words with its verdict under each reading, and the claims whose
//! verdict changes with the reading.

use std::fmt::Write as _;

use super::{Statement, Thresholds, Verdict};

/// The verdicts grouped by claim: each claim once, in the order of its first verdict, with its
/// verdicts (one per reading) in their order.
pub fn by_claim(verdicts: &[Verdict]) -> Vec<(&str, Vec<&Verdict>)> {
    let mut groups: Vec<(&str, Vec<&Verdict>)> = Vec::new();
    for v in verdicts {
        match groups.iter_mut().find(|(id, _)| *id == v.claim.id) {
            Some((_, of_claim)) => of_claim.push(v),
            None => groups.push((&v.claim.id, vec![v])),
        }
    }
    groups
}

/// The thresholds and the sensitivity check as one sentence, for a report to state once beside
/// how its `units` are judged: the shares of [`Thresholds::DEFAULT`], those of
/// [`Thresholds::EVERY`] when some claim of `verdicts` is held to them, and
/// [`Thresholds::SHIFT`].
pub fn rule_sentence(verdicts: &[Verdict], units: &str) -> String {
    let Thresholds { supported, partly } = Thresholds::DEFAULT;
    let every = if verdicts
        .iter()
        .any(|v| v.claim.thresholds == Thresholds::EVERY)
    {
        format!(
            " ({}% and {}% where the paper says it of every one)",
            Thresholds::EVERY.supported,
            Thresholds::EVERY.partly
        )
    } else {
        String::new()
    };
    format!(
        "A claim is supported when it holds at {supported}% of its {units}, partly supported \
         from {partly}%{every}; a verdict is borderline when moving both thresholds by {} points \
         or the window by one size changes it.",
        Thresholds::SHIFT
    )
}

/// One row per verdict, in order: claim, reading, verdict with robust or borderline, and the
/// tally.
pub fn verdict_table(verdicts: &[Verdict]) -> String {
    let mut md =
        String::from("| claim | reading | verdict | holds / ties / against |\n|---|---|---|---|\n");
    for v in verdicts {
        let _ = writeln!(
            md,
            "| {} | {} | **{}** ({}) | {} / {} / {} {} |",
            v.claim.id,
            v.claim.reading,
            v.word,
            if v.robust() { "robust" } else { "borderline" },
            v.tally.holds,
            v.tally.ties,
            v.tally.against,
            v.unit_name
        );
    }
    md
}

/// For each claim of `verdicts`, once and in the order of its first verdict: a heading
/// `{heading} {id}` (`heading` carries its level, e.g. `"### Claim"`), the paper's words quoted,
/// what a unit is when the report computes the units ([`Statement::Units`]), then each of its
/// verdicts as `Reading *…*:` with how its units are judged ([`Claim::unit_rule`]), its verdict
/// line ([`Verdict::markdown`]) and the units against it ([`Verdict::against_list`]).
///
/// [`Claim::unit_rule`]: super::Claim::unit_rule
pub fn claim_sections(verdicts: &[Verdict], heading: &str) -> String {
    let mut md = String::new();
    for (id, of_claim) in by_claim(verdicts) {
        let _ = writeln!(
            md,
            "{heading} {id}\n\n> *\"{}\"*\n",
            of_claim[0].claim.quote
        );
        if let Statement::Units { what, .. } = &of_claim[0].claim.statement {
            let _ = writeln!(md, "A unit: {what}.\n");
        }
        for v in of_claim {
            let rule = &v.claim.unit_rule;
            let space = if rule.is_empty() { "" } else { " " };
            let _ = writeln!(
                md,
                "Reading *{}*:{space}{rule}\n\n{}\n",
                v.claim.reading,
                v.markdown()
            );
            let against = v.against_list();
            if !against.is_empty() {
                let _ = writeln!(md, "{against}");
            }
        }
    }
    md
}

/// For each claim whose verdict differs between readings that share a key, a sentence saying
/// so ("The verdict on … changes with the reading: under reading (a) it is … ; under reading
/// (b) …"); empty when no verdict changes.
///
/// The key says which readings are compared: `()` for all readings of a claim; a part of a
/// structured reading (the measure of a pair (alignment, measure)) to compare only the readings
/// that differ in the other part.
pub fn reading_changes<'a, K: PartialEq>(
    keyed: impl IntoIterator<Item = (K, &'a Verdict)>,
) -> String {
    let mut groups: Vec<(&str, K, Vec<&Verdict>)> = Vec::new();
    for (key, v) in keyed {
        match groups
            .iter_mut()
            .find(|(id, k, _)| *id == v.claim.id && *k == key)
        {
            Some((_, _, same)) => same.push(v),
            None => groups.push((&v.claim.id, key, vec![v])),
        }
    }
    let mut out = String::new();
    for (_, _, same) in groups {
        if same.iter().all(|v| v.word == same[0].word) {
            continue;
        }
        let parts: Vec<String> = same
            .iter()
            .map(|v| {
                format!(
                    "under reading {} it is **{}** ({} of {} {})",
                    v.claim.reading,
                    v.word,
                    v.tally.holds,
                    v.tally.total(),
                    v.unit_name
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "The verdict on *\"{}\"* changes with the reading: {}.\n",
            same[0].claim.quote,
            parts.join("; ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::{Better, Claim, Evidence, Judgement, Kind, Unit};

    #[test]
    fn each_claim_once_with_its_readings_in_order() {
        let mut evidence = Evidence::new(["a", "b"], Better::Lower);
        evidence
            .push("g", 10, vec![vec![0.1, 0.1, 0.1], vec![0.3, 0.31, 0.29]])
            .unwrap();
        let beats = |reading: &str| {
            let claim = Claim::new(
                "1",
                "A wins",
                Statement::Beats {
                    a: "a".into(),
                    b: "b".into(),
                },
            )
            .reading(reading);
            Verdict::judge(&claim, &evidence, "point").unwrap()
        };
        let units = Claim::new(
            "2",
            "it lies in range",
            Statement::Units {
                what: "the value lies in [0, 1]".into(),
                kind: Kind::Difference,
            },
        );
        let against = Verdict::from_units(&units, &[10], "point", |_, _| {
            Ok(vec![Unit::point("g", 10, Judgement::Against, "1.5".into())])
        })
        .unwrap();
        let verdicts = [beats("first"), against, beats("second")];
        let grouped: Vec<(&str, Vec<&str>)> = by_claim(&verdicts)
            .into_iter()
            .map(|(id, of)| (id, of.iter().map(|v| v.claim.reading.as_str()).collect()))
            .collect();
        assert_eq!(
            grouped,
            [
                ("1", vec!["first", "second"]),
                ("2", vec![verdicts[1].claim.reading.as_str()])
            ]
        );
        let text = claim_sections(&verdicts, "### Claim");
        let headings: Vec<&str> = text.lines().filter(|l| l.starts_with("### ")).collect();
        assert_eq!(headings, ["### Claim 1", "### Claim 2"], "{text}");
        let first = text.find("Reading *first*").unwrap();
        let second = text.find("Reading *second*").unwrap();
        assert!(
            first < second && second < text.find("### Claim 2").unwrap(),
            "{text}"
        );
        assert!(text.contains("> *\"it lies in range\"*"), "{text}");
        assert!(text.contains("A unit: the value lies in [0, 1]."), "{text}");
        assert!(text.contains("- g at m = 10: 1.5"), "{text}");
    }

    /// A `Beats` verdict of claim `id` under `reading`: A ahead at `ahead` of four points.
    fn beats(id: &str, reading: &str, ahead: usize) -> Verdict {
        let mut evidence = Evidence::new(["a", "b"], Better::Lower);
        for m in 0..4 {
            let gap = if m < ahead { 0.2 } else { -0.2 };
            let b = vec![0.5, 0.51, 0.49];
            let a = b.iter().map(|x| x - gap).collect();
            evidence.push("g", 10 + m, vec![a, b]).unwrap();
        }
        let claim = Claim::new(
            id,
            format!("A wins ({id})"),
            Statement::Beats {
                a: "a".into(),
                b: "b".into(),
            },
        )
        .reading(reading);
        Verdict::judge(&claim, &evidence, "points").unwrap()
    }

    #[test]
    fn the_rule_states_the_thresholds_and_every_only_when_a_claim_uses_them() {
        let usual = rule_sentence(&[beats("1", "r", 4)], "datasets");
        let (t, e) = (Thresholds::DEFAULT, Thresholds::EVERY);
        assert!(
            usual.contains(&format!("holds at {}% of its datasets", t.supported)),
            "{usual}"
        );
        assert!(usual.contains(&format!("from {}%;", t.partly)), "{usual}");
        assert!(
            usual.contains(&format!("by {} points", Thresholds::SHIFT)),
            "{usual}"
        );
        assert!(!usual.contains("every"), "{usual}");
        let mut strict = beats("2", "r", 4);
        strict.claim.thresholds = Thresholds::EVERY;
        let every = rule_sentence(&[strict], "datasets");
        assert!(
            every.contains(&format!("({}% and {}% where", e.supported, e.partly)),
            "{every}"
        );
    }

    #[test]
    fn the_table_has_a_row_per_verdict_in_order() {
        let table = verdict_table(&[beats("1", "x", 4), beats("2", "y", 0)]);
        let rows: Vec<&str> = table.lines().skip(2).collect();
        assert_eq!(rows.len(), 2, "{table}");
        assert!(rows[0].starts_with("| 1 | x | **supported** ("), "{table}");
        assert!(
            rows[1].starts_with("| 2 | y | **not supported** ("),
            "{table}"
        );
        assert!(rows[0].ends_with("| 4 / 0 / 0 points |"), "{table}");
    }

    #[test]
    fn a_unit_rule_is_printed_beside_its_reading() {
        let mut v = beats("1", "x", 4);
        v.claim = v.claim.unit_rule("Each point is read in accuracy points.");
        let text = claim_sections(&[v], "#### Claim");
        assert!(text.starts_with("#### Claim 1\n"), "{text}");
        assert!(
            text.contains("Reading *x*: Each point is read in accuracy points.\n\n**supported**"),
            "{text}"
        );
    }

    #[test]
    fn a_changed_verdict_is_named_only_among_readings_that_share_a_key() {
        let verdicts = [
            beats("1", "x · p", 4),
            beats("1", "y · p", 0),
            beats("1", "x · q", 4),
            beats("1", "y · q", 4),
            beats("2", "x · p", 0),
            beats("2", "y · p", 0),
        ];
        let all = reading_changes(verdicts.iter().map(|v| ((), v)));
        assert_eq!(all.matches("changes with the reading").count(), 1, "{all}");
        assert!(all.contains("*\"A wins (1)\"*"), "{all}");
        assert!(
            all.contains("under reading y · p it is **not supported** (0 of 4 points)"),
            "{all}"
        );
        // Compared within the second part only: p changes between x and y, q does not.
        let by_part = reading_changes(
            verdicts
                .iter()
                .map(|v| (v.claim.reading.split(" · ").nth(1), v)),
        );
        assert_eq!(
            by_part.matches("changes with the reading").count(),
            1,
            "{by_part}"
        );
        assert!(!by_part.contains("x · q"), "{by_part}");
        assert!(reading_changes(verdicts[4..].iter().map(|v| ((), v))).is_empty());
    }
}
