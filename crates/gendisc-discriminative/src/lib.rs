#![doc = include_str!("../README.md")]

mod classes;
pub mod logistic;
pub mod multitask_svm;
pub mod svm;

pub use logistic::{LogisticRegression, LogisticRegressionCv, LogisticRegressionParams};
pub use multitask_svm::{
    MultiTaskSolver, MultiTaskSvm, MultiTaskSvmParams, MultiTaskSvmValidParams,
};
pub use svm::{LinearSvm, LinearSvmParams, Margin};
