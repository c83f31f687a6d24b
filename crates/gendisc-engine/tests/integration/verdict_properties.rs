//! Properties of the judging module on random evidence.

use gendisc_engine::verdict::{
    Better, Centre, Claim, Evidence, Judgement, Statement, Verdict, Window, Word,
};
use proptest::prelude::*;

/// Evidence of two series "A" and "B" over `sizes`, from a flat list of values.
fn evidence(sizes: &[usize], n: usize, values: &[f64], centre: Centre) -> Evidence {
    let mut e = Evidence::new(["A", "B"], Better::Lower).centre(centre);
    for (i, &m) in sizes.iter().enumerate() {
        let at = |s: usize| {
            (0..n)
                .map(|r| values[(i * 2 * n + s * n + r) % values.len()])
                .collect::<Vec<f64>>()
        };
        e.push("g", m, vec![at(0), at(1)]).unwrap();
    }
    e
}

fn statement(name: &str, a: &str, b: &str) -> Statement {
    match name {
        "beats" => Statement::Beats {
            a: a.into(),
            b: b.into(),
        },
        _ => Statement::NoWorse {
            a: a.into(),
            b: b.into(),
        },
    }
}

proptest! {
    #[test]
    fn judging_is_a_function_of_the_evidence(
        values in prop::collection::vec(0.0f64..1.0, 20..200),
        n in 2usize..12,
        median in any::<bool>(),
    ) {
        let centre = if median { Centre::Median } else { Centre::Mean };
        let sizes = [5, 10, 20, 40];
        let e = evidence(&sizes, n, &values, centre);
        let claim = Claim::new("c", "q", statement("beats", "A", "B"))
            .window(Window::range(5, 20), "test");
        let one = Verdict::judge(&claim, &e, "points").unwrap();
        let two = Verdict::judge(&claim, &e.clone(), "points").unwrap();
        prop_assert_eq!(&one, &two);
        prop_assert_eq!(one.tally.total(), 3);
    }

    #[test]
    fn swapping_the_series_swaps_holds_and_against(
        values in prop::collection::vec(0.0f64..1.0, 20..200),
        n in 2usize..12,
    ) {
        let sizes = [5, 10, 20, 40];
        let e = evidence(&sizes, n, &values, Centre::Mean);
        let ab = Verdict::judge(&Claim::new("c", "q", statement("beats", "A", "B")), &e, "points").unwrap();
        let ba = Verdict::judge(&Claim::new("c", "q", statement("beats", "B", "A")), &e, "points").unwrap();
        prop_assert_eq!(ab.tally.holds, ba.tally.against);
        prop_assert_eq!(ab.tally.ties, ba.tally.ties);
        // "A no worse than B" holds wherever "B beats A" does not.
        let no_worse = Verdict::judge(&Claim::new("c", "q", statement("no-worse", "A", "B")), &e, "points").unwrap();
        prop_assert_eq!(no_worse.tally.counting(), no_worse.tally.total() - ba.tally.holds);
        for (u, v) in ab.units.iter().zip(&ba.units) {
            let mirrored = match u.judgement {
                Judgement::Holds => Judgement::Against,
                Judgement::Against => Judgement::Holds,
                Judgement::Tie => Judgement::Tie,
            };
            prop_assert_eq!(mirrored, v.judgement);
        }
    }

    #[test]
    fn a_robust_verdict_survives_every_perturbation(
        values in prop::collection::vec(0.0f64..1.0, 20..200),
        n in 2usize..12,
    ) {
        let sizes = [5, 10, 20, 40, 80];
        let e = evidence(&sizes, n, &values, Centre::Mean);
        let claim = Claim::new("c", "q", statement("beats", "A", "B"))
            .window(Window::range(10, 40), "test");
        let v = Verdict::judge(&claim, &e, "points").unwrap();
        let t = v.tally;
        for shift in [-10, 10] {
            let word = claim.thresholds.shifted(shift).word(t.counting(), t.total());
            prop_assert!(word == v.word || !v.robust());
        }
        for w in claim.window.neighbours(&e.grid()) {
            let other = Verdict::judge(&claim.clone().window(w, "neighbour"), &e, "points").unwrap();
            prop_assert!(other.word == v.word || !v.robust());
        }
        prop_assert!(v.word != Word::NotAssessed);
    }
}
