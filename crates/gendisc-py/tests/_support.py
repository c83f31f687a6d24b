"""What several test modules share."""

import os
import pathlib

REPOSITORY = pathlib.Path(__file__).resolve().parents[3]


def command():
    """The `gendisc` binary the workspace's tests built, if there is one."""
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPOSITORY / "target"))
    if not target.is_absolute():
        target = REPOSITORY / target
    for profile in ("debug", "release"):
        binary = target / profile / "gendisc"
        if binary.exists():
            return binary
    return None
