//! `cargo xtask fetch-data`: downloads the data sets of the studies into `./data` (or `--dest`),
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

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, ensure, Context, Result};
use serde::Deserialize;
use sha2::{Digest, Sha256};

/// The manifest, compiled in so that `fetch-data` works from any directory.
pub const MANIFEST: &str = include_str!("../data-manifest.json");

/// The environment variable that names a mirror of the data directory (as `--mirror`).
pub const MIRROR_VAR: &str = "GENDISC_DATA_MIRROR";

/// Arguments of `cargo xtask fetch-data`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only these files (paths as in the manifest, e.g. `uci/sonar/sonar.all-data`); default:
    /// every file.
    files: Vec<String>,
    /// Directory to download into; the studies read `./data` when GENDISC_DATA is unset.
    #[arg(long, default_value = "data")]
    dest: PathBuf,
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
                entry.sha256.len() == 64
                    && entry
                        .sha256
                        .bytes()
                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
                "data manifest: the checksum of `{}` is not 64 lowercase hex digits",
                entry.path
            );
        }
        Ok(manifest)
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

/// An HTTP agent that reports every status to the caller (a `Range` request may be answered
/// 206, 200 or 416) and gives up on a connection after a minute.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_connect(Some(Duration::from_secs(60)))
        .build()
        .into()
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

/// Runs `cargo xtask fetch-data`.
pub fn run(args: &Args) -> Result<()> {
    let manifest = Manifest::parse(MANIFEST)?;
    let mirror = args
        .mirror
        .clone()
        .or_else(|| std::env::var(MIRROR_VAR).ok().filter(|m| !m.is_empty()));
    let source = match &mirror {
        Some(base) => Source::Mirror(base),
        None => Source::Canonical,
    };
    let entries: Vec<&Entry> = if args.files.is_empty() {
        manifest.files.iter().collect()
    } else {
        args.files
            .iter()
            .map(|path| {
                manifest.entry(path).with_context(|| {
                    format!("`{path}` is not in the data manifest (xtask/data-manifest.json)")
                })
            })
            .collect::<Result<_>>()?
    };
    let agent = agent();
    let (mut failed, mut no_source, mut unverified) = (Vec::new(), Vec::new(), Vec::new());
    for entry in entries {
        match fetch(&agent, entry, &args.dest, source) {
            Ok(Fetched::AlreadyPresent) => eprintln!("{}: present and verified", entry.path),
            Ok(Fetched::Downloaded { resumed_from: 0 }) => {
                eprintln!("{}: downloaded and verified", entry.path)
            }
            Ok(Fetched::Downloaded { resumed_from }) => eprintln!(
                "{}: downloaded (resumed after {resumed_from} bytes) and verified",
                entry.path
            ),
            Ok(Fetched::Unverified { sha256 }) => {
                eprintln!(
                    "{}: downloaded but NOT verified (sha256 {sha256}): {}",
                    entry.path,
                    entry
                        .note
                        .as_deref()
                        .unwrap_or("no recorded checksum applies")
                );
                unverified.push(entry.path.as_str());
            }
            Ok(Fetched::NoSource) => {
                eprintln!(
                    "{}: no canonical source: {}",
                    entry.path,
                    entry.note.as_deref().unwrap_or("none recorded")
                );
                no_source.push(entry.path.as_str());
            }
            Err(error) => {
                eprintln!("{error:#}");
                failed.push(entry.path.as_str());
            }
        }
    }
    let dest = args.dest.display();
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
    eprintln!("data directory: {dest} (the studies read it when GENDISC_DATA is unset)");
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
        for file in gendisc_studies::papers::ng_jordan::required_files() {
            assert!(
                manifest.entry(file).is_some(),
                "{file} is not in the manifest"
            );
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
                    if let Some((name, value)) = line.split_once(':') {
                        if name.eq_ignore_ascii_case("range") {
                            range = value
                                .trim()
                                .strip_prefix("bytes=")
                                .and_then(|r| r.strip_suffix('-'))
                                .and_then(|r| r.parse::<u64>().ok());
                        }
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
                let _ = stream.write_all(body);
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
}
