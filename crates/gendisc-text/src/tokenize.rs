//! Tokenising, stemming and indexing text (Raina, Shen, Ng & McCallum 2003, §3: "numbers and
//! email addresses were replaced by special tokens NUMBER and EMAILADDR; and tokens were formed
//! after stemming").
//!
//! ## The rules
//!
//! 1. The text is cut at white space into chunks.
//! 2. A chunk that, stripped of surrounding punctuation (`<jdoe@cs.cmu.edu>,`), is an e-mail
//!    address — a non-empty local part, `@`, and a domain of at least two dot-separated labels
//!    of letters, digits and hyphens — is the token [`EMAILADDR`].
//! 3. Otherwise the chunk's tokens are its maximal runs of letters and digits
//!    ([`char::is_alphanumeric`], so Latin-1 letters such as `é` are letters). A run of digits,
//!    with single `.` or `,` between digits allowed (`3.14`, `1,000`), is the token [`NUMBER`].
//!    Every other run is a word: lower-cased, then stemmed.
//!
//! Stemming uses the Snowball English stemmer of the `rust-stemmers` crate, which is Porter's
//! revised algorithm ("Porter2", 2001). Raina et al. used Porter's stemmer, presumably the
//! original (1980) algorithm; the two agree on most English words and differ on some (e.g.
//! `generously` → `gener` vs `generous`). See `docs/raina.md` for why this crate was chosen.
//! [`NUMBER`] and [`EMAILADDR`] are upper case, so no lower-cased word can be mistaken for
//! them.

use std::collections::HashMap;

use rust_stemmers::{Algorithm, Stemmer};
use serde::{Deserialize, Serialize};

/// The token that replaces every number.
pub const NUMBER: &str = "NUMBER";
/// The token that replaces every e-mail address.
pub const EMAILADDR: &str = "EMAILADDR";

/// One token as the scanner sees it, before stemming.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawToken<'a> {
    /// A run of letters and digits (not lower-cased yet).
    Word(&'a str),
    /// A number.
    Number,
    /// An e-mail address.
    Email,
}

/// Calls `f` on every token of `text`, in order (rules 1–3 of the [module documentation](self)).
pub fn scan(text: &str, mut f: impl FnMut(RawToken<'_>)) {
    for chunk in text.split_whitespace() {
        let trimmed = chunk.trim_matches(|c: char| !c.is_alphanumeric());
        if trimmed.contains('@') && is_email(trimmed) {
            f(RawToken::Email);
            continue;
        }
        scan_runs(chunk, &mut f);
    }
}

/// The alphanumeric runs of one chunk, numbers recognised.
fn scan_runs(chunk: &str, f: &mut impl FnMut(RawToken<'_>)) {
    let bytes = chunk.as_bytes();
    let mut chars = chunk.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if !c.is_alphanumeric() {
            continue;
        }
        let mut end = start + c.len_utf8();
        let mut all_digits = c.is_ascii_digit();
        while let Some(&(at, next)) = chars.peek() {
            if next.is_alphanumeric() {
                all_digits &= next.is_ascii_digit();
                end = at + next.len_utf8();
                chars.next();
            } else if all_digits
                && (next == '.' || next == ',')
                && bytes.get(at + 1).is_some_and(u8::is_ascii_digit)
            {
                // A decimal point or thousands separator between digits.
                end = at + 1;
                chars.next();
            } else {
                break;
            }
        }
        if all_digits {
            f(RawToken::Number);
        } else {
            f(RawToken::Word(&chunk[start..end]));
        }
    }
}

/// `local@label.label[.label…]`: a non-empty local part and a domain of at least two non-empty
/// labels of ASCII letters, digits and hyphens.
fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._%+-!=/'".contains(c));
    let mut labels = 0;
    let domain_ok = domain.split('.').all(|label| {
        labels += 1;
        !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    });
    local_ok && domain_ok && labels >= 2
}

/// Settings of the [`Indexer`].
///
/// | setting | default | meaning |
/// |---|---|---|
/// | `stem` | `true` | stem words (Snowball English); `false` keeps lower-cased words |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenizerSettings {
    /// Stem words (default `true`).
    pub stem: bool,
}

impl Default for TokenizerSettings {
    fn default() -> Self {
        Self { stem: true }
    }
}

/// Sorted `(term id, count)` pairs of one region of one document.
pub type TermCounts = Vec<(u32, u32)>;

/// Turns text into term counts, growing a lexicon of every term (stemmed token) seen.
///
/// Each distinct surface form (the word as written) is lower-cased and stemmed once and then
/// remembered, so stemming costs nothing for repeated words.
///
/// ```
/// use gendisc_text::tokenize::{Indexer, TokenizerSettings};
///
/// let mut indexer = Indexer::new(TokenizerSettings::default());
/// let counts = indexer.count("Running runs; ran 2 miles to jo@x.org.");
/// let lexicon = indexer.into_lexicon();
/// let terms: Vec<(&str, u32)> =
///     counts.iter().map(|&(t, c)| (lexicon[t as usize].as_str(), c)).collect();
/// assert_eq!(terms, [("run", 2), ("ran", 1), ("NUMBER", 1), ("mile", 1), ("to", 1), ("EMAILADDR", 1)]);
/// ```
pub struct Indexer {
    settings: TokenizerSettings,
    stemmer: Stemmer,
    /// Surface form → term id.
    surface: HashMap<Box<str>, u32>,
    /// Term → term id.
    term_id: HashMap<Box<str>, u32>,
    terms: Vec<String>,
    lower: String,
    ids: Vec<u32>,
}

impl Indexer {
    /// An indexer with an empty lexicon.
    pub fn new(settings: TokenizerSettings) -> Self {
        Self {
            settings,
            stemmer: Stemmer::create(Algorithm::English),
            surface: HashMap::new(),
            term_id: HashMap::new(),
            terms: Vec::new(),
            lower: String::new(),
            ids: Vec::new(),
        }
    }

    /// The term ids of `text`'s tokens, in order.
    pub fn tokens(&mut self, text: &str) -> Vec<u32> {
        let mut ids = std::mem::take(&mut self.ids);
        ids.clear();
        self.push_tokens(text, &mut ids);
        let out = ids.clone();
        self.ids = ids;
        out
    }

    /// The term counts of `text`, sorted by term id.
    pub fn count(&mut self, text: &str) -> TermCounts {
        self.count_all(&[text])
    }

    /// The term counts of several texts together, sorted by term id.
    pub fn count_all(&mut self, texts: &[&str]) -> TermCounts {
        let mut ids = std::mem::take(&mut self.ids);
        ids.clear();
        for text in texts {
            self.push_tokens(text, &mut ids);
        }
        ids.sort_unstable();
        let mut counts: TermCounts = Vec::new();
        for &id in &ids {
            match counts.last_mut() {
                Some((last, c)) if *last == id => *c += 1,
                _ => counts.push((id, 1)),
            }
        }
        self.ids = ids;
        counts
    }

    /// The terms seen so far; a term id indexes this list.
    pub fn lexicon(&self) -> &[String] {
        &self.terms
    }

    /// The lexicon, consuming the indexer.
    pub fn into_lexicon(self) -> Vec<String> {
        self.terms
    }

    fn push_tokens(&mut self, text: &str, ids: &mut Vec<u32>) {
        scan(text, |token| {
            let id = match token {
                RawToken::Number => self.intern(NUMBER),
                RawToken::Email => self.intern(EMAILADDR),
                RawToken::Word(word) => self.word(word),
            };
            ids.push(id);
        });
    }

    fn word(&mut self, word: &str) -> u32 {
        if let Some(&id) = self.surface.get(word) {
            return id;
        }
        self.lower.clear();
        self.lower.extend(word.chars().flat_map(char::to_lowercase));
        let lower = std::mem::take(&mut self.lower);
        let id = if self.settings.stem {
            let stem = self.stemmer.stem(&lower).into_owned();
            self.intern(&stem)
        } else {
            self.intern(&lower)
        };
        self.lower = lower;
        self.surface.insert(word.into(), id);
        id
    }

    fn intern(&mut self, term: &str) -> u32 {
        if let Some(&id) = self.term_id.get(term) {
            return id;
        }
        let id = u32::try_from(self.terms.len()).expect("fewer than 2^32 distinct terms");
        self.terms.push(term.to_owned());
        self.term_id.insert(term.into(), id);
        id
    }
}

impl std::fmt::Debug for Indexer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Indexer")
            .field("settings", &self.settings)
            .field("terms", &self.terms.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        scan(text, |t| {
            out.push(match t {
                RawToken::Word(w) => w.to_string(),
                RawToken::Number => NUMBER.into(),
                RawToken::Email => EMAILADDR.into(),
            })
        });
        out
    }

    fn terms(indexer: &mut Indexer, text: &str) -> Vec<String> {
        let ids = indexer.tokens(text);
        ids.iter()
            .map(|&i| indexer.lexicon()[i as usize].clone())
            .collect()
    }

    #[test]
    fn numbers_and_addresses() {
        assert_eq!(
            raw("Call 555-1234 or mail <jdoe@cs.cmu.edu>, (x@y.co.uk)."),
            [
                "Call",
                "NUMBER",
                "NUMBER",
                "or",
                "mail",
                "EMAILADDR",
                "EMAILADDR"
            ]
        );
        assert_eq!(
            raw("pi=3.14, 1,000 people; 486dx2 at 33MHz"),
            ["pi", "NUMBER", "NUMBER", "people", "486dx2", "at", "33MHz"]
        );
        // Trailing punctuation after a number is not part of it.
        assert_eq!(raw("in 1993. Then"), ["in", "NUMBER", "Then"]);
        // Not addresses: no domain dot, empty parts.
        assert_eq!(
            raw("@home user@localhost a@.b"),
            ["home", "user", "localhost", "a", "b"]
        );
    }

    #[test]
    fn words_are_lower_cased_and_stemmed() {
        let mut indexer = Indexer::new(TokenizerSettings::default());
        assert_eq!(
            terms(&mut indexer, "Running RUNS ran; Connections connected."),
            ["run", "run", "ran", "connect", "connect"]
        );
        assert_eq!(terms(&mut indexer, "Café naïve"), ["café", "naïv"]);
        // The special tokens stay upper case and distinct from the word "number".
        assert_eq!(
            terms(&mut indexer, "number 7 a@b.org"),
            ["number", NUMBER, EMAILADDR]
        );
        let mut plain = Indexer::new(TokenizerSettings { stem: false });
        assert_eq!(terms(&mut plain, "Running Runs"), ["running", "runs"]);
    }

    #[test]
    fn counts_are_sorted_and_summed() {
        let mut indexer = Indexer::new(TokenizerSettings::default());
        let c = indexer.count_all(&["b a b", "a c"]);
        let lex = indexer.lexicon().to_vec();
        let named: Vec<(&str, u32)> = c
            .iter()
            .map(|&(t, n)| (lex[t as usize].as_str(), n))
            .collect();
        assert_eq!(named, [("b", 2), ("a", 2), ("c", 1)]);
        assert!(c.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(indexer.count("").is_empty());
        assert!(indexer.count(" ,;- ").is_empty());
    }
}
