//! Indexed text: every document as term counts per region over one lexicon, and the
//! training-set vocabulary that turns documents into sparse count matrices.

use serde::{Deserialize, Serialize};
use sprs::CsMat;

use gendisc_core::{Error, Result};

use crate::newsgroups::{Newsgroups, Split};
use crate::regions::split_posting;
use crate::tokenize::{Indexer, TermCounts, TokenizerSettings};

/// The regions of a posting, in the order of [`Document::regions`].
pub const SUBJECT: usize = 0;
/// The body region's index.
pub const BODY: usize = 1;

/// One document: term counts per region, sorted by term id.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Document {
    /// `regions[r]`: the `(term id, count)` pairs of region `r`.
    pub regions: Vec<TermCounts>,
}

impl Document {
    /// The number of tokens in region `r` (`n_r` of Raina et al. eq. (7)).
    pub fn region_length(&self, r: usize) -> u64 {
        self.regions[r].iter().map(|&(_, c)| u64::from(c)).sum()
    }
}

/// Every document of a collection, indexed over one lexicon, with its label.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexedCorpus {
    lexicon: Vec<String>,
    documents: Vec<Document>,
    labels: Vec<usize>,
    splits: Vec<Split>,
    n_regions: usize,
}

impl IndexedCorpus {
    /// Indexes 20 Newsgroups: two regions per posting, the subject (a folded continuation
    /// included) and the body ([`split_posting`]); labels are group indices.
    ///
    /// The lexicon holds every term of every posting, test postings included: it is only a
    /// table of strings. Which terms are features is decided by a [`Vocabulary`] built from
    /// training documents only.
    pub fn newsgroups(corpus: &Newsgroups, settings: TokenizerSettings) -> Self {
        let mut indexer = Indexer::new(settings);
        let postings = corpus.postings();
        let mut documents = Vec::with_capacity(postings.len());
        for posting in postings {
            let regions = split_posting(&posting.text);
            let subject = indexer.count_all(&[regions.subject, regions.subject_continuation]);
            let body = indexer.count(regions.body);
            documents.push(Document {
                regions: vec![subject, body],
            });
        }
        Self {
            lexicon: indexer.into_lexicon(),
            documents,
            labels: postings.iter().map(|p| p.group).collect(),
            splits: postings.iter().map(|p| p.split).collect(),
            n_regions: 2,
        }
    }

    /// Assembles a corpus from parts: `documents[i]` has `n_regions` regions whose term ids
    /// index `lexicon`; `labels[i]` and `splits[i]` describe document `i`.
    pub fn from_parts(
        lexicon: Vec<String>,
        documents: Vec<Document>,
        labels: Vec<usize>,
        splits: Vec<Split>,
    ) -> Result<Self> {
        let n = documents.len();
        if labels.len() != n || splits.len() != n {
            return Err(Error::shape_mismatch(
                "labels and splits vs documents",
                n,
                if labels.len() != n {
                    labels.len()
                } else {
                    splits.len()
                },
            ));
        }
        let n_regions = documents.first().map_or(1, |d| d.regions.len());
        for (i, d) in documents.iter().enumerate() {
            if d.regions.len() != n_regions {
                return Err(Error::shape_mismatch(
                    format!("regions of document {i} vs document 0"),
                    n_regions,
                    d.regions.len(),
                ));
            }
            for (r, region) in d.regions.iter().enumerate() {
                if region.windows(2).any(|w| w[0].0 >= w[1].0)
                    || region.iter().any(|&(t, _)| t as usize >= lexicon.len())
                {
                    return Err(Error::invalid_parameter(
                        "documents",
                        format!(
                            "region {r} of document {i}: term ids must be increasing and index \
                             the lexicon ({} terms)",
                            lexicon.len()
                        ),
                    ));
                }
            }
        }
        Ok(Self {
            lexicon,
            documents,
            labels,
            splits,
            n_regions,
        })
    }

    /// Every term seen; a term id indexes this list.
    pub fn lexicon(&self) -> &[String] {
        &self.lexicon
    }

    /// The documents.
    pub fn documents(&self) -> &[Document] {
        &self.documents
    }

    /// The label of each document.
    pub fn labels(&self) -> &[usize] {
        &self.labels
    }

    /// The split of each document.
    pub fn splits(&self) -> &[Split] {
        &self.splits
    }

    /// The number of regions per document.
    pub fn n_regions(&self) -> usize {
        self.n_regions
    }

    /// The indices of the documents with label `label`.
    pub fn documents_of(&self, label: usize) -> Vec<usize> {
        (0..self.labels.len())
            .filter(|&i| self.labels[i] == label)
            .collect()
    }
}

/// Which count matrix to build from the regions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegionSelection {
    /// One region's counts.
    Region(usize),
    /// The whole document: the sum over regions.
    All,
}

/// The features of a model: the terms of a set of training documents, as matrix columns.
///
/// Columns are in the byte order of the terms' strings, so that a vocabulary does not depend on
/// the order in which documents were indexed. A term that no training document contains has
/// no column, so its occurrences in other documents are dropped from their count rows: nothing
/// of a test document enters the feature space.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vocabulary {
    /// The lexicon id of each column.
    terms: Vec<u32>,
    /// The column of each lexicon id, `u32::MAX` for none.
    column: Vec<u32>,
}

const NO_COLUMN: u32 = u32::MAX;

impl Vocabulary {
    /// The terms of the documents `training` of `corpus` (every region).
    pub fn from_training(corpus: &IndexedCorpus, training: &[usize]) -> Result<Self> {
        let mut seen = vec![false; corpus.lexicon.len()];
        for &i in training {
            let doc = corpus.documents.get(i).ok_or_else(|| {
                Error::invalid_parameter(
                    "training",
                    format!("document {i} of a corpus of {}", corpus.documents.len()),
                )
            })?;
            for region in &doc.regions {
                for &(t, _) in region {
                    seen[t as usize] = true;
                }
            }
        }
        let mut terms: Vec<u32> = (0..seen.len() as u32)
            .filter(|&t| seen[t as usize])
            .collect();
        terms
            .sort_unstable_by(|&a, &b| corpus.lexicon[a as usize].cmp(&corpus.lexicon[b as usize]));
        let mut column = vec![NO_COLUMN; seen.len()];
        for (c, &t) in terms.iter().enumerate() {
            column[t as usize] = c as u32;
        }
        Ok(Self { terms, column })
    }

    /// The number of columns `|W|`.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// Whether there are no columns.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The column of a lexicon term id, if it is in the vocabulary.
    pub fn column(&self, term: u32) -> Option<usize> {
        match self.column.get(term as usize) {
            Some(&c) if c != NO_COLUMN => Some(c as usize),
            _ => None,
        }
    }

    /// The lexicon term id of each column.
    pub fn terms(&self) -> &[u32] {
        &self.terms
    }

    /// The `documents.len() × |W|` CSR count matrix of `documents` of `corpus`, for one region
    /// or the whole document. Terms outside the vocabulary are dropped.
    pub fn counts(
        &self,
        corpus: &IndexedCorpus,
        documents: &[usize],
        selection: RegionSelection,
    ) -> Result<CsMat<f64>> {
        if let RegionSelection::Region(r) = selection
            && r >= corpus.n_regions
        {
            return Err(Error::invalid_parameter(
                "selection",
                format!("region {r} of documents with {} regions", corpus.n_regions),
            ));
        }
        let mut indptr = Vec::with_capacity(documents.len() + 1);
        let mut indices = Vec::new();
        let mut data = Vec::new();
        indptr.push(0);
        let mut merged: Vec<(usize, f64)> = Vec::new();
        for &i in documents {
            let doc = corpus.documents.get(i).ok_or_else(|| {
                Error::invalid_parameter(
                    "documents",
                    format!("document {i} of a corpus of {}", corpus.documents.len()),
                )
            })?;
            merged.clear();
            let regions: &[TermCounts] = match selection {
                RegionSelection::Region(r) => std::slice::from_ref(&doc.regions[r]),
                RegionSelection::All => &doc.regions,
            };
            for region in regions {
                for &(t, c) in region {
                    if let Some(col) = self.column(t) {
                        merged.push((col, f64::from(c)));
                    }
                }
            }
            merged.sort_unstable_by_key(|&(col, _)| col);
            for &(col, c) in &merged {
                if indices.last() == Some(&col) && indices.len() > *indptr.last().unwrap() {
                    *data.last_mut().unwrap() += c;
                } else {
                    indices.push(col);
                    data.push(c);
                }
            }
            indptr.push(indices.len());
        }
        Ok(CsMat::new(
            (documents.len(), self.len()),
            indptr,
            indices,
            data,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus() -> IndexedCorpus {
        // Terms: 0 "a", 1 "b", 2 "c", 3 "d"; two regions.
        let lexicon = ["a", "b", "c", "d"].map(String::from).to_vec();
        let documents = vec![
            Document {
                regions: vec![vec![(0, 1)], vec![(0, 2), (1, 1)]],
            },
            Document {
                regions: vec![vec![], vec![(1, 3)]],
            },
            Document {
                regions: vec![vec![(3, 1)], vec![(2, 5), (3, 1)]],
            },
        ];
        IndexedCorpus::from_parts(lexicon, documents, vec![0, 1, 1], vec![Split::Train; 3]).unwrap()
    }

    #[test]
    fn counts_per_region_and_whole() {
        let c = corpus();
        let v = Vocabulary::from_training(&c, &[0, 1]).unwrap();
        assert_eq!(v.terms(), [0, 1]);
        // Columns in the terms' byte order, whatever the lexicon order.
        let mut reversed = c.clone();
        reversed.lexicon = ["d", "c", "b", "a"].map(String::from).to_vec();
        let v_rev = Vocabulary::from_training(&reversed, &[0, 1]).unwrap();
        assert_eq!(v_rev.terms(), [1, 0]);
        assert_eq!(
            v_rev
                .counts(&reversed, &[0], RegionSelection::All)
                .unwrap()
                .to_dense(),
            ndarray::array![[1.0, 3.0]]
        );
        let whole = v.counts(&c, &[0, 1, 2], RegionSelection::All).unwrap();
        assert_eq!(
            whole.to_dense(),
            ndarray::array![[3.0, 1.0], [0.0, 3.0], [0.0, 0.0]]
        );
        let subject = v
            .counts(&c, &[0, 1, 2], RegionSelection::Region(SUBJECT))
            .unwrap();
        let body = v
            .counts(&c, &[0, 1, 2], RegionSelection::Region(BODY))
            .unwrap();
        assert_eq!(subject.to_dense() + body.to_dense(), whole.to_dense());
        // Document 1 has an empty subject: an empty row, not an error.
        assert_eq!(subject.outer_view(1).unwrap().nnz(), 0);
        assert_eq!(c.documents()[1].region_length(SUBJECT), 0);
        assert_eq!(c.documents()[2].region_length(BODY), 6);
    }

    #[test]
    fn bad_arguments_are_errors() {
        let c = corpus();
        assert!(Vocabulary::from_training(&c, &[3]).is_err());
        let v = Vocabulary::from_training(&c, &[0]).unwrap();
        assert!(v.counts(&c, &[0], RegionSelection::Region(2)).is_err());
        assert!(v.counts(&c, &[9], RegionSelection::All).is_err());
        let unsorted = Document {
            regions: vec![vec![(1, 1), (0, 1)]],
        };
        assert!(IndexedCorpus::from_parts(
            vec!["a".into(), "b".into()],
            vec![unsorted],
            vec![0],
            vec![Split::Train]
        )
        .is_err());
    }
}
