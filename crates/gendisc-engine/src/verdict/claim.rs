//! Claims as typed statements, the windows of training sizes they speak of, and the judgement
//! of one unit of evidence.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::Result;

use super::difference::{Difference, Side};
use super::evidence::Evidence;
use super::thresholds::Thresholds;

/// The training sizes a claim speaks of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Window {
    /// Every size of the evidence.
    All,
    /// The sizes `from ≤ m ≤ to`.
    Range {
        /// Smallest size in the window.
        from: usize,
        /// Largest size in the window.
        to: usize,
    },
}

impl Window {
    /// The window `from ≤ m ≤ to`.
    pub fn range(from: usize, to: usize) -> Self {
        Window::Range { from, to }
    }

    /// Whether `m` lies in the window.
    pub fn contains(&self, m: usize) -> bool {
        match *self {
            Window::All => true,
            Window::Range { from, to } => from <= m && m <= to,
        }
    }

    /// The windows next to this one on `grid` (increasing sizes), for the sensitivity check:
    /// each end moved one grid size outwards and inwards in turn — the window shifted down, up,
    /// widened and narrowed by one size — keeping only windows that still hold a grid size and
    /// differ from this one.
    ///
    /// [`Window::All`] has none: a claim over every unit chose no window, so there is none to
    /// move (a claim over "every plotted size" that leaves some sizes out is a
    /// [`Window::Range`], and moves).
    ///
    /// ```
    /// use gendisc_engine::verdict::Window;
    /// let grid = [10, 25, 50, 100, 200];
    /// let shifted = Window::range(25, 50).neighbours(&grid);
    /// assert!(shifted.contains(&Window::range(10, 25)));
    /// assert!(shifted.contains(&Window::range(50, 100)));
    /// assert!(Window::All.neighbours(&grid).is_empty());
    /// ```
    pub fn neighbours(&self, grid: &[usize]) -> Vec<Window> {
        let Window::Range { from, to } = *self else {
            return Vec::new();
        };
        // Grid positions of the window's ends: the first size ≥ from, the last size ≤ to.
        let lo = grid.partition_point(|&m| m < from);
        let hi = grid.partition_point(|&m| m <= to);
        if lo >= hi {
            return Vec::new();
        }
        let (lo, hi) = (lo as isize, hi as isize - 1);
        let len = grid.len() as isize;
        let mut out = Vec::new();
        for (dl, dh) in [(-1, -1), (1, 1), (-1, 1), (1, -1)] {
            let (l, h) = ((lo + dl).clamp(0, len - 1), (hi + dh).clamp(0, len - 1));
            if l > h {
                continue;
            }
            let w = Window::range(grid[l as usize], grid[h as usize]);
            let same =
                grid[l as usize] == grid[lo as usize] && grid[h as usize] == grid[hi as usize];
            if !same && !out.contains(&w) {
                out.push(w);
            }
        }
        out
    }
}

impl Window {
    /// The window in words, its sizes called `axis` (`"m"` unless the evidence indexes its
    /// points otherwise, e.g. by position on each dataset's grid).
    ///
    /// ```
    /// use gendisc_engine::verdict::Window;
    /// assert_eq!(Window::range(1, 6).label("grid position"), "grid position = 1…6");
    /// assert_eq!(Window::range(25, 25).to_string(), "m = 25");
    /// ```
    pub fn label(&self, axis: &str) -> String {
        match self {
            Window::All => format!("every {axis}"),
            Window::Range { from, to } if from == to => format!("{axis} = {from}"),
            Window::Range { from, to } => format!("{axis} = {from}…{to}"),
        }
    }
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label(DEFAULT_AXIS))
    }
}

/// What a point's size is called unless a claim says otherwise: the training-set size.
pub const DEFAULT_AXIS: &str = "m";

/// Whether ties support a claim.
///
/// One tie rule ([`Difference::side`]) for every claim; what a tie means for a claim follows
/// from what the claim asserts: a claim that one series *does better* needs the data to show it,
/// so a tie does not count for it; a claim that one series *does no worse* (is near the best,
/// about the same, not better than all) is contradicted only by a shown difference, so a tie
/// counts for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// The claim asserts a difference: only shown differences count for it.
    Difference,
    /// The claim asserts the absence of a difference: ties count for it.
    NoDifference,
}

/// What a claim says, about series of an [`Evidence`] (lower or higher better as it says).
///
/// Point statements are judged at every `(group, m)` point in the claim's window; group
/// statements once per group, from that group's points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Statement {
    /// A does better than B (point).
    Beats {
        /// The series said to win.
        a: String,
        /// The series said to lose.
        b: String,
    },
    /// A does no worse than B (point; ties count for it).
    NoWorse {
        /// The series said to be no worse.
        a: String,
        /// The other series.
        b: String,
    },
    /// A does better than each of the rivals (point).
    Best {
        /// The series said to be best.
        a: String,
        /// The others.
        rivals: Vec<String>,
    },
    /// No rival does better than A by more than `delta` (point; ties count for it).
    NearBest {
        /// The series said to be near the best.
        a: String,
        /// The others.
        rivals: Vec<String>,
        /// How much worse than the best still counts as near, in the metric's units.
        delta: f64,
    },
    /// A does not do better than every rival (point; ties count for it).
    NotBetterThanAll {
        /// The series said not to beat them all.
        a: String,
        /// The others.
        rivals: Vec<String>,
    },
    /// A and B differ by no more than `delta` (point; ties count for it).
    AboutTheSame {
        /// One series.
        a: String,
        /// The other.
        b: String,
        /// The largest difference that counts as "about the same", in the metric's units.
        delta: f64,
    },
    /// Over the claim's window, A does better than B at more points than B does better than A
    /// (group).
    Leads {
        /// The series said to lead.
        a: String,
        /// The other.
        b: String,
    },
    /// A leads B over the claim's window and B leads A over `late` (group): the two regimes of
    /// learning curves that cross.
    Crosses {
        /// The series that leads first.
        a: String,
        /// The series that leads later.
        b: String,
        /// The later window.
        late: Window,
    },
    /// A's mean advantage over B is larger over the claim's window than over `late` (group),
    /// judged on the difference of the two averages with its standard error.
    GapShrinks {
        /// The series whose lead is said to shrink.
        a: String,
        /// The other.
        b: String,
        /// The later window.
        late: Window,
    },
    /// Units the report judges itself with the module's tie rule ([`Difference::side`]) on
    /// numbers that are not an [`Evidence`] (a published value against ours, a count of
    /// converged fits); judged through [`Verdict::from_units`](super::Verdict::from_units).
    Units {
        /// What a unit states, for the reader.
        what: String,
        /// Whether ties count for it.
        kind: Kind,
    },
}

impl Statement {
    /// Whether ties count for the statement.
    pub fn kind(&self) -> Kind {
        match self {
            Statement::NoWorse { .. }
            | Statement::NearBest { .. }
            | Statement::NotBetterThanAll { .. }
            | Statement::AboutTheSame { .. } => Kind::NoDifference,
            Statement::Units { kind, .. } => *kind,
            _ => Kind::Difference,
        }
    }

    /// Whether the statement is judged once per group rather than per point.
    pub fn per_group(&self) -> bool {
        matches!(
            self,
            Statement::Leads { .. } | Statement::Crosses { .. } | Statement::GapShrinks { .. }
        )
    }

    /// The second window of a two-window statement.
    pub fn late_window(&self) -> Option<Window> {
        match self {
            Statement::Crosses { late, .. } | Statement::GapShrinks { late, .. } => Some(*late),
            _ => None,
        }
    }

    /// The statement with its second window replaced (no change for one-window statements).
    pub fn with_late_window(&self, window: Window) -> Self {
        let mut s = self.clone();
        if let Statement::Crosses { late, .. } | Statement::GapShrinks { late, .. } = &mut s {
            *late = window;
        }
        s
    }
}

/// A paper's claim as a typed statement, with the sizes it speaks of and the reading of the
/// setup it is judged under.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    /// A short identifier, stable across runs (e.g. `"2"` or `"nb-leads-small-m"`).
    pub id: String,
    /// The paper's words, quoted.
    pub quote: String,
    /// What is judged.
    pub statement: Statement,
    /// The training sizes it speaks of, read from the paper's figure where it has one.
    pub window: Window,
    /// Where the window comes from ("the paper's Figure 1 starts at m = 25", or the default).
    pub window_reason: String,
    /// The shares of units that make it supported or partly supported.
    pub thresholds: Thresholds,
    /// The reading of the setup (a named series or configuration) it is judged under.
    pub reading: String,
    /// What the evidence's sizes are called in the verdict line: `"m"` (training-set sizes) by
    /// default.
    pub axis: String,
    /// How a unit is judged under this reading, where the statement alone does not say (which
    /// measure a range is read in, what counts as a converged fit); empty when it does.
    #[serde(default)]
    pub unit_rule: String,
}

impl Claim {
    /// A claim over every size, with the default thresholds and the reading `"as run"`.
    pub fn new(id: impl Into<String>, quote: impl Into<String>, statement: Statement) -> Self {
        Self {
            id: id.into(),
            quote: quote.into(),
            statement,
            window: Window::All,
            window_reason: "every size of the run".into(),
            thresholds: Thresholds::DEFAULT,
            reading: "as run".into(),
            axis: DEFAULT_AXIS.into(),
            unit_rule: String::new(),
        }
    }

    /// Says how a unit is judged under this reading ([`Claim::unit_rule`]); the report prints
    /// it beside the verdict.
    pub fn unit_rule(mut self, rule: impl Into<String>) -> Self {
        self.unit_rule = rule.into();
        self
    }

    /// Names the evidence's sizes, when they are not training-set sizes (e.g. `"grid
    /// position"` for evidence indexed by position on each dataset's own grid).
    pub fn axis(mut self, axis: impl Into<String>) -> Self {
        self.axis = axis.into();
        self
    }

    /// Sets the window and where it comes from.
    pub fn window(mut self, window: Window, reason: impl Into<String>) -> Self {
        self.window = window;
        self.window_reason = reason.into();
        self
    }

    /// Sets the thresholds (a departure from [`Thresholds::DEFAULT`] must quote the paper's
    /// words that demand it: see [`Thresholds::every`]).
    pub fn thresholds(mut self, thresholds: Thresholds) -> Self {
        self.thresholds = thresholds;
        self
    }

    /// Sets the reading.
    pub fn reading(mut self, reading: impl Into<String>) -> Self {
        self.reading = reading.into();
        self
    }
}

/// How one unit of evidence came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Judgement {
    /// The evidence shows what the claim says.
    Holds,
    /// The evidence shows neither it nor its opposite (the tie rule).
    Tie,
    /// The evidence shows the opposite.
    Against,
}

/// One unit a claim is judged on: a `(group, m)` point, or a whole group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// The group.
    pub group: String,
    /// The training size, for point units.
    pub m: Option<usize>,
    /// How it came out.
    pub judgement: Judgement,
    /// The numbers behind it, for the report ("advantage 0.012 [0.004, 0.020]").
    pub detail: String,
}

impl Unit {
    /// A point unit.
    pub fn point(group: impl Into<String>, m: usize, judgement: Judgement, detail: String) -> Self {
        Self {
            group: group.into(),
            m: Some(m),
            judgement,
            detail,
        }
    }

    /// A group unit.
    pub fn group(group: impl Into<String>, judgement: Judgement, detail: String) -> Self {
        Self {
            group: group.into(),
            m: None,
            judgement,
            detail,
        }
    }

    /// `group at m = …` or `group`.
    pub fn name(&self) -> String {
        match self.m {
            Some(m) => format!("{} at m = {m}", self.group),
            None => self.group.clone(),
        }
    }
}

/// Formats a difference for a unit's detail.
pub fn describe(d: &Difference) -> String {
    let g = |x: f64| {
        if x.is_infinite() {
            if x > 0.0 {
                "∞".to_string()
            } else {
                "−∞".to_string()
            }
        } else if x.abs() >= 10.0 {
            format!("{x:.1}")
        } else {
            format!("{x:.4}")
        }
    };
    format!("{} [{}, {}]", g(d.estimate), g(d.lower), g(d.upper))
}

/// The judgement of a difference under a statement that A does better (`Side::A` holds).
fn judge_side(side: Side) -> Judgement {
    match side {
        Side::A => Judgement::Holds,
        Side::B => Judgement::Against,
        Side::Tie => Judgement::Tie,
    }
}

/// The units of `statement` over `window` (and its second window, where it has one).
pub(crate) fn units(
    statement: &Statement,
    window: Window,
    evidence: &Evidence,
    axis: &str,
) -> Result<Vec<Unit>> {
    if statement.per_group() {
        return group_units(statement, window, evidence, axis);
    }
    let mut out = Vec::new();
    for (i, p) in evidence.points().iter().enumerate() {
        if !window.contains(p.m) {
            continue;
        }
        let unit = |judgement, detail| Unit::point(p.group.clone(), p.m, judgement, detail);
        let judged = match statement {
            Statement::Beats { a, b } => evidence.difference(i, a, b)?.map(|d| {
                (
                    judge_side(d.side(0.0)),
                    format!("{a} − {b}: {}", describe(&d)),
                )
            }),
            Statement::NoWorse { a, b } => evidence.difference(i, a, b)?.map(|d| {
                (
                    judge_side(d.side(0.0)),
                    format!("{a} − {b}: {}", describe(&d)),
                )
            }),
            Statement::Best { a, rivals } => rival_differences(evidence, i, a, rivals)?.map(|ds| {
                let sides: Vec<Side> = ds.iter().map(|(_, d)| d.side(0.0)).collect();
                let judgement = if sides.contains(&Side::B) {
                    Judgement::Against
                } else if sides.iter().all(|&s| s == Side::A) {
                    Judgement::Holds
                } else {
                    Judgement::Tie
                };
                (judgement, describe_all(a, &ds))
            }),
            Statement::NearBest { a, rivals, delta } => {
                rival_differences(evidence, i, a, rivals)?.map(|ds| {
                    // Against when some rival is shown better than A by more than δ; holds
                    // when A is shown within δ of every rival.
                    let judgement = if ds.iter().any(|(_, d)| d.side(*delta) == Side::B) {
                        Judgement::Against
                    } else if ds.iter().all(|(_, d)| d.lower >= -delta) {
                        Judgement::Holds
                    } else {
                        Judgement::Tie
                    };
                    (judgement, describe_all(a, &ds))
                })
            }
            Statement::NotBetterThanAll { a, rivals } => rival_differences(evidence, i, a, rivals)?
                .map(|ds| {
                    let sides: Vec<Side> = ds.iter().map(|(_, d)| d.side(0.0)).collect();
                    let judgement = if sides.iter().all(|&s| s == Side::A) {
                        Judgement::Against
                    } else if sides.contains(&Side::B) {
                        Judgement::Holds
                    } else {
                        Judgement::Tie
                    };
                    (judgement, describe_all(a, &ds))
                }),
            Statement::AboutTheSame { a, b, delta } => evidence.difference(i, a, b)?.map(|d| {
                let judgement = if d.lower >= -delta && d.upper <= *delta {
                    Judgement::Holds
                } else if d.side(*delta) == Side::Tie {
                    Judgement::Tie
                } else {
                    Judgement::Against
                };
                (judgement, format!("{a} − {b}: {}", describe(&d)))
            }),
            Statement::Units { what, .. } => {
                return Err(crate::error::StudyError::InvalidStudy {
                    study: "verdict".into(),
                    reason: format!("`{what}` has report-computed units, not evidence"),
                })
            }
            Statement::Leads { .. } | Statement::Crosses { .. } | Statement::GapShrinks { .. } => {
                unreachable!("group statements are handled above")
            }
        };
        if let Some((judgement, detail)) = judged {
            out.push(unit(judgement, detail));
        }
    }
    Ok(out)
}

fn rival_differences(
    evidence: &Evidence,
    point: usize,
    a: &str,
    rivals: &[String],
) -> Result<Option<Vec<(String, Difference)>>> {
    let mut out = Vec::with_capacity(rivals.len());
    for r in rivals {
        match evidence.difference(point, a, r)? {
            Some(d) => out.push((r.clone(), d)),
            None => return Ok(None),
        }
    }
    Ok(Some(out))
}

fn describe_all(a: &str, ds: &[(String, Difference)]) -> String {
    ds.iter()
        .map(|(r, d)| format!("{a} − {r}: {}", describe(d)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// A's wins and B's wins over the points of `group` in `window`.
fn wins(
    evidence: &Evidence,
    group: &str,
    window: Window,
    a: &str,
    b: &str,
) -> Result<(usize, usize)> {
    let (mut wa, mut wb) = (0, 0);
    for (i, p) in evidence.points().iter().enumerate() {
        if p.group != group || !window.contains(p.m) {
            continue;
        }
        match evidence.difference(i, a, b)?.map(|d| d.side(0.0)) {
            Some(Side::A) => wa += 1,
            Some(Side::B) => wb += 1,
            _ => {}
        }
    }
    Ok((wa, wb))
}

/// `1 point`, `3 points`.
fn points(n: usize) -> String {
    if n == 1 {
        "1 point".into()
    } else {
        format!("{n} points")
    }
}

fn lead(wa: usize, wb: usize) -> Judgement {
    match wa.cmp(&wb) {
        std::cmp::Ordering::Greater => Judgement::Holds,
        std::cmp::Ordering::Less => Judgement::Against,
        std::cmp::Ordering::Equal => Judgement::Tie,
    }
}

/// The mean over `window`'s points of `group` of A's mean advantage over B, with the standard
/// error of that average (replicates at different sizes are independent draws).
fn mean_gap(
    evidence: &Evidence,
    group: &str,
    window: Window,
    a: &str,
    b: &str,
) -> Result<Option<(f64, f64, usize)>> {
    let (ia, ib) = (evidence.series_index(a)?, evidence.series_index(b)?);
    let (mut sum, mut var, mut k) = (0.0, 0.0, 0usize);
    for p in evidence.points() {
        if p.group != group || !window.contains(p.m) {
            continue;
        }
        let advantages = p.values[ia]
            .iter()
            .zip(&p.values[ib])
            .map(|(&x, &y)| evidence.better().advantage(x, y));
        let Some(d) = Difference::of_advantages(advantages, super::Centre::Mean, super::CONFIDENCE)
        else {
            continue;
        };
        sum += d.estimate;
        var += d.std_error.unwrap_or(0.0).powi(2);
        k += 1;
    }
    Ok((k > 0).then(|| (sum / k as f64, var.sqrt() / k as f64, k)))
}

fn group_units(
    statement: &Statement,
    window: Window,
    evidence: &Evidence,
    axis: &str,
) -> Result<Vec<Unit>> {
    let (window_label, late_label) = (
        window.label(axis),
        statement
            .late_window()
            .map(|w| w.label(axis))
            .unwrap_or_default(),
    );
    let mut out = Vec::new();
    for group in evidence.groups() {
        let in_window = evidence
            .points()
            .iter()
            .any(|p| p.group == group && window.contains(p.m));
        if !in_window {
            continue;
        }
        let unit = match statement {
            Statement::Leads { a, b } => {
                let (wa, wb) = wins(evidence, group, window, a, b)?;
                Unit::group(
                    group,
                    lead(wa, wb),
                    format!("{a} better at {}, {b} at {wb} ({window_label})", points(wa)),
                )
            }
            Statement::Crosses { a, b, late } => {
                let (ea, eb) = wins(evidence, group, window, a, b)?;
                let (la, lb) = wins(evidence, group, *late, a, b)?;
                let (early, later) = (lead(ea, eb), lead(lb, la));
                let judgement = match (early, later) {
                    (Judgement::Holds, Judgement::Holds) => Judgement::Holds,
                    (Judgement::Against, _) | (_, Judgement::Against) => Judgement::Against,
                    _ => Judgement::Tie,
                };
                Unit::group(
                    group,
                    judgement,
                    format!(
                        "{window_label}: {a} better at {}, {b} at {eb}; {late_label}: {a} at {la}, {b} at {lb}",
                        points(ea)
                    ),
                )
            }
            Statement::GapShrinks { a, b, late } => {
                let (Some((early, se_e, ke)), Some((later, se_l, kl))) = (
                    mean_gap(evidence, group, window, a, b)?,
                    mean_gap(evidence, group, *late, a, b)?,
                ) else {
                    continue;
                };
                let shrink = Difference::from_estimate(
                    early - later,
                    (se_e * se_e + se_l * se_l).sqrt(),
                    super::CONFIDENCE,
                );
                let Some(shrink) = shrink else { continue };
                Unit::group(
                    group,
                    judge_side(shrink.side(0.0)),
                    format!(
                        "mean {a} advantage {early:.4} over {window_label} ({ke} sizes), {later:.4} \
                         over {late_label} ({kl} sizes); shrink {}",
                        describe(&shrink)
                    ),
                )
            }
            _ => unreachable!("point statements are handled by `units`"),
        };
        out.push(unit);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_at_the_edges_of_the_grid() {
        let grid = [10, 25, 50, 100];
        let n = Window::range(10, 25).neighbours(&grid);
        // Cannot shift down: shifting clamps to (10, 10); up gives (25, 50); widen (10, 50).
        assert!(n.contains(&Window::range(10, 10)));
        assert!(n.contains(&Window::range(25, 50)));
        assert!(n.contains(&Window::range(10, 50)));
        assert!(!n.contains(&Window::range(10, 25)));
        // A window between grid sizes snaps to the sizes it holds.
        let n = Window::range(20, 60).neighbours(&grid);
        assert!(n.contains(&Window::range(10, 25)));
        assert!(n.contains(&Window::range(50, 100)));
        // A window holding no size has no neighbours.
        assert!(Window::range(11, 20).neighbours(&grid).is_empty());
        assert!(Window::range(10, 25).neighbours(&[]).is_empty());
        assert!(Window::All.neighbours(&grid).is_empty());
    }

    #[test]
    fn window_display() {
        assert_eq!(Window::range(5, 5).to_string(), "m = 5");
        assert_eq!(Window::range(5, 50).to_string(), "m = 5…50");
        assert_eq!(Window::All.to_string(), "every m");
    }
}
