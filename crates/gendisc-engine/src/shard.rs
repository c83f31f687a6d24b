//! Shards: a study's cells split into `N` fixed parts, so that `N` processes — the tasks of a
//! SLURM job array, the jobs of GNU parallel, several machines — each run one part, and a merge
//! of their result stores gives the store, and so the outputs, of a single run.
//!
//! Shard `I/N` (1-based, as in `cargo nextest --partition count:I/N`) holds the cells whose
//! position in the study's canonical order is `I − 1` modulo `N`. The partition depends only on
//! the cell list, never on the thread count or the machine, and dealing the cells out in turn
//! spreads every dataset and training size — and so the slow cells — evenly over the shards.
//!
//! A shard run ([`RunnerSettings::shard`](crate::RunnerSettings::shard)) stores its cells, with
//! the shard recorded in the store's header, and ends with [`StudyError::ShardFinished`]
//! instead of results: a shard's outcomes are never mistaken for a study's. A merge
//! ([`RunnerSettings::merge_shards`](crate::RunnerSettings::merge_shards)) checks that the stores
//! are every shard of one split of this very study, each complete, and then runs as if every
//! cell had been resumed.
//!
//! ```
//! use gendisc_engine::shard::Shard;
//! let shard: Shard = "2/3".parse()?;
//! assert_eq!((shard.index(), shard.count()), (2, 3));
//! // Positions 1, 4, 7, … of the canonical order.
//! assert!(shard.contains(4) && !shard.contains(5));
//! assert!("0/3".parse::<Shard>().is_err());
//! # Ok::<(), gendisc_engine::shard::InvalidShard>(())
//! ```
//!
//! [`StudyError::ShardFinished`]: crate::StudyError::ShardFinished

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::runner::RunReport;

/// One part of a study's cells: the `index`-th of `count` (1 ≤ `index` ≤ `count`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    index: usize,
    count: usize,
}

/// Why a shard is not valid: what was given and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid shard `{given}`: {reason}")]
pub struct InvalidShard {
    /// The text or numbers given.
    pub given: String,
    /// What is wrong.
    pub reason: String,
}

impl Shard {
    /// Shard `index` of `count`.
    ///
    /// Errors: `count = 0`, `index = 0` (shards count from 1) or `index > count`.
    pub fn new(index: usize, count: usize) -> Result<Self, InvalidShard> {
        let invalid = |reason: String| InvalidShard {
            given: format!("{index}/{count}"),
            reason,
        };
        if count == 0 {
            return Err(invalid("a study is split into at least one shard".into()));
        }
        if index == 0 {
            return Err(invalid(format!(
                "shards count from 1: the first of {count} is 1/{count}"
            )));
        }
        if index > count {
            return Err(invalid(format!(
                "there are only {count} shards: the last is {count}/{count}"
            )));
        }
        Ok(Self { index, count })
    }

    /// The shard's number, from 1 to [`count`](Self::count).
    pub fn index(self) -> usize {
        self.index
    }

    /// The number of shards of the split.
    pub fn count(self) -> usize {
        self.count
    }

    /// Whether the cell at `position` (0-based, in the study's canonical order) is in this
    /// shard.
    pub fn contains(self, position: usize) -> bool {
        position % self.count == self.index - 1
    }

    /// The shard holding the cell at `position` in a split into `count` shards (`count ≥ 1`).
    pub(crate) fn of_position(position: usize, count: usize) -> Self {
        Self {
            index: position % count + 1,
            count,
        }
    }

    /// How many of `n_cells` cells this shard holds.
    pub fn n_cells(self, n_cells: usize) -> usize {
        n_cells / self.count + usize::from(n_cells % self.count >= self.index)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = InvalidShard;

    /// Reads `I/N`, e.g. `2/3`.
    fn from_str(text: &str) -> Result<Self, InvalidShard> {
        let invalid = |reason: &str| InvalidShard {
            given: text.to_string(),
            reason: reason.to_string(),
        };
        let (index, count) = text
            .split_once('/')
            .ok_or_else(|| invalid("write it as I/N, e.g. 2/3 for the second of three shards"))?;
        let number = |part: &str, what: &str| {
            part.trim().parse::<usize>().map_err(|_| {
                invalid(&format!(
                    "{what} `{part}` is not a whole number; write I/N, e.g. 2/3"
                ))
            })
        };
        let (index, count) = (number(index, "I")?, number(count, "N")?);
        Self::new(index, count).map_err(|error| InvalidShard {
            given: text.to_string(),
            ..error
        })
    }
}

impl Serialize for Shard {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A finished shard run of one study: what [`StudyError::ShardFinished`](crate::StudyError)
/// reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardRun {
    /// The study identifier.
    pub study: String,
    /// The shard.
    pub shard: Shard,
    /// Its result store, if the run had one.
    pub store: Option<PathBuf>,
    /// How the run went; its `cells` are the shard's.
    pub report: RunReport,
}

impl fmt::Display for ShardRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "shard {} of `{}`: {} cells ({} resumed, {} run)",
            self.shard, self.study, self.report.cells, self.report.resumed, self.report.ran
        )?;
        if let Some(store) = &self.store {
            write!(f, " in {}", store.display())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bad_shard_says_what_is_wrong() {
        for (text, expected) in [
            ("0/3", "shards count from 1"),
            ("4/3", "only 3 shards"),
            ("1/0", "at least one shard"),
            ("0/0", "at least one shard"),
            ("2", "write it as I/N"),
            ("", "write it as I/N"),
            ("a/3", "I `a` is not a whole number"),
            ("1/three", "N `three` is not a whole number"),
            ("-1/3", "is not a whole number"),
            ("1/2/3", "is not a whole number"),
        ] {
            let error = text.parse::<Shard>().unwrap_err();
            assert_eq!(error.given, text);
            let message = error.to_string();
            assert!(message.contains(expected), "{text}: {message}");
            assert!(message.contains(&format!("`{text}`")), "{message}");
        }
        assert!(Shard::new(0, 2).is_err());
        assert_eq!(" 2 / 3 ".parse::<Shard>(), Shard::new(2, 3));
    }

    #[test]
    fn the_shards_of_a_split_partition_the_cells() {
        for count in 1..=7 {
            for n_cells in [0, 1, 5, 6, 7, 20] {
                let shards: Vec<Shard> =
                    (1..=count).map(|i| Shard::new(i, count).unwrap()).collect();
                for position in 0..n_cells {
                    let holders: Vec<_> = shards.iter().filter(|s| s.contains(position)).collect();
                    assert_eq!(
                        holders.len(),
                        1,
                        "{position} of {n_cells} cells, {count} shards"
                    );
                    assert_eq!(*holders[0], Shard::of_position(position, count));
                }
                for shard in &shards {
                    let held = (0..n_cells).filter(|&p| shard.contains(p)).count();
                    assert_eq!(shard.n_cells(n_cells), held, "{shard} of {n_cells}");
                }
            }
        }
    }

    #[test]
    fn a_shard_round_trips_through_text_and_json() {
        let shard = Shard::new(3, 10).unwrap();
        assert_eq!(shard.to_string(), "3/10");
        assert_eq!(shard.to_string().parse::<Shard>().unwrap(), shard);
        let json = serde_json::to_string(&shard).unwrap();
        assert_eq!(json, "\"3/10\"");
        assert_eq!(serde_json::from_str::<Shard>(&json).unwrap(), shard);
        assert!(serde_json::from_str::<Shard>("\"11/10\"").is_err());
    }
}
