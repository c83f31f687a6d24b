//! The models of the crate behind one object-safe interface, so that the property and
//! bad-input suites can run every check on every model.

use gendisc_core::{ConditionalModel, FitWeighted, Generative, Result};
use gendisc_generative::{
    Balls1, Balls2, BernoulliNb, CategoricalNb, CovarianceShrinkage, GaussianNb, Lda,
    MultinomialNb, Qda, VarianceStructure,
};
use ndarray::{Array2, ArrayView1, ArrayView2};

/// A fitted model seen through both the generative and the conditional interface.
pub trait GenerativeClassifier: Generative + ConditionalModel {}
impl<T: Generative + ConditionalModel> GenerativeClassifier for T {}

pub type Fitted = Box<dyn GenerativeClassifier>;

/// How to fit one model: with or without sample weights.
pub type FitFn =
    fn(ArrayView2<'_, f64>, ArrayView1<'_, usize>, Option<ArrayView1<'_, f64>>) -> Result<Fitted>;

/// One model under test, with the map from generic real-valued data to its input domain.
pub struct Case {
    pub name: &'static str,
    pub fit: FitFn,
    /// Turns a real matrix into valid input for the model (binary, level codes, counts, …).
    pub domain: fn(&Array2<f64>) -> Array2<f64>,
}

fn fit_with<P>(
    params: P,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    w: Option<ArrayView1<'_, f64>>,
) -> Result<Fitted>
where
    P: FitWeighted,
    P::Model: GenerativeClassifier + 'static,
{
    let model = match w {
        Some(w) => params.fit_weighted(x, y, w)?,
        None => params.fit(x, y)?,
    };
    Ok(Box::new(model))
}

fn real(x: &Array2<f64>) -> Array2<f64> {
    x.clone()
}

fn binary(x: &Array2<f64>) -> Array2<f64> {
    x.mapv(|v| if v > 0.0 { 1.0 } else { 0.0 })
}

/// Three levels per feature.
pub const LEVELS: usize = 3;

fn levels(x: &Array2<f64>) -> Array2<f64> {
    x.mapv(|v| ((v.abs() * 1.7).floor() as usize % LEVELS) as f64)
}

fn counts(x: &Array2<f64>) -> Array2<f64> {
    x.mapv(|v| (v.abs() * 2.0).floor())
}

/// Every model of the crate, in a configuration that accepts small random datasets.
pub fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "GaussianNb (per class)",
            fit: |x, y, w| fit_with(GaussianNb::params(), x, y, w),
            domain: real,
        },
        Case {
            name: "GaussianNb (pooled)",
            fit: |x, y, w| {
                fit_with(
                    GaussianNb::params().variance(VarianceStructure::Pooled),
                    x,
                    y,
                    w,
                )
            },
            domain: real,
        },
        Case {
            name: "BernoulliNb",
            fit: |x, y, w| fit_with(BernoulliNb::params(), x, y, w),
            domain: binary,
        },
        Case {
            name: "CategoricalNb",
            fit: |x, y, w| {
                let levels = vec![LEVELS; x.ncols()];
                fit_with(CategoricalNb::params().n_levels(levels), x, y, w)
            },
            domain: levels,
        },
        Case {
            name: "MultinomialNb",
            fit: |x, y, w| fit_with(MultinomialNb::params(), x, y, w),
            domain: counts,
        },
        Case {
            name: "Lda",
            fit: |x, y, w| fit_with(Lda::params(), x, y, w),
            domain: real,
        },
        Case {
            name: "Qda",
            fit: |x, y, w| {
                fit_with(
                    Qda::params().regularization(CovarianceShrinkage::Identity(0.05)),
                    x,
                    y,
                    w,
                )
            },
            domain: real,
        },
        Case {
            name: "Balls1",
            fit: |x, y, w| fit_with(Balls1::params(), x, y, w),
            domain: real,
        },
        Case {
            name: "Balls2",
            fit: |x, y, w| fit_with(Balls2::params().max_iterations(25), x, y, w),
            domain: real,
        },
    ]
}

/// `|a − b| ≤ tol · max(1, |b|)` for every pair, `-∞` matching `-∞`.
pub fn close(a: &Array2<f64>, b: &Array2<f64>, tol: f64) -> bool {
    a.shape() == b.shape()
        && a.iter()
            .zip(b.iter())
            .all(|(x, y)| x == y || (x - y).abs() <= tol * y.abs().max(1.0))
}
