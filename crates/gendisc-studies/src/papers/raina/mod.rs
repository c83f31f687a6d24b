//! Raina, Shen, Ng & McCallum (2003), *Classification with hybrid generative/discriminative
//! models*, §3 and §5: multinomial naive Bayes, logistic regression and the normalized hybrid
//! on pairs of newsgroups of 20 Newsgroups.
//!
//! The design follows the paper where it is explicit and, where it is not, makes the choices
//! below (also in `docs/raina.md`):
//!
//! * **Text** (§3): [`gendisc_text`] — the subject line (leading `Re:` removed) and the body
//!   are the two regions, every other header is skipped; numbers become `NUMBER`, e-mail
//!   addresses `EMAILADDR`; lower case; Snowball English (Porter2) stemming. The vocabulary of a
//!   fit is the set of words of its training documents only.
//! * **Data**: each pair pools the postings of both groups, bydate train and test halves
//!   together; the paper's x axis runs to 1,500 training documents, more than either bydate
//!   half holds.
//! * **Figure 1**: per replicate (10), a stratified random quarter of the pair is the test set
//!   and the rest the training pool; the training set of size `m` takes, per class, the first
//!   documents of the shuffled pool in proportion to the pool's classes (at least one of each),
//!   so the sets are nested across `m` and every size of a replicate shares its test set.
//!   Sizes: [`Settings::sizes`], capped at the pool (the cap itself is then the last size).
//! * **Figure 2**: ten stratified 50%/50% splits per pair; accuracy/coverage curves on a grid
//!   of [`COVERAGE_GRID`] coverages, averaged over the splits.
//! * **Naive Bayes**: multinomial, add-one smoothing over the training vocabulary (eq. (3)),
//!   empirical prior (eq. (2)), on the word counts of the whole posting (subject + body).
//! * **Logistic regression** (§3, "with Gaussian priors on the parameters", word counts as
//!   features): an unpenalised intercept and weights `~ N(0, σ²)`, `σ²` chosen by
//!   [`Settings::cv_folds`]-fold stratified cross-validation **on the training set only**, over
//!   [`Settings::prior_variances`], by the held-out conditional log-likelihood (ties to the
//!   smaller `σ²`); refitted on the whole training set with the chosen `σ²`.
//! * **Hybrid**: [`SparseHybrid`] over the same naive Bayes, `θ` by leave-one-out (eq. (11))
//!   from downdated counts, fitted as an unpenalised logistic regression (R's `glm` IRLS), as
//!   eq. (11) states. Series: normalized `R = 2` (the paper's), and the extras the paper
//!   describes without showing: normalized `R = 1`, unnormalized `R = 2` and `R = 1`.
//! * **Second reading of the hybrid**: each of the four hybrids again with a Gaussian prior
//!   `N(0, σ²)` on `θ_1 … θ_R`, `σ²` chosen as logistic regression's is (same grid, same
//!   cross-validation on the training set), since at small `m` many unpenalised `θ` fits are
//!   separated. The report judges every claim under both readings (`claims`).

mod claims;
mod paper;
mod report;

use std::path::Path;
use std::sync::LazyLock;

use gendisc_core::{Error, Result};
use gendisc_data::splits::{replicate_rng, stratified_k_fold, take_sparse_rows, SeedPart};
use gendisc_discriminative::logistic::LogisticRegression;
use gendisc_generative::MultinomialNb;
use gendisc_hybrid::{Hybrid, Normalization, SparseHybrid};
use gendisc_metrics::AccuracyCoverageCurve;
use gendisc_text::{IndexedCorpus, Newsgroups, RegionSelection, TokenizerSettings, Vocabulary};
use ndarray::{Array1, Array2, ArrayView2};
use rand::seq::SliceRandom;
use serde::Serialize;
use sprs::CsMat;

use gendisc_engine::{
    fingerprint, Cell, Key, Outcome, RunnerSettings, Schema, Study, StudyResults,
};

pub use paper::Raina;
pub use report::write_outputs;

/// The study's identifier, also its directory under `results/`.
pub const STUDY_ID: &str = "raina";

/// A pair of newsgroups of Figures 1 and 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Pair {
    /// The panel title of the paper, e.g. `atheism vs religion.misc`.
    pub title: &'static str,
    /// An identifier without spaces, used as the dataset name of cells.
    pub id: &'static str,
    /// The full newsgroup names: class 0, class 1.
    pub groups: [&'static str; 2],
}

/// The six pairs of Figure 1 (a)–(f), in the paper's order. Figure 2 uses the same pairs.
pub const PAIRS: [Pair; 6] = [
    Pair {
        title: "atheism vs religion.misc",
        id: "atheism-religion.misc",
        groups: ["alt.atheism", "talk.religion.misc"],
    },
    Pair {
        title: "pc.hardware vs mac.hardware",
        id: "pc.hardware-mac.hardware",
        groups: ["comp.sys.ibm.pc.hardware", "comp.sys.mac.hardware"],
    },
    Pair {
        title: "graphics vs mideast",
        id: "graphics-mideast",
        groups: ["comp.graphics", "talk.politics.mideast"],
    },
    Pair {
        title: "atheism vs sci.med",
        id: "atheism-sci.med",
        groups: ["alt.atheism", "sci.med"],
    },
    Pair {
        title: "autos vs motorcycles",
        id: "autos-motorcycles",
        groups: ["rec.autos", "rec.motorcycles"],
    },
    Pair {
        title: "hockey vs christian",
        id: "hockey-christian",
        groups: ["rec.sport.hockey", "soc.religion.christian"],
    },
];

/// The classifiers, in the order of the outcome table. The first three are Figure 1's; each of
/// the four hybrids of the paper's reading is followed, four places on, by its second reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Classifier {
    /// Multinomial naive Bayes on the whole posting.
    NaiveBayes,
    /// Logistic regression on word counts, Gaussian prior, `σ²` by cross-validation.
    LogisticRegression,
    /// The normalized hybrid, `R = 2` (subject, body), leave-one-out `θ`.
    Hybrid,
    /// The normalized hybrid, `R = 1` (the whole posting), leave-one-out `θ` (Figure 2).
    HybridR1,
    /// Extra: the unnormalized hybrid, `R = 2`.
    HybridUnnormalized,
    /// The unnormalized hybrid, `R = 1` (Figure 2).
    HybridUnnormalizedR1,
    /// The second reading: the normalized hybrid, `R = 2`, with a Gaussian prior on `θ`.
    HybridL2,
    /// The second reading of the normalized hybrid, `R = 1`.
    HybridR1L2,
    /// The second reading of the unnormalized hybrid, `R = 2`.
    HybridUnnormalizedL2,
    /// The second reading of the unnormalized hybrid, `R = 1`.
    HybridUnnormalizedR1L2,
}

impl Key for Classifier {
    const ALL: &'static [Self] = &[
        Self::NaiveBayes,
        Self::LogisticRegression,
        Self::Hybrid,
        Self::HybridR1,
        Self::HybridUnnormalized,
        Self::HybridUnnormalizedR1,
        Self::HybridL2,
        Self::HybridR1L2,
        Self::HybridUnnormalizedL2,
        Self::HybridUnnormalizedR1L2,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::NaiveBayes => NAIVE_BAYES,
            Self::LogisticRegression => LOGISTIC_REGRESSION,
            Self::Hybrid => HYBRID,
            Self::HybridR1 => HYBRID_R1,
            Self::HybridUnnormalized => HYBRID_UNNORMALIZED,
            Self::HybridUnnormalizedR1 => HYBRID_UNNORMALIZED_R1,
            Self::HybridL2 => HYBRID_L2,
            Self::HybridR1L2 => HYBRID_R1_L2,
            Self::HybridUnnormalizedL2 => HYBRID_UNNORMALIZED_L2,
            Self::HybridUnnormalizedR1L2 => HYBRID_UNNORMALIZED_R1_L2,
        }
    }
}

/// Multinomial naive Bayes on the whole posting.
pub const NAIVE_BAYES: &str = "naive-bayes";
/// Logistic regression on word counts, Gaussian prior, `σ²` by cross-validation.
pub const LOGISTIC_REGRESSION: &str = "logistic-regression";
/// The normalized hybrid, `R = 2` (subject, body), leave-one-out `θ`.
pub const HYBRID: &str = "hybrid";
/// The normalized hybrid, `R = 1` (the whole posting), leave-one-out `θ` (Figure 2).
pub const HYBRID_R1: &str = "hybrid-r1";
/// Extra: the unnormalized hybrid, `R = 2`.
pub const HYBRID_UNNORMALIZED: &str = "hybrid-unnormalized";
/// The unnormalized hybrid, `R = 1` (Figure 2).
pub const HYBRID_UNNORMALIZED_R1: &str = "hybrid-unnormalized-r1";

/// The second reading: the normalized hybrid, `R = 2`, with a Gaussian prior `N(0, σ²)` on
/// `θ_1, θ_2` (an L2 penalty), `σ²` by the cross-validation of logistic regression.
pub const HYBRID_L2: &str = "hybrid-l2";
/// The second reading of the normalized hybrid, `R = 1`.
pub const HYBRID_R1_L2: &str = "hybrid-r1-l2";
/// The second reading of the unnormalized hybrid, `R = 2`.
pub const HYBRID_UNNORMALIZED_L2: &str = "hybrid-unnormalized-l2";
/// The second reading of the unnormalized hybrid, `R = 1`.
pub const HYBRID_UNNORMALIZED_R1_L2: &str = "hybrid-unnormalized-r1-l2";

/// The coverages at which Figure 2's accuracies are recorded: 2%, 4%, …, 100%.
pub const COVERAGE_GRID: usize = 50;

/// What is measured of each classifier in a cell: the schema's metrics, in its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Test error rate (`er`).
    ErrorRate,
    /// Mean test logistic loss `−log p(y | x)` (`ll-mean`).
    LogLoss,
    /// A hybrid's `θ_0`, `θ_1`, `θ_2` (`theta-0` …; absent where the model has no such
    /// weight).
    Theta(u8),
    /// 1 when a hybrid's `θ` fit was (quasi-)separated, else 0 (`separated`).
    Separated,
    /// The prior variance chosen by cross-validation: logistic regression's on its weights,
    /// an L2 hybrid's on `θ` (`prior-variance`).
    PriorVariance,
    /// The coverage at 95% accuracy of one split (Figure 2 cells; `coverage-at-95`).
    CoverageAt95,
    /// The accuracy at grid coverage `c / COVERAGE_GRID`, `1 ≤ c ≤ COVERAGE_GRID` (Figure 2
    /// cells; `accuracy-at-002` … `accuracy-at-100`).
    AccuracyAt(u8),
}

/// The metrics before the accuracies of the coverage grid.
const FIXED_METRICS: usize = 8;

/// Every metric, in the schema's order.
const METRICS: [Metric; FIXED_METRICS + COVERAGE_GRID] = {
    let head = [
        Metric::ErrorRate,
        Metric::LogLoss,
        Metric::Theta(0),
        Metric::Theta(1),
        Metric::Theta(2),
        Metric::Separated,
        Metric::PriorVariance,
        Metric::CoverageAt95,
    ];
    let mut metrics = [Metric::ErrorRate; FIXED_METRICS + COVERAGE_GRID];
    let mut i = 0;
    while i < metrics.len() {
        metrics[i] = if i < FIXED_METRICS {
            head[i]
        } else {
            Metric::AccuracyAt((i - FIXED_METRICS + 1) as u8)
        };
        i += 1;
    }
    metrics
};

/// The names of the coverage grid's accuracies, made once so that a name lives as long as the
/// metric.
static ACCURACY_NAMES: LazyLock<Vec<String>> = LazyLock::new(|| {
    (1..=COVERAGE_GRID)
        .map(|c| format!("accuracy-at-{:03}", c * 100 / COVERAGE_GRID))
        .collect()
});

impl Key for Metric {
    const ALL: &'static [Self] = &METRICS;

    fn name(self) -> &'static str {
        match self {
            Self::ErrorRate => "er",
            Self::LogLoss => "ll-mean",
            Self::Theta(t) => ["theta-0", "theta-1", "theta-2"][usize::from(t)],
            Self::Separated => "separated",
            Self::PriorVariance => "prior-variance",
            Self::CoverageAt95 => "coverage-at-95",
            Self::AccuracyAt(c) => &ACCURACY_NAMES[usize::from(c) - 1],
        }
    }

    fn index(self) -> usize {
        match self {
            Self::ErrorRate => 0,
            Self::LogLoss => 1,
            Self::Theta(t) => 2 + usize::from(t),
            Self::Separated => 5,
            Self::PriorVariance => 6,
            Self::CoverageAt95 => 7,
            Self::AccuracyAt(c) => FIXED_METRICS - 1 + usize::from(c),
        }
    }
}

/// The coverage of grid point `c`.
pub fn grid_coverage(c: usize) -> f64 {
    c as f64 / COVERAGE_GRID as f64
}

/// The prefix of Figure 1 cells' dataset names.
pub const FIGURE_1: &str = "fig1";
/// The prefix of Figure 2 cells' dataset names.
pub const FIGURE_2: &str = "fig2";

/// The configuration of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    /// The study seed: splits and cross-validation folds derive from it.
    pub seed: u64,
    /// Indices into [`PAIRS`] of the pairs to run.
    pub pairs: Vec<usize>,
    /// Training-set sizes of Figure 1 (capped per pair at its training pool).
    pub sizes: Vec<usize>,
    /// Figure 1's random train/test splits per pair (the paper: 10).
    pub replicates: usize,
    /// Fraction of each pair held out as Figure 1's test set.
    pub test_fraction: f64,
    /// Figure 2's 50%/50% splits per pair (the paper: 10).
    pub coverage_splits: usize,
    /// The grid of prior variances `σ²` for logistic regression, strictly increasing: each
    /// cross-validation fold walks it from the strongest prior to the weakest, every fit
    /// warm-started from the previous one.
    pub prior_variances: Vec<f64>,
    /// Folds of the cross-validation that picks `σ²`.
    pub cv_folds: usize,
    /// Logistic regression's stopping tolerance: L-BFGS stops when the gradient norm of the
    /// mean penalised negative log-likelihood is below it.
    pub lr_tolerance: f64,
}

impl Settings {
    /// The paper's design: six pairs, `m` up to 1,500, 10 splits for each figure.
    pub fn paper() -> Self {
        Self {
            seed: 20_030_801,
            pairs: (0..PAIRS.len()).collect(),
            sizes: vec![10, 25, 50, 100, 200, 400, 700, 1000, 1500],
            replicates: 10,
            test_fraction: 0.25,
            coverage_splits: 10,
            prior_variances: vec![0.01, 0.1, 1.0, 10.0, 100.0],
            cv_folds: 3,
            lr_tolerance: 1e-5,
        }
    }

    /// The reduced run of continuous integration: every pair, two sizes and two splits for
    /// Figure 1, one split for Figure 2, three prior variances.
    pub fn quick() -> Self {
        Self {
            sizes: vec![25, 200],
            replicates: 2,
            coverage_splits: 1,
            prior_variances: vec![0.1, 1.0, 10.0],
            ..Self::paper()
        }
    }
}

/// The documents of one pair: indices into the corpus, by class.
#[derive(Debug, Clone)]
struct PairDocuments {
    by_class: [Vec<usize>; 2],
}

impl PairDocuments {
    /// Figure 1's training pool size: the documents not in the test set.
    fn pool_size(&self, test_fraction: f64) -> usize {
        self.by_class
            .iter()
            .map(|c| c.len() - held_out(c.len(), test_fraction))
            .sum()
    }
}

/// The number of documents of a class held out: `⌈f n⌉`, at least one, leaving at least one.
fn held_out(n: usize, fraction: f64) -> usize {
    ((fraction * n as f64).ceil() as usize).clamp(1, n.saturating_sub(1).max(1))
}

/// The smallest training set: two documents per class, so that leave-one-out leaves one.
pub const MIN_TRAIN_SIZE: usize = 4;

/// The study: the indexed collection and the classifiers' evaluation per cell.
pub struct RainaStudy {
    settings: Settings,
    corpus: IndexedCorpus,
    pairs: Vec<(Pair, PairDocuments)>,
    latin1: usize,
    schema: Schema,
}

impl RainaStudy {
    /// Indexes the collection read from `news` for the pairs of `settings`.
    pub fn new(news: &Newsgroups, settings: Settings) -> Result<Self> {
        if settings.pairs.iter().any(|&p| p >= PAIRS.len()) {
            return Err(Error::invalid_parameter(
                "pairs",
                format!("pair indices must be below {}", PAIRS.len()),
            ));
        }
        if settings.prior_variances.is_empty() || settings.cv_folds < 2 {
            return Err(Error::invalid_parameter(
                "prior_variances",
                "a non-empty grid and at least two folds are needed",
            ));
        }
        if settings
            .prior_variances
            .windows(2)
            .any(|w| w[0].partial_cmp(&w[1]) != Some(std::cmp::Ordering::Less))
        {
            return Err(Error::invalid_parameter(
                "prior_variances",
                "the grid must be strictly increasing (it is walked with warm starts)",
            ));
        }
        if !(settings.test_fraction > 0.0 && settings.test_fraction < 1.0) {
            return Err(Error::invalid_parameter(
                "test_fraction",
                "must be in (0, 1)",
            ));
        }
        let corpus = IndexedCorpus::newsgroups(news, TokenizerSettings::default());
        let mut pairs = Vec::new();
        for &p in &settings.pairs {
            let pair = PAIRS[p];
            let mut by_class: [Vec<usize>; 2] = Default::default();
            for (class, group) in pair.groups.iter().enumerate() {
                let g = news.group_index(group).ok_or_else(|| {
                    Error::invalid_parameter(
                        "newsgroups",
                        format!("the collection has no group {group}"),
                    )
                })?;
                by_class[class] = corpus.documents_of(g);
                if by_class[class].len() < 4 {
                    return Err(Error::invalid_parameter(
                        "newsgroups",
                        format!("group {group} has fewer than 4 postings"),
                    ));
                }
            }
            pairs.push((pair, PairDocuments { by_class }));
        }
        let schema = Schema::of::<Classifier, Metric>()?;
        Ok(Self {
            settings,
            corpus,
            pairs,
            latin1: news.report().latin1.len(),
            schema,
        })
    }

    /// The run's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The pairs of the run.
    pub fn pairs(&self) -> impl Iterator<Item = &Pair> {
        self.pairs.iter().map(|(p, _)| p)
    }

    /// The number of postings of a pair, per class.
    pub fn pair_counts(&self, pair: &Pair) -> Option<[usize; 2]> {
        self.pairs
            .iter()
            .find(|(p, _)| p.id == pair.id)
            .map(|(_, d)| [d.by_class[0].len(), d.by_class[1].len()])
    }

    /// The number of postings decoded as Latin-1 (not valid UTF-8).
    pub fn latin1_postings(&self) -> usize {
        self.latin1
    }

    /// The number of postings in the collection whose subject region is empty.
    pub fn empty_subjects(&self) -> usize {
        self.corpus
            .documents()
            .iter()
            .filter(|d| d.region_length(gendisc_text::SUBJECT) == 0)
            .count()
    }

    /// Figure 1's training sizes for a pair: the sizes below its pool, then the pool size when
    /// a larger size was asked for.
    pub fn sizes_of(&self, pair: &Pair) -> Vec<usize> {
        let Some((_, docs)) = self.pairs.iter().find(|(p, _)| p.id == pair.id) else {
            return Vec::new();
        };
        let pool = docs.pool_size(self.settings.test_fraction);
        let mut sizes: Vec<usize> = self
            .settings
            .sizes
            .iter()
            .map(|&m| m.min(pool))
            .filter(|&m| m >= MIN_TRAIN_SIZE)
            .collect();
        sizes.dedup();
        sizes
    }

    /// The dataset name of a pair's cells in a figure.
    pub fn dataset_name(figure: &str, pair: &Pair) -> String {
        format!("{figure}:{}", pair.id)
    }

    fn pair_of<'a>(&self, dataset: &'a str) -> Result<(&'a str, &PairDocuments, &Pair)> {
        let (figure, id) = dataset.split_once(':').ok_or_else(|| {
            Error::invalid_parameter("dataset", format!("unknown dataset `{dataset}`"))
        })?;
        let (pair, docs) =
            self.pairs.iter().find(|(p, _)| p.id == id).ok_or_else(|| {
                Error::invalid_parameter("dataset", format!("unknown pair `{id}`"))
            })?;
        Ok((figure, docs, pair))
    }

    /// The split of a Figure 1 cell: test documents, and the training documents of size `m`.
    fn figure1_split(
        &self,
        pair: &Pair,
        docs: &PairDocuments,
        m: usize,
        replicate: usize,
    ) -> Split {
        let mut rng = replicate_rng(
            self.settings.seed,
            &[
                SeedPart::Name("fig1-split"),
                SeedPart::Name(pair.id),
                SeedPart::Index(replicate as u64),
            ],
        );
        let mut test = Vec::new();
        let mut pools: [Vec<usize>; 2] = Default::default();
        for (class, documents) in docs.by_class.iter().enumerate() {
            let mut shuffled = documents.clone();
            shuffled.shuffle(&mut rng);
            let h = held_out(shuffled.len(), self.settings.test_fraction);
            test.extend(shuffled[..h].iter().map(|&d| (d, class)));
            pools[class] = shuffled[h..].to_vec();
        }
        let pool = pools[0].len() + pools[1].len();
        let m = m.min(pool);
        // Two documents of each class at least, so that leave-one-out never empties a class.
        let m1 = ((m as f64 * pools[1].len() as f64 / pool as f64).round() as usize)
            .clamp(2, m - 2)
            .min(pools[1].len());
        let m0 = (m - m1).min(pools[0].len());
        let mut train: Vec<(usize, usize)> = pools[0][..m0].iter().map(|&d| (d, 0)).collect();
        train.extend(pools[1][..m1].iter().map(|&d| (d, 1)));
        Split { train, test }
    }

    /// The split of a Figure 2 cell: half of each class for training, the rest for testing.
    fn figure2_split(&self, pair: &Pair, docs: &PairDocuments, replicate: usize) -> Split {
        let mut rng = replicate_rng(
            self.settings.seed,
            &[
                SeedPart::Name("fig2-split"),
                SeedPart::Name(pair.id),
                SeedPart::Index(replicate as u64),
            ],
        );
        let mut split = Split {
            train: Vec::new(),
            test: Vec::new(),
        };
        for (class, documents) in docs.by_class.iter().enumerate() {
            let mut shuffled = documents.clone();
            shuffled.shuffle(&mut rng);
            let half = shuffled.len() / 2;
            split
                .train
                .extend(shuffled[..half].iter().map(|&d| (d, class)));
            split
                .test
                .extend(shuffled[half..].iter().map(|&d| (d, class)));
        }
        split
    }

    fn figure2_train_size(docs: &PairDocuments) -> usize {
        docs.by_class.iter().map(|c| c.len() / 2).sum()
    }
}

/// Training and test documents with their classes (0 or 1).
struct Split {
    train: Vec<(usize, usize)>,
    test: Vec<(usize, usize)>,
}

impl Study for RainaStudy {
    fn id(&self) -> &str {
        STUDY_ID
    }

    fn fingerprint(&self) -> String {
        // v3: glm's IRLS, behind the unpenalised hybrids' θ, takes its exponentials from
        // `exp_in_place` (within an ulp of libm's): those fits move in their last bits, and
        // further where glm's deviance tolerance stops one on a flat ridge.
        fingerprint(&(STUDY_ID, "v3", &self.settings))
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn cells(&self) -> Vec<Cell> {
        let mut cells = Vec::new();
        for (pair, _) in &self.pairs {
            let name = Self::dataset_name(FIGURE_1, pair);
            for m in self.sizes_of(pair) {
                for r in 0..self.settings.replicates {
                    cells.push(Cell::new(name.clone(), m, r));
                }
            }
        }
        for (pair, docs) in &self.pairs {
            let name = Self::dataset_name(FIGURE_2, pair);
            for r in 0..self.settings.coverage_splits {
                cells.push(Cell::new(name.clone(), Self::figure2_train_size(docs), r));
            }
        }
        cells
    }

    fn run_cell(&self, cell: &Cell) -> Result<Outcome> {
        let (figure, docs, pair) = self.pair_of(&cell.dataset)?;
        let (split, coverage) = match figure {
            FIGURE_1 => (
                self.figure1_split(pair, docs, cell.train_size, cell.replicate),
                false,
            ),
            FIGURE_2 => (self.figure2_split(pair, docs, cell.replicate), true),
            other => {
                return Err(Error::invalid_parameter(
                    "dataset",
                    format!("unknown figure `{other}`"),
                ))
            }
        };
        let mut outcome = Outcome::new(&self.schema);
        let mut cv_rng = cell.rng(self.settings.seed);
        self.evaluate(&split, coverage, &mut cv_rng, &mut outcome)?;
        Ok(outcome)
    }
}

/// The count matrices of a set of documents: subject, body, whole posting.
struct Counts {
    subject: CsMat<f64>,
    body: CsMat<f64>,
    total: CsMat<f64>,
    y: Array1<usize>,
}

impl Counts {
    fn new(
        corpus: &IndexedCorpus,
        vocabulary: &Vocabulary,
        docs: &[(usize, usize)],
    ) -> Result<Self> {
        let ids: Vec<usize> = docs.iter().map(|&(d, _)| d).collect();
        Ok(Self {
            subject: vocabulary.counts(
                corpus,
                &ids,
                RegionSelection::Region(gendisc_text::SUBJECT),
            )?,
            body: vocabulary.counts(corpus, &ids, RegionSelection::Region(gendisc_text::BODY))?,
            total: vocabulary.counts(corpus, &ids, RegionSelection::All)?,
            y: docs.iter().map(|&(_, c)| c).collect(),
        })
    }
}

impl RainaStudy {
    fn evaluate(
        &self,
        split: &Split,
        coverage: bool,
        cv_rng: &mut rand_chacha::ChaCha8Rng,
        outcome: &mut Outcome,
    ) -> Result<()> {
        let train_ids: Vec<usize> = split.train.iter().map(|&(d, _)| d).collect();
        let vocabulary = Vocabulary::from_training(&self.corpus, &train_ids)?;
        let train = Counts::new(&self.corpus, &vocabulary, &split.train)?;
        let test = Counts::new(&self.corpus, &vocabulary, &split.test)?;
        let record = |outcome: &mut Outcome, classifier: Classifier, log_proba: Array2<f64>| {
            record_evaluation(outcome, classifier, log_proba.view(), &test.y, coverage)
        };

        let nb = MultinomialNb::params()
            .n_classes(2)
            .fit_sparse(train.total.view(), train.y.view())?;
        record(
            outcome,
            Classifier::NaiveBayes,
            nb.predict_log_proba_sparse(test.total.view())?,
        )?;

        let variance = self.choose_prior_variance(&train, cv_rng)?;
        let lr = LogisticRegression::params()
            .n_classes(2)
            .prior_variance(variance)
            .tolerance(self.settings.lr_tolerance)
            .fit_sparse(train.total.view(), train.y.view())?;
        let logistic = Classifier::LogisticRegression;
        record(
            outcome,
            logistic,
            lr.predict_log_proba_sparse(test.total.view())?,
        )?;
        outcome.put(logistic, Metric::PriorVariance, variance)?;

        let two = |c: &Counts| [c.subject.clone(), c.body.clone()];
        let one = |c: &Counts| [c.total.clone()];
        for (classifier, l2, normalization, two_regions) in [
            (
                Classifier::Hybrid,
                Classifier::HybridL2,
                Normalization::Normalized,
                true,
            ),
            (
                Classifier::HybridR1,
                Classifier::HybridR1L2,
                Normalization::Normalized,
                false,
            ),
            (
                Classifier::HybridUnnormalized,
                Classifier::HybridUnnormalizedL2,
                Normalization::Unnormalized,
                true,
            ),
            (
                Classifier::HybridUnnormalizedR1,
                Classifier::HybridUnnormalizedR1L2,
                Normalization::Unnormalized,
                false,
            ),
        ] {
            let (train_regions, test_regions): (Vec<CsMat<f64>>, Vec<CsMat<f64>>) = if two_regions {
                (two(&train).to_vec(), two(&test).to_vec())
            } else {
                (one(&train).to_vec(), one(&test).to_vec())
            };
            let train_views: Vec<_> = train_regions.iter().map(|m| m.view()).collect();
            let test_views: Vec<_> = test_regions.iter().map(|m| m.view()).collect();
            let params = Hybrid::params(MultinomialNb::params().n_classes(2))
                .normalization(normalization)
                .leave_one_out(true);
            // The paper's reading: θ by unpenalised maximum likelihood (eq. (11)).
            let hybrid: SparseHybrid = params.fit_sparse(&train_views, train.y.view())?;
            record(outcome, classifier, hybrid.predict_log_proba(&test_views)?)?;
            self.record_theta(outcome, classifier, &hybrid)?;
            let separated = hybrid.report().is_some_and(|r| r.separated);
            outcome.put(
                classifier,
                Metric::Separated,
                f64::from(u8::from(separated)),
            )?;
            // The second reading (`l2`): θ under an L2 prior, σ² by cross-validation on the
            // training set.
            let variance =
                self.choose_theta_prior_variance(&params, &train_regions, &train.y, cv_rng)?;
            let hybrid: SparseHybrid = params
                .prior_variance(variance)
                .fit_sparse(&train_views, train.y.view())?;
            record(outcome, l2, hybrid.predict_log_proba(&test_views)?)?;
            self.record_theta(outcome, l2, &hybrid)?;
            outcome.put(l2, Metric::PriorVariance, variance)?;
        }
        Ok(())
    }

    fn record_theta(
        &self,
        outcome: &mut Outcome,
        classifier: Classifier,
        hybrid: &SparseHybrid,
    ) -> Result<()> {
        for (t, &value) in (0..).zip(hybrid.theta()?.iter()) {
            outcome.put(classifier, Metric::Theta(t), value)?;
        }
        Ok(())
    }

    /// The prior variance of the hybrid's `θ` (its second reading), chosen as logistic
    /// regression's is ([`RainaStudy::choose_prior_variance`]): over the same grid, by the
    /// held-out conditional log-likelihood of stratified k-fold cross-validation on the training
    /// set only, each fold's `θ` fitted by leave-one-out as in the full fit; ties go to the
    /// smaller `σ²`.
    fn choose_theta_prior_variance(
        &self,
        params: &gendisc_hybrid::HybridParams<gendisc_generative::MultinomialNbParams>,
        regions: &[CsMat<f64>],
        y: &Array1<usize>,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Result<f64> {
        let grid = &self.settings.prior_variances;
        let smallest_class = y
            .iter()
            .filter(|&&c| c == 0)
            .count()
            .min(y.iter().filter(|&&c| c == 1).count());
        let folds = self.settings.cv_folds.min(smallest_class);
        if folds < 2 {
            return Ok(grid[grid.len() / 2]);
        }
        let splits = stratified_k_fold(y.view(), folds, rng)?;
        let mut log_likelihood = vec![0.0; grid.len()];
        for fold in &splits {
            let y_fit: Array1<usize> = fold.train.iter().map(|&i| y[i]).collect();
            // Leave-one-out needs two documents of each class in the fold's training part.
            if (0..2).any(|c| y_fit.iter().filter(|&&k| k == c).count() < 2) {
                continue;
            }
            let fit_regions = regions
                .iter()
                .map(|r| take_sparse_rows(r.view(), &fold.train))
                .collect::<Result<Vec<_>>>()?;
            let held_regions = regions
                .iter()
                .map(|r| take_sparse_rows(r.view(), &fold.test))
                .collect::<Result<Vec<_>>>()?;
            let fit_views: Vec<_> = fit_regions.iter().map(|m| m.view()).collect();
            let held_views: Vec<_> = held_regions.iter().map(|m| m.view()).collect();
            // The generative part and the region features do not depend on σ²θ: one path.
            let path = params.fit_sparse_path(&fit_views, y_fit.view(), grid)?;
            for (g, hybrid) in path.iter().enumerate() {
                let log_proba = hybrid.predict_log_proba(&held_views)?;
                log_likelihood[g] += fold
                    .test
                    .iter()
                    .enumerate()
                    .map(|(row, &i)| log_proba[[row, y[i]]])
                    .sum::<f64>();
            }
        }
        let mut best = (f64::NEG_INFINITY, grid[0]);
        for (&variance, &ll) in grid.iter().zip(&log_likelihood) {
            if ll > best.0 {
                best = (ll, variance);
            }
        }
        Ok(best.1)
    }

    /// `σ²` maximising the held-out conditional log-likelihood of stratified k-fold
    /// cross-validation on the training set; ties go to the smaller `σ²`.
    fn choose_prior_variance(
        &self,
        train: &Counts,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Result<f64> {
        let folds = self.settings.cv_folds.min(
            train
                .y
                .iter()
                .filter(|&&c| c == 0)
                .count()
                .min(train.y.iter().filter(|&&c| c == 1).count()),
        );
        let grid = &self.settings.prior_variances;
        if folds < 2 {
            // Too few documents of a class to cross-validate: the middle of the grid.
            return Ok(grid[grid.len() / 2]);
        }
        let splits = stratified_k_fold(train.y.view(), folds, rng)?;
        // Each fold walks the grid from the strongest prior to the weakest, every fit starting
        // from the previous one's solution (a warm start along the regularisation path).
        let mut log_likelihood = vec![0.0; grid.len()];
        for fold in &splits {
            let y_fit: Array1<usize> = fold.train.iter().map(|&i| train.y[i]).collect();
            if y_fit.iter().all(|&c| c == y_fit[0]) {
                continue;
            }
            let x_fit = take_sparse_rows(train.total.view(), &fold.train)?;
            let x_held = take_sparse_rows(train.total.view(), &fold.test)?;
            let mut previous: Option<LogisticRegression> = None;
            for (g, &variance) in grid.iter().enumerate() {
                let params = LogisticRegression::params()
                    .n_classes(2)
                    .prior_variance(variance)
                    .tolerance(self.settings.lr_tolerance);
                let params = match &previous {
                    Some(model) => params.warm_start(model),
                    None => params,
                };
                let lr = params.fit_sparse(x_fit.view(), y_fit.view())?;
                let log_proba = lr.predict_log_proba_sparse(x_held.view())?;
                log_likelihood[g] += fold
                    .test
                    .iter()
                    .enumerate()
                    .map(|(row, &i)| log_proba[[row, train.y[i]]])
                    .sum::<f64>();
                previous = Some(lr);
            }
        }
        let mut best = (f64::NEG_INFINITY, grid[0]);
        for (&variance, &ll) in grid.iter().zip(&log_likelihood) {
            if ll > best.0 {
                best = (ll, variance);
            }
        }
        Ok(best.1)
    }
}

/// Error rate, mean log loss and (for Figure 2) the accuracy/coverage curve of one classifier.
fn record_evaluation(
    outcome: &mut Outcome,
    classifier: Classifier,
    log_proba: ArrayView2<'_, f64>,
    y: &Array1<usize>,
    coverage: bool,
) -> Result<()> {
    let n = y.len() as f64;
    let errors = log_proba
        .rows()
        .into_iter()
        .zip(y.iter())
        .filter(|&(ref row, &label)| usize::from(row[1] > row[0]) != label)
        .count();
    let loss: f64 = log_proba
        .rows()
        .into_iter()
        .zip(y.iter())
        .map(|(row, &label)| -row[label])
        .sum();
    outcome.put(classifier, Metric::ErrorRate, errors as f64 / n)?;
    // A probability that rounds to zero makes the loss infinite: left out rather than averaged.
    if loss.is_finite() {
        outcome.put(classifier, Metric::LogLoss, loss / n)?;
    }
    if coverage {
        let curve = AccuracyCoverageCurve::from_log_proba(log_proba, y.view())?;
        outcome.put(
            classifier,
            Metric::CoverageAt95,
            curve.coverage_at_accuracy(0.95)?,
        )?;
        for c in 1..=COVERAGE_GRID as u8 {
            outcome.put(
                classifier,
                Metric::AccuracyAt(c),
                curve.accuracy_at_coverage(grid_coverage(usize::from(c)))?,
            )?;
        }
    }
    Ok(())
}

/// Reads `20news-bydate.tar.gz` from the data directory (`$GENDISC_DATA`, else `./data`); the
/// error says where it looked and how to get the file when it is missing.
pub fn read_collection() -> Result<Newsgroups> {
    Newsgroups::read(gendisc_data::loaders::dataset_path(
        gendisc_text::newsgroups::TARBALL,
    )?)
}

/// Runs the study on a collection (resuming from `out/cells.jsonl` if present) and
/// writes every output under `out`: `cells.jsonl`, `summary.csv`, `figure1.csv`,
/// `figure2.csv`, `coverage.csv`, `fig1.svg`, `fig2.svg` and `REPORT.md`.
pub fn reproduce(
    news: &Newsgroups,
    out: &Path,
    settings: Settings,
    runner: RunnerSettings,
) -> gendisc_engine::Result<StudyResults> {
    super::run_and_write(
        &RainaStudy::new(news, settings)?,
        out,
        runner,
        write_outputs,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use gendisc_engine::Runner;

    /// A small synthetic collection with the study's groups: each group has its own topic
    /// words, shared words, and postings with or without a subject.
    fn collection(per_group: usize) -> Newsgroups {
        let mut groups: Vec<String> = PAIRS
            .iter()
            .flat_map(|p| p.groups.iter().map(|g| g.to_string()))
            .collect();
        groups.sort();
        groups.dedup();
        let mut postings = Vec::new();
        for (g, group) in groups.iter().enumerate() {
            let topic = group.replace('.', " ");
            for i in 0..per_group {
                let subject = if i % 5 == 0 {
                    String::new()
                } else {
                    format!("Subject: Re: {topic} question {i}\n")
                };
                let body = format!(
                    "the {topic} posting number {i} says {} and mail me at u{i}@x.org\n",
                    ["yes", "no", "maybe", "shared words here"][i % 4]
                );
                postings.push(super::super::test_posting(
                    g,
                    i,
                    format!("From: someone\n{subject}Lines: 1\n\n{body}"),
                ));
            }
        }
        Newsgroups::from_parts(groups, postings)
    }

    fn settings() -> Settings {
        Settings {
            pairs: vec![0, 5],
            sizes: vec![2, 8, 16, 100],
            replicates: 2,
            coverage_splits: 2,
            prior_variances: vec![0.1, 1.0],
            ..Settings::paper()
        }
    }

    #[test]
    fn sizes_are_capped_at_the_pool_and_splits_are_nested_and_disjoint() {
        let study = RainaStudy::new(&collection(24), settings()).unwrap();
        let pair = PAIRS[0];
        // 24 per class, a quarter held out: 18 + 18 in the pool. Size 2 is below the minimum.
        assert_eq!(study.sizes_of(&pair), vec![8, 16, 36]);
        let (_, docs, _) = study.pair_of("fig1:atheism-religion.misc").unwrap();
        let small = study.figure1_split(&pair, docs, 8, 1);
        let large = study.figure1_split(&pair, docs, 16, 1);
        assert_eq!(small.test, large.test);
        assert_eq!(small.train.len(), 8);
        assert!(small.train.iter().all(|d| large.train.contains(d)));
        assert!(small.train.iter().filter(|d| d.1 == 0).count() >= 2);
        assert!(small.train.iter().filter(|d| d.1 == 1).count() >= 2);
        assert!(large.train.iter().all(|d| !large.test.contains(d)));
        let other = study.figure1_split(&pair, docs, 8, 0);
        assert_ne!(other.test, small.test);
        let half = study.figure2_split(&pair, docs, 0);
        assert_eq!((half.train.len(), half.test.len()), (24, 24));
        assert!(half.train.iter().all(|d| !half.test.contains(d)));
    }

    #[test]
    fn the_metrics_keep_their_names_and_positions() {
        let names: Vec<&str> = Metric::names().collect();
        assert_eq!(
            names[..FIXED_METRICS + 1],
            [
                "er",
                "ll-mean",
                "theta-0",
                "theta-1",
                "theta-2",
                "separated",
                "prior-variance",
                "coverage-at-95",
                "accuracy-at-002"
            ]
        );
        assert_eq!(names.last(), Some(&"accuracy-at-100"));
        assert_eq!(names.len(), FIXED_METRICS + COVERAGE_GRID);
        for (position, &metric) in Metric::ALL.iter().enumerate() {
            assert_eq!(metric.index(), position, "{metric:?}");
        }
    }

    #[test]
    fn cells_are_deterministic_and_complete() {
        let study = RainaStudy::new(&collection(24), settings()).unwrap();
        let cells = study.cells();
        // Two pairs × three sizes × two replicates, and two coverage splits per pair.
        assert_eq!(cells.len(), 2 * 3 * 2 + 2 * 2);
        for cell in [&cells[0], cells.last().unwrap()] {
            let a = study.run_cell(cell).unwrap();
            let b = study.run_cell(cell).unwrap();
            assert!(a.bitwise_eq(&b));
            for &classifier in Classifier::ALL {
                let er = a.value(classifier, Metric::ErrorRate).unwrap();
                assert!((0.0..=1.0).contains(&er));
            }
            // θ for the hybrids (θ₂ for two regions only), σ² for logistic regression.
            let theta_2 = Metric::Theta(2);
            assert!(a.value(Classifier::Hybrid, theta_2).is_some());
            assert!(a.value(Classifier::HybridR1, theta_2).is_none());
            assert!(a
                .value(Classifier::LogisticRegression, Metric::PriorVariance)
                .is_some());
        }
        // Coverage metrics only for Figure 2 cells.
        let fig1 = study.run_cell(&cells[0]).unwrap();
        let fig2 = study.run_cell(cells.last().unwrap()).unwrap();
        let acc = Metric::AccuracyAt(COVERAGE_GRID as u8);
        let nb = Classifier::NaiveBayes;
        assert!(fig1.value(nb, acc).is_none());
        // At full coverage the accuracy is one minus the error rate.
        let er = fig2.value(nb, Metric::ErrorRate).unwrap();
        assert!((fig2.value(nb, acc).unwrap() - (1.0 - er)).abs() < 1e-12);
        // Eleven distinct groups, every fifth posting without a subject.
        assert_eq!(study.empty_subjects(), 11 * 5);
    }

    #[test]
    fn the_report_states_every_claim_with_a_verdict() {
        let study = RainaStudy::new(&collection(24), settings()).unwrap();
        let results = Runner::new(RunnerSettings {
            progress: gendisc_engine::runner::Progress::Never,
            ..RunnerSettings::default()
        })
        .unwrap()
        .run(&study)
        .unwrap();
        let dir = std::env::temp_dir().join(format!("gendisc-raina-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write_outputs(&dir, &study, &results).unwrap();
        let report = std::fs::read_to_string(dir.join("REPORT.md")).unwrap();
        let verdict_lines = gendisc_engine::verdict::count_verdict_lines(&report);
        let csv = std::fs::read_to_string(dir.join("verdicts.csv")).unwrap();
        let rows = gendisc_engine::verdict::read_verdicts_csv(&csv).unwrap();
        assert_eq!(rows.len(), 8 * claims::READINGS.len(), "{csv}");
        assert_eq!(verdict_lines, rows.len(), "{report}");
        for reading in claims::READINGS {
            assert!(
                report.contains(&format!("- **{}**", reading.name)),
                "{report}"
            );
        }
        for file in [
            "figure1.csv",
            "figure2.csv",
            "coverage95.csv",
            "fig1.svg",
            "fig2.svg",
        ] {
            assert!(
                std::fs::metadata(dir.join(file)).unwrap().len() > 0,
                "{file}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_settings_and_missing_groups_are_errors() {
        let news = collection(6);
        let bad = Settings {
            pairs: vec![9],
            ..settings()
        };
        assert!(RainaStudy::new(&news, bad).is_err());
        let bad = Settings {
            test_fraction: 1.0,
            ..settings()
        };
        assert!(RainaStudy::new(&news, bad).is_err());
        let empty = Newsgroups::from_parts(vec!["alt.atheism".into()], Vec::new());
        let err = RainaStudy::new(&empty, settings()).err().unwrap();
        assert!(
            err.to_string().contains("talk.religion.misc")
                || err.to_string().contains("alt.atheism"),
            "{err}"
        );
    }
}
