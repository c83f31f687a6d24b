//! Linear discriminant analysis by singular-value decomposition: scikit-learn's default
//! `LinearDiscriminantAnalysis(solver = "svd")`, which fits collinear and constant columns.
//!
//! [`Lda`](crate::Lda) is the generative model: a pooled maximum-likelihood covariance `Σ` that
//! must be invertible, and a density `p(x, y)`. When columns are collinear or constant (pixels
//! that are always 0), `Σ` is singular and there is no density; the *discriminant* still
//! exists in the subspace the classes span. This estimator computes it as scikit-learn does
//! (`_solve_svd`; Hastie, Tibshirani & Friedman 2009, §4.3.2–4.3.3), the right singular vectors
//! and values of each step from the eigen-decomposition of the (small, `d × d`) Gram matrix:
//!
//! 1. centre each row on its class mean, `x̃_i = x_i − μ_{y_i}`, and scale each column by its
//!    standard deviation `s_j` over the centred rows (1 for a column that is constant within
//!    every class);
//! 2. the SVD of `√(w_i / W) x̃_i / s` (the pooled maximum-likelihood covariance in those
//!    units) whitens it on its numerical support: singular values `≤ tol` are dropped, so the
//!    pooled covariance is inverted as a pseudo-inverse;
//! 3. the SVD of the weighted class means `√(W π_k / (K − 1)) (μ_k − x̄)` in the whitened space
//!    finds the (at most `K − 1`) discriminant directions, singular values `≤ tol · σ_1`
//!    dropped; `x̄ = Σ_k π_k μ_k`;
//! 4. in those `r` coordinates `z = Aᵀx` (`A = scalings`, `d × r`) the classes are spherical
//!    Gaussians of unit variance, and `log p(y = k | x) = η_k − log Σ_l exp η_l` with
//!    `η_k = −½ ‖Aᵀ(μ_k − x̄)‖² + log π_k + (μ_k − x̄)ᵀ A Aᵀ (x − x̄)`.
//!
//! The model is linear: it stores `η = B x + c` ([`LdaSvd::coefficients`]). Where `Σ` is
//! invertible (and its singular values clear the tolerance) its posteriors are those of
//! [`Lda`](crate::Lda).
//!
//! **scikit-learn.** With unit weights and the default priors (the class proportions), every
//! step is scikit-learn's, so `predict_proba` agrees with it to rounding; its `tol` is our
//! [`LdaSvdParams::tolerance`]. Sample weights (which scikit-learn's LDA does not take) weight
//! the means and the covariance. (scikit-learn before 1.9 divided the covariance by `n − K`;
//! the fixtures are from 1.9.1, which divides by `n`.)

use ndarray::{s, Array1, Array2, ArrayView1, ArrayView2, Axis};
use serde::{Deserialize, Serialize};

use gendisc_core::linalg::eigh;
use gendisc_core::model_file::invariants::{invalid, shape};
use gendisc_core::{
    argmax_rows, log_posterior_from_scores, Classifier, ConditionalModel, Error, ParamGuard,
    Result, SavedModel,
};

use crate::common::{check_n_classes, check_prediction, check_training, ClassPriors};
use crate::gaussian::check_means_and_classes;
use crate::unit::Unit;

/// Hyper-parameters of [`LdaSvd`], validated.
///
/// | parameter | default | meaning |
/// |---|---|---|
/// | `tolerance` | `1e-4` | singular values of the scaled within-class data at or below it, and of the class means at or below it times the largest, are treated as zero (scikit-learn's `tol`) |
/// | `priors` | [`ClassPriors::Empirical`] | class prior |
/// | `n_classes` | `max(y) + 1` | number of classes `K` |
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LdaSvdValidParams {
    tolerance: f64,
    priors: ClassPriors,
    n_classes: Option<usize>,
}

impl Default for LdaSvdValidParams {
    fn default() -> Self {
        Self {
            tolerance: 1e-4,
            priors: ClassPriors::Empirical,
            n_classes: None,
        }
    }
}

impl LdaSvdValidParams {
    /// The rank tolerance.
    pub fn tolerance(&self) -> f64 {
        self.tolerance
    }
    /// The class prior.
    pub fn priors(&self) -> &ClassPriors {
        &self.priors
    }
}

/// Builder for [`LdaSvdValidParams`]; see there for the table of parameters.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct LdaSvdParams(LdaSvdValidParams);

impl LdaSvdParams {
    /// The rank tolerance (default `1e-4`, scikit-learn's).
    pub fn tolerance(mut self, tolerance: f64) -> Self {
        self.0.tolerance = tolerance;
        self
    }
    /// The class prior (default empirical).
    pub fn priors(mut self, priors: ClassPriors) -> Self {
        self.0.priors = priors;
        self
    }
    /// The number of classes (default `max(y) + 1`, or the number of given priors).
    pub fn n_classes(mut self, n_classes: usize) -> Self {
        self.0.n_classes = Some(n_classes);
        self
    }
}

impl ParamGuard for LdaSvdParams {
    type Checked = LdaSvdValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        let tolerance = self.0.tolerance;
        if !(tolerance.is_finite() && tolerance >= 0.0) {
            return Err(Error::invalid_parameter(
                "tolerance",
                format!("must be finite and ≥ 0, got {tolerance}"),
            ));
        }
        self.0.priors.check()?;
        check_n_classes(self.0.n_classes)?;
        Ok(&self.0)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}

/// A fitted SVD linear discriminant analysis; see the [module documentation](self).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "LdaSvdParts", into = "LdaSvdParts")]
pub struct LdaSvd {
    parts: LdaSvdParts,
    /// `B`, `K × d`, and `c`, length `K`: derived from the parts ([`linear_scores`]), never
    /// stored, so a model file cannot hold scores that disagree with its means and directions.
    coefficients: Array2<f64>,
    intercepts: Array1<f64>,
}

/// The serialised form of [`LdaSvd`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LdaSvdParts {
    /// `μ_k`, `K × d`.
    means: Array2<f64>,
    log_prior: Array1<f64>,
    class_weight: Array1<f64>,
    /// `A`, `d × r`: the discriminant directions.
    scalings: Array2<f64>,
    /// The share of the between-class variance along each discriminant direction.
    explained_variance_ratio: Array1<f64>,
}

impl TryFrom<LdaSvdParts> for LdaSvd {
    type Error = Error;

    /// Checks the parts ([`LdaSvd::check_invariants`]) and derives the linear scores.
    fn try_from(parts: LdaSvdParts) -> Result<Self> {
        check_parts(&parts)?;
        let (coefficients, intercepts) = linear_scores(&parts);
        Ok(Self {
            parts,
            coefficients,
            intercepts,
        })
    }
}

impl PartialEq for LdaSvd {
    fn eq(&self, other: &Self) -> bool {
        self.parts == other.parts
    }
}

impl From<LdaSvd> for LdaSvdParts {
    fn from(model: LdaSvd) -> Self {
        model.parts
    }
}

impl SavedModel for LdaSvd {
    const KIND: &'static str = "lda-svd";

    /// `means` is a finite `K × d` matrix and the class priors and weights are those of `K`
    /// classes; `scalings` is a finite `d × r` matrix with `r ≤ min(d, K − 1)`, and each
    /// explained variance ratio lies in `[0, 1]`. (The linear scores are derived from these.)
    fn check_invariants(&self) -> Result<()> {
        check_parts(&self.parts)
    }
}

/// The invariants of [`LdaSvd::check_invariants`].
fn check_parts(p: &LdaSvdParts) -> Result<()> {
    let kind = LdaSvd::KIND;
    check_means_and_classes(
        kind,
        Unit::default(),
        &p.means,
        &p.log_prior,
        &p.class_weight,
    )?;
    let (k, d) = p.means.dim();
    let r = p.scalings.ncols();
    shape(kind, "scalings", &p.scalings, &[d, r])?;
    if r > d.min(k.saturating_sub(1)) {
        return Err(invalid(
            kind,
            "scalings",
            format!("{r} directions, more than min(d, K − 1) = {}", d.min(k - 1)),
        ));
    }
    if let Some(v) = p
        .explained_variance_ratio
        .iter()
        .find(|v| !(0.0..=1.0).contains(*v))
    {
        return Err(invalid(
            kind,
            "explained_variance_ratio",
            format!("{v} is not in [0, 1]"),
        ));
    }
    if !p.scalings.iter().all(|v| v.is_finite()) {
        return Err(invalid(kind, "scalings", "a value is not finite"));
    }
    Ok(())
}

impl LdaSvd {
    /// The default hyper-parameters, to be adjusted and fitted.
    pub fn params() -> LdaSvdParams {
        LdaSvdParams::default()
    }

    /// Class means `μ_k`, `K × d`.
    pub fn means(&self) -> ArrayView2<'_, f64> {
        self.parts.means.view()
    }

    /// The class prior `π`.
    pub fn class_prior(&self) -> Array1<f64> {
        self.parts.log_prior.mapv(f64::exp)
    }

    /// The discriminant directions `A` (`d × r`, scikit-learn's `scalings_`): `Aᵀx` are the
    /// coordinates in which the classes are spherical with unit variance.
    pub fn scalings(&self) -> ArrayView2<'_, f64> {
        self.parts.scalings.view()
    }

    /// The share of the between-class variance along each discriminant direction
    /// (scikit-learn's `explained_variance_ratio_`).
    pub fn explained_variance_ratio(&self) -> ArrayView1<'_, f64> {
        self.parts.explained_variance_ratio.view()
    }

    /// The linear scores `η = B x + c` behind the posterior: `(B, c)`, `K × d` and `K`. For two
    /// classes, scikit-learn's `coef_` and `intercept_` are the differences of the two rows.
    pub fn coefficients(&self) -> (ArrayView2<'_, f64>, ArrayView1<'_, f64>) {
        (self.coefficients.view(), self.intercepts.view())
    }

    fn scores(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        check_prediction(x, self.n_features())?;
        let mut scores = x.dot(&self.coefficients.t());
        scores += &self.intercepts.view().insert_axis(Axis(0));
        Ok(scores)
    }

    fn fit_impl(
        p: &LdaSvdValidParams,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<Self> {
        let summary = check_training("LDA (SVD)", x, y, w, p.n_classes, &p.priors)?;
        let (n_classes, d) = (summary.n_classes, x.ncols());
        let total = summary.total_weight();
        let weight = |i: usize| w.map_or(1.0, |w| w[i]);

        // Class means.
        let mut means = Array2::<f64>::zeros((n_classes, d));
        for (i, row) in x.outer_iter().enumerate() {
            means.row_mut(y[i]).scaled_add(weight(i), &row);
        }
        for (k, mut mean) in means.outer_iter_mut().enumerate() {
            mean /= summary.class_weight[k];
        }
        let log_prior = p.priors.log_prior(&summary.class_weight)?;
        let prior = log_prior.mapv(f64::exp);

        // 1. Within-class centring and the columns' standard deviations (scaled by their
        //    largest entry first, so that the squares of huge data do not overflow).
        let mut centred = x.to_owned();
        for (i, mut row) in centred.outer_iter_mut().enumerate() {
            row -= &means.row(y[i]);
        }
        let scales: Array1<f64> = centred
            .columns()
            .into_iter()
            .map(|column| {
                let largest = column.fold(0.0f64, |m, v| m.max(v.abs()));
                if largest == 0.0 {
                    return 1.0;
                }
                let squares: f64 = column
                    .iter()
                    .enumerate()
                    .map(|(i, v)| weight(i) * (v / largest).powi(2))
                    .sum();
                let std = largest * (squares / total).sqrt();
                if std > 0.0 {
                    std
                } else {
                    1.0
                }
            })
            .collect();

        // 2. The within-class covariance whitened on its numerical support.
        for (i, mut row) in centred.outer_iter_mut().enumerate() {
            let factor = (weight(i) / total).sqrt();
            row.zip_mut_with(&scales, |v, s| *v = factor * *v / s);
        }
        let within = right_singular(centred.view())?;
        let rank = within
            .singular_values
            .iter()
            .filter(|&&v| v > p.tolerance)
            .count();
        // A₁ = (V_r / s) / σ_r, d × rank.
        let mut whitening = within.vectors.slice(s![.., ..rank]).to_owned();
        for (j, mut row) in whitening.outer_iter_mut().enumerate() {
            row.zip_mut_with(&within.singular_values.slice(s![..rank]), |a, sigma| {
                *a /= scales[j] * sigma
            });
        }

        // 3. The between-class directions in the whitened space.
        let between_factor = if n_classes > 1 {
            1.0 / (n_classes - 1) as f64
        } else {
            1.0
        };
        let mut weighted_means = offsets(&means, &prior);
        for (k, mut row) in weighted_means.outer_iter_mut().enumerate() {
            row *= (total * prior[k] * between_factor).sqrt();
        }
        let projected = weighted_means.dot(&whitening);
        let (scalings, explained_variance_ratio) = if projected.is_empty() {
            (Array2::zeros((d, 0)), Array1::zeros(0))
        } else {
            let between = right_singular(projected.view())?;
            let sigma = &between.singular_values;
            let total_variance: f64 = sigma.iter().map(|v| v * v).sum();
            let r = sigma
                .iter()
                .filter(|&&v| v > p.tolerance * sigma[0])
                .count();
            let components = d.min(n_classes - 1).min(sigma.len());
            let ratio = if total_variance > 0.0 {
                sigma
                    .slice(s![..components])
                    .mapv(|v| v * v / total_variance)
            } else {
                Array1::zeros(components)
            };
            (whitening.dot(&between.vectors.slice(s![.., ..r])), ratio)
        };

        // 4. The linear scores, derived in `try_from`.
        Self::try_from(LdaSvdParts {
            means,
            log_prior,
            class_weight: Array1::from(summary.class_weight),
            scalings,
            explained_variance_ratio,
        })
    }
}

/// `μ_k − x̄` for every class, `x̄ = Σ_k π_k μ_k`.
fn offsets(means: &Array2<f64>, prior: &Array1<f64>) -> Array2<f64> {
    means - &prior.dot(means).insert_axis(Axis(0))
}

/// Step 4 of the module documentation: `B = M A Aᵀ` and
/// `c_k = −½ ‖Aᵀ(μ_k − x̄)‖² + log π_k − B_k · x̄`, with `M` the rows `μ_k − x̄`.
fn linear_scores(p: &LdaSvdParts) -> (Array2<f64>, Array1<f64>) {
    let prior = p.log_prior.mapv(f64::exp);
    let centre = prior.dot(&p.means);
    let projected_means = offsets(&p.means, &prior).dot(&p.scalings);
    let coefficients = projected_means.dot(&p.scalings.t());
    let intercepts = Array1::from_shape_fn(p.means.nrows(), |k| {
        -0.5 * projected_means.row(k).dot(&projected_means.row(k)) + p.log_prior[k]
            - coefficients.row(k).dot(&centre)
    });
    (coefficients, intercepts)
}

/// The singular values of a matrix `M` (descending) and its right singular vectors (columns).
struct RightSingular {
    singular_values: Array1<f64>,
    vectors: Array2<f64>,
}

/// `M`'s singular values and right singular vectors from the eigen-decomposition of `MᵀM`
/// (`σ_i = √λ_i`). Squaring costs precision only for singular values below about `1e-8 σ_1`,
/// far under the rank tolerances that decide which ones count (`1e-4` on unit-variance columns,
/// `1e-4 σ_1`); and it avoids linfa-linalg 0.2's SVD, which returned a wrong largest singular
/// value (2.913 for 2.886) for a 3 × 6 matrix of rank 2 that differs from one it got right only
/// by the signs of two columns.
fn right_singular(m: ArrayView2<'_, f64>) -> Result<RightSingular> {
    let gram = m.t().dot(&m);
    let eigen = eigh(gram.view())?;
    let n = eigen.eigenvalues.len();
    // Ascending eigenvalues, so the columns are read from the last.
    let singular_values = (0..n)
        .map(|i| eigen.eigenvalues[n - 1 - i].max(0.0).sqrt())
        .collect();
    let vectors = Array2::from_shape_fn((n, n), |(j, i)| eigen.eigenvectors[[j, n - 1 - i]]);
    Ok(RightSingular {
        singular_values,
        vectors,
    })
}

crate::common::impl_fit!(LdaSvdValidParams => LdaSvd, fit_impl);

impl Classifier for LdaSvd {
    fn n_features(&self) -> usize {
        self.parts.means.ncols()
    }

    fn n_classes(&self) -> usize {
        self.parts.means.nrows()
    }

    fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Array1<usize>> {
        argmax_rows(self.scores(x)?.view(), "LDA (SVD) scores")
    }
}

impl ConditionalModel for LdaSvd {
    fn predict_log_proba(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        log_posterior_from_scores(self.scores(x)?, "LDA (SVD) posterior")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Lda;
    use gendisc_core::{Fit, FitWeighted};
    use ndarray::{array, concatenate};

    fn data() -> (Array2<f64>, Array1<usize>) {
        let x = array![
            [1.0, 2.0],
            [2.0, 2.5],
            [1.5, 0.5],
            [3.0, 4.0],
            [4.0, 3.5],
            [3.5, 5.0],
            [0.0, 6.0],
            [0.5, 7.0],
            [1.0, 6.5],
        ];
        (x, array![0, 0, 0, 1, 1, 1, 2, 2, 2])
    }

    #[test]
    fn full_rank_data_give_the_posteriors_of_lda() {
        let (x, y) = data();
        let svd_model = LdaSvd::params()
            .check()
            .unwrap()
            .fit(x.view(), y.view())
            .unwrap();
        let lda = Lda::params()
            .check()
            .unwrap()
            .fit(x.view(), y.view())
            .unwrap();
        let expected = lda.predict_log_proba(x.view()).unwrap();
        let got = svd_model.predict_log_proba(x.view()).unwrap();
        for (a, b) in got.iter().zip(&expected) {
            assert!((a - b).abs() < 1e-10, "{a} vs {b}");
        }
        assert_eq!(svd_model.scalings().ncols(), 2);
        let ratio = svd_model.explained_variance_ratio();
        assert!((ratio.sum() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn constant_and_duplicated_columns_fit_and_change_nothing() {
        let (x, y) = data();
        let base = LdaSvd::params()
            .check()
            .unwrap()
            .fit(x.view(), y.view())
            .unwrap();
        let constant = Array2::from_elem((x.nrows(), 1), 7.0);
        let wide = concatenate![Axis(1), x, constant, x.column(0).insert_axis(Axis(1))];
        // LDA proper cannot fit this: its pooled covariance is singular.
        assert!(Lda::params()
            .check()
            .unwrap()
            .fit(wide.view(), y.view())
            .is_err());
        let model = LdaSvd::params()
            .check()
            .unwrap()
            .fit(wide.view(), y.view())
            .unwrap();
        let a = base.predict_log_proba(x.view()).unwrap();
        let b = model.predict_log_proba(wide.view()).unwrap();
        for (u, v) in a.iter().zip(&b) {
            assert!((u - v).abs() < 1e-9, "{u} vs {v}");
        }
    }

    #[test]
    fn fewer_rows_than_columns_fit_alike_in_any_row_order_and_as_weights() {
        // scikit-learn's sample-weight check: 15 rows of 30 columns, weights 0–4; a fit must not
        // depend on the order of the rows, and a weight m must be m copies of the row.
        let (n, d) = (15, 30);
        let x = Array2::from_shape_fn((n, d), |(i, j)| ((i * d + j) as f64 * 0.618).fract());
        let y = Array1::from_shape_fn(n, |i| [0, 1, 2, 2, 1, 1, 2, 2, 1, 2, 0, 0, 1, 1, 0][i]);
        let w = Array1::from_shape_fn(n, |i| {
            [3., 3., 4., 0., 0., 2., 4., 3., 0., 3., 0., 1., 0., 4., 1.][i]
        });
        let params = LdaSvd::params().check().unwrap();
        let reference = params.fit_weighted(x.view(), y.view(), w.view()).unwrap();
        let expected = reference.predict_log_proba(x.view()).unwrap();
        let order: Vec<usize> = (0..n).map(|i| (i * 7 + 3) % n).collect();
        let shuffled = params
            .fit_weighted(
                x.select(Axis(0), &order).view(),
                y.select(Axis(0), &order).view(),
                w.select(Axis(0), &order).view(),
            )
            .unwrap();
        let repeated_rows: Vec<usize> = (0..n)
            .flat_map(|i| std::iter::repeat_n(i, w[i] as usize))
            .collect();
        let repeated = params
            .fit(
                x.select(Axis(0), &repeated_rows).view(),
                y.select(Axis(0), &repeated_rows).view(),
            )
            .unwrap();
        for model in [&shuffled, &repeated] {
            let got = model.predict_log_proba(x.view()).unwrap();
            for (a, b) in got.iter().zip(&expected) {
                assert!((a - b).abs() < 1e-9, "{a} vs {b}");
            }
        }
    }

    #[test]
    fn bad_settings_and_files_are_errors() {
        assert!(LdaSvd::params().tolerance(-1.0).check().is_err());
        let (x, y) = data();
        let model = LdaSvd::params()
            .check()
            .unwrap()
            .fit(x.view(), y.view())
            .unwrap();
        let json = serde_json::to_string(&model).unwrap();
        let back: LdaSvd = serde_json::from_str(&json).unwrap();
        assert_eq!(back, model);
        let mut broken: serde_json::Value = serde_json::from_str(&json).unwrap();
        broken["explained_variance_ratio"]["data"][0] = 2.0.into();
        let error = serde_json::from_value::<LdaSvd>(broken).unwrap_err();
        assert!(
            error.to_string().contains("explained_variance_ratio"),
            "{error}"
        );
        assert!(model.predict(Array2::zeros((1, 3)).view()).is_err());
    }
}
