//! The command line: subcommands, their flags and their help.

use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use gendisc_discriminative::logistic::LogisticSolver;
use gendisc_gdt::Family;

use crate::input::DataArgs;

/// Fit gendisc's generative, discriminative and hybrid classifiers on your own data files, save
/// them as model files, and apply and evaluate them on new data.
#[derive(Debug, Parser)]
#[command(
    name = "gendisc",
    version,
    after_help = "\
Examples:
  gendisc models
  gendisc fit nb --data train.csv --out nb.json
  gendisc fit lr --data train.csv --target class --prior-variance 10 --out lr.json
  gendisc predict --model lr.json --data new.csv --proba --out predictions.csv
  gendisc evaluate --model lr.json --data test.csv --json"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every estimator: its name for `gendisc fit`, the kind of model file it writes, and
    /// what it is.
    #[command(after_help = "Example:\n  gendisc models")]
    Models,
    /// Fit an estimator on a data file and save the model (its labels, the encoding of its
    /// columns and how its fit ended) as a model file.
    #[command(after_help = "\
Examples:
  gendisc fit nb --data train.csv --out nb.json
  gendisc fit logistic-regression --data train.arff --solver glm --out lr.json
  gendisc fit gdt --data train.csv --family qda --lambda 0.25 --out gdt.json
  gendisc fit <MODEL> --help    (the estimator's hyper-parameters and their defaults)")]
    Fit(FitArgs),
    /// Predict the class of each row of a data file with a saved model, as CSV.
    #[command(after_help = "\
Examples:
  gendisc predict --model nb.json --data new.csv
  gendisc predict --model nb.json --data new.csv --proba --out predictions.csv")]
    Predict(PredictArgs),
    /// Score a saved model on a labelled data file: error rate, log loss, Brier score,
    /// calibration error and the confusion matrix.
    #[command(after_help = "\
Examples:
  gendisc evaluate --model nb.json --data test.csv
  gendisc evaluate --model nb.json --data test.csv --json")]
    Evaluate(EvaluateArgs),
    /// Learning curves of generative and discriminative models on your data, and the training
    /// size from which each discriminative model overtakes each generative one.
    #[command(after_help = "\
Example:
  gendisc compare --data table.csv --models nb,lr,hybrid --out comparison")]
    Compare(crate::compare::Args),
}

/// `gendisc fit`.
/// How QDA (and GDT's LDA and QDA families) regularise a covariance `S` (a class's, or LDA's
/// pooled one).
#[derive(Debug, Clone, Copy, Args)]
pub struct CovarianceRegularisation {
    /// Shrink each covariance toward the scaled identity by this weight:
    /// `(1 − γ) S + γ (tr S / d) I`, which does not depend on the data's units [default: no
    /// shrinkage].
    #[arg(long, value_name = "WEIGHT", conflicts_with = "reg_param")]
    pub shrinkage: Option<f64>,
    /// Regularise each covariance toward the identity: `(1 − r) S + r I`, scikit-learn's
    /// `QuadraticDiscriminantAnalysis(reg_param = r)` (it adds variance in the data's units,
    /// so standardise first if the columns' scales differ) [default: none].
    #[arg(long, value_name = "R")]
    pub reg_param: Option<f64>,
}

impl CovarianceRegularisation {
    /// Whether neither flag is given: the covariances are fitted as they are.
    pub fn is_none(self) -> bool {
        self.shrinkage.is_none() && self.reg_param.is_none()
    }

    /// The library's regulariser.
    pub fn covariance_shrinkage(self) -> gendisc_generative::CovarianceShrinkage {
        use gendisc_generative::CovarianceShrinkage;
        match (self.reg_param, self.shrinkage) {
            (Some(r), _) => CovarianceShrinkage::Identity(r),
            (None, Some(gamma)) => CovarianceShrinkage::ScaledIdentity(gamma),
            (None, None) => CovarianceShrinkage::None,
        }
    }
}

/// GDT's regularisation (`fit gdt`, `fit gdt-cv`): its LDA and QDA families' covariances, its
/// Balls2 family's variance floor.
#[derive(Debug, Clone, Copy, Args)]
pub struct GdtRegularisation {
    /// LDA and QDA families: `--shrinkage` or `--reg-param` (the weight must be below 1).
    #[command(flatten)]
    pub covariance: CovarianceRegularisation,
    /// Balls2 family: the smallest component variance, relative to the largest input variance
    /// of the training rows [default: 0, none]. Without a floor the joint likelihood is
    /// unbounded (a component can shrink onto one row), so a fit at 0 < λ < 1 may follow such
    /// a spike to its iteration cap; the Bouchard–Triggs reproduction uses 0.01.
    #[arg(
        long,
        default_value_t = 0.0,
        value_name = "R",
        hide_default_value = true
    )]
    pub variance_floor: f64,
}

impl GdtRegularisation {
    /// `params` with this regularisation.
    pub fn apply(self, params: gendisc_gdt::GdtParams) -> gendisc_gdt::GdtParams {
        params
            .shrinkage(self.covariance.covariance_shrinkage())
            .variance_floor(self.variance_floor)
    }
}

#[derive(Debug, Args)]
pub struct FitArgs {
    /// The estimator (see `gendisc models`).
    #[command(subcommand)]
    pub estimator: Estimator,
}

/// What every fit reads and writes.
#[derive(Debug, Clone, Args)]
pub struct FitCommon {
    /// The training data.
    #[command(flatten)]
    pub data: DataArgs,
    /// Where to write the model file (JSON).
    #[arg(long, short, value_name = "FILE")]
    pub out: PathBuf,
    /// Fail, saving nothing, when the fit has a warning (it did not converge, has no finite
    /// estimate on separated data, or a class has a single training row) instead of printing
    /// it as a `warning:` line and saving the model.
    #[arg(long, alias = "require-convergence")]
    pub strict: bool,
    /// Centre and scale every numeric feature by its training mean and standard deviation
    /// before fitting, and record both in the model file so that `predict` and `evaluate`
    /// replay them. For the models that depend on the units of their inputs (the linear SVM,
    /// logistic regression with a prior, the hybrid's weights prior, Balls1 and Balls2, QDA's
    /// --reg-param); not for the count, 0/1 and categorical naive Bayes models or the
    /// bilevel classifier, whose prior is in the data's units.
    #[arg(long, alias = "standardise")]
    pub standardize: bool,
}

/// The estimators `gendisc fit` knows, each with its hyper-parameters.
#[derive(Debug, Subcommand)]
pub enum Estimator {
    /// Naive Bayes of the kind that suits the columns: categorical naive Bayes when every
    /// feature is categorical, Bernoulli when every feature is 0/1, Gaussian otherwise
    /// (categorical columns one-hot).
    #[command(after_help = "Example:\n  gendisc fit nb --data train.csv --out nb.json")]
    Nb {
        #[command(flatten)]
        fit: FitCommon,
        /// The pseudo-count of the categorical and Bernoulli models (1: Laplace smoothing).
        #[arg(long, default_value_t = 1.0)]
        alpha: f64,
        /// The Gaussian model's variance floor, relative to the largest feature variance.
        #[arg(long, default_value_t = 1e-9)]
        var_smoothing: f64,
    },
    /// Gaussian naive Bayes.
    #[command(
        after_help = "Example:\n  gendisc fit gaussian-nb --data train.csv --var-smoothing 1e-6 --out nb.json"
    )]
    GaussianNb {
        #[command(flatten)]
        fit: FitCommon,
        /// The variance floor, relative to the largest feature variance.
        #[arg(long, default_value_t = 1e-9)]
        var_smoothing: f64,
    },
    /// Bernoulli naive Bayes (features 0/1).
    #[command(
        after_help = "Example:\n  gendisc fit bernoulli-nb --data words.csv --alpha 0.5 --out nb.json"
    )]
    BernoulliNb {
        #[command(flatten)]
        fit: FitCommon,
        /// The pseudo-count (1: Laplace smoothing).
        #[arg(long, default_value_t = 1.0)]
        alpha: f64,
    },
    /// Categorical naive Bayes (every column read as categories).
    #[command(
        after_help = "Example:\n  gendisc fit categorical-nb --data survey.arff --out nb.json"
    )]
    CategoricalNb {
        #[command(flatten)]
        fit: FitCommon,
        /// The pseudo-count (1: Laplace smoothing).
        #[arg(long, default_value_t = 1.0)]
        alpha: f64,
    },
    /// Multinomial naive Bayes (features are non-negative counts).
    #[command(
        after_help = "Example:\n  gendisc fit multinomial-nb --data counts.libsvm --out nb.json"
    )]
    MultinomialNb {
        #[command(flatten)]
        fit: FitCommon,
        /// The pseudo-count (1: add-one smoothing).
        #[arg(long, default_value_t = 1.0)]
        alpha: f64,
    },
    /// Linear discriminant analysis (Gaussian classes, one shared covariance).
    #[command(
        after_help = "Example:\n  gendisc fit lda --data train.csv --shrinkage 0.1 --out lda.json"
    )]
    Lda {
        #[command(flatten)]
        fit: FitCommon,
        /// How the discriminant is computed: `svd` (scikit-learn's default; fits collinear and
        /// constant columns, writes an `lda-svd` model without a density) or `covariance` (the
        /// generative model with the pooled covariance inverted, an `lda` model) [default:
        /// `svd`, or `covariance` with --shrinkage].
        #[arg(long, value_enum)]
        solver: Option<LdaSolverArg>,
        /// Shrink the pooled covariance toward the scaled identity by this weight in [0, 1]
        /// (the covariance solver) [default: no shrinkage].
        #[arg(long, value_name = "WEIGHT")]
        shrinkage: Option<f64>,
    },
    /// Quadratic discriminant analysis (Gaussian classes, a covariance each).
    #[command(
        after_help = "Example:\n  gendisc fit qda --data train.csv --shrinkage 0.1 --out qda.json"
    )]
    Qda {
        #[command(flatten)]
        fit: FitCommon,
        #[command(flatten)]
        regularisation: CovarianceRegularisation,
    },
    /// Balls1: a spherical Gaussian per class.
    #[command(after_help = "Example:\n  gendisc fit balls1 --data train.csv --out balls1.json")]
    Balls1 {
        #[command(flatten)]
        fit: FitCommon,
        /// The variance floor, relative to the largest feature variance.
        #[arg(long, default_value_t = 1e-9)]
        var_smoothing: f64,
    },
    /// Balls2: a mixture of two spherical Gaussians per class, fitted by EM.
    #[command(
        after_help = "Example:\n  gendisc fit balls2 --data train.csv --seed 3 --out balls2.json"
    )]
    Balls2 {
        #[command(flatten)]
        fit: FitCommon,
        /// The cap on EM iterations per class.
        #[arg(long, default_value_t = 500)]
        max_iterations: usize,
        /// EM's relative convergence tolerance.
        #[arg(long, default_value_t = 1e-8)]
        tolerance: f64,
        /// Start EM by k-means++ with this seed (it depends on the order of the rows) instead
        /// of the default principal split, which does not.
        #[arg(long)]
        seed: Option<u64>,
        /// The variance floor, relative to the largest feature variance.
        #[arg(long, default_value_t = 1e-9)]
        var_smoothing: f64,
    },
    /// Logistic regression (multinomial for more than two classes), by maximum likelihood or
    /// with a Gaussian (L2) prior on the weights.
    #[command(visible_alias = "lr")]
    #[command(
        after_help = "Examples:\n  gendisc fit lr --data train.csv --prior-variance 10 --out lr.json\n  gendisc fit lr --data train.csv --prior-variance cv --out lr.json"
    )]
    LogisticRegression {
        #[command(flatten)]
        fit: FitCommon,
        /// The variance of the Gaussian prior on the weights (an L2 penalty of 1/(2 variance)),
        /// or `cv` to choose it by stratified cross-validation of the log loss over `--cv-grid`
        /// [default: no prior, maximum likelihood].
        #[arg(long, value_name = "VARIANCE|cv")]
        prior_variance: Option<PriorVarianceArg>,
        /// With `--prior-variance cv`: the candidate variances, comma-separated [default: ten
        /// values log-spaced from 1e-4 to 1e4, as scikit-learn's LogisticRegressionCV].
        #[arg(long, value_delimiter = ',', value_name = "VARIANCES")]
        cv_grid: Option<Vec<f64>>,
        /// With `--prior-variance cv`: how the folds are drawn and the variance chosen.
        #[command(flatten)]
        cv: CrossValidationArgs,
        /// The solver; `glm` is R's glm.fit (binary, no prior).
        #[arg(long, value_parser = logistic_solver(), ignore_case = true, default_value = "auto")]
        solver: LogisticSolver,
        /// The iteration cap [default: the solver's].
        #[arg(long, value_name = "N")]
        max_iterations: Option<usize>,
        /// The convergence tolerance [default: the solver's].
        #[arg(long, value_name = "TOL")]
        tolerance: Option<f64>,
        /// Fit without an intercept.
        #[arg(long)]
        no_intercept: bool,
    },
    /// Linear support vector machine (hinge loss, one-vs-rest for more than two classes).
    #[command(
        after_help = "Example:\n  gendisc fit linear-svm --data train.csv --c 0.5 --out svm.json"
    )]
    LinearSvm {
        #[command(flatten)]
        fit: FitCommon,
        /// The soft-margin penalty C.
        #[arg(long, default_value_t = 1.0)]
        c: f64,
        /// A hard margin instead (fails on data that are not separable).
        #[arg(long, conflicts_with = "c")]
        hard_margin: bool,
        /// The stopping tolerance on the projected gradient.
        #[arg(long = "tolerance", alias = "tol", default_value_t = 1e-4)]
        tol: f64,
        /// The cap on outer iterations.
        #[arg(long = "max-iterations", alias = "max-iter", default_value_t = 1000)]
        max_iter: usize,
        /// The seed of the coordinate order.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Raina et al.'s hybrid: a naive Bayes model per region of columns, the regions weighted
    /// discriminatively.
    #[command(
        after_help = "Example:\n  gendisc fit hybrid --data train.csv --regions \"a,b;c,d\" --out hybrid.json"
    )]
    Hybrid {
        #[command(flatten)]
        fit: FitCommon,
        /// The naive Bayes model of each region.
        #[arg(long, value_enum, default_value_t = HybridBase::Gaussian)]
        generative: HybridBase,
        /// The regions: groups of input columns separated by `;`, columns by `,`, e.g.
        /// `a,b;c` [default: one region per column, each weighted on its own, as in `gendisc
        /// compare`: on a table the columns are the natural units; Raina et al. group a
        /// document's words by section].
        #[arg(long, value_name = "GROUPS")]
        regions: Option<String>,
        /// Unnormalized region features (the log-likelihood ratio not divided by the region's
        /// size).
        #[arg(long)]
        unnormalized: bool,
        /// Fit the region weights on leave-one-out features.
        #[arg(long)]
        leave_one_out: bool,
        /// The variance of a Gaussian prior on the region weights [default: none].
        #[arg(long, value_name = "VARIANCE")]
        prior_variance: Option<f64>,
    },
    /// Bouchard and Triggs' generative-discriminative trade-off at a given λ (1: generative,
    /// 0: discriminative).
    #[command(
        after_help = "Example:\n  gendisc fit gdt --data train.csv --family qda --lambda 0.25 --out gdt.json"
    )]
    Gdt {
        #[command(flatten)]
        fit: FitCommon,
        /// The generative family.
        #[arg(long, value_parser = gdt_family(), ignore_case = true, default_value = "LDA")]
        family: Family,
        /// The trade-off λ in [0, 1].
        #[arg(long, default_value_t = 0.5)]
        lambda: f64,
        /// The optimiser of the trade-off objective.
        #[arg(long, value_enum, default_value_t = GdtSolverArg::Auto)]
        solver: GdtSolverArg,
        /// LDA and QDA families: regularise the covariances in the generative start and, as a
        /// log-prior on the precisions weighted by λ, in the objective; what lets collinear or
        /// constant columns fit. Balls2: a floor on the component variances.
        #[command(flatten)]
        regularisation: GdtRegularisation,
    },
    /// The generative-discriminative trade-off with λ chosen by stratified cross-validation.
    #[command(
        after_help = "Example:\n  gendisc fit gdt-cv --data train.csv --family lda --grid 1,0.5,0 --out gdt.json"
    )]
    GdtCv {
        #[command(flatten)]
        fit: FitCommon,
        /// The generative family.
        #[arg(long, value_parser = gdt_family(), ignore_case = true, default_value = "LDA")]
        family: Family,
        /// The candidate values of λ, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "1,0.75,0.5,0.25,0")]
        grid: Vec<f64>,
        /// How the folds are drawn and λ chosen.
        #[command(flatten)]
        cv: CrossValidationArgs,
        /// The optimiser of every fit, as for `fit gdt`.
        #[arg(long, value_enum, default_value_t = GdtSolverArg::Auto)]
        solver: GdtSolverArg,
        /// The regularisation of every fit, as for `fit gdt`.
        #[command(flatten)]
        regularisation: GdtRegularisation,
    },
    /// Epshteyn & DeJong's max-margin classifier constrained by a generative prior on the
    /// class means (two classes), fitted by alternating second-order cone programs.
    ///
    /// The prior is a CSV file with the header `feature,class,mean,variance` and one row per
    /// feature and class: the hyper-prior mean `t` and variance (the diagonal of `Ω`) of that
    /// class's mean of that feature. Features are named as `gendisc fit` names them (the
    /// column, or `column=level` for a category's indicator), classes by their labels.
    #[command(
        after_help = "Example:\n  gendisc fit bilevel --data train.csv --prior prior.csv --out bilevel.json"
    )]
    Bilevel {
        #[command(flatten)]
        fit: FitCommon,
        /// The prior: a CSV file `feature,class,mean,variance`.
        #[arg(long, value_name = "FILE")]
        prior: PathBuf,
        /// β of the prior constraints (4.13)–(4.14).
        #[arg(long, default_value_t = 0.2)]
        beta: f64,
        /// φ of the hyper-prior constraint (4.16).
        #[arg(long, default_value_t = 0.01)]
        phi: f64,
        /// The hard-margin program (4.10)–(4.14) instead of the soft one; fails on data no
        /// hyperplane separates.
        #[arg(long, conflicts_with_all = ["c1", "c2", "c3"])]
        hard_margin: bool,
        /// C₁: the cost of the margin violations.
        #[arg(long, default_value_t = 1.0)]
        c1: f64,
        /// C₂: the cost of the prior violations.
        #[arg(long, default_value_t = 1.0)]
        c2: f64,
        /// C₃: the cost of the hyper-prior violations (`inf` keeps (4.19) hard).
        #[arg(long, default_value_t = f64::INFINITY)]
        c3: f64,
        /// The cap on alternations.
        #[arg(long = "max-iterations", alias = "max-iter", default_value_t = gendisc_bilevel::DEFAULT_MAX_ITER)]
        max_iter: usize,
        /// Stop when the parameters change by at most this, relative to their size.
        #[arg(long = "tolerance", alias = "tol", default_value_t = gendisc_bilevel::DEFAULT_TOL)]
        tol: f64,
    },
}

impl Estimator {
    /// The data and output arguments of the fit.
    pub fn common(&self) -> &FitCommon {
        match self {
            Estimator::Nb { fit, .. }
            | Estimator::GaussianNb { fit, .. }
            | Estimator::BernoulliNb { fit, .. }
            | Estimator::CategoricalNb { fit, .. }
            | Estimator::MultinomialNb { fit, .. }
            | Estimator::Lda { fit, .. }
            | Estimator::Qda { fit, .. }
            | Estimator::Balls1 { fit, .. }
            | Estimator::Balls2 { fit, .. }
            | Estimator::LogisticRegression { fit, .. }
            | Estimator::LinearSvm { fit, .. }
            | Estimator::Hybrid { fit, .. }
            | Estimator::Gdt { fit, .. }
            | Estimator::GdtCv { fit, .. }
            | Estimator::Bilevel { fit, .. } => fit,
        }
    }
}

/// The prior variance of logistic regression: a value, or chosen by cross-validation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PriorVarianceArg {
    /// This variance.
    Fixed(f64),
    /// Chosen by cross-validation.
    CrossValidated,
}

impl std::str::FromStr for PriorVarianceArg {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        if text.eq_ignore_ascii_case("cv") {
            return Ok(PriorVarianceArg::CrossValidated);
        }
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() && v > 0.0 => Ok(PriorVarianceArg::Fixed(v)),
            _ => Err(format!(
                "expected a finite variance > 0 or `cv`, got `{text}`"
            )),
        }
    }
}

/// How a cross-validated fit draws its folds and picks from the curve (`fit lr --prior-variance
/// cv`, `fit gdt-cv`).
#[derive(Debug, Clone, Args)]
pub struct CrossValidationArgs {
    /// The number of folds of the stratified k-fold split.
    #[arg(
        long = "cv-folds",
        alias = "folds",
        default_value_t = 5,
        value_name = "K"
    )]
    pub folds: usize,
    /// Repeat the k-fold split this many times, each drawn anew, and average over all folds.
    #[arg(long = "cv-repeats", default_value_t = 1, value_name = "R")]
    pub repeats: usize,
    /// The seed of the fold split.
    #[arg(
        long = "cv-seed",
        alias = "seed",
        default_value_t = 0,
        value_name = "SEED"
    )]
    pub seed: u64,
    /// Which value the cross-validated curve selects: `min`, the smallest mean score, or
    /// `one-se`, the most regularised value (smallest σ², largest λ) within one standard error
    /// of it.
    #[arg(long = "cv-rule", value_enum, default_value_t = CvRuleArg::Min)]
    pub rule: CvRuleArg,
}

/// The selection rules of `--cv-rule`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CvRuleArg {
    /// The smallest mean held-out score.
    Min,
    /// The one-standard-error rule.
    OneSe,
}

impl CvRuleArg {
    /// The library's rule.
    pub fn rule(self) -> gendisc_data::cv::SelectionRule {
        match self {
            CvRuleArg::Min => gendisc_data::cv::SelectionRule::MinimumScore,
            CvRuleArg::OneSe => gendisc_data::cv::SelectionRule::OneStandardError,
        }
    }
}

/// LDA's solvers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LdaSolverArg {
    /// Singular-value decompositions of the scaled within-class data and class means.
    Svd,
    /// The pooled covariance's Cholesky factor.
    Covariance,
}

/// GDT's optimisers (`--solver` of `fit gdt` and `fit gdt-cv`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GdtSolverArg {
    /// Trust-region Newton while the Hessian is affordable, else L-BFGS finished by Newton;
    /// on whitened inputs for LDA, QDA and the shared diagonal.
    Auto,
    /// Trust-region Newton with the analytic Hessian, however many parameters.
    TrustRegion,
    /// L-BFGS, on whitened inputs where the family allows.
    Lbfgs,
    /// The paper's conjugate gradient (Polak–Ribière+, value tolerance 1e-10, at most 1000
    /// iterations) on the parameters as they are; its value test often stops short of the
    /// optimum, which the fit reports as stalled.
    PaperCg,
}

impl GdtSolverArg {
    /// `params` with this optimiser.
    pub fn apply(self, params: gendisc_gdt::GdtParams) -> gendisc_gdt::GdtParams {
        use gendisc_gdt::Method;
        let auto = match gendisc_gdt::default_method() {
            Method::Auto(auto) => auto,
            _ => unreachable!("GDT's default method is Auto"),
        };
        match self {
            GdtSolverArg::Auto => params.solver(Method::Auto(auto)),
            GdtSolverArg::TrustRegion => params.solver(Method::TrustRegion(auto.trust_region)),
            GdtSolverArg::Lbfgs => params.solver(Method::Lbfgs(auto.lbfgs)),
            GdtSolverArg::PaperCg => params
                .solver(gendisc_gdt::paper_conjugate_gradient())
                .whiten_inputs(false),
        }
    }
}

/// The naive Bayes models the hybrid is built on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HybridBase {
    /// Gaussian naive Bayes.
    Gaussian,
    /// Bernoulli naive Bayes (0/1 features).
    Bernoulli,
    /// Categorical naive Bayes (columns read as categories).
    Categorical,
    /// Multinomial naive Bayes (counts).
    Multinomial,
}

/// `--family`: a GDT family by its name, case-insensitively, as [`Family`]'s `FromStr` reads
/// it, with each family's description in the help.
fn gdt_family() -> impl TypedValueParser<Value = Family> {
    PossibleValuesParser::new(
        Family::ALL.map(|family| PossibleValue::new(family.name()).help(family.description())),
    )
    .map(|name| name.parse::<Family>().expect("one of the listed families"))
}

/// `--solver` of logistic regression: a solver by its short name, as [`LogisticSolver`]'s
/// `FromStr` reads it, with each solver's description in the help.
fn logistic_solver() -> impl TypedValueParser<Value = LogisticSolver> {
    PossibleValuesParser::new(
        LogisticSolver::ALL
            .map(|solver| PossibleValue::new(solver.name()).help(solver.description())),
    )
    .map(|name| {
        name.parse::<LogisticSolver>()
            .expect("one of the listed solvers")
    })
}

/// `gendisc predict`.
#[derive(Debug, Args)]
pub struct PredictArgs {
    /// The model file written by `gendisc fit`.
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// The rows to classify (the class column may be absent).
    #[command(flatten)]
    pub data: DataArgs,
    /// Add one column of probabilities per class label.
    #[arg(long)]
    pub proba: bool,
    /// Write the CSV here [default: standard output].
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `gendisc evaluate`.
#[derive(Debug, Args)]
pub struct EvaluateArgs {
    /// The model file written by `gendisc fit`.
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// The labelled rows to score the model on.
    #[command(flatten)]
    pub data: DataArgs,
    /// Print the scores as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}
