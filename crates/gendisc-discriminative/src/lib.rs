//! # gendisc-discriminative
//!
//! Discriminative classifiers: models of `p(y | x)` (or of a decision boundary) fitted directly.
//!
//! * [`logistic`] — logistic regression: binary by Newton/IRLS (with a mode that stops where R's
//!   `glm` stops), an L2 penalty (Gaussian prior), multinomial (softmax), sparse input.
//! * [`svm`] — linear support vector machines, soft and hard margin.
//! * [`multitask_svm`] — Evgeniou & Pontil's regularised multi-task SVM (Epshteyn & DeJong's
//!   eqs. 5.3–5.5).

mod classes;
pub mod logistic;
pub mod multitask_svm;
pub mod svm;

pub use logistic::{LogisticRegression, LogisticRegressionParams};
pub use multitask_svm::{MultiTaskSolver, MultiTaskSvm, MultiTaskSvmParams};
pub use svm::{LinearSvm, LinearSvmParams, Margin};
