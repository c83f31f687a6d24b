//! Epshteyn & DeJong (2007), *Generative prior knowledge for discriminative classification*,
//! §5: the bilevel classifier under a WordNet prior against a linear SVM and a multi-task SVM,
//! on pairs of four 20 Newsgroups groups.
//!
//! The design follows §§2 and 5 where they are explicit; where they are not, the choices
//! below (also in `docs/epshteyn-dejong.md`):
//!
//! * **Text**: every posting of `alt.atheism`, `talk.politics.guns`, `talk.politics.mideast`
//!   and `rec.autos` (bydate train and test halves pooled: "all the available data" of a task);
//!   subject and body, lower-cased, unstemmed words mapped to WordNet noun lemmas, other words
//!   dropped (footnote 3); binary presence features. The vocabulary is the noun lemmas found in
//!   at least [`Settings::min_document_frequency`] postings of the four groups — an
//!   unsupervised choice that never looks at labels.
//! * **Labels**: the WordNet nouns `atheism`, `gun`, `mideast` and `auto` name the groups;
//!   distances are fewest links between noun synsets, capped at [`Settings::max_distance`]
//!   (farther or unconnected words form one distance class of their own).
//! * **Tasks**: a task is two groups, the first of [`GROUPS`]' order class 0 (`y = −1`); a
//!   setup is an ordered pair of distinct tasks (training task, test task), so the four groups
//!   give 30 setups (Figure 5.1) and three groups 6 (Figure 5.2). Class `i` of the training
//!   task transfers to class `i` of the test task.
//! * **Prior**: LDA with `Σ = I` (class means of the presence features) on a stratified random
//!   90% of the training task; `χ_i`, `σ_i` by distance to the training labels, `t_i`, `Ω_i`
//!   from the distances to the test labels ([`gendisc_bilevel::transfer`]); `β = 0.2`,
//!   `φ = 0.01`, `C₁ = C₂ = 1`, `C₃ = ∞`.
//! * **Training sets**: stratified random samples of the test task (each class at least one
//!   posting, in proportion otherwise); the rest of the test task is the evaluation set. The
//!   draws depend only on the test task, the size and the replicate, so every setup with the
//!   same test task is compared on the same splits.
//! * **SVM** (5.1)–(5.2): `min Σξ + C₁‖w‖²` with `C₁ = 1`, i.e. [`LinearSvm`] with `C = ½`;
//!   its intercept is the appended feature `B = 10`, penalised by `(b/B)²`.
//! * **Multi-task SVM** (5.3)–(5.5): `C₁ = 1`, `C₂ = 1000`, the training task's 90% sample and
//!   the test task's training set as the two tasks, by Evgeniou & Pontil's reduction to one SVM
//!   (intercept scaling 10).
//! * **LDA on 90% of the test task** (Figure 5.2's horizontal line): a stratified 90% sample,
//!   evaluated on the other 10%.

mod features;
mod paper;
mod report;

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use gendisc_bilevel::transfer::Reconstruction;
use gendisc_bilevel::{BilevelClassifier, TransferPrior};
use gendisc_core::{Error, ParamGuard, Result};
use gendisc_data::splits::{replicate_rng, take_sparse_rows, SeedPart};
use gendisc_discriminative::{LinearSvm, MultiTaskSolver, MultiTaskSvm};
use gendisc_text::wordnet::WordNet;
use gendisc_text::Newsgroups;
use ndarray::{Array1, ArrayView1};
use rand::seq::SliceRandom;
use serde::Serialize;
use sprs::{CsMat, CsMatView};

use gendisc_engine::{
    fingerprint, Cell, Key, Outcome, RunnerSettings, Schema, Study, StudyResults,
};

pub use features::{FeatureStats, NounFeatures};
pub use paper::EpshteynDeJong;
pub use report::write_outputs;

/// The study's identifier, also its directory under `results/`.
pub const STUDY_ID: &str = "epshteyn-dejong";

/// A newsgroup of the study and the WordNet noun that names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Group {
    /// The paper's short name.
    pub short: &'static str,
    /// The newsgroup.
    pub newsgroup: &'static str,
    /// The label word whose WordNet distances compress the prior.
    pub label: &'static str,
}

/// The four groups of §5, in the order that fixes class 0 and class 1 of a task.
pub const GROUPS: [Group; 4] = [
    Group {
        short: "atheism",
        newsgroup: "alt.atheism",
        label: "atheism",
    },
    Group {
        short: "guns",
        newsgroup: "talk.politics.guns",
        label: "gun",
    },
    Group {
        short: "mideast",
        newsgroup: "talk.politics.mideast",
        label: "mideast",
    },
    Group {
        short: "autos",
        newsgroup: "rec.autos",
        label: "auto",
    },
];

/// A binary task: two groups (indices into [`GROUPS`]), class 0 first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Task(pub [usize; 2]);

impl Task {
    /// `atheism-guns`.
    pub fn id(&self) -> String {
        format!("{}-{}", GROUPS[self.0[0]].short, GROUPS[self.0[1]].short)
    }

    /// `atheism vs guns`.
    pub fn title(&self) -> String {
        format!("{} vs {}", GROUPS[self.0[0]].short, GROUPS[self.0[1]].short)
    }
}

/// A training task and a different test task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Setup {
    /// Where the prior is learned.
    pub train: Task,
    /// Where the classifiers are trained on a few postings and evaluated.
    pub test: Task,
}

impl Setup {
    /// `atheism-guns>guns-mideast`.
    pub fn id(&self) -> String {
        format!("{}>{}", self.train.id(), self.test.id())
    }

    /// `atheism vs guns → guns vs mideast`.
    pub fn title(&self) -> String {
        format!("{} → {}", self.train.title(), self.test.title())
    }

    /// The alignment that maps the group the two tasks share to itself, `None` when they share
    /// none (in Experiment 1 *guns* is class 1 of the training task and class 0 of the test
    /// task: [`Alignment::Swapped`]).
    pub fn shared_group_alignment(&self) -> Option<Alignment> {
        let [a, b] = self.train.0;
        let k = self.test.0.iter().position(|&g| g == a || g == b)?;
        let i = usize::from(self.train.0[1] == self.test.0[k]);
        Some(if i == k {
            Alignment::ByGroupOrder
        } else {
            Alignment::Swapped
        })
    }
}

/// Which class of the training task informs which class of the test task.
///
/// §2 reconstructs the test task's prior by `μ_i^j := χ_i(l^j_{i,test})`: class `i`'s
/// compression, read at the distances to the test task's label `i`. The paper numbers the two
/// newsgroups of each task but never says how class `i` of one task lines up with class `i` of
/// the other; the alignment decides it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Alignment {
    /// Class `i` of the training task informs class `i` of the test task, each task's classes
    /// in the order of [`GROUPS`] (in Experiment 1, atheism vs guns → guns vs mideast,
    /// *atheism* informs *guns* and *guns* informs *mideast*).
    ByGroupOrder,
    /// Class `i` of the training task informs class `1 − i` of the test task.
    Swapped,
}

impl Alignment {
    /// Both alignments.
    pub const ALL: [Alignment; 2] = [Alignment::ByGroupOrder, Alignment::Swapped];

    /// The reading's name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Alignment::ByGroupOrder => "by group order",
            Alignment::Swapped => "swapped",
        }
    }

    /// The reading's identifier in file names and dataset names.
    pub fn slug(self) -> &'static str {
        match self {
            Alignment::ByGroupOrder => "by-group-order",
            Alignment::Swapped => "swapped",
        }
    }

    /// The class of the training task that informs class `test_class` of the test task.
    pub fn source(self, test_class: usize) -> usize {
        match self {
            Alignment::ByGroupOrder => test_class,
            Alignment::Swapped => 1 - test_class,
        }
    }
}

/// The reading that maps a group shared by the two tasks to itself (defined only for setups
/// whose tasks share a group).
pub const SHARED_GROUP_READING: &str = "shared group to itself";

/// Every task over `groups` (pairs in the order of [`GROUPS`]).
pub fn tasks_over(groups: &[usize]) -> Vec<Task> {
    let mut sorted = groups.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut tasks = Vec::new();
    for (a, &g) in sorted.iter().enumerate() {
        for &h in &sorted[a + 1..] {
            tasks.push(Task([g, h]));
        }
    }
    tasks
}

/// Every setup over `groups`: ordered pairs of distinct tasks, by training task then test task.
pub fn setups_over(groups: &[usize]) -> Vec<Setup> {
    let tasks = tasks_over(groups);
    let mut setups = Vec::new();
    for &train in &tasks {
        for &test in &tasks {
            if train != test {
                setups.push(Setup { train, test });
            }
        }
    }
    setups
}

/// The classifiers, in the order of the outcome table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Classifier {
    /// The linear SVM (5.1).
    Svm,
    /// The bilevel classifier with the WordNet prior.
    Bilevel,
    /// The multi-task SVM (5.3).
    MultitaskSvm,
    /// LDA (`Σ = I`) on 90% of the test task.
    Lda90,
}

impl Key for Classifier {
    const ALL: &'static [Self] = &[Self::Svm, Self::Bilevel, Self::MultitaskSvm, Self::Lda90];

    fn name(self) -> &'static str {
        match self {
            Self::Svm => SVM,
            Self::Bilevel => BILEVEL,
            Self::MultitaskSvm => MULTITASK_SVM,
            Self::Lda90 => LDA_90,
        }
    }
}

/// [`Classifier::Svm`]'s name.
pub const SVM: &str = "svm";
/// [`Classifier::Bilevel`]'s name.
pub const BILEVEL: &str = "bilevel";
/// [`Classifier::MultitaskSvm`]'s name.
pub const MULTITASK_SVM: &str = "multitask-svm";
/// [`Classifier::Lda90`]'s name.
pub const LDA_90: &str = "lda-90";

/// The metrics, in the order of the outcome table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Accuracy on the evaluation postings.
    Accuracy,
    /// The bilevel fit's alternations.
    Iterations,
    /// 1 when the bilevel alternation met its tolerance, 0 at the iteration cap.
    Converged,
    /// 1 when the fit failed in the solver (numerical trouble, no convergence), else 0.
    Failed,
    /// Features whose test-task distance no training-task feature had (pooled moments used),
    /// summed over the two classes.
    PriorUnseen,
    /// Features whose reconstructed variance was raised to the floor, summed over the two
    /// classes.
    PriorFloored,
    /// The `β` the bilevel fit used.
    Beta,
    /// `‖t₂ − t₁‖` of the sample's prior ([`PriorGeometry::separation`]).
    PriorSeparation,
    /// The cosine between the prior's `t₂ − t₁` and the test task's class-mean difference
    /// ([`PriorGeometry::cosine`]).
    PriorCosine,
}

impl Key for Metric {
    const ALL: &'static [Self] = &[
        Self::Accuracy,
        Self::Iterations,
        Self::Converged,
        Self::Failed,
        Self::PriorUnseen,
        Self::PriorFloored,
        Self::Beta,
        Self::PriorSeparation,
        Self::PriorCosine,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::Accuracy => ACCURACY,
            Self::Iterations => ITERATIONS,
            Self::Converged => CONVERGED,
            Self::Failed => FAILED,
            Self::PriorUnseen => PRIOR_UNSEEN,
            Self::PriorFloored => PRIOR_FLOORED,
            Self::Beta => BETA,
            Self::PriorSeparation => PRIOR_SEPARATION,
            Self::PriorCosine => PRIOR_COSINE,
        }
    }
}

/// [`Metric::Accuracy`]'s name.
pub const ACCURACY: &str = "accuracy";
/// [`Metric::Iterations`]'s name.
pub const ITERATIONS: &str = "iterations";
/// [`Metric::Converged`]'s name.
pub const CONVERGED: &str = "converged";
/// [`Metric::Failed`]'s name.
pub const FAILED: &str = "failed";
/// [`Metric::PriorUnseen`]'s name.
pub const PRIOR_UNSEEN: &str = "prior-unseen-distances";
/// [`Metric::PriorFloored`]'s name.
pub const PRIOR_FLOORED: &str = "prior-floored-variances";
/// [`Metric::Beta`]'s name.
pub const BETA: &str = "beta";
/// [`Metric::PriorSeparation`]'s name.
pub const PRIOR_SEPARATION: &str = "prior-separation";
/// [`Metric::PriorCosine`]'s name.
pub const PRIOR_COSINE: &str = "prior-cosine";

/// Figure 5.1's cells under [`Alignment::ByGroupOrder`]: `fig5.1:<setup>`.
pub const FIGURE_51: &str = "fig5.1";
/// Figure 5.1's cells under [`Alignment::Swapped`]: `fig5.1-swapped:<setup>`.
pub const FIGURE_51_SWAPPED: &str = "fig5.1-swapped";

/// The dataset prefix of Figure 5.1's cells under `alignment`.
pub fn figure_51_dataset(alignment: Alignment) -> &'static str {
    match alignment {
        Alignment::ByGroupOrder => FIGURE_51,
        Alignment::Swapped => FIGURE_51_SWAPPED,
    }
}

/// How the prior of a sample sits against the test task: the geometry that decides whether the
/// bilevel classifier can gain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PriorGeometry {
    /// `‖t₂ − t₁‖`, the distance between the prior's two locations.
    pub separation: f64,
    /// The largest `β` for which the hard constraints (4.13)–(4.14) with `μ_i = t_i` and
    /// `Σ_i = I` hold for some hyperplane: adding them gives `wᵀ(t₂ − t₁) ≥ 2β‖w‖`, so
    /// `β ≤ ‖t₂ − t₁‖ / 2`, attained by `w ∝ t₂ − t₁` (§5's "maximum feasible value" as
    /// `φ → 0`; a positive `φ` raises it by at most `φ(√max Ω₁ + √max Ω₂) / 2`).
    pub beta_max: f64,
    /// The cosine between `t₂ − t₁` and the test task's empirical class-mean difference
    /// `m̂₂ − m̂₁`: near zero, the prior pulls the hyperplane in a direction that does not
    /// separate the test task's classes. NaN when either difference is zero.
    pub cosine: f64,
}

impl PriorGeometry {
    /// The geometry of a prior with locations `t` against class means `test_means` of the
    /// test task.
    pub fn of(t: [ArrayView1<'_, f64>; 2], test_means: [ArrayView1<'_, f64>; 2]) -> Self {
        let prior = &t[1] - &t[0];
        let test = &test_means[1] - &test_means[0];
        let separation = prior.dot(&prior).sqrt();
        let norm = test.dot(&test).sqrt();
        let cosine = if separation > 0.0 && norm > 0.0 {
            prior.dot(&test) / (separation * norm)
        } else {
            f64::NAN
        };
        Self {
            separation,
            beta_max: 0.5 * separation,
            cosine,
        }
    }
}

/// The `β` of a fit: given, or a share of the sample's [`PriorGeometry::beta_max`].
#[derive(Debug, Clone, Copy)]
enum BetaChoice {
    Value(f64),
    ShareOfMax(f64),
}
/// Figure 5.2's cells: `fig5.2:<setup>`.
pub const FIGURE_52: &str = "fig5.2";
/// Figure 5.2's LDA line: `fig5.2-lda:<test task>`.
pub const FIGURE_52_LDA: &str = "fig5.2-lda";
/// Figure 5.3's `β` panel: `fig5.3-beta:<index into Settings::figure_53_betas>`.
pub const FIGURE_53_BETA: &str = "fig5.3-beta";
/// Figure 5.3's `φ` panel: `fig5.3-phi:<index into Settings::figure_53_phis>`.
pub const FIGURE_53_PHI: &str = "fig5.3-phi";

/// The configuration of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    /// The study seed: every sample derives from it.
    pub seed: u64,
    /// A noun lemma is a feature when it occurs in at least this many postings.
    pub min_document_frequency: usize,
    /// The WordNet distance cap.
    pub max_distance: u32,
    /// The share of the training task that trains the prior's LDA and the multi-task SVM's
    /// first task (the paper: 90%); also the share of the test task of the LDA line.
    pub prior_fraction: f64,
    /// `β` of (4.20)–(4.21) (the paper: 0.2).
    pub beta: f64,
    /// `φ` of (4.19) (the paper: 0.01).
    pub phi: f64,
    /// `C₁` of the bilevel program and of the SVM (5.1) (the paper: 1).
    pub c1: f64,
    /// `C₂` of the bilevel program (the paper: 1).
    pub c2: f64,
    /// The multi-task SVM's `C₁`, `C₂` (the paper: 1 and 1000).
    pub multitask_c: [f64; 2],
    /// Figure 5.1's training sets: this share of the test task (the paper: 0.5%).
    pub figure_51_fraction: f64,
    /// Indices into `setups_over(&[0, 1, 2, 3])` of Figure 5.1's setups.
    pub figure_51_setups: Vec<usize>,
    /// Figure 5.1's samples per setup (the paper: 100).
    pub figure_51_replicates: usize,
    /// The alignments Figure 5.1 is run under (each a reading of its own).
    pub figure_51_alignments: Vec<Alignment>,
    /// Indices into `setups_over(&[0, 1, 2])` of Figure 5.2's setups.
    pub figure_52_setups: Vec<usize>,
    /// Figure 5.2's training-set sizes.
    pub figure_52_sizes: Vec<usize>,
    /// Figure 5.2's samples per setup and size (the paper: 100).
    pub figure_52_replicates: usize,
    /// Figure 5.3's training-set size (the paper: 9).
    pub figure_53_size: usize,
    /// Figure 5.3's values of `β` as shares of its maximum feasible value
    /// ([`PriorGeometry::beta_max`] of each sample's prior; `φ` at its default): the paper
    /// increases `β` "up to its maximum feasible value".
    pub figure_53_betas: Vec<f64>,
    /// Figure 5.3's values of `φ` (`β` at its default).
    pub figure_53_phis: Vec<f64>,
    /// Figure 5.3's samples per value (the paper: 100).
    pub figure_53_replicates: usize,
}

impl Settings {
    /// The paper's design.
    pub fn paper() -> Self {
        Self {
            seed: 20_070_501,
            min_document_frequency: 3,
            max_distance: gendisc_text::wordnet::DEFAULT_MAX_DISTANCE,
            prior_fraction: 0.9,
            beta: 0.2,
            phi: 0.01,
            c1: 1.0,
            c2: 1.0,
            multitask_c: [1.0, 1000.0],
            figure_51_fraction: 0.005,
            figure_51_setups: (0..30).collect(),
            figure_51_replicates: 100,
            figure_51_alignments: Alignment::ALL.to_vec(),
            figure_52_setups: (0..6).collect(),
            figure_52_sizes: vec![4, 9, 18, 36, 72, 144],
            figure_52_replicates: 100,
            figure_53_size: 9,
            figure_53_betas: vec![0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.85, 1.0],
            figure_53_phis: vec![0.001, 0.01, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0],
            figure_53_replicates: 100,
        }
    }

    /// The reduced run of continuous integration.
    pub fn quick() -> Self {
        Self {
            figure_51_replicates: 2,
            figure_52_setups: vec![1, 5],
            figure_52_sizes: vec![4, 36],
            figure_52_replicates: 2,
            figure_53_betas: vec![0.1, 0.5, 1.0],
            figure_53_phis: vec![0.01, 1.0, 100.0],
            figure_53_replicates: 2,
            ..Self::paper()
        }
    }
}

/// The setup of Figure 5.3 (the paper's Experiment 1): atheism vs guns → guns vs mideast.
pub const EXPERIMENT_1: Setup = Setup {
    train: Task([0, 1]),
    test: Task([1, 2]),
};

/// The setup the paper singles out as its worst (Experiment 4): guns vs mideast → atheism vs
/// mideast.
pub const EXPERIMENT_4: Setup = Setup {
    train: Task([1, 2]),
    test: Task([0, 2]),
};

/// The postings of a sample: rows of the feature matrix and their classes.
struct Sample {
    rows: Vec<usize>,
    y: Array1<usize>,
}

impl Sample {
    fn x(&self, features: &NounFeatures) -> Result<CsMat<f64>> {
        take_sparse_rows(features.x(), &self.rows)
    }
}

/// The study: the features and the classifiers' evaluation per cell.
pub struct EpshteynDejongStudy {
    settings: Settings,
    features: NounFeatures,
    figure_51: Vec<Setup>,
    figure_52: Vec<Setup>,
    /// The class means of each task over all its postings (for [`PriorGeometry::cosine`]).
    task_means: Vec<(Task, [Array1<f64>; 2])>,
    schema: Schema,
    /// Per prior sample (training task, replicate): the dual variables of the multi-task
    /// SVM fitted on that sample alone, which start every fit on it (`multitask_fit`);
    /// `None` when that fit failed, and the fits on it start cold.
    prior_duals: PerPriorSample<Option<Vec<f64>>>,
    /// Per prior sample (training task, replicate): its class means, which every setup, size
    /// and alignment on that sample learns its prior from.
    prior_means: PerPriorSample<[Array1<f64>; 2]>,
}

/// Values of each prior sample (training task, replicate), made once by whichever cell needs
/// them first (the same numbers whichever it is), while cells of other samples go on.
struct PerPriorSample<T>(Mutex<HashMap<PriorSampleKey, Arc<OnceLock<T>>>>);

/// A prior sample: its training task and replicate.
type PriorSampleKey = (Task, usize);

impl<T> PerPriorSample<T> {
    fn new() -> Self {
        Self(Mutex::new(HashMap::new()))
    }

    /// `use_value` of sample `key`'s value, made by `make` if no cell has made it yet.
    fn with<R>(
        &self,
        key: PriorSampleKey,
        make: impl FnOnce() -> T,
        use_value: impl FnOnce(&T) -> R,
    ) -> R {
        let cell = Arc::clone(
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .entry(key)
                .or_default(),
        );
        use_value(cell.get_or_init(make))
    }
}

impl EpshteynDejongStudy {
    /// Builds the features of `news` over `wordnet`'s nouns for `settings`.
    pub fn new(news: &Newsgroups, wordnet: &WordNet, settings: Settings) -> Result<Self> {
        let all = setups_over(&[0, 1, 2, 3]);
        let three = setups_over(&[0, 1, 2]);
        let pick = |indices: &[usize], from: &[Setup], what: &'static str| {
            indices
                .iter()
                .map(|&i| {
                    from.get(i).copied().ok_or_else(|| {
                        Error::invalid_parameter(
                            what,
                            format!("setup index {i} is not below {}", from.len()),
                        )
                    })
                })
                .collect::<Result<Vec<_>>>()
        };
        let figure_51 = pick(&settings.figure_51_setups, &all, "figure_51_setups")?;
        let figure_52 = pick(&settings.figure_52_setups, &three, "figure_52_setups")?;
        for (name, v) in [
            ("prior_fraction", settings.prior_fraction),
            ("figure_51_fraction", settings.figure_51_fraction),
        ] {
            if !(v > 0.0 && v < 1.0) {
                return Err(Error::invalid_parameter(name, "must be in (0, 1)"));
            }
        }
        let positive = settings
            .figure_53_betas
            .iter()
            .chain(&settings.figure_53_phis)
            .chain(&[settings.beta, settings.phi, settings.c1, settings.c2])
            .chain(&settings.multitask_c)
            .all(|v| v.is_finite() && *v > 0.0);
        if !positive {
            return Err(Error::invalid_parameter(
                "settings",
                "β, φ and the costs must be finite and positive",
            ));
        }
        if settings.figure_53_betas.iter().any(|&b| b > 1.0) {
            return Err(Error::invalid_parameter(
                "figure_53_betas",
                "shares of the maximum feasible β must not exceed 1",
            ));
        }
        if settings.figure_52_sizes.iter().any(|&m| m < 2) || settings.figure_53_size < 2 {
            return Err(Error::invalid_parameter(
                "figure_52_sizes",
                "a training set needs at least one posting of each class",
            ));
        }
        let features = NounFeatures::build(
            news,
            wordnet,
            settings.min_document_frequency,
            settings.max_distance,
        )?;
        for (g, group) in GROUPS.iter().enumerate() {
            if features.rows_of_group(g).len() < 20 {
                return Err(Error::invalid_parameter(
                    "newsgroups",
                    format!("group {} has fewer than 20 postings", group.newsgroup),
                ));
            }
        }
        let mut study = Self {
            settings,
            features,
            figure_51,
            figure_52,
            task_means: Vec::new(),
            schema: Schema::of::<Classifier, Metric>()?,
            prior_duals: PerPriorSample::new(),
            prior_means: PerPriorSample::new(),
        };
        for task in tasks_over(&[0, 1, 2, 3]) {
            let rows = task.0.map(|g| study.features.rows_of_group(g).to_vec());
            let all = Sample {
                y: rows[0]
                    .iter()
                    .map(|_| 0)
                    .chain(rows[1].iter().map(|_| 1))
                    .collect(),
                rows: rows.concat(),
            };
            let means = study.class_means(&all);
            study.task_means.push((task, means));
        }
        Ok(study)
    }

    /// The run's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The features.
    pub fn features(&self) -> &NounFeatures {
        &self.features
    }

    /// Figure 5.1's setups.
    pub fn figure_51_setups(&self) -> &[Setup] {
        &self.figure_51
    }

    /// Figure 5.2's setups.
    pub fn figure_52_setups(&self) -> &[Setup] {
        &self.figure_52
    }

    /// The postings of a task.
    pub fn task_size(&self, task: Task) -> usize {
        task.0
            .iter()
            .map(|&g| self.features.rows_of_group(g).len())
            .sum()
    }

    /// Figure 5.1's training-set size for a test task: the paper's 0.5%, rounded, at least 2.
    pub fn figure_51_size(&self, task: Task) -> usize {
        ((self.settings.figure_51_fraction * self.task_size(task) as f64).round() as usize).max(2)
    }

    /// The size of a 90% sample of a task.
    pub fn prior_size(&self, task: Task) -> usize {
        (self.settings.prior_fraction * self.task_size(task) as f64).round() as usize
    }

    fn setup_named(&self, id: &str) -> Result<Setup> {
        self.figure_51
            .iter()
            .chain(&self.figure_52)
            .find(|s| s.id() == id)
            .copied()
            .ok_or_else(|| Error::invalid_parameter("dataset", format!("unknown setup `{id}`")))
    }

    /// A stratified random sample of `m` postings of `task` (classes in proportion, at least
    /// one each) and the rest of the task, drawn from a stream named by `parts`.
    fn stratified_split(&self, task: Task, m: usize, parts: &[SeedPart<'_>]) -> (Sample, Sample) {
        let mut rng = replicate_rng(self.settings.seed, parts);
        let classes = task.0.map(|g| self.features.rows_of_group(g));
        let total = classes[0].len() + classes[1].len();
        let m = m.clamp(2, total - 2);
        let m1 = ((m as f64 * classes[1].len() as f64 / total as f64).round() as usize)
            .clamp(1, m - 1)
            .min(classes[1].len() - 1);
        let taken = [m - m1, m1];
        let (mut inside, mut outside) = (Vec::new(), Vec::new());
        for (class, rows) in classes.iter().enumerate() {
            let mut shuffled = rows.to_vec();
            shuffled.shuffle(&mut rng);
            let (a, b) = shuffled.split_at(taken[class].min(rows.len() - 1));
            inside.extend(a.iter().map(|&r| (r, class)));
            outside.extend(b.iter().map(|&r| (r, class)));
        }
        let sample = |pairs: Vec<(usize, usize)>| Sample {
            rows: pairs.iter().map(|&(r, _)| r).collect(),
            y: pairs.iter().map(|&(_, c)| c).collect(),
        };
        (sample(inside), sample(outside))
    }

    /// The prior's sample: 90% of the training task, the same for every setup, size and figure
    /// of a replicate.
    fn prior_sample(&self, task: Task, replicate: usize) -> Sample {
        let id = task.id();
        self.stratified_split(
            task,
            self.prior_size(task),
            &[
                SeedPart::Name("prior"),
                SeedPart::Name(&id),
                SeedPart::Index(replicate as u64),
            ],
        )
        .0
    }

    /// A training set of `m` postings of the test task and the evaluation postings.
    fn test_task_split(&self, task: Task, m: usize, replicate: usize) -> (Sample, Sample) {
        let id = task.id();
        self.stratified_split(
            task,
            m,
            &[
                SeedPart::Name("sample"),
                SeedPart::Name(&id),
                SeedPart::Index(m as u64),
                SeedPart::Index(replicate as u64),
            ],
        )
    }

    /// The class means of a sample (LDA with `Σ = I`, §2).
    fn class_means(&self, sample: &Sample) -> [Array1<f64>; 2] {
        let n = self.features.vocabulary().len();
        let mut sums = [Array1::zeros(n), Array1::zeros(n)];
        let mut counts = [0usize; 2];
        let x = self.features.x();
        for (&row, &class) in sample.rows.iter().zip(&sample.y) {
            counts[class] += 1;
            let view = x.outer_view(row).expect("row of the matrix");
            for (j, &v) in view.iter() {
                sums[class][j] += v;
            }
        }
        for (s, &c) in sums.iter_mut().zip(&counts) {
            *s /= c.max(1) as f64;
        }
        sums
    }

    /// The bilevel classifier's prior for a setup, learned on replicate `replicate`'s sample
    /// of the training task and carried to the test task's classes by `alignment`.
    fn prior(
        &self,
        setup: Setup,
        alignment: Alignment,
        replicate: usize,
    ) -> Result<Reconstruction> {
        let d = |task: Task| task.0.map(|g| self.features.distance(g));
        let train = d(setup.train);
        let [a, b] = [alignment.source(0), alignment.source(1)];
        self.prior_means.with(
            (setup.train, replicate),
            || self.class_means(&self.prior_sample(setup.train, replicate)),
            |means| {
                TransferPrior::learn([means[a].view(), means[b].view()], [train[a], train[b]])?
                    .reconstruct(d(setup.test))
            },
        )
    }

    /// The geometry of the prior of `setup` under `alignment`, learned on replicate
    /// `replicate`'s sample of the training task.
    pub fn prior_geometry(
        &self,
        setup: Setup,
        alignment: Alignment,
        replicate: usize,
    ) -> Result<PriorGeometry> {
        let reconstruction = self.prior(setup, alignment, replicate)?;
        Ok(self.geometry(setup.test, &reconstruction))
    }

    fn geometry(&self, test: Task, reconstruction: &Reconstruction) -> PriorGeometry {
        let (_, means) = self
            .task_means
            .iter()
            .find(|(t, _)| *t == test)
            .expect("the means of every task");
        PriorGeometry::of(reconstruction.prior.t(), [means[0].view(), means[1].view()])
    }

    /// SVM, bilevel and (optionally) multi-task SVM on a training set of `m` postings of the
    /// test task.
    #[allow(clippy::too_many_arguments)]
    fn transfer_cell(
        &self,
        setup: Setup,
        alignment: Alignment,
        m: usize,
        replicate: usize,
        beta: BetaChoice,
        phi: f64,
        multitask: bool,
        outcome: &mut Outcome,
    ) -> Result<()> {
        let reconstruction = self.prior(setup, alignment, replicate)?;
        let geometry = self.geometry(setup.test, &reconstruction);
        let beta = match beta {
            BetaChoice::Value(beta) => beta,
            BetaChoice::ShareOfMax(share) => share * geometry.beta_max,
        };
        if !(beta.is_finite() && beta > 0.0) {
            return Err(Error::invalid_parameter(
                "beta",
                format!("the prior of {} allows no positive β", setup.id()),
            ));
        }
        outcome.put(Classifier::Bilevel, Metric::Beta, beta)?;
        outcome.put(
            Classifier::Bilevel,
            Metric::PriorSeparation,
            geometry.separation,
        )?;
        if geometry.cosine.is_finite() {
            outcome.put(Classifier::Bilevel, Metric::PriorCosine, geometry.cosine)?;
        }
        let Reconstruction {
            prior,
            unseen,
            floored,
        } = reconstruction;
        outcome.put(
            Classifier::Bilevel,
            Metric::PriorUnseen,
            (unseen[0] + unseen[1]) as f64,
        )?;
        outcome.put(
            Classifier::Bilevel,
            Metric::PriorFloored,
            (floored[0] + floored[1]) as f64,
        )?;
        let (train, evaluation) = self.test_task_split(setup.test, m, replicate);
        let x_train = train.x(&self.features)?;
        let x_eval = evaluation.x(&self.features)?;

        let svm = LinearSvm::params()
            .c(0.5 / self.settings.c1)
            .bias_scaling(10.0)
            .fit_sparse(x_train.view(), train.y.view())?;
        let predicted = svm.predict_sparse(x_eval.view())?;
        outcome.put(
            Classifier::Svm,
            Metric::Accuracy,
            accuracy(predicted.view(), &evaluation.y),
        )?;

        let fit = BilevelClassifier::params(prior)
            .beta(beta)
            .phi(phi)
            .soft_margin(self.settings.c1, self.settings.c2, f64::INFINITY)
            .fit_sparse(x_train.view(), train.y.view());
        match fit {
            Ok(model) => {
                let predicted = model.predict_sparse(x_eval.view())?;
                outcome.put(
                    Classifier::Bilevel,
                    Metric::Accuracy,
                    accuracy(predicted.view(), &evaluation.y),
                )?;
                let report = model.report();
                outcome.put(
                    Classifier::Bilevel,
                    Metric::Iterations,
                    report.n_iterations() as f64,
                )?;
                let converged = matches!(report.status, gendisc_bilevel::FitStatus::Converged);
                outcome.put(
                    Classifier::Bilevel,
                    Metric::Converged,
                    f64::from(u8::from(converged)),
                )?;
                outcome.put(Classifier::Bilevel, Metric::Failed, 0.0)?;
            }
            // A solver failure is a result to count, not a reason to lose the study.
            Err(Error::NotConverged { .. } | Error::Numerical { .. }) => {
                outcome.put(Classifier::Bilevel, Metric::Failed, 1.0)?;
            }
            Err(e) => return Err(e),
        }

        if multitask {
            let prior_sample = self.prior_sample(setup.train, replicate);
            let x_prior = prior_sample.x(&self.features)?;
            let model = self.multitask_fit(
                (setup.train, replicate),
                (x_prior.view(), prior_sample.y.view()),
                (x_train.view(), train.y.view()),
            )?;
            let predicted = model.predict_sparse(1, x_eval.view())?;
            outcome.put(
                Classifier::MultitaskSvm,
                Metric::Accuracy,
                accuracy(predicted.view(), &evaluation.y),
            )?;
        }
        Ok(())
    }

    /// The multi-task SVM on the prior sample `prior` (task 0, keyed by its training task and
    /// replicate) and the test task's training set `train` (task 1), by dual coordinate
    /// descent started from the dual variables of the fit on `prior` alone. That fit is made
    /// once per prior sample, which each Figure 5.2 setup sharing its training task meets at
    /// every size: its rows and feature map are task 0's, so the warm fit only moves what
    /// `train` changes. The program is convex and the optimum is the cold fit's; the start
    /// changes the path, and so the solution within the solver's tolerance.
    fn multitask_fit<'a>(
        &self,
        key: (Task, usize),
        prior: (CsMatView<'a, f64>, ArrayView1<'a, usize>),
        train: (CsMatView<'a, f64>, ArrayView1<'a, usize>),
    ) -> Result<MultiTaskSvm> {
        let [c1, c2] = self.settings.multitask_c;
        let params = MultiTaskSvm::params()
            .c1(c1)
            .c2(c2)
            .solver(MultiTaskSolver::dual_coordinate_descent())
            .check()?;
        self.prior_duals.with(
            key,
            || {
                let alone = params.fit_sparse(&[prior]).ok()?;
                alone.dual_variables().map(<[f64]>::to_vec)
            },
            |start| match start {
                Some(start) => params.fit_sparse_from(&[prior, train], start),
                None => params.fit_sparse(&[prior, train]),
            },
        )
    }

    /// LDA (`Σ = I`) on 90% of the test task, evaluated on the other 10%.
    fn lda_cell(&self, task: Task, replicate: usize, outcome: &mut Outcome) -> Result<()> {
        let id = task.id();
        let (train, evaluation) = self.stratified_split(
            task,
            self.prior_size(task),
            &[
                SeedPart::Name("lda"),
                SeedPart::Name(&id),
                SeedPart::Index(replicate as u64),
            ],
        );
        let [mu1, mu2] = self.class_means(&train);
        // (μ₂ − μ₁)ᵀx − ½(μ₂ᵀμ₂ − μ₁ᵀμ₁) > 0 ↦ class 1 (§2).
        let w = &mu2 - &mu1;
        let b = -0.5 * (mu2.dot(&mu2) - mu1.dot(&mu1));
        let x_eval = evaluation.x(&self.features)?;
        let predicted = decision(x_eval.view(), w.view(), b).mapv(|f| usize::from(f > 0.0));
        outcome.put(
            Classifier::Lda90,
            Metric::Accuracy,
            accuracy(predicted.view(), &evaluation.y),
        )
    }

    /// The dataset name of a figure's cell.
    pub fn dataset_name(figure: &str, key: &str) -> String {
        format!("{figure}:{key}")
    }
}

/// `wᵀx_i + b` for every row of a CSR matrix.
fn decision(x: CsMatView<'_, f64>, w: ArrayView1<'_, f64>, b: f64) -> Array1<f64> {
    x.outer_iterator()
        .map(|row| b + row.iter().map(|(j, &v)| v * w[j]).sum::<f64>())
        .collect()
}

/// The share of `predicted` equal to `y`.
fn accuracy(predicted: ArrayView1<'_, usize>, y: &Array1<usize>) -> f64 {
    let correct = predicted.iter().zip(y).filter(|(p, t)| p == t).count();
    correct as f64 / y.len() as f64
}

impl Study for EpshteynDejongStudy {
    fn id(&self) -> &str {
        STUDY_ID
    }

    fn fingerprint(&self) -> String {
        // v4: the multi-task SVM starts from the dual variables of its prior sample's fit
        // alone; v3: step 1 over the span of the training rows and the means, whose
        // interior-point path differs from the earlier program's. Cells of earlier code differ
        // within tolerance.
        fingerprint(&(STUDY_ID, "v4", &self.settings))
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn cells(&self) -> Vec<Cell> {
        let s = &self.settings;
        let mut cells = Vec::new();
        for &alignment in &s.figure_51_alignments {
            for setup in &self.figure_51 {
                let name = Self::dataset_name(figure_51_dataset(alignment), &setup.id());
                let m = self.figure_51_size(setup.test);
                cells.extend((0..s.figure_51_replicates).map(|r| Cell::new(name.clone(), m, r)));
            }
        }
        let mut lda_tasks: Vec<Task> = Vec::new();
        for setup in &self.figure_52 {
            let name = Self::dataset_name(FIGURE_52, &setup.id());
            for &m in &s.figure_52_sizes {
                cells.extend((0..s.figure_52_replicates).map(|r| Cell::new(name.clone(), m, r)));
            }
            if !lda_tasks.contains(&setup.test) {
                lda_tasks.push(setup.test);
            }
        }
        for task in lda_tasks {
            let name = Self::dataset_name(FIGURE_52_LDA, &task.id());
            let m = self.prior_size(task);
            cells.extend((0..s.figure_52_replicates).map(|r| Cell::new(name.clone(), m, r)));
        }
        for (figure, values) in [
            (FIGURE_53_BETA, &s.figure_53_betas),
            (FIGURE_53_PHI, &s.figure_53_phis),
        ] {
            for i in 0..values.len() {
                let name = Self::dataset_name(figure, &i.to_string());
                cells.extend(
                    (0..s.figure_53_replicates)
                        .map(|r| Cell::new(name.clone(), s.figure_53_size, r)),
                );
            }
        }
        cells
    }

    fn run_cell(&self, cell: &Cell) -> Result<Outcome> {
        let (figure, key) = cell.dataset.split_once(':').ok_or_else(|| {
            Error::invalid_parameter("dataset", format!("unknown dataset `{}`", cell.dataset))
        })?;
        let s = &self.settings;
        let mut outcome = Outcome::new(&self.schema);
        let (m, r) = (cell.train_size, cell.replicate);
        let index = |values: &[f64]| -> Result<f64> {
            key.parse::<usize>()
                .ok()
                .and_then(|i| values.get(i).copied())
                .ok_or_else(|| {
                    Error::invalid_parameter("dataset", format!("unknown value index `{key}`"))
                })
        };
        match figure {
            FIGURE_51 | FIGURE_51_SWAPPED => {
                let setup = self.setup_named(key)?;
                let alignment = if figure == FIGURE_51 {
                    Alignment::ByGroupOrder
                } else {
                    Alignment::Swapped
                };
                let beta = BetaChoice::Value(s.beta);
                self.transfer_cell(setup, alignment, m, r, beta, s.phi, false, &mut outcome)?;
            }
            FIGURE_52 => {
                let setup = self.setup_named(key)?;
                let (alignment, beta) = (Alignment::ByGroupOrder, BetaChoice::Value(s.beta));
                self.transfer_cell(setup, alignment, m, r, beta, s.phi, true, &mut outcome)?;
            }
            FIGURE_52_LDA => {
                let task = self
                    .figure_52
                    .iter()
                    .map(|s| s.test)
                    .find(|t| t.id() == key)
                    .ok_or_else(|| {
                        Error::invalid_parameter("dataset", format!("unknown task `{key}`"))
                    })?;
                self.lda_cell(task, r, &mut outcome)?;
            }
            FIGURE_53_BETA => {
                let beta = BetaChoice::ShareOfMax(index(&s.figure_53_betas)?);
                let alignment = Alignment::ByGroupOrder;
                self.transfer_cell(
                    EXPERIMENT_1,
                    alignment,
                    m,
                    r,
                    beta,
                    s.phi,
                    false,
                    &mut outcome,
                )?;
            }
            FIGURE_53_PHI => {
                let phi = index(&s.figure_53_phis)?;
                let (alignment, beta) = (Alignment::ByGroupOrder, BetaChoice::Value(s.beta));
                self.transfer_cell(
                    EXPERIMENT_1,
                    alignment,
                    m,
                    r,
                    beta,
                    phi,
                    false,
                    &mut outcome,
                )?;
            }
            other => {
                return Err(Error::invalid_parameter(
                    "dataset",
                    format!("unknown figure `{other}`"),
                ))
            }
        }
        Ok(outcome)
    }
}

/// Runs the study (resuming from `out/cells.jsonl` when it holds cells of the same
/// configuration) and writes its outputs under `out`.
pub fn reproduce(
    news: &Newsgroups,
    wordnet: &WordNet,
    out: &Path,
    settings: Settings,
    runner: RunnerSettings,
) -> gendisc_engine::Result<StudyResults> {
    super::run_and_write(
        &EpshteynDejongStudy::new(news, wordnet, settings)?,
        out,
        runner,
        write_outputs,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use gendisc_engine::Runner;

    /// A small noun hierarchy in WordNet's file format: `entity` above `belief`, `weapon`,
    /// `region`, `vehicle`, each above its group's label word and a few related words.
    /// Each entry: words, then `(pointer symbol, target synset)`.
    type Synset = (&'static [&'static str], &'static [(&'static str, usize)]);
    const SYNSETS: [Synset; 14] = [
        (
            &["entity"],
            &[("~", 1), ("~", 3), ("~", 5), ("~", 7), ("~", 13)],
        ),
        (&["belief"], &[("@", 0), ("~", 2), ("~", 10)]),
        (&["atheism"], &[("@", 1)]),
        (&["weapon"], &[("@", 0), ("~", 4), ("~", 12)]),
        (&["gun", "firearm"], &[("@", 3)]),
        (&["region"], &[("@", 0), ("~", 6)]),
        (&["mideast", "middle_east"], &[("@", 5), ("%p", 11)]),
        (&["vehicle"], &[("@", 0), ("~", 8)]),
        (&["car", "auto", "automobile"], &[("@", 7), ("%p", 9)]),
        (&["engine"], &[("#p", 8)]),
        (&["god"], &[("@", 1)]),
        (&["israel"], &[("#p", 6)]),
        (&["bullet"], &[("@", 3)]),
        (&["person"], &[("@", 0)]),
    ];

    /// Writes `data.noun`, `index.noun` and `noun.exc` (format of `wndb(5WN)`) into `dir`.
    fn write_dictionary(dir: &Path) {
        let render = |offsets: &[usize]| {
            let mut text = String::from("  1 A dictionary written for this test.\n");
            for (i, (words, pointers)) in SYNSETS.iter().enumerate() {
                text += &format!("{:08} 03 n {:02x}", offsets[i], words.len());
                for w in *words {
                    text += &format!(" {w} 0");
                }
                text += &format!(" {:03}", pointers.len());
                for (symbol, to) in *pointers {
                    text += &format!(" {symbol} {:08} n 0000", offsets[*to]);
                }
                text += " | a test synset  \n";
            }
            text
        };
        let draft = render(&[0; SYNSETS.len()]);
        let header = draft.find('\n').unwrap() + 1;
        let mut offsets = Vec::new();
        let mut at = header;
        for line in draft[header..].split_inclusive('\n') {
            offsets.push(at);
            at += line.len();
        }
        std::fs::write(dir.join("data.noun"), render(&offsets)).unwrap();
        let mut lemmas: Vec<(&str, usize)> = SYNSETS
            .iter()
            .enumerate()
            .flat_map(|(i, (words, _))| words.iter().map(move |w| (*w, i)))
            .collect();
        lemmas.sort();
        let mut index = String::from("  1 An index written for this test.\n");
        for (lemma, synset) in lemmas {
            index += &format!("{lemma} n 1 1 @ 1 0 {:08}  \n", offsets[synset]);
        }
        std::fs::write(dir.join("index.noun"), index).unwrap();
        std::fs::write(dir.join("noun.exc"), "mice mouse\n").unwrap();
    }

    /// A new, empty directory of this test process named after `name`.
    fn empty_temp_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "gendisc-epshteyn-dejong-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    pub(super) fn wordnet(name: &str) -> WordNet {
        let dir = empty_temp_dir(&format!("wordnet-{name}"));
        write_dictionary(&dir);
        WordNet::open(&dir).unwrap()
    }

    /// Thirty postings per group: the group's own nouns, shared nouns and non-nouns.
    pub(super) fn collection() -> Newsgroups {
        let topics: [(&str, [&str; 3]); 4] = [
            ("alt.atheism", ["atheism", "god", "belief"]),
            ("rec.autos", ["car", "engine", "automobile"]),
            ("talk.politics.guns", ["gun", "bullet", "weapon"]),
            ("talk.politics.mideast", ["mideast", "israel", "region"]),
        ];
        let groups: Vec<String> = topics.iter().map(|(g, _)| g.to_string()).collect();
        let mut postings = Vec::new();
        for (g, (_, words)) in topics.iter().enumerate() {
            for i in 0..30 {
                let own = words[i % 3];
                let other = topics[(g + 1 + i % 3) % 4].1[i % 2];
                let body = match i % 4 {
                    0 => format!("the {own} and the {} quickly", words[(i + 1) % 3]),
                    1 => format!("a person said {own} {own}"),
                    2 => format!("an {own} or an {other}, said the entity"),
                    _ => format!("{other} {} was here", words[(i + 2) % 3]),
                };
                postings.push(super::super::test_posting(
                    g,
                    i,
                    format!("From: someone\nSubject: about {own}\n\n{body}\n"),
                ));
            }
        }
        Newsgroups::from_parts(groups, postings)
    }

    pub(super) fn settings() -> Settings {
        Settings {
            min_document_frequency: 1,
            figure_51_setups: vec![2, 7, 29],
            figure_51_replicates: 2,
            figure_52_setups: vec![1, 5],
            figure_52_sizes: vec![4, 8],
            figure_52_replicates: 2,
            figure_53_size: 4,
            figure_53_betas: vec![0.2, 1.0],
            figure_53_phis: vec![0.01, 100.0],
            figure_53_replicates: 2,
            ..Settings::paper()
        }
    }

    #[test]
    fn the_setups_are_the_papers() {
        let all = setups_over(&[0, 1, 2, 3]);
        assert_eq!(all.len(), 30);
        assert!(all.iter().all(|s| s.train != s.test));
        let three = setups_over(&[2, 0, 1]);
        assert_eq!(three.len(), 6);
        // The quick run's Figure 5.2 setups are the paper's Experiments 1 and 4.
        assert_eq!(three[1], EXPERIMENT_1);
        assert_eq!(three[5], EXPERIMENT_4);
        assert_eq!(EXPERIMENT_1.id(), "atheism-guns>guns-mideast");
        assert_eq!(EXPERIMENT_4.title(), "guns vs mideast → atheism vs mideast");
    }

    #[test]
    fn features_are_nouns_with_their_distances_to_the_labels() {
        let wn = wordnet("features");
        let study = EpshteynDejongStudy::new(&collection(), &wn, settings()).unwrap();
        let f = study.features();
        let column = |w: &str| f.vocabulary().iter().position(|v| v == w);
        // "quickly" and "the" are no nouns; "auto" and "automobile" share a synset.
        assert!(column("quickly").is_none() && column("the").is_none());
        let god = column("god").unwrap();
        let atheism = column("atheism").unwrap();
        assert_eq!(f.distance(0)[atheism], Some(0));
        assert_eq!(f.distance(0)[god], Some(2), "god → belief → atheism");
        assert_eq!(f.distance(3)[column("automobile").unwrap()], Some(0));
        assert_eq!(f.distance(3)[column("engine").unwrap()], Some(1));
        assert_eq!(f.stats().postings, [30, 30, 30, 30]);
        // Presence, not counts: "a person said car car" has a single 1 for car.
        assert!(f.x().data().iter().all(|&v| v == 1.0));
    }

    #[test]
    fn stratified_splits_partition_the_task_with_both_classes() {
        let wn = wordnet("splits");
        let study = EpshteynDejongStudy::new(&collection(), &wn, settings()).unwrap();
        let task = Task([1, 3]);
        for m in [2, 5, 30] {
            let (inside, outside) =
                study.stratified_split(task, m, &[SeedPart::Name("t"), SeedPart::Index(m as u64)]);
            assert_eq!(inside.rows.len(), m);
            assert_eq!(inside.rows.len() + outside.rows.len(), 60);
            assert!(inside.y.iter().any(|&c| c == 0) && inside.y.iter().any(|&c| c == 1));
            let mut all: Vec<usize> = inside.rows.iter().chain(&outside.rows).copied().collect();
            all.sort_unstable();
            all.dedup();
            assert_eq!(all.len(), 60);
            for (&row, &class) in inside.rows.iter().zip(&inside.y) {
                assert!(study.features().rows_of_group(task.0[class]).contains(&row));
            }
        }
    }

    #[test]
    fn the_study_is_deterministic_and_writes_every_output() {
        let wn = wordnet("study");
        let news = collection();
        let study = EpshteynDejongStudy::new(&news, &wn, settings()).unwrap();
        let one = Runner::new(RunnerSettings {
            threads: Some(1),
            ..Default::default()
        })
        .unwrap()
        .run(&study)
        .unwrap();
        let two = Runner::new(RunnerSettings {
            threads: Some(2),
            ..Default::default()
        })
        .unwrap()
        .run(&study)
        .unwrap();
        assert!(one.bitwise_eq(&two));
        let out = empty_temp_dir("out");
        write_outputs(&out, &study, &one).unwrap();
        for f in [
            "summary.csv",
            "fig5_1.csv",
            "fig5_2.csv",
            "fig5_3.csv",
            "fig5_1.svg",
            "fig5_2.svg",
            "fig5_3.svg",
            "REPORT.md",
            "verdicts.csv",
        ] {
            let len = std::fs::metadata(out.join(f)).unwrap().len();
            assert!(len > 0, "{f} is empty");
        }
        // One verdict line in the report per row of verdicts.csv, and each reading has its own.
        let report = std::fs::read_to_string(out.join("REPORT.md")).unwrap();
        let verdict_lines = gendisc_engine::verdict::count_verdict_lines(&report);
        let rows = gendisc_engine::verdict::read_verdicts_csv(
            &std::fs::read_to_string(out.join("verdicts.csv")).unwrap(),
        )
        .unwrap();
        assert_eq!(verdict_lines, rows.len(), "{report}");
        for reading in [
            Alignment::ByGroupOrder.name(),
            Alignment::Swapped.name(),
            SHARED_GROUP_READING,
        ] {
            assert!(report.contains(&format!("### Reading: {reading}")));
            for claim in ["5.1-above", "5.1-range", "5.1-significant"] {
                assert!(
                    rows.iter()
                        .any(|r| r.claim == claim && r.reading.starts_with(reading)),
                    "no verdict on {claim} under {reading}"
                );
            }
        }
        // The range claim has a verdict under each measure of improvement.
        assert_eq!(
            rows.iter().filter(|r| r.claim == "5.1-range").count(),
            3 * 3
        );
        // Figure 5.1's table: a header, then one row per setup under each alignment, and one
        // per setup sharing a group under the shared-group reading.
        let shared = study
            .figure_51_setups()
            .iter()
            .filter(|s| s.shared_group_alignment().is_some())
            .count();
        let csv = std::fs::read_to_string(out.join("fig5_1.csv")).unwrap();
        assert_eq!(csv.lines().count(), 1 + 3 + 3 + shared);
        for reading in Alignment::ALL.map(Alignment::name) {
            let n = csv
                .lines()
                .filter(|l| l.starts_with(&format!("{reading},")))
                .count();
            assert_eq!(n, 3, "{reading}");
        }
        // The SVM sees the same samples under both alignments; the bilevel classifier's prior
        // differs.
        let cell = |prefix: &str| {
            one.iter()
                .find(|(c, _)| {
                    c.dataset == EpshteynDejongStudy::dataset_name(prefix, &EXPERIMENT_1.id())
                        && c.replicate == 0
                })
                .map(|(_, o)| o)
                .unwrap()
        };
        let (order, swapped) = (cell(FIGURE_51), cell(FIGURE_51_SWAPPED));
        let (svm, bilevel) = (Classifier::Svm, Classifier::Bilevel);
        assert_eq!(
            order.value(svm, Metric::Accuracy),
            swapped.value(svm, Metric::Accuracy)
        );
        assert_ne!(
            order.value(bilevel, Metric::PriorSeparation),
            swapped.value(bilevel, Metric::PriorSeparation)
        );
        // Figure 5.3's β is each share of the sample's own maximum, never beyond it.
        for (c, o) in one.iter() {
            let Some((figure, i)) = c.dataset.split_once(':') else {
                continue;
            };
            if figure != FIGURE_53_BETA {
                continue;
            }
            let share = study.settings().figure_53_betas[i.parse::<usize>().unwrap()];
            let max = 0.5 * o.value(bilevel, Metric::PriorSeparation).unwrap();
            let used = o.value(bilevel, Metric::Beta).unwrap();
            assert!(
                (used - share * max).abs() <= 1e-12 * max,
                "{used} vs {share} × {max}"
            );
            assert!(used <= max);
        }
        // Every successful bilevel fit recorded its alternations.
        for (cell, outcome) in one.iter() {
            if !cell.dataset.starts_with(FIGURE_52_LDA) {
                let it = outcome.value(bilevel, Metric::Iterations).unwrap();
                assert!(it >= 1.0);
                let acc = outcome.value(bilevel, Metric::Accuracy).unwrap();
                assert!((0.0..=1.0).contains(&acc));
            }
        }
        std::fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn the_shared_group_alignment_maps_it_to_itself() {
        // Experiment 1: guns is class 1 of atheism vs guns and class 0 of guns vs mideast.
        assert_eq!(
            EXPERIMENT_1.shared_group_alignment(),
            Some(Alignment::Swapped)
        );
        // Experiment 4: mideast is class 1 of both tasks.
        assert_eq!(
            EXPERIMENT_4.shared_group_alignment(),
            Some(Alignment::ByGroupOrder)
        );
        let all = setups_over(&[0, 1, 2, 3]);
        let disjoint = all
            .iter()
            .filter(|s| s.shared_group_alignment().is_none())
            .count();
        assert_eq!(disjoint, 6, "three pairs of disjoint tasks, in both orders");
        for setup in &all {
            if let Some(a) = setup.shared_group_alignment() {
                // The shared group sits at class k of the test task and is informed by the
                // training class that is the same group.
                for k in 0..2 {
                    let g = setup.test.0[k];
                    if setup.train.0.contains(&g) {
                        assert_eq!(setup.train.0[a.source(k)], g, "{}", setup.id());
                    }
                }
            }
        }
        assert_eq!(Alignment::Swapped.source(0), 1);
        assert_eq!(Alignment::ByGroupOrder.source(1), 1);
    }

    #[test]
    fn a_swapped_alignment_on_a_swapped_task_is_the_same_prior() {
        // Carrying atheism vs guns to itself with its classes listed the other way round under
        // the swapped alignment must give each group its own compression back.
        let wn = wordnet("alignment");
        let study = EpshteynDejongStudy::new(&collection(), &wn, settings()).unwrap();
        let same = Setup {
            train: Task([0, 1]),
            test: Task([0, 1]),
        };
        let reversed = Setup {
            train: Task([0, 1]),
            test: Task([1, 0]),
        };
        let direct = study.prior(same, Alignment::ByGroupOrder, 0).unwrap();
        let swapped = study.prior(reversed, Alignment::Swapped, 0).unwrap();
        assert_eq!(direct.prior.t()[0], swapped.prior.t()[1]);
        assert_eq!(direct.prior.t()[1], swapped.prior.t()[0]);
        // And the by-order alignment on the reversed task gives each group the other's.
        let crossed = study.prior(reversed, Alignment::ByGroupOrder, 0).unwrap();
        assert_ne!(direct.prior.t()[0], crossed.prior.t()[1]);
        // The three priors learned from one cached pair of class means: the sample's own.
        let means = study.class_means(&study.prior_sample(Task([0, 1]), 0));
        study.prior_means.with(
            (Task([0, 1]), 0),
            || panic!("the priors above made the sample's means"),
            |cached| assert_eq!(cached, &means),
        );
    }

    #[test]
    fn prior_geometry_and_the_largest_feasible_beta() {
        let t = [
            ndarray::array![0.0, 1.0, 0.0],
            ndarray::array![3.0, 1.0, 4.0],
        ];
        let test = [
            ndarray::array![0.0, 0.0, 0.0],
            ndarray::array![0.0, 0.0, 2.0],
        ];
        let g = PriorGeometry::of([t[0].view(), t[1].view()], [test[0].view(), test[1].view()]);
        assert!((g.separation - 5.0).abs() < 1e-12);
        assert!((g.beta_max - 2.5).abs() < 1e-12);
        assert!((g.cosine - 0.8).abs() < 1e-12);
        let flat = PriorGeometry::of([t[0].view(), t[0].view()], [test[0].view(), test[1].view()]);
        assert!(flat.cosine.is_nan() && flat.beta_max == 0.0);
        // No hyperplane meets both (4.13) and (4.14) at μ_i = t_i with β above β_max, and
        // w ∝ t₂ − t₁ through the midpoint meets both at β_max.
        let d = &t[1] - &t[0];
        let margins = |w: &Array1<f64>, b: f64| {
            let norm = w.dot(w).sqrt();
            (-(w.dot(&t[0]) + b) / norm).min((w.dot(&t[1]) + b) / norm)
        };
        let mid = -0.5 * d.dot(&(&t[0] + &t[1]));
        assert!((margins(&d, mid) - g.beta_max).abs() < 1e-12);
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        for _ in 0..1000 {
            let w = ndarray::array![next(), next(), next()];
            let b = 5.0 * next();
            assert!(margins(&w, b) <= g.beta_max + 1e-12);
        }
    }

    #[test]
    fn figure_5_1_alone_writes_its_outputs() {
        let wn = wordnet("alone");
        let settings = Settings {
            figure_52_setups: vec![],
            figure_53_betas: vec![],
            figure_53_phis: vec![],
            ..settings()
        };
        let study = EpshteynDejongStudy::new(&collection(), &wn, settings).unwrap();
        let results = Runner::default().run(&study).unwrap();
        let out = empty_temp_dir("out-alone");
        write_outputs(&out, &study, &results).unwrap();
        assert!(out.join("fig5_1.svg").exists() && out.join("REPORT.md").exists());
        assert!(!out.join("fig5_2.svg").exists() && !out.join("fig5_3.svg").exists());
        std::fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn bad_settings_are_typed_errors() {
        let wn = wordnet("bad");
        let news = collection();
        for bad in [
            Settings {
                figure_51_setups: vec![30],
                ..settings()
            },
            Settings {
                figure_52_setups: vec![6],
                ..settings()
            },
            Settings {
                prior_fraction: 1.0,
                ..settings()
            },
            Settings {
                beta: 0.0,
                ..settings()
            },
            Settings {
                figure_52_sizes: vec![1],
                ..settings()
            },
            Settings {
                figure_53_betas: vec![0.5, 1.5],
                ..settings()
            },
            Settings {
                min_document_frequency: 1000,
                ..settings()
            },
        ] {
            assert!(EpshteynDejongStudy::new(&news, &wn, bad).is_err());
        }
        let missing = Newsgroups::from_parts(vec!["alt.atheism".into()], Vec::new());
        assert!(EpshteynDejongStudy::new(&missing, &wn, settings()).is_err());
    }
}
