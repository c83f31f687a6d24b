//! The claim sections reports share: each claim's words, then its verdict under each reading.

use std::fmt::Write as _;

use super::{Statement, Verdict};

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

/// For each claim of `verdicts`, once and in the order of its first verdict: a heading
/// `### {heading} {id}`, the paper's words quoted, what a unit is when the report computes the
/// units ([`Statement::Units`]), then each of its verdicts as `Reading *…*:` with its verdict
/// line ([`Verdict::markdown`]) and the units against it ([`Verdict::against_list`]).
pub fn claim_sections(verdicts: &[Verdict], heading: &str) -> String {
    let mut md = String::new();
    for (id, of_claim) in by_claim(verdicts) {
        let _ = writeln!(
            md,
            "### {heading} {id}\n\n> *\"{}\"*\n",
            of_claim[0].claim.quote
        );
        if let Statement::Units { what, .. } = &of_claim[0].claim.statement {
            let _ = writeln!(md, "A unit: {what}.\n");
        }
        for v in of_claim {
            let _ = writeln!(md, "Reading *{}*:\n\n{}\n", v.claim.reading, v.markdown());
            let against = v.against_list();
            if !against.is_empty() {
                let _ = writeln!(md, "{against}");
            }
        }
    }
    md
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
        let text = claim_sections(&verdicts, "Claim");
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
}
