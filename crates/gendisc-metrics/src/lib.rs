#![doc = include_str!("../README.md")]

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
    mean, mean_confidence_interval, mean_t_interval, median, quantile, quantiles, sample_std_dev,
    Interval, MeanInterval, Summary,
};
