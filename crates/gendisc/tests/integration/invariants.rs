//! The same invariants for every estimator: a fit does not depend on the order of the rows,
//! a row of integer weight `m` is `m` copies of it, fitting twice gives the same bits, and the
//! models of continuous inputs are unchanged by an exact rescaling of them (by `2¹⁰`).
//!
//! "The same" is within `1e-8` on the probabilities for the closed-form fits and for Balls2's
//! EM (sums taken in another order round differently), and within `1e-6` for the fits by a
//! gradient-based solver, which then stop at another point within their gradient tolerance. A
//! fit that stops without converging (its model file's fit summary says so: GDT on a Balls2
//! mixture collapsing onto repeated rows has no maximiser) promises nothing about where it
//! stops, and is not compared. Two
//! estimators promise less, and say so in their documentation: the linear SVM (its dual
//! coordinate descent visits the rows in a seeded order, so a permutation moves its solution
//! within the tolerance `tol`) and Balls2 and GDT on Balls2 when started by k-means++ (a
//! seeded draw over the rows in order; the default principal split is order-free).
//!
//! Unpenalised logistic regression is not checked under rescaling: on separated rows (which
//! these small random sets often are) it has no estimate, and where it stops on its way to
//! infinity depends on the units of the gradient.

use gendisc::discriminative::logistic::LogisticSolver;
use gendisc::discriminative::LogisticRegression;
use gendisc::gdt::{Family, Gdt};
use gendisc::generative::{
    Balls1, Balls2, BernoulliNb, CategoricalNb, GaussianNb, Lda, MultinomialNb, Qda,
};
use gendisc::hybrid::Hybrid;
use gendisc::ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use gendisc::prelude::*;
use proptest::prelude::*;

/// Closed-form fits and EM.
const EXACT: f64 = 1e-8;
/// Fits by a gradient-based solver (logistic regression, the hybrid's θ, GDT).
const ITERATIVE: f64 = 1e-6;

#[derive(Debug, Clone)]
struct Data {
    x: Array2<f64>,
    y: Array1<usize>,
    /// Integer weights `1–3`.
    w: Array1<f64>,
    /// A permutation of the rows.
    order: Vec<usize>,
}

impl Data {
    fn permuted(&self, x: &Array2<f64>) -> (Array2<f64>, Array1<usize>, Array1<f64>) {
        (
            x.select(Axis(0), &self.order),
            self.y.select(Axis(0), &self.order),
            self.w.select(Axis(0), &self.order),
        )
    }

    /// Every row repeated as many times as its weight.
    fn expanded(&self, x: &Array2<f64>) -> (Array2<f64>, Array1<usize>) {
        let rows: Vec<usize> = (0..x.nrows())
            .flat_map(|i| std::iter::repeat_n(i, self.w[i] as usize))
            .collect();
        (x.select(Axis(0), &rows), self.y.select(Axis(0), &rows))
    }
}

fn data() -> impl Strategy<Value = Data> {
    (2usize..=3, 1usize..=3, 18usize..30).prop_flat_map(|(k, d, n)| {
        (
            prop::collection::vec(-1.0f64..1.0, n * d),
            prop::collection::vec(1u8..=3, n),
            Just(Vec::<usize>::from_iter(0..n)).prop_shuffle(),
        )
            .prop_map(move |(unit, w, order)| {
                let y = Array1::from_shape_fn(n, |i| i % k);
                let x = Array2::from_shape_fn((n, d), |(i, j)| {
                    unit[i * d + j] + 0.7 * y[i] as f64 * if j % 2 == 0 { 1.0 } else { -1.0 }
                });
                Data {
                    x,
                    y,
                    w: w.into_iter().map(f64::from).collect(),
                    order,
                }
            })
    })
}

fn close(
    name: &str,
    what: &str,
    tolerance: f64,
    a: &Array2<f64>,
    b: &Array2<f64>,
) -> Result<(), TestCaseError> {
    let gap = a
        .iter()
        .zip(b)
        .map(|(u, v)| (u - v).abs())
        .fold(0.0, f64::max);
    prop_assert!(
        gap <= tolerance,
        "{name}: {what} moves the probabilities by {gap:e}"
    );
    Ok(())
}

/// The invariants of one estimator on `x` (the data's rows, transformed for the estimator's
/// inputs); `rescalable` adds the rescaling check.
fn check<P>(
    name: &str,
    params: &P,
    data: &Data,
    x: &Array2<f64>,
    rescalable: bool,
    tolerance: f64,
) -> Result<(), TestCaseError>
where
    P: FitWeighted,
    P::Model: ConditionalModel + SavedModel,
{
    let proba = |x: ArrayView2<'_, f64>,
                 y: ArrayView1<'_, usize>,
                 w: Option<ArrayView1<'_, f64>>,
                 at: &Array2<f64>| {
        let model = match w {
            Some(w) => params.fit_weighted(x, y, w),
            None => params.fit(x, y),
        };
        let model = model.ok()?;
        let converged = model.fit_summary().is_none_or(|s| s.converged);
        Some((model.predict_proba(at.view()).ok()?, converged))
    };
    let y = data.y.view();
    let Some((base, converged)) = proba(x.view(), y, Some(data.w.view()), x) else {
        return Ok(()); // a fit that fails on these data fails the same way below, or is not ours to test
    };
    let (again, _) =
        proba(x.view(), y, Some(data.w.view()), x).expect("the same fit succeeds twice");
    prop_assert!(
        base.iter()
            .zip(&again)
            .all(|(a, b)| a.to_bits() == b.to_bits()),
        "{name}: fitting twice gives other bits"
    );
    if !converged {
        return Ok(());
    }
    let (px, py, pw) = data.permuted(x);
    if let Some(p) = proba(px.view(), py.view(), Some(pw.view()), x) {
        close(name, "permuting the rows", tolerance, &base, &p.0)?;
    } else {
        prop_assert!(false, "{name}: the permuted rows do not fit");
    }
    let (ex, ey) = data.expanded(x);
    if let Some(p) = proba(ex.view(), ey.view(), None, x) {
        close(name, "weight m against m copies", tolerance, &base, &p.0)?;
    } else {
        prop_assert!(false, "{name}: the expanded rows do not fit");
    }
    if rescalable {
        let scale = 1024.0;
        let sx = x.mapv(|v| v * scale);
        if let Some(p) = proba(sx.view(), y, Some(data.w.view()), &sx) {
            close(name, "rescaling the inputs by 2¹⁰", tolerance, &base, &p.0)?;
        } else {
            prop_assert!(false, "{name}: the rescaled rows do not fit");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn generative_models(data in data()) {
        let x = &data.x;
        check("Gaussian naive Bayes", &GaussianNb::params(), &data, x, true, EXACT)?;
        check("LDA", &Lda::params(), &data, x, true, EXACT)?;
        check("QDA", &Qda::params(), &data, x, true, EXACT)?;
        check("Balls1", &Balls1::params(), &data, x, true, EXACT)?;
        check("Balls2", &Balls2::params(), &data, x, true, EXACT)?;
        let binary = x.mapv(|v| f64::from(u8::from(v > 0.0)));
        check("Bernoulli naive Bayes", &BernoulliNb::params(), &data, &binary, false, EXACT)?;
        check("categorical naive Bayes", &CategoricalNb::params(), &data, &binary, false, EXACT)?;
        let counts = x.mapv(|v| (3.0 * (v + 1.5)).round());
        check("multinomial naive Bayes", &MultinomialNb::params(), &data, &counts, false, EXACT)?;
    }

    #[test]
    fn discriminative_and_hybrid_models(data in data()) {
        let x = &data.x;
        check("logistic regression, L2", &LogisticRegression::params().prior_variance(1.0), &data, x, false, ITERATIVE)?;
        check("logistic regression", &LogisticRegression::params().solver(LogisticSolver::Newton), &data, x, false, ITERATIVE)?;
        if data.y.iter().all(|&c| c < 2) {
            check("logistic regression, glm", &LogisticRegression::params().solver(LogisticSolver::GlmIrls), &data, x, false, ITERATIVE)?;
        }
        let regions: Vec<Vec<usize>> = (0..x.ncols()).map(|j| vec![j]).collect();
        check("hybrid of Gaussian naive Bayes", &Hybrid::params(GaussianNb::params()).regions(regions).prior_variance(1.0), &data, x, true, ITERATIVE)?;
    }

    #[test]
    fn generative_discriminative_trade_off(data in data()) {
        let x = &data.x;
        for family in [Family::Lda, Family::Qda, Family::Balls1, Family::Balls2, Family::SharedDiagonal] {
            check(&format!("GDT {family}"), &Gdt::params(family).lambda(0.5), &data, x, true, ITERATIVE)?;
        }
    }
}
