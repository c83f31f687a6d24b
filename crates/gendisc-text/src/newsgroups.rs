//! The 20 Newsgroups "bydate" collection, read from its canonical tarball without unpacking it,
//! or from the same layout extracted into a directory.
//!
//! The layout is `20news-bydate-train/<group>/<id>` and `20news-bydate-test/<group>/<id>`,
//! one raw Usenet posting per file (headers, a blank line, the body). Postings are bytes: each is
//! decoded as UTF-8 when it is valid UTF-8, and otherwise as Latin-1 (every byte is the
//! character `U+00xx`), which never fails. Postings decoded by the fallback are counted and
//! listed in the [`ReadReport`], never dropped.
//!
//! Entries outside the layout (a directory, a stray file at the top level) are skipped and
//! listed in the report. A corrupt archive or entry is an error naming the entry.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Component, Path, PathBuf};

use flate2::read::GzDecoder;
use serde::{Deserialize, Serialize};

use gendisc_core::{Error, Result};

/// The file name of the canonical archive, relative to the data directory.
pub const TARBALL: &str = "20news-bydate.tar.gz";

/// Which half of the bydate split a posting belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Split {
    /// `20news-bydate-train`.
    Train,
    /// `20news-bydate-test`.
    Test,
}

impl Split {
    /// The directory name of the split in the archive.
    pub fn directory(self) -> &'static str {
        match self {
            Split::Train => "20news-bydate-train",
            Split::Test => "20news-bydate-test",
        }
    }

    fn from_directory(name: &str) -> Option<Self> {
        match name {
            "20news-bydate-train" => Some(Split::Train),
            "20news-bydate-test" => Some(Split::Test),
            _ => None,
        }
    }
}

/// How a posting's bytes were decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Encoding {
    /// The bytes were valid UTF-8 (plain ASCII included).
    Utf8,
    /// The bytes were not valid UTF-8 and were decoded as Latin-1.
    Latin1,
}

/// One posting: where it was found and its decoded text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Posting {
    /// Train or test half of the bydate split.
    pub split: Split,
    /// Index of the newsgroup in [`Newsgroups::groups`].
    pub group: usize,
    /// The file name (the article number).
    pub id: String,
    /// The whole posting, headers included.
    pub text: String,
    /// How the bytes were decoded.
    pub encoding: Encoding,
}

/// What reading the collection found besides the postings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadReport {
    /// Entries (archive paths) decoded as Latin-1 because they were not valid UTF-8.
    pub latin1: Vec<String>,
    /// Entries skipped because they are not `<split>/<group>/<id>` files.
    pub skipped: Vec<String>,
}

/// The 20 Newsgroups collection: group names and postings.
///
/// Postings are sorted by split, group and article number, so the order does not depend on the
/// archive's or the file system's order.
///
/// ```no_run
/// use gendisc_text::newsgroups::{Newsgroups, TARBALL};
///
/// let corpus = Newsgroups::read(gendisc_data::loaders::dataset_path(TARBALL)?)?;
/// assert_eq!(corpus.postings().len(), 18_846);
/// # Ok::<(), gendisc_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Newsgroups {
    groups: Vec<String>,
    postings: Vec<Posting>,
    report: ReadReport,
}

impl Newsgroups {
    /// Reads a `.tar.gz` archive, or a directory holding the extracted layout (the split
    /// directories directly, or one level down as in `20news-bydate/…`).
    pub fn read(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        if path.is_dir() {
            Self::read_dir(path)
        } else {
            Self::read_tarball(path)
        }
    }

    /// Reads the gzip-compressed tar archive at `path`, in one streaming pass.
    pub fn read_tarball(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let file = File::open(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_tar_gz(BufReader::with_capacity(1 << 16, file), path)
    }

    /// Reads a gzip-compressed tar stream; `name` (the archive's path) is used in errors.
    pub fn from_tar_gz(reader: impl Read, name: impl AsRef<Path>) -> Result<Self> {
        let name = name.as_ref();
        let mut builder = Builder::default();
        let mut archive = tar::Archive::new(GzDecoder::new(reader));
        let entries = archive
            .entries()
            .map_err(|e| corrupt(name, "the archive's first entry", e))?;
        let mut last = String::from("the archive's first entry");
        let mut bytes = Vec::new();
        for entry in entries {
            let mut entry =
                entry.map_err(|e| corrupt(name, &format!("the entry after {last}"), e))?;
            let entry_path = entry
                .path()
                .map_err(|e| corrupt(name, &format!("the entry after {last}"), e))?
                .into_owned();
            last = entry_path.display().to_string();
            if !entry.header().entry_type().is_file() {
                continue;
            }
            bytes.clear();
            entry
                .read_to_end(&mut bytes)
                .map_err(|e| corrupt(name, &last, e))?;
            builder.add(&entry_path, &bytes);
        }
        Ok(builder.finish())
    }

    /// Reads the extracted layout under `dir`.
    pub fn read_dir(dir: impl AsRef<Path>) -> Result<Self> {
        let dir = dir.as_ref();
        let mut builder = Builder::default();
        let mut stack = vec![dir.to_path_buf()];
        let io_error = |path: &Path, source| Error::Io {
            path: path.to_path_buf(),
            source,
        };
        while let Some(current) = stack.pop() {
            let mut children = std::fs::read_dir(&current)
                .map_err(|e| io_error(&current, e))?
                .map(|e| e.map(|e| e.path()))
                .collect::<io::Result<Vec<PathBuf>>>()
                .map_err(|e| io_error(&current, e))?;
            children.sort();
            for child in children {
                if child.is_dir() {
                    stack.push(child);
                } else {
                    let bytes = std::fs::read(&child).map_err(|e| io_error(&child, e))?;
                    let relative = child.strip_prefix(dir).unwrap_or(&child);
                    builder.add(relative, &bytes);
                }
            }
        }
        Ok(builder.finish())
    }

    /// A collection from parts: group names and postings whose `group` indexes them (e.g. a
    /// subset of another collection). The postings are kept in the given order; the report is
    /// empty.
    pub fn from_parts(groups: Vec<String>, postings: Vec<Posting>) -> Self {
        Self {
            groups,
            postings,
            report: ReadReport::default(),
        }
    }

    /// The newsgroup names (sorted, when read); [`Posting::group`] indexes this list.
    pub fn groups(&self) -> &[String] {
        &self.groups
    }

    /// The index of a newsgroup by its full name, e.g. `"alt.atheism"`.
    pub fn group_index(&self, name: &str) -> Option<usize> {
        self.groups.iter().position(|g| g == name)
    }

    /// Every posting, sorted by split, group and article number.
    pub fn postings(&self) -> &[Posting] {
        &self.postings
    }

    /// Latin-1 fallbacks and skipped entries.
    pub fn report(&self) -> &ReadReport {
        &self.report
    }
}

/// The error for an archive that cannot be read at `entry`.
fn corrupt(archive: &Path, entry: &str, source: io::Error) -> Error {
    Error::Io {
        path: archive.to_path_buf(),
        source: io::Error::new(
            io::ErrorKind::InvalidData,
            format!("corrupt archive at {entry}: {source}"),
        ),
    }
}

/// Accumulates postings in whatever order they come, then sorts them.
#[derive(Default)]
struct Builder {
    /// `(split, group name, id, text, encoding)`.
    raw: Vec<(Split, String, String, String, Encoding)>,
    report: ReadReport,
}

impl Builder {
    fn add(&mut self, path: &Path, bytes: &[u8]) {
        let shown = path.display().to_string();
        let Some((split, group, id)) = locate(path) else {
            self.report.skipped.push(shown);
            return;
        };
        let (text, encoding) = decode(bytes);
        if encoding == Encoding::Latin1 {
            self.report.latin1.push(shown);
        }
        self.raw.push((split, group, id, text, encoding));
    }

    fn finish(mut self) -> Newsgroups {
        let mut groups: Vec<String> = self.raw.iter().map(|r| r.1.clone()).collect();
        groups.sort();
        groups.dedup();
        // Article numbers sort numerically when they are numbers, else by name.
        self.raw.sort_by(|a, b| {
            (a.0, &a.1, a.2.parse::<u64>().ok(), &a.2).cmp(&(
                b.0,
                &b.1,
                b.2.parse::<u64>().ok(),
                &b.2,
            ))
        });
        let postings = self
            .raw
            .into_iter()
            .map(|(split, group, id, text, encoding)| Posting {
                split,
                group: groups.binary_search(&group).expect("collected above"),
                id,
                text,
                encoding,
            })
            .collect();
        self.report.latin1.sort();
        self.report.skipped.sort();
        Newsgroups {
            groups,
            postings,
            report: self.report,
        }
    }
}

/// `(split, group, id)` of a path ending in `<split>/<group>/<id>`, any prefix allowed.
fn locate(path: &Path) -> Option<(Split, String, String)> {
    let parts: Vec<&str> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect();
    let [.., split, group, id] = parts.as_slice() else {
        return None;
    };
    let split = Split::from_directory(split)?;
    if group.is_empty() || id.is_empty() || id.starts_with('.') {
        return None;
    }
    Some((split, group.to_string(), id.to_string()))
}

/// UTF-8 when valid, else Latin-1 (byte `b` is the character `U+00b`).
pub fn decode(bytes: &[u8]) -> (String, Encoding) {
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_owned(), Encoding::Utf8),
        Err(_) => (
            bytes.iter().map(|&b| char::from(b)).collect(),
            Encoding::Latin1,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use flate2::Compression;

    /// A small archive in the canonical layout, plus a directory entry and a stray file.
    pub(crate) fn archive(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut builder = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::default()));
        let mut dir = tar::Header::new_gnu();
        dir.set_entry_type(tar::EntryType::Directory);
        dir.set_size(0);
        dir.set_mode(0o755);
        dir.set_cksum();
        builder
            .append_data(&mut dir, "20news-bydate-train/", io::empty())
            .unwrap();
        for (path, data) in files {
            let mut header = tar::Header::new_gnu();
            header.set_size(data.len() as u64);
            header.set_mode(0o644);
            header.set_cksum();
            builder.append_data(&mut header, path, *data).unwrap();
        }
        builder.into_inner().unwrap().finish().unwrap()
    }

    fn sample() -> Vec<u8> {
        archive(&[
            (
                "20news-bydate-train/sci.med/20",
                b"Subject: Re: aspirin\n\nTake two.\n",
            ),
            (
                "20news-bydate-train/sci.med/3",
                b"Subject: caf\xe9\n\nLatin-1 body\n",
            ),
            (
                "20news-bydate-test/alt.atheism/7",
                b"From: a@b.c\n\nno subject\n",
            ),
            ("README", b"not a posting"),
        ])
    }

    #[test]
    fn reads_the_layout_sorted_with_a_latin1_fallback() {
        let corpus = Newsgroups::from_tar_gz(sample().as_slice(), "mem.tar.gz").unwrap();
        assert_eq!(corpus.groups(), ["alt.atheism", "sci.med"]);
        let ids: Vec<(Split, usize, &str)> = corpus
            .postings()
            .iter()
            .map(|p| (p.split, p.group, p.id.as_str()))
            .collect();
        // Train before test; article 3 before 20 (numeric order).
        assert_eq!(
            ids,
            [
                (Split::Train, 1, "3"),
                (Split::Train, 1, "20"),
                (Split::Test, 0, "7")
            ]
        );
        let latin1 = &corpus.postings()[0];
        assert_eq!(latin1.encoding, Encoding::Latin1);
        assert!(latin1.text.contains("café"));
        assert_eq!(corpus.report().latin1, ["20news-bydate-train/sci.med/3"]);
        assert_eq!(corpus.report().skipped, ["README"]);
        assert_eq!(corpus.group_index("sci.med"), Some(1));
        assert_eq!(corpus.group_index("sci.space"), None);
    }

    #[test]
    fn a_directory_reads_like_the_archive() {
        let dir = std::env::temp_dir().join(format!("gendisc-text-dir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let files: [(&str, &[u8]); 3] = [
            (
                "20news-bydate/20news-bydate-train/sci.med/20",
                b"Subject: x\n\nbody\n",
            ),
            (
                "20news-bydate/20news-bydate-train/sci.med/3",
                b"Subject: caf\xe9\n\nb\n",
            ),
            (
                "20news-bydate/20news-bydate-test/alt.atheism/7",
                b"\n\nno subject\n",
            ),
        ];
        for (path, data) in files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, data).unwrap();
        }
        let from_dir = Newsgroups::read(&dir).unwrap();
        let from_tar = Newsgroups::from_tar_gz(
            archive(&files.map(|(p, d)| (p.trim_start_matches("20news-bydate/"), d))).as_slice(),
            "mem",
        )
        .unwrap();
        assert_eq!(from_dir.postings(), from_tar.postings());
        assert_eq!(from_dir.report().latin1.len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_corrupt_archive_names_the_entry() {
        let good = sample();
        // A truncated gzip stream: the error names an entry of the archive.
        let cut = &good[..good.len() / 2];
        let err = Newsgroups::from_tar_gz(cut, "cut.tar.gz").unwrap_err();
        let message = err.to_string();
        assert!(message.contains("cut.tar.gz"), "{message}");
        assert!(message.contains("corrupt archive at"), "{message}");
        assert!(message.contains("20news-bydate"), "{message}");
        // Not gzip at all.
        let err = Newsgroups::from_tar_gz(&b"plain text, not gzip"[..], "bad.tar.gz").unwrap_err();
        assert!(err.to_string().contains("bad.tar.gz"), "{err}");
        // A damaged tar header inside a valid gzip stream.
        let mut tar_bytes = Vec::new();
        flate2::read::GzDecoder::new(good.as_slice())
            .read_to_end(&mut tar_bytes)
            .unwrap();
        // The second header (after the directory entry's 512 bytes): break its checksum.
        tar_bytes[512 + 148..512 + 156].copy_from_slice(b"9999999\0");
        let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
        io::Write::write_all(&mut gz, &tar_bytes).unwrap();
        let damaged = gz.finish().unwrap();
        let err = Newsgroups::from_tar_gz(damaged.as_slice(), "damaged.tar.gz").unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains("the entry after 20news-bydate-train"),
            "{message}"
        );
        // A missing file is an I/O error naming it.
        let err = Newsgroups::read("no/such/archive.tar.gz").unwrap_err();
        assert!(err.to_string().contains("no/such/archive.tar.gz"), "{err}");
    }

    #[test]
    fn decoding_never_fails() {
        assert_eq!(decode(b"plain").1, Encoding::Utf8);
        assert_eq!(decode("naïve".as_bytes()), ("naïve".into(), Encoding::Utf8));
        let all: Vec<u8> = (0..=255).collect();
        let (text, encoding) = decode(&all);
        assert_eq!(encoding, Encoding::Latin1);
        assert_eq!(text.chars().count(), 256);
        assert!(text.chars().enumerate().all(|(i, c)| c as usize == i));
    }
}
