//! `gendisc models` and `gendisc fit`: the estimators, their hyper-parameters, and fitting and
//! saving one.

use std::path::Path;

use anyhow::{bail, Context, Result};
use gendisc_bilevel::{BilevelClassifier, GenerativePrior};
use gendisc_core::{
    ColumnEncoding, CrossValidationCurve, Fit, FitSummary, LabelledModel, Preprocessing, SavedModel,
};
use gendisc_data::encoding::CategoricalAs;
use gendisc_discriminative::{LinearSvm, LogisticRegression, LogisticRegressionCv};
use gendisc_gdt::{Family, Gdt, GdtCv};
use gendisc_generative::{
    Balls1, Balls2, BernoulliNb, CategoricalNb, CovarianceShrinkage, GaussianNb, Lda, LdaSvd,
    MultinomialNb, Qda,
};
use gendisc_hybrid::{HybridParams, Normalization};
use ndarray::Array1;
use serde::Deserialize;

use crate::cli::{Estimator, FitArgs, HybridBase, LdaSolverArg, PriorVarianceArg};
use crate::input::{self, Training};

/// Every estimator: its name for `gendisc fit`, the kind of model file it writes (the model's
/// own [`SavedModel::KIND`] where it writes one kind), and what it is.
pub const ESTIMATORS: [(&str, &str, &str); 15] = [
    (
        "nb",
        "(chosen)",
        "naive Bayes suited to the columns: categorical, Bernoulli or Gaussian",
    ),
    (
        "gaussian-nb",
        GaussianNb::KIND,
        "Gaussian naive Bayes",
    ),
    (
        "bernoulli-nb",
        BernoulliNb::KIND,
        "Bernoulli naive Bayes for 0/1 features",
    ),
    (
        "categorical-nb",
        CategoricalNb::KIND,
        "categorical naive Bayes, columns read as categories",
    ),
    (
        "multinomial-nb",
        MultinomialNb::KIND,
        "multinomial naive Bayes for counts",
    ),
    (
        "lda",
        LdaSvd::KIND,
        "linear discriminant analysis: Gaussian classes, one shared covariance (`lda` with \
         --solver covariance)",
    ),
    (
        "qda",
        Qda::KIND,
        "quadratic discriminant analysis: a Gaussian covariance per class",
    ),
    ("balls1", Balls1::KIND, "a spherical Gaussian per class"),
    (
        "balls2",
        Balls2::KIND,
        "a mixture of two spherical Gaussians per class (EM)",
    ),
    (
        "logistic-regression, lr",
        "logistic-regression(-cv)",
        "logistic regression: maximum likelihood (glm mode), or a Gaussian (L2) prior of given or cross-validated variance",
    ),
    (
        "linear-svm",
        LinearSvm::KIND,
        "linear support vector machine (hinge loss)",
    ),
    (
        "hybrid",
        "hybrid-<base>-naive-bayes",
        "Raina et al.'s hybrid: naive Bayes regions weighted discriminatively",
    ),
    (
        "gdt",
        Gdt::KIND,
        "Bouchard & Triggs' generative-discriminative trade-off at a given lambda",
    ),
    (
        "gdt-cv",
        GdtCv::KIND,
        "the generative-discriminative trade-off, lambda chosen by cross-validation",
    ),
    (
        "bilevel",
        BilevelClassifier::KIND,
        "Epshteyn & DeJong's max-margin classifier with a generative prior (two classes)",
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
        // Unregularised fits with an intercept, or Gaussian classes with a full covariance:
        // beside the intercept (or within every class) an indicator of every level is
        // collinear, so that glm's estimate would not be identified and the covariances would
        // be singular. R's glm and MASS's lda code a factor so.
        Estimator::LogisticRegression {
            prior_variance: None,
            ..
        }
        | Estimator::Lda {
            solver: Some(LdaSolverArg::Covariance),
            shrinkage: None,
            ..
        } => CategoricalAs::Treatment,
        Estimator::Qda { regularisation, .. } if regularisation.is_none() => {
            CategoricalAs::Treatment
        }
        Estimator::Gdt {
            family: Family::Lda | Family::Qda,
            regularisation,
            ..
        }
        | Estimator::GdtCv {
            family: Family::Lda | Family::Qda,
            regularisation,
            ..
        } if regularisation.covariance.is_none() => CategoricalAs::Treatment,
        _ => CategoricalAs::OneHot,
    };
    let mut data = input::training(&common.data, table.as_ref(), categorical)?;
    if common.standardize {
        if let Some(why) = not_standardisable(estimator) {
            bail!("--standardize does not apply to {why}");
        }
        data.preprocessing.standardise(data.x.view_mut());
    }
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
        Estimator::Lda {
            solver, shrinkage, ..
        } => match (solver, shrinkage) {
            (Some(LdaSolverArg::Svd), Some(_)) => bail!(
                "--shrinkage regularises the covariance solver; the SVD solver fits collinear \
                 and constant columns without it (give --solver covariance, or leave out \
                 --shrinkage)"
            ),
            (Some(LdaSolverArg::Svd), None) | (None, None) => {
                save(&LdaSvd::params(), &data, common)
            }
            (Some(LdaSolverArg::Covariance), _) | (None, Some(_)) => save(
                &Lda::params().shrinkage(shrinkage_of(*shrinkage)),
                &data,
                common,
            ),
        },
        Estimator::Qda { regularisation, .. } => save(
            &Qda::params().regularization(regularisation.covariance_shrinkage()),
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
        } => {
            let params = Balls2::params()
                .max_iterations(*max_iterations)
                .tolerance(*tolerance)
                .var_smoothing(*var_smoothing);
            let params = match seed {
                Some(seed) => params.seed(*seed),
                None => params,
            };
            save(&params, &data, common)
        }
        Estimator::LogisticRegression {
            prior_variance,
            cv_grid,
            cv,
            solver,
            max_iterations,
            tolerance,
            no_intercept,
            ..
        } => {
            let mut params = LogisticRegression::params()
                .fit_intercept(!no_intercept)
                .solver(*solver);
            if let Some(cap) = max_iterations {
                params = params.max_iterations(*cap);
            }
            if let Some(tolerance) = tolerance {
                params = params.tolerance(*tolerance);
            }
            if cv_grid.is_some() && *prior_variance != Some(PriorVarianceArg::CrossValidated) {
                bail!("--cv-grid applies only with --prior-variance cv");
            }
            match prior_variance {
                None => save(&params, &data, common),
                Some(PriorVarianceArg::Fixed(variance)) => {
                    save(&params.prior_variance(*variance), &data, common)
                }
                Some(PriorVarianceArg::CrossValidated) => {
                    let mut params = LogisticRegressionCv::params()
                        .logistic(params)
                        .n_folds(cv.folds)
                        .n_repeats(cv.repeats)
                        .seed(cv.seed)
                        .rule(cv.rule.rule());
                    if let Some(grid) = cv_grid {
                        params = params.prior_variances(grid.clone());
                    }
                    save(&params, &data, common)
                }
            }
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
            // One region per input column unless --regions groups them: the same hybrid as
            // `gendisc compare`'s.
            let regions = match regions {
                Some(groups) => region_features(groups, &data.preprocessing)?,
                None => column_regions(&data.preprocessing),
            };
            let mut settings = HybridParams::new(())
                .regions(regions)
                .normalization(if *unnormalized {
                    Normalization::Unnormalized
                } else {
                    Normalization::Normalized
                })
                .leave_one_out(*leave_one_out);
            if let Some(variance) = prior_variance {
                settings = settings.prior_variance(*variance);
            }
            match generative {
                HybridBase::Gaussian => save(
                    &settings.with_generative(GaussianNb::params()),
                    &data,
                    common,
                ),
                HybridBase::Bernoulli => save(
                    &settings.with_generative(BernoulliNb::params()),
                    &data,
                    common,
                ),
                HybridBase::Categorical => save(
                    &settings.with_generative(categorical_nb(1.0, &data.preprocessing)),
                    &data,
                    common,
                ),
                HybridBase::Multinomial => save(
                    &settings.with_generative(MultinomialNb::params()),
                    &data,
                    common,
                ),
            }
        }
        Estimator::Gdt {
            family,
            lambda,
            solver,
            regularisation,
            ..
        } => save(
            &solver.apply(regularisation.apply(Gdt::params(*family).lambda(*lambda))),
            &data,
            common,
        ),
        Estimator::GdtCv {
            family,
            grid,
            cv,
            solver,
            regularisation,
            ..
        } => save(
            &GdtCv::params(*family)
                .gdt(solver.apply(regularisation.apply(Gdt::params(*family))))
                .grid(grid.clone())
                .n_folds(cv.folds)
                .n_repeats(cv.repeats)
                .seed(cv.seed)
                .rule(cv.rule.rule()),
            &data,
            common,
        ),
        Estimator::Bilevel {
            prior,
            beta,
            phi,
            hard_margin,
            c1,
            c2,
            c3,
            max_iter,
            tol,
            ..
        } => {
            let prior = read_bilevel_prior(prior, &data)?;
            let params = BilevelClassifier::params(prior)
                .beta(*beta)
                .phi(*phi)
                .max_iter(*max_iter)
                .tol(*tol);
            let params = if *hard_margin {
                params.hard_margin()
            } else {
                params.soft_margin(*c1, *c2, *c3)
            };
            save(&params, &data, common)
        }
    }?;
    report(&saved, &data, common)
}

/// One row of a bilevel prior file.
#[derive(Debug, Deserialize)]
struct PriorRow {
    feature: String,
    class: String,
    mean: f64,
    variance: f64,
}

/// Reads the bilevel classifier's diagonal prior (`feature,class,mean,variance`, one row per
/// feature of the training data and class) in the order of the features and of the sorted
/// labels; a missing, repeated or unknown feature or class is an error naming the file and
/// line.
fn read_bilevel_prior(path: &Path, data: &Training) -> Result<GenerativePrior> {
    let mut classes: Vec<&str> = data.labels.iter().map(String::as_str).collect();
    classes.sort_unstable();
    classes.dedup();
    if classes.len() != 2 {
        bail!(
            "the bilevel classifier separates two classes; the data have {} ({})",
            classes.len(),
            classes.join(", ")
        );
    }
    let n = data.feature_names.len();
    let mut t = [
        Array1::from_elem(n, f64::NAN),
        Array1::from_elem(n, f64::NAN),
    ];
    let mut omega = t.clone();
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_path(path)
        .with_context(|| format!("cannot read the prior {}", path.display()))?;
    for (i, row) in reader.deserialize::<PriorRow>().enumerate() {
        // The header is line 1.
        let line = i + 2;
        let at = || format!("{}:{line}", path.display());
        let row = row.with_context(|| {
            format!(
                "{}: expected `feature,class,mean,variance` with numbers for mean and variance",
                at()
            )
        })?;
        let Some(j) = data.feature_names.iter().position(|f| *f == row.feature) else {
            bail!(
                "{}: the feature '{}' is not a feature of the data (they are: {})",
                at(),
                row.feature,
                data.feature_names.join(", ")
            );
        };
        let Some(k) = classes.iter().position(|c| *c == row.class) else {
            bail!(
                "{}: the class '{}' is not a class of the data (they are: {})",
                at(),
                row.class,
                classes.join(", ")
            );
        };
        if !t[k][j].is_nan() {
            bail!(
                "{}: a second row for feature '{}' and class '{}'",
                at(),
                row.feature,
                row.class
            );
        }
        if !(row.mean.is_finite() && row.variance.is_finite() && row.variance > 0.0) {
            bail!(
                "{}: the mean must be finite and the variance finite and > 0; got {} and {}",
                at(),
                row.mean,
                row.variance
            );
        }
        t[k][j] = row.mean;
        omega[k][j] = row.variance;
    }
    for (k, class) in classes.iter().enumerate() {
        if let Some(j) = t[k].iter().position(|v| v.is_nan()) {
            bail!(
                "{}: no row for feature '{}' and class '{class}'",
                path.display(),
                data.feature_names[j]
            );
        }
    }
    Ok(GenerativePrior::diagonal(t, omega)?)
}

/// What a fit reports: the kind of model written and how its fit ended.
struct Saved {
    kind: &'static str,
    labels: Vec<String>,
    fit: Option<FitSummary>,
    cross_validation: Option<CrossValidationCurve>,
}

/// Why `estimator` cannot be fitted on standardised features, if it cannot: its features must
/// be counts, 0/1 values or categories, or its prior is stated in the data's units.
fn not_standardisable(estimator: &Estimator) -> Option<&'static str> {
    match estimator {
        Estimator::Nb { .. } => Some(
            "`nb`, which chooses its model by the values of the columns (give `gaussian-nb`, \
             which does not depend on their units anyway)",
        ),
        Estimator::BernoulliNb { .. } => Some("Bernoulli naive Bayes: its features are 0/1"),
        Estimator::CategoricalNb { .. } => {
            Some("categorical naive Bayes: its features are categories")
        }
        Estimator::MultinomialNb { .. } => Some("multinomial naive Bayes: its features are counts"),
        Estimator::Hybrid { generative, .. } if *generative != HybridBase::Gaussian => {
            Some("a hybrid of count, 0/1 or categorical naive Bayes")
        }
        Estimator::Bilevel { .. } => {
            Some("the bilevel classifier: its prior on the class means is in the data's units")
        }
        _ => None,
    }
}

/// Fits `params` on the training data and writes the model file.
fn save<P>(params: &P, data: &Training, common: &crate::cli::FitCommon) -> Result<Saved>
where
    P: Fit,
    P::Model: SavedModel + Clone,
{
    let kind = <P::Model as SavedModel>::KIND;
    let model = LabelledModel::fit(params, data.x.view(), &data.labels)
        .map_err(|e| {
            // The library names its settings; the command's flags are spelt otherwise.
            let text = e.to_string();
            // A setting given with a value it cannot take: the error says what it needs, and a
            // hint to give the setting would only contradict it.
            let hint = if matches!(e, gendisc_core::Error::InvalidParameter { .. }) {
                ""
            } else if text.contains("`regularization`")
                || (kind.starts_with("gdt") && text.contains("collinear"))
            {
                " (give --reg-param R or --shrinkage W)"
            } else if text.contains("`shrinkage`") {
                " (give --shrinkage W)"
            } else {
                ""
            };
            let named = match &e {
                gendisc_core::Error::NotPositiveDefinite { columns, .. } if !columns.is_empty() => {
                    let names: Vec<&str> = columns
                        .iter()
                        .filter_map(|&j| data.feature_names.get(j).map(String::as_str))
                        .collect();
                    format!("; the columns: {}", names.join(", "))
                }
                _ => String::new(),
            };
            anyhow::Error::new(e).context(format!(
                "cannot fit {kind} on {}{named}{hint}",
                common.data.data.display()
            ))
        })?
        .with_feature_names(data.feature_names.clone())?
        .with_preprocessing(data.preprocessing.clone())?;
    let mut warnings = single_row_classes(&data.labels);
    warnings.extend(model.model().warnings());
    for warning in &warnings {
        eprintln!("warning: {warning}");
    }
    if common.strict && !warnings.is_empty() {
        bail!(
            "--strict: the fit of {kind} has {} warning(s) (above); the model was not saved",
            warnings.len()
        );
    }
    model
        .save(&common.out)
        .with_context(|| format!("cannot save the model to {}", common.out.display()))?;
    Ok(Saved {
        kind,
        labels: model.labels().to_vec(),
        fit: model.model().fit_summary(),
        cross_validation: model.model().cross_validation(),
    })
}

/// A warning for each class with a single training row: its spread cannot be estimated from
/// it (a generative model puts its variance on the floor), and one row says little of a class.
fn single_row_classes(labels: &[String]) -> Vec<String> {
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for label in labels {
        *counts.entry(label.as_str()).or_default() += 1;
    }
    counts
        .into_iter()
        .filter(|&(_, n)| n == 1)
        .map(|(label, _)| {
            format!(
                "class '{label}' has a single training row: a model cannot estimate its spread \
                 from it"
            )
        })
        .collect()
}

/// Prints the cross-validated curve: one line per grid value, the chosen one marked.
fn print_curve(curve: &CrossValidationCurve) -> Result<()> {
    outln!(
        "cross-validation of the {} ({} rule): mean held-out score ± standard error",
        curve.parameter,
        curve.rule
    );
    for (i, (&value, &score)) in curve.grid.iter().zip(&curve.scores).enumerate() {
        // NaN: a value below every one the folds could choose, which they did not fit.
        let error = curve
            .standard_errors
            .get(i)
            .map_or(String::new(), |e| format!(" ± {e:.4}"));
        let score = if score.is_nan() {
            "not scored".to_owned()
        } else {
            format!("{score:.4}{error}")
        };
        let mark = match curve.excluded.get(i) {
            _ if value == curve.chosen => "  ← chosen".to_owned(),
            Some(Some(why)) => format!("  (not a candidate: {why})"),
            _ => String::new(),
        };
        outln!("  {value:>12.6} {score}{mark}");
    }
    Ok(())
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
    if let Some(curve) = &saved.cross_validation {
        print_curve(curve)?;
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
            ColumnEncoding::Categorical { levels }
            | ColumnEncoding::OneHot { levels }
            | ColumnEncoding::Treatment { levels } => levels.len(),
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

/// One region per input column: its features (one, or a categorical column's indicators).
fn column_regions(preprocessing: &Preprocessing) -> Vec<Vec<usize>> {
    let mut next = 0;
    preprocessing
        .columns
        .iter()
        .map(|column| {
            let width = column.encoding.n_features();
            next += width;
            (next - width..next).collect()
        })
        .collect()
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
