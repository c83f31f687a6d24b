//! # gendisc-discriminative
//!
//! Discriminative classifiers: models of `p(y | x)` (or of a decision boundary) fitted directly.
//!
//! * [`logistic`] — logistic regression: binary by Newton/IRLS (with a mode that stops where R's
//!   `glm` stops), an L2 penalty (Gaussian prior), multinomial (softmax), sparse input.
//! * [`svm`] — linear support vector machines, soft and hard margin.

pub mod logistic;
pub mod svm;

pub use logistic::{LogisticRegression, LogisticRegressionParams};
pub use svm::{LinearSvm, LinearSvmParams, Margin};
