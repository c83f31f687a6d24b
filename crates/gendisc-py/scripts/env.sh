#!/usr/bin/env bash
# Makes the virtual environment of the Python package's pinned test requirements from PyPI, if it
# is not made yet, and prints its path.
#
# The environment is a cache kept outside the checkout, one per version of the requirements
# (`$GENDISC_PYTHON_ENV`, else under `$XDG_CACHE_HOME` or `~/.cache`), so that a fresh clone does
# not install the same wheels again. It needs nothing of the Rust build, so continuous integration
# makes it while the workspace compiles.
#
# Usage: crates/gendisc-py/scripts/env.sh   (needs python3 ≥ 3.10 with venv)
set -euo pipefail
package="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
requirements="$package/requirements-test.txt"
version="$(sha256sum "$requirements" | cut -c1-16)"
venv="${GENDISC_PYTHON_ENV:-${XDG_CACHE_HOME:-$HOME/.cache}/gendisc/python-$version}"

# `complete` marks an environment whose installation finished: an interrupted one is made again.
if [ ! -e "$venv/complete" ]; then
  rm -rf "$venv"
  "$python" -m venv "$venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2
  touch "$venv/complete"
fi
printf '%s\n' "$venv"
