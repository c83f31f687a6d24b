//! WordNet 3.0 nouns: the reader, morphology, and the semantic distance of Epshteyn & DeJong
//! (§2) — "the length (in links) of the shortest path between any two words".
//!
//! [`WordNet::open`] reads three files of a WordNet 3.0 dictionary directory, as laid out in
//! `wndb(5WN)`: `index.noun` (each lemma and its synsets), `data.noun` (each synset and its
//! pointers) and `noun.exc` (irregular plurals). [`WordNet::locate`] finds that directory:
//! `$WNHOME/dict` (WordNet's own convention), `$WNHOME` itself, then [`DATA_DICT_DIR`] under the
//! data directory (`$GENDISC_DATA/wordnet/dict`, else `./data/wordnet/dict`), where
//! `cargo xtask fetch-data wordnet` (and `cargo xtask reproduce`, when a study needs it) unpacks
//! the three files from a checksummed download, and last `/usr/share/wordnet`, where Debian's
//! and Ubuntu's `wordnet-base` package installs them (`apt-get install wordnet-base`).
//!
//! **The graph.** One node per noun synset; an edge for every pointer, of any type, from one
//! noun synset to another — hypernyms, hyponyms, meronyms, holonyms, antonyms, attributes,
//! derivational links and the rest, semantic (synset to synset) and lexical (word to word)
//! alike. Edges are made symmetric, so the distance is a metric even where WordNet lists a
//! pointer in one direction only. This is a noun-only reader: pointers to verb, adjective
//! and adverb synsets are dropped, so two nouns linked only through, say, a verb are farther
//! apart here (or unconnected) than in the whole of WordNet. The paper removes every word that
//! WordNet cannot read as a noun (§5, footnote 3), so only this part of WordNet is exercised.
//!
//! **Words.** A word is looked up as a lemma after lower-casing it and writing spaces as `_`
//! (WordNet's collocations, e.g. `domestic_dog`), and after WordNet's morphology for nouns,
//! `morphy` ([`WordNet::noun_lemma`]). The distance between two words is the fewest links
//! between any synset of one and any synset of the other: 0 when they share a synset
//! (synonyms), 1 for a word and its direct hypernym. Searches stop at a cap
//! ([`DEFAULT_MAX_DISTANCE`] unless given): a word farther away counts as unreachable.
//!
//! ```no_run
//! use gendisc_text::WordNet;
//!
//! let wordnet = WordNet::locate()?;
//! assert_eq!(wordnet.distance("dog", "domestic_dog"), Some(0));
//! assert_eq!(wordnet.noun_lemma("Mice"), Some("mouse"));
//! let from_gun = wordnet.distances_from("gun", 6)?;
//! assert_eq!(from_gun.to("weapon"), Some(1));
//! # Ok::<(), gendisc_core::Error>(())
//! ```
//!
//! **The paper's counting.** The paper's example — 'artillery', 'shooter' and 'ordnance' at
//! distance two from 'gun' (§2) — are, in WordNet 3.0, synonyms of senses of `gun` (synsets
//! `02746365` and `10152083`), at distance 0 here. Their count is consistent with paths through
//! a graph of words *and* synsets (word → synset → word is two links), which would be ours plus
//! two for any two different words; grouping words by distance to a label then gives the same
//! groups either way, except that the label word itself is alone at distance 0 there and joins
//! its synonyms here.
//!
//! **Licence.** WordNet 3.0 is Copyright 2006 by Princeton University and distributed under
//! its permissive licence (use, copy, modify and distribute for any purpose, without fee, with
//! the copyright notice kept; no warranty). gendisc reads the files in place; `cargo xtask
//! fetch-data wordnet` unpacks the three noun files, unchanged, into the user's data directory
//! and never into the repository.

mod graph;
mod parse;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::ffi::OsString;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use gendisc_core::{Error, Result};

use graph::{Graph, UNREACHED};
use parse::{Exceptions, Lemmas};

/// The cap on semantic distances unless another is given: pairs more links apart than this
/// count as unreachable (`None`).
///
/// The noun graph of WordNet 3.0 is connected: a search from any of the label words of
/// Epshteyn & DeJong's four newsgroups (`atheism`, `gun`, `middle_east`, `auto`) reaches all
/// 82,115 noun synsets, the farthest 12 to 14 links away. Within 12 links lie at least 99.9% of
/// them (all for `gun`), so the default cap changes almost no distance while bounding the cost
/// of a search. Every search also takes its own cap ([`WordNet::distance_within`],
/// [`WordNet::distances_from`]).
pub const DEFAULT_MAX_DISTANCE: u32 = 12;

/// Debian's (and Ubuntu's) `wordnet-base` dictionary directory.
pub const SYSTEM_DICT_DIR: &str = "/usr/share/wordnet";

/// Where the dictionary is looked for under the data directory
/// ([`gendisc_data::loaders::data_dir`]): the directory `cargo xtask fetch-data wordnet` unpacks
/// `index.noun`, `data.noun` and `noun.exc` into.
pub const DATA_DICT_DIR: &str = "wordnet/dict";

/// WordNet's rules of detachment for nouns, `morphy(7WN)`: a suffix and its replacement, tried
/// in this order.
const NOUN_DETACHMENT: [(&str, &str); 8] = [
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
];

/// The nouns of WordNet 3.0: lemmas, morphology exceptions and the synset graph, built once.
///
/// Read-only after [`open`](WordNet::open), and `Send + Sync`: searches from several threads
/// share one `WordNet`.
#[derive(Clone)]
pub struct WordNet {
    dict_dir: PathBuf,
    offsets: Vec<u32>,
    graph: Graph,
    lemmas: Lemmas,
    exceptions: Exceptions,
}

impl fmt::Debug for WordNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WordNet")
            .field("dict_dir", &self.dict_dir)
            .field("synsets", &self.n_synsets())
            .field("links", &self.n_links())
            .field("lemmas", &self.n_lemmas())
            .field("exceptions", &self.exceptions.len())
            .finish()
    }
}

/// Finds a WordNet dictionary directory: `$WNHOME/dict`, `$WNHOME`, then [`DATA_DICT_DIR`]
/// under the data directory, then [`SYSTEM_DICT_DIR`] — the first holding `index.noun`,
/// `data.noun` and `noun.exc`.
///
/// An explicit `$WNHOME` comes first; the data directory's copy, checksummed when it was
/// downloaded, comes before whatever the system has installed.
///
/// When none does, the error names every place looked at and how to get WordNet.
pub fn find_dict_dir() -> Result<PathBuf> {
    find_dict_dir_in(
        std::env::var_os("WNHOME"),
        &gendisc_data::loaders::data_dir().join(DATA_DICT_DIR),
        Path::new(SYSTEM_DICT_DIR),
    )
}

fn find_dict_dir_in(wnhome: Option<OsString>, in_data: &Path, system: &Path) -> Result<PathBuf> {
    let mut tried = Vec::new();
    if let Some(home) = wnhome.filter(|h| !h.is_empty()) {
        let home = PathBuf::from(home);
        tried.push(home.join("dict"));
        tried.push(home);
    }
    tried.push(in_data.to_path_buf());
    tried.push(system.to_path_buf());
    if let Some(dir) = tried.iter().find(|dir| holds_dictionary(dir)) {
        return Ok(dir.clone());
    }
    let places: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
    Err(Error::Io {
        path: system.to_path_buf(),
        source: io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "no WordNet 3.0 dictionary (index.noun, data.noun, noun.exc) in {}; run \
                 `cargo xtask fetch-data wordnet` to download it into the data directory, \
                 install it with `apt-get install wordnet-base`, or set WNHOME to a WordNet \
                 3.0 installation (its `dict` directory, or the directory holding the files)",
                places.join(", ")
            ),
        ),
    })
}

fn holds_dictionary(dir: &Path) -> bool {
    ["index.noun", "data.noun", "noun.exc"]
        .iter()
        .all(|f| dir.join(f).is_file())
}

fn read(path: PathBuf) -> Result<(PathBuf, Vec<u8>)> {
    match std::fs::read(&path) {
        Ok(bytes) => Ok((path, bytes)),
        Err(source) => Err(Error::Io { path, source }),
    }
}

/// A word as WordNet's index writes it: trimmed, lower case, spaces as `_`.
fn normalise(word: &str) -> Cow<'_, str> {
    let word = word.trim();
    if word.chars().any(|c| c.is_uppercase() || c == ' ') {
        Cow::Owned(word.to_lowercase().replace(' ', "_"))
    } else {
        Cow::Borrowed(word)
    }
}

impl WordNet {
    /// Reads the dictionary in `dict_dir` (`index.noun`, `data.noun`, `noun.exc`) and builds the
    /// synset graph.
    ///
    /// A missing file is an [`Error::Io`] naming it; a corrupt or truncated line, a synset whose
    /// `synset_offset` is not its byte offset, a pointer or an index entry naming no synset are
    /// [`Error::Parse`] with the file, the line and the field.
    pub fn open(dict_dir: impl AsRef<Path>) -> Result<Self> {
        let dict_dir = dict_dir.as_ref();
        let (data_path, data) = read(dict_dir.join("data.noun"))?;
        let (index_path, index) = read(dict_dir.join("index.noun"))?;
        let (exc_path, exc) = read(dict_dir.join("noun.exc"))?;
        Self::from_files(
            dict_dir,
            (&data_path, &data),
            (&index_path, &index),
            (&exc_path, &exc),
        )
    }

    /// Finds the dictionary with [`find_dict_dir`] and opens it.
    pub fn locate() -> Result<Self> {
        Self::open(find_dict_dir()?)
    }

    fn from_files(
        dict_dir: &Path,
        data: (&Path, &[u8]),
        index: (&Path, &[u8]),
        exc: (&Path, &[u8]),
    ) -> Result<Self> {
        let synsets = parse::data(data.0, data.1)?;
        let lemmas = parse::index(index.0, index.1, &synsets.offsets)?;
        let exceptions = parse::exceptions(exc.0, exc.1)?;
        let graph = Graph::symmetric(synsets.offsets.len(), &synsets.edges);
        Ok(WordNet {
            dict_dir: dict_dir.to_path_buf(),
            offsets: synsets.offsets,
            graph,
            lemmas,
            exceptions,
        })
    }

    /// The directory the dictionary was read from.
    pub fn dict_dir(&self) -> &Path {
        &self.dict_dir
    }

    /// Number of noun synsets (graph nodes).
    pub fn n_synsets(&self) -> usize {
        self.graph.len()
    }

    /// Number of distinct links (undirected edges) between noun synsets.
    pub fn n_links(&self) -> usize {
        self.graph.n_edges()
    }

    /// Number of noun lemmas in `index.noun`.
    pub fn n_lemmas(&self) -> usize {
        self.lemmas.len()
    }

    /// The `data.noun` byte offsets of the synsets of `word` (after [`noun_lemma`]), most
    /// frequent sense first; empty when WordNet does not know `word` as a noun.
    ///
    /// [`noun_lemma`]: WordNet::noun_lemma
    pub fn synset_offsets(&self, word: &str) -> Vec<u32> {
        self.senses(word)
            .iter()
            .map(|&node| self.offsets[node as usize])
            .collect()
    }

    /// The lemma WordNet files `word` under as a noun, by WordNet's `morphy` for nouns
    /// (`morphy(7WN)`), or `None` when there is none.
    ///
    /// The word is lower-cased, trimmed, and its spaces written as `_`; then the candidates
    /// are, in order: the word itself; its base forms in `noun.exc` (irregular plurals such as
    /// `mice` → `mouse`); and the rules of detachment for nouns — `-s` → ``, `-ses` → `-s`,
    /// `-xes` → `-x`, `-zes` → `-z`, `-ches` → `-ch`, `-shes` → `-sh`, `-men` → `-man`,
    /// `-ies` → `-y`. The first candidate that is a lemma of `index.noun` is returned.
    pub fn noun_lemma(&self, word: &str) -> Option<&str> {
        self.lemma_index(word).map(|i| self.lemmas.name(i))
    }

    /// Whether WordNet knows `word` as a noun, after [`noun_lemma`](WordNet::noun_lemma)'s
    /// morphology.
    pub fn is_noun(&self, word: &str) -> bool {
        self.lemma_index(word).is_some()
    }

    /// For each word of a vocabulary, in order, its noun lemma ([`noun_lemma`]), or `None` when
    /// WordNet cannot read it as a noun — the words Epshteyn & DeJong remove (§5, footnote 3).
    ///
    /// ```no_run
    /// # let wordnet = gendisc_text::WordNet::locate()?;
    /// let lemmas = wordnet.noun_filter(["guns", "quickly", "Mice"]);
    /// assert_eq!(lemmas, [Some("gun"), None, Some("mouse")]);
    /// # Ok::<(), gendisc_core::Error>(())
    /// ```
    ///
    /// [`noun_lemma`]: WordNet::noun_lemma
    pub fn noun_filter<'w, I>(&self, words: I) -> Vec<Option<&str>>
    where
        I: IntoIterator<Item = &'w str>,
    {
        words.into_iter().map(|w| self.noun_lemma(w)).collect()
    }

    /// The semantic distance between `a` and `b` with the default cap
    /// ([`DEFAULT_MAX_DISTANCE`]); see [`distance_within`](WordNet::distance_within).
    pub fn distance(&self, a: &str, b: &str) -> Option<u32> {
        self.distance_within(a, b, DEFAULT_MAX_DISTANCE)
    }

    /// The fewest links between any noun synset of `a` and any of `b` (words looked up through
    /// [`noun_lemma`](WordNet::noun_lemma)): 0 when they share a synset. `None` when either is
    /// not a noun, or no path of at most `cap` links joins them.
    ///
    /// A bidirectional breadth-first search from both words' synsets; its visited marks are a
    /// per-thread scratch reused across calls, so a call allocates nothing after the first on
    /// its thread.
    pub fn distance_within(&self, a: &str, b: &str, cap: u32) -> Option<u32> {
        let a = self.senses(a);
        let b = self.senses(b);
        if a.is_empty() || b.is_empty() {
            return None;
        }
        self.graph.distance(a, b, cap)
    }

    /// Every synset's distance from `word` (through [`noun_lemma`](WordNet::noun_lemma)), by
    /// one breadth-first search from all of its synsets, stopped at `cap` links; query the
    /// result with [`NounDistances::to`].
    ///
    /// An [`Error::InvalidParameter`] when WordNet does not know `word` as a noun.
    pub fn distances_from(&self, word: &str, cap: u32) -> Result<NounDistances<'_>> {
        let lemma = self.lemma_index(word).ok_or_else(|| {
            Error::invalid_parameter(
                "word",
                format!("`{word}` is not a WordNet noun, even after morphology"),
            )
        })?;
        Ok(NounDistances {
            wordnet: self,
            lemma,
            cap,
            distances: self.graph.distances_from(self.lemmas.senses(lemma), cap),
        })
    }

    /// The synsets (graph nodes) of `word`, empty when it is not a noun.
    fn senses(&self, word: &str) -> &[u32] {
        self.lemma_index(word)
            .map_or(&[], |i| self.lemmas.senses(i))
    }

    /// `morphy` for nouns: see [`WordNet::noun_lemma`].
    fn lemma_index(&self, word: &str) -> Option<usize> {
        let word = normalise(word);
        if word.is_empty() {
            return None;
        }
        if let Some(i) = self.lemmas.find(&word) {
            return Some(i);
        }
        if let Some(bases) = self.exceptions.get(&*word)
            && let Some(i) = bases.iter().find_map(|base| self.lemmas.find(base))
        {
            return Some(i);
        }
        let mut candidate = String::with_capacity(word.len() + 1);
        NOUN_DETACHMENT.iter().find_map(|(suffix, ending)| {
            let stem = word.strip_suffix(suffix)?;
            candidate.clear();
            candidate.push_str(stem);
            candidate.push_str(ending);
            self.lemmas.find(&candidate)
        })
    }
}

/// The distance from one word to every noun synset, from [`WordNet::distances_from`].
#[derive(Clone)]
pub struct NounDistances<'w> {
    wordnet: &'w WordNet,
    lemma: usize,
    cap: u32,
    distances: Vec<u32>,
}

impl fmt::Debug for NounDistances<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NounDistances")
            .field("from", &self.lemma())
            .field("cap", &self.cap)
            .field("reached", &self.reached())
            .finish()
    }
}

impl NounDistances<'_> {
    /// The semantic distance to `word` (through [`WordNet::noun_lemma`]): the fewest links
    /// from the source word to any synset of `word`, or `None` when `word` is not a noun or is
    /// more than [`cap`](NounDistances::cap) links away.
    pub fn to(&self, word: &str) -> Option<u32> {
        self.wordnet
            .senses(word)
            .iter()
            .map(|&node| self.distances[node as usize])
            .min()
            .filter(|&d| d != UNREACHED)
    }

    /// The lemma the search started from.
    pub fn lemma(&self) -> &str {
        self.wordnet.lemmas.name(self.lemma)
    }

    /// The cap the search stopped at.
    pub fn cap(&self) -> u32 {
        self.cap
    }

    /// How many synsets lie within the cap (the source's own included).
    pub fn reached(&self) -> usize {
        self.distances.iter().filter(|&&d| d != UNREACHED).count()
    }

    /// How many synsets lie at each distance, from 0 to the farthest reached.
    pub fn histogram(&self) -> Vec<usize> {
        let mut counts = Vec::new();
        for &d in self.distances.iter().filter(|&&d| d != UNREACHED) {
            let d = d as usize;
            if counts.len() <= d {
                counts.resize(d + 1, 0);
            }
            counts[d] += 1;
        }
        counts
    }
}
