//! `cargo xtask fetch-data`: downloads the data sets of the studies into the data directory
//! (`$GENDISC_DATA`, else `./data`, where the studies read; or `--dest`),
//! verifying each file against the SHA-256 recorded in `xtask/data-manifest.json`.
//!
//! The manifest lists, for every file the studies read, its path under the data directory, its
//! canonical public URL (the UCI archive, the 20 Newsgroups home page) and the checksum of the
//! file as the studies expect it — the project's reference copy, whose provenance the data
//! README documents. Where the canonical download differs from that copy by one known edit, the
//! entry names it (`transform`): `drop-first-line` (adult's test file loses its
//! `|1x3 Cross validator` line) or `strip-final-newline` (copies whose last newline the mirror
//! dropped). One entry cannot be checked against a canonical download: the 20 Newsgroups
//! tarball, which the project re-packed (its checksum is that of the re-packed copy; a canonical
//! download is kept and reported as unverified). Thyroid `sick.arff`, a Weka conversion that UCI
//! does not distribute, comes from the public copy the reference file was taken from, pinned to
//! its commit, and is verified like the others.
//!
//! With `--mirror URL` (or `GENDISC_DATA_MIRROR`), every file is taken from `URL/<path>` — a
//! copy of the data directory's layout — as stored, and verified strictly.
//!
//! A download goes to `<file>.part`; an interrupted one is resumed with an HTTP `Range` request
//! on the next run. The complete file is transformed, hashed, and only when the checksum
//! matches written next to its destination and renamed over it, so a destination file is
//! either absent, the old one, or verified. A mismatching download is deleted, `.part`
//! included, and reported with both checksums.
//!
//! **Archives.** WordNet 3.0's noun files (`index.noun`, `data.noun`, `noun.exc`) come out of a
//! published archive: the manifest's `archives` name the directory they are unpacked into
//! (`wordnet/dict`, where `gendisc_text::wordnet` looks), and the archive's sources in the
//! order they are tried — Princeton's `WordNet-3.0.tar.gz`, then Debian's `wordnet-base`
//! package — each with the archive's SHA-256 and that of every file taken from it. The archive
//! is downloaded like a file (resumable, into `<name>.part` beside the directory), its checksum
//! checked, the files taken out in memory and checked one by one, and only then written beside
//! their destinations and renamed over them; the `.part` file is removed. A source that fails
//! (unreachable, a wrong checksum) is reported and the next one tried. With a mirror, the
//! files are first taken from `URL/wordnet/dict/<file>` and must match one source's checksums;
//! a mirror without them leaves the archive to its own sources. `cargo xtask fetch-data
//! wordnet` fetches only it. WordNet 3.0 is Copyright 2006 by Princeton University under its
//! permissive licence (recorded in the manifest): use, copy, modify and distribute for any
//! purpose without fee, with the copyright notice and disclaimer kept.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, ensure, Context, Result};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::unpack;

/// The manifest, compiled in so that `fetch-data` works from any directory.
pub const MANIFEST: &str = include_str!("../data-manifest.json");

/// The environment variable that names a mirror of the data directory (as `--mirror`).
pub const MIRROR_VAR: &str = "GENDISC_DATA_MIRROR";

/// Arguments of `cargo xtask fetch-data`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only these files (paths as in the manifest, e.g. `uci/sonar/sonar.all-data`) or archives
    /// (`wordnet`); default: every file and archive.
    files: Vec<String>,
    /// Directory to download into (default: where the studies read, GENDISC_DATA if set, else
    /// `./data`).
    #[arg(long)]
    dest: Option<PathBuf>,
    /// Take every file from `URL/<path>`, a copy of the data directory's layout, instead of
    /// its canonical source (default: the environment variable GENDISC_DATA_MIRROR, if set).
    #[arg(long)]
    mirror: Option<String>,
}

/// The manifest: every data file with its source and checksum.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// What the manifest is (for its readers; not used here).
    #[serde(rename = "about")]
    _about: String,
    /// The files, in path order.
    pub files: Vec<Entry>,
    /// The sets of files that come out of a published archive.
    #[serde(default)]
    pub archives: Vec<Archive>,
}

/// Files the studies read that come out of a published archive (WordNet 3.0's noun files).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Archive {
    /// The name `cargo xtask fetch-data` knows it by (`wordnet`).
    pub name: String,
    /// The directory under the data directory the files are written to, `/`-separated.
    pub dest: String,
    /// What the files are, for messages.
    pub what: String,
    /// The licence the files are distributed under.
    pub licence: String,
    /// Where the archive can be downloaded, in the order they are tried.
    pub sources: Vec<ArchiveSource>,
}

/// One place an [`Archive`] can be downloaded from.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchiveSource {
    /// The archive's URL.
    pub url: String,
    /// SHA-256 (lowercase hex) of the archive.
    pub sha256: String,
    /// The archive's size in bytes, where known.
    #[serde(default)]
    pub bytes: Option<u64>,
    /// How the archive is packed.
    pub format: unpack::Format,
    /// The directory inside the archive that holds the files, `/`-separated, without `./`.
    pub dir: String,
    /// Each file taken from the archive and its SHA-256 (lowercase hex).
    pub files: BTreeMap<String, String>,
    /// Provenance remarks (for the manifest's readers; not used here).
    #[serde(rename = "note", default)]
    _note: Option<String>,
}

impl Archive {
    /// The names of the files taken from the archive.
    pub fn file_names(&self) -> Vec<&str> {
        self.sources
            .first()
            .map(|s| s.files.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }

    /// The source whose files `dest_dir` already holds, each matching its checksum.
    pub fn present_from(&self, dest_dir: &Path) -> Option<&ArchiveSource> {
        let dir = dest_dir.join(&self.dest);
        let checksums: BTreeMap<&str, String> = self
            .file_names()
            .into_iter()
            .filter_map(|name| Some((name, sha256_hex(&fs::read(dir.join(name)).ok()?))))
            .collect();
        self.sources.iter().find(|source| {
            source
                .files
                .iter()
                .all(|(name, sum)| checksums.get(name.as_str()) == Some(sum))
        })
    }

    /// How large the download is, for messages: the first source's size where recorded,
    /// else the first recorded size of another source.
    pub fn download_size(&self) -> String {
        match self.sources.iter().find_map(|s| s.bytes) {
            Some(bytes) if self.sources[0].bytes.is_some() => size_text(bytes),
            Some(bytes) => format!(
                "{} from the fallback source; the first source's size is not recorded",
                size_text(bytes)
            ),
            None => "size not recorded".into(),
        }
    }
}

/// A size in bytes as a person reads it: `408 B`, `28.7 kB`, `14.5 MB`.
pub fn size_text(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{:.1} kB", bytes as f64 / 1e3),
        _ => format!("{:.1} MB", bytes as f64 / 1e6),
    }
}

/// One file of the manifest.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Path under the data directory, `/`-separated.
    pub path: String,
    /// The canonical public URL, if there is one.
    pub url: Option<String>,
    /// SHA-256 (lowercase hex) of the file as the studies expect it.
    pub sha256: String,
    /// The edit that turns the canonical download into that file.
    #[serde(default)]
    pub transform: Transform,
    /// Whether a canonical download can be verified against `sha256` (false for a re-packed
    /// copy).
    #[serde(default = "yes")]
    pub canonical_checksum_known: bool,
    /// The file's size in bytes (of the reference copy).
    #[serde(default)]
    pub bytes: Option<u64>,
    /// Provenance remarks.
    #[serde(default)]
    pub note: Option<String>,
}

fn yes() -> bool {
    true
}

/// An edit from the canonical download to the reference copy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Transform {
    /// The bytes as downloaded.
    #[default]
    None,
    /// Everything after the first `\n`.
    DropFirstLine,
    /// Without the final `\n` (which must be there).
    StripFinalNewline,
}

impl Transform {
    /// Applies the edit; fails when the download does not have the shape the edit expects.
    pub fn apply(self, mut bytes: Vec<u8>) -> Result<Vec<u8>> {
        match self {
            Transform::None => Ok(bytes),
            Transform::DropFirstLine => {
                let end = bytes
                    .iter()
                    .position(|&b| b == b'\n')
                    .context("expected a first line to drop, found no newline")?;
                Ok(bytes.split_off(end + 1))
            }
            Transform::StripFinalNewline => {
                ensure!(
                    bytes.last() == Some(&b'\n'),
                    "expected the file to end with a newline"
                );
                bytes.pop();
                Ok(bytes)
            }
        }
    }
}

impl Manifest {
    /// Parses and checks a manifest: relative paths without `..`, each listed once, checksums
    /// of 64 lowercase hexadecimal digits.
    pub fn parse(text: &str) -> Result<Self> {
        let manifest: Manifest = serde_json::from_str(text).context("malformed data manifest")?;
        for (i, entry) in manifest.files.iter().enumerate() {
            let path = Path::new(&entry.path);
            ensure!(
                !entry.path.is_empty()
                    && path.components().all(|c| matches!(c, Component::Normal(_))),
                "data manifest: `{}` is not a relative path inside the data directory",
                entry.path
            );
            ensure!(
                manifest.files[..i].iter().all(|e| e.path != entry.path),
                "data manifest: `{}` is listed twice",
                entry.path
            );
            ensure!(
                is_sha256(&entry.sha256),
                "data manifest: the checksum of `{}` is not 64 lowercase hex digits",
                entry.path
            );
        }
        for (i, archive) in manifest.archives.iter().enumerate() {
            let dest = Path::new(&archive.dest);
            ensure!(
                !archive.dest.is_empty()
                    && dest.components().all(|c| matches!(c, Component::Normal(_))),
                "data manifest: archive `{}`'s `{}` is not a relative path inside the data \
                 directory",
                archive.name,
                archive.dest
            );
            ensure!(
                manifest.archives[..i]
                    .iter()
                    .all(|a| a.name != archive.name)
                    && manifest.entry(&archive.name).is_none(),
                "data manifest: `{}` is listed twice",
                archive.name
            );
            ensure!(
                !archive.sources.is_empty(),
                "data manifest: archive `{}` has no source",
                archive.name
            );
            let names = archive.file_names();
            for source in &archive.sources {
                ensure!(
                    is_sha256(&source.sha256) && source.files.values().all(|sum| is_sha256(sum)),
                    "data manifest: a checksum of archive `{}` ({}) is not 64 lowercase hex \
                     digits",
                    archive.name,
                    source.url
                );
                ensure!(
                    !names.is_empty()
                        && source
                            .files
                            .keys()
                            .map(String::as_str)
                            .eq(names.iter().copied())
                        && names.iter().all(|n| {
                            let mut parts = Path::new(n).components();
                            matches!(parts.next(), Some(Component::Normal(_)))
                                && parts.next().is_none()
                        }),
                    "data manifest: every source of archive `{}` must list the same file names, \
                     without directories",
                    archive.name
                );
            }
        }
        Ok(manifest)
    }

    /// The archive called `name`.
    pub fn archive(&self, name: &str) -> Option<&Archive> {
        self.archives.iter().find(|a| a.name == name)
    }

    /// The entry of `path`.
    pub fn entry(&self, path: &str) -> Option<&Entry> {
        self.files.iter().find(|e| e.path == path)
    }
}

/// What fetching one file did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetched {
    /// The destination already held the verified file.
    AlreadyPresent,
    /// Downloaded (continuing a `.part` file of this many bytes) and verified.
    Downloaded {
        /// Bytes already in the `.part` file when the download resumed; 0 for a fresh one.
        resumed_from: u64,
    },
    /// Downloaded from a canonical source that cannot be checked against the recorded
    /// checksum, and kept; this is its checksum.
    Unverified {
        /// SHA-256 of the file written.
        sha256: String,
    },
    /// No canonical source, and no mirror given.
    NoSource,
}

/// Where to download from.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// Each entry's canonical URL, with its transform.
    Canonical,
    /// `base/<path>`, the files as stored.
    Mirror(&'a str),
}

/// The mirror to take files from: `arg` (`--mirror`) if given, else `$GENDISC_DATA_MIRROR` if
/// set and not empty.
pub fn mirror(arg: Option<&str>) -> Option<String> {
    arg.map(str::to_string)
        .or_else(|| std::env::var(MIRROR_VAR).ok().filter(|m| !m.is_empty()))
}

/// What [`fetch`] did with `entry`, in a sentence.
pub fn fetched_message(entry: &Entry, fetched: &Fetched) -> String {
    let path = &entry.path;
    match fetched {
        Fetched::AlreadyPresent => format!("{path}: present and verified"),
        Fetched::Downloaded { resumed_from: 0 } => format!("{path}: downloaded and verified"),
        Fetched::Downloaded { resumed_from } => {
            format!("{path}: downloaded (resumed after {resumed_from} bytes) and verified")
        }
        Fetched::Unverified { sha256 } => format!(
            "{path}: downloaded but NOT verified (sha256 {sha256}): {}",
            entry
                .note
                .as_deref()
                .unwrap_or("no recorded checksum applies")
        ),
        Fetched::NoSource => format!(
            "{path}: no canonical source ({}); fetch it from a copy of the data directory with \
             --mirror URL",
            entry.note.as_deref().unwrap_or("none recorded")
        ),
    }
}

/// What [`fetch_archive`] did, in a sentence.
pub fn archive_message(archive: &Archive, fetched: &FetchedArchive) -> String {
    let files = archive.file_names().join(", ");
    match fetched {
        FetchedArchive::AlreadyPresent => {
            format!("{} ({}): present and verified", archive.name, archive.what)
        }
        FetchedArchive::Unpacked {
            url,
            resumed_from: 0,
        } => format!(
            "{}: downloaded {url}, verified, and unpacked {files} into {}. {}",
            archive.name, archive.dest, archive.licence
        ),
        FetchedArchive::Unpacked { url, resumed_from } => format!(
            "{}: downloaded {url} (resumed after {resumed_from} bytes), verified, and unpacked \
             {files} into {}. {}",
            archive.name, archive.dest, archive.licence
        ),
        FetchedArchive::FromMirror => format!(
            "{}: {files} taken from the mirror and verified. {}",
            archive.name, archive.licence
        ),
    }
}

/// An HTTP agent that reports every status to the caller (a `Range` request may be answered
/// 206, 200 or 416) and gives up on a connection after a minute.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_connect(Some(Duration::from_secs(60)))
        .build()
        .into()
}

/// Whether `text` is a SHA-256 in lowercase hexadecimal.
fn is_sha256(text: &str) -> bool {
    text.len() == 64
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Lowercase hexadecimal SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `path` with `suffix` appended to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// Fetches one file into `dest_dir`: see the [module documentation](self).
pub fn fetch(
    agent: &ureq::Agent,
    entry: &Entry,
    dest_dir: &Path,
    source: Source<'_>,
) -> Result<Fetched> {
    let dest = dest_dir.join(&entry.path);
    if let Ok(existing) = fs::read(&dest) {
        if sha256_hex(&existing) == entry.sha256 {
            return Ok(Fetched::AlreadyPresent);
        }
        eprintln!(
            "{}: the file present does not match the manifest's checksum; downloading it again",
            entry.path
        );
    }
    let (url, transform, verify) = match source {
        Source::Mirror(base) => (
            format!("{}/{}", base.trim_end_matches('/'), entry.path),
            Transform::None,
            true,
        ),
        Source::Canonical => match &entry.url {
            Some(url) => (url.clone(), entry.transform, entry.canonical_checksum_known),
            None => return Ok(Fetched::NoSource),
        },
    };
    if let Some(parent) = dest.parent() {
        fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    let part = with_suffix(&dest, ".part");
    let resumed_from = download(agent, &url, &part)?;
    let downloaded = fs::read(&part).with_context(|| format!("cannot read {}", part.display()))?;
    let content = match transform.apply(downloaded) {
        Ok(content) => content,
        Err(error) => {
            let _ = fs::remove_file(&part);
            bail!(
                "{}: the download from {url} is not what the manifest expects ({error:#}); it \
                 was discarded",
                entry.path
            );
        }
    };
    let digest = sha256_hex(&content);
    if verify && digest != entry.sha256 {
        let _ = fs::remove_file(&part);
        bail!(
            "{}: checksum mismatch: expected {}, got {digest} (downloaded from {url}); the \
             download was discarded",
            entry.path,
            entry.sha256
        );
    }
    write_atomically(&dest, &content)?;
    fs::remove_file(&part).with_context(|| format!("cannot remove {}", part.display()))?;
    Ok(if verify {
        Fetched::Downloaded { resumed_from }
    } else {
        Fetched::Unverified { sha256: digest }
    })
}

/// Downloads `url` into `part`, continuing an existing `part` with a `Range` request; returns
/// the number of bytes the download continued from (0 when it started afresh).
fn download(agent: &ureq::Agent, url: &str, part: &Path) -> Result<u64> {
    let offset = fs::metadata(part).map_or(0, |m| m.len());
    let mut request = agent.get(url);
    if offset > 0 {
        request = request.header("Range", format!("bytes={offset}-"));
    }
    let response = request
        .call()
        .with_context(|| format!("cannot download {url}"))?;
    let status = response.status().as_u16();
    let (mut file, resumed_from) = match status {
        206 => {
            let range = response
                .headers()
                .get("content-range")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default();
            ensure!(
                range.starts_with(&format!("bytes {offset}-")),
                "{url}: asked for the bytes from {offset}, got the range `{range}`"
            );
            let file = OpenOptions::new()
                .append(true)
                .open(part)
                .with_context(|| format!("cannot open {}", part.display()))?;
            (file, offset)
        }
        200 => {
            let file =
                File::create(part).with_context(|| format!("cannot create {}", part.display()))?;
            (file, 0)
        }
        // The part file already holds every byte: the checksum decides.
        416 if offset > 0 => return Ok(offset),
        _ => bail!("{url}: the server answered HTTP {status}"),
    };
    let mut body = response.into_body().into_reader();
    io::copy(&mut body, &mut file).with_context(|| {
        format!(
            "the download of {url} was interrupted; {} keeps what arrived, and running \
             `cargo xtask fetch-data` again resumes it",
            part.display()
        )
    })?;
    file.sync_all()
        .with_context(|| format!("cannot write {}", part.display()))?;
    Ok(resumed_from)
}

/// Writes `content` beside `dest` and renames it over `dest`.
fn write_atomically(dest: &Path, content: &[u8]) -> Result<()> {
    let tmp = with_suffix(dest, ".verified-tmp");
    let mut file =
        File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
    file.write_all(content)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    fs::rename(&tmp, dest)
        .with_context(|| format!("cannot rename {} to {}", tmp.display(), dest.display()))
}

/// What fetching an archive's files did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchedArchive {
    /// The destination already held the files of one source, each verified.
    AlreadyPresent,
    /// Downloaded from `url` (continuing a `.part` file of `resumed_from` bytes), verified and
    /// unpacked.
    Unpacked {
        /// The source the archive came from.
        url: String,
        /// Bytes already in the `.part` file when the download resumed; 0 for a fresh one.
        resumed_from: u64,
    },
    /// The files taken from a mirror, verified against one source's checksums.
    FromMirror,
}

/// Fetches an archive's files into `dest_dir`: see the [module documentation](self).
pub fn fetch_archive(
    agent: &ureq::Agent,
    archive: &Archive,
    dest_dir: &Path,
    source: Source<'_>,
) -> Result<FetchedArchive> {
    if archive.present_from(dest_dir).is_some() {
        return Ok(FetchedArchive::AlreadyPresent);
    }
    let dir = dest_dir.join(&archive.dest);
    // The downloads' `.part` files go beside the destination, which is made only to receive
    // verified files.
    let parts_dir = dir.parent().unwrap_or(dest_dir);
    fs::create_dir_all(parts_dir)
        .with_context(|| format!("cannot create {}", parts_dir.display()))?;
    if let Source::Mirror(base) = source {
        match files_from_mirror(agent, archive, &dir, base) {
            Ok(()) => return Ok(FetchedArchive::FromMirror),
            Err(error) => eprintln!(
                "{}: not taken from the mirror ({error:#}); trying its own sources",
                archive.name
            ),
        }
    }
    let mut failures = Vec::new();
    for source in &archive.sources {
        match unpack_from(agent, archive, source, &dir) {
            Ok(resumed_from) => {
                return Ok(FetchedArchive::Unpacked {
                    url: source.url.clone(),
                    resumed_from,
                })
            }
            Err(error) => {
                eprintln!("{}: {error:#}", archive.name);
                failures.push(format!("{error:#}"));
            }
        }
    }
    bail!(
        "none of its {} sources could be used: {}",
        archive.sources.len(),
        failures.join("; ")
    )
}

/// Downloads one source of `archive` (resuming its `.part` file, kept beside `dir`), checks
/// its checksum and those of the files taken from it, and writes them into `dir`; returns the
/// number of bytes the download continued from.
fn unpack_from(
    agent: &ureq::Agent,
    archive: &Archive,
    source: &ArchiveSource,
    dir: &Path,
) -> Result<u64> {
    let file_name = source
        .url
        .rsplit('/')
        .next()
        .filter(|n| !n.is_empty() && !n.starts_with('.'))
        .with_context(|| format!("{}: the URL names no file", source.url))?;
    let part = dir
        .parent()
        .unwrap_or(dir)
        .join(format!("{file_name}.part"));
    let resumed_from = download(agent, &source.url, &part)?;
    let discard = |error: anyhow::Error| {
        let _ = fs::remove_file(&part);
        error.context(format!("the download from {} was discarded", source.url))
    };
    let downloaded = fs::read(&part).with_context(|| format!("cannot read {}", part.display()))?;
    let digest = sha256_hex(&downloaded);
    if digest != source.sha256 {
        return Err(discard(anyhow::anyhow!(
            "checksum mismatch: expected {}, got {digest}",
            source.sha256
        )));
    }
    let files = unpack::files(
        source.format,
        &downloaded,
        &source.dir,
        &archive.file_names(),
    )
    .map_err(discard)?;
    for (name, content) in &files {
        let digest = sha256_hex(content);
        if digest != source.files[name] {
            return Err(discard(anyhow::anyhow!(
                "{}/{name} in the archive: checksum mismatch: expected {}, got {digest}",
                source.dir,
                source.files[name]
            )));
        }
    }
    install(dir, &files)?;
    fs::remove_file(&part).with_context(|| format!("cannot remove {}", part.display()))?;
    Ok(resumed_from)
}

/// Takes `archive`'s files from `base/<dest>/<file>`; they must all match one source's
/// checksums.
fn files_from_mirror(agent: &ureq::Agent, archive: &Archive, dir: &Path, base: &str) -> Result<()> {
    let mut files = BTreeMap::new();
    let mut parts = Vec::new();
    let result = (|| {
        for name in archive.file_names() {
            let url = format!(
                "{}/{}/{name}",
                base.trim_end_matches('/'),
                archive.dest.trim_end_matches('/')
            );
            let part = dir.with_file_name(format!("{name}.part"));
            parts.push(part.clone());
            download(agent, &url, &part)?;
            let content =
                fs::read(&part).with_context(|| format!("cannot read {}", part.display()))?;
            files.insert(name.to_string(), content);
        }
        let checksums: BTreeMap<&str, String> = files
            .iter()
            .map(|(name, content)| (name.as_str(), sha256_hex(content)))
            .collect();
        let matches = |source: &ArchiveSource| {
            source
                .files
                .iter()
                .all(|(name, sum)| checksums.get(name.as_str()) == Some(sum))
        };
        if !archive.sources.iter().any(matches) {
            let got: Vec<String> = checksums
                .iter()
                .map(|(name, sum)| format!("{name} {sum}"))
                .collect();
            bail!(
                "checksum mismatch: the mirror's files ({}) match no source's checksums; they \
                 were discarded",
                got.join(", ")
            );
        }
        install(dir, &files)
    })();
    for part in &parts {
        let _ = fs::remove_file(part);
    }
    result
}

/// Writes every file beside its destination in `dir`, then renames them all over their
/// destinations: a failure before the renames leaves the old files as they were.
fn install(dir: &Path, files: &BTreeMap<String, Vec<u8>>) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut written = Vec::new();
    for (name, content) in files {
        let dest = dir.join(name);
        let tmp = with_suffix(&dest, ".verified-tmp");
        let result = File::create(&tmp)
            .and_then(|mut file| file.write_all(content).and_then(|()| file.sync_all()))
            .with_context(|| format!("cannot write {}", tmp.display()));
        if let Err(error) = result {
            let _ = fs::remove_file(&tmp);
            for (tmp, _) in &written {
                let _ = fs::remove_file(tmp);
            }
            return Err(error);
        }
        written.push((tmp, dest));
    }
    for (tmp, dest) in &written {
        fs::rename(tmp, dest)
            .with_context(|| format!("cannot rename {} to {}", tmp.display(), dest.display()))?;
    }
    Ok(())
}

/// Runs `cargo xtask fetch-data`.
pub fn run(args: &Args) -> Result<()> {
    let manifest = Manifest::parse(MANIFEST)?;
    let dest = args
        .dest
        .clone()
        .unwrap_or_else(gendisc_data::loaders::data_dir);
    let mirror = mirror(args.mirror.as_deref());
    let source = match &mirror {
        Some(base) => Source::Mirror(base),
        None => Source::Canonical,
    };
    let (entries, archives): (Vec<&Entry>, Vec<&Archive>) = if args.files.is_empty() {
        (
            manifest.files.iter().collect(),
            manifest.archives.iter().collect(),
        )
    } else {
        let (mut entries, mut archives) = (Vec::new(), Vec::new());
        for name in &args.files {
            match (manifest.entry(name), manifest.archive(name)) {
                (Some(entry), _) => entries.push(entry),
                (None, Some(archive)) => archives.push(archive),
                (None, None) => bail!(
                    "`{name}` is not in the data manifest (xtask/data-manifest.json): name a \
                     file by its path, e.g. `uci/sonar/sonar.all-data`, or an archive: {}",
                    manifest
                        .archives
                        .iter()
                        .map(|a| a.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        }
        (entries, archives)
    };
    let agent = agent();
    let (mut failed, mut no_source, mut unverified) = (Vec::new(), Vec::new(), Vec::new());
    for entry in entries {
        match fetch(&agent, entry, &dest, source) {
            Ok(fetched) => {
                eprintln!("{}", fetched_message(entry, &fetched));
                match fetched {
                    Fetched::Unverified { .. } => unverified.push(entry.path.as_str()),
                    Fetched::NoSource => no_source.push(entry.path.as_str()),
                    Fetched::AlreadyPresent | Fetched::Downloaded { .. } => {}
                }
            }
            Err(error) => {
                eprintln!("{error:#}");
                failed.push(entry.path.as_str());
            }
        }
    }
    for archive in archives {
        match fetch_archive(&agent, archive, &dest, source) {
            Ok(fetched) => eprintln!("{}", archive_message(archive, &fetched)),
            Err(error) => {
                eprintln!("{}: {error:#}", archive.name);
                failed.push(archive.name.as_str());
            }
        }
    }
    let dest = dest.display();
    if !no_source.is_empty() {
        eprintln!(
            "not downloaded, for want of a canonical source: {}. Copy them into {dest} from a \
             copy of the data directory (its README documents their provenance), or fetch from \
             one with --mirror URL.",
            no_source.join(", ")
        );
    }
    if !unverified.is_empty() {
        eprintln!("kept without verification: {}", unverified.join(", "));
    }
    ensure!(
        failed.is_empty(),
        "{} of the files could not be fetched: {}",
        failed.len(),
        failed.join(", ")
    );
    eprintln!(
        "data directory: {dest} (the studies read {})",
        match std::env::var_os(gendisc_data::loaders::DATA_DIR_VAR).filter(|d| !d.is_empty()) {
            Some(dir) => format!("GENDISC_DATA, {}", Path::new(&dir).display()),
            None => "./data, GENDISC_DATA being unset".into(),
        }
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::io::{BufRead, BufReader};
    use std::net::TcpListener;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};

    #[test]
    fn the_manifest_is_well_formed_and_covers_the_studies() {
        let manifest = Manifest::parse(MANIFEST).unwrap();
        assert_eq!(manifest.files.len(), 42);
        // Every data file any paper needs or reads when present.
        for paper in gendisc_studies::papers::registry() {
            for need in paper.needs().into_iter().chain(paper.wants()) {
                if let gendisc_studies::Need::File(file) = need {
                    assert!(
                        manifest.entry(&file).is_some(),
                        "{}: {file} is not in the manifest",
                        paper.id()
                    );
                }
            }
        }
        // UCI does not distribute the ARFF: its source is the commit-pinned public copy.
        let sick = manifest.entry("uci/thyroid-sick/sick.arff").unwrap();
        assert!(sick
            .url
            .as_deref()
            .is_some_and(|u| u.contains("cca255a949dd5a0ddf9d1fbf00562c67e365e865")));
        let news = manifest.entry("20news-bydate.tar.gz").unwrap();
        assert!(!news.canonical_checksum_known);
    }

    #[test]
    fn the_checksums_are_those_of_the_data_readme() {
        let Some(dir) = std::env::var_os("GENDISC_DATA").filter(|d| !d.is_empty()) else {
            eprintln!("note: GENDISC_DATA is not set; skipping the comparison with SHA256SUMS");
            return;
        };
        let Ok(sums) = fs::read_to_string(Path::new(&dir).join("SHA256SUMS")) else {
            eprintln!("note: no SHA256SUMS in GENDISC_DATA; skipping");
            return;
        };
        let manifest = Manifest::parse(MANIFEST).unwrap();
        let mut listed = 0;
        for line in sums.lines().filter(|l| !l.trim().is_empty()) {
            let (sum, path) = line.split_once("  ").unwrap();
            let entry = manifest.entry(path).unwrap();
            assert_eq!(entry.sha256, sum, "{path}");
            listed += 1;
        }
        assert_eq!(listed, manifest.files.len());
    }

    #[test]
    fn transforms_and_bad_manifests() {
        assert_eq!(
            Transform::DropFirstLine
                .apply(b"|1x3 Cross validator\n25, Private\n".to_vec())
                .unwrap(),
            b"25, Private\n"
        );
        assert_eq!(
            Transform::StripFinalNewline
                .apply(b"1,2\n3,4\n".to_vec())
                .unwrap(),
            b"1,2\n3,4"
        );
        assert!(Transform::StripFinalNewline.apply(b"1,2".to_vec()).is_err());
        assert!(Transform::DropFirstLine
            .apply(b"one line".to_vec())
            .is_err());
        let entry = |path: &str, sum: &str| {
            format!(
                r#"{{"about": "", "files": [{{"path": "{path}", "url": null, "sha256": "{sum}"}}]}}"#
            )
        };
        let good = "a".repeat(64);
        assert!(Manifest::parse(&entry("uci/x.data", &good)).is_ok());
        assert!(Manifest::parse(&entry("../x.data", &good)).is_err());
        assert!(Manifest::parse(&entry("/etc/x", &good)).is_err());
        assert!(Manifest::parse(&entry("x", &"A".repeat(64))).is_err());
        assert!(Manifest::parse(&entry("x", "abc")).is_err());
        assert!(Manifest::parse(r#"{"about": "", "files": [], "extra": 1}"#).is_err());
    }

    /// Each request's path and the start of its `Range`, if any.
    type RequestLog = Arc<Mutex<Vec<(String, Option<u64>)>>>;

    /// A minimal HTTP/1.1 file server on 127.0.0.1 that honours `Range: bytes=N-` and logs
    /// each request's path and range.
    struct Server {
        base: String,
        log: RequestLog,
    }

    fn serve(files: HashMap<String, Vec<u8>>) -> Server {
        serve_cut(files, None)
    }

    /// As [`serve`], but the first answer for `cut`'s path sends only its first bytes (with
    /// the whole file's `Content-Length`) and closes the connection: an interrupted download.
    fn serve_cut(files: HashMap<String, Vec<u8>>, cut: Option<(&str, usize)>) -> Server {
        let mut cut = cut.map(|(path, bytes)| (format!("/{path}"), bytes));
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let log: RequestLog = Arc::new(Mutex::new(Vec::new()));
        let requests = Arc::clone(&log);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut first = String::new();
                if reader.read_line(&mut first).is_err() {
                    continue;
                }
                let path = first.split_whitespace().nth(1).unwrap_or("/").to_string();
                let mut range = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                        break;
                    }
                    if let Some((name, value)) = line.split_once(':')
                        && name.eq_ignore_ascii_case("range")
                    {
                        range = value
                            .trim()
                            .strip_prefix("bytes=")
                            .and_then(|r| r.strip_suffix('-'))
                            .and_then(|r| r.parse::<u64>().ok());
                    }
                }
                requests.lock().unwrap().push((path.clone(), range));
                let body = files.get(path.trim_start_matches('/'));
                let (head, body): (String, &[u8]) = match (body, range) {
                    (None, _) => ("404 Not Found".into(), b""),
                    (Some(b), Some(start)) if start >= b.len() as u64 => {
                        ("416 Range Not Satisfiable".into(), b"")
                    }
                    (Some(b), Some(start)) => (
                        format!(
                            "206 Partial Content\r\nContent-Range: bytes {start}-{}/{}",
                            b.len() - 1,
                            b.len()
                        ),
                        &b[start as usize..],
                    ),
                    (Some(b), None) => ("200 OK".into(), &b[..]),
                };
                let _ = write!(
                    stream,
                    "HTTP/1.1 {head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let sent = match cut.take_if(|(cut_path, _)| *cut_path == path) {
                    Some((_, bytes)) => &body[..bytes.min(body.len())],
                    None => body,
                };
                let _ = stream.write_all(sent);
            }
        });
        Server { base, log }
    }

    fn scratch_dir() -> PathBuf {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "gendisc-fetch-data-test-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// End to end against a local server that serves copies of the shared data files.
    #[test]
    fn downloads_verifies_resumes_and_rejects_corrupt_files() {
        let Some(data) = std::env::var_os("GENDISC_DATA").filter(|d| !d.is_empty()) else {
            eprintln!("note: GENDISC_DATA is not set; skipping the end-to-end fetch-data test");
            return;
        };
        let manifest = Manifest::parse(MANIFEST).unwrap();
        let paths = [
            "uci/lenses/lenses.data",
            "uci/sonar/sonar.all-data",
            "uci/adult/adult.data",
        ];
        let mut files = HashMap::new();
        for path in paths {
            let Ok(bytes) = fs::read(Path::new(&data).join(path)) else {
                eprintln!("note: {path} is missing from GENDISC_DATA; skipping");
                return;
            };
            files.insert(path.to_string(), bytes);
        }
        let server = serve(files.clone());
        let agent = agent();
        let dest = scratch_dir();
        let mirror = Source::Mirror(&server.base);

        // Download and verify; a second run finds every file in place.
        for path in paths {
            let entry = manifest.entry(path).unwrap();
            assert_eq!(
                fetch(&agent, entry, &dest, mirror).unwrap(),
                Fetched::Downloaded { resumed_from: 0 }
            );
            assert_eq!(fs::read(dest.join(path)).unwrap(), files[path]);
            assert!(!with_suffix(&dest.join(path), ".part").exists());
            assert_eq!(
                fetch(&agent, entry, &dest, mirror).unwrap(),
                Fetched::AlreadyPresent
            );
        }

        // An interrupted download: the first 1,000,000 bytes in the .part file.
        let adult = "uci/adult/adult.data";
        let target = dest.join(adult);
        fs::remove_file(&target).unwrap();
        fs::write(with_suffix(&target, ".part"), &files[adult][..1_000_000]).unwrap();
        let entry = manifest.entry(adult).unwrap();
        assert_eq!(
            fetch(&agent, entry, &dest, mirror).unwrap(),
            Fetched::Downloaded {
                resumed_from: 1_000_000
            }
        );
        assert_eq!(fs::read(&target).unwrap(), files[adult]);
        assert!(server
            .log
            .lock()
            .unwrap()
            .contains(&(format!("/{adult}"), Some(1_000_000))));

        // A .part file that is already complete: the server answers 416, the checksum decides.
        fs::remove_file(&target).unwrap();
        fs::write(with_suffix(&target, ".part"), &files[adult]).unwrap();
        assert_eq!(
            fetch(&agent, entry, &dest, mirror).unwrap(),
            Fetched::Downloaded {
                resumed_from: files[adult].len() as u64
            }
        );

        // A corrupted copy is rejected, and nothing of it is kept.
        let sonar = "uci/sonar/sonar.all-data";
        let mut corrupt = files.clone();
        corrupt.get_mut(sonar).unwrap()[100] ^= 0x01;
        let bad = serve(corrupt);
        let fresh = scratch_dir();
        let error = fetch(
            &agent,
            manifest.entry(sonar).unwrap(),
            &fresh,
            Source::Mirror(&bad.base),
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("checksum mismatch"), "{error}");
        assert!(error.contains(sonar), "{error}");
        assert!(
            error.contains(&manifest.entry(sonar).unwrap().sha256),
            "{error}"
        );
        assert!(!fresh.join(sonar).exists());
        assert!(!with_suffix(&fresh.join(sonar), ".part").exists());

        // A file the server does not have is an error naming the status.
        let missing = fetch(
            &agent,
            manifest.entry("uci/promoters/promoters.data").unwrap(),
            &fresh,
            Source::Mirror(&bad.base),
        )
        .unwrap_err()
        .to_string();
        assert!(missing.contains("404"), "{missing}");

        let _ = fs::remove_dir_all(&dest);
        let _ = fs::remove_dir_all(&fresh);
    }

    /// The three noun files of a fixture dictionary (not WordNet's), as a source packs them.
    fn fixture_files(data_noun: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
        vec![
            ("data.noun", data_noun.to_vec()),
            ("index.noun", b"dog n 1 1 @ 1 0 00000001\n".to_vec()),
            ("noun.exc", b"mice mouse\n".to_vec()),
        ]
    }

    /// A source of the fixture files at `url`, packed as `format` under `dir`; returns it and
    /// the archive's bytes.
    fn fixture_source(
        url: String,
        format: unpack::Format,
        dir: &str,
        files: &[(&str, Vec<u8>)],
    ) -> (ArchiveSource, Vec<u8>) {
        let in_archive: Vec<(String, &[u8])> = files
            .iter()
            .map(|(name, content)| (format!("{dir}/{name}"), &content[..]))
            .collect();
        let members: Vec<(&str, &[u8])> =
            in_archive.iter().map(|(p, c)| (p.as_str(), *c)).collect();
        let tar = unpack::tests::tar_of(&members);
        let bytes = match format {
            unpack::Format::TarGz => unpack::tests::gzip(&tar),
            unpack::Format::Deb => unpack::tests::deb_of(&tar),
        };
        let source = ArchiveSource {
            url,
            sha256: sha256_hex(&bytes),
            bytes: Some(bytes.len() as u64),
            format,
            dir: dir.trim_start_matches("./").to_string(),
            files: files
                .iter()
                .map(|(name, content)| (name.to_string(), sha256_hex(content)))
                .collect(),
            _note: None,
        };
        (source, bytes)
    }

    /// A fixture archive with two sources on `base` — a tarball and a Debian package whose
    /// `data.noun` differs, as Princeton's and Debian's do — and the files the server serves.
    fn fixture_archive(base: &str) -> (Archive, HashMap<String, Vec<u8>>) {
        let (tarball, tar_bytes) = fixture_source(
            format!("{base}/upstream/Dict-1.0.tar.gz"),
            unpack::Format::TarGz,
            "Dict-1.0/dict",
            &fixture_files(b"00000001 upstream\n"),
        );
        let (package, deb_bytes) = fixture_source(
            format!("{base}/pool/dict-base_1.0_all.deb"),
            unpack::Format::Deb,
            "./usr/share/dict",
            &fixture_files(b"00000001 rebuilt\n"),
        );
        let archive = Archive {
            name: "wordnet".into(),
            dest: "wordnet/dict".into(),
            what: "a fixture dictionary".into(),
            licence: "Fixture licence.".into(),
            sources: vec![tarball, package],
        };
        let served = HashMap::from([
            ("upstream/Dict-1.0.tar.gz".to_string(), tar_bytes),
            ("pool/dict-base_1.0_all.deb".to_string(), deb_bytes),
        ]);
        (archive, served)
    }

    /// The files of `dir` (names), to check that nothing half-written is left behind.
    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .map(|entries| {
                entries
                    .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }

    #[test]
    fn the_manifest_s_wordnet_is_where_the_reader_looks() {
        let manifest = Manifest::parse(MANIFEST).unwrap();
        let wordnet = manifest.archive("wordnet").unwrap();
        assert_eq!(wordnet.dest, gendisc_text::wordnet::DATA_DICT_DIR);
        assert_eq!(
            wordnet.file_names(),
            ["data.noun", "index.noun", "noun.exc"]
        );
        // Princeton's release first, Debian's package as the fallback; index.noun and noun.exc
        // are the same files in both.
        assert!(wordnet.sources[0]
            .url
            .starts_with("https://wordnetcode.princeton.edu/"));
        assert!(wordnet.sources[1].url.starts_with("http://deb.debian.org/"));
        for name in ["index.noun", "noun.exc"] {
            assert_eq!(
                wordnet.sources[0].files[name],
                wordnet.sources[1].files[name]
            );
        }
        assert!(wordnet.licence.contains("Princeton University"));
    }

    #[test]
    fn an_archive_is_downloaded_verified_and_unpacked_from_its_first_good_source() {
        // The fixtures are deterministic: the files served do not depend on the URLs.
        let (template, served) = fixture_archive("http://unused");
        let server = serve(served);
        let (archive, _) = fixture_archive(&server.base);
        assert_eq!(archive.sources[1].sha256, template.sources[1].sha256);
        let agent = agent();
        let data = scratch_dir();
        let dir = data.join("wordnet/dict");

        let fetched = fetch_archive(&agent, &archive, &data, Source::Canonical).unwrap();
        assert_eq!(
            fetched,
            FetchedArchive::Unpacked {
                url: archive.sources[0].url.clone(),
                resumed_from: 0
            }
        );
        assert_eq!(listing(&dir), ["data.noun", "index.noun", "noun.exc"]);
        assert_eq!(
            fs::read(dir.join("data.noun")).unwrap(),
            b"00000001 upstream\n"
        );
        assert_eq!(listing(&data.join("wordnet")), ["dict"]);
        assert_eq!(
            fetch_archive(&agent, &archive, &data, Source::Canonical).unwrap(),
            FetchedArchive::AlreadyPresent
        );
        assert!(std::ptr::eq(
            archive.present_from(&data).unwrap(),
            &archive.sources[0]
        ));

        // A file changed since: downloaded again.
        fs::write(dir.join("noun.exc"), b"edited\n").unwrap();
        assert!(archive.present_from(&data).is_none());
        assert!(matches!(
            fetch_archive(&agent, &archive, &data, Source::Canonical).unwrap(),
            FetchedArchive::Unpacked { .. }
        ));
        assert_eq!(fs::read(dir.join("noun.exc")).unwrap(), b"mice mouse\n");
        let _ = fs::remove_dir_all(&data);
    }

    #[test]
    fn a_corrupt_archive_is_discarded_and_the_next_source_used() {
        let (template, mut served) = fixture_archive("http://unused");
        served.get_mut("upstream/Dict-1.0.tar.gz").unwrap()[40] ^= 0x01;
        let server = serve(served);
        let (archive, _) = fixture_archive(&server.base);
        assert_eq!(archive.sources[0].sha256, template.sources[0].sha256);
        let agent = agent();
        let data = scratch_dir();

        let fetched = fetch_archive(&agent, &archive, &data, Source::Canonical).unwrap();
        assert_eq!(
            fetched,
            FetchedArchive::Unpacked {
                url: archive.sources[1].url.clone(),
                resumed_from: 0
            }
        );
        let dir = data.join("wordnet/dict");
        assert_eq!(
            fs::read(dir.join("data.noun")).unwrap(),
            b"00000001 rebuilt\n"
        );
        assert_eq!(listing(&dir), ["data.noun", "index.noun", "noun.exc"]);
        assert_eq!(listing(&data.join("wordnet")), ["dict"]);
        assert!(std::ptr::eq(
            archive.present_from(&data).unwrap(),
            &archive.sources[1]
        ));

        // With every source corrupt, nothing is written and the error says why for each.
        let only_corrupt = Archive {
            sources: vec![archive.sources[0].clone()],
            ..archive.clone()
        };
        let fresh = scratch_dir();
        let error = fetch_archive(&agent, &only_corrupt, &fresh, Source::Canonical)
            .unwrap_err()
            .to_string();
        assert!(error.contains("checksum mismatch"), "{error}");
        assert!(error.contains(&archive.sources[0].sha256), "{error}");
        assert!(error.contains("discarded"), "{error}");
        assert!(listing(&fresh.join("wordnet")).is_empty());

        // A good archive whose file does not match the manifest's checksum: nothing written.
        let mut wrong_file = archive.clone();
        wrong_file.sources.remove(0);
        wrong_file.sources[0]
            .files
            .insert("index.noun".into(), "0".repeat(64));
        let error = fetch_archive(&agent, &wrong_file, &fresh, Source::Canonical)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("usr/share/dict/index.noun in the archive: checksum mismatch"),
            "{error}"
        );
        assert!(listing(&fresh.join("wordnet")).is_empty());
        let _ = fs::remove_dir_all(&data);
        let _ = fs::remove_dir_all(&fresh);
    }

    #[test]
    fn an_interrupted_archive_download_resumes() {
        let (_, served) = fixture_archive("http://unused");
        let path = "pool/dict-base_1.0_all.deb";
        let half = served[path].len() / 2;
        let server = serve_cut(served.clone(), Some((path, half)));
        let (mut archive, _) = fixture_archive(&server.base);
        archive.sources.remove(0);
        let agent = agent();
        let data = scratch_dir();

        let error = fetch_archive(&agent, &archive, &data, Source::Canonical)
            .unwrap_err()
            .to_string();
        assert!(error.contains("interrupted"), "{error}");
        let part = data.join("wordnet/dict-base_1.0_all.deb.part");
        assert_eq!(fs::read(&part).unwrap(), served[path][..half]);
        assert_eq!(
            listing(&data.join("wordnet")),
            ["dict-base_1.0_all.deb.part"]
        );

        assert_eq!(
            fetch_archive(&agent, &archive, &data, Source::Canonical).unwrap(),
            FetchedArchive::Unpacked {
                url: archive.sources[0].url.clone(),
                resumed_from: half as u64
            }
        );
        assert!(server
            .log
            .lock()
            .unwrap()
            .contains(&(format!("/{path}"), Some(half as u64))));
        assert!(!part.exists());
        assert_eq!(
            fs::read(data.join("wordnet/dict/data.noun")).unwrap(),
            b"00000001 rebuilt\n"
        );
        let _ = fs::remove_dir_all(&data);
    }

    #[test]
    fn a_mirror_serves_the_unpacked_files_or_leaves_them_to_the_sources() {
        let (template, mut served) = fixture_archive("http://unused");
        // The mirror holds the tarball's files as unpacked, under the data directory's layout.
        for (name, content) in fixture_files(b"00000001 upstream\n") {
            served.insert(format!("copy/wordnet/dict/{name}"), content);
        }
        let server = serve(served.clone());
        let (archive, _) = fixture_archive(&server.base);
        assert_eq!(archive.sources[0].files, template.sources[0].files);
        let agent = agent();
        let mirror_base = format!("{}/copy", server.base);

        let data = scratch_dir();
        assert_eq!(
            fetch_archive(&agent, &archive, &data, Source::Mirror(&mirror_base)).unwrap(),
            FetchedArchive::FromMirror
        );
        assert!(std::ptr::eq(
            archive.present_from(&data).unwrap(),
            &archive.sources[0]
        ));
        assert_eq!(
            listing(&data.join("wordnet/dict")),
            ["data.noun", "index.noun", "noun.exc"]
        );

        // A mirror without them (HTTP 404): the archive comes from its own sources.
        let fresh = scratch_dir();
        let empty_mirror = format!("{}/elsewhere", server.base);
        assert_eq!(
            fetch_archive(&agent, &archive, &fresh, Source::Mirror(&empty_mirror)).unwrap(),
            FetchedArchive::Unpacked {
                url: archive.sources[0].url.clone(),
                resumed_from: 0
            }
        );

        // A mirror whose copy matches no source: discarded, then the sources.
        let mut corrupt = served;
        corrupt.insert("copy/wordnet/dict/noun.exc".into(), b"tampered\n".to_vec());
        let bad = serve(corrupt);
        let (archive, _) = fixture_archive(&bad.base);
        let third = scratch_dir();
        assert!(matches!(
            fetch_archive(
                &agent,
                &archive,
                &third,
                Source::Mirror(&format!("{}/copy", bad.base))
            )
            .unwrap(),
            FetchedArchive::Unpacked { .. }
        ));
        assert_eq!(
            listing(&third.join("wordnet/dict")),
            ["data.noun", "index.noun", "noun.exc"]
        );
        // Neither the mirror's discarded copies nor the archive's download are left behind.
        assert_eq!(listing(&third.join("wordnet")), ["dict"]);
        for dir in [data, fresh, third] {
            let _ = fs::remove_dir_all(&dir);
        }
    }

    #[test]
    fn sizes_read_as_a_person_writes_them() {
        assert_eq!(size_text(408), "408 B");
        assert_eq!(size_text(28_735), "28.7 kB");
        assert_eq!(size_text(14_496_924), "14.5 MB");
    }

    #[test]
    fn bad_archive_entries_are_rejected() {
        let manifest =
            |archive: &str| format!(r#"{{"about": "", "files": [], "archives": [{archive}]}}"#);
        let sum = "b".repeat(64);
        let archive = |dest: &str, names: [&str; 2], sum: &str| {
            format!(
                r#"{{"name": "wn", "dest": "{dest}", "what": "", "licence": "", "sources": [
                    {{"url": "u/a.tar.gz", "sha256": "{sum}", "format": "tar.gz", "dir": "d",
                      "files": {{"{}": "{sum}"}}}},
                    {{"url": "u/b.deb", "sha256": "{sum}", "format": "deb", "dir": "d",
                      "files": {{"{}": "{sum}"}}}}]}}"#,
                names[0], names[1]
            )
        };
        assert!(Manifest::parse(&manifest(&archive("wn/dict", ["x", "x"], &sum))).is_ok());
        assert!(Manifest::parse(&manifest(&archive("../wn", ["x", "x"], &sum))).is_err());
        assert!(Manifest::parse(&manifest(&archive("wn", ["x", "y"], &sum))).is_err());
        assert!(Manifest::parse(&manifest(&archive("wn", ["a/x", "a/x"], &sum))).is_err());
        assert!(Manifest::parse(&manifest(&archive("wn", ["x", "x"], "abc"))).is_err());
        let twice = format!(
            "{}, {}",
            archive("wn", ["x", "x"], &sum),
            archive("wn", ["x", "x"], &sum)
        );
        assert!(Manifest::parse(&manifest(&twice)).is_err());
    }
}
