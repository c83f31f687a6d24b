#!/usr/bin/env bash
# Builds the `gendisc` Python package into a virtual environment and runs its tests: the
# environment of the pinned test requirements (`env.sh`, a cache outside the checkout), the
# extension built into it by maturin in the workspace's dev profile, then pytest (scikit-learn's
# estimator checks, the agreement tests and the Python examples). The package itself is built
# from the checkout every time.
#
# Usage: crates/gendisc-py/scripts/test.sh [PYTEST ARGS…]   (needs python3 ≥ 3.10 with venv)
set -euo pipefail
package="$(cd "$(dirname "$0")/.." && pwd)"
venv="$("$package/scripts/env.sh")"
# maturin finds the environment through VIRTUAL_ENV.
VIRTUAL_ENV="$venv" "$venv/bin/maturin" develop --quiet \
  --manifest-path "$package/Cargo.toml"
cd "$package"
"$venv/bin/python" -m pytest -q tests "$@"
