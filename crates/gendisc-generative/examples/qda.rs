//! Quadratic discriminant analysis on classes of different shapes, with scikit-learn's
//! `reg_param` regulariser.
//!
//! `cargo run --example qda`

use gendisc_core::{Classifier, Fit};
use gendisc_generative::{CovarianceShrinkage, Lda, Qda, SampleJoint};
use ndarray::array;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn main() -> gendisc_core::Result<()> {
    // A known QDA model: a round class inside an elongated one. Sample training and test data
    // from it by fitting it to a hand-made dataset first.
    let x = array![
        [0.0, 0.0],
        [0.3, -0.2],
        [-0.2, 0.3],
        [0.1, 0.1],
        [-4.0, 0.5],
        [4.0, -0.3],
        [-2.0, 0.2],
        [2.5, 0.4],
        [0.0, -0.6]
    ];
    let y = array![0, 0, 0, 0, 1, 1, 1, 1, 1];
    let truth = Qda::params().fit(x.view(), y.view())?;
    let (x_train, y_train) = truth.sample(300, &mut ChaCha8Rng::seed_from_u64(10));
    let (x_test, y_test) = truth.sample(3000, &mut ChaCha8Rng::seed_from_u64(11));

    let accuracy = |predicted: ndarray::Array1<usize>| {
        predicted
            .iter()
            .zip(&y_test)
            .filter(|(p, t)| p == t)
            .count() as f64
            / y_test.len() as f64
    };
    let qda = Qda::params().fit(x_train.view(), y_train.view())?;
    let regularised = Qda::params()
        .regularization(CovarianceShrinkage::Identity(0.1))
        .fit(x_train.view(), y_train.view())?;
    let lda = Lda::params().fit(x_train.view(), y_train.view())?;
    println!(
        "test accuracy: QDA {:.3}, QDA reg_param 0.1 {:.3}, LDA {:.3}",
        accuracy(qda.predict(x_test.view())?),
        accuracy(regularised.predict(x_test.view())?),
        accuracy(lda.predict(x_test.view())?)
    );
    for (k, c) in qda.covariances().outer_iter().enumerate() {
        println!("class {k} covariance\n{c:.3}");
    }
    Ok(())
}
