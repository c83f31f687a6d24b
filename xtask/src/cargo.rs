//! Running cargo from the task runner.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{bail, Context, Result};

/// The workspace root (the parent of this crate's manifest directory).
pub fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(PathBuf::from).unwrap_or(manifest)
}

/// A `cargo` command run from the workspace root with the same toolchain as this process.
///
/// Without the variables `cargo run` set for this process (see [`describes_this_package`]):
/// build scripts that read them (ring's reads `CARGO_MANIFEST_DIR` and `CARGO_PKG_NAME`) ask
/// Cargo to rebuild when they change, and seeing the task runner's values here and none in the
/// `cargo xtask` that built this process, Cargo rebuilt ring, rustls, ureq and the task runner
/// at every step of `cargo xtask test`.
pub fn cargo() -> Command {
    let program = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(program);
    command.current_dir(workspace_root());
    for (name, _) in std::env::vars_os() {
        if name.to_str().is_some_and(describes_this_package) {
            command.env_remove(name);
        }
    }
    command
}

/// Whether `name` is one of the variables Cargo sets for the package it runs, describing this
/// crate rather than configuring Cargo (which `CARGO_HOME`, `CARGO_TARGET_DIR`, `CARGO_PROFILE_*`
/// and the like do, and keep doing in the child).
fn describes_this_package(name: &str) -> bool {
    name.starts_with("CARGO_PKG_")
        || matches!(
            name,
            "CARGO_MANIFEST_DIR"
                | "CARGO_MANIFEST_PATH"
                | "CARGO_MANIFEST_LINKS"
                | "CARGO_CRATE_NAME"
                | "CARGO_BIN_NAME"
                | "CARGO_PRIMARY_PACKAGE"
                | "CARGO_TARGET_TMPDIR"
                | "CARGO_RUSTC_CURRENT_DIR"
        )
}

/// Runs a command to completion, failing with its description if it does not succeed.
pub fn run(mut command: Command) -> Result<()> {
    let description = format!("{command:?}");
    let status = command
        .status()
        .with_context(|| format!("cannot start {description}"))?;
    if !status.success() {
        bail!("{description} failed with {status}");
    }
    Ok(())
}

/// An example of a workspace package, built.
#[derive(Debug)]
pub struct Example {
    /// The package that owns it.
    pub package: String,
    /// The example's name.
    pub name: String,
    /// The built executable.
    pub executable: PathBuf,
}

/// The Python extension's package: built by maturin, tested by its own script, and left out of
/// the workspace's Rust tests and examples (its dependencies would change the features the
/// other crates are built with).
pub const PYTHON_EXTENSION: &str = "gendisc-py";

/// Builds every example of every workspace member in one `cargo build --workspace --examples`
/// and returns them in a stable order.
///
/// One build of the whole workspace resolves features as the tests' `cargo test --workspace
/// --exclude gendisc-py` does, so it reuses their artifacts; `cargo run -p PACKAGE --example
/// NAME` resolves them for that package alone and rebuilt much of the workspace for each
/// package, and so did the Python extension's dependencies when it was in the set.
pub fn build_workspace_examples() -> Result<Vec<Example>> {
    let output = cargo()
        .args([
            "build",
            "--workspace",
            "--exclude",
            PYTHON_EXTENSION,
            "--examples",
        ])
        .args(["--message-format", "json-render-diagnostics"])
        .stderr(std::process::Stdio::inherit())
        .output()
        .context("cannot run cargo build --examples")?;
    if !output.status.success() {
        bail!(
            "cargo build --workspace --examples failed with {}",
            output.status
        );
    }
    let mut examples = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let is_example = message["reason"] == "compiler-artifact"
            && message["target"]["kind"]
                .as_array()
                .is_some_and(|kinds| kinds.iter().any(|k| k == "example"));
        let (Some(executable), true) = (message["executable"].as_str(), is_example) else {
            continue;
        };
        // A package id reads `path+file:///…/NAME#VERSION`, `path+file:///…/DIR#NAME@VERSION`
        // when the directory is not named after the package, or `NAME VERSION (…)`.
        let id = message["package_id"].as_str().unwrap_or_default();
        let package = match id.rsplit_once('#') {
            Some((_, fragment)) if fragment.contains('@') => {
                fragment.split('@').next().unwrap_or(fragment)
            }
            Some((path, _)) => path.rsplit('/').next().unwrap_or(path),
            None => id.split(' ').next().unwrap_or(id),
        };
        examples.push(Example {
            package: package.to_string(),
            name: message["target"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            executable: PathBuf::from(executable),
        });
    }
    examples.sort_by(|a, b| (&a.package, &a.name).cmp(&(&b.package, &b.name)));
    Ok(examples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_package_description_goes_and_the_configuration_stays() {
        for gone in [
            "CARGO_MANIFEST_DIR",
            "CARGO_PKG_NAME",
            "CARGO_PKG_VERSION_MAJOR",
            "CARGO_CRATE_NAME",
        ] {
            assert!(describes_this_package(gone), "{gone}");
        }
        for kept in [
            "CARGO",
            "CARGO_HOME",
            "CARGO_TARGET_DIR",
            "CARGO_INCREMENTAL",
            "CARGO_PROFILE_DEV_DEBUG",
            "CARGO_BUILD_JOBS",
        ] {
            assert!(!describes_this_package(kept), "{kept}");
        }
        // What the child sees: none of what `cargo run` told this process about its package.
        let command = cargo();
        let removed: Vec<_> = command
            .get_envs()
            .filter(|(_, value)| value.is_none())
            .filter_map(|(name, _)| name.to_str())
            .collect();
        assert!(removed.iter().all(|name| describes_this_package(name)));
        if std::env::var_os("CARGO_PKG_NAME").is_some() {
            assert!(removed.contains(&"CARGO_PKG_NAME"));
        }
    }
}
