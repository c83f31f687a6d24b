//! Word-presence features over WordNet nouns, and each noun's distance to the groups' labels.

use std::collections::HashMap;

use gendisc_bilevel::Distance;
use gendisc_core::{Error, Result};
use gendisc_text::wordnet::WordNet;
use gendisc_text::{IndexedCorpus, Newsgroups, TokenizerSettings, EMAILADDR, NUMBER};
use sprs::{CsMat, CsMatView};

use super::GROUPS;

/// Every posting of the study's four newsgroups as binary presence features over the nouns of
/// the collection (Epshteyn & DeJong §2 and footnote 3), with the semantic distance of every
/// feature word to every group's label word.
#[derive(Debug, Clone)]
pub struct NounFeatures {
    /// Postings × vocabulary, 1 where the noun occurs (subject or body).
    x: CsMat<f64>,
    /// The rows of each group of [`GROUPS`].
    rows_of_group: [Vec<usize>; 4],
    /// The feature words: WordNet noun lemmas, in order of first appearance.
    vocabulary: Vec<String>,
    /// `distance[g][j]`: links from `GROUPS[g].label` to feature `j` (`None` beyond the cap).
    distance: [Vec<Distance>; 4],
    /// What building the features found.
    stats: FeatureStats,
}

/// Counts of the feature construction, for the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureStats {
    /// Distinct lower-cased words in the four groups' postings.
    pub words: usize,
    /// Of those, the words WordNet reads as nouns (after its noun morphology).
    pub noun_words: usize,
    /// Distinct noun lemmas.
    pub noun_lemmas: usize,
    /// Noun lemmas kept as features (document frequency at least the study's minimum).
    pub features: usize,
    /// Postings per group.
    pub postings: [usize; 4],
    /// Per group, the number of features at distance `0, 1, …, cap`, then beyond the cap.
    pub distance_histogram: [Vec<usize>; 4],
    /// Postings without any feature word.
    pub empty_postings: usize,
}

impl NounFeatures {
    /// Builds the features of the four groups of `news`: lower-cased, unstemmed words, mapped to
    /// WordNet noun lemmas by WordNet's own noun morphology (`morphy`); words WordNet cannot read
    /// as nouns are dropped, as are the tokens standing for numbers and e-mail addresses. A
    /// lemma is a feature when it occurs in at least `min_document_frequency` postings of the
    /// four groups (labels are not used). Distances are capped at `max_distance` links.
    pub fn build(
        news: &Newsgroups,
        wordnet: &WordNet,
        min_document_frequency: usize,
        max_distance: u32,
    ) -> Result<Self> {
        let mut group_index = [0usize; 4];
        for (g, group) in GROUPS.iter().enumerate() {
            group_index[g] = news.group_index(group.newsgroup).ok_or_else(|| {
                Error::invalid_parameter(
                    "newsgroups",
                    format!("the collection has no group {}", group.newsgroup),
                )
            })?;
        }
        let postings: Vec<_> = news
            .postings()
            .iter()
            .filter(|p| group_index.contains(&p.group))
            .cloned()
            .collect();
        let subset = Newsgroups::from_parts(news.groups().to_vec(), postings);
        let corpus = IndexedCorpus::newsgroups(&subset, TokenizerSettings { stem: false });

        // Term id → noun lemma id.
        let mut lemma_id: HashMap<&str, u32> = HashMap::new();
        let mut lemmas: Vec<&str> = Vec::new();
        let mut noun_words = 0;
        let term_lemma: Vec<Option<u32>> = corpus
            .lexicon()
            .iter()
            .map(|word| {
                if word == NUMBER || word == EMAILADDR {
                    return None;
                }
                let lemma = wordnet.noun_lemma(word)?;
                noun_words += 1;
                Some(*lemma_id.entry(lemma).or_insert_with(|| {
                    lemmas.push(lemma);
                    lemmas.len() as u32 - 1
                }))
            })
            .collect();

        // The set of lemmas of each posting, and document frequencies.
        let mut document_frequency = vec![0usize; lemmas.len()];
        let mut present: Vec<Vec<u32>> = Vec::with_capacity(corpus.documents().len());
        for document in corpus.documents() {
            let mut ids: Vec<u32> = document
                .regions
                .iter()
                .flatten()
                .filter_map(|&(term, _)| term_lemma[term as usize])
                .collect();
            ids.sort_unstable();
            ids.dedup();
            for &id in &ids {
                document_frequency[id as usize] += 1;
            }
            present.push(ids);
        }
        let mut column: Vec<Option<usize>> = vec![None; lemmas.len()];
        let mut vocabulary = Vec::new();
        for (id, &df) in document_frequency.iter().enumerate() {
            if df >= min_document_frequency.max(1) {
                column[id] = Some(vocabulary.len());
                vocabulary.push(lemmas[id].to_string());
            }
        }
        if vocabulary.is_empty() {
            return Err(Error::Empty {
                what: format!(
                    "noun vocabulary (no noun in {min_document_frequency} or more postings)"
                ),
            });
        }

        let mut indptr = vec![0usize];
        let mut indices = Vec::new();
        let mut empty_postings = 0;
        for ids in &present {
            let start = indices.len();
            indices.extend(ids.iter().filter_map(|&id| column[id as usize]));
            indices[start..].sort_unstable();
            empty_postings += usize::from(indices.len() == start);
            indptr.push(indices.len());
        }
        let data = vec![1.0; indices.len()];
        let x = CsMat::new((present.len(), vocabulary.len()), indptr, indices, data);

        let mut rows_of_group: [Vec<usize>; 4] = Default::default();
        for (row, &label) in corpus.labels().iter().enumerate() {
            let g = group_index
                .iter()
                .position(|&gi| gi == label)
                .expect("only the four groups were indexed");
            rows_of_group[g].push(row);
        }

        let mut distance: [Vec<Distance>; 4] = Default::default();
        let mut distance_histogram: [Vec<usize>; 4] = Default::default();
        for (g, group) in GROUPS.iter().enumerate() {
            let from = wordnet.distances_from(group.label, max_distance)?;
            distance[g] = vocabulary.iter().map(|w| from.to(w)).collect();
            let mut histogram = vec![0; max_distance as usize + 2];
            for d in &distance[g] {
                histogram[d.map_or(max_distance as usize + 1, |v| v as usize)] += 1;
            }
            distance_histogram[g] = histogram;
        }

        let stats = FeatureStats {
            words: corpus.lexicon().len(),
            noun_words,
            noun_lemmas: lemmas.len(),
            features: vocabulary.len(),
            postings: [0, 1, 2, 3].map(|g| rows_of_group[g].len()),
            distance_histogram,
            empty_postings,
        };
        Ok(Self {
            x,
            rows_of_group,
            vocabulary,
            distance,
            stats,
        })
    }

    /// Postings × features (CSR, entries 1).
    pub fn x(&self) -> CsMatView<'_, f64> {
        self.x.view()
    }

    /// The rows of group `g` (an index into [`GROUPS`]).
    pub fn rows_of_group(&self, g: usize) -> &[usize] {
        &self.rows_of_group[g]
    }

    /// The feature words.
    pub fn vocabulary(&self) -> &[String] {
        &self.vocabulary
    }

    /// Every feature's distance to group `g`'s label word.
    pub fn distance(&self, g: usize) -> &[Distance] {
        &self.distance[g]
    }

    /// Counts of the construction.
    pub fn stats(&self) -> &FeatureStats {
        &self.stats
    }
}
