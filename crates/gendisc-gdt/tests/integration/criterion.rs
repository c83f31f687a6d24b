//! The first-order condition of a fit, checked from the public objective.

use gendisc_core::ParamGuard;
use gendisc_gdt::{objective_and_gradient, Gdt, GdtParams};
use ndarray::{Array1, Array2};

/// `(‖∇f(θ̂)‖, tol · max(1, |f(θ̂)|))`: the gradient norm at `model`'s `θ` of the objective
/// `params` define on the training rows `x` as given (the objective takes them to the model's
/// unit as the fit did, and shrinkage toward the identity of their units), and the bound of
/// the criterion the model reports. Also checks that the reported objective is that objective
/// at `θ̂`.
pub fn gradient_norm_and_bound(
    model: &Gdt,
    params: &GdtParams,
    x: &Array2<f64>,
    y: &Array1<usize>,
) -> (f64, f64) {
    let params = params.clone().check().unwrap();
    let (value, gradient) =
        objective_and_gradient(&params, model.theta(), x.view(), y.view(), None).unwrap();
    let r = model.report();
    assert!(
        (value - r.objective).abs() <= 1e-12 * value.abs().max(1.0),
        "reported objective {} against {value}",
        r.objective
    );
    let norm = gradient.dot(&gradient).sqrt();
    (norm, r.gradient_tolerance.unwrap() * value.abs().max(1.0))
}
