//! `gendisc models` and `gendisc fit`: the estimators, their hyper-parameters, and fitting and
//! saving one.

use anyhow::{bail, Context, Result};
use gendisc_core::{ColumnEncoding, Fit, FitSummary, LabelledModel, Preprocessing, SavedModel};
use gendisc_data::encoding::CategoricalAs;
use gendisc_discriminative::logistic::LogisticSolver;
use gendisc_discriminative::{LinearSvm, LogisticRegression};
use gendisc_gdt::{Family, Gdt, GdtCv};
use gendisc_generative::{
    Balls1, Balls2, BernoulliNb, CategoricalNb, CovarianceShrinkage, GaussianNb, Lda,
    MultinomialNb, Qda,
};
use gendisc_hybrid::{Hybrid, HybridParams, Normalization};

use crate::cli::{Estimator, FitArgs, GdtFamily, HybridBase, LogisticSolverArg};
use crate::input::{self, Training};

/// Every estimator: its name for `gendisc fit`, the kind of model file it writes, and what it
/// is.
pub const ESTIMATORS: [(&str, &str, &str); 14] = [
    (
        "nb",
        "(chosen)",
        "naive Bayes suited to the columns: categorical, Bernoulli or Gaussian",
    ),
    (
        "gaussian-nb",
        "gaussian-naive-bayes",
        "Gaussian naive Bayes",
    ),
    (
        "bernoulli-nb",
        "bernoulli-naive-bayes",
        "Bernoulli naive Bayes for 0/1 features",
    ),
    (
        "categorical-nb",
        "categorical-naive-bayes",
        "categorical naive Bayes, columns read as categories",
    ),
    (
        "multinomial-nb",
        "multinomial-naive-bayes",
        "multinomial naive Bayes for counts",
    ),
    (
        "lda",
        "lda",
        "linear discriminant analysis: Gaussian classes, one shared covariance",
    ),
    (
        "qda",
        "qda",
        "quadratic discriminant analysis: a Gaussian covariance per class",
    ),
    ("balls1", "balls1", "a spherical Gaussian per class"),
    (
        "balls2",
        "balls2",
        "a mixture of two spherical Gaussians per class (EM)",
    ),
    (
        "logistic-regression, lr",
        "logistic-regression",
        "logistic regression, maximum likelihood or a Gaussian (L2) prior; glm mode",
    ),
    (
        "linear-svm",
        "linear-svm",
        "linear support vector machine (hinge loss)",
    ),
    (
        "hybrid",
        "hybrid-<base>-naive-bayes",
        "Raina et al.'s hybrid: naive Bayes regions weighted discriminatively",
    ),
    (
        "gdt",
        "gdt",
        "Bouchard & Triggs' generative-discriminative trade-off at a given lambda",
    ),
    (
        "gdt-cv",
        "gdt-cv",
        "the generative-discriminative trade-off, lambda chosen by cross-validation",
    ),
];

/// Prints the estimators as a table.
pub fn print_models() -> Result<()> {
    let name_width = ESTIMATORS.iter().map(|e| e.0.len()).max().unwrap_or(0);
    let kind_width = ESTIMATORS.iter().map(|e| e.1.len()).max().unwrap_or(0);
    outln!(
        "{:name_width$}  {:kind_width$}  DESCRIPTION",
        "NAME",
        "KIND"
    );
    for (name, kind, description) in ESTIMATORS {
        outln!("{name:name_width$}  {kind:kind_width$}  {description}");
    }
    Ok(())
}

/// `gendisc fit`: reads the data, fits the estimator, prints and saves the model with its fit
/// report.
pub fn fit(args: &FitArgs) -> Result<()> {
    let estimator = &args.estimator;
    let common = estimator.common();
    let table = input::read_training_table(&common.data)?;
    let categorical = match estimator {
        Estimator::CategoricalNb { .. }
        | Estimator::Hybrid {
            generative: HybridBase::Categorical,
            ..
        } => CategoricalAs::Categorical,
        Estimator::Nb { .. }
            if table.as_ref().is_some_and(|t| {
                t.n_columns() > 0 && t.columns().iter().all(|c| !c.is_numeric())
            }) =>
        {
            CategoricalAs::Categorical
        }
        _ => CategoricalAs::OneHot,
    };
    let data = input::training(&common.data, table.as_ref(), categorical)?;
    if data.n_dropped > 0 {
        eprintln!("left out {} rows with a missing value", data.n_dropped);
    }
    let saved = match estimator {
        Estimator::Nb {
            alpha,
            var_smoothing,
            ..
        } => {
            if categorical == CategoricalAs::Categorical {
                save(&categorical_nb(*alpha, &data.preprocessing), &data, common)
            } else if data.x.iter().all(|&v| v == 0.0 || v == 1.0) {
                save(&BernoulliNb::params().alpha(*alpha), &data, common)
            } else {
                save(
                    &GaussianNb::params().var_smoothing(*var_smoothing),
                    &data,
                    common,
                )
            }
        }
        Estimator::GaussianNb { var_smoothing, .. } => save(
            &GaussianNb::params().var_smoothing(*var_smoothing),
            &data,
            common,
        ),
        Estimator::BernoulliNb { alpha, .. } => {
            save(&BernoulliNb::params().alpha(*alpha), &data, common)
        }
        Estimator::CategoricalNb { alpha, .. } => {
            save(&categorical_nb(*alpha, &data.preprocessing), &data, common)
        }
        Estimator::MultinomialNb { alpha, .. } => {
            save(&MultinomialNb::params().alpha(*alpha), &data, common)
        }
        Estimator::Lda { shrinkage, .. } => save(
            &Lda::params().shrinkage(shrinkage_of(*shrinkage)),
            &data,
            common,
        ),
        Estimator::Qda { shrinkage, .. } => save(
            &Qda::params().regularization(shrinkage_of(*shrinkage)),
            &data,
            common,
        ),
        Estimator::Balls1 { var_smoothing, .. } => save(
            &Balls1::params().var_smoothing(*var_smoothing),
            &data,
            common,
        ),
        Estimator::Balls2 {
            max_iterations,
            tolerance,
            seed,
            var_smoothing,
            ..
        } => save(
            &Balls2::params()
                .max_iterations(*max_iterations)
                .tolerance(*tolerance)
                .seed(*seed)
                .var_smoothing(*var_smoothing),
            &data,
            common,
        ),
        Estimator::LogisticRegression {
            prior_variance,
            solver,
            max_iterations,
            tolerance,
            no_intercept,
            ..
        } => {
            let mut params = LogisticRegression::params()
                .fit_intercept(!no_intercept)
                .solver(match solver {
                    LogisticSolverArg::Auto => LogisticSolver::Auto,
                    LogisticSolverArg::Newton => LogisticSolver::Newton,
                    LogisticSolverArg::Lbfgs => LogisticSolver::Lbfgs,
                    LogisticSolverArg::Cg => LogisticSolver::ConjugateGradient,
                    LogisticSolverArg::Glm => LogisticSolver::GlmIrls,
                });
            if let Some(variance) = prior_variance {
                params = params.prior_variance(*variance);
            }
            if let Some(cap) = max_iterations {
                params = params.max_iterations(*cap);
            }
            if let Some(tolerance) = tolerance {
                params = params.tolerance(*tolerance);
            }
            save(&params, &data, common)
        }
        Estimator::LinearSvm {
            c,
            hard_margin,
            tol,
            max_iter,
            seed,
            ..
        } => {
            let params = LinearSvm::params()
                .c(*c)
                .tol(*tol)
                .max_iter(*max_iter)
                .seed(*seed);
            let params = if *hard_margin {
                params.hard_margin()
            } else {
                params
            };
            save(&params, &data, common)
        }
        Estimator::Hybrid {
            generative,
            regions,
            unnormalized,
            leave_one_out,
            prior_variance,
            ..
        } => {
            let regions = regions
                .as_deref()
                .map(|groups| region_features(groups, &data.preprocessing))
                .transpose()?;
            let options = HybridOptions {
                unnormalized: *unnormalized,
                leave_one_out: *leave_one_out,
                regions,
                prior_variance: *prior_variance,
            };
            match generative {
                HybridBase::Gaussian => save(
                    &options.apply(Hybrid::params(GaussianNb::params())),
                    &data,
                    common,
                ),
                HybridBase::Bernoulli => save(
                    &options.apply(Hybrid::params(BernoulliNb::params())),
                    &data,
                    common,
                ),
                HybridBase::Categorical => save(
                    &options.apply(Hybrid::params(categorical_nb(1.0, &data.preprocessing))),
                    &data,
                    common,
                ),
                HybridBase::Multinomial => save(
                    &options.apply(Hybrid::params(MultinomialNb::params())),
                    &data,
                    common,
                ),
            }
        }
        Estimator::Gdt { family, lambda, .. } => save(
            &Gdt::params(family_of(*family)).lambda(*lambda),
            &data,
            common,
        ),
        Estimator::GdtCv {
            family,
            grid,
            folds,
            seed,
            ..
        } => save(
            &GdtCv::params(family_of(*family))
                .grid(grid.clone())
                .n_folds(*folds)
                .seed(*seed),
            &data,
            common,
        ),
    }?;
    report(&saved, &data, common)
}

/// The hybrid's settings that do not depend on its naive Bayes model.
struct HybridOptions {
    unnormalized: bool,
    leave_one_out: bool,
    regions: Option<Vec<Vec<usize>>>,
    prior_variance: Option<f64>,
}

impl HybridOptions {
    fn apply<G>(&self, params: HybridParams<G>) -> HybridParams<G> {
        let mut params = params
            .normalization(if self.unnormalized {
                Normalization::Unnormalized
            } else {
                Normalization::Normalized
            })
            .leave_one_out(self.leave_one_out);
        if let Some(regions) = &self.regions {
            params = params.regions(regions.clone());
        }
        if let Some(variance) = self.prior_variance {
            params = params.prior_variance(variance);
        }
        params
    }
}

/// What a fit reports: the kind of model written and how its fit ended.
struct Saved {
    kind: &'static str,
    labels: Vec<String>,
    fit: Option<FitSummary>,
}

/// Fits `params` on the training data and writes the model file.
fn save<P>(params: &P, data: &Training, common: &crate::cli::FitCommon) -> Result<Saved>
where
    P: Fit,
    P::Model: SavedModel + Clone,
{
    let kind = <P::Model as SavedModel>::KIND;
    let model = LabelledModel::fit(params, data.x.view(), &data.labels)
        .with_context(|| format!("cannot fit {kind} on {}", common.data.data.display()))?
        .with_feature_names(data.feature_names.clone())?
        .with_preprocessing(data.preprocessing.clone())?;
    model
        .save(&common.out)
        .with_context(|| format!("cannot save the model to {}", common.out.display()))?;
    Ok(Saved {
        kind,
        labels: model.labels().to_vec(),
        fit: model.model().fit_summary(),
    })
}

/// Prints what was fitted and how the fit ended.
fn report(saved: &Saved, data: &Training, common: &crate::cli::FitCommon) -> Result<()> {
    // A numeric column taken as the class by mistake has as many classes as values: show a few.
    const SHOWN: usize = 10;
    let classes = match saved.labels.len() {
        n if n <= SHOWN => saved.labels.join(", "),
        n => format!("{}, … ({n} classes)", saved.labels[..SHOWN].join(", ")),
    };
    outln!(
        "fitted {} on {} rows, {} features, classes {classes}",
        saved.kind,
        data.x.nrows(),
        data.x.ncols(),
    );
    match &saved.fit {
        Some(fit) => outln!(
            "fit: {} after {} iterations ({})",
            if fit.converged {
                "converged"
            } else {
                "NOT converged"
            },
            fit.iterations,
            fit.status
        ),
        None => outln!("fit: closed form"),
    }
    outln!("saved to {}", common.out.display());
    Ok(())
}

/// Categorical naive Bayes with the number of levels of each column as recorded (so that a
/// level absent from a class still has its smoothed probability).
fn categorical_nb(
    alpha: f64,
    preprocessing: &Preprocessing,
) -> gendisc_generative::CategoricalNbParams {
    let levels = preprocessing
        .columns
        .iter()
        .map(|column| match &column.encoding {
            ColumnEncoding::Categorical { levels } | ColumnEncoding::OneHot { levels } => {
                levels.len()
            }
            ColumnEncoding::Numeric => 0,
        })
        .collect();
    CategoricalNb::params().alpha(alpha).n_levels(levels)
}

/// The covariance regulariser of an optional shrinkage weight.
fn shrinkage_of(weight: Option<f64>) -> CovarianceShrinkage {
    weight.map_or(
        CovarianceShrinkage::None,
        CovarianceShrinkage::ScaledIdentity,
    )
}

/// The library's family of a `--family` value.
fn family_of(family: GdtFamily) -> Family {
    match family {
        GdtFamily::Lda => Family::Lda,
        GdtFamily::Qda => Family::Qda,
        GdtFamily::Balls1 => Family::Balls1,
        GdtFamily::Balls2 => Family::Balls2,
        GdtFamily::SharedDiagonal => Family::SharedDiagonal,
    }
}

/// The hybrid's regions from groups of input columns (`a,b;c`): each column's features.
fn region_features(groups: &str, preprocessing: &Preprocessing) -> Result<Vec<Vec<usize>>> {
    let mut first_feature = Vec::with_capacity(preprocessing.columns.len());
    let mut next = 0;
    for column in &preprocessing.columns {
        first_feature.push(next);
        next += column.encoding.n_features();
    }
    let mut regions = Vec::new();
    for group in groups.split(';').filter(|g| !g.trim().is_empty()) {
        let mut region = Vec::new();
        for name in group.split(',').map(str::trim) {
            let Some(j) = preprocessing.columns.iter().position(|c| c.name == name) else {
                bail!(
                    "--regions names the column '{name}', which is not a feature column (they are: {})",
                    preprocessing.column_names().join(", ")
                );
            };
            let width = preprocessing.columns[j].encoding.n_features();
            region.extend(first_feature[j]..first_feature[j] + width);
        }
        regions.push(region);
    }
    Ok(regions)
}
