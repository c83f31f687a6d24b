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

use ndarray::{Array1, Array2, ArrayView1, ArrayViewMut1, ArrayViewMut2, Axis, CowArray, Ix2};

use gendisc_core::linalg::Cholesky;
use gendisc_core::numerics::log_softmax_in_place;
use gendisc_optim::{Objective, TwiceDifferentiable};

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
    /// `n × K` workspace: the joint, then the GDT weights `W`.
    work: RefCell<Array2<f64>>,
    /// Balls2's log responsibilities `log ρ_ikm` (`n × K × 2`; empty for the other families),
    /// which the gradient reuses from the value's density evaluation at the same `θ`.
    log_responsibilities: RefCell<Vec<f64>>,
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
            log_responsibilities: RefCell::new(vec![
                0.0;
                param.log_responsibilities_len(x.nrows())
            ]),
        }
    }

    fn weight(&self, i: usize) -> f64 {
        self.weights.map_or(1.0, |w| w[i])
    }

    /// Fills the workspace with `W` (and Balls2's log responsibilities) and returns `f(θ)`.
    fn value_and_weights(
        &self,
        theta: ArrayView1<'_, f64>,
        work: &mut Array2<f64>,
        log_responsibilities: &mut [f64],
    ) -> f64 {
        self.param
            .log_joint_into(theta, self.x.view(), work, Some(log_responsibilities));
        let discount = 1.0 - self.lambda;
        let mut total = 0.0;
        for (i, mut row) in work.axis_iter_mut(Axis(0)).enumerate() {
            let s = self.weight(i);
            let yi = self.y[i];
            let joint_y = row[yi];
            let log_marginal = log_softmax_in_place(row.view_mut());
            if s != 0.0 {
                total += s * (joint_y - discount * log_marginal);
            }
            // row now holds log τ_ik.
            for (k, v) in row.iter_mut().enumerate() {
                let indicator = if k == yi { 1.0 } else { 0.0 };
                *v = s * (indicator - discount * v.exp());
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
        let mut log_rho = self.log_responsibilities.borrow_mut();
        self.value_and_weights(theta, &mut work, &mut log_rho)
    }

    fn value_and_gradient(
        &self,
        theta: ArrayView1<'_, f64>,
        mut gradient: ArrayViewMut1<'_, f64>,
    ) -> f64 {
        let mut work = self.work.borrow_mut();
        let mut log_rho = self.log_responsibilities.borrow_mut();
        let value = self.value_and_weights(theta, &mut work, &mut log_rho);
        gradient.fill(0.0);
        if !value.is_finite() {
            gradient.fill(f64::NAN);
            return value;
        }
        self.param.add_weighted_gradient(
            theta,
            self.x.view(),
            work.view(),
            Some(&log_rho),
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
    fn hessian(&self, theta: ArrayView1<'_, f64>, mut hessian: ArrayViewMut2<'_, f64>) {
        let (n, k) = (self.x.nrows(), self.param.n_classes());
        let discount = 1.0 - self.lambda;
        let mut tau = Array2::zeros((n, k));
        self.param
            .log_joint_into(theta, self.x.view(), &mut tau, None);
        let mut w = Array2::zeros((n, k));
        let mut coupling = Array1::zeros(n);
        for (i, (mut t, mut wr)) in tau
            .axis_iter_mut(Axis(0))
            .zip(w.axis_iter_mut(Axis(0)))
            .enumerate()
        {
            let s = self.weight(i);
            let yi = self.y[i];
            log_softmax_in_place(t.view_mut());
            t.mapv_inplace(f64::exp);
            for (c, (wc, &tc)) in wr.iter_mut().zip(t.iter()).enumerate() {
                let indicator = if c == yi { 1.0 } else { 0.0 };
                *wc = s * (indicator - discount * tc);
            }
            coupling[i] = s * discount;
        }
        hessian.fill(0.0);
        self.param.add_weighted_hessian(
            theta,
            self.x.view(),
            w.view(),
            tau.view(),
            coupling.view(),
            hessian.view_mut(),
        );
        hessian.mapv_inplace(|h| -h / self.total_weight);
        if let Some((prior, scale)) = self.prior_term() {
            prior.add_hessian(&self.param, theta, scale, hessian.view_mut());
        }
    }
}

/// The GDT objective as Newton sees it, counting the iterations whose Hessian was not positive
/// definite — where [`gendisc_optim::Newton`] regularises the step (a ridge `τ I`, or the
/// steepest-descent direction when no ridge helps) instead of taking the Newton step.
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
    fn hessian(&self, theta: ArrayView1<'_, f64>, mut hessian: ArrayViewMut2<'_, f64>) {
        self.objective.hessian(theta, hessian.view_mut());
        // The same test as Newton's first attempt: p is small, so one more factorisation
        // per iteration costs little next to the O(n p²) Hessian.
        if Cholesky::new(hessian.view(), "Hessian").is_err() {
            self.indefinite.set(self.indefinite.get() + 1);
        }
    }
}
