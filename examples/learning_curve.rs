//! A small learning curve in the manner of Ng & Jordan (2001): naive Bayes against logistic
//! regression as the training set grows, on simulated data.
//!
//! ```text
//! cargo run -p gendisc-examples --example learning_curve
//! ```
//!
//! The data are Xue & Titterington's normal dataset with equal full covariances (four
//! correlated features): logistic regression's linear boundary can be Bayes-optimal there, naive
//! Bayes' independence assumption is wrong. Each training size is drawn 20 times (half the rows
//! of each class) from seeded streams and every fit is scored on one test set of 2000 rows; the
//! table shows the median and mean test error. Ng & Jordan's two regimes: naive Bayes
//! approaches its asymptotic error in fewer rows, logistic regression reaches a lower one once
//! the training set is large. At the very smallest sizes both are noisy, and logistic
//! regression fits separated data without a prior (its report flags it).

use gendisc::data::generators::XueTitteringtonPreset;
use gendisc::data::splits::replicate_rng;
use gendisc::metrics::{error_rate, Summary};
use gendisc::prelude::*;

/// The seed of every stream of the example.
const SEED: u64 = 2001;

/// Training sizes (rows, both classes together).
const SIZES: [usize; 7] = [6, 10, 20, 40, 100, 200, 400];

/// Training sets drawn per size.
const REPLICATES: usize = 20;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let preset = XueTitteringtonPreset::NormalEqualFull;
    let (x_test, y_test) = preset.generate(1000, &mut replicate_rng(SEED, &["test".into()]));
    println!(
        "{}: test error over {REPLICATES} training sets per size",
        preset.name()
    );
    println!(
        "{:>5}  {:>21}  {:>21}",
        "m", "naive Bayes", "logistic regression"
    );
    println!(
        "{:>5}  {:>10} {:>10}  {:>10} {:>10}",
        "", "median", "mean", "median", "mean"
    );
    for m in SIZES {
        let mut errors = [Vec::new(), Vec::new()];
        for replicate in 0..REPLICATES {
            let mut rng = replicate_rng(SEED, &[m.into(), replicate.into()]);
            let (x, y) = preset.generate(m / 2, &mut rng);
            let nb = GaussianNb::params().fit(x.view(), y.view())?;
            // Without a prior: on the smallest sets the classes are often separated, and the
            // fit then returns the direction it was heading in (flagged in its report).
            let lr = LogisticRegression::params().fit(x.view(), y.view())?;
            errors[0].push(error_rate(
                y_test.view(),
                nb.predict(x_test.view())?.view(),
            )?);
            errors[1].push(error_rate(
                y_test.view(),
                lr.predict(x_test.view())?.view(),
            )?);
        }
        let [nb, lr] = [
            Summary::from_values(&errors[0])?,
            Summary::from_values(&errors[1])?,
        ];
        println!(
            "{m:>5}  {:>10.3} {:>10.3}  {:>10.3} {:>10.3}",
            nb.median, nb.mean, lr.median, lr.mean
        );
    }
    Ok(())
}
