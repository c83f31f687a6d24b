//! Whether the discriminative end (`λ = 0`) has a finite maximiser, decided by a certificate.
//!
//! For LDA, QDA, Balls1 and the shared diagonal, `log p_θ(x, k) = β_kᵀ z(x) + c(x)` for a
//! fixed feature map `z` and a term `c` common to the classes, so that the conditional
//! likelihood `L_disc` (Bouchard & Triggs, eq. 4) depends on `θ` only through the induced
//! multinomial-logistic coefficients `β`:
//!
//! | family | induced features `z(x)` |
//! |---|---|
//! | LDA, shared diagonal | `(1, x)` |
//! | Balls1 | `(1, x, ‖x‖²)` |
//! | QDA | `(1, x, x_j x_l for j ≤ l)` |
//!
//! and every `β` of that form is induced by some finite `θ` (two classes; with more, the
//! shared diagonal with fixed priors induces a subset). A multinomial-logistic likelihood has
//! a finite maximiser exactly when the training rows are neither completely nor
//! quasi-completely separated in `z` (Albert & Anderson, 1984, *Biometrika* 71(1); for `K`
//! classes, the same condition on the margins `(β_{y_i} − β_k)ᵀ z_i`, `k ≠ y_i`). Separation is
//! a direction `D` (with `D_0 = 0`) along which no margin decreases and some margin increases:
//! moving along it raises `L_disc` for ever. It is found, or excluded, by the linear program
//!
//! ```text
//! max_D  Σ_i Σ_{k ≠ y_i} (D_{y_i} − D_k)ᵀ z_i
//! s.t.   (D_{y_i} − D_k)ᵀ z_i ≥ 0   for every row i of positive weight and k ≠ y_i,
//!        −1 ≤ D ≤ 1,
//! ```
//!
//! (Konis, 2007, *Linear programming algorithms for detecting separated data in binary
//! logistic regression models*, DPhil thesis, Oxford, §3): an optimum of zero proves overlap —
//! a maximiser exists — and a positive optimum is a [`Separation`] certificate, checked again
//! on the margins it implies. With more than two classes, the two-class programs that set one
//! class apart from the others are solved first, as a cheaper sufficient test
//! ([`separation`]). A GDT fit on at least twice as many rows as induced features asks the
//! `K`-class program last: the induced fit it needs anyway where a maximiser exists proves
//! overlap at its optimum by Stiemke's theorem (`overlap_at_optimum`), or separation where its
//! coefficients separate every row (`separation_along`).
//!
//! **Balls2.** Its class densities are mixtures, so its log-odds are not linear in any fixed
//! features, `L_disc` is not concave, and no linear program decides in general whether it has
//! a maximiser: on overlapping classes it may (identical rows of both classes, say, make any
//! model whose classes agree there a maximiser) or may not. Three sufficient conditions prove
//! that it has none, two before the fit ([`balls2_separation`]) and one where it stops:
//!
//! * **Without a variance floor:** complete separation in Balls1's induced features
//!   `(1, x, ‖x‖²)`. A Balls2 model whose two components of each class coincide is a Balls1
//!   model, so along Balls1's separating direction `L_disc → 0`, its supremum (every term is a
//!   log-probability); no finite `θ` attains 0, since every posterior is below 1.
//! * **With a floor, two classes:** complete linear separation, in `(1, x)`. Balls1 with one
//!   variance `σ²` above the floor and means `o ± t v` has log-odds
//!   `(2t/σ²)(vᵀx − vᵀo) + log(π₁/π₀)`, any hyperplane for a suitable `o` and `v`, scaled by `t`
//!   without the priors or the variances moving, so again `L_disc → 0` as `t → ∞`.
//! * **Without a variance floor, at a point:** a `θ` at which every row is nearer to its own
//!   class than to any other in the sense of the sharpest component,
//!   `D_{y_i}(x_i) < D_k(x_i)` for every `k ≠ y_i` with `D_k(x) = min_m ‖x − μ_km‖² / (2σ²_km)`
//!   ([`balls2_component_separation`]). Multiplying every precision by `t` leaves the means,
//!   mixing weights and priors where they are and gives
//!   `log p_t(x, k) = (d/2) ln t − t D_k(x) + O(1)`, the `O(1)` bounded by the logarithms of the
//!   class's weights and normalising constants: every log-odds `log p_t(x_i, y_i) / p_t(x_i, k)`
//!   grows like `t (D_k(x_i) − D_{y_i}(x_i))`, so `L_disc → 0` as `t → ∞`, which no finite `θ`
//!   attains. The first two conditions are decided before the fit; this one is checked where
//!   the fit stops, and catches the fits that follow that ray: their gradient vanishes with
//!   `L_disc`, so that they can meet the gradient criterion on the way to a supremum at
//!   infinity.
//!
//! **Cross-validation.** GDT-CV fits its folds at `λ = 0` only where the fit on all the
//! training rows has a maximiser there ([`crate::cv`]): rows separated as a whole leave `λ = 0`
//! out before any fold solves a linear program of its own.
//!
//! The linear program certifies complete separation only when the direction it finds separates
//! every row strictly; quasi-complete separation proves nothing for Balls2, whose richer
//! log-odds may do better than the sub-family's limit at a finite `θ`. Where no condition holds,
//! the fit's report says whether it met the gradient criterion. For `λ > 0`
//! without a floor `L_gen` itself is unbounded (a component shrinking onto one row, the
//! classical degeneracy of mixture likelihoods): such a fit is a local maximiser at best, and
//! [`crate::GdtParams::variance_floor`] bounds it.

use ndarray::{s, Array1, Array2, ArrayView1, ArrayView2};
use serde::{Deserialize, Serialize};

use gendisc_core::linalg::Cholesky;
use gendisc_core::numerics::softmax_slice_in_place;
use gendisc_core::Result;
use gendisc_optim::{Affine, Socp, SocpSettings};

use crate::family::{Family, Parametrisation};

/// The most induced coefficients (`(K − 1) q`) for which `overlap_at_optimum` forms and
/// factorises their `dim × dim` Gram matrix: the size up to which the default solver forms a
/// Hessian ([`gendisc_optim::AUTO_MAX_NEWTON_DIM`]). Beyond it (QDA on 64 features and ten
/// classes has 19,305) the matrix would take gigabytes, and the linear program decides.
const MAX_GRAM_DIM: usize = gendisc_optim::AUTO_MAX_NEWTON_DIM;

/// A margin change `a` counts as "not decreasing" when `a ≥ −MARGIN_TOLERANCE · max |a|`.
const MARGIN_TOLERANCE: f64 = 1e-6;

/// The smallest largest-margin (with `‖D‖_∞ ≤ 1` on inputs of magnitude at most 1) that counts
/// as separation rather than the interior-point method's round-off.
const SEPARATION_THRESHOLD: f64 = 1e-6;

/// A certificate that the conditional likelihood has no finite maximiser: a direction of
/// recession in the induced coefficients.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Separation {
    /// The direction `D` (`K × q`, row 0 zero), over the induced features of
    /// [`induced_features`] of the rows divided by the model's scale.
    pub direction: Array2<f64>,
    /// How many (row, rival class) margins increase strictly along `D`; the rest stay.
    pub strict_margins: usize,
    /// The margins counted: rows of positive weight times `K − 1`.
    pub margins: usize,
    /// `true` when every margin increases strictly along `direction` (complete separation),
    /// `false` when some stay. `false` alone does not prove the separation quasi-complete:
    /// another direction may increase every margin.
    pub complete: bool,
    /// For a Balls2 fit, the sub-family whose induced features `D` is over (Balls1's, or LDA's
    /// with a variance floor; see [`balls2_separation`]); `None` for the fitted family's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sub_family: Option<Family>,
}

/// A certificate that Balls2's conditional likelihood without a variance floor has no finite
/// maximiser, found at the parameters `θ` a fit stopped at (see the
/// [module documentation](self)): there, every row of positive weight is strictly nearer to its
/// own class than to any other, `D_{y_i}(x_i) < D_k(x_i)` for `k ≠ y_i`, and sharpening every
/// component without moving it drives `L_disc` to its supremum 0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComponentSeparation {
    /// The rows of positive weight, every one of them separated.
    pub rows: usize,
    /// The smallest gap `min_{k ≠ y_i} D_k(x_i) − D_{y_i}(x_i)` over the rows, relative to the
    /// larger of the two distances: in `(0, 1]`, 1 where a row sits on one of its own class's
    /// means.
    pub smallest_relative_gap: f64,
}

/// The number of induced features `q` of `family` on `d` inputs, or `None` for Balls2.
pub fn induced_dim(family: Family, d: usize) -> Option<usize> {
    Some(1 + d + family.densities().induced_extras(d)?)
}

/// The induced features `z(x)` of every row (`n × q`; see the [module documentation](self)),
/// or `None` for Balls2.
pub fn induced_features(family: Family, x: ArrayView2<'_, f64>) -> Option<Array2<f64>> {
    let d = x.ncols();
    let q = induced_dim(family, d)?;
    let densities = family.densities();
    let mut z = Array2::zeros((x.nrows(), q));
    for (row, mut out) in x.outer_iter().zip(z.outer_iter_mut()) {
        out[0] = 1.0;
        for j in 0..d {
            out[1 + j] = row[j];
        }
        densities.write_induced_extras(row, out.slice_mut(ndarray::s![1 + d..]));
    }
    Some(z)
}

/// Decides whether the rows `(x, y)` (of positive `weights`) are separated in the induced
/// features of `family`: `Some(certificate)` if they are (no finite maximiser at `λ = 0`),
/// `None` if they overlap (a maximiser exists). Always `None` for Balls2, whose conditional
/// likelihood no linear program decides; [`balls2_separation`] proves, where it can, that it
/// has no maximiser.
///
/// With more than two classes, the two-class programs that set one class apart from the rest
/// are tried before the program over all `K` classes.
pub fn separation(
    family: Family,
    n_classes: usize,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    weights: Option<ArrayView1<'_, f64>>,
) -> Result<Option<Separation>> {
    if let Some(certificate) =
        separation_by(Programs::ClassApart, family, n_classes, x, y, weights)?
    {
        return Ok(Some(certificate));
    }
    separation_by(Programs::Joint, family, n_classes, x, y, weights)
}

/// Which linear programs [`separation_by`] solves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Programs {
    /// The two-class programs that set one class apart from the others (`one_class_apart`):
    /// a certificate where one does, `None` otherwise, which proves nothing (and always for
    /// two classes, whose program is the `K`-class one).
    ClassApart,
    /// The `K`-class program: a certificate if the rows are separated, `None` if they overlap.
    Joint,
}

/// One step of [`separation`]: its `programs` alone (`None` for Balls2).
pub(crate) fn separation_by(
    programs: Programs,
    family: Family,
    n_classes: usize,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    weights: Option<ArrayView1<'_, f64>>,
) -> Result<Option<Separation>> {
    if programs == Programs::ClassApart && n_classes <= 2 {
        return Ok(None);
    }
    let Some(z) = induced_features(family, x) else {
        return Ok(None);
    };
    let positive = |i: usize| weights.is_none_or(|w| w[i] > 0.0);
    match programs {
        Programs::ClassApart => one_class_apart(z.view(), y, n_classes, &positive),
        Programs::Joint => {
            let direction =
                separating_direction(z.view(), y, n_classes, &positive, Objective::SumOfMargins)?;
            Ok(certify(direction, z.view(), y, &positive))
        }
    }
}

/// A certificate of separation that sets one class apart: for each class `a` in turn, the
/// two-class program of class `a` against the others, whose direction `c` (if any) gives the
/// `K`-class direction `D_a = c`, `D_k = 0` for `k ≠ a` (shifted by `−D_0`, which moves no
/// margin, so that row 0 is zero), checked like any other on every margin. `None` when no
/// class is set apart, which proves nothing: the classes may still be separated together.
///
/// A sufficient test, tried first because its programs have `q` variables where the
/// `K`-class program has `(K − 1) q`, so that `K` of them cost less than the one; on Statlog
/// satimage (six classes) and vehicle (four), the separations of the Bouchard–Triggs study
/// are almost all of this kind.
fn one_class_apart(
    z: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    k: usize,
    positive: &dyn Fn(usize) -> bool,
) -> Result<Option<Separation>> {
    for apart in 0..k {
        let in_class = y.mapv(|class| usize::from(class == apart));
        let two_class =
            separating_direction(z, in_class.view(), 2, positive, Objective::SumOfMargins)?;
        let mut direction = Array2::zeros((k, z.ncols()));
        direction.row_mut(apart).assign(&two_class.row(1));
        let reference = direction.row(0).to_owned();
        direction -= &reference;
        if let Some(certificate) = certify(direction, z, y, positive) {
            return Ok(Some(certificate));
        }
    }
    Ok(None)
}

/// Whether induced coefficients `beta` (`K × q`, row 0 zero) at which a fit of the induced
/// multinomial logistic regression met its gradient criterion prove that the rows `(z, y)` of
/// positive `weights` overlap — that `L_disc` has a finite maximiser — without the linear
/// program of [`separation`]. `false` proves nothing.
///
/// By Stiemke's theorem (E. Stiemke, 1915, *Mathematische Annalen* 76, 340–342) exactly one of
/// two holds for the margins' coefficient vectors `m_ir` (`z_i` in class `y_i`'s block, `−z_i`
/// in rival `r`'s, class 0's dropped): a direction `D` with every margin `m_irᵀ D ≥ 0` and some
/// `> 0` (separation, the linear program's question), or weights `α_ir > 0`, every one
/// strictly positive, with `Σ α_ir m_ir = 0`. The likelihood's first-order condition is such a
/// combination, `α_ir = w_i p_ir` with `p_ir` the fitted probability of the rival class; at a
/// fit that met its tolerance it leaves the small remainder `g = Σ α_ir m_ir`. The weights
/// `α_ir (1 + m_irᵀ u)` with `(Σ α_ir m_ir m_irᵀ) u = −g` remove it, and stay positive where
/// every `m_irᵀ u > −1`; the check asks `m_irᵀ u ≥ −½`, so that round-off in `u` cannot decide
/// it. It fails, and leaves the question to the linear program, where a probability underflows
/// or the margins do not span the coefficients (collinear induced features).
pub(crate) fn overlap_at_optimum(
    beta: ArrayView2<'_, f64>,
    z: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    weights: Option<ArrayView1<'_, f64>>,
) -> bool {
    overlap_within(MAX_GRAM_DIM, beta, z, y, weights)
}

/// [`overlap_at_optimum`] with at most `max_dim` induced coefficients (`false` beyond).
fn overlap_within(
    max_dim: usize,
    beta: ArrayView2<'_, f64>,
    z: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    weights: Option<ArrayView1<'_, f64>>,
) -> bool {
    let (k, q) = beta.dim();
    let dim = (k - 1) * q;
    if dim == 0 || dim > max_dim || z.ncols() != q {
        return false;
    }
    let scores = z.dot(&beta.t());
    // The blocks of m_ir that exist (class 0 has none), with their signs.
    let blocks = |own: usize, rival: usize| {
        [(own, 1.0), (rival, -1.0)]
            .into_iter()
            .filter(|&(class, _)| class > 0)
    };
    let mut remainder = Array1::<f64>::zeros(dim);
    let mut gram = Array2::<f64>::zeros((dim, dim));
    let mut probabilities = vec![0.0; k];
    for (i, zi) in z.outer_iter().enumerate() {
        let w = weights.map_or(1.0, |w| w[i]);
        if w <= 0.0 {
            continue;
        }
        probabilities.copy_from_slice(scores.row(i).as_slice().expect("standard layout"));
        if !softmax_slice_in_place(&mut probabilities).is_finite() {
            return false;
        }
        for rival in (0..k).filter(|&r| r != y[i]) {
            let alpha = w * probabilities[rival];
            if alpha <= 0.0 || alpha.is_nan() {
                return false;
            }
            for (a, sign_a) in blocks(y[i], rival) {
                let block = s![(a - 1) * q..a * q];
                remainder.slice_mut(block).scaled_add(alpha * sign_a, &zi);
                for (b, sign_b) in blocks(y[i], rival) {
                    let c = alpha * sign_a * sign_b;
                    let mut g = gram.slice_mut(s![(a - 1) * q..a * q, (b - 1) * q..b * q]);
                    for (mut row, &za) in g.outer_iter_mut().zip(&zi) {
                        row.scaled_add(c * za, &zi);
                    }
                }
            }
        }
    }
    let Ok(factor) = Cholesky::new(gram.view(), "the margins' weighted Gram matrix") else {
        return false;
    };
    let Ok(u) = factor.solve_vec((-&remainder).view()) else {
        return false;
    };
    let shift = |class: usize, zi: ArrayView1<'_, f64>| {
        if class == 0 {
            0.0
        } else {
            zi.dot(&u.slice(s![(class - 1) * q..class * q]))
        }
    };
    z.outer_iter().enumerate().all(|(i, zi)| {
        weights.is_some_and(|w| w[i] <= 0.0)
            || (0..k)
                .filter(|&r| r != y[i])
                .all(|rival| shift(y[i], zi) - shift(rival, zi) >= -0.5)
    })
}

/// A certificate of complete separation read off induced coefficients `beta` (`K × q`, row 0
/// zero) that give every row of positive `weights` a strictly positive margin: where a fit of
/// the induced logistic regression runs off to infinity, it runs along such a direction.
/// `None` where some margin is not strictly positive (beyond round-off), which proves nothing.
pub(crate) fn separation_along(
    beta: ArrayView2<'_, f64>,
    z: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    weights: Option<ArrayView1<'_, f64>>,
) -> Option<Separation> {
    let largest = beta.iter().fold(0.0_f64, |m, b| m.max(b.abs()));
    if !(largest > 0.0 && largest.is_finite()) {
        return None;
    }
    let positive = |i: usize| weights.is_none_or(|w| w[i] > 0.0);
    certify(beta.mapv(|b| b / largest), z, y, &positive).filter(|c| c.complete)
}

/// What the separating direction's linear program maximises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Objective {
    /// The sum of the margins (Konis's program): positive exactly when the rows are separated,
    /// completely or quasi-completely.
    SumOfMargins,
    /// The smallest margin: positive exactly when the rows are completely separated.
    SmallestMargin,
}

/// The direction `D` (`K × q`, row 0 zero, `‖D‖_∞ ≤ 1`) of the linear program over the rows'
/// induced features `z` that keeps every margin `(D_{y_i} − D_k)ᵀ z_i` (`k ≠ y_i`, rows of
/// positive weight) non-negative and maximises `objective`.
fn separating_direction(
    z: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    k: usize,
    positive: &dyn Fn(usize) -> bool,
    objective: Objective,
) -> Result<Array2<f64>> {
    let q = z.ncols();
    // Variables: D_1 … D_{K−1}, each q long (D_0 = 0), then the smallest margin s.
    let var = |class: usize, j: usize| (class - 1) * q + j;
    let smallest = (k - 1) * q;
    let mut lp = Socp::new("GDT separation certificate");
    lp.add_variables((k - 1) * q + usize::from(objective == Objective::SmallestMargin));
    let margin = |i: usize, rival: usize| -> Affine {
        let mut m = Affine::new();
        let own = y[i];
        for j in 0..q {
            let v = z[[i, j]];
            if v == 0.0 {
                continue;
            }
            if own > 0 {
                m = m.term(var(own, j), v);
            }
            if rival > 0 {
                m = m.term(var(rival, j), -v);
            }
        }
        m
    };
    let mut total = Affine::new();
    for i in (0..z.nrows()).filter(|&i| positive(i)) {
        for rival in (0..k).filter(|&r| r != y[i]) {
            let m = margin(i, rival);
            // −margin (+ s) ≤ 0: every margin at least 0 (at least s).
            let mut negated = Affine::new();
            for &(v, c) in &m.terms {
                negated = negated.term(v, -c);
                total = total.term(v, -c);
            }
            if objective == Objective::SmallestMargin {
                negated = negated.term(smallest, 1.0);
            }
            lp.add_inequality(negated);
        }
    }
    for v in 0..(k - 1) * q {
        lp.add_inequality(Affine::var(v).plus(-1.0));
        lp.add_lower_bound(v, -1.0);
    }
    match objective {
        Objective::SumOfMargins => {
            lp.minimize_linear(total);
        }
        Objective::SmallestMargin => {
            // s ≤ 1 keeps the program bounded where the rows have no margin to share (a row
            // whose z is 0).
            lp.add_inequality(Affine::var(smallest).plus(-1.0));
            lp.minimize_linear(Affine::new().term(smallest, -1.0));
        }
    }
    let solution = lp.solve(&SocpSettings::default())?;
    let mut direction = Array2::zeros((k, q));
    for class in 1..k {
        for j in 0..q {
            direction[[class, j]] = solution.x[var(class, j)];
        }
    }
    Ok(direction)
}

/// Decides, where it can, that Balls2's conditional likelihood on the rows `(x, y)` has no
/// finite maximiser (see the [module documentation](self)): `Some(certificate)` when the rows
/// are completely separated in Balls1's induced features (`floored` false) or, with a variance
/// floor and two classes, linearly (LDA's); `None` when that is not shown, which does not mean
/// that a maximiser exists.
pub fn balls2_separation(
    n_classes: usize,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    weights: Option<ArrayView1<'_, f64>>,
    floored: bool,
) -> Result<Option<Separation>> {
    let sub_family = match (floored, n_classes) {
        (false, _) => Family::Balls1,
        (true, 2) => Family::Lda,
        (true, _) => return Ok(None),
    };
    let z = induced_features(sub_family, x).expect("a sub-family of Gaussian classes");
    let positive = |i: usize| weights.is_none_or(|w| w[i] > 0.0);
    let direction =
        separating_direction(z.view(), y, n_classes, &positive, Objective::SmallestMargin)?;
    Ok(certify(direction, z.view(), y, &positive)
        .filter(|certificate| certificate.complete)
        .map(|certificate| Separation {
            sub_family: Some(sub_family),
            ..certificate
        }))
}

/// Decides whether the Balls2 parameters `theta` of `param` (without a variance floor) separate
/// the rows `(x, y)` of positive `weights` by their classes' sharpest components (see the
/// [module documentation](self)): `Some(certificate)` that the conditional likelihood has no
/// finite maximiser if every row is strictly nearer to its own class; `None` otherwise (which
/// proves nothing), for the other families (which [`separation`] decides) and with a floor
/// (which bounds the precisions).
///
/// A row counts as separated when its gap exceeds both `10⁻⁶` times the larger distance and a
/// bound on the round-off of the two distances, so that no certificate rests on rounding.
pub fn balls2_component_separation(
    param: &Parametrisation,
    theta: ArrayView1<'_, f64>,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    weights: Option<ArrayView1<'_, f64>>,
) -> Option<ComponentSeparation> {
    if param.variance_floor() > 0.0 {
        return None;
    }
    let means = param.balls2_means(theta).ok()??;
    let variances = param.balls2_variances(theta).ok()??;
    let (k, components, d) = means.dim();
    if x.ncols() != d || y.len() != x.nrows() {
        return None;
    }
    let round_off = 4.0 * (d as f64 + 2.0) * f64::EPSILON;
    let mut distance = vec![(0.0_f64, 0.0_f64); k];
    let (mut rows, mut smallest_relative_gap) = (0, f64::INFINITY);
    for (i, row) in x.outer_iter().enumerate() {
        if !weights.is_none_or(|w| w[i] > 0.0) {
            continue;
        }
        let row_sq = row.dot(&row);
        // Per class: the sharpest component's distance D_k, and a bound on the round-off of
        // every component's, which bounds the minimum's.
        for (class, slot) in distance.iter_mut().enumerate() {
            *slot = (f64::INFINITY, 0.0);
            for m in 0..components {
                let mean = means.slice(ndarray::s![class, m, ..]);
                let sq: f64 = row.iter().zip(mean).map(|(a, b)| (a - b) * (a - b)).sum();
                let scale = 0.5 / variances[[class, m]];
                let (dm, rm) = (scale * sq, round_off * scale * (row_sq + mean.dot(&mean)));
                if !(dm.is_finite() && rm.is_finite()) {
                    return None;
                }
                *slot = (slot.0.min(dm), slot.1.max(rm));
            }
        }
        let own = y[i];
        let (own_distance, own_round_off) = distance[own];
        for (rival, &(rival_distance, rival_round_off)) in distance.iter().enumerate() {
            if rival == own {
                continue;
            }
            let gap = rival_distance - own_distance;
            let larger = own_distance.max(rival_distance);
            if !(gap > MARGIN_TOLERANCE * larger && gap > own_round_off + rival_round_off) {
                return None;
            }
            smallest_relative_gap = smallest_relative_gap.min(gap / larger);
        }
        rows += 1;
    }
    (rows > 0).then_some(ComponentSeparation {
        rows,
        smallest_relative_gap,
    })
}

/// Checks a candidate direction on the margins it implies: a certificate when no margin
/// decreases beyond round-off and some increase beyond [`SEPARATION_THRESHOLD`].
fn certify(
    direction: Array2<f64>,
    z: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    positive: &dyn Fn(usize) -> bool,
) -> Option<Separation> {
    let scores = z.dot(&direction.t());
    let (mut lowest, mut largest) = (f64::INFINITY, 0.0_f64);
    let mut changes = Vec::new();
    for i in (0..z.nrows()).filter(|&i| positive(i)) {
        for rival in (0..direction.nrows()).filter(|&r| r != y[i]) {
            let a = scores[[i, y[i]]] - scores[[i, rival]];
            lowest = lowest.min(a);
            largest = largest.max(a.abs());
            changes.push(a);
        }
    }
    if largest <= SEPARATION_THRESHOLD || lowest < -MARGIN_TOLERANCE * largest {
        return None;
    }
    let strict = changes
        .iter()
        .filter(|&&a| a > MARGIN_TOLERANCE * largest)
        .count();
    Some(Separation {
        direction,
        strict_margins: strict,
        margins: changes.len(),
        complete: strict == changes.len(),
        sub_family: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{array, Array1};

    #[test]
    fn overlapping_classes_have_a_maximiser() {
        // Alternating classes along one axis: no line, and no quadratic, separates them.
        let x = array![[0.0], [0.2], [0.4], [0.6], [0.8], [1.0]];
        let y = array![0, 1, 0, 1, 0, 1];
        for family in [
            Family::Lda,
            Family::SharedDiagonal,
            Family::Balls1,
            Family::Qda,
        ] {
            assert_eq!(
                separation(family, 2, x.view(), y.view(), None).unwrap(),
                None,
                "{family}"
            );
        }
    }

    #[test]
    fn linearly_separated_classes_are_certified() {
        let x = array![[0.0, 0.1], [0.2, 0.0], [0.7, 0.9], [0.8, 0.6]];
        let y = array![0, 0, 1, 1];
        let s = separation(Family::Lda, 2, x.view(), y.view(), None)
            .unwrap()
            .expect("separated");
        assert!(s.complete);
        assert_eq!(s.margins, 4);
    }

    #[test]
    fn classes_separated_only_by_a_quadratic_need_qda() {
        // Class 1 inside, class 0 on both sides: no line separates them, a quadratic does.
        let x = array![[-0.9], [-0.6], [-0.1], [0.0], [0.15], [0.7], [0.95]];
        let y = array![0, 0, 1, 1, 1, 0, 0];
        assert_eq!(
            separation(Family::Lda, 2, x.view(), y.view(), None).unwrap(),
            None
        );
        assert!(separation(Family::Qda, 2, x.view(), y.view(), None)
            .unwrap()
            .is_some());
        assert!(separation(Family::Balls1, 2, x.view(), y.view(), None)
            .unwrap()
            .is_some());
    }

    #[test]
    fn balls2_is_certified_only_by_a_complete_separation_its_sub_families_prove() {
        // Linearly separated: Balls1's features separate too, and LDA's with a floor.
        let x = array![[0.0, 0.1], [0.2, 0.0], [0.7, 0.9], [0.8, 0.6]];
        let y = array![0, 0, 1, 1];
        for (floored, sub) in [(false, Family::Balls1), (true, Family::Lda)] {
            let s = balls2_separation(2, x.view(), y.view(), None, floored)
                .unwrap()
                .expect("separated");
            assert!(s.complete && s.sub_family == Some(sub), "{s:?}");
        }
        // Separated only by ‖x‖² (class 1 inside): a certificate without a floor only.
        let x = array![[-0.9], [-0.6], [-0.1], [0.0], [0.15], [0.7], [0.95]];
        let y = array![0, 0, 1, 1, 1, 0, 0];
        assert!(balls2_separation(2, x.view(), y.view(), None, false)
            .unwrap()
            .is_some());
        assert_eq!(
            balls2_separation(2, x.view(), y.view(), None, true).unwrap(),
            None
        );
        // Quasi-complete separation proves nothing for the mixture.
        let x = array![[0.0], [0.2], [0.5], [0.5], [0.8], [1.0]];
        let y = array![0, 0, 0, 1, 1, 1];
        for floored in [false, true] {
            assert_eq!(
                balls2_separation(2, x.view(), y.view(), None, floored).unwrap(),
                None
            );
        }
        // With a floor, only two classes have the construction.
        let x = array![[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]];
        let y = array![0, 0, 1, 1, 2, 2];
        assert_eq!(
            balls2_separation(3, x.view(), y.view(), None, true).unwrap(),
            None
        );
    }

    #[test]
    fn quasi_complete_separation_is_certified() {
        // Two rows of different classes share x = 0.5; the others are separated by it.
        let x = array![[0.0], [0.2], [0.5], [0.5], [0.8], [1.0]];
        let y = array![0, 0, 0, 1, 1, 1];
        let s = separation(Family::Lda, 2, x.view(), y.view(), None)
            .unwrap()
            .expect("quasi-complete separation");
        assert!(!s.complete);
        assert_eq!(s.strict_margins, 4);
    }

    #[test]
    fn zero_weights_leave_rows_out_and_three_classes_work() {
        // Every class at every x: overlap. Keeping one row per class, at increasing x,
        // separates them.
        let x = array![
            [0.0],
            [0.5],
            [1.0],
            [0.0],
            [0.5],
            [1.0],
            [0.0],
            [0.5],
            [1.0]
        ];
        let y = array![0, 0, 0, 1, 1, 1, 2, 2, 2];
        assert_eq!(
            separation(Family::Lda, 3, x.view(), y.view(), None).unwrap(),
            None
        );
        let w = array![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        let s = separation(Family::Lda, 3, x.view(), y.view(), Some(w.view()))
            .unwrap()
            .expect("separated");
        assert_eq!(s.margins, 6);
    }

    /// Three classes in the wedges of a pinwheel: rows at angles `120°·k + 10°, …, 110°` and
    /// radii `0.1, …, 1` around the origin, so that LDA's induced scores `D_kᵀ(1, x)` with unit
    /// `D_k` pointing into each wedge separate them all, while no wedge is linearly separated
    /// from the two others (their hull covers the wedge's rows near the origin).
    fn pinwheel() -> (Array2<f64>, Array1<usize>) {
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        for class in 0..3 {
            for a in 0..11 {
                for r in 1..=10 {
                    let angle = (120.0 * class as f64 + 10.0 + 10.0 * a as f64).to_radians();
                    let radius = 0.1 * r as f64;
                    rows.extend([radius * angle.cos(), radius * angle.sin()]);
                    labels.push(class);
                }
            }
        }
        let n = labels.len();
        (
            Array2::from_shape_vec((n, 2), rows).unwrap(),
            Array1::from(labels),
        )
    }

    #[test]
    fn classes_separated_only_together_are_certified_by_the_k_class_program() {
        let (x, y) = pinwheel();
        let z = induced_features(Family::Lda, x.view()).unwrap();
        let all = |_: usize| true;
        assert_eq!(one_class_apart(z.view(), y.view(), 3, &all).unwrap(), None);
        let s = separation(Family::Lda, 3, x.view(), y.view(), None)
            .unwrap()
            .expect("the wedges are separated");
        assert_eq!(s.margins, 2 * y.len());
        // The wedges' bisectors increase every margin, yet the program's optimum need not
        // (hence `complete` speaks of the certificate's direction only).
        let bisectors = Array2::from_shape_fn((3, 3), |(k, j)| {
            let angle = (120.0 * k as f64 + 60.0).to_radians();
            [0.0, angle.cos(), angle.sin()][j]
        });
        let shifted = &bisectors - &bisectors.row(0);
        let complete = certify(shifted, z.view(), y.view(), &all).expect("a certificate");
        assert!(complete.complete);
    }

    #[test]
    fn a_class_set_apart_is_certified_by_its_two_class_program() {
        // The pinwheel with class 0's rows moved far out along its wedge's bisector: class 0
        // is now linearly separated from the others, which still overlap nowhere; the
        // certificate must hold on every margin, with the reference class the one set apart.
        let (mut x, y) = pinwheel();
        for (mut row, &label) in x.rows_mut().into_iter().zip(&y) {
            if label == 0 {
                row += &array![
                    5.0 * 60_f64.to_radians().cos(),
                    5.0 * 60_f64.to_radians().sin()
                ];
            }
        }
        // Class 1 made to overlap class 2 (a row of each at the same point), so that only a
        // direction setting class 0 apart exists.
        let shared = x.row(110).to_owned();
        x.row_mut(y.len() - 1).assign(&shared);
        let z = induced_features(Family::Lda, x.view()).unwrap();
        let all = |_: usize| true;
        let apart = one_class_apart(z.view(), y.view(), 3, &all)
            .unwrap()
            .expect("class 0 is set apart");
        assert!(apart.direction.row(0).iter().all(|&v| v == 0.0));
        assert!(!apart.complete);
        assert_eq!(
            separation(Family::Lda, 3, x.view(), y.view(), None).unwrap(),
            Some(apart)
        );
    }

    /// The induced fit at `λ = 0` of `family` on `(x, y)` with the estimator's default solver.
    fn induced_fit(
        family: Family,
        k: usize,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
    ) -> crate::discriminative_end::InducedFit {
        let param = Parametrisation::new(family, k, x.ncols()).unwrap();
        crate::discriminative_end::fit_induced(&param, x, y, None, &crate::params::default_method())
            .unwrap()
            .expect("a family with induced coefficients")
    }

    #[test]
    fn an_induced_optimum_proves_overlap() {
        let x = array![[0.0], [0.2], [0.4], [0.6], [0.8], [1.0]];
        let y = array![0, 1, 0, 1, 0, 1];
        for family in [Family::Lda, Family::Balls1, Family::Qda] {
            let fit = induced_fit(family, 2, x.view(), y.view());
            assert!(fit.reached, "{family}");
            assert!(
                overlap_at_optimum(fit.beta.view(), fit.z.view(), y.view(), None),
                "{family}"
            );
        }
    }

    #[test]
    fn no_gram_matrix_beyond_its_size_limit() {
        // Overlap that the optimum proves with its two induced coefficients, but not when the
        // limit is one fewer: the question is then the linear program's.
        let x = array![[0.0], [0.2], [0.4], [0.6], [0.8], [1.0]];
        let y = array![0, 1, 0, 1, 0, 1];
        let fit = induced_fit(Family::Lda, 2, x.view(), y.view());
        let within =
            |max_dim| overlap_within(max_dim, fit.beta.view(), fit.z.view(), y.view(), None);
        assert!(within(2));
        assert!(!within(1));
    }

    #[test]
    fn an_induced_fit_running_off_certifies_complete_separation() {
        let x = array![[0.0, 0.1], [0.2, 0.0], [0.7, 0.9], [0.8, 0.6]];
        let y = array![0, 0, 1, 1];
        let fit = induced_fit(Family::Lda, 2, x.view(), y.view());
        assert!(!overlap_at_optimum(
            fit.beta.view(),
            fit.z.view(),
            y.view(),
            None
        ));
        let s = separation_along(fit.beta.view(), fit.z.view(), y.view(), None)
            .expect("the coefficients separate every row");
        assert!(s.complete);
    }

    #[test]
    fn quasi_complete_separation_is_left_to_the_linear_program() {
        // Two rows of different classes at x = 0.5: the fit converges (the shared point keeps
        // it finite along the other rows' direction only in the limit) and proves nothing.
        let x = array![[0.0], [0.2], [0.5], [0.5], [0.8], [1.0]];
        let y = array![0, 0, 0, 1, 1, 1];
        let fit = induced_fit(Family::Lda, 2, x.view(), y.view());
        assert!(!overlap_at_optimum(
            fit.beta.view(),
            fit.z.view(),
            y.view(),
            None
        ));
        assert_eq!(
            separation_along(fit.beta.view(), fit.z.view(), y.view(), None),
            None
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

        /// Each shortcut past the `K`-class program — a class set apart, an induced optimum
        /// that proves overlap, coefficients that separate every row — is a proof: it never
        /// contradicts the program, on few rows (so that separations are common) of up to four
        /// classes.
        #[test]
        fn the_shortcuts_never_contradict_the_k_class_program(
            seed in proptest::prelude::any::<u64>(),
            n in 4usize..28,
            d in 1usize..3,
            k in 2usize..5,
            family in proptest::sample::select(vec![Family::Lda, Family::Qda, Family::Balls1]),
        ) {
            use rand::{Rng, SeedableRng};
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let x = Array2::from_shape_fn((n, d), |_| rng.random_range(-1.0..1.0));
            let y = Array1::from_shape_fn(n, |i| if i < k { i } else { rng.random_range(0..k) });
            let joint = separation_by(Programs::Joint, family, k, x.view(), y.view(), None).unwrap();
            if separation_by(Programs::ClassApart, family, k, x.view(), y.view(), None)
                .unwrap()
                .is_some()
            {
                proptest::prop_assert!(joint.is_some());
            }
            let fit = induced_fit(family, k, x.view(), y.view());
            if fit.reached && overlap_at_optimum(fit.beta.view(), fit.z.view(), y.view(), None) {
                proptest::prop_assert!(joint.is_none(), "{joint:?}");
            }
            if separation_along(fit.beta.view(), fit.z.view(), y.view(), None).is_some() {
                proptest::prop_assert!(joint.is_some());
            }
        }
    }

    /// Balls2's `θ` on one feature and two classes (priors estimated, logit 0): per class the
    /// mixing logit 0, the means `μ_k1, μ_k2` and the log-scales `ℓ_k1, ℓ_k2`.
    fn balls2_theta(means: [[f64; 2]; 2], log_scales: [[f64; 2]; 2]) -> Array1<f64> {
        let mut theta = vec![0.0];
        for (mu, ell) in means.iter().zip(&log_scales) {
            theta.extend([0.0, mu[0], mu[1], ell[0], ell[1]]);
        }
        Array1::from(theta)
    }

    #[test]
    fn balls2_rows_nearest_their_own_components_are_certified_at_a_point() {
        // Class 0 at both ends, class 1 in the middle: a component of each class on its rows.
        let param = Parametrisation::new(Family::Balls2, 2, 1).unwrap();
        let x = array![[-2.0], [-1.9], [2.0], [2.1], [0.0], [0.1]];
        let y = array![0, 0, 0, 0, 1, 1];
        let theta = balls2_theta([[-2.0, 2.0], [0.0, 0.05]], [[0.0, 0.0], [0.0, 0.0]]);
        let c = balls2_component_separation(&param, theta.view(), x.view(), y.view(), None)
            .expect("every row nearest its own class");
        assert_eq!(c.rows, 6);
        assert!(c.smallest_relative_gap > 0.0 && c.smallest_relative_gap <= 1.0);
        // The rule weighs distances by precision: with a wide class-0 component at 0.3 and
        // narrow class-1 ones, the row at 0.1, nearer in plain distance to class 1's mean at
        // 0.05, is class 0's, and nothing is certified.
        let wide = balls2_theta([[-2.0, 0.3], [0.0, 0.05]], [[0.0, -3.0], [3.0, 3.0]]);
        assert_eq!(
            balls2_component_separation(&param, wide.view(), x.view(), y.view(), None),
            None
        );
        // Leaving out that row certifies the rest.
        let w = array![1.0, 1.0, 1.0, 1.0, 1.0, 0.0];
        let kept =
            balls2_component_separation(&param, wide.view(), x.view(), y.view(), Some(w.view()));
        assert_eq!(kept.map(|c| c.rows), Some(5));
    }

    #[test]
    fn balls2_ties_and_floors_certify_nothing() {
        let param = Parametrisation::new(Family::Balls2, 2, 1).unwrap();
        // The row at 1 is as near to class 0's component at 0 as to class 1's at 2.
        let x = array![[0.0], [1.0], [2.0]];
        let y = array![0, 0, 1];
        let theta = balls2_theta([[0.0, -5.0], [2.0, 5.0]], [[0.0, 0.0], [0.0, 0.0]]);
        assert_eq!(
            balls2_component_separation(&param, theta.view(), x.view(), y.view(), None),
            None
        );
        // Without the tie every row is certified, but not with a floor, which bounds the
        // precisions.
        let y = array![0, 0, 1];
        let x = array![[0.0], [0.9], [2.0]];
        assert!(
            balls2_component_separation(&param, theta.view(), x.view(), y.view(), None).is_some()
        );
        let floored = param.with_variance_floor(0.01).unwrap();
        assert_eq!(
            balls2_component_separation(&floored, theta.view(), x.view(), y.view(), None),
            None
        );
        // Other families have no components.
        let lda = Parametrisation::new(Family::Lda, 2, 1).unwrap();
        let lda_theta = Array1::zeros(lda.dim());
        assert_eq!(
            balls2_component_separation(&lda, lda_theta.view(), x.view(), y.view(), None),
            None
        );
    }
}
