//! The classifiers `gendisc compare` can set against each other, by their short names.

use std::fmt;
use std::str::FromStr;

use gendisc_core::{argmax_rows, ConditionalModel, Error, Fit, Result};
use gendisc_discriminative::logistic::{LogisticRegression, LogisticSolver};
use gendisc_gdt::{Family, GdtCv, GdtParams};
use gendisc_generative::{CovarianceShrinkage, GaussianNb, Lda, Qda};
use gendisc_hybrid::Hybrid;
use gendisc_metrics::{error_rate, log_loss};
use ndarray::{ArrayView1, ArrayView2};

/// Which side of Ng & Jordan's question a model is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Fitted by the joint likelihood `p(x, y)`.
    Generative,
    /// Fitted, wholly or in part, by the conditional likelihood `p(y | x)`: logistic regression,
    /// and the hybrid and GDT, whose discriminative part is what sets them apart from naive
    /// Bayes and LDA.
    Discriminative,
}

impl Role {
    /// `generative` or `discriminative`, as in the output tables.
    pub fn name(self) -> &'static str {
        match self {
            Role::Generative => "generative",
            Role::Discriminative => "discriminative",
        }
    }
}

/// A classifier of the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModelKind {
    /// Gaussian naive Bayes, default settings.
    NaiveBayes,
    /// Logistic regression: R `glm`'s IRLS for two classes, softmax by Newton for more.
    Logistic,
    /// Raina et al.'s normalized hybrid over Gaussian naive Bayes, one region per column.
    Hybrid,
    /// GDT over the LDA family with `λ` chosen by stratified cross-validation of the error rate
    /// over `{1, 0.75, 0.5, 0.25, 0}`.
    GdtCv,
    /// Linear discriminant analysis.
    Lda,
    /// Quadratic discriminant analysis.
    Qda,
}

/// Folds of GDT's cross-validation (fewer only where the training set has fewer rows).
const GDT_FOLDS: usize = 5;

impl ModelKind {
    /// Every model, in the order `--models` lists them in its help.
    pub const ALL: [ModelKind; 6] = [
        ModelKind::NaiveBayes,
        ModelKind::Logistic,
        ModelKind::Hybrid,
        ModelKind::GdtCv,
        ModelKind::Lda,
        ModelKind::Qda,
    ];

    /// The short name used on the command line and in the outputs.
    pub fn name(self) -> &'static str {
        match self {
            ModelKind::NaiveBayes => "nb",
            ModelKind::Logistic => "lr",
            ModelKind::Hybrid => "hybrid",
            ModelKind::GdtCv => "gdt-cv",
            ModelKind::Lda => "lda",
            ModelKind::Qda => "qda",
        }
    }

    /// A phrase for the report.
    pub fn description(self) -> &'static str {
        match self {
            ModelKind::NaiveBayes => "Gaussian naive Bayes",
            ModelKind::Logistic => "logistic regression (R glm's IRLS for two classes)",
            ModelKind::Hybrid => {
                "Raina et al.'s normalized hybrid over Gaussian naive Bayes, one region per column"
            }
            ModelKind::GdtCv => "GDT over the LDA family, λ by stratified cross-validation",
            ModelKind::Lda => "linear discriminant analysis",
            ModelKind::Qda => "quadratic discriminant analysis",
        }
    }

    /// Whether [`Design::shrinkage`](crate::Design::shrinkage) regularises the model: LDA, QDA
    /// and GDT over LDA.
    pub fn takes_shrinkage(self) -> bool {
        matches!(self, ModelKind::Lda | ModelKind::Qda | ModelKind::GdtCv)
    }

    /// The model's side of the comparison.
    pub fn role(self) -> Role {
        match self {
            ModelKind::NaiveBayes | ModelKind::Lda | ModelKind::Qda => Role::Generative,
            ModelKind::Logistic | ModelKind::Hybrid | ModelKind::GdtCv => Role::Discriminative,
        }
    }

    /// The short names of every model, comma-separated, for messages.
    pub fn known_names() -> String {
        Self::ALL.map(Self::name).join(", ")
    }

    /// Fits the model on the training rows and scores it on the test rows.
    ///
    /// `n_classes` is the number of classes of the whole table (every training set holds each
    /// of them); `fold_seed` seeds GDT's cross-validation folds, and is ignored by the others;
    /// `shrinkage` shrinks the covariances of the models that [take it](Self::takes_shrinkage)
    /// toward the scaled identity.
    pub fn fit_and_score(
        self,
        train: (ArrayView2<'_, f64>, ArrayView1<'_, usize>),
        test: (ArrayView2<'_, f64>, ArrayView1<'_, usize>),
        n_classes: usize,
        fold_seed: u64,
        shrinkage: Option<f64>,
    ) -> Result<Scores> {
        let (x, y) = train;
        let shrinkage = shrinkage.map_or(
            CovarianceShrinkage::None,
            CovarianceShrinkage::ScaledIdentity,
        );
        match self {
            ModelKind::NaiveBayes => score(&GaussianNb::params().fit(x, y)?, test),
            ModelKind::Logistic => {
                let params = LogisticRegression::params();
                let params = if n_classes == 2 {
                    params.solver(LogisticSolver::GlmIrls)
                } else {
                    params
                };
                score(&params.fit(x, y)?, test)
            }
            ModelKind::Hybrid => {
                // One region per column, as `gendisc fit hybrid` by default.
                let regions = (0..x.ncols()).map(|j| vec![j]).collect();
                score(
                    &Hybrid::params(GaussianNb::params())
                        .regions(regions)
                        .fit(x, y)?,
                    test,
                )
            }
            ModelKind::GdtCv => {
                // The only row of a class stays in every fold's training rows (see
                // `gendisc_data::cv::path_curve`), so every class needs one row, not one per fold.
                let params = GdtCv::params(Family::Lda)
                    .gdt(GdtParams::new(Family::Lda).shrinkage(shrinkage))
                    .n_folds(GDT_FOLDS.min(y.len()))
                    .seed(fold_seed);
                score(&params.fit(x, y)?, test)
            }
            ModelKind::Lda => score(&Lda::params().shrinkage(shrinkage).fit(x, y)?, test),
            ModelKind::Qda => score(&Qda::params().regularization(shrinkage).fit(x, y)?, test),
        }
    }
}

impl fmt::Display for ModelKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ModelKind {
    type Err = Error;

    fn from_str(name: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|model| model.name() == name.trim())
            .ok_or_else(|| {
                Error::invalid_parameter(
                    "models",
                    format!(
                        "unknown model `{name}`; the known models are {}",
                        Self::known_names()
                    ),
                )
            })
    }
}

/// A fitted model's test error rate and log loss.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scores {
    /// The share of misclassified test rows.
    pub error: f64,
    /// The mean log loss on the test rows, probabilities clipped as scikit-learn's `log_loss`.
    pub log_loss: f64,
}

fn score<M: ConditionalModel>(
    model: &M,
    (x, y): (ArrayView2<'_, f64>, ArrayView1<'_, usize>),
) -> Result<Scores> {
    let proba = model.predict_proba(x)?;
    // The class of largest probability, as `predict` gives it, without a second prediction.
    let predicted = argmax_rows(proba.view(), "test-set probabilities")?;
    Ok(Scores {
        error: error_rate(y, predicted.view())?,
        log_loss: log_loss(y, proba.view())?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_list_the_known_ones() {
        for model in ModelKind::ALL {
            assert_eq!(model.name().parse::<ModelKind>().unwrap(), model);
        }
        let message = "svm".parse::<ModelKind>().unwrap_err().to_string();
        assert!(
            message.contains("svm") && message.contains("gdt-cv"),
            "{message}"
        );
    }

    /// A class with one training row (as a stratified training set of a table with a rare
    /// class holds) is no reason for GDT's cross-validation to give up.
    #[test]
    fn gdt_cv_fits_a_training_set_with_a_single_row_of_a_class() {
        let x = ndarray::Array2::from_shape_fn((13, 2), |(i, j)| {
            let centre = [0.0, 2.0, -3.0][usize::from(i >= 6) + usize::from(i == 12)];
            centre + ((i * 7 + j * 5) % 11) as f64 / 5.0
        });
        let y = ndarray::Array1::from_shape_fn(13, |i| usize::from(i >= 6) + usize::from(i == 12));
        let scores = ModelKind::GdtCv
            .fit_and_score((x.view(), y.view()), (x.view(), y.view()), 3, 7, None)
            .unwrap();
        assert!(scores.error < 0.5, "{}", scores.error);
        assert!(scores.log_loss.is_finite());
    }
}
