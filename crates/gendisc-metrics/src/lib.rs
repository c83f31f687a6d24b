//! # gendisc-metrics
//!
//! How gendisc scores classifiers, and how it summarises the scores over replicates.
//!
//! | what | functions | paper |
//! |---|---|---|
//! | hard predictions | [`error_rate`], [`weighted_error_rate`], [`confusion_matrix`], [`cost_weighted_error`] with a [`CostMatrix`] | ER of Xue & Titterington §3.1.3; Statlog *heart* costs in Bouchard & Triggs Table 1 |
//! | hard predictions as the user's labels | [`accuracy`] (scikit-learn's `accuracy_score`), [`label_error_rate`] | |
//! | class distributions, from log-probabilities | [`logistic_loss_sum`], [`logistic_loss_mean`], [`brier_score`], [`binary_brier_score`] | LL of Xue & Titterington §3.1.3; logistic loss of Bouchard & Triggs Figure 1 |
//! | class distributions, from probabilities | [`log_loss`] (scikit-learn's `log_loss`, clipped at [`LOG_LOSS_EPS`]), [`brier_score_proba`], [`binary_brier_score_proba`] (scikit-learn's `brier_score_loss`) | |
//! | calibration | [`expected_calibration_error`], [`reliability_diagram`] | |
//! | confidence ranking | [`AccuracyCoverageCurve`] | Raina et al. 2003 §5, Figure 2 |
//! | replicates | [`Summary`], [`median`], [`quantile`], [`mean_confidence_interval`] | medians over 400 / 200 replicates, means over 100 trials |
//! | distributions | [`distributions::student_t_quantile`] and friends | |
//!
//! ## Conventions
//!
//! * Classes are indices `0..K`, as everywhere in gendisc; hard predictions are
//!   `ArrayView1<usize>`.
//! * Probabilistic metrics take the `n × K` matrix of **log**-probabilities
//!   `log p(y = k | x_i)` that `ConditionalModel::predict_log_proba` returns. A probability that
//!   rounds to 1 keeps its information in log space, and a zero probability is an exact `−∞`.
//!   Rows must log-sum-exp to 0 within [`LOG_PROBA_NORMALISATION_TOLERANCE`], so that log joint
//!   densities or raw scores passed by mistake are caught.
//! * Three metrics take **probabilities**, as `predict_proba` returns them, for code ported from
//!   scikit-learn, with their arguments in its order (`y_true` first): [`log_loss`],
//!   [`brier_score_proba`] and [`binary_brier_score_proba`]. Their rows must lie in `[0, 1]` and
//!   sum to 1 within [`PROBA_NORMALISATION_TOLERANCE`]; a negative entry (log-probabilities
//!   passed by mistake) is an error that names the log-probability metrics.
//! * Every function validates its input and returns a typed [`gendisc_core::Error`] naming the
//!   argument and the row: lengths that disagree, no rows, a class out of range, NaN. None
//!   panics, and none returns NaN.
//! * Sums are compensated (Neumaier), so that a metric over a large test set agrees with R and
//!   scikit-learn to the last digits.
//!
//! ```
//! use gendisc_metrics::{error_rate, logistic_loss_sum, Summary};
//! use ndarray::array;
//!
//! // Log-probabilities from a model, and the true classes.
//! let log_proba = array![[0.9_f64.ln(), 0.1_f64.ln()], [0.3_f64.ln(), 0.7_f64.ln()]];
//! let y = array![0, 0];
//! let predicted = array![0, 1];
//! assert_eq!(error_rate(y.view(), predicted.view()).unwrap(), 0.5);
//! let ll = logistic_loss_sum(log_proba.view(), y.view()).unwrap();
//! assert!((ll - (-(0.9_f64.ln()) - 0.3_f64.ln())).abs() < 1e-15);
//!
//! // Over replicates: the median and a 95% t interval for the mean.
//! let replicate_errors = [0.21, 0.18, 0.25, 0.19, 0.22];
//! let summary = Summary::from_values(&replicate_errors).unwrap();
//! assert_eq!(summary.median, 0.21);
//! ```

mod checks;
pub mod classification;
pub mod coverage;
pub mod distributions;
pub mod probabilistic;
pub mod summary;

pub use checks::{LOG_PROBA_NORMALISATION_TOLERANCE, PROBA_NORMALISATION_TOLERANCE};
pub use classification::{
    accuracy, confusion_matrix, cost_weighted_error, error_rate, label_error_rate,
    weighted_error_rate, CostMatrix,
};
pub use coverage::{AccuracyCoverageCurve, CoveragePoint};
pub use probabilistic::{
    binary_brier_score, binary_brier_score_proba, binary_logistic_loss_sum, brier_score,
    brier_score_proba, expected_calibration_error, log_loss, logistic_loss_mean, logistic_loss_sum,
    reliability_diagram, CalibrationBin, DEFAULT_CALIBRATION_BINS, LOG_LOSS_EPS,
};
pub use summary::{
    mean, mean_confidence_interval, median, quantile, quantiles, sample_std_dev, Interval, Summary,
};
