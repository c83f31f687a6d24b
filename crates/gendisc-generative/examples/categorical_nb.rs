//! Categorical naive Bayes with declared levels: a level never seen in training still gets a
//! smoothed probability, while an undeclared level is a typed error.
//!
//! `cargo run --example categorical_nb`

use gendisc_core::{ConditionalModel, Fit};
use gendisc_generative::CategoricalNb;
use ndarray::{array, Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() -> gendisc_core::Result<()> {
    // Feature 0 ("colour") has 3 levels, feature 1 ("size") has 4; level 3 of size is rare.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let n = 40;
    let y = Array1::from_shape_fn(n, |i| i % 2);
    let x = Array2::from_shape_fn((n, 2), |(i, j)| {
        let shifted = rng.random_range(0..3) + y[i];
        (if j == 0 { shifted % 3 } else { shifted.min(2) }) as f64
    });

    let model = CategoricalNb::params()
        .n_levels(vec![3, 4])
        .fit(x.view(), y.view())?;
    for j in 0..2 {
        println!(
            "feature {j}: p(x_j = l | y = k), rows k, columns l\n{:.3}",
            model.feature_prob(j)
        );
    }
    let points = array![[0.0, 0.0], [2.0, 2.0], [1.0, 3.0]];
    println!(
        "posteriors at {points}\n{:.4}",
        model.predict_proba(points.view())?
    );

    match model.predict_proba(array![[5.0, 0.0]].view()) {
        Ok(_) => unreachable!("level 5 was not declared"),
        Err(e) => println!("undeclared level: {e}"),
    }
    Ok(())
}
