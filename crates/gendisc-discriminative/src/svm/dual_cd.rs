//! Dual coordinate descent for the linear SVM (Hsieh, Chang, Lin, Keerthi & Sundararajan 2008,
//! "A dual coordinate descent method for large-scale linear SVM", ICML), the method of
//! liblinear's `L2R_L1LOSS_SVC_DUAL` solver.
//!
//! The dual of the hinge-loss SVM is eq. (4) of the paper,
//!
//! ```text
//! min_α f(α) = ½ αᵀQα − eᵀα   subject to 0 ≤ α_i ≤ U_i,   Q_ij = y_i y_j x̃_iᵀx̃_j,
//! ```
//!
//! with `U_i = C_i` for a soft margin and `U_i = ∞` for a hard margin. Coordinate `i` is
//! minimised exactly with the others fixed (Algorithm 1): keeping `w̃ = Σ_j α_j y_j x̃_j` up
//! to date makes the partial derivative `∇_i f(α) = y_i w̃ᵀx̃_i − 1` cost one sparse dot
//! product, the one-variable minimiser is `α_i ← min(max(α_i − ∇_i f / Q_ii, 0), U_i)`, and
//! `w̃` follows with one sparse update. A coordinate whose projected gradient
//!
//! ```text
//! ∇ᴾ_i f = min(∇_i f, 0) if α_i = 0,   max(∇_i f, 0) if α_i = U_i,   ∇_i f otherwise
//! ```
//!
//! vanishes is already optimal and is skipped. Each outer iteration visits the coordinates
//! in a fresh random order (§3.1) and, with shrinking (§3.2, Algorithm 3), drops coordinates
//! stuck at a bound whose gradient points outwards by more than the previous iteration's
//! extreme projected gradients; once the remaining set meets the stopping rule
//! `max(M, 0) − min(m, 0) ≤ tol`, with `M` and `m` the largest and smallest projected
//! gradients of the outer iteration, every coordinate is restored and the rule is checked on
//! the full set before stopping. Including 0 is one departure from the paper's `M − m`:
//! the two agree whenever some coordinate is optimal, and the paper's rule alone would stop
//! with every projected gradient equal but non-zero.
//!
//! The other departure: the full set is also restored when the shrunk one has not met the rule
//! after `RESTORE_WORK` full passes' worth of coordinate updates. Shrinking is a heuristic: a
//! coordinate dropped at the wrong bound stays there until the rest is optimal, and with the
//! wrong coordinates fixed the rest can be a degenerate problem on which coordinate descent
//! crawls (seven free coordinates on 49 rows needed more than 10⁶ passes to reach
//! `tol = 10⁻⁸`, where the unshrunk solver took 15,616). A restore costs one full pass, so
//! restoring after a bounded amount of shrunk work keeps shrinking's savings and restores the
//! unshrunk solver's convergence.

use gendisc_core::{Error, Result};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::report::{FitReport, FitStatus};
use super::rows::Rows;

/// How many full passes' worth of coordinate updates a shrunk set gets to meet the stopping
/// rule before every coordinate is restored (the [module documentation](self)).
const RESTORE_WORK: usize = 20;

/// The box of the dual variables.
#[derive(Debug, Clone, Copy)]
pub(crate) enum DualBounds<'a> {
    /// Soft margin: `0 ≤ α_i ≤ C_i`.
    Box(&'a [f64]),
    /// Hard margin: `α_i ≥ 0` only. The dual is unbounded exactly when the classes cannot
    /// be separated; the run stops with [`Error::Infeasible`] once it has a certificate that
    /// no separating hyperplane has an (augmented) geometric margin above
    /// `min_margin · max_i ‖x̃_i‖`.
    NonNegative {
        /// The relative margin below which the data count as non-separable.
        min_margin: f64,
    },
}

/// One binary problem: rows `x_i`, signs `y_i ∈ {−1, +1}`, the dual box and the constant
/// `B` appended to every row (`B = 0` fits no intercept).
pub(crate) struct BinaryProblem<'a, R> {
    pub rows: &'a R,
    pub signs: &'a [f64],
    pub bounds: DualBounds<'a>,
    pub bias: f64,
    /// Names the problem in errors, e.g. "class 2 vs rest".
    pub name: &'a str,
}

/// Stopping rule and iteration cap.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DualCdSettings {
    pub tol: f64,
    pub max_iter: usize,
    pub shrinking: bool,
}

/// The dual variables, the primal weights `w̃ = (w, w_b)` and the report.
pub(crate) struct DualSolution {
    pub alpha: Vec<f64>,
    pub weights: Vec<f64>,
    pub bias_weight: f64,
    pub report: FitReport,
}

/// The iterate: `α` together with `w̃(α) = Σ_i α_i y_i x̃_i`.
struct Iterate {
    alpha: Vec<f64>,
    weights: Vec<f64>,
    bias_weight: f64,
}

impl Iterate {
    /// `α = 0`, `w̃ = 0`.
    fn zero(n_rows: usize, n_features: usize) -> Self {
        Self {
            alpha: vec![0.0; n_rows],
            weights: vec![0.0; n_features],
            bias_weight: 0.0,
        }
    }

    /// `y_i w̃ᵀx̃_i`, the functional margin of row `i`.
    fn margin<R: Rows>(&self, p: &BinaryProblem<'_, R>, i: usize) -> f64 {
        p.signs[i] * (p.rows.dot(i, &self.weights) + p.bias * self.bias_weight)
    }

    /// `α_i ← α_i + δ` and `w̃ ← w̃ + δ y_i x̃_i`.
    fn step<R: Rows>(&mut self, p: &BinaryProblem<'_, R>, i: usize, delta: f64) {
        self.alpha[i] += delta;
        let scale = delta * p.signs[i];
        p.rows.add_scaled(i, scale, &mut self.weights);
        self.bias_weight += scale * p.bias;
    }

    /// Recomputes `w̃` from `α`, discarding the rounding accumulated by the updates.
    fn refresh_weights<R: Rows>(&mut self, p: &BinaryProblem<'_, R>) {
        self.weights.fill(0.0);
        self.bias_weight = 0.0;
        for i in 0..self.alpha.len() {
            let a = self.alpha[i];
            if a != 0.0 {
                let scale = a * p.signs[i];
                p.rows.add_scaled(i, scale, &mut self.weights);
                self.bias_weight += scale * p.bias;
            }
        }
    }

    /// `‖w̃‖²`.
    fn weights_squared_norm(&self) -> f64 {
        self.weights.iter().map(|v| v * v).sum::<f64>() + self.bias_weight * self.bias_weight
    }
}

/// Solves one binary problem by dual coordinate descent, from `α = 0` or, warm, from `start`
/// (one value per row; the first `start.len()` rows start there, projected into the box, the
/// others at 0). The problem is a convex QP, so a start changes the path, not the optimum.
///
/// Fails with [`Error::Infeasible`] when a hard margin meets non-separable data and with
/// [`Error::NotConverged`] when a hard-margin run reaches `max_iter` with neither a separating
/// hyperplane nor a certificate of non-separability. A soft-margin run always returns a
/// solution; [`FitStatus::MaxIterations`] flags one that hit the cap.
pub(crate) fn solve<R: Rows>(
    p: &BinaryProblem<'_, R>,
    settings: &DualCdSettings,
    rng: &mut ChaCha8Rng,
    start: Option<&[f64]>,
) -> Result<DualSolution> {
    let n = p.rows.n_rows();
    let upper: Vec<f64> = match p.bounds {
        DualBounds::Box(c) => c.to_vec(),
        DualBounds::NonNegative { .. } => vec![f64::INFINITY; n],
    };
    // Q_ii = ‖x̃_i‖² (the L1 loss has no diagonal term D_ii).
    let q_diag: Vec<f64> = (0..n)
        .map(|i| p.rows.squared_norm(i) + p.bias * p.bias)
        .collect();
    let radius = q_diag.iter().copied().fold(0.0, f64::max).sqrt();

    let mut it = Iterate::zero(n, p.rows.n_features());
    if let Some(start) = start {
        for (a, (&s, &u)) in it.alpha.iter_mut().zip(start.iter().zip(&upper)) {
            *a = s.max(0.0).min(u);
        }
    }
    // Coordinates whose optimum is known never enter the working set: U_i = 0 pins α_i = 0,
    // and x̃_i = 0 makes ∇_i f = −1 whatever α, so α_i = U_i.
    let mut index: Vec<usize> = Vec::with_capacity(n);
    for i in 0..n {
        if upper[i] == 0.0 {
            continue;
        }
        if q_diag[i] == 0.0 {
            if let DualBounds::NonNegative { .. } = p.bounds {
                return Err(Error::Infeasible {
                    what: format!("hard-margin linear SVM ({})", p.name),
                    detail: format!(
                        "row {i} is the zero vector and no intercept is fitted, so \
                         y_i (w · x_i) ≥ 1 cannot hold for any w"
                    ),
                });
            }
            it.alpha[i] = upper[i];
            continue;
        }
        index.push(i);
    }
    let n_working = index.len();
    if start.is_some() {
        it.refresh_weights(p);
    }

    let mut active = n_working;
    // The extreme projected gradients of the previous outer iteration (M̄, m̄ of Algorithm 3).
    let mut pg_max_old = f64::INFINITY;
    let mut pg_min_old = f64::NEG_INFINITY;
    let mut alpha_sum = it.alpha.iter().sum::<f64>();
    let mut iterations = 0;
    let mut gap = f64::INFINITY;
    let mut status = FitStatus::MaxIterations;

    // Coordinate updates spent on shrunk sets since every coordinate was last active.
    let mut shrunk_work = 0;
    while iterations < settings.max_iter {
        iterations += 1;
        if active < n_working {
            shrunk_work += active;
            if shrunk_work > RESTORE_WORK * n_working {
                active = n_working;
                pg_max_old = f64::INFINITY;
                pg_min_old = f64::NEG_INFINITY;
            }
        }
        if active == n_working {
            shrunk_work = 0;
        }
        index[..active].shuffle(rng);
        let mut pg_max = f64::NEG_INFINITY;
        let mut pg_min = f64::INFINITY;
        let mut s = 0;
        while s < active {
            let i = index[s];
            let gradient = it.margin(p, i) - 1.0;
            let (a, u) = (it.alpha[i], upper[i]);
            let projected = if a == 0.0 {
                if settings.shrinking && gradient > pg_max_old {
                    active -= 1;
                    index.swap(s, active);
                    continue;
                }
                gradient.min(0.0)
            } else if a == u {
                if settings.shrinking && gradient < pg_min_old {
                    active -= 1;
                    index.swap(s, active);
                    continue;
                }
                gradient.max(0.0)
            } else {
                gradient
            };
            pg_max = pg_max.max(projected);
            pg_min = pg_min.min(projected);
            if projected != 0.0 {
                let new = (a - gradient / q_diag[i]).max(0.0).min(u);
                it.step(p, i, new - a);
                alpha_sum += new - a;
            }
            s += 1;
        }
        // The spread is taken with 0 included: liblinear's `M − m` alone could stop with every
        // projected gradient equal and non-zero (it happens on two free coordinates).
        gap = pg_max.max(0.0) - pg_min.min(0.0);

        if let DualBounds::NonNegative { min_margin } = p.bounds
            && let Some(certificate) =
                non_separability_certificate(p, &mut it, alpha_sum, radius, min_margin)
        {
            return Err(certificate);
        }

        if gap <= settings.tol {
            if active == n_working {
                status = FitStatus::Converged;
                break;
            }
            // The shrunk set is optimal: check every coordinate before stopping.
            active = n_working;
            pg_max_old = f64::INFINITY;
            pg_min_old = f64::NEG_INFINITY;
            continue;
        }
        pg_max_old = if pg_max <= 0.0 { f64::INFINITY } else { pg_max };
        pg_min_old = if pg_min >= 0.0 {
            f64::NEG_INFINITY
        } else {
            pg_min
        };
    }

    it.refresh_weights(p);
    let report = finish(p, &mut it, &upper, status, iterations, gap, settings.tol)?;
    Ok(DualSolution {
        alpha: it.alpha,
        weights: it.weights,
        bias_weight: it.bias_weight,
        report,
    })
}

/// The hard-margin infeasibility test.
///
/// For any `α ≥ 0` with `s = Σ α_i > 0`, `p = w̃(α)/s` is a convex combination of the signed
/// rows `z_i = y_i x̃_i`, so for every unit vector `u`, `min_i uᵀz_i ≤ uᵀp ≤ ‖p‖`: no
/// hyperplane separates the rows with geometric margin above `‖p‖` (Gordan's alternative:
/// the classes are separable iff `0 ∉ conv{z_i}`, and the best margin is the distance from 0
/// to that hull). On non-separable data the dual objective `s − ½‖w̃‖² ≥ 0` grows without
/// bound, which forces `‖p‖ ≤ √(2/s) → 0`. The test is first made with the running `w̃`
/// and, when it passes, confirmed with `w̃` recomputed from `α`.
fn non_separability_certificate<R: Rows>(
    p: &BinaryProblem<'_, R>,
    it: &mut Iterate,
    alpha_sum: f64,
    radius: f64,
    min_margin: f64,
) -> Option<Error> {
    let threshold = min_margin * radius;
    let hull_distance = |it: &Iterate, sum: f64| it.weights_squared_norm().sqrt() / sum;
    if alpha_sum <= 0.0 || hull_distance(it, alpha_sum) > threshold {
        return None;
    }
    it.refresh_weights(p);
    let sum = it.alpha.iter().sum::<f64>();
    let distance = hull_distance(it, sum);
    if distance > threshold {
        return None;
    }
    let mut heaviest: Vec<usize> = (0..it.alpha.len()).filter(|&i| it.alpha[i] > 0.0).collect();
    heaviest.sort_by(|&a, &b| it.alpha[b].total_cmp(&it.alpha[a]).then(a.cmp(&b)));
    let listed: Vec<String> = heaviest
        .iter()
        .take(6)
        .map(|&i| format!("{i} ({:.3})", it.alpha[i] / sum))
        .collect();
    Some(Error::Infeasible {
        what: format!("hard-margin linear SVM ({})", p.name),
        detail: format!(
            "the classes are not linearly separable with margin above {threshold:.3e} \
             (min_margin {min_margin:.1e} × largest row norm {radius:.3e}): a convex \
             combination of the signed rows y_i x̃_i has norm {distance:.3e}, and no hyperplane \
             can have a larger margin; its heaviest rows (weight) are {}. Use a soft margin \
             (finite C) for overlapping classes",
            listed.join(", ")
        ),
    })
}

/// Objectives, gap and counts at the final iterate; for a hard margin also the rescaling
/// that makes every constraint `y_i w̃ᵀx̃_i ≥ 1` hold.
fn finish<R: Rows>(
    p: &BinaryProblem<'_, R>,
    it: &mut Iterate,
    upper: &[f64],
    status: FitStatus,
    iterations: usize,
    projected_gradient_gap: f64,
    tolerance: f64,
) -> Result<FitReport> {
    let n = it.alpha.len();
    let squared_norm = it.weights_squared_norm();
    let dual_objective = it.alpha.iter().sum::<f64>() - 0.5 * squared_norm;
    let primal_objective = match p.bounds {
        DualBounds::Box(c) => {
            let hinge: f64 = (0..n)
                .filter(|&i| c[i] > 0.0)
                .map(|i| c[i] * (1.0 - it.margin(p, i)).max(0.0))
                .sum();
            0.5 * squared_norm + hinge
        }
        DualBounds::NonNegative { .. } => {
            let smallest = (0..n)
                .map(|i| it.margin(p, i))
                .fold(f64::INFINITY, f64::min);
            if smallest.is_nan() || smallest <= 0.0 {
                return Err(Error::NotConverged {
                    what: format!("hard-margin linear SVM ({})", p.name),
                    iterations,
                    detail: format!(
                        "the final hyperplane does not separate the classes (smallest \
                         y_i f(x_i) = {smallest:.3e}) and non-separability was not certified; \
                         raise max_iter or lower tol"
                    ),
                });
            }
            if smallest < 1.0 {
                it.weights.iter_mut().for_each(|v| *v /= smallest);
                it.bias_weight /= smallest;
            }
            0.5 * it.weights_squared_norm()
        }
    };
    if !(primal_objective.is_finite() && dual_objective.is_finite()) {
        return Err(Error::Numerical {
            what: format!("linear SVM ({})", p.name),
            detail: format!(
                "the objectives overflowed (primal {primal_objective}, dual {dual_objective}); \
                 rescale the features"
            ),
        });
    }
    Ok(FitReport {
        status,
        iterations,
        tolerance: Some(tolerance),
        projected_gradient_gap,
        dual_objective,
        primal_objective,
        duality_gap: primal_objective - dual_objective,
        n_support_vectors: it.alpha.iter().filter(|&&a| a > 0.0).count(),
        n_bounded_support_vectors: (0..n)
            .filter(|&i| it.alpha[i] > 0.0 && it.alpha[i] == upper[i])
            .count(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svm::rows::DenseRows;
    use approx::assert_relative_eq;
    use ndarray::{array, Array2};
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};

    /// A generous cap: on degenerate data (more free support vectors than dimensions) dual
    /// coordinate descent, liblinear's included, can need 10⁵ outer iterations for `tol` near
    /// 1e-9.
    fn settings(tol: f64, shrinking: bool) -> DualCdSettings {
        DualCdSettings {
            tol,
            max_iter: 1_000_000,
            shrinking,
        }
    }

    fn solve_dense(
        x: &Array2<f64>,
        signs: &[f64],
        bounds: DualBounds<'_>,
        bias: f64,
        settings: &DualCdSettings,
    ) -> Result<DualSolution> {
        let rows = DenseRows::new(x.view());
        let problem = BinaryProblem {
            rows: &rows,
            signs,
            bounds,
            bias,
            name: "test",
        };
        solve(&problem, settings, &mut ChaCha8Rng::seed_from_u64(3), None)
    }

    /// Functional margins `y_i (w·x_i + B w_b)` of the returned solution.
    fn margins(x: &Array2<f64>, signs: &[f64], s: &DualSolution, bias: f64) -> Vec<f64> {
        let w = ndarray::ArrayView1::from(&s.weights);
        (0..x.nrows())
            .map(|i| signs[i] * (x.row(i).dot(&w) + bias * s.bias_weight))
            .collect()
    }

    /// The largest violation of the KKT conditions of the hinge-loss dual at the returned
    /// `(α, w̃)`: `m_i ≥ 1` where `α_i = 0`, `m_i = 1` where `0 < α_i < C_i`, `m_i ≤ 1` where
    /// `α_i = C_i`, with `m_i` the functional margin.
    fn kkt_violation(alpha: &[f64], costs: &[f64], margins: &[f64]) -> f64 {
        (0..alpha.len())
            .map(|i| {
                let g = margins[i] - 1.0;
                if costs[i] == 0.0 {
                    0.0
                } else if alpha[i] == 0.0 {
                    (-g).max(0.0)
                } else if alpha[i] == costs[i] {
                    g.max(0.0)
                } else {
                    g.abs()
                }
            })
            .fold(0.0, f64::max)
    }

    #[test]
    fn hard_margin_matches_the_hand_solution() {
        // Class −1 at x = 0, class +1 at x = 2. With x̃ = (x, B) the constraints are
        // −B·v ≥ 1 and 2w + B·v ≥ 1; the minimum of ½(w² + v²) is w = 1, v = −1/B, so
        // f(x) = x − 1 for every B, with α = (3/2, 1/2) when B = 1 and D = P = 1.
        let x = array![[0.0], [2.0]];
        let signs = [-1.0, 1.0];
        for bias in [1.0, 10.0] {
            let s = solve_dense(
                &x,
                &signs,
                DualBounds::NonNegative { min_margin: 1e-6 },
                bias,
                &settings(1e-12, true),
            )
            .unwrap();
            assert_relative_eq!(s.weights[0], 1.0, epsilon = 1e-9);
            assert_relative_eq!(bias * s.bias_weight, -1.0, epsilon = 1e-9);
            assert_eq!(s.report.status, FitStatus::Converged);
            assert_relative_eq!(
                s.report.primal_objective,
                0.5 * (1.0 + 1.0 / (bias * bias)),
                epsilon = 1e-9
            );
            assert!(s.report.duality_gap.abs() < 1e-9);
            if bias == 1.0 {
                assert_relative_eq!(s.alpha[0], 1.5, epsilon = 1e-9);
                assert_relative_eq!(s.alpha[1], 0.5, epsilon = 1e-9);
            }
        }
    }

    #[test]
    fn hard_margin_rejects_overlapping_classes() {
        // Class +1 at x = 1 sits between the two rows of class −1: no threshold separates.
        let x = array![[0.0], [1.0], [2.0]];
        let signs = [-1.0, 1.0, -1.0];
        let err = solve_dense(
            &x,
            &signs,
            DualBounds::NonNegative {
                min_margin: crate::svm::DEFAULT_MIN_MARGIN,
            },
            1.0,
            &settings(1e-6, true),
        )
        .err()
        .expect("non-separable data must fail");
        match err {
            Error::Infeasible { what, detail } => {
                assert!(what.contains("hard-margin"), "{what}");
                assert!(detail.contains("not linearly separable"), "{detail}");
                // All three rows carry the certificate.
                for row in ["0 (", "1 (", "2 ("] {
                    assert!(detail.contains(row), "{detail}");
                }
            }
            e => panic!("unexpected {e}"),
        }
        // Without an intercept the all-zero row can never satisfy y_i (w · x_i) ≥ 1.
        let err = solve_dense(
            &array![[0.0], [1.0]],
            &[1.0, -1.0],
            DualBounds::NonNegative { min_margin: 1e-6 },
            0.0,
            &settings(1e-6, true),
        )
        .err()
        .unwrap();
        assert!(matches!(err, Error::Infeasible { ref detail, .. } if detail.contains("row 0")));
    }

    #[test]
    fn zero_rows_and_zero_costs_are_solved_in_closed_form() {
        // Row 0 is zero (no intercept): its hinge loss is 1 whatever w, so α_0 = C. Row 3 has
        // cost 0 and must not move the solution.
        let x = array![[0.0, 0.0], [1.0, 0.5], [-1.0, -0.5], [5.0, 5.0]];
        let signs = [1.0, 1.0, -1.0, -1.0];
        let costs = [2.0, 2.0, 2.0, 0.0];
        let s = solve_dense(
            &x,
            &signs,
            DualBounds::Box(&costs),
            0.0,
            &settings(1e-12, true),
        )
        .unwrap();
        assert_eq!(s.alpha[0], 2.0);
        assert_eq!(s.alpha[3], 0.0);
        let dropped = solve_dense(
            &x.select(ndarray::Axis(0), &[0, 1, 2]),
            &signs[..3],
            DualBounds::Box(&costs[..3]),
            0.0,
            &settings(1e-12, true),
        )
        .unwrap();
        for j in 0..2 {
            assert_relative_eq!(s.weights[j], dropped.weights[j], epsilon = 1e-12);
        }
    }

    /// Small random problems: dense uniform features, random signs (both present).
    fn random_problem(seed: u64, n: usize, d: usize) -> (Array2<f64>, Vec<f64>) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let x = Array2::from_shape_fn((n, d), |_| rng.random_range(-2.0..2.0));
        let signs = (0..n)
            .map(|i| match i {
                0 => 1.0,
                1 => -1.0,
                _ if rng.random::<bool>() => 1.0,
                _ => -1.0,
            })
            .collect();
        (x, signs)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// KKT at the solution: `0 ≤ α_i ≤ C_i`, the margin conditions within a small
        /// multiple of `tol`, weak duality, and a gap no larger than the KKT residual allows
        /// (`gap = Σ_i [C_i max(0, 1 − m_i) − α_i (1 − m_i)] ≤ ε Σ_i C_i` when every
        /// condition holds to `ε`).
        #[test]
        fn soft_margin_solution_satisfies_kkt(
            seed in any::<u64>(),
            n in 2usize..40,
            d in 1usize..6,
            log_c in -2.0f64..1.5,
            bias in prop::sample::select(vec![0.0, 1.0, 3.0]),
            shrinking in any::<bool>(),
        ) {
            let (x, signs) = random_problem(seed, n, d);
            let c = 10f64.powf(log_c);
            let costs = vec![c; n];
            let tol = 1e-8;
            let s = solve_dense(&x, &signs, DualBounds::Box(&costs), bias, &settings(tol, shrinking))
                .unwrap();
            prop_assert_eq!(s.report.status, FitStatus::Converged);
            for &a in &s.alpha {
                prop_assert!((0.0..=c).contains(&a), "alpha {} outside [0, {}]", a, c);
            }
            let m = margins(&x, &signs, &s, bias);
            let violation = kkt_violation(&s.alpha, &costs, &m);
            // `tol` bounds the projected gradients seen during the last sweep; w̃ moves a little
            // after each is seen, hence the factor.
            prop_assert!(violation <= 10.0 * tol, "KKT violation {violation:e}");
            let r = &s.report;
            let rounding = 1e-12 * (1.0 + r.primal_objective.abs());
            prop_assert!(r.duality_gap >= -rounding, "gap {:e} < 0", r.duality_gap);
            prop_assert!(
                r.duality_gap <= violation * c * n as f64 + rounding,
                "gap {:e} exceeds the KKT bound {:e}", r.duality_gap, violation * c * n as f64
            );
            // w̃ = Σ α_i y_i x̃_i.
            for j in 0..d {
                let wj: f64 = (0..n).map(|i| s.alpha[i] * signs[i] * x[[i, j]]).sum();
                prop_assert!((wj - s.weights[j]).abs() <= 1e-9 * (1.0 + wj.abs()));
            }
        }

        /// The optimum in w̃ is unique: shrinking, the random order and the seed change only
        /// the path.
        #[test]
        fn solution_does_not_depend_on_the_path(seed in any::<u64>(), n in 2usize..30) {
            let (x, signs) = random_problem(seed, n, 3);
            let costs = vec![1.0; n];
            let a = solve_dense(&x, &signs, DualBounds::Box(&costs), 1.0, &settings(1e-11, true)).unwrap();
            let rows = DenseRows::new(x.view());
            let problem = BinaryProblem { rows: &rows, signs: &signs, bounds: DualBounds::Box(&costs), bias: 1.0, name: "t" };
            let b = solve(&problem, &settings(1e-11, false), &mut ChaCha8Rng::seed_from_u64(seed), None).unwrap();
            let bound = a.report.weight_error_bound() + b.report.weight_error_bound();
            let distance = a.weights.iter().zip(&b.weights).map(|(p, q)| (p - q).powi(2)).sum::<f64>()
                + (a.bias_weight - b.bias_weight).powi(2);
            prop_assert!(distance.sqrt() <= bound + 1e-9, "{:e} > {:e}", distance.sqrt(), bound);
        }

        /// A warm start changes the path, not the optimum: from any start (projected into the
        /// box, the rows past its end at 0) the solver reaches the cold run's `w̃`, and from the
        /// cold run's own `α` it stops within a few passes (rounding and shrinking's checks), or
        /// a tenth of the cold run's.
        #[test]
        fn a_warm_start_reaches_the_same_optimum(
            seed in any::<u64>(),
            n in 2usize..30,
            start in prop::collection::vec(-1.0f64..3.0, 0..30),
        ) {
            let (x, signs) = random_problem(seed, n, 3);
            let costs = vec![1.0; n];
            let rows = DenseRows::new(x.view());
            let problem = BinaryProblem { rows: &rows, signs: &signs, bounds: DualBounds::Box(&costs), bias: 1.0, name: "t" };
            let run = |start: Option<&[f64]>| {
                solve(&problem, &settings(1e-11, true), &mut ChaCha8Rng::seed_from_u64(seed), start).unwrap()
            };
            let cold = run(None);
            let start = &start[..start.len().min(n)];
            for warm in [run(Some(start)), run(Some(&cold.alpha))] {
                prop_assert_eq!(warm.report.status, FitStatus::Converged);
                let bound = cold.report.weight_error_bound() + warm.report.weight_error_bound();
                let distance = cold.weights.iter().zip(&warm.weights).map(|(p, q)| (p - q).powi(2)).sum::<f64>()
                    + (cold.bias_weight - warm.bias_weight).powi(2);
                prop_assert!(distance.sqrt() <= bound + 1e-9, "{:e} > {:e}", distance.sqrt(), bound);
            }
            let again = run(Some(&cold.alpha)).report.iterations;
            prop_assert!(
                again <= 10 || 10 * again <= cold.report.iterations,
                "{} from the optimum, {} cold", again, cold.report.iterations
            );
        }

        /// On separable data the hard margin converges to a hyperplane with every functional
        /// margin ≥ 1 (after rescaling), which is the soft-margin solution for large C.
        #[test]
        fn hard_margin_separates_separable_data(seed in any::<u64>(), n in 2usize..30) {
            let (mut x, signs) = random_problem(seed, n, 2);
            // Push the classes apart along the first axis: margin ≥ 0.5.
            for i in 0..n {
                x[[i, 0]] += 2.5 * signs[i];
            }
            let s = solve_dense(&x, &signs, DualBounds::NonNegative { min_margin: 1e-6 }, 1.0, &settings(1e-10, true)).unwrap();
            let m = margins(&x, &signs, &s, 1.0);
            prop_assert!(m.iter().all(|&mi| mi >= 1.0 - 1e-12), "{:?}", m);
            prop_assert!(s.report.duality_gap >= -1e-9);
            prop_assert!(s.report.duality_gap <= 1e-6 * (1.0 + s.report.primal_objective));
            let costs = vec![1e6; n];
            let soft = solve_dense(&x, &signs, DualBounds::Box(&costs), 1.0, &settings(1e-10, true)).unwrap();
            // The soft margin with C large enough that no α_i reaches it has the same optimum.
            prop_assert_eq!(soft.report.n_bounded_support_vectors, 0);
            let bound = soft.report.weight_error_bound() + s.report.weight_error_bound();
            let distance = soft.weights.iter().zip(&s.weights).map(|(p, q)| (p - q).powi(2)).sum::<f64>()
                + (soft.bias_weight - s.bias_weight).powi(2);
            prop_assert!(distance.sqrt() <= bound + 1e-9, "{:e} > {:e}", distance.sqrt(), bound);
        }
    }
}
