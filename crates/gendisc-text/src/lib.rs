//! # gendisc-text
//!
//! Text for gendisc's multinomial models: the 20 Newsgroups reader, a posting's subject and
//! body regions, tokenising and stemming, and the training-set vocabulary that turns documents
//! into sparse (CSR, `sprs`) count matrices — the pipeline of Raina, Shen, Ng & McCallum
//! (2003, §3).
//!
//! | step | item |
//! |---|---|
//! | read the collection (tarball in place, or a directory) | [`Newsgroups`] |
//! | subject and body, other headers skipped, `Re:` removed | [`regions::split_posting`] |
//! | `NUMBER`, `EMAILADDR`, lower case, stemming, term counts | [`tokenize::Indexer`] |
//! | every posting indexed over one lexicon, two regions | [`IndexedCorpus`] |
//! | features from training documents only; CSR counts per region | [`Vocabulary`] |
//! | WordNet 3.0 nouns: lemmas by `morphy`, semantic distance between words | [`WordNet`] |
//!
//! The [`wordnet`] module reads WordNet 3.0's noun files in place (`$WNHOME`, the data
//! directory's `wordnet/dict`, or Debian's `wordnet-base`) for Epshteyn & DeJong (§2, §5): which vocabulary words WordNet knows as nouns
//! ([`WordNet::noun_filter`]) and each word's semantic distance — the fewest links between
//! their noun synsets — to a newsgroup's label word ([`WordNet::distances_from`]). WordNet
//! lemmas are words, not stems: index the postings with [`TokenizerSettings`] `stem: false` to match
//! vocabulary words against it.
//!
//! ```no_run
//! use gendisc_text::{IndexedCorpus, Newsgroups, RegionSelection, TokenizerSettings, Vocabulary};
//! use gendisc_text::newsgroups::TARBALL;
//!
//! let news = Newsgroups::read(gendisc_data::loaders::dataset_path(TARBALL)?)?;
//! let corpus = IndexedCorpus::newsgroups(&news, TokenizerSettings::default());
//! let training: Vec<usize> = (0..1000).collect();
//! let vocabulary = Vocabulary::from_training(&corpus, &training)?;
//! let subject = vocabulary.counts(&corpus, &training, RegionSelection::Region(0))?;
//! assert_eq!(subject.cols(), vocabulary.len());
//! # Ok::<(), gendisc_core::Error>(())
//! ```
//!
//! Bad input is a typed [`gendisc_core::Error`]: a missing file, or a corrupt archive or entry
//! (the error names the entry), or a corrupt WordNet line (the error names file, line and field). Postings that are not valid UTF-8 are decoded as Latin-1 and
//! listed in the [`ReadReport`]; a posting without a subject has an
//! empty subject region.

pub mod corpus;
pub mod newsgroups;
pub mod regions;
pub mod tokenize;
pub mod wordnet;

pub use corpus::{Document, IndexedCorpus, RegionSelection, Vocabulary, BODY, SUBJECT};
pub use newsgroups::{Encoding, Newsgroups, Posting, ReadReport, Split};
pub use tokenize::{Indexer, TokenizerSettings, EMAILADDR, NUMBER};
pub use wordnet::{NounDistances, WordNet, DEFAULT_MAX_DISTANCE};
