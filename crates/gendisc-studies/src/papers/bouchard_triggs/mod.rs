//! Bouchard & Triggs, *The tradeoff between generative and discriminative classifiers*
//! (COMPSTAT 2004): the GDT estimator `λ L_gen + (1 − λ) L_disc` ([`gendisc_gdt`]) on the two
//! simulations of §4 (Figure 1) and on five Statlog datasets (§5, Table 1).
//!
//! **(a) Figure 1.** Each simulation (Gaussian classes with identity covariance and means
//! `±(1.25, 0, 0, 0)`; correlated uniforms with `y | x ~ Bernoulli(σ(2.5 x_1))` — the paper
//! prints `1/exp(−2.5 x_1)`, not a probability, and we read it as the logistic function, see
//! [`BouchardTriggsSimulation`]) is fitted with the paper's assumed model, Gaussian classes
//! with one shared diagonal covariance and equal priors ([`Family::SharedDiagonal`]), at 21
//! values of `λ` from 0 to 1, on training sets of 50, 100 and 200 rows; the logistic loss is
//! measured on a test set of `10⁵` rows (one per simulation, drawn once from the study seed
//! and shared by all experiments), and the median over 200 experiments is plotted. The λ path
//! is fitted from `λ = 1` down to 0 with warm starts.
//!
//! **(b) Table 1.** australian, diabetes (Pima), heart, satimage and vehicle; training sets
//! of 100, 100, 100, 300 and 200 rows drawn at random (every class present), the rest the test
//! set; inputs reduced to four Fisher/PCA directions fitted on the training rows ([`Reduction`]);
//! LDA, QDA, Balls1 and Balls2 at `λ ∈ {1, 0.75, 0.5, 0.25, 0}`; mean test error over 100
//! trials. The features of australian are used as coded in the Statlog file (its categorical
//! columns as their integer codes). On heart the table also carries the mean misclassification
//! cost, a missed heart disease costing 5 (Statlog's cost matrix), of the same predictions.
//!
//! **(c) GDT-CV**, beyond the paper: per model, `λ` chosen in each trial by 5-fold stratified
//! cross-validation on the training rows over the same grid (error rate; cost on heart), and
//! the fit at `λ̂` on the whole training set evaluated; the chosen `λ̂` is recorded.

mod claims;
mod fisher;
mod inputs;
mod paper;
mod report;

use std::path::Path;

use gendisc_core::numerics::contiguous_dot;
use gendisc_core::{ConditionalModel, Convergence, Error, ParamGuard, Result};
use gendisc_data::generators::BouchardTriggsSimulation;
use gendisc_data::loaders::{dataset_path, Separator, TableReader};
use gendisc_data::splits::{random_split, replicate_rng, Split};
use gendisc_gdt::{
    CvCriterion, Family, Gdt, GdtCv, GdtParams, GdtReport, Method, Priors, TABLE1_GRID,
};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use gendisc_engine::{
    fingerprint, Cell, Key, Outcome, RunnerSettings, Schema, Study, StudyResults,
};

use crate::papers::inputs::same_bits;

pub use fisher::{InputScaling, Reduction};
pub use inputs::{export_figure1_inputs, export_table1_inputs, InputSource};
pub use paper::BouchardTriggs;
pub use report::write_outputs;

/// The study's identifier, also its directory under `results/`.
pub const STUDY_ID: &str = "bouchard-triggs";

/// [`Figure1Metric::Logloss`]'s and [`Table1Metric::Logloss`]'s name.
pub const LOGLOSS: &str = "logloss";
/// [`Figure1Metric::Error`]'s and [`Table1Metric::Error`]'s name.
pub const ERROR: &str = "error";
/// [`Table1Metric::Cost`]'s name.
pub const COST: &str = "cost";
/// [`Table1Metric::Lambda`]'s name.
pub const LAMBDA: &str = "lambda";
/// [`Figure1Metric::Converged`]'s and [`Table1Metric::Converged`]'s name.
pub const CONVERGED: &str = "converged";
/// [`Table1Metric::NoMaximiser`]'s name.
pub const NO_MAXIMISER: &str = "no_maximiser";

/// The metrics of Figure 1's cells, measured for each `λ` of the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure1Metric {
    /// Mean logistic loss on the test set.
    Logloss,
    /// Test error rate.
    Error,
    /// 1 when the fit's optimiser and generative start converged, else 0.
    Converged,
}

impl Key for Figure1Metric {
    const ALL: &'static [Self] = &[Self::Logloss, Self::Error, Self::Converged];

    fn name(self) -> &'static str {
        match self {
            Self::Logloss => LOGLOSS,
            Self::Error => ERROR,
            Self::Converged => CONVERGED,
        }
    }
}

/// The metrics of Table 1's cells, measured for each of its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table1Metric {
    /// Test error rate.
    Error,
    /// Mean misclassification cost on the test set (heart only: a missed disease costs 5).
    Cost,
    /// Mean logistic loss on the test set.
    Logloss,
    /// The `λ` of the fit (chosen by CV for the GDT-CV rows).
    Lambda,
    /// 1 when the fit's optimiser and generative start converged, else 0.
    Converged,
    /// 1 when the fit proved that no finite maximiser exists (λ = 0 on rows separated in the
    /// family's induced features: a certificate, [`gendisc_gdt::existence`]), else 0.
    NoMaximiser,
}

impl Key for Table1Metric {
    const ALL: &'static [Self] = &[
        Self::Error,
        Self::Cost,
        Self::Logloss,
        Self::Lambda,
        Self::Converged,
        Self::NoMaximiser,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::Error => ERROR,
            Self::Cost => COST,
            Self::Logloss => LOGLOSS,
            Self::Lambda => LAMBDA,
            Self::Converged => CONVERGED,
            Self::NoMaximiser => NO_MAXIMISER,
        }
    }
}

/// Cost of a missed heart disease on Statlog heart (its `heart.doc` cost matrix).
pub const HEART_DISEASE_COST: f64 = 5.0;

/// The default relative Balls2 variance floor of Table 1 ([`Settings::balls2_variance_floor`]):
/// no component variance below 1% of the largest input variance, i.e. no component narrower
/// than a tenth of the widest input's standard deviation. Small next to the spread of the
/// classes (EM's fits stay well above it), large enough that a component cannot sit on a
/// handful of rows.
pub const BALLS2_VARIANCE_FLOOR: f64 = 0.01;

/// The configuration of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    /// The study seed.
    pub seed: u64,
    /// Figure 1: training sizes.
    pub figure1_sizes: Vec<usize>,
    /// Figure 1: experiments per simulation and size.
    pub figure1_replicates: usize,
    /// Figure 1: rows of each simulation's test set.
    pub figure1_test_size: usize,
    /// Figure 1: number of `λ` values, evenly spaced on `[0, 1]`.
    pub figure1_lambdas: usize,
    /// Table 1: trials per dataset.
    pub table1_replicates: usize,
    /// Table 1: folds of the cross-validation of the GDT-CV rows.
    pub cv_folds: usize,
    /// The optimiser of every GDT fit; `None` (both presets) is the estimator's default,
    /// [`gendisc_gdt::default_method`] (trust-region Newton with the analytic Hessian).
    /// `Some(gendisc_gdt::paper_conjugate_gradient())` runs the paper's conjugate gradient
    /// instead, on `θ` as it is (not on whitened inputs,
    /// [`GdtParams::whiten_inputs`]), as the paper did. Left out of the run's fingerprint when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solver: Option<Method>,
    /// Table 1: how the four Fisher/PCA inputs are scaled (the paper does not say). Every
    /// family is fitted on inputs scaled this way, and the scale-sensitive families (Balls1,
    /// Balls2) also on inputs scaled the other way ([`table1_blocks`]).
    pub table1_scaling: InputScaling,
    /// Table 1: the relative floor under Balls2's component variances,
    /// `σ² ≥ r · max_j Var(x_j)` on the training inputs ([`GdtParams::variance_floor`]); `0`
    /// is none. Without it a component can shrink onto a few training rows at intermediate λ
    /// and the fit collapses; the paper does not mention one. Balls2 is also run without it
    /// under the default scaling ([`table1_blocks`]), so both are shown.
    pub balls2_variance_floor: f64,
}

impl Settings {
    /// The paper's design: sizes 50, 100, 200, 200 experiments, `10⁵` test rows, 21 values of
    /// `λ`; 100 trials of Table 1; 5-fold CV.
    pub fn paper() -> Self {
        Self {
            seed: 20_040_823,
            figure1_sizes: vec![50, 100, 200],
            figure1_replicates: 200,
            figure1_test_size: 100_000,
            figure1_lambdas: 21,
            table1_replicates: 100,
            cv_folds: 5,
            solver: None,
            table1_scaling: InputScaling::default(),
            balls2_variance_floor: BALLS2_VARIANCE_FLOOR,
        }
    }

    /// The reduced run of continuous integration: 10 experiments per panel on `2·10⁴` test
    /// rows, 11 values of `λ`, and 3 trials per dataset of Table 1.
    pub fn quick() -> Self {
        Self {
            figure1_replicates: 10,
            figure1_test_size: 20_000,
            figure1_lambdas: 11,
            table1_replicates: 3,
            ..Self::paper()
        }
    }

    /// `Gdt::params(family)` with this run's solver, and for a Table 1 block its variance floor.
    fn table1_params(&self, block: &Table1Block) -> GdtParams {
        let params = match block.variant {
            Variant::PaperSolver => Gdt::params(block.family)
                .solver(gendisc_gdt::paper_conjugate_gradient())
                .certify_discriminative_end(false)
                .whiten_inputs(false),
            _ => self.gdt_params(block.family),
        };
        match block.variant {
            _ if block.family != Family::Balls2 => params,
            Variant::NoFloor => params,
            Variant::Default | Variant::OtherScaling | Variant::PaperSolver => {
                params.variance_floor(self.balls2_variance_floor)
            }
        }
    }

    /// `Gdt::params(family)` with this run's solver.
    fn gdt_params(&self, family: Family) -> GdtParams {
        let params = Gdt::params(family);
        match self.solver {
            // Another solver stands for the paper's, which ran on θ as it is.
            Some(solver) => params.solver(solver).whiten_inputs(false),
            None => params,
        }
    }

    /// The λ grid of Figure 1, descending from 1 to 0 (the order of the warm-started path).
    pub fn figure1_grid(&self) -> Vec<f64> {
        let m = self.figure1_lambdas.max(2) - 1;
        (0..=m).map(|i| (m - i) as f64 / m as f64).collect()
    }
}

/// The name of a Figure 1 series: `lambda=0.35`.
pub fn lambda_name(lambda: f64) -> String {
    format!("lambda={lambda:.2}")
}

// ---------------------------------------------------------------------------------------------
// (a) Figure 1
// ---------------------------------------------------------------------------------------------

/// The slope of the log-odds in `x₁` of the correlated-uniform simulation (§4).
const UNIFORM_SLOPE: f64 = 2.5;

/// One row of Figure 1 under one reading of §4: the data it draws and how the paper's assumed
/// model (Gaussian classes with one shared diagonal covariance, [`Family::SharedDiagonal`]) is
/// fitted to them.
///
/// The paper prints the correlated-uniform class probability as `1/exp(−2.5 x₁)`, which is not
/// a probability. Read as the logistic `σ(2.5 x₁)` with `x₁ ∈ [0, 1)`, it makes
/// `P(y = 1) ≈ 0.75`, while the assumed model fixes the priors at `1/K`: the generative end is
/// then misspecified in its intercept, not only (as the paper says of the model's one misfit)
/// in "the differences between the variances". The readings separate the two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Figure1Reading {
    /// The first simulation: Gaussian classes with identity covariance and means
    /// `±(1.25, 0, 0, 0)`, equally likely; priors fixed at `1/K`, which here are the true ones.
    Gaussian,
    /// Reading (a): correlated uniforms with `y | x ~ Bernoulli(σ(2.5 x₁))`, priors fixed at
    /// `1/K` as the paper's model states.
    Uniform,
    /// Reading (b): the data of reading (a), the priors estimated with the other parameters
    /// ([`Priors::Estimated`]), so that the generative end's intercept can follow the class
    /// balance and its misfit is the variances'.
    UniformPriorsEstimated,
    /// Reading (c): the same covariates with the centred logit `y | x ~ Bernoulli(σ(2.5 (x₁ −
    /// ½)))`, so that the classes are balanced and fixed priors `1/K` are right on average.
    UniformCentred,
}

impl Figure1Reading {
    /// Every reading, in the order of the report: the Gaussian row, then the readings of the
    /// correlated-uniform row.
    pub const ALL: [Self; 4] = [
        Self::Gaussian,
        Self::Uniform,
        Self::UniformPriorsEstimated,
        Self::UniformCentred,
    ];

    /// The name of its cells' dataset.
    pub fn name(self) -> &'static str {
        match self {
            Self::Gaussian => BouchardTriggsSimulation::GaussianIdentity.name(),
            Self::Uniform => BouchardTriggsSimulation::CorrelatedUniform.name(),
            Self::UniformPriorsEstimated => "correlated-uniform-priors-estimated",
            Self::UniformCentred => "correlated-uniform-centred",
        }
    }

    /// The name of the data it draws, which seeds its training and test sets: readings that
    /// differ only in the model share their data.
    pub fn data(self) -> &'static str {
        match self {
            Self::Gaussian | Self::Uniform => self.name(),
            Self::UniformPriorsEstimated => Self::Uniform.name(),
            Self::UniformCentred => "correlated-uniform-centred",
        }
    }

    /// The reading as the report names it.
    pub fn label(self) -> &'static str {
        match self {
            Self::Gaussian => "Gaussian classes, priors fixed at 1/K (the true priors)",
            Self::Uniform => "(a) y ~ Bernoulli(σ(2.5 x₁)), priors fixed at 1/K",
            Self::UniformPriorsEstimated => "(b) y ~ Bernoulli(σ(2.5 x₁)), priors estimated",
            Self::UniformCentred => "(c) y ~ Bernoulli(σ(2.5 (x₁ − ½))), priors fixed at 1/K",
        }
    }

    /// A short name: `gaussian`, `a`, `c` (the `reading` column of `fig1.csv`).
    pub fn short(self) -> &'static str {
        match self {
            Self::Gaussian => "gaussian",
            Self::Uniform => "a",
            Self::UniformPriorsEstimated => "b",
            Self::UniformCentred => "c",
        }
    }

    /// The name of its series in the figure and the report's table.
    pub fn short_label(self) -> &'static str {
        match self {
            Self::Gaussian => "Gaussian",
            Self::Uniform => "(a) σ(2.5 x₁), priors 1/K",
            Self::UniformPriorsEstimated => "(b) σ(2.5 x₁), priors estimated",
            Self::UniformCentred => "(c) σ(2.5 (x₁ − ½)), priors 1/K",
        }
    }

    /// What the reading is and why it is run, for the report.
    pub fn description(self) -> &'static str {
        match self {
            Self::Gaussian => {
                "the first simulation; equal class probabilities, so the fixed priors 1/K are \
                 the true ones"
            }
            Self::Uniform => {
                "the paper's model as stated (\"prior probabilities equal to 1/K\") on the \
                 logistic reading of its class probability, P(y = 1) ≈ 0.75"
            }
            Self::UniformPriorsEstimated => {
                "the same data and test set as (a), the class priors estimated with the other \
                 parameters (the GDT's eq. 8 gradient in π), so that the generative end's \
                 intercept can follow the class balance"
            }
            Self::UniformCentred => {
                "the logit centred on the middle of x₁'s range, so that the classes are balanced \
                 (P(y = 1) = ½) and the fixed priors are right: the model's remaining misfit is \
                 the one the paper names, its variances"
            }
        }
    }

    /// Whether it is a reading of the second (correlated-uniform) simulation.
    pub fn is_uniform(self) -> bool {
        self != Self::Gaussian
    }

    /// `n` rows of its data: `n × 4` covariates and labels in `{0, 1}`.
    pub fn sample<R: Rng + ?Sized>(self, n: usize, rng: &mut R) -> (Array2<f64>, Array1<usize>) {
        match self {
            Self::Gaussian => BouchardTriggsSimulation::GaussianIdentity.sample(n, rng),
            Self::Uniform | Self::UniformPriorsEstimated => {
                BouchardTriggsSimulation::CorrelatedUniform.sample(n, rng)
            }
            Self::UniformCentred => {
                // The draw order of the generator: four uniforms, then the label.
                let mut x = Array2::zeros((n, 4));
                let mut y = Array1::zeros(n);
                for (mut row, label) in x.rows_mut().into_iter().zip(y.iter_mut()) {
                    let mut previous = 0.0;
                    for value in row.iter_mut() {
                        previous += rng.random::<f64>();
                        *value = previous;
                    }
                    let p = 1.0 / (1.0 + (-UNIFORM_SLOPE * (row[0] - 0.5)).exp());
                    *label = usize::from(rng.random_bool(p));
                }
                (x, y)
            }
        }
    }

    /// The true log-odds `log p(y = 1 | x) / p(y = 0 | x)` of each row of `x` (`n × 4`).
    pub fn true_log_odds(self, x: ArrayView2<'_, f64>) -> Result<Array1<f64>> {
        match self {
            Self::Gaussian => BouchardTriggsSimulation::GaussianIdentity.true_log_odds(x),
            Self::Uniform | Self::UniformPriorsEstimated => {
                BouchardTriggsSimulation::CorrelatedUniform.true_log_odds(x)
            }
            Self::UniformCentred => Ok(BouchardTriggsSimulation::CorrelatedUniform
                .true_log_odds(x)?
                .mapv(|eta| eta - 0.5 * UNIFORM_SLOPE)),
        }
    }

    /// The parameters of its fits.
    fn gdt_params(self, settings: &Settings) -> GdtParams {
        let params = settings.gdt_params(Family::SharedDiagonal).n_classes(2);
        match self {
            Self::UniformPriorsEstimated => params.priors(Priors::Estimated),
            _ => params,
        }
    }
}

/// Figure 1: every reading of the two simulations, the shared-diagonal Gaussian at every `λ` of
/// the grid.
pub struct Figure1Study {
    settings: Settings,
    grid: Vec<f64>,
    tests: Vec<(Figure1Reading, Array2<f64>, Array1<usize>)>,
    /// Training samples read from files, by data source and size, one per experiment; `None`
    /// when every cell draws its sample from its stream.
    samples: Option<inputs::Samples>,
    source: InputSource,
    schema: Schema,
}

impl Figure1Study {
    /// Draws the test sets from the study seed, one per data source (readings that share their
    /// data share their test set).
    pub fn new(settings: Settings) -> Result<Self> {
        let grid = settings.figure1_grid();
        let schema =
            Schema::with_metrics::<Figure1Metric, _>(grid.iter().map(|&l| lambda_name(l)))?;
        let tests = Figure1Reading::ALL
            .into_iter()
            .map(|reading| {
                let mut rng =
                    replicate_rng(settings.seed, &["test-set".into(), reading.data().into()]);
                let (x, y) = reading.sample(settings.figure1_test_size, &mut rng);
                (reading, x, y)
            })
            .collect();
        Ok(Self {
            settings,
            grid,
            tests,
            samples: None,
            source: InputSource::Seed,
            schema,
        })
    }

    /// The λ grid, descending.
    pub fn grid(&self) -> &[f64] {
        &self.grid
    }

    /// The run's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The mean logistic loss of the true conditional model on the test set of `reading`: the
    /// floor that no fit can beat on average.
    pub fn bayes_logloss(&self, reading: Figure1Reading) -> Result<f64> {
        let (_, x, y) = self.test_set(reading.name())?;
        let eta = reading.true_log_odds(x.view())?;
        mean_binary_logloss(eta.view(), y.view())
    }

    /// The training sample of `reading`'s experiment `replicate` of size `m`: read from files
    /// ([`Figure1Study::with_inputs`]), or else drawn from the stream of the data source's cell
    /// (so that readings of the same data fit the same rows), redrawn from the same stream until
    /// both classes are present, which a fit needs. The cells and the export of the inputs both
    /// take their samples from here.
    fn training_sample(
        &self,
        reading: Figure1Reading,
        m: usize,
        replicate: usize,
    ) -> (Array2<f64>, Array1<usize>) {
        if let Some(sample) = self
            .samples
            .as_ref()
            .and_then(|samples| samples.get(reading.data(), m, replicate))
        {
            return sample;
        }
        self.drawn_sample(reading, m, replicate)
    }

    /// The training sample that the study seed draws (see [`Figure1Study::training_sample`]).
    fn drawn_sample(
        &self,
        reading: Figure1Reading,
        m: usize,
        replicate: usize,
    ) -> (Array2<f64>, Array1<usize>) {
        let mut rng = Cell::new(reading.data(), m, replicate).rng(self.settings.seed);
        loop {
            let (x, y) = reading.sample(m, &mut rng);
            if y.iter().any(|&k| k == 0) && y.iter().any(|&k| k == 1) {
                return (x, y);
            }
        }
    }

    fn test_set(&self, name: &str) -> Result<&(Figure1Reading, Array2<f64>, Array1<usize>)> {
        self.tests
            .iter()
            .find(|(s, _, _)| s.name() == name)
            .ok_or_else(|| Error::invalid_parameter("dataset", format!("unknown dataset `{name}`")))
    }
}

/// `X w + c`: the bits of `x.dot(&w) + c` (each row's product summed as ndarray sums two
/// contiguous vectors, [`contiguous_dot`]) without a view and a call per row, which on
/// Figure 1's 100,000 test rows of four features cost more than the products.
fn affine_scores(x: ArrayView2<'_, f64>, w: ArrayView1<'_, f64>, c: f64) -> Array1<f64> {
    match (x.as_slice(), w.as_slice()) {
        (Some(rows), Some(w)) if !w.is_empty() => rows
            .chunks_exact(w.len())
            .map(|row| contiguous_dot(row, w) + c)
            .collect(),
        _ => x.dot(&w) + c,
    }
}

/// `mean_i log(1 + exp(−s_i η_i))` with `s_i = ±1` for class 1 / 0.
fn mean_binary_logloss(eta: ArrayView1<'_, f64>, y: ArrayView1<'_, usize>) -> Result<f64> {
    Ok(gendisc_metrics::binary_logistic_loss_sum(y, eta)? / y.len() as f64)
}

impl Study for Figure1Study {
    fn id(&self) -> &str {
        "bouchard-triggs-figure1"
    }

    fn fingerprint(&self) -> String {
        // v10: GDT's posteriors take their exponentials from gendisc_core's vectorised
        // `exp_in_place` (within one ulp of libm's), so fits move in their last bits; v9: the
        // test log loss takes its exponentials from gendisc_core's vectorised
        // exp_in_place (within an ulp of libm's; a few cells move in their last bits); v8:
        // GDT's posteriors and Balls2's responsibilities come from their normalisers'
        // exponentials (gradients and Hessians move in their last bits); v7: the test log loss
        // is gendisc_metrics' (one exponential per row, compensated
        // sums), within about 1e-12 of v6's; v6: the induced fit at λ = 0 is solved to a
        // tighter tolerance (v5: GDT's default optimiser is trust-region Newton to the gradient
        // criterion, and λ = 0 is decided by a separation certificate); cells of earlier code
        // differ.
        match &self.source {
            InputSource::Seed => fingerprint(&(STUDY_ID, "figure1 v10", &self.settings)),
            InputSource::Files { digest } => {
                fingerprint(&(STUDY_ID, "figure1 v10", &self.settings, "inputs", digest))
            }
        }
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn cells(&self) -> Vec<Cell> {
        let names: Vec<&str> = Figure1Reading::ALL.iter().map(|r| r.name()).collect();
        Cell::grid(
            &names,
            &self.settings.figure1_sizes,
            self.settings.figure1_replicates,
        )
    }

    fn run_cell(&self, cell: &Cell) -> Result<Outcome> {
        let (reading, x_test, y_test) = self.test_set(&cell.dataset)?;
        let (x, y) = self.training_sample(*reading, cell.train_size, cell.replicate);
        let params = reading.gdt_params(&self.settings).check()?;
        let path = params.fit_path(&self.grid, x.view(), y.view(), None)?;
        let mut outcome = Outcome::new(&self.schema);
        for (j, model) in path.iter().enumerate() {
            // The shared-diagonal model's log-odds are linear: one dot product per test row.
            let eta = match model.linear_coefficients() {
                Some((beta, b)) => {
                    let w = &beta.row(1) - &beta.row(0);
                    affine_scores(x_test.view(), w.view(), b[1] - b[0])
                }
                None => model.decision_function(x_test.view())?,
            };
            outcome.put_at(
                j,
                Figure1Metric::Logloss,
                mean_binary_logloss(eta.view(), y_test.view())?,
            )?;
            let errors = eta
                .iter()
                .zip(y_test.iter())
                .filter(|&(&e, &k)| usize::from(e > 0.0) != k)
                .count();
            outcome.put_at(j, Figure1Metric::Error, errors as f64 / y_test.len() as f64)?;
            outcome.put_at(
                j,
                Figure1Metric::Converged,
                f64::from(u8::from(counts_as_converged(model.report()))),
            )?;
        }
        Ok(outcome)
    }
}

// ---------------------------------------------------------------------------------------------
// (b), (c) Table 1
// ---------------------------------------------------------------------------------------------

/// The five Statlog datasets of Table 1, in the paper's column order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Statlog {
    /// Australian credit approval.
    Australian,
    /// Pima Indians diabetes.
    Diabetes,
    /// Statlog heart.
    Heart,
    /// Landsat satellite image.
    Satimage,
    /// Vehicle silhouettes.
    Vehicle,
}

impl Statlog {
    /// The paper's column order.
    pub const ALL: [Self; 5] = [
        Self::Australian,
        Self::Diabetes,
        Self::Heart,
        Self::Satimage,
        Self::Vehicle,
    ];

    /// The name of the paper's column.
    pub fn name(self) -> &'static str {
        match self {
            Self::Australian => "australian",
            Self::Diabetes => "diabetes",
            Self::Heart => "heart",
            Self::Satimage => "satimage",
            Self::Vehicle => "vehicle",
        }
    }

    /// The training size of Table 1 (50 rows per class).
    pub fn train_size(self) -> usize {
        match self {
            Self::Satimage => 300,
            Self::Vehicle => 200,
            _ => 100,
        }
    }

    /// The files, relative to the data directory.
    pub fn files(self) -> Vec<String> {
        match self {
            Self::Australian => vec!["statlog/australian/australian.dat".into()],
            Self::Diabetes => vec!["uci/pima-indians-diabetes/pima-indians-diabetes.data".into()],
            Self::Heart => vec!["statlog/heart/heart.dat".into()],
            Self::Satimage => vec![
                "statlog/satimage/sat.trn".into(),
                "statlog/satimage/sat.tst".into(),
            ],
            Self::Vehicle => [
                "xaa", "xab", "xac", "xad", "xae", "xaf", "xag", "xah", "xai",
            ]
            .iter()
            .map(|p| format!("statlog/vehicle/{p}.dat"))
            .collect(),
        }
    }

    /// Reads the dataset (class column last).
    pub fn load(self) -> Result<(Array2<f64>, Array1<usize>)> {
        let paths = self
            .files()
            .iter()
            .map(dataset_path)
            .collect::<Result<Vec<_>>>()?;
        let separator = match self {
            Self::Diabetes => Separator::Comma,
            _ => Separator::Whitespace,
        };
        let table = TableReader::uci(separator).read_files(&paths)?;
        Ok((table.to_dense()?, table.targets().clone()))
    }

    /// The per-class cost of a misclassified row: heart's disease (class `2`, index 1)
    /// costs 5.
    fn class_costs(self, n_classes: usize) -> Option<Vec<f64>> {
        (self == Self::Heart).then(|| {
            let mut c = vec![1.0; n_classes];
            c[1] = HEART_DISEASE_COST;
            c
        })
    }
}

/// Whether a family's fits depend on the scale of the inputs: the spherical ones. LDA and QDA
/// (and their GDT fits) are equivariant under an invertible linear map of the inputs.
pub fn scale_sensitive(family: Family) -> bool {
    matches!(family, Family::Balls1 | Family::Balls2)
}

/// How a block of Table 1's rows departs from the run's default setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// The default: inputs scaled by [`Settings::table1_scaling`], Balls2 with the run's
    /// variance floor.
    Default,
    /// A scale-sensitive family on inputs scaled the other way.
    OtherScaling,
    /// Balls2 without a variance floor (default scaling).
    NoFloor,
    /// The family on the default inputs fitted as the paper fitted it: by its conjugate
    /// gradient ([`gendisc_gdt::paper_conjugate_gradient`]) along the λ path, `λ = 0`
    /// included, without the certificate that decides whether a maximiser exists
    /// ([`GdtParams::certify_discriminative_end`]). Its rows stand beside the estimator's to
    /// show where the paper's solver gives another number; they have no GDT-CV row.
    PaperSolver,
}

/// One block of Table 1's rows: a family fitted on inputs scaled one way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Table1Block {
    /// The family.
    pub family: Family,
    /// The scaling of its inputs.
    pub scaling: InputScaling,
    /// How it departs from the default.
    pub variant: Variant,
}

impl Table1Block {
    /// The prefix of its rows: the family's name, followed by what departs from the default
    /// in parentheses (`Balls1 (whitened)`, `Balls2 (no floor)`).
    pub fn name(&self) -> String {
        match self.variant {
            Variant::Default => self.family.name().to_string(),
            Variant::OtherScaling => format!("{} ({})", self.family.name(), self.scaling.tag()),
            Variant::NoFloor => format!("{} (no floor)", self.family.name()),
            Variant::PaperSolver => format!("{} (paper's CG)", self.family.name()),
        }
    }

    /// Whether λ is also chosen by cross-validation ([`Variant::PaperSolver`] has no GDT-CV
    /// row).
    pub fn has_cv(&self) -> bool {
        self.variant != Variant::PaperSolver
    }

    /// Its rows: one per λ of the Table 1 grid, then GDT-CV ([`Self::has_cv`]).
    pub fn rows(&self) -> Vec<String> {
        let mut rows: Vec<String> = TABLE1_GRID
            .iter()
            .map(|&l| format!("{} {}", self.name(), lambda_label(l)))
            .collect();
        if self.has_cv() {
            rows.push(format!("{} GDT-CV", self.name()));
        }
        rows
    }
}

/// The blocks of Table 1 for a run's settings: every family of the paper on inputs scaled by
/// `settings.table1_scaling`, then the scale-sensitive ones on inputs scaled the other way,
/// then Balls2 without its variance floor when it has one, then every family fitted by the
/// paper's solver ([`Variant::PaperSolver`]) unless the run's solver is already another.
pub fn table1_blocks(settings: &Settings) -> Vec<Table1Block> {
    let scaling = settings.table1_scaling;
    let block = |family, scaling, variant| Table1Block {
        family,
        scaling,
        variant,
    };
    let mut blocks: Vec<Table1Block> = Family::TABLE1
        .into_iter()
        .map(|family| block(family, scaling, Variant::Default))
        .collect();
    blocks.extend(
        Family::TABLE1
            .into_iter()
            .filter(|&f| scale_sensitive(f))
            .map(|family| block(family, scaling.other(), Variant::OtherScaling)),
    );
    if settings.balls2_variance_floor > 0.0 {
        blocks.push(block(Family::Balls2, scaling, Variant::NoFloor));
    }
    // A run whose every fit is already the paper's solver needs no second copy of it.
    if settings.solver.is_none() {
        blocks.extend(
            Family::TABLE1
                .into_iter()
                .map(|family| block(family, scaling, Variant::PaperSolver)),
        );
    }
    blocks
}

/// The row names of Table 1 for a run's settings, e.g. `LDA GEN`, `LDA GDT0.75`, …,
/// `LDA DISC`, then our `LDA GDT-CV`, per block of [`table1_blocks`].
pub fn table1_rows(settings: &Settings) -> Vec<String> {
    table1_blocks(settings)
        .iter()
        .flat_map(|b| b.rows())
        .collect()
}

/// `GEN` for λ = 1, `DISC` for 0, else `GDT0.75`, as the paper's rows.
pub fn lambda_label(lambda: f64) -> String {
    if lambda == 1.0 {
        "GEN".into()
    } else if lambda == 0.0 {
        "DISC".into()
    } else {
        format!("GDT{lambda}")
    }
}

/// A loaded dataset.
struct TableDataset {
    which: Statlog,
    x: Array2<f64>,
    y: Array1<usize>,
    n_classes: usize,
}

/// Table 1 and the GDT-CV rows on the Statlog datasets.
pub struct Table1Study {
    settings: Settings,
    datasets: Vec<TableDataset>,
    /// Training rows read from files, by dataset, one list per trial; `None` when every trial
    /// draws its split from its stream.
    splits: Option<Vec<Vec<Vec<usize>>>>,
    source: InputSource,
    blocks: Vec<Table1Block>,
    schema: Schema,
}

impl Table1Study {
    /// Loads the datasets; fails naming the first missing file.
    pub fn new(settings: Settings) -> Result<Self> {
        let datasets = Statlog::ALL
            .into_iter()
            .map(|which| {
                let (x, y) = which.load()?;
                let n_classes = y.iter().max().map_or(0, |m| m + 1);
                Ok(TableDataset {
                    which,
                    x,
                    y,
                    n_classes,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let blocks = table1_blocks(&settings);
        let schema = Schema::with_metrics::<Table1Metric, _>(table1_rows(&settings))?;
        Ok(Self {
            settings,
            datasets,
            splits: None,
            source: InputSource::Seed,
            blocks,
            schema,
        })
    }

    /// The run's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The blocks of rows, in the schema's order.
    pub fn blocks(&self) -> &[Table1Block] {
        &self.blocks
    }

    /// The rows and classes of each dataset, for the report.
    pub fn describe(&self) -> Vec<(Statlog, usize, usize, usize)> {
        self.datasets
            .iter()
            .map(|d| (d.which, d.x.nrows(), d.x.ncols(), d.n_classes))
            .collect()
    }

    /// The training and test rows of `cell`'s trial on dataset `d`, and the trial's stream
    /// after them, from which the cross-validation's seed is drawn: the split is the stream's
    /// first draws ([`random_split`]). The cells and the export of the inputs both draw through
    /// here.
    ///
    /// Training rows read from files take the drawn split's place; the stream is drawn from
    /// either way, so that files holding the seed's own splits run the very same
    /// cross-validation.
    fn trial_split(&self, d: &TableDataset, cell: &Cell) -> Result<(Split, ChaCha8Rng)> {
        let mut rng = cell.rng(self.settings.seed);
        let drawn = random_split(d.y.view(), cell.train_size, &mut rng)?;
        let Some(splits) = &self.splits else {
            return Ok((drawn, rng));
        };
        let index = self
            .datasets
            .iter()
            .position(|e| e.which == d.which)
            .unwrap_or_default();
        let train = splits
            .get(index)
            .and_then(|trials| trials.get(cell.replicate))
            .filter(|train| train.len() == cell.train_size)
            .cloned()
            .ok_or_else(|| {
                Error::invalid_parameter("cell", format!("{cell} has no training rows read"))
            })?;
        let test = gendisc_engine::interchange::complement(&train, d.y.len());
        Ok((Split { train, test }, rng))
    }

    fn dataset(&self, name: &str) -> Result<&TableDataset> {
        self.datasets
            .iter()
            .find(|d| d.which.name() == name)
            .ok_or_else(|| Error::invalid_parameter("dataset", format!("unknown dataset `{name}`")))
    }
}

/// Test error, cost and mean logistic loss of a model.
fn evaluate(
    model: &impl ConditionalModel,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, usize>,
    costs: Option<&[f64]>,
) -> Result<(f64, Option<f64>, f64)> {
    let log_proba = model.predict_log_proba(x)?;
    let predicted = gendisc_core::argmax_rows(log_proba.view(), "log p(y | x)")?;
    let n = y.len() as f64;
    let wrong: Vec<usize> = (0..y.len()).filter(|&i| predicted[i] != y[i]).collect();
    let error = wrong.len() as f64 / n;
    let cost = costs.map(|c| wrong.iter().map(|&i| c[y[i]]).sum::<f64>() / n);
    let logloss = -(0..y.len()).map(|i| log_proba[[i, y[i]]]).sum::<f64>() / n;
    Ok((error, cost, logloss))
}

impl Study for Table1Study {
    fn id(&self) -> &str {
        "bouchard-triggs-table1"
    }

    fn fingerprint(&self) -> String {
        let shapes: Vec<(usize, usize)> = self.datasets.iter().map(|d| d.x.dim()).collect();
        // v13: GDT's posteriors take their exponentials from gendisc_core's vectorised
        // `exp_in_place`, so fits move in their last bits and those at an iteration cap
        // further; v12: GDT-CV chooses only a λ whose fit on the training rows and in every fold
        // converged; v11: GDT-CV does not choose a λ at which some fold's fit has no
        // maximiser; v10: a Balls2 fit without a floor at λ = 0 that stops where every row is
        // nearer to its own class's sharpest component is certified to have no maximiser; v9: GDT's
        // posteriors and Balls2's responsibilities come from their normalisers'
        // exponentials, and Balls2's Hessian products run on the components' supports (every
        // fit moves in its last bits, those at an iteration cap further); v8: Balls2's Hessian
        // is summed by class in matrix products (its Newton fits move in
        // the last bits, and those at the iteration cap further); v7: the paper's conjugate
        // gradient beside the estimator (its rows added); v6: the
        // induced fit at λ = 0 is solved to a tighter tolerance (v5: Balls2's EM starts
        // at the order-free principal split and stops on a gain per unit of weight; v4:
        // trust-region Newton by default, λ = 0 decided by a separation certificate); cells of
        // earlier code differ.
        match &self.source {
            InputSource::Seed => fingerprint(&(STUDY_ID, "table1 v13", &self.settings, shapes)),
            InputSource::Files { digest } => fingerprint(&(
                STUDY_ID,
                "table1 v13",
                &self.settings,
                shapes,
                "inputs",
                digest,
            )),
        }
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn cells(&self) -> Vec<Cell> {
        let mut cells = Vec::new();
        for d in &self.datasets {
            for r in 0..self.settings.table1_replicates {
                cells.push(Cell::new(d.which.name(), d.which.train_size(), r));
            }
        }
        cells
    }

    fn run_cell(&self, cell: &Cell) -> Result<Outcome> {
        let d = self.dataset(&cell.dataset)?;
        let (split, mut rng) = self.trial_split(d, cell)?;
        let cv_seed: u64 = rng.random();
        let y_train = d.y.select(Axis(0), &split.train);
        let y_test = d.y.select(Axis(0), &split.test);
        let (raw_train, raw_test) = (
            d.x.select(Axis(0), &split.train),
            d.x.select(Axis(0), &split.test),
        );
        // The inputs under each scaling: (scaling, training inputs, test inputs).
        let mut inputs = Vec::new();
        for scaling in InputScaling::ALL {
            if self.blocks.iter().any(|b| b.scaling == scaling) {
                let reduction =
                    Reduction::fit(raw_train.view(), y_train.view(), d.n_classes, 4, scaling)?;
                inputs.push((
                    scaling,
                    reduction.apply(raw_train.view()),
                    reduction.apply(raw_test.view()),
                ));
            }
        }
        let costs = d.which.class_costs(d.n_classes);
        let criterion = match &costs {
            Some(c) => CvCriterion::ClassCost(c.clone()),
            None => CvCriterion::ErrorRate,
        };
        // With five or more classes all four inputs are Fisher directions, which both scalings
        // scale alike: a block whose fit another block has made (the same parameters on the same
        // inputs, bit for bit) copies its rows instead of fitting again.
        let same_inputs = |a: usize| {
            inputs[..a]
                .iter()
                .position(|earlier| {
                    same_bits(&earlier.1, &inputs[a].1) && same_bits(&earlier.2, &inputs[a].2)
                })
                .unwrap_or(a)
        };
        let canonical: Vec<usize> = (0..inputs.len()).map(same_inputs).collect();
        let mut fitted: Vec<(GdtParams, usize, usize)> = Vec::new();
        let mut outcome = Outcome::new(&self.schema);
        let offsets = block_offsets(&self.blocks);
        for (f, block) in self.blocks.iter().enumerate() {
            let family = block.family;
            let Some(input) = inputs.iter().position(|i| i.0 == block.scaling) else {
                continue;
            };
            let (_, x_train, x_test) = &inputs[input];
            let gdt = self.settings.table1_params(block).n_classes(d.n_classes);
            if let Some(&(_, _, earlier)) = fitted
                .iter()
                .find(|(params, i, _)| *params == gdt && *i == canonical[input])
            {
                // Equal parameters make equal variants, so equally many rows.
                copy_rows(
                    &mut outcome,
                    offsets[earlier],
                    offsets[f],
                    block.rows().len(),
                )?;
                continue;
            }
            fitted.push((gdt.clone(), canonical[input], f));
            let path = gdt.clone().check()?.fit_path(
                &TABLE1_GRID,
                x_train.view(),
                y_train.view(),
                None,
            )?;
            let record = |outcome: &mut Outcome, row: usize, model: &Gdt| -> Result<()> {
                let (error, cost, logloss) =
                    evaluate(model, x_test.view(), y_test.view(), costs.as_deref())?;
                outcome.put_at(row, Table1Metric::Error, error)?;
                if let Some(cost) = cost {
                    outcome.put_at(row, Table1Metric::Cost, cost)?;
                }
                outcome.put_at(row, Table1Metric::Logloss, logloss)?;
                outcome.put_at(row, Table1Metric::Lambda, model.lambda())?;
                outcome.put_at(
                    row,
                    Table1Metric::Converged,
                    f64::from(u8::from(counts_as_converged(model.report()))),
                )?;
                outcome.put_at(
                    row,
                    Table1Metric::NoMaximiser,
                    f64::from(u8::from(model.report().has_no_maximiser())),
                )
            };
            for (j, model) in path.iter().enumerate() {
                record(&mut outcome, offsets[f] + j, model)?;
            }
            if !block.has_cv() {
                continue;
            }
            // GDT-CV: λ̂ by k-fold CV on the training rows among the λ whose fit on them (the
            // path's) converged; the path's fit at λ̂ is the refit.
            let cv = GdtCv::params(family)
                .gdt(gdt)
                .n_folds(self.settings.cv_folds)
                .seed(cv_seed)
                .criterion(criterion.clone())
                .check()?;
            let selection = cv.select_given_path(x_train.view(), y_train.view(), None, &path)?;
            let chosen = TABLE1_GRID
                .iter()
                .position(|&l| l == selection.lambda)
                .ok_or_else(|| Error::Numerical {
                    what: "GDT-CV".into(),
                    detail: format!("λ̂ = {} is not on the grid", selection.lambda),
                })?;
            record(&mut outcome, offsets[f] + TABLE1_GRID.len(), &path[chosen])?;
        }
        Ok(outcome)
    }
}

/// The first row of each block (blocks without GDT-CV have a row fewer).
fn block_offsets(blocks: &[Table1Block]) -> Vec<usize> {
    blocks
        .iter()
        .scan(0, |next, b| {
            let first = *next;
            *next += b.rows().len();
            Some(first)
        })
        .collect()
}

/// Copies `count` rows of `outcome`, every metric, from row `from` on to row `to` on.
fn copy_rows(outcome: &mut Outcome, from: usize, to: usize, count: usize) -> Result<()> {
    for row in 0..count {
        for metric in 0..outcome.n_metrics() {
            if let Some(value) = outcome.get(from + row, metric) {
                outcome.set(to + row, metric, value)?;
            }
        }
    }
    Ok(())
}

/// What `reproduce` ran.
pub struct Reproduction {
    /// Figure 1's results.
    pub figure1: StudyResults,
    /// Table 1's results, or why Table 1 could not run (a missing data file).
    pub table1: std::result::Result<StudyResults, String>,
}

/// Runs the study (resuming from `out/figure1-cells.jsonl` and `out/table1-cells.jsonl` when
/// present) and writes every output under `out`: `fig1.csv`, `fig1.svg`, `table1.csv`,
/// `lambda-cv.csv` and `REPORT.md`. Table 1 is skipped, and the report says which file is
/// missing, when the Statlog data are not found.
pub fn reproduce(
    out: &Path,
    settings: Settings,
    runner: RunnerSettings,
) -> gendisc_engine::Result<Reproduction> {
    let figure1 = Figure1Study::new(settings.clone())?;
    let table1 = Table1Study::new(settings).map_err(|e| e.to_string());
    run_both(out, &figure1, table1, runner)
}

/// As [`reproduce`], on the data read from the directory `inputs` (as
/// [`export_figure1_inputs`] and [`export_table1_inputs`] write them under `figure1/` and
/// `table1/`; see [`Figure1Study::with_inputs`] and [`Table1Study::with_inputs`]) instead of
/// those the seed draws. Inputs identical to those give [`reproduce`]'s outputs, byte for byte.
/// Table 1 is skipped, as by [`reproduce`], when the Statlog data are not found; with them, its
/// inputs must be there.
pub fn reproduce_from_inputs(
    out: &Path,
    inputs: &Path,
    settings: Settings,
    runner: RunnerSettings,
) -> gendisc_engine::Result<Reproduction> {
    let figure1 = Figure1Study::new(settings.clone())?.with_inputs(&inputs.join("figure1"))?;
    let table1 = match Table1Study::new(settings) {
        Ok(study) => Ok(study.with_inputs(&inputs.join("table1"))?),
        Err(e) => Err(e.to_string()),
    };
    run_both(out, &figure1, table1, runner)
}

/// Runs Figure 1 and, when it could be set up, Table 1, and writes every output.
fn run_both(
    out: &Path,
    figure1: &Figure1Study,
    table1: std::result::Result<Table1Study, String>,
    runner: RunnerSettings,
) -> gendisc_engine::Result<Reproduction> {
    // A shard run stops after Figure 1's shard, with `ShardFinished`: Table 1's shard runs too.
    let figure1_results = super::then_shard(
        super::run_stored(figure1, out, "figure1-cells.jsonl", runner.clone()),
        || {
            let study = table1.as_ref().ok()?;
            Some(super::run_stored(
                study,
                out,
                "table1-cells.jsonl",
                runner.clone(),
            ))
        },
    )?;
    let (table1, table1_results) = match table1 {
        Ok(study) => {
            let results = super::run_stored(&study, out, "table1-cells.jsonl", runner)?;
            (Some(study), Ok(results))
        }
        Err(reason) => (None, Err(reason)),
    };
    write_outputs(
        out,
        figure1,
        &figure1_results,
        table1.as_ref(),
        &table1_results,
    )?;
    Ok(Reproduction {
        figure1: figure1_results,
        table1: table1_results,
    })
}

/// Whether the study counts a fit as converged: the estimator converged
/// ([`Convergence::is_converged`]) and so did the generative fit it started from (Balls2's EM),
/// the paper's starting point, so that every converged share speaks of the path the paper
/// describes.
fn counts_as_converged(report: &GdtReport) -> bool {
    report.is_converged() && report.start_converged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affine_scores_are_ndarrays_product_bit_for_bit() {
        for d in 0..20 {
            let x = Array2::from_shape_fn((37, d), |(i, j)| ((i * 31 + j * 7) as f64).sin() * 1e3);
            let w = Array1::from_shape_fn(d, |j| (j as f64 * 1.3).cos() - 0.2);
            let c = 0.37;
            let expected = x.dot(&w) + c;
            let bits = |v: &Array1<f64>| v.iter().map(|e| e.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&affine_scores(x.view(), w.view(), c)),
                bits(&expected),
                "{d}"
            );
            // A strided matrix takes ndarray's own product.
            let xt = x.t().to_owned();
            assert_eq!(
                bits(&affine_scores(xt.t(), w.view(), c)),
                bits(&expected),
                "{d}, strided"
            );
        }
    }

    #[test]
    fn the_default_solver_keeps_the_fingerprint_and_conjugate_gradient_changes_it() {
        // Stores written before the solver setting existed have no `solver` in their
        // fingerprint; the default must not add one.
        let json = serde_json::to_string(&Settings::paper()).unwrap();
        assert!(!json.contains("solver"), "{json}");
        let default = Figure1Study::new(Settings::quick()).unwrap();
        let cg = Figure1Study::new(Settings {
            solver: Some(gendisc_gdt::paper_conjugate_gradient()),
            ..Settings::quick()
        })
        .unwrap();
        assert_ne!(default.fingerprint(), cg.fingerprint());
    }

    #[test]
    fn the_readings_of_the_uniform_simulation_differ_in_their_class_balance() {
        use rand::SeedableRng;
        let n = 20_000;
        let share = |reading: Figure1Reading| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
            let (x, y) = reading.sample(n, &mut rng);
            assert_eq!(x.dim(), (n, 4));
            y.iter().sum::<usize>() as f64 / n as f64
        };
        // σ(2.5 x₁) on [0, 1): P(y = 1) = (ln(1 + e^2.5) − ln 2) / 2.5 ≈ 0.754.
        assert!((share(Figure1Reading::Uniform) - 0.754).abs() < 0.015);
        // The centred logit balances the classes.
        assert!((share(Figure1Reading::UniformCentred) - 0.5).abs() < 0.015);
        // Same covariates, log-odds shifted by −1.25.
        let x = ndarray::array![[0.5, 1.0, 1.5, 2.0], [0.9, 1.0, 1.2, 1.3]];
        let a = Figure1Reading::Uniform.true_log_odds(x.view()).unwrap();
        let c = Figure1Reading::UniformCentred
            .true_log_odds(x.view())
            .unwrap();
        assert_eq!(c[0], 0.0);
        assert!((a[1] - c[1] - 1.25).abs() < 1e-12);
        // Every reading has its own cells, and the first two keep the simulations' names
        // (their stored cells and seeds are those of the simulations).
        let names: Vec<&str> = Figure1Reading::ALL.iter().map(|r| r.name()).collect();
        assert_eq!(&names[..2], &["gaussian-identity", "correlated-uniform"]);
        // Reading (b) fits the data of (a) with estimated priors.
        let b = Figure1Reading::UniformPriorsEstimated;
        assert_eq!(b.data(), Figure1Reading::Uniform.data());
        let priors = |r: Figure1Reading| r.gdt_params(&Settings::quick()).check().unwrap().priors();
        assert_eq!(priors(b), Priors::Estimated);
        assert_eq!(priors(Figure1Reading::Uniform), Priors::Fixed);
        let mut unique = names.clone();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
    }

    #[test]
    fn figure1_grid_runs_from_one_to_zero() {
        let g = Settings::paper().figure1_grid();
        assert_eq!(g.len(), 21);
        assert_eq!((g[0], g[20]), (1.0, 0.0));
        assert!((g[1] - 0.95).abs() < 1e-15);
        assert_eq!(lambda_name(g[1]), "lambda=0.95");
    }

    #[test]
    fn table1_rows_follow_the_paper() {
        let rows = table1_rows(&Settings::paper());
        assert_eq!(rows.len(), 62);
        assert_eq!(rows[0], "LDA GEN");
        assert_eq!(rows[1], "LDA GDT0.75");
        assert_eq!(rows[4], "LDA DISC");
        assert_eq!(rows[5], "LDA GDT-CV");
        assert_eq!(rows[23], "Balls2 GDT-CV");
        // The scale-sensitive families again, on the other scaling.
        assert_eq!(rows[24], "Balls1 (whitened) GEN");
        assert_eq!(rows[35], "Balls2 (whitened) GDT-CV");
        // Balls2 again without its variance floor.
        assert_eq!(rows[36], "Balls2 (no floor) GEN");
        // Every family by the paper's solver, without GDT-CV.
        assert_eq!(rows[42], "LDA (paper's CG) GEN");
        assert_eq!(rows[46], "LDA (paper's CG) DISC");
        assert_eq!(rows[47], "QDA (paper's CG) GEN");
        assert_eq!(rows[61], "Balls2 (paper's CG) DISC");
        let other = table1_rows(&Settings {
            table1_scaling: InputScaling::WithinWhitened,
            balls2_variance_floor: 0.0,
            ..Settings::paper()
        });
        assert_eq!(other.len(), 56);
        assert_eq!(other[24], "Balls1 (natural) GEN");
        // A run on the paper's solver throughout has no second copy of it.
        let all_cg = table1_rows(&Settings {
            solver: Some(gendisc_gdt::paper_conjugate_gradient()),
            ..Settings::paper()
        });
        assert_eq!(all_cg.len(), 42);
        assert!(!scale_sensitive(Family::Lda) && scale_sensitive(Family::Balls2));
    }

    #[test]
    fn a_figure1_cell_is_deterministic_and_complete() {
        let settings = Settings {
            figure1_test_size: 2000,
            figure1_lambdas: 5,
            ..Settings::quick()
        };
        let study = Figure1Study::new(settings).unwrap();
        let cell = Cell::new("correlated-uniform", 50, 1);
        let a = study.run_cell(&cell).unwrap();
        let b = study.run_cell(&cell).unwrap();
        assert!(a.bitwise_eq(&b));
        for j in 0..5 {
            let ll = a.value_at(j, Figure1Metric::Logloss).unwrap();
            assert!(ll.is_finite() && ll > 0.0);
        }
        // No fit can beat the true model by much on 2000 rows.
        let floor = study.bayes_logloss(Figure1Reading::Uniform).unwrap();
        assert!(a.value_at(0, Figure1Metric::Logloss).unwrap() > floor - 0.05);
    }

    #[test]
    fn a_table1_cell_runs_when_the_data_are_present() {
        let settings = Settings {
            cv_folds: 2,
            ..Settings::quick()
        };
        let study = match Table1Study::new(settings) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("skipping: Statlog data not found ({e})");
                return;
            }
        };
        let cell = Cell::new("heart", 100, 0);
        let a = study.run_cell(&cell).unwrap();
        for row in 0..62 {
            let error = a.value_at(row, Table1Metric::Error).unwrap();
            let cost = a.value_at(row, Table1Metric::Cost).unwrap();
            assert!((0.0..=1.0).contains(&error));
            assert!(cost >= error && cost <= HEART_DISEASE_COST * error + 1e-12);
        }
        // The GDT-CV row equals the fixed-λ row at the chosen λ.
        let lambda = a.value_at(5, Table1Metric::Lambda).unwrap();
        let j = TABLE1_GRID.iter().position(|&l| l == lambda).unwrap();
        assert_eq!(
            a.value_at(5, Table1Metric::Error),
            a.value_at(j, Table1Metric::Error)
        );
        // The paper's solver starts from the same generative fit: GEN is the same bit for bit,
        // and no fit of its rows carries a certificate.
        assert_eq!(
            a.value_at(42, Table1Metric::Error),
            a.value_at(0, Table1Metric::Error)
        );
        for row in 42..62 {
            assert_eq!(a.value_at(row, Table1Metric::NoMaximiser), Some(0.0));
        }
    }
}
