//! The sixth paper of `docs/adding-a-paper.md`, whole: a toy study, one claim judged by the
//! engine's verdict module, a report, and its [`Paper`] implementation — run here through the
//! interface `cargo xtask reproduce` uses, so that the walk-through stays true.

use std::path::{Path, PathBuf};

use gendisc_engine::verdict::{
    claim_sections, count_verdict_lines, read_verdicts_csv, rule_sentence, write_verdicts_csv,
    Better, Claim, Evidence, Statement, Verdict, Window,
};
use gendisc_engine::{
    fingerprint, write_text, Cell, Key, Outcome, Progress, Result, RunnerSettings, Schema, Study,
    StudyResults,
};
use rand_distr::{Distribution, StandardNormal};
use serde::Serialize;

use crate::paper::{Grid, Paper, Ran};

// Step 1: the study. Two classes on the line, `x | y ~ N(±1, 1)`: the plug-in rule thresholds
// at the midpoint of the two estimated class means; the fixed rule `sign(x)` is Bayes-optimal.

/// Everything that decides the outcomes (its hash is the study's fingerprint).
#[derive(Serialize)]
struct Settings {
    train_sizes: Vec<usize>,
    replicates: usize,
    test_size: usize,
    seed: u64,
}

impl Settings {
    fn for_grid(grid: Grid) -> Self {
        let replicates = grid.choose(|| 100, || 40);
        Settings {
            train_sizes: vec![2, 4, 8, 64],
            replicates,
            test_size: 2_000,
            seed: 7,
        }
    }
}

/// The classifiers and metric of the schema, by name: the one place they are spelled.
const PLUG_IN: &str = "plug-in";
const FIXED: &str = "fixed";
const ERROR_RATE: &str = "error-rate";

/// The study's classifiers, as the code addresses them.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Rule {
    PlugIn,
    Fixed,
}

impl Key for Rule {
    const ALL: &'static [Self] = &[Self::PlugIn, Self::Fixed];

    fn name(self) -> &'static str {
        match self {
            Self::PlugIn => PLUG_IN,
            Self::Fixed => FIXED,
        }
    }
}

/// The study's one metric.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ErrorRate;

impl Key for ErrorRate {
    const ALL: &'static [Self] = &[Self];

    fn name(self) -> &'static str {
        ERROR_RATE
    }
}

/// The two threshold rules on the line, as a study.
struct ThresholdRules {
    settings: Settings,
    schema: Schema,
}

impl Study for ThresholdRules {
    fn id(&self) -> &str {
        "toy"
    }

    fn fingerprint(&self) -> String {
        fingerprint(&self.settings)
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn cells(&self) -> Vec<Cell> {
        Cell::grid(
            &["line"],
            &self.settings.train_sizes,
            self.settings.replicates,
        )
    }

    fn run_cell(&self, cell: &Cell) -> gendisc_core::Result<Outcome> {
        let mut rng = cell.rng(self.settings.seed);
        let mut draw = |class: usize| {
            let centre = if class == 1 { 1.0 } else { -1.0 };
            let noise: f64 = StandardNormal.sample(&mut rng);
            centre + noise
        };
        let half = cell.train_size / 2;
        let mean = |draw: &mut dyn FnMut(usize) -> f64, class| {
            (0..half).map(|_| draw(class)).sum::<f64>() / half as f64
        };
        let threshold = 0.5 * (mean(&mut draw, 0) + mean(&mut draw, 1));
        let (mut plug_in, mut fixed) = (0usize, 0usize);
        for i in 0..self.settings.test_size {
            let class = i % 2;
            let x = draw(class);
            plug_in += usize::from(usize::from(x > threshold) != class);
            fixed += usize::from(usize::from(x > 0.0) != class);
        }
        let n = self.settings.test_size as f64;
        let mut outcome = Outcome::new(&self.schema);
        outcome.put(Rule::PlugIn, ErrorRate, plug_in as f64 / n)?;
        outcome.put(Rule::Fixed, ErrorRate, fixed as f64 / n)?;
        Ok(outcome)
    }
}

// Step 2: the claim, judged by the engine from the results just computed, and the report.

/// The toy paper's claim: with few training rows, the rule that learns nothing wins.
fn claim() -> Claim {
    Claim::new(
        "small-m",
        "with very few training rows, the fixed rule has the lower error",
        Statement::Beats {
            a: FIXED.into(),
            b: PLUG_IN.into(),
        },
    )
    .window(Window::range(2, 8), "the toy paper speaks of m ≤ 8")
}

/// Writes `REPORT.md` (the judging rule, then each claim with its verdict) and `verdicts.csv`.
fn write_report(out: &Path, _: &ThresholdRules, results: &StudyResults) -> Result<()> {
    let evidence = Evidence::from_results(results, ERROR_RATE, &[FIXED, PLUG_IN], Better::Lower)?;
    let verdicts = [Verdict::judge(&claim(), &evidence, "points")?];
    let report = format!(
        "# A toy paper\n\n{}\n\n{}",
        rule_sentence(&verdicts, "points"),
        claim_sections(&verdicts, "## Claim")
    );
    write_text(&out.join("REPORT.md"), &report)?;
    write_verdicts_csv(out.join("verdicts.csv"), "toy", &verdicts)
}

// Step 3: the paper, as `cargo xtask reproduce` sees it (then one line in `papers::registry`).

/// The toy paper.
struct Toy;

impl Paper for Toy {
    fn id(&self) -> &'static str {
        "toy"
    }

    fn citation(&self) -> &'static str {
        "A. Toy (2026), The plug-in rule and the fixed rule"
    }

    fn run(&self, out: &Path, grid: Grid, runner: RunnerSettings) -> Result<Ran> {
        let study = ThresholdRules {
            settings: Settings::for_grid(grid),
            schema: Schema::of::<Rule, ErrorRate>()?,
        };
        // The store `cells.jsonl` (resumed when it holds cells of these settings) and its CSV,
        // then the report.
        let results = crate::papers::run_and_write(&study, out, runner, write_report)?;
        Ok(Ran::one(self.id(), &results))
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gendisc-toy-paper-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_sixth_paper_runs_through_the_interface_and_judges_its_claim() {
    let paper: &dyn Paper = &Toy;
    let out = scratch("run");
    let quiet = || RunnerSettings {
        progress: Progress::Never,
        ..RunnerSettings::default()
    };
    let ran = paper.run(&out, Grid::Quick, quiet()).unwrap();
    assert_eq!((ran.cells(), ran.resumed()), (4 * 40, 0));

    let report = std::fs::read_to_string(out.join("REPORT.md")).unwrap();
    assert_eq!(count_verdict_lines(&report), 1, "{report}");
    assert!(report.contains("holds at 3 of 3 points"), "{report}");
    assert!(out.join("cells.csv").is_file());
    let csv = std::fs::read_to_string(out.join("verdicts.csv")).unwrap();
    let rows = read_verdicts_csv(&csv).unwrap();
    assert_eq!(rows.len(), 1);
    // N(±1, 1) with 2,000 test rows: at m ≤ 8 the Bayes rule's error (0.159) is shown lower
    // than the plug-in rule's at every point.
    assert_eq!(
        (rows[0].verdict.as_str(), rows[0].holds),
        ("supported", 3),
        "{report}"
    );

    // A second run reads every cell back from the store and writes the same report.
    let again = paper.run(&out, Grid::Quick, quiet()).unwrap();
    assert_eq!(again.resumed(), again.cells());
    assert_eq!(
        std::fs::read_to_string(out.join("REPORT.md")).unwrap(),
        report
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn the_registry_names_each_paper_once() {
    let ids: Vec<&str> = crate::papers::registry()
        .iter()
        .map(|paper| paper.id())
        .collect();
    assert_eq!(
        ids,
        [
            "xue-titterington",
            "ng-jordan",
            "raina",
            "bouchard-triggs",
            "epshteyn-dejong"
        ]
    );
    for id in ids {
        assert_eq!(crate::papers::find(id).unwrap().id(), id);
    }
    assert!(crate::papers::find("toy").is_none());
}
