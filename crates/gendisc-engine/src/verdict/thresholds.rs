//! The shares of units that make a claim supported or partly supported, fixed once.

use serde::{Deserialize, Serialize};

/// The shares (in whole per cent, so that a share exactly at a threshold is decided exactly)
/// of a claim's units that must hold for it to be supported or partly supported.
///
/// Fixed once, for every claim of every report ([`Thresholds::DEFAULT`]); a claim departs from
/// them only where the paper's words demand it ([`Thresholds::every`]), and the departure is
/// quoted beside the rule in the report. The reasons are in `docs/verdicts.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thresholds {
    /// Supported from this share of units, in per cent.
    pub supported: u32,
    /// Partly supported from this share, in per cent.
    pub partly: u32,
}

impl Thresholds {
    /// Supported when the claim holds at three units in four, partly supported when it holds
    /// at least as often as not.
    pub const DEFAULT: Self = Self {
        supported: 75,
        partly: 50,
    };

    /// For a claim the paper states of *every* unit ("in every experiment", "for all training
    /// set sizes"): supported only when it holds at all of them, partly from the default's
    /// supported share.
    pub const EVERY: Self = Self {
        supported: 100,
        partly: 75,
    };

    /// How far the sensitivity check moves both thresholds, in percentage points.
    pub const SHIFT: u32 = 10;

    /// [`Thresholds::EVERY`], named for the words that demand it.
    pub fn every() -> Self {
        Self::EVERY
    }

    /// Both thresholds moved by `points` percentage points (negative: lower), kept in 0–100.
    pub fn shifted(self, points: i32) -> Self {
        let shift = |t: u32| (t as i32 + points).clamp(0, 100) as u32;
        Self {
            supported: shift(self.supported),
            partly: shift(self.partly),
        }
    }

    /// The verdict for `count` units of `total` holding.
    pub fn word(self, count: usize, total: usize) -> Word {
        if total == 0 {
            Word::NotAssessed
        } else if 100 * count >= self.supported as usize * total {
            Word::Supported
        } else if 100 * count >= self.partly as usize * total {
            Word::PartlySupported
        } else {
            Word::NotSupported
        }
    }
}

/// A verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Word {
    /// The claim holds at enough units.
    Supported,
    /// It holds at some, not enough.
    PartlySupported,
    /// It holds at too few.
    NotSupported,
    /// No unit could be judged.
    NotAssessed,
}

impl Word {
    /// `supported`, `partly supported`, `not supported` or `not assessed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Word::Supported => "supported",
            Word::PartlySupported => "partly supported",
            Word::NotSupported => "not supported",
            Word::NotAssessed => "not assessed",
        }
    }
}

impl std::fmt::Display for Word {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_exactly_at_a_threshold_reaches_it() {
        let t = Thresholds::DEFAULT;
        assert_eq!(t.word(3, 4), Word::Supported);
        assert_eq!(t.word(74, 100), Word::PartlySupported);
        assert_eq!(t.word(1, 2), Word::PartlySupported);
        assert_eq!(t.word(49, 100), Word::NotSupported);
        assert_eq!(t.word(0, 0), Word::NotAssessed);
        assert_eq!(Thresholds::EVERY.word(53, 54), Word::PartlySupported);
        assert_eq!(Thresholds::EVERY.word(54, 54), Word::Supported);
    }

    #[test]
    fn shifts_stay_in_range() {
        assert_eq!(
            Thresholds::EVERY.shifted(10),
            Thresholds {
                supported: 100,
                partly: 85
            }
        );
        assert_eq!(
            Thresholds::DEFAULT.shifted(-10),
            Thresholds {
                supported: 65,
                partly: 40
            }
        );
    }
}
