#!/usr/bin/env bash
# Builds the `gendisc` Python package into a virtual environment and runs its tests: a virtual
# environment of the pinned test requirements from PyPI, the extension built into it by maturin
# in the workspace's dev profile, then pytest (scikit-learn's estimator checks, the agreement
# tests and the Python examples).
#
# The environment is a cache kept outside the checkout, one per version of the requirements
# (`$GENDISC_PYTHON_ENV`, else under `$XDG_CACHE_HOME` or `~/.cache`), so that a fresh clone does
# not install the same wheels again; the package itself is built from the checkout every time.
#
# Usage: crates/gendisc-py/scripts/test.sh [PYTEST ARGS…]   (needs python3 ≥ 3.10 with venv)
set -euo pipefail
package="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
requirements="$package/requirements-test.txt"
version="$(sha256sum "$requirements" | cut -c1-16)"
venv="${GENDISC_PYTHON_ENV:-${XDG_CACHE_HOME:-$HOME/.cache}/gendisc/python-$version}"

# `complete` marks an environment whose installation finished: an interrupted one is made again.
if [ ! -e "$venv/complete" ]; then
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
  touch "$venv/complete"
fi
# maturin finds the environment through VIRTUAL_ENV.
VIRTUAL_ENV="$venv" "$venv/bin/maturin" develop --quiet \
  --manifest-path "$package/Cargo.toml"
cd "$package"
"$venv/bin/python" -m pytest -q tests "$@"
