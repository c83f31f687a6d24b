//! Verdicts: one method for turning a study's results into "supported / partly supported / not
//! supported", used by every report.
//!
//! A paper's claim becomes a [`Claim`]: a typed [`Statement`] ("A beats B", "A is near the
//! best", "the curves cross", "the gap shrinks"…) over a [`Window`] of training sizes, under a
//! named reading of the setup. It is judged on an [`Evidence`] — per-replicate values of named
//! series at `(group, m)` points — in four steps:
//!
//! 1. **Per unit, paired differences.** At each point in the window the advantage of one series
//!    over another is summarised replicate by replicate ([`Difference::paired`]): the mean with
//!    its t interval, or the median with its sign-test interval ([`Centre`]), at 95%
//!    ([`CONFIDENCE`]).
//! 2. **One tie rule.** A point is a tie when the interval contains zero (or reaches into the
//!    margin band of a "within δ" claim); otherwise the side it lies on wins
//!    ([`Difference::side`]). A tie never counts as a win for either side; it counts *for* a
//!    claim only when the claim asserts the absence of a difference ([`Kind`]).
//! 3. **One pair of thresholds.** The share of units that count for the claim makes it
//!    supported from 75%, partly supported from 50% ([`Thresholds::DEFAULT`]); a claim the
//!    paper states of *every* unit needs 100% ([`Thresholds::EVERY`]), its words quoted.
//! 4. **Sensitivity.** The verdict is recomputed with both thresholds 10 points lower and
//!    higher and over each neighbouring window ([`Window::neighbours`]); if any of these
//!    changes it, the verdict is *borderline* and says what flips it ([`Verdict::robustness`]).
//!
//! Claims whose units are not paired replicates (a published number against ours, a share of
//! converged fits) are [`Statement::Units`] claims: the report judges each unit with the same
//! tie rule and [`Verdict::from_units`] does steps 3 and 4. `docs/verdicts.md` gives the reasons
//! for each choice.
//!
//! ```
//! use gendisc_engine::verdict::{Better, Claim, Evidence, Statement, Verdict, Window, Word};
//!
//! let mut evidence = Evidence::new(["naive Bayes", "logistic regression"], Better::Lower);
//! // Naive Bayes ahead at m = 10 and 20, logistic regression at m = 80.
//! for (m, gap) in [(10, 0.05), (20, 0.03), (80, -0.02)] {
//!     let lr: Vec<f64> = (0..40).map(|r| 0.2 + 0.01 * (r % 5) as f64).collect();
//!     let nb: Vec<f64> = lr.iter().enumerate().map(|(r, e)| e - gap + 0.002 * (r % 3) as f64).collect();
//!     evidence.push("iris", m, vec![nb, lr])?;
//! }
//! let claim = Claim::new(
//!     "small-m",
//!     "naive Bayes does better at small m",
//!     Statement::Beats { a: "naive Bayes".into(), b: "logistic regression".into() },
//! )
//! .window(Window::range(10, 20), "the smaller half of the grid");
//! let verdict = Verdict::judge(&claim, &evidence, "points")?;
//! assert_eq!(verdict.word, Word::Supported);
//! assert!(verdict.markdown().starts_with("**supported** (borderline: "));
//! # Ok::<(), gendisc_engine::StudyError>(())
//! ```

mod claim;
mod difference;
mod evidence;
mod judge;
mod sections;
mod table;
mod thresholds;

pub use claim::{describe, Claim, Judgement, Kind, Statement, Unit, Window, DEFAULT_AXIS};
pub use difference::{Better, Centre, Difference, Side, CONFIDENCE};
pub use evidence::{Evidence, Point};
pub use judge::{Flip, Tally, Verdict};
pub use sections::{by_claim, claim_sections, reading_changes, rule_sentence, verdict_table};
pub use table::{
    claims_markdown, count_verdict_lines, read_verdicts_csv, write_verdicts_csv, VerdictRow,
};
pub use thresholds::{Thresholds, Word};
