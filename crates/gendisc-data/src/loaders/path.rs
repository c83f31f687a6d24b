//! Where the real data sets live: `$GENDISC_DATA`, else `./data`.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use gendisc_core::{Error, Result};

/// The environment variable that names the data directory.
pub const DATA_DIR_VAR: &str = "GENDISC_DATA";

/// The data directory: `$GENDISC_DATA` if set and not empty, else `data` (relative to the
/// current directory).
pub fn data_dir() -> PathBuf {
    dir_from(std::env::var_os(DATA_DIR_VAR))
}

/// The full path of a data file given relative to the data directory (see [`data_dir`]), e.g.
/// `"uci/adult/adult.data"`. An absolute `relative` is used as it is.
///
/// Fails with an [`Error::Io`] (kind `NotFound`) naming the missing file, where it was looked
/// for, and that `cargo xtask fetch-data` downloads the data sets.
///
/// ```no_run
/// use gendisc_data::loaders::{dataset_path, Separator, TableReader};
///
/// let pima = TableReader::uci(Separator::Comma)
///     .read(dataset_path("uci/pima-indians-diabetes/pima-indians-diabetes.data")?)?;
/// # Ok::<(), gendisc_core::Error>(())
/// ```
pub fn dataset_path(relative: impl AsRef<Path>) -> Result<PathBuf> {
    resolve(std::env::var_os(DATA_DIR_VAR), relative.as_ref())
}

fn dir_from(var: Option<OsString>) -> PathBuf {
    match var {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from("data"),
    }
}

fn resolve(var: Option<OsString>, relative: &Path) -> Result<PathBuf> {
    let from_variable = var.as_ref().is_some_and(|v| !v.is_empty());
    let dir = dir_from(var);
    let path = dir.join(relative);
    if path.exists() {
        return Ok(path);
    }
    let looked_in = if from_variable {
        format!("{DATA_DIR_VAR} is {}", dir.display())
    } else {
        format!("{DATA_DIR_VAR} is not set, so the data directory is ./data")
    };
    Err(Error::Io {
        path,
        source: io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "data file not found ({looked_in}); run `cargo xtask fetch-data` to download the \
                 data sets, or set {DATA_DIR_VAR} to the directory that holds them"
            ),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unset_or_empty_variable_means_data() {
        assert_eq!(dir_from(None), PathBuf::from("data"));
        assert_eq!(dir_from(Some(OsString::new())), PathBuf::from("data"));
        assert_eq!(dir_from(Some("/srv/d".into())), PathBuf::from("/srv/d"));
    }

    #[test]
    fn existing_files_resolve_under_the_directory() {
        let dir = env!("CARGO_MANIFEST_DIR");
        let path = resolve(Some(dir.into()), Path::new("Cargo.toml")).unwrap();
        assert_eq!(path, Path::new(dir).join("Cargo.toml"));
    }

    #[test]
    fn a_missing_file_names_itself_and_the_fetch_command() {
        let err = resolve(Some("nowhere".into()), Path::new("uci/x.data")).unwrap_err();
        let message = err.to_string();
        match &err {
            Error::Io { path, source } => {
                assert_eq!(path, &Path::new("nowhere").join("uci/x.data"));
                assert_eq!(source.kind(), io::ErrorKind::NotFound);
            }
            other => panic!("{other}"),
        }
        assert!(message.contains("x.data"), "{message}");
        assert!(message.contains("cargo xtask fetch-data"), "{message}");
        assert!(message.contains("GENDISC_DATA is nowhere"), "{message}");
        let message = resolve(None, Path::new("surely/absent.data"))
            .unwrap_err()
            .to_string();
        assert!(message.contains("not set"), "{message}");
    }
}
