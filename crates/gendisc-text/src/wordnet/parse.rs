//! Parsers for `data.noun`, `index.noun` and `noun.exc`, as laid out in WordNet's `wndb(5WN)`.
//!
//! They work on the files' bytes: fields are sliced out of the buffer and numbers decoded in
//! place, so a line costs no allocation (a lemma is appended to one shared string). Every error
//! is an [`Error::Parse`] naming the file, the 1-based line and the 1-based field.

use std::collections::HashMap;
use std::path::Path;

use gendisc_core::{Error, Result};

/// What `data.noun` holds for the graph: the synsets' byte offsets, ascending (node `i` is the
/// synset at `offsets[i]`), and one directed edge per pointer to a noun synset.
#[derive(Debug, Clone, Default)]
pub(super) struct Synsets {
    pub offsets: Vec<u32>,
    pub edges: Vec<(u32, u32)>,
}

/// The lemmas of `index.noun`, sorted bytewise: lemma `i` is
/// `names[spans[i].0..spans[i].0 + spans[i].1]` and lies in the synsets (node indices)
/// `senses[ranges[i].0..ranges[i].0 + ranges[i].1]`, in WordNet's sense order.
#[derive(Debug, Clone, Default)]
pub(super) struct Lemmas {
    names: String,
    spans: Vec<(u32, u32)>,
    ranges: Vec<(u32, u32)>,
    senses: Vec<u32>,
}

impl Lemmas {
    /// Number of lemmas.
    pub(super) fn len(&self) -> usize {
        self.spans.len()
    }

    /// The lemma's text.
    pub(super) fn name(&self, i: usize) -> &str {
        let (start, len) = self.spans[i];
        &self.names[start as usize..(start + len) as usize]
    }

    /// The synsets (node indices) of lemma `i`, most frequent sense first.
    pub(super) fn senses(&self, i: usize) -> &[u32] {
        let (start, len) = self.ranges[i];
        &self.senses[start as usize..(start + len) as usize]
    }

    /// The index of `lemma`, by binary search.
    pub(super) fn find(&self, lemma: &str) -> Option<usize> {
        self.spans
            .binary_search_by(|&(start, len)| {
                self.names.as_bytes()[start as usize..(start + len) as usize].cmp(lemma.as_bytes())
            })
            .ok()
    }
}

/// The exception list: an inflected form and its base forms, in the file's order.
pub(super) type Exceptions = HashMap<Box<str>, Box<[Box<str>]>>;

/// Where a line is, for error messages.
struct At<'p> {
    path: &'p Path,
    line: usize,
}

impl At<'_> {
    fn error(&self, field: usize, message: impl Into<String>) -> Error {
        Error::Parse {
            path: self.path.to_path_buf(),
            line: self.line,
            column: field,
            message: message.into(),
        }
    }
}

/// The space-separated fields of one line, counted from 1.
struct Fields<'a> {
    rest: &'a [u8],
    count: usize,
}

impl<'a> Fields<'a> {
    fn new(line: &'a [u8]) -> Self {
        Fields {
            rest: line,
            count: 0,
        }
    }

    /// The next field, or an error naming `what` was expected when the line ends first.
    fn next(&mut self, at: &At<'_>, what: &str) -> Result<&'a [u8]> {
        let start = self
            .rest
            .iter()
            .position(|&b| b != b' ')
            .unwrap_or(self.rest.len());
        self.rest = &self.rest[start..];
        self.count += 1;
        if self.rest.is_empty() {
            return Err(at.error(self.count, format!("truncated line: expected {what}")));
        }
        let end = self
            .rest
            .iter()
            .position(|&b| b == b' ')
            .unwrap_or(self.rest.len());
        let (field, rest) = self.rest.split_at(end);
        self.rest = rest;
        Ok(field)
    }

    /// Whether only spaces are left.
    fn is_done(&self) -> bool {
        self.rest.iter().all(|&b| b == b' ')
    }
}

/// Decodes an unsigned integer in `radix` (10 or 16) of at most `u32` range.
fn number(field: &[u8], radix: u32) -> Option<u32> {
    if field.is_empty() || field.len() > 8 {
        return None;
    }
    let mut value = 0u32;
    for &b in field {
        value = value * radix + char::from(b).to_digit(radix)?;
    }
    Some(value)
}

fn decimal(fields: &mut Fields<'_>, at: &At<'_>, what: &str, width: Option<usize>) -> Result<u32> {
    let field = fields.next(at, what)?;
    number(field, 10)
        .filter(|_| width.is_none_or(|w| field.len() == w))
        .ok_or_else(|| {
            at.error(
                fields.count,
                format!(
                    "{what} `{}` is not a valid number",
                    String::from_utf8_lossy(field)
                ),
            )
        })
}

fn hexadecimal(fields: &mut Fields<'_>, at: &At<'_>, what: &str) -> Result<u32> {
    let field = fields.next(at, what)?;
    number(field, 16).ok_or_else(|| {
        at.error(
            fields.count,
            format!(
                "{what} `{}` is not a hexadecimal number",
                String::from_utf8_lossy(field)
            ),
        )
    })
}

/// The lines of a file with their 1-based numbers and byte offsets, `\r\n` accepted; the
/// licence header (lines starting with two spaces) is skipped.
fn lines(bytes: &[u8]) -> impl Iterator<Item = (usize, usize, &[u8])> {
    let mut pos = 0;
    let mut number = 0;
    std::iter::from_fn(move || loop {
        if pos >= bytes.len() {
            return None;
        }
        let start = pos;
        let end = bytes[pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| pos + i);
        pos = end + 1;
        number += 1;
        let mut line = &bytes[start..end];
        if let [rest @ .., b'\r'] = line {
            line = rest;
        }
        if line.starts_with(b"  ") || line.iter().all(|&b| b == b' ') {
            continue;
        }
        return Some((number, start, line));
    })
}

/// The error for a file with nothing but its licence header (or nothing at all), placed on
/// the line after its last.
fn no_entries(path: &Path, bytes: &[u8], what: &str) -> Error {
    Error::Parse {
        path: path.to_path_buf(),
        line: bytes.iter().filter(|&&b| b == b'\n').count() + 1,
        column: 1,
        message: format!("no {what} lines: the file is empty or truncated"),
    }
}

/// The node whose synset starts at byte `offset`, among the ascending `offsets`.
fn node_at(offsets: &[u32], offset: u32) -> Option<u32> {
    offsets.binary_search(&offset).ok().map(|i| i as u32)
}

/// Parses `data.noun`: validates every synset line and collects its pointers to noun synsets.
pub(super) fn data(path: &Path, bytes: &[u8]) -> Result<Synsets> {
    if u32::try_from(bytes.len()).is_err() {
        return Err(Error::Parse {
            path: path.to_path_buf(),
            line: 1,
            column: 1,
            message: "file larger than 4 GiB: synset offsets are eight decimal digits".into(),
        });
    }
    // A synset's offset is the byte offset of its line (checked below), so the nodes are known
    // before the pointers that name them.
    let offsets: Vec<u32> = lines(bytes).map(|(_, start, _)| start as u32).collect();
    if offsets.is_empty() {
        return Err(no_entries(path, bytes, "synset"));
    }
    let mut edges = Vec::with_capacity(offsets.len() * 4);
    for (node, (line, start, text)) in lines(bytes).enumerate() {
        let at = At { path, line };
        let mut f = Fields::new(text);
        let offset = decimal(&mut f, &at, "synset_offset", Some(8))?;
        if offset as usize != start {
            return Err(at.error(
                1,
                format!("synset_offset {offset:08} does not match the line's byte offset {start}"),
            ));
        }
        decimal(&mut f, &at, "lex_filenum", Some(2))?;
        let ss_type = f.next(&at, "ss_type")?;
        if ss_type != b"n" {
            return Err(at.error(
                f.count,
                format!(
                    "ss_type `{}` is not `n`: data.noun holds noun synsets only",
                    String::from_utf8_lossy(ss_type)
                ),
            ));
        }
        let w_cnt = hexadecimal(&mut f, &at, "w_cnt")?;
        if w_cnt == 0 {
            return Err(at.error(f.count, "a synset needs at least one word (w_cnt is 0)"));
        }
        for _ in 0..w_cnt {
            f.next(&at, "a word")?;
            hexadecimal(&mut f, &at, "lex_id")?;
        }
        let p_cnt = decimal(&mut f, &at, "p_cnt", None)?;
        for _ in 0..p_cnt {
            f.next(&at, "a pointer_symbol")?;
            let target = decimal(&mut f, &at, "a pointer's synset_offset", Some(8))?;
            let target_field = f.count;
            let pos = f.next(&at, "a pointer's pos")?;
            match pos {
                b"n" => {
                    let to = node_at(&offsets, target).ok_or_else(|| {
                        at.error(
                            target_field,
                            format!(
                                "pointer to {target:08}, which is not the offset of a synset \
                                 (synset {offset:08})"
                            ),
                        )
                    })?;
                    edges.push((node as u32, to));
                }
                // Pointers to other parts of speech leave the noun graph.
                b"v" | b"a" | b"s" | b"r" => {}
                other => {
                    return Err(at.error(
                        f.count,
                        format!(
                            "pointer pos `{}` is not one of n, v, a, s, r",
                            String::from_utf8_lossy(other)
                        ),
                    ))
                }
            }
            let source_target = f.next(&at, "a pointer's source/target")?;
            if source_target.len() != 4 || number(source_target, 16).is_none() {
                return Err(at.error(
                    f.count,
                    format!(
                        "source/target `{}` is not four hexadecimal digits",
                        String::from_utf8_lossy(source_target)
                    ),
                ));
            }
        }
        let gloss = f.next(&at, "`|` and the gloss")?;
        if gloss[0] != b'|' {
            return Err(at.error(
                f.count,
                format!(
                    "expected `|` and the gloss after {p_cnt} pointers, found `{}`",
                    String::from_utf8_lossy(gloss)
                ),
            ));
        }
    }
    Ok(Synsets { offsets, edges })
}

/// Parses `index.noun`, resolving each lemma's synset offsets against `offsets` (those of
/// `data.noun`).
pub(super) fn index(path: &Path, bytes: &[u8], offsets: &[u32]) -> Result<Lemmas> {
    struct Entry {
        span: (u32, u32),
        range: (u32, u32),
        line: usize,
    }
    let mut names = String::with_capacity(bytes.len() / 3);
    let mut senses = Vec::with_capacity(offsets.len() * 2);
    let mut entries = Vec::with_capacity(offsets.len() * 2);
    for (line, _, text) in lines(bytes) {
        let at = At { path, line };
        let mut f = Fields::new(text);
        let lemma = f.next(&at, "a lemma")?;
        let lemma =
            std::str::from_utf8(lemma).map_err(|_| at.error(1, "the lemma is not valid UTF-8"))?;
        let pos = f.next(&at, "pos")?;
        if pos != b"n" {
            return Err(at.error(
                2,
                format!(
                    "pos `{}` is not `n`: index.noun lists nouns only",
                    String::from_utf8_lossy(pos)
                ),
            ));
        }
        let synset_cnt = decimal(&mut f, &at, "synset_cnt", None)?;
        let p_cnt = decimal(&mut f, &at, "p_cnt", None)?;
        for _ in 0..p_cnt {
            f.next(&at, "a ptr_symbol")?;
        }
        let sense_cnt = decimal(&mut f, &at, "sense_cnt", None)?;
        if sense_cnt != synset_cnt {
            return Err(at.error(
                f.count,
                format!("sense_cnt {sense_cnt} differs from synset_cnt {synset_cnt}"),
            ));
        }
        decimal(&mut f, &at, "tagsense_cnt", None)?;
        let first = senses.len();
        for _ in 0..synset_cnt {
            let offset = decimal(&mut f, &at, "a synset_offset", Some(8))?;
            let node = node_at(offsets, offset).ok_or_else(|| {
                at.error(
                    f.count,
                    format!("synset_offset {offset:08} is not the offset of a synset in data.noun"),
                )
            })?;
            senses.push(node);
        }
        if !f.is_done() {
            return Err(at.error(
                f.count + 1,
                format!("more fields than the {synset_cnt} synset offsets announced"),
            ));
        }
        let start = names.len();
        names.push_str(lemma);
        entries.push(Entry {
            span: (start as u32, lemma.len() as u32),
            range: (first as u32, synset_cnt),
            line,
        });
    }
    if entries.is_empty() {
        return Err(no_entries(path, bytes, "lemma"));
    }
    let name = |e: &Entry| &names.as_bytes()[e.span.0 as usize..(e.span.0 + e.span.1) as usize];
    if !entries.windows(2).all(|w| name(&w[0]) < name(&w[1])) {
        entries.sort_by(|a, b| name(a).cmp(name(b)).then(a.line.cmp(&b.line)));
        if let Some(w) = entries.windows(2).find(|w| name(&w[0]) == name(&w[1])) {
            let at = At {
                path,
                line: w[1].line,
            };
            return Err(at.error(
                1,
                format!(
                    "lemma `{}` already listed on line {}",
                    String::from_utf8_lossy(name(&w[1])),
                    w[0].line
                ),
            ));
        }
    }
    Ok(Lemmas {
        spans: entries.iter().map(|e| e.span).collect(),
        ranges: entries.iter().map(|e| e.range).collect(),
        names,
        senses,
    })
}

/// Parses `noun.exc`: an inflected form, then one or more base forms.
pub(super) fn exceptions(path: &Path, bytes: &[u8]) -> Result<Exceptions> {
    let mut table = Exceptions::new();
    for (line, _, text) in lines(bytes) {
        let at = At { path, line };
        let text = std::str::from_utf8(text).map_err(|_| at.error(1, "not valid UTF-8"))?;
        let mut words = text.split(' ').filter(|w| !w.is_empty());
        let inflected = words.next().ok_or_else(|| at.error(1, "empty line"))?;
        let bases: Box<[Box<str>]> = words.map(Box::from).collect();
        if bases.is_empty() {
            return Err(at.error(2, format!("`{inflected}` has no base form")));
        }
        // WordNet's own lookup finds the first line of a repeated form.
        table.entry(inflected.into()).or_insert(bases);
    }
    Ok(table)
}
