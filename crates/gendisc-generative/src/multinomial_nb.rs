//! Multinomial naive Bayes on word counts (Raina, Shen, Ng & McCallum 2003, §2).
//!
//! A document is a row of counts `x_l` over a vocabulary of `V` words. Each word of a class-`k`
//! document is drawn independently from `θ_k·`, so (eq. (4), the length `N` being independent
//! of the class and left out)
//!
//! ```text
//! log p(x | y = k) = Σ_l x_l log θ_kl
//! θ_kl = (c_kl + α) / (Σ_l' c_kl' + α V),      c_kl = Σ_{i: y_i = k} w_i x_il        (eq. (3))
//! ```
//!
//! with `α = 1` (add-one smoothing, the paper's choice and the default). This is the
//! probability of the word *sequence*: the multinomial coefficient is omitted, as in the paper
//! and in scikit-learn's `MultinomialNB` (it does not depend on the class, so posteriors are
//! unaffected).
//!
//! ## Regions
//!
//! When a document is split into regions `x = x¹ + x² + …` (Raina et al.'s subject and body),
//! the model is fitted on the total counts and `log p(x^r | y)` is the same formula applied to
//! the region's own count matrix over the same vocabulary, eqs. (5)–(6):
//! [`MultinomialNb::class_log_likelihood_sparse`] on each region's matrix. The regions' values
//! add up to the whole document's.
//!
//! Counts may be non-integer (e.g. length-normalised), but must be finite and non-negative.

use ndarray::{Array1, Array2, Array3, ArrayView1, ArrayView2, Axis};
use serde::{Deserialize, Serialize};
use sprs::{CsMat, CsMatView};

use gendisc_core::model_file::invariants::{finite, invalid, shape};
use gendisc_core::{
    argmax_rows, log_posterior_from_joint, Classifier, Error, FactorisedGenerative, Generative,
    ParamGuard, Result, SavedModel,
};

use crate::common::{
    check_alpha, check_n_classes, check_prediction, check_region, check_targets, check_training,
    ClassPriors,
};
use crate::leave_one_out::{only_row_of_class, weight_of, LeaveOneOutFit, LeaveOneOutPrior};
use crate::model_file::{check_classes, check_log_distribution_rows, check_size, log_table};

/// Hyper-parameters of [`MultinomialNb`], validated.
///
/// | parameter | default | meaning |
/// |---|---|---|
/// | `alpha` | `1.0` | pseudo-count `α ≥ 0` added to every word of every class (eq. (3): `α = 1`) |
/// | `priors` | [`ClassPriors::Empirical`] | class prior (eq. (2)) |
/// | `n_classes` | `max(y) + 1` | number of classes `K` |
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MultinomialNbValidParams {
    alpha: f64,
    priors: ClassPriors,
    n_classes: Option<usize>,
}

impl MultinomialNbValidParams {
    /// The pseudo-count `α`.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
    /// The class prior.
    pub fn priors(&self) -> &ClassPriors {
        &self.priors
    }
    /// The explicit number of classes, if set.
    pub fn n_classes(&self) -> Option<usize> {
        self.n_classes
    }

    /// Fits on sparse counts (rows = documents). CSR is expected; a CSC matrix is converted
    /// first (one copy).
    pub fn fit_sparse(
        &self,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
    ) -> Result<MultinomialNb> {
        MultinomialNb::fit_sparse_impl(self, x, y, None)
    }

    /// Fits on sparse counts with sample weights.
    pub fn fit_sparse_weighted(
        &self,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: ArrayView1<'_, f64>,
    ) -> Result<MultinomialNb> {
        MultinomialNb::fit_sparse_impl(self, x, y, Some(sample_weight))
    }

    /// Fits on documents given as `R` region count matrices over one vocabulary (rows =
    /// documents, the same shape for every region), and computes for every training document
    /// `i`, region `r` and class `k` the leave-one-out log-likelihood `log p₋ᵢ(x_i^r | y = k)`
    /// and log prior `log p₋ᵢ(y = k)` (Raina et al. eq. (11) and footnote 5).
    ///
    /// The model is fitted on the documents' total counts `x = Σ_r x^r` (eqs. (3), (5)–(6)).
    /// Removing document `i` of class `c` and weight `w` only changes class `c`:
    /// `c′_cl = c_cl − w x_il` and `T′_c = T_c − w n_i`, with `n_i = Σ_l x_il`, so that
    ///
    /// ```text
    /// log p₋ᵢ(x_i^r | y = c) = Σ_l x_il^r log(c′_cl + α) − n_i^r log(T′_c + α V)
    /// ```
    ///
    /// costs `O(nnz)` per document: one pass to fit, one pass for every document's values —
    /// never `m` refits. The vocabulary (the `V` columns) is the full fit's; a count that only
    /// document `i` contributed to becomes exactly zero, as in a refit.
    ///
    /// Fails on everything the sparse fit fails on; when the regions differ in shape; and when
    /// removing a document leaves a class without documents ([`Error::EmptyClass`]) or, with
    /// `α = 0`, without words ([`Error::InvalidParameter`]); both name the document.
    pub fn fit_leave_one_out_sparse(
        &self,
        regions: &[CsMatView<'_, f64>],
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Result<LeaveOneOutFit<MultinomialNb>> {
        let total = sum_regions_sparse(regions)?;
        let model = match sample_weight {
            Some(w) => self.fit_sparse_weighted(total.view(), y, w)?,
            None => self.fit_sparse(total.view(), y)?,
        };
        let csr: Vec<CsMat<f64>> = regions.iter().map(|r| r.to_csr()).collect();
        for r in &csr {
            check_counts_sparse(r.view())?;
        }
        let downdate = CountDowndate::new(&model, self, total.view(), y, sample_weight);
        let (n, n_classes) = (total.rows(), model.n_classes());
        let mut region_log_likelihood = Array3::zeros((n, csr.len(), n_classes));
        let mut log_prior = Array2::zeros((n, n_classes));
        let full_log_prior = model.log_prior.clone();
        let prior = LeaveOneOutPrior::new(
            &self.priors,
            model.class_weight.as_slice().expect("contiguous"),
            full_log_prior.view(),
        );
        // The row's total counts, scattered into a dense vector and cleared after use.
        let mut row_total = vec![0.0; model.n_features()];
        for (i, doc) in total.outer_iterator().enumerate() {
            let (c, w) = (y[i], weight_of(sample_weight, i));
            for (l, &v) in doc.iter() {
                row_total[l] = v;
            }
            let n_i: f64 = doc.data().iter().sum();
            for (r, region) in csr.iter().enumerate() {
                let row = region.outer_view(i).expect("row in range");
                let mut out = region_log_likelihood.slice_mut(ndarray::s![i, r, ..]);
                for (l, &v) in row.iter() {
                    if v != 0.0 {
                        out.scaled_add(v, &model.word_log_prob.row(l));
                    }
                }
                if w > 0.0 {
                    out[c] = downdate.class_log_likelihood(
                        i,
                        c,
                        w,
                        n_i,
                        row.iter().map(|(l, &v)| (l, v, row_total[l])),
                    )?;
                }
            }
            if w > 0.0 {
                downdate.check_removable(i, c, w, n_i)?;
            }
            for (l, _) in doc.iter() {
                row_total[l] = 0.0;
            }
            prior.write(c, w, log_prior.row_mut(i));
        }
        Ok(LeaveOneOutFit {
            model,
            region_log_likelihood,
            log_prior,
        })
    }
}

/// `Σ_r x^r` in CSR: the whole document's counts from its regions' count matrices (a subject
/// and a body over one vocabulary, say).
///
/// Errors: [`Error::InvalidParameter`] (`regions`) for no region, [`Error::ShapeMismatch`] for
/// regions of different shapes.
pub fn sum_regions_sparse(regions: &[CsMatView<'_, f64>]) -> Result<CsMat<f64>> {
    let Some(first) = regions.first() else {
        return Err(Error::invalid_parameter(
            "regions",
            "at least one region count matrix is needed",
        ));
    };
    let mut total: CsMat<f64> = first.to_csr();
    for (r, region) in regions.iter().enumerate().skip(1) {
        if region.shape() != first.shape() {
            return Err(Error::shape_mismatch(
                format!(
                    "shape of region {r} vs region 0 ({} × {}) (rows × columns)",
                    first.rows(),
                    first.cols()
                ),
                first.rows() * first.cols(),
                region.rows() * region.cols(),
            ));
        }
        total = &total + &region.to_csr();
    }
    Ok(total)
}

/// The count statistics of a multinomial naive Bayes fit, and the class-`c` log-likelihoods of
/// the model refitted without one document (see
/// [`MultinomialNbValidParams::fit_leave_one_out_sparse`]).
pub(crate) struct CountDowndate<'m> {
    model: &'m MultinomialNb,
    alpha: f64,
    /// `α V`.
    alpha_v: f64,
    /// `T_k = Σ_l c_kl`.
    class_tokens: Vec<f64>,
    /// Documents of positive weight behind each `c_lk` (`V × K`), so that a count only one
    /// document made becomes exactly zero without it.
    rows_behind: Array2<u32>,
    /// Documents of positive weight with at least one word, per class.
    rows_with_tokens: Vec<usize>,
    /// Documents of positive weight per class.
    class_rows: Vec<usize>,
}

impl<'m> CountDowndate<'m> {
    /// The statistics from the fitted model and the (total) counts it was fitted on.
    pub(crate) fn new(
        model: &'m MultinomialNb,
        params: &MultinomialNbValidParams,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: Option<ArrayView1<'_, f64>>,
    ) -> Self {
        let n_classes = model.n_classes();
        let mut rows_behind = Array2::zeros(model.word_count.raw_dim());
        let mut rows_with_tokens = vec![0; n_classes];
        let mut class_rows = vec![0; n_classes];
        for (i, doc) in x.outer_iterator().enumerate() {
            if weight_of(sample_weight, i) <= 0.0 {
                continue;
            }
            let k = y[i];
            class_rows[k] += 1;
            let mut any = false;
            for (l, &v) in doc.iter() {
                if v != 0.0 {
                    rows_behind[[l, k]] += 1;
                    any = true;
                }
            }
            rows_with_tokens[k] += usize::from(any);
        }
        Self {
            model,
            alpha: params.alpha,
            alpha_v: params.alpha * model.n_features() as f64,
            class_tokens: model.word_count.sum_axis(Axis(0)).to_vec(),
            rows_behind,
            rows_with_tokens,
            class_rows,
        }
    }

    /// Errors when document `i` (class `c`, weight `w > 0`, `n_i` tokens) cannot be removed:
    /// it is its class's only document, or (`α = 0`) its class has no word without it.
    pub(crate) fn check_removable(&self, i: usize, c: usize, w: f64, n_i: f64) -> Result<()> {
        if self.class_rows[c] == 1 {
            return Err(only_row_of_class(i, c));
        }
        if self.alpha == 0.0 && self.remaining_tokens(c, w, n_i) <= 0.0 {
            return Err(Error::invalid_parameter(
                "alpha",
                format!(
                    "leave-one-out without row {i}: class {c} has no word left, so α = 0 leaves                      its word distribution undefined"
                ),
            ));
        }
        Ok(())
    }

    fn remaining_tokens(&self, c: usize, w: f64, n_i: f64) -> f64 {
        if n_i > 0.0 && self.rows_with_tokens[c] == 1 {
            0.0
        } else {
            self.class_tokens[c] - w * n_i
        }
    }

    /// `Σ_l x_il^S log(c′_cl + α) − n_i^S log(T′_c + α V)` for document `i` of class `c` and
    /// weight `w > 0`, from the entries `(l, x_il^S, x_il)` of the region `S` (its counts and
    /// the document's total counts).
    pub(crate) fn class_log_likelihood(
        &self,
        i: usize,
        c: usize,
        w: f64,
        n_i: f64,
        entries: impl Iterator<Item = (usize, f64, f64)>,
    ) -> Result<f64> {
        self.check_removable(i, c, w, n_i)?;
        let log_denominator = (self.remaining_tokens(c, w, n_i) + self.alpha_v).ln();
        let mut sum = 0.0;
        let mut region_tokens = 0.0;
        for (l, x_region, x_total) in entries {
            if x_region == 0.0 {
                continue;
            }
            let count = if self.rows_behind[[l, c]] == 1 {
                0.0
            } else {
                self.model.word_count[[l, c]] - w * x_total
            };
            sum += x_region * (count + self.alpha).ln();
            region_tokens += x_region;
        }
        Ok(sum - region_tokens * log_denominator)
    }
}

/// Builder for [`MultinomialNbValidParams`]; see there for the table of parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MultinomialNbParams(MultinomialNbValidParams);

impl Default for MultinomialNbParams {
    fn default() -> Self {
        Self(MultinomialNbValidParams {
            alpha: 1.0,
            priors: ClassPriors::Empirical,
            n_classes: None,
        })
    }
}

impl MultinomialNbParams {
    /// The pseudo-count `α` (default 1, add-one smoothing); must be finite and non-negative.
    pub fn alpha(mut self, alpha: f64) -> Self {
        self.0.alpha = alpha;
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

    /// Validates the parameters and fits on sparse counts; see
    /// [`MultinomialNbValidParams::fit_sparse`].
    pub fn fit_sparse(
        &self,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
    ) -> Result<MultinomialNb> {
        self.check_ref()?.fit_sparse(x, y)
    }

    /// Validates the parameters and fits on sparse counts with sample weights.
    pub fn fit_sparse_weighted(
        &self,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
        sample_weight: ArrayView1<'_, f64>,
    ) -> Result<MultinomialNb> {
        self.check_ref()?.fit_sparse_weighted(x, y, sample_weight)
    }
}

impl ParamGuard for MultinomialNbParams {
    type Checked = MultinomialNbValidParams;

    fn check_ref(&self) -> Result<&Self::Checked> {
        check_alpha(self.0.alpha)?;
        self.0.priors.check()?;
        check_n_classes(self.0.n_classes)?;
        Ok(&self.0)
    }

    fn check(self) -> Result<Self::Checked> {
        self.check_ref()?;
        Ok(self.0)
    }
}

/// A fitted multinomial naive Bayes model; see the [module documentation](self).
///
/// Dense input goes through the shared traits ([`Generative`],
/// [`ConditionalModel`](gendisc_core::ConditionalModel), [`FactorisedGenerative`] for a subset
/// of words); sparse CSR input through the `*_sparse` methods.
///
/// ```
/// use gendisc_generative::MultinomialNb;
/// use ndarray::array;
/// use sprs::TriMat;
///
/// // Two documents per class over a vocabulary of three words.
/// let mut t = TriMat::new((4, 3));
/// for &(i, j, c) in &[(0, 0, 2.0), (0, 1, 1.0), (1, 0, 3.0), (2, 2, 4.0), (3, 1, 1.0), (3, 2, 2.0)] {
///     t.add_triplet(i, j, c);
/// }
/// let x = t.to_csr();
/// let y = array![0, 0, 1, 1];
/// let model = MultinomialNb::params().fit_sparse(x.view(), y.view()).unwrap();
/// // θ_00 = (5 + 1) / (6 + 3), eq. (3).
/// assert!((model.feature_log_prob()[[0, 0]] - (6.0f64 / 9.0).ln()).abs() < 1e-15);
/// assert_eq!(model.predict_sparse(x.view()).unwrap().to_vec(), vec![0, 0, 1, 1]);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultinomialNb {
    /// `log θ_kl` stored word-major (`V × K`) so that a document's nonzeros read contiguous rows.
    #[serde(deserialize_with = "log_table::deserialize")]
    word_log_prob: Array2<f64>,
    log_prior: Array1<f64>,
    class_weight: Array1<f64>,
    /// `c_kl`, the weighted word counts per class, `K × V`-transposed like `word_log_prob`.
    word_count: Array2<f64>,
}

impl MultinomialNb {
    /// The default hyper-parameters, to be adjusted and fitted.
    pub fn params() -> MultinomialNbParams {
        MultinomialNbParams::default()
    }

    /// `log θ_kl`, `K × V`.
    pub fn feature_log_prob(&self) -> ArrayView2<'_, f64> {
        self.word_log_prob.t()
    }

    /// The weighted word counts `c_kl` of each class, `K × V`.
    pub fn feature_count(&self) -> ArrayView2<'_, f64> {
        self.word_count.t()
    }

    /// Class priors `p(y = k)`.
    pub fn class_prior(&self) -> Array1<f64> {
        self.log_prior.mapv(f64::exp)
    }

    /// Weighted class totals `W_k` (documents) seen in training.
    pub fn class_weight(&self) -> ArrayView1<'_, f64> {
        self.class_weight.view()
    }

    /// `log p(x_i | y = k) = Σ_l x_il log θ_kl` for sparse counts, `n × K`. Applied to the
    /// count matrix of one region (same vocabulary), this is `log p(x_i^r | y = k)`, Raina et
    /// al. eqs. (5)–(6).
    pub fn class_log_likelihood_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array2<f64>> {
        if x.cols() != self.n_features() {
            return Err(Error::shape_mismatch(
                "columns of x vs words of the fitted model",
                self.n_features(),
                x.cols(),
            ));
        }
        with_csr(x, |x| {
            check_counts_sparse(x)?;
            let mut out = Array2::zeros((x.rows(), self.n_classes()));
            for (doc, mut out_row) in x.outer_iterator().zip(out.axis_iter_mut(Axis(0))) {
                for (l, &c) in doc.iter() {
                    out_row.scaled_add(c, &self.word_log_prob.row(l));
                }
            }
            Ok(out)
        })
    }

    /// `log p(x_i, y = k)` for sparse counts, `n × K`.
    pub fn log_joint_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array2<f64>> {
        let mut joint = self.class_log_likelihood_sparse(x)?;
        joint += &self.log_prior.view().insert_axis(Axis(0));
        Ok(joint)
    }

    /// `log p(y = k | x_i)` for sparse counts, by Bayes' rule; rows log-sum-exp to 0.
    pub fn predict_log_proba_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array2<f64>> {
        log_posterior_from_joint(self.log_joint_sparse(x)?)
    }

    /// `p(y = k | x_i)` for sparse counts; rows sum to 1.
    pub fn predict_proba_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array2<f64>> {
        Ok(self.predict_log_proba_sparse(x)?.mapv_into(f64::exp))
    }

    /// The most probable class of each sparse row, ties to the lowest class.
    pub fn predict_sparse(&self, x: CsMatView<'_, f64>) -> Result<Array1<usize>> {
        argmax_rows(self.log_joint_sparse(x)?.view(), "log p(x, y)")
    }

    /// Dense `Σ_{l ∈ S} x_il log θ_kl` for validated `x`. Zero counts are skipped, so that
    /// `α = 0` (where `log θ_kl` may be `−∞`) never gives `0 · (−∞)`.
    fn log_likelihood_over(
        &self,
        x: ArrayView2<'_, f64>,
        features: Option<&[usize]>,
    ) -> Array2<f64> {
        if features.is_none() && self.word_log_prob.iter().all(|v| v.is_finite()) {
            return x.dot(&self.word_log_prob);
        }
        let mut out = Array2::zeros((x.nrows(), self.n_classes()));
        for (doc, mut out_row) in x.axis_iter(Axis(0)).zip(out.axis_iter_mut(Axis(0))) {
            let mut add = |l: usize| {
                let c = doc[l];
                if c != 0.0 {
                    out_row.scaled_add(c, &self.word_log_prob.row(l));
                }
            };
            match features {
                None => (0..doc.len()).for_each(&mut add),
                Some(f) => f.iter().for_each(|&l| add(l)),
            }
        }
        out
    }

    fn fit_dense_impl(
        p: &MultinomialNbValidParams,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<Self> {
        let summary = check_training("multinomial naive Bayes", x, y, w, p.n_classes, &p.priors)?;
        check_counts_dense(x)?;
        let mut counts = Array2::<f64>::zeros((x.ncols(), summary.n_classes));
        for (i, doc) in x.axis_iter(Axis(0)).enumerate() {
            let wi = w.map_or(1.0, |w| w[i]);
            let k = y[i];
            for (l, &c) in doc.iter().enumerate() {
                if c != 0.0 {
                    counts[[l, k]] += wi * c;
                }
            }
        }
        Self::from_counts(p, counts, summary.class_weight)
    }

    fn fit_sparse_impl(
        p: &MultinomialNbValidParams,
        x: CsMatView<'_, f64>,
        y: ArrayView1<'_, usize>,
        w: Option<ArrayView1<'_, f64>>,
    ) -> Result<Self> {
        if x.rows() == 0 || x.cols() == 0 {
            return Err(Error::Empty {
                what: format!("x ({} rows, {} columns)", x.rows(), x.cols()),
            });
        }
        let summary = check_targets(
            "multinomial naive Bayes",
            x.rows(),
            y,
            w,
            p.n_classes,
            &p.priors,
        )?;
        let counts = with_csr(x, |x| {
            check_counts_sparse(x)?;
            let mut counts = Array2::<f64>::zeros((x.cols(), summary.n_classes));
            for (i, doc) in x.outer_iterator().enumerate() {
                let wi = w.map_or(1.0, |w| w[i]);
                let k = y[i];
                for (l, &c) in doc.iter() {
                    counts[[l, k]] += wi * c;
                }
            }
            Ok(counts)
        })?;
        Self::from_counts(p, counts, summary.class_weight)
    }

    /// Eq. (3) from the word counts (`V × K`).
    fn from_counts(
        p: &MultinomialNbValidParams,
        counts: Array2<f64>,
        class_weight: Vec<f64>,
    ) -> Result<Self> {
        let alpha = p.alpha;
        let vocabulary = counts.nrows() as f64;
        let class_tokens = counts.sum_axis(Axis(0));
        if let Some(k) = class_tokens
            .iter()
            .position(|&t| t + alpha * vocabulary <= 0.0)
        {
            return Err(Error::invalid_parameter(
                "alpha",
                format!(
                    "class {k} has no word in training, so α = 0 leaves its word distribution undefined"
                ),
            ));
        }
        let log_denominator = class_tokens.mapv(|t| (t + alpha * vocabulary).ln());
        // Most (word, class) pairs of a text corpus have no count: their log-numerator is
        // ln α, computed once.
        let ln_alpha = alpha.ln();
        let mut word_log_prob = Array2::zeros(counts.raw_dim());
        for (mut out, row) in word_log_prob
            .axis_iter_mut(Axis(0))
            .zip(counts.axis_iter(Axis(0)))
        {
            for ((o, &c), &den) in out.iter_mut().zip(row.iter()).zip(log_denominator.iter()) {
                let numerator = if c == 0.0 { ln_alpha } else { (c + alpha).ln() };
                *o = numerator - den;
            }
        }
        Ok(Self {
            word_log_prob,
            log_prior: p.priors.log_prior(&class_weight)?,
            class_weight: Array1::from(class_weight),
            word_count: counts,
        })
    }

    fn check_input(&self, x: ArrayView2<'_, f64>) -> Result<()> {
        check_prediction(x, self.n_features())?;
        check_counts_dense(x)
    }
}

/// Runs `f` on a CSR view of `x`, converting a CSC matrix first.
fn with_csr<T>(
    x: CsMatView<'_, f64>,
    f: impl FnOnce(CsMatView<'_, f64>) -> Result<T>,
) -> Result<T> {
    if x.is_csr() {
        f(x)
    } else {
        let csr: CsMat<f64> = x.to_csr();
        f(csr.view())
    }
}

fn negative_count(row: usize, column: usize, value: f64) -> Error {
    Error::InvalidValue {
        what: "x".into(),
        row,
        column,
        value,
        reason: "word counts must be non-negative".into(),
    }
}

/// Dense counts: finite (checked by the caller) and non-negative.
fn check_counts_dense(x: ArrayView2<'_, f64>) -> Result<()> {
    match x.indexed_iter().find(|&(_, &v)| v < 0.0) {
        Some(((row, column), &value)) => Err(negative_count(row, column, value)),
        None => Ok(()),
    }
}

/// Sparse CSR counts: every stored value finite and non-negative.
fn check_counts_sparse(x: CsMatView<'_, f64>) -> Result<()> {
    for (row, doc) in x.outer_iterator().enumerate() {
        for (column, &value) in doc.iter() {
            if !value.is_finite() {
                return Err(Error::NonFinite {
                    what: "x".into(),
                    row,
                    column,
                    value,
                });
            }
            if value < 0.0 {
                return Err(negative_count(row, column, value));
            }
        }
    }
    Ok(())
}

crate::common::impl_fit!(MultinomialNbValidParams => MultinomialNb, fit_dense_impl);

crate::common::impl_generative_classifier!(
    MultinomialNb,
    |model| model.word_log_prob.nrows(),
    |model| model.word_log_prob.ncols()
);

impl Generative for MultinomialNb {
    fn log_prior(&self) -> Array1<f64> {
        self.log_prior.clone()
    }

    /// `log p(x_i | y = k) = Σ_l x_il log θ_kl` (eq. (4)) for dense counts.
    fn class_log_likelihood(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
        self.check_input(x)?;
        Ok(self.log_likelihood_over(x, None))
    }
}

impl SavedModel for MultinomialNb {
    const KIND: &'static str = "multinomial-naive-bayes";

    /// `word_log_prob` and `word_count` are `V × K`; every class's word distribution (a column
    /// of `word_log_prob`) is normalised (entries `−∞`, i.e. probability 0, occur when `α = 0`);
    /// the word counts are finite and non-negative; the class priors and weights are those of
    /// `K` classes.
    fn check_invariants(&self) -> Result<()> {
        let kind = Self::KIND;
        let (vocabulary, n_classes) = self.word_log_prob.dim();
        check_size(kind, "word_log_prob", n_classes, vocabulary)?;
        check_log_distribution_rows(kind, "word_log_prob", self.word_log_prob.t(), "class")?;
        shape(
            kind,
            "word_count",
            &self.word_count,
            &[vocabulary, n_classes],
        )?;
        finite(kind, "word_count", &self.word_count)?;
        if let Some(((l, k), &c)) = self.word_count.indexed_iter().find(|&(_, &c)| c < 0.0) {
            return Err(invalid(
                kind,
                "word_count",
                format!("word {l}, class {k}: count {c}; counts are non-negative"),
            ));
        }
        check_classes(kind, n_classes, &self.log_prior, &self.class_weight)
    }
}

impl FactorisedGenerative for MultinomialNb {
    /// `Σ_{l ∈ S} x_il log θ_kl`: the words `S` of the vocabulary. (For regions given as
    /// separate count matrices, use [`MultinomialNb::class_log_likelihood_sparse`] or
    /// [`Generative::class_log_likelihood`] on each region's matrix.)
    fn region_log_likelihood(
        &self,
        x: ArrayView2<'_, f64>,
        features: &[usize],
    ) -> Result<Array2<f64>> {
        self.check_input(x)?;
        check_region(features, self.n_features())?;
        Ok(self.log_likelihood_over(x, Some(features)))
    }
}

gendisc_core::impl_conditional_model_by_bayes!(MultinomialNb);

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;
    use gendisc_core::ConditionalModel;
    use gendisc_core::Fit;
    use ndarray::array;
    use sprs::TriMat;

    fn corpus() -> (CsMat<f64>, Array1<usize>) {
        let mut t = TriMat::new((5, 4));
        for &(i, j, c) in &[
            (0, 0, 2.0),
            (0, 1, 1.0),
            (1, 0, 1.0),
            (1, 3, 1.0),
            (2, 2, 3.0),
            (3, 2, 1.0),
            (3, 3, 2.0),
            (4, 1, 1.0),
        ] {
            t.add_triplet(i, j, c);
        }
        (t.to_csr(), array![0, 0, 1, 1, 1])
    }

    #[test]
    fn equation_three_by_hand() {
        let (x, y) = corpus();
        let m = MultinomialNb::params()
            .fit_sparse(x.view(), y.view())
            .unwrap();
        // Class 0 tokens: word 0 ×3, word 1 ×1, word 3 ×1 → 5 tokens; V = 4.
        let flp = m.feature_log_prob();
        assert_abs_diff_eq!(flp[[0, 0]], (4.0f64 / 9.0).ln(), epsilon = 1e-15);
        assert_abs_diff_eq!(flp[[0, 2]], (1.0f64 / 9.0).ln(), epsilon = 1e-15);
        // Class 1 tokens: word 2 ×4, word 3 ×2, word 1 ×1 → 7 tokens.
        assert_abs_diff_eq!(flp[[1, 2]], (5.0f64 / 11.0).ln(), epsilon = 1e-15);
        assert_abs_diff_eq!(m.class_prior()[1], 0.6, epsilon = 1e-15);
        assert_eq!(m.feature_count()[[1, 2]], 4.0);
    }

    #[test]
    fn sparse_and_dense_agree() {
        let (x, y) = corpus();
        let dense = x.to_dense();
        let ms = MultinomialNb::params()
            .fit_sparse(x.view(), y.view())
            .unwrap();
        let md = MultinomialNb::params().fit(dense.view(), y.view()).unwrap();
        assert_eq!(ms, md);
        let ps = ms.predict_log_proba_sparse(x.view()).unwrap();
        let pd = md.predict_log_proba(dense.view()).unwrap();
        assert_abs_diff_eq!(ps, pd, epsilon = 1e-12);
        // CSC input is accepted and gives the same answer.
        let csc = x.to_csc();
        assert_abs_diff_eq!(
            ms.predict_log_proba_sparse(csc.view()).unwrap(),
            pd,
            epsilon = 1e-12
        );
        assert_eq!(
            MultinomialNb::params()
                .fit_sparse(csc.view(), y.view())
                .unwrap(),
            ms
        );
    }

    #[test]
    fn regions_add_up_to_the_document() {
        let (x, y) = corpus();
        let m = MultinomialNb::params()
            .fit_sparse(x.view(), y.view())
            .unwrap();
        // Split each document: word 0 goes to "subject", the rest to "body".
        let dense = x.to_dense();
        let mut subject = Array2::zeros(dense.raw_dim());
        subject.column_mut(0).assign(&dense.column(0));
        let body = &dense - &subject;
        let whole = m.class_log_likelihood(dense.view()).unwrap();
        let s = m.class_log_likelihood_sparse(CsMat::csr_from_dense(subject.view(), 0.0).view());
        let b = m.class_log_likelihood_sparse(CsMat::csr_from_dense(body.view(), 0.0).view());
        assert_abs_diff_eq!(s.unwrap() + b.unwrap(), whole, epsilon = 1e-12);
        // A subset of words is the same thing through the factorised interface.
        let r = m.region_log_likelihood(dense.view(), &[0]).unwrap();
        let s = m.class_log_likelihood(subject.view()).unwrap();
        assert_abs_diff_eq!(r, s, epsilon = 1e-12);
    }

    #[test]
    fn alpha_zero_needs_words_in_every_class() {
        let x = array![[1.0, 0.0], [0.0, 0.0]];
        let err = MultinomialNb::params()
            .alpha(0.0)
            .fit(x.view(), array![0, 1].view());
        assert!(matches!(
            err,
            Err(Error::InvalidParameter { name: "alpha", .. })
        ));
        // α = 0 with words everywhere: unseen words have −∞ log-probability but zero counts
        // never multiply it.
        let x = array![[1.0, 0.0], [0.0, 2.0]];
        let m = MultinomialNb::params()
            .alpha(0.0)
            .fit(x.view(), array![0, 1].view())
            .unwrap();
        let ll = m.class_log_likelihood(x.view()).unwrap();
        assert_eq!(ll[[0, 0]], 0.0);
        assert_eq!(ll[[0, 1]], f64::NEG_INFINITY);
    }

    #[test]
    fn bad_counts_are_named() {
        let y = array![0, 1];
        let x = array![[1.0, 0.0], [0.0, -2.0]];
        let err = MultinomialNb::params().fit(x.view(), y.view()).unwrap_err();
        assert!(
            matches!(
                err,
                Error::InvalidValue {
                    row: 1,
                    column: 1,
                    ..
                }
            ),
            "{err}"
        );
        let mut t = TriMat::new((2, 2));
        t.add_triplet(0, 0, 1.0);
        t.add_triplet(1, 1, f64::INFINITY);
        let err = MultinomialNb::params()
            .fit_sparse(t.to_csr().view(), y.view())
            .unwrap_err();
        assert!(
            matches!(
                err,
                Error::NonFinite {
                    row: 1,
                    column: 1,
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn sparse_leave_one_out_refuses_bad_regions() {
        let (x, y) = corpus();
        let params = MultinomialNb::params().check().unwrap();
        assert!(matches!(
            params.fit_leave_one_out_sparse(&[], y.view(), None),
            Err(Error::InvalidParameter {
                name: "regions",
                ..
            })
        ));
        let narrow: CsMat<f64> = CsMat::zero((5, 3));
        let err = params
            .fit_leave_one_out_sparse(&[x.view(), narrow.view()], y.view(), None)
            .unwrap_err();
        assert!(err.to_string().contains("region 1"), "{err}");
        // Row 0 alone in class 0 once row 1 is relabelled: removing it empties the class.
        let y_alone = array![0, 1, 1, 1, 1];
        let err = params
            .fit_leave_one_out_sparse(&[x.view()], y_alone.view(), None)
            .unwrap_err();
        assert!(matches!(err, Error::EmptyClass { class: 0, .. }), "{err}");
        assert!(err.to_string().contains("without row 0"), "{err}");
        // An empty region (no subject anywhere) is fine: its log-likelihoods are zero.
        let empty: CsMat<f64> = CsMat::zero((5, 4));
        let loo = params
            .fit_leave_one_out_sparse(&[empty.view(), x.view()], y.view(), None)
            .unwrap();
        assert!(loo.region(0).iter().all(|&v| v == 0.0));
        let whole = params
            .fit_leave_one_out_sparse(&[x.view()], y.view(), None)
            .unwrap();
        assert_eq!(loo.region(1), whole.region(0));
        assert_eq!(loo.model, whole.model);
    }
}
