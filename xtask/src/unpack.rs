//! Taking named files out of a downloaded archive, in memory: a gzip-compressed tar (Princeton's
//! WordNet release) or a Debian binary package (an `ar` archive whose `data.tar.*` member holds
//! the installed files).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use anyhow::{bail, ensure, Context, Result};
use flate2::read::GzDecoder;
use serde::Deserialize;

/// How an archive is packed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Format {
    /// A gzip-compressed tar file.
    #[serde(rename = "tar.gz")]
    TarGz,
    /// A Debian binary package: `ar` with a `data.tar`, `data.tar.gz` or `data.tar.xz` member.
    #[serde(rename = "deb")]
    Deb,
}

/// The files `names` of directory `dir` inside `archive` (a path without a leading `./`, e.g.
/// `WordNet-3.0/dict`), by name. Fails, naming them, when any is missing or is not a regular
/// file, and when the archive cannot be read.
pub fn files(
    format: Format,
    archive: &[u8],
    dir: &str,
    names: &[&str],
) -> Result<BTreeMap<String, Vec<u8>>> {
    match format {
        Format::TarGz => tar_files(GzDecoder::new(archive), dir, names),
        Format::Deb => {
            let data = deb_data_tar(archive)?;
            tar_files(&data[..], dir, names)
        }
    }
}

/// The uncompressed `data.tar` of a Debian package.
fn deb_data_tar(package: &[u8]) -> Result<Vec<u8>> {
    let mut members = ar::Archive::new(package);
    while let Some(member) = members.next_entry() {
        let mut member = member.context("not a Debian package (unreadable ar archive)")?;
        let name = String::from_utf8_lossy(member.header().identifier()).into_owned();
        let Some(compression) = name.strip_prefix("data.tar") else {
            continue;
        };
        let mut packed = Vec::new();
        member
            .read_to_end(&mut packed)
            .with_context(|| format!("cannot read the package's {name}"))?;
        let mut tar = Vec::new();
        match compression {
            "" => tar = packed,
            ".gz" => {
                GzDecoder::new(&packed[..])
                    .read_to_end(&mut tar)
                    .with_context(|| format!("cannot decompress the package's {name}"))?;
            }
            ".xz" => lzma_rs::xz_decompress(&mut &packed[..], &mut tar)
                .with_context(|| format!("cannot decompress the package's {name}"))?,
            _ => bail!("the package's {name} is compressed in a way this reader does not know"),
        }
        return Ok(tar);
    }
    bail!("not a Debian package: no data.tar member")
}

/// The files `names` of `dir` in a tar stream.
fn tar_files(tar: impl Read, dir: &str, names: &[&str]) -> Result<BTreeMap<String, Vec<u8>>> {
    let dir = Path::new(dir);
    let mut found = BTreeMap::new();
    let mut archive = tar::Archive::new(tar);
    for entry in archive.entries().context("cannot read the tar archive")? {
        let mut entry = entry.context("cannot read the tar archive")?;
        let path = without_current_dir(&entry.path().context("a tar entry has a bad path")?);
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            continue;
        };
        let Some(name) = names.iter().find(|n| **n == name) else {
            continue;
        };
        if parent != dir {
            continue;
        }
        ensure!(
            entry.header().entry_type().is_file(),
            "{} in the archive is not a regular file",
            path.display()
        );
        let mut content = Vec::new();
        entry
            .read_to_end(&mut content)
            .with_context(|| format!("cannot read {} from the archive", path.display()))?;
        found.insert(name.to_string(), content);
    }
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| !found.contains_key(*n))
        .collect();
    ensure!(
        missing.is_empty(),
        "the archive has no {} in {}",
        missing.join(", "),
        dir.display()
    );
    Ok(found)
}

/// `path` without `.` components (tar files often name their entries `./usr/…`).
fn without_current_dir(path: &Path) -> PathBuf {
    path.components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use flate2::Compression;

    /// A tar file holding `files` (path, content) as regular files, plus a directory entry.
    pub(crate) fn tar_of(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut builder = tar::Builder::new(Vec::new());
        let mut dir = tar::Header::new_gnu();
        dir.set_entry_type(tar::EntryType::Directory);
        dir.set_mode(0o755);
        dir.set_size(0);
        builder
            .append_data(&mut dir, "./top/", std::io::empty())
            .unwrap();
        for (path, content) in files {
            let mut header = tar::Header::new_gnu();
            header.set_mode(0o644);
            header.set_size(content.len() as u64);
            builder.append_data(&mut header, path, *content).unwrap();
        }
        builder.into_inner().unwrap()
    }

    /// `bytes`, gzip-compressed.
    pub(crate) fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        std::io::Write::write_all(&mut encoder, bytes).unwrap();
        encoder.finish().unwrap()
    }

    /// A Debian package whose `data.tar.xz` is `tar`.
    pub(crate) fn deb_of(tar: &[u8]) -> Vec<u8> {
        let mut xz = Vec::new();
        lzma_rs::xz_compress(&mut &tar[..], &mut xz).unwrap();
        let mut builder = ar::Builder::new(Vec::new());
        for (name, content) in [
            ("debian-binary", &b"2.0\n"[..]),
            ("control.tar.xz", &b"not read"[..]),
            ("data.tar.xz", &xz[..]),
        ] {
            let header = ar::Header::new(name.as_bytes().to_vec(), content.len() as u64);
            builder.append(&header, content).unwrap();
        }
        builder.into_inner().unwrap()
    }

    #[test]
    fn files_come_out_of_a_tar_gz_and_a_debian_package() {
        let tar = tar_of(&[
            ("top/dict/a.txt", b"alpha"),
            ("./top/dict/b.txt", b"beta"),
            ("top/other/a.txt", b"not this one"),
            ("top/dict/c.txt", b"not asked for"),
        ]);
        let names = ["a.txt", "b.txt"];
        let expected: BTreeMap<String, Vec<u8>> = [
            ("a.txt".to_string(), b"alpha".to_vec()),
            ("b.txt".to_string(), b"beta".to_vec()),
        ]
        .into();
        assert_eq!(
            files(Format::TarGz, &gzip(&tar), "top/dict", &names).unwrap(),
            expected
        );
        assert_eq!(
            files(Format::Deb, &deb_of(&tar), "top/dict", &names).unwrap(),
            expected
        );
    }

    #[test]
    fn a_missing_file_or_a_broken_archive_is_an_error() {
        let tar = tar_of(&[("top/dict/a.txt", b"alpha")]);
        let error = files(Format::TarGz, &gzip(&tar), "top/dict", &["a.txt", "z.txt"])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("no z.txt") && error.contains("top/dict"),
            "{error}"
        );
        let error = files(Format::TarGz, &gzip(&tar), "elsewhere", &["a.txt"])
            .unwrap_err()
            .to_string();
        assert!(error.contains("no a.txt in elsewhere"), "{error}");
        assert!(files(Format::TarGz, b"not gzip", "top/dict", &["a.txt"]).is_err());
        let error = files(Format::Deb, &gzip(&tar), "top/dict", &["a.txt"])
            .unwrap_err()
            .to_string();
        assert!(error.contains("not a Debian package"), "{error}");
        let mut truncated = gzip(&tar);
        truncated.truncate(truncated.len() / 2);
        assert!(files(Format::TarGz, &truncated, "top/dict", &["a.txt"]).is_err());
    }
}
