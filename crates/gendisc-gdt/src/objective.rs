//! The GDT objective as a problem for [`gendisc_optim`]: the negative of eq. (5)–(6) per unit
//! of sample weight,
//!
//! ```text
//! f(θ) = −(1/S) Σ_i s_i [ log p_θ(x_i, y_i) − (1 − λ) log Σ_k p_θ(x_i, k) ]
//!      = −(1/S) [ λ L_gen(θ) + (1 − λ) L_disc(θ) ],          S = Σ_i s_i,
//! ```
//!
//! with gradient (eq. 8) `∇f = −(1/S) Σ_i Σ_k W_ik ∇ log p_θ(x_i, k)`,
//! `W_ik = s_i (1{y_i = k} − (1 − λ) τ_ik)` and `τ_ik = p_θ(k | x_i)`, and Hessian
//! `∇²f = −(1/S) Σ_i [Σ_k W_ik ∇² log p_θ(x_i, k) − s_i (1 − λ) Cov_τ_i(∇ log p_θ(x_i, ·))]`
//! (the formulas are in `family::hessian`). With shrinkage, `λ Σ_p log π(Λ_p)` joins `L_gen`
//! ([`crate::shrinkage`]).

use std::cell::{Cell, RefCell};

use ndarray::{Array1, Array2, ArrayView1, ArrayViewMut1, ArrayViewMut2, CowArray, Ix2};

use gendisc_core::linalg::Cholesky;
use gendisc_core::numerics::softmax_rows_in_place;
use gendisc_optim::{Objective, TwiceDifferentiable};

use crate::family::density::WeightedRows;
use crate::family::Parametrisation;
use crate::model::TrainingSet;
use crate::shrinkage::PrecisionPrior;

/// `−L_λ(θ) / S` on one training set (validated by the caller).
pub struct GdtObjective<'a> {
    param: Parametrisation,
    /// The rows in standard layout (copied once if they were not).
    x: CowArray<'a, f64, Ix2>,
    y: ArrayView1<'a, usize>,
    weights: Option<ArrayView1<'a, f64>>,
    total_weight: f64,
    lambda: f64,
    /// The shrinkage's log-prior on the precisions, weighted by `λ` with `L_gen`.
    prior: Option<&'a PrecisionPrior>,
    /// `n × K` workspace of [`Objective::value`]: the joint, then the GDT weights `W`.
    work: RefCell<Array2<f64>>,
    /// Per row of the workspace: the joint log-density of the row's class, and the log of
    /// the marginal `Σ_k p_θ(x_i, k)`.
    per_row: RefCell<(Vec<f64>, Vec<f64>)>,
    /// Balls2's responsibilities `ρ_ikm` of [`Objective::value`] (`n × K × 2`; empty
    /// for the other families).
    responsibilities: RefCell<Vec<f64>>,
    /// The gradient's workspace, which the Hessian at the same `θ` then reads.
    at_last_gradient: RefCell<HessianInputs>,
}

/// The per-row quantities the Hessian needs besides `x`: the posteriors `τ`, the weights `W`
/// of eq. (8) and Balls2's responsibilities, all at `theta`.
///
/// A trust-region or Newton step evaluates the gradient at a point and then the Hessian at the
/// same point: keeping these from the gradient spares the Hessian a second pass over the rows
/// (the class densities, Balls2's mixture components and their `exp` and `log`). They are the
/// numbers the Hessian would compute, bit for bit.
struct HessianInputs {
    /// The `θ` they belong to; empty while they belong to none.
    theta: Vec<f64>,
    tau: Array2<f64>,
    w: Array2<f64>,
    responsibilities: Vec<f64>,
}

impl HessianInputs {
    /// Zeroed buffers for `n` rows, belonging to no `θ`.
    fn zeros(param: &Parametrisation, n: usize) -> Self {
        Self {
            theta: Vec::new(),
            tau: Array2::zeros((n, param.n_classes())),
            w: Array2::zeros((n, param.n_classes())),
            responsibilities: vec![0.0; param.responsibilities_len(n)],
        }
    }

    /// Whether they were computed at exactly `theta`.
    fn belong_to(&self, theta: ArrayView1<'_, f64>) -> bool {
        self.theta.len() == theta.len()
            && self
                .theta
                .iter()
                .zip(theta)
                .all(|(a, b)| a.to_bits() == b.to_bits())
    }
}

impl<'a> GdtObjective<'a> {
    /// The objective for `λ ∈ [0, 1]` on a training set (its rows, labels, weights, layout and
    /// shrinkage prior).
    pub(crate) fn new(t: &'a TrainingSet<'a>, lambda: f64) -> Self {
        let (param, x, y, weights) = (t.param, t.x.view(), t.y, t.w);
        let total_weight = weights.map_or(x.nrows() as f64, |w| w.sum());
        Self {
            param,
            // The Hessian reads rows as slices; `to_owned` would keep a column-major layout.
            x: if x.is_standard_layout() {
                CowArray::from(x)
            } else {
                CowArray::from(x.as_standard_layout().into_owned())
            },
            y,
            weights,
            total_weight,
            lambda,
            prior: t.prior.as_ref(),
            work: RefCell::new(Array2::zeros((x.nrows(), param.n_classes()))),
            per_row: RefCell::new((Vec::new(), Vec::new())),
            responsibilities: RefCell::new(vec![0.0; param.responsibilities_len(x.nrows())]),
            at_last_gradient: RefCell::new(HessianInputs::zeros(&param, x.nrows())),
        }
    }

    fn weight(&self, i: usize) -> f64 {
        self.weights.map_or(1.0, |w| w[i])
    }

    /// Fills the workspace with `W` (and Balls2's responsibilities, and `τ` when asked)
    /// and returns `f(θ)`.
    fn value_and_weights(
        &self,
        theta: ArrayView1<'_, f64>,
        work: &mut Array2<f64>,
        responsibilities: &mut [f64],
        mut tau: Option<&mut Array2<f64>>,
    ) -> f64 {
        self.param
            .log_joint_into(theta, self.x.view(), work, Some(responsibilities));
        let discount = 1.0 - self.lambda;
        let mut total = 0.0;
        let (joints, log_marginals) = &mut *self.per_row.borrow_mut();
        joints.clear();
        joints.extend(work.outer_iter().zip(self.y).map(|(row, &yi)| row[yi]));
        // All rows' posteriors at once, so that their exponentials vectorise. A row without a
        // finite normaliser holds its exponentials instead (the value is then not finite, or
        // the row has no weight).
        let k = work.ncols();
        softmax_rows_in_place(
            work.as_slice_mut().expect("a standard-layout workspace"),
            k,
            log_marginals,
        );
        for (i, mut row) in work.outer_iter_mut().enumerate() {
            let s = self.weight(i);
            let yi = self.y[i];
            if s != 0.0 {
                total += s * (joints[i] - discount * log_marginals[i]);
            }
            for (k, v) in row.iter_mut().enumerate() {
                let indicator = if k == yi { 1.0 } else { 0.0 };
                let tau_ik = *v;
                if let Some(tau) = tau.as_deref_mut() {
                    tau[[i, k]] = tau_ik;
                }
                *v = s * (indicator - discount * tau_ik);
            }
        }
        let penalty = match self.prior {
            Some(prior) if self.lambda > 0.0 => self.lambda * prior.log_prior(&self.param, theta),
            _ => 0.0,
        };
        -total / self.total_weight - penalty
    }

    /// The shrinkage prior and the factor `−λ` its derivatives enter `f` with, when it has
    /// weight (`λ > 0`).
    /// [`HessianInputs`] at `theta`, computed afresh.
    fn hessian_inputs(&self, theta: ArrayView1<'_, f64>) -> HessianInputs {
        let mut inputs = HessianInputs::zeros(&self.param, self.x.nrows());
        self.value_and_weights(
            theta,
            &mut inputs.w,
            &mut inputs.responsibilities,
            Some(&mut inputs.tau),
        );
        inputs.theta.extend(theta.iter());
        inputs
    }

    fn prior_term(&self) -> Option<(&PrecisionPrior, f64)> {
        self.prior
            .filter(|_| self.lambda > 0.0)
            .map(|prior| (prior, -self.lambda))
    }
}

impl Objective for GdtObjective<'_> {
    fn dim(&self) -> usize {
        self.param.dim()
    }

    fn value(&self, theta: ArrayView1<'_, f64>) -> f64 {
        let mut work = self.work.borrow_mut();
        let mut rho = self.responsibilities.borrow_mut();
        self.value_and_weights(theta, &mut work, &mut rho, None)
    }

    fn value_and_gradient(
        &self,
        theta: ArrayView1<'_, f64>,
        mut gradient: ArrayViewMut1<'_, f64>,
    ) -> f64 {
        // The gradient works in the buffers it keeps for the Hessian: no copy.
        let mut kept = self.at_last_gradient.borrow_mut();
        let kept = &mut *kept;
        kept.theta.clear();
        let value = self.value_and_weights(
            theta,
            &mut kept.w,
            &mut kept.responsibilities,
            Some(&mut kept.tau),
        );
        gradient.fill(0.0);
        if !value.is_finite() {
            gradient.fill(f64::NAN);
            return value;
        }
        kept.theta.extend(theta.iter());
        self.param.add_weighted_gradient(
            theta,
            self.x.view(),
            kept.w.view(),
            Some(&kept.responsibilities),
            gradient.view_mut(),
        );
        gradient.mapv_inplace(|g| -g / self.total_weight);
        if let Some((prior, scale)) = self.prior_term() {
            prior.add_gradient(&self.param, theta, scale, gradient.view_mut());
        }
        value
    }
}

impl TwiceDifferentiable for GdtObjective<'_> {
    /// Every row adds each class's local Hessian (`q × q`, `q` the parameters of one class
    /// density) and its term of the posteriors' covariance (`p × p`), and the trust region
    /// factorises the sum: about `n (K q² + p²) + p³/3` operations.
    fn hessian_cost(&self) -> Option<f64> {
        let (n, k) = (self.x.nrows() as f64, self.param.n_classes() as f64);
        let (q, p) = (self.param.class_block_len() as f64, self.param.dim() as f64);
        Some(n * (k * q * q + p * p) + p * p * p / 3.0)
    }

    fn hessian(&self, theta: ArrayView1<'_, f64>, mut hessian: ArrayViewMut2<'_, f64>) {
        let discount = 1.0 - self.lambda;
        let coupling = Array1::from_iter((0..self.x.nrows()).map(|i| self.weight(i) * discount));
        let kept = self.at_last_gradient.borrow();
        let computed;
        let inputs = if kept.belong_to(theta) {
            &*kept
        } else {
            computed = self.hessian_inputs(theta);
            &computed
        };
        hessian.fill(0.0);
        let rows = WeightedRows {
            x: self.x.view(),
            w: inputs.w.view(),
            tau: inputs.tau.view(),
            coupling: coupling.view(),
            responsibilities: &inputs.responsibilities,
        };
        self.param
            .add_weighted_hessian(theta, rows, hessian.view_mut());
        hessian.mapv_inplace(|h| -h / self.total_weight);
        if let Some((prior, scale)) = self.prior_term() {
            prior.add_hessian(&self.param, theta, scale, hessian.view_mut());
        }
    }
}

/// The GDT objective as the Newton methods see it, counting the Hessians that were not positive
/// definite — where the trust region ([`gendisc_optim::TrustRegion`], the default) must damp
/// the step, and [`gendisc_optim::Newton`] regularise it, instead of taking the Newton step
/// (`GdtReport::indefinite_hessians`).
pub(crate) struct CountingIndefinite<'a, 'b> {
    objective: &'a GdtObjective<'b>,
    indefinite: Cell<usize>,
}

impl<'a, 'b> CountingIndefinite<'a, 'b> {
    pub(crate) fn new(objective: &'a GdtObjective<'b>) -> Self {
        Self {
            objective,
            indefinite: Cell::new(0),
        }
    }

    /// How many Hessians evaluated so far failed their Cholesky factorisation.
    pub(crate) fn indefinite(&self) -> usize {
        self.indefinite.get()
    }

    /// Counts `n` indefinite Hessians of another parametrisation of the same fit.
    pub(crate) fn add_indefinite(&self, n: usize) {
        self.indefinite.set(self.indefinite.get() + n);
    }

    /// Starts the count again from zero.
    pub(crate) fn reset(&self) {
        self.indefinite.set(0);
    }
}

impl Objective for CountingIndefinite<'_, '_> {
    fn dim(&self) -> usize {
        self.objective.dim()
    }

    fn value(&self, theta: ArrayView1<'_, f64>) -> f64 {
        self.objective.value(theta)
    }

    fn value_and_gradient(
        &self,
        theta: ArrayView1<'_, f64>,
        gradient: ArrayViewMut1<'_, f64>,
    ) -> f64 {
        self.objective.value_and_gradient(theta, gradient)
    }
}

impl TwiceDifferentiable for CountingIndefinite<'_, '_> {
    /// The objective's, and the test factorisation's `p³/3`.
    fn hessian_cost(&self) -> Option<f64> {
        let p = self.objective.dim() as f64;
        Some(self.objective.hessian_cost()? + p * p * p / 3.0)
    }

    fn hessian(&self, theta: ArrayView1<'_, f64>, mut hessian: ArrayViewMut2<'_, f64>) {
        self.objective.hessian(theta, hessian.view_mut());
        // A factorisation of its own: the trust region factorises H + μI, and H itself only
        // while μ = 0. p is small, so this costs little next to the O(n p²) Hessian (0.8% of
        // the samples of a profiled twentieth of the Bouchard–Triggs study).
        if Cholesky::new(hessian.view(), "Hessian").is_err() {
            self.indefinite.set(self.indefinite.get() + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Family, GdtParams};
    use gendisc_core::ParamGuard;
    use ndarray::{array, Array1};

    /// The Hessian from what the last gradient kept is the Hessian computed afresh, bit for bit,
    /// and a gradient at another point is not mistaken for one at `θ`.
    #[test]
    fn the_hessian_from_the_kept_gradient_inputs_is_the_fresh_one() {
        let x = array![
            [0.1, 1.2],
            [-0.7, 0.4],
            [1.5, -0.3],
            [0.9, 0.8],
            [-1.1, -0.6],
            [0.2, -1.4],
            [1.8, 1.1],
            [-0.4, 0.9]
        ];
        let y = array![0, 0, 1, 1, 0, 1, 1, 0];
        for (family, floor) in [
            (Family::Balls2, 0.0),
            (Family::Balls2, 0.05),
            (Family::Qda, 0.0),
        ] {
            let params = GdtParams::new(family)
                .lambda(0.3)
                .variance_floor(floor)
                .check()
                .unwrap();
            let t = TrainingSet::new(&params, x.view(), y.view(), None).unwrap();
            let p = t.param.dim();
            let theta = Array1::from_iter((0..p).map(|j| 0.1 * ((j * 7 % 5) as f64 - 2.0)));
            let elsewhere = theta.mapv(|v| v + 0.01);
            let fresh = {
                let objective = GdtObjective::new(&t, 0.3);
                let mut h = Array2::zeros((p, p));
                objective.hessian(theta.view(), h.view_mut());
                h
            };
            let objective = GdtObjective::new(&t, 0.3);
            let (mut g, mut h) = (Array1::zeros(p), Array2::zeros((p, p)));
            objective.value_and_gradient(theta.view(), g.view_mut());
            objective.hessian(theta.view(), h.view_mut());
            let bits = |a: &Array2<f64>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&h), bits(&fresh), "{family:?}: kept inputs");
            objective.value_and_gradient(elsewhere.view(), g.view_mut());
            objective.hessian(theta.view(), h.view_mut());
            assert_eq!(
                bits(&h),
                bits(&fresh),
                "{family:?}: after a gradient elsewhere"
            );
        }
    }
}
