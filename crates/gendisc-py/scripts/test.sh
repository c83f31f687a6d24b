#!/usr/bin/env bash
# Builds the `gendisc` Python package into a virtual environment and runs its tests: a
# virtual environment under target/python (made once, reused), the pinned test requirements from
# PyPI, the extension built by maturin in the workspace's dev profile, then pytest (scikit-learn's
# estimator checks and the agreement tests).
#
# Usage: crates/gendisc-py/scripts/test.sh [PYTEST ARGS…]   (needs python3 ≥ 3.10 with venv)
set -euo pipefail
package="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$package/../.." && pwd)"
venv="${CARGO_TARGET_DIR:-$root/target}/python"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  -r "$package/requirements-test.txt"
# maturin finds the environment through VIRTUAL_ENV.
VIRTUAL_ENV="$venv" "$venv/bin/maturin" develop --quiet \
  --manifest-path "$package/Cargo.toml"
cd "$package"
"$venv/bin/python" -m pytest -q tests "$@"
