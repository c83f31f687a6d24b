//! Summaries over replicates and the CSV tables, checked against values worked out by hand.

use gendisc_core::Error;
use gendisc_engine::{
    format_float, outcomes_csv, Cell, Outcome, Runner, Schema, Spread, Statistic, Study,
    StudyError, SummaryTable,
};
use gendisc_metrics::distributions::student_t_quantile;

/// Two datasets × two sizes × four replicates. Classifier `a` measures `x = replicate + size`
/// and, for dataset `d2` only, `y = −replicate`; classifier `b` measures `x = 0.5` in
/// replicates 0 and 1 only, and `y` never.
struct HandMade {
    schema: Schema,
    infinite_at: Option<Cell>,
}

impl HandMade {
    fn new() -> Self {
        Self {
            schema: Schema::new(["a", "b"], ["x", "y"]).unwrap(),
            infinite_at: None,
        }
    }
}

impl Study for HandMade {
    fn id(&self) -> &str {
        "hand-made"
    }
    fn fingerprint(&self) -> String {
        "1".into()
    }
    fn schema(&self) -> &Schema {
        &self.schema
    }
    fn cells(&self) -> Vec<Cell> {
        Cell::grid(&["d1", "d2"], &[10, 20], 4)
    }
    fn run_cell(&self, cell: &Cell) -> gendisc_core::Result<Outcome> {
        let mut outcome = Outcome::new(&self.schema);
        let r = cell.replicate as f64;
        outcome.set(0, 0, r + cell.train_size as f64)?;
        if cell.dataset == "d2" {
            outcome.set(0, 1, -r)?;
        }
        if cell.replicate < 2 {
            outcome.set(1, 0, 0.5)?;
        }
        if self.infinite_at.as_ref() == Some(cell) {
            outcome.set(0, 0, f64::INFINITY)?;
        }
        Ok(outcome)
    }
}

#[test]
fn summaries_match_hand_computation() {
    let results = Runner::default().run(&HandMade::new()).unwrap();
    let table = SummaryTable::from_results(&results).unwrap();
    let keys: Vec<String> = table
        .rows()
        .iter()
        .map(|r| {
            format!(
                "{}/{}/{}/{}",
                r.dataset, r.train_size, r.classifier, r.metric
            )
        })
        .collect();
    assert_eq!(
        keys,
        [
            "d1/10/a/x",
            "d1/10/b/x",
            "d1/20/a/x",
            "d1/20/b/x",
            "d2/10/a/x",
            "d2/10/a/y",
            "d2/10/b/x",
            "d2/20/a/x",
            "d2/20/a/y",
            "d2/20/b/x",
        ],
        "groups in canonical order, classifiers and metrics in schema order, empty groups left out"
    );

    // a/x at size 20: 20, 21, 22, 23. Mean 21.5; s² = (2.25 + 0.25 + 0.25 + 2.25)/3 = 5/3;
    // type 7 quartiles at h = 0.75 and 2.25: 20.75 and 22.25.
    let s = table.get("d1", 20, "a", "x").unwrap();
    assert_eq!(s.n, 4);
    assert_eq!(
        (s.mean, s.median, s.q1, s.q3, s.min, s.max),
        (21.5, 21.5, 20.75, 22.25, 20.0, 23.0)
    );
    let sd = (5.0_f64 / 3.0).sqrt();
    assert!((s.std_dev.unwrap() - sd).abs() < 1e-14);
    let half = student_t_quantile(0.975, 3.0).unwrap() * sd / 2.0;
    let ci = s.mean_ci95.unwrap();
    assert!((ci.lower - (21.5 - half)).abs() < 1e-12 && (ci.upper - (21.5 + half)).abs() < 1e-12);

    // b/x has two replicates of 0.5: no spread.
    let s = table.get("d2", 10, "b", "x").unwrap();
    assert_eq!((s.n, s.mean, s.std_dev), (2, 0.5, Some(0.0)));
    assert!(table.get("d1", 10, "a", "y").is_none());
    assert!(table.get("d3", 10, "a", "x").is_none());

    // Curves: one point per size, centre and spread as asked.
    let curve = table.curve("d2", "a", "y", Statistic::Median, Some(Spread::Quartiles));
    assert_eq!(curve.len(), 2);
    assert_eq!(
        (curve[0].x, curve[0].y, curve[0].error),
        (10.0, -1.5, Some((-2.25, -0.75)))
    );
    let curve = table.curve("d1", "a", "x", Statistic::Mean, Some(Spread::Range));
    assert_eq!(
        (curve[1].x, curve[1].y, curve[1].error),
        (20.0, 21.5, Some((20.0, 23.0)))
    );
    let curve = table.curve("d1", "a", "x", Statistic::Mean, Some(Spread::MeanCi95));
    assert_eq!(curve[1].error, Some((ci.lower, ci.upper)));
    assert!(table
        .curve("d1", "nope", "x", Statistic::Mean, None)
        .is_empty());
}

#[test]
fn csv_tables_are_exact() {
    let results = Runner::default().run(&HandMade::new()).unwrap();
    let table = SummaryTable::from_results(&results).unwrap();
    let csv = table.to_csv().unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "dataset,train_size,classifier,metric,n,mean,std_dev,std_error,mean_ci95_lower,\
         mean_ci95_upper,min,q1,median,q3,max"
    );
    assert_eq!(lines.len(), 11);
    let s = table.get("d1", 10, "a", "x").unwrap();
    let ci = s.mean_ci95.unwrap();
    assert_eq!(
        lines[1],
        format!(
            "d1,10,a,x,4,11.5,{},{},{},{},10,10.75,11.5,12.25,13",
            format_float(s.std_dev.unwrap()),
            format_float(s.std_error.unwrap()),
            format_float(ci.lower),
            format_float(ci.upper)
        )
    );
    assert_eq!(lines[2], "d1,10,b,x,2,0.5,0,0,0.5,0.5,0.5,0.5,0.5,0.5,0.5");

    let outcomes = outcomes_csv(&results).unwrap();
    let lines: Vec<&str> = outcomes.lines().collect();
    assert_eq!(
        lines[0],
        "dataset,train_size,replicate,classifier,metric,value"
    );
    assert_eq!(
        &lines[1..4],
        ["d1,10,0,a,x,10", "d1,10,0,b,x,0.5", "d1,10,1,a,x,11"]
    );
    // a/x is measured in all 16 cells, a/y in the 8 cells of d2, b/x in the 8 cells of
    // replicates 0 and 1.
    assert_eq!(lines.len(), 1 + 16 + 8 + 8);
    assert!(lines.contains(&"d2,20,3,a,y,-3"));

    // The same results always give the same bytes.
    let again = Runner::default().run(&HandMade::new()).unwrap();
    assert_eq!(
        SummaryTable::from_results(&again)
            .unwrap()
            .to_csv()
            .unwrap(),
        csv
    );
    assert_eq!(outcomes_csv(&again).unwrap(), outcomes);
}

#[test]
fn an_infinite_measurement_is_named_not_averaged() {
    let mut study = HandMade::new();
    study.infinite_at = Some(Cell::new("d2", 10, 2));
    let results = Runner::default().run(&study).unwrap();
    // The outcome CSV keeps it.
    assert!(outcomes_csv(&results).unwrap().contains("d2,10,2,a,x,inf"));
    let error = SummaryTable::from_results(&results).unwrap_err();
    let StudyError::NonFiniteMeasurement {
        cell,
        classifier,
        metric,
        value,
    } = &error
    else {
        panic!("expected NonFiniteMeasurement, got {error}");
    };
    assert_eq!(cell, &Cell::new("d2", 10, 2));
    assert_eq!(
        (classifier.as_str(), metric.as_str(), *value),
        ("a", "x", f64::INFINITY)
    );
    assert!(error.to_string().contains("replicate 2"), "{error}");
}

#[test]
fn csv_names_with_commas_and_quotes_are_quoted() {
    struct Awkward(Schema);
    impl Study for Awkward {
        fn id(&self) -> &str {
            "awkward"
        }
        fn fingerprint(&self) -> String {
            "1".into()
        }
        fn schema(&self) -> &Schema {
            &self.0
        }
        fn cells(&self) -> Vec<Cell> {
            Cell::grid(&["a,b \"c\""], &[1], 1)
        }
        fn run_cell(&self, _: &Cell) -> gendisc_core::Result<Outcome> {
            let mut outcome = Outcome::new(&self.0);
            outcome.set(0, 0, 2.5e-7)?;
            Ok(outcome)
        }
    }
    let results = Runner::default()
        .run(&Awkward(Schema::new(["k"], ["m"]).unwrap()))
        .unwrap();
    let csv = outcomes_csv(&results).unwrap();
    assert_eq!(
        csv.lines().nth(1).unwrap(),
        "\"a,b \"\"c\"\"\",1,0,k,m,2.5e-7"
    );
    let summary = SummaryTable::from_results(&results)
        .unwrap()
        .to_csv()
        .unwrap();
    assert!(summary
        .lines()
        .nth(1)
        .unwrap()
        .ends_with(",1,2.5e-7,,,,,2.5e-7,2.5e-7,2.5e-7,2.5e-7,2.5e-7"));
    assert!(matches!(
        Schema::new(["k"], [""]),
        Err(Error::InvalidParameter { .. })
    ));
}
