#![doc = include_str!("../README.md")]

mod common;
mod gaussian;
mod model_file;
mod moments;
mod sampling;
mod unit;

pub mod balls;
pub mod bernoulli_nb;
pub mod categorical_nb;
pub mod gaussian_nb;
pub mod lda;
pub mod lda_svd;
pub mod leave_one_out;
pub mod multinomial_nb;
pub mod qda;

pub use balls::{
    Balls1, Balls1Params, Balls1ValidParams, Balls2, Balls2Params, Balls2Report, Balls2ValidParams,
    EmReport,
};
pub use bernoulli_nb::{BernoulliNb, BernoulliNbParams, BernoulliNbValidParams};
pub use categorical_nb::{CategoricalNb, CategoricalNbParams, CategoricalNbValidParams};
pub use common::{ClassPriors, VarianceEstimator};
pub use gaussian::CovarianceShrinkage;
pub use gaussian_nb::{GaussianNb, GaussianNbParams, GaussianNbValidParams, VarianceStructure};
pub use lda::{Lda, LdaParams, LdaValidParams};
pub use lda_svd::{LdaSvd, LdaSvdParams, LdaSvdValidParams};
pub use leave_one_out::{LeaveOneOut, LeaveOneOutFit};
pub use multinomial_nb::{
    sum_regions_sparse, MultinomialNb, MultinomialNbParams, MultinomialNbValidParams,
};
pub use qda::{Qda, QdaParams, QdaValidParams};
pub use sampling::SampleJoint;
