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
pub fn cargo() -> Command {
    let program = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(program);
    command.current_dir(workspace_root());
    command
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

/// An example target of a workspace package.
#[derive(Debug)]
pub struct Example {
    /// The package that owns it.
    pub package: String,
    /// The example's name.
    pub name: String,
}

/// Every example of every workspace member, in a stable order.
pub fn workspace_examples() -> Result<Vec<Example>> {
    let output = cargo()
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .output()
        .context("cannot run cargo metadata")?;
    if !output.status.success() {
        bail!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).context("cargo metadata printed invalid JSON")?;
    let mut examples = Vec::new();
    for package in metadata["packages"].as_array().into_iter().flatten() {
        let package_name = package["name"].as_str().unwrap_or_default();
        for target in package["targets"].as_array().into_iter().flatten() {
            let is_example = target["kind"]
                .as_array()
                .is_some_and(|kinds| kinds.iter().any(|k| k == "example"));
            if is_example {
                examples.push(Example {
                    package: package_name.to_string(),
                    name: target["name"].as_str().unwrap_or_default().to_string(),
                });
            }
        }
    }
    examples.sort_by(|a, b| (&a.package, &a.name).cmp(&(&b.package, &b.name)));
    Ok(examples)
}
