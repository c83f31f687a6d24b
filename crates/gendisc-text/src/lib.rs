#![doc = include_str!("../README.md")]

pub mod corpus;
pub mod newsgroups;
pub mod regions;
pub mod tokenize;
pub mod wordnet;

pub use corpus::{Document, IndexedCorpus, RegionSelection, Vocabulary, BODY, SUBJECT};
pub use newsgroups::{Encoding, Newsgroups, Posting, ReadReport, Split};
pub use tokenize::{Indexer, TokenizerSettings, EMAILADDR, NUMBER};
pub use wordnet::{NounDistances, WordNet, DEFAULT_MAX_DISTANCE};
